//! Script values as commands receive them, and the parameter lists that check them.
//!
//! A command declares its parameters once, as a tuple of typed, named parameters
//! (`(entity("e"), integer("n"))`). The same declaration gives the signature docs show, the
//! check the Lua bridge runs at the call, and the typed values the handler receives, so the
//! list and the reads cannot drift apart.
//!
//! A parameter may also declare what range it takes (`integer("radius").at_least(0)`,
//! `number("volume").range(0.0, 1.0)`, `string("dir").one_of(&["up", "down"])`), and a
//! whole list a rule over its arguments together ([`Params::such_that`]): a value outside is
//! refused at the call exactly like a wrong kind, and docs show the range beside the name.

use std::fmt;
use std::marker::PhantomData;

use crate::world::Entity;

/// One argument as it crossed from the script.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `nil`, or an argument left off the end.
    Nil,
    /// `true` / `false`.
    Bool(bool),
    /// A Lua integer.
    Int(i64),
    /// A Lua float.
    Num(f64),
    /// A string.
    Str(String),
    /// A table, as JSON (arrays for sequences, objects otherwise).
    Table(serde_json::Value),
}

impl Value {
    /// The value's kind in a script author's words.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::Num(_) => "number",
            Value::Str(_) => "string",
            Value::Table(_) => "table",
        }
    }
}

impl fmt::Display for Value {
    /// `nil`, `boolean true`, `number 3.5`, `string "abc"`, `table`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Nil => f.write_str("nil"),
            Value::Bool(b) => write!(f, "boolean {b}"),
            Value::Int(i) => write!(f, "number {i}"),
            Value::Num(n) => write!(f, "number {n}"),
            Value::Str(s) if s.chars().count() > 40 => {
                let short: String = s.chars().take(40).collect();
                write!(f, "string {short:?}...")
            }
            Value::Str(s) => write!(f, "string {s:?}"),
            Value::Table(_) => f.write_str("table"),
        }
    }
}

/// What a parameter accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An entity handle (as returned by `Entity.find` or passed to callbacks).
    Entity,
    /// Any finite number.
    Number,
    /// A whole number: a Lua integer, or a float with no fraction within ±2^53.
    Integer,
    /// A string.
    String,
    /// A string naming a file inside its asset folder (no `..`, no absolute path).
    AssetName,
    /// A boolean.
    Boolean,
    /// A table.
    Table,
    /// Anything, nil included.
    Any,
}

impl Kind {
    /// Its name in a typed signature: `entity`, `number`, `integer`, `string`, `asset`,
    /// `boolean`, `table`, `any`.
    pub fn type_name(self) -> &'static str {
        match self {
            Kind::Entity => "entity",
            Kind::Number => "number",
            Kind::Integer => "integer",
            Kind::String => "string",
            Kind::AssetName => "asset",
            Kind::Boolean => "boolean",
            Kind::Table => "table",
            Kind::Any => "any",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Kind::Entity => "an entity",
            Kind::Number => "a finite number",
            Kind::Integer => "a whole number",
            Kind::String => "a string",
            Kind::AssetName => "a name inside its folder",
            Kind::Boolean => "a boolean",
            Kind::Table => "a table",
            Kind::Any => "any value",
        }
    }
}

/// The largest float an integer parameter takes: past 2^53 floats skip whole numbers, so a
/// script's `2^60` is not the number it looks like.
const EXACT_FLOAT: f64 = 9_007_199_254_740_992.0;

/// The longest string a command argument may be, unless its parameter says otherwise
/// ([`Arg::up_to`]).
pub const MAX_STRING_ARG: usize = 64 * 1024;

/// One end of a number parameter's range, kept in the parameter's own kind so a whole-number
/// bound compares exactly however large it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// A whole-number bound (an [`integer`] parameter's).
    Int(i64),
    /// A number bound (a [`number`] parameter's).
    Num(f64),
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::Int(i) => write!(f, "{i}"),
            Bound::Num(n) => write!(f, "{n}"),
        }
    }
}

impl Bound {
    /// Whether a checked number `value` lies below this bound.
    fn above(self, value: &Value) -> bool {
        match (self, value) {
            (Bound::Int(b), Value::Int(v)) => *v < b,
            (Bound::Int(b), Value::Num(v)) => *v < b as f64,
            (Bound::Num(b), Value::Int(v)) => (*v as f64) < b,
            (Bound::Num(b), Value::Num(v)) => *v < b,
            _ => false,
        }
    }

