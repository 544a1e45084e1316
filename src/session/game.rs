//! A running game: the kernel state handed to the rules as `G`, and the decision loop around
//! it — what the game waits for, the options, applying one, resolving a chance event.

use std::rc::Rc;

use anyhow::{Result, anyhow, bail};
use mlua::{AnyUserData, FromLuaMulti, Function, MultiValue, Table, Value as LuaValue};

use super::driven::{self, Choose, First, Hooks, Taken};
use super::status::{Fields, Reply, Status, describe_status, same_status};
use crate::kernel::randomizer::{Kind, Outcomes};
use crate::kernel::state::{Continuation, Decision, Wait};
use crate::kernel::view::ALL_SEATS;
use crate::kernel::{Outcome, Seat, State, Value, Viewer};
use crate::script::Rules;
use crate::script::handle::api::{STATUS_PARAMS, list_table_between, to_lua};
use crate::script::lua::error::describe;
use crate::script::ruleset::randomizers::with_params;

/// Continuations one event may run, and chance events one step may draw in its middle: more
/// is a chain that does not end.
pub(super) const MAX_CONTINUATIONS: usize = 100_000;

pub struct Game {
    pub rules: Rc<Rules>,
    g: AnyUserData,
    status: Option<Status>,
    /// Whether `status` came from the pending stack's top (so `apply` and a chance event
    /// resume it), known without reading the state again.
    status_pending: bool,
    /// Labels of the current decision, computed once per status.
    labels: Option<Vec<String>>,
    /// The seats that see the current status's options, choice or outcome (its `seen_by`).
    seen_by: u64,
    /// Roll back the state when a rule fails (off in simulations, where a failure ends the game).
    pub transactional: bool,
    /// Compare a status that `apply` or `chance` returns with the status hook's (off in
    /// simulations, which take it as it comes).
    pub check_returned_status: bool,
    /// Whom `render`, `export` and `parse` run for (the REPL's `as <seat>`).
    pub view: Viewer,
}

impl Game {
    /// Drops what only interactive play needs, for a game a simulation plays to its end:
    /// transactions (a failure ends the game), the check of the statuses hooks return, and the
    /// log.
    pub fn simulated(&mut self) {
        self.transactional = false;
        self.check_returned_status = false;
        self.with_state_mut(|s| s.logging = false);
    }

    /// A new game of `seats` players with the rules' setup applied.
    pub fn new(rules: Rc<Rules>, seats: u32, seed: u64) -> Result<Game> {
        Game::with_secret_seed(rules, seats, seed, None)
    }

    /// As [`Game::new`], with the seed of the secret streams given (by default it is derived
    /// from `seed`).
    pub fn with_secret_seed(
        rules: Rc<Rules>,
        seats: u32,
        seed: u64,
        secret_seed: Option<u64>,
    ) -> Result<Game> {
        let s = &rules.seats;
        if !s.allows(seats) {
            bail!(
                "{} is played by {} players, not {seats}",
                rules.game,
                s.allowed()
            );
        }
        let mut state = State::new(s.names(seats), seed, rules.switches.clone());
        if s.by_units {
            state.turn.show_by_units();
        }
        if let Some(secret) = secret_seed {
            state.set_secret_seed(secret);
        }
        for (bag, items) in &rules.bags {
            for item in items {
                state.bag_add(bag, item);
            }
        }
        let mut game = Game::from_state(rules, state)?;
        game.call_hook("setup", ())?;
        Ok(game)
    }

    /// A game in `state`, as it is (no setup).
    pub fn from_state(rules: Rc<Rules>, mut state: State) -> Result<Game> {
        state.max_bytes = rules.host.limits.memory();
        let g = crate::script::handle::raw::handle(&rules.host.lua, state)?;
        Ok(Game {
            rules,
            g,
            status: None,
            status_pending: false,
            labels: None,
            seen_by: ALL_SEATS,
            transactional: true,
            check_returned_status: true,
            view: Viewer::Referee,
        })
    }

