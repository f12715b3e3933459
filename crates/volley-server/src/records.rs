//! What the stores keep, as the server reads and writes it: games with their actions and
//! chat, games waiting for their seats, where a seat hears of its turn, and how long games
//! are kept.

use volley_core::Side;

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

/// Seconds since 1970.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// How long games are kept, in seconds.
#[derive(Clone, Copy)]
pub struct Keep {
    pub finished: i64,
    pub abandoned: i64,
}
