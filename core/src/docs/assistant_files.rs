//! The files of a docs folder written for the assistant, not for readers: everything under
//! `.mintlify/` (the owner's instructions `.mintlify/Assistant.md` and skills
//! `.mintlify/assistant/skills/<slug>/skill.md` among them) and the instructions kept at the
//! folder's root as `Assistant.md` or `ASSISTANT.md`.
//!
//! The format documents the folder as never served publicly and the instructions as private to
//! the assistant, so none of these files is ever a page (listed in navigation or not), a search
//! hit, a file of the static export, a line of `llms.txt` or an MCP result.
//!
//! The publish reads them into an [`AssistantGuide`] kept with the version, which the assistant
//! reads when it answers (`crate::assistant::guide`). Bounds, so that one repository cannot fill
//! every prompt: the instructions keep their first [`MAX_INSTRUCTIONS_BYTES`], a skill its first
//! [`MAX_SKILL_BYTES`] (about 6,000 tokens, where the hosted service truncates too), a skill's name
//! and description [`MAX_SKILL_NAME_BYTES`] and [`MAX_SKILL_DESCRIPTION_BYTES`], and a site at most
//! [`MAX_SKILLS`] skills. Whatever is cut, and a skill whose frontmatter lacks a `name` or a
//! `description` or does not parse, is a warning with file and line; such a skill is left out.

use serde::{Deserialize, Serialize};

use super::archive::SourceTree;
use super::frontmatter::{self, FrontmatterError};
use super::source_text;

/// The folder Mintlify keeps for itself and never serves.
pub const PRIVATE_DIR: &str = ".mintlify/";

/// The names the instructions file may have, at the root or in [`PRIVATE_DIR`].
pub const INSTRUCTIONS_NAMES: [&str; 2] = ["Assistant.md", "ASSISTANT.md"];

/// Where skills live: `<SKILLS_DIR><slug>/skill.md`.
pub const SKILLS_DIR: &str = ".mintlify/assistant/skills/";
const SKILL_FILE: &str = "skill.md";

pub const MAX_INSTRUCTIONS_BYTES: usize = 8_000;
pub const MAX_SKILL_BYTES: usize = 24_000;
pub const MAX_SKILL_NAME_BYTES: usize = 200;
pub const MAX_SKILL_DESCRIPTION_BYTES: usize = 1_000;
pub const MAX_SKILLS: usize = 50;

/// What a repository tells its assistant: instructions for every answer, skills for some.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AssistantGuide {
    /// The instructions file's text, added to the system prompt.
    #[serde(default)]
    pub instructions: String,
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// docs.json's support link (`super::own_keys`), which the answers carry to the widget.
    #[serde(default)]
    pub support: Option<String>,
}

/// One topic guide, given to the assistant only when a question matches it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skill {
    /// Its folder's name.
    pub slug: String,
    pub name: String,
    pub description: String,
    /// The body after the frontmatter.
    pub text: String,
}

impl AssistantGuide {
    pub fn is_empty(&self) -> bool {
        self.instructions.is_empty() && self.skills.is_empty() && self.support.is_none()
    }

    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// A stored guide; bytes that do not parse are no guide.
    pub fn from_json(bytes: &[u8]) -> AssistantGuide {
        serde_json::from_slice(bytes).unwrap_or_default()
    }
}

/// Whether the publish reads `path` for the [`AssistantGuide`]: an instructions file or a skill.
pub fn is_guide_file(path: &str) -> bool {
    instructions_rank(path).is_some() || skill_slug(path).is_some()
}

/// The instructions files in the order one is preferred over another.
fn instructions_rank(path: &str) -> Option<usize> {
    let name = path.strip_prefix(PRIVATE_DIR).unwrap_or(path);
    let rank = INSTRUCTIONS_NAMES.iter().position(|n| *n == name)?;
    Some(if path.starts_with(PRIVATE_DIR) {
        rank
    } else {
        rank + INSTRUCTIONS_NAMES.len()
    })
}

fn skill_slug(path: &str) -> Option<&str> {
    let slug = path
        .strip_prefix(SKILLS_DIR)?
        .strip_suffix(SKILL_FILE)?
        .strip_suffix('/')?;
    (!slug.is_empty() && !slug.contains('/')).then_some(slug)
}

