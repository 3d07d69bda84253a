//! The shipped worlds and the gate every proof in them must pass.
//!
//! A proof passes when it solves, when every `mustForm` rule is necessary (forbidding it leaves
//! no route), and when a win without pushing words (BYPASS) is either absent or declared with
//! `allowBypass`. A win with no word motion at all (HANDS-OFF) only warns. A search that hits
//! its cap proves nothing, so any LIMIT fails. A proof that declares `allowBypass` or
//! `allowHandsOff` already says such a route is fine, so that search is not run at all.
//!
//! Every search order ([`Mode`]) is exhaustive when it ends under its cap, so a `mustForm`
//! rule is proven necessary (no route without it) in any of them.

use std::path::{Path, PathBuf};

use crate::board::{Proof, ProofError};
use crate::pack::{Level, Pack, RuleText};
use crate::solve::{
    Constraint, DEFAULT_MAX_ATTEMPTS, DEFAULT_MAX_VISITED, Mode, Outcome, Report, Search, solve,
};
use crate::source::{SourceKind, load, load_file};
use crate::validate::{Checked, MAX_SOURCE_BYTES, PackError};

/// The core pack's source (`packs/core.json`), built into the crate.
pub const CORE_SOURCE: &str = include_str!("../packs/core.json");
/// The file name the core pack ships under.
pub const CORE_FILE: &str = "core.json";

/// The built-in core pack.
pub fn core() -> Result<Checked, PackError> {
    load(CORE_SOURCE, SourceKind::Json, CORE_FILE)
}

/// Whether `name` (one entry of a mods folder) is a pack file by its extension.
fn is_pack_name(name: &str) -> bool {
    name.rsplit_once('.')
        .is_some_and(|(_, e)| matches!(e, "cjs" | "lua" | "json"))
}

/// Whether a folder entry's name is one plain, visible component: not empty, not `.` or `..`,
/// no separator, not hidden (a web build leaves hidden files out, so the game never lists
/// them anywhere). Anything else is skipped, so a listing cannot climb out of its folder.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\', '\0'])
}

