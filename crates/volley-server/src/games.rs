//! Games in memory: each behind its own lock, with its seats, its bots and a channel that
//! tells WebSocket listeners a new action was applied. Every accepted action is committed to
//! the store before anyone hears of it.

use crate::limits::{Bucket, Counts, Limits};
use crate::notify::{NotifyConfig, YourTurn};
use crate::random::{random_hex, random_seed, random_u64};
use crate::records::{
    AppendError, ChatLine, Contact, GameRecord, PendingRecord, SeatKind, StoredAction,
};
use crate::store::Store;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex, RwLock};
use tokio::sync::{watch, Mutex, Semaphore};
use volley_ai::Bot;
use volley_core::dice::Roll;
use volley_core::fairness::{self, Fairness};
use volley_core::session::{Record, SaveFile, SAVE_FORMAT, SAVE_VERSION};
use volley_core::{
    Action, LoggedEvent, Options, ScenarioSource, Seed, Session, SessionError, Side,
};

/// What the store keeps of a token: its SHA-256, hex.
pub fn token_hash(token: &str) -> String {
    volley_core::dice::to_hex(&Sha256::digest(token.as_bytes()))
}

/// How many actions (and odds requests) a seat may send: a token bucket.
#[derive(Clone, Copy, Debug)]
pub struct RateLimit {
    pub per_second: f64,
    pub burst: f64,
}

impl Default for RateLimit {
    fn default() -> RateLimit {
        RateLimit {
            per_second: 50.0,
            burst: 100.0,
        }
    }
}

/// The part of a game that changes, behind the game's lock.
pub struct Live {
    pub session: Session,
    /// What the two seats said to each other.
    pub chat: Vec<ChatLine>,
    /// The bot in each seat, if any. Taken out while it thinks.
    bots: [Option<Box<dyn Bot>>; 2],
    bot_running: bool,
    /// When the last action was taken (the start, before any): the clock of a paced game
    /// runs from here.
    pub last_at: i64,
    /// Where each seat is told it is its turn.
    pub contacts: [Contact; 2],
}

impl Live {
    /// When the side to decide runs out of time (Unix seconds); none in a live game or a
    /// finished one.
    pub fn deadline(&self, pace: i64) -> Option<i64> {
        (pace > 0 && !is_over(&self.session)).then(|| self.last_at + pace)
    }
}

/// What a game is set up with besides its scenario: the time for a move, and the token of
/// its spectator link.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// Seconds a player has for a move; 0 for a live game.
    pub pace: i64,
    /// The spectator link's token (none for games made before spectators).
    pub spectator: Option<String>,
}

/// One game.
pub struct GameEntry {
    pub id: String,
    pub seats: [SeatKind; 2],
    pub meta: Meta,
    /// Spectators watching now (their WebSockets open).
    pub watchers: AtomicUsize,
    /// Whether this process runs the game's bots: always with SQLite; with PostgreSQL, when
    /// it holds the game's bot lease.
    held: AtomicBool,
    pub live: Mutex<Live>,
    /// The number of actions applied, sent after each one is committed.
    pub changes: watch::Sender<u64>,
    buckets: StdMutex<[Bucket; 2]>,
    /// The WebSockets open on this game.
    pub sockets: Arc<Counts>,
    /// When the game was last asked for (Unix seconds): a finished game left alone is put
    /// away, and read back from the store when someone asks for it again.
    touched: std::sync::atomic::AtomicI64,
}

impl GameEntry {
    /// Whether the token is this game's spectator link.
    pub fn is_spectator(&self, token: &str) -> bool {
        self.meta.spectator.as_deref().is_some_and(|s| {
            // Compared by hash, so the time taken says nothing of the token.
            token_hash(s) == token_hash(token)
        })
    }

    /// Tells every listener to read the game again (a spectator came or went).
    pub fn poke(&self) {
        self.changes.send_modify(|_| {});
    }

    /// The side a token sits in, if it is one of this game's.
    pub fn seat_of(&self, token: &str) -> Option<Side> {
        let hash = token_hash(token);
        Side::BOTH.into_iter().find(|s| {
            matches!(&self.seats[s.index()], SeatKind::Human { token_hash } if *token_hash == hash)
        })
    }

    /// Takes one token from the seat's bucket; false when it is empty.
    pub fn take_rate_token(&self, side: Side, limit: RateLimit) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        buckets[side.index()].take(limit.per_second, limit.burst)
    }
}

/// Whether the game is over (nobody is left to decide).
pub fn is_over(session: &Session) -> bool {
    session.game.to_decide().is_none()
}

/// The saved-game file with the seed in it (for a finished game).
pub fn revealed_save(session: &Session) -> SaveFile {
    let mut save = session.to_save();
    save.seed = Some(session.seed());
    save.fairness = session.fairness.clone();
    save
}

/// Why an action was not taken.
pub enum Refusal {
    /// Refused: the rules or the request say no; nothing changed.
    Refused(String),
    /// Another server process moved the game on first; nothing changed here, and the game
    /// has been read on: look again and try again.
    Moved(String),
    /// It could not be stored; nothing changed.
    Store(String),
}

/// The registry of games and the store behind it.
pub struct Games {
    map: RwLock<HashMap<String, Arc<GameEntry>>>,
    /// Games waiting for their seats, by id.
    pending: Mutex<HashMap<String, Pending>>,
    pub store: Store,
    pub rate_limit: RateLimit,
    /// Games not over yet.
    pub open: AtomicUsize,
    /// Bots thinking at once, over every game.
    thinking: Arc<Semaphore>,
    sockets_per_game: usize,
    /// Seconds an unstarted or unplayed game is kept.
    keep_abandoned: i64,
    /// How players are told it is their turn.
    pub notify: NotifyConfig,
}

fn make_bots(seats: &[SeatKind; 2]) -> Result<[Option<Box<dyn Bot>>; 2], String> {
    let bot = |s: &SeatKind| match s {
        SeatKind::Human { .. } => Ok(None),
        SeatKind::Bot { spec } => volley_ai::bot_from_spec(spec, random_u64()).map(Some),
    };
    Ok([bot(&seats[0])?, bot(&seats[1])?])
}

