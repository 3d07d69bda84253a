//! A fleet's shared lobby, in Redis: the processes that take matches and their load, the
//! quick-match line, the room codes, and one-time seat reservations. The rooms themselves stay
//! in the memory of the process that plays them; Redis only says where they are.
//!
//! Every change of the lobby is one Lua script, so it is atomic across the fleet: a quick match
//! pops the oldest live player waiting, picks the least loaded live process for the room,
//! reserves both seats there and posts the waiting player's reservation to the inbox of the
//! process that holds their connection. A process that stops heartbeating has its entry expire,
//! and the next heartbeat of any other process sweeps its codes and reservations away.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Script};
use tokio::sync::mpsc;

use crate::room::{Hall, RoomRef};

/// Where every key of the shared lobby starts.
const PREFIX: &str = "kotodama:";

/// How a process joins a fleet: the shared lobby's Redis, the address players reach this
/// process at, and how often it says it is alive.
#[derive(Clone, Debug, PartialEq)]
pub struct FleetConfig {
    /// The Redis URL, as `redis://host:port` (or with a database, `redis://host:port/2`).
    pub redis: String,
    /// The `ws://` address players are sent to when their room is placed here.
    pub public_address: String,
    /// How often the process renews its entry and its load (1 s); the entry lives three
    /// beats, so a process killed is gone from the fleet after three.
    pub heartbeat: Duration,
    /// How long a reserved seat waits for its player (10 s); past it the reservation is
    /// refused and the seat freed.
    pub reservation: Duration,
}

impl FleetConfig {
    /// A fleet on this Redis, reached at this address, with a beat of a second and seats
    /// reserved for ten. A bare `host:port` address is given `ws://` and a `/`.
    pub fn new(redis: &str, public_address: &str) -> FleetConfig {
        FleetConfig {
            redis: redis.to_string(),
            public_address: ws_address(public_address),
            heartbeat: Duration::from_secs(1),
            reservation: Duration::from_secs(10),
        }
    }
}

/// `host:port` as the `ws://host:port/` players connect to; a `ws://` address as it is.
fn ws_address(given: &str) -> String {
    if given.starts_with("ws://") {
        given.to_string()
    } else {
        format!("ws://{given}/")
    }
}

/// The shared lobby could not be reached (or answered nonsense): nothing new is made now.
#[derive(Debug)]
pub(crate) struct Down;

/// What a process's inbox or its own timers tell one player's task.
#[derive(Debug)]
pub(crate) enum Notice {
    /// The player waiting in the quick-match line was paired: their seat is reserved.
    Matched(Reserved),
    /// The room placed here waited past its deadline for the other player: look again.
    Requeue,
    /// The shared lobby went away while the player waited in its line.
    LobbyDown,
}

/// A seat reserved in a room on some process of the fleet.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reserved {
    pub host: String,
    pub address: String,
    pub reservation: String,
    pub ms: u64,
}

/// What `Queue` found.
pub(crate) enum Queued {
    /// The player is in line now.
    Wait,
    /// Paired with the oldest player waiting; the player's own seat.
    Matched(Reserved),
    /// No live process takes matches (all draining).
    NoHost,
}

/// What `Join` found for a code.
pub(crate) enum Joined {
    NoSuchRoom,
    Full,
    Go(Reserved),
}

/// A reservation this process held, now used: which room it opens.
pub(crate) enum Claimed {
    /// A quick-match room placed here, by its key; `ms` the time left to its deadline.
    Quick { key: String, ms: u64 },
    /// The named room with this code, waiting here.
    Named { code: String },
}

/// A room placed here by a quick match, waiting for its second reservation.
struct Pending {
    room: RoomRef,
    notices: mpsc::UnboundedSender<Notice>,
}

/// The scripts that change the shared lobby, each atomic.
struct Scripts {
    queue: Script,
    join: Script,
    claim: Script,
    create: Script,
    forget: Script,
    heartbeat: Script,
    requeue: Script,
}

