//! Studies: statistics against known answers, results that do not depend on the number of
//! workers, shards that merge into the one-run report, bots that play well, and the chart.

use crate::common;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use tortuga::script::Budget;
use tortuga::sim::report::Report;
use tortuga::sim::sequential::{self, Target};
use tortuga::sim::shard::{Shard, merge};
use tortuga::sim::stats::{paired_difference, unpaired_difference};
use tortuga::sim::study::{Results, Spec, run, shard_games, winners};

fn spec(game: &str, variants: &[Option<&str>], games: u64, bots: &str) -> Spec {
    Spec {
        game: game.into(),
        variants: variants.iter().map(|v| v.map(String::from)).collect(),
        house: vec![],
        sets: vec![],
        players: 2,
        games,
        seed: 11,
        bots: vec![bots.into()],
        skill: None,
        drama: false,
    }
}

fn study(dir: &Path, spec: &Spec, jobs: usize) -> Results {
    run(
        dir,
        spec,
        &Budget::default(),
        0..spec.games,
        jobs,
        &AtomicBool::new(false),
        |_| {},
    )
    .expect("the study runs")
}

fn measure<'a>(
    report: &'a Report,
    variant: usize,
    name: &str,
) -> &'a tortuga::sim::report::Measure {
    report.variants[variant]
        .measures
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("no measure {name}"))
}

#[test]
fn a_fair_coin_wins_half_its_games_within_the_interval() {
    let r = Report::of(&study(
        &common::fixtures(),
        &spec("coin", &[None], 400, "random"),
        2,
    ));
    let a = measure(&r, 0, "A wins").interval;
    assert!(a.low < 0.5 && 0.5 < a.high, "{a:?}");
    assert!(
        a.width() < 0.11,
        "400 games give an interval about 10 points wide: {a:?}"
    );
    let heads = measure(&r, 0, "heads").interval;
    assert!(
        heads.low < 0.5 && 0.5 < heads.high,
        "the rules' counter: {heads:?}"
    );
}

#[test]
fn a_rigged_coin_is_flagged_significant_and_a_fair_one_is_not() {
    let dir = common::fixtures();
    let rigged = Report::of(&study(
        &dir,
        &spec("coin", &[None, Some("rigged")], 400, "random"),
        2,
    ));
    let d = rigged
        .differences
        .iter()
        .find(|d| d.name == "A wins")
        .unwrap();
    assert!(d.significant && d.interval.low > 0.1, "{d:?}");
    assert!(
        rigged
            .text()
            .contains("Significant: with rigged, A wins is higher")
    );
    let same = Report::of(&study(&dir, &spec("coin", &[None, None], 400, "random"), 2));
    assert!(same.differences.iter().all(|d| !d.significant));
    assert!(same.text().contains("No difference is significant."));
}

/// 200 A/A studies: a fair coin against itself, each arm on its own seed (independent
/// streams), 100 games an arm. A difference is called at 5% as often as it should be (10 in
/// 200 expected; binomial noise allows about 2 to 20), Holm's method calls any of a report's
/// differences no more often than that, and the interval of A's share covers the true 1/2 about
/// 95% of the time (190 expected; 180 is three standard deviations below).
#[test]
fn an_a_a_study_is_significant_at_the_stated_rate() {
    let dir = common::fixtures();
    let (mut called, mut any, mut covered) = (0, 0, 0);
    let runs = 200;
    for k in 0..runs {
        let arm = |seed: u64| {
            let mut s = spec("coin", &[None], 100, "random");
            s.seed = seed;
            study(&dir, &s, 1)
        };
        let (a, b) = (arm(2 * k), arm(2 * k + 1));
        let both = Results {
            spec: spec("coin", &[None, None], 100, "random"),
            rulesets: vec![a.rulesets[0].clone(), b.rulesets[0].clone()],
            records: vec![a.records[0].clone(), b.records[0].clone()],
            asked: 100,
        };
        let report = Report::of(&both);
        let d = report
            .differences
            .iter()
            .find(|d| d.name == "A wins")
            .unwrap();
        called += usize::from(d.p < 0.05);
        any += usize::from(report.differences.iter().any(|d| d.significant));
        let share = measure(&report, 0, "A wins").interval;
        covered += usize::from(share.low <= 0.5 && 0.5 <= share.high);
    }
    assert!(
        (2..=20).contains(&called),
        "{called} of {runs} called at 5%"
    );
    assert!(any <= 20, "{any} of {runs} reports called a difference");
    assert!(covered >= 180, "{covered} of {runs} intervals covered 1/2");
}

