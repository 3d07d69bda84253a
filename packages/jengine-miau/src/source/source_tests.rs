//! Pack scripts against every limit: endless loops, memory bombs, huge output, deep data and
//! recursion, forged results, refused imports, and the bounded built-ins.
//!
//! Each test is a plain function marked `#[cfg_attr(test, test)]`: natively `cargo test` runs
//! them, and with the `selftest` feature [`crate::selftest::cases`] hands them out, so the
//! wasm build runs the very same tests (`cargo test -p jengine-web-selftest`, beside the
//! seam's sandbox suite). The list at the end names every one of them.

use super::*;
use std::time::Duration;

const HELLO: &str = r#"module.exports = {
 manifest: { id: 'hello-miau', name: 'Hello Miau', version: '1.0.0' },
 palette: { MIAU: '🐈', FLAG: '🚩' },
 levels: [{
 id: 'intro',
 width: 5,
 height: 3,
 objects: [
 { kind: 'word', text: 'MIAU', x: 0, y: 0 },
 { kind: 'word', text: 'IS', x: 1, y: 0 },
 { kind: 'word', text: 'YOU', x: 2, y: 0 },
 { kind: 'object', noun: 'MIAU', x: 0, y: 1 },
 ],
 }],
};
"#;

#[cfg_attr(test, test)]
fn the_smallest_commonjs_pack_loads() {
    let checked = load(HELLO, SourceKind::CommonJs, "hello.cjs").expect("loads");
    assert_eq!(checked.pack.manifest.name, "Hello Miau");
    assert_eq!(checked.pack.levels[0].objects.len(), 4);
}

#[cfg_attr(test, test)]
fn the_engine_helpers_build_ordinary_records() {
    let src = r#"const { word, object, level } = require('@miau/engine');
module.exports = {
  manifest: { id: 'helper-demo', name: 'Helper Demo', version: '1.0.0' },
  levels: [level(4, 2, [word('CAT', 0, 0), word('IS', 1, 0), word('YOU', 2, 0), object('CAT', 0, 1)],
{ id: 'first-step', title: 'First step' })],
};"#;
    let checked = load(src, SourceKind::CommonJs, "helper.cjs").expect("loads");
    assert_eq!(checked.pack.levels[0].id, "first-step");
    assert_eq!(checked.pack.levels[0].title.as_deref(), Some("First step"));
}

#[cfg_attr(test, test)]
fn any_other_require_is_named() {
    let err =
        load("const fs = require('fs');", SourceKind::CommonJs, "x.cjs").expect_err("refused");
    assert_eq!(err, PackError::UnsupportedImport("fs".into()));
    let err = load(
        "local x = require('socket')\nreturn {}",
        SourceKind::Lua,
        "x.lua",
    )
    .expect_err("refused");
    assert_eq!(err, PackError::UnsupportedImport("socket".into()));
}

#[cfg_attr(test, test)]
fn the_sandbox_has_no_host_globals() {
    // The probe throws if it can see any host object; otherwise its data is simply not a pack.
    let probe = "if (typeof process !== 'undefined' || typeof console !== 'undefined' || typeof fetch !== 'undefined') throw new Error('host'); module.exports = 1;";
    assert!(matches!(
        load(probe, SourceKind::CommonJs, "x.cjs"),
        Err(PackError::Invalid(_))
    ));
}

const TIGHT: ScriptLimits = ScriptLimits {
    memory: 8 << 20,
    time: Duration::from_millis(200),
};

/// The memory of [`TIGHT`] with time to spare, for tests of what is not the clock.
const ROOMY: ScriptLimits = ScriptLimits {
    memory: 8 << 20,
    time: Duration::from_secs(20),
};

#[cfg_attr(test, test)]
fn a_runaway_commonjs_loop_is_stopped() {
    let err =
        load_with("while (true) {}", SourceKind::CommonJs, "loop.cjs", TIGHT).expect_err("stopped");
    assert!(err.to_string().contains("longer"), "{err}");
}

