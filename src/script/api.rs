//! The state handle `G` that rules receive: every method is one kernel operation that
//! validates its arguments and raises a Lua error naming the problem. See docs/lua-api.md.
//! The methods rules call on every event are C functions in `raw`; these are the rest.

use mlua::{Lua, LuaString, Result, Table, UserData, UserDataMethods, Value as LuaValue, ffi};

use super::stack;

use crate::kernel::state::{Continuation, Decision, Secret, Wait};
use crate::kernel::topology::GridNames;
use crate::kernel::{Loc, PieceId, Seat, State, Value};

fn fail<T>(msg: impl Into<String>) -> Result<T> {
    Err(mlua::Error::runtime(msg.into()))
}

fn lift<T>(r: std::result::Result<T, String>) -> Result<T> {
    r.map_err(mlua::Error::runtime)
}

/// Refuses a mutation while the state is shown read-only (REPL `lua`).
fn writable(state: &State) -> Result<()> {
    lift(super::raw::writable(state))
}

/// A kernel value as a Lua value.
pub fn to_lua(lua: &Lua, v: &Value) -> Result<LuaValue> {
    Ok(match v {
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Integer(*i),
        Value::Num(n) => LuaValue::Number(*n),
        Value::Str(s) => LuaValue::String(lua.create_string(s)?),
        Value::List(items) => LuaValue::Table(list_table(lua, items)?),
    })
}

/// A Lua array of kernel values, built in one protected call: mlua protects each table store
/// separately while a memory limit is set.
pub fn list_table(lua: &Lua, items: &[Value]) -> Result<Table> {
    // SAFETY: inside exec_raw's protected call, with nothing to drop alive; push_value leaves
    // exactly the table on the stack.
    unsafe {
        lua.exec_raw((), |state| {
            ffi::lua_createtable(state, items.len() as i32, 0);
            for (i, v) in items.iter().enumerate() {
                stack::push_value(state, v);
                ffi::lua_rawseti(state, -2, i as i64 + 1);
            }
        })
    }
}

/// A Lua value as a kernel value; `nil` is `None` (the property is removed).
pub fn from_lua(lua: &Lua, v: &LuaValue) -> Result<Option<Value>> {
    let mut out = Ok(None);
    // SAFETY: read_value only reads the value exec_raw pushed (index 1), and raises nothing.
    unsafe { lua.exec_raw::<()>(v, |state| out = stack::read_value(state, 1, 0))? };
    lift(out)
}

fn loc(state: &State, l: i64) -> Result<Loc> {
    lift(state.check_loc(l))
}

/// A location that may be 0 (off every location).
fn loc_or_none(state: &State, l: i64) -> Result<Loc> {
    if l == 0 { Ok(0) } else { loc(state, l) }
}

fn piece(state: &State, p: i64) -> Result<PieceId> {
    lift(state.check_piece(p))
}

fn seat(state: &State, s: i64) -> Result<Seat> {
    lift(state.turn.check(s))
}

/// A piece owner: a seat, or 0 for nobody.
fn owner(state: &State, s: i64) -> Result<Seat> {
    if s == 0 { Ok(0) } else { seat(state, s) }
}

fn seats_mask(state: &State, seats: Option<Table>) -> Result<u64> {
    let mut mask = 0u64;
    if let Some(t) = seats {
        for s in t.sequence_values::<i64>() {
            mask |= 1 << (seat(state, s?)? - 1);
        }
    }
    Ok(mask)
}

impl UserData for State {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        add_topology(m);
        add_pieces(m);
        add_turns(m);
        add_secrets_and_bags(m);
        add_pending(m);
        m.add_method_mut("reseed", |_, this, seed: i64| {
            writable(this)?;
            this.reseed(seed as u64);
            Ok(())
        });
        m.add_method_mut("log", |_, this, text: String| {
            this.log(text);
            Ok(())
        });
        m.add_method_mut("stat", |_, this, (name, n): (String, Option<i64>)| {
            *this.stats.entry(name).or_default() += n.unwrap_or(1);
            Ok(())
        });
    }
}

