//! The connection logic against a transport made by hand, on a clock moved by hand: the hostile
//! peers (an oversized frame, a flood, garbage, a server that never answers, a socket that
//! closes mid-send) and the schedule of pings, silence and reconnection.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::*;
use crate::client::{Reconnect, Shared};
use crate::frame::Codec;

const MS: Duration = Duration::from_millis(1);

/// A transport that plays a script: how each attempt opens, what arrives, how much it takes.
struct Fake {
    /// How attempts open, first to last; after the list, `Pending`.
    opens: VecDeque<Result<Opening, String>>,
    seen: VecDeque<Seen>,
    /// Frames taken so far.
    sent: Vec<Vec<u8>>,
    /// How many more frames it takes before it is full.
    room: usize,
    /// What a send says once it cannot write any more.
    gone: Option<CloseReason>,
    pings: bool,
    pinged: Vec<Vec<u8>>,
    closes: Vec<(u16, String)>,
    opened: usize,
    dropped: usize,
}

impl Fake {
    fn new() -> Fake {
        Fake {
            opens: VecDeque::new(),
            seen: VecDeque::new(),
            sent: Vec::new(),
            room: usize::MAX,
            gone: None,
            pings: true,
            pinged: Vec::new(),
            closes: Vec::new(),
            opened: 0,
            dropped: 0,
        }
    }

    /// Opens at once, every time.
    fn open_at_once(mut self) -> Fake {
        self.opens = std::iter::repeat_n(Ok(Opening::Open), 100).collect();
        self
    }
}

impl Wire for Fake {
    fn open(&mut self, _: &Target, _: &ClientConfig) -> Result<Opening, String> {
        self.opened += 1;
        self.opens.pop_front().unwrap_or(Ok(Opening::Pending))
    }
    fn next(&mut self) -> Option<Seen> {
        self.seen.pop_front()
    }
    fn send(&mut self, frame: Vec<u8>) -> Result<(), Refused> {
        if let Some(reason) = &self.gone {
            return Err(Refused::Gone(reason.clone()));
        }
        if self.room == 0 {
            return Err(Refused::Full(frame));
        }
        self.room -= 1;
        self.sent.push(frame);
        Ok(())
    }
    fn pings(&self) -> bool {
        self.pings
    }
    fn ping(&mut self, payload: Vec<u8>) -> Result<(), CloseReason> {
        self.pinged.push(payload);
        Ok(())
    }
    fn flush(&mut self) -> Result<(), CloseReason> {
        Ok(())
    }
    fn close(&mut self, reason: &CloseReason) {
        self.closes.push((reason.code(), reason.wire_text()));
    }
    fn drop_connection(&mut self) {
        self.dropped += 1;
    }
}

fn config() -> ClientConfig {
    ClientConfig {
        codec: Codec::new(1).with_max_frame(64),
        event_queue: 16,
        ..ClientConfig::default()
    }
}

fn life(fake: Fake, config: ClientConfig) -> (Life<Fake>, Shared<u32>) {
    let target = Target::parse("ws://127.0.0.1:7777/room").unwrap();
    (Life::new(fake, target, config), Shared::new())
}

fn frame(n: u32) -> Seen {
    Seen::Frame(Codec::new(1).encode(&n).unwrap())
}

/// The last event, which for an ended client is its `Closed`.
fn last_close(events: &[Event<u32>]) -> (u16, String) {
    match events.last() {
        Some(Event::Closed { code, why }) => (*code, why.clone()),
        other => panic!("the last event is not a close: {other:?} in {events:?}"),
    }
}

