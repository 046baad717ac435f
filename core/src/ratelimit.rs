//! Fixed-window request counting for the assistant limits (per organization per hour, per IP per day).
//!
//! The counts themselves live in the worker (isolate memory, flushed to KV); this is the arithmetic both
//! sides agree on, kept here so it is tested on the host.

/// One limit: `limit` requests per `window_secs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub limit: u64,
    pub window_secs: u64,
}

/// Where a count stands against its limit after this request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub allowed: bool,
    pub limit: u64,
    pub remaining: u64,
    /// Seconds until the window resets.
    pub reset_secs: u64,
}

impl Limit {
    /// Index of the window `now` falls in; part of the storage key so old windows expire on their own.
    pub fn window_index(&self, now_unix: u64) -> u64 {
        now_unix / self.window_secs.max(1)
    }

    pub fn reset_secs(&self, now_unix: u64) -> u64 {
        let window = self.window_secs.max(1);
        window - now_unix % window
    }

    /// The verdict for a request that would make the window's count `count_including_this`.
    pub fn judge(&self, count_including_this: u64, now_unix: u64) -> Verdict {
        Verdict {
            allowed: count_including_this <= self.limit,
            limit: self.limit,
            remaining: self.limit.saturating_sub(count_including_this),
            reset_secs: self.reset_secs(now_unix),
        }
    }
}

impl Verdict {
    /// The verdict whose headers a client should see: a refusal first, else the fewest remaining.
    pub fn tighter(self, other: Verdict) -> Verdict {
        match (self.allowed, other.allowed) {
            (false, true) => self,
            (true, false) => other,
            (false, false) => {
                if self.reset_secs >= other.reset_secs {
                    self
                } else {
                    other
                }
            }
            (true, true) => {
                if self.remaining <= other.remaining {
                    self
                } else {
                    other
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOURLY: Limit = Limit { limit: 3, window_secs: 3600 };

    #[test]
    fn requests_up_to_the_limit_are_allowed() {
        assert!(HOURLY.judge(3, 0).allowed);
        assert_eq!(HOURLY.judge(3, 0).remaining, 0);
        assert!(!HOURLY.judge(4, 0).allowed);
    }

    #[test]
    fn reset_counts_down_to_the_window_end() {
        assert_eq!(HOURLY.reset_secs(3600 * 5), 3600);
        assert_eq!(HOURLY.reset_secs(3600 * 5 + 600), 3000);
        assert_eq!(HOURLY.window_index(3600 * 5 + 600), 5);
    }

    #[test]
    fn tighter_prefers_refusal_then_fewest_remaining() {
        let daily = Limit { limit: 10, window_secs: 86400 };
        let a = HOURLY.judge(1, 0);
        let b = daily.judge(9, 0);
        assert_eq!(a.tighter(b), b);
        let refused = HOURLY.judge(4, 0);
        assert_eq!(refused.tighter(b), refused);
        assert_eq!(b.tighter(refused), refused);
    }
}
