//! What packages add to the host: the [`Package`] trait and the [`Registry`] it fills.
//!
//! A package's `register` lists its whole surface in one place: scene components, script
//! commands, per-frame systems, the bags scripts read, and the data tables it validates.
//! The host's own components and commands come in the same way, from a core package added
//! first, so there is one table of scene keys and one of commands. The registry records who
//! added what, so errors and docs can name the package.

use std::collections::BTreeMap;
use std::fmt;
use std::rc::Rc;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;

use crate::convert::{parse_json, to_lua};
use crate::defaults::AssetField;
use crate::scene::AssetKind;
use crate::table::{RawTable, Row, RowError, Tables};
use crate::value::{self, ArgError, Args, Param, Params, Value};
use crate::world::{Entity, World};

/// A game plugin: a name and one function that registers everything it adds.
pub trait Package {
    /// The package's crate name, as a project lists it (`jengine-kotoba`).
    fn name(&self) -> &'static str;
    /// Adds the package's components, commands, systems, bags and tables.
    fn register(&self, reg: &mut Registry);
}

/// The name the host's own registrations go under.
pub const CORE: &str = "core";

/// A mistake in registration, reported when the host starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegistryProblem {
    /// The same package was added twice.
    PackageTwice {
        /// Its name.
        package: String,
    },
    /// Two registrations claim one scene key.
    KeyTaken {
        /// The key.
        key: String,
        /// The package that has it.
        owner: String,
        /// The package that asked for it again.
        by: String,
    },
    /// Two commands would have the same flat name.
    CommandTaken {
        /// `Namespace.name`.
        command: String,
        /// The package that has it.
        owner: String,
        /// The package that asked for it again.
        by: String,
    },
    /// A package adds a command to another package's namespace.
    NamespaceTaken {
        /// The namespace.
        namespace: String,
        /// The package it belongs to.
        owner: String,
        /// The package adding to it.
        by: String,
        /// The command it tried to add.
        name: String,
    },
    /// Two bags under one key.
    BagTaken {
        /// The key.
        key: String,
        /// The package that has it.
        owner: String,
        /// The package that asked for it again.
        by: String,
    },
    /// Two declarations of one table.
    TableTaken {
        /// The table's name.
        name: String,
        /// The package that has it.
        owner: String,
        /// The package that asked for it again.
        by: String,
    },
    /// Two packages ship a default file of the same name.
    AssetTaken {
        /// The name inside a project's `assets/` folder.
        name: String,
        /// The package that has it.
        owner: String,
        /// The package that shipped it again.
        by: String,
    },
    /// A default file whose name would leave the `assets/` folder.
    BadAssetName {
        /// The name as given.
        name: String,
        /// Why it was refused.
        problem: String,
        /// The package that shipped it.
        by: String,
    },
    /// Asset fields declared for a scene key the package does not bind, or bound to another
    /// type.
    AssetsForOtherKey {
        /// The key.
        key: String,
        /// The package that declared them.
        by: String,
    },
    /// A flat-name prefix that is no lower-case Lua name.
    BadAlias {
        /// The prefix.
        prefix: String,
        /// The package that asked for it.
        by: String,
    },
}

impl fmt::Display for RegistryProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whose = |p: &str| {
            if p == CORE {
                "the host".to_string()
            } else {
                p.to_string()
            }
        };
        match self {
            RegistryProblem::PackageTwice { package } => {
                write!(f, "package {package} is registered twice")
            }
            RegistryProblem::KeyTaken { key, owner, by } => write!(
                f,
                "scene key {key:?} is registered by both {} and {by}",
                whose(owner)
            ),
            RegistryProblem::CommandTaken { command, owner, by } => write!(
                f,
                "command {command} is registered by both {} and {by}",
                whose(owner)
            ),
            RegistryProblem::NamespaceTaken {
                namespace,
                owner,
                by,
                name,
            } => write!(
                f,
                "namespace {namespace} belongs to {}, but {by} adds {namespace}.{name} to it",
                whose(owner)
            ),
            RegistryProblem::AssetTaken { name, owner, by } => write!(
                f,
                "default file assets/{name} is shipped by both {} and {by}",
                whose(owner)
            ),
            RegistryProblem::BadAssetName { name, problem, by } => {
                write!(
                    f,
                    "{by} ships a default file {name:?} that is refused: {problem}"
                )
            }
            RegistryProblem::AssetsForOtherKey { key, by } => write!(
                f,
                "{by} declares asset fields for scene key {key:?}, which it does not bind to that type"
            ),
            RegistryProblem::BadAlias { prefix, by } => write!(
                f,
                "{by} asks for flat names starting {prefix:?}, which is not a lower-case Lua name"
            ),
            RegistryProblem::BagTaken { key, owner, by } => write!(
                f,
                "bag {key:?} is registered by both {} and {by}",
                whose(owner)
            ),
            RegistryProblem::TableTaken { name, owner, by } => write!(
                f,
                "table {name:?} is declared by both {} and {by}",
                whose(owner)
            ),
        }
    }
}

