//! The server as a whole: what every task shares, how it starts on a runtime, and how it
//! stops, at once or by draining.
//!
//! A drain takes no one new and waits for the matches being played to end (or for the grace
//! period); then, as at a plain shutdown, the transport closes every connection with 1001 after
//! sending what was queued, so the last states of a finished match still arrive.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use jengine_kotoba::dict::Dict;
use jengine_kotoba::kana::TileStats;
use jengine_net::{Server, serve};
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{Notify, watch};
use tokio::time::{Instant, MissedTickBehavior};

use crate::config::Config;
use crate::lobby::Lobby;
use crate::metrics::{Counters, Metrics};
use crate::room::{Room, RoomRef};
use crate::{http, player};

/// What the supervisor has been asked to do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Control {
    Run,
    Drain,
    Stop,
}

/// What a rejoin ticket opens: its room (while the room lives) and seat.
type Ticketed = (Weak<Mutex<Room>>, usize);

/// What every task of one server shares.
pub(crate) struct Shared {
    pub config: Config,
    pub dict: &'static Dict,
    pub stats: TileStats,
    pub counters: Counters,
    lobby: Mutex<Lobby>,
    /// The stream each battle's seed is drawn from. Taken under a room's lock, and nothing
    /// is locked while it is held.
    seeds: Mutex<Pcg64>,
    control: watch::Sender<Control>,
    /// Set once the last connections are being closed.
    stopping: AtomicBool,
    /// Woken when a match ends, for a drain waiting for the last.
    match_ended: Notify,
    stopped: watch::Sender<bool>,
    server: Mutex<Option<Server>>,
    /// Rejoin tickets of the matches in play: the room and the seat each opens. A leaf lock:
    /// nothing else is locked while it is held.
    tickets: Mutex<HashMap<String, Ticketed>>,
    /// Numbers the connections, so a room knows which connection holds a seat.
    next_conn: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub fn lobby(&self) -> MutexGuard<'_, Lobby> {
        lock(&self.lobby)
    }

    /// A fresh number for a connection.
    pub fn next_conn(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// A ticket back into `seat` of `room`'s match: 128 bits from the system's random source
    /// (it is a secret; nothing in a battle depends on it, so replays are untouched).
    pub fn issue_ticket(&self, room: &RoomRef, seat: usize) -> String {
        use rand::Rng;
        let ticket = format!("{:032x}", rand::rng().random::<u128>());
        lock(&self.tickets).insert(ticket.clone(), (Arc::downgrade(room), seat));
        ticket
    }

    /// Forgets tickets (their match ended or was replaced).
    pub fn void_tickets(&self, tickets: &[String]) {
        let mut map = lock(&self.tickets);
        for t in tickets {
            map.remove(t);
        }
    }

    /// The room and seat a ticket opens, while its match is in play.
    pub fn redeem(&self, ticket: &str) -> Option<(RoomRef, usize)> {
        let (room, seat) = lock(&self.tickets).get(ticket).cloned()?;
        Some((room.upgrade()?, seat))
    }

    /// A battle's seed. It fits 63 bits: a frame's numbers are JSON's signed 64-bit ones, and
    /// the seed travels in `Start`.
    pub fn next_seed(&self) -> u64 {
        lock(&self.seeds).next_u64() >> 1
    }

    pub fn draining(&self) -> bool {
        *self.control.borrow() != Control::Run
    }

    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Admits a player if there is room and the server is not draining; the guard lets go.
    pub fn admit(self: &Arc<Self>) -> Option<Admitted> {
        if self.draining() {
            return None;
        }
        let before = self.counters.players.fetch_add(1, Ordering::SeqCst);
        let admitted = Admitted(Arc::clone(self));
        (before < self.config.max_players).then_some(admitted)
    }

    /// Counts a room opened, if the server may open one more.
    pub fn room_opened(&self) -> bool {
        let before = self.counters.rooms.fetch_add(1, Ordering::SeqCst);
        if before >= self.config.max_rooms {
            self.counters.rooms.fetch_sub(1, Ordering::SeqCst);
            return false;
        }
        true
    }

    pub fn room_closed(&self) {
        self.counters.rooms.fetch_sub(1, Ordering::SeqCst);
    }

    /// Counts a match started and gives its number.
    pub fn match_started(&self) -> u64 {
        self.counters.matches_running.fetch_add(1, Ordering::SeqCst);
        self.counters.matches_started.fetch_add(1, Ordering::SeqCst) + 1
    }

    pub fn match_finished(&self) {
        self.counters.matches_running.fetch_sub(1, Ordering::SeqCst);
        self.counters
            .matches_finished
            .fetch_add(1, Ordering::SeqCst);
        self.match_ended.notify_one();
    }

    pub fn removed(&self) {
        self.counters.removed.fetch_add(1, Ordering::Relaxed);
    }

    pub fn refused_busy(&self) {
        self.counters.refused_busy.fetch_add(1, Ordering::Relaxed);
    }

    pub fn metrics(&self) -> Metrics {
        let connections = lock(&self.server).as_ref().map_or(0, Server::connections);
        self.counters.snapshot(connections, self.draining())
    }

    pub async fn stopped(&self) {
        let mut stopped = self.stopped.subscribe();
        let _ = stopped.wait_for(|s| *s).await;
    }
}