    /// Whether a checked number `value` lies above this bound.
    fn below(self, value: &Value) -> bool {
        match (self, value) {
            (Bound::Int(b), Value::Int(v)) => *v > b,
            (Bound::Int(b), Value::Num(v)) => *v > b as f64,
            (Bound::Num(b), Value::Int(v)) => (*v as f64) > b,
            (Bound::Num(b), Value::Num(v)) => *v > b,
            _ => false,
        }
    }
}

/// One declared parameter, untyped: what signatures, docs and the call check read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Param {
    /// Its name, used in error messages and generated docs.
    pub name: &'static str,
    /// What it accepts.
    pub kind: Kind,
    /// Whether `nil` (or leaving it off) is allowed.
    pub optional: bool,
    /// The most bytes a string given for it may take ([`MAX_STRING_ARG`] unless raised).
    pub max_bytes: usize,
    /// The smallest number it takes, if it has a floor.
    pub at_least: Option<Bound>,
    /// The largest number it takes, if it has a ceiling.
    pub at_most: Option<Bound>,
    /// The only strings it takes (empty: any string).
    pub one_of: &'static [&'static str],
    /// What the value means or names, for docs (`a stage id: "builtin" or a row of
    /// data/kotoba_stages`), if the package says.
    pub about: Option<&'static str>,
    /// The project table whose row ids a string parameter names, if it names one: what
    /// `jengine check` holds a literal argument to.
    pub row_of: Option<RowOf>,
}

/// The rows a string parameter names: an `id` of the project table `table`
/// (`data/<table>.json`), or one of the names in `also` the package knows without a table
/// (`"builtin"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowOf {
    /// The table's name (`kotoba_stages`).
    pub table: &'static str,
    /// Names taken besides the table's ids.
    pub also: &'static [&'static str],
}

impl Param {
    /// What it takes besides its kind, in a script author's words (`0 or more`, `1 to 4`,
    /// `"up", "down"`), or `None` when any value of its kind will do.
    pub fn range(&self) -> Option<String> {
        if !self.one_of.is_empty() {
            let names: Vec<String> = self.one_of.iter().map(|s| format!("{s:?}")).collect();
            return Some(match names.as_slice() {
                [one] => one.clone(),
                [init @ .., last] => format!("{} or {last}", init.join(", ")),
                [] => String::new(),
            });
        }
        match (self.at_least, self.at_most) {
            (Some(lo), Some(hi)) => Some(format!("{lo} to {hi}")),
            (Some(lo), None) => Some(format!("{lo} or more")),
            (None, Some(hi)) => Some(format!("{hi} or less")),
            (None, None) => None,
        }
    }

    /// Refuses a value of the right kind that lies outside the declared range.
    fn check_range(&self, position: usize, value: &Value) -> Result<(), ArgError> {
        let outside = match value {
            Value::Int(_) | Value::Num(_) => {
                self.at_least.is_some_and(|lo| lo.above(value))
                    || self.at_most.is_some_and(|hi| hi.below(value))
            }
            Value::Str(s) => !self.one_of.is_empty() && !self.one_of.contains(&s.as_str()),
            _ => false,
        };
        if !outside {
            return Ok(());
        }
        let range = self.range().unwrap_or_default();
        Err(ArgError {
            position,
            name: self.name,
            expected: if self.one_of.is_empty() {
                "a number in range"
            } else {
                "one of the names it takes"
            },
            got: value.to_string(),
            range: Some(range),
        })
    }
}

/// A Rust type a parameter reads into.
pub trait FromValue: Sized {
    /// What a parameter of this type accepts.
    const KIND: Kind;
    /// The value, if it is of this type (after the call check has passed).
    fn from_value(value: Value) -> Option<Self>;
}

impl FromValue for Entity {
    const KIND: Kind = Kind::Entity;
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Int(bits) => Entity::from_bits(bits as u64),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    const KIND: Kind = Kind::Number;
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Int(i) => Some(i as f64),
            Value::Num(n) if n.is_finite() => Some(n),
            _ => None,
        }
    }
}

impl FromValue for i64 {
    const KIND: Kind = Kind::Integer;
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Int(i) => Some(i),
            Value::Num(n) if n.fract() == 0.0 && n.abs() <= EXACT_FLOAT => Some(n as i64),
            _ => None,
        }
    }
}

impl FromValue for String {
    const KIND: Kind = Kind::String;
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl FromValue for bool {
    const KIND: Kind = Kind::Boolean;
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }
}

impl FromValue for serde_json::Value {
    const KIND: Kind = Kind::Table;
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Table(t) => Some(t),
            _ => None,
        }
    }
}

impl FromValue for Value {
    const KIND: Kind = Kind::Any;
    fn from_value(value: Value) -> Option<Self> {
        Some(value)
    }
}