#[cfg_attr(test, test)]
fn a_runaway_lua_loop_is_stopped() {
    let err =
        load_with("while true do end", SourceKind::Lua, "loop.lua", TIGHT).expect_err("stopped");
    assert!(err.to_string().contains("longer"), "{err}");
}

#[cfg_attr(test, test)]
fn a_caught_import_then_a_loop_is_reported_as_the_loop() {
    let js = "try { require('fs') } catch (e) {} while (true) {}";
    let err = load_with(js, SourceKind::CommonJs, "loop.cjs", TIGHT).expect_err("stopped");
    assert!(
        matches!(&err, PackError::Script(m) if m.contains("longer")),
        "{err}"
    );
    let lua = "pcall(require, 'io') while true do end";
    let err = load_with(lua, SourceKind::Lua, "loop.lua", TIGHT).expect_err("stopped");
    assert!(
        matches!(&err, PackError::Script(m) if m.contains("longer")),
        "{err}"
    );
}

#[cfg_attr(test, test)]
fn a_huge_module_name_is_cut_short() {
    let js = "String.prototype.substring = function () { return this + this; };\nrequire('m'.repeat(1 << 20));";
    match load(js, SourceKind::CommonJs, "huge.cjs") {
        Err(PackError::UnsupportedImport(n)) => assert_eq!(n.len(), MAX_IMPORT_NAME),
        other => panic!("{other:?}"),
    }
    let lua = "require(string.rep('m', 1 << 20))";
    match load(lua, SourceKind::Lua, "huge.lua") {
        Err(PackError::UnsupportedImport(n)) => assert_eq!(n.len(), MAX_IMPORT_NAME),
        other => panic!("{other:?}"),
    }
}

#[cfg_attr(test, test)]
fn a_pack_cannot_forge_a_refused_import() {
    let js = "globalThis.__miauImport = 'net'; throw new Error(\"unsupported import 'net'\");";
    let err = load(js, SourceKind::CommonJs, "forge.cjs").expect_err("fails");
    assert!(matches!(err, PackError::Script(_)), "{err:?}");
    let lua = "error(\"unsupported import 'net'\")";
    let err = load(lua, SourceKind::Lua, "forge.lua").expect_err("fails");
    assert!(matches!(err, PackError::Script(_)), "{err:?}");
}

#[cfg_attr(test, test)]
fn replacing_the_serializer_changes_nothing() {
    let js = format!(
        "JSON.stringify = function () {{ return 'x'.repeat(1 << 27); }}; String = null; Error = null;\n{HELLO}"
    );
    let checked = load(&js, SourceKind::CommonJs, "tamper.cjs").expect("loads");
    assert_eq!(checked.pack.manifest.id, "hello-miau");
}

#[cfg_attr(test, test)]
fn exported_data_over_the_cap_is_refused_before_parsing() {
    // 40 MiB of JSON in a 64 KiB script.
    let js = "module.exports = { manifest: {}, pad: 'x'.repeat(40 << 20) };";
    let roomy = ScriptLimits {
        memory: 256 << 20,
        time: Duration::from_secs(5),
    };
    let err = load_with(js, SourceKind::CommonJs, "big.cjs", roomy).expect_err("refused");
    assert!(
        matches!(&err, PackError::Script(m) if m.contains("over the limit")),
        "{err}"
    );
}

#[cfg_attr(test, test)]
fn a_lua_memory_bomb_is_stopped() {
    let bomb = "local t = {} while true do t[#t + 1] = string.rep('x', 1000) end";
    // The memory cap is what is tested: the clock gets room a busy machine needs (filling
    // 8 MiB through Lua's collector takes most of 200 ms in a debug build).
    let err = load_with(bomb, SourceKind::Lua, "mem.lua", ROOMY).expect_err("stopped");
    assert!(err.to_string().contains("memory"), "{err}");
}

