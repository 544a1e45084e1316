//! Microseconds per evaluation of a 198-40-1 sigmoid network (TD-Gammon's size, backgammon's
//! learned evaluation), one position at a time as a decision evaluates its options: forward
//! only (choosing a move) and forward with the gradient (a training step), by
//! `tortuga::learn::net::Net` and by candle on the CPU. Medians of ROUNDS rounds.

use std::hint::black_box;
use std::time::Instant;

use candle_core::{DType, Device, Tensor, Var};
use tortuga::learn::net::Net;

const INPUTS: usize = 198;
const HIDDEN: usize = 40;
const CALLS: usize = 20_000;
const ROUNDS: usize = 7;

/// Median microseconds per call of `f` over ROUNDS rounds of CALLS calls.
fn time(mut f: impl FnMut(usize)) -> f64 {
    let mut rounds: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            for i in 0..CALLS {
                f(i);
            }
            start.elapsed().as_secs_f64() * 1e6 / CALLS as f64
        })
        .collect();
    rounds.sort_by(f64::total_cmp);
    rounds[ROUNDS / 2]
}

fn main() -> candle_core::Result<()> {
    let mut seed = 1u64;
    let mut draw = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let net = Net::new(INPUTS, HIDDEN, 1, false, &mut draw);
    // Positions: sparse inputs, as backgammon's are.
    let positions: Vec<Vec<f32>> = (0..64)
        .map(|_| {
            (0..INPUTS)
                .map(|_| if draw() < 0.15 { 1.0 } else { 0.0 })
                .collect()
        })
        .collect();

    let ours = time(|i| {
        black_box(net.value(black_box(&positions[i % 64])));
    });
    let mut grad = vec![0.0f32; net.params.len()];
    let ours_grad = time(|i| {
        black_box(net.value_and_gradient(black_box(&positions[i % 64]), &mut grad, 1.0));
    });

    let dev = Device::Cpu;
    let stride = INPUTS + 1;
    let w1: Vec<f32> = (0..HIDDEN)
        .flat_map(|j| net.params[j * stride..j * stride + INPUTS].to_vec())
        .collect();
    let b1: Vec<f32> = (0..HIDDEN)
        .map(|j| net.params[j * stride + INPUTS])
        .collect();
    let out = &net.params[HIDDEN * stride..];
    let w1 = Var::from_tensor(&Tensor::from_vec(w1, (HIDDEN, INPUTS), &dev)?)?;
    let b1 = Var::from_tensor(&Tensor::from_vec(b1, HIDDEN, &dev)?)?;
    let w2 = Var::from_tensor(&Tensor::from_vec(
        out[..HIDDEN].to_vec(),
        (1, HIDDEN),
        &dev,
    )?)?;
    let b2 = Var::from_tensor(&Tensor::from_vec(vec![out[HIDDEN]], 1, &dev)?)?;
    let inputs: Vec<Tensor> = positions
        .iter()
        .map(|p| Tensor::from_vec(p.clone(), (INPUTS, 1), &dev))
        .collect::<candle_core::Result<_>>()?;
    // candle-core has no sigmoid of its own: 1 / (1 + e^-x).
    let sigmoid = |x: &Tensor| x.neg()?.exp()?.affine(1.0, 1.0)?.recip();
    let forward = |x: &Tensor| -> candle_core::Result<Tensor> {
        let h = sigmoid(&w1.as_tensor().matmul(x)?.squeeze(1)?.add(b1.as_tensor())?)?;
        let y = w2
            .as_tensor()
            .matmul(&h.unsqueeze(1)?)?
            .squeeze(1)?
            .add(b2.as_tensor())?;
        sigmoid(&y)
    };
    // The two agree, so the times compare the same computation.
    let theirs_value: f32 = forward(&inputs[0])?.to_vec1::<f32>()?[0];
    assert!((theirs_value - net.value(&positions[0])).abs() < 1e-5);
    let theirs = time(|i| {
        let y = forward(&inputs[i % 64]).expect("forward");
        black_box(
            y.to_dtype(DType::F32)
                .expect("f32")
                .to_vec1::<f32>()
                .expect("read"),
        );
    });
    let theirs_grad = time(|i| {
        let y = forward(&inputs[i % 64]).expect("forward");
        let grads = y.sum_all().expect("sum").backward().expect("backward");
        black_box(grads.get(&w1).expect("a gradient").dims().len());
    });
    println!("198-40-1 network, one position a call, median of {ROUNDS} rounds of {CALLS}:");
    println!(
        "  forward:            tortuga {ours:.2} µs, candle {theirs:.2} µs ({:.0}x)",
        theirs / ours
    );
    println!(
        "  forward + gradient: tortuga {ours_grad:.2} µs, candle {theirs_grad:.2} µs ({:.0}x)",
        theirs_grad / ours_grad
    );
    Ok(())
}
