//! The isolate's one byte-bounded LRU cache of search objects (`SEARCH_CACHE_BYTES`): sites' meta,
//! term shards and text blocks (`crate::edge::search_store`), shared by every site the isolate serves.
//! Below both `crate::edge::search_store` and `crate::shared::sites` (which forgets a site here when its live
//! version switches), so neither imports the other's cache.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use docs_edge_core::platform::lru::ByteLru;

/// One cache of type-erased values (meta, term shards, text blocks, live-version pointers), so the
/// cache's code is in the module once.
pub type Cached = Rc<dyn Any>;

thread_local! {
    static CACHE: RefCell<ByteLru<Cached>> = RefCell::new(ByteLru::new(crate::shared::config::DEFAULT_SEARCH_CACHE_BYTES));
}

/// Bytes the cache holds, its entries, and evictions so far: for the request log line.
pub fn stats() -> (usize, usize, u64) {
    CACHE.with(|c| {
        let c = c.borrow();
        (c.bytes(), c.len(), c.evictions())
    })
}

/// Applies the setting (`Config::search_cache_bytes`) to the isolate's cache.
pub fn set_capacity(capacity: usize) {
    CACHE.with(|c| {
        if c.borrow().capacity() != capacity {
            c.borrow_mut().set_capacity(capacity);
        }
    });
}

/// Drops what the isolate holds of `domain`'s versions (a publish or unpublish switched it). Keys
/// begin with `{domain}/`.
pub fn forget_site(domain: &str) {
    CACHE.with(|c| c.borrow_mut().remove_prefix(&format!("{domain}/")));
}

pub fn get_raw(key: &str) -> Option<Cached> {
    CACHE.with(|c| c.borrow_mut().get(key))
}

pub fn get<T: 'static>(key: &str) -> Option<Rc<T>> {
    get_raw(key)?.downcast::<T>().ok()
}

pub fn put(key: &str, value: Cached, bytes: usize) {
    CACHE.with(|c| c.borrow_mut().insert(key, value, bytes));
}
