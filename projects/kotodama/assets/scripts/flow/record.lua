-- What a finished game leaves in the save: the stage's stars and best score, the rivals
-- beaten, every word the player made added to the word book (repeats counted), and
-- "last_result", which the results scene shows. Written the frame the game ends, so leaving
-- before the results appear loses nothing.

local R = {}

-- The player's words this game, in the order made: { reading, written, meaning, points }.
function R.words(made, player)
  local out = {}
  for _, w in ipairs(made or {}) do
    if w.player == player then
      out[#out + 1] = { reading = w.reading, written = w.written, meaning = w.meaning, points = w.points }
    end
  end
  return out
end

-- Adds each word to the save's word book, one more each time it was made.
function R.wordbook(words)
  local book = Save.get("wordbook")
  if type(book) ~= "table" then book = {} end
  for _, w in ipairs(words) do
    local entry = book[w.reading]
    if type(entry) ~= "table" then entry = {} end
    local count = tonumber(entry.count) or 0
    book[w.reading] = { written = w.written, meaning = w.meaning, count = math.floor(count) + 1 }
  end
  Save.set("wordbook", book)
end

-- A puzzle ended (`ev` is its `cleared` or `failed` event); returns what it saved as the result.
function R.puzzle(bag, ev)
  local words = R.words(bag.made, 1)
  local cleared = ev.kind == "cleared"
  local score = bag.score or 0
  local bonus = cleared and (ev.bonus or bag.bonus or 0) or 0
  local stars = cleared and (bag.stars or 0) or 0
  local total = score + bonus
  local best_before = nil
  if cleared then
    local stages = Save.get("stages")
    if type(stages) ~= "table" then stages = {} end
    local old = stages[bag.stage]
    if type(old) ~= "table" then old = nil end
    best_before = old and tonumber(old.best) or nil
    stages[bag.stage] = {
      stars = math.max(stars, old and tonumber(old.stars) or 0),
      best = math.max(total, best_before or 0),
    }
    Save.set("stages", stages)
  end
  R.wordbook(words)
  local why = ""
  if not cleared then
    why = ev.why == "stuck" and "no cell was left where a tile could go" or "time ran out"
  end
  local result = {
    mode = "puzzle",
    id = bag.stage,
    name = bag.stage_name,
    title = bag.stage_title,
    outcome = cleared and "cleared" or "failed",
    why = why,
    score = score,
    both_ways = bag.both_ways or 0,
    bonus = bonus,
    stars = stars,
    star_scores = bag.star_scores,
    best = cleared and math.max(total, best_before or 0) or nil,
    new_best = cleared and (best_before == nil or total > best_before),
    words = words,
  }
  Save.set("last_result", result)
  return result
end

local WHY = {
  ko = { win = "by knockout", lose = "knocked out", draw = "both knocked out" },
  time = {
    win = "time ran out with you ahead on life",
    lose = "time ran out with your rival ahead on life",
    draw = "time ran out with life even",
  },
  full = {
    win = "the board filled up with you ahead on life",
    lose = "the board filled up with your rival ahead on life",
    draw = "the board filled up with life even",
  },
}

-- A battle ended (`ev` is its `over` event); returns what it saved as the result.
function R.battle(bag, ev)
  local you = bag.you or 1
  -- The bag lists the player's fighter first.
  local me, them = bag.fighters[1], bag.fighters[2]
  local words = R.words(bag.made, you)
  local outcome = "draw"
  if ev.winner == you then outcome = "win" elseif ev.winner ~= -1 then outcome = "lose" end
  if outcome == "win" then
    local beaten = Save.get("rivals_beaten")
    if type(beaten) ~= "table" then beaten = {} end
    beaten[bag.rival] = true
    Save.set("rivals_beaten", beaten)
  end
  R.wordbook(words)
  local why = (WHY[ev.why] or WHY.time)[outcome]
  local result = {
    mode = "battle",
    id = bag.rival,
    name = them.name,
    outcome = outcome,
    why = why,
    score = me.score,
    both_ways = bag.both_ways or 0,
    bonus = 0,
    stars = 0,
    hp = me.hp,
    max_hp = me.max_hp,
    rival_hp = them.hp,
    rival_max_hp = them.max_hp,
    rival_score = them.score,
    words = words,
  }
  Save.set("last_result", result)
  return result
end

-- The id the save names when the table has it; else the table's first (a save from an older
-- game, or edited by hand, must not leave an empty table).
function R.pick(id, table_name, fallback)
  local ok, rows = pcall(Data.table, table_name)
  if not ok or type(rows) ~= "table" or #rows == 0 then
    return type(id) == "string" and id or fallback
  end
  for _, row in ipairs(rows) do
    if row.id == id then return id end
  end
  return rows[1].id
end

return R
