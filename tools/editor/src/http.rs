//! The editor's web server: HTTP/1.1 on the loopback address, one request per connection.
//!
//! Every request must carry the session's token (in the `token` query parameter, or the
//! `X-Jengine-Token` header) and a `Host` naming this loopback address; a request with an
//! `Origin` must come from this page's own origin. Anything else is refused before it reaches
//! the editor, so another page in the browser (or a name resolving to this machine) cannot
//! drive it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The longest request head read.
const MAX_HEAD: usize = 16 * 1024;
/// The largest request body read.
pub const MAX_BODY: usize = 4 * 1024 * 1024;
/// Connections served at once; more wait in the listen queue's place of a refusal.
const MAX_CONNECTIONS: usize = 64;

/// A request that passed the checks.
#[derive(Debug, Clone)]
pub struct Request {
    /// `GET` or `POST`.
    pub method: String,
    /// The path, without the query.
    pub path: String,
    /// The query's parameters, decoded, in order (the token removed).
    pub query: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The query parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// An answer.
#[derive(Debug, Clone)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The content type.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
}

impl Response {
    /// A JSON answer.
    pub fn json(status: u16, body: impl Into<Vec<u8>>) -> Response {
        Response {
            status,
            content_type: "application/json; charset=utf-8",
            body: body.into(),
            headers: Vec::new(),
        }
    }

    /// `{"error": message}` with a status.
    pub fn error(status: u16, message: impl AsRef<str>) -> Response {
        Response::json(
            status,
            serde_json::json!({ "error": message.as_ref() }).to_string(),
        )
    }

    /// Plain text.
    pub fn text(status: u16, body: impl Into<String>) -> Response {
        Response {
            status,
            content_type: "text/plain; charset=utf-8",
            body: body.into().into_bytes(),
            headers: Vec::new(),
        }
    }

    fn reason(&self) -> &'static str {
        match self.status {
            200 => "OK",
            400 => "Bad Request",
            403 => "Forbidden",
            404 => "Not Found",
            405 => "Method Not Allowed",
            409 => "Conflict",
            413 => "Payload Too Large",
            422 => "Unprocessable Entity",
            431 => "Request Header Fields Too Large",
            500 => "Internal Server Error",
            503 => "Service Unavailable",
            _ => "",
        }
    }

    fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n",
            self.status,
            self.reason(),
            self.content_type,
            self.body.len()
        );
        for (k, v) in &self.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        out.write_all(head.as_bytes())?;
        out.write_all(&self.body)?;
        out.flush()
    }
}

/// What the server checks every request against.
#[derive(Debug, Clone)]
pub struct Guard {
    /// The session's token.
    pub token: String,
    /// The port served.
    pub port: u16,
}

impl Guard {
    fn host_ok(&self, host: &str) -> bool {
        let port = self.port.to_string();
        ["127.0.0.1", "localhost"]
            .iter()
            .any(|name| host.eq_ignore_ascii_case(&format!("{name}:{port}")))
    }

    fn origin_ok(&self, origin: &str) -> bool {
        let port = self.port.to_string();
        ["127.0.0.1", "localhost"]
            .iter()
            .any(|name| origin.eq_ignore_ascii_case(&format!("http://{name}:{port}")))
    }

    fn token_ok(&self, given: &str) -> bool {
        // The same time whatever the first wrong character.
        let (a, b) = (given.as_bytes(), self.token.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }

    /// Checks a request's head: `Ok` with the query (token removed) or the refusal.
    pub fn check(
        &self,
        headers: &[(String, String)],
        query: Vec<(String, String)>,
    ) -> Result<Vec<(String, String)>, Response> {
        let header = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        match header("host") {
            Some(host) if self.host_ok(host) => {}
            Some(host) => {
                return Err(Response::text(
                    403,
                    format!(
                        "refused: the editor answers only as 127.0.0.1:{} or localhost:{} (this request names {host:?})",
                        self.port, self.port
                    ),
                ));
            }
            None => return Err(Response::text(400, "refused: the request has no Host")),
        }
        if let Some(origin) = header("origin")
            && !self.origin_ok(origin)
        {
            return Err(Response::text(
                403,
                format!("refused: a page from {origin:?} may not use the editor"),
            ));
        }
        let mut token = header("x-jengine-token").map(str::to_string);
        let mut rest = Vec::with_capacity(query.len());
        for (k, v) in query {
            if k == "token" {
                token.get_or_insert(v);
            } else {
                rest.push((k, v));
            }
        }
        match token {
            Some(t) if self.token_ok(&t) => Ok(rest),
            Some(_) => Err(Response::text(
                403,
                "refused: wrong token; open the address the editor printed",
            )),
            None => Err(Response::text(
                403,
                "refused: no token; open the address the editor printed",
            )),
        }
    }
}

/// Decodes `%XX` and `+` in a query part; `None` when the result is not UTF-8.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b'%' => return None,
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// Splits a request target into its path and decoded query.
pub fn split_target(target: &str) -> Option<(String, Vec<(String, String)>)> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let path = percent_decode(path)?;
    let mut pairs = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        pairs.push((percent_decode(k)?, percent_decode(v)?));
    }
    Some((path, pairs))
}

