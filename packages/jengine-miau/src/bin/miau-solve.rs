//! `miau-solve`: the author solver on the command line.
//!
//! `miau-solve core`, `miau-solve mods/word-lab.cjs --level rules-are-cargo --max 5000`,
//! `miau-solve mods/word-lab.cjs --level rules-are-cargo --replay RRRRRRR`,
//! `miau-solve check-worlds [--dir projects/miau/mods]`. Exits non-zero when a proof fails.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use jengine_miau::board::{Action, Proof};
use jengine_miau::pack::{Pack, RuleText};
use jengine_miau::solve::{Mode, Outcome, Report};
use jengine_miau::source::load_file;
use jengine_miau::worlds::{self, CheckOptions, PackCheck, ProofCheck, Step};

/// Prints a line and flushes it, ignoring a closed pipe (as when the output goes to `head`), so
/// a reader sees each result the moment it is known.
macro_rules! say {
    ($($arg:tt)*) => {{
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, $($arg)*);
        let _ = out.flush();
    }};
}

/// Prints without a newline, ignoring a closed pipe.
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        let _ = write!(std::io::stdout(), $($arg)*);
    }};
}

#[derive(Parser, Debug)]
#[command(
    name = "miau-solve",
    about = "Check Miau proofs with the author solver"
)]
struct Cli {
    /// `core`, a pack file (.cjs, .lua, .json), or `check-worlds`.
    target: String,
    /// Only this level (by id).
    #[arg(long)]
    level: Option<String>,
    /// Cap on attempted actions (overrides a proof's solverBudget).
    #[arg(long)]
    max: Option<u64>,
    /// Cap on retained search states.
    #[arg(long = "max-visited")]
    max_visited: Option<usize>,
    /// Print each board of a route: the given moves (such as RRUL), or the solver's route.
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    replay: Option<String>,
    /// A rule no route may use, such as "ROCK IS WIN" (repeatable).
    #[arg(long)]
    forbid: Vec<String>,
    /// Search order: `bfs` (shortest routes), `best` (informed by the rules), or `auto`
    /// (breadth-first on half the cap, then best-first on the rest).
    #[arg(long, default_value = "auto")]
    search: Mode,
    /// Run only the main search (is there a route, and which), not the gate's other searches.
    #[arg(long = "main-only")]
    main_only: bool,
    /// The mods folder for `check-worlds`.
    #[arg(long, default_value = "projects/miau/mods")]
    dir: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut forbid = Vec::new();
    for f in &cli.forbid {
        match RuleText::parse(f) {
            Some(r) => forbid.push(r),
            None => {
                eprintln!("--forbid '{f}' is not a rule such as 'ROCK IS WIN'");
                return ExitCode::from(2);
            }
        }
    }
    let options = CheckOptions {
        max_attempts: cli.max,
        max_visited: cli.max_visited,
        forbid,
        mode: cli.search,
    };
    if cli.target == "check-worlds" {
        // Each pack is printed as soon as it is checked.
        let results = worlds::check_worlds_with(&cli.dir, &options, print_pack);
        let ok = results.iter().all(PackCheck::passed);
        say!("{}", if ok { "worlds: PASS" } else { "worlds: FAIL" });
        return if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }

    let checked = if cli.target == "core" {
        worlds::core()
    } else {
        load_file(&PathBuf::from(&cli.target))
    }
    .unwrap_or_else(|e| {
        eprintln!("{}: {e}", cli.target);
        std::process::exit(2);
    });
    let pack: Pack = checked.pack;
    let levels: Vec<_> = match &cli.level {
        Some(id) => match pack.level(id) {
            Some(l) => vec![l.clone()],
            None => {
                let ids: Vec<&str> = pack.levels.iter().map(|l| l.id.as_str()).collect();
                eprintln!(
                    "no level '{id}' in {}; levels: {}",
                    pack.manifest.id,
                    ids.join(", ")
                );
                return ExitCode::from(2);
            }
        },
        None => pack.levels.clone(),
    };

    // Notes never fail a check; they come first, before any search starts.
    // The same note said several times (stacked copies of one word) is printed once, counted.
    for (note, count) in jengine_miau::validate::merged(&checked.notes) {
        if cli.level.as_ref().is_none_or(|id| *id == note.level_id) {
            let times = if count > 1 {
                format!(" (x{count})")
            } else {
                String::new()
            };
            say!("{} / {note}{times}", pack.manifest.id);
        }
    }

