-- Saltmarch: the whole game on one scene. Three places on the stage, and the camera looks at
-- one at a time: the menus (title, party creation, the town, memorising, the ending) round
-- (0, 50), the crawl round (0, 0), and the tactical fight round (100, 0).
--
-- The crawl (jengine-crawler) walks the party over the Marsh Road and through two dungeons of
-- two maps each, and announces events, groups spotted, parleys and fights; the fight
-- (jengine-goldbox) is taken from the crawl with GoldBox.from_crawl and settles it when it
-- ends. This script keeps what neither package does: gold, draughts, who looks how, and the
-- save.

local dice = import("dice.lua")
local party = import("party.lua")
local keep = import("keep.lua")
local shop = import("shop.lua")

local CRAWL, FIGHT, CAMERA
local G            -- the game being played (see keep.lua), nil on the title
local mode = "title"
local menu = { rows = {}, focus = 1 }
local log = {}
local note = ""
local creating     -- party creation in progress
local learning     -- memorising in progress
local fight_over = false
local fight_seen = false -- the bag has shown this fight in progress (not the last one's end)
local pending_load -- a kept game waiting for the crawl to take its save
local ended        -- "won" or "lost"

local function say(s)
  log[#log + 1] = s
  while #log > 7 do table.remove(log, 1) end
end

local function text(name, t)
  Text.set(Entity.find(name), t or "")
end

local function look_at(x, y)
  Entity.set(CAMERA, "camera", { center = { x, y } })
end

local function goldbox() return Entity.get(FIGHT, "GoldBox") or {} end
local function crawl_state() return Entity.get(CRAWL, "CrawlState") or {} end

-- The menu: rows of { label, on }, the focus drawn with a marker.
local function draw_menu()
  local lines = {}
  for i, r in ipairs(menu.rows) do
    lines[i] = (i == menu.focus and "> " or "  ") .. r.label
  end
  text("m_menu", table.concat(lines, "\n"))
  text("m_note", note)
  local row = menu.rows[menu.focus]
  if row and row.about then text("m_side", row.about) end
end

local function set_menu(rows, focus)
  menu.rows = rows
  menu.focus = math.min(focus or 1, #rows)
  draw_menu()
end

local function menu_key(name)
  local n = #menu.rows
  if n == 0 then return end
  if name == "up" then menu.focus = (menu.focus - 2) % n + 1
  elseif name == "down" then menu.focus = menu.focus % n + 1
  elseif name == "enter" or name == "space" then
    local row = menu.rows[menu.focus]
    if row and row.on then row.on() end
  end
  draw_menu()
end

local function portrait(index)
  local p = Entity.find("m_portrait")
  if index then
    Entity.set(p, "sprite", { tint = { 1, 1, 1, 1 }, region = { (index - 1) * 128, 0, 128, 128 } })
  else
    Entity.set(p, "sprite", { tint = { 1, 1, 1, 0 } })
  end
end

-- The party as the fight keeps it, one line a member.
local function roster(members)
  local lines = {}
  for i, m in ipairs(members or {}) do
    local meta = G and G.looks[i] or {}
    lines[i] = string.format("%d %-7s %-8s %s  hp %d/%d  xp %d%s", i, m.name, m.race,
      party.classes_of(m), m.hp, m.max_hp, party.xp_of(m),
      party.spells_line(m) ~= "" and ("  [" .. party.spells_line(m) .. "]") or "")
    if meta.alignment then lines[i] = lines[i] .. "  " .. meta.alignment end
  end
  return table.concat(lines, "\n")
end

---------------------------------------------------------------- the title and the ending

local title, town, crawl_mode, create_next

function title(why)
  mode = "title"
  G = nil
  look_at(0, 50)
  portrait(nil)
  text("m_head", "Saltmarch")
  text("m_body", "A town on the salt marsh, a road, a kobold warren and a drowned abbey.\n"
    .. "Six go out; the Bog King waits under the abbey.")
  text("m_side", "")
  note = why or ""
  local kept, problem = keep.slot()
  set_menu({
    { label = "New party", on = function() create_next(true) end },
    { label = kept and ("Continue from the " .. (kept.where or "inn")) or ("Continue (" .. (problem or "nothing saved") .. ")"),
      on = function()
        if not kept then note = "There is no game to continue: " .. (problem or "nothing is saved yet") .. "." return end
        G = kept
        GoldBox.party(FIGHT, kept.party)
        Crawler.load(CRAWL, kept.crawl)
        pending_load = 3
        note = "Loading..."
      end },
  }, kept and 2 or 1)
end

local function ending(how)
  mode = "ending"
  ended = how
  look_at(0, 50)
  portrait(nil)
  if how == "won" then
    text("m_head", "The Bog King is Fallen")
    -- The bells ring for those still standing, and toll for the rest.
    local standing = 0
    for _, m in ipairs(goldbox().party or {}) do
      if m.hp > 0 then standing = standing + 1 end
    end
    local words = { "one", "two", "three", "four", "five" }
    local back = standing >= 6 and "Saltmarch rings its bells for all six, every one come back."
      or string.format("Saltmarch rings its bells for the %s who came back, and tolls for the rest.",
        words[standing] or tostring(standing))
    text("m_body", "The salt crown cracks on the crypt floor and the water drains from the abbey.\n"
      .. back .. "\n\n"
      .. string.format("Fights won: %d   Gold: %d", G.won, G.gold))
  else
    text("m_head", "The Marsh Keeps Them")
    text("m_body", "Nobody is left standing. The reeds close over the road.")
  end
  text("m_side", roster(goldbox().party))
  note = ""
  set_menu({ { label = "Back to the title", on = function() title() end } })
end

---------------------------------------------------------------- party creation

local function roll_abilities()
  local a = {}
  for _, k in ipairs(party.ABILITIES) do a[k] = dice.roll4d6(creating.rng) end
  return a
end

local function draw_creation()
  local c = creating.current
  local options = party.classes_open(c.race, c.abilities)
  c.class = options[c.class_i] or options[1]
  local adjusted = party.adjusted(c.race, c.abilities)
  local lines = { string.format("Member %d of 6: %s", #creating.rows + 1, c.name), "" }
  for _, k in ipairs(party.ABILITIES) do
    lines[#lines + 1] = string.format("%-4s %2d", k, adjusted[k])
  end
  text("m_body", table.concat(lines, "\n"))
  local made = {}
  for i, r in ipairs(creating.rows) do
    made[i] = string.format("%s, %s %s, %s", r.name, r.race, table.concat(r.classes, "/"), creating.looks[i].alignment)
  end
  text("m_side", table.concat(made, "\n"))
  portrait(c.portrait)
  set_menu({
    { label = "Race: " .. c.race, on = function()
      c.race_i = c.race_i % #party.RACES + 1
      c.race = party.RACES[c.race_i]
      c.class_i = 1
      draw_creation()
    end },
    { label = "Class: " .. (c.class or "none open: roll again"), on = function()
      c.class_i = c.class_i % math.max(1, #options) + 1
      draw_creation()
    end },
    { label = "Alignment: " .. party.ALIGNMENTS[c.align_i], on = function()
      c.align_i = c.align_i % #party.ALIGNMENTS + 1
      draw_creation()
    end },
    { label = "Portrait: " .. c.portrait, on = function()
      c.portrait = c.portrait % 6 + 1
      draw_creation()
    end },
    { label = "Roll the abilities again", on = function()
      c.abilities = roll_abilities()
      draw_creation()
    end },
    { label = "Accept", on = function()
      if not c.class then note = "No class is open to these abilities: roll again." draw_menu() return end
      creating.rows[#creating.rows + 1] = party.row(c.name, c.race, c.class, c.abilities)
      creating.looks[#creating.looks + 1] = { portrait = c.portrait, alignment = party.ALIGNMENTS[c.align_i] }
      note = c.name .. " joins."
      create_next(false)
    end },
  }, menu.focus)
end

function create_next(fresh)
  if fresh then
    mode = "create"
    creating = { rng = dice.new(20261202), rows = {}, looks = {} }
    text("m_head", "Make a Party of Six")
    note = ""
    menu.focus = 1
  end
  local n = #creating.rows + 1
  if n > 6 then
    G = keep.new(creating.rng.s, creating.looks)
    GoldBox.party(FIGHT, creating.rows)
    Crawler.new_game(CRAWL, 5)
    creating = nil
    say("The six walk into Saltmarch with " .. G.gold .. " gold.")
    town("welcome")
    return
  end
  creating.current = {
    name = party.NAMES[n], race_i = 1, race = party.RACES[1], class_i = 1,
    align_i = n % #party.ALIGNMENTS + 1, portrait = n, abilities = roll_abilities(),
  }
  draw_creation()
end

---------------------------------------------------------------- the town

local function members() return goldbox().party or {} end

local memorise_next, shop_screen

function town(why)
  mode = "town"
  look_at(0, 50)
  portrait(nil)
  text("m_head", "Saltmarch")
  local ms = members()
  text("m_body", string.format("Gold %d   Draughts %d\n\n", G.gold, G.draughts) .. roster(ms))
  text("m_side", "")
  if why == "welcome" then note = "Lamps on the quay, gulls on the roofs. Where first?" end
  set_menu({
    { label = "Shop: draughts, arms and armour", on = function() shop_screen("buy") end },
    { label = "Temple: heal every wound (5 gold each)", on = function()
      local healed = 0
      for i, m in ipairs(ms) do
        if m.hp < m.max_hp and m.hp > -10 and G.gold >= 5 then
          GoldBox.heal(FIGHT, i, 999); G.gold = G.gold - 5; healed = healed + 1
        end
      end
      note = healed > 0 and ("The priests tend " .. healed .. ".") or "Nobody needs the priests."
    end },
    { label = "Temple: raise the dead (50 gold each)", on = function()
      local raised = {}
      for i, m in ipairs(ms) do
        if m.hp <= -10 and G.gold >= 50 then
          GoldBox.raise(FIGHT, i); G.gold = G.gold - 50; raised[#raised + 1] = m.name
        end
      end
      note = #raised > 0 and (table.concat(raised, ", ") .. " breathe again.") or "Nobody is dead, or you cannot pay."
    end },
    { label = "Training hall: train who is ready (40 gold each)", on = function()
      local trained = {}
      for i, m in ipairs(ms) do
        if party.ready(m) and G.gold >= 40 then
          GoldBox.train(FIGHT, i, dice.next(G.rng)); G.gold = G.gold - 40
          trained[#trained + 1] = m.name
        end
      end
      note = #trained > 0 and (table.concat(trained, ", ") .. " trained to a new level.") or "Nobody is ready to train."
    end },
    { label = "Inn: rest the night (5 gold)", on = function()
      if G.gold < 5 then note = "The inn wants 5 gold." return end
      G.gold = G.gold - 5
      GoldBox.rest(FIGHT)
      note = "A night's sleep: spells come back to those who memorised them."
    end },
    { label = "Inn: memorise spells", on = function() memorise_next(true) end },
    { label = "Inn: save the game", on = function()
      local ok, why = keep.save(G, members(), crawl_state().save, "inn")
      note = ok and "Saved at the inn." or ("The game was NOT saved: " .. why .. ". The save you had is kept.")
      draw_menu()
    end },
    { label = "Leave for the Marsh Road", on = function()
      Crawler.travel(CRAWL, "Marsh Road", 2, 4, "east")
      crawl_mode()
    end },
  }, menu.focus)
end

-- The casters, one after another: each chooses the spells its slots hold.
function memorise_next(fresh)
  if fresh then
    mode = "memorise"
    learning = { at = 0 }
  else
    local m = members()[learning.at]
    GoldBox.memorise(FIGHT, learning.at, learning.chosen)
    note = m.name .. " memorises " .. (#learning.chosen > 0 and table.concat(learning.chosen, ", ") or "nothing") .. "."
  end
  local ms = members()
  repeat learning.at = learning.at + 1 until learning.at > #ms or party.slots(ms[learning.at]) > 0
  if learning.at > #ms then learning = nil town() return end
  learning.chosen = {}
  local m = ms[learning.at]
  local function draw()
    text("m_head", "Memorise: " .. m.name)
    text("m_body", string.format("%s, %s. Slots: %d of level 1.\nChosen: %s", m.name, party.classes_of(m),
      party.slots(m), table.concat(learning.chosen, ", ")))
    local rows = {}
    for _, s in ipairs(party.spells_for(m)) do
      rows[#rows + 1] = { label = s, on = function()
        if #learning.chosen >= party.slots(m) then note = "Every slot is full: Done, or Clear." else
          learning.chosen[#learning.chosen + 1] = s
        end
        draw()
      end }
    end
    rows[#rows + 1] = { label = "Clear", on = function() learning.chosen = {} draw() end }
    rows[#rows + 1] = { label = "Done", on = function() memorise_next(false) end }
    set_menu(rows, menu.focus)
  end
  menu.focus = 1
  draw()
end

---------------------------------------------------------------- the shop

-- The chandler's screens: "buy" (the counter: draughts and the shelves), "stock" (shelf `arg`),
-- "for" (who gets item `arg`), "sell" (whose pack) and "sell_from" (member `arg`'s things). A
-- sale or a purchase is asked of the rules (GoldBox.give / GoldBox.remove) and settled when the
-- bag's `outfit` answers: gold changes hands only for what the rules allowed, and a refusal is
-- said in their words.
local shopping

local function shop_body()
  local ms, sheets = members(), goldbox().sheets or {}
  local lines = { string.format("Gold %d   Draughts %d", G.gold, G.draughts), "" }
  for i, m in ipairs(ms) do
    lines[#lines + 1] = shop.sheet_line(i, m, sheets[i] or {}, party.classes_of(m))
  end
  text("m_body", table.concat(lines, "\n"))
end

local function ask(kind, member, item, price)
  if shopping.pending then note = "The chandler is still wrapping the last one." return end
  local sheet = (goldbox().sheets or {})[member] or {}
  shopping.pending = { kind = kind, member = member, item = item, price = price,
    count = (goldbox().outfit or {}).count or 0, ac = sheet.ac, move = sheet.move_rate }
  if kind == "buy" then GoldBox.give(FIGHT, member, item) else GoldBox.remove(FIGHT, member, item) end
end

-- The rules' answer to the pending purchase or sale, once the bag has it.
local function shop_answer()
  local p = shopping and shopping.pending
  local o = goldbox().outfit or {}
  if not p or (o.count or 0) <= p.count then return end
  shopping.pending = nil
  local m = members()[p.member] or { name = "?" }
  local s = (goldbox().sheets or {})[p.member] or {}
  if o.refused then
    note = o.refused .. "."
  elseif p.kind == "buy" then
    G.gold = G.gold - p.price
    note = string.format("%s takes the %s for %d gold: armour class %d to %d, move %d to %d.", m.name,
      p.item, p.price, p.ac or 0, s.ac or 0, p.move or 0, s.move_rate or 0)
  else
    G.gold = G.gold + p.price
    note = string.format("%s sells the %s for %d gold.", m.name, p.item, p.price)
  end
  shop_screen(shopping.view, shopping.arg)
end

function shop_screen(view, arg)
  mode = "shop"
  -- A new view starts at its first row; the same one redrawn keeps the focus.
  local same = shopping ~= nil and shopping.view == view and shopping.arg == arg
  shopping = shopping or {}
  shopping.view, shopping.arg = view, arg
  look_at(0, 50)
  portrait(nil)
  text("m_head", "The Quay Chandler")
  shop_body()
  text("m_side", "")
  local ms, sheets = members(), goldbox().sheets or {}
  local rows = {}
  if view == "buy" then
    rows[1] = { label = string.format("Buy: a healing draught (%d gold)", shop.DRAUGHT),
      about = "A healing draught: Q in the crawl gives the first member hurt 8 hit points.",
      on = function()
        if G.gold < shop.DRAUGHT then note = "You cannot pay for a draught." else
          G.gold = G.gold - shop.DRAUGHT; G.draughts = G.draughts + 1; note = "A draught, corked and sealed."
        end
        shop_screen("buy")
      end }
    for i, shelf in ipairs(shop.SHELVES) do
      rows[#rows + 1] = { label = shelf.name, on = function() shop_screen("stock", i) end }
    end
    rows[#rows + 1] = { label = "Sell something", on = function() shop_screen("sell") end }
    rows[#rows + 1] = { label = "Back to the town", on = function() shopping = nil menu.focus = 1 town() end }
  elseif view == "stock" then
    shopping.shelf = arg
    for _, name in ipairs(shop.SHELVES[arg].items) do
      local price = shop.price(name)
      rows[#rows + 1] = { label = string.format("Buy: %s (%d gold)", name, price),
        about = shop.about(name, ms, sheets),
        on = function()
          if G.gold < price then note = string.format("The %s costs %d gold; you have %d.", name, price, G.gold) return end
          shop_screen("for", name)
        end }
    end
    rows[#rows + 1] = { label = "Back to the counter", on = function() shop_screen("buy") end }
  elseif view == "for" then
    local price = shop.price(arg)
    for i, m in ipairs(ms) do
      rows[#rows + 1] = { label = string.format("For %s, %s", m.name, party.classes_of(m)),
        on = function() ask("buy", i, arg, price) end }
    end
    rows[#rows + 1] = { label = "Back to the shelf", on = function() shop_screen("stock", shopping.shelf) end }
    text("m_side", shop.about(arg, ms, sheets))
  elseif view == "sell" then
    for i, m in ipairs(ms) do
      rows[#rows + 1] = { label = "Sell from " .. m.name .. "'s pack", on = function() shop_screen("sell_from", i) end }
    end
    rows[#rows + 1] = { label = "Back to the counter", on = function() shop_screen("buy") end }
  else
    local m = ms[arg] or { items = {} }
    for _, item in ipairs(m.items or {}) do
      local price = shop.sell_price(item)
      rows[#rows + 1] = { label = string.format("Sell: %s (%d gold)", item, price),
        on = function() ask("sell", arg, item, price) end }
    end
    -- Shots go back a bundle at a time.
    local ammo, sorts = shop.ammo_by_sort(), {}
    for sort in pairs(m.ammo or {}) do sorts[#sorts + 1] = sort end
    table.sort(sorts)
    for _, sort in ipairs(sorts) do
      local item, shots = ammo[sort], m.ammo[sort]
      if item and shots >= shop.bundle(item) then
        local price = shop.sell_price(item)
        rows[#rows + 1] = { label = string.format("Sell: %d %s of %d (%d gold)", shop.bundle(item), item, shots, price),
          on = function() ask("sell", arg, item, price) end }
      end
    end
    rows[#rows + 1] = { label = "Back", on = function() shop_screen("sell") end }
  end
  set_menu(rows, same and menu.focus or 1)
end

---------------------------------------------------------------- the crawl

local prompt = ""

local function draw_crawl()
  local s = crawl_state()
  text("c_where", string.format("%s   gold %d  draughts %d", s.level_name or "", G.gold, G.draughts))
  text("c_party", roster(members()))
  text("c_prompt", prompt)
  text("c_log", table.concat(log, "\n"))
end

function crawl_mode()
  mode = "crawl"
  look_at(0, 0)
  prompt = ""
  draw_crawl()
end

local function start_fight()
  mode = "fight"
  fight_over = false
  fight_seen = false
  GoldBox.from_crawl(FIGHT, CRAWL, dice.next(G.rng))
  look_at(100, 0)
end

local function on_crawl_event(ev)
  local k = ev.event
  if k == "event" then
    local lines = { ev.text }
    for i, c in ipairs(ev.choices or {}) do lines[#lines + 1] = i .. "  " .. c end
    prompt = table.concat(lines, "\n")
  elseif k == "outcome" then
    prompt = ""
    if ev.outcome == "town" then town() return end
    if ev.outcome == "freed" then G.gold = G.gold + 60; say("The merchant presses 60 gold on you and runs for the light.") end
    if ev.outcome == "left" then say("His cries follow you down the tunnel.") end
    if ev.outcome == "bowl" then G.gold = G.gold + 40; say("The bowl fetches 40 gold's worth of silver.") end
    if ev.outcome == "pray" then
      for i, m in ipairs(members()) do
        if m.hp > 0 and m.hp < m.max_hp then GoldBox.heal(FIGHT, i, 6) end
      end
      say("A calm like still water. Wounds close a little.")
    end
  elseif k == "spotted" then
    prompt = ev.text .. string.format(" (%d ahead)\n1 Fight  2 Parley  3 Flee  4 Wait", ev.distance)
  elseif k == "parley" then
    if ev.group == "toll goblins" and G.gold >= 20 then
      G.gold = G.gold - 20
      say("You pay the goblins 20 gold; they let you pass.")
      Crawler.resolve(CRAWL, true)
    else
      say("They will not talk to you.")
      Crawler.resolve(CRAWL, false)
    end
    prompt = ""
  elseif k == "encounter" then
    prompt = ""
    say(ev.text)
    start_fight()
  elseif k == "travel" then
    say("You come to " .. ev.map .. ".")
  elseif k == "escaped" then
    G.finished = true
  elseif k == "loot" then
    say("Found " .. tostring(ev.what) .. " " .. tostring(ev.value) .. ".")
  elseif k == "refused" then
    say(ev.reason)
  elseif k == "load_refused" and pending_load then
    pending_load = nil
    local why = ev.reason
    keep.set_aside()
    title("The saved game could not be loaded: " .. why .. ". It is kept, untouched.")
  elseif k == "bumped" then
    say("Bumped into " .. ev.what .. ".")
  end
end

local function camp()
  GoldBox.rest(FIGHT)
  Crawler.rest(CRAWL, 8)
  say("You camp: spells are memorised anew, and you keep watch.")
end

-- Keeps the game where the party camps (the crawl only, with nothing waiting on an answer),
-- as atomically as the inn does.
local function camp_save()
  local ok, why = keep.save(G, members(), crawl_state().save, "camp")
  say(ok and "The game is kept at this camp." or ("The game was NOT kept: " .. why .. ". The save you had stays."))
end

local function quaff()
  for i, m in ipairs(members()) do
    if m.hp > -10 and m.hp < m.max_hp and G.draughts > 0 then
      G.draughts = G.draughts - 1
      GoldBox.heal(FIGHT, i, 8)
      say(m.name .. " drinks a draught.")
      return
    end
  end
  say("Nobody needs a draught, or there are none.")
end

local function crawl_key(name)
  local s = crawl_state()
  if s.event then
    local n = tonumber(name)
    if n then Crawler.choose(CRAWL, n) end
    return
  end
  if s.spotted then
    local answers = { ["1"] = "fight", ["2"] = "parley", ["3"] = "flee", ["4"] = "wait" }
    if answers[name] then Crawler.answer(CRAWL, answers[name]) end
    return
  end
  if s.encounter then return end
  if name == "up" or name == "w" then Crawler.walk(CRAWL, 0, 1)
  elseif name == "down" or name == "s" then Crawler.walk(CRAWL, 0, -1)
  elseif name == "left" or name == "a" then Crawler.turn(CRAWL, -1)
  elseif name == "right" or name == "d" then Crawler.turn(CRAWL, 1)
  elseif name == "space" then Crawler.use(CRAWL)
  elseif name == "c" then camp()
  elseif name == "k" then camp_save()
  elseif name == "q" then quaff()
  end
end

---------------------------------------------------------------- the fight

local fight_log = {}

local function draw_fight()
  local f = goldbox()
  local lines = {}
  for _, u in ipairs(f.units or {}) do
    local mark = (u.id == f.active) and "> " or "  "
    lines[#lines + 1] = string.format("%s%-2d %-14s %3d/%-3d %s", mark, u.id, u.name, u.hp, u.max_hp,
      u.status ~= "ok" and u.status or "")
  end
  text("f_party", table.concat(lines, "\n"))
  text("f_title", f.fighting and ("Round " .. (f.round or 0)) or "")
  text("f_log", table.concat(fight_log, "\n"))
end

local function fight_say(s)
  fight_log[#fight_log + 1] = s
  while #fight_log > 9 do table.remove(fight_log, 1) end
end

local function words(f, ev)
  local name = function(id)
    for _, u in ipairs(f.units or {}) do if u.id == id then return u.name end end
    return "?"
  end
  local k = ev.event
  if k == "hit" then return string.format("%s hits %s for %d", name(ev.attacker or ev.unit), name(ev.target), ev.damage or 0) end
  if k == "miss" then return string.format("%s misses %s", name(ev.attacker or ev.unit), name(ev.target)) end
  if k == "cast" then return string.format("%s casts %s", name(ev.unit or ev.caster), ev.spell or "") end
  if k == "died" then return name(ev.unit) .. " dies" end
  if k == "downed" then return name(ev.unit) .. " falls" end
  if k == "fled" then return name(ev.unit) .. " flees" end
  if k == "slept" then return name(ev.unit) .. " sleeps" end
  return nil
end

local function fight_over_now(f)
  fight_over = true
  local o = f.outcome
  if o.ending == "won" then
    G.won = G.won + 1
    G.gold = G.gold + (o.gold or 0)
    fight_say(string.format("Victory: %d experience each, %d gold.", o.xp_each or 0, o.gold or 0))
    say(string.format("Won: %d xp each, %d gold.", o.xp_each or 0, o.gold or 0))
  elseif o.ending == "lost" then
    fight_say("The party is lost.")
  else
    fight_say("You get away.")
    say("You got away.")
  end
  fight_say("Enter to go on.")
end

local function nearest_enemy(f, from)
  local best, bd
  for _, u in ipairs(f.units or {}) do
    if u.side == "monsters" and u.hp > 0 and u.status ~= "fled" then
      local d = math.max(math.abs(u.x - from.x), math.abs(u.y - from.y))
      if not bd or d < bd then best, bd = u, d end
    end
  end
  return best
end

-- Targeting: A and S put a cursor on the field. `aim` is nil outside it; inside it holds the
-- kind ("attack" or "spell"), the spell, the legal targets (units, nearest first), which of
-- them Tab last chose, and the cursor's square.
local aim

local function as_id(t) return type(t) == "table" and (t.target or t.unit or t.id) or t end
local function spell_name(s) return type(s) == "table" and (s.spell or s.name) or s end

local function unit_by_id(f, id)
  for _, u in ipairs(f.units or {}) do if u.id == id then return u end end
end

local function by_distance(list, from)
  local function d(u) return math.max(math.abs(u.x - from.x), math.abs(u.y - from.y)) end
  table.sort(list, function(a, b)
    if d(a) ~= d(b) then return d(a) < d(b) end
    return a.id < b.id
  end)
  return list
end

local function show_aim()
  if aim.kind == "spell" then
    GoldBox.aim(FIGHT, aim.x, aim.y, aim.spell)
  else
    GoldBox.aim(FIGHT, aim.x, aim.y)
  end
end

local function aim_leave()
  aim = nil
  GoldBox.unpoint(FIGHT)
end

-- Enters targeting for `kind`; the cursor starts on the nearest legal target.
local function aim_enter(f, me, kind, spell)
  local targets = {}
  if kind == "attack" then
    local legal = f.legal
    for _, t in ipairs(legal.attacks or {}) do targets[#targets + 1] = unit_by_id(f, as_id(t)) end
    for _, t in ipairs(legal.shots or {}) do
      local u = unit_by_id(f, as_id(t))
      local seen = false
      for _, v in ipairs(targets) do if v == u then seen = true end end
      if u and not seen then targets[#targets + 1] = u end
    end
    if #targets == 0 then fight_say("Nobody is in reach.") return end
    by_distance(targets, me)
  else
    -- Foes first, nearest first; then the party, for a spell meant for friends.
    local foes, friends = {}, {}
    for _, u in ipairs(f.units or {}) do
      if u.status ~= "fled" and u.status ~= "dead" then
        if u.side ~= me.side then foes[#foes + 1] = u else friends[#friends + 1] = u end
      end
    end
    by_distance(foes, me)
    by_distance(friends, me)
    for _, u in ipairs(friends) do foes[#foes + 1] = u end
    targets = foes
  end
  local first = targets[1] or me
  aim = { kind = kind, spell = spell, targets = targets, pick = 1, x = first.x, y = first.y }
  show_aim()
  if kind == "spell" then
    fight_say("Aim " .. spell .. ": arrows, Tab, Enter casts, Esc backs out.")
  else
    fight_say("Aim: arrows, Tab, Enter attacks, Esc backs out.")
  end
end

local function aim_key(f, name)
  local steps = { up = { 0, -1 }, down = { 0, 1 }, left = { -1, 0 }, right = { 1, 0 } }
  if steps[name] then
    local nx, ny = aim.x + steps[name][1], aim.y + steps[name][2]
    if nx >= 0 and ny >= 0 and nx < (f.width or 0) and ny < (f.height or 0) then
      aim.x, aim.y = nx, ny
      show_aim()
    end
  elseif name == "tab" then
    if #aim.targets > 0 then
      aim.pick = aim.pick % #aim.targets + 1
      local u = unit_by_id(f, aim.targets[aim.pick].id) or aim.targets[aim.pick]
      aim.x, aim.y = u.x, u.y
      show_aim()
    end
  elseif name == "escape" then
    aim_leave()
    fight_say("Back.")
  elseif name == "enter" or name == "space" then
    if aim.kind == "spell" then
      if f.aim_refused then fight_say(f.aim_refused) return end
      local spell, x, y = aim.spell, aim.x, aim.y
      aim_leave()
      GoldBox.cast(FIGHT, spell, x, y)
    else
      local target
      for _, u in ipairs(aim.targets) do
        local now = unit_by_id(f, u.id)
        if now and now.x == aim.x and now.y == aim.y then target = now.id end
      end
      if not target then fight_say("No target there.") return end
      aim_leave()
      GoldBox.attack(FIGHT, target)
    end
  end
end

-- Choosing which spell S casts: up and down go through the ones held, Enter takes it.
local choosing

local function choose_key(f, me, name)
  local list = choosing.spells
  if name == "up" or name == "down" then
    choosing.pick = (choosing.pick + (name == "down" and 1 or -2)) % #list + 1
    fight_say("Spell: " .. list[choosing.pick])
  elseif name == "enter" or name == "space" or name == "s" then
    local spell = list[choosing.pick]
    choosing = nil
    aim_enter(f, me, "spell", spell)
  elseif name == "escape" then
    choosing = nil
    fight_say("Back.")
  end
end

local function fight_key(name)
  local f = goldbox()
  if fight_over then
    aim, choosing = nil, nil
    if name == "enter" or name == "space" then
      fight_log = {}
      draw_fight()
      if f.outcome and f.outcome.ending == "lost" then ending("lost")
      elseif G.finished then ending("won")
      else crawl_mode() end
    end
    return
  end
  local legal = f.legal
  if not legal then return end
  local me
  for _, u in ipairs(f.units or {}) do if u.id == f.active then me = u end end
  if aim and aim.unit ~= f.active then aim_leave() end
  if choosing and choosing.unit ~= f.active then choosing = nil end
  if aim then aim.unit = f.active aim_key(f, name) return end
  if choosing and me then choose_key(f, me, name) return end
  if name == "q" then
    for _, u in ipairs(f.units or {}) do
      if u.side == "party" and not u.quick then GoldBox.quick(FIGHT, true, u.id) end
    end
  elseif name == "a" and me then
    aim_enter(f, me, "attack")
    if aim then aim.unit = f.active end
  elseif name == "m" and me then
    local foe = nearest_enemy(f, me)
    local best, bd
    for _, m in ipairs(legal.moves or {}) do
      local d = foe and math.max(math.abs(m.x - foe.x), math.abs(m.y - foe.y)) or 0
      if not bd or d < bd then best, bd = m, d end
    end
    if best then GoldBox.move(FIGHT, best.x, best.y) end
  elseif name == "s" and me then
    local spells = {}
    for _, s in ipairs(legal.spells or {}) do spells[#spells + 1] = spell_name(s) end
    if #spells == 0 then fight_say("No spell to cast.")
    elseif #spells == 1 then
      aim_enter(f, me, "spell", spells[1])
      if aim then aim.unit = f.active end
    else
      choosing = { spells = spells, pick = 1, unit = f.active }
      fight_say("Spell: " .. spells[1] .. " (up/down, Enter, Esc)")
    end
  elseif name == "g" then GoldBox.guard(FIGHT)
  elseif name == "e" then GoldBox.end_turn(FIGHT)
  end
end

---------------------------------------------------------------- the engine's calls

function start(e)
  CRAWL = Entity.find("crawl")
  FIGHT = Entity.find("fight")
  CAMERA = Entity.find("camera")
  party.load(Data.table)
  shop.load(Data.table)
  title()
end

function key(e, name, down)
  if not down then return end
  if mode == "crawl" then crawl_key(name)
  elseif mode == "fight" then fight_key(name)
  else menu_key(name) end
end

function update(e, dt)
  if pending_load then
    pending_load = pending_load - 1
    local s = crawl_state()
    if pending_load <= 0 and s.save_in_play == "loaded" then
      pending_load = nil
      if G.where == "camp" then
        say("Back at the camp, as you left it.")
        crawl_mode()
      else
        say("Back at the inn, as you left it.")
        town("welcome")
      end
    end
  end
  local events = (Entity.get(CRAWL, "CrawlEvents") or {}).events or {}
  for _, ev in ipairs(events) do
    if mode ~= "title" or pending_load then on_crawl_event(ev) end
  end
  if mode == "fight" then
    local f = goldbox()
    for _, ev in ipairs((Entity.get(FIGHT, "GoldBoxEvents") or {}).events or {}) do
      local w = words(f, ev)
      if w then fight_say(w) end
    end
    if f.fighting and f.outcome == nil then fight_seen = true end
    if fight_seen and f.outcome and not fight_over then fight_over_now(f) end
    draw_fight()
  elseif mode == "crawl" then
    draw_crawl()
  elseif mode == "town" and G then
    text("m_body", string.format("Gold %d   Draughts %d\n\n", G.gold, G.draughts) .. roster(members()))
  elseif mode == "shop" and G then
    shop_answer()
    shop_body()
  end
end
