//! Seven Stairs' art: the crawler sheet, the monsters, the party's portraits, the town's
//! pictures and the menus' panels, painted by code.
//!
//! The sheet and the HUD's sliced pieces are [`crawler_art`]'s, the same shapes Umber Warren
//! is drawn with, painted in Seven Stairs' [`LOOK`]: cold grey-blue granite with thin dark
//! joints, iron fittings and fine lines. The creatures, portraits and town pictures are this
//! game's own, built from the same parts. Every texture is signed-distance shapes and seeded
//! integer-hash noise evaluated at pixel centres with only correctly rounded float arithmetic,
//! encoded with fixed settings ([`encode`]), so any machine writes the bytes committed under
//! `projects/rpg-classics/assets/textures/`. [`preview`] lays them out to look at together.

pub use jengine_paint::{encode, noise, paint};
pub mod monsters;
pub mod portraits;
pub mod preview;
pub mod scene;
pub mod town;

use std::path::{Path, PathBuf};

use crawler_art::sets::{Feature, WallSet};
use crawler_art::{Hud, Look, Masonry, Palette, decor, hud, sets, sheet};
use paint::{Image, rgb};

pub use jengine_paint::generator::{self, ArtError, Written};

/// Seven Stairs' look: cold grey-blue granite lit from the upper left, thin dark joints and
/// lines, iron fittings, dark slate panels with a thin pale border, and grey map paper.
pub const LOOK: Look = Look {
    palette: Palette {
        mortar: rgb(16, 18, 24),
        stone: rgb(108, 122, 146),
        flag: rgb(90, 100, 118),
        vault: rgb(68, 78, 98),
        wood: rgb(98, 78, 62),
        wood_dark: rgb(40, 32, 28),
        iron: rgb(74, 80, 90),
        fitting: rgb(150, 160, 174),
        gold: rgb(238, 202, 96),
        void: rgb(4, 5, 8),
        shaft: rgb(44, 50, 62),
        knob: [rgb(150, 36, 30), rgb(80, 18, 14)],
        blood: rgb(110, 14, 12),
        shield: rgb(140, 28, 24),
        glow: rgb(255, 120, 60),
        ink: rgb(10, 12, 18),
    },
    masonry: Masonry {
        block: [128.0, 64.0],
        vault_block: [64.0, 32.0],
        joint: 1.25,
        jitter: 1.0,
        rough: 1.0,
        corner: 2.5,
        bevel: 0.2,
        speckle: 0.8,
    },
    line: 0.5,
    hud: Hud {
        panel_size: 384,
        panel: rgb(30, 36, 48),
        inlay: rgb(170, 184, 204),
        inlay_width: 1.5,
        frame_depth: 8.0,
        lip: rgb(160, 172, 188),
        button: rgb(58, 68, 86),
        paper: [rgb(200, 204, 198), rgb(70, 84, 104)],
        white_size: 4,
    },
};

/// The wall sets this game's floors name in `walls`, in `walls.png`'s row order.
pub const SETS: [WallSet; 6] = [
    WallSet {
        name: "cellar",
        feature: Feature::Cellar,
    },
    WallSet {
        name: "brick",
        feature: Feature::Brick,
    },
    WallSet {
        name: "moss",
        feature: Feature::Moss,
    },
    WallSet {
        name: "bone",
        feature: Feature::Bone,
    },
    WallSet {
        name: "frost",
        feature: Feature::Frost,
    },
    WallSet {
        name: "crypt",
        feature: Feature::Crypt,
    },
];

/// Every texture as `(file name, image)`.
pub fn textures() -> Vec<(&'static str, Image)> {
    vec![
        ("crawler.png", sheet::crawler(&LOOK)),
        ("walls.png", sets::sheet(&SETS, &LOOK)),
        ("decor.png", decor::sheet(&LOOK)),
        ("monsters.png", monsters::sheet()),
        ("portraits.png", portraits::sheet()),
        ("town.png", town::sheet()),
        ("panel.png", hud::panel(&LOOK)),
        ("frame.png", hud::frame(&LOOK)),
        ("button.png", hud::button(&LOOK)),
        ("parchment.png", hud::parchment(&LOOK)),
        ("white.png", hud::white(&LOOK)),
    ]
}

/// Every texture as `(file name, PNG bytes)`, in order.
pub fn encoded() -> Result<Vec<(&'static str, Vec<u8>)>, ArtError> {
    generator::encode_all(textures())
}

/// Writes every texture into `dir` (made if missing). Everything is encoded before the first
/// file is written, so an encoding failure leaves `dir` as it was.
pub fn write_textures(dir: &Path) -> Result<Vec<Written>, ArtError> {
    generator::write_files(dir, encoded()?)
}

/// The folder the committed textures live in, found from this crate's own folder.
pub fn committed_dir() -> PathBuf {
    // This crate is projects/rpg-classics/tools/art; the textures are in its assets/.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("textures")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_texture_has_the_size_the_game_reads_it_at() {
        let sizes: Vec<(&str, [u32; 2])> = textures()
            .iter()
            .map(|(n, img)| (*n, [img.width, img.height]))
            .collect();
        assert_eq!(
            sizes,
            [
                ("crawler.png", [1024, 1536]),
                ("walls.png", [768, 1536]),
                ("decor.png", [1280, 512]),
                ("monsters.png", [2048, 256]),
                ("portraits.png", [512, 256]),
                ("town.png", [1024, 864]),
                ("panel.png", [384, 384]),
                ("frame.png", [256, 256]),
                ("button.png", [64, 64]),
                ("parchment.png", [256, 256]),
                ("white.png", [4, 4]),
            ]
        );
    }

    #[test]
    fn the_view_frames_window_is_8_to_248_texels() {
        let frame = hud::frame(&LOOK);
        for k in [7, 248] {
            assert_eq!(frame.get(k, 128)[3], 1.0, "x {k} is frame");
            assert_eq!(frame.get(128, k)[3], 1.0, "y {k} is frame");
        }
        for k in [8, 128, 247] {
            assert_eq!(frame.get(k, 128)[3], 0.0, "x {k} is window");
            assert_eq!(frame.get(128, k)[3], 0.0, "y {k} is window");
        }
    }
}