/// This process's part in the fleet.
pub(crate) struct Fleet {
    /// The process's id in the lobby: 16 hex digits from the system's random source. It also
    /// starts every rejoin ticket the process gives out, so any process can say where a
    /// ticket's match is played.
    pub id: String,
    pub config: FleetConfig,
    client: redis::Client,
    conn: tokio::sync::Mutex<Option<MultiplexedConnection>>,
    up: AtomicBool,
    scripts: Scripts,
    /// Players of this process in the quick-match line, by connection number.
    waiters: Mutex<HashMap<u64, mpsc::UnboundedSender<Notice>>>,
    /// Quick-match rooms placed here, by key, until their second player sits down.
    placed: Mutex<HashMap<String, Pending>>,
    /// Redirects sent and reservations used, for the log and the tests.
    pub redirects: AtomicU64,
    pub claims: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// 128 bits from the system's random source, as hex: reservations are secrets.
pub(crate) fn secret() -> String {
    use rand::Rng;
    format!("{:032x}", rand::rng().random::<u128>())
}

impl Fleet {
    /// This process's part in the fleet of `config`. Nothing is said to Redis yet: the
    /// heartbeat (see [`heartbeat`]) registers the process.
    pub fn new(config: FleetConfig) -> Result<Fleet, String> {
        use rand::Rng;
        let client = redis::Client::open(config.redis.as_str())
            .map_err(|e| format!("--redis {}: {e}", config.redis))?;
        Ok(Fleet {
            id: format!("{:016x}", rand::rng().random::<u64>()),
            config,
            client,
            conn: tokio::sync::Mutex::new(None),
            up: AtomicBool::new(false),
            scripts: Scripts {
                queue: Script::new(QUEUE),
                join: Script::new(JOIN),
                claim: Script::new(CLAIM),
                create: Script::new(CREATE),
                forget: Script::new(FORGET),
                heartbeat: Script::new(HEARTBEAT),
                requeue: Script::new(REQUEUE),
            },
            waiters: Mutex::new(HashMap::new()),
            placed: Mutex::new(HashMap::new()),
            redirects: AtomicU64::new(0),
            claims: AtomicU64::new(0),
        })
    }

    /// Whether the shared lobby answered the last time it was asked.
    pub fn up(&self) -> bool {
        self.up.load(Ordering::SeqCst)
    }

    /// The figures `/metrics` shows for the fleet.
    pub fn figures(&self) -> crate::metrics::FleetFigures {
        crate::metrics::FleetFigures {
            lobby_up: self.up(),
            redirects: self.redirects.load(Ordering::Relaxed),
            claims: self.claims.load(Ordering::Relaxed),
        }
    }

    /// A connection is given up on after a beat (at least a quarter second); an answer is
    /// waited for longer, since a busy process may be slow to read it.
    fn timeouts(&self) -> AsyncConnectionConfig {
        let patience = self.config.heartbeat.max(Duration::from_millis(250));
        AsyncConnectionConfig::new()
            .set_connection_timeout(Some(patience))
            .set_response_timeout(Some(patience.max(Duration::from_secs(5))))
    }

    /// The shared connection, made again after a failure.
    async fn connection(&self) -> Result<MultiplexedConnection, Down> {
        let mut slot = self.conn.lock().await;
        if let Some(conn) = slot.as_ref() {
            return Ok(conn.clone());
        }
        let conn = self
            .client
            .get_multiplexed_async_connection_with_config(&self.timeouts())
            .await
            .map_err(|_| Down)?;
        *slot = Some(conn.clone());
        Ok(conn)
    }

    /// Runs a script. A connection that failed counts the lobby as down until the next
    /// heartbeat finds it again; a slow answer fails only the request that waited for it.
    async fn run<T: redis::FromRedisValue>(
        &self,
        script: &Script,
        args: &[&str],
    ) -> Result<T, Down> {
        let mut conn = self.connection().await?;
        let mut call = script.prepare_invoke();
        for arg in args {
            call.arg(*arg);
        }
        match call.invoke_async::<T>(&mut conn).await {
            Ok(v) => {
                self.up.store(true, Ordering::SeqCst);
                Ok(v)
            }
            Err(e) => {
                eprintln!("event=lobby_error what={:?}", e.to_string());
                if !e.is_timeout() {
                    self.up.store(false, Ordering::SeqCst);
                    *self.conn.lock().await = None;
                }
                Err(Down)
            }
        }
    }

