-- What the floors' traps and pits do to the party, by the names the levels table gives them.
-- Plain rules, so the crawl and the balance run spring the same traps.
--
--   local traps = import("rules/traps.lua")
--   local said = traps.spring(rng, party, "a poison needle")   -- the lines to tell

local dice = import("rules/dice.lua")
local party_rules = import("rules/party.lua")

local M = {}

local function living(party)
  local list = {}
  for i, p in ipairs(party) do
    if party_rules.alive(p) then list[#list + 1] = i end
  end
  return list
end

local SPRING = {
  ["a poison needle"] = function(rng, party)
    local list = living(party)
    if #list == 0 then return {} end
    local p = party[dice.pick(rng, list)]
    party_rules.hurt(p, dice.int(rng, 1, 3))
    if party_rules.alive(p) then p.status = "poisoned" end
    return { p.name .. " is pricked by a poison needle!" }
  end,
  ["a spray of needles"] = function(rng, party)
    for _, p in ipairs(party) do
      if party_rules.alive(p) then party_rules.hurt(p, dice.int(rng, 1, 3)) end
    end
    return { "A spray of needles stings the whole party!" }
  end,
  ["a gout of flame"] = function(rng, party)
    for i = 1, party_rules.FRONT do
      local p = party[i]
      if p and party_rules.alive(p) then party_rules.hurt(p, dice.int(rng, 2, 6)) end
    end
    return { "A gout of flame scorches the front rank!" }
  end,
}

-- Springs the trap `name` on the party; returns the lines to tell. A trap the game does not
-- know is only told.
function M.spring(rng, party, name)
  local f = SPRING[name]
  if f == nil then return { "A trap: " .. tostring(name) .. "." } end
  return f(rng, party)
end

-- The party falls through a pit: each living member is hurt 1 to 4.
function M.fall(rng, party)
  for _, p in ipairs(party) do
    if party_rules.alive(p) then party_rules.hurt(p, dice.int(rng, 1, 4)) end
  end
  return { "The floor gives way: the party falls!" }
end

return M
