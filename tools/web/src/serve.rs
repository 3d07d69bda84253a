//! A static server for a web build's folder on the loopback address: what `jengine run --web`
//! serves a game with, and what the browser tests load pages from.
//!
//! GET and HEAD of the files directly in the folder, nothing else: no listing, no sub-folders,
//! no hidden files, and a name that tries to leave the folder (`..`, `/`, `\`, an encoded one)
//! is not found. A connection gets one request; its head must arrive whole, within
//! [`HEAD_DEADLINE`] and [`MAX_HEAD`] bytes, and at most [`MAX_CONNECTIONS`] are served at
//! once (the rest are closed at once), so a slow or flooding local client costs bounded time
//! and memory. Files are read per request, so a rebuild is served without a restart, and sent
//! with `Cache-Control: no-cache` for the same reason.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The longest request head read.
pub const MAX_HEAD: usize = 8 * 1024;
/// How long a connection has to send its request head.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(10);
/// Connections served at once; more are closed unanswered.
pub const MAX_CONNECTIONS: usize = 64;

/// A server running on a thread of its own; it serves until the process ends.
#[derive(Debug, Clone)]
pub struct Served {
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Served {
    /// The page's address: `http://127.0.0.1:<port>/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

/// Serves the files of `dir` on 127.0.0.1:`port` (any free port for 0).
pub fn serve(dir: &Path, port: u16) -> Result<Served, String> {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("the listening address: {e}"))?;
    let dir = dir.to_path_buf();
    let open = Arc::new(AtomicUsize::new(0));
    std::thread::Builder::new()
        .name("web-serve".into())
        .spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                    open.fetch_sub(1, Ordering::SeqCst);
                    continue;
                }
                // A connection of its own thread: a browser opens some it never sends on.
                let (dir, open) = (dir.clone(), open.clone());
                let spawned = std::thread::Builder::new()
                    .name("web-serve-conn".into())
                    .spawn(move || {
                        answer(stream, &dir);
                        open.fetch_sub(1, Ordering::SeqCst);
                    });
                if spawned.is_err() {
                    // The closure (and its count) went with the failed spawn.
                    continue;
                }
            }
        })
        .map_err(|e| format!("cannot start the server's thread: {e}"))?;
    Ok(Served { addr })
}

/// The file a request's target names in `dir`, if it names one that may be served.
pub fn file_for(dir: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let name = path.strip_prefix('/')?;
    let name = if name.is_empty() { "index.html" } else { name };
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"._-".contains(&b);
    if name.starts_with('.') || !name.bytes().all(plain) {
        return None;
    }
    Some(dir.join(name))
}

/// The content type a file is served with, by its extension.
pub fn content_type(name: &Path) -> &'static str {
    match name.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        Some("png") => "image/png",
        _ => "application/octet-stream",
    }
}

/// Reads the request line and the head (bounded), answers it, closes.
fn answer(stream: TcpStream, dir: &Path) {
    let _ = stream.set_read_timeout(Some(HEAD_DEADLINE));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half.take(MAX_HEAD as u64));
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return, // the head ran past its limit or the client went away
            Ok(_) if line == "\r\n" || line == "\n" => break,
            Ok(_) => {}
        }
    }
    let mut parts = request.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let response = match method {
        "GET" | "HEAD" => match file_for(dir, target).map(|f| (std::fs::read(&f), f)) {
            Some((Ok(body), file)) => ("200 OK", content_type(&file), body),
            _ => ("404 Not Found", "text/plain", b"not found\n".to_vec()),
        },
        _ => (
            "405 Method Not Allowed",
            "text/plain",
            b"only GET and HEAD\n".to_vec(),
        ),
    };
    let (status, kind, body) = response;
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut stream = stream;
    let _ = stream.write_all(head.as_bytes());
    if method != "HEAD" {
        let _ = stream.write_all(&body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn get(addr: SocketAddr, request: &str) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    }

    #[test]
    fn a_name_that_leaves_the_folder_or_hides_is_not_served() {
        let dir = Path::new("/srv/game");
        assert_eq!(file_for(dir, "/"), Some(dir.join("index.html")));
        assert_eq!(file_for(dir, "/game.wasm?x=1"), Some(dir.join("game.wasm")));
        for bad in [
            "/../etc/passwd",
            "/..",
            "/.git",
            "/a/b.js",
            "/%2e%2e/x",
            "/a\\b",
            "//etc/passwd",
            "relative",
            "",
        ] {
            assert_eq!(file_for(dir, bad), None, "{bad:?}");
        }
    }

    #[test]
    fn files_are_served_with_their_types_and_nothing_else_is() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "<p>hi</p>").unwrap();
        std::fs::write(dir.path().join("game.wasm"), b"\0asm").unwrap();
        let served = serve(dir.path(), 0).unwrap();
        let page = get(served.addr, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assert!(page.starts_with("HTTP/1.1 200 OK"), "{page}");
        assert!(
            page.contains("text/html") && page.ends_with("<p>hi</p>"),
            "{page}"
        );
        let wasm = get(served.addr, "HEAD /game.wasm HTTP/1.1\r\n\r\n");
        assert!(wasm.contains("application/wasm") && wasm.contains("Content-Length: 4"));
        assert!(wasm.ends_with("\r\n\r\n"), "HEAD sends no body: {wasm:?}");
        let missing = get(served.addr, "GET /../Cargo.toml HTTP/1.1\r\n\r\n");
        assert!(missing.starts_with("HTTP/1.1 404"), "{missing}");
        let post = get(served.addr, "POST / HTTP/1.1\r\n\r\n");
        assert!(post.starts_with("HTTP/1.1 405"), "{post}");
    }

    #[test]
    fn a_head_past_its_limit_gets_no_answer() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("index.html"), "x").unwrap();
        let served = serve(dir.path(), 0).unwrap();
        let huge = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_HEAD * 2));
        let mut s = TcpStream::connect(served.addr).unwrap();
        let _ = s.write_all(huge.as_bytes());
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
        // The server still answers the next one.
        assert!(get(served.addr, "GET / HTTP/1.1\r\n\r\n").starts_with("HTTP/1.1 200"));
    }
}
