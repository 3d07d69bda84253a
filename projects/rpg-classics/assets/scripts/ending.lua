-- The ending: the lich fallen, the way out of the seventh stair open, and what the party did.

local menu = import("ui/menu.lua")
local state = import("game/state.lua")

function start(e)
  -- The town's tune, home again.
  Audio.music("town.wav", { loop = true, volume = 0.6, fade = 2 })
  local live = state.load()
  if live == nil or not live.won then
    Scene.load("title")
    return
  end
  local names = {}
  for _, p in ipairs(live.party) do
    names[#names + 1] = string.format("%s (level %d%s)", p.name, p.level, p.status == "dead" and ", fallen" or "")
  end
  menu.text("story", table.concat({
    "The lich falls, and the seventh stair opens onto the morning.",
    "The party: " .. table.concat(names, ", ") .. ".",
    string.format("Fights won: %d. Fights run from: %d. Gold carried out: %d.", live.fights.won, live.fights.fled, live.gold),
  }, "\n"))
  -- The game is over: the next New game starts afresh; the inn's save stays for Continue.
  Save.set(state.LIVE, nil)
end

function key(e, name, down)
  if down and (name == "enter" or name == "space" or name == "escape") then Scene.load("title") end
end

function pointer(e, phase, x, y)
  if phase == "release" then Scene.load("title") end
end
