//! The owner's `skill.md` at the root of the docs repository (the agentskills.io format: YAML
//! frontmatter with `name` and `description`, then Markdown): what an agent can do with the
//! product. It is not a page. It is served as written: beside `llms.txt`
//! (`GET /discovery/v1/llms/{domain}/skill.md`), at `/skill.md` of an export and as a resource of
//! the MCP server. Without one nothing is served: writing one needs a model.

use super::archive::SourceTree;
use super::frontmatter;

/// Where the file sits in the repository.
pub const SKILL_FILE: &str = "skill.md";

/// Bytes of `skill.md` served at most: agents load it whole into their context, and the format's
/// own guidance keeps a skill under about 5,000 words. A larger file is a warning and is not served.
pub const MAX_SKILL_BYTES: usize = 128 * 1024;

/// Whether a repository path is the root `skill.md` (any case, as authors name it `SKILL.md` too).
pub fn is_skill_file(path: &str) -> bool {
    path.eq_ignore_ascii_case(SKILL_FILE)
}

/// The root `skill.md` of `tree`, as it will be served; problems go to `warnings` with file and
/// line. An empty file is none. A file without readable frontmatter naming `name` and `description` is still served (an
/// agent can read it) with a warning; one past [`MAX_SKILL_BYTES`] or not UTF-8 is not.
pub fn site_skill(tree: &SourceTree, warnings: &mut Vec<String>) -> Option<String> {
    let (path, bytes) = tree.iter().find(|(path, _)| is_skill_file(path))?;
    if bytes.is_empty() {
        // Also how a tree that names every file but holds only some (an export's) shows an unread one.
        return None;
    }
    if bytes.len() > MAX_SKILL_BYTES {
        warnings.push(format!(
            "{path}: {} bytes, more than the {MAX_SKILL_BYTES} served; not served",
            bytes.len()
        ));
        return None;
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        warnings.push(format!("{path}: not UTF-8 text; not served"));
        return None;
    };
    if let Some(problem) = frontmatter_problem(text) {
        warnings.push(format!("{path}:1: {problem}"));
    }
    Some(text.to_owned())
}

/// What is wrong with the frontmatter the format requires, if anything.
fn frontmatter_problem(text: &str) -> Option<String> {
    let (Some(yaml), _) = frontmatter::split(text) else {
        return Some(
            "starts without YAML frontmatter (`---`, then `name:` and `description:`)".into(),
        );
    };
    match frontmatter::parse(yaml) {
        Err(err) => Some(format!("frontmatter is not readable YAML: {err}")),
        Ok(fields) => {
            let has = |key: &str| {
                fields
                    .extra
                    .get(key)
                    .and_then(|v| v.as_str())
                    .is_some_and(|v| !v.trim().is_empty())
            };
            let has_description = fields
                .description
                .as_deref()
                .is_some_and(|d| !d.trim().is_empty());
            match (has("name"), has_description) {
                (true, true) => None,
                (false, true) => Some("frontmatter has no `name`".into()),
                (true, false) => Some("frontmatter has no `description`".into()),
                (false, false) => Some("frontmatter has no `name` and no `description`".into()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> SourceTree {
        files
            .iter()
            .map(|(p, t)| ((*p).to_owned(), t.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn a_root_skill_is_served_as_written() {
        let text = "---\nname: acme\ndescription: Use Acme's API.\n---\n\n# Acme\n";
        let mut warnings = Vec::new();
        assert_eq!(
            site_skill(
                &tree(&[("SKILL.md", text), ("docs.json", "{}")]),
                &mut warnings
            )
            .as_deref(),
            Some(text)
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            site_skill(&tree(&[("guides/skill.md", text)]), &mut warnings),
            None,
            "only the root one"
        );
    }

    #[test]
    fn a_malformed_skill_is_a_warning_with_file_and_line() {
        let mut warnings = Vec::new();
        assert!(site_skill(&tree(&[("skill.md", "# No frontmatter\n")]), &mut warnings).is_some());
        assert!(site_skill(
            &tree(&[("skill.md", "---\nname: acme\n---\nbody\n")]),
            &mut warnings
        )
        .is_some());
        assert!(site_skill(
            &tree(&[("skill.md", "---\nname: [unclosed\n---\n")]),
            &mut warnings
        )
        .is_some());
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].starts_with("skill.md:1: starts without YAML frontmatter"));
        assert!(warnings[1].ends_with("no `description`"));
        assert!(warnings[2].contains("not readable YAML"));
    }

    #[test]
    fn an_oversized_or_binary_skill_is_not_served() {
        let mut warnings = Vec::new();
        let big = format!(
            "---\nname: a\ndescription: b\n---\n{}",
            "x".repeat(MAX_SKILL_BYTES)
        );
        assert_eq!(
            site_skill(&tree(&[("skill.md", &big)]), &mut warnings),
            None
        );
        let mut binary = SourceTree::new();
        binary.insert("skill.md".into(), vec![0xff, 0xfe, 0x00]);
        assert_eq!(site_skill(&binary, &mut warnings), None);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
    }
}
