//! `saltmarch-art`: writes Saltmarch's textures, and on request a preview of them.
//!
//! ```text
//! saltmarch-art [--out DIR] [--preview DIR]
//! ```
//! `--out` defaults to the project's `assets/textures/`; `--preview` also writes
//! `art-preview.png` (the battle sheet and the portraits stacked) into DIR.

use std::process::ExitCode;

use saltmarch_art::{committed_dir, preview, write_textures};

fn main() -> ExitCode {
    saltmarch_art::generator::main("saltmarch-art", committed_dir(), write_textures, || {
        vec![("art-preview.png", preview())]
    })
}
