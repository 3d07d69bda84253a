-- The stage grid: every stage with its name, its stars and its best score (the save's
-- "stages"). A stage opens when the one before it is cleared; the first is always open. A
-- locked stage shows a lock, cannot be chosen, and says what opens it. Choosing an open one
-- plays it: Save "stage", then the puzzle scene.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")
local focus = import("flow/focus.lua")

-- Slots the scene has (stage_1 .. stage_30), and stages the grid leaves out: the how-to's
-- lesson board is played from the how-to, not chosen here.
local SLOTS = 30
local HIDDEN = { lesson = true }
local AWAY = 100

local STAR_ON = { 0.941, 0.788, 0.416, 1 }
local STAR_OFF = { 0.44, 0.49, 0.68, 0.9 }
local LOCK = { 0.79, 0.75, 0.68, 1 }
local CLEAR = { 0, 0, 0, 0 }

local list = nil
local m, f
local pressed = nil
local shaking = 0
local shake_at = nil
local described = nil

local function clock(seconds)
  local s = math.max(0, math.ceil(seconds))
  return string.format("%d:%02d", s // 60, s % 60)
end

local function slot(i, part)
  return Entity.find("stage_" .. i .. (part or ""))
end

local function saved_stages()
  local saved = Save.get("stages")
  if type(saved) ~= "table" then return {} end
  return saved
end

local function record_of(saved, id)
  local r = saved[id]
  if type(r) ~= "table" then return nil end
  local best = tonumber(r.best) or 0
  if best ~= best then best = 0 end
  return {
    stars = math.max(0, math.min(3, math.floor(tonumber(r.stars) or 0))),
    best = math.tointeger(math.floor(math.max(0, math.min(best, 999999)))),
  }
end

local function play(s)
  Save.set("stage", s.id)
  Scene.load("puzzle")
end

-- Fills the grid from the bag's stage list and the save; returns the menu items.
local function build(bag)
  local saved = saved_stages()
  list = {}
  for _, s in ipairs(bag.stages) do
    if not HIDDEN[s.id] then list[#list + 1] = s end
  end
  if #list > SLOTS then
    Log.warn(string.format("stages: %d stages, the grid shows the first %d", #list, SLOTS))
  end
  local items = {}
  local cleared, stars = 0, 0
  for i = 1, SLOTS do
    local s = list[i]
    local name = "stage_" .. i
    if s == nil then
      for _, part in ipairs({ "", "_num", "_name", "_star1", "_star2", "_star3", "_best", "_lock" }) do
        local e = slot(i, part)
        local t = Entity.get(e, "transform")
        Entity.set(e, "transform", { pos = { t.pos[1], t.pos[2] + AWAY } })
      end
    else
      s.record = record_of(saved, s.id)
      s.open = i == 1 or (i <= #list and record_of(saved, list[i - 1].id) ~= nil)
      if s.record ~= nil then
        cleared = cleared + 1
        stars = stars + s.record.stars
      end
      Text.set(slot(i, "_num"), tostring(i))
      Text.set(slot(i, "_name"), s.name)
      for k = 1, 3 do
        local tint = CLEAR
        if s.open then tint = (s.record ~= nil and s.record.stars >= k) and STAR_ON or STAR_OFF end
        Entity.set(slot(i, "_star" .. k), "sprite", { tint = tint })
      end
      Text.set(slot(i, "_best"), (s.open and s.record ~= nil) and tostring(s.record.best) or "")
      Entity.set(slot(i, "_lock"), "sprite", { tint = s.open and CLEAR or LOCK })
      items[#items + 1] = { button = name, label = name .. "_name", enabled = s.open, on = function() play(s) end }
    end
  end
  local shown = math.min(#list, SLOTS)
  Text.set(Entity.find("progress"), string.format("cleared %d of %d   ·   stars %d of %d", cleared, shown, stars, shown * 3))
  return items
end

-- Where the focus starts: the stage last played (or the one it just opened), else the first
-- open stage not yet cleared.
local function first_focus()
  local last = Save.get("stage")
  local n = math.min(#list, SLOTS)
  for i = 1, n do
    if list[i].id == last and list[i].open then
      local after = list[i + 1]
      if i < n and list[i].record ~= nil and after.open and after.record == nil then return i + 1 end
      return i
    end
  end
  for i = 1, math.min(#list, SLOTS) do
    if list[i].open and list[i].record == nil then return i end
  end
  return 1
end

-- The line under the grid: the focused stage's name, its line, and what it takes.
local function describe(i)
  local s = list[i]
  if s == nil then return end
  Text.set(Entity.find("detail_name"), s.name .. "   " .. s.title)
  local line
  if not s.open then
    line = "locked: clear the one before to open it"
  else
    line = string.format("%s on the clock   ·   stars at %d, %d and %d points", clock(s.time), s.stars[1], s.stars[2], s.stars[3])
    if s.record ~= nil then line = line .. "   ·   best " .. s.record.best end
  end
  Text.set(Entity.find("detail_line"), line)
  Entity.set(Entity.find("detail_line"), "text", { color = s.open and focus.MUTED or focus.CORAL })
  described = i
end

-- A locked stage chosen: its lock shakes and the line says why, at once.
local function refuse(i)
  describe(i)
  Entity.set(Entity.find("detail_line"), "text", { color = focus.IVORY })
  shaking, shake_at = 0.45, i
end

function update(e, dt)
  if m == nil then
    local bag = Entity.get(e, "kotoba")
    if bag == nil then return end
    local items = build(bag)
    m = menu.new(items, { columns = 6, back = function() Scene.load("title") end, focus = first_focus() })
    f = focus.new(m, "focus", {
      pad = 0.14,
      rest = function(i) return list[i].open and focus.IVORY or focus.DIM end,
    })
    f:refresh()
  end
  m:update(dt)
  f:update()
  if described ~= m.focus then describe(m.focus) end
  if shake_at ~= nil then
    shaking = math.max(0, shaking - dt)
    local lock = slot(shake_at, "_lock")
    local swing = 0
    if shaking > 0 then swing = 0.35 * math.sin(shaking * 40) * shaking / 0.45 end
    Entity.set(lock, "transform", { rot = swing })
    if shaking == 0 then
      Entity.set(Entity.find("detail_line"), "text", { color = focus.CORAL })
      shake_at = nil
    end
  end
end

function pointer(e, phase, x, y)
  if m == nil then return end
  local hit = m:pointer(phase, x, y)
  if phase == "press" then
    pressed = hit
  elseif phase == "release" then
    if hit ~= nil and hit == pressed and not m.items[hit].enabled then refuse(hit) end
    pressed = nil
  end
end

function key(e, name, down)
  if m == nil then return end
  local chose = m:key(name, down)
  if down and (name == "enter" or name == "space") and not chose then
    if m.items[m.focus] ~= nil and not m.items[m.focus].enabled then refuse(m.focus) end
  end
end

function start(e)
  sound.music("title.wav")
end
