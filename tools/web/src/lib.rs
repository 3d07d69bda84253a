//! The browser host: a project's files packed into one bundle, run at the fixed 60 Hz by a
//! page, its frames drawn into an RGBA buffer the page puts on a canvas.
//!
//! [`bundle`] is the packed files; [`Host`] is the runtime and renderer a page drives, free of
//! JavaScript so it runs natively in tests; [`export_host!`] writes the module's exported
//! functions into the crate `jengine web-build` generates, which names the packages a project
//! lists. The page itself (`index.html`, `jengine.js` and its parts) is in [`page`]; natively,
//! [`serve`] hosts a build's folder on the loopback address. On wasm32 the seam's
//! clock is the page's (`performance.now`, `Date.now`), and a panic leaves its message where the
//! page reads it after the module traps, so the page can say what happened and start afresh.
//! The runtime's sound device ([`sound`]), clipboard ([`clipboard`]) and the player's data
//! ([`storage`]) are the page's, each with a half the page's parts (`audio.js`, `clipboard.js`,
//! `storage.js`) drive through the exports.

#![warn(missing_docs)]

pub mod bundle;
pub mod clipboard;
mod host;
pub mod page;
#[cfg(not(target_arch = "wasm32"))]
pub mod serve;
pub mod sound;
pub mod storage;

#[doc(hidden)]
pub mod export;

pub use host::{Host, Launch, MAX_ARG_BYTES, MAX_ARGS, MAX_SIDE, project_name, storage_prefix};

use std::collections::BTreeMap;
use std::path::Path;

/// The folders of a project a bundle carries beside its `project.jengine`.
pub const BUNDLED: [&str; 2] = ["assets", "data"];

/// The files of the project in `dir` a browser build needs: `project.jengine` and everything
/// under `assets/`, `data/` and the folders the project file lists in `folders`, named
/// relative to `dir` with `/`. Hidden files are left out.
pub fn project_files(dir: &Path) -> Result<BTreeMap<String, Vec<u8>>, String> {
    let mut files = BTreeMap::new();
    let project = dir.join("project.jengine");
    let text = std::fs::read(&project).map_err(|e| format!("{}: {e}", project.display()))?;
    let listed = std::str::from_utf8(&text)
        .map_err(|_| format!("{}: not UTF-8", project.display()))
        .and_then(|t| {
            jengine::host::ProjectFile::parse(t).map_err(|e| format!("{}: {e}", project.display()))
        })?
        .folders;
    files.insert("project.jengine".to_string(), text);
    let folders = BUNDLED
        .iter()
        .copied()
        .chain(listed.iter().map(String::as_str));
    for folder in folders {
        let path = dir.join(folder);
        if path.is_dir() {
            collect(&path, folder, &mut files)?;
        }
    }
    Ok(files)
}

fn collect(dir: &Path, name: &str, files: &mut BTreeMap<String, Vec<u8>>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let Some(file) = entry.file_name().to_str().map(str::to_string) else {
            return Err(format!(
                "{}: a file name that is not UTF-8",
                entry.path().display()
            ));
        };
        if file.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let rel = format!("{name}/{file}");
        if path.is_dir() {
            collect(&path, &rel, files)?;
        } else {
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.insert(rel, bytes);
        }
    }
    Ok(())
}
