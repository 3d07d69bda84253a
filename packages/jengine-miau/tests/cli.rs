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
             "levels": [{ "id": "walk", "width": 6, "height": 3,
               "allowBypass": true, "allowHandsOff": true, "objects": [
               { "kind": "word", "text": "CAT", "x": 0, "y": 0 },
               { "kind": "word", "text": "IS", "x": 1, "y": 0 },
               { "kind": "word", "text": "YOU", "x": 2, "y": 0 },
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
