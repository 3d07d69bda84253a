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

-- Why a saved game cannot be played, or nil when it can: the shape every scene relies on.
function M.problem(g)
  if type(g) ~= "table" then return "it is not a game" end
  if g.version ~= 1 then return "it is not version 1" end
  if math.type(g.gold) ~= "integer" or g.gold < 0 then return "its gold is not a whole number" end
  if type(g.pack) ~= "table" then return "it has no pack" end
  for id, n in pairs(g.pack) do
    if type(id) ~= "string" or math.type(n) ~= "integer" or n < 1 then return "its pack holds " .. tostring(id) end
  end
  if type(g.rng) ~= "table" or math.type(g.rng.s) ~= "integer" then return "its dice are missing" end
  if type(g.party) ~= "table" or #g.party > 6 then return "its party is not a list of at most six" end
  for i, m in ipairs(g.party) do
    if type(m) ~= "table" or type(m.name) ~= "string" or type(m.class) ~= "string" then
      return "party member " .. i .. " has no name or class"
    end
    for _, k in ipairs({ "level", "xp", "hp", "max_hp", "sp", "max_sp", "agility", "strength" }) do
      if math.type(m[k]) ~= "integer" then return "party member " .. i .. "'s " .. k .. " is not a whole number" end
    end
  end
  if g.crawl ~= nil and type(g.crawl) ~= "table" then return "its crawl is not a save" end
  if type(g.town) ~= "table" or type(g.fights) ~= "table" then return "its town or fights are missing" end
  return nil
end

function M.load()
  local live = Save.get(M.LIVE)
  if M.problem(live) == nil then return live end
  return nil
end

function M.keep(live)
  Save.set(M.LIVE, live)
end

-- The inn's save: the whole game, one slot.
function M.save_slot(live)
  Save.set(M.SLOT, live)
end

-- The inn's save, and why it cannot be played when it cannot (nil, nil: none saved).
function M.slot()
  local s = Save.get(M.SLOT)
  if s == nil then return nil, nil end
  local why = M.problem(s)
  if why then return nil, why end
  return s, nil
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