#[cfg_attr(test, test)]
fn a_commonjs_memory_bomb_is_stopped() {
    let bomb = "const a = []; for (;;) a.push('x'.repeat(1000) + a.length);";
    let err = load_with(bomb, SourceKind::CommonJs, "mem.cjs", ROOMY).expect_err("stopped");
    assert!(
        matches!(&err, PackError::Script(m) if !m.contains("longer")),
        "{err}"
    );
}

#[cfg_attr(test, test)]
fn cyclic_data_is_an_error_not_a_crash() {
    let lua = "local t = { manifest = {} } t.manifest.loop = t return t";
    assert!(matches!(
        load(lua, SourceKind::Lua, "cycle.lua"),
        Err(PackError::Script(_))
    ));
    let js = "const t = { manifest: {} }; t.manifest.loop = t; module.exports = t;";
    assert!(matches!(
        load(js, SourceKind::CommonJs, "cycle.cjs"),
        Err(PackError::Script(_))
    ));
}

#[cfg_attr(test, test)]
fn deeply_nested_data_is_an_error_not_a_crash() {
    let lua = "local t = {} for i = 1, 200000 do t = { t } end return { manifest = t }";
    assert!(load(lua, SourceKind::Lua, "deep.lua").is_err());
    let js =
        "let t = {}; for (let i = 0; i < 200000; i++) t = [t]; module.exports = { manifest: t };";
    assert!(load(js, SourceKind::CommonJs, "deep.cjs").is_err());
}

/// Recursion with no end stops at QuickJS's stack limit, well inside the machine's (or the
/// wasm module's) own stack, as an error the pack is refused with.
#[cfg_attr(test, test)]
fn endless_javascript_recursion_is_an_error_not_a_crash() {
    for js in [
        "function f(n) { return f(n + 1) + 1; } f(0);",
        "const o = { get x() { return this.x; } }; o.x;",
        "JSON.parse('['.repeat(1 << 20));",
    ] {
        let err = load_with(js, SourceKind::CommonJs, "deep.cjs", ROOMY).expect_err("refused");
        assert!(
            matches!(&err, PackError::Script(m) if !m.contains("longer")),
            "{js}: {err}"
        );
    }
}

#[cfg_attr(test, test)]
fn syntax_errors_are_reported() {
    assert!(matches!(
        load("module.exports = {", SourceKind::CommonJs, "x.cjs"),
        Err(PackError::Syntax(_))
    ));
    assert!(matches!(
        load("return {", SourceKind::Lua, "x.lua"),
        Err(PackError::Syntax(_))
    ));
    assert!(matches!(
        load("{", SourceKind::Json, "x.json"),
        Err(PackError::Syntax(_))
    ));
}

#[cfg_attr(test, test)]
fn lua_packs_use_the_same_contract() {
    let src = r#"local m = require('@miau/engine')
return {
  manifest = { id = 'lua-pack', name = 'Lua Pack', version = '1.0.0' },
  levels = { m.level(4, 2, { m.word('CAT', 0, 0), m.word('IS', 1, 0), m.word('YOU', 2, 0), m.object('CAT', 0, 1) },
{ id = 'first' }) },
}"#;
    let checked = load(src, SourceKind::Lua, "p.lua").expect("loads");
    assert_eq!(checked.pack.levels[0].objects[3].text, "CAT");
    let no_io = "return { io = io == nil, os = os == nil, load = load == nil }";
    assert!(matches!(
        load(no_io, SourceKind::Lua, "p.lua"),
        Err(PackError::Invalid(_))
    ));
}

/// Runs `body` as a CommonJS pack with the default limits and returns its error text.
fn refused_js(body: &str) -> String {
    let js = format!("{body}\nmodule.exports = 1;");
    match load(&js, SourceKind::CommonJs, "bounded.cjs") {
        Err(PackError::Script(m)) => m,
        other => panic!("{body}: {other:?}"),
    }
}

