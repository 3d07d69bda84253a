-- The crawl's save, kept safe: "Continue" loads it, and nothing is written until the crawl has
-- answered. A save the crawl refuses (another dungeon's, or one no play could reach) is said
-- plainly and left exactly where it is; only when the player then starts a new crawl is it moved
-- aside to a key of its own (`warren_refused`, or `_2`, `_3`, ... when that is taken), never
-- written over, and the new crawl saves in its place from its first step.

local M = {}
M.__index = M

local ASIDE = "warren_refused"

-- `slot`: the save's key; `say(line, colour)`: how the game tells the player.
function M.new(slot, say, colours)
  return setmetatable({ slot = slot, say = say, colours = colours, phase = "playing" }, M)
end

-- Starts the crawl at `e`: the stored save when `continue` asks for it and there is one,
-- otherwise a new crawl. A load is answered in a later frame (see `answer`).
function M:open(e, continue)
  local saved = Save.get(self.slot)
  if continue and saved ~= nil then
    self.kept = saved
    self.phase = "waiting"
    Crawler.load(e, saved)
    return "loading"
  end
  Crawler.new_game(e)
  return "new"
end

-- Reads the crawl's answer to a load: a `load_refused` event, or the loaded game in play.
function M:answer(state, events)
  if self.phase ~= "waiting" or state == nil then return end
  for _, ev in ipairs(events and events.events or {}) do
    if ev.event == "load_refused" then
      self.phase = "refused"
      self.reason = ev.reason
      local c = self.colours
      self.say("Your saved crawl could not be loaded, and is kept as it was.", c.hurt)
      self.say("Why: " .. ev.reason, c.hurt)
      self.say("Enter starts a new crawl; Esc goes back to the title.", c.ochre)
      return
    end
  end
  if state.save_in_play == "loaded" then
    self.phase = "playing"
    self.say("You take up the trail where you left it.", self.colours.ochre)
  end
end

-- Whether the game may write the crawl into the save now: not before a load has answered,
-- and never while a refused save stands in the slot.
function M:may_save()
  return self.phase == "playing"
end

-- Whether a refused save is waiting on the player's answer.
function M:refused()
  return self.phase == "refused"
end

-- The player's answer to a refused save: Enter or Space sets it aside and starts a new crawl,
-- Esc goes back to the title with the save untouched.
function M:key(e, name)
  if name == "enter" or name == "space" then
    local aside, n = ASIDE, 1
    while Save.get(aside) ~= nil do
      n = n + 1
      aside = ASIDE .. "_" .. n
    end
    Save.set(aside, self.kept)
    Save.set(self.slot, nil)
    self.kept = nil
    self.phase = "playing"
    Crawler.new_game(e)
    self.say("The old save is set aside as " .. aside .. ". You climb down into the Umber Warren.", self.colours.ochre)
  elseif name == "escape" then
    Scene.load("title")
  end
end

return M
