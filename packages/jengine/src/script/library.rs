//! The bounded string, table and utf8 functions [`super::bounded::harden`] installs.
//!
//! The table functions are rewritten in Lua, so every element they visit is a VM instruction
//! the hook counts: a lying `__len` or a range of 2^40 runs into the budget instead of running
//! for ever. Lengths are read once, so a `__len` cannot answer one size to the check and
//! another to the loop. The string functions keep Lua's C code but pay for their work first
//! (`string.rep`, which can loop without producing a byte) or by the size of what they made.

use std::rc::Rc;

use mlua::{Function, Lua, Table};

use super::strings::Meter;

/// Bytes a C function may produce for the price of one instruction.
const BYTES_PER_INSTRUCTION: i64 = 16;

/// Replaces the functions in `lua`'s global `string`, `table` and `utf8` tables (those present).
pub(crate) fn install(lua: &Lua, meter: Rc<dyn Meter>) -> mlua::Result<()> {
    let limit = meter.memory_limit();
    let charge =
        lua.create_function(move |lua, steps: i64| meter.charge(lua, steps.max(0) as u64))?;
    let room = lua.create_function(move |lua, ()| {
        Ok(limit.map_or(i64::MAX, |limit| {
            limit
                .saturating_sub(lua.used_memory())
                .min(i64::MAX as usize) as i64
        }))
    })?;
    let g = lua.globals();
    let string: Option<Table> = g.raw_get("string")?;
    let table: Option<Table> = g.raw_get("table")?;
    let utf8: Option<Table> = g.raw_get("utf8")?;
    // Lua names a C function in its argument errors by finding it among the loaded modules; the
    // wrapped originals stay findable there, so `bad argument #2 to 'string.format'` still says
    // which function it was.
    let loaded: Table = lua.named_registry_value("_LOADED")?;
    for (name, lib) in [("string", &string), ("table", &table), ("utf8", &utf8)] {
        if let Some(lib) = lib {
            let originals = lua.create_table()?;
            for pair in lib.pairs::<mlua::Value, mlua::Value>() {
                let (k, v) = pair?;
                originals.raw_set(k, v)?;
            }
            loaded.raw_set(name, originals)?;
        }
    }
    let install: Function = lua
        .load(BOUNDED)
        .set_name("=bounded library")
        .into_function()?;
    install.call::<()>((charge, room, string, table, utf8, BYTES_PER_INSTRUCTION))
}

/// The Lua half: receives `charge(steps)` and the three library tables, changes them in place.
const BOUNDED: &str = r##"
local charge, room, string, table, utf8, PER = ...
local type_, select_, error_, tointeger, mtype, tostring_ =
    type, select, error, math.tointeger, math.type, tostring
local MAXINT, MININT = math.maxinteger, math.mininteger
-- Lua's C stack can hold about this many values; unpack refuses more, as Lua's does.
local MAX_RESULTS = 999000

-- Argument errors name the script's line: `level` counts the frames from the one raising
-- (3 when a wrapper calls it, 4 through one of the checks below).
local function argerror(i, fname, msg, level)
    error_("bad argument #" .. i .. " to '" .. fname .. "' (" .. msg .. ")", level or 3)
end

local function typeerror(v, i, fname, expected, level)
    argerror(i, fname, expected .. " expected, got " .. type_(v), (level or 3) + 1)
end

local function integer(v, i, fname)
    local n = tointeger(v)
    if n ~= nil then return n end
    if type_(v) == "number" or (type_(v) == "string" and tonumber(v) ~= nil) then
        argerror(i, fname, "number has no integer representation", 4)
    end
    typeerror(v, i, fname, "number", 4)
end

-- `integer`, or `default` when the argument is absent (a tail call: the same levels).
local function optinteger(v, i, fname, default)
    if v == nil then return default end
    return integer(v, i, fname)
end

local function text(v, i, fname)
    local t = type_(v)
    if t == "string" then return v end
    if t == "number" then return tostring_(v) end
    typeerror(v, i, fname, "string", 4)
end

local function checktab(t, i, fname)
    if type_(t) ~= "table" then typeerror(t, i, fname, "table", 4) end
end

-- `#t`, read once, as Lua's luaL_len does: an integer or an error.
local function len(t)
    local n = #t
    if mtype(n) ~= "integer" then error_("object length is not an integer", 3) end
    return n
end

local pcall_, find = pcall, string and string.find
local MEMORY = "not enough memory"

