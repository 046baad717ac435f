//! Regenerating without duplicates: which stored messages a new answer replaces. A v5+ client says
//! so (`trigger: "regenerate-message"` with the answer's `messageId`); a v4 `reload()` resends the
//! thread's last question, with the same id and text. Either way the old question and answer are
//! dropped and the new pair takes their place. A new question that merely reuses an earlier id (raw
//! HTTP callers often send a fixed one) is a new question: nothing is dropped.

use crate::assistant::request::Trigger;
use crate::http::validate::{FieldError, Path};

/// One stored message as far as replacement cares.
#[derive(Debug, Clone, Copy)]
pub struct StoredTurn<'a> {
    pub is_user: bool,
    pub id: Option<&'a str>,
    pub text: &'a str,
}

/// How many of the stored messages to keep before the new question and answer are appended; `None`
/// keeps all of them. A `messageId` that names no answer of the thread is the caller's error.
pub fn messages_to_keep(
    stored: &[StoredTurn<'_>],
    trigger: &Trigger,
    question_id: Option<&str>,
    question: &str,
) -> Result<Option<usize>, FieldError> {
    if let Trigger::Regenerate {
        message_id: Some(message_id),
    } = trigger
    {
        let Some(answer) = stored
            .iter()
            .rposition(|m| !m.is_user && m.id == Some(message_id.as_str()))
        else {
            return Err(Path::root()
                .key("messageId")
                .error("must be the id of an answer in this thread"));
        };
        let question = answer
            .checked_sub(1)
            .filter(|&q| stored[q].is_user)
            .unwrap_or(answer);
        return Ok(Some(question));
    }
    let Some(question_id) = question_id else {
        return Ok(None);
    };
    let last_question = stored.iter().rposition(|m| m.is_user);
    Ok(last_question.filter(|&q| stored[q].id == Some(question_id) && stored[q].text == question))
}

#[cfg(test)]
mod tests {
    use super::*;

    const THREAD: [StoredTurn<'static>; 4] = [
        StoredTurn {
            is_user: true,
            id: Some("u1"),
            text: "one?",
        },
        StoredTurn {
            is_user: false,
            id: Some("msg_a"),
            text: "One.",
        },
        StoredTurn {
            is_user: true,
            id: Some("u2"),
            text: "two?",
        },
        StoredTurn {
            is_user: false,
            id: Some("msg_b"),
            text: "Two.",
        },
    ];

    #[test]
    fn a_new_question_keeps_everything() {
        assert_eq!(
            messages_to_keep(&THREAD, &Trigger::Submit, Some("u3"), "three?").unwrap(),
            None
        );
        assert_eq!(
            messages_to_keep(&THREAD, &Trigger::Submit, None, "three?").unwrap(),
            None
        );
    }

    #[test]
    fn a_resent_question_replaces_its_answer() {
        assert_eq!(
            messages_to_keep(&THREAD, &Trigger::Submit, Some("u2"), "two?").unwrap(),
            Some(2)
        );
        assert_eq!(
            messages_to_keep(
                &THREAD,
                &Trigger::Regenerate { message_id: None },
                Some("u2"),
                "two?"
            )
            .unwrap(),
            Some(2)
        );
    }

    #[test]
    fn a_reused_id_with_another_question_keeps_everything() {
        assert_eq!(
            messages_to_keep(&THREAD, &Trigger::Submit, Some("u2"), "three?").unwrap(),
            None
        );
        // Only the last question can be resent by reload(); an earlier id is a client reusing ids.
        assert_eq!(
            messages_to_keep(&THREAD, &Trigger::Submit, Some("u1"), "one?").unwrap(),
            None
        );
    }

    #[test]
    fn regenerate_names_the_answer_it_replaces() {
        let regenerate = |id: &str| Trigger::Regenerate {
            message_id: Some(id.into()),
        };
        assert_eq!(
            messages_to_keep(&THREAD, &regenerate("msg_b"), Some("x"), "two?").unwrap(),
            Some(2)
        );
        assert_eq!(
            messages_to_keep(&THREAD, &regenerate("msg_a"), None, "one?").unwrap(),
            Some(0)
        );
        let err = messages_to_keep(&THREAD, &regenerate("u2"), None, "two?").unwrap_err();
        assert_eq!(
            err.to_string(),
            "messageId: must be the id of an answer in this thread"
        );
        assert!(messages_to_keep(&THREAD, &regenerate("msg_zzz"), None, "").is_err());
    }
}
