//! The durable store: SQLite (the default, embedded) or PostgreSQL (several server processes
//! sharing games: see `pg.rs`). Both commit every write before it is acknowledged.
//!
//! SQLite runs in WAL mode with `synchronous = FULL`, so a committed transaction survives a
//! crash of the process (and of the machine).
//!
//! One writer thread owns the connection. Requests queue on a channel; the thread takes every
//! request waiting, writes them in one transaction and answers each after the commit (group
//! commit: under load many actions share one fsync, and none is acknowledged before it is on
//! disk).

use crate::limits::Limits;
use rusqlite::{params, Connection};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use tokio::sync::oneshot;
use volley_core::Side;

/// Where games are kept, from `--db`: a path, `sqlite:PATH`, or a PostgreSQL URL
/// (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbUrl {
    Sqlite(PathBuf),
    Postgres(String),
}

impl DbUrl {
    pub fn parse(text: &str) -> Result<DbUrl, String> {
        let text = text.trim();
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            text.parse::<tokio_postgres::Config>().map_err(|e| {
                format!("--db: \"{text}\" is not a PostgreSQL URL this server can read: {e}")
            })?;
            return Ok(DbUrl::Postgres(text.to_string()));
        }
        let path = match text.strip_prefix("sqlite:") {
            Some(rest) => rest.strip_prefix("//").unwrap_or(rest),
            None => text,
        };
        if path.is_empty() {
            return Err(
                "--db needs a file path (e.g. volley.db or sqlite:/var/lib/volley.db)".into(),
            );
        }
        if path.contains("://") {
            return Err(format!(
                "\"{text}\" is not a database this server knows: give a SQLite file path, sqlite:PATH or postgres://…"
            ));
        }
        Ok(DbUrl::Sqlite(PathBuf::from(path)))
    }
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatKind {
    Human {
        /// SHA-256 of the seat's token, hex. The token itself is never stored.
        token_hash: String,
    },
    Bot {
        spec: String,
    },
}

/// A game as stored: everything needed to replay it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub id: String,
    pub scenario_name: String,
    pub scenario_text: String,
    /// The options given at creation, as a JSON object of strings.
    pub options_json: String,
    /// Hex; kept secret until the game ends.
    pub seed: String,
    pub commitment: String,
    pub seats: [SeatKind; 2],
    /// The commit–reveal record (`volley_core::fairness::Fairness`) as JSON; none for games
    /// stored before it existed.
    pub fairness_json: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
    pub finished: bool,
    pub actions: Vec<StoredAction>,
    /// What the two seats said to each other, in order.
    pub chat: Vec<ChatLine>,
    /// The time a player has for a move, in seconds; 0 for a live game (no clock).
    pub pace: i64,
    /// The spectator link's token, kept as it is (it opens only what both sides have seen,
    /// and the players' pages show it); none for games made before spectators.
    pub spectator: Option<String>,
    /// When the last action was stored (Unix seconds; the creation time before any).
    pub updated_at: i64,
    /// Where each seat is told it is its turn.
    pub contacts: [Contact; 2],
}

/// Where a seat wants to hear that it is its turn: a webhook URL (POSTed a JSON message), an
/// e-mail address, both or neither.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Contact {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// One line of the players' chat: which seat said it, what, and when (Unix seconds).
#[derive(Clone, Debug, serde::Serialize)]
pub struct ChatLine {
    pub seq: u64,
    pub side: Side,
    pub text: String,
    pub at: i64,
}

/// One accepted action: its notation and the rolls it made (JSON array of `{sides, value}`).
#[derive(Clone, Debug)]
pub struct StoredAction {
    pub seq: u64,
    pub action: String,
    pub rolls_json: String,
}

/// A game waiting for its seats to be taken: nothing rolled yet. `seats_json` is the JSON of
/// the two seats (`PendingSeat`), `server_seed` the secret, hex.
#[derive(Clone, Debug)]
pub struct PendingRecord {
    pub id: String,
    pub scenario_name: String,
    pub scenario_text: String,
    pub options_json: String,
    pub server_seed: String,
    pub commitment: String,
    pub seats_json: String,
    pub created_at: i64,
    /// The time a player will have for a move, in seconds; 0 for live.
    pub pace: i64,
    /// The spectator link's token.
    pub spectator: Option<String>,
}

