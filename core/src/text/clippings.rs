//! Technical English writes many words both whole and clipped ("maximum" and `MAX_UPLOAD_BYTES`,
//! "configuration" and `config.yaml`, "environment" and `.env`), and a reader uses whichever comes to
//! mind: "maximum upload size" must meet "`MAX_UPLOAD_BYTES`". The whole word becomes its clipped
//! form before the stop list and stemming, in the index and in questions alike. The table holds only
//! clippings with one reading in software documentation ("auth" is kept out of "authorization", and
//! "ref", "doc" and "sec" are not here: each is a word of its own as well).

/// Whole word (lowercase, singular and plural) to its clipped form; sorted by the whole word.
const CLIPPED: &[(&str, &str)] = &[
    ("administrator", "admin"),
    ("administrators", "admins"),
    ("application", "app"),
    ("applications", "apps"),
    ("argument", "arg"),
    ("arguments", "args"),
    ("asynchronous", "async"),
    ("authentication", "auth"),
    ("certificate", "cert"),
    ("certificates", "certs"),
    ("configuration", "config"),
    ("configurations", "configs"),
    ("database", "db"),
    ("databases", "dbs"),
    ("directories", "dirs"),
    ("directory", "dir"),
    ("environment", "env"),
    ("environments", "envs"),
    ("information", "info"),
    ("kubernetes", "k8s"),
    ("maximum", "max"),
    ("maximums", "max"),
    ("minimum", "min"),
    ("minimums", "min"),
    ("parameter", "param"),
    ("parameters", "params"),
    ("repositories", "repos"),
    ("repository", "repo"),
    ("specification", "spec"),
    ("specifications", "specs"),
    ("statistics", "stats"),
    ("temporary", "temp"),
    ("variable", "var"),
    ("variables", "vars"),
];

/// The clipped form of a whole word, if it has one.
pub(super) fn clipped(word: &str) -> Option<&'static str> {
    CLIPPED
        .binary_search_by(|(whole, _)| (*whole).cmp(word))
        .ok()
        .map(|i| CLIPPED[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_clips() {
        assert!(
            CLIPPED.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, each word once"
        );
        for (whole, clip) in CLIPPED {
            assert!(clip.len() < whole.len(), "{whole}");
            assert_eq!(clipped(whole), Some(*clip));
        }
        assert_eq!(clipped("max"), None);
        assert_eq!(
            clipped("authorization"),
            None,
            "auth is authentication's clipping only"
        );
    }
}
