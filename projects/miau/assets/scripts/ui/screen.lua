-- What every Miau screen does with its entities: find them by name, change a text or a tint
-- only when it differs (so a quiet frame queues nothing), and tell whether a point is over one.
--
--   local screen = import("ui/screen.lua")
--   local s = screen.new()
--   s:text("moves", "Moves: 3")
--   if s:over("btn_play", x, y) then ... end
--
-- Buttons are a sprite `name` with its text `name .. "_label"`, followed by the engine's shared
-- menu (jengine/menu.lua): `s:buttons(names, phase, x, y)` follows the pointer over them (a
-- release on the button pressed is a click, returned by name) and `s:button(name, focused)`
-- draws one lit on hover or focus, sunk while pressed; `s:menu(items, options)` makes the
-- screen's buttons a menu with a keyboard focus. A button coming alight (the focus or the
-- pointer arriving) ticks (`menu_move.wav`) and a click chimes (`menu_select.wav`);
-- `screen.chosen()` chimes for a choice made by key.

local menu = import("jengine/menu.lua")

local M = {}
M.__index = M

function M.new()
  return setmetatable({ entities = {}, texts = {}, tints = {}, colours = {}, homes = {}, shifts = {} }, M)
end

function M:find(name)
  local e = self.entities[name]
  if e == nil then
    e = Entity.find(name)
    if e == nil then error("no entity named " .. tostring(name), 2) end
    self.entities[name] = e
  end
  return e
end

function M:text(name, t)
  if self.texts[name] ~= t then
    self.texts[name] = t
    Text.set(self:find(name), t)
  end
end

-- Sets a block of lines whose first line starts at height `top`: text is centred on its
-- position, so the block is moved down by half its height.
function M:block(name, t, top)
  if self.texts[name] == t then return end
  self:text(name, t)
  local e = self:find(name)
  local tr = Entity.get(e, "transform")
  local size = Entity.get(e, "text").size
  local lines = 1
  for _ in t:gmatch("\n") do lines = lines + 1 end
  Entity.set(e, "transform", { pos = { tr.pos[1], top - (lines - 1) * size / 2 } })
end

