//! The state handle `G` that rules receive: every method is one kernel operation that
//! validates its arguments and raises a Lua error naming the problem. See docs/lua-api.md.

use mlua::{
    Lua, LuaString, Result, Table, UserData, UserDataMethods, Value as LuaValue, Variadic, ffi,
};

use crate::kernel::state::Secret;
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
    if state.read_only {
        fail("the game is read-only here (use `play` to change it)")
    } else {
        Ok(())
    }
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
/// separately while a memory limit is set, which made arrays the dearest thing rules read.
pub fn list_table(lua: &Lua, items: &[Value]) -> Result<Table> {
    // SAFETY: the closure only pushes values and stores them in the table it created, leaving
    // exactly that table on the stack; exec_raw runs it as one protected call.
    unsafe { lua.exec_raw((), |state| push_list(state, items)) }
}

/// An array of integers as a Lua table (see [`list_table`]), with room for one more key
/// (rules often add an index 0), so that adding it does not rehash the table.
pub fn int_table(lua: &Lua, items: impl ExactSizeIterator<Item = i64>) -> Result<Table> {
    // SAFETY: as in list_table.
    unsafe {
        lua.exec_raw((), |state| {
            ffi::lua_createtable(state, items.len() as i32, 1);
            for (i, v) in items.enumerate() {
                ffi::lua_pushinteger(state, v);
                ffi::lua_rawseti(state, -2, i as i64 + 1);
            }
        })
    }
}

/// Pushes an array of kernel values; nested lists recurse (each level needs two stack slots).
unsafe fn push_list(state: *mut ffi::lua_State, items: &[Value]) {
    // SAFETY (whole body): called inside a protected call on `state`, which has room for the
    // table and one value; deeper lists make room first.
    unsafe {
        ffi::lua_createtable(state, items.len() as i32, 0);
        for (i, v) in items.iter().enumerate() {
            match v {
                Value::Bool(b) => ffi::lua_pushboolean(state, *b as i32),
                Value::Int(n) => ffi::lua_pushinteger(state, *n),
                Value::Num(n) => ffi::lua_pushnumber(state, *n),
                Value::Str(s) => {
                    ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
                }
                Value::List(inner) => {
                    ffi::luaL_checkstack(state, 3, c"nested property lists".as_ptr());
                    push_list(state, inner);
                }
            }
            ffi::lua_rawseti(state, -2, i as i64 + 1);
        }
    }
}

/// A Lua value as a kernel value; `nil` is `None` (the property is removed).
pub fn from_lua(lua: &Lua, v: &LuaValue) -> Result<Option<Value>> {
    Ok(Some(match v {
        LuaValue::Nil => return Ok(None),
        LuaValue::Boolean(b) => Value::Bool(*b),
        LuaValue::Integer(i) => Value::Int(*i),
        LuaValue::Number(n) => Value::Num(*n),
        LuaValue::String(s) => Value::Str(s.to_str()?.to_string()),
        LuaValue::Table(t) => {
            let mut items = Ok(Vec::new());
            // SAFETY: read_array only reads the table exec_raw pushed, and its own values.
            unsafe { lua.exec_raw::<()>(t, |state| items = read_array(state, 1, 0))? };
            Value::List(items?)
        }
        other => return fail(format!("a property cannot hold a {}", other.type_name())),
    }))
}

/// How deep property lists may nest.
const MAX_DEPTH: usize = 16;

