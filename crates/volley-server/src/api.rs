//! The HTTP API (docs/API.md). JSON everywhere; errors are `{"error": "…"}` with a 4xx
//! status for anything the request got wrong.

use crate::app::{
    bearer, common_view, find_game, players, published, seat, App, AppState, Players,
};
use crate::catalog::ScenarioEntry;
use crate::games::{is_over, replay, revealed_save, Claim, GameEntry, NewGame, Refusal};
use crate::limits::Turned;
use crate::odds::OddsRefusal;
use crate::records::Contact;
use crate::reply::{bad_request, json_body, ApiError, ApiResult};
use crate::{assets, ws};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::ConnectInfo;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use volley_core::{Action, LoggedEvent, Options, Side, View};

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/scenarios", get(scenarios))
        .route("/api/rulesets/{id}/glossary", get(glossary))
        .route("/api/armies", get(crate::armies::index))
        .route("/api/armies/check", post(crate::armies::check))
        .route("/api/armies/generate", post(crate::armies::generate))
        .route("/api/armies/lists/{id}", get(crate::armies::list))
        .route("/api/games", post(create_game))
        .route("/api/games/list", post(games_list))
        .route("/api/games/{id}/watch", get(watch))
        .route("/api/games/{id}/timeout", post(timeout))
        .route("/api/games/{id}/notify", get(contact_get).post(contact_set))
        .route("/api/games/{id}/view", get(view))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/seats", get(seats))
        .route("/api/games/{id}/legal", get(legal))
        .route("/api/games/{id}/reach", get(reach))
        .route("/api/games/{id}/actions", post(action))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/chat", get(chat_lines).post(chat_say))
        .route("/api/games/{id}/odds", post(odds))
        .route("/api/games/{id}/log", get(log))
        .route("/api/games/{id}/ws", get(ws::connect))
        .route("/api/games/{id}/export", get(export))
        .route("/api/games/{id}/replay", get(replay_step))
        .route("/api", any(no_such_endpoint))
        .route("/api/{*rest}", any(no_such_endpoint))
        .fallback(assets::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(app)
}

async fn no_such_endpoint() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such API endpoint (see docs/API.md)",
    )
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "this endpoint does not take that method (see docs/API.md)",
    )
}

async fn scenarios(State(app): AppState) -> Json<Vec<ScenarioEntry>> {
    Json(app.scenarios.clone())
}

