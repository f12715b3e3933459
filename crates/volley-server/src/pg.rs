//! The PostgreSQL store, for several server processes sharing games (`--db postgres://…`).
//!
//! - Every write is one statement or one transaction, committed before it is acknowledged.
//! - One writer per game: an action is appended by `volley_append`, which takes the game's
//!   advisory transaction lock and checks that the action's number follows the stored ones;
//!   a process whose copy of the game is behind is told so ([`AppendError::Stale`]), reads
//!   the game on and tries again, so two processes can never both append action N.
//! - Pushes fan out: every write to a game sends `NOTIFY volley, 'GAME_ID'`; every process
//!   LISTENs and brings its copy of that game up to date, which pushes to its WebSockets.
//! - Bots run on whichever process holds the game: a session advisory lock on the game's
//!   bot key, held on the listening connection, so it is let go when the process dies.

use crate::records::{
    unix_now, AppendError, ChatLine, Contact, GameRecord, PendingRecord, SeatKind, StoredAction,
};
use crate::schema::{self, Dialect, Found};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, Mutex};
use tokio_postgres::{Client, NoTls};
use volley_core::Side;

/// What only PostgreSQL has (the tables are `schema.rs`'s): the functions that keep one
/// writer per game and tell the other processes of every write.
const FUNCTIONS: &str = "
CREATE OR REPLACE FUNCTION volley_append(g TEXT, s BIGINT, a TEXT, r TEXT, fin BOOLEAN, t BIGINT)
RETURNS BIGINT AS $$
DECLARE last BIGINT;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('volley-game:' || g));
    SELECT COALESCE(MAX(seq), 0) INTO last FROM actions WHERE game_id = g;
    IF last + 1 <> s THEN
        RETURN -1 - last;
    END IF;
    INSERT INTO actions (game_id, seq, action, rolls) VALUES (g, s, a, r);
    UPDATE games SET updated_at = t, finished = CASE WHEN fin THEN 1 ELSE finished END
     WHERE id = g;
    PERFORM pg_notify('volley', g);
    RETURN s;
END $$ LANGUAGE plpgsql;
CREATE OR REPLACE FUNCTION volley_remove(g TEXT, s BIGINT) RETURNS BIGINT AS $$
DECLARE n BIGINT;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('volley-game:' || g));
    DELETE FROM actions WHERE game_id = g AND seq = s
       AND seq = (SELECT MAX(seq) FROM actions WHERE game_id = g);
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n = 1 THEN
        UPDATE games SET finished = 0 WHERE id = g;
        PERFORM pg_notify('volley', g);
    END IF;
    RETURN n;
END $$ LANGUAGE plpgsql;
";

/// What another process added to a game (see [`PgStore::since`]).
pub struct News {
    pub count: u64,
    pub updated_at: i64,
    pub actions: Vec<StoredAction>,
    pub chat: Vec<ChatLine>,
    /// The seats' contacts, when asked for.
    pub contacts: Option<[Contact; 2]>,
}

/// Connections a process keeps to the database for its requests.
const POOL: usize = 8;

/// The PostgreSQL store: a few connections for requests, and one that listens for the other
/// processes' writes and holds this process's bot leases.
pub struct PgStore {
    /// Seconds a finished game, and an unfinished one nobody plays, are kept.
    keep_finished: i64,
    keep_abandoned: i64,
    pool: Vec<Mutex<Client>>,
    next: AtomicUsize,
    /// The listening connection; its session holds the bot leases.
    lease: Mutex<Client>,
}

/// Brings the database's schema up to date ([`schema::plan`]), inside the caller's
/// transaction (which holds the schema lock, so two processes starting at once take turns).
async fn migrate(tx: &tokio_postgres::Transaction<'_>) -> Result<(), String> {
    let e = |e: tokio_postgres::Error| e.to_string();
    tx.batch_execute(&schema::version_table(Dialect::Postgres))
        .await
        .map_err(e)?;
    let version: Option<i64> = tx
        .query_one("SELECT MAX(version) FROM volley_schema", &[])
        .await
        .map_err(e)?
        .get(0);
    let columns: Vec<(String, String)> = tx
        .query(
            "SELECT table_name::TEXT, column_name::TEXT FROM information_schema.columns
              WHERE table_schema = current_schema() AND table_name IN ('games', 'pending')",
            &[],
        )
        .await
        .map_err(e)?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let found = match version {
        Some(v) => Found::Version(v as u32),
        None if columns.iter().any(|(t, _)| t == "games") => Found::Unnumbered,
        None => Found::Empty,
    };
    schema::too_new(found)?;
    let needed = schema::pending(found);
    if !needed.is_empty() {
        tracing::info!(
            database = "postgres",
            from = ?found,
            to = schema::current(),
            "the schema is brought up to date: {}",
            needed.join("; ")
        );
    }
    let has_column =
        |table: &str, column: &str| columns.iter().any(|(t, c)| t == table && c == column);
    for statement in schema::plan(Dialect::Postgres, found, has_column) {
        tx.batch_execute(&statement)
            .await
            .map_err(|err| format!("{err} (in: {statement})"))?;
    }
    Ok(())
}

