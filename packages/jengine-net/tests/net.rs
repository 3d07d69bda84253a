//! Client and server over real sockets on 127.0.0.1, each test on its own ephemeral port, with
//! timeouts cut to a few hundred milliseconds so the whole file runs in seconds.

use std::collections::VecDeque;
use std::fmt::Debug;
use std::future::Future;
use std::io::Read;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::mpsc;
use std::thread::sleep;
use std::time::{Duration, Instant};

use jengine_net::{
    Client, ClientConfig, CloseReason, Codec, Connection, Event, RateLimit, Reconnect, SendError,
    Server, ServerConfig, State, serve,
};
use serde::{Deserialize, Serialize};
use tokio::runtime::Runtime;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Up {
    Say(String),
    Blob(Vec<u8>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Down {
    Echo(String),
    Blob(Vec<u8>),
    Hello,
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap()
}

fn server_config() -> ServerConfig {
    ServerConfig {
        handshake_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_secs(2),
        ping_interval: Duration::from_millis(20),
        close_timeout: Duration::from_millis(300),
        ..ServerConfig::default()
    }
}

fn client_config() -> ClientConfig {
    ClientConfig {
        connect_timeout: Duration::from_millis(500),
        ping_interval: Duration::from_millis(20),
        idle_timeout: Duration::from_secs(2),
        close_timeout: Duration::from_millis(300),
        ..ClientConfig::default()
    }
}

fn start<H, F>(rt: &Runtime, addr: &str, config: ServerConfig, handler: H) -> Server
where
    H: Fn(Connection<Down, Up>) -> F + Send + Sync + 'static,
    F: Future<Output = ()> + Send + 'static,
{
    rt.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.unwrap();
        serve(listener, config, handler).unwrap()
    })
}

fn url(addr: SocketAddr) -> String {
    format!("ws://{addr}/room")
}

/// Echoes every frame; "rtt?" is answered with whether the server has measured a round trip.
async fn echo(mut conn: Connection<Down, Up>) {
    while let Ok(up) = conn.recv().await {
        let down = match up {
            Up::Say(s) if s == "rtt?" => Down::Echo(format!("{}", conn.round_trip().is_some())),
            Up::Say(s) => Down::Echo(s),
            Up::Blob(b) => Down::Blob(b),
        };
        let _ = conn.send(&down);
    }
}

type Handling = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A handler that reports why its connection ended.
fn reporting() -> (
    impl Fn(Connection<Down, Up>) -> Handling + Send + Sync + 'static,
    mpsc::Receiver<CloseReason>,
) {
    let (tx, rx) = mpsc::channel();
    let handler = move |mut conn: Connection<Down, Up>| {
        let tx = tx.clone();
        Box::pin(async move {
            let why = loop {
                if let Err(why) = conn.recv().await {
                    break why;
                }
            };
            let _ = tx.send(why);
        }) as Handling
    };
    (handler, rx)
}

/// A client and the events polled but not looked at yet.
struct Player<Out, In> {
    client: Client<Out, In>,
    backlog: VecDeque<Event<In>>,
}

impl<Out: Serialize, In: serde::de::DeserializeOwned + Send + Debug + 'static> Player<Out, In> {
    fn join(url: &str, config: ClientConfig) -> Self {
        Player {
            client: Client::connect(url, config).unwrap(),
            backlog: VecDeque::new(),
        }
    }

    /// Polls (as a game would, every couple of milliseconds) until an event passes `wanted`;
    /// returns it and every event before it.
    fn until(&mut self, within: Duration, wanted: impl Fn(&Event<In>) -> bool) -> Vec<Event<In>> {
        let end = Instant::now() + within;
        let mut seen = Vec::new();
        loop {
            while let Some(event) = self.backlog.pop_front() {
                let done = wanted(&event);
                seen.push(event);
                if done {
                    return seen;
                }
            }
            assert!(
                Instant::now() < end,
                "nothing wanted within {within:?}; saw {seen:?}"
            );
            sleep(Duration::from_millis(2));
            self.backlog.extend(self.client.poll());
        }
    }

    fn closed(&mut self, within: Duration) -> (u16, String) {
        match self
            .until(within, |e| matches!(e, Event::Closed { .. }))
            .pop()
        {
            Some(Event::Closed { code, why }) => (code, why),
            _ => unreachable!(),
        }
    }
}

