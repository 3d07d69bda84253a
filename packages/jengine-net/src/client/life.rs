//! A connection's life, written once for every transport: attempts and the reconnection
//! schedule, then, while a connection is open, the outgoing queue, pings and the round trip,
//! reading within the event queue's bound, the size limit and decoding, silence, and the close
//! in both directions with its words.
//!
//! It is a state machine stepped with the time (a [`Duration`] since the client's epoch), so
//! it never reads a clock or waits: the native thread steps it between naps, the browser's
//! client inside the game's calls, and the tests with a clock they move by hand. Everything a
//! transport must do is the [`Wire`] trait.

use std::time::Duration;

use rand::SeedableRng;
use rand_pcg::Pcg32;
use serde::de::DeserializeOwned;

use super::{ClientConfig, Event, Shared, State, Target, closed, lock};
use crate::close::{CloseReason, worth_retrying};

/// How an attempt to connect began.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "each transport says part of this: the native one opens at once and pings, the browser's opens later and cannot ping"
    )
)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Opening {
    /// The connection is open (the transport connected and shook hands before returning).
    Open,
    /// The transport is connecting; [`Seen::Opened`] or an end follows.
    Pending,
}

/// What a transport has for the connection logic.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "each transport says part of this: the native one opens at once and pings, the browser's opens later and cannot ping"
    )
)]
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Seen {
    /// The handshake finished.
    Opened,
    /// A binary frame, not yet checked or decoded.
    Frame(Vec<u8>),
    /// A text frame (refused: this transport speaks binary).
    Text,
    /// A pong, with the payload its ping carried.
    Pong(Vec<u8>),
    /// The peer's close frame (its half of a close).
    Close {
        /// Its code (1005 when it carried none).
        code: u16,
        /// Its words.
        why: String,
    },
    /// The connection cannot be read any more, and why (a lost connection, an oversized frame
    /// seen from its header, a broken WebSocket frame, too many frames left unread).
    Ended(CloseReason),
}

/// Why a transport did not take a frame.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "each transport says part of this: the native one opens at once and pings, the browser's opens later and cannot ping"
    )
)]
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Refused {
    /// No room now (the peer is not reading, or the socket is not open): it is held and tried
    /// again.
    Full(Vec<u8>),
    /// The connection cannot be written any more.
    Gone(CloseReason),
}

/// A WebSocket under the connection logic: non-blocking in everything but perhaps `open`.
pub(crate) trait Wire {
    /// Begins a connection.
    fn open(&mut self, target: &Target, config: &ClientConfig) -> Result<Opening, String>;
    /// The next thing the connection has, if any.
    fn next(&mut self) -> Option<Seen>;
    /// Sends a binary frame.
    fn send(&mut self, frame: Vec<u8>) -> Result<(), Refused>;
    /// Whether this transport sends pings and sees pongs. Without them no round trip is
    /// measured and silence cannot be told from a quiet server, so it closes nothing.
    fn pings(&self) -> bool;
    /// Sends a ping; one that finds no room is skipped.
    fn ping(&mut self, payload: Vec<u8>) -> Result<(), CloseReason>;
    /// Pushes out what was written.
    fn flush(&mut self) -> Result<(), CloseReason>;
    /// Sends a close frame for `reason` (then the peer's half is awaited).
    fn close(&mut self, reason: &CloseReason);
    /// Lets go of the connection at once.
    fn drop_connection(&mut self);
}

/// What the stepper should do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Next {
    /// Step again within this long (earlier if the game sends or closes).
    Nap(Duration),
    /// The client is done: nothing more will happen.
    Done,
}

enum Phase {
    /// Until this moment, before an attempt (the first is due at once).
    Waiting {
        until: Duration,
    },
    /// An attempt is under way; given up at the deadline.
    Connecting {
        deadline: Duration,
    },
    Open(Open),
    Done,
}

/// One open connection.
struct Open {
    last_heard: Duration,
    next_ping: Duration,
    /// A frame the transport had no room for yet.
    held: Option<Vec<u8>>,
    /// Set once a close has begun: why, and when to stop waiting for the other half.
    closing: Option<(CloseReason, Duration)>,
}

/// A client's connections, one after another, until it is done.
pub(crate) struct Life<W> {
    pub(crate) wire: W,
    target: Target,
    config: ClientConfig,
    rng: Pcg32,
    attempt: u32,
    phase: Phase,
}

fn by_the_client() -> CloseReason {
    CloseReason::Normal("closed by the client".into())
}

impl<W: Wire> Life<W> {
    pub(crate) fn new(wire: W, target: Target, config: ClientConfig) -> Self {
        Life {
            wire,
            target,
            rng: Pcg32::seed_from_u64(config.seed),
            config,
            attempt: 0,
            phase: Phase::Waiting {
                until: Duration::ZERO,
            },
        }
    }

