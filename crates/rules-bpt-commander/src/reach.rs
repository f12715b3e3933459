//! The units' move searches ("Movement"), kept while the legal actions are listed: one search
//! a unit rather than one a candidate order. The search itself is in [`crate::movement`]; this
//! is what it finds and where the position keeps it.

use std::collections::HashMap;
use volley_core::Hex;

/// A place a move may end, with what getting there costs and whether the way touches dense
/// terrain (which needs the order's dense-terrain modifier).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    pub cost_cm: u32,
    pub dense: bool,
    /// Reached by a move all along a road (no distance modifier for its order).
    pub road: bool,
}

/// The units' move searches, kept while the legal actions are listed: one search a unit
/// rather than one a candidate. Outside a listing it holds nothing and every search is made
/// afresh; a copy of the game starts with an empty one.
#[derive(Debug, Default)]
pub struct ReachCache(std::sync::Mutex<Option<HashMap<usize, Reach>>>);

/// A unit's move search: every hex it may reach with one move action, and how.
pub type Reach = std::sync::Arc<Vec<(Hex, Stop)>>;

impl Clone for ReachCache {
    fn clone(&self) -> ReachCache {
        ReachCache::default()
    }
}

/// A listing under way: while it lives the move searches are kept; when it ends, even by a
/// panic, they are dropped, so no search outlives the position it was made in.
pub struct Listing<'a>(&'a ReachCache);

impl Drop for Listing<'_> {
    fn drop(&mut self) {
        self.0.set(false);
    }
}

impl ReachCache {
    /// Starts a listing of the legal actions (what was kept before is dropped).
    pub fn listing(&self) -> Listing<'_> {
        self.set(true);
        Listing(self)
    }

    fn set(&self, on: bool) {
        let mut c = self.0.lock().unwrap_or_else(|e| e.into_inner());
        *c = on.then(HashMap::new);
    }

    /// The unit's search from the cache during a listing (made with `search` the first
    /// time); outside one, made afresh.
    pub fn get(&self, unit: usize, search: impl FnOnce() -> Vec<(Hex, Stop)>) -> Reach {
        if let Ok(mut c) = self.0.lock() {
            if let Some(kept) = c.as_mut() {
                return kept
                    .entry(unit)
                    .or_insert_with(|| std::sync::Arc::new(search()))
                    .clone();
            }
        }
        std::sync::Arc::new(search())
    }
}
