//! A `redis-server` of a test's own, on a free port with nothing saved, for the fleet tests;
//! and the polling they do where real time must pass.
#![allow(dead_code, reason = "each test file that includes it uses a part")]

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a test waits for any one thing before it fails.
pub const PATIENCE: Duration = Duration::from_secs(20);

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Polls `check` until it gives something, failing the test after [`PATIENCE`].
pub fn eventually<T>(what: &str, mut check: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(t) = check() {
            return t;
        }
        assert!(Instant::now() < deadline, "{what}: not within {PATIENCE:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A `redis-server` of the test's own, stopped when dropped.
pub struct Redis {
    port: u16,
    child: Option<Child>,
}

impl Redis {
    /// Starts one, or says the test is skipped (and fails it where Redis is required).
    pub fn start() -> Option<Redis> {
        let port = free_port();
        let mut redis = Redis { port, child: None };
        if !redis.spawn() {
            let required = std::env::var("JENGINE_REQUIRE_REDIS").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "redis-server could not be started, and JENGINE_REQUIRE_REDIS=1"
            );
            println!("skipped: redis-server is not installed (apt-get install redis-server)");
            return None;
        }
        Some(redis)
    }

    /// Starts the server on this port; false if there is no `redis-server` to run.
    pub fn spawn(&mut self) -> bool {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            return false;
        };
        self.child = Some(child);
        eventually("redis-server answers", || {
            self.connection()
                .ok()
                .and_then(|mut c| redis::cmd("PING").query::<String>(&mut c).ok())
        });
        true
    }

    /// Stops it (SIGKILL: as unreachable as it gets) and waits for it to be gone.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    pub fn connection(&self) -> redis::RedisResult<redis::Connection> {
        redis::Client::open(self.url())?.get_connection_with_timeout(Duration::from_secs(2))
    }

    pub fn exists(&self, key: &str) -> bool {
        redis::Commands::exists(&mut self.connection().unwrap(), key).unwrap()
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}