-- Breaks `t` into lines of at most `width` characters at spaces (a longer word gets a line
-- of its own), keeping the breaks already there.
function M.wrap(t, width)
  local out = {}
  for para in (t .. "\n"):gmatch("(.-)\n") do
    local line = ""
    for word in para:gmatch("%S+") do
      if line == "" then
        line = word
      elseif utf8.len(line) + 1 + utf8.len(word) <= width then
        line = line .. " " .. word
      else
        out[#out + 1] = line
        line = word
      end
    end
    out[#out + 1] = line
  end
  return table.concat(out, "\n")
end

local function key_of(c)
  return string.format("%.3f %.3f %.3f %.3f", c[1], c[2], c[3], c[4] or 1)
end

function M:tint(name, c)
  local k = key_of(c)
  if self.tints[name] ~= k then
    self.tints[name] = k
    Entity.set(self:find(name), "sprite", { tint = c })
  end
end

function M:colour(name, c)
  local k = key_of(c)
  if self.colours[name] ~= k then
    self.colours[name] = k
    Entity.set(self:find(name), "text", { color = c })
  end
end

-- Whether world point (x, y) is inside the sprite of entity `name`.
function M:over(name, x, y)
  local e = self:find(name)
  local t = Entity.get(e, "transform")
  local s = Entity.get(e, "sprite")
  if t == nil or s == nil then return false end
  return math.abs(x - t.pos[1]) <= s.size[1] / 2 and math.abs(y - t.pos[2]) <= s.size[2] / 2
end

-- Moves entity `name` by (dx, dy) from where the scene put it.
function M:offset(name, dx, dy)
  local k = string.format("%.4f %.4f", dx, dy)
  if self.shifts[name] == k then return end
  local e = self:find(name)
  local home = self.homes[name]
  if home == nil then
    local pos = Entity.get(e, "transform").pos
    home = { pos[1], pos[2] }
    self.homes[name] = home
  end
  self.shifts[name] = k
  Entity.set(e, "transform", { pos = { home[1] + dx, home[2] + dy } })
end

-- The sounds of Miau's buttons: a tick as one comes alight, a chime when one is chosen.
local SOUNDS = {
  light = { "menu_move.wav", volume = 0.45 },
  choose = { "menu_select.wav", volume = 0.6 },
}

-- How a button looks: lit on hover or focus, darker and sunk a couple of pixels while the
-- pointer is down on it, moved along by `dx` when `s:button` is given one.
local function look(st)
  local dx = st.extra and st.extra.dx or 0
  return {
    tint = st.down and M.BUTTON_DOWN or (st.lit and M.BUTTON_LIT or M.BUTTON),
    colour = st.lit and M.GOLD or M.WHITE,
    offset = { dx, st.down and -M.SINK or 0 },
  }
end

-- The screen's shared menu over its buttons; its looks are set through the screen's own
-- caches, so a button the screen also tints itself (hidden, say) is never out of step.
function M:menu(items, options)
  options = options or {}
  local s = self
  self.menu_of = menu.new(items or {}, {
    focus = options.focus or 0,
    columns = options.columns,
    wrap = options.wrap,
    keys = options.keys or {},
    back = options.back,
    hit = "last",
    sounds = SOUNDS,
    look = look,
    apply = function(item, f)
      s:tint(item.name, f.tint)
      s:colour(item.name .. "_label", f.colour)
      s:offset(item.name, f.offset[1], f.offset[2])
      s:offset(item.name .. "_label", f.offset[1], f.offset[2])
    end,
  })
  return self.menu_of
end

local function buttons_menu(self)
  return self.menu_of or self:menu()
end

-- Follows the pointer over the buttons `names`: which one it is over (`self.hover`) and which
-- one it went down on (`self.down`). Returns the name of a button released on after being
-- pressed on (a click), else nil.
function M:buttons(names, phase, x, y)
  local m = buttons_menu(self)
  local clicked
  local items = {}
  for i, n in ipairs(names) do
    items[i] = { button = n, on = function() clicked = n end }
  end
  m:set(items, true)
  m:pointer(phase, x, y)
  self.hover = m.hover and m.items[m.hover].name
  self.down = m.pressed and m.items[m.pressed].name
  return clicked
end

-- The menu sounds, quiet under the music.
function M.ticked()
  Audio.play("menu_move.wav", { volume = 0.45 })
end

function M.chosen()
  Audio.play("menu_select.wav", { volume = 0.6 })
end

-- Miau's one music loop (`play.wav`, 100 bpm), quiet; asking again lets it play on.
function M.music()
  Audio.music("play.wav", { loop = true, volume = 0.45, fade = 1.0, bpm = 100 })
end

-- Draws button `name`: lit when the pointer is over it or it has the focus, darker and sunk
-- a couple of pixels while the pointer is down on it; `dx` moves it along from its place.
function M:button(name, focused, dx)
  local m = buttons_menu(self)
  local i = m:find(name) or m:add({ button = name })
  m:draw_item(i, { focus = focused and true or false, dx = dx })
end

-- Text boxes (a text with a `height` in the scene): what the host found when it last laid
-- box `name` out (lines, rows, first, shown, hidden, max_scroll, focused), nil before then.
function M:layout(name)
  return Entity.get(self:find(name), "text_layout")
end

-- Scrolls box `name` to line `to` (0 is the top), kept in range.
function M:scroll_to(name, to)
  local l = self:layout(name)
  local most = l and l.max_scroll or 0
  Entity.set(self:find(name), "text", { scroll = math.max(0, math.min(to, most)) })
end

-- Page Up, Page Down, Home and End for scroll box `name`, from the keyboard alone. When the
-- pointer rests on the box the host scrolls it by these keys itself, so this leaves it be.
-- Returns whether the key was one of them.
function M:page_key(name, key)
  local pages = { pageup = -1, pagedown = 1 }
  if pages[key] == nil and key ~= "home" and key ~= "end" then return false end
  local l = self:layout(name)
  if l == nil or l.focused then return true end
  if key == "home" then
    self:scroll_to(name, 0)
  elseif key == "end" then
    self:scroll_to(name, l.max_scroll)
  else
    self:scroll_to(name, l.first + pages[key] * math.max(l.rows - 1, 1))
  end
  return true
end

-- Sets text `label` to where box `name` is scrolled ("Lines 4-21 of 40 ..."), or empty when
-- all of it shows.
function M:scroll_label(name, label)
  local l = self:layout(name)
  if l == nil or l.hidden == 0 then
    self:text(label, "")
  else
    self:text(label, string.format("Lines %d-%d of %d   Page Up/Down or the wheel",
      l.first + 1, l.first + l.shown, l.lines))
  end
end

-- A note about a pack, whole: the word (with how many times it was said), what it means,
-- the sentence it stands in and the detail for the author. `level` adds the level's title.
function M.note_text(n, level)
  local head = n.word
  if n.count ~= nil and n.count > 1 then head = string.format("%s  ×%d", head, n.count) end
  if level and n.level_title ~= nil and n.level_title ~= "" then
    head = string.format("%s  (%s)", head, n.level_title)
  end
  local out = { head .. ": " .. n.message }
  if n.sentence ~= nil then out[#out + 1] = string.format("In the sentence %s.", n.sentence) end
  if n.detail ~= nil and n.detail ~= "" then out[#out + 1] = n.detail end
  return table.concat(out, "\n")
end

-- Colours shared by the screens.
M.WHITE = { 0.94, 0.94, 0.97, 1 }
M.DIM = { 0.62, 0.64, 0.74, 1 }
M.PINK = { 1.0, 0.44, 0.68, 1 }
M.BLUE = { 0.27, 0.85, 1.0, 1 }
M.GOLD = { 1.0, 0.86, 0.35, 1 }
M.RED = { 1.0, 0.45, 0.45, 1 }
M.FOCUS = { 0.27, 0.85, 1.0, 0.28 }
M.NONE = { 1, 1, 1, 0 }
M.BUTTON = { 0.3, 0.32, 0.45, 1 }
M.BUTTON_LIT = { 0.45, 0.5, 0.75, 1 }
M.BUTTON_DOWN = { 0.2, 0.22, 0.34, 1 }
-- How far a pressed button sinks, in world units (2 px at 1280x720).
M.SINK = 0.025

-- The direction of a swipe from (x0, y0) to (x1, y1), or nil for a tap.
function M.swipe(x0, y0, x1, y1)
  local dx, dy = x1 - x0, y1 - y0
  if math.abs(dx) < 0.4 and math.abs(dy) < 0.4 then return nil end
  if math.abs(dx) >= math.abs(dy) then
    return dx > 0 and "right" or "left"
  end
  return dy > 0 and "up" or "down"
end

-- Keys that move on the board, by key name.
M.MOVES = {
  up = "up", w = "up", down = "down", s = "down",
  left = "left", a = "left", right = "right", d = "right", space = "wait",
}

return M
