-- Umber Warren's crawl: keys and buttons become Crawler commands, and what the crawl publishes
-- (CrawlState, CrawlMap, CrawlEvents) becomes the HUD, the automap, the message log and the
-- end screens. The package draws the corridor itself; this script never touches the picture.
-- Every tick is saved, so "Continue" on the title picks up on the very step the party left.

local SAVE = "warren"
local keeping = import("warren_save.lua")

local IVORY = { 0.949, 0.875, 0.722, 1 }
local OCHRE = { 0.91, 0.69, 0.29, 1 }
local HURT = { 1.0, 0.45, 0.35, 1 }
local GOOD = { 0.6, 0.9, 0.45, 1 }

local BUTTON_REST = { 0.85, 0.82, 0.78, 1 }
local BUTTON_LIT = { 1.1, 1.05, 0.95, 1 }
local BUTTON_PRESSED = { 0.6, 0.55, 0.5, 1 }
local BUTTON_OFF = { 0.45, 0.42, 0.4, 1 }

-- The automap is a window of cell sprites (`am_X_Y`, GRID x GRID of them in the scene) over
-- the floor, moved to keep the party inside it: the small map beside the view shows 16 x 14
-- cells around the party, the unrolled one the whole floor (shrunk to fit the view) up to GRID
-- cells a side, and a window of GRID cells on anything larger.
local GRID = 24
local MAP_SMALL = { x = 0.97, y = 0.27, cell = 0.25, cols = 16, rows = 14 }
local MAP_BIG = { x = -6.7, y = 3.8, cell = 0.375, w = 6.3, h = 5.6, cols = GRID, rows = GRID }

-- What each automap symbol is painted as.
local MAP_COLOURS = {
  ["#"] = { 0.3, 0.18, 0.09, 1 },
  ["."] = { 0.74, 0.58, 0.36, 1 },
  ["+"] = { 0.62, 0.36, 0.14, 1 },
  ["="] = { 0.3, 0.28, 0.3, 1 },
  ["A"] = { 0.75, 0.62, 0.42, 1 },
  ["L"] = { 0.7, 0.2, 0.12, 1 },
  ["C"] = { 0.92, 0.7, 0.2, 1 },
  ["O"] = { 0.08, 0.05, 0.03, 1 },
  [">"] = { 0.25, 0.45, 0.7, 1 },
  ["<"] = { 0.45, 0.7, 0.9, 1 },
  ["^"] = { 0.8, 0.25, 0.2, 1 },
  ["E"] = { 0.8, 0.2, 0.5, 1 },
  ["/"] = { 0.86, 0.62, 0.34, 1 },
  ["c"] = { 0.5, 0.4, 0.26, 1 },
  ["$"] = { 1.0, 0.86, 0.35, 1 },
  ["T"] = { 0.6, 0.35, 0.9, 1 },
  ["%"] = { 0.3, 0.72, 0.62, 1 },
  ["_"] = { 0.58, 0.52, 0.44, 1 },
  ["B"] = { 0.88, 0.42, 0.18, 1 },
}
-- A secret door not yet found is rock on the player's map; a dark cell stays blank.
MAP_COLOURS["S"] = MAP_COLOURS["#"]
local CLEAR = { 0, 0, 0, 0 }

local game
local state
local keeper             -- the save: loaded, answered, kept safe (warren_save.lua)
local log = {}
local shown_tick = -1    -- the state last drawn into the HUD (see `stamp`), -2 for an error
local last_map = nil     -- the automap rows last painted
local win = { ox = 0, oy = 0, cols = 0, rows = 0, cell = 0.25, w = 0, h = 0 }
local slot_tint = {}     -- what each automap sprite is tinted now, by slot
local marked = nil       -- where the party's arrow was last put
local big_map = false
local ended = nil
local flash = 0
local flash_colour = { 1, 0.3, 0.1 }
local gold_shown = 0
local health_shown = {}
local hover, pressed
local was = nil          -- where the party stood after the last tick: level, x, y
local awake = nil        -- steps to the nearest awake monster, as last seen
local drone = 0          -- the drone's loudness now, eased toward its target
local step_pitch = 1
local searching = false  -- the last command was a search: its `nothing` is told as such
local buttons = {}
local ent = {}

