//! `miau-art`: writes Miau's textures.
//!
//! ```text
//! miau-art [--out DIR]
//! ```
//! `--out` defaults to the project's `assets/textures/`.

use std::process::ExitCode;

fn main() -> ExitCode {
    jengine_paint::generator::main(
        "miau-art",
        miau_art::committed_dir(),
        miau_art::write_textures,
        Vec::new,
    )
}