/// The guide of a tree holding (at least) its guide files, with a warning per problem.
pub fn read_guide(tree: &SourceTree, warnings: &mut Vec<String>) -> AssistantGuide {
    let mut guide = AssistantGuide::default();
    let instructions = tree
        .keys()
        .filter_map(|p| Some((instructions_rank(p)?, p)))
        .min();
    if let Some((_, path)) = instructions {
        let text = source_text::read(&tree[path]);
        guide.instructions = bounded(
            text.trim(),
            MAX_INSTRUCTIONS_BYTES,
            path,
            "instructions",
            warnings,
        );
    }
    for (path, bytes) in tree.iter().filter(|(p, _)| skill_slug(p).is_some()) {
        if guide.skills.len() == MAX_SKILLS {
            warnings.push(format!(
                "{path}:1: skill left out: a site has at most {MAX_SKILLS} skills"
            ));
            continue;
        }
        if let Some(skill) = read_skill(path, bytes, warnings) {
            guide.skills.push(skill);
        }
    }
    guide
}

fn read_skill(path: &str, bytes: &[u8], warnings: &mut Vec<String>) -> Option<Skill> {
    let slug = skill_slug(path)?;
    let text = source_text::read(bytes);
    let mut problem = |line: usize, what: String| {
        warnings.push(format!("{path}:{line}: skill left out: {what}"));
        None
    };
    if !slug
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return problem(
            1,
            format!("its folder `{slug}` is not a slug (lower-case letters, digits and hyphens)"),
        );
    }
    let (Some(yaml), body) = frontmatter::split(&text) else {
        return problem(
            1,
            "no frontmatter (`---` lines with `name` and `description`)".into(),
        );
    };
    let fm = match frontmatter::parse(yaml) {
        Ok(fm) => fm,
        Err(FrontmatterError::Yaml(err)) => {
            return problem(
                yaml_line(&err),
                format!("its frontmatter does not parse: {err}"),
            )
        }
        Err(err) => return problem(2, format!("its frontmatter does not parse: {err}")),
    };
    let name = fm
        .extra
        .get("name")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .trim();
    let description = fm.description.as_deref().unwrap_or("").trim();
    let key_line = |key: &str| {
        yaml.lines()
            .position(|l| l.starts_with(key))
            .map_or(1, |i| i + 2)
    };
    if name.is_empty() {
        return problem(1, "its frontmatter has no `name`".into());
    }
    if description.is_empty() {
        return problem(1, "its frontmatter has no `description`".into());
    }
    let mut cut = |text: &str, max, line: usize, what: &str| {
        let kept = head(text, max).to_owned();
        if kept.len() < text.len() {
            warnings.push(format!(
                "{path}:{line}: the skill's {what} is cut to its first {max} bytes"
            ));
        }
        kept
    };
    Some(Skill {
        slug: slug.to_owned(),
        name: cut(name, MAX_SKILL_NAME_BYTES, key_line("name"), "name"),
        description: cut(
            description,
            MAX_SKILL_DESCRIPTION_BYTES,
            key_line("description"),
            "description",
        ),
        text: cut(
            body.trim(),
            MAX_SKILL_BYTES,
            yaml.lines().count() + 3,
            "text",
        ),
    })
}

/// The file line of a YAML error in frontmatter (which starts on line 2), from yaml-rust2's
/// message (`… line N column M`); the frontmatter's first line when it names none.
pub(crate) fn yaml_line(err: &str) -> usize {
    let after = err.rsplit_once("line ").map(|(_, rest)| rest);
    let line = after.and_then(|rest| {
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse::<usize>()
            .ok()
    });
    line.map_or(2, |n| n + 1)
}

