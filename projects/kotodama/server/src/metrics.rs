//! What the server counts, and the Prometheus text it is read as.
//!
//! Counters and gauges are atomics that any task bumps without a lock. Move-to-ack times go
//! into a ring of the latest samples, so the quantiles describe the server as it is now, in
//! bounded memory, whatever its uptime.

use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

/// How many of the latest move-to-ack times the quantiles are taken from.
pub const ACK_SAMPLES: usize = 8192;

/// The live counters. One per server, shared by every task.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub players: AtomicUsize,
    pub rooms: AtomicUsize,
    pub matches_running: AtomicUsize,
    pub matches_started: AtomicU64,
    pub matches_finished: AtomicU64,
    pub moves: AtomicU64,
    /// Moves in the last whole second, as `f64` bits (written once a second).
    pub moves_per_second: AtomicU64,
    pub refused_busy: AtomicU64,
    pub removed: AtomicU64,
    pub seats_held: AtomicUsize,
    pub rejoined: AtomicU64,
    pub seats_given_up: AtomicU64,
    pub ack: Mutex<Ring>,
    pub ack_count: AtomicU64,
    pub ack_micros: AtomicU64,
}

/// The latest move-to-ack times, in microseconds.
#[derive(Debug, Default)]
pub(crate) struct Ring {
    samples: Vec<u32>,
    next: usize,
}

impl Ring {
    fn push(&mut self, micros: u32) {
        if self.samples.len() < ACK_SAMPLES {
            self.samples.push(micros);
        } else {
            self.samples[self.next] = micros;
        }
        self.next = (self.next + 1) % ACK_SAMPLES;
    }
}

impl Counters {
    /// One move answered, `took` after it was heard.
    pub fn acked(&self, took: Duration) {
        let micros = u32::try_from(took.as_micros()).unwrap_or(u32::MAX);
        self.moves.fetch_add(1, Ordering::Relaxed);
        self.ack_count.fetch_add(1, Ordering::Relaxed);
        self.ack_micros
            .fetch_add(u64::from(micros), Ordering::Relaxed);
        self.ack
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(micros);
    }

    pub fn snapshot(&self, connections: usize, draining: bool) -> Metrics {
        let mut samples = self
            .ack
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .samples
            .clone();
        samples.sort_unstable();
        let quantile = |q: f64| -> Option<Duration> {
            let last = samples.len().checked_sub(1)?;
            let i = ((last as f64) * q).round() as usize;
            Some(Duration::from_micros(u64::from(samples[i.min(last)])))
        };
        Metrics {
            connections,
            players: self.players.load(Ordering::Relaxed),
            rooms: self.rooms.load(Ordering::Relaxed),
            matches_running: self.matches_running.load(Ordering::Relaxed),
            matches_started: self.matches_started.load(Ordering::Relaxed),
            matches_finished: self.matches_finished.load(Ordering::Relaxed),
            moves: self.moves.load(Ordering::Relaxed),
            moves_per_second: f64::from_bits(self.moves_per_second.load(Ordering::Relaxed)),
            refused_busy: self.refused_busy.load(Ordering::Relaxed),
            removed: self.removed.load(Ordering::Relaxed),
            seats_held: self.seats_held.load(Ordering::Relaxed),
            rejoined: self.rejoined.load(Ordering::Relaxed),
            seats_given_up: self.seats_given_up.load(Ordering::Relaxed),
            ack_p50: quantile(0.5),
            ack_p90: quantile(0.9),
            ack_p99: quantile(0.99),
            ack_count: self.ack_count.load(Ordering::Relaxed),
            ack_sum: Duration::from_micros(self.ack_micros.load(Ordering::Relaxed)),
            draining,
            fleet: None,
        }
    }
}

/// A fleet process's dealings with the shared lobby, for [`Metrics::fleet`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FleetFigures {
    /// Whether the shared lobby answered the last time it was asked.
    pub lobby_up: bool,
    /// Players sent to another process of the fleet.
    pub redirects: u64,
    /// Reservations of seats on this process used.
    pub claims: u64,
}