enum Job {
    /// A game that starts (its pending record, if it had one, removed in the same write).
    Create(Box<GameRecord>, Option<String>),
    /// A game that waits for its seats.
    Pend(Box<PendingRecord>),
    Append {
        game_id: String,
        action: StoredAction,
        finished: bool,
    },
    /// A line of the players' chat.
    Chat { game_id: String, line: ChatLine },
    /// Where a seat is told it is its turn (replacing what it gave before).
    Contact {
        game_id: String,
        side: Side,
        contact: Contact,
    },
    /// The last action taken back (an undo): removed, and only if it is the last.
    Remove { game_id: String, seq: u64 },
    /// Delete the games past their keeping time; their ids are left in the cell.
    Expire(std::sync::Arc<std::sync::Mutex<Vec<String>>>),
    /// Read one stored game back (a finished game put away); left in the cell.
    Load(String, std::sync::Arc<std::sync::Mutex<Option<GameRecord>>>),
    /// Read the contacts of a game's seats; left in the cell.
    Contacts(String, std::sync::Arc<std::sync::Mutex<[Contact; 2]>>),
}

type Reply = oneshot::Sender<Result<(), String>>;

/// A handle on the SQLite writer thread. Cheap to clone.
#[derive(Clone)]
pub struct SqliteStore {
    jobs: mpsc::Sender<(Job, Reply)>,
}

/// The store the games are kept in. Cheap to clone.
#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(std::sync::Arc<crate::pg::PgStore>),
}

/// Why an action was not appended.
#[derive(Debug)]
pub enum AppendError {
    /// Another server process stored actions this one has not read yet: the store holds
    /// this many.
    Stale(u64),
    Failed(String),
}

