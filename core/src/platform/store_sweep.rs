//! Which files of a site's content-addressed store (`files/{domain}/{hash}`) the daily storage sweep
//! deletes, sans IO; [`super::retention`] judges everything else.
//!
//! The store also holds the publish's batch objects (`batch-{id}.{part}`,
//! [`crate::publish::kept`]) and source packs (`pack-{hash}`, [`crate::docs::packed`]): a
//! version's batch index ([`KEPT_BATCHES_OBJECT`]) refers to them as its manifest refers to files,
//! and they are judged alike, a batch by its stem, a pack by its name.
//!
//! A file goes when no version the sweep keeps refers to it and it was stored more than
//! [`IN_FLIGHT_DAYS`] ago: a client uploads the files of a publish, then commits its manifest within
//! minutes, and until then nothing refers to them. The versions that keep files are those whose
//! manifest ([`MANIFEST_OBJECT`]) the same sweep keeps ([`manifest_keeps`]): the live one, replaced
//! ones still inside the retention, and any stored after the pointer last moved (a publish that
//! may be running). A version the sweep deletes keeps nothing; one without a manifest (published as
//! a `.tar.gz`) refers to no file of the store.
//!
//! **A commit during the sweep** may reuse an old file that no version referred to when the sweep
//! read them, which the age rule does not cover. The sweep and the commit exclude each other
//! through a marker beside the store (`files/{domain}/sweep-{run}`, [`MARKER_PREFIX`]):
//! - the sweep stores its marker, then reads the domain's versions, deletes, and removes the marker;
//! - the commit stores its manifest, then waits while a marker [`marker_holds`], then checks that
//!   the store holds every file it names (400 `missing_files` otherwise: the client uploads again).
//!
//! Why that is sound: say the sweep deleted a file the manifest names and the commit's check still
//! found it. The commit saw no marker holding, so it looked either before the sweep stored its
//! marker, and then its manifest was stored before the sweep read the versions and kept the file,
//! or after the marker was removed or lapsed ([`MARK_LAPSES_MS`]; the sweep deletes nothing under a
//! marker older than [`MARK_DELETES_MS`]), and then the deletion came before the check, which did not
//! find the file. Both contradict. It needs what R2 gives: a read or a list sees every write that
//! finished before it began.

use std::collections::BTreeSet;

use super::retention::{
    sweep_decision, Decision, Live, Retention, DAY_MS, FILES_PREFIX, IN_FLIGHT_DAYS, SITES_PREFIX,
};
use crate::docs::packed::is_pack_object;
use crate::publish::kept::{batch_object_stem, KEPT_BATCHES_OBJECT};
use crate::publish::manifest::{is_hash, MANIFEST_OBJECT};

/// How long after its upload an unreferenced file is kept: far longer than a client takes from its
/// first upload to its commit.
pub const FILE_IN_FLIGHT_MS: u64 = IN_FLIGHT_DAYS * DAY_MS;

/// The name of a sweep's marker in a store starts with this (never a hash: `s` is not a hex digit).
pub const MARKER_PREFIX: &str = "sweep-";

/// A marker stored longer ago than this no longer holds commits back: the run that stored it died
/// (a scheduled run ends within 15 minutes) or stopped deleting under it ([`MARK_DELETES_MS`]).
pub const MARK_LAPSES_MS: u64 = 30 * 60_000;

/// The sweep deletes files under its marker only this long after storing it: a deletion sent by
/// then has landed long before the marker lapses.
pub const MARK_DELETES_MS: u64 = 10 * 60_000;

/// The domain of a key of a store (`files/{domain}/…`).
pub fn store_domain(key: &str) -> Option<&str> {
    key.strip_prefix(FILES_PREFIX)?
        .split_once('/')
        .map(|(domain, _)| domain)
        .filter(|d| !d.is_empty())
}

