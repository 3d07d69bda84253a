//! What the engine is doing at this moment, for the one report that cannot ask: a panic.
//!
//! A Rust panic inside a package's command or system ends a web module (nothing unwinds on
//! wasm32), so the page can only say what was going on if someone wrote it down beforehand.
//! The seam writes it here as it runs each script callback, each command a script queued and
//! each system; a host's panic hook reads [`doing`]. Writing reuses one buffer, so a frame's
//! notes allocate nothing once it has grown.

use std::cell::RefCell;
use std::fmt::Write as _;

thread_local! {
    static NOTE: RefCell<String> = const { RefCell::new(String::new()) };
}

/// What the engine was last noted doing, such as `the command Kotoba.play, queued by
/// scripts/battle.lua in update`; empty between frames and before anything ran.
pub fn doing() -> String {
    NOTE.with(|n| n.try_borrow().map(|n| n.clone()).unwrap_or_default())
}

fn note(write: impl FnOnce(&mut String) -> std::fmt::Result) {
    NOTE.with(|n| {
        if let Ok(mut n) = n.try_borrow_mut() {
            n.clear();
            let _ = write(&mut n);
        }
    });
}

/// A script's callback is running.
pub(crate) fn callback(file: &str, callback: &str) {
    note(|n| write!(n, "{file} in {callback}"));
}

/// A command queued by a script is being applied.
pub(crate) fn command(namespace: &str, name: &str, file: &str, callback: &str) {
    note(|n| {
        write!(
            n,
            "the command {namespace}.{name}, queued by {file} in {callback}"
        )
    });
}

/// A package's system is running.
pub fn system(name: &str, package: &str) {
    note(|n| write!(n, "the system {name} of {package}"));
}

/// Nothing in particular: between the parts of a frame.
pub fn clear() {
    note(|_| Ok(()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_note_is_what_a_panic_hook_reads() {
        clear();
        assert_eq!(doing(), "");
        callback("scripts/a.lua", "update");
        assert_eq!(doing(), "scripts/a.lua in update");
        command("Kotoba", "play", "scripts/a.lua", "key");
        assert_eq!(
            doing(),
            "the command Kotoba.play, queued by scripts/a.lua in key"
        );
        system("battle", "jengine-kotoba");
        assert_eq!(doing(), "the system battle of jengine-kotoba");
        clear();
        assert_eq!(doing(), "");
    }

    #[test]
    fn a_command_runs_noted_with_the_script_and_callback_that_queued_it() {
        let mut probe = crate::script::probe::Probe::new(
            "function start(e) Bouncer.note(e) end\nfunction update(e) Bouncer.note(e) end\n",
        );
        probe.run(1);
        assert_eq!(
            probe.infos,
            [
                "doing: the command Bouncer.note, queued by assets/scripts/bad.lua in start",
                "doing: the command Bouncer.note, queued by assets/scripts/bad.lua in update",
            ]
        );
    }
}