impl std::fmt::Display for AppendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppendError::Stale(n) => write!(
                f,
                "the game moved on through another server: the store holds {n} actions"
            ),
            AppendError::Failed(m) => f.write_str(m),
        }
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id              TEXT PRIMARY KEY,
    scenario_name   TEXT NOT NULL,
    scenario_text   TEXT NOT NULL,
    options         TEXT NOT NULL,
    seed            TEXT NOT NULL,
    commitment      TEXT NOT NULL,
    red_kind        TEXT NOT NULL,
    red_token_hash  TEXT,
    blue_kind       TEXT NOT NULL,
    blue_token_hash TEXT,
    created_at      INTEGER NOT NULL,
    finished        INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    action  TEXT NOT NULL,
    rolls   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS pending (
    id              TEXT PRIMARY KEY,
    scenario_name   TEXT NOT NULL,
    scenario_text   TEXT NOT NULL,
    options         TEXT NOT NULL,
    server_seed     TEXT NOT NULL,
    commitment      TEXT NOT NULL,
    seats           TEXT NOT NULL,
    created_at      INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    side    TEXT NOT NULL,
    text    TEXT NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS contacts (
    game_id TEXT NOT NULL,
    side    TEXT NOT NULL,
    webhook TEXT,
    email   TEXT,
    PRIMARY KEY (game_id, side)
) WITHOUT ROWID;
";

fn open(path: &Path) -> Result<Connection, String> {
    let shown = path.display();
    create_private(path).map_err(|e| format!("cannot create the database {shown}: {e}"))?;
    let conn =
        Connection::open(path).map_err(|e| format!("cannot open the database {shown}: {e}"))?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .and_then(|_| conn.pragma_update(None, "synchronous", "FULL"))
        .and_then(|_| conn.pragma_update(None, "foreign_keys", "ON"))
        .and_then(|_| conn.execute_batch(SCHEMA))
        .and_then(|_| add_updated_at(&conn))
        .map_err(|e| format!("cannot set up the database {shown}: {e}"))?;
    Ok(conn)
}

/// A new database file is readable and writable by its owner only (SQLite gives its journal
/// files the same mode). An existing file keeps the mode its owner gave it.
fn create_private(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

/// Databases made before games kept the time of their last action, their commit–reveal
/// record, their pace and their spectator link gain the columns.
fn add_updated_at(conn: &Connection) -> rusqlite::Result<()> {
    let has_in = |table: &str, column: &str| -> rusqlite::Result<bool> {
        conn.query_row(
            "SELECT COUNT(*) FROM pragma_table_info(?1) WHERE name = ?2",
            [table, column],
            |r| r.get::<_, i64>(0),
        )
        .map(|n| n > 0)
    };
    let has = |column: &str| has_in("games", column);
    for table in ["games", "pending"] {
        if !has_in(table, "pace")? {
            conn.execute_batch(&format!(
                "ALTER TABLE {table} ADD COLUMN pace INTEGER NOT NULL DEFAULT 0;
                 ALTER TABLE {table} ADD COLUMN spectator TEXT;"
            ))?;
        }
    }
    if !has("updated_at")? {
        conn.execute_batch(
            "ALTER TABLE games ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
             UPDATE games SET updated_at = created_at;",
        )?;
    }
    if !has("fairness")? {
        conn.execute_batch("ALTER TABLE games ADD COLUMN fairness TEXT;")?;
    }
    Ok(())
}

/// Seconds since 1970.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Deletes the games past their keeping time: finished ones `keep_finished` after their last
/// action, unfinished ones nobody touched for `keep_abandoned`. Returns their ids.
fn expire(
    conn: &Connection,
    keep_finished: i64,
    keep_abandoned: i64,
) -> rusqlite::Result<Vec<String>> {
    let now = unix_now();
    let mut stmt = conn.prepare(
        "SELECT id FROM games
          WHERE (finished = 1 AND MAX(created_at, updated_at) < ?1)
             OR (finished = 0 AND MAX(created_at, updated_at) < ?2)",
    )?;
    let ids: Vec<String> = stmt
        .query_map(params![now - keep_finished, now - keep_abandoned], |r| {
            r.get(0)
        })?
        .collect::<rusqlite::Result<_>>()?;
    conn.execute(
        "DELETE FROM contacts WHERE game_id IN (SELECT id FROM pending WHERE created_at < ?1)",
        [now - keep_abandoned],
    )?;
    conn.execute(
        "DELETE FROM pending WHERE created_at < ?1",
        [now - keep_abandoned],
    )?;
    for id in &ids {
        conn.execute("DELETE FROM actions WHERE game_id = ?1", [id])?;
        conn.execute("DELETE FROM chat WHERE game_id = ?1", [id])?;
        conn.execute("DELETE FROM contacts WHERE game_id = ?1", [id])?;
        conn.execute("DELETE FROM games WHERE id = ?1", [id])?;
    }
    Ok(ids)
}

/// What opening a store gives: the store, the games in play, the games waiting for their
/// seats, and (PostgreSQL) the ids of games other processes write to.
pub type Opened = (
    Store,
    Vec<GameRecord>,
    Vec<PendingRecord>,
    Option<tokio::sync::mpsc::UnboundedReceiver<String>>,
);

/// Opens (or creates) the database and reads every game in play.
pub async fn start(url: &DbUrl, limits: &Limits) -> Result<Opened, String> {
    let keep = Keep {
        finished: limits.keep_finished.as_secs() as i64,
        abandoned: limits.keep_abandoned.as_secs() as i64,
    };
    match url {
        DbUrl::Sqlite(path) => {
            let (store, games, pending) = start_sqlite(path, keep)?;
            Ok((Store::Sqlite(store), games, pending, None))
        }
        DbUrl::Postgres(url) => {
            let (store, games, pending, heard) =
                crate::pg::PgStore::open(url, keep.finished, keep.abandoned).await?;
            Ok((Store::Postgres(store), games, pending, Some(heard)))
        }
    }
}

/// Opens (or creates) the SQLite file, reads every stored game, and starts the writer thread.
fn start_sqlite(
    path: &Path,
    keep: Keep,
) -> Result<(SqliteStore, Vec<GameRecord>, Vec<PendingRecord>), String> {
    let conn = open(path)?;
    let expired = expire(&conn, keep.finished, keep.abandoned)
        .map_err(|e| format!("cannot delete expired games from {}: {e}", path.display()))?;
    if !expired.is_empty() {
        eprintln!("volley-server: {} expired game(s) deleted", expired.len());
    }
    let games = load(&conn, Which::Unfinished)
        .map_err(|e| format!("cannot read the stored games from {}: {e}", path.display()))?;
    let pending = load_pending(&conn).map_err(|e| {
        format!(
            "cannot read the games waiting for seats from {}: {e}",
            path.display()
        )
    })?;
    let (jobs, queue) = mpsc::channel::<(Job, Reply)>();
    std::thread::Builder::new()
        .name("volley-store".into())
        .spawn(move || write_loop(conn, queue, keep))
        .map_err(|e| format!("cannot start the database writer: {e}"))?;
    Ok((SqliteStore { jobs }, games, pending))
}

fn load_pending(conn: &Connection) -> rusqlite::Result<Vec<PendingRecord>> {
    let mut stmt = conn.prepare(
        "SELECT id, scenario_name, scenario_text, options, server_seed, commitment, seats, created_at,
                pace, spectator
         FROM pending ORDER BY created_at, id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(PendingRecord {
            id: r.get(0)?,
            scenario_name: r.get(1)?,
            scenario_text: r.get(2)?,
            options_json: r.get(3)?,
            server_seed: r.get(4)?,
            commitment: r.get(5)?,
            seats_json: r.get(6)?,
            created_at: r.get(7)?,
            pace: r.get(8)?,
            spectator: r.get(9)?,
        })
    })?;
    rows.collect()
}

fn seat_kind(kind: String, token_hash: Option<String>) -> SeatKind {
    match token_hash {
        Some(token_hash) if kind == "human" => SeatKind::Human { token_hash },
        _ => SeatKind::Bot { spec: kind },
    }
}

/// Which stored games to read.
enum Which<'a> {
    /// Those not over: the server keeps them in memory from the start.
    Unfinished,
    /// One game, by id (a finished game read back on demand).
    One(&'a str),
}

fn load(conn: &Connection, which: Which) -> rusqlite::Result<Vec<GameRecord>> {
    let mut games = Vec::new();
    let (filter, id) = match which {
        Which::Unfinished => ("finished = 0 AND ?1 = ''", ""),
        Which::One(id) => ("id = ?1", id),
    };
    let mut stmt = conn.prepare(&format!(
        "SELECT id, scenario_name, scenario_text, options, seed, commitment,
                red_kind, red_token_hash, blue_kind, blue_token_hash, created_at, finished,
                fairness, pace, spectator, updated_at
         FROM games WHERE ({filter}) ORDER BY created_at, id"
    ))?;
    let rows = stmt.query_map([id], |r| {
        Ok(GameRecord {
            id: r.get(0)?,
            scenario_name: r.get(1)?,
            scenario_text: r.get(2)?,
            options_json: r.get(3)?,
            seed: r.get(4)?,
            commitment: r.get(5)?,
            seats: [
                seat_kind(r.get(6)?, r.get(7)?),
                seat_kind(r.get(8)?, r.get(9)?),
            ],
            created_at: r.get(10)?,
            finished: r.get::<_, i64>(11)? != 0,
            fairness_json: r.get(12)?,
            pace: r.get(13)?,
            spectator: r.get(14)?,
            updated_at: r.get(15)?,
            actions: Vec::new(),
            chat: Vec::new(),
            contacts: Default::default(),
        })
    })?;
    for game in rows {
        games.push(game?);
    }
    let mut stmt =
        conn.prepare("SELECT seq, action, rolls FROM actions WHERE game_id = ?1 ORDER BY seq")?;
    for game in &mut games {
        let rows = stmt.query_map([&game.id], |r| {
            Ok(StoredAction {
                seq: r.get::<_, i64>(0)? as u64,
                action: r.get(1)?,
                rolls_json: r.get(2)?,
            })
        })?;
        for action in rows {
            game.actions.push(action?);
        }
    }
    let mut stmt =
        conn.prepare("SELECT seq, side, text, at FROM chat WHERE game_id = ?1 ORDER BY seq")?;
    for game in &mut games {
        let rows = stmt.query_map([&game.id], |r| {
            let side: String = r.get(1)?;
            Ok(ChatLine {
                seq: r.get::<_, i64>(0)? as u64,
                side: Side::parse(&side).unwrap_or(Side::Red),
                text: r.get(2)?,
                at: r.get(3)?,
            })
        })?;
        for line in rows {
            game.chat.push(line?);
        }
    }
    for game in &mut games {
        game.contacts = load_contacts(conn, &game.id)?;
    }
    Ok(games)
}

fn load_contacts(conn: &Connection, id: &str) -> rusqlite::Result<[Contact; 2]> {
    let mut contacts: [Contact; 2] = Default::default();
    let mut stmt =
        conn.prepare_cached("SELECT side, webhook, email FROM contacts WHERE game_id = ?1")?;
    let rows = stmt.query_map([id], |r| {
        let side: String = r.get(0)?;
        Ok((
            Side::parse(&side),
            Contact {
                webhook: r.get(1)?,
                email: r.get(2)?,
            },
        ))
    })?;
    for row in rows {
        if let (Some(side), contact) = row? {
            contacts[side.index()] = contact;
        }
    }
    Ok(contacts)
}

/// How long games are kept, in seconds.
#[derive(Clone, Copy)]
struct Keep {
    finished: i64,
    abandoned: i64,
}

fn write_loop(mut conn: Connection, queue: mpsc::Receiver<(Job, Reply)>, keep: Keep) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        batch.extend(queue.try_iter().take(1023));
        let results = write_batch(&mut conn, &batch, keep);
        for ((_, reply), result) in batch.into_iter().zip(results) {
            // The request may have been dropped (its client went away); the write stands.
            let _ = reply.send(result);
        }
    }
}

