//! Round trips: a ping carries the time it left, its pong brings it back.
//!
//! The payload is the microseconds since the connection's epoch, so no table of pings in flight
//! is kept; a pong that does not carry such a time (the peer's own, or a forgery from the
//! future) is ignored. The estimate is smoothed the way TCP smooths its own: 7/8 old, 1/8 new.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::clock::Moment;

/// The smoothed round trip of one connection, shared between its threads or tasks.
#[derive(Debug)]
pub(crate) struct RoundTrip<T> {
    epoch: T,
    /// Microseconds, or `u64::MAX` before the first pong.
    smoothed: AtomicU64,
}

impl<T: Moment> RoundTrip<T> {
    pub(crate) fn new(epoch: T) -> Self {
        RoundTrip {
            epoch,
            smoothed: AtomicU64::new(u64::MAX),
        }
    }

    /// The payload of a ping sent now.
    pub(crate) fn ping(&self, now: T) -> Vec<u8> {
        micros(now.since(self.epoch)).to_be_bytes().to_vec()
    }

    /// Takes in a pong's payload; returns the sample it gave, if it was one of ours.
    pub(crate) fn pong(&self, payload: &[u8], now: T) -> Option<Duration> {
        let sent = u64::from_be_bytes(payload.try_into().ok()?);
        let now = micros(now.since(self.epoch));
        let sample = now.checked_sub(sent)?;
        let old = self.smoothed.load(Ordering::Relaxed);
        let new = if old == u64::MAX {
            sample
        } else {
            old - old / 8 + sample / 8
        };
        self.smoothed.store(new, Ordering::Relaxed);
        Some(Duration::from_micros(sample))
    }

    /// The smoothed round trip, once a pong has come back.
    pub(crate) fn get(&self) -> Option<Duration> {
        match self.smoothed.load(Ordering::Relaxed) {
            u64::MAX => None,
            us => Some(Duration::from_micros(us)),
        }
    }

    /// Forgets the estimate (a new connection starts afresh).
    pub(crate) fn reset(&self) {
        self.smoothed.store(u64::MAX, Ordering::Relaxed);
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_pong_gives_the_time_since_its_ping_and_the_estimate_is_smoothed() {
        let epoch = Instant::now();
        let rtt = RoundTrip::new(epoch);
        assert_eq!(rtt.get(), None);
        let ping = rtt.ping(epoch + Duration::from_millis(10));
        let sample = rtt.pong(&ping, epoch + Duration::from_millis(18));
        assert_eq!(sample, Some(Duration::from_millis(8)));
        assert_eq!(rtt.get(), Some(Duration::from_millis(8)));
        let ping = rtt.ping(epoch + Duration::from_millis(100));
        rtt.pong(&ping, epoch + Duration::from_millis(116));
        assert_eq!(rtt.get(), Some(Duration::from_millis(9)));
    }

    #[test]
    fn a_pong_that_is_not_ours_is_ignored() {
        let epoch = Instant::now();
        let rtt = RoundTrip::new(epoch);
        assert_eq!(rtt.pong(b"hello", epoch), None);
        assert_eq!(rtt.pong(&u64::MAX.to_be_bytes(), epoch), None);
        assert_eq!(rtt.get(), None);
    }
}
