//! Pictures to judge the art by, never committed: a contact sheet of every texture at 1:1 on
//! a checker (so clear texels read as clear), and [`stamp`] to lay regions side by side for
//! a game's own mock screen.

use jengine_paint::paint::{Image, over, rgb};

/// Every texture laid out left to right at 1:1, wrapping at `width` texels, on a checker.
pub fn contact_sheet(textures: &[(&str, Image)], width: u32) -> Image {
    let (mut x, mut y, mut row_h) = (8u32, 8u32, 0u32);
    let mut spots = Vec::new();
    for (_, img) in textures {
        if x + img.width + 8 > width {
            x = 8;
            y += row_h + 8;
            row_h = 0;
        }
        spots.push((x, y));
        x += img.width + 8;
        row_h = row_h.max(img.height);
    }
    let mut out = Image::new(width, y + row_h + 8);
    out.layer(|x, y| {
        let check = ((x as u32 / 16) + (y as u32 / 16)).is_multiple_of(2);
        if check {
            rgb(30, 26, 40)
        } else {
            rgb(44, 40, 56)
        }
    });
    for ((_, img), (sx, sy)) in textures.iter().zip(spots) {
        stamp(&mut out, img, [0, 0, img.width, img.height], sx, sy, 1);
    }
    out
}

/// Composites `src`'s rectangle `[x, y, w, h]` onto `dst` at `(dx, dy)`, each texel `scale` big.
pub fn stamp(dst: &mut Image, src: &Image, rect: [u32; 4], dx: u32, dy: u32, scale: u32) {
    let [rx, ry, rw, rh] = rect;
    for y in 0..rh * scale {
        for x in 0..rw * scale {
            let (tx, ty) = (dx + x, dy + y);
            if tx >= dst.width || ty >= dst.height {
                continue;
            }
            let s = src.get((rx + x / scale) as i64, (ry + y / scale) as i64);
            let i = (ty * dst.width + tx) as usize;
            dst.pixels[i] = over(dst.pixels[i], s);
        }
    }
}