const SOON: Duration = Duration::from_secs(3);

fn connected<In>(e: &Event<In>) -> bool {
    matches!(e, Event::Connected)
}

#[test]
fn a_client_connects_exchanges_frames_and_measures_a_round_trip() {
    let rt = runtime();
    let server = start(&rt, "127.0.0.1:0", server_config(), echo);
    let mut player = Player::<Up, Down>::join(&url(server.local_addr()), client_config());
    for word in ["いち", "に", "さん"] {
        player.client.send(&Up::Say(word.into())).unwrap();
    }
    let seen = player.until(SOON, |e| *e == Event::Message(Down::Echo("さん".into())));
    assert_eq!(
        seen,
        [
            Event::Connected,
            Event::Message(Down::Echo("いち".into())),
            Event::Message(Down::Echo("に".into())),
            Event::Message(Down::Echo("さん".into())),
        ]
    );
    let end = Instant::now() + SOON;
    while player.client.round_trip().is_none() {
        assert!(Instant::now() < end, "no round trip measured");
        sleep(Duration::from_millis(5));
    }
    assert!(player.client.round_trip().unwrap() < Duration::from_secs(1));
    assert_eq!(player.client.state(), State::Open);
    // The server measures its own, from its own pings.
    let end = Instant::now() + SOON;
    loop {
        player.client.send(&Up::Say("rtt?".into())).unwrap();
        let seen = player.until(SOON, |e| matches!(e, Event::Message(_)));
        if seen.last() == Some(&Event::Message(Down::Echo("true".into()))) {
            break;
        }
        assert!(Instant::now() < end, "the server measured no round trip");
        sleep(Duration::from_millis(20));
    }
}

#[test]
fn garbage_is_closed_with_a_reason_the_client_sees() {
    let rt = runtime();
    let (handler, reasons) = reporting();
    let server = start(&rt, "127.0.0.1:0", server_config(), handler);
    // A u8 of 9 is variant 9 of Up, which has two.
    let mut player = Player::<u8, Down>::join(&url(server.local_addr()), client_config());
    player.client.send(&9).unwrap();
    let (code, why) = player.closed(SOON);
    assert_eq!(code, 1007);
    assert!(why.starts_with("garbage frame: "), "{why}");
    let on_server = reasons.recv_timeout(SOON).unwrap();
    assert!(
        matches!(on_server, CloseReason::Garbage(_)),
        "{on_server:?}"
    );
}

#[test]
fn an_oversized_frame_is_closed_with_its_size_and_the_limit() {
    let rt = runtime();
    let (handler, reasons) = reporting();
    let config = ServerConfig {
        codec: Codec::new(1).with_max_frame(1024),
        ..server_config()
    };
    let server = start(&rt, "127.0.0.1:0", config, handler);
    let mut player = Player::<Up, Down>::join(&url(server.local_addr()), client_config());
    player.client.send(&Up::Blob(vec![7; 4000])).unwrap();
    // 1 version byte, 1 variant, 2 bytes of length, 4000 of blob.
    assert_eq!(
        player.closed(SOON),
        (1009, "frame of 4004 bytes is over the limit of 1024".into())
    );
    assert_eq!(
        reasons.recv_timeout(SOON).unwrap(),
        CloseReason::TooLarge {
            size: 4004,
            limit: 1024
        }
    );
}

