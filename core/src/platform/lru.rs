//! A cache bounded by bytes, evicting the least recently used entry: what an isolate keeps of the
//! sites it serves (search meta, term shards, text blocks, live-version pointers). Each entry is
//! charged the size its inserter states; values are shared (`Rc`), so an entry evicted while a
//! request still holds it lives until that request ends, and the bound is on what the cache keeps.

/// Entries in a plain vector, scanned on every use: a cache holds hundreds to a few thousand entries
/// (objects of kilobytes against a bound of megabytes), where a scan costs microseconds next to the
/// R2 read a miss makes, and it keeps the worker's module smaller than hash and tree maps would.
pub struct ByteLru<V> {
    capacity: usize,
    bytes: usize,
    tick: u64,
    entries: Vec<Entry<V>>,
    evictions: u64,
}

struct Entry<V> {
    key: String,
    value: V,
    bytes: usize,
    used: u64,
}

impl<V: Clone> ByteLru<V> {
    pub fn new(capacity: usize) -> Self {
        ByteLru {
            capacity,
            bytes: 0,
            tick: 0,
            entries: Vec::new(),
            evictions: 0,
        }
    }

    /// Changes the bound (a setting read per request), evicting down to it.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        self.shrink();
    }

    /// The value, now the most recently used.
    pub fn get(&mut self, key: &str) -> Option<V> {
        self.tick += 1;
        let tick = self.tick;
        let entry = self.entries.iter_mut().find(|e| e.key == key)?;
        entry.used = tick;
        Some(entry.value.clone())
    }

    /// Stores `value` charged `bytes`, evicting least recently used entries past the bound. A value
    /// larger than the whole bound is not kept (and evicts nothing).
    pub fn insert(&mut self, key: &str, value: V, bytes: usize) {
        self.remove(key);
        if bytes > self.capacity {
            return;
        }
        self.tick += 1;
        self.entries.push(Entry {
            key: key.to_string(),
            value,
            bytes,
            used: self.tick,
        });
        self.bytes += bytes;
        self.shrink();
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        let at = self.entries.iter().position(|e| e.key == key)?;
        let entry = self.entries.swap_remove(at);
        self.bytes -= entry.bytes;
        Some(entry.value)
    }

    /// Removes every entry whose key starts with `prefix`.
    pub fn remove_prefix(&mut self, prefix: &str) {
        let mut freed = 0;
        self.entries.retain(|e| {
            let keep = !e.key.starts_with(prefix);
            if !keep {
                freed += e.bytes;
            }
            keep
        });
        self.bytes -= freed;
    }

    /// Bytes charged by the entries kept.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Entries evicted to stay within the bound, since the cache was made.
    pub fn evictions(&self) -> u64 {
        self.evictions
    }

    fn shrink(&mut self) {
        while self.bytes > self.capacity {
            let Some(oldest) = self
                .entries
                .iter()
                .enumerate()
                .min_by_key(|(_, e)| e.used)
                .map(|(i, _)| i)
            else {
                break;
            };
            let entry = self.entries.swap_remove(oldest);
            self.bytes -= entry.bytes;
            self.evictions += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ByteLru;

    #[test]
    fn evicts_least_recently_used_past_the_bound() {
        let mut cache = ByteLru::new(100);
        cache.insert("a", 1, 40);
        cache.insert("b", 2, 40);
        assert_eq!(cache.get("a"), Some(1)); // b is now the oldest
        cache.insert("c", 3, 40);
        assert_eq!(
            (cache.get("b"), cache.get("a"), cache.get("c")),
            (None, Some(1), Some(3))
        );
        assert_eq!((cache.bytes(), cache.len(), cache.evictions()), (80, 2, 1));
    }

    #[test]
    fn replacing_recharges_and_oversized_values_are_not_kept() {
        let mut cache = ByteLru::new(100);
        cache.insert("a", 1, 60);
        cache.insert("a", 2, 30);
        assert_eq!((cache.bytes(), cache.get("a")), (30, Some(2)));
        cache.insert("huge", 9, 101);
        assert_eq!(
            (cache.get("huge"), cache.get("a"), cache.bytes()),
            (None, Some(2), 30)
        );
        cache.insert("b", 3, 50);
        cache.remove_prefix("a");
        assert_eq!((cache.bytes(), cache.len()), (50, 1));
        cache.set_capacity(10);
        assert!(cache.is_empty() && cache.bytes() == 0);
    }

    #[test]
    fn never_exceeds_the_bound_under_a_random_workload() {
        let mut cache = ByteLru::new(1_000);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let key = format!("k{}", seed % 64);
            if seed.is_multiple_of(3) {
                cache.get(&key);
            } else {
                cache.insert(&key, seed, (seed % 300) as usize);
            }
            assert!(cache.bytes() <= 1_000);
            assert_eq!(
                cache.bytes(),
                cache.entries.iter().map(|e| e.bytes).sum::<usize>()
            );
        }
        assert!(cache.evictions() > 0);
    }
}
