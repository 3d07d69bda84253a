-- A puzzle stage: the board, the hand, the clock, swap and hint, pause.
-- The stage comes from the save ("stage", set by the stage menu); the first one otherwise.

local table_e
local buttons = {}
local paused = false

local function inside(name, x, y)
  local b = buttons[name]
  if b == nil then return false end
  local t = Entity.get(b, "transform")
  local s = Entity.get(b, "sprite")
  return math.abs(x - t.pos[1]) <= s.size[1] / 2 and math.abs(y - t.pos[2]) <= s.size[2] / 2
end

function start(e)
  if Kotoba == nil then
    Log.warn("jengine-kotoba is not linked")
    return
  end
  table_e = e
  buttons.swap = Entity.find("swap")
  buttons.hint = Entity.find("hint")
  Kotoba.puzzle(e, Save.get("stage") or "s01")
end

local function clock(seconds)
  local s = math.max(0, math.ceil(seconds))
  return string.format("%d:%02d", s // 60, s % 60)
end

function update(e, dt)
  local bag = Entity.get(e, "kotoba")
  if bag == nil or not bag.active then return end
  Text.set(Entity.find("stage"), bag.stage_name or "")
  Text.set(Entity.find("title"), bag.stage_title or "")
  Text.set(Entity.find("time"), clock(bag.time_left or 0))
  Text.set(Entity.find("score"), "score " .. (bag.score or 0))
  Text.set(Entity.find("stock"), "tiles left " .. (bag.tiles_left or 0))
  local last = bag.made[#bag.made]
  if last ~= nil then
    Text.set(Entity.find("word"), last.written .. "  " .. last.reading .. "\n" .. last.meaning)
  end
  local banner = ""
  if bag.paused then banner = "paused"
  elseif bag.phase == "cleared" then banner = "cleared!  " .. string.rep("★", bag.stars or 0)
  elseif bag.phase == "failed" then banner = "time's up" end
  Text.set(Entity.find("banner"), banner)
  for _, ev in ipairs(bag.events) do
    if ev.kind == "cleared" then
      Save.set("cleared_" .. bag.stage, { score = ev.score, bonus = ev.bonus, stars = bag.stars })
    end
  end
end

function pointer(e, phase, x, y)
  if table_e == nil then return end
  if phase == "press" and inside("swap", x, y) then Kotoba.swap(e) return end
  if phase == "press" and inside("hint", x, y) then Kotoba.hint(e) return end
  if phase == "press" then Kotoba.press(e, x, y)
  elseif phase == "drag" then Kotoba.drag(e, x, y)
  elseif phase == "release" then Kotoba.release(e, x, y) end
end

local moves = { left = {-1, 0}, right = {1, 0}, up = {0, -1}, down = {0, 1} }

function key(e, name, down)
  if not down or table_e == nil then return end
  local m = moves[name]
  if m then Kotoba.cursor(e, m[1], m[2]) return end
  local slot = tonumber(name)
  if slot ~= nil and slot >= 1 and slot <= 9 then Kotoba.select(e, slot) return end
  if name == "space" or name == "enter" then Kotoba.place(e)
  elseif name == "t" then Kotoba.turn(e)
  elseif name == "s" then Kotoba.swap(e)
  elseif name == "h" then Kotoba.hint(e)
  elseif name == "r" then Kotoba.puzzle(e, Save.get("stage") or "s01")
  elseif name == "p" or name == "escape" then
    paused = not paused
    Kotoba.pause(e, paused)
  end
end