/// Reads one request's head and body. `Err` is the answer to send instead.
fn read_request(stream: &mut TcpStream, guard: &Guard) -> Result<Request, Response> {
    let mut reader = BufReader::new(stream);
    let mut head = Vec::new();
    loop {
        let before = head.len();
        let room = (MAX_HEAD - head.len()) as u64;
        let n = (&mut reader)
            .take(room)
            .read_until(b'\n', &mut head)
            .map_err(|_| Response::text(400, "the request could not be read"))?;
        if head.len() >= MAX_HEAD {
            return Err(Response::text(431, "the request head is too long"));
        }
        if n == 0 {
            return Err(Response::text(400, "the request ended early"));
        }
        let line = &head[before..];
        if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    let head = String::from_utf8(head).map_err(|_| Response::text(400, "the head is not UTF-8"))?;
    let mut lines = head.lines();
    let first = lines.next().unwrap_or_default();
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(Response::text(400, "a malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(Response::text(400, "only HTTP/1.x is spoken here"));
    }
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let (path, query) =
        split_target(target).ok_or_else(|| Response::text(400, "a malformed address"))?;
    let query = guard.check(&headers, query)?;
    let length = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .map(|(_, v)| v.parse::<usize>())
        .transpose()
        .map_err(|_| Response::text(400, "a malformed Content-Length"))?
        .unwrap_or(0);
    if headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("transfer-encoding"))
    {
        return Err(Response::text(400, "send a Content-Length, not chunks"));
    }
    if length > MAX_BODY {
        return Err(Response::text(
            413,
            format!("a body may be at most {MAX_BODY} bytes"),
        ));
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .map_err(|_| Response::text(400, "the body ended early"))?;
    Ok(Request {
        method: method.to_string(),
        path,
        query,
        body,
    })
}

/// Serves `listener` on its own threads, passing each checked request to `handle` (called on
/// the connection's thread) and writing what it returns.
pub fn serve(
    listener: TcpListener,
    guard: Guard,
    handle: Arc<dyn Fn(Request) -> Response + Send + Sync>,
) -> std::io::Result<SocketAddr> {
    let addr = listener.local_addr()?;
    let open = Arc::new(AtomicUsize::new(0));
    std::thread::Builder::new()
        .name("editor-http".into())
        .spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
                    let _ =
                        Response::text(503, "the editor is busy; try again").write_to(&mut stream);
                    continue;
                }
                open.fetch_add(1, Ordering::SeqCst);
                let (guard, handle, count) = (guard.clone(), handle.clone(), open.clone());
                let spawned = std::thread::Builder::new()
                    .name("editor-request".into())
                    .spawn(move || {
                        let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
                        let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
                        let response = match read_request(&mut stream, &guard) {
                            Ok(request) => handle(request),
                            Err(refusal) => refusal,
                        };
                        let _ = response.write_to(&mut stream);
                        let _ = stream.shutdown(std::net::Shutdown::Write);
                        count.fetch_sub(1, Ordering::SeqCst);
                    });
                if spawned.is_err() {
                    // The thread never ran, so its place is free again.
                    open.fetch_sub(1, Ordering::SeqCst);
                }
            }
        })?;
    Ok(addr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn guard() -> Guard {
        Guard {
            token: "abc123".into(),
            port: 4000,
        }
    }

    fn h(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_token_host_and_origin_are_all_checked() {
        let g = guard();
        let q = |t: &str| {
            vec![
                ("token".to_string(), t.to_string()),
                ("a".into(), "1".into()),
            ]
        };
        let host = [("Host", "127.0.0.1:4000")];
        assert_eq!(
            g.check(&h(&host), q("abc123")).unwrap(),
            vec![("a".into(), "1".into())]
        );
        assert_eq!(g.check(&h(&host), q("abc124")).unwrap_err().status, 403);
        assert_eq!(g.check(&h(&host), q("abc12")).unwrap_err().status, 403);
        assert_eq!(g.check(&h(&host), Vec::new()).unwrap_err().status, 403);
        let header = [("Host", "localhost:4000"), ("X-Jengine-Token", "abc123")];
        assert!(g.check(&h(&header), Vec::new()).is_ok());
        let rebinding = [("Host", "evil.example:4000")];
        assert_eq!(
            g.check(&h(&rebinding), q("abc123")).unwrap_err().status,
            403
        );
        let other_port = [("Host", "127.0.0.1:4001")];
        assert_eq!(
            g.check(&h(&other_port), q("abc123")).unwrap_err().status,
            403
        );
        let cross = [
            ("Host", "127.0.0.1:4000"),
            ("Origin", "http://evil.example"),
        ];
        assert_eq!(g.check(&h(&cross), q("abc123")).unwrap_err().status, 403);
        let same = [
            ("Host", "127.0.0.1:4000"),
            ("Origin", "http://127.0.0.1:4000"),
        ];
        assert!(g.check(&h(&same), q("abc123")).is_ok());
        assert_eq!(g.check(&[], q("abc123")).unwrap_err().status, 400);
    }

    #[test]
    fn targets_are_split_and_decoded() {
        let (path, query) = split_target("/api/x?name=a%2Fb+c&token=t&flag").unwrap();
        assert_eq!(path, "/api/x");
        assert_eq!(
            query,
            vec![
                ("name".into(), "a/b c".into()),
                ("token".into(), "t".into()),
                ("flag".into(), String::new())
            ]
        );
        assert!(split_target("/x?a=%zz").is_none());
        assert!(split_target("/x?a=%f").is_none());
        assert!(split_target("/x?a=%ff").is_none(), "not UTF-8");
        assert_eq!(split_target("/%2e%2e/x").unwrap().0, "/../x");
    }

    proptest! {
        #[test]
        fn decoding_never_panics(text in ".{0,64}") {
            let _ = split_target(&text);
            let _ = percent_decode(&text);
        }
    }
}
