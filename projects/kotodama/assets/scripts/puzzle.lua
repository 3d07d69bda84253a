-- A puzzle stage: the board, the hand, the clock, swap, hint and a pause menu. When the stage
-- is cleared or fails, the save is written at once (stars, best, word book, the result) and
-- the results follow a moment later; a press or Enter goes on sooner.
-- The stage comes from the save ("stage", set by the stage menu); the first one otherwise.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")
local play_input = import("flow/play_input.lua")
local pause = import("flow/pause.lua")
local record = import("flow/record.lua")

-- Seconds the ending shows before the results, and before a press may skip it.
local END_WAIT = 2.4
local STAR_ON = { 0.941, 0.788, 0.416, 1 }
local STAR_OFF = { 0.44, 0.49, 0.68, 0.9 }
local CLEAR = { 0, 0, 0, 0 }

local table_e
local stage_id
local side, p, input
local ended = nil
local end_why = nil
local leaving = false
local shown_score = 0

local function clock(seconds)
  local s = math.max(0, math.ceil(seconds))
  return string.format("%d:%02d", s // 60, s % 60)
end

local function restart(e)
  ended, leaving, shown_score = nil, false, 0
  Kotoba.pause(e, false)
  Kotoba.puzzle(e, stage_id)
end

local function open_pause(e)
  if ended ~= nil then return end
  Kotoba.pause(e, true)
  p:open()
end

local function results()
  if leaving then return end
  leaving = true
  Scene.load("results")
end

function start(e)
  sound.music("puzzle.wav")
  if Kotoba == nil then
    Log.warn("jengine-kotoba is not linked")
    return
  end
  table_e = e
  stage_id = record.pick(Save.get("stage"), "kotoba_stages", "s01")
  side = menu.new({
    { button = "swap", on = function() Kotoba.swap(e) end },
    { button = "hint", on = function() Kotoba.hint(e) end },
    { button = "menu", on = function() open_pause(e) end },
  }, { focus = 0 })
  p = pause.new({
    resume = function() Kotoba.pause(e, false) end,
    restart = function() restart(e) end,
    back = function() Scene.load("stages") end,
  })
  input = play_input.new({
    e = e,
    side = side,
    pause = p,
    hint = true,
    restart = restart,
    open_pause = open_pause,
    results = results,
    ended = function() return ended end,
  })
  Kotoba.puzzle(e, stage_id)
end

-- The score counts up to its value rather than jumping.
local function count_up(target, dt)
  if shown_score >= target then
    shown_score = target
  else
    shown_score = math.min(target, shown_score + math.max(1, math.ceil((target - shown_score) * dt * 8)))
  end
  return shown_score
end

-- What the banner says once the stage is over, and why.
local function ending_banner(bag)
  if bag.phase == "cleared" then return "cleared!", "" end
  if end_why == "stuck" then return "stuck", "no cell was left where a tile could go" end
  return "time's up", "the clock ran out"
end

function update(e, dt)
  if table_e == nil then return end
  local bag = Entity.get(e, "kotoba")
  if bag == nil or not bag.active then return end
  sound.events(bag)
  Text.set(Entity.find("stage"), bag.stage_name or "")
  Text.set(Entity.find("title"), bag.stage_title or "")
  Text.set(Entity.find("time"), clock(bag.time_left or 0))
  Text.set(Entity.find("score"), "score " .. count_up(bag.score or 0, dt))
  Text.set(Entity.find("stock"), "tiles left " .. (bag.tiles_left or 0))
  local last = bag.made[#bag.made]
  if last ~= nil then
    Text.set(Entity.find("word"), last.written .. "  " .. last.reading .. "\n" .. last.meaning)
  else
    Text.set(Entity.find("word"), "")
  end
  for _, ev in ipairs(bag.events) do
    if (ev.kind == "cleared" or ev.kind == "failed") and ended == nil then
      record.puzzle(bag, ev)
      ended, end_why = 0, ev.why
      p:close()
    end
  end
  local banner, why = "", ""
  if bag.phase == "cleared" or bag.phase == "failed" then
    banner, why = ending_banner(bag)
  end
  -- A clear shows its stars under the banner: gold for each earned.
  for k = 1, 3 do
    local tint = CLEAR
    if bag.phase == "cleared" then tint = k <= (bag.stars or 0) and STAR_ON or STAR_OFF end
    Entity.set(Entity.find("banner_star" .. k), "sprite", { tint = tint })
  end
  Text.set(Entity.find("banner"), banner)
  Text.set(Entity.find("banner_why"), why)
  Entity.set(Entity.find("banner_back"), "sprite", { tint = { 1, 1, 1, banner ~= "" and 1 or 0 } })
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
