-- How to play: a lesson on a small board. The panel explains one step at a time and waits until
-- the player has done it, which it learns from the table's events: a tile placed, a tile turned,
-- a word read inside a longer run, a swap, a hint. The "lesson" stage deals a known hand (し か は
-- な い), so the text can point at real tiles, and its clock is long enough never to matter.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")

local LESSON = "lesson"
local STEPS = 5

local IVORY = { 0.957, 0.918, 0.847, 1 }
local MUTED = { 0.788, 0.749, 0.682, 1 }
local GOLD = { 0.941, 0.788, 0.416, 1 }
local CORAL = { 1, 0.604, 0.478, 1 }
local INK = { 0.129, 0.122, 0.18, 1 }

local table_e, sea
local corner, finale
local step = 1
-- Placements at step 3 that read along their whole run (the second one is accepted anyway).
local plain = 0
-- The first placement that read inside a longer run: { kana, words, run }.
local inside = nil
-- The board as the lesson knows it: board[y][x] = kana, from the stage row and every placement.
local rows
local board = {}
local since = 0
-- Frames left to see a hint asked for; the hand as the last bag showed it (a turn's event only
-- says what the tile shows now, so a tile with one form is told by its face not changing).
local pending_hint = nil
local last_hand = {}
local alpha = { swap = 0, hint = 0 }
-- The swap or hint button under the pointer, and the one pressed with how long it stays sunk.
local hover, pressed, sunk = nil, nil, 0
local cache = {}

local function set_text(name, s)
  if cache[name] == s then return end
  cache[name] = s
  Text.set(Entity.find(name), s)
end

local function set_color(name, c)
  local key = name .. "#color"
  local s = string.format("%.3f %.3f %.3f %.3f", c[1], c[2], c[3], c[4])
  if cache[key] == s then return end
  cache[key] = s
  Entity.set(Entity.find(name), "text", { color = c })
end

local function set_tint(name, c)
  local key = name .. "#tint"
  local s = string.format("%.3f %.3f %.3f %.3f", c[1], c[2], c[3], c[4])
  if cache[key] == s then return end
  cache[key] = s
  Entity.set(Entity.find(name), "sprite", { tint = c })
end

local function mix(a, b, t)
  return { a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t, a[3] + (b[3] - a[3]) * t, a[4] + (b[4] - a[4]) * t }
end

local function note(s, c)
  set_text("note", s)
  set_color("note", c or MUTED)
end

-- The board ------------------------------------------------------------------------------------

local function lesson_rows()
  for _, row in ipairs(Data.table("kotoba_stages") or {}) do
    if row.id == LESSON then return row.board end
  end
  return nil
end

local function reset_board()
  board = {}
  for y, line in ipairs(rows or {}) do
    board[y] = {}
    local x = 0
    for _, code in utf8.codes(line) do
      x = x + 1
      local ch = utf8.char(code)
      if ch ~= "." and ch ~= "#" then board[y][x] = ch end
    end
  end
end

local function at(x, y)
  return board[y] and board[y][x]
end

-- The run of kana through (x, y), across or down, as text.
local function run_through(x, y, across)
  local dx, dy = 1, 0
  if not across then dx, dy = 0, 1 end
  while at(x - dx, y - dy) do x, y = x - dx, y - dy end
  local s = ""
  while at(x, y) do
    s = s .. at(x, y)
    x, y = x + dx, y + dy
  end
  return s
end

-- The run a placed word lies in, when the word is shorter than it; nil otherwise.
local function longer_run(ev)
  for _, w in ipairs(ev.words or {}) do
    local across = #w.cells < 2 or w.cells[1][2] == w.cells[2][2]
    local run = run_through(ev.x, ev.y, across)
    if #w.cells < utf8.len(run) then return run end
  end
  return nil
end

