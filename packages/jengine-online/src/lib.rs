//! `jengine-online`: a connection scripts hold on an entity. `Online.connect(e, url)` opens it
//! (on the transport's own thread: a frame never waits for the network), `Online.send(e, table)`
//! sends any table as a frame, and the `Online` bag says, each frame, the connection's status,
//! its round trip, the frames that arrived and what happened (connected, message, closed with
//! why, error). Any project can speak its own protocol with it; a package can read the same
//! frames from the bag (Kotodama's battles do).
//!
//! By default frames are `jengine_net::Value`s behind protocol version byte 1, so a server
//! written with typed serde messages reads them with `value.read::<T>()`. A package may declare
//! a typed protocol of its own ([`protocol()`]); an `online` component that names it sends and
//! hears that protocol's postcard messages, while its scripts still hand over and read tables.
//!
//! ```text
//! scene:  { "name": "net", "online": { "url": "ws://127.0.0.1:7777" } }
//! script: Online.connect(e)
//!         Online.send(e, { Hello = { version = 1, name = "tama" } })
//!         for _, frame in ipairs(Entity.get(e, "Online").frames) do ... end
//! ```
#![warn(missing_docs)]

use jengine::value::{any, entity, string};
use jengine::{Entity, Package, Registry, World};
use jengine_net::{ClientConfig, Event, Reconnect, State};
use serde::{Deserialize, Serialize};

mod protocol;

pub use protocol::{GENERIC, GENERIC_VERSION, NotSent, Protocol, Protocols, Speaker, protocol};

/// The protocol version byte of the generic frames.
pub const PROTOCOL: u8 = GENERIC_VERSION;
/// The most frames the bag hands to scripts in one frame; the rest wait for the next.
pub const MAX_FRAMES_PER_FRAME: usize = 256;

/// The `online` scene component: the server a script means to connect to, and whether to
/// try again when a connection is lost.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Online {
    /// `ws://host:port/path` (the server's address, from settings); `Online.connect` may give
    /// another.
    pub url: String,
    /// Times to reconnect after a lost connection (0: never).
    pub reconnect: u32,
    /// The protocol spoken: a name a linked package declared ([`protocol()`]), or empty for
    /// the generic frames any table makes.
    pub protocol: String,
}

impl Online {
    /// A URL that is empty or says `ws://` (the only scheme this build speaks).
    pub fn check(&self) -> Result<(), String> {
        if !self.url.is_empty() && !self.url.starts_with("ws://") {
            return Err(format!(
                "url: {:?} is not a ws:// address (this build speaks plain WebSocket)",
                self.url
            ));
        }
        if self.protocol.len() > 64 || self.protocol.chars().any(char::is_control) {
            return Err(format!(
                "protocol: {:?} is no protocol name (at most 64 characters, none of them control characters)",
                self.protocol
            ));
        }
        if self.reconnect > 100 {
            return Err(format!(
                "reconnect: {} is more than 100 tries",
                self.reconnect
            ));
        }
        Ok(())
    }
}

/// What happened to a connection, for scripts.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OnlineEvent {
    /// `connected`, `message`, `closed`, `error` or `reconnecting`.
    pub event: String,
    /// Why (a close or an error), in words.
    pub why: Option<String>,
    /// The WebSocket close code, for `closed`.
    pub code: Option<u16>,
}

/// The `Online` bag: the connection as scripts see it this frame.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct OnlineBag {
    /// `idle` (never connected), `connecting`, `open`, `waiting` (to reconnect) or `closed`.
    pub status: String,
    /// The address connected to.
    pub url: String,
    /// The round trip in milliseconds, once measured.
    pub round_trip: Option<f64>,
    /// The frames that arrived this frame, in order, as tables.
    pub frames: Vec<serde_json::Value>,
    /// What happened this frame, in order.
    pub events: Vec<OnlineEvent>,
    /// Why the connection last closed (kept until the next connect).
    pub closed: Option<String>,
    /// Frames sent since connecting.
    pub sent: u64,
    /// Frames received since connecting.
    pub received: u64,
}

