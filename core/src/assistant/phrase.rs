//! The phrase rerank: the index keeps no positions, so two sections that hold the same question
//! words score alike whether they say "primary color" in a sentence or `primary-500` in code. The
//! assistant reads the text of the passages it quotes anyway; it asks retrieval for a few more
//! sections than it answers from ([`POOL`]), and a section whose prose has the question's adjacent
//! words near each other, in the question's order, closes a share of the gap to 1 before the best
//! are kept. Code fences are not prose and are skipped; the bytes read per section are bounded.

use crate::search::Hit;
use crate::text::Analyzer;

/// Sections retrieval returns for the rerank to choose from (the request's page size if larger).
pub const POOL: usize = 16;
pub fn pool_size() -> usize { std::env::var("PHRASE_POOL").ok().and_then(|v| v.parse().ok()).unwrap_or(POOL) }
/// How far the second word of a question's pair may follow the first, in content words.
const WINDOW: usize = 2;
/// Share of the gap to 1 a section with every pair of the question closes.
const GAIN: f32 = 0.3;
/// Text read per section: chunks are bounded already; this keeps the rerank's cost fixed.
const MAX_TEXT_BYTES: usize = 8 * 1024;

/// `hits` (best first) rescored by phrase proximity to `query`, best first, at most `keep`.
pub fn rerank(query: &str, mut hits: Vec<Hit>, keep: usize) -> Vec<Hit> {
    let pairs = pairs(query);
    if !pairs.is_empty() {
        let found: Vec<usize> = hits.iter().map(|h| pairs_in(&h.text, &pairs)).collect();
        let norm = if std::env::var("PHRASE_NORM").as_deref() == Ok("pool") {
            found.iter().copied().max().unwrap_or(0).max(1)
        } else {
            pairs.len()
        };
        let boosted: Vec<f32> =
            hits.iter().zip(found).map(|(h, f)| h.score + (1.0 - h.score) * gain() * f as f32 / norm as f32).collect();
        let mut order: Vec<usize> = (0..hits.len()).collect();
        // Stable: equal scores keep retrieval's order.
        order.sort_by(|&a, &b| boosted[b].total_cmp(&boosted[a]));
        let keep_scores = std::env::var("PHRASE_KEEP_SCORES").is_ok();
        let mut slots: Vec<Option<Hit>> = hits.drain(..).map(Some).collect();
        hits = order.into_iter().filter_map(|i| {
            let mut h = slots[i].take()?;
            if !keep_scores { h.score = boosted[i]; }
            Some(h)
        }).collect();
    }
    hits.truncate(keep);
    hits
}

fn gain() -> f32 {
    std::env::var("PHRASE_GAIN").ok().and_then(|v| v.parse().ok()).unwrap_or(GAIN)
}
fn window() -> usize {
    std::env::var("PHRASE_WINDOW").ok().and_then(|v| v.parse().ok()).unwrap_or(WINDOW)
}

/// The question's distinct pairs of adjacent content words (stop words dropped). The parts of one
/// identifier (`response_mode`) are not a phrase: BM25 already finds them together.
pub(super) fn pairs(query: &str) -> Vec<(String, String)> {
    let no_cjk = std::env::var("PHRASE_NO_CJK").is_ok();
    let mut out: Vec<(String, String)> = Vec::new();
    let mut last: Option<String> = None;
    for word in query.split_whitespace() {
        let terms: Vec<String> = Analyzer::Query.analyze(word).into_iter().filter(|t| !no_cjk || !t.chars().any(crate::text::is_cjk)).collect();
        let (Some(first), Some(end)) = (terms.first(), terms.last()) else { continue };
        if let Some(a) = last.take() {
            let pair = (a, first.clone());
            if pair.0 != pair.1 && !out.contains(&pair) {
                out.push(pair);
            }
        }
        if std::env::var("PHRASE_INNER").is_ok() {
            for w in terms.windows(2) { if let [a, b] = w { let p = (a.clone(), b.clone()); if a != b && !out.contains(&p) { out.push(p); } } }
        }
        last = Some(end.clone());
    }
    out
}

/// How many of `pairs` some line of `text`'s prose holds within the window.
pub(super) fn pairs_in(text: &str, pairs: &[(String, String)]) -> usize {
    let mut found = vec![false; pairs.len()];
    let mut in_fence = false;
    let mut read = 0;
    let window = window();
    for line in text.lines() {
        read += line.len() + 1;
        if read > MAX_TEXT_BYTES {
            break;
        }
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let terms = Analyzer::Query.analyze(line);
        let terms: Vec<String> = if std::env::var("PHRASE_NO_CJK").is_ok() { terms.into_iter().filter(|t| !t.chars().any(crate::text::is_cjk)).collect() } else { terms };
        for (at, term) in terms.iter().enumerate() {
            for (i, (a, b)) in pairs.iter().enumerate() {
                if term == a && terms.iter().skip(at + 1).take(window).any(|t| t == b) {
                    found[i] = true;
                }
            }
        }
    }
    found.iter().filter(|&&f| f).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(path: &str, text: &str, score: f32) -> Hit {
        Hit {
            path: path.into(),
            title: String::new(),
            heading: None,
            anchor: None,
            text: text.into(),
            score,
            language: "en".into(),
            version: None,
            groups: Vec::new(),
            coverage: 1.0,
        }
    }

    #[test]
    fn the_phrase_in_prose_outranks_the_words_in_code() {
        let hits = vec![
            hit("code", "Organize colors.\n```\n<Color.Item name=\"primary-500\" />\n```", 0.6),
            hit("prose", "If you only provide a primary color, it applies to all color elements.", 0.5),
        ];
        let out = rerank("How do I change the primary color of my site?", hits, 1);
        assert_eq!(out[0].path, "prose");
    }

    #[test]
    fn words_apart_or_reversed_earn_nothing() {
        let pairs = pairs("primary color");
        assert_eq!(pairs_in("The color is primary.", &pairs), 0);
        assert_eq!(pairs_in("primary\ncolor", &pairs), 0);
        assert_eq!(pairs_in("a primary brand color", &pairs), 1);
    }
}