/// A rule system's words in plain English, for the table's glossary.
async fn glossary(Path(id): Path<String>) -> ApiResult<Json<Vec<volley_core::glossary::Term>>> {
    let ruleset = volley_rulesets::find(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no rule system \"{id}\" (see /api/scenarios for the rule systems in play)"),
        )
    })?;
    Ok(Json(ruleset.glossary()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    /// A bundled scenario's name; or, with `armies`, empty.
    #[serde(default)]
    scenario: String,
    /// Two armies (army files' text) and the field to fight them on, in place of a bundled
    /// scenario.
    #[serde(default)]
    armies: Option<ArmiesRequest>,
    #[serde(default)]
    options: BTreeMap<String, Value>,
    red: String,
    blue: String,
    /// The human seat(s) the creator takes: "red", "blue" or "both" (hotseat, the default
    /// when both are human). A human seat not taken is left open for an invitation.
    #[serde(default)]
    seat: Option<String>,
    /// What the creator adds to the dice seed (any text; the browser sends random hex).
    #[serde(default)]
    entropy: String,
    /// "live" (the default), or the time a player has for a move: a number of days, or
    /// "3d", "12h", "30m", "45s".
    #[serde(default)]
    pace: Option<Value>,
    /// Where the creator's seat is told it is their turn.
    #[serde(default)]
    notify: Option<Contact>,
}

/// The longest and shortest time for a move, in seconds.
const PACE_MAX: i64 = 60 * 86_400;
const PACE_MIN: i64 = 2;

/// Reads a pace: "live" (0), a number of days, or "3d", "12h", "30m", "45s".
fn parse_pace(pace: Option<&Value>) -> ApiResult<i64> {
    let wrong = |shown: &str| {
        bad_request(format!(
            "pace: \"live\", a number of days, or a time such as \"3d\", \"12h\", \"30m\" (not {shown})"
        ))
    };
    let seconds = match pace {
        None | Some(Value::Null) => return Ok(0),
        Some(Value::Number(n)) => {
            let days = n.as_f64().ok_or_else(|| wrong(&n.to_string()))?;
            (days * 86_400.0).round() as i64
        }
        Some(Value::String(text)) => {
            let text = text.trim();
            if text == "live" {
                return Ok(0);
            }
            let (number, unit) =
                text.split_at(text.len() - text.chars().last().map_or(0, char::len_utf8));
            let per = match unit {
                "d" => 86_400,
                "h" => 3600,
                "m" => 60,
                "s" => 1,
                _ => return Err(wrong(&format!("\"{text}\""))),
            };
            let n: i64 = number
                .trim()
                .parse()
                .map_err(|_| wrong(&format!("\"{text}\"")))?;
            n.saturating_mul(per)
        }
        Some(other) => return Err(wrong(&other.to_string())),
    };
    if !(PACE_MIN..=PACE_MAX).contains(&seconds) {
        return Err(bad_request(format!(
            "pace: the time for a move is from {PACE_MIN} seconds to {} days",
            PACE_MAX / 86_400
        )));
    }
    Ok(seconds)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmiesRequest {
    red: String,
    blue: String,
    #[serde(default = "default_field")]
    map: String,
    /// The armies' rule system; needed only when more than one has army lists.
    #[serde(default)]
    ruleset: Option<String>,
}

fn default_field() -> String {
    "rolling-farmland".into()
}

#[derive(Serialize)]
struct Seats {
    red: Option<String>,
    blue: Option<String>,
}

#[derive(Serialize)]
struct CreateReply {
    id: String,
    /// Tokens of the seats the creator took.
    seats: Seats,
    /// One-time claims of the seats left open: the invitation carries one, and whoever uses
    /// it gets a token the creator never sees.
    invites: Seats,
    /// Published before anyone added entropy: the server's secret, the scenario and the
    /// options, hashed.
    commitment: String,
    /// Whether the game has started (every seat taken, the opening rolls made).
    started: bool,
    /// The token of the spectator link: it shows what both sides have seen, and acts for
    /// nobody.
    spectate: String,
    /// The time a player has for a move, in seconds; 0 for a live game.
    pace: i64,
}

async fn create_game(
    State(app): AppState,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<(StatusCode, Json<CreateReply>)> {
    let req: CreateRequest = json_body(body)?;
    let pace = parse_pace(req.pace.as_ref())?;
    let contact = req
        .notify
        .map(crate::notify::checked)
        .transpose()
        .map_err(|e| bad_request(format!("notify: {e}")))?
        .unwrap_or_default();
    if app.games.open.load(Ordering::Relaxed) >= app.limits.open_games_max {
        return Err(Turned::Server(format!(
            "this server keeps as many unfinished games as it allows ({}): try again later",
            app.limits.open_games_max
        ))
        .into());
    }
    let (scenario_name, scenario_text) = match &req.armies {
        Some(a) => {
            if a.red.len().max(a.blue.len()) > crate::armies::ARMY_BYTES {
                return Err(bad_request(format!(
                    "army files are at most {} KiB each",
                    crate::armies::ARMY_BYTES / 1024
                )));
            }
            crate::armies::muster(a.ruleset.as_deref(), &a.red, &a.blue, &a.map)
                .map_err(bad_request)?
        }
        None => {
            let bundled = volley_rulesets::bundled()
                .iter()
                .find(|b| b.name == req.scenario)
                .ok_or_else(|| {
                    let names: Vec<&str> =
                        volley_rulesets::bundled().iter().map(|b| b.name).collect();
                    bad_request(format!(
                        "no scenario \"{}\" (this server has: {})",
                        req.scenario,
                        names.join(", ")
                    ))
                })?;
            (bundled.name.to_string(), bundled.text.to_string())
        }
    };

    let mut options = Options::new();
    for (key, value) in req.options {
        let text = match value {
            Value::String(s) => s,
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            other => {
                return Err(bad_request(format!(
                    "option {key}: expected a string, number or boolean, found {other}"
                )))
            }
        };
        options.insert(key, text);
    }
    let seat = |name: &str, text: &str| -> ApiResult<Option<String>> {
        let text = text.trim();
        if text == "human" {
            return Ok(None);
        }
        crate::limits::check_bot(text, &app.limits)
            .map(|()| Some(text.to_string()))
            .map_err(|e| {
                bad_request(format!(
                    "{name}: a seat is \"human\" or a bot spec, and {e}"
                ))
            })
    };
    let bots = [seat("red", &req.red)?, seat("blue", &req.blue)?];
    if bots.iter().all(Option::is_some) {
        return Err(bad_request(
            "at least one seat must be \"human\": nobody could watch a game of two bots",
        ));
    }
    let human = [bots[0].is_none(), bots[1].is_none()];
    let takes = match req.seat.as_deref().map(str::trim) {
        None | Some("both") => human,
        Some(name) => {
            let side = Side::parse(name).ok_or_else(|| {
                bad_request(format!(
                    "seat: \"red\", \"blue\" or \"both\", not \"{name}\""
                ))
            })?;
            if !human[side.index()] {
                return Err(bad_request(format!(
                    "seat: {side} is played by the computer in this game, so you cannot take it"
                )));
            }
            [side == Side::Red, side == Side::Blue]
        }
    };
    // Counted once the request is known good, so a typo does not cost a game.
    if !app.creating.take(client.ip()) {
        return Err(Turned::Client(format!(
            "one client may create {} games an hour: wait a few minutes, or finish a game",
            app.limits.games_per_client_per_hour
        ))
        .into());
    }
    let created = app
        .games
        .create(NewGame {
            scenario_name,
            scenario_text,
            options,
            bots,
            takes,
            entropy: req.entropy,
            pace,
            contact,
        })
        .await
        .map_err(|r| match r {
            Refusal::Refused(m) => bad_request(m),
            store => ApiError::from(store),
        })?;
    let [red, blue] = created.tokens;
    let [red_claim, blue_claim] = created.claims;
    Ok((
        StatusCode::CREATED,
        Json(CreateReply {
            id: created.id,
            seats: Seats { red, blue },
            invites: Seats {
                red: red_claim,
                blue: blue_claim,
            },
            commitment: created.commitment,
            started: created.started,
            spectate: created.spectator,
            pace,
        }),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimRequest {
    claim: String,
    #[serde(default)]
    entropy: String,
    /// Where this seat is told it is its turn.
    #[serde(default)]
    notify: Option<Contact>,
}

#[derive(Serialize)]
struct ClaimReply {
    seat: Side,
    token: String,
}

/// The invited player takes their seat with the invitation's one-time claim, adding their
/// own entropy to the dice; the game starts once no seat is left open.
async fn claim(
    State(app): AppState,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<ClaimReply>> {
    let req: ClaimRequest = json_body(body)?;
    let contact = req
        .notify
        .map(crate::notify::checked)
        .transpose()
        .map_err(|e| bad_request(format!("notify: {e}")))?
        .unwrap_or_default();
    match app
        .games
        .claim(&id, req.claim.trim(), &req.entropy, contact)
        .await
    {
        Ok((seat, token)) => Ok(Json(ClaimReply { seat, token })),
        Err(Claim::NoGame) => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no game \"{id}\""),
        )),
        Err(Claim::Taken) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "this invitation has been used: its seat is taken (ask for a new game if it was not you)",
        )),
        Err(Claim::NotThisGame) => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "that claim is not an open seat of this game",
        )),
        Err(Claim::Refused(Refusal::Refused(m))) => Err(bad_request(m)),
        Err(Claim::Refused(store)) => Err(store.into()),
    }
}

