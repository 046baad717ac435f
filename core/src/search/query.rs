//! Running a query: filter pages, score chunks, cut at the threshold, spread results over pages.

use super::index::{PageMeta, SearchIndex};
use super::language::QueryLanguage;
use super::page::ChunkText;
use super::page_kind::PageKinds;
use super::postings;
use super::score;
use super::semantic::SEMANTIC_WEIGHT;
use super::tokenize::query_terms;
use super::version::{CurrentVersion, NamedVersion};

/// Long assistant questions become queries too; past this many distinct terms the rest add cost, not
/// precision.
pub(crate) const MAX_QUERY_TERMS: usize = 64;
/// Chunks of one page allowed before other pages' chunks are used up.
const PER_PAGE: usize = 2;
/// `near_path` boosts raise the score to this power: same folder, then same top-level section.
/// A power keeps scores below 1 and in order (a multiplier would tie the best hits at 1.0) and is
/// modest: 0.5 -> 0.55 and 0.8 -> 0.83 for the same folder, so weak matches stay below strong ones.
const SAME_FOLDER_BOOST: f32 = 0.85;
const SAME_SECTION_BOOST: f32 = 0.95;

/// A search request. `Query::new(text)` gives the defaults (10 results, no threshold, no filters).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Query<'a> {
    pub text: &'a str,
    /// Maximum number of hits; 0 returns none.
    pub limit: usize,
    /// Hits scoring below this (0-1) are dropped.
    pub score_threshold: f32,
    /// Exact language code (ASCII case-insensitive).
    pub language: Option<&'a str>,
    /// Exact version label. Pages without a version belong to every version, so they always pass.
    pub version: Option<&'a str>,
    /// The site model has no tags: a tag matches the page's tab or any of its navigation groups,
    /// case-insensitively.
    pub tag: Option<&'a str>,
    /// Navigation groups (assistant v2 `filter.groups`): a page passes when its tab or one of its
    /// groups equals any of them, case-insensitively. Empty means no restriction.
    pub groups: &'a [String],
    /// The page the user is on; pages in the same folder get a modest boost.
    pub near_path: Option<&'a str>,
    /// The site's current version (its default, [`crate::docs::Site::default_version`]), whose
    /// pages rank before near copies in other versions when the query names none; `None`: the
    /// version of the index's first versioned page stands for it.
    pub current_version: Option<&'a str>,
    /// When the best hit is a short section, up to this many sections after it on its page are
    /// returned after the ranked hits (beyond `limit`), in page order: the assistant reads on from
    /// a troubleshooting page's "Symptom" to its "Solution", which shares no word with the question.
    pub follow_top: usize,
    /// The search endpoints' queries ask for the semantic stage ([`super::semantic`]); the
    /// assistant's retrieval does not (measured: it cost the offline answers as much as it gained,
    /// `docs/assistant/quality.mdx`). A host with the model then embeds the text into `semantic`.
    pub by_meaning: bool,
    /// The query's vector from the semantic stage's model: candidates' scores fuse their cosine
    /// with it. `None`, or an index without vectors: BM25 alone.
    pub semantic: Option<&'a [f32]>,
}

impl<'a> Query<'a> {
    pub fn new(text: &'a str) -> Self {
        Query {
            text,
            limit: 10,
            score_threshold: 0.0,
            language: None,
            version: None,
            tag: None,
            groups: &[],
            near_path: None,
            current_version: None,
            follow_top: 0,
            by_meaning: false,
            semantic: None,
        }
    }
}

impl Default for Query<'_> {
    fn default() -> Self {
        Query::new("")
    }
}

/// One matching chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub path: String,
    pub title: String,
    /// `None` for the text before the page's first heading.
    pub heading: Option<String>,
    pub anchor: Option<String>,
    /// The chunk text.
    pub text: String,
    /// 0-1, comparable across queries (see `score.rs`).
    pub score: f32,
    pub language: String,
    pub version: Option<String>,
    pub groups: Vec<String>,
    /// The IDF-weighted share (0-1) of the query's terms the chunk contains: what the answer backend
    /// reads to tell a question the docs cover from one they only brush against.
    pub coverage: f32,
    /// The chunk's place in the index: the pieces of one cut section are consecutive.
    pub chunk: u32,
}

