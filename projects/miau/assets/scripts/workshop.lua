-- The Workshop: bring a pack in (paste its text or a share link, or type the path of a
-- .cjs, .lua or .json file, then Enter), and look after the packs there are: Play, Share
-- link (copied to the clipboard, shown, and copied again by C or its button), Export .cjs,
-- Remove, each a key and a button. A pack that fails shows every problem at once, each with
-- its path, in a box that scrolls (the wheel or a drag over it, Page Up/Down, Home, End); a
-- good one goes to the preview to be kept or left.

local screen = import("ui/screen.lua")
local s = screen.new()

local ROWS = 8
local game
local typing = true
local field = ""
local pick, top = 1, 0
local catalog = {}
local seen = nil
local confirm_remove
local report = {}
-- The share link on show, if the report is one.
local link
local message = ""
local pressed
local BUTTONS = { "btn_play", "btn_share", "btn_export", "btn_remove", "btn_back" }
local WITH_COPY = { "btn_play", "btn_share", "btn_export", "btn_remove", "btn_back", "btn_copy" }
local ACTS = { btn_play = "play", btn_share = "share", btn_export = "export", btn_remove = "remove" }

function start(e)
  game = e
end

local function back()
  local to = Save.get("miau_back")
  if to ~= "title" and to ~= "index" then to = "title" end
  Scene.load(to)
end

local function trim(t)
  return (t:gsub("^%s+", ""):gsub("%s+$", ""))
end

-- A link, a file path, or pack text: told apart by what it looks like.
local function submit(t)
  t = trim(t)
  if t == "" then
    message = "Paste a pack, a share link or a file path first."
    return
  end
  if t:find("#pack=", 1, true) then
    Miau.open_link(game, t)
  elseif not t:find("\n", 1, true) and (t:match("%.cjs$") or t:match("%.lua$") or t:match("%.json$")) then
    Miau.import_file(game, t)
  else
    Miau.import(game, t)
  end
  message = "Reading the pack..."
  report = {}
  link = nil
end

local function chosen()
  return catalog[pick]
end

local function act(what)
  local p = chosen()
  if p == nil then return end
  if what == "play" then
    Miau.play(game, p.id)
    Scene.load("play")
  elseif what == "share" then
    Miau.share(game, p.id)
  elseif what == "export" then
    Miau.export(game, p.id)
  elseif what == "remove" then
    if confirm_remove == p.id then
      confirm_remove = nil
      Miau.remove(game, p.id)
    else
      confirm_remove = p.id
      message = string.format("Press X again (or Remove) to remove '%s' for good.", p.id)
    end
  end
end

local function copy_link()
  if link == nil then return end
  Clipboard.copy(link)
  message = "The share link is copied to the clipboard."
end

