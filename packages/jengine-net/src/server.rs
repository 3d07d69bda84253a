//! The server side: an acceptor on tokio that turns each socket into a [`Connection`] of typed
//! frames, and keeps the limits so the code above it (a room) never has to.
//!
//! Each connection has one driver task with a reader and a writer. The reader enforces the idle
//! timeout, the rate limit, the frame size limit and decoding; the writer drains a bounded queue
//! and pings. Whoever finds a reason to close records it first-wins in the link they share, and
//! the other follows: the writer sends the close frame, the reader waits for the peer's half.

use std::future::Future;
use std::io;
use std::marker::PhantomData;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior, timeout, timeout_at};
use tokio_tungstenite::WebSocketStream;
use tungstenite::Message;
use tungstenite::protocol::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;

use crate::client::SendError;
use crate::close::CloseReason;
use crate::frame::Codec;
use crate::limit::{RateLimit, TokenBucket};
use crate::ping::RoundTrip;
use crate::ws_config;

/// How the server treats each connection. `ServerConfig::default()` gives the values in the
/// field docs.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerConfig {
    /// The protocol version and frame size limit (version 1, 64 KiB). A bigger frame is closed
    /// with 1009 as soon as its header arrives.
    pub codec: Codec,
    /// Time from the TCP accept to a finished WebSocket handshake (5 s); a socket that takes
    /// longer is dropped before the handler sees it.
    pub handshake_timeout: Duration,
    /// Silence from the client (no frame, no pong) after which the connection is closed with
    /// 4000 (30 s).
    pub idle_timeout: Duration,
    /// How often the server pings (5 s): keeps the client's pongs coming and measures the
    /// round trip.
    pub ping_interval: Duration,
    /// How long to wait for the client's half of a close (1 s).
    pub close_timeout: Duration,
    /// Frames a client may send, pings and pongs included: 200 a second, bursts of 200. Past it
    /// the connection is closed with 1008.
    pub rate: RateLimit,
    /// Frames that may wait to go out to one client (256). A send that finds the queue full
    /// drops the connection (4001): its client is not reading.
    pub send_queue: usize,
    /// Decoded frames that may wait for the handler (64); past it the reader waits, and TCP
    /// slows the client down.
    pub receive_queue: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            codec: Codec::default(),
            handshake_timeout: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(30),
            ping_interval: Duration::from_secs(5),
            close_timeout: Duration::from_secs(1),
            rate: RateLimit::new(200, 200),
            send_queue: 256,
            receive_queue: 64,
        }
    }
}

/// Why a socket did not become a connection.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum AcceptError {
    /// The WebSocket handshake did not finish in time.
    #[error("no WebSocket handshake within {} ms", after.as_millis())]
    Timeout {
        /// The handshake timeout.
        after: Duration,
    },
    /// The handshake failed (not a WebSocket request, a broken one, a closed socket).
    #[error("WebSocket handshake failed: {0}")]
    Handshake(String),
    /// The socket could not be used.
    #[error("socket error: {0}")]
    Io(#[from] io::Error),
}

/// One client: typed frames in and out, with every limit kept by the task behind it.
///
/// `Out` is what the server sends, `In` what it receives. Dropping the connection closes it
/// (1000, "closed by the server"); its [`Sender`]s then refuse.
pub struct Connection<Out, In> {
    incoming: mpsc::Receiver<In>,
    sender: Sender<Out>,
}

/// A handle that queues frames to one connection, for code that sends from elsewhere (a room's
/// tick). Clone it freely.
pub struct Sender<Out> {
    out: mpsc::Sender<Vec<u8>>,
    link: Arc<Link>,
    codec: Codec,
    capacity: usize,
    _out: PhantomData<fn(&Out)>,
}

impl<Out> Clone for Sender<Out> {
    fn clone(&self) -> Self {
        Sender {
            out: self.out.clone(),
            link: Arc::clone(&self.link),
            codec: self.codec,
            capacity: self.capacity,
            _out: PhantomData,
        }
    }
}

impl<Out, In> std::fmt::Debug for Connection<Out, In> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("peer", &self.sender.link.peer)
            .field("closed", &self.sender.link.reason())
            .finish_non_exhaustive()
    }
}

