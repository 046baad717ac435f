//! One answer as a sans-IO pipeline: the caller (the worker, a native server) feeds it the retrieved
//! passages and the backend's events and moves the bytes it returns; the session owns the encoding,
//! the cited sources, the text, usage and finish reason, and what the thread stores.
//!
//! Order of use: [`AnswerSession::start`] (before retrieval, so the first bytes go out at once),
//! [`AnswerSession::cite`], then text ([`AnswerSession::text`] or [`AnswerSession::on_llm_event`],
//! with [`AnswerSession::keep_alive`] while a backend is silent), then [`AnswerSession::outcome`]:
//! record the thread, and send [`AnswerSession::finish`] or [`AnswerSession::fail`].

use crate::assistant::encode::{estimate_tokens, AnswerEncoder, Protocol, SourceRef};
use crate::assistant::extractive::compose_answer;
use crate::assistant::passage::Passage;
use crate::assistant::providers::LlmEvent;
use crate::assistant::refusal::opens_with_refusal;
use crate::assistant::suggest::follow_ups;
use crate::privacy::{Masked, Masker};
use crate::stream::{FinishReason, Usage};
use crate::wire::thread::{StoredMessage, StoredSource};

/// A cited page, as the thread stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CitedSource {
    /// The page's site path.
    pub id: String,
    pub url: String,
    pub title: String,
}

/// What a finished answer adds to its thread.
#[derive(Debug, Clone, PartialEq)]
pub struct CompletedAnswer {
    pub message_id: String,
    pub text: String,
    pub sources: Vec<CitedSource>,
    pub reason: FinishReason,
    pub usage: Usage,
    /// The answer quotes the closest passage, saying the docs do not state it directly.
    pub uncertain: bool,
    /// The answer says the docs do not cover the question (it opens with `refusal`'s sentence), or
    /// the provider refused to answer: the finish says `"unanswered": true`.
    pub unanswered: bool,
}

impl CompletedAnswer {
    /// The pages the answer cites, each once, in the order first cited (analytics count pages; the
    /// sources are sections).
    pub fn cited_pages(&self) -> Vec<String> {
        let mut pages: Vec<String> = Vec::new();
        for source in &self.sources {
            if !pages.contains(&source.id) {
                pages.push(source.id.clone());
            }
        }
        pages
    }

    /// The question and this answer as the thread stores them. The answer keeps the id the client
    /// saw on `start` (v2) or `f:` (v1), so feedback can name it; the question keeps the client's id.
    /// Both masked: the question as asked, the answer where it repeats the reader's data.
    pub fn thread_messages(
        &self,
        question_id: Option<&str>,
        question: &Masked,
        now: &str,
    ) -> Vec<StoredMessage> {
        let user = StoredMessage {
            id: question_id.map(str::to_string),
            role: "user".into(),
            content: question.as_str().to_string(),
            created_at: now.to_string(),
            sources: Vec::new(),
        };
        let sources = self
            .sources
            .iter()
            .map(|s| StoredSource {
                id: s.id.clone(),
                url: s.url.clone(),
                title: s.title.clone(),
            })
            .collect();
        let content = question.mask_echoes(&self.text).into_owned();
        let assistant = StoredMessage {
            id: Some(self.message_id.clone()),
            role: "assistant".into(),
            content,
            created_at: now.to_string(),
            sources,
        };
        vec![user, assistant]
    }
}

/// What the caller does after an event.
#[derive(Debug, PartialEq, Eq)]
pub enum Next {
    /// Send these bytes (possibly none) and keep feeding events.
    Continue(String),
    /// The backend ended (finished or failed): ask [`AnswerSession::outcome`].
    Done,
}

#[derive(Debug)]
pub struct AnswerSession {
    encoder: AnswerEncoder,
    text: String,
    sources: Vec<CitedSource>,
    finish: Option<(FinishReason, Usage)>,
    failure: Option<String>,
    /// The sections an extractive answer quoted, which no follow-up repeats.
    quoted: Vec<Passage>,
}

