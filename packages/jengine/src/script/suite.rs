//! Lua rule tests run in the real sandbox: a file that returns a table of functions, each a
//! test, called one by one under the same guard, `import` and API a game's scripts get.
//!
//! A game's plain rule modules (`rules/dice.lua`, ...) are tested this way without a scene:
//! the test file imports them as the game does, so a test cannot pass on semantics the
//! sandbox does not have.

use mlua::Function;

use super::{ScriptError, ScriptErrorKind, ScriptHost};
use crate::convert::describe_lua_error;
use crate::world::World;

/// One Lua test's outcome: its name and, if it failed, why (with the file and line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LuaTest {
    /// The key the test has in the returned table.
    pub name: String,
    /// `None` when the test returned; the error it raised (or was stopped with) otherwise.
    pub failure: Option<String>,
}

impl ScriptHost {
    /// Runs the Lua test file `code` (named `name` in messages): it must return a table whose
    /// string keys name test functions. Each is called with no arguments, in name order, under
    /// a fresh guard, with `world` reachable as in a callback. A file that does not load or
    /// returns something else is an error; a failing test is an outcome.
    pub fn run_tests(
        &mut self,
        world: &mut World,
        name: &str,
        code: &str,
    ) -> Result<Vec<LuaTest>, ScriptError> {
        let returned = self.load_chunk(world, name, code, |chunk| chunk.eval::<mlua::Value>())?;
        let mlua::Value::Table(tests) = returned else {
            return Err(ScriptError::new(
                ScriptErrorKind::Runtime,
                name,
                Some("load"),
                format!(
                    "a test file returns a table of test functions, not a {}",
                    returned.type_name()
                ),
            ));
        };
        let mut found: Vec<(String, Function)> = Vec::new();
        for pair in tests.pairs::<mlua::Value, mlua::Value>() {
            let (key, value) = pair.map_err(|e| {
                ScriptError::new(ScriptErrorKind::Runtime, name, None, describe_lua_error(&e))
            })?;
            match (key, value) {
                (mlua::Value::String(k), mlua::Value::Function(f)) => {
                    found.push((k.to_string_lossy(), f));
                }
                (k, v) => {
                    return Err(ScriptError::new(
                        ScriptErrorKind::Runtime,
                        name,
                        Some("load"),
                        format!(
                            "every entry of a test table is a named function; found {} = {}",
                            describe_key(&k),
                            v.type_name()
                        ),
                    ));
                }
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        let mut outcomes = Vec::with_capacity(found.len());
        for (test, f) in found {
            let mark = self.queue.borrow().len();
            let result = self.with_world(world, || f.call::<()>(()));
            let failure = result
                .err()
                .map(|e| self.failure(e, name, "test", mark).to_string());
            outcomes.push(LuaTest {
                name: test,
                failure,
            });
        }
        Ok(outcomes)
    }
}

fn describe_key(key: &mlua::Value) -> String {
    match key {
        mlua::Value::Integer(i) => format!("[{i}]"),
        mlua::Value::Number(n) => format!("[{n}]"),
        other => format!("a {} key", other.type_name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;
    use crate::script::Limits;

    fn host(dir: &std::path::Path) -> ScriptHost {
        let registry = Registry::with(&[]);
        ScriptHost::new(&registry, dir, Limits::default(), 1).unwrap()
    }

    #[test]
    fn each_test_runs_in_name_order_and_a_failure_names_its_line() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("half.lua"),
            "return { half = function(x) return x / 2 end }",
        )
        .unwrap();
        let mut world = World::new();
        let code = r#"
local m = import("half.lua")
local T = {}
function T.b_halves() assert(m.half(4) == 2) end
function T.a_fails() error("no good") end
return T
"#;
        let outcomes = host(dir.path())
            .run_tests(&mut world, "t.lua", code)
            .unwrap();
        assert_eq!(outcomes[0].name, "a_fails");
        let failure = outcomes[0].failure.as_deref().unwrap();
        assert!(
            failure.contains("t.lua:5") && failure.contains("no good"),
            "{failure}"
        );
        assert_eq!(
            outcomes[1],
            LuaTest {
                name: "b_halves".into(),
                failure: None
            }
        );
    }

    #[test]
    fn a_runaway_test_is_stopped_and_the_next_one_runs() {
        let dir = tempfile::tempdir().unwrap();
        let mut world = World::new();
        let code = "return { a = function() while true do end end, b = function() end }";
        let outcomes = host(dir.path())
            .run_tests(&mut world, "t.lua", code)
            .unwrap();
        assert!(
            outcomes[0].failure.as_deref().unwrap().contains("stopped"),
            "{outcomes:?}"
        );
        assert_eq!(outcomes[1].failure, None);
    }

    #[test]
    fn a_file_that_returns_no_table_of_functions_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut world = World::new();
        let mut h = host(dir.path());
        let e = h.run_tests(&mut world, "t.lua", "return 3").unwrap_err();
        assert!(
            e.to_string().contains("not a integer") || e.to_string().contains("not a number"),
            "{e}"
        );
        let e = h
            .run_tests(&mut world, "t.lua", "return { 1 }")
            .unwrap_err();
        assert!(e.to_string().contains("[1] = integer"), "{e}");
        assert!(h.run_tests(&mut world, "t.lua", "return {").is_err());
    }
}
