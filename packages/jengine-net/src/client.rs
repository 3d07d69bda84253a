//! The client: a game's connection, whose `poll` and `send` never wait on the network.
//!
//! One [`Client`] for both platforms, over one connection logic (`client/life.rs`): the
//! bounded queues, the rate limit, the frame size limit, the reconnection schedule, pings and
//! idle, closes and their words. Under it is a small transport. Natively that is a thread of its
//! own over sync tungstenite (`client/native.rs`): the game and the thread share the two queues
//! under mutexes, and the thread naps for [`ClientConfig::nap`] between looks at its
//! non-blocking socket (a send wakes it at once). In a browser it is the page's `WebSocket`,
//! reached through the module's `net` imports (`client/web.rs`), and the logic runs inside the
//! game's own calls: `poll` and `send` step it.

#[cfg(target_arch = "wasm32")]
mod web;
#[cfg(target_arch = "wasm32")]
use web::Driver;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
use native::Driver;
mod life;

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rand::Rng;
use rand_pcg::Pcg32;
use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::close::CloseReason;
use crate::frame::{Codec, FrameError};
use crate::limit::{RateLimit, TokenBucket};
use crate::ping::RoundTrip;

/// What the client tells the game, in the order it happened.
#[derive(Debug, Clone, PartialEq)]
pub enum Event<In> {
    /// A connection is open (the first, or again after reconnecting).
    Connected,
    /// A frame from the server.
    Message(In),
    /// The connection (or the attempt to make one) ended. Unless a `Reconnecting` follows in the
    /// same poll, this is the client's last event.
    Closed {
        /// The WebSocket close code: the server's, this side's, or 1006 when the connection was
        /// lost without a close frame.
        code: u16,
        /// Why, in words (see [`CloseReason`]).
        why: String,
    },
    /// Something went wrong that did not end the client by itself, such as a failed attempt
    /// to connect.
    Error(String),
    /// The client will try to connect again.
    Reconnecting {
        /// Which attempt this will be, from 1.
        attempt: u32,
        /// In how many milliseconds.
        in_ms: u64,
    },
}

/// Where the client is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Opening a connection.
    Connecting,
    /// A connection is open.
    Open,
    /// Waiting before the next attempt.
    Waiting,
    /// Done: closed, or out of attempts. Sends are refused.
    Closed,
}

/// Reconnection with exponential backoff and jitter.
///
/// The wait before attempt `n` is `first * 2^(n-1)`, capped at `max`, of which a random half is
/// taken off ("equal jitter": between half and all of it), so a crowd of clients that lost the
/// same server do not all knock again at once. The randomness is a `rand_pcg` stream seeded from
/// [`ClientConfig::seed`], so a run replays. The attempt count starts again after every
/// connection that opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reconnect {
    /// Attempts after a connection is lost or an attempt fails; 0 turns reconnection off.
    pub attempts: u32,
    /// The wait before the first attempt.
    pub first: Duration,
    /// The longest wait.
    pub max: Duration,
}

impl Reconnect {
    /// No reconnection: the default. A game decides when to try again.
    pub const OFF: Reconnect = Reconnect {
        attempts: 0,
        first: Duration::from_millis(250),
        max: Duration::from_secs(10),
    };

    /// `attempts` tries, waiting from 250 ms up to 10 s.
    pub const fn attempts(attempts: u32) -> Reconnect {
        Reconnect {
            attempts,
            ..Reconnect::OFF
        }
    }

    /// The wait before attempt `attempt` (from 1).
    fn delay(&self, attempt: u32, rng: &mut Pcg32) -> Duration {
        let doubled = self.first.saturating_mul(
            1u32.checked_shl(attempt.saturating_sub(1))
                .unwrap_or(u32::MAX),
        );
        let full = doubled.min(self.max);
        let half = full / 2;
        let jitter_us = rng.random_range(0..=u64::try_from(half.as_micros()).unwrap_or(u64::MAX));
        half + Duration::from_micros(jitter_us)
    }
}

