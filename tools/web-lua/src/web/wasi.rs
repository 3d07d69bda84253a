//! The WASI system calls wasi-libc makes, answered inside the module so that it imports none.
//!
//! The libc is built for WASI; on `wasm32-unknown-unknown` nothing provides those calls, so
//! each `__imported_wasi_snapshot_preview1_*` symbol the libc links against is defined here
//! (the linker prefers a definition to an import). The answers are those of a machine with no
//! files, no environment and no clock: standard output and error go to the [output sink],
//! standard input is empty, every path is missing, and the C clock reads "not supported"
//! (the sandbox reads the seam's clock, never C's). `random_get` fills from a fixed sequence:
//! the only randomness a game has is its seeded streams (Lua asks only to pick sort pivots).
//!
//! Signatures follow wasi-libc's imports exactly (i32 for pointers and sizes, i64 for
//! timestamps, offsets and rights): a mismatch would make the linker call a trap instead.
//!
//! [output sink]: super::output

use std::sync::atomic::{AtomicU64, Ordering};

use super::output::{Stream, write};

const SUCCESS: i32 = 0;
const BADF: i32 = 8;
const NOENT: i32 = 44;
const NOSYS: i32 = 52;

/// The address `p` as a pointer (the module's memory starts at address 0).
fn at<T>(p: i32) -> *mut T {
    p as u32 as usize as *mut T
}

/// No environment variables: zero of them, in zero bytes.
///
/// # Safety
/// Both arguments point to writable `u32`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __imported_wasi_snapshot_preview1_environ_sizes_get(
    count: i32,
    bytes: i32,
) -> i32 {
    // SAFETY: the libc passes two writable u32s.
    unsafe {
        at::<u32>(count).write(0);
        at::<u32>(bytes).write(0);
    }
    SUCCESS
}

/// Copies no environment variables (there are none).
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_environ_get(_list: i32, _bytes: i32) -> i32 {
    SUCCESS
}

/// C's clocks are not supported: the libc reads 0 (`time`) or -1 (`clock`).
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_clock_time_get(
    _id: i32,
    _precision: i64,
    _time: i32,
) -> i32 {
    NOSYS
}

/// No file descriptors to close.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_fd_close(_fd: i32) -> i32 {
    BADF
}

/// No descriptor has a status (so none is a terminal; stdio buffers fully).
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_fd_fdstat_get(_fd: i32, _stat: i32) -> i32 {
    BADF
}

/// No descriptor's flags can be set.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_fd_fdstat_set_flags(
    _fd: i32,
    _flags: i32,
) -> i32 {
    BADF
}

/// No preopened folders: the libc's scan for them ends at the first descriptor.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_fd_prestat_get(_fd: i32, _stat: i32) -> i32 {
    BADF
}

/// No preopened folders have names.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_fd_prestat_dir_name(
    _fd: i32,
    _path: i32,
    _len: i32,
) -> i32 {
    BADF
}

/// Standard input is empty; nothing else can be read.
///
/// # Safety
/// `read` points to a writable `u32`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __imported_wasi_snapshot_preview1_fd_read(
    fd: i32,
    _iovs: i32,
    _len: i32,
    read: i32,
) -> i32 {
    if fd != 0 {
        return BADF;
    }
    // SAFETY: the libc passes a writable u32 for the count.
    unsafe { at::<u32>(read).write(0) };
    SUCCESS
}

/// No descriptors to renumber.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_fd_renumber(_fd: i32, _to: i32) -> i32 {
    BADF
}

/// Nothing can seek.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_fd_seek(
    _fd: i32,
    _offset: i64,
    _whence: i32,
    _to: i32,
) -> i32 {
    BADF
}

/// Standard output and error go to the output sink; nothing else can be written.
///
/// # Safety
/// `iovs` points to `len` (pointer, length) pairs of readable bytes; `written` to a writable
/// `u32`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __imported_wasi_snapshot_preview1_fd_write(
    fd: i32,
    iovs: i32,
    len: i32,
    written: i32,
) -> i32 {
    let stream = match fd {
        1 => Stream::Out,
        2 => Stream::Err,
        _ => return BADF,
    };
    let mut total: u32 = 0;
    for i in 0..len.max(0) as usize {
        // SAFETY: the libc passes `len` ciovecs, each two u32s: where and how many bytes.
        unsafe {
            let iov = at::<u32>(iovs).add(2 * i);
            let (base, n) = (iov.read(), iov.add(1).read());
            write(
                stream,
                std::slice::from_raw_parts(base as usize as *const u8, n as usize),
            );
            total = total.wrapping_add(n);
        }
    }
    // SAFETY: the libc passes a writable u32 for the count.
    unsafe { at::<u32>(written).write(total) };
    SUCCESS
}

/// There are no files to open.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn __imported_wasi_snapshot_preview1_path_open(
    _fd: i32,
    _dirflags: i32,
    _path: i32,
    _path_len: i32,
    _oflags: i32,
    _rights: i64,
    _inherited: i64,
    _fdflags: i32,
    _opened: i32,
) -> i32 {
    NOENT
}

/// There are no folders to remove.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_path_remove_directory(
    _fd: i32,
    _path: i32,
    _len: i32,
) -> i32 {
    NOENT
}

/// There are no files to rename.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_path_rename(
    _fd: i32,
    _old: i32,
    _old_len: i32,
    _to_fd: i32,
    _new: i32,
    _new_len: i32,
) -> i32 {
    NOENT
}

/// There are no files to remove.
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_path_unlink_file(
    _fd: i32,
    _path: i32,
    _len: i32,
) -> i32 {
    NOENT
}

/// C's `exit`: the module cannot end its host, so it traps (nothing Lua runs here calls it:
/// `os.exit` is not in the sandbox).
#[unsafe(no_mangle)]
pub extern "C" fn __imported_wasi_snapshot_preview1_proc_exit(_code: i32) {
    std::arch::wasm32::unreachable()
}

/// Fills `len` bytes at `buf` from a fixed sequence (splitmix64), not from entropy.
///
/// # Safety
/// `buf` points to `len` writable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __imported_wasi_snapshot_preview1_random_get(buf: i32, len: i32) -> i32 {
    static STATE: AtomicU64 = AtomicU64::new(0x6a09_e667_f3bc_c908);
    for i in 0..len.max(0) as usize {
        let mut z = STATE
            .fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed)
            .wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        // SAFETY: the libc passes `len` writable bytes at `buf`.
        unsafe { at::<u8>(buf).add(i).write((z ^ (z >> 31)) as u8) };
    }
    SUCCESS
}
