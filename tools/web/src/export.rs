//! What the module's exported functions do; [`export_host!`](crate::export_host) writes the
//! exports themselves into the generated crate, which knows the project's packages.
//!
//! The page and the module share two byte areas: the input (the page asks for room with
//! `jengine_input(len)` and writes the bundle or a frame's events there) and the output buffer
//! (`jengine_buffer`, `jengine_buffer_len`), which holds the last answer: an error, a trace
//! line, the log, the recording, or after a trap the panic message and what the module was
//! doing. Nothing unwinds on wasm32, so a panic ends the instance; the page starts a new one.
//! Mixed sound has an area of its own (`jengine_audio_samples`), as f32 samples.
//!
//! Before `start`, the page's storage part asks for the project's `localStorage` prefix
//! (`jengine_storage_prefix`, the bundle in the input) and hands in its keys
//! (`jengine_storage_load`); `start` then runs the game on that store.

use std::cell::RefCell;

pub use jengine::Package;

use crate::Host;
use crate::storage::BrowserStorage;

thread_local! {
    static HOST: RefCell<Option<Host>> = const { RefCell::new(None) };
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static DOING: RefCell<String> = const { RefCell::new(String::new()) };
    static LAUNCH: RefCell<crate::Launch> = RefCell::new(crate::Launch::default());
    /// The prefix `jengine_storage_prefix` found, for `jengine_storage_load`.
    static PREFIX: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The store `jengine_storage_load` filled, for `start`.
    static STORAGE: RefCell<Option<BrowserStorage>> = const { RefCell::new(None) };
    /// The samples last taken for the page, and the stream frame of the first.
    static SAMPLES: RefCell<(Vec<f32>, u64)> = const { RefCell::new((Vec::new(), 0)) };
}

/// Puts `text` in the output buffer.
fn say(text: &str) {
    BUFFER.with(|b| {
        if let Ok(mut b) = b.try_borrow_mut() {
            b.clear();
            b.extend_from_slice(text.as_bytes());
        }
    });
}

/// Notes what the module is doing, for the message a panic leaves.
fn doing(what: String) {
    DOING.with(|d| {
        if let Ok(mut d) = d.try_borrow_mut() {
            *d = what;
        }
    });
}

#[cfg(target_arch = "wasm32")]
mod clock {
    use std::time::Duration;

    #[link(wasm_import_module = "clock")]
    unsafe extern "C" {
        /// Milliseconds since the page started, never going back (`performance.now`).
        fn monotonic_ms() -> f64;
        /// Milliseconds since the Unix epoch (`Date.now`).
        fn unix_ms() -> f64;
    }

    pub fn elapsed() -> Duration {
        // SAFETY: a plain import returning a number.
        Duration::from_secs_f64(unsafe { monotonic_ms() }.max(0.0) / 1000.0)
    }

    pub fn unix_seconds() -> i64 {
        // SAFETY: a plain import returning a number.
        (unsafe { unix_ms() } / 1000.0) as i64
    }
}

/// Once per instance: the page's clock for the seam, and a panic hook that leaves the message
/// and what was being done in the output buffer before the module traps.
fn ready() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        #[cfg(target_arch = "wasm32")]
        {
            let _ = jengine::host::set_clock(jengine::host::Clock {
                elapsed: clock::elapsed,
                unix_seconds: clock::unix_seconds,
            });
            std::panic::set_hook(Box::new(|info| {
                let what = DOING.with(|d| d.try_borrow().map(|d| d.clone()).unwrap_or_default());
                // The seam's note names the script and command, or the system, that was running.
                let inside = jengine::host::doing();
                let inside = if inside.is_empty() {
                    String::new()
                } else {
                    format!(", in {inside}")
                };
                say(&format!("the game stopped while {what}{inside}: {info}"));
            }));
        }
    });
}

/// Room for `len` input bytes; the page writes there before `start` or `step`.
pub fn input(len: u32) -> *mut u8 {
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len as usize, 0);
        i.as_mut_ptr()
    })
}

