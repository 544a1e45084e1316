//! A running game: the kernel state handed to the rules as `G`, and the decision loop around
//! it — what the game waits for, the options, applying one, resolving a chance event.

use std::ffi::CStr;
use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use mlua::{AnyUserData, Function, Table, Value as LuaValue, ffi};

use crate::kernel::{Outcome, Seat, State};
use crate::script::Rules;
use crate::script::api::list_table;
use crate::script::error::describe;
use crate::script::stack::{str_at, type_name};

/// What the game waits for.
#[derive(Clone, Debug)]
pub enum Status {
    /// A chance event of the named randomizer.
    Chance(String),
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

pub struct Game {
    pub rules: Rc<Rules>,
    g: AnyUserData,
    status: Option<Status>,
    /// Labels of the current decision, computed once per status.
    labels: Option<Vec<String>>,
    /// Roll back the state when a rule fails (off in simulations, where a failure ends the game).
    pub transactional: bool,
    /// Compare a status that `apply` or `chance` returns with the status hook's (off in
    /// simulations, which take it as it comes).
    pub check_returned_status: bool,
}

impl Game {
    /// A new game of `seats` players with the rules' setup applied.
    pub fn new(rules: Rc<Rules>, seats: u32, seed: u64) -> Result<Game> {
        let s = &rules.seats;
        if !(s.min..=s.max).contains(&seats) {
            bail!(
                "{} is played by {}–{} players, not {seats}",
                rules.game,
                s.min,
                s.max
            );
        }
        let state = State::new(s.names(seats), seed, rules.switches.clone());
        let mut game = Game::from_state(rules, state)?;
        game.call_hook("setup", ())?;
        Ok(game)
    }

    /// A game in `state`, as it is (no setup).
    pub fn from_state(rules: Rc<Rules>, state: State) -> Result<Game> {
        let g = crate::script::raw::handle(&rules.host.lua, state)?;
        Ok(Game {
            rules,
            g,
            status: None,
            labels: None,
            transactional: true,
            check_returned_status: true,
        })
    }

    /// Runs a hook under limits with `G` first; on failure the state is as it was.
    fn call_hook<A: mlua::IntoLuaMulti>(&mut self, name: &str, args: A) -> Result<LuaValue> {
        self.change(name, args, false)
    }

    /// Runs a hook that changes the state. With `next_status`, a table it returns is the
    /// status that follows: a simulation then crosses into Lua once per event instead of
    /// twice. Interactive play checks that table against the status hook, and an action
    /// whose status disagrees fails like any other rule error.
    fn change<A: mlua::IntoLuaMulti>(
        &mut self,
        name: &str,
        args: A,
        next_status: bool,
    ) -> Result<LuaValue> {
        let rules = self.rules.clone();
        let f = rules.required_hook(name)?;
        let before = self.transactional.then(|| self.snapshot());
        self.status = None;
        self.labels = None;
        let result = rules
            .host
            .limits
            .run(&rules.host.lua, || f.call::<LuaValue>((&self.g, args)))
            .map_err(describe)
            .and_then(|v| match (&v, next_status) {
                (LuaValue::Table(t), true) => {
                    self.adopt_status(name, t)?;
                    Ok(LuaValue::Nil)
                }
                _ => Ok(v),
            });
        if let (Err(_), Some(before)) = (&result, before) {
            self.restore(before);
        }
        result
    }

    /// Takes the status a hook returned; in interactive play only after comparing it with
    /// what the status hook says.
    fn adopt_status(&mut self, hook: &str, t: &Table) -> Result<()> {
        let given = self.parse_status(t)?;
        if !self.check_returned_status {
            self.status = Some(given);
            return Ok(());
        }
        let fresh = self.status()?.clone();
        if !same_status(&given, &fresh)? {
            bail!(
                "{hook} returned a status unlike the status hook's: {} vs {}",
                describe_status(&given),
                describe_status(&fresh)
            );
        }
        Ok(())
    }

    /// Calls a hook that only reads the state.
    fn query<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
        &self,
        f: &Function,
        args: A,
    ) -> Result<R> {
        let host = &self.rules.host;
        host.limits
            .run(&host.lua, || f.call::<R>((&self.g, args)))
            .map_err(describe)
    }

    fn hook(&self, name: &str) -> Result<Function> {
        self.rules.required_hook(name).cloned()
    }

    pub fn has_hook(&self, name: &str) -> bool {
        self.rules.hook(name).is_some()
    }

    /// A copy of the whole state: an undo point.
    pub fn snapshot(&self) -> State {
        self.g
            .borrow::<State>()
            .expect("state is not borrowed")
            .clone()
    }

    pub fn restore(&mut self, state: State) {
        *self.g.borrow_mut::<State>().expect("state is not borrowed") = state;
        self.status = None;
        self.labels = None;
    }

