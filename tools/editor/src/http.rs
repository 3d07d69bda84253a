//! The editor's web server: HTTP/1.1 on the loopback address, one request per connection.
//!
//! Every request must carry the session's token (in the `token` query parameter, or the
//! `X-Jengine-Token` header) and a `Host` naming this loopback address; a request with an
//! `Origin` must come from this page's own origin. Anything else is refused before it reaches
//! the editor, so another page in the browser (or a name resolving to this machine) cannot
//! drive it. A connection has a short deadline to send its whole head and show the token,
//! and connections that have not shown it share only a few places (see [`Limits`]), so a
//! local process holding connections open cannot keep the page out.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest request head read.
const MAX_HEAD: usize = 16 * 1024;
/// The largest request body read.
pub const MAX_BODY: usize = 4 * 1024 * 1024;

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
            408 => "Request Timeout",
            409 => "Conflict",
            413 => "Payload Too Large",
            422 => "Unprocessable Entity",
            429 => "Too Many Requests",
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
        let header = |name: &str| single(headers, name);
        match header("host")? {
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
        if let Some(origin) = header("origin")?
            && !self.origin_ok(origin)
        {
            return Err(Response::text(
                403,
                format!("refused: a page from {origin:?} may not use the editor"),
            ));
        }
        let mut token = header("x-jengine-token")?.map(str::to_string);
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

/// How long a connection may take over its request, and how many are served at once.
///
/// A connection that has not shown the token yet holds one of only `unverified` places, and
/// only until `head_deadline` after it was accepted: the deadline is for the whole head, so a
/// byte every few seconds does not extend it. When a new connection finds every such place
/// taken, the oldest is closed to let it in, so a flood of connections that never finish
/// their heads cannot keep the page's own requests out. A connection that showed the token
/// moves to the `verified` places, which only such connections use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// From accepting a connection to the end of its request head.
    pub head_deadline: Duration,
    /// From the end of the head to the end of the body.
    pub body_deadline: Duration,
    /// Connections that have not shown the token yet, at most.
    pub unverified: usize,
    /// Connections that showed the token, served at once.
    pub verified: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            head_deadline: Duration::from_secs(2),
            body_deadline: Duration::from_secs(30),
            unverified: 16,
            verified: 48,
        }
    }
}

/// A source of bytes that can be told how long its next read may wait.
trait Waits: Read {
    fn wait_at_most(&mut self, time: Duration) -> std::io::Result<()>;
}

impl Waits for &TcpStream {
    fn wait_at_most(&mut self, time: Duration) -> std::io::Result<()> {
        self.set_read_timeout(Some(time.max(Duration::from_millis(1))))
    }
}

/// Reads from `inner` until `deadline` (by the clock `now`), however the bytes trickle in:
/// each read may wait only for the time left.
struct Deadlined<S, C> {
    inner: S,
    deadline: Instant,
    now: C,
}

impl<S: Waits, C: Fn() -> Instant> Read for Deadlined<S, C> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.deadline.saturating_duration_since((self.now)());
        if left.is_zero() {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.inner.wait_at_most(left)?;
        self.inner.read(buf)
    }
}

fn timed_out(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
    )
}

/// A request head, read but not yet checked.
#[derive(Debug)]
struct Head {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
}

/// Reads one request head. `Err(None)` when the connection sent nothing (or was closed before
/// it did): there is no one to answer.
fn read_head(reader: &mut impl BufRead, deadline: Duration) -> Result<Head, Option<Response>> {
    let mut head = Vec::new();
    loop {
        let before = head.len();
        let room = (MAX_HEAD - head.len()) as u64;
        let read = reader.take(room).read_until(b'\n', &mut head);
        let n = match read {
            Ok(n) => n,
            Err(e) if timed_out(&e) && head.is_empty() => return Err(None),
            Err(e) if timed_out(&e) => {
                return Err(Some(Response::text(
                    408,
                    format!(
                        "the request head took longer than {} ms",
                        deadline.as_millis()
                    ),
                )));
            }
            Err(_) => return Err(Some(Response::text(400, "the request could not be read"))),
        };
        if head.len() >= MAX_HEAD {
            return Err(Some(Response::text(431, "the request head is too long")));
        }
        if n == 0 && head.is_empty() {
            return Err(None);
        }
        if n == 0 {
            return Err(Some(Response::text(400, "the request ended early")));
        }
        let line = &head[before..];
        if line == b"\r\n" || line == b"\n" {
            break;
        }
    }
    let head =
        String::from_utf8(head).map_err(|_| Some(Response::text(400, "the head is not UTF-8")))?;
    let mut lines = head.lines();
    let first = lines.next().unwrap_or_default();
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(Some(Response::text(400, "a malformed request line")));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(Some(Response::text(400, "only HTTP/1.x is spoken here")));
    }
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    Ok(Head {
        method: method.to_string(),
        target: target.to_string(),
        headers,
    })
}

