/* Included first in every QuickJS file `toolchain/wasm-cc` compiles (rquickjs-sys's sources).
 *
 * With __wasi__ defined, QuickJS turns its stack limit off: it counts on a WASI runtime to
 * guard the stack. This module has no such guard. Its shadow stack sits at the bottom of
 * memory, and endless recursion would run past it (a trap), or the browser's own stack
 * would run out first (also a trap), before any JavaScript error. So the libc headers are
 * read here as wasi-libc's, with __wasi__ defined (they need it, and their include guards
 * keep them from being read again), and then __wasi__ is taken away for QuickJS's own code,
 * whose limit set by JS_SetMaxStackSize then holds. QuickJS's other use of __wasi__, asking
 * malloc_usable_size how big a block is, is not needed: rquickjs's `rust-alloc` allocator
 * answers that. */
#ifndef JENGINE_QUICKJS_H
#define JENGINE_QUICKJS_H

#include <wasi/api.h>
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fenv.h>
#include <inttypes.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#undef __wasi__

#endif