impl std::error::Error for RegistryProblem {}

type Handler = Box<dyn Fn(&mut World, Args) -> Result<(), String>>;
/// A command's rule over its arguments together, run at the call after each argument's own.
pub(crate) type Rule = Rc<dyn Fn(&[Value]) -> Result<(), ArgError>>;

/// A script command: `Namespace.name(...)`, also callable as `namespace_name(...)`.
pub struct Command {
    namespace: String,
    name: String,
    flat: String,
    /// More flat names it answers to (see [`Registry::flat_alias`]).
    aliases: Vec<String>,
    params: Vec<Param>,
    rule: Option<(&'static str, Rule)>,
    package: String,
    handler: Handler,
}

impl Command {
    /// The Lua table it lives in (`Kotoba`).
    pub fn namespace(&self) -> &str {
        &self.namespace
    }
    /// Its name inside the table (`press`).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The flat global name (`kotoba_press`); the host's own commands have none in Lua.
    pub fn flat(&self) -> &str {
        &self.flat
    }
    /// More flat global names it answers to (`crawl_walk` beside `crawler_walk`).
    pub fn aliases(&self) -> &[String] {
        &self.aliases
    }
    /// Declared parameters, checked at every call.
    pub fn params(&self) -> &[Param] {
        &self.params
    }
    /// The rule over its arguments together, in words, if it has one
    /// ([`crate::value::Params::such_that`]).
    pub fn rule(&self) -> Option<&'static str> {
        self.rule.as_ref().map(|(words, _)| *words)
    }
    /// Checks the rule over the arguments together on values that passed their own checks.
    pub fn check_together(&self, values: &[Value]) -> Result<(), ArgError> {
        match &self.rule {
            Some((_, rule)) => rule(values),
            None => Ok(()),
        }
    }
    pub(crate) fn rule_check(&self) -> Option<Rule> {
        self.rule.as_ref().map(|(_, rule)| rule.clone())
    }
    /// The package that registered it; [`CORE`] for the host's own.
    pub fn package(&self) -> &str {
        &self.package
    }

    /// `Kotoba.press(e, x, y)`: the call as documentation shows it.
    pub fn signature(&self) -> String {
        let names: Vec<&str> = self.params.iter().map(|p| p.name).collect();
        format!("{}.{}({})", self.namespace, self.name, names.join(", "))
    }

    /// `Kotoba.puzzle(e: entity, stage: string)`: the call with each parameter's type, an
    /// optional one marked `?` (`name?: string`), as docs and the editor show it.
    pub fn typed_signature(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let mark = if p.optional { "?" } else { "" };
                format!("{}{mark}: {}", p.name, p.kind.type_name())
            })
            .collect();
        format!("{}.{}({})", self.namespace, self.name, params.join(", "))
    }

    /// `Kotoba.press`: how error messages name it.
    pub fn qualified(&self) -> String {
        format!("{}.{}", self.namespace, self.name)
    }

    /// Applies one call whose arguments passed the check. An `Err` leaves the world as it was.
    pub fn apply(&self, world: &mut World, args: Args) -> Result<(), String> {
        (self.handler)(world, args)
    }
}

pub(crate) type Spawner = Box<dyn Fn(&mut hecs::EntityBuilder, &RawValue) -> Result<(), String>>;
type Reader = Box<dyn Fn(&World, Entity) -> Option<serde_json::Value>>;
type LuaReader = Box<dyn Fn(&World, Entity, &mlua::Lua) -> Option<mlua::Result<mlua::Value>>>;
type TablesCheck = Box<dyn Fn(&hecs::EntityBuilder, &Tables) -> Vec<String>>;
type Filler = Box<dyn Fn(&RawValue) -> Option<serde_json::Value>>;

/// A scene key bound to a component type.
pub struct ComponentBinding {
    key: String,
    type_name: &'static str,
    package: String,
    spawn: Spawner,
    read: Reader,
    read_lua: LuaReader,
    settable: bool,
    tables_check: Option<TablesCheck>,
    asset_fields: Vec<AssetField>,
    fill: Option<Filler>,
}

