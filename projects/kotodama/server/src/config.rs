//! How a server is set up: where it listens, what it allows, how its battles are played.
//!
//! The transport's own limits (frame size, rate, handshake and idle timeouts, queues) are its
//! `ServerConfig`, carried whole; the rest is the room server's.

use std::net::SocketAddr;
use std::time::Duration;

use jengine_kotoba::battle::{FighterSpec, Setup};
use jengine_kotoba::board::Board;
use jengine_kotoba::content;
use jengine_net::{Codec, ServerConfig};

use crate::fleet::FleetConfig;

/// A server's settings. `Config::default()` gives the values in the field docs: a server for
/// this machine only, on a free port, without the HTTP endpoints.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Where [`crate::spawn`] and [`crate::run`] listen for players (127.0.0.1:0, a free port).
    pub bind: SocketAddr,
    /// Where the health and metrics endpoints listen, over plain HTTP (`None`: nowhere).
    pub metrics_bind: Option<SocketAddr>,
    /// The transport's codec (protocol [`crate::PROTOCOL`]) and limits: frame size (64 KiB), rate (200 frames a second), handshake
    /// (5 s) and idle (30 s) timeouts, pings, queues. Its codec must speak
    /// [`crate::PROTOCOL`].
    pub transport: ServerConfig,
    /// Time a new connection has to say `Hello` (5 s).
    pub hello_timeout: Duration,
    /// Players at once (10,000); past it a newcomer is refused as `Busy` and closed.
    pub max_players: usize,
    /// Rooms at once, waiting ones included (5,000); past it `Queue` and `Create` are refused
    /// as `Busy`.
    pub max_rooms: usize,
    /// How often a room moves its battle's clock on and sends its state (100 ms: ten a
    /// second). A state also goes out after every move.
    pub tick: Duration,
    /// Seconds of fighting in a battle (90).
    pub battle_time: f32,
    /// Whether a battle counts down three seconds first (yes).
    pub countdown: bool,
    /// The seed of the server's stream of battle seeds and room codes (0), so a run replays.
    pub seed: u64,
    /// How long a drain waits for the running matches to end before closing them (15 min:
    /// ten battles).
    pub grace: Duration,
    /// The send buffer of each player's socket in bytes (`None`: the system's, which grows
    /// with need). Small values keep memory per player down and find a player who stopped
    /// reading sooner. Applied by [`crate::spawn`] and [`crate::run`], which bind the socket.
    pub send_buffer: Option<u32>,
    /// Worker threads of the runtime [`crate::spawn`] and [`crate::run`] build (0: one per
    /// core).
    pub workers: usize,
    /// Whether to write one line on stderr when a match starts and one when it ends (yes).
    pub log_matches: bool,
    /// How long a room holds the seat of a player whose connection was lost in a match, for
    /// them to come back with their ticket (20 s; zero: not at all, they have left). The
    /// battle goes on meanwhile.
    pub rejoin_grace: Duration,
    /// The boards battles are fought on, by name (the built-in battle board, ひろば); each
    /// match takes one from its seed, and the players are told its name.
    pub boards: Vec<(String, Board)>,
    /// The fleet this process joins, its lobby shared through Redis (`None`: a server alone,
    /// its lobby in its own memory).
    pub fleet: Option<FleetConfig>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 0)),
            metrics_bind: None,
            transport: ServerConfig {
                codec: Codec::new(crate::PROTOCOL),
                ..ServerConfig::default()
            },
            hello_timeout: Duration::from_secs(5),
            max_players: 10_000,
            max_rooms: 5_000,
            tick: Duration::from_millis(100),
            battle_time: content::BATTLE_TIME,
            countdown: true,
            seed: 0,
            grace: Duration::from_secs(15 * 60),
            send_buffer: None,
            workers: 0,
            log_matches: true,
            rejoin_grace: Duration::from_secs(20),
            boards: vec![(
                content::BATTLE_BOARD_NAME.to_string(),
                content::battle_board(),
            )],
            fleet: None,
        }
    }
}

impl Config {
    /// The battle a room sets up for these two players, and its board's name: one of
    /// [`Config::boards`] chosen by the seed (the built-in battle board when there are none),
    /// each player with the player's life and hand, no bots, this config's time and countdown.
    pub fn setup(&self, names: [&str; 2], seed: u64) -> (String, Setup) {
        let (name, board) = if self.boards.is_empty() {
            (
                content::BATTLE_BOARD_NAME.to_string(),
                content::battle_board(),
            )
        } else {
            self.boards[(seed % self.boards.len() as u64) as usize].clone()
        };
        let setup = Setup {
            board,
            fighters: names.map(|name| FighterSpec {
                bot: None,
                ..content::player(name)
            }),
            time: self.battle_time,
            seed,
            countdown: self.countdown,
        };
        (name, setup)
    }
}

/// Reads a board given as `NAME=FILE`: the file's lines are its rows, as
/// [`Board::from_rows`] reads them. The name and board must be ones a player accepts in a
/// `Start` (a name of 1 to 16 characters, not blank, without control characters; a board that reads and
/// fits), so a player is never sent a battle they would refuse.
pub fn read_board(given: &str) -> Result<(String, Board), String> {
    let Some((name, file)) = given.split_once('=') else {
        return Err("expected NAME=FILE".into());
    };
    let meta = std::fs::metadata(file).map_err(|e| format!("{file}: {e}"))?;
    if meta.len() > 64 * 1024 {
        return Err(format!(
            "{file}: {} bytes is too big for a board",
            meta.len()
        ));
    }
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let rows: Vec<String> = text
        .lines()
        .map(|l| l.trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let board = Board::from_rows(&rows).map_err(|e| format!("{file}: {e}"))?;
    let (_, setup) = Config {
        boards: vec![(name.to_string(), board.clone())],
        ..Config::default()
    }
    .setup(["a", "b"], 0);
    jengine_kotoba::net::start_for(&setup, name, 0)
        .validate()
        .map_err(|e| format!("{file}: {e}"))?;
    let stats = jengine_kotoba::kana::TileStats::from_dict(jengine_kotoba::dict::Dict::japanese());
    jengine_kotoba::battle::Battle::new(&setup, &stats).map_err(|e| format!("{file}: {e}"))?;
    Ok((name.to_string(), board))
}