impl AnswerSession {
    pub fn new(
        protocol: Protocol,
        message_id: impl Into<String>,
        thread_id: impl Into<String>,
    ) -> Self {
        AnswerSession {
            encoder: AnswerEncoder::new(protocol, message_id, thread_id),
            text: String::new(),
            sources: Vec::new(),
            finish: None,
            failure: None,
            quoted: Vec::new(),
        }
    }

    pub fn message_id(&self) -> &str {
        self.encoder.message_id()
    }

    pub fn start(&mut self) -> String {
        self.encoder.start()
    }

    /// Cites the sections of `passages[indices]`, in order: source `n` is what the text cites as
    /// `[n]` (the extractive answer's `[n]`, a model's numbered passage), so a client links each
    /// citation to its own section, even where two cited sections share a page.
    pub fn cite(
        &mut self,
        query: &str,
        passages: &[Passage],
        indices: impl IntoIterator<Item = usize>,
    ) -> String {
        for i in indices {
            let Some(passage) = passages.get(i) else {
                continue;
            };
            // A skill (`guide`) has no page to cite, and the prompt does not number it.
            if passage.url.is_empty() {
                continue;
            }
            self.sources.push(CitedSource {
                id: passage.path.clone(),
                url: passage.link(),
                title: passage.label(),
            });
        }
        let refs: Vec<SourceRef> = self
            .sources
            .iter()
            .map(|s| SourceRef {
                url: &s.url,
                title: &s.title,
            })
            .collect();
        self.encoder.sources(query, &refs)
    }

    /// Text composed without a provider (the extractive backend).
    pub fn text(&mut self, delta: &str) -> String {
        self.text.push_str(delta);
        self.encoder.text(delta)
    }

    /// Ends a provider-less answer with its own usage.
    pub fn complete(&mut self, usage: Usage) {
        self.finish = Some((FinishReason::Stop, usage));
    }

    /// A whole answer composed from the passages, without a provider: the sources part, then the
    /// text parts, in order (empty parts left out). Complete: [`AnswerSession::outcome`] follows.
    pub fn extractive(&mut self, query: &str, passages: &[Passage], question: &str) -> Vec<String> {
        let answer = compose_answer(query, passages);
        if answer.uncertain {
            self.encoder.mark_uncertain();
        }
        if !answer.covered {
            self.encoder.mark_unanswered();
        }
        self.quoted = answer
            .sources
            .iter()
            .filter_map(|&i| passages.get(i))
            .cloned()
            .collect();
        let mut parts = vec![self.cite(query, passages, answer.sources.iter().copied())];
        for chunk in &answer.chunks {
            parts.push(self.text(chunk));
        }
        let prompt_text = passages.iter().map(|p| p.text.len()).sum::<usize>() + question.len();
        self.complete(Usage {
            prompt_tokens: (prompt_text as u64).div_ceil(4),
            completion_tokens: estimate_tokens(&answer.text()),
        });
        parts.retain(|p| !p.is_empty());
        parts
    }

