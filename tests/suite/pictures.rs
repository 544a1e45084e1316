//! `show --svg FILE` (issue 17 item 5): each game's `picture` hook draws its board and the
//! kernel writes it as SVG. The pictures are parsed back (roxmltree) and their structure
//! checked against the position; hidden information stays out of a picture whose viewer may
//! not see it; a bad path or a bad shape is one clear error and leaves no file half-written;
//! docs/pictures/ is what scripts/pictures.tort draws.

use crate::common;
use crate::jackal;

use std::path::Path;

use jackal::{J, pos};
use roxmltree::{Document, Node};
use tortuga::repl::Repl;

/// Runs `show --svg` (with `args`, e.g. a seat) into a scratch file and returns the SVG.
fn picture(repl: &mut Repl, args: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("board.svg");
    let out = common::run(repl, &[&format!("show --svg {} {args}", file.display())]);
    assert!(out.starts_with("wrote "), "{out}");
    std::fs::read_to_string(&file).unwrap()
}

fn has_class(n: &Node, class: &str) -> bool {
    n.attribute("class")
        .is_some_and(|c| c.split(' ').any(|w| w == class))
}

/// The elements of `class` in the document.
fn of_class<'a>(doc: &'a Document, class: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.is_element() && has_class(n, class))
        .collect()
}

fn count(n: &Node) -> usize {
    n.attribute("data-count").unwrap().parse().unwrap()
}

/// Every picture is an SVG document with a fixed viewBox matching its size and a title.
fn check_frame(doc: &Document) {
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.attribute("viewBox").unwrap(),
        format!(
            "0 0 {} {}",
            root.attribute("width").unwrap(),
            root.attribute("height").unwrap()
        )
    );
    assert!(root.children().any(|n| n.has_tag_name("title")));
}

#[test]
fn backgammon_draws_every_checker_where_the_position_has_it() {
    let mut r = common::repl(&common::rules());
    let p = r#"{"board":[7,0,0,0,0,4,0,0,0,0,0,0,0,0,0,0,0,0,-6,0,0,0,0,-6],"bar":[1,2],"off":[3,1],"dice":[6,4],"on_roll":"x","cube":{"value":2,"owner":"opp"},"match":{"length":0,"score":[0,0],"crawford":false}}"#;
    common::run(&mut r, &[&format!("setup backgammon {p}")]);
    let svg = picture(&mut r, "");
    let doc = Document::parse(&svg).expect("well-formed SVG");
    check_frame(&doc);
    let stacks: Vec<(String, String, usize)> = of_class(&doc, "stack")
        .iter()
        .map(|g| {
            let attr = |k| g.attribute(k).unwrap().to_string();
            (attr("data-where"), attr("data-side"), count(g))
        })
        .collect();
    let want = [
        ("point 1", "X", 7),
        ("point 6", "X", 4),
        ("point 19", "O", 6),
        ("point 24", "O", 6),
        ("bar", "O", 2),
        ("bar", "X", 1),
        ("off", "O", 1),
        ("off", "X", 3),
    ];
    let want: Vec<(String, String, usize)> = want
        .iter()
        .map(|(w, s, n)| (w.to_string(), s.to_string(), *n))
        .collect();
    assert_eq!(stacks, want);
    // A point shows five checkers at most (the fifth carries the count); a tray shows all.
    for g in of_class(&doc, "stack") {
        let shown = g.children().filter(|c| has_class(c, "checker")).count();
        let n = count(&g);
        let on_point = g.attribute("data-where").unwrap().starts_with("point");
        assert_eq!(shown, if on_point { n.min(5) } else { n }, "{g:?}");
    }
    assert_eq!(of_class(&doc, "point").len(), 24);
    let cube = &of_class(&doc, "cube")[0];
    assert_eq!(cube.attribute("data-value"), Some("2"));
    assert_eq!(cube.attribute("data-owner"), Some("O"));
    let dice: Vec<&str> = of_class(&doc, "die")
        .iter()
        .map(|d| d.attribute("data-value").unwrap())
        .collect();
    assert_eq!(dice, ["6", "4"]);
}

/// The characters on board cells, the closed land cells and the open ones, as the rules count
/// them (the referee's `lua`).
fn jackal_counts(j: &mut J) -> (usize, usize, usize) {
    let n = |j: &mut J, body: &str| -> usize {
        j.lua(&format!(
            "local B, C = require('jackal.board'), require('jackal.core') local n = 0 {body} return n"
        ))
        .parse()
        .unwrap()
    };
    let on_board = n(
        j,
        "for _, c in ipairs(C.view(G).chars) do if B.is_cell(c.loc) then n = n + 1 end end",
    );
    let closed = n(
        j,
        "for _, l in ipairs(B.LAND) do if not C.is_open(G, l) then n = n + 1 end end",
    );
    (on_board, closed, 117 - closed)
}