/// The C built-ins that walk a pack-chosen length or size are refused before they start,
/// with a RangeError naming the built-in (not stopped by the clock, which they never see).
#[cfg_attr(test, test)]
fn unbounded_javascript_builtins_are_refused_up_front() {
    for (body, builtin) in [
        ("new Array(2**32-1).join('')", "Array.prototype.join"),
        ("String(new Array(2**32-1))", "Array.prototype.join"),
        (
            "new Array(2**32-1).toLocaleString()",
            "Array.prototype.toLocaleString",
        ),
        ("'ab'.repeat(2**29)", "String.prototype.repeat"),
        ("''.padStart(2**30, 'ab')", "String.prototype.padStart"),
        ("'x'.padEnd(2**30)", "String.prototype.padEnd"),
        ("new Array(2**32-1).fill(0)", "Array.prototype.fill"),
        ("Array(2**32-1).fill(0, 1)", "Array.prototype.fill"),
        ("new ArrayBuffer(2**31)", "new ArrayBuffer"),
        (
            "new ArrayBuffer(8, { maxByteLength: 2**40 })",
            "new ArrayBuffer",
        ),
        ("new Float64Array(2**28)", "new Float64Array"),
        ("new Uint8Array({ length: 2**27 })", "new Uint8Array"),
        ("new Uint8Array(new Array(2**32-1))", "new Uint8Array"),
        (
            "new (Uint8Array.prototype.constructor)({ length: 2**27 })",
            "new Uint8Array",
        ),
        ("Uint8Array.from({ length: 2**27 })", "TypedArray.from"),
        (
            "new Uint8Array(2**26).set({ length: 2**26 })",
            "TypedArray.prototype.set",
        ),
        (
            "new Uint8Array(2**26).join(',')",
            "TypedArray.prototype.join",
        ),
        ("new Array(2**32-1).sort()", "Array.prototype.sort"),
        ("new Array(2**32-1).reverse()", "Array.prototype.reverse"),
        ("new Array(2**32-1).slice()", "Array.prototype.slice"),
        ("new Array(2**32-1).shift()", "Array.prototype.shift"),
        ("[].concat(new Array(2**32-1))", "Array.prototype.concat"),
        ("[new Array(2**32-1)].flat()", "Array.prototype.flat"),
        (
            "[0].flatMap(() => new Array(2**32-1))",
            "Array.prototype.flatMap",
        ),
        ("Array.from({ length: 2**32-1 })", "Array.from"),
        ("JSON.stringify(new Array(2**32-1))", "JSON.stringify"),
        (
            "JSON.stringify({ a: [new Array(2**32-1)] }, ['a'])",
            "JSON.stringify",
        ),
        ("String.raw({ raw: { length: 2**32-1 } })", "String.raw"),
        ("[...new Array(2**32-1)]", "Array.prototype.values"),
        ("new Set(new Array(2**32-1))", "new Set"),
        (
            "new Set(new Uint8Array(2**26))",
            "TypedArray.prototype.values",
        ),
        (
            "Object.fromEntries(new Array(2**32-1).entries())",
            "Array.prototype.entries",
        ),
        ("Promise.all(new Array(2**32-1))", "Promise.all"),
        (
            "new Set('a'.repeat(2**25))",
            "String.prototype[Symbol.iterator]",
        ),
    ] {
        let message = refused_js(body);
        assert!(
            message.contains("RangeError") && message.contains(builtin),
            "{body}: {message}"
        );
    }
}