#[derive(Serialize)]
struct SeatsReply {
    started: bool,
    /// The seats still waiting for their player.
    open: Vec<Side>,
    /// The commitment published at creation (the same for every seat).
    commitment: String,
}

/// Whether a game has started, and which seats are still open. Public: it tells nothing a
/// seat could not know.
async fn seats(State(app): AppState, Path(id): Path<String>) -> ApiResult<Json<SeatsReply>> {
    if let Some(p) = app.games.waiting(&id).await {
        return Ok(Json(SeatsReply {
            started: false,
            open: p.open(),
            commitment: p.commitment,
        }));
    }
    let entry = find_game(&app, &id).await?;
    let live = app.games.fresh(&entry).await?;
    Ok(Json(SeatsReply {
        started: true,
        open: Vec::new(),
        commitment: published(&live.session),
    }))
}

#[derive(Serialize)]
struct ViewReply {
    seq: u64,
    seat: Side,
    commitment: String,
    seed: Option<String>,
    /// Who sits in each seat: `human`, or the bot's spec (`normal`, `mcts:ms=300`…), so the
    /// page can say the computer is thinking and show its progress.
    players: Players,
    /// The time a player has for a move, in seconds (0: live), and when the side to decide
    /// runs out of it (Unix seconds).
    pace: i64,
    deadline: Option<i64>,
    /// Spectators watching now.
    watchers: usize,
    /// The token of the spectator link, to share.
    spectate: Option<String>,
    view: View,
}