local function find(name)
  local e = ent[name]
  if e == nil then
    e = Entity.find(name)
    ent[name] = e
  end
  return e
end

-- The log: the newest line at the bottom in full colour, older ones fading.
local function say(line, colour)
  table.insert(log, { text = line, colour = colour or IVORY })
  while #log > 4 do table.remove(log, 1) end
  local first = 4 - #log
  for i = 0, 3 do
    local entry = log[i - first + 1]
    local e = find("log" .. i)
    if entry == nil then
      Text.set(e, "")
    else
      local fade = 0.45 + 0.55 * (i + 1) / 4
      local c = entry.colour
      Text.set(e, entry.text)
      Entity.set(e, "text", { color = { c[1] * fade, c[2] * fade, c[3] * fade, 1 } })
    end
  end
end

-- `strength` (and so how long it lasts): 0.45 for a hurt, less for a refusal.
local function flash_view(r, g, b, strength)
  flash = strength or 0.45
  flash_colour = { r, g, b }
end

local function capital(s) return (s:gsub("^%l", string.upper)) end

-- Every event is heard at once, refusals too.
local SOUNDS = {
  door = "door.wav", unlocked = "unlock.wav", locked = "locked.wav", lever = "lever.wav",
  loot = "loot.wav", empty = "bump.wav", pit = "trap.wav", trap = "trap.wav",
  hit = "hit.wav", slain = "hit.wav", bitten = "hurt.wav", bumped = "bump.wav",
  nothing = "bump.wav", level = "stairs.wav", encounter = "growl.wav",
  dead = "lose.wav", escaped = "win.wav",
  found = "door.wav", teleport = "stairs.wav", spun = "bump.wav", plate = "lever.wav",
  button = "lever.wav", opened = "door.wav", shut = "locked.wav", hurt = "hurt.wav",
  dark = "growl.wav", swapped = "step.wav",
}

-- How an event's sound is played, where it is not as recorded: a refusal soft and high, a
-- found door and a spin low, a teleport's stair sound thin and high, the dark a low growl.
local VOICES = {
  nothing = { volume = 0.5, pitch = 1.3 }, empty = { volume = 0.5, pitch = 1.3 },
  slain = { pitch = 0.8 }, found = { pitch = 0.7 }, teleport = { pitch = 1.5 },
  spun = { volume = 0.8, pitch = 0.6 }, plate = { pitch = 1.25 }, dark = { volume = 0.5, pitch = 0.6 },
  swapped = { volume = 0.6, pitch = 1.2 },
}

local function hear(ev)
  local name = SOUNDS[ev.event]
  if name == nil then return end
  local voice = VOICES[ev.event]
  if voice ~= nil then Audio.play(name, voice) else Audio.play(name) end
end

-- The drone: faint when nothing hunts the party, full when a monster is a step away.
local function drone_target(s)
  if s == nil or s.nearest_awake == nil or ended ~= nil then return 0.12 end
  return math.max(0.12, math.min(1, 1.1 - 0.12 * s.nearest_awake))
end

local function sound_the_tick(s)
  local now = { level = s.level, x = s.x, y = s.y }
  if was ~= nil and was.level == now.level and (was.x ~= now.x or was.y ~= now.y) then
    -- A step: one footfall, a little higher or lower than the last.
    step_pitch = step_pitch == 1 and 0.92 or 1
    Audio.play("step.wav", { volume = 0.8, pitch = step_pitch })
  end
  was = now
  if awake == nil and s.nearest_awake ~= nil then
    Audio.play("growl.wav", { volume = 0.7, pitch = 1.1 })
  end
  awake = s.nearest_awake
end

