-- The title: the first proof playing itself behind the name (the cat walks toward the flag
-- and back, never quite winning), and three choices. A gift link given at launch, or pasted
-- here, opens the Gift preview at once.

local screen = import("ui/screen.lua")
local menu = import("jengine/menu.lua")
local s = screen.new()

local game
local m
local clock = 0
local demo_step = 0
local DEMO = { "right", "right", "right", "wait", "left", "left", "left", "wait" }
local went = false

local items = {
  { button = "btn_play", label = "btn_play_label", on = function() Scene.load("index") end },
  { button = "btn_workshop", label = "btn_workshop_label", on = function()
    Save.set("miau_back", "title")
    Scene.load("workshop")
  end },
  { button = "btn_quit", label = "btn_quit_label", on = function() Scene.quit() end },
}

-- The three buttons in a row: left and right (or A and D) move along, coming round at the
-- ends; Enter or Space choose; Escape quits.
local KEYS = menu.keys({ a = "left", d = "right", up = false, down = false, backspace = false })

function start(e)
  game = e
  screen.music()
  m = s:menu(items, { focus = 1, columns = #items, wrap = true, keys = KEYS, back = function() Scene.quit() end })
end

function update(e, dt)
  local bag = Entity.get(e, "Miau")
  if bag ~= nil and bag.pending ~= nil and not went then
    went = true
    Save.set("miau_back", "title")
    Scene.load("gift")
    return
  end
  if bag ~= nil and bag.outcome ~= nil and bag.outcome.op == "link" and not bag.outcome.ok then
    s:text("status", bag.outcome.message)
  end
  clock = clock + dt
  if clock >= 0.7 then
    clock = 0
    demo_step = demo_step % #DEMO + 1
    Miau.move(e, DEMO[demo_step])
  end
  m:update()
end

function key(e, name, down)
  m:key(name, down)
end

-- A link pasted on the title opens it.
function text(e, t)
  Miau.open_link(game, t)
end

function pointer(e, phase, x, y)
  m:pointer(phase, x, y)
end
