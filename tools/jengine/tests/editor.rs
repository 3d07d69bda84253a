//! The editor's server, in-process on a copy of the fixture project: who may talk to it (the
//! token, the Host, the Origin), names from the page that try to leave their folders, bad
//! and oversized requests, edits checked by the scene loader, save, undo, and hot reload.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use jengine_tool::edit::{Background, EditOptions, Limits};
use serde_json::{Value, json};

/// A session on a copy of the fixture, and the folder (dropped after the session stops).
struct Editor {
    port: u16,
    token: String,
    _session: Background,
    dir: tempfile::TempDir,
}

fn start() -> Editor {
    start_with(|_| {})
}

fn packages() -> Vec<&'static dyn jengine::Package> {
    vec![&jengine_counter::CounterPackage]
}

/// The editor on a copy of the fixture that `prepare` has changed first.
fn start_with(prepare: impl FnOnce(&Path)) -> Editor {
    start_limited(Limits::default(), prepare)
}

/// The editor with its server's deadlines and places as given.
fn start_limited(limits: Limits, prepare: impl FnOnce(&Path)) -> Editor {
    let dir = common::copy_fixture();
    prepare(dir.path());
    let editor = start_editing(limits, dir);
    // These tests drive a running game: Play, as the page's button does.
    assert_eq!(
        editor
            .post("/api/control", json!({ "action": "play" }))
            .status,
        200
    );
    editor
}

/// The editor as it opens: in edit mode, paused, on the project in `dir`.
fn start_editing(limits: Limits, dir: tempfile::TempDir) -> Editor {
    let session = Background::start_with(EditOptions::new(dir.path()), limits, packages)
        .unwrap_or_else(|p| panic!("the editor starts: {p:#?}"));
    Editor {
        port: session.port,
        token: session.token.clone(),
        _session: session,
        dir,
    }
}

struct Answer {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "{e}: {} {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One raw request: every header as given, so tests can leave out or forge any of them.
fn raw(port: u16, request: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let _ = stream.write_all(request);
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    let split = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a response head");
    let head = String::from_utf8_lossy(&out[..split]).into_owned();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    Answer {
        status,
        head,
        body: out[split + 4..].to_vec(),
    }
}

impl Editor {
    fn project(&self) -> &Path {
        self.dir.path()
    }

    fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
        let mut text = format!("{method} {path} HTTP/1.1\r\n");
        for (k, v) in headers {
            text.push_str(&format!("{k}: {v}\r\n"));
        }
        text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        raw(self.port, text.as_bytes())
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    fn get(&self, path: &str) -> Answer {
        let host = self.host();
        self.request(
            "GET",
            path,
            &[("Host", &host), ("X-Jengine-Token", &self.token)],
            "",
        )
    }

    fn post(&self, path: &str, body: Value) -> Answer {
        let host = self.host();
        let origin = format!("http://{host}");
        self.request(
            "POST",
            path,
            &[
                ("Host", &host),
                ("Origin", &origin),
                ("X-Jengine-Token", &self.token),
            ],
            &body.to_string(),
        )
    }

    fn state(&self) -> Value {
        self.get("/api/state").json()
    }

