//! `kotodama-server`: the room server, with health and metrics on a second port and a drain
//! on SIGTERM.

use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use jengine_net::RateLimit;
use kotodama_server::Config;

/// Kotodama's room server: a lobby, rooms that own the word battles, health and metrics.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// The address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    bind: IpAddr,
    /// The port players connect to (WebSocket, any path).
    #[arg(long, default_value_t = 7777)]
    port: u16,
    /// The port of the health and metrics endpoints (plain HTTP); 0 to serve none.
    #[arg(long, default_value_t = 7778)]
    metrics_port: u16,
    /// The address of the health and metrics endpoints, if not --bind.
    #[arg(long)]
    metrics_bind: Option<IpAddr>,
    /// Players at once; past it newcomers are refused as Busy.
    #[arg(long, default_value_t = 10_000)]
    max_players: usize,
    /// Rooms at once, waiting ones included.
    #[arg(long, default_value_t = 5_000)]
    max_rooms: usize,
    /// Seconds of fighting in a battle.
    #[arg(long, default_value_t = 90.0)]
    battle_seconds: f32,
    /// Start battles at once, without the three-second countdown.
    #[arg(long)]
    no_countdown: bool,
    /// States a room sends each second (besides one after every move).
    #[arg(long, default_value_t = 10)]
    tick_rate: u32,
    /// The seed of the battles and room codes (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
    /// Seconds a drain waits for running matches before closing them.
    #[arg(long, default_value_t = 900)]
    grace_seconds: u64,
    /// Seconds a new connection has to say Hello.
    #[arg(long, default_value_t = 5)]
    hello_seconds: u64,
    /// Seconds of silence (no frame, no pong) after which a player is dropped.
    #[arg(long, default_value_t = 30)]
    idle_seconds: u64,
    /// The largest frame a player may send, in bytes.
    #[arg(long, default_value_t = 64 * 1024)]
    max_frame: usize,
    /// Frames a second a player may send (pings included), and as a burst.
    #[arg(long, default_value_t = 200)]
    rate: u32,
    /// Frames that may wait to go out to one player before they count as not reading.
    #[arg(long, default_value_t = 256)]
    send_queue: usize,
    /// The kernel send buffer of each player's socket, in bytes (default: the system's).
    #[arg(long)]
    send_buffer: Option<u32>,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    workers: usize,
    /// Do not write a line per match start and end.
    #[arg(long)]
    quiet: bool,
    /// Seconds a room holds the seat of a player whose connection was lost in a match, for
    /// them to come back (0: they have left at once).
    #[arg(long, default_value_t = 20)]
    rejoin_seconds: u64,
    /// A board to fight on, NAME=FILE (the file's lines are the board's rows, `.` an open
    /// cell, `#` a wall, a kana a tile already down); give it again for more, and each match
    /// takes one. Without it: the built-in board, ひろば.
    #[arg(long = "board", value_name = "NAME=FILE")]
    boards: Vec<String>,
    /// Join a fleet whose lobby is shared through this Redis (redis://host:port): the
    /// quick-match line, room codes and seat reservations live there, and a match may be
    /// placed on another process. Needs --public-address.
    #[arg(long, value_name = "URL", requires = "public_address")]
    redis: Option<String>,
    /// The address players reach this process at (host:port, or a ws:// URL), told to the
    /// players whose rooms the fleet places here.
    #[arg(long, value_name = "ADDR", requires = "redis")]
    public_address: Option<String>,
    /// Milliseconds between this process's heartbeats in the fleet; its entry lives three
    /// beats, so a process that dies is gone from the fleet that long after.
    #[arg(long, default_value_t = 1000)]
    heartbeat_ms: u64,
    /// Milliseconds a seat reserved in the fleet waits for its player.
    #[arg(long, default_value_t = 10_000)]
    reservation_ms: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.tick_rate == 0 {
        eprintln!("kotodama-server: --tick-rate must be 1 or more");
        return ExitCode::FAILURE;
    }
    let defaults = Config::default();
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let config = Config {
        bind: SocketAddr::new(args.bind, args.port),
        metrics_bind: (args.metrics_port != 0)
            .then(|| SocketAddr::new(args.metrics_bind.unwrap_or(args.bind), args.metrics_port)),
        transport: jengine_net::ServerConfig {
            codec: defaults.transport.codec.with_max_frame(args.max_frame),
            idle_timeout: Duration::from_secs(args.idle_seconds),
            rate: RateLimit::new(args.rate, args.rate),
            send_queue: args.send_queue,
            ..defaults.transport.clone()
        },
        hello_timeout: Duration::from_secs(args.hello_seconds),
        max_players: args.max_players,
        max_rooms: args.max_rooms,
        tick: Duration::from_secs(1) / args.tick_rate,
        battle_time: args.battle_seconds,
        countdown: !args.no_countdown,
        seed,
        grace: Duration::from_secs(args.grace_seconds),
        send_buffer: args.send_buffer,
        workers: args.workers,
        log_matches: !args.quiet,
        boards: defaults.boards.clone(),
        rejoin_grace: Duration::from_secs(args.rejoin_seconds),
        fleet: None,
    };
    let mut config = config;
    if !args.boards.is_empty() {
        let mut boards = Vec::new();
        for given in &args.boards {
            match kotodama_server::read_board(given) {
                Ok(board) => boards.push(board),
                Err(e) => {
                    eprintln!("kotodama-server: --board {given}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        config.boards = boards;
    }
    if let (Some(redis), Some(address)) = (&args.redis, &args.public_address) {
        if args.heartbeat_ms == 0 || args.reservation_ms == 0 {
            eprintln!("kotodama-server: --heartbeat-ms and --reservation-ms must be 1 or more");
            return ExitCode::FAILURE;
        }
        let mut fleet = kotodama_server::FleetConfig::new(redis, address);
        fleet.heartbeat = Duration::from_millis(args.heartbeat_ms);
        fleet.reservation = Duration::from_millis(args.reservation_ms);
        if let Err(e) = (jengine_kotoba::net::Redirect {
            address: fleet.public_address.clone(),
            reservation: "0".into(),
            seconds: 0.0,
        })
        .validate()
        {
            eprintln!("kotodama-server: --public-address {address}: {e}");
            return ExitCode::FAILURE;
        }
        config.fleet = Some(fleet);
    }
    if !(config.battle_time > 0.0 && config.battle_time <= jengine_kotoba::net::MAX_TIME) {
        eprintln!(
            "kotodama-server: --battle-seconds must be more than 0, up to {}",
            jengine_kotoba::net::MAX_TIME
        );
        return ExitCode::FAILURE;
    }
    match kotodama_server::run(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kotodama-server: {e}");
            ExitCode::FAILURE
        }
    }
}
