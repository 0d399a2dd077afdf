//! The server's cache of competition views, bounded in bytes (issue 35): each entry is weighed
//! by what it holds (a view grows as its pages are drawn), and when the whole is over its budget
//! the least recently read entries go first. What is evicted is loaded again when next read, so
//! a crawler that walks every page of ten thousand competitions costs memory only up to the
//! budget.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// A value the cache can weigh; the weight may grow while it is held.
pub trait Weighed {
    /// About how many bytes it holds now.
    fn weight(&self) -> usize;
}

struct Entry<V> {
    value: Arc<V>,
    /// The tick of the last read: the smallest goes first.
    read: AtomicU64,
}

/// Entries by key, within `budget` bytes. Reads take a shared lock and only stamp the entry;
/// inserting and trimming take the lock alone.
pub struct WeighedCache<K, V> {
    entries: RwLock<HashMap<K, Entry<V>>>,
    budget: usize,
    tick: AtomicU64,
    evicted: AtomicU64,
}

impl<K: Eq + Hash + Clone, V: Weighed> WeighedCache<K, V> {
    /// An empty cache that holds at most `budget` bytes, but for the entry read last, which is
    /// held whatever it weighs, so that it can be answered.
    pub fn new(budget: usize) -> WeighedCache<K, V> {
        WeighedCache {
            entries: RwLock::new(HashMap::new()),
            budget,
            tick: AtomicU64::new(0),
            evicted: AtomicU64::new(0),
        }
    }

    /// The value held for `key`, marked as read now.
    pub fn get(&self, key: &K) -> Option<Arc<V>> {
        let entries = self.entries.read().ok()?;
        let entry = entries.get(key)?;
        entry
            .read
            .store(self.tick.fetch_add(1, Ordering::Relaxed), Ordering::Relaxed);
        Some(Arc::clone(&entry.value))
    }

    /// Holds `value` for `key` (replacing what was), then trims to the budget.
    pub fn insert(&self, key: K, value: Arc<V>) {
        let Ok(mut entries) = self.entries.write() else {
            return;
        };
        let read = AtomicU64::new(self.tick.fetch_add(1, Ordering::Relaxed));
        entries.insert(key.clone(), Entry { value, read });
        self.trim_within(&mut entries, Some(&key));
    }

    /// Forgets `key`.
    pub fn remove(&self, key: &K) {
        if let Ok(mut entries) = self.entries.write() {
            entries.remove(key);
        }
    }

    /// Evicts the least recently read entries while the whole weighs more than the budget:
    /// called after an entry grew (a page drawn from a view).
    pub fn trim(&self) {
        if self.weight() <= self.budget {
            return;
        }
        if let Ok(mut entries) = self.entries.write() {
            self.trim_within(&mut entries, None);
        }
    }

    fn trim_within(&self, entries: &mut HashMap<K, Entry<V>>, keep: Option<&K>) {
        let mut total: usize = entries.values().map(|e| e.value.weight()).sum();
        if total <= self.budget {
            return;
        }
        let mut by_age: Vec<(u64, K, usize)> = entries
            .iter()
            .map(|(k, e)| {
                // The entry just inserted counts as read last.
                let read = if Some(k) == keep {
                    u64::MAX
                } else {
                    e.read.load(Ordering::Relaxed)
                };
                (read, k.clone(), e.value.weight())
            })
            .collect();
        by_age.sort_unstable_by_key(|(read, _, _)| *read);
        // The entry read last stays whatever it weighs: it is the one being answered.
        by_age.pop();
        for (_, key, weight) in by_age {
            if total <= self.budget {
                break;
            }
            entries.remove(&key);
            total -= weight;
            self.evicted.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// What the entries weigh together now.
    pub fn weight(&self) -> usize {
        self.entries
            .read()
            .map(|e| e.values().map(|e| e.value.weight()).sum())
            .unwrap_or(0)
    }

    /// What the entry read last weighs (none held: 0).
    #[cfg(test)]
    fn last_read_weight(&self) -> usize {
        self.entries
            .read()
            .ok()
            .and_then(|e| {
                e.values()
                    .max_by_key(|e| e.read.load(Ordering::Relaxed))
                    .map(|e| e.value.weight())
            })
            .unwrap_or(0)
    }

    /// How many entries are held.
    pub fn len(&self) -> usize {
        self.entries.read().map(|e| e.len()).unwrap_or(0)
    }

    /// How many entries were evicted to stay within the budget, since the cache was made.
    pub fn evicted(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;

    use proptest::prelude::*;

    use super::*;

    /// A value whose weight grows when told, as a view's does when a page is drawn from it.
    struct Sized(AtomicUsize);

    impl Weighed for Sized {
        fn weight(&self) -> usize {
            self.0.load(Ordering::Relaxed)
        }
    }

    #[derive(Debug, Clone)]
    enum Step {
        Insert(u8, usize),
        Read(u8),
        Grow(u8, usize),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            (0u8..40, 1usize..400).prop_map(|(k, w)| Step::Insert(k, w)),
            (0u8..40).prop_map(Step::Read),
            (0u8..40, 1usize..200).prop_map(|(k, w)| Step::Grow(k, w)),
        ]
    }

    proptest! {
        /// Whatever is inserted, read and grown, the cache never holds more than its budget
        /// but for the one entry just inserted, and the entry just inserted is held.
        #[test]
        fn the_cache_stays_within_its_budget(steps in prop::collection::vec(step(), 1..200)) {
            let budget = 1000;
            let cache: WeighedCache<u8, Sized> = WeighedCache::new(budget);
            for s in steps {
                match s {
                    Step::Insert(k, w) => {
                        cache.insert(k, Arc::new(Sized(AtomicUsize::new(w))));
                        prop_assert!(cache.get(&k).is_some(), "the entry just inserted is held");
                        let others = cache.weight() - cache.get(&k).map_or(0, |v| v.weight());
                        prop_assert!(others <= budget, "{others} besides the new entry");
                    }
                    Step::Read(k) => {
                        let _ = cache.get(&k);
                    }
                    Step::Grow(k, w) => {
                        if let Some(v) = cache.get(&k) {
                            v.0.fetch_add(w, Ordering::Relaxed);
                        }
                        cache.trim();
                        let last = cache.last_read_weight();
                        prop_assert!(
                            cache.weight() - last <= budget,
                            "{} after a trim, {last} of it read last",
                            cache.weight()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_least_recently_read_goes_first() {
        let cache: WeighedCache<&str, Sized> = WeighedCache::new(300);
        let sized = |w| Arc::new(Sized(AtomicUsize::new(w)));
        cache.insert("a", sized(100));
        cache.insert("b", sized(100));
        cache.insert("c", sized(100));
        let _ = cache.get(&"a");
        cache.insert("d", sized(100));
        assert!(cache.get(&"a").is_some(), "read last but one");
        assert!(cache.get(&"b").is_none(), "read least recently");
        assert_eq!(cache.evicted(), 1);
        assert_eq!(cache.len(), 3);
    }
}