/// The longest chat line, in characters.
pub const CHAT_MAX: usize = 500;

/// Seconds since 1970, for creation times and chat lines.
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A refusal of the session in the words a player reads.
fn refused(e: SessionError) -> Refusal {
    match e {
        SessionError::Illegal(i) => Refusal::Refused(i.0),
        other => Refusal::Refused(other.to_string()),
    }
}

/// Sets up a game from its scenario text, options and seed, and replays `records` (each
/// roll checked against the seed).
pub fn replay(
    scenario_name: &str,
    scenario_text: &str,
    options: &Options,
    seed: Seed,
    records: Vec<Record>,
    fairness: &Option<Fairness>,
    origin: &str,
) -> Result<Session, SessionError> {
    let source = ScenarioSource::new(format!("{origin} (scenario)"), scenario_text);
    let ruleset = volley_rulesets::ruleset_of(&source)?;
    let save = SaveFile {
        format: SAVE_FORMAT.to_string(),
        version: SAVE_VERSION,
        scenario_name: scenario_name.to_string(),
        scenario: scenario_text.to_string(),
        options: options.clone(),
        commitment: seed.commitment(),
        seed: Some(seed),
        fairness: fairness.clone(),
        actions: records,
    };
    let mut session = Session::from_save(ruleset, &save, origin)?;
    session.reveal_seed = false;
    Ok(session)
}

/// A new game to create: what the lobby asked for.
pub struct NewGame {
    pub scenario_name: String,
    pub scenario_text: String,
    pub options: Options,
    /// `None` for a human seat, else the bot spec.
    pub bots: [Option<String>; 2],
    /// The human seats the creator takes (the others are left open for an invitation).
    pub takes: [bool; 2],
    /// What the creator adds to the dice seed.
    pub entropy: String,
    /// Seconds a player has for a move; 0 for a live game.
    pub pace: i64,
    /// Where the creator's seats are told it is their turn.
    pub contact: Contact,
}

/// A created game: its id, the tokens of the seats its creator took, the one-time claims of
/// the seats left open, and the dice commitment published before anyone added entropy.
pub struct Created {
    pub id: String,
    pub tokens: [Option<String>; 2],
    pub claims: [Option<String>; 2],
    pub commitment: String,
    pub started: bool,
    /// The spectator link's token.
    pub spectator: String,
}

/// A seat of a game that has not started.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PendingSeat {
    Bot {
        spec: String,
    },
    /// A player sits here: their token's hash, and the entropy they added.
    Taken {
        token_hash: String,
        entropy: String,
    },
    /// Left open: the hash of the invitation's one-time claim.
    Open {
        claim_hash: String,
    },
}

/// A game waiting for every seat to be taken before anything is rolled.
#[derive(Clone, Debug)]
pub struct Pending {
    pub id: String,
    pub scenario_name: String,
    pub scenario_text: String,
    pub options: Options,
    server_seed: Seed,
    pub commitment: String,
    pub seats: [PendingSeat; 2],
    pub created_at: i64,
    pub meta: Meta,
}

impl Pending {
    fn record(&self) -> PendingRecord {
        PendingRecord {
            id: self.id.clone(),
            scenario_name: self.scenario_name.clone(),
            scenario_text: self.scenario_text.clone(),
            options_json: serde_json::to_string(&self.options).expect("options serialise"),
            server_seed: self.server_seed.to_hex(),
            commitment: self.commitment.clone(),
            seats_json: serde_json::to_string(&self.seats).expect("seats serialise"),
            created_at: self.created_at,
            pace: self.meta.pace,
            spectator: self.meta.spectator.clone(),
        }
    }

    fn from_record(r: PendingRecord) -> Result<Pending, String> {
        Ok(Pending {
            options: serde_json::from_str(&r.options_json)
                .map_err(|e| format!("its options are not readable: {e}"))?,
            server_seed: Seed::from_hex(&r.server_seed).ok_or("its secret is not 64 hex digits")?,
            seats: serde_json::from_str(&r.seats_json)
                .map_err(|e| format!("its seats are not readable: {e}"))?,
            id: r.id,
            scenario_name: r.scenario_name,
            scenario_text: r.scenario_text,
            commitment: r.commitment,
            created_at: r.created_at,
            meta: Meta {
                pace: r.pace,
                spectator: r.spectator,
            },
        })
    }

    /// The sides still waiting for their player.
    pub fn open(&self) -> Vec<Side> {
        Side::BOTH
            .into_iter()
            .filter(|s| matches!(self.seats[s.index()], PendingSeat::Open { .. }))
            .collect()
    }
}

