-- The game as it is kept: one value in the host's save store, written whole or not at all
-- (Save.set is atomic), holding the gold, the draughts, the party's looks, the dice, the party
-- as the fight keeps it, the crawl's own save, and where it was kept: at the inn, or at a
-- camp on the road or in a dungeon (never in a fight, nor with an event waiting). A save that cannot be played is said in
-- words and left as it is on disk; one the crawl refuses is set aside under another key.

local M = {}

M.SLOT = "saltmarch"
M.REFUSED = "saltmarch_refused"

function M.new(seed, looks)
  return { version = 1, rng = { s = seed }, gold = 120, draughts = 2, looks = looks, won = 0 }
end

local function whole(v, min)
  return math.type(v) == "integer" and v >= (min or 0)
end

-- Why a kept game cannot be played, or nil.
function M.problem(g)
  if type(g) ~= "table" then return "it is not a game" end
  if g.version ~= 1 then return "it is not version 1 of the game" end
  if not whole(g.gold) then return "its gold is not a whole number 0 or more" end
  if not whole(g.draughts) then return "its draughts are not a whole number 0 or more" end
  if not whole(g.won) then return "its fights won are not a whole number" end
  if type(g.rng) ~= "table" or not whole(g.rng.s) then return "its dice are missing" end
  if type(g.looks) ~= "table" or #g.looks ~= 6 then return "it does not say how six members look" end
  if type(g.party) ~= "table" or #g.party < 1 or #g.party > 6 then return "its party is not one to six members" end
  for i, m in ipairs(g.party) do
    if type(m) ~= "table" or type(m.name) ~= "string" then return "party member " .. i .. " has no name" end
    if math.type(m.hp) ~= "integer" or math.type(m.max_hp) ~= "integer" then
      return "party member " .. i .. "'s hit points are not whole numbers"
    end
  end
  if type(g.crawl) ~= "table" then return "it has no crawl" end
  if g.where ~= nil and g.where ~= "inn" and g.where ~= "camp" then
    return "it was kept neither at the inn nor at a camp"
  end
  return nil
end

-- The kept game, or nil and why not (nil, nil: nothing saved).
function M.slot()
  local problem = Save.problem()
  if problem then return nil, problem end
  local g = Save.get(M.SLOT)
  if g == nil then return nil, nil end
  local why = M.problem(g)
  if why then return nil, "the save cannot be played: " .. why end
  return g, nil
end

-- Keeps the game, kept `where` ("inn" or "camp"); false and why when the store refuses it
-- (what was kept stays).
function M.save(g, members, crawl, where)
  g.party = members
  g.crawl = crawl
  g.where = where
  local ok, err = pcall(Save.set, M.SLOT, g)
  if ok then return true end
  return false, tostring(err)
end

-- A kept game the crawl refused: copied aside, the slot itself left as it was.
function M.set_aside()
  local g = Save.get(M.SLOT)
  if g ~= nil and Save.get(M.REFUSED) == nil then pcall(Save.set, M.REFUSED, g) end
end

return M
