//! The seam's sandbox suite, then Miau's pack-script suite (QuickJS and Lua packs against
//! every limit), as a `wasm32-unknown-unknown` module, run by `run.mjs` in Node.
//!
//! libtest cannot report on this target, so the module hands the suite out case by case:
//! `selftest_count` says how many there are, `selftest_name(i)` and `selftest_run(i)` put a
//! case's name, or the panic message of a failed run, in a buffer the runner reads at
//! `selftest_buffer` / `selftest_buffer_len`. A panic aborts the module (nothing unwinds
//! here), so the runner reads the message out of memory after the trap and starts a fresh
//! instance for the next case. The page's clocks arrive as the imports `clock.monotonic_ms`
//! and `clock.unix_ms` (`performance.now` and `Date.now` in Node).
//!
//! Natively the crate is empty; `tests/wasm_suite.rs` builds it for wasm32 and runs it.

#[cfg(target_arch = "wasm32")]
mod module {
    use std::cell::RefCell;
    use std::time::Duration;

    use jengine::host::{Clock, set_clock};
    use jengine::selftest::Case;

    #[link(wasm_import_module = "clock")]
    unsafe extern "C" {
        /// Milliseconds since the page started, never going back.
        fn monotonic_ms() -> f64;
        /// Milliseconds since the Unix epoch.
        fn unix_ms() -> f64;
    }

    fn elapsed() -> Duration {
        // SAFETY: a plain import returning a number.
        Duration::from_secs_f64(unsafe { monotonic_ms() }.max(0.0) / 1000.0)
    }

    fn unix_seconds() -> i64 {
        // SAFETY: a plain import returning a number.
        (unsafe { unix_ms() } / 1000.0) as i64
    }

    thread_local! {
        static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
        static CASES: Vec<Case> = {
            let mut cases = jengine::selftest::cases();
            cases.extend(jengine_miau::selftest::cases());
            cases
        };
    }

    fn say(text: &str) {
        BUFFER.with(|b| {
            let mut b = b.borrow_mut();
            b.clear();
            b.extend_from_slice(text.as_bytes());
        });
    }

    /// Once per instance: the page's clock, and a panic hook that leaves the message in the
    /// buffer before the module aborts.
    fn ready() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let _ = set_clock(Clock {
                elapsed,
                unix_seconds,
            });
            std::panic::set_hook(Box::new(|info| say(&info.to_string())));
        });
    }

    /// How many cases the suite has.
    #[unsafe(no_mangle)]
    pub extern "C" fn selftest_count() -> u32 {
        CASES.with(|c| c.len() as u32)
    }

    /// Puts case `i`'s name in the buffer; 0 when there is no such case.
    #[unsafe(no_mangle)]
    pub extern "C" fn selftest_name(i: u32) -> u32 {
        CASES.with(|c| match c.get(i as usize) {
            Some(case) => {
                say(case.name);
                1
            }
            None => 0,
        })
    }

    /// Runs case `i`: 1 when it passed. A failure aborts the module with the panic message
    /// in the buffer; 0 when there is no such case.
    #[unsafe(no_mangle)]
    pub extern "C" fn selftest_run(i: u32) -> u32 {
        ready();
        let Some(case) = CASES.with(|c| c.get(i as usize).copied()) else {
            return 0;
        };
        say("");
        (case.run)();
        1
    }

    /// Where the buffer's bytes start.
    #[unsafe(no_mangle)]
    pub extern "C" fn selftest_buffer() -> *const u8 {
        BUFFER.with(|b| b.borrow().as_ptr())
    }

    /// How many bytes the buffer holds.
    #[unsafe(no_mangle)]
    pub extern "C" fn selftest_buffer_len() -> u32 {
        BUFFER.with(|b| b.borrow().len() as u32)
    }
}