impl<T: FromValue> FromValue for Option<T> {
    const KIND: Kind = T::KIND;
    fn from_value(value: Value) -> Option<Self> {
        match value {
            Value::Nil => Some(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// A named parameter that reads as a `T`: one element of a command's declaration.
pub struct Arg<T> {
    param: Param,
    read: PhantomData<fn() -> T>,
}

impl<T> Clone for Arg<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Arg<T> {}

impl<T> Arg<T> {
    const fn new(name: &'static str, kind: Kind, optional: bool) -> Arg<T> {
        Arg {
            param: Param {
                name,
                kind,
                optional,
                max_bytes: MAX_STRING_ARG,
                at_least: None,
                at_most: None,
                one_of: &[],
                about: None,
                row_of: None,
            },
            read: PhantomData,
        }
    }

    /// The same parameter with a word for docs on what it means or what an id it takes
    /// names (`"a stage id: \"builtin\" or a row of data/kotoba_stages"`). It changes no check.
    pub const fn about(mut self, words: &'static str) -> Arg<T> {
        self.param.about = Some(words);
        self
    }

    /// The untyped description.
    pub fn param(&self) -> Param {
        self.param
    }
}

impl<T: FromValue> Arg<T> {
    /// The same parameter, allowing `nil`: the handler receives `None` for it.
    pub const fn optional(self) -> Arg<Option<T>> {
        let mut param = self.param;
        param.optional = true;
        Arg {
            param,
            read: PhantomData,
        }
    }
}

impl Arg<i64> {
    /// The same whole-number parameter, refusing anything below `lo` at the call.
    pub const fn at_least(mut self, lo: i64) -> Arg<i64> {
        self.param.at_least = Some(Bound::Int(lo));
        self
    }
    /// The same whole-number parameter, refusing anything above `hi` at the call.
    pub const fn at_most(mut self, hi: i64) -> Arg<i64> {
        self.param.at_most = Some(Bound::Int(hi));
        self
    }
    /// The same whole-number parameter, taking only `lo` to `hi` (both included).
    pub const fn range(self, lo: i64, hi: i64) -> Arg<i64> {
        self.at_least(lo).at_most(hi)
    }
}

impl Arg<f64> {
    /// The same number parameter, refusing anything below `lo` at the call.
    pub const fn at_least(mut self, lo: f64) -> Arg<f64> {
        self.param.at_least = Some(Bound::Num(lo));
        self
    }
    /// The same number parameter, refusing anything above `hi` at the call.
    pub const fn at_most(mut self, hi: f64) -> Arg<f64> {
        self.param.at_most = Some(Bound::Num(hi));
        self
    }
    /// The same number parameter, taking only `lo` to `hi` (both included).
    pub const fn range(self, lo: f64, hi: f64) -> Arg<f64> {
        self.at_least(lo).at_most(hi)
    }
}

impl Arg<String> {
    /// The same string parameter taking up to `bytes` bytes instead of [`MAX_STRING_ARG`]
    /// (a share link for the clipboard, say). Every byte still counts against the callback's
    /// host-copy allowance.
    pub const fn up_to(mut self, bytes: usize) -> Arg<String> {
        self.param.max_bytes = bytes;
        self
    }

    /// The same string parameter, taking only these strings (a direction, a mode).
    pub const fn one_of(mut self, names: &'static [&'static str]) -> Arg<String> {
        self.param.one_of = names;
        self
    }

    /// The same string parameter, naming a row id of the project table `table` or one of
    /// `also`. The call itself is not checked against the table (the package's handler knows
    /// what a missing row means); `jengine check` holds literal arguments in scripts to it.
    pub const fn row_of(
        mut self,
        table: &'static str,
        also: &'static [&'static str],
    ) -> Arg<String> {
        self.param.row_of = Some(RowOf { table, also });
        self
    }
}

/// A parameter taking an entity.
pub const fn entity(name: &'static str) -> Arg<Entity> {
    Arg::new(name, Kind::Entity, false)
}
/// A parameter taking a finite number.
pub const fn number(name: &'static str) -> Arg<f64> {
    Arg::new(name, Kind::Number, false)
}
/// A parameter taking a whole number.
pub const fn integer(name: &'static str) -> Arg<i64> {
    Arg::new(name, Kind::Integer, false)
}
/// A parameter taking a string.
pub const fn string(name: &'static str) -> Arg<String> {
    Arg::new(name, Kind::String, false)
}
/// A parameter taking a string that names an asset (a scene, a table, a texture): refused at
/// the call when it would leave its folder.
pub const fn asset(name: &'static str) -> Arg<String> {
    Arg::new(name, Kind::AssetName, false)
}
/// A parameter taking a boolean.
pub const fn boolean(name: &'static str) -> Arg<bool> {
    Arg::new(name, Kind::Boolean, false)
}
/// A parameter taking a table, received as JSON.
pub const fn table(name: &'static str) -> Arg<serde_json::Value> {
    Arg::new(name, Kind::Table, false)
}
/// A parameter taking anything, nil included.
pub const fn any(name: &'static str) -> Arg<Value> {
    Arg::new(name, Kind::Any, true)
}

/// A command's whole parameter list: a tuple of [`Arg`]s (or `()` for none).
pub trait Params {
    /// The tuple of typed values the handler receives.
    type Values;
    /// The untyped list, in order.
    fn list(&self) -> Vec<Param>;
    /// Reads checked arguments into the typed tuple.
    fn read(&self, args: Args) -> Result<Self::Values, ArgError>;
    /// The rule over the arguments together, if the list has one ([`Params::such_that`]).
    fn rule(&self) -> Option<&'static str> {
        None
    }
    /// Whether the rule over the arguments together holds for these checked values.
    fn holds(&self, values: &Self::Values) -> bool {
        let _ = values;
        true
    }
    /// The same list with a rule over its arguments together, in words for the error and the
    /// docs (`"(dx, dy) is one step: (0, 1), (0, -1), (1, 0) or (-1, 0)"`) and as a test of
    /// the typed values. A call that breaks it is refused at the call, like a wrong kind.
    fn such_that(self, rule: &'static str, holds: fn(&Self::Values) -> bool) -> Together<Self>
    where
        Self: Sized,
    {
        Together {
            params: self,
            rule,
            holds,
        }
    }
}

/// A parameter list with a rule over its arguments together (see [`Params::such_that`]).
pub struct Together<P: Params> {
    params: P,
    rule: &'static str,
    holds: fn(&P::Values) -> bool,
}

impl<P: Params> Params for Together<P> {
    type Values = P::Values;
    fn list(&self) -> Vec<Param> {
        self.params.list()
    }
    fn read(&self, args: Args) -> Result<Self::Values, ArgError> {
        self.params.read(args)
    }
    fn rule(&self) -> Option<&'static str> {
        Some(self.rule)
    }
    fn holds(&self, values: &Self::Values) -> bool {
        (self.holds)(values)
    }
}

/// Checks a rule over a call's arguments together, after each has passed its own check: the
/// error names the rule and the values it was given.
pub fn check_together<P: Params>(params: &P, values: &[Value]) -> Result<(), ArgError> {
    let Some(rule) = params.rule() else {
        return Ok(());
    };
    let typed = params.read(Args::new(values.to_vec()))?;
    if params.holds(&typed) {
        return Ok(());
    }
    let given: Vec<String> = params
        .list()
        .iter()
        .zip(values)
        .filter(|(p, _)| !matches!(p.kind, Kind::Entity | Kind::Table))
        .map(|(p, v)| match v {
            Value::Int(i) => format!("{} = {i}", p.name),
            Value::Num(n) => format!("{} = {n}", p.name),
            Value::Str(s) => format!("{} = {s:?}", p.name),
            Value::Bool(b) => format!("{} = {b}", p.name),
            other => format!("{} = {other}", p.name),
        })
        .collect();
    Err(ArgError {
        position: 0,
        name: "",
        expected: rule,
        got: given.join(", "),
        range: None,
    })
}

impl Params for () {
    type Values = ();
    fn list(&self) -> Vec<Param> {
        Vec::new()
    }
    fn read(&self, _: Args) -> Result<(), ArgError> {
        Ok(())
    }
}

macro_rules! params_tuple {
    ($($t:ident $i:tt),+) => {
        impl<$($t: FromValue),+> Params for ($(Arg<$t>,)+) {
            type Values = ($($t,)+);
            fn list(&self) -> Vec<Param> {
                vec![$(self.$i.param),+]
            }
            fn read(&self, args: Args) -> Result<Self::Values, ArgError> {
                let mut values = args.values.into_iter();
                Ok(($(read_one(&self.$i, $i, values.next().unwrap_or(Value::Nil))?,)+))
            }
        }
    };
}

fn read_one<T: FromValue>(arg: &Arg<T>, index: usize, value: Value) -> Result<T, ArgError> {
    let got = value.to_string();
    T::from_value(value).ok_or(ArgError {
        position: index + 1,
        name: arg.param.name,
        expected: T::KIND.noun(),
        got,
        range: None,
    })
}

params_tuple!(A 0);
params_tuple!(A 0, B 1);
params_tuple!(A 0, B 1, C 2);
params_tuple!(A 0, B 1, C 2, D 3);
params_tuple!(A 0, B 1, C 2, D 3, E 4);
params_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
params_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
params_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

/// Why a call's arguments were refused.
#[derive(Debug, Clone, PartialEq)]
pub struct ArgError {
    /// 1-based position of the argument.
    pub position: usize,
    /// The declared name, or empty for a surplus argument.
    pub name: &'static str,
    /// What it should have been.
    pub expected: &'static str,
    /// What it was.
    pub got: String,
    /// The range it had to lie in, when it was of the right kind but outside it.
    pub range: Option<String>,
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.position == 0 {
            write!(
                f,
                "the arguments must be such that {}, got {}",
                self.expected, self.got
            )
        } else if let Some(range) = &self.range {
            write!(
                f,
                "argument {} ({}) must be {range}, got {}",
                self.position, self.name, self.got
            )
        } else if self.name.is_empty() {
            write!(
                f,
                "argument {} is one too many ({} expected), got {}",
                self.position, self.expected, self.got
            )
        } else {
            write!(
                f,
                "argument {} ({}) must be {}, got {}",
                self.position, self.name, self.expected, self.got
            )
        }
    }
}

