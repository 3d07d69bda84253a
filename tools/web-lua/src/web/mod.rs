//! The Rust half of the C runtime on `wasm32-unknown-unknown`: the allocator, the system
//! calls and the output sink the C code links against.

mod alloc;
mod init;
pub(crate) mod output;
mod wasi;
