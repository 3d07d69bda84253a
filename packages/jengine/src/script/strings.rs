//! `string.find`, `string.match`, `string.gmatch` and `string.gsub` rebuilt on
//! [`super::pattern`], so pattern matching spends from the running callback's budget.
//!
//! Lua's own versions run inside one C call the instruction hook never sees; these run the
//! metered matcher with whatever the [`Meter`] has left and charge what it used, so a runaway
//! pattern ends with the budget's error. Arguments, results and errors follow Lua 5.4.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Table, Value};

use super::pattern::{self, Capture, GMatch, PatternError, Steps};

/// The budget a pattern call spends from.
pub trait Meter {
    /// Steps the running callback may still spend.
    fn remaining(&self) -> u64;
    /// Charges `steps`; an error (the budget stop, which the caller raises) once over.
    fn charge(&self, lua: &Lua, steps: u64) -> mlua::Result<()>;
    /// Bytes the whole state may allocate, when the meter knows it: a call that would need more
    /// is left to fail at its first allocation, as Lua's own out-of-memory error.
    fn memory_limit(&self) -> Option<usize> {
        None
    }
}

/// Replaces the four pattern functions in the global `string` table (which is also the
/// string metatable's `__index`, so method calls reach them too).
pub(crate) fn install(lua: &Lua, meter: Rc<dyn Meter>) -> mlua::Result<()> {
    let string: Table = lua.globals().raw_get("string")?;
    let m = meter.clone();
    string.raw_set(
        "find",
        lua.create_function(move |lua, args: MultiValue| {
            find_aux(&Call::new(lua, "find", &args), &*m, true)
        })?,
    )?;
    let m = meter.clone();
    string.raw_set(
        "match",
        lua.create_function(move |lua, args: MultiValue| {
            find_aux(&Call::new(lua, "match", &args), &*m, false)
        })?,
    )?;
    let m = meter.clone();
    string.raw_set(
        "gmatch",
        lua.create_function(move |lua, args: MultiValue| {
            gmatch(&Call::new(lua, "gmatch", &args), m.clone())
        })?,
    )?;
    string.raw_set(
        "gsub",
        lua.create_function(move |lua, args: MultiValue| {
            gsub(&Call::new(lua, "gsub", &args), &*meter)
        })?,
    )?;
    Ok(())
}

/// One call of a string function: its arguments and how Lua's auxiliary library would
/// phrase a complaint about them.
struct Call<'a> {
    lua: &'a Lua,
    name: &'static str,
    args: &'a MultiValue,
}

