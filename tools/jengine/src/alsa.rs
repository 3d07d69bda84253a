//! ALSA output through `libasound.so.2`, loaded at run time: building needs no headers, and a
//! machine without the library still runs, silently.
//!
//! A thread of its own owns the PCM and makes the blocking writes; the game's frame only
//! appends to a queue under a short lock. After each write the thread publishes frames written
//! minus the delay ALSA reports, the count of frames actually played, which drives the clock.

use std::collections::VecDeque;
use std::ffi::{CStr, CString, c_char, c_int, c_long, c_uint, c_ulong, c_void};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jengine_audio::{Audio, Device, RATE};

/// The library file opened.
pub const LIBRARY: &str = "libasound.so.2";

const STREAM_PLAYBACK: c_int = 0;
const MODE_NONBLOCK: c_int = 1;
const FORMAT_S16_LE: c_int = 2;
const ACCESS_RW_INTERLEAVED: c_int = 3;
/// ALSA's buffer, in microseconds: long enough to ride out a late frame, short enough that a
/// sound starts within a few frames of its call.
const LATENCY_US: c_uint = 40_000;
/// Frames kept queued beyond one step, the ALSA buffer included.
const AHEAD_FRAMES: usize = (RATE as usize * LATENCY_US as usize / 1_000_000) + RATE as usize / 40;
/// Frames per write: small, so the played count is refreshed often.
const CHUNK_FRAMES: usize = 240;
/// The queue never holds more than this (a caller mixing more than asked loses the excess).
const MAX_QUEUED_FRAMES: usize = RATE as usize;
/// How long closing waits for the last samples to play before leaving the thread behind.
const CLOSE_WAIT: Duration = Duration::from_millis(500);

type Pcm = c_void;

/// The few libasound functions used, resolved from the loaded library.
struct Lib {
    open: unsafe extern "C" fn(*mut *mut Pcm, *const c_char, c_int, c_int) -> c_int,
    set_params:
        unsafe extern "C" fn(*mut Pcm, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int,
    nonblock: unsafe extern "C" fn(*mut Pcm, c_int) -> c_int,
    writei: unsafe extern "C" fn(*mut Pcm, *const c_void, c_ulong) -> c_long,
    recover: unsafe extern "C" fn(*mut Pcm, c_int, c_int) -> c_int,
    delay: unsafe extern "C" fn(*mut Pcm, *mut c_long) -> c_int,
    drain: unsafe extern "C" fn(*mut Pcm) -> c_int,
    close: unsafe extern "C" fn(*mut Pcm) -> c_int,
    strerror: unsafe extern "C" fn(c_int) -> *const c_char,
    // Kept last so it is dropped after nothing can call into it.
    _library: libloading::Library,
}

impl Lib {
    fn load() -> Result<Lib, AlsaError> {
        let missing = |e: libloading::Error| AlsaError::Library(e.to_string());
        // SAFETY: libasound's initialisers only set up its own state.
        let library = unsafe { libloading::Library::new(LIBRARY) }.map_err(missing)?;
        // SAFETY: each type below is the C prototype from alsa/pcm.h and alsa/error.h
        // (snd_pcm_uframes_t is unsigned long, snd_pcm_sframes_t long); the pointers are only
        // used while `_library` keeps the library loaded.
        unsafe {
            Ok(Lib {
                open: *library.get(b"snd_pcm_open\0").map_err(missing)?,
                set_params: *library.get(b"snd_pcm_set_params\0").map_err(missing)?,
                nonblock: *library.get(b"snd_pcm_nonblock\0").map_err(missing)?,
                writei: *library.get(b"snd_pcm_writei\0").map_err(missing)?,
                recover: *library.get(b"snd_pcm_recover\0").map_err(missing)?,
                delay: *library.get(b"snd_pcm_delay\0").map_err(missing)?,
                drain: *library.get(b"snd_pcm_drain\0").map_err(missing)?,
                close: *library.get(b"snd_pcm_close\0").map_err(missing)?,
                strerror: *library.get(b"snd_strerror\0").map_err(missing)?,
                _library: library,
            })
        }
    }

    fn describe(&self, code: c_int) -> String {
        // SAFETY: snd_strerror returns a static string for any code (or null, checked).
        let text = unsafe { (self.strerror)(code) };
        if text.is_null() {
            return format!("error {code}");
        }
        // SAFETY: non-null, NUL-terminated and static.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }
}

/// Why ALSA output could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AlsaError {
    /// `libasound.so.2` (or a function in it) is not there.
    Library(String),
    /// The library loaded but the named device would not open or take the format.
    Device {
        /// The PCM name asked for.
        device: String,
        /// What ALSA said.
        problem: String,
    },
}

impl fmt::Display for AlsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AlsaError::Library(e) => write!(f, "cannot load {LIBRARY}: {e}"),
            AlsaError::Device { device, problem } => {
                write!(f, "ALSA device {device:?}: {problem}")
            }
        }
    }
}

