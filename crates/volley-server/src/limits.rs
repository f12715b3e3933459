//! What one client, and every client together, may ask of the server (`volley serve --help`
//! lists the flags). A client is an IP address: behind a reverse proxy every player is one
//! client, so a club that runs one should raise the per-client limits.
//!
//! Every limit answers at once — 429 when one client asks too much, 503 when the server as a
//! whole is full — with a sentence saying which limit and what to do; nothing waits in an
//! endless queue.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The limits a server runs with. [`Limits::default`] is what `volley serve` uses unless told
/// otherwise: safe for a club server on a small machine.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The longest a bot may think for one decision, in milliseconds (`mcts:ms=…`).
    pub bot_ms_max: u64,
    /// The most iterations a bot may run for one decision (`mcts:iters=…`).
    pub bot_iters_max: u64,
    /// The most threads one bot may think with (`mcts:threads=…`).
    pub bot_threads_max: usize,
    /// The most random playout steps a bot may take (`mcts:depth=…`).
    pub bot_depth_max: usize,
    /// Bots thinking at the same time, over every game; the others wait their turn.
    pub bots_at_once: usize,
    /// Games one client may create per hour (a burst of a tenth of it at once).
    pub games_per_client_per_hour: u32,
    /// Games not yet over that the server keeps in all; past it, new games are refused.
    pub open_games_max: usize,
    /// Live WebSockets on one game (two seats, a few tabs and reloads each).
    pub sockets_per_game: usize,
    /// Live WebSockets one client may hold.
    pub sockets_per_client: usize,
    /// Live WebSockets in all.
    pub sockets_max: usize,
    /// Odds worked out at the same time, over every game.
    pub odds_at_once: usize,
    /// Odds requests that may wait for a free worker; past it, 503 at once.
    pub odds_waiting_max: usize,
    /// Odds requests one client may have running or waiting.
    pub odds_per_client: usize,
    /// Open connections one client may hold.
    pub connections_per_client: usize,
    /// Open connections in all (kept well under the process's file limit).
    pub connections_max: usize,
    /// How long a client has to send a request's headers.
    pub header_timeout: Duration,
    /// How long a request (body included, WebSockets excepted) may take.
    pub request_timeout: Duration,
    /// Finished games are deleted this long after their last action.
    pub keep_finished: Duration,
    /// Unfinished games nobody has played for this long are deleted.
    pub keep_abandoned: Duration,
}

const DAY: Duration = Duration::from_secs(24 * 3600);

impl Default for Limits {
    fn default() -> Limits {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Limits {
            bot_ms_max: 2_000,
            bot_iters_max: 200_000,
            bot_threads_max: 1,
            bot_depth_max: 64,
            // Bots' decisions are short (2 s at most): a few per core keeps one long computer
            // turn in another game from holding up everyone else's.
            bots_at_once: 4 * cores,
            games_per_client_per_hour: 120,
            open_games_max: 2_000,
            sockets_per_game: 16,
            sockets_per_client: 64,
            sockets_max: 1_000,
            odds_at_once: cores,
            odds_waiting_max: 4 * cores,
            odds_per_client: 8,
            connections_per_client: 128,
            connections_max: 2_048,
            header_timeout: Duration::from_secs(20),
            request_timeout: Duration::from_secs(30),
            keep_finished: 30 * DAY,
            keep_abandoned: 90 * DAY,
        }
    }
}

/// Why a request was turned away by a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turned {
    /// This client asks too much (429).
    Client(String),
    /// The server is full (503).
    Server(String),
}

/// Counts what each client holds (connections, sockets, odds), with a cap per client and in
/// all. [`Counts::take`] gives a guard that gives the place back when dropped.
pub struct Counts {
    what: &'static str,
    per_client: usize,
    max: usize,
    total: AtomicUsize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// A place taken in a [`Counts`]; given back on drop.
pub struct Held {
    counts: Arc<Counts>,
    client: IpAddr,
}

impl Counts {
    pub fn new(what: &'static str, per_client: usize, max: usize) -> Arc<Counts> {
        Arc::new(Counts {
            what,
            per_client,
            max,
            total: AtomicUsize::new(0),
            held: Mutex::new(HashMap::new()),
        })
    }

    /// Takes a place for `client`, or says which cap is reached.
    pub fn take(self: &Arc<Self>, client: IpAddr) -> Result<Held, Turned> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let mine = held.get(&client).copied().unwrap_or(0);
        if mine >= self.per_client {
            return Err(Turned::Client(format!(
                "one client may have at most {} {} at once: wait for some to end",
                self.per_client, self.what
            )));
        }
        if self.total.load(Ordering::Relaxed) >= self.max {
            return Err(Turned::Server(format!(
                "the server holds as many {} as it allows ({}): try again in a moment",
                self.what, self.max
            )));
        }
        let mine = held.entry(client).or_insert(0);
        *mine += 1;
        self.total.fetch_add(1, Ordering::Relaxed);
        Ok(Held {
            counts: self.clone(),
            client,
        })
    }