/// Starts the project in the input bytes (a bundle) with the seed `lo | hi << 32`: 1 when it
/// runs, 0 with the problems in the buffer.
/// Takes the launch options in the input bytes (JSON, see [`crate::Launch`]) for the next
/// start: 1, or 0 with the problem in the buffer (and the options before are kept).
pub fn launch() -> u32 {
    let text = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    match crate::Launch::from_json(&text) {
        Ok(launch) => {
            LAUNCH.with(|l| *l.borrow_mut() = launch);
            say("");
            1
        }
        Err(e) => {
            say(&e);
            0
        }
    }
}

pub fn start(linked: &[&dyn Package], lo: u32, hi: u32) -> u32 {
    ready();
    doing("starting the project".into());
    let bundle = INPUT.with(|i| std::mem::take(&mut *i.borrow_mut()));
    let seed = u64::from(lo) | (u64::from(hi) << 32);
    let launch = LAUNCH.with(|l| l.borrow().clone());
    let storage = STORAGE.with(|s| s.borrow_mut().take());
    match Host::start_with(&bundle, linked, seed, launch, storage) {
        Ok(host) => {
            HOST.with(|h| *h.borrow_mut() = Some(host));
            say("");
            1
        }
        Err(problems) => {
            say(&problems.join("\n"));
            0
        }
    }
}

fn with_host<T>(missing: T, f: impl FnOnce(&mut Host) -> T) -> T {
    HOST.with(|h| match h.borrow_mut().as_mut() {
        Some(host) => f(host),
        None => {
            say("no project is running; call jengine_start first");
            missing
        }
    })
}

/// Runs one frame with the events in the input bytes (JSON): 1 when it ran, 2 when it ran and
/// a script asked to quit, 0 with the problem in the buffer.
pub fn step() -> u32 {
    let events = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    with_host(0, |host| {
        doing(format!("running frame {}", host.frame() + 1));
        match host.step_json(&events) {
            Ok(()) if host.quit_requested() => 2,
            Ok(()) => 1,
            Err(e) => {
                say(&e);
                0
            }
        }
    })
}

/// Plays the input file in the input area from the next frame on ([`Host::replay`]); 1, or 0
/// with the problem in the buffer.
pub fn replay() -> u32 {
    let text = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    with_host(0, |host| match host.replay(&text) {
        Ok(()) => {
            say("");
            1
        }
        Err(e) => {
            say(&e);
            0
        }
    })
}

/// The frame of the replayed file's last event, or 0 when no file is being played.
pub fn replay_end() -> f64 {
    HOST.with(|h| {
        h.borrow()
            .as_ref()
            .and_then(Host::replay_end)
            .map_or(0.0, |f| f as f64)
    })
}

/// Draws a `width` x `height` frame: where its RGBA bytes start, or null with the problem in
/// the buffer.
pub fn render(width: u32, height: u32) -> *const u8 {
    with_host(std::ptr::null(), |host| {
        doing(format!("drawing frame {}", host.frame()));
        match host.render(width, height) {
            Ok(rgba) => rgba.as_ptr(),
            Err(e) => {
                say(&e);
                std::ptr::null()
            }
        }
    })
}

/// The project window's width (0 before a start).
pub fn window_width() -> u32 {
    HOST.with(|h| h.borrow().as_ref().map_or(0, |h| h.window_size().0))
}

/// The project window's height (0 before a start).
pub fn window_height() -> u32 {
    HOST.with(|h| h.borrow().as_ref().map_or(0, |h| h.window_size().1))
}

/// Frames completed.
pub fn frame() -> f64 {
    HOST.with(|h| h.borrow().as_ref().map_or(0.0, |h| h.frame() as f64))
}

/// Puts the trace line of the frame just run in the buffer.
pub fn trace() -> u32 {
    with_host(0, |host| {
        say(&host.trace_line());
        1
    })
}

/// Puts every delivered event so far, as an input file, in the buffer.
pub fn recording() -> u32 {
    with_host(0, |host| {
        say(&host.recording());
        1
    })
}

/// Puts the log lines since the last call (a JSON list) in the buffer.
pub fn log() -> u32 {
    with_host(0, |host| {
        say(&host.take_log());
        1
    })
}

/// Where the output buffer starts.
pub fn buffer() -> *const u8 {
    BUFFER.with(|b| b.borrow().as_ptr())
}

/// How many bytes the output buffer holds.
pub fn buffer_len() -> u32 {
    BUFFER.with(|b| b.borrow().len() as u32)
}