impl std::error::Error for AlsaError {}

/// An open PCM with the library it came from; closed when dropped, however that happens.
struct Output {
    lib: Lib,
    pcm: *mut Pcm,
}

// SAFETY: an ALSA PCM may be used from any one thread at a time; it is moved once into the
// writer thread and only used there.
unsafe impl Send for Output {}

impl Drop for Output {
    fn drop(&mut self) {
        // SAFETY: the PCM is open (it is only ever closed here) and not used after this.
        unsafe { (self.lib.close)(self.pcm) };
    }
}

struct Queue {
    samples: VecDeque<i16>,
    closing: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// Frames written minus ALSA's delay, never going backwards.
    played: AtomicU64,
    /// The writer gave up: from then on the device behaves like the null device.
    dead: AtomicBool,
    finished: AtomicBool,
    warnings: Mutex<Vec<String>>,
}

impl Shared {
    fn warn(&self, message: String) {
        self.warnings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(message);
    }
}

/// Plays through an ALSA PCM (`default`, `hw:0`, `file:'/tmp/x.raw',raw`, ...) as 16-bit
/// stereo at 48 kHz.
pub struct AlsaDevice {
    label: String,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    /// Frames handed to [`Device::write`].
    sent: u64,
    /// Set once the writer has died and that was said.
    fallen_back: bool,
    overflow_said: bool,
    warnings: Vec<String>,
}

impl AlsaDevice {
    /// Loads libasound and opens `pcm` for playback.
    pub fn open(pcm: &str) -> Result<AlsaDevice, AlsaError> {
        let lib = Lib::load()?;
        let failed = |problem: String| AlsaError::Device {
            device: pcm.to_string(),
            problem,
        };
        let name = CString::new(pcm).map_err(|_| failed("the name contains a NUL".into()))?;
        let mut handle: *mut Pcm = std::ptr::null_mut();
        // Opened non-blocking: a busy device otherwise makes the open itself wait.
        // SAFETY: valid out-pointer and NUL-terminated name.
        let rc = unsafe { (lib.open)(&mut handle, name.as_ptr(), STREAM_PLAYBACK, MODE_NONBLOCK) };
        if rc < 0 || handle.is_null() {
            return Err(failed(format!("cannot open it: {}", lib.describe(rc))));
        }
        let output = Output { lib, pcm: handle };
        let (lib, handle) = (&output.lib, output.pcm);
        // SAFETY: `handle` is an open PCM (closed by `output` on every way out).
        let rc = unsafe {
            let rc = (lib.set_params)(
                handle,
                FORMAT_S16_LE,
                ACCESS_RW_INTERLEAVED,
                2,
                RATE,
                1,
                LATENCY_US,
            );
            if rc < 0 {
                rc
            } else {
                (lib.nonblock)(handle, 0)
            }
        };
        if rc < 0 {
            let problem = format!(
                "cannot play 16-bit stereo at {RATE} Hz: {}",
                lib.describe(rc)
            );
            return Err(failed(problem));
        }
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                samples: VecDeque::new(),
                closing: false,
            }),
            ready: Condvar::new(),
            played: AtomicU64::new(0),
            dead: AtomicBool::new(false),
            finished: AtomicBool::new(false),
            warnings: Mutex::new(Vec::new()),
        });
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("jengine-audio".into())
            .spawn(move || {
                let output = output;
                writer(&output, &thread_shared);
                drop(output);
                thread_shared.finished.store(true, Ordering::Release);
            })
            .map_err(|e| failed(format!("cannot start its thread: {e}")))?;
        Ok(AlsaDevice {
            label: format!("alsa {pcm}"),
            shared,
            thread: Some(thread),
            sent: 0,
            fallen_back: false,
            overflow_said: false,
            warnings: Vec::new(),
        })
    }

    fn dead(&mut self) -> bool {
        if self.shared.dead.load(Ordering::Acquire) {
            self.fallen_back = true;
        }
        self.fallen_back
    }
}

