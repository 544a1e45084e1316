//! State kept in the variables rule functions share: the loader's last check.
//!
//! A local of a rule file that a function captures (an upvalue) lives as long as the function,
//! so a hook that assigns it (`count = count + 1`) keeps state from one call to the next, as a
//! module's table would: games would depend on the games played before them in the same Lua
//! state (on `--jobs`), and a referee hook could leave a seat's secret where another seat's
//! view reads it. Once the ruleset has loaded, every rule function reachable from the globals,
//! the modules and the values rule files returned is looked at, before any game runs:
//!
//! - a captured variable that the function, or one nested in it, assigns is refused, naming
//!   the function, the variable and the line (a local declared inside the function is fresh
//!   at each call and fine; `<const>` locals cannot be assigned);
//! - a table held in a captured variable is sealed like a module's, so that a change to it is
//!   found after the call (`Host::check_sealed`);
//! - a coroutine held in one is refused: it carries its whole stack from call to call.

use std::collections::{BTreeMap, HashSet};
use std::ffi::c_void;

use anyhow::{Result, bail};
use mlua::{Function, Lua, Table, Value as LuaValue, ffi};

use crate::script::lua::bytecode::{Proto, read};

/// `SETUPVAL A B`: UpValue[B] := R[A] (lopcodes.h of Lua 5.4).
const OP_SETUPVAL: u32 = 10;

/// The upvalues of `p` (by index) that it or a function nested in it assigns, each with the
/// line of the first assignment.
fn assigned(p: &Proto) -> BTreeMap<usize, usize> {
    let mut out = BTreeMap::new();
    for &(i, line) in &p.code {
        let (op, _, b, _) = Proto::decode(i);
        if op == OP_SETUPVAL {
            out.entry(b).or_insert(line);
        }
    }
    for n in &p.nested {
        for (j, line) in assigned(n) {
            // Assigned through an upvalue of `p` (not a local of `p`, fresh at each call).
            if let Some(u) = n.upvalues.get(j).filter(|u| !u.in_stack) {
                out.entry(u.index).or_insert(line);
            }
        }
    }
    out
}

/// Upvalue `n` (from 1) of `f`: its name and value, or None past the last.
fn upvalue(lua: &Lua, f: &Function, n: i32) -> mlua::Result<Option<(String, LuaValue)>> {
    // SAFETY: `f` is at index 1 of the stack exec_raw made; lua_getupvalue pushes at most one
    // value, and two are left for the results.
    let (name, value): (Option<String>, LuaValue) = unsafe {
        lua.exec_raw(f, |l| {
            let name = ffi::lua_getupvalue(l, 1, n);
            if name.is_null() {
                ffi::lua_pushnil(l);
                ffi::lua_pushnil(l);
            } else {
                ffi::lua_pushstring(l, name);
                ffi::lua_rotate(l, -2, 1);
            }
            ffi::lua_remove(l, 1);
        })?
    };
    Ok(name.map(|name| (name, value)))
}

/// The walk over what rules can reach.
pub struct Walk<'a> {
    pub lua: &'a Lua,
    /// What chunk names of rule files start with (`@rules/`).
    pub rule_source: String,
    /// The prelude's set of frozen tables (sealed or read-only).
    pub frozen: Table,
    /// The prelude's `seal`.
    pub seal: Function,
    seen: HashSet<*const c_void>,
}

impl<'a> Walk<'a> {
    pub fn new(lua: &'a Lua, label: &str, frozen: Table, seal: Function) -> Walk<'a> {
        Walk {
            lua,
            rule_source: format!("@{label}/"),
            frozen,
            seal,
            seen: HashSet::new(),
        }
    }

    /// Looks at `v`, reached under `path` (the key or variable that holds it), and everything
    /// reachable from it.
    pub fn value(&mut self, v: &LuaValue, path: &str) -> Result<()> {
        if !matches!(v, LuaValue::Table(_) | LuaValue::Function(_))
            || !self.seen.insert(v.to_pointer())
        {
            return Ok(());
        }
        match v {
            LuaValue::Table(t) => self.table(t, path),
            LuaValue::Function(f) => self.function(f, path),
            _ => Ok(()),
        }
    }

    fn table(&mut self, t: &Table, path: &str) -> Result<()> {
        if let Some(meta) = t.metatable() {
            self.value(&LuaValue::Table(meta), path)?;
        }
        for pair in t.pairs::<LuaValue, LuaValue>() {
            let (k, v) = pair?;
            let key = match &k {
                LuaValue::String(s) => s.to_string_lossy(),
                LuaValue::Integer(i) => i.to_string(),
                _ => "?".into(),
            };
            self.value(&k, path)?;
            self.value(&v, &key)?;
        }
        Ok(())
    }

    fn function(&mut self, f: &Function, path: &str) -> Result<()> {
        let info = f.info();
        let source = info.source.unwrap_or_default();
        // The kernel's own functions (C, the prelude) keep what they keep; what they hold of
        // the rules (a house rule stacked on a hook) is looked at.
        let rule = info.what != "C" && source.starts_with(&self.rule_source);
        let file = source.trim_start_matches('@');
        let mut names = Vec::new();
        for n in 1.. {
            let Some((name, value)) = upvalue(self.lua, f, n)? else {
                break;
            };
            match &value {
                LuaValue::Thread(_) if rule => bail!(
                    "{file}:{}: function '{path}' keeps a coroutine in '{name}' between calls: rules keep no state between calls",
                    info.line_defined.unwrap_or(0)
                ),
                LuaValue::Table(t) if rule && !self.frozen.raw_get::<bool>(t)? => {
                    let at = format!("{file}: '{name}'");
                    self.seal.call::<()>((t, at, true))?;
                }
                LuaValue::Function(_) => {}
                _ if !rule => continue,
                _ => {}
            }
            self.value(&value, &name)?;
            names.push(name);
        }
        if !rule {
            return Ok(());
        }
        let proto = read(&f.dump(false))?;
        if let Some((&i, &line)) = assigned(&proto).iter().next() {
            let name = names.get(i).map_or("?", String::as_str);
            bail!(
                "{file}:{line}: function '{path}' assigns '{name}', a variable of the file that outlives the call: rules keep no state between calls (keep it in the game with G:set, declare it inside the function, or fill it once in when_loaded)"
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{assigned, read};
    use mlua::Lua;

    #[test]
    fn finds_captured_variables_assigned_by_a_function_or_one_nested_in_it() {
        let lua = Lua::new();
        let f: mlua::Function = lua
            .load(
                "local count, seen = 0, 0\nreturn function()\n  local n = 0\n  local function bump() n = n + 1 end\n  bump()\n  local function see() seen = seen + 1 end\n  count = count + n\nend\n",
            )
            .call(())
            .unwrap();
        let p = read(&f.dump(false)).unwrap();
        let mut names: Vec<_> = assigned(&p)
            .into_iter()
            .map(|(i, line)| (p.upvalues[i].name.clone().unwrap(), line))
            .collect();
        names.sort();
        assert_eq!(names, [("count".to_string(), 7), ("seen".to_string(), 6)]);
    }
}
