//! JSON shapes of the analytics API (`GET /v1/analytics/{domain}`) and of assistant feedback,
//! shared by the worker and the SDK.

use serde::{Deserialize, Serialize};

/// `POST /discovery/v1/assistant/{domain}/feedback` answers with what it stored.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackReceipt {
    pub thread_id: String,
    pub message_id: String,
    pub rating: String,
    pub created_at: String,
}

/// The analytics report of one domain over `from..=to` (UTC days).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AnalyticsReport {
    pub domain: String,
    pub from: String,
    pub to: String,
    pub totals: Totals,
    /// One entry per day of the range, oldest first, zero days included.
    pub days: Vec<DayCounts>,
    /// Time to the answer's first byte, in milliseconds; `null` without answers.
    pub first_byte_ms: Percentiles,
    /// Questions grouped by their normalised text, most asked first.
    pub top_questions: Vec<QuestionCount>,
    /// Questions answered without a relevant source, or with only the closest one (uncertain): the
    /// documentation's coverage gaps.
    pub coverage_gaps: Vec<QuestionCount>,
    pub top_cited_pages: Vec<PageCount>,
    /// Searches from exported pages that found nothing, grouped by query.
    pub zero_result_searches: Vec<QueryCount>,
    pub page_views: Vec<PageCount>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub conversations: u64,
    pub questions: u64,
    pub unanswered: u64,
    /// Answered with the closest passage only ("The docs don't state this directly; …").
    pub uncertain: u64,
    pub feedback_up: u64,
    pub feedback_down: u64,
    pub searches: u64,
    pub page_views: u64,
    /// Times the widget showed its support link, and times a reader followed it.
    #[serde(default)]
    pub support_shown: u64,
    #[serde(default)]
    pub support_followed: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct DayCounts {
    pub day: String,
    pub conversations: u64,
    pub questions: u64,
    pub feedback_up: u64,
    pub feedback_down: u64,
    pub searches: u64,
    pub page_views: u64,
    /// Times the widget showed its support link, and times a reader followed it.
    #[serde(default)]
    pub support_shown: u64,
    #[serde(default)]
    pub support_followed: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Percentiles {
    pub p50: Option<u64>,
    pub p95: Option<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct QuestionCount {
    /// One of the grouped questions as asked (the most recent).
    pub question: String,
    pub count: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct PageCount {
    pub path: String,
    pub count: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct QueryCount {
    pub query: String,
    pub count: u64,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum FeedbackRating {
    Up,
    Down,
}

/// The body of `POST /discovery/v1/assistant/{domain}/feedback`, as clients build it (the worker
/// checks the same rules field by field in `analytics::input`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct FeedbackRequest {
    pub thread_id: String,
    pub message_id: String,
    pub rating: FeedbackRating,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}
