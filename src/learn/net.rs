//! The learned evaluation's network: inputs, one hidden layer of sigmoid units and sigmoid
//! outputs, the estimated chances of the game's outcomes for the seat the inputs describe
//! (the first: that it wins; backgammon adds its gammons and backgammons). Small enough
//! (TD-Gammon's size: 198 inputs, 40 hidden) that a decision evaluates each option's result
//! in a few microseconds; forward and backward passes are written here for that reason (see
//! docs/bots.md).

/// The weights, in one flat vector so that a training step's change is one vector too: for
/// each hidden unit its input weights then its bias, then for each output its weights and its
/// bias, then, where the network has a linear part, for each output its input weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub inputs: usize,
    pub hidden: usize,
    pub outputs: usize,
    /// Whether each output also sums the inputs directly (a skip connection). A few dense
    /// inputs chosen by hand (Jackal's gold counts) then move the estimates from the first
    /// games, where through small hidden weights they would barely reach them.
    pub linear: bool,
    pub params: Vec<f32>,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Net {
    /// A network of small weights drawn from `draw` (uniform in [-0.1, 0.1) for each value
    /// `draw` returns in [0, 1)).
    pub fn new(
        inputs: usize,
        hidden: usize,
        outputs: usize,
        linear: bool,
        mut draw: impl FnMut() -> f64,
    ) -> Net {
        let n = Net::size(inputs, hidden, outputs, linear);
        let params = (0..n).map(|_| (draw() * 0.2 - 0.1) as f32).collect();
        Net {
            inputs,
            hidden,
            outputs,
            linear,
            params,
        }
    }

    /// How many weights a network of this shape has.
    pub fn size(inputs: usize, hidden: usize, outputs: usize, linear: bool) -> usize {
        hidden * (inputs + 1) + outputs * (hidden + 1) + if linear { outputs * inputs } else { 0 }
    }

    /// Where output k's linear weights start (meaningful where the network has them).
    fn linear_at(&self, k: usize) -> usize {
        self.hidden * (self.inputs + 1) + self.outputs * (self.hidden + 1) + k * self.inputs
    }

    /// The first estimate (that the seat wins) for inputs `x`.
    pub fn value(&self, x: &[f32]) -> f32 {
        self.values_of_set(&set_inputs(x))[0]
    }

    /// Every estimate for the inputs that are set (`set_inputs`).
    pub fn values_of_set(&self, set: &[(u32, f32)]) -> Vec<f32> {
        self.forward(set, &mut Vec::new())
    }

    /// The estimates, with the hidden activations left in `h`. Inputs are mostly zero
    /// (backgammon's: about one in six set; the generic encoding's: a few hundred of
    /// thousands), so each hidden unit sums over the set ones only.
    fn forward(&self, set: &[(u32, f32)], h: &mut Vec<f32>) -> Vec<f32> {
        let stride = self.inputs + 1;
        h.clear();
        for j in 0..self.hidden {
            let row = &self.params[j * stride..(j + 1) * stride];
            let mut sum = row[self.inputs];
            for &(i, xi) in set {
                sum += row[i as usize] * xi;
            }
            h.push(sigmoid(sum));
        }
        let at = self.hidden * stride;
        (0..self.outputs)
            .map(|k| {
                let out =
                    &self.params[at + k * (self.hidden + 1)..at + (k + 1) * (self.hidden + 1)];
                let mut sum = out[self.hidden];
                for (w, hj) in out.iter().zip(h.iter()) {
                    sum += w * hj;
                }
                if self.linear {
                    let direct = &self.params[self.linear_at(k)..];
                    for &(i, xi) in set {
                        sum += direct[i as usize] * xi;
                    }
                }
                sigmoid(sum)
            })
            .collect()
    }

    /// The first estimate for `x`, and the gradient of every estimate with respect to every
    /// weight times `scale`, added to `grad`.
    pub fn value_and_gradient(&self, x: &[f32], grad: &mut [f32], scale: f32) -> f32 {
        self.gradient_of_set(&set_inputs(x), grad, &vec![scale; self.outputs])[0]
    }

    /// For the inputs that are set, the estimates, and `Σ_k scales[k] · ∇ estimate_k` added to
    /// `grad`: only the weights of those inputs move.
    pub fn gradient_of_set(
        &self,
        set: &[(u32, f32)],
        grad: &mut [f32],
        scales: &[f32],
    ) -> Vec<f32> {
        let mut h = Vec::with_capacity(self.hidden);
        let y = self.forward(set, &mut h);
        let stride = self.inputs + 1;
        let at = self.hidden * stride;
        let mut dh = vec![0.0f32; self.hidden];
        for k in 0..self.outputs {
            let dy = y[k] * (1.0 - y[k]) * scales[k];
            if dy == 0.0 {
                continue;
            }
            let out_at = at + k * (self.hidden + 1);
            for j in 0..self.hidden {
                grad[out_at + j] += dy * h[j];
                dh[j] += dy * self.params[out_at + j];
            }
            grad[out_at + self.hidden] += dy;
            if self.linear {
                let direct = self.linear_at(k);
                for &(i, xi) in set {
                    grad[direct + i as usize] += dy * xi;
                }
            }
        }
        for j in 0..self.hidden {
            let d = dh[j] * h[j] * (1.0 - h[j]);
            if d != 0.0 {
                let row = &mut grad[j * stride..(j + 1) * stride];
                for &(i, xi) in set {
                    row[i as usize] += d * xi;
                }
                row[self.inputs] += d;
            }
        }
        y
    }
}

/// The inputs of `x` that are not zero, with their places, in order.
pub fn set_inputs(x: &[f32]) -> Vec<(u32, f32)> {
    x.iter()
        .enumerate()
        .filter(|(_, xi)| **xi != 0.0)
        .map(|(i, xi)| (i as u32, *xi))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic gradient matches finite differences of the outputs' weighted sum.
    #[test]
    fn the_gradient_is_the_slope_of_the_value() {
        let mut seed = 7u64;
        let mut draw = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut net = Net::new(5, 3, 2, true, &mut draw);
        for p in &mut net.params {
            *p *= 20.0;
        }
        let x = [0.5, 1.0, 0.0, 0.25, 2.0];
        let mut grad = vec![0.0; net.params.len()];
        let scales = [1.0, -0.5];
        net.gradient_of_set(&set_inputs(&x), &mut grad, &scales);
        let sum = |n: &Net| {
            let y = n.values_of_set(&set_inputs(&x));
            y[0] * scales[0] + y[1] * scales[1]
        };
        for (i, g) in grad.iter().enumerate() {
            let mut up = net.clone();
            up.params[i] += 1e-2;
            let mut down = net.clone();
            down.params[i] -= 1e-2;
            let slope = (sum(&up) - sum(&down)) / 2e-2;
            assert!(
                (slope - g).abs() < 2e-3,
                "weight {i}: slope {slope}, gradient {g}"
            );
        }
    }
}