async fn view(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<ViewReply>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let live = app.games.fresh(&entry).await?;
    let s = &live.session;
    Ok(Json(ViewReply {
        seq: s.records.len() as u64,
        seat: side,
        commitment: published(s),
        seed: is_over(s).then(|| s.seed().to_hex()),
        players: players(&entry),
        pace: entry.meta.pace,
        deadline: live.deadline(entry.meta.pace),
        watchers: entry.watchers.load(Ordering::Relaxed),
        spectate: entry.meta.spectator.clone(),
        view: s.game.view(Some(side)),
    }))
}

/// What a spectator is given: what both sides have seen, never more.
#[derive(Serialize)]
struct WatchReply {
    seq: u64,
    commitment: String,
    seed: Option<String>,
    players: Players,
    pace: i64,
    deadline: Option<i64>,
    watchers: usize,
    view: View,
    /// The events both sides saw.
    events: Vec<LoggedEvent>,
}

/// The game's spectator, by its token.
async fn spectator(app: &App, id: &str, headers: &HeaderMap) -> ApiResult<Arc<GameEntry>> {
    let entry = find_game(app, id).await?;
    let token = bearer(headers).filter(|t| !t.is_empty()).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "watching needs the spectator link's token: send the header \"Authorization: Bearer TOKEN\"",
        )
    })?;
    if !entry.is_spectator(token) {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "that token is not this game's spectator link",
        ));
    }
    Ok(entry)
}

