//! The skills a site offers agents (the agentskills.io format), served from the two well-known
//! discovery indexes the format documents: `/.well-known/agent-skills/index.json` (the agent-skills
//! 0.2.0 discovery document, each skill with a `sha256` digest of its file) and
//! `/.well-known/skills/index.json`, each skill's file at `/.well-known/{agent-skills,skills}/{name}/SKILL.md`.
//!
//! The skills are the root `skill.md` (`super::skill_file`), first, and every
//! `.mintlify/skills/<folder>/SKILL.md` (the folder, or `.mintlify/skills` itself, may be a symbolic
//! link: the upload resolves links into the files they stand for). `.mintlify/` is otherwise
//! private (`super::assistant_files`): these files are its one public part, served only here and
//! never as pages, search hits, `llms.txt` lines or copies of their own path in an export. The
//! assistant's skills (`.mintlify/assistant/skills/`) are another thing and stay private.
//!
//! Every file is made at publish (and by the export), so a server streams stored bytes. A skill is
//! named by the slug of its frontmatter `name`. Bounds: [`MAX_SKILLS`] skills, each file at most
//! `skill_file::MAX_SKILL_BYTES`, [`MAX_SKILLS_BYTES`] in all. A skill whose frontmatter does not
//! parse or lacks `name` or `description`, a skill past a bound and one whose slug another took are
//! warnings with file and line, and left out. A skill with `groups:` is for signed-in readers of some
//! groups, which no server here can tell: it is left out without a warning (the docs say so).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::archive::SourceTree;
use super::assistant_files::yaml_line;
use super::frontmatter::{self, FrontmatterError};
use super::skill_file::MAX_SKILL_BYTES;
use crate::security::signing::to_hex;

/// Where the format keeps a site's skills: `<SKILLS_DIR><folder>/SKILL.md`.
pub const SKILLS_DIR: &str = ".mintlify/skills/";
/// A skill's file, in its folder and as served.
pub const SKILL_FILE_NAME: &str = "SKILL.md";
/// Skills a site offers at most, the root `skill.md` included.
pub const MAX_SKILLS: usize = 50;
/// Bytes of all skill files together at most.
pub const MAX_SKILLS_BYTES: usize = 1 << 20;
/// The agent-skills index cuts a description to this many characters, as the format documents.
pub const MAX_INDEX_DESCRIPTION_CHARS: usize = 1024;
pub const AGENT_SKILLS_SCHEMA: &str = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
/// The two discovery formats, by their folder under `/.well-known/`.
pub const FORMATS: [&str; 2] = ["agent-skills", "skills"];

/// One skill as served.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicSkill {
    /// The slug of its frontmatter `name`: its folder in the discovery paths.
    pub name: String,
    pub description: String,
    /// The file as written.
    pub text: String,
}

/// Whether `path` is a skill file of [`SKILLS_DIR`] (`SKILL.md` in any case, one folder deep).
pub fn is_public_skill_file(path: &str) -> bool {
    let Some(rest) = path.strip_prefix(SKILLS_DIR) else {
        return false;
    };
    match rest.split_once('/') {
        Some((folder, file)) => !folder.is_empty() && file.eq_ignore_ascii_case(SKILL_FILE_NAME),
        None => false,
    }
}

