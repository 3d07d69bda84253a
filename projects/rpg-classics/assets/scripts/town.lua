-- The town above the stairs: a still picture and a menu for each place. The tavern forms the
-- party (six at most, the first three in front); the inn rests it and saves the game; the shop
-- buys and sells; the temple cures and raises; the stairs lead down to the crawl.

local menu = import("ui/menu.lua")
local strip = import("ui/strip.lua")
local data = import("rules/data.lua")
local dice = import("rules/dice.lua")
local party_rules = import("rules/party.lua")
local state = import("game/state.lua")

local PICTURES = {
  town = { 0, 576 }, inn = { 0, 0 }, shop = { 512, 0 }, temple = { 0, 288 }, tavern = { 512, 288 },
}
local NAMES = { town = "The Town of Seven Stairs", inn = "The Lantern Inn", shop = "Boltac's Trading Post",
  temple = "The Temple of Cant", tavern = "Gilgamesh's Tavern" }

local m = menu.new("menu", 9)
local t, live
local place = "town"
local info = ""

local go

local function say(s) info = s end

local function save()
  state.keep(live)
end

local function rest_cost()
  local n = 0
  for _, p in ipairs(live.party) do
    if party_rules.alive(p) then n = n + 5 * p.level end
  end
  return n
end

local function member_name(class)
  local used = {}
  for _, p in ipairs(live.party) do used[p.name] = true end
  for _, n in ipairs(class.names) do
    if not used[n] then return n end
  end
  return class.names[1] .. " " .. (#live.party + 1)
end

local function portrait(class)
  local same = 0
  for _, p in ipairs(live.party) do if p.class == class.id then same = same + 1 end end
  return class.portraits[same % #class.portraits + 1]
end

local menus = {}

function menus.town()
  local alive = party_rules.living(live.party) > 0
  return "Where to?", {
    { label = "Gilgamesh's Tavern: form the party", on = function() go("tavern") end },
    { label = "The Lantern Inn: rest and save", on = function() go("inn") end },
    { label = "Boltac's Trading Post: buy and sell", on = function() go("shop") end },
    { label = "The Temple of Cant: cure and raise", on = function() go("temple") end },
    { label = "Down the stairs", off = (not alive) and "Form a party at the tavern first." or nil, on = function()
      save()
      Scene.load("crawl")
    end },
    { label = "Back to the title", on = function() save(); Scene.load("title") end },
  }
end

function menus.tavern()
  local items = {}
  for _, class in ipairs(t.class_list) do
    items[#items + 1] = {
      label = "Add a " .. class.name:lower(),
      off = #live.party >= party_rules.SIZE and "The party is six already." or nil,
      on = function()
        local p = party_rules.new_member(live.rng, class, member_name(class), portrait(class))
        live.party[#live.party + 1] = p
        say(string.format("%s the %s joins (HP %d, agility %d, strength %d).", p.name, class.name:lower(), p.max_hp, p.agility, p.strength))
        save()
        go("tavern", true)
      end,
    }
  end
  for i, p in ipairs(live.party) do
    items[#items + 1] = { label = "Send " .. p.name .. " home", on = function()
      table.remove(live.party, i)
      say(p.name .. " leaves the party.")
      save()
      go("tavern", true)
    end }
  end
  items[#items + 1] = { label = "Back", on = function() go("town") end }
  return "The tavern: who goes down? The first three stand in front.", items
end

function menus.inn()
  local cost = rest_cost()
  return "The inn", {
    { label = string.format("Rest the night (%d gold)", cost),
      off = (#live.party == 0 and "Nobody to rest.") or (live.gold < cost and "Not enough gold.") or nil,
      on = function()
        live.gold = live.gold - cost
        party_rules.rest(live.party)
        live.town.rests = live.town.rests + 1
        state.save_slot(live)
        save()
        say("Rested. The party is whole, and the game is saved.")
        go("inn", true)
      end },
    { label = "Save the game", on = function()
      state.save_slot(live)
      say("Saved: Continue on the title brings this back.")
    end },
    { label = "Back", on = function() go("town") end },
  }
end

local function receivers(it, on)
  local items = {}
  for _, p in ipairs(live.party) do
    local ok = party_rules.can_use(p.class, it)
    items[#items + 1] = {
      label = string.format("Give it to %s (%s)", p.name, it.kind == "weapon" and (p.weapon or "no weapon") or (p.armor or "no armor")),
      off = (not ok) and (p.name .. " cannot use a " .. it.id .. ".") or nil,
      on = function() on(p) end,
    }
  end
  items[#items + 1] = { label = "Back", on = function() go("shop") end }
  return items
end

function menus.shop()
  local items = {}
  for _, it in ipairs(t.item_list) do
    items[#items + 1] = {
      label = string.format("Buy %s (%d gold)", it.id, it.price),
      off = live.gold < it.price and "Not enough gold." or nil,
      on = function()
        if it.kind == "potion" then
          live.gold = live.gold - it.price
          state.give(live, it.id)
          live.town.bought = live.town.bought + 1
          say("Bought a " .. it.id .. " for the pack.")
          save()
          go("shop", true)
        else
          m:set(receivers(it, function(p)
            live.gold = live.gold - it.price
            local old = it.kind == "weapon" and p.weapon or p.armor
            if old then state.give(live, old) end
            if it.kind == "weapon" then p.weapon = it.id else p.armor = it.id end
            live.town.bought = live.town.bought + 1
            say(string.format("%s takes the %s%s.", p.name, it.id, old and (" (the " .. old .. " goes in the pack)") or ""))
            save()
            go("shop")
          end))
        end
      end,
    }
  end
  local ids = {}
  for id in pairs(live.pack) do ids[#ids + 1] = id end
  table.sort(ids)
  for _, id in ipairs(ids) do
    local n = live.pack[id]
    local it = t.items[id]
    if it then
      items[#items + 1] = { label = string.format("Sell a %s (%d gold, %d in the pack)", id, it.price // 2, n), on = function()
        state.take(live, id)
        live.gold = live.gold + it.price // 2
        say("Sold a " .. id .. ".")
        save()
        go("shop", true)
      end }
    end
  end
  items[#items + 1] = { label = "Back", on = function() go("town") end }
  return "The shop", items
end

function menus.temple()
  local items = {}
  for _, p in ipairs(live.party) do
    if p.status == "poisoned" or p.status == "asleep" then
      items[#items + 1] = { label = string.format("Cure %s (20 gold)", p.name),
        off = live.gold < 20 and "Not enough gold." or nil, on = function()
          live.gold = live.gold - 20
          p.status = "ok"
          say(p.name .. " is cured.")
          save()
          go("temple", true)
        end }
    elseif p.status == "dead" then
      local cost = 60 * p.level
      items[#items + 1] = { label = string.format("Raise %s (%d gold)", p.name, cost),
        off = live.gold < cost and "Not enough gold." or nil, on = function()
          live.gold = live.gold - cost
          p.status = "ok"
          p.hp = 1
          live.town.raised = live.town.raised + 1
          say(p.name .. " lives again.")
          save()
          go("temple", true)
        end }
    end
  end
  if #items == 0 then items[1] = { label = "Nobody needs the priests.", off = "Nobody needs the priests." } end
  items[#items + 1] = { label = "Back", on = function() go("town") end }
  return "The temple", items
end

go = function(where, keep)
  place = where
  local title, items = menus[where]()
  menu.text("menu_title", title)
  m:set(items, keep)
  local at = PICTURES[where] or PICTURES.town
  menu.put("picture", "sprite", { region = { at[1], at[2], 512, 288 }, __k = where }, "region")
  menu.text("place", NAMES[where] or NAMES.town)
end

function start(e)
  local problems
  t, problems = data.load(Data.table)
  live = state.load()
  if live == nil or #problems > 0 then
    Scene.load("title")
    return
  end
  Audio.music("town.wav", { loop = true, volume = 0.6, fade = 1.5 })
  if live.crawl ~= nil then
    say("Back in town, out of the stairs.")
  else
    say("The stairs wait below the town. Form a party at the tavern.")
  end
  go("town")
end

-- Gold as shown: it counts towards the purse rather than jumping.
local shown_gold = nil

function update(e, dt)
  if live == nil then return end
  shown_gold = strip.toward(shown_gold, live.gold, dt)
  menu.text("gold", string.format("%d gold", math.floor(shown_gold + 0.5)))
  menu.text("info", info)
  strip.draw(live.party, t.classes, nil, dt)
end

function key(e, name, down)
  if not down or live == nil then return end
  if name == "escape" then
    if place == "town" then save(); Scene.load("title") else go("town") end
    return
  end
  local why = m:key(name)
  if why then say(why) end
end

function pointer(e, phase, x, y)
  if live == nil then return end
  local why = m:pointer(phase, x, y)
  if why then say(why) end
end
