//! Text to index terms: [`Analyzer::Index`] and [`Analyzer::Query`] of `crate::text`, where the
//! rules live (the same for both sides except CJK unigrams, so index and query always agree).

use crate::text::Analyzer;

/// The distinct terms of a query, in first-seen order.
pub(crate) fn query_terms(text: &str, max_terms: usize) -> Vec<String> {
    Analyzer::Query.distinct_terms(text, max_terms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str, analyzer: Analyzer) -> Vec<String> {
        analyzer.analyze(text)
    }

    #[test]
    fn words_split_on_punctuation_and_lowercase() {
        assert_eq!(
            terms("Static-Export API_key v2", Analyzer::Query),
            ["static", "export", "api", "key", "v2"]
        );
        assert_eq!(
            terms("How do I use the API?", Analyzer::Query),
            ["us", "api"]
        );
    }

    #[test]
    fn accents_fold_and_non_english_is_not_stemmed_twice() {
        assert_eq!(
            terms("Configuración", Analyzer::Query),
            terms("configuracion", Analyzer::Query)
        );
    }

    #[test]
    fn cjk_runs_become_bigrams() {
        assert_eq!(
            terms("自定义域名", Analyzer::Query),
            ["自定", "定义", "义域", "域名"]
        );
        let index = terms("域名", Analyzer::Index);
        assert_eq!(index, ["域", "名", "域名"]);
        assert_eq!(
            terms("配置API密钥", Analyzer::Query),
            ["配置", "api", "密钥"]
        );
    }
}