impl<Out: Serialize, In: DeserializeOwned + Send + 'static> Connection<Out, In> {
    /// Makes a connection of a socket: the WebSocket handshake within the timeout, then a task
    /// that keeps the limits. Must be called inside a tokio runtime.
    pub async fn accept(stream: TcpStream, config: &ServerConfig) -> Result<Self, AcceptError> {
        Connection::accept_with(stream, config, None).await
    }

    async fn accept_with(
        stream: TcpStream,
        config: &ServerConfig,
        going_away: Option<watch::Receiver<bool>>,
    ) -> Result<Self, AcceptError> {
        let peer = stream.peer_addr()?;
        stream.set_nodelay(true)?;
        let handshake = tokio_tungstenite::accept_async_with_config(
            stream,
            Some(ws_config(config.codec.max_frame)),
        );
        let ws = timeout(config.handshake_timeout, handshake)
            .await
            .map_err(|_| AcceptError::Timeout {
                after: config.handshake_timeout,
            })?
            .map_err(|e| AcceptError::Handshake(e.to_string()))?;
        let (closing, _) = watch::channel(false);
        let link = Arc::new(Link {
            peer,
            reason: Mutex::new(None),
            closing,
            rtt: RoundTrip::new(Instant::now().into_std()),
        });
        let (in_tx, incoming) = mpsc::channel(config.receive_queue.max(1));
        let (out, out_rx) = mpsc::channel(config.send_queue.max(1));
        tokio::spawn(drive(
            ws,
            Arc::clone(&link),
            config.clone(),
            in_tx,
            out_rx,
            going_away,
        ));
        Ok(Connection {
            incoming,
            sender: Sender {
                out,
                link,
                codec: config.codec,
                capacity: config.send_queue.max(1),
                _out: PhantomData,
            },
        })
    }

    /// The next frame from the client, or why the connection ended. Frames that arrived before
    /// the end are all delivered first.
    pub async fn recv(&mut self) -> Result<In, CloseReason> {
        match self.incoming.recv().await {
            Some(frame) => Ok(frame),
            None => Err(self.sender.link.final_reason()),
        }
    }

    /// A frame if one is waiting, `None` if not, or why the connection ended. For a room that
    /// reads its players on a fixed tick.
    pub fn try_recv(&mut self) -> Result<Option<In>, CloseReason> {
        match self.incoming.try_recv() {
            Ok(frame) => Ok(Some(frame)),
            Err(mpsc::error::TryRecvError::Empty) => Ok(None),
            Err(mpsc::error::TryRecvError::Disconnected) => Err(self.sender.link.final_reason()),
        }
    }
}

impl<Out, In> Connection<Out, In> {
    /// Queues a frame for the client. See [`Sender::send`].
    pub fn send(&self, payload: &Out) -> Result<(), SendError>
    where
        Out: Serialize,
    {
        self.sender.send(payload)
    }

    /// A handle that sends to this connection from elsewhere.
    pub fn sender(&self) -> Sender<Out> {
        self.sender.clone()
    }

    /// Closes the connection with code 1000 and these words.
    pub fn close(&self, why: &str) {
        self.sender.close(why);
    }

    /// Closes the connection for this reason. See [`Sender::close_with`].
    pub fn close_with(&self, reason: CloseReason) {
        self.sender.close_with(reason);
    }

    /// The client's address.
    pub fn peer(&self) -> SocketAddr {
        self.sender.link.peer
    }

    /// The smoothed round trip, once a ping has come back.
    pub fn round_trip(&self) -> Option<Duration> {
        self.sender.link.rtt.get()
    }
}

impl<Out, In> Drop for Connection<Out, In> {
    fn drop(&mut self) {
        self.sender
            .link
            .close(CloseReason::Normal("closed by the server".into()));
    }
}

