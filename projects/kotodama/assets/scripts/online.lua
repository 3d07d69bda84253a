-- Online: a battle against another player through a room server. The lobby connects (the
-- server's address from the settings), says hello, and offers a quick match, a room of your own
-- (its code to pass on) or joining one by its code; then the table plays the room's battle
-- (Kotoba.online: the package predicts your tiles and sends your moves). After the battle,
-- Enter asks for a rematch; the other player leaving, the server unreachable or speaking
-- another version are each said plainly, and every state leads back without a restart. A
-- connection lost in a match is made again, and the match's ticket takes the seat back (the
-- room holds it a while); the other player's drop is shown with how long their seat is held.
-- A server of a fleet may send the player to the process that holds their room: the scene
-- connects there and claims the reserved seat, saying no more than "Joining the room...". A
-- room's process that is gone for good reads as the other player leaving.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")
local play_input = import("flow/play_input.lua")
local record = import("flow/record.lua")
local word = import("flow/word.lua")
local banner = import("flow/banner.lua")

-- The room messages' version (jengine_kotoba::net::VERSION): 3 sends a player on to the room's
-- server with a redirect; 4 speaks the messages as their own bytes (the scene's online
-- component names the "kotoba" protocol).
local VERSION = 4
local DEFAULT_SERVER = "ws://127.0.0.1:7777/"
local AWAY = 100
local HAND = { 0, -3.65 }

local table_e, net
local lobby, side, input
-- connecting, lobby, typing, waiting, joining, match, over, left, unreachable, version, closed,
-- rejoining
local mode = "connecting"
-- The lobby's address (from the settings) and the seat a redirect reserved on another server.
local lobby_url
local reservation = ""
-- Whether the way back into a match went through the lobby: the room's server was gone.
local via_lobby = false
-- The match's ticket back into its seat, and the tries at getting back after a drop.
local ticket = ""
local REJOIN_TRIES = 8
local rejoin_tries = 0
local rejoin_wait = nil
local status = ""
local code = ""
local typed = ""
local url
local asked = false
local result
local shown = {}

local LOBBY = { "lobby_veil", "lobby_panel", "lobby_title", "lobby_status", "lobby_code",
  "lobby_quick", "lobby_quick_label", "lobby_create", "lobby_create_label", "lobby_join",
  "lobby_join_label", "lobby_back", "lobby_back_label", "lobby_server" }
local home = {}

-- The lobby's choices of a match show only while they can be made; Back always does.
local CHOICES = { lobby_quick = true, lobby_quick_label = true, lobby_create = true,
  lobby_create_label = true, lobby_join = true, lobby_join_label = true }

local function show_lobby(on)
  for _, name in ipairs(LOBBY) do
    local e = Entity.find(name)
    local t = Entity.get(e, "transform")
    if home[name] == nil then home[name] = { t.pos[1], t.pos[2] } end
    local at = home[name]
    local shown = on and (not CHOICES[name] or mode == "lobby")
    Entity.set(e, "transform", { pos = { at[1], shown and at[2] or at[2] + AWAY } })
  end
end

local function say(text) status = text end

local function connect()
  url = Save.get("server")
  if type(url) ~= "string" or url == "" then url = DEFAULT_SERVER end
  lobby_url = url
  mode = "connecting"
  say("Connecting to the server...")
  Online.connect(net, url)
end

local function back_to_lobby(why)
  ticket = ""
  Kotoba.online(table_e, -1)
  Kotoba.online(table_e, net)
  mode = "lobby"
  asked = false
  result = nil
  code = ""
  say(why or "Choose how to find another player.")
end

local function leave()
  if mode == "match" or mode == "over" or mode == "waiting" or mode == "joining" then
    Online.send(net, "Leave")
  end
  Online.close(net)
  Kotoba.online(table_e, -1)
  Scene.load("title")
end

local function name()
  local n = Save.get("name")
  if type(n) == "string" and n ~= "" then return n end
  return "player"
