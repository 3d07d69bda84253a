-- The title: two bots play on the table beside the menu, and the menu leads everywhere else.
-- Online leads to the lobby of a battle against another player through a room server.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")
local m
local lit = nil

local IVORY = { 0.957, 0.918, 0.847, 1 }
local GOLD = { 0.941, 0.788, 0.416, 1 }

function start(e)
  sound.music("title.wav")
  -- The demo is scenery: the table plays itself and the title never passes it input.
  Kotoba.demo(e)
  m = menu.new({
    { button = "puzzle", label = "puzzle_label", on = function() Scene.load("stages") end },
    { button = "battle", label = "battle_label", on = function() Scene.load("rivals") end },
    { button = "online", label = "online_label", on = function() Scene.load("online") end },
    { button = "howto", label = "howto_label", on = function() Scene.load("howto") end },
    { button = "wordbook", label = "wordbook_label", on = function() Scene.load("wordbook") end },
    { button = "settings", label = "settings_label", on = function() Scene.load("settings") end },
    { button = "quit", label = "quit_label", on = function() Scene.quit() end },
  })
  -- A save that could not be read was set aside: the player is told, under the menu.
  local problem = Save.problem()
  if problem ~= nil then Text.set(Entity.find("status"), problem) end
end

-- The focused item's label turns gold, so the keyboard's place shows beside the pointer's.
local function light_label()
  if lit == m.focus then return end
  for i, item in ipairs(m.items) do
    if item.label ~= nil and (i == m.focus or i == lit) then
      Entity.set(item.label, "text", { color = i == m.focus and GOLD or IVORY })
    end
  end
  lit = m.focus
end

function update(e, dt)
  m:update(dt)
  light_label()
end

function pointer(e, phase, x, y) m:pointer(phase, x, y) end
function key(e, name, down) m:key(name, down) end
