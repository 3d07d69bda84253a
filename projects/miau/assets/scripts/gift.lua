-- Gift: a pack that arrived (a link at launch or pasted, or a Workshop import) shown before
-- anything changes: its name, glyphs, levels and notes. Keep and play installs it (replace or
-- keep both when the id is taken) and starts it; Escape leaves with the catalog untouched.
-- Every choice is a key and a button. Its notes are shown whole, the same ones merged with a
-- count, in a box that scrolls (the wheel or a drag over it, Page Up/Down, Home, End).

local screen = import("ui/screen.lua")
local s = screen.new()

local game
local seen
local asked = false
local pending

-- The buttons there are now: Keep and Leave, with Keep both between them when the id is taken.
local function buttons()
  if pending ~= nil and pending.conflict then return { "btn_keep", "btn_both", "btn_leave" } end
  return { "btn_keep", "btn_leave" }
end

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
    levels[#levels + 1] = string.format("%2d. %s", i, title)
  end
  s:text("levels", table.concat(levels, "\n"))
  local notes, said = {}, 0
  for _, n in ipairs(p.notes) do
    notes[#notes + 1] = screen.note_text(n, true)
    said = said + (n.count or 1)
  end
  if #notes > 0 then
    s:text("notes_head", string.format("Notes for the author (%d)", said))
  else
    s:text("notes_head", "")
  end
  s:text("notes", table.concat(notes, "\n\n"))
  s:scroll_label("notes", "notes_where")
  if p.conflict then
    s:text("choices", string.format("'%s' is already installed: replace it, or keep both?", p.id))
    s:text("btn_keep_label", "R  Replace")
    s:text("btn_both_label", "B  Keep both")
  else
    s:text("choices", "")
    s:text("btn_keep_label", "Enter  Keep and play")
    s:text("btn_both_label", "")
  end
  -- Without a third choice, Keep and Leave close up around the middle.
  local close = p.conflict and 0 or 2.0
  s:button("btn_keep", false, close)
  s:button("btn_leave", false, -close)
  if p.conflict then s:button("btn_both") else s:tint("btn_both", screen.NONE) end
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
  if s:page_key("notes", name) then return end
  if name == "enter" or name == "space" then keep(nil)
  elseif name == "r" then keep("replace")
  elseif name == "b" then keep("both")
  elseif name == "escape" then leave()
  end
end

function pointer(e, phase, x, y)
  local clicked = s:buttons(buttons(), phase, x, y)
  if clicked == "btn_keep" then
    keep(pending ~= nil and pending.conflict and "replace" or nil)
  elseif clicked == "btn_both" then
    keep("both")
  elseif clicked == "btn_leave" then
    leave()
  end
end