end

local REFUSED = {
  Name = "The server did not take that name.",
  NoSuchRoom = "No room has that code.",
  Full = "That room has its two players already.",
  Busy = "The server is full or closing; try again soon.",
  NotNow = "The server did not expect that now.",
  NoSuchMatch = "The match ended while you were away.",
  NoSuchSeat = "The seat in that room was no longer held for you.",
  LobbyDown = "The lobby cannot be reached just now (matches being played go on); try again soon.",
}

local function on_frame(f)
  if type(f) ~= "table" then return end
  if f.Redirect ~= nil then
    local to = f.Redirect
    url = to.address
    if mode == "rejoining" then
      -- The match is played on another server: take the seat back there.
      via_lobby = false
      rejoin_wait = 0
    else
      -- The room is on another server of the fleet: go there and claim the seat.
      mode = "joining"
      reservation = to.reservation
      say("Joining the room...")
      Online.connect(net, url)
    end
  elseif f.Waiting ~= nil then
    local joining = mode == "joining"
    mode = "waiting"
    code = f.Waiting.code or ""
    if joining and code == "" then
      say("Joining the room...")
    elseif code ~= "" then
      say("Your room is open. Pass on its code; Esc closes it.")
    else
      say("Waiting for another player... Esc stops waiting.")
    end
  elseif f.Refused ~= nil then
    local why = f.Refused.why
    if type(why) == "table" and why.Version ~= nil then
      mode = "version"
      say(string.format("The server speaks version %s of the game and this one %d: update the game to play online.", tostring(why.Version.server), VERSION))
    elseif why == "NoSuchMatch" and mode == "rejoining" and via_lobby then
      -- The room's server is gone, and the match with it: as if the other player had left.
      mode = "left"
      ticket = ""
      via_lobby = false
      Kotoba.online(table_e, -1)
      Kotoba.online(table_e, net)
      say("The other player left the room. Enter to find another match.")
    else
      back_to_lobby(REFUSED[why] or "The server refused.")
    end
  elseif f.Start ~= nil then
    -- Back in after a drop, the music plays on.
    if mode ~= "rejoining" then sound.music("battle.wav") end
    mode = "match"
    asked = false
    result = nil
    shown = {}
    ticket = f.Start.ticket or ""
  elseif f.Left ~= nil and (mode == "match" or mode == "over") then
    mode = "left"
    say("The other player left the room: the win is yours. Enter to find another match.")
  end
end

function start(e)
  sound.music("title.wav")
  table_e = e
  net = Entity.find("net")
  lobby = menu.new({
    { button = "lobby_quick", label = "lobby_quick_label", on = function()
      Online.send(net, "Queue")
    end },
    { button = "lobby_create", label = "lobby_create_label", on = function()
      Online.send(net, "Create")
    end },
    { button = "lobby_join", label = "lobby_join_label", on = function()
      mode = "typing"
      typed = ""
      say("Type the room's code, then Enter.")
    end },
    { button = "lobby_back", label = "lobby_back_label", on = leave },
  }, { back = leave })
  side = menu.new({
    { button = "swap", on = function() Kotoba.swap(e) end },
    { button = "menu", on = leave },
  }, { focus = 0 })
  local no_pause = { is_open = false, pointer = function() end, key = function() end,
    open = function() end, close = function() end, update = function() end }
  input = play_input.new({
    e = e,
    side = side,
    pause = no_pause,
    hint = false,
    restart = function() end,
    open_pause = leave,
    results = function() end,
    ended = function() return nil end,
  })
  Kotoba.online(e, net)
  connect()
end

