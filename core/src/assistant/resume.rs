//! Resumable answers (v2, opt-in): the bookkeeping of a chat's in-flight answer, without I/O.
//!
//! The worker's chat Durable Object generates the answer and appends every encoded chunk to a
//! [`Journal`]: a byte log cut into entries of about [`ENTRY_BYTES`], each stored as its own value, so
//! a replay reads a few small values instead of the whole answer in one. Readers (the request that
//! started the answer, and any `GET …/{chatId}/stream` after it) hold a byte offset into the log and
//! ask for [`Journal::plan`] from it: which stored entries to fetch and how much of the open (not yet
//! stored) tail to take. The log is bounded by [`MAX_JOURNAL_BYTES`]; an answer that would outgrow it
//! is stopped there.
//!
//! [`ChatRecord`] is what the object keeps about its chat: the owner (fixed when the chat is first
//! used), and the current generation's state, so a reader can tell "still running", "ended within
//! [`RESUME_WINDOW_MS`]" (replay it) and "nothing to resume" (`204`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::http::validate::{object, FieldError, Path};

/// An entry is sealed (stored) once its open tail reaches this many bytes.
pub const ENTRY_BYTES: usize = 8 * 1024;
/// The most a journal holds: far above a 1,024-token answer's few tens of KB of SSE, so only a
/// runaway backend reaches it.
pub const MAX_JOURNAL_BYTES: u64 = 1 << 20;
/// Room kept for an answer's end once the journal is nearly full: the generation is stopped when
/// less than this is left, so its finish chunk and `[DONE]` still fit.
pub const END_RESERVE_BYTES: u64 = 64 * 1024;
/// A finished answer stays resumable this long after its end, by default.
pub const RESUME_WINDOW_MS: u64 = 60_000;
/// A chat id the client chooses (AI SDK `useChat({ id })`, default a 16-character id): at most this long.
pub const MAX_CHAT_ID_CHARS: usize = 128;

/// Whether `id` may name a chat: 1 to [`MAX_CHAT_ID_CHARS`] characters, none of them a control
/// character, `/` or whitespace (it travels as one path segment). The rule, for error messages.
pub fn check_chat_id(id: &str) -> Result<(), &'static str> {
    if id.is_empty() || id.chars().count() > MAX_CHAT_ID_CHARS {
        return Err("must be 1 to 128 characters");
    }
    if id == "."
        || id == ".."
        || id
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '/')
    {
        return Err(
            "must be one path segment: no '/', whitespace or control characters, not '.' or '..'",
        );
    }
    Ok(())
}

/// The chat a v2 request's answer is resumable under, when it opts in: `"resumable": true` with the
/// chat's `id` (what `DefaultChatTransport` sends as `id`, and later puts in `GET {api}/{id}/stream`).
/// Without `resumable` (or `false`) the answer is bound to its request, as before.
pub fn resumable_chat(body: &Value) -> Result<Option<String>, FieldError> {
    let root = object(body, &Path::root())?;
    if root.opt_bool("resumable")? != Some(true) {
        return Ok(None);
    }
    let id = root.opt_str("id")?.ok_or_else(|| {
        root.field_path("id")
            .error("is required when resumable is true (the chat id)")
    })?;
    check_chat_id(id).map_err(|rule| root.field_path("id").error(rule))?;
    Ok(Some(id.to_string()))
}

/// One sealed entry, to be stored under its sequence number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub seq: usize,
    pub text: String,
}

/// The journal would pass [`MAX_JOURNAL_BYTES`]: the chunk was not appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JournalFull;

/// The byte log of one answer: sealed entries (stored) and the open tail (in memory).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Journal {
    /// End offset of each sealed entry: entry `i` spans `sealed_ends[i-1]` (or 0) to `sealed_ends[i]`.
    sealed_ends: Vec<u64>,
    open: String,
    limit: u64,
}

/// What a reader at some offset reads next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadPlan {
    /// Stored entries to fetch, in order, each with the bytes to skip at its start.
    pub stored: Vec<(usize, usize)>,
    /// Bytes of the open tail to skip, when the read reaches into it.
    pub open_skip: Option<usize>,
}