/// Reads the Lua array at stack index `idx` as kernel values, with raw stack access: walking
/// it through mlua costs a protected call per entry.
///
/// # Safety
/// `idx` is an absolute index of a table on `state`'s stack, with room for three more values.
unsafe fn read_array(state: *mut ffi::lua_State, idx: i32, depth: usize) -> Result<Vec<Value>> {
    if depth > MAX_DEPTH {
        return fail(format!("property lists nest at most {MAX_DEPTH} deep"));
    }
    // SAFETY (whole body): per the contract; every push is popped before the next one.
    unsafe {
        let n = ffi::lua_rawlen(state, idx);
        let mut entries = 0;
        ffi::lua_pushnil(state);
        while ffi::lua_next(state, idx) != 0 {
            entries += 1;
            ffi::lua_pop(state, 1);
        }
        if entries != n {
            return fail("a property table must be an array (keys 1..n)");
        }
        let mut items = Vec::with_capacity(n);
        for i in 1..=n {
            let item = match ffi::lua_rawgeti(state, idx, i as i64) {
                ffi::LUA_TBOOLEAN => Value::Bool(ffi::lua_toboolean(state, -1) != 0),
                ffi::LUA_TNUMBER if ffi::lua_isinteger(state, -1) != 0 => {
                    Value::Int(ffi::lua_tointeger(state, -1))
                }
                ffi::LUA_TNUMBER => Value::Num(ffi::lua_tonumber(state, -1)),
                ffi::LUA_TSTRING => {
                    let mut len = 0;
                    let p = ffi::lua_tolstring(state, -1, &mut len);
                    let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
                    match std::str::from_utf8(bytes) {
                        Ok(s) => Value::Str(s.to_string()),
                        Err(_) => return fail("a property string must be UTF-8"),
                    }
                }
                ffi::LUA_TTABLE => {
                    if ffi::lua_checkstack(state, 3) == 0 {
                        return fail("property list too deep");
                    }
                    Value::List(read_array(state, ffi::lua_gettop(state), depth + 1)?)
                }
                t => {
                    let name = std::ffi::CStr::from_ptr(ffi::lua_typename(state, t));
                    return fail(format!(
                        "a property cannot hold a {}",
                        name.to_string_lossy()
                    ));
                }
            };
            ffi::lua_pop(state, 1);
            items.push(item);
        }
        Ok(items)
    }
}

/// Stores or removes a property; the key is copied only when it is new.
fn set_prop(
    lua: &Lua,
    props: &mut crate::kernel::state::Props,
    key: &LuaString,
    v: LuaValue,
) -> Result<()> {
    let key = key.to_str()?;
    if let (LuaValue::String(s), Some(Value::Str(old))) = (&v, props.get_mut(&*key)) {
        // A phase-like string changes every event: reuse its buffer.
        old.clear();
        old.push_str(&s.to_str()?);
        return Ok(());
    }
    match (from_lua(lua, &v)?, props.get_mut(&*key)) {
        (Some(v), Some(slot)) => *slot = v,
        (Some(v), None) => {
            props.insert(key.to_owned(), v);
        }
        (None, _) => {
            props.remove(&*key);
        }
    }
    Ok(())
}

