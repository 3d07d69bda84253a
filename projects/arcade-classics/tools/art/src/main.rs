//! `arcade-art`: writes Umber Warren's textures, and on request a preview of them.
//!
//! ```text
//! arcade-art [--out DIR] [--preview DIR]
//! ```
//! `--out` defaults to the project's `assets/textures/`; `--preview` also writes
//! `art-preview.png` (a contact sheet) and `art-mock.png` (a mock screen) into DIR.

use std::process::ExitCode;

use arcade_art::{committed_dir, preview, write_textures};

fn main() -> ExitCode {
    arcade_art::generator::main("arcade-art", committed_dir(), write_textures, || {
        vec![
            ("art-preview.png", preview::contact_sheet()),
            ("art-mock.png", preview::mock()),
        ]
    })
}
