//! Script values as commands receive them, and the parameter lists that check them.
//!
//! A command declares its parameters once; the Lua bridge checks every call against them
//! before queueing it, so a handler only ever sees arguments of the declared kinds and a
//! script author gets "Counter.add: argument 2 (n) must be a number, got nil" at the call.

use std::fmt;

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
    /// Any number.
    Number,
    /// A whole number.
    Integer,
    /// A string.
    String,
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
            Kind::Number => "a number",
            Kind::Integer => "a whole number",
            Kind::String => "a string",
            Kind::Boolean => "a boolean",
            Kind::Table => "a table",
            Kind::Any => "any value",
        }
    }
}

/// One declared parameter of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// Its name, used in error messages and generated docs.
    pub name: &'static str,
    /// What it accepts.
    pub kind: Kind,
    /// Whether `nil` (or leaving it off) is allowed.
    pub optional: bool,
}

impl Param {
    /// The same parameter, allowing `nil`.
    pub const fn optional(self) -> Param {
        Param {
            optional: true,
            ..self
        }
    }
}

/// A parameter taking an entity.
pub const fn entity(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Entity,
        optional: false,
    }
}
/// A parameter taking a number.
pub const fn number(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Number,
        optional: false,
    }
}
/// A parameter taking a whole number.
pub const fn integer(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Integer,
        optional: false,
    }
}
/// A parameter taking a string.
pub const fn string(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::String,
        optional: false,
    }
}
/// A parameter taking a boolean.
pub const fn boolean(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Boolean,
        optional: false,
    }
}
/// A parameter taking a table.
pub const fn table(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Table,
        optional: false,
    }
}
/// A parameter taking anything.
pub const fn any(name: &'static str) -> Param {
    Param {
        name,
        kind: Kind::Any,
        optional: true,
    }
}

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

/// Checks one value against one parameter.
pub fn check(position: usize, param: &Param, value: &Value) -> Result<(), ArgError> {
    let ok = match (param.kind, value) {
        (_, Value::Nil) => param.optional,
        (Kind::Any, _) => true,
        (Kind::Number, Value::Int(_) | Value::Num(_)) => true,
        (Kind::Integer, Value::Int(_)) => true,
        (Kind::Integer, Value::Num(n)) => n.fract() == 0.0 && n.is_finite(),
        (Kind::Entity, Value::Int(bits)) => Entity::from_bits(*bits as u64).is_some(),
        (Kind::String, Value::Str(_)) => true,
        (Kind::Boolean, Value::Bool(_)) => true,
        (Kind::Table, Value::Table(_)) => true,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(ArgError {
            position,
            name: param.name,
            expected: param.kind.noun(),
            got: value.to_string(),
        })
    }
}

/// Checks a whole call: each declared parameter, then no surplus arguments.
pub fn check_all(params: &[Param], values: &[Value]) -> Result<(), ArgError> {
    for (i, param) in params.iter().enumerate() {
        check(i + 1, param, values.get(i).unwrap_or(&Value::Nil))?;
    }
    if let Some(extra) = values.get(params.len())
        && values[params.len()..].iter().any(|v| *v != Value::Nil)
    {
        return Err(ArgError {
            position: params.len() + 1,
            name: "",
            expected: if params.len() == 1 {
                "1 argument"
            } else {
                "fewer arguments"
            },
            got: extra.to_string(),
        });
    }
    Ok(())
}

/// The checked arguments a command handler receives.
///
/// The accessors return an error rather than panic if a handler asks for a kind its
/// parameter list did not declare, so a slip in a package is a logged failure, not a crash.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Args {
    values: Vec<Value>,
}

impl Args {
    /// Wraps already-checked values.
    pub fn new(values: Vec<Value>) -> Args {
        Args { values }
    }

    /// The raw value at 0-based `index` (`Nil` past the end).
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

    fn wrong(&self, index: usize, want: &str) -> String {
        format!(
            "argument {} must be {want}, got {}",
            index + 1,
            self.get(index)
        )
    }