    /// Reads the state.
    pub fn with_state<R>(&self, f: impl FnOnce(&State) -> R) -> R {
        f(&self.g.borrow::<State>().expect("state is not borrowed"))
    }

    /// Changes the state outside the rules (e.g. logging on or off).
    pub fn with_state_mut<R>(&mut self, f: impl FnOnce(&mut State) -> R) -> R {
        self.status = None;
        self.labels = None;
        f(&mut self.g.borrow_mut::<State>().expect("state is not borrowed"))
    }

    /// The state handle, for evaluating Lua against the game.
    pub fn handle(&self) -> &AnyUserData {
        &self.g
    }

    /// What the game waits for now (computed once per state).
    pub fn status(&mut self) -> Result<&Status> {
        if self.status.is_none() {
            let rules = self.rules.clone();
            let t: Table = self
                .query(rules.required_hook("status")?, ())
                .map_err(|e| anyhow!("status: {e}"))?;
            self.status = Some(self.parse_status(&t)?);
        }
        Ok(self.status.as_ref().expect("just computed"))
    }

    /// Reads a status table. Its fields are read with the C API in one protected call
    /// (through mlua, every field costs a call and a registry slot; this runs twice a move).
    fn parse_status(&self, t: &Table) -> Result<Status> {
        let mut fields = Err(String::new());
        // SAFETY: status_fields reads the table exec_raw pushed and leaves one value.
        let options: LuaValue = unsafe {
            self.rules
                .host
                .lua
                .exec_raw(t, |l| fields = status_fields(l))?
        };
        match fields.map_err(|e| anyhow!("status returned a malformed table: {e}"))? {
            StatusFields::Chance(name) => {
                let Some((name, _)) = self.rules.randomizers.get_key_value(&name) else {
                    bail!(
                        "status asks for chance '{name}', which game.lua does not declare in randomizers"
                    );
                };
                Ok(Status::Chance(name.clone()))
            }
            StatusFields::Over => {
                let bad = |e: mlua::Error| anyhow!("status returned a malformed table: {e}");
                let scores = t.raw_get::<Option<Vec<f64>>>("scores").map_err(bad)?;
                let result = t.raw_get::<Option<String>>("result").map_err(bad)?;
                Ok(Status::Over {
                    scores: scores.unwrap_or_default(),
                    result: result.unwrap_or_default(),
                })
            }
            StatusFields::Decision { actor, prompt } => {
                let LuaValue::Table(options) = options else {
                    bail!("status offers seat {actor} a decision without an options table");
                };
                let count = options.raw_len();
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
    }

    /// The label of option i (0-based) of the current decision.
    pub fn label(&mut self, i: usize) -> Result<String> {
        if let Some(label) = self.labels.as_ref().and_then(|l| l.get(i)) {
            return Ok(label.clone());
        }
        let Status::Decision { options, .. } = self.status()?.clone() else {
            bail!("the game is not waiting for a decision");
        };
        let opt: LuaValue = options.raw_get(i + 1)?;
        let own = match &opt {
            LuaValue::String(s) => Some(s.to_str()?.to_string()),
            LuaValue::Table(t) => t.raw_get::<Option<String>>("label")?,
            LuaValue::Integer(_) | LuaValue::Number(_) => None,
            other => bail!(
                "option {} is a {}; options are strings, numbers or tables",
                i + 1,
                other.type_name()
            ),
        };
        match own {
            Some(label) => Ok(label),
            None => {
                let f = self.hook("label").map_err(|_| {
                    anyhow!(
                        "option {} has no label and the game has no label hook",
                        i + 1
                    )
                })?;
                self.query(&f, opt)
            }
        }
    }

    /// All labels of the current decision, in order (computed once per decision).
    pub fn labels(&mut self) -> Result<Vec<String>> {
        if self.labels.is_none() {
            let n = match self.status()? {
                Status::Decision { count, .. } => *count,
                _ => return Ok(vec![]),
            };
            let labels = (0..n).map(|i| self.label(i)).collect::<Result<Vec<_>>>()?;
            self.labels = Some(labels);
        }
        Ok(self.labels.clone().expect("just computed"))
    }

    /// Applies option i (0-based) of the current decision.
    pub fn apply(&mut self, i: usize) -> Result<()> {
        let Status::Decision { options, count, .. } = self.status()? else {
            bail!("the game is not waiting for a decision");
        };
        if i >= *count {
            bail!("there is no option {} (1..{count})", i + 1);
        }
        let opt: LuaValue = options.raw_get(i + 1)?;
        self.change("apply", opt, true)?;
        Ok(())
    }

    /// Resolves the pending chance event with `outcome`.
    pub fn chance(&mut self, name: &str, outcome: &Outcome) -> Result<()> {
        let t = list_table(&self.rules.host.lua, outcome)?;
        self.change("chance", (name, t), true)?;
        Ok(())
    }

    /// Draws the pending chance event from its stream, or takes `forced` words, and applies it.
    pub fn resolve_chance(&mut self, forced: Option<&[&str]>) -> Result<(String, Outcome)> {
        let Status::Chance(name) = self.status()?.clone() else {
            bail!("the game is not waiting for a chance event");
        };
        let rules = self.rules.clone();
        let randomizer = &rules.randomizers[&name];
        let before = self.transactional.then(|| self.snapshot());
        let outcome = self.with_state_mut(|s| match forced {
            Some(words) => {
                randomizer.burn(s);
                randomizer.force(words, s)
            }
            None => randomizer.draw(s),
        });
        let outcome = match outcome {
            Ok(o) => o,
            Err(e) => {
                if let Some(before) = before {
                    self.restore(before);
                }
                bail!("{e}");
            }
        };
        if let Err(e) = self.chance(&name, &outcome) {
            if let Some(before) = before {
                self.restore(before);
            }
            return Err(e);
        }
        Ok((name, outcome))
    }

    /// A text hook (render, export) with extra arguments.
    pub fn text_hook<A: mlua::IntoLuaMulti>(&self, name: &str, args: A) -> Result<String> {
        let f = self.hook(name)?;
        self.query(&f, args)
    }

    /// Sets the position from text (the game's format).
    pub fn import(&mut self, text: &str) -> Result<()> {
        self.call_hook("import", text.to_string())?;
        Ok(())
    }

    /// Calls the game's input parser (`parse` hook) on a move typed by the user: the index of
    /// the option it denotes, or the parser's error.
    pub fn parse_input(&mut self, text: &str) -> Result<Option<usize>> {
        let Some(f) = self.rules.hook("parse").cloned() else {
            return Ok(None);
        };
        let Status::Decision { options, .. } = self.status()?.clone() else {
            return Ok(None);
        };
        let i: Option<usize> = self.query(&f, (text.to_string(), options))?;
        Ok(i.map(|i| i - 1))
    }
}

/// What a status table asks for; a decision's options stay on the Lua stack.
enum StatusFields {
    Chance(String),
    Over,
    Decision { actor: Seat, prompt: String },
}

/// Reads the status table at stack index 1 and leaves only its `options` field (or nil).
///
/// # Safety
/// Runs inside a protected call with the table at index 1 and room for three values. All
/// keys are pushed before a Rust string is made, so an allocation error leaks nothing.
unsafe fn status_fields(l: *mut ffi::lua_State) -> Result<StatusFields, String> {
    // SAFETY (whole body): per the contract; short C strings hit Lua's string cache.
    unsafe {
        let field = |name: &CStr| {
            ffi::lua_pushstring(l, name.as_ptr());
            ffi::lua_rawget(l, 1)
        };
        // Stack: 1 table, 2 chance, 3 over, 4 actor, 5 prompt, 6 options.
        field(c"chance");
        field(c"over");
        field(c"actor");
        field(c"prompt");
        field(c"options");
        let text = |i: i32, what: &str| match str_at(l, i) {
            Some(s) => s.map(str::to_string),
            None => Err(format!("{what} is a {}, not text", type_name(l, i))),
        };
        let mut ok = 0;
        let actor = ffi::lua_tointegerx(l, 4, &mut ok);
        let fields = if ffi::lua_type(l, 2) != ffi::LUA_TNIL {
            text(2, "chance").map(StatusFields::Chance)
        } else if ffi::lua_toboolean(l, 3) != 0 {
            Ok(StatusFields::Over)
        } else if ok == 0 || !(1..=Seat::MAX as i64).contains(&actor) {
            Err("status must return {chance=…}, {actor=…, options=…} or {over=true}".into())
        } else if ffi::lua_type(l, 5) == ffi::LUA_TNIL {
            Ok(StatusFields::Decision {
                actor: actor as Seat,
                prompt: String::new(),
            })
        } else {
            text(5, "prompt").map(|prompt| StatusFields::Decision {
                actor: actor as Seat,
                prompt,
            })
        };
        ffi::lua_replace(l, 1);
        ffi::lua_settop(l, 1);
        fields
    }
}

/// Whether two statuses ask the same thing: options compare by value, table options by label.
fn same_status(a: &Status, b: &Status) -> Result<bool> {
    Ok(match (a, b) {
        (Status::Chance(x), Status::Chance(y)) => x == y,
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
fn describe_status(s: &Status) -> String {
    match s {
        Status::Chance(name) => format!("chance '{name}'"),
        Status::Over { result, .. } => format!("over ({result})"),
        Status::Decision {
            actor,
            count,
            prompt,
            ..
        } => format!("seat {actor}: {count} options, \"{prompt}\""),
    }
}
