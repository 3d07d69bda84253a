//! Input files kept beside the test that computes them.
//!
//! A game's playthrough is planned in its test (a route through the dungeon, a proof of a
//! level) and kept as an input file that `jengine run --input` replays. The test checks the
//! kept file is the route it computes; `JENGINE_BLESS=1` (as for goldens) rewrites it after a
//! change was looked at.

use std::path::Path;

/// Checks that the file at `path` holds `json`; with `JENGINE_BLESS` set, writes it instead.
pub fn check(path: &Path, json: &str) -> Result<(), String> {
    if std::env::var_os("JENGINE_BLESS").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        return std::fs::write(path, json).map_err(|e| format!("{}: {e}", path.display()));
    }
    match std::fs::read_to_string(path) {
        Ok(kept) if kept == json => Ok(()),
        Ok(_) => Err(format!(
            "{} is not the input the test computes; JENGINE_BLESS=1 rewrites it",
            path.display()
        )),
        Err(e) => Err(format!(
            "{} cannot be read ({e}); JENGINE_BLESS=1 writes it",
            path.display()
        )),
    }
}

/// [`check`], panicking with its message.
pub fn assert_kept(path: &Path, json: &str) {
    if let Err(e) = check(path, json) {
        panic!("{e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_file_matches_and_a_changed_one_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("route.json");
        std::fs::write(&path, "[1]").unwrap();
        assert_eq!(check(&path, "[1]"), Ok(()));
        let e = check(&path, "[2]").unwrap_err();
        assert!(e.contains("route.json is not the input"), "{e}");
        let e = check(&dir.path().join("none.json"), "[]").unwrap_err();
        assert!(e.contains("none.json cannot be read"), "{e}");
    }
}
