//! Every shipped game's position parser (its `import` hook) on any text: the first byte picks
//! the game, by its place in name order (0 backgammon, 1 chaupar, 2 jackal, 3 pirates). A
//! position is refused with an error or imported and exported again; nothing panics.
#![no_main]

use std::path::Path;
use std::rc::Rc;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use tortuga::script::ruleset::rules::games;
use tortuga::script::{Budget, LoadOptions, Rules};
use tortuga::session::Game;

thread_local! {
    static RULES: Vec<Rc<Rules>> = {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules");
        let opts = LoadOptions {
            budget: Budget { wall: Duration::from_millis(200), ..Budget::default() },
            ..LoadOptions::default()
        };
        games(&root)
            .iter()
            .map(|g| Rc::new(Rules::load(&root, g, &opts).expect("shipped rules load")))
            .collect()
    };
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    RULES.with(|all| {
        let rules = &all[pick as usize % all.len()];
        let mut game = Game::new(rules.clone(), rules.seats.default, 0).expect("setup");
        if game.import(text).is_ok() {
            let _ = game.status();
            let _ = game.text_hook("export", ());
        }
    });
});
