-- The keyboard's place in a menu, drawn: a gold ring (focus.png, nine-sliced) laid round the
-- focused button, and that button's label in gold. The ring follows the menu's focus, which
-- the pointer moves too, so mouse and keyboard always agree on what Enter would choose.
--
--   local focus = import("flow/focus.lua")
--   local f = focus.new(m, "focus", { pad = 0.16, rest = function(i) return IVORY end })
--   function update(e, dt) m:update(dt); f:update() end

local F = {}
F.__index = F

F.IVORY = { 0.957, 0.918, 0.847, 1 }
F.MUTED = { 0.788, 0.749, 0.682, 1 }
F.GOLD = { 0.941, 0.788, 0.416, 1 }
F.CORAL = { 1.0, 0.604, 0.478, 1 }
F.DIM = { 0.55, 0.56, 0.64, 1 }

local AWAY = 100

-- `m`: a menu from ui/menu.lua. `ring`: the name of the ring's entity. `options.pad`: how much
-- larger than its button the ring is; `options.rest(i)`: label i's colour when not focused
-- (ivory when not given); `options.at(i)`: where button i stands, for buttons moved this very
-- frame (a move applies after the scripts run, so the transform still shows the old place).
function F.new(m, ring, options)
  options = options or {}
  local e = Entity.find(ring)
  if e == nil then error("focus: no entity named " .. tostring(ring), 2) end
  return setmetatable({
    m = m,
    ring = e,
    pad = options.pad or 0.16,
    rest = options.rest or function() return F.IVORY end,
    at = options.at,
    shown = nil,
    hidden = false,
  }, F)
end

-- Colours every label as it rests, then lights the focused one; call after labels change.
function F:refresh()
  for i, item in ipairs(self.m.items) do
    if item.label ~= nil then
      Entity.set(item.label, "text", { color = i == self.m.focus and F.GOLD or self.rest(i) })
    end
  end
  self.shown = nil
end

-- Moves the ring to the focused button (when the focus moved); call every frame.
function F:update()
  if self.hidden then return end
  local i = self.m.focus
  if i == self.shown then return end
  local before = self.m.items[self.shown or 0]
  if before ~= nil and before.label ~= nil then
    Entity.set(before.label, "text", { color = self.rest(self.shown) })
  end
  self.shown = i
  local item = self.m.items[i]
  if item == nil then
    Entity.set(self.ring, "transform", { pos = { 0, AWAY } })
    return
  end
  if item.label ~= nil then Entity.set(item.label, "text", { color = F.GOLD }) end
  local s = Entity.get(item.entity, "sprite")
  local pos
  if self.at ~= nil then
    pos = self.at(i)
  else
    local t = Entity.get(item.entity, "transform")
    pos = { t.pos[1], t.pos[2] }
  end
  Entity.set(self.ring, "transform", { pos = pos })
  Entity.set(self.ring, "sprite", { size = { s.size[1] + self.pad, s.size[2] + self.pad } })
end

-- Hides the ring (a closed menu) or shows it again at the focus.
function F:hide(hidden)
  self.hidden = hidden
  self.shown = nil
  if hidden then Entity.set(self.ring, "transform", { pos = { 0, AWAY } }) end
end

return F
