//! Building the viewport: generate its crate, skip cargo when the binary is fresh, else run
//! cargo with its messages sent quietly, to the terminal or line by line, and stamp the build.
//!
//! cargo runs from the workspace's folder with the workspace's lock and target folder, so it
//! compiles with the same toolchain, flags and versions as a workspace build.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

use jengine::host::{PackageMeta, Project};

use crate::discover::{target_dir, workspace};
use crate::generate::{
    check_metas, crate_id, generate, link_host, workspace_tables, write_if_changed,
};
use crate::stale::{sources, staleness};
use crate::unify::{TREE_FILE, Unified, built_with, workspace_tree};
use crate::{Profile, Viewport, ViewportError};

/// Generates and (when stale) builds the viewport for the project `name` at `home` (the
/// workspace itself for the docs viewport) linking `metas`. Unless `quiet`, says on stderr
/// what is built and why, and lets cargo's progress through to the terminal.
pub fn build_for(
    name: &str,
    home: &Path,
    root: &Path,
    metas: &[PackageMeta],
    profile: Profile,
    quiet: bool,
) -> Result<Viewport, ViewportError> {
    let output = if quiet {
        Output::Quiet
    } else {
        Output::Terminal
    };
    build_with(name, home, root, metas, profile, output)
}

/// Where a build's messages go.
pub enum Output<'a> {
    /// Nowhere while it goes well; cargo's errors in [`ViewportError::Build`].
    Quiet,
    /// To the terminal: what is built and why, and cargo's progress.
    Terminal,
    /// Each line to this function as it comes (what is built and why, then cargo's lines);
    /// cargo's errors in [`ViewportError::Build`] too.
    Lines(&'a mut dyn FnMut(&str)),
}

/// [`build_for`] with its messages sent where `output` says.
pub fn build_with(
    name: &str,
    home: &Path,
    root: &Path,
    metas: &[PackageMeta],
    profile: Profile,
    output: Output<'_>,
) -> Result<Viewport, ViewportError> {
    check_metas(metas)?;
    crate::generate::check_one_host(metas, root)?;
    let id = crate_id(name, home, root);
    let crate_dir = root.join("target/viewport").join(&id);
    std::fs::create_dir_all(&crate_dir).map_err(|source| ViewportError::Write {
        path: crate_dir.clone(),
        source,
    })?;
    let linked = link_host(&crate_dir, root);
    let tables = workspace_tables(root, linked);
    // The workspace's resolution as read at the last build: read again only when cargo runs, so
    // an unchanged project starts without asking cargo anything.
    let tree_file = crate_dir.join(TREE_FILE);
    let last = std::fs::read_to_string(&tree_file).unwrap_or_default();
    let (manifest, main) = generate(&id, root, metas, linked, &tables, &Unified::parse(&last));
    let manifest_file = crate_dir.join("Cargo.toml");
    write_if_changed(&manifest_file, manifest.as_bytes())?;
    write_if_changed(&crate_dir.join("main.rs"), main.as_bytes())?;
    let binary = target_dir(root)
        .join(profile.dir())
        .join(format!("viewport-{id}"));
    let (root_dir, metas_owned) = (root.to_path_buf(), metas.to_vec());
    let profile_dir = target_dir(root).join(profile.dir());
    let unify = move || -> Result<Option<String>, ViewportError> {
        let tree = match workspace_tree(&root_dir) {
            Ok(tree) => tree,
            Err(why) => {
                return Ok(Some(format!(
                    "cannot read the workspace's features ({why}); crates its build compiled may compile again"
                )));
            }
        };
        // Asked for only when the workspace's build is in the target folder (see `built_with`).
        let mut unified = Unified::parse(&tree);
        let named: Vec<PathBuf> = std::iter::once(root_dir.join("tools/jengine"))
            .chain(metas_owned.iter().map(|m| m.dir.clone()))
            .collect();
        let mut kept = tree.as_str();
        if !built_with(&unified.below(&named), &profile_dir) {
            (unified, kept) = (Unified::default(), "");
        }
        write_if_changed(&tree_file, kept.as_bytes())?;
        let (manifest, _) = generate(&id, &root_dir, &metas_owned, linked, &tables, &unified);
        write_if_changed(&manifest_file, manifest.as_bytes())?;
        Ok(None)
    };
    let job = Job {
        what: "viewport",
        crate_dir,
        artifact: binary,
        stamp_name: format!("built-{}", profile.dir()),
        cargo_args: Vec::new(),
        extra_sources: Vec::new(),
        before_build: Some(Box::new(unify)),
    };
    run_cargo(job, name, home, root, metas, profile, output)
}

