-- The title: the first proof playing itself behind the name (the cat walks toward the flag
-- and back, never quite winning), and three choices. A gift link given at launch, or pasted
-- here, opens the Gift preview at once.

local screen = import("ui/screen.lua")
local s = screen.new()

local game
local focus = 1
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

function start(e)
  game = e
  screen.music()
end

local names = {}
for i, item in ipairs(items) do names[i] = item.button end

local function light()
  for i, item in ipairs(items) do
    s:button(item.button, i == focus)
  end
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
  light()
end

function key(e, name, down)
  if not down then return end
  if name == "left" or name == "a" then
    focus = focus > 1 and focus - 1 or #items
  elseif name == "right" or name == "d" then
    focus = focus < #items and focus + 1 or 1
  elseif name == "enter" or name == "space" then
    screen.chosen()
    items[focus].on()
  elseif name == "escape" then
    Scene.quit()
  end
end

-- A link pasted on the title opens it.
function text(e, t)
  Miau.open_link(game, t)
end

function pointer(e, phase, x, y)
  local clicked = s:buttons(names, phase, x, y)
  for i, item in ipairs(items) do
    if item.button == s.hover then focus = i end
    if item.button == clicked then item.on() end
  end
end
