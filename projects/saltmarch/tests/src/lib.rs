//! What Saltmarch's (`projects/saltmarch`) suites share: where the project is and the packages
//! it links. The suite is `tests/saltmarch.rs`; goldens are in `golden/`, the playthrough's
//! input file in `inputs/`.

#![warn(missing_docs)]

use std::path::{Path, PathBuf};

use jengine::Package;
use jengine_crawler::CrawlerPackage;
use jengine_goldbox::GoldBoxPackage;
use jengine_testkit::{Game, Options};

/// The packages `project.jengine` lists, as linked into the tests.
pub const PACKAGES: &[&dyn Package] = &[&CrawlerPackage, &GoldBoxPackage];

/// The project folder, `projects/saltmarch`.
pub fn project() -> PathBuf {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR"));
    tests.parent().unwrap_or(tests).to_path_buf()
}

/// Runs the game headless with `options`; its goldens are `tests/golden/`.
pub fn open(options: Options) -> Game {
    Game::open(project(), PACKAGES, options)
}
