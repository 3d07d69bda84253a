-- The shared menu's behaviour, run in the real sandbox by menu_tests.rs. The world holds six
-- buttons `b1`..`b6` (0.8 wide, at x = 1..6, y = 0) with labels `b1_label`.., and three list
-- rows `row_1`..`row_3` (2 wide, at x = 10, y = -1, -2, -3) with texts `text_1`...

local menu = import("jengine/menu.lua")
local T = {}

local function eq(got, want, what)
  if got ~= want then
    error(string.format("%s: got %s, want %s", what, tostring(got), tostring(want)), 2)
  end
end

-- `n` buttons, each choosing by adding its index to `chosen`.
local function buttons(n, options, chosen)
  local items = {}
  for i = 1, n do
    items[i] = { button = "b" .. i, label = "b" .. i .. "_label", on = function() chosen[#chosen + 1] = i end }
  end
  return menu.new(items, options)
end

local function press(m, k) return m:key(k, true) end

function T.a_list_stops_at_its_ends_unless_it_wraps()
  local m = buttons(3, {}, {})
  press(m, "up")
  eq(m.focus, 1, "up from the first stays")
  press(m, "down"); press(m, "down"); press(m, "down")
  eq(m.focus, 3, "down past the last stays")
  local w = buttons(3, { wrap = true }, {})
  press(w, "up")
  eq(w.focus, 3, "up from the first comes round to the last")
  press(w, "down")
  eq(w.focus, 1, "down from the last comes round to the first")
end

function T.columns_move_by_a_row_up_and_down_and_by_one_left_and_right()
  local m = buttons(6, { columns = 3 }, {})
  press(m, "down")
  eq(m.focus, 4, "down a row")
  press(m, "right")
  eq(m.focus, 5, "right one")
  press(m, "down")
  eq(m.focus, 5, "no row below")
  press(m, "up"); press(m, "left")
  eq(m.focus, 1, "up a row, left one")
  local list = buttons(3, {}, {})
  eq(press(list, "right"), false, "a single column does not take left or right")
  eq(list.focus, 1, "and its focus stays")
end

function T.keys_choose_go_back_and_can_be_the_games_own()
  local chosen, backs = {}, 0
  local m = buttons(2, { back = function() backs = backs + 1 end }, chosen)
  eq(press(m, "enter"), true, "enter chooses")
  press(m, "down"); press(m, "space")
  eq(table.concat(chosen, ","), "1,2", "enter and space choose the focus")
  press(m, "escape"); press(m, "backspace")
  eq(backs, 2, "escape and backspace go back")
  eq(m:key("enter", false), false, "a key going up does nothing")
  eq(#chosen, 2, "nothing more was chosen")
  local w = buttons(3, { keys = menu.keys({ w = "up", s = "down", backspace = false }) }, {})
  w:key("s", true)
  eq(w.focus, 2, "s moves down")
  eq(w:key("backspace", true), false, "a key taken away is not the menu's")
end

function T.hover_focuses_and_a_press_and_release_on_one_item_chooses_it()
  local chosen = {}
  local m = buttons(3, {}, chosen)
  eq(m:pointer("hover", 2.1, 0.2), 2, "the pointer is over the second")
  eq(m.focus, 2, "hover focuses")
  m:pointer("press", 2, 0)
  eq(m.pressed, 2, "the press is kept")
  m:pointer("release", 2.3, -0.3)
  eq(table.concat(chosen, ","), "2", "released on the same item: chosen")
  eq(m:pointer("hover", 1.5, 0), nil, "between the buttons is nothing")
  eq(m.hover, nil, "nothing is hovered")
  eq(m.focus, 2, "the focus stays where the pointer left it")
end

function T.a_press_released_on_another_item_or_nowhere_chooses_nothing()
  local chosen = {}
  local m = buttons(3, {}, chosen)
  m:pointer("press", 1, 0)
  m:pointer("drag", 2, 0)
  m:pointer("release", 2, 0)
  eq(#chosen, 0, "pressed on one, released on another")
  m:pointer("press", 3, 0)
  m:pointer("release", 3, 5)
  eq(#chosen, 0, "pressed on one, released on nothing")
  m:pointer("release", 3, 0)
  eq(#chosen, 0, "a release with no press")
end

function T.an_off_item_is_refused_and_says_why()
  local said, chosen = {}, {}
  local m = menu.new({
    { button = "b1", on = function() chosen[#chosen + 1] = 1 end },
    { button = "b2", off = "No crawl has been saved yet.", on = function() chosen[#chosen + 1] = 2 end },
    { button = "b3", enabled = false, on = function() chosen[#chosen + 1] = 3 end },
  }, { say = function(why) said[#said + 1] = why end })
  press(m, "down")
  local took, why = press(m, "enter")
  eq(took, false, "the off item is not chosen")
  eq(why, "No crawl has been saved yet.", "its reason is returned")
  eq(said[1], "No crawl has been saved yet.", "and said")
  m:pointer("press", 3, 0)
  local _, none = m:pointer("release", 3, 0)
  eq(none, nil, "an item off without a reason says nothing")
  eq(#chosen, 0, "neither off item ran")
  eq(#said, 1, "nothing more was said")
  m:enable(3, true)
  m:choose(3)
  eq(chosen[1], 3, "turned on, it is chosen")
  m:enable(1, false, "Not now")
  local _, later = m:choose(1)
  eq(later, "Not now", "turned off with a reason")
end

-- A list on the three rows, every look it is given recorded by row.
local function list(n, options)
  local looks = {}
  local items = {}
  for i = 1, n do items[i] = { text = "item " .. i } end
  options = options or {}
  options.rows = { count = 3, row = "row_%d", label = "text_%d" }
  options.look = function(s) return { text = s.item and s.item.text or "", focus = s.focus } end
  options.apply = function(item, fields, row) looks[row] = fields end
  return menu.new(items, options), looks
end

function T.a_long_list_scrolls_to_keep_the_focus_on_screen()
  local m, looks = list(5)
  m:update()
  eq(looks[1].text, "item 1", "the top row shows the first item")
  eq(looks[1].focus, true, "focused")
  press(m, "down"); press(m, "down"); press(m, "down")
  eq(m.focus, 4, "down three")
  eq(m.top, 1, "scrolled by one")
  m:update()
  eq(looks[3].text, "item 4", "the focus is on the last row")
  eq(looks[3].focus, true, "and lit")
  eq(looks[1].text, "item 2", "the first row shows the second item")
  m:pointer("hover", 10, -1)
  eq(m.focus, 2, "the pointer hits what a row shows, not its number")
  local w = list(5, { wrap = true })
  press(w, "up")
  eq(w.focus, 5, "up from the top wraps to the bottom")
  eq(w.top, 2, "which scrolls into view")
end

function T.rows_past_the_end_of_a_short_list_are_drawn_empty()
  local m, looks = list(2)
  m:update()
  eq(looks[3].text, "", "the third row is empty")
  eq(m:pointer("hover", 10, -3), nil, "and cannot be hovered")
  m:set({ { text = "only" } })
  eq(m.focus, 1, "a new list starts at its top")
  m:set({}, true)
  eq(press(m, "down"), false, "an empty list takes no moves")
end

function T.the_look_is_given_each_state()
  local states = {}
  local m = buttons(3, {
    look = function(s) states[s.index] = s return {} end,
    apply = function() end,
  }, {})
  m:enable(3, false)
  m:pointer("press", 2, 0)
  press(m, "up")
  m:update()
  eq(states[1].focus and not states[1].hover, true, "the keys moved the focus to the first")
  eq(states[1].lit, true, "which is lit")
  eq(states[2].pressed and states[2].hover and states[2].down, true, "the second is held under the pointer")
  eq(states[2].lit, true, "hovered, it is lit too")
  eq(states[3].off and not states[3].lit, true, "the third is off")
  m:pointer("drag", 5, 0)
  m:update()
  eq(states[2].pressed and not states[2].down, true, "dragged off, it is pressed but not down")
end

function T.the_same_look_twice_applies_nothing_new()
  -- The default apply sets only what differs; counted here through a look that records when
  -- it is asked and a menu whose items have no entities to set.
  local m = buttons(2, { look = function(s) return { tint = s.lit and { 1, 1, 1, 1 } or { 0.5, 0.5, 0.5, 1 } } end }, {})
  m:update()
  local before = 0
  for _ in pairs(m.shown) do before = before + 1 end
  eq(before, 2, "each item's tint was set once")
  local kept = {}
  for k, v in pairs(m.shown) do kept[k] = v end
  m:update()
  for k, v in pairs(m.shown) do eq(v, kept[k], "a quiet frame changes nothing kept for " .. k) end
end

function T.an_item_with_no_entity_is_refused_by_name()
  local ok, e = pcall(menu.new, { { button = "nobody" } })
  eq(ok, false, "refused")
  eq(tostring(e):find("no entity named nobody", 1, true) ~= nil, true, "named: " .. tostring(e))
end

return T
