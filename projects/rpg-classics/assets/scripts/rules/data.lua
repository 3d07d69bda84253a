-- The game's data tables checked when the game starts: classes, items, spells and monster
-- groups, and the references between them and the crawl's levels (a class's starting gear, a
-- group's companions, a level's groups and fights, a chest's item). Every problem is reported,
-- each with its file, row and field, so one look at the title shows all of them.
--
--   local data = import("rules/data.lua")
--   local tables, problems = data.load(Data.table)

local M = {}

local function is_pair(v)
  return type(v) == "table" and #v == 2 and math.type(v[1]) == "integer"
    and math.type(v[2]) == "integer" and v[1] >= 0 and v[1] <= v[2]
end

local function is_chance(v)
  return type(v) == "number" and v >= 0 and v <= 1
end

local function checker(file, problems)
  return function(row, i, field, ok, what)
    if not ok then
      local label = type(row) == "table" and (row.id or row.name) or nil
      problems[#problems + 1] = string.format("data/%s.json row %d%s: %s %s", file, i,
        label and (" (" .. tostring(label) .. ")") or "", field, what)
    end
    return ok
  end
end

local function index(rows)
  local by = {}
  for _, r in ipairs(rows) do
    if type(r) == "table" and type(r.id) == "string" then by[r.id] = r end
  end
  return by
end

local function unique(rows, check)
  local seen = {}
  for i, r in ipairs(rows) do
    if type(r) == "table" and type(r.id) == "string" then
      check(r, i, "id", not seen[r.id], "repeats " .. r.id .. " (row " .. tostring(seen[r.id]) .. ")")
      seen[r.id] = seen[r.id] or i
    else
      check(r, i, "id", false, "must be a name")
    end
  end
end