/// The server's figures at one moment ([`crate::Handle::metrics`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Metrics {
    /// WebSocket connections open, handshakes in progress included.
    pub connections: usize,
    /// Players admitted (past the capacity check), in the lobby or in a room.
    pub players: usize,
    /// Rooms open: waiting for a second player, playing, or between matches.
    pub rooms: usize,
    /// Matches being played now.
    pub matches_running: usize,
    /// Matches started since the server started (rematches included).
    pub matches_started: u64,
    /// Matches ended since the server started (by the rules or by a player leaving).
    pub matches_finished: u64,
    /// Moves answered since the server started, applied or refused.
    pub moves: u64,
    /// Moves answered in the last whole second.
    pub moves_per_second: f64,
    /// Players and requests turned away because the server was full or draining.
    pub refused_busy: u64,
    /// Players closed for what they sent: garbage, a frame that is no valid message of this
    /// game, a flood, an oversized frame.
    pub removed: u64,
    /// Seats held now for players whose connection was lost in a match.
    pub seats_held: usize,
    /// Players who came back into their match with its ticket.
    pub rejoined: u64,
    /// Held seats nobody came back to in time.
    pub seats_given_up: u64,
    /// Median time from hearing a move to queueing its answering state, over the latest
    /// [`ACK_SAMPLES`] moves (`None` before the first).
    pub ack_p50: Option<Duration>,
    /// The 90th percentile of the same.
    pub ack_p90: Option<Duration>,
    /// The 99th percentile of the same.
    pub ack_p99: Option<Duration>,
    /// Moves timed since the server started.
    pub ack_count: u64,
    /// Their times, added up.
    pub ack_sum: Duration,
    /// Whether the server is draining.
    pub draining: bool,
    /// The shared lobby's side, for a process of a fleet (`None` for a server alone).
    pub fleet: Option<FleetFigures>,
}