#[test]
fn an_oversized_frame_closes_with_1009_and_is_never_decoded() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    life.wire.seen.push_back(frame(1));
    life.wire.seen.push_back(Seen::Frame(vec![1; 65]));
    // A message after it is not read.
    life.wire.seen.push_back(frame(2));
    life.step(Duration::ZERO, &shared);
    assert_eq!(
        life.wire.closes,
        [(1009, "frame of 65 bytes is over the limit of 64".into())]
    );
    // The server's half of the close never comes: the client lets go at the close timeout.
    assert_eq!(life.step(999 * MS, &shared), Next::Nap(config().nap));
    assert_eq!(life.step(1000 * MS, &shared), Next::Done);
    let events = shared.take();
    assert_eq!(events[..2], [Event::Connected, Event::Message(1)]);
    assert_eq!(
        last_close(&events),
        (1009, "frame of 65 bytes is over the limit of 64".into())
    );
    assert_eq!(life.wire.dropped, 1);
    assert_eq!(shared.state(), State::Closed);
}

#[test]
fn an_oversized_frame_seen_from_its_header_says_why_and_lets_go() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    let too_large = CloseReason::TooLarge {
        size: 1 << 30,
        limit: 64,
    };
    life.wire.seen.push_back(Seen::Ended(too_large.clone()));
    assert_eq!(life.step(Duration::ZERO, &shared), Next::Done);
    assert_eq!(life.wire.closes, [(1009, too_large.to_string())]);
    assert_eq!(last_close(&shared.take()), (1009, too_large.to_string()));
}

#[test]
fn a_flood_waits_in_the_transport_while_the_game_has_a_full_queue() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    life.wire.seen.extend((0..10_000).map(frame));
    life.step(Duration::ZERO, &shared);
    // However often it steps, no more than the event queue waits for the game.
    for t in 1..50 {
        life.step(t * MS, &shared);
    }
    let first = shared.take();
    assert_eq!(first.len(), 1 + 16, "connected, then 16 messages");
    assert_eq!(first[16], Event::Message(15));
    // Silence caused by a game that is behind is not the server's: nothing closes.
    life.step(60 * Duration::from_secs(1), &shared);
    assert!(life.wire.closes.is_empty());
    assert_eq!(shared.take()[..2], [Event::Message(16), Event::Message(17)]);
    assert_eq!(life.wire.seen.len(), 10_000 - 32);
}

#[test]
fn a_transport_that_cannot_hold_a_flood_closes_with_4002_in_words() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    life.wire
        .seen
        .push_back(Seen::Ended(CloseReason::Backlog { waiting: 16 }));
    assert_eq!(life.step(Duration::ZERO, &shared), Next::Done);
    let words = "behind: more than 16 frames from the server waited unread";
    assert_eq!(life.wire.closes, [(4002, words.into())]);
    assert_eq!(last_close(&shared.take()), (4002, words.into()));
}

#[test]
fn garbage_bytes_close_with_1007_and_say_what_was_wrong() {
    for (bytes, words) in [
        (vec![], "empty frame: not even a protocol version byte"),
        (
            vec![1, 0xff],
            "truncated frame: its 2 bytes end in the middle of the payload",
        ),
        (
            vec![1, 1, 9],
            "garbage frame: 1 bytes left over after the payload",
        ),
    ] {
        let (mut life, shared) = life(Fake::new().open_at_once(), config());
        life.wire.seen.push_back(Seen::Frame(bytes.clone()));
        life.wire
            .seen
            .push_back(Seen::Ended(CloseReason::Lost("closed".into())));
        assert_eq!(life.step(Duration::ZERO, &shared), Next::Done);
        assert_eq!(life.wire.closes, [(1007, words.to_string())], "{bytes:?}");
        assert_eq!(last_close(&shared.take()), (1007, words.to_string()));
    }
}

#[test]
fn a_text_frame_or_another_protocol_closes_in_words() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    life.wire.seen.push_back(Seen::Text);
    life.step(Duration::ZERO, &shared);
    assert_eq!(life.wire.closes[0].0, 1003);
    let (mut life, shared) = self::life(Fake::new().open_at_once(), config());
    life.wire
        .seen
        .push_back(Seen::Frame(Codec::new(2).encode(&7u32).unwrap()));
    life.step(Duration::ZERO, &shared);
    assert_eq!(
        life.wire.closes,
        [(
            1002,
            "protocol mismatch: the server speaks protocol 2, the client 1".into()
        )]
    );
}

