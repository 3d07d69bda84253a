//! Shared by the host's integration tests: the fixture project and copies of it to break.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

pub fn fixture() -> PathBuf {
    workspace().join("tools/fixtures/counter-project")
}

/// A copy of the fixture project in a temporary folder, its package path made absolute.
pub fn copy_fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), dir.path());
    let package = workspace().join("tools/fixtures/counter-package");
    let project = dir.path().join("project.jengine");
    let text = std::fs::read_to_string(&project)
        .unwrap()
        .replace("../counter-package", package.to_str().unwrap());
    std::fs::write(project, text).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

pub fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Runs `jengine web-build <project> --out <out> --dev` (this package's own binary) and gives
/// what it printed; panics with its errors when it fails.
pub fn web_build(project: &Path, out: &Path) -> String {
    let build = std::process::Command::new(env!("CARGO_BIN_EXE_jengine"))
        .arg("web-build")
        .arg(project)
        .arg("--out")
        .arg(out)
        .arg("--dev")
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "web-build failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    String::from_utf8_lossy(&build.stdout).into_owned()
}
