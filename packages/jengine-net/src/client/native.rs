//! The native client: a thread per connection over sync tungstenite.

use std::collections::VecDeque;
use std::io::{self, ErrorKind};
use std::marker::PhantomData;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_pcg::Pcg32;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tungstenite::protocol::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{HandshakeError, Message, WebSocket};

use super::{ClientConfig, ConnectError, Event, SendError, State, Target, check};
use crate::close::{CloseReason, worth_retrying};
use crate::frame::Codec;
use crate::limit::TokenBucket;
use crate::ping::RoundTrip;
use crate::ws_config;

/// A WebSocket client whose network work happens on its own thread.
///
/// `Out` is what this side sends, `In` what it receives. Every method returns at once.
/// Dropping the client closes it; its thread finishes the close on its own.
pub struct Client<Out, In> {
    url: String,
    codec: Codec,
    send_queue: usize,
    bucket: TokenBucket,
    shared: Arc<Shared<In>>,
    thread: Thread,
    _out: PhantomData<fn(&Out)>,
}

impl<Out, In> std::fmt::Debug for Client<Out, In> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("url", &self.url)
            .field("state", &self.state())
            .finish_non_exhaustive()
    }
}

impl<Out: Serialize, In: DeserializeOwned + Send + 'static> Client<Out, In> {
    /// Starts connecting to `url` (`ws://host:port/path`) and returns at once; the outcome
    /// arrives as an event. Only a URL or setting that could never work is refused here.
    pub fn connect(url: &str, config: ClientConfig) -> Result<Self, ConnectError> {
        let target = Target::parse(url)?;
        check(&config)?;
        let shared = Arc::new(Shared {
            inbox: Mutex::new(Inbox {
                events: Vec::new(),
                messages: 0,
            }),
            outbox: Mutex::new(VecDeque::new()),
            close: AtomicBool::new(false),
            state: AtomicU8::new(State::Connecting as u8),
            rtt: RoundTrip::new(Instant::now()),
        });
        let thread = thread::Builder::new()
            .name("jengine-net client".into())
            .spawn({
                let shared = Arc::clone(&shared);
                let config = config.clone();
                move || run(target, config, shared)
            })
            .map_err(|e| ConnectError::Config(format!("cannot start the client thread: {e}")))?
            .thread()
            .clone();
        Ok(Client {
            url: url.to_string(),
            codec: config.codec,
            send_queue: config.send_queue,
            bucket: TokenBucket::new(config.send_rate, Instant::now()),
            shared,
            thread,
            _out: PhantomData,
        })
    }

    /// Everything that happened since the last poll, oldest first. Never waits.
    pub fn poll(&mut self) -> Vec<Event<In>> {
        let mut inbox = lock(&self.shared.inbox);
        inbox.messages = 0;
        std::mem::take(&mut inbox.events)
    }

    /// Queues one frame. Frames queued while no connection is open wait for the next one;
    /// frames in flight when a connection drops are lost.
    pub fn send(&mut self, payload: &Out) -> Result<(), SendError> {
        if self.state() == State::Closed || self.shared.close.load(Ordering::Relaxed) {
            return Err(SendError::Closed);
        }
        let frame = self.codec.encode(payload)?;
        {
            let mut outbox = lock(&self.shared.outbox);
            if outbox.len() >= self.send_queue {
                return Err(SendError::QueueFull {
                    capacity: self.send_queue,
                });
            }
            if !self.bucket.take(Instant::now()) {
                let limit = self.bucket.limit();
                return Err(SendError::RateLimited {
                    per_second: limit.per_second,
                    burst: limit.burst,
                });
            }
            outbox.push_back(frame);
        }
        self.thread.unpark();
        Ok(())
    }

    /// Closes the connection (code 1000) and stops reconnecting. The last event is a `Closed`.
    pub fn close(&mut self) {
        self.shared.close.store(true, Ordering::Relaxed);
        self.thread.unpark();
    }
}