impl Games {
    /// Rebuilds every stored game by replaying its actions.
    pub async fn restore(
        store: Store,
        stored: Vec<GameRecord>,
        waiting: Vec<PendingRecord>,
        rate_limit: RateLimit,
        limits: &Limits,
        notify: NotifyConfig,
        heard: Option<tokio::sync::mpsc::UnboundedReceiver<String>>,
    ) -> Arc<Games> {
        let mut pending = HashMap::new();
        for record in waiting {
            let id = record.id.clone();
            match Pending::from_record(record) {
                Ok(p) => {
                    pending.insert(id, p);
                }
                Err(e) => {
                    tracing::error!(game = %id, "a game waiting for its seats is left out: {e}")
                }
            }
        }
        let open_pending = pending.len();
        let games = Arc::new(Games {
            map: RwLock::new(HashMap::new()),
            pending: Mutex::new(pending),
            store,
            rate_limit,
            open: AtomicUsize::new(open_pending),
            thinking: Arc::new(Semaphore::new(limits.bots_at_once.max(1))),
            sockets_per_game: limits.sockets_per_game,
            keep_abandoned: limits.keep_abandoned.as_secs() as i64,
            notify,
        });
        for record in stored {
            let id = record.id.clone();
            match restore_one(record) {
                Ok((seats, meta, live)) => {
                    let entry = games.insert(id, seats, meta, live);
                    games.try_hold(&entry).await;
                    games.wake_bots(&entry).await;
                }
                Err(e) => tracing::error!(game = %id, "a stored game is left out: {e}"),
            }
        }
        // Every minute, finished games left alone for ten are put away (kept in the store).
        let weak_games = Arc::downgrade(&games);
        tokio::spawn(async move {
            let mut minutely = tokio::time::interval(std::time::Duration::from_secs(60));
            loop {
                minutely.tick().await;
                let Some(games) = weak_games.upgrade() else {
                    break;
                };
                games.put_away(600);
            }
        });
        // Once an hour, games past their keeping time are deleted and forgotten.
        let weak = Arc::downgrade(&games);
        tokio::spawn(async move {
            let mut hourly = tokio::time::interval(std::time::Duration::from_secs(3600));
            hourly.tick().await; // at once: the store expired games as it opened
            loop {
                hourly.tick().await;
                let Some(games) = weak.upgrade() else { break };
                match games.store.expire().await {
                    Ok(ids) => {
                        for id in ids {
                            games.forget(&id).await;
                        }
                        // Invitations nobody took within the keeping time went with them.
                        let oldest = unix_now() - games.keep_abandoned;
                        let mut waiting = games.pending.lock().await;
                        let before = waiting.len();
                        waiting.retain(|_, p| p.created_at >= oldest);
                        games
                            .open
                            .fetch_sub(before - waiting.len(), Ordering::Relaxed);
                    }
                    Err(e) => tracing::warn!("{e}"),
                }
            }
        });
        if let Some(heard) = heard {
            games.follow(heard);
        }
        games
    }