impl std::error::Error for ArgError {}

/// Whether `value` passes `param` (its kind and range), turning a whole float for an integer
/// parameter into an integer: the check every call makes, with no error built. [`check`]
/// says why when it does not.
#[inline]
fn accepts(param: &Param, value: &mut Value) -> bool {
    let ok = match (param.kind, &*value) {
        (_, Value::Nil) => return param.optional,
        (Kind::Any, _) => true,
        (Kind::Entity, Value::Int(bits)) => Entity::from_bits(*bits as u64).is_some(),
        (Kind::Number, Value::Int(_)) | (Kind::Integer, Value::Int(_)) => true,
        (Kind::Number, Value::Num(n)) => n.is_finite(),
        (Kind::Integer, Value::Num(n)) if n.fract() == 0.0 && n.abs() <= EXACT_FLOAT => {
            *value = Value::Int(*n as i64);
            true
        }
        (Kind::String, Value::Str(_)) => true,
        (Kind::AssetName, Value::Str(s)) => crate::asset::check_asset_name(s).is_ok(),
        (Kind::Boolean, Value::Bool(_)) => true,
        (Kind::Table, Value::Table(_)) => true,
        _ => false,
    };
    ok && match &*value {
        Value::Int(_) | Value::Num(_) => {
            !(param.at_least.is_some_and(|lo| lo.above(value))
                || param.at_most.is_some_and(|hi| hi.below(value)))
        }
        Value::Str(s) => param.one_of.is_empty() || param.one_of.contains(&s.as_str()),
        _ => true,
    }
}

