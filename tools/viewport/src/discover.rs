//! Finding the workspace: the checkout that holds the host (the one above a project, else the
//! one this tool was built from), its target folder and the packages under its `packages/`.
//!
//! A viewport is always built against a checkout of the host, so every path starts here.

use std::path::{Path, PathBuf};

use jengine::host::PackageMeta;

/// Whether `root` is a checkout holding this host (and so can be built against).
pub(crate) fn holds_host(root: &Path) -> bool {
    root.join("tools/jengine/Cargo.toml").is_file() && root.join("packages/jengine").is_dir()
}

/// The workspace holding the host: the workspace above `start` when it is a jengine checkout,
/// else the checkout this tool was built from (so an installed tool works from any folder).
pub fn workspace(start: &Path) -> PathBuf {
    jengine::host::workspace_root(start)
        .filter(|root| holds_host(root))
        .unwrap_or_else(|| checkout_of(Path::new(env!("CARGO_MANIFEST_DIR"))))
}

/// The checkout holding the host crate folder `built`. Compiled by a viewport build, this crate
/// sees itself at `<root>/target/viewport/<id>/tools/jengine` (see `link_host`), and a workspace
/// build may reuse that compiled crate: the links lead back to the checkout, and when that
/// viewport folder is gone the checkout is three folders above it.
fn checkout_of(built: &Path) -> PathBuf {
    let real = std::fs::canonicalize(built).ok();
    let candidates = [
        real.as_deref().and_then(|p| p.ancestors().nth(2)),
        built.ancestors().nth(2),
        built.ancestors().nth(5),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|root| holds_host(root))
        .or_else(|| built.ancestors().nth(2))
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The workspace's target folder: `CARGO_TARGET_DIR` when set (relative to the current
/// folder, as cargo reads it), else `<root>/target`.
pub fn target_dir(root: &Path) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_default();
    target_dir_from(std::env::var_os("CARGO_TARGET_DIR"), &cwd, root)
}

fn target_dir_from(env: Option<std::ffi::OsString>, cwd: &Path, root: &Path) -> PathBuf {
    match env {
        Some(dir) if !dir.is_empty() => cwd.join(dir),
        _ => root.join("target"),
    }
}

/// Every jengine package under `<root>/packages`, by name.
pub fn workspace_packages(root: &Path) -> Vec<PackageMeta> {
    let mut metas: Vec<PackageMeta> = std::fs::read_dir(root.join("packages"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| PackageMeta::read(&e.path()).ok())
        .collect();
    metas.sort_by(|a, b| a.name.cmp(&b.name));
    metas
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::generate::link_host;

    /// A checkout's outline: the root manifest, the host's manifest and the seam's folder.
    pub(crate) fn common_files(root: &Path) {
        std::fs::create_dir_all(root.join("tools/jengine")).unwrap();
        std::fs::write(root.join("tools/jengine/Cargo.toml"), "").unwrap();
        std::fs::create_dir_all(root.join("packages/jengine")).unwrap();
        std::fs::write(
            root.join("Cargo.toml"),
            "[workspace]\nresolver = \"3\"\nmembers = [\"packages/*\"]\n\n[workspace.package]\nversion = \"0.1.0\"\n\n[workspace.dependencies]\njengine = { path = \"packages/jengine\" }\n\n[profile.dev.package.\"*\"]\nopt-level = 2\n",
        )
        .unwrap();
    }

    #[test]
    fn the_checkout_is_found_from_where_the_host_was_compiled() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        common_files(&root);
        assert_eq!(checkout_of(&root.join("tools/jengine")), root);
        // Compiled through a viewport's links, whether or not that viewport folder still exists.
        let through = root.join("target/viewport/demo-0/tools/jengine");
        assert_eq!(checkout_of(&through), root);
        let crate_dir = root.join("target/viewport/demo-0");
        std::fs::create_dir_all(&crate_dir).unwrap();
        if link_host(&crate_dir, &root) {
            assert_eq!(checkout_of(&through), root);
        }
    }

    #[test]
    fn the_target_folder_is_cargo_target_dir_when_set() {
        let (cwd, root) = (Path::new("/here"), Path::new("/ws"));
        assert_eq!(
            target_dir_from(Some("/shared/target".into()), cwd, root),
            Path::new("/shared/target")
        );
        assert_eq!(
            target_dir_from(Some("out".into()), cwd, root),
            Path::new("/here/out")
        );
        assert_eq!(
            target_dir_from(Some("".into()), cwd, root),
            Path::new("/ws/target")
        );
        assert_eq!(target_dir_from(None, cwd, root), Path::new("/ws/target"));
    }
}
