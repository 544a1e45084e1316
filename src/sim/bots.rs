//! Bots, generic over the rules: uniform random, greedy on the game's Lua evaluation, and
//! Monte Carlo tree search.
//!
//! A bot that looks ahead never reads the real state: it plays on [`Game::determinize`]'s
//! copy, in which every value its seat may not see is resampled, and whose random streams are
//! reseeded from the bot's own stream, so it cannot foresee the dice either.

use std::fmt;
use std::rc::Rc;
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::{Result, anyhow, bail};

use super::learned;
use super::report::rewards;
use crate::kernel::Seat;
use crate::kernel::rng::Stream;
use crate::learn::net::Net;
use crate::script::Rules;
use crate::script::ruleset::variant::did_you_mean;
use crate::session::{Game, Status};

/// How long MCTS thinks per decision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    Iterations(u32),
    Time(Duration),
}

/// A bot, as named on the command line: `random`, `greedy`, `greedy:NAME` (by one of the
/// evaluations the game declares, e.g. backgammon's `pubeval`), `mcts`, `mcts:500`
/// (iterations), `mcts:200ms` or `mcts:2s` (time per decision), `learned`, `learned:500`.
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    Random,
    /// By the game's `eval` hook, asked for the named evaluation (`None`: the game's own).
    Greedy(Option<String>),
    Mcts(Budget),
    /// By the evaluation `tortuga train` learned for the ruleset: at 0-ply, or with a budget,
    /// by MCTS whose leaves it evaluates instead of playing random games to the end.
    Learned(Option<Budget>),
    /// By the learned evaluation one chance event ahead (`learned:1ply`, gnubg's 1-ply).
    LearnedOnePly,
}

/// MCTS iterations per decision when no budget is given.
pub const DEFAULT_ITERATIONS: u32 = 200;

impl FromStr for BotSpec {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<BotSpec> {
        let (name, budget) = match text.split_once([':', ' ']) {
            Some((n, b)) => (n, Some(b.trim())),
            None => (text, None),
        };
        match (name, budget) {
            ("random", None) => Ok(BotSpec::Random),
            ("learned", None) => Ok(BotSpec::Learned(None)),
            ("learned", Some("1ply")) => Ok(BotSpec::LearnedOnePly),
            ("learned", Some(b)) => Ok(BotSpec::Learned(Some(parse_budget(b)?))),
            ("greedy", None) => Ok(BotSpec::Greedy(None)),
            ("greedy", Some(e)) if !e.is_empty() && !e.contains(char::is_whitespace) => {
                Ok(BotSpec::Greedy(Some(e.to_string())))
            }
            ("greedy", Some(_)) => bail!("greedy:NAME names one of the game's evaluations"),
            ("mcts", None) => Ok(BotSpec::Mcts(Budget::Iterations(DEFAULT_ITERATIONS))),
            ("mcts", Some(b)) => Ok(BotSpec::Mcts(parse_budget(b)?)),
            ("random", Some(_)) => bail!("bot 'random' takes no budget"),
            _ => bail!(
                "no bot '{text}' (bots: random, greedy[:evaluation], mcts[:iterations|:200ms|:2s], learned[:1ply|:iterations|:200ms])"
            ),
        }
    }
}

