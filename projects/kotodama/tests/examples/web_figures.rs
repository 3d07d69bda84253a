//! The figures docs/web.md gives for Kotodama's web build, measured in headless Chromium on
//! loopback: the files' sizes raw and gzipped, the bytes fetched before the first frame, the
//! time to that frame, the battle's frame time (systems and render) at 1280x720 in the page,
//! and the module's memory. It asserts nothing about time (a busy machine is slower, not
//! wrong), so it is a tool run by hand rather than a test (the module is built optimised
//! whatever this program is built as):
//!
//! ```sh
//! cargo run -p kotodama-tests --example web_figures
//! ```

use std::process::Command;

use jengine_testkit::browser::Browser;
use jengine_testkit::web::{cannot_test, serve};
use kotodama_tests::{input_file, project};

fn gzipped(path: &std::path::Path) -> usize {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("gzip -9 -c '{}' | wc -c", path.display()))
        .output()
        .expect("gzip");
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

fn summary(label: &str, ms: &[f64]) {
    let mut v = ms.to_vec();
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    println!(
        "{label}: median {:.2} ms, p95 {:.2} ms, max {:.2} ms over {} frames",
        at(0.5),
        at(0.95),
        at(1.0),
        v.len()
    );
}

fn main() {
    if let Some(why) = cannot_test() {
        eprintln!("cannot measure here: {why}");
        std::process::exit(1);
    }
    let out = tempfile::tempdir().unwrap();
    let build = jengine_tool::web_build::web_build(&project(), Some(out.path()), false)
        .unwrap_or_else(|e| panic!("web-build: {}", e.join("\n")));
    for name in ["game.wasm", "game.bundle", "jengine.js", "index.html"] {
        let path = build.out.join(name);
        let raw = std::fs::metadata(&path).unwrap().len();
        println!("{name}: {raw} bytes, {} gzipped", gzipped(&path));
    }
    let address = serve(build.out.clone());
    let browser = Browser::start().unwrap();
    let second = std::time::Duration::from_secs(1);
    browser
        .goto(&format!("{address}/index.html?seed=3"))
        .unwrap();
    browser
        .wait_until(
            "window.jengine && jengine.firstFrameMs !== null",
            120 * second,
        )
        .unwrap();
    let first = browser
        .execute(
            "return [jengine.firstFrameMs, performance.getEntriesByType('resource')\
             .filter(e => e.responseEnd <= jengine.firstFrameMs)\
             .reduce((n, e) => n + e.encodedBodySize, 0) \
             + performance.getEntriesByType('navigation')[0].encodedBodySize]",
            vec![],
        )
        .unwrap();
    println!(
        "first frame {:.0} ms after navigation; {} bytes fetched before it",
        first[0].as_f64().unwrap(),
        first[1]
    );

    // The battle: the committed win, played up to 300 frames into the battle, then 600 frames
    // timed at 1280x720.
    let input = std::fs::read_to_string(input_file("flow_battle_win.json")).unwrap();
    browser
        .goto(&format!(
            "{address}/index.html?trace&paused&seed=3&scene=rivals"
        ))
        .unwrap();
    browser
        .wait_until(
            "window.jengine && jengine.state === 'running'",
            120 * second,
        )
        .unwrap();
    browser
        .execute("return jengine.replay(arguments[0])", vec![input.into()])
        .unwrap();
    let mut in_battle = 0;
    while in_battle < 300 {
        let lines = browser
            .execute(
                "jengine.advance(60); return jengine.trace.splice(0)",
                vec![],
            )
            .unwrap();
        let lines = lines.as_array().unwrap();
        assert!(!lines.is_empty(), "the page stopped before the battle");
        in_battle += lines
            .iter()
            .filter(|l| l.as_str().unwrap().contains(r#""scene":"battle""#))
            .count();
    }
    let timed = browser
        .execute(
            "jengine.trace = null; const t = jengine.timeFrames(600, 1280, 720); \
             return [t, jengine.memoryBytes()]",
            vec![],
        )
        .unwrap();
    let ms = |key: &str| -> Vec<f64> {
        timed[0][key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect()
    };
    let (step, render) = (ms("step"), ms("render"));
    summary("battle systems and scripts", &step);
    summary("battle render 1280x720", &render);
    let both: Vec<f64> = step.iter().zip(&render).map(|(a, b)| a + b).collect();
    summary("battle frame (both)", &both);
    println!("module memory {} bytes", timed[1]);
}
