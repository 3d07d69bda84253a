-- The title: the warren's first corridor behind a flickering torch, slowly looking about, and
-- a menu beside it. "Continue" is offered only when a crawl was saved; it tells the crawl
-- scene to load that save rather than start afresh.

local IVORY = { 0.949, 0.875, 0.722, 1 }
local OCHRE = { 0.91, 0.69, 0.29, 1 }
local REST = { 0.85, 0.82, 0.78, 1 }
local LIT = { 1.1, 1.05, 0.95, 1 }
local PRESSED = { 0.6, 0.55, 0.5, 1 }
local OFF = { 0.45, 0.42, 0.4, 1 }

local demo
local items = {}
local focus = 1
local hover, pressed
local clock = 0
local next_turn = 4
local shown = {}

local function choose(i)
  local item = items[i]
  if item == nil then return end
  if not item.enabled then
    Text.set(Entity.find("status"), "No crawl has been saved yet.")
    return
  end
  item.on()
end

function start(e)
  Audio.stop_music({ fade = 0.5 })
  demo = e
  local saved = Save.get("warren") ~= nil
  local list = {
    { name = "new", enabled = true, on = function()
      Save.set("warren_continue", nil)
      Scene.load("warren")
    end },
    { name = "continue", enabled = saved, on = function()
      Save.set("warren_continue", true)
      Scene.load("warren")
    end },
    { name = "quit", enabled = true, on = function() Scene.quit() end },
  }
  for _, item in ipairs(list) do
    local b = Entity.find(item.name)
    local t = Entity.get(b, "transform")
    local s = Entity.get(b, "sprite")
    item.e = b
    item.label = Entity.find(item.name .. "_label")
    item.x, item.y = t.pos[1], t.pos[2]
    item.w, item.h = s.size[1] / 2, s.size[2] / 2
    items[#items + 1] = item
  end
  if saved then focus = 2 end
end

local function light()
  for i, item in ipairs(items) do
    local tint = REST
    if not item.enabled then tint = OFF
    elseif pressed == i then tint = PRESSED
    elseif focus == i or hover == i then tint = LIT end
    if shown[i] ~= tint then
      shown[i] = tint
      Entity.set(item.e, "sprite", { tint = tint })
      Entity.set(item.label, "text", {
        color = (focus == i and item.enabled) and OCHRE or (item.enabled and IVORY or { 0.6, 0.55, 0.5, 1 }),
      })
    end
  end
  local f = items[focus]
  Entity.set(Entity.find("focus"), "transform", { pos = { f.x, f.y - f.h - 0.06 } })
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
  if not down then return end
  if name == "up" or name == "w" then
    focus = focus > 1 and focus - 1 or #items
  elseif name == "down" or name == "s" then
    focus = focus < #items and focus + 1 or 1
  elseif name == "enter" or name == "space" then
    choose(focus)
  elseif name == "escape" then
    Scene.quit()
  end
  for k in pairs(shown) do shown[k] = nil end
end

function pointer(e, phase, x, y)
  local hit = nil
  for i, item in ipairs(items) do
    if math.abs(x - item.x) <= item.w and math.abs(y - item.y) <= item.h then hit = i end
  end
  if hit ~= hover or phase ~= "hover" then for k in pairs(shown) do shown[k] = nil end end
  hover = hit
  if hit then focus = hit end
  if phase == "press" then
    pressed = hit
  elseif phase == "release" then
    local was = pressed
    pressed = nil
    if was ~= nil and was == hit then choose(hit) end
  end
end
