//! The client in a browser (wasm32). This build has no socket of its own yet: a connection ends
//! at once, said in words, so a game runs (offline) and its online screens say why.

use std::marker::PhantomData;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{ClientConfig, ConnectError, Event, SendError, State, Target, check};
use crate::close::CloseReason;

/// A WebSocket client. In this build a connection ends at once with code 1006.
pub struct Client<Out, In> {
    url: String,
    events: Vec<Event<In>>,
    state: State,
    _out: PhantomData<fn(&Out)>,
}

impl<Out, In> std::fmt::Debug for Client<Out, In> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("url", &self.url)
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl<Out: Serialize, In: DeserializeOwned + Send + 'static> Client<Out, In> {
    /// Checks `url` and the settings; the connection then ends at once (see the module doc).
    pub fn connect(url: &str, config: ClientConfig) -> Result<Self, ConnectError> {
        Target::parse(url)?;
        check(&config)?;
        let why = format!("could not connect to {url}: this web build has no WebSocket client yet");
        Ok(Client {
            url: url.to_string(),
            events: vec![
                Event::Error(why.clone()),
                Event::Closed {
                    code: CloseReason::Lost(String::new()).code(),
                    why,
                },
            ],
            state: State::Closed,
            _out: PhantomData,
        })
    }

    /// Everything that happened since the last poll, oldest first.
    pub fn poll(&mut self) -> Vec<Event<In>> {
        std::mem::take(&mut self.events)
    }

    /// Refused: the connection is closed.
    pub fn send(&mut self, _payload: &Out) -> Result<(), SendError> {
        Err(SendError::Closed)
    }

    /// Nothing to close.
    pub fn close(&mut self) {}
}

impl<Out, In> Client<Out, In> {
    /// Where the client is in its life.
    pub fn state(&self) -> State {
        self.state
    }

    /// No round trip is measured.
    pub fn round_trip(&self) -> Option<Duration> {
        None
    }

    /// The URL the client connects to.
    pub fn url(&self) -> &str {
        &self.url
    }
}