/// The live connection of an `online` entity (not in scenes; made by `Online.connect`).
pub struct Link {
    client: Box<dyn Speaker>,
    url: String,
    /// Events seen by commands this frame (a refused send), published with the rest.
    pending: Vec<OnlineEvent>,
    /// Frames polled but not yet handed out (over the per-frame cap).
    backlog: std::collections::VecDeque<serde_json::Value>,
    closed: Option<String>,
    sent: u64,
    received: u64,
}

fn status(state: State) -> &'static str {
    match state {
        State::Connecting => "connecting",
        State::Open => "open",
        State::Waiting => "waiting",
        State::Closed => "closed",
    }
}

fn connect(world: &mut World, e: Entity, url: Option<String>) -> Result<(), String> {
    let online = world
        .entities
        .get::<&Online>(e)
        .map(|o| (*o).clone())
        .map_err(|_| format!("entity {} has no online component", world.describe(e)))?;
    let url = url.filter(|u| !u.is_empty()).unwrap_or(online.url.clone());
    if url.is_empty() {
        return Err("Online.connect: no address (give one, or set online.url)".into());
    }
    let Some(protocol) = world
        .resources
        .get::<Protocols>()
        .cloned()
        .unwrap_or_default()
        .get(&online.protocol)
    else {
        let known = world
            .resources
            .get::<Protocols>()
            .map_or(String::new(), |p| p.names().collect::<Vec<_>>().join(", "));
        return Err(format!(
            "Online.connect: no linked package speaks protocol {:?} (known: {})",
            online.protocol,
            if known.is_empty() {
                "none but the generic frames"
            } else {
                &known
            }
        ));
    };
    let config = ClientConfig {
        reconnect: if online.reconnect == 0 {
            Reconnect::OFF
        } else {
            Reconnect::attempts(online.reconnect)
        },
        seed: world
            .resources
            .get::<jengine::Time>()
            .map(|t| t.seed)
            .unwrap_or(0),
        ..ClientConfig::default()
    };
    // A refused address is said in the bag, like any failure a player can cause.
    let client = match protocol.connect(&url, config) {
        Ok(c) => c,
        Err(err) => {
            let bag = OnlineBag {
                status: "closed".into(),
                url: url.clone(),
                events: vec![OnlineEvent {
                    event: "error".into(),
                    why: Some(err.to_string()),
                    code: None,
                }],
                closed: Some(err.to_string()),
                ..OnlineBag::default()
            };
            let _ = world.entities.remove_one::<Link>(e);
            world
                .entities
                .insert_one(e, bag)
                .map_err(|_| "the entity is gone".to_string())?;
            return Ok(());
        }
    };
    if let Ok(mut old) = world.entities.remove_one::<Link>(e) {
        old.client.close();
    }
    let link = Link {
        client,
        url: url.clone(),
        pending: Vec::new(),
        backlog: Default::default(),
        closed: None,
        sent: 0,
        received: 0,
    };
    world
        .entities
        .insert(e, (link, OnlineBag::default()))
        .map_err(|_| "the entity is gone".to_string())
}

fn send(world: &mut World, e: Entity, frame: serde_json::Value) -> Result<(), String> {
    let mut link = world
        .entities
        .get::<&mut Link>(e)
        .map_err(|_| "Online.send: not connected (call Online.connect first)".to_string())?;
    match link.client.send(&frame) {
        Ok(()) => {
            link.sent += 1;
            Ok(())
        }
        Err(NotSent::Shape(err)) => Err(format!("Online.send: {err}")),
        Err(NotSent::Transport(err)) => {
            // A full queue, the rate limit or a closed connection is the game's news, not a
            // script error: said in the bag this frame.
            link.pending.push(OnlineEvent {
                event: "error".into(),
                why: Some(format!("not sent: {err}")),
                code: None,
            });
            Ok(())
        }
    }
}