async fn watch(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<WatchReply>> {
    let entry = spectator(&app, &id, &headers).await?;
    let live = app.games.fresh(&entry).await?;
    let s = &live.session;
    Ok(Json(WatchReply {
        seq: s.records.len() as u64,
        commitment: published(s),
        seed: is_over(s).then(|| s.seed().to_hex()),
        players: players(&entry),
        pace: entry.meta.pace,
        deadline: live.deadline(entry.meta.pace),
        watchers: entry.watchers.load(Ordering::Relaxed),
        view: common_view(s),
        events: s.events_for_both(0),
    }))
}

/// The seat claims the win: the other side's time for its move ran out.
async fn timeout(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<ActionReply>> {
    end_game(&app, &id, &headers, true).await
}

/// Where the seat is told it is its turn.
async fn contact_get(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Contact>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let live = app.games.fresh(&entry).await?;
    Ok(Json(live.contacts[side.index()].clone()))
}

/// Sets where the seat is told it is its turn: `{"webhook": URL, "email": ADDRESS}`, either
/// or both; empty or absent fields turn that way off.
async fn contact_set(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Contact>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let contact: Contact = json_body(body)?;
    rate_limited(&entry, side, &app)?;
    let mut live = app.games.fresh(&entry).await?;
    app.games
        .set_contact(&entry, &mut live, side, contact)
        .await
        .map_err(|r| match r {
            Refusal::Refused(m) => bad_request(m),
            store => store.into(),
        })?;
    Ok(Json(live.contacts[side.index()].clone()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListRequest {
    games: Vec<ListedSeat>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListedSeat {
    id: String,
    token: String,
}

/// One game of a player's list, as its seat sees it.
#[derive(Serialize)]
struct ListedGame {
    id: String,
    seat: Option<Side>,
    /// `your turn`, `their turn`, `over`, `waiting` (for a seat to be taken), or `unknown`
    /// (no such game here, or the token is not one of its seats).
    status: &'static str,
    scenario: Option<String>,
    turn: Option<u32>,
    to_decide: Option<Side>,
    pace: i64,
    deadline: Option<i64>,
    /// Whether the seat may claim the win now (the other side's time ran out).
    can_claim: bool,
    /// How it ended, and who won, once over.
    result: Option<String>,
    winner: Option<Side>,
    watchers: usize,
}

/// The most games one list may ask about.
const LIST_MAX: usize = 200;

/// A player's games (the seats this browser holds), sorted by whose turn it is: theirs to
/// play first (the least time left first), then those waiting for the opponent, then the
/// finished. Tokens go in the body, so they stay out of logs of addresses.
async fn games_list(
    State(app): AppState,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Vec<ListedGame>>> {
    let req: ListRequest = json_body(body)?;
    if req.games.len() > LIST_MAX {
        return Err(bad_request(format!(
            "a list asks about at most {LIST_MAX} games at once"
        )));
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let mut listed = Vec::with_capacity(req.games.len());
    for asked in req.games {
        let unknown = |status| ListedGame {
            id: asked.id.clone(),
            seat: None,
            status,
            scenario: None,
            turn: None,
            to_decide: None,
            pace: 0,
            deadline: None,
            can_claim: false,
            result: None,
            winner: None,
            watchers: 0,
        };
        if app.games.is_waiting(&asked.id) {
            listed.push(unknown("waiting"));
            continue;
        }
        let Some(entry) = app.games.get(&asked.id).await else {
            listed.push(unknown("unknown"));
            continue;
        };
        let Some(side) = entry.seat_of(asked.token.trim()) else {
            listed.push(unknown("unknown"));
            continue;
        };
        let live = app.games.fresh(&entry).await?;
        let s = &live.session;
        let to_decide = s.game.to_decide();
        let deadline = live.deadline(entry.meta.pace);
        let outcome = s.game.outcome().filter(|_| to_decide.is_none());
        listed.push(ListedGame {
            id: asked.id.clone(),
            seat: Some(side),
            status: match to_decide {
                None => "over",
                Some(d) if d == side => "your turn",
                Some(_) => "their turn",
            },
            scenario: Some(s.scenario_name.clone()),
            turn: Some(s.game.turn()),
            to_decide,
            pace: entry.meta.pace,
            deadline,
            can_claim: to_decide.is_some_and(|d| d != side) && deadline.is_some_and(|d| now >= d),
            result: outcome.as_ref().map(|o| o.reason.clone()),
            winner: outcome.and_then(|o| o.winner),
            watchers: entry.watchers.load(Ordering::Relaxed),
        });
    }
    let rank = |g: &ListedGame| match g.status {
        "your turn" => 0,
        "their turn" if g.can_claim => 1,
        "their turn" => 2,
        "waiting" => 3,
        "over" => 4,
        _ => 5,
    };
    listed.sort_by_key(|g| (rank(g), g.deadline.unwrap_or(i64::MAX)));
    Ok(Json(listed))
}

#[derive(Serialize)]
struct LegalReply {
    seq: u64,
    /// Each legal action's notation.
    actions: Vec<String>,
    /// The same actions described for a client ([`volley_core::choice::Choice`]), in the
    /// same order: the notation (`action`), a `label` in plain words, the `kind`, the `unit`
    /// a person selects to give it, the `target` place the map marks, and whether `dice`
    /// decide it.
    described: Vec<volley_core::choice::Choice>,
}

async fn legal(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<LegalReply>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let live = app.games.fresh(&entry).await?;
    let game = &live.session.game;
    let described = volley_core::choice::choices(&**game, side);
    Ok(Json(LegalReply {
        seq: live.session.records.len() as u64,
        actions: described.iter().map(|c| c.text.clone()).collect(),
        described,
    }))
}

#[derive(Deserialize)]
struct ReachQuery {
    unit: String,
}

async fn reach(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<ReachQuery>, QueryRejection>,
) -> ApiResult<Json<Vec<volley_core::Reach>>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let Query(q) = query.map_err(|_| bad_request("give the unit as ?unit=UNIT_ID"))?;
    let live = app.games.fresh(&entry).await?;
    Ok(Json(volley_core::game::reach_for(
        live.session.game.as_ref(),
        side,
        &q.unit,
    )))
}

/// An action in a body: `{"action": "…"}` or a bare JSON string. With `"seq"`, the number
/// of actions the sender saw played when it chose: an action chosen on a position that has
/// since moved on (the other side acted, a phase passed) is refused rather than played in a
/// phase its sender did not mean.
#[derive(Deserialize)]
#[serde(untagged)]
enum ActionBody {
    Object {
        action: String,
        #[serde(default)]
        seq: Option<u64>,
    },
    Text(String),
}

impl ActionBody {
    fn text(self) -> String {
        self.parts().0
    }

    fn parts(self) -> (String, Option<u64>) {
        match self {
            ActionBody::Object { action, seq } => (action, seq),
            ActionBody::Text(action) => (action, None),
        }
    }
}

/// Refuses an action chosen on a position older than the game's (409, saying so).
fn still_current(seen: Option<u64>, now: u64, text: &str) -> ApiResult<()> {
    match seen {
        Some(seen) if seen != now => Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "the game has moved on since \"{text}\" was chosen (action {seen} then, {now} now): look at the position again"
            ),
        )),
        _ => Ok(()),
    }
}

/// Checks that it is the seat's decision, and reads its action. 403 when it is the other
/// side's decision, 409 when the game is over or the action cannot be read.
fn own_action(game: &dyn volley_core::Game, side: Side, text: &str) -> ApiResult<Action> {
    match game.to_decide() {
        None => Err(ApiError::new(StatusCode::CONFLICT, "the game is over")),
        Some(s) if s != side => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("it is {s}'s decision, and this token is {side}'s seat"),
        )),
        Some(_) => game
            .parse_action(text)
            .map_err(|e| ApiError::new(StatusCode::CONFLICT, e.0)),
    }
}

fn rate_limited(entry: &GameEntry, side: Side, app: &App) -> ApiResult<()> {
    if entry.take_rate_token(side, app.games.rate_limit) {
        Ok(())
    } else {
        Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many actions from this seat: slow down",
        ))
    }
}

