-- Fights in menus. A fight is groups of foes at ranges (1 is near); each round every able
-- member chooses fight, parry, spell or item (or the party runs), the foes choose too, and
-- everything resolves in initiative order, said line by line. Plain rules on plain tables, so
-- they are tested without the engine (`tests/rules_test.lua`).
--
-- The rows: only a near group strikes in melee, and only at the front row while it holds (two
-- of its three stand awake); a broken front lets the blows through to the back. A member
-- behind reaches one less with its weapon, so spears and bows matter. Foes may shoot (`shoots`:
-- any row, from any range), sweep the whole front row with one blow (`sweep`), knit their
-- wounds (`regen`), cast (`spell`: fire on the party or its back row, sleep, or healing for
-- their own), poison or put to sleep with a bite; the undead never sleep, and DISPEL burns
-- only them. When the near group falls, the groups behind step up.

local dice = import("rules/dice.lua")
local party_rules = import("rules/party.lua")

local M = {}

-- What a `cures` names, as the status it ends.
local CURES = { poison = "poisoned", sleep = "asleep" }

local function foe_group(rng, g, range, count)
  local foes = {}
  for i = 1, count do
    local hp = dice.range(rng, g.hp)
    foes[i] = { hp = hp, max_hp = hp, asleep = false }
  end
  return { id = g.id, name = g.name, plural = g.plural, art = g.art, range = range, foes = foes }
end

