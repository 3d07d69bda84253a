//! The page a web build serves: `index.html` and the loader `jengine.js`, written by hand and
//! copied as they are (no bundler, nothing fetched at build time).

/// The page: a canvas, a message panel, and the loader.
pub const INDEX_HTML: &str = include_str!("../page/index.html");

/// The loader: fetches the module and the bundle, steps at 60 Hz, draws, maps input, restarts
/// the module after a trap.
pub const LOADER_JS: &str = include_str!("../page/jengine.js");

/// The bundle's file name in a web build's folder.
pub const BUNDLE: &str = "game.bundle";

/// The module's file name in a web build's folder.
pub const MODULE: &str = "game.wasm";
