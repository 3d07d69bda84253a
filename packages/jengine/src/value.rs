//! Script values as commands receive them, and the parameter lists that check them.
//!
//! A command declares its parameters once, as a tuple of typed, named parameters
//! (`(entity("e"), integer("n"))`). The same declaration gives the signature docs show, the
//! check the Lua bridge runs at the call, and the typed values the handler receives, so the
//! list and the reads cannot drift apart.

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

/// One declared parameter, untyped: what signatures, docs and the call check read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// Its name, used in error messages and generated docs.
    pub name: &'static str,
    /// What it accepts.
    pub kind: Kind,
    /// Whether `nil` (or leaving it off) is allowed.
    pub optional: bool,
    /// The most bytes a string given for it may take ([`MAX_STRING_ARG`] unless raised).
    pub max_bytes: usize,
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
            },
            read: PhantomData,
        }
    }

    /// The untyped description.
    pub fn param(&self) -> Param {
        self.param
    }
}

impl<T: FromValue> Arg<T> {
    /// The same parameter, allowing `nil`: the handler receives `None` for it.
    pub const fn optional(self) -> Arg<Option<T>> {
        let mut arg = Arg::new(self.param.name, self.param.kind, true);
        arg.param.max_bytes = self.param.max_bytes;
        arg
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
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
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

/// Checks one value against one parameter, turning a whole float for an integer parameter
/// into an integer so the handler reads exactly what was checked.
pub fn check(position: usize, param: &Param, value: &mut Value) -> Result<(), ArgError> {
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
                });
            }
            true
        }
        (Kind::Boolean, Value::Bool(_)) => true,
        (Kind::Table, Value::Table(_)) => true,
        _ => false,
    };
    if ok {
        Ok(())
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
        })
    }
}

/// Checks a whole call: each declared parameter, then no surplus arguments.
pub fn check_all(params: &[Param], values: &mut Vec<Value>) -> Result<(), ArgError> {
    if values.len() < params.len() {
        values.resize(params.len(), Value::Nil);
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
        });
    }
    values.truncate(params.len());
    Ok(())
}

/// The checked arguments of one queued call, in declaration order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    values: Vec<Value>,
}

impl Args {
    /// Wraps already-checked values.
    pub fn new(values: Vec<Value>) -> Args {
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
}
