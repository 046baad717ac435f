//! Request bodies of `POST …/assistant/{domain}/feedback` and `POST …/analytics/{domain}/events`.

use serde_json::Value;

use crate::http::validate::{max_items, object, FieldError, Path};
use crate::privacy::Masker;

pub const MAX_ID_CHARS: usize = 100;
pub const MAX_COMMENT_CHARS: usize = 2000;
pub const MAX_EVENTS: usize = 20;
pub const MAX_PATH_CHARS: usize = 512;
pub const MAX_QUERY_CHARS: usize = 200;
pub const MAX_RESULT_COUNT: u32 = 1_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rating {
    Up,
    Down,
}

impl Rating {
    pub fn as_str(self) -> &'static str {
        match self {
            Rating::Up => "up",
            Rating::Down => "down",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    pub thread_id: String,
    pub message_id: String,
    pub rating: Rating,
    pub comment: Option<String>,
}

/// The comment comes back masked (`crate::privacy`): it is only ever stored.
pub fn parse_feedback(body: &Value, masker: &Masker) -> Result<Feedback, FieldError> {
    let obj = object(body, &Path::root())?;
    let thread_id = obj.req_str_max("threadId", MAX_ID_CHARS)?.to_string();
    let message_id = obj.req_str_max("messageId", MAX_ID_CHARS)?.to_string();
    let rating = match obj.req_enum("rating", &["up", "down"])? {
        "up" => Rating::Up,
        _ => Rating::Down,
    };
    let comment = obj
        .opt_str_max("comment", MAX_COMMENT_CHARS)?
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| masker.mask(c).into_text());
    Ok(Feedback {
        thread_id,
        message_id,
        rating,
        comment,
    })
}

/// One web-analytics event from an exported page, or from the widget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    PageView {
        path: String,
    },
    Search {
        path: String,
        query: String,
        result_count: u32,
    },
    /// The widget showed its support link (under an unanswered or uncertain answer, or after a
    /// thumbs-down) on the page at `path`.
    SupportShown {
        path: String,
    },
    /// The reader followed that link.
    SupportFollowed {
        path: String,
    },
}

impl Event {
    /// The `kind` the analytics tables store it under.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::PageView { .. } => "pageview",
            Event::Search { .. } => "search",
            Event::SupportShown { .. } => "support_shown",
            Event::SupportFollowed { .. } => "support_followed",
        }
    }
}

/// `{"events": [{"type": "pageview", "path"}, {"type": "search", "path", "query", "resultCount"},
/// {"type": "support_shown", "path"}, {"type": "support_followed", "path"}]}`.
/// Search queries come back masked (`crate::privacy`): they are only ever stored.
pub fn parse_events(body: &Value, masker: &Masker) -> Result<Vec<Event>, FieldError> {
    let obj = object(body, &Path::root())?;
    let items = obj.req_array("events")?;
    let list_path = obj.field_path("events");
    max_items(items, MAX_EVENTS, &list_path)?;
    let mut events = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let event = object(item, &list_path.index(i))?;
        let path = normalise_path(event.req_str_max("path", MAX_PATH_CHARS)?);
        events.push(
            match event.req_enum(
                "type",
                &["pageview", "search", "support_shown", "support_followed"],
            )? {
                "pageview" => Event::PageView { path },
                "support_shown" => Event::SupportShown { path },
                "support_followed" => Event::SupportFollowed { path },
                _ => {
                    let query = event
                        .req_str_max("query", MAX_QUERY_CHARS)?
                        .trim()
                        .to_string();
                    if query.is_empty() {
                        return Err(event.field_path("query").error("must not be empty"));
                    }
                    let count = crate::http::validate::integer_in(
                        event.req_number("resultCount")?,
                        0,
                        MAX_RESULT_COUNT,
                        &event.field_path("resultCount"),
                    )?;
                    Event::Search {
                        path,
                        query: masker.mask(&query).into_text(),
                        result_count: count,
                    }
                }
            },
        );
    }
    Ok(events)
}

