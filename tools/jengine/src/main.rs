//! `jengine`: check, run and document jengine projects. See `jengine --help`.

fn main() -> std::process::ExitCode {
    jengine_tool::cli::tool_main()
}
