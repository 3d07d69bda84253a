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

mod background;
mod control;
mod doc;
mod edits;
mod frames;
mod history;
mod http;
mod live;
mod markdown;
mod reload;
mod session;
mod views;

pub use background::{Background, open_every_scene};
pub use doc::{Json, SceneDoc, Step};
pub use edits::{NAME_CHARS, check_name};
pub use http::Limits;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use jengine::Package;

use jengine_viewport::Profile;

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
    /// The undo and redo steps carried over from the session before a rebuild.
    pub history: Option<PathBuf>,
    /// Seed for every random stream.
    pub seed: u64,
    /// Whether the scene opens running (play mode) rather than paused in edit mode: what a
    /// session that was playing hands over a rebuild.
    pub play: bool,
    /// Whether the game's sound plays on the machine's device (else silently).
    pub sound: bool,
    /// How the machine's sound device and clipboard are opened (the host's; headless by
    /// default).
    pub platform: jengine_runtime::Platform,
}

impl EditOptions {
    /// A session on `project` as tests and tools start one: any free port, a fresh token, the
    /// start scene, no browser, dev-profile rebuilds, seed 1, silent.
    pub fn new(project: impl Into<PathBuf>) -> EditOptions {
        EditOptions {
            project: project.into(),
            port: 0,
            token: None,
            scene: None,
            open: false,
            profile: Profile::Dev,
            unsaved: None,
            history: None,
            seed: 1,
            play: false,
            sound: false,
            platform: jengine_runtime::Platform::headless(),
        }
    }
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

/// Whether a token given on the command line (a session restarting on a new build passes its
/// own) is as hard to guess as the ones the editor makes.
fn token_shape_ok(token: &str) -> bool {
    (16..=128).contains(&token.len()) && token.bytes().all(|b| b.is_ascii_hexdigit())
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

/// Opens `url` in the browser when there is a desktop to open it on; says where there is
/// none, or when the opener cannot start.
pub fn open_browser(url: &str) {
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

/// Starts a session on the project as the editor would, runs one frame and ends it, serving
/// nothing: what `jengine edit --probe` does, so that a rebuild learns whether its new binary
/// can start the project before the session moves onto it. The game stays silent and no
/// handed-over file is read.
pub fn probe(options: &EditOptions, packages: &[&dyn Package]) -> Result<(), Vec<String>> {
    let options = EditOptions {
        sound: false,
        unsaved: None,
        history: None,
        open: false,
        ..options.clone()
    };
    let (tx, _rx) = std::sync::mpsc::channel::<Msg>();
    let mut session = session::Session::start(&options, packages, 0, "probe", tx)?;
    session.tick();
    session.finish();
    Ok(())
}

/// Runs an editor session until `stop` is set (or the process ends). `ready` gets the page's
/// address (with its token) once the server listens.
pub fn run(
    options: EditOptions,
    packages: &[&dyn Package],
    stop: Arc<AtomicBool>,
    ready: &mut dyn FnMut(&str),
) -> Result<(), Vec<String>> {
    run_with(options, Limits::default(), packages, stop, ready)
}

/// [`run`] with the server's deadlines and places set by the caller (tests use a short head
/// deadline).
pub fn run_with(
    options: EditOptions,
    limits: Limits,
    packages: &[&dyn Package],
    stop: Arc<AtomicBool>,
    ready: &mut dyn FnMut(&str),
) -> Result<(), Vec<String>> {
    if let Some(token) = &options.token
        && !token_shape_ok(token)
    {
        return Err(vec![
            "--token must be 16 to 128 hexadecimal digits (without it the editor makes its own)"
                .into(),
        ]);
    }
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
        if let Some(answer) = frames::serve_outside(&request, &frames) {
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
    http::serve(listener, guard, limits, handler).map_err(|e| vec![e.to_string()])?;
    reload::watch(&options, tx.clone(), stop.clone());
    let url = format!("http://127.0.0.1:{port}/?token={token}");
    ready(&url);
    if options.open {
        open_browser(&url);
    }
    let step = Duration::from_secs_f64(jengine_runtime::STEP);
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
        // More than a step behind (the last drawing took long): the game's frames first.
        session.tick_paced(Instant::now() <= next);
    }
    session.finish();
    Ok(())
}