fn parse_budget(text: &str) -> Result<Budget> {
    let bad =
        || anyhow!("bad MCTS budget '{text}': an iteration count (500) or a time (200ms, 2s)");
    let budget = if let Some(ms) = text.strip_suffix("ms") {
        Budget::Time(Duration::from_millis(ms.parse().map_err(|_| bad())?))
    } else if let Some(s) = text.strip_suffix('s') {
        Budget::Time(Duration::from_secs_f64(s.parse().map_err(|_| bad())?))
    } else {
        Budget::Iterations(text.parse().map_err(|_| bad())?)
    };
    match budget {
        Budget::Iterations(0) => bail!("an MCTS budget of 0 iterations decides nothing"),
        Budget::Time(d) if d.is_zero() => bail!("an MCTS budget of no time decides nothing"),
        b => Ok(b),
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            BotSpec::Random => write!(f, "random"),
            BotSpec::Learned(None) => write!(f, "learned"),
            BotSpec::LearnedOnePly => write!(f, "learned:1ply"),
            BotSpec::Learned(Some(Budget::Iterations(n))) => write!(f, "learned:{n}"),
            BotSpec::Learned(Some(Budget::Time(d))) => write!(f, "learned:{}ms", d.as_millis()),
            BotSpec::Greedy(None) => write!(f, "greedy"),
            BotSpec::Greedy(Some(e)) => write!(f, "greedy:{e}"),
            BotSpec::Mcts(Budget::Iterations(n)) => write!(f, "mcts:{n}"),
            BotSpec::Mcts(Budget::Time(d)) => write!(f, "mcts:{}ms", d.as_millis()),
        }
    }
}

impl BotSpec {
    /// Whether the bot's budget is a time: what it plays then depends on the machine.
    pub fn by_the_clock(&self) -> bool {
        matches!(
            self,
            BotSpec::Mcts(Budget::Time(_)) | BotSpec::Learned(Some(Budget::Time(_)))
        )
    }

    /// Whether the bot can play `rules`' game: `greedy` needs its `eval` hook, and
    /// `greedy:NAME` an evaluation the game declares (the game table's `evaluations`).
    pub fn check(&self, rules: &Rules) -> Result<()> {
        if let BotSpec::Learned(_) | BotSpec::LearnedOnePly = self {
            return learned::weights_for(rules).map(|_| ());
        }
        let BotSpec::Greedy(named) = self else {
            return Ok(());
        };
        if rules.hook("eval").is_none() {
            bail!("{} has no eval hook: the greedy bot needs one", rules.game);
        }
        match named {
            Some(name) if !rules.evaluations.contains_key(name) => {
                let known: Vec<&str> = rules.evaluations.keys().map(String::as_str).collect();
                if known.is_empty() {
                    bail!(
                        "greedy:{name}: {} declares no evaluations but its own",
                        rules.game
                    );
                }
                let hint = did_you_mean(name, &known).map_or(String::new(), |d| format!(": {d}"));
                bail!(
                    "greedy:{name}: {} has no evaluation '{name}'{hint} (evaluations: {})",
                    rules.game,
                    known.join(", ")
                )
            }
            _ => Ok(()),
        }
    }
}

/// Bots for `seats` seats from a comma-separated list: one name for every seat, or one a seat.
pub fn parse_bots(text: &str, seats: u32) -> Result<Vec<BotSpec>> {
    let specs = text
        .split(',')
        .map(|s| s.trim().parse())
        .collect::<Result<Vec<BotSpec>>>()?;
    match specs.len() {
        1 => Ok(vec![specs[0].clone(); seats as usize]),
        n if n == seats as usize => Ok(specs),
        n => bail!("--bots names {n} bots for {seats} seats (give one, or one a seat)"),
    }
}

/// An option as [`Bot::rank`] judged it: its worth to the seat (backgammon: equity, in points
/// or match-winning chances) and, by a learned evaluation, the estimate that the seat wins.
pub struct Ranked {
    pub label: String,
    pub worth: f64,
    pub win: Option<f64>,
}

/// A playing bot: its kind, its own random stream, a scratch game to look ahead in, and the
/// learned bot's network, read once.
pub struct Bot {
    pub spec: BotSpec,
    rng: Stream,
    look: SeatView,
    net: Option<Rc<Net>>,
}

/// A scratch game holding what a seat may know of a game now: the seat's view, its hidden
/// secrets and bags dealt again and its random streams reseeded (from `rng`), so that a bot
/// looking ahead in it can neither read a secret nor foresee a draw. Kept from one look to the
/// next, so a look costs one state copy.
#[derive(Default)]
pub struct SeatView(Option<Game>);