    if let Some(moves) = &cli.replay
        && !moves.is_empty()
    {
        let actions = match Action::parse_sequence(moves) {
            Ok(a) => a,
            Err(c) => {
                eprintln!("--replay: '{c}' is not a move (use U, D, L, R, W)");
                return ExitCode::from(2);
            }
        };
        let mut all_won = true;
        for level in &levels {
            all_won &= replay(level, &actions);
        }
        return if all_won {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }

    let mut ok = true;
    for level in &levels {
        // Each search's line is printed the moment it ends: the main result first, then (unless
        // --main-only) each mustForm, BYPASS and HANDS-OFF search, then the verdicts.
        let started = Instant::now();
        let route = if cli.main_only {
            worlds::solve_level(level, &options).map(|report| {
                let took = Some(started.elapsed());
                say!(
                    "{} / {}: {}",
                    pack.manifest.id,
                    level.id,
                    describe(&report, took)
                );
                ok &= matches!(report.outcome, Outcome::Solved(_));
                report.route().map(<[Action]>::to_vec)
            })
        } else {
            let mut last = started;
            worlds::check_level_steps(level, &options, |step| {
                // Each step ends the moment its search does, so the time since the last one is
                // that search's time.
                let now = Instant::now();
                print_step(&pack.manifest.id, &level.id, step, Some(now - last));
                last = now;
            })
            .map(|check| {
                print_verdicts(&check);
                ok &= check.passed();
                check.solve.route().map(<[Action]>::to_vec)
            })
        };
        match route {
            Ok(Some(route)) if cli.replay.is_some() => {
                replay(level, &route);
            }
            Ok(_) => {}
            Err(e) => {
                say!("{} / {}: INVALID ({e})", pack.manifest.id, level.id);
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn replay(level: &jengine_miau::Level, actions: &[Action]) -> bool {
    let proof = match Proof::new(level) {
        Ok(p) => p,
        Err(e) => {
            say!("{}: {e}", level.id);
            return false;
        }
    };
    let mut game = jengine_miau::Game::new(proof);
    say!("{} — start", level.id);
    say_raw!("{}", game.board().draw_text(game.proof()));
    for (i, &a) in actions.iter().enumerate() {
        let turn = game.play(a);
        let note = if turn.blocked { " (blocked)" } else { "" };
        say!("turn {} {}{note}", i + 1, a.letter());
        say_raw!("{}", game.board().draw_text(game.proof()));
        if turn.won {
            say!("WON after {} moves", i + 1);
            return true;
        }
    }
    say!("not won");
    false
}

/// What a search cost: attempts, retained states and (when timed) how long it took.
fn cost(report: &Report, took: Option<Duration>) -> String {
    let mut text = format!("attempts {}, visited {}", report.attempts, report.visited);
    if let Some(t) = took {
        text.push_str(&format!(", {:.1} ms", t.as_secs_f64() * 1000.0));
    }
    text
}

fn describe(report: &Report, took: Option<Duration>) -> String {
    let cost = cost(report, took);
    let by = report.method.as_str();
    match &report.outcome {
        Outcome::Solved(route) => format!(
            "SOLVED in {} ({}) by {by}, {} [{cost}]",
            route.len(),
            Action::sequence_text(route),
            if report.shortest {
                "shortest"
            } else {
                "not known shortest"
            }
        ),
        Outcome::Unsolvable => format!("UNSOLVABLE by {by} [{cost}]"),
        Outcome::Limit => format!("LIMIT by {by} [{cost}]"),
    }
}

/// The line for a constrained search: its route, that none exists, that it hit a cap, or that
/// it was skipped because the proof allows such a route.
fn constrained(label: &str, flag: &str, report: Option<&Report>, took: Option<Duration>) -> String {
    let Some(r) = report else {
        return format!("  {label} skipped: the proof allows it ({flag})");
    };
    let cost = format!("by {}, {}", r.method.as_str(), cost(r, took));
    match &r.outcome {
        Outcome::Solved(route) => {
            format!("  {label} via {} [{cost}]", Action::sequence_text(route))
        }
        Outcome::Unsolvable => format!("  {label} none [{cost}]"),
        Outcome::Limit => format!("  {label} LIMIT [{cost}]"),
    }
}

/// One search's line, printed as soon as that search ends.
fn print_step(pack: &str, level: &str, step: Step<'_>, took: Option<Duration>) {
    match step {
        Step::Main(main) => say!("{pack} / {level}: {}", describe(main, took)),
        Step::MustForm(rule, r) => {
            let verdict = match r.outcome {
                Outcome::Solved(_) => format!("SKIPPABLE({rule})"),
                Outcome::Limit => format!("LIMIT({rule})"),
                Outcome::Unsolvable => format!("NECESSARY({rule})"),
            };
            say!(
                "  mustForm {verdict} [by {}, {}]",
                r.method.as_str(),
                cost(r, took)
            );
        }
        Step::Bypass(r) => say!("{}", constrained("BYPASS", "allowBypass", r, took)),
        Step::HandsOff(r) => say!("{}", constrained("HANDS-OFF", "allowHandsOff", r, took)),
    }
}

fn print_proof(pack: &str, check: &ProofCheck) {
    print_step(pack, &check.level_id, Step::Main(&check.solve), None);
    for (rule, r) in &check.must_form {
        print_step(pack, &check.level_id, Step::MustForm(rule, r), None);
    }
    print_step(
        pack,
        &check.level_id,
        Step::Bypass(check.bypass.as_ref()),
        None,
    );
    print_step(
        pack,
        &check.level_id,
        Step::HandsOff(check.hands_off.as_ref()),
        None,
    );
    print_verdicts(check);
}

/// The gate's failures and warnings for one proof, after all its searches.
fn print_verdicts(check: &ProofCheck) {
    for f in &check.failures {
        say!("  FAIL {f}");
    }
    for w in &check.warnings {
        say!("  WARN {w}");
    }
}

fn print_pack(check: &PackCheck) {
    let id = check.pack_id.as_deref().unwrap_or("?");
    if let Some(e) = &check.error {
        say!("{} ({id}): ERROR {e}", check.source);
    }
    for p in &check.proofs {
        print_proof(id, p);
    }
}
