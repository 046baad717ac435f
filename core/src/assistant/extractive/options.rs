//! What the answer backend returns and the thresholds and caps a caller can set.

/// The composed answer, already cut into stream pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Text pieces to stream in order; their concatenation is the whole Markdown answer.
    pub chunks: Vec<String>,
    /// Indices into the input passages actually quoted, in citation order (`[1]` first). Empty when
    /// the documentation does not cover the question (the suggested pages are not sources).
    pub sources: Vec<usize>,
    /// False when the answer says the documentation does not cover the question.
    pub covered: bool,
    /// No passage answers the question squarely: the answer quotes the closest one and says so first.
    pub uncertain: bool,
}

impl Answer {
    pub fn text(&self) -> String {
        self.chunks.concat()
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExtractiveOptions {
    /// Passages scoring below this are ignored. Retrieval scores are not calibrated across sites,
    /// so the default only drops non-positive nonsense; term coverage does the real gating.
    pub min_score: f32,
    /// Cap on quoted prose (sentences, lists), in characters; code and the sources list are extra.
    pub max_prose_chars: usize,
    /// Most passages quoted.
    pub max_sources: usize,
    /// Longer code blocks are never quoted.
    pub max_code_chars: usize,
}

impl Default for ExtractiveOptions {
    fn default() -> Self {
        Self {
            min_score: 0.0,
            max_prose_chars: 1200,
            max_sources: 3,
            max_code_chars: 1500,
        }
    }
}
