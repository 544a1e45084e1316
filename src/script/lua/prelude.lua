-- Runs once in every rules state, before any rule file, with the sandboxed libraries only.
-- Returns helpers the kernel installs as globals and uses itself.
local setmetatable, getmetatable, rawlen, rawset, rawget, rawequal, next, type, error, tostring, select =
  setmetatable, getmetatable, rawlen, rawset, rawget, rawequal, next, type, error, tostring, select

-- Every table frozen so far (proxies and tables frozen in place): `rawset` refuses them.
local frozen = setmetatable({}, { __mode = "k" })

local function refuse(_, k)
  error("attempt to modify a read-only table (key '" .. tostring(k) .. "'): rules keep no state between calls", 2)
end

-- The metatable that makes a table read-only, reading through to `inner`. Its iterator hides
-- `inner`, so that no one can get at the table that holds the values.
local function frozen_meta(inner, proxy)
  return {
    __index = inner,
    __newindex = refuse,
    __len = function() return rawlen(inner) end,
    __pairs = function() return function(_, k) return next(inner, k) end, proxy, nil end,
    __metatable = false,
    -- where the kernel reads a frozen table's values (the C API sees through __metatable)
    __frozen = inner,
  }
end

-- A read-only view of t (and of every table inside it); t itself is left as it was.
local function readonly(t, seen)
  seen = seen or {}
  if seen[t] then return seen[t] end
  local inner = {}
  local proxy = {}
  seen[t] = proxy
  for k, v in next, t do
    inner[k] = type(v) == "table" and readonly(v, seen) or v
  end
  setmetatable(proxy, frozen_meta(inner, proxy))
  frozen[proxy] = true
  return proxy
end

-- The switches of the loaded rules, read-only: the global `switches`. Reading a switch no rule
-- declares is an error, as with G:switch (a typo would otherwise read nil).
local function switches_view(values)
  local inner = {}
  for k, v in next, values do inner[k] = type(v) == "table" and readonly(v) or v end
  setmetatable(inner, {
    __index = function(_, k) error("unknown switch '" .. tostring(k) .. "'", 2) end,
  })
  local proxy = {}
  setmetatable(proxy, frozen_meta(inner, proxy))
  frozen[proxy] = true
  return proxy
end

