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

/// `jengine edit` stopped with SIGTERM leaves nothing behind: the viewport takes the tool's
/// place, so the signal reaches the process serving the page and the port closes.
#[cfg(unix)]
#[test]
fn sigterm_to_jengine_edit_stops_the_page_it_serves() {
    use std::io::BufRead;
    let fixture = common::fixture();
    let mut child = Command::new(env!("CARGO_BIN_EXE_jengine"))
        .args(["edit", "--dev"])
        .arg(&fixture)
        .args(["--no-open", "--mute"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let url = std::io::BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("jengine edit: ").map(str::to_string))
        .expect("jengine edit prints its address");
    let port: u16 = url
        .trim_start_matches("http://127.0.0.1:")
        .split(['/', '?', '#'])
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {url}"));
    assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let status = child.wait().unwrap();
    assert!(!status.success(), "ended by the signal: {status:?}");
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
        "nothing still serves {url}"
    );
}
