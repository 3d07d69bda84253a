//! The pattern: seigaiha's rows of scales, each a quarter scale below the last and offset by
//! half a scale, counted before they are laid out so a hostile area costs nothing.

use std::f32::consts::TAU;

use super::Z_BAND;

/// One scale's place in the pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Spot {
    /// The centre of the scale's circle, and of its sprite.
    pub(super) base: [f32; 2],
    /// Row from the top (the back).
    pub(super) row: u32,
    /// Draw depth: later rows in front.
    pub(super) z: f32,
    /// Distance from the sea's centre, for the beat's breath.
    pub(super) from_centre: f32,
    /// A fixed per-scale phase, so shudders and gusts do not move scales in lockstep.
    pub(super) phase: f32,
}

/// The rows a sea of `area` about `centre` takes, as row indices `i` (`y = centre.y + i * r/2`)
/// from the top down. One spare row above and two below, so a lifted or sunk edge never shows
/// the background.
fn row_range(area: [f32; 2], scale: f32) -> (i64, i64) {
    let r = scale / 2.0;
    let half = (area[1] / r).ceil() as i64;
    (half + 1, -(half + 2))
}

/// The columns `j` (`x = centre.x + offset + j * scale`) a row takes to cover the area with a
/// scale's half width to spare on each side.
fn column_range(area: [f32; 2], scale: f32, offset: f32) -> (i64, i64) {
    let r = scale / 2.0;
    let left = -area[0] / 2.0 - r - offset;
    let right = area[0] / 2.0 + r - offset;
    ((left / scale).floor() as i64, (right / scale).ceil() as i64)
}

/// How many scales a layout takes, counted without laying it out (saturating, so a hostile
/// area cannot overflow).
pub(super) fn scale_count(area: [f32; 2], scale: f32) -> usize {
    let rows = (area[1] as f64 / (scale as f64 / 4.0)).ceil() + 5.0;
    let cols = (area[0] as f64 / scale as f64).ceil() + 4.0;
    let n = rows * cols;
    if n.is_finite() && n < usize::MAX as f64 {
        n as usize
    } else {
        usize::MAX
    }
}

/// Seigaiha's rows: each a quarter scale below the last and offset by half a scale, so every
/// scale (a disc) covers the lower part of the ones behind it and only its upper fan shows.
/// Rows further down come later and draw in front.
pub(super) fn lay_out(area: [f32; 2], centre: [f32; 2], scale: f32, z: f32) -> Vec<Spot> {
    let r = scale / 2.0;
    let (top, bottom) = row_range(area, scale);
    let rows = (top - bottom + 1) as f32;
    let mut spots = Vec::with_capacity(scale_count(area, scale));
    for (row, i) in (bottom..=top).rev().enumerate() {
        let y = centre[1] + i as f32 * r / 2.0;
        let offset = if i.rem_euclid(2) == 1 { r } else { 0.0 };
        let (first, last) = column_range(area, scale, offset);
        for j in first..=last {
            let x = centre[0] + offset + j as f32 * scale;
            let from_centre = (x - centre[0]).hypot(y + r / 2.0 - centre[1]);
            // A fixed scramble of the grid position, the same every run.
            let phase = ((j as f32 * 12.9898 + i as f32 * 78.233).sin() * 43758.547).fract() * TAU;
            spots.push(Spot {
                base: [x, y],
                row: row as u32,
                z: z + Z_BAND * row as f32 / rows,
                from_centre,
                phase,
            });
        }
    }
    spots
}