impl<Out> Sender<Out> {
    /// Queues a frame. A full queue means the client has stopped reading: the connection is
    /// dropped (4001) and the send refused.
    pub fn send(&self, payload: &Out) -> Result<(), SendError>
    where
        Out: Serialize,
    {
        if self.link.reason().is_some() {
            return Err(SendError::Closed);
        }
        let frame = self.codec.encode(payload)?;
        match self.out.try_send(frame) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.link.close(CloseReason::SlowReader {
                    queued: self.capacity,
                });
                Err(SendError::QueueFull {
                    capacity: self.capacity,
                })
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Err(SendError::Closed),
        }
    }

    /// Closes the connection with code 1000 and these words.
    pub fn close(&self, why: &str) {
        self.link.close(CloseReason::Normal(why.to_string()));
    }

    /// Closes the connection for this reason: its code and words go in the close frame, for a
    /// frame the transport took but the code above it cannot use (a [`CloseReason::Garbage`]
    /// for a message of the wrong shape, say). As with the transport's own closes, frames still
    /// queued go out first only for `Normal` and `GoingAway`. The first reason recorded wins.
    pub fn close_with(&self, reason: CloseReason) {
        self.link.close(reason);
    }

    /// Why the connection closed, once it has begun to.
    pub fn closed(&self) -> Option<CloseReason> {
        self.link.reason()
    }

    /// The client's address.
    pub fn peer(&self) -> SocketAddr {
        self.link.peer
    }
}

/// What a connection's handles and its task share.
#[derive(Debug)]
struct Link {
    peer: SocketAddr,
    reason: Mutex<Option<CloseReason>>,
    closing: watch::Sender<bool>,
    rtt: RoundTrip<std::time::Instant>,
}

impl Link {
    /// Records why the connection closes, if no reason was recorded before, and wakes the task.
    fn close(&self, reason: CloseReason) {
        let mut slot = self.reason.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(reason);
            self.closing.send_replace(true);
        }
    }

    fn reason(&self) -> Option<CloseReason> {
        self.reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn final_reason(&self) -> CloseReason {
        self.reason()
            .unwrap_or_else(|| CloseReason::Lost("the connection ended".into()))
    }
}

