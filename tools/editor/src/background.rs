//! An editor session on a thread of its own, talked to over the loopback as the page talks to
//! it: what tests and tools use to drive the editor without a browser.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use jengine::Package;

use super::{EditOptions, Limits, run_with};

/// An editor session on a thread of its own, for tests and tools that talk to it as the page
/// does: started on a free loopback port, stopped when dropped.
pub struct Background {
    /// The port it serves.
    pub port: u16,
    /// Its token.
    pub token: String,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Background {
    /// Starts a session with the packages `packages()` gives (called on the session's thread).
    pub fn start(
        options: EditOptions,
        packages: fn() -> Vec<&'static dyn Package>,
    ) -> Result<Background, Vec<String>> {
        Background::start_with(options, Limits::default(), packages)
    }

    /// [`Background::start`] with the server's deadlines and places given.
    pub fn start_with(
        mut options: EditOptions,
        limits: Limits,
        packages: fn() -> Vec<&'static dyn Package>,
    ) -> Result<Background, Vec<String>> {
        options.port = 0;
        options.open = false;
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::channel();
        let stopper = stop.clone();
        let thread = std::thread::spawn(move || {
            let linked = packages();
            let failed = tx.clone();
            let mut ready = |url: &str| {
                let _ = tx.send(Ok(url.to_string()));
            };
            if let Err(problems) = run_with(options, limits, &linked, stopper, &mut ready) {
                let _ = failed.send(Err(problems));
            }
        });
        let url = rx
            .recv_timeout(Duration::from_secs(60))
            .map_err(|e| vec![format!("the editor did not start: {e}")])??;
        let rest = url.trim_start_matches("http://127.0.0.1:");
        let (port, token) = rest
            .split_once("/?token=")
            .ok_or_else(|| vec![format!("an address without a token: {url}")])?;
        Ok(Background {
            port: port
                .parse()
                .map_err(|_| vec![format!("a bad port in {url}")])?,
            token: token.to_string(),
            stop,
            thread: Some(thread),
        })
    }

    /// One request as the page makes it: the status and the body.
    pub fn request(&self, method: &str, path: &str, body: &str) -> Result<(u16, Vec<u8>), String> {
        use std::io::{Read, Write};
        let mut stream =
            std::net::TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .map_err(|e| e.to_string())?;
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nX-Jengine-Token: {token}\r\nContent-Type: application/json\r\nContent-Length: {len}\r\n\r\n",
            port = self.port,
            token = self.token,
            len = body.len()
        );
        stream
            .write_all(head.as_bytes())
            .and_then(|_| stream.write_all(body.as_bytes()))
            .map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        stream.read_to_end(&mut out).map_err(|e| e.to_string())?;
        let split = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or("no response head")?;
        let status = String::from_utf8_lossy(&out[..split])
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or("no status")?;
        Ok((status, out[split + 4..].to_vec()))
    }

    /// A GET answered with JSON: the status and the value.
    pub fn get(&self, path: &str) -> (u16, serde_json::Value) {
        self.json("GET", path, "")
    }

    /// A POST of `body`: the status and the JSON answer.
    pub fn post(&self, path: &str, body: serde_json::Value) -> (u16, serde_json::Value) {
        self.json("POST", path, &body.to_string())
    }

    fn json(&self, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
        match self.request(method, path, body) {
            Ok((status, bytes)) => (
                status,
                serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
            ),
            Err(e) => (0, serde_json::json!({ "error": e })),
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Opens every scene of the project in a paused [`Background`] session and checks what a
/// developer sees first: each scene loads and lists its entities, each file entity's components read
/// back with their owning package, a frame is served, and an edit of `probe` (entity name,
/// component key, field, value) shows in the running game without being saved. Every problem
/// found is returned.
pub fn open_every_scene(
    options: EditOptions,
    packages: fn() -> Vec<&'static dyn Package>,
    probe: (&str, &str, &str, serde_json::Value),
) -> Result<usize, Vec<String>> {
    let editor = Background::start(options, packages)?;
    let mut problems = Vec::new();
    // Paused, so a game that moves on by itself (a title that starts a demo, a crawl that
    // wants a party first) stays in the scene being looked at.
    let _ = editor.post("/api/control", serde_json::json!({ "action": "pause" }));
    let (_, tree) = editor.get("/api/scene");
    let scenes: Vec<String> = tree["scenes"]
        .as_array()
        .map(|s| {
            s.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let mut probed = false;
    for scene in &scenes {
        let (status, answer) = editor.post(
            "/api/control",
            serde_json::json!({ "action": "load", "scene": scene, "force": true }),
        );
        if status != 200 {
            problems.push(format!("{scene}: does not open: {answer}"));
            continue;
        }
        let (_, tree) = editor.get("/api/scene");
        let entities = tree["entities"].as_array().cloned().unwrap_or_default();
        if entities.is_empty() {
            problems.push(format!("{scene}: no entities listed"));
        }
        for entity in &entities {
            let index = entity["index"].as_u64().unwrap_or(0);
            let (status, detail) = editor.get(&format!("/api/entity?index={index}"));
            if status != 200 {
                problems.push(format!("{scene}: entity {index}: {detail}"));
                continue;
            }
            for c in detail["components"].as_array().cloned().unwrap_or_default() {
                if c["package"].is_null() || c["full"].is_null() {
                    problems.push(format!(
                        "{scene}: entity {index}: component {} does not read back",
                        c["key"]
                    ));
                }
            }
        }
        let (name, key, field, value) = &probe;
        if let Some(entity) = entities.iter().find(|e| e["name"] == *name) {
            probed = true;
            let index = entity["index"].as_u64().unwrap_or(0);
            let (status, answer) = editor.post(
                "/api/edit",
                serde_json::json!({ "op": "set", "entity": index, "key": key, "path": [field], "value": value }),
            );
            let (_, detail) = editor.get(&format!("/api/entity?index={index}"));
            let live = detail["components"]
                .as_array()
                .and_then(|cs| cs.iter().find(|c| c["key"] == *key))
                .map(|c| c["live"][*field].clone());
            if status != 200 {
                problems.push(format!("{scene}: editing {name}.{key}.{field}: {answer}"));
            } else if live.as_ref() != Some(value) {
                problems.push(format!(
                    "{scene}: {name}.{key}.{field} is {live:?} in the game after the edit, not {value}"
                ));
            }
            let _ = editor.post("/api/undo", serde_json::json!({}));
        }
    }
    if !probed {
        problems.push(format!("no scene has an entity named {:?}", probe.0));
    }
    // The first frame of the last scene may not be drawn yet on a busy machine: each request
    // waits up to half a second for one, so ask again (a minute in all) until it is there.
    let mut served = Err("no answer".to_string());
    for _ in 0..120 {
        served = editor
            .request("GET", "/api/frame", "")
            .map_err(|e| e.to_string());
        if !matches!(served, Ok((503, _))) {
            break;
        }
    }
    match served {
        Ok((200, png)) if png.starts_with(b"\x89PNG") => {}
        Ok((status, _)) => problems.push(format!("no frame served ({status})")),
        Err(e) => problems.push(format!("no frame served: {e}")),
    }
    if problems.is_empty() {
        Ok(scenes.len())
    } else {
        Err(problems)
    }
}
