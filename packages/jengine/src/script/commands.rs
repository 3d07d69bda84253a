//! Commands from scripts: each call checked against its declaration, then queued.
//!
//! A call's arguments are read out of Lua within the callback's host-copy allowance, checked
//! (kinds, declared ranges, the rule over the arguments together, string length) and queued with the index of the command; nothing
//! changes until the host applies the queue after scripts run. A callback may queue at most
//! [`crate::host::Limits::commands`] calls, and the calls of a callback that was stopped are
//! thrown away with it.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, MultiValue, Table};

use super::api::take_value;
use super::sandbox::Guard;
use super::{caller, lua_err};
use crate::registry::Registry;
use crate::value::{self, ArgValues, Args, Param, Value};

pub use crate::value::MAX_STRING_ARG;

/// A command call waiting for the end of the scripts' turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Queued {
    /// Index into [`Registry::commands`].
    pub command: usize,
    /// The checked arguments.
    pub args: Args,
    /// The script that queued it and the callback it was in, for what a panic reports.
    pub by: (Rc<str>, &'static str),
}

pub(crate) type Queue = Rc<RefCell<Vec<Queued>>>;

pub(crate) fn install(
    lua: &Lua,
    registry: &Registry,
    queue: &Queue,
    guard: &Rc<Guard>,
) -> mlua::Result<()> {
    let g = lua.globals();
    for (index, cmd) in registry.commands().iter().enumerate() {
        let table = match g.raw_get::<Option<Table>>(cmd.namespace())? {
            Some(t) => t,
            None => {
                let t = lua.create_table()?;
                g.raw_set(cmd.namespace(), t.clone())?;
                t
            }
        };
        let call = Call {
            index,
            params: cmd.params().into(),
            plain: value::Plain::of(cmd.params()),
            rule: cmd.rule_check(),
            queue: queue.clone(),
            guard: guard.clone(),
            name: cmd.qualified().into(),
        };
        // The declared arguments come off Lua's stack one by one (no list is built for them);
        // anything past them is caught by the last, which is empty unless a script passes
        // too many.
        macro_rules! taking {
            ($($a:ident)*) => {
                lua.create_function(
                    move |lua, ($($a,)* rest): ($(taking!(@value $a),)* Surplus)| {
                        call.call(lua, [$($a),*], rest)
                    },
                )?
            };
            (@value $a:ident) => { mlua::Value };
        }
        let f = match cmd.params().len() {
            1 => taking!(a),
            2 => taking!(a b),
            3 => taking!(a b c),
            4 => taking!(a b c d),
            5 => taking!(a b c d e),
            6 => taking!(a b c d e f),
            7 => taking!(a b c d e f g),
            _ => lua.create_function(move |lua, args: Surplus| call.call(lua, [], args))?,
        };
        table.raw_set(cmd.name(), f.clone())?;
        if cmd.package() != crate::registry::CORE {
            for alias in cmd.aliases() {
                g.raw_set(alias.as_str(), f.clone())?;
            }
            g.raw_set(cmd.flat(), f)?;
        }
    }
    Ok(())
}

/// The arguments of a call past the ones a command declares: none, unless a script passes too
/// many (which the check then refuses). Read off the stack only when there are any, so the
/// usual call builds no list for them.
struct Surplus(Option<MultiValue>);

impl mlua::FromLuaMulti for Surplus {
    fn from_lua_multi(values: MultiValue, _: &Lua) -> mlua::Result<Surplus> {
        Ok(Surplus((!values.is_empty()).then_some(values)))
    }

    unsafe fn from_stack_multi(
        nvals: std::ffi::c_int,
        lua: &mlua::state::RawLua,
    ) -> mlua::Result<Surplus> {
        if nvals <= 0 {
            return Ok(Surplus(None));
        }
        // SAFETY: the caller's contract is this function's (the `nvals` values on top of the
        // stack are the ones to read), passed on unchanged to mlua's own reader of them.
        unsafe { MultiValue::from_stack_multi(nvals, lua) }.map(|v| Surplus(Some(v)))
    }
}

/// One command as scripts call it: what a call is checked against and where it is queued.
struct Call {
    index: usize,
    params: Rc<[Param]>,
    /// The parameters when none has more to check than its kind.
    plain: Option<Box<[value::Plain]>>,
    rule: Option<crate::registry::Rule>,
    queue: Queue,
    guard: Rc<Guard>,
    name: Rc<str>,
}

impl Call {
    /// A script's call: each argument measured, copied out of Lua within the callback's
    /// allowance and checked, then the call queued. A refused call queues nothing.
    fn call<const N: usize>(
        &self,
        lua: &Lua,
        declared: [mlua::Value; N],
        rest: Surplus,
    ) -> mlua::Result<()> {
        self.guard.check()?;
        let mut values = ArgValues::new();
        for (i, v) in declared.into_iter().enumerate() {
            values.push(self.take(lua, i, v)?);
        }
        if let Some(rest) = rest.0 {
            for v in rest {
                let i = values.len();
                values.push(self.take(lua, i, v)?);
            }
        }
        let plain = self
            .plain
            .as_deref()
            .is_some_and(|plain| value::Plain::all_pass(plain, &values));
        if !plain && let Err(e) = value::check_inline(&self.params, &mut values) {
            return Err(self.refused(lua, e));
        }
        if let Some(rule) = &self.rule
            && let Err(e) = rule(&values)
        {
            return Err(self.refused(lua, e));
        }
        // The stop was checked at the start; copying the arguments out raises its own.
        self.guard
            .count_queued(|| caller(lua).trim_end_matches(": ").to_string())?;
        self.queue.borrow_mut().push(Queued {
            command: self.index,
            args: Args::inline(values),
            by: self.guard.caller(),
        });
        Ok(())
    }

    /// A call the checks refused, as the script's error, with its line.
    #[cold]
    #[inline(never)]
    fn refused(&self, lua: &Lua, e: value::ArgError) -> mlua::Error {
        lua_err(format!("{}{}: {e}", caller(lua), self.name))
    }

    /// Argument `i` copied out of Lua: a number, boolean or nil as it is; a string measured
    /// before it is copied (the copy is what the limit protects); a table walked within the
    /// callback's allowance.
    #[inline(always)]
    fn take(&self, lua: &Lua, i: usize, v: mlua::Value) -> mlua::Result<Value> {
        match v {
            mlua::Value::Integer(n) => return Ok(Value::Int(n)),
            mlua::Value::Number(n) => return Ok(Value::Num(n)),
            mlua::Value::Boolean(b) => return Ok(Value::Bool(b)),
            mlua::Value::Nil => return Ok(Value::Nil),
            _ => {}
        }
        let most = self.params.get(i).map_or(MAX_STRING_ARG, |p| p.max_bytes);
        if let mlua::Value::String(s) = &v
            && s.as_bytes().len() > most
        {
            return Err(lua_err(format!(
                "{}{}: {} is a string of {} bytes; it may be at most {most}",
                caller(lua),
                self.name,
                describe_arg(&self.params, i),
                s.as_bytes().len()
            )));
        }
        take_value(lua, &self.guard, v, || {
            format!("{}: {}", self.name, describe_arg(&self.params, i))
        })
    }
}

fn describe_arg(params: &[Param], i: usize) -> String {
    match params.get(i) {
        Some(p) => format!("argument {} ({})", i + 1, p.name),
        None => format!("argument {}", i + 1),
    }
}