/// Where to connect, shown without its password.
fn shown(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let creds = &url[scheme + 3..at];
            let user = creds.split(':').next().unwrap_or("");
            format!("{}{user}@{}", &url[..scheme + 3], &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

async fn connect(url: &str, shown: &str) -> Result<Client, String> {
    let (client, connection) = tokio_postgres::connect(url, NoTls)
        .await
        .map_err(|e| format!("cannot connect to the PostgreSQL database {shown}: {e}"))?;
    let where_ = shown.to_string();
    tokio::spawn(async move {
        if let Err(e) = connection.await {
            tracing::error!("the connection to {where_} failed: {e}");
        }
    });
    Ok(client)
}

fn db(what: &str) -> impl Fn(tokio_postgres::Error) -> String + '_ {
    move |e| format!("cannot {what} in PostgreSQL: {e}")
}

fn seat_kind(kind: String, token_hash: Option<String>) -> SeatKind {
    match token_hash {
        Some(token_hash) if kind == "human" => SeatKind::Human { token_hash },
        _ => SeatKind::Bot { spec: kind },
    }
}

fn seat_columns(s: &SeatKind) -> (String, Option<String>) {
    match s {
        SeatKind::Human { token_hash } => ("human".to_string(), Some(token_hash.clone())),
        SeatKind::Bot { spec } => (spec.clone(), None),
    }
}

impl PgStore {
    /// Connects, sets up the tables (once, whichever process comes first), deletes the games
    /// past their keeping time, reads the games in play and starts listening. The receiver
    /// gets the id of every game another process (or this one) wrote to.
    pub async fn open(
        url: &str,
        keep_finished: i64,
        keep_abandoned: i64,
    ) -> Result<
        (
            Arc<PgStore>,
            Vec<GameRecord>,
            Vec<PendingRecord>,
            mpsc::UnboundedReceiver<String>,
        ),
        String,
    > {
        let url_shown = shown(url);
        let mut pool = Vec::with_capacity(POOL);
        for _ in 0..POOL {
            pool.push(Mutex::new(connect(url, &url_shown).await?));
        }
        {
            let mut first = pool[0].lock().await;
            let tx = first
                .transaction()
                .await
                .map_err(|e| format!("cannot set up the tables in {url_shown}: {e}"))?;
            tx.batch_execute("SELECT pg_advisory_xact_lock(hashtext('volley-schema'))")
                .await
                .map_err(|e| format!("cannot set up the tables in {url_shown}: {e}"))?;
            migrate(&tx)
                .await
                .map_err(|e| format!("cannot bring the tables in {url_shown} up to date: {e}"))?;
            tx.batch_execute(FUNCTIONS)
                .await
                .map_err(|e| format!("cannot set up the tables in {url_shown}: {e}"))?;
            tx.commit()
                .await
                .map_err(|e| format!("cannot set up the tables in {url_shown}: {e}"))?;
        }
        // The listening connection: its notifications go to the receiver.
        let (lease, mut connection) = tokio_postgres::connect(url, NoTls)
            .await
            .map_err(|e| format!("cannot connect to the PostgreSQL database {url_shown}: {e}"))?;
        let (tx, rx) = mpsc::unbounded_channel();
        let where_ = url_shown.clone();
        tokio::spawn(async move {
            let mut messages = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
            use futures_util::StreamExt;
            while let Some(message) = messages.next().await {
                match message {
                    Ok(tokio_postgres::AsyncMessage::Notification(n)) => {
                        if tx.send(n.payload().to_string()).is_err() {
                            return;
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        tracing::error!(
                            "the listening connection to {where_} failed: {e}; \
                             this process no longer hears of other processes' moves"
                        );
                        return;
                    }
                }
            }
        });
        lease
            .batch_execute("LISTEN volley")
            .await
            .map_err(|e| format!("cannot listen for other servers' moves in {url_shown}: {e}"))?;
        let store = Arc::new(PgStore {
            keep_finished,
            keep_abandoned,
            pool,
            next: AtomicUsize::new(0),
            lease: Mutex::new(lease),
        });
        let expired = store.expire().await?;
        if !expired.is_empty() {
            tracing::info!(count = expired.len(), "expired games deleted");
        }
        let games = store.load_where("finished = 0", &[]).await?;
        let pending = store.pending_where("TRUE", &[]).await?;
        Ok((store, games, pending, rx))
    }

    /// A free connection of the pool (or, when all are busy, the next one's turn).
    async fn client(&self) -> tokio::sync::MutexGuard<'_, Client> {
        for c in &self.pool {
            if let Ok(guard) = c.try_lock() {
                return guard;
            }
        }
        let i = self.next.fetch_add(1, Ordering::Relaxed) % self.pool.len();
        self.pool[i].lock().await
    }

    pub async fn create(&self, g: &GameRecord, pending: Option<&str>) -> Result<(), String> {
        let mut client = self.client().await;
        let tx = client
            .transaction()
            .await
            .map_err(db("start a transaction"))?;
        if let Some(id) = pending {
            let removed = tx
                .execute("DELETE FROM pending WHERE id = $1", &[&id])
                .await
                .map_err(db("write"))?;
            if removed != 1 {
                return Err(format!("game {id} is no longer waiting for its seats"));
            }
        }
        let (red_kind, red_hash) = seat_columns(&g.seats[Side::Red.index()]);
        let (blue_kind, blue_hash) = seat_columns(&g.seats[Side::Blue.index()]);
        tx.execute(
            "INSERT INTO games (id, scenario_name, scenario_text, options, seed, commitment,
                red_kind, red_token_hash, blue_kind, blue_token_hash, created_at, finished,
                updated_at, fairness, pace, spectator)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
            &[
                &g.id,
                &g.scenario_name,
                &g.scenario_text,
                &g.options_json,
                &g.seed,
                &g.commitment,
                &red_kind,
                &red_hash,
                &blue_kind,
                &blue_hash,
                &g.created_at,
                &(g.finished as i32),
                &g.updated_at,
                &g.fairness_json,
                &g.pace,
                &g.spectator,
            ],
        )
        .await
        .map_err(db("store the game"))?;
        tx.execute("SELECT pg_notify('volley', $1)", &[&g.id])
            .await
            .map_err(db("write"))?;
        tx.commit().await.map_err(db("commit"))
    }

    pub async fn pend(&self, p: &PendingRecord) -> Result<(), String> {
        self.client()
            .await
            .execute(
                "INSERT INTO pending (id, scenario_name, scenario_text, options, server_seed,
                    commitment, seats, created_at, pace, spectator)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                 ON CONFLICT (id) DO UPDATE SET seats = EXCLUDED.seats",
                &[
                    &p.id,
                    &p.scenario_name,
                    &p.scenario_text,
                    &p.options_json,
                    &p.server_seed,
                    &p.commitment,
                    &p.seats_json,
                    &p.created_at,
                    &p.pace,
                    &p.spectator,
                ],
            )
            .await
            .map(|_| ())
            .map_err(db("store the game waiting for its seats"))
    }

    pub async fn append(
        &self,
        game_id: &str,
        action: &StoredAction,
        finished: bool,
        now: i64,
    ) -> Result<(), AppendError> {
        let seq = action.seq as i64;
        let row = self
            .client()
            .await
            .query_one(
                "SELECT volley_append($1, $2, $3, $4, $5, $6)",
                &[
                    &game_id,
                    &seq,
                    &action.action,
                    &action.rolls_json,
                    &finished,
                    &now,
                ],
            )
            .await
            .map_err(|e| AppendError::Failed(db("store the action")(e)))?;
        // The action's number, or (refused) -1 minus the number of actions stored.
        let answer: i64 = row.get(0);
        if answer >= 0 {
            Ok(())
        } else {
            Err(AppendError::Stale((-1 - answer) as u64))
        }
    }

    pub async fn chat(&self, game_id: &str, line: &ChatLine) -> Result<(), String> {
        self.client()
            .await
            .execute(
                "WITH said AS (
                    INSERT INTO chat (game_id, seq, side, text, at) VALUES ($1, $2, $3, $4, $5)
                    RETURNING game_id)
                 SELECT pg_notify('volley', game_id) FROM said",
                &[
                    &game_id,
                    &(line.seq as i64),
                    &line.side.name(),
                    &line.text,
                    &line.at,
                ],
            )
            .await
            .map(|_| ())
            .map_err(db("store the chat line"))
    }

    pub async fn contact(&self, game_id: &str, side: Side, c: &Contact) -> Result<(), String> {
        self.client()
            .await
            .execute(
                "WITH kept AS (
                    INSERT INTO contacts (game_id, side, webhook, email) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (game_id, side) DO UPDATE
                    SET webhook = EXCLUDED.webhook, email = EXCLUDED.email
                    RETURNING game_id)
                 SELECT pg_notify('volley', game_id) FROM kept",
                &[&game_id, &side.name(), &c.webhook, &c.email],
            )
            .await
            .map(|_| ())
            .map_err(db("store the contact"))
    }

    pub async fn remove_last(&self, game_id: &str, seq: u64) -> Result<(), String> {
        let row = self
            .client()
            .await
            .query_one("SELECT volley_remove($1, $2)", &[&game_id, &(seq as i64)])
            .await
            .map_err(db("take the action back"))?;
        if row.get::<_, i64>(0) != 1 {
            return Err(format!(
                "action {seq} of game {game_id} is not its last stored action"
            ));
        }
        Ok(())
    }

    pub async fn load(&self, id: &str) -> Result<Option<GameRecord>, String> {
        Ok(self.load_where("id = $1", &[&id]).await?.pop())
    }

    /// A game waiting for its seats, made by any process.
    pub async fn load_pending(&self, id: &str) -> Result<Option<PendingRecord>, String> {
        Ok(self.pending_where("id = $1", &[&id]).await?.pop())
    }

    pub async fn contacts(&self, id: &str) -> Result<[Contact; 2], String> {
        let rows = self
            .client()
            .await
            .query(
                "SELECT side, webhook, email FROM contacts WHERE game_id = $1",
                &[&id],
            )
            .await
            .map_err(db("read the contacts"))?;
        let mut contacts: [Contact; 2] = Default::default();
        for r in rows {
            if let Some(side) = Side::parse(r.get::<_, &str>(0)) {
                contacts[side.index()] = Contact {
                    webhook: r.get(1),
                    email: r.get(2),
                };
            }
        }
        Ok(contacts)
    }

    /// What another process added to a game since this one last looked: the number of
    /// actions stored (actions and chat lines are numbered from 1 without gaps, so the
    /// highest number is the count, read from the index) and when the last was, the stored actions after the first `after` and
    /// the chat lines after the first `said` (asked for only when there are more), and, with
    /// `contacts`, the seats' contacts.
    pub async fn since(
        &self,
        id: &str,
        after: u64,
        said: u64,
        contacts: bool,
    ) -> Result<News, String> {
        let client = self.client().await;
        let head = client
            .query_one(
                "SELECT (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = $1),
                        (SELECT COALESCE(MAX(seq), 0) FROM chat WHERE game_id = $1),
                        (SELECT GREATEST(created_at, updated_at) FROM games WHERE id = $1)",
                &[&id],
            )
            .await
            .map_err(db("read the game"))?;
        let count = head.get::<_, i64>(0) as u64;
        let lines = head.get::<_, i64>(1) as u64;
        let mut news = News {
            count,
            updated_at: head.get::<_, Option<i64>>(2).unwrap_or(0),
            actions: Vec::new(),
            chat: Vec::new(),
            contacts: None,
        };
        if count > after {
            news.actions = client
                .query(
                    "SELECT seq, action, rolls FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq",
                    &[&id, &(after as i64)],
                )
                .await
                .map_err(db("read the game's actions"))?
                .into_iter()
                .map(|r| StoredAction {
                    seq: r.get::<_, i64>(0) as u64,
                    action: r.get(1),
                    rolls_json: r.get(2),
                })
                .collect();
        }
        if lines > said {
            news.chat = client
                .query(
                    "SELECT seq, side, text, at FROM chat WHERE game_id = $1 AND seq > $2 ORDER BY seq",
                    &[&id, &(said as i64)],
                )
                .await
                .map_err(db("read the game's chat"))?
                .into_iter()
                .map(chat_line)
                .collect();
        }
        drop(client);
        if contacts {
            news.contacts = Some(self.contacts(id).await?);
        }
        Ok(news)
    }

    /// Takes the lease to run this game's bots, if no other process holds it; kept until
    /// this process stops (or dies: its connection closes and the lease goes with it).
    pub async fn hold(&self, id: &str) -> Result<bool, String> {
        let row = self
            .lease
            .lock()
            .await
            .query_one(
                "SELECT pg_try_advisory_lock(hashtext('volley-bots:' || $1))",
                &[&id],
            )
            .await
            .map_err(db("take the game's bot lease"))?;
        Ok(row.get(0))
    }

    pub async fn expire(&self) -> Result<Vec<String>, String> {
        let (keep_finished, keep_abandoned) = (self.keep_finished, self.keep_abandoned);
        let now = unix_now();
        let mut client = self.client().await;
        let tx = client
            .transaction()
            .await
            .map_err(db("start a transaction"))?;
        let ids: Vec<String> = tx
            .query(
                "SELECT id FROM games
                  WHERE (finished = 1 AND GREATEST(created_at, updated_at) < $1)
                     OR (finished = 0 AND GREATEST(created_at, updated_at) < $2)",
                &[&(now - keep_finished), &(now - keep_abandoned)],
            )
            .await
            .map_err(db("find the expired games"))?
            .into_iter()
            .map(|r| r.get(0))
            .collect();
        tx.execute(
            "DELETE FROM contacts WHERE game_id IN (SELECT id FROM pending WHERE created_at < $1)",
            &[&(now - keep_abandoned)],
        )
        .await
        .map_err(db("delete expired invitations"))?;
        tx.execute(
            "DELETE FROM pending WHERE created_at < $1",
            &[&(now - keep_abandoned)],
        )
        .await
        .map_err(db("delete expired invitations"))?;
        for table in ["actions", "chat", "contacts"] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE game_id = ANY($1)"),
                &[&ids],
            )
            .await
            .map_err(db("delete expired games"))?;
        }
        tx.execute("DELETE FROM games WHERE id = ANY($1)", &[&ids])
            .await
            .map_err(db("delete expired games"))?;
        tx.commit().await.map_err(db("commit"))?;
        Ok(ids)
    }

    async fn load_where(
        &self,
        filter: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<GameRecord>, String> {
        let client = self.client().await;
        let rows = client
            .query(
                &format!(
                    "SELECT id, scenario_name, scenario_text, options, seed, commitment,
                            red_kind, red_token_hash, blue_kind, blue_token_hash, created_at,
                            finished, fairness, pace, spectator, updated_at
                     FROM games WHERE {filter} ORDER BY created_at, id"
                ),
                params,
            )
            .await
            .map_err(db("read the stored games"))?;
        let mut games = Vec::with_capacity(rows.len());
        for r in rows {
            let id: String = r.get(0);
            let actions = client
                .query(
                    "SELECT seq, action, rolls FROM actions WHERE game_id = $1 ORDER BY seq",
                    &[&id],
                )
                .await
                .map_err(db("read a game's actions"))?
                .into_iter()
                .map(|a| StoredAction {
                    seq: a.get::<_, i64>(0) as u64,
                    action: a.get(1),
                    rolls_json: a.get(2),
                })
                .collect();
            let chat = client
                .query(
                    "SELECT seq, side, text, at FROM chat WHERE game_id = $1 ORDER BY seq",
                    &[&id],
                )
                .await
                .map_err(db("read a game's chat"))?
                .into_iter()
                .map(chat_line)
                .collect();
            games.push(GameRecord {
                scenario_name: r.get(1),
                scenario_text: r.get(2),
                options_json: r.get(3),
                seed: r.get(4),
                commitment: r.get(5),
                seats: [seat_kind(r.get(6), r.get(7)), seat_kind(r.get(8), r.get(9))],
                created_at: r.get(10),
                finished: r.get::<_, i32>(11) != 0,
                fairness_json: r.get(12),
                pace: r.get(13),
                spectator: r.get(14),
                updated_at: r.get(15),
                actions,
                chat,
                contacts: Default::default(),
                id,
            });
        }
        drop(client);
        for g in &mut games {
            g.contacts = self.contacts(&g.id).await?;
        }
        Ok(games)
    }

    async fn pending_where(
        &self,
        filter: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<PendingRecord>, String> {
        let rows = self
            .client()
            .await
            .query(
                &format!(
                    "SELECT id, scenario_name, scenario_text, options, server_seed, commitment,
                            seats, created_at, pace, spectator
                     FROM pending WHERE {filter} ORDER BY created_at, id"
                ),
                params,
            )
            .await
            .map_err(db("read the games waiting for seats"))?;
        Ok(rows
            .into_iter()
            .map(|r| PendingRecord {
                id: r.get(0),
                scenario_name: r.get(1),
                scenario_text: r.get(2),
                options_json: r.get(3),
                server_seed: r.get(4),
                commitment: r.get(5),
                seats_json: r.get(6),
                created_at: r.get(7),
                pace: r.get(8),
                spectator: r.get(9),
            })
            .collect())
    }
}

/// For tests: a new, empty database on the PostgreSQL server at `VOLLEY_TEST_PG` (a URL to
/// any of its databases, as a user that may create databases), and its URL. None (with a
/// notice) when the variable is not set; a failure when it is not set under CI (`CI=true`),
/// where the tests must run against PostgreSQL.
#[doc(hidden)]
pub async fn test_database() -> Option<String> {
    let Ok(admin) = std::env::var("VOLLEY_TEST_PG") else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!(
                "VOLLEY_TEST_PG is not set: under CI the PostgreSQL tests must run (.ci/run starts a server with scripts/test-postgres.sh)"
            );
        }
        tracing::warn!(
            "VOLLEY_TEST_PG is not set, so this PostgreSQL test is skipped (`. scripts/test-postgres.sh` starts a server and sets it)"
        );
        return None;
    };
    let shown_url = shown(&admin);
    let client = connect(&admin, &shown_url)
        .await
        .unwrap_or_else(|e| panic!("VOLLEY_TEST_PG: {e}"));
    let name = format!("volley_test_{}", crate::random::random_hex(8));
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap_or_else(|e| panic!("cannot create the test database {name} on {shown_url}: {e}"));
    let (base, query) = match admin.split_once('?') {
        Some((b, q)) => (b, format!("?{q}")),
        None => (admin.as_str(), String::new()),
    };
    let after_host = base.find("://").map_or(0, |i| i + 3);
    let base = match base[after_host..].find('/') {
        Some(slash) => &base[..after_host + slash],
        None => base,
    };
    Some(format!("{base}/{name}{query}"))
}