-- Checks the tables; `read(name)` returns the rows of data/<name>.json. Returns the tables by
-- id and the list of problems (empty when all is well).
function M.load(read)
  local problems = {}
  local raw = {
    classes = read("stairs_classes") or {},
    items = read("stairs_items") or {},
    spells = read("stairs_spells") or {},
    groups = read("stairs_groups") or {},
    levels = read("stairs_levels") or {},
  }
  local t = {
    classes = index(raw.classes), items = index(raw.items), spells = index(raw.spells),
    groups = index(raw.groups), class_list = raw.classes, item_list = raw.items,
  }
  for _, name in ipairs({ "classes", "items", "spells", "groups" }) do
    if #raw[name] == 0 then
      problems[#problems + 1] = "data/stairs_" .. name .. ".json: has no rows"
    end
  end

  local check = checker("stairs_classes", problems)
  unique(raw.classes, check)
  for i, c in ipairs(raw.classes) do
    check(c, i, "name", type(c.name) == "string" and c.name ~= "", "must be a name")
    check(c, i, "hp", is_pair(c.hp) and c.hp[1] >= 1, "must be [min, max] with 1 <= min <= max")
    check(c, i, "hp_per_level", is_pair(c.hp_per_level), "must be [min, max]")
    check(c, i, "agility", is_pair(c.agility), "must be [min, max]")
    check(c, i, "strength", is_pair(c.strength), "must be [min, max]")
    check(c, i, "sp", math.type(c.sp) == "integer" and c.sp >= 0, "must be a whole number, 0 or more")
    check(c, i, "to_hit", math.type(c.to_hit) == "integer", "must be a whole number")
    check(c, i, "names", type(c.names) == "table" and #c.names > 0, "must list at least one name")
    check(c, i, "portraits", type(c.portraits) == "table" and #c.portraits > 0, "must list at least one portrait")
    for _, item in ipairs(type(c.items) == "table" and c.items or {}) do
      check(c, i, "items", t.items[item] ~= nil, "names " .. tostring(item) .. ", which data/stairs_items.json does not have")
    end
    for _, s in ipairs(type(c.spells) == "table" and c.spells or {}) do
      check(c, i, "spells", t.spells[s] ~= nil, "names " .. tostring(s) .. ", which data/stairs_spells.json does not have")
    end
  end

  check = checker("stairs_items", problems)
  unique(raw.items, check)
  for i, it in ipairs(raw.items) do
    local kinds = { weapon = true, armor = true, potion = true }
    check(it, i, "kind", kinds[it.kind] == true, "must be weapon, armor or potion")
    check(it, i, "price", math.type(it.price) == "integer" and it.price >= 0, "must be a whole number, 0 or more")
    if it.kind == "weapon" then
      check(it, i, "damage", is_pair(it.damage) and it.damage[1] >= 1, "must be [min, max] with 1 <= min <= max")
      check(it, i, "reach", math.type(it.reach) == "integer" and it.reach >= 1 and it.reach <= 3, "must be 1, 2 or 3")
    elseif it.kind == "armor" then
      check(it, i, "ac", math.type(it.ac) == "integer" and it.ac >= 0, "must be a whole number, 0 or more")
    elseif it.kind == "potion" then
      check(it, i, "heal", it.heal == nil or is_pair(it.heal), "must be [min, max]")
      check(it, i, "heal", it.heal ~= nil or it.cures ~= nil, "a potion must heal or cure something")
    end
    for _, cls in ipairs(type(it.classes) == "table" and it.classes or {}) do
      check(it, i, "classes", t.classes[cls] ~= nil, "names " .. tostring(cls) .. ", which is not a class")
    end
  end

  check = checker("stairs_spells", problems)
  unique(raw.spells, check)
  local targets = { member = true, party = true, enemy = true, group = true, all = true }
  for i, s in ipairs(raw.spells) do
    check(s, i, "class", t.classes[s.class] ~= nil, "names " .. tostring(s.class) .. ", which is not a class")
    check(s, i, "cost", math.type(s.cost) == "integer" and s.cost >= 1, "must be a whole number, 1 or more")
    check(s, i, "level", math.type(s.level) == "integer" and s.level >= 1, "must be a whole number, 1 or more")
    check(s, i, "target", targets[s.target] == true, "must be member, party, enemy, group or all")
    check(s, i, "damage", s.damage == nil or is_pair(s.damage), "must be [min, max]")
    check(s, i, "heal", s.heal == nil or is_pair(s.heal), "must be [min, max]")
    check(s, i, "dispel", s.dispel == nil or is_pair(s.dispel), "must be [min, max]")
    check(s, i, "sleep", s.sleep == nil or is_chance(s.sleep), "must be a chance from 0 to 1")
    check(s, i, "cures", s.cures == nil or s.cures == "poison" or s.cures == "sleep", "must be poison or sleep")
    check(s, i, "target", s.damage or s.heal or s.cures or s.sleep or s.dispel,
      "the spell does nothing (give damage, heal, cures, sleep or dispel)")
    local fits = {
      member = s.heal or s.cures, party = s.heal, enemy = s.damage,
      group = s.damage or s.sleep or s.dispel, all = s.damage,
    }
    check(s, i, "target", targets[s.target] ~= true or fits[s.target] ~= nil,
      "a spell on " .. tostring(s.target) .. " cannot do what this one does")
  end

  check = checker("stairs_groups", problems)
  unique(raw.groups, check)
  for i, g in ipairs(raw.groups) do
    check(g, i, "name", type(g.name) == "string" and g.name ~= "", "must be a name")
    check(g, i, "plural", type(g.plural) == "string" and g.plural ~= "", "must be a name")
    check(g, i, "hp", is_pair(g.hp) and g.hp[1] >= 1, "must be [min, max] with 1 <= min <= max")
    check(g, i, "attack", is_pair(g.attack), "must be [min, max]")
    check(g, i, "count", is_pair(g.count) and g.count[1] >= 1 and g.count[2] <= 9, "must be [min, max] within 1 to 9")
    check(g, i, "gold", is_pair(g.gold), "must be [min, max]")
    check(g, i, "ac", math.type(g.ac) == "integer", "must be a whole number")
    check(g, i, "xp", math.type(g.xp) == "integer" and g.xp >= 0, "must be a whole number, 0 or more")
    check(g, i, "to_hit", math.type(g.to_hit) == "integer", "must be a whole number")
    check(g, i, "undead", g.undead == nil or type(g.undead) == "boolean", "must be true or false")
    check(g, i, "sweep", g.sweep == nil or type(g.sweep) == "boolean", "must be true or false")
    check(g, i, "shoots", g.shoots == nil or is_pair(g.shoots), "must be [min, max]")
    check(g, i, "regen", g.regen == nil or (math.type(g.regen) == "integer" and g.regen >= 1), "must be a whole number, 1 or more")
    check(g, i, "poison", g.poison == nil or is_chance(g.poison), "must be a chance from 0 to 1")
    check(g, i, "sleep", g.sleep == nil or is_chance(g.sleep), "must be a chance from 0 to 1")
    if g.spell ~= nil then
      local sp = g.spell
      local ok = type(sp) == "table"
      check(g, i, "spell", ok, "must be a table with name and chance")
      if ok then
        check(g, i, "spell.name", type(sp.name) == "string" and sp.name ~= "", "must be a name")
        check(g, i, "spell.chance", is_chance(sp.chance), "must be a chance from 0 to 1")
        check(g, i, "spell.damage", sp.damage == nil or is_pair(sp.damage), "must be [min, max]")
        check(g, i, "spell.heal", sp.heal == nil or is_pair(sp.heal), "must be [min, max]")
        check(g, i, "spell.sleep", sp.sleep == nil or is_chance(sp.sleep), "must be a chance from 0 to 1")
        check(g, i, "spell.target", sp.target == nil or sp.target == "party" or sp.target == "back", "must be party or back")
        check(g, i, "spell", sp.damage or sp.heal or sp.sleep, "does nothing (give damage, heal or sleep)")
      end
    end
    for j, w in ipairs(type(g.with) == "table" and g.with or {}) do
      check(g, i, "with[" .. j .. "]", type(w) == "table" and t.groups[w.group] ~= nil and is_pair(w.count),
        "must name a group and a [min, max] count")
    end
  end

  check = checker("stairs_levels", problems)
  for i, l in ipairs(raw.levels) do
    for _, g in ipairs(type(l.groups) == "table" and l.groups or {}) do
      check(l, i, "groups", t.groups[g] ~= nil, "names " .. tostring(g) .. ", which data/stairs_groups.json does not have")
    end
    for j, f in ipairs(type(l.encounters) == "table" and l.encounters or {}) do
      check(l, i, "encounters[" .. j .. "].group", t.groups[f.group] ~= nil,
        "names " .. tostring(f.group) .. ", which data/stairs_groups.json does not have")
    end
    for j, loot in ipairs(type(l.chests) == "table" and l.chests or {}) do
      local kind, value = tostring(loot):match("^([%a_]+):(.+)$")
      if kind == "item" then
        check(l, i, "chests[" .. j .. "]", t.items[value] ~= nil, "gives " .. value .. ", which data/stairs_items.json does not have")
      end
    end
  end
  return t, problems
end

return M