impl<Out, In> Client<Out, In> {
    /// Where the client is in its life.
    pub fn state(&self) -> State {
        State::from_u8(self.shared.state.load(Ordering::Relaxed))
    }

    /// The smoothed round trip of the open connection, once a ping has come back.
    pub fn round_trip(&self) -> Option<Duration> {
        self.shared.rtt.get()
    }

    /// The URL the client connects to.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl<Out, In> Drop for Client<Out, In> {
    fn drop(&mut self) {
        self.shared.close.store(true, Ordering::Relaxed);
        self.thread.unpark();
    }
}

impl State {
    fn from_u8(n: u8) -> State {
        match n {
            0 => State::Connecting,
            1 => State::Open,
            2 => State::Waiting,
            _ => State::Closed,
        }
    }
}

/// What the game and the thread share.
struct Shared<In> {
    inbox: Mutex<Inbox<In>>,
    outbox: Mutex<VecDeque<Vec<u8>>>,
    close: AtomicBool,
    state: AtomicU8,
    rtt: RoundTrip,
}

struct Inbox<In> {
    events: Vec<Event<In>>,
    /// How many of `events` are messages.
    messages: usize,
}

impl<In> Shared<In> {
    /// Sets the state and adds events in one step, so a poll sees both or neither.
    fn tell(&self, state: State, events: impl IntoIterator<Item = Event<In>>) {
        let mut inbox = lock(&self.inbox);
        self.state.store(state as u8, Ordering::Relaxed);
        inbox.events.extend(events);
    }

    fn closing(&self) -> bool {
        self.close.load(Ordering::Relaxed)
    }
}

/// A poisoned lock only means the other side panicked mid-push; the queue itself is sound.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The client thread: connect, run the connection, and perhaps again, until done.
fn run<In: DeserializeOwned>(target: Target, config: ClientConfig, shared: Arc<Shared<In>>) {
    let mut rng = Pcg32::seed_from_u64(config.seed);
    let mut attempt = 0;
    let by_us = || CloseReason::Normal("closed by the client".into());
    loop {
        if shared.closing() {
            shared.tell(State::Closed, [closed(&by_us())]);
            return;
        }
        shared.tell(State::Connecting, []);
        let (mut events, retry) = match open(&target, &config) {
            Ok(ws) => {
                attempt = 0;
                shared.rtt.reset();
                shared.tell(State::Open, [Event::Connected]);
                let reason = Session::new(ws, &config, &shared).run();
                let retry = worth_retrying(reason.code()) && !shared.closing();
                (vec![closed(&reason)], retry)
            }
            Err(why) => {
                let why = format!("could not connect to {}: {why}", target.url);
                (vec![Event::Error(why)], !shared.closing())
            }
        };
        if !retry || attempt >= config.reconnect.attempts {
            // A failed attempt ends like a lost connection (1006), in the attempt's words.
            let last = match &events[0] {
                Event::Error(_) if shared.closing() => Some(closed(&by_us())),
                Event::Error(why) => Some(Event::Closed {
                    code: CloseReason::Lost(String::new()).code(),
                    why: why.clone(),
                }),
                _ => None,
            };
            events.extend(last);
            shared.tell(State::Closed, events);
            return;
        }
        attempt += 1;
        let wait = config.reconnect.delay(attempt, &mut rng);
        events.push(Event::Reconnecting {
            attempt,
            in_ms: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
        });
        shared.tell(State::Waiting, events);
        let until = Instant::now() + wait;
        while !shared.closing() {
            let now = Instant::now();
            if now >= until {
                break;
            }
            thread::park_timeout(until - now);
        }
    }
}

fn closed<In>(reason: &CloseReason) -> Event<In> {
    Event::Closed {
        code: reason.code(),
        why: reason.to_string(),
    }
}

