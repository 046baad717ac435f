//! The analytics report from rows the database grouped: per-day counts are spread over every day
//! of the range (zero days included), first-byte percentiles come from a histogram of exact values
//! (bounded by the number of distinct milliseconds, not by the number of answers).

use serde::Deserialize;

use super::range::DayRange;
use crate::wire::analytics::{
    AnalyticsReport, DayCounts, PageCount, Percentiles, QueryCount, QuestionCount, Totals,
};

/// Rows listed per ranking (top questions, gaps, pages, searches).
pub const TOP_N: u32 = 20;

/// `SELECT day, COUNT(*) … GROUP BY day` shapes; missing counts are zero.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
pub struct DayRow {
    pub day: String,
    #[serde(default)]
    pub conversations: u64,
    #[serde(default)]
    pub questions: u64,
    #[serde(default)]
    pub up: u64,
    #[serde(default)]
    pub down: u64,
    #[serde(default)]
    pub searches: u64,
    #[serde(default)]
    pub page_views: u64,
    #[serde(default)]
    pub support_shown: u64,
    #[serde(default)]
    pub support_followed: u64,
}

/// `(value, how many)` of a histogram.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Bucket {
    pub value: u64,
    pub count: u64,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct LabelCount {
    pub label: String,
    pub count: u64,
}

/// Everything the database answers for one report.
#[derive(Debug, Clone, Default)]
pub struct ReportRows {
    /// Per-day rows of any of the tables; rows of the same day add up.
    pub days: Vec<DayRow>,
    pub first_byte: Vec<Bucket>,
    pub unanswered: u64,
    pub uncertain: u64,
    pub top_questions: Vec<LabelCount>,
    pub coverage_gaps: Vec<LabelCount>,
    pub cited_pages: Vec<LabelCount>,
    pub zero_result_searches: Vec<LabelCount>,
    pub page_views: Vec<LabelCount>,
}

pub fn build_report(domain: &str, range: &DayRange, rows: ReportRows) -> AnalyticsReport {
    let mut days: Vec<DayCounts> = range
        .days()
        .map(|day| DayCounts {
            day,
            ..DayCounts::default()
        })
        .collect();
    // A row's day comes from the same instant the range selected it by, so it is always a day of the range.
    for row in &rows.days {
        if let Some(day) = days.iter_mut().find(|d| d.day == row.day) {
            day.conversations += row.conversations;
            day.questions += row.questions;
            day.feedback_up += row.up;
            day.feedback_down += row.down;
            day.searches += row.searches;
            day.page_views += row.page_views;
            day.support_shown += row.support_shown;
            day.support_followed += row.support_followed;
        }
    }
    let sum = |field: fn(&DayCounts) -> u64| days.iter().map(field).sum::<u64>();
    let totals = Totals {
        conversations: sum(|d| d.conversations),
        questions: sum(|d| d.questions),
        unanswered: rows.unanswered,
        uncertain: rows.uncertain,
        feedback_up: sum(|d| d.feedback_up),
        feedback_down: sum(|d| d.feedback_down),
        searches: sum(|d| d.searches),
        page_views: sum(|d| d.page_views),
        support_shown: sum(|d| d.support_shown),
        support_followed: sum(|d| d.support_followed),
    };
    let questions = |list: Vec<LabelCount>| {
        list.into_iter()
            .map(|r| QuestionCount {
                question: r.label,
                count: r.count,
            })
            .collect()
    };
    let pages = |list: Vec<LabelCount>| {
        list.into_iter()
            .map(|r| PageCount {
                path: r.label,
                count: r.count,
            })
            .collect()
    };
    AnalyticsReport {
        domain: domain.to_string(),
        from: range.first_day(),
        to: range.last_day(),
        totals,
        days,
        first_byte_ms: Percentiles {
            p50: percentile(&rows.first_byte, 50),
            p95: percentile(&rows.first_byte, 95),
        },
        top_questions: questions(rows.top_questions),
        coverage_gaps: questions(rows.coverage_gaps),
        top_cited_pages: pages(rows.cited_pages),
        zero_result_searches: rows
            .zero_result_searches
            .into_iter()
            .map(|r| QueryCount {
                query: r.label,
                count: r.count,
            })
            .collect(),
        page_views: pages(rows.page_views),
    }
}

