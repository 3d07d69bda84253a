//! Miau's art: a few white pieces the game tints (word tiles, sentence bars, panels, the row
//! that marks a choice), painted from signed-distance shapes and written as PNGs.
//!
//! The pieces are white so one texture serves every word colour: the package tints a tile
//! pink for a noun, white for `IS`, blue for a property. Only exact float arithmetic is used
//! (see `jengine-paint`), so a run on any machine writes the committed bytes.

use std::path::{Path, PathBuf};

use jengine_paint::generator::{self, ArtError, Written};
use jengine_paint::paint::{
    Image, Rgba, RoundedBox, coverage, facing_light, mix, smoothstep, with_alpha,
};

const WHITE: Rgba = [1.0, 1.0, 1.0, 1.0];

/// A word tile: a white block with rounded corners, a lit upper-left rim and a darker lower
/// edge, so tinted tiles read as solid blocks on the dark stage.
fn tile() -> Image {
    let mut img = Image::new(128, 128);
    let face = RoundedBox::new([6.0, 6.0, 122.0, 122.0], 18.0);
    // A soft drop shadow below the block.
    img.layer(|x, y| {
        let d = face.shift(0.0, 4.0).distance(x, y);
        [0.0, 0.0, 0.0, 0.45 * (1.0 - smoothstep(-2.0, 6.0, d))]
    });
    img.layer(|x, y| {
        let d = face.distance(x, y);
        let rim = 1.0 - smoothstep(0.0, 7.0, -d);
        let n = face.normal(x, y);
        let lit = facing_light(n);
        // Lit rim toward the light, shaded away from it; a gentle fall from top to bottom.
        let k = 0.9 + 0.1 * (1.0 - y / 128.0) + rim * 0.14 * lit;
        let k = k.clamp(0.0, 1.0);
        [k, k, k, coverage(d)]
    });
    img
}

/// A sentence bar: a bright core with a glow that fades out on every side.
fn bar() -> Image {
    let mut img = Image::new(64, 32);
    let core = RoundedBox::new([10.0, 12.0, 54.0, 20.0], 4.0);
    img.layer(|x, y| {
        let d = core.distance(x, y);
        let glow = 1.0 - smoothstep(-1.0, 10.0, d);
        let a = if d <= 0.0 {
            1.0
        } else {
            mix(0.0, 0.8, glow * glow)
        };
        with_alpha(WHITE, a.max(coverage(d)))
    });
    img
}

/// A panel for lists and previews: nearly black with a faint lighter edge (nine-slice, 30).
/// Large, so the renderer's slice scale (the smaller of size over texture) keeps its corners
/// near one texel per pixel on a panel of most of the screen's height.
fn panel() -> Image {
    let mut img = Image::new(480, 480);
    let outer = RoundedBox::new([2.0, 2.0, 478.0, 478.0], 22.0);
    img.layer(|x, y| {
        let d = outer.distance(x, y);
        let edge = 1.0 - smoothstep(0.0, 2.5, -d);
        let v = 0.10 + 0.18 * edge;
        [v, v, v * 1.25, coverage(d) * 0.94]
    });
    img
}

/// The row that marks a choice: a white rounded strip, brighter at its left end.
fn row() -> Image {
    let mut img = Image::new(128, 32);
    let strip = RoundedBox::new([2.0, 3.0, 126.0, 29.0], 10.0);
    img.layer(|x, y| {
        let d = strip.distance(x, y);
        let fade = 1.0 - 0.6 * (x / 128.0);
        with_alpha(WHITE, coverage(d) * fade)
    });
    img
}

/// A spark for the win burst: a four-pointed star with a soft glow round its middle.
fn spark() -> Image {
    let mut img = Image::new(64, 64);
    img.layer(|x, y| {
        let (dx, dy) = ((x - 32.0).abs(), (y - 32.0).abs());
        // A star's points along the axes: the thinner the farther out.
        let arm = |along: f64, across: f64| across - 5.0 * (1.0 - along / 30.0).max(0.0);
        let d = arm(dx, dy).min(arm(dy, dx));
        let glow = 1.0 - smoothstep(0.0, 14.0, (dx * dx + dy * dy).sqrt());
        with_alpha(WHITE, coverage(d).max(glow * 0.5))
    });
    img
}

/// A plain white texel block, for flat tinted rectangles.
fn white() -> Image {
    let mut img = Image::new(4, 4);
    img.layer(|_, _| WHITE);
    img
}

/// Every texture as `(file name, image)`.
pub fn all() -> Vec<(&'static str, Image)> {
    vec![
        ("tile.png", tile()),
        ("bar.png", bar()),
        ("panel.png", panel()),
        ("row.png", row()),
        ("spark.png", spark()),
        ("white.png", white()),
    ]
}

/// Writes every texture into `dir`. Everything is encoded before the first file is written.
pub fn write_textures(dir: &Path) -> Result<Vec<Written>, ArtError> {
    generator::write_files(dir, generator::encode_all(all())?)
}

/// The committed textures' folder: `projects/miau/assets/textures/`.
pub fn committed_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("textures")
}