/// One ranked chunk: its number, score and [`Hit::coverage`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranked {
    pub chunk: u32,
    pub score: f32,
    pub coverage: f32,
}

/// What scoring reads: global statistics, page metadata and each term's postings. The whole index
/// and the sharded form (meta plus the query's term shards) both provide it, so there is one scorer.
pub(crate) trait Corpus {
    /// Every page, in navigation order.
    fn pages(&self) -> &[PageMeta];
    fn chunk_count(&self) -> usize;
    /// The chunks search can return: the N of every term's rarity.
    fn searchable_chunk_count(&self) -> usize;
    fn chunk(&self, c: usize) -> Option<ChunkStats>;
    /// Average field lengths over the whole site.
    fn avg_len(&self) -> [f32; 3];
    /// The term's site-wide document frequency and its postings; `None` when no chunk has it.
    fn term(&self, term: &str) -> Option<(u32, postings::Decoder<'_>)>;
    /// The cosine of chunk `c`'s vector with the query's; `None` without vectors.
    fn similarity(&self, _c: usize, _query: &[f32]) -> Option<f32> {
        None
    }
}

/// What scoring needs of one chunk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ChunkStats {
    pub page: u32,
    pub heading_len: u32,
    pub text_len: u32,
}

impl Corpus for SearchIndex {
    fn pages(&self) -> &[PageMeta] {
        &self.data.pages
    }
    fn chunk_count(&self) -> usize {
        self.data.chunks.len()
    }
    fn searchable_chunk_count(&self) -> usize {
        self.searchable_chunks
    }
    fn chunk(&self, c: usize) -> Option<ChunkStats> {
        self.data.chunks.get(c).map(|ch| ChunkStats {
            page: ch.page,
            heading_len: ch.heading_len,
            text_len: ch.text_len,
        })
    }
    fn avg_len(&self) -> [f32; 3] {
        self.data.avg_len
    }
    fn term(&self, term: &str) -> Option<(u32, postings::Decoder<'_>)> {
        self.dict().lookup(term)
    }
    fn similarity(&self, c: usize, query: &[f32]) -> Option<f32> {
        self.vectors.as_ref().map(|v| v.similarity(c, query))
    }
}

impl SearchIndex {
    /// Best chunks first; at most two per page unless too few other pages match.
    pub fn search(&self, q: &Query) -> Vec<Hit> {
        rank(self, q)
            .into_iter()
            .filter_map(|r| {
                let chunk = self.data.chunks.get(r.chunk as usize)?;
                let page = self.data.pages.get(chunk.page as usize)?;
                Some(make_hit(page, chunk.view(), r))
            })
            .collect()
    }
}

