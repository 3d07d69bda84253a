-- The game's plain rules, tested on their own: run by tests/tests/seven_stairs.rs in the
-- project's sandbox, where `import` and `Data.table` are the ones the game's scripts use (each
-- call of `Data.table` hands out a fresh copy of the rows). Each entry of the returned table is
-- a test; an error fails it.

local dice = import("rules/dice.lua")
local data = import("rules/data.lua")
local party = import("rules/party.lua")
local combat = import("rules/combat.lua")

local function eq(a, b, what)
  if a ~= b then error(string.format("%s: expected %s, got %s", what or "value", tostring(b), tostring(a)), 2) end
end

local function tables()
  local t, problems = data.load(Data.table)
  eq(#problems, 0, "problems in the shipped tables: " .. table.concat(problems, "; "))
  t.spells = t.spells
  return t
end

local function hero(t, rng, class, slot)
  return party.new_member(rng, t.classes[class], class .. slot, t.classes[class].portraits[1])
end

local T = {}

function T.dice_repeat_from_a_seed_and_stay_in_range()
  local a, b = dice.new(42), dice.new(42)
  for _ = 1, 1000 do
    local x = dice.int(a, 3, 9)
    eq(x, dice.int(b, 3, 9), "same seed, same roll")
    assert(x >= 3 and x <= 9, "in range")
  end
  local zero = dice.new(0)
  assert(dice.int(zero, 1, 100) >= 1, "a zero seed still rolls")
end

function T.the_shipped_tables_pass_and_broken_ones_say_where()
  tables()
  local broken = function(name)
    local rows = Data.table(name)
    if name == "stairs_items" then rows[1].damage = { 9, 2 }; rows[2].kind = "wand" end
    if name == "stairs_classes" then rows[1].items = { "golden sword" } end
    if name == "stairs_groups" then rows[8].with = { { group = "dragons", count = { 1, 2 } } } end
    if name == "stairs_levels" then rows[1].groups = { "rats", "wolves" } end
    return rows
  end
  local _, problems = data.load(broken)
  local all = table.concat(problems, "\n")
  for _, want in ipairs({
    "data/stairs_items.json row 1 (long sword): damage must be [min, max]",
    "data/stairs_items.json row 2 (mace): kind must be weapon, armor or potion",
    "data/stairs_classes.json row 1 (fighter): items names golden sword",
    "data/stairs_groups.json row 8 (lich): with[1] must name a group",
    "data/stairs_levels.json row 1 (The Cellar Stair): groups names wolves",
  }) do
    assert(all:find(want, 1, true), "missing: " .. want .. "\nin:\n" .. all)
  end
end

function T.members_are_rolled_within_their_class()
  local t = tables()
  local rng = dice.new(5)
  for _ = 1, 50 do
    local m = hero(t, rng, "mage", 1)
    assert(m.max_hp >= 6 and m.max_hp <= 8, "mage hp")
    eq(m.sp, 8, "mage sp")
    eq(m.weapon, "staff", "mage weapon")
  end
end

function T.reach_depends_on_the_row()
  local t = tables()
  local rng = dice.new(1)
  local f = hero(t, rng, "fighter", 1)
  local th = hero(t, rng, "thief", 4)
  eq(party.reach(f, 1, t.items), 1, "a sword in front")
  eq(party.reach(f, 4, t.items), 0, "a sword behind reaches nothing")
  eq(party.reach(th, 4, t.items), 2, "a bow behind")
end

function T.experience_raises_levels()
  local t = tables()
  local rng = dice.new(3)
  local p = { hero(t, rng, "fighter", 1), hero(t, rng, "priest", 2) }
  p[2].status = "dead"
  local before = p[1].max_hp
  local said = party.gain(rng, p, 200, t.classes)
  eq(p[1].level, 3, "the living fighter")
  eq(p[2].xp, 0, "the dead get nothing")
  assert(p[1].max_hp > before, "more hit points")
  eq(#said, 2, "two level-ups said")
end

function T.resting_heals_the_living_only()
  local t = tables()
  local rng = dice.new(3)
  local p = { hero(t, rng, "fighter", 1), hero(t, rng, "mage", 2) }
  p[1].hp = 1; p[1].status = "poisoned"
  p[2].hp = 0; p[2].status = "dead"
  party.rest(p)
  eq(p[1].hp, p[1].max_hp, "whole")
  eq(p[1].status, "ok", "cured")
  eq(p[2].status, "dead", "still dead")
end

function T.the_lich_comes_with_skeletons_behind()
  local t = tables()
  local fight = combat.new(dice.new(9), t.groups, "lich")
  eq(#fight.groups, 2, "two groups")
  eq(fight.groups[1].range, 1, "the lich near")
  eq(fight.groups[2].range, 2, "skeletons behind")
  eq(combat.label(fight.groups[1]), "LICH", "one is named alone")
  assert(combat.label(fight.groups[2]):match("^%d SKELETONS$"), combat.label(fight.groups[2]))
end

function T.suggestions_follow_the_rules()
  local t = tables()
  local rng = dice.new(2)
  local p = {}
  for i, c in ipairs({ "fighter", "fighter", "thief", "priest", "mage", "fighter" }) do p[i] = hero(t, rng, c, i) end
  local fight = combat.new(rng, t.groups, "kobolds")
  eq(combat.suggest(fight, p, 1, t).kind, "fight", "a sword in front fights")
  eq(combat.suggest(fight, p, 6, t).kind, "parry", "a sword behind parries")
  local s = combat.suggest(fight, p, 5, t)
  eq(s.kind, "spell", "the mage casts")
  p[2].hp = 1
  local heal = combat.suggest(fight, p, 4, t)
  eq(heal.spell, "heal", "the priest heals the hurt")
  eq(heal.member, 2, "the one most hurt")
end

function T.a_round_is_the_same_from_the_same_seed()
  local t = tables()
  local function play(seed)
    local rng = dice.new(seed)
    local p = {}
    for i, c in ipairs({ "fighter", "fighter", "thief", "priest", "mage", "mage" }) do p[i] = hero(t, rng, c, i) end
    local fight = combat.new(rng, t.groups, "rats")
    local log, outcome = {}, nil
    for _ = 1, 30 do
      local acts = {}
      for i = 1, #p do acts[i] = combat.suggest(fight, p, i, t) end
      local said
      said, outcome = combat.round(rng, fight, p, acts, t, nil)
      for _, s in ipairs(said) do log[#log + 1] = s end
      if outcome then break end
    end
    return table.concat(log, "\n"), outcome
  end
  local a, oa = play(11)
  local b, ob = play(11)
  eq(a, b, "the same fight")
  eq(oa, "won", "six fresh heroes beat rats")
end

function T.near_groups_fall_and_the_far_step_up()
  local t = tables()
  local rng = dice.new(4)
  local fight = combat.new(rng, t.groups, "lich")
  for _, f in ipairs(fight.groups[1].foes) do f.hp = 1 end
  local p = { hero(t, rng, "fighter", 1) }
  p[1].agility = 99
  -- A sure hit: the lich asleep takes double and dies.
  fight.groups[1].foes[1].asleep = true
  local said = combat.round(rng, fight, p, { { kind = "fight", group = 1 } }, t, nil)
  eq(combat.alive_in(fight.groups[1]), 0, "the lich falls")
  eq(fight.groups[2].range, 1, "the skeletons step up")
  assert(table.concat(said, "\n"):find("advance"), table.concat(said, "\n"))
end

function T.a_wiped_party_loses()
  local t = tables()
  local rng = dice.new(8)
  local p = { hero(t, rng, "mage", 1) }
  p[1].hp = 1
  p[1].agility = 1
  local fight = combat.new(rng, t.groups, "orcs")
  local outcome
  for _ = 1, 50 do
    local _, o = combat.round(rng, fight, p, { { kind = "parry" } }, t, nil)
    outcome = o
    if o then break end
  end
  eq(outcome, "lost", "the orcs win")
  eq(p[1].status, "dead", "the mage is dead")
end

return T
