//! The clocks the sandbox reads, behind two functions the host sets.
//!
//! The wall-clock limit and `os.clock` read time elapsed since a fixed moment; `os.time` reads
//! seconds since the Unix epoch. Natively both default to the standard library's clocks. On
//! `wasm32-unknown-unknown` those panic, so a web host sets its page's clocks
//! (`performance.now`, `Date.now`) with [`set_clock`] before making a script host; until it
//! does, a script host cannot be made there.

use std::sync::OnceLock;
use std::time::Duration;

/// The host's clocks.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    /// Time since a fixed moment, never going back: the wall-clock limit and `os.clock`.
    pub elapsed: fn() -> Duration,
    /// Whole seconds since the Unix epoch: `os.time`.
    pub unix_seconds: fn() -> i64,
}

static CLOCK: OnceLock<Clock> = OnceLock::new();

/// Sets the clocks every later script host reads. It can be set once, before the first script
/// host is made (which otherwise fixes the platform's default); a second call hands `clock`
/// back.
pub fn set_clock(clock: Clock) -> Result<(), Clock> {
    CLOCK.set(clock)
}

/// The clocks in force: the host's, else the platform's own, if it has them. Anything else
/// that limits a script's running time (a package's own interpreter) reads this one too.
pub fn current() -> Option<Clock> {
    match CLOCK.get() {
        Some(clock) => Some(*clock),
        None => platform().map(|clock| *CLOCK.get_or_init(|| clock)),
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
fn platform() -> Option<Clock> {
    use std::time::{Instant, SystemTime, UNIX_EPOCH};
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    Some(Clock {
        elapsed: || ORIGIN.get_or_init(Instant::now).elapsed(),
        unix_seconds: || {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        },
    })
}

/// `wasm32-unknown-unknown` has no clock of its own: the host must set one.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn platform() -> Option<Clock> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_native_clock_is_there_without_a_host_and_does_not_go_back() {
        let clock = current().expect("a native clock");
        let a = (clock.elapsed)();
        let b = (clock.elapsed)();
        assert!(b >= a);
        assert!((clock.unix_seconds)() > 1_600_000_000);
    }

    #[test]
    fn the_clock_is_set_once() {
        current();
        let again = Clock {
            elapsed: || Duration::ZERO,
            unix_seconds: || 0,
        };
        assert!(set_clock(again).is_err());
    }
}