impl<'a> Call<'a> {
    fn new(lua: &'a Lua, name: &'static str, args: &'a MultiValue) -> Call<'a> {
        Call { lua, name, args }
    }

    /// Argument `n` (1-based); `None` when it was not passed at all.
    fn arg(&self, n: usize) -> Option<&Value> {
        self.args.get(n - 1)
    }

    /// `luaL_checklstring`: a string, or a number turned into one.
    fn string(&self, n: usize) -> mlua::Result<mlua::LuaString> {
        let value = self.arg(n).cloned().unwrap_or(Value::Nil);
        match self.lua.coerce_string(value)? {
            Some(s) => Ok(s),
            None => Err(self.type_error(n, "string")),
        }
    }

    /// `luaL_optinteger`: `default` when absent or nil, else an integer-valued number.
    fn opt_integer(&self, n: usize, default: i64) -> mlua::Result<i64> {
        let value = match self.arg(n) {
            None | Some(Value::Nil) => return Ok(default),
            Some(v) => v.clone(),
        };
        if let Some(i) = self.lua.coerce_integer(value.clone())? {
            return Ok(i);
        }
        if self.lua.coerce_number(value)?.is_some() {
            Err(self.arg_error(n, "number has no integer representation"))
        } else {
            Err(self.type_error(n, "number"))
        }
    }

    /// `luaL_typeerror`.
    fn type_error(&self, n: usize, expected: &str) -> mlua::Error {
        let got = match self.arg(n) {
            None => "no value".to_string(),
            Some(v) => type_name_for_error(v),
        };
        self.arg_error(n, &format!("{expected} expected, got {got}"))
    }

    /// `luaL_argerror`: names the function as the caller wrote it, not counting `self` in
    /// a method call.
    fn arg_error(&self, n: usize, message: &str) -> mlua::Error {
        let (name, what) = self
            .lua
            .inspect_stack(0, |d| {
                let names = d.names();
                (names.name.map(|n| n.into_owned()), names.name_what)
            })
            .unwrap_or((None, None));
        let mut n = n;
        if what == Some("method") {
            n -= 1;
            if n == 0 {
                let name = name.unwrap_or_else(|| "?".to_string());
                return self.error(format!("calling '{name}' on bad self ({message})"));
            }
        }
        let name = name.unwrap_or_else(|| format!("string.{}", self.name));
        self.error(format!("bad argument #{n} to '{name}' ({message})"))
    }

    /// `luaL_error`: the message after the calling Lua code's `file:line: `.
    fn error(&self, message: String) -> mlua::Error {
        mlua::Error::RuntimeError(format!("{}{message}", location(self.lua)))
    }

    fn pattern_error(&self, e: PatternError) -> mlua::Error {
        self.error(e.to_string())
    }
}

/// `luaL_where(L, 1)`: `file:line: ` of the Lua code calling the running function.
fn location(lua: &Lua) -> String {
    lua.inspect_stack(1, |d| match d.current_line() {
        Some(line) if line > 0 => {
            let src = d
                .source()
                .short_src
                .map(|s| s.into_owned())
                .unwrap_or_default();
            format!("{src}:{line}: ")
        }
        _ => String::new(),
    })
    .unwrap_or_default()
}

/// Lua's type name of `v`, preferring a metatable `__name` as `luaL_typeerror` does.
fn type_name_for_error(v: &Value) -> String {
    let named = match v {
        Value::Table(t) => t.metatable().and_then(|m| {
            m.raw_get::<Option<mlua::LuaString>>("__name")
                .ok()
                .flatten()
        }),
        Value::UserData(u) => u.type_name().ok(),
        _ => None,
    };
    match named {
        Some(name) => name.to_string_lossy(),
        None => type_name(v).to_string(),
    }
}

/// `lua_typename` of `v`.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Nil => "nil",
        Value::Boolean(_) => "boolean",
        Value::LightUserData(_) => "light userdata",
        Value::Integer(_) | Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Table(_) => "table",
        Value::Function(_) => "function",
        Value::Thread(_) => "thread",
        _ => "userdata",
    }
}

fn truthy(v: Option<&Value>) -> bool {
    !matches!(v, None | Some(Value::Nil) | Some(Value::Boolean(false)))
}

/// Runs `f` with the steps `meter` has left and charges what it spent. When it ran out,
/// the meter is charged one step past its budget, so the error raised is the meter's own.
fn metered<T>(
    call: &Call,
    meter: &dyn Meter,
    f: impl FnOnce(&mut Steps) -> Result<T, PatternError>,
) -> mlua::Result<T> {
    let mut steps = Steps::new(meter.remaining());
    let result = f(&mut steps);
    settle(call, meter, &steps, result.map_err(Failure::Pattern))
}

fn settle<T>(
    call: &Call,
    meter: &dyn Meter,
    steps: &Steps,
    result: Result<T, Failure>,
) -> mlua::Result<T> {
    match result {
        Err(Failure::Pattern(PatternError::OutOfSteps)) => {
            meter.charge(call.lua, meter.remaining().saturating_add(1))?;
            Err(call.pattern_error(PatternError::OutOfSteps))
        }
        result => {
            meter.charge(call.lua, steps.used())?;
            result.map_err(|e| match e {
                Failure::Pattern(e) => call.pattern_error(e),
                Failure::Lua(e) => e,
            })
        }
    }
}

/// A failure inside a metered call: the pattern's, or one raised by Lua code it ran.
enum Failure {
    Pattern(PatternError),
    Lua(mlua::Error),
}

impl From<PatternError> for Failure {
    fn from(e: PatternError) -> Failure {
        Failure::Pattern(e)
    }
}

impl From<mlua::Error> for Failure {
    fn from(e: mlua::Error) -> Failure {
        Failure::Lua(e)
    }
}

/// A capture as the Lua value Lua pushes for it.
fn capture_value(lua: &Lua, subject: &[u8], capture: Capture) -> mlua::Result<Value> {
    Ok(match capture {
        Capture::Span(a, b) => Value::String(lua.create_string(&subject[a..b])?),
        Capture::Position(p) => Value::Integer(p as i64 + 1),
    })
}

