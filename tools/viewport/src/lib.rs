//! `jengine viewport-build`: the crate that links exactly a project's listed packages.
//!
//! The generated crate lives under `<workspace>/target/viewport/<project>-<id>/` with its own
//! `[workspace]`, depends on this host and on each listed package by path, and its `main` hands
//! the listed entry points to `jengine_tool::cli::viewport_main`. It builds into the workspace's own
//! target folder with the workspace's lock, profiles and workspace tables, and reaches the host
//! through links that put it at the same relative path as in the workspace, and asks for every
//! crate it links with the features the workspace's own build gives it; cargo names a compiled
//! crate by exactly those things, so everything a workspace build compiled is reused.
//! The build is skipped when a stamp written after the last build is newer than every source.
//!
//! The jobs, one module each: finding the workspace (`discover`), reading the workspace's
//! features (`unify`), generating the crate (`generate`), the staleness list (`stale`) and
//! running cargo (`build`). `web` is the same for
//! a browser build: a `wasm32` library that hands the listed packages to `jengine-web`.

mod build;
mod discover;
mod generate;
mod stale;
mod unify;
mod web;

use std::fmt;
use std::path::PathBuf;

pub use build::{Output, build, build_for, build_reporting, build_with};
pub use discover::{target_dir, workspace, workspace_packages};
pub use generate::generate;
pub use stale::stale;
pub use unify::Unified;
pub use web::{WEB_TARGET, build_web, generate_web};

/// Which cargo profile a viewport is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// Optimised: what players run.
    Release,
    /// Quick to build: what tests use.
    Dev,
}

impl Profile {
    fn dir(self) -> &'static str {
        match self {
            Profile::Release => "release",
            Profile::Dev => "debug",
        }
    }
}

/// A generated viewport crate and its binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewport {
    /// The generated crate's folder.
    pub crate_dir: PathBuf,
    /// The built binary.
    pub binary: PathBuf,
    /// Why cargo ran (`None` when the binary was fresh and the build was skipped).
    pub reason: Option<String>,
}

impl Viewport {
    /// Whether this call ran cargo.
    pub fn rebuilt(&self) -> bool {
        self.reason.is_some()
    }
}

/// What went wrong making a viewport.
#[derive(Debug)]
pub enum ViewportError {
    /// A generated file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// cargo could not be started.
    Spawn {
        /// The program tried.
        cargo: String,
        /// Why.
        source: std::io::Error,
    },
    /// A listed package's metadata cannot go into the generated crate as it is.
    Package {
        /// The package's `Cargo.toml`.
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// cargo ran and failed.
    Build {
        /// The generated crate.
        crate_dir: PathBuf,
        /// cargo's error output, or a note that it went to the terminal.
        output: String,
    },
}

impl fmt::Display for ViewportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ViewportError::Write { path, source } => {
                write!(
                    f,
                    "{}: cannot write the viewport crate: {source}",
                    path.display()
                )
            }
            ViewportError::Spawn { cargo, source } => write!(f, "cannot run {cargo}: {source}"),
            ViewportError::Package { file, message } => write!(f, "{}: {message}", file.display()),
            ViewportError::Build { crate_dir, output } => write!(
                f,
                "building the viewport in {} failed:\n{output}",
                crate_dir.display()
            ),
        }
    }
}

impl std::error::Error for ViewportError {}
