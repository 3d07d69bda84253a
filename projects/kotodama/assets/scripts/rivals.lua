-- The rivals: a card for each, with its portrait, name, its line, its life and hand, and a
-- seal stamped on the ones already beaten (the save's "rivals_beaten"). Every rival can be
-- fought at any time. Choosing one: Save "rival", then the battle scene.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")
local focus = import("flow/focus.lua")

local SLOTS = 9
local AWAY = 100
local SEAL = { 1.0, 0.604, 0.478, 0.95 }
local CLEAR = { 0, 0, 0, 0 }

local list = nil
local m, f

local function slot(i, part)
  return Entity.find("rival_" .. i .. (part or ""))
end

local function fight(r)
  Save.set("rival", r.id)
  Scene.load("battle")
end

local function build(bag)
  local beaten = Save.get("rivals_beaten")
  if type(beaten) ~= "table" then beaten = {} end
  list = bag.rivals
  if #list > SLOTS then
    Log.warn(string.format("rivals: %d rivals, the scene shows the first %d", #list, SLOTS))
  end
  local items = {}
  local count = 0
  for i = 1, SLOTS do
    local r = list[i]
    if r == nil then
      for _, part in ipairs({ "", "_portrait", "_name", "_line", "_stats", "_seal", "_seal_text" }) do
        local e = slot(i, part)
        local t = Entity.get(e, "transform")
        Entity.set(e, "transform", { pos = { t.pos[1], t.pos[2] + AWAY } })
      end
    else
      local won = beaten[r.id] == true
      if won then count = count + 1 end
      Entity.set(slot(i, "_portrait"), "sprite", { texture = "portrait_" .. r.id .. ".png" })
      Text.set(slot(i, "_name"), r.name)
      Text.set(slot(i, "_line"), r.title)
      local stats = string.format("life %d   hand %d", r.life, r.hand)
      if won then stats = stats .. "   ·   beaten" end
      Text.set(slot(i, "_stats"), stats)
      Entity.set(slot(i, "_seal"), "sprite", { tint = won and SEAL or CLEAR })
      Text.set(slot(i, "_seal_text"), won and "勝" or "")
      items[#items + 1] = { button = "rival_" .. i, label = "rival_" .. i .. "_name", on = function() fight(r) end }
    end
  end
  local shown = math.min(#list, SLOTS)
  Text.set(Entity.find("progress"), string.format("beaten %d of %d", count, shown))
  return items
end

-- Where the focus starts: the rival last fought, else the first not yet beaten.
local function first_focus()
  local last = Save.get("rival")
  local beaten = Save.get("rivals_beaten")
  if type(beaten) ~= "table" then beaten = {} end
  for i = 1, math.min(#list, SLOTS) do
    if list[i].id == last then return i end
  end
  for i = 1, math.min(#list, SLOTS) do
    if beaten[list[i].id] ~= true then return i end
  end
  return 1
end

function update(e, dt)
  if m == nil then
    local bag = Entity.get(e, "kotoba")
    if bag == nil then return end
    local items = build(bag)
    m = menu.new(items, { columns = 3, back = function() Scene.load("title") end, focus = first_focus() })
    f = focus.new(m, "focus", { pad = 0.14 })
    f:refresh()
  end
  m:update(dt)
  f:update()
end

function pointer(e, phase, x, y)
  if m ~= nil then m:pointer(phase, x, y) end
end

function key(e, name, down)
  if m ~= nil then m:key(name, down) end
end

function start(e)
  sound.music("title.wav")
end
