//! What packages add to the host: the [`Package`] trait and the [`Registry`] it fills.
//!
//! A package's `register` lists its whole surface in one place: scene components, script
//! commands, per-frame systems, the bags scripts read, and the data tables it validates.
//! The registry records which package added what, so errors and docs can name it.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::table::{Row, RowError, Tables};
use crate::value::{Args, Param};
use crate::world::{Entity, World};

/// A game plugin: a name and one function that registers everything it adds.
pub trait Package {
    /// The package's crate name, as a project lists it (`jengine-kotoba`).
    fn name(&self) -> &'static str;
    /// Adds the package's components, commands, systems, bags and tables.
    fn register(&self, reg: &mut Registry);
}

/// A command handler: applies one queued call to the world, or says why it could not.
///
/// The contract: check everything first, then change; an `Err` must leave the world as it was.
pub type Handler = Box<dyn Fn(&mut World, &Args) -> Result<(), String>>;

/// A script command: `Namespace.name(...)`, also callable as `namespace_name(...)`.
pub struct Command {
    /// The Lua table it lives in (`Kotoba`).
    pub namespace: String,
    /// Its name inside the table (`press`).
    pub name: String,
    /// The flat global name (`kotoba_press`).
    pub flat: String,
    /// Declared parameters, checked at every call.
    pub params: Vec<Param>,
    /// The package that registered it (`jengine-kotoba`); `core` for the host's own.
    pub package: String,
    /// Applies a queued call.
    pub handler: Handler,
}

impl Command {
    /// `Kotoba.press(e, x, y)`: the call as documentation shows it.
    pub fn signature(&self) -> String {
        let names: Vec<&str> = self.params.iter().map(|p| p.name).collect();
        format!("{}.{}({})", self.namespace, self.name, names.join(", "))
    }

    /// `Kotoba.press`: how error messages name it.
    pub fn qualified(&self) -> String {
        format!("{}.{}", self.namespace, self.name)
    }
}

type Spawner = Box<dyn Fn(&mut hecs::EntityBuilder, &RawValue) -> Result<(), String>>;
type Reader = Box<dyn Fn(&World, Entity) -> Option<serde_json::Value>>;
type LuaReader = Box<dyn Fn(&World, Entity, &mlua::Lua) -> Option<mlua::Result<mlua::Value>>>;

/// A scene key bound to a component type.
pub struct ComponentBinding {
    /// The scene key (`kotoba_table`).
    pub key: String,
    /// The Rust type's path, for docs.
    pub type_name: &'static str,
    /// The registering package.
    pub package: String,
    /// Deserializes the scene value and adds the component to an entity being built.
    pub spawn: Spawner,
    /// Reads the component back as JSON.
    pub read: Reader,
    pub(crate) read_lua: LuaReader,
}

/// A per-frame update, run in registration order after commands are applied.
pub struct System {
    /// A name for logs and docs.
    pub name: String,
    /// The registering package.
    pub package: String,
    /// The update itself; it reads the frame's time from the [`crate::Time`] resource.
    pub run: Box<dyn Fn(&mut World)>,
}

type BagLua =
    Box<dyn Fn(&World, &mlua::Lua, &mut dyn FnMut(Entity, mlua::Value)) -> mlua::Result<()>>;
type BagJson = Box<dyn Fn(&World) -> Vec<(Entity, serde_json::Value)>>;

/// What scripts read: a component type published, after systems run, as a table per entity.
pub struct Bag {
    /// The key scripts pass to `Entity.get(e, key)`.
    pub key: String,
    /// The Rust type's path, for docs.
    pub type_name: &'static str,
    /// The registering package.
    pub package: String,
    pub(crate) publish_lua: BagLua,
    /// Every entity's bag as JSON (for traces).
    pub publish_json: BagJson,
}

/// Checks every row of a loaded table.
pub type TableCheck = Box<dyn Fn(&Tables) -> Vec<RowError>>;

