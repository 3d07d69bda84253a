//! `kotodama-load`: many players from one process, playing real battles through the real
//! protocol, and what the room server's answers cost them.
//!
//! Each simulated player is a task on one tokio runtime with its own WebSocket (no thread
//! each), so one process holds thousands. A player says `Hello`, queues, and once matched
//! plays at its rate: a legal placement from its hand when the board offers one (the bot's
//! `legal_moves`), now and then a tile on any free cell beside a kana (which the room may
//! refuse), a swap when nothing fits. After a battle both ask for another; a player left alone
//! queues again.
//!
//! Move-to-ack latency is measured per move, from sending `Play` number n to the first `State`
//! whose `acked` is n or more; match-making time from sending `Queue` to the `Start` that
//! answers it, a redirect to another process of a fleet followed on the way (the player
//! connects where it is sent and claims its seat, as a game does). Several `--url`s spread the
//! players over the processes of a fleet, player i on the i-th mod their number.

use std::collections::{BTreeMap, VecDeque};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use jengine_kotoba::battle::{Move, Phase};
use jengine_kotoba::board::{Board, Pos};
use jengine_kotoba::bot::legal_moves;
use jengine_kotoba::dict::Dict;
use jengine_kotoba::kana::TileStats;
use jengine_kotoba::net::{Received, State, ToClient, ToServer, VERSION, WIRE};
use jengine_kotoba::play::Event;
use jengine_net::Codec;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// Simulated players for Kotodama's room server.
#[derive(Parser, Debug, Clone)]
#[command(version)]
struct Args {
    /// The server's WebSocket URL; give it again for each process of a fleet, and the
    /// players are spread over them in turn.
    #[arg(long = "url", default_value = "ws://127.0.0.1:7777/")]
    urls: Vec<String>,
    /// Simulated players, each on a connection of its own.
    #[arg(long, default_value_t = 100)]
    clients: usize,
    /// Seconds to measure once every player has connected.
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// Moves a second each player sends while a battle is on.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// New connections a second while ramping up.
    #[arg(long, default_value_t = 500)]
    ramp: usize,
    /// Seconds between progress lines on stderr (0: none).
    #[arg(long, default_value_t = 5)]
    report: u64,
    /// The seed of the players' choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    workers: usize,
}

/// What all the players count together.
#[derive(Default)]
struct Stats {
    held: AtomicUsize,
    peak: AtomicUsize,
    connected: AtomicUsize,
    sent: AtomicU64,
    acked: AtomicU64,
    matches: AtomicU64,
    /// Redirects followed to another process.
    redirects: AtomicU64,
    /// Match-making times (`Queue` to `Start`), in microseconds, over the whole run.
    matchmaking: Mutex<Vec<u32>>,
    /// Whether the measured window is open.
    measuring: AtomicBool,
    /// Latencies in the measured window, in microseconds.
    window: Mutex<Vec<u32>>,
    /// Latencies since the last progress line.
    recent: Mutex<Vec<u32>>,
    errors: Mutex<BTreeMap<String, u64>>,
}

impl Stats {
    fn error(&self, what: String) {
        *lock(&self.errors).entry(what).or_default() += 1;
    }

