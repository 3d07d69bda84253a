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

local MAP_SMALL = { x = 0.97, y = 0.27, cell = 0.25 }
local MAP_BIG = { x = -6.7, y = 3.8, cell = 0.375 }

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
}
local CLEAR = { 0, 0, 0, 0 }

local game
local state
local keeper             -- the save: loaded, answered, kept safe (warren_save.lua)
local log = {}
local shown_tick = -1
local last_map = nil
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
}

local function hear(ev)
  local name = SOUNDS[ev.event]
  if name == nil then return end
  if ev.event == "nothing" or ev.event == "empty" then
    Audio.play(name, { volume = 0.5, pitch = 1.3 })
  elseif ev.event == "slain" then
    Audio.play(name, { pitch = 0.8 })
  else
    Audio.play(name)
  end
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
    if ev.what == "gold" then
      say("The chest holds " .. ev.value .. " gold.", OCHRE)
    elseif ev.what == "key" then
      say("An iron key lies in the chest.", OCHRE)
    elseif ev.what == "heal" then
      say("A healing draught: everyone feels better.", GOOD)
      flash_view(0.3, 1, 0.4)
    else
      say("You find " .. ev.what .. " " .. ev.value .. ".", OCHRE)
    end
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
    say("There is nothing here to use.")
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

-- The automap: one sprite per cell, retinted only where the drawing changed.
local function place_map()
  local m = big_map and MAP_BIG or MAP_SMALL
  for y = 0, 13 do
    for x = 0, 15 do
      Entity.set(find("am_" .. x .. "_" .. y), "transform", {
        pos = { m.x + (x + 0.5) * m.cell, m.y - (y + 0.5) * m.cell }, z = big_map and 1500 or 1002,
      })
      Entity.set(find("am_" .. x .. "_" .. y), "sprite", { size = { m.cell, m.cell } })
    end
  end
  Entity.set(find("map_paper"), "transform", {
    pos = big_map and { -3.7, 0.85 } or { 2.85, -1.45 }, z = big_map and 1499 or 1001,
  })
  Entity.set(find("map_paper"), "sprite", { size = big_map and { 6.95, 5.9 } or { 4.45, 3.9 } })
end

local function paint_map(rows)
  for y = 0, 13 do
    local row = rows[y + 1] or ""
    local before = last_map and last_map[y + 1] or nil
    if row ~= before then
      for x = 0, 15 do
        local ch = x < #row and row:sub(x + 1, x + 1) or " "
        local was = before and x < #before and before:sub(x + 1, x + 1) or nil
        if ch ~= was then
          Entity.set(find("am_" .. x .. "_" .. y), "sprite", { tint = MAP_COLOURS[ch] or CLEAR })
        end
      end
    end
  end
  last_map = rows
end

local ARROW = { north = 0, east = -math.pi / 2, south = math.pi, west = math.pi / 2 }

local function mark_party()
  if state == nil then return end
  local m = big_map and MAP_BIG or MAP_SMALL
  Entity.set(find("am_you"), "transform", {
    pos = { m.x + (state.x + 0.5) * m.cell, m.y - (state.y + 0.5) * m.cell },
    rot = ARROW[state.facing] or 0, z = big_map and 1501 or 1004,
  })
  Entity.set(find("am_you"), "sprite", { size = { m.cell * 1.2, m.cell * 1.2 } })
end

local function toggle_map()
  big_map = not big_map
  place_map()
  mark_party()
  say(big_map and "You unroll the map." or "You roll up the map.")
end

-- The HUD from the state: names, health bars, gold, keys, compass.
local function show_state()
  Text.set(find("level_name"), state.level_name .. "  (" .. (state.level + 1) .. "/" .. state.levels .. ")")
  Text.set(find("facing"), string.upper(state.facing:sub(1, 1)))
  Text.set(find("keys"), tostring(state.keys))
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
  elseif what == "map" then toggle_map()
  elseif what == "title" then Scene.load("title")
  end
end

local KEYS = {
  up = "forward", w = "forward", down = "back", s = "back",
  left = "turn_left", a = "turn_left", right = "turn_right", d = "turn_right",
  q = "left", e = "right", space = "use", f = "attack", r = "rest", m = "map",
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
    elseif state.error == nil and state.tick ~= shown_tick then
      shown_tick = state.tick
      show_state()
      mark_party()
      sound_the_tick(state)
      if not state.dead and not state.escaped and keeper:may_save() then Save.set(SAVE, state.save) end
    end
    local events = Entity.get(e, "CrawlEvents")
    if events ~= nil then
      for _, ev in ipairs(events.events) do
        tell(ev)
        hear(ev)
        if ev.event == "level" then last_map = nil; mark_party() end
        if ev.event == "dead" then finish("dead") end
        if ev.event == "escaped" then finish("escaped") end
      end
    end
    if state.dead then finish("dead") elseif state.escaped then finish("escaped") end
    -- A fight the arcade has no screen for is won at once (the warren's tables have none).
    if state.encounter ~= nil and ended == nil then Crawler.resolve(e, true) end
    local map = Entity.get(e, "CrawlMap")
    if map ~= nil and map.rows ~= nil then paint_map(map.rows) end
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