impl SeatView {
    /// The scratch game set to what `seat` may know of `game` now.
    pub fn at(&mut self, game: &Game, seat: Seat, rng: &mut Stream) -> Result<&mut Game> {
        let mut state = game.determinized_state(seat, rng.next_u64())?;
        state.reseed(rng.next_u64());
        state.logging = false;
        match &mut self.0 {
            Some(g) if Rc::ptr_eq(&g.rules, &game.rules) => g.restore(state),
            _ => {
                let mut g = Game::from_state(game.rules.clone(), state)?;
                g.simulated();
                self.0 = Some(g);
            }
        }
        Ok(self.0.as_mut().expect("just set"))
    }
}

impl Bot {
    /// The bot of `seat` in the game seeded `seed`; its stream depends on both only.
    pub fn new(spec: BotSpec, seed: u64, seat: Seat) -> Bot {
        Bot {
            spec,
            rng: Stream::new(seed, &format!("bot {seat}")),
            look: SeatView::default(),
            net: None,
        }
    }

    /// The option (0-based) this bot takes at the current decision of `game`.
    pub fn choose(&mut self, game: &mut Game) -> Result<usize> {
        let Status::Decision { actor, count, .. } = *game.status()? else {
            bail!("the game does not wait for a decision");
        };
        let label = match &self.spec {
            BotSpec::Random => return Ok(self.draw(count)),
            _ if count == 1 => return Ok(0),
            BotSpec::Greedy(named) => {
                let named = named.clone();
                self.greedy(game, actor, named.as_deref())?
            }
            &BotSpec::Mcts(budget) => self.mcts(game, actor, budget, None)?,
            BotSpec::Learned(None) => self.learned(game, actor, count, false)?,
            BotSpec::LearnedOnePly => self.learned(game, actor, count, true)?,
            &BotSpec::Learned(Some(budget)) => {
                let net = self.net(&game.rules)?;
                self.mcts(game, actor, budget, Some(net))?
            }
        };
        game.labels()?
            .iter()
            .position(|l| *l == label)
            .ok_or_else(|| anyhow!("the bot chose '{label}', which the game does not offer"))
    }

    /// The random bot's choice among `count` options (the only one without a draw).
    pub fn draw(&mut self, count: usize) -> usize {
        if count == 1 {
            0
        } else {
            self.rng.below(count as u64) as usize
        }
    }

    /// The label whose result the game's `eval` hook rates best for `seat` (ties at random),
    /// by the evaluation `named` (`None`: the game's own).
    fn greedy(&mut self, game: &mut Game, seat: Seat, named: Option<&str>) -> Result<String> {
        self.spec.check(&game.rules)?;
        let g = self.look.at(game, seat, &mut self.rng)?;
        let named = if eval_decides(g, seat)? { None } else { named };
        let best = best_by_eval(g, seat, named)?;
        let labels = g.labels()?;
        let pick = best[self.rng.below(best.len() as u64) as usize];
        Ok(labels[pick].clone())
    }

    /// The label whose result the learned evaluation rates best for `seat` (at 0-ply, or one
    /// chance event ahead), judged in what the seat may see.
    fn learned(
        &mut self,
        game: &mut Game,
        seat: Seat,
        count: usize,
        one_ply: bool,
    ) -> Result<String> {
        let net = self.net(&game.rules)?;
        let g = self.look.at(game, seat, &mut self.rng)?;
        let (pick, _) = if one_ply {
            learned::best_option_1ply(g, &net, seat, count)?
        } else {
            learned::best_option(g, &net, seat, count)?
        };
        Ok(g.labels()?[pick].clone())
    }