    /// Does what is due at `now`, telling `shared` what happened.
    pub(crate) fn step<In: DeserializeOwned>(
        &mut self,
        now: Duration,
        shared: &Shared<In>,
    ) -> Next {
        loop {
            match &mut self.phase {
                Phase::Done => return Next::Done,
                Phase::Waiting { until } => {
                    if shared.closing() {
                        self.finish(shared, vec![closed(&by_the_client())]);
                        continue;
                    }
                    if now < *until {
                        return Next::Nap(*until - now);
                    }
                    shared.tell(State::Connecting, []);
                    match self.wire.open(&self.target, &self.config) {
                        Ok(Opening::Open) => self.opened(now, shared),
                        Ok(Opening::Pending) => {
                            self.phase = Phase::Connecting {
                                deadline: now + self.config.connect_timeout,
                            };
                        }
                        Err(why) => self.attempt_failed(&why, now, shared),
                    }
                }
                Phase::Connecting { deadline } => {
                    let deadline = *deadline;
                    if shared.closing() {
                        self.wire.drop_connection();
                        self.finish(shared, vec![closed(&by_the_client())]);
                        continue;
                    }
                    match self.wire.next() {
                        Some(Seen::Opened) => self.opened(now, shared),
                        Some(Seen::Ended(reason)) => {
                            self.wire.drop_connection();
                            self.attempt_failed(&reason.to_string(), now, shared);
                        }
                        Some(Seen::Close { code, why }) => {
                            self.wire.drop_connection();
                            let why = format!("refused with code {code}: {why}");
                            self.attempt_failed(&why, now, shared);
                        }
                        // Nothing else comes before a handshake; a transport that says
                        // otherwise is not believed.
                        Some(_) => {}
                        None if now >= deadline => {
                            self.wire.drop_connection();
                            let why = "the server did not finish the WebSocket handshake in time";
                            self.attempt_failed(why, now, shared);
                        }
                        None => return Next::Nap(self.config.nap.min(deadline - now)),
                    }
                }
                Phase::Open(open) => match open.round(&mut self.wire, &self.config, now, shared) {
                    None => return Next::Nap(self.config.nap),
                    Some(reason) => {
                        self.wire.drop_connection();
                        let retry = worth_retrying(reason.code()) && !shared.closing();
                        self.after(vec![closed(&reason)], retry, now, shared);
                    }
                },
            }
        }
    }

    /// The client is gone and will not be stepped again: what was queued goes, then a close
    /// frame, and the transport is let go (it finishes the close on its own).
    #[cfg_attr(
        not(any(test, target_arch = "wasm32")),
        allow(dead_code, reason = "the native thread is never dropped mid-step")
    )]
    pub(crate) fn let_go<In>(&mut self, now: Duration, shared: &Shared<In>) {
        if let Phase::Open(open) = &mut self.phase
            && open.closing.is_none()
        {
            let _ = open.write(&mut self.wire, &self.config, now, shared);
            open.begin_close(&mut self.wire, &self.config, by_the_client(), now);
        }
        self.wire.drop_connection();
        self.phase = Phase::Done;
    }

    fn opened<In>(&mut self, now: Duration, shared: &Shared<In>) {
        self.attempt = 0;
        shared.rtt.reset();
        shared.tell(State::Open, [Event::Connected]);
        self.phase = Phase::Open(Open {
            last_heard: now,
            next_ping: now,
            held: None,
            closing: None,
        });
    }

    fn attempt_failed<In>(&mut self, why: &str, now: Duration, shared: &Shared<In>) {
        let why = format!("could not connect to {}: {why}", self.target.url);
        self.after(vec![Event::Error(why)], !shared.closing(), now, shared);
    }

    /// After a connection or an attempt ended: try again later, or be done.
    fn after<In>(
        &mut self,
        mut events: Vec<Event<In>>,
        retry: bool,
        now: Duration,
        shared: &Shared<In>,
    ) {
        if !retry || self.attempt >= self.config.reconnect.attempts {
            // A failed attempt ends like a lost connection (1006), in the attempt's words.
            let last = match &events[0] {
                Event::Error(_) if shared.closing() => Some(closed(&by_the_client())),
                Event::Error(why) => Some(Event::Closed {
                    code: CloseReason::Lost(String::new()).code(),
                    why: why.clone(),
                }),
                _ => None,
            };
            events.extend(last);
            self.finish(shared, events);
            return;
        }
        self.attempt += 1;
        let wait = self.config.reconnect.delay(self.attempt, &mut self.rng);
        events.push(Event::Reconnecting {
            attempt: self.attempt,
            in_ms: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
        });
        shared.tell(State::Waiting, events);
        self.phase = Phase::Waiting { until: now + wait };
    }

    fn finish<In>(&mut self, shared: &Shared<In>, events: Vec<Event<In>>) {
        shared.tell(State::Closed, events);
        self.phase = Phase::Done;
    }
}