    /// Fails at once while the lobby is known to be down: a player is told so without
    /// waiting on a connection timeout each time.
    fn ready(&self) -> Result<(), Down> {
        if self.up() { Ok(()) } else { Err(Down) }
    }

    fn ms(&self) -> String {
        self.config.reservation.as_millis().max(1).to_string()
    }

    /// Puts a player (connection `conn`) in the quick-match line, or pairs them with the
    /// oldest player waiting. The player is registered for their notice before the line can
    /// hand them to anyone.
    pub async fn queue(
        &self,
        conn: u64,
        notices: mpsc::UnboundedSender<Notice>,
    ) -> Result<Queued, Down> {
        self.ready()?;
        lock(&self.waiters).insert(conn, notices);
        let entry = format!("{}|{conn}", self.id);
        let (theirs, mine, key) = (secret(), secret(), secret());
        let answer: Result<Vec<String>, Down> = self
            .run(
                &self.scripts.queue,
                &[&self.id, &entry, &theirs, &mine, &key, &self.ms()],
            )
            .await;
        let answer = match answer {
            Ok(a) => a,
            Err(down) => {
                lock(&self.waiters).remove(&conn);
                return Err(down);
            }
        };
        match answer.first().map(String::as_str) {
            Some("wait") => Ok(Queued::Wait),
            Some("pair") if answer.len() == 3 => {
                lock(&self.waiters).remove(&conn);
                Ok(Queued::Matched(Reserved {
                    host: answer[1].clone(),
                    address: answer[2].clone(),
                    reservation: mine,
                    ms: self.config.reservation.as_millis() as u64,
                }))
            }
            _ => {
                lock(&self.waiters).remove(&conn);
                Ok(Queued::NoHost)
            }
        }
    }

    /// Takes a player out of the line (they left, or asked for something else).
    pub fn unqueue(self: &Arc<Self>, conn: u64) {
        if lock(&self.waiters).remove(&conn).is_none() {
            return;
        }
        let fleet = Arc::clone(self);
        tokio::spawn(async move {
            let entry = format!("{}|{conn}", fleet.id);
            if let Ok(mut c) = fleet.connection().await {
                let removed: Result<i64, _> = redis::cmd("LREM")
                    .arg(format!("{PREFIX}quick"))
                    .arg(1)
                    .arg(entry)
                    .query_async(&mut c)
                    .await;
                drop(removed);
            }
        });
    }

    /// Opens a code for a named room waiting here; `false` if another room has it.
    pub async fn create(&self, code: &str) -> Result<bool, Down> {
        self.ready()?;
        let made: i64 = self.run(&self.scripts.create, &[code, &self.id]).await?;
        Ok(made == 1)
    }

    /// Frees the code of a named room of this process that closed.
    pub fn forget(self: &Arc<Self>, code: String) {
        let fleet = Arc::clone(self);
        tokio::spawn(async move {
            let _: Result<i64, _> = fleet.run(&fleet.scripts.forget, &[&code, &fleet.id]).await;
        });
    }

    /// Reserves the second seat of the named room with this code, wherever it waits.
    pub async fn join(&self, code: &str) -> Result<Joined, Down> {
        self.ready()?;
        let reservation = secret();
        let answer: Vec<String> = self
            .run(&self.scripts.join, &[code, &reservation, &self.ms()])
            .await?;
        Ok(match answer.first().map(String::as_str) {
            Some("go") if answer.len() == 3 => Joined::Go(Reserved {
                host: answer[1].clone(),
                address: answer[2].clone(),
                reservation,
                ms: self.config.reservation.as_millis() as u64,
            }),
            Some("full") => Joined::Full,
            _ => Joined::NoSuchRoom,
        })
    }

