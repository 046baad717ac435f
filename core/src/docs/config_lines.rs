//! Where in the site's config files a navigation entry is written, so a warning about the entry
//! names `file:line`. The config parser keeps no positions (serde_json values have none); this
//! scans the JSON string literals of the config files once for all the entries asked about.

use std::collections::{BTreeMap, HashSet};

use super::archive::SourceTree;
use super::config::{page_path, CONFIG_FILE};

/// The config file the site is read from: `docs.json`, else the legacy `mint.json`.
pub fn config_file_name(tree: &SourceTree) -> &'static str {
    [CONFIG_FILE, "mint.json"]
        .into_iter()
        .find(|f| tree.contains_key(*f))
        .unwrap_or(CONFIG_FILE)
}

/// For each page path in `wanted`, the first `(file, line)` of a config file where a string naming
/// it is written (`"/guides/x.mdx"` names `guides/x`). The main config file is searched first, then
/// the other JSON files of `tree` (the files it `$ref`s), in path order; a path written nowhere
/// (built by a `$ref` chain in some other shape) is left out.
pub fn locate(tree: &SourceTree, wanted: &[&str]) -> BTreeMap<String, (String, usize)> {
    let mut left: HashSet<&str> = wanted.iter().copied().collect();
    let mut found = BTreeMap::new();
    let main = config_file_name(tree);
    let others = tree
        .keys()
        .filter(|f| f.as_str() != main && f.to_ascii_lowercase().ends_with(".json"));
    for file in std::iter::once(main).chain(others.map(String::as_str)) {
        if left.is_empty() {
            break;
        }
        let Some(bytes) = tree.get(file) else {
            continue;
        };
        for (text, line) in string_literals(bytes) {
            let Some(path) = page_path(&text) else {
                continue;
            };
            if left.remove(path.as_str()) {
                found.insert(path, (file.to_owned(), line));
            }
        }
    }
    found
}

/// The JSON string literals of `bytes` with the line each starts on (`\r\n` and a lone `\r` end a
/// line, as editors count them). Escapes are decoded; a literal that does not decode is skipped.
fn string_literals(bytes: &[u8]) -> impl Iterator<Item = (String, usize)> + '_ {
    let mut i = 0;
    let mut line = 1;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => line += 1,
                b'\r' if bytes.get(i + 1) != Some(&b'\n') => line += 1,
                b'"' => {
                    let start = i;
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    if bytes.get(i) != Some(&b'"') {
                        // Unterminated: the line break (or the end) is read by the outer loop.
                        continue;
                    }
                    i += 1;
                    if let Ok(text) = serde_json::from_slice::<String>(&bytes[start..i]) {
                        return Some((text, line));
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;

    #[test]
    fn finds_each_entry_once_in_the_main_file_first() {
        let files = tree(&[
            ("a.json", "[\"x\"]"),
            (
                "docs.json",
                "{\"a\": \"\\/x.mdx\",\n\"b\": [\"y/\", \"x\"],\r\n\"c\": \"z\"}",
            ),
        ]);
        let found = locate(&files, &["x", "y", "z", "w"]);
        let expect = |f: &str, l| (f.to_owned(), l);
        assert_eq!(found["x"], expect("docs.json", 1));
        assert_eq!(found["y"], expect("docs.json", 2));
        assert_eq!(found["z"], expect("docs.json", 3));
        assert!(!found.contains_key("w"));
    }

    #[test]
    fn the_legacy_config_file_is_named_when_it_is_the_only_one() {
        assert_eq!(config_file_name(&tree(&[("mint.json", "{}")])), "mint.json");
        assert_eq!(
            config_file_name(&tree(&[("mint.json", "{}"), ("docs.json", "{}")])),
            "docs.json"
        );
    }

    #[test]
    fn unterminated_and_escaped_literals_do_not_derail_the_scan() {
        let lits: Vec<_> = string_literals(b"\"a\\\"b\" \"open\n\"c\"").collect();
        assert_eq!(lits, [("a\"b".to_owned(), 1), ("c".to_owned(), 2)]);
    }
}