#[test]
fn a_flood_is_closed_with_the_rate_it_broke() {
    let rt = runtime();
    let (handler, reasons) = reporting();
    let config = ServerConfig {
        rate: RateLimit::new(20, 10),
        ..server_config()
    };
    let server = start(&rt, "127.0.0.1:0", config, handler);
    let unlimited = ClientConfig {
        send_rate: RateLimit::none(),
        ..client_config()
    };
    let mut player = Player::<Up, Down>::join(&url(server.local_addr()), unlimited);
    for n in 0..40 {
        player.client.send(&Up::Say(n.to_string())).unwrap();
    }
    assert_eq!(
        player.closed(SOON),
        (
            1008,
            "flood: more than 20 frames a second (bursts of 10)".into()
        )
    );
    assert!(matches!(
        reasons.recv_timeout(SOON).unwrap(),
        CloseReason::Flood { .. }
    ));
}

#[test]
fn a_text_frame_is_closed_with_1003() {
    let rt = runtime();
    let (handler, reasons) = reporting();
    let server = start(&rt, "127.0.0.1:0", server_config(), handler);
    let (mut ws, _) = tungstenite::connect(url(server.local_addr())).unwrap();
    ws.send(tungstenite::Message::text("hello")).unwrap();
    let close = loop {
        match ws.read().unwrap() {
            tungstenite::Message::Close(frame) => break frame.unwrap(),
            _ => continue,
        }
    };
    assert_eq!(u16::from(close.code), 1003);
    assert_eq!(
        close.reason.as_str(),
        "text frame: this connection speaks binary frames"
    );
    assert_eq!(reasons.recv_timeout(SOON).unwrap(), CloseReason::Text);
}

#[test]
fn a_silent_client_is_closed_as_idle() {
    let rt = runtime();
    let config = ServerConfig {
        idle_timeout: Duration::from_millis(150),
        ping_interval: Duration::from_secs(10),
        ..server_config()
    };
    let server = start(&rt, "127.0.0.1:0", config, echo);
    let quiet = ClientConfig {
        ping_interval: Duration::from_secs(10),
        ..client_config()
    };
    let mut player = Player::<Up, Down>::join(&url(server.local_addr()), quiet);
    assert_eq!(
        player.closed(SOON),
        (4000, "idle: nothing heard for 150 ms".into())
    );
}

#[test]
fn a_client_that_stops_reading_gets_dropped() {
    let rt = runtime();
    let config = ServerConfig {
        send_queue: 8,
        ..server_config()
    };
    let (tx, outcome) = mpsc::channel();
    let server = start(&rt, "127.0.0.1:0", config, move |mut conn| {
        let tx = tx.clone();
        async move {
            let blob = Down::Blob(vec![1; 16 * 1024]);
            let refused = loop {
                match conn.send(&blob) {
                    Ok(()) => tokio::task::yield_now().await,
                    Err(e) => break e,
                }
            };
            let why = loop {
                if let Err(why) = conn.recv().await {
                    break why;
                }
            };
            let _ = tx.send((refused, why));
        }
    });
    // The game never polls: after two messages the client thread stops reading.
    let stalled = ClientConfig {
        event_queue: 2,
        ..client_config()
    };
    let mut player = Player::<Up, Down>::join(&url(server.local_addr()), stalled);
    let (refused, why) = outcome.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(refused, SendError::QueueFull { capacity: 8 });
    assert_eq!(why, CloseReason::SlowReader { queued: 8 });
    let end = Instant::now() + SOON;
    while server.connections() > 0 {
        assert!(Instant::now() < end, "the handler is still running");
        sleep(Duration::from_millis(5));
    }
    // Once the game reads again, it learns the connection was lost.
    let (code, _) = player.closed(Duration::from_secs(10));
    assert_eq!(code, 1006);
}

