//! The learned evaluation's network: inputs, one hidden layer of sigmoid units and one sigmoid
//! output, the estimated probability that the seat the inputs describe wins. Small enough
//! (TD-Gammon's size: 198 inputs, 40 hidden) that a decision evaluates each option's result
//! in a few microseconds; forward and backward passes are written here for that reason (see
//! docs/bots.md).

/// The weights, in one flat vector so that a training step's change is one vector too: for
/// each hidden unit its input weights then its bias, then the output's weights and its bias.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub inputs: usize,
    pub hidden: usize,
    pub params: Vec<f32>,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Net {
    /// A network of small weights drawn from `draw` (uniform in [-0.1, 0.1) for each value
    /// `draw` returns in [0, 1)).
    pub fn new(inputs: usize, hidden: usize, mut draw: impl FnMut() -> f64) -> Net {
        let n = Net::size(inputs, hidden);
        let params = (0..n).map(|_| (draw() * 0.2 - 0.1) as f32).collect();
        Net {
            inputs,
            hidden,
            params,
        }
    }

    /// How many weights a network of this shape has.
    pub fn size(inputs: usize, hidden: usize) -> usize {
        hidden * (inputs + 1) + hidden + 1
    }

    /// The estimate for inputs `x`.
    pub fn value(&self, x: &[f32]) -> f32 {
        self.value_of_set(&set_inputs(x))
    }

    /// The estimate for the inputs that are set (`set_inputs`).
    pub fn value_of_set(&self, set: &[(u32, f32)]) -> f32 {
        self.forward(set, &mut Vec::new())
    }

    /// The estimate, with the hidden activations left in `h`. Inputs are mostly zero
    /// (backgammon's: about one in six set; the generic encoding's: a few hundred of
    /// thousands), so each hidden unit sums over the set ones only.
    fn forward(&self, set: &[(u32, f32)], h: &mut Vec<f32>) -> f32 {
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
        let out = &self.params[self.hidden * stride..];
        let mut sum = out[self.hidden];
        for (w, hj) in out.iter().zip(h.iter()) {
            sum += w * hj;
        }
        sigmoid(sum)
    }

    /// The estimate for `x` and its gradient with respect to every weight, added to `grad`
    /// times `scale`.
    pub fn value_and_gradient(&self, x: &[f32], grad: &mut [f32], scale: f32) -> f32 {
        self.gradient_of_set(&set_inputs(x), grad, scale)
    }

    /// [`Net::value_and_gradient`] for the inputs that are set: only their weights move.
    pub fn gradient_of_set(&self, set: &[(u32, f32)], grad: &mut [f32], scale: f32) -> f32 {
        let mut h = Vec::with_capacity(self.hidden);
        let y = self.forward(set, &mut h);
        let stride = self.inputs + 1;
        let dy = y * (1.0 - y) * scale;
        let out_at = self.hidden * stride;
        for j in 0..self.hidden {
            grad[out_at + j] += dy * h[j];
            let dh = dy * self.params[out_at + j] * h[j] * (1.0 - h[j]);
            if dh != 0.0 {
                let row = &mut grad[j * stride..(j + 1) * stride];
                for &(i, xi) in set {
                    row[i as usize] += dh * xi;
                }
                row[self.inputs] += dh;
            }
        }
        grad[out_at + self.hidden] += dy;
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

    /// The analytic gradient matches finite differences of the output.
    #[test]
    fn the_gradient_is_the_slope_of_the_value() {
        let mut seed = 7u64;
        let mut draw = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut net = Net::new(5, 3, &mut draw);
        for p in &mut net.params {
            *p *= 20.0;
        }
        let x = [0.5, 1.0, 0.0, 0.25, 2.0];
        let mut grad = vec![0.0; net.params.len()];
        net.value_and_gradient(&x, &mut grad, 1.0);
        for (i, g) in grad.iter().enumerate() {
            let mut up = net.clone();
            up.params[i] += 1e-2;
            let mut down = net.clone();
            down.params[i] -= 1e-2;
            let slope = (up.value(&x) - down.value(&x)) / 2e-2;
            assert!(
                (slope - g).abs() < 2e-3,
                "weight {i}: slope {slope}, gradient {g}"
            );
        }
    }
}