-- One line per event, in the words a player would use.
local function tell(ev)
  local k = ev.event
  if k == "level" then
    say("You reach " .. ev.name .. ".", OCHRE)
  elseif k == "door" then
    say("The door creaks open.")
  elseif k == "unlocked" then
    say("The key turns. The door swings open.", GOOD)
  elseif k == "locked" then
    say("Locked. You need a key, or a lever somewhere.", HURT)
  elseif k == "lever" then
    say("Clunk! Somewhere, heavy bolts slide back.", OCHRE)
  elseif k == "loot" then
    local floor = ev.from == "floor"
    if ev.what == "gold" then
      say(floor and ("You pick up " .. ev.value .. " gold.") or ("The chest holds " .. ev.value .. " gold."), OCHRE)
    elseif ev.what == "key" and tonumber(ev.value) == nil then
      say(capital(floor and ("you pick up the " .. ev.value .. " key.") or ("the " .. ev.value .. " key lies in the chest.")), OCHRE)
    elseif ev.what == "key" then
      say(floor and "You pick up an iron key." or "An iron key lies in the chest.", OCHRE)
    elseif ev.what == "heal" then
      say(floor and "You drink a healing draught: everyone feels better." or "A healing draught: everyone feels better.", GOOD)
      flash_view(0.3, 1, 0.4)
    else
      say("You find " .. ev.what .. " " .. ev.value .. ".", OCHRE)
    end
  elseif k == "found" then
    say("A hidden door! The crack was a seam in the stone.", GOOD)
    flash_view(0.9, 0.8, 0.5, 0.3)
  elseif k == "teleport" then
    say("The air twists: you stand somewhere else.", OCHRE)
    flash_view(0.6, 0.35, 0.9)
  elseif k == "spun" then
    say("The floor turns under your feet! You face " .. ev.facing .. " now.", HURT)
    flash_view(0.3, 0.7, 0.6, 0.3)
  elseif k == "plate" then
    say("Click. A plate sinks under your feet.")
  elseif k == "button" then
    say("You press the button. Click.")
  elseif k == "opened" then
    say(capital("the " .. ev.name .. " grinds open."), GOOD)
  elseif k == "shut" then
    say(capital("the " .. ev.name .. " slams shut!"), HURT)
  elseif k == "hurt" then
    say(capital(ev.from) .. " hurts " .. ev.member .. " for " .. ev.damage .. ".", HURT)
    flash_view(1, 0.2, 0.05)
  elseif k == "dark" then
    say("Your torches gutter: the dark swallows their light.", HURT)
  elseif k == "swapped" then
    say("The party changes places.")
  elseif k == "empty" then
    say("The chest is empty.")
  elseif k == "pit" then
    say("The floor gives way! You fall into the dark.", HURT)
    flash_view(0, 0, 0)
  elseif k == "hit" then
    say(ev.member .. " hits the " .. ev.monster .. " for " .. ev.damage .. ".")
  elseif k == "slain" then
    say("The " .. ev.monster .. " is slain!", GOOD)
  elseif k == "bitten" then
    say("The " .. ev.monster .. " strikes " .. ev.member .. " for " .. ev.damage .. ".", HURT)
    flash_view(1, 0.15, 0.05)
  elseif k == "bumped" then
    if ev.what == "monster" then
      say("Something blocks the way. Fight it (F)!", HURT)
    elseif ev.what == "door" then
      say("The door is shut. Open it (Space).")
    else
      say("You bump into the wall.")
    end
    flash_view(0.4, 0.3, 0.2, 0.25)
  elseif k == "nothing" then
    say(searching and "You search the walls and find nothing." or "There is nothing here to use.")
    flash_view(0.4, 0.3, 0.2, 0.15)
  elseif k == "wait" then
    say("You wait and listen.")
  elseif k == "rested" then
    say("You rest a while by the wall.", GOOD)
  elseif k == "trap" then
    say(capital(ev.name) .. "! A trap goes off.", HURT)
    flash_view(1, 0.5, 0.1)
  elseif k == "exit" then
    say("Daylight above, but the chief's hoard lies below.", OCHRE)
  elseif k == "encounter" then
    say(ev.text ~= "" and ev.text or "Something blocks the way!", HURT)
  end