fn add_topology<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method_mut("place", |_, this, name: String| {
        writable(this)?;
        let l = this.topology_mut().place(&name);
        this.sync_places();
        Ok(l)
    });
    m.add_method("loc", |_, this, name: String| Ok(this.topology.loc(&name)));
    m.add_method("loc_name", |_, this, l: i64| {
        let l = loc(this, l)?;
        Ok(this.topology.name(l).unwrap_or_default().to_string())
    });
    m.add_method_mut(
        "grid",
        |_, this, (prefix, w, h, style): (String, u32, u32, Option<String>)| {
            writable(this)?;
            let names = match style.as_deref() {
                None | Some("coordinates") => GridNames::Coordinates,
                Some("letters") => GridNames::Letters,
                Some(other) => {
                    return fail(format!(
                        "unknown grid naming '{other}' (coordinates, letters)"
                    ));
                }
            };
            lift(this.topology_mut().grid(&prefix, w, h, names))?;
            this.sync_places();
            Ok(())
        },
    );
    m.add_method("cell", |_, this, (prefix, x, y): (String, i64, i64)| {
        Ok(this.topology.cell(&prefix, x, y))
    });
    m.add_method("xy", |_, this, l: i64| {
        Ok(this
            .topology
            .xy(loc(this, l)?)
            .map_or((None, None), |(x, y)| (Some(x), Some(y))))
    });
    m.add_method(
        "step",
        |_, this, (l, dir, n): (i64, String, Option<i64>)| {
            lift(this.topology.step(loc(this, l)?, &dir, n.unwrap_or(1)))
        },
    );
    m.add_method_mut("track", |_, this, (name, locs): (String, Vec<i64>)| {
        writable(this)?;
        let locs = locs
            .into_iter()
            .map(|l| loc(this, l))
            .collect::<Result<Vec<_>>>()?;
        this.topology_mut().set_track(&name, locs);
        Ok(())
    });
    m.add_method("track_loc", |_, this, (name, i): (LuaString, i64)| {
        let t = lift(this.topology.track(&name.to_str()?))?;
        Ok(usize::try_from(i - 1).ok().and_then(|i| t.get(i).copied()))
    });
    m.add_method("track_pos", |_, this, (name, l): (String, i64)| {
        lift(this.topology.track_pos(&name, loc(this, l)?))
    });
    m.add_method("track_len", |_, this, name: String| {
        Ok(lift(this.topology.track(&name))?.len())
    });
    m.add_method_mut("link", |_, this, (a, b, kind): (i64, i64, String)| {
        writable(this)?;
        let (a, b) = (loc(this, a)?, loc(this, b)?);
        this.topology_mut().link(a, b, &kind);
        Ok(())
    });
    m.add_method("links", |_, this, (l, kind): (i64, String)| {
        Ok(this.topology.links(loc(this, l)?, &kind))
    });
}

fn add_pieces<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method_mut("add", |_, this, (kind, o, l): (String, i64, i64)| {
        writable(this)?;
        let (o, l) = (owner(this, o)?, loc_or_none(this, l)?);
        Ok(this.add_piece(&kind, o, l))
    });
    m.add_method_mut("move", |_, this, (p, l): (i64, i64)| {
        writable(this)?;
        let (p, l) = (piece(this, p)?, loc_or_none(this, l)?);
        this.move_piece(p, l);
        Ok(())
    });
    m.add_method_mut("move_top", |_, this, (from, to): (i64, i64)| {
        writable(this)?;
        let (from, to) = (loc(this, from)?, loc_or_none(this, to)?);
        let top = this.at(from).last().copied();
        if let Some(p) = top {
            this.move_piece(p, to);
        }
        Ok(top)
    });
    m.add_method("at", |_, this, l: i64| Ok(this.at(loc(this, l)?).to_vec()));
    m.add_method("top", |_, this, l: i64| {
        Ok(this.at(loc(this, l)?).last().copied())
    });
    m.add_method("kind", |_, this, p: i64| {
        Ok(this.piece(piece(this, p)?).kind.clone())
    });
    m.add_method("owner", |_, this, p: i64| {
        Ok(this.piece(piece(this, p)?).owner)
    });
    m.add_method("where", |_, this, p: i64| {
        Ok(this.piece(piece(this, p)?).loc)
    });
    m.add_method_mut("set_kind", |_, this, (p, k): (i64, String)| {
        writable(this)?;
        let p = piece(this, p)?;
        this.piece_mut(p).kind = k;
        Ok(())
    });
    m.add_method_mut("set_owner", |_, this, (p, o): (i64, i64)| {
        writable(this)?;
        let (p, o) = (piece(this, p)?, owner(this, o)?);
        this.piece_mut(p).owner = o;
        Ok(())
    });
    m.add_method(
        "pieces",
        |_, this, (o, kind): (Option<i64>, Option<String>)| {
            Ok(this
                .pieces()
                .filter(|(_, p)| o.is_none_or(|o| i64::from(p.owner) == o))
                .filter(|(_, p)| kind.as_deref().is_none_or(|k| p.kind == k))
                .map(|(id, _)| id)
                .collect::<Vec<_>>())
        },
    );
}

