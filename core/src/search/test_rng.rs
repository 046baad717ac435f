//! Test-only randomness for the search tests and benchmarks: one xorshift64 sequence (fixed seeds,
//! the same run every time) and the corrupt inputs every index loader is held to.

pub(crate) struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Roughly Zipf-distributed word rank, as natural text is.
    pub fn zipf(&mut self, n: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        ((n as f64).powf(u) as usize).saturating_sub(1).min(n - 1)
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// 300 runs of garbage (up to 400 bytes) and 300 one-bit flips of `bytes`, each handed to `load`,
/// which must refuse or read it without panicking.
pub(crate) fn each_corruption(bytes: &[u8], mut load: impl FnMut(&[u8])) {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..300 {
        let garbage: Vec<u8> = (0..(rng.next() % 400)).map(|_| rng.next() as u8).collect();
        load(&garbage);
        let mut flipped = bytes.to_vec();
        let at = (rng.next() as usize) % flipped.len();
        flipped[at] ^= 1 << (rng.next() % 8);
        load(&flipped);
    }
}