/// Writes a batch in one transaction. A job that fails is left out; the others commit.
fn write_batch(
    conn: &mut Connection,
    batch: &[(Job, Reply)],
    keep: Keep,
) -> Vec<Result<(), String>> {
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(e) => {
            let m = format!("cannot start a database transaction: {e}");
            return batch.iter().map(|_| Err(m.clone())).collect();
        }
    };
    let mut results = Vec::with_capacity(batch.len());
    for (job, _) in batch {
        // A savepoint per job: a job that fails rolls back alone (dropping the savepoint).
        let result = match tx.savepoint() {
            Ok(sp) => write_job(&sp, job, keep).and_then(|()| {
                sp.commit()
                    .map_err(|e| format!("cannot write to the database: {e}"))
            }),
            Err(e) => Err(format!("cannot write to the database: {e}")),
        };
        results.push(result);
    }
    if let Err(e) = tx.commit() {
        let m = format!("cannot commit to the database: {e}");
        results = batch.iter().map(|_| Err(m.clone())).collect();
    }
    results
}

fn write_job(conn: &Connection, job: &Job, keep: Keep) -> Result<(), String> {
    let db = |e: rusqlite::Error| format!("cannot write to the database: {e}");
    match job {
        Job::Pend(p) => {
            conn.execute(
                "INSERT OR REPLACE INTO pending (id, scenario_name, scenario_text, options,
                    server_seed, commitment, seats, created_at, pace, spectator)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    p.id,
                    p.scenario_name,
                    p.scenario_text,
                    p.options_json,
                    p.server_seed,
                    p.commitment,
                    p.seats_json,
                    p.created_at,
                    p.pace,
                    p.spectator
                ],
            )
            .map_err(db)?;
        }
        Job::Create(g, pending) => {
            if let Some(id) = pending {
                let removed = conn
                    .execute("DELETE FROM pending WHERE id = ?1", [id])
                    .map_err(db)?;
                if removed != 1 {
                    return Err(format!("game {id} is no longer waiting for its seats"));
                }
            }
            let seat = |s: &SeatKind| match s {
                SeatKind::Human { token_hash } => ("human".to_string(), Some(token_hash.clone())),
                SeatKind::Bot { spec } => (spec.clone(), None),
            };
            let (red_kind, red_hash) = seat(&g.seats[Side::Red.index()]);
            let (blue_kind, blue_hash) = seat(&g.seats[Side::Blue.index()]);
            conn.execute(
                "INSERT INTO games (id, scenario_name, scenario_text, options, seed, commitment,
                    red_kind, red_token_hash, blue_kind, blue_token_hash, created_at, finished,
                    updated_at, fairness, pace, spectator)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?16, ?13, ?14, ?15)",
                params![
                    g.id,
                    g.scenario_name,
                    g.scenario_text,
                    g.options_json,
                    g.seed,
                    g.commitment,
                    red_kind,
                    red_hash,
                    blue_kind,
                    blue_hash,
                    g.created_at,
                    g.finished as i64,
                    g.fairness_json,
                    g.pace,
                    g.spectator,
                    g.updated_at
                ],
            )
            .map_err(db)?;
        }
        Job::Append {
            game_id,
            action,
            finished,
        } => {
            let last: i64 = conn
                .query_row(
                    "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?1",
                    [game_id],
                    |r| r.get(0),
                )
                .map_err(db)?;
            if last as u64 + 1 != action.seq {
                return Err(format!(
                    "action {} of game {game_id} is out of order (the store has {last})",
                    action.seq
                ));
            }
            conn.execute(
                "INSERT INTO actions (game_id, seq, action, rolls) VALUES (?1, ?2, ?3, ?4)",
                params![game_id, action.seq as i64, action.action, action.rolls_json],
            )
            .map_err(db)?;
            conn.execute(
                "UPDATE games SET updated_at = ?2 WHERE id = ?1",
                params![game_id, unix_now()],
            )
            .map_err(db)?;
            if *finished {
                conn.execute("UPDATE games SET finished = 1 WHERE id = ?1", [game_id])
                    .map_err(db)?;
            }
        }
        Job::Chat { game_id, line } => {
            conn.execute(
                "INSERT INTO chat (game_id, seq, side, text, at) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    game_id,
                    line.seq as i64,
                    line.side.name(),
                    line.text,
                    line.at
                ],
            )
            .map_err(db)?;
        }
        Job::Contact {
            game_id,
            side,
            contact,
        } => {
            conn.execute(
                "INSERT OR REPLACE INTO contacts (game_id, side, webhook, email)
                 VALUES (?1, ?2, ?3, ?4)",
                params![game_id, side.name(), contact.webhook, contact.email],
            )
            .map_err(db)?;
        }
        Job::Remove { game_id, seq } => {
            let removed = conn
                .execute(
                    "DELETE FROM actions WHERE game_id = ?1 AND seq = ?2
                       AND seq = (SELECT MAX(seq) FROM actions WHERE game_id = ?1)",
                    params![game_id, *seq as i64],
                )
                .map_err(db)?;
            if removed != 1 {
                return Err(format!(
                    "action {seq} of game {game_id} is not its last stored action"
                ));
            }
        }
        Job::Load(id, found) => {
            let game = load(conn, Which::One(id)).map_err(db)?.pop();
            *found.lock().unwrap_or_else(|p| p.into_inner()) = game;
        }
        Job::Contacts(id, found) => {
            let contacts = load_contacts(conn, id).map_err(db)?;
            *found.lock().unwrap_or_else(|p| p.into_inner()) = contacts;
        }
        Job::Expire(found) => {
            let ids = expire(conn, keep.finished, keep.abandoned).map_err(db)?;
            *found.lock().unwrap_or_else(|p| p.into_inner()) = ids;
        }
    }
    Ok(())
}

