//! `jengine edit`: the project running in an editor session, served as a web page on the
//! loopback address.
//!
//! The session lives on one thread (the runtime is not `Send`): it steps the game at 60 Hz
//! while playing, renders a frame when the page wants one, and answers the page's requests
//! between frames. The HTTP server's threads hand requests over a channel; frames go through
//! a shared slot so a slow page never holds up the game. A watcher thread reports changed
//! files (hot reload) and whether the viewport build is stale (the Rebuild banner); a rebuild
//! runs on its own thread and, when it succeeds, the session starts again in the new binary on
//! the same port with the same token and scene.

mod doc;
pub mod http;
mod markdown;
mod session;

pub use doc::{Json, SceneDoc, Step};

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use jengine::Package;

use crate::viewport::Profile;

/// How an editor session starts.
#[derive(Debug, Clone)]
pub struct EditOptions {
    /// The project folder.
    pub project: PathBuf,
    /// The loopback port (0: any free one).
    pub port: u16,
    /// The session's token (a fresh random one when `None`).
    pub token: Option<String>,
    /// The scene to open (the project's start scene when `None`).
    pub scene: Option<String>,
    /// Whether to open the page in the browser.
    pub open: bool,
    /// The profile rebuilds use.
    pub profile: Profile,
    /// A scene's unsaved text carried over from the session before a rebuild.
    pub unsaved: Option<PathBuf>,
    /// Seed for every random stream.
    pub seed: u64,
    /// Whether the game's sound plays on the machine's device (else silently).
    pub sound: bool,
}

/// What the editor's main loop hears about.
enum Msg {
    Http(http::Request, std::sync::mpsc::Sender<http::Response>),
    Changed(Vec<PathBuf>),
    Stale(Option<String>),
    BuildLine(String),
    BuildDone(Result<PathBuf, String>),
}

/// A token nobody can guess: 128 bits from the system's random source.
fn fresh_token() -> String {
    use std::io::Read;
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        // Without /dev/urandom, the clock and the process id, hashed: still unique per run.
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in bytes.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap_or_default()
                    .as_nanos(),
            );
            h.write_u32(std::process::id());
            h.write_usize(i);
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Binds the loopback port, trying for a few seconds when a given port is still held (the
/// session before a rebuild lets go of it as the new one starts).
fn bind(port: u16) -> Result<std::net::TcpListener, String> {
    let start = Instant::now();
    loop {
        match std::net::TcpListener::bind(("127.0.0.1", port)) {
            Ok(l) => return Ok(l),
            Err(e) if port != 0 && start.elapsed() < Duration::from_secs(5) => {
                let _ = e;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(format!("cannot listen on 127.0.0.1:{port}: {e}")),
        }
    }
}

/// Opens `url` in the browser when there is a desktop to open it on.
fn open_browser(url: &str) {
    let desktop = std::env::var_os("DISPLAY").is_some()
        || std::env::var_os("WAYLAND_DISPLAY").is_some()
        || cfg!(target_os = "macos");
    if !desktop {
        eprintln!("info: no desktop here; open the address above in a browser");
        return;
    }
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    let spawned = std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if spawned.is_err() {
        eprintln!("info: cannot start {opener}; open the address above in a browser");
    }
}

/// Runs an editor session until `stop` is set (or the process ends). `ready` gets the page's
/// address (with its token) once the server listens.
pub fn run(
    options: EditOptions,
    packages: &[&dyn Package],
    stop: Arc<AtomicBool>,
    ready: &mut dyn FnMut(&str),
) -> Result<(), Vec<String>> {
    let listener = bind(options.port).map_err(|e| vec![e])?;
    let port = listener
        .local_addr()
        .map_err(|e| vec![e.to_string()])?
        .port();
    let token = options.token.clone().unwrap_or_else(fresh_token);
    let (tx, rx) = std::sync::mpsc::channel::<Msg>();
    let mut session = session::Session::start(&options, packages, port, &token, tx.clone())?;
    let frames = session.frames();
    let guard = http::Guard {
        token: token.clone(),
        port,
    };
    let to_main = std::sync::Mutex::new(tx.clone());
    let handler = Arc::new(move |request: http::Request| -> http::Response {
        if let Some(answer) = session::serve_outside(&request, &frames) {
            return answer;
        }
        let (reply, answer) = std::sync::mpsc::channel();
        let sent = to_main
            .lock()
            .map(|tx| tx.send(Msg::Http(request, reply)).is_ok())
            .unwrap_or(false);
        if !sent {
            return http::Response::error(503, "the editor is stopping");
        }
        answer
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| http::Response::error(503, "the editor did not answer in time"))
    });
    http::serve(listener, guard, handler).map_err(|e| vec![e.to_string()])?;
    session::watch(&options, tx.clone(), stop.clone());
    let url = format!("http://127.0.0.1:{port}/?token={token}");
    ready(&url);
    if options.open {
        open_browser(&url);
    }
    let step = Duration::from_secs_f64(crate::runtime::STEP);
    let mut next = Instant::now() + step;
    while !stop.load(Ordering::SeqCst) {
        let now = Instant::now();
        match rx.recv_timeout(next.saturating_duration_since(now)) {
            Ok(msg) => {
                session.handle(msg);
                continue;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
        next += step;
        if next + Duration::from_millis(100) < Instant::now() {
            // Far behind (a long build of a frame, a pause in the machine): start again
            // from now rather than running frames to catch up.
            next = Instant::now() + step;
        }
        session.tick();
    }
    session.finish();
    Ok(())
}

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
        mut options: EditOptions,
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
            if let Err(problems) = run(options, &linked, stopper, &mut ready) {
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
    match editor.request("GET", "/api/frame", "") {
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