/// Checks one value against one parameter, turning a whole float for an integer parameter
/// into an integer so the handler reads exactly what was checked.
pub fn check(position: usize, param: &Param, value: &mut Value) -> Result<(), ArgError> {
    if accepts(param, value) {
        return Ok(());
    }
    let ok = match (param.kind, &*value) {
        (_, Value::Nil) => param.optional,
        (Kind::Any, _) => true,
        (Kind::Number, Value::Int(_)) => true,
        (Kind::Number, Value::Num(n)) => n.is_finite(),
        (Kind::Integer, Value::Int(_)) => true,
        (Kind::Integer, Value::Num(n)) if n.fract() == 0.0 && n.abs() <= EXACT_FLOAT => {
            *value = Value::Int(*n as i64);
            true
        }
        (Kind::Entity, Value::Int(bits)) => Entity::from_bits(*bits as u64).is_some(),
        (Kind::String, Value::Str(_)) => true,
        (Kind::AssetName, Value::Str(s)) => {
            if let Err(e) = crate::asset::check_asset_name(s) {
                return Err(ArgError {
                    position,
                    name: param.name,
                    expected: "a name inside its folder",
                    got: e.to_string(),
                    range: None,
                });
            }
            true
        }
        (Kind::Boolean, Value::Bool(_)) => true,
        (Kind::Table, Value::Table(_)) => true,
        _ => false,
    };
    if ok {
        param.check_range(position, value)
    } else {
        let expected = match (param.kind, &*value) {
            (Kind::Integer, Value::Num(n)) if n.fract() == 0.0 => {
                "a whole number within ±2^53 (a float past that is not exact)"
            }
            (kind, _) => kind.noun(),
        };
        Err(ArgError {
            position,
            name: param.name,
            expected,
            got: value.to_string(),
            range: None,
        })
    }
}

/// Checks a whole call: each declared parameter, then no surplus arguments.
pub fn check_all(params: &[Param], values: &mut Vec<Value>) -> Result<(), ArgError> {
    if values.len() < params.len() {
        values.resize(params.len(), Value::Nil);
    }
    check_filled(params, values)?;
    values.truncate(params.len());
    Ok(())
}