/// How a client behaves. `ClientConfig::default()` gives the values in the field docs.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientConfig {
    /// The protocol version and frame size limit (version 1, 64 KiB).
    pub codec: Codec,
    /// For the TCP connection and the WebSocket handshake together (5 s).
    pub connect_timeout: Duration,
    /// How often a ping goes out to measure the round trip (1 s).
    pub ping_interval: Duration,
    /// Silence (no frame, no pong) after which the connection counts as lost (10 s). Closed with
    /// code 4000, which reconnection retries.
    pub idle_timeout: Duration,
    /// How long to wait for the other side's half of a close before dropping the socket (1 s).
    pub close_timeout: Duration,
    /// Frames [`Client::send`] may queue before it refuses (256).
    pub send_queue: usize,
    /// Messages that may wait for [`Client::poll`] before the thread stops reading (1024).
    pub event_queue: usize,
    /// Frames the game may send: 120 a second, bursts of 120 (two a frame at 60 Hz), so a
    /// script stuck in a loop cannot flood the server.
    pub send_rate: RateLimit,
    /// Reconnection: off ([`Reconnect::OFF`]).
    pub reconnect: Reconnect,
    /// Seeds the jitter of reconnection waits (0).
    pub seed: u64,
    /// The thread's nap between looks at the socket (1 ms): the most an incoming frame waits
    /// before it is read. A send wakes the thread at once.
    pub nap: Duration,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            codec: Codec::default(),
            connect_timeout: Duration::from_secs(5),
            ping_interval: Duration::from_secs(1),
            idle_timeout: Duration::from_secs(10),
            close_timeout: Duration::from_secs(1),
            send_queue: 256,
            event_queue: 1024,
            send_rate: RateLimit::new(120, 120),
            reconnect: Reconnect::OFF,
            seed: 0,
            nap: Duration::from_millis(1),
        }
    }
}

/// Why [`Client::connect`] refused at once, before any network work.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// Not a URL this client can use.
    #[error("{url:?} is not a WebSocket URL: {why}")]
    BadUrl {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        why: String,
    },
    /// `wss://`: this client has no TLS.
    #[error(
        "{url:?} asks for TLS (wss://), which this client does not speak: use ws:// \
         (behind a TLS-terminating proxy if the server must be reached over TLS)"
    )]
    Tls {
        /// The URL given.
        url: String,
    },
    /// A setting that cannot work.
    #[error("bad client setting: {0}")]
    Config(String),
}

/// Why a frame was not queued.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SendError {
    /// The payload would not make a frame (too large, or not encodable).
    #[error(transparent)]
    Frame(#[from] FrameError),
    /// The outgoing queue is full. On the server this also drops the connection: its reader has
    /// stopped reading.
    #[error("the outgoing queue is full ({capacity} frames)")]
    QueueFull {
        /// The queue's capacity.
        capacity: usize,
    },
    /// Over the client's rate limit.
    #[error("over the send rate limit ({per_second} frames a second, bursts of {burst})")]
    RateLimited {
        /// Frames a second allowed.
        per_second: u32,
        /// Frames allowed at once.
        burst: u32,
    },
    /// The connection or client is closed.
    #[error("the connection is closed")]
    Closed,
}

/// A WebSocket client that never makes the game wait.
///
/// `Out` is what this side sends, `In` what it receives. Every method returns at once: natively
/// the network work happens on the client's own thread; in a browser the page's `WebSocket`
/// does it, and [`Client::poll`] and [`Client::send`] hand over what it has. Dropping the
/// client closes it (the close finishes on its own).
pub struct Client<Out, In> {
    url: String,
    codec: Codec,
    send_queue: usize,
    bucket: TokenBucket<Duration>,
    shared: Arc<Shared<In>>,
    driver: Driver,
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
        let shared = Arc::new(Shared::new());
        let driver = Driver::start(target, config.clone(), Arc::clone(&shared))?;
        Ok(Client {
            url: url.to_string(),
            codec: config.codec,
            send_queue: config.send_queue,
            bucket: TokenBucket::new(config.send_rate, driver.now()),
            shared,
            driver,
            _out: PhantomData,
        })
    }

    /// Everything that happened since the last poll, oldest first. Never waits.
    pub fn poll(&mut self) -> Vec<Event<In>> {
        self.driver.turn(&self.shared);
        self.shared.take()
    }

    /// Queues one frame. Frames queued while no connection is open wait for the next one;
    /// frames in flight when a connection drops are lost.
    pub fn send(&mut self, payload: &Out) -> Result<(), SendError> {
        let frame = self.shared.admit(
            &self.codec,
            payload,
            self.send_queue,
            &mut self.bucket,
            self.driver.now(),
        )?;
        lock(&self.shared.outbox).push_back(frame);
        self.driver.turn(&self.shared);
        Ok(())
    }

    /// Closes the connection (code 1000) and stops reconnecting. The last event is a `Closed`.
    pub fn close(&mut self) {
        self.shared.close.store(true, Ordering::Relaxed);
        self.driver.turn(&self.shared);
    }
}

