mod common;
use std::rc::Rc;
use std::time::{Duration, Instant};
use tortuga::kernel::rng::Stream;
use tortuga::script::{LoadOptions, Rules};
use tortuga::session::{Game, Status};

#[test]
fn perf() {
    let rules = Rc::new(Rules::load(&common::rules(), "jackal", &LoadOptions::default()).unwrap());
    let (mut ts, mut ta, mut tc, mut tk) = (
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
        Duration::ZERO,
    );
    let mut n = 0;
    for seed in 1..=6 {
        let mut game = Game::new(rules.clone(), 4, seed).unwrap();
        game.transactional = false;
        game.with_state_mut(|s| s.logging = false);
        let mut bot = Stream::new(seed, "bots");
        loop {
            let t = Instant::now();
            let _ = game.text_hook("check", ()).unwrap();
            tk += t.elapsed();
            let t = Instant::now();
            let st = game.status().unwrap().clone();
            ts += t.elapsed();
            n += 1;
            match st {
                Status::Over { .. } => break,
                Status::Chance(_) => {
                    let t = Instant::now();
                    game.resolve_chance(None).unwrap();
                    tc += t.elapsed();
                }
                Status::Decision { count, .. } => {
                    let i = bot.below(count as u64) as usize;
                    let t = Instant::now();
                    game.apply(i).unwrap();
                    ta += t.elapsed();
                }
            }
        }
    }
    eprintln!("steps {n} status {ts:?} apply {ta:?} chance {tc:?} check {tk:?}");
}
