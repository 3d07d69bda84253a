//! `malloc`, `calloc`, `realloc`, `free` and `malloc_usable_size` for the C code, over Rust's
//! global allocator.
//!
//! Each block starts with a 16-byte header holding the size asked for, so `free` and
//! `realloc` can rebuild the layout Rust's allocator needs; 16 is also the alignment C's
//! `max_align_t` wants here.

use std::alloc::{Layout, alloc, alloc_zeroed, dealloc, realloc as grow};
use std::ffi::c_void;
use std::ptr::null_mut;

const HEADER: usize = 16;

fn layout(size: usize) -> Option<Layout> {
    Layout::from_size_align(size.checked_add(HEADER)?, HEADER).ok()
}

/// Writes the header at `base` and returns the block the C code sees.
///
/// # Safety
/// `base` is null or the start of an allocation of `size + HEADER` bytes.
unsafe fn finish(base: *mut u8, size: usize) -> *mut c_void {
    if base.is_null() {
        return null_mut();
    }
    // SAFETY: `base` starts an allocation of at least HEADER bytes, aligned to HEADER.
    unsafe {
        base.cast::<usize>().write(size);
        base.add(HEADER).cast()
    }
}

/// The header's start and the size recorded in it.
///
/// # Safety
/// `p` came from this module's `malloc`, `calloc` or `realloc` and was not freed.
unsafe fn header(p: *mut c_void) -> (*mut u8, usize) {
    // SAFETY: every block handed out starts HEADER bytes past its header.
    unsafe {
        let base = p.cast::<u8>().sub(HEADER);
        (base, base.cast::<usize>().read())
    }
}

/// C's `malloc`.
///
/// # Safety
/// As C's: the block is freed once, with `free`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
    match layout(size) {
        // SAFETY: the layout has a non-zero size (it includes the header).
        Some(l) => unsafe { finish(alloc(l), size) },
        None => null_mut(),
    }
}

/// C's `calloc`: `n` zeroed elements of `size` bytes.
///
/// # Safety
/// As C's.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn calloc(n: usize, size: usize) -> *mut c_void {
    match n.checked_mul(size).and_then(|s| Some((s, layout(s)?))) {
        // SAFETY: the layout has a non-zero size.
        Some((s, l)) => unsafe { finish(alloc_zeroed(l), s) },
        None => null_mut(),
    }
}

/// C's `realloc`.
///
/// # Safety
/// As C's: `p` is null or a live block from this allocator.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
    if p.is_null() {
        // SAFETY: as malloc.
        return unsafe { malloc(size) };
    }
    let Some(new) = layout(size) else {
        return null_mut();
    };
    // SAFETY: `p` is a live block, so its header is intact and its layout is `old`.
    unsafe {
        let (base, old) = header(p);
        let old = layout(old).expect("a recorded size had a layout");
        finish(grow(base, old, new.size()), size)
    }
}

/// C's `free`.
///
/// # Safety
/// As C's: `p` is null or a live block from this allocator, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn free(p: *mut c_void) {
    if p.is_null() {
        return;
    }
    // SAFETY: `p` is a live block, so its header gives the layout it was allocated with.
    unsafe {
        let (base, size) = header(p);
        dealloc(base, layout(size).expect("a recorded size had a layout"));
    }
}

/// The libc's own name for `malloc`, which some of its functions call directly.
///
/// # Safety
/// As `malloc`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn __libc_malloc(size: usize) -> *mut c_void {
    // SAFETY: as malloc.
    unsafe { malloc(size) }
}

/// The bytes a block can hold: the size asked for. QuickJS counts what it allocates with this
/// (its memory limit rests on it), so it must be exact, never 0.
///
/// # Safety
/// As C's: `p` is null or a live block from this allocator.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn malloc_usable_size(p: *mut c_void) -> usize {
    if p.is_null() {
        return 0;
    }
    // SAFETY: `p` is a live block, so its header holds the size it was allocated with.
    unsafe { header(p).1 }
}
