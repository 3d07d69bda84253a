//! Umber Warren's art: the crawler sheet, the creatures and the HUD, painted by code.
//!
//! The sheet, the shared creatures and the HUD's sliced pieces are [`crawler_art`]'s, painted
//! in Umber Warren's [`LOOK`]: warm umber stone lit by a torch, bold lines, brass fittings.
//! The fire beetle, the warren chief, the compass and the icons are this game's own. Every
//! texture is signed-distance shapes, seeded integer-hash noise and pixel-art grids,
//! evaluated at pixel centres with only correctly rounded float arithmetic and encoded with
//! fixed settings ([`encode`]), so any machine writes the bytes committed under
//! `projects/arcade-classics/assets/textures/`. [`preview`] lays them out to look at together.

pub use jengine_paint::{encode, noise, paint};
pub mod monsters;
pub mod preview;
pub mod ui;

use std::path::{Path, PathBuf};

use crawler_art::sets::{Feature, WallSet};
use crawler_art::{Hud, Look, Masonry, Palette, decor, hud, sets, sheet};
use paint::{Image, Rgba, rgb};

pub use jengine_paint::generator::{self, ArtError, Written};

/// The joints between stones: near black-brown.
pub const MORTAR: Rgba = rgb(38, 24, 14);
/// Umber and ochre wall blocks.
pub const STONE: Rgba = rgb(150, 104, 62);
/// Iron bands, plates and blades.
pub const IRON: Rgba = rgb(70, 66, 64);
/// Rings, locks, guards, inlays.
pub const BRASS: Rgba = rgb(214, 168, 72);
/// Coins and arrows.
pub const GOLD: Rgba = rgb(250, 206, 84);
/// Holes and clear texels.
pub const VOID: Rgba = rgb(8, 5, 3);

/// Umber Warren's look: warm umber and ochre stone lit by a torch from the upper left, bold
/// dark lines, brass fittings, parchment for the map.
pub const LOOK: Look = Look {
    palette: Palette {
        mortar: MORTAR,
        stone: STONE,
        flag: rgb(118, 86, 56),
        vault: rgb(92, 64, 42),
        wood: rgb(122, 72, 36),
        wood_dark: rgb(64, 36, 18),
        iron: IRON,
        fitting: BRASS,
        gold: GOLD,
        void: VOID,
        shaft: rgb(60, 38, 22),
        knob: [rgb(160, 40, 24), rgb(90, 20, 12)],
        blood: rgb(120, 16, 10),
        shield: rgb(150, 30, 22),
        glow: rgb(255, 140, 40),
        ink: rgb(20, 10, 6),
    },
    masonry: Masonry {
        block: [128.0, 64.0],
        vault_block: [64.0, 32.0],
        joint: 2.5,
        jitter: 3.0,
        rough: 3.0,
        corner: 5.0,
        bevel: 0.28,
        speckle: 0.0,
    },
    line: 1.0,
    hud: Hud {
        panel_size: 256,
        panel: rgb(70, 48, 30),
        inlay: BRASS,
        inlay_width: 3.0,
        frame_depth: 12.0,
        lip: BRASS,
        button: rgb(120, 84, 50),
        paper: [rgb(226, 200, 150), rgb(120, 80, 40)],
        white_size: 8,
    },
};

/// The wall sets this game's floors name in `walls`, in `walls.png`'s row order.
pub const SETS: [WallSet; 4] = [
    WallSet {
        name: "roots",
        feature: Feature::Roots,
    },
    WallSet {
        name: "flint",
        feature: Feature::Flint,
    },
    WallSet {
        name: "drowned",
        feature: Feature::Drowned,
    },
    WallSet {
        name: "ember",
        feature: Feature::Ember,
    },
];

/// Every texture as `(file name, image)`.
pub fn textures() -> Vec<(&'static str, Image)> {
    let mut all = vec![
        ("crawler.png", sheet::crawler(&LOOK)),
        ("walls.png", sets::sheet(&SETS, &LOOK)),
        ("decor.png", decor::sheet(&LOOK)),
        ("monsters.png", monsters::sheet()),
        ("panel.png", hud::panel(&LOOK)),
        ("frame.png", hud::frame(&LOOK)),
        ("button.png", hud::button(&LOOK)),
        ("parchment.png", hud::parchment(&LOOK)),
        ("compass.png", ui::compass()),
        ("white.png", hud::white(&LOOK)),
    ];
    all.extend(ui::icons());
    all
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
    // This crate is projects/arcade-classics/tools/art; the textures are in its assets/.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.parent().and_then(Path::parent).unwrap_or(manifest);
    project.join("assets").join("textures")
}
