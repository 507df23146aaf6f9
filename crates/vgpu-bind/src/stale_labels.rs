//! Labels of recently destroyed keys, so that an error about a stale key can still name it.

use std::collections::VecDeque;
use std::hash::Hash;

use ahash::AHashMap;

/// How many labels of destroyed keys are remembered for error messages (oldest forgotten first).
const REMEMBERED_STALE_LABELS: usize = 1024;

/// Labels of recently destroyed keys, bounded FIFO.
#[derive(Debug)]
pub(crate) struct StaleLabels<K> {
    labels: AHashMap<K, Box<str>>,
    order: VecDeque<K>,
}

impl<K> Default for StaleLabels<K> {
    fn default() -> Self {
        StaleLabels {
            labels: AHashMap::default(),
            order: VecDeque::new(),
        }
    }
}

impl<K: Copy + Eq + Hash> StaleLabels<K> {
    pub(crate) fn remember(&mut self, key: K, label: Box<str>) {
        if self.order.len() >= REMEMBERED_STALE_LABELS
            && let Some(old) = self.order.pop_front()
        {
            self.labels.remove(&old);
        }
        self.order.push_back(key);
        self.labels.insert(key, label);
    }

    pub(crate) fn label(&self, key: K) -> String {
        self.labels
            .get(&key)
            .map_or_else(|| "<unknown>".to_owned(), |l| l.to_string())
    }
}