-- A fight against group `id` (and its companions, further back).
function M.new(rng, groups, id)
  local g = groups[id]
  local fight = { groups = {}, round = 0 }
  fight.groups[1] = foe_group(rng, g, 1, dice.range(rng, g.count))
  for i, w in ipairs(g.with or {}) do
    fight.groups[#fight.groups + 1] = foe_group(rng, groups[w.group], i + 1, dice.range(rng, w.count))
  end
  return fight
end

function M.alive_in(group)
  local n = 0
  for _, f in ipairs(group.foes) do
    if f.hp > 0 then n = n + 1 end
  end
  return n
end

-- How many of the group's living foes sleep.
function M.asleep_in(group)
  local n = 0
  for _, f in ipairs(group.foes) do
    if f.hp > 0 and f.asleep then n = n + 1 end
  end
  return n
end

-- "3 KOBOLDS" or "LICH".
function M.label(group)
  local n = M.alive_in(group)
  if n == 1 then return group.name end
  return string.format("%d %s", n, group.plural)
end

-- What the screen says of a group: "3 KOBOLDS (near, 2 asleep)".
function M.describe(group)
  local where = group.range == 1 and "near" or (group.range .. " away")
  local asleep = M.asleep_in(group)
  if asleep > 0 then where = where .. ", " .. asleep .. " asleep" end
  return string.format("%s  (%s)", M.label(group), where)
end

function M.over(fight)
  for _, g in ipairs(fight.groups) do
    if M.alive_in(g) > 0 then return false end
  end
  return true
end

-- The groups still standing, near first.
function M.standing(fight)
  local out = {}
  for _, g in ipairs(fight.groups) do
    if M.alive_in(g) > 0 then out[#out + 1] = g end
  end
  table.sort(out, function(a, b) return a.range < b.range end)
  return out
end

-- Whether the member in `slot` can strike `group` with its weapon.
function M.can_strike(member, slot, group, items)
  return party_rules.reach(member, slot, items) >= group.range
end

-- Whether a fight's groups make it a hard one at a glance: a foe that comes alone (a leader),
-- or one that shoots or casts from beyond the near rank.
local function dangerous(t, group)
  local g = t.groups[group.id]
  return g.count[2] == 1 or ((g.shoots or g.spell) and group.range > 1)
end

-- The spell `m` knows and can pay for that `pred` picks, if any.
local function known(m, spells, pred)
  for _, s in ipairs(spells) do
    if m.sp >= s.cost and pred(s) then return s end
  end
  return nil
end

-- A sensible choice for `member`, from what the screen shows: heal the hurt and wake or cure
-- the stricken, burn or lull a big group, dispel the undead, strike the nearest group in
-- reach, bolt a leader or a shooter out of reach (or any group, with half the points left and
-- three foes or more awake), or parry. `planned` (optional) holds the
-- choices already made this round, so two casters do not spend a spell on the same group, and
-- two priests do not heal the same member.
function M.suggest(fight, party, slot, t, planned)
  planned = planned or {}
  local spelled, healing = {}, {}
  for i, a in pairs(planned) do
    if i ~= slot and a.kind == "spell" then
      local s = t.spells[a.spell]
      if a.group and s and s.target == "group" then spelled[a.group] = true end
      if a.member then healing[a.member] = true end
      if s and s.target == "all" then spelled.all = true end
      if s and s.target == "party" then healing.all = true end
    end
  end
  local m = party[slot]
  local spells = party_rules.spells(m, t.classes, t.spells)
  local standing = M.standing(fight)
  local worst, worst_i, hurt = 1.0, nil, 0
  for i, p in ipairs(party) do
    if party_rules.alive(p) and not healing[i] and not healing.all then
      local f = p.hp / p.max_hp
      if f < worst then worst, worst_i = f, i end
      if f < 0.6 then hurt = hurt + 1 end
    end
  end
  local prayer = known(m, spells, function(s) return s.heal and s.target == "party" end)
  if prayer and hurt >= 3 then return { kind = "spell", spell = prayer.id } end
  local heal = known(m, spells, function(s) return s.heal and s.target == "member" end)
  if heal and worst_i and worst < 0.5 then return { kind = "spell", spell = heal.id, member = worst_i } end
  local cure = known(m, spells, function(s) return s.cures end)
  if cure then
    for i, p in ipairs(party) do
      if p.status == "asleep" and i <= party_rules.FRONT and not healing[i] then
        return { kind = "spell", spell = cure.id, member = i }
      end
    end
  end
  local foes, biggest, lull, undead = 0, nil, nil, nil
  for _, g in ipairs(standing) do
    local awake = M.alive_in(g) - M.asleep_in(g)
    foes = foes + awake
    if not spelled[g.range] and (biggest == nil or M.alive_in(g) > M.alive_in(biggest)) then biggest = g end
    if not spelled[g.range] and not t.groups[g.id].undead and awake >= 3 and (lull == nil or awake > M.alive_in(lull) - M.asleep_in(lull)) then lull = g end
    if not spelled[g.range] and t.groups[g.id].undead and M.alive_in(g) >= 2 and undead == nil then undead = g end
  end
  local storm = known(m, spells, function(s) return s.damage and s.target == "all" end)
  if storm and foes >= 6 and not spelled.all then return { kind = "spell", spell = storm.id } end
  -- With half its points or more a caster spends them more freely.
  local flush = m.max_sp > 0 and m.sp * 2 >= m.max_sp
  local flame = known(m, spells, function(s) return s.damage and s.target == "group" end)
  if flame and biggest and M.alive_in(biggest) >= (flush and 2 or 3) then return { kind = "spell", spell = flame.id, group = biggest.range } end
  local sleep = known(m, spells, function(s) return s.sleep end)
  if sleep and lull then return { kind = "spell", spell = sleep.id, group = lull.range } end
  local dispel = known(m, spells, function(s) return s.dispel end)
  if dispel and not undead and flush then
    for _, g in ipairs(standing) do
      if t.groups[g.id].undead and not spelled[g.range] then undead = g break end
    end
  end
  if dispel and undead then return { kind = "spell", spell = dispel.id, group = undead.range } end
  for _, g in ipairs(standing) do
    if M.can_strike(m, slot, g, t.items) then
      return { kind = "fight", group = g.range }
    end
  end
  local bolt = known(m, spells, function(s) return s.damage and s.target == "enemy" end)
  if bolt then
    for _, g in ipairs(standing) do
      if dangerous(t, g) or (flush and foes >= 3) then return { kind = "spell", spell = bolt.id, group = g.range } end
    end
  end
  return { kind = "parry" }
end

local function group_at(fight, range)
  for _, g in ipairs(fight.groups) do
    if g.range == range and M.alive_in(g) > 0 then return g end
  end
  return nil
end

local function first_foe(rng, group)
  local live = {}
  for _, f in ipairs(group.foes) do
    if f.hp > 0 then live[#live + 1] = f end
  end
  if #live == 0 then return nil end
  return dice.pick(rng, live)
end

local function strike_foe(rng, fight, say, group, foe, n, who)
  foe.hp = math.max(0, foe.hp - n)
  foe.asleep = false
  if foe.hp == 0 then
    say(string.format("%s strikes a %s for %d. It dies!", who, group.name, n))
    fight.xp = (fight.xp or 0) + (fight.xp_of[group.id] or 0)
    fight.gold = (fight.gold or 0) + (fight.gold_of[group.id] or 0)
  else
    say(string.format("%s strikes a %s for %d.", who, group.name, n))
  end
end

-- A spell cast on one member: healing, or the end of what it cures.
local function spell_on_member(rng, m, s, p, say)
  if p == nil or not party_rules.alive(p) then
    say(m.name .. " casts " .. s.name .. ", but the spell finds no one.")
  elseif s.heal then
    local n = dice.range(rng, s.heal)
    p.hp = math.min(p.max_hp, p.hp + n)
    say(string.format("%s casts %s: %s is healed %d.", m.name, s.name, p.name, n))
  elseif s.cures and (p.status == CURES[s.cures] or p.status == "asleep") then
    local was = p.status
    p.status = "ok"
    say(string.format("%s casts %s: %s is %s.", m.name, s.name, p.name, was == "asleep" and "awake" or "cured"))
  else
    say(string.format("%s casts %s on %s.", m.name, s.name, p.name))
  end
end

-- A spell cast at the foes: one foe, a group, or every group.
local function spell_on_foes(rng, fight, t, m, s, g, say)
  if s.target == "enemy" then
    strike_foe(rng, fight, say, g, first_foe(rng, g), dice.range(rng, s.damage), m.name .. "'s " .. s.name)
  elseif s.target == "all" then
    say(string.format("%s casts %s!", m.name, s.name))
    for _, h in ipairs(M.standing(fight)) do
      for _, foe in ipairs(h.foes) do
        if foe.hp > 0 then strike_foe(rng, fight, say, h, foe, dice.range(rng, s.damage), "The " .. s.name:lower()) end
      end
    end
  elseif s.damage then
    say(string.format("%s casts %s at the %s!", m.name, s.name, g.plural))
    for _, foe in ipairs(g.foes) do
      if foe.hp > 0 then strike_foe(rng, fight, say, g, foe, dice.range(rng, s.damage), "The " .. s.name:lower()) end
    end
  elseif s.dispel then
    if not t.groups[g.id].undead then
      say(string.format("%s casts %s at the %s; they are not undead, and nothing happens.", m.name, s.name, g.plural))
      return
    end
    say(string.format("%s casts %s at the %s!", m.name, s.name, g.plural))
    for _, foe in ipairs(g.foes) do
      if foe.hp > 0 then strike_foe(rng, fight, say, g, foe, dice.range(rng, s.dispel), "The holy light") end
    end
  elseif s.sleep then
    if t.groups[g.id].undead then
      say(string.format("%s casts %s: the %s never sleep.", m.name, s.name, g.plural))
      return
    end
    local n = 0
    for _, foe in ipairs(g.foes) do
      if foe.hp > 0 and not foe.asleep and dice.chance(rng, s.sleep) then
        foe.asleep = true
        n = n + 1
      end
    end
    say(string.format("%s casts %s: %d %s %s asleep.", m.name, s.name, n, n == 1 and g.name or g.plural,
      n == 1 and "falls" or "fall"))
  end
end

local function member_acts(rng, fight, party, slot, act, t, say)
  local m = party[slot]
  if not party_rules.able(m) then return end
  if act.kind == "parry" then
    say(m.name .. " parries.")
  elseif act.kind == "fight" then
    local g = group_at(fight, act.group or 1) or M.standing(fight)[1]
    if g == nil or not M.can_strike(m, slot, g, t.items) then
      say(m.name .. " cannot reach the foe.")
      return
    end
    local foe = first_foe(rng, g)
    local class = t.classes[m.class]
    local roll = dice.int(rng, 1, 20) + class.to_hit + m.level
    if foe.asleep or roll >= 21 - t.groups[g.id].ac then
      local n = party_rules.damage(rng, m, t.items)
      if foe.asleep then n = n * 2 end
      strike_foe(rng, fight, say, g, foe, n, m.name)
    else
      say(string.format("%s swings at a %s and misses.", m.name, g.name))
    end
  elseif act.kind == "spell" then
    local s = t.spells[act.spell]
    if s == nil or m.sp < s.cost then
      say(m.name .. " has not the strength for that spell.")
      return
    end
    m.sp = m.sp - s.cost
    if s.target == "member" then
      spell_on_member(rng, m, s, party[act.member or slot], say)
    elseif s.target == "party" then
      say(string.format("%s casts %s over the party.", m.name, s.name))
      for _, p in ipairs(party) do
        if party_rules.alive(p) then
          p.hp = math.min(p.max_hp, p.hp + dice.range(rng, s.heal))
        end
      end
    else
      local g = group_at(fight, act.group or 1) or M.standing(fight)[1]
      if g ~= nil then spell_on_foes(rng, fight, t, m, s, g, say) end
    end
  elseif act.kind == "item" then
    local it = t.items[act.item]
    local p = party[act.member or slot]
    if it == nil or p == nil or not fight.take_item(act.item) then
      say(m.name .. " finds no such thing in the pack.")
      return
    end
    if it.heal and party_rules.alive(p) then
      local n = dice.range(rng, it.heal)
      p.hp = math.min(p.max_hp, p.hp + n)
      say(string.format("%s gives %s a %s: healed %d.", m.name, p.name, it.id, n))
    elseif it.cures and p.status == CURES[it.cures] then
      p.status = "ok"
      say(string.format("%s gives %s an %s: cured.", m.name, p.name, it.id))
    else
      say(string.format("%s uses a %s; nothing happens.", m.name, it.id))
    end
  end
end

-- Who a blow in melee can fall on: the front row while it holds, anyone once it breaks.
local function melee_targets(party)
  local front, all = {}, {}
  for i, m in ipairs(party) do
    if party_rules.alive(m) then
      all[#all + 1] = i
      if i <= party_rules.FRONT then front[#front + 1] = i end
    end
  end
  if party_rules.front_holds(party) and #front > 0 then return front end
  return all
end

local function living_slots(party, from, to)
  local out = {}
  for i = from, math.min(to, #party) do
    if party_rules.alive(party[i]) then out[#out + 1] = i end
  end
  return out
end

-- One blow (or shot) of `dmg` at the member in slot `i`; a sleeper is hit for sure and wakes.
local function blow(rng, party, i, group, g, dmg, actions, t, say, verb)
  local m = party[i]
  local parry = actions[i] and actions[i].kind == "parry"
  local defense = party_rules.defense(m, t.items) + (parry and 4 or 0)
  local asleep = m.status == "asleep"
  if asleep or dice.int(rng, 1, 20) + g.to_hit >= 10 + defense then
    local n = dice.range(rng, dmg)
    if parry then n = math.max(1, n // 2) end
    if party_rules.hurt(m, n) then
      say(string.format("A %s %s %s for %d. %s falls!", group.name, verb, m.name, n, m.name))
      return
    end
    say(string.format("A %s %s %s for %d.", group.name, verb, m.name, n))
    if asleep then
      m.status = "ok"
      say(m.name .. " wakes.")
    end
    if g.poison and dice.chance(rng, g.poison) and m.status == "ok" then
      m.status = "poisoned"
      say(m.name .. " is poisoned!")
    elseif g.sleep and dice.chance(rng, g.sleep) and m.status == "ok" then
      m.status = "asleep"
      say(m.name .. " falls asleep!")
    end
  else
    say(string.format("A %s %s at %s and misses.", group.name, verb == "hits" and "attacks" or "shoots", m.name))
  end
end

-- A foe's spell: fire on the party (or its back row), sleep on it, or healing for its own.
local function foe_casts(rng, fight, party, group, g, actions, say)
  local sp = g.spell
  say(string.format("The %s casts %s!", group.name, sp.name))
  if sp.heal then
    local worst, at = 1.01, nil
    for _, h in ipairs(M.standing(fight)) do
      for _, f in ipairs(h.foes) do
        if f.hp > 0 and f.hp / f.max_hp < worst then worst, at = f.hp / f.max_hp, { h, f } end
      end
    end
    if at then
      local n = dice.range(rng, sp.heal)
      at[2].hp = math.min(at[2].max_hp, at[2].hp + n)
      say(string.format("A %s is healed %d.", at[1].name, n))
    end
    return
  end
  local slots = sp.target == "back" and living_slots(party, party_rules.FRONT + 1, #party) or living_slots(party, 1, #party)
  for _, i in ipairs(slots) do
    local m = party[i]
    if sp.damage then
      local n = dice.range(rng, sp.damage)
      if actions[i] and actions[i].kind == "parry" then n = math.max(1, n // 2) end
      if party_rules.hurt(m, n) then
        say(string.format("%s takes %d and falls!", m.name, n))
      else
        say(string.format("%s takes %d.", m.name, n))
      end
    end
    if sp.sleep and party_rules.alive(m) and m.status == "ok" and dice.chance(rng, sp.sleep) then
      m.status = "asleep"
      say(m.name .. " falls asleep!")
    end
  end
end

local function foe_acts(rng, fight, party, group, foe, actions, t, say)
  if foe.hp <= 0 then return end
  if foe.asleep then
    if dice.chance(rng, 0.3) then
      foe.asleep = false
      say("A " .. group.name .. " wakes.")
    end
    return
  end
  local g = t.groups[group.id]
  if g.spell and dice.chance(rng, g.spell.chance) then
    foe_casts(rng, fight, party, group, g, actions, say)
    return
  end
  if g.shoots and (group.range > 1 or dice.chance(rng, 0.5)) then
    local all = living_slots(party, 1, #party)
    if #all == 0 then return end
    blow(rng, party, dice.pick(rng, all), group, g, g.shoots, actions, t, say, "shoots")
    return
  end
  if group.range > 1 then return end
  if g.sweep then
    local front = living_slots(party, 1, party_rules.FRONT)
    if #front == 0 or not party_rules.front_holds(party) then front = { dice.pick(rng, melee_targets(party)) } end
    for _, i in ipairs(front) do
      if party_rules.alive(party[i]) then blow(rng, party, i, group, g, g.attack, actions, t, say, "hits") end
    end
    return
  end
  local targets = melee_targets(party)
  if #targets == 0 then return end
  blow(rng, party, dice.pick(rng, targets), group, g, g.attack, actions, t, say, "hits")
end

local function advance(fight, say)
  while not M.over(fight) and group_at(fight, 1) == nil do
    for _, g in ipairs(fight.groups) do
      g.range = g.range - 1
    end
    local near = M.standing(fight)[1]
    if near then say("The " .. M.label(near) .. " advance.") end
  end
end

-- The round's end: poison bites, sleepers may wake, wounds knit on foes that regenerate.
local function round_end(rng, fight, party, t, say)
  for _, m in ipairs(party) do
    if m.status == "poisoned" and m.hp > 1 then m.hp = m.hp - 1 end
    if m.status == "asleep" and dice.chance(rng, 0.25) then
      m.status = "ok"
      say(m.name .. " wakes.")
    end
  end
  for _, g in ipairs(fight.groups) do
    local regen = t.groups[g.id].regen
    if regen then
      for _, f in ipairs(g.foes) do
        if f.hp > 0 then f.hp = math.min(f.max_hp, f.hp + regen) end
      end
    end
  end
end

-- Resolves one round. `actions[slot]` is each member's choice; `t` the tables; `bag` has
-- `take(item_id) -> bool` for items used. Returns the messages and "won", "lost" or nil.
function M.round(rng, fight, party, actions, t, bag)
  fight.round = fight.round + 1
  fight.xp_of, fight.gold_of = fight.xp_of or {}, fight.gold_of or {}
  for id, g in pairs(t.groups) do
    fight.xp_of[id] = g.xp
    fight.gold_of[id] = (g.gold[1] + g.gold[2]) // 2
  end
  fight.take_item = bag and bag.take or function() return false end
  local said = {}
  local function say(s) said[#said + 1] = s end
  local order = {}
  for i, m in ipairs(party) do
    if party_rules.alive(m) then
      order[#order + 1] = { who = "member", slot = i, speed = m.agility + dice.int(rng, 1, 6), tie = 0 }
    end
  end
  for gi, g in ipairs(fight.groups) do
    for fi, f in ipairs(g.foes) do
      if f.hp > 0 then
        order[#order + 1] = { who = "foe", group = gi, foe = fi, speed = 6 + t.groups[g.id].to_hit + dice.int(rng, 1, 6), tie = 1 }
      end
    end
  end
  table.sort(order, function(a, b)
    if a.speed ~= b.speed then return a.speed > b.speed end
    if a.tie ~= b.tie then return a.tie < b.tie end
    return (a.slot or a.foe) < (b.slot or b.foe)
  end)
  for _, o in ipairs(order) do
    if M.over(fight) or party_rules.living(party) == 0 then break end
    if o.who == "member" then
      member_acts(rng, fight, party, o.slot, actions[o.slot] or { kind = "parry" }, t, say)
      advance(fight, say)
    else
      local g = fight.groups[o.group]
      foe_acts(rng, fight, party, g, g.foes[o.foe], actions, t, say)
    end
  end
  if M.over(fight) then return said, "won" end
  if party_rules.living(party) == 0 then return said, "lost" end
  round_end(rng, fight, party, t, say)
  return said, nil
end

-- The party tries to run. Returns whether it got away, and the messages (a failed run gives
-- the foes a free round).
function M.run(rng, fight, party, t)
  local total, n = 0, 0
  for _, m in ipairs(party) do
    if party_rules.alive(m) then total, n = total + m.agility, n + 1 end
  end
  local p = math.max(0.2, math.min(0.9, 0.55 + 0.03 * ((n > 0 and total / n or 10) - 10)))
  if dice.chance(rng, p) then return true, { "The party runs!" } end
  local said, outcome = M.round(rng, fight, party, {}, t, nil)
  table.insert(said, 1, "The party cannot get away!")
  -- The party does not act in a failed run's round.
  return false, said, outcome
end

return M
