-- The title: the stair into the dark behind the name, New game, Continue (the inn's save)
-- and Quit. The game's data tables are checked here first; if any is broken the problems are
-- listed, each with its file and row, and only Quit is offered.

local menu = import("ui/menu.lua")
local data = import("rules/data.lua")
local state = import("game/state.lua")

local m = menu.new("menu", 3)
local said

function start(e)
  Audio.music("town.wav", { loop = true, volume = 0.5, fade = 1.5 })
  local _, problems = data.load(Data.table)
  local broken = #problems > 0 and "The game's data has problems (listed below)." or nil
  if broken then
    local shown = {}
    for i = 1, math.min(#problems, 8) do shown[i] = problems[i] end
    if #problems > 8 then shown[#shown + 1] = string.format("... and %d more", #problems - 8) end
    menu.text("problems", table.concat(shown, "\n"))
  end
  local slot, bad = state.slot()
  local none = "Nothing is saved yet: the inn keeps your game."
  if bad then none = "The saved game cannot be played (" .. bad .. "); New game starts afresh." end
  m:set({
    { label = "New game", off = broken, on = function()
      state.keep(state.new(7))
      Scene.load("town")
    end },
    { label = "Continue", off = broken or (slot == nil and none or nil),
      on = function()
        state.keep(slot)
        Scene.load("town")
      end },
    { label = "Quit", on = function() Scene.quit() end },
  })
  if slot ~= nil and not broken then m.focus = 2; m:draw() end
  if bad then menu.text("subtitle", none) end
end

local function answer(why)
  if why then
    said = why
    menu.text("subtitle", why)
  end
end

function key(e, name, down)
  if not down then return end
  if name == "escape" then Scene.quit() return end
  answer(m:key(name))
end

function pointer(e, phase, x, y)
  answer(m:pointer(phase, x, y))
end

-- The picture is never still: it drifts slowly from side to side, and its light wavers as
-- torchlight does.
local clock = 0
function update(e, dt)
  clock = clock + dt
  local drift = 0.25 * math.sin(clock * 0.21)
  local light = 1 + 0.04 * math.sin(clock * 7.3) * math.sin(clock * 3.1) + 0.025 * math.sin(clock * 13.7)
  local picture = Entity.find("picture")
  Entity.set(picture, "transform", { pos = { drift, 0.5 } })
  Entity.set(picture, "sprite", { tint = { 0.55 * light, 0.6 * light, 0.7 * light, 1 } })
end
