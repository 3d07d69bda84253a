//! `rpg-art`: writes Seven Stairs' textures, and on request a preview of them.
//!
//! ```text
//! rpg-art [--out DIR] [--preview DIR]
//! ```
//! `--out` defaults to the project's `assets/textures/`; `--preview` also writes
//! `art-preview.png` (a contact sheet) and `art-mock.png` (a mock screen) into DIR.

use std::process::ExitCode;

use rpg_art::{committed_dir, preview, write_textures};

fn main() -> ExitCode {
    rpg_art::generator::main("rpg-art", committed_dir(), write_textures, || {
        vec![
            ("art-preview.png", preview::contact_sheet()),
            ("art-mock.png", preview::mock()),
        ]
    })
}
