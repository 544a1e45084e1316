//! `sim-merge` on any text: each line a shard file. Each line is read as written; if it
//! parses as a shard at all, it is also read with its digest recomputed, so that the checks
//! behind the digest, the merge and the report see the edited fields too. No panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tortuga::sim::report::Report;
use tortuga::sim::shard::{Shard, merge};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut shards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let name = format!("shard-{i}.json");
        let _ = Shard::parse(line, &name);
        if let Ok(mut shard) = serde_json::from_str::<Shard>(line) {
            shard.seal();
            if let Ok(shard) = Shard::parse(&shard.to_json(), &name) {
                shards.push((name, shard));
            }
        }
    }
    if let Ok(results) = merge(shards) {
        let _ = Report::of(&results).text();
    }
});