/// Every connection's events of this frame into its bag.
fn poll(world: &mut World, _dt: f64) {
    for (online, link, bag) in world
        .entities
        .query_mut::<(&Online, &mut Link, &mut OnlineBag)>()
    {
        let _ = online;
        bag.events = std::mem::take(&mut link.pending);
        for event in link.client.poll() {
            let out = match event {
                Event::Connected => OnlineEvent {
                    event: "connected".into(),
                    ..OnlineEvent::default()
                },
                Event::Message(table) => {
                    link.received += 1;
                    link.backlog.push_back(table);
                    continue;
                }
                Event::Closed { code, why } => {
                    link.closed = Some(why.clone());
                    OnlineEvent {
                        event: "closed".into(),
                        why: Some(why),
                        code: Some(code),
                    }
                }
                Event::Error(why) => OnlineEvent {
                    event: "error".into(),
                    why: Some(why),
                    code: None,
                },
                Event::Reconnecting { attempt, in_ms } => OnlineEvent {
                    event: "reconnecting".into(),
                    why: Some(format!("try {attempt} in {in_ms} ms")),
                    code: None,
                },
            };
            bag.events.push(out);
        }
        let n = link.backlog.len().min(MAX_FRAMES_PER_FRAME);
        bag.frames = link.backlog.drain(..n).collect();
        for _ in 0..bag.frames.len() {
            bag.events.push(OnlineEvent {
                event: "message".into(),
                ..OnlineEvent::default()
            });
        }
        bag.status = status(link.client.state()).into();
        bag.url = link.url.clone();
        bag.round_trip = link.client.round_trip().map(|d| d.as_secs_f64() * 1000.0);
        bag.closed = link.closed.clone();
        bag.sent = link.sent;
        bag.received = link.received;
    }
    // An online entity never connected says so.
    let idle: Vec<Entity> = world
        .entities
        .query::<(Entity, &Online)>()
        .without::<&OnlineBag>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    for e in idle {
        let bag = OnlineBag {
            status: "idle".into(),
            ..OnlineBag::default()
        };
        let _ = world.entities.insert_one(e, bag);
    }
}

/// The frames that arrived this frame on the connection at `e`, for a package that speaks a
/// protocol over it (as tables, in order).
pub fn frames(world: &World, e: Entity) -> Vec<serde_json::Value> {
    world
        .entities
        .get::<&OnlineBag>(e)
        .map(|b| b.frames.clone())
        .unwrap_or_default()
}

/// Sends a frame on the connection at `e` for a package (a refused send is said in the bag).
pub fn send_frame(world: &mut World, e: Entity, frame: serde_json::Value) -> Result<(), String> {
    send(world, e, frame)
}

/// Whether the connection at `e` is open.
pub fn is_open(world: &World, e: Entity) -> bool {
    world
        .entities
        .get::<&Link>(e)
        .is_ok_and(|l| l.client.state() == State::Open)
}

/// The entry a project's listing of `jengine-net` names. The transport itself links no
/// engine (a room server builds on it alone), so its listable package lives here, above it.
/// It registers nothing: the transport has no components, commands or bags of its own (the
/// `online` component is what scripts use).
pub struct NetPackage;

impl Package for NetPackage {
    fn name(&self) -> &'static str {
        "jengine-net"
    }

    fn register(&self, _reg: &mut Registry) {}
}

/// The package entry point.
pub struct OnlinePackage;

impl Package for OnlinePackage {
    fn name(&self) -> &'static str {
        "jengine-online"
    }

    fn register(&self, reg: &mut Registry) {
        reg.component_checked::<Online>("online", Online::check);
        reg.command(
            "Online",
            "connect",
            (entity("e"), string("url").optional()),
            |w, (e, url)| connect(w, e, url),
        );
        reg.command(
            "Online",
            "send",
            (entity("e"), any("frame")),
            |w, (e, frame)| {
                let json = match frame {
                    jengine::Value::Nil => serde_json::Value::Null,
                    jengine::Value::Bool(b) => serde_json::Value::Bool(b),
                    jengine::Value::Int(i) => serde_json::Value::from(i),
                    jengine::Value::Num(n) => serde_json::Value::from(n),
                    jengine::Value::Str(s) => serde_json::Value::String(s),
                    jengine::Value::Table(t) => t,
                };
                send(w, e, json)
            },
        );
        reg.command("Online", "close", (entity("e"),), |w, (e,)| {
            if let Ok(mut link) = w.entities.get::<&mut Link>(e) {
                link.client.close();
            }
            Ok(())
        });
        reg.system("poll", poll);
        reg.bag::<OnlineBag>("Online");
    }
}