    /// An independent game (same rules, its own state) in which every value `seat` may not
    /// see is resampled from its declared domain, consistently with what the seat has seen:
    /// the state a bot of that seat may search (as OpenSpiel's `ResampleFromInfostate`). For
    /// a game without secrets it is an exact copy. See `kernel::view::determinize`.
    pub fn determinize(&self, seat: Seat, seed: u64) -> Result<Game> {
        let state = self.determinized_state(seat, seed)?;
        let mut game = Game::from_state(self.rules.clone(), state)?;
        game.transactional = self.transactional;
        game.check_returned_status = self.check_returned_status;
        Ok(game)
    }

    /// The state of [`Game::determinize`], for a bot that keeps one scratch game.
    pub fn determinized_state(&self, seat: Seat, seed: u64) -> Result<State> {
        let mut state = self.snapshot();
        state.turn.check(i64::from(seat)).map_err(|e| anyhow!(e))?;
        state.read_only = false;
        state.viewer = Viewer::Referee;
        crate::kernel::view::determinize(&mut state, seat, seed).map_err(|e| anyhow!(e))?;
        Ok(state)
    }

    /// Runs a hook under limits with `G` first; on failure the state is as it was.
    fn call_hook<A: mlua::IntoLuaMulti>(&mut self, name: &str, args: A) -> Result<()> {
        self.change(name, args, false)
    }

    /// Runs a hook that changes the state, then the continuations it left (see `drive`). With
    /// `next_status`, a table it returns (or the last continuation run after it) is the status
    /// that follows when no continuation waits: a simulation then crosses into Lua once per event instead of twice.
    /// Interactive play checks that table against the status hook, and an action whose
    /// status disagrees fails like any other rule error.
    fn change<A: mlua::IntoLuaMulti>(
        &mut self,
        name: &str,
        args: A,
        next_status: bool,
    ) -> Result<()> {
        let rules = self.rules.clone();
        let f = rules.required_hook(name)?;
        self.transact(|game| {
            let reply: Reply = game.run(name, f, args)?;
            let (last, waiting) = game.drive()?;
            game.settle(name, last.unwrap_or(reply), next_status, waiting)
        })
    }

    /// After an action: takes the status that the last hook run returned, when nothing is
    /// pending any more. In interactive play, an action after which the game cannot say what
    /// it waits for fails like any other rule error, state unchanged.
    fn settle(&mut self, hook: &str, reply: Reply, next_status: bool, waiting: bool) -> Result<()> {
        match reply.0 {
            Some(fields) if next_status && !waiting => self.adopt_status(hook, fields),
            _ if next_status && self.check_returned_status => self.status().map(|_| ()),
            _ => Ok(()),
        }
    }

    /// Runs `f`, which changes the state; when it fails, the state is as it was.
    fn transact(&mut self, f: impl FnOnce(&mut Game) -> Result<()>) -> Result<()> {
        let before = self.transactional.then(|| self.snapshot());
        self.status = None;
        self.labels = None;
        let result = f(self);
        if let (Err(_), Some(before)) = (&result, before) {
            self.restore(before);
        }
        result
    }

    fn pop(&mut self) -> Continuation {
        let c = self
            .with_state_mut(|s| {
                s.touch();
                s.pending.pop()
            })
            .expect("a continuation is on top");
        self.with_state_mut(|s| s.grow(-(c.bytes() as isize)))
            .expect("shrinking cannot fail");
        c
    }