    /// With PostgreSQL: brings each game another process (or this one) wrote to up to date,
    /// which pushes the change to this process's WebSockets; and every two seconds takes the
    /// bot lease of the games with bots that nobody runs (their process died).
    fn follow(self: &Arc<Self>, mut heard: tokio::sync::mpsc::UnboundedReceiver<String>) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(id) = heard.recv().await {
                let Some(games) = weak.upgrade() else { break };
                let entry = games
                    .map
                    .read()
                    .unwrap_or_else(|p| p.into_inner())
                    .get(&id)
                    .cloned();
                if let Some(entry) = entry {
                    let mut live = entry.live.lock().await;
                    if let Err(e) = games.catch_up(&entry, &mut live, true).await {
                        tracing::warn!(game = %id, "the game could not be read on: {e}");
                    }
                    games.wake_bots_locked(&entry, &mut live);
                }
            }
        });
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_secs(2));
            loop {
                every.tick().await;
                let Some(games) = weak.upgrade() else { break };
                let orphans: Vec<Arc<GameEntry>> = games
                    .map
                    .read()
                    .unwrap_or_else(|p| p.into_inner())
                    .values()
                    .filter(|e| {
                        !e.held.load(Ordering::Relaxed)
                            && e.seats.iter().any(|s| matches!(s, SeatKind::Bot { .. }))
                    })
                    .cloned()
                    .collect();
                for entry in orphans {
                    if games.try_hold(&entry).await {
                        let mut live = entry.live.lock().await;
                        if let Err(e) = games.catch_up(&entry, &mut live, false).await {
                            tracing::warn!(game = %entry.id, "the game could not be read on: {e}");
                        }
                        games.wake_bots_locked(&entry, &mut live);
                    }
                }
            }
        });
    }

    /// Takes the game's bot lease if it has bots and nobody holds it (PostgreSQL); true when
    /// this process now runs its bots.
    async fn try_hold(&self, entry: &GameEntry) -> bool {
        let Some(pg) = self.store.shared() else {
            return true;
        };
        if entry.held.load(Ordering::Relaxed) {
            return true;
        }
        if !entry
            .seats
            .iter()
            .any(|s| matches!(s, SeatKind::Bot { .. }))
        {
            return false;
        }
        match pg.hold(&entry.id).await {
            Ok(held) => {
                entry.held.store(held, Ordering::Relaxed);
                held
            }
            Err(e) => {
                tracing::warn!(game = %entry.id, "{e}");
                false
            }
        }
    }

    /// The game's lock, with the game brought up to date first when other processes share
    /// it (PostgreSQL): what a write decides on must be what the store holds.
    pub async fn fresh<'a>(
        &self,
        entry: &'a GameEntry,
    ) -> Result<tokio::sync::MutexGuard<'a, Live>, Refusal> {
        let mut live = entry.live.lock().await;
        self.catch_up(entry, &mut live, false)
            .await
            .map_err(|e| Refusal::Store(format!("the game could not be read on: {e}")))?;
        Ok(live)
    }

    /// Reads on what other processes stored of this game (PostgreSQL; nothing to do with
    /// SQLite): new actions are played here too, new chat lines added, an action taken back
    /// makes the game read again whole; with `contacts` (another process wrote to the game)
    /// the seats' contacts are read again too. Tells the listeners when anything changed.
    async fn catch_up(
        &self,
        entry: &GameEntry,
        live: &mut Live,
        contacts: bool,
    ) -> Result<(), String> {
        let Some(pg) = self.store.shared() else {
            return Ok(());
        };
        let have = live.session.records.len() as u64;
        let was_over = is_over(&live.session);
        let news = pg
            .since(&entry.id, have, live.chat.len() as u64, contacts)
            .await?;
        if let Some(c) = news.contacts {
            live.contacts = c;
        }
        let taken_back =
            news.count < have || news.actions.first().is_some_and(|a| a.seq != have + 1);
        if taken_back {
            let record = pg
                .load(&entry.id)
                .await?
                .ok_or("it is no longer in the store")?;
            let (_, _, fresh) = restore_one(record)?;
            live.session = fresh.session;
            live.chat = fresh.chat;
            live.last_at = fresh.last_at;
        } else if news.actions.is_empty() && news.chat.is_empty() {
            return Ok(());
        } else {
            for a in &news.actions {
                live.session.apply_text(&a.action, &[]).map_err(|e| {
                    format!(
                        "stored action {} (\"{}\") does not replay: {e}",
                        a.seq, a.action
                    )
                })?;
            }
            live.chat.extend(news.chat);
            live.last_at = news.updated_at;
        }
        match (was_over, is_over(&live.session)) {
            (false, true) => {
                self.open.fetch_sub(1, Ordering::Relaxed);
            }
            (true, false) => {
                self.open.fetch_add(1, Ordering::Relaxed);
            }
            _ => {}
        }
        entry
            .changes
            .send_replace(live.session.records.len() as u64);
        Ok(())
    }

    /// Drops a game (deleted from the store) from memory.
    async fn forget(&self, id: &str) {
        let removed = self
            .map
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .remove(id);
        if let Some(entry) = removed {
            if !is_over(&entry.live.lock().await.session) {
                self.open.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    fn insert(&self, id: String, seats: [SeatKind; 2], meta: Meta, live: Live) -> Arc<GameEntry> {
        if !is_over(&live.session) {
            self.open.fetch_add(1, Ordering::Relaxed);
        }
        let (changes, _) = watch::channel(live.session.records.len() as u64);
        let entry = Arc::new(GameEntry {
            id: id.clone(),
            seats,
            meta,
            watchers: AtomicUsize::new(0),
            held: AtomicBool::new(self.store.shared().is_none()),
            live: Mutex::new(live),
            changes,
            buckets: StdMutex::new([Bucket::full(self.rate_limit.burst); 2]),
            sockets: Counts::new(
                "WebSockets on this game",
                self.sockets_per_game,
                self.sockets_per_game,
            ),
            touched: std::sync::atomic::AtomicI64::new(unix_now()),
        });
        self.map
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, entry.clone());
        entry
    }

    /// The game under this id: in memory, or (a finished game put away) read back from the
    /// store.
    pub async fn get(&self, id: &str) -> Option<Arc<GameEntry>> {
        let held = self
            .map
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned();
        if let Some(entry) = held {
            entry.touched.store(unix_now(), Ordering::Relaxed);
            return Some(entry);
        }
        if id.len() > 64 || self.still_pending(id).await {
            return None;
        }
        let record = self.store.load(id).await.ok().flatten()?;
        match restore_one(record) {
            Ok((seats, meta, live)) => Some(self.insert(id.to_string(), seats, meta, live)),
            Err(e) => {
                tracing::error!(game = %id, "a stored game cannot be read back: {e}");
                None
            }
        }
    }

    /// Puts away finished games nobody has asked for in `idle` seconds and nobody watches:
    /// they stay in the store and come back on demand, so memory holds the games in play.
    pub fn put_away(&self, idle: i64) -> usize {
        let now = unix_now();
        let mut map = self.map.write().unwrap_or_else(|p| p.into_inner());
        let before = map.len();
        map.retain(|_, e| {
            let quiet =
                now - e.touched.load(Ordering::Relaxed) >= idle && e.changes.receiver_count() == 0;
            // A game whose lock is held is in use: keep it.
            let over = e.live.try_lock().is_ok_and(|live| is_over(&live.session));
            !(quiet && over)
        });
        before - map.len()
    }

    /// Creates a game. The ruleset checks the scenario and options at once, but nothing is
    /// rolled until every human seat is taken: a game whose creator took every human seat
    /// starts now; one with a seat left open waits for its invitation to be claimed.
    pub async fn create(self: &Arc<Self>, new: NewGame) -> Result<Created, Refusal> {
        fairness::check_entropy(&new.entropy).map_err(Refusal::Refused)?;
        let source = ScenarioSource::new(
            format!("scenarios/{}.toml", new.scenario_name),
            new.scenario_text.clone(),
        );
        let ruleset =
            volley_rulesets::ruleset_of(&source).map_err(|e| Refusal::Refused(e.to_string()))?;
        ruleset
            .load(&source, &new.options)
            .map_err(|e| Refusal::Refused(e.to_string()))?;
        let server_seed = random_seed();
        let commitment = Fairness::commit(&server_seed, &new.scenario_text, &new.options);
        let mut tokens: [Option<String>; 2] = [None, None];
        let mut claims: [Option<String>; 2] = [None, None];
        let seats: [PendingSeat; 2] = [0, 1].map(|i| match &new.bots[i] {
            Some(spec) => PendingSeat::Bot { spec: spec.clone() },
            None if new.takes[i] => {
                let token = random_hex(24);
                let seat = PendingSeat::Taken {
                    token_hash: token_hash(&token),
                    entropy: new.entropy.clone(),
                };
                tokens[i] = Some(token);
                seat
            }
            None => {
                let claim = random_hex(24);
                let seat = PendingSeat::Open {
                    claim_hash: token_hash(&claim),
                };
                claims[i] = Some(claim);
                seat
            }
        });
        let spectator = random_hex(24);
        let pending = Pending {
            id: random_hex(10),
            scenario_name: new.scenario_name,
            scenario_text: new.scenario_text,
            options: new.options,
            server_seed,
            commitment: commitment.clone(),
            seats,
            created_at: unix_now(),
            meta: Meta {
                pace: new.pace,
                spectator: Some(spectator.clone()),
            },
        };
        let id = pending.id.clone();
        let started = pending.open().is_empty();
        // The creator's contact is kept before the game starts, so its first "your turn"
        // reaches them.
        if new.contact != Contact::default() {
            for side in Side::BOTH
                .into_iter()
                .filter(|s| tokens[s.index()].is_some())
            {
                self.store
                    .contact(&id, side, new.contact.clone())
                    .await
                    .map_err(Refusal::Store)?;
            }
        }
        let contacts = Side::BOTH.map(|s| {
            if tokens[s.index()].is_some() {
                new.contact.clone()
            } else {
                Contact::default()
            }
        });
        if started {
            self.start(pending, false, contacts).await?;
        } else {
            self.store
                .pend(pending.record())
                .await
                .map_err(Refusal::Store)?;
            self.open.fetch_add(1, Ordering::Relaxed);
            self.pending.lock().await.insert(id.clone(), pending);
        }
        Ok(Created {
            id,
            tokens,
            claims,
            commitment,
            started,
            spectator,
        })
    }

    /// Takes an open seat with its invitation's one-time claim, adding the player's entropy;
    /// the game starts once no seat is open. Returns the side and its token (never seen by
    /// the game's creator).
    pub async fn claim(
        self: &Arc<Self>,
        id: &str,
        claim: &str,
        entropy: &str,
        contact: Contact,
    ) -> Result<(Side, String), Claim> {
        fairness::check_entropy(entropy).map_err(|m| Claim::Refused(Refusal::Refused(m)))?;
        self.adopt_pending(id).await;
        let mut waiting = self.pending.lock().await;
        let Some(pending) = waiting.get_mut(id) else {
            drop(waiting);
            return Err(if self.get(id).await.is_some() {
                Claim::Taken
            } else {
                Claim::NoGame
            });
        };
        let hash = token_hash(claim);
        let side = Side::BOTH
            .into_iter()
            .find(|s| matches!(&pending.seats[s.index()], PendingSeat::Open { claim_hash } if *claim_hash == hash))
            .ok_or(Claim::NotThisGame)?;
        let token = random_hex(24);
        if contact != Contact::default() {
            self.store
                .contact(id, side, contact)
                .await
                .map_err(|e| Claim::Refused(Refusal::Store(e)))?;
        }
        let mut next = pending.clone();
        next.seats[side.index()] = PendingSeat::Taken {
            token_hash: token_hash(&token),
            entropy: entropy.to_string(),
        };
        if next.open().is_empty() {
            // The last seat: the game starts, and the pending record goes in the same write.
            waiting.remove(id);
            drop(waiting);
            let id = next.id.clone();
            // The contacts given at creation and at this claim, as stored.
            let contacts = match self.store.contacts(&id).await {
                Ok(c) => c,
                Err(e) => {
                    self.pending
                        .lock()
                        .await
                        .insert(id, pending_before(next, side, &hash));
                    return Err(Claim::Refused(Refusal::Store(e)));
                }
            };
            if let Err(e) = self.start(next.clone(), true, contacts).await {
                self.pending
                    .lock()
                    .await
                    .insert(id, pending_before(next, side, &hash));
                return Err(Claim::Refused(e));
            }
        } else {
            // (Two open seats: keep waiting. The lobby never makes such a game, but the API
            // allows it.)
            self.store
                .pend(next.record())
                .await
                .map_err(|e| Claim::Refused(Refusal::Store(e)))?;
            *pending = next;
        }
        Ok((side, token))
    }

    /// Every seat is taken: the dice seed is made of the server's secret and the players'
    /// entropy, the game is set up (its opening rolls made), stored and announced.
    async fn start(
        self: &Arc<Self>,
        pending: Pending,
        was_pending: bool,
        contacts: [Contact; 2],
    ) -> Result<(), Refusal> {
        let entropy: BTreeMap<String, String> = Side::BOTH
            .into_iter()
            .filter_map(|s| match &pending.seats[s.index()] {
                PendingSeat::Taken { entropy, .. } => Some((s.name().to_string(), entropy.clone())),
                _ => None,
            })
            .collect();
        let seed = Fairness::dice_seed(&pending.server_seed, &entropy);
        let source = ScenarioSource::new(
            format!("scenarios/{}.toml", pending.scenario_name),
            pending.scenario_text.clone(),
        );
        let mut session =
            volley_rulesets::new_session(&pending.scenario_name, &source, &pending.options, seed)
                .map_err(|e| Refusal::Refused(e.to_string()))?;
        session.reveal_seed = false;
        let fair = Fairness {
            commitment: pending.commitment.clone(),
            server_seed: Some(pending.server_seed),
            entropy,
        };
        session.fairness = Some(fair.clone());
        let seats: [SeatKind; 2] = pending.seats.clone().map(|seat| match seat {
            PendingSeat::Bot { spec } => SeatKind::Bot { spec },
            PendingSeat::Taken { token_hash, .. } => SeatKind::Human { token_hash },
            PendingSeat::Open { .. } => unreachable!("a game starts with every seat taken"),
        });
        let bots = make_bots(&seats).map_err(Refusal::Refused)?;
        self.store
            .create(
                GameRecord {
                    id: pending.id.clone(),
                    scenario_name: pending.scenario_name,
                    scenario_text: pending.scenario_text,
                    options_json: serde_json::to_string(&pending.options)
                        .expect("options serialise"),
                    seed: seed.to_hex(),
                    commitment: seed.commitment(),
                    seats: seats.clone(),
                    fairness_json: Some(serde_json::to_string(&fair).expect("fairness serialises")),
                    created_at: pending.created_at,
                    finished: is_over(&session),
                    actions: Vec::new(),
                    chat: Vec::new(),
                    pace: pending.meta.pace,
                    spectator: pending.meta.spectator.clone(),
                    updated_at: unix_now(),
                    contacts: contacts.clone(),
                },
                was_pending.then(|| pending.id.clone()),
            )
            .await
            .map_err(Refusal::Store)?;
        if was_pending {
            // It was counted as open while it waited; `insert` counts it again.
            self.open.fetch_sub(1, Ordering::Relaxed);
        }
        let entry = self.insert(
            pending.id,
            seats,
            pending.meta,
            Live {
                session,
                chat: Vec::new(),
                bots,
                bot_running: false,
                last_at: unix_now(),
                contacts,
            },
        );
        self.try_hold(&entry).await;
        {
            let mut live = entry.live.lock().await;
            self.tell_turn(&entry, &live, None);
            self.wake_bots_locked(&entry, &mut live);
        }
        Ok(())
    }

    /// Whether a game waits for its seats under this id (without waiting for the lock).
    pub fn is_waiting(&self, id: &str) -> bool {
        self.pending.try_lock().is_ok_and(|p| p.contains_key(id))
    }

    /// The game waiting for its seats under this id, if any.
    pub async fn waiting(&self, id: &str) -> Option<Pending> {
        self.adopt_pending(id).await;
        if !self.still_pending(id).await {
            return None;
        }
        self.pending.lock().await.get(id).cloned()
    }

    /// Whether the game waiting for its seats under this id still waits. With PostgreSQL
    /// another process may have started it: the store says, and a game started elsewhere
    /// is forgotten here (and read from the store when asked for).
    async fn still_pending(&self, id: &str) -> bool {
        if !self.pending.lock().await.contains_key(id) {
            return false;
        }
        let Some(pg) = self.store.shared() else {
            return true;
        };
        match pg.load_pending(id).await {
            Ok(Some(_)) => true,
            Ok(None) => {
                if self.pending.lock().await.remove(id).is_some() {
                    self.open.fetch_sub(1, Ordering::Relaxed);
                }
                false
            }
            // The store cannot say: keep to what this process knows.
            Err(_) => true,
        }
    }

    /// With PostgreSQL: a game another process made, waiting for its seats, is read from the
    /// store the first time it is asked for here.
    async fn adopt_pending(&self, id: &str) {
        let Some(pg) = self.store.shared() else {
            return;
        };
        if id.len() > 64 || self.pending.lock().await.contains_key(id) {
            return;
        }
        if self
            .map
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .contains_key(id)
        {
            return;
        }
        match pg.load_pending(id).await {
            Ok(Some(record)) => match Pending::from_record(record) {
                Ok(p) => {
                    self.pending.lock().await.entry(id.to_string()).or_insert(p);
                }
                Err(e) => {
                    tracing::error!(game = %id, "a game waiting for its seats is left out: {e}")
                }
            },
            Ok(None) => {}
            Err(e) => tracing::warn!(game = %id, "{e}"),
        }
    }

    /// Applies an action, stores it, and tells the game's listeners. On any refusal nothing
    /// changed. The caller holds the game's lock.
    pub async fn commit(
        self: &Arc<Self>,
        entry: &Arc<GameEntry>,
        live: &mut Live,
        action: Action,
    ) -> Result<Vec<LoggedEvent>, Refusal> {
        let before = live.session.game.to_decide();
        let events = live.session.apply(action, &[]).map_err(refused)?;
        self.store_last(entry, live, before).await?;
        Ok(events)
    }

    /// `side` resigns (whether or not it is its decision): stored and told like an action.
    pub async fn resign(
        self: &Arc<Self>,
        entry: &Arc<GameEntry>,
        live: &mut Live,
        side: Side,
    ) -> Result<Vec<LoggedEvent>, Refusal> {
        let events = live.session.resign(side).map_err(refused)?;
        self.store_last(entry, live, None).await?;
        Ok(events)
    }

    /// `side` claims the win because the other side's time for its move ran out: stored and
    /// told like an action. Refused in a live game, when it is `side`'s own decision, and
    /// before the time is up.
    pub async fn claim_timeout(
        self: &Arc<Self>,
        entry: &Arc<GameEntry>,
        live: &mut Live,
        side: Side,
    ) -> Result<Vec<LoggedEvent>, Refusal> {
        let pace = entry.meta.pace;
        if pace <= 0 {
            return Err(Refusal::Refused(
                "this game is played live, without a clock: there is no time to run out".into(),
            ));
        }
        let late = match live.session.game.to_decide() {
            None => return Err(Refusal::Refused("the game is over".into())),
            Some(s) if s == side => {
                return Err(Refusal::Refused(format!(
                "it is {side}'s own decision: only the player waiting for a move can claim the win"
            )))
            }
            Some(s) => s,
        };
        let deadline = live.last_at + pace;
        let now = unix_now();
        if now < deadline {
            return Err(Refusal::Refused(format!(
                "{late} still has time for the move: it runs out at {} UTC, in {}",
                crate::notify::utc(deadline),
                wait_words(deadline - now)
            )));
        }
        let events = live
            .session
            .give_up(late, volley_core::resign::Why::OutOfTime)
            .map_err(refused)?;
        self.store_last(entry, live, None).await?;
        Ok(events)
    }

    /// Keeps where `side` is told it is its turn.
    pub async fn set_contact(
        &self,
        entry: &Arc<GameEntry>,
        live: &mut Live,
        side: Side,
        contact: Contact,
    ) -> Result<(), Refusal> {
        let contact = crate::notify::checked(contact).map_err(Refusal::Refused)?;
        self.store
            .contact(&entry.id, side, contact.clone())
            .await
            .map_err(Refusal::Store)?;
        live.contacts[side.index()] = contact;
        Ok(())
    }

    /// Tells the side to decide that it is its turn, when the decision has passed to it from
    /// `before` and it gave a contact.
    fn tell_turn(&self, entry: &GameEntry, live: &Live, before: Option<Side>) {
        let Some(side) = live.session.game.to_decide() else {
            return;
        };
        let contact = &live.contacts[side.index()];
        if before == Some(side) || *contact == Contact::default() {
            return;
        }
        let message = YourTurn::new(
            &self.notify,
            &entry.id,
            &live.session.scenario_name,
            side,
            live.session.game.turn(),
            live.deadline(entry.meta.pace),
        );
        crate::notify::send(&self.notify, contact, message);
    }

    /// Stores the record just made and tells the game's listeners; if it cannot be stored,
    /// the game steps back to what the store holds.
    async fn store_last(
        self: &Arc<Self>,
        entry: &Arc<GameEntry>,
        live: &mut Live,
        before: Option<Side>,
    ) -> Result<(), Refusal> {
        let seq = live.session.records.len() as u64;
        let record = live.session.records.last().expect("just applied");
        let stored = StoredAction {
            seq,
            action: record.action.clone(),
            rolls_json: serde_json::to_string(&record.rolls).expect("rolls serialise"),
        };
        if let Err(e) = self
            .store
            .append(&entry.id, stored, is_over(&live.session))
            .await
        {
            let moved = matches!(e, AppendError::Stale(_));
            // Step back to what the store holds: replay without the last action.
            let mut records = live.session.records.clone();
            records.pop();
            let s = &live.session;
            match replay(
                &s.scenario_name,
                &s.scenario_text,
                &s.options,
                s.seed(),
                records,
                &s.fairness,
                &format!("game {}", entry.id),
            ) {
                Ok(previous) => live.session = previous,
                Err(r) => tracing::error!(
                    game = %entry.id,
                    "the game could not be stepped back after a failed write: {r}"
                ),
            }
            if moved {
                if let Err(r) = self.catch_up(entry, live, false).await {
                    tracing::warn!(game = %entry.id, "the game could not be read on: {r}");
                }
                return Err(Refusal::Moved(format!(
                    "the game moved on through another server before this action was stored, so it was not taken: read the game again and decide anew ({e})"
                )));
            }
            return Err(Refusal::Store(format!(
                "the action could not be stored, so it was not taken: {e}"
            )));
        }
        if is_over(&live.session) {
            self.open.fetch_sub(1, Ordering::Relaxed);
        }
        live.last_at = unix_now();
        entry.changes.send_replace(seq);
        self.tell_turn(entry, live, before);
        self.wake_bots_locked(entry, live);
        Ok(())
    }

    /// Takes back `side`'s last action ([`Session::undo`]), removes it from the store and
    /// tells the game's listeners (their seq goes down: they read the game again). On any
    /// refusal nothing changed. The caller holds the game's lock.
    pub async fn undo(
        &self,
        entry: &Arc<GameEntry>,
        live: &mut Live,
        side: Side,
    ) -> Result<String, Refusal> {
        let ruleset = volley_rulesets::find(live.session.game.ruleset())
            .ok_or_else(|| Refusal::Refused("the game's rule system is not known here".into()))?;
        let seq = live.session.records.len() as u64;
        let taken = live.session.records.last().cloned();
        let was_over = is_over(&live.session);
        let undone = live.session.undo(ruleset, side).map_err(Refusal::Refused)?;
        if let Err(e) = self.store.remove_last(&entry.id, seq).await {
            // Back to what the store holds: make the action again (it rolled no dice).
            if let Some(rec) = taken {
                if let Err(r) = live.session.apply_text(&rec.action, &rec.forced) {
                    tracing::error!(
                        game = %entry.id,
                        "the action taken back could not be made again after a failed write: {r}"
                    );
                }
            }
            return Err(Refusal::Store(format!(
                "the action could not be taken back in the store, so it stands: {e}"
            )));
        }
        if was_over && !is_over(&live.session) {
            self.open.fetch_add(1, Ordering::Relaxed);
        }
        entry
            .changes
            .send_replace(live.session.records.len() as u64);
        Ok(undone)
    }

    /// A line from a seat to the other: stored, then pushed to both seats (and only to them).
    pub async fn say(
        &self,
        entry: &Arc<GameEntry>,
        live: &mut Live,
        side: Side,
        text: &str,
    ) -> Result<ChatLine, Refusal> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Refusal::Refused("say something: the line is empty".into()));
        }
        if text.chars().count() > CHAT_MAX {
            return Err(Refusal::Refused(format!(
                "a chat line holds at most {CHAT_MAX} characters"
            )));
        }
        if text.chars().any(|c| c.is_control()) {
            return Err(Refusal::Refused(
                "a chat line is one line of text, without control characters".into(),
            ));
        }
        let line = ChatLine {
            seq: live.chat.len() as u64 + 1,
            side,
            text: text.to_string(),
            at: unix_now(),
        };
        self.store
            .chat(&entry.id, line.clone())
            .await
            .map_err(|e| Refusal::Store(format!("the line could not be stored: {e}")))?;
        live.chat.push(line.clone());
        entry
            .changes
            .send_replace(live.session.records.len() as u64);
        Ok(line)
    }

    /// Starts the game's bot driver if a bot is to decide and none is running.
    async fn wake_bots(self: &Arc<Self>, entry: &Arc<GameEntry>) {
        let mut live = entry.live.lock().await;
        self.wake_bots_locked(entry, &mut live);
    }

    fn wake_bots_locked(self: &Arc<Self>, entry: &Arc<GameEntry>, live: &mut Live) {
        let bot_to_decide = entry.held.load(Ordering::Relaxed)
            && live
                .session
                .game
                .to_decide()
                .is_some_and(|side| live.bots[side.index()].is_some());
        if bot_to_decide && !live.bot_running {
            live.bot_running = true;
            tokio::spawn(drive_bots(self.clone(), entry.clone()));
        }
    }
}

