//! Data files: a rule reads a text file of its own game folder through the kernel, hashed
//! into the ruleset's identity; bad paths and malformed files are one error naming the file
//! (and for a parse error, its line and column).

use crate::common;

use common::{fails, repl, run};

/// A game whose map is a data file: setup reads it with `data.lines` and places one cell per
/// character `#`, failing with `data.fail` on any other character but `.`.
const MAPPED: &str = r##"
local MAP = data.read("maps/atlantic.map")          -- read at load
local grid = require("mapped.sea-grid")              -- a module name with a hyphen
return {
  name = "mapped",
  seats = { min = 1, max = 1, default = 1 },
  switches = { map = { default = "maps/atlantic.map" } },
  hooks = {
    setup = function(G)
      for y, line in ipairs(data.lines(G:switch("map"))) do
        for x = 1, #line do
          local c = line:sub(x, x)
          if c == "#" then G:place(grid.name(x, y))
          elseif c ~= "." then data.fail(G:switch("map"), y, x, "unknown terrain '" .. c .. "'") end
        end
      end
      G:set("size", #MAP)
    end,
    status = function(G) return { actor = 1, options = { "wait" } } end,
    apply = function(G) end,
    render = function(G) return tostring(G:get("size")) end,
  },
}
"##;

fn folder(map: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("rules/mapped");
    std::fs::create_dir_all(game.join("maps")).unwrap();
    std::fs::write(game.join("game.lua"), MAPPED).unwrap();
    std::fs::write(
        game.join("sea-grid.lua"),
        "return { name = function(x, y) return 'sea' .. x .. ',' .. y end }\n",
    )
    .unwrap();
    std::fs::write(game.join("maps/atlantic.map"), map).unwrap();
    dir
}

#[test]
fn a_rule_reads_its_map_and_the_map_is_part_of_the_identity() {
    let dir = folder(".#\n##\n");
    let mut r = repl(&dir.path().join("rules"));
    run(&mut r, &["new mapped --seed 1"]);
    assert_eq!(
        run(
            &mut r,
            &["lua G:loc('sea2,1'), G:loc('sea1,1'), G:get('size')"]
        )
        .trim(),
        "1\tnil\t6"
    );
    let files = run(&mut r, &["rules"]);
    assert!(files.contains("rules/mapped/maps/atlantic.map"), "{files}");
    // Its hash is part of the identity: an edited map is a different ruleset.
    std::fs::write(
        dir.path().join("rules/mapped/maps/atlantic.map"),
        ".#\n#.\n",
    )
    .unwrap();
    let mut other = repl(&dir.path().join("rules"));
    run(&mut other, &["new mapped --seed 1"]);
    let now = run(&mut other, &["rules"]);
    let line = |t: &str| {
        t.lines()
            .find(|l| l.contains("atlantic.map"))
            .unwrap()
            .to_string()
    };
    assert_ne!(line(&files), line(&now));
}

#[test]
fn a_parse_error_names_the_data_file_line_and_column() {
    let dir = folder("..\n.#~\n");
    let mut r = repl(&dir.path().join("rules"));
    let e = fails(&mut r, "new mapped");
    assert!(
        e.contains("rules/mapped/maps/atlantic.map:2:3: unknown terrain '~'"),
        "{e}"
    );
}

#[test]
fn bad_data_files_are_one_error() {
    let dir = folder("#\n");
    let rules = dir.path().join("rules");
    let game = rules.join("mapped");
    std::fs::write(dir.path().join("outside.map"), "#").unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside.map"), game.join("maps/link.map")).unwrap();
    std::fs::write(game.join("maps/big.map"), vec![b'.'; (1 << 20) + 1]).unwrap();
    let mut r = repl(&rules);
    for (map, says) in [
        (
            "maps/none.map",
            "rules/mapped/maps/none.map: no such data file",
        ),
        ("../backgammon/game.lua", "a path inside the game folder"),
        (
            "maps/link.map",
            "rules/mapped/maps/link.map: outside the game folder",
        ),
        ("maps/big.map", "too large (1048577 bytes; at most 1048576)"),
        ("maps", "not a regular file"),
    ] {
        let e = fails(&mut r, &format!("new mapped --set map={map}"));
        assert!(e.contains(says), "{map}: {e}");
    }
    run(&mut r, &["new mapped"]);
}