fn push_captures(
    call: &Call,
    subject: &[u8],
    captures: impl Iterator<Item = Result<Capture, PatternError>>,
    out: &mut MultiValue,
) -> mlua::Result<()> {
    for capture in captures {
        let capture = capture.map_err(|e| call.pattern_error(e))?;
        out.push_back(capture_value(call.lua, subject, capture)?);
    }
    Ok(())
}

/// `string.find` (`find`) and `string.match` (not `find`).
fn find_aux(call: &Call, meter: &dyn Meter, find: bool) -> mlua::Result<MultiValue> {
    let subject = call.string(1)?;
    let pat = call.string(2)?;
    let init = call.opt_integer(3, 1)?;
    let plain = find && truthy(call.arg(4));
    let (s, p) = (subject.as_bytes(), pat.as_bytes());
    let found = metered(call, meter, |steps| {
        if find {
            pattern::find(&s, &p, init, plain, steps)
        } else {
            pattern::search(&s, &p, init, steps)
        }
    })?;
    let mut out = MultiValue::new();
    match found {
        None => out.push_back(Value::Nil),
        Some(m) if find => {
            out.push_back(Value::Integer(m.start as i64 + 1));
            out.push_back(Value::Integer(m.end as i64));
            push_captures(call, &s, m.captures(), &mut out)?;
        }
        Some(m) => push_captures(call, &s, m.values(), &mut out)?,
    }
    Ok(out)
}

/// `string.gmatch`: an iterator function over the matches.
fn gmatch(call: &Call, meter: Rc<dyn Meter>) -> mlua::Result<Function> {
    let subject = call.string(1)?;
    let pat = call.string(2)?;
    let init = call.opt_integer(3, 1)?;
    let state = RefCell::new(GMatch::new(subject.as_bytes().len(), init));
    call.lua.create_function(move |lua, args: MultiValue| {
        let call = Call::new(lua, "gmatch", &args);
        let (s, p) = (subject.as_bytes(), pat.as_bytes());
        let found = metered(&call, &*meter, |steps| {
            state.borrow_mut().next(&s, &p, steps)
        })?;
        let mut out = MultiValue::new();
        if let Some(m) = found {
            push_captures(&call, &s, m.values(), &mut out)?;
        }
        Ok(out)
    })
}

/// What `gsub` replaces each match with.
enum Replacement {
    Text(mlua::BorrowedBytes),
    Table(Table),
    Function(Function),
}

/// `string.gsub`.
fn gsub(call: &Call, meter: &dyn Meter) -> mlua::Result<(mlua::LuaString, i64)> {
    let subject = call.string(1)?;
    let pat = call.string(2)?;
    let (s, p) = (subject.as_bytes(), pat.as_bytes());
    // Lua reads the count before it checks the replacement's type.
    let max = call.opt_integer(4, s.len() as i64 + 1)?;
    let replacement = match call.arg(3) {
        Some(v @ (Value::String(_) | Value::Integer(_) | Value::Number(_))) => {
            match call.lua.coerce_string(v.clone())? {
                Some(text) => Replacement::Text(text.as_bytes()),
                None => return Err(call.type_error(3, "string/function/table")),
            }
        }
        Some(Value::Table(t)) => Replacement::Table(t.clone()),
        Some(Value::Function(f)) => Replacement::Function(f.clone()),
        _ => return Err(call.type_error(3, "string/function/table")),
    };
    let mut steps = Steps::new(meter.remaining());
    let result = pattern::gsub(&s, &p, max, &mut steps, |m, steps, out| {
        let value = match &replacement {
            Replacement::Text(text) => {
                pattern::expand(text, m, &s, out)?;
                return Ok(true);
            }
            Replacement::Table(t) => {
                let key = capture_value(call.lua, &s, m.capture(0)?)?;
                run_lua(call.lua, meter, steps, || t.get::<Value>(key))?
            }
            Replacement::Function(f) => {
                let mut args = MultiValue::new();
                for capture in m.values() {
                    args.push_back(capture_value(call.lua, &s, capture?)?);
                }
                run_lua(call.lua, meter, steps, || f.call::<Value>(args))?
            }
        };
        add_value(call, value, out)
    });
    let (text, count) = settle(call, meter, &steps, result)?;
    let text = match text {
        Some(bytes) => call.lua.create_string(bytes)?,
        None => subject.clone(),
    };
    Ok((text, count))
}

