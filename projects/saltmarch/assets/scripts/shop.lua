-- The quay chandler's: what it sells (arms and armour from the Gold Box items table, at the
-- table's `value`, and healing draughts), what it pays back (half), and the lines the shop
-- shows. Whether a member may use a thing, what it weighs against a member's strength and
-- what it does to armour class and damage are the rules' (the GoldBox bag's `sheets`), so
-- this file only words them.

local M = {}

M.DRAUGHT = 10
-- The shelves, each a short menu of its own.
M.SHELVES = {
  { name = "Arms", items = { "dagger", "short sword", "long sword", "mace", "war hammer",
    "quarterstaff", "halberd" } },
  { name = "Bows and slings", items = { "short bow", "sling", "arrows", "sling stones" } },
  { name = "Armour and shields", items = { "leather armour", "chain mail", "plate mail", "shield" } },
}

local items = {}

function M.load(read)
  items = {}
  for _, it in ipairs(read("goldbox_items") or {}) do items[it.name] = it end
end

function M.price(name)
  local it = items[name]
  return it and (it.value or 0) or 0
end

-- The ammunition items, by the sort of missile they feed.
function M.ammo_by_sort()
  local out = {}
  for name, it in pairs(items) do
    if it.kind == "ammo" and it.sort then out[it.sort] = name end
  end
  return out
end

-- Shots in one bundle of `name`.
function M.bundle(name)
  local it = items[name]
  return it and (it.count or 1) or 1
end

function M.sell_price(name)
  return math.floor(M.price(name) / 2)
end

local function usable(sheet, name)
  for _, u in ipairs((sheet or {}).usable or {}) do
    if u == name then return true end
  end
  return false
end

-- A few words on `name` and which members may use it.
function M.about(name, members, sheets)
  local it = items[name]
  if not it then return "" end
  local what
  if it.kind == "ammo" then
    what = (it.count or 1) .. " shots for a " .. (it.sort or "?")
  elseif it.kind == "weapon" or it.kind == "missile" then
    what = (it.damage or "?") .. " damage"
    if it.range then what = what .. ", range " .. it.range end
    if (it.hands or 1) >= 2 then what = what .. ", two hands" end
    if (it.reach or 1) >= 2 then what = what .. ", reach 2" end
  else
    what = (it.ac or 0) .. " better armour class"
    if it.armour then what = what .. " (" .. it.armour .. ")" end
  end
  local who = {}
  for i, m in ipairs(members) do
    if usable(sheets[i], name) then who[#who + 1] = m.name end
  end
  local lines = { string.format("%s: %s; %d coins' weight.", name, what, it.weight or 0) }
  if it.text and it.text ~= "" then lines[#lines + 1] = it.text end
  lines[#lines + 1] = "For: " .. (#who > 0 and table.concat(who, ", ") or "nobody in the party")
  return table.concat(lines, "\n")
end

-- One member's gear as the rules make it, its classes (`classes`) last.
function M.sheet_line(i, m, s, classes)
  local gear = {}
  if s.weapon ~= "" then gear[#gear + 1] = s.weapon .. " " .. s.damage end
  if s.missile ~= "" then
    gear[#gear + 1] = s.shots and string.format("%s (%d shots)", s.missile, s.shots) or s.missile
  end
  if s.armour ~= "" then gear[#gear + 1] = s.armour end
  if s.shield ~= "" then gear[#gear + 1] = s.shield end
  local line = string.format("%d %-7s AC %2d  move %2d  load %d/%d   %s", i, m.name, s.ac or 10,
    s.move_rate or 0, s.load or 0, s.allowance or 0, table.concat(gear, ", "))
  if s.arcane_ok == false then line = line .. " (no spells in that armour)" end
  return line .. "   [" .. classes .. "]"
end

return M
