//! The check every asset tool's tests make of the files it commits: a fresh run against the
//! committed folder, byte for byte, with none missing and none left over.
//!
//! The art and sound tools write the same bytes on every machine, so their output is
//! committed beside the game and a test holds it there. Each test makes the files afresh (in
//! memory, or written to a scratch folder and read back with [`read_run`]) and hands them to
//! [`check`] with the committed folder, the kinds of file the tool owns there and the tool's
//! package name. Every way the two differ is reported at once, each with the command that
//! mends it:
//!
//! ```no_run
//! use std::path::Path;
//!
//! let fresh = vec![("title.wav", b"RIFF...".to_vec())];
//! let committed = Path::new("projects/kotodama/assets/audio");
//! jengine_committed::check(committed, &fresh, &["wav", "json"], "kotodama-sound")
//!     .unwrap_or_else(|mismatch| panic!("{mismatch}"));
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// One way the committed folder differs from a fresh run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Difference {
    /// The run makes a file the folder does not hold (or it cannot be read: `reason`).
    Missing {
        /// The file's name.
        name: String,
        /// Why it could not be read.
        reason: String,
    },
    /// The committed file's bytes are not the run's.
    Changed {
        /// The file's name.
        name: String,
    },
    /// The folder holds a file of the tool's kinds that the run does not make.
    Extra {
        /// The file's name.
        name: String,
    },
    /// The folder itself cannot be listed, so files left over cannot be looked for.
    Unlisted {
        /// Why.
        reason: String,
    },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Difference::Missing { name, reason } => write!(f, "{name} is not committed ({reason})"),
            Difference::Changed { name } => write!(f, "{name} differs from a fresh run"),
            Difference::Extra { name } => write!(f, "{name} is committed but not made any more"),
            Difference::Unlisted { reason } => write!(f, "the folder cannot be listed ({reason})"),
        }
    }
}

/// A committed folder that is not what its tool makes: where, which tool, and every
/// [`Difference`], in the order of the run's files, then the files left over by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The committed folder.
    pub dir: PathBuf,
    /// The tool's package name, as `cargo run -p` takes it.
    pub tool: String,
    /// Every way the folder differs.
    pub differences: Vec<Difference>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} is not what `{}` makes:",
            self.dir.display(),
            self.tool
        )?;
        for difference in &self.differences {
            writeln!(f, "  {difference}")?;
        }
        write!(
            f,
            "run `cargo run -p {}` and commit what it writes (delete what it no longer makes)",
            self.tool
        )
    }
}

impl std::error::Error for Mismatch {}

/// How the committed folder `dir` differs from `fresh`, the `(file name, bytes)` a fresh run
/// makes: a file missing or unreadable, a file whose bytes differ, or a file whose extension is
/// one of `kinds` (`"png"`, `"wav"`: the kinds the tool owns there) that the run does not make.
/// Files of other kinds (a README, a licence) are left alone. Empty when the two agree.
pub fn differences<N: AsRef<str>, B: AsRef<[u8]>>(
    dir: &Path,
    fresh: &[(N, B)],
    kinds: &[&str],
) -> Vec<Difference> {
    let mut out = Vec::new();
    for (name, bytes) in fresh {
        let name = name.as_ref();
        match std::fs::read(dir.join(name)) {
            Err(e) => out.push(Difference::Missing {
                name: name.to_string(),
                reason: e.to_string(),
            }),
            Ok(kept) if kept != bytes.as_ref() => out.push(Difference::Changed {
                name: name.to_string(),
            }),
            Ok(_) => {}
        }
    }
    let made: BTreeSet<&str> = fresh.iter().map(|(n, _)| n.as_ref()).collect();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            out.push(Difference::Unlisted {
                reason: e.to_string(),
            });
            return out;
        }
    };
    let owned = |name: &str| {
        Path::new(name)
            .extension()
            .is_some_and(|ext| kinds.iter().any(|k| ext == *k))
    };
    let left_over: BTreeSet<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| owned(n) && !made.contains(n.as_str()))
        .collect();
    out.extend(left_over.into_iter().map(|name| Difference::Extra { name }));
    out
}

/// Checks the committed folder `dir` against `fresh` ([`differences`]); a [`Mismatch`] names
/// the folder, every difference and what to run (`tool`) to mend it.
pub fn check<N: AsRef<str>, B: AsRef<[u8]>>(
    dir: &Path,
    fresh: &[(N, B)],
    kinds: &[&str],
    tool: &str,
) -> Result<(), Mismatch> {
    let differences = differences(dir, fresh, kinds);
    if differences.is_empty() {
        return Ok(());
    }
    Err(Mismatch {
        dir: dir.to_path_buf(),
        tool: tool.to_string(),
        differences,
    })
}

