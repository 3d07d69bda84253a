-- Down the stairs: the package walks the party, remembers every floor and announces what
-- happens; this script keeps the party, hands out loot, springs traps and fights in menus.
-- Walking: arrows or WASD (Q/E step aside), Space uses what is ahead or the stairs underfoot,
-- X searches the walls about the party for secret doors, M shows the map, Esc (or the Pause button) pauses: Resume, or back to the title. In a fight
-- each member chooses from the menu in turn (F lets everyone do the sensible thing, R runs),
-- and the round is told line by line.

local menu = import("ui/menu.lua")
local strip = import("ui/strip.lua")
local data = import("rules/data.lua")
local dice = import("rules/dice.lua")
local party_rules = import("rules/party.lua")
local combat = import("rules/combat.lua")
local traps = import("rules/traps.lua")
local camp = import("rules/camp.lua")
local state = import("game/state.lua")

local MONSTERS = { m_rat = 0, m_kobold = 1, m_bat = 2, m_slime = 3, m_skeleton = 4, m_ghoul = 5, m_orc = 6, m_lich = 7 }
local TEXT = { 0.86, 0.89, 0.95, 1 }
local GOLD = { 0.95, 0.8, 0.45, 1 }
local RED = { 0.95, 0.45, 0.4, 1 }
local LINES = 8

local m = menu.new("menu", 7)
local t, live, game
local mode = "walk"
local log = {}
local last_tick
local fight, actions, chooser, stage
local flash = 0
local map_shown = {}
local use_label
local pause_hover = false
-- Whether the last command was a search (its "nothing" is told as such).
local searched = false

local function search()
  searched = true
  Crawler.search(game)
end

