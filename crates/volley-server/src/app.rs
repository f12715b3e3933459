//! What the handlers share: the games, the scenarios, the limits; and finding a game and
//! the seat a request's token sits in.

use crate::catalog::ScenarioEntry;
use crate::games::{GameEntry, Games};
use crate::limits::{ClientBuckets, Counts, Limits};
use crate::records::SeatKind;
use crate::reply::{ApiError, ApiResult};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::Semaphore;
use volley_core::{Side, View};

/// What the handlers share.
pub struct App {
    pub games: Arc<Games>,
    pub scenarios: Vec<ScenarioEntry>,
    pub limits: Limits,
    /// How often each client may create a game.
    pub creating: ClientBuckets,
    /// WebSockets open, per client and in all.
    pub sockets: Arc<Counts>,
    /// Odds requests running or waiting, per client and in all.
    pub odds_asked: Arc<Counts>,
    /// Odds being worked out at once.
    pub odds_workers: Arc<Semaphore>,
}

impl App {
    pub fn new(games: Arc<Games>, scenarios: Vec<ScenarioEntry>, limits: Limits) -> App {
        App {
            games,
            scenarios,
            creating: ClientBuckets::per_hour(limits.games_per_client_per_hour),
            sockets: Counts::new("WebSockets", limits.sockets_per_client, limits.sockets_max),
            odds_asked: Counts::new(
                "odds requests",
                limits.odds_per_client,
                limits.odds_at_once + limits.odds_waiting_max,
            ),
            odds_workers: Arc::new(Semaphore::new(limits.odds_at_once.max(1))),
            limits,
        }
    }
}

pub type AppState = State<Arc<App>>;

pub async fn find_game(app: &App, id: &str) -> ApiResult<Arc<GameEntry>> {
    app.games.get(id).await.ok_or_else(|| {
        if app.games.is_waiting(id) {
            ApiError::new(
                StatusCode::CONFLICT,
                "the game has not started: nothing is rolled until every seat is taken (GET /api/games/ID/seats says which are open)",
            )
        } else {
            ApiError::new(StatusCode::NOT_FOUND, format!("no game \"{id}\""))
        }
    })
}

/// The side a token sits in, or 401.
pub fn seat_by_token(entry: &GameEntry, token: Option<&str>) -> ApiResult<Side> {
    let token = token.filter(|t| !t.is_empty()).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "this needs a seat's token: send the header \"Authorization: Bearer TOKEN\"",
        )
    })?;
    entry.seat_of(token).ok_or_else(|| {
        if entry.is_spectator(token) {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "that is the game's spectator link: it watches the game, and cannot act or chat",
            )
        } else {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "that token is not a seat of this game",
            )
        }
    })
}

/// The game and the seat its bearer token sits in.
pub async fn seat(app: &App, id: &str, headers: &HeaderMap) -> ApiResult<(Arc<GameEntry>, Side)> {
    let entry = find_game(app, id).await?;
    let side = seat_by_token(&entry, bearer(headers))?;
    Ok((entry, side))
}

/// The bearer token of a request, if any.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().strip_prefix("Bearer "))
        .map(str::trim)
}

/// The commitment players were shown before the first roll: the commit–reveal's, or (for a
/// game stored before it) the seed's own.
pub fn published(session: &volley_core::Session) -> String {
    session
        .fairness
        .as_ref()
        .map_or_else(|| session.commitment(), |f| f.commitment.clone())
}

#[derive(Serialize)]
pub struct Players {
    red: String,
    blue: String,
}

pub fn players(entry: &GameEntry) -> Players {
    Players {
        red: player(&entry.seats[Side::Red.index()]),
        blue: player(&entry.seats[Side::Blue.index()]),
    }
}

fn player(kind: &SeatKind) -> String {
    match kind {
        SeatKind::Human { .. } => "human".into(),
        SeatKind::Bot { spec } => spec.clone(),
    }
}

/// The view both sides share: each side's view made, and only what they agree on kept.
pub fn common_view(session: &volley_core::Session) -> View {
    View::common(
        &session.game.view(Some(Side::Red)),
        &session.game.view(Some(Side::Blue)),
    )
}
