//! `jengine viewport-build`: the crate that links exactly a project's listed packages.
//!
//! The generated crate lives under `<workspace>/target/viewport/<project>-<id>/` with its own
//! `[workspace]`, depends on this host and on each listed package by path, and its `main` hands
//! the listed entry points to `jengine_tool::cli::viewport_main`. It builds into the workspace's own
//! target folder with the workspace's lock, profiles and workspace tables, and reaches the host
//! through links that put it at the same relative path as in the workspace; cargo names a
//! compiled crate by exactly those things, so everything a workspace build compiled is reused.
//! The build is skipped when a stamp written after the last build is newer than every source.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

use jengine::host::{PackageMeta, Project};

/// Which cargo profile a viewport is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// Optimised: what players run.
    Release,
    /// Quick to build: what tests use.
    Dev,
}

impl Profile {
    fn dir(self) -> &'static str {
        match self {
            Profile::Release => "release",
            Profile::Dev => "debug",
        }
    }
}

/// A generated viewport crate and its binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewport {
    /// The generated crate's folder.
    pub crate_dir: PathBuf,
    /// The built binary.
    pub binary: PathBuf,
    /// Why cargo ran (`None` when the binary was fresh and the build was skipped).
    pub reason: Option<String>,
}

impl Viewport {
    /// Whether this call ran cargo.
    pub fn rebuilt(&self) -> bool {
        self.reason.is_some()
    }
}

/// What went wrong making a viewport.
#[derive(Debug)]
pub enum ViewportError {
    /// A generated file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// cargo could not be started.
    Spawn {
        /// The program tried.
        cargo: String,
        /// Why.
        source: std::io::Error,
    },
    /// A listed package's metadata cannot go into the generated crate as it is.
    Package {
        /// The package's `Cargo.toml`.
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// cargo ran and failed.
    Build {
        /// The generated crate.
        crate_dir: PathBuf,
        /// cargo's error output, or a note that it went to the terminal.
        output: String,
    },
}

impl fmt::Display for ViewportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewportError::Write { path, source } => {
                write!(
                    f,
                    "{}: cannot write the viewport crate: {source}",
                    path.display()
                )
            }
            ViewportError::Spawn { cargo, source } => write!(f, "cannot run {cargo}: {source}"),
            ViewportError::Package { file, message } => write!(f, "{}: {message}", file.display()),
            ViewportError::Build { crate_dir, output } => write!(
                f,
                "building the viewport in {} failed:\n{output}",
                crate_dir.display()
            ),
        }
    }
}

impl std::error::Error for ViewportError {}

/// Whether `root` is a checkout holding this host (and so can be built against).
fn holds_host(root: &Path) -> bool {
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

/// The host's crates a viewport binary is built from, below the seam: a change in any makes it
/// stale.
const HOST_CRATES: [&str; 6] = [
    "tools/jengine",
    "tools/runtime",
    "tools/render",
    "tools/audio",
    "tools/editor",
    "tools/viewport",
];

/// The workspace folders a viewport crate links to.
const LINKED: [&str; 2] = ["packages", "tools"];

/// Links `<crate_dir>/packages` and `<crate_dir>/tools` to the workspace's own folders. Cargo
/// names a path crate by its path relative to the workspace root, so reached through these
/// links the host crates get the same names as in a workspace build and are reused as built.
/// False when the links cannot be made; the crate then uses plain paths and compiles the host.
fn link_host(crate_dir: &Path, root: &Path) -> bool {
    #[cfg(unix)]
    {
        LINKED.iter().all(|name| {
            let (link, target) = (crate_dir.join(name), root.join(name));
            if std::fs::read_link(&link).is_ok_and(|t| t == target) {
                return true;
            }
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&target, &link).is_ok()
        })
    }
    #[cfg(not(unix))]
    {
        let _ = (crate_dir, root);
        false
    }
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

/// A crate-name-safe form of a project name.
fn slug(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "project".into() } else { s }
}

