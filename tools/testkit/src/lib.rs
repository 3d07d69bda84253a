//! Testing jengine games and packages the way a player meets them.
//!
//! - [`Game`]: a project running headless in a [`Runtime`], with what a test does to it
//!   (click a button by its entity's name, press a key, type, settle a few frames, play an
//!   input file) and what it reads off it (an entity's text and place, a bag, the warnings,
//!   the sounds asked for), and its frames checked against goldens;
//! - [`golden`]: a rendered frame compared with a committed PNG, pixel by pixel;
//! - [`inputs`]: input files kept beside the test that computes them;
//! - [`lua`]: a game's Lua rule tests, run in the real sandbox with its real `import`;
//! - [`browser`] and [`web`]: a headless Chromium driven over WebDriver, and what a test of a
//!   web build needs besides (the wasm tools, a static server for the build's folder).
//!
//! A game's test crate (`projects/<game>/tests`) and a package's own tests both use this crate
//! and nothing of the desktop: no window, editor or command line is built to test a game.

#![warn(missing_docs)]

pub mod browser;
pub mod game;
pub mod golden;
pub mod inputs;
pub mod lua;
pub mod web;

pub use game::Game;
pub use jengine_render::{Frame, Renderer};
pub use jengine_runtime::input::{self, Event, InputScript, Phase, TimedEvent, key_presses_json};
pub use jengine_runtime::{Heard, Options, Runtime, Sound};
