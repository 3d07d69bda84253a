//! Hostile scripts against the sandbox: each probe must end in a clear error naming the
//! script's file, line and callback, within the limits, with the host running on and the
//! other scripts untouched.

use std::time::Duration;

use super::probe::*;
use super::*;

#[cfg_attr(test, test)]
fn load_with_a_reader_function_cannot_swallow_the_stop() {
    let mut p = Probe::new(
        "function update(e)\n  while true do load(function() while true do end end) end\nend\n",
    );
    p.run(3);
    let bad: Vec<&String> = p
        .warnings
        .iter()
        .filter(|w| w.contains("bad.lua"))
        .collect();
    assert_eq!(
        bad,
        ["assets/scripts/bad.lua:2: load takes source text (a string), got function (in update)"]
    );
    p.good_ran(3);

    // Caught and retried in a loop, it is the loop that is stopped.
    let mut p = Probe::new(
        "function update(e)\n  while true do pcall(load, function() while true do end end) end\nend\n",
    );
    p.run(3);
    p.stopped("update", "stopped: the script ran 2000000 instructions");
    p.good_ran(3);
}

#[cfg_attr(test, test)]
fn a_loop_inside_a_string_load_is_stopped() {
    let mut p = Probe::new(
        "function update(e)\n  while true do pcall(load('while true do end')) end\nend\n",
    );
    p.run(2);
    p.stopped("update", "stopped: the script ran 2000000 instructions");
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn the_stop_cannot_be_caught_anywhere() {
    let traps = [
        ("pcall", "pcall(function() while true do end end)"),
        (
            "xpcall",
            "xpcall(function() while true do end end, function(e) return e end)",
        ),
        (
            "xpcall handler",
            "xpcall(function() error('x') end, function(e) while true do end end)",
        ),
        (
            "coroutine.resume",
            "coroutine.resume(coroutine.create(function() while true do end end))",
        ),
        (
            "coroutine.wrap",
            "pcall(coroutine.wrap(function() while true do end end))",
        ),
        (
            "__index",
            "pcall(function() return setmetatable({}, {__index = function() while true do end end}).x end)",
        ),
        (
            "__close",
            "pcall(function() local x <close> = setmetatable({}, {__close = function() while true do end end}) end)",
        ),
        (
            "__tostring",
            "pcall(tostring, setmetatable({}, {__tostring = function() while true do end end}))",
        ),
        (
            "table.sort",
            "pcall(table.sort, {3, 2, 1}, function() while true do end end)",
        ),
        (
            "gsub callback",
            "pcall(string.gsub, 'abc', '%w', function() while true do end end)",
        ),
    ];
    for (name, trap) in traps {
        let mut p = Probe::new(&format!(
            "function update(e)\n  {trap}\n  Log.info('survived')\nend\n"
        ));
        p.run(2);
        assert!(
            p.infos.iter().all(|i| !i.contains("survived")),
            "{name}: the script went on after its stop: {:?}",
            p.infos
        );
        p.stopped("update", "stopped:");
        p.good_ran(2);
    }
}

#[cfg_attr(test, test)]
fn pattern_functions_run_under_the_same_budget() {
    for call in [
        "string.find(s, '.-.-.-b')",
        "s:match('.-.-.-b')",
        "for _ in s:gmatch('.-.-.-b') do end",
        "s:gsub('.-.-.-b', '')",
    ] {
        let mut p = Probe::new(&format!(
            "local s = string.rep('a', 30000)\nfunction update(e)\n  pcall(function() {call} end)\nend\n"
        ));
        p.run(2);
        let w = p.stopped("update", "stopped: the script ran 2000000 instructions");
        assert!(w.starts_with("assets/scripts/bad.lua:3:"), "{call}: {w}");
        p.good_ran(2);
    }
}

#[cfg_attr(test, test)]
fn finalizers_cannot_be_installed() {
    let mut p = Probe::new(
        "function update(e)\n  setmetatable({}, {__gc = function() while true do end end})\n  local t = {} for i = 1, 1e5 do t[i] = {} end\nend\n",
    );
    p.run(2);
    let bad: Vec<&String> = p
        .warnings
        .iter()
        .filter(|w| w.contains("bad.lua"))
        .collect();
    assert_eq!(bad.len(), 1, "{:#?}", p.warnings);
    assert_eq!(
        bad[0],
        "assets/scripts/bad.lua:2: __gc is not allowed: scripts cannot install finalizers (in update)"
    );
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn a_memory_error_ends_the_callback_even_under_pcall() {
    let mut p =
        Probe::new("function update(e)\n  while true do pcall(string.rep, 'x', 6e7) end\nend\n");
    p.run(3);
    let w = p.stopped("update", "stopped: the script ran out of memory");
    assert!(w.starts_with("assets/scripts/bad.lua:2: stopped"), "{w}");
    p.good_ran(3);
}

#[cfg_attr(test, test)]
fn a_memory_bomb_in_update_is_switched_off_and_said_once() {
    let mut p = Probe::new(
        "local keep, chunk = {}, string.rep('x', 100000)\nfunction update(e)\n  while true do keep[#keep + 1] = chunk .. #keep end\nend\n",
    );
    p.run(5);
    p.stopped("update", "out of memory");
    p.good_ran(5);
}

#[cfg_attr(test, test)]
fn a_table_bomb_is_stopped_at_the_memory_limit() {
    // Plenty of instructions: it is the memory limit that must end it.
    let limits = Limits {
        instructions: 500_000_000,
        ..limits()
    };
    let mut p = Probe::with(
        "local t, n = {}, 0\nfunction update(e)\n  while true do n = n + 1 t[n] = {n} end\nend\n",
        GOOD,
        limits,
    );
    p.run(3);
    p.stopped("update", "stopped: the script ran out of memory");
    p.good_ran(3);
}

#[cfg_attr(test, test)]
fn an_endless_loop_inside_a_coroutine_is_stopped() {
    let mut p = Probe::new(
        "function update(e)\n  local inner = coroutine.wrap(function()\n    coroutine.wrap(function() while true do end end)()\n  end)\n  inner()\n  Log.info('survived')\nend\n",
    );
    p.run(3);
    assert!(p.infos.is_empty(), "{:?}", p.infos);
    let w = p.stopped("update", "stopped: the script ran 2000000 instructions");
    assert!(w.starts_with("assets/scripts/bad.lua:3:"), "{w}");
    p.good_ran(3);
}

#[cfg_attr(test, test)]
fn deep_recursion_is_an_error_the_host_survives() {
    let roomy = Limits {
        memory: 64 << 20,
        instructions: 500_000_000,
        ..limits()
    };
    let mut p = Probe::with(
        "local function down(n) return 1 + down(n + 1) end\n\
         local looped = setmetatable({}, {})\n\
         getmetatable(looped).__index = function(t, k) return t[k] end\n\
         function update(e)\n\
           Log.info(select(2, pcall(down, 1)))\n\
           Log.info(select(2, pcall(function() return looped.x end)))\n\
         end\n",
        GOOD,
        roomy,
    );
    p.run(2);
    let said: Vec<&str> = p.infos.iter().map(|l| said(l)).collect();
    assert_eq!(said.len(), 4, "{:#?} {:#?}", p.infos, p.warnings);
    for (i, line) in said.iter().enumerate() {
        let (line_no, what) = [("1", "stack overflow"), ("3", "C stack overflow")][i % 2];
        assert_eq!(*line, format!("assets/scripts/bad.lua:{line_no}: {what}"));
    }
    assert!(
        p.warnings.iter().all(|w| !w.contains("bad.lua")),
        "{:#?}",
        p.warnings
    );
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn a_loop_that_never_reaches_the_hook_hits_the_wall_clock() {
    let limits = Limits {
        instructions: u64::MAX,
        wall_clock: Duration::from_millis(200),
        ..limits()
    };
    let mut p = Probe::with(
        "function update(e)\n  while true do end\nend\n",
        GOOD,
        limits,
    );
    p.run(2);
    p.stopped("update", "stopped: the callback ran longer than 200 ms");
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn huge_strings_for_the_host_are_refused_and_the_process_lives() {
    let roomy = Limits {
        memory: 64 << 20,
        ..limits()
    };
    let mut p = Probe::with(
        "local big = string.rep('xxxxxxxxxxxxxxxx', 640 * 1024)\n\
         function update(e)\n\
           Log.info(#big)\n\
           Log.info(select(2, pcall(Log.info, big)))\n\
           Log.info(select(2, pcall(Text.set, e, big)))\n\
           Log.info(select(2, pcall(print, big)))\n\
           for i = 1, 100 do pcall(Save.set, 'k' .. i, big) end\n\
         end\n",
        GOOD,
        roomy,
    );
    p.run(2);
    let infos = p.infos.join("\n");
    assert!(!infos.is_empty(), "{:#?}", p.warnings);
    assert!(
        infos.contains(
            "bad.lua:4: Log.info: the message is 10485760 bytes; a log line may be at most 8192"
        ),
        "{infos}"
    );
    assert!(
        infos.contains(
            "bad.lua:5: Text.set: argument 2 (text) is a string of 10485760 bytes; it may be at most 65536"
        ),
        "{infos}"
    );
    assert!(
        infos.contains("bad.lua:6: Log.info: the message is"),
        "{infos}"
    );
    p.stopped(
        "update",
        "stopped: the callback handed the host more than 16777216 bytes",
    );
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn a_save_value_over_the_cap_is_refused_with_the_call() {
    let mut p = Probe::new(
        "function update(e)\n  local ok, err = pcall(Save.set, 'k', string.rep('x', 2 * 1024 * 1024))\n  Log.info(err)\n  Save.set('small', {1, 2})\n  Log.info(Save.get('small')[2])\nend\n",
    );
    p.run(1);
    assert_eq!(
        p.infos[0],
        "assets/scripts/bad.lua:3: Save.set(\"k\"): the value is 2097155 bytes as JSON; one saved value may be at most 1048576"
    );
    assert_eq!(p.infos[1], "assets/scripts/bad.lua:5: 2");
}

#[cfg_attr(test, test)]
fn a_distinct_error_every_frame_keeps_the_log_bounded() {
    let mut p = Probe::new(
        "local n = 0\nfunction update(e)\n  n = n + 1\n  error(n .. string.rep('y', 20000))\nend\n",
    );
    p.run(50);
    assert_eq!(p.warnings.len(), 50);
    assert!(p.warnings.iter().all(|w| w.len() < 9000), "lines are cut");
    p.good_ran(50);
}

#[cfg_attr(test, test)]
fn scripts_cannot_change_what_other_scripts_see() {
    let bad = "function start(e)\n\
        local tries = {\n\
          function() Bouncer.kick = function() end end,\n\
          function() Text.set = nil end,\n\
          function() string.format = nil end,\n\
          function() rawset(string, 'rep', nil) end,\n\
          function() rawset(Bouncer, 'kick', print) end,\n\
          function() setmetatable(Entity, nil) end,\n\
          function() getmetatable('').__index.upper = nil end,\n\
          function() table.insert(Log, 1) end,\n\
        }\n\
        for i, f in ipairs(tries) do\n\
          local ok, err = pcall(f)\n\
          Log.info(i .. ' ' .. tostring(ok) .. ' ' .. tostring(err))\n\
        end\n\
        setmetatable(_G, nil)\n\
      end\n";
    let good = "function update(e)\n\
        Bouncer.kick(e)\n\
        Log.info(string.format('%s %s', string.rep('a', 2), ('x'):upper()))\n\
        assert(Entity.find('good') == e and Text.set and Log.info)\n\
      end\n";
    let mut p = Probe::with(bad, good, limits());
    p.run(2);
    let refusals = p.infos.iter().filter(|i| i.contains("bad.lua")).count();
    assert_eq!(refusals, 8, "{:#?}", p.infos);
    for line in p.infos.iter().filter(|i| i.contains("bad.lua")) {
        assert!(
            line.contains(" false "),
            "a tampering try succeeded: {line}"
        );
    }
    assert!(p.infos.iter().any(|i| i.contains("Bouncer is read-only")));
    assert!(
        p.infos
            .iter()
            .any(|i| i.contains("cannot change a read-only table"))
    );
    assert!(
        p.warnings
            .iter()
            .any(|w| w.contains("bad.lua:16: cannot change a protected metatable (in start)")),
        "{:#?}",
        p.warnings
    );
    assert_eq!(
        p.infos
            .iter()
            .filter(|i| i.ends_with("good.lua:3: aa X"))
            .count(),
        2,
        "{:#?}",
        p.infos
    );
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn a_bag_spoiled_by_one_script_is_whole_for_the_next() {
    let bad = "function update(e)\n\
        local t = Entity.get(Entity.find('good'), 'tally')\n\
        t.count = 999; t.cells[1] = -1; t.cells = nil\n\
        Log.info('bad sees ' .. Entity.get(Entity.find('good'), 'tally').count)\n\
      end\n";
    let good = "function update(e)\n\
        local t = Entity.get(e, 'tally')\n\
        Log.info('good sees ' .. t.count .. ' ' .. t.cells[1] .. ' ' .. #t.cells)\n\
      end\n";
    let mut p = Probe::with(bad, good, limits());
    let good_entity = p.good;
    p.world
        .entities
        .insert_one(
            good_entity,
            Tally {
                count: 3,
                cells: vec![7, 8],
            },
        )
        .unwrap();
    p.host.publish_bags(&p.registry, &p.world).unwrap();
    p.run(2);
    // The spoiler sees its own scribbles for the rest of its callback, nobody else does.
    assert!(
        p.infos.iter().any(|i| i.ends_with("bad sees 999")),
        "{:#?}",
        p.infos
    );
    assert_eq!(
        p.infos
            .iter()
            .filter(|i| i.ends_with("good sees 3 7 2"))
            .count(),
        2,
        "{:#?}",
        p.infos
    );
    assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
}

#[cfg_attr(test, test)]
fn a_global_set_by_one_script_is_not_seen_by_another() {
    let bad = "shared = 1\nfunction update(e) Log.info(tostring(_G.shared) .. tostring(rawget(_G, 'shared'))) end\n";
    let good = "function update(e) Log.info('good ' .. tostring(shared)) end\n";
    let mut p = Probe::with(bad, good, limits());
    p.run(1);
    assert_eq!(
        p.infos,
        [
            "assets/scripts/bad.lua:2: 11",
            "assets/scripts/good.lua:1: good nil"
        ]
    );
}

#[cfg_attr(test, test)]
fn commands_queued_by_a_stopped_callback_are_discarded() {
    let mut p = Probe::new("function update(e)\n  Bouncer.kick(e)\n  while true do end\nend\n");
    p.run(2);
    p.stopped("update", "stopped: the script ran");
    assert_eq!(p.kicks(p.bad), 0);
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn a_callback_may_queue_a_bounded_number_of_commands() {
    let mut p = Probe::new("function update(e)\n  for i = 1, 1e9 do Bouncer.kick(e) end\nend\n");
    p.run(2);
    let w = p.stopped(
        "update",
        "stopped: the callback queued more than 10000 commands",
    );
    assert!(w.starts_with("assets/scripts/bad.lua:2:"), "{w}");
    assert_eq!(p.kicks(p.bad), 0);
    p.good_ran(2);

    let mut p = Probe::new("function update(e)\n  for i = 1, 10000 do Bouncer.kick(e) end\nend\n");
    p.run(1);
    assert_eq!(p.kicks(p.bad), 10000);
}

#[cfg_attr(test, test)]
fn integer_parameters_check_their_range_at_the_call() {
    let mut p = Probe::new(
        "function update(e)\n  Log.info(select(2, pcall(Bouncer.add, e, 2^60)))\n  Log.info(select(2, pcall(Bouncer.add, e, 1e308)))\n  Bouncer.add(e, 1 << 60)\nend\n",
    );
    p.run(1);
    assert_eq!(
        p.infos[0],
        "assets/scripts/bad.lua:2: Bouncer.add: argument 2 (n) must be a whole number within ±2^53 (a float past that is not exact), got number 1152921504606847000"
    );
    assert!(
        p.infos[1].contains("got number 100000000"),
        "{}",
        p.infos[1]
    );
    assert_eq!(p.kicks(p.bad), 1 << 60);
}

#[cfg_attr(test, test)]
fn the_usual_escapes_are_closed() {
    let bad = r#"function update(e)
  local names = {"io", "os.execute", "os.getenv", "os.exit", "require", "package", "debug",
                 "string.dump", "dofile", "loadfile", "collectgarbage", "module", "newproxy"}
  for _, n in ipairs(names) do
    local v = _G
    for part in n:gmatch("[^.]+") do v = v and v[part] end
    Log.info(n .. " " .. type(v))
  end
  local f, err = load("\27Lua\84\0")
  Log.info("binary " .. tostring(f) .. " " .. tostring(err))
  Log.info("mode " .. type(load("return 1", "x", "b")))
  Log.info("clock " .. type(os.clock()) .. " " .. type(os.time()))
end
"#;
    let mut p = Probe::new(bad);
    p.run(1);
    let lines: Vec<&str> = p
        .infos
        .iter()
        .map(|l| l.trim_start_matches("assets/scripts/bad.lua:"))
        .collect();
    for n in [
        "io",
        "os.execute",
        "os.getenv",
        "os.exit",
        "require",
        "package",
        "debug",
        "string.dump",
        "dofile",
        "loadfile",
        "collectgarbage",
        "module",
        "newproxy",
    ] {
        assert!(
            lines.contains(&format!("7: {n} nil").as_str()),
            "{n}: {lines:#?}"
        );
    }
    assert!(
        lines.contains(&"10: binary nil attempt to load a binary chunk (mode is 't')"),
        "{lines:#?}"
    );
    // A mode asking for binary chunks still gets text only.
    assert!(lines.contains(&"11: mode function"), "{lines:#?}");
    assert!(lines.contains(&"12: clock number number"), "{lines:#?}");
}

#[cfg_attr(test, test)]
fn print_and_log_name_the_script_line() {
    let mut p =
        Probe::new("function update(e)\n  print('a', 1, nil)\n  Log.warn('careful')\nend\n");
    p.run(1);
    assert_eq!(p.infos, ["assets/scripts/bad.lua:2: a\t1\tnil"]);
    assert!(
        p.warnings
            .contains(&"assets/scripts/bad.lua:3: careful".to_string())
    );
}

#[cfg_attr(test, test)]
fn a_runtime_error_names_file_line_and_callback_and_runs_again() {
    let mut p = Probe::new("function update(e)\n  Bouncer.kick(e)\n  local x = nil + 1\nend\n");
    p.run(3);
    let bad: Vec<&String> = p
        .warnings
        .iter()
        .filter(|w| w.contains("bad.lua"))
        .collect();
    assert_eq!(
        bad,
        ["assets/scripts/bad.lua:3: attempt to perform arithmetic on a nil value (in update)"]
    );
    // Commands made before an ordinary error still apply: the callback was not stopped.
    assert_eq!(p.kicks(p.bad), 3);
}

/// Reading a name an API table does not have is an error at the script's line, not a quiet
/// `nil`; the table that says so stays out of reach (every way in hands back the read-only
/// proxy, whose metatable is a string).
#[cfg_attr(test, test)]
fn a_missing_api_name_is_an_error_at_the_line_and_the_table_behind_stays_hidden() {
    let mut p = Probe::new(
        "function update(e)\n\
           Log.info(select(2, pcall(function() return Bouncer.kik end)))\n\
           Log.info(select(2, pcall(function() return Entity.nothing end)))\n\
           Log.info(tostring(getmetatable(Bouncer)) .. ' ' .. tostring(rawget(Bouncer, 'kick')))\n\
           Log.info(select(2, pcall(setmetatable, Bouncer, {})))\n\
           Log.info(select(2, pcall(function() Bouncer.kick = print end)))\n\
           local seen = 0 for k, v in pairs(Bouncer) do seen = seen + 1 end\n\
           Log.info(type(Bouncer.kick) .. ' ' .. seen)\n\
           Bouncer.kick(e)\n\
         end\n",
    );
    p.run(1);
    let said: Vec<&str> = p
        .infos
        .iter()
        .filter(|i| i.starts_with("assets/scripts/bad.lua"))
        .map(|i| i.as_str())
        .collect();
    assert_eq!(
        said,
        [
            "assets/scripts/bad.lua:2: assets/scripts/bad.lua:2: Bouncer.kik does not exist",
            "assets/scripts/bad.lua:3: assets/scripts/bad.lua:3: Entity.nothing does not exist",
            "assets/scripts/bad.lua:4: read-only nil",
            "assets/scripts/bad.lua:5: cannot change a protected metatable",
            "assets/scripts/bad.lua:6: assets/scripts/bad.lua:6: Bouncer is read-only: a script cannot change Bouncer.kick",
            "assets/scripts/bad.lua:8: function 3",
        ],
        "{:#?}",
        p.infos
    );
    assert_eq!(p.kicks(p.bad), 1);
}

#[cfg_attr(test, test)]
fn script_errors_are_typed() {
    let mut p = Probe::new("function update(e)\n  while true do end\nend\n");
    p.frame();
    p.host.start(&mut p.world);
    let files = scripts(&[("broken.lua", "function (")]);
    let mut host = ScriptHost::with_assets(&p.registry, files, limits(), 1).unwrap();
    let err = host.check_syntax("broken.lua").unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Syntax);
    assert_eq!(
        (err.file.as_str(), err.line),
        ("assets/scripts/broken.lua", Some(1))
    );
    let err = host.check_syntax("missing.lua").unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Read);
    let err = host
        .run_chunk(&mut p.world, "probe.lua", "local a = 1\nwhile true do end")
        .unwrap_err();
    assert_eq!(err.kind, ScriptErrorKind::Stopped(StopKind::Instructions));
    assert_eq!(
        (err.file.as_str(), err.line, err.callback),
        ("probe.lua", Some(2), Some("load"))
    );
}

#[cfg_attr(test, test)]
fn stop_runs_when_the_scene_ends_and_its_commands_are_dropped() {
    let mut p = Probe::new(
        "function stop(e)\n  Save.set('left', true)\n  Bouncer.kick(e)\n  Log.info('bye')\nend\n",
    );
    p.run(1);
    p.host.detach_all(&mut p.world);
    assert!(p.host.take_queue().is_empty());
    let lines: Vec<String> = p
        .world
        .log()
        .drain()
        .into_iter()
        .map(|l| l.message)
        .collect();
    assert_eq!(lines, ["assets/scripts/bad.lua:4: bye"]);
    assert_eq!(
        p.host.save.borrow().get("left"),
        Some(&serde_json::json!(true))
    );
}

#[cfg_attr(test, test)]
fn data_tables_are_copies_a_script_cannot_spoil_for_others() {
    let mut p = Probe::with(
        "function update(e) Data.table('t')[1].x = 99 end\n",
        "function update(e) Log.info(Data.table('t')[1].x) end\n",
        limits(),
    );
    let mut tables = Tables::default();
    tables.insert_json("t", r#"[{"x": 1}]"#).unwrap();
    p.world.resources.insert(tables);
    p.run(2);
    assert_eq!(
        p.infos,
        [
            "assets/scripts/good.lua:1: 1",
            "assets/scripts/good.lua:1: 1"
        ]
    );
}

use crate::table::Tables;

#[cfg_attr(test, test)]
fn asset_names_from_scripts_cannot_leave_their_folder() {
    let mut p = Probe::new(
        "function update(e)\n  Log.info(select(2, pcall(Data.table, '../../etc/passwd')))\n  Log.info(select(2, pcall(Scene.load, '../outside')))\n  Log.info(select(2, pcall(Scene.load, '/etc/passwd')))\nend\n",
    );
    p.run(1);
    assert_eq!(
        p.infos[0],
        "assets/scripts/bad.lua:2: Data.table: argument 1 (name) \"../../etc/passwd\" leaves its folder: asset names are relative paths inside it"
    );
    assert_eq!(
        p.infos[1],
        "assets/scripts/bad.lua:3: Scene.load: argument 1 (name) must be a name inside its folder, got \"../outside\" leaves its folder: asset names are relative paths inside it"
    );
    assert!(
        p.infos[2].contains("\"/etc/passwd\" leaves its folder"),
        "{}",
        p.infos[2]
    );
    assert!(p.host.take_queue().is_empty());
}

#[cfg_attr(test, test)]
fn a_script_imports_a_module_of_its_own() {
    let files = scripts(&[
        (
            "menu.lua",
            "local M = {count = 0}\nfunction M.bump() M.count = M.count + 1 return M.count end\nsecret = 1\nreturn M\n",
        ),
        ("loop.lua", "return import('loop.lua')\n"),
        ("bad.lua", "local x = nil + 1\n"),
        (
            "a.lua",
            "local m = import('menu.lua')\nm.bump()\nm.bump()\nassert(import('menu.lua') == m)\nLog.info('a ' .. m.count .. ' ' .. tostring(secret))\n\
         Log.info(select(2, pcall(import, '../menu.lua')))\n\
         Log.info(select(2, pcall(import, 'gone.lua')))\n\
         Log.info(select(2, pcall(import, 'loop.lua')))\n\
         Log.info(select(2, pcall(import, 'bad.lua')))\n\
         Log.info(select(2, pcall(import, 'menu.txt')))\n",
        ),
        (
            "b.lua",
            "local m = import('menu.lua')\nLog.info('b ' .. m.bump())\n",
        ),
    ]);
    let registry = Rc::new(Registry::with(&[&Bouncer]));
    let mut host = ScriptHost::with_assets(&registry, files, limits(), 1).unwrap();
    let mut world = World::new();
    let a = world.spawn((Script("a.lua".into()),));
    let b = world.spawn((Script("b.lua".into()),));
    let errors = host.attach(&mut world, &[a, b]);
    assert!(errors.is_empty(), "{errors:#?}");
    let lines: Vec<String> = world.log().drain().into_iter().map(|l| l.message).collect();
    // Each script has its own copy: b's count starts again, and a module's globals are its own.
    assert_eq!(lines[0], "assets/scripts/a.lua:5: a 2 nil");
    assert!(
        lines[1].ends_with(
            "import: \"../menu.lua\" leaves its folder: asset names are relative paths inside it"
        ),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains("import: cannot read assets/scripts/gone.lua"),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains("import: loop.lua imports itself"),
        "{}",
        lines[3]
    );
    assert!(
        lines[4].contains("assets/scripts/bad.lua:1: attempt to perform arithmetic"),
        "{}",
        lines[4]
    );
    assert!(
        lines[5].contains("import: \"menu.txt\" is not a .lua file"),
        "{}",
        lines[5]
    );
    assert_eq!(lines[6], "assets/scripts/b.lua:2: b 1");
}

#[cfg_attr(test, test)]
fn a_loop_in_an_imported_module_is_stopped_like_any_other() {
    let files = scripts(&[
        ("spin.lua", "while true do end\n"),
        (
            "bad.lua",
            "function update(e)\n  pcall(import, 'spin.lua')\n  Log.info('survived')\nend\n",
        ),
        ("good.lua", GOOD),
    ]);
    let registry = Rc::new(Registry::with(&[&Bouncer]));
    let mut host = ScriptHost::with_assets(&registry, files, limits(), 1).unwrap();
    let mut world = World::new();
    let e = world.spawn((Script("bad.lua".into()),));
    host.attach(&mut world, &[e]);
    host.start(&mut world);
    host.update(&mut world, 1.0 / 60.0);
    let lines: Vec<String> = world.log().drain().into_iter().map(|l| l.message).collect();
    assert_eq!(lines.len(), 1, "{lines:#?}");
    assert!(lines[0].contains("stopped: the script ran"), "{}", lines[0]);
    assert!(
        lines[0].starts_with("assets/scripts/bad.lua: assets/scripts/spin.lua:1:"),
        "{}",
        lines[0]
    );
}

/// A command called on one line of its script is refused with that line, as a script
/// error is; the call's own check (a wrong kind) names it the same way.
#[cfg_attr(test, test)]
fn a_refused_command_called_on_one_line_names_that_line() {
    let mut p = Probe::new(
        "-- a volume nobody has\n\
         function update(e)\n\
           local what = 'lo' .. 'ud'\n\
           Audio.volume(what, 1)\n\
         end\n",
    );
    p.run(1);
    assert_eq!(
        p.warnings,
        [
            "assets/scripts/bad.lua:4 (in update): Audio.volume: \"loud\" is not a volume (master, music or sound)"
        ],
    );
}

#[cfg_attr(test, test)]
fn audio_calls_are_checked_at_the_call_and_queued_in_order() {
    let mut p = Probe::new(
        "function update(e)\n\
           Audio.music('title.wav', {loop = true, volume = 0.5, bpm = 84})\n\
           Audio.play('place.wav', {pitch = 2, pan = -1})\n\
           Audio.play('place.wav')\n\
           Audio.volume('music', 0.25)\n\
           Audio.pause_music()\n\
           Audio.resume_music()\n\
           Audio.stop_music({fade = 1})\n\
           Log.info(select(2, pcall(Audio.play, '../x.wav')))\n\
           local c = Audio.clock()\n\
           Log.info(tostring(c.playing) .. ' ' .. c.position)\n\
           Audio.play('x.wav', {volume = 3})\n\
           Audio.play('x.wav', {colour = 1})\n\
           Audio.volume('loud', 1)\n\
         end\n",
    );
    p.run(1);
    assert!(
        p.infos[0].contains("Audio.play: argument 1 (name) must be a name inside its folder"),
        "{}",
        p.infos[0]
    );
    assert_eq!(p.infos[1], "assets/scripts/bad.lua:11: false 0.0");
    let queue = p.world.resources.get::<crate::audio::AudioQueue>().unwrap();
    use crate::audio::{AudioRequest as R, MusicOptions, SoundOptions, VolumeKind};
    assert_eq!(
        queue.0,
        [
            R::Music {
                name: "title.wav".into(),
                options: MusicOptions {
                    looped: true,
                    volume: 0.5,
                    fade: 0.0,
                    bpm: Some(84.0)
                }
            },
            R::Play {
                name: "place.wav".into(),
                options: SoundOptions {
                    volume: 1.0,
                    pitch: 2.0,
                    pan: -1.0
                }
            },
            R::Play {
                name: "place.wav".into(),
                options: SoundOptions::default()
            },
            R::Volume {
                kind: VolumeKind::Music,
                value: 0.25
            },
            R::PauseMusic,
            R::ResumeMusic,
            R::StopMusic { fade: 1.0 },
        ]
    );
    let bad: Vec<&String> = p
        .warnings
        .iter()
        .filter(|w| w.starts_with("assets/scripts/bad.lua (in update; the call is on line "))
        .collect();
    assert_eq!(bad.len(), 3, "{:#?}", p.warnings);
    // A refusal names the lines the script calls that command on: found from the source
    // only when a call is refused.
    assert!(
        bad[0].contains("line 3, 4, 12 or 13): Audio.play: "),
        "{}",
        bad[0]
    );
    assert!(
        bad[2].contains("line 5 or 14): Audio.volume: "),
        "{}",
        bad[2]
    );
    assert!(
        bad[0].contains("volume must be between 0 and 1, got 3"),
        "{}",
        bad[0]
    );
    assert!(bad[1].contains("unknown field `colour`"), "{}", bad[1]);
    assert!(bad[2].contains("\"loud\" is not a volume"), "{}", bad[2]);
}

#[cfg_attr(test, test)]
fn game_args_are_a_fresh_copy_a_script_cannot_spoil_for_others() {
    let mut p = Probe::with(
        "function update(e)\n\
           local a = Game.args()\n\
           a[1] = 'spoiled' a[3] = 'extra' table.remove(a, 2)\n\
           Log.info(tostring(Game.args() == Game.args()) .. ' ' .. #Game.args())\n\
           Log.info(select(2, pcall(function() Game.args = function() return {'fake'} end end)))\n\
         end\n",
        "function update(e) Log.info(table.concat(Game.args(), '|')) end\n",
        limits(),
    );
    p.world.resources.insert(crate::Launch {
        args: vec!["--gift".into(), "abc".into()],
        ..crate::Launch::default()
    });
    p.run(2);
    assert_eq!(
        p.infos,
        [
            "assets/scripts/bad.lua:4: false 2",
            "assets/scripts/bad.lua:5: assets/scripts/bad.lua:5: Game is read-only: a script cannot change Game.args",
            "assets/scripts/good.lua:1: --gift|abc",
            "assets/scripts/bad.lua:4: false 2",
            "assets/scripts/bad.lua:5: assets/scripts/bad.lua:5: Game is read-only: a script cannot change Game.args",
            "assets/scripts/good.lua:1: --gift|abc",
        ],
        "{:#?}",
        p.warnings
    );
    // With no Launch (a host run outside the runtime) the list is empty, not an error.
    p.world.resources.remove::<crate::Launch>();
    p.infos.clear();
    p.run(1);
    assert_eq!(p.infos[2], "assets/scripts/good.lua:1: ");
}

#[cfg_attr(test, test)]
fn text_reaches_every_started_script_byte_for_byte() {
    let show = "function text(e, t)\n\
                  local bytes = {}\n\
                  for i = 1, math.min(#t, 8) do bytes[#bytes + 1] = t:byte(i) end\n\
                  Log.info(#t .. ' ' .. table.concat(bytes, ','))\n\
                end\n";
    let mut p = Probe::with(show, show, limits());
    // Not started yet: nothing is called.
    p.host.text(&mut p.world, "early");
    p.run(1);
    p.infos.clear();
    p.host.text(&mut p.world, "a\0b\u{7}\r\n猫");
    p.host.text(&mut p.world, "");
    p.run(1);
    assert_eq!(
        p.infos,
        [
            "assets/scripts/bad.lua:4: 9 97,0,98,7,13,10,231,140",
            "assets/scripts/good.lua:4: 9 97,0,98,7,13,10,231,140",
            "assets/scripts/bad.lua:4: 0 ",
            "assets/scripts/good.lua:4: 0 ",
        ]
    );
    assert!(p.warnings.is_empty(), "{:#?}", p.warnings);
}

#[cfg_attr(test, test)]
fn clipboard_copies_are_capped_and_counted_like_any_command() {
    let roomy = Limits {
        memory: 64 << 20,
        ..limits()
    };
    let mut p = Probe::with(
        "function update(e)\n\
           Clipboard.copy(string.rep('x', 1024 * 1024))\n\
           Log.info(select(2, pcall(Clipboard.copy, string.rep('x', 1024 * 1024 + 1))))\n\
           Log.info(select(2, pcall(Clipboard.copy, {})))\n\
           Clipboard.copy('last')\n\
         end\n",
        GOOD,
        roomy,
    );
    p.run(1);
    assert_eq!(
        p.infos,
        [
            "assets/scripts/bad.lua:3: Clipboard.copy: argument 1 (text) is a string of 1048577 bytes; it may be at most 1048576",
            "assets/scripts/bad.lua:4: Clipboard.copy: argument 1 (text) must be a string, got table",
        ]
    );
    assert_eq!(
        p.world.resources.get::<crate::core::ClipboardCopy>(),
        Some(&crate::core::ClipboardCopy("last".into()))
    );

    let mut p =
        Probe::new("function update(e)\n  for i = 1, 10001 do Clipboard.copy('x' .. i) end\nend\n");
    p.run(2);
    p.stopped(
        "update",
        "stopped: the callback queued more than 10000 commands",
    );
    assert!(!p.world.resources.contains::<crate::core::ClipboardCopy>());
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn an_unknown_key_gives_nil_and_says_so_once_with_the_closest() {
    let bad = "function update(e)\n\
        local t = Entity.get(Entity.find('good'), 'taly')\n\
        Log.info('typo gives ' .. tostring(t))\n\
      end\n";
    let good = "function update(e)\n\
        Log.info('good sees ' .. Entity.get(e, 'tally').count)\n\
        Log.info('bad has ' .. tostring(Entity.get(Entity.find('bad'), 'tally')))\n\
      end\n";
    // The bad entity has no tally: a known bag it lacks is nil without a word.
    let mut p = Probe::with(bad, good, limits());
    let good_entity = p.good;
    p.world
        .entities
        .insert_one(
            good_entity,
            Tally {
                count: 3,
                cells: vec![],
            },
        )
        .unwrap();
    p.host.publish_bags(&p.registry, &p.world).unwrap();
    p.run(3);
    assert_eq!(
        p.infos
            .iter()
            .filter(|i| i.ends_with("typo gives nil"))
            .count(),
        3,
        "{:#?}",
        p.infos
    );
    let said: Vec<&String> = p
        .warnings
        .iter()
        .filter(|w| w.contains("no component or bag is called \"taly\""))
        .collect();
    assert_eq!(said.len(), 1, "once, not every frame: {:#?}", p.warnings);
    assert_eq!(p.warnings.len(), 1, "{:#?}", p.warnings);
    assert!(
        p.infos.iter().any(|i| i.ends_with("bad has nil")),
        "{:#?}",
        p.infos
    );
    assert!(said[0].ends_with("did you mean \"tally\"?"), "{}", said[0]);
}

crate::selftest::list_cases![
    load_with_a_reader_function_cannot_swallow_the_stop,
    a_loop_inside_a_string_load_is_stopped,
    the_stop_cannot_be_caught_anywhere,
    pattern_functions_run_under_the_same_budget,
    finalizers_cannot_be_installed,
    a_memory_error_ends_the_callback_even_under_pcall,
    a_missing_api_name_is_an_error_at_the_line_and_the_table_behind_stays_hidden,
    a_refused_command_called_on_one_line_names_that_line,
    a_memory_bomb_in_update_is_switched_off_and_said_once,
    a_table_bomb_is_stopped_at_the_memory_limit,
    an_endless_loop_inside_a_coroutine_is_stopped,
    deep_recursion_is_an_error_the_host_survives,
    a_loop_that_never_reaches_the_hook_hits_the_wall_clock,
    huge_strings_for_the_host_are_refused_and_the_process_lives,
    a_save_value_over_the_cap_is_refused_with_the_call,
    a_distinct_error_every_frame_keeps_the_log_bounded,
    scripts_cannot_change_what_other_scripts_see,
    a_bag_spoiled_by_one_script_is_whole_for_the_next,
    a_global_set_by_one_script_is_not_seen_by_another,
    commands_queued_by_a_stopped_callback_are_discarded,
    a_callback_may_queue_a_bounded_number_of_commands,
    integer_parameters_check_their_range_at_the_call,
    the_usual_escapes_are_closed,
    print_and_log_name_the_script_line,
    a_runtime_error_names_file_line_and_callback_and_runs_again,
    script_errors_are_typed,
    stop_runs_when_the_scene_ends_and_its_commands_are_dropped,
    data_tables_are_copies_a_script_cannot_spoil_for_others,
    asset_names_from_scripts_cannot_leave_their_folder,
    a_script_imports_a_module_of_its_own,
    a_loop_in_an_imported_module_is_stopped_like_any_other,
    audio_calls_are_checked_at_the_call_and_queued_in_order,
    game_args_are_a_fresh_copy_a_script_cannot_spoil_for_others,
    text_reaches_every_started_script_byte_for_byte,
    clipboard_copies_are_capped_and_counted_like_any_command,
    an_unknown_key_gives_nil_and_says_so_once_with_the_closest,
];
