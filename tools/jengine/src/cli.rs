//! The command line: `jengine check | run | shot | edit | viewport-build | docs`.
//!
//! The `jengine` binary itself links no game package. For `check` and `run` it builds the
//! project's viewport (see [`crate::viewport`]) and hands the same arguments to it; the
//! viewport binary runs them in-process with exactly the listed packages. `docs` does the
//! same with a viewport linking every package in the workspace.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jengine::Package;

use crate::input::InputScript;
use crate::render::Renderer;
use crate::runtime::{Options, Runtime, print_log};
use crate::viewport::{self, Profile};

/// `jengine --version`: the version, and the host sources this tool was built from (the
/// checkout every viewport it builds links against).
const HOST_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (host sources: the checkout holding ",
    env!("CARGO_MANIFEST_DIR"),
    ")"
);

/// The jengine tool.
#[derive(Debug, Parser)]
#[command(
    name = "jengine",
    version = HOST_VERSION,
    about = "Check, run and document jengine projects and packages."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Load every scene, script and table of a project without running it; report every problem.
    Check {
        /// The project folder (holding project.jengine).
        project: PathBuf,
        /// Build the viewport with the dev profile (faster to build, slower to run).
        #[arg(long)]
        dev: bool,
        /// Fail on warnings too (a package component a version 1 scene keeps inert).
        #[arg(long)]
        strict: bool,
    },
    /// Run a project.
    Run(RunArgs),
    /// Generate and build the crate that links exactly the project's listed packages.
    ViewportBuild {
        /// The project folder.
        project: PathBuf,
        /// Build with the dev profile.
        #[arg(long)]
        dev: bool,
    },
    /// Build the project for the browser: the page, its loader, the module and the project's
    /// files in one folder any static server can host.
    WebBuild {
        /// The project folder.
        project: PathBuf,
        /// Where the folder goes (target/web-build/<project> in the workspace when absent).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Build the module with the dev profile (quicker to build, slower to run).
        #[arg(long)]
        dev: bool,
    },
    /// Run a project headless and write one frame to a PNG.
    Shot(ShotArgs),
    /// Open the project in the editor: a page on this machine with the running game, the scene
    /// tree, an inspector, the log and the packages.
    Edit(EditArgs),
    /// Write docs/packages/<name>.md for every package in the workspace; given a project,
    /// write <project>/docs/packages/<name>.md for every package it lists, outside ones too.
    Docs {
        /// A project whose listed packages get pages (none: the workspace's packages).
        project: Option<PathBuf>,
        /// Where the pages go (docs/packages, or the project's docs/packages).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Build the docs viewport with the dev profile.
        #[arg(long)]
        dev: bool,
    },
}

#[derive(Debug, clap::Args)]
struct EditArgs {
    /// The project folder.
    project: PathBuf,
    /// The port on 127.0.0.1 (any free one when absent).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The scene to open (the project's start scene when absent).
    #[arg(long)]
    scene: Option<String>,
    /// Print the address instead of opening the browser.
    #[arg(long)]
    no_open: bool,
    /// Build the viewport (and rebuild it from the page) with the dev profile.
    #[arg(long)]
    dev: bool,
    /// Seed for every random stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep the game silent.
    #[arg(long)]
    mute: bool,
    /// The session's token (a session restarting on a new build keeps its own).
    #[arg(long, hide = true)]
    token: Option<String>,
    /// A scene's unsaved text carried over a restart.
    #[arg(long, hide = true)]
    unsaved: Option<PathBuf>,
    /// The undo and redo steps carried over a restart.
    #[arg(long, hide = true)]
    history: Option<PathBuf>,
    /// Open the scene running, as Play does, instead of paused in edit mode.
    #[arg(long)]
    play: bool,
    /// Start the project as the editor would and stop, serving nothing: exits 0 when it
    /// starts, else prints why (a rebuild asks its new binary this before moving onto it).
    #[arg(long, hide = true)]
    probe: bool,
}

