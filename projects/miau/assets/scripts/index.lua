-- INDEX: the packs on the left, the chosen pack's levels on the right with their solved
-- marks. Up and down choose, left and right move between the columns, Enter plays; the
-- Workshop is one key (W) or one click away. The choice is remembered for the way back.

local screen = import("ui/screen.lua")
local s = screen.new()

local PACK_ROWS, LEVEL_ROWS = 8, 12
local game
local column = 1
local pack_i, level_i = 1, 1
local pack_top, level_top = 0, 0
local catalog = {}
local pressed

function start(e)
  game = e
  local kept = Save.get("miau_index")
  if type(kept) == "table" then
    pack_i = tonumber(kept.pack) or 1
    level_i = tonumber(kept.level) or 1
    column = tonumber(kept.column) or 1
  end
end

local function remember()
  Save.set("miau_index", { pack = pack_i, level = level_i, column = column })
end

local function clamp()
  if #catalog == 0 then return end
  pack_i = math.max(1, math.min(pack_i, #catalog))
  local levels = catalog[pack_i].levels
  level_i = math.max(1, math.min(level_i, #levels))
  if pack_i <= pack_top then pack_top = pack_i - 1 end
  if pack_i > pack_top + PACK_ROWS then pack_top = pack_i - PACK_ROWS end
  if level_i <= level_top then level_top = level_i - 1 end
  if level_i > level_top + LEVEL_ROWS then level_top = level_i - LEVEL_ROWS end
end

local function play()
  local pack = catalog[pack_i]
  if pack == nil then return end
  local level = pack.levels[level_i]
  remember()
  Miau.play(game, pack.id, level and level.id or "")
  Scene.load("play")
end

local function workshop()
  remember()
  Save.set("miau_back", "index")
  Scene.load("workshop")
end

local function draw()
  for r = 1, PACK_ROWS do
    local p = catalog[pack_top + r]
    local label = ""
    if p ~= nil then
      label = string.format("%s   %d/%d", p.name, p.solved, #p.levels)
      if not p.built_in then label = label .. "   (installed)" end
    end
    s:text("pack_" .. r, label)
    local here = (pack_top + r == pack_i)
    s:tint("pack_row_" .. r, here and (column == 1 and screen.FOCUS or { 1, 1, 1, 0.08 }) or screen.NONE)
    s:colour("pack_" .. r, here and screen.GOLD or screen.WHITE)
  end
  local pack = catalog[pack_i]
  local levels = pack and pack.levels or {}
  for r = 1, LEVEL_ROWS do
    local l = levels[level_top + r]
    local label = ""
    if l ~= nil then
      label = string.format("%s  %2d. %s", l.solved and "✓" or "·", level_top + r, l.title)
    end
    s:text("level_" .. r, label)
    local here = (level_top + r == level_i)
    s:tint("level_row_" .. r, (here and column == 2) and screen.FOCUS or screen.NONE)
    s:colour("level_" .. r, (here and column == 2) and screen.GOLD or (l and l.solved and screen.DIM or screen.WHITE))
  end
  s:button("btn_workshop")
  s:button("btn_back")
  local more = #levels - level_top - LEVEL_ROWS
  s:text("more", more > 0 and string.format("%d more below", more) or "")
  s:text("levels_head", pack and ("Levels of " .. pack.name) or "Levels")
end

function update(e, dt)
  local bag = Entity.get(e, "Miau")
  if bag == nil then return end
  catalog = bag.catalog or {}
  clamp()
  draw()
end

function key(e, name, down)
  if not down then return end
  if name == "up" or name == "down" or name == "left" or name == "right" then screen.ticked() end
  if name == "up" then
    if column == 1 then pack_i = pack_i - 1; level_i = 1; level_top = 0 else level_i = level_i - 1 end
  elseif name == "down" then
    if column == 1 then pack_i = pack_i + 1; level_i = 1; level_top = 0 else level_i = level_i + 1 end
  elseif name == "right" then
    column = 2
  elseif name == "left" then
    column = 1
  elseif name == "enter" or name == "space" then
    screen.chosen()
    if column == 1 then column = 2 else play() end
  elseif name == "w" then
    workshop()
  elseif name == "escape" then
    remember()
    Scene.load("title")
  end
  clamp()
end

local function row_at(x, y)
  for r = 1, PACK_ROWS do
    if s:over("pack_row_" .. r, x, y) then return 1, pack_top + r end
  end
  for r = 1, LEVEL_ROWS do
    if s:over("level_row_" .. r, x, y) then return 2, level_top + r end
  end
  if s:over("btn_workshop", x, y) then return "workshop" end
  if s:over("btn_back", x, y) then return "back" end
  return nil
end

local BUTTONS = { "btn_workshop", "btn_back" }

function pointer(e, phase, x, y)
  -- Hover lights the buttons and a press sinks them; their clicks are taken below.
  s:buttons(BUTTONS, phase, x, y)
  if phase == "press" then
    local col, i = row_at(x, y)
    pressed = { col = col, i = i }
  elseif phase == "release" and pressed ~= nil then
    local col, i = row_at(x, y)
    local was = pressed
    pressed = nil
    if col ~= was.col or i ~= was.i then return end
    if col == "workshop" then workshop()
    elseif col == "back" then remember(); Scene.load("title")
    elseif col == 1 and catalog[i] ~= nil then
      if pack_i ~= i then level_i = 1; level_top = 0 end
      pack_i = i
      column = 2
    elseif col == 2 and catalog[pack_i] ~= nil and catalog[pack_i].levels[i] ~= nil then
      level_i = i
      column = 2
      play()
    end
    clamp()
  end
end