local function take(outcome)
  report = {}
  link = nil
  s:scroll_to("report", 0)
  message = outcome.message
  if outcome.ok then
    if outcome.op == "import" or outcome.op == "link" then
      Save.set("miau_gift_back", "workshop")
      Scene.load("gift")
    elseif outcome.op == "share" and outcome.link ~= nil then
      Clipboard.copy(outcome.link)
      message = outcome.message .. " Copied to the clipboard."
      link = outcome.link
      report = { outcome.link }
    elseif outcome.op == "export" then
      message = "Written: " .. (outcome.path or "")
    end
  else
    for _, p in ipairs(outcome.errors) do
      report[#report + 1] = p.path .. ": " .. p.message
    end
  end
end

local function draw(bag)
  if typing then
    s:text("field_text", field == "" and "Paste a pack (Ctrl+V), a share link, or type a file path; Enter imports" or field .. "▏")
    s:tint("field", { 0.32, 0.36, 0.6, 1 })
  else
    s:text("field_text", field == "" and "Tab to type or paste here" or field)
    s:tint("field", { 0.25, 0.27, 0.4, 1 })
  end
  for r = 1, ROWS do
    local p = catalog[top + r]
    local label = ""
    if p ~= nil then
      label = string.format("%s  %s  (%s)%s", p.name, p.version, p.id, p.built_in and "  shipped" or "")
    end
    s:text("wpack_" .. r, label)
    local here = (top + r == pick) and not typing
    s:tint("wpack_row_" .. r, here and screen.FOCUS or screen.NONE)
    s:colour("wpack_" .. r, here and screen.GOLD or screen.WHITE)
  end
  local shown = {}
  for _, line in ipairs(report) do shown[#shown + 1] = line end
  for _, b in ipairs(bag.broken or {}) do
    shown[#shown + 1] = "Not loaded: " .. b.path .. ": " .. b.message
  end
  for _, name in ipairs(BUTTONS) do s:button(name) end
  -- A share link reads in the panel's own colour, with its Copy button; problems in red.
  if link ~= nil then
    s:button("btn_copy")
    s:text("btn_copy_label", "C  Copy link")
    s:colour("report", screen.WHITE)
  else
    s:tint("btn_copy", screen.NONE)
    s:text("btn_copy_label", "")
    s:colour("report", screen.RED)
  end
  s:text("message", message)
  s:text("report", table.concat(shown, "\n"))
  s:scroll_label("report", "report_where")
end

function update(e, dt)
  local bag = Entity.get(e, "Miau")
  if bag == nil then return end
  catalog = bag.catalog or {}
  pick = math.max(1, math.min(pick, math.max(#catalog, 1)))
  if pick <= top then top = pick - 1 end
  if pick > top + ROWS then top = pick - ROWS end
  local o = bag.outcome
  if seen == nil then
    seen = o and o.serial or 0
  elseif o ~= nil and o.serial ~= seen then
    seen = o.serial
    take(o)
  end
  draw(bag)
end

function text(e, t)
  if typing then
    -- A paste of many characters (a link or a pack) is imported as it is.
    if #t > 200 or t:find("\n", 1, true) then
      field = ""
      submit(t)
    else
      field = field .. t
    end
  else
    submit(t)
  end
end

function key(e, name, down)
  if not down then return end
  if name == "tab" then
    typing = not typing
    return
  end
  if name == "escape" then
    if typing and field ~= "" then field = "" else back() end
    return
  end
  if s:page_key("report", name) then return end
  if typing then
    if name == "backspace" then
      local cut = utf8.offset(field, -1)
      if cut ~= nil then field = field:sub(1, cut - 1) end
    elseif name == "enter" then
      local t = field
      field = ""
      submit(t)
    elseif name == "down" then
      typing = false
    end
    return
  end
  if name == "up" then
    if pick == 1 then typing = true else pick = pick - 1 end
  elseif name == "down" then pick = math.min(pick + 1, #catalog)
  elseif name == "p" or name == "enter" then act("play")
  elseif name == "s" then act("share")
  elseif name == "e" then act("export")
  elseif name == "x" or name == "delete" then act("remove")
  elseif name == "c" then copy_link()
  end
  if name ~= "x" and name ~= "delete" then confirm_remove = nil end
end

function pointer(e, phase, x, y)
  local clicked = s:buttons(link ~= nil and WITH_COPY or BUTTONS, phase, x, y)
  if clicked ~= nil then
    if clicked ~= "btn_remove" then confirm_remove = nil end
    if clicked == "btn_back" then
      back()
    elseif clicked == "btn_copy" then
      copy_link()
    else
      typing = false
      act(ACTS[clicked])
    end
    return
  end
  if phase == "press" and s.down ~= nil then return end
  if phase == "press" then
    pressed = nil
    if s:over("field", x, y) then typing = true return end
    for r = 1, ROWS do
      if s:over("wpack_row_" .. r, x, y) and catalog[top + r] ~= nil then
        typing = false
        pressed = top + r
      end
    end
  elseif phase == "release" and pressed ~= nil then
    for r = 1, ROWS do
      if s:over("wpack_row_" .. r, x, y) and top + r == pressed then
        if pick == pressed then act("play") else pick = pressed end
      end
    end
    pressed = nil
  end
end