/// Resolves once `flag` is true. A dropped sender counts as never.
async fn raised(flag: &mut watch::Receiver<bool>) {
    if flag.wait_for(|up| *up).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// How the reader stopped, which decides how the socket is let go.
enum Ending {
    /// The close handshake finished, or the peer is gone: drop the socket.
    Done,
    /// A close frame went out but the peer's half did not come (or the stream could not be
    /// read past an error): say goodbye at the TCP level and read what is left, briefly, so the
    /// peer sees the close frame rather than a reset.
    Linger,
}

type Ws = WebSocketStream<TcpStream>;

async fn drive<In: DeserializeOwned>(
    ws: Ws,
    link: Arc<Link>,
    config: ServerConfig,
    in_tx: mpsc::Sender<In>,
    out_rx: mpsc::Receiver<Vec<u8>>,
    going_away: Option<watch::Receiver<bool>>,
) {
    let (sink, stream) = ws.split();
    let ((stream, ending), sink) = tokio::join!(
        read(stream, &link, &config, in_tx, going_away),
        write(sink, &link, &config, out_rx),
    );
    if let (Ending::Linger, Ok(mut ws)) = (ending, stream.reunite(sink)) {
        let tcp = ws.get_mut();
        let _ = timeout(config.close_timeout, async {
            let _ = tcp.shutdown().await;
            let mut scrap = [0u8; 4096];
            while let Ok(1..) = tcp.read(&mut scrap).await {}
        })
        .await;
    }
}

async fn read<In: DeserializeOwned>(
    mut stream: SplitStream<Ws>,
    link: &Link,
    config: &ServerConfig,
    in_tx: mpsc::Sender<In>,
    going_away: Option<watch::Receiver<bool>>,
) -> (SplitStream<Ws>, Ending) {
    let mut closing_flag = link.closing.subscribe();
    let mut going_away = going_away.unwrap_or_else(|| watch::channel(false).1);
    let mut bucket = TokenBucket::new(config.rate, Instant::now().into_std());
    let mut deadline = Instant::now() + config.idle_timeout;
    let mut closing = false;
    loop {
        let next = tokio::select! {
            biased;
            _ = raised(&mut closing_flag), if !closing => {
                closing = true;
                match link.reason() {
                    Some(CloseReason::SlowReader { .. } | CloseReason::Lost(_)) => {
                        return (stream, Ending::Done);
                    }
                    _ => deadline = Instant::now() + config.close_timeout,
                }
                continue;
            }
            _ = raised(&mut going_away), if !closing => {
                link.close(CloseReason::GoingAway);
                continue;
            }
            next = timeout_at(deadline, stream.next()) => next,
        };
        let now = Instant::now();
        let message = match next {
            Err(_) if closing => return (stream, Ending::Linger),
            Err(_) => {
                link.close(CloseReason::Idle {
                    after: config.idle_timeout,
                });
                continue;
            }
            Ok(None) => {
                link.close(CloseReason::Lost("the client closed the connection".into()));
                return (stream, Ending::Done);
            }
            Ok(Some(Err(e))) => {
                let reason = read_error(e);
                let sent = reason.is_sent();
                link.close(reason);
                let ending = if sent || closing {
                    Ending::Linger
                } else {
                    Ending::Done
                };
                return (stream, ending);
            }
            Ok(Some(Ok(message))) => message,
        };
        if closing {
            // Past a close only the peer's half matters; tungstenite answers it by itself.
            continue;
        }
        if !bucket.take(now.into_std()) {
            link.close(CloseReason::Flood {
                per_second: config.rate.per_second,
                burst: config.rate.burst,
            });
            continue;
        }
        deadline = now + config.idle_timeout;
        match message {
            Message::Binary(bytes) => match config.codec.decode::<In>(&bytes) {
                Ok(frame) => {
                    tokio::select! {
                        biased;
                        _ = raised(&mut closing_flag) => {}
                        sent = in_tx.send(frame) => {
                            if sent.is_err() {
                                link.close(CloseReason::Normal("closed by the server".into()));
                            }
                        }
                    }
                }
                Err(e) => link.close(CloseReason::for_frame(e, true)),
            },
            Message::Text(_) => link.close(CloseReason::Text),
            Message::Pong(payload) => {
                link.rtt.pong(&payload, now.into_std());
            }
            Message::Close(frame) => {
                let (code, why) = frame.map_or((1005, String::new()), |f| {
                    (u16::from(f.code), f.reason.to_string())
                });
                link.close(CloseReason::Peer { code, why });
            }
            Message::Ping(_) | Message::Frame(_) => {}
        }
    }
}

fn read_error(e: tungstenite::Error) -> CloseReason {
    use tungstenite::error::{CapacityError, ProtocolError};
    match e {
        tungstenite::Error::Capacity(CapacityError::MessageTooLong { size, max_size }) => {
            CloseReason::TooLarge {
                size,
                limit: max_size,
            }
        }
        tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => {
            CloseReason::Lost("the client went away without a close frame".into())
        }
        tungstenite::Error::Io(e) => CloseReason::Lost(e.to_string()),
        tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed => {
            CloseReason::Lost("the client closed the connection".into())
        }
        other => CloseReason::BadWebSocket(other.to_string()),
    }
}

async fn write(
    mut sink: SplitSink<Ws, Message>,
    link: &Link,
    config: &ServerConfig,
    mut out_rx: mpsc::Receiver<Vec<u8>>,
) -> SplitSink<Ws, Message> {
    let mut closing_flag = link.closing.subscribe();
    let mut ping =
        tokio::time::interval_at(Instant::now() + config.ping_interval, config.ping_interval);
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        let message = tokio::select! {
            biased;
            _ = raised(&mut closing_flag) => break,
            frame = out_rx.recv() => match frame {
                Some(frame) => Message::Binary(frame.into()),
                // Every handle is gone: Connection's drop has recorded the reason already.
                None => continue,
            },
            _ = ping.tick() => Message::Ping(link.rtt.ping(Instant::now().into_std()).into()),
        };
        // Frames queued together (a state and the events after it) go out in one write.
        let batch = async {
            sink.feed(message).await?;
            while let Ok(frame) = out_rx.try_recv() {
                sink.feed(Message::Binary(frame.into())).await?;
            }
            sink.flush().await
        };
        let sent = tokio::select! {
            biased;
            _ = raised(&mut closing_flag) => break,
            sent = batch => sent,
        };
        if let Err(e) = sent {
            link.close(CloseReason::Lost(format!("cannot write: {e}")));
            break;
        }
    }
    let reason = link.reason();
    if let Some(CloseReason::Normal(_) | CloseReason::GoingAway) = reason {
        // A close the server chose: what it queued before closing still goes, ahead of the
        // close frame. Any other reason is the client's fault or the link's end.
        let _ = timeout(config.close_timeout, async {
            while let Ok(frame) = out_rx.try_recv() {
                sink.feed(Message::Binary(frame.into())).await?;
            }
            sink.flush().await
        })
        .await;
    }
    if let Some(reason) = reason.filter(CloseReason::is_sent) {
        let frame = CloseFrame {
            code: CloseCode::from(reason.code()),
            reason: reason.wire_text().into(),
        };
        let _ = timeout(config.close_timeout, sink.send(Message::Close(Some(frame)))).await;
    }
    sink
}

