//! The jengine host: the runtime that steps a project, and the `jengine` tool around it.
//!
//! `runtime` loads a project with the packages it lists and runs frames at a fixed 60 Hz;
//! `check` loads everything without running; `viewport` generates and builds the crate that
//! links exactly a project's listed packages; `docs` writes the package pages; `cli` is the
//! command line shared by the `jengine` binary and every generated viewport binary; `window`
//! plays a runtime in a real window, with the system `clipboard` and the player's `data_dir`.

#![warn(missing_docs)]

pub mod audio;
pub mod check;
pub mod cli;
pub mod clipboard;
pub mod data_dir;
pub mod docs;
pub mod edit;
pub mod golden;
pub mod input;
pub mod render;
pub mod runtime;
pub mod trace;
pub mod viewport;
pub mod window;

pub use runtime::{Heard, Options, Runtime, Sound};