    fn wait(&self, what: &str, mut test: impl FnMut(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            let state = self.state();
            if test(&state) {
                return state;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waited for {what}: {state:#}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn log_has(&self, text: &str) -> bool {
        self.state()["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["text"].as_str().unwrap().contains(text))
    }

    fn scene_file(&self) -> PathBuf {
        self.project().join("assets/scenes/main.scene")
    }
}

#[test]
fn only_this_page_with_the_token_is_answered() {
    let ed = start();
    let host = ed.host();
    let origin = format!("http://{host}");
    // The page itself and the API, with the token in the address or a header.
    let page = ed.request(
        "GET",
        &format!("/?token={}", ed.token),
        &[("Host", &host)],
        "",
    );
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<canvas id=\"viewport\""));
    assert!(page.head.contains("Content-Security-Policy"));
    assert_eq!(ed.get("/api/state").status, 200);
    // No token, a wrong one, one a character short.
    let no_token = ed.request("GET", "/", &[("Host", &host)], "");
    assert_eq!(no_token.status, 403);
    assert!(no_token.text().contains("no token"), "{}", no_token.text());
    let short = &ed.token[..ed.token.len() - 1];
    for token in ["wrong", short] {
        let a = ed.request(
            "GET",
            "/api/state",
            &[("Host", &host), ("X-Jengine-Token", token)],
            "",
        );
        assert_eq!(a.status, 403, "{token}");
    }
    // Another page in the browser, and a name that resolves here (DNS rebinding).
    let cross = ed.request(
        "POST",
        "/api/control",
        &[
            ("Host", &host),
            ("Origin", "http://evil.example"),
            ("X-Jengine-Token", &ed.token),
        ],
        r#"{"action":"pause"}"#,
    );
    assert_eq!(cross.status, 403);
    assert!(cross.text().contains("evil.example"));
    let rebound = ed.request(
        "GET",
        "/api/state",
        &[
            ("Host", &format!("evil.example:{}", ed.port)),
            ("X-Jengine-Token", &ed.token),
        ],
        "",
    );
    assert_eq!(rebound.status, 403);
    let no_host = ed.request("GET", "/api/state", &[("X-Jengine-Token", &ed.token)], "");
    assert_eq!(no_host.status, 400);
    // The refused pause changed nothing; the same request from the page itself is answered.
    assert_eq!(ed.state()["playing"], true);
    let same = ed.request(
        "POST",
        "/api/control",
        &[
            ("Host", &host),
            ("Origin", &origin),
            ("X-Jengine-Token", &ed.token),
        ],
        r#"{"action":"pause"}"#,
    );
    assert_eq!(same.status, 200);
    assert_eq!(ed.state()["playing"], false);
}

/// Component `key` of scene entity `index`, as the game has it now.
fn live(ed: &Editor, index: usize, key: &str) -> Value {
    let entity = ed.get(&format!("/api/entity?index={index}")).json();
    entity["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["key"] == key)
        .unwrap_or_else(|| panic!("entity {index} has no {key}: {entity:#}"))["live"]
        .clone()
}

#[test]
fn edit_mode_keeps_what_scripts_set_and_play_starts_from_the_file() {
    let ed = start_editing(Limits::default(), common::copy_fixture());
    // The scene opens paused in edit mode, its first frame run: the script's start counted
    // 1 + 2 and its update wrote the label (before the counts were applied).
    let state = ed.wait("the first frame", |s| s["frame"] == 1);
    assert_eq!(state["mode"], "edit");
    assert_eq!(state["playing"], false);
    assert_eq!(live(&ed, 1, "counter")["count"], 3);
    assert_eq!(live(&ed, 2, "text")["text"], "count 0 after 1");

    // An edit changes only the field it edits: the count the script made and the text it
    // wrote stay (replacing the components would give the file's 0 and "").
    let step = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "counter", "path": ["step"], "value": 5 }),
    );
    assert_eq!(step.status, 200, "{}", step.text());
    let counter = live(&ed, 1, "counter");
    assert_eq!(
        (counter["count"].clone(), counter["step"].clone()),
        (json!(3), json!(5))
    );
    let colour = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 2, "key": "text", "path": ["color"], "value": [1, 0, 0, 1] }),
    );
    assert_eq!(colour.status, 200, "{}", colour.text());
    let text = live(&ed, 2, "text");
    assert_eq!(text["text"], "count 0 after 1");
    assert_eq!(text["color"], json!([1.0, 0.0, 0.0, 1.0]));
    // The whole component given as JSON: what it changes is written, the rest kept.
    let whole = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 2, "key": "text", "path": [], "value": { "text": "", "size": 1.5, "color": [1, 0, 0, 1] } }),
    );
    assert_eq!(whole.status, 200, "{}", whole.text());
    let text = live(&ed, 2, "text");
    assert_eq!(
        (text["text"].clone(), text["size"].clone()),
        (json!("count 0 after 1"), json!(1.5))
    );
    // Undo too changes only what the step changed.
    assert_eq!(ed.post("/api/undo", json!({})).status, 200);
    let text = live(&ed, 2, "text");
    assert_eq!(text["text"], "count 0 after 1");
    assert!(
        (text["size"].as_f64().unwrap() - 0.8).abs() < 1e-6,
        "{text}"
    );
    // Input does not reach a game in edit mode.
    let press = ed.post(
        "/api/input",
        json!({ "events": [{ "type": "key", "key": "r", "down": true }] }),
    );
    assert_eq!(press.status, 200);
    assert_eq!(ed.state()["frame"], 1, "edit mode holds still");

    // Play starts the scene from the edited copy: the script starts again and counts with
    // the edited step.
    let play = ed.post("/api/control", json!({ "action": "play" })).json();
    assert_eq!(
        (play["mode"].clone(), play["playing"].clone()),
        (json!("play"), json!(true))
    );
    ed.wait("frames played", |s| s["frame"].as_u64().unwrap() >= 3);
    let counter = live(&ed, 1, "counter");
    assert_eq!(counter["step"], 5);
    assert!(counter["count"].as_i64().unwrap() >= 3 + 5 * 2, "{counter}");
    // Paused while playing, an edit still keeps what the game did.
    ed.post("/api/control", json!({ "action": "pause" }));
    let count = live(&ed, 1, "counter")["count"].clone();
    ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "counter", "path": ["step"], "value": 1 }),
    );
    assert_eq!(live(&ed, 1, "counter")["count"], count);
    // Stop: back to edit mode, the scene from the edited copy with its first frame run.
    let stop = ed.post("/api/control", json!({ "action": "stop" })).json();
    assert_eq!(stop["mode"], "edit");
    // Its first frame: started again (3) and ticked once with the edited step (1).
    ed.wait("the first frame again", |s| {
        s["mode"] == "edit" && live(&ed, 1, "counter")["count"] == 3 + 1
    });
    assert_eq!(live(&ed, 1, "counter")["ticks"], 1);
    assert_eq!(ed.state()["dirty"], true, "nothing was saved");
}

#[test]
fn a_scene_that_moves_on_at_once_stays_put_in_edit_mode() {
    let ed = start_editing(Limits::default(), common::copy_fixture());
    ed.wait("the first frame", |s| s["frame"] == 1);
    // From 100 the script loads another scene in its first update.
    let edit = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "counter", "path": ["count"], "value": 100 }),
    );
    assert_eq!(edit.status, 200, "{}", edit.text());
    let restart = ed
        .post("/api/control", json!({ "action": "restart" }))
        .json();
    assert_eq!(restart["mode"], "edit");
    ed.wait("the held scene change", |_| {
        ed.log_has("Scene.load(\"legacy\") is held")
    });
    assert_eq!(ed.state()["scene"], "main");
    // Playing, it goes.
    ed.post("/api/control", json!({ "action": "play" }));
    ed.wait("the scene the script loads", |s| s["scene"] == "legacy");
}

#[test]
fn names_that_leave_their_folders_are_refused() {
    let ed = start();
    for scene in [
        "../../../etc/passwd",
        "/etc/passwd",
        "a\\..\\b",
        "C:x",
        "..",
        "",
    ] {
        let a = ed.post("/api/control", json!({ "action": "load", "scene": scene }));
        assert_eq!(a.status, 422, "{scene:?}: {}", a.text());
        assert!(a.json()["error"].as_str().unwrap().starts_with("scene"));
    }
    assert_eq!(ed.state()["scene"], "main");
    for name in [
        "../../project.jengine",
        "%2e%2e/%2e%2e/project.jengine",
        "/etc/passwd",
        "a/../../x.png",
    ] {
        let a = ed.get(&format!("/api/texture?name={name}"));
        assert_eq!(a.status, 400, "{name}: {}", a.text());
    }
    // A texture name that stays inside is looked for there (the fixture has none).
    assert_eq!(ed.get("/api/texture?name=nothing.png").status, 404);
    for path in [
        "/docs/..%2F..%2FREADME",
        "/docs/../../README.md",
        "/docs/jengine-counter%2F..%2F..%2F..%2FREADME",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
    ] {
        let a = ed.get(path);
        assert_eq!(a.status, 404, "{path}: {}", a.text());
    }
    // Only listed packages have pages.
    assert_eq!(ed.get("/docs/jengine-kotoba").status, 404);
    assert!(ed.get("/api/entity?index=99").status == 404);
}