    /// Calls hook `name` as a continuation, `(G, [answer,] args…)`: as a query when `read_only`
    /// (a decision's `ask`), else as a rule that changes the state.
    fn call_continuation<R: mlua::FromLuaMulti>(
        &self,
        name: &str,
        answer: Option<LuaValue>,
        args: &[Value],
        read_only: bool,
    ) -> Result<R> {
        let rules = self.rules.clone();
        let f = rules.hook(name).ok_or_else(|| {
            anyhow!("a continuation names the hook '{name}', which no rule file defines")
        })?;
        let lua = &rules.host.lua;
        let mut call = MultiValue::new();
        if let Some(a) = answer {
            call.push_back(a);
        }
        for v in args {
            call.push_back(to_lua(lua, v)?);
        }
        if read_only {
            self.query(f, call)
        } else {
            self.run(name, f, call)
        }
    }

    /// Resumes the continuation on top with `answer` (a decision's label, a chance outcome).
    fn resume(&mut self, answer: LuaValue) -> Result<()> {
        self.transact(|game| {
            let top = game.pop();
            let reply: Reply = game.call_continuation(&top.hook, Some(answer), &top.args, false)?;
            let (last, waiting) = game.drive()?;
            game.settle(&top.hook, last.unwrap_or(reply), true, waiting)
        })
    }

    /// Runs the pending stack until its top waits for a chance event or for a decision with a
    /// choice, or it is empty: steps run, a decision's options are asked for when it reaches
    /// the top, a single option is taken where the rule asked for that, and a decision without
    /// options runs its fallback. Returns what the last hook it called returned (a status,
    /// like `apply`'s), if it called one, and whether a continuation waits.
    fn drive(&mut self) -> Result<(Option<Reply>, bool)> {
        let mut last = None;
        for _ in 0..MAX_CONTINUATIONS {
            let Some(top) = self.with_state(|s| s.pending.last().cloned()) else {
                return Ok((last, false));
            };
            let Wait::Decision(d) = &top.wait else {
                if top.wait == Wait::Step {
                    self.pop();
                    last = Some(self.call_continuation(&top.hook, None, &top.args, false)?);
                    continue;
                }
                return Ok((last, true));
            };
            let Some(options) = &d.options else {
                self.ask(&top, d.ask.as_deref().unwrap_or_default())?;
                continue;
            };
            match options.as_slice() {
                [] => {
                    self.pop();
                    let Some(none) = &d.none else {
                        bail!(
                            "{}: a decision with no options and no fallback (none = …)",
                            top.hook
                        );
                    };
                    let mark = self.with_state(|s| s.log.len());
                    last = Some(self.call_continuation(none, None, &top.args, false)?);
                    self.with_state_mut(|s| s.told_instead(mark, &top.why));
                }
                [only] if d.auto => {
                    self.pop();
                    self.log_with(|| format!("{}: {only} (the only option)", top.why));
                    let answer = LuaValue::String(self.rules.host.lua.create_string(only)?);
                    last =
                        Some(self.call_continuation(&top.hook, Some(answer), &top.args, false)?);
                }
                _ => return Ok((last, true)),
            }
        }
        bail!("more than {MAX_CONTINUATIONS} continuations in one event: a chain that does not end")
    }

    /// Logs a line made only when the log is on.
    fn log_with(&mut self, line: impl FnOnce() -> String) {
        self.with_state_mut(|s| {
            if s.logging {
                s.log(line())
            }
        });
    }

    /// Calls a decision's `ask` hook and keeps what it returns in the continuation on top.
    fn ask(&mut self, top: &Continuation, hook: &str) -> Result<()> {
        let t: Table = self
            .call_continuation(hook, None, &top.args, true)
            .map_err(|e| anyhow!("{hook}: {e}"))?;
        let actor: i64 = t.get("actor")?;
        let seats = self.with_state(|s| s.turn.seats()) as i64;
        if !(1..=seats).contains(&actor) {
            bail!("{hook}: actor {actor} is not a seat (1..{seats})");
        }
        let options: Vec<String> = t.get("options")?;
        let prompt: Option<String> = t.get("prompt")?;
        self.with_state_mut(|s| {
            s.touch();
            let Some(top) = s.pending.last_mut() else {
                return Ok(());
            };
            let before = top.bytes() as isize;
            if let Wait::Decision(d) = &mut top.wait {
                d.actor = actor as Seat;
                d.options = Some(options);
                d.prompt = prompt.unwrap_or_default();
            }
            let grown = top.bytes() as isize - before;
            s.grow(grown)
        })
        .map_err(|e| anyhow!("{hook}: {e}"))
    }

