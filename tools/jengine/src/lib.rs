//! The `jengine` tool: the command line, `check`, the package docs, the window, and the
//! desktop's sound device and clipboard, on top of the host's crates.
//!
//! The host is a crate per job, and this is the only one that knows a desktop:
//! [`runtime`] (`jengine-runtime`) steps a project at a fixed 60 Hz; [`render`]
//! (`jengine-render`) draws a frame; [`audio`] (`jengine-audio`) decodes and mixes, here played
//! through ALSA ([`alsa`]); [`edit`] (`jengine-editor`) is the editor and its server;
//! [`viewport`] (`jengine-viewport`) finds the workspace and builds the crate that links exactly a
//! project's listed packages. This crate adds `check`, which loads everything without running;
//! `docs`, which writes the package pages; `cli`, the command line shared by the `jengine` binary
//! and every generated viewport binary; `window`, which plays a runtime in a real window, with the
//! system clipboard ([`desktop`]) and the player's `data_dir`; `web_build`, the folder a browser
//! plays from (`jengine-web`). Each crate is re-exported under
//! its old name, so `jengine_tool::runtime::Runtime` still reads as it did.

#![warn(missing_docs)]

pub mod alsa;
pub mod check;
pub mod check_assets;
pub mod cli;
pub mod data_dir;
pub mod desktop;
pub mod docs;
pub mod web_build;
pub mod window;

pub use jengine_editor as edit;
pub use jengine_render as render;
pub use jengine_runtime as runtime;
pub use jengine_runtime::{input, trace};
pub use jengine_viewport as viewport;

/// Sound: the mixer and decoders (`jengine-audio`), and the desktop's ALSA device.
pub mod audio {
    pub use crate::alsa::{AlsaDevice, AlsaError, LIBRARY as ALSA_LIBRARY, open_default};
    pub use jengine_audio::*;
}

pub use runtime::{Heard, Options, Runtime, Sound};
