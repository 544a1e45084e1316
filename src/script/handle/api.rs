//! The state handle `G` that rules receive: every method is one kernel operation that
//! validates its arguments and raises a Lua error naming the problem. See docs/lua-api.md.
//! The methods rules call on every event are C functions in `raw`; these are the rest.

use mlua::{
    FromLua, Lua, LuaString, Result, Table, UserData, UserDataMethods, Value as LuaValue, ffi,
};

use super::raw::{viewer_name, writable};
use super::stack::{self, thawed};

use crate::kernel::state::{Continuation, Decision, Wait, heap_block};
use crate::kernel::topology::{GridNames, Metric};
use crate::kernel::turn::Unit;
use crate::kernel::view::{ALL_SEATS, Domain, Secret, seat_bit};
use crate::kernel::{Loc, PieceId, Seat, State, Value};
use crate::script::lua::error;
use crate::script::lua::limits::Limits;

fn fail<T>(msg: impl Into<String>) -> Result<T> {
    Err(mlua::Error::runtime(msg.into()))
}

fn lift<T>(r: std::result::Result<T, String>) -> Result<T> {
    r.map_err(mlua::Error::runtime)
}

/// `msg` prefixed with the rule file and line that called the running method.
pub(in crate::script) fn placed(lua: &Lua, msg: String) -> mlua::Error {
    let place = lua.inspect_stack(1, |d| {
        let src = d.source().short_src.map(|s| s.into_owned());
        (src, d.current_line())
    });
    mlua::Error::runtime(match place {
        Some((Some(src), Some(line))) => format!("{src}:{line}: {msg}"),
        _ => msg,
    })
}

/// Refuses a mutation in a query or a read-only view, naming the rule's file and line.
fn writable_at(lua: &Lua, state: &mut State) -> Result<()> {
    writable(state).map_err(|e| placed(lua, e))
}

/// The parameters a status may give for one event, per kind.
pub const STATUS_PARAMS: [&str; 7] = ["faces", "count", "p", "values", "sectors", "weights", "bag"];

/// A kernel value as a Lua value.
pub fn to_lua(lua: &Lua, v: &Value) -> Result<LuaValue> {
    Ok(match v {
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Integer(*i),
        Value::Num(n) => LuaValue::Number(*n),
        Value::Str(s) => LuaValue::String(lua.create_string(s)?),
        Value::List(items) => LuaValue::Table(list_table(lua, items)?),
        Value::Map(_) => {
            // SAFETY: inside exec_raw's protected call, with nothing to drop alive;
            // push_value leaves exactly the table on the stack.
            LuaValue::Table(unsafe { lua.exec_raw((), |state| stack::push_value(state, v))? })
        }
    })
}

/// A Lua array of kernel values, built in one protected call: mlua protects each table store
/// separately while a memory limit is set.
pub fn list_table(lua: &Lua, items: &[Value]) -> Result<Table> {
    // SAFETY: inside exec_raw's protected call, with nothing to drop alive; push_list leaves
    // exactly the table on the stack.
    unsafe { lua.exec_raw((), |state| stack::push_list(state, items)) }
}

