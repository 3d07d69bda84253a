//! A Miau pack's JSON text: parsed and validated as a pasted or installed `.json` pack is.
//!
//! A pack that passes must come back the same through the two ways it leaves the game: its
//! own JSON (`to_json`, which an export writes) and a share link.
#![no_main]

use jengine_miau::share::{decode_link, pack_link};
use jengine_miau::source::{SourceKind, load};
use jengine_miau::validate::validate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let checked = match load(text, SourceKind::Json, "fuzz.json") {
        Ok(checked) => checked,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    let again = validate(&checked.pack.to_json()).expect("an exported pack validates again");
    assert_eq!(
        again.pack, checked.pack,
        "an exported pack reads back the same"
    );
    if let Ok(link) = pack_link(&checked.pack, "miau://play") {
        let shared = decode_link(&link).expect("a share link opens");
        assert_eq!(
            shared.pack, checked.pack,
            "a shared pack reads back the same"
        );
    }
});