    /// Offers follow-ups built from the retrieved `passages` (pages, never skills) with the finish:
    /// the quoted sections left out, or for a model's answer the top one.
    pub fn suggest(&mut self, question: &str, passages: &[Passage]) {
        let answered: Vec<usize> = passages
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                self.quoted
                    .iter()
                    .any(|q| q.path == p.path && q.heading == p.heading)
            })
            .map(|(i, _)| i)
            .collect();
        self.encoder
            .suggest(follow_ups(question, passages, &answered));
    }

    /// The site's support link, for the finish ([`AnswerEncoder::offer_support`]).
    pub fn offer_support(&mut self, link: Option<String>) {
        self.encoder.offer_support(link);
    }

    pub fn on_llm_event(&mut self, event: LlmEvent) -> Next {
        match event {
            LlmEvent::TextDelta(delta) => Next::Continue(self.text(&delta)),
            LlmEvent::Finish {
                reason,
                prompt_tokens,
                completion_tokens,
            } => {
                let usage = Usage {
                    prompt_tokens: prompt_tokens.map(u64::from).unwrap_or(0),
                    completion_tokens: completion_tokens
                        .map(u64::from)
                        .unwrap_or_else(|| estimate_tokens(&self.text)),
                };
                self.finish = Some((FinishReason::from_ai_sdk(&reason), usage));
                Next::Continue(String::new())
            }
            LlmEvent::Error(message) => {
                // For the log only; a provider's message may quote the reader's prompt.
                self.failure = Some(Masker::default().mask(&message).into_text());
                Next::Done
            }
        }
    }

    /// A transport failure the caller saw (the provider unreachable, the body broken).
    pub fn on_backend_error(&mut self, detail: String) {
        self.failure.get_or_insert(detail);
    }

    pub fn keep_alive(&self) -> &'static str {
        self.encoder.keep_alive()
    }

    /// The finished answer, or the internal reason it failed (for the log only, never the client).
    pub fn outcome(&self) -> Result<CompletedAnswer, String> {
        if let Some(detail) = &self.failure {
            return Err(detail.clone());
        }
        let (reason, usage) = self.finish.unwrap_or((
            FinishReason::Stop,
            Usage {
                prompt_tokens: 0,
                completion_tokens: estimate_tokens(&self.text),
            },
        ));
        Ok(CompletedAnswer {
            message_id: self.message_id().to_string(),
            text: self.text.clone(),
            sources: self.sources.clone(),
            reason,
            usage,
            uncertain: self.encoder.is_uncertain(),
            unanswered: self.encoder.is_unanswered()
                || reason == FinishReason::ContentFilter
                || opens_with_refusal(&self.text),
        })
    }

    /// The last bytes of a finished answer (send them after the thread is recorded).
    pub fn finish(&mut self, answer: &CompletedAnswer) -> String {
        if answer.unanswered {
            self.encoder.mark_unanswered();
        }
        self.encoder.finish(answer.reason, answer.usage)
    }

    /// The last bytes of a failed answer; `public_message` is what readers see.
    pub fn fail(&mut self, public_message: &str) -> String {
        self.encoder.error(public_message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passage(path: &str) -> Passage {
        Passage {
            path: path.into(),
            url: format!("https://d/{path}"),
            title: path.to_uppercase(),
            heading: String::new(),
            anchor: String::new(),
            text: "t".into(),
            score: 1.0,
            coverage: 1.0,
        }
    }

    #[test]
    fn an_llm_answer_collects_text_sources_and_usage() {
        let mut s = AnswerSession::new(Protocol::UiMessageStreamV2, "msg_1", "thr_1");
        let passages = [passage("a"), passage("a"), passage("b")];
        assert!(s.start().contains("\"messageId\":\"msg_1\""));
        let cited = s.cite("q", &passages, 0..3);
        assert_eq!(
            cited.matches("source-url").count(),
            3,
            "one source per numbered passage"
        );
        assert!(
            matches!(s.on_llm_event(LlmEvent::TextDelta("Hi ".into())), Next::Continue(b) if b.contains("text-delta"))
        );
        let _ = s.on_llm_event(LlmEvent::TextDelta("there".into()));
        let _ = s.on_llm_event(LlmEvent::Finish {
            reason: "length".into(),
            prompt_tokens: Some(7),
            completion_tokens: None,
        });
        let answer = s.outcome().unwrap();
        assert_eq!(answer.text, "Hi there");
        assert_eq!(answer.sources.len(), 3);
        assert_eq!(answer.reason, FinishReason::Length);
        assert_eq!(
            answer.usage,
            Usage {
                prompt_tokens: 7,
                completion_tokens: 2
            }
        );
        assert!(s.finish(&answer).ends_with("data: [DONE]\n\n"));
    }

    #[test]
    fn an_extractive_answer_suggests_other_sections_and_a_refusal_is_marked() {
        let section = |heading: &str, text: &str| Passage {
            heading: heading.into(),
            text: text.into(),
            ..passage("export")
        };
        let passages = [
            section(
                "Start a job",
                "Start an export job with POST /v1/export. The job runs in the background.",
            ),
            section("Download the bundle", "Download the bundle from the link."),
        ];
        let mut s = AnswerSession::new(Protocol::DataStreamV1, "m", "t");
        let _ = s.extractive(
            "start export job",
            &passages,
            "How do I start an export job?",
        );
        s.suggest("How do I start an export job?", &passages);
        let answer = s.outcome().unwrap();
        let end = s.finish(&answer);
        assert!(
            end.contains(r#""questions":["Tell me about Download the bundle"]"#),
            "{end}"
        );
        assert!(!end.contains("unanswered"));
        let mut refused = AnswerSession::new(Protocol::UiMessageStreamV2, "m", "t");
        let _ = refused.extractive(
            "kubernetes helm chart",
            &[],
            "Is there a Helm chart for Kubernetes?",
        );
        let answer = refused.outcome().unwrap();
        assert!(refused.finish(&answer).contains(r#""unanswered":true"#));
    }

    #[test]
    fn a_models_refusal_is_marked_unanswered_like_the_extractive_one() {
        let answer_of = |tokens: &[&str], reason: &str| {
            let mut s = AnswerSession::new(Protocol::UiMessageStreamV2, "m", "t");
            let _ = s.cite("q", &[passage("a")], 0..1);
            for token in tokens {
                let _ = s.on_llm_event(LlmEvent::TextDelta((*token).into()));
            }
            let _ = s.on_llm_event(LlmEvent::Finish {
                reason: reason.into(),
                prompt_tokens: None,
                completion_tokens: None,
            });
            let answer = s.outcome().unwrap();
            (
                answer.unanswered,
                s.finish(&answer).contains(r#""unanswered":true"#),
            )
        };
        let told = [
            "The documentation doesn't ",
            "cover this question. The closest is [1].",
        ];
        assert_eq!(answer_of(&told, "stop"), (true, true));
        assert_eq!(
            answer_of(&["I'm sorry, I can't help."], "content-filter"),
            (true, true)
        );
        assert_eq!(answer_of(&["Run `publish` [1]."], "stop"), (false, false));
    }

    #[test]
    fn the_thread_stores_the_question_masked_and_the_answer_where_it_repeats_it() {
        let mut s = AnswerSession::new(Protocol::UiMessageStreamV2, "msg_1", "thr_1");
        let _ = s.text("Reset jane@example.com from 0.0.0.0.");
        s.complete(Usage {
            prompt_tokens: 1,
            completion_tokens: 1,
        });
        let question = Masker::default().mask("Can jane@example.com reset?");
        let stored = s
            .outcome()
            .unwrap()
            .thread_messages(Some("u1"), &question, "now");
        assert_eq!(stored[0].content, "Can [email] reset?");
        assert_eq!(stored[1].content, "Reset [email] from 0.0.0.0.");
    }

    #[test]
    fn a_provider_error_is_an_outcome_for_the_log_and_a_plain_message_for_the_client() {
        let mut s = AnswerSession::new(Protocol::DataStreamV1, "m", "t");
        let _ = s.on_llm_event(LlmEvent::TextDelta("part".into()));
        assert_eq!(
            s.on_llm_event(LlmEvent::Error("503 from upstream key sk-…".into())),
            Next::Done
        );
        assert!(s.outcome().unwrap_err().contains("503"));
        let mut echoed = AnswerSession::new(Protocol::DataStreamV1, "m", "t");
        let _ = echoed.on_llm_event(LlmEvent::Error(
            "rejected prompt: my card is 4111 1111 1111 1111".into(),
        ));
        assert_eq!(
            echoed.outcome().unwrap_err(),
            "rejected prompt: my card is [card]"
        );
        let out = s.fail("the answer could not be completed");
        assert!(!out.contains("503") && out.contains("d:{\"finishReason\":\"error\""));
    }
}
