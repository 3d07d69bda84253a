//! The `miau-solve` binary, end to end, on the built-in core pack and packs the tests write.

use std::process::Command;

fn miau_solve(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_miau-solve"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("miau-solve runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn solves_a_core_level() {
    let (ok, text) = miau_solve(&["core", "--level", "open-the-gate"]);
    assert!(ok, "{text}");
    assert!(text.contains("core / open-the-gate: SOLVED in 9"), "{text}");
}

#[test]
fn replay_prints_every_board_and_the_win() {
    let (ok, text) = miau_solve(&["core", "--level", "first-steps", "--replay", "RRRR"]);
    assert!(ok, "{text}");
    assert_eq!(text.matches("turn ").count(), 4);
    assert!(text.contains("WON after 4 moves"), "{text}");
}

#[test]
fn a_tiny_cap_reports_limit_and_fails() {
    let (ok, text) = miau_solve(&["core", "--level", "missing-word", "--max", "10"]);
    assert!(!ok);
    assert!(text.contains("LIMIT"), "{text}");
}

#[test]
fn forbidding_a_needed_rule_leaves_no_route() {
    // The missing word must be pushed into FLAG IS WIN: without that rule nothing wins.
    let (ok, text) = miau_solve(&["core", "--level", "missing-word", "--forbid", "FLAG IS WIN"]);
    assert!(!ok);
    assert!(text.contains("UNSOLVABLE"), "{text}");
}

#[test]
fn an_unknown_level_is_named() {
    let out = Command::new(env!("CARGO_BIN_EXE_miau-solve"))
        .args(["core", "--level", "nowhere"])
        .output()
        .expect("miau-solve runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no level 'nowhere'"));
}

#[test]
fn notes_are_printed_before_the_searches() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("loose.json");
    std::fs::write(
        &file,
        r#"{ "manifest": { "id": "loose", "name": "Loose", "version": "1.0.0" },
             "palette": { "SKULL": "💀" },
             "levels": [{ "id": "walk", "width": 6, "height": 3,
               "allowBypass": true, "allowHandsOff": true, "objects": [
               { "kind": "word", "text": "CAT", "x": 0, "y": 0 },
               { "kind": "word", "text": "IS", "x": 1, "y": 0 },
               { "kind": "word", "text": "YOU", "x": 2, "y": 0 },
               { "kind": "word", "text": "SHUT", "x": 5, "y": 0 },
               { "kind": "word", "text": "SHUT", "x": 5, "y": 0 },
               { "kind": "word", "text": "FLAG", "x": 0, "y": 2 },
               { "kind": "word", "text": "IS", "x": 1, "y": 2 },
               { "kind": "word", "text": "WIN", "x": 2, "y": 2 },
               { "kind": "object", "noun": "CAT", "x": 3, "y": 1 },
               { "kind": "object", "noun": "FLAG", "x": 5, "y": 1 } ] }] }"#,
    )
    .expect("writes");
    let (ok, text) = miau_solve(&[file.to_str().expect("utf-8 path")]);
    assert!(ok, "{text}");
    let note = text
        .find("loose / walk: SHUT has no meaning")
        .unwrap_or_else(|| panic!("{text}"));
    let solved = text
        .find("loose / walk: SOLVED")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(note < solved, "{text}");
    // Two stacked SHUTs say the same thing: one line, counted. The glyph no font draws is a
    // note of the pack, named by its palette key.
    assert_eq!(text.matches("SHUT has no meaning").count(), 1, "{text}");
    assert!(text.contains("SHUTs. (x2)"), "{text}");
    assert!(
        text.contains("loose / palette.SKULL: SKULL's glyph cannot be drawn"),
        "{text}"
    );
}

#[test]
fn main_only_runs_just_the_main_search() {
    let (ok, text) = miau_solve(&["core", "--level", "open-the-gate", "--main-only"]);
    assert!(ok, "{text}");
    assert!(text.contains("core / open-the-gate: SOLVED in 9"), "{text}");
    assert!(
        !text.contains("mustForm") && !text.contains("FAIL"),
        "{text}"
    );
    let (ok, text) = miau_solve(&[
        "core",
        "--level",
        "open-the-gate",
        "--main-only",
        "--max",
        "3",
    ]);
    assert!(!ok, "{text}");
    assert!(text.contains("LIMIT"), "{text}");
}

