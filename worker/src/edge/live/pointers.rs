//! The serving isolate's bounded cache of which version of a domain is live, trusted for
//! [`POINTER_TTL_MS`] before R2 is asked again. A leaf below the live-version lookup (`crate::edge::live`)
//! and the PublishJob's client, which forgets a domain here once its publish is live.

use std::cell::RefCell;
use std::rc::Rc;

use docs_edge_core::platform::lru::ByteLru;

use crate::edge::search_cache::{self, Cached};
use crate::shared::clock::now_ms;
use crate::shared::sites::SiteVersion;

/// How long an isolate trusts its idea of the live version before asking R2 again.
pub const POINTER_TTL_MS: u64 = 5_000;

/// Live-version pointers an isolate remembers, by bytes (a pointer is a few hundred bytes: about
/// a thousand domains), least recently used first out.
const POINTER_CACHE_BYTES: usize = 256 << 10;

struct Pointer {
    version: SiteVersion,
    checked_ms: u64,
}

thread_local! {
    /// Values are [`Pointer`]s, type-erased like the search cache's so the cache code exists once.
    static POINTERS: RefCell<ByteLru<Cached>> = RefCell::new(ByteLru::new(POINTER_CACHE_BYTES));
}

/// This isolate drops what it remembers of `domain`: its pointer and its search objects.
pub fn forget(domain: &str) {
    POINTERS.with(|cache| cache.borrow_mut().remove(domain));
    search_cache::forget_site(domain);
}

/// The live version of `domain` this isolate checked in the [`POINTER_TTL_MS`] before `now`, when
/// `org_id` may read it.
pub(super) fn recent(domain: &str, org_id: &str, now: u64) -> Option<SiteVersion> {
    let pointer = POINTERS
        .with(|cache| cache.borrow_mut().get(domain))
        .and_then(|p| p.downcast::<Pointer>().ok())?;
    (now.saturating_sub(pointer.checked_ms) < POINTER_TTL_MS && pointer.version.readable_by(org_id))
        .then(|| pointer.version.clone())
}

/// Remembers `version` as `domain`'s live one, checked now.
pub(super) fn remember(domain: &str, version: &SiteVersion) {
    let bytes = domain.len() + approx_bytes(version);
    let pointer: Cached = Rc::new(Pointer {
        version: version.clone(),
        checked_ms: now_ms(),
    });
    POINTERS.with(|cache| cache.borrow_mut().insert(domain, pointer, bytes));
}

/// Heap a cached pointer takes, about.
fn approx_bytes(v: &SiteVersion) -> usize {
    let strings = |items: &[String]| items.iter().map(|s| s.len() + 24).sum::<usize>();
    std::mem::size_of::<Pointer>()
        + 64
        + v.publish_id.len()
        + v.published_at.len()
        + strings(&v.languages)
        + strings(&v.versions)
        + strings(&v.warnings)
        + v.org_id.as_ref().map_or(0, String::len)
}
