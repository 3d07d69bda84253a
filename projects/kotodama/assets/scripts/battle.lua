-- A battle against a rival's bot: both fighters' life (bars that slide), score and combo, the
-- countdown ending in "go!", a stunned hand veiled, a pause menu, and the end with its reason.
-- When the battle is over the save is written at once and the results follow a moment later.
-- The rival comes from the save ("rival", set by the rival menu); the first one otherwise.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")
local play_input = import("flow/play_input.lua")
local pause = import("flow/pause.lua")
local record = import("flow/record.lua")
local word = import("flow/word.lua")
local banner = import("flow/banner.lua")

-- Seconds the ending shows before the results, before a press may skip it, and "go!" stays.
local END_WAIT = 2.6
local GO_TIME = 0.9
local AWAY = 100
local HAND = { 0, -3.65 }

local table_e
local rival_id
local side, p, input
local ended = nil
local leaving = false
local go_left = 0
local result = nil
local shown = {}

local function fighter_text(f)
  local lines = { "score " .. f.score .. "   words " .. f.words }
  if f.combo > 0 then lines[#lines + 1] = string.format("combo %d  ×%.2f", f.combo, f.multiplier) end
  if f.stun > 0 then lines[#lines + 1] = "stunned" end
  if f.best ~= nil then lines[#lines + 1] = "best  " .. f.best.written .. "  " .. f.best.points end
  return table.concat(lines, "\n")
end

-- Life bars slide towards the life left instead of jumping.
local function bar(name, f, dt)
  local target = 0
  if f.max_hp > 0 then target = f.hp / f.max_hp end
  local share = shown[name] or target
  share = share + (target - share) * math.min(1, dt * 8)
  if math.abs(share - target) < 0.002 then share = target end
  shown[name] = share
  local e = Entity.find(name)
  local t = Entity.get(e, "transform")
  local base = Entity.get(Entity.find(name .. "_back"), "transform")
  Entity.set(e, "sprite", { size = { 3.0 * share, 0.28 } })
  Entity.set(e, "transform", { pos = { base.pos[1] - 1.5 * (1 - share), t.pos[2] } })
end

local function results()
  if leaving then return end
  leaving = true
  Scene.load("results")
end

local function restart(e)
  ended, leaving, go_left, result, shown = nil, false, 0, nil, {}
  Kotoba.pause(e, false)
  Kotoba.battle(e, rival_id)
end

local function open_pause(e)
  if ended ~= nil then return end
  Kotoba.pause(e, true)
  p:open()
end

function start(e)
  sound.music("battle.wav")
  if Kotoba == nil then
    Log.warn("jengine-kotoba is not linked")
    return
  end
  table_e = e
  rival_id = record.pick(Save.get("rival"), "kotoba_rivals", "r01")
  Entity.set(Entity.find("rival_portrait"), "sprite", { texture = "portrait_" .. rival_id .. ".png" })
  side = menu.new({
    { button = "swap", on = function() Kotoba.swap(e) end },
    { button = "menu", on = function() open_pause(e) end },
  }, { focus = 0 })
  p = pause.new({
    resume = function() Kotoba.pause(e, false) end,
    restart = function() restart(e) end,
    back = function() Scene.load("rivals") end,
  })
  input = play_input.new({
    e = e,
    side = side,
    pause = p,
    hint = false,
    restart = restart,
    open_pause = open_pause,
    results = results,
    ended = function() return ended end,
  })
  Kotoba.battle(e, rival_id)
end

local function place(name, at)
  Entity.set(Entity.find(name), "transform", { pos = at })
end

function update(e, dt)
  if table_e == nil then return end
  local bag = Entity.get(e, "kotoba")
  if bag == nil or not bag.active or bag.fighters == nil then return end
  sound.events(bag)
  local you, rival = bag.fighters[1], bag.fighters[2]
  Text.set(Entity.find("you_name"), you.name)
  Text.set(Entity.find("rival_name"), rival.name)
  Text.set(Entity.find("you_life"), "life " .. you.hp .. " / " .. you.max_hp)
  Text.set(Entity.find("rival_life"), "life " .. rival.hp .. " / " .. rival.max_hp)
  Text.set(Entity.find("you_text"), fighter_text(you))
  Text.set(Entity.find("rival_text"), fighter_text(rival))
  bar("you_hp", you, dt)
  bar("rival_hp", rival, dt)
  Text.set(Entity.find("clock"), string.format("%d", math.ceil(bag.time_left or 0)))
  word.show("word", bag, bag.you)

  -- A stunned hand is veiled and says for how long.
  if you.stun > 0 and ended == nil then
    place("stun_veil", HAND)
    place("stun", HAND)
    Text.set(Entity.find("stun"), string.format("stunned  %.1fs", you.stun))
  else
    place("stun_veil", { HAND[1], HAND[2] + AWAY })
    place("stun", { HAND[1], HAND[2] + AWAY })
  end

  for _, ev in ipairs(bag.events) do
    if ev.kind == "countdown" and ev.n == 0 then go_left = GO_TIME end
    if ev.kind == "over" and ended == nil then
      result = record.battle(bag, ev)
      ended = 0
      p:close()
    end
  end
  local text, why, where = "", "", "end"
  if result ~= nil then
    text = ({ win = "you win", lose = "you lose", draw = "draw" })[result.outcome]
    why = result.why
  elseif bag.phase == "countdown" and (bag.countdown or 0) > 0 then
    text, where = tostring(bag.countdown), "count"
  elseif go_left > 0 then
    text, where = "go!", "count"
  end
  if go_left > 0 and not bag.paused then go_left = go_left - dt end
  banner.show(text, why, where)
  if ended ~= nil then
    ended = ended + dt
    if ended >= END_WAIT then results() end
  end
  side:update(dt)
  p:update(dt)
end

function pointer(e, phase, x, y)
  if table_e == nil then return end
  input:pointer(phase, x, y)
end

function key(e, name, down)
  if table_e == nil then return end
  input:key(name, down)
end
