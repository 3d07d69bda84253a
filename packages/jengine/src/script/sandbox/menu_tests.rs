//! The shipped menu through the real sandbox: its Lua tests (`menu_test.lua`), what it queues
//! on a quiet frame, and that no script or project can change the copy another script gets.

use std::path::Path;
use std::rc::Rc;

use crate::Name;
use crate::components::{Sprite, Text, Transform2D};
use crate::registry::Registry;
use crate::script::{Limits, Script, ScriptHost};
use crate::world::World;

fn host(dir: &Path) -> ScriptHost {
    let registry = Rc::new(Registry::with(&[]));
    let host = ScriptHost::new(&registry, dir, Limits::default(), 1).unwrap();
    host.set_registry(registry);
    host
}

fn spawn_box(world: &mut World, name: &str, pos: [f32; 2], size: [f32; 2]) {
    world.spawn((
        Name(name.into()),
        Transform2D {
            pos,
            ..Default::default()
        },
        Sprite {
            size,
            ..Default::default()
        },
    ));
}

fn spawn_text(world: &mut World, name: &str, pos: [f32; 2]) {
    world.spawn((
        Name(name.into()),
        Transform2D {
            pos,
            ..Default::default()
        },
        Text::default(),
    ));
}

/// Six buttons with labels and three list rows with texts, as `menu_test.lua` describes.
fn world() -> World {
    let mut world = World::new();
    for i in 1..=6 {
        spawn_box(&mut world, &format!("b{i}"), [i as f32, 0.0], [0.8, 0.8]);
        spawn_text(&mut world, &format!("b{i}_label"), [i as f32, 0.0]);
    }
    for r in 1..=3 {
        spawn_box(
            &mut world,
            &format!("row_{r}"),
            [10.0, -(r as f32)],
            [2.0, 0.8],
        );
        spawn_text(&mut world, &format!("text_{r}"), [10.0, -(r as f32)]);
    }
    world
}

fn failures(outcomes: &[crate::script::LuaTest]) -> Vec<String> {
    outcomes
        .iter()
        .filter_map(|t| t.failure.as_ref().map(|f| format!("{}: {f}", t.name)))
        .collect()
}

#[test]
fn the_menus_lua_tests_pass_in_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let mut world = world();
    let outcomes = host(dir.path())
        .run_tests(&mut world, "menu_test.lua", include_str!("menu_test.lua"))
        .unwrap();
    assert!(outcomes.len() >= 10, "{outcomes:?}");
    let failed = failures(&outcomes);
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

#[test]
fn a_quiet_frame_queues_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("title.lua"),
        r#"
local menu = import("jengine/menu.lua")
local LIT, REST = { 1, 1, 1, 1 }, { 0.8, 0.8, 0.9, 1 }
local m
function start(e)
  m = menu.new({ { button = "b1", label = "b1_label" }, { button = "b2", label = "b2_label" } }, {
    look = function(s) return { tint = s.lit and LIT or REST, colour = s.focus and LIT or REST, offset = { 0, s.down and -0.1 or 0 } } end,
  })
end
function update(e) m:update() end
function key(e, name, down) m:key(name, down) end
"#,
    )
    .unwrap();
    let mut world = world();
    let e = world.spawn((Script("title.lua".into()), Name("title".into())));
    let mut h = host(dir.path());
    assert!(h.attach(&mut world, &[e]).is_empty());
    h.start(&mut world);
    h.update(&mut world, 1.0 / 60.0);
    // Two tints, two colours, two sprites and two labels placed.
    assert_eq!(h.take_queue().len(), 8);
    h.update(&mut world, 1.0 / 60.0);
    assert_eq!(h.take_queue().len(), 0, "a quiet frame");
    h.key(&mut world, "down", true);
    h.update(&mut world, 1.0 / 60.0);
    // The focus moved: the first's tint and colour, the second's tint and colour.
    assert_eq!(h.take_queue().len(), 4);
    h.update(&mut world, 1.0 / 60.0);
    assert_eq!(h.take_queue().len(), 0, "quiet again");
}

#[test]
fn one_script_changing_its_menu_changes_nothing_another_gets() {
    let dir = tempfile::tempdir().unwrap();
    let mut world = world();
    let mut h = host(dir.path());
    let tamper = r#"
local menu = import("jengine/menu.lua")
menu.new = function() return "taken over" end
menu.KEYS.enter = "back"
menu.__index = nil
rawset(menu, "over", nil)
return { tampered = function()
  assert(import("jengine/menu.lua").new() == "taken over", "the script's own copy is its own")
end }
"#;
    let outcomes = h.run_tests(&mut world, "tamper.lua", tamper).unwrap();
    assert!(failures(&outcomes).is_empty(), "{outcomes:?}");
    let check = r#"
local menu = import("jengine/menu.lua")
return { untouched = function()
  assert(menu.KEYS.enter == "choose", "enter still chooses")
  assert(type(menu.over) == "function", "over is there")
  local m = menu.new({ { button = "b1", on = function() end } })
  assert(m.focus == 1 and m:key("enter", true) == true, "a fresh menu chooses")
end }
"#;
    let outcomes = h.run_tests(&mut world, "check.lua", check).unwrap();
    assert!(failures(&outcomes).is_empty(), "{outcomes:?}");
}

#[test]
fn a_projects_own_jengine_folder_does_not_stand_in_for_the_engines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("jengine")).unwrap();
    std::fs::write(dir.path().join("jengine/menu.lua"), "return 'the project'").unwrap();
    std::fs::write(dir.path().join("jengine/extra.lua"), "return 'the project'").unwrap();
    let mut world = world();
    let code = r#"
return {
  shipped = function()
    assert(type(import("jengine/menu.lua")) == "table", "the engine's menu, not the project's")
  end,
  unknown = function() import("jengine/extra.lua") end,
}
"#;
    let outcomes = host(dir.path())
        .run_tests(&mut world, "t.lua", code)
        .unwrap();
    assert_eq!(outcomes[0].failure, None, "{outcomes:?}");
    let unknown = outcomes[1].failure.as_deref().unwrap();
    assert!(
        unknown.contains("t.lua:")
            && unknown.contains("the engine ships no module \"jengine/extra.lua\"")
            && unknown.contains("jengine/menu.lua")
            && unknown.contains("never read"),
        "{unknown}"
    );
}

#[test]
fn an_error_in_a_menu_call_names_the_games_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut world = world();
    let code = "local menu = import('jengine/menu.lua')\nreturn { t = function()\n  menu.new({ { button = 'nobody' } })\nend }\n";
    let outcomes = host(dir.path())
        .run_tests(&mut world, "game.lua", code)
        .unwrap();
    let failure = outcomes[0].failure.as_deref().unwrap();
    assert!(
        failure.contains("game.lua:3") && failure.contains("menu: no entity named nobody"),
        "{failure}"
    );
}
