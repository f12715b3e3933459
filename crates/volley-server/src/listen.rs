//! The accept loop: each connection is counted against its client's and the server's caps,
//! must send its request headers within the header timeout, and carries its client's address
//! to the handlers (`ConnectInfo`). Built on hyper-util's connection builder, as
//! `axum::serve` is, but with a timer so that half-sent requests are cut off.

use crate::limits::{Counts, Limits, Turned};
use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use std::sync::Arc;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// Serves `router` on `listener` for ever.
pub async fn serve(listener: TcpListener, router: Router, limits: &Limits) {
    let connections = Counts::new(
        "connections",
        limits.connections_per_client,
        limits.connections_max,
    );
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .enable_connect_protocol();
    let builder = Arc::new(builder);
    loop {
        let (mut stream, addr) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors or the like: wait for some to close.
                tracing::warn!("cannot accept a connection: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let held = match connections.take(addr.ip()) {
            Ok(held) => held,
            Err(turned) => {
                tokio::spawn(async move { refuse(&mut stream, turned).await });
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let router = router.clone();
        let builder = builder.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
                request.extensions_mut().insert(ConnectInfo(addr));
                router.clone().oneshot(request.map(axum::body::Body::new))
            });
            let _ = builder
                .serve_connection_with_upgrades(TokioIo::new(stream), service)
                .await;
            drop(held);
        });
    }
}

/// Tells a connection over a cap why it is closed, in as plain an answer as HTTP allows.
async fn refuse(stream: &mut tokio::net::TcpStream, turned: Turned) {
    let (status, message) = match turned {
        Turned::Client(m) => ("429 Too Many Requests", m),
        Turned::Server(m) => ("503 Service Unavailable", m),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    let answer = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 5\r\n\r\n{body}",
        body.len()
    );
    let write = async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), write).await;
}

/// Lets the process hold as many open files as the system allows it (the soft limit is often
/// 1,024, far under the connection cap).
pub fn raise_file_limit() {
    use rustix::process::{getrlimit, setrlimit, Resource};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current.is_some() && limit.current != limit.maximum {
        limit.current = limit.maximum;
        if let Err(e) = setrlimit(Resource::Nofile, limit) {
            tracing::warn!("cannot raise the open-file limit: {e}");
        }
    }
}
