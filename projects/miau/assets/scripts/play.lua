-- Play: the board (drawn by the package), the rules in force listed beside it, the moves,
-- the author's hint on request, and notes about loose words for authors. Arrows or WASD
-- move, Space waits, Z undoes, R restarts; a swipe of the pointer moves too, and Undo,
-- Restart, Hint and INDEX are buttons as well as keys. Notes are shown one at a time, whole
-- (what it means, the sentence it stands in, the detail for the author), N for the next; the
-- note's box scrolls when it is long. A move or undo that does nothing
-- says why at once, in a line under the board that jolts and fades. A win offers the next
-- level. Every turn is heard: a step or a push, a rule formed or broken, a win, a YOU lost,
-- an undo, a refusal; the music loops quietly under it.

local screen = import("ui/screen.lua")
local s = screen.new()

local game
local show_hint = false
-- The note shown whole (1 is the first), and the level it was chosen on.
local note_i, note_level = 1, nil
local bag
local press_at
local BUTTONS = { "btn_undo", "btn_restart", "btn_hint", "btn_back" }
-- The last refusal shown (its serial), its line, and seconds since it came.
local refusal_seen, refusal_line, refusal_age
local NUDGE, SHOWN, FADE = 0.25, 1.4, 0.35

-- What the board was last frame, to hear what changed: the bag's `changes`, its rules (as
-- a set), whether it was won and how many things were YOU.
local heard_changes, heard_rules, heard_won

function start(e)
  game = e
  screen.music()
end

local function sound(name, volume)
  Audio.play(name, { volume = volume })
end

local function rule_set(list)
  local set = {}
  for _, r in ipairs(list) do set[r] = true end
  return set
end

-- Whether `a` has a rule `b` has not, and whether one of them is a YOU rule.
local function gained(a, b)
  local any, you = false, false
  for r in pairs(a) do
    if not b[r] then
      any = true
      if r:match(" IS YOU$") then you = true end
    end
  end
  return any, you
end

-- Plays what the last change sounds like; a new level says hello (a mew).
local function listen()
  local rules = rule_set(bag.rules)
  local changed = heard_changes ~= nil and bag.changes ~= heard_changes
  if (heard_changes == nil or changed) and bag.last == "start" then
    sound("mew.wav", 0.6)
  elseif changed and (bag.last == "undo" or bag.last == "restart") then
    sound("undo.wav", 0.6)
  elseif changed then
    sound(bag.last == "push" and "push.wav" or "step.wav", bag.last == "push" and 0.7 or 0.5)
    local formed = gained(rules, heard_rules)
    local broken = gained(heard_rules, rules)
    if bag.won and not heard_won then
      sound("win.wav", 0.9)
    elseif (bag.defeated or 0) > 0 then
      sound("defeat.wav", 0.8)
    elseif (bag.sunk or 0) > 0 then
      sound("sink.wav", 0.8)
    elseif formed then
      sound("rule_formed.wav", 0.8)
    elseif broken then
      sound("rule_broken.wav", 0.7)
    end
    -- A thing becoming another shimmers over whatever else the move said.
    if (bag.transformed or 0) > 0 and not (bag.won and not heard_won) then
      sound("transform.wav", 0.6)
    end
  end
  heard_changes, heard_rules, heard_won = bag.changes, rules, bag.won
end

local function next_or_index()
  local p = bag and bag.playing
  if p ~= nil and p.next ~= nil then
    Miau.play(game, p.pack, p.next)
  else
    Scene.load("index")
  end
end

