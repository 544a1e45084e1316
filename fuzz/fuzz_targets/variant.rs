//! Variant files on any text, checked against a game that has switches, tiles and house rules.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use tortuga::script::ruleset::variant::{Schema, Variant};
use tortuga::script::{LoadOptions, Rules};

thread_local! {
    static RULES: Rules = {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules");
        Rules::load(&root, "jackal", &LoadOptions::default()).expect("shipped rules load")
    };
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    RULES.with(|rules| {
        let tiles: Vec<(String, String)> = rules
            .tiles
            .iter()
            .map(|t| (t.code.clone(), t.name.clone()))
            .collect();
        let schema = Schema {
            game: "jackal",
            switches: &rules.switch_defs,
            tiles: &tiles,
            house: &rules.house_available,
        };
        let _ = Variant::parse("fuzz.toml", "fuzz", text, &schema);
    });
});
