-- The game's own chance: a 32-bit xorshift stream whose state is one plain integer kept in the
-- game's state (and so in the save), so a saved game rolls exactly as it would have.
--
--   local dice = import("rules/dice.lua")
--   local rng = dice.new(7)
--   dice.int(rng, 1, 6); dice.range(rng, {2, 8}); dice.chance(rng, 0.25)

local M = {}

local MASK = 0xffffffff

function M.new(seed)
  local s = math.tointeger(seed) or 1
  s = s & MASK
  if s == 0 then s = 0x9e3779b9 end
  return { s = s }
end

local function next32(r)
  local s = r.s
  s = (s ~ (s << 13)) & MASK
  s = s ~ (s >> 17)
  s = (s ~ (s << 5)) & MASK
  r.s = s
  return s
end

-- A whole number from lo to hi, both included.
function M.int(r, lo, hi)
  if hi <= lo then return lo end
  return lo + next32(r) % (hi - lo + 1)
end

-- A roll over a `{min, max}` pair.
function M.range(r, pair)
  return M.int(r, pair[1], pair[2])
end

-- True with probability p.
function M.chance(r, p)
  return next32(r) / 4294967296.0 < p
end

-- One item of a non-empty list.
function M.pick(r, list)
  return list[M.int(r, 1, #list)]
end

return M
