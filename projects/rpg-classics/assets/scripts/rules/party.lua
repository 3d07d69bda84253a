-- The party the game keeps: six at most, the first three in front. A member is a plain table
-- (so it saves as it is): name, class, portrait, level, xp, hp, max_hp, sp, max_sp, agility,
-- strength, weapon, armor and status (ok, poisoned, asleep, dead).

local dice = import("rules/dice.lua")

local M = {}

M.SIZE = 6
M.FRONT = 3

-- Experience needed to reach `level + 1`.
function M.next_level(level)
  return 25 * level * level
end

-- A new level-1 member of `class` (a row of the classes table).
function M.new_member(rng, class, name, portrait)
  local hp = dice.range(rng, class.hp)
  local items = class.items or {}
  return {
    name = name, class = class.id, portrait = portrait, level = 1, xp = 0,
    hp = hp, max_hp = hp, sp = class.sp, max_sp = class.sp,
    agility = dice.range(rng, class.agility), strength = dice.range(rng, class.strength),
    weapon = items[1], armor = items[2], status = "ok",
  }
end

function M.alive(m)
  return m.status ~= "dead"
end

-- Able to act this round (alive and awake).
function M.able(m)
  return m.status ~= "dead" and m.status ~= "asleep"
end

function M.living(party)
  local n = 0
  for _, m in ipairs(party) do
    if M.alive(m) then n = n + 1 end
  end
  return n
end

-- Whether the front row holds: at least two of slots 1 to 3 stand and are awake (a party of
-- fewer than two needs all of its own). While it holds, foes in melee can strike only the front
-- row; once it breaks they reach anyone.
function M.front_holds(party)
  local able, there = 0, 0
  for i = 1, math.min(M.FRONT, #party) do
    there = there + 1
    if M.able(party[i]) then able = able + 1 end
  end
  return able >= math.min(2, there)
end

-- Sleepers wake (after a fight). Returns the names of those who woke.
function M.wake(party)
  local woke = {}
  for _, m in ipairs(party) do
    if m.status == "asleep" then
      m.status = "ok"
      woke[#woke + 1] = m.name
    end
  end
  return woke
end

-- How far the member's weapon reaches from its slot: a back-row member reaches one less.
function M.reach(m, slot, items)
  local w = m.weapon and items[m.weapon]
  local reach = w and w.reach or 1
  if slot > M.FRONT then reach = reach - 1 end
  return reach
end

-- How hard the member is to hit: armour, and a quick step for the nimble.
function M.defense(m, items)
  local a = m.armor and items[m.armor]
  local d = a and a.ac or 0
  if m.agility >= 15 then d = d + 1 end
  return d
end

-- Damage of one blow.
function M.damage(rng, m, items)
  local w = m.weapon and items[m.weapon]
  local roll = w and dice.range(rng, w.damage) or dice.int(rng, 1, 2)
  local bonus = (m.strength - 10) // 3
  return math.max(1, roll + bonus)
end

-- The spells `m` knows now: its class's spells up to its level.
function M.spells(m, classes, spells)
  local out = {}
  local class = classes[m.class]
  for _, id in ipairs(class and class.spells or {}) do
    local s = spells[id]
    if s and s.level <= m.level then out[#out + 1] = s end
  end
  return out
end

-- Shares `xp` among the living and raises whoever has enough. Returns the messages.
function M.gain(rng, party, xp, classes)
  local living = M.living(party)
  local said = {}
  if living == 0 then return said end
  local share = xp // living
  for _, m in ipairs(party) do
    if M.alive(m) then
      m.xp = m.xp + share
      while m.xp >= M.next_level(m.level) do
        local class = classes[m.class]
        m.level = m.level + 1
        local hp = dice.range(rng, class.hp_per_level)
        m.max_hp = m.max_hp + hp
        m.hp = m.hp + hp
        m.max_sp = m.max_sp + class.sp_per_level
        m.sp = m.sp + class.sp_per_level
        said[#said + 1] = string.format("%s reaches level %d!", m.name, m.level)
      end
    end
  end
  return said
end

-- Whole again: hit points, spell points, awake and unpoisoned (the dead stay dead).
function M.rest(party)
  for _, m in ipairs(party) do
    if M.alive(m) then
      m.hp = m.max_hp
      m.sp = m.max_sp
      m.status = "ok"
    end
  end
end

-- Hurts `m` by `n`; returns true when that killed it.
function M.hurt(m, n)
  m.hp = math.max(0, m.hp - n)
  if m.hp == 0 and m.status ~= "dead" then
    m.status = "dead"
    return true
  end
  return false
end

-- Whether `class` may use item `it`.
function M.can_use(class_id, it)
  if it.classes == nil then return true end
  for _, c in ipairs(it.classes) do
    if c == class_id then return true end
  end
  return false
end

return M
