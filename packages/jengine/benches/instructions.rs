//! Instruction counts of the seam's hot paths, under callgrind: a count a busy machine does not
//! disturb, so the figures compare across runs and machines of one architecture.
//!
//! `cargo bench -p jengine --bench instructions` (needs `valgrind`). The bench runs itself under
//! `valgrind --tool=callgrind`, once per case and size, counting only inside the case's own
//! function. Each case runs at two sizes and the figure is the difference divided by the
//! difference in calls, so what a frame costs around the calls (entering the callback, taking
//! the queue) is not spread over them. Beside the seam's own calls it measures the same call
//! through bare mlua, with and without the sandbox's kind of guard (a memory limit and a count
//! hook every 1,000 VM instructions): the baselines the bridge is held to.

use std::cell::Cell;
use std::process::Command;
use std::rc::Rc;

use jengine::host::{Limits, ScriptHost};
use jengine::{Registry, Script, World};

mod common;
use common::{BenchPackage, Big};

/// The cases: name, what one unit is, and the two sizes run.
const CASES: [(&str, &str, [u64; 2]); 5] = [
    (
        "bare",
        "a call of a Rust function from Lua, bare mlua",
        [1_000, 11_000],
    ),
    (
        "guarded",
        "the same, with a memory limit and a count hook every 1,000 instructions",
        [1_000, 11_000],
    ),
    // A callback may queue at most 10,000 commands.
    (
        "command",
        "a call of the no-op command `Bench.noop(e)`",
        [1_000, 9_000],
    ),
    (
        "bag_read",
        "a read of a field of a bag already read in the callback (`Entity.get(e, 'big').a0`)",
        [1_000, 11_000],
    ),
    (
        "bag_publish",
        "a frame: the ~50-field bag published, read once in Lua and seven of its fields used",
        [10, 110],
    ),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if let (Some(case), Some(n)) = (value("--case"), value("--n")) {
        let n: u64 = n.parse().expect("--n is a count");
        run_case(&case, n);
        return;
    }
    // `cargo test --benches` runs a bench binary too; the counting is only for `cargo bench`.
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    let me = std::env::current_exe().expect("the bench knows where it is");
    let mut figures = Vec::new();
    for (case, unit, sizes) in CASES {
        let counts: Vec<u64> = sizes.iter().map(|&n| count(&me, case, n)).collect();
        let per = (counts[1] as f64 - counts[0] as f64) / (sizes[1] - sizes[0]) as f64;
        figures.push((case, per));
        println!("{case:<12} {per:>9.0} instructions  {unit}");
    }
    let of = |name: &str| figures.iter().find(|(c, _)| *c == name).map(|(_, p)| *p);
    if let (Some(command), Some(guarded), Some(bare)) = (of("command"), of("guarded"), of("bare")) {
        println!(
            "the command call is {:.2}x the guarded bare call and {:.2}x the bare one",
            command / guarded,
            command / bare
        );
    }
}

/// Instructions callgrind counts inside the case's function, for `n` units.
fn count(me: &std::path::Path, case: &str, n: u64) -> u64 {
    let out = std::env::temp_dir().join(format!(
        "jengine-instructions-{}-{case}-{n}.out",
        std::process::id()
    ));
    let status = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=*measured_*",
            &format!("--callgrind-out-file={}", out.display()),
        ])
        .arg(me)
        .args(["--case", case, "--n", &n.to_string()])
        .output()
        .unwrap_or_else(|e| {
            eprintln!("instruction counts need valgrind (apt-get install valgrind): {e}");
            std::process::exit(1)
        });
    if !status.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&status.stderr));
        panic!("the {case} case failed under callgrind");
    }
    let text = std::fs::read_to_string(&out).expect("callgrind wrote its counts");
    let _ = std::fs::remove_file(&out);
    text.lines()
        .find_map(|l| {
            l.strip_prefix("totals: ")
                .or_else(|| l.strip_prefix("summary: "))
        })
        .and_then(|t| t.trim().parse().ok())
        .expect("callgrind's counts have a total")
}

fn run_case(case: &str, n: u64) {
    match case {
        "bare" => bare(n, false),
        "guarded" => bare(n, true),
        "command" => command(n),
        "bag_read" => bag_read(n),
        "bag_publish" => bag_publish(n),
        other => panic!("no case {other}"),
    }
}

