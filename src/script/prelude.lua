-- Runs once in every rules state, before any rule file, with the sandboxed libraries only.
-- Returns helpers the kernel installs as globals and uses itself.
local setmetatable, rawlen, next, type, error = setmetatable, rawlen, next, type, error

local function refuse(_, k)
  error("attempt to modify a read-only table (key '" .. tostring(k) .. "'): rules keep no state between calls", 2)
end

-- A read-only view of t (and of every table inside it).
local function readonly(t, seen)
  seen = seen or {}
  if seen[t] then return seen[t] end
  local inner = {}
  for k, v in next, t do
    inner[k] = type(v) == "table" and readonly(v, seen) or v
  end
  local proxy = setmetatable({}, {
    __index = inner,
    __newindex = refuse,
    __len = function() return rawlen(inner) end,
    __pairs = function() return next, inner, nil end,
    __metatable = false,
  })
  seen[t] = proxy
  return proxy
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

return {
  readonly = readonly,
  compose = compose,
  sorted_keys = sorted_keys,
  plain_errors = plain_errors,
  hooked_coroutines = hooked_coroutines,
  sandbox_escapes = sandbox_escapes,
}