/// `<slug>-<8 hex digits>`: the project name plus a hash of where the project and the host
/// are, so two projects (or two checkouts sharing one target folder) never share a binary.
/// FNV-1a, because the name must not change between toolchains.
fn crate_id(name: &str, home: &Path, root: &Path) -> String {
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let key = format!(
        "{}\n{}",
        canonical(home).display(),
        canonical(root).display()
    );
    let mut hash: u32 = 0x811c_9dc5;
    for byte in key.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    format!("{}-{hash:08x}", slug(name))
}

/// The workspace's `[workspace]` (without its member lists), `[profile.*]` and `[patch.*]`
/// tables as manifest text: the same settings give the same cargo hashes, and the linked host
/// crates inherit their `workspace = true` fields from the viewport's `[workspace]`. Unlinked,
/// only the resolver is kept, as the workspace's relative paths would not resolve.
fn workspace_tables(root: &Path, linked: bool) -> String {
    let Ok(text) = std::fs::read_to_string(root.join("Cargo.toml")) else {
        return "[workspace]\n".into();
    };
    let Ok(mut manifest) = toml::from_str::<toml::Table>(&text) else {
        return "[workspace]\n".into();
    };
    let mut workspace = match manifest.remove("workspace") {
        Some(toml::Value::Table(t)) => t,
        _ => toml::Table::new(),
    };
    if linked {
        for key in ["members", "exclude", "default-members"] {
            workspace.remove(key);
        }
    } else {
        workspace.retain(|key, _| key == "resolver");
    }
    let mut table = toml::Table::new();
    table.insert("workspace".into(), toml::Value::Table(workspace));
    for key in ["profile", "patch"] {
        if let Some(value) = manifest.remove(key) {
            table.insert(key.into(), value);
        }
    }
    toml::to_string(&table).unwrap_or_else(|_| "[workspace]\n".into())
}

