-- A list of choices on named rows (`<prefix>_1`, `<prefix>_row_1`, ...), on the engine's shared
-- menu (jengine/menu.lua): a focus the arrows (or W and S) move, coming round at the ends,
-- Enter or a click to choose, rows that scroll when the list is longer than the screen, and
-- choices that can be off (shown dim, said why when chosen). Beside it, the screen's own
-- helpers: texts and tints are only changed when they differ, so a quiet frame queues nothing.
--
--   local menu = import("ui/menu.lua")
--   local m = menu.new("menu", 6)
--   m:set({ { label = "Rest", on = rest }, { label = "Save", on = save, off = "No party" } })
--   function key(e, name, down) if down then m:key(name) end end

local shared = import("jengine/menu.lua")

local M = {}

local LIT = { 0.36, 0.5, 0.78, 0.55 }
local NONE = { 1, 1, 1, 0 }
local TEXT = { 0.86, 0.89, 0.95, 1 }
local FOCUS = { 0.98, 0.84, 0.48, 1 }
local OFF = { 0.45, 0.48, 0.55, 1 }

local shown = {}

-- Sets entity `name`'s text when it differs from what this screen last set.
function M.text(name, t)
  local key = "t:" .. name
  if shown[key] == t then return end
  shown[key] = t
  Text.set(Entity.find(name), t)
end

-- Changes a component's fields when they differ from what was last set (`key` tells apart).
function M.put(name, component, fields, key)
  key = component .. ":" .. name .. ":" .. (key or "")
  local k = key .. "=" .. (fields.__k or "")
  if shown[key] == k then return end
  shown[key] = k
  fields.__k = nil
  Entity.set(Entity.find(name), component, fields)
end

local function ckey(c)
  return string.format("%.3f,%.3f,%.3f,%.3f", c[1], c[2], c[3], c[4] or 1)
end

function M.tint(name, c)
  M.put(name, "sprite", { tint = c, __k = ckey(c) }, "tint")
end

function M.colour(name, c)
  M.put(name, "text", { color = c, __k = ckey(c) }, "colour")
end

-- The list itself is the engine's shared menu, on rows `<prefix>_row_<r>` (hit by the pointer,
-- tinted under the focus) with texts `<prefix>_<r>`, wrapping at its ends.
local List = setmetatable({}, { __index = shared })
List.__index = List

local KEYS = shared.keys({ w = "up", s = "down", left = false, right = false, escape = false, backspace = false })

function M.new(prefix, rows)
  local m = shared.new({}, {
    rows = { count = rows, row = prefix .. "_row_%d", label = prefix .. "_%d" },
    wrap = true,
    keys = KEYS,
    look = function(s)
      local here = s.focus
      return {
        text = s.item and s.item.text or "",
        tint = here and LIT or NONE,
        colour = s.item == nil and TEXT or (s.off and OFF or (here and FOCUS or TEXT)),
      }
    end,
    apply = function(_, fields, r)
      M.text(prefix .. "_" .. r, fields.text)
      M.tint(prefix .. "_row_" .. r, fields.tint)
      M.colour(prefix .. "_" .. r, fields.colour)
    end,
  })
  m.prefix = prefix
  return setmetatable(m, List)
end

-- The choices: each { label, on = function, off = "why not" (optional) }.
function List:set(items, keep_focus)
  local list = {}
  for i, item in ipairs(items) do list[i] = { text = item.label, on = item.on, off = item.off } end
  shared.set(self, list, keep_focus)
  self:draw()
end

function List:draw()
  self:update()
end

-- Moves or chooses; returns why a choice was refused, if it was.
function List:key(name)
  if #self.items == 0 then return nil end
  local _, why = shared.key(self, name, true)
  self:draw()
  return why
end

-- Whether (x, y) is on entity `name`'s sprite: for a button of the screen's own.
M.over = shared.over

-- Hover focuses a row, a click chooses it; returns why a choice was refused, if it was.
function List:pointer(phase, x, y)
  local hit, why = shared.pointer(self, phase, x, y)
  if hit then self:draw() end
  return why
end

return M