/// Why a claim did not take a seat.
pub enum Claim {
    NoGame,
    /// The invitation was used already (the game has started).
    Taken,
    /// The claim is not this game's.
    NotThisGame,
    Refused(Refusal),
}

/// A pending game as it was before `side`'s seat was claimed (put back when its start failed).
fn pending_before(mut next: Pending, side: Side, claim_hash: &str) -> Pending {
    next.seats[side.index()] = PendingSeat::Open {
        claim_hash: claim_hash.to_string(),
    };
    next
}

/// Plays one bot decision; committing it wakes the next driver if a bot is to decide again.
/// The bot thinks on a copy of the game, outside the lock, so the game still answers while
/// it does.
async fn drive_bots(games: Arc<Games>, entry: Arc<GameEntry>) {
    let (mut bot, game, side, seq) = {
        let Ok(mut live) = games.fresh(&entry).await else {
            entry.live.lock().await.bot_running = false;
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            games.wake_bots(&entry).await;
            return;
        };
        let turn = live
            .session
            .game
            .to_decide()
            .and_then(|side| live.bots[side.index()].take().map(|bot| (side, bot)));
        let Some((side, bot)) = turn else {
            live.bot_running = false;
            return;
        };
        (
            bot,
            live.session.game.clone_game(),
            side,
            live.session.records.len(),
        )
    };
    // Bots take turns at the machine's cores: the others wait for a free one.
    let permit = games.thinking.clone().acquire_owned().await;
    let thought = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let action = bot.choose(game.as_ref(), side);
        (bot, action)
    })
    .await;
    let mut live = entry.live.lock().await;
    live.bot_running = false;
    let (bot, action) = match thought {
        Ok(done) => done,
        Err(e) => {
            tracing::error!(
                game = %entry.id,
                %side,
                "the bot failed and leaves its seat: {e}"
            );
            return;
        }
    };
    live.bots[side.index()] = Some(bot);
    if live.session.records.len() != seq {
        // The game moved on while the bot thought (it was stepped back after a failed write).
        games.wake_bots_locked(&entry, &mut live);
        return;
    }
    match games.commit(&entry, &mut live, action).await {
        Ok(_) => {}
        Err(Refusal::Refused(e)) => tracing::error!(
            game = %entry.id,
            %side,
            "the bot chose an action the rules refused: {e}"
        ),
        Err(Refusal::Moved(_)) => games.wake_bots_locked(&entry, &mut live),
        Err(Refusal::Store(e)) => {
            tracing::warn!(game = %entry.id, "{e}; the bot tries again in a second");
            drop(live);
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            games.wake_bots(&entry).await;
        }
    }
}

