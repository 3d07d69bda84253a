-- jengine/menu.lua: the menu every game shares. Items are buttons (one sprite entity each, with
-- an optional label entity) or rows of a list shown on a fixed set of row entities that scroll.
-- One focus moves with the keys (in columns or a list, wrapping or clamped), the pointer
-- focuses what it is over, a press and a release on the same item choose it, Enter or Space
-- choose the focus, Escape or Backspace go back. An item can be off: choosing it does nothing
-- but give its reason. The game says how an item looks in each state (`look`), and the menu
-- sets only what differs from what it set before, so a quiet frame queues nothing.
--
--   local menu = import("jengine/menu.lua")
--   local m = menu.new({
--     { button = "play", label = "play_label", on = function() Scene.load("stages") end },
--     { button = "quit", label = "quit_label", on = function() Scene.quit() end },
--   }, { back = function() Scene.load("title") end,
--        look = function(s) return { tint = s.lit and LIT or REST } end })
--   function pointer(e, phase, x, y) m:pointer(phase, x, y) end
--   function key(e, name, down) m:key(name, down) end
--   function update(e, dt) m:update() end

local M = {}
M.__index = M
-- The menu calls its own parts as M.part(self, ...), so a game that builds on it (overriding
-- `set`, `key` or a `draw` of its own) cannot turn one of them into another.

-- What each key does unless the game says otherwise: a move, `choose` or `back`.
M.KEYS = {
  up = "up", down = "down", left = "left", right = "right",
  enter = "choose", space = "choose", escape = "back", backspace = "back",
}

-- `M.KEYS` with `more` laid over it (`false` takes a key away): `menu.keys({ w = "up" })`.
function M.keys(more)
  local out = {}
  for k, v in pairs(M.KEYS) do out[k] = v end
  for k, v in pairs(more or {}) do
    if v == false then out[k] = nil else out[k] = v end
  end
  return out
end

local function entity_of(e)
  if type(e) == "string" then return Entity.find(e) end
  return e
end

-- Whether world point (x, y) is on entity `e`'s sprite (an entity or its name), scale included.
function M.over(e, x, y)
  e = entity_of(e)
  if e == nil then return false end
  local t = Entity.get(e, "transform")
  local s = Entity.get(e, "sprite")
  if t == nil or s == nil then return false end
  local sx, sy = 1, 1
  if t.scale then sx, sy = t.scale[1], t.scale[2] end
  return math.abs(x - t.pos[1]) <= s.size[1] * sx / 2 and math.abs(y - t.pos[2]) <= s.size[2] * sy / 2
end

-- Plays sound `s` ({ name, volume = v }, or a file name) when it is given.
local function play(s)
  if s == nil or s == false or Audio == nil then return end
  if type(s) == "string" then Audio.play(s) return end
  local options = {}
  for k, v in pairs(s) do
    if k ~= 1 then options[k] = v end
  end
  Audio.play(s[1], options)
end

-- A fresh item record from what the game gave: `button` (entity name, for buttons), `label`
-- (entity name, optional), `text` (shown on a row), `on` (called with the item when chosen),
-- `enabled = false` or `off` (true, or a sentence saying why) for an item that is off.
local function item_of(given, rows, at, level)
  local item = {
    name = given.name or given.button,
    on = given.on,
    text = given.text,
    given = given,
  }
  local off = given.off
  if off == nil and given.enabled == false then off = true end
  item.enabled = not off
  if type(off) == "string" then item.why = off end
  if not rows then
    if given.button == nil then error("menu: item " .. at .. " has no button (an entity name)", level) end
    local b = Entity.find(given.button)
    if b == nil then error("menu: no entity named " .. tostring(given.button), level) end
    item.entity = b
    if given.label ~= nil then item.label = Entity.find(given.label) end
  end
  if item.name == nil then item.name = at end
  return item
end

