//! A gift handed to the game by its host rather than on the command line: the web page's
//! `index.html#gift=<code>` (`tools/web/page/gift.js`).
//!
//! Natively a gift arrives as the launch arguments `--gift <link>` ([`jengine::Launch`]). A
//! page has no command line, so it offers the code through the module's `miau_gift` export
//! before the game starts; the game takes it where it would have read `--gift`, once per run,
//! and opens it the same way: decoded, validated and shown on the Gift screen for the
//! player's decision, or refused there with the same message. Nothing is installed by
//! offering it.
//!
//! The code is what follows `#` in a share link (`pack=1.…`) or a whole share link.

use std::sync::Mutex;

use crate::share::DEFAULT_LINK_BASE;

/// The code a host offered and the game has not taken yet.
static OFFERED: Mutex<Option<String>> = Mutex::new(None);

/// The share link a gift code stands for: a link as it is, a bare fragment under
/// [`DEFAULT_LINK_BASE`]. Surrounding blanks are dropped; nothing else is checked here (the
/// link decoder refuses what is not a pack, as it does for `--gift`).
pub fn gift_link(code: &str) -> String {
    let code = code.trim();
    if code.contains('#') {
        code.to_string()
    } else {
        format!("{DEFAULT_LINK_BASE}#{code}")
    }
}

/// Offers `code` to the game: the next session opened without a `--gift` takes it. A later
/// offer replaces one not yet taken.
pub fn offer_gift(code: &str) {
    let mut offered = OFFERED.lock().unwrap_or_else(|e| e.into_inner());
    *offered = Some(gift_link(code));
}

/// The offered gift's link, taken (so it opens once).
pub(crate) fn take_offered() -> Option<String> {
    OFFERED.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// The page's door to [`offer_gift`]: `len` bytes of UTF-8 at `ptr` in the module's memory
/// (bytes that are not UTF-8 are replaced, and the link decoder then refuses them). Returns 1.
///
/// # Safety
/// `ptr` points to `len` readable bytes (the page wrote them into `jengine_input`'s room).
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn miau_gift(ptr: *const u8, len: u32) -> u32 {
    let bytes = if len == 0 || ptr.is_null() {
        &[][..]
    } else {
        // SAFETY: the caller wrote `len` bytes at `ptr` in this module's memory.
        unsafe { std::slice::from_raw_parts(ptr, len as usize) }
    };
    offer_gift(&String::from_utf8_lossy(bytes));
    1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share::decode_link;
    use crate::validate::PackError;

    #[test]
    fn a_bare_fragment_and_a_whole_link_are_the_same_gift() {
        assert_eq!(gift_link(" pack=1.abc \n"), "miau://play#pack=1.abc");
        assert_eq!(
            gift_link("https://example.org/miau/index.html#pack=1.abc"),
            "https://example.org/miau/index.html#pack=1.abc"
        );
    }

    #[test]
    fn a_tampered_or_empty_code_is_refused_by_the_link_decoder_with_its_reason() {
        for (code, why) in [
            ("", "not a Miau pack"),
            ("gift", "not a Miau pack"),
            ("pack=1.%%%", "not base64url"),
            ("pack=1.AAAA", "does not inflate"),
        ] {
            match decode_link(&gift_link(code)) {
                Err(PackError::Syntax(m)) => assert!(m.contains(why), "{code}: {m}"),
                other => panic!("{code}: {other:?}"),
            }
        }
    }
}
