-- The game in one table, kept in the save store between scenes: the party, its gold and pack,
-- the town's doings, the dice, and the crawl's own save (floors remembered, the automap's
-- `seen`). `live` is the game being played; the inn writes it whole into `slot`, which the
-- title loads. Each is one `Save` value, written atomically.

local dice = import("rules/dice.lua")

local M = {}

M.LIVE = "stairs_live"
M.SLOT = "stairs_slot"

function M.new(seed)
  return {
    version = 1,
    party = {},
    gold = 150,
    pack = { ["healing potion"] = 4 },
    rng = dice.new(seed or 7),
    crawl = nil,
    town = { rests = 0, raised = 0, bought = 0 },
    deepest = 0,
    fights = { won = 0, fled = 0 },
    won = false,
  }
end

function M.load()
  local live = Save.get(M.LIVE)
  if type(live) == "table" and live.version == 1 then return live end
  return nil
end

function M.keep(live)
  Save.set(M.LIVE, live)
end

-- The inn's save: the whole game, one slot.
function M.save_slot(live)
  Save.set(M.SLOT, live)
end

function M.slot()
  local s = Save.get(M.SLOT)
  if type(s) == "table" and s.version == 1 then return s end
  return nil
end

-- Items in the pack: `take` removes one (false when there is none), `give` adds.
function M.take(live, id)
  local n = live.pack[id] or 0
  if n <= 0 then return false end
  if n == 1 then live.pack[id] = nil else live.pack[id] = n - 1 end
  return true
end

function M.give(live, id, n)
  live.pack[id] = (live.pack[id] or 0) + (n or 1)
end

return M
