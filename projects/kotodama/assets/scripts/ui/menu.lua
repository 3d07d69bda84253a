-- Kotodama's menus: buttons that light under the pointer, a keyboard focus that moves with the
-- arrows, Enter or Space to choose, Escape to go back. Every scene's script imports it.
--
--   local menu = import("ui/menu.lua")
--   local m = menu.new({
--     { button = "play", label = "play_label", on = function() Scene.load("stages") end },
--     { button = "quit", label = "quit_label", on = function() Scene.quit() end },
--   }, { back = function() Scene.load("title") end, columns = 1 })
--   function pointer(e, phase, x, y) m:pointer(phase, x, y) end
--   function key(e, name, down) m:key(name, down) end
--   function update(e, dt) m:update(dt) end

local M = {}
M.__index = M

-- Tints: at rest, under the pointer or focused, pressed, and not available.
local REST = { 0.8, 0.82, 0.9, 1 }
local LIT = { 1, 1, 1, 1 }
local PRESSED = { 0.68, 0.66, 0.6, 1 }
local OFF = { 0.42, 0.42, 0.48, 1 }

local function bounds(e)
  local t = Entity.get(e, "transform")
  local s = Entity.get(e, "sprite")
  if t == nil or s == nil then return nil end
  local sx, sy = 1, 1
  if t.scale then sx, sy = t.scale[1], t.scale[2] end
  return t.pos[1], t.pos[2], s.size[1] * sx / 2, s.size[2] * sy / 2
end

local function over(e, x, y)
  local cx, cy, hw, hh = bounds(e)
  if cx == nil then return false end
  return math.abs(x - cx) <= hw and math.abs(y - cy) <= hh
end

-- `items`: each { button = entity name, label = entity name (optional), on = function,
-- enabled = boolean (default true) }. `options`: { back = function, columns = n (default 1),
-- focus = index (default 1) }.
function M.new(items, options)
  options = options or {}
  local m = setmetatable({
    items = {},
    focus = options.focus or 1,
    columns = options.columns or 1,
    back = options.back,
    hover = nil,
    pressed = nil,
    shown = {},
  }, M)
  for _, item in ipairs(items) do
    local b = Entity.find(item.button)
    if b == nil then error("menu: no entity named " .. tostring(item.button), 2) end
    m.items[#m.items + 1] = {
      entity = b,
      label = item.label and Entity.find(item.label) or nil,
      on = item.on,
      enabled = item.enabled ~= false,
      name = item.button,
    }
  end
  if #m.items == 0 then m.focus = 0 end
  return m
end

-- Chooses item `i` (when it is enabled).
function M:choose(i)
  local item = self.items[i]
  if item == nil or not item.enabled or item.on == nil then return false end
  if Audio then Audio.play("menu_select.wav", { volume = 0.7 }) end
  item.on(item)
  return true
end

-- Marks an item available or not (a locked stage, a beaten rival still playable, ...).
function M:enable(i, on)
  if self.items[i] then self.items[i].enabled = on end
end

function M:pointer(phase, x, y)
  local hit = nil
  for i, item in ipairs(self.items) do
    if over(item.entity, x, y) then hit = i break end
  end
  self.hover = hit
  if hit then self.focus = hit end
  if phase == "press" then
    self.pressed = hit
  elseif phase == "release" then
    local was = self.pressed
    self.pressed = nil
    if was ~= nil and was == hit then self:choose(hit) end
  end
  return hit
end

function M:key(name, down)
  if not down then return false end
  local n = #self.items
  if name == "escape" or name == "backspace" then
    if self.back then self.back() return true end
    return false
  end
  if n == 0 then return false end
  local step = ({ up = -self.columns, down = self.columns, left = -1, right = 1 })[name]
  if step ~= nil then
    if self.columns == 1 and (name == "left" or name == "right") then return false end
    local f = self.focus + step
    if f >= 1 and f <= n and f ~= self.focus then
      self.focus = f
      if Audio then Audio.play("menu_move.wav", { volume = 0.5 }) end
    end
    return true
  end
  if name == "enter" or name == "space" then
    return self:choose(self.focus)
  end
  return false
end

-- Lights the focused and hovered items; call every frame.
function M:update(dt)
  for i, item in ipairs(self.items) do
    local tint = REST
    if not item.enabled then tint = OFF
    elseif self.pressed == i then tint = PRESSED
    elseif self.focus == i or self.hover == i then tint = LIT end
    if self.shown[i] ~= tint then
      self.shown[i] = tint
      Entity.set(item.entity, "sprite", { tint = tint })
    end
  end
end

return M
