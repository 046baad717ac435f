//! Sorting through one compiled sort routine. `slice::sort_by` and friends compile std's driftsort
//! or ipnsort again for every element type and comparator, about 4.5 KB of wasm each; these sort the
//! positions (`usize`) with a `dyn` comparator instead, so the worker carries one copy
//! (docs/engineering/decisions.mdx, "The worker's size"). Each sort allocates a position list
//! beside the items and calls the comparator through a pointer: about twice as slow as std's
//! (100,000 terms: 100–130 ms against 50–70 ms at `opt-level = "z"`), so the hot sorts (a search's
//! ranking, publishing's term sorts) keep std's. Collecting into a `BTreeMap` sorts the pairs the same way, so [`map_from`] inserts them
//! instead.

use std::cmp::Ordering;
use std::collections::BTreeMap;

/// Sorts `items` by `compare`, stably (equal items keep their order), as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut Vec<T>, mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = sorted_positions(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// Sorts `items` by `key`, stably, as `slice::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in ascending order, as `slice::sort` does.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
}

/// `pairs` as a map, a later pair of a key replacing an earlier one, as `collect::<BTreeMap<_, _>>()`
/// does.
pub fn map_from<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut map = BTreeMap::new();
    for (key, value) in pairs {
        map.insert(key, value);
    }
    map
}

/// `0..len` in the order `compare` puts those positions in, ties in position order.
#[inline(never)]
fn sorted_positions(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_like_std() {
        let items: Vec<(u32, &str)> =
            vec![(3, "a"), (1, "b"), (3, "c"), (2, "d"), (1, "e"), (0, "f")];
        let mut ours = items.clone();
        sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
        let mut std = items.clone();
        std.sort_by_key(|a| a.0);
        assert_eq!(ours, std);
        assert_eq!(
            ours,
            [(0, "f"), (1, "b"), (1, "e"), (2, "d"), (3, "a"), (3, "c")]
        );
    }

    #[test]
    fn sort_and_sort_by_key_match_std() {
        let words = vec![
            "pear".to_string(),
            "apple".into(),
            "fig".into(),
            "apple".into(),
            "kiwi".into(),
        ];
        let mut ours = words.clone();
        sort(&mut ours);
        let mut std = words.clone();
        std.sort();
        assert_eq!(ours, std);
        let mut by_len = words.clone();
        sort_by_key(&mut by_len, |w| w.len());
        assert_eq!(by_len, ["fig", "pear", "kiwi", "apple", "apple"]);
        let pairs = vec![("b", 1), ("a", 2), ("b", 3)];
        assert_eq!(
            map_from(pairs.clone()),
            pairs.into_iter().collect::<BTreeMap<_, _>>()
        );
        let mut empty: Vec<u8> = Vec::new();
        sort(&mut empty);
        assert!(empty.is_empty());
    }
}
