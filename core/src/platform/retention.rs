//! What the daily storage sweep deletes, sans IO: the worker lists R2 and asks [`sweep_decision`]
//! about each object.
//!
//! - `sites/{domain}/{publishId}/…`: a published version the domain no longer serves (not the one
//!   `sites/{domain}/current.json` names, or none when the domain was removed), older than the
//!   publish retention. The live version and the pointer are never deleted, nor a publish that may
//!   still be running: its objects are unreferenced until it switches the pointer, so only objects
//!   stored before the pointer was last written count as replaced, and a domain without a pointer
//!   (its first publish may be running) keeps its objects for at least [`IN_FLIGHT_DAYS`].
//! - `files/{domain}/{hash}`: judged by [`super::store_sweep`] (a file goes when no version this
//!   sweep keeps refers to it).
//! - `exports/{jobId}/…`: bundles and leftover batch parts older than the export retention (a job
//!   finishes in minutes; a bundle link is valid for at most 7 days).

/// The top-level prefixes of the R2 layout (the worker makes every key in `worker/src/shared/storage.rs`
/// from these): published sites, and export jobs' files.
pub const SITES_PREFIX: &str = "sites/";
pub const EXPORTS_PREFIX: &str = "exports/";
/// `files/{domain}/{hash}`: a site's content-addressed store, shared by its versions.
pub const FILES_PREFIX: &str = "files/";
/// Hosted sites' served files, per export, and their live pointers: the sweep keeps them (a
/// superseded export stays readable; removing old ones is not built yet).
pub const HOSTED_PREFIX: &str = "hosted/";

/// Milliseconds in a day.
pub const DAY_MS: u64 = 86_400_000;

/// How long a domain without a live version keeps what a publish stores, whatever the retention:
/// far longer than a publish runs, so a first publish is never swept from under itself.
pub const IN_FLIGHT_DAYS: u64 = 1;

/// The version a domain serves: the publish id `sites/{domain}/current.json` names, and when that
/// pointer was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Live<'a> {
    pub publish_id: &'a str,
    pub since_ms: u64,
}

/// Retention periods in days (0 = as soon as unreferenced; tests use it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    pub publish_days: u64,
    pub export_days: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Keep,
    Delete,
}

/// The domain segment of a `sites/` key (`sites/{domain}/…`).
pub fn site_domain(key: &str) -> Option<&str> {
    key.strip_prefix(SITES_PREFIX)?
        .split('/')
        .next()
        .filter(|d| !d.is_empty())
}

/// `live`: the version `domain`'s pointer names (`None`: no pointer).
/// The export job of a key of its own files (`exports/{jobId}/{file}`).
pub fn export_job_of(key: &str) -> Option<&str> {
    let (job, file) = key.strip_prefix(EXPORTS_PREFIX)?.split_once('/')?;
    (!job.is_empty() && !file.is_empty() && !file.contains('/')).then_some(job)
}

