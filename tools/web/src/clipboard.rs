//! The page's clipboard: a copy from a script is handed to the page, which writes it with
//! `navigator.clipboard.writeText` where the browser allows it.
//!
//! The browser answers later (a promise), so the runtime's clipboard is told the copy went
//! through, and the page says afterwards if the browser refused ([`Outbox::refused`]): from
//! then on copies stay in memory, as on a desktop without a clipboard, and the log says so
//! once. Pastes do not come through here: the page passes the browser's paste on as text.
//! Copies made between two frames collapse into the last one.

use std::cell::RefCell;
use std::rc::Rc;

use jengine_runtime::SystemClipboard;

/// What the runtime copied and the page has not written yet.
#[derive(Debug, Default)]
struct Shared {
    /// The latest copy not yet taken by the page.
    waiting: Option<String>,
    /// The latest copy, taken or not: what a paste through the runtime would read.
    last: Option<String>,
    /// Why the browser refused, once it did: copies are kept in memory from then on.
    refused: Option<String>,
}

/// The page's side: copies to write, and the browser's refusal to hear.
#[derive(Debug, Clone, Default)]
pub struct Outbox {
    shared: Rc<RefCell<Shared>>,
}

impl Outbox {
    /// A new outbox with nothing in it.
    pub fn new() -> Outbox {
        Outbox::default()
    }

    /// The copy to write to the browser's clipboard, if one came since the last call.
    pub fn take(&self) -> Option<String> {
        self.shared.borrow_mut().waiting.take()
    }

    /// The browser refused a write (`why` in its words). Returns what the log says, the first
    /// time only; copies stay in memory from here on.
    pub fn refused(&self, why: &str) -> Option<String> {
        let mut shared = self.shared.borrow_mut();
        if shared.refused.is_some() {
            return None;
        }
        shared.refused = Some(why.to_string());
        shared.waiting = None;
        Some(format!(
            "the browser does not let this page write the clipboard ({why}): Clipboard.copy keeps its text in memory"
        ))
    }

    /// The runtime's clipboard, writing to this outbox.
    pub fn clipboard(&self) -> Box<dyn SystemClipboard> {
        Box::new(PageClipboard {
            shared: self.shared.clone(),
        })
    }
}

/// The [`SystemClipboard`] the runtime is handed on the web.
struct PageClipboard {
    shared: Rc<RefCell<Shared>>,
}

impl SystemClipboard for PageClipboard {
    fn text(&mut self) -> Result<Option<String>, String> {
        Ok(self.shared.borrow().last.clone())
    }

    fn set_text(&mut self, text: &str) -> Result<(), String> {
        let mut shared = self.shared.borrow_mut();
        shared.last = Some(text.to_string());
        if shared.refused.is_none() {
            shared.waiting = Some(text.to_string());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_reach_the_page_until_the_browser_refuses_then_stay_in_memory() {
        let outbox = Outbox::new();
        let mut board = outbox.clipboard();
        assert_eq!(outbox.take(), None);
        board.set_text("one").unwrap();
        board.set_text("two").unwrap();
        assert_eq!(
            outbox.take().as_deref(),
            Some("two"),
            "the last copy of a frame"
        );
        assert_eq!(outbox.take(), None);
        let said = outbox.refused("NotAllowedError").unwrap();
        assert!(
            said.contains("NotAllowedError") && said.contains("in memory"),
            "{said}"
        );
        assert_eq!(outbox.refused("again"), None, "said once");
        board.set_text("three").unwrap();
        assert_eq!(outbox.take(), None);
        assert_eq!(board.text().unwrap().as_deref(), Some("three"));
    }
}