#[test]
fn a_server_that_never_answers_is_given_up_at_the_connect_timeout() {
    let (mut life, shared) = life(Fake::new(), config());
    assert_eq!(life.step(Duration::ZERO, &shared), Next::Nap(config().nap));
    assert_eq!(shared.state(), State::Connecting);
    life.step(4999 * MS, &shared);
    assert_eq!(shared.state(), State::Connecting);
    assert_eq!(life.step(5000 * MS, &shared), Next::Done);
    let why = "could not connect to ws://127.0.0.1:7777/room: \
               the server did not finish the WebSocket handshake in time";
    assert_eq!(
        shared.take(),
        [
            Event::Error(why.into()),
            Event::Closed {
                code: 1006,
                why: why.into()
            }
        ]
    );
    assert_eq!(life.wire.dropped, 1);
}

#[test]
fn a_server_that_never_answers_is_tried_again_on_the_seeded_schedule() {
    let schedule = |seed: u64| {
        let config = ClientConfig {
            reconnect: Reconnect::attempts(4),
            seed,
            ..config()
        };
        let (mut life, shared) = life(Fake::new(), config);
        let mut now = Duration::ZERO;
        let mut waits = Vec::new();
        while life.step(now, &shared) != Next::Done {
            now += 10 * MS;
            for event in shared.take() {
                if let Event::Reconnecting { attempt, in_ms } = event {
                    waits.push((attempt, in_ms));
                }
            }
        }
        assert_eq!(life.wire.opened, 5, "the first try and four more");
        assert_eq!(last_close(&shared.take()).0, 1006);
        waits
    };
    let waits = schedule(3);
    for &(attempt, in_ms) in &waits {
        let full = (250u64 << (attempt - 1)).min(10_000);
        assert!(
            in_ms >= full / 2 && in_ms <= full,
            "attempt {attempt}: {in_ms} ms"
        );
    }
    assert_eq!(waits.iter().map(|w| w.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(schedule(3), waits, "the same seed, the same waits");
    assert_ne!(schedule(4), waits, "another seed, other waits");
}

#[test]
fn a_socket_closed_mid_send_keeps_the_frames_and_ends_in_the_servers_words() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    life.step(Duration::ZERO, &shared);
    // The socket stops taking frames (it is closing), then its close arrives.
    life.wire.room = 1;
    lock(&shared.outbox).extend([vec![1, 1], vec![1, 2], vec![1, 3]]);
    life.wire.seen.push_back(Seen::Close {
        code: 1001,
        why: "the server is shutting down".into(),
    });
    life.wire
        .seen
        .push_back(Seen::Ended(CloseReason::Lost("closed".into())));
    assert_eq!(life.step(MS, &shared), Next::Done);
    assert_eq!(life.wire.sent, [vec![1, 1]]);
    assert_eq!(
        last_close(&shared.take()),
        (1001, "the server is shutting down".into())
    );
}

#[test]
fn a_socket_that_cannot_be_written_ends_as_lost_and_is_retried() {
    let config = ClientConfig {
        reconnect: Reconnect::attempts(1),
        ..config()
    };
    let (mut life, shared) = life(Fake::new().open_at_once(), config);
    life.step(Duration::ZERO, &shared);
    life.wire.gone = Some(CloseReason::Lost("cannot write: broken pipe".into()));
    lock(&shared.outbox).push_back(vec![1, 1]);
    assert!(matches!(life.step(MS, &shared), Next::Nap(_)));
    let events = shared.take();
    assert_eq!(
        events[1],
        Event::Closed {
            code: 1006,
            why: "connection lost: cannot write: broken pipe".into()
        }
    );
    assert!(matches!(events[2], Event::Reconnecting { attempt: 1, .. }));
    assert_eq!(shared.state(), State::Waiting);
}

#[test]
fn pings_measure_the_round_trip_and_silence_closes_with_4000() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    life.step(Duration::ZERO, &shared);
    let ping = life.wire.pinged.pop().expect("a ping at once");
    life.wire.seen.push_back(Seen::Pong(ping));
    life.step(30 * MS, &shared);
    assert_eq!(shared.rtt.get(), Some(30 * MS));
    // One ping a second, whatever the steps.
    life.step(999 * MS, &shared);
    assert!(life.wire.pinged.is_empty());
    life.step(1000 * MS, &shared);
    assert_eq!(life.wire.pinged.len(), 1);
    // Nothing heard for the idle timeout after the pong: closed as idle.
    life.step(10_030 * MS, &shared);
    assert!(life.wire.closes.is_empty());
    life.step(10_031 * MS, &shared);
    assert_eq!(
        life.wire.closes,
        [(4000, "idle: nothing heard for 10000 ms".into())]
    );
}

