//! The probe the sandbox's hostile-script tests share: a host running a bad script beside a
//! good one, stepped frame by frame, and what each said. Scripts live in memory and time comes
//! from the seam's clock, so the same tests run where there is no file system or `Instant`
//! (the wasm32 build, through [`crate::selftest`]).

use std::sync::Arc;
use std::time::Duration;

use crate::assets::{Assets, MemoryAssets};

use super::*;
use crate::value::{entity, integer};

/// Counts kicks per entity, so a test can see which commands were applied.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) struct Kicks(pub(crate) i64);

/// A bag with a table in it, for scripts to try to spoil.
#[derive(Debug, Default, serde::Serialize)]
pub(crate) struct Tally {
    pub(crate) count: i64,
    pub(crate) cells: Vec<i64>,
}

pub(crate) struct Bouncer;
impl crate::Package for Bouncer {
    fn name(&self) -> &'static str {
        "jengine-bouncer"
    }
    fn register(&self, reg: &mut Registry) {
        reg.component::<Kicks>("kicks");
        reg.bag::<Tally>("tally");
        reg.command("Bouncer", "kick", (entity("e"),), |world, (e,)| {
            let mut k = world
                .entities
                .get::<&mut Kicks>(e)
                .map_err(|_| "no kicks")?;
            k.0 += 1;
            Ok(())
        });
        // Says what the seam noted it was doing while the command ran.
        reg.command("Bouncer", "note", (entity("e"),), |world, (_e,)| {
            let doing = crate::doing::doing();
            world.log().info(format!("doing: {doing}"));
            Ok(())
        });
        reg.command(
            "Bouncer",
            "add",
            (entity("e"), integer("n")),
            |world, (e, n)| {
                let mut k = world
                    .entities
                    .get::<&mut Kicks>(e)
                    .map_err(|_| "no kicks")?;
                k.0 += n;
                Ok(())
            },
        );
    }
}

pub(crate) fn limits() -> Limits {
    Limits {
        memory: 16 << 20,
        instructions: 2_000_000,
        ..Limits::default()
    }
}

/// A host, a world and two scripted entities: `bad.lua` (the probe) and `good.lua`, which
/// kicks its own entity once per update.
pub(crate) struct Probe {
    pub(crate) host: ScriptHost,
    pub(crate) world: World,
    pub(crate) registry: Rc<Registry>,
    pub(crate) bad: Entity,
    pub(crate) good: Entity,
    pub(crate) warnings: Vec<String>,
    pub(crate) infos: Vec<String>,
}

/// A scripts folder holding `files`, each a name and its text.
pub(crate) fn scripts(files: &[(&str, &str)]) -> Arc<dyn Assets> {
    let mut set = MemoryAssets::new();
    for (name, text) in files {
        set.insert(name, text.as_bytes()).unwrap();
    }
    Arc::new(set)
}

/// Reads the seam's clock (the one the wall-clock limit uses).
pub(crate) fn now() -> Duration {
    (crate::clock::current().expect("a clock").elapsed)()
}

pub(crate) const GOOD: &str = "function update(e) Bouncer.kick(e) end\n";

impl Probe {
    pub(crate) fn new(bad: &str) -> Probe {
        Probe::with(bad, GOOD, limits())
    }

    pub(crate) fn with(bad: &str, good: &str, limits: Limits) -> Probe {
        let files = scripts(&[("bad.lua", bad), ("good.lua", good)]);
        let registry = Rc::new(Registry::with(&[&Bouncer]));
        let host = ScriptHost::with_assets(&registry, files, limits, 1).unwrap();
        host.set_registry(registry.clone());
        let mut world = World::new();
        let bad = world.spawn((
            Script("bad.lua".into()),
            Kicks(0),
            crate::Name("bad".into()),
        ));
        let good = world.spawn((
            Script("good.lua".into()),
            Kicks(0),
            crate::Name("good".into()),
        ));
        let mut probe = Probe {
            host,
            world,
            registry,
            bad,
            good,
            warnings: Vec::new(),
            infos: Vec::new(),
        };
        let errors = probe.host.attach(&mut probe.world, &[bad, good]);
        probe.warnings.extend(errors.iter().map(|e| e.to_string()));
        probe
    }

    /// One frame: start, update, the queue, the log.
    pub(crate) fn frame(&mut self) {
        self.host.start(&mut self.world);
        self.host.update(&mut self.world, 1.0 / 60.0);
        self.host.apply_queue(&self.registry, &mut self.world);
        for line in self.world.log().drain() {
            match line.level {
                // What went wrong, whether the game went on (warnings) or a part stopped.
                crate::LogLevel::Warn | crate::LogLevel::Error => self.warnings.push(line.message),
                crate::LogLevel::Info => self.infos.push(line.message),
            }
        }
    }

    pub(crate) fn kicks(&self, e: Entity) -> i64 {
        self.world.entities.get::<&Kicks>(e).unwrap().0
    }

    /// Runs `frames` frames, asserting they end within `seconds` of real time.
    pub(crate) fn run(&mut self, frames: usize) -> &mut Self {
        let start = now();
        for _ in 0..frames {
            self.frame();
        }
        let took = now() - start;
        assert!(
            took < Duration::from_secs(60),
            "the probe hung the host for {took:?}"
        );
        self
    }

    /// The one warning about the bad script; it must name its file, line and callback.
    pub(crate) fn stopped(&self, callback: &str, what: &str) -> &str {
        let bad: Vec<&String> = self
            .warnings
            .iter()
            .filter(|w| w.contains("bad.lua"))
            .collect();
        assert_eq!(bad.len(), 1, "one warning, said once: {:#?}", self.warnings);
        let w = bad[0];
        assert!(w.starts_with("assets/scripts/bad.lua:"), "{w}");
        assert!(w.contains(what), "expected {what:?} in {w}");
        assert!(
            w.ends_with(&format!(
                "; {callback}() of this script is switched off, the game goes on"
            )),
            "{w}"
        );
        w
    }

    /// The good script kept running every frame.
    pub(crate) fn good_ran(&self, frames: i64) {
        assert_eq!(self.kicks(self.good), frames, "{:#?}", self.warnings);
    }
}

/// A log line without the `file:line: ` the log puts before what the script said.
pub(crate) fn said(line: &str) -> &str {
    match line.split_once(".lua:") {
        Some((_, rest)) => rest.split_once(": ").map_or(rest, |(_, text)| text),
        None => line,
    }
}