impl Journal {
    pub fn new() -> Self {
        Journal {
            sealed_ends: Vec::new(),
            open: String::new(),
            limit: MAX_JOURNAL_BYTES,
        }
    }

    /// A journal whose entries were all stored, as an object that lost its memory finds it.
    pub fn from_sealed(sealed_ends: Vec<u64>) -> Self {
        Journal {
            sealed_ends,
            open: String::new(),
            limit: MAX_JOURNAL_BYTES,
        }
    }

    #[cfg(test)]
    fn with_limit(limit: u64) -> Self {
        Journal {
            limit,
            ..Journal::new()
        }
    }

    pub fn sealed_ends(&self) -> &[u64] {
        &self.sealed_ends
    }

    fn sealed_len(&self) -> u64 {
        self.sealed_ends.last().copied().unwrap_or(0)
    }

    /// Every byte appended so far.
    pub fn len(&self) -> u64 {
        self.sealed_len() + self.open.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Time to stop the generation: only [`END_RESERVE_BYTES`] are left.
    pub fn nearly_full(&self) -> bool {
        self.len() + END_RESERVE_BYTES >= self.limit
    }

    /// Appends one whole chunk; the entry it sealed, if the open tail reached [`ENTRY_BYTES`].
    pub fn append(&mut self, chunk: &str) -> Result<Option<Entry>, JournalFull> {
        if self.len() + chunk.len() as u64 > self.limit {
            return Err(JournalFull);
        }
        self.open.push_str(chunk);
        Ok(if self.open.len() >= ENTRY_BYTES {
            self.seal()
        } else {
            None
        })
    }

    /// Seals the open tail (at the end of the answer, so everything is stored).
    pub fn seal(&mut self) -> Option<Entry> {
        if self.open.is_empty() {
            return None;
        }
        let text = std::mem::take(&mut self.open);
        self.sealed_ends.push(self.sealed_len() + text.len() as u64);
        Some(Entry {
            seq: self.sealed_ends.len() - 1,
            text,
        })
    }

    /// The open tail from `skip` on, when `skip` is a character boundary inside it.
    pub fn open_from(&self, skip: usize) -> Option<&str> {
        self.open.get(skip..)
    }

    /// What a reader at byte `from` reads: every stored entry from the one holding `from` (at most
    /// `max_entries` of them), then the open tail when the read gets there. `None` for an offset past
    /// the end.
    pub fn plan(&self, from: u64, max_entries: usize) -> Option<ReadPlan> {
        if from > self.len() {
            return None;
        }
        let mut stored = Vec::new();
        let mut start = 0u64;
        for (seq, &end) in self.sealed_ends.iter().enumerate() {
            if end > from {
                if stored.len() == max_entries.max(1) {
                    return Some(ReadPlan {
                        stored,
                        open_skip: None,
                    });
                }
                stored.push((seq, from.saturating_sub(start) as usize));
            }
            start = end;
        }
        let open_skip = from.saturating_sub(self.sealed_len()) as usize;
        Some(ReadPlan {
            stored,
            open_skip: (open_skip < self.open.len()).then_some(open_skip),
        })
    }
}

/// How the chat's current generation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GenerationState {
    Running,
    /// Ended with its finish (or error) chunk and `[DONE]`.
    Ended,
    /// The object lost the generation (evicted or restarted) before it ended: what was stored is
    /// replayed, then the [`interrupted`](GenerationRecord::interrupted) end.
    Interrupted,
}

/// The chat's current (or last) generation, as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GenerationRecord {
    pub message_id: String,
    pub thread_id: String,
    pub state: GenerationState,
    pub ended_ms: Option<u64>,
    pub sealed_ends: Vec<u64>,
}

/// What one chat's object keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChatRecord {
    pub org_id: String,
    pub domain: String,
    pub chat_id: String,
    pub generation: Option<GenerationRecord>,
}

