//! YAML aliases are expanded by copying (yaml-rust2 clones the anchored node at every `*alias`), so
//! a few hundred bytes of nested aliases ("billion laughs") expand to gigabytes. Before any YAML of
//! an upload is loaded, its events are streamed once to measure how much the aliases would add.

use std::collections::HashMap;
use std::fmt;

use yaml_rust2::parser::{Event, Parser};

/// What aliases may add on top of the text itself, in nodes plus scalar bytes.
pub const MAX_ALIAS_EXPANSION: u64 = 1 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AliasExpansionTooLarge {
    pub limit: u64,
}

impl fmt::Display for AliasExpansionTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "YAML aliases expand to more than {} nodes and bytes beyond the text (aliases are copied)",
            self.limit
        )
    }
}

impl std::error::Error for AliasExpansionTooLarge {}

/// Refuses YAML whose aliases would add more than [`MAX_ALIAS_EXPANSION`] when loaded. Work is one
/// pass over the events; YAML that does not parse passes (the loader reports it).
pub fn check_alias_expansion(text: &str) -> Result<(), AliasExpansionTooLarge> {
    check_with_limit(text, MAX_ALIAS_EXPANSION)
}

fn check_with_limit(text: &str, limit: u64) -> Result<(), AliasExpansionTooLarge> {
    // An alias is written `*name`: text without a `*` has none, and most frontmatter has none
    // (the pass below cost as much as loading the YAML, on every page).
    if !text.contains('*') {
        return Ok(());
    }
    // Nodes (and scalar bytes) of each anchored node, aliases inside it counted expanded.
    let mut anchored: HashMap<usize, u64> = HashMap::new();
    // Open collections: their anchor and size so far.
    let mut open: Vec<(usize, u64)> = Vec::new();
    let mut added: u64 = 0;
    let mut parser = Parser::new_from_str(text);
    loop {
        let Ok((event, _)) = parser.next_token() else {
            return Ok(());
        };
        let (anchor, size) = match event {
            Event::StreamEnd => return Ok(()),
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                open.push((anchor, 1));
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match open.pop() {
                Some(closed) => closed,
                None => return Ok(()),
            },
            Event::Scalar(value, _, anchor, _) => (anchor, 1 + value.len() as u64),
            Event::Alias(id) => {
                let size = anchored.get(&id).copied().unwrap_or(1);
                added = added.saturating_add(size);
                if added > limit {
                    return Err(AliasExpansionTooLarge { limit });
                }
                (0, size)
            }
            _ => continue,
        };
        if anchor != 0 {
            anchored.insert(anchor, size);
        }
        if let Some((_, parent)) = open.last_mut() {
            *parent = parent.saturating_add(size);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Nine levels of nine aliases each: 9^9 `lol`s once loaded.
    pub(crate) fn billion_laughs() -> String {
        let mut yaml = String::from(
            "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
        );
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
        for pair in names.windows(2) {
            let (prev, next) = (pair[0], pair[1]);
            yaml.push_str(&format!(
                "{next}: &{next} [{}]\n",
                vec![format!("*{prev}"); 9].join(",")
            ));
        }
        yaml
    }

    #[test]
    fn billion_laughs_is_refused_after_bounded_work() {
        let yaml = billion_laughs();
        assert!(yaml.len() < 1024);
        assert_eq!(
            check_alias_expansion(&yaml),
            Err(AliasExpansionTooLarge {
                limit: MAX_ALIAS_EXPANSION
            })
        );
    }

    #[test]
    fn ordinary_aliases_and_plain_yaml_pass() {
        let yaml = "base: &base {type: string, maxLength: 10}\nname: *base\ntitle: *base\nlist: [1, 2, 3]\n";
        assert_eq!(check_alias_expansion(yaml), Ok(()));
        assert_eq!(
            check_with_limit(yaml, 6),
            Err(AliasExpansionTooLarge { limit: 6 })
        );
        assert_eq!(check_alias_expansion("title: x\n"), Ok(()));
        assert_eq!(check_alias_expansion("[unclosed"), Ok(()));
        assert_eq!(check_alias_expansion("*undefined"), Ok(()));
    }
}
