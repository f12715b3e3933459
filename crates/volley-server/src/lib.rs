//! Volley's game server: the HTTP API and WebSocket push of docs/API.md, seats as secret
//! tokens, per-seat views filtered by the engine, bots that move server-side, and a SQLite
//! store that holds every acknowledged action. The web client under `web/` is embedded.
//!
//! ```no_run
//! # async fn run() -> Result<(), String> {
//! let server = volley_server::serve("127.0.0.1:8080".parse().unwrap(), "volley.db").await?;
//! println!("http://{}/", server.addr());
//! server.run_until_ctrl_c().await
//! # }
//! ```

mod api;
mod app;
mod armies;
mod assets;
mod catalog;
mod games;
mod limits;
mod listen;
mod notify;
mod odds;
mod pg;
mod random;
mod records;
mod reply;
mod schema;
mod sqlite;
mod store;
mod ws;

pub use games::RateLimit;
pub use limits::Limits;
pub use notify::{NotifyConfig, Smtp};
#[doc(hidden)]
pub use pg::{test_database, test_database_blocking};
pub use store::DbUrl;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::any::Any;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::task::JoinHandle;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::timeout::TimeoutLayer;

/// Sets up a server: where it listens, where it keeps games, how fast a seat may act.
pub struct ServerBuilder {
    addr: SocketAddr,
    db: String,
    rate_limit: RateLimit,
    limits: Limits,
    notify: NotifyConfig,
}

/// A server that is listening. Dropping it does not stop it; [`RunningServer::stop`] does.
pub struct RunningServer {
    addr: SocketAddr,
    task: JoinHandle<()>,
}

impl ServerBuilder {
    /// A server on `db` (a SQLite path, or `sqlite:PATH`), listening on 127.0.0.1:8080.
    pub fn new(db: impl Into<String>) -> ServerBuilder {
        ServerBuilder {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: db.into(),
            rate_limit: RateLimit::default(),
            limits: Limits::default(),
            notify: NotifyConfig::default(),
        }
    }

    /// Where to listen; port 0 picks a free port (see [`RunningServer::addr`]).
    pub fn addr(mut self, addr: SocketAddr) -> ServerBuilder {
        self.addr = addr;
        self
    }

    /// Actions (and odds requests) per second a seat may send, and the burst allowed.
    pub fn rate_limit(mut self, rate_limit: RateLimit) -> ServerBuilder {
        self.rate_limit = rate_limit;
        self
    }

    /// What one client, and all clients together, may ask of the server.
    pub fn limits(mut self, limits: Limits) -> ServerBuilder {
        self.limits = limits;
        self
    }

    /// How players are told it is their turn: the SMTP relay for e-mail, and the address
    /// the messages link to.
    pub fn notify(mut self, notify: NotifyConfig) -> ServerBuilder {
        self.notify = notify;
        self
    }

    /// Opens the store, replays every stored game, binds and starts answering.
    pub async fn start(self) -> Result<RunningServer, String> {
        let url = DbUrl::parse(&self.db)?;
        let scenarios = catalog::bundled_scenarios()?;
        let (store, stored, waiting, heard) = store::start(&url, &self.limits).await?;
        let games = games::Games::restore(
            store,
            stored,
            waiting,
            self.rate_limit,
            &self.limits,
            self.notify,
            heard,
        )
        .await;
        let app = Arc::new(app::App::new(games, scenarios, self.limits.clone()));
        let router = api::router(app)
            .layer(DefaultBodyLimit::max(reply::BODY_LIMIT))
            .layer(TimeoutLayer::with_status_code(
                StatusCode::REQUEST_TIMEOUT,
                self.limits.request_timeout,
            ))
            .layer(CatchPanicLayer::custom(panic_response));
        listen::raise_file_limit();
        let listener = tokio::net::TcpListener::bind(self.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", self.addr))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot tell which address the server listens on: {e}"))?;
        let limits = self.limits;
        let task = tokio::spawn(async move { listen::serve(listener, router, &limits).await });
        Ok(RunningServer { addr, task })
    }
}

/// A handler that panicked is a bug; the server answers 500 and carries on.
fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response {
    let what = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| panic.downcast_ref::<&str>().copied())
        .unwrap_or("a panic");
    tracing::error!("a request handler failed: {what}");
    reply::ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("the server hit a bug: {what}"),
    )
    .into_response()
}

impl RunningServer {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until Ctrl-C. Nothing needs flushing: every acknowledged action is already
    /// committed.
    pub async fn run_until_ctrl_c(self) -> Result<(), String> {
        tokio::signal::ctrl_c()
            .await
            .map_err(|e| format!("cannot wait for Ctrl-C: {e}"))?;
        self.stop();
        Ok(())
    }

    /// Stops answering at once, without a graceful shutdown (as a crash would).
    pub fn stop(self) {
        self.task.abort();
    }
}

/// Starts a server on `addr` with the games in `db` (a SQLite path or `sqlite:PATH`).
pub async fn serve(addr: SocketAddr, db: &str) -> Result<RunningServer, String> {
    ServerBuilder::new(db).addr(addr).start().await
}

/// For a program without an async runtime (the `volley` CLI): starts a runtime and the
/// server, calls `ready` with the address it listens on, and serves until Ctrl-C.
pub fn serve_until_ctrl_c(
    builder: ServerBuilder,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async {
        let server = builder.start().await?;
        ready(server.addr());
        server.run_until_ctrl_c().await
    })
}
