-- Kotodama's sound: the music of each scene, with its tempo so the sea breathes on the beat,
-- the table's events heard, and the volumes the settings saved. (Menus play their own moves
-- and choices, in ui/menu.lua.)
--
--   local sound = import("flow/sound.lua")
--   sound.music("puzzle.wav")        -- in start
--   sound.events(bag)                -- in update, with the table's kotoba bag

local M = {}

local tempo = nil

-- The tempo of each track, from data/kotodama_music.json.
local function bpm(name)
  if tempo == nil then
    tempo = {}
    local ok, rows = pcall(Data.table, "kotodama_music")
    if ok and type(rows) == "table" then
      for _, row in ipairs(rows) do
        if type(row.name) == "string" and type(row.bpm) == "number" then tempo[row.name] = row.bpm end
      end
    end
  end
  return tempo[name]
end

-- The volumes the settings saved, each 0..1 (full when unset or unreadable).
function M.volumes()
  local saved = Save.get("settings")
  local function level(v)
    if type(v) ~= "number" or v ~= v then return 1 end
    return math.max(0, math.min(1, v))
  end
  if type(saved) ~= "table" then return 1, 1 end
  return level(saved.music), level(saved.sound)
end

-- Applies the saved volumes.
function M.apply_volumes()
  local music, sounds = M.volumes()
  Audio.volume("music", music)
  Audio.volume("sound", sounds)
end

-- Starts a scene's music (a loop, faded in), unless it is already the one playing.
local playing = nil
function M.music(name)
  M.apply_volumes()
  if playing == name then return end
  playing = name
  Audio.music(name, { loop = true, volume = 0.8, fade = 1.0, bpm = bpm(name) })
end

-- One sound, quieter and to the side when it is the rival's.
local function play(name, player)
  if player == 2 then
    Audio.play(name, { volume = 0.6, pan = 0.35 })
  else
    Audio.play(name)
  end
end

-- A word made is heard kana by kana: one soft koto pluck each, a step up the yō scale (D E G
-- A B) each time, starting higher for a longer word. The steps in semitones from D:
local STEPS = { 0, 2, 5, 7, 9, 12, 14, 17, 19, 21, 24 }
-- Frames between plucks, and how many may wait.
local PLUCK_GAP = 4
local MOST_WAITING = 24
local frame = 0
local plucks = {}

local function queue_word(w, player)
  local kana = math.min(utf8.len(w.reading or "") or 0, 8)
  local first = math.max(0, kana - 2)
  local at = frame + 3
  local last = plucks[#plucks]
  if last ~= nil and last.at >= at then at = last.at + PLUCK_GAP end
  for i = 1, kana do
    if #plucks >= MOST_WAITING then return end
    local step = STEPS[math.min(first + i, #STEPS)]
    plucks[#plucks + 1] = { at = at + (i - 1) * PLUCK_GAP, pitch = 2 ^ (step / 12), player = player }
  end
end

local function pluck_due()
  while plucks[1] ~= nil and plucks[1].at <= frame do
    local p = table.remove(plucks, 1)
    local quiet = p.player == 2 and 0.3 or 0.5
    Audio.play("pluck.wav", { volume = quiet, pitch = p.pitch, pan = p.player == 2 and 0.35 or 0 })
  end
end

-- The sounds of this frame's events at a table (call it once a frame).
function M.events(bag)
  if bag == nil or type(bag.events) ~= "table" then return end
  frame = frame + 1
  pluck_due()
  for _, ev in ipairs(bag.events) do
    local k = ev.kind
    if k == "placed" then
      if (ev.combo or 0) >= 1 then
        play("combo" .. math.min(ev.combo, 3) .. ".wav", ev.player)
      else
        play("place.wav", ev.player)
      end
      for _, w in ipairs(ev.words or {}) do queue_word(w, ev.player) end
    elseif k == "refused" then play("refuse.wav", ev.player)
    elseif k == "turned" then play("turn.wav", ev.player)
    elseif k == "swapped" then play("swap.wav", ev.player)
    elseif k == "hit" then play("hit.wav", ev.to)
    elseif k == "countdown" then
      if ev.n == 0 then Audio.play("go.wav") else Audio.play("countdown.wav") end
    elseif k == "cleared" then Audio.play("clear.wav")
    elseif k == "failed" then Audio.play("fail.wav")
    elseif k == "over" then
      if ev.why == "ko" then Audio.play("knockout.wav")
      elseif ev.winner == bag.you then Audio.play("clear.wav")
      else Audio.play("fail.wav") end
    end
  end
end

return M
