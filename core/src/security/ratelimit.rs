//! Fixed-window request counting for the assistant limits (per organization per hour, per IP per day).
//!
//! The counts themselves live in the worker (isolate memory, flushed to KV); this is the arithmetic both
//! sides agree on, kept here so it is tested on the host.

use std::net::IpAddr;

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

/// What one request gets against every limit it is subject to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admission {
    /// The verdict whose headers the client sees (the tighter of all).
    pub verdict: Verdict,
    /// Index of the first limit that refused the request; `None` when it is allowed and counted in all.
    pub refused_by: Option<usize>,
}

/// Judges a request against all of its limits at once, given each window's count so far. The request
/// counts in every window only when every limit allows it: a request one limit refuses must not drain
/// another's budget (one client past its per-IP limit would otherwise lock its whole organization out).
pub fn admit(now_unix: u64, limits: &[(Limit, u64)]) -> Admission {
    let verdicts: Vec<Verdict> = limits
        .iter()
        .map(|(limit, count)| limit.judge(count.saturating_add(1), now_unix))
        .collect();
    let refused_by = verdicts.iter().position(|v| !v.allowed);
    let verdict = verdicts
        .iter()
        .copied()
        .reduce(Verdict::tighter)
        .unwrap_or(Verdict {
            allowed: true,
            limit: 0,
            remaining: 0,
            reset_secs: 0,
        });
    Admission {
        verdict,
        refused_by,
    }
}

/// One window's count in an isolate: what the shared store last said plus what was counted here since.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WindowCount {
    /// Count last read from or written to the shared store.
    pub stored: u64,
    /// Requests counted here and not yet written.
    pub pending: u64,
}

impl WindowCount {
    pub fn total(&self) -> u64 {
        self.stored.saturating_add(self.pending)
    }

    /// Hands the pending requests to a flush; they come back through `flushed` or `flush_failed`.
    pub fn take_pending(&mut self) -> u64 {
        std::mem::take(&mut self.pending)
    }

    /// The flush wrote `stored_before + taken`; adopt it (it includes other isolates' counts).
    pub fn flushed(&mut self, stored_before: u64, taken: u64) {
        self.stored = stored_before.saturating_add(taken);
    }

    /// The flush failed: its requests are pending again, so the next flush writes them.
    pub fn flush_failed(&mut self, taken: u64) {
        self.pending = self.pending.saturating_add(taken);
    }
}

/// The bucket a client address counts in. IPv6 clients are grouped by their /64 (one subscriber's
/// network: a host picks any address in it, so per-address counting is no limit at all); IPv4-mapped
/// IPv6 counts as the IPv4 address. Anything that does not parse shares the `unknown` bucket.
pub fn client_bucket(address: &str) -> String {
    match address.trim().parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.to_string(),
        Ok(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
        Err(_) => "unknown".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOURLY: Limit = Limit {
        limit: 3,
        window_secs: 3600,
    };

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
        let daily = Limit {
            limit: 10,
            window_secs: 86400,
        };
        let a = HOURLY.judge(1, 0);
        let b = daily.judge(9, 0);
        assert_eq!(a.tighter(b), b);
        let refused = HOURLY.judge(4, 0);
        assert_eq!(refused.tighter(b), refused);
        assert_eq!(b.tighter(refused), refused);
    }

    #[test]
    fn a_request_one_limit_refuses_counts_in_none() {
        let org = Limit {
            limit: 100,
            window_secs: 3600,
        };
        let ip = Limit {
            limit: 2,
            window_secs: 86_400,
        };
        let mut org_count = WindowCount::default();
        let mut ip_count = WindowCount::default();
        let mut allowed = 0;
        for _ in 0..50 {
            let admission = admit(0, &[(org, org_count.total()), (ip, ip_count.total())]);
            if admission.refused_by.is_none() {
                org_count.pending += 1;
                ip_count.pending += 1;
                allowed += 1;
            } else {
                assert_eq!(admission.refused_by, Some(1));
                assert!(!admission.verdict.allowed);
            }
        }
        assert_eq!(allowed, 2);
        // 48 refused requests left the organization's budget untouched.
        assert_eq!(org_count.total(), 2);
        assert_eq!(admit(0, &[(org, org_count.total())]).verdict.remaining, 97);
    }

    #[test]
    fn a_failed_flush_keeps_its_counts() {
        let mut count = WindowCount {
            stored: 5,
            pending: 3,
        };
        let taken = count.take_pending();
        count.pending += 2; // requests counted while the flush was in flight
        count.flush_failed(taken);
        assert_eq!(
            count,
            WindowCount {
                stored: 5,
                pending: 5
            }
        );
        let taken = count.take_pending();
        count.flushed(9, taken); // the store held 9 (other isolates counted too)
        assert_eq!(
            count,
            WindowCount {
                stored: 14,
                pending: 0
            }
        );
    }

    #[test]
    fn ipv6_clients_share_their_64() {
        assert_eq!(
            client_bucket("2001:db8:1:2::1"),
            client_bucket("2001:db8:1:2:ffff:abcd:1:2")
        );
        assert_eq!(client_bucket("2001:db8:1:2::1"), "2001:db8:1:2::/64");
        assert_ne!(
            client_bucket("2001:db8:1:2::1"),
            client_bucket("2001:db8:1:3::1")
        );
        assert_eq!(client_bucket("203.0.113.7"), "203.0.113.7");
        assert_eq!(client_bucket("::ffff:203.0.113.7"), "203.0.113.7");
        assert_eq!(client_bucket("not an ip"), "unknown");
    }
}