#[test]
fn the_client_reconnects_after_the_server_restarts() {
    let rt = runtime();
    let first = start(&rt, "127.0.0.1:0", server_config(), echo);
    let addr = first.local_addr();
    let config = ClientConfig {
        reconnect: Reconnect {
            attempts: 50,
            first: Duration::from_millis(20),
            max: Duration::from_millis(100),
        },
        seed: 42,
        ..client_config()
    };
    let mut player = Player::<Up, Down>::join(&url(addr), config);
    player.until(SOON, connected);
    assert_eq!(rt.block_on(first.shutdown(Duration::from_secs(1))), 0);
    let seen = player.until(SOON, |e| matches!(e, Event::Reconnecting { .. }));
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert_eq!(
        seen[0],
        Event::Closed {
            code: 1001,
            why: "the server is shutting down".into()
        }
    );
    assert!(
        matches!(seen[1], Event::Reconnecting { attempt: 1, in_ms } if in_ms <= 20),
        "{seen:?}"
    );
    let _second = start(&rt, &addr.to_string(), server_config(), echo);
    let seen = player.until(SOON, connected);
    // Between the two servers, attempts may have failed; each said so.
    assert!(
        seen.iter().all(|e| matches!(
            e,
            Event::Error(_) | Event::Reconnecting { .. } | Event::Connected
        )),
        "{seen:?}"
    );
    player.client.send(&Up::Say("again".into())).unwrap();
    player.until(SOON, |e| *e == Event::Message(Down::Echo("again".into())));
}

#[test]
fn poll_and_send_return_at_once_while_the_server_is_dead() {
    // A listener that never accepts: TCP connects, the WebSocket handshake never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let config = ClientConfig {
        connect_timeout: Duration::from_millis(400),
        ..client_config()
    };
    let started = Instant::now();
    let mut client =
        Client::<Up, Down>::connect(&url(silent.local_addr().unwrap()), config).unwrap();
    let mut slowest = started.elapsed();
    let mut events = Vec::new();
    while !events.iter().any(|e| matches!(e, Event::Closed { .. })) {
        assert!(started.elapsed() < SOON, "{events:?}");
        let call = Instant::now();
        events.extend(client.poll());
        let _ = client.send(&Up::Say("anyone?".into()));
        slowest = slowest.max(call.elapsed());
        sleep(Duration::from_millis(5));
    }
    // Every call came back far inside the 400 ms the connection attempt was blocked for.
    assert!(slowest < Duration::from_millis(100), "{slowest:?}");
    assert!(started.elapsed() >= Duration::from_millis(400));
    assert!(
        matches!(&events[..], [Event::Error(e), Event::Closed { code: 1006, why }]
            if e.contains("did not finish the WebSocket handshake") && why == e),
        "{events:?}"
    );
    assert_eq!(client.state(), State::Closed);
    assert_eq!(
        client.send(&Up::Say("hello?".into())),
        Err(SendError::Closed)
    );

    // A port nobody listens on: refused, and said so.
    let free = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut player = Player::<Up, Down>::join(&url(free), client_config());
    let seen = player.until(SOON, |e| matches!(e, Event::Closed { .. }));
    assert!(
        matches!(&seen[0], Event::Error(e) if e.starts_with(&format!("could not connect to ws://{free}/room"))),
        "{seen:?}"
    );
}

#[test]
fn a_client_of_a_newer_protocol_is_told_in_words() {
    let rt = runtime();
    let (handler, reasons) = reporting();
    let server = start(&rt, "127.0.0.1:0", server_config(), handler);
    let newer = ClientConfig {
        codec: Codec::new(2),
        ..client_config()
    };
    let mut player = Player::<Up, Down>::join(&url(server.local_addr()), newer);
    player.client.send(&Up::Say("hello".into())).unwrap();
    assert_eq!(
        player.closed(SOON),
        (
            1002,
            "protocol mismatch: the server speaks protocol 1, the client 2".into()
        )
    );
    assert_eq!(
        reasons.recv_timeout(SOON).unwrap(),
        CloseReason::Protocol {
            server: 1,
            client: 2
        }
    );
}