/// Nearest-rank percentile: the smallest value with at least `p`% of the observations at or below it.
pub fn percentile(histogram: &[Bucket], p: u32) -> Option<u64> {
    let mut buckets: Vec<&Bucket> = histogram.iter().filter(|b| b.count > 0).collect();
    crate::sort::sort_by_key(&mut buckets, |b| b.value);
    let total: u64 = buckets.iter().map(|b| b.count).sum();
    if total == 0 {
        return None;
    }
    let rank = (u64::from(p.clamp(1, 100)) * total).div_ceil(100);
    let mut seen = 0;
    for bucket in buckets {
        seen += bucket.count;
        if seen >= rank {
            return Some(bucket.value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(value: u64, count: u64) -> Bucket {
        Bucket { value, count }
    }

    #[test]
    fn percentiles_are_nearest_rank_over_the_histogram() {
        assert_eq!(percentile(&[], 50), None);
        assert_eq!(percentile(&[b(7, 1)], 95), Some(7));
        // 1..=100 once each: p50 = 50, p95 = 95.
        let all: Vec<Bucket> = (1..=100).rev().map(|v| b(v, 1)).collect();
        assert_eq!(
            (percentile(&all, 50), percentile(&all, 95)),
            (Some(50), Some(95))
        );
        // 19 fast answers and one slow one: the slow one is beyond p95.
        assert_eq!(percentile(&[b(900, 1), b(10, 19)], 95), Some(10));
        assert_eq!(percentile(&[b(900, 2), b(10, 18)], 95), Some(900));
    }

    #[test]
    fn days_are_filled_and_rows_of_one_day_add_up() {
        let range = DayRange::parse(Some("2026-01-01"), Some("2026-01-03"), 0).unwrap();
        let rows = ReportRows {
            days: vec![
                DayRow {
                    day: "2026-01-02".into(),
                    conversations: 2,
                    questions: 5,
                    ..DayRow::default()
                },
                DayRow {
                    day: "2026-01-02".into(),
                    up: 3,
                    down: 1,
                    ..DayRow::default()
                },
                DayRow {
                    day: "2026-01-03".into(),
                    searches: 4,
                    page_views: 9,
                    support_shown: 3,
                    support_followed: 1,
                    ..DayRow::default()
                },
            ],
            first_byte: vec![b(12, 5)],
            unanswered: 1,
            uncertain: 2,
            top_questions: vec![LabelCount {
                label: "How?".into(),
                count: 3,
            }],
            ..ReportRows::default()
        };
        let report = build_report("docs.example.com", &range, rows);
        assert_eq!(report.days.len(), 3);
        assert_eq!(
            report.days[0],
            DayCounts {
                day: "2026-01-01".into(),
                ..DayCounts::default()
            }
        );
        assert_eq!(
            (
                report.days[1].questions,
                report.days[1].feedback_up,
                report.days[1].feedback_down
            ),
            (5, 3, 1)
        );
        assert_eq!(report.days[2].page_views, 9);
        assert_eq!(
            report.totals,
            Totals {
                conversations: 2,
                questions: 5,
                unanswered: 1,
                uncertain: 2,
                feedback_up: 3,
                feedback_down: 1,
                searches: 4,
                page_views: 9,
                support_shown: 3,
                support_followed: 1
            }
        );
        assert_eq!(
            report.first_byte_ms,
            Percentiles {
                p50: Some(12),
                p95: Some(12)
            }
        );
        assert_eq!(report.top_questions[0].question, "How?");
        assert_eq!(
            (report.from.as_str(), report.to.as_str()),
            ("2026-01-01", "2026-01-03")
        );
    }
}
