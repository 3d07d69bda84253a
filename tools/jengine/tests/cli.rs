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