impl Store {
    /// The PostgreSQL store, when games are shared with other processes.
    pub fn shared(&self) -> Option<&crate::pg::PgStore> {
        match self {
            Store::Sqlite(_) => None,
            Store::Postgres(pg) => Some(pg),
        }
    }

    pub async fn load(&self, id: &str) -> Result<Option<GameRecord>, String> {
        match self {
            Store::Sqlite(s) => s.load(id).await,
            Store::Postgres(p) => p.load(id).await,
        }
    }

    /// Deletes the games past their keeping time; returns their ids.
    pub async fn expire(&self) -> Result<Vec<String>, String> {
        match self {
            Store::Sqlite(s) => s.expire().await,
            Store::Postgres(p) => p.expire().await,
        }
    }

    pub async fn contacts(&self, id: &str) -> Result<[Contact; 2], String> {
        match self {
            Store::Sqlite(s) => s.contacts(id).await,
            Store::Postgres(p) => p.contacts(id).await,
        }
    }

    pub async fn create(&self, game: GameRecord, pending: Option<String>) -> Result<(), String> {
        match self {
            Store::Sqlite(s) => s.create(game, pending).await,
            Store::Postgres(p) => p.create(&game, pending.as_deref()).await,
        }
    }

    pub async fn pend(&self, game: PendingRecord) -> Result<(), String> {
        match self {
            Store::Sqlite(s) => s.pend(game).await,
            Store::Postgres(p) => p.pend(&game).await,
        }
    }