    /// Uses a reservation of a seat on this process, once: `None` for one that is unknown,
    /// used already, past its deadline, or another process's.
    pub async fn claim(&self, reservation: &str) -> Result<Option<Claimed>, Down> {
        self.ready()?;
        let answer: Option<(String, String, i64)> = self
            .run(&self.scripts.claim, &[&self.id, reservation])
            .await?;
        let Some((kind, what, ms)) = answer else {
            return Ok(None);
        };
        self.claims.fetch_add(1, Ordering::Relaxed);
        Ok(Some(match kind.as_str() {
            "q" => Claimed::Quick {
                key: what,
                ms: u64::try_from(ms).unwrap_or(0),
            },
            _ => Claimed::Named { code: what },
        }))
    }

    /// The process that gave out a rejoin ticket, if it was another of the fleet.
    pub fn owner_of<'t>(&self, ticket: &'t str) -> Option<&'t str> {
        let owner = ticket.get(..16)?;
        (ticket.len() > 16 && owner != self.id).then_some(owner)
    }

    /// The address of a live process of the fleet, if it is one.
    pub async fn address_of(&self, process: &str) -> Result<Option<String>, Down> {
        self.ready()?;
        let mut conn = self.connection().await?;
        let got: Result<Option<String>, _> = redis::cmd("GET")
            .arg(format!("{PREFIX}proc:{process}"))
            .query_async(&mut conn)
            .await;
        got.map_err(|_| {
            self.up.store(false, Ordering::SeqCst);
            Down
        })
    }

    /// A quick-match room placed here, as the player with its reservation arrives: the first
    /// waits in it (and is told to look again if the second has not come by the deadline),
    /// the second sits down and the match starts. `open` makes the room for the first.
    pub fn sit_placed(
        self: &Arc<Self>,
        key: &str,
        ms: u64,
        notices: mpsc::UnboundedSender<Notice>,
        first: impl FnOnce() -> Option<RoomRef>,
        second: impl FnOnce(&RoomRef) -> bool,
    ) -> Option<(RoomRef, usize)> {
        let mut placed = lock(&self.placed);
        if let Some(pending) = placed.remove(key)
            && second(&pending.room)
        {
            return Some((pending.room, 1));
        }
        let room = first()?;
        placed.insert(
            key.to_string(),
            Pending {
                room: Arc::clone(&room),
                notices,
            },
        );
        let (fleet, key, mine) = (Arc::clone(self), key.to_string(), Arc::clone(&room));
        let wait = Duration::from_millis(ms);
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let late = {
                let mut placed = lock(&fleet.placed);
                match placed.get(&key) {
                    Some(p) if Arc::ptr_eq(&p.room, &mine) => placed.remove(&key),
                    _ => None,
                }
            };
            if let Some(pending) = late {
                let _ = pending.notices.send(Notice::Requeue);
            }
        });
        Some((room, 0))
    }

    /// Hands each quick-match waiter the lobby's going away.
    fn tell_waiters_down(&self) {
        for (_, notices) in lock(&self.waiters).drain() {
            let _ = notices.send(Notice::LobbyDown);
        }
    }

    /// Puts the players of this process who wait in the line back in it, those the line no
    /// longer holds: its entries are skipped (and lost) while the process's own entry has
    /// lapsed, as when a beat came too late on a busy machine.
    async fn requeue_waiters(&self) {
        let entries: Vec<String> = lock(&self.waiters)
            .keys()
            .map(|conn| format!("{}|{conn}", self.id))
            .collect();
        if entries.is_empty() {
            return;
        }
        let args: Vec<&str> = entries.iter().map(String::as_str).collect();
        let back: Result<i64, Down> = self.run(&self.scripts.requeue, &args).await;
        if let Ok(n) = back
            && n > 0
        {
            eprintln!("event=requeued players={n}");
        }
    }

    /// One beat: the entry renewed with the load (players here), taken out of the placing
    /// when draining, dead processes swept. Says whether the lobby answered and whether the
    /// process's entry had lapsed before it (`None` if the lobby did not answer).
    async fn beat(&self, hall: &Hall) -> Option<bool> {
        let ttl = (self.config.heartbeat * 3).as_millis().max(1).to_string();
        let load = hall.counters.players.load(Ordering::SeqCst).to_string();
        let taking = if hall.draining() { "0" } else { "1" };
        // What it can hold: a process is never given a room its players would overfill.
        let capacity = hall.config.max_players.to_string();
        let answer: Result<(i64, i64), Down> = self
            .run(
                &self.scripts.heartbeat,
                &[
                    &self.id,
                    &self.config.public_address,
                    &ttl,
                    &load,
                    taking,
                    &capacity,
                ],
            )
            .await;
        match answer {
            Ok((swept, lapsed)) => {
                if swept > 0 && hall.config.log_matches {
                    eprintln!("event=swept processes={swept}");
                }
                Some(lapsed == 1)
            }
            Err(Down) => {
                self.up.store(false, Ordering::SeqCst);
                None
            }
        }
    }
}

