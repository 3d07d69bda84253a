//! A contact sheet of every texture on a checker, each at 1:1, plus a mock screen at the
//! game's 1280x720: the crawl view in its frame (a corridor, a door, the lich), the menu panel
//! with the automap and buttons, the party's portraits along the bottom and a message panel,
//! every sliced piece stretched the way the renderer slices it, to judge the look together.

use crate::paint::{Image, over, rgb};
use crawler_art::preview::stamp;
use crawler_art::sheet::region;

/// Every texture laid out left to right, wrapping at 2048 texels.
pub fn contact_sheet() -> Image {
    crawler_art::preview::contact_sheet(&crate::textures(), 2048)
}

/// The mock screen, 1280x720.
pub fn mock() -> Image {
    let sheet = crawler_art::sheet::crawler(&crate::LOOK);
    let monsters = crate::monsters::sheet();
    let portraits = crate::portraits::sheet();
    let panel = crawler_art::hud::panel(&crate::LOOK);
    let frame = crawler_art::hud::frame(&crate::LOOK);
    let button = crawler_art::hud::button(&crate::LOOK);
    let parchment = crawler_art::hud::parchment(&crate::LOOK);
    let mut out = Image::new(1280, 720);
    out.layer(|_, _| rgb(6, 7, 10));
    // The view: vault above, flags below, walls and a door, the lich in the middle.
    for (i, face) in [2, 2, 2, 0, 0, 3, 1, 1, 1].iter().enumerate() {
        let (col, row) = (i as u32 % 3, i as u32 / 3);
        let [fx, fy, fw, _] = region(*face);
        // Each row is cut to 168 texels so three rows fill the 504-texel-high view.
        let top = if row == 2 { 0 } else { 256 - 168 };
        stamp(
            &mut out,
            &sheet,
            [fx, fy + top, fw, 168],
            24 + col * 256,
            24 + row * 168,
            1,
        );
    }
    stamp(&mut out, &monsters, [7 * 256, 0, 256, 256], 280, 236, 1);
    sliced(&mut out, &frame, 16, [16, 16, 784, 528]);
    sliced(&mut out, &panel, 24, [816, 16, 448, 528]);
    sliced(&mut out, &parchment, 24, [840, 40, 400, 280]);
    for k in 0..4 {
        sliced(
            &mut out,
            &button,
            16,
            [840 + (k % 2) * 204, 344 + (k / 2) * 84, 196, 72],
        );
    }
    for i in 0..6u32 {
        let [x, y, w, h] = crate::portraits::region(i as usize);
        stamp(&mut out, &portraits, [x, y, w, h], 16 + i * 132, 560, 1);
    }
    sliced(&mut out, &panel, 24, [816, 556, 448, 148]);
    out
}

/// Draws `src` into `dst`'s rectangle `[x, y, w, h]` nine-sliced with `border` texels on every
/// side at 1:1: corners kept, edges stretched one way, the middle both (nearest texel).
fn sliced(dst: &mut Image, src: &Image, border: u32, rect: [u32; 4]) {
    let [x0, y0, w, h] = rect;
    let map = |d: u32, size: u32, src_size: u32| -> u32 {
        if d < border {
            d
        } else if d >= size - border {
            src_size - (size - d)
        } else {
            let middle = (src_size - 2 * border) as u64;
            border + ((d - border) as u64 * middle / (size - 2 * border) as u64) as u32
        }
    };
    for dy in 0..h {
        for dx in 0..w {
            let (tx, ty) = (x0 + dx, y0 + dy);
            if tx >= dst.width || ty >= dst.height {
                continue;
            }
            let s = src.get(map(dx, w, src.width) as i64, map(dy, h, src.height) as i64);
            let i = (ty * dst.width + tx) as usize;
            dst.pixels[i] = over(dst.pixels[i], s);
        }
    }
}