fn add_turns<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method("seats", |_, this, ()| Ok(this.turn.seats()));
    m.add_method("seat_name", |_, this, s: i64| {
        Ok(this.turn.name(seat(this, s)?).to_string())
    });
    m.add_method_mut("set_current", |_, this, s: i64| {
        writable(this)?;
        let s = seat(this, s)?;
        this.turn.set_current(s);
        Ok(())
    });
    m.add_method_mut("extra_turn", |_, this, s: i64| {
        writable(this)?;
        let s = seat(this, s)?;
        this.turn.extra_turn(s);
        Ok(())
    });
    m.add_method_mut("skip", |_, this, (s, n): (i64, Option<u32>)| {
        writable(this)?;
        let s = seat(this, s)?;
        this.turn.skip(s, n.unwrap_or(1));
        Ok(())
    });
    m.add_method("direction", |_, this, ()| Ok(this.turn.direction()));
    m.add_method_mut("set_direction", |_, this, d: i32| {
        writable(this)?;
        this.turn.set_direction(d);
        Ok(())
    });
    m.add_method("team", |_, this, s: i64| Ok(this.turn.team(seat(this, s)?)));
    m.add_method_mut("set_team", |_, this, (s, t): (i64, u32)| {
        writable(this)?;
        let s = seat(this, s)?;
        this.turn.set_team(s, t);
        Ok(())
    });
    m.add_method("teammates", |_, this, s: i64| {
        Ok(this.turn.teammates(seat(this, s)?))
    });
}

fn add_secrets_and_bags<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method_mut(
        "secret_set",
        |lua, this, (k, v, seats): (String, LuaValue, Option<Table>)| {
            writable(this)?;
            let visible = seats_mask(this, seats)?;
            match from_lua(lua, &v)? {
                Some(value) => this.secrets.insert(k, Secret { value, visible }),
                None => this.secrets.remove(&k),
            };
            Ok(())
        },
    );
    m.add_method("secret_get", |lua, this, k: String| {
        this.secrets
            .get(&k)
            .map_or(Ok(LuaValue::Nil), |s| to_lua(lua, &s.value))
    });
    m.add_method_mut("secret_reveal", |_, this, (k, s): (String, Option<i64>)| {
        writable(this)?;
        let mask = match s {
            Some(s) => 1 << (seat(this, s)? - 1),
            None => u64::MAX,
        };
        match this.secrets.get_mut(&k) {
            Some(secret) => {
                secret.visible |= mask;
                Ok(())
            }
            None => fail(format!("no secret '{k}'")),
        }
    });
    m.add_method("can_see", |_, this, (k, viewer): (String, i64)| {
        Ok(this.secrets.get(&k).is_some_and(|s| {
            (1..=64).contains(&viewer) && s.visible & (1 << (viewer - 1)) != 0
                || s.visible == u64::MAX
        }))
    });
    m.add_method_mut("bag", |_, this, (name, items): (String, Vec<String>)| {
        writable(this)?;
        let mut items = items;
        items.sort();
        this.bags.insert(name, items);
        Ok(())
    });
    m.add_method_mut("bag_add", |_, this, (name, item): (String, String)| {
        writable(this)?;
        this.bag_add(&name, &item);
        Ok(())
    });
    m.add_method("bag_count", |_, this, name: String| {
        Ok(this.bags.get(&name).map_or(0, Vec::len))
    });
    m.add_method("bag_items", |_, this, name: String| {
        Ok(this.bags.get(&name).cloned().unwrap_or_default())
    });
}

