//! Pirates maps as data (spec §2, §19 item 4): the default map and TM1 load with their ports
//! and currents; malformed maps are refused naming the file, line, column and reason.

use crate::common;

use std::fs;

fn load(dir: &std::path::Path, switches: &str) -> Result<String, String> {
    let mut repl = common::repl(dir);
    repl.handle_line(&format!("new pirates --seed 1 {switches}"))
        .map(|_| {
            repl.handle_line(
                "lua G:get('w') .. 'x' .. G:get('h') .. ' ' .. #G:get('port_pos') .. ' ports'",
            )
            .unwrap()
        })
        .map_err(|e| format!("{e:#}"))
}

/// A copy of the shipped rules whose atlantic map is changed by `edit`.
fn edited(edit: impl Fn(&mut Vec<String>)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(&common::rules(), dir.path());
    let path = dir.path().join("pirates/maps/atlantic.map");
    let mut lines: Vec<String> = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    edit(&mut lines);
    fs::write(&path, lines.join("\n") + "\n").unwrap();
    dir
}

/// The file line of grid row r (the grid follows the comment block).
fn grid_line(lines: &[String], r: usize) -> usize {
    lines
        .iter()
        .position(|l| !l.starts_with(';') && !l.trim().is_empty())
        .unwrap()
        + r
}

fn set_cell(lines: &mut [String], c: usize, r: usize, ch: char) {
    let i = grid_line(lines, r);
    let mut row: Vec<char> = lines[i].chars().collect();
    row[c] = ch;
    lines[i] = row.into_iter().collect();
}

#[test]
fn the_default_map_loads() {
    let out = load(&common::rules(), "").unwrap();
    assert_eq!(out, "52x28 23 ports");
    let hops = common::run(
        &mut {
            let mut r = common::repl(&common::rules());
            common::run(&mut r, &["new pirates --seed 1"]);
            r
        },
        &["lua select(2, G:get('cur'):gsub('[0-7]', ''))"],
    );
    assert_eq!(hops, "92");
}

#[test]
fn tm1_ships_as_a_map_file() {
    let out = load(&common::rules(), "--set map=tm1");
    let e = out.unwrap_err();
    assert!(
        e.contains("rules/pirates/maps/tm1.map:")
            && e.contains("a full game needs exactly one port 'V'"),
        "{e}"
    );
}

#[test]
fn a_current_onto_land_is_refused() {
    let dir = edited(|l| set_cell(l, 10, 17, '#'));
    let e = load(dir.path(), "").unwrap_err();
    assert!(
        e.contains("pirates/maps/atlantic.map:") && e.contains("(10,17)"),
        "{e}"
    );
}

#[test]
fn a_port_cut_off_from_the_sea_is_refused() {
    let dir = edited(|l| {
        set_cell(l, 2, 20, '#');
        set_cell(l, 1, 19, '#');
    });
    let e = load(dir.path(), "").unwrap_err();
    assert!(e.contains("Vera Cruz"), "{e}");
}

#[test]
fn an_unknown_terrain_character_names_line_and_column() {
    let dir = edited(|l| set_cell(l, 30, 5, 'x'));
    let e = load(dir.path(), "").unwrap_err();
    let lines: Vec<String> = fs::read_to_string(dir.path().join("pirates/maps/atlantic.map"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let want = format!(
        "atlantic.map:{}:31: unknown terrain character 'x'",
        grid_line(&lines, 5) + 1
    );
    assert!(e.contains(&want), "{e} / {want}");
}

#[test]
fn ragged_rows_are_refused() {
    let dir = edited(|l| {
        let i = grid_line(l, 3);
        l[i].pop();
    });
    let e = load(dir.path(), "").unwrap_err();
    assert!(
        e.contains("ragged row: 51 cells where the first row has 52"),
        "{e}"
    );
}

#[test]
fn a_port_walled_in_by_land_is_refused() {
    // Every sea cell around Cadiz (46,11) becomes land.
    let dir = edited(|l| {
        for (c, r) in [
            (45, 10),
            (45, 11),
            (45, 12),
            (46, 10),
            (46, 12),
            (47, 10),
            (47, 11),
            (47, 12),
        ] {
            set_cell(l, c, r, '#');
        }
    });
    let e = load(dir.path(), "").unwrap_err();
    assert!(
        e.contains("atlantic.map:") && e.contains("port Cadiz (46,11) touches no open sea"),
        "{e}"
    );
}

#[test]
fn a_port_on_a_lake_is_unreachable() {
    // Cadiz (46,11) opens onto two sea cells, (46,12) and (47,12), that land closes off.
    let dir = edited(|l| {
        for (c, r) in [(45, 9), (45, 11), (45, 12), (48, 12), (45, 13)] {
            set_cell(l, c, r, '#');
        }
    });
    let e = load(dir.path(), "").unwrap_err();
    assert!(
        e.contains("atlantic.map:")
            && e.contains("port Cadiz (46,11) cannot be reached through open sea from Vera Cruz"),
        "{e}"
    );
}

/// A user's own map: a file in the maps folder of a copy of the rules, named by the `map`
/// switch; a whole game plays on it. A path instead of a name says where a map goes.
#[test]
fn a_game_plays_on_a_user_s_own_map() {
    let dir = tempfile::tempdir().expect("temp dir");
    common::copy_dir(&common::rules(), dir.path());
    let maps = dir.path().join("pirates/maps");
    let mut lines: Vec<String> = fs::read_to_string(maps.join("atlantic.map"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    set_cell(&mut lines, 20, 14, '#');
    fs::write(maps.join("mine.map"), lines.join("\n") + "\n").unwrap();
    let mut repl = common::repl(dir.path());
    common::run(
        &mut repl,
        &["new pirates --seed 4 --set map=mine", "auto 20000"],
    );
    assert_eq!(common::run(&mut repl, &["lua G:get('map')"]), "mine");
    assert_eq!(common::run(&mut repl, &["lua G:get('phase')"]), "over");
    let e = load(dir.path(), "--set map=/home/me/mine.map").unwrap_err();
    assert!(e.contains("in the maps folder of the pirates rules"), "{e}");
    let e = load(dir.path(), "--set map=theirs").unwrap_err();
    assert!(
        e.contains("pirates/maps/theirs.map: no such data file (a map is a file"),
        "{e}"
    );
}

#[test]
fn spinner_widths_must_add_up() {
    let e = load(&common::rules(), "--set w_dir=30").unwrap_err();
    assert!(e.contains("must be 45"), "{e}");
    assert!(load(&common::rules(), "--set w_dir=33 --set w_calm=6").is_ok());
}

#[test]
fn a_bad_inline_map_names_the_position_line() {
    let mut repl = common::repl(&common::rules());
    let e = common::fails(
        &mut repl,
        "setup pirates --variant author pirates 1\nmap inline\n...\n.x.\nend\nplayers S1=spain P1=pirate\n",
    );
    assert!(
        e.contains("position line 4:2: unknown terrain character 'x'"),
        "{e}"
    );
}