#[test]
fn a_transport_without_pings_measures_nothing_and_never_closes_for_silence() {
    let mut fake = Fake::new().open_at_once();
    fake.pings = false;
    let (mut life, shared) = life(fake, config());
    life.step(Duration::ZERO, &shared);
    life.step(3600 * Duration::from_secs(1), &shared);
    assert!(life.wire.pinged.is_empty() && life.wire.closes.is_empty());
    assert_eq!(shared.rtt.get(), None);
    assert_eq!(shared.state(), State::Open);
}

#[test]
fn a_close_from_the_game_sends_what_was_queued_first_and_waits_for_the_servers_half() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    life.step(Duration::ZERO, &shared);
    lock(&shared.outbox).push_back(vec![1, 5]);
    shared.close.store(true, Ordering::Relaxed);
    life.step(MS, &shared);
    assert_eq!(life.wire.sent, [vec![1, 5]]);
    assert_eq!(life.wire.closes, [(1000, "closed by the client".into())]);
    // Frames arriving meanwhile are dropped; the server's half ends it.
    life.wire.seen.push_back(frame(9));
    life.wire.seen.push_back(Seen::Close {
        code: 1000,
        why: "closed by the client".into(),
    });
    life.wire
        .seen
        .push_back(Seen::Ended(CloseReason::Lost("closed".into())));
    assert_eq!(life.step(2 * MS, &shared), Next::Done);
    let events = shared.take();
    assert_eq!(
        events,
        [
            Event::Connected,
            Event::Closed {
                code: 1000,
                why: "closed by the client".into()
            }
        ]
    );
}

#[test]
fn a_browser_refusal_before_the_handshake_is_a_failed_attempt() {
    let mut fake = Fake::new();
    fake.seen.push_back(Seen::Ended(CloseReason::Lost(
        "the browser could not open the WebSocket (code 1006)".into(),
    )));
    let (mut life, shared) = life(fake, config());
    assert_eq!(life.step(Duration::ZERO, &shared), Next::Done);
    let events = shared.take();
    let why = "could not connect to ws://127.0.0.1:7777/room: connection lost: \
               the browser could not open the WebSocket (code 1006)";
    assert_eq!(events[0], Event::Error(why.into()));
    assert_eq!(last_close(&events), (1006, why.into()));
}

#[test]
fn a_pending_connection_opens_when_the_transport_says_so() {
    let (mut life, shared) = life(Fake::new(), config());
    life.step(Duration::ZERO, &shared);
    life.wire.seen.push_back(Seen::Opened);
    life.wire.seen.push_back(frame(4));
    life.step(MS, &shared);
    assert_eq!(shared.take(), [Event::Connected, Event::Message(4)]);
    assert_eq!(shared.state(), State::Open);
}

#[test]
fn a_client_let_go_sends_what_was_queued_then_its_close() {
    let (mut life, shared) = life(Fake::new().open_at_once(), config());
    life.step(Duration::ZERO, &shared);
    lock(&shared.outbox).push_back(vec![1, 6]);
    life.let_go(MS, &shared);
    assert_eq!(life.wire.sent, [vec![1, 6]]);
    assert_eq!(life.wire.closes, [(1000, "closed by the client".into())]);
    assert_eq!(life.wire.dropped, 1);
    assert_eq!(life.step(2 * MS, &shared), Next::Done);
}