/// `list_table` for the kernel between invocations (a chance event's outcome): with no memory
/// limit set, no allocation can fail short of the process running out of memory, so the table
/// is built without the protected call, which costs more than the table. Inside an invocation,
/// as `list_table`.
pub fn list_table_between(lua: &Lua, limits: &Limits, items: &[Value]) -> Result<Table> {
    if limits.running() {
        return list_table(lua, items);
    }
    lua.exec_raw_lua(|raw| {
        let l = raw.state();
        // SAFETY: no memory limit is set (no invocation runs), and the room push_list asks for
        // is made here without raising, so nothing in it raises; the table is left on top for
        // `from_stack` and popped after.
        unsafe {
            if ffi::lua_checkstack(l, 3) == 0 {
                return Err(mlua::Error::runtime("out of Lua stack"));
            }
            stack::push_list(l, items);
            let t = Table::from_stack(-1, raw);
            ffi::lua_pop(l, 1);
            t
        }
    })
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

/// The bytes an item of a bag accounts for: its string twice (the bag's vector keeps as much
/// room again as it grows) and its heap block.
fn bag_item_bytes(item: &str) -> isize {
    (2 * size_of::<String>() + heap_block(item.len())) as isize
}

/// The bytes secret `k` accounts for: its name, value and domain.
fn secret_bytes(k: &str, s: &Secret) -> isize {
    let domain = match &s.domain {
        Domain::Undeclared => 0,
        Domain::Values(vs) => vs.iter().map(Value::bytes).sum::<usize>() as isize,
        Domain::Bag(bag) => text_bytes(bag),
    };
    text_bytes(k) + s.value.bytes() as isize + domain
}

fn loc(state: &State, l: i64) -> Result<Loc> {
    lift(state.check_loc(l))
}

/// A location that may be 0 (off every location).
fn loc_or_none(state: &State, l: i64) -> Result<Loc> {
    lift(state.check_loc_or_none(l))
}

fn piece(state: &State, p: i64) -> Result<PieceId> {
    lift(state.check_piece(p))
}

fn seat(state: &State, s: i64) -> Result<Seat> {
    lift(state.turn.check(s))
}

fn unit(state: &State, u: i64) -> Result<u32> {
    lift(state.turn.check_unit(u))
}

/// A piece owner: a seat, or 0 for nobody.
fn owner(state: &State, s: i64) -> Result<Seat> {
    if s == 0 { Ok(0) } else { seat(state, s) }
}

/// A list of seats of this game as a mask (none: no seat), read as `G:log` reads one.
fn seats_mask(lua: &Lua, state: &State, seats: Option<Table>) -> Result<u64> {
    let Some(t) = seats else { return Ok(0) };
    let mut mask = Ok(0);
    // SAFETY: seats_at reads the table exec_raw pushed (index 1), pops what it pushes and
    // raises nothing.
    unsafe {
        lua.exec_raw::<()>(&t, |l| {
            mask = stack::seats_at(l, 1, |s| state.turn.check(s));
        })?
    };
    lift(mask)
}

impl UserData for State {
    fn add_methods<M: UserDataMethods<Self>>(m: &mut M) {
        add_topology(m);
        add_pieces(m);
        add_turns(m);
        add_secrets_and_bags(m);
        add_pending(m);
        m.add_method_mut("reseed", |lua, this, seed: i64| {
            writable_at(lua, this)?;
            this.reseed(seed as u64);
            Ok(())
        });
        m.add_method("viewer", |_, this, ()| Ok(this.viewer.seat()));
    }
}

fn add_topology<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method_mut("place", |lua, this, name: String| {
        writable_at(lua, this)?;
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
        |lua, this, (prefix, w, h, style): (String, u32, u32, Option<String>)| {
            writable_at(lua, this)?;
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
    m.add_method_mut("track", |lua, this, (name, locs): (String, Table)| {
        writable_at(lua, this)?;
        let locs = thawed(locs)?
            .sequence_values::<i64>()
            .map(|l| loc(this, l?))
            .collect::<Result<Vec<_>>>()?;
        grow(this, text_bytes(&name) + 12 * locs.len() as isize)?;
        let id = this.topology_mut().set_track(&name, locs);
        this.forget_track(id);
        Ok(())
    });
    m.add_method_mut(
        "track_put",
        |lua, this, (p, name, i): (i64, LuaString, i64)| {
            writable_at(lua, this)?;
            let p = piece(this, p)?;
            let track = lift(this.topology.track_info(&name.to_str()?))?;
            let Some(&l) = usize::try_from(i - 1).ok().and_then(|k| track.locs.get(k)) else {
                return fail(format!(
                    "track_put: track '{}' has positions 1..{}, not {i}",
                    name.to_str()?,
                    track.locs.len()
                ));
            };
            let id = track.id;
            this.track_put(p, id, i as u32, l);
            Ok(())
        },
    );
    m.add_method("track_index", |_, this, p: i64| {
        Ok(match this.piece(piece(this, p)?).track {
            Some((t, i)) => (Some(i), Some(this.topology.track_name(t).to_string())),
            None => (None, None),
        })
    });
    m.add_method("track_positions", |_, this, (name, l): (String, i64)| {
        lift(this.topology.track_positions(&name, loc(this, l)?))
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
    m.add_method_mut("link", |lua, this, (a, b, kind): (i64, i64, String)| {
        writable_at(lua, this)?;
        let (a, b) = (loc(this, a)?, loc(this, b)?);
        grow(this, 2 * text_bytes(&kind))?;
        this.topology_mut().link(a, b, &kind);
        Ok(())
    });
    m.add_method_mut("link_to", |lua, this, (a, b, kind): (i64, i64, String)| {
        writable_at(lua, this)?;
        let (a, b) = (loc(this, a)?, loc(this, b)?);
        grow(this, text_bytes(&kind))?;
        this.topology_mut().link_to(a, b, &kind);
        Ok(())
    });
    m.add_method(
        "neighbours",
        |_, this, (l, metric): (i64, Option<String>)| {
            let metric = lift(Metric::parse(metric.as_deref()))?;
            lift(this.topology.neighbours(loc(this, l)?, metric))
        },
    );
    m.add_method(
        "distance",
        |_, this, (a, b, metric): (i64, i64, Option<String>)| {
            let metric = lift(Metric::parse(metric.as_deref()))?;
            lift(this.topology.distance(loc(this, a)?, loc(this, b)?, metric))
        },
    );
    m.add_method("links", |_, this, (l, kind): (i64, String)| {
        Ok(this.topology.links(loc(this, l)?, &kind))
    });
}

fn add_pieces<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method_mut("add", |lua, this, (kind, o, l): (String, i64, i64)| {
        writable_at(lua, this)?;
        let (o, l) = (owner(this, o)?, loc_or_none(this, l)?);
        grow(this, text_bytes(&kind) + 96)?;
        Ok(this.add_piece(&kind, o, l))
    });
    m.add_method_mut("move_top", |lua, this, (from, to): (i64, i64)| {
        writable_at(lua, this)?;
        let (from, to) = (loc(this, from)?, loc_or_none(this, to)?);
        let top = this.at(from).last().copied();
        if let Some(p) = top {
            this.move_piece(p, to);
        }
        Ok(top)
    });
    m.add_method_mut("remove", |lua, this, p: i64| {
        writable_at(lua, this)?;
        let p = piece(this, p)?;
        this.remove_piece(p);
        Ok(())
    });
    m.add_method("exists", |_, this, p: i64| Ok(this.exists(p)));
    m.add_method("at", |_, this, l: i64| Ok(this.at(loc(this, l)?).to_vec()));
    m.add_method("top", |_, this, l: i64| {
        Ok(this.at(loc(this, l)?).last().copied())
    });
    m.add_method("owner", |_, this, p: i64| {
        Ok(this.piece(piece(this, p)?).owner)
    });
    m.add_method_mut("set_kind", |lua, this, (p, k): (i64, String)| {
        writable_at(lua, this)?;
        let p = piece(this, p)?;
        grow(this, k.len() as isize - this.piece(p).kind.len() as isize)?;
        this.piece_mut(p).kind = k;
        Ok(())
    });
    m.add_method_mut("set_owner", |lua, this, (p, o): (i64, i64)| {
        writable_at(lua, this)?;
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
    m.add_method_mut("set_current", |lua, this, s: i64| {
        writable_at(lua, this)?;
        let s = seat(this, s)?;
        lift(this.turn.set_current(s))
    });
    m.add_method_mut("extra_turn", |lua, this, u: i64| {
        writable_at(lua, this)?;
        let u = unit(this, u)?;
        this.turn.extra_turn(u);
        Ok(())
    });
    m.add_method_mut("skip", |lua, this, (u, n): (i64, Option<u32>)| {
        writable_at(lua, this)?;
        let u = unit(this, u)?;
        this.turn.skip(u, n.unwrap_or(1));
        Ok(())
    });
    m.add_method_mut("set_units", |lua, this, units: Table| {
        writable_at(lua, this)?;
        let mut out = Vec::new();
        for (i, t) in units.sequence_values::<Table>().enumerate() {
            let t = t.map_err(|_| {
                mlua::Error::runtime(format!(
                    "set_units: unit {} is not a table {{name, seat, team}}",
                    i + 1
                ))
            })?;
            let at = |e: mlua::Error| {
                mlua::Error::runtime(format!("set_units: unit {}: {}", i + 1, error::message(&e)))
            };
            let name: Option<String> = t.get("name").map_err(at)?;
            let seat: Option<i64> = t.get("seat").map_err(at)?;
            let (Some(name), Some(seat)) = (name, seat) else {
                return fail(format!("set_units: unit {} needs a name and a seat", i + 1));
            };
            out.push(Unit {
                name,
                seat: u32::try_from(seat).unwrap_or(0),
                team: t.get("team").map_err(at)?,
            });
        }
        let units_bytes = |names: &mut dyn Iterator<Item = &str>| -> isize {
            names.map(|n| text_bytes(n) + 16).sum()
        };
        let old = units_bytes(&mut (1..=this.turn.units()).map(|u| this.turn.unit_name(u)));
        let new = units_bytes(&mut out.iter().map(|u| u.name.as_str()));
        lift(
            this.turn
                .set_units(out)
                .map_err(|e| format!("set_units: {e}")),
        )?;
        grow(this, new - old)
    });
    m.add_method("unit", |_, this, ()| Ok(this.turn.unit()));
    m.add_method("units", |_, this, ()| Ok(this.turn.units()));
    m.add_method("unit_name", |_, this, u: i64| {
        Ok(this.turn.unit_name(unit(this, u)?).to_string())
    });
    m.add_method("unit_seat", |_, this, u: i64| {
        Ok(this.turn.unit_seat(unit(this, u)?))
    });
    m.add_method("unit_team", |_, this, u: i64| {
        Ok(this.turn.unit_team(unit(this, u)?))
    });
    m.add_method("find_unit", |_, this, name: String| {
        Ok(this.turn.find_unit(&name))
    });
    m.add_method("direction", |_, this, ()| Ok(this.turn.direction()));
    m.add_method_mut("set_direction", |lua, this, d: i32| {
        writable_at(lua, this)?;
        this.turn.set_direction(d);
        Ok(())
    });
    m.add_method("team", |_, this, s: i64| Ok(this.turn.team(seat(this, s)?)));
    m.add_method_mut("set_team", |lua, this, (s, t): (i64, u32)| {
        writable_at(lua, this)?;
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
        |lua, this, (k, v, seats, domain): (String, LuaValue, Option<Table>, LuaValue)| {
            writable_at(lua, this)?;
            let visible = seats_mask(lua, this, seats)?;
            let domain = match domain {
                LuaValue::Nil => Domain::Undeclared,
                LuaValue::String(bag) => Domain::Bag(bag.to_str()?.to_string()),
                LuaValue::Table(t) => Domain::Values(
                    thawed(t)?
                        .sequence_values::<LuaValue>()
                        .map(|v| from_lua(lua, &v?)?.ok_or_else(|| mlua::Error::runtime("nil")))
                        .collect::<Result<_>>()?,
                ),
                other => {
                    return fail(format!(
                        "secret_set: the domain is a bag name or a list of values, not a {}",
                        other.type_name()
                    ));
                }
            };
            let old = this.secrets.get(&k).map_or(0, |s| secret_bytes(&k, s));
            let held = match from_lua(lua, &v)? {
                Some(value) => {
                    if matches!(&domain, Domain::Bag(_)) && !matches!(value, Value::Str(_)) {
                        return fail(format!("secret_set: '{k}' is drawn from a bag: its value must be an item (a string)"));
                    }
                    if matches!(&domain, Domain::Values(vs) if vs.is_empty()) {
                        return fail(format!("secret_set: '{k}': an empty list of values"));
                    }
                    let secret = Secret {
                        value,
                        visible,
                        domain,
                    };
                    let held = secret_bytes(&k, &secret);
                    this.secrets.insert(k, secret);
                    held
                }
                None => {
                    this.secrets.remove(&k);
                    0
                }
            };
            grow(this, held - old)
        },
    );
    m.add_method_mut(
        "secret_reveal",
        |lua, this, (k, s): (String, Option<i64>)| {
            writable_at(lua, this)?;
            let mask = match s {
                Some(s) => seat_bit(seat(this, s)?),
                None => ALL_SEATS,
            };
            match this.secrets.get_mut(&k) {
                Some(secret) => {
                    secret.visible |= mask;
                    Ok(())
                }
                None => fail(format!("no secret '{k}'")),
            }
        },
    );
    m.add_method_mut(
        "bag",
        |lua, this, (name, items, seats): (String, Table, Option<Table>)| {
            writable_at(lua, this)?;
            let mut items = thawed(items)?
                .sequence_values::<String>()
                .collect::<Result<Vec<_>>>()?;
            items.sort();
            let size = |items: &[String]| items.iter().map(|i| bag_item_bytes(i)).sum::<isize>();
            let old = this
                .bags
                .get(&name)
                .map_or(0, |b| size(b) + text_bytes(&name));
            grow(this, size(&items) + text_bytes(&name) - old)?;
            match seats {
                Some(t) => {
                    let mask = seats_mask(lua, this, Some(t))?;
                    this.bag_seen.insert(name.clone(), mask);
                }
                None => {
                    this.bag_seen.remove(&name);
                }
            }
            this.bags.insert(name, items);
            Ok(())
        },
    );
    m.add_method_mut("bag_add", |lua, this, (name, item): (String, String)| {
        writable_at(lua, this)?;
        grow(this, bag_item_bytes(&item))?;
        this.bag_add(&name, &item);
        Ok(())
    });
    m.add_method("bag_count", |_, this, name: String| {
        Ok(this.bags.get(&name).map_or(0, Vec::len))
    });
    m.add_method("bag_items", |lua, this, name: String| {
        if !this.bag_visible(&name, this.viewer) {
            return Err(placed(
                lua,
                format!(
                    "the contents of bag '{name}' are hidden from {} in this view",
                    viewer_name(this)
                ),
            ));
        }
        Ok(this.bags.get(&name).cloned().unwrap_or_default())
    });
}

/// The fields of a `G:push` table as found, read in one pass inside one protected call (a
/// field read through mlua costs a protected call of its own while a memory limit is set, and
/// rules push at most about once a decision), with whether each hook it names is defined.
#[derive(Default)]
struct PushFields {
    hook: Option<LuaValue>,
    args: Option<LuaValue>,
    why: Option<LuaValue>,
    seen_by: Option<LuaValue>,
    ask: Option<LuaValue>,
    options: Option<LuaValue>,
    chance: Option<LuaValue>,
    actor: Option<LuaValue>,
    prompt: Option<LuaValue>,
    auto: Option<LuaValue>,
    none: Option<LuaValue>,
    params: Vec<(&'static str, LuaValue)>,
    /// Which of hook, ask and none name a function of the global `hook` (bits 0, 1, 2).
    defined: u8,
}

impl PushFields {
    fn read(lua: &Lua, t: &Table) -> Result<PushFields> {
        let mut out = None;
        // SAFETY: inside exec_raw's protected call, t at index 1; every value pushed is popped,
        // and nothing raises while a Rust value that needs dropping is alive on this frame.
        unsafe {
            lua.exec_raw::<()>(t, |l| {
                out = Some(lua.exec_raw_lua(|raw| PushFields::read_raw(raw, l)));
            })?
        };
        out.expect("exec_raw ran the closure")
    }

    /// # Safety
    /// The table is at index 1 of `l`, inside a protected call.
    unsafe fn read_raw(raw: &mlua::state::RawLua, l: *mut ffi::lua_State) -> Result<PushFields> {
        let mut f = PushFields::default();
        // SAFETY (whole body): per the contract; lua_next on keys only read, each value becomes
        // an mlua value while it is on top.
        unsafe {
            if ffi::lua_checkstack(l, 6) == 0 {
                return fail("push: out of Lua stack");
            }
            // The global `hook` (a read-only view: its values are in the table behind it).
            ffi::lua_rawgeti(l, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_GLOBALS);
            ffi::lua_pushstring(l, c"hook".as_ptr());
            ffi::lua_rawget(l, -2);
            let hooks = ffi::lua_gettop(l);
            stack::with_thawed(l, hooks, |hooks| -> Result<()> {
                ffi::lua_pushnil(l);
                while ffi::lua_next(l, 1) != 0 {
                    let key = stack::bytes_at(l, -2).unwrap_or_default();
                    let hook_bit = match key {
                        b"hook" => 1,
                        b"ask" => 2,
                        b"none" => 4,
                        _ => 0,
                    };
                    if hook_bit != 0
                        && ffi::lua_type(l, hooks) == ffi::LUA_TTABLE
                        && ffi::lua_type(l, -1) == ffi::LUA_TSTRING
                    {
                        ffi::lua_pushvalue(l, -1);
                        if ffi::lua_rawget(l, hooks) == ffi::LUA_TFUNCTION {
                            f.defined |= hook_bit;
                        }
                        ffi::lua_pop(l, 1);
                    }
                    let slot = match key {
                        b"hook" => &mut f.hook,
                        b"args" => &mut f.args,
                        b"why" => &mut f.why,
                        b"seen_by" => &mut f.seen_by,
                        b"ask" => &mut f.ask,
                        b"options" => &mut f.options,
                        b"chance" => &mut f.chance,
                        b"actor" => &mut f.actor,
                        b"prompt" => &mut f.prompt,
                        b"auto" => &mut f.auto,
                        b"none" => &mut f.none,
                        key => {
                            if let Some(p) = STATUS_PARAMS.iter().find(|p| p.as_bytes() == key) {
                                f.params.push((p, LuaValue::from_stack(-1, raw)?));
                            }
                            ffi::lua_pop(l, 1);
                            continue;
                        }
                    };
                    *slot = Some(LuaValue::from_stack(-1, raw)?);
                    ffi::lua_pop(l, 1);
                }
                Ok(())
            })?;
            ffi::lua_pop(l, 2);
        }
        // The parameters in STATUS_PARAMS order, whatever the table's own: the first one that
        // does not convert is the one reported.
        f.params
            .sort_by_key(|(p, _)| STATUS_PARAMS.iter().position(|q| q == p));
        Ok(f)
    }

    /// Field `field` (`hook`, `ask` or `none`) as the name of a hook the rules define.
    fn hook_name(
        lua: &Lua,
        value: Option<LuaValue>,
        defined: bool,
        field: &str,
    ) -> Result<Option<String>> {
        let Some(name) = Option::<String>::from_lua(value.unwrap_or(LuaValue::Nil), lua)? else {
            return Ok(None);
        };
        if !defined {
            return fail(format!(
                "push: {field} names the hook '{name}', which no rule file defines"
            ));
        }
        Ok(Some(name))
    }
}

/// `field` of a push table as a `T` (nil: `None`), as mlua converts a value read from it.
fn field<T: FromLua>(lua: &Lua, value: Option<LuaValue>) -> Result<Option<T>> {
    Option::<T>::from_lua(value.unwrap_or(LuaValue::Nil), lua)
}

/// `G:push{hook=…, args=…, why=…, seen_by=…, chance=…, <chance parameters> | actor=…,
/// options=…, prompt=… | ask=…, auto=…, none=…}`: a continuation (see kernel::pending and
/// docs/lua-api.md). Fields are read raw, as a status is: no metamethod of the rules' table
/// runs inside the kernel's read.
fn continuation(lua: &Lua, state: &State, t: &Table) -> Result<Continuation> {
    let f = PushFields::read(lua, t)?;
    let hook = PushFields::hook_name(lua, f.hook, f.defined & 1 != 0, "hook")?
        .ok_or_else(|| mlua::Error::runtime("push: no hook"))?;
    let mut args = Vec::new();
    if let Some(list) = field::<Table>(lua, f.args)? {
        for (i, v) in thawed(list)?.sequence_values::<LuaValue>().enumerate() {
            let v = from_lua(lua, &v?)?
                .ok_or_else(|| mlua::Error::runtime(format!("push: args[{}] is nil", i + 1)))?;
            args.push(v);
        }
    }
    let why = field::<String>(lua, f.why)?.unwrap_or_default();
    let seen_by = match field::<Table>(lua, f.seen_by)? {
        Some(seats) => seats_mask(lua, state, Some(seats))?,
        None => ALL_SEATS,
    };
    let ask = PushFields::hook_name(lua, f.ask, f.defined & 2 != 0, "ask")?;
    let options = match field::<Table>(lua, f.options)? {
        Some(o) => Some(
            thawed(o)?
                .sequence_values::<String>()
                .collect::<Result<Vec<_>>>()?,
        ),
        None => None,
    };
    let wait = if let Some(name) = field::<String>(lua, f.chance)? {
        let mut params = Vec::new();
        for (p, v) in f.params {
            if let Some(v) = from_lua(lua, &v)? {
                params.push((p.to_string(), v));
            }
        }
        params.sort_by(|a, b| a.0.cmp(&b.0));
        Wait::Chance(name, params)
    } else if ask.is_some() || options.is_some() {
        let actor = match field::<i64>(lua, f.actor)? {
            Some(a) => seat(state, a)?,
            None if ask.is_some() => 0,
            None => return fail("push: a decision without an actor"),
        };
        Wait::Decision(Decision {
            ask,
            actor,
            options,
            prompt: field::<String>(lua, f.prompt)?.unwrap_or_default(),
            auto: field::<bool>(lua, f.auto)?.unwrap_or(false),
            none: PushFields::hook_name(lua, f.none, f.defined & 4 != 0, "none")?,
        })
    } else {
        Wait::Step
    };
    Ok(Continuation {
        hook,
        args,
        why,
        wait,
        seen_by,
    })
}

fn add_pending<M: UserDataMethods<State>>(m: &mut M) {
    m.add_method_mut("push", |lua, this, t: Table| {
        writable_at(lua, this)?;
        let c =
            continuation(lua, this, &thawed(t)?).map_err(|e| placed(lua, error::message(&e)))?;
        grow(this, c.bytes() as isize)?;
        this.pending.push(c);
        Ok(())
    });
    // The stack, top last: one table per continuation ({hook, args, why, waits}); in a view,
    // a continuation the viewer may not see has no args.
    m.add_method("pending", |lua, this, ()| {
        let out = lua.create_table()?;
        for (i, c) in this.pending.iter().enumerate() {
            let e = lua.create_table()?;
            e.raw_set("hook", c.hook.as_str())?;
            if this.viewer.sees(c.seen_by()) {
                e.raw_set("args", list_table(lua, &c.args)?)?;
            }
            e.raw_set("why", c.why.as_str())?;
            let waits = match &c.wait {
                Wait::Step => "step",
                Wait::Chance(..) => "chance",
                Wait::Decision(_) => "decision",
            };
            e.raw_set("waits", waits)?;
            out.raw_set(i + 1, e)?;
        }
        Ok(out)
    });
}