-- Raises again an error caught from Lua's C code. The C functions run under `pcall` here, so
-- their messages carry no place; they get the script's line (level 3: past this function and
-- the wrapper, or the tail-called `settle`). Errors that already name a place, out-of-memory
-- and the guard's stops go on as they are.
local function raise(r)
    if type_(r) == "string" and r ~= MEMORY and not find(r, "^[^\n]-:%d+: ") then
        error_(r, 3)
    end
    error_(r, 0)
end

-- The end of a call into Lua's C code, as a tail call: errors raised again, and what it made
-- paid for by its size once that is large enough to matter.
local function settle(ok, r, ...)
    if not ok then raise(r) end
    if type_(r) == "string" and #r > 4096 then charge(#r // PER) end
    local n = select_("#", ...)
    if n > 255 then charge(n) end
    return r, ...
end

if string then
    local rep, upper, lower, reverse, format, sub, byte, char =
        string.rep, string.upper, string.lower, string.reverse, string.format,
        string.sub, string.byte, string.char

    -- Lua's rep loops `n` times even when every copy is empty, so the loop is paid first. A
    -- result larger than the memory left is not paid for: Lua's rep asks for the whole buffer
    -- before it copies a byte, and fails there with the state's out-of-memory error.
    string.rep = function(s, n, sep)
        s = text(s, 1, "rep")
        n = integer(n, 2, "rep")
        if sep ~= nil then sep = text(sep, 3, "rep") end
        if n <= 0 then return "" end
        local each = #s + (sep and #sep or 0)
        if each > 0 and n > (MAXINT // each) then
            error_("bad argument #2 to 'rep' (resulting string too large)", 2)
        end
        if each * n <= room() then charge(n // 8 + (each * n) // PER) end
        if sep then return settle(pcall_(rep, s, n, sep)) end
        return settle(pcall_(rep, s, n))
    end
    string.upper = function(...) return settle(pcall_(upper, ...)) end
    string.lower = function(...) return settle(pcall_(lower, ...)) end
    string.reverse = function(...) return settle(pcall_(reverse, ...)) end
    string.format = function(...) return settle(pcall_(format, ...)) end
    -- A position past either end of the string means what the end itself means, so it is
    -- clipped to just past it before Lua's C code sees it: that code casts positions to size_t,
    -- which on a 32-bit platform (wasm32) turns 2^40 into 0, and `s:sub(2^40)` would then copy
    -- from the byte before the string. Natively the results are the same either way.
    local function clip(pos, len)
        local i = tointeger(pos)
        if i == nil then return pos end
        if i > len + 1 then return len + 2 end
        if i < -len then return -len - 1 end
        return i
    end
    local function measurable(s) return type_(s) == "string" or type_(s) == "number" end
    -- `f(s, i, j, ...)` with `i` and `j` (when given) clipped to `s`.
    local function ranged(f)
        return function(...)
            local n = select_("#", ...)
            local s, i, j = ...
            if n < 2 or not measurable(s) then return settle(pcall_(f, ...)) end
            local len = #tostring_(s)
            if n == 2 then return settle(pcall_(f, s, clip(i, len))) end
            return settle(pcall_(f, s, clip(i, len), clip(j, len), select_(4, ...)))
        end
    end
    string.sub = ranged(sub)
    string.byte = ranged(byte)
    local unpack_ = string.unpack
    if unpack_ then
        string.unpack = function(...)
            local n = select_("#", ...)
            local fmt, s, pos = ...
            if n < 3 or not measurable(s) then return settle(pcall_(unpack_, ...)) end
            return settle(pcall_(unpack_, fmt, s, clip(pos, #tostring_(s)), select_(4, ...)))
        end
    end
    string.char = function(...)
        local n = select_("#", ...)
        if n > 255 then charge(n) end
        return settle(pcall_(char, ...))
    end
end

if utf8 then
    local ulen, offset, codepoint, uchar = utf8.len, utf8.offset, utf8.codepoint, utf8.char
    -- These decode the string in C, a character at a time: they pay for its length first, at
    -- about what decoding costs against a VM instruction.
    local function scanned(s)
        if type_(s) == "string" and #s > 4096 then charge(#s // 2) end
    end
    utf8.len = function(s, ...) scanned(s) return settle(pcall_(ulen, s, ...)) end
    utf8.offset = function(s, ...) scanned(s) return settle(pcall_(offset, s, ...)) end
    utf8.codepoint = function(s, ...) scanned(s) return settle(pcall_(codepoint, s, ...)) end
    utf8.char = function(...)
        local n = select_("#", ...)
        if n > 255 then charge(n) end
        return settle(pcall_(uchar, ...))
    end
end

if table then
    local concat, unpack, sort = table.concat, table.unpack, table.sort

    table.insert = function(t, ...)
        checktab(t, 1, "insert")
        local e = len(t)
        if e == MAXINT then error_("wrong number of arguments to 'insert'", 2) end
        e = e + 1
        local n = select_("#", ...)
        if n == 1 then
            t[e] = ...
            return
        end
        if n ~= 2 then error_("wrong number of arguments to 'insert'", 2) end
        local pos, v = ...
        pos = integer(pos, 2, "insert")
        if pos < 1 or pos > e then argerror(2, "insert", "position out of bounds") end
        for i = e, pos + 1, -1 do
            t[i] = t[i - 1]
        end
        t[pos] = v
    end

    table.remove = function(t, pos)
        checktab(t, 1, "remove")
        local size = len(t)
        pos = optinteger(pos, 2, "remove", size)
        if pos ~= size and (pos < 1 or pos > size + 1) then
            argerror(2, "remove", "position out of bounds")
        end
        local value = t[pos]
        while pos < size do
            t[pos] = t[pos + 1]
            pos = pos + 1
        end
        t[pos] = nil
        return value
    end

    table.move = function(a1, f, e, t, a2)
        checktab(a1, 1, "move")
        f = integer(f, 2, "move")
        e = integer(e, 3, "move")
        t = integer(t, 4, "move")
        if a2 == nil then a2 = a1 else checktab(a2, 5, "move") end
        if e >= f then
            if not (f > 0 or e < MAXINT + f) then argerror(3, "move", "too many elements to move") end
            local n = e - f + 1
            if t > MAXINT - n + 1 then argerror(4, "move", "destination wrap around") end
            if t > e or t <= f or a1 ~= a2 then
                for i = 0, n - 1 do a2[t + i] = a1[f + i] end
            else
                for i = n - 1, 0, -1 do a2[t + i] = a1[f + i] end
            end
        end
        return a2
    end

    table.concat = function(t, sep, i, j)
        checktab(t, 1, "concat")
        local last = len(t)
        if sep == nil then sep = "" else sep = text(sep, 2, "concat") end
        i = optinteger(i, 3, "concat", 1)
        last = optinteger(j, 4, "concat", last)
        if i > last then return "" end
        -- The elements are gathered by a loop the hook sees, then joined by Lua's own code.
        local parts, n = {}, 0
        for k = i, last do
            local v = t[k]
            local kind = type_(v)
            if kind ~= "string" and kind ~= "number" then
                error_("invalid value (at index " .. k .. ") in table for 'concat'", 2)
            end
            n = n + 1
            parts[n] = v
        end
        return settle(pcall_(concat, parts, sep))
    end

    table.unpack = function(t, i, j)
        i = optinteger(i, 2, "unpack", 1)
        if j == nil then j = len(t) else j = integer(j, 3, "unpack") end
        if i > j then return end
        if j - i >= MAX_RESULTS or j - i < 0 then error_("too many results to unpack", 2) end
        local n = j - i + 1
        if n > 64 then charge(n) end
        return unpack(t, i, j)
    end

    -- Sorted on a plain copy: the C sort then sees no metamethods, its comparisons are paid for
    -- up front (longer strings cost more to compare), and a comparator that fails leaves the
    -- table as it was.
    table.sort = function(t, comp)
        checktab(t, 1, "sort")
        local n = len(t)
        if n <= 1 then return end
        if n >= 0x7fffffff then argerror(1, "sort", "array too big") end
        if comp ~= nil and type_(comp) ~= "function" then typeerror(comp, 2, "sort", "function") end
        local copy, bytes = {}, 0
        for k = 1, n do
            local v = t[k]
            if type_(v) == "string" then bytes = bytes + #v end
            copy[k] = v
        end
        local steps, m = 0, n
        while m > 1 do steps = steps + 1; m = m >> 1 end
        charge(n * (steps + 1) * (1 + bytes // n // PER))
        local ok, err
        if comp ~= nil then ok, err = pcall_(sort, copy, comp) else ok, err = pcall_(sort, copy) end
        if not ok then raise(err) end
        for k = 1, n do t[k] = copy[k] end
    end
end
"##;