    pub async fn append(
        &self,
        game_id: &str,
        action: StoredAction,
        finished: bool,
    ) -> Result<(), AppendError> {
        match self {
            Store::Sqlite(s) => s
                .append(game_id, action, finished)
                .await
                .map_err(AppendError::Failed),
            Store::Postgres(p) => p.append(game_id, &action, finished, unix_now()).await,
        }
    }

    pub async fn chat(&self, game_id: &str, line: ChatLine) -> Result<(), String> {
        match self {
            Store::Sqlite(s) => s.chat(game_id, line).await,
            Store::Postgres(p) => p.chat(game_id, &line).await,
        }
    }

    pub async fn contact(&self, game_id: &str, side: Side, contact: Contact) -> Result<(), String> {
        match self {
            Store::Sqlite(s) => s.contact(game_id, side, contact).await,
            Store::Postgres(p) => p.contact(game_id, side, &contact).await,
        }
    }

    pub async fn remove_last(&self, game_id: &str, seq: u64) -> Result<(), String> {
        match self {
            Store::Sqlite(s) => s.remove_last(game_id, seq).await,
            Store::Postgres(p) => p.remove_last(game_id, seq).await,
        }
    }
}

impl SqliteStore {
    /// Reads one stored game back, with its actions and chat.
    pub async fn load(&self, id: &str) -> Result<Option<GameRecord>, String> {
        let found = std::sync::Arc::new(std::sync::Mutex::new(None));
        self.send(Job::Load(id.to_string(), found.clone())).await?;
        let game = found.lock().map(|mut f| f.take()).unwrap_or_default();
        Ok(game)
    }