local function lines(list, fmt)
  local out = {}
  for i, item in ipairs(list) do out[#out + 1] = fmt(item, i) end
  return table.concat(out, "\n")
end

local function draw()
  local p = bag.playing
  if p == nil then
    s:text("level_title", "No level is being played.")
    s:text("won_help", "")
    return
  end
  s:text("level_title", string.format("%s  ·  %d/%d  %s", p.pack_name, p.number, p.count, p.title))
  s:text("moves", string.format("Moves %d", bag.moves))
  if #bag.rules == 0 then
    s:text("rules", "No rules: nothing is YOU.")
  else
    -- A rule read through a stack of words says so: the board shows only the front tile whole.
    local stacked = rule_set(bag.stacked_rules or {})
    s:text("rules", lines(bag.rules, function(r)
      return stacked[r] and (r .. "  (stacked)") or r
    end))
  end
  local notes = bag.notes
  if note_level ~= p.pack .. "/" .. p.level then
    note_level, note_i = p.pack .. "/" .. p.level, 1
  end
  if #notes > 0 then
    note_i = math.max(1, math.min(note_i, #notes))
    local more = #notes > 1 and string.format("  %d/%d  N: next", note_i, #notes) or ""
    s:text("notes_head", "Notes for the author" .. more)
    local before = s.texts["notes"]
    s:text("notes", screen.note_text(notes[note_i]))
    if s.texts["notes"] ~= before then s:scroll_to("notes", 0) end
    s:scroll_label("notes", "notes_where")
  else
    s:text("notes_head", "")
    s:text("notes", "")
    s:text("notes_where", "")
  end
  if refusal_age ~= nil then
    s:text("hint", "") -- the refusal line stands where the hint does
  elseif show_hint then
    s:text("hint", p.hint or "This level has no hint.")
  else
    s:text("hint", p.hint and "H shows a hint." or "")
  end
  if bag.won then
    s:tint("won_panel", { 1, 1, 1, 1 })
    s:text("won_title", "Solved!")
    if p.next ~= nil then
      s:text("won_help", string.format("%d moves   Enter: next level   Esc: INDEX", bag.moves))
    else
      -- The last level of the pack: say how much of the pack is solved, not that it is done.
      local solved, count = p.solved or 0, p.count
      local said
      if solved >= count then
        said = string.format("All %d levels of the pack solved!", count)
      else
        said = string.format("%d of %d levels of the pack solved", solved, count)
      end
      s:text("won_help", string.format("%s\n%d moves   Enter: INDEX", said, bag.moves))
    end
  else
    s:tint("won_panel", screen.NONE)
    s:text("won_title", "")
    s:text("won_help", "")
  end
end

-- The refusal line: a red flash that jolts sideways, then holds, then fades.
local function draw_refusal(dt)
  if refusal_age == nil then return end
  refusal_age = refusal_age + dt
  local t = refusal_age
  if t >= SHOWN + FADE then
    refusal_age = nil
    s:text("refusal", "")
    s:tint("refusal_panel", screen.NONE)
    s:offset("refusal", 0, 0)
    s:offset("refusal_panel", 0, 0)
    return
  end
  local a = t < SHOWN and 1 or 1 - (t - SHOWN) / FADE
  local flash = t < NUDGE and (1 - t / NUDGE) or 0
  s:text("refusal", refusal_line)
  s:tint("refusal_panel", { 0.42 + 0.4 * flash, 0.12 + 0.1 * flash, 0.18 + 0.1 * flash, 0.92 * a })
  s:colour("refusal", { 1.0, 0.92, 0.92, a })
  local jolt = t < NUDGE and 0.09 * math.sin(t * 70) * (1 - t / NUDGE) or 0
  s:offset("refusal", jolt, 0)
  s:offset("refusal_panel", jolt, 0)
end

local function draw_buttons()
  for _, name in ipairs(BUTTONS) do s:button(name) end
  s:text("btn_hint_label", show_hint and "H  Hide hint" or "H  Hint")
end

function update(e, dt)
  bag = Entity.get(e, "Miau")
  if bag == nil then return end
  local r = bag.refused
  if refusal_seen == nil then
    refusal_seen = r and r.serial or 0
  elseif r ~= nil and r.serial ~= refusal_seen then
    refusal_seen = r.serial
    sound("refuse.wav", 0.8)
    refusal_line = r.message
    refusal_age = 0
  end
  if bag.playing ~= nil then listen() end
  draw()
  draw_buttons()
  draw_refusal(dt)
end

local function act(what)
  if what == "btn_undo" then
    Miau.undo(game)
  elseif what == "btn_restart" then
    Miau.restart(game)
  elseif what == "btn_hint" then
    show_hint = not show_hint
  elseif what == "btn_back" then
    Scene.load("index")
  end
end

function key(e, name, down)
  if not down or bag == nil then return end
  if bag.won and (name == "enter" or name == "space") then
    next_or_index()
    return
  end
  local move = screen.MOVES[name]
  if move ~= nil then
    Miau.move(e, move)
  elseif name == "z" or name == "backspace" then
    act("btn_undo")
  elseif name == "r" then
    act("btn_restart")
  elseif name == "h" then
    act("btn_hint")
  elseif name == "n" then
    note_i = note_i % math.max(#bag.notes, 1) + 1
  elseif s:page_key("notes", name) then
    return
  elseif name == "escape" then
    act("btn_back")
  end
end

function pointer(e, phase, x, y)
  local clicked = s:buttons(BUTTONS, phase, x, y)
  if clicked ~= nil then
    act(clicked)
    return
  end
  if phase == "press" then
    -- A press on a button is the button's; anywhere else it starts a swipe or a tap.
    press_at = s.down == nil and { x, y } or nil
  elseif phase == "release" and press_at ~= nil then
    local dir = screen.swipe(press_at[1], press_at[2], x, y)
    press_at = nil
    if bag ~= nil and bag.won and dir == nil then
      next_or_index()
    elseif dir ~= nil then
      Miau.move(e, dir)
    end
  end
end