/// A package outside the workspace's docs has its page from the project's own docs folder,
/// which `jengine docs PROJECT` writes; before there is one, the 404 says that command.
#[test]
fn a_listed_packages_page_is_served_from_the_projects_docs() {
    let ed = start();
    let missing = ed.get("/docs/jengine-counter");
    assert_eq!(missing.status, 404);
    let said = missing.text();
    assert!(
        said.contains(&format!("`jengine docs {}`", ed.dir.path().display())),
        "{said}"
    );
    let packages = ed.get("/api/registry").json();
    let counter = |p: &serde_json::Value| {
        p["packages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == "jengine-counter")
            .unwrap()["docs"]
            .clone()
    };
    assert_eq!(counter(&packages), serde_json::Value::Null);
    let docs = ed.dir.path().join("docs/packages");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::write(
        docs.join("jengine-counter.md"),
        "# jengine-counter\n\nA counter.\n",
    )
    .unwrap();
    let page = ed.get("/docs/jengine-counter");
    assert_eq!(page.status, 200, "{}", page.text());
    assert!(page.text().contains("A counter."), "{}", page.text());
    assert_eq!(
        counter(&ed.get("/api/registry").json()),
        "/docs/jengine-counter"
    );
}

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let ed = start();
    // Paused first, so the entity's live values stand still while the test compares them.
    ed.post("/api/control", json!({ "action": "pause" }));
    let before = ed.get("/api/entity?index=1").json();
    for body in ["not json", "{}", r#"{"op":"explode"}"#, r#"{"op":"set"}"#] {
        let host = ed.host();
        let a = ed.request(
            "POST",
            "/api/edit",
            &[("Host", &host), ("X-Jengine-Token", &ed.token)],
            body,
        );
        assert_eq!(a.status, 400, "{body}: {}", a.text());
    }
    // A body over the limit is refused before it is read.
    let host = ed.host();
    let huge = format!(
        "POST /api/edit HTTP/1.1\r\nHost: {host}\r\nX-Jengine-Token: {}\r\nContent-Length: 999999999\r\n\r\n",
        ed.token
    );
    assert_eq!(raw(ed.port, huge.as_bytes()).status, 413);
    // A head that never ends, and garbage.
    let endless = format!(
        "GET /api/state HTTP/1.1\r\nHost: {host}\r\nX: {}",
        "a".repeat(40_000)
    );
    assert_eq!(raw(ed.port, endless.as_bytes()).status, 431);
    assert_eq!(raw(ed.port, b"\x00\x01\x02 garbage\r\n\r\n").status, 400);
    // A flood of input while paused stops at the queue's limit.
    ed.post("/api/control", json!({ "action": "pause" }));
    let events: Vec<Value> = (0..6000)
        .map(|_| json!({ "type": "key", "key": "a", "down": true }))
        .collect();
    assert_eq!(
        ed.post("/api/input", json!({ "events": events.clone() }))
            .status,
        200
    );
    assert_eq!(
        ed.post("/api/input", json!({ "events": events })).status,
        429
    );
    let huge_text = "x".repeat(jengine::MAX_TEXT_INPUT + 1);
    assert_eq!(
        ed.post(
            "/api/input",
            json!({ "events": [{ "type": "text", "text": huge_text }] })
        )
        .status,
        400
    );
    assert_eq!(ed.get("/api/entity?index=1").json(), before);
    assert_eq!(ed.state()["dirty"], false);
    assert_eq!(ed.post("/api/undo", json!({})).status, 409);
    assert_eq!(ed.get("/api/nothing").status, 405);
    assert_eq!(ed.get("/nothing").status, 404);
}

