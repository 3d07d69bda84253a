-- The balance run: a simple player plays Seven Stairs through the game's own rules (the fights,
-- the traps, the camp, the inn's and the temple's prices) over the real floors of
-- data/stairs_levels.json, once per seed. It plays as a person does, from what the screen and
-- the bags show: it forms the tavern's party, walks a shortest way to every fight it can see
-- and every chest, then to the stair down (or the goal); it fights everything with the
-- sensible choice of each member (`combat.suggest`: the obvious spell when a group is big, a
-- heal for the hurt), drinks a potion when near death, patches up after each fight, and walks
-- back up to the inn when the party is low or its casters are spent; in town it raises the
-- dead, rests, and buys better gear. It never runs.
--
-- Each seed is played in slices of a few fights, one test each, so each runs under its own
-- guard; each seed says its outcome in one log line ("balance seed=3 outcome=won floor=7 rounds=412 trips=4 level=8"), which the Rust
-- side (`tests/tests/balance.rs`) gathers into the figures.

local dice = import("rules/dice.lua")
local data = import("rules/data.lua")
local party_rules = import("rules/party.lua")
local combat = import("rules/combat.lua")
local traps = import("rules/traps.lua")
local camp = import("rules/camp.lua")

local SEEDS = 24
local PARTY = { "fighter", "fighter", "thief", "priest", "mage", "mage" }
-- The level a person wants someone in the party to have before facing the lich (it goes back
-- to the inn, and through the fights on the way, four times at most to get it).
local SEASONED = 8
local STEPS = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }

-- Cells the party can stand on (the bot finds secret doors as a person does, by searching the
-- walls it passes; doors and locks it opens with the keys and levers it has met).
local BLOCKS = { ["#"] = true, ["C"] = true, ["L"] = true, ["B"] = true, ["O"] = true }

local function cell(f, x, y)
  local row = f.map[y + 1]
  if row == nil or x < 0 or x >= #row then return "#" end
  return row:sub(x + 1, x + 1)
end