/// Puts the `localStorage` prefix of the project in the input bytes (a bundle) in the buffer:
/// 1, or 0 with the problem in the buffer. The bundle stays for `start`.
pub fn storage_prefix() -> u32 {
    ready();
    doing("reading the project's name".into());
    let found = INPUT.with(|i| crate::storage_prefix(&i.borrow()));
    match found {
        Ok(prefix) => {
            say(&prefix);
            PREFIX.with(|p| *p.borrow_mut() = Some(prefix));
            1
        }
        Err(e) => {
            say(&e);
            0
        }
    }
}

/// Fills the store the next `start` uses from the page's keys in the input bytes (the JSON
/// list `[[name, value], ...]`, names under the prefix): 1 with what was loaded, held and
/// wrong in the buffer (JSON), or 0 when no prefix was asked for first.
pub fn storage_load() -> u32 {
    doing("loading the player's data".into());
    let Some(prefix) = PREFIX.with(|p| p.borrow().clone()) else {
        say("call jengine_storage_prefix before jengine_storage_load");
        return 0;
    };
    let json = INPUT.with(|i| std::mem::take(&mut *i.borrow_mut()));
    let (storage, loaded) = BrowserStorage::load(&prefix, &json);
    STORAGE.with(|s| *s.borrow_mut() = Some(storage));
    say(&serde_json::to_string(&loaded).unwrap_or_default());
    1
}

/// Puts the changes to make in `localStorage` in the buffer (JSON): 1, or 0 when there are
/// none.
pub fn storage_changes() -> u32 {
    with_host(0, |host| {
        doing("handing out the player's data".into());
        match host.storage_changes() {
            Some(json) => {
                say(&json);
                1
            }
            None => 0,
        }
    })
}

/// The page made the first `done` of the changes last handed out.
pub fn storage_written(done: u32) -> u32 {
    with_host(0, |host| {
        host.storage_stored(done as usize);
        1
    })
}

/// The page's sound output runs (1) or does not (0).
pub fn audio_output(on: u32) -> u32 {
    with_host(0, |host| {
        host.sound().set_running(on != 0);
        1
    })
}

/// Moves the mixed samples waiting into the sound area; how many frames it holds.
pub fn audio_take() -> u32 {
    with_host(0, |host| {
        SAMPLES.with(|s| {
            let mut s = s.borrow_mut();
            let (samples, at) = &mut *s;
            *at = host.sound().take(samples);
            (samples.len() / 2) as u32
        })
    })
}

/// Where the sound area starts: f32 samples, left and right interleaved.
pub fn audio_samples() -> *const f32 {
    SAMPLES.with(|s| s.borrow().0.as_ptr())
}

/// The stream frame of the sound area's first frame.
pub fn audio_at() -> f64 {
    SAMPLES.with(|s| s.borrow().1 as f64)
}

/// The page has played the mixed stream up to `frame`.
pub fn audio_played(frame: f64) -> u32 {
    with_host(0, |host| {
        if frame.is_finite() && frame >= 0.0 {
            host.sound().played_to(frame as u64);
        }
        1
    })
}

/// Puts the sound's state in the buffer as JSON: whether the page's output runs, the frames
/// mixed and played, and the music clock scripts read on the last frame with the frames played
/// it was read at (`clockPlayed`).
pub fn audio_state() -> u32 {
    with_host(0, |host| {
        let (mixed, played) = host.sound().counts();
        let (clock, clock_played) = host.music_clock();
        say(&serde_json::json!({
            "running": host.sound().running(),
            "mixed": mixed,
            "played": played,
            "clockPlayed": clock_played,
            "playing": clock.playing,
            "position": clock.position,
            "bpm": clock.bpm,
        })
        .to_string());
        1
    })
}

/// Puts the copy a script made for the browser's clipboard in the buffer: 1, or 0 when none
/// came since the last call.
pub fn clipboard_take() -> u32 {
    with_host(0, |host| match host.clipboard_take() {
        Some(text) => {
            say(&text);
            1
        }
        None => 0,
    })
}

/// The browser refused to write the clipboard, its words in the input bytes.
pub fn clipboard_refused() -> u32 {
    let why = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    with_host(0, |host| {
        host.clipboard_refused(&why);
        1
    })
}

