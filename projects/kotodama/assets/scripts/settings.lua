-- Settings: the keys and pointer moves of the puzzle and battle scenes, the music and sound
-- volumes (◀ ▶ on a focused volume, or a click, which steps it up and round), and the online
-- server's address (Enter, type or paste it, Enter again), saved.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")
local m

local GOLD = { 0.941, 0.788, 0.416, 1 }
local IVORY = { 0.957, 0.918, 0.847, 1 }
local MUSIC, SOUNDS, SERVER = 2, 3, 4
local DEFAULT_SERVER = "ws://127.0.0.1:7777/"
local levels = {}
local editing = nil

local function server()
  local s = Save.get("server")
  if type(s) == "string" and s ~= "" then return s end
  return DEFAULT_SERVER
end

local function show_server()
  local label = Entity.find("server_label")
  if editing ~= nil then
    Text.set(label, "server  " .. editing .. "_   (Enter keeps, Esc leaves)")
  else
    Text.set(label, "online server  " .. server())
  end
  Entity.set(label, "text", { color = m.focus == SERVER and GOLD or IVORY })
end

local function show()
  for i, name in pairs({ [MUSIC] = "music", [SOUNDS] = "sounds" }) do
    local label = Entity.find(name .. "_vol_label")
    Text.set(label, string.format("%s  ◀ %d%% ▶", name, math.floor(levels[i] * 100 + 0.5)))
    Entity.set(label, "text", { color = m.focus == i and GOLD or IVORY })
  end
end

local function set(i, level)
  levels[i] = math.max(0, math.min(1, math.floor(level * 10 + 0.5) / 10))
  Save.set("settings", { music = levels[MUSIC], sound = levels[SOUNDS] })
  sound.apply_volumes()
  show()
end

function start(e)
  sound.music("title.wav")
  levels[MUSIC], levels[SOUNDS] = sound.volumes()
  m = menu.new({
    { button = "back", label = "back_label", on = function() Scene.load("title") end },
    { button = "music_vol", on = function() set(MUSIC, levels[MUSIC] >= 1 and 0 or levels[MUSIC] + 0.1) end },
    { button = "sounds_vol", on = function() set(SOUNDS, levels[SOUNDS] >= 1 and 0 or levels[SOUNDS] + 0.1) end },
    { button = "server", on = function() editing = server() end },
  }, { back = function() Scene.load("title") end })
  Entity.set(Entity.find("back_label"), "text", { color = GOLD })
  show()
end

function update(e, dt)
  m:update(dt)
  Entity.set(Entity.find("back_label"), "text", { color = m.focus == 1 and GOLD or IVORY })
  show()
  show_server()
end

-- Typed or pasted text goes into the address being edited (one line, at most 200 bytes).
function text(e, t)
  if editing == nil then return end
  editing = (editing .. t:gsub("[%c%s]", "")):sub(1, 200)
end

function pointer(e, phase, x, y) m:pointer(phase, x, y) end

function key(e, name, down)
  if editing ~= nil then
    if not down then return end
    if name == "enter" then
      local ok = editing:match("^ws://[%w%.%-]+:?%d*/?.*$") ~= nil
      if ok then Save.set("server", editing) end
      editing = nil
    elseif name == "escape" then
      editing = nil
    elseif name == "backspace" then
      editing = editing:sub(1, -2)
    end
    return
  end
  if down and (m.focus == MUSIC or m.focus == SOUNDS) and (name == "left" or name == "right") then
    set(m.focus, levels[m.focus] + (name == "right" and 0.1 or -0.1))
    return
  end
  m:key(name, down)
end
