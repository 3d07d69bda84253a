//! The clock a pack script's time cap reads: the seam's (`jengine::host::clock`), the same one
//! the Lua sandbox's wall-clock limit reads.
//!
//! Natively that is the standard library's monotonic clock. On `wasm32-unknown-unknown`,
//! where `std::time::Instant` panics, it is the page's `performance.now`, set by the web host;
//! until a host sets it there, no pack script starts (a deadline with no clock could never
//! pass). QuickJS's own idea of the time (`Date`, `performance.now`) comes from the same clock
//! on the web: its wasm shim asks for `__rquickjs_host_now_us`, answered here.

use std::time::Duration;

/// Time since the seam's fixed moment, or `None` where no clock is set (only on the web).
pub(crate) fn elapsed() -> Option<Duration> {
    jengine::host::clock().map(|clock| (clock.elapsed)())
}

/// The deadline `time` from now, or the refusal naming the script when there is no clock.
pub(crate) fn deadline(name: &str, time: Duration) -> Result<Duration, String> {
    elapsed().map(|now| now + time).ok_or_else(|| {
        format!(
            "{name}: pack scripts need the host's clock, and none is set (jengine::host::set_clock)"
        )
    })
}

/// Whether `deadline` has passed; with no clock, it always has.
pub(crate) fn passed(deadline: Duration) -> bool {
    elapsed().is_none_or(|now| now > deadline)
}

/// Microseconds since the Unix epoch, QuickJS's one question to the platform on the web
/// (`Date`, and its clocks). Whole seconds from the seam's clock; 0 with no clock.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[unsafe(no_mangle)]
pub extern "C" fn __rquickjs_host_now_us() -> f64 {
    jengine::host::clock().map_or(0.0, |clock| (clock.unix_seconds)() as f64 * 1e6)
}
