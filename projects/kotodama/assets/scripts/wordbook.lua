-- The word book: every word the player has made (the save's "wordbook"), ten to a page in
-- kana order, with its written form, meaning and how often it was made. The save is read as
-- untrusted: entries that are not words are left out, and long fields are cut to fit a row.

local menu = import("ui/menu.lua")
local sound = import("flow/sound.lua")

local PER_PAGE = 10
local EMPTY = "Your word book is empty.\n\n"
  .. "Every word you make in a puzzle or a battle is written here,\n"
  .. "with its reading and its meaning."

-- Longest field shown, in characters; a longer one is cut with an ellipsis.
local CUT = { reading = 10, written = 9, meaning = 46 }

local IVORY = { 0.957, 0.918, 0.847, 1 }
local GOLD = { 0.941, 0.788, 0.416, 1 }

-- Menu items: back, then the page buttons when there is more than one page.
local PREV, NEXT = 2, 3
local HIDDEN = { 0, 0, 0, 0 }

local words = {}
local page = 1
local paged = false
local m
local lit = nil
local dictionary = nil

-- `s` cut to `n` characters; bytes that are not UTF-8 make it unreadable, so it is dropped.
local function cut(s, n)
  local len = utf8.len(s)
  if len == nil then return nil end
  if len <= n then return s end
  return string.sub(s, 1, utf8.offset(s, n) - 1) .. "…"
end

local function field(v, n)
  if type(v) == "number" then v = tostring(v) end
  if type(v) ~= "string" then return nil end
  return cut(v, n)
end

-- The saved book as a list sorted by reading (UTF-8 byte order is kana order).
local function read_book()
  local book = Save.get("wordbook")
  local list = {}
  if type(book) ~= "table" then return list end
  for reading, entry in pairs(book) do
    local r = type(reading) == "string" and field(reading, CUT.reading) or nil
    if r ~= nil and r ~= "" and type(entry) == "table" then
      local count = entry.count
      if type(count) ~= "number" or count ~= count or count < 1 then count = 1 end
      list[#list + 1] = {
        key = reading,
        reading = r,
        written = field(entry.written, CUT.written) or r,
        meaning = field(entry.meaning, CUT.meaning) or "",
        count = math.floor(math.min(count, 999999)),
      }
    end
  end
  table.sort(list, function(a, b) return a.key < b.key end)
  return list
end

local function pages()
  return math.max(1, (#words + PER_PAGE - 1) // PER_PAGE)
end

local function show_found()
  local found = Entity.find("found")
  if dictionary ~= nil then
    Text.set(found, string.format("found %d of %d words", #words, dictionary))
  else
    Text.set(found, string.format("found %d words", #words))
  end
end

local function show_page()
  local empty = #words == 0
  for i = 1, PER_PAGE do
    local w = words[(page - 1) * PER_PAGE + i]
    local row = "row" .. i .. "_"
    Text.set(Entity.find(row .. "reading"), w and w.reading or "")
    Text.set(Entity.find(row .. "written"), w and w.written or "")
    Text.set(Entity.find(row .. "meaning"), w and w.meaning or "")
    Text.set(Entity.find(row .. "count"), w and ("×" .. w.count) or "")
  end
  Text.set(Entity.find("empty"), empty and EMPTY or "")
  if paged then
    Text.set(Entity.find("page"), string.format("%d / %d", page, pages()))
    m:enable(PREV, page > 1)
    m:enable(NEXT, page < pages())
  end
end

-- An empty book shows only its message: no columns, no lines, no rows.
local function clear_sheet()
  for _, name in ipairs({ "head_reading", "head_written", "head_meaning", "head_count" }) do
    Text.set(Entity.find(name), "")
  end
  for _, name in ipairs({ "rule", "stripe1", "stripe3", "stripe5", "stripe7", "stripe9" }) do
    Entity.set(Entity.find(name), "sprite", { tint = HIDDEN })
  end
end

-- One page needs no page turning: its buttons and their hint go.
local function hide_paging()
  for _, name in ipairs({ "prev", "next" }) do
    Entity.set(Entity.find(name), "sprite", { tint = HIDDEN })
    Text.set(Entity.find(name .. "_label"), "")
  end
  Text.set(Entity.find("keys"), "")
end

local function turn(by)
  local to = math.max(1, math.min(pages(), page + by))
  if to ~= page then
    page = to
    show_page()
  end
end

function start(e)
  sound.music("title.wav")
  words = read_book()
  paged = pages() > 1
  local back = function() Scene.load("title") end
  local items = { { button = "back", label = "back_label", on = back } }
  if paged then
    items[PREV] = { button = "prev", label = "prev_label", on = function() turn(-1) end }
    items[NEXT] = { button = "next", label = "next_label", on = function() turn(1) end }
  end
  m = menu.new(items, { back = back, columns = #items, focus = paged and NEXT or 1 })
  if #words == 0 then clear_sheet() end
  if not paged then hide_paging() end
  show_page()
  show_found()
end

local function light_label()
  if lit == m.focus then return end
  for i, item in ipairs(m.items) do
    if item.label ~= nil and (i == m.focus or i == lit) then
      Entity.set(item.label, "text", { color = i == m.focus and GOLD or IVORY })
    end
  end
  lit = m.focus
end

function update(e, dt)
  -- The dictionary's size comes from the table's bag, published after the first frame.
  if dictionary == nil then
    local bag = Kotoba ~= nil and Entity.get(e, "kotoba") or nil
    if bag ~= nil and bag.words ~= nil then
      dictionary = bag.words
      show_found()
    end
  end
  m:update(dt)
  light_label()
end

function pointer(e, phase, x, y) m:pointer(phase, x, y) end

local turns = { left = -1, pageup = -1, right = 1, pagedown = 1 }

-- The arrows and page keys turn pages, and the focus follows to the button that turns that
-- way (or the other one, at the end of the book), so Enter goes on turning.
function key(e, name, down)
  if down and paged and turns[name] ~= nil then
    turn(turns[name])
    local ahead, behind = NEXT, PREV
    if turns[name] < 0 then ahead, behind = PREV, NEXT end
    m.focus = m.items[ahead].enabled and ahead or behind
    return
  end
  m:key(name, down)
end
