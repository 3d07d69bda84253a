-- Settings: the keys and pointer moves of the puzzle and battle scenes. Volumes join them when
-- the game has sound; until then Back (or Escape) is the only thing to choose.

local menu = import("ui/menu.lua")
local m

local GOLD = { 0.941, 0.788, 0.416, 1 }

function start(e)
  m = menu.new({
    { button = "back", label = "back_label", on = function() Scene.load("title") end },
  }, { back = function() Scene.load("title") end })
  Entity.set(Entity.find("back_label"), "text", { color = GOLD })
end

function update(e, dt) m:update(dt) end
function pointer(e, phase, x, y) m:pointer(phase, x, y) end
function key(e, name, down) m:key(name, down) end
