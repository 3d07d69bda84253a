-- The game's plain rules, tested on their own: run by tests/tests/seven_stairs.rs in the
-- project's sandbox, where `import` and `Data.table` are the ones the game's scripts use (each
-- call of `Data.table` hands out a fresh copy of the rows). Each entry of the returned table is
-- a test; an error fails it.

local dice = import("rules/dice.lua")
local data = import("rules/data.lua")
local party = import("rules/party.lua")
local combat = import("rules/combat.lua")
local traps = import("rules/traps.lua")
local camp = import("rules/camp.lua")

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
    if name == "stairs_groups" then
      for _, r in ipairs(rows) do
        if r.id == "lich" then r.with = { { group = "dragons", count = { 1, 2 } } } end
        if r.id == "shamans" then r.spell.chance = 2 end
        if r.id == "ogres" then r.sweep = "yes" end
      end
    end
    if name == "stairs_spells" then rows[1].target = "all" end
    if name == "stairs_levels" then rows[1].groups = { "rats", "hydras" } end
    return rows
  end
  local _, problems = data.load(broken)
  local all = table.concat(problems, "\n")
  for _, want in ipairs({
    "data/stairs_items.json row 1 (long sword): damage must be [min, max]",
    "data/stairs_items.json row 2 (mace): kind must be weapon, armor or potion",
    "data/stairs_classes.json row 1 (fighter): items names golden sword",
    "(lich): with[1] must name a group",
    "(shamans): spell.chance must be a chance from 0 to 1",
    "(ogres): sweep must be true or false",
    "data/stairs_spells.json row 1 (heal): target a spell on all cannot do what this one does",
    "data/stairs_levels.json row 1 (The Cellar Stair): groups names hydras",
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

function T.the_lich_comes_with_its_court_behind()
  local t = tables()
  local fight = combat.new(dice.new(9), t.groups, "lich")
  eq(#fight.groups, 4, "four groups")
  eq(fight.groups[1].range, 1, "the lich near")
  eq(fight.groups[2].range, 2, "a death knight behind")
  eq(fight.groups[4].range, 4, "a dark mage furthest")
  eq(combat.label(fight.groups[1]), "LICH", "one is named alone")
  assert(combat.label(fight.groups[3]):match("^%d SKELETONS$"), combat.label(fight.groups[3]))
end

function T.suggestions_follow_the_rules()
  local t = tables()
  local rng = dice.new(2)
  local p = {}
  for i, c in ipairs({ "fighter", "fighter", "thief", "priest", "mage", "fighter" }) do p[i] = hero(t, rng, c, i) end
  local fight = combat.new(rng, t.groups, "kobolds")
  fight.groups[1].foes = { { hp = 5, max_hp = 5 }, { hp = 5, max_hp = 5 } }
  eq(combat.suggest(fight, p, 1, t).kind, "fight", "a sword in front fights")
  eq(combat.suggest(fight, p, 6, t).kind, "parry", "a sword behind parries")
  p[5].sp = 3
  eq(combat.suggest(fight, p, 5, t).kind, "parry", "a mage short of points keeps them for a big band")
  p[5].sp = p[5].max_sp
  eq(combat.suggest(fight, p, 5, t).kind, "parry", "two kobolds are not worth a bolt")
  local dead = combat.new(rng, t.groups, "zombies")
  dead.groups[1].foes = { { hp = 9, max_hp = 9 }, { hp = 9, max_hp = 9 }, { hp = 9, max_hp = 9 } }
  eq(combat.suggest(dead, p, 5, t).spell, "bolt", "three zombies, which never sleep: a mage with its points bolts")
  fight.groups[1].foes = { { hp = 5, max_hp = 5 }, { hp = 5, max_hp = 5 }, { hp = 5, max_hp = 5 } }
  local s = combat.suggest(fight, p, 5, t)
  eq(s.spell, "sleep", "three awake kobolds: the mage lulls them")
  local other = combat.suggest(fight, p, 6, t, { [5] = s })
  assert(other.spell ~= "sleep", "the second mage does not lull the same kobolds again")
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

-- A party of six at level `level` for the row and spell tests.
local function six(t, rng, level)
  local p = {}
  for i, c in ipairs({ "fighter", "fighter", "thief", "priest", "mage", "mage" }) do
    p[i] = hero(t, rng, c, i)
    p[i].level = level or 1
    p[i].sp = 30
    p[i].max_sp = 30
  end
  return p
end

-- Plays `n` rounds of foes against a party that only parries; returns the log.
local function rounds(rng, fight, p, t, n)
  local log = {}
  for _ = 1, n do
    local said, outcome = combat.round(rng, fight, p, {}, t, nil)
    for _, s in ipairs(said) do log[#log + 1] = s end
    if outcome then break end
  end
  return table.concat(log, "\n")
end

function T.the_front_row_takes_the_blows_while_it_holds()
  local t = tables()
  local rng = dice.new(21)
  local p = six(t, rng)
  for _, m in ipairs(p) do m.hp, m.max_hp = 500, 500 end
  local fight = combat.new(rng, t.groups, "orcs")
  local log = rounds(rng, fight, p, t, 12)
  for i = 4, 6 do eq(p[i].hp, 500, p[i].name .. " behind a holding front") end
  assert(log:find("hits"), log)
  assert(party.front_holds(p), "three stand in front")
end

function T.a_broken_front_lets_the_blows_through_to_the_back()
  local t = tables()
  local rng = dice.new(22)
  local p = six(t, rng)
  for _, m in ipairs(p) do m.hp, m.max_hp = 500, 500 end
  p[1].status, p[1].hp = "dead", 0
  p[2].status = "asleep"
  assert(not party.front_holds(p), "one awake in front does not hold")
  local fight = combat.new(rng, t.groups, "orcs")
  for _, f in ipairs(fight.groups[1].foes) do f.hp, f.max_hp = 999, 999 end
  rounds(rng, fight, p, t, 20)
  local behind = 0
  for i = 4, 6 do if p[i].hp < 500 then behind = behind + 1 end end
  assert(behind > 0, "the back row was struck")
end

function T.archers_shoot_the_back_row_from_afar()
  local t = tables()
  local rng = dice.new(23)
  local p = six(t, rng)
  for _, m in ipairs(p) do m.hp, m.max_hp = 500, 500 end
  local fight = combat.new(rng, t.groups, "orc_band")
  eq(fight.groups[2].range, 2, "the archers stand behind")
  for _, f in ipairs(fight.groups[1].foes) do f.hp = 0 end
  fight.groups[2].range = 3 -- out of reach of every weapon in front
  local log = rounds(rng, fight, p, t, 10)
  local behind = 0
  for i = 4, 6 do if p[i].hp < 500 then behind = behind + 1 end end
  assert(behind > 0 and log:find("shoots"), log)
end

function T.a_sweeping_blow_strikes_the_whole_front_row()
  local t = tables()
  local rng = dice.new(24)
  local p = six(t, rng)
  for _, m in ipairs(p) do m.hp, m.max_hp = 500, 500 end
  local fight = combat.new(rng, t.groups, "ogres")
  rounds(rng, fight, p, t, 8)
  for i = 1, 3 do assert(p[i].hp < 500, p[i].name .. " in front was swept") end
  for i = 4, 6 do eq(p[i].hp, 500, p[i].name .. " behind") end
end

function T.the_undead_never_sleep_and_dispel_burns_only_them()
  local t = tables()
  local rng = dice.new(25)
  local p = six(t, rng, 4)
  local fight = combat.new(rng, t.groups, "skeletons")
  local said = combat.round(rng, fight, p, { [5] = { kind = "spell", spell = "sleep", group = 1 } }, t, nil)
  eq(combat.asleep_in(fight.groups[1]), 0, "no skeleton sleeps")
  assert(table.concat(said, "\n"):find("never sleep"), table.concat(said, "\n"))
  local bones = combat.new(rng, t.groups, "skeletons")
  for _, f in ipairs(bones.groups[1].foes) do f.hp, f.max_hp = 40, 40 end
  combat.round(rng, bones, p, { [4] = { kind = "spell", spell = "dispel", group = 1 } }, t, nil)
  for _, f in ipairs(bones.groups[1].foes) do assert(f.hp < 40, "dispel burns each skeleton") end
  local rats = combat.new(rng, t.groups, "rats")
  for _, f in ipairs(rats.groups[1].foes) do f.hp, f.max_hp = 40, 40 end
  combat.round(rng, rats, { p[4] }, { { kind = "spell", spell = "dispel", group = 1 } }, t, nil)
  for _, f in ipairs(rats.groups[1].foes) do eq(f.hp, 40, "dispel leaves the living alone") end
end

function T.sleep_lulls_the_living_and_a_sleeper_takes_double()
  local t = tables()
  local rng = dice.new(26)
  local p = six(t, rng)
  local fight = combat.new(rng, t.groups, "kobolds")
  for _, f in ipairs(fight.groups[1].foes) do f.hp, f.max_hp = 60, 60; f.asleep = true end
  eq(combat.describe(fight.groups[1]):find("asleep") ~= nil, true, "the screen says who sleeps")
  combat.round(rng, fight, p, { { kind = "fight", group = 1 } }, t, nil)
  local hit = 0
  for _, f in ipairs(fight.groups[1].foes) do if f.hp < 60 then hit = hit + 1 end end
  eq(hit, 1, "a sure blow on a sleeper")
end

function T.prayer_heals_everyone_and_ice_storm_hits_every_group()
  local t = tables()
  local rng = dice.new(27)
  local p = six(t, rng, 4)
  for _, m in ipairs(p) do m.max_hp = 40; m.hp = 10 end
  local fight = combat.new(rng, t.groups, "orc_band")
  for _, g in ipairs(fight.groups) do for _, f in ipairs(g.foes) do f.hp, f.max_hp = 80, 80 end end
  combat.round(rng, fight, p, { [4] = { kind = "spell", spell = "prayer" }, [5] = { kind = "spell", spell = "storm" } }, t, nil)
  for _, m in ipairs(p) do
    if party.alive(m) then assert(m.hp > 10 or m.hp < 10, m.name .. " was touched by the prayer or the foes") end
  end
  local healed = 0
  for _, m in ipairs(p) do if m.hp > 10 then healed = healed + 1 end end
  assert(healed >= 3, "the prayer reached the party")
  for _, g in ipairs(fight.groups) do
    for _, f in ipairs(g.foes) do assert(f.hp < 80, "the storm reaches " .. g.name) end
  end
end

function T.foe_casters_lull_the_party_and_mend_their_own()
  local t = tables()
  local rng = dice.new(28)
  local p = six(t, rng)
  for _, m in ipairs(p) do m.hp, m.max_hp = 500, 500 end
  local fight = combat.new(rng, t.groups, "shamans")
  local log = rounds(rng, fight, p, t, 10)
  assert(log:find("falls asleep"), log)
  local nec = combat.new(rng, t.groups, "necromancer")
  nec.groups[2].foes[1].hp = 1
  party.wake(p)
  local mended = rounds(rng, nec, p, t, 20)
  assert(mended:find("DARK MEND") and mended:find("is healed"), mended)
end

function T.cure_wakes_a_sleeper_and_a_troll_knits_its_wounds()
  local t = tables()
  local rng = dice.new(29)
  local p = six(t, rng)
  p[1].status = "asleep"
  local fight = combat.new(rng, t.groups, "trolls")
  for _, f in ipairs(fight.groups[1].foes) do f.hp, f.max_hp = 10, 40 end
  local s = combat.suggest(fight, p, 4, t)
  eq(s.spell, "cure", "the priest wakes the sleeper in front")
  eq(s.member, 1, "the one asleep")
  combat.round(rng, fight, p, { [4] = s }, t, nil)
  eq(p[1].status, "ok", "awake")
  for _, f in ipairs(fight.groups[1].foes) do assert(f.hp >= 13 or f.hp == 0, "regenerated: " .. f.hp) end
end

function T.traps_hurt_and_the_camp_patches_up()
  local t = tables()
  local rng = dice.new(30)
  local p = six(t, rng)
  for _, m in ipairs(p) do m.sp = m.max_sp end
  local before = p[1].hp + p[2].hp + p[3].hp
  local said = traps.spring(rng, p, "a gout of flame")
  assert(said[1]:find("front rank"), said[1])
  assert(p[1].hp + p[2].hp + p[3].hp < before, "the front rank burns")
  eq(traps.spring(rng, p, "a strange light")[1], "A trap: a strange light.", "an unknown trap is only told")
  p[1].hp = 1
  p[2].status = "poisoned"
  local pack = { ["healing potion"] = 1 }
  said = camp.patch_up(rng, p, pack, t)
  assert(p[1].hp > 1, "healed")
  eq(p[2].status, "ok", "cured by the priest")
  assert(#said >= 2, table.concat(said, "; "))
end

return T