/// The publish id of a version prefix of `domain` as a delimited listing of `sites/{domain}/`
/// answers it (`sites/{domain}/{publishId}/`).
pub fn listed_version<'a>(prefix: &'a str, domain: &str) -> Option<&'a str> {
    let id = prefix
        .strip_prefix(SITES_PREFIX)?
        .strip_prefix(domain)?
        .strip_prefix('/')?
        .strip_suffix('/')?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

/// The objects of a version that name what it refers to in its site's store: its manifest (files
/// by hash) and its batch index (batch objects by stem).
pub const REFERRING_OBJECTS: [&str; 2] = [MANIFEST_OBJECT, KEPT_BATCHES_OBJECT];

/// Whether the version `publish_id` of `domain`, whose object `name` (one of [`REFERRING_OBJECTS`])
/// was stored at `uploaded_ms`, keeps what that object names: whether this sweep keeps the object.
pub fn version_keeps(
    domain: &str,
    publish_id: &str,
    name: &str,
    uploaded_ms: u64,
    now_ms: u64,
    live: Option<Live>,
    retention: Retention,
) -> bool {
    let key = format!("{SITES_PREFIX}{domain}/{publish_id}/{name}");
    sweep_decision(&key, uploaded_ms, now_ms, live, retention) == Decision::Keep
}

/// What the sweep does with `key` of a store. `kept`: the file hashes and batch stems the kept
/// versions of the key's domain refer to, `None` when the sweep could not read them all (then every file stays);
/// `in_flight_ms`: [`FILE_IN_FLIGHT_MS`] but in tests. A marker left by a run that died goes once
/// it has lapsed.
pub fn store_decision(
    key: &str,
    uploaded_ms: u64,
    now_ms: u64,
    kept: Option<&BTreeSet<String>>,
    in_flight_ms: u64,
) -> Decision {
    let Some(name) = key
        .strip_prefix(FILES_PREFIX)
        .and_then(|rest| rest.split_once('/'))
        .map(|(_, name)| name)
    else {
        return Decision::Keep;
    };
    let older_than = |ms: u64| uploaded_ms.saturating_add(ms) <= now_ms;
    // A batch or a pack is written before the index naming it: the age rule covers a publish's own
    // as it does a commit's uploads.
    let referred = if is_hash(name) || is_pack_object(name) {
        Some(name)
    } else {
        batch_object_stem(name)
    };
    let delete = if let Some(referred) = referred {
        kept.is_some_and(|kept| !kept.contains(referred)) && older_than(in_flight_ms)
    } else {
        name.starts_with(MARKER_PREFIX) && older_than(MARK_LAPSES_MS)
    };
    if delete {
        Decision::Delete
    } else {
        Decision::Keep
    }
}

/// Whether a marker stored at `marked_ms` holds commits back at `now_ms`.
pub fn marker_holds(marked_ms: u64, now_ms: u64) -> bool {
    now_ms < marked_ms.saturating_add(MARK_LAPSES_MS)
}