/// The same, for a test without an async runtime.
#[doc(hidden)]
pub fn test_database_blocking() -> Option<String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(test_database())
}

fn chat_line(r: tokio_postgres::Row) -> ChatLine {
    ChatLine {
        seq: r.get::<_, i64>(0) as u64,
        side: Side::parse(r.get::<_, &str>(1)).unwrap_or(Side::Red),
        text: r.get(2),
        at: r.get(3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_database_made_before_the_schema_kept_its_number_is_brought_up_to_date() {
        let Some(url) = test_database().await else {
            return;
        };
        {
            // The tables as the first shared-database servers made them: every column but no
            // number, and no time of a game's last action.
            let (client, connection) = tokio_postgres::connect(&url, NoTls).await.unwrap();
            tokio::spawn(connection);
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
                    client
                        .batch_execute(&sql.replace("{int}", "BIGINT").replace("{keyed}", ""))
                        .await
                        .unwrap();
                }
            }
            client
                .batch_execute(
                    "ALTER TABLE games ADD COLUMN fairness TEXT;
                     INSERT INTO games (id, scenario_name, scenario_text, options, seed,
                                        commitment, red_kind, blue_kind, created_at, pace)
                     VALUES ('g1', 's', 't', '{}', '00', 'c', 'human', 'human', 1000, 60)",
                )
                .await
                .unwrap();
        }
        let (store, games, _, _) = PgStore::open(&url, 1 << 40, 1 << 40).await.unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!((games[0].updated_at, games[0].pace), (1000, 60));
        let pool = store.pool[0].lock().await;
        let version: i64 = pool
            .query_one("SELECT version FROM volley_schema", &[])
            .await
            .unwrap()
            .get(0);
        assert_eq!(version, schema::current() as i64);
    }
}