end

-- The end screens: death or the way out, over everything, until Enter or a click.
local function finish(kind)
  if ended ~= nil then return end
  ended = kind
  Save.set(SAVE, nil)
  Audio.stop_music({ fade = 1.5 })
  local s = state or {}
  local title, text
  if kind == "escaped" then
    title = "Out of the Warren!"
    text = string.format("You climb into the night air with %d gold\nafter %d steps in the dark.", s.gold or 0, s.tick or 0)
  else
    title = "Lost in the Warren"
    text = string.format("The party fell on %s\nafter %d steps, carrying %d gold.", s.level_name or "the stair", s.tick or 0, s.gold or 0)
  end
  Entity.set(find("end_veil"), "transform", { pos = { 0, 0 } })
  Entity.set(find("end_panel"), "transform", { pos = { 0, 0.1 } })
  Entity.set(find("end_title"), "transform", { pos = { 0, 1.25 } })
  Entity.set(find("end_title"), "text", { color = kind == "escaped" and OCHRE or HURT })
  Text.set(find("end_title"), title)
  Entity.set(find("end_text"), "transform", { pos = { 0, 0.05 } })
  Text.set(find("end_text"), text)
  Entity.set(find("end_hint"), "transform", { pos = { 0, -1.35 } })
end

-- The automap: a window of sprites over the floor, retinted only where the drawing changed.
local function map_layout()
  return big_map and MAP_BIG or MAP_SMALL
end

-- The window's size and cell size for a floor of `w` x `h`, and the sprites put in place.
local function place_map()
  local m = map_layout()
  win.cols = math.max(1, math.min(m.cols, win.w))
  win.rows = math.max(1, math.min(m.rows, win.h))
  win.cell = m.cell
  if m.w ~= nil then win.cell = math.min(m.cell, m.w / win.cols, m.h / win.rows) end
  for y = 0, GRID - 1 do
    for x = 0, GRID - 1 do
      local e = find("am_" .. x .. "_" .. y)
      if x < win.cols and y < win.rows then
        Entity.set(e, "transform", {
          pos = { m.x + (x + 0.5) * win.cell, m.y - (y + 0.5) * win.cell }, z = big_map and 1500 or 1002,
        })
        Entity.set(e, "sprite", { size = { win.cell, win.cell } })
      else
        Entity.set(e, "transform", { pos = { 0, 100 } })
      end
    end
  end
  Entity.set(find("map_paper"), "transform", {
    pos = big_map and { -3.7, 0.85 } or { 2.85, -1.45 }, z = big_map and 1499 or 1001,
  })
  Entity.set(find("map_paper"), "sprite", { size = big_map and { 6.95, 5.9 } or { 4.45, 3.9 } })
  last_map = nil
  marked = nil
end

