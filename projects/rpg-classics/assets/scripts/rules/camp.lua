-- Patching the party up between fights (the camp's H): priests heal the most hurt while they
-- have the points and someone is below four fifths, then potions for anyone below two fifths,
-- then an antidote for each poisoned member. Plain rules on the party and the pack, so the
-- crawl and the balance run patch up alike.
--
--   local camp = import("rules/camp.lua")
--   local said = camp.patch_up(rng, party, pack, t)   -- pack: item id -> count

local dice = import("rules/dice.lua")
local party_rules = import("rules/party.lua")

local M = {}

-- The living member worst hurt (by share of hit points) and that share.
function M.most_hurt(party)
  local worst, at = 1.01, nil
  for i, q in ipairs(party) do
    if party_rules.alive(q) and q.hp / q.max_hp < worst then worst, at = q.hp / q.max_hp, i end
  end
  return at, worst
end

-- Takes one of item `id` from the pack; false when there is none.
function M.take(pack, id)
  local n = pack[id] or 0
  if n <= 0 then return false end
  if n == 1 then pack[id] = nil else pack[id] = n - 1 end
  return true
end

-- Heals and cures what the camp can; returns the lines to tell (one line when nothing could
-- be done).
function M.patch_up(rng, party, pack, t)
  local said = {}
  local function say(s) said[#said + 1] = s end
  local done = 0
  for _ = 1, 24 do
    local hurt, how = M.most_hurt(party)
    if hurt == nil then break end
    local target = party[hurt]
    local healed = false
    if how < 0.8 then
      for _, p in ipairs(party) do
        if not healed and party_rules.able(p) then
          for _, s in ipairs(party_rules.spells(p, t.classes, t.spells)) do
            if not healed and s.heal and s.target == "member" and p.sp >= s.cost then
              p.sp = p.sp - s.cost
              local n = dice.range(rng, s.heal)
              target.hp = math.min(target.max_hp, target.hp + n)
              say(string.format("%s heals %s for %d.", p.name, target.name, n))
              healed = true
            end
          end
        end
      end
    end
    if not healed and how < 0.4 and M.take(pack, "healing potion") then
      local n = dice.range(rng, t.items["healing potion"].heal)
      target.hp = math.min(target.max_hp, target.hp + n)
      say(string.format("%s drinks a healing potion: %d.", target.name, n))
      healed = true
    end
    if not healed then break end
    done = done + 1
  end
  for _, q in ipairs(party) do
    if q.status == "poisoned" then
      for _, p in ipairs(party) do
        if q.status == "poisoned" and party_rules.able(p) then
          for _, s in ipairs(party_rules.spells(p, t.classes, t.spells)) do
            if q.status == "poisoned" and s.cures == "poison" and p.sp >= s.cost then
              p.sp = p.sp - s.cost
              q.status = "ok"
              say(string.format("%s casts %s: %s is cured.", p.name, s.name, q.name))
              done = done + 1
            end
          end
        end
      end
    end
    if q.status == "poisoned" and M.take(pack, "antidote") then
      q.status = "ok"
      say(q.name .. " takes an antidote.")
      done = done + 1
    end
  end
  if done == 0 then say("Nothing more the camp can do.") end
  return said
end

return M
