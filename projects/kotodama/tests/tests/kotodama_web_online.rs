//! Kotodama's online lobby from a page: the real `kotodama-server` runs on a free 127.0.0.1
//! port, Kotodama's web build (`--dev`) is served and opened in headless Chromium, and the page
//! is played by keys as a player would: the server's address typed in the settings (where the
//! desktop game takes it from too), Online, a quick match. A native headless Kotodama takes the
//! other seat. The match runs through the server both ways: the room tells the native game of
//! the page's swap, and the page of the native one. When the page leaves, the native player is
//! told the win is theirs.
//!
//! Without Chromium or the wasm tools the test says so and passes; with
//! `JENGINE_REQUIRE_CHROMIUM=1` that is a failure.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use jengine_testkit::browser::{Browser, available, skip_or_fail};
use jengine_testkit::web::{serve, wasm_missing};
use jengine_testkit::{Game, Options};
use serde_json::Value;

const SECOND: Duration = Duration::from_secs(1);
/// WebDriver's names for the keys the page needs.
const DOWN: &str = "\u{E015}";
const ENTER: &str = "\u{E007}";
const BACKSPACE: &str = "\u{E003}";
const ESCAPE: &str = "\u{E00C}";

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `kotodama-server` built by cargo and running on a port the system chose; killed when the
/// test ends, however it ends.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start() -> Server {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let build = Command::new(cargo)
            .args([
                "build",
                "-q",
                "-p",
                "kotodama-server",
                "--bin",
                "kotodama-server",
            ])
            .args(["--message-format", "json"])
            .output()
            .unwrap();
        assert!(
            build.status.success(),
            "kotodama-server did not build:\n{}",
            String::from_utf8_lossy(&build.stderr)
        );
        let exe = String::from_utf8_lossy(&build.stdout)
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the server's executable");
        let mut child = Command::new(exe)
            .args(["--bind", "127.0.0.1", "--port", "0", "--metrics-port", "0"])
            // A long battle: a debug build's page on a busy machine plays slowly.
            .args([
                "--no-countdown",
                "--battle-seconds",
                "900",
                "--seed",
                "24",
                "--quiet",
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // "event=listening players=ws://127.0.0.1:PORT metrics=-"
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let url = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|line| {
                let at = line.find("players=ws://")?;
                let rest = &line[at + "players=".len()..];
                Some(format!("{}/", rest.split_whitespace().next()?))
            })
            .expect("the server says where it listens");
        // Whatever else it says goes on being read, so it never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The page as the test reads it: the latest frame's scene and bags, and every frame the server
/// sent it (a frame is in the bag only on the frame it arrived).
struct Page {
    browser: Browser,
    scene: String,
    bags: Value,
    frames: Vec<Value>,
    /// The seats whose swaps the page was told of.
    swapped: Vec<u64>,
    frame: u64,
}

impl Page {
    /// Takes the trace lines since the last look (so the page keeps none of them), and keeps
    /// of them only what the test reads: a Kotodama trace line is large, and the page is slow
    /// enough in a debug build without sending it all.
    fn look(&mut self) {
        let seen = self
            .browser
            .execute(
                "const lines = jengine.trace.splice(0).map(l => JSON.parse(l)); \
                 const last = lines[lines.length - 1]; \
                 const k = last && last.bags.table && last.bags.table.kotoba; \
                 const net = last && last.bags.net && last.bags.net.Online; \
                 return { state: jengine.state, error: jengine.lastError, \
                   frame: last ? last.frame : null, scene: last ? last.scene : null, \
                   net: net ? { status: net.status, url: net.url } : null, \
                   frames: lines.flatMap(l => (l.bags.net && l.bags.net.Online && l.bags.net.Online.frames) || []), \
                   swapped: lines.flatMap(l => ((l.bags.table && l.bags.table.kotoba && l.bags.table.kotoba.events) || []) \
                     .filter(e => e.kind === 'swapped').map(e => e.player)), \
                   kotoba: k ? { online: k.online, active: k.active, seat: k.seat, phase: k.phase, \
                     time_left: k.time_left, fighters: k.fighters } : null }",
                vec![],
            )
            .unwrap();
        assert_ne!(
            seen["state"], "failed",
            "the page failed: {}",
            seen["error"]
        );
        if seen["frame"].is_null() {
            return;
        }
        self.frame = seen["frame"].as_u64().unwrap_or(0);
        self.scene = seen["scene"].as_str().unwrap_or_default().to_string();
        self.frames
            .extend(seen["frames"].as_array().into_iter().flatten().cloned());
        self.swapped.extend(
            seen["swapped"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64),
        );
        self.bags = serde_json::json!({
            "net": { "Online": seen["net"] },
            "table": { "kotoba": seen["kotoba"] },
        });
    }

    /// The table's `kotoba` bag on the latest frame.
    fn kotoba(&self) -> &Value {
        &self.bags["table"]["kotoba"]
    }

    /// One key (or text) into the page, then two frames for it to land.
    fn key(&mut self, keys: &str) {
        self.browser.send_keys_to_active(keys).unwrap();
        self.look();
        let at = self.frame;
        self.until("two frames after a key", None, |p| p.frame >= at + 2);
    }

    /// Looks again until `done` holds, stepping the native game alongside.
    fn until(&mut self, what: &str, mut native: Option<&mut Game>, done: impl Fn(&Page) -> bool) {
        let start = Instant::now();
        loop {
            self.look();
            if done(self) {
                return;
            }
            assert!(
                start.elapsed() < 60 * SECOND,
                "waited for {what}: the page is on {:?} at frame {}, its connection {}, its table {}",
                self.scene,
                self.frame,
                self.bags["net"]["Online"],
                self.kotoba()
            );
            if let Some(game) = native.as_deref_mut() {
                game.step(&[]);
            }
            std::thread::sleep(Duration::from_millis(15));
        }
    }
}

/// Steps the native game until `done` holds, the page's frames going on meanwhile.
fn native_until(game: &mut Game, page: &mut Page, what: &str, done: impl Fn(&Game) -> bool) {
    let start = Instant::now();
    while !done(game) {
        assert!(
            start.elapsed() < 60 * SECOND,
            "waited for {what}: the native game says {:?}, its table {}; the page's table {}",
            game.text("lobby_status"),
            game.bag("table", "kotoba"),
            page.kotoba()
        );
        game.step(&[]);
        page.look();
        std::thread::sleep(Duration::from_millis(15));
    }
}

/// Swaps the first tile on the page (`on_page`) or in the native game, again every few seconds
/// until the other side is told of the swap by the room (a `swapped` event for that seat, or
/// the fighter stunned), stepping both.
fn swap_until(page: &mut Page, native: &mut Game, on_page: bool, seat: u64, what: &str) {
    let start = Instant::now();
    let mut native_saw = false;
    loop {
        if on_page {
            page.key("1");
            page.key("s");
        } else {
            native.key("1");
            native.key("s");
        }
        let tried = Instant::now();
        while tried.elapsed() < 3 * SECOND {
            native.step(&[]);
            let kotoba = native.bag("table", "kotoba");
            native_saw |= stunned(&kotoba, seat)
                || kotoba["events"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|e| e["kind"] == "swapped" && e["player"].as_u64() == Some(seat));
            page.look();
            let page_saw = page.swapped.contains(&seat) || stunned(page.kotoba(), seat);
            if (on_page && native_saw) || (!on_page && page_saw) {
                return;
            }
            std::thread::sleep(Duration::from_millis(15));
        }
        assert!(
            start.elapsed() < 60 * SECOND,
            "waited for {what}: the native table {}; the page's table {}",
            native.bag("table", "kotoba")["fighters"],
            page.kotoba()
        );
    }
}

fn stunned(kotoba: &Value, seat: u64) -> bool {
    kotoba["fighters"][seat as usize - 1]["stun"]
        .as_f64()
        .unwrap_or(0.0)
        > 0.0
}

#[test]
fn the_page_plays_an_online_match_against_kotodama_server() {
    if let Err(why) = available() {
        skip_or_fail(&format!("Kotodama's online page test: {why}"));
        return;
    }
    if let Some(missing) = wasm_missing() {
        skip_or_fail(&format!("Kotodama's online page test needs {missing}"));
        return;
    }
    let started = Instant::now();
    let server = Server::start();
    let out = tempfile::tempdir().unwrap();
    jengine_tool::web_build::web_build(&project(), Some(out.path()), true)
        .unwrap_or_else(|problems| panic!("web-build failed: {problems:#?}"));
    eprintln!(
        "the server and the web build are ready {:?} after the start",
        started.elapsed()
    );
    let address = serve(out.path().to_path_buf());
    let browser = Browser::start().unwrap();
    browser
        .goto(&format!("{address}/index.html?trace&seed=1"))
        .unwrap();
    browser
        .wait_until(
            "window.jengine && jengine.state === 'running' && jengine.frame() >= 20",
            120 * SECOND,
        )
        .unwrap_or_else(|e| {
            let state = browser.execute("return [jengine.state, jengine.lastError]", vec![]);
            panic!("{e}: {state:?}")
        });
    let mut page = Page {
        browser,
        scene: String::new(),
        bags: Value::Null,
        frames: Vec::new(),
        swapped: Vec::new(),
        frame: 0,
    };
    page.look();
    assert_eq!(page.scene, "title");

    // The server's address goes where the desktop game keeps it: Settings, the server line.
    // (Keys go in one batch a scene: the page hands each press to the game in order.)
    page.key(&format!("{}{ENTER}", DOWN.repeat(5)));
    page.until("the settings", None, |p| p.scene == "settings");
    page.key(&format!("{}{ENTER}", DOWN.repeat(3)));
    let old = "ws://127.0.0.1:7777/";
    page.key(&format!(
        "{}{}{ENTER}",
        BACKSPACE.repeat(old.len()),
        server.url
    ));
    page.key(ESCAPE);
    page.until("the title", None, |p| p.scene == "title");
    // Online, two down from Puzzle: the lobby connects to the address typed.
    page.key(&format!("{}{ENTER}", DOWN.repeat(2)));
    page.until("the lobby to connect", None, |p| {
        p.scene == "online" && p.bags["net"]["Online"]["status"] == "open"
    });
    assert_eq!(page.bags["net"]["Online"]["url"], server.url.as_str());
    // A quick match (the first choice has the focus): the room says to wait.
    page.key(ENTER);
    page.until("the room to say wait", None, |p| {
        p.frames.iter().any(|f| f.get("Waiting").is_some())
    });

    // A native player takes the other seat.
    let dir = tempfile::tempdir().unwrap();
    let save = serde_json::json!({ "server": server.url, "name": "native" });
    std::fs::write(dir.path().join("save.json"), save.to_string()).unwrap();
    let options = Options {
        scene: Some("online".into()),
        save_dir: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let mut native = Game::open(project(), &jengine_kotoba::packages(), options).settling(0);
    native_until(&mut native, &mut page, "the native lobby", |g| {
        g.text("lobby_status").starts_with("Connected")
    });
    native.key("enter");
    page.until("the match on the page", Some(&mut native), |p| {
        p.kotoba()["online"] == true && p.kotoba()["active"] == true
    });
    native_until(&mut native, &mut page, "the native match", |g| {
        g.bag("table", "kotoba")["active"] == true
    });
    let (on_page, at_home) = (page.kotoba().clone(), native.bag("table", "kotoba"));
    let (page_seat, native_seat) = (
        on_page["seat"].as_u64().unwrap(),
        at_home["seat"].as_u64().unwrap(),
    );
    assert_ne!(page_seat, native_seat, "two seats");
    let names = |k: &Value| -> Vec<String> {
        k["fighters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names(&on_page), names(&at_home), "one room, one match");
    assert!(names(&on_page).contains(&"native".to_string()));
    page.until("the fight", Some(&mut native), |p| {
        p.kotoba()["phase"] == "fight"
    });
    native_until(&mut native, &mut page, "the native fight", |g| {
        g.bag("table", "kotoba")["phase"] == "fight"
    });

    eprintln!(
        "the fight is on {:?} after the start, on the page's frame {}",
        started.elapsed(),
        page.frame
    );
    // The page swaps a tile: its fighter is stunned, in the native game through the room. The
    // room takes no move until its own fight has begun, a tick after it told the players, so a
    // swap it did not take is made again.
    swap_until(
        &mut page,
        &mut native,
        true,
        page_seat,
        "the native game to see the page swap",
    );
    // The native player swaps: the page is told.
    swap_until(
        &mut page,
        &mut native,
        false,
        native_seat,
        "the page to see the native swap",
    );
    // The clocks agree within a tick or two of the room's.
    let (on_page, at_home) = (
        page.kotoba()["time_left"].as_f64().unwrap(),
        native.bag("table", "kotoba")["time_left"].as_f64().unwrap(),
    );
    assert!((on_page - at_home).abs() < 1.0, "{on_page} vs {at_home}");

    // The page leaves the match (Esc): the native player is told it won.
    page.key(ESCAPE);
    page.until("the page back on the title", Some(&mut native), |p| {
        p.scene == "title"
    });
    native_until(&mut native, &mut page, "the native player to hear", |g| {
        g.text("lobby_status").contains("left the room")
    });
    assert!(native.warnings().is_empty(), "{:?}", native.warnings());
    let errors = page
        .browser
        .execute("return jengine.lastError", vec![])
        .unwrap();
    assert!(errors.is_null(), "the page said {errors}");
}
