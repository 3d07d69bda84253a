//! What the game (or a script) sends through the sea, and how a wave is taken in: checked
//! whole first, so a wave with a non-finite number changes nothing.

use super::settings::finite;
use super::{Front, KnockKind, MAX_FRONTS, MAX_RING_COUNT, MAX_STRENGTH, Rgba, Sea, WaveError};

/// Something the game (or a script) sends through the sea.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Wave {
    /// Rings spreading from a world point, `count` of them a moment apart. A ring lights,
    /// lifts, tints and pushes outward the scales it passes, and fades as it spreads; a
    /// negative strength darkens and sinks instead.
    Ring {
        /// Where it starts, in world units.
        at: [f32; 2],
        /// 1 is a plain word; up to 4 either way.
        strength: f32,
        /// What it tints the scales it passes.
        color: Rgba,
        /// How many rings (1 to 8).
        count: u32,
    },
    /// A broad wave rolling up across the whole sea.
    Surge {
        /// 1 is a plain surge; negative sinks and darkens.
        strength: f32,
        /// What it tints.
        color: Rgba,
    },
    /// A knock under a point: the scales there heave and ring down, with a ring of its own.
    Jolt {
        /// Where, in world units.
        at: [f32; 2],
        /// How hard.
        strength: f32,
        /// What it tints.
        color: Rgba,
    },
    /// The scales round a point shake side to side and darken for a moment.
    Shudder {
        /// Where, in world units.
        at: [f32; 2],
        /// How hard.
        strength: f32,
    },
    /// The whole sea breathes once, outward from its centre (a countdown's beat).
    Beat {
        /// How deep the breath.
        strength: f32,
    },
}

/// Sends a wave through the sea. A wave with a non-finite number is refused and changes
/// nothing; strengths are held to ±4 and a ring's count to 1..=8.
pub fn apply(sea: &mut Sea, wave: Wave) -> Result<(), WaveError> {
    let strength = |s: f32| -> Result<f32, WaveError> {
        finite("wave strength", s)?;
        Ok(s.clamp(-MAX_STRENGTH, MAX_STRENGTH))
    };
    let point = |at: [f32; 2]| -> Result<[f32; 2], WaveError> {
        finite("wave x", at[0])?;
        finite("wave y", at[1])?;
        Ok(at)
    };
    let colour = |c: Rgba| -> Result<Rgba, WaveError> {
        if c.0.iter().all(|v| v.is_finite()) {
            Ok(Rgba(c.0.map(|v| v.clamp(0.0, 1.0))))
        } else {
            Err(WaveError::Colour {
                field: "wave colour",
                value: c.0,
            })
        }
    };
    match wave {
        Wave::Ring {
            at,
            strength: s,
            color,
            count,
        } => {
            let (at, s, color) = (point(at)?, strength(s)?, colour(color)?);
            for i in 0..count.clamp(1, MAX_RING_COUNT) {
                // Each later ring of a count a little weaker.
                sea.push_ring(at, s * 0.85f32.powi(i as i32), color, i, 1.0);
            }
        }
        Wave::Surge { strength: s, color } => {
            let (s, color) = (strength(s)?, colour(color)?);
            if sea.fronts.len() == MAX_FRONTS {
                sea.fronts.remove(0);
            }
            sea.fronts.push(Front {
                strength: s,
                color,
                born: sea.clock,
                y: f32::NEG_INFINITY,
                amp: 0.0,
            });
        }
        Wave::Jolt {
            at,
            strength: s,
            color,
        } => {
            let (at, s, color) = (point(at)?, strength(s)?, colour(color)?);
            sea.push_knock(KnockKind::Jolt, at, s, color);
            sea.push_ring(at, s * 0.7, color, 0, 1.3);
        }
        Wave::Shudder { at, strength: s } => {
            let (at, s) = (point(at)?, strength(s)?);
            let dark = sea.palette.dark;
            sea.push_knock(KnockKind::Shudder, at, s, dark);
        }
        Wave::Beat { strength: s } => {
            let s = strength(s)?;
            sea.push_knock(KnockKind::Beat, [0.0, 0.0], s, Rgba::WHITE);
        }
    }
    Ok(())
}

/// A ring from a world point: gold without a colour, or the sea's dark when the strength is
/// negative (which darkens and sinks the scales it passes).
pub fn ripple(
    sea: &mut Sea,
    at: [f32; 2],
    strength: f32,
    color: Option<Rgba>,
) -> Result<(), WaveError> {
    let color = color.unwrap_or(sea.fallback(strength));
    apply(
        sea,
        Wave::Ring {
            at,
            strength,
            color,
            count: 1,
        },
    )
}

/// A wave across the whole sea, rolling up from the bottom: gold without a colour, or the
/// sea's dark when the strength is negative.
pub fn surge(sea: &mut Sea, strength: f32, color: Option<Rgba>) -> Result<(), WaveError> {
    let color = color.unwrap_or(sea.fallback(strength));
    apply(sea, Wave::Surge { strength, color })
}