/// A data table a package reads, checked row by row when a project loads.
pub struct TableBinding {
    /// The table's name (`kotoba_stages`, from `data/kotoba_stages.json`).
    pub name: String,
    /// The row type's path, for docs.
    pub type_name: &'static str,
    /// The registering package.
    pub package: String,
    /// Checks every row of the loaded table, returning every problem.
    pub check: TableCheck,
}

/// Everything the linked packages added, in registration order.
#[derive(Default)]
pub struct Registry {
    current: String,
    packages: Vec<String>,
    /// Scene components by key.
    pub components: BTreeMap<String, ComponentBinding>,
    /// Commands in registration order; a queued call refers to its index.
    pub commands: Vec<Command>,
    /// Systems in registration order.
    pub systems: Vec<System>,
    /// Bags in registration order.
    pub bags: Vec<Bag>,
    /// Tables packages declared.
    pub tables: Vec<TableBinding>,
    /// Mistakes in registration (a key or name taken twice), reported when the host starts.
    pub problems: Vec<String>,
}

impl Registry {
    /// A registry holding only the host's own commands (`Entity.set`, `Text.set`, `Scene.load`).
    pub fn new() -> Registry {
        let mut reg = Registry {
            current: "core".into(),
            ..Registry::default()
        };
        crate::core::register(&mut reg);
        reg
    }

    /// A registry with the core commands and each package registered, in order.
    pub fn with(packages: &[&dyn Package]) -> Registry {
        let mut reg = Registry::new();
        for p in packages {
            reg.add(*p);
        }
        reg
    }

    /// Registers one package.
    pub fn add(&mut self, package: &dyn Package) {
        if self.packages.iter().any(|p| p == package.name()) {
            self.problems
                .push(format!("package {} is registered twice", package.name()));
            return;
        }
        self.packages.push(package.name().to_string());
        self.current = package.name().to_string();
        package.register(self);
        self.current = "core".into();
    }

    /// The names of the registered packages, in order.
    pub fn packages(&self) -> &[String] {
        &self.packages
    }

    /// Binds a scene key to a component type (v2 scenes only).
    pub fn component<T>(&mut self, key: &str)
    where
        T: hecs::Component + Serialize + DeserializeOwned,
    {
        if let Some(old) = self.components.get(key) {
            self.problems.push(format!(
                "scene key {key:?} is registered by both {} and {}",
                old.package, self.current
            ));
            return;
        }
        if crate::scene::CORE_KEYS.contains(&key) {
            self.problems.push(format!(
                "package {} registers scene key {key:?}, which is a core key",
                self.current
            ));
            return;
        }
        self.components.insert(
            key.to_string(),
            ComponentBinding {
                key: key.to_string(),
                type_name: std::any::type_name::<T>(),
                package: self.current.clone(),
                spawn: Box::new(|builder, raw| {
                    builder.add(crate::scene::read_component::<T>(raw)?);
                    Ok(())
                }),
                read: Box::new(|world, entity| {
                    let c = world.entities.get::<&T>(entity).ok()?;
                    serde_json::to_value(&*c).ok()
                }),
                read_lua: Box::new(|world, entity, lua| {
                    let c = world.entities.get::<&T>(entity).ok()?;
                    Some(crate::script::to_lua(lua, &*c))
                }),
            },
        );
    }

    /// Adds a command, callable as `namespace.name(...)` and `namespace_name(...)` (lowercased).
    pub fn command<F>(&mut self, namespace: &str, name: &str, params: &[Param], handler: F)
    where
        F: Fn(&mut World, &Args) -> Result<(), String> + 'static,
    {
        let flat = format!("{}_{}", namespace.to_lowercase(), name);
        if let Some(old) = self.commands.iter().find(|c| c.flat == flat) {
            self.problems.push(format!(
                "command {namespace}.{name} is registered by both {} and {}",
                old.package, self.current
            ));
            return;
        }
        if let Some(owner) = self
            .commands
            .iter()
            .find(|c| c.namespace == namespace && c.package != self.current)
        {
            self.problems.push(format!(
                "namespace {namespace} belongs to {}, but {} adds {namespace}.{name} to it",
                owner.package, self.current
            ));
            return;
        }
        self.commands.push(Command {
            namespace: namespace.to_string(),
            name: name.to_string(),
            flat,
            params: params.to_vec(),
            package: self.current.clone(),
            handler: Box::new(handler),
        });
    }

