//! A finished Jackal game names its winner and every score by the colours the seats play: the
//! names `show` and `as` accept, with partners joined by "+" (issue: results in one naming
//! scheme).

use crate::common;

use common::{repl, rules, run};

/// The names and scores listed in a game-over line's last parentheses.
fn scores(line: &str) -> Vec<(String, String)> {
    let inner = &line[line.rfind('(').expect("scores") + 1..line.rfind(')').expect("scores")];
    inner
        .split(", ")
        .map(|s| {
            let (name, score) = s.rsplit_once(' ').expect("name score");
            (name.to_string(), score.to_string())
        })
        .collect()
}

#[test]
fn results_name_the_seats_by_the_colours_they_play() {
    for (players, names) in [
        (4, vec!["white", "yellow", "black", "red"]),
        (2, vec!["white+black", "yellow+red"]),
    ] {
        let mut r = repl(&rules());
        let out = run(
            &mut r,
            &[&format!("new jackal --players {players} --seed 3"), "auto"],
        );
        let line = out
            .lines()
            .rfind(|l| l.starts_with("game over: "))
            .unwrap_or_else(|| panic!("no result in {out}"));
        let listed = scores(line);
        assert_eq!(
            listed.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
            names,
            "{line}"
        );
        let winner = line["game over: ".len()..].split(' ').next().unwrap();
        assert!(names.contains(&winner), "{line}");
        for name in names.iter().flat_map(|n| n.split('+')) {
            run(
                &mut r,
                &["as referee", &format!("show {name}"), &format!("as {name}")],
            );
        }
    }
}
