-- The banner over a battle table. The countdown and "go!" sit small and high, over the strip
-- above the board, so every cell and both hands can be read while it counts; an ending sits
-- large in the middle, where play has stopped.
--
--   local banner = import("flow/banner.lua")
--   banner.show("3", "", "count")        -- or (text, why, "end"); ("", "") hides it
--
-- The scene has `banner` (text), `banner_why` (text) and `banner_back` (a nine-slice card).

local B = {}

local PLACES = {
  count = { back = { 0, 3.85 }, size = { 2.6, 1.1 }, text = { 0, 3.88 }, font = 0.8, why = { 0, 3.5 } },
  ["end"] = { back = { 0, -0.05 }, size = { 7.2, 2.7 }, text = { 0, 0.35 }, font = 1.2, why = { 0, -0.6 } },
}

function B.show(text, why, where)
  local at = PLACES[where] or PLACES["end"]
  Entity.set(Entity.find("banner_back"), "transform", { pos = at.back })
  Entity.set(Entity.find("banner_back"), "sprite", { size = at.size })
  Entity.set(Entity.find("banner"), "transform", { pos = at.text })
  Entity.set(Entity.find("banner"), "text", { size = at.font })
  Entity.set(Entity.find("banner_why"), "transform", { pos = at.why })
  Text.set(Entity.find("banner"), text)
  Text.set(Entity.find("banner_why"), why)
  Entity.set(Entity.find("banner_back"), "sprite", { tint = { 1, 1, 1, text ~= "" and 1 or 0 } })
end

return B
