//! The native transport: the connection logic on a thread of its own, over sync tungstenite
//! on a non-blocking socket. The game's calls only touch the shared queues and wake the thread.

use std::io::{self, ErrorKind};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use tungstenite::protocol::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{HandshakeError, Message, WebSocket};

use super::life::{Life, Next, Opening, Refused, Seen, Wire};
use super::{ClientConfig, ConnectError, Shared, Target};
use crate::close::CloseReason;
use crate::ws_config;

/// The client's thread, and the epoch its clock counts from.
pub(super) struct Driver {
    thread: Thread,
    epoch: Instant,
}

impl Driver {
    /// Starts the thread that runs the connection's life.
    pub(super) fn start<In: DeserializeOwned + Send + 'static>(
        target: Target,
        config: ClientConfig,
        shared: Arc<Shared<In>>,
    ) -> Result<Driver, ConnectError> {
        let epoch = Instant::now();
        let thread = thread::Builder::new()
            .name("jengine-net client".into())
            .spawn(move || {
                let mut life = Life::new(Socket::default(), target, config);
                while let Next::Nap(nap) = life.step(epoch.elapsed(), &shared) {
                    thread::park_timeout(nap);
                }
            })
            .map_err(|e| ConnectError::Config(format!("cannot start the client thread: {e}")))?
            .thread()
            .clone();
        Ok(Driver { thread, epoch })
    }

    /// The time on the client's clock.
    pub(super) fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    /// Something changed for the thread (a frame queued, a close asked): wake it.
    pub(super) fn turn<In>(&mut self, _shared: &Shared<In>) {
        self.thread.unpark();
    }

    /// The client is dropped: the thread finishes the close on its own.
    pub(super) fn let_go<In>(&mut self, _shared: &Shared<In>) {
        self.thread.unpark();
    }
}

/// A tungstenite WebSocket on a TCP stream, while a connection is open.
#[derive(Default)]
struct Socket {
    ws: Option<WebSocket<TcpStream>>,
}

impl Wire for Socket {
    fn open(&mut self, target: &Target, config: &ClientConfig) -> Result<Opening, String> {
        self.ws = Some(open(target, config)?);
        Ok(Opening::Open)
    }

    fn next(&mut self) -> Option<Seen> {
        let ws = self.ws.as_mut()?;
        loop {
            return match ws.read() {
                Ok(Message::Binary(bytes)) => Some(Seen::Frame(bytes.into())),
                Ok(Message::Text(_)) => Some(Seen::Text),
                Ok(Message::Pong(payload)) => Some(Seen::Pong(payload.into())),
                Ok(Message::Close(frame)) => {
                    let (code, why) = frame.map_or((1005, String::new()), |f| {
                        (u16::from(f.code), f.reason.to_string())
                    });
                    Some(Seen::Close { code, why })
                }
                // tungstenite answers pings itself.
                Ok(Message::Ping(_) | Message::Frame(_)) => continue,
                Err(tungstenite::Error::Io(e)) if e.kind() == ErrorKind::WouldBlock => None,
                Err(e) => Some(Seen::Ended(ended(e))),
            };
        }
    }

    fn send(&mut self, frame: Vec<u8>) -> Result<(), Refused> {
        let Some(ws) = self.ws.as_mut() else {
            return Err(Refused::Full(frame));
        };
        match ws.write(Message::Binary(frame.into())) {
            Ok(()) => Ok(()),
            Err(tungstenite::Error::WriteBufferFull(message)) => {
                Err(Refused::Full(message.into_data().into()))
            }
            Err(e) => into_blocked(e).map_err(Refused::Gone),
        }
    }

    fn pings(&self) -> bool {
        true
    }

    fn ping(&mut self, payload: Vec<u8>) -> Result<(), CloseReason> {
        let Some(ws) = self.ws.as_mut() else {
            return Ok(());
        };
        match ws.write(Message::Ping(payload.into())) {
            // No room while the server is not reading: this ping is skipped.
            Ok(()) | Err(tungstenite::Error::WriteBufferFull(_)) => Ok(()),
            Err(e) => into_blocked(e),
        }
    }

    fn flush(&mut self) -> Result<(), CloseReason> {
        match self.ws.as_mut().map(|ws| ws.flush()) {
            None | Some(Ok(())) => Ok(()),
            Some(Err(e)) => into_blocked(e),
        }
    }

    fn close(&mut self, reason: &CloseReason) {
        if let Some(ws) = self.ws.as_mut() {
            let frame = CloseFrame {
                code: CloseCode::from(reason.code()),
                reason: reason.wire_text().into(),
            };
            let _ = ws.close(Some(frame));
        }
    }

    fn drop_connection(&mut self) {
        self.ws = None;
    }
}

/// Why the connection ended, given the error reading it gave.
fn ended(e: tungstenite::Error) -> CloseReason {
    use tungstenite::error::{CapacityError, ProtocolError};
    match e {
        tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed => {
            CloseReason::Lost("the server closed the connection".into())
        }
        tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => {
            CloseReason::Lost("the server went away without a close frame".into())
        }
        tungstenite::Error::Io(e) => CloseReason::Lost(e.to_string()),
        // Seen from the frame's header: the payload is never read.
        tungstenite::Error::Capacity(CapacityError::MessageTooLong { size, max_size }) => {
            CloseReason::TooLarge {
                size,
                limit: max_size,
            }
        }
        other => CloseReason::BadWebSocket(other.to_string()),
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

/// A write that would block is not an error: the bytes wait in the WebSocket's buffer.
fn into_blocked(e: tungstenite::Error) -> Result<(), CloseReason> {
    match e {
        tungstenite::Error::Io(e) if e.kind() == ErrorKind::WouldBlock => Ok(()),
        other => Err(CloseReason::Lost(format!("cannot write: {other}"))),
    }
}
