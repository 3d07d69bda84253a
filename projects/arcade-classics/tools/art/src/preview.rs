//! A contact sheet of every texture on a checker, each at 1:1 and in reading order, plus
//! a mock corridor: a wall ahead, the floor and ceiling, a door, a monster, assembled the way
//! the crawl draws them (flat, no perspective), to judge the palette together.

use crate::paint::{Image, rgb};
use crawler_art::preview::stamp;
use crawler_art::sheet::{REGION, region};

/// Every texture laid out left to right, wrapping at 2048 texels.
pub fn contact_sheet() -> Image {
    crawler_art::preview::contact_sheet(&crate::textures(), 2048)
}

/// A 1024x768 mock: the wall ahead framed by floor and ceiling, a door and a monster.
pub fn mock() -> Image {
    let sheet = crawler_art::sheet::crawler(&crate::LOOK);
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