/// Pack files (`.cjs`, `.lua`, `.json`) in a mods folder and in its subfolders at any depth,
/// sorted by path (a folder's packs sort where its name does). As the game's own listing
/// does, a link to a folder is never followed and a link to a file counts only when the file
/// it reaches is inside `dir`, so nothing outside the folder is ever listed.
pub fn pack_files(dir: &Path) -> Result<Vec<PathBuf>, PackError> {
    let io = |path: &Path, e: std::io::Error| PackError::Io(format!("{}: {e}", path.display()));
    let root = std::fs::canonicalize(dir).map_err(|e| io(dir, e))?;
    let mut files = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).map_err(|e| io(&folder, e))? {
            let entry = entry.map_err(|e| io(&folder, e))?;
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if !is_plain_name(&name) {
                continue;
            }
            let path = entry.path();
            if kind.is_dir() {
                folders.push(path);
            } else if is_pack_name(&name) {
                let inside = std::fs::canonicalize(&path)
                    .is_ok_and(|real| real.starts_with(&root) && real.is_file());
                if inside {
                    files.push(path);
                }
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The pack sources in the folder `folder` of `files` and in its subfolders at any depth
/// (`.cjs`, `.lua` or `.json`; a file named like the core pack's own is left out), in the
/// order [`pack_files`] gives, each with its text or why it cannot be read (too large, not
/// UTF-8, a folder that cannot be listed). Entries whose names are not one plain visible
/// component are skipped, and so is a file on disk whose real place is outside `folder` (a
/// link to elsewhere in the project), as [`pack_files`] skips it. The names are as `files`
/// gives them, for messages.
#[allow(clippy::type_complexity)]
pub fn shipped_sources(
    files: &dyn jengine::host::Assets,
    folder: &str,
) -> Result<Vec<(String, Result<String, PackError>)>, PackError> {
    // Where the folder really is, when the set is a folder on disk (a set in memory has no
    // links, and its root names no real folder).
    let base = std::fs::canonicalize(files.root().join(folder)).ok();
    let mut out = Vec::new();
    shipped_sources_in(files, folder, base.as_deref(), true, &mut out)?;
    Ok(out)
}

/// [`shipped_sources`] for one folder: its packs and, in name order with them, its
/// subfolders'. Only the top folder's own listing failing is an error; a subfolder that cannot
/// be listed is reported in its place.
#[allow(clippy::type_complexity)]
fn shipped_sources_in(
    files: &dyn jengine::host::Assets,
    folder: &str,
    base: Option<&Path>,
    top: bool,
    out: &mut Vec<(String, Result<String, PackError>)>,
) -> Result<(), PackError> {
    let entries = match files.list(folder) {
        Ok(entries) => entries,
        Err(e) if top => return Err(PackError::Io(e.to_string())),
        Err(e) => {
            let shown = files.root().join(folder).display().to_string();
            out.push((shown, Err(PackError::Io(e.to_string()))));
            return Ok(());
        }
    };
    for entry in entries {
        if !is_plain_name(&entry.name) {
            continue;
        }
        let name = if folder.is_empty() {
            entry.name.clone()
        } else {
            format!("{folder}/{}", entry.name)
        };
        if entry.folder {
            shipped_sources_in(files, &name, base, false, out)?;
            continue;
        }
        if !is_pack_name(&entry.name) || entry.name == CORE_FILE {
            continue;
        }
        let path = files.root().join(&name);
        if let (Some(base), Ok(real)) = (base, std::fs::canonicalize(&path))
            && !real.starts_with(base)
        {
            continue;
        }
        let shown = path.display().to_string();
        let text = files
            .read_at_most(&name, MAX_SOURCE_BYTES as u64)
            .map_err(|e| match e.problem {
                jengine::host::AssetProblem::TooLarge { size, .. } => PackError::TooLarge {
                    bytes: size as usize,
                    limit: MAX_SOURCE_BYTES,
                },
                _ => PackError::Io(e.to_string()),
            })
            .and_then(|bytes| {
                String::from_utf8(bytes).map_err(|_| PackError::Io(format!("{shown}: not UTF-8")))
            });
        out.push((shown, text));
    }
    Ok(())
}

/// Solver settings for checking proofs; `None` caps defer to each proof's `solverBudget`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckOptions {
    /// Overrides every proof's attempt cap.
    pub max_attempts: Option<u64>,
    /// Cap on retained states (default [`DEFAULT_MAX_VISITED`]).
    pub max_visited: Option<usize>,
    /// Rules no counted route may use.
    pub forbid: Vec<RuleText>,
    /// Which search order every search uses (default [`Mode::Auto`]).
    pub mode: Mode,
}

/// Everything the gate learned about one proof.
#[derive(Clone, Debug, PartialEq)]
pub struct ProofCheck {
    /// The level's id.
    pub level_id: String,
    /// The unconstrained search.
    pub solve: Report,
    /// For each `mustForm` rule, the search that forbade it.
    pub must_form: Vec<(RuleText, Report)>,
    /// The search for a route that never pushes a word; `None` when the proof declares
    /// `allowBypass`, so the search was skipped.
    pub bypass: Option<Report>,
    /// The search for a route with no word motion at all; `None` when the proof declares
    /// `allowHandsOff`, so the search was skipped.
    pub hands_off: Option<Report>,
    /// Labels that fail the gate, such as `LIMIT` or `SKIPPABLE(ROCK IS WIN)`.
    pub failures: Vec<String>,
    /// Labels that only warn, such as `HANDS-OFF`.
    pub warnings: Vec<String>,
}

impl ProofCheck {
    /// Whether the proof passes.
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The search settings the gate uses for `level`: its caps, the forbidden rules plus `extra`.
fn search_for(
    level: &Level,
    options: &CheckOptions,
    constraint: Constraint,
    extra: Option<&RuleText>,
) -> Search {
    let mut forbid = options.forbid.clone();
    forbid.extend(extra.cloned());
    Search {
        max_attempts: options
            .max_attempts
            .or(level.solver_budget)
            .unwrap_or(DEFAULT_MAX_ATTEMPTS),
        max_visited: options.max_visited.unwrap_or(DEFAULT_MAX_VISITED),
        forbid,
        constraint,
        mode: options.mode,
    }
}

/// Only the gate's main search for one level: is there a winning route at all, and which.
pub fn solve_level(level: &Level, options: &CheckOptions) -> Result<Report, ProofError> {
    let proof = Proof::new(level)?;
    Ok(solve(
        &proof,
        &search_for(level, options, Constraint::Free, None),
    ))
}

/// Runs every search the gate needs for one level.
pub fn check_level(level: &Level, options: &CheckOptions) -> Result<ProofCheck, ProofError> {
    check_level_with(level, options, |_| {})
}

/// One search of the gate, handed over as soon as it ends (see [`check_level_steps`]).
#[derive(Clone, Copy, Debug)]
pub enum Step<'a> {
    /// The unconstrained search.
    Main(&'a Report),
    /// The search with one `mustForm` rule forbidden.
    MustForm(&'a RuleText, &'a Report),
    /// The BYPASS search; `None`: skipped, the proof declares `allowBypass`.
    Bypass(Option<&'a Report>),
    /// The HANDS-OFF search; `None`: skipped, the proof declares `allowHandsOff`.
    HandsOff(Option<&'a Report>),
}

/// [`check_level`], handing the main search's report to `on_main` as soon as it ends, before
/// the slower searches (each `mustForm` rule, bypass, hands-off) start.
pub fn check_level_with(
    level: &Level,
    options: &CheckOptions,
    mut on_main: impl FnMut(&Report),
) -> Result<ProofCheck, ProofError> {
    check_level_steps(level, options, |step| {
        if let Step::Main(report) = step {
            on_main(report);
        }
    })
}

/// [`check_level`], handing every search to `on_step` the moment it ends: the main search
/// first, then each `mustForm` rule, then BYPASS and HANDS-OFF (or that each was skipped).
pub fn check_level_steps(
    level: &Level,
    options: &CheckOptions,
    mut on_step: impl FnMut(Step<'_>),
) -> Result<ProofCheck, ProofError> {
    let proof = Proof::new(level)?;
    let search = |constraint: Constraint, extra: Option<&RuleText>| {
        search_for(level, options, constraint, extra)
    };
    let mut failures = Vec::new();
    let mut warnings = Vec::new();

    let main = solve(&proof, &search(Constraint::Free, None));
    on_step(Step::Main(&main));
    match main.outcome {
        Outcome::Solved(_) => {}
        Outcome::Unsolvable => failures.push("UNSOLVABLE".to_string()),
        Outcome::Limit => failures.push("LIMIT".to_string()),
    }
    let mut must_form = Vec::new();
    for rule in &level.must_form {
        let r = solve(&proof, &search(Constraint::Free, Some(rule)));
        on_step(Step::MustForm(rule, &r));
        match r.outcome {
            Outcome::Solved(_) => failures.push(format!("SKIPPABLE({rule})")),
            Outcome::Limit => failures.push(format!("LIMIT({rule})")),
            Outcome::Unsolvable => {}
        }
        must_form.push((rule.clone(), r));
    }
    // A declared allowance answers the question the search would ask, so it is not asked.
    let bypass = (!level.allow_bypass).then(|| solve(&proof, &search(Constraint::Bypass, None)));
    on_step(Step::Bypass(bypass.as_ref()));
    match bypass.as_ref().map(|r| &r.outcome) {
        Some(Outcome::Solved(_)) => failures.push("BYPASS".to_string()),
        Some(Outcome::Limit) => failures.push("LIMIT(BYPASS)".to_string()),
        _ => {}
    }
    let hands_off =
        (!level.allow_hands_off).then(|| solve(&proof, &search(Constraint::HandsOff, None)));
    on_step(Step::HandsOff(hands_off.as_ref()));
    match hands_off.as_ref().map(|r| &r.outcome) {
        Some(Outcome::Solved(_)) => warnings.push("HANDS-OFF".to_string()),
        Some(Outcome::Limit) => warnings.push("LIMIT(HANDS-OFF)".to_string()),
        _ => {}
    }
    Ok(ProofCheck {
        level_id: level.id.clone(),
        solve: main,
        must_form,
        bypass,
        hands_off,
        failures,
        warnings,
    })
}

/// The gate's result for one pack.
#[derive(Clone, Debug, PartialEq)]
pub struct PackCheck {
    /// Where the pack came from (`core` or a file path).
    pub source: String,
    /// The pack's id, when it loaded.
    pub pack_id: Option<String>,
    /// Why it did not load or compile.
    pub error: Option<String>,
    /// One entry per proof.
    pub proofs: Vec<ProofCheck>,
}

impl PackCheck {
    /// Whether the pack loaded and every proof passed.
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.proofs.iter().all(ProofCheck::passed)
    }
}

/// Checks every proof of a pack, one after another.
pub fn check_pack(source: &str, pack: &Pack, options: &CheckOptions) -> PackCheck {
    let mut out = PackCheck {
        source: source.to_string(),
        pack_id: Some(pack.manifest.id.clone()),
        error: None,
        proofs: Vec::new(),
    };
    for level in &pack.levels {
        match check_level(level, options) {
            Ok(c) => out.proofs.push(c),
            Err(e) => {
                out.error = Some(format!("{}: {e}", level.id));
                break;
            }
        }
    }
    out
}

/// Checks the built-in core pack and then every pack file in `dir` (except the core's own
/// file), in sequence, so each proof gets its whole budget.
pub fn check_worlds(dir: &Path, options: &CheckOptions) -> Vec<PackCheck> {
    check_worlds_with(dir, options, |_| {})
}

/// [`check_worlds`], handing each pack's result to `on_pack` as soon as it is checked, so a
/// caller can show progress through a long gate.
pub fn check_worlds_with(
    dir: &Path,
    options: &CheckOptions,
    mut on_pack: impl FnMut(&PackCheck),
) -> Vec<PackCheck> {
    let mut results = Vec::new();
    let mut push = |check: PackCheck| {
        on_pack(&check);
        results.push(check);
    };
    match core() {
        Ok(c) => push(check_pack("core", &c.pack, options)),
        Err(e) => push(failed("core", e)),
    }
    match pack_files(dir) {
        Ok(files) => {
            for file in files {
                if file.file_name().and_then(|n| n.to_str()) == Some(CORE_FILE) {
                    continue;
                }
                let name = file.display().to_string();
                match load_file(&file) {
                    Ok(c) => push(check_pack(&name, &c.pack, options)),
                    Err(e) => push(failed(&name, e)),
                }
            }
        }
        Err(e) => push(failed(&dir.display().to_string(), e)),
    }
    results
}

fn failed(source: &str, e: PackError) -> PackCheck {
    PackCheck {
        source: source.to_string(),
        pack_id: None,
        error: Some(e.to_string()),
        proofs: Vec::new(),
    }
}