pub fn sweep_decision(
    key: &str,
    uploaded_ms: u64,
    now_ms: u64,
    live: Option<Live>,
    retention: Retention,
) -> Decision {
    let older_than = |days: u64| uploaded_ms.saturating_add(days.saturating_mul(DAY_MS)) <= now_ms;
    if let Some(rest) = key.strip_prefix(EXPORTS_PREFIX) {
        // `exports/{jobId}/{file}` only; anything else under it is not ours to judge.
        let delete = rest.split('/').count() == 2 && older_than(retention.export_days);
        return if delete {
            Decision::Delete
        } else {
            Decision::Keep
        };
    }
    let Some(rest) = key.strip_prefix(SITES_PREFIX) else {
        return Decision::Keep;
    };
    let mut parts = rest.splitn(3, '/');
    let (Some(_domain), Some(version), Some(_file)) = (parts.next(), parts.next(), parts.next())
    else {
        // `sites/{domain}/current.json` and anything unexpected stay.
        return Decision::Keep;
    };
    let replaced = match live {
        Some(live) => version != live.publish_id && uploaded_ms < live.since_ms,
        None => older_than(IN_FLIGHT_DAYS),
    };
    if replaced && older_than(retention.publish_days) {
        Decision::Delete
    } else {
        Decision::Keep
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: Retention = Retention {
        publish_days: 7,
        export_days: 3,
    };
    const NOW: u64 = 100 * DAY_MS;

    #[test]
    fn the_live_version_and_the_pointer_are_never_deleted() {
        for age in [0, 8, 50] {
            let at = NOW - age * DAY_MS;
            let live = Live {
                publish_id: "pub_a",
                since_ms: NOW,
            };
            assert_eq!(
                sweep_decision("sites/d.com/pub_a/source.tar.gz", at, NOW, Some(live), R),
                Decision::Keep
            );
            assert_eq!(
                sweep_decision("sites/d.com/current.json", at, NOW, None, R),
                Decision::Keep
            );
        }
    }

    #[test]
    fn old_versions_go_after_the_publish_retention() {
        let key = "sites/d.com/pub_old/index.bin";
        let live = Some(Live {
            publish_id: "pub_new",
            since_ms: NOW - DAY_MS,
        });
        assert_eq!(
            sweep_decision(key, NOW - 6 * DAY_MS, NOW, live, R),
            Decision::Keep
        );
        assert_eq!(
            sweep_decision(key, NOW - 7 * DAY_MS, NOW, live, R),
            Decision::Delete
        );
        // A removed domain has no pointer: every version goes after the retention.
        assert_eq!(
            sweep_decision(key, NOW - 8 * DAY_MS, NOW, None, R),
            Decision::Delete
        );
    }

    #[test]
    fn export_files_go_after_the_export_retention() {
        assert_eq!(
            sweep_decision(
                "exports/se_1/part-00000.tgz",
                NOW - 2 * DAY_MS,
                NOW,
                None,
                R
            ),
            Decision::Keep
        );
        assert_eq!(
            sweep_decision("exports/se_1/bundle.tar.gz", NOW - 3 * DAY_MS, NOW, None, R),
            Decision::Delete
        );
        assert_eq!(
            sweep_decision("exports/odd", 0, NOW, None, R),
            Decision::Keep
        );
        assert_eq!(sweep_decision("other/x", 0, NOW, None, R), Decision::Keep);
    }

    #[test]
    fn zero_days_means_as_soon_as_unreferenced() {
        let zero = Retention {
            publish_days: 0,
            export_days: 0,
        };
        let live = Some(Live {
            publish_id: "pub_new",
            since_ms: NOW,
        });
        assert_eq!(
            sweep_decision("sites/d.com/pub_old/x", NOW - 1, NOW, live, zero),
            Decision::Delete
        );
        assert_eq!(
            sweep_decision("exports/se_1/bundle.tar.gz", NOW, NOW, None, zero),
            Decision::Delete
        );
    }

    #[test]
    fn a_publish_that_may_still_be_running_is_kept_whatever_the_retention() {
        let zero = Retention {
            publish_days: 0,
            export_days: 0,
        };
        // Stored after the live version went live: a publish on its way to the switch.
        let live = Some(Live {
            publish_id: "pub_live",
            since_ms: NOW - 10,
        });
        assert_eq!(
            sweep_decision(
                "sites/d.com/pub_next/source/0.pack",
                NOW - 5,
                NOW,
                live,
                zero
            ),
            Decision::Keep
        );
        assert_eq!(
            sweep_decision("sites/d.com/pub_next/source/0.pack", NOW - 5, NOW, live, R),
            Decision::Keep
        );
        // A domain's first publish: no pointer yet.
        assert_eq!(
            sweep_decision("sites/d.com/pub_first/upload", NOW - 5, NOW, None, zero),
            Decision::Keep
        );
        assert_eq!(
            sweep_decision(
                "sites/d.com/pub_first/upload",
                NOW - DAY_MS + 1,
                NOW,
                None,
                zero
            ),
            Decision::Keep
        );
        assert_eq!(
            sweep_decision(
                "sites/d.com/pub_first/upload",
                NOW - DAY_MS,
                NOW,
                None,
                zero
            ),
            Decision::Delete
        );
    }

    #[test]
    fn domains_are_read_from_site_keys() {
        assert_eq!(site_domain("sites/d.com/pub_a/x"), Some("d.com"));
        assert_eq!(site_domain("sites//x"), None);
        assert_eq!(site_domain("exports/x"), None);
    }

    #[test]
    fn export_jobs_are_read_from_their_own_files_keys() {
        assert_eq!(export_job_of("exports/job_1/part-00000.tgz"), Some("job_1"));
        assert_eq!(export_job_of("exports/job_1/_host"), Some("job_1"));
        for other in [
            "exports/job_1",
            "exports//x",
            "exports/job_1/",
            "exports/a/b/c",
            "sites/d/p/f",
        ] {
            assert_eq!(export_job_of(other), None, "{other}");
        }
    }
}