#[derive(Debug, clap::Args)]
struct ShotArgs {
    /// The project folder.
    project: PathBuf,
    /// The scene to start in (the project's start scene when absent).
    #[arg(long)]
    scene: Option<String>,
    /// Frames to run before the picture is taken.
    #[arg(long, default_value_t = 1)]
    frames: u64,
    /// The PNG to write.
    #[arg(long)]
    out: PathBuf,
    /// Picture size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    size: (u32, u32),
    /// Timed pointer and key events (JSON).
    #[arg(long)]
    input: Option<PathBuf>,
    /// Seed for every random stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Build the viewport with the dev profile.
    #[arg(long)]
    dev: bool,
    /// Arguments for the game, after `--` (scripts read them with `Game.args()`).
    #[arg(last = true, value_name = "GAME ARGS")]
    args: Vec<String>,
}

/// `1280x720` → (1280, 720); both sides at least 1 and at most 16384.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("size {text:?} must look like 1280x720"))?;
    let side = |s: &str| -> Result<u32, String> {
        let n: i64 = s
            .trim()
            .parse()
            .map_err(|_| format!("size {text:?}: {s:?} is not a whole number"))?;
        if (1..=16384).contains(&n) {
            Ok(n as u32)
        } else {
            Err(format!(
                "size {text:?}: each side must be between 1 and 16384"
            ))
        }
    };
    Ok((side(w)?, side(h)?))
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The project folder.
    project: PathBuf,
    /// Run without a window (a machine with no display runs headless anyway).
    #[arg(long)]
    headless: bool,
    /// Frames to run (at 60 per second); headless runs default to 600, a window runs until closed.
    #[arg(long)]
    frames: Option<u64>,
    /// Write the last frame to this PNG.
    #[arg(long)]
    shot: Option<PathBuf>,
    /// Picture size for --shot and for runs without a display, WIDTHxHEIGHT (the project's window size when absent).
    #[arg(long, value_parser = parse_size)]
    size: Option<(u32, u32)>,
    /// In a window, write every event that reached scripts to this file (replay it with --input).
    #[arg(long)]
    record: Option<PathBuf>,
    /// Timed pointer and key events (JSON).
    #[arg(long)]
    input: Option<PathBuf>,
    /// Write every frame's bags, one JSON line per frame.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Seed for every random stream.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder for the player's data (Save.get/Save.set). A window keeps it in
    /// $XDG_DATA_HOME/jengine/<project> (or ~/.local/share/jengine/<project>) when absent; a
    /// headless run keeps it in memory.
    #[arg(long)]
    save_dir: Option<PathBuf>,
    /// Start in this scene instead of the project's start scene.
    #[arg(long)]
    scene: Option<String>,
    /// A headless run exits with status 1 when a script error or any error-level line was
    /// logged (so a CI can play a game as a test); this keeps the status 0.
    #[arg(long)]
    allow_errors: bool,
    /// Build the viewport (or with --web, the module) with the dev profile.
    #[arg(long)]
    dev: bool,
    /// Build the project for the browser, serve it on 127.0.0.1 and open it (the address is
    /// printed where there is no desktop); serves until stopped.
    #[arg(long, conflicts_with_all = ["headless", "frames", "shot", "size", "record", "input", "trace", "save_dir", "scene"])]
    web: bool,
    /// With --web, the port on 127.0.0.1 (any free one when absent).
    #[arg(long, requires = "web", default_value_t = 0)]
    port: u16,
    /// Arguments for the game, after `--` (scripts read them with `Game.args()`).
    #[arg(last = true, value_name = "GAME ARGS")]
    args: Vec<String>,
}

fn profile(dev: bool) -> Profile {
    if dev { Profile::Dev } else { Profile::Release }
}

fn fail(problems: &[String]) -> ExitCode {
    for p in problems {
        eprintln!("error: {p}");
    }
    ExitCode::FAILURE
}

