//! What a sea is made from: its [`Settings`] (sizes, motion, colours), the [`Palette`] its
//! waves paint with, and the [`WaveError`] a value the sea cannot take is refused with.

use std::fmt;

use super::layout::scale_count;
use super::{MAX_BPM, MAX_GLINTS, MAX_SCALES, MAX_SWELL};

/// An RGBA colour with channels in 0..=1 (the engine's colour, as plain numbers).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba(pub [f32; 4]);

impl Rgba {
    /// Opaque white.
    pub const WHITE: Rgba = Rgba([1.0, 1.0, 1.0, 1.0]);

    /// An opaque colour from its 8-bit sRGB channels, as `#rrggbb` reads.
    pub fn rgb8(r: u8, g: u8, b: u8) -> Rgba {
        Rgba([r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, 1.0])
    }
}

/// How the sea behind the board looks and moves: the numbers of a `kotoba_waves` component.
///
/// Sizes are world units; the defaults lay a gentle indigo sea a little wider than the default
/// 16x9 camera, a scale about a twelfth of its width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Width and height of the sea in world units.
    pub area: [f32; 2],
    /// World point at the middle of the sea.
    pub centre: [f32; 2],
    /// World width of one scale; rows lie a quarter of this apart.
    pub scale: f32,
    /// Depth of the back row; the scales stay below `z + 1` ([`Z_BAND`](super::Z_BAND)).
    pub z: f32,
    /// How rough the resting sea is: 0 still, 1 gentle, up to 4.
    pub swell: f32,
    /// How fast the swells' crests travel, world units a second.
    pub swell_speed: f32,
    /// World distance between one swell's crests.
    pub swell_length: f32,
    /// Glints a second: a scale catching the sun.
    pub glints: f32,
    /// Least and most seconds between gusts.
    pub gusts: [f32; 2],
    /// Set, the sea breathes on the music's beat, read from the music's playhead, and holds
    /// still when the music does; the tempo is the playing track's own when it says one, else
    /// this. Unset, the sea does not breathe to the music.
    pub bpm: Option<f32>,
    /// How much scales rise round the pointer (0 to ignore it).
    pub hover: f32,
    /// The sea in a trough.
    pub deep: Rgba,
    /// The sea on a crest.
    pub light: Rgba,
    /// Player 1's rings, and a clear's.
    pub gold: Rgba,
    /// Player 2's rings.
    pub coral: Rgba,
    /// Refusals and losses.
    pub dark: Rgba,
    /// Your own hurt.
    pub hurt: Rgba,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            area: [20.0, 12.0],
            centre: [0.0, 0.0],
            scale: 1.35,
            z: -10.0,
            swell: 1.0,
            swell_speed: 0.5,
            swell_length: 9.0,
            glints: 1.5,
            gusts: [6.0, 14.0],
            bpm: None,
            hover: 1.0,
            deep: Rgba::rgb8(0x15, 0x20, 0x5e),
            light: Rgba::rgb8(0x9c, 0xc8, 0xf2),
            gold: Rgba::rgb8(0xf4, 0xc0, 0x4e),
            coral: Rgba::rgb8(0xf4, 0x7a, 0x66),
            dark: Rgba::rgb8(0x07, 0x0b, 0x26),
            hurt: Rgba::rgb8(0xe8, 0x31, 0x3c),
        }
    }
}

impl Settings {
    /// The colours the sea paints with.
    pub fn palette(&self) -> Palette {
        Palette {
            deep: self.deep,
            light: self.light,
            gold: self.gold,
            coral: self.coral,
            dark: self.dark,
            hurt: self.hurt,
        }
    }

    /// Accepts settings the sea can draw; the error names the field and what it needs.
    pub fn check(&self) -> Result<(), WaveError> {
        for (i, v) in self.area.iter().enumerate() {
            positive(["area[0]", "area[1]"][i], *v)?;
        }
        for (i, v) in self.centre.iter().enumerate() {
            finite(["centre[0]", "centre[1]"][i], *v)?;
        }
        positive("scale", self.scale)?;
        finite("z", self.z)?;
        within("swell", self.swell, 0.0, MAX_SWELL)?;
        finite("swell_speed", self.swell_speed)?;
        positive("swell_length", self.swell_length)?;
        within("glints", self.glints, 0.0, MAX_GLINTS)?;
        within("gusts[0]", self.gusts[0], 0.5, f32::MAX)?;
        within("gusts[1]", self.gusts[1], self.gusts[0], f32::MAX)?;
        if let Some(bpm) = self.bpm {
            within("bpm", bpm, f32::MIN_POSITIVE, MAX_BPM)?;
        }
        within("hover", self.hover, 0.0, MAX_SWELL)?;
        let colours = [
            ("deep", self.deep),
            ("light", self.light),
            ("gold", self.gold),
            ("coral", self.coral),
            ("dark", self.dark),
            ("hurt", self.hurt),
        ];
        for (field, c) in colours {
            if !c.0.iter().all(|v| v.is_finite()) {
                return Err(WaveError::Colour { field, value: c.0 });
            }
        }
        let count = scale_count(self.area, self.scale);
        if count > MAX_SCALES {
            return Err(WaveError::TooManyScales {
                area: self.area,
                scale: self.scale,
                count,
            });
        }
        Ok(())
    }
}

