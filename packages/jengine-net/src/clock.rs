//! Moments in time for the limits and the round trips, from whichever clock a side has.
//!
//! The server reads tokio's clock and the native client its own `Instant`s; in a browser
//! `Instant` panics, so the client there counts time as a [`Duration`] since the page opened,
//! read from the page's `clock.monotonic_ms` import (as the web host does). Tests step a
//! `Duration` by hand.

use std::time::{Duration, Instant};

/// A point in time that can say how long after another one it is.
pub(crate) trait Moment: Copy {
    /// The time from `earlier` to `self`; zero if `earlier` is later.
    fn since(self, earlier: Self) -> Duration;
}

impl Moment for Instant {
    fn since(self, earlier: Self) -> Duration {
        self.saturating_duration_since(earlier)
    }
}

/// Time since an epoch the holder chose (a client's start, a page's opening).
impl Moment for Duration {
    fn since(self, earlier: Self) -> Duration {
        self.saturating_sub(earlier)
    }
}

/// The page's monotonic clock (`performance.now`), as time since the page opened.
#[cfg(target_arch = "wasm32")]
pub(crate) fn page_now() -> Duration {
    #[link(wasm_import_module = "clock")]
    unsafe extern "C" {
        fn monotonic_ms() -> f64;
    }
    // SAFETY: an import of the page's, taking nothing and returning a number.
    let ms = unsafe { monotonic_ms() };
    Duration::from_secs_f64(if ms.is_finite() { ms.max(0.0) } else { 0.0 } / 1000.0)
}
