//! Rate limits: a token bucket per sender.
//!
//! A bucket holds up to `burst` tokens and refills at `per_second`; each frame takes one. So a
//! sender may go over its rate for a moment (a burst), never for long.

use crate::clock::Moment;

/// How many frames a side may send: `per_second` over time, `burst` at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Frames a second, over time.
    pub per_second: u32,
    /// Frames at once (the bucket's size).
    pub burst: u32,
}

impl RateLimit {
    /// A limit of `per_second` frames a second with bursts of `burst`.
    pub const fn new(per_second: u32, burst: u32) -> Self {
        RateLimit { per_second, burst }
    }

    /// No limit worth the name (`u32::MAX` both ways).
    pub const fn none() -> Self {
        RateLimit::new(u32::MAX, u32::MAX)
    }
}

/// A full bucket to start with; `take` says whether a frame may go.
#[derive(Debug, Clone)]
pub(crate) struct TokenBucket<T> {
    limit: RateLimit,
    tokens: f64,
    last: T,
}

impl<T: Moment> TokenBucket<T> {
    pub(crate) fn new(limit: RateLimit, now: T) -> Self {
        TokenBucket {
            limit,
            tokens: f64::from(limit.burst),
            last: now,
        }
    }

    pub(crate) fn limit(&self) -> RateLimit {
        self.limit
    }

    /// Takes a token if there is one.
    pub(crate) fn take(&mut self, now: T) -> bool {
        let elapsed = now.since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * f64::from(self.limit.per_second))
            .min(f64::from(self.limit.burst));
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn a_burst_goes_then_the_rate_holds() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(RateLimit::new(10, 3), start);
        assert!((0..3).all(|_| bucket.take(start)));
        assert!(!bucket.take(start));
        // A tenth of a second buys one frame, not more.
        let later = start + Duration::from_millis(100);
        assert!(bucket.take(later));
        assert!(!bucket.take(later));
        // A long pause refills only up to the burst.
        let much_later = later + Duration::from_secs(60);
        assert_eq!((0..10).filter(|_| bucket.take(much_later)).count(), 3);
    }

    #[test]
    fn no_limit_never_refuses() {
        let now = Instant::now();
        let mut bucket = TokenBucket::new(RateLimit::none(), now);
        assert!((0..100_000).all(|_| bucket.take(now)));
    }
}
