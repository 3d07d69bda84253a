//! The `jengine` tool's command line end to end: the game's arguments after `--` go through the
//! tool, across the hop to the project's viewport binary, to the script.

mod common;

use std::process::Command;

#[test]
fn arguments_after_the_double_dash_reach_the_script() {
    let fixture = common::fixture();
    let out = Command::new(env!("CARGO_BIN_EXE_jengine"))
        .args(["run", "--dev"])
        .arg(&fixture)
        .args(["--headless", "--frames", "2", "--", "--gift", "abc"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("info: assets/scripts/counter.lua:15: args --gift abc\n"),
        "{stderr}"
    );
    // Headless keeps the player's data in memory: no folder is named.
    assert!(!stderr.contains("the player's data is kept in"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("ran 2 frames of counter-fixture"),
        "{stdout}"
    );
}

/// A headless run is a test gate: a script error makes its exit status 1, naming the first
/// error; `--allow-errors` keeps it 0. A clean run is 0.
#[test]
fn a_headless_run_that_logged_an_error_exits_non_zero() {
    let dir = common::copy_fixture();
    let script = dir.path().join("assets/scripts/counter.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    let broken = text.replacen(
        "  frames = frames + 1\n",
        "  frames = frames + 1\n  if frames == 2 then error(\"the lamp is out\") end\n",
        1,
    );
    assert_ne!(text, broken, "the script's update was found");
    let project = dir.path().to_str().unwrap().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["jengine", "run", &project, "--headless", "--frames", "4"];
        args.extend_from_slice(extra);
        jengine_tool::cli::viewport_run(args, &[&jengine_counter::CounterPackage])
    };
    assert_eq!(
        run(&[]),
        std::process::ExitCode::SUCCESS,
        "the clean fixture"
    );
    std::fs::write(&script, broken).unwrap();
    assert_eq!(run(&[]), std::process::ExitCode::FAILURE);
    assert_eq!(run(&["--allow-errors"]), std::process::ExitCode::SUCCESS);
}