#[derive(Serialize)]
struct ActionReply {
    seq: u64,
    events: Vec<LoggedEvent>,
}

async fn action(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<ActionReply>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let (text, seen) = json_body::<ActionBody>(body)?.parts();
    rate_limited(&entry, side, &app)?;
    let mut live = app.games.fresh(&entry).await?;
    still_current(seen, live.session.records.len() as u64, &text)?;
    let action = own_action(live.session.game.as_ref(), side, &text)?;
    let events = app.games.commit(&entry, &mut live, action).await?;
    let from = live.session.log.len() - events.len();
    Ok(Json(ActionReply {
        seq: live.session.records.len() as u64,
        events: live.session.events_for(side, from),
    }))
}

#[derive(Serialize)]
struct UndoReply {
    seq: u64,
    /// The action taken back, in notation…
    undone: String,
    /// …and in plain words, as it was offered.
    undone_label: String,
}

/// Takes back the seat's last action (see `Session::undo` for when the rules of the table
/// allow it); 409 with the reason when they do not.
async fn undo(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<UndoReply>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    rate_limited(&entry, side, &app)?;
    let mut live = app.games.fresh(&entry).await?;
    let undone = app.games.undo(&entry, &mut live, side).await?;
    // The position is back where the action was chosen: it reads as it was offered.
    let game = &live.session.game;
    let undone_label = game
        .parse_action(&undone)
        .map(|a| game.label(a, &game.view(Some(side))))
        .unwrap_or_else(|_| undone.clone());
    Ok(Json(UndoReply {
        seq: live.session.records.len() as u64,
        undone,
        undone_label,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatBody {
    text: String,
}

/// The players' chat so far (to the two seats only).
async fn chat_lines(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<Vec<crate::records::ChatLine>>> {
    let (entry, _) = seat(&app, &id, &headers).await?;
    let live = app.games.fresh(&entry).await?;
    Ok(Json(live.chat.clone()))
}

/// A line from this seat to the other: `{"text": "…"}`, one line of at most 500 characters.
async fn chat_say(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<crate::records::ChatLine>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let said = json_body::<ChatBody>(body)?;
    rate_limited(&entry, side, &app)?;
    let mut live = app.games.fresh(&entry).await?;
    let line = app.games.say(&entry, &mut live, side, &said.text).await?;
    Ok(Json(line))
}

/// The seat gives up the battle, on its turn or not; the game ends and the seed is revealed.
async fn resign(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<ActionReply>> {
    end_game(&app, &id, &headers, false).await
}

/// The seat resigns, or (`timeout`) claims the win on the other side's time.
async fn end_game(
    app: &App,
    id: &str,
    headers: &HeaderMap,
    timeout: bool,
) -> ApiResult<Json<ActionReply>> {
    let (entry, side) = seat(app, id, headers).await?;
    rate_limited(&entry, side, app)?;
    let mut live = app.games.fresh(&entry).await?;
    let events = if timeout {
        app.games.claim_timeout(&entry, &mut live, side).await?
    } else {
        app.games.resign(&entry, &mut live, side).await?
    };
    let from = live.session.log.len() - events.len();
    Ok(Json(ActionReply {
        seq: live.session.records.len() as u64,
        events: live.session.events_for(side, from),
    }))
}

async fn odds(
    State(app): AppState,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<volley_core::odds::Odds>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let text = json_body::<ActionBody>(body)?.text();
    rate_limited(&entry, side, &app)?;
    // A place in the (short) queue, then a worker: never an endless wait.
    let _asked = app.odds_asked.take(client.ip())?;
    let _worker = app
        .odds_workers
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"))?;
    let (game, action) = {
        let live = app.games.fresh(&entry).await?;
        let action = own_action(live.session.game.as_ref(), side, &text)?;
        (live.session.game.clone_game(), action)
    };
    // Odds walk many dice sequences: off the async workers, and outside the game's lock.
    let odds = tokio::task::spawn_blocking(move || crate::odds::odds(game, action, side))
        .await
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the odds could not be worked out: {e}"),
            )
        })?
        .map_err(|r| match r {
            OddsRefusal::Illegal(m) | OddsRefusal::Endless(m) => {
                ApiError::new(StatusCode::CONFLICT, m)
            }
        })?;
    Ok(Json(odds))
}

#[derive(Serialize)]
struct LogReply {
    events: Vec<LoggedEvent>,
}

async fn log(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Json<LogReply>> {
    let (entry, side) = seat(&app, &id, &headers).await?;
    let live = app.games.fresh(&entry).await?;
    Ok(Json(LogReply {
        events: live.session.events_for(side, 0),
    }))
}

fn not_over() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "the game is not over yet: the saved game, with its seed, is given once it ends",
    )
}

async fn export(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (entry, _) = seat(&app, &id, &headers).await?;
    let live = app.games.fresh(&entry).await?;
    if !is_over(&live.session) {
        return Err(not_over());
    }
    let save = revealed_save(&live.session);
    let text = serde_json::to_string_pretty(&save).expect("saves serialise") + "\n";
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"volley-{id}.json\""),
            ),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
struct ReplayQuery {
    #[serde(default)]
    step: usize,
}

#[derive(Serialize)]
struct ReplayReply {
    step: usize,
    steps: usize,
    view: View,
    /// Every event up to this step, so the log reads in step with the replay…
    events: Vec<LoggedEvent>,
    /// …of which those from `fresh` on are this step's own.
    fresh: usize,
    /// The step at which each game turn begins: `turns[0]` for turn 1, and so on.
    turns: Vec<usize>,
}

async fn replay_step(
    State(app): AppState,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<ReplayQuery>, QueryRejection>,
) -> ApiResult<Json<ReplayReply>> {
    let (entry, _) = seat(&app, &id, &headers).await?;
    let Query(q) =
        query.map_err(|_| bad_request("give the step as ?step=K, a whole number from 0"))?;
    let save = {
        let live = app.games.fresh(&entry).await?;
        if !is_over(&live.session) {
            return Err(not_over());
        }
        revealed_save(&live.session)
    };
    let steps = save.actions.len();
    if q.step > steps {
        return Err(bad_request(format!(
            "step {} is past the end: the game has steps 0 (the set-up) to {steps}",
            q.step
        )));
    }
    let step = q.step;
    let rebuilt = tokio::task::spawn_blocking(move || {
        let seed = save.seed.expect("a revealed save has its seed");
        let mut session = replay(
            &save.scenario_name,
            &save.scenario,
            &save.options,
            seed,
            Vec::new(),
            &None,
            "replay",
        )?;
        let mut turns = vec![0];
        let mut at = (step == 0).then(|| (session.game.view(None), session.log.clone(), 0));
        for (i, record) in save.actions.iter().enumerate() {
            let before = session.log.len();
            session.apply_text(&record.action, &record.forced)?;
            while turns.len() < session.game.turn() as usize {
                turns.push(i + 1);
            }
            if i + 1 == step {
                at = Some((session.game.view(None), session.log.clone(), before));
            }
        }
        let (view, events, fresh) = at.expect("the step is within the game");
        Ok::<_, volley_core::SessionError>(ReplayReply {
            step,
            steps,
            view,
            events,
            fresh,
            turns,
        })
    })
    .await;
    match rebuilt {
        Ok(Ok(reply)) => Ok(Json(reply)),
        Ok(Err(e)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the game could not be replayed: {e}"),
        )),
        Err(e) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the game could not be replayed: {e}"),
        )),
    }
}
