//! What a connection speaks: the generic frames any script can send, or a package's own typed
//! messages, named in the `online` component and found in the world's [`Protocols`].
//!
//! Scripts always hand over and read back tables. Under a typed protocol a table is read as the
//! package's message type and checked before it is sent, and what arrives is decoded straight
//! into the package's type and checked before it becomes a table again: the bytes on the wire
//! are the messages' own postcard, not a tree of named fields, so a server written with the
//! same types reads them without any dynamic step.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use jengine::{Registry, World};
use jengine_net::{Client, ClientConfig, Codec, ConnectError, Event, SendError, State, Value};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The name of the generic protocol: any table, as a `jengine_net::Value`.
pub const GENERIC: &str = "";

/// Why a frame a script handed over was not sent.
#[derive(Debug, Clone, PartialEq)]
pub enum NotSent {
    /// The table is no message of the connection's protocol: the script's mistake.
    Shape(String),
    /// The transport would not take it now (full queue, rate limit, closed): news for the bag.
    Transport(SendError),
}

/// A live connection that speaks tables to scripts, whatever it speaks on the wire.
pub trait Speaker: Send + Sync {
    /// Sends one table.
    fn send(&mut self, frame: &serde_json::Value) -> Result<(), NotSent>;
    /// What happened since the last poll; a message that arrived is a table, or an error event
    /// when it broke the protocol's checks.
    fn poll(&mut self) -> Vec<Event<serde_json::Value>>;
    /// The connection's state.
    fn state(&self) -> State;
    /// The round trip, once measured.
    fn round_trip(&self) -> Option<Duration>;
    /// Closes the connection (1000).
    fn close(&mut self);
}

/// A protocol a connection can speak: how to open a connection that speaks it.
pub trait Protocol: Send + Sync {
    /// Opens a connection to `url` (the codec in `config` is the protocol's own).
    fn connect(&self, url: &str, config: ClientConfig) -> Result<Box<dyn Speaker>, ConnectError>;
}

/// The protocols the linked packages speak, by name: a world resource filled by the packages'
/// set-up steps ([`protocol`]). The generic one is always there.
#[derive(Clone, Default)]
pub struct Protocols(BTreeMap<String, Arc<dyn Protocol>>);

impl Protocols {
    /// The protocol called `name`, the generic one for [`GENERIC`].
    pub fn get(&self, name: &str) -> Option<Arc<dyn Protocol>> {
        if name == GENERIC {
            return Some(Arc::new(Generic));
        }
        self.0.get(name).cloned()
    }

    /// The names of every protocol but the generic one, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    /// Adds (or replaces) the protocol called `name`.
    pub fn add(&mut self, name: &str, protocol: Arc<dyn Protocol>) {
        self.0.insert(name.to_string(), protocol);
    }
}

/// Declares, from a package's `register`, a typed protocol called `name`: frames are version
/// byte `version` then the postcard of an `Out` (this end sends) or an `In` (this end hears),
/// each passed through its check before it is trusted. A scene's `online` component names it
/// as its `protocol`.
pub fn protocol<Out, In>(
    reg: &mut Registry,
    name: &'static str,
    version: u8,
    check_out: fn(&Out) -> Result<(), String>,
    check_in: fn(&In) -> Result<(), String>,
) where
    Out: Serialize + DeserializeOwned + Send + 'static,
    In: Serialize + DeserializeOwned + Send + 'static,
{
    reg.setup(&format!("protocol {name}"), move |world: &mut World| {
        let typed: Typed<Out, In> = Typed {
            version,
            check_out,
            check_in,
        };
        world
            .resources
            .get_or_default::<Protocols>()
            .add(name, Arc::new(typed));
    });
}

/// The generic protocol: any table as a `Value`, behind version byte 1.
struct Generic;

/// The generic frames' version byte.
pub const GENERIC_VERSION: u8 = 1;