/// A wait in words: "3 days 4 hours", "2 hours 5 minutes", "40 seconds".
fn wait_words(seconds: i64) -> String {
    let (d, h, m) = (
        seconds / 86_400,
        seconds % 86_400 / 3600,
        seconds % 3600 / 60,
    );
    let unit = |n: i64, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    if d > 0 {
        format!("{} {}", unit(d, "day"), unit(h, "hour"))
    } else if h > 0 {
        format!("{} {}", unit(h, "hour"), unit(m, "minute"))
    } else if m > 0 {
        unit(m, "minute")
    } else {
        unit(seconds.max(1), "second")
    }
}

fn restore_one(record: GameRecord) -> Result<([SeatKind; 2], Meta, Live), String> {
    let options: Options = serde_json::from_str(&record.options_json)
        .map_err(|e| format!("its options are not readable: {e}"))?;
    let seed = Seed::from_hex(&record.seed).ok_or("its seed is not 64 hex digits")?;
    if seed.commitment() != record.commitment {
        return Err("its seed does not match its commitment".into());
    }
    let mut records = Vec::with_capacity(record.actions.len());
    for (i, a) in record.actions.iter().enumerate() {
        if a.seq != i as u64 + 1 {
            return Err(format!("action {} is missing", i + 1));
        }
        let rolls: Vec<Roll> = serde_json::from_str(&a.rolls_json)
            .map_err(|e| format!("the rolls of action {} are not readable: {e}", a.seq))?;
        records.push(Record {
            action: a.action.clone(),
            forced: Vec::new(),
            rolls,
        });
    }
    let fairness: Option<Fairness> = record
        .fairness_json
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| format!("its commit-reveal record is not readable: {e}"))?;
    let session = replay(
        &record.scenario_name,
        &record.scenario_text,
        &options,
        seed,
        records,
        &fairness,
        &format!("stored game {}", record.id),
    )
    .map_err(|e| e.to_string())?;
    let bots = make_bots(&record.seats)?;
    Ok((
        record.seats,
        Meta {
            pace: record.pace,
            spectator: record.spectator,
        },
        Live {
            session,
            chat: record.chat,
            bots,
            bot_running: false,
            last_at: record.updated_at.max(record.created_at),
            contacts: record.contacts,
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished game nobody asks for is put away, and read back whole when asked for; a
    /// game in play, or one with a listener, stays.
    #[tokio::test]
    async fn finished_games_left_alone_are_put_away_and_read_back() {
        let dir = tempfile::tempdir().expect("a directory");
        let url = crate::store::DbUrl::Sqlite(dir.path().join("g.db"));
        let limits = Limits::default();
        let (store, stored, waiting, heard) =
            crate::store::start(&url, &limits).await.expect("a store");
        let games = Games::restore(
            store,
            stored,
            waiting,
            RateLimit::default(),
            &limits,
            NotifyConfig::default(),
            heard,
        )
        .await;
        let bundled = volley_rulesets::bundled()
            .iter()
            .find(|b| b.name == "hc-first-clash")
            .expect("bundled");
        let mut ids = Vec::new();
        for _ in 0..2 {
            let created = games
                .create(NewGame {
                    scenario_name: bundled.name.into(),
                    scenario_text: bundled.text.into(),
                    options: Options::new(),
                    bots: [None, None],
                    takes: [true, true],
                    entropy: String::new(),
                    pace: 0,
                    contact: Contact::default(),
                })
                .await
                .unwrap_or_else(|_| panic!("created"));
            ids.push(created.id);
        }
        let (over, playing) = (&ids[0], &ids[1]);
        let entry = games.get(over).await.expect("in memory");
        {
            let mut live = entry.live.lock().await;
            games
                .resign(&entry, &mut live, Side::Red)
                .await
                .unwrap_or_else(|_| panic!("resigned"));
        }
        let log_len = entry.live.lock().await.session.log.len();
        drop(entry);
        // Asked for just now: kept.
        assert_eq!(games.put_away(600), 0);
        for id in &ids {
            games
                .get(id)
                .await
                .expect("there")
                .touched
                .store(0, Ordering::Relaxed);
        }
        // Idle for long: the finished one goes, the one in play stays.
        assert_eq!(games.put_away(600), 1);
        assert!(games.map.read().unwrap().contains_key(playing));
        assert!(!games.map.read().unwrap().contains_key(over));
        let back = games.get(over).await.expect("read back from the store");
        let live = back.live.lock().await;
        assert!(is_over(&live.session));
        assert_eq!(live.session.log.len(), log_len);
    }
}