/// A running acceptor. Dropping it stops accepting and tells every connection the server is
/// going away; [`Server::shutdown`] does the same and waits for the handlers to finish.
pub struct Server {
    addr: SocketAddr,
    accept: Option<JoinHandle<()>>,
    going_away: watch::Sender<bool>,
    live: Arc<Live>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("addr", &self.addr)
            .field("connections", &self.connections())
            .finish()
    }
}

/// Counts handler tasks, and wakes a shutdown when the count reaches zero.
#[derive(Debug, Default)]
struct Live {
    count: AtomicUsize,
    none: Notify,
}

struct LiveGuard(Arc<Live>);

impl Live {
    fn enter(self: &Arc<Self>) -> LiveGuard {
        self.count.fetch_add(1, Ordering::SeqCst);
        LiveGuard(Arc::clone(self))
    }
}

impl Drop for LiveGuard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.none.notify_waiters();
        }
    }
}

/// Accepts connections on `listener` and runs `handler` on each in a task of its own, until the
/// returned [`Server`] is shut down or dropped. Must be called inside a tokio runtime.
///
/// A socket whose handshake fails or times out is dropped without reaching the handler.
pub fn serve<Out, In, H, F>(
    listener: TcpListener,
    config: ServerConfig,
    handler: H,
) -> io::Result<Server>
where
    Out: Serialize + 'static,
    In: DeserializeOwned + Send + 'static,
    H: Fn(Connection<Out, In>) -> F + Send + Sync + 'static,
    F: Future<Output = ()> + Send + 'static,
{
    let addr = listener.local_addr()?;
    let (going_away, _) = watch::channel(false);
    let live = Arc::new(Live::default());
    let handler = Arc::new(handler);
    let accept = tokio::spawn({
        let going_away = going_away.subscribe();
        let live = Arc::clone(&live);
        async move {
            loop {
                let stream = match listener.accept().await {
                    Ok((stream, _)) => stream,
                    Err(_) => {
                        // Out of descriptors or a connection reset before accept: breathe, go on.
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                };
                let guard = live.enter();
                let config = config.clone();
                let handler = Arc::clone(&handler);
                let going_away = going_away.clone();
                tokio::spawn(async move {
                    let _guard = guard;
                    if let Ok(conn) =
                        Connection::accept_with(stream, &config, Some(going_away)).await
                    {
                        handler(conn).await;
                    }
                });
            }
        }
    });
    Ok(Server {
        addr,
        accept: Some(accept),
        going_away,
        live,
    })
}

impl Server {
    /// The address it listens on (useful after binding port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Connections whose handler is still running (handshakes in progress included).
    pub fn connections(&self) -> usize {
        self.live.count.load(Ordering::SeqCst)
    }

    /// Stops accepting (the port is free when this returns), closes every connection with 1001
    /// "the server is shutting down", and waits up to `grace` for the handlers to finish.
    /// Returns how many were still running.
    pub async fn shutdown(mut self, grace: Duration) -> usize {
        if let Some(accept) = self.accept.take() {
            accept.abort();
            let _ = accept.await;
        }
        self.going_away.send_replace(true);
        let live = Arc::clone(&self.live);
        let _ = timeout(grace, async {
            loop {
                let none = live.none.notified();
                tokio::pin!(none);
                none.as_mut().enable();
                if live.count.load(Ordering::SeqCst) == 0 {
                    return;
                }
                none.await;
            }
        })
        .await;
        self.connections()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(accept) = self.accept.take() {
            accept.abort();
        }
        self.going_away.send_replace(true);
    }
}
