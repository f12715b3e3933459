//! The durable store the server keeps games in: SQLite (the default, embedded, `sqlite.rs`)
//! or PostgreSQL (several server processes sharing games, `pg.rs`). Both keep one schema
//! (`schema.rs`), commit every write before it is acknowledged, and pass one suite of tests
//! (below).

use crate::limits::Limits;
use crate::pg::PgStore;
use crate::records::{
    unix_now, AppendError, ChatLine, Contact, GameRecord, Keep, PendingRecord, StoredAction,
};
use crate::sqlite::{start_sqlite, SqliteStore};
use std::path::PathBuf;
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

/// The store the games are kept in. Cheap to clone.
#[derive(Clone)]
pub enum Store {
    Sqlite(SqliteStore),
    Postgres(std::sync::Arc<PgStore>),
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
                PgStore::open(url, keep.finished, keep.abandoned).await?;
            Ok((Store::Postgres(store), games, pending, Some(heard)))
        }
    }
}

impl Store {
    /// The PostgreSQL store, when games are shared with other processes.
    pub fn shared(&self) -> Option<&PgStore> {
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
    use crate::records::SeatKind;

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
