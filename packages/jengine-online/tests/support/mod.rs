//! A game's side of the online component for the tests: a registry of the listed packages, a
//! world set up as the runtime sets one up, and one `online` entity, stepped frame by frame.

use std::time::{Duration, Instant};

use jengine::{Args, Package, Registry, Time, Value, World};
use jengine_net::{Codec, Connection, ServerConfig, serve};
use jengine_online::{OnlineBag, OnlinePackage};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A server on a free loopback port speaking protocol `version`, each connection handed to
/// `handler`; it lives as long as the test process (and the runtime returned).
pub fn server<Out, In, H, F>(
    version: u8,
    handler: H,
) -> (tokio::runtime::Runtime, std::net::SocketAddr)
where
    Out: Serialize + 'static,
    In: DeserializeOwned + Send + 'static,
    H: Fn(Connection<Out, In>) -> F + Send + Sync + 'static,
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let addr = rt.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let config = ServerConfig {
            codec: Codec::new(version),
            ..ServerConfig::default()
        };
        let server = serve(listener, config, handler).unwrap();
        let addr = server.local_addr();
        Box::leak(Box::new(server));
        addr
    });
    (rt, addr)
}

pub struct Game {
    pub registry: Registry,
    pub world: World,
    pub e: jengine::Entity,
}

impl Game {
    /// The online package alone, and an entity connecting to `url` with the generic frames.
    #[allow(dead_code, reason = "not every test file speaks the generic frames")]
    pub fn new(url: &str) -> Game {
        Game::speaking(url, "", &[])
    }

    /// The online package and `more`, and an entity connecting to `url` in `protocol`.
    pub fn speaking(url: &str, protocol: &str, more: &[&dyn Package]) -> Game {
        let mut packages: Vec<&dyn Package> = vec![&OnlinePackage];
        packages.extend(more);
        let registry = Registry::with(&packages);
        let mut world = World::new();
        world.resources.insert(Time::default());
        registry.set_up(&mut world);
        let online = if protocol.is_empty() {
            serde_json::json!({"url": url})
        } else {
            serde_json::json!({"url": url, "protocol": protocol})
        };
        let scene = serde_json::json!({"version": 2, "entities": [
            {"name": "net", "online": online}
        ]})
        .to_string();
        let e = jengine::host::Scene::parse("t.scene", &scene, &registry)
            .unwrap()
            .spawn(&mut world)[0];
        Game { registry, world, e }
    }

    /// A command called on the entity, as a script's call is applied.
    pub fn call(&mut self, name: &str, mut args: Vec<Value>) -> Result<(), String> {
        args.insert(0, Value::Int(self.e.to_bits().get() as i64));
        self.registry
            .find_command(name)
            .unwrap()
            .apply(&mut self.world, Args::new(args))
    }

    /// `Online.send` of a table.
    #[allow(dead_code, reason = "not every test file sends tables")]
    pub fn send(&mut self, table: serde_json::Value) -> Result<(), String> {
        self.call("Online.send", vec![Value::Table(table)])
    }

    /// One frame's systems, and the bag they leave.
    pub fn frame(&mut self) -> OnlineBag {
        for system in self.registry.systems() {
            system.run(&mut self.world, 1.0 / 60.0);
        }
        self.world
            .entities
            .get::<&OnlineBag>(self.e)
            .map(|b| (*b).clone())
            .unwrap_or_default()
    }

    /// Runs frames (a few ms apart: the transport's thread answers in its own time) until
    /// `done` says so; returns every bag seen.
    pub fn until(&mut self, done: impl Fn(&OnlineBag) -> bool) -> Vec<OnlineBag> {
        let start = Instant::now();
        let mut seen = Vec::new();
        while start.elapsed() < Duration::from_secs(10) {
            let bag = self.frame();
            let stop = done(&bag);
            seen.push(bag);
            if stop {
                return seen;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("gave up waiting: {:?}", seen.last());
    }
}
