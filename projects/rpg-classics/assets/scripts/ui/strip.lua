-- The party along the bottom: six slots, each a portrait, a name with class and level, hit
-- points and spell points or the member's trouble. A dead member's portrait is dimmed.

local menu = import("ui/menu.lua")

local M = {}

-- Where each portrait is in portraits.png (128-pixel cells, 4 across).
local PORTRAITS = {
  fighter_a = { 0, 0 }, priest_a = { 128, 0 }, mage_a = { 256, 0 }, thief_a = { 384, 0 },
  fighter_b = { 0, 128 }, priest_b = { 128, 128 }, mage_b = { 256, 128 }, thief_b = { 384, 128 },
}

local GREEN = { 0.6, 0.95, 0.6, 1 }
local RED = { 0.95, 0.45, 0.4, 1 }
local TEXT = { 0.86, 0.89, 0.95, 1 }
local DIM = { 0.56, 0.61, 0.7, 1 }

M.PORTRAITS = PORTRAITS

-- Hit points as shown, by slot: they run towards the real ones rather than jump.
local shown_hp = {}

-- A number shown `from` on its way to `to`, `dt` seconds on: quick for a big change, never
-- slower than ten a second, landing exactly.
function M.toward(from, to, dt)
  if from == nil or dt == nil then return to end
  local gap = to - from
  local stepped = math.max(10, math.abs(gap) * 6) * dt
  if math.abs(gap) <= stepped then return to end
  return from + (gap > 0 and stepped or -stepped)
end

-- `marked`: the slot whose turn it is, if any; `dt`: seconds since the last draw (numbers
-- jump to their values without it).
function M.draw(party, classes, marked, dt)
  for i = 1, 6 do
    local m = party[i]
    local p = "portrait_" .. i
    if m == nil then
      shown_hp[i] = nil
      menu.tint(p, { 1, 1, 1, 0 })
      menu.text("pname_" .. i, i <= 3 and "(front)" or "(back)")
      menu.colour("pname_" .. i, DIM)
      menu.text("php_" .. i, "")
      menu.text("psp_" .. i, "")
      menu.tint("slot_" .. i, { 0.6, 0.6, 0.7, 0.5 })
    else
      local at = PORTRAITS[m.portrait] or { 0, 0 }
      menu.put(p, "sprite", { region = { at[1], at[2], 128, 128 }, __k = m.portrait }, "region")
      local dead = m.status == "dead"
      menu.tint(p, dead and { 0.35, 0.3, 0.3, 1 } or { 1, 1, 1, 1 })
      local class = classes[m.class]
      menu.text("pname_" .. i, string.format("%s  %s%d", m.name, class and class.name:sub(1, 1) or "?", m.level))
      menu.colour("pname_" .. i, i == marked and { 0.98, 0.84, 0.48, 1 } or TEXT)
      shown_hp[i] = M.toward(shown_hp[i], m.hp, dt)
      menu.text("php_" .. i, dead and "DEAD" or string.format("HP %d/%d", math.floor(shown_hp[i] + 0.5), m.max_hp))
      menu.colour("php_" .. i, dead and RED or (m.hp * 3 <= m.max_hp and RED or GREEN))
      local trouble = ({ poisoned = "POISONED", asleep = "ASLEEP" })[m.status]
      if trouble then
        menu.text("psp_" .. i, trouble)
        menu.colour("psp_" .. i, RED)
      else
        menu.text("psp_" .. i, m.max_sp > 0 and string.format("SP %d/%d", m.sp, m.max_sp) or "")
        menu.colour("psp_" .. i, DIM)
      end
      menu.tint("slot_" .. i, i == marked and { 1.25, 1.15, 0.8, 1 } or { 1, 1, 1, 1 })
    end
  end
end

return M