impl<Out, In> Client<Out, In> {
    /// Where the client is in its life.
    pub fn state(&self) -> State {
        State::from_u8(self.shared.state.load(Ordering::Relaxed))
    }

    /// The smoothed round trip of the open connection, once a ping has come back. (A browser
    /// lets a page send no pings, so there this stays `None`.)
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
        self.driver.let_go(&self.shared);
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

/// What the game's calls and the connection logic share (natively, across the two threads).
struct Shared<In> {
    inbox: Mutex<Inbox<In>>,
    outbox: Mutex<VecDeque<Vec<u8>>>,
    close: AtomicBool,
    state: AtomicU8,
    /// Against the client's own epoch (its start, or the page's opening in a browser).
    rtt: RoundTrip<Duration>,
}

struct Inbox<In> {
    events: Vec<Event<In>>,
    /// How many of `events` are messages.
    messages: usize,
}

impl<In> Shared<In> {
    fn new() -> Self {
        Shared {
            inbox: Mutex::new(Inbox {
                events: Vec::new(),
                messages: 0,
            }),
            outbox: Mutex::new(VecDeque::new()),
            close: AtomicBool::new(false),
            state: AtomicU8::new(State::Connecting as u8),
            rtt: RoundTrip::new(Duration::ZERO),
        }
    }

    /// Sets the state and adds events in one step, so a poll sees both or neither.
    fn tell(&self, state: State, events: impl IntoIterator<Item = Event<In>>) {
        let mut inbox = lock(&self.inbox);
        self.state.store(state as u8, Ordering::Relaxed);
        inbox.events.extend(events);
    }

    /// Everything told since the last take; the count of unread messages starts again.
    fn take(&self) -> Vec<Event<In>> {
        let mut inbox = lock(&self.inbox);
        inbox.messages = 0;
        std::mem::take(&mut inbox.events)
    }

    fn closing(&self) -> bool {
        self.close.load(Ordering::Relaxed)
    }

    fn state(&self) -> State {
        State::from_u8(self.state.load(Ordering::Relaxed))
    }

    /// The frame for `payload`, if it may be queued now: the client is not closed, the payload
    /// encodes within the size limit, the queue has room and the rate limit a token. A refusal
    /// changes nothing (a full queue takes no token).
    fn admit<Out: Serialize>(
        &self,
        codec: &Codec,
        payload: &Out,
        capacity: usize,
        bucket: &mut TokenBucket<Duration>,
        now: Duration,
    ) -> Result<Vec<u8>, SendError> {
        if self.state() == State::Closed || self.closing() {
            return Err(SendError::Closed);
        }
        let frame = codec.encode(payload)?;
        if lock(&self.outbox).len() >= capacity {
            return Err(SendError::QueueFull { capacity });
        }
        if !bucket.take(now) {
            let limit = bucket.limit();
            return Err(SendError::RateLimited {
                per_second: limit.per_second,
                burst: limit.burst,
            });
        }
        Ok(frame)
    }
}

/// A poisoned lock only means the other side panicked mid-push; the queue itself is sound.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The event for a connection that ended.
fn closed<In>(reason: &CloseReason) -> Event<In> {
    Event::Closed {
        code: reason.code(),
        why: reason.to_string(),
    }
}

/// A parsed `ws://` URL.
struct Target {
    url: String,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    host: String,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    port: u16,
}

impl Target {
    fn parse(url: &str) -> Result<Target, ConnectError> {
        let bad = |why: &str| ConnectError::BadUrl {
            url: url.to_string(),
            why: why.to_string(),
        };
        if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("it holds a space or a control character"));
        }
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| bad("no scheme (ws://host:port/path)"))?;
        match scheme.to_ascii_lowercase().as_str() {
            "ws" => {}
            "wss" => {
                return Err(ConnectError::Tls {
                    url: url.to_string(),
                });
            }
            other => return Err(bad(&format!("the scheme is {other}, not ws"))),
        }
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.contains('@') {
            return Err(bad("a user name has no place in a WebSocket address"));
        }
        let (host, port) = match authority.strip_prefix('[') {
            Some(v6) => {
                let (host, after) = v6
                    .split_once(']')
                    .ok_or_else(|| bad("an IPv6 host without its closing ]"))?;
                (host, after.strip_prefix(':'))
            }
            None => match authority.split_once(':') {
                Some((host, port)) => (host, Some(port)),
                None => (authority, None),
            },
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let port = match port {
            None => 80,
            Some(p) => p
                .parse::<u16>()
                .map_err(|_| bad(&format!("the port {p:?} is not a number from 0 to 65535")))?,
        };
        Ok(Target {
            url: url.to_string(),
            host: host.to_string(),
            port,
        })
    }
}