/// Entry point of the `jengine` binary.
pub fn tool_main() -> ExitCode {
    let cli = Cli::parse();
    match &cli.command {
        Cmd::ViewportBuild { project, dev } => match viewport::build(project, profile(*dev), false)
        {
            Ok(v) => {
                let state = if v.rebuilt() { "built" } else { "up to date" };
                println!("viewport {state}: {}", v.binary.display());
                ExitCode::SUCCESS
            }
            Err(problems) => fail(&problems),
        },
        Cmd::WebBuild { project, out, dev } => {
            match crate::web_build::web_build(project, out.as_deref(), *dev) {
                Ok(build) => {
                    let what = if build.written.is_empty() {
                        "up to date".to_string()
                    } else {
                        format!("wrote {}", build.written.join(", "))
                    };
                    println!("web build in {}: {what}", build.out.display());
                    ExitCode::SUCCESS
                }
                Err(problems) => fail(&problems),
            }
        }
        Cmd::Check { project, dev, .. } => delegate(project, profile(*dev)),
        Cmd::Run(args) if args.web => run_web(args),
        Cmd::Run(args) => delegate(&args.project, profile(args.dev)),
        Cmd::Shot(args) => delegate(&args.project, profile(args.dev)),
        Cmd::Edit(args) => delegate(&args.project, profile(args.dev)),
        Cmd::Docs {
            project: Some(project),
            dev,
            ..
        } => delegate(project, profile(*dev)),
        Cmd::Docs { dev, .. } => {
            let root = viewport::workspace(Path::new("."));
            let metas = viewport::workspace_packages(&root);
            match viewport::build_for("docs", &root, &root, &metas, profile(*dev), false) {
                Ok(v) => exec(&v.binary),
                Err(e) => fail(&[e.to_string()]),
            }
        }
    }
}

/// `jengine run --web`: builds the web folder, serves it on the loopback address, opens the
/// page (with the run's seed) and serves until the process is stopped.
fn run_web(args: &RunArgs) -> ExitCode {
    if !args.args.is_empty() {
        return fail(&["a web build takes no game arguments after `--`".to_string()]);
    }
    let build = match crate::web_build::web_build(&args.project, None, args.dev) {
        Ok(build) => build,
        Err(problems) => return fail(&problems),
    };
    let served = match jengine_web::serve::serve(&build.out, args.port) {
        Ok(served) => served,
        Err(e) => return fail(&[e]),
    };
    let url = format!("{}index.html?seed={}", served.url(), args.seed);
    println!("serving {} at {url}", build.out.display());
    println!("stop with Ctrl-C");
    jengine_editor::open_browser(&url);
    loop {
        std::thread::park();
    }
}

/// Builds the project's viewport and runs this same command line in it. A build says what
/// it builds and why, and shows cargo's progress: a first build takes a while.
fn delegate(project: &Path, profile: Profile) -> ExitCode {
    match viewport::build(project, profile, false) {
        Ok(v) => exec(&v.binary),
        Err(problems) => fail(&problems),
    }
}

fn exec(binary: &Path) -> ExitCode {
    // Everything after the subcommand goes on as given, the game's arguments after `--` too.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    // On Unix the viewport takes this process's place, so a signal to `jengine run` or
    // `jengine edit` (SIGTERM from a service manager, Ctrl+C) reaches it and nothing is left
    // behind serving a page; its exit status is the command's.
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        let error = std::process::Command::new(binary).args(&args).exec();
        fail(&[format!("cannot start {}: {error}", binary.display())])
    }
    #[cfg(not(unix))]
    match std::process::Command::new(binary).args(&args).status() {
        Ok(status) if status.success() => ExitCode::SUCCESS,
        Ok(status) => ExitCode::from(status.code().unwrap_or(1).clamp(1, 255) as u8),
        Err(e) => fail(&[format!("cannot start {}: {e}", binary.display())]),
    }
}

/// Entry point of a generated viewport binary, linking `packages`.
pub fn viewport_main(packages: &[&dyn Package]) -> ExitCode {
    viewport_run(std::env::args_os(), packages)
}