impl ComponentBinding {
    /// The scene key (`kotoba_table`).
    pub fn key(&self) -> &str {
        &self.key
    }
    /// The Rust type's path, for docs.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
    /// The registering package ([`CORE`] for the host's own).
    pub fn package(&self) -> &str {
        &self.package
    }
    /// Whether scripts may change it with `Entity.set`.
    pub fn settable(&self) -> bool {
        self.settable
    }
    /// Checks an entity being built against the project's tables (for components whose
    /// values name tables); nothing for the rest.
    pub fn check_tables(&self, builder: &hecs::EntityBuilder, tables: &Tables) -> Vec<String> {
        match &self.tables_check {
            Some(check) => check(builder, tables),
            None => Vec::new(),
        }
    }
    /// The fields of the component that name files, and the files its package's code names
    /// ([`Registry::component_assets`]).
    pub fn asset_fields(&self) -> &[AssetField] {
        &self.asset_fields
    }
    /// Every file a scene value of this key names, with its kind and the field it came from
    /// (`(code)` for a name the package's code uses): the value is read as the component, so
    /// a field the scene leaves out names its default. A value that does not read names nothing
    /// (loading the scene reports it).
    pub fn asset_uses(&self, raw: &RawValue) -> Vec<(AssetKind, String, String)> {
        let Some(value) = self.fill.as_ref().and_then(|fill| fill(raw)) else {
            return Vec::new();
        };
        self.asset_fields
            .iter()
            .flat_map(|f| {
                f.names_in(&value)
                    .into_iter()
                    .map(move |(field, name)| (f.kind, field, name))
            })
            .collect()
    }
    /// Deserializes a scene value and adds the component to an entity being built.
    pub fn spawn(&self, builder: &mut hecs::EntityBuilder, raw: &RawValue) -> Result<(), String> {
        (self.spawn)(builder, raw)
    }
    /// The entity's component as JSON, if it has one.
    pub fn read(&self, world: &World, e: Entity) -> Option<serde_json::Value> {
        (self.read)(world, e)
    }
    pub(crate) fn read_lua(
        &self,
        world: &World,
        e: Entity,
        lua: &mlua::Lua,
    ) -> Option<mlua::Result<mlua::Value>> {
        (self.read_lua)(world, e, lua)
    }
}

type SystemFn = Box<dyn Fn(&mut World, f64)>;
type SetupFn = Box<dyn Fn(&mut World)>;

/// A package's step run once on each new world, before its first scene loads: what the
/// package puts in the world's resources for the other packages and the host to find (a
/// protocol a connection may speak, say).
pub struct Setup {
    name: String,
    package: String,
    run: SetupFn,
}

impl Setup {
    /// A name for logs and docs.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The registering package.
    pub fn package(&self) -> &str {
        &self.package
    }
}

/// A per-frame update, run in registration order after commands are applied.
pub struct System {
    name: String,
    package: String,
    run: SystemFn,
}

impl System {
    /// A name for logs and docs.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The registering package.
    pub fn package(&self) -> &str {
        &self.package
    }
    /// Runs the update for a frame of `dt` seconds.
    pub fn run(&self, world: &mut World, dt: f64) {
        (self.run)(world, dt)
    }
}

type BagLua = Box<dyn Fn(&World, Entity, &mlua::Lua) -> mlua::Result<Option<mlua::Value>>>;
type BagJson = Box<dyn Fn(&World) -> Vec<(Entity, serde_json::Value)>>;

/// What scripts read: a component type published, after systems run, as a table per entity.
/// A bag becomes a Lua table only when a script first reads it in a frame, so a large bag no
/// script looks at costs nothing.
pub struct Bag {
    key: String,
    type_name: &'static str,
    package: String,
    read_lua: BagLua,
    publish_json: BagJson,
}

impl Bag {
    /// The key scripts pass to `Entity.get(e, key)`.
    pub fn key(&self) -> &str {
        &self.key
    }
    /// The Rust type's path, for docs.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
    /// The registering package.
    pub fn package(&self) -> &str {
        &self.package
    }
    /// Every entity's bag as JSON, by entity id (for traces).
    pub fn to_json(&self, world: &World) -> Vec<(Entity, serde_json::Value)> {
        (self.publish_json)(world)
    }
    /// Entity `e`'s bag as a fresh Lua value, `None` when it has none.
    pub(crate) fn read_lua(
        &self,
        world: &World,
        e: Entity,
        lua: &mlua::Lua,
    ) -> mlua::Result<Option<mlua::Value>> {
        (self.read_lua)(world, e, lua)
    }
}

type TableCheck = Box<dyn Fn(&Tables) -> Vec<RowError>>;

/// A data table a package reads, checked row by row when a project loads.
pub struct TableBinding {
    name: String,
    type_name: &'static str,
    package: String,
    check: TableCheck,
}

impl TableBinding {
    /// The table's name (`kotoba_stages`, from `data/kotoba_stages.json`).
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The row type's path, for docs.
    pub fn type_name(&self) -> &'static str {
        self.type_name
    }
    /// The registering package.
    pub fn package(&self) -> &str {
        &self.package
    }
}

/// Everything the host and the linked packages added, in registration order.
pub struct Registry {
    current: String,
    packages: Vec<String>,
    components: BTreeMap<String, ComponentBinding>,
    commands: Vec<Command>,
    systems: Vec<System>,
    setups: Vec<Setup>,
    bags: Vec<Bag>,
    tables: Vec<TableBinding>,
    defaults: BTreeMap<String, (String, &'static [u8])>,
    problems: Vec<RegistryProblem>,
}

impl Registry {
    /// A registry with nothing in it, not even the core; [`Registry::new`] adds that.
    pub(crate) fn empty() -> Registry {
        Registry {
            current: CORE.into(),
            packages: Vec::new(),
            components: BTreeMap::new(),
            commands: Vec::new(),
            systems: Vec::new(),
            setups: Vec::new(),
            bags: Vec::new(),
            tables: Vec::new(),
            defaults: BTreeMap::new(),
            problems: Vec::new(),
        }
    }

