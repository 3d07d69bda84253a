//! Builds the sandbox suite and Miau's pack-script suite for `wasm32-unknown-unknown` and runs
//! them under Node: every case must pass, and the module may import nothing but the page's two
//! clocks (QuickJS's too).
//!
//! Without Node, clang 19, wasi-libc or the wasm32 target the test says so and how to install
//! them, and passes; with `JENGINE_REQUIRE_WASM=1` (set by `.ci/run`) that is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

const INSTALL: &str = "apt-get install clang-19 lld-19 wasi-libc binaryen (Node 20 for `node`) \
     and rustup target add wasm32-unknown-unknown";

/// Reports a test that cannot run: a note on stderr, or a panic under `JENGINE_REQUIRE_WASM=1`.
fn skip_or_fail(why: &str) {
    if std::env::var("JENGINE_REQUIRE_WASM").as_deref() == Ok("1") {
        panic!(
            "{why}; install with: {INSTALL} (JENGINE_REQUIRE_WASM=1, so this cannot be skipped)"
        );
    }
    eprintln!("skipped: {why}; install with: {INSTALL}");
}

/// Whether `program --version` runs.
fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What is missing for the wasm build and its run, if anything.
fn missing() -> Vec<String> {
    let mut missing = Vec::new();
    if !runs("node") {
        missing.push("node".to_string());
    }
    let cc = std::env::var("JENGINE_WASM_CC").unwrap_or_else(|_| "clang-19".into());
    if !runs(&cc) {
        missing.push(cc);
    }
    let libc =
        std::env::var("JENGINE_WASI_LIBC").unwrap_or_else(|_| "/usr/lib/wasm32-wasi/libc.a".into());
    if !Path::new(&libc).is_file() {
        missing.push(format!("wasi-libc ({libc})"));
    }
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let target = sysroot.map(|s| s.join("lib/rustlib/wasm32-unknown-unknown/lib"));
    if !target.is_some_and(|t| t.is_dir()) {
        missing.push("the wasm32-unknown-unknown target".to_string());
    }
    missing
}

#[test]
fn the_sandbox_suite_passes_whole_in_the_wasm_build_under_node() {
    let missing = missing();
    if !missing.is_empty() {
        skip_or_fail(&format!(
            "the wasm sandbox suite needs {}",
            missing.join(", ")
        ));
        return;
    }
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = here.ancestors().nth(3).expect("the workspace folder");
    // A target folder of its own: the one running this test is locked while it runs.
    let target_dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("wasm-suite");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let build = Command::new(&cargo)
        .current_dir(root)
        .args([
            "build",
            "-p",
            "jengine-web-selftest",
            "--target",
            "wasm32-unknown-unknown",
            "--target-dir",
        ])
        .arg(&target_dir)
        .output()
        .expect("cargo runs");
    assert!(
        build.status.success(),
        "building the suite for wasm32 failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let module = target_dir.join("wasm32-unknown-unknown/debug/jengine_web_selftest.wasm");
    let run = Command::new("node")
        .arg(here.join("run.mjs"))
        .arg(&module)
        .output()
        .expect("node runs");
    let out = String::from_utf8_lossy(&run.stdout);
    let failed: Vec<&str> = out.lines().filter(|l| l.starts_with("FAILED")).collect();
    assert!(
        run.status.success() && failed.is_empty(),
        "the wasm suite failed:\n{}\n{}\n{}",
        failed.join("\n"),
        out.lines().last().unwrap_or_default(),
        String::from_utf8_lossy(&run.stderr)
    );
    let passed = out.lines().filter(|l| l.starts_with("ok ")).count();
    assert!(passed >= 49 + 28, "only {passed} cases ran:\n{out}");
    for miau in [
        "a_runaway_commonjs_loop_is_stopped",
        "a_commonjs_memory_bomb_is_stopped",
        "exported_data_over_the_cap_is_refused_before_parsing",
        "endless_javascript_recursion_is_an_error_not_a_crash",
        "a_pack_cannot_forge_a_refused_import",
        "any_other_require_is_named",
    ] {
        assert!(
            out.lines()
                .any(|l| l == format!("ok miau::source_tests::{miau}")),
            "Miau's {miau} ran in the wasm build:\n{out}"
        );
    }
    let imports = out
        .lines()
        .find_map(|l| l.strip_prefix("imports: "))
        .expect("the runner lists the imports");
    let mut imports: Vec<&str> = imports.split(", ").collect();
    imports.sort();
    assert_eq!(
        imports,
        ["clock.monotonic_ms", "clock.unix_ms"],
        "the module imports only the page's clocks"
    );
    eprintln!("{}", out.lines().last().unwrap_or_default());
}