    /// The entity at `index`.
    pub fn entity(&self, index: usize) -> Result<Entity, String> {
        match self.get(index) {
            Value::Int(bits) => {
                Entity::from_bits(*bits as u64).ok_or_else(|| self.wrong(index, "an entity"))
            }
            _ => Err(self.wrong(index, "an entity")),
        }
    }

    /// The number at `index`.
    pub fn number(&self, index: usize) -> Result<f64, String> {
        self.opt_number(index)?
            .ok_or_else(|| self.wrong(index, "a number"))
    }

    /// The number at `index`, or `None` for nil.
    pub fn opt_number(&self, index: usize) -> Result<Option<f64>, String> {
        match self.get(index) {
            Value::Nil => Ok(None),
            Value::Int(i) => Ok(Some(*i as f64)),
            Value::Num(n) => Ok(Some(*n)),
            _ => Err(self.wrong(index, "a number")),
        }
    }

    /// The whole number at `index`.
    pub fn integer(&self, index: usize) -> Result<i64, String> {
        self.opt_integer(index)?
            .ok_or_else(|| self.wrong(index, "a whole number"))
    }

    /// The whole number at `index`, or `None` for nil.
    pub fn opt_integer(&self, index: usize) -> Result<Option<i64>, String> {
        match self.get(index) {
            Value::Nil => Ok(None),
            Value::Int(i) => Ok(Some(*i)),
            Value::Num(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Ok(Some(*n as i64)),
            _ => Err(self.wrong(index, "a whole number")),
        }
    }

    /// The string at `index`.
    pub fn string(&self, index: usize) -> Result<&str, String> {
        self.opt_string(index)?
            .ok_or_else(|| self.wrong(index, "a string"))
    }

    /// The string at `index`, or `None` for nil.
    pub fn opt_string(&self, index: usize) -> Result<Option<&str>, String> {
        match self.get(index) {
            Value::Nil => Ok(None),
            Value::Str(s) => Ok(Some(s)),
            _ => Err(self.wrong(index, "a string")),
        }
    }

    /// The boolean at `index`.
    pub fn boolean(&self, index: usize) -> Result<bool, String> {
        match self.get(index) {
            Value::Bool(b) => Ok(*b),
            _ => Err(self.wrong(index, "a boolean")),
        }
    }

    /// The table at `index`, as JSON.
    pub fn table(&self, index: usize) -> Result<&serde_json::Value, String> {
        match self.get(index) {
            Value::Table(t) => Ok(t),
            _ => Err(self.wrong(index, "a table")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_argument_names_position_name_and_what_it_got() {
        let params = [entity("e"), number("x")];
        let err = check_all(&params, &[Value::Int(1 << 32)]).unwrap_err();
        assert_eq!(err.to_string(), "argument 2 (x) must be a number, got nil");
    }

    #[test]
    fn a_wrong_kind_is_described_with_its_value() {
        let params = [string("stage")];
        let err = check_all(&params, &[Value::Bool(true)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "argument 1 (stage) must be a string, got boolean true"
        );
    }

    #[test]
    fn optional_parameters_accept_nil_and_integers_accept_whole_floats() {
        let params = [integer("slot"), number("speed").optional()];
        assert!(check_all(&params, &[Value::Num(3.0)]).is_ok());
        assert!(check_all(&params, &[Value::Num(3.5)]).is_err());
    }

    #[test]
    fn surplus_arguments_are_refused_but_trailing_nils_are_not() {
        let params = [boolean("paused")];
        assert!(check_all(&params, &[Value::Bool(true), Value::Nil]).is_ok());
        let err = check_all(&params, &[Value::Bool(true), Value::Int(2)]).unwrap_err();
        assert!(
            err.to_string().contains("argument 2 is one too many"),
            "{err}"
        );
    }

    #[test]
    fn accessors_refuse_the_wrong_kind_instead_of_panicking() {
        let args = Args::new(vec![Value::Str("a".into())]);
        assert_eq!(args.string(0).unwrap(), "a");
        assert!(args.number(0).is_err());
        assert!(args.entity(3).is_err());
        assert_eq!(args.opt_number(3).unwrap(), None);
    }
}
