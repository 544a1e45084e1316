//! What a game waits for, read from the status table the rules return.
//!
//! A hook that changes the state returns the status that follows (docs/lua-api.md), twice a
//! move in a simulation. Its fields are read off the Lua stack as the call returns, with
//! `lua_next`, which neither allocates nor raises: no protected call and no registry slot per
//! field. Only the options table (and an ending's scores) become mlua values.

use std::collections::BTreeMap;
use std::ffi::c_int;
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use mlua::state::RawLua;
use mlua::{FromLua, FromLuaMulti, Lua, MultiValue, Table, Value as LuaValue, ffi};

use crate::kernel::view::{ALL_SEATS, seat_bit};
use crate::kernel::{Randomizer, Seat};
use crate::script::handle::api::STATUS_PARAMS;
use crate::script::handle::stack::{bytes_at, seats_at, str_at, thawed, type_name};
use crate::script::ruleset::randomizers::with_params;

/// What the game waits for.
#[derive(Clone, Debug)]
pub enum Status {
    /// A chance event of the named randomizer; with the parameters the status gave for this
    /// event, the randomizer that draws it.
    Chance(String, Option<Rc<Randomizer>>),
    /// A decision by `actor` among `count` options.
    Decision {
        actor: Seat,
        options: Table,
        count: usize,
        prompt: String,
    },
    /// The game is over.
    Over { scores: Vec<f64>, result: String },
}

/// What a hook returned: a table's status fields, or `None` for anything else (which no
/// caller reads). Boxed: the fields are large, and a reply is handed up through several calls.
pub struct Reply(pub Option<Box<Fields>>);

/// The status fields of a table as found; `status` checks them.
#[derive(Default)]
pub struct Fields {
    /// The text, or what is wrong with it.
    chance: Option<Result<String, String>>,
    over: bool,
    /// `Some(None)`: present but not an integer.
    actor: Option<Option<i64>>,
    prompt: Option<Result<String, String>>,
    /// The table and its length, or the type it has instead.
    options: Option<Result<(Table, usize), String>>,
    scores: Option<mlua::Result<Vec<f64>>>,
    result: Option<mlua::Result<String>>,
    /// `seen_by`: the seats that see a decision's options and choice or a chance outcome,
    /// as a mask, or what is wrong with it.
    seen_by: Option<Result<u64, String>>,
    /// A chance event's parameters for this event (`weights`, `faces`, …).
    params: Vec<(&'static str, LuaValue)>,
}

impl Fields {
    /// Reads the fields of the table at `t`.
    ///
    /// # Safety
    /// `t` is an absolute index of a table on the stack of `lua`'s main state.
    unsafe fn read(lua: &RawLua, t: c_int) -> mlua::Result<Box<Fields>> {
        let l = lua.state();
        let mut f = Box::<Fields>::default();
        // SAFETY (whole body): lua_next on a table whose keys are only read (numbers are never
        // converted in place: str_at checks the type); a value becomes an mlua value while it
        // is on top.
        unsafe {
            if ffi::lua_checkstack(l, 3) == 0 {
                return Err(mlua::Error::runtime("status: out of Lua stack"));
            }
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, t) != 0 {
                match bytes_at(l, -2).unwrap_or_default() {
                    b"chance" => f.chance = Some(text(l, "chance")),
                    b"over" => f.over = ffi::lua_toboolean(l, -1) != 0,
                    b"actor" => {
                        let mut ok = 0;
                        let v = ffi::lua_tointegerx(l, -1, &mut ok);
                        f.actor = Some((ok != 0).then_some(v));
                    }
                    b"prompt" => f.prompt = Some(text(l, "prompt")),
                    b"options" => {
                        f.options = Some(if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                            let t = Table::from_stack(-1, lua)?;
                            if ffi::lua_getmetatable(l, -1) == 0 {
                                Ok((t, ffi::lua_rawlen(l, -1)))
                            } else {
                                ffi::lua_pop(l, 1);
                                let t = thawed(t)?;
                                let n = t.raw_len();
                                Ok((t, n))
                            }
                        } else {
                            Err(type_name(l, -1).to_string())
                        })
                    }
                    b"scores" => f.scores = Some(Vec::from_stack(-1, lua)),
                    b"result" => f.result = Some(String::from_stack(-1, lua)),
                    b"seen_by" => f.seen_by = Some(seats_mask(l)),
                    key => {
                        if let Some(p) = STATUS_PARAMS.iter().find(|p| p.as_bytes() == key) {
                            f.params.push((p, LuaValue::from_stack(-1, lua)?));
                        }
                    }
                }
                ffi::lua_pop(l, 1);
            }
        }
        Ok(f)
    }

    /// The seats that may see what this status decides (the actor of a decision always
    /// does); [`ALL_SEATS`] unless the status lists them in `seen_by`.
    pub fn seen_by(&self) -> Result<u64> {
        let mask = match &self.seen_by {
            None => return Ok(ALL_SEATS),
            Some(m) => m.clone().map_err(|e| anyhow!("status: seen_by: {e}"))?,
        };
        Ok(match self.actor {
            Some(Some(a)) if (1..=64).contains(&a) => mask | seat_bit(a as Seat),
            _ => mask,
        })
    }

    /// The status these fields describe, or what is wrong with them. A chance must be one of
    /// `randomizers`; a game over gives one finite score to each of its `seats`.
    pub fn status(
        mut self,
        lua: &Lua,
        randomizers: &BTreeMap<String, Randomizer>,
        seats: u32,
    ) -> Result<Status> {
        let malformed = |e: String| anyhow!("status returned a malformed table: {e}");
        if let Some(chance) = self.chance {
            let name = chance.map_err(malformed)?;
            let Some((name, base)) = randomizers.get_key_value(&name) else {
                bail!("status asks for chance '{name}', which no rule declares in randomizers");
            };
            self.params.sort_by_key(|(k, _)| *k);
            let params = match self.params.as_slice() {
                [] => None,
                given => Some(Rc::new(
                    with_params(lua, base, given).map_err(|e| anyhow!(e))?,
                )),
            };
            return Ok(Status::Chance(name.clone(), params));
        }
        if self.over {
            let bad = |e: mlua::Error| malformed(e.to_string());
            // without them every game would end as a draw, and every study count none won
            let Some(scores) = self.scores.transpose().map_err(bad)? else {
                bail!(
                    "status says the game is over but gives no scores (scores = {{ … }}, one number a seat)"
                );
            };
            if scores.len() != seats as usize || scores.iter().any(|s| !s.is_finite()) {
                bail!(
                    "status says the game is over with {} scores for {seats} seats (one finite number a seat)",
                    scores.len()
                );
            }
            return Ok(Status::Over {
                scores,
                result: self.result.transpose().map_err(bad)?.unwrap_or_default(),
            });
        }
        let actor = match self.actor {
            Some(Some(a)) if (1..=Seat::MAX as i64).contains(&a) => a as Seat,
            _ => {
                return Err(malformed(
                    "status must return {chance=…}, {actor=…, options=…} or {over=true}".into(),
                ));
            }
        };
        let prompt = match self.prompt {
            None => String::new(),
            Some(p) => p.map_err(malformed)?,
        };
        let Some(Ok((options, count))) = self.options else {
            bail!("status offers seat {actor} a decision without an options table");
        };
        if count == 0 {
            bail!("status offers seat {actor} a decision with no options");
        }
        Ok(Status::Decision {
            actor,
            options,
            count,
            prompt,
        })
    }
}

