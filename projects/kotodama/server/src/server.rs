//! The server as a whole: how its parts are put together, how it starts on a runtime, and how
//! it stops, at once or by draining. Each part takes only what it needs: rooms the [`Hall`],
//! players their lobby beside it, the endpoints the server's life and figures.
//!
//! A drain takes no one new and waits for the matches being played to end (or for the grace
//! period); then, as at a plain shutdown, the transport closes every connection with 1001 after
//! sending what was queued, so the last states of a finished match still arrive.

use std::io;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use jengine_net::{Server, serve};
use rand::{RngCore, SeedableRng};
use rand_pcg::Pcg64;
use tokio::net::{TcpListener, TcpSocket};
use tokio::time::{Instant, MissedTickBehavior};

use crate::config::Config;
use crate::fleet::Fleet;
use crate::http::{self, Endpoints};
use crate::life::{Control, Life};
use crate::lobby::{self, Lobby};
use crate::metrics::Metrics;
use crate::player::{self, Players};
use crate::room::Hall;

/// The transport's server, once it accepts; taken when it shuts down.
type Transport = Arc<Mutex<Option<Server>>>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The figures now: the counters, the transport's connections, and whether it drains.
fn metrics(hall: &Hall, transport: &Transport, fleet: Option<&Fleet>) -> Metrics {
    let connections = lock(transport).as_ref().map_or(0, Server::connections);
    let mut m = hall.counters.snapshot(connections, hall.draining());
    m.fleet = fleet.map(Fleet::figures);
    m
}

/// A running server, to ask for its address and figures and to stop it. Clone it freely;
/// every clone speaks to the same server.
#[derive(Clone)]
pub struct Handle {
    hall: Arc<Hall>,
    fleet: Option<Arc<Fleet>>,
    transport: Transport,
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

    /// This process's id in its fleet (16 hex digits), if it is one of a fleet.
    pub fn fleet_id(&self) -> Option<&str> {
        self.fleet.as_ref().map(|f| f.id.as_str())
    }

    /// Whether the fleet's shared lobby answered the last time it was asked (`false` for a
    /// server alone).
    pub fn lobby_up(&self) -> bool {
        self.fleet.as_ref().is_some_and(|f| f.up())
    }

    /// The address of the health and metrics endpoints, if they are served.
    pub fn metrics_addr(&self) -> Option<SocketAddr> {
        self.metrics_addr
    }

    /// Finishes the matches being played and takes no new ones: newcomers, `Queue`, `Create`,
    /// `Join` and rematches are refused as `Busy`, and health answers 503. Once no match is
    /// left (or after the grace period) the server shuts down.
    pub fn drain(&self) {
        self.hall.life.drain();
    }

    /// Whether the server is draining (or shutting down).
    pub fn draining(&self) -> bool {
        self.hall.draining()
    }

    /// Shuts down now: stops accepting, closes every connection with 1001 after what was
    /// queued for it, and ends the matches. Returns at once; [`Handle::stopped`] waits.
    pub fn shutdown(&self) {
        self.hall.life.shutdown();
    }

    /// The figures now.
    pub fn metrics(&self) -> Metrics {
        metrics(&self.hall, &self.transport, self.fleet.as_deref())
    }

    /// Resolves once the server has shut down (by [`Handle::shutdown`] or after a drain).
    pub async fn stopped(&self) {
        self.hall.life.stopped().await;
    }

    /// Whether the server has shut down.
    pub fn is_stopped(&self) -> bool {
        self.hall.life.is_stopped()
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
    let transport_config = config.transport.clone();
    let fleet = match &config.fleet {
        Some(fleet) => {
            Some(Arc::new(Fleet::new(fleet.clone()).map_err(|e| {
                io::Error::new(io::ErrorKind::InvalidInput, e)
            })?))
        }
        None => None,
    };
    let prefix = fleet.as_ref().map_or(String::new(), |f| f.id.clone());
    let hall = Arc::new(Hall::new(config, stream, Arc::new(Life::new()), prefix));
    let players = Arc::new(Players::new(
        Arc::clone(&hall),
        Lobby::new(codes),
        fleet.clone(),
    ));
    if let Some(fleet) = &fleet {
        let waiting = Arc::clone(&players);
        tokio::spawn(crate::fleet::heartbeat(
            Arc::clone(fleet),
            Arc::clone(&hall),
            move || lobby::waiting_codes(&waiting.lobby),
        ));
        tokio::spawn(crate::fleet::inbox(Arc::clone(fleet), Arc::clone(&hall)));
    }
    let server = serve(listener, transport_config, move |conn| {
        player::player(conn, Arc::clone(&players))
    })?;
    let addr = server.local_addr();
    let transport: Transport = Arc::new(Mutex::new(Some(server)));
    tokio::spawn(supervise(Arc::clone(&hall), Arc::clone(&transport)));
    tokio::spawn(count_moves(Arc::clone(&hall)));
    if let Some(listener) = metrics_listener {
        let ends = Endpoints {
            life: Arc::clone(&hall.life),
            max_players: hall.config.max_players,
            metrics: Box::new({
                let (hall, transport) = (Arc::clone(&hall), Arc::clone(&transport));
                let fleet = fleet.clone();
                move || metrics(&hall, &transport, fleet.as_deref())
            }),
        };
        tokio::spawn(http::serve(listener, Arc::new(ends)));
    }
    Ok(Handle {
        hall,
        fleet,
        transport,
        addr,
        metrics_addr,
    })
}

/// Waits for a drain or a stop, then shuts the transport down and says so.
async fn supervise(hall: Arc<Hall>, transport: Transport) {
    let life = &hall.life;
    let mut control = life.control();
    let _ = control.wait_for(|c| *c != Control::Run).await;
    if *control.borrow() == Control::Drain {
        let deadline = Instant::now() + hall.config.grace;
        while hall.counters.matches_running.load(Ordering::SeqCst) > 0 {
            tokio::select! {
                _ = life.a_match_ended() => {}
                _ = tokio::time::sleep_until(deadline) => break,
                _ = control.wait_for(|c| *c == Control::Stop) => break,
            }
        }
    }
    life.set_stopping();
    let server = lock(&transport).take();
    if let Some(server) = server {
        let close = &hall.config.transport;
        server
            .shutdown(close.close_timeout + Duration::from_secs(1))
            .await;
    }
    life.set_stopped();
}

/// Once a second, the moves answered in that second.
async fn count_moves(hall: Arc<Hall>) {
    let mut second = tokio::time::interval(Duration::from_secs(1));
    second.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut last = (Instant::now(), 0u64);
    loop {
        tokio::select! {
            _ = second.tick() => {}
            _ = hall.life.stopped() => return,
        }
        let now = (Instant::now(), hall.counters.moves.load(Ordering::Relaxed));
        let seconds = now.0.duration_since(last.0).as_secs_f64();
        if seconds > 0.0 {
            let rate = (now.1 - last.1) as f64 / seconds;
            hall.counters
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
            "event=listening players=ws://{} metrics={} fleet={}",
            handle.local_addr(),
            handle
                .metrics_addr()
                .map_or("-".to_string(), |a| format!("http://{a}/metrics")),
            handle.fleet_id().unwrap_or("-"),
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