/// [`check_all`] for the arguments a script's call holds inline.
#[inline]
pub(crate) fn check_inline(params: &[Param], values: &mut ArgValues) -> Result<(), ArgError> {
    // The usual call passes exactly what is declared: nothing to fill in or cut off.
    if values.len() == params.len() {
        return check_filled(params, values);
    }
    if values.len() < params.len() {
        values.resize(params.len(), Value::Nil);
    }
    check_filled(params, values)?;
    values.truncate(params.len());
    Ok(())
}

/// The checks of [`check_all`] on values at least as many as the parameters.
#[inline]
fn check_filled(params: &[Param], values: &mut [Value]) -> Result<(), ArgError> {
    // The usual call passes: no error is built until one does not.
    if params
        .iter()
        .zip(values.iter_mut())
        .all(|(p, v)| accepts(p, v))
        && values[params.len()..].iter().all(|v| *v == Value::Nil)
    {
        return Ok(());
    }
    for (i, param) in params.iter().enumerate() {
        check(i + 1, param, &mut values[i])?;
    }
    if let Some(extra) = values[params.len()..].iter().find(|v| **v != Value::Nil) {
        return Err(ArgError {
            position: params.len()
                + 1
                + values[params.len()..]
                    .iter()
                    .position(|v| v == extra)
                    .unwrap_or(0),
            name: "",
            expected: match params.len() {
                0 => "no arguments",
                1 => "1 argument",
                _ => "fewer arguments",
            },
            got: extra.to_string(),
            range: None,
        });
    }
    Ok(())
}

/// A parameter with nothing to check but its kind (no bounds, no list of strings, no asset
/// name): what most parameters are. A call whose parameters are all plain is checked by one
/// comparison a value, the full check running only when that one says no.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plain {
    kind: Kind,
    optional: bool,
}

impl Plain {
    /// The parameters as plain ones, if every one is.
    pub(crate) fn of(params: &[Param]) -> Option<Box<[Plain]>> {
        params
            .iter()
            .map(|p| {
                let plain = p.at_least.is_none()
                    && p.at_most.is_none()
                    && p.one_of.is_empty()
                    && p.kind != Kind::AssetName;
                plain.then_some(Plain {
                    kind: p.kind,
                    optional: p.optional,
                })
            })
            .collect()
    }

    /// Whether `value` passes as it is. Never true where [`accepts`] is false or would
    /// change the value; a whole float for an integer is left to the full check.
    #[inline(always)]
    fn passes(self, value: &Value) -> bool {
        match (self.kind, value) {
            (_, Value::Nil) => self.optional,
            (Kind::Any, _)
            | (Kind::Number | Kind::Integer, Value::Int(_))
            | (Kind::String, Value::Str(_))
            | (Kind::Boolean, Value::Bool(_))
            | (Kind::Table, Value::Table(_)) => true,
            (Kind::Entity, Value::Int(bits)) => Entity::from_bits(*bits as u64).is_some(),
            (Kind::Number, Value::Num(n)) => n.is_finite(),
            _ => false,
        }
    }

    /// Whether exactly one value a parameter was passed and each passes as it is.
    #[inline]
    pub(crate) fn all_pass(plain: &[Plain], values: &[Value]) -> bool {
        plain.len() == values.len() && plain.iter().zip(values).all(|(p, v)| p.passes(v))
    }
}

/// A call's values, the first three held inline: most commands take no more, so queuing one
/// allocates nothing for its arguments.
pub(crate) type ArgValues = smallvec::SmallVec<[Value; 3]>;

/// The checked arguments of one queued call, in declaration order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    values: ArgValues,
}

impl Args {
    /// Wraps already-checked values.
    pub fn new(values: Vec<Value>) -> Args {
        Args {
            values: ArgValues::from_vec(values),
        }
    }

    /// Wraps checked values held inline.
    pub(crate) fn inline(values: ArgValues) -> Args {
        Args { values }
    }

    /// The value at 0-based `index` (`Nil` past the end).
    pub fn get(&self, index: usize) -> &Value {
        self.values.get(index).unwrap_or(&Value::Nil)
    }

