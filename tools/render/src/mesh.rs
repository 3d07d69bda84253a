//! Meshes: textured triangles in the entity's local space, unlit, with per-vertex shade and
//! perspective weight `q` (1 near, smaller far). The rasteriser interpolates `uv*q` and `q`
//! across the screen and divides per pixel, which is what makes a trapezoid wall show straight,
//! evenly spaced bricks. Texture coordinates tile.

use super::Warnings;
use super::camera::View;
use super::raster::{Brush, Canvas, ScreenVertex, Wrap, fill_triangle, premultiplied};
use super::texture::{Texture, Textures};
use jengine::{Mesh2D, Transform2D};

/// Draws one mesh. `label` names the entity in warnings.
pub(crate) fn draw_mesh(
    canvas: &mut Canvas,
    view: &View,
    transform: &Transform2D,
    mesh: &Mesh2D,
    textures: &mut Textures,
    warnings: &mut Warnings,
    label: &str,
) {
    let tint = premultiplied(mesh.tint.0);
    if tint[3] == 0 || mesh.indices.is_empty() {
        return;
    }
    if !mesh.indices.len().is_multiple_of(3) {
        warnings.say(format!(
            "{label}: mesh has {} indices, not a multiple of 3; the last {} are ignored",
            mesh.indices.len(),
            mesh.indices.len() % 3
        ));
    }
    let white = Texture::white();
    let texture = if mesh.texture.is_empty() {
        &white
    } else {
        if let Some(warning) = textures.load(&mesh.texture) {
            warnings.say(warning);
        }
        match textures.get(&mesh.texture) {
            Ok(t) | Err(t) => t,
        }
    };
    let to_screen = view.local_to_screen(transform);
    let (tw, th) = (texture.width as f32, texture.height as f32);
    let usable = |i: u32| -> Option<ScreenVertex> {
        let v = mesh.vertices.get(i as usize)?;
        let finite = v.pos.iter().chain(&v.uv).all(|c| c.is_finite())
            && v.q.is_finite()
            && v.shade.is_finite();
        if !finite || v.q <= 0.0 {
            return None;
        }
        let p = to_screen.apply(v.pos);
        Some(ScreenVertex {
            x: p[0],
            y: p[1],
            u: v.uv[0] * tw,
            v: v.uv[1] * th,
            q: v.q,
            shade: v.shade,
        })
    };
    let first_q = mesh.vertices.first().map_or(1.0, |v| v.q);
    let brush = Brush {
        texture,
        wrap: Wrap::Repeat,
        tint,
        perspective: mesh.vertices.iter().any(|v| v.q != first_q),
        shaded: mesh.vertices.iter().any(|v| v.shade != 1.0),
    };
    let mut skipped = 0;
    let mut first_problem = String::new();
    for tri in mesh.indices.chunks_exact(3) {
        match [usable(tri[0]), usable(tri[1]), usable(tri[2])] {
            [Some(a), Some(b), Some(c)] => {
                if [a, b, c].iter().all(|v| v.x.is_finite() && v.y.is_finite()) {
                    fill_triangle(canvas, [a, b, c], &brush);
                }
            }
            _ => {
                let len = mesh.vertices.len();
                let reason = if tri.iter().any(|&i| i as usize >= len) {
                    format!("an index past its {len} vertices")
                } else {
                    "a vertex with a non-finite value or q <= 0".to_string()
                };
                if skipped == 0 {
                    first_problem = format!("triangle {tri:?} has {reason}");
                }
                skipped += 1;
            }
        }
    }
    if skipped > 0 {
        warnings.say(format!(
            "{label}: mesh {first_problem}; {skipped} bad triangle(s) skipped"
        ));
    }
}
