-- The results of the game just played (the save's "last_result"): for a puzzle the score,
-- the time bonus and the stars earned; for a battle who won and why. Beside it, every word
-- made this round with its written form, reading and meaning, repeats counted, so the round
-- ends with the words it taught. Next, Retry, or Back to the stages or rivals.
-- The saved result is read as untrusted: a missing or odd field shows as nothing.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")
local focus = import("flow/focus.lua")

local ROWS = 12
local AWAY = 100
local HIDDEN = { lesson = true }
local CUT = { written = 7, reading = 9, meaning = 34 }
local STAR_ON = { 0.941, 0.788, 0.416, 1 }
local STAR_OFF = { 0.44, 0.49, 0.68, 0.9 }

local result = nil
local m, f

-- A whole number from the save, kept to what a screen can show.
local function num(v)
  if type(v) ~= "number" or v ~= v then return 0 end
  return math.tointeger(math.floor(math.max(-999999, math.min(v, 999999))))
end

-- A string from the save; anything else shows as nothing.
local function str(v)
  if type(v) == "string" then return v end
  return ""
end

-- `s` cut to `n` characters with an ellipsis; text that is not UTF-8 is dropped.
local function cut(s, n)
  s = str(s)
  local len = utf8.len(s)
  if len == nil then return "" end
  if len <= n then return s end
  return string.sub(s, 1, utf8.offset(s, n) - 1) .. "…"
end

-- A meaning short enough for its column: whole senses while they fit, else the first cut.
local function meaning(s)
  s = str(s)
  local out = ""
  for sense in string.gmatch(s, "[^;]+") do
    sense = sense:gsub("^%s+", "")
    local joined = out == "" and sense or (out .. "; " .. sense)
    if (utf8.len(joined) or 999) > CUT.meaning then break end
    out = joined
  end
  if out == "" then out = cut(s, CUT.meaning) end
  return out
end

-- The round's words with repeats folded together, in the order first made.
local function fold(words)
  local rows, at = {}, {}
  if type(words) ~= "table" then return rows, 0 end
  local total = 0
  for _, w in ipairs(words) do
    if type(w) == "table" and type(w.reading) == "string" then
      total = total + 1
      local row = at[w.reading]
      if row == nil then
        row = { reading = w.reading, written = str(w.written), meaning = str(w.meaning), points = 0, count = 0 }
        at[w.reading] = row
        rows[#rows + 1] = row
      end
      row.count = row.count + 1
      row.points = row.points + num(w.points)
    end
  end
  return rows, total
end

local function hide(name)
  local e = Entity.find(name)
  local t = Entity.get(e, "transform")
  Entity.set(e, "transform", { pos = { t.pos[1], t.pos[2] + AWAY } })
end

local function show_words()
  local rows, total = fold(result and result.words)
  if total == 0 then
    Text.set(Entity.find("words_count"), "")
    Text.set(Entity.find("words_empty"), "No words this time.\nEvery word you make is shown here with its meaning.")
  else
    Text.set(Entity.find("words_count"), string.format("%d %s", total, total == 1 and "word" or "words"))
  end
  for j = 1, ROWS do
    local r = rows[j]
    local n = "row" .. j
    if j == ROWS and #rows > ROWS then
      Text.set(Entity.find(n .. "_written"), "")
      Text.set(Entity.find(n .. "_reading"), "")
      Text.set(Entity.find(n .. "_meaning"), string.format("and %d more: see them all in the word book", #rows - ROWS + 1))
      Text.set(Entity.find(n .. "_points"), "")
    elseif r ~= nil then
      local written = r.written ~= "" and r.written or r.reading
      Text.set(Entity.find(n .. "_written"), cut(written, CUT.written))
      local reading = cut(r.reading, CUT.reading)
      if r.count > 1 then reading = reading .. "  ×" .. r.count end
      Text.set(Entity.find(n .. "_reading"), reading)
      Text.set(Entity.find(n .. "_meaning"), meaning(r.meaning))
      Text.set(Entity.find(n .. "_points"), tostring(r.points))
    end
  end
end

local function show_puzzle()
  hide("portrait")
  Text.set(Entity.find("name"), str(result.name))
  Text.set(Entity.find("subtitle"), str(result.title))
  local cleared = result.outcome == "cleared"
  Text.set(Entity.find("outcome"), cleared and "cleared!" or "not cleared")
  Entity.set(Entity.find("outcome"), "text", { color = cleared and focus.GOLD or focus.CORAL })
  Text.set(Entity.find("why"), cleared and "every tile placed" or str(result.why))
  local stars = num(result.stars)
  for k = 1, 3 do
    Entity.set(Entity.find("star" .. k), "sprite", { tint = k <= stars and STAR_ON or STAR_OFF })
  end
  local score, bonus = num(result.score), num(result.bonus)
  local both = math.min(num(result.both_ways), score)
  -- The words' own points, the both-ways halves on top, then the clock's: each line is what
  -- the list beside it and the rules add up to.
  Text.set(Entity.find("lines_left"), "words\nboth ways\ntime bonus\ntotal")
  Text.set(Entity.find("lines_right"), string.format("%d\n+%d\n+%d\n%d", score - both, both, bonus, score + bonus))
  if cleared and result.new_best == true then
    Text.set(Entity.find("note"), "a new best!")
  elseif cleared then
    Text.set(Entity.find("note"), "best " .. num(result.best))
  end
end

local function show_battle(bag)
  for k = 1, 3 do hide("star" .. k) end
  local id = str(result.id)
  if id:match("^[%w_]+$") then
    Entity.set(Entity.find("portrait"), "sprite", { texture = "portrait_" .. id .. ".png" })
    Entity.set(Entity.find("portrait"), "transform", { pos = { -5.05, 0.35 } })
    Entity.set(Entity.find("portrait"), "sprite", { size = { 1.5, 1.5 } })
  end
  Text.set(Entity.find("name"), str(result.name))
  local line = "battle"
  for _, r in ipairs(bag.rivals) do
    if r.id == result.id then line = r.title end
  end
  Text.set(Entity.find("subtitle"), line)
  for _, name in ipairs({ "lines_left", "lines_right" }) do
    local t = Entity.get(Entity.find(name), "transform")
    Entity.set(Entity.find(name), "transform", { pos = { t.pos[1], -1.3 } })
  end
  local words = { win = "you win", lose = "you lose", draw = "a draw" }
  local colours = { win = focus.GOLD, lose = focus.CORAL, draw = focus.IVORY }
  Text.set(Entity.find("outcome"), words[result.outcome] or "")
  Entity.set(Entity.find("outcome"), "text", { color = colours[result.outcome] or focus.IVORY })
  Text.set(Entity.find("why"), str(result.why))
  local score = num(result.score)
  local both = math.min(num(result.both_ways), score)
  -- The score is the listed words' points, with the both-ways halves named when there are any.
  local yours = both > 0 and string.format("%d (%d + %d both ways)", score, score - both, both) or tostring(score)
  Text.set(Entity.find("lines_left"), "your life\nits life\nyour score\nits score")
  Text.set(Entity.find("lines_right"), string.format("%d / %d\n%d / %d\n%s\n%d",
    num(result.hp), num(result.max_hp), num(result.rival_hp), num(result.rival_max_hp),
    yours, num(result.rival_score)))
  if result.outcome == "win" then Text.set(Entity.find("note"), "beaten: its seal is yours") end
end

-- The stage or rival after this one, and whether it may be played yet.
local function next_of(bag)
  if result.mode == "battle" then
    for i, r in ipairs(bag.rivals) do
      if r.id == result.id then return bag.rivals[i + 1], true end
    end
    return nil, false
  end
  local list = {}
  for _, s in ipairs(bag.stages) do
    if not HIDDEN[s.id] then list[#list + 1] = s end
  end
  local saved = Save.get("stages")
  local cleared = type(saved) == "table" and type(saved[result.id]) == "table"
  for i, s in ipairs(list) do
    if s.id == result.id then return list[i + 1], cleared end
  end
  return nil, false
end

local function build(bag)
  local saved = Save.get("last_result")
  if type(saved) == "table" and (saved.mode == "puzzle" or saved.mode == "battle") then result = saved end
  local battle = result ~= nil and result.mode == "battle"
  local back_scene = battle and "rivals" or "stages"
  local play_scene = battle and "battle" or "puzzle"
  local key = battle and "rival" or "stage"
  Text.set(Entity.find("back_label"), battle and "Rivals" or "Stages")
  Text.set(Entity.find("next_label"), battle and "Next rival" or "Next stage")
  local following, open = nil, false
  if result == nil then
    Text.set(Entity.find("name"), "no result yet")
    hide("portrait")
  else
    if battle then show_battle(bag) else show_puzzle() end
    show_words()
    following, open = next_of(bag)
  end
  local can_next = following ~= nil and open
  local can_retry = result ~= nil and type(result.id) == "string"
  local items = {
    { button = "next", label = "next_label", enabled = can_next, on = function()
      Save.set(key, following.id)
      Scene.load(play_scene)
    end },
    { button = "retry", label = "retry_label", enabled = can_retry, on = function()
      Save.set(key, result.id)
      Scene.load(play_scene)
    end },
    { button = "back", label = "back_label", on = function() Scene.load(back_scene) end },
  }
  local won = result ~= nil and (result.outcome == "cleared" or result.outcome == "win")
  local start = 3
  if can_next and won then start = 1 elseif can_retry then start = 2 end
  m = menu.new(items, { columns = 3, back = function() Scene.load(back_scene) end, focus = start })
  f = focus.new(m, "focus", {
    pad = 0.14,
    rest = function(i) return m.items[i].enabled and focus.IVORY or focus.DIM end,
  })
  f:refresh()
end

function update(e, dt)
  if m == nil then
    local bag = Entity.get(e, "kotoba")
    if bag == nil then return end
    build(bag)
  end
  m:update(dt)
  f:update()
end

function pointer(e, phase, x, y)
  if m ~= nil then m:pointer(phase, x, y) end
end

function key(e, name, down)
  if m ~= nil then m:key(name, down) end
end

function start(e)
  sound.music("results.wav")
end
