//! The clipboard `Clipboard.copy` writes to and a paste reads from: the system's in a window,
//! a string kept in memory headless.
//!
//! The last copy is always kept in memory too, so a test reads it back and a headless paste
//! returns it. The system clipboard is the host's ([`SystemClipboard`], opened through the
//! [`crate::Platform`]) and is opened on first use, so a game that never copies never talks to
//! it; where it cannot be opened (no display) the game goes on with the memory one and the log
//! says so once.

/// A machine's clipboard, as a host gives it to the runtime.
pub trait SystemClipboard {
    /// The clipboard's text: `Ok(None)` when it is empty or holds something that is not text.
    fn text(&mut self) -> Result<Option<String>, String>;
    /// Puts `text` on the clipboard.
    fn set_text(&mut self, text: &str) -> Result<(), String>;
}

/// How a host opens its system clipboard.
pub type OpenClipboard = fn() -> Result<Box<dyn SystemClipboard>, String>;

/// Where copies go and pastes come from.
pub struct Clipboard {
    system: System,
    copied: Option<String>,
}

enum System {
    /// Headless: memory only.
    Off,
    /// A window, the system clipboard not yet needed.
    Unopened(OpenClipboard),
    Open(Box<dyn SystemClipboard>),
    /// It could not be opened (or stopped working); memory only from here on.
    Missing,
}

impl Clipboard {
    /// A clipboard kept in memory only: headless runs and tests, so they never read or change
    /// the machine's clipboard.
    pub fn memory() -> Clipboard {
        Clipboard {
            system: System::Off,
            copied: None,
        }
    }

    /// The system clipboard `open` gives, opened when first used.
    pub fn system(open: OpenClipboard) -> Clipboard {
        Clipboard {
            system: System::Unopened(open),
            copied: None,
        }
    }

    /// The text copied last, if any: what a headless paste returns.
    pub fn copied(&self) -> Option<&str> {
        self.copied.as_deref()
    }

    /// Puts `text` on the clipboard. Returns what the log should say once: that there is no
    /// system clipboard and the copy is kept in memory.
    pub fn copy(&mut self, text: String) -> Option<String> {
        let said = self.open();
        let failed = match &mut self.system {
            System::Open(board) => board.set_text(&text).err(),
            _ => None,
        };
        self.copied = Some(text);
        match failed {
            Some(e) => Some(self.give_up(&e.to_string())),
            None => said,
        }
    }

    /// The clipboard's text, if it holds any, and what the log should say once (as for
    /// [`Clipboard::copy`]). Without a system clipboard it is the last copy.
    pub fn paste(&mut self) -> (Option<String>, Option<String>) {
        let said = self.open();
        let read = match &mut self.system {
            System::Open(board) => board.text(),
            _ => return (self.copied.clone(), said),
        };
        match read {
            // Empty, or something that is not text (a picture): nothing to paste.
            Ok(text) => (text, said),
            Err(e) => {
                let said = self.give_up(&e.to_string());
                (self.copied.clone(), Some(said))
            }
        }
    }

    /// Opens the system clipboard if it is wanted and not yet open; a failure is said once.
    fn open(&mut self) -> Option<String> {
        let System::Unopened(open) = self.system else {
            return None;
        };
        match open() {
            Ok(board) => {
                self.system = System::Open(board);
                None
            }
            Err(e) => Some(self.give_up(&e)),
        }
    }

    fn give_up(&mut self, why: &str) -> String {
        self.system = System::Missing;
        format!("no system clipboard here ({why}): Clipboard.copy keeps its text in memory")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_pastes_the_last_copy() {
        let mut board = Clipboard::memory();
        assert_eq!(board.paste(), (None, None));
        assert_eq!(board.copy("one".into()), None);
        assert_eq!(board.copy("two".into()), None);
        assert_eq!(board.copied(), Some("two"));
        assert_eq!(board.paste(), (Some("two".into()), None));
    }

    #[test]
    fn a_missing_system_clipboard_keeps_copies_in_memory_and_says_so_once() {
        let mut board = Clipboard::system(|| Err("no display".into()));
        // As if opening had failed, whatever this machine has.
        let said = board.give_up("no display");
        assert!(said.contains("keeps its text in memory"), "{said}");
        assert_eq!(board.copy("link".into()), None);
        assert_eq!(board.paste(), (Some("link".into()), None));
    }
}
