//! Renders quads written by the `picture` example to a PNG, in debug colours: one colour per
//! face, darkened by each corner's shade, every outline drawn, and the picture cropped to
//! plane -1 the way a game's window would be.
//!
//! ```text
//! cargo run -p jengine-crawler --example quads_png -- quads.json picture.png
//! ```

use jengine_crawler::view::{Face, Frame, Look, Quad};
use serde::Deserialize;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Stroke, Transform};

#[derive(Deserialize)]
struct Picture {
    frame: Frame,
    quads: Vec<Quad>,
}

fn colour(quad: &Quad) -> [u8; 3] {
    match (quad.face, quad.look) {
        (_, Look::Arch) => [230, 200, 60],
        (_, Look::OpenDoor) => [240, 150, 60],
        (_, Look::Door) | (_, Look::Locked) => [150, 90, 40],
        (Face::Front, _) => [200, 70, 70],
        (Face::Left, _) => [70, 170, 70],
        (Face::Right, _) => [70, 110, 210],
        (Face::Floor, _) => [120, 120, 120],
        (Face::Ceiling, _) => [70, 60, 90],
        (Face::Thing, Look::Pit) => [20, 20, 20],
        (Face::Thing, Look::StairsDown) | (Face::Thing, Look::StairsUp) => [200, 200, 255],
        (Face::Thing, Look::Wall) => [150, 60, 60],
        (Face::Thing, _) => [240, 160, 30],
        (Face::Monster, _) => [220, 40, 200],
    }
}

fn render(picture: &Picture, scale: f32) -> Result<Pixmap, String> {
    let half_w = picture.frame.half_width();
    let half_h = picture.frame.half_height();
    let (w, h) = ((2.0 * half_w * scale) as u32, (2.0 * half_h * scale) as u32);
    let mut pixmap = Pixmap::new(w.max(1), h.max(1)).ok_or("the picture has no size")?;
    pixmap.fill(Color::BLACK);
    let to_screen = Transform::from_row(scale, 0.0, 0.0, scale, half_w * scale, half_h * scale);
    for quad in &picture.quads {
        let mut pb = PathBuilder::new();
        pb.move_to(quad.corners[0][0], quad.corners[0][1]);
        for c in &quad.corners[1..] {
            pb.line_to(c[0], c[1]);
        }
        pb.close();
        let Some(path) = pb.finish() else { continue };
        let light = quad.shade.iter().sum::<f32>() / 4.0;
        let [r, g, b] = colour(quad).map(|c| (c as f32 * (0.25 + 0.75 * light)) as u8);
        let mut paint = Paint::default();
        paint.set_color_rgba8(r, g, b, 255);
        paint.anti_alias = true;
        let mask = quad.clip.and_then(|clip| {
            let mut pb = PathBuilder::new();
            pb.move_to(clip[0][0], clip[0][1]);
            for c in &clip[1..] {
                pb.line_to(c[0], c[1]);
            }
            pb.close();
            let mut mask = tiny_skia::Mask::new(pixmap.width(), pixmap.height())?;
            mask.fill_path(&pb.finish()?, FillRule::Winding, true, to_screen);
            Some(mask)
        });
        let mask = mask.as_ref();
        if matches!(quad.look, Look::Arch | Look::OpenDoor) {
            // An arch is a frame: draw its outline thick so the doorway behind shows through.
            let stroke = Stroke {
                width: 10.0 * quad.q[0].min(1.0),
                ..Stroke::default()
            };
            pixmap.stroke_path(&path, &paint, &stroke, to_screen, mask);
        } else {
            pixmap.fill_path(&path, &paint, FillRule::Winding, to_screen, mask);
        }
        paint.set_color_rgba8(0, 0, 0, 255);
        pixmap.stroke_path(
            &path,
            &paint,
            &Stroke {
                width: 1.0,
                ..Stroke::default()
            },
            to_screen,
            None,
        );
    }
    Ok(pixmap)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(input), Some(output)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: quads_png QUADS.json OUT.png");
        std::process::exit(2);
    };
    let result = std::fs::read_to_string(input)
        .map_err(|e| format!("{input}: {e}"))
        .and_then(|text| {
            serde_json::from_str::<Picture>(&text).map_err(|e| format!("{input}: {e}"))
        })
        .and_then(|picture| render(&picture, 1.0))
        .and_then(|pixmap| {
            pixmap
                .save_png(output)
                .map_err(|e| format!("{output}: {e}"))
        });
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
    println!("wrote {output}");
}