    /// The status the pending stack's top gives, if it waits for something, and the seats
    /// that see it.
    fn pending_status(&self) -> Result<Option<(Status, u64)>> {
        let Some(top) = self.with_state(|s| s.pending.last().cloned()) else {
            return Ok(None);
        };
        let seen_by = top.seen_by();
        let lua = &self.rules.host.lua;
        let status = match top.wait {
            Wait::Chance(name, params) => {
                let Some(base) = self.rules.randomizers.get(&name) else {
                    bail!(
                        "{} waits for chance '{name}', which no rule declares in randomizers",
                        top.hook
                    );
                };
                let params = if params.is_empty() {
                    None
                } else {
                    let given = params
                        .iter()
                        .map(|(k, v)| {
                            let k = STATUS_PARAMS
                                .iter()
                                .find(|p| *p == k)
                                .expect("read by push");
                            Ok((*k, to_lua(lua, v)?))
                        })
                        .collect::<Result<Vec<_>>>()?;
                    let r =
                        with_params(lua, base, &given).map_err(|e| anyhow!("{}: {e}", top.hook))?;
                    Some(Rc::new(r))
                };
                Status::Chance(name, params)
            }
            Wait::Decision(Decision {
                actor,
                options: Some(options),
                prompt,
                ..
            }) => Status::Decision {
                actor,
                count: options.len(),
                options: lua.create_sequence_from(options)?,
                prompt,
            },
            _ => bail!("the continuation {} has not run", top.hook),
        };
        Ok(Some((status, seen_by)))
    }

    /// Takes the status a hook returned; in interactive play only after comparing it with
    /// what the status hook says.
    fn adopt_status(&mut self, hook: &str, fields: Box<Fields>) -> Result<()> {
        let seen_by = fields.seen_by()?;
        let seats = self.with_state(|s| s.turn.seats());
        let given = fields.status(&self.rules.host.lua, &self.rules.randomizers, seats)?;
        if !self.check_returned_status {
            self.status = Some(given);
            self.status_pending = false;
            self.seen_by = seen_by;
            return Ok(());
        }
        let fresh = self.status()?.clone();
        if !same_status(&given, &fresh)? || seen_by != self.seen_by {
            bail!(
                "{hook} returned a status unlike the status hook's: {} vs {}",
                describe_status(&given),
                describe_status(&fresh)
            );
        }
        Ok(())
    }

