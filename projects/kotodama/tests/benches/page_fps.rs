//! Kotodama's title playing in the editor's page, in headless Chromium, and what each part of a
//! frame's way takes: the figures docs/editor.md gives. A measurement of wall time, so it is a
//! bench, run by hand with the machine as quiet as it gets:
//! `cargo bench -p kotodama-tests --bench page_fps`. It samples ten seconds a second apart and
//! prints each figure's mean, least and most.

use jengine::Package;
use jengine_editor::{Background, EditOptions};

fn packages() -> Vec<&'static dyn Package> {
    kotodama_tests::packages().to_vec()
}

fn main() {
    // `cargo test --benches` runs a bench binary too; the measurement is only for `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let options = EditOptions::new(kotodama_tests::project());

    if let Err(why) = jengine_testkit::browser::available() {
        eprintln!("the frame rate in the page needs Chromium: {why}");
        std::process::exit(1);
    }
    let editor = Background::start(options, packages).unwrap_or_else(|p| panic!("{p:#?}"));
    let url = format!("http://127.0.0.1:{}/?token={}", editor.port, editor.token);
    let browser = jengine_testkit::browser::Browser::start().unwrap();
    browser.goto(&url).unwrap();
    let patience = std::time::Duration::from_secs(120);
    browser
        .wait_until(
            "document.getElementById('mode').textContent === 'edit mode'",
            patience,
        )
        .unwrap();
    browser.click("#play", patience).unwrap();
    browser.wait_until("S.view.fps > 0", patience).unwrap();
    // The demo battle under way behind the menu, then ten samples a second apart.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let mut rows = Vec::new();
    for _ in 0..10 {
        std::thread::sleep(std::time::Duration::from_secs(1));
        let (_, state) = editor.get("/api/state?since=999999999");
        let view = browser.execute("return S.view;", vec![]).unwrap();
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        let number = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
        rows.push([
            number(&state["fps"]),
            number(&view["fps"]),
            number(&state["frame_ms"]),
            number(&state["render_ms"]),
            number(&state["encode_ms"]),
            number(&view["fetch_ms"]),
            number(&view["decode_ms"]),
            number(&view["draw_ms"]),
            number(&view["kb"]),
            load.split(' ')
                .next()
                .and_then(|l| l.parse().ok())
                .unwrap_or(f64::NAN),
        ]);
    }
    let names = [
        "game fps",
        "view fps",
        "step ms",
        "draw ms",
        "png ms",
        "fetch ms",
        "decode ms",
        "canvas ms",
        "png KB",
        "load",
    ];
    for (i, name) in names.iter().enumerate() {
        let values: Vec<f64> = rows.iter().map(|r| r[i]).collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(*v), hi.max(*v))
            });
        println!("{name:>10}: mean {mean:8.2}  min {lo:8.2}  max {hi:8.2}");
    }
}