    /// Registers one package.
    pub fn add(&mut self, package: &dyn Package) {
        if package.name() == CORE || self.packages.iter().any(|p| p == package.name()) {
            self.problems.push(RegistryProblem::PackageTwice {
                package: package.name().to_string(),
            });
            return;
        }
        self.packages.push(package.name().to_string());
        self.current = package.name().to_string();
        package.register(self);
        self.current = CORE.into();
    }

    /// The names of the registered packages, in order (the host's core is not among them).
    pub fn packages(&self) -> &[String] {
        &self.packages
    }

    /// Mistakes in registration, in the order they were made.
    pub fn problems(&self) -> &[RegistryProblem] {
        &self.problems
    }

    /// Every scene key's binding, core and package, by key.
    pub fn components(&self) -> impl Iterator<Item = &ComponentBinding> {
        self.components.values()
    }

    /// The binding of one scene key.
    pub fn binding(&self, key: &str) -> Option<&ComponentBinding> {
        self.components.get(key)
    }

    /// Commands in registration order, the host's first.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }

    /// Systems in registration order.
    pub fn systems(&self) -> &[System] {
        &self.systems
    }

    /// Set-up steps in registration order.
    pub fn setups(&self) -> &[Setup] {
        &self.setups
    }

    /// Runs every set-up step on a new world, in registration order (a package's after those
    /// of the packages it depends on, since those register first). A host calls it once,
    /// after putting its own resources in and before loading a scene.
    pub fn set_up(&self, world: &mut World) {
        for setup in &self.setups {
            (setup.run)(world);
        }
    }

    /// Bags in registration order.
    pub fn bags(&self) -> &[Bag] {
        &self.bags
    }

    /// Tables packages declared.
    pub fn tables(&self) -> &[TableBinding] {
        &self.tables
    }

    /// Binds a scene key to a component type (v2 scenes only, for packages).
    pub fn component<T>(&mut self, key: &str)
    where
        T: hecs::Component + Serialize + DeserializeOwned,
    {
        self.component_checked::<T>(key, |_| Ok(()));
    }

    /// Binds a scene key to a component type whose values `check` must accept: a scene with
    /// a value it refuses does not load, and the message names the entity and key.
    pub fn component_checked<T>(
        &mut self,
        key: &str,
        check: impl Fn(&T) -> Result<(), String> + 'static,
    ) where
        T: hecs::Component + Serialize + DeserializeOwned,
    {
        let spawn: Spawner = Box::new(move |builder, raw| {
            let value: T = parse_json(raw.get())?;
            check(&value)?;
            builder.add(value);
            Ok(())
        });
        self.bind::<T>(key, spawn, false);
    }

    /// Binds a core key: the host's own components, which may take a custom spawn and be
    /// settable from scripts.
    pub(crate) fn bind<T>(&mut self, key: &str, spawn: Spawner, settable: bool)
    where
        T: hecs::Component + Serialize,
    {
        if let Some(old) = self.components.get(key) {
            self.problems.push(RegistryProblem::KeyTaken {
                key: key.to_string(),
                owner: old.package.clone(),
                by: self.current.clone(),
            });
            return;
        }
        self.components.insert(
            key.to_string(),
            ComponentBinding {
                key: key.to_string(),
                type_name: std::any::type_name::<T>(),
                package: self.current.clone(),
                spawn,
                read: Box::new(|world, entity| {
                    let c = world.entities.get::<&T>(entity).ok()?;
                    serde_json::to_value(&*c).ok()
                }),
                read_lua: Box::new(|world, entity, lua| {
                    let c = world.entities.get::<&T>(entity).ok()?;
                    Some(to_lua(lua, &*c))
                }),
                settable,
                tables_check: None,
                asset_fields: Vec::new(),
                fill: None,
            },
        );
    }

    /// Adds to the component bound to `key` a check against the project's loaded tables, for
    /// a component whose values name tables (a level table, say): a scene with one whose tables
    /// do not pass does not load, and `jengine check` reports it, each problem naming the entity.
    pub fn component_tables<T>(
        &mut self,
        key: &str,
        check: impl Fn(&T, &Tables) -> Vec<String> + 'static,
    ) where
        T: hecs::Component,
    {
        if let Some(binding) = self.components.get_mut(key)
            && binding.package == self.current
        {
            binding.tables_check =
                Some(Box::new(move |builder, tables| match builder.get::<&T>() {
                    Some(value) => check(value, tables),
                    None => Vec::new(),
                }));
        }
    }

