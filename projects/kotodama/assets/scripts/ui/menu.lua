-- Kotodama's menus: the engine's shared menu (jengine/menu.lua) in Kotodama's tints and
-- sounds. Buttons light under the pointer and with the focus, which the arrows move in
-- columns and stop at the ends; Enter or Space choose, Escape or Backspace go back. Every
-- scene's script imports it.
--
--   local menu = import("ui/menu.lua")
--   local m = menu.new({
--     { button = "play", label = "play_label", on = function() Scene.load("stages") end },
--     { button = "quit", label = "quit_label", on = function() Scene.quit() end },
--   }, { back = function() Scene.load("title") end, columns = 1 })
--   function pointer(e, phase, x, y) m:pointer(phase, x, y) end
--   function key(e, name, down) m:key(name, down) end
--   function update(e, dt) m:update(dt) end

local shared = import("jengine/menu.lua")

local M = {}

-- Tints: at rest, under the pointer or focused, pressed, and not available.
local REST = { 0.8, 0.82, 0.9, 1 }
local LIT = { 1, 1, 1, 1 }
local PRESSED = { 0.68, 0.66, 0.6, 1 }
local OFF = { 0.42, 0.42, 0.48, 1 }

local SOUNDS = {
  move = { "menu_move.wav", volume = 0.5 },
  choose = { "menu_select.wav", volume = 0.7 },
}

local function look(s)
  if s.off then return { tint = OFF } end
  if s.pressed then return { tint = PRESSED } end
  if s.lit then return { tint = LIT } end
  return { tint = REST }
end

-- `items`: each { button = entity name, label = entity name (optional), on = function,
-- enabled = boolean (default true) }. `options`: { back = function, columns = n (default 1),
-- focus = index (default 1) }. The menu's `items[i]` hold `entity`, `label` (the label's
-- entity), `enabled` and `name`; `focus`, `hover` and `pressed` are item indices.
function M.new(items, options)
  options = options or {}
  return shared.new(items, {
    columns = options.columns,
    focus = options.focus,
    back = options.back,
    sounds = SOUNDS,
    look = look,
  })
end

return M