/// `--until-ci` on a fair coin, 200 times: however many looks a study takes before A's
/// share is narrow enough, the interval it stops on covers the true 1/2 at least 95% of the
/// time (190 of 200; a rule that judged every look at 95% would stop early on the runs whose
/// estimate strayed, where Wilson's interval is narrower, and cover less).
#[test]
fn a_study_that_plays_until_an_interval_is_narrow_still_covers() {
    let dir = common::fixtures();
    let target = Target::parse("A wins=31%").unwrap();
    assert!((target.width - 0.31).abs() < 1e-12);
    let (mut covered, mut looks) = (0, std::collections::BTreeSet::new());
    for seed in 0..200 {
        let mut s = spec("coin", &[None], 10, "random");
        s.seed = seed;
        let (results, stopped) = sequential::play(
            &dir,
            &s,
            &Budget::default(),
            1,
            &AtomicBool::new(false),
            &target,
            &mut |_| {},
        )
        .unwrap();
        let stopped = stopped.expect("not interrupted");
        assert!(stopped.reached && stopped.interval.width() <= 0.31);
        assert_eq!(results.records[0].len() as u64, stopped.games);
        looks.insert(stopped.looks);
        let i = stopped.interval;
        covered += usize::from(i.low <= 0.5 && 0.5 <= i.high);
    }
    assert!(
        looks.len() > 1,
        "the studies stopped at different looks: {looks:?}"
    );
    eprintln!("{covered} of 200 covered 1/2; looks {looks:?}");
    assert!(covered >= 190, "{covered} of 200 covered 1/2");
    for bad in ["A wins", "A wins=0", "A wins=-1%", "=2%", "A wins=x"] {
        assert!(Target::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn paired_intervals_on_shared_dice_are_narrower_than_unpaired_ones() {
    let dir = common::fixtures();
    let results = study(
        &dir,
        &spec("coin", &[None, Some("rigged")], 400, "random"),
        2,
    );
    let wins = |v: usize| -> Vec<f64> {
        results.records[v]
            .iter()
            .map(|r| f64::from(u8::from(winners(&r.scores) == [0])))
            .collect()
    };
    let (a, b) = (wins(0), wins(1));
    let (paired, unpaired) = (paired_difference(&a, &b), unpaired_difference(&a, &b));
    assert!(
        paired.width() < 0.7 * unpaired.width(),
        "paired {paired:?}, unpaired {unpaired:?}"
    );
    let report = Report::of(&results);
    let reported = report
        .differences
        .iter()
        .find(|d| d.name == "A wins")
        .unwrap();
    assert_eq!(reported.interval, paired, "the report pairs game by game");
}

#[test]
fn one_worker_and_two_play_the_same_games() {
    let s = spec("backgammon", &[None, Some("money_jacoby")], 24, "random");
    let dir = common::rules();
    assert_eq!(study(&dir, &s, 1), study(&dir, &s, 2));
}

#[test]
fn shards_merge_into_exactly_the_one_run_report() {
    let dir = common::rules();
    let s = spec("backgammon", &[None, Some("money_jacoby")], 25, "random");
    let whole = Report::of(&study(&dir, &s, 2));
    let shards: Vec<(String, Shard)> = [3, 1, 2]
        .iter()
        .map(|&i| {
            let range = shard_games(s.games, (i, 3));
            let part = run(
                &dir,
                &s,
                &Budget::default(),
                range,
                1,
                &AtomicBool::new(false),
                |_| {},
            )
            .unwrap();
            let text = Shard::new(part, (i, 3)).to_json();
            let path = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(path.path(), text).unwrap();
            (format!("shard-{i}"), Shard::read(path.path()).unwrap())
        })
        .collect();
    let merged = Report::of(&merge(shards).unwrap());
    assert_eq!(merged, whole);
    assert_eq!(merged.text(), whole.text());
}

/// A shard edited and then resealed (its digest recomputed, as anyone can): every field is
/// still checked against the study it claims, so that no merge or report panics on it.
/// A study says when its figures describe random play, and when a bot's budget is a time
/// (its games then depend on the machine, not on the seed alone): in its text, its JSON and
/// its shard files, where the note must be the one its bots call for.
#[test]
fn a_study_says_when_its_bots_play_randomly_or_by_the_clock() {
    let mut s = spec("nim", &[None], 2, "mcts:5ms,random");
    let part = study(&common::fixtures(), &s, 1);
    let r = Report::of(&part);
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert!(
        r.text().contains("note: mcts:5ms decides by the clock"),
        "{}",
        r.text()
    );
    let json = serde_json::to_string(&r).unwrap();
    assert!(
        json.contains("\"warnings\":[\"mcts:5ms decides by the clock"),
        "{json}"
    );
    let mut shard = Shard::new(part, (1, 1));
    assert_eq!(shard.warnings, r.warnings);
    shard.warnings.clear();
    shard.seal();
    let e = Shard::parse(&shard.to_json(), "w.json").unwrap_err();
    assert!(
        e.to_string().contains("warnings are not those of the bots"),
        "{e}"
    );

    s.bots = vec!["random".into()];
    let r = Report::of(&study(&common::fixtures(), &s, 1));
    assert!(
        r.text().contains("note: every seat is played by random"),
        "{}",
        r.text()
    );
    s.bots = vec!["greedy".into()];
    assert!(
        Report::of(&study(&common::fixtures(), &s, 1))
            .warnings
            .is_empty()
    );
}

/// Two variants whose seats form different teams: each variant's report row for a team the
/// other has not is "not measured", and no difference is made of it.
#[test]
fn variants_with_different_teams_report_the_same_rows() {
    let s = spec("backgammon", &[None, Some("money_jacoby")], 3, "random");
    let mut shard = Shard::new(study(&common::rules(), &s, 1), (1, 1));
    shard.rulesets[0].teams = vec![2, 2];
    shard.seal();
    let read = Shard::parse(&shard.to_json(), "t.json").unwrap();
    let r = Report::of(&merge(vec![("t.json".into(), read)]).unwrap());
    let (a, b) = (&r.variants[0].measures, &r.variants[1].measures);
    let names = |m: &[tortuga::sim::report::Measure]| -> Vec<String> {
        m.iter().map(|m| m.name.clone()).collect()
    };
    assert_eq!(names(a), names(b));
    let team = measure(&r, 1, "team X+O wins");
    assert!(team.interval.estimate.is_nan());
    assert!(r.text().contains("not measured"), "{}", r.text());
    assert!(r.differences.iter().all(|d| d.name != "team X+O wins"));
    assert!(!tortuga::sim::svg::chart(&r).contains("NaN"));
}

#[test]
fn a_resealed_shard_is_still_checked_field_by_field() {
    let s = spec("backgammon", &[None], 4, "random");
    let part = study(&common::rules(), &s, 1);
    let good = Shard::new(part, (1, 1));
    assert_eq!(Shard::parse(&good.to_json(), "x.json").unwrap(), good);
    let refused = |edit: &dyn Fn(&mut Shard), want: &str| {
        let mut shard = good.clone();
        edit(&mut shard);
        shard.seal();
        let e = Shard::parse(&shard.to_json(), "x.json").unwrap_err();
        let e = e.to_string();
        assert!(
            e.starts_with("x.json: ") && e.contains(want),
            "want '{want}' in: {e}"
        );
    };
    refused(&|s| s.rulesets.clear(), "0 rulesets and 1 lists of records");
    refused(
        &|s| s.spec.variants.push(None),
        "1 rulesets and 1 lists of records for 2",
    );
    refused(
        &|s| s.spec.players = 3,
        "seat names or teams not one a seat",
    );
    refused(&|s| s.spec.players = 0, "0 players");
    refused(
        &|s| s.records[0][1].scores.push(1.0),
        "game 1: not one finite score a seat",
    );
    refused(
        &|s| s.records[0][2].game = 7,
        "record of game 7 where game 2 belongs",
    );
    refused(
        &|s| s.records[0][3].decisions = u64::MAX,
        "game 3: 18446744073709551615 decisions",
    );
    refused(
        &|s| s.records[0].pop().map_or((), drop),
        "holds 3 of its 4 games",
    );
    refused(
        &|s| s.records[0][0].turns = s.records[0][0].decisions + 1,
        "game 0: ",
    );
    refused(&|s| s.records[0][1].options = 0, "game 1: ");
    refused(
        &|s| s.records[0][2].forced = s.records[0][2].decisions + 1,
        "game 2: ",
    );

    let mut counters = good.clone();
    for (i, r) in counters.records[0].iter_mut().enumerate() {
        r.stats = (0..20).map(|j| (format!("c{i}.{j}"), 1)).collect();
    }
    counters.seal();
    let read = Shard::parse(&counters.to_json(), "c.json").unwrap();
    let e = merge(vec![("c.json".into(), read)])
        .unwrap_err()
        .to_string();
    assert!(e.contains("c.json: more than 64 distinct counters"), "{e}");
}

#[test]
fn a_stopped_study_reports_what_finished() {
    let s = spec("coin", &[None], 50, "random");
    let stop = AtomicBool::new(true);
    let results = run(
        &common::fixtures(),
        &s,
        &Budget::default(),
        0..50,
        2,
        &stop,
        |_| {},
    )
    .unwrap();
    let report = Report::of(&results);
    assert_eq!((report.finished, report.asked), (0, 50));
    assert!(
        report
            .text()
            .contains("interrupted: 0 of 50 games finished")
    );
}

#[test]
fn mcts_and_greedy_find_nims_winning_moves() {
    let dir = common::fixtures();
    for bots in ["mcts:300,random", "greedy,random"] {
        let r = Report::of(&study(&dir, &spec("nim", &[None], 20, bots), 2));
        assert_eq!(
            measure(&r, 0, "A wins").total,
            20.0,
            "{bots} as A wins every game of 7"
        );
    }
}

/// Nim with one stone: every game is one forced decision by A, who wins; with three, a
/// greedy A takes all three at once among three options.
#[test]
fn design_measures_count_turns_options_forced_decisions_and_the_first_seats_edge() {
    let mut s = spec("nim", &[None], 20, "random");
    s.sets = vec!["pile=1".into()];
    let r = Report::of(&study(&common::fixtures(), &s, 2));
    exactly_in(&r, "turns", 1.0);
    exactly_in(&r, "rounds", 0.5);
    exactly_in(&r, "options a decision", 1.0);
    exactly_in(&r, "forced decisions", 1.0);
    let b = &r.variants[0].balance;
    assert_eq!((b.fair_share, b.decided), (0.5, 20));
    assert_eq!(b.first_seat_edge.estimate, 0.5);
    assert!(b.first_seat_edge.high <= 0.5 && b.first_seat_edge.low > 0.3);
    assert!(
        r.text().contains("A edge on 50% of decided"),
        "{}",
        r.text()
    );
    // scores of 0 and 1 only: no points
    assert!(
        r.variants[0]
            .measures
            .iter()
            .all(|m| !m.name.contains("points"))
    );

    s.sets = vec!["pile=3".into()];
    s.bots = vec!["greedy".into()];
    let r = Report::of(&study(&common::fixtures(), &s, 1));
    exactly_in(&r, "options a decision", 3.0);
    exactly_in(&r, "forced decisions", 0.0);
}

fn exactly_in(r: &Report, name: &str, want: f64) {
    let i = &measure(r, 0, name).interval;
    assert_eq!((i.estimate, i.low, i.high), (want, want, want), "{name}");
}

/// Backgammon's scores are points (a cube, gammons): each seat's net points a game, the
/// distribution of the final cube, and backgammons, from the records.
#[test]
fn backgammon_reports_points_a_game_and_the_final_cube() {
    let s = spec("backgammon", &[None], 30, "greedy");
    let results = study(&common::rules(), &s, 2);
    let r = Report::of(&results);
    let records = &results.records[0];
    let net: f64 = records
        .iter()
        .map(|g| g.scores[0] - g.scores[1])
        .sum::<f64>()
        / 30.0;
    let x = &measure(&r, 0, "X points").interval;
    assert!((x.estimate - net).abs() < 1e-12 && x.low < net && net < x.high);
    assert!((measure(&r, 0, "O points").interval.estimate + net).abs() < 1e-12);
    let cubes: f64 = r.variants[0]
        .measures
        .iter()
        .filter(|m| m.name.starts_with("games ended at cube "))
        .map(|m| m.total)
        .sum();
    assert_eq!(cubes, 30.0, "one final cube a game:\n{}", r.text());
    let names: Vec<&str> = r.variants[0]
        .measures
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    let at = |n: &str| names.iter().position(|m| *m == n);
    if let (Some(two), Some(four)) = (at("games ended at cube 2"), at("games ended at cube 4")) {
        assert!(two < four, "cubes in the order of their values: {names:?}");
    }
}

/// A skill study of Nim from five stones: the strong bot moves round the table, and whoever
/// moves first from 4k + 1 wins by taking one, so greedy wins every game it opens.
#[test]
fn a_skill_study_seats_the_strong_bot_in_turn_and_measures_its_wins() {
    let mut s = spec("nim", &[None], 40, "random");
    s.sets = vec!["pile=5".into()];
    s.skill = Some(["greedy".into(), "random".into()]);
    let results = study(&common::fixtures(), &s, 2);
    for r in &results.records[0] {
        if r.game % 2 == 0 {
            assert_eq!(
                r.scores,
                [1.0, 0.0],
                "greedy opens game {} and wins",
                r.game
            );
        }
    }
    let r = Report::of(&results);
    let skill = measure(&r, 0, "greedy wins against random");
    assert!(skill.interval.low > 0.6, "{}", r.text());
    assert!(
        r.text().contains("skill: greedy against random"),
        "{}",
        r.text()
    );
    // the same bot on both sides: the "strong" one wins about half
    s.skill = Some(["random".into(), "random".into()]);
    s.games = 200;
    let r = Report::of(&study(&common::fixtures(), &s, 2));
    let even = measure(&r, 0, "random wins against random");
    assert!(!even.interval.excludes(0.5), "{}", r.text());
}

#[test]
fn greedy_backgammon_beats_random() {
    let mut s = spec("backgammon", &[None], 20, "greedy,random");
    s.sets = vec!["cube=false".into()];
    let r = Report::of(&study(&common::rules(), &s, 2));
    assert!(measure(&r, 0, "X wins").interval.low > 0.6, "{}", r.text());
}

/// The chart has a row a measure with each variant's estimate and interval (shares on one
/// 0–100% axis), a row a paired difference marked significant or not, and the length
/// histograms; every mark says what it stands for.
#[test]
fn the_chart_shows_every_measure_and_difference_with_intervals_and_histograms() {
    let s = spec("backgammon", &[None, Some("money_jacoby")], 30, "random");
    let report = Report::of(&study(&common::rules(), &s, 2));
    let svg = tortuga::sim::svg::chart(&report);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let group = |id: &str| {
        root.descendants()
            .find(|n| n.attribute("id") == Some(id))
            .unwrap_or_else(|| panic!("no group {id}"))
    };
    let marks = |g: roxmltree::Node<'_, '_>, class: &str, variant: Option<&str>| {
        g.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .filter(|n| variant.is_none() || n.attribute("data-variant") == variant)
            .count()
    };
    let measures = group("measures");
    for (v, name) in ["default", "money_jacoby"].iter().enumerate() {
        let measured = report.variants[v]
            .measures
            .iter()
            .filter(|m| !m.interval.estimate.is_nan())
            .count();
        assert_eq!(marks(measures, "estimate", Some(name)), measured, "{name}");
        assert_eq!(marks(measures, "interval", Some(name)), measured, "{name}");
        assert_eq!(
            marks(group("lengths"), "bin", Some(name)),
            report.bins.len() - 1
        );
    }
    // shares on one axis: 0 at x = 230, 100% at x = 730
    let x_wins = measures
        .descendants()
        .find(|n| {
            n.attribute("class") == Some("estimate")
                && n.attribute("data-measure") == Some("X wins")
                && n.attribute("data-variant") == Some("default")
        })
        .unwrap();
    let cx: f64 = x_wins.attribute("cx").unwrap().parse().unwrap();
    let estimate = report.variants[0].measures[0].interval.estimate;
    assert!((cx - (230.0 + 500.0 * estimate)).abs() < 0.01, "{cx}");
    let differences = group("differences");
    assert_eq!(
        marks(differences, "estimate", None),
        report.differences.len()
    );
    let significant = differences
        .descendants()
        .filter(|n| n.attribute("class") == Some("estimate"))
        .filter(|n| n.attribute("data-significant") == Some("true"))
        .count();
    assert_eq!(
        significant,
        report.differences.iter().filter(|d| d.significant).count()
    );
    assert!(!svg.contains("NaN"));
}

#[test]
fn the_repl_runs_studies_and_seats_bots() {
    let mut repl = common::repl(&common::fixtures());
    let out = common::run(&mut repl, &["sim coin --vs rigged --games 40 --seed 3"]);
    assert!(out.contains("rigged − default, paired by game"), "{out}");
    assert!(common::fails(&mut repl, "sim coin --games 0").contains("--games 0"));
    assert!(common::fails(&mut repl, "bot A greedy").contains("no game yet"));
    common::run(
        &mut repl,
        &["new nim --seed 1", "bot A mcts 300", "bot B random"],
    );
    assert!(common::fails(&mut repl, "bot C random").contains("no seat 'C'"));
    assert!(common::fails(&mut repl, "bot A wizard").contains("no bot 'wizard'"));
    let out = common::run(&mut repl, &["auto"]);
    assert!(out.contains("A wins"), "MCTS wins nim from 7: {out}");
    common::run(&mut repl, &["new race --seed 1"]);
    assert!(common::fails(&mut repl, "bot A greedy").contains("no eval hook"));
}

/// `greedy:NAME` plays by an evaluation the game declares: backgammon's pubeval, the
/// benchmark opponent, wins a cubeless game against the uniform-random bot to the end.
#[test]
fn a_greedy_bot_plays_by_a_declared_evaluation() {
    let mut repl = common::repl(&common::rules());
    let said = common::run(
        &mut repl,
        &[
            "new backgammon --seed 4 --set cube=false",
            "bot X greedy pubeval",
        ],
    );
    assert!(said.contains("X: greedy:pubeval bot"), "{said}");
    let out = common::run(&mut repl, &["bot O random", "auto 2000"]);
    assert!(out.contains("X wins"), "{out}");
    let e = common::fails(&mut repl, "bot O greedy pub");
    assert!(e.contains("no evaluation 'pub'"), "{e}");
}

#[test]
fn the_shipwreck_respin_study_counts_what_the_rule_changes() {
    let s = spec(
        "pirates",
        &[Some("author_without_respin"), Some("author")],
        12,
        "random",
    );
    let r = Report::of(&study(&common::rules(), &s, 2));
    let (without, with) = (
        measure(&r, 0, "respin_saved"),
        measure(&r, 1, "respin_saved"),
    );
    assert_eq!(without.total, 0.0, "no re-spin without the house rule");
    assert!(
        with.total > 0.0,
        "the re-spin keeps some ships off the shore"
    );
    assert!(measure(&r, 0, "shipwrecks").total > measure(&r, 1, "shipwrecks").total);
}

#[test]
fn greedy_chaupar_beats_random() {
    let s = spec("chaupar", &[None], 20, "greedy,random");
    let r = Report::of(&study(&common::rules(), &s, 2));
    assert!(measure(&r, 0, "A wins").interval.low > 0.6, "{}", r.text());
}

#[test]
fn the_no_blocks_study_counts_captures_and_forfeits() {
    let mut s = spec("chaupar", &[None, Some("no_blocks")], 60, "random");
    s.players = 4;
    let r = Report::of(&study(&common::rules(), &s, 2));
    let captures = |v| measure(&r, v, "captures").total;
    assert!(captures(0) > 0.0, "{}", r.text());
    assert!(
        captures(1) > captures(0),
        "without blocks a landing takes every piece there: {}",
        r.text()
    );
    assert!(measure(&r, 0, "forfeits").total > 0.0, "{}", r.text());
    let (team, seat) = (measure(&r, 0, "team S+N wins"), measure(&r, 0, "S wins"));
    assert_eq!(team.total, seat.total, "partners win together");
}

/// A counter the game table's `counters` describes is labelled with what it counts, in the
/// text and the differences, and `--json` carries the units; the measure keeps its name.
#[test]
fn counters_are_labelled_with_what_they_count() {
    let mut s = spec("jackal", &[None, Some("forty_rounds")], 4, "random");
    s.house = vec!["forty_rounds".into()];
    let r = Report::of(&study(&common::rules(), &s, 1));
    assert_eq!(r.units["flips"], "tiles turned up");
    assert_eq!(r.units["length"], "decisions");
    assert!(measure(&r, 0, "flips").interval.estimate > 0.0);
    let text = r.text();
    let flips: Vec<&str> = text.lines().filter(|l| l.starts_with("flips")).collect();
    assert_eq!(flips.len(), 2, "a measure and a difference: {text}");
    assert!(
        flips
            .iter()
            .all(|l| l.starts_with("flips (tiles turned up) ")),
        "{text}"
    );
    assert!(text.contains("\nlength (decisions) "), "{text}");
    let json: serde_json::Value = serde_json::to_value(&r).unwrap();
    assert_eq!(json["units"]["deaths"], "pirates killed");
}
