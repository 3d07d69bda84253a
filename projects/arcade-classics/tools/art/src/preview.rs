//! A contact sheet of every texture on a dark ground, each at 1:1 and in reading order, plus
//! a mock corridor: a wall ahead, the floor and ceiling, a door, a monster, assembled the way
//! the crawl draws them (flat, no perspective), to judge the palette together.

use crate::paint::{Image, over, rgb};
use crate::sheet::{REGION, region};

/// Every texture laid out left to right, wrapping at 2048 texels.
pub fn contact_sheet() -> Image {
    let textures = crate::textures();
    let width = 2048u32;
    // Lay out once to find the height.
    let place = |textures: &[(&str, Image)]| {
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
        (spots, y + row_h + 8)
    };
    let (spots, height) = place(&textures);
    let mut out = Image::new(width, height);
    out.layer(|x, y| {
        // A checker so clear texels read as clear.
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

/// A 1024x768 mock: the wall ahead framed by floor and ceiling, a door and a monster.
pub fn mock() -> Image {
    let sheet = crate::sheet::crawler();
    let creatures = crate::monsters::sheet();
    let mut out = Image::new(1024, 768);
    out.layer(|_, _| rgb(0, 0, 0));
    stamp(&mut out, &sheet, region(2), 256, 0, 1);
    stamp(&mut out, &sheet, region(1), 256, 512, 1);
    stamp(&mut out, &sheet, region(0), 0, 256, 1);
    stamp(&mut out, &sheet, region(3), 256, 256, 1);
    stamp(&mut out, &sheet, region(0), 512, 256, 1);
    stamp(&mut out, &sheet, region(7), 768, 256, 1);
    stamp(
        &mut out,
        &creatures,
        [3 * REGION, 0, REGION, REGION],
        512,
        256,
        1,
    );
    stamp(&mut out, &sheet, region(8), 0, 512, 1);
    stamp(&mut out, &sheet, region(10), 512, 512, 1);
    out
}

/// Composites `src`'s rectangle `[x, y, w, h]` onto `dst` at `(dx, dy)`, each texel `scale` big.
fn stamp(dst: &mut Image, src: &Image, rect: [u32; 4], dx: u32, dy: u32, scale: u32) {
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