#[test]
fn jackal_draws_its_tiles_ships_and_characters() {
    let mut j = J::fresh("--players 4 --seed 3");
    j.run("auto 120");
    let (on_board, closed, open) = jackal_counts(&mut j);
    assert!(
        open > 10 && on_board == 12,
        "{open} open, {on_board} on board"
    );
    let svg = picture(&mut j.repl, "");
    let doc = Document::parse(&svg).expect("well-formed SVG");
    check_frame(&doc);
    assert_eq!(of_class(&doc, "tile").len(), 117);
    assert_eq!(of_class(&doc, "closed").len(), closed);
    let pieces = of_class(&doc, "piece");
    assert_eq!(pieces.len(), on_board);
    for team in ["white", "yellow", "black", "red"] {
        let of_team = |n: &&Node| n.attribute("data-team") == Some(team);
        assert_eq!(of_class(&doc, "ship").iter().filter(of_team).count(), 1);
        assert!(pieces.iter().filter(of_team).count() >= 1, "{team}");
    }
    let people: usize = of_class(&doc, "people").iter().map(count).sum();
    assert_eq!(people, on_board);
    // Open tiles name themselves; those that lie one way or another say which (an arrow
    // turned a quarter is drawn turned 90°).
    for t in of_class(&doc, "tile") {
        let closed = has_class(&t, "closed");
        assert_eq!(t.attribute("data-tile").is_none(), closed, "{t:?}");
        if let Some(rot) = t.attribute("data-rot") {
            let glyph = t.children().find(|c| c.has_tag_name("text")).unwrap();
            let turn: u32 = rot.parse().unwrap();
            let transform = glyph.attribute("transform").unwrap_or("rotate(0 ");
            assert!(
                transform.starts_with(&format!("rotate({} ", 90 * turn)),
                "{t:?}"
            );
        }
    }
}

/// White has peeked at C3 with the lighthouse; black (P3) has not.
fn peeked(tile: &str) -> J {
    let mut j = J::new(&pos(&format!(
        "set lighthouse=peek4\ntiles E5=#lh C3=#{tile}\nW1 D5\n"
    )));
    j.play("W1 D5->E5");
    j
}

fn tile_at<'a>(doc: &'a Document, cell: &str) -> Node<'a, 'a> {
    of_class(doc, "tile")
        .into_iter()
        .find(|t| t.attribute("data-cell") == Some(cell))
        .unwrap()
}

#[test]
fn a_face_down_jackal_tile_stays_out_of_the_picture_of_a_team_that_has_not_seen_it() {
    let mut j = peeked("cr");
    let black = picture(&mut j.repl, "P3");
    let doc = Document::parse(&black).unwrap();
    let c3 = tile_at(&doc, "C3");
    assert_eq!(c3.attribute("class"), Some("tile closed"));
    assert!(!black.contains("\"cr\"") && !black.contains('Ж'), "{black}");
    // Whatever lies there, black's picture is the same.
    let mut other = peeked("rb");
    assert_eq!(black, picture(&mut other.repl, "P3"));
    j.run("as P3");
    assert_eq!(black, picture(&mut j.repl, ""));
    // White sees what it peeked.
    j.run("as P1");
    let white = picture(&mut j.repl, "");
    let doc = Document::parse(&white).unwrap();
    let c3 = tile_at(&doc, "C3");
    assert_eq!(c3.attribute("class"), Some("tile closed known"));
    assert_eq!(c3.attribute("data-tile"), Some("cr"));
    assert_ne!(white, picture(&mut other.repl, "P1"));
}

/// A Pirates game where S1 hid the gold in `galleon`, a few turns in.
fn pirates(galleon: &str) -> Repl {
    let mut r = common::repl(&common::rules());
    common::run(
        &mut r,
        &[
            "new pirates --variant author --seed 4",
            &format!("play {galleon}"),
            "auto 30",
        ],
    );
    r
}