/// Where the rule that called the running kernel function stands: `file:line: `.
fn caller(lua: &Lua) -> String {
    lua.inspect_stack(1, |d| {
        let src = d
            .source()
            .short_src
            .map(|s| s.to_string())
            .unwrap_or_default();
        format!("{src}:{}: ", d.current_line().unwrap_or(0))
    })
    .unwrap_or_default()
}

/// A hook the rules define, or an error naming the field that named it.
fn hook_name(lua: &Lua, t: &Table, field: &str) -> Result<Option<String>> {
    let Some(name) = t.get::<Option<String>>(field)? else {
        return Ok(None);
    };
    let hooks: Table = lua.globals().get("hook")?;
    if !matches!(hooks.get::<LuaValue>(name.as_str())?, LuaValue::Function(_)) {
        return fail(format!(
            "push: {field} names the hook '{name}', which no rule file defines"
        ));
    }
    Ok(Some(name))
}

/// `G:push{hook=…, args=…, why=…, chance=… | actor=…, options=…, prompt=… | ask=…, auto=…,
/// none=…}`: a continuation (see kernel::pending and docs/lua-api.md).
fn continuation(lua: &Lua, state: &State, t: &Table) -> Result<Continuation> {
    let hook = hook_name(lua, t, "hook")?.ok_or_else(|| mlua::Error::runtime("push: no hook"))?;
    let mut args = Vec::new();
    if let Some(list) = t.get::<Option<Table>>("args")? {
        for (i, v) in list.sequence_values::<LuaValue>().enumerate() {
            let v = from_lua(lua, &v?)?
                .ok_or_else(|| mlua::Error::runtime(format!("push: args[{}] is nil", i + 1)))?;
            args.push(v);
        }
    }
    let why = t.get::<Option<String>>("why")?.unwrap_or_default();
    let ask = hook_name(lua, t, "ask")?;
    let options = t.get::<Option<Vec<String>>>("options")?;
    let wait = if let Some(name) = t.get::<Option<String>>("chance")? {
        Wait::Chance(name)
    } else if ask.is_some() || options.is_some() {
        let actor = match t.get::<Option<i64>>("actor")? {
            Some(a) => seat(state, a)?,
            None if ask.is_some() => 0,
            None => return fail("push: a decision without an actor"),
        };
        Wait::Decision(Decision {
            ask,
            actor,
            options,
            prompt: t.get::<Option<String>>("prompt")?.unwrap_or_default(),
            auto: t.get::<Option<bool>>("auto")?.unwrap_or(false),
            none: hook_name(lua, t, "none")?,
        })
    } else {
        Wait::Step
    };
    Ok(Continuation {
        hook,
        args,
        why,
        wait,
    })
}

fn add_pending<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method_mut("push", |lua, this, t: Table| {
        writable(this)?;
        let c = continuation(lua, this, &t).map_err(|e| {
            mlua::Error::runtime(format!("{}{}", caller(lua), super::error::message(&e)))
        })?;
        this.pending.push(c);
        Ok(())
    });
    // The stack, top last: one table per continuation ({hook, args, why, waits}).
    m.add_method("pending", |lua, this, ()| {
        let out = lua.create_table()?;
        for (i, c) in this.pending.iter().enumerate() {
            let e = lua.create_table()?;
            e.raw_set("hook", c.hook.as_str())?;
            e.raw_set("args", list_table(lua, &c.args)?)?;
            e.raw_set("why", c.why.as_str())?;
            let waits = match &c.wait {
                Wait::Step => "step",
                Wait::Chance(_) => "chance",
                Wait::Decision(_) => "decision",
            };
            e.raw_set("waits", waits)?;
            out.raw_set(i + 1, e)?;
        }
        Ok(out)
    });
}