/// Renews this process's entry every beat until the server stops. While the lobby is down
/// it tries each beat. Whenever the entry had lapsed (the lobby is back, perhaps a Redis that
/// restarted and forgot everything, or a beat came late), the codes of the named rooms waiting
/// here (`codes`) are opened again and the players waiting here put back in the line.
pub(crate) async fn heartbeat(
    fleet: Arc<Fleet>,
    hall: Arc<Hall>,
    codes: impl Fn() -> Vec<String> + Send + 'static,
) {
    let mut beat = tokio::time::interval(fleet.config.heartbeat);
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut was_up = true;
    loop {
        tokio::select! {
            _ = beat.tick() => {}
            _ = hall.life.stopped() => return,
        }
        let lapsed = fleet.beat(&hall).await;
        let up = lapsed.is_some();
        if up && !was_up {
            eprintln!("event=lobby_back");
        }
        if lapsed == Some(true) {
            for code in codes() {
                if fleet.create(&code).await.ok() == Some(false) {
                    eprintln!("event=code_lost code={code}");
                }
            }
            fleet.requeue_waiters().await;
        }
        if !up && was_up {
            eprintln!("event=lobby_down");
            fleet.tell_waiters_down();
        }
        was_up = up;
    }
}

/// Reads this process's inbox until the server stops: each entry hands a waiting player the
/// seat a match on another process reserved for them.
pub(crate) async fn inbox(fleet: Arc<Fleet>, hall: Arc<Hall>) {
    let key = format!("{PREFIX}inbox:{}", fleet.id);
    let block = Duration::from_secs(1);
    let config = AsyncConnectionConfig::new()
        .set_connection_timeout(Some(fleet.config.heartbeat.max(Duration::from_millis(250))))
        .set_response_timeout(Some(block + Duration::from_secs(10)));
    let mut conn: Option<MultiplexedConnection> = None;
    loop {
        if hall.life.is_stopped() {
            return;
        }
        let c = match conn.as_mut() {
            Some(c) => c,
            None => match fleet
                .client
                .get_multiplexed_async_connection_with_config(&config)
                .await
            {
                Ok(c) => conn.insert(c),
                Err(_) => {
                    tokio::select! {
                        _ = tokio::time::sleep(fleet.config.heartbeat) => continue,
                        _ = hall.life.stopped() => return,
                    }
                }
            },
        };
        let mut blpop = redis::cmd("BLPOP");
        blpop.arg(&key).arg(block.as_secs_f64());
        let popped: Result<Option<(String, String)>, _> = tokio::select! {
            r = blpop.query_async(c) => r,
            _ = hall.life.stopped() => return,
        };
        match popped {
            Ok(Some((_, entry))) => {
                deliver(&fleet, &entry);
                // Whatever else waits is taken in one go: one round trip an entry falls
                // behind a busy fleet's matches.
                let mut rest = redis::cmd("LPOP");
                rest.arg(&key).arg(256);
                match rest.query_async::<Option<Vec<String>>>(c).await {
                    Ok(entries) => {
                        for entry in entries.unwrap_or_default() {
                            deliver(&fleet, &entry);
                        }
                    }
                    Err(_) => conn = None,
                }
            }
            Ok(None) => {}
            Err(_) => conn = None,
        }
    }
}