    /// Declares which fields of the component bound to `key` name files (textures, fonts,
    /// sounds), and which files the package's code names whenever the component is in a scene,
    /// so `jengine check` can say which file a scene wants, naming the entity and field, before
    /// anything is drawn:
    ///
    /// ```
    /// # use jengine::{AssetField, AssetKind, Registry};
    /// # #[derive(serde::Serialize, serde::Deserialize)]
    /// # struct Board { tile: String }
    /// # let mut reg = Registry::new();
    /// reg.component::<Board>("board");
    /// reg.component_assets::<Board>("board", &[
    ///     AssetField::texture("tile"),
    ///     AssetField::from_code(AssetKind::Texture, "board/glow.png"),
    /// ]);
    /// ```
    ///
    /// A field is read from the value as the component has it, defaults filled in. Declaring
    /// fields for a key the package does not bind to `T` is a registry problem.
    pub fn component_assets<T>(&mut self, key: &str, fields: &[AssetField])
    where
        T: hecs::Component + Serialize + DeserializeOwned,
    {
        match self.components.get_mut(key) {
            Some(binding)
                if binding.package == self.current
                    && binding.type_name == std::any::type_name::<T>() =>
            {
                binding.asset_fields.extend_from_slice(fields);
                binding.fill = Some(Box::new(|raw| {
                    let value: T = serde_json::from_str(raw.get()).ok()?;
                    serde_json::to_value(&value).ok()
                }));
            }
            _ => self.problems.push(RegistryProblem::AssetsForOtherKey {
                key: key.to_string(),
                by: self.current.clone(),
            }),
        }
    }

    /// Ships a default file with the package: `name` is its path inside a project's
    /// `assets/` folder (`textures/kotoba/tile.png`), and the bytes are usually an
    /// `include_bytes!` of a file in the package's crate. A project that has a file of that
    /// name uses its own; one that has none gets this one, on the desktop and on the web
    /// alike. Name defaults under a folder named for the package, so two packages never ship
    /// the same name (that is a registry problem, as is a name leaving the folder).
    pub fn asset(&mut self, name: &str, bytes: &'static [u8]) {
        if let Err(e) = crate::asset::check_asset_name(name) {
            self.problems.push(RegistryProblem::BadAssetName {
                name: name.to_string(),
                problem: e.to_string(),
                by: self.current.clone(),
            });
            return;
        }
        let name = name
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect::<Vec<_>>()
            .join("/");
        if let Some((owner, _)) = self.defaults.get(&name) {
            self.problems.push(RegistryProblem::AssetTaken {
                name,
                owner: owner.clone(),
                by: self.current.clone(),
            });
            return;
        }
        self.defaults.insert(name, (self.current.clone(), bytes));
    }

    /// The package that ships the default file `name` (inside `assets/`), if one does.
    pub fn default_asset(&self, name: &str) -> Option<(&str, &'static [u8])> {
        self.defaults
            .get(name)
            .map(|(package, bytes)| (package.as_str(), *bytes))
    }

    /// Every default file the packages ship, named from a project's top
    /// (`assets/textures/kotoba/tile.png`): what [`crate::host::with_defaults`] puts under a
    /// project's own files.
    pub fn default_assets(&self) -> std::sync::Arc<dyn crate::host::Assets> {
        std::sync::Arc::new(crate::defaults::memory_of(
            self.defaults
                .iter()
                .map(|(name, (_, bytes))| (name.as_str(), *bytes)),
        ))
    }

    /// Adds a command, callable as `Namespace.name(...)` and `namespace_name(...)`.
    ///
    /// `params` is a tuple of named, typed parameters; the handler receives their values,
    /// checked at the call:
    ///
    /// ```
    /// # use jengine::{Registry, value::{entity, integer}};
    /// # let mut reg = Registry::new();
    /// reg.command("Counter", "add", (entity("e"), integer("n")), |world, (e, n)| {
    ///     let _ = (world, e, n);
    ///     Ok(())
    /// });
    /// ```
    pub fn command<P, F>(&mut self, namespace: &str, name: &str, params: P, handler: F)
    where
        P: Params + 'static,
        F: Fn(&mut World, P::Values) -> Result<(), String> + 'static,
    {
        let flat = format!("{}_{}", namespace.to_lowercase(), name);
        if let Some(old) = self.commands.iter().find(|c| c.flat == flat) {
            self.problems.push(RegistryProblem::CommandTaken {
                command: format!("{namespace}.{name}"),
                owner: old.package.clone(),
                by: self.current.clone(),
            });
            return;
        }
        if let Some(owner) = self
            .commands
            .iter()
            .find(|c| c.namespace == namespace && c.package != self.current)
        {
            self.problems.push(RegistryProblem::NamespaceTaken {
                namespace: namespace.to_string(),
                owner: owner.package.clone(),
                by: self.current.clone(),
                name: name.to_string(),
            });
            return;
        }
        let list = params.list();
        let params = Rc::new(params);
        let rule = params.rule().map(|words| {
            let params = params.clone();
            let check: Rule =
                Rc::new(move |values: &[Value]| value::check_together(&*params, values));
            (words, check)
        });
        self.commands.push(Command {
            namespace: namespace.to_string(),
            name: name.to_string(),
            flat,
            aliases: Vec::new(),
            params: list,
            rule,
            package: self.current.clone(),
            handler: Box::new(move |world, args| {
                let values = params.read(args).map_err(|e| e.to_string())?;
                handler(world, values)
            }),
        });
    }