/// The chunks a query returns with their scores, best first, spread over pages: the whole of search
/// but for fetching the chunks' text.
pub(crate) fn rank(corpus: &impl Corpus, q: &Query) -> Vec<Ranked> {
    if q.limit == 0 {
        return Vec::new();
    }
    let n_chunks = corpus.chunk_count();
    let terms = query_terms(q.text, MAX_QUERY_TERMS);
    if terms.is_empty() || n_chunks == 0 {
        return Vec::new();
    }
    let pages = corpus.pages();
    let avg_len = corpus.avg_len();
    let title_len_of = |page: u32| pages.get(page as usize).map_or(0, |p| p.title_len);

    let tag = q.tag.map(|t| t.trim().to_lowercase());
    let groups: Vec<String> = q.groups.iter().map(|g| g.trim().to_lowercase()).collect();
    let allowed: Vec<bool> = pages
        .iter()
        .map(|p| passes_filters(p, q, tag.as_deref(), &groups))
        .collect();
    let mut raw = vec![0f32; n_chunks];
    let mut matched = vec![0f32; n_chunks];
    let mut title_hits = vec![0u16; n_chunks];
    let mut title_idf = vec![0f32; n_chunks];
    let mut touched: Vec<u32> = Vec::new();
    let n_searchable = corpus.searchable_chunk_count();
    let missing_idf = score::idf(n_searchable, 0);
    let mut total_idf = 0.0;
    // Coverage's denominator: as the score's, except that a CJK bigram no page contains is left out.
    // Bigrams are cut across word boundaries ("面但" of "页面但"), and one the docs never spell is
    // nearly always such a seam, not a subject the docs lack.
    let mut coverage_idf = 0.0;
    // A question naming something the index has never seen (`Netlify`, `HIPAA`) is covered by no
    // section, however many of its other words a section shares: coverage is 0 for every hit.
    let name_terms: Vec<String> = crate::text::named_words(q.text)
        .iter()
        .flat_map(|w| query_terms(w, MAX_QUERY_TERMS))
        .collect();
    let mut unknown_name = false;
    let mut language = QueryLanguage::new(pages);
    let mut version = NamedVersion::find(pages, &terms);

    for term in &terms {
        let named_version = version.as_ref().is_some_and(|v| v.term == *term);
        let Some((df, postings)) = corpus.term(term) else {
            if let Some(v) = version.as_mut().filter(|_| named_version) {
                v.idf = missing_idf;
            }
            unknown_name |= name_terms.contains(term);
            total_idf += missing_idf;
            if !term.chars().any(crate::text::is_cjk) {
                coverage_idf += missing_idf;
            }
            continue;
        };
        let idf = score::idf(n_searchable, df);
        total_idf += idf;
        coverage_idf += idf;
        if let Some(v) = version.as_mut().filter(|_| named_version) {
            v.idf = idf;
        }
        for posting in postings {
            let c = posting.chunk as usize;
            if let Some(v) = version.as_mut().filter(|_| named_version) {
                v.in_text.push(posting.chunk);
            }
            let Some(chunk) = corpus.chunk(c) else {
                continue;
            };
            if !allowed.get(chunk.page as usize).copied().unwrap_or(false) {
                continue;
            }
            let len = [title_len_of(chunk.page), chunk.heading_len, chunk.text_len];
            let w = score::term_weight(posting.tf, len, avg_len);
            if let (Some(r), Some(m)) = (raw.get_mut(c), matched.get_mut(c)) {
                if *m == 0.0 {
                    touched.push(posting.chunk);
                }
                *r += idf * w;
                *m += idf;
            }
            if posting.tf[0] > 0 {
                if let (Some(h), Some(t)) = (title_hits.get_mut(c), title_idf.get_mut(c)) {
                    *h += 1;
                    *t += idf;
                }
            }
        }
    }
    let current = CurrentVersion::new(
        pages,
        q.current_version,
        version.is_some() || q.version.is_some(),
    );
    let mut kinds = PageKinds::new(pages, &terms);
    if let Some(mut v) = version {
        // Postings come in chunk order; sorted anyway, as the lookup below depends on it (the shared
        // sort, `crate::sort`: on a sorted list it only compares neighbours).
        crate::sort::sort(&mut v.in_text);
        for &c in &touched {
            let Some(chunk) = corpus.chunk(c as usize) else {
                continue;
            };
            let of_version = pages
                .get(chunk.page as usize)
                .and_then(|p| p.version.as_deref())
                == Some(v.label);
            if of_version && v.in_text.binary_search(&c).is_err() {
                let len = [title_len_of(chunk.page), chunk.heading_len, chunk.text_len];
                if let (Some(r), Some(m)) = (raw.get_mut(c as usize), matched.get_mut(c as usize)) {
                    *r += v.idf * score::term_weight([1, 0, 0], len, avg_len);
                    *m += v.idf;
                }
            }
        }
    }
    for &c in &touched {
        if let (Some(chunk), Some(&m)) = (corpus.chunk(c as usize), matched.get(c as usize)) {
            language.saw(chunk.page, m);
        }
    }
    let language_power = language.powers();

    let near = q.near_path.map(super::page::normalize_path);
    let definition = asks_what_something_is(q.text);
    let mut scored: Vec<(u32, Ranked)> = touched
        .into_iter()
        .filter_map(|c| {
            let chunk = corpus.chunk(c as usize)?;
            let r = *raw.get(c as usize)?;
            let m = *matched.get(c as usize)?;
            let mut s = score::normalise(r, m, total_idf);
            let hits = title_hits.get(c as usize).copied().unwrap_or(0) as u32;
            let title_share = title_idf.get(c as usize).copied().unwrap_or(0.0)
                / total_idf.max(f32::MIN_POSITIVE);
            s = title_containment_boost(s, hits, title_len_of(chunk.page), title_share);
            let opening = chunk.heading_len == 0
                && pages
                    .get(chunk.page as usize)
                    .is_some_and(|p| p.first_chunk == c);
            if definition && opening && hits > 0 && hits >= title_len_of(chunk.page) {
                s = libm::powf(s, DEFINITION_BOOST);
            }
            s = libm::powf(s, language_power(chunk.page));
            s = libm::powf(s, current.power(chunk.page));
            s = libm::powf(s, kinds.power(chunk.page));
            if let (Some(near), Some(page)) = (near, pages.get(chunk.page as usize)) {
                s = libm::powf(s, proximity_boost(near, &page.path));
            }
            let coverage = if coverage_idf > 0.0 && !unknown_name {
                (m / coverage_idf).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (s > 0.0 && s >= q.score_threshold).then_some((
                chunk.page,
                Ranked {
                    chunk: c,
                    score: s,
                    coverage,
                },
            ))
        })
        .collect();
    if let Some(query) = q.semantic {
        fuse_semantic(corpus, query, &mut scored);
        scored.retain(|(_, r)| r.score > 0.0 && r.score >= q.score_threshold);
    }
    // std's sort, not crate::sort: this runs on every search, where the shared sort is about twice as slow.
    scored.sort_by(|a, b| by_score(&a.1, &b.1));
    let mut ranked = spread(&scored, pages.len(), q.limit);
    follow_top(corpus, &mut ranked, q.follow_top);
    ranked
}

/// Stretches the candidates' cosines with the query over 0..the best score and mixes them in at
/// [`SEMANTIC_WEIGHT`]: raw cosines of a static model sit in a narrow band whatever the query, so only
/// their order among the candidates says anything. Mixed in after the page powers (language, current
/// version, page kind), which measured better than before them (`docs/assistant/quality.mdx`). Only
/// chunks a query term matched are candidates: the cosine reorders what BM25 found; it adds nothing
/// no word of the question meets.
fn fuse_semantic(corpus: &impl Corpus, query: &[f32], scored: &mut [(u32, Ranked)]) {
    let mut sims = Vec::with_capacity(scored.len());
    for (_, r) in scored.iter() {
        let Some(sim) = corpus.similarity(r.chunk as usize, query) else {
            return;
        };
        sims.push(sim);
    }
    let (lo, hi) = sims
        .iter()
        .fold((f32::MAX, f32::MIN), |(l, h), &s| (l.min(s), h.max(s)));
    if hi <= lo {
        return;
    }
    let top = scored.iter().fold(0f32, |m, (_, r)| m.max(r.score));
    for ((_, r), sim) in scored.iter_mut().zip(sims) {
        let stretched = top * (sim - lo) / (hi - lo);
        r.score = (1.0 - SEMANTIC_WEIGHT) * r.score + SEMANTIC_WEIGHT * stretched;
    }
}

/// A best section this short (in terms) is read on into the sections after it; a troubleshooting
/// page's "Symptom" (what the question pasted) before its "Diagnosis" and "Solution", a one-line
/// intro before the steps. About two sentences: a longer section usually says what it is about.
const SHORT_SECTION_TERMS: u32 = 40;

/// [`Query::follow_top`]: the sections after a short best hit on its page, each at half the lowest
/// ranked score, so they rank after every hit the query itself matched and lead nothing.
fn follow_top(corpus: &impl Corpus, ranked: &mut Vec<Ranked>, sections: usize) {
    let Some(top) = ranked.first().copied() else {
        return;
    };
    let Some(first) = corpus.chunk(top.chunk as usize) else {
        return;
    };
    if sections == 0 || first.text_len >= SHORT_SECTION_TERMS {
        return;
    }
    // Ranked best first: the last is the lowest.
    let score = ranked.last().map_or(top.score, |r| r.score) * 0.5;
    let mut added = 0;
    let mut c = top.chunk.saturating_add(1);
    while added < sections
        && corpus
            .chunk(c as usize)
            .is_some_and(|ch| ch.page == first.page)
    {
        if !ranked.iter().any(|r| r.chunk == c) {
            ranked.push(Ranked {
                chunk: c,
                score,
                coverage: 0.0,
            });
            added += 1;
        }
        c = c.saturating_add(1);
    }
}

/// "What is a session?" asks for a definition, which a page titled with the subject gives in its
/// opening, before any heading; its sections ("Inherited Sessions", "Starting a Session") match the
/// title as well and, after the title boost, tie with it. The opening of a page whose whole title is
/// in such a question scores its score to this power (0.80 -> 0.82).
const DEFINITION_BOOST: f32 = 0.9;

/// The question asks what something is: "What is …", "what are …", "Qu'est-ce que …", "¿Qué es …",
/// "什么是…" / "…是什么", "…とは", also after a lead-in ("In v1, what is a session?").
fn asks_what_something_is(text: &str) -> bool {
    const OPENERS: [&str; 8] = [
        "what is ",
        "what are ",
        "what's ",
        "qu'est-ce qu",
        "c'est quoi ",
        "qué es ",
        "que es ",
        "qué son ",
    ];
    let lower = text.trim().to_lowercase().replace('’', "'");
    let after_lead_in = |w: &str| {
        lower.starts_with(w)
            || lower.contains(&format!(", {w}"))
            || lower.contains(&format!("¿{w}"))
    };
    OPENERS.iter().any(|w| after_lead_in(w))
        || ["什么是", "是什么", "とは"]
            .iter()
            .any(|w| lower.contains(w))
}

/// Takes at most `PER_PAGE` chunks per page in score order; only if that leaves room, the
/// remaining chunks fill it. Result stays in score order.
fn spread(scored: &[(u32, Ranked)], n_pages: usize, limit: usize) -> Vec<Ranked> {
    let mut per_page = vec![0usize; n_pages];
    let mut picked = Vec::with_capacity(limit.min(scored.len()));
    let mut overflow = Vec::new();
    for &(page, r) in scored {
        if picked.len() >= limit {
            break;
        }
        match per_page.get_mut(page as usize) {
            Some(n) if *n < PER_PAGE => {
                *n += 1;
                picked.push(r);
            }
            _ => overflow.push(r),
        }
    }
    if picked.len() < limit {
        let room = limit - picked.len();
        picked.extend(overflow.into_iter().take(room));
        // At most `limit` hits: the shared sort (`crate::sort`) costs nothing here.
        crate::sort::sort_by(&mut picked, by_score);
    }
    picked
}

/// Best score first; equal scores in chunk order, so results never depend on the sort.
fn by_score(a: &Ranked, b: &Ranked) -> std::cmp::Ordering {
    b.score.total_cmp(&a.score).then(a.chunk.cmp(&b.chunk))
}

/// A hit from its page and chunk, whichever form of the index they came from.
pub(crate) fn make_hit(page: &PageMeta, chunk: ChunkText<'_>, ranked: Ranked) -> Hit {
    let non_empty = |s: &str| (!s.is_empty()).then(|| s.to_owned());
    Hit {
        path: page.path.clone(),
        title: page.title.clone(),
        heading: non_empty(chunk.heading),
        anchor: non_empty(chunk.anchor),
        text: chunk.text.trim().to_owned(),
        score: ranked.score,
        language: page.language.clone(),
        version: page.version.clone(),
        groups: page.groups.clone(),
        coverage: ranked.coverage,
        chunk: ranked.chunk,
    }
}

/// A page whose whole title is in the query ("How do I add *redirects*?" and the page "Redirects") is
/// nearly always the page asked about, however its body scores; BM25 alone lets long pages that repeat
/// the question's verbs win. Closing a share of the gap to 1 keeps scores in 0-1 and in order.
/// The gain is in proportion to what the title weighs in the query (`query_share`, its terms' share
/// of the query's IDF, doubled, at most 1): a page titled "Pages" is not what "add Disqus comments
/// under each page" asks about, though its whole title is in the question.
fn title_containment_boost(
    score: f32,
    title_terms_matched: u32,
    title_len: u32,
    query_share: f32,
) -> f32 {
    if title_len == 0 || title_terms_matched == 0 {
        return score;
    }
    let share = (title_terms_matched as f32 / title_len as f32).min(1.0);
    let gain = if share >= 1.0 {
        0.6
    } else if share >= 0.66 {
        0.3
    } else {
        0.0
    };
    score + (1.0 - score) * gain * (2.0 * query_share).min(1.0)
}

/// `tag` and `groups` are the query's, trimmed and lowercased once per query.
fn passes_filters(page: &PageMeta, q: &Query, tag: Option<&str>, groups: &[String]) -> bool {
    if let Some(lang) = q.language {
        if !page.language.eq_ignore_ascii_case(lang) {
            return false;
        }
    }
    if let (Some(want), Some(have)) = (q.version, page.version.as_deref()) {
        if want != have {
            return false;
        }
    }
    if let Some(tag) = tag {
        let matches = |s: &String| s.trim().to_lowercase() == tag;
        if !(page.tab.iter().any(matches) || page.groups.iter().any(matches)) {
            return false;
        }
    }
    if !groups.is_empty() {
        let listed = |s: &String| groups.contains(&s.trim().to_lowercase());
        if !(page.tab.iter().any(listed) || page.groups.iter().any(listed)) {
            return false;
        }
    }
    true
}

fn folder(path: &str) -> Option<&str> {
    path.rsplit_once('/').map(|(dir, _)| dir)
}

fn proximity_boost(near: &str, path: &str) -> f32 {
    match (folder(near), folder(path)) {
        (Some(a), Some(b)) if a == b => SAME_FOLDER_BOOST,
        (None, None) => SAME_FOLDER_BOOST,
        (Some(a), Some(b)) if a.split('/').next() == b.split('/').next() => SAME_SECTION_BOOST,
        _ => 1.0,
    }
}

#[cfg(test)]
mod containment_tests {
    use super::title_containment_boost;

    #[test]
    fn a_title_wholly_in_the_query_outranks_a_stronger_body_match() {
        let titled = title_containment_boost(0.5, 2, 2, 0.5);
        let other = title_containment_boost(0.7, 1, 5, 0.2);
        assert!(titled > other, "{titled} vs {other}");
        assert!(titled <= 1.0);
    }

    #[test]
    fn what_is_questions_in_the_fixtures_languages() {
        use super::asks_what_something_is as asks;
        for q in [
            "What is a session?",
            "In v1, what's a span?",
            "Qu’est-ce qu'un snippet ?",
            "¿Qué es un fragmento?",
            "什么是代码片段？",
            "スニペットとは",
        ] {
            assert!(asks(q), "{q}");
        }
        assert!(!asks("How do I start a session?"));
        assert!(!asks("whatever is cached"));
    }

    #[test]
    fn no_title_terms_no_boost() {
        assert_eq!(title_containment_boost(0.4, 0, 3, 0.5), 0.4);
        assert_eq!(title_containment_boost(0.4, 1, 0, 0.5), 0.4);
    }

    #[test]
    fn a_title_that_is_a_small_part_of_the_query_gains_little() {
        let central = title_containment_boost(0.3, 1, 1, 0.5);
        let incidental = title_containment_boost(0.3, 1, 1, 0.1);
        assert!(central > 0.7 && incidental < 0.45, "{central} {incidental}");
    }
}
