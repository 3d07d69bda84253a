//! The page a web build serves: `index.html`, the loader `jengine.js` and the loader's parts,
//! written by hand and copied as they are (no bundler, nothing fetched at build time).
//!
//! A part is a script `index.html` loads before the loader: it adds itself to
//! `window.jengineParts` and answers the module's imports for one job (see the comment at the
//! top of `jengine.js` for what a part may give). Each part's file is listed in [`PAGE`] and
//! named in `index.html`.

/// The page: a canvas, a message panel, the end screen, and the scripts in order.
pub const INDEX_HTML: &str = include_str!("../page/index.html");

/// The loader: fetches the module and the bundle, steps at 60 Hz, draws, maps input, restarts
/// the module after a trap, and calls the parts.
pub const LOADER_JS: &str = include_str!("../page/jengine.js");

/// The sound part: plays the mixed samples through Web Audio and reports what was played.
pub const AUDIO_JS: &str = include_str!("../page/audio.js");

/// The storage part: the player's data loaded from and written back to `localStorage`.
pub const STORAGE_JS: &str = include_str!("../page/storage.js");

/// The clipboard part: copies written with `navigator.clipboard` where the browser allows it.
pub const CLIPBOARD_JS: &str = include_str!("../page/clipboard.js");

/// Every file of the page, by the name it has in a web build's folder.
pub const PAGE: &[(&str, &str)] = &[
    ("index.html", INDEX_HTML),
    ("audio.js", AUDIO_JS),
    ("storage.js", STORAGE_JS),
    ("clipboard.js", CLIPBOARD_JS),
    ("gift.js", include_str!("../page/gift.js")),
    ("jengine.js", LOADER_JS),
    ("net.js", include_str!("../page/net.js")),
];

/// The bundle's file name in a web build's folder.
pub const BUNDLE: &str = "game.bundle";

/// The module's file name in a web build's folder.
pub const MODULE: &str = "game.wasm";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_loads_every_part_before_the_loader() {
        let loader = INDEX_HTML
            .find("<script src=\"jengine.js\">")
            .expect("index.html loads jengine.js");
        for (name, _) in PAGE.iter().filter(|(n, _)| n.ends_with(".js")) {
            let at = INDEX_HTML
                .find(&format!("<script src=\"{name}\">"))
                .unwrap_or_else(|| panic!("index.html does not load {name}"));
            if *name != "jengine.js" {
                assert!(at < loader, "{name} must load before jengine.js");
            }
        }
    }
}