impl Open {
    /// One round of an open connection: write, read, watch the time. Returns why it ended.
    fn round<W: Wire, In: DeserializeOwned>(
        &mut self,
        wire: &mut W,
        config: &ClientConfig,
        now: Duration,
        shared: &Shared<In>,
    ) -> Option<CloseReason> {
        if self.closing.is_none() {
            // Frames queued before `close` still go, ahead of the close frame.
            let asked_to_close = shared.closing();
            if let Err(reason) = self.write(wire, config, now, shared) {
                return Some(reason);
            }
            if asked_to_close {
                self.begin_close(wire, config, by_the_client(), now);
            }
        }
        if let Some(reason) = self.read(wire, config, now, shared) {
            return Some(reason);
        }
        match &self.closing {
            Some((reason, until)) if now >= *until => return Some(reason.clone()),
            None if wire.pings() && now.saturating_sub(self.last_heard) > config.idle_timeout => {
                let after = config.idle_timeout;
                self.begin_close(wire, config, CloseReason::Idle { after }, now);
            }
            _ => {}
        }
        None
    }

    /// Moves queued frames into the transport, pings when due, and flushes.
    fn write<W: Wire, In>(
        &mut self,
        wire: &mut W,
        config: &ClientConfig,
        now: Duration,
        shared: &Shared<In>,
    ) -> Result<(), CloseReason> {
        if wire.pings() && now >= self.next_ping {
            self.next_ping = now + config.ping_interval;
            wire.ping(shared.rtt.ping(now))?;
        }
        loop {
            let frame = match self.held.take() {
                Some(frame) => frame,
                None => match lock(&shared.outbox).pop_front() {
                    Some(frame) => frame,
                    None => break,
                },
            };
            match wire.send(frame) {
                Ok(()) => {}
                Err(Refused::Full(frame)) => {
                    self.held = Some(frame);
                    break;
                }
                Err(Refused::Gone(reason)) => return Err(reason),
            }
        }
        wire.flush()
    }

    /// Reads everything waiting (unless the game has enough unread); returns why the
    /// connection ended, if it did.
    fn read<W: Wire, In: DeserializeOwned>(
        &mut self,
        wire: &mut W,
        config: &ClientConfig,
        now: Duration,
        shared: &Shared<In>,
    ) -> Option<CloseReason> {
        loop {
            if lock(&shared.inbox).messages >= config.event_queue {
                // The game is behind: leave the rest in the transport, and do not count the
                // silence this causes against the server.
                self.last_heard = now;
                return None;
            }
            let seen = wire.next()?;
            self.last_heard = now;
            if let Seen::Ended(reason) = seen {
                return Some(self.ended(wire, config, reason, now));
            }
            if self.closing.is_some() {
                continue;
            }
            match seen {
                Seen::Frame(bytes) => match config.codec.decode::<In>(&bytes) {
                    Ok(payload) => {
                        let mut inbox = lock(&shared.inbox);
                        inbox.events.push(Event::Message(payload));
                        inbox.messages += 1;
                    }
                    Err(e) => self.begin_close(wire, config, CloseReason::for_frame(e, false), now),
                },
                Seen::Text => self.begin_close(wire, config, CloseReason::Text, now),
                Seen::Pong(payload) => {
                    shared.rtt.pong(&payload, now);
                }
                Seen::Close { code, why } => {
                    self.closing =
                        Some((CloseReason::Peer { code, why }, now + config.close_timeout));
                }
                Seen::Opened | Seen::Ended(_) => {}
            }
        }
    }

    /// Why the connection ended, given what ended it.
    fn ended<W: Wire>(
        &mut self,
        wire: &mut W,
        config: &ClientConfig,
        reason: CloseReason,
        now: Duration,
    ) -> CloseReason {
        if let Some((reason, _)) = self.closing.take() {
            return reason;
        }
        if reason.is_sent() {
            // The connection cannot be read past this; say why, then let go.
            self.begin_close(wire, config, reason.clone(), now);
            let _ = wire.flush();
        }
        reason
    }

    fn begin_close<W: Wire>(
        &mut self,
        wire: &mut W,
        config: &ClientConfig,
        reason: CloseReason,
        now: Duration,
    ) {
        wire.close(&reason);
        self.closing = Some((reason, now + config.close_timeout));
    }
}

#[cfg(test)]
#[path = "life_tests.rs"]
mod tests;
