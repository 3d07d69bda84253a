//! Health and metrics over plain HTTP/1.1, for a fleet manager and Prometheus: two `GET`s,
//! answered and closed. Small enough to write by hand rather than pull in a web framework.
//!
//! - `GET /health`: 200 `ok`, or 503 `draining` once the server takes no new matches.
//! - `GET /metrics`: the Prometheus text of [`crate::Metrics`].

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::life::Life;
use crate::metrics::Metrics;

/// What the endpoints read: the server's life, the most players it takes, and its figures now.
pub(crate) struct Endpoints {
    pub life: Arc<Life>,
    pub max_players: usize,
    pub metrics: Box<dyn Fn() -> Metrics + Send + Sync>,
}

/// The most a request head may take, in bytes.
const MAX_HEAD: usize = 8 * 1024;
/// The time a client has to send its request head.
const READ_TIMEOUT: Duration = Duration::from_secs(5);

/// Answers requests on `listener` until the server stops.
pub(crate) async fn serve(listener: TcpListener, ends: Arc<Endpoints>) {
    loop {
        let stream = tokio::select! {
            _ = ends.life.stopped() => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        tokio::spawn(answer(stream, Arc::clone(&ends)));
    }
}

async fn answer(mut stream: TcpStream, ends: Arc<Endpoints>) {
    let head = match tokio::time::timeout(READ_TIMEOUT, read_head(&mut stream)).await {
        Ok(Some(head)) => head,
        _ => return,
    };
    let (status, content_type, body) = respond(&head, &ends);
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// The request head, up to the blank line; `None` if it is too long or never ends.
async fn read_head(stream: &mut TcpStream) -> Option<String> {
    let mut head = Vec::with_capacity(256);
    let mut chunk = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 || head.len() + n > MAX_HEAD {
            return None;
        }
        head.extend_from_slice(&chunk[..n]);
    }
    Some(String::from_utf8_lossy(&head).into_owned())
}

const TEXT: &str = "text/plain; charset=utf-8";

/// Status line, content type and body for a request head.
fn respond(head: &str, ends: &Endpoints) -> (&'static str, &'static str, String) {
    let mut words = head.lines().next().unwrap_or("").split(' ');
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let path = target.split('?').next().unwrap_or("");
    match (method, path) {
        ("GET", "/health") if ends.life.draining() => {
            ("503 Service Unavailable", TEXT, "draining\n".into())
        }
        ("GET", "/health") => ("200 OK", TEXT, "ok\n".into()),
        ("GET", "/metrics") => (
            "200 OK",
            "text/plain; version=0.0.4; charset=utf-8",
            (ends.metrics)().prometheus(ends.max_players),
        ),
        ("GET", _) => (
            "404 Not Found",
            TEXT,
            "not found: try /health or /metrics\n".into(),
        ),
        _ => (
            "405 Method Not Allowed",
            TEXT,
            "only GET is served\n".into(),
        ),
    }
}