/// Runs Lua code in the middle of a `gsub`: the steps spent so far are charged first, since
/// that code spends from the same budget, and the matcher continues with what is left.
fn run_lua<T>(
    lua: &Lua,
    meter: &dyn Meter,
    steps: &mut Steps,
    f: impl FnOnce() -> mlua::Result<T>,
) -> Result<T, Failure> {
    let spent = std::mem::replace(steps, Steps::new(0)).used();
    meter.charge(lua, spent)?;
    let result = f();
    *steps = Steps::new(meter.remaining());
    Ok(result?)
}

/// Lua's `add_value` for a table or function result: `nil`/`false` keeps the match, a
/// string or number replaces it, anything else is an error.
fn add_value(call: &Call, value: Value, out: &mut Vec<u8>) -> Result<bool, Failure> {
    match value {
        Value::Nil | Value::Boolean(false) => Ok(false),
        value => match call.lua.coerce_string(value.clone())? {
            Some(text) => {
                out.extend_from_slice(&text.as_bytes());
                Ok(true)
            }
            _ => Err(Failure::Lua(call.error(format!(
                "invalid replacement value (a {})",
                type_name(&value)
            )))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A budget that stops once `left` is spent.
    struct TestMeter {
        left: Cell<u64>,
    }

    impl Meter for TestMeter {
        fn remaining(&self) -> u64 {
            self.left.get()
        }
        fn charge(&self, _: &Lua, steps: u64) -> mlua::Result<()> {
            match self.left.get().checked_sub(steps) {
                Some(left) => {
                    self.left.set(left);
                    Ok(())
                }
                None => {
                    self.left.set(0);
                    Err(mlua::Error::RuntimeError("stopped: budget spent".into()))
                }
            }
        }
    }

    fn ours(budget: u64) -> (Lua, Rc<TestMeter>) {
        let lua = Lua::new();
        let meter = Rc::new(TestMeter {
            left: Cell::new(budget),
        });
        install(&lua, meter.clone()).unwrap();
        (lua, meter)
    }

    /// Runs `code` and renders its results (or its error message) as text, types included.
    fn run(lua: &Lua, code: &str) -> Result<String, String> {
        let values: MultiValue = lua
            .load(code)
            .set_name("=test")
            .call(())
            .map_err(|e| crate::convert::describe_lua_error(&e))?;
        Ok(values
            .iter()
            .map(|v| match v {
                Value::String(s) => format!("{:?}", s.to_string_lossy()),
                Value::Integer(i) => format!("{i}"),
                Value::Number(n) => format!("{n:?}"),
                Value::Nil => "nil".to_string(),
                other => format!("<{}>", other.type_name()),
            })
            .collect::<Vec<_>>()
            .join(", "))
    }

    /// Runs `code` on a state with the Rust functions and on stock Lua; both must agree.
    fn same(code: &str) -> Result<String, String> {
        let (lua, _) = ours(u64::MAX / 2);
        let mine = run(&lua, code);
        let real = run(&Lua::new(), code);
        assert_eq!(mine, real, "{code}");
        mine
    }

    #[test]
    fn typical_calls_match_lua() {
        assert_eq!(same(r#"return ("abc"):find("b")"#), Ok("2, 2".into()));
        assert_eq!(
            same(r#"return string.find("a.b", ".", 1, true)"#),
            Ok("2, 2".into())
        );
        assert_eq!(
            same(r#"return string.find("a.b", ".", 2)"#),
            Ok("2, 2".into())
        );
        assert_eq!(
            same(r#"return ("x=1"):find("(%w)=(%d)")"#),
            Ok(r#"1, 3, "x", "1""#.into())
        );
        assert_eq!(same(r#"return string.find(12345, 34)"#), Ok("3, 4".into()));
        assert_eq!(same(r#"return string.find("abc", "z")"#), Ok("nil".into()));
        assert_eq!(
            same(r#"return string.match("key = val", "(%w+)%s*=%s*(%w+)")"#),
            Ok(r#""key", "val""#.into())
        );
        assert_eq!(
            same(r#"return ("hello"):match("()ll()")"#),
            Ok("3, 5".into())
        );
        assert_eq!(
            same(r#"return string.match(2.5, "%d")"#),
            Ok(r#""2""#.into())
        );
        assert_eq!(
            same(r#"return string.find("abc", "b", "2")"#),
            Ok("2, 2".into())
        );
        assert_eq!(
            same(r#"return string.find("abc", "b", 2.0)"#),
            Ok("2, 2".into())
        );
    }

    #[test]
    fn gmatch_iterates_like_lua() {
        assert_eq!(
            same(
                r#"local t = {}
                for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do t[#t + 1] = k .. v end
                return table.concat(t, ",")"#
            ),
            Ok(r#""a1,b2""#.into())
        );
        assert_eq!(
            same(
                r#"local t = {}
                for w in ("one two"):gmatch("%a*") do t[#t + 1] = "[" .. w .. "]" end
                return table.concat(t)"#
            ),
            Ok(r#""[one][two]""#.into())
        );
        assert_eq!(
            same(r##"local it = string.gmatch("abc", "z") return select("#", it())"##),
            Ok("0".into())
        );
        assert_eq!(
            same(r#"local it = string.gmatch("abcabc", "()b", 3) return it(), it(), it()"#),
            Ok("5, nil".into())
        );
    }

    #[test]
    fn gsub_with_strings_tables_and_functions() {
        assert_eq!(
            same(r#"return string.gsub("hello world", "(%w+)", "<%1>")"#),
            Ok(r#""<hello> <world>", 2"#.into())
        );
        assert_eq!(
            same(r#"return ("hello world"):gsub("o", "0", 1)"#),
            Ok(r#""hell0 world", 1"#.into())
        );
        assert_eq!(
            same(r#"return string.gsub("$name is $age", "%$(%w+)", {name = "Ann", age = 7})"#),
            Ok(r#""Ann is 7", 2"#.into())
        );
        assert_eq!(
            same(r#"return string.gsub("a b", "%w", {a = false})"#),
            Ok(r#""a b", 2"#.into())
        );
        assert_eq!(
            same(r#"return string.gsub("abc", "%w", function(c) return c:upper() .. "." end)"#),
            Ok(r#""A.B.C.", 3"#.into())
        );
        assert_eq!(
            same(
                r#"return string.gsub("abc", "%w", function(c)
                    if c == "b" then return nil end
                    return 1.5
                end)"#
            ),
            Ok(r#""1.5b1.5", 3"#.into())
        );
        assert_eq!(
            same(r#"return string.gsub("x1y2", "()%d", function(p) return p * 10 end)"#),
            Ok(r#""x20y40", 2"#.into())
        );
        assert_eq!(
            same(r#"return string.gsub(123, "2", "x")"#),
            Ok(r#""1x3", 1"#.into())
        );
        assert_eq!(
            same(r#"return string.gsub(123, "x", "y")"#),
            Ok(r#""123", 0"#.into())
        );
        assert_eq!(
            same(r#"return string.gsub("abc", "b", 7)"#),
            Ok(r#""a7c", 1"#.into())
        );
        assert_eq!(
            same(r#"return string.gsub("abc", "", "-", 2)"#),
            Ok(r#""-a-bc", 2"#.into())
        );
    }

    #[test]
    fn argument_errors_read_like_lua() {
        for code in [
            r#"return string.find("a")"#,
            r#"return string.find("a", nil)"#,
            r#"return ("a"):find({})"#,
            r#"return ("a"):match()"#,
            r#"return string.find("a", "a", 1.5)"#,
            r#"return string.find("a", "a", "x")"#,
            r#"return string.find("a", "a", "2.5")"#,
            r#"return string.match(true, "a")"#,
            r#"return string.gmatch("a", "a", {})"#,
            r#"return string.gsub("a", "a")"#,
            r#"return string.gsub("a", "a", true)"#,
            r#"return string.gsub("a", "a", nil, "x")"#,
            r#"return string.gsub("a", "a", "b", 1.5)"#,
            r#"local f = string.find return f()"#,
            r#"return string.find(setmetatable({}, {__name = "Thing"}), "a")"#,
            r#"local s = setmetatable({}, {__index = string}) return s:find("a")"#,
            r#"local ok, e = pcall(string.find) error(e, 0)"#,
        ] {
            let result = same(code);
            assert!(result.is_err(), "{code} gave {result:?}");
        }
        assert_eq!(
            same(r#"return string.find("a", nil)"#),
            Err("test:1: bad argument #2 to 'find' (string expected, got nil)".into())
        );
        assert_eq!(
            same(r#"return ("a"):find({})"#),
            Err("test:1: bad argument #1 to 'find' (string expected, got table)".into())
        );
        assert_eq!(
            same(r#"local ok, e = pcall(string.find) error(e, 0)"#),
            Err("bad argument #1 to 'string.find' (string expected, got no value)".into())
        );
        assert_eq!(
            same(r#"local s = setmetatable({}, {__index = string}) return s:find("a")"#),
            Err("test:1: calling 'find' on bad self (string expected, got table)".into())
        );
    }

    #[test]
    fn pattern_and_replacement_errors_read_like_lua() {
        for (code, message) in [
            (
                r#"return string.find("a", "%")"#,
                "malformed pattern (ends with '%')",
            ),
            (
                r#"return ("a"):match("[a")"#,
                "malformed pattern (missing ']')",
            ),
            (r#"return string.find("a", "(a")"#, "unfinished capture"),
            (
                r#"return string.gsub("abc", "b", "%2")"#,
                "invalid capture index %2",
            ),
            (
                r#"return string.gsub("abc", "b", "%x")"#,
                "invalid use of '%' in replacement string",
            ),
            (
                r#"return string.gsub("abc", "b", {b = {}})"#,
                "invalid replacement value (a table)",
            ),
            (
                r#"return string.gsub("abc", "b", function() return true end)"#,
                "invalid replacement value (a boolean)",
            ),
            (
                r#"for w in string.gmatch("a", "%f") do end"#,
                "missing '[' after '%f' in pattern",
            ),
        ] {
            assert_eq!(same(code), Err(format!("test:1: {message}")), "{code}");
        }
    }

    #[test]
    fn a_replacement_function_error_passes_through() {
        let (lua, _) = ours(u64::MAX / 2);
        let result = run(
            &lua,
            r#"return string.gsub("a", "a", function() error("boom") end)"#,
        );
        assert_eq!(result, Err("test:1: boom".into()));
    }

    #[test]
    fn matching_spends_from_the_meter() {
        let (lua, meter) = ours(1_000_000);
        run(&lua, r#"return string.find(string.rep("a", 1000), "a-b")"#).unwrap();
        let spent = 1_000_000 - meter.left.get();
        assert!(
            spent > 1000,
            "a failed search over 1000 bytes spent {spent}"
        );
    }

    #[test]
    fn the_quartic_pattern_ends_with_the_meters_error() {
        let (lua, meter) = ours(10_000_000);
        let result = run(
            &lua,
            r#"return string.find(string.rep("a", 30000), ".-.-.-b")"#,
        );
        assert_eq!(result, Err("stopped: budget spent".into()));
        assert_eq!(meter.left.get(), 0);
    }

    #[test]
    fn gsub_settles_before_running_a_replacement_function() {
        let (lua, meter) = ours(1_000_000);
        let seen = Rc::new(Cell::new(u64::MAX));
        let probe = seen.clone();
        let m = meter.clone();
        lua.globals()
            .set(
                "probe",
                lua.create_function(move |_, ()| {
                    probe.set(m.left.get());
                    Ok(())
                })
                .unwrap(),
            )
            .unwrap();
        run(
            &lua,
            r#"return string.gsub(string.rep("a", 500) .. "b", "a*b", function() probe() end)"#,
        )
        .unwrap();
        assert!(
            seen.get() < 1_000_000,
            "the meter was charged before the callback ran"
        );
        assert!(meter.left.get() < seen.get());
    }

    #[test]
    fn a_runaway_gmatch_and_gsub_end_with_the_meters_error() {
        let (lua, _) = ours(1_000_000);
        let result = run(
            &lua,
            r#"for _ in string.gmatch(string.rep("a", 3000), ".-.-b") do end"#,
        );
        assert_eq!(result, Err("stopped: budget spent".into()));
        let (lua, _) = ours(1_000_000);
        let result = run(
            &lua,
            r#"return string.gsub(string.rep("a", 3000), ".-.-b", "")"#,
        );
        assert_eq!(result, Err("stopped: budget spent".into()));
    }
}
