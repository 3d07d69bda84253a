-- A battle against a rival's bot: both fighters' life, score and combo, the countdown, the end.
-- The rival comes from the save ("rival", set by the rival menu); the first one otherwise.

local table_e
local why_words = { ko = "knockout", time = "time", full = "the board is full" }

local function fighter_text(f)
  local lines = { "score " .. f.score, "words " .. f.words }
  if f.combo > 0 then lines[#lines + 1] = string.format("combo %d  x%.2f", f.combo, f.multiplier) end
  if f.stun > 0 then lines[#lines + 1] = "stunned" end
  return table.concat(lines, "\n")
end

local function bar(name, f)
  local share = 0
  if f.max_hp > 0 then share = f.hp / f.max_hp end
  local e = Entity.find(name)
  local t = Entity.get(e, "transform")
  local base = Entity.get(Entity.find(name .. "_back"), "transform")
  Entity.set(e, "sprite", { size = { 3.0 * share, 0.28 } })
  Entity.set(e, "transform", { pos = { base.pos[1] - 1.5 * (1 - share), t.pos[2] } })
end

function start(e)
  if Kotoba == nil then
    Log.warn("jengine-kotoba is not linked")
    return
  end
  table_e = e
  Kotoba.battle(e, Save.get("rival") or "r01")
end

function update(e, dt)
  local bag = Entity.get(e, "kotoba")
  if bag == nil or not bag.active or bag.fighters == nil then return end
  local you, rival = bag.fighters[1], bag.fighters[2]
  Text.set(Entity.find("you_name"), you.name .. "  " .. you.hp .. "/" .. you.max_hp)
  Text.set(Entity.find("rival_name"), rival.name .. "  " .. rival.hp .. "/" .. rival.max_hp)
  Text.set(Entity.find("you_text"), fighter_text(you))
  Text.set(Entity.find("rival_text"), fighter_text(rival))
  bar("you_hp", you)
  bar("rival_hp", rival)
  Text.set(Entity.find("clock"), string.format("%d", math.ceil(bag.time_left or 0)))
  local banner = ""
  if bag.paused then banner = "paused"
  elseif bag.phase == "countdown" then banner = tostring(bag.countdown)
  elseif bag.phase == "over" then
    local why = ""
    for _, ev in ipairs(bag.events) do
      if ev.kind == "over" then
        Save.set("last_battle", { rival = bag.rival, winner = ev.winner, why = ev.why })
      end
    end
    if bag.winner == bag.you then banner = "you win"
    elseif bag.winner == -1 then banner = "draw"
    else banner = "you lose" end
  end
  for _, ev in ipairs(bag.events) do
    if ev.kind == "countdown" and ev.n == 0 then banner = "go!" end
  end
  Text.set(Entity.find("banner"), banner)
end

function pointer(e, phase, x, y)
  if table_e == nil then return end
  if phase == "press" then Kotoba.press(e, x, y)
  elseif phase == "drag" then Kotoba.drag(e, x, y)
  elseif phase == "release" then Kotoba.release(e, x, y) end
end

local moves = { left = {-1, 0}, right = {1, 0}, up = {0, -1}, down = {0, 1} }
local paused = false

function key(e, name, down)
  if not down or table_e == nil then return end
  local m = moves[name]
  if m then Kotoba.cursor(e, m[1], m[2]) return end
  local slot = tonumber(name)
  if slot ~= nil and slot >= 1 and slot <= 9 then Kotoba.select(e, slot) return end
  if name == "space" or name == "enter" then Kotoba.place(e)
  elseif name == "t" then Kotoba.turn(e)
  elseif name == "s" then Kotoba.swap(e)
  elseif name == "r" then Kotoba.battle(e, Save.get("rival") or "r01")
  elseif name == "p" or name == "escape" then
    paused = not paused
    Kotoba.pause(e, paused)
  end
end
