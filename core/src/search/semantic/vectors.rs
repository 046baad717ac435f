//! One vector per chunk, stored as signed bytes with a per-vector scale: a quarter of the floats'
//! bytes, and the cosine keeps its order to within a rounding step.

use serde::{Deserialize, Serialize};

/// The chunks' vectors in chunk order; a chunk with no known token has the zero vector.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ChunkVectors {
    dims: u32,
    scales: Vec<f32>,
    values: Vec<i8>,
}

impl ChunkVectors {
    pub fn new(dims: usize) -> ChunkVectors {
        ChunkVectors {
            dims: dims as u32,
            ..ChunkVectors::default()
        }
    }

    pub fn push(&mut self, vector: Option<&[f32]>) {
        let max = vector.map_or(0.0, |v| v.iter().fold(0f32, |m, x| m.max(x.abs())));
        let scale = if max > 0.0 { max / 127.0 } else { 0.0 };
        self.scales.push(scale);
        for i in 0..self.dims as usize {
            let x = vector.and_then(|v| v.get(i)).copied().unwrap_or(0.0);
            let q = if scale > 0.0 {
                libm::roundf(x / scale)
            } else {
                0.0
            };
            self.values.push(q.clamp(-127.0, 127.0) as i8);
        }
    }

    /// Appends `other`'s vectors (the next batch's chunks); `false`, and nothing appended, when
    /// their dimensions differ.
    pub fn append(&mut self, other: ChunkVectors) -> bool {
        if other.dims != self.dims {
            return false;
        }
        self.scales.extend(other.scales);
        self.values.extend(other.values);
        true
    }

    pub fn len(&self) -> usize {
        self.scales.len()
    }

    pub fn is_empty(&self) -> bool {
        self.scales.is_empty()
    }

    /// Every chunk has its `dims` values.
    pub fn is_consistent(&self) -> bool {
        self.dims > 0 && self.values.len() == self.scales.len() * self.dims as usize
    }

    /// The cosine of chunk `c` with the normalised `query`; 0 for a chunk with no vector.
    pub fn similarity(&self, c: usize, query: &[f32]) -> f32 {
        let dims = self.dims as usize;
        let (Some(&scale), Some(row)) = (
            self.scales.get(c),
            self.values.get(c * dims..(c + 1) * dims),
        ) else {
            return 0.0;
        };
        scale
            * row
                .iter()
                .zip(query)
                .map(|(&v, q)| f32::from(v) * q)
                .sum::<f32>()
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.scales.len() * 4 + self.values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantised_vectors_keep_the_cosine_and_append_only_alike() {
        let mut v = ChunkVectors::new(3);
        v.push(Some(&[0.6, 0.8, 0.0]));
        v.push(None);
        assert!((v.similarity(0, &[0.6, 0.8, 0.0]) - 1.0).abs() < 0.01);
        assert_eq!(v.similarity(1, &[0.6, 0.8, 0.0]), 0.0);
        assert_eq!(v.similarity(2, &[0.6, 0.8, 0.0]), 0.0, "no such chunk");
        let mut other = ChunkVectors::new(3);
        other.push(Some(&[0.0, 0.0, 1.0]));
        assert!(v.append(other));
        assert_eq!(v.len(), 3);
        assert!(!v.append(ChunkVectors::new(4)));
        assert!(v.is_consistent());
    }
}