fn get_prop(lua: &Lua, props: &crate::kernel::state::Props, key: &LuaString) -> Result<LuaValue> {
    props
        .get(&*key.to_str()?)
        .map_or(Ok(LuaValue::Nil), |v| to_lua(lua, v))
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
        add_props(m);
        add_turns(m);
        add_secrets_and_bags(m);
        m.add_method("switch", |lua, this, k: LuaString| {
            let k = k.to_str()?;
            match this.switches.get(&*k) {
                Some(v) => to_lua(lua, v),
                None => fail(format!("unknown switch '{k}'")),
            }
        });
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
    m.add_method_mut("move_tops", |_, this, pairs: Table| {
        writable(this)?;
        let n = pairs.raw_len();
        if n % 2 == 1 {
            return fail("move_tops takes pairs {from, to, from, to, …}");
        }
        for i in (1..=n).step_by(2) {
            let from = loc(this, pairs.raw_get(i)?)?;
            let to = loc_or_none(this, pairs.raw_get(i + 1)?)?;
            let Some(&p) = this.at(from).last() else {
                let name = this.topology.name(from).unwrap_or("?").to_string();
                return fail(format!("move_tops: {name} is empty (pair {})", i / 2 + 1));
            };
            this.move_piece(p, to);
        }
        Ok(())
    });
    m.add_method("at", |_, this, l: i64| Ok(this.at(loc(this, l)?).to_vec()));
    m.add_method("top", |_, this, l: i64| {
        Ok(this.at(loc(this, l)?).last().copied())
    });
    m.add_method(
        "count",
        |_, this, (l, o, kind): (i64, Option<i64>, Option<String>)| {
            let l = loc(this, l)?;
            Ok(this.count(l, o.map(|o| o as Seat), kind.as_deref()))
        },
    );
    m.add_method(
        "tally",
        |lua, this, (name, o, minus): (LuaString, i64, Option<i64>)| {
            let t = lift(this.topology.track(&name.to_str()?))?;
            let (o, minus) = (o as Seat, minus.map(|m| m as Seat));
            int_table(
                lua,
                t.iter().map(|&l| {
                    this.at(l)
                        .iter()
                        .map(|&p| this.piece(p).owner)
                        .map(|w| (w == o) as i64 - (Some(w) == minus) as i64)
                        .sum::<i64>()
                }),
            )
        },
    );
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

fn add_props<M: UserDataMethods<State>>(m: &mut M) {
    // Several keys in one call (`G:get(k1, k2)`, `G:set(k1, v1, k2, v2)`): a call costs
    // more than the property work itself.
    m.add_method(
        "get",
        |lua, this, (k, more): (LuaString, Variadic<LuaString>)| {
            let first = get_prop(lua, &this.props, &k)?;
            let rest = more
                .iter()
                .map(|k| get_prop(lua, &this.props, k))
                .collect::<Result<Variadic<_>>>()?;
            Ok((first, rest))
        },
    );
    m.add_method_mut(
        "set",
        |lua, this, (k, v, more): (LuaString, LuaValue, Variadic<LuaValue>)| {
            writable(this)?;
            if more.len() % 2 == 1 {
                return fail("set takes key, value pairs");
            }
            set_prop(lua, &mut this.props, &k, v)?;
            for pair in more.chunks(2) {
                let LuaValue::String(k) = &pair[0] else {
                    return fail(format!(
                        "set: a key must be a string, not a {}",
                        pair[0].type_name()
                    ));
                };
                set_prop(lua, &mut this.props, k, pair[1].clone())?;
            }
            Ok(())
        },
    );
    m.add_method("cell_get", |lua, this, (l, k): (i64, LuaString)| {
        get_prop(lua, this.cell_props(loc(this, l)?), &k)
    });
    m.add_method_mut(
        "cell_set",
        |lua, this, (l, k, v): (i64, LuaString, LuaValue)| {
            writable(this)?;
            let l = loc(this, l)?;
            set_prop(lua, this.cell_props_mut(l), &k, v)
        },
    );
    m.add_method("piece_get", |lua, this, (p, k): (i64, LuaString)| {
        get_prop(lua, &this.piece(piece(this, p)?).props, &k)
    });
    m.add_method_mut(
        "piece_set",
        |lua, this, (p, k, v): (i64, LuaString, LuaValue)| {
            writable(this)?;
            let p = piece(this, p)?;
            set_prop(lua, &mut this.piece_mut(p).props, &k, v)
        },
    );
    m.add_method("player_get", |lua, this, (s, k): (i64, LuaString)| {
        get_prop(lua, &this.player_props[seat(this, s)? as usize - 1], &k)
    });
    m.add_method_mut(
        "player_set",
        |lua, this, (s, k, v): (i64, LuaString, LuaValue)| {
            writable(this)?;
            let s = seat(this, s)?;
            set_prop(lua, &mut this.player_props[s as usize - 1], &k, v)
        },
    );
}

fn add_turns<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method("seats", |_, this, ()| Ok(this.turn.seats()));
    m.add_method("seat_name", |_, this, s: i64| {
        Ok(this.turn.name(seat(this, s)?).to_string())
    });
    m.add_method("current", |_, this, ()| Ok(this.turn.current()));
    m.add_method_mut("set_current", |_, this, s: i64| {
        writable(this)?;
        let s = seat(this, s)?;
        this.turn.set_current(s);
        Ok(())
    });
    m.add_method_mut("advance", |_, this, ()| {
        writable(this)?;
        Ok(this.turn.advance())
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
