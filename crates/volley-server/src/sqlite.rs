//! The SQLite store, the default: one file, nothing to install.
//!
//! SQLite runs in WAL mode with `synchronous = FULL`, so a committed transaction survives a
//! crash of the process (and of the machine).
//!
//! One writer thread owns the connection. Requests queue on a channel; the thread takes every
//! request waiting, writes them in one transaction and answers each after the commit (group
//! commit: under load many actions share one fsync, and none is acknowledged before it is on
//! disk).

use crate::records::{
    unix_now, ChatLine, Contact, GameRecord, Keep, PendingRecord, SeatKind, StoredAction,
};
use crate::schema::{self, Dialect, Found};
use rusqlite::{params, Connection};
use std::path::Path;
use std::sync::mpsc;
use tokio::sync::oneshot;
use volley_core::Side;

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

fn open(path: &Path) -> Result<Connection, String> {
    let shown = path.display();
    create_private(path).map_err(|e| format!("cannot create the database {shown}: {e}"))?;
    let conn =
        Connection::open(path).map_err(|e| format!("cannot open the database {shown}: {e}"))?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .and_then(|_| conn.pragma_update(None, "synchronous", "FULL"))
        .and_then(|_| conn.pragma_update(None, "foreign_keys", "ON"))
        .map_err(|e| format!("cannot set up the database {shown}: {e}"))?;
    let mut conn = conn;
    migrate(&mut conn).map_err(|e| format!("cannot bring the database {shown} up to date: {e}"))?;
    Ok(conn)
}

/// Brings the file's schema up to date ([`schema::plan`]) in one transaction.
fn migrate(conn: &mut Connection) -> Result<(), String> {
    let tx = conn.transaction().map_err(|e| e.to_string())?;
    tx.execute_batch(&schema::version_table(Dialect::Sqlite))
        .map_err(|e| e.to_string())?;
    let version: Option<i64> = tx
        .query_row("SELECT MAX(version) FROM volley_schema", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    let columns = |table: &str| -> rusqlite::Result<Vec<String>> {
        let mut stmt = tx.prepare("SELECT name FROM pragma_table_info(?1)")?;
        let names = stmt.query_map([table], |r| r.get(0))?;
        names.collect()
    };
    let games = columns("games").map_err(|e| e.to_string())?;
    let pending = columns("pending").map_err(|e| e.to_string())?;
    let found = match version {
        Some(v) => Found::Version(v as u32),
        None if !games.is_empty() => Found::Unnumbered,
        None => Found::Empty,
    };
    schema::too_new(found)?;
    let needed = schema::pending(found);
    if !needed.is_empty() {
        tracing::info!(
            database = "sqlite",
            from = ?found,
            to = schema::current(),
            "the schema is brought up to date: {}",
            needed.join("; ")
        );
    }
    let has_column = |table: &str, column: &str| {
        let of = if table == "games" { &games } else { &pending };
        of.iter().any(|c| c == column)
    };
    for statement in schema::plan(Dialect::Sqlite, found, has_column) {
        tx.execute_batch(&statement)
            .map_err(|e| format!("{e} (in: {statement})"))?;
    }
    tx.commit().map_err(|e| e.to_string())
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

/// Opens (or creates) the SQLite file, reads every stored game, and starts the writer thread.
pub fn start_sqlite(
    path: &Path,
    keep: Keep,
) -> Result<(SqliteStore, Vec<GameRecord>, Vec<PendingRecord>), String> {
    let conn = open(path)?;
    let expired = expire(&conn, keep.finished, keep.abandoned)
        .map_err(|e| format!("cannot delete expired games from {}: {e}", path.display()))?;
    if !expired.is_empty() {
        tracing::info!(count = expired.len(), "expired games deleted");
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
    fn a_file_made_before_the_schema_kept_its_number_is_brought_up_to_date() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            // The tables as a server made them when games had a pace and a spectator link,
            // but not yet the time of their last action nor a commit-reveal record.
            let conn = Connection::open(&path).unwrap();
            for m in &schema::MIGRATIONS[..2] {
                for step in m.steps {
                    let sql = match *step {
                        schema::Step::Sql(sql) => sql.to_string(),
                        schema::Step::AddColumn {
                            table,
                            column,
                            decl,
                            ..
                        } => format!("ALTER TABLE {table} ADD COLUMN {column} {decl}"),
                    };
                    conn.execute_batch(&sql.replace("{int}", "INTEGER").replace("{keyed}", ""))
                        .unwrap();
                }
            }
            conn.execute_batch(
                "INSERT INTO games (id, scenario_name, scenario_text, options, seed, commitment,
                                    red_kind, blue_kind, created_at, pace)
                 VALUES ('g1', 's', 't', '{}', '00', 'c', 'human', 'human', 1000, 60)",
            )
            .unwrap();
        }
        let conn = open(&path).unwrap();
        let version: i64 = conn
            .query_row("SELECT version FROM volley_schema", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, schema::current() as i64);
        let (updated, pace, fairness): (i64, i64, Option<String>) = conn
            .query_row(
                "SELECT updated_at, pace, fairness FROM games WHERE id = 'g1'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!((updated, pace, fairness), (1000, 60, None));
        drop(conn);
        // Opened again, nothing more is done.
        open(&path).unwrap();
    }

    #[test]
    fn a_file_from_a_newer_volley_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new.db");
        open(&path).unwrap();
        Connection::open(&path)
            .unwrap()
            .execute_batch("UPDATE volley_schema SET version = version + 1")
            .unwrap();
        let e = open(&path).unwrap_err();
        assert!(e.contains("made by a newer Volley"), "{e}");
    }
}