/// `text` as a TOML string.
fn toml_str(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// Whether `name` is a crate name cargo accepts: ASCII letters, digits, `-` and `_`, not
/// starting with a digit.
fn crate_name_ok(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Whether `entry` is a Rust path (`Type` or `crate_name::module::Type`), the only thing the
/// generated `main.rs` may be given.
fn entry_ok(entry: &str) -> bool {
    entry.split("::").all(|part| {
        part.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Checks that each package's name and entry can be written into the generated crate: they
/// come from the packages' own `Cargo.toml` files and go into a manifest and into Rust code.
fn check_metas(metas: &[PackageMeta]) -> Result<(), ViewportError> {
    for meta in metas {
        let problem = if !crate_name_ok(&meta.name) {
            Some(format!(
                "package name {:?} is not a crate name (ASCII letters, digits, - and _)",
                meta.name
            ))
        } else if !entry_ok(&meta.entry) {
            Some(format!(
                "[package.metadata.jengine] entry {:?} is not a Rust path like `MyPackage` or `my_crate::MyPackage`",
                meta.entry
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            return Err(ViewportError::Package {
                file: meta.dir.join("Cargo.toml"),
                message,
            });
        }
    }
    Ok(())
}

/// How the generated manifest names a crate folder: through the links when it is under a
/// linked workspace folder (so its compiled form is shared with the workspace), else absolute.
fn dep_path(dir: &Path, root: &Path, linked: bool) -> String {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    if linked {
        for top in LINKED {
            if let Ok(rel) = dir.strip_prefix(root.join(top)) {
                return Path::new(top).join(rel).display().to_string();
            }
        }
    }
    dir.display().to_string()
}

/// The files of a generated crate: `(Cargo.toml, main.rs)`. `id` is the crate's name after
/// `viewport-`; `linked` says whether the crate folder links to the workspace's (`link_host`);
/// `tables` is the text from `workspace_tables`.
pub fn generate(
    id: &str,
    root: &Path,
    metas: &[PackageMeta],
    linked: bool,
    tables: &str,
) -> (String, String) {
    let mut manifest = format!(
        "# Generated by `jengine viewport-build`; do not edit.\n[package]\nname = \"viewport-{id}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[[bin]]\nname = \"viewport-{id}\"\npath = \"main.rs\"\n\n[dependencies]\njengine-tool = {{ path = {} }}\n",
        toml_str(&dep_path(&root.join("tools/jengine"), root, linked))
    );
    let mut entries = Vec::new();
    for meta in metas {
        manifest.push_str(&format!(
            "{} = {{ path = {} }}\n",
            meta.name,
            toml_str(&dep_path(&meta.dir, root, linked))
        ));
        entries.push(format!("&{}", meta.entry_path()));
    }
    manifest.push_str("\n# Copied from the workspace's Cargo.toml.\n");
    manifest.push_str(tables);
    if linked {
        let redirects = redirects(metas, root);
        if !redirects.is_empty() {
            manifest.push_str(
                "\n# Packages outside the workspace name these crates by their real folders;\n# the host reaches them through the links, and a crate may be built only once.\n",
            );
        }
        for (written, name, linked_path) in redirects {
            manifest.push_str(&format!(
                "[patch.{}]\n{name} = {{ path = {} }}\n",
                toml_str(&format!("file://{}", written.display())),
                toml_str(&linked_path)
            ));
        }
    }
    let main = format!(
        "// Generated by `jengine viewport-build`; do not edit.\n// Registers exactly the packages the project lists, in listing order.\n\nfn main() -> std::process::ExitCode {{\n    jengine_tool::cli::viewport_main(&[{}])\n}}\n",
        entries.join(", ")
    );
    (manifest, main)
}

/// `path` with `.` and `..` taken out without looking at the disk, as cargo spells a path
/// dependency's source.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The workspace crates that listed packages from outside the linked folders depend on by
/// path, as `(the folder as they write it, crate name, the folder through the links)`. Each
/// needs a `[patch]` sending it through the links, or cargo would see two crates of one name.
fn redirects(metas: &[PackageMeta], root: &Path) -> Vec<(PathBuf, String, String)> {
    let mut out: Vec<(PathBuf, String, String)> = Vec::new();
    for meta in metas {
        let dir = std::fs::canonicalize(&meta.dir).unwrap_or_else(|_| meta.dir.clone());
        if LINKED.iter().any(|top| dir.starts_with(root.join(top))) {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(meta.dir.join("Cargo.toml")) else {
            continue;
        };
        let Ok(manifest) = toml::from_str::<toml::Table>(&text) else {
            continue;
        };
        let targets = manifest.get("target").and_then(|t| t.as_table());
        let tables = std::iter::once(manifest.get("dependencies"))
            .chain(
                targets
                    .into_iter()
                    .flat_map(|t| t.values().map(|v| v.get("dependencies"))),
            )
            .flatten()
            .filter_map(|deps| deps.as_table());
        for (key, dep) in tables.flat_map(|deps| deps.iter()) {
            let Some(path) = dep.get("path").and_then(|p| p.as_str()) else {
                continue;
            };
            let name = dep.get("package").and_then(|p| p.as_str()).unwrap_or(key);
            // Cargo reads the package at `dir` (the generated manifest names it canonically)
            // and joins a relative path to that.
            let written = normalize(&dir.join(path));
            let Ok(real) = std::fs::canonicalize(&written) else {
                continue;
            };
            let linked_path = dep_path(&real, root, true);
            if Path::new(&linked_path).is_relative() && !out.iter().any(|(w, ..)| *w == written) {
                out.push((written, name.to_string(), linked_path));
            }
        }
    }
    out
}

/// Writes `text` unless the file already holds it, so an unchanged file keeps its time.
fn write_if_changed(path: &Path, text: &[u8]) -> Result<(), ViewportError> {
    if std::fs::read(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    let write = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, text)
    };
    write().map_err(|source| ViewportError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// The newest file under `path` and its modification time (skipping `target` and `.git`, and
/// links to folders below `path`, which could lead back up and never end).
fn newest(path: &Path) -> Option<(SystemTime, PathBuf)> {
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
fn staleness(binary: &Path, stamp: &Path, sources: &[PathBuf]) -> Option<String> {
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

/// The sources a viewport is built from: when one is newer than the last build's stamp, the
/// binary is stale.
fn sources(crate_dir: &Path, home: &Path, root: &Path, metas: &[PackageMeta]) -> Vec<PathBuf> {
    // The generated crate's own Cargo.lock is left out: cargo rewrites it during every build.
    let mut sources = vec![
        crate_dir.join("Cargo.toml"),
        crate_dir.join("main.rs"),
        crate_dir.join("workspace.lock"),
        home.join("project.jengine"),
        root.join("packages/jengine/src"),
        root.join("packages/jengine/Cargo.toml"),
        root.join("Cargo.toml"),
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
    let id = crate_id(name, home, root);
    let crate_dir = root.join("target/viewport").join(&id);
    let target_dir = target_dir(root);
    std::fs::create_dir_all(&crate_dir).map_err(|source| ViewportError::Write {
        path: crate_dir.clone(),
        source,
    })?;
    let linked = link_host(&crate_dir, root);
    let (manifest, main) = generate(&id, root, metas, linked, &workspace_tables(root, linked));
    write_if_changed(&crate_dir.join("Cargo.toml"), manifest.as_bytes())?;
    write_if_changed(&crate_dir.join("main.rs"), main.as_bytes())?;
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
    let binary = target_dir
        .join(profile.dir())
        .join(format!("viewport-{id}"));
    let stamp = crate_dir.join(format!("built-{}", profile.dir()));
    let sources = sources(&crate_dir, home, root, metas);
    let Some(reason) = staleness(&binary, &stamp, &sources) else {
        return Ok(Viewport {
            crate_dir,
            binary,
            reason: None,
        });
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
        .arg(&target_dir);
    if profile == Profile::Release {
        cmd.arg("--release");
    }
    let spawn = |source| ViewportError::Spawn {
        cargo: cargo.clone(),
        source,
    };
    let what = format!(
        "building the viewport of {name} ({}, {}) into {}: {reason}",
        metas
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        profile.dir(),
        target_dir.display()
    );
    match output {
        Output::Quiet => {
            let output = cmd.arg("--quiet").output().map_err(spawn)?;
            if !output.status.success() {
                return Err(ViewportError::Build {
                    crate_dir,
                    output: String::from_utf8_lossy(&output.stderr).into_owned(),
                });
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
                return Err(ViewportError::Build {
                    crate_dir,
                    output: "cargo's messages are above".into(),
                });
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
                return Err(ViewportError::Build {
                    crate_dir,
                    output: if errors.is_empty() {
                        format!("cargo failed ({status})")
                    } else {
                        errors
                    },
                });
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
mod tests {
    use super::*;

    #[test]
    fn the_generated_main_registers_listed_entries_in_order() {
        let meta = |name: &str, entry: &str| PackageMeta {
            name: name.into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: entry.into(),
            namespace: None,
            depends: vec![],
            dir: PathBuf::from("/x").join(name),
        };
        let (manifest, main) = generate(
            "demo-0",
            Path::new("/ws"),
            &[
                meta("jengine-b", "BPackage"),
                meta("jengine-a", "jengine_a::inner::APackage"),
            ],
            false,
            "[workspace]\n",
        );
        assert!(
            manifest.contains("jengine-b = { path = \"/x/jengine-b\" }"),
            "{manifest}"
        );
        assert!(manifest.contains("[workspace]"));
        assert!(
            manifest.contains("name = \"viewport-demo-0\""),
            "{manifest}"
        );
        assert!(
            main.contains("viewport_main(&[&jengine_b::BPackage, &jengine_a::inner::APackage])"),
            "{main}"
        );
        assert_eq!(slug("Counter Fixture!"), "counter-fixture");
    }

    #[test]
    fn the_generated_manifest_carries_the_workspace_tables_and_profiles() {
        let root = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(root.path()).unwrap();
        common_files(&root);
        let tables = workspace_tables(&root, true);
        let (manifest, _) = generate("demo-0", &root, &[], true, &tables);
        let parsed: toml::Table = toml::from_str(&manifest).unwrap();
        let workspace = parsed["workspace"].as_table().unwrap();
        assert!(!workspace.contains_key("members"), "{manifest}");
        assert_eq!(workspace["resolver"].as_str(), Some("3"));
        assert_eq!(
            workspace["dependencies"]["jengine"]["path"].as_str(),
            Some("packages/jengine")
        );
        assert_eq!(workspace["package"]["version"].as_str(), Some("0.1.0"));
        assert_eq!(
            parsed["profile"]["dev"]["package"]["*"]["opt-level"].as_integer(),
            Some(2),
            "{manifest}"
        );
        assert_eq!(
            parsed["dependencies"]["jengine-tool"]["path"].as_str(),
            Some("tools/jengine"),
            "linked, the host is reached through the crate's own folder"
        );

        // Unlinked: plain paths, and only the resolver (the workspace's paths would not resolve).
        let tables = workspace_tables(&root, false);
        let (manifest, _) = generate("demo-0", &root, &[], false, &tables);
        let parsed: toml::Table = toml::from_str(&manifest).unwrap();
        assert_eq!(
            parsed["workspace"]
                .as_table()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["resolver"]
        );
        assert_eq!(
            parsed["dependencies"]["jengine-tool"]["path"].as_str(),
            Some(root.join("tools/jengine").to_str().unwrap())
        );
        assert!(parsed.contains_key("profile"), "{manifest}");
    }

    /// A checkout's outline: the root manifest, the host's manifest and the seam's folder.
    fn common_files(root: &Path) {
        std::fs::create_dir_all(root.join("tools/jengine")).unwrap();
        std::fs::write(root.join("tools/jengine/Cargo.toml"), "").unwrap();
        std::fs::create_dir_all(root.join("packages/jengine")).unwrap();
        std::fs::write(
            root.join("Cargo.toml"),
            "[workspace]\nresolver = \"3\"\nmembers = [\"packages/*\"]\n\n[workspace.package]\nversion = \"0.1.0\"\n\n[workspace.dependencies]\njengine = { path = \"packages/jengine\" }\n\n[profile.dev.package.\"*\"]\nopt-level = 2\n",
        )
        .unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn listed_packages_in_the_workspace_are_reached_through_the_links() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        common_files(&root);
        std::fs::create_dir_all(root.join("packages/jengine-a")).unwrap();
        let crate_dir = root.join("target/viewport/demo-0");
        std::fs::create_dir_all(&crate_dir).unwrap();
        assert!(link_host(&crate_dir, &root));
        assert!(
            link_host(&crate_dir, &root),
            "linking again keeps the links"
        );
        assert!(crate_dir.join("tools/jengine").is_dir());
        let outside = tempfile::tempdir().unwrap();
        assert_eq!(
            dep_path(&root.join("packages/jengine-a"), &root, true),
            "packages/jengine-a"
        );
        let outside_dir = std::fs::canonicalize(outside.path()).unwrap();
        assert_eq!(
            dep_path(outside.path(), &root, true),
            outside_dir.display().to_string()
        );
        // A package outside names the seam by its real folder: it is sent through the links.
        let pkg = outside_dir.join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(
            pkg.join("Cargo.toml"),
            format!(
                "[package]\nname = \"pkg\"\n[dependencies]\nseam = {{ package = \"jengine\", path = {:?} }}\nother = {{ path = \"../nowhere\" }}\nserde = \"1\"\n[target.'cfg(unix)'.dependencies]\na = {{ path = {:?} }}\n",
                root.join("tools/../packages/jengine").display().to_string(),
                root.join("packages/jengine-a").display().to_string(),
            ),
        )
        .unwrap();
        let meta = PackageMeta {
            name: "pkg".into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: "P".into(),
            namespace: None,
            depends: vec![],
            dir: pkg.clone(),
        };
        assert_eq!(
            redirects(std::slice::from_ref(&meta), &root),
            [
                (
                    root.join("packages/jengine"),
                    "jengine".to_string(),
                    "packages/jengine".to_string()
                ),
                (
                    root.join("packages/jengine-a"),
                    "a".to_string(),
                    "packages/jengine-a".to_string()
                ),
            ]
        );
        let (manifest, _) = generate("demo-0", &root, &[meta], true, "[workspace]\n");
        let parsed: toml::Table = toml::from_str(&manifest).unwrap();
        let url = format!("file://{}", root.join("packages/jengine").display());
        assert_eq!(
            parsed["patch"][&url]["jengine"]["path"].as_str(),
            Some("packages/jengine"),
            "{manifest}"
        );

        // The freshness walk does not follow the links back into the workspace.
        std::fs::write(crate_dir.join("main.rs"), "").unwrap();
        assert_eq!(newest(&crate_dir).unwrap().1, crate_dir.join("main.rs"));
    }

    #[test]
    fn names_and_entries_that_would_break_the_generated_crate_are_refused() {
        let meta = |name: &str, entry: &str| PackageMeta {
            name: name.into(),
            version: "0.1.0".into(),
            description: String::new(),
            entry: entry.into(),
            namespace: None,
            depends: vec![],
            dir: PathBuf::from("/pkgs/evil"),
        };
        let dir = tempfile::tempdir().unwrap();
        let attacks = [
            (
                "evil = { path = \"/\" }\n[patch.x]\ny",
                "P",
                "is not a crate name",
            ),
            ("9lives", "P", "is not a crate name"),
            ("", "P", "is not a crate name"),
            (
                "ok",
                "P]); std::process::exit(0); fn f() {[&P",
                "is not a Rust path",
            ),
            ("ok", "a::::b", "is not a Rust path"),
            ("ok", "", "is not a Rust path"),
        ];
        for (name, entry, expected) in attacks {
            let err = build_for(
                "x",
                dir.path(),
                dir.path(),
                &[meta(name, entry)],
                Profile::Dev,
                true,
            )
            .unwrap_err()
            .to_string();
            assert!(err.starts_with("/pkgs/evil/Cargo.toml: "), "{err}");
            assert!(err.contains(expected), "{name:?} {entry:?}: {err}");
        }
        assert!(
            !dir.path().join("target").exists(),
            "a refused package writes nothing"
        );
        assert!(check_metas(&[meta("jengine-a_b", "jengine_a_b::inner::APackage")]).is_ok());
    }

    #[test]
    fn manifest_strings_are_toml_strings() {
        let text = toml_str("C:\\odd \"dir\"\u{301}");
        let parsed: toml::Table = toml::from_str(&format!("x = {text}")).unwrap();
        assert_eq!(parsed["x"].as_str(), Some("C:\\odd \"dir\"\u{301}"));
    }

    #[test]
    fn projects_of_one_name_in_two_places_get_two_crates() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        let root = Path::new("/ws");
        let id = crate_id("My Game", &a, root);
        assert!(id.starts_with("my-game-"), "{id}");
        assert_eq!(id, crate_id("My Game", &a, root), "the id is stable");
        assert_ne!(id, crate_id("My Game", &b, root));
        assert_ne!(id, crate_id("My Game", &a, Path::new("/other-checkout")));
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