/// The colours the sea and the game's waves paint with (a copy of a [`Settings`]' own).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Palette {
    /// The sea in a trough.
    pub deep: Rgba,
    /// The sea on a crest.
    pub light: Rgba,
    /// Player 1.
    pub gold: Rgba,
    /// Player 2.
    pub coral: Rgba,
    /// Refusals and losses.
    pub dark: Rgba,
    /// Your own hurt.
    pub hurt: Rgba,
}

impl Default for Palette {
    fn default() -> Self {
        Settings::default().palette()
    }
}

impl Palette {
    /// Every channel held to 0..=1, so no mix of them can overflow.
    pub(super) fn clamped(self) -> Palette {
        let c = |c: Rgba| Rgba(c.0.map(|v| v.clamp(0.0, 1.0)));
        Palette {
            deep: c(self.deep),
            light: c(self.light),
            gold: c(self.gold),
            coral: c(self.coral),
            dark: c(self.dark),
            hurt: c(self.hurt),
        }
    }

    /// A player's colour: gold for the first (0), coral for the second.
    pub fn player(&self, who: usize) -> Rgba {
        if who == 0 { self.gold } else { self.coral }
    }
}

/// Why the sea refused a value. Nothing changes when one is returned.
#[derive(Debug, Clone, PartialEq)]
pub enum WaveError {
    /// A number that must be finite was not.
    NotFinite {
        /// Which value.
        what: &'static str,
        /// What it was.
        value: f32,
    },
    /// A number outside what the field takes.
    OutOfRange {
        /// Which field.
        field: &'static str,
        /// What it was.
        value: f32,
        /// The least it may be.
        least: f32,
        /// The most it may be.
        most: f32,
    },
    /// A colour with a non-finite channel.
    Colour {
        /// Which colour.
        field: &'static str,
        /// Its channels.
        value: [f32; 4],
    },
    /// The texture name leaves the textures folder (what is wrong with it, in words).
    Texture(String),
    /// The area would take more than [`MAX_SCALES`] scales of this size.
    TooManyScales {
        /// The area asked for.
        area: [f32; 2],
        /// The scale asked for.
        scale: f32,
        /// How many scales that takes.
        count: usize,
    },
    /// The entity has no `kotoba_waves` component.
    NoWaves {
        /// The entity, as messages name it.
        entity: String,
    },
}

impl fmt::Display for WaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaveError::NotFinite { what, value } => {
                write!(
                    f,
                    "kotoba_waves: {what} must be a finite number, got {value}"
                )
            }
            WaveError::OutOfRange {
                field,
                value,
                least,
                most,
            } => {
                if *most == f32::MAX {
                    write!(
                        f,
                        "kotoba_waves.{field} must be at least {least}, got {value}"
                    )
                } else {
                    write!(
                        f,
                        "kotoba_waves.{field} must be from {least} to {most}, got {value}"
                    )
                }
            }
            WaveError::Colour { field, value } => write!(
                f,
                "kotoba_waves.{field} must be a colour of finite numbers, got {value:?}"
            ),
            WaveError::Texture(e) => write!(f, "kotoba_waves.texture: {e}"),
            WaveError::TooManyScales { area, scale, count } => write!(
                f,
                "kotoba_waves: an area of {area:?} in scales {scale} wide takes {count} scales, \
                 more than {MAX_SCALES}; make the scale larger or the area smaller"
            ),
            WaveError::NoWaves { entity } => {
                write!(f, "{entity} has no kotoba_waves component")
            }
        }
    }
}

impl std::error::Error for WaveError {}

pub(super) fn finite(what: &'static str, value: f32) -> Result<(), WaveError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(WaveError::NotFinite { what, value })
    }
}

fn within(field: &'static str, value: f32, least: f32, most: f32) -> Result<(), WaveError> {
    finite(field, value)?;
    if (least..=most).contains(&value) {
        Ok(())
    } else {
        Err(WaveError::OutOfRange {
            field,
            value,
            least,
            most,
        })
    }
}

fn positive(field: &'static str, value: f32) -> Result<(), WaveError> {
    within(field, value, f32::MIN_POSITIVE, f32::MAX)
}
