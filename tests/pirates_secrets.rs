//! The golden galleon is a kernel secret (spec §4, issue 12 item 2): three games that differ
//! only in which galleon S1 chose, played by the same random moves, show P1 the same board,
//! position, log and options at every step until the reveal; after it everyone sees.

mod common;

use tortuga::repl::Repl;

/// What P1 can read now: the board, the position, the log and the options.
fn pirate_view(repl: &mut Repl) -> String {
    common::run(repl, &["as P1"]);
    let out = ["show", "position", "log", "moves"]
        .iter()
        .map(|c| repl.handle_line(c).unwrap_or_else(|e| format!("{e:#}")))
        .collect::<Vec<_>>()
        .join("\n");
    common::run(repl, &["as referee"]);
    out
}

fn revealed(repl: &mut Repl) -> bool {
    common::run(repl, &["lua G:get('gold_rev')"]) == "true"
}

#[test]
fn no_pirate_output_before_the_reveal_depends_on_the_golden_galleon() {
    for seed in 0..3 {
        let mut games: Vec<Repl> = ["G1", "G2", "G3"]
            .iter()
            .map(|g| {
                let mut r = common::repl(&common::rules());
                common::run(
                    &mut r,
                    &[
                        &format!("new pirates --variant author --seed {seed}"),
                        &format!("play {g}"),
                    ],
                );
                r
            })
            .collect();
        let mut steps = 0;
        while steps < 400 && !games.iter_mut().any(revealed) {
            let views: Vec<String> = games.iter_mut().map(pirate_view).collect();
            assert_eq!(views[0], views[1], "seed {seed} step {steps}");
            assert_eq!(views[0], views[2], "seed {seed} step {steps}");
            for g in &mut games {
                common::run(g, &["auto 1"]);
            }
            steps += 1;
        }
        assert!(steps > 20, "seed {seed}: too short to show anything");
        let mut g = common::repl(&common::rules());
        common::run(
            &mut g,
            &[
                &format!("new pirates --variant author --seed {seed}"),
                "play G2",
                "as P1",
            ],
        );
        assert!(common::run(&mut g, &["position"]).contains("golden hidden"));
        let e = common::fails(&mut g, "lua G:secret_get('golden')");
        assert!(!e.is_empty());
    }
}