/// Panics on purpose, so a page (and its test) can see a trap caught and the game restarted.
/// Only `jengine web-build --dev` exports it.
pub fn crash() -> u32 {
    doing("crashing on purpose (a --dev build's jengine_crash)".into());
    panic!("jengine_crash was called");
}

/// Writes the module's exports for the packages listed, in listing order:
/// `jengine_web::export_host!(&jengine_counter::CounterPackage);`. With `dev;` first, the
/// module also exports `jengine_crash`.
#[macro_export]
macro_rules! export_host {
    (dev; $($package:expr),* $(,)?) => {
        /// Panics on purpose: the page's trap handling is tried with it.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_crash() -> u32 { $crate::export::crash() }
        $crate::export_host!($($package),*);
    };
    ($($package:expr),* $(,)?) => {
        /// Room for `len` input bytes.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_input(len: u32) -> *mut u8 { $crate::export::input(len) }
        /// Starts the bundle in the input with a seed; 1 when it runs.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_launch() -> u32 { $crate::export::launch() }
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_start(lo: u32, hi: u32) -> u32 {
            let linked: &[&dyn $crate::export::Package] = &[$($package),*];
            $crate::export::start(linked, lo, hi)
        }
        /// Runs one frame with the events in the input.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_step() -> u32 { $crate::export::step() }
        /// Draws a frame; where its RGBA bytes are.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_replay() -> u32 { $crate::export::replay() }
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_replay_end() -> f64 { $crate::export::replay_end() }
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_render(width: u32, height: u32) -> *const u8 {
            $crate::export::render(width, height)
        }
        /// The project window's width.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_window_width() -> u32 { $crate::export::window_width() }
        /// The project window's height.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_window_height() -> u32 { $crate::export::window_height() }
        /// Frames completed.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_frame() -> f64 { $crate::export::frame() }
        /// The last frame's trace line, in the buffer.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_trace() -> u32 { $crate::export::trace() }
        /// The delivered events so far, in the buffer.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_recording() -> u32 { $crate::export::recording() }
        /// The log since the last call, in the buffer.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_log() -> u32 { $crate::export::log() }
        /// Where the output buffer starts.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_buffer() -> *const u8 { $crate::export::buffer() }
        /// How many bytes the output buffer holds.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_buffer_len() -> u32 { $crate::export::buffer_len() }
        /// The `localStorage` prefix of the bundle in the input, in the buffer.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_storage_prefix() -> u32 { $crate::export::storage_prefix() }
        /// Loads the page's keys in the input for the next start.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_storage_load() -> u32 { $crate::export::storage_load() }
        /// The changes to make in `localStorage`, in the buffer; 0 when none.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_storage_changes() -> u32 { $crate::export::storage_changes() }
        /// The page made the first `done` changes.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_storage_written(done: u32) -> u32 {
            $crate::export::storage_written(done)
        }
        /// The page's sound output runs (1) or not (0).
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_audio_output(on: u32) -> u32 { $crate::export::audio_output(on) }
        /// Moves the waiting samples into the sound area; how many frames.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_audio_take() -> u32 { $crate::export::audio_take() }
        /// Where the sound area starts.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_audio_samples() -> *const f32 { $crate::export::audio_samples() }
        /// The stream frame of the sound area's first frame.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_audio_at() -> f64 { $crate::export::audio_at() }
        /// The page has played the stream up to `frame`.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_audio_played(frame: f64) -> u32 {
            $crate::export::audio_played(frame)
        }
        /// The sound's state, in the buffer.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_audio_state() -> u32 { $crate::export::audio_state() }
        /// The copy to write to the browser's clipboard, in the buffer; 0 when none.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_clipboard_take() -> u32 { $crate::export::clipboard_take() }
        /// The browser refused the clipboard, its words in the input.
        #[unsafe(no_mangle)]
        pub extern "C" fn jengine_clipboard_refused() -> u32 {
            $crate::export::clipboard_refused()
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn read_buffer() -> String {
        BUFFER.with(|b| String::from_utf8_lossy(&b.borrow()).into_owned())
    }

    fn put(bytes: &[u8]) {
        let at = input(bytes.len() as u32);
        // SAFETY: `input` just made room for exactly `bytes.len()` bytes at `at`.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), at, bytes.len()) };
    }

    #[test]
    fn the_exports_start_step_and_answer_through_the_two_areas() {
        assert_eq!(step(), 0);
        assert!(read_buffer().contains("call jengine_start first"));
        put(b"not a bundle");
        assert_eq!(start(&[&jengine_counter::CounterPackage], 1, 0), 0);
        assert!(read_buffer().contains("JENGINE1"), "{}", read_buffer());
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project");
        put(&crate::bundle::pack(&crate::project_files(&dir).unwrap()));
        assert_eq!(start(&[&jengine_counter::CounterPackage], 5, 0), 1);
        assert_eq!((window_width(), window_height()), (640, 360));
        put(b"[]");
        assert_eq!(step(), 1);
        assert_eq!(trace(), 1);
        assert!(
            read_buffer().starts_with(r#"{"bags":{"box""#),
            "{}",
            read_buffer()
        );
        assert!(!render(32, 18).is_null());
        assert!(render(0, 18).is_null());
        assert!(read_buffer().contains("refused"));
        put(b"[{\"type\":\"nope\"}]");
        assert_eq!(step(), 0, "unknown events run no frame");
        assert_eq!(frame(), 1.0);
        assert_eq!(log(), 1);
        assert!(read_buffer().contains("first goal"), "{}", read_buffer());
        assert_eq!(recording(), 1);
        assert_eq!(read_buffer(), "[]");
        assert_eq!(buffer_len() as usize, 2);
    }

    #[test]
    fn storage_sound_and_clipboard_go_through_the_exports() {
        put(b"[]");
        assert_eq!(storage_load(), 0, "the prefix comes first");
        assert!(read_buffer().contains("jengine_storage_prefix"));
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/counter-project");
        let bundle = crate::bundle::pack(&crate::project_files(&dir).unwrap());
        put(&bundle);
        assert_eq!(storage_prefix(), 1);
        assert_eq!(read_buffer(), "jengine/counter-fixture/");
        put(br#"[["save.json", "{\"count_at_3\": 1}"], ["../x", "1"]]"#);
        assert_eq!(storage_load(), 1);
        let loaded: serde_json::Value = serde_json::from_str(&read_buffer()).unwrap();
        assert_eq!(loaded["loaded"], serde_json::json!(["save.json"]));
        assert_eq!(loaded["held"], serde_json::json!(["../x"]));
        put(&bundle);
        assert_eq!(start(&[&jengine_counter::CounterPackage], 1, 0), 1);
        assert_eq!(storage_changes(), 0);
        for _ in 0..3 {
            put(b"[]");
            assert_eq!(step(), 1);
        }
        assert_eq!(storage_changes(), 1);
        assert!(read_buffer().contains("count_at_3"), "{}", read_buffer());
        assert_eq!(storage_written(1), 1);
        assert_eq!(storage_changes(), 0);

        assert_eq!(audio_state(), 1);
        let state: serde_json::Value = serde_json::from_str(&read_buffer()).unwrap();
        assert_eq!(
            (state["mixed"].as_u64(), state["played"].as_u64()),
            (Some(2400), Some(2400))
        );
        assert_eq!(audio_output(1), 1);
        put(b"[]");
        assert_eq!(step(), 1);
        let frames = audio_take();
        assert!(frames >= 800, "{frames}");
        assert_eq!(audio_at(), 2400.0);
        assert!(!audio_samples().is_null());
        assert_eq!(
            audio_played(f64::NAN),
            1,
            "a count that is no number is ignored"
        );
        assert_eq!(audio_played(2400.0 + 800.0), 1);
        assert_eq!(audio_state(), 1);
        let state: serde_json::Value = serde_json::from_str(&read_buffer()).unwrap();
        assert_eq!(state["played"], 3200);

        put(br#"[{"type":"key","key":"c","down":true}]"#);
        assert_eq!(step(), 1);
        assert_eq!(clipboard_take(), 1);
        assert_eq!(read_buffer(), "count 3");
        assert_eq!(clipboard_take(), 0);
        put(b"NotAllowedError");
        assert_eq!(clipboard_refused(), 1);
        assert_eq!(log(), 1);
        assert!(
            read_buffer().contains("NotAllowedError"),
            "{}",
            read_buffer()
        );
    }
}