-- The window's top-left cell: the party as near the middle as the floor's edges allow.
local function window_origin()
  if state == nil then return 0, 0 end
  local ox = math.max(0, math.min(state.x - win.cols // 2, win.w - win.cols))
  local oy = math.max(0, math.min(state.y - win.rows // 2, win.h - win.rows))
  return ox, oy
end

local function paint_map(rows)
  local h = #rows
  local w = 0
  for _, row in ipairs(rows) do w = math.max(w, #row) end
  if w ~= win.w or h ~= win.h then
    win.w, win.h = w, h
    place_map()
  end
  local ox, oy = window_origin()
  local moved = ox ~= win.ox or oy ~= win.oy or last_map == nil
  win.ox, win.oy = ox, oy
  for y = 0, win.rows - 1 do
    local row = rows[oy + y + 1] or ""
    if moved or row ~= last_map[oy + y + 1] then
      for x = 0, win.cols - 1 do
        local cx = ox + x
        local ch = cx < #row and row:sub(cx + 1, cx + 1) or " "
        local tint = MAP_COLOURS[ch] or CLEAR
        local slot = x + y * GRID
        if slot_tint[slot] ~= tint then
          slot_tint[slot] = tint
          Entity.set(find("am_" .. x .. "_" .. y), "sprite", { tint = tint })
        end
      end
    end
  end
  last_map = rows
end

local ARROW = { north = 0, east = -math.pi / 2, south = math.pi, west = math.pi / 2 }

local function mark_party()
  if state == nil then return end
  local m = map_layout()
  local key = state.x .. ":" .. state.y .. ":" .. state.facing .. ":" .. win.ox .. ":" .. win.oy
  if marked == key then return end
  marked = key
  Entity.set(find("am_you"), "transform", {
    pos = { m.x + (state.x - win.ox + 0.5) * win.cell, m.y - (state.y - win.oy + 0.5) * win.cell },
    rot = ARROW[state.facing] or 0, z = big_map and 1501 or 1004,
  })
  Entity.set(find("am_you"), "sprite", { size = { win.cell * 1.2, win.cell * 1.2 } })
end

-- The legend, shown on the small map's parchment while the map is unrolled: a swatch and a
-- word for each symbol on this floor's map, in two columns of nine.
local LEGEND_SLOTS = 18
local SHORT = {
  ["$"] = "item", ["E"] = "a fight", ["^"] = "sprung trap", ["="] = "locked door",
  ["<"] = "stairs up", [">"] = "stairs down", ["_"] = "plate",
}
local legend_shown = nil

local function show_legend(legend)
  local key = ""
  if big_map and legend ~= nil then
    for _, entry in ipairs(legend) do key = key .. entry.symbol end
  end
  if key == legend_shown then return end
  legend_shown = key
  local n = 0
  for _, entry in ipairs(big_map and legend or {}) do
    local tint = MAP_COLOURS[entry.symbol]
    if tint ~= nil and n < LEGEND_SLOTS then
      local col, row = n // 9, n % 9
      local x, y = 1.1 + col * 2.05, 0.15 - row * 0.38
      Entity.set(find("lg_sw_" .. n), "transform", { pos = { x, y } })
      Entity.set(find("lg_sw_" .. n), "sprite", { tint = tint })
      Entity.set(find("lg_tx_" .. n), "transform", { pos = { x + 0.22, y } })
      Text.set(find("lg_tx_" .. n), SHORT[entry.symbol] or entry.meaning)
      n = n + 1
    end
  end
  Entity.set(find("legend_paper"), "transform", { pos = n > 0 and { 2.85, -1.45 } or { 0, 100 } })
  for i = n, LEGEND_SLOTS - 1 do
    Entity.set(find("lg_sw_" .. i), "transform", { pos = { 0, 100 } })
    Entity.set(find("lg_tx_" .. i), "transform", { pos = { 0, 100 } })
  end
end

local function toggle_map()
  big_map = not big_map
  place_map()
  mark_party()
  say(big_map and "You unroll the map." or "You roll up the map.")
end

-- What the HUD shows of the state, as one string: the HUD is redrawn when it changes. Not
-- only the tick: the stairs, a teleport and a refused step spend none.
local function stamp(s)
  local hp = {}
  for i, m in ipairs(s.party) do hp[i] = m.hp end
  return table.concat({
    s.tick, s.level, s.x, s.y, s.facing, s.gold, s.keys, #(s.keyring or {}),
    tostring(s.use_does), tostring(s.can_walk), tostring(s.can_attack), table.concat(hp, ","),
  }, ":")
end

-- The HUD from the state: names, health bars, gold, keys, compass.
local function show_state()
  Text.set(find("level_name"), state.level_name .. "  (" .. (state.level + 1) .. "/" .. state.levels .. ")")
  Text.set(find("facing"), string.upper(state.facing:sub(1, 1)))
  Text.set(find("keys"), tostring(state.keys + #(state.keyring or {})))
  for i = 0, 3 do
    local m = state.party[i + 1]
    if m ~= nil then
      Text.set(find("name" .. i), m.name)
      Text.set(find("hp" .. i), m.hp .. "/" .. m.max_hp)
      Entity.set(find("name" .. i), "text", { color = m.hp > 0 and IVORY or { 0.5, 0.4, 0.35, 1 } })
    end
  end
  -- Buttons that would do nothing are dimmed.
  buttons.b_forward.enabled = state.can_walk
  buttons.b_use.enabled = state.use_does ~= nil
  buttons.b_attack.enabled = state.can_attack
  Text.set(find("b_use_label"), state.use_does and capital(state.use_does) or "Use")
end

-- Numbers move toward their value rather than jumping.
local function animate(dt)
  if state == nil then return end
  if gold_shown ~= state.gold then
    local step = math.max(1, math.floor(math.abs(state.gold - gold_shown) * 0.2))
    if gold_shown < state.gold then gold_shown = math.min(state.gold, gold_shown + step)
    else gold_shown = math.max(state.gold, gold_shown - step) end
    Text.set(find("gold"), tostring(gold_shown))
  end
  local total = 0
  for i = 0, 3 do
    local m = state.party[i + 1]
    if m ~= nil then
      local target = m.max_hp > 0 and m.hp / m.max_hp or 0
      local now = health_shown[i] or target
      now = now + (target - now) * math.min(1, dt * 10)
      if math.abs(now - target) < 0.002 then now = target end
      if health_shown[i] ~= now then
        health_shown[i] = now
        local w = 2.0 * now
        Entity.set(find("bar" .. i), "transform", { pos = { 2.6 + w / 2, 3.35 - i * 0.5 } })
        Entity.set(find("bar" .. i), "sprite", {
          size = { math.max(w, 0.0001), 0.24 },
          tint = now > 0.5 and { 0.55, 0.72, 0.25, 1 } or (now > 0.25 and { 0.85, 0.6, 0.15, 1 } or { 0.8, 0.16, 0.1, 1 }),
        })
      end
      total = total + m.hp
    end
  end
  Text.set(find("health"), total .. "/" .. state.max_health)
  if flash > 0 then
    flash = math.max(0, flash - dt)
    Entity.set(find("flash"), "sprite", {
      tint = { flash_colour[1], flash_colour[2], flash_colour[3], flash * 1.2 },
    })
  end
end

-- Commands, each refused in words when it cannot be done.
local function act(what)
  if ended ~= nil or state == nil then return end
  if state.error ~= nil then
    say("The warren cannot open: " .. state.error, HURT)
    return
  end
  -- A refused step or use is told by the crawl's own `bumped` and `nothing` events.
  searching = false
  if what == "forward" then Crawler.walk(game, 0, 1)
  elseif what == "back" then Crawler.walk(game, 0, -1)
  elseif what == "left" then Crawler.walk(game, -1, 0)
  elseif what == "right" then Crawler.walk(game, 1, 0)
  elseif what == "turn_left" then Crawler.turn(game, -1)
  elseif what == "turn_right" then Crawler.turn(game, 1)
  elseif what == "use" then Crawler.use(game)
  elseif what == "attack" then
    if state.can_attack then Crawler.attack(game) else say("You swing at empty air.") Crawler.wait(game) end
  elseif what == "rest" then Crawler.rest(game)
  elseif what == "search" then searching = true; Crawler.search(game)
  elseif what == "map" then toggle_map()
  elseif what == "title" then Scene.load("title")
  end
end

local KEYS = {
  up = "forward", w = "forward", down = "back", s = "back",
  left = "turn_left", a = "turn_left", right = "turn_right", d = "turn_right",
  q = "left", e = "right", space = "use", f = "attack", r = "rest", m = "map", x = "search",
}

local BUTTONS = {
  b_turn_left = "turn_left", b_forward = "forward", b_turn_right = "turn_right",
  b_left = "left", b_back = "back", b_right = "right",
  b_use = "use", b_attack = "attack", b_rest = "rest", b_map = "map", b_title = "title",
}

local function under(x, y)
  for name, b in pairs(buttons) do
    if math.abs(x - b.x) <= b.w and math.abs(y - b.y) <= b.h then return name end
  end
  return nil
end

local function tint_buttons()
  for name, b in pairs(buttons) do
    local t = BUTTON_REST
    if not b.enabled then t = BUTTON_OFF
    elseif pressed == name then t = BUTTON_PRESSED
    elseif hover == name then t = BUTTON_LIT end
    if b.shown ~= t then
      b.shown = t
      Entity.set(b.e, "sprite", { tint = t })
      Entity.set(b.icon, "transform", { pos = { b.icon_x, b.y - (t == BUTTON_PRESSED and 0.04 or 0) } })
    end
  end
end

function start(e)
  game = e
  for name, _ in pairs(BUTTONS) do
    local b = find(name)
    local t = Entity.get(b, "transform")
    local s = Entity.get(b, "sprite")
    -- What sinks on a press: the icon, or the label of a button without one.
    local icon = Entity.find(name .. "_icon") or find(name .. "_label")
    buttons[name] = {
      e = b, icon = icon, icon_x = Entity.get(icon, "transform").pos[1],
      x = t.pos[1], y = t.pos[2], w = s.size[1] / 2, h = s.size[2] / 2, enabled = true,
    }
  end
  keeper = keeping.new(SAVE, say, { hurt = HURT, ochre = OCHRE })
  if keeper:open(e, Save.get("warren_continue") == true) == "new" then
    say("You climb down into the Umber Warren.", OCHRE)
  end
  Save.set("warren_continue", nil)
  Audio.volume("music", drone)
  Audio.music("drone.wav", { loop = true, volume = 1, fade = 2 })
end

function update(e, dt)
  state = Entity.get(e, "CrawlState")
  keeper:answer(state, Entity.get(e, "CrawlEvents"))
  if state ~= nil then
    if state.error ~= nil and shown_tick ~= -2 then
      shown_tick = -2
      say("The warren cannot open: " .. state.error, HURT)
    elseif state.error == nil and stamp(state) ~= shown_tick then
      shown_tick = stamp(state)
      show_state()
      sound_the_tick(state)
      if not state.dead and not state.escaped and keeper:may_save() then Save.set(SAVE, state.save) end
    end
    local events = Entity.get(e, "CrawlEvents")
    if events ~= nil then
      for _, ev in ipairs(events.events) do
        tell(ev)
        hear(ev)
        if ev.event == "dead" then finish("dead") end
        if ev.event == "escaped" then finish("escaped") end
      end
    end
    if state.dead then finish("dead") elseif state.escaped then finish("escaped") end
    -- A fight the arcade has no screen for is won at once (the warren's tables have none).
    if state.encounter ~= nil and ended == nil then Crawler.resolve(e, true) end
    local map = Entity.get(e, "CrawlMap")
    if map ~= nil and map.rows ~= nil then paint_map(map.rows) end
    show_legend(map and map.legend)
    mark_party()
  end
  local target = drone_target(state)
  local eased = drone + (target - drone) * math.min(1, dt * 1.5)
  if math.abs(eased - drone) > 0.005 or (eased ~= target and math.abs(eased - target) <= 0.005) then
    drone = math.abs(eased - target) <= 0.005 and target or eased
    Audio.volume("music", drone)
  end
  animate(dt)
  tint_buttons()
end

function key(e, name, down)
  if not down then return end
  if keeper:refused() then keeper:key(e, name) return end
  if ended ~= nil then
    if name == "enter" or name == "space" or name == "escape" then Scene.load("title") end
    return
  end
  if name == "escape" then
    if big_map then toggle_map() else Scene.load("title") end
    return
  end
  local what = KEYS[name]
  if what ~= nil then act(what) end
end

function pointer(e, phase, x, y)
  if keeper:refused() then return end
  if ended ~= nil then
    if phase == "release" then Scene.load("title") end
    return
  end
  local hit = under(x, y)
  hover = hit
  if phase == "press" then
    pressed = hit
  elseif phase == "release" then
    local was = pressed
    pressed = nil
    if was ~= nil and was == hit then act(BUTTONS[hit]) end
  end
end