    /// The contacts kept for a game's seats (a game waiting for its seats included).
    pub async fn contacts(&self, id: &str) -> Result<[Contact; 2], String> {
        let found = std::sync::Arc::new(std::sync::Mutex::new(Default::default()));
        self.send(Job::Contacts(id.to_string(), found.clone()))
            .await?;
        let contacts = found.lock().map(|f| f.clone()).unwrap_or_default();
        Ok(contacts)
    }

    /// Deletes the games past their keeping time; returns their ids.
    pub async fn expire(&self) -> Result<Vec<String>, String> {
        let found = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        self.send(Job::Expire(found.clone())).await?;
        let ids = found.lock().map(|f| f.clone()).unwrap_or_default();
        Ok(ids)
    }

    async fn send(&self, job: Job) -> Result<(), String> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send((job, reply))
            .map_err(|_| "the database writer has stopped".to_string())?;
        answer
            .await
            .map_err(|_| "the database writer stopped before answering".to_string())?
    }

    /// Stores a game that starts, removing its pending record (if it waited for seats) in
    /// the same write; returns once it is committed.
    pub async fn create(&self, game: GameRecord, pending: Option<String>) -> Result<(), String> {
        self.send(Job::Create(Box::new(game), pending)).await
    }

    /// Stores a game that waits for its seats; returns once it is committed.
    pub async fn pend(&self, game: PendingRecord) -> Result<(), String> {
        self.send(Job::Pend(Box::new(game))).await
    }

    /// Appends an accepted action; returns once it is committed.
    pub async fn append(
        &self,
        game_id: &str,
        action: StoredAction,
        finished: bool,
    ) -> Result<(), String> {
        self.send(Job::Append {
            game_id: game_id.to_string(),
            action,
            finished,
        })
        .await
    }

    /// Stores a line of the players' chat; returns once it is committed.
    pub async fn chat(&self, game_id: &str, line: ChatLine) -> Result<(), String> {
        self.send(Job::Chat {
            game_id: game_id.to_string(),
            line,
        })
        .await
    }

    /// Keeps where a seat is told it is its turn; returns once it is committed.
    pub async fn contact(&self, game_id: &str, side: Side, contact: Contact) -> Result<(), String> {
        self.send(Job::Contact {
            game_id: game_id.to_string(),
            side,
            contact,
        })
        .await
    }

    /// Removes the game's last action (taken back); returns once that is committed.
    pub async fn remove_last(&self, game_id: &str, seq: u64) -> Result<(), String> {
        self.send(Job::Remove {
            game_id: game_id.to_string(),
            seq,
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn db_urls() {
        assert_eq!(
            DbUrl::parse("volley.db"),
            Ok(DbUrl::Sqlite("volley.db".into()))
        );
        assert_eq!(
            DbUrl::parse("sqlite:/tmp/x.db"),
            Ok(DbUrl::Sqlite("/tmp/x.db".into()))
        );
        assert_eq!(
            DbUrl::parse("sqlite:///tmp/x.db"),
            Ok(DbUrl::Sqlite("/tmp/x.db".into()))
        );
        assert_eq!(
            DbUrl::parse("postgres://u:p@localhost:5432/volley"),
            Ok(DbUrl::Postgres(
                "postgres://u:p@localhost:5432/volley".into()
            ))
        );
        let e = DbUrl::parse("postgres://u@localhost:notaport/volley").unwrap_err();
        assert!(e.contains("not a PostgreSQL URL"), "{e}");
        assert!(DbUrl::parse("mysql://x").is_err());
        assert!(DbUrl::parse("sqlite:").is_err());
    }
}

/// One suite, run on both stores: what the server relies on a store for.
#[cfg(test)]
mod suite {
    use super::*;

    fn game(id: &str, created_at: i64, finished: bool) -> GameRecord {
        GameRecord {
            id: id.into(),
            scenario_name: "s".into(),
            scenario_text: "text".into(),
            options_json: "{}".into(),
            seed: "00".into(),
            commitment: "c".into(),
            seats: [
                SeatKind::Human {
                    token_hash: "h".into(),
                },
                SeatKind::Bot {
                    spec: "normal".into(),
                },
            ],
            fairness_json: None,
            created_at,
            finished,
            actions: Vec::new(),
            chat: Vec::new(),
            pace: 86_400,
            spectator: Some("watch".into()),
            updated_at: created_at,
            contacts: Default::default(),
        }
    }

    fn action(seq: u64) -> StoredAction {
        StoredAction {
            seq,
            action: format!("a{seq}"),
            rolls_json: "[]".into(),
        }
    }

    fn pending(id: &str) -> PendingRecord {
        PendingRecord {
            id: id.into(),
            scenario_name: "s".into(),
            scenario_text: "text".into(),
            options_json: "{}".into(),
            server_seed: "00".into(),
            commitment: "c".into(),
            seats_json: "[]".into(),
            created_at: unix_now(),
            pace: 3600,
            spectator: Some("w".into()),
        }
    }

    async fn suite(url: DbUrl) {
        let limits = Limits::default();
        let (store, games, waiting, _) = start(&url, &limits).await.expect("the store opens");
        assert!(games.is_empty() && waiting.is_empty());
        let now = unix_now();
        store.create(game("g1", now, false), None).await.unwrap();
        assert!(
            store.create(game("g1", now, false), None).await.is_err(),
            "one game per id"
        );
        // Actions go in order, one writer per number.
        store.append("g1", action(1), false).await.unwrap();
        assert!(store.append("g1", action(1), false).await.is_err());
        assert!(store.append("g1", action(3), false).await.is_err());
        store.append("g1", action(2), false).await.unwrap();
        // Only the last action can be taken back.
        assert!(store.remove_last("g1", 1).await.is_err());
        store.remove_last("g1", 2).await.unwrap();
        store.append("g1", action(2), false).await.unwrap();
        let line = ChatLine {
            seq: 1,
            side: Side::Blue,
            text: "hello".into(),
            at: now,
        };
        store.chat("g1", line.clone()).await.unwrap();
        assert!(store.chat("g1", line).await.is_err(), "one line per number");
        let contact = Contact {
            webhook: Some("http://x/".into()),
            email: None,
        };
        store
            .contact("g1", Side::Blue, contact.clone())
            .await
            .unwrap();
        assert_eq!(store.contacts("g1").await.unwrap()[1], contact);
        let back = store.load("g1").await.unwrap().expect("stored");
        assert_eq!(back.actions.len(), 2);
        assert_eq!(back.actions[1].action, "a2");
        assert_eq!(back.chat.len(), 1);
        assert_eq!(back.chat[0].text, "hello");
        assert_eq!(back.contacts[Side::Blue.index()], contact);
        assert_eq!(
            (back.pace, back.spectator.as_deref()),
            (86_400, Some("watch"))
        );
        assert_eq!(back.seats, game("g1", now, false).seats);
        assert!(store.load("nosuch").await.unwrap().is_none());

        // A game waiting for its seats starts once: its pending record goes in the same write.
        store.pend(pending("p1")).await.unwrap();
        assert!(store
            .create(game("p0", now, false), Some("p0".into()))
            .await
            .is_err());
        store
            .create(game("p1", now, false), Some("p1".into()))
            .await
            .unwrap();
        let e = store
            .create(game("p1b", now, false), Some("p1".into()))
            .await
            .unwrap_err();
        assert!(e.contains("no longer waiting"), "{e}");

        // The last action finishes the game: a finished game is not read at start.
        store.append("p1", action(1), true).await.unwrap();
        drop(store);
        let (store, games, waiting, _) = start(&url, &limits).await.expect("opens again");
        let ids: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, vec!["g1"]);
        assert!(waiting.is_empty());

        // Past their keeping time games go, with their actions and chat.
        store.create(game("old", 1000, true), None).await.unwrap();
        store.append("old", action(1), true).await.unwrap();
        let old = store.load("old").await.unwrap().expect("there");
        assert!(old.finished);
        let expired = store.expire().await.unwrap();
        // (Appending set its last action's time to now: it stays.)
        assert!(expired.is_empty(), "{expired:?}");
        store.create(game("older", 1000, true), None).await.unwrap();
        store
            .create(game("abandoned", 1000, false), None)
            .await
            .unwrap();
        let mut expired = store.expire().await.unwrap();
        expired.sort();
        assert_eq!(expired, vec!["abandoned".to_string(), "older".to_string()]);
        assert!(store.load("older").await.unwrap().is_none());
    }

    #[tokio::test]
    async fn sqlite_passes_the_store_suite() {
        let dir = tempfile::tempdir().unwrap();
        suite(DbUrl::Sqlite(dir.path().join("s.db"))).await;
    }

    #[tokio::test]
    async fn postgres_passes_the_store_suite() {
        let Some(url) = crate::pg::test_database().await else {
            return;
        };
        suite(DbUrl::Postgres(url)).await;
    }
}