/// Checks a head against the guard: the path and the query (token removed), or the refusal.
fn check_head(head: &Head, guard: &Guard) -> Result<(String, Vec<(String, String)>), Response> {
    let (path, query) =
        split_target(&head.target).ok_or_else(|| Response::text(400, "a malformed address"))?;
    let query = guard.check(&head.headers, query)?;
    Ok((path, query))
}

/// Reads the body a checked head announces.
fn read_body(reader: &mut impl Read, head: &Head) -> Result<Vec<u8>, Response> {
    let length = single(&head.headers, "content-length")?
        .map(str::parse::<usize>)
        .transpose()
        .map_err(|_| Response::text(400, "a malformed Content-Length"))?
        .unwrap_or(0);
    if head
        .headers
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
    reader.read_exact(&mut body).map_err(|e| {
        if timed_out(&e) {
            Response::text(408, "the body did not arrive in time")
        } else {
            Response::text(400, "the body ended early")
        }
    })?;
    Ok(body)
}

/// The value of header `name`, refusing a request that gives it more than once (two `Host`s
/// or two `Content-Length`s can be read two ways, by this server and by whatever is between).
fn single<'a>(headers: &'a [(String, String)], name: &str) -> Result<Option<&'a str>, Response> {
    let mut found = headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case(name));
    let first = found.next().map(|(_, v)| v.as_str());
    if found.next().is_some() {
        return Err(Response::text(
            400,
            format!("refused: the request gives its {name} header more than once"),
        ));
    }
    Ok(first)
}

/// The connections being served: the ones still to show the token (oldest first, each with a
/// handle that can close it), and how many showed it.
#[derive(Default)]
struct Pool {
    unverified: VecDeque<(u64, TcpStream)>,
    verified: usize,
    next: u64,
}

impl Pool {
    /// Takes a new connection in, closing the oldest unverified one if every place is taken.
    /// `None` when the connection cannot be held at all (no handle for it).
    fn admit(&mut self, stream: &TcpStream, limits: &Limits) -> Option<u64> {
        let handle = stream.try_clone().ok()?;
        while self.unverified.len() >= limits.unverified.max(1) {
            let Some((_, oldest)) = self.unverified.pop_front() else {
                break;
            };
            let _ = oldest.shutdown(std::net::Shutdown::Both);
        }
        self.next += 1;
        self.unverified.push_back((self.next, handle));
        Some(self.next)
    }

    /// Moves connection `id`, which showed the token, to the verified places; false when it was
    /// closed meanwhile or those places are all taken.
    fn verify(&mut self, id: u64, limits: &Limits) -> bool {
        let Some(at) = self.unverified.iter().position(|(i, _)| *i == id) else {
            return false;
        };
        if self.verified >= limits.verified {
            return false;
        }
        self.unverified.remove(at);
        self.verified += 1;
        true
    }

    /// Connection `id` is done.
    fn release(&mut self, id: u64, verified: bool) {
        self.unverified.retain(|(i, _)| *i != id);
        if verified {
            self.verified = self.verified.saturating_sub(1);
        }
    }
}

/// Serves one connection: its head within the head deadline, the token checked, then a
/// verified place, the body and the answer.
fn serve_one(
    stream: TcpStream,
    id: u64,
    guard: &Guard,
    limits: &Limits,
    pool: &Mutex<Pool>,
    handle: &(dyn Fn(Request) -> Response + Send + Sync),
) {
    let lock = || pool.lock().unwrap_or_else(|e| e.into_inner());
    let mut reader = BufReader::new(Deadlined {
        inner: &stream,
        deadline: Instant::now() + limits.head_deadline,
        now: Instant::now,
    });
    let mut verified = false;
    let head = read_head(&mut reader, limits.head_deadline)
        .and_then(|head| check_head(&head, guard).map(|c| (head, c)).map_err(Some));
    let response = match head {
        Err(refusal) => refusal,
        Ok((head, (path, query))) => {
            verified = lock().verify(id, limits);
            if verified {
                reader.get_mut().deadline = Instant::now() + limits.body_deadline;
                let request = read_body(&mut reader, &head).map(|body| Request {
                    method: head.method,
                    path,
                    query,
                    body,
                });
                Some(match request {
                    Ok(request) => handle(request),
                    Err(refusal) => refusal,
                })
            } else {
                Some(Response::text(503, "the editor is busy; try again"))
            }
        }
    };
    if let Some(response) = response {
        let write_time = if verified {
            Duration::from_secs(30)
        } else {
            limits.head_deadline
        };
        let _ = stream.set_write_timeout(Some(write_time.max(Duration::from_millis(1))));
        let _ = response.write_to(&mut &stream);
    }
    let _ = stream.shutdown(std::net::Shutdown::Write);
    lock().release(id, verified);
}