/// A file of a run that could not be read back.
#[derive(Debug)]
pub struct ReadError {
    /// The file or folder.
    pub path: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read {}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Every file a run wrote into the scratch folder `dir`, as `(file name, bytes)` sorted by
/// name, ready for [`check`]. A run writes files only, so anything that cannot be read as one
/// (a folder, say) is an error naming it.
pub fn read_run(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, ReadError> {
    let unreadable = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReadError { path, source }
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable(dir))? {
        let path = entry.map_err(unreadable(dir))?.path();
        let bytes = std::fs::read(&path).map_err(unreadable(&path))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        files.push((name, bytes));
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(files: &[(&str, &[u8])]) -> Vec<(String, Vec<u8>)> {
        files
            .iter()
            .map(|(n, b)| (n.to_string(), b.to_vec()))
            .collect()
    }

    #[test]
    fn a_folder_that_matches_the_run_passes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("same.wav"), b"abc").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"kept").unwrap();
        let run = fresh(&[("same.wav", b"abc")]);
        assert_eq!(check(dir.path(), &run, &["wav"], "a-tool"), Ok(()));
    }

    #[test]
    fn missing_changed_and_left_over_files_are_all_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("same.wav"), b"abc").unwrap();
        std::fs::write(dir.path().join("changed.wav"), b"old").unwrap();
        std::fs::write(dir.path().join("stray.json"), b"{}").unwrap();
        std::fs::write(dir.path().join("another.wav"), b"x").unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"kept").unwrap();
        let run = fresh(&[
            ("same.wav", b"abc"),
            ("changed.wav", b"new"),
            ("missing.wav", b"x"),
        ]);
        let found = differences(dir.path(), &run, &["wav", "json"]);
        let names: Vec<String> = found.iter().map(|d| d.to_string()).collect();
        assert_eq!(names.len(), 4, "{names:?}");
        assert_eq!(names[0], "changed.wav differs from a fresh run");
        assert!(names[1].starts_with("missing.wav is not committed ("));
        assert_eq!(names[2], "another.wav is committed but not made any more");
        assert_eq!(names[3], "stray.json is committed but not made any more");
    }

    #[test]
    fn only_the_kinds_the_tool_owns_count_as_left_over() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.png"), b"png").unwrap();
        std::fs::write(dir.path().join("b.wav"), b"wav").unwrap();
        std::fs::write(dir.path().join("README.md"), b"#").unwrap();
        let run = fresh(&[("a.png", b"png")]);
        assert!(differences(dir.path(), &run, &["png"]).is_empty());
        assert_eq!(
            differences(dir.path(), &run, &["png", "wav"]),
            [Difference::Extra {
                name: "b.wav".into()
            }]
        );
    }

    #[test]
    fn a_mismatch_names_the_folder_each_difference_and_the_command_to_run() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.png"), b"old").unwrap();
        let err = check(dir.path(), &fresh(&[("a.png", b"new")]), &["png"], "x-art").unwrap_err();
        let text = err.to_string();
        assert!(
            text.starts_with(&format!(
                "{} is not what `x-art` makes:",
                dir.path().display()
            )),
            "{text}"
        );
        assert!(
            text.contains("\n  a.png differs from a fresh run\n"),
            "{text}"
        );
        assert!(text.contains("cargo run -p x-art"), "{text}");
    }

    #[test]
    fn a_folder_that_is_not_there_reports_every_file_missing_and_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone");
        let found = differences(&gone, &fresh(&[("a.png", b"x")]), &["png"]);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(matches!(&found[0], Difference::Missing { name, .. } if name == "a.png"));
        assert!(matches!(found[1], Difference::Unlisted { .. }));
    }

    #[test]
    fn a_run_is_read_back_sorted_by_name_and_a_folder_in_it_is_refused_by_path() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("b.png"), b"2").unwrap();
        std::fs::write(dir.path().join("a.png"), b"1").unwrap();
        assert_eq!(
            read_run(dir.path()).unwrap(),
            fresh(&[("a.png", b"1"), ("b.png", b"2")])
        );
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let err = read_run(dir.path()).unwrap_err();
        assert_eq!(err.path, sub);
        assert!(
            err.to_string().contains(&sub.display().to_string()),
            "{err}"
        );
        let gone = dir.path().join("gone");
        assert_eq!(read_run(&gone).unwrap_err().path, gone);
    }
}
