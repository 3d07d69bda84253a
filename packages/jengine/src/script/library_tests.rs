//! Single C calls that used to run for ever: each must now end inside the callback's budget,
//! with the script's line, while the good script beside it runs every frame.

use super::probe::*;

const STOPPED: &str = "stopped: the script ran 2000000 instructions";

/// `code` runs in `update` under `pcall` (which cannot catch a stop); the callback must be
/// stopped for its instructions at line 2, and the good script must run all three frames.
fn stops(code: &str) {
    let mut p = Probe::new(&format!(
        "function update(e)\n  pcall(function() {code} end)\nend\n"
    ));
    p.run(3);
    let w = p.stopped("update", STOPPED);
    assert!(w.starts_with("assets/scripts/bad.lua:2:"), "{code}: {w}");
    p.good_ran(3);
}

/// `code` runs once in `start`; its `Log.info` lines are returned, and nothing may stop it.
fn says(code: &str) -> Vec<String> {
    let mut p = Probe::new(&format!("function start(e)\n{code}\nend\n"));
    p.run(2);
    assert!(
        p.warnings.iter().all(|w| !w.contains("bad.lua")),
        "{code}: {:#?}",
        p.warnings
    );
    p.good_ran(2);
    p.infos.iter().map(|l| said(l).to_string()).collect()
}

#[cfg_attr(test, test)]
fn string_rep_of_nothing_a_quintillion_times_is_stopped() {
    stops("string.rep('', 1 << 62)");
    stops("string.rep('', 1 << 62, '')");
    stops("('x'):rep(0):rep(1 << 40)");
}

#[cfg_attr(test, test)]
fn string_rep_past_the_memory_limit_is_an_out_of_memory_stop() {
    let mut p = Probe::new("function update(e)\n  pcall(string.rep, 'ab', 1 << 27)\nend\n");
    p.run(2);
    p.stopped("update", "stopped: the script ran out of memory");
    p.good_ran(2);
}

#[cfg_attr(test, test)]
fn string_rep_still_repeats_and_checks_its_arguments() {
    let said = says(
        "Log.info(string.rep('ab', 3, ','))\n\
         Log.info(('x'):rep(4))\n\
         Log.info(string.rep(5, 2) .. '|' .. string.rep('a', 0) .. '|' .. string.rep('a', -3))\n\
         Log.info(select(2, pcall(string.rep, 'a', 1.5)))\n\
         Log.info(select(2, pcall(string.rep, {}, 1)))\n\
         Log.info(select(2, pcall(string.rep, 'ab', math.maxinteger)))",
    );
    assert_eq!(said[0], "ab,ab,ab");
    assert_eq!(said[1], "xxxx");
    assert_eq!(said[2], "55||");
    assert!(
        said[3].contains("bad argument #2 to 'rep' (number has no integer representation)"),
        "{}",
        said[3]
    );
    assert!(
        said[4].contains("bad argument #1 to 'rep' (string expected, got table)"),
        "{}",
        said[4]
    );
    assert!(
        said[5].contains("resulting string too large"),
        "{}",
        said[5]
    );
}

#[cfg_attr(test, test)]
fn table_move_over_two_to_the_forty_slots_is_stopped() {
    stops("table.move({}, 1, 1 << 40, 1, {})");
    stops("table.move({}, 1, 1 << 40, 2)");
}

#[cfg_attr(test, test)]
fn a_lying_len_cannot_make_insert_remove_concat_or_unpack_run_for_ever() {
    let liar = "local t = setmetatable({}, {__len = function() return 1 << 40 end, \
                __index = function() return 'x' end, __newindex = function() end})";
    stops(&format!("{liar} table.insert(t, 1, 'v')"));
    stops(&format!("{liar} table.remove(t, 1)"));
    stops(&format!("{liar} table.concat(t)"));
    // A `__len` that answers small to a first question and huge to a second is asked once.
    let turncoat = "local n = 0 local t = setmetatable({}, {__len = function() n = n + 1 \
                    if n == 1 then return 1 end return 1 << 40 end})";
    let said = says(&format!(
        "{turncoat}\ntable.insert(t, 1, 'v')\nLog.info(n .. ' ' .. tostring(rawget(t, 1)))"
    ));
    assert_eq!(said, ["1 v"]);
    // `unpack` refuses, as Lua's does, a range its stack cannot hold.
    let said = says(&format!(
        "{liar}\nLog.info(select(2, pcall(table.unpack, t)))\n\
         Log.info(select(2, pcall(table.unpack, {{}}, 1, 1 << 40)))\n\
         Log.info(select(2, pcall(table.unpack, {{}}, math.mininteger, math.maxinteger)))"
    ));
    for line in &said {
        assert!(line.contains("too many results to unpack"), "{said:?}");
    }
}

#[cfg_attr(test, test)]
fn a_len_that_is_not_an_integer_is_refused() {
    let said = says(
        "local t = setmetatable({}, {__len = function() return 0.5 end})\n\
         Log.info(select(2, pcall(table.insert, t, 1)))",
    );
    assert!(
        said[0].contains("object length is not an integer"),
        "{said:?}"
    );
}

