//! Share links: a whole pack carried in a URL fragment as compressed data.
//!
//! The fragment is `pack=1.` followed by the pack's JSON, deflated and base64url-encoded. A link
//! holds data only: decoding inflates (with a size cap), parses JSON and runs the validator, and
//! never evaluates any source, so opening a link is as safe as opening a JSON file.

use std::io::{Read, Write};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;

use crate::pack::Pack;
use crate::validate::{Checked, MAX_SOURCE_BYTES, PackError, validate};

/// Where links point when the caller has no address of its own.
pub const DEFAULT_LINK_BASE: &str = "miau://play";
/// The fragment key and format generation.
const FRAGMENT_PREFIX: &str = "pack=1.";
/// The largest pack data a link may inflate to: 4 MiB of JSON, eight times the source limit
/// (data is larger than the script that produced it). Parsed JSON takes many times its text in
/// memory, so the cap is what bounds a hostile link's cost; a bigger pack travels as a file.
pub const MAX_LINK_DATA: usize = 8 * MAX_SOURCE_BYTES;
/// The longest link text read at all: twice [`MAX_LINK_DATA`], more than base64 of any
/// deflated data under that cap. A longer link (pasted, or a page's `#gift=`) is refused before
/// it is decoded.
pub const MAX_LINK_TEXT: usize = 2 * MAX_LINK_DATA;

/// A link to `pack` at `base` (any URL without a fragment). A pack whose data is over
/// [`MAX_LINK_DATA`] gets no link, since no link decoder would take it back.
pub fn pack_link(pack: &Pack, base: &str) -> Result<String, PackError> {
    let json = pack.to_json().to_string();
    if json.len() > MAX_LINK_DATA {
        return Err(PackError::Io(format!(
            "pack '{}' is {} bytes of data, over the {MAX_LINK_DATA} a link can carry; share the exported file instead",
            pack.manifest.id,
            json.len()
        )));
    }
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
    // Writing to a Vec cannot fail.
    let compressed = encoder
        .write_all(json.as_bytes())
        .and_then(|_| encoder.finish())
        .unwrap_or_default();
    let base = base.split('#').next().unwrap_or(base);
    Ok(format!(
        "{base}#{FRAGMENT_PREFIX}{}",
        URL_SAFE_NO_PAD.encode(compressed)
    ))
}

/// Reads the pack a link carries and validates it. Nothing is installed.
pub fn decode_link(url: &str) -> Result<Checked, PackError> {
    let bad = |m: &str| PackError::Syntax(format!("share link: {m}"));
    if url.len() > MAX_LINK_TEXT {
        return Err(PackError::TooLarge {
            bytes: url.len(),
            limit: MAX_LINK_TEXT,
        });
    }
    let fragment = url
        .split_once('#')
        .map(|(_, f)| f)
        .ok_or_else(|| bad("it has no #fragment"))?;
    let data = fragment
        .strip_prefix(FRAGMENT_PREFIX)
        .ok_or_else(|| bad("the fragment is not a Miau pack (expected pack=1.)"))?;
    let compressed = URL_SAFE_NO_PAD
        .decode(data.trim_end_matches('='))
        .map_err(|e| bad(&format!("the data is not base64url: {e}")))?;
    let mut json = Vec::new();
    DeflateDecoder::new(compressed.as_slice())
        .take(MAX_LINK_DATA as u64 + 1)
        .read_to_end(&mut json)
        .map_err(|e| bad(&format!("the data does not inflate: {e}")))?;
    if json.len() > MAX_LINK_DATA {
        return Err(PackError::TooLarge {
            bytes: json.len(),
            limit: MAX_LINK_DATA,
        });
    }
    let value: serde_json::Value =
        serde_json::from_slice(&json).map_err(|e| bad(&format!("the data is not JSON: {e}")))?;
    validate(&value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worlds;
    use proptest::prelude::*;

    #[test]
    fn a_link_round_trips_the_pack() {
        let core = worlds::core().expect("core").pack;
        let link = pack_link(&core, "https://example.invalid/miau").expect("fits a link");
        assert!(link.starts_with("https://example.invalid/miau#pack=1."));
        assert_eq!(decode_link(&link).expect("decodes").pack, core);
    }

    #[test]
    fn a_link_carrying_source_is_never_run() {
        // A link whose data is JavaScript text rather than JSON is refused, not evaluated.
        let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
        encoder
            .write_all(b"module.exports = { manifest: {} }")
            .expect("write");
        let data = URL_SAFE_NO_PAD.encode(encoder.finish().expect("finish"));
        let err = decode_link(&format!("miau://play#pack=1.{data}")).expect_err("refused");
        assert!(err.to_string().contains("not JSON"), "{err}");
    }

    #[test]
    fn a_link_bomb_is_capped() {
        let mut encoder = DeflateEncoder::new(Vec::new(), Compression::best());
        encoder
            .write_all(&vec![b' '; MAX_LINK_DATA + 10])
            .expect("write");
        let data = URL_SAFE_NO_PAD.encode(encoder.finish().expect("finish"));
        let err = decode_link(&format!("x#pack=1.{data}")).expect_err("refused");
        assert!(matches!(err, PackError::TooLarge { .. }));
    }

    #[test]
    fn a_link_too_long_to_be_a_pack_is_refused_before_decoding() {
        let link = format!("x#pack=1.{}", "A".repeat(MAX_LINK_TEXT));
        assert_eq!(
            decode_link(&link).expect_err("refused"),
            PackError::TooLarge {
                bytes: link.len(),
                limit: MAX_LINK_TEXT
            }
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn decoding_any_text_is_a_typed_error(url in ".{0,200}") {
            // Random text is never a valid pack; what matters is an error, not a panic.
            prop_assert!(decode_link(&url).is_err());
            let link = format!("a#pack=1.{url}");
            prop_assert!(decode_link(&link).is_err());
        }
    }
}
