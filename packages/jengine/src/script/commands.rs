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
use crate::value::{self, Args, Param};

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
        let params: Rc<[Param]> = cmd.params().into();
        let rule = cmd.rule_check();
        let queue = queue.clone();
        let gd = guard.clone();
        let name: Rc<str> = cmd.qualified().into();
        let f = lua.create_function(move |lua, args: MultiValue| {
            gd.check()?;
            let mut values = Vec::with_capacity(args.len());
            for (i, v) in args.into_iter().enumerate() {
                // Measured before it is copied: the copy is what the limit protects.
                let most = params.get(i).map_or(MAX_STRING_ARG, |p| p.max_bytes);
                if let mlua::Value::String(s) = &v
                    && s.as_bytes().len() > most
                {
                    return Err(lua_err(format!(
                        "{}{name}: {} is a string of {} bytes; it may be at most {most}",
                        caller(lua),
                        describe_arg(&params, i),
                        s.as_bytes().len()
                    )));
                }
                values.push(take_value(lua, &gd, v, || {
                    format!("{name}: {}", describe_arg(&params, i))
                })?);
            }
            value::check_all(&params, &mut values)
                .and_then(|()| rule.as_ref().map_or(Ok(()), |rule| rule(&values)))
                .map_err(|e| lua_err(format!("{}{name}: {e}", caller(lua))))?;
            gd.queue_one(|| caller(lua).trim_end_matches(": ").to_string())?;
            queue.borrow_mut().push(Queued {
                command: index,
                args: Args::new(values),
                by: gd.caller(),
            });
            Ok(())
        })?;
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

fn describe_arg(params: &[Param], i: usize) -> String {
    match params.get(i) {
        Some(p) => format!("argument {} ({})", i + 1, p.name),
        None => format!("argument {}", i + 1),
    }
}