#[test]
fn the_golden_galleon_is_drawn_only_for_a_view_that_may_see_it() {
    let (mut g1, mut g2) = (pirates("G1"), pirates("G2"));
    assert_eq!(common::run(&mut g1, &["lua G:get('gold_rev')"]), "false");
    let p1 = picture(&mut g1, "P1");
    assert_eq!(p1, picture(&mut g2, "P1"), "P1 cannot tell G1 from G2");
    assert!(!p1.contains("golden"), "{p1}");
    let doc = Document::parse(&p1).unwrap();
    check_frame(&doc);
    let ships = of_class(&doc, "ship");
    let listed = common::run(&mut g1, &["lua #require('pirates.board').ships(G)"]);
    assert_eq!(ships.len().to_string(), listed);
    let side = |s: &str| {
        ships
            .iter()
            .filter(|n| n.attribute("data-side") == Some(s))
            .count()
    };
    assert_eq!((side("spain"), side("pirate")), (3, 6));
    assert_eq!(of_class(&doc, "wind").len(), 1);
    assert!(!of_class(&doc, "current").is_empty() && !of_class(&doc, "port").is_empty());
    // The Spanish seat and the referee see which one it is.
    for (r, id) in [(&mut g1, "G1"), (&mut g2, "G2")] {
        for seat in ["S1", ""] {
            let svg = picture(r, seat);
            let doc = Document::parse(&svg).unwrap();
            let golden: Vec<&str> = of_class(&doc, "ship")
                .iter()
                .filter(|s| s.attribute("data-golden") == Some("true"))
                .map(|s| s.attribute("data-id").unwrap())
                .collect();
            assert_eq!(golden, [id], "seat {seat}");
        }
    }
}

#[test]
fn chaupar_draws_the_cross_its_castles_and_a_block() {
    let mut r = common::repl(&common::rules());
    common::run(
        &mut r,
        &[
            "new chaupar --seed 7",
            "roll 6 5 1",
            "roll 1 1 2",
            "roll 2 2 5",
            "roll 1 1 1",
            "roll 6 6 2",
            "play enter 6",
        ],
    );
    let svg = picture(&mut r, "");
    let doc = Document::parse(&svg).unwrap();
    check_frame(&doc);
    assert_eq!(of_class(&doc, "square").len(), 96);
    assert_eq!(of_class(&doc, "castle").len(), 12);
    assert_eq!(of_class(&doc, "charkoni").len(), 1);
    let pieces = of_class(&doc, "piece");
    assert_eq!(pieces.len(), 16);
    let at = |w: &str| {
        pieces
            .iter()
            .filter(|p| p.attribute("data-where") == Some(w))
            .count()
    };
    assert_eq!((at("board"), at("waiting"), at("home")), (2, 14, 0));
    let blocks = of_class(&doc, "block");
    assert_eq!(blocks.len(), 1, "S entered two pieces on one square");
    assert_eq!(blocks[0].attribute("data-colour"), Some("S"));
    assert_eq!(count(&blocks[0]), 2);
}

#[test]
fn the_pictures_in_docs_are_what_the_script_draws() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = std::fs::read_to_string(root.join("scripts/pictures.tort")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let script = script.replace("docs/pictures/", &format!("{}/", dir.path().display()));
    let mut r = common::repl(&common::rules());
    r.run_script(&script, |_| {})
        .unwrap_or_else(|(line, e)| panic!("scripts/pictures.tort:{line}: {e}"));
    for game in ["backgammon", "jackal", "pirates", "chaupar"] {
        let drawn = std::fs::read_to_string(dir.path().join(format!("{game}.svg"))).unwrap();
        let shipped = std::fs::read_to_string(root.join(format!("docs/pictures/{game}.svg")))
            .unwrap_or_default();
        check_frame(&Document::parse(&drawn).expect("well-formed SVG"));
        assert!(
            drawn == shipped,
            "docs/pictures/{game}.svg is not what the rules draw now: \
             run `tortuga run scripts/pictures.tort` at the root"
        );
    }
}