/// Whether the sweep may still delete under its marker stored at `marked_ms`.
pub fn may_delete_under(marked_ms: u64, now_ms: u64) -> bool {
    now_ms < marked_ms.saturating_add(MARK_DELETES_MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: u64 = 100 * DAY_MS;
    const R: Retention = Retention {
        publish_days: 7,
        export_days: 3,
    };
    const OLD: &str = "0123456789abcdef0123456789abcdef";
    const USED: &str = "fedcba9876543210fedcba9876543210";

    fn kept() -> BTreeSet<String> {
        [USED.to_owned()].into()
    }

    fn decide(name: &str, age_ms: u64, kept: Option<&BTreeSet<String>>) -> Decision {
        store_decision(
            &format!("files/d.com/{name}"),
            NOW - age_ms,
            NOW,
            kept,
            FILE_IN_FLIGHT_MS,
        )
    }

    #[test]
    fn a_file_goes_only_when_no_kept_version_refers_to_it_and_it_is_a_day_old() {
        let kept = kept();
        assert_eq!(decide(OLD, 2 * DAY_MS, Some(&kept)), Decision::Delete);
        assert_eq!(
            decide(USED, 50 * DAY_MS, Some(&kept)),
            Decision::Keep,
            "a kept version refers to it"
        );
        // Uploaded for a publish not committed yet: nothing refers to it.
        assert_eq!(decide(OLD, DAY_MS - 1, Some(&kept)), Decision::Keep);
        assert_eq!(decide(OLD, DAY_MS, Some(&kept)), Decision::Delete);
        assert_eq!(decide(OLD, 5, Some(&BTreeSet::new())), Decision::Keep);
    }

    #[test]
    fn a_store_whose_versions_were_not_all_read_keeps_every_file() {
        assert_eq!(decide(OLD, 50 * DAY_MS, None), Decision::Keep);
    }

    #[test]
    fn the_age_rule_follows_the_given_period() {
        let key = format!("files/d.com/{OLD}");
        assert_eq!(
            store_decision(&key, NOW - 999, NOW, Some(&kept()), 1000),
            Decision::Keep
        );
        assert_eq!(
            store_decision(&key, NOW - 1000, NOW, Some(&kept()), 1000),
            Decision::Delete
        );
    }

    #[test]
    fn markers_go_once_lapsed_and_nothing_else_unknown_goes() {
        assert_eq!(decide("sweep-r1", MARK_LAPSES_MS - 1, None), Decision::Keep);
        assert_eq!(decide("sweep-r1", MARK_LAPSES_MS, None), Decision::Delete);
        assert_eq!(
            decide("notes.txt", 50 * DAY_MS, Some(&kept())),
            Decision::Keep
        );
        assert_eq!(
            decide(&OLD.to_uppercase(), 50 * DAY_MS, Some(&kept())),
            Decision::Keep
        );
        assert_eq!(
            store_decision(&format!("sites/d.com/{OLD}"), 0, NOW, Some(&kept()), 0),
            Decision::Keep
        );
        assert_eq!(
            store_decision("files/nodomain", 0, NOW, Some(&kept()), 0),
            Decision::Keep
        );
    }

    #[test]
    fn a_batch_object_goes_only_when_no_kept_version_lists_its_batch() {
        use crate::publish::kept::{batch_object, BatchPart};
        use crate::search::shard::batched::BatchCursor;
        let (listed, dropped) = (
            BatchCursor {
                pages: 10,
                chunks: 40,
                blocks: 3,
            },
            BatchCursor::default(),
        );
        let stem = |c: &BatchCursor| {
            batch_object_stem(&batch_object(&[7; 16], c, BatchPart::Record))
                .unwrap()
                .to_owned()
        };
        // The live version and a replaced one inside the retention both list `listed`: it is
        // counted once per version and kept while any of them is kept.
        let kept: BTreeSet<String> = [stem(&listed), USED.to_owned()].into();
        for part in [
            BatchPart::Record,
            BatchPart::Postings,
            BatchPart::Parsed,
            BatchPart::Text,
            BatchPart::Llms,
        ] {
            assert_eq!(
                decide(
                    &batch_object(&[7; 16], &listed, part),
                    50 * DAY_MS,
                    Some(&kept)
                ),
                Decision::Keep
            );
            assert_eq!(
                decide(
                    &batch_object(&[7; 16], &dropped, part),
                    2 * DAY_MS,
                    Some(&kept)
                ),
                Decision::Delete
            );
            // Built by a publish that has not written its index yet.
            assert_eq!(
                decide(
                    &batch_object(&[7; 16], &dropped, part),
                    DAY_MS - 1,
                    Some(&kept)
                ),
                Decision::Keep
            );
            assert_eq!(
                decide(&batch_object(&[7; 16], &dropped, part), 50 * DAY_MS, None),
                Decision::Keep
            );
        }
    }

    #[test]
    fn a_source_pack_goes_only_when_no_kept_version_lists_it() {
        use crate::docs::packed::pack_object_name;
        let (listed, dropped) = (
            pack_object_name(b"kept pack"),
            pack_object_name(b"old pack"),
        );
        let kept: BTreeSet<String> = [listed.clone(), USED.to_owned()].into();
        assert_eq!(decide(&listed, 50 * DAY_MS, Some(&kept)), Decision::Keep);
        assert_eq!(decide(&dropped, 2 * DAY_MS, Some(&kept)), Decision::Delete);
        // Written by a publish whose index is not written yet.
        assert_eq!(decide(&dropped, DAY_MS - 1, Some(&kept)), Decision::Keep);
        assert_eq!(decide(&dropped, 50 * DAY_MS, None), Decision::Keep);
        // Look-alikes are not packs: unknown names stay.
        assert_eq!(decide("pack-xyz", 50 * DAY_MS, Some(&kept)), Decision::Keep);
        assert_eq!(
            decide(&format!("{dropped}.bin"), 50 * DAY_MS, Some(&kept)),
            Decision::Keep
        );
    }

    fn keeps(
        publish_id: &str,
        uploaded_ms: u64,
        now_ms: u64,
        live: Option<Live>,
        retention: Retention,
    ) -> bool {
        REFERRING_OBJECTS.iter().all(|name| {
            version_keeps(
                "d.com",
                publish_id,
                name,
                uploaded_ms,
                now_ms,
                live,
                retention,
            )
        })
    }

    #[test]
    fn versions_the_sweep_deletes_keep_no_files_and_the_others_do() {
        let live = Some(Live {
            publish_id: "pub_live",
            since_ms: NOW - DAY_MS,
        });
        assert!(keeps("pub_live", NOW - 30 * DAY_MS, NOW, live, R));
        // Replaced, inside and past the retention.
        assert!(keeps("pub_prev", NOW - 6 * DAY_MS, NOW, live, R));
        assert!(!keeps("pub_prev", NOW - 7 * DAY_MS, NOW, live, R));
        // Stored after the pointer moved: a publish that may be running, whatever the retention.
        let zero = Retention {
            publish_days: 0,
            export_days: 0,
        };
        assert!(keeps("pub_next", NOW - 5, NOW, live, zero));
        assert!(!keeps("pub_prev", NOW - 2 * DAY_MS, NOW, live, zero));
        // No pointer: a first publish may be running for a day; a removed domain's versions go.
        assert!(keeps("pub_first", NOW - 5, NOW, None, zero));
        assert!(!keeps("pub_gone", NOW - 8 * DAY_MS, NOW, None, R));
    }

    #[test]
    fn a_marker_holds_commits_back_longer_than_the_sweep_deletes_under_it() {
        let at = NOW - MARK_DELETES_MS;
        assert!(may_delete_under(at + 1, NOW) && !may_delete_under(at, NOW));
        assert!(
            marker_holds(at, NOW),
            "deletions stop well before the marker lapses"
        );
        assert!(
            marker_holds(NOW - MARK_LAPSES_MS + 1, NOW) && !marker_holds(NOW - MARK_LAPSES_MS, NOW)
        );
        const { assert!(MARK_DELETES_MS * 2 < MARK_LAPSES_MS) };
    }

    #[test]
    fn keys_name_their_domain_and_versions() {
        assert_eq!(store_domain(&format!("files/d.com/{OLD}")), Some("d.com"));
        assert_eq!(store_domain("files//x"), None);
        assert_eq!(store_domain("files/d.com"), None);
        assert_eq!(store_domain("sites/d.com/x"), None);
        assert_eq!(listed_version("sites/d.com/pub_a/", "d.com"), Some("pub_a"));
        assert_eq!(listed_version("sites/d.com/pub_a/", "d.co"), None);
        assert_eq!(listed_version("sites/d.com/current.json", "d.com"), None);
        assert_eq!(listed_version("sites/d.com//", "d.com"), None);
    }
}