#[test]
fn a_server_of_an_older_protocol_is_told_in_words() {
    let rt = runtime();
    let (tx, reasons) = mpsc::channel();
    let server = start(&rt, "127.0.0.1:0", server_config(), move |mut conn| {
        let tx = tx.clone();
        async move {
            conn.send(&Down::Hello).unwrap();
            while conn.recv().await.is_ok() {}
            let _ = tx.send(conn.recv().await.unwrap_err());
        }
    });
    let newer = ClientConfig {
        codec: Codec::new(3),
        ..client_config()
    };
    let mut player = Player::<Up, Down>::join(&url(server.local_addr()), newer);
    let words = "protocol mismatch: the server speaks protocol 1, the client 3";
    assert_eq!(player.closed(SOON), (1002, words.into()));
    assert_eq!(
        reasons.recv_timeout(SOON).unwrap(),
        CloseReason::Peer {
            code: 1002,
            why: words.into()
        }
    );
}

#[test]
fn close_on_either_side_reaches_the_other_with_its_words() {
    let rt = runtime();
    let (handler, reasons) = reporting();
    let server = start(&rt, "127.0.0.1:0", server_config(), handler);
    let mut player = Player::<Up, Down>::join(&url(server.local_addr()), client_config());
    player.until(SOON, connected);
    player.client.close();
    assert_eq!(player.closed(SOON), (1000, "closed by the client".into()));
    assert_eq!(player.client.state(), State::Closed);
    assert_eq!(
        player.client.send(&Up::Say("x".into())),
        Err(SendError::Closed)
    );
    assert_eq!(
        reasons.recv_timeout(SOON).unwrap(),
        CloseReason::Peer {
            code: 1000,
            why: "closed by the client".into()
        }
    );

    // The server's close is final even with reconnection on.
    let rooms = start(&rt, "127.0.0.1:0", server_config(), |conn| async move {
        conn.send(&Down::Hello).unwrap();
        conn.close("room over");
    });
    let config = ClientConfig {
        reconnect: Reconnect::attempts(3),
        ..client_config()
    };
    let mut player = Player::<Up, Down>::join(&url(rooms.local_addr()), config);
    let seen = player.until(SOON, |e| matches!(e, Event::Closed { .. }));
    assert_eq!(
        seen,
        [
            Event::Connected,
            Event::Message(Down::Hello),
            Event::Closed {
                code: 1000,
                why: "room over".into()
            }
        ]
    );
    sleep(Duration::from_millis(50));
    assert_eq!(player.client.poll(), []);
    assert_eq!(player.client.state(), State::Closed);
}

#[test]
fn the_client_refuses_past_its_queue_and_its_rate() {
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let at = url(silent.local_addr().unwrap());
    let small_queue = ClientConfig {
        send_queue: 4,
        ..client_config()
    };
    let mut client = Client::<Up, Down>::connect(&at, small_queue).unwrap();
    for _ in 0..4 {
        client.send(&Up::Say("queued".into())).unwrap();
    }
    assert_eq!(
        client.send(&Up::Say("one too many".into())),
        Err(SendError::QueueFull { capacity: 4 })
    );

    let slow = ClientConfig {
        send_rate: RateLimit::new(3, 3),
        ..client_config()
    };
    let mut client = Client::<Up, Down>::connect(&at, slow).unwrap();
    for _ in 0..3 {
        client.send(&Up::Say("burst".into())).unwrap();
    }
    assert_eq!(
        client.send(&Up::Say("flood".into())),
        Err(SendError::RateLimited {
            per_second: 3,
            burst: 3
        })
    );
}

#[test]
fn a_socket_without_a_handshake_is_dropped_before_the_handler() {
    let rt = runtime();
    let (handler, reasons) = reporting();
    let config = ServerConfig {
        handshake_timeout: Duration::from_millis(150),
        ..server_config()
    };
    let server = start(&rt, "127.0.0.1:0", config, handler);
    let mut socket = std::net::TcpStream::connect(server.local_addr()).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let mut scrap = [0u8; 16];
    assert_eq!(socket.read(&mut scrap).unwrap(), 0, "the server hung up");
    let end = Instant::now() + SOON;
    while server.connections() > 0 {
        assert!(Instant::now() < end, "the handshake task is still running");
        sleep(Duration::from_millis(2));
    }
    assert!(reasons.try_recv().is_err(), "the handler never ran");
}