/// The site's skills: `root` (the root `skill.md` as served, already warned about by
/// `skill_file::site_skill`) first when its frontmatter names it, then those of [`SKILLS_DIR`] in
/// path order; problems go to `warnings` with file and line.
pub fn site_skills(
    tree: &SourceTree,
    root: Option<&str>,
    warnings: &mut Vec<String>,
) -> Vec<PublicSkill> {
    let mut skills: Vec<PublicSkill> = Vec::new();
    let mut bytes = 0;
    if let Some(skill) = root.and_then(|text| read_skill(text, &mut |_, _| ())) {
        bytes += skill.text.len();
        skills.push(skill);
    }
    for (path, raw) in tree.iter().filter(|(path, _)| is_public_skill_file(path)) {
        let mut warn = |line: usize, what: &str| {
            warnings.push(format!("{path}:{line}: skill not served: {what}"))
        };
        if raw.is_empty() {
            // Also how a tree naming every file but holding only some (an export's) shows an unread one.
            continue;
        }
        if raw.len() > MAX_SKILL_BYTES {
            warn(
                1,
                &format!(
                    "{} bytes, more than the {MAX_SKILL_BYTES} a skill may have",
                    raw.len()
                ),
            );
            continue;
        }
        let Ok(text) = std::str::from_utf8(raw) else {
            warn(1, "not UTF-8 text");
            continue;
        };
        let Some(skill) = read_skill(text, &mut warn) else {
            continue;
        };
        if skills.len() == MAX_SKILLS {
            warn(1, &format!("a site serves at most {MAX_SKILLS} skills"));
        } else if bytes + skill.text.len() > MAX_SKILLS_BYTES {
            warn(
                1,
                &format!("the site's skills are past {MAX_SKILLS_BYTES} bytes"),
            );
        } else if skills.iter().any(|s| s.name == skill.name) {
            warn(2, &format!("another skill is named `{}`", skill.name));
        } else {
            bytes += skill.text.len();
            skills.push(skill);
        }
    }
    skills
}

/// A skill from its file, or `None` (with `warn(line, what)`) when its frontmatter does not name
/// and describe it; `None` without a word for one restricted to `groups`.
fn read_skill(text: &str, warn: &mut dyn FnMut(usize, &str)) -> Option<PublicSkill> {
    let (Some(yaml), _) = frontmatter::split(text) else {
        warn(
            1,
            "no frontmatter (`---` lines with `name` and `description`)",
        );
        return None;
    };
    let fields = match frontmatter::parse(yaml) {
        Ok(fields) => fields,
        Err(FrontmatterError::Yaml(err)) => {
            warn(
                yaml_line(&err),
                &format!("its frontmatter does not parse: {err}"),
            );
            return None;
        }
        Err(err) => {
            warn(2, &format!("its frontmatter does not parse: {err}"));
            return None;
        }
    };
    if fields.extra.contains_key("groups") {
        return None;
    }
    let name = fields
        .extra
        .get("name")
        .and_then(Value::as_str)
        .map_or("", str::trim);
    let description = fields.description.as_deref().map_or("", str::trim);
    let slug = slug(name);
    if slug.is_empty() {
        warn(
            1,
            "its frontmatter has no `name` to name it by (letters or digits)",
        );
        return None;
    }
    if description.is_empty() {
        warn(1, "its frontmatter has no `description`");
        return None;
    }
    Some(PublicSkill {
        name: slug,
        description: description.to_owned(),
        text: text.to_owned(),
    })
}

/// A URL-safe slug: ASCII letters (lower-cased) and digits, every run of anything else one `-`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    out.truncate(out.trim_end_matches('-').len());
    out
}

/// `/.well-known/agent-skills/index.json`.
pub fn agent_skills_index(skills: &[PublicSkill]) -> Vec<u8> {
    let entries: Vec<Value> = skills
        .iter()
        .map(|s| {
            json!({
                "name": s.name,
                "type": "skill-md",
                "description": s.description.chars().take(MAX_INDEX_DESCRIPTION_CHARS).collect::<String>(),
                "url": format!("/.well-known/agent-skills/{}/{SKILL_FILE_NAME}", s.name),
                "digest": format!("sha256:{}", to_hex(&Sha256::digest(s.text.as_bytes()))),
            })
        })
        .collect();
    pretty(&json!({ "$schema": AGENT_SKILLS_SCHEMA, "skills": entries }))
}

