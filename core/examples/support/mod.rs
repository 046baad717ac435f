//! What the examples share: reading a docs folder from disk into a source tree, and a heap counter.
#![allow(dead_code)]
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts live heap bytes and remembers the high-water mark, so the peak of one stage can be read:
/// an example installs it with `#[global_allocator]`.
pub struct Counting;
pub static LIVE: AtomicUsize = AtomicUsize::new(0);
pub static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

/// Starts a stage: the peak so far becomes what is live now.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
}

pub fn peak_mib() -> f64 {
    PEAK.load(Ordering::Relaxed) as f64 / 1048576.0
}

pub fn read_folder(root: &Path, dir: &Path, tree: &mut BTreeMap<String, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            read_folder(root, &path, tree);
        } else if let (Ok(rel), Ok(bytes)) = (path.strip_prefix(root), std::fs::read(&path)) {
            tree.insert(rel.to_string_lossy().replace('\\', "/"), bytes);
        }
    }
}

/// The semantic stage's model compiled into core, unless `DOCS_EDGE_SEMANTIC=off` (to measure
/// search without it).
pub fn semantic_model() -> Option<&'static docs_edge_core::search::semantic::StaticModel<'static>> {
    (std::env::var("DOCS_EDGE_SEMANTIC").as_deref() != Ok("off"))
        .then(docs_edge_core::search::semantic::embedded_model)
}