    /// Every option of the current decision of `seat`, best first, judged in what the seat may
    /// see: by the learned evaluation when `tortuga train` made weights for the ruleset (its
    /// worth and its estimate that the seat wins), else by the game's `eval` (its worth), with
    /// what judged them. The REPL's `hint`.
    pub fn rank(&mut self, game: &Game, seat: Seat) -> Result<(String, Vec<Ranked>)> {
        let (net, by) = match learned::weights_for(&game.rules) {
            Ok(net) => (Some(net), "the learned evaluation".to_string()),
            Err(e) if game.has_hook("eval") => (None, format!("the game's eval ({e:#})")),
            Err(e) => bail!("{e:#}"),
        };
        let g = self.look.at(game, seat, &mut self.rng)?;
        let labels = g.labels()?;
        let judged: Vec<(Option<f64>, f64)> = match &net {
            Some(net) => learned::judge_options(g, net, seat, labels.len())?
                .into_iter()
                .map(|(win, worth)| (Some(f64::from(win)), f64::from(worth)))
                .collect(),
            None => eval_values(g, seat, None)?
                .into_iter()
                .map(|worth| (None, worth))
                .collect(),
        };
        let mut ranked: Vec<Ranked> = labels
            .into_iter()
            .zip(judged)
            .map(|(label, (win, worth))| Ranked { label, worth, win })
            .collect();
        ranked.sort_by(|a, b| b.worth.total_cmp(&a.worth));
        Ok((by, ranked))
    }

    /// The learned bot's network, read once.
    fn net(&mut self, rules: &Rules) -> Result<Rc<Net>> {
        if self.net.is_none() {
            self.net = Some(learned::weights_for(rules)?);
        }
        Ok(self.net.clone().expect("just read"))
    }

    /// Monte Carlo tree search over decisions and chance outcomes (below), its leaves judged
    /// by `net` where given, else by random games to the end.
    fn mcts(
        &mut self,
        game: &mut Game,
        seat: Seat,
        budget: Budget,
        net: Option<Rc<Net>>,
    ) -> Result<String> {
        let seats = game.with_state(|s| s.turn.seats()) as usize;
        if game.has_hook("eval_decides") {
            let g = self.look.at(game, seat, &mut self.rng)?;
            let mut rng = Stream::new(self.rng.next_u64(), "mcts");
            if let Some(i) = decided_by_eval(g, seat, &mut rng, net.as_deref())? {
                return Ok(g.labels()?[i].clone());
            }
        }
        let mut tree = Tree::new(seats, net);
        let start = Instant::now();
        let mut done = 0u32;
        while match budget {
            Budget::Iterations(n) => done < n,
            Budget::Time(d) => done == 0 || start.elapsed() < d,
        } {
            let g = self.look.at(game, seat, &mut self.rng)?;
            let mut rng = Stream::new(self.rng.next_u64(), "mcts");
            tree.iterate(g, &mut rng)?;
            done += 1;
        }
        tree.best_root_label()
            .ok_or_else(|| anyhow!("MCTS found no option to take"))
    }
}

/// Steps a rollout may take before it counts as a draw.
const ROLLOUT_STEPS: u32 = 5_000;
/// The exploration constant of UCB1 over random games' results (wins and losses).
const EXPLORE: f64 = 1.4;
/// The exploration constant of UCB1 over a learned evaluation's estimates, which differ by
/// far less from option to option than a game's results do.
const EXPLORE_LEARNED: f64 = 0.3;

/// One node of the search tree: a decision or a chance point reached by a sequence of labels
/// and outcomes. Children are keyed by an option's label or an outcome's text, so the same
/// tree serves every determinization (information-set MCTS with availability counts: a
/// child's `available` counts the visits to its parent in which it was legal).
struct Node {
    visits: f64,
    available: f64,
    /// Summed rewards, one per seat.
    reward: Vec<f64>,
    children: Vec<(String, usize)>,
}

struct Tree {
    nodes: Vec<Node>,
    seats: usize,
    /// The evaluation that judges a new leaf, if any (else a random game to the end).
    net: Option<Rc<Net>>,
}