local function say(s, colour)
  log[#log + 1] = { s, colour or TEXT }
  while #log > 40 do table.remove(log, 1) end
end

local function keep()
  state.keep(live)
end

local function hurt_flash()
  flash = 0.45
end

local walk_menu, camp_menu, fight_menu, end_fight

local function game_over()
  mode = "over"
  Audio.stop_music({ fade = 1.5 })
  Audio.play("lose.wav")
  say("The whole party has fallen. The stairs keep them.", RED)
  m:set({ { label = "Back to the title (the inn's save is kept)", on = function()
    Save.set(state.LIVE, nil)
    Scene.load("title")
  end } })
end

local function start_fight(ev)
  fight = combat.new(live.rng, t.groups, ev.group)
  mode = "fight"
  actions = {}
  chooser = nil
  local first = fight.groups[1]
  if ev.text ~= nil and ev.text ~= "" then
    say(ev.text, GOLD)
  else
    say(string.format("%s attack%s!", combat.label(first), combat.alive_in(first) == 1 and "s" or ""), GOLD)
  end
  fight_menu()
end

-- Every event is heard at once, refusals too (fights sound in resolve).
local SOUNDS = {
  door = "door.wav", unlocked = "unlock.wav", locked = "locked.wav", lever = "lever.wav",
  loot = "loot.wav", empty = "bump.wav", pit = "trap.wav", trap = "trap.wav",
  bumped = "bump.wav", nothing = "bump.wav", level = "stairs.wav", exit = "stairs.wav",
  encounter = "growl.wav", escaped = "win.wav", found = "door.wav", teleport = "stairs.wav",
  spun = "trap.wav", plate = "lever.wav", button = "lever.wav", opened = "unlock.wav",
  shut = "locked.wav",
}

local function hear(ev)
  local name = SOUNDS[ev.event]
  if name == nil then return end
  if ev.event == "nothing" or ev.event == "empty" then
    Audio.play(name, { volume = 0.5, pitch = 1.3 })
  else
    Audio.play(name)
  end
end

-- A step is heard when the party stands somewhere new on the same floor: one footfall, a
-- little higher or lower than the last.
local was, step_pitch = nil, 1
local function hear_steps(st)
  local now = { level = st.level, x = st.x, y = st.y }
  if was ~= nil and was.level == now.level and (was.x ~= now.x or was.y ~= now.y) then
    step_pitch = step_pitch == 1 and 0.92 or 1
    Audio.play("step.wav", { volume = 0.8, pitch = step_pitch })
  end
  was = now
end

local function on_event(ev)
  hear(ev)
  local kind = ev.event
  if kind == "level" then
    say(string.format("Floor %d: %s.", ev.level + 1, ev.name), GOLD)
    if ev.level > live.deepest then live.deepest = ev.level end
  elseif kind == "door" then say("The door opens.")
  elseif kind == "unlocked" then say("The key turns; the door opens.")
  elseif kind == "locked" then say("Locked, and no key.")
  elseif kind == "bumped" then
    flash = math.max(flash, 0.2)
    if ev.what == "door" then say("The door is shut. Space opens it.")
    elseif ev.what == "monster" then say("Something stands in the way.")
    else say("You bump into the wall.") end
  elseif kind == "nothing" then
    flash = math.max(flash, 0.12)
    say(searched and "The walls about the party hide nothing." or "There is nothing here to use.")
    searched = false
  elseif kind == "lever" then say("The lever moves with a clank.")
  elseif kind == "empty" then say("The chest is empty.")
  elseif kind == "loot" then
    local n = tonumber(ev.value)
    local where = ev.from == "floor" and "On the floor lies" or "The chest holds"
    if ev.what == "gold" then
      live.gold = live.gold + (n or 0)
      say(string.format("%s %d gold.", where, n or 0), GOLD)
    elseif ev.what == "item" then
      state.give(live, ev.value)
      say(where .. " a " .. ev.value .. ".", GOLD)
    elseif ev.what == "key" then
      say(where .. (n and " a key." or (" the " .. ev.value .. " key.")), GOLD)
    else
      say(where .. " " .. ev.what .. " " .. ev.value .. ".", GOLD)
    end
  elseif kind == "found" then
    searched = false
    say("A secret door! The wall was hollow here.", GOLD)
  elseif kind == "teleport" then
    say("The air twists, and the party stands somewhere else.", GOLD)
  elseif kind == "spun" then
    say("The floor turns under the party's feet: now facing " .. tostring(ev.facing) .. ".", RED)
  elseif kind == "plate" then
    say("A plate sinks underfoot with a click.")
  elseif kind == "button" then
    say("The button sinks into the wall.")
  elseif kind == "opened" then
    say("Somewhere the " .. tostring(ev.name) .. " grinds open.", GOLD)
  elseif kind == "shut" then
    say("The " .. tostring(ev.name) .. " slams shut.", RED)
  elseif kind == "dark" then
    say("Darkness: the torches show nothing here.")
  elseif kind == "pit" then
    hurt_flash()
    for _, s in ipairs(traps.fall(live.rng, live.party)) do say(s, RED) end
  elseif kind == "trap" then
    hurt_flash()
    for _, s in ipairs(traps.spring(live.rng, live.party, ev.name)) do say(s, RED) end
  elseif kind == "encounter" then
    start_fight(ev)
  elseif kind == "exit" then
    live.crawl = Entity.get(game, "CrawlState").save
    keep()
    Scene.load("town")
  elseif kind == "escaped" then
    live.won = true
    live.crawl = nil
    keep()
    Scene.load("ending")
  end
end

-- The menu of a walk: every move as a choice, for the pointer.
walk_menu = function()
  local items = {
    { label = "Forward (Up)", on = function() Crawler.walk(game, 0, 1) end },
    { label = "Turn left (Left)", on = function() Crawler.turn(game, -1) end },
    { label = "Turn right (Right)", on = function() Crawler.turn(game, 1) end },
    { label = "Step back (Down)", on = function() Crawler.walk(game, 0, -1) end },
    { label = "Use (Space)" .. (use_label and (": " .. use_label) or ""), on = function() Crawler.use(game) end },
    { label = "Search the walls (X)", on = search },
    { label = "Map (M)", on = function()
      mode = mode == "map" and "walk" or "map"
    end },
    { label = "Camp (C)", on = function() mode = "camp"; camp_menu() end },
  }
  m:set(items, true)
end

-- The pause: the crawl is saved live on every step, so leaving loses nothing the game keeps.
local function pause_menu()
  mode = "pause"
  m:set({
    { label = "Resume (Esc)", on = function() mode = "walk"; walk_menu() end },
    { label = "Back to the title (the inn's save is kept)", on = function()
      live.crawl = Entity.get(game, "CrawlState").save
      keep()
      Scene.load("title")
    end },
  })
end

-- The camp: between fights a priest may heal and anyone may drink a potion.
local function most_hurt()
  return camp.most_hurt(live.party)
end

-- What the camp's H does (rules/camp.lua), told in the log.
local function patch_up()
  local said = camp.patch_up(live.rng, live.party, live.pack, t)
  for _, s in ipairs(said) do say(s) end
  keep()
end

camp_menu = function()
  local items = { { label = "Patch everyone up (H)", on = function() patch_up(); camp_menu() end } }
  local hurt, how = most_hurt()
  local target = hurt and live.party[hurt]
  for _, p in ipairs(live.party) do
    if party_rules.able(p) then
      for _, s in ipairs(party_rules.spells(p, t.classes, t.spells)) do
        if s.heal and s.target == "member" then
          items[#items + 1] = {
            label = string.format("%s casts %s on %s (%d SP)", p.name, s.name, target and target.name or "nobody", s.cost),
            off = (p.sp < s.cost and "Not enough spell points.") or ((target == nil or how >= 1) and "Nobody is hurt.") or nil,
            on = function()
              p.sp = p.sp - s.cost
              local n = dice.range(live.rng, s.heal)
              target.hp = math.min(target.max_hp, target.hp + n)
              say(string.format("%s heals %s for %d.", p.name, target.name, n))
              keep()
              camp_menu()
            end,
          }
        end
      end
    end
  end
  local poisoned
  for _, q in ipairs(live.party) do if q.status == "poisoned" then poisoned = q end end
  if (live.pack["healing potion"] or 0) > 0 then
    items[#items + 1] = {
      label = string.format("Give %s a healing potion (%d left)", target and target.name or "nobody", live.pack["healing potion"]),
      off = (target == nil or how >= 1) and "Nobody is hurt." or nil,
      on = function()
        state.take(live, "healing potion")
        local n = dice.range(live.rng, t.items["healing potion"].heal)
        target.hp = math.min(target.max_hp, target.hp + n)
        say(string.format("%s drinks a healing potion: %d.", target.name, n))
        keep()
        camp_menu()
      end,
    }
  end
  if poisoned and (live.pack["antidote"] or 0) > 0 then
    items[#items + 1] = { label = "Give " .. poisoned.name .. " an antidote", on = function()
      state.take(live, "antidote")
      poisoned.status = "ok"
      say(poisoned.name .. " is cured.")
      keep()
      camp_menu()
    end }
  end
  -- The rows: a member in front and the one behind them change places.
  for i = 1, party_rules.FRONT do
    local a, b = live.party[i], live.party[i + party_rules.FRONT]
    if a and b then
      items[#items + 1] = { label = string.format("Swap %s (front) and %s (back)", a.name, b.name), on = function()
        live.party[i], live.party[i + party_rules.FRONT] = b, a
        say(string.format("%s steps back; %s steps up.", a.name, b.name))
        keep()
        camp_menu()
      end }
    end
  end
  items[#items + 1] = { label = "Break camp", on = function() mode = "walk"; walk_menu() end }
  m:set(items, true)
end

local function next_chooser(from)
  for i = from, #live.party do
    if party_rules.able(live.party[i]) then return i end
  end
  return nil
end

local function resolve()
  local said, outcome = combat.round(live.rng, fight, live.party, actions, t,
    { take = function(id) return state.take(live, id) end })
  local struck, hurt = false, false
  for _, s in ipairs(said) do
    say(s, (s:find("falls") or s:find("hits")) and RED or TEXT)
    if s:find(" hits ") or s:find(" takes ") then
      hurt_flash()
      hurt = true
    elseif s:find("strikes") or s:find("dies") then
      struck = true
    end
  end
  -- The round heard: the party's blows, then the blows they took.
  if struck then Audio.play("hit.wav") end
  if hurt then Audio.play("hurt.wav", { volume = 0.9 }) end
  actions = {}
  chooser = nil
  keep()
  if outcome == "won" then
    end_fight(true)
  elseif outcome == "lost" then
    game_over()
  else
    fight_menu()
  end
end

local function choose(action)
  actions[chooser] = action
  local nxt = next_chooser(chooser + 1)
  if nxt == nil then resolve() else chooser = nxt; stage = "action"; fight_menu() end
end

local function auto_round()
  for i, p in ipairs(live.party) do
    if party_rules.able(p) and actions[i] == nil then
      actions[i] = combat.suggest(fight, live.party, i, t, actions)
    end
  end
  resolve()
end

local function run()
  local ok, said, outcome = combat.run(live.rng, fight, live.party, t)
  for _, s in ipairs(said) do say(s, s:find("falls") and RED or TEXT) end
  keep()
  if ok then
    live.fights.fled = live.fights.fled + 1
    end_fight(false)
  elseif outcome == "lost" then
    game_over()
  else
    actions = {}
    chooser = nil
    fight_menu()
  end
end

end_fight = function(won)
  if won then
    local xp, gold = fight.xp or 0, fight.gold or 0
    live.gold = live.gold + gold
    live.fights.won = live.fights.won + 1
    say(string.format("Victory! %d experience and %d gold.", xp, gold), GOLD)
    Audio.play("win.wav", { volume = 0.8 })
    for _, s in ipairs(party_rules.gain(live.rng, live.party, xp, t.classes)) do say(s, GOLD) end
  end
  for _, name in ipairs(party_rules.wake(live.party)) do say(name .. " wakes.") end
  Crawler.resolve(game, won)
  fight = nil
  mode = "walk"
  keep()
  walk_menu()
end

local function group_targets(member, slot, reach_only)
  local items = {}
  for _, g in ipairs(combat.standing(fight)) do
    if not reach_only or combat.can_strike(member, slot, g, t.items) then
      items[#items + 1] = g
    end
  end
  return items
end

fight_menu = function()
  if chooser == nil then chooser = next_chooser(1) end
  if chooser == nil then resolve() return end
  local p = live.party[chooser]
  local items = {}
  if stage == "spell" then
    for _, s in ipairs(party_rules.spells(p, t.classes, t.spells)) do
      items[#items + 1] = { label = string.format("%s (%d SP)", s.name, s.cost),
        off = p.sp < s.cost and "Not enough spell points." or nil, on = function()
          if s.target == "member" then
            stage = { spell = s }
            fight_menu()
          elseif s.target == "party" or s.target == "all" then
            choose({ kind = "spell", spell = s.id })
          else
            local groups = group_targets(p, chooser, false)
            if #groups == 1 then choose({ kind = "spell", spell = s.id, group = groups[1].range })
            else stage = { spell = s, groups = groups }; fight_menu() end
          end
        end }
    end
  elseif stage == "item" then
    local ids = {}
    for id in pairs(live.pack) do if t.items[id] and t.items[id].kind == "potion" then ids[#ids + 1] = id end end
    table.sort(ids)
    for _, id in ipairs(ids) do
      items[#items + 1] = { label = string.format("%s (%d)", id, live.pack[id]), on = function()
        stage = { item = id }
        fight_menu()
      end }
    end
  elseif type(stage) == "table" and (stage.item or (stage.spell and stage.spell.target == "member")) then
    for i, q in ipairs(live.party) do
      items[#items + 1] = { label = string.format("%s (HP %d/%d)", q.name, q.hp, q.max_hp),
        off = (not party_rules.alive(q) and not (stage.spell and stage.spell.cures)) and (q.name .. " is dead.") or nil,
        on = function()
          if stage.item then choose({ kind = "item", item = stage.item, member = i })
          else choose({ kind = "spell", spell = stage.spell.id, member = i }) end
        end }
    end
  elseif type(stage) == "table" and stage.groups then
    for _, g in ipairs(stage.groups) do
      items[#items + 1] = { label = combat.label(g), on = function()
        if stage.spell then choose({ kind = "spell", spell = stage.spell.id, group = g.range })
        else choose({ kind = "fight", group = g.range }) end
      end }
    end
  else
    stage = "action"
    local reach = group_targets(p, chooser, true)
    local spells = party_rules.spells(p, t.classes, t.spells)
    local potions = false
    for id in pairs(live.pack) do if t.items[id] and t.items[id].kind == "potion" then potions = true end end
    items = {
      { label = "Fight", off = #reach == 0 and (p.name .. "'s weapon cannot reach a foe from there.") or nil, on = function()
        if #reach == 1 then choose({ kind = "fight", group = reach[1].range })
        else stage = { groups = reach }; fight_menu() end
      end },
      { label = "Parry", on = function() choose({ kind = "parry" }) end },
      { label = "Spell", off = #spells == 0 and (p.name .. " knows no spells.") or nil, on = function()
        stage = "spell"; fight_menu()
      end },
      { label = "Item", off = (not potions) and "Nothing in the pack to use." or nil, on = function()
        stage = "item"; fight_menu()
      end },
      { label = "Run (the whole party)", on = run },
      { label = "Everyone does the sensible thing (F)", on = auto_round },
    }
  end
  if stage ~= "action" then
    items[#items + 1] = { label = "Back", on = function() stage = "action"; fight_menu() end }
  end
  m:set(items)
end

-- The crawl's save, loaded from `live.crawl`: nothing is written until the crawl answers, and
-- a save it refuses is said plainly and kept as it was (the inn's slot is never touched here).
-- Only if the player then starts the stairs afresh is the refused crawl moved aside, to
-- `stairs_refused` (or `_2`, `_3`, ... when that is taken), never written over.
local loading = false
local ASIDE = "stairs_refused"

local function refused_menu(reason)
  mode = "refused"
  say("The party's place in the deep could not be loaded, and its save is kept as it was.", RED)
  say("Why: " .. reason, RED)
  say("The floors are not as the party left them: a new descent starts them afresh.", GOLD)
  m:set({
    { label = "Start the stairs afresh (the old save is set aside)", on = function()
      local aside, n = ASIDE, 1
      while Save.get(aside) ~= nil do
        n = n + 1
        aside = ASIDE .. "_" .. n
      end
      Save.set(aside, live.crawl)
      live.crawl = nil
      Crawler.new_game(game)
      mode = "walk"
      say("The old crawl is set aside as " .. aside .. ". The party goes down the first stair.", GOLD)
      walk_menu()
    end },
    { label = "Back to the title (nothing is written)", on = function() Scene.load("title") end },
  })
end

-- Reads the crawl's answer to the load: a `load_refused` event, or the saved game in play.
local function answer_load(st, events)
  if not loading then return end
  for _, ev in ipairs(events and events.events or {}) do
    if ev.event == "load_refused" then
      loading = false
      refused_menu(ev.reason)
      return
    end
  end
  if st.save_in_play == "loaded" then
    loading = false
    say("Down the stairs again. Every floor is as the party left it.")
  end
end

function start(e)
  game = e
  local problems
  t, problems = data.load(Data.table)
  live = state.load()
  if live == nil or #problems > 0 then
    Scene.load("title")
    return
  end
  -- The deep's ambience: a low drone under everything, quiet.
  Audio.music("deep.wav", { loop = true, volume = 0.5, fade = 2 })
  if live.crawl ~= nil then
    loading = true
    Crawler.load(e, live.crawl)
  else
    say("The party goes down the first stair.", GOLD)
  end
  walk_menu()
end

local FACING_ARROW = { north = "▲", east = "▶", south = "▼", west = "◀" }
local MAP_COLOURS = {
  ["#"] = { 0.2, 0.24, 0.32, 1 }, ["."] = { 0.78, 0.76, 0.68, 1 }, ["+"] = { 0.55, 0.38, 0.2, 1 },
  ["="] = { 0.7, 0.5, 0.15, 1 }, ["A"] = { 0.6, 0.6, 0.55, 1 }, ["L"] = { 0.5, 0.5, 0.6, 1 },
  ["C"] = { 0.9, 0.7, 0.2, 1 }, ["O"] = { 0.1, 0.1, 0.1, 1 }, [">"] = { 0.3, 0.55, 0.9, 1 },
  ["<"] = { 0.45, 0.8, 0.95, 1 }, ["E"] = { 0.85, 0.25, 0.2, 1 }, ["^"] = { 0.78, 0.76, 0.68, 1 },
  ["/"] = { 0.7, 0.55, 0.35, 1 }, ["c"] = { 0.5, 0.42, 0.25, 1 }, ["$"] = { 0.95, 0.85, 0.3, 1 },
  ["T"] = { 0.6, 0.35, 0.85, 1 }, ["%"] = { 0.85, 0.45, 0.7, 1 }, ["_"] = { 0.6, 0.6, 0.45, 1 },
  ["B"] = { 0.5, 0.55, 0.7, 1 },
}

local function draw_map(st)
  local shown = mode == "map"
  menu.tint("map_back", shown and { 1, 1, 1, 1 } or { 1, 1, 1, 0 })
  local map = Entity.get(game, "CrawlMap")
  local rows = map and map.rows or {}
  for y = 0, 10 do
    local row = rows[y + 1] or ""
    for x = 0, 14 do
      local c = row:sub(x + 1, x + 1)
      local colour = shown and MAP_COLOURS[c] or nil
      local key = (colour and c or "-")
      local name = "map_" .. x .. "_" .. y
      if map_shown[name] ~= key then
        map_shown[name] = key
        Entity.set(Entity.find(name), "sprite", { tint = colour or { 0, 0, 0, 0 } })
      end
    end
  end
  if shown then
    local e = Entity.find("map_" .. st.x .. "_" .. st.y)
    local pos = e and Entity.get(e, "transform").pos
    if pos then
      Entity.set(Entity.find("map_arrow"), "transform", { pos = { pos[1], pos[2] } })
    end
  end
  menu.text("map_arrow", shown and (FACING_ARROW[st.facing] or "●") or "")
end

local function draw_side(st)
  local lines = {}
  if mode == "fight" and fight then
    menu.text("side_title", string.format("FIGHT, round %d", fight.round + 1))
    for _, g in ipairs(combat.standing(fight)) do
      lines[#lines + 1] = { combat.describe(g), GOLD }
    end
    local p = chooser and live.party[chooser]
    lines[#lines + 1] = { p and ("What does " .. p.name .. " do?") or "", { 0.55, 0.75, 1.0, 1 } }
  else
    menu.text("side_title", st.level_name)
  end
  local room = LINES - #lines
  for i = math.max(1, #log - room + 1), #log do lines[#lines + 1] = log[i] end
  for i = 1, LINES do
    local l = lines[i]
    menu.text("line_" .. i, l and l[1] or "")
    menu.colour("line_" .. i, l and l[2] or TEXT)
  end
  local art
  if mode == "fight" and fight then
    local near = combat.standing(fight)[1]
    art = near and MONSTERS[near.art]
  end
  if art then
    menu.put("foe_art", "sprite", { region = { art * 256, 0, 256, 256 }, tint = { 1, 1, 1, 1 }, __k = tostring(art) }, "art")
  else
    menu.put("foe_art", "sprite", { tint = { 1, 1, 1, 0 }, __k = "none" }, "art")
  end
end

-- The pause button at the top of the side panel, for the pointer (Esc is its key).
local PAUSE_REST = { 0.36, 0.5, 0.78, 0.3 }
local PAUSE_LIT = { 0.36, 0.5, 0.78, 0.8 }
local function draw_pause_button()
  local shown = mode == "walk"
  menu.text("pause_label", shown and "Pause (Esc)" or "")
  menu.tint("pause_row", shown and (pause_hover and PAUSE_LIT or PAUSE_REST) or { 1, 1, 1, 0 })
end

function update(e, dt)
  if live == nil then return end
  local st = Entity.get(e, "CrawlState")
  if st == nil then return end
  local events = Entity.get(e, "CrawlEvents")
  answer_load(st, events)
  for _, ev in ipairs(events and events.events or {}) do
    on_event(ev)
    if live == nil then return end
  end
  hear_steps(st)
  if st.tick ~= last_tick then
    if last_tick ~= nil and mode ~= "fight" then
      -- Poison works on the party as it walks, never quite to death.
      if st.tick % 4 == 0 then
        for _, p in ipairs(live.party) do
          if p.status == "poisoned" and p.hp > 1 then p.hp = p.hp - 1 end
        end
      end
    end
    last_tick = st.tick
    if mode ~= "fight" and mode ~= "refused" and not loading then
      live.crawl = st.save
      keep()
    end
    if party_rules.living(live.party) == 0 and mode ~= "over" then game_over() end
  end
  if mode == "walk" and (st.use_does ~= use_label or m.items[7] == nil) then
    use_label = st.use_does
    walk_menu()
  end
  menu.text("where", string.format("%s  ·  facing %s", st.level_name, st.facing))
  if mode == "fight" then
    menu.text("help", "Up/Down choose   Enter select   F everyone does the sensible thing   R run")
  elseif mode == "map" then
    menu.text("help", "The map of this floor: M or Esc closes it")
  elseif mode == "over" then
    menu.text("help", "Enter: back to the title")
  elseif mode == "refused" then
    menu.text("help", "Up/Down choose   Enter select")
  elseif mode == "camp" then
    menu.text("help", "The camp: Up/Down choose   Enter select   C or Esc breaks camp")
  elseif mode == "pause" then
    menu.text("help", "Paused: Up/Down choose   Enter select   Esc resumes")
  else
    menu.text("help", "Arrows/WASD walk and turn   Q/E step aside   Space use   X search   M map   C camp   H patch up")
  end
  draw_side(st)
  draw_map(st)
  draw_pause_button()
  strip.draw(live.party, t.classes, mode == "fight" and chooser or nil, dt)
  if flash > 0 then flash = math.max(0, flash - dt * 1.5) end
  menu.tint("flash", { 1, 0.3, 0.1, flash })
end

local WALK = {
  up = function() Crawler.walk(game, 0, 1) end, w = function() Crawler.walk(game, 0, 1) end,
  down = function() Crawler.walk(game, 0, -1) end, s = function() Crawler.walk(game, 0, -1) end,
  left = function() Crawler.turn(game, -1) end, a = function() Crawler.turn(game, -1) end,
  right = function() Crawler.turn(game, 1) end, d = function() Crawler.turn(game, 1) end,
  q = function() Crawler.walk(game, -1, 0) end, e = function() Crawler.walk(game, 1, 0) end,
  space = function() Crawler.use(game) end, enter = function() Crawler.use(game) end,
  x = function() search() end,
}

function key(e, name, down)
  if not down or live == nil or loading then return end
  if mode == "map" then
    if name == "m" or name == "escape" then mode = "walk" end
    return
  end
  if mode == "fight" then
    if name == "f" then auto_round() return end
    if name == "r" then run() return end
    if name == "escape" and stage ~= "action" then stage = "action"; fight_menu() return end
    local why = m:key(name)
    if why then say(why, RED) end
    return
  end
  if mode == "over" or mode == "refused" then
    m:key(name)
    return
  end
  if mode == "camp" then
    if name == "escape" or name == "c" then mode = "walk"; walk_menu() return end
    if name == "h" then patch_up(); camp_menu() return end
    local why = m:key(name)
    if why then say(why, RED) end
    return
  end
  if mode == "pause" then
    if name == "escape" then mode = "walk"; walk_menu() return end
    m:key(name)
    return
  end
  if name == "escape" then pause_menu() return end
  if name == "m" then mode = "map" return end
  if name == "c" then mode = "camp"; m.focus = 1; camp_menu() return end
  if name == "h" then patch_up() return end
  local act = WALK[name]
  if act then
    if name ~= "x" then searched = false end
    act()
  end
end

function pointer(e, phase, x, y)
  if live == nil or mode == "map" then
    if phase == "release" and mode == "map" then mode = "walk" end
    return
  end
  pause_hover = mode == "walk" and menu.over("pause_row", x, y)
  if pause_hover and phase == "release" then
    pause_hover = false
    pause_menu()
    return
  end
  local why = m:pointer(phase, x, y)
  if why then say(why, RED) end
end