/// `/.well-known/skills/index.json`.
pub fn skills_index(skills: &[PublicSkill]) -> Vec<u8> {
    let entries: Vec<Value> = skills
        .iter()
        .map(
            |s| json!({ "name": s.name, "description": s.description, "files": [SKILL_FILE_NAME] }),
        )
        .collect();
    pretty(&json!({ "skills": entries }))
}

fn pretty(value: &Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// Every file that serves `skills`, by its path from the site's root (`.well-known/…`): both
/// indexes and each skill's file under both; none without skills.
pub fn well_known_files(skills: &[PublicSkill]) -> Vec<(String, Vec<u8>)> {
    if skills.is_empty() {
        return Vec::new();
    }
    let mut files = vec![
        (index_path(FORMATS[0]), agent_skills_index(skills)),
        (index_path(FORMATS[1]), skills_index(skills)),
    ];
    for format in FORMATS {
        files.extend(
            skills
                .iter()
                .map(|s| (skill_path(format, &s.name), s.text.clone().into_bytes())),
        );
    }
    files
}

/// Where `format`'s index is, from the site's root.
pub fn index_path(format: &str) -> String {
    format!(".well-known/{format}/index.json")
}

/// Where skill `name` of `format` is, from the site's root.
pub fn skill_path(format: &str, name: &str) -> String {
    format!(".well-known/{format}/{name}/{SKILL_FILE_NAME}")
}

/// The file of [`well_known_files`] a request names: `format`'s index without `name`, else skill
/// `name`'s `file` (`SKILL.md` in any case, as the format's pages write it both ways); `None` for
/// anything else, so no other path of the version is ever read.
pub fn requested_file(format: &str, name_and_file: Option<(&str, &str)>) -> Option<String> {
    if !FORMATS.contains(&format) {
        return None;
    }
    match name_and_file {
        None => Some(index_path(format)),
        Some((name, file))
            if file.eq_ignore_ascii_case(SKILL_FILE_NAME)
                && !name.is_empty()
                && slug(name) == name =>
        {
            Some(skill_path(format, name))
        }
        Some(_) => None,
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

    const PAYMENTS: &str = "---\nname: Payments API\ndescription: Charge cards and refund them.\nlicense: MIT\n---\n\n# Payments\n";

    #[test]
    fn the_root_skill_comes_first_then_each_folders_named_by_the_slug_of_its_name() {
        let root = "---\nname: acme\ndescription: Use Acme.\n---\n# Acme\n";
        let files = tree(&[
            (".mintlify/skills/payments/SKILL.md", PAYMENTS),
            (
                ".mintlify/skills/analytics/skill.md",
                "---\nname: analytics\ndescription: Read reports.\n---\nx",
            ),
            (".mintlify/skills/payments/notes.md", "not a skill"),
            (
                ".mintlify/skills/SKILL.md",
                "---\nname: loose\ndescription: not in a folder\n---\n",
            ),
            (
                ".mintlify/assistant/skills/private/skill.md",
                "---\nname: private\ndescription: the assistant's\n---\n",
            ),
            (
                ".mintlify/skills/admin/SKILL.md",
                "---\nname: admin-tools\ndescription: Internal.\ngroups: [\"admin\"]\n---\n",
            ),
        ]);
        let mut warnings = Vec::new();
        let skills = site_skills(&files, Some(root), &mut warnings);
        let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["acme", "analytics", "payments-api"]);
        assert!(
            warnings.is_empty(),
            "a group-gated skill is left out without a word: {warnings:?}"
        );
        assert_eq!(skills[2].text, PAYMENTS, "served as written");
        assert_eq!(skills[2].description, "Charge cards and refund them.");
    }

    #[test]
    fn slugs_are_url_safe() {
        assert_eq!(slug("Payments API"), "payments-api");
        assert_eq!(
            slug("  --Rotación de claves!! v2 "),
            "rotaci-n-de-claves-v2"
        );
        assert_eq!(slug("日本"), "");
        assert_eq!(
            requested_file("agent-skills", Some(("payments-api", "SKILL.md"))).as_deref(),
            Some(".well-known/agent-skills/payments-api/SKILL.md")
        );
        assert_eq!(
            requested_file("skills", Some(("payments-api", "skill.md"))).as_deref(),
            Some(".well-known/skills/payments-api/SKILL.md")
        );
        assert_eq!(
            requested_file("skills", None).as_deref(),
            Some(".well-known/skills/index.json")
        );
        for (format, named) in [
            ("other", None),
            ("skills", Some(("..", "SKILL.md"))),
            ("skills", Some(("Payments", "SKILL.md"))),
            ("skills", Some(("a", "index.json"))),
            ("skills", Some(("", "SKILL.md"))),
        ] {
            assert_eq!(requested_file(format, named), None, "{format} {named:?}");
        }
    }

    #[test]
    fn a_malformed_or_oversized_skill_is_a_warning_with_file_and_line() {
        let big = format!(
            "---\nname: big\ndescription: d\n---\n{}",
            "x".repeat(MAX_SKILL_BYTES)
        );
        let files = tree(&[
            (".mintlify/skills/a/SKILL.md", "# no frontmatter"),
            (".mintlify/skills/b/SKILL.md", "---\nname: b\n---\nbody"),
            (
                ".mintlify/skills/c/SKILL.md",
                "---\ndescription: d\nname: [unclosed\n---\n",
            ),
            (".mintlify/skills/d/SKILL.md", &big),
            (".mintlify/skills/e/SKILL.md", PAYMENTS),
            (".mintlify/skills/f/SKILL.md", PAYMENTS),
            (
                ".mintlify/skills/g/SKILL.md",
                "---\nname: '!!'\ndescription: d\n---\n",
            ),
        ]);
        let mut warnings = Vec::new();
        let skills = site_skills(
            &files,
            Some("# a root skill without frontmatter is not in the index"),
            &mut warnings,
        );
        assert_eq!(
            skills.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            ["payments-api"]
        );
        assert_eq!(warnings.len(), 6, "{warnings:#?}");
        assert_eq!(warnings[0], ".mintlify/skills/a/SKILL.md:1: skill not served: no frontmatter (`---` lines with `name` and `description`)");
        assert_eq!(
            warnings[1],
            ".mintlify/skills/b/SKILL.md:1: skill not served: its frontmatter has no `description`"
        );
        assert!(
            warnings[2].starts_with(
                ".mintlify/skills/c/SKILL.md:4: skill not served: its frontmatter does not parse"
            ),
            "{}",
            warnings[2]
        );
        assert!(
            warnings[3].starts_with(".mintlify/skills/d/SKILL.md:1: skill not served: ")
                && warnings[3].contains("bytes"),
            "{}",
            warnings[3]
        );
        assert_eq!(warnings[4], ".mintlify/skills/f/SKILL.md:2: skill not served: another skill is named `payments-api`");
        assert!(
            warnings[5].starts_with(
                ".mintlify/skills/g/SKILL.md:1: skill not served: its frontmatter has no `name`"
            ),
            "{}",
            warnings[5]
        );
    }

    #[test]
    fn count_and_bytes_are_bounded() {
        let texts: Vec<(String, String)> = (0..=MAX_SKILLS)
            .map(|i| {
                (
                    format!(".mintlify/skills/s{i:03}/SKILL.md"),
                    format!("---\nname: s{i}\ndescription: d\n---\n"),
                )
            })
            .collect();
        let files: Vec<(&str, &str)> = texts
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let mut warnings = Vec::new();
        assert_eq!(
            site_skills(&tree(&files), None, &mut warnings).len(),
            MAX_SKILLS
        );
        assert_eq!(warnings, [format!(".mintlify/skills/s050/SKILL.md:1: skill not served: a site serves at most {MAX_SKILLS} skills")]);
        let body = "x".repeat(MAX_SKILL_BYTES - 100);
        let texts: Vec<(String, String)> = (0..9)
            .map(|i| {
                (
                    format!(".mintlify/skills/s{i}/SKILL.md"),
                    format!("---\nname: s{i}\ndescription: d\n---\n{body}"),
                )
            })
            .collect();
        let files: Vec<(&str, &str)> = texts
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let mut warnings = Vec::new();
        assert_eq!(site_skills(&tree(&files), None, &mut warnings).len(), 8);
        assert_eq!(warnings, [format!(".mintlify/skills/s8/SKILL.md:1: skill not served: the site's skills are past {MAX_SKILLS_BYTES} bytes")]);
    }

    #[test]
    fn the_indexes_are_the_formats_with_digests_of_the_served_bytes() {
        let long = "é".repeat(MAX_INDEX_DESCRIPTION_CHARS + 10);
        let skills = vec![
            PublicSkill {
                name: "payments-api".into(),
                description: "Charge cards.".into(),
                text: "abc".into(),
            },
            PublicSkill {
                name: "long".into(),
                description: long.clone(),
                text: "x".into(),
            },
        ];
        let agent: Value = serde_json::from_slice(&agent_skills_index(&skills)).unwrap();
        assert_eq!(agent["$schema"], AGENT_SKILLS_SCHEMA);
        assert_eq!(
            agent["skills"][0],
            json!({
                "name": "payments-api",
                "type": "skill-md",
                "description": "Charge cards.",
                "url": "/.well-known/agent-skills/payments-api/SKILL.md",
                // sha256("abc")
                "digest": "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            })
        );
        assert_eq!(
            agent["skills"][1]["description"]
                .as_str()
                .unwrap()
                .chars()
                .count(),
            MAX_INDEX_DESCRIPTION_CHARS
        );
        let plain: Value = serde_json::from_slice(&skills_index(&skills)).unwrap();
        assert_eq!(
            plain,
            json!({ "skills": [
                { "name": "payments-api", "description": "Charge cards.", "files": ["SKILL.md"] },
                { "name": "long", "description": long, "files": ["SKILL.md"] },
            ]})
        );
        let files = well_known_files(&skills);
        let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".well-known/agent-skills/index.json",
                ".well-known/skills/index.json",
                ".well-known/agent-skills/payments-api/SKILL.md",
                ".well-known/agent-skills/long/SKILL.md",
                ".well-known/skills/payments-api/SKILL.md",
                ".well-known/skills/long/SKILL.md",
            ]
        );
        assert_eq!(files[2].1, b"abc");
        assert!(well_known_files(&[]).is_empty());
    }

    #[test]
    fn a_linked_skills_folder_is_read_as_the_upload_resolves_links() {
        use crate::docs::archive::{gzip, read_docs_archive_warning, ArchiveLimits};
        let mut tar = tar::Builder::new(Vec::new());
        let mut add = |path: &str, kind: tar::EntryType, data: &[u8], link: Option<&str>| {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(kind);
            header.set_mode(0o644);
            header.set_size(data.len() as u64);
            if let Some(link) = link {
                header.set_link_name(link).unwrap();
            }
            tar.append_data(&mut header, path, data).unwrap();
        };
        add("docs.json", tar::EntryType::Regular, b"{}", None);
        add(
            "skills/payments/SKILL.md",
            tar::EntryType::Regular,
            PAYMENTS.as_bytes(),
            None,
        );
        add(
            ".mintlify/skills",
            tar::EntryType::Symlink,
            b"",
            Some("../skills"),
        );
        let gz = gzip(&tar.into_inner().unwrap());
        let mut warnings = Vec::new();
        let tree =
            read_docs_archive_warning(&gz, &ArchiveLimits::default(), &mut warnings).unwrap();
        let skills = site_skills(&tree, None, &mut warnings);
        assert_eq!(
            skills.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
            ["payments-api"]
        );
        assert_eq!(skills[0].text, PAYMENTS);
        assert!(warnings.is_empty(), "{warnings:?}");
    }
}