impl Tree {
    fn new(seats: usize, net: Option<Rc<Net>>) -> Tree {
        let root = Node {
            visits: 0.0,
            available: 0.0,
            reward: vec![0.0; seats],
            children: vec![],
        };
        Tree {
            nodes: vec![root],
            seats,
            net,
        }
    }

    fn child(&mut self, parent: usize, key: &str) -> usize {
        if let Some(&(_, c)) = self.nodes[parent].children.iter().find(|(k, _)| k == key) {
            return c;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            visits: 0.0,
            available: 0.0,
            reward: vec![0.0; self.seats],
            children: vec![],
        });
        self.nodes[parent].children.push((key.to_string(), id));
        id
    }

    /// Selection, expansion of one node, a random rollout, and backing up its rewards.
    fn iterate(&mut self, g: &mut Game, rng: &mut Stream) -> Result<()> {
        let mut path = vec![0];
        let mut node = 0;
        let mut expanded = false;
        let rewards = loop {
            match g.status()?.clone() {
                Status::Over { scores, .. } => break rewards(&scores, self.seats),
                Status::Chance(..) => {
                    let (name, outcome) = g.resolve_chance(None)?;
                    let key = format!("{name} {outcome:?}");
                    node = self.child(node, &key);
                }
                Status::Decision { actor, .. } if !expanded => {
                    if let Some(i) = decided_by_eval(g, actor, rng, self.net.as_deref())? {
                        node = self.child(node, &g.labels()?[i]);
                        g.apply(i)?;
                        path.push(node);
                        continue;
                    }
                    let labels = g.labels()?;
                    let i = self.select(node, &labels, actor, rng);
                    expanded = !self.nodes[node]
                        .children
                        .iter()
                        .any(|(k, _)| *k == labels[i]);
                    node = self.child(node, &labels[i]);
                    g.apply(i)?;
                    // A new leaf is judged where the option leaves the game, before any
                    // chance event it waits for: the estimate averages over that event,
                    // as 0-ply does, where one sampled outcome would judge by luck.
                    if let (true, Some(net)) = (expanded, &self.net) {
                        path.push(node);
                        break leaf_values(g, net, self.seats)?;
                    }
                }
                Status::Decision { .. } => match &self.net {
                    Some(net) => break leaf_values(g, net, self.seats)?,
                    None => break rollout(g, rng, self.seats)?,
                },
            }
            path.push(node);
        };
        for &n in &path {
            let node = &mut self.nodes[n];
            node.visits += 1.0;
            for (r, x) in node.reward.iter_mut().zip(&rewards) {
                *r += x;
            }
        }
        Ok(())
    }

    /// The option to try at `node`: an untried legal one at random, else the best by UCB1
    /// (with availability counts) for the seat that acts.
    fn select(&mut self, node: usize, labels: &[String], actor: Seat, rng: &mut Stream) -> usize {
        let children: Vec<Option<usize>> = labels
            .iter()
            .map(|l| {
                let kids = &self.nodes[node].children;
                kids.iter().find(|(k, _)| k == l).map(|&(_, c)| c)
            })
            .collect();
        for c in children.iter().flatten() {
            self.nodes[*c].available += 1.0;
        }
        let untried: Vec<usize> = (0..labels.len())
            .filter(|&i| children[i].is_none())
            .collect();
        if !untried.is_empty() {
            return untried[rng.below(untried.len() as u64) as usize];
        }
        let a = actor as usize - 1;
        let explore = match self.net {
            Some(_) => EXPLORE_LEARNED,
            None => EXPLORE,
        };
        let score = |c: usize| {
            let n = &self.nodes[c];
            n.reward[a] / n.visits + explore * (n.available.ln() / n.visits).sqrt()
        };
        (0..labels.len())
            .max_by(|&i, &j| {
                let (x, y) = (children[i].expect("tried"), children[j].expect("tried"));
                score(x).total_cmp(&score(y))
            })
            .expect("a decision has options")
    }

    /// The most visited option at the root.
    fn best_root_label(&self) -> Option<String> {
        self.nodes[0]
            .children
            .iter()
            .max_by(|a, b| self.nodes[a.1].visits.total_cmp(&self.nodes[b.1].visits))
            .map(|(k, _)| k.clone())
    }
}