    /// Number of values passed.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no values were passed.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick check a call of plain parameters takes says yes only where the full check
    /// passes the value unchanged, for every kind and every sort of value.
    #[test]
    fn the_quick_check_passes_nothing_the_full_check_refuses_or_changes() {
        let params = [
            entity("e").param(),
            entity("e").optional().param(),
            number("x").param(),
            number("x").optional().param(),
            integer("n").param(),
            string("s").param(),
            boolean("b").param(),
            table("t").param(),
            any("v").param(),
            any("v").optional().param(),
        ];
        let values = [
            Value::Nil,
            Value::Bool(false),
            Value::Int(0),
            Value::Int(1 << 32),
            Value::Int(-1),
            Value::Num(2.0),
            Value::Num(2.5),
            Value::Num(f64::NAN),
            Value::Num(f64::INFINITY),
            Value::Str("a".into()),
            Value::Table(serde_json::json!([1])),
        ];
        let mut quick_yes = 0;
        for param in &params {
            let plain = Plain::of(std::slice::from_ref(param)).expect("a plain parameter");
            for value in &values {
                let mut full = value.clone();
                let passes = check(1, param, &mut full).is_ok();
                let quick = Plain::all_pass(&plain, std::slice::from_ref(value));
                if quick {
                    quick_yes += 1;
                    assert!(passes, "{param:?} quick-passed {value:?}");
                    // (by their text: NaN is not equal to itself)
                    assert_eq!(
                        format!("{full:?}"),
                        format!("{value:?}"),
                        "{param:?} changes it"
                    );
                }
                // What the quick check leaves to the full one is the whole float for an
                // integer; anything else it answers as the full check does.
                if !matches!((param.kind, value), (Kind::Integer, Value::Num(_))) {
                    assert_eq!(quick, passes, "{param:?} on {value:?}");
                }
            }
        }
        assert!(quick_yes > params.len());
        // Bounds, lists of strings and asset names are never plain.
        for param in [
            integer("n").at_least(0).param(),
            number("x").at_most(1.0).param(),
            asset("file").param(),
            string("way").one_of(&["up", "down"]).param(),
        ] {
            assert!(Plain::of(&[param]).is_none());
        }
        assert!(Plain::all_pass(&[], &[]));
        assert!(!Plain::all_pass(&[], &[Value::Nil]));
    }

    fn checked(params: &impl Params, values: Vec<Value>) -> Result<Vec<Value>, ArgError> {
        let mut values = values;
        check_all(&params.list(), &mut values)?;
        Ok(values)
    }

