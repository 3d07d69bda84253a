-- The pause menu of a game in play: resume, restart, back. Its entities live in the scene
-- (pause_veil, pause_panel, pause_title, pause_hint, pause_resume / pause_restart / pause_back
-- with their _label texts, pause_focus) and wait far above the screen until the menu opens,
-- so a closed menu can neither be seen nor touched.
--
--   local pause = import("flow/pause.lua")
--   local p = pause.new({ resume = f, restart = f, back = f })
--   p:open() / p:close(); while p.is_open, hand it pointer, key and update.

local menu = import("ui/menu.lua")
local focus = import("flow/focus.lua")

local P = {}
P.__index = P

local AWAY = 100
local PARTS = {
  "pause_veil", "pause_panel", "pause_title", "pause_hint",
  "pause_resume", "pause_resume_label", "pause_restart", "pause_restart_label",
  "pause_back", "pause_back_label",
}

-- `on`: { resume = function, restart = function, back = function }; each is called after the
-- menu has closed.
function P.new(on)
  local p = setmetatable({ is_open = false, parts = {}, on = on }, P)
  for _, name in ipairs(PARTS) do
    local e = Entity.find(name)
    if e == nil then error("pause: no entity named " .. name, 2) end
    local t = Entity.get(e, "transform")
    p.parts[#p.parts + 1] = { e = e, home = { t.pos[1], t.pos[2] } }
    Entity.set(e, "transform", { pos = { t.pos[1], t.pos[2] + AWAY } })
  end
  local function after(what)
    return function()
      p:close()
      on[what]()
    end
  end
  p.m = menu.new({
    { button = "pause_resume", label = "pause_resume_label", on = after("resume") },
    { button = "pause_restart", label = "pause_restart_label", on = after("restart") },
    { button = "pause_back", label = "pause_back_label", on = after("back") },
  }, { back = after("resume") })
  local homes = {}
  for _, part in ipairs(p.parts) do homes[part.e] = part.home end
  p.f = focus.new(p.m, "pause_focus", {
    pad = 0.14,
    at = function(i) return homes[p.m.items[i].entity] end,
  })
  p.f:hide(true)
  return p
end

-- Shows the menu with the focus on resume.
function P:open()
  if self.is_open then return end
  self.is_open = true
  for _, part in ipairs(self.parts) do
    Entity.set(part.e, "transform", { pos = part.home })
  end
  self.m.focus = 1
  self.m.pressed = nil
  self.f:hide(false)
  self.f:refresh()
end

function P:close()
  if not self.is_open then return end
  self.is_open = false
  for _, part in ipairs(self.parts) do
    Entity.set(part.e, "transform", { pos = { part.home[1], part.home[2] + AWAY } })
  end
  self.f:hide(true)
end

-- P resumes as Escape does; everything else is the menu's.
function P:key(name, down)
  if down and name == "p" then
    self.m:choose(1)
    return
  end
  self.m:key(name, down)
end

function P:pointer(phase, x, y)
  self.m:pointer(phase, x, y)
end

function P:update(dt)
  if not self.is_open then return end
  self.m:update(dt)
  self.f:update()
end

return P