    /// Adds a per-frame update.
    pub fn system<F>(&mut self, name: &str, run: F)
    where
        F: Fn(&mut World) + 'static,
    {
        self.systems.push(System {
            name: name.to_string(),
            package: self.current.clone(),
            run: Box::new(run),
        });
    }

    /// Publishes every entity's `T` to scripts under `key`, after systems run each frame.
    pub fn bag<T>(&mut self, key: &str)
    where
        T: hecs::Component + Serialize,
    {
        if self.bags.iter().any(|b| b.key == key) {
            self.problems.push(format!(
                "bag {key:?} is registered twice ({})",
                self.current
            ));
            return;
        }
        self.bags.push(Bag {
            key: key.to_string(),
            type_name: std::any::type_name::<T>(),
            package: self.current.clone(),
            publish_lua: Box::new(|world, lua, out| {
                for (entity, value) in world.entities.query::<(Entity, &T)>().iter() {
                    out(entity, crate::script::to_lua(lua, value)?);
                }
                Ok(())
            }),
            publish_json: Box::new(|world| {
                let mut rows: Vec<(Entity, serde_json::Value)> = world
                    .entities
                    .query::<(Entity, &T)>()
                    .iter()
                    .filter_map(|(e, v)| Some((e, serde_json::to_value(v).ok()?)))
                    .collect();
                rows.sort_by_key(|(e, _)| e.to_bits());
                rows
            }),
        });
    }

    /// Declares a data table read as rows of `T`, checked when the project loads.
    pub fn table<T: Row>(&mut self, name: &str) {
        let table_name = name.to_string();
        self.tables.push(TableBinding {
            name: name.to_string(),
            type_name: std::any::type_name::<T>(),
            package: self.current.clone(),
            check: Box::new(move |tables| match tables.rows::<T>(&table_name) {
                Ok(_) => Vec::new(),
                Err(err) => err.rows,
            }),
        });
    }

    /// Checks every declared table against the loaded ones: each bad row, naming the package
    /// that reads the table.
    pub fn check_tables(&self, tables: &Tables) -> Vec<String> {
        self.tables
            .iter()
            .flat_map(|binding| {
                (binding.check)(tables)
                    .into_iter()
                    .map(move |e| format!("{e} (table of {})", binding.package))
            })
            .collect()
    }

    /// The command with this flat or qualified name.
    pub fn find_command(&self, name: &str) -> Option<&Command> {
        self.commands
            .iter()
            .find(|c| c.flat == name || c.qualified() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Counter, CounterPackage};

    struct Squatter;
    impl Package for Squatter {
        fn name(&self) -> &'static str {
            "squatter"
        }
        fn register(&self, reg: &mut Registry) {
            reg.component::<Counter>("counter");
            reg.command("Counter", "sub", &[], |_, _| Ok(()));
            reg.component::<Counter>("transform");
        }
    }

    #[test]
    fn commands_get_flat_names_and_signatures() {
        let reg = Registry::with(&[&CounterPackage]);
        let cmd = reg.find_command("counter_add").unwrap();
        assert_eq!(cmd.signature(), "Counter.add(e, n)");
        assert_eq!(cmd.package, "jengine-counter");
        assert!(reg.find_command("Counter.add").is_some());
        assert!(reg.problems.is_empty(), "{:?}", reg.problems);
    }

    #[test]
    fn taken_keys_and_namespaces_are_problems_naming_both_packages() {
        let reg = Registry::with(&[&CounterPackage, &Squatter, &CounterPackage]);
        let all = reg.problems.join("\n");
        assert!(all.contains("\"counter\" is registered by both jengine-counter and squatter"));
        assert!(all.contains("namespace Counter belongs to jengine-counter"));
        assert!(all.contains("\"transform\", which is a core key"));
        assert!(all.contains("jengine-counter is registered twice"));
    }
}