local function find(f, c)
  local out = {}
  for y, row in ipairs(f.map) do
    for x = 1, #row do
      if row:sub(x, x) == c then out[#out + 1] = { x - 1, y - 1 } end
    end
  end
  return out
end

local function key(x, y) return y * 100 + x end

-- The floors as the bot reads them: the drawing, the fights, the chests in reading order, the
-- traps in reading order with their names (cycling), the teleporters on the floor.
local function floors()
  local out = {}
  for i, l in ipairs(Data.table("stairs_levels")) do
    local f = {
      index = i, name = l.name, map = l.map, rate = l.encounter_rate or 0, grace = l.encounter_grace or 0,
      groups = l.groups or {}, fights = {}, chests = {}, traps = {}, jumps = {},
    }
    for _, e in ipairs(l.encounters or {}) do
      f.fights[#f.fights + 1] = { x = e.at[1], y = e.at[2], group = e.group, goal = e.goal == true }
    end
    for n, at in ipairs(find(f, "C")) do
      f.chests[#f.chests + 1] = { x = at[1], y = at[2], loot = (l.chests or {})[n] }
    end
    for n, at in ipairs(find(f, "^")) do
      local names = l.traps or {}
      local name = names[(n - 1) % math.max(1, #names) + 1]
      if type(name) == "table" then name = name.name end
      f.traps[key(at[1], at[2])] = name
    end
    for _, tp in ipairs(l.teleports or {}) do
      if tp.floor == nil or tp.floor == i - 1 then f.jumps[key(tp.at[1], tp.at[2])] = { tp.to[1], tp.to[2] } end
    end
    f.up = find(f, "<")[1]
    f.down = find(f, ">")[1]
    out[i] = f
  end
  return out
end

-- A shortest walk from (x, y) to any cell `want` accepts, never over a fight still waiting
-- unless it is the one wanted; a teleporter carries the walk on. Returns the cells stepped on.
local function path(f, x, y, want, waiting)
  local came = { [key(x, y)] = false }
  local queue, head = { { x, y } }, 1
  while head <= #queue do
    local at = queue[head]
    head = head + 1
    if want(at[1], at[2]) and not (at[1] == x and at[2] == y) then
      local steps = {}
      local k = key(at[1], at[2])
      while came[k] do
        table.insert(steps, 1, came[k].at)
        k = came[k].from
      end
      return steps
    end
    for _, d in ipairs(STEPS) do
      local nx, ny = at[1] + d[1], at[2] + d[2]
      local c = cell(f, nx, ny)
      local stand = { nx, ny }
      local jump = f.jumps[key(nx, ny)]
      if jump then stand = jump end
      local k = key(stand[1], stand[2])
      if not BLOCKS[c] and came[k] == nil and (not waiting[key(nx, ny)] or want(nx, ny)) then
        came[k] = { from = key(at[1], at[2]), at = { nx, ny, stand[1], stand[2] } }
        queue[#queue + 1] = stand
      end
    end
  end
  return nil
end

local function new_game(seed, t)
  local rng = dice.new(seed)
  local g = {
    rng = rng, t = t, floors = floors(), gold = 150, pack = { ["healing potion"] = 4 },
    party = {}, won = {}, looted = {}, sprung = {}, quiet = 0, rounds = 0, trips = 0, deepest = 1,
    fights = 0, at = 1, per = {}, waits = 0,
  }
  for i, c in ipairs(PARTY) do
    local class = t.classes[c]
    g.party[i] = party_rules.new_member(rng, class, class.names[1] .. i, class.portraits[1])
  end
  return g
end

-- One fight to its end: each round every able member does the sensible thing, but one near
-- death drinks a potion when no priest is healing them. "won" or "lost".
local function fight(g, id)
  local t = g.t
  local f = combat.new(g.rng, t.groups, id)
  g.fights = g.fights + 1
  -- A slice of the run ends between fights (see the tests below).
  coroutine.yield()
  local per = g.per[g.at] or { fights = 0, rounds = 0 }
  g.per[g.at] = per
  per.fights = per.fights + 1
  for _ = 1, 80 do
    local acts = {}
    for i, m in ipairs(g.party) do
      if party_rules.able(m) then acts[i] = combat.suggest(f, g.party, i, t, acts) end
    end
    for i, m in ipairs(g.party) do
      local healed = false
      for _, a in pairs(acts) do if a.kind == "spell" and a.member == i then healed = true end end
      if acts[i] and not healed and m.hp / m.max_hp < 0.3 and (g.pack["healing potion"] or 0) > 0 then
        acts[i] = { kind = "item", item = "healing potion", member = i }
      end
    end
    local _, outcome = combat.round(g.rng, f, g.party, acts, t, { take = function(item) return camp.take(g.pack, item) end })
    g.rounds = g.rounds + 1
    per.rounds = per.rounds + 1
    if outcome == "won" then
      g.gold = g.gold + (f.gold or 0)
      party_rules.gain(g.rng, g.party, f.xp or 0, t.classes)
      party_rules.wake(g.party)
      camp.patch_up(g.rng, g.party, g.pack, t)
      return "won"
    elseif outcome == "lost" then
      g.killer = id
      return "lost"
    end
  end
  -- A fight that will not end (nobody left who can reach the other): the party runs for it.
  for _ = 1, 20 do
    local away, _, outcome = combat.run(g.rng, f, g.party, t)
    g.rounds = g.rounds + 1
    if away then
      g.fled = (g.fled or 0) + 1
      party_rules.wake(g.party)
      return "won"
    end
    if outcome == "lost" then break end
  end
  g.killer = id
  return "lost"
end

-- Whether a person would turn back for the inn: too many down, too hurt, or the casters spent
-- (`hp` and `sp` the shares below which it turns; a party the inn could not rest pushes on).
local function low(g, hp_share, sp_share)
  if g.broke then return false end
  hp_share, sp_share = hp_share or 0.5, sp_share or 0.25
  local living, hp, max_hp, sp, max_sp = 0, 0, 0, 0, 0
  for _, m in ipairs(g.party) do
    if party_rules.alive(m) then
      living = living + 1
      hp, max_hp = hp + m.hp, max_hp + m.max_hp
      sp, max_sp = sp + m.sp, max_sp + m.max_sp
    end
  end
  return living < #g.party - 1 or hp < hp_share * max_hp or (max_sp > 0 and sp < sp_share * max_sp)
end

-- A step onto (x, y) of floor f: a trap goes off once; open floor may bring a random fight.
local function step(g, f, x, y)
  g.at = f.index
  local k = f.index * 10000 + key(x, y)
  local c = cell(f, x, y)
  if f.traps[key(x, y)] and not g.sprung[k] then
    g.sprung[k] = true
    traps.spring(g.rng, g.party, f.traps[key(x, y)])
    if party_rules.living(g.party) == 0 then
      g.killer = "trap"
      return "lost"
    end
  elseif c == "." and f.rate > 0 and #f.groups > 0 then
    g.quiet = g.quiet + 1
    if g.quiet > f.grace and dice.chance(g.rng, f.rate) then
      g.quiet = 0
      return fight(g, dice.pick(g.rng, f.groups))
    end
  end
  return nil
end

-- Walks the steps of a path; stops early when a fight is lost.
local function walk(g, f, steps)
  for _, s in ipairs(steps) do
    local r = step(g, f, s[1], s[2])
    if r == "lost" then return "lost", s end
  end
  return nil, steps[#steps]
end

local function waiting(g, f)
  local w = {}
  for n, fx in ipairs(f.fights) do
    if not g.won[f.index * 100 + n] then w[key(fx.x, fx.y)] = n end
  end
  return w
end

-- Up to the town from (x, y) on floor `from`: each floor's way to its stair up.
local function go_up(g, from, x, y)
  g.trips = g.trips + 1
  for i = from, 1, -1 do
    local f = g.floors[i]
    local start = (i == from) and { x, y } or f.down
    local steps = path(f, start[1], start[2], function(cx, cy) return cx == f.up[1] and cy == f.up[2] end, waiting(g, f))
    if steps then
      g.quiet = 0
      if walk(g, f, steps) == "lost" then return "lost" end
    end
  end
  return nil
end

local ORDER = { weapon = "weapon", armor = "armor" }

-- The town: raise or replace the dead, rest, then buy what helps most.
local function town(g)
  local t = g.t
  for i, m in ipairs(g.party) do
    if m.status == "dead" then
      local cost = 60 * m.level
      if g.gold >= cost then
        g.gold = g.gold - cost
        m.status, m.hp = "ok", 1
      else
        local class = t.classes[m.class]
        g.party[i] = party_rules.new_member(g.rng, class, class.names[2] .. i, class.portraits[1])
      end
    end
  end
  local rest = 0
  for _, m in ipairs(g.party) do rest = rest + 5 * m.level end
  g.broke = g.gold < rest
  if not g.broke then
    g.gold = g.gold - rest
    party_rules.rest(g.party)
  end
  -- Gear: the dearest upgrade each member can use and the purse can spare (keeping the next
  -- night's rest), armour for the front row first, then weapons that reach from the member's row.
  local reserve = rest + 20
  for pass = 1, 2 do
    for slot, m in ipairs(g.party) do
      local best
      for _, it in ipairs(t.item_list) do
        local kind = ORDER[it.kind]
        if kind and party_rules.can_use(m.class, it) and it.price <= g.gold - reserve then
          local cur = t.items[m[kind]]
          local better
          if kind == "armor" then
            better = pass == 1 and it.ac > (cur and cur.ac or 0)
          else
            local need = slot > party_rules.FRONT and 2 or 1
            local avg = (it.damage[1] + it.damage[2]) / 2
            local cur_avg = cur and (cur.damage[1] + cur.damage[2]) / 2 or 0
            local cur_reach = cur and cur.reach or 1
            better = pass == 2 and it.reach >= need and (avg > cur_avg or cur_reach < need)
          end
          if better and (best == nil or it.price > best.price) then best = it end
        end
      end
      if best then
        g.gold = g.gold - best.price
        m[ORDER[best.kind]] = best.id
      end
    end
  end
  while (g.pack["healing potion"] or 0) < 6 and g.gold - reserve >= t.items["healing potion"].price do
    g.gold = g.gold - t.items["healing potion"].price
    g.pack["healing potion"] = (g.pack["healing potion"] or 0) + 1
  end
end

-- The targets on a floor a person walks to: chests not yet opened, fights still waiting, then
-- the stair down (or the goal). Returns the next, or nil when only the stair is left.
local function next_target(g, f, x, y)
  local w = waiting(g, f)
  local goal
  local function wanted(cx, cy)
    for n, ch in ipairs(f.chests) do
      if not g.looted[f.index * 100 + n] and math.abs(ch.x - cx) + math.abs(ch.y - cy) == 1 then return true end
    end
    local n = w[key(cx, cy)]
    if n and not f.fights[n].goal then return true end
    return false
  end
  local steps = path(f, x, y, wanted, w)
  if steps then return steps end
  for n, fx in ipairs(f.fights) do
    if fx.goal and w[key(fx.x, fx.y)] then goal = fx end
  end
  if goal then
    return path(f, x, y, function(cx, cy) return cx == goal.x and cy == goal.y end, w), "goal"
  end
  if f.down then
    return path(f, x, y, function(cx, cy) return cx == f.down[1] and cy == f.down[2] end, w), "down"
  end
  return nil
end

-- Plays one seed to its end: "won", "died" or "stuck" (over 60 trips to town), with the game
-- and the floor it ended on (for "died", the floor where the party fell).
local function play(seed)
  local t = data.load(Data.table)
  local g = new_game(seed, t)
  local level, x, y = 1, g.floors[1].up[1], g.floors[1].up[2]
  for _ = 1, 4000 do
    local f = g.floors[level]
    local steps, what = next_target(g, f, x, y)
    if steps == nil then return "stuck", g, level end
    local top = 0
    for _, m in ipairs(g.party) do top = math.max(top, m.level) end
    local unready = what == "goal" and (low(g, 0.85, 0.7) or (top < SEASONED and g.waits < 4))
    if unready then g.waits = g.waits + 1 end
    if (what == "down" and low(g)) or unready then
      if go_up(g, level, x, y) == "lost" then return "died", g, g.at end
      town(g)
      if g.trips > 60 then return "stuck", g, level end
      level, x, y = 1, g.floors[1].up[1], g.floors[1].up[2]
    else
      local r, at = walk(g, f, steps)
      if r == "lost" then return "died", g, g.at end
      x, y = at[3], at[4]
      local w = waiting(g, f)
      local here = w[key(at[1], at[2])]
      g.at = level
      if here then
        if fight(g, f.fights[here].group) == "lost" then return "died", g, g.at end
        g.won[f.index * 100 + here] = true
        if f.fights[here].goal then return "won", g, level end
      end
      for n, ch in ipairs(f.chests) do
        if not g.looted[f.index * 100 + n] and math.abs(ch.x - x) + math.abs(ch.y - y) == 1 then
          g.looted[f.index * 100 + n] = true
          local kind, value = tostring(ch.loot):match("^([%a_]+):(.+)$")
          if kind == "gold" then g.gold = g.gold + (tonumber(value) or 0) end
          if kind == "item" then g.pack[value] = (g.pack[value] or 0) + 1 end
        end
      end
      if what == "down" then
        g.broke = false
        level = level + 1
        g.deepest = math.max(g.deepest, level)
        g.quiet = 0
        x, y = g.floors[level].up[1], g.floors[level].up[2]
      elseif low(g) then
        if go_up(g, level, x, y) == "lost" then return "died", g, g.at end
        town(g)
        if g.trips > 60 then return "stuck", g, level end
        level, x, y = 1, g.floors[1].up[1], g.floors[1].up[2]
      end
    end
  end
  return "stuck", g, level
end

local T = {}

-- Each seed is played in slices, a coroutine resumed by one test after another (tests run in
-- name order), so no single test runs long: a slice plays up to SLICE fights.
local SLICE = 12
local SLICES = 10

for seed = 1, SEEDS do
  local run = coroutine.create(function()
    local outcome, g, level = play(seed)
    local top = 0
    for _, m in ipairs(g.party) do top = math.max(top, m.level) end
    local per = {}
    for i = 1, #g.floors do
      local p = g.per[i]
      per[i] = p and string.format("%d:%d", p.fights, p.rounds) or "0:0"
    end
    print(string.format("balance seed=%d outcome=%s floor=%d deepest=%d rounds=%d fights=%d trips=%d level=%d gold=%d per_floor=%s killer=%s",
      seed, outcome, level, g.deepest, g.rounds, g.fights, g.trips, top, g.gold, table.concat(per, ","), g.killer or "none"))
  end)
  for slice = 1, SLICES do
    T[string.format("balance_seed_%02d_slice_%02d", seed, slice)] = function()
      for _ = 1, SLICE do
        if coroutine.status(run) == "dead" then return end
        local ok, err = coroutine.resume(run)
        if not ok then error(err, 0) end
      end
      if slice == SLICES and coroutine.status(run) ~= "dead" then
        error(string.format("seed %d is still playing after %d fights", seed, SLICE * SLICES))
      end
    end
  end
end

return T
