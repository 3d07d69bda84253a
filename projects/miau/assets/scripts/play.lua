-- Play: the board (drawn by the package), the rules in force listed beside it, the moves,
-- the author's hint on request, and notes about loose words for authors. Arrows or WASD
-- move, Space waits, Z undoes, R restarts; a swipe of the pointer moves too. A win offers
-- the next level.

local screen = import("ui/screen.lua")
local s = screen.new()

local game
local RULES_TOP, NOTES_TOP = 3.0, -1.0
local show_hint = false
local bag
local press_at

function start(e)
  game = e
end

local function next_or_index()
  local p = bag and bag.playing
  if p ~= nil and p.next ~= nil then
    Miau.play(game, p.pack, p.next)
  else
    Scene.load("index")
  end
end

local function lines(list, fmt)
  local out = {}
  for i, item in ipairs(list) do out[#out + 1] = fmt(item, i) end
  return table.concat(out, "\n")
end

local function draw()
  local p = bag.playing
  if p == nil then
    s:text("level_title", "No level is being played.")
    s:text("won_help", "")
    return
  end
  s:text("level_title", string.format("%s  ·  %d/%d  %s", p.pack_name, p.number, p.count, p.title))
  s:text("moves", string.format("Moves %d", bag.moves))
  if #bag.rules == 0 then
    s:block("rules", "No rules: nothing is YOU.", RULES_TOP)
  else
    s:block("rules", lines(bag.rules, function(r) return r end), RULES_TOP)
  end
  if #bag.notes > 0 then
    s:text("notes_head", "Notes for the author")
    s:block("notes", screen.wrap(lines(bag.notes, function(n) return n.message end), 30), NOTES_TOP)
  else
    s:text("notes_head", "")
    s:block("notes", "", NOTES_TOP)
  end
  if show_hint then
    s:text("hint", p.hint or "This level has no hint.")
  else
    s:text("hint", p.hint and "H shows a hint." or "")
  end
  if bag.won then
    s:tint("won_panel", { 1, 1, 1, 1 })
    s:text("won_title", "Solved!")
    if p.next ~= nil then
      s:text("won_help", string.format("%d moves   Enter: next level   Esc: INDEX", bag.moves))
    else
      s:text("won_help", string.format("%d moves   The pack is done!   Enter: INDEX", bag.moves))
    end
  else
    s:tint("won_panel", screen.NONE)
    s:text("won_title", "")
    s:text("won_help", "")
  end
end

function update(e, dt)
  bag = Entity.get(e, "Miau")
  if bag == nil then return end
  draw()
end

function key(e, name, down)
  if not down or bag == nil then return end
  if bag.won and (name == "enter" or name == "space") then
    next_or_index()
    return
  end
  local move = screen.MOVES[name]
  if move ~= nil then
    Miau.move(e, move)
  elseif name == "z" or name == "backspace" then
    Miau.undo(e)
  elseif name == "r" then
    Miau.restart(e)
  elseif name == "h" then
    show_hint = not show_hint
  elseif name == "escape" then
    Scene.load("index")
  end
end

function pointer(e, phase, x, y)
  if phase == "press" then
    press_at = { x, y }
  elseif phase == "release" and press_at ~= nil then
    local dir = screen.swipe(press_at[1], press_at[2], x, y)
    press_at = nil
    if bag ~= nil and bag.won and dir == nil then
      next_or_index()
    elseif dir ~= nil then
      Miau.move(e, dir)
    end
  end
end
