//! Assistant feedback and analytics, sans IO: what the worker stores (rows it writes to D1) and what
//! it reports (the report assembled from grouped SQL rows, the conversations CSV).
//!
//! - [`input`]: the feedback and web-analytics event bodies, validated with field paths.
//! - [`range`]: `from`/`to` UTC days of a report, and day arithmetic.
//! - [`record`]: one answer's analytics row (grouping key, hashed fingerprint, relevance).
//! - [`report`]: grouped rows → [`crate::wire::analytics::AnalyticsReport`], percentiles.
//! - [`csv`]: RFC 4180 rows, safe to open in a spreadsheet.

pub mod csv;
pub mod input;
pub mod range;
pub mod record;
pub mod report;

/// Days analytics rows are kept unless `ANALYTICS_RETENTION_DAYS` says otherwise.
pub const DEFAULT_RETENTION_DAYS: u32 = 90;
/// Longest retention accepted (ten years); larger settings are clamped.
pub const MAX_RETENTION_DAYS: u32 = 3650;

/// Rows older than this (unix milliseconds) are deleted by the retention job.
pub fn retention_cutoff_ms(now_ms: u64, days: u32) -> u64 {
    let days = days.clamp(1, MAX_RETENTION_DAYS);
    now_ms.saturating_sub(u64::from(days) * 86_400_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retention_cutoff_is_whole_days_back_and_clamped() {
        let now = 100 * 86_400_000;
        assert_eq!(retention_cutoff_ms(now, 90), 10 * 86_400_000);
        assert_eq!(retention_cutoff_ms(now, 0), 99 * 86_400_000);
        assert_eq!(retention_cutoff_ms(5, 90), 0);
    }
}