impl Metrics {
    /// The figures in Prometheus' text exposition format, under `kotodama_`. `capacity` is the
    /// most players the server takes, for a fleet's autoscaler.
    pub fn prometheus(&self, capacity: usize) -> String {
        let mut out = String::new();
        let mut put = |name: &str, kind: &str, help: &str, value: String| {
            let _ = writeln!(out, "# HELP kotodama_{name} {help}");
            let _ = writeln!(out, "# TYPE kotodama_{name} {kind}");
            let _ = writeln!(out, "kotodama_{name} {value}");
        };
        put(
            "connections",
            "gauge",
            "WebSocket connections open, handshakes included.",
            self.connections.to_string(),
        );
        put(
            "players",
            "gauge",
            "Players admitted, in the lobby or in a room.",
            self.players.to_string(),
        );
        put(
            "player_capacity",
            "gauge",
            "The most players this server takes.",
            capacity.to_string(),
        );
        put(
            "rooms",
            "gauge",
            "Rooms open: waiting, playing or between matches.",
            self.rooms.to_string(),
        );
        put(
            "matches_running",
            "gauge",
            "Matches being played now.",
            self.matches_running.to_string(),
        );
        put(
            "matches_started_total",
            "counter",
            "Matches started, rematches included.",
            self.matches_started.to_string(),
        );
        put(
            "matches_finished_total",
            "counter",
            "Matches ended, by the rules or by a player leaving.",
            self.matches_finished.to_string(),
        );
        put(
            "moves_total",
            "counter",
            "Moves answered, applied or refused.",
            self.moves.to_string(),
        );
        put(
            "moves_per_second",
            "gauge",
            "Moves answered in the last whole second.",
            format!("{}", self.moves_per_second),
        );
        put(
            "refused_busy_total",
            "counter",
            "Players and requests turned away as the server was full or draining.",
            self.refused_busy.to_string(),
        );
        put(
            "removed_total",
            "counter",
            "Players closed for what they sent: garbage, an invalid message, a flood, an oversized frame.",
            self.removed.to_string(),
        );
        put(
            "seats_held",
            "gauge",
            "Seats held for players whose connection was lost in a match.",
            self.seats_held.to_string(),
        );
        put(
            "rejoined_total",
            "counter",
            "Players who came back into their match with its ticket.",
            self.rejoined.to_string(),
        );
        put(
            "seats_given_up_total",
            "counter",
            "Held seats nobody came back to in time.",
            self.seats_given_up.to_string(),
        );
        put(
            "draining",
            "gauge",
            "1 while the server finishes its matches and takes no new ones.",
            u8::from(self.draining).to_string(),
        );
        if let Some(fleet) = &self.fleet {
            put(
                "lobby_up",
                "gauge",
                "1 while the fleet's shared lobby (Redis) answers.",
                u8::from(fleet.lobby_up).to_string(),
            );
            put(
                "redirects_total",
                "counter",
                "Players sent to another process of the fleet.",
                fleet.redirects.to_string(),
            );
            put(
                "claims_total",
                "counter",
                "Reservations of seats on this process used.",
                fleet.claims.to_string(),
            );
        }
        let _ = writeln!(
            out,
            "# HELP kotodama_move_ack_seconds From hearing a move to queueing the state that \
             answers it, over the latest {ACK_SAMPLES} moves."
        );
        let _ = writeln!(out, "# TYPE kotodama_move_ack_seconds summary");
        for (q, value) in [
            ("0.5", self.ack_p50),
            ("0.9", self.ack_p90),
            ("0.99", self.ack_p99),
        ] {
            let value = value.map_or("NaN".to_string(), |d| format!("{}", d.as_secs_f64()));
            let _ = writeln!(out, "kotodama_move_ack_seconds{{quantile=\"{q}\"}} {value}");
        }
        let _ = writeln!(
            out,
            "kotodama_move_ack_seconds_sum {}",
            self.ack_sum.as_secs_f64()
        );
        let _ = writeln!(out, "kotodama_move_ack_seconds_count {}", self.ack_count);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_come_from_the_latest_samples_only() {
        let counters = Counters::default();
        for _ in 0..ACK_SAMPLES {
            counters.acked(Duration::from_millis(50));
        }
        for i in 0..ACK_SAMPLES as u64 {
            counters.acked(Duration::from_micros(i + 1));
        }
        let m = counters.snapshot(0, false);
        assert_eq!(m.moves, 2 * ACK_SAMPLES as u64);
        assert_eq!(m.ack_p50, Some(Duration::from_micros(4097)));
        assert_eq!(m.ack_p99, Some(Duration::from_micros(8110)));
        assert_eq!(counters.ack.lock().unwrap().samples.len(), ACK_SAMPLES);
    }

    #[test]
    fn the_text_is_prometheus_exposition_format() {
        let counters = Counters::default();
        let text = counters.snapshot(3, true).prometheus(100);
        assert!(text.contains("# TYPE kotodama_rooms gauge\nkotodama_rooms 0\n"));
        assert!(text.contains("kotodama_connections 3\n"));
        assert!(text.contains("kotodama_draining 1\n"));
        assert!(text.contains("kotodama_move_ack_seconds{quantile=\"0.99\"} NaN\n"));
        counters.acked(Duration::from_millis(2));
        let text = counters.snapshot(3, false).prometheus(100);
        assert!(text.contains("kotodama_move_ack_seconds{quantile=\"0.5\"} 0.002\n"));
        assert!(text.contains("kotodama_move_ack_seconds_count 1\n"));
        assert!(
            !text.contains("kotodama_lobby_up"),
            "a server alone has no lobby figures"
        );
        let mut fleet = counters.snapshot(3, false);
        fleet.fleet = Some(FleetFigures {
            lobby_up: false,
            redirects: 7,
            claims: 5,
        });
        let text = fleet.prometheus(100);
        assert!(text.contains("kotodama_lobby_up 0\n"));
        assert!(text.contains("kotodama_redirects_total 7\n"));
        assert!(text.contains("kotodama_claims_total 5\n"));
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (name, value) = line.rsplit_once(' ').unwrap();
            assert!(name.starts_with("kotodama_"), "{line}");
            assert!(value == "NaN" || value.parse::<f64>().is_ok(), "{line}");
        }
    }
}