    fn latency(&self, took: Duration) {
        let micros = u32::try_from(took.as_micros()).unwrap_or(u32::MAX);
        self.acked.fetch_add(1, Ordering::Relaxed);
        lock(&self.recent).push(micros);
        if self.measuring.load(Ordering::Relaxed) {
            let mut window = lock(&self.window);
            if window.len() < 20_000_000 {
                window.push(micros);
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The p-th quantile of sorted microseconds, in milliseconds.
fn quantile(sorted: &[u32], p: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n => sorted[((n - 1) as f64 * p).round() as usize] as f64 / 1000.0,
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.clients == 0 || args.rate <= 0.0 || args.ramp == 0 {
        eprintln!("kotodama-load: --clients, --rate and --ramp must be more than 0");
        return ExitCode::FAILURE;
    }
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    if args.workers > 0 {
        builder.worker_threads(args.workers);
    }
    let rt = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("kotodama-load: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stats = Arc::new(Stats::default());
    rt.block_on(drive(args.clone(), Arc::clone(&stats)));
    let mut window = lock(&stats.window).clone();
    window.sort_unstable();
    let errors = lock(&stats.errors).clone();
    println!("clients        {}", args.clients);
    println!(
        "held           {} at the end, {} at most, {} connected in all",
        stats.held.load(Ordering::Relaxed),
        stats.peak.load(Ordering::Relaxed),
        stats.connected.load(Ordering::Relaxed)
    );
    println!(
        "moves          {} sent, {} acked ({} in the measured {} s: {:.0} moves/s)",
        stats.sent.load(Ordering::Relaxed),
        stats.acked.load(Ordering::Relaxed),
        window.len(),
        args.seconds,
        window.len() as f64 / args.seconds as f64
    );
    println!(
        "move-to-ack    p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        quantile(&window, 0.5),
        quantile(&window, 0.9),
        quantile(&window, 0.99),
        quantile(&window, 1.0)
    );
    println!(
        "matches        {} started",
        stats.matches.load(Ordering::Relaxed)
    );
    let mut made = lock(&stats.matchmaking).clone();
    made.sort_unstable();
    println!(
        "match-making   p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms over {} matches found from the line, {} redirects followed",
        quantile(&made, 0.5),
        quantile(&made, 0.99),
        quantile(&made, 1.0),
        made.len(),
        stats.redirects.load(Ordering::Relaxed)
    );
    let total: u64 = errors.values().sum();
    println!("errors         {total}");
    for (what, n) in &errors {
        println!("  {n:>6}  {what}");
    }
    ExitCode::SUCCESS
}

async fn drive(args: Args, stats: Arc<Stats>) {
    let (stop, stopped) = watch::channel(false);
    let reporter = tokio::spawn(report(args.report, Arc::clone(&stats)));
    let mut players = Vec::with_capacity(args.clients);
    let gap = Duration::from_secs(1) / args.ramp as u32;
    let mut next = tokio::time::Instant::now();
    for i in 0..args.clients {
        tokio::time::sleep_until(next).await;
        next += gap;
        players.push(tokio::spawn(play(
            i,
            args.clone(),
            Arc::clone(&stats),
            stopped.clone(),
        )));
    }
    // Let the last ones find their matches before measuring.
    tokio::time::sleep(Duration::from_secs(2)).await;
    eprintln!(
        "kotodama-load: {} held; measuring for {} s",
        stats.held.load(Ordering::Relaxed),
        args.seconds
    );
    stats.measuring.store(true, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    stats.measuring.store(false, Ordering::Relaxed);
    stop.send_replace(true);
    for p in players {
        let _ = tokio::time::timeout(Duration::from_secs(5), p).await;
    }
    reporter.abort();
}

async fn report(every: u64, stats: Arc<Stats>) {
    if every == 0 {
        return;
    }
    let mut last = (Instant::now(), 0u64);
    loop {
        tokio::time::sleep(Duration::from_secs(every)).await;
        let mut recent = std::mem::take(&mut *lock(&stats.recent));
        recent.sort_unstable();
        let acked = stats.acked.load(Ordering::Relaxed);
        let rate = (acked - last.1) as f64 / last.0.elapsed().as_secs_f64();
        last = (Instant::now(), acked);
        let errors: u64 = lock(&stats.errors).values().sum();
        eprintln!(
            "kotodama-load: held {}  moves/s {rate:.0}  p50 {:.2} ms  p99 {:.2} ms  errors {errors}",
            stats.held.load(Ordering::Relaxed),
            quantile(&recent, 0.5),
            quantile(&recent, 0.99),
        );
    }
}

/// One simulated player's side of a battle.
struct Seat {
    seat: usize,
    next: u32,
    /// Moves sent and not yet answered: (number, when sent).
    pending: VecDeque<(u32, Instant)>,
    /// The room's state as last sent: whole, or the last one changed by a `Delta`.
    state: Option<State>,
    over: bool,
}

impl Seat {
    /// The room's state now: the moves it answers are timed, and it is kept to choose from.
    fn heard(&mut self, state: State, stats: &Stats) {
        let now = Instant::now();
        while self.pending.front().is_some_and(|&(m, _)| m <= state.acked) {
            if let Some((_, sent)) = self.pending.pop_front() {
                stats.latency(now - sent);
            }
        }
        self.state = Some(state);
    }
}

/// A move for `seat` in `state`: mostly a legal placement, sometimes a tile on any free cell
/// next to a kana, a swap when nothing else fits.
fn choose(
    state: &State,
    seat: usize,
    dict: &Dict,
    stats: &TileStats,
    rng: &mut Pcg32,
) -> Option<Move> {
    if state.phase != Phase::Fight || state.fighters[seat].stun > 0.0 {
        return None;
    }
    let board = Board::from_rows(&state.board).ok()?;
    let hand = &state.fighters[seat].hand;
    if hand.is_empty() {
        return None;
    }
    if rng.random_bool(0.8) {
        let moves = legal_moves(&board, dict, stats, hand);
        if !moves.is_empty() {
            let m = moves[rng.random_range(0..moves.len())];
            return Some(Move::Place {
                slot: m.slot,
                pos: m.pos,
                face: m.face,
            });
        }
    }
    let open: Vec<Pos> = board.open_cells().collect();
    if open.is_empty() || rng.random_bool(0.1) {
        return Some(Move::Swap {
            slot: rng.random_range(0..hand.len()),
        });
    }
    let slot = rng.random_range(0..hand.len());
    Some(Move::Place {
        slot,
        pos: open[rng.random_range(0..open.len())],
        face: hand[slot],
    })
}

async fn play(i: usize, args: Args, stats: Arc<Stats>, mut stop: watch::Receiver<bool>) {
    let codec = Codec::new(WIRE);
    let dict = Dict::japanese();
    let tiles = TileStats::from_dict(dict);
    let mut rng = Pcg32::seed_from_u64(args.seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let frame = |msg: &ToServer| -> Message {
        let bytes = codec.encode(msg).unwrap_or_default();
        Message::Binary(bytes.into())
    };
    let hello = ToServer::Hello {
        version: VERSION,
        name: format!("load{i}"),
    };
    // Where to connect and what to ask first: the lobby and a quick match, then wherever a
    // redirect sends the player, to claim the seat there.
    let mut next = Some((args.urls[i % args.urls.len()].clone(), ToServer::Queue));
    let mut queued_at = Some(Instant::now());
    let mut first = true;
    while let Some((url, ask)) = next.take() {
        // tungstenite zeroes its whole read buffer before each read: keep it at a page (see
        // jengine-net's `ws_config`), not the default 128 KiB.
        let ws_config = WebSocketConfig::default().read_buffer_size(4096);
        let connect =
            tokio_tungstenite::connect_async_with_config(url.as_str(), Some(ws_config), true);
        let ws = match tokio::time::timeout(Duration::from_secs(10), connect).await {
            Ok(Ok((ws, _))) => ws,
            Ok(Err(e)) => {
                stats.error(format!("connect: {e}"));
                break;
            }
            Err(_) => {
                stats.error("connect: no handshake within 10 s".into());
                break;
            }
        };
        if first {
            first = false;
            stats.connected.fetch_add(1, Ordering::Relaxed);
            let held = stats.held.fetch_add(1, Ordering::Relaxed) + 1;
            stats.peak.fetch_max(held, Ordering::Relaxed);
        }
        let (mut sink, mut stream) = ws.split();
        let mut ok = sink.send(frame(&hello)).await.is_ok() && sink.send(frame(&ask)).await.is_ok();
        let mut battle: Option<Seat> = None;
        let mut received = Received::default();
        let mut again_at: Option<Instant> = None;
        // A player the lobby turned away (busy, the shared lobby down, a seat no longer held)
        // looks again a moment later.
        let mut requeue_at: Option<Instant> = None;
        let period = Duration::from_secs_f64(1.0 / args.rate);
        let mut beat = tokio::time::interval_at(
            tokio::time::Instant::now() + period.mul_f64(rng.random::<f64>()),
            period,
        );
        beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while ok {
            tokio::select! {
                message = stream.next() => {
                    let bytes = match message {
                        Some(Ok(Message::Binary(bytes))) => bytes,
                        Some(Ok(Message::Close(frame))) => {
                            let why = frame.map_or("no reason".to_string(), |f| format!("{} {}", u16::from(f.code), f.reason));
                            stats.error(format!("closed by the server: {why}"));
                            break;
                        }
                        Some(Ok(_)) => continue,
                        Some(Err(e)) => { stats.error(format!("read: {e}")); break; }
                        None => { stats.error("read: the connection ended".into()); break; }
                    };
                    let Ok(msg) = codec.decode::<ToClient>(&bytes) else {
                        stats.error("a frame that does not decode".into());
                        break;
                    };
                    // A change of state is read as the whole state it makes.
                    let msg = match received.read(msg) {
                        Ok(msg) => msg,
                        Err(e) => {
                            stats.error(format!("a change of state that does not fit the last: {e}"));
                            continue;
                        }
                    };
                    match msg {
                        ToClient::State(state) => {
                            if let Some(b) = battle.as_mut() {
                                b.heard(state, &stats);
                            }
                        }
                        ToClient::Start(start) => {
                            if start.seat == 0 {
                                stats.matches.fetch_add(1, Ordering::Relaxed);
                            }
                            if let Some(at) = queued_at.take() {
                                let micros = u32::try_from(at.elapsed().as_micros()).unwrap_or(u32::MAX);
                                lock(&stats.matchmaking).push(micros);
                            }
                            battle = Some(Seat { seat: start.seat, next: 1, pending: VecDeque::new(), state: None, over: false });
                        }
                        ToClient::Ev { events } => {
                            let over = events.iter().any(|e| matches!(e, Event::Over { .. }));
                            if over && let Some(b) = battle.as_mut() && !b.over {
                                b.over = true;
                                again_at = Some(Instant::now() + Duration::from_millis(rng.random_range(200..1000)));
                            }
                        }
                        ToClient::Left { .. } => {
                            battle = None;
                            again_at = None;
                            queued_at = Some(Instant::now());
                            ok = sink.send(frame(&ToServer::Queue)).await.is_ok();
                        }
                        ToClient::Redirect(to) => {
                            stats.redirects.fetch_add(1, Ordering::Relaxed);
                            let _ = sink.close().await;
                            next = Some((to.address, ToServer::Claim { reservation: to.reservation }));
                            break;
                        }
                        ToClient::Refused { why } => {
                            stats.error(format!("refused: {why:?}"));
                            if battle.is_none() {
                                queued_at.get_or_insert_with(Instant::now);
                                requeue_at = Some(Instant::now() + Duration::from_millis(500));
                            }
                        }
                        ToClient::Delta(_) | ToClient::Waiting { .. } | ToClient::Again { .. } | ToClient::Away { .. } | ToClient::Back { .. } => {}
                    }
                }
                _ = beat.tick() => {
                    if let Some(at) = requeue_at && Instant::now() >= at {
                        requeue_at = None;
                        ok = sink.send(frame(&ToServer::Queue)).await.is_ok();
                        continue;
                    }
                    if let Some(at) = again_at && Instant::now() >= at {
                        again_at = None;
                        ok = sink.send(frame(&ToServer::Again)).await.is_ok();
                        continue;
                    }
                    let Some(b) = battle.as_mut() else { continue };
                    if b.over {
                        continue;
                    }
                    let Some(state) = b.state.as_ref() else { continue };
                    let Some(mv) = choose(state, b.seat, dict, &tiles, &mut rng) else { continue };
                    let number = b.next;
                    b.next += 1;
                    b.pending.push_back((number, Instant::now()));
                    stats.sent.fetch_add(1, Ordering::Relaxed);
                    ok = sink.send(frame(&ToServer::Play { number, mv })).await.is_ok();
                }
                _ = stop.changed() => {
                    let _ = sink.send(frame(&ToServer::Leave)).await;
                    let _ = sink.close().await;
                    break;
                }
            }
        }
        if !ok {
            stats.error("write: the connection ended".into());
        }
    }
    if !first {
        stats.held.fetch_sub(1, Ordering::Relaxed);
    }
}
