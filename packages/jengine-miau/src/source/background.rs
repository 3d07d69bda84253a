//! Pack scripts loaded on a thread of their own, so a pasted pack never holds up a frame.
//!
//! The script's engine (a QuickJS runtime, a Lua state) is made on the worker thread and never
//! leaves it; what crosses back is the checked data. The caller polls the [`Loading`] each
//! frame. When the time cap passes first, the caller's side says the script ran too long at
//! once and raises the shared [`Cancel`] flag, which the worker's interrupt handler and hook
//! read, so the worker stops at its next check and its result is dropped unread.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use super::{ScriptLimits, SourceKind, clock, load_cancellable, ran_too_long};
use crate::validate::{Checked, PackError};

/// A flag another thread raises to stop a running pack script at its next check.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A flag not yet raised.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks the script to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The most script threads that may be running at once. A cancelled script stops at its next
/// check, so the count only fills when scripts are started faster than they can stop.
pub const MAX_RUNNING_LOADS: usize = 8;

/// Script threads that have not ended yet, cancelled ones included.
static RUNNING: AtomicUsize = AtomicUsize::new(0);

/// Counts one running script thread for as long as it lives.
struct Running;

impl Running {
    fn enter() -> Option<Running> {
        RUNNING
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < MAX_RUNNING_LOADS).then_some(n + 1)
            })
            .ok()
            .map(|_| Running)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        RUNNING.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
/// The stack a script thread gets: as much as a main thread, for deeply nested data.
const WORKER_STACK: usize = 8 << 20;

/// A pack script loading on its own thread. Dropping it cancels the script.
pub struct Loading {
    result: mpsc::Receiver<Result<Checked, PackError>>,
    cancel: Cancel,
    /// On the seam's clock; `None` where none is set (the load itself then refuses).
    deadline: Option<Duration>,
    name: String,
    limits: ScriptLimits,
}

/// Starts loading and validating pack text on a new thread, with `limits` measured from now.
/// Never blocks: a thread that cannot start is an error the [`Loading`] reports.
pub fn load_in_background(
    text: String,
    kind: SourceKind,
    name: String,
    limits: ScriptLimits,
) -> Loading {
    let (send, result) = mpsc::channel();
    let cancel = Cancel::new();
    let loading = Loading {
        result,
        cancel: cancel.clone(),
        deadline: clock::elapsed().map(|now| now + limits.time),
        name: name.clone(),
        limits,
    };
    let Some(running) = Running::enter() else {
        let _ = send.send(Err(PackError::Script(format!(
            "{name}: {MAX_RUNNING_LOADS} pack scripts are still stopping; try again in a moment"
        ))));
        return loading;
    };
    // No threads on this target: the script runs here and now, stopped by the same deadline,
    // so a frame waits at most the time cap for it.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        let _running = running;
        let _ = send.send(load_cancellable(&text, kind, &name, limits, &cancel));
        loading
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        let worker_send = send.clone();
        let started = std::thread::Builder::new()
            .name("miau-pack-script".into())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let _running = running;
                let checked = load_cancellable(&text, kind, &name, limits, &cancel);
                // The receiver is gone when the caller gave up on this load; nothing to tell.
                let _ = worker_send.send(checked);
            });
        if let Err(e) = started {
            let _ = send.send(Err(PackError::Script(format!(
                "{}: cannot start the pack script: {e}",
                loading.name
            ))));
        }
        loading
    }
}

impl Loading {
    /// The result when the script has ended or its time is up; `None` while it runs. Once it
    /// returns a result, the loading is finished and should be dropped.
    pub fn poll(&self) -> Option<Result<Checked, PackError>> {
        match self.result.try_recv() {
            Ok(result) => Some(result),
            Err(mpsc::TryRecvError::Disconnected) => Some(Err(self.lost())),
            Err(mpsc::TryRecvError::Empty) if self.deadline.is_none_or(clock::passed) => {
                self.cancel.cancel();
                Some(Err(ran_too_long(&self.name, self.limits)))
            }
            Err(mpsc::TryRecvError::Empty) => None,
        }
    }

    /// Blocks until the script ends or its time is up.
    pub fn wait(self) -> Result<Checked, PackError> {
        // A result already there is taken without a timed wait (which reads `Instant`; on the
        // web, where the load ran in-line, the result is always there).
        match self.result.try_recv() {
            Ok(result) => return result,
            Err(mpsc::TryRecvError::Disconnected) => return Err(self.lost()),
            Err(mpsc::TryRecvError::Empty) => {}
        }
        let left = self
            .deadline
            .zip(clock::elapsed())
            .map_or(Duration::ZERO, |(end, now)| end.saturating_sub(now));
        match self.result.recv_timeout(left) {
            Ok(result) => result,
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(self.lost()),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                self.cancel.cancel();
                Err(ran_too_long(&self.name, self.limits))
            }
        }
    }

    /// The name the script is loaded under.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Stops the script at its next check; its result is never read.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    fn lost(&self) -> PackError {
        PackError::Script(format!(
            "{}: the pack script's thread ended without a result",
            self.name
        ))
    }
}

impl Drop for Loading {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}
