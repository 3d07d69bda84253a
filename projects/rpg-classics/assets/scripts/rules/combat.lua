-- Fights in menus. A fight is groups of foes at ranges (1 is near); each round every able
-- member chooses fight, parry, spell or item (or the party runs), the foes choose too, and
-- everything resolves in initiative order, said line by line. Only a near group strikes in
-- melee; when it falls, the groups behind step up. Plain rules on plain tables, so they are
-- tested without the engine (`tests/combat_test.lua`).

local dice = import("rules/dice.lua")
local party_rules = import("rules/party.lua")

local M = {}

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

-- "3 KOBOLDS" or "LICH".
function M.label(group)
  local n = M.alive_in(group)
  if n == 1 then return group.name end
  return string.format("%d %s", n, group.plural)
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

-- A sensible choice for `member`: heal the worst hurt, burn the biggest group, strike the
-- nearest group in reach, or parry.
function M.suggest(fight, party, slot, t)
  local m = party[slot]
  local spells = party_rules.spells(m, t.classes, t.spells)
  local standing = M.standing(fight)
  for _, s in ipairs(spells) do
    if s.heal and m.sp >= s.cost then
      local worst, worst_i = 1.0, nil
      for i, p in ipairs(party) do
        if party_rules.alive(p) and p.hp / p.max_hp < worst then worst, worst_i = p.hp / p.max_hp, i end
      end
      if worst_i and worst < 0.5 then
        return { kind = "spell", spell = s.id, member = worst_i }
      end
    end
  end
  local biggest
  for _, g in ipairs(standing) do
    if biggest == nil or M.alive_in(g) > M.alive_in(biggest) then biggest = g end
  end
  for _, s in ipairs(spells) do
    if s.damage and s.target == "group" and m.sp >= s.cost and biggest and M.alive_in(biggest) >= 2 then
      return { kind = "spell", spell = s.id, group = biggest.range }
    end
  end
  for _, s in ipairs(spells) do
    if s.damage and s.target == "enemy" and m.sp >= s.cost and standing[1] then
      return { kind = "spell", spell = s.id, group = standing[1].range }
    end
  end
  for _, g in ipairs(standing) do
    if M.can_strike(m, slot, g, t.items) then
      return { kind = "fight", group = g.range }
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
      local p = party[act.member or slot]
      if p == nil or not party_rules.alive(p) then
        say(m.name .. " casts " .. s.name .. ", but the spell finds no one.")
      elseif s.heal then
        local n = dice.range(rng, s.heal)
        p.hp = math.min(p.max_hp, p.hp + n)
        say(string.format("%s casts %s: %s is healed %d.", m.name, s.name, p.name, n))
      elseif s.cures and p.status == s.cures then
        p.status = "ok"
        say(string.format("%s casts %s: %s is cured.", m.name, s.name, p.name))
      else
        say(string.format("%s casts %s on %s.", m.name, s.name, p.name))
      end
    else
      local g = group_at(fight, act.group or 1) or M.standing(fight)[1]
      if g == nil then return end
      if s.target == "enemy" then
        local foe = first_foe(rng, g)
        strike_foe(rng, fight, say, g, foe, dice.range(rng, s.damage), m.name .. "'s " .. s.name)
      elseif s.damage then
        say(string.format("%s casts %s at the %s!", m.name, s.name, g.plural))
        for _, foe in ipairs(g.foes) do
          if foe.hp > 0 then strike_foe(rng, fight, say, g, foe, dice.range(rng, s.damage), "The fire") end
        end
      elseif s.sleep then
        local n = 0
        for _, foe in ipairs(g.foes) do
          if foe.hp > 0 and dice.chance(rng, s.sleep) then
            foe.asleep = true
            n = n + 1
          end
        end
        say(string.format("%s casts %s: %d %s fall asleep.", m.name, s.name, n, n == 1 and g.name or g.plural))
      end
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
    elseif it.cures and p.status == it.cures then
      p.status = "ok"
      say(string.format("%s gives %s an %s: cured.", m.name, p.name, it.id))
    else
      say(string.format("%s uses a %s; nothing happens.", m.name, it.id))
    end
  end
end

local function target_member(rng, party)
  local front, back = {}, {}
  for i, m in ipairs(party) do
    if party_rules.alive(m) then
      if i <= party_rules.FRONT then front[#front + 1] = i else back[#back + 1] = i end
    end
  end
  if #front > 0 then return dice.pick(rng, front) end
  if #back > 0 then return dice.pick(rng, back) end
  return nil
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
    say(string.format("The %s casts %s!", group.name, g.spell.name))
    for i, m in ipairs(party) do
      if party_rules.alive(m) then
        local n = dice.range(rng, g.spell.damage)
        if actions[i] and actions[i].kind == "parry" then n = math.max(1, n // 2) end
        if party_rules.hurt(m, n) then
          say(string.format("%s takes %d and falls!", m.name, n))
        else
          say(string.format("%s takes %d.", m.name, n))
        end
      end
    end
    return
  end
  if group.range > 1 then return end
  local i = target_member(rng, party)
  if i == nil then return end
  local m = party[i]
  local parry = actions[i] and actions[i].kind == "parry"
  local defense = party_rules.defense(m, t.items) + (parry and 4 or 0)
  if dice.int(rng, 1, 20) + g.to_hit >= 10 + defense then
    local n = dice.range(rng, g.attack)
    if parry then n = math.max(1, n // 2) end
    if party_rules.hurt(m, n) then
      say(string.format("A %s hits %s for %d. %s falls!", group.name, m.name, n, m.name))
    else
      say(string.format("A %s hits %s for %d.", group.name, m.name, n))
      if g.poison and dice.chance(rng, g.poison) and m.status == "ok" then
        m.status = "poisoned"
        say(m.name .. " is poisoned!")
      elseif g.sleep and dice.chance(rng, g.sleep) and m.status == "ok" then
        m.status = "asleep"
        say(m.name .. " falls asleep!")
      end
    end
  else
    say(string.format("A %s attacks %s and misses.", group.name, m.name))
  end
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
  -- Poison bites at the round's end.
  for _, m in ipairs(party) do
    if m.status == "poisoned" and m.hp > 1 then m.hp = m.hp - 1 end
  end
  if M.over(fight) then return said, "won" end
  if party_rules.living(party) == 0 then return said, "lost" end
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
