//! The jengine runtime: a project's frames at a fixed 60 Hz, with no desktop in it.
//!
//! [`Runtime`] loads a project with the packages a host links, runs its scripts and systems a
//! fixed step at a time, mixes its sound on the fixed clock and records what it heard;
//! [`input`] is the events a frame receives (and the files that replay them), [`trace`] the
//! per-frame lines a replay is compared by. What only a machine has — a sound card, a system
//! clipboard — comes in through a [`Platform`] the host hands over; the default is headless, so
//! a run replays bit for bit anywhere. The project's files come in the same way, as
//! [`jengine::host::Assets`] ([`Runtime::with_assets`]): a folder on disk or bytes in memory.

#![warn(missing_docs)]

pub mod clipboard;
pub mod input;
mod runtime;
mod scroll;
pub mod trace;

pub use clipboard::{OpenClipboard, SystemClipboard};
pub use runtime::*;
pub use scroll::WHEEL_LINES;

/// What a host machine lends a runtime beyond its files: how to open a sound device and a
/// system clipboard. Each is opened only when a run asks for it ([`Sound::Device`],
/// [`Options::system_clipboard`]); one that cannot be opened is said once and the run goes on
/// silent, or with a clipboard in memory.
#[derive(Clone, Copy)]
pub struct Platform {
    /// Opens the machine's sound device.
    pub sound_device: fn() -> Result<Box<dyn jengine_audio::Device>, String>,
    /// Opens the machine's clipboard.
    pub clipboard: OpenClipboard,
}

impl Platform {
    /// A host with neither: tests, headless runs, a build with no desktop.
    pub fn headless() -> Platform {
        Platform {
            sound_device: || Err("this host has no sound device".to_string()),
            clipboard: || Err("this host has no system clipboard".to_string()),
        }
    }
}

impl Default for Platform {
    fn default() -> Self {
        Platform::headless()
    }
}

impl std::fmt::Debug for Platform {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Platform")
    }
}
