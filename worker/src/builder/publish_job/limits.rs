//! The object's storage keys, retry and alarm timings, and how much it reads and writes at once.

pub(super) const ACTIVE_KEY: &str = "active";

/// The ids of the publishes whose records are kept, oldest first.
pub(super) const HISTORY_KEY: &str = "history";

/// Attempts at one step before the publish fails.
pub const MAX_ATTEMPTS: u32 = 3;

/// A reservation whose upload never started is released after this long.
pub(super) const RESERVATION_MS: u64 = 10 * 60_000;

/// An alarm this late never fired.
pub(super) const STALLED_ALARM_MS: i64 = 15_000;

/// Steps that start within this long of a run's start (an alarm's, or a waiting `start` call's) run
/// in it; later ones get an alarm of their own. Each new alarm costs a scheduling round trip, so a
/// site of a thousand pages (a dozen steps) should finish in one; the CPU limit (30 s by default)
/// leaves room for a step begun at the edge. Also how long a waiting `start`'s retry alarm waits.
pub(super) const ALARM_STEPS_MS: u64 = 5_000;

pub(super) const PLAN_OBJECT: &str = "plan.bin";

/// Remote specs fetched at most per publish, and the bytes each may have.
pub(super) const MAX_REMOTE_SPECS: usize = 16;

pub(super) const MAX_REMOTE_SPEC_BYTES: usize = 10_000_000;

/// Batches taken whole from the live version in one step at most, their reads and writes at once
/// (a batch's postings and parsed pages: about 1 MB).
pub(super) const TAKE_AT_ONCE: u32 = 8;

/// Batch records the finish reads ahead of the one it folds in.
pub(super) const RECORDS_AT_ONCE: usize = 8;

/// Files of a manifest read from the store at once.
pub(super) const GATHER_READS: usize = 32;

/// `HEAD` requests a re-publish sends at once (live packs it would share).
pub(super) const HEADS_AT_ONCE: usize = 16;

/// Ranges of the live version's source packs a re-publish reads at once.
pub(super) const LIVE_READS_AT_ONCE: usize = 4;

/// Compressed bytes fed to the unpacker at a time: a media file's piece is what this inflates to.
pub(super) const UNPACK_SLICE_BYTES: usize = 16 << 10;