    /// Gives every command this package has in `namespace` a second flat name,
    /// `prefix_name`, beside `namespace_name` (a package whose documented flat names are
    /// shorter than its namespace: `crawl_walk` for `Crawler.walk`). Call it after the
    /// commands. A prefix that is not a lower-case Lua name, or a name another command already
    /// answers to, is a registry problem.
    pub fn flat_alias(&mut self, namespace: &str, prefix: &str) {
        let good = prefix
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase())
            && prefix
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !good {
            self.problems.push(RegistryProblem::BadAlias {
                prefix: prefix.to_string(),
                by: self.current.clone(),
            });
            return;
        }
        let mine: Vec<usize> = (0..self.commands.len())
            .filter(|&i| {
                self.commands[i].namespace == namespace && self.commands[i].package == self.current
            })
            .collect();
        for i in mine {
            let alias = format!("{prefix}_{}", self.commands[i].name);
            let taken = self
                .commands
                .iter()
                .find(|c| c.flat == alias || c.aliases.contains(&alias));
            if let Some(owner) = taken {
                self.problems.push(RegistryProblem::CommandTaken {
                    command: alias,
                    owner: owner.package.clone(),
                    by: self.current.clone(),
                });
                continue;
            }
            self.commands[i].aliases.push(alias);
        }
    }

    /// Adds a per-frame update; it receives the world and the frame's `dt` in seconds.
    pub fn system<F>(&mut self, name: &str, run: F)
    where
        F: Fn(&mut World, f64) + 'static,
    {
        self.systems.push(System {
            name: name.to_string(),
            package: self.current.clone(),
            run: Box::new(run),
        });
    }