#[cfg_attr(test, test)]
fn the_bounded_builtins_still_do_their_jobs() {
    let js = r#"
const same = (a, b, what) => { if (a !== b) throw new Error(what + ': ' + a + ' !== ' + b); };
same([1, null, undefined, 'x', [2, 3]].join('-'), '1---x-2,3', 'join');
same(String([1, [2, 3]]), '1,2,3', 'toString');
same([1, 2].toLocaleString(), '1,2', 'toLocaleString');
same(new Uint8Array([1, 2, 3]).join(), '1,2,3', 'typed join');
same('ab'.repeat(3), 'ababab', 'repeat');
same('7'.padStart(3, '0') + '7'.padEnd(3), '0077  ', 'pad');
same(new Array(3).fill(1).join(''), '111', 'fill');
same([1, 2, 3, 4].fill(0, 1, -1).join(''), '1004', 'fill range');
same([10, 9, 1, undefined].sort().join(), '1,10,9,', 'sort');
same(Array.from(new Float64Array([3, NaN, -0, 0, 1]).sort()).map(x => Object.is(x, -0) ? '-0' : String(x)).join(), '-0,0,1,3,NaN', 'typed sort');
same([[1, [2]], 3].flat().length, 3, 'flat');
same([1, 2].flatMap(x => [x, x * 10]).join(), '1,10,2,20', 'flatMap');
same([1].concat([2, 3], 4).join(), '1,2,3,4', 'concat');
same(Uint8Array.from([1, 2], x => x * 2).join(), '2,4', 'from');
const t = new Uint8Array(4); t.set([7, 8], 1); same(t.join(''), '0780', 'set');
same(new Uint16Array(new Set([5, 6])).join(), '5,6', 'from an iterable');
same(new Uint8Array(new ArrayBuffer(4), 1, 2).length, 2, 'a view');
same(t instanceof Uint8Array && t.constructor === Uint8Array, true, 'instanceof');
class Bytes extends Uint8Array {}
same(new Bytes(2) instanceof Bytes, true, 'a subclass');
same(t.slice(1, 3).join(), '7,8', 'species');
same(JSON.stringify({ b: [1, { c: 2, d: 3 }], a: 'x' }, ['a', 'b', 'c']), '{"a":"x","b":[1,{"c":2}]}', 'stringify keys');
same(JSON.stringify({ a: 1 }, (k, v) => (k === 'a' ? v + 1 : v)), '{"a":2}', 'stringify replacer');
same(String.raw`a${1}b${2}c`, 'a1b2c', 'raw');
same([...new Set([1, 1, 2])].join(), '1,2', 'a set');
same(new Map([[1, 'a']]).get(1), 'a', 'a map');
same(Object.fromEntries([['k', 1]]).k, 1, 'fromEntries');
same(new Set([1, 2]).union({ size: 1, has: () => true, keys: () => [3].values() }).size, 3, 'union');
same([1, 2, 3].values().reduce((a, b) => a + b), 6, 'reduce');
same([1, 2, 3].values().some(x => x > 2) && [1, 2].values().every(x => x > 0), true, 'some and every');
same([5, 6].values().find(x => x > 5) + [7].values().toArray()[0], 13, 'find and toArray');
let seen = 0; [1, 2].values().forEach(x => { seen += x; }); same(seen, 3, 'forEach');
same(Array.from('ab').join() + Array.from(new Set([3]))[0], 'a,b3', 'from iterables');
"#;
    let err = load(js, SourceKind::CommonJs, "jobs.cjs").expect_err("not a pack");
    assert!(matches!(err, PackError::Invalid(_)), "{err}");
}

/// A C built-in that drains an iterator would call the pack's `next` with no check; the
/// bounded ones read it in a loop the time cap sees.
#[cfg_attr(test, test)]
fn endless_iterators_fed_to_builtins_are_stopped_by_the_clock() {
    let endless =
        "{ [Symbol.iterator]() { return { next() { return { done: false, value: [1, 1] } } } } }";
    let stepper = "{ next() { return { done: false, value: 1 } }, __proto__: Iterator.prototype }";
    for body in [
        format!("new Set({endless})"),
        format!("new Map({endless})"),
        format!("Object.fromEntries({endless})"),
        format!("Array.from({endless})"),
        format!("new Uint8Array({endless})"),
        format!("new Set().union({{ size: 1, has() {{}}, keys() {{ return {stepper} }} }})"),
        format!("({stepper}).forEach(() => {{}})"),
        format!("({stepper}).some(() => false)"),
        format!("({stepper}).includes(2)"),
    ] {
        let js = format!("{body}\nmodule.exports = 1;");
        let err = load_with(&js, SourceKind::CommonJs, "endless.cjs", TIGHT).expect_err("stopped");
        // Stopped either way: by the clock, by a bound, or (on a busy machine, where the
        // garbage of a million `next` results outruns the collector) by the memory limit.
        assert!(
            matches!(&err, PackError::Script(m) if m.contains("longer")
                || m.contains("RangeError")
                || m.contains("memory limit")),
            "{body}: {err}"
        );
    }
}

