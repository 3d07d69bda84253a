-- The title: the warren's first corridor behind a flickering torch, slowly looking about, and
-- a menu beside it. "Continue" is offered only when a crawl was saved; it tells the crawl
-- scene to load that save rather than start afresh.

local IVORY = { 0.949, 0.875, 0.722, 1 }
local OCHRE = { 0.91, 0.69, 0.29, 1 }
local REST = { 0.85, 0.82, 0.78, 1 }
local LIT = { 1.1, 1.05, 0.95, 1 }
local PRESSED = { 0.6, 0.55, 0.5, 1 }
local OFF = { 0.45, 0.42, 0.4, 1 }

local menu = import("jengine/menu.lua")

local demo
local m
local clock = 0
local next_turn = 4
local marked

-- Each button's tint and its label's colour: the focus ochre, an item that is off dim.
local function look(s)
  local tint = REST
  if s.off then tint = OFF
  elseif s.pressed then tint = PRESSED
  elseif s.lit then tint = LIT end
  local colour = IVORY
  if s.off then colour = { 0.6, 0.55, 0.5, 1 } elseif s.focus then colour = OCHRE end
  return { tint = tint, colour = colour }
end

function start(e)
  Audio.stop_music({ fade = 0.5 })
  demo = e
  local saved = Save.get("warren") ~= nil
  m = menu.new({
    { button = "new", label = "new_label", on = function()
      Save.set("warren_continue", nil)
      Scene.load("warren")
    end },
    { button = "continue", label = "continue_label", off = not saved and "No crawl has been saved yet.", on = function()
      Save.set("warren_continue", true)
      Scene.load("warren")
    end },
    { button = "quit", label = "quit_label", on = function() Scene.quit() end },
  }, {
    wrap = true,
    focus = saved and 2 or 1,
    keys = menu.keys({ w = "up", s = "down", left = false, right = false, backspace = false }),
    hit = "last",
    back = function() Scene.quit() end,
    say = function(why) Text.set(Entity.find("status"), why) end,
    look = look,
  })
end

-- Draws the buttons, and the mark under the focused one.
local function light()
  m:update()
  if marked == m.focus then return end
  marked = m.focus
  local b = m.items[m.focus].entity
  local t = Entity.get(b, "transform")
  local s = Entity.get(b, "sprite")
  Entity.set(Entity.find("focus"), "transform", { pos = { t.pos[1], t.pos[2] - s.size[2] / 2 - 0.06 } })
end

function update(e, dt)
  clock = clock + dt
  -- Torchlight: a slow warm breathing over the corridor, never a flash.
  local glow = 0.05 + 0.035 * math.sin(clock * 2.1) + 0.02 * math.sin(clock * 5.3 + 1.0)
  Entity.set(Entity.find("torch"), "sprite", { tint = { 1.0, 0.55, 0.15, glow } })
  -- The party looks about now and then: the title's demo.
  if clock >= next_turn then
    next_turn = next_turn + 4
    Crawler.turn(demo, 1)
  end
  light()
end

function key(e, name, down)
  m:key(name, down)
end

function pointer(e, phase, x, y)
  m:pointer(phase, x, y)
end