#[cfg_attr(test, test)]
fn the_table_functions_still_do_what_lua_does() {
    let said = says(
        "local t = {1, 2, 3}\n\
         table.insert(t, 4) table.insert(t, 1, 0)\n\
         Log.info(table.concat(t, ','))\n\
         Log.info(table.remove(t) .. ' ' .. table.remove(t, 1) .. ' ' .. table.concat(t, ','))\n\
         Log.info(table.concat(table.move({1, 2, 3, 4}, 1, 3, 2), ','))\n\
         Log.info(table.concat(table.move({1, 2, 3}, 1, 3, 1, {}), ','))\n\
         Log.info(table.concat({1, 2, 3, 4}, '-', 2, 3) .. '|' .. table.concat({}, ','))\n\
         Log.info(select('#', table.unpack({1, nil, 3}, 1, 3)) .. ' ' .. select(3, table.unpack({1, 2, 3})))\n\
         local s = {5, 3, 9, 1} table.sort(s) Log.info(table.concat(s, ','))\n\
         table.sort(s, function(a, b) return a > b end) Log.info(table.concat(s, ','))\n\
         Log.info(select(2, pcall(table.insert, {}, 5, 'x')))\n\
         Log.info(select(2, pcall(table.insert, nil, 'x')))\n\
         Log.info(select(2, pcall(table.insert, {}, 1, 2, 3)))\n\
         Log.info(select(2, pcall(table.concat, {1, {}, 3})))\n\
         Log.info(tostring(table.remove({})) .. ' ' .. #table.pack(table.unpack({}, 3, 2)))",
    );
    assert_eq!(
        said[..8],
        [
            "0,1,2,3,4",
            "4 0 1,2,3",
            "1,1,2,3",
            "1,2,3",
            "2-3|",
            "3 3",
            "1,3,5,9",
            "9,5,3,1",
        ]
    );
    assert!(
        said[8].contains("bad argument #2 to 'insert' (position out of bounds)"),
        "{}",
        said[8]
    );
    assert!(
        said[9].contains("bad argument #1 to 'insert' (table expected, got nil)"),
        "{}",
        said[9]
    );
    assert!(
        said[10].contains("wrong number of arguments to 'insert'"),
        "{}",
        said[10]
    );
    assert!(
        said[11].contains("invalid value (at index 2) in table for 'concat'"),
        "{}",
        said[11]
    );
    assert_eq!(said[12], "nil 0");
}

#[cfg_attr(test, test)]
fn sorting_is_paid_for_and_a_hostile_comparator_leaves_the_table_whole() {
    // A hundred thousand copies of a long string: each comparison reads the string, so the sort
    // is paid for by what it compares, and stopped before it starts.
    stops(
        "local s = string.rep('a', 65536) local t = {} for i = 1, 1e5 do t[i] = s end table.sort(t)",
    );
    stops(
        "local t = {} for i = 1, 1000 do t[i] = i end table.sort(t, function() while true do end end)",
    );
    let said = says(
        "local t = {3, 1, 2}\n\
         Log.info(select(2, pcall(table.sort, t, function(a, b) error('no') end)))\n\
         Log.info(table.concat(t, ','))\n\
         Log.info(select(2, pcall(table.sort, {3, 'x', 1})))\n\
         Log.info(select(2, pcall(table.sort, {1, 2}, 5)))",
    );
    assert!(said[0].contains("no"), "{said:?}");
    assert_eq!(said[1], "3,1,2");
    assert!(said[2].contains("attempt to compare"), "{said:?}");
    assert!(
        said[3].contains("bad argument #2 to 'sort' (function expected, got number)"),
        "{said:?}"
    );
}

#[cfg_attr(test, test)]
fn string_format_widths_are_bounded() {
    let said = says(
        "Log.info(#string.format('%99d', 1))\n\
         Log.info(select(2, pcall(string.format, '%100d', 1)))\n\
         Log.info(select(2, pcall(string.format, '%.100f', 1)))\n\
         Log.info(#string.format('%99.99f', 1e308))\n\
         Log.info(select(2, pcall(function() local x = string.format('%d', 'x') end)))",
    );
    assert_eq!(said[0], "99");
    assert!(said[1].contains("invalid conversion"), "{said:?}");
    assert!(said[2].contains("invalid conversion"), "{said:?}");
    assert!(said[3].parse::<usize>().unwrap() > 300, "{said:?}");
    // A C function's complaint names the function and the script's line, not the wrapper's.
    assert!(
        said[4].starts_with("assets/scripts/bad.lua:6: bad argument #2 to 'string.format'"),
        "{said:?}"
    );
}

#[cfg_attr(test, test)]
fn string_format_of_big_strings_in_a_loop_is_paid_for() {
    stops("local s = string.rep('x', 1 << 20) while true do local _ = string.format('%s', s) end");
    stops("local s = string.rep('x', 1 << 20) while true do local _ = s:upper() end");
    stops("local s = string.rep('x', 1 << 20) while true do local _ = s:sub(2) end");
    stops("local s = string.rep('x', 1 << 20) while true do local _ = s:reverse() end");
}

