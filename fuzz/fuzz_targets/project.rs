//! `project.jengine` text: the project file's parser and its checks.
#![no_main]

use jengine::host::ProjectFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match ProjectFile::parse(text) {
        Ok(file) => assert!(!file.name.trim().is_empty(), "a project has a name"),
        Err(message) => assert!(!message.is_empty(), "a refused project file says why"),
    }
});