fn check(config: &ClientConfig) -> Result<(), ConnectError> {
    let zero = [
        ("connect_timeout", config.connect_timeout),
        ("ping_interval", config.ping_interval),
        ("idle_timeout", config.idle_timeout),
    ];
    if let Some((name, _)) = zero.iter().find(|(_, d)| d.is_zero()) {
        return Err(ConnectError::Config(format!(
            "{name} must be more than zero"
        )));
    }
    if config.send_queue == 0 || config.event_queue == 0 {
        return Err(ConnectError::Config(
            "send_queue and event_queue must hold at least one frame".into(),
        ));
    }
    if config.codec.max_frame < 2 {
        return Err(ConnectError::Config(
            "codec.max_frame must leave room for a version byte and a payload".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_client_can_live_in_a_component_whatever_it_sends() {
        fn send_sync<T: Send + Sync + 'static>() {}
        send_sync::<Client<std::rc::Rc<u8>, String>>();
    }

    #[test]
    fn wss_is_refused_with_the_reason() {
        let err = Client::<u8, u8>::connect("wss://example.org/room", ClientConfig::default())
            .unwrap_err();
        assert!(matches!(err, ConnectError::Tls { .. }));
        assert!(err.to_string().contains("does not speak"), "{err}");
    }

    #[test]
    fn a_url_that_is_not_websocket_is_refused() {
        for url in [
            "http://localhost:1/",
            "localhost:80",
            "ws://:80/",
            "not a url",
        ] {
            let err = Client::<u8, u8>::connect(url, ClientConfig::default()).unwrap_err();
            assert!(matches!(err, ConnectError::BadUrl { .. }), "{url}: {err}");
        }
    }

    #[test]
    fn a_setting_that_cannot_work_is_refused() {
        let config = ClientConfig {
            ping_interval: Duration::ZERO,
            ..ClientConfig::default()
        };
        let err = Client::<u8, u8>::connect("ws://127.0.0.1:9/", config).unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad client setting: ping_interval must be more than zero"
        );
    }

    #[test]
    fn backoff_doubles_up_to_the_cap_with_jitter_from_the_seed() {
        let reconnect = Reconnect {
            attempts: 10,
            first: Duration::from_millis(100),
            max: Duration::from_millis(1000),
        };
        let mut rng = Pcg32::seed_from_u64(7);
        let waits: Vec<_> = (1..=6).map(|n| reconnect.delay(n, &mut rng)).collect();
        for (n, wait) in (1..=6).zip(&waits) {
            let full = Duration::from_millis(100 * (1 << (n - 1))).min(reconnect.max);
            assert!(*wait >= full / 2 && *wait <= full, "attempt {n}: {wait:?}");
        }
        let mut again = Pcg32::seed_from_u64(7);
        let replayed: Vec<_> = (1..=6).map(|n| reconnect.delay(n, &mut again)).collect();
        assert_eq!(waits, replayed);
        assert!(reconnect.delay(u32::MAX, &mut rng) <= reconnect.max);
    }
}
