//! What the desktop lends a runtime: ALSA's default sound device and the system clipboard
//! (through arboard, only where there is a display).

use jengine_runtime::{Platform, SystemClipboard};

/// The desktop's sound device and clipboard, opened when a run asks for them.
pub fn platform() -> Platform {
    Platform {
        sound_device: crate::alsa::open_default_device,
        clipboard: open_clipboard,
    }
}

fn open_clipboard() -> Result<Box<dyn SystemClipboard>, String> {
    if !crate::window::display_available() {
        return Err("no display".to_string());
    }
    arboard::Clipboard::new()
        .map(|board| Box::new(Board(board)) as Box<dyn SystemClipboard>)
        .map_err(|e| e.to_string())
}

struct Board(arboard::Clipboard);

impl SystemClipboard for Board {
    fn text(&mut self) -> Result<Option<String>, String> {
        match self.0.get_text() {
            Ok(text) => Ok(Some(text)),
            Err(arboard::Error::ContentNotAvailable) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    fn set_text(&mut self, text: &str) -> Result<(), String> {
        self.0.set_text(text).map_err(|e| e.to_string())
    }
}