/// An inbox entry, `conn|host|address|reservation|ms`, to the player it names.
fn deliver(fleet: &Fleet, entry: &str) {
    let parts: Vec<&str> = entry.split('|').collect();
    let [conn, host, address, reservation, ms] = parts[..] else {
        eprintln!("event=lobby_error what=\"an inbox entry that does not read: {entry:?}\"");
        return;
    };
    let (Ok(conn), Ok(ms)) = (conn.parse::<u64>(), ms.parse::<u64>()) else {
        eprintln!("event=lobby_error what=\"an inbox entry that does not read: {entry:?}\"");
        return;
    };
    let notices = lock(&fleet.waiters).remove(&conn);
    let Some(notices) = notices else {
        // They left the line meanwhile: their seat is never claimed, and frees at its deadline.
        return;
    };
    let _ = notices.send(Notice::Matched(Reserved {
        host: host.to_string(),
        address: address.to_string(),
        reservation: reservation.to_string(),
        ms,
    }));
}

/// `Queue`: pops the oldest live entry of the line (or joins it), places the room on the least
/// loaded live process with room for two more players (a tie goes to the waiting player's
/// process, then to this one), reserves both seats there and posts the waiting player's to
/// their process's inbox.
/// ARGV: this process, its entry, the waiter's reservation, this player's, the room's key, ms.
const QUEUE: &str = r#"
local P = 'kotodama:'
while true do
  local entry = redis.call('LPOP', P .. 'quick')
  if not entry then
    redis.call('RPUSH', P .. 'quick', ARGV[2])
    return {'wait'}
  end
  local proc, conn = string.match(entry, '^(%x+)|(%d+)$')
  if proc and entry ~= ARGV[2] and redis.call('EXISTS', P .. 'proc:' .. proc) == 1 then
    local host, address, best = nil, nil, nil
    local ranked = redis.call('ZRANGE', P .. 'load', 0, 63, 'WITHSCORES')
    for i = 1, #ranked, 2 do
      local id, score = ranked[i], tonumber(ranked[i + 1])
      if best ~= nil and score > best then break end
      local at = redis.call('GET', P .. 'proc:' .. id)
      local cap = tonumber(redis.call('HGET', P .. 'cap', id))
      local fits = cap == nil or score + 2 <= cap
      if at and fits and (host == nil or id == proc or (id == ARGV[1] and host ~= proc)) then
        host, address, best = id, at, score
      end
    end
    if host == nil then
      redis.call('LPUSH', P .. 'quick', entry)
      return {'nohost'}
    end
    local ms = ARGV[6]
    redis.call('ZINCRBY', P .. 'load', 2, host)
    redis.call('SET', P .. 'resv:' .. ARGV[3], host .. '|q|' .. ARGV[5], 'PX', ms)
    redis.call('SET', P .. 'resv:' .. ARGV[4], host .. '|q|' .. ARGV[5], 'PX', ms)
    redis.call('SADD', P .. 'resvs:' .. host, ARGV[3], ARGV[4])
    local inbox = P .. 'inbox:' .. proc
    redis.call('RPUSH', inbox, conn .. '|' .. host .. '|' .. address .. '|' .. ARGV[3] .. '|' .. ms)
    redis.call('PEXPIRE', inbox, ms)
    return {'pair', host, address}
  end
end
"#;

/// `Join`: holds the second seat of the named room with this code until the deadline, and
/// reserves it. ARGV: the code, the reservation, ms.
const JOIN: &str = r#"
local P = 'kotodama:'
local proc = redis.call('GET', P .. 'code:' .. ARGV[1])
if not proc then return {'none'} end
local address = redis.call('GET', P .. 'proc:' .. proc)
if not address then
  redis.call('DEL', P .. 'code:' .. ARGV[1], P .. 'hold:' .. ARGV[1])
  return {'none'}
end
if not redis.call('SET', P .. 'hold:' .. ARGV[1], ARGV[2], 'PX', ARGV[3], 'NX') then
  return {'full'}
end
redis.call('SET', P .. 'resv:' .. ARGV[2], proc .. '|n|' .. ARGV[1], 'PX', ARGV[3])
redis.call('SADD', P .. 'resvs:' .. proc, ARGV[2])
return {'go', proc, address}
"#;