/// A pack whose one proof is won with two pushes, while a win that never pushes a word does not
/// exist: the BYPASS search has to walk a huge field of rocks to say so. `allow` adds
/// `allowBypass` and `allowHandsOff`.
fn slow_bypass_pack(dir: &std::path::Path, allow: bool) -> std::path::PathBuf {
    let mut objects = vec![
        serde_json::json!({ "kind": "word", "text": "CAT", "x": 0, "y": 0 }),
        serde_json::json!({ "kind": "word", "text": "IS", "x": 1, "y": 0 }),
        serde_json::json!({ "kind": "word", "text": "YOU", "x": 2, "y": 0 }),
        serde_json::json!({ "kind": "word", "text": "ROCK", "x": 0, "y": 11 }),
        serde_json::json!({ "kind": "word", "text": "IS", "x": 1, "y": 11 }),
        serde_json::json!({ "kind": "word", "text": "PUSH", "x": 2, "y": 11 }),
        serde_json::json!({ "kind": "word", "text": "FLAG", "x": 5, "y": 2 }),
        serde_json::json!({ "kind": "word", "text": "IS", "x": 6, "y": 2 }),
        serde_json::json!({ "kind": "word", "text": "WIN", "x": 7, "y": 3 }),
        serde_json::json!({ "kind": "object", "noun": "CAT", "x": 7, "y": 4 }),
        serde_json::json!({ "kind": "object", "noun": "FLAG", "x": 8, "y": 3 }),
    ];
    for (x, y) in [
        (3, 5),
        (5, 7),
        (9, 6),
        (11, 8),
        (13, 5),
        (4, 9),
        (8, 9),
        (12, 3),
        (14, 10),
    ] {
        objects.push(serde_json::json!({ "kind": "object", "noun": "ROCK", "x": x, "y": y }));
    }
    let pack = serde_json::json!({
        "manifest": { "id": "slow", "name": "Slow", "version": "1.0.0" },
        "levels": [{ "id": "field", "width": 16, "height": 12, "allowBypass": allow,
                     "allowHandsOff": allow, "objects": objects }]
    });
    let file = dir.join(if allow { "allowed.json" } else { "slow.json" });
    std::fs::write(&file, pack.to_string()).expect("writes");
    file
}

#[test]
fn the_main_line_arrives_while_the_slower_searches_still_run() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().expect("temp dir");
    let file = slow_bypass_pack(dir.path(), false);
    let mut child = Command::new(env!("CARGO_BIN_EXE_miau-solve"))
        .args([file.to_str().expect("utf-8 path"), "--max", "4000000000"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("miau-solve starts");
    let mut first = String::new();
    let read = std::io::BufReader::new(child.stdout.take().expect("piped")).read_line(&mut first);
    // The BYPASS search has billions of attempts to go: the process is still at work.
    let still_running = child.try_wait().expect("status").is_none();
    child.kill().expect("kill");
    child.wait().expect("reaped");
    read.expect("a line");
    assert!(
        first.starts_with("slow / field: SOLVED in 2 (UR) by bfs, shortest"),
        "{first}"
    );
    assert!(
        still_running,
        "the line came before the searches after it ended"
    );
}

#[test]
fn allow_flags_skip_their_searches_and_say_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A cap the main search fits in but the BYPASS search does not: LIMIT(BYPASS) fails the
    // proof unless the proof allows a bypass, and then that search is not run at all.
    let slow = slow_bypass_pack(dir.path(), false);
    let (ok, text) = miau_solve(&[slow.to_str().expect("utf-8"), "--max", "3000"]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("  BYPASS LIMIT [by bfs then best-first"),
        "{text}"
    );
    assert!(text.contains("  FAIL LIMIT(BYPASS)"), "{text}");
    assert!(text.contains("  WARN LIMIT(HANDS-OFF)"), "{text}");

    let allowed = slow_bypass_pack(dir.path(), true);
    let (ok, text) = miau_solve(&[allowed.to_str().expect("utf-8"), "--max", "3000"]);
    assert!(ok, "{text}");
    assert!(
        text.contains("  BYPASS skipped: the proof allows it (allowBypass)"),
        "{text}"
    );
    assert!(
        text.contains("  HANDS-OFF skipped: the proof allows it (allowHandsOff)"),
        "{text}"
    );
    assert!(!text.contains("FAIL") && !text.contains("WARN"), "{text}");
}

#[test]
fn each_search_has_its_own_line_in_order() {
    let (ok, text) = miau_solve(&["core", "--level", "missing-word"]);
    assert!(ok, "{text}");
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle}: {text}"))
    };
    let main = at("core / missing-word: SOLVED in 12 (UULLLDDDRRRR) by bfs, shortest [attempts ");
    let must = at("  mustForm NECESSARY(FLAG IS WIN) [by bfs, attempts ");
    let bypass = at("  BYPASS none [by bfs, attempts ");
    let hands_off = at("  HANDS-OFF none [by bfs, attempts ");
    assert!(main < must && must < bypass && bypass < hands_off, "{text}");
}

#[test]
fn the_search_flag_picks_the_order() {
    let (ok, text) = miau_solve(&[
        "core",
        "--level",
        "missing-word",
        "--main-only",
        "--search",
        "bfs",
    ]);
    assert!(ok, "{text}");
    assert!(
        text.contains("SOLVED in 12 (UULLLDDDRRRR) by bfs, shortest"),
        "{text}"
    );
    let (ok, text) = miau_solve(&[
        "core",
        "--level",
        "missing-word",
        "--main-only",
        "--search",
        "best",
    ]);
    assert!(ok, "{text}");
    assert!(text.contains("by best-first, not known shortest"), "{text}");
    let out = Command::new(env!("CARGO_BIN_EXE_miau-solve"))
        .args(["core", "--search", "deep"])
        .output()
        .expect("miau-solve runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'deep' is not a search (use bfs, best or auto)"),
        "{err}"
    );
}
