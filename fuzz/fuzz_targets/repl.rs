//! REPL command lines on any text, against a fresh backgammon game each time (so that a find
//! replays alone), under small limits. Commands that read or write files are left out (they
//! would touch the machine, not the parser).
#![no_main]

use std::path::Path;
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use tortuga::repl::Repl;

thread_local! {
    static REPL: std::cell::RefCell<Repl> = {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules");
        let mut repl = Repl::new(&root, false);
        repl.budget.wall = Duration::from_millis(200);
        repl.budget.instructions = 5_000_000;
        repl.budget.steps = 10_000;
        std::cell::RefCell::new(repl)
    };
}

const FILE_COMMANDS: [&str; 4] = ["save", "load", "replay", "setup"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    REPL.with(|repl| {
        let mut repl = repl.borrow_mut();
        repl.handle_line("new backgammon --seed 1")
            .expect("a game starts");
        for line in text.lines() {
            let cmd = line.split_whitespace().next().unwrap_or("");
            if FILE_COMMANDS.contains(&cmd) {
                continue;
            }
            let _ = repl.handle_line(line);
            repl.quit = false;
        }
    });
});