/// Single C calls of the Lua library that used to run for ever: each spends from the pack's
/// budget and is stopped as running too long.
#[cfg_attr(test, test)]
fn lua_library_calls_that_never_returned_are_stopped() {
    for call in [
        "string.rep('', 1 << 62)",
        "table.move({}, 1, 1 << 40, 1, {})",
        "string.find(string.rep('a', 30000), '.-.-.-b')",
    ] {
        let lua = format!("pcall(function() return {call} end)\nreturn {{}}");
        let err = load_with(&lua, SourceKind::Lua, "bad.lua", TIGHT).expect_err("stopped");
        assert!(
            matches!(&err, PackError::Script(m) if m.contains("longer")),
            "{call}: {err}"
        );
    }
}

#[cfg_attr(test, test)]
fn the_hardened_lua_library_still_works_for_packs() {
    let src = r#"local rows = {}
for i = 1, 3 do rows[#rows + 1] = string.rep('ab', 2, '-') end
local t = table.move({ 1, 2, 3 }, 1, 3, 2, {})
return {
  manifest = { id = 'lua-ok', name = table.concat(rows, ' '), version = '1.0.0' },
  levels = {{ id = string.format('l%d', #t), width = 3, height = 1, objects = {
{ kind = 'word', text = ('cat'):upper(), x = 0, y = 0 },
{ kind = 'word', text = string.match('IS!', '%a+'), x = 1, y = 0 },
{ kind = 'word', text = utf8.char(89, 79, 85), x = 2, y = 0 },
  } }},
}"#;
    let checked = load(src, SourceKind::Lua, "ok.lua").expect("loads");
    assert_eq!(checked.pack.manifest.name, "ab-ab ab-ab ab-ab");
    assert_eq!(checked.pack.levels[0].id, "l4");
    assert_eq!(checked.pack.levels[0].objects[2].text, "YOU");
}

/// A `length` that answers small when measured and huge when walked is not handed to a C
/// built-in that reads it again.
#[cfg_attr(test, test)]
fn a_length_that_changes_between_the_measure_and_the_walk_is_refused() {
    let liar = "let n = 0; const liar = { get length() { return n++ ? 2**32-1 : 0 } };";
    let proxy = "let m = 0; const proxy = new Proxy([], { get: (t, k) => k === 'length' ? (m++ ? 2**32-1 : 0) : t[k] });";
    for (body, builtin) in [
        (
            "Array.prototype.reverse.call(liar)",
            "Array.prototype.reverse",
        ),
        (
            "Array.prototype.slice.call(Object.create(liar))",
            "Array.prototype.slice",
        ),
        (
            "Array.prototype.reverse.call(proxy)",
            "Array.prototype.reverse",
        ),
        ("[].concat(proxy)", "Array.prototype.concat"),
        ("[proxy].flat()", "Array.prototype.flat"),
        ("JSON.stringify(proxy)", "JSON.stringify"),
    ] {
        let message = refused_js(&format!("{liar} {proxy} {body}"));
        assert!(
            message.contains("TypeError") && message.contains(builtin),
            "{body}: {message}"
        );
    }
    let js = "const a = Array.from({ get length() { return 2 }, 0: 'x', 1: 'y' });\n\
              if (a.join('') !== 'xy') throw new Error(a.join(''));\n\
              if (Array.prototype.slice.call(new Uint8Array([1, 2])).join() !== '1,2') throw new Error('typed');\n\
              module.exports = 1;";
    let err = load(js, SourceKind::CommonJs, "steady.cjs").expect_err("not a pack");
    assert!(matches!(err, PackError::Invalid(_)), "{err}");
}

#[cfg_attr(test, test)]
fn tampering_with_the_helpers_leaves_the_bounds_in_place() {
    let body = "Object.defineProperty(Array.prototype, '0', { set() {} });\
                Object.prototype.get = function () {};\
                Reflect.apply = () => ''; Object.defineProperty = () => {}; String = () => '';\
                Array.isArray = () => false; Number = () => 0; Math.floor = () => 0;\
                new Array(2**32-1).join('')";
    let message = refused_js(body);
    assert!(message.contains("Array.prototype.join"), "{message}");
}

#[cfg_attr(test, test)]
fn a_raised_cancel_stops_a_script_at_its_next_check() {
    let forever = ScriptLimits {
        memory: 8 << 20,
        time: Duration::from_secs(3600),
    };
    for (text, kind) in [
        ("while (true) {}", SourceKind::CommonJs),
        ("while true do end", SourceKind::Lua),
    ] {
        let cancel = Cancel::new();
        cancel.cancel();
        let err = load_cancellable(text, kind, "stopped", forever, &cancel).expect_err("stops");
        assert!(err.to_string().contains("longer"), "{err}");
    }
}

#[cfg_attr(test, test)]
fn a_background_load_reports_its_result_and_a_runaway_its_time() {
    let loading = load_in_background(
        HELLO.into(),
        SourceKind::CommonJs,
        "hello.cjs".into(),
        ScriptLimits::default(),
    );
    let checked = loading.wait().expect("loads");
    assert_eq!(checked.pack.manifest.id, "hello-miau");
    let runaway = load_in_background(
        "while (true) {}".into(),
        SourceKind::CommonJs,
        "loop.cjs".into(),
        TIGHT,
    );
    let result = loop {
        if let Some(result) = runaway.poll() {
            break result;
        }
        std::thread::yield_now();
    };
    let err = result.expect_err("stopped");
    assert!(err.to_string().contains("longer"), "{err}");
}

#[cfg_attr(test, test)]
fn oversized_sources_are_refused() {
    let big = " ".repeat(MAX_SOURCE_BYTES + 1);
    assert!(matches!(
        load(&big, SourceKind::Json, "big.json"),
        Err(PackError::TooLarge { .. })
    ));
}

crate::selftest::list_cases!(
    the_smallest_commonjs_pack_loads,
    the_engine_helpers_build_ordinary_records,
    any_other_require_is_named,
    the_sandbox_has_no_host_globals,
    a_runaway_commonjs_loop_is_stopped,
    a_runaway_lua_loop_is_stopped,
    a_caught_import_then_a_loop_is_reported_as_the_loop,
    a_huge_module_name_is_cut_short,
    a_pack_cannot_forge_a_refused_import,
    replacing_the_serializer_changes_nothing,
    exported_data_over_the_cap_is_refused_before_parsing,
    a_lua_memory_bomb_is_stopped,
    a_commonjs_memory_bomb_is_stopped,
    cyclic_data_is_an_error_not_a_crash,
    deeply_nested_data_is_an_error_not_a_crash,
    endless_javascript_recursion_is_an_error_not_a_crash,
    syntax_errors_are_reported,
    lua_packs_use_the_same_contract,
    unbounded_javascript_builtins_are_refused_up_front,
    the_bounded_builtins_still_do_their_jobs,
    endless_iterators_fed_to_builtins_are_stopped_by_the_clock,
    lua_library_calls_that_never_returned_are_stopped,
    the_hardened_lua_library_still_works_for_packs,
    a_length_that_changes_between_the_measure_and_the_walk_is_refused,
    tampering_with_the_helpers_leaves_the_bounds_in_place,
    a_raised_cancel_stops_a_script_at_its_next_check,
    a_background_load_reports_its_result_and_a_runaway_its_time,
    oversized_sources_are_refused,
);