/// A TCP connection and a WebSocket handshake within the connect timeout, then a non-blocking
/// socket.
fn open(target: &Target, config: &ClientConfig) -> Result<WebSocket<TcpStream>, String> {
    let deadline = Instant::now() + config.connect_timeout;
    let left = || deadline.saturating_duration_since(Instant::now());
    let addrs = (target.host.as_str(), target.port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {}: {e}", target.host))?;
    let mut last = format!("{} has no address", target.host);
    let mut stream = None;
    for addr in addrs {
        if left().is_zero() {
            last = "timed out".into();
            break;
        }
        match TcpStream::connect_timeout(&addr, left()) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = e.to_string(),
        }
    }
    let stream = stream.ok_or(last)?;
    let left = left().max(Duration::from_millis(1));
    let setup = |s: &TcpStream| -> io::Result<()> {
        s.set_nodelay(true)?;
        s.set_read_timeout(Some(left))?;
        s.set_write_timeout(Some(left))
    };
    setup(&stream).map_err(|e| e.to_string())?;
    let ws = match tungstenite::client::client_with_config(
        target.url.as_str(),
        stream,
        Some(ws_config(config.codec.max_frame)),
    ) {
        Ok((ws, _response)) => ws,
        Err(HandshakeError::Interrupted(_)) => {
            return Err("the server did not finish the WebSocket handshake in time".into());
        }
        Err(HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            return Err(format!(
                "the server answered HTTP {} instead of a WebSocket",
                response.status()
            ));
        }
        Err(HandshakeError::Failure(e)) => return Err(format!("handshake failed: {e}")),
    };
    ws.get_ref()
        .set_nonblocking(true)
        .map_err(|e| e.to_string())?;
    Ok(ws)
}

/// One open connection, run until it ends.
struct Session<'a, In> {
    ws: WebSocket<TcpStream>,
    config: &'a ClientConfig,
    shared: &'a Shared<In>,
    last_heard: Instant,
    next_ping: Instant,
    /// A frame the WebSocket's write buffer had no room for yet.
    held: Option<Message>,
    /// Set once a close has begun: why, and when to stop waiting for the other half.
    closing: Option<(CloseReason, Instant)>,
}

impl<'a, In: DeserializeOwned> Session<'a, In> {
    fn new(ws: WebSocket<TcpStream>, config: &'a ClientConfig, shared: &'a Shared<In>) -> Self {
        let now = Instant::now();
        Session {
            ws,
            config,
            shared,
            last_heard: now,
            next_ping: now,
            held: None,
            closing: None,
        }
    }

    fn run(mut self) -> CloseReason {
        loop {
            let now = Instant::now();
            if self.closing.is_none() {
                // Frames queued before `close` still go, ahead of the close frame.
                let asked_to_close = self.shared.closing();
                if let Err(reason) = self.write(now) {
                    return reason;
                }
                if asked_to_close {
                    self.begin_close(CloseReason::Normal("closed by the client".into()), now);
                }
            }
            if let Some(reason) = self.read(now) {
                return reason;
            }
            match &self.closing {
                Some((reason, until)) if now >= *until => return reason.clone(),
                None if now.duration_since(self.last_heard) > self.config.idle_timeout => {
                    let after = self.config.idle_timeout;
                    self.begin_close(CloseReason::Idle { after }, now);
                }
                _ => {}
            }
            thread::park_timeout(self.config.nap);
        }
    }

