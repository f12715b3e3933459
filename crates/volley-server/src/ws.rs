//! `GET /api/games/ID/ws?token=TOKEN`: a WebSocket that pushes the seat's view and the new
//! events it may see after every change (and the current state on connect).
//! `GET /api/games/ID/ws?watch=TOKEN` does the same for a spectator, with what both sides
//! have seen and no chat; while it is open the players are told someone watches.

use crate::app::{find_game, seat_by_token, AppState};
use crate::games::GameEntry;
use crate::reply::ApiError;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use volley_core::{LoggedEvent, Side, View};

#[derive(Deserialize)]
pub struct TokenQuery {
    token: Option<String>,
    watch: Option<String>,
}

/// Who is listening: a seat, or a spectator.
#[derive(Clone, Copy)]
enum Listener {
    Seat(Side),
    Spectator,
}

/// While a spectator's socket is open it is counted, and the players told.
struct Watching(Arc<GameEntry>);

impl Watching {
    fn new(entry: Arc<GameEntry>) -> Watching {
        entry.watchers.fetch_add(1, Ordering::Relaxed);
        entry.poke();
        Watching(entry)
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.watchers.fetch_sub(1, Ordering::Relaxed);
        self.0.poke();
    }
}

#[derive(Serialize)]
struct Update<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    seq: u64,
    /// The dice commitment, and the seed once the game is over: the page shows them whoever
    /// made the last move.
    commitment: String,
    seed: Option<String>,
    /// When the side to decide runs out of time (paced games).
    deadline: Option<i64>,
    /// Spectators watching now.
    watchers: usize,
    view: View,
    events: Vec<LoggedEvent>,
    /// Chat lines the seat has not been sent yet (all of them in the first update).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    chat: Vec<&'a crate::records::ChatLine>,
}

pub async fn connect(
    axum::extract::State(app): AppState,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    query: Result<Query<TokenQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let entry = find_game(&app, &id).await?;
    let (token, watch) = query
        .ok()
        .map(|Query(q)| (q.token, q.watch))
        .unwrap_or_default();
    let listener = match watch {
        Some(w) if entry.is_spectator(&w) => Listener::Spectator,
        Some(_) => {
            return Err(ApiError::new(
                axum::http::StatusCode::UNAUTHORIZED,
                "that token is not this game's spectator link",
            ))
        }
        None => Listener::Seat(seat_by_token(&entry, token.as_deref())?),
    };
    let upgrade = upgrade
        .map_err(|r| ApiError::new(r.status(), format!("this endpoint is a WebSocket: {r}")))?;
    // Counted while the socket lives: on this game, for this client, and in all.
    let on_game = entry.sockets.take(client.ip())?;
    let mine = app.sockets.take(client.ip())?;
    Ok(upgrade.on_upgrade(move |socket| async move {
        let watching =
            matches!(listener, Listener::Spectator).then(|| Watching::new(entry.clone()));
        push_updates(socket, entry, listener).await;
        drop((on_game, mine, watching));
    }))
}

/// The next message for the seat: its view now and the events it has not been sent yet.
/// `sent` is how much of the game's log has been looked at already.
async fn next_update(
    entry: &GameEntry,
    listener: Listener,
    sent: &mut usize,
    said: &mut usize,
    first: bool,
) -> String {
    let live = entry.live.lock().await;
    let s = &live.session;
    // A spectator hears nothing of the players' chat.
    let chat: Vec<_> = match listener {
        Listener::Seat(_) => live.chat[(*said).min(live.chat.len())..].iter().collect(),
        Listener::Spectator => Vec::new(),
    };
    *said = live.chat.len();
    // An undo shortens the log: carry on from its new end (the page reads the game again).
    *sent = (*sent).min(s.log.len());
    let events = match (first, listener) {
        (true, _) => Vec::new(),
        (false, Listener::Seat(side)) => s.events_for(side, *sent),
        (false, Listener::Spectator) => s.events_for_both(*sent),
    };
    let view = match listener {
        Listener::Seat(side) => s.game.view(Some(side)),
        Listener::Spectator => crate::app::common_view(s),
    };
    *sent = s.log.len();
    serde_json::to_string(&Update {
        kind: "update",
        seq: s.records.len() as u64,
        commitment: crate::app::published(s),
        seed: crate::games::is_over(s).then(|| s.seed().to_hex()),
        deadline: live.deadline(entry.meta.pace),
        watchers: entry.watchers.load(Ordering::Relaxed),
        view,
        events,
        chat,
    })
    .expect("updates serialise")
}

async fn push_updates(mut socket: WebSocket, entry: Arc<GameEntry>, listener: Listener) {
    let mut changes = entry.changes.subscribe();
    changes.mark_unchanged();
    let mut sent = 0;
    let mut said = 0;
    let first = next_update(&entry, listener, &mut sent, &mut said, true).await;
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            changed = changes.changed() => {
                if changed.is_err() {
                    return;
                }
                changes.mark_unchanged();
                let update = next_update(&entry, listener, &mut sent, &mut said, false).await;
                if socket.send(Message::Text(update.into())).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => match incoming {
                // The client has nothing to say on this socket but may ping; axum answers
                // pings itself.
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                Some(Ok(_)) => {}
            },
        }
    }
}
