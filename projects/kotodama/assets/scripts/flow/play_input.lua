-- A game table's input, the same in the puzzle and the battle. The pause menu, when open, takes
-- everything; a finished game waits a moment, then a tap or Enter shows the results; the side
-- buttons answer the pointer like any menu; everything else goes to the table: the pointer to
-- Kotoba.press/drag/release, arrows to the cursor, 1-9 to choose a tile, Space or Enter to
-- place, T to turn, S to swap, H for a hint (where there are hints), R to restart, P or Escape
-- to pause.

local M = {}
M.__index = M

local MOVES = { left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 } }

-- `o`: { e = the table entity, side = its side-button menu, pause = its pause menu,
-- hint = whether H asks for a hint, restart, open_pause, results = functions,
-- ended = a function giving the seconds since the game ended (nil while it goes on),
-- skip_after = seconds before a finished game can be skipped }.
function M.new(o)
  return setmetatable({ o = o, on_table = false }, M)
end

function M:finished()
  local ended = self.o.ended()
  if ended == nil then return nil end
  return ended >= (self.o.skip_after or 0.6)
end

function M:pointer(phase, x, y)
  local o = self.o
  if o.pause.is_open then
    o.pause:pointer(phase, x, y)
    return
  end
  local finished = self:finished()
  if finished ~= nil then
    if phase == "press" and finished then o.results() end
    return
  end
  local hit = o.side:pointer(phase, x, y)
  if hit == nil then o.side.focus = 0 end
  if phase == "press" then
    self.on_table = hit == nil
    if self.on_table then Kotoba.press(o.e, x, y) end
  elseif phase == "drag" then
    if self.on_table then Kotoba.drag(o.e, x, y) end
  elseif phase == "release" then
    if self.on_table then Kotoba.release(o.e, x, y) end
    self.on_table = false
  end
end

function M:key(name, down)
  local o = self.o
  if o.pause.is_open then
    o.pause:key(name, down)
    return
  end
  if not down then return end
  local finished = self:finished()
  if finished ~= nil then
    if (name == "enter" or name == "space") and finished then o.results() end
    return
  end
  local m = MOVES[name]
  if m then Kotoba.cursor(o.e, m[1], m[2]) return end
  local slot = tonumber(name)
  if slot ~= nil and slot >= 1 and slot <= 9 then Kotoba.select(o.e, slot) return end
  if name == "space" or name == "enter" then Kotoba.place(o.e)
  elseif name == "t" then Kotoba.turn(o.e)
  elseif name == "s" then Kotoba.swap(o.e)
  elseif name == "h" and o.hint then Kotoba.hint(o.e)
  elseif name == "r" then o.restart(o.e)
  elseif name == "p" or name == "escape" then o.open_pause(o.e)
  end
end

return M
