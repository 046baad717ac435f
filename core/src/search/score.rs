//! BM25F and the 0-1 normalisation.
//!
//! Per query term t and chunk: `tf~ = sum_f w_f * tf_f / (1 - b_f + b_f * len_f / avg_f)` over the
//! fields title, heading, text; the term contributes `idf(t) * tf~ / (k1 + tf~)`.
//!
//! Normalisation: each term's saturated weight `tf~ / (k1 + tf~)` is below 1, so dividing the raw sum
//! by `sum idf` over the query's terms gives 0-1 without clamping (clamping would tie the best hits and
//! lose their order). That is multiplied by the square root of *coverage*, the IDF-weighted share of
//! the query's terms the chunk contains. With k1 = 2 and weights 6/3/1, per term at average lengths:
//! - once in title, heading and text: 0.83; title alone 0.75; heading alone 0.6;
//! - once in body text: 0.33, three times 0.6;
//! - one common word of a three-word query, weakly: a few hundredths;
//! - a chunk with two of the terms beats one repeating a single term many times, because each term is
//!   capped at its IDF and coverage rewards breadth.
//!
//! Query terms missing from the index count in the denominator at the highest IDF: the docs do not
//! cover them, and the score should say so.

use super::postings::{HEADING, TEXT, TITLE};

const K1: f32 = 2.0;
/// Title > heading > text: a word in the page title says more about the page than one in passing.
const WEIGHTS: [f32; 3] = [6.0, 3.0, 1.0];
/// Titles and headings vary little in length; text length varies a lot and long text mentions
/// everything, so it is normalised hardest.
const B: [f32; 3] = [0.5, 0.5, 0.75];

/// Robertson-Sparck Jones IDF with the +1 that keeps it positive for very common terms.
pub(crate) fn idf(chunks: usize, df: u32) -> f32 {
    let n = chunks as f32;
    let df = df as f32;
    libm::logf(1.0 + (n - df + 0.5) / (df + 0.5)).max(0.0)
}

/// Saturated BM25F term weight of one chunk, before IDF.
pub(crate) fn term_weight(tf: [u32; 3], len: [u32; 3], avg: [f32; 3]) -> f32 {
    let mut combined = 0.0;
    for f in [TITLE, HEADING, TEXT] {
        if tf[f] == 0 {
            continue;
        }
        let avg_len = if avg[f] > 0.0 { avg[f] } else { 1.0 };
        let norm = 1.0 - B[f] + B[f] * len[f] as f32 / avg_len;
        combined += WEIGHTS[f] * tf[f] as f32 / norm.max(0.1);
    }
    saturate(combined)
}

/// `raw` = sum of idf * term weight; `matched_idf` / `total_idf` = coverage.
pub(crate) fn normalise(raw: f32, matched_idf: f32, total_idf: f32) -> f32 {
    if total_idf <= 0.0 {
        return 0.0;
    }
    let strength = raw / total_idf;
    let coverage = (matched_idf / total_idf).clamp(0.0, 1.0);
    (strength * coverage.sqrt()).clamp(0.0, 1.0)
}

fn saturate(x: f32) -> f32 {
    x / (K1 + x)
}