/// A reservation used: gone at once (good once), refused if it is another process's; a named
/// room's second seat is held for good. ARGV: this process, the reservation.
const CLAIM: &str = r#"
local P = 'kotodama:'
local key = P .. 'resv:' .. ARGV[2]
local seat = redis.call('GET', key)
if not seat then return false end
local host, kind, what = string.match(seat, '^(%x+)|(%a)|(.+)$')
if host ~= ARGV[1] then return false end
local ms = redis.call('PTTL', key)
redis.call('DEL', key)
redis.call('SREM', P .. 'resvs:' .. host, ARGV[2])
if kind == 'n' then redis.call('SET', P .. 'hold:' .. what, 'full') end
return {kind, what, ms}
"#;

/// A code opened for a named room waiting on this process (again), unless another process
/// has it.
/// ARGV: the code, this process.
const CREATE: &str = r#"
local P = 'kotodama:'
if not redis.call('SET', P .. 'code:' .. ARGV[1], ARGV[2], 'NX') then
  if redis.call('GET', P .. 'code:' .. ARGV[1]) ~= ARGV[2] then return 0 end
end
redis.call('SADD', P .. 'codes:' .. ARGV[2], ARGV[1])
return 1
"#;

/// A code of this process freed. ARGV: the code, this process.
const FORGET: &str = r#"
local P = 'kotodama:'
if redis.call('GET', P .. 'code:' .. ARGV[1]) == ARGV[2] then
  redis.call('DEL', P .. 'code:' .. ARGV[1], P .. 'hold:' .. ARGV[1])
end
return redis.call('SREM', P .. 'codes:' .. ARGV[2], ARGV[1])
"#;

/// A beat: this process's entry (its address) renewed for the TTL, its load set (or the
/// process taken out of the placing while it drains), and every process whose entry expired
/// swept: its codes, its reservations, its inbox and its load. Answers how many were swept
/// and whether this process's own entry had lapsed. ARGV: this process, its address, TTL ms,
/// load, '1' if it takes matches, the players it can hold.
const HEARTBEAT: &str = r#"
local P = 'kotodama:'
local lapsed = redis.call('EXISTS', P .. 'proc:' .. ARGV[1]) == 0 and 1 or 0
redis.call('SET', P .. 'proc:' .. ARGV[1], ARGV[2], 'PX', ARGV[3])
redis.call('SADD', P .. 'procs', ARGV[1])
redis.call('HSET', P .. 'cap', ARGV[1], ARGV[6])
if ARGV[5] == '1' then
  redis.call('ZADD', P .. 'load', ARGV[4], ARGV[1])
else
  redis.call('ZREM', P .. 'load', ARGV[1])
end
local swept = 0
for _, id in ipairs(redis.call('SMEMBERS', P .. 'procs')) do
  if redis.call('EXISTS', P .. 'proc:' .. id) == 0 then
    for _, code in ipairs(redis.call('SMEMBERS', P .. 'codes:' .. id)) do
      if redis.call('GET', P .. 'code:' .. code) == id then
        redis.call('DEL', P .. 'code:' .. code, P .. 'hold:' .. code)
      end
    end
    for _, t in ipairs(redis.call('SMEMBERS', P .. 'resvs:' .. id)) do
      redis.call('DEL', P .. 'resv:' .. t)
    end
    redis.call('DEL', P .. 'codes:' .. id, P .. 'resvs:' .. id, P .. 'inbox:' .. id)
    redis.call('ZREM', P .. 'load', id)
    redis.call('HDEL', P .. 'cap', id)
    redis.call('SREM', P .. 'procs', id)
    swept = swept + 1
  end
end
return {swept, lapsed}
"#;

/// This process's waiting players' entries, each put back at the end of the line unless the
/// line holds it still. ARGV: the entries.
const REQUEUE: &str = r#"
local P = 'kotodama:'
local back = 0
for _, entry in ipairs(ARGV) do
  if not redis.call('LPOS', P .. 'quick', entry) then
    redis.call('RPUSH', P .. 'quick', entry)
    back = back + 1
  end
end
return back
"#;