/// A Lua state calling a Rust function that does nothing, `n` times, with an integer as the
/// seam passes an entity; guarded as the sandbox guards a state when `guarded`.
fn bare(n: u64, guarded: bool) {
    let lua = mlua::Lua::new();
    let noop = lua
        .create_function(|_, _e: mlua::Value| Ok(()))
        .expect("a function");
    lua.globals().set("noop", noop).expect("a global");
    let counted = Rc::new(Cell::new(0u64));
    if guarded {
        lua.set_memory_limit(64 << 20).expect("a memory limit");
        let c = counted.clone();
        lua.set_hook(
            mlua::HookTriggers::new().every_nth_instruction(1000),
            move |_, _| {
                c.set(c.get() + 1000);
                Ok(mlua::VmState::Continue)
            },
        )
        .expect("a hook");
    }
    let f: mlua::Function = lua
        .load("local e, n = ... for i = 1, n do noop(e) end")
        .into_function()
        .expect("the loop compiles");
    measured_bare(&f, n);
    assert!(!guarded || counted.get() > 0);
}

#[inline(never)]
fn measured_bare(f: &mlua::Function, n: u64) {
    f.call::<()>((4_294_967_297i64, n)).expect("the loop runs");
}

/// A script host with one script, `update` being `body`.
fn host_with(body: &str, world: &mut World, big: bool) -> (Rc<Registry>, ScriptHost) {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::write(dir.path().join("case.lua"), body).expect("the script");
    let registry = Rc::new(Registry::with(&[&BenchPackage]));
    // Every limit as a game has it, but for the wall clock: callgrind runs the code some fifty
    // times slower, and the count does not depend on the clock's ceiling.
    let limits = Limits {
        wall_clock: std::time::Duration::from_secs(600),
        ..Limits::default()
    };
    let mut host = ScriptHost::new(&registry, dir.path(), limits, 1).expect("a script host");
    // What lets `Entity.get` find a package's bag, as the runtime sets it.
    host.set_registry(registry.clone());
    let e = if big {
        world
            .entities
            .spawn((Big::filled(), Script("case.lua".into())))
    } else {
        world.entities.spawn((Script("case.lua".into()),))
    };
    assert!(host.attach(world, &[e]).is_empty());
    host.start(world);
    (registry, host)
}

fn command(n: u64) {
    let mut world = World::new();
    let body = format!("function update(e, dt)\n  for i = 1, {n} do Bench.noop(e) end\nend\n");
    let (_registry, mut host) = host_with(&body, &mut world, false);
    let queued = measured_command(&mut host, &mut world);
    assert_eq!(queued, n as usize);
    assert!(world.log().lines().is_empty(), "{:?}", world.log().lines());
}

#[inline(never)]
fn measured_command(host: &mut ScriptHost, world: &mut World) -> usize {
    host.update(world, 1.0 / 60.0);
    host.take_queue().len()
}

fn bag_read(n: u64) {
    let mut world = World::new();
    let body = format!(
        "total = 0\nfunction update(e, dt)\n  for i = 1, {n} do total = total + Entity.get(e, 'big').a0 end\nend\n"
    );
    let (registry, mut host) = host_with(&body, &mut world, true);
    host.publish_bags(&registry, &world).expect("published");
    measured_bag_read(&mut host, &mut world);
    assert!(world.log().lines().is_empty(), "{:?}", world.log().lines());
}

#[inline(never)]
fn measured_bag_read(host: &mut ScriptHost, world: &mut World) {
    host.update(world, 1.0 / 60.0);
}

fn bag_publish(frames: u64) {
    let mut world = World::new();
    let body = "total = 0\nfunction update(e, dt)\n  local b = Entity.get(e, 'big')\n  total = b.a0 + b.a9 + b.b7 + #b.row + b.row[30] + (b.over and 1 or 0) + #b.name\nend\n";
    let (registry, mut host) = host_with(body, &mut world, true);
    measured_bag_publish(&mut host, &registry, &mut world, frames);
    assert!(world.log().lines().is_empty(), "{:?}", world.log().lines());
}

#[inline(never)]
fn measured_bag_publish(
    host: &mut ScriptHost,
    registry: &Registry,
    world: &mut World,
    frames: u64,
) {
    for _ in 0..frames {
        host.publish_bags(registry, world).expect("published");
        host.update(world, 1.0 / 60.0);
    }
}