/// The writer thread: moves queued samples to ALSA in small blocking writes until closed.
fn writer(output: &Output, shared: &Shared) {
    let (lib, pcm) = (&output.lib, output.pcm);
    let mut chunk: Vec<i16> = Vec::with_capacity(CHUNK_FRAMES * 2);
    let mut written: u64 = 0;
    let publish = |written: u64| {
        let mut delay: c_long = 0;
        // SAFETY: open PCM owned by this thread; valid out-pointer.
        let rc = unsafe { (lib.delay)(pcm, &mut delay) };
        let queued = if rc == 0 { delay.max(0) as u64 } else { 0 };
        shared
            .played
            .fetch_max(written.saturating_sub(queued), Ordering::AcqRel);
    };
    loop {
        {
            let mut q = shared.queue.lock().unwrap_or_else(|e| e.into_inner());
            while q.samples.is_empty() && !q.closing {
                // Wake now and then while idle, so the played count keeps up with the device.
                let (next, _) = shared
                    .ready
                    .wait_timeout(q, Duration::from_millis(5))
                    .unwrap_or_else(|e| e.into_inner());
                q = next;
                if q.samples.is_empty() {
                    publish(written);
                }
            }
            if q.samples.is_empty() {
                break;
            }
            let take = q.samples.len().min(CHUNK_FRAMES * 2);
            chunk.clear();
            chunk.extend(q.samples.drain(..take));
        }
        let frames = chunk.len() / 2;
        let mut done = 0;
        while done < frames {
            // SAFETY: `chunk` holds `frames` interleaved stereo i16 frames; writing from
            // frame `done` stays inside it.
            let rc = unsafe {
                (lib.writei)(
                    pcm,
                    chunk.as_ptr().add(done * 2).cast(),
                    (frames - done) as c_ulong,
                )
            };
            if rc >= 0 {
                done += rc as usize;
                continue;
            }
            // An underrun (the game stalled) or a suspend: ALSA restarts the stream.
            // SAFETY: open PCM owned by this thread.
            let recovered = unsafe { (lib.recover)(pcm, rc as c_int, 1) };
            if recovered < 0 {
                shared.warn(format!(
                    "audio: ALSA playback failed ({}); going on without sound",
                    lib.describe(recovered)
                ));
                shared.dead.store(true, Ordering::Release);
                return;
            }
        }
        written += frames as u64;
        publish(written);
    }
    // Let what was written play out; `output` closes the PCM after.
    // SAFETY: open PCM owned by this thread.
    unsafe { (lib.drain)(pcm) };
    shared.played.fetch_max(written, Ordering::AcqRel);
}

impl Device for AlsaDevice {
    fn name(&self) -> &str {
        &self.label
    }

    fn frames_wanted(&mut self, step_frames: usize) -> usize {
        if self.dead() {
            return step_frames;
        }
        let in_flight = self.sent.saturating_sub(self.played()) as usize;
        (AHEAD_FRAMES + step_frames)
            .saturating_sub(in_flight)
            .min(step_frames * 4)
    }

    fn write(&mut self, samples: &[f32]) {
        let frames = samples.len() / 2;
        self.sent += frames as u64;
        if self.dead() {
            return;
        }
        let mut q = self.shared.queue.lock().unwrap_or_else(|e| e.into_inner());
        let room = (MAX_QUEUED_FRAMES * 2).saturating_sub(q.samples.len());
        let take = (frames * 2).min(room);
        q.samples.extend(
            samples[..take]
                .iter()
                .map(|&s| (s.clamp(-1.0, 1.0) * 32767.0).round() as i16),
        );
        drop(q);
        self.shared.ready.notify_one();
        if take < frames * 2 && !self.overflow_said {
            self.overflow_said = true;
            self.warnings.push(format!(
                "audio: more than {MAX_QUEUED_FRAMES} frames were queued for ALSA; the excess was dropped"
            ));
        }
    }

    fn played(&self) -> u64 {
        if self.fallen_back || self.shared.dead.load(Ordering::Acquire) {
            // Counted like the null device from here on, so the clock keeps moving.
            self.sent
        } else {
            self.shared.played.load(Ordering::Acquire).min(self.sent)
        }
    }

    fn take_warnings(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.warnings);
        out.append(
            &mut self
                .shared
                .warnings
                .lock()
                .unwrap_or_else(|e| e.into_inner()),
        );
        out
    }
}

impl Drop for AlsaDevice {
    fn drop(&mut self) {
        self.shared
            .queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .closing = true;
        self.shared.ready.notify_one();
        let Some(thread) = self.thread.take() else {
            return;
        };
        // A wedged device must not hang the game's exit: after a while the thread is left.
        let start = Instant::now();
        while !self.shared.finished.load(Ordering::Acquire) && start.elapsed() < CLOSE_WAIT {
            std::thread::sleep(Duration::from_millis(2));
        }
        if self.shared.finished.load(Ordering::Acquire) {
            let _ = thread.join();
        }
    }
}

/// Audio on ALSA's default device, or silent with a warning when there is none.
pub fn open_default(assets_dir: &std::path::Path) -> Audio {
    Audio::open_with(assets_dir, open_default_device)
}

/// ALSA's default device, as the desktop [`crate::desktop::platform`] opens it.
pub fn open_default_device() -> Result<Box<dyn Device>, String> {
    AlsaDevice::open("default")
        .map(|d| Box::new(d) as Box<dyn Device>)
        .map_err(|e| e.to_string())
}
