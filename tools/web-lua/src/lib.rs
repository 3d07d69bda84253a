//! Lua 5.4 for `wasm32-unknown-unknown`, so that mlua runs unchanged in a browser.
//!
//! On that target the build script compiles the C sources mlua's `vendored` feature builds
//! natively (the `lua-src` crate's) with clang, setjmp/longjmp lowered onto WebAssembly
//! exception handling, and links them with Debian's wasi-libc. This crate supplies what the
//! C side then needs from Rust: `malloc` and its kin over Rust's allocator (one heap for
//! both), the WASI system calls the libc makes, answered inside the module (no files, no
//! environment, output to a sink the host sets), and `_initialize`, which runs the libc's
//! constructors once. A crate that uses mlua with `mlua-sys/external` on this target depends
//! on this one; on every other target it is empty.
//!
//! A module built this way imports nothing for Lua. Call its `_initialize` export once before
//! any other.

#![cfg_attr(not(all(target_arch = "wasm32", target_os = "unknown")), allow(unused))]

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod web;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web::output::{Stream, set_output};
