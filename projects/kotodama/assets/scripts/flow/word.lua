-- The last word made at a battle table, as the puzzle shows it: written form and reading, and
-- its meaning below, in the colour of the player who made it.
--
--   local word = import("flow/word.lua")
--   word.show("word", bag, bag.you)      -- in update

local W = {}

local YOURS = "#f0c96a"
local THEIRS = "#ff9a7a"

-- Shows it on the text entity `name`; `name .. "_back"`, a panel behind it, shows only with a
-- word.
function W.show(name, bag, you)
  local e = Entity.find(name)
  if e == nil then return end
  local last = bag.made[#bag.made]
  local back = Entity.find(name .. "_back")
  if back ~= nil then
    Entity.set(back, "sprite", { tint = { 0.8, 0.82, 0.9, last ~= nil and 1 or 0 } })
  end
  if last == nil then
    Text.set(e, "")
    return
  end
  Text.set(e, last.written .. "  " .. last.reading .. "\n" .. last.meaning)
  Entity.set(e, "text", { color = last.player == you and YOURS or THEIRS })
end

return W