/// Serves `listener` on its own threads, passing each checked request to `handle` (called on
/// the connection's thread) and writing what it returns.
pub fn serve(
    listener: TcpListener,
    guard: Guard,
    limits: Limits,
    handle: Arc<dyn Fn(Request) -> Response + Send + Sync>,
) -> std::io::Result<SocketAddr> {
    let addr = listener.local_addr()?;
    let pool = Arc::new(Mutex::new(Pool::default()));
    std::thread::Builder::new()
        .name("editor-http".into())
        .spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let admitted = pool
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .admit(&stream, &limits);
                let Some(id) = admitted else { continue };
                let (guard, handle, held) = (guard.clone(), handle.clone(), pool.clone());
                let spawned = std::thread::Builder::new()
                    .name("editor-request".into())
                    .spawn(move || serve_one(stream, id, &guard, &limits, &held, &*handle));
                if spawned.is_err() {
                    // The thread never ran, so its place is free again.
                    pool.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .release(id, false);
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
    fn a_header_the_guard_reads_given_twice_is_refused() {
        let g = guard();
        let q = || vec![("token".to_string(), "abc123".to_string())];
        for doubled in [
            [("Host", "127.0.0.1:4000"), ("host", "127.0.0.1:4000")],
            [("Host", "127.0.0.1:4000"), ("Host", "evil.example")],
        ] {
            let refused = g.check(&h(&doubled), q()).unwrap_err();
            assert_eq!(refused.status, 400);
            assert!(String::from_utf8_lossy(&refused.body).contains("host header more than once"));
        }
        let origins = [
            ("Host", "127.0.0.1:4000"),
            ("Origin", "http://127.0.0.1:4000"),
            ("Origin", "http://evil.example"),
        ];
        assert_eq!(g.check(&h(&origins), q()).unwrap_err().status, 400);
    }

    /// Bytes that arrive one at a time, each read taking a second on a clock the test moves.
    struct Trickle {
        bytes: VecDeque<u8>,
        clock: std::rc::Rc<std::cell::Cell<Instant>>,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.clock.set(self.clock.get() + Duration::from_secs(1));
            match (self.bytes.pop_front(), buf.first_mut()) {
                (Some(b), Some(slot)) => {
                    *slot = b;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    impl Waits for Trickle {
        fn wait_at_most(&mut self, _: Duration) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn trickled(head: &str, deadline: Duration) -> Result<Head, Option<Response>> {
        let clock = std::rc::Rc::new(std::cell::Cell::new(Instant::now()));
        let start = clock.get();
        let source = Trickle {
            bytes: head.bytes().collect(),
            clock: clock.clone(),
        };
        let reader = Deadlined {
            inner: source,
            deadline: start + deadline,
            now: move || clock.get(),
        };
        read_head(&mut BufReader::with_capacity(1, reader), deadline)
    }

    #[test]
    fn a_head_that_trickles_in_is_cut_at_its_deadline_however_often_bytes_come() {
        let head = "GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:4000\r\n\r\n";
        // A byte a second, every read on time: the whole head still has two seconds only.
        let cut = trickled(head, Duration::from_secs(2)).unwrap_err().unwrap();
        assert_eq!(cut.status, 408);
        assert!(String::from_utf8_lossy(&cut.body).contains("longer than 2000 ms"));
        // With time for every byte it is read whole.
        let read = trickled(head, Duration::from_secs(head.len() as u64 + 1)).unwrap();
        assert_eq!(
            (read.method.as_str(), read.target.as_str()),
            ("GET", "/api/state")
        );
        // Nothing at all before the deadline: closed without a word.
        assert!(trickled("", Duration::from_secs(2)).unwrap_err().is_none());
    }

    #[test]
    fn a_full_pool_closes_its_oldest_unverified_connection_for_a_new_one() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let limits = Limits {
            unverified: 2,
            verified: 1,
            ..Limits::default()
        };
        let mut pool = Pool::default();
        let mut clients = Vec::new();
        let mut ids = Vec::new();
        for _ in 0..3 {
            clients.push(TcpStream::connect(addr).unwrap());
            let (served, _) = listener.accept().unwrap();
            ids.push(pool.admit(&served, &limits).unwrap());
        }
        assert_eq!(pool.unverified.len(), 2);
        // The first was closed: its client reads the end.
        clients[0]
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        assert_eq!(clients[0].read(&mut [0; 8]).unwrap(), 0);
        assert!(!pool.verify(ids[0], &limits), "closed to make room");
        assert!(pool.verify(ids[1], &limits));
        assert!(
            !pool.verify(ids[2], &limits),
            "the verified places are full"
        );
        pool.release(ids[1], true);
        assert!(pool.verify(ids[2], &limits));
        pool.release(ids[2], true);
        assert_eq!((pool.unverified.len(), pool.verified), (0, 0));
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