-- Sealed tables (rule files' tables), in the order they were sealed, each with a copy of its
-- contents as sealed and a name for messages.
local sealed, sealed_copy, sealed_name = {}, {}, {}
-- The metatable `seal` gave a table (none when the table had one of its own).
local sealed_meta = {}

-- Seals t and every table reachable from it, leaving its values where they are, so reading
-- it costs what reading a plain table does: a new key is refused at once (with the place),
-- `rawset` and `setmetatable` too; overwriting a key that exists cannot be stopped in Lua
-- without slowing every read, so `changed` finds it and `restore` undoes it (the kernel checks
-- after every interactive call). A `bare` seal (the tables a file's local variables hold,
-- among them the hottest data of the fast paths) gives no metatable, which slows reads of
-- absent keys: a new key there is found by `changed` as an overwrite is.
local function seal(t, name, bare)
  if frozen[t] then return t end
  frozen[t] = true
  local copy = {}
  for k, v in next, t do copy[k] = v end
  sealed[#sealed + 1], sealed_copy[t], sealed_name[t] = t, copy, name
  for k, v in next, copy do
    if type(v) == "table" then seal(v, name .. "." .. tostring(k), bare) end
  end
  if getmetatable(t) == nil and not bare then
    sealed_meta[t] = { __newindex = refuse, __metatable = false }
    setmetatable(t, sealed_meta[t])
  end
  return t
end

-- The first sealed table changed since it was sealed, as "name.key", or nil.
local function changed()
  for i = 1, #sealed do
    local t = sealed[i]
    local copy = sealed_copy[t]
    for k, v in next, t do
      if not rawequal(copy[k], v) then return sealed_name[t] .. "." .. tostring(k) end
    end
    for k in next, copy do
      if rawget(t, k) == nil then return sealed_name[t] .. "." .. tostring(k) end
    end
  end
  return nil
end

-- Puts every sealed table back as it was sealed.
local function restore()
  for i = 1, #sealed do
    local t = sealed[i]
    local copy = sealed_copy[t]
    for k in next, t do
      if copy[k] == nil then rawset(t, k, nil) end
    end
    for k, v in next, copy do rawset(t, k, v) end
  end
end

-- Moves the values of every sealed table (that has the seal's metatable, or none: a bare
-- seal's gets one for the while) into a shadow read through `__index`, so that assigning any
-- key reaches `__newindex` and fails at its line. The kernel does this only to name the place
-- of a change it found, while it runs the offending call again; `untrap` puts the values back.
local function trap()
  for i = 1, #sealed do
    local t = sealed[i]
    if getmetatable(t) == nil then
      -- a bare seal: a metatable for as long as the trap holds
      sealed_meta[t] = { __newindex = refuse, __metatable = false, bare = true }
      setmetatable(t, sealed_meta[t])
    end
    local mt = sealed_meta[t]
    if mt then
      local shadow, name = {}, sealed_name[t]
      for k, v in next, t do shadow[k] = v end
      for k in next, shadow do rawset(t, k, nil) end
      rawset(mt, "__index", shadow)
      rawset(mt, "__len", function() return rawlen(shadow) end)
      rawset(mt, "__pairs", function() return next, shadow, nil end)
      rawset(mt, "__newindex", function(_, k)
        error("attempt to change '" .. name .. "." .. tostring(k) .. "': rules are frozen after loading and keep no state between calls", 2)
      end)
    end
  end
end

local function untrap()
  for i = 1, #sealed do
    local t = sealed[i]
    local mt = sealed_meta[t]
    if mt and mt.__index then
      for k, v in next, mt.__index do rawset(t, k, v) end
      rawset(mt, "__index", nil)
      rawset(mt, "__len", nil)
      rawset(mt, "__pairs", nil)
      rawset(mt, "__newindex", refuse)
    end
    if mt and mt.bare then
      sealed_meta[t] = nil
      rawset(mt, "__metatable", nil)
      setmetatable(t, nil)
    end
  end
end

-- `rawset`, refusing frozen tables.
local function checked_rawset(t, k, v)
  if frozen[t] then refuse(t, k) end
  return rawset(t, k, v)
end

-- `tostring` without addresses: a table, function, thread or userdata that would print as
-- "<name>: 0x…" reads as its name, so that no run-to-run value reaches the state. A value
-- with its own text keeps it: an error a kernel call raised, caught by pcall, is a userdata
-- whose text is the message.
local function plain_tostring(v)
  local t = type(v)
  local s = tostring(v)
  if t == "table" or t == "function" or t == "thread" or t == "userdata" then
    local name = s:match("^([^:]+): 0x%x+$")
    if name then return name end
  end
  return s
end

-- `string.format` without `%p` (an address), its `%s` going through plain_tostring.
local function plain_format()
  local raw = string.format
  return function(fmt, ...)
    if type(fmt) == "string" and fmt:find("%%[-+ #0-9.]*p") then
      error("string.format: '%p' (an address) is not available to rules", 2)
    end
    local n = select("#", ...)
    local args = { ... }
    for i = 1, n do
      local t = type(args[i])
      if t == "table" or t == "function" or t == "thread" or t == "userdata" then
        args[i] = plain_tostring(args[i])
      end
    end
    return raw(fmt, table.unpack(args, 1, n))
  end
end

-- An override stacked on base: the override is called with base first.
local function compose(override, base)
  return function(...) return override(base, ...) end
end

-- The keys of t in a stable order (numbers first, then strings), for loops whose result
-- matters: `pairs` order over string keys changes from run to run.
local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    return a < b
  end)
  return keys
end

-- f, with the errors it raises re-raised as plain messages at the caller's line (a kernel
-- error caught by pcall would otherwise read "runtime error: …").
local function plain_errors(f)
  return function(...)
    local results = table.pack(pcall(f, ...))
    if results[1] then return table.unpack(results, 2, results.n) end
    local msg = tostring(results[2]):gsub("^runtime error: ", ""):gsub("\nstack traceback:.*", "")
    error(msg, 2)
  end
end

-- Makes the limits uncatchable: once the kernel stopped the running invocation (`tripped`
-- gives the reason), pcall, xpcall and coroutine.resume raise it again instead of returning,
-- and xpcall's handler is not called (Lua would run it with hooks off, out of every limit).
-- And refuses __gc finalizers: Lua runs them without hooks, where no limit could stop them.
local function sandbox_escapes(tripped)
  local pcall, xpcall, resume, set, rawget = pcall, xpcall, coroutine.resume, setmetatable, rawget
  local function check(ok, ...)
    if not ok then
      local why = tripped()
      if why then error(why, 0) end
    end
    return ok, ...
  end
  _G.pcall = function(...) return check(pcall(...)) end
  _G.xpcall = function(f, handler, ...)
    local function guarded(m)
      if tripped() then return m end
      return handler(m)
    end
    return check(xpcall(f, guarded, ...))
  end
  coroutine.resume = function(...) return check(resume(...)) end
  _G.setmetatable = function(t, mt)
    if frozen[t] then error("setmetatable: the table is part of the rules, frozen after loading", 2) end
    if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
      error("setmetatable: __gc finalizers are not available to rules (sandbox)", 2)
    end
    return set(t, mt)
  end
end

-- Makes every coroutine a rule creates run under the kernel's instruction hook from the start.
local function hooked_coroutines(hook_thread)
  local create, resume, pack, unpack = coroutine.create, coroutine.resume, table.pack, table.unpack
  coroutine.create = function(f) return hook_thread(create(f)) end
  coroutine.wrap = function(f)
    local co = coroutine.create(f)
    return function(...)
      local r = pack(resume(co, ...))
      if r[1] then return unpack(r, 2, r.n) end
      error(r[2], 0)
    end
  end
end

-- The kernel's simulation loop (session/driven.rs): calls the hook of a step (kind 1: `apply`
-- with option `a`; 2: `chance` with name `a` and outcome `b`), then asks `step` for the next
-- step from the status the hook returned, until `step` hands the game back to the kernel.
-- Returns that status and the kind of the hook that returned it.
local function playout(G, step, apply, chance, kind, a, b)
  while true do
    local status
    if kind == 1 then status = apply(G, a) else status = chance(G, a, b) end
    local next_kind
    next_kind, a, b = step(status)
    if not next_kind then return status, kind end
    kind = next_kind
  end
end

-- How many entries the sealed tables hold: what `changed` reads.
local function sealed_entries()
  local n = 0
  for i = 1, #sealed do
    for _ in next, sealed[i] do n = n + 1 end
  end
  return n
end

return {
  sealed_entries = sealed_entries,
  readonly = readonly,
  switches_view = switches_view,
  seal = seal,
  changed = changed,
  restore = restore,
  trap = trap,
  untrap = untrap,
  frozen = frozen,
  rawset = checked_rawset,
  tostring = plain_tostring,
  format = plain_format(),
  compose = compose,
  sorted_keys = sorted_keys,
  plain_errors = plain_errors,
  hooked_coroutines = hooked_coroutines,
  sandbox_escapes = sandbox_escapes,
  playout = playout,
}
