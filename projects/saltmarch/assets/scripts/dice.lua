-- The game's own dice: one seeded stream (a linear congruential generator on whole numbers),
-- kept in the save as its state `s`, so a game loaded rolls what it would have rolled.

local M = {}

local MOD = 2147483648 -- 2^31

function M.new(seed)
  return { s = seed % MOD }
end

-- The next number, 0 to 2^31 - 1.
function M.next(r)
  r.s = (r.s * 1103515245 + 12345) % MOD
  return r.s
end

-- 1 to n.
function M.die(r, n)
  return (M.next(r) >> 8) % n + 1
end

-- Four six-sided dice, the lowest left out: 3 to 18.
function M.roll4d6(r)
  local d = { M.die(r, 6), M.die(r, 6), M.die(r, 6), M.die(r, 6) }
  table.sort(d)
  return d[2] + d[3] + d[4]
end

return M
