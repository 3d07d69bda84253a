-- The party's rules as this game reads them from the Gold Box tables in data/: races and the
-- single classes open to them, ability minimums, starting kit, who is ready to train, and the
-- spells a caster may memorise.

local M = {}

M.ABILITIES = { "str", "int", "wis", "dex", "con", "cha" }
M.NAMES = { "Aldren", "Brisa", "Corin", "Dessa", "Evart", "Fenna" }
M.ALIGNMENTS = { "lawful good", "neutral good", "chaotic good", "lawful neutral", "true neutral", "chaotic neutral" }
M.RACES = {}

-- What each class starts with (light enough for any strength a class allows).
M.KIT = {
  fighter = { "long sword", "leather armour", "shield" },
  cleric = { "mace", "leather armour", "shield" },
  mage = { "dagger" },
  thief = { "short sword", "leather armour" },
}

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

-- The single classes `race` may take whose minimums the adjusted abilities meet.
function M.classes_open(race, abilities)
  local a = M.adjusted(race, abilities)
  local open = {}
  for _, name in ipairs((races[race] or {}).classes or {}) do
    local c = classes[name]
    if c and M.KIT[name] then
      local ok = true
      for k, min in pairs(c.minimum or {}) do
        if a[k] < min then ok = false end
      end
      if ok then open[#open + 1] = name end
    end
  end
  return open
end

-- A row of the party table.
function M.row(name, race, class, abilities)
  local a = {}
  for _, k in ipairs(M.ABILITIES) do a[k] = abilities[k] end
  return { name = name, race = race, classes = { class }, levels = { 1 }, abilities = a, items = M.KIT[class] }
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
