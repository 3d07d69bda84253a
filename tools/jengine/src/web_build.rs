//! `jengine web-build`: one folder a static server can host, with the page, the loader, the
//! module linking exactly the project's listed packages, and the project's files as a bundle.
//!
//! Every step does only what changed: cargo is skipped when the module is fresh (as for the
//! viewport), and a file in the folder is written only when its bytes differ.

use std::path::{Path, PathBuf};

use jengine_web::page::{BUNDLE, MODULE, PAGE};

use crate::viewport::{self, Profile};

/// What a web build wrote: the folder, and which of its files changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebBuild {
    /// The folder holding the page (`index.html`, `jengine.js` and its parts), `game.wasm` and
    /// `game.bundle`.
    pub out: PathBuf,
    /// The files this build wrote (the rest were already up to date).
    pub written: Vec<String>,
    /// Whether cargo ran.
    pub compiled: bool,
}

/// The folder a web build writes to when none is given: `target/web-build/<project folder>`
/// in the project's workspace.
pub fn default_out(project: &Path) -> PathBuf {
    let name = std::fs::canonicalize(project)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "project".into());
    viewport::workspace(project)
        .join("target/web-build")
        .join(name)
}

/// Builds the project at `project` for the browser into `out` (or [`default_out`]). `dev`
/// builds the module with the dev profile, which also exports a deliberate crash for tests.
pub fn web_build(project: &Path, out: Option<&Path>, dev: bool) -> Result<WebBuild, Vec<String>> {
    let profile = if dev { Profile::Dev } else { Profile::Release };
    let files = jengine_web::project_files(project).map_err(|e| vec![e])?;
    let module = viewport::build_web(project, profile, false)?;
    let out = out
        .map(Path::to_path_buf)
        .unwrap_or_else(|| default_out(project));
    std::fs::create_dir_all(&out).map_err(|e| vec![format!("{}: {e}", out.display())])?;
    let wasm = std::fs::read(&module.binary)
        .map_err(|e| vec![format!("{}: {e}", module.binary.display())])?;
    let mut written = Vec::new();
    let bundle = jengine_web::bundle::pack(&files);
    let page = PAGE.iter().map(|(name, text)| (*name, text.as_bytes()));
    for (name, bytes) in page.chain([(MODULE, wasm.as_slice()), (BUNDLE, bundle.as_slice())]) {
        let path = out.join(name);
        if std::fs::read(&path).ok().as_deref() == Some(bytes) {
            continue;
        }
        jengine::host::write_atomically(&path, bytes)
            .map_err(|e| vec![format!("{}: {e}", path.display())])?;
        written.push(name.to_string());
    }
    Ok(WebBuild {
        out,
        written,
        compiled: module.rebuilt(),
    })
}