/// The longest start of `text` within `max` bytes that ends on a character boundary.
fn head(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn bounded(text: &str, max: usize, path: &str, what: &str, warnings: &mut Vec<String>) -> String {
    let kept = head(text, max).to_owned();
    if kept.len() < text.len() {
        warnings.push(format!(
            "{path}:1: the assistant's {what} are cut to their first {max} bytes"
        ));
    }
    kept
}

/// Whether the tree file `path` (folder-relative, `/`-separated) is for the assistant only.
pub fn is_assistant_file(path: &str) -> bool {
    let path = path.trim_start_matches('/');
    path.starts_with(PRIVATE_DIR) || INSTRUCTIONS_NAMES.contains(&path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_private_folder_and_the_root_instructions_are_the_assistants() {
        for private in [
            ".mintlify/Assistant.md",
            ".mintlify/ASSISTANT.md",
            ".mintlify/assistant/skills/rotate-keys/skill.md",
            ".mintlify/anything.mdx",
            "/.mintlify/x.png",
            "Assistant.md",
            "ASSISTANT.md",
        ] {
            assert!(is_assistant_file(private), "{private}");
        }
        for public in [
            "assistant/customize.mdx",
            "guides/Assistant.md",
            "assistant.md",
            "skill.md",
            "mintlify/x.mdx",
            "a/.mintlify/x.mdx",
        ] {
            assert!(!is_assistant_file(public), "{public}");
        }
    }

    fn tree(files: &[(&str, &str)]) -> crate::docs::SourceTree {
        files
            .iter()
            .map(|(p, t)| (p.to_string(), t.as_bytes().to_vec()))
            .collect()
    }

    #[test]
    fn reads_the_instructions_and_each_well_formed_skill() {
        let files = tree(&[
            ("ASSISTANT.md", "root, not preferred"),
            (".mintlify/Assistant.md", "  Say workspace, not project.\n"),
            (".mintlify/assistant/skills/rotate-keys/skill.md", "---\nname: Rotate keys\ndescription: When a key leaks\n---\n\n# Steps\nRevoke it.\n"),
            (".mintlify/assistant/skills/no-name/skill.md", "---\ndescription: d\n---\nx"),
            (".mintlify/assistant/skills/no-front/skill.md", "just text"),
            (".mintlify/assistant/skills/bad-yaml/skill.md", "---\nname: a\ndescription: [unclosed\n---\nx"),
            (".mintlify/assistant/skills/Upper/skill.md", "---\nname: a\ndescription: b\n---\nx"),
            (".mintlify/assistant/skills/rotate-keys/notes.md", "not a skill"),
        ]);
        let mut warnings = Vec::new();
        let guide = read_guide(&files, &mut warnings);
        assert_eq!(guide.instructions, "Say workspace, not project.");
        assert_eq!(guide.skills.len(), 1);
        let skill = &guide.skills[0];
        assert_eq!(
            (
                skill.slug.as_str(),
                skill.name.as_str(),
                skill.description.as_str()
            ),
            ("rotate-keys", "Rotate keys", "When a key leaks")
        );
        assert_eq!(skill.text, "# Steps\nRevoke it.");
        assert_eq!(warnings.len(), 4, "{warnings:#?}");
        assert_eq!(warnings[0], ".mintlify/assistant/skills/Upper/skill.md:1: skill left out: its folder `Upper` is not a slug (lower-case letters, digits and hyphens)");
        assert!(
            warnings[1].starts_with(".mintlify/assistant/skills/bad-yaml/skill.md:"),
            "{}",
            warnings[1]
        );
        assert!(warnings[1].contains("does not parse"), "{}", warnings[1]);
        assert_eq!(warnings[2], ".mintlify/assistant/skills/no-front/skill.md:1: skill left out: no frontmatter (`---` lines with `name` and `description`)");
        assert_eq!(warnings[3], ".mintlify/assistant/skills/no-name/skill.md:1: skill left out: its frontmatter has no `name`");
        assert_eq!(AssistantGuide::from_json(&guide.to_json()), guide);
        assert_eq!(
            AssistantGuide::from_json(b"not json"),
            AssistantGuide::default()
        );
    }

    #[test]
    fn sizes_are_bounded_and_cuts_are_warned_about() {
        let long = "é".repeat(MAX_SKILL_BYTES);
        let skill = format!("---\nname: n\ndescription: d\n---\n{long}");
        let instructions = "x".repeat(MAX_INSTRUCTIONS_BYTES + 10);
        let files = tree(&[
            ("Assistant.md", &instructions),
            (".mintlify/assistant/skills/big/skill.md", &skill),
        ]);
        let mut warnings = Vec::new();
        let guide = read_guide(&files, &mut warnings);
        assert_eq!(guide.instructions.len(), MAX_INSTRUCTIONS_BYTES);
        assert!(
            guide.skills[0].text.len() <= MAX_SKILL_BYTES
                && guide.skills[0].text.len() >= MAX_SKILL_BYTES - 1
        );
        assert_eq!(warnings, [
            format!("Assistant.md:1: the assistant's instructions are cut to their first {MAX_INSTRUCTIONS_BYTES} bytes"),
            format!(".mintlify/assistant/skills/big/skill.md:5: the skill's text is cut to its first {MAX_SKILL_BYTES} bytes"),
        ]);
        let many: Vec<(String, String)> = (0..=MAX_SKILLS)
            .map(|i| {
                (
                    format!(".mintlify/assistant/skills/s{i:03}/skill.md"),
                    "---\nname: n\ndescription: d\n---\nt".to_owned(),
                )
            })
            .collect();
        let many: Vec<(&str, &str)> = many.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let mut warnings = Vec::new();
        assert_eq!(
            read_guide(&tree(&many), &mut warnings).skills.len(),
            MAX_SKILLS
        );
        assert_eq!(warnings.len(), 1);
    }
}
