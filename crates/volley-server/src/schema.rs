//! The one schema both stores keep, written once as numbered migrations, and the plan that
//! brings a database of any age up to date.
//!
//! A migration is a list of steps in SQL both SQLite and PostgreSQL read, with two words that
//! differ: `{int}` is a 64-bit integer column (`INTEGER` in SQLite, `BIGINT` in PostgreSQL) and
//! `{keyed}` closes a table whose rows are found by their primary key (`WITHOUT ROWID` in
//! SQLite, nothing in PostgreSQL). The database keeps the number of the last migration made in
//! `volley_schema`. A database made before the schema kept its number has its tables but
//! perhaps not every column later migrations add: each column it lacks is added.

/// The SQL a store speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// One step of a migration.
#[derive(Clone, Copy, Debug)]
pub enum Step {
    /// Any statement.
    Sql(&'static str),
    /// A column added to a table, and what to fill it with (a statement, or nothing).
    AddColumn {
        table: &'static str,
        column: &'static str,
        decl: &'static str,
        fill: Option<&'static str>,
    },
}

/// A numbered change of the schema.
#[derive(Clone, Copy, Debug)]
pub struct Migration {
    pub version: u32,
    /// What it adds, in words.
    pub what: &'static str,
    pub steps: &'static [Step],
}

/// Every migration, in order.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        what: "games, their actions, games waiting for their seats, chat and contacts",
        steps: &[
            Step::Sql(
                "CREATE TABLE IF NOT EXISTS games (
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
    created_at      {int} NOT NULL,
    finished        INTEGER NOT NULL DEFAULT 0
)",
            ),
            Step::Sql(
                "CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     {int} NOT NULL,
    action  TEXT NOT NULL,
    rolls   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
){keyed}",
            ),
            Step::Sql(
                "CREATE TABLE IF NOT EXISTS pending (
    id              TEXT PRIMARY KEY,
    scenario_name   TEXT NOT NULL,
    scenario_text   TEXT NOT NULL,
    options         TEXT NOT NULL,
    server_seed     TEXT NOT NULL,
    commitment      TEXT NOT NULL,
    seats           TEXT NOT NULL,
    created_at      {int} NOT NULL
)",
            ),
            Step::Sql(
                "CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq     {int} NOT NULL,
    side    TEXT NOT NULL,
    text    TEXT NOT NULL,
    at      {int} NOT NULL,
    PRIMARY KEY (game_id, seq)
){keyed}",
            ),
            Step::Sql(
                "CREATE TABLE IF NOT EXISTS contacts (
    game_id TEXT NOT NULL,
    side    TEXT NOT NULL,
    webhook TEXT,
    email   TEXT,
    PRIMARY KEY (game_id, side)
){keyed}",
            ),
        ],
    },
    Migration {
        version: 2,
        what: "a game's pace (the time for a move) and its spectator link",
        steps: &[
            Step::AddColumn {
                table: "games",
                column: "pace",
                decl: "{int} NOT NULL DEFAULT 0",
                fill: None,
            },
            Step::AddColumn {
                table: "games",
                column: "spectator",
                decl: "TEXT",
                fill: None,
            },
            Step::AddColumn {
                table: "pending",
                column: "pace",
                decl: "{int} NOT NULL DEFAULT 0",
                fill: None,
            },
            Step::AddColumn {
                table: "pending",
                column: "spectator",
                decl: "TEXT",
                fill: None,
            },
        ],
    },
    Migration {
        version: 3,
        what: "the time of a game's last action",
        steps: &[Step::AddColumn {
            table: "games",
            column: "updated_at",
            decl: "{int} NOT NULL DEFAULT 0",
            fill: Some("UPDATE games SET updated_at = created_at"),
        }],
    },
    Migration {
        version: 4,
        what: "a game's commit-reveal record",
        steps: &[Step::AddColumn {
            table: "games",
            column: "fairness",
            decl: "TEXT",
            fill: None,
        }],
    },
];

/// The schema's number now: the last migration's.
pub fn current() -> u32 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// The table that keeps the schema's number, created before anything else.
pub fn version_table(d: Dialect) -> String {
    words(
        "CREATE TABLE IF NOT EXISTS volley_schema (version {int} NOT NULL)",
        d,
    )
}

/// Where a database stands before it is brought up to date.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// It keeps its schema's number.
    Version(u32),
    /// It has the games table but no number (made before the schema kept one).
    Unnumbered,
    /// It is empty.
    Empty,
}

/// Refuses a database a newer Volley has brought past the schema this server knows.
pub fn too_new(found: Found) -> Result<(), String> {
    match found {
        Found::Version(v) if v > current() => Err(format!(
            "the database's schema is number {v}, made by a newer Volley; this server knows up to {}",
            current()
        )),
        _ => Ok(()),
    }
}