#[test]
fn an_unwritable_path_is_one_error_and_leaves_nothing_behind() {
    let mut r = common::repl(&common::rules());
    common::run(&mut r, &["new backgammon --seed 1"]);
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no/such/folder/board.svg");
    let e = common::fails(&mut r, &format!("show --svg {}", missing.display()));
    assert!(
        e.starts_with(&format!("cannot save to {}", missing.display())) && !e.contains('\n'),
        "{e}"
    );
    // A folder in the way: the rename fails, and the temporary file is gone.
    let folder = dir.path().join("taken.svg");
    std::fs::create_dir(&folder).unwrap();
    let e = common::fails(&mut r, &format!("show --svg {}", folder.display()));
    assert!(e.contains("taken.svg"), "{e}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().collect();
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(std::fs::read_dir(&folder).unwrap().next().is_none());
}

/// A scratch copy of the test games whose nim draws `body` (the picture hook's body), and a
/// REPL in a nim game on it.
fn nim_drawing(body: &str) -> (tempfile::TempDir, Repl) {
    let dir = common::scratch_rules();
    let game = dir.path().join("rules/nim/game.lua");
    let text = std::fs::read_to_string(&game).unwrap();
    let patched = text.replace(
        "    render = function(G)",
        &format!("    picture = function(G, viewer)\n{body}\n    end,\n    render = function(G)"),
    );
    assert_ne!(text, patched);
    std::fs::write(&game, patched).unwrap();
    let mut r = Repl::new(&dir.path().join("rules"), false);
    common::run(&mut r, &["new nim --seed 1"]);
    (dir, r)
}

#[test]
fn text_is_escaped_and_attributes_are_written_in_a_fixed_order() {
    let (_dir, mut r) = nim_drawing(
        r##"return { width = 100, height = 50, title = "a <b> & \"c\"", items = {
          { "text", x = 10, y = 20.5, text = "</svg><script>x</script> & more", class = "label",
            data = { z = 1, a = "x\"y", m = true } },
          { "g", rotate = 90, x = 50, y = 25, items = { { "circle", x = 1, y = 2, r = 3, fill = "#abc" } } },
        } }"##,
    );
    let svg = picture(&mut r, "");
    let doc = Document::parse(&svg).expect("well-formed SVG");
    check_frame(&doc);
    let text = of_class(&doc, "label")[0];
    assert_eq!(text.text(), Some("</svg><script>x</script> & more"));
    assert_eq!(text.attribute("data-a"), Some("x\"y"));
    assert!(
        svg.contains(r#"class="label" data-a="x&quot;y" data-m="true" data-z="1""#),
        "{svg}"
    );
    assert!(svg.contains(r#"<g transform="rotate(90 50 25)">"#), "{svg}");
    assert!(!doc.descendants().any(|n| n.has_tag_name("script")));
}

#[test]
fn a_bad_picture_is_one_error_naming_the_shape_and_writes_nothing() {
    let cases = [
        (
            "return 3",
            "nim's picture hook returned integer, not a table of shapes",
        ),
        (
            r#"return { width = 10, height = 10, items = { { "rect", x = 0, y = 0, w = 1, h = 1, fill = "red\" onload=\"x" } } }"#,
            "items[1] (rect): fill 'red\" onload=\"x' is not a colour",
        ),
        (
            r#"return { width = 10, height = 10, items = { { "g", items = { { "ellipse" } } } } }"#,
            "items[1] (g).items[1] (ellipse): unknown shape",
        ),
        (
            r#"return { width = 10, height = 10, items = { { "circle", x = 0/0, y = 0, r = 1 } } }"#,
            "items[1] (circle): x NaN is not a number",
        ),
        (r#"return { height = 10 }"#, "width is missing"),
        (
            r#"local g = { "circle", x = 0, y = 0, r = 1 }
               for _ = 1, 9 do g = { "g", items = { g } } end
               return { width = 10, height = 10, items = { g } }"#,
            "groups nest deeper than 8",
        ),
        (
            r#"return { width = 10, height = 10, items = { { string.rep("x", 1000) } } }"#,
            "items[1]: the first entry is not a shape's kind",
        ),
        (
            r#"return { width = 10, height = 10, items = { { "text", x = 0, y = 0, text = "a\nb" } } }"#,
            "items[1] (text): text holds a control character",
        ),
        (
            r#"local items = {} for i = 1, 30000 do items[i] = { "circle", x = 0, y = 0, r = 1 } end
               return { width = 10, height = 10, items = items }"#,
            "more than 20000 shapes",
        ),
    ];
    for (body, want) in cases {
        let (dir, mut r) = nim_drawing(body);
        let file = dir.path().join("board.svg");
        std::fs::write(&file, "before").unwrap();
        let e = common::fails(&mut r, &format!("show --svg {}", file.display()));
        assert!(e.contains(want) && !e.contains('\n'), "{body}: {e}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "before");
        common::run(&mut r, &["play take 1"]);
    }
    let mut r = common::repl(&common::fixtures());
    common::run(&mut r, &["new race --seed 1"]);
    let e = common::fails(&mut r, "show --svg x.svg");
    assert_eq!(e, "race has no hook 'picture'");
}

#[test]
fn every_shipped_variant_draws_a_picture() {
    let root = common::rules();
    let mut drawn = 0;
    for game in tortuga::script::ruleset::rules::games(&root) {
        let mut names = vec![String::new()];
        names.extend(tortuga::script::ruleset::rules::variants(&root, &game));
        for variant in names {
            let option = if variant.is_empty() {
                String::new()
            } else {
                format!("--variant {variant}")
            };
            let mut r = common::repl(&root);
            common::run(
                &mut r,
                &[&format!("new {game} {option} --seed 2"), "auto 12"],
            );
            let svg = picture(&mut r, "");
            let doc =
                Document::parse(&svg).unwrap_or_else(|e| panic!("{game} {variant}: {e}\n{svg}"));
            check_frame(&doc);
            let units = ["checker", "piece", "ship"];
            assert!(
                doc.descendants()
                    .any(|n| units.iter().any(|c| has_class(&n, c))),
                "{game} {variant}: no piece drawn"
            );
            drawn += 1;
        }
    }
    assert!(drawn >= 25, "the four games and their variants: {drawn}");
}
