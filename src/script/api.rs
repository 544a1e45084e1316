//! The state handle `G` that rules receive: every method is one kernel operation that
//! validates its arguments and raises a Lua error naming the problem. See docs/lua-api.md.
//! The methods rules call on every event are C functions in `raw`; these are the rest.

use mlua::{Lua, LuaString, Result, Table, UserData, UserDataMethods, Value as LuaValue, ffi};

use super::stack;

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

/// Counts what a mutation added to the state against its memory bound (`State::grow`).
fn grow(state: &mut State, delta: isize) -> Result<()> {
    lift(state.grow(delta))
}

/// The bytes a string held in the state accounts for.
fn text_bytes(s: &str) -> isize {
    24 + s.len() as isize
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
        m.add_method_mut("reseed", |_, this, seed: i64| {
            writable(this)?;
            this.reseed(seed as u64);
            Ok(())
        });
        m.add_method_mut("log", |_, this, text: String| {
            if this.logging {
                grow(this, text_bytes(&text))?;
            }
            this.log(text);
            Ok(())
        });
        m.add_method_mut("stat", |_, this, (name, n): (String, Option<i64>)| {
            if !this.stats.contains_key(&name) {
                grow(this, text_bytes(&name) + 8)?;
            }
            *this.stats.entry(name).or_default() += n.unwrap_or(1);
            Ok(())
        });
    }
}

fn add_topology<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method_mut("place", |_, this, name: String| {
        writable(this)?;
        let known = this.topology.len();
        let l = this.topology_mut().place(&name);
        this.sync_places();
        if this.topology.len() > known {
            grow(this, 2 * text_bytes(&name) + 96)?;
        }
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
            grow(this, (w * h) as isize * (2 * text_bytes(&prefix) + 112))
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
        grow(this, text_bytes(&name) + 12 * locs.len() as isize)?;
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
        grow(this, 2 * text_bytes(&kind))?;
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
        grow(this, text_bytes(&kind) + 96)?;
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
        grow(this, k.len() as isize - this.piece(p).kind.len() as isize)?;
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
            let old = this
                .secrets
                .get(&k)
                .map_or(0, |s| text_bytes(&k) + s.value.bytes() as isize);
            let new = from_lua(lua, &v)?;
            let held = new
                .as_ref()
                .map_or(0, |v| text_bytes(&k) + v.bytes() as isize);
            match new {
                Some(value) => this.secrets.insert(k, Secret { value, visible }),
                None => this.secrets.remove(&k),
            };
            grow(this, held - old)
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
        let size = |items: &[String]| items.iter().map(|i| text_bytes(i)).sum::<isize>();
        let old = this
            .bags
            .get(&name)
            .map_or(0, |b| size(b) + text_bytes(&name));
        let new = size(&items) + text_bytes(&name);
        this.bags.insert(name, items);
        grow(this, new - old)
    });
    m.add_method_mut("bag_add", |_, this, (name, item): (String, String)| {
        writable(this)?;
        grow(this, text_bytes(&item))?;
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