/// Page paths as the report lists them: no query or fragment, no `.html`, `index` for the home page.
pub fn normalise_path(raw: &str) -> String {
    let path = raw.split(['?', '#']).next().unwrap_or("");
    let path = path.trim_matches('/');
    let path = path.strip_suffix(".html").unwrap_or(path);
    let path = path.strip_suffix("/index").unwrap_or(path);
    if path.is_empty() {
        "index".into()
    } else {
        path.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn feedback_is_read_and_its_rules_name_the_field() {
        let ok = parse_feedback(&json!({"threadId": "thr_1", "messageId": "msg_1", "rating": "down", "comment": "  wrong  "}), &Masker::default()).unwrap();
        assert_eq!(ok.rating, Rating::Down);
        assert_eq!(ok.comment.as_deref(), Some("wrong"));
        let err = |body: Value| {
            parse_feedback(&body, &Masker::default())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(json!({"threadId": "t", "messageId": "m", "rating": "meh"})),
            "rating: must be one of up, down"
        );
        assert_eq!(
            err(json!({"threadId": "t", "rating": "up"})),
            "messageId: is required"
        );
        assert_eq!(
            err(
                json!({"threadId": "t", "messageId": "m", "rating": "up", "comment": "x".repeat(2001)})
            ),
            "comment: must be at most 2000 characters"
        );
        assert!(parse_feedback(
            &json!({"threadId": "t", "messageId": "m", "rating": "up", "comment": null}),
            &Masker::default()
        )
        .unwrap()
        .comment
        .is_none());
        let masked = parse_feedback(
            &json!({"threadId": "t", "messageId": "m", "rating": "down", "comment": "mail me: jane@example.com"}),
            &Masker::default(),
        );
        assert_eq!(masked.unwrap().comment.as_deref(), Some("mail me: [email]"));
    }

    #[test]
    fn events_are_bounded_and_paths_normalised() {
        let events = parse_events(
            &json!({"events": [
                {"type": "pageview", "path": "/guides/setup.html?x=1#top"},
                {"type": "search", "path": "/", "query": " rate limits ", "resultCount": 0},
                {"type": "search", "path": "/", "query": "key svc_0123456789abcdef", "resultCount": 0},
            ]}),
            &Masker::default(),
        )
        .unwrap();
        assert_eq!(
            events[0],
            Event::PageView {
                path: "guides/setup".into()
            }
        );
        assert_eq!(
            events[1],
            Event::Search {
                path: "index".into(),
                query: "rate limits".into(),
                result_count: 0
            }
        );
        assert_eq!(
            events[2],
            Event::Search {
                path: "index".into(),
                query: "key [secret]".into(),
                result_count: 0
            }
        );
        let support = parse_events(&json!({"events": [{"type": "support_shown", "path": "/a"}, {"type": "support_followed", "path": "/a"}]}), &Masker::default()).unwrap();
        assert_eq!(
            support.iter().map(Event::kind).collect::<Vec<_>>(),
            ["support_shown", "support_followed"]
        );
        let err = |body: Value| {
            parse_events(&body, &Masker::default())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(json!({"events": [{"type": "click", "path": "/"}]})),
            "events[0].type: must be one of pageview, search, support_shown, support_followed"
        );
        assert_eq!(
            err(
                json!({"events": [{"type": "search", "path": "/", "query": "q", "resultCount": -1}]})
            ),
            "events[0].resultCount: must be an integer from 0 to 1000000"
        );
        let many: Vec<Value> = (0..21)
            .map(|_| json!({"type": "pageview", "path": "/"}))
            .collect();
        assert_eq!(
            err(json!({ "events": many })),
            "events: must have at most 20 items"
        );
        assert_eq!(normalise_path("/a/index.html"), "a");
        assert_eq!(normalise_path("/index.html"), "index");
    }
}
