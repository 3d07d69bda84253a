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

/// Pack files in a mods folder (`.cjs`, `.lua`, `.json`), sorted by name.
pub fn pack_files(dir: &Path) -> Result<Vec<PathBuf>, PackError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| PackError::Io(format!("{}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| matches!(e, "cjs" | "lua" | "json"))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The pack sources in the folder `folder` of `files` (`.cjs`, `.lua` or `.json`, the core
/// pack's own file left out), sorted by name, each with its text or why it cannot be read (too
/// large, not UTF-8). The names are as `files` gives them, for messages.
#[allow(clippy::type_complexity)]
pub fn shipped_sources(
    files: &dyn jengine::host::Assets,
    folder: &str,
) -> Result<Vec<(String, Result<String, PackError>)>, PackError> {
    let entries = files
        .list(folder)
        .map_err(|e| PackError::Io(e.to_string()))?;
    let mut out = Vec::new();
    for entry in entries {
        let kind = entry.name.rsplit('.').next().unwrap_or("");
        if entry.folder || !matches!(kind, "cjs" | "lua" | "json") || entry.name == CORE_FILE {
            continue;
        }
        let name = if folder.is_empty() {
            entry.name.clone()
        } else {
            format!("{folder}/{}", entry.name)
        };
        let shown = files.root().join(&name).display().to_string();
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
    Ok(out)
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
