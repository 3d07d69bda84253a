//! `_initialize`: the libc's constructors, run once.
//!
//! wasm-ld calls a module's constructors before every export unless the module exports
//! `_initialize`; with it, the host calls `_initialize` once and every later call is plain.

unsafe extern "C" {
    /// wasm-ld's function that runs every constructor the linked objects registered.
    fn __wasm_call_ctors();
}

/// Runs the C library's constructors; the host calls it once, before any other export.
#[unsafe(no_mangle)]
pub extern "C" fn _initialize() {
    // SAFETY: the linker defines this function; the host calls `_initialize` once, first.
    unsafe { __wasm_call_ctors() }
}