-- `items`: as above. `options`:
--   columns  items a row, for the keys (default 1: a list; left and right are then not moves)
--   wrap     true: moving past an end comes round to the other (default false: it stops)
--   keys     key name -> "up", "down", "left", "right", "choose" or "back" (default M.KEYS)
--   focus    the item focused at first (default 1; 0 for none)
--   back     called by a "back" key
--   say      called with an off item's reason when it is chosen
--   sounds   { move = sound, choose = sound, light = sound }: a sound is a file name or
--            { name, volume = v, ... }; `move` when a key moves the focus, `choose` when an
--            item is chosen, `light` when an item comes alight after the first draw
--   rows     { count = n, row = "menu_row_%d", label = "menu_%d" }: a list shown on n row
--            entities (hit by the pointer) with their texts, scrolled to keep the focus shown
--   hit      "first" (default) or "last": which item the pointer takes when several are under it
--   look     function(state) -> { tint = c, colour = c, text = s, offset = { dx, dy } }, how an
--            item looks; state has focus, hover, pressed, down (pressed and under the pointer),
--            lit (focus or hover), off, item, index, extra (what `draw_item` was given)
--   apply    function(item, fields) that sets the look itself (default: the menu sets the
--            sprite tint of `button`, the label's colour and text, and moves both by `offset`
--            from where the scene put them, each only when it differs)
function M.new(items, options)
  options = options or {}
  local m = setmetatable({
    items = {},
    focus = options.focus or 1,
    columns = options.columns or 1,
    wrap = options.wrap == true,
    keymap = options.keys or M.KEYS,
    back = options.back,
    say = options.say,
    sounds = options.sounds or {},
    rows = options.rows,
    hit = options.hit or "first",
    look = options.look,
    apply = options.apply,
    active = true,
    top = 0,
    hover = nil,
    pressed = nil,
    shown = {},
    lit = {},
    homes = {},
  }, M)
  m:build(items, true, 4)
  return m
end