    #[test]
    fn a_missing_argument_names_position_name_and_what_it_got() {
        let err = checked(&(entity("e"), number("x")), vec![Value::Int(1 << 32)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 2 (x) must be a finite number, got nil"
        );
    }

    #[test]
    fn a_wrong_kind_is_described_with_its_value() {
        let err = checked(&(string("stage"),), vec![Value::Bool(true)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 1 (stage) must be a string, got boolean true"
        );
    }

    #[test]
    fn optional_parameters_accept_nil_and_integers_accept_whole_floats() {
        let params = (integer("slot"), number("speed").optional());
        let values = checked(&params, vec![Value::Num(3.0)]).unwrap();
        assert_eq!(values, vec![Value::Int(3), Value::Nil]);
        assert_eq!(params.read(Args::new(values)).unwrap(), (3, None));
        assert!(checked(&params, vec![Value::Num(3.5)]).is_err());
    }

    #[test]
    fn integers_out_of_exact_range_are_refused_at_the_call() {
        let params = (integer("n"),);
        for n in [2f64.powi(60), 1e308, f64::INFINITY, f64::NAN] {
            let err = checked(&params, vec![Value::Num(n)]).unwrap_err();
            assert!(
                err.to_string()
                    .starts_with("argument 1 (n) must be a whole number"),
                "{err}"
            );
        }
        assert!(checked(&params, vec![Value::Int(1 << 60)]).is_ok());
        assert!(checked(&params, vec![Value::Num(EXACT_FLOAT)]).is_ok());
        let err = checked(&(number("x"),), vec![Value::Num(f64::NAN)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 1 (x) must be a finite number, got number NaN"
        );
    }

    #[test]
    fn asset_names_that_leave_their_folder_are_refused_at_the_call() {
        let params = (asset("scene"),);
        assert!(checked(&params, vec![Value::Str("title".into())]).is_ok());
        for bad in ["../title", "/etc/passwd", "a/../../b"] {
            let err = checked(&params, vec![Value::Str(bad.into())]).unwrap_err();
            assert!(
                err.to_string()
                    .starts_with("argument 1 (scene) must be a name inside its folder, got"),
                "{err}"
            );
        }
    }

    #[test]
    fn surplus_arguments_are_refused_but_trailing_nils_are_not() {
        let params = (boolean("paused"),);
        assert!(checked(&params, vec![Value::Bool(true), Value::Nil]).is_ok());
        let err = checked(&params, vec![Value::Bool(true), Value::Int(2)]).unwrap_err();
        assert!(
            err.to_string().contains("argument 2 is one too many"),
            "{err}"
        );
        let err = checked(&(), vec![Value::Nil, Value::Str("x".into())]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 2 is one too many (no arguments expected), got string \"x\""
        );
    }

    #[test]
    fn one_declaration_gives_the_list_and_the_typed_reads() {
        let params = (entity("e"), string("name"), table("fields"), any("extra"));
        let names: Vec<&str> = params.list().iter().map(|p| p.name).collect();
        assert_eq!(names, ["e", "name", "fields", "extra"]);
        let e = Entity::from_bits(1 << 32).unwrap();
        let values = checked(
            &params,
            vec![
                Value::Int(e.to_bits().get() as i64),
                Value::Str("a".into()),
                Value::Table(serde_json::json!({"x": 1})),
            ],
        )
        .unwrap();
        let (got_e, name, fields, extra) = params.read(Args::new(values)).unwrap();
        assert_eq!(
            (got_e, name.as_str(), fields["x"].as_i64(), extra),
            (e, "a", Some(1), Value::Nil)
        );
    }

    #[test]
    fn a_read_of_the_wrong_kind_is_an_error_not_a_panic() {
        let err = (string("s"),)
            .read(Args::new(vec![Value::Int(1)]))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 1 (s) must be a string, got number 1"
        );
    }

    #[test]
    fn a_number_outside_its_declared_range_is_refused_with_the_range() {
        let params = (entity("e"), integer("radius").range(0, i32::MAX as i64));
        let e = Value::Int(Entity::from_bits(1 << 32).unwrap().to_bits().get() as i64);
        assert!(checked(&params, vec![e.clone(), Value::Int(0)]).is_ok());
        assert!(checked(&params, vec![e.clone(), Value::Int(2_147_483_647)]).is_ok());
        let err = checked(&params, vec![e.clone(), Value::Int(2_147_483_648)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 2 (radius) must be 0 to 2147483647, got number 2147483648"
        );
        let err = checked(&params, vec![e.clone(), Value::Num(-1.0)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 2 (radius) must be 0 to 2147483647, got number -1"
        );
        let volume = (number("volume").range(0.0, 1.0),);
        assert!(checked(&volume, vec![Value::Num(0.5)]).is_ok());
        assert!(checked(&volume, vec![Value::Int(1)]).is_ok());
        let err = checked(&volume, vec![Value::Num(1.5)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 1 (volume) must be 0 to 1, got number 1.5"
        );
    }

    #[test]
    fn a_whole_number_bound_compares_exactly_at_the_ends_of_i64() {
        let params = (integer("n").at_most(i64::MAX - 1),);
        assert!(checked(&params, vec![Value::Int(i64::MAX - 1)]).is_ok());
        assert!(checked(&params, vec![Value::Int(i64::MAX)]).is_err());
        let params = (integer("n").at_least(i64::MIN + 1),);
        assert!(checked(&params, vec![Value::Int(i64::MIN)]).is_err());
    }

    #[test]
    fn an_optional_ranged_parameter_keeps_its_range_and_still_takes_nil() {
        let params = (integer("seed").at_least(0).optional(),);
        assert_eq!(params.list()[0].range().as_deref(), Some("0 or more"));
        assert!(checked(&params, vec![]).is_ok());
        assert!(checked(&params, vec![Value::Int(1 << 62)]).is_ok());
        let err = checked(&params, vec![Value::Int(-1)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 1 (seed) must be 0 or more, got number -1"
        );
    }

    #[test]
    fn a_string_outside_its_names_is_refused_with_the_names() {
        let params = (string("dir").one_of(&["up", "down", "wait"]),);
        assert_eq!(
            params.list()[0].range().as_deref(),
            Some("\"up\", \"down\" or \"wait\"")
        );
        assert!(checked(&params, vec![Value::Str("wait".into())]).is_ok());
        let err = checked(&params, vec![Value::Str("sideways".into())]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 1 (dir) must be \"up\", \"down\" or \"wait\", got string \"sideways\""
        );
    }

    #[test]
    fn a_rule_over_the_arguments_together_names_the_rule_and_the_values() {
        let params = (integer("dx").range(-1, 1), integer("dy").range(-1, 1))
            .such_that("(dx, dy) is one step", |(dx, dy)| dx.abs() + dy.abs() == 1);
        assert_eq!(params.rule(), Some("(dx, dy) is one step"));
        let good = checked(&params, vec![Value::Int(0), Value::Int(1)]).unwrap();
        assert!(check_together(&params, &good).is_ok());
        let bad = checked(&params, vec![Value::Int(1), Value::Int(1)]).unwrap();
        let err = check_together(&params, &bad).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the arguments must be such that (dx, dy) is one step, got dx = 1, dy = 1"
        );
        assert!((integer("n"),).rule().is_none());
    }
}