/// What a reader of the chat gets at some moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resumable {
    /// A generation is running, or ended within the window: replay it.
    Yes,
    /// Nothing was generated, or it ended more than [`RESUME_WINDOW_MS`] ago: `204`.
    Nothing,
}

impl ChatRecord {
    pub fn owned_by(&self, org_id: &str, domain: &str) -> bool {
        self.org_id == org_id && self.domain == domain
    }

    /// Whether a reader arriving at `now_ms` gets a replay; `window_ms` is how long an ended answer stays.
    pub fn resumable(&self, now_ms: u64, window_ms: u64) -> Resumable {
        match &self.generation {
            Some(g) if g.state == GenerationState::Running => Resumable::Yes,
            Some(g)
                if g.ended_ms
                    .is_some_and(|end| now_ms.saturating_sub(end) < window_ms) =>
            {
                Resumable::Yes
            }
            _ => Resumable::Nothing,
        }
    }

    /// True when the stored journal should be deleted: the window after the end has passed.
    pub fn expired(&self, now_ms: u64, window_ms: u64) -> bool {
        matches!(&self.generation, Some(g) if g.ended_ms.is_some_and(|end| now_ms.saturating_sub(end) >= window_ms))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(journal: &Journal, stored: &[String], from: u64, max_entries: usize) -> String {
        let plan = journal.plan(from, max_entries).unwrap();
        let mut out = String::new();
        for (seq, skip) in plan.stored {
            out.push_str(&stored[seq][skip..]);
        }
        if let Some(skip) = plan.open_skip {
            out.push_str(journal.open_from(skip).unwrap());
        }
        out
    }

    #[test]
    fn entries_seal_at_the_entry_size_and_a_replay_reads_every_byte_once() {
        let mut journal = Journal::new();
        let mut stored = Vec::new();
        let mut whole = String::new();
        for i in 0..500 {
            let chunk = format!("data: {{\"type\":\"text-delta\",\"delta\":\"{i} é\"}}\n\n");
            whole.push_str(&chunk);
            if let Some(entry) = journal.append(&chunk).unwrap() {
                assert_eq!(entry.seq, stored.len());
                assert!(
                    entry.text.len() >= ENTRY_BYTES && entry.text.len() < ENTRY_BYTES + chunk.len()
                );
                stored.push(entry.text);
            }
        }
        assert!(stored.len() >= 2, "several stored entries");
        assert_eq!(journal.len(), whole.len() as u64);
        assert_eq!(
            read_all(&journal, &stored, 0, usize::MAX),
            whole,
            "replay from the start"
        );

        // A reader following live: reads up to the end, more is appended, it reads on from its offset.
        let mut cursor = 0u64;
        let mut seen = String::new();
        for step in 0..40 {
            let got = read_all(&journal, &stored, cursor, 2);
            cursor += got.len() as u64;
            seen.push_str(&got);
            let chunk = format!("data: {{\"step\":{step}}}\n\n");
            whole.push_str(&chunk);
            if let Some(entry) = journal.append(&chunk).unwrap() {
                stored.push(entry.text);
            }
        }
        if let Some(entry) = journal.seal() {
            stored.push(entry.text);
        }
        while cursor < journal.len() {
            let got = read_all(&journal, &stored, cursor, 2);
            assert!(!got.is_empty());
            cursor += got.len() as u64;
            seen.push_str(&got);
        }
        assert_eq!(seen, whole, "no byte twice, none missing");
        assert_eq!(
            journal.plan(journal.len(), 2),
            Some(ReadPlan {
                stored: vec![],
                open_skip: None
            })
        );
        assert_eq!(journal.plan(journal.len() + 1, 2), None);
    }

    #[test]
    fn a_journal_rebuilt_from_its_stored_ends_plans_the_same_reads() {
        let mut journal = Journal::new();
        for _ in 0..3 {
            journal.append(&"x".repeat(ENTRY_BYTES)).unwrap();
        }
        let rebuilt = Journal::from_sealed(journal.sealed_ends().to_vec());
        assert_eq!(rebuilt.len(), journal.len());
        assert_eq!(
            rebuilt.plan(ENTRY_BYTES as u64 + 5, 9),
            journal.plan(ENTRY_BYTES as u64 + 5, 9)
        );
        assert_eq!(
            rebuilt.plan(ENTRY_BYTES as u64 + 5, 9).unwrap().stored,
            vec![(1, 5), (2, 0)]
        );
    }

    #[test]
    fn the_journal_is_bounded_by_bytes() {
        let mut journal = Journal::with_limit(END_RESERVE_BYTES + 10);
        assert!(!journal.nearly_full());
        assert!(journal.append("0123456789").is_ok());
        assert!(
            journal.nearly_full(),
            "stop generating: only the end's reserve is left"
        );
        assert!(
            journal
                .append(&"e".repeat(END_RESERVE_BYTES as usize))
                .is_ok(),
            "the end still fits"
        );
        assert_eq!(journal.append("x"), Err(JournalFull));
        assert_eq!(
            journal.len(),
            END_RESERVE_BYTES + 10,
            "the refused chunk is not half-appended"
        );
    }

    #[test]
    fn a_chat_is_resumable_while_running_and_for_the_window_after_its_end() {
        let mut chat = ChatRecord {
            org_id: "o".into(),
            domain: "d".into(),
            chat_id: "c".into(),
            generation: None,
        };
        assert_eq!(chat.resumable(0, RESUME_WINDOW_MS), Resumable::Nothing);
        chat.generation = Some(GenerationRecord {
            message_id: "m".into(),
            thread_id: "t".into(),
            state: GenerationState::Running,
            ended_ms: None,
            sealed_ends: vec![],
        });
        assert_eq!(chat.resumable(1_000_000, RESUME_WINDOW_MS), Resumable::Yes);
        let g = chat.generation.as_mut().unwrap();
        g.state = GenerationState::Ended;
        g.ended_ms = Some(5_000);
        assert_eq!(
            chat.resumable(5_000 + RESUME_WINDOW_MS - 1, RESUME_WINDOW_MS),
            Resumable::Yes
        );
        assert!(!chat.expired(5_000 + RESUME_WINDOW_MS - 1, RESUME_WINDOW_MS));
        assert_eq!(
            chat.resumable(5_000 + RESUME_WINDOW_MS, RESUME_WINDOW_MS),
            Resumable::Nothing
        );
        assert!(chat.expired(5_000 + RESUME_WINDOW_MS, RESUME_WINDOW_MS));
        assert!(
            chat.owned_by("o", "d") && !chat.owned_by("o", "other") && !chat.owned_by("x", "d")
        );
    }

    #[test]
    fn only_an_explicit_opt_in_makes_an_answer_resumable() {
        use serde_json::json;
        assert_eq!(resumable_chat(&json!({"id": "c1"})).unwrap(), None);
        assert_eq!(
            resumable_chat(&json!({"id": "c1", "resumable": false})).unwrap(),
            None
        );
        assert_eq!(
            resumable_chat(&json!({"id": "c1", "resumable": true})).unwrap(),
            Some("c1".into())
        );
        assert_eq!(
            resumable_chat(&json!({"resumable": "yes"}))
                .unwrap_err()
                .to_string(),
            "resumable: must be a boolean"
        );
        assert!(resumable_chat(&json!({"resumable": true}))
            .unwrap_err()
            .to_string()
            .starts_with("id: is required"));
        assert!(resumable_chat(&json!({"resumable": true, "id": "a/b"}))
            .unwrap_err()
            .to_string()
            .starts_with("id: must be one path segment"));
    }

    #[test]
    fn chat_ids_are_one_bounded_path_segment() {
        assert!(check_chat_id("kX3hP0qLr7TzW1aB").is_ok());
        assert!(check_chat_id("3f2b7c1e-9d4a-4c55-8a0e-0123456789ab").is_ok());
        for bad in [
            "",
            ".",
            "..",
            "a/b",
            "a b",
            "a\nb",
            &"x".repeat(MAX_CHAT_ID_CHARS + 1),
        ] {
            assert!(check_chat_id(bad).is_err(), "{bad:?}");
        }
    }
}
