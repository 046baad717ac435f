//! The attempts of an export job's current step, sans IO: the job object stores a [`StepAttempts`]
//! with the job and asks it what to do before and after each step.
//!
//! An attempt is counted **before** the step runs and stored then, so a step that takes its isolate
//! down (out of memory, CPU limit, a trap) still counts: the next alarm, or the status poll that
//! re-arms a lost one, finds the attempt already spent, and after [`MAX_STEP_ATTEMPTS`] the job fails
//! instead of running the same step forever.

use serde::{Deserialize, Serialize};

use crate::wire::JobStatus;

/// Attempts at one step before the job fails.
pub const MAX_STEP_ATTEMPTS: u32 = 3;

/// Attempts begun at the current step, stored with the job.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StepAttempts {
    /// Begun and not yet finished or failed: if the object is here again with this set, the
    /// attempt it counts ended with its isolate.
    pub begun: u32,
    /// Whether the last begun attempt returned (with an error); `false` while one is under way.
    #[serde(default)]
    pub returned: bool,
}

/// What to do before running the step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BeforeStep {
    /// Store the attempts, then run the step.
    Run,
    /// Every attempt is spent: fail the job with this reason, without running the step.
    Fail(String),
}

/// What to do after a step returned an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterError {
    /// Try again after this many milliseconds.
    RetryAfterMs(u64),
    /// Fail the job with this reason.
    Fail(String),
}

impl StepAttempts {
    /// Called before the step; on [`BeforeStep::Run`] the caller stores `self` before stepping.
    pub fn before_step(&mut self) -> BeforeStep {
        if self.begun >= MAX_STEP_ATTEMPTS {
            let how = if self.returned {
                "the last one failed"
            } else {
                "the last one never finished: the worker stopped during it (memory or CPU limit, or a crash)"
            };
            return BeforeStep::Fail(format!(
                "export failed after {} attempt(s) at one step; {how}",
                self.begun
            ));
        }
        self.begun += 1;
        self.returned = false;
        BeforeStep::Run
    }

    /// The step finished: the next one starts with a clean count.
    pub fn succeeded(&mut self) {
        *self = Self::default();
    }

    /// The step returned an error (`permanent`: another attempt cannot fix it).
    pub fn failed(&mut self, reason: &str, permanent: bool) -> AfterError {
        self.returned = true;
        if permanent || self.begun >= MAX_STEP_ATTEMPTS {
            return AfterError::Fail(format!(
                "export failed after {} attempt(s): {reason}",
                self.begun
            ));
        }
        AfterError::RetryAfterMs(1_000u64 << self.begun.min(6))
    }

    /// Whether a status poll may re-arm a lost alarm: only while an attempt is left, so polling a
    /// job whose steps keep dying cannot keep it alive.
    pub fn may_rearm(&self) -> bool {
        self.begun < MAX_STEP_ATTEMPTS
    }

    /// The reason a poll reports when it finds every attempt spent and nothing scheduled.
    pub fn exhausted_reason(&self) -> Option<String> {
        let mut probe = *self;
        match probe.before_step() {
            BeforeStep::Fail(reason) => Some(reason),
            BeforeStep::Run => None,
        }
    }
}

/// What an alarm does with the result of a step it ran, decided by the job **as stored after the
/// step returned**, not by the copy the alarm held while it awaited R2.
///
/// A cancel (or a status poll that failed the job) can land while the step awaits I/O: it stores the
/// job ended, stops the alarm and deletes the parts stored so far. Writing the alarm's copy back then
/// would revive the job as `running`, re-arm it, and resume with parts missing: a broken bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AfterStep {
    /// The job is still active: store the step's result (and re-arm if it is unfinished).
    Store,
    /// The job ended during the step: store nothing, do not re-arm, and delete the part the step
    /// wrote (the ending deleted only the parts it knew of).
    Discard,
}

/// `stored_now`: the job's status read back after the step (`None`: no job is stored any more).
pub fn after_step(stored_now: Option<JobStatus>) -> AfterStep {
    match stored_now {
        Some(JobStatus::Queued | JobStatus::Running) => AfterStep::Store,
        Some(JobStatus::Completed | JobStatus::Failed | JobStatus::Cancelled) | None => {
            AfterStep::Discard
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_that_ended_during_its_step_is_not_written_back() {
        // The alarm stored `running` and began the step; a cancel stored `cancelled` meanwhile.
        assert_eq!(after_step(Some(JobStatus::Cancelled)), AfterStep::Discard);
        assert_eq!(after_step(Some(JobStatus::Failed)), AfterStep::Discard);
        assert_eq!(after_step(Some(JobStatus::Completed)), AfterStep::Discard);
        assert_eq!(after_step(None), AfterStep::Discard);
        // Nothing happened meanwhile: the step's result is stored.
        assert_eq!(after_step(Some(JobStatus::Running)), AfterStep::Store);
        assert_eq!(after_step(Some(JobStatus::Queued)), AfterStep::Store);
    }

    #[test]
    fn a_step_that_kills_its_isolate_fails_the_job_after_the_bound() {
        let mut attempts = StepAttempts::default();
        // Each alarm begins an attempt and dies: nothing reports back.
        for _ in 0..MAX_STEP_ATTEMPTS {
            assert_eq!(attempts.before_step(), BeforeStep::Run);
        }
        let BeforeStep::Fail(reason) = attempts.before_step() else {
            panic!("ran a fourth time")
        };
        assert!(
            reason.contains("3 attempt(s)") && reason.contains("never finished"),
            "{reason}"
        );
        assert!(!attempts.may_rearm());
    }

    #[test]
    fn errors_back_off_then_fail_and_success_resets() {
        let mut attempts = StepAttempts::default();
        assert_eq!(attempts.before_step(), BeforeStep::Run);
        assert_eq!(
            attempts.failed("r2 down", false),
            AfterError::RetryAfterMs(2_000)
        );
        assert_eq!(attempts.before_step(), BeforeStep::Run);
        assert_eq!(
            attempts.failed("r2 down", false),
            AfterError::RetryAfterMs(4_000)
        );
        assert_eq!(attempts.before_step(), BeforeStep::Run);
        let AfterError::Fail(reason) = attempts.failed("r2 down", false) else {
            panic!("retried past the bound")
        };
        assert_eq!(reason, "export failed after 3 attempt(s): r2 down");

        let mut attempts = StepAttempts::default();
        attempts.before_step();
        attempts.failed("x", false);
        attempts.before_step();
        attempts.succeeded();
        assert_eq!(attempts, StepAttempts::default());
        assert!(attempts.may_rearm());
    }

    #[test]
    fn permanent_errors_fail_at_once() {
        let mut attempts = StepAttempts::default();
        attempts.before_step();
        assert!(
            matches!(attempts.failed("bad version", true), AfterError::Fail(r) if r.contains("1 attempt(s): bad version"))
        );
    }

    #[test]
    fn a_poll_sees_exhaustion_without_spending_an_attempt() {
        let mut attempts = StepAttempts::default();
        assert_eq!(attempts.exhausted_reason(), None);
        for _ in 0..MAX_STEP_ATTEMPTS {
            attempts.before_step();
        }
        let before = attempts;
        assert!(attempts.exhausted_reason().is_some());
        assert_eq!(attempts, before);
    }
}
