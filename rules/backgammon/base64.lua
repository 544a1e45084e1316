-- The Base64 of GNU Backgammon's IDs (spec §7.2): a key's bytes, first bits first, as
-- characters of A-Z a-z 0-9 + / without padding; the Position ID and the Match ID share it.

local B = {}

local ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local VALUE = {}
for i = 1, 64 do VALUE[ALPHABET:sub(i, i)] = i - 1 end

-- The characters of `bytes`; the last one is padded with zero bits.
function B.encode(bytes)
  local out, acc, nbits = {}, 0, 0
  for i = 1, #bytes do
    acc, nbits = (acc << 8) | bytes[i], nbits + 8
    while nbits >= 6 do
      nbits = nbits - 6
      local v = (acc >> nbits) & 63
      out[#out + 1] = ALPHABET:sub(v + 1, v + 1)
    end
  end
  if nbits > 0 then
    local v = (acc << (6 - nbits)) & 63
    out[#out + 1] = ALPHABET:sub(v + 1, v + 1)
  end
  return table.concat(out)
end

-- The bytes of `text`, which must have `length` characters; `what` names the ID in errors
-- ("Position ID"), which say which character is wrong.
function B.decode(text, length, what)
  if #text ~= length then
    error(string.format("a %s has %d characters (A-Z a-z 0-9 + /), got %d in %q", what, length, #text, text), 0)
  end
  local bytes, acc, nbits = {}, 0, 0
  for i = 1, length do
    local ch = text:sub(i, i)
    local v = VALUE[ch]
    if not v then error(string.format("%s %q: character %d (%q) is not Base64", what, text, i, ch), 0) end
    acc, nbits = (acc << 6) | v, nbits + 6
    if nbits >= 8 then
      nbits = nbits - 8
      bytes[#bytes + 1] = (acc >> nbits) & 0xFF
    end
  end
  if acc & ((1 << nbits) - 1) ~= 0 then
    error(string.format("%s %q: its last character has stray bits", what, text), 0)
  end
  return bytes
end

return B