/// A viewport binary's work for these command-line arguments (the first is the program's
/// name): what `viewport_main` does, callable from tests without a build.
pub fn viewport_run<I, T>(args: I, packages: &[&dyn Package]) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Cmd::Check {
            project, strict, ..
        } => {
            let report = crate::check::check(&project, packages);
            for note in &report.notes {
                eprintln!("note: {note}");
            }
            for warning in &report.warnings {
                eprintln!("warning: {warning}");
            }
            let (scenes, scripts, tables) = report.counts;
            let count =
                |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
            let warned = report.warnings.len();
            if report.ok() && (warned == 0 || !strict) {
                let warnings = match warned {
                    0 => String::new(),
                    n => format!("; {}", count(n, "warning")),
                };
                println!(
                    "{}: ok ({}, {}, {}{warnings})",
                    project.display(),
                    count(scenes, "scene"),
                    count(scripts, "script"),
                    count(tables, "table")
                );
                ExitCode::SUCCESS
            } else {
                for p in &report.problems {
                    eprintln!("error: {p}");
                }
                let mut said = format!("{} problem(s)", report.problems.len());
                if strict && warned > 0 {
                    said.push_str(&format!(" and {} (--strict)", count(warned, "warning")));
                }
                eprintln!("{}: {said}", project.display());
                ExitCode::FAILURE
            }
        }
        Cmd::Run(args) if args.web => {
            fail(&["this is a viewport binary; run --web with the jengine tool".into()])
        }
        Cmd::Run(args) => run(args, packages),
        Cmd::Shot(args) => shot(args, packages),
        Cmd::Edit(args) => edit(args, packages),
        Cmd::ViewportBuild { .. } | Cmd::WebBuild { .. } => fail(&[
            "this is a viewport binary; run viewport-build and web-build with the jengine tool"
                .into(),
        ]),
        Cmd::Docs {
            project: Some(project),
            out,
            ..
        } => {
            let out = out.unwrap_or_else(|| project.join("docs/packages"));
            match crate::docs::write_project(&project, packages, &out) {
                Ok(written) => {
                    for path in written {
                        println!("wrote {}", path.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(problems) => fail(&problems),
            }
        }
        Cmd::Docs { out, .. } => {
            let root = viewport::workspace(Path::new("."));
            let out = out.unwrap_or_else(|| PathBuf::from("docs/packages"));
            match crate::docs::write_all(&root, packages, &out) {
                Ok(written) => {
                    if written.is_empty() {
                        println!(
                            "no package under packages/ has [package.metadata.jengine] yet; nothing to write"
                        );
                    }
                    for path in written {
                        println!("wrote {}", path.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => fail(&[e]),
            }
        }
    }
}

fn edit(args: EditArgs, packages: &[&dyn Package]) -> ExitCode {
    let options = crate::edit::EditOptions {
        project: args.project,
        port: args.port,
        token: args.token,
        scene: args.scene,
        open: !args.no_open,
        profile: profile(args.dev),
        unsaved: args.unsaved,
        history: args.history,
        play: args.play,
        seed: args.seed,
        sound: !args.mute,
        platform: crate::desktop::platform(),
    };
    if args.probe {
        return match crate::edit::probe(&options, packages) {
            Ok(()) => ExitCode::SUCCESS,
            Err(problems) => fail(&problems),
        };
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut ready = |url: &str| {
        use std::io::Write;
        println!("jengine edit: {url}");
        let _ = std::io::stdout().flush();
    };
    match crate::edit::run(options, packages, stop, &mut ready) {
        Ok(()) => ExitCode::SUCCESS,
        Err(problems) => fail(&problems),
    }
}

fn read_input(path: Option<&PathBuf>) -> Result<InputScript, String> {
    let Some(path) = path else {
        return Ok(InputScript::default());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    InputScript::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Renders the runtime's world and writes it, printing the renderer's warnings.
fn write_shot(runtime: &Runtime, size: (u32, u32), out: &Path) -> Result<(), String> {
    let mut renderer = Renderer::new(&runtime.project.dir.join("assets"));
    renderer.preload(&runtime.world);
    let frame = renderer.render(&runtime.world, size.0, size.1);
    for w in renderer.take_warnings() {
        eprintln!("warning: {w}");
    }
    if let Some(dir) = out.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    frame
        .save_png(out)
        .map_err(|e| format!("{}: cannot write the picture: {e}", out.display()))
}

/// Reads the input file and starts the runtime, printing its start-up log.
fn start(
    project: &Path,
    input: Option<&PathBuf>,
    options: Options,
    packages: &[&dyn Package],
) -> Result<(Runtime, InputScript), Vec<String>> {
    let input = read_input(input).map_err(|e| vec![e])?;
    let mut runtime = Runtime::new(project, packages, options)?;
    print_log(&runtime.take_log());
    Ok((runtime, input))
}

fn shot(args: ShotArgs, packages: &[&dyn Package]) -> ExitCode {
    let options = Options {
        seed: args.seed,
        scene: args.scene.clone(),
        args: args.args.clone(),
        ..Options::default()
    };
    let (mut runtime, mut input) =
        match start(&args.project, args.input.as_ref(), options, packages) {
            Ok(started) => started,
            Err(problems) => return fail(&problems),
        };
    for _ in 0..args.frames {
        runtime.run(1, &mut input, |_| {});
        print_log(&runtime.take_log());
    }
    match write_shot(&runtime, args.size, &args.out) {
        Ok(()) => {
            println!(
                "wrote {} (frame {} of {})",
                args.out.display(),
                runtime.frame(),
                runtime.scene()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(&[e]),
    }
}

/// The player's data folder for a windowed run of `project`, said once; `None` (in memory,
/// also said) when the project's name cannot name a folder. A project that does not load gets
/// nothing here: starting it reports why.
fn player_data(project: &Path) -> Option<PathBuf> {
    let name = jengine::host::Project::load(project).ok()?.file.name;
    match crate::data_dir::for_project(&name) {
        Ok(dir) => {
            eprintln!("info: the player's data is kept in {}", dir.display());
            Some(dir)
        }
        Err(why) => {
            eprintln!(
                "warning: {why}; the player's data is kept in memory this run (give --save-dir to keep it)"
            );
            None
        }
    }
}

fn run(args: RunArgs, packages: &[&dyn Package]) -> ExitCode {
    let windowed = !args.headless && crate::window::display_available();
    let save_dir = match &args.save_dir {
        Some(dir) => Some(dir.clone()),
        None if windowed => player_data(&args.project),
        None => None,
    };
    let options = Options {
        seed: args.seed,
        save_dir,
        scene: args.scene.clone(),
        // Headless runs stay silent, so a replay is the same to the last sample.
        sound: if windowed {
            crate::runtime::Sound::Device
        } else {
            crate::runtime::Sound::Silent
        },
        args: args.args.clone(),
        // Headless runs never read or change the machine's clipboard.
        system_clipboard: windowed,
        platform: crate::desktop::platform(),
        ..Options::default()
    };
    let (mut runtime, mut input) =
        match start(&args.project, args.input.as_ref(), options, packages) {
            Ok(started) => started,
            Err(problems) => return fail(&problems),
        };
    let window_size = (
        runtime.project.file.window.width,
        runtime.project.file.window.height,
    );
    let size = args.size.unwrap_or(window_size);
    if windowed {
        let options = crate::window::WindowOptions {
            frames: args.frames,
            input,
            record: args.record.clone(),
            shots: std::env::current_dir().unwrap_or_default(),
            trace: args.trace.clone(),
        };
        return match crate::window::play(runtime, options) {
            Ok(frames) => {
                println!("played {frames} frames");
                ExitCode::SUCCESS
            }
            Err(e) => fail(&[e]),
        };
    }
    let mut trace = match &args.trace {
        Some(path) => match crate::trace::TraceWriter::create(path) {
            Ok(t) => Some(t),
            Err(e) => return fail(&[format!("{}: cannot write trace: {e}", path.display())]),
        },
        None => None,
    };
    let frames = args.frames.unwrap_or(600);
    let mut trace_error = None;
    // Error-level lines logged, with the first, for the exit status.
    let mut errors: (usize, Option<String>) = (0, None);
    let mut show = |lines: Vec<jengine::LogLine>| {
        for l in &lines {
            if l.level == jengine::LogLevel::Error {
                errors.0 += 1;
                errors.1.get_or_insert_with(|| l.message.clone());
            }
        }
        print_log(&lines);
    };
    for _ in 0..frames {
        if runtime.quit_requested() {
            break;
        }
        runtime.run(1, &mut input, |rt| {
            if let Some(t) = trace.as_mut()
                && let Err(e) = t.record(rt)
            {
                trace_error.get_or_insert(e.to_string());
            }
        });
        show(runtime.take_log());
    }
    runtime.finish();
    show(runtime.take_log());
    if let Some(t) = trace
        && let Err(e) = t.finish()
    {
        trace_error.get_or_insert(e.to_string());
    }
    if let Some(e) = trace_error {
        return fail(&[format!("writing the trace failed: {e}")]);
    }
    println!(
        "ran {} frames of {} (scene {})",
        runtime.frame(),
        runtime.project.file.name,
        runtime.scene()
    );
    // Without a display, the picture is the way to see the game: write one and say where.
    let picture = match (&args.shot, args.headless) {
        (Some(path), _) => Some(path.clone()),
        (None, false) => Some(
            viewport::workspace(&args.project)
                .join("target/shots")
                .join(format!(
                    "{}.png",
                    runtime.project.file.name.replace(' ', "-")
                )),
        ),
        (None, true) => None,
    };
    if let Some(path) = picture {
        if let Err(e) = write_shot(&runtime, size, &path) {
            return fail(&[e]);
        }
        if args.headless {
            println!("wrote {}", path.display());
        } else {
            println!(
                "no display here, so it ran headless; the last frame is in {}",
                path.display()
            );
        }
    }
    if let (n @ 1.., Some(first)) = errors {
        let lines = if n == 1 { "line" } else { "lines" };
        if args.allow_errors {
            eprintln!("note: {n} error {lines} logged (--allow-errors keeps the exit status 0)");
        } else {
            eprintln!(
                "error: the run logged {n} error {lines}, the first: {first}\n  (exit status 1; --allow-errors keeps it 0)"
            );
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_after_the_double_dash_are_the_games() {
        let parse = |line: &[&str]| Cli::try_parse_from(line).map(|cli| cli.command);
        let run = parse(&[
            "jengine",
            "run",
            "p",
            "--headless",
            "--",
            "--gift",
            "abc",
            "--",
        ]);
        match run {
            Ok(Cmd::Run(args)) => {
                assert!(args.headless);
                assert_eq!(args.args, ["--gift", "abc", "--"]);
            }
            other => panic!("{other:?}"),
        }
        match parse(&["jengine", "shot", "p", "--out", "f.png", "--", "-x"]) {
            Ok(Cmd::Shot(args)) => assert_eq!(args.args, ["-x"]),
            other => panic!("{other:?}"),
        }
        match parse(&["jengine", "run", "p"]) {
            Ok(Cmd::Run(args)) => assert!(args.args.is_empty()),
            other => panic!("{other:?}"),
        }
        // Without the `--` an unknown flag is still the tool's error, not the game's argument.
        assert!(parse(&["jengine", "run", "p", "--gift", "abc"]).is_err());
    }

    #[test]
    fn run_web_takes_a_port_and_refuses_the_flags_of_a_local_run() {
        let parse = |line: &[&str]| Cli::try_parse_from(line).map(|cli| cli.command);
        match parse(&[
            "jengine", "run", "--web", "p", "--port", "8080", "--seed", "3",
        ]) {
            Ok(Cmd::Run(args)) => assert!(args.web && args.port == 8080 && args.seed == 3),
            other => panic!("{other:?}"),
        }
        assert!(parse(&["jengine", "run", "p", "--port", "8080"]).is_err());
        assert!(parse(&["jengine", "run", "p", "--web", "--headless"]).is_err());
        assert!(parse(&["jengine", "run", "p", "--web", "--input", "x.json"]).is_err());
    }

    #[test]
    fn sizes_must_be_positive_and_well_formed() {
        assert_eq!(parse_size("1280x720"), Ok((1280, 720)));
        assert_eq!(parse_size("64X64"), Ok((64, 64)));
        assert!(
            parse_size("0x720")
                .unwrap_err()
                .contains("between 1 and 16384")
        );
        assert!(
            parse_size("-5x720")
                .unwrap_err()
                .contains("between 1 and 16384")
        );
        assert!(
            parse_size("1280")
                .unwrap_err()
                .contains("must look like 1280x720")
        );
        assert!(
            parse_size("wide x 9")
                .unwrap_err()
                .contains("not a whole number")
        );
    }
}
