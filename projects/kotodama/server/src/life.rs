//! A server's life: running, draining (no new matches; the ones in play finish) or stopping,
//! and the signals between the tasks that wait on it.

use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::{Notify, watch};

/// What the supervisor has been asked to do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Control {
    Run,
    Drain,
    Stop,
}

/// Where a server is in its life, shared by every task that asks.
pub(crate) struct Life {
    control: watch::Sender<Control>,
    /// Set once the last connections are being closed.
    stopping: AtomicBool,
    /// Woken when a match ends, for a drain waiting for the last.
    match_ended: Notify,
    stopped: watch::Sender<bool>,
}

impl Life {
    pub fn new() -> Life {
        Life {
            control: watch::channel(Control::Run).0,
            stopping: AtomicBool::new(false),
            match_ended: Notify::new(),
            stopped: watch::channel(false).0,
        }
    }

    /// Whether the server takes no new matches (draining or shutting down).
    pub fn draining(&self) -> bool {
        *self.control.borrow() != Control::Run
    }

    /// Whether the last connections are being closed.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// Asks for a drain, unless one (or a stop) was asked for already.
    pub fn drain(&self) {
        self.control.send_if_modified(|c| {
            let run = *c == Control::Run;
            if run {
                *c = Control::Drain;
            }
            run
        });
    }

    /// Asks for a stop now.
    pub fn shutdown(&self) {
        self.control.send_replace(Control::Stop);
    }

    /// What has been asked, to wait on.
    pub fn control(&self) -> watch::Receiver<Control> {
        self.control.subscribe()
    }

    /// Says a match has ended, to a drain waiting for the last.
    pub fn match_ended(&self) {
        self.match_ended.notify_one();
    }

    /// Resolves when a match ends.
    pub async fn a_match_ended(&self) {
        self.match_ended.notified().await;
    }

    /// The last connections are being closed.
    pub fn set_stopping(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    /// The server has shut down.
    pub fn set_stopped(&self) {
        self.stopped.send_replace(true);
    }

    /// Whether the server has shut down.
    pub fn is_stopped(&self) -> bool {
        *self.stopped.borrow()
    }

    /// Resolves once the server has shut down.
    pub async fn stopped(&self) {
        let mut stopped = self.stopped.subscribe();
        let _ = stopped.wait_for(|s| *s).await;
    }
}