/// Each seat's chance of winning from a leaf, by the learned evaluation.
fn leaf_values(g: &mut Game, net: &Net, seats: usize) -> Result<Vec<f64>> {
    (1..=seats as u32)
        .map(|s| Ok(f64::from(learned::estimates(g, net, s)?[0])))
        .collect()
}

/// Plays uniformly at random to the end (but for the decisions the game's `eval` takes, as
/// in the tree); a rollout too long for [`ROLLOUT_STEPS`] is a draw.
fn rollout(g: &mut Game, rng: &mut Stream, seats: usize) -> Result<Vec<f64>> {
    for _ in 0..ROLLOUT_STEPS {
        match *g.status()? {
            Status::Over { ref scores, .. } => return Ok(rewards(scores, seats)),
            Status::Chance(..) => {
                g.resolve_chance(None)?;
            }
            Status::Decision { actor, count, .. } => {
                let i = match decided_by_eval(g, actor, rng, None)? {
                    Some(i) => i,
                    None => rng.below(count as u64) as usize,
                };
                g.apply(i)?
            }
        }
    }
    Ok(vec![1.0 / seats as f64; seats])
}

/// The options of the current decision of `g` whose results the game's `eval` rates best for
/// `seat`, by the evaluation `named` (`None`: the game's own); `g` is left as it was.
fn best_by_eval(g: &mut Game, seat: Seat, named: Option<&str>) -> Result<Vec<usize>> {
    let mut best: Vec<usize> = Vec::new();
    let mut best_value = f64::NEG_INFINITY;
    for (i, value) in eval_values(g, seat, named)?.into_iter().enumerate() {
        if value > best_value + 1e-9 {
            best_value = value;
            best.clear();
        }
        if value >= best_value - 1e-9 {
            best.push(i);
        }
    }
    Ok(best)
}

/// The game's `eval` of each option's result for `seat` (by the evaluation `named`), in
/// option order; `g` is left as it was.
fn eval_values(g: &mut Game, seat: Seat, named: Option<&str>) -> Result<Vec<f64>> {
    let root = g.snapshot();
    let count = g.labels()?.len();
    let values = (0..count)
        .map(|i| {
            g.restore(root.clone());
            g.apply(i)?;
            g.query_hook("eval", (seat, named))
        })
        .collect();
    g.restore(root);
    values
}

/// Whether the game's `eval_decides` hook hands the current decision of `actor` to the
/// game's own `eval` (backgammon's cube), which every evaluating bot then follows.
fn eval_decides(g: &Game, actor: Seat) -> Result<bool> {
    Ok(g.has_hook("eval_decides") && g.query_hook("eval_decides", actor)?)
}

/// The option `mcts` takes without searching at a decision [`eval_decides`] hands to the
/// game's `eval` (ties at random), or, searching with a learned `net`, to the net's worth;
/// `None` at any other decision.
fn decided_by_eval(
    g: &mut Game,
    actor: Seat,
    rng: &mut Stream,
    net: Option<&Net>,
) -> Result<Option<usize>> {
    if !eval_decides(g, actor)? {
        return Ok(None);
    }
    if let Some(net) = net {
        let count = g.labels()?.len();
        return Ok(Some(learned::best_option(g, net, actor, count)?.0));
    }
    if !g.has_hook("eval") {
        bail!("{}: eval_decides needs the eval hook", g.rules.game);
    }
    let best = best_by_eval(g, actor, None)?;
    Ok(Some(best[rng.below(best.len() as u64) as usize]))
}