    /// Adds a step run once on each new world before its first scene loads (see [`Setup`]).
    pub fn setup<F>(&mut self, name: &str, run: F)
    where
        F: Fn(&mut World) + 'static,
    {
        self.setups.push(Setup {
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
        if let Some(old) = self.bags.iter().find(|b| b.key == key) {
            self.problems.push(RegistryProblem::BagTaken {
                key: key.to_string(),
                owner: old.package.clone(),
                by: self.current.clone(),
            });
            return;
        }
        self.bags.push(Bag {
            key: key.to_string(),
            type_name: std::any::type_name::<T>(),
            package: self.current.clone(),
            read_lua: Box::new(|world, e, lua| match world.entities.get::<&T>(e) {
                Ok(value) => to_lua(lua, &*value).map(Some),
                Err(_) => Ok(None),
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
        if let Some(old) = self.tables.iter().find(|t| t.name == name) {
            self.problems.push(RegistryProblem::TableTaken {
                name: name.to_string(),
                owner: old.package.clone(),
                by: self.current.clone(),
            });
            return;
        }
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

    /// Declares a table the package reads when a project has one and does without otherwise
    /// (built-in content, say), checked whole by the package's own validator: `check` gets the
    /// loaded rows and returns each problem with its row.
    pub fn optional_table<F>(&mut self, name: &str, check: F)
    where
        F: Fn(&RawTable) -> Vec<RowError> + 'static,
    {
        if let Some(old) = self.tables.iter().find(|t| t.name == name) {
            self.problems.push(RegistryProblem::TableTaken {
                name: name.to_string(),
                owner: old.package.clone(),
                by: self.current.clone(),
            });
            return;
        }
        let table_name = name.to_string();
        self.tables.push(TableBinding {
            name: name.to_string(),
            type_name: "optional table, checked whole",
            package: self.current.clone(),
            check: Box::new(move |tables| match tables.raw(&table_name) {
                Some(raw) => check(raw),
                None => Vec::new(),
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
        self.commands.iter().find(|c| {
            c.flat == name || c.qualified() == name || c.aliases.iter().any(|a| a == name)
        })
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
            reg.command("Counter", "sub", (), |_, ()| Ok(()));
            reg.component::<Counter>("transform");
            reg.bag::<Counter>("counter");
        }
    }

    #[test]
    fn commands_get_flat_names_and_signatures() {
        let reg = Registry::with(&[&CounterPackage]);
        let cmd = reg.find_command("counter_add").unwrap();
        assert_eq!(cmd.signature(), "Counter.add(e, n)");
        assert_eq!(cmd.typed_signature(), "Counter.add(e: entity, n: number)");
        assert_eq!(cmd.package(), "jengine-counter");
        assert!(reg.find_command("Counter.add").is_some());
        assert!(reg.problems().is_empty(), "{:?}", reg.problems());
    }

    /// Two packages whose set-up steps fill one resource: the second's runs after the first's.
    struct Lays(&'static str);
    impl Package for Lays {
        fn name(&self) -> &'static str {
            self.0
        }
        fn register(&self, reg: &mut Registry) {
            let name = self.0;
            reg.setup("lay", move |world| {
                world
                    .resources
                    .get_or_default::<Vec<&'static str>>()
                    .push(name)
            });
        }
    }

    #[test]
    fn set_up_steps_run_once_on_a_world_in_registration_order() {
        let reg = Registry::with(&[&Lays("first"), &CounterPackage, &Lays("second")]);
        assert_eq!(reg.setups().len(), 2);
        assert_eq!(reg.setups()[1].package(), "second");
        assert_eq!(reg.setups()[1].name(), "lay");
        let mut world = World::new();
        reg.set_up(&mut world);
        assert_eq!(
            world.resources.get::<Vec<&'static str>>().unwrap(),
            &vec!["first", "second"]
        );
    }

    /// A package with short flat names, one prefix that is no Lua name, and one alias that
    /// lands on a name the counter package has.
    struct Shorty;
    impl Package for Shorty {
        fn name(&self) -> &'static str {
            "shorty"
        }
        fn register(&self, reg: &mut Registry) {
            reg.command("Shortened", "go", (), |_, ()| Ok(()));
            reg.command("Shortened", "add", (), |_, ()| Ok(()));
            reg.flat_alias("Shortened", "short");
            reg.flat_alias("Shortened", "Bad-Prefix");
            reg.flat_alias("Shortened", "counter");
        }
    }

    #[test]
    fn a_namespace_may_answer_to_a_second_flat_prefix() {
        let reg = Registry::with(&[&CounterPackage, &Shorty]);
        let go = reg.find_command("short_go").unwrap();
        assert_eq!(go.qualified(), "Shortened.go");
        assert_eq!(go.flat(), "shortened_go");
        assert_eq!(go.aliases(), ["short_go", "counter_go"]);
        assert!(reg.find_command("shortened_go").is_some());
        // `counter_add` is the counter package's: the alias is refused, the command keeps the
        // name it had.
        assert_eq!(
            reg.find_command("counter_add").unwrap().package(),
            "jengine-counter"
        );
        assert_eq!(
            reg.problems(),
            [
                RegistryProblem::BadAlias {
                    prefix: "Bad-Prefix".into(),
                    by: "shorty".into()
                },
                RegistryProblem::CommandTaken {
                    command: "counter_add".into(),
                    owner: "jengine-counter".into(),
                    by: "shorty".into()
                },
            ]
        );
        assert!(
            reg.problems()[0]
                .to_string()
                .contains("not a lower-case Lua name")
        );
    }

    #[test]
    fn the_core_registers_through_the_same_table() {
        let reg = Registry::new();
        let keys: Vec<&str> = reg.components().map(|c| c.key()).collect();
        assert_eq!(
            keys,
            [
                "bulk",
                "camera",
                "mesh",
                "name",
                "script",
                "sprite",
                "sprite_library",
                "text",
                "transform"
            ]
        );
        assert!(reg.components().all(|c| c.package() == CORE));
        let settable: Vec<&str> = reg
            .components()
            .filter(|c| c.settable())
            .map(|c| c.key())
            .collect();
        assert_eq!(settable, ["camera", "mesh", "sprite", "text", "transform"]);
        assert!(reg.packages().is_empty());
        assert_eq!(reg.find_command("Scene.load").unwrap().package(), CORE);
    }

    #[test]
    fn taken_keys_and_namespaces_are_typed_problems_naming_both_packages() {
        let reg = Registry::with(&[&CounterPackage, &Squatter, &CounterPackage]);
        assert_eq!(
            reg.problems(),
            [
                RegistryProblem::KeyTaken {
                    key: "counter".into(),
                    owner: "jengine-counter".into(),
                    by: "squatter".into()
                },
                RegistryProblem::NamespaceTaken {
                    namespace: "Counter".into(),
                    owner: "jengine-counter".into(),
                    by: "squatter".into(),
                    name: "sub".into()
                },
                RegistryProblem::KeyTaken {
                    key: "transform".into(),
                    owner: CORE.into(),
                    by: "squatter".into()
                },
                RegistryProblem::BagTaken {
                    key: "counter".into(),
                    owner: "jengine-counter".into(),
                    by: "squatter".into()
                },
                RegistryProblem::PackageTwice {
                    package: "jengine-counter".into()
                },
            ]
        );
        assert_eq!(
            reg.problems()[2].to_string(),
            "scene key \"transform\" is registered by both the host and squatter"
        );
    }

    #[test]
    fn an_optional_table_is_checked_whole_when_present_and_fine_when_absent() {
        struct Reads;
        impl Package for Reads {
            fn name(&self) -> &'static str {
                "reads"
            }
            fn register(&self, reg: &mut Registry) {
                reg.optional_table("levels", |raw| {
                    raw.rows
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.get("id").is_none())
                        .map(|(i, _)| RowError {
                            file: raw.file.clone(),
                            row: i + 1,
                            label: None,
                            message: "id: missing".into(),
                        })
                        .collect()
                });
            }
        }
        let reg = Registry::with(&[&Reads]);
        let mut tables = Tables::default();
        assert!(reg.check_tables(&tables).is_empty());
        tables
            .insert_json("levels", r#"[{"id": "a"}, {"name": "b"}]"#)
            .unwrap();
        assert_eq!(
            reg.check_tables(&tables),
            ["data/levels.json: row 2: id: missing (table of reads)"]
        );
    }

    #[test]
    fn a_component_naming_tables_is_checked_against_them_when_its_scene_loads() {
        #[derive(serde::Serialize, serde::Deserialize)]
        struct Uses {
            table: String,
        }
        struct Reads;
        impl Package for Reads {
            fn name(&self) -> &'static str {
                "reads"
            }
            fn register(&self, reg: &mut Registry) {
                reg.component::<Uses>("uses");
                reg.component_tables::<Uses>("uses", |u, tables| match tables.raw(&u.table) {
                    Some(_) => Vec::new(),
                    None => vec![format!("no table {:?}", u.table)],
                });
            }
        }
        let reg = Registry::with(&[&Reads]);
        let text = r#"{"version": 2, "entities": [{"name": "a", "uses": {"table": "levels"}}]}"#;
        let scene = crate::host::Scene::parse("s.scene", text, &reg).unwrap();
        let mut tables = Tables::default();
        let errors: Vec<String> = scene
            .check_tables(&reg, &tables)
            .iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            errors,
            ["s.scene: entity 0 (\"a\"), key \"uses\": no table \"levels\""]
        );
        tables.insert_json("levels", "[]").unwrap();
        assert!(scene.check_tables(&reg, &tables).is_empty());
    }

    #[test]
    fn default_files_and_asset_fields_are_registered_with_their_package() {
        #[derive(Debug, serde::Serialize, serde::Deserialize)]
        #[serde(default)]
        struct Board {
            tile: String,
            size: f32,
        }
        impl Default for Board {
            fn default() -> Board {
                Board {
                    tile: "board/tile.png".into(),
                    size: 1.0,
                }
            }
        }
        struct Boards;
        impl Package for Boards {
            fn name(&self) -> &'static str {
                "boards"
            }
            fn register(&self, reg: &mut Registry) {
                reg.component::<Board>("board");
                reg.component_assets::<Board>(
                    "board",
                    &[
                        AssetField::texture("tile"),
                        AssetField::from_code(AssetKind::Texture, "board/glow.png"),
                    ],
                );
                reg.component_assets::<Counter>("board", &[AssetField::texture("start")]);
                reg.asset("textures/board/tile.png", b"png");
                reg.asset("./textures//board/glow.png", b"glow");
                reg.asset("../up.png", b"x");
            }
        }
        struct Copycat;
        impl Package for Copycat {
            fn name(&self) -> &'static str {
                "copycat"
            }
            fn register(&self, reg: &mut Registry) {
                reg.asset("textures/board/tile.png", b"other");
                reg.component_assets::<Counter>("counter", &[AssetField::texture("start")]);
            }
        }
        let reg = Registry::with(&[&CounterPackage, &Boards, &Copycat]);
        let problems: Vec<String> = reg.problems().iter().map(|p| p.to_string()).collect();
        assert_eq!(
            problems,
            [
                "boards declares asset fields for scene key \"board\", which it does not bind to that type",
                "boards ships a default file \"../up.png\" that is refused: \"../up.png\" leaves its folder: asset names are relative paths inside it",
                "default file assets/textures/board/tile.png is shipped by both boards and copycat",
                "copycat declares asset fields for scene key \"counter\", which it does not bind to that type",
            ]
        );
        assert_eq!(
            reg.default_asset("textures/board/glow.png"),
            Some(("boards", &b"glow"[..]))
        );
        let files = reg.default_assets();
        assert_eq!(
            files.read("assets/textures/board/tile.png").unwrap(),
            b"png"
        );
        let board = reg.binding("board").unwrap();
        assert_eq!(board.asset_fields().len(), 2);
        let raw = |t: &str| RawValue::from_string(t.to_string()).unwrap();
        let uses = |t: &str| board.asset_uses(&raw(t));
        let texture = AssetKind::Texture;
        assert_eq!(
            uses("{}"),
            [
                (texture, "tile".to_string(), "board/tile.png".to_string()),
                (texture, "(code)".to_string(), "board/glow.png".to_string()),
            ]
        );
        assert_eq!(
            uses(r#"{"tile": "mine.png"}"#)[0],
            (texture, "tile".to_string(), "mine.png".to_string())
        );
        assert!(uses(r#"{"tile": 5}"#).is_empty());
        assert!(
            reg.binding("counter")
                .unwrap()
                .asset_uses(&raw("{}"))
                .is_empty()
        );
    }

    #[test]
    fn a_handler_receives_the_declared_types() {
        let mut reg = Registry::new();
        reg.command(
            "T",
            "go",
            (
                crate::value::string("s"),
                crate::value::integer("n").optional(),
            ),
            |world, (s, n)| {
                world.log().info(format!("{s} {n:?}"));
                Ok(())
            },
        );
        let mut world = World::new();
        let cmd = reg.find_command("t_go").unwrap();
        cmd.apply(
            &mut world,
            Args::new(vec![crate::Value::Str("hi".into()), crate::Value::Nil]),
        )
        .unwrap();
        assert_eq!(world.log().drain()[0].message, "hi None");
    }
}
