-- The party's rules as this game reads them from the Gold Box tables in data/: races and the
-- classes open to them (single, and the multi-class combinations a race lists, such as an
-- elf's fighter/mage), ability minimums, starting kit, who is ready to train, and the spells a
-- caster may memorise.

local M = {}

M.ABILITIES = { "str", "int", "wis", "dex", "con", "cha" }
M.NAMES = { "Aldren", "Brisa", "Corin", "Dessa", "Evart", "Fenna" }
M.ALIGNMENTS = { "lawful good", "neutral good", "chaotic good", "lawful neutral", "true neutral", "chaotic neutral" }
M.RACES = {}

-- What each class, and each combination, starts with (light enough for any strength the
-- classes allow). A combination with a mage wears no armour, so its spells work; the rules
-- would let its fighter half wear mail, and the shop sells it.
M.KIT = {
  fighter = { "long sword", "leather armour", "shield" },
  cleric = { "mace", "leather armour", "shield" },
  mage = { "dagger" },
  thief = { "short sword", "leather armour" },
  ["fighter/mage"] = { "long sword" },
  ["fighter/thief"] = { "long sword", "leather armour" },
  ["mage/thief"] = { "short sword" },
  ["fighter/mage/thief"] = { "long sword" },
  ["cleric/fighter"] = { "mace", "leather armour", "shield" },
  ["cleric/mage"] = { "mace" },
  ["cleric/fighter/mage"] = { "mace" },
}

-- The classes of a race table's entry ("fighter/mage" is two), and its key in KIT.
function M.split(entry)
  local parts = {}
  for part in string.gmatch(entry, "[^/]+") do parts[#parts + 1] = part end
  local sorted = {}
  for i, p in ipairs(parts) do sorted[i] = p end
  table.sort(sorted)
  return parts, table.concat(sorted, "/")
end

local races, classes, spells = {}, {}, {}

function M.load(read)
  M.RACES = {}
  for _, r in ipairs(read("goldbox_races") or {}) do
    races[r.name] = r
    M.RACES[#M.RACES + 1] = r.name
  end
  for _, c in ipairs(read("goldbox_classes") or {}) do classes[c.name] = c end
  spells = read("goldbox_spells") or {}
end

function M.adjusted(race, abilities)
  local out = {}
  local adjust = (races[race] or {}).adjust or {}
  for _, k in ipairs(M.ABILITIES) do
    out[k] = math.max(3, math.min(19, abilities[k] + (adjust[k] or 0)))
  end
  return out
end

-- What `race` may be, as its table lists it (single classes first, then combinations such as
-- "fighter/thief"), where the adjusted abilities meet the minimums of every class in it.
function M.classes_open(race, abilities)
  local a = M.adjusted(race, abilities)
  local open = {}
  for _, entry in ipairs((races[race] or {}).classes or {}) do
    local parts, key = M.split(entry)
    local ok = M.KIT[key] ~= nil
    for _, name in ipairs(parts) do
      local c = classes[name]
      if not c then ok = false else
        for k, min in pairs(c.minimum or {}) do
          if a[k] < min then ok = false end
        end
      end
    end
    if ok then open[#open + 1] = entry end
  end
  return open
end

-- A row of the party table: every class at level 1 (the rules share out hit points and, later,
-- experience among them) with the combination's kit.
function M.row(name, race, class, abilities)
  local a = {}
  for _, k in ipairs(M.ABILITIES) do a[k] = abilities[k] end
  local parts, key = M.split(class)
  local levels = {}
  for i = 1, #parts do levels[i] = 1 end
  return { name = name, race = race, classes = parts, levels = levels, abilities = a, items = M.KIT[key] }
end

function M.classes_of(m)
  local parts = {}
  for _, c in ipairs(m.classes or {}) do parts[#parts + 1] = c.class .. " " .. c.level end
  return table.concat(parts, "/")
end

function M.xp_of(m)
  local n = 0
  for _, c in ipairs(m.classes or {}) do n = n + c.xp end
  return n
end

function M.spells_line(m)
  local parts = {}
  for _, s in ipairs(m.memorised or {}) do
    parts[#parts + 1] = s.used and ("(" .. s.spell .. ")") or s.spell
  end
  return table.concat(parts, ", ")
end

-- Whether some class of `m` has the experience for its next level (and the race allows it).
function M.ready(m)
  local limits = (races[m.race] or {}).level_limits or {}
  for _, c in ipairs(m.classes or {}) do
    local k = classes[c.class]
    local next_xp = k and k.xp[c.level + 1]
    if next_xp and c.xp >= next_xp and c.level < (limits[c.class] or 99) then return true end
  end
  return false
end

-- How many first-level spells `m`'s casting classes hold.
function M.slots(m)
  local n = 0
  for _, c in ipairs(m.classes or {}) do
    local k = classes[c.class]
    local row = k and k.slots and k.slots[c.level]
    if row and row[1] then n = n + row[1] end
  end
  return n
end

-- The first-level spells of the schools `m` casts.
function M.spells_for(m)
  local schools = {}
  for _, c in ipairs(m.classes or {}) do
    local k = classes[c.class]
    if k and k.casts then schools[k.casts] = true end
  end
  local out = {}
  for _, s in ipairs(spells) do
    if s.level == 1 and schools[s.school] then out[#out + 1] = s.name end
  end
  return out
end

return M