#[test]
fn edits_are_checked_shown_saved_and_undone() {
    let ed = start();
    let original = std::fs::read_to_string(ed.scene_file()).unwrap();
    // A bad value: the loader's own error, naming the entity and key; nothing changes.
    let bad = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "sprite", "path": ["tint"], "value": "nope" }),
    );
    assert_eq!(bad.status, 422);
    let errors = bad.json()["errors"].clone();
    assert_eq!(errors[0]["entity"], 1);
    assert_eq!(errors[0]["key"], "sprite");
    assert!(
        errors[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("assets/scenes/main.scene: entity 1 (\"box\"), key \"sprite\": "),
        "{errors}"
    );
    let bad_texture = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "sprite", "path": ["texture"], "value": "../x.png" }),
    );
    assert!(bad_texture.text().contains("leaves its folder"));
    let unknown = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "no_such", "path": [], "value": {} }),
    );
    assert!(
        unknown
            .text()
            .contains("no listed package registers this key")
    );
    assert_eq!(ed.state()["dirty"], false);
    assert_eq!(ed.state()["can_undo"], false);

    // A good one shows in the running game at once, in place (the counter keeps counting).
    let counted = |ed: &Editor| {
        ed.get("/api/entity?index=1").json()["components"][3]["live"]["ticks"]
            .as_u64()
            .unwrap()
    };
    let ticks = counted(&ed);
    let good = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "sprite", "path": ["tint"], "value": "#2080ff" }),
    );
    assert_eq!(good.status, 200, "{}", good.text());
    let entity = ed.get("/api/entity?index=1").json();
    let sprite = &entity["components"][2];
    assert_eq!(sprite["key"], "sprite");
    assert_eq!(
        sprite["value"],
        json!({ "size": [2, 2], "tint": "#2080ff" })
    );
    let live_tint = sprite["live"]["tint"].as_array().unwrap();
    assert!(
        (live_tint[2].as_f64().unwrap() - 1.0).abs() < 1e-6,
        "{sprite}"
    );
    assert!(counted(&ed) >= ticks, "the scene was not started over");
    assert_eq!(ed.state()["dirty"], true);
    // Not on disk until saved.
    assert_eq!(std::fs::read_to_string(ed.scene_file()).unwrap(), original);

    // Structural edits: add, duplicate, rename, delete.
    let added = ed.post("/api/edit", json!({ "op": "add_entity" })).json();
    assert_eq!(added["focus"], 3);
    let dup = ed
        .post("/api/edit", json!({ "op": "duplicate", "entity": 1 }))
        .json();
    assert_eq!(dup["focus"], 2);
    let tree = ed.get("/api/scene").json();
    let names: Vec<&str> = tree["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["camera", "box", "box 2", "label", "entity"]);
    assert_eq!(
        ed.post(
            "/api/edit",
            json!({ "op": "rename", "entity": 2, "name": "label" })
        )
        .status,
        422,
        "two entities may not share a name"
    );
    ed.post(
        "/api/edit",
        json!({ "op": "rename", "entity": 2, "name": "twin" }),
    );
    ed.post("/api/edit", json!({ "op": "delete", "entity": 4 }));
    assert_eq!(ed.state()["entities"], 4);

    // Save: the edited lines change, the rest stays as written.
    assert_eq!(ed.post("/api/save", json!({})).status, 200);
    let saved = std::fs::read_to_string(ed.scene_file()).unwrap();
    let lines: Vec<&str> = saved.lines().collect();
    let old: Vec<&str> = original.lines().collect();
    assert_eq!(lines[..4], old[..4]);
    assert_eq!(
        lines[4],
        r##"    { "name": "box", "transform": { "pos": [0, 1] }, "sprite": { "size": [2, 2], "tint": "#2080ff" }, "counter": { "count": 0, "step": 0 }, "script": "counter.lua" },"##
    );
    assert!(lines[5].contains("\"name\": \"twin\""));
    assert_eq!(lines[6], old[5]);
    assert_eq!(ed.state()["dirty"], false);
    let leftovers: Vec<_> = std::fs::read_dir(ed.project().join("assets/scenes"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".scene"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // Undo walks back through every edit; redo forward again.
    for _ in 0..5 {
        assert_eq!(ed.post("/api/undo", json!({})).status, 200);
    }
    assert_eq!(
        ed.get("/api/entity?index=1").json()["components"][2]["value"]["tint"],
        "#e0a030"
    );
    assert_eq!(ed.state()["dirty"], true);
    ed.post("/api/redo", json!({}));
    assert_eq!(
        ed.get("/api/entity?index=1").json()["components"][2]["value"]["tint"],
        "#2080ff"
    );
}

#[test]
fn files_changed_on_disk_reload_in_the_running_game() {
    let ed = start();
    ed.wait("the first goal's log line", |s| {
        s["log"].as_array().unwrap().iter().any(|l| {
            l["text"]
                .as_str()
                .unwrap()
                .contains("counter.lua:12: first goal")
        })
    });
    let revision = ed.state()["revision"].as_u64().unwrap();
    // The scene file edited elsewhere: read again, and the game shows it.
    let scene = std::fs::read_to_string(ed.scene_file()).unwrap();
    std::fs::write(
        ed.scene_file(),
        scene.replace("\"pos\": [0, -2]", "\"pos\": [0, -3]"),
    )
    .unwrap();
    ed.wait("the scene read again", |s| {
        s["revision"].as_u64().unwrap() > revision
    });
    let label = ed.get("/api/entity?index=2").json();
    assert_eq!(label["components"][1]["value"]["pos"], json!([0, -3]));
    assert_eq!(label["components"][1]["live"]["pos"], json!([0.0, -3.0]));
    assert_eq!(ed.state()["dirty"], false);

    // The scene broken on disk: the loader's words in the log, and the game keeps the scene
    // it had (the editor shows the file as it is, to mend it).
    let good_scene = std::fs::read_to_string(ed.scene_file()).unwrap();
    std::fs::write(
        ed.scene_file(),
        good_scene.replace("\"size\": 0.8", "\"size\": \"big\""),
    )
    .unwrap();
    ed.wait("the broken scene's error", |s| {
        s["log"].as_array().unwrap().iter().any(|l| {
            l["level"] == "error"
                && l["text"]
                    .as_str()
                    .unwrap()
                    .contains("entity 2 (\"label\"), key \"text\"")
        })
    });
    assert_eq!(ed.state()["entities"], 3);
    let live = ed.get("/api/entity?index=2").json();
    assert_eq!(live["components"][2]["value"]["size"], "big");
    std::fs::write(ed.scene_file(), &good_scene).unwrap();
    ed.wait("the mended scene", |s| {
        s["log"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| {
                l["text"]
                    .as_str()
                    .unwrap()
                    .contains("changed on disk; read again")
            })
            .count()
            >= 3
    });

    // A script broken on disk: its error, with file and line, in the log; the game goes on.
    let script = ed.project().join("assets/scripts/counter.lua");
    let good = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{good}\nfunction broken(\n")).unwrap();
    ed.wait("the script's error", |s| {
        s["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["level"] == "error" && l["text"].as_str().unwrap().contains("counter.lua:"))
    });
    // Fixed again: it runs again.
    std::fs::write(&script, good.replace("first goal", "goal one")).unwrap();
    ed.wait("the script running again", |_| ed.log_has("goal one"));

    // A table broken on disk is said, and the old tables stay.
    let table = ed.project().join("data/counter_goals.json");
    std::fs::write(&table, "[{").unwrap();
    ed.wait("the table's problem", |s| {
        s["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["level"] == "error" && l["text"].as_str().unwrap().contains("counter_goals"))
    });

    // Unsaved edits win over a change on disk, and say so.
    ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "transform", "path": ["z"], "value": 2 }),
    );
    let scene = std::fs::read_to_string(ed.scene_file()).unwrap();
    std::fs::write(ed.scene_file(), scene.replace("#203040", "#000000")).unwrap();
    let state = ed.wait("the conflict", |s| !s["conflict"].is_null());
    assert!(
        state["conflict"]
            .as_str()
            .unwrap()
            .contains("unsaved edits")
    );
    assert_eq!(state["dirty"], true);
    // Revert takes the file's.
    assert_eq!(ed.post("/api/revert", json!({})).status, 200);
    let camera = ed.get("/api/entity?index=0").json();
    assert_eq!(camera["components"][1]["value"]["clear"], "#000000");
    assert_eq!(ed.state()["dirty"], false);
}

#[test]
fn the_game_is_played_stepped_and_switched_from_the_page() {
    let ed = start();
    ed.post("/api/control", json!({ "action": "pause" }));
    let frame = ed.state()["frame"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(ed.state()["frame"].as_u64().unwrap(), frame);
    ed.post("/api/control", json!({ "action": "step" }));
    ed.wait("one step", |s| s["frame"].as_u64().unwrap() == frame + 1);
    // A frame is served as a PNG of the project's window size.
    let png = ed.get("/api/frame");
    assert_eq!(png.status, 200);
    assert_eq!(&png.body[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.head.contains("X-Frame-Version"));
    // The selected entity's box on screen: the box is 2x2 units at (0, 1), 40 px a unit.
    let sel = ed.post("/api/select", json!({ "index": 1 })).json();
    assert_eq!(sel["selection_box"], json!([280, 100, 360, 180]));
    // Picking in the view: what is drawn on top there, or nothing.
    let picked = ed.post("/api/pick", json!({ "x": 320, "y": 140 })).json();
    assert_eq!(picked["selection"], json!({ "index": 1 }));
    assert_eq!(picked["selection_box"], json!([280, 100, 360, 180]));
    let nothing = ed.post("/api/pick", json!({ "x": 5, "y": 5 })).json();
    assert!(nothing["selection"].is_null());
    let outside = ed.post("/api/pick", json!({ "x": -5, "y": 1e9 })).json();
    assert!(outside["selection"].is_null());
    // A click on the view reaches the script at its world position (x 4 here: it adds 4), a
    // key and typed text reach it too, all on the next frame.
    let count = |ed: &Editor| {
        ed.get("/api/entity?index=1").json()["components"][3]["live"]["count"]
            .as_i64()
            .unwrap()
    };
    let before = count(&ed);
    ed.post(
        "/api/input",
        json!({ "events": [
            { "type": "pointer", "phase": "press", "x": 480, "y": 180 },
            { "type": "pointer", "phase": "release", "x": 480, "y": 180 },
            { "type": "text", "text": "hi" },
        ] }),
    );
    assert_eq!(count(&ed), before, "nothing happens while paused");
    ed.post("/api/control", json!({ "action": "step" }));
    ed.wait("the click's frame", |s| {
        s["frame"].as_u64().unwrap() == frame + 2
    });
    assert_eq!(count(&ed), before + 4);
    assert!(ed.log_has("typed hi"));
    ed.post(
        "/api/input",
        json!({ "events": [{ "type": "key", "key": "r", "down": true }] }),
    );
    ed.post("/api/control", json!({ "action": "step" }));
    ed.wait("the key's frame", |s| {
        s["frame"].as_u64().unwrap() == frame + 3
    });
    assert_eq!(count(&ed), 0);
    // Dragging the box 40 px right and 20 px up moves it 1 and 0.5 units, in place, live; the
    // whole drag is one undo step.
    for (to, done) in [
        ([330.0, 135.0], false),
        ([350.0, 125.0], false),
        ([360.0, 120.0], true),
    ] {
        let moved = ed.post(
            "/api/drag",
            json!({ "entity": 1, "from": [320, 140], "to": to, "done": done }),
        );
        assert_eq!(moved.status, 200, "{}", moved.text());
    }
    let boxed = ed.get("/api/entity?index=1").json();
    assert_eq!(boxed["components"][1]["value"]["pos"], json!([1, 1.5]));
    assert_eq!(boxed["components"][1]["live"]["pos"], json!([1.0, 1.5]));
    assert_eq!(ed.post("/api/undo", json!({})).status, 200);
    assert_eq!(
        ed.get("/api/entity?index=1").json()["components"][1]["value"]["pos"],
        json!([0, 1])
    );
    assert_eq!(
        ed.post("/api/undo", json!({})).status,
        409,
        "one step for the drag"
    );
    assert_eq!(
        ed.post(
            "/api/drag",
            json!({ "entity": 9, "from": [0, 0], "to": [1, 1] })
        )
        .status,
        404
    );
    assert_eq!(
        ed.request(
            "POST",
            "/api/drag",
            &[("Host", &ed.host()), ("X-Jengine-Token", &ed.token)],
            r#"{"entity": 1, "from": [0, 0], "to": [1e39, 0]}"#,
        )
        .status,
        400,
        "a point that is no number"
    );
    // Another scene, with unsaved edits guarded.
    ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "transform", "path": ["z"], "value": 2 }),
    );
    let guarded = ed.post(
        "/api/control",
        json!({ "action": "load", "scene": "legacy" }),
    );
    assert_eq!(guarded.status, 409);
    let switched = ed.post(
        "/api/control",
        json!({ "action": "load", "scene": "legacy", "force": true }),
    );
    assert_eq!(switched.status, 200, "{}", switched.text());
    let state = ed.state();
    assert_eq!(
        (state["scene"].as_str(), state["doc_scene"].as_str()),
        (Some("legacy"), Some("legacy"))
    );
    assert_eq!(state["dirty"], false);
    // The packages panel: the listed package, its commands and components.
    let registry = ed.get("/api/registry").json();
    let counter = registry["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "jengine-counter")
        .unwrap()
        .clone();
    assert_eq!(counter["components"][0]["key"], "counter");
    assert!(
        counter["commands"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["name"] == "Counter.add")
    );
}

#[test]
fn a_scene_that_does_not_load_opens_to_be_mended() {
    let ed = start_with(|dir| {
        let file = dir.join("assets/scenes/main.scene");
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(
            &file,
            text.replace("\"tint\": \"#e0a030\"", "\"tint\": \"orange\""),
        )
        .unwrap();
    });
    let state = ed.state();
    assert_eq!(state["scene"], "main");
    assert_eq!(
        state["entities"], 0,
        "nothing runs while the scene does not load"
    );
    assert!(
        state["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["level"] == "error"
                && l["text"]
                    .as_str()
                    .unwrap()
                    .contains("entity 1 (\"box\"), key \"sprite\"")),
        "{state:#}"
    );
    // The scene's entities are there to edit; mending the bad field brings the game to life.
    assert_eq!(
        ed.get("/api/scene").json()["entities"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let mended = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "sprite", "path": ["tint"], "value": "#e0a030" }),
    );
    assert_eq!(mended.status, 200, "{}", mended.text());
    ed.wait("the game running", |s| {
        s["entities"] == 3 && s["frame"].as_u64().unwrap() > 1
    });
    assert_eq!(ed.post("/api/save", json!({})).status, 200);
    assert!(
        std::fs::read_to_string(ed.scene_file())
            .unwrap()
            .contains("#e0a030")
    );
}

#[test]
fn a_scene_file_that_is_not_json_is_never_overwritten() {
    let ed = start_with(|dir| {
        std::fs::write(
            dir.join("assets/scenes/main.scene"),
            "{ \"version\": 2, oops",
        )
        .unwrap();
    });
    let state = ed.state();
    assert!(
        state["conflict"]
            .as_str()
            .unwrap()
            .contains("not a valid scene"),
        "{state:#}"
    );
    // Nothing may write over the file while the editor only has a stand-in for it.
    for (path, body) in [
        ("/api/save", json!({})),
        ("/api/edit", json!({ "op": "add_entity" })),
        ("/api/undo", json!({})),
    ] {
        assert_eq!(ed.post(path, body).status, 409, "{path}");
    }
    assert_eq!(
        std::fs::read_to_string(ed.scene_file()).unwrap(),
        "{ \"version\": 2, oops"
    );
    // Mended on disk: read, and the game runs it.
    std::fs::copy(
        common::fixture().join("assets/scenes/main.scene"),
        ed.scene_file(),
    )
    .unwrap();
    let state = ed.wait("the mended scene running", |s| s["entities"] == 3);
    assert!(state["conflict"].is_null(), "{state:#}");
    assert_eq!(
        ed.get("/api/scene").json()["entities"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        ed.post("/api/edit", json!({ "op": "add_entity" })).status,
        200
    );
}

mod random_edits {
    use super::*;
    use proptest::prelude::*;

    fn op() -> impl Strategy<Value = Value> {
        let entity = 0usize..6;
        let key = prop_oneof![
            Just("sprite"),
            Just("transform"),
            Just("text"),
            Just("counter"),
            Just("name"),
            Just("script"),
            Just("bogus"),
        ];
        let field = prop_oneof![
            Just("tint"),
            Just("pos"),
            Just("size"),
            Just("text"),
            Just("count"),
            Just("texture"),
            Just("z"),
        ];
        let value = prop_oneof![
            Just(json!(1)),
            Just(json!(-2.5)),
            Just(json!("#ff00ff")),
            Just(json!("../../x.png")),
            Just(json!([1, 2])),
            Just(json!({})),
            Just(json!(null)),
            Just(json!("counter.lua")),
            Just(json!("box")),
        ];
        prop_oneof![
            (entity.clone(), key.clone(), field.clone(), value.clone()).prop_map(
                |(e, k, f, v)| json!({ "op": "set", "entity": e, "key": k, "path": [f], "value": v })
            ),
            (entity.clone(), key.clone(), value).prop_map(
                |(e, k, v)| json!({ "op": "set", "entity": e, "key": k, "path": [], "value": v })
            ),
            (entity.clone(), key, field).prop_map(
                |(e, k, f)| json!({ "op": "remove", "entity": e, "key": k, "path": [f] })
            ),
            (0usize..6).prop_map(|e| json!({ "op": "add_entity", "at": e })),
            entity.clone().prop_map(|e| json!({ "op": "duplicate", "entity": e })),
            entity.clone().prop_map(|e| json!({ "op": "delete", "entity": e })),
            entity.prop_map(|e| json!({ "op": "rename", "entity": e, "name": "box" })),
            Just(json!({ "op": "undo" })),
            Just(json!({ "op": "redo" })),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Whatever the page sends, in whatever order: a refused edit changes nothing, the
        /// scene always loads, the game always runs what the editor shows, and a save writes a
        /// file the loader takes.
        #[test]
        fn any_sequence_of_edits_keeps_a_scene_that_loads(ops in proptest::collection::vec(op(), 1..14)) {
            let ed = start();
            ed.post("/api/control", json!({ "action": "pause" }));
            let registry = jengine::Registry::with(&[&jengine_counter::CounterPackage]);
            for op in ops {
                let before = ed.get("/api/scene").json()["entities"].clone();
                let answer = match op["op"].as_str() {
                    Some("undo") => ed.post("/api/undo", json!({})),
                    Some("redo") => ed.post("/api/redo", json!({})),
                    _ => ed.post("/api/edit", op.clone()),
                };
                prop_assert!([200, 400, 409, 422].contains(&answer.status), "{op}: {}", answer.text());
                let after = ed.get("/api/scene").json()["entities"].clone();
                if answer.status != 200 {
                    prop_assert_eq!(&before, &after, "a refused {} changed the scene", op);
                }
                // The running game has exactly the scene's entities.
                let state = ed.state();
                prop_assert_eq!(state["entities"].as_u64().unwrap() as usize, after.as_array().unwrap().len());
            }
            prop_assert_eq!(ed.post("/api/save", json!({})).status, 200);
            let text = std::fs::read_to_string(ed.scene_file()).unwrap();
            let loaded = jengine::host::Scene::parse("assets/scenes/main.scene", &text, &registry);
            prop_assert!(loaded.is_ok(), "{:?}\n{}", loaded.err(), text);
        }
    }
}

#[test]
fn a_token_from_the_command_line_must_be_hard_to_guess() {
    let dir = common::copy_fixture();
    for token in ["", "short", "abc", &"z".repeat(32), &"a".repeat(200)] {
        let mut options = EditOptions::new(dir.path());
        options.token = Some(token.to_string());
        let problems = match Background::start(options, packages) {
            Ok(_) => panic!("{token:?} was taken"),
            Err(problems) => problems,
        };
        assert!(problems[0].contains("--token must be"), "{problems:?}");
    }
    let mut options = EditOptions::new(dir.path());
    options.token = Some("0123456789abcdef".into());
    let session = Background::start(options, packages).unwrap();
    assert_eq!(session.token, "0123456789abcdef");
    assert_eq!(session.get("/api/state").0, 200);
}

#[test]
fn unsaved_text_handed_over_a_restart_is_kept_or_refused_in_words() {
    let dir = common::copy_fixture();
    let scene = dir.path().join("assets/scenes/main.scene");
    let original = std::fs::read_to_string(&scene).unwrap();
    let handed = |text: &str| {
        let file = dir.path().join("unsaved.scene");
        std::fs::write(&file, text).unwrap();
        let mut options = EditOptions::new(dir.path());
        options.unsaved = Some(file.clone());
        let session = Background::start(options, packages).unwrap();
        assert!(!file.exists(), "the handed-over file is taken away");
        session
    };
    let said = |session: &Background, level: &str, text: &str| {
        session.get("/api/state").1["log"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["level"] == level && l["text"].as_str().unwrap().contains(text))
    };
    // Not a scene at all: said, and the file's scene is open.
    let garbage = handed("\u{0}\u{1} not json");
    assert!(said(
        &garbage,
        "error",
        "the unsaved edits could not be read"
    ));
    assert_eq!(garbage.get("/api/state").1["dirty"], false);
    drop(garbage);
    // A scene the game cannot load: kept in the editor to mend, the game on the saved one.
    let broken = handed(&original.replace("\"#e0a030\"", "\"orange\""));
    assert!(said(&broken, "error", "does not load them"));
    let state = broken.get("/api/state").1;
    assert_eq!(
        (state["dirty"].clone(), state["entities"].clone()),
        (json!(true), json!(3))
    );
    let (_, entity) = broken.get("/api/entity?index=1");
    assert_eq!(entity["components"][2]["value"]["tint"], "orange");
    drop(broken);
    // A good one: kept and shown.
    let good = handed(&original.replace("\"#e0a030\"", "\"#123456\""));
    assert!(said(&good, "info", "carried over the rebuild"));
    let (_, entity) = good.get("/api/entity?index=1");
    assert_eq!(
        entity["components"][2]["live"]["tint"][0],
        json!(0.07058823853731155)
    );
    assert_eq!(std::fs::read_to_string(&scene).unwrap(), original);
}

#[test]
fn the_probe_starts_the_project_as_the_editor_would_and_says_why_not() {
    let dir = common::copy_fixture();
    let project = dir.path().to_str().unwrap().to_string();
    let probe = |packages: &[&dyn jengine::Package]| {
        let args = [
            "jengine",
            "edit",
            &project,
            "--probe",
            "--mute",
            "--no-open",
        ];
        jengine_tool::cli::viewport_run(args, packages)
    };
    let ok = std::process::ExitCode::SUCCESS;
    assert_eq!(probe(&packages()), ok);
    // A build that does not link the listed package cannot start it.
    assert_ne!(probe(&[]), ok);
    // Nor can one meet tables it refuses (the running session keeps its old ones).
    let table = dir.path().join("data/counter_goals.json");
    std::fs::write(&table, "[{ \"id\": 3 }]").unwrap();
    assert_ne!(probe(&packages()), ok);
    std::fs::write(&table, "[{ \"id\": \"first\", \"target\": 10 }]").unwrap();
    // A scene that does not load is no reason: the editor opens it to be mended.
    let scene = dir.path().join("assets/scenes/main.scene");
    let text = std::fs::read_to_string(&scene).unwrap();
    std::fs::write(&scene, text.replace("\"#e0a030\"", "\"orange\"")).unwrap();
    assert_eq!(probe(&packages()), ok);
    // It served nothing and took no port: nothing to stop.
}

#[test]
fn a_scene_in_a_folder_is_listed_opened_edited_and_saved() {
    let ed = start_with(|dir| {
        let scenes = dir.join("assets/scenes");
        std::fs::create_dir_all(scenes.join("levels")).unwrap();
        std::fs::copy(
            scenes.join("main.scene"),
            scenes.join("levels/second.scene"),
        )
        .unwrap();
    });
    let tree = ed.get("/api/scene").json();
    assert_eq!(tree["scenes"], json!(["legacy", "levels/second", "main"]));
    let loaded = ed.post(
        "/api/control",
        json!({ "action": "load", "scene": "levels/second" }),
    );
    assert_eq!(loaded.status, 200, "{}", loaded.text());
    ed.wait("the scene in the folder", |s| {
        s["doc_scene"] == "levels/second" && s["scene"] == "levels/second"
    });
    let edited = ed.post(
        "/api/edit",
        json!({ "op": "set", "entity": 1, "key": "sprite", "path": ["tint"], "value": "#102030" }),
    );
    assert_eq!(edited.status, 200, "{}", edited.text());
    assert_eq!(ed.post("/api/save", json!({})).status, 200);
    let file = ed.project().join("assets/scenes/levels/second.scene");
    assert!(std::fs::read_to_string(file).unwrap().contains("#102030"));
    let main = std::fs::read_to_string(ed.scene_file()).unwrap();
    assert!(!main.contains("#102030"));
}

/// Connections that never finish their heads (the token never shown), a byte now and then:
/// they share a few places and each only until the head deadline, so the page's own requests
/// are answered throughout the flood.
#[test]
fn connections_without_the_token_cannot_keep_the_page_out() {
    // A deadline short enough that the flood lets go soon, long enough that a whole head
    // written at once is read well inside it on a busy machine.
    let ed = start_limited(
        Limits {
            head_deadline: Duration::from_millis(1500),
            ..Limits::default()
        },
        |_| {},
    );
    let host = ed.host();
    for round in 0..3 {
        let flood: Vec<TcpStream> = (0..70)
            .map(|_| {
                let mut s = TcpStream::connect(("127.0.0.1", ed.port)).unwrap();
                s.write_all(
                    format!("GET /api/state HTTP/1.1\r\nHost: {host}\r\nX-Slow: a").as_bytes(),
                )
                .unwrap();
                s
            })
            .collect();
        // Every place such connections may hold is taken; the page still gets in.
        let answer = ed.get("/api/state");
        assert_eq!(answer.status, 200, "round {round}: {}", answer.text());
        // And the server lets go of every one of them by itself (at the deadline, or to make
        // room): each read ends, with a 408 or with the connection closed.
        for mut s in flood {
            s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
            let mut out = Vec::new();
            let ended = s.read_to_end(&mut out);
            let text = String::from_utf8_lossy(&out);
            // Closed, or reset when closed with its bytes unread: let go either way. Only a
            // read still waiting after a minute would mean the place was held.
            let let_go = match &ended {
                Ok(_) => true,
                Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
            };
            assert!(let_go, "round {round}: {ended:?} {text}");
            assert!(out.is_empty() || text.starts_with("HTTP/1.1 408"), "{text}");
        }
    }
    // A request whose head stops half way is told why once its deadline is past.
    let mut half = TcpStream::connect(("127.0.0.1", ed.port)).unwrap();
    half.write_all(b"GET /api/state HTTP/1.1\r\n").unwrap();
    half.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut out = String::new();
    let _ = half.read_to_string(&mut out);
    assert!(out.starts_with("HTTP/1.1 408"), "{out}");
    assert!(out.contains("took longer than 1500 ms"), "{out}");
}

#[test]
fn a_request_naming_its_host_twice_is_refused() {
    let ed = start();
    let host = ed.host();
    for other in [host.as_str(), "evil.example"] {
        let a = ed.request(
            "GET",
            "/api/state",
            &[
                ("Host", &host),
                ("Host", other),
                ("X-Jengine-Token", &ed.token),
            ],
            "",
        );
        assert_eq!(a.status, 400, "{other}: {}", a.text());
        assert!(a.text().contains("more than once"), "{}", a.text());
    }
    // Two lengths for one body, two tokens: refused the same way.
    let two_lengths = format!(
        "POST /api/select HTTP/1.1\r\nHost: {host}\r\nX-Jengine-Token: {}\r\nContent-Length: 2\r\nContent-Length: 9\r\n\r\n{{}}",
        ed.token
    );
    assert_eq!(raw(ed.port, two_lengths.as_bytes()).status, 400);
    let two_tokens = ed.request(
        "GET",
        "/api/state",
        &[
            ("Host", &host),
            ("X-Jengine-Token", &ed.token),
            ("X-Jengine-Token", "other"),
        ],
        "",
    );
    assert_eq!(two_tokens.status, 400);
}

/// The names the page may give an entity: not blank, at most 200 characters, no control or
/// bidirectional characters. Each refusal says why and changes nothing, in the editor or on
/// disk.
#[test]
fn names_with_control_or_bidi_characters_or_too_long_are_refused() {
    let ed = start();
    let scene = ed.get("/api/scene").json()["entities"].clone();
    let file = std::fs::read_to_string(ed.scene_file()).unwrap();
    let long = "n".repeat(100 * 1024);
    let bad = [
        ("a\u{0}b", "control character"),
        ("two\nlines", "control character"),
        ("\u{1b}[31mred\u{1b}[0m", "control character"),
        ("del\u{7f}", "control character"),
        ("c1\u{85}", "control character"),
        ("evil\u{202e}txt.exe", "bidirectional control"),
        ("\u{2066}isolate", "bidirectional control"),
        ("mark\u{200f}", "bidirectional control"),
        ("arabic\u{61c}", "bidirectional control"),
        (
            long.as_str(),
            "102400 characters is too long: the most is 200",
        ),
        ("   ", "cannot be empty"),
    ];
    for (name, why) in bad {
        for edit in [
            json!({ "op": "rename", "entity": 1, "name": name }),
            json!({ "op": "set", "entity": 1, "key": "name", "path": [], "value": name }),
            json!({ "op": "add_entity", "value": { "name": name } }),
        ] {
            let a = ed.post("/api/edit", edit.clone());
            assert_eq!(a.status, 400, "{edit:.80}: {}", a.text());
            let said = a.json()["error"].as_str().unwrap().to_string();
            assert!(said.contains(why), "{said:.200}");
        }
    }
    // A name of 200 characters is fine; its copy would need 202 and is refused.
    let most = "m".repeat(200);
    let a = ed.post(
        "/api/edit",
        json!({ "op": "rename", "entity": 2, "name": most }),
    );
    assert_eq!(a.status, 200, "{}", a.text());
    let copy = ed.post("/api/edit", json!({ "op": "duplicate", "entity": 2 }));
    assert_eq!(copy.status, 400, "{}", copy.text());
    assert!(copy.text().contains("the most is 200"), "{}", copy.text());
    assert_eq!(ed.post("/api/undo", json!({})).status, 200);
    assert_eq!(ed.get("/api/scene").json()["entities"], scene);
    assert_eq!(ed.post("/api/save", json!({})).status, 200);
    assert_eq!(std::fs::read_to_string(ed.scene_file()).unwrap(), file);
}

/// Entity indices that do not exist and numbers out of range, in edits, the selection, drags
/// and pointer events: refused with why, and the scene and selection as they were.
#[test]
fn numbers_out_of_range_and_missing_indices_are_refused() {
    let ed = start();
    ed.post("/api/control", json!({ "action": "pause" }));
    assert_eq!(ed.post("/api/select", json!({ "index": 1 })).status, 200);
    let scene = ed.get("/api/scene").json()["entities"].clone();
    let huge = 1u64 << 63;
    let edits = [
        (
            json!({ "op": "set", "entity": 1, "key": "transform", "path": ["pos"], "value": [huge, 0] }),
            "transform.pos[0]",
        ),
        (
            json!({ "op": "set", "entity": 1, "key": "transform", "path": ["pos", 1], "value": -1e30 }),
            "transform.pos[1]",
        ),
        (
            json!({ "op": "set", "entity": 1, "key": "transform", "path": [], "value": { "pos": [0, 1], "z": 1e10 } }),
            "transform.z",
        ),
        (
            json!({ "op": "set", "entity": 1, "key": "counter", "path": ["count"], "value": huge }),
            "counter.count",
        ),
        (
            json!({ "op": "set", "entity": huge, "key": "sprite", "path": [], "value": {} }),
            "there is no entity 9223372036854775808",
        ),
        (
            json!({ "op": "delete", "entity": 3 }),
            "there is no entity 3 (the scene has 3)",
        ),
        (
            json!({ "op": "add_entity", "at": 1u64 << 40 }),
            "not 1099511627776",
        ),
        (
            json!({ "op": "add_entity", "value": { "name": "far", "transform": { "pos": [huge, 0] } } }),
            "transform.pos[0]",
        ),
    ];
    for (edit, why) in edits {
        let a = ed.post("/api/edit", edit.clone());
        assert_eq!(a.status, 400, "{edit}: {}", a.text());
        assert!(a.text().contains(why), "{edit}: {}", a.text());
    }
    for select in [json!({ "index": 1u64 << 40 }), json!({ "live": 4_000_000 })] {
        let a = ed.post("/api/select", select.clone());
        assert_eq!(a.status, 400, "{select}: {}", a.text());
        assert!(a.text().contains("there is no"), "{}", a.text());
    }
    assert_eq!(ed.state()["selection"], json!({ "index": 1 }));
    let far = ed.post(
        "/api/drag",
        json!({ "entity": 1, "from": [0, 0], "to": [1e30, 0], "done": true }),
    );
    assert_eq!(far.status, 400, "{}", far.text());
    let pointer = ed.post(
        "/api/input",
        json!({ "events": [{ "type": "pointer", "phase": "press", "x": 1e30, "y": 0 }] }),
    );
    assert_eq!(pointer.status, 400, "{}", pointer.text());
    assert_eq!(ed.get("/api/scene").json()["entities"], scene);
    assert_eq!(ed.state()["dirty"], false);
    assert_eq!(ed.state()["can_undo"], false);
}