#[cfg_attr(test, test)]
fn byte_char_and_sub_ranges_are_bounded() {
    let said = says(
        "local s = string.rep('a', 1 << 20)\n\
         Log.info(select(2, pcall(string.byte, s, 1, 1 << 40)))\n\
         Log.info(#s:sub(-(1 << 62), 1 << 62) .. ' ' .. #s:sub(1 << 40) .. ' ' .. #s:sub(3, 2))\n\
         Log.info(string.byte('abc', 2) .. ' ' .. select('#', string.byte('abc', 1, -1)))\n\
         local t = {} for i = 1, 300 do t[i] = 65 end\n\
         Log.info(#string.char(table.unpack(t)))\n\
         Log.info(select(2, pcall(string.char, 256)))",
    );
    assert!(said[0].contains("string slice too long"), "{said:?}");
    assert_eq!(said[1], "1048576 0 0");
    assert_eq!(said[2], "98 3");
    assert_eq!(said[3], "300");
    assert!(said[4].contains("value out of range"), "{said:?}");
    stops(
        "local t = {} for i = 1, 200000 do t[i] = 65 end while true do string.char(table.unpack(t)) end",
    );
}

#[cfg_attr(test, test)]
fn positions_past_either_end_mean_the_end_on_every_platform() {
    // 2^32 + 1 and 2^40 wrap round to small numbers in a 32-bit size_t (wasm32): the answers
    // must still be those of a position past the end.
    let said = says(
        "local s = 'abc'\n\
         Log.info(s:sub(2^32 + 2) .. '|' .. s:sub(1, 2^32 + 1) .. '|' .. s:sub(-(2^32)) .. '|' .. s:sub(1 << 40, 1 << 41))\n\
         Log.info(tostring(s:byte(2^32 + 1)) .. ' ' .. tostring(s:byte(1 << 40, 1 << 40)) .. ' ' .. s:byte(-(1 << 40), 1))\n\
         Log.info(select(2, pcall(string.unpack, 'b', s, 2^32 + 1)))\n\
         Log.info(string.unpack('b', s, -(1 << 40)) .. ' ' .. string.unpack('b', s, 3))\n\
         Log.info(select(2, pcall(string.sub)) .. ' / ' .. select(2, pcall(string.sub, 'x', {})))",
    );
    assert_eq!(said[0], "|abc|abc|");
    assert_eq!(said[1], "nil nil 97");
    assert!(
        said[2].contains("initial position out of string"),
        "{said:?}"
    );
    assert_eq!(said[3], "97 99");
    assert!(
        said[4].contains("bad argument #1 to 'string.sub' (string expected, got no value)")
            && said[4].contains("bad argument #2 to 'string.sub' (number expected, got table)"),
        "{said:?}"
    );
}

#[cfg_attr(test, test)]
fn utf8_functions_are_bounded() {
    let said = says(
        "local s = string.rep('é', 1 << 18)\n\
         Log.info(utf8.len(s) .. ' ' .. utf8.len('héllo') .. ' ' .. utf8.offset('héllo', 3))\n\
         Log.info(utf8.char(72, 233) .. ' ' .. utf8.codepoint('é'))\n\
         Log.info(tostring(utf8.offset(s, 1 << 40)))",
    );
    assert_eq!(said[0], "262144 5 4");
    assert_eq!(said[1], "Hé 233");
    assert_eq!(said[2], "nil");
    let said = says(
        "local s = string.rep('éééééééé', 1 << 17)\n\
         Log.info(select(2, pcall(utf8.codepoint, s, 1, -1)))",
    );
    assert!(said[0].contains("string slice too long"), "{said:?}");
    stops("local s = string.rep('é', 1 << 18) while true do utf8.len(s) end");
    stops("local s = string.rep('é', 1 << 18) while true do utf8.offset(s, -1) end");
    stops(
        "local t = {} for i = 1, 100000 do t[i] = 233 end while true do utf8.char(table.unpack(t)) end",
    );
}

crate::selftest::list_cases![
    string_rep_of_nothing_a_quintillion_times_is_stopped,
    string_rep_past_the_memory_limit_is_an_out_of_memory_stop,
    string_rep_still_repeats_and_checks_its_arguments,
    table_move_over_two_to_the_forty_slots_is_stopped,
    a_lying_len_cannot_make_insert_remove_concat_or_unpack_run_for_ever,
    a_len_that_is_not_an_integer_is_refused,
    the_table_functions_still_do_what_lua_does,
    sorting_is_paid_for_and_a_hostile_comparator_leaves_the_table_whole,
    string_format_widths_are_bounded,
    string_format_of_big_strings_in_a_loop_is_paid_for,
    byte_char_and_sub_ranges_are_bounded,
    positions_past_either_end_mean_the_end_on_every_platform,
    utf8_functions_are_bounded,
];