    /// Places taken now, in all.
    #[cfg(test)]
    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut held = self.counts.held.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = held.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.client);
            }
        }
        self.counts.total.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A token bucket: `rate` tokens a second, at most `burst` saved up.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    pub fn full(burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            last: Instant::now(),
        }
    }

    /// Takes one token; false when none is left.
    pub fn take(&mut self, rate: f64, burst: f64) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.last).as_secs_f64() * rate).min(burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A bucket per client, for how often each may create games.
pub struct ClientBuckets {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl ClientBuckets {
    /// `per_hour` a client, with a tenth of it (at least one) at once.
    pub fn per_hour(per_hour: u32) -> ClientBuckets {
        ClientBuckets {
            rate: f64::from(per_hour) / 3600.0,
            burst: (f64::from(per_hour) / 10.0).max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub fn take(&self, client: IpAddr) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        // Forget clients whose bucket has filled again, so the map stays small.
        if buckets.len() > 10_000 {
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, b| {
                let mut probe = *b;
                probe.tokens += probe.last.elapsed().as_secs_f64() * rate;
                probe.tokens < burst
            });
        }
        buckets
            .entry(client)
            .or_insert_with(|| Bucket::full(self.burst))
            .take(self.rate, self.burst)
    }
}

/// The most positions a `heuristic:…` bot may look at a decision: eight times `hard`'s
/// ((16 × 12 + 4 × 12) × (1 + 4 × (10 + 8)) = 17 520; `HeuristicSettings::work`).
pub const HEURISTIC_WORK_MAX: usize = 8 * volley_ai::HeuristicSettings::HARD.work();

/// Checks a bot spec against the limits: the bot may be made, and thinks within them.
pub fn check_bot(spec: &str, limits: &Limits) -> Result<(), String> {
    volley_ai::bot_from_spec(spec, 0)?;
    if let Some(settings) = spec.trim().strip_prefix("heuristic:") {
        let h = volley_ai::HeuristicSettings::parse(settings)?;
        let work = h.work();
        let most = HEURISTIC_WORK_MAX;
        if work > most {
            return Err(format!(
                "this server lets a heuristic look at most {most} positions a decision \
                 ((candidates × samples × (1 + halving) + 48) × (1 + 4 × (follow + reply + 8 with a reply)), \
                 or on a crowded map crowd_candidates × crowd_samples × 4 × (1 + 4 × (crowd_reply + 8 with one))), \
                 not {work}"
            ));
        }
        return Ok(());
    }
    let Some(settings) = spec.trim().strip_prefix("mcts:") else {
        return Ok(());
    };
    let s = volley_ai::mcts::MctsSettings::parse(settings)?;
    match s.budget {
        volley_ai::mcts::Budget::Millis(ms) if ms > limits.bot_ms_max => {
            return Err(format!(
                "this server lets a bot think at most {} ms a decision, not {ms}",
                limits.bot_ms_max
            ))
        }
        volley_ai::mcts::Budget::Iterations(n) if n > limits.bot_iters_max => {
            return Err(format!(
                "this server lets a bot run at most {} iterations a decision, not {n}",
                limits.bot_iters_max
            ))
        }
        _ => {}
    }
    if s.threads > limits.bot_threads_max {
        return Err(format!(
            "this server lets a bot think on at most {} thread(s), not {}",
            limits.bot_threads_max, s.threads
        ));
    }
    if s.depth > limits.bot_depth_max {
        return Err(format!(
            "this server lets a bot play out at most {} steps, not {}",
            limits.bot_depth_max, s.depth
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_cap_each_client_and_the_whole_and_give_places_back() {
        let c = Counts::new("sockets", 2, 3);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let a1 = c.take(a).unwrap();
        let _a2 = c.take(a).unwrap();
        assert!(matches!(c.take(a), Err(Turned::Client(_))));
        let _b1 = c.take(b).unwrap();
        assert!(matches!(c.take(b), Err(Turned::Server(_))));
        drop(a1);
        assert_eq!(c.total(), 2);
        assert!(c.take(b).is_ok());
    }

    #[test]
    fn a_bucket_gives_its_burst_then_refuses() {
        let buckets = ClientBuckets::per_hour(30);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..3 {
            assert!(buckets.take(a));
        }
        assert!(
            !buckets.take(a),
            "a tenth of the hour's games at once, then wait"
        );
        assert!(buckets.take(b), "another client has its own bucket");
    }

    #[test]
    fn bots_over_the_limits_are_refused_in_words() {
        let limits = Limits::default();
        assert!(check_bot("normal", &limits).is_ok());
        assert!(check_bot("mcts:ms=300", &limits).is_ok());
        let e = check_bot("mcts:ms=600000,threads=64", &limits).unwrap_err();
        assert!(e.contains("at most 2000 ms"), "{e}");
        let e = check_bot("mcts:threads=64", &limits).unwrap_err();
        assert!(e.contains("at most 1 thread"), "{e}");
        let e = check_bot("mcts:iters=100000000", &limits).unwrap_err();
        assert!(e.contains("iterations"), "{e}");
        assert!(check_bot("nobody", &limits).is_err());
        assert!(check_bot("hard", &limits).is_ok());
        assert!(check_bot("heuristic:candidates=12,samples=6,follow=3", &limits).is_ok());
        let e = check_bot("heuristic:candidates=64,samples=32,follow=32", &limits).unwrap_err();
        assert!(e.contains("at most 140160 positions"), "{e}");
    }
}