/// A player admitted; counted until dropped.
pub(crate) struct Admitted(Arc<Shared>);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.counters.players.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A running server, to ask for its address and figures and to stop it. Clone it freely;
/// every clone speaks to the same server.
#[derive(Clone)]
pub struct Handle {
    shared: Arc<Shared>,
    addr: SocketAddr,
    metrics_addr: Option<SocketAddr>,
}

impl std::fmt::Debug for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handle")
            .field("addr", &self.addr)
            .field("metrics_addr", &self.metrics_addr)
            .field("draining", &self.draining())
            .finish_non_exhaustive()
    }
}

impl Handle {
    /// The address players connect to (useful after binding port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL players connect to: `ws://` and the address (any path is served).
    pub fn url(&self) -> String {
        format!("ws://{}/", self.addr)
    }

    /// The address of the health and metrics endpoints, if they are served.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// Finishes the matches being played and takes no new ones: newcomers, `Queue`, `Create`,
    /// `Join` and rematches are refused as `Busy`, and health answers 503. Once no match is
    /// left (or after the grace period) the server shuts down.
    pub fn drain(&self) {
        self.shared.control.send_if_modified(|c| {
            let run = *c == Control::Run;
            if run {
                *c = Control::Drain;
            }
            run
        });
    }

    /// Whether the server is draining (or shutting down).
    pub fn draining(&self) -> bool {
        self.shared.draining()
    }

    /// Shuts down now: stops accepting, closes every connection with 1001 after what was
    /// queued for it, and ends the matches. Returns at once; [`Handle::stopped`] waits.
    pub fn shutdown(&self) {
        self.shared.control.send_replace(Control::Stop);
    }

    /// The figures now.
    pub fn metrics(&self) -> Metrics {
        self.shared.metrics()
    }

    /// Resolves once the server has shut down (by [`Handle::shutdown`] or after a drain).
    pub async fn stopped(&self) {
        self.shared.stopped().await;
    }

    /// Whether the server has shut down.
    pub fn is_stopped(&self) -> bool {
        *self.shared.stopped.borrow()
    }
}

/// Starts a server on `listener` in the tokio runtime this is called from (it must have its
/// timers and I/O enabled), with the health and metrics endpoints on `config.metrics_bind`
/// if set. Returns once it accepts; it runs until shut down or drained.
pub fn start(listener: TcpListener, config: Config) -> io::Result<Handle> {
    if config.transport.codec.version != crate::PROTOCOL {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "the transport's codec speaks protocol {}; this server's frames are protocol {}",
                config.transport.codec.version,
                crate::PROTOCOL
            ),
        ));
    }
    let metrics_listener = match config.metrics_bind {
        Some(addr) => {
            let std = std::net::TcpListener::bind(addr)?;
            std.set_nonblocking(true)?;
            Some(TcpListener::from_std(std)?)
        }
        None => None,
    };
    let metrics_addr = metrics_listener
        .as_ref()
        .map(TcpListener::local_addr)
        .transpose()?;
    let mut stream = Pcg64::seed_from_u64(config.seed);
    let codes = Pcg64::seed_from_u64(stream.next_u64());
    let dict = Dict::japanese();
    let shared = Arc::new(Shared {
        stats: TileStats::from_dict(dict),
        dict,
        counters: Counters::default(),
        lobby: Mutex::new(Lobby::new(codes)),
        seeds: Mutex::new(stream),
        control: watch::channel(Control::Run).0,
        stopping: AtomicBool::new(false),
        match_ended: Notify::new(),
        stopped: watch::channel(false).0,
        server: Mutex::new(None),
        tickets: Mutex::new(HashMap::new()),
        next_conn: AtomicU64::new(1),
        config,
    });
    let server = serve(listener, shared.config.transport.clone(), {
        let shared = Arc::clone(&shared);
        move |conn| player::player(conn, Arc::clone(&shared))
    })?;
    let addr = server.local_addr();
    *lock(&shared.server) = Some(server);
    tokio::spawn(supervise(Arc::clone(&shared)));
    tokio::spawn(count_moves(Arc::clone(&shared)));
    if let Some(listener) = metrics_listener {
        tokio::spawn(http::serve(listener, Arc::clone(&shared)));
    }
    Ok(Handle {
        shared,
        addr,
        metrics_addr,
    })
}

