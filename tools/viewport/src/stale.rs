//! The staleness list: the sources a viewport binary is built from, and why it must be built
//! again (the first build, no stamp, or the newest source and its name).
//!
//! A stamp written when the last build started stands for it; any source newer than the stamp
//! makes the binary stale.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use jengine::host::{PackageMeta, Project};

use crate::Profile;
use crate::discover::{target_dir, workspace};
use crate::generate::{crate_id, normalize};

/// The host's crates a viewport binary is built from, below the seam: a change in any makes it
/// stale.
const HOST_CRATES: [&str; 7] = [
    "tools/jengine",
    "tools/runtime",
    "tools/render",
    "tools/audio",
    "tools/editor",
    "tools/viewport",
    "tools/web",
];

/// The newest file under `path` and its modification time (skipping `target` and `.git`, and
/// links to folders below `path`, which could lead back up and never end).
pub(crate) fn newest(path: &Path) -> Option<(SystemTime, PathBuf)> {
    let meta = std::fs::metadata(path).ok()?;
    if meta.is_file() {
        return Some((meta.modified().ok()?, path.to_path_buf()));
    }
    let mut best = None;
    for entry in std::fs::read_dir(path).ok()?.flatten() {
        let p = entry.path();
        if p.file_name().is_some_and(|n| n == "target" || n == ".git") {
            continue;
        }
        let linked_dir = entry.file_type().is_ok_and(|t| t.is_symlink()) && p.is_dir();
        if !linked_dir {
            best = best.max(newest(&p));
        }
    }
    best
}

/// Why the binary must be built, or `None` when it is fresh: it exists and the stamp of its
/// last successful build is newer than every source.
pub(crate) fn staleness(binary: &Path, stamp: &Path, sources: &[PathBuf]) -> Option<String> {
    if !binary.is_file() {
        return Some("first build".into());
    }
    let Some(built) = std::fs::metadata(stamp).and_then(|m| m.modified()).ok() else {
        return Some("no record of the last build".into());
    };
    match sources.iter().filter_map(|p| newest(p)).max() {
        Some((time, path)) if time >= built => {
            Some(format!("{} changed", normalize(&path).display()))
        }
        _ => None,
    }
}

/// The sources a viewport is built from: when one is newer than the last build's stamp, the
/// binary is stale.
pub(crate) fn sources(
    crate_dir: &Path,
    home: &Path,
    root: &Path,
    metas: &[PackageMeta],
) -> Vec<PathBuf> {
    // The generated crate's own Cargo.lock is left out: cargo rewrites it during every build.
    let mut sources = vec![
        crate_dir.join("Cargo.toml"),
        crate_dir.join("main.rs"),
        crate_dir.join("workspace.lock"),
        home.join("project.jengine"),
        root.join("packages/jengine/src"),
        root.join("packages/jengine/Cargo.toml"),
        root.join("Cargo.toml"),
        // Build settings (the wasm target's flags, the C compiler for it) change the output.
        root.join(".cargo/config.toml"),
    ];
    for host in HOST_CRATES {
        sources.push(root.join(host).join("src"));
        sources.push(root.join(host).join("Cargo.toml"));
    }
    sources.extend(metas.iter().map(|m| m.dir.clone()));
    sources
}

/// Why the viewport of the project at `dir` needs building now (the project file or a
/// listed package changed since the last build, say), or `None` when it is fresh. Writes
/// nothing.
pub fn stale(dir: &Path, profile: Profile) -> Result<Option<String>, Vec<String>> {
    let project = Project::load(dir).map_err(|e| vec![e.to_string()])?;
    let metas = jengine::host::listed_packages(&project)?;
    let root = workspace(dir);
    let id = crate_id(&project.file.name, dir, &root);
    let crate_dir = root.join("target/viewport").join(&id);
    let binary = target_dir(&root)
        .join(profile.dir())
        .join(format!("viewport-{id}"));
    let stamp = crate_dir.join(format!("built-{}", profile.dir()));
    Ok(staleness(
        &binary,
        &stamp,
        &sources(&crate_dir, dir, &root, &metas),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_is_needed_first_and_after_a_source_changes_and_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let (binary, stamp) = (dir.path().join("bin"), dir.path().join("stamp"));
        let src = dir.path().join("src");
        std::fs::create_dir_all(src.join("target")).unwrap();
        std::fs::write(src.join("lib.rs"), "").unwrap();
        let sources = [src.clone()];
        let at = |secs: u64| SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(secs);
        let touch = |path: &Path, secs: u64| {
            std::fs::File::options()
                .create(true)
                .append(true)
                .open(path)
                .unwrap()
                .set_modified(at(secs))
                .unwrap();
        };
        touch(&src.join("lib.rs"), 100);
        assert_eq!(
            staleness(&binary, &stamp, &sources).as_deref(),
            Some("first build")
        );
        touch(&binary, 50);
        assert_eq!(
            staleness(&binary, &stamp, &sources).as_deref(),
            Some("no record of the last build")
        );
        touch(&stamp, 200);
        assert_eq!(staleness(&binary, &stamp, &sources), None);
        // Build output under `target` is not a source.
        touch(&src.join("target/out"), 300);
        assert_eq!(staleness(&binary, &stamp, &sources), None);
        touch(&src.join("lib.rs"), 300);
        assert_eq!(
            staleness(&binary, &stamp, &sources),
            Some(format!("{} changed", src.join("lib.rs").display()))
        );
    }
}