local function readings(words)
  local out = {}
  for _, w in ipairs(words or {}) do out[#out + 1] = w.reading end
  return table.concat(out, " and ")
end

local function slot_of(hand, kana)
  for i, k in ipairs(hand or {}) do
    if k == kana then return i end
  end
  return nil
end

-- The panel ------------------------------------------------------------------------------------

local PLACE_HOW = "Pointer: tap a tile, then a cell, or drag it.\n"
  .. "Keys: 1-5 choose a tile, arrows move, Enter places."

local function words_text(words)
  local out = {}
  for _, w in ipairs(words or {}) do
    out[#out + 1] = string.format("%s  %s  %s  +%d", w.reading, w.written, w.meaning, w.points)
  end
  return table.concat(out, "\n")
end

-- Title, body and how-to for the step now, from what is on the board and in the hand. Lines
-- are broken by hand: wrapping may break between any two kana, and a word should stay whole.
local function texts(bag)
  local hand = bag and bag.hand or {}
  if step == 1 then
    local body = "Kana go on the board one at a time.\n"
      .. "A tile stays only where it makes a word,\n"
      .. "read left to right or top to bottom."
    if slot_of(hand, "し") and at(3, 4) == "う" and not at(3, 5) then
      body = body .. "\n\nTry し under う: うし, a cow."
    end
    return "Place a tile", body, PLACE_HOW
  elseif step == 2 then
    return "Turn a tile",
      "Many kana have other forms: か turns\n"
        .. "to が, は to ば and ぱ, し to じ.\n"
        .. "(な has only one.)\n\n"
        .. "A tile you put down tries its other\n"
        .. "forms by itself when the one shown\n"
        .. "makes no word.",
      "Pointer: tap a tile, then tap it again.\nKeys: 1-5 choose a tile, T turns it."
  elseif step == 3 then
    local head = "A tile counts when a word reads\n"
      .. "through it, even if the whole run\n"
      .. "is no word.\n\n"
    if inside then
      return "A word inside a run",
        head .. "Your " .. inside.kana .. " did just that: " .. readings(inside.words) .. "\n"
          .. "read in " .. inside.run .. ", which is no word.\n"
          .. "Place one more tile to go on.",
        PLACE_HOW
    end
    local na = slot_of(hand, "な")
    if na and not at(4, 2) then
      return "A word inside a run",
        head .. "Put な in the gap of さか_つ:\n"
          .. "さかな (fish) and なつ (summer) read,\n"
          .. "though さかなつ is no word.",
        "Pointer: tap な, then the gap.\nKeys: " .. na .. " chooses な, arrows to the gap, Enter places."
    end
    return "A word inside a run",
      head .. "Find a gap between kana where your\n"
        .. "tile reads in a word, while the run\n"
        .. "as a whole does not.",
      PLACE_HOW
  elseif step == 4 then
    return "Swap a tile",
      "A tile that fits nowhere can go back:\n"
        .. "a swap trades the chosen tile for the\n"
        .. "next one in the stock.\n"
        .. "It costs 5 seconds of the clock.",
      "Pointer: tap a tile, then the swap button.\nKeys: 1-5 choose a tile, S swaps it."
  elseif step == 5 then
    return "Ask for a hint",
      "Stuck? A hint chooses your best tile\n"
        .. "and lights the cell where it scores\n"
        .. "most. It costs 10 seconds.",
      "Pointer: the hint button.\nKeys: H."
  end
  return "Well done!",
    "That is the whole game. In a puzzle,\n"
      .. "place every tile before the clock runs\n"
      .. "out; in a battle, every word you make\n"
      .. "strikes your rival. Every word you make\n"
      .. "goes into your word book.",
    "Enter or the button below: back to the title."
end

local function go_title()
  Scene.load("title")
end

local function advance()
  step = step + 1
  since = 0
  if sea then
    if step > STEPS then
      Kotoba.surge(sea, 1.2)
    else
      Kotoba.surge(sea, 0.35)
    end
  end
  if step > STEPS and finale == nil then
    set_color("done_label", IVORY)
    finale = menu.new({ { button = "done", label = "done_label", on = go_title } }, { back = go_title })
  end
end

-- Actions --------------------------------------------------------------------------------------

local function later(what, at_step)
  note(what .. " comes at step " .. at_step .. ". First: the step above.", MUTED)
end

local function do_turn(bag)
  if bag.selected == -1 then
    note("Choose a tile first (1-5, or tap it), then turn it.", CORAL)
    return
  end
  Kotoba.turn(table_e)
end

local function do_swap(bag)
  if step < 4 then later("Swapping", 4) return end
  if bag.selected == -1 then
    note("Choose a tile first (1-5, or tap it), then swap it.", CORAL)
    return
  end
  Kotoba.swap(table_e)
end

local function do_hint(bag)
  if step < 5 then later("The hint", 5) return end
  pending_hint = 2
  Kotoba.hint(table_e)
end

local function do_place(bag)
  if bag.selected == -1 then
    note("Choose a tile first: 1-5.", CORAL)
  elseif bag.cursor == nil then
    note("Move the cursor onto a cell with the arrows first.", CORAL)
  else
    Kotoba.place(table_e)
  end
end

local REFUSED = {
  ["no word"] = "No word reads there, in any of the tile's forms.",
  ["not next to a kana"] = "A tile goes beside a kana already on the board.",
  ["taken"] = "That cell already has a kana.",
}

local function placed(ev)
  if not board[ev.y] then board[ev.y] = {} end
  board[ev.y][ev.x] = ev.kana
  local run = longer_run(ev)
  note(words_text(ev.words), IVORY)
  if run and inside == nil and step <= 3 then
    inside = { kana = ev.kana, words = ev.words, run = run }
  end
  if step == 1 then
    advance()
  elseif step == 3 then
    if run or inside then
      advance()
    else
      plain = plain + 1
      if plain >= 2 then
        advance()
      else
        note(words_text(ev.words) .. "\nThat word fills its whole run.\nNow try a gap, like さか_つ.", IVORY)
      end
    end
  end
end

local function event(ev)
  if ev.kind == "placed" and ev.player == 1 then
    placed(ev)
  elseif ev.kind == "refused" and ev.player == 1 then
    note(REFUSED[ev.why] or ("Not there: " .. tostring(ev.why) .. "."), CORAL)
  elseif ev.kind == "turned" and ev.player == 1 then
    if last_hand[ev.slot] == ev.kana then
      note(ev.kana .. " has only one form. Choose another tile.", CORAL)
    else
      note("Turned to " .. ev.kana .. ".", IVORY)
      if step == 2 then advance() end
    end
  elseif ev.kind == "swapped" and ev.player == 1 then
    note("Swapped for " .. ev.kana .. ".", IVORY)
    if step == 4 then advance() end
  elseif ev.kind == "cleared" and step > STEPS then
    note("Every tile is down: the board is cleared.", GOLD)
  elseif ev.kind == "cleared" or ev.kind == "failed" then
    -- The lesson is not over (or the board ran dry after it): a fresh board, the same step.
    Kotoba.puzzle(table_e, LESSON)
    reset_board()
    note("A fresh board to go on with.", MUTED)
  end
end

-- Callbacks ------------------------------------------------------------------------------------

function start(e)
  sound.music("puzzle.wav")
  if Kotoba == nil then
    Log.warn("jengine-kotoba is not linked")
    return
  end
  table_e = e
  sea = Entity.find("sea")
  corner = menu.new({ { button = "back", label = "back_label", on = go_title } }, { back = go_title })
  -- Nothing is focused at rest: the corner button lights only under the pointer.
  corner.focus = 0
  rows = lesson_rows()
  if rows == nil then
    Log.warn("howto: the stage table has no \"lesson\" row")
    return
  end
  reset_board()
  Kotoba.puzzle(e, LESSON)
end

local function over(name, x, y)
  local e = Entity.find(name)
  local t = Entity.get(e, "transform")
  local s = Entity.get(e, "sprite")
  return math.abs(x - t.pos[1]) <= s.size[1] / 2 and math.abs(y - t.pos[2]) <= s.size[2] / 2
end

-- The swap and hint buttons show from their step on.
local function button_at(x, y)
  for _, name in ipairs({ "swap", "hint" }) do
    if alpha[name] > 0.5 and over(name, x, y) then return name end
  end
  return nil
end

-- The panel: the step's texts, its title easing in, the progress tiles and the buttons.
local function panel(bag, dt)
  local title, body, how = texts(bag)
  set_text("step_title", title)
  set_text("body", body)
  set_text("how", how)
  if step <= STEPS then
    set_text("heading", "how to play   " .. step .. " / " .. STEPS)
  else
    set_text("heading", "how to play")
  end
  -- A new step's title arrives in gold and settles to ivory; the end's stays gold.
  if step > STEPS then
    set_color("step_title", GOLD)
  else
    set_color("step_title", mix(GOLD, IVORY, math.min(1, since / 0.8)))
  end

  for i = 1, STEPS do
    local tint, ink = { 1, 1, 1, 0.3 }, { INK[1], INK[2], INK[3], 0.45 }
    if i < step then
      tint, ink = GOLD, INK
    elseif i == step then
      tint, ink = IVORY, INK
    end
    set_tint("pip" .. i, tint)
    set_color("pip" .. i .. "_label", ink)
  end

  local labels = { swap = { 0.722, 0.847, 1 }, hint = { 1, 0.886, 0.659 } }
  for name, from in pairs({ swap = 4, hint = 5 }) do
    local want = (step >= from and step <= STEPS) and 1 or 0
    if step > STEPS then
      -- The way back to the title takes their place at once.
      alpha[name] = 0
    elseif want > alpha[name] then
      alpha[name] = math.min(want, alpha[name] + dt * 4)
    else
      alpha[name] = math.max(want, alpha[name] - dt * 4)
    end
    local a = alpha[name]
    local tint = { 0.8, 0.82, 0.9, a }
    if pressed == name and sunk > 0 then
      tint = { 0.68, 0.66, 0.6, a }
    elseif hover == name then
      tint = { 1, 1, 1, a }
    end
    set_tint(name, tint)
    local c = labels[name]
    set_color(name .. "_label", { c[1], c[2], c[3], a })
  end
  sunk = sunk - dt
end

function update(e, dt)
  if table_e == nil then return end
  corner:update(dt)
  if finale then finale:update(dt) end
  since = since + dt
  local bag = Entity.get(e, "kotoba")
  if bag ~= nil and bag.active then
    sound.events(bag)
    for _, ev in ipairs(bag.events) do event(ev) end
    if pending_hint then
      pending_hint = pending_hint - 1
      if bag.hint ~= nil then
        pending_hint = nil
      elseif pending_hint <= 0 then
        note("Nothing in your hand fits anywhere:\nswap a tile, then ask again.", CORAL)
        pending_hint = nil
      end
    end
    if step == STEPS and bag.hint ~= nil then
      note("The lit cell is where the chosen tile scores most.", GOLD)
      advance()
    end
    last_hand = bag.hand
  end
  panel(bag, dt)
end

function pointer(e, phase, x, y)
  if table_e == nil then return end
  if corner:pointer(phase, x, y) then return end
  -- The corner button is lit only while the pointer is on it.
  corner.focus = 0
  if finale and finale:pointer(phase, x, y) then return end
  local bag = Entity.get(e, "kotoba")
  if bag == nil or bag.phase ~= "playing" then return end
  local button = button_at(x, y)
  hover = button
  if phase == "press" then
    if button then
      pressed, sunk = button, 0.15
      if button == "swap" then do_swap(bag) else do_hint(bag) end
      return
    end
    Kotoba.press(e, x, y)
  elseif phase == "drag" then
    Kotoba.drag(e, x, y)
  elseif phase == "release" then
    Kotoba.release(e, x, y)
  end
end

local moves = { left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 } }

function key(e, name, down)
  if not down or table_e == nil then return end
  if name == "escape" or name == "backspace" then
    corner:key("escape", true)
    return
  end
  if finale and (name == "enter" or name == "space") then
    finale:key(name, down)
    return
  end
  local bag = Entity.get(e, "kotoba")
  if bag == nil or bag.phase ~= "playing" then return end
  local m = moves[name]
  if m then
    Kotoba.cursor(e, m[1], m[2])
    return
  end
  local slot = tonumber(name)
  if slot ~= nil then
    if slot >= 1 and slot <= #bag.hand and slot == math.floor(slot) then Kotoba.select(e, slot) end
    return
  end
  if name == "space" or name == "enter" then
    do_place(bag)
  elseif name == "t" then
    do_turn(bag)
  elseif name == "s" then
    do_swap(bag)
  elseif name == "h" then
    do_hint(bag)
  end
end