impl Protocol for Generic {
    fn connect(
        &self,
        url: &str,
        mut config: ClientConfig,
    ) -> Result<Box<dyn Speaker>, ConnectError> {
        config.codec = Codec {
            version: GENERIC_VERSION,
            ..config.codec
        };
        Ok(Box::new(Client::<Value, Value>::connect(url, config)?))
    }
}

impl Speaker for Client<Value, Value> {
    fn send(&mut self, frame: &serde_json::Value) -> Result<(), NotSent> {
        let value = Value::from_json(frame).map_err(|e| NotSent::Shape(e.to_string()))?;
        Client::send(self, &value).map_err(NotSent::Transport)
    }

    fn poll(&mut self) -> Vec<Event<serde_json::Value>> {
        Client::poll(self)
            .into_iter()
            .map(|event| map_message(event, |v| Ok(v.to_json())))
            .collect()
    }

    fn state(&self) -> State {
        Client::state(self)
    }

    fn round_trip(&self) -> Option<Duration> {
        Client::round_trip(self)
    }

    fn close(&mut self) {
        Client::close(self)
    }
}

/// A package's typed protocol.
struct Typed<Out, In> {
    version: u8,
    check_out: fn(&Out) -> Result<(), String>,
    check_in: fn(&In) -> Result<(), String>,
}

impl<Out, In> Protocol for Typed<Out, In>
where
    Out: Serialize + DeserializeOwned + Send + 'static,
    In: Serialize + DeserializeOwned + Send + 'static,
{
    fn connect(
        &self,
        url: &str,
        mut config: ClientConfig,
    ) -> Result<Box<dyn Speaker>, ConnectError> {
        config.codec = Codec {
            version: self.version,
            ..config.codec
        };
        Ok(Box::new(TypedSpeaker {
            client: Client::<Out, In>::connect(url, config)?,
            check_out: self.check_out,
            check_in: self.check_in,
        }))
    }
}

struct TypedSpeaker<Out, In> {
    client: Client<Out, In>,
    check_out: fn(&Out) -> Result<(), String>,
    check_in: fn(&In) -> Result<(), String>,
}

impl<Out, In> Speaker for TypedSpeaker<Out, In>
where
    Out: Serialize + DeserializeOwned + Send + 'static,
    In: Serialize + DeserializeOwned + Send + 'static,
{
    fn send(&mut self, frame: &serde_json::Value) -> Result<(), NotSent> {
        let out = Out::deserialize(frame).map_err(|e| NotSent::Shape(e.to_string()))?;
        (self.check_out)(&out).map_err(NotSent::Shape)?;
        self.client.send(&out).map_err(NotSent::Transport)
    }

    fn poll(&mut self) -> Vec<Event<serde_json::Value>> {
        let check = self.check_in;
        self.client
            .poll()
            .into_iter()
            .map(|event| {
                map_message(event, |msg| {
                    check(&msg).map_err(|why| format!("the server sent a bad message: {why}"))?;
                    serde_json::to_value(&msg)
                        .map_err(|e| format!("the server's message makes no table: {e}"))
                })
            })
            .collect()
    }

    fn state(&self) -> State {
        self.client.state()
    }

    fn round_trip(&self) -> Option<Duration> {
        self.client.round_trip()
    }

    fn close(&mut self) {
        self.client.close()
    }
}

/// An event with its message made a table; a message that cannot be becomes an error event.
fn map_message<In>(
    event: Event<In>,
    table: impl FnOnce(In) -> Result<serde_json::Value, String>,
) -> Event<serde_json::Value> {
    match event {
        Event::Message(msg) => match table(msg) {
            Ok(t) => Event::Message(t),
            Err(why) => Event::Error(why),
        },
        Event::Connected => Event::Connected,
        Event::Closed { code, why } => Event::Closed { code, why },
        Event::Error(why) => Event::Error(why),
        Event::Reconnecting { attempt, in_ms } => Event::Reconnecting { attempt, in_ms },
    }
}
