//! Where Lua's own output goes: `print` from a raw state, warnings, and anything the C library
//! writes to standard output or error. The host sets the sink; until then output is dropped
//! (the module has no terminal of its own).

use std::sync::Mutex;

/// Which stream a piece of output was written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// Standard output: Lua's `print` on a state that keeps it.
    Out,
    /// Standard error: Lua's warnings and the C library's complaints.
    Err,
}

/// A function that receives output bytes as they are written.
pub type Sink = fn(Stream, &[u8]);

static SINK: Mutex<Option<Sink>> = Mutex::new(None);

/// Sends every later piece of C-side output to `sink`.
pub fn set_output(sink: Sink) {
    *SINK.lock().unwrap_or_else(|e| e.into_inner()) = Some(sink);
}

/// Hands `bytes` to the sink, if one is set.
pub(crate) fn write(stream: Stream, bytes: &[u8]) {
    let sink = *SINK.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(sink) = sink {
        sink(stream, bytes);
    }
}

/// Lua's `lua_writestring` and friends (see `c/web.h`): stream 2 is error, else output.
///
/// # Safety
/// `text` points to `len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn jengine_web_lua_write(stream: i32, text: *const u8, len: usize) {
    if text.is_null() || len == 0 {
        return;
    }
    // SAFETY: the caller passes `len` readable bytes at `text`.
    let bytes = unsafe { std::slice::from_raw_parts(text, len) };
    write(
        if stream == 2 {
            Stream::Err
        } else {
            Stream::Out
        },
        bytes,
    );
}
