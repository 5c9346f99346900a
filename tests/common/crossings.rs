//! A period measured as the physics tests measure one: the times a value falls through
//! zero, each interpolated within its step, and the mean time between them.

#[derive(Debug, Default)]
pub struct Crossings {
    last: Option<f64>,
    pub times: Vec<f64>,
}

impl Crossings {
    /// The value at time `t`, a step of `dt` after the last one: a fall through zero
    /// since then is kept, at the time the straight line between the two crosses it.
    pub fn record(&mut self, t: f64, dt: f64, value: f64) {
        if let Some(last) = self.last
            && last > 0.0
            && value <= 0.0
        {
            self.times.push(t - dt * value / (value - last));
        }
        self.last = Some(value);
    }

    /// The mean time between the first crossing and the last.
    pub fn period(&self) -> f64 {
        let n = self.times.len();
        (self.times[n - 1] - self.times[0]) / (n - 1) as f64
    }
}