    /// Moves queued frames into the WebSocket, pings when due, and flushes.
    fn write(&mut self, now: Instant) -> Result<(), CloseReason> {
        if now >= self.next_ping {
            self.next_ping = now + self.config.ping_interval;
            let ping = Message::Ping(self.shared.rtt.ping(now).into());
            match self.ws.write(ping) {
                // No room while the server is not reading: this ping is skipped.
                Ok(()) | Err(tungstenite::Error::WriteBufferFull(_)) => {}
                Err(e) => into_blocked(e)?,
            }
        }
        loop {
            let message = match self.held.take() {
                Some(m) => m,
                None => match lock(&self.shared.outbox).pop_front() {
                    Some(frame) => Message::Binary(frame.into()),
                    None => break,
                },
            };
            match self.ws.write(message) {
                Ok(()) => {}
                Err(tungstenite::Error::WriteBufferFull(message)) => {
                    self.held = Some(*message);
                    break;
                }
                Err(e) => into_blocked(e)?,
            }
        }
        match self.ws.flush() {
            Ok(()) => Ok(()),
            Err(e) => into_blocked(e),
        }
    }

    /// Reads every frame waiting (unless the game has enough unread); returns why the
    /// connection ended, if it did.
    fn read(&mut self, now: Instant) -> Option<CloseReason> {
        loop {
            if lock(&self.shared.inbox).messages >= self.config.event_queue {
                // The game is behind: leave the rest in the socket, and do not count the
                // silence this causes against the server.
                self.last_heard = now;
                return None;
            }
            let message = match self.ws.read() {
                Ok(m) => m,
                Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => {
                    return None;
                }
                Err(e) => return Some(self.ended(e, now)),
            };
            self.last_heard = now;
            if self.closing.is_some() {
                continue;
            }
            match message {
                Message::Binary(bytes) => match self.config.codec.decode::<In>(&bytes) {
                    Ok(payload) => {
                        let mut inbox = lock(&self.shared.inbox);
                        inbox.events.push(Event::Message(payload));
                        inbox.messages += 1;
                    }
                    Err(e) => self.begin_close(CloseReason::for_frame(e, false), now),
                },
                Message::Text(_) => self.begin_close(CloseReason::Text, now),
                Message::Pong(payload) => {
                    self.shared.rtt.pong(&payload, now);
                }
                Message::Close(frame) => {
                    let (code, why) = frame.map_or((1005, String::new()), |f| {
                        (u16::from(f.code), f.reason.to_string())
                    });
                    self.closing = Some((
                        CloseReason::Peer { code, why },
                        now + self.config.close_timeout,
                    ));
                }
                Message::Ping(_) | Message::Frame(_) => {}
            }
        }
    }

    /// Why the connection ended, given the error that ended it.
    fn ended(&mut self, e: tungstenite::Error, now: Instant) -> CloseReason {
        use tungstenite::error::{CapacityError, ProtocolError};
        if let Some((reason, _)) = self.closing.take() {
            return reason;
        }
        let reason = match e {
            tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed => {
                CloseReason::Lost("the server closed the connection".into())
            }
            tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => {
                CloseReason::Lost("the server went away without a close frame".into())
            }
            tungstenite::Error::Io(e) => CloseReason::Lost(e.to_string()),
            tungstenite::Error::Capacity(CapacityError::MessageTooLong { size, max_size }) => {
                CloseReason::TooLarge {
                    size,
                    limit: max_size,
                }
            }
            other => CloseReason::BadWebSocket(other.to_string()),
        };
        if reason.is_sent() {
            // The stream cannot be read past this error; say why, then let go.
            self.begin_close(reason.clone(), now);
            let _ = self.ws.flush();
        }
        reason
    }

    fn begin_close(&mut self, reason: CloseReason, now: Instant) {
        let frame = CloseFrame {
            code: CloseCode::from(reason.code()),
            reason: reason.wire_text().into(),
        };
        let _ = self.ws.close(Some(frame));
        self.closing = Some((reason, now + self.config.close_timeout));
    }
}

/// A write that would block is not an error: the bytes wait in the WebSocket's buffer.
fn into_blocked(e: tungstenite::Error) -> Result<(), CloseReason> {
    match e {
        tungstenite::Error::Io(e) if e.kind() == ErrorKind::WouldBlock => Ok(()),
        other => Err(CloseReason::Lost(format!("cannot write: {other}"))),
    }
}