    /// Calls hook `name`, a rule that changes the state, under the limits.
    fn run<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
        &self,
        name: &str,
        f: &Function,
        args: A,
    ) -> Result<R> {
        let host = &self.rules.host;
        if !self.check_returned_status {
            // Nothing runs the hook again: the arguments go to Lua as they are.
            return host
                .limits
                .run(&host.lua, || f.call::<R>((&self.g, args)))
                .map_err(describe);
        }
        let args = args.into_lua_multi(&host.lua)?;
        // Interactive play looks for the line of a rule table overwritten, from this state.
        let before = self.snapshot();
        let call = || host.limits.run(&host.lua, || f.call::<R>((&self.g, &args)));
        let r = call().map_err(describe)?;
        self.check_sealed(name, || {
            *self.g.borrow_mut::<State>()? = before.clone();
            call().map(|_| ())
        })?;
        Ok(r)
    }

    /// Calls a hook that only reads the state, as the referee.
    fn query<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
        &self,
        f: &Function,
        args: A,
    ) -> Result<R> {
        self.query_as(Viewer::Referee, f, args)
    }

    /// Calls a query hook for `viewer`: the state is read-only (a write is an error naming
    /// the rule's file and line) and what the viewer may not see cannot be read.
    fn query_as<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
        &self,
        viewer: Viewer,
        f: &Function,
        args: A,
    ) -> Result<R> {
        let host = &self.rules.host;
        let args = args.into_lua_multi(&host.lua)?;
        let outer = self.set_view(true, viewer);
        let run = || {
            host.limits
                .run(&host.lua, || f.call::<R>((&self.g, args.clone())))
        };
        let result = run().map_err(describe);
        let name = f.info().name.unwrap_or_else(|| "a query".into());
        let result =
            result.and_then(|r| self.check_sealed(&name, || run().map(|_| ())).map(|()| r));
        self.set_view(outer.0, outer.1);
        result
    }

    /// In interactive play, a hook that changed a rule table fails (and the change is
    /// undone), naming the place that `rerun` finds; simulations leave this to the
    /// determinism check.
    fn check_sealed(&self, hook: &str, rerun: impl FnOnce() -> mlua::Result<()>) -> Result<()> {
        if self.check_returned_status {
            self.rules.host.check_sealed(hook, rerun)?;
        }
        Ok(())
    }

    /// Sets the state's read-only flag and viewer; returns what they were.
    fn set_view(&self, read_only: bool, viewer: Viewer) -> (bool, Viewer) {
        let mut state = self.g.borrow_mut::<State>().expect("state is not borrowed");
        let was = (state.read_only, state.viewer);
        state.read_only = read_only;
        state.viewer = viewer;
        was
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

    /// What the game waits for now (computed once per state): the pending stack's top, or
    /// else the status hook.
    pub fn status(&mut self) -> Result<&Status> {
        if self.status.is_none()
            && let Some((status, seen_by)) = self.pending_status()?
        {
            self.status = Some(status);
            self.seen_by = seen_by;
            self.status_pending = true;
        }
        if self.status.is_none() {
            let rules = self.rules.clone();
            let reply: Reply = self
                .query(rules.required_hook("status")?, ())
                .map_err(|e| self.as_seen(anyhow!("status: {e}"), false))?;
            let Reply(Some(fields)) = reply else {
                bail!("status must return a table");
            };
            self.seen_by = fields.seen_by()?;
            let seats = self.with_state(|s| s.turn.seats());
            self.status = Some(fields.status(&rules.host.lua, &rules.randomizers, seats)?);
            self.status_pending = false;
        }
        Ok(self.status.as_ref().expect("just computed"))
    }

    /// The seats that may see the options and the choice of the current decision, or the
    /// outcome of the current chance event (the status's `seen_by`; everyone by default).
    pub fn seen_by(&mut self) -> Result<u64> {
        self.status()?;
        Ok(self.seen_by)
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
                self.query(&f, opt).map_err(|e| self.as_seen(e, false))
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
            self.refuse_twins(&labels)?;
            self.labels = Some(labels);
        }
        Ok(self.labels.clone().expect("just computed"))
    }

    /// Refuses a decision two of whose options read the same: a typed move, `play`, a saved
    /// game and a bot's search know an option by its label, and could not tell them apart.
    fn refuse_twins(&self, labels: &[String]) -> Result<()> {
        let mut sorted: Vec<(&str, usize)> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| (l.as_str(), i))
            .collect();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0].0 == w[1].0) {
            let by = ["label", "status"]
                .into_iter()
                .find_map(|h| self.rules.hook_place(h).map(|at| format!("{at} ({h})")))
                .unwrap_or_default();
            bail!(
                "{by}: options {} and {} of one decision both read '{}' (an option is known by its label: make them differ)",
                w[0].1.min(w[1].1) + 1,
                w[0].1.max(w[1].1) + 1,
                w[0].0
            );
        }
        Ok(())
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
        let hidden = !self.view.sees(self.seen_by);
        let result = if self.status_pending {
            self.resume(opt)
        } else {
            self.change("apply", opt, true)
        };
        result.map_err(|e| self.as_seen(e, hidden))
    }

    /// Simulation only: takes the step the game waits for (the option `choose` picks, or a
    /// chance event drawn), then up to `room - 1` more in the kernel's loop inside Lua (see
    /// [`driven`]), each as `apply` and `resolve_chance` would take it. One step at a time
    /// where that loop does not apply (undo or status checks on, a view, a continuation's
    /// status, chance parameters, a room of one). Returns the steps taken: none once the game
    /// is over.
    pub fn play_steps(&mut self, room: u64, choose: &mut Choose) -> Result<Taken> {
        let rules = self.rules.clone();
        let status = self.status()?.clone();
        let one_by_one = room <= 1
            || self.transactional
            || self.check_returned_status
            || self.view != Viewer::Referee
            || self.status_pending
            || rules.host.limits.running();
        let first = match status {
            Status::Over { .. } => return Ok(Taken::default()),
            Status::Decision {
                actor,
                count,
                options,
                ..
            } => {
                let i = choose(actor, count)?;
                if one_by_one || i >= count {
                    self.apply(i)?;
                    return Ok(Taken::DECISION);
                }
                First::Apply(options.raw_get(i + 1)?)
            }
            Status::Chance(name, None) if !one_by_one => {
                let outcome = self
                    .with_state_mut(|s| rules.randomizers[&name].draw(s))
                    .map_err(|e| anyhow!(e))?;
                let (lua_name, t) = self.chance_args(&name, &outcome)?;
                First::Chance(lua_name, t)
            }
            Status::Chance(..) => {
                self.resolve_chance(None)?;
                return Ok(Taken::CHANCE);
            }
        };
        let hooks = Hooks {
            playout: rules.host.playout()?,
            apply: rules.hook("apply"),
            chance: rules.hook("chance"),
        };
        let mut taken = Taken::default();
        self.transact(|game| {
            let host = &rules.host;
            let (status, last, t) = driven::run(
                &host.lua,
                &host.limits,
                &game.g,
                &hooks,
                &rules.randomizers,
                first,
                room - 1,
                choose,
            )
            .map_err(describe)?;
            taken = t;
            let reply = Reply::from_lua_multi(MultiValue::from_iter([status]), &host.lua)?;
            let (more, waiting) = game.drive()?;
            game.settle(last, more.unwrap_or(reply), true, waiting)
        })?;
        Ok(taken)
    }

    /// An error of a hook that ran as the referee, as the game's viewer may read it. Where
    /// anything is hidden from that viewer (or the step itself is), the rules' message could
    /// tell it, so the viewer reads only that the rules refused and how to read why.
    fn as_seen(&self, e: anyhow::Error, hidden_step: bool) -> anyhow::Error {
        let view = self.view;
        if view == Viewer::Referee || !(hidden_step || self.with_state(|s| s.hides_from(view))) {
            return e;
        }
        anyhow!(
            "the rules refused this step, and their message is not shown in this view because it may tell what this view may not see (nothing changed; `as referee` and the same command show it)"
        )
    }

    /// Resolves the pending chance event of randomizer `name` with `outcome`.
    fn chance(&mut self, name: &str, outcome: &Outcome) -> Result<()> {
        let (lua_name, t) = self.chance_args(name, outcome)?;
        if self.status_pending {
            return self.resume(LuaValue::Table(t));
        }
        self.change("chance", (lua_name, t), true)
    }

    /// What the `chance` hook gets for randomizer `name`'s `outcome`: its name as the rules'
    /// string, and the outcome as a table.
    fn chance_args(&self, name: &str, outcome: &Outcome) -> Result<(LuaValue, Table)> {
        let rules = &self.rules;
        let lua_name = rules
            .chance_names
            .get(name)
            .ok_or_else(|| anyhow!("no randomizer '{name}'"))?;
        let t = list_table_between(&rules.host.lua, &rules.host.limits, outcome)?;
        Ok((LuaValue::String(lua_name.clone()), t))
    }

    /// Every outcome of the pending chance event, as the words that force it, with its
    /// probability; `None` when there are too many to list (`Randomizer::outcomes`).
    pub fn chance_outcomes(&mut self) -> Result<Option<Outcomes>> {
        let Status::Chance(name, params) = self.status()?.clone() else {
            bail!("the game is not waiting for a chance event");
        };
        let rules = self.rules.clone();
        let randomizer = params.as_deref().unwrap_or(&rules.randomizers[&name]);
        Ok(self.with_state(|s| randomizer.outcomes(s)))
    }

    /// Draws the pending chance event from its stream, or takes `forced` words, and applies it.
    pub fn resolve_chance(&mut self, forced: Option<&[&str]>) -> Result<(String, Outcome)> {
        let Status::Chance(name, params) = self.status()?.clone() else {
            bail!("the game is not waiting for a chance event");
        };
        let rules = self.rules.clone();
        let randomizer = params.as_deref().unwrap_or(&rules.randomizers[&name]);
        if let (Some(_), Kind::Bag { bag }) = (forced, &randomizer.kind)
            && !self.with_state(|s| s.bag_visible(bag, self.view))
        {
            // Whether a forced item is still in a hidden bag would tell what the bag holds.
            bail!(
                "bag '{bag}' is hidden from this view, so its draws cannot be forced here (`as referee` forces them)"
            );
        }
        let hidden = !self.view.sees(self.seen_by);
        if forced.is_some() && hidden {
            // A seat that may not see the outcome must not choose it either.
            let who = match self.view {
                Viewer::Seat(s) if s > 0 => self.with_state(|st| st.turn.player_name(s)),
                _ => "this view".to_string(),
            };
            bail!(
                "the outcome of '{name}' is hidden from {who}, so it cannot be forced here (`as referee` forces it)"
            );
        }
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
            return Err(self.as_seen(e, hidden));
        }
        Ok((name, outcome))
    }

    /// A text hook (render, export, check) with extra arguments, run as a query for the
    /// game's view.
    pub fn text_hook<A: mlua::IntoLuaMulti>(&self, name: &str, args: A) -> Result<String> {
        self.query_hook(name, args)
    }

    /// A query hook (read-only) with extra arguments and any result (`eval` gives a number).
    pub fn query_hook<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
        &self,
        name: &str,
        args: A,
    ) -> Result<R> {
        let f = self.hook(name)?;
        self.query_as(self.view, &f, args)
    }

    /// A query hook run in `seat`'s view, whatever the game's viewer: what the seat may not
    /// see cannot be read (a learned evaluation's `features`).
    pub fn query_hook_for<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(
        &self,
        seat: Seat,
        name: &str,
        args: A,
    ) -> Result<R> {
        let f = self.hook(name)?;
        self.query_as(Viewer::Seat(seat), &f, args)
    }

    /// The number of seats a position in the game's format is for, when the game's
    /// `position_seats` hook tells it (`setup` takes it when not given `--players`).
    pub fn position_seats(&self, text: &str) -> Result<Option<u32>> {
        match self.rules.hook("position_seats") {
            Some(f) => self.query(&f.clone(), text.to_string()),
            None => Ok(None),
        }
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
        let i: Option<usize> = self.query_as(self.view, &f, (text.to_string(), options))?;
        Ok(i.map(|i| i - 1))
    }

    /// Why a word the game declares (`commands`: backgammon's `double`) is not open while the
    /// game waits for a chance event: the `parse` hook's error when handed the word with no
    /// options, or `None` when it has nothing to say.
    pub fn why_not_now(&mut self, word: &str) -> Option<String> {
        let f = self.rules.hook("parse").cloned()?;
        if !self.rules.commands.contains_key(word) {
            return None;
        }
        let said: Result<Option<usize>> = self.query_as(self.view, &f, (word.to_string(), ()));
        said.err().map(|e| format!("{e:#}"))
    }
}
