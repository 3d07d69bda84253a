//! Golden images: a rendered frame compared with a committed PNG, pixel by pixel.
//!
//! The renderer is deterministic, so a frame that drifts from its golden is a change someone
//! must look at. A failure writes the frame and a diff (red where pixels differ) beside each
//! other; `JENGINE_BLESS=1` rewrites the goldens instead, after a change was looked at.

use std::path::Path;

use jengine_render::Frame;

/// How far a channel may differ before a pixel counts as changed.
pub const TOLERANCE: u8 = 2;

/// Reads a PNG written by [`Frame::save_png`] (RGBA8), or `None`.
pub fn read_png(path: &Path) -> Option<Frame> {
    let file = std::fs::File::open(path).ok()?;
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .ok()?;
    let mut rgba = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut rgba).ok()?;
    (info.color_type == png::ColorType::Rgba).then_some(Frame {
        width: info.width,
        height: info.height,
        rgba,
    })
}

/// Renders `world` at `size` with a project's `assets` (textures and fonts preloaded as a
/// window would), refuses a frame the renderer had to warn about (a missing texture, a glyph no
/// font has), and checks it with [`check`].
pub fn check_world(
    assets: &Path,
    world: &jengine::World,
    size: (u32, u32),
    goldens: &Path,
    out: &Path,
    name: &str,
) -> Result<(), String> {
    let mut renderer = jengine_render::Renderer::new(assets);
    renderer.preload(world);
    let frame = renderer.render(world, size.0, size.1);
    let warnings = renderer.take_warnings();
    if !warnings.is_empty() {
        return Err(format!("{name}: the renderer warned: {warnings:?}"));
    }
    check(goldens, out, name, &frame)
}

/// Compares `frame` with `<goldens>/<name>.png`; on a difference writes `<name>.actual.png`
/// and `<name>.diff.png` into `out` and says where. With `JENGINE_BLESS` set, rewrites the
/// golden instead.
pub fn check(goldens: &Path, out: &Path, name: &str, frame: &Frame) -> Result<(), String> {
    let path = goldens.join(format!("{name}.png"));
    if std::env::var_os("JENGINE_BLESS").is_some() {
        std::fs::create_dir_all(goldens).map_err(|e| e.to_string())?;
        return frame.save_png(&path).map_err(|e| e.to_string());
    }
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    let Some(golden) = read_png(&path) else {
        let _ = frame.save_png(&out.join(format!("{name}.png")));
        return Err(format!(
            "{} is missing or unreadable; this frame is in {} (JENGINE_BLESS=1 writes it)",
            path.display(),
            out.display()
        ));
    };
    if (golden.width, golden.height) != (frame.width, frame.height) {
        return Err(format!("{name}: frame size differs from the golden"));
    }
    let mut diff = Vec::with_capacity(frame.rgba.len());
    let mut bad = 0usize;
    let mut worst = 0u8;
    for (a, b) in frame.rgba.chunks(4).zip(golden.rgba.chunks(4)) {
        let d = (0..4).map(|i| a[i].abs_diff(b[i])).max().unwrap_or(0);
        worst = worst.max(d);
        if d > TOLERANCE {
            bad += 1;
            diff.extend_from_slice(&[255, 0, 0, 255]);
        } else {
            let grey = ((a[0] as u32 + a[1] as u32 + a[2] as u32) / 12) as u8;
            diff.extend_from_slice(&[grey, grey, grey, 255]);
        }
    }
    if bad == 0 {
        return Ok(());
    }
    let actual = out.join(format!("{name}.actual.png"));
    let diff_path = out.join(format!("{name}.diff.png"));
    let _ = frame.save_png(&actual);
    let _ = Frame {
        width: frame.width,
        height: frame.height,
        rgba: diff,
    }
    .save_png(&diff_path);
    Err(format!(
        "{name}: {bad} pixels differ from the golden by more than {TOLERANCE} (worst {worst}); \
         see {} and {}",
        actual.display(),
        diff_path.display()
    ))
}