/// What the migrations a database still needs add, in words (for the log).
pub fn pending(found: Found) -> Vec<&'static str> {
    let from = match found {
        Found::Version(v) => v,
        Found::Empty | Found::Unnumbered => 0,
    };
    MIGRATIONS
        .iter()
        .filter(|m| m.version > from)
        .map(|m| m.what)
        .collect()
}

/// The statements that bring a database from where it stands to [`current`], in order, with
/// the statement that records the new number last. `has_column(table, column)` is asked only
/// of an unnumbered database.
pub fn plan(d: Dialect, found: Found, has_column: impl Fn(&str, &str) -> bool) -> Vec<String> {
    let from = match found {
        Found::Version(v) => v,
        Found::Empty => 0,
        // Its tables are there; each later column it lacks is added below.
        Found::Unnumbered => 0,
    };
    let mut out = Vec::new();
    for m in MIGRATIONS.iter().filter(|m| m.version > from) {
        for step in m.steps {
            match *step {
                Step::Sql(sql) => out.push(words(sql, d)),
                Step::AddColumn {
                    table,
                    column,
                    decl,
                    fill,
                } => {
                    if found == Found::Unnumbered && has_column(table, column) {
                        continue;
                    }
                    out.push(words(
                        &format!("ALTER TABLE {table} ADD COLUMN {column} {decl}"),
                        d,
                    ));
                    out.extend(fill.map(|f| words(f, d)));
                }
            }
        }
    }
    if from < current() {
        out.push("DELETE FROM volley_schema".into());
        out.push(format!(
            "INSERT INTO volley_schema (version) VALUES ({})",
            current()
        ));
    }
    out
}

/// A statement in the dialect's words.
fn words(sql: &str, d: Dialect) -> String {
    let (int, keyed) = match d {
        Dialect::Sqlite => ("INTEGER", " WITHOUT ROWID"),
        Dialect::Postgres => ("BIGINT", ""),
    };
    sql.replace("{int}", int).replace("{keyed}", keyed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_database_gets_every_table_and_column_and_the_number() {
        let steps = plan(Dialect::Sqlite, Found::Empty, |_, _| unreachable!());
        assert!(steps[0].starts_with("CREATE TABLE IF NOT EXISTS games"));
        assert!(steps[1].ends_with(") WITHOUT ROWID"));
        assert!(steps
            .iter()
            .any(|s| s == "ALTER TABLE games ADD COLUMN fairness TEXT"));
        assert_eq!(
            steps.last().unwrap(),
            &format!("INSERT INTO volley_schema (version) VALUES ({})", current())
        );
        let pg = plan(Dialect::Postgres, Found::Empty, |_, _| unreachable!());
        assert!(pg[0].contains("created_at      BIGINT NOT NULL"));
        assert!(!pg.iter().any(|s| s.contains("WITHOUT ROWID")));
    }

    #[test]
    fn a_database_from_a_newer_volley_is_refused() {
        assert!(too_new(Found::Version(current())).is_ok());
        let e = too_new(Found::Version(current() + 1)).unwrap_err();
        assert!(e.contains("newer Volley"), "{e}");
    }

    #[test]
    fn a_database_at_the_current_number_needs_nothing() {
        assert!(plan(Dialect::Postgres, Found::Version(current()), |_, _| true).is_empty());
    }

    #[test]
    fn an_unnumbered_database_gains_only_the_columns_it_lacks() {
        // Made when games had a pace and a spectator link but no commit-reveal record.
        let steps = plan(Dialect::Sqlite, Found::Unnumbered, |table, column| {
            !(table == "games" && (column == "fairness" || column == "updated_at"))
        });
        let alters: Vec<&String> = steps.iter().filter(|s| s.starts_with("ALTER")).collect();
        assert_eq!(
            alters,
            [
                "ALTER TABLE games ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0",
                "ALTER TABLE games ADD COLUMN fairness TEXT"
            ]
        );
        assert!(steps.contains(&"UPDATE games SET updated_at = created_at".to_string()));
    }

    #[test]
    fn a_numbered_database_runs_the_later_migrations_whole() {
        let steps = plan(Dialect::Sqlite, Found::Version(3), |_, _| unreachable!());
        assert_eq!(
            steps,
            [
                "ALTER TABLE games ADD COLUMN fairness TEXT".to_string(),
                "DELETE FROM volley_schema".into(),
                format!("INSERT INTO volley_schema (version) VALUES ({})", current()),
            ]
        );
    }
}
