-- A list of choices on named rows (`<prefix>_1`, `<prefix>_row_1`, ...): a focus the arrows
-- move, Enter or a click to choose, rows that scroll when the list is longer than the screen,
-- and choices that can be off (shown dim, said why when chosen). Texts and tints are only
-- changed when they differ, so a quiet frame queues nothing.
--
--   local menu = import("ui/menu.lua")
--   local m = menu.new("menu", 6)
--   m:set({ { label = "Rest", on = rest }, { label = "Save", on = save, off = "No party" } })
--   function key(e, name, down) if down then m:key(name) end end

local M = {}
M.__index = M

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

function M.new(prefix, rows)
  return setmetatable({ prefix = prefix, rows = rows, items = {}, focus = 1, top = 0, active = true }, M)
end

-- The choices: each { label, on = function, off = "why not" (optional) }.
function M:set(items, keep_focus)
  self.items = items
  if not keep_focus then self.focus = 1; self.top = 0 end
  if self.focus > #items then self.focus = math.max(1, #items) end
  self:draw()
end

function M:draw()
  if self.focus <= self.top then self.top = self.focus - 1 end
  if self.focus > self.top + self.rows then self.top = self.focus - self.rows end
  for r = 1, self.rows do
    local i = self.top + r
    local item = self.items[i]
    M.text(self.prefix .. "_" .. r, item and item.label or "")
    local here = item ~= nil and i == self.focus and self.active
    M.tint(self.prefix .. "_row_" .. r, here and LIT or NONE)
    M.colour(self.prefix .. "_" .. r, item == nil and TEXT or (item.off and OFF or (here and FOCUS or TEXT)))
  end
end

function M:choose(i)
  local item = self.items[i or self.focus]
  if item == nil then return nil end
  if item.off then return item.off end
  if item.on then item.on() end
  return nil
end

-- Moves or chooses; returns why a choice was refused, if it was.
function M:key(name)
  if #self.items == 0 then return nil end
  if name == "up" or name == "w" then
    self.focus = self.focus > 1 and self.focus - 1 or #self.items
  elseif name == "down" or name == "s" then
    self.focus = self.focus < #self.items and self.focus + 1 or 1
  elseif name == "enter" or name == "space" then
    local why = self:choose()
    self:draw()
    return why
  end
  self:draw()
  return nil
end

-- Whether (x, y) is on entity `name`'s sprite: for a button of the screen's own.
function M.over(name, x, y)
  local e = Entity.find(name)
  local t = Entity.get(e, "transform")
  local s = Entity.get(e, "sprite")
  if t == nil or s == nil then return false end
  return math.abs(x - t.pos[1]) <= s.size[1] / 2 and math.abs(y - t.pos[2]) <= s.size[2] / 2
end

-- Hover focuses a row, a click chooses it; returns why a choice was refused, if it was.
function M:pointer(phase, x, y)
  for r = 1, self.rows do
    local i = self.top + r
    if self.items[i] and M.over(self.prefix .. "_row_" .. r, x, y) then
      self.focus = i
      local why
      if phase == "release" then why = self:choose(i) end
      self:draw()
      return why
    end
  end
  return nil
end

return M