/// Waits for a drain or a stop, then shuts the transport down and says so.
async fn supervise(shared: Arc<Shared>) {
    let mut control = shared.control.subscribe();
    let _ = control.wait_for(|c| *c != Control::Run).await;
    if *control.borrow() == Control::Drain {
        let deadline = Instant::now() + shared.config.grace;
        while shared.counters.matches_running.load(Ordering::SeqCst) > 0 {
            tokio::select! {
                _ = shared.match_ended.notified() => {}
                _ = tokio::time::sleep_until(deadline) => break,
                _ = control.wait_for(|c| *c == Control::Stop) => break,
            }
        }
    }
    shared.stopping.store(true, Ordering::SeqCst);
    let server = lock(&shared.server).take();
    if let Some(server) = server {
        let transport = &shared.config.transport;
        server
            .shutdown(transport.close_timeout + Duration::from_secs(1))
            .await;
    }
    shared.stopped.send_replace(true);
}

/// Once a second, the moves answered in that second.
async fn count_moves(shared: Arc<Shared>) {
    let mut second = tokio::time::interval(Duration::from_secs(1));
    second.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut last = (Instant::now(), 0u64);
    loop {
        tokio::select! {
            _ = second.tick() => {}
            _ = shared.stopped() => return,
        }
        let now = (
            Instant::now(),
            shared.counters.moves.load(Ordering::Relaxed),
        );
        let seconds = now.0.duration_since(last.0).as_secs_f64();
        if seconds > 0.0 {
            let rate = (now.1 - last.1) as f64 / seconds;
            shared
                .counters
                .moves_per_second
                .store(rate.to_bits(), Ordering::Relaxed);
        }
        last = now;
    }
}

/// A listening socket for players, with the configured send buffer (inherited by every
/// accepted socket). Must be called in a runtime.
pub fn bind(config: &Config) -> io::Result<TcpListener> {
    let socket = if config.bind.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    if let Some(size) = config.send_buffer {
        socket.set_send_buffer_size(size)?;
    }
    socket.bind(config.bind)?;
    socket.listen(4096)
}

fn runtime(config: &Config) -> io::Result<tokio::runtime::Runtime> {
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if config.workers > 0 {
        builder.worker_threads(config.workers);
    }
    builder.enable_all().thread_name("kotodama-server").build()
}

/// Starts a server on a runtime of its own, on a thread of its own, bound to `config.bind`
/// (and `config.metrics_bind`). Returns once it accepts; the thread ends when the server has
/// stopped. For tests and tools that want a server in-process.
pub fn spawn(config: Config) -> io::Result<(Handle, std::thread::JoinHandle<()>)> {
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("kotodama-server".into())
        .spawn(move || {
            let rt = match runtime(&config) {
                Ok(rt) => rt,
                Err(e) => return drop(tx.send(Err(e))),
            };
            rt.block_on(async move {
                match bind(&config).and_then(|l| start(l, config)) {
                    Ok(handle) => {
                        let _ = tx.send(Ok(handle.clone()));
                        handle.stopped().await;
                    }
                    Err(e) => drop(tx.send(Err(e))),
                }
            });
        })?;
    let handle = rx
        .recv()
        .map_err(|_| io::Error::other("the server thread ended before it started"))??;
    Ok((handle, thread))
}

/// Runs a server until it stops, for the binary: binds `config.bind`, drains on SIGTERM or
/// SIGINT (a second one shuts down at once), and returns once stopped.
pub fn run(config: Config) -> io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let rt = runtime(&config)?;
    rt.block_on(async move {
        let mut term = signal(SignalKind::terminate())?;
        let mut interrupt = signal(SignalKind::interrupt())?;
        let listener = bind(&config)?;
        let handle = start(listener, config)?;
        eprintln!(
            "event=listening players=ws://{} metrics={}",
            handle.local_addr(),
            handle
                .metrics_addr()
                .map_or("-".to_string(), |a| format!("http://{a}/metrics")),
        );
        loop {
            tokio::select! {
                _ = handle.stopped() => break,
                _ = term.recv() => {}
                _ = interrupt.recv() => {}
            }
            if handle.draining() {
                eprintln!("event=shutdown");
                handle.shutdown();
            } else {
                eprintln!(
                    "event=draining matches={}",
                    handle.metrics().matches_running
                );
                handle.drain();
            }
        }
        eprintln!("event=stopped");
        Ok(())
    })
}