/// The list of seats on top of the stack as a mask.
///
/// # Safety
/// A value is on top of `l`'s stack.
unsafe fn seats_mask(l: *mut ffi::lua_State) -> Result<u64, String> {
    // SAFETY: per the contract.
    unsafe {
        seats_at(l, ffi::lua_gettop(l), |s| {
            (1..=64)
                .contains(&s)
                .then_some(s as Seat)
                .ok_or_else(|| "not a seat".to_string())
        })
    }
}

/// The string on top of the stack (field `what`), or what is wrong with it.
///
/// # Safety
/// A value is on top of `l`'s stack.
unsafe fn text(l: *mut ffi::lua_State, what: &str) -> Result<String, String> {
    // SAFETY: per the contract.
    unsafe {
        match str_at(l, -1) {
            Some(s) => s.map(str::to_string),
            None => Err(format!("{what} is a {}, not text", type_name(l, -1))),
        }
    }
}

impl FromLuaMulti for Reply {
    fn from_lua_multi(values: MultiValue, lua: &Lua) -> mlua::Result<Reply> {
        match values.into_iter().next() {
            Some(LuaValue::Table(t)) => {
                let mut fields = None;
                // SAFETY: exec_raw pushes the table at index 1; Fields::read pops what it pushes.
                unsafe {
                    lua.exec_raw::<()>(&t, |l| {
                        fields = Some(lua.exec_raw_lua(|raw| Fields::read(raw, 1)));
                        ffi::lua_settop(l, 0);
                    })?
                };
                Ok(Reply(Some(fields.expect("exec_raw ran the closure")?)))
            }
            _ => Ok(Reply(None)),
        }
    }

    unsafe fn from_stack_multi(nvals: c_int, lua: &RawLua) -> mlua::Result<Reply> {
        let l = lua.state();
        // SAFETY: the call's results are the top `nvals` values.
        unsafe {
            let first = ffi::lua_absindex(l, -nvals);
            if nvals > 0 && ffi::lua_type(l, first) == ffi::LUA_TTABLE {
                Fields::read(lua, first).map(|f| Reply(Some(f)))
            } else {
                Ok(Reply(None))
            }
        }
    }
}

/// Whether two statuses ask the same thing: options compare by value, table options by label.
pub fn same_status(a: &Status, b: &Status) -> Result<bool> {
    Ok(match (a, b) {
        (Status::Chance(x, p), Status::Chance(y, q)) => x == y && p == q,
        (
            Status::Over {
                scores: s,
                result: r,
            },
            Status::Over {
                scores: t,
                result: q,
            },
        ) => s == t && r == q,
        (
            Status::Decision {
                actor: a1,
                options: o1,
                count: n1,
                prompt: p1,
            },
            Status::Decision {
                actor: a2,
                options: o2,
                count: n2,
                prompt: p2,
            },
        ) => {
            if a1 != a2 || n1 != n2 || p1 != p2 {
                return Ok(false);
            }
            for i in 1..=*n1 {
                let (x, y): (LuaValue, LuaValue) = (o1.raw_get(i)?, o2.raw_get(i)?);
                let same = match (&x, &y) {
                    (LuaValue::Table(x), LuaValue::Table(y)) => {
                        x.raw_get::<Option<String>>("label")?
                            == y.raw_get::<Option<String>>("label")?
                    }
                    _ => x == y,
                };
                if !same {
                    return Ok(false);
                }
            }
            true
        }
        _ => false,
    })
}

/// A status in a few words, for error messages.
pub fn describe_status(s: &Status) -> String {
    match s {
        Status::Chance(name, _) => format!("chance '{name}'"),
        Status::Over { result, .. } => format!("over ({result})"),
        Status::Decision {
            actor,
            count,
            prompt,
            ..
        } => format!("seat {actor}: {count} options, \"{prompt}\""),
    }
}