/// What a build is about to compile in C for the first time: one line for each crate a listed
/// package names under `c` in its metadata that has not been built in this target folder and
/// profile yet (cargo keeps a build script's output under `build/<crate>-<hash>/`).
pub(crate) fn c_to_compile(
    metas: &[PackageMeta],
    target_dir: &Path,
    profile: Profile,
) -> Vec<String> {
    let built: Vec<String> = std::fs::read_dir(target_dir.join(profile.dir()).join("build"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("output").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let mut lines = Vec::new();
    for meta in metas {
        for (krate, what) in &meta.c {
            let prefix = format!("{krate}-");
            let done = built.iter().any(|b| {
                b.strip_prefix(&prefix)
                    .is_some_and(|hash| hash.chars().all(|c| c.is_ascii_hexdigit()))
            });
            if !done {
                lines.push(format!(
                    "{} compiles C on this first build: {what} ({krate}); it takes a minute or more, once for this target folder and profile",
                    meta.name
                ));
            }
        }
    }
    lines
}

/// One generated crate to build: what it is called in messages, where it is, what cargo
/// makes of it, the stamp file's name in its folder, and any further cargo arguments.
pub(crate) struct Job {
    pub what: &'static str,
    pub crate_dir: std::path::PathBuf,
    pub artifact: std::path::PathBuf,
    pub stamp_name: String,
    pub cargo_args: Vec<String>,
    /// Sources besides the host's and the packages' whose change makes it stale.
    pub extra_sources: Vec<std::path::PathBuf>,
    /// Run once the build is known to be needed, before cargo: rewrites what must be current
    /// for it, and may return a line to say with what is built.
    pub before_build: Option<BeforeBuild>,
}

/// See [`Job::before_build`].
pub(crate) type BeforeBuild = Box<dyn FnOnce() -> Result<Option<String>, ViewportError>>;

/// Seeds the generated crate's lock from the workspace's, skips cargo when `job.artifact` is
/// fresh, else runs cargo as `output` says and stamps the build.
pub(crate) fn run_cargo(
    job: Job,
    name: &str,
    home: &Path,
    root: &Path,
    metas: &[PackageMeta],
    profile: Profile,
    output: Output<'_>,
) -> Result<Viewport, ViewportError> {
    let Job {
        what: kind,
        crate_dir,
        artifact: binary,
        stamp_name,
        cargo_args,
        extra_sources,
        before_build,
    } = job;
    let target_dir = target_dir(root);
    // Build from the workspace's lock so the viewport uses the same versions (and so reuses the
    // workspace's compiled crates). `workspace.lock` is the copy last started from: when the
    // workspace's lock moves on, start again from it; otherwise keep the lock cargo wrote, with
    // whatever an outside package added.
    let seed = crate_dir.join("workspace.lock");
    if let Ok(lock) = std::fs::read(root.join("Cargo.lock"))
        && (std::fs::read(&seed).ok().as_deref() != Some(lock.as_slice())
            || !crate_dir.join("Cargo.lock").exists())
    {
        write_if_changed(&crate_dir.join("Cargo.lock"), &lock)?;
        write_if_changed(&seed, &lock)?;
    }
    let stamp = crate_dir.join(stamp_name);
    let mut sources = sources(&crate_dir, home, root, metas);
    sources.extend(extra_sources);
    let Some(reason) = staleness(&binary, &stamp, &sources) else {
        return Ok(Viewport {
            crate_dir,
            binary,
            reason: None,
        });
    };
    let note = match before_build {
        Some(before) => before()?,
        None => None,
    };
    // Taken before cargo starts, so a source saved during the build still counts as newer.
    let started = SystemTime::now();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(&cargo);
    // From the workspace's folder, so cargo reads its toolchain file and config as a workspace
    // build does; a different compiler or flags would change every crate's hash.
    cmd.current_dir(root)
        .arg("build")
        .arg("--manifest-path")
        .arg(crate_dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target_dir)
        .args(&cargo_args);
    if profile == Profile::Release {
        cmd.arg("--release");
    }
    let spawn = |source| ViewportError::Spawn {
        cargo: cargo.clone(),
        source,
    };
    let mut what = format!(
        "building the {kind} of {name} ({}, {}) against the host in {} into {}: {reason}",
        metas
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        profile.dir(),
        root.display(),
        target_dir.display()
    );
    for line in note
        .into_iter()
        .chain(c_to_compile(metas, &target_dir, profile))
    {
        what.push('\n');
        what.push_str(&line);
    }
    match output {
        Output::Quiet => {
            let output = cmd.arg("--quiet").output().map_err(spawn)?;
            if !output.status.success() {
                let output = String::from_utf8_lossy(&output.stderr).into_owned();
                return Err(build_failed(crate_dir, output, metas));
            }
        }
        Output::Terminal => {
            eprintln!("{what}");
            let status = cmd
                .stdout(Stdio::inherit())
                .stderr(Stdio::inherit())
                .status()
                .map_err(spawn)?;
            if !status.success() {
                let output = "cargo's messages are above".to_string();
                return Err(build_failed(crate_dir, output, metas));
            }
        }
        Output::Lines(each) => {
            each(&what);
            let mut child = cmd
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(spawn)?;
            let mut errors = String::new();
            if let Some(stderr) = child.stderr.take() {
                use std::io::BufRead;
                for line in std::io::BufReader::new(stderr).lines() {
                    let Ok(line) = line else { break };
                    each(&line);
                    // Keep what cargo says from the first error on, for the failure.
                    if line.starts_with("error") || !errors.is_empty() {
                        errors.push_str(&line);
                        errors.push('\n');
                    }
                }
            }
            let status = child.wait().map_err(spawn)?;
            if !status.success() {
                let output = if errors.is_empty() {
                    format!("cargo failed ({status})")
                } else {
                    errors
                };
                return Err(build_failed(crate_dir, output, metas));
            }
        }
    }
    let stamped = std::fs::File::create(&stamp).and_then(|f| f.set_modified(started));
    stamped.map_err(|source| ViewportError::Write {
        path: stamp,
        source,
    })?;
    Ok(Viewport {
        crate_dir,
        binary,
        reason: Some(reason),
    })
}

/// A failed build, said against the package's `Cargo.toml` when the likely cause is there: an
/// `entry` naming nothing in the package's sources makes the generated `main.rs` fail, and
/// cargo would point at that file, which the author never wrote.
fn build_failed(crate_dir: PathBuf, output: String, metas: &[PackageMeta]) -> ViewportError {
    for meta in metas {
        let item = meta.entry.rsplit("::").next().unwrap_or(&meta.entry);
        let src = meta.dir.join("src");
        if !src.is_dir() || mentions(&src, item, 0) {
            continue;
        }
        return ViewportError::Package {
            file: meta.dir.join("Cargo.toml"),
            message: format!(
                "[package.metadata.jengine] entry {:?} names nothing in the crate's sources ({}): no item called {item}, so the viewport cannot register the package; name the type that implements Package. cargo said:\n{output}",
                meta.entry,
                src.display()
            ),
        };
    }
    ViewportError::Build { crate_dir, output }
}

/// Whether a `.rs` file under `dir` (at most 8 folders deep) has `word` as a whole word.
fn mentions(dir: &Path, word: &str, depth: usize) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    entries.flatten().any(|e| {
        let path = e.path();
        if path.is_dir() {
            return depth < 8 && mentions(&path, word, depth + 1);
        }
        if path.extension().is_none_or(|x| x != "rs") {
            return false;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            return false;
        };
        text.match_indices(word).any(|(at, _)| {
            !text[..at].chars().next_back().is_some_and(is_word)
                && !text[at + word.len()..].chars().next().is_some_and(is_word)
        })
    })
}

/// Generates and builds the viewport of the project at `dir`, checking dependency coverage first.
pub fn build(dir: &Path, profile: Profile, quiet: bool) -> Result<Viewport, Vec<String>> {
    let project = Project::load(dir).map_err(|e| vec![e.to_string()])?;
    let metas = jengine::host::listed_packages(&project)?;
    let root = workspace(dir);
    build_for(&project.file.name, dir, &root, &metas, profile, quiet)
        .map_err(|e| vec![e.to_string()])
}

/// [`build`] sending what it says, line by line, to `each` (an editor's progress panel).
pub fn build_reporting(
    dir: &Path,
    profile: Profile,
    each: &mut dyn FnMut(&str),
) -> Result<Viewport, Vec<String>> {
    let project = Project::load(dir).map_err(|e| vec![e.to_string()])?;
    let metas = jengine::host::listed_packages(&project)?;
    let root = workspace(dir);
    build_with(
        &project.file.name,
        dir,
        &root,
        &metas,
        profile,
        Output::Lines(each),
    )
    .map_err(|e| vec![e.to_string()])
}

#[cfg(test)]
mod entry_tests {
    use super::*;

    #[test]
    fn a_first_build_says_which_c_it_compiles() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        let meta = PackageMeta {
            name: "jengine-miau".into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: "MiauPackage".into(),
            namespace: None,
            depends: vec![],
            c: vec![("rquickjs-sys".into(), "QuickJS".into())],
            dir: dir.path().to_path_buf(),
        };
        let said = c_to_compile(std::slice::from_ref(&meta), &target, Profile::Release);
        assert_eq!(
            said,
            [
                "jengine-miau compiles C on this first build: QuickJS (rquickjs-sys); it takes a minute or more, once for this target folder and profile"
            ]
        );
        // A build folder of another crate with the same start, or one without its output, is
        // not the crate built.
        let build = target.join("release/build");
        std::fs::create_dir_all(build.join("rquickjs-sys-extra-0a1b")).unwrap();
        std::fs::write(build.join("rquickjs-sys-extra-0a1b/output"), "").unwrap();
        std::fs::create_dir_all(build.join("rquickjs-sys-9f8e7d")).unwrap();
        assert_eq!(
            c_to_compile(std::slice::from_ref(&meta), &target, Profile::Release).len(),
            1
        );
        std::fs::write(build.join("rquickjs-sys-9f8e7d/output"), "").unwrap();
        assert!(c_to_compile(std::slice::from_ref(&meta), &target, Profile::Release).is_empty());
        // The dev profile has its own.
        assert_eq!(c_to_compile(&[meta], &target, Profile::Dev).len(), 1);
    }

    #[test]
    fn a_failed_build_with_a_wrong_entry_is_said_against_the_packages_cargo_toml() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("greeter");
        std::fs::create_dir_all(dir.join("src/inner")).unwrap();
        std::fs::write(
            dir.join("src/lib.rs"),
            "mod inner;\npub use inner::GreeterPackage;\n",
        )
        .unwrap();
        std::fs::write(dir.join("src/inner/mod.rs"), "pub struct GreeterPackage;\n").unwrap();
        let meta = |entry: &str| PackageMeta {
            name: "greeter".into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: entry.into(),
            namespace: None,
            depends: vec![],
            c: Vec::new(),
            dir: dir.clone(),
        };
        let crate_dir = tmp.path().join("viewport");
        // A misspelt entry: the crate has no such item.
        let err = build_failed(
            crate_dir.clone(),
            "error[E0425]".into(),
            &[meta("GreeterPackge")],
        );
        let text = err.to_string();
        assert!(
            text.starts_with(&dir.join("Cargo.toml").display().to_string()),
            "{text}"
        );
        assert!(
            text.contains("entry \"GreeterPackge\" names nothing"),
            "{text}"
        );
        assert!(
            text.contains("error[E0425]"),
            "cargo's words are kept: {text}"
        );
        // An entry the crate has, as a path or by itself: the failure is cargo's own.
        for entry in ["GreeterPackage", "greeter::inner::GreeterPackage"] {
            let err = build_failed(crate_dir.clone(), "error".into(), &[meta(entry)]);
            assert!(matches!(err, ViewportError::Build { .. }), "{err}");
        }
        // A prefix of a real name is not the name.
        let err = build_failed(crate_dir, "error".into(), &[meta("Greeter")]);
        assert!(matches!(err, ViewportError::Package { .. }), "{err}");
    }
}
