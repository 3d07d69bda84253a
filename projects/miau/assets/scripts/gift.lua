-- Gift: a pack that arrived (a link at launch or pasted, or a Workshop import) shown before
-- anything changes: its name, glyphs, levels and notes. Keep and play installs it (replace or
-- keep both when the id is taken) and starts it; Escape leaves with the catalog untouched.

local screen = import("ui/screen.lua")
local s = screen.new()

local game
local seen
local asked = false
local pending

function start(e)
  game = e
end

local function back()
  local to = Save.get("miau_gift_back")
  Save.set("miau_gift_back", nil)
  if to ~= "workshop" then to = "title" end
  Scene.load(to)
end

local function keep(mode)
  if pending == nil or asked then return end
  if pending.conflict and mode == nil then
    s:text("message", "A pack with this id is installed: R replaces it, B keeps both.")
    return
  end
  asked = true
  Miau.keep(game, mode)
end

local function leave()
  Miau.leave(game)
  back()
end

local function draw()
  local p = pending
  s:text("name", p.name)
  local from = ({ link = "a share link", file = "a file", text = "pasted text" })[p.origin] or p.origin
  s:text("meta", string.format("%s  ·  version %s  ·  %d level%s  ·  from %s",
    p.id, p.version, #p.levels, #p.levels == 1 and "" or "s", from))
  s:text("glyphs", table.concat(p.glyphs, "  "))
  local levels = {}
  for i, title in ipairs(p.levels) do
    if i > 14 then
      levels[#levels + 1] = string.format("... and %d more", #p.levels - 14)
      break
    end
    levels[#levels + 1] = string.format("%2d. %s", i, title)
  end
  s:block("levels", table.concat(levels, "\n"), 0.6)
  local notes = {}
  for i, n in ipairs(p.notes) do
    if i > 10 then
      notes[#notes + 1] = string.format("... and %d more notes", #p.notes - 10)
      break
    end
    notes[#notes + 1] = string.format("%s (%s): %s", n.word, n.level_title, n.message)
  end
  if #notes > 0 then table.insert(notes, 1, "Notes for the author:") end
  s:block("notes", screen.wrap(table.concat(notes, "\n"), 52), 0.6)
  if p.conflict then
    s:text("choices", string.format("'%s' is already installed:   R Replace it   B Keep both   Esc Leave", p.id))
  else
    s:text("choices", "Enter  Keep and play        Esc  Leave")
  end
end

function update(e, dt)
  local bag = Entity.get(e, "Miau")
  if bag == nil then return end
  local o = bag.outcome
  if seen == nil then seen = o and o.serial or 0 end
  if o ~= nil and o.serial ~= seen then
    seen = o.serial
    if o.op == "keep" then
      asked = false
      if o.ok then
        Save.set("miau_gift_back", nil)
        Miau.play(game, o.pack)
        Scene.load("play")
        return
      end
      s:text("message", o.message)
    end
  end
  if bag.pending == nil then
    if not asked then back() end
    return
  end
  pending = bag.pending
  draw()
end

function key(e, name, down)
  if not down then return end
  if name == "enter" or name == "space" then keep(nil)
  elseif name == "r" then keep("replace")
  elseif name == "b" then keep("both")
  elseif name == "escape" then leave()
  end
end

function pointer(e, phase, x, y) end