-- The item named `name` (a button's entity name, or the name given), by index.
function M:find(name)
  for i, item in ipairs(self.items) do
    if item.name == name then return i end
  end
  return nil
end

-- Replaces the items. With `keep`, the focus stays where it was (moved onto the last item if
-- the list got shorter) and a press or hover stays on the item of the same name; without it,
-- the focus goes back to the first and the list to its top.
function M:set(items, keep)
  M.build(self, items, keep, 4)
end

-- `set`, a bad item raising its error `level` calls up from where it is read (the game's line).
function M:build(items, keep, level)
  local hover = self.hover and self.items[self.hover] and self.items[self.hover].name
  local pressed = self.pressed and self.items[self.pressed] and self.items[self.pressed].name
  local list = {}
  for i, given in ipairs(items) do list[i] = item_of(given, self.rows ~= nil, i, level) end
  self.items = list
  self.hover, self.pressed = nil, nil
  if keep then
    if hover ~= nil then self.hover = M.find(self, hover) end
    if pressed ~= nil then self.pressed = M.find(self, pressed) end
  else
    self.focus, self.top = 1, 0
  end
  if self.focus > #list then self.focus = math.max(self.rows and 1 or 0, #list) end
  M.scroll(self)
end

-- Adds one item at the end and returns its index.
function M:add(given)
  local i = #self.items + 1
  self.items[i] = item_of(given, self.rows ~= nil, i, 3)
  return i
end

-- Marks item `i` on or off (`why`: the reason said when it is chosen while off).
function M:enable(i, on, why)
  local item = self.items[i]
  if item == nil then return end
  item.enabled = on and true or false
  item.why = (not on) and why or nil
end

-- Keeps the focused row on the screen.
function M:scroll()
  if self.rows == nil then return end
  if self.focus <= self.top then self.top = math.max(0, self.focus - 1) end
  if self.focus > self.top + self.rows.count then self.top = self.focus - self.rows.count end
end

-- Chooses item `i` (the focus when nil). Returns true when it was chosen; false, and the
-- reason (also handed to `say`), when it is off; nil when there is no such item.
function M:choose(i)
  local item = self.items[i or self.focus]
  if item == nil then return nil end
  if not item.enabled then
    if item.why ~= nil and self.say then self.say(item.why, item) end
    return false, item.why
  end
  play(self.sounds.choose)
  if item.on then item.on(item) end
  return true
end

-- Moves the focus by `step` items; returns whether it moved.
function M:move(step)
  local n = #self.items
  if n == 0 then return false end
  local f = self.focus + step
  if self.wrap then
    f = (f - 1) % n + 1
  elseif f < 1 or f > n then
    return false
  end
  if f == self.focus then return false end
  self.focus = f
  M.scroll(self)
  play(self.sounds.move)
  return true
end

-- A key went down (`down` true) or up. Returns whether the menu took it, and an off item's
-- reason when one was chosen.
function M:key(name, down)
  if not down then return false end
  local does = self.keymap[name]
  if does == nil then return false end
  if does == "back" then
    if self.back then self.back() return true end
    return false
  end
  if #self.items == 0 then return false end
  if does == "choose" then
    local chosen, why = M.choose(self, self.focus)
    return chosen == true, why
  end
  local step = ({ up = -self.columns, down = self.columns, left = -1, right = 1 })[does]
  if step == nil then error("menu: key " .. tostring(name) .. " does " .. tostring(does) .. ", not a move", 2) end
  if self.columns == 1 and (does == "left" or does == "right") then return false end
  M.move(self, step)
  return true
end

-- The entity the pointer hits for item `i`: its button, or the row it is shown on.
function M:target(i)
  if self.rows == nil then
    local item = self.items[i]
    return item and item.entity
  end
  local r = i - self.top
  if r < 1 or r > self.rows.count then return nil end
  return string.format(self.rows.row, r)
end

-- Pointer input: the item under it is hovered and focused; a release on the item the press
-- went down on chooses it. Returns the item under the pointer, then an off item's reason.
function M:pointer(phase, x, y)
  local hit = nil
  for i = 1, #self.items do
    local t = M.target(self, i)
    if t ~= nil and M.over(t, x, y) then
      hit = i
      if self.hit ~= "last" then break end
    end
  end
  self.hover = hit
  if hit then self.focus = hit end
  local why
  if phase == "press" then
    self.pressed = hit
  elseif phase == "release" then
    local was = self.pressed
    self.pressed = nil
    if was ~= nil and was == hit then
      local _
      _, why = M.choose(self, hit)
    end
  end
  return hit, why
end

-- The state `look` is given for item `i` (nil on an empty row).
function M:state(i, extra)
  local item = self.items[i]
  local focus = i == self.focus and self.active
  if extra and extra.focus ~= nil then focus = extra.focus end
  local hover = self.hover == i
  local pressed = self.pressed == i
  return {
    index = i,
    item = item,
    focus = item ~= nil and focus,
    hover = hover,
    pressed = pressed,
    down = pressed and hover,
    lit = item ~= nil and (focus or hover),
    off = item ~= nil and not item.enabled,
    extra = extra,
  }
end

local function key_of(v)
  if type(v) ~= "table" then return tostring(v) end
  local parts = {}
  for k = 1, #v do parts[k] = string.format("%.4f", v[k]) end
  return table.concat(parts, " ")
end

-- Sets `component` of entity `e` (kept under `key`) when `value` differs from the last one set.
function M:put(key, e, component, fields, value)
  local k = key_of(value)
  if self.shown[key] == k then return end
  self.shown[key] = k
  Entity.set(e, component, fields)
end

function M:place(key, e, offset)
  local home = self.homes[key]
  if home == nil then
    local pos = Entity.get(e, "transform").pos
    home = { pos[1], pos[2] }
    self.homes[key] = home
  end
  M.put(self, "o:" .. key, e, "transform", { pos = { home[1] + offset[1], home[2] + offset[2] } }, offset)
end

-- The default `apply`: the fields of a look set on the item's entities.
function M:set_look(i, fields, row)
  local key = row and ("row " .. row) or ("item " .. tostring(self.items[i].name))
  local e, label
  if row then
    e = Entity.find(string.format(self.rows.row, row))
    if self.rows.label then label = Entity.find(string.format(self.rows.label, row)) end
  else
    e, label = self.items[i].entity, self.items[i].label
  end
  if fields.text ~= nil and label ~= nil then
    local k = "x:" .. key
    if self.shown[k] ~= fields.text then
      self.shown[k] = fields.text
      Text.set(label, fields.text)
    end
  end
  if fields.tint ~= nil and e ~= nil then M.put(self, "t:" .. key, e, "sprite", { tint = fields.tint }, fields.tint) end
  if fields.colour ~= nil and label ~= nil then M.put(self, "c:" .. key, label, "text", { color = fields.colour }, fields.colour) end
  if fields.offset ~= nil then
    if e ~= nil then M.place(self, "s:" .. key, e, fields.offset) end
    if label ~= nil then M.place(self, "l:" .. key, label, fields.offset) end
  end
end

-- Draws item `i` (`extra`: handed to `look`; `extra.focus` overrides whether it is focused).
-- Plays the `light` sound when it comes alight after its first draw.
function M:draw_item(i, extra, row)
  local state = M.state(self, i, extra)
  local item = state.item
  if item ~= nil then
    local was = self.lit[item.name]
    if state.lit and was == false then play(self.sounds.light) end
    self.lit[item.name] = state.lit and true or false
  end
  if self.look == nil then return end
  local fields = self.look(state)
  if fields == nil then return end
  if self.apply then
    self.apply(item, fields, row, self)
  else
    M.set_look(self, i, fields, row)
  end
end

-- Draws every item (every row, empty ones too, for a list); call every frame.
function M:update()
  if self.rows == nil then
    for i = 1, #self.items do M.draw_item(self, i) end
    return
  end
  M.scroll(self)
  for r = 1, self.rows.count do M.draw_item(self, self.top + r, nil, r) end
end

return M