local function fighter_text(f)
  local lines = { "score " .. f.score .. "   words " .. f.words }
  if f.combo > 0 then lines[#lines + 1] = string.format("combo %d  ×%.2f", f.combo, f.multiplier) end
  if f.stun > 0 then lines[#lines + 1] = "stunned" end
  return table.concat(lines, "\n")
end

local function place(name, at)
  Entity.set(Entity.find(name), "transform", { pos = at })
end

local function draw_battle(bag)
  if bag == nil or bag.fighters == nil or bag.seat == nil then return end
  local you = bag.fighters[bag.seat]
  local rival = bag.fighters[3 - bag.seat]
  Text.set(Entity.find("you_name"), you.name)
  Text.set(Entity.find("rival_name"), rival.name)
  Text.set(Entity.find("you_life"), "life " .. you.hp .. " / " .. you.max_hp)
  Text.set(Entity.find("rival_life"), "life " .. rival.hp .. " / " .. rival.max_hp)
  Text.set(Entity.find("you_text"), fighter_text(you))
  Text.set(Entity.find("rival_text"), fighter_text(rival))
  for name, f in pairs({ you_hp = you, rival_hp = rival }) do
    local share = f.max_hp > 0 and f.hp / f.max_hp or 0
    local base = Entity.get(Entity.find(name .. "_back"), "transform")
    Entity.set(Entity.find(name), "sprite", { size = { 3.0 * share, 0.28 } })
    Entity.set(Entity.find(name), "transform", { pos = { base.pos[1] - 1.5 * (1 - share), base.pos[2] } })
  end
  Text.set(Entity.find("clock"), string.format("%d", math.ceil(bag.time_left or 0)))
  Text.set(Entity.find("board_name"), bag.board and ("on " .. bag.board) or "")
  word.show("word", bag, bag.seat)
  if you.stun > 0 and mode == "match" then
    place("stun_veil", HAND)
    place("stun", HAND)
    Text.set(Entity.find("stun"), string.format("stunned  %.1fs", you.stun))
  else
    place("stun_veil", { HAND[1], HAND[2] + AWAY })
    place("stun", { HAND[1], HAND[2] + AWAY })
  end
end

function update(e, dt)
  if table_e == nil then return end
  local ob = Entity.get(net, "Online")
  if ob ~= nil then
    for _, ev in ipairs(ob.events) do
      if ev.event == "connected" and mode == "joining" then
        Online.send(net, { Hello = { version = VERSION, name = name() } })
        Online.send(net, { Claim = { reservation = reservation } })
      elseif ev.event == "connected" and mode == "rejoining" then
        Online.send(net, { Hello = { version = VERSION, name = name() } })
        Online.send(net, { Rejoin = { ticket = ticket } })
        say("Connected again: taking your seat back...")
      elseif ev.event == "connected" then
        Online.send(net, { Hello = { version = VERSION, name = name() } })
        mode = "lobby"
        say("Connected. Choose how to find another player.")
      elseif ev.event == "closed" and (mode == "match" or mode == "rejoining") and ticket ~= "" then
        -- Lost in a match: connect again (a moment first) and take the seat back.
        if mode == "match" then rejoin_tries = 0 end
        mode = "rejoining"
        if rejoin_tries >= REJOIN_TRIES then
          mode = "closed"
          ticket = ""
          say("The connection was lost and could not be made again: " .. tostring(ev.why) .. ". Enter connects again.")
          Kotoba.online(table_e, -1)
        else
          rejoin_wait = rejoin_tries == 0 and 0.3 or 2
          -- The room's server (another than the lobby) did not answer again: ask the lobby,
          -- which knows whether that server is still in the fleet.
          if rejoin_tries > 0 and url ~= lobby_url then
            url = lobby_url
            via_lobby = true
          end
          say("The connection was lost (" .. tostring(ev.why) .. "). Getting back into the match...")
        end
      elseif ev.event == "closed" and mode ~= "version" then
        if mode == "connecting" then
          mode = "unreachable"
          say("The server at " .. tostring(url) .. " cannot be reached (" .. tostring(ev.why) .. "). Enter tries again; the address is in the settings.")
        else
          mode = "closed"
          say("The connection closed: " .. tostring(ev.why) .. ". Enter connects again.")
        end
        Kotoba.online(table_e, -1)
      end
    end
    for _, f in ipairs(ob.frames) do on_frame(f) end
  end
  if mode == "rejoining" and rejoin_wait ~= nil then
    rejoin_wait = rejoin_wait - dt
    if rejoin_wait <= 0 then
      rejoin_wait = nil
      rejoin_tries = rejoin_tries + 1
      Online.connect(net, url)
    end
  end
  local bag = Entity.get(e, "kotoba")
  if bag ~= nil and bag.online and bag.active then
    sound.events(bag)
    draw_battle(bag)
    if mode == "match" and bag.phase == "over" then
      mode = "over"
      local winner = bag.winner
      result = winner == -1 and "draw" or (winner == bag.seat and "you win" or "you lose")
    end
    if bag.again ~= nil and mode == "over" and bag.again[3 - bag.seat] and not asked then
      say("The other player asks for a rematch: Enter accepts.")
    end
  end
  local text, why, where = "", "", "end"
  if mode == "over" then
    text = result or ""
    why = asked and "rematch asked: waiting for the other player" or "Enter: rematch   Esc: leave"
  elseif mode == "match" and bag ~= nil and bag.phase == "countdown" and (bag.countdown or 0) > 0 then
    text, where = tostring(bag.countdown), "count"
  elseif mode == "match" and bag ~= nil and bag.away ~= nil and bag.seat ~= nil then
    local other = bag.fighters[3 - bag.seat]
    why = string.format("%s's connection dropped: their seat is held %d s", other.name, math.ceil(bag.away))
  end
  banner.show(text, why, where)
  local in_lobby = mode ~= "match" and mode ~= "over"
  show_lobby(in_lobby)
  Text.set(Entity.find("lobby_status"), status)
  Text.set(Entity.find("lobby_code"), mode == "typing" and ("code: " .. typed .. "_") or (code ~= "" and ("room " .. code) or ""))
  Text.set(Entity.find("lobby_server"), "server " .. tostring(url))
  lobby:update(dt)
  side:update(dt)
end

function text(e, t)
  if mode ~= "typing" then return end
  typed = (typed .. t:upper():gsub("[^A-Z0-9]", "")):sub(1, 8)
end

function key(e, name, down)
  if table_e == nil then return end
  if mode == "match" then
    input:key(name, down)
    return
  end
  if not down then return end
  if mode == "typing" then
    if name == "enter" and typed ~= "" then
      Online.send(net, { Join = { code = typed } })
      mode = "lobby"
      say("Joining room " .. typed .. "...")
    elseif name == "backspace" then
      typed = typed:sub(1, -2)
    elseif name == "escape" then
      mode = "lobby"
      say("Choose how to find another player.")
    end
    return
  end
  if mode == "over" then
    if name == "enter" or name == "space" then
      if not asked then Online.send(net, "Again") end
      asked = true
    elseif name == "escape" then
      Online.send(net, "Leave")
      back_to_lobby()
    end
    return
  end
  if mode == "waiting" or mode == "joining" then
    if name == "escape" then
      Online.send(net, "Leave")
      back_to_lobby("Stopped waiting.")
    end
    return
  end
  if mode == "left" then
    if name == "enter" or name == "space" then back_to_lobby() elseif name == "escape" then leave() end
    return
  end
  if mode == "unreachable" or mode == "closed" then
    if name == "enter" or name == "space" then
      Kotoba.online(table_e, net)
      connect()
    elseif name == "escape" then
      leave()
    end
    return
  end
  if mode == "version" or mode == "connecting" or mode == "rejoining" then
    if name == "escape" then leave() end
    if name == "enter" and mode ~= "rejoining" then leave() end
    return
  end
  lobby:key(name, down)
end

function pointer(e, phase, x, y)
  if table_e == nil then return end
  if mode == "match" then
    input:pointer(phase, x, y)
  elseif mode ~= "over" then
    -- Only the choices on show can be hit: the others stand off the screen.
    lobby:pointer(phase, x, y)
  end
end
