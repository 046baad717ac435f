//! `.mintignore`: the files of a docs folder that are not part of the site (not pages, not
//! snippets, not assets), in `.gitignore` syntax, plus the names Mintlify always leaves out.
//!
//! Both are documented at https://mintlify.com/docs/organize/mintignore ("Default ignored
//! patterns"; "uses the same pattern syntax as `.gitignore`"). The matcher follows
//! https://git-scm.com/docs/gitignore ("PATTERN FORMAT"): blank lines and `#` comments, `\`
//! escapes, `!` re-includes, a trailing `/` matches only directories, a `/` at the start or in the
//! middle anchors the pattern to the folder's root (otherwise it matches a name at any depth), `*`
//! `?` and `[…]` never match `/`, `**` matches across folders, the last matching pattern decides,
//! and a file inside an excluded folder cannot be re-included.
//!
//! Hand-written rather than the `ignore` or `globset` crates: both compile the patterns to regexes
//! (regex-automata, regex-syntax, aho-corasick), which would multiply the size of the builder's
//! wasm for a few dozen lines of patterns.

/// The folder-relative file that lists the patterns.
pub const IGNORE_FILE: &str = ".mintignore";

/// What Mintlify leaves out without being told (its docs' list: folders, then files), at the
/// folder's root: the docs name no depth, and live sites keep pages in nested folders of these
/// names (dify's `en/cloud/use-dify/build/*.mdx`, in the dify-docs fixture, are in its navigation).
const DEFAULT_PATTERNS: &str = "/.git/\n/.github/\n/.claude/\n/.agents/\n/.idea/\n/.vscode/\n/node_modules/\n/build/\n/dist/\n/coverage/\n/.cache/\n/tmp/\n/temp/\n/README.md\n/LICENSE.md\n/CHANGELOG.md\n/CONTRIBUTING.md\n";

/// Longest pattern read; a longer line is not a pattern anyone writes and is skipped.
const MAX_PATTERN: usize = 1024;
/// Most patterns read from one file.
const MAX_PATTERNS: usize = 10_000;

/// The ignore rules of one docs folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignore {
    /// The defaults, then the file's patterns: later ones win.
    rules: Vec<Rule>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    /// `/`-separated parts; an unanchored pattern starts with `**`.
    parts: Vec<Part>,
    negated: bool,
    dir_only: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// `**`: any number of folders (at least one at the end of a pattern).
    AnyDepth,
    /// A glob for one path segment, as bytes.
    Glob(Vec<u8>),
}

impl Default for Ignore {
    fn default() -> Self {
        Self::from_bytes(b"")
    }
}

impl Ignore {
    /// The defaults and the patterns of a `.mintignore` file's bytes (invalid UTF-8 is replaced).
    pub fn from_bytes(mintignore: &[u8]) -> Self {
        let text = String::from_utf8_lossy(mintignore);
        let lines = DEFAULT_PATTERNS
            .lines()
            .chain(text.lines().take(MAX_PATTERNS));
        Ignore {
            rules: lines.filter_map(Rule::parse).collect(),
        }
    }

    /// The rules of a folder given as a tree: its `.mintignore`, if any, and the defaults.
    pub fn of_tree(tree: &super::SourceTree) -> Self {
        Self::from_bytes(tree.get(IGNORE_FILE).map_or(&[][..], Vec::as_slice))
    }

    /// Whether the file at `path` (folder-relative, `/`-separated) is left out of the site: a
    /// pattern excludes it or one of its folders.
    pub fn is_ignored(&self, path: &str) -> bool {
        let segments: Vec<&[u8]> = path
            .trim_matches('/')
            .split('/')
            .map(str::as_bytes)
            .collect();
        (1..=segments.len()).any(|n| {
            let is_dir = n < segments.len();
            self.decides(&segments[..n], is_dir)
        })
    }

    /// Whether the last rule matching `segments` excludes it.
    fn decides(&self, segments: &[&[u8]], is_dir: bool) -> bool {
        self.rules
            .iter()
            .rev()
            .find(|rule| (is_dir || !rule.dir_only) && matches_parts(&rule.parts, segments))
            .is_some_and(|rule| !rule.negated)
    }
}

impl Rule {
    fn parse(line: &str) -> Option<Rule> {
        if line.len() > MAX_PATTERN || line.starts_with('#') {
            return None;
        }
        let line = trim_trailing_spaces(line);
        let (negated, line) = match line.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (
                false,
                line.strip_prefix('\\')
                    .filter(|r| r.starts_with(['!', '#']))
                    .unwrap_or(line),
            ),
        };
        let (dir_only, line) = match line.strip_suffix('/') {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        if line.is_empty() {
            return None;
        }
        let anchored = line.contains('/');
        let mut parts: Vec<Part> = Vec::new();
        if !anchored {
            parts.push(Part::AnyDepth);
        }
        for segment in line.trim_start_matches('/').split('/') {
            match segment {
                "**" => {
                    if parts.last() != Some(&Part::AnyDepth) {
                        parts.push(Part::AnyDepth);
                    }
                }
                "" => {}
                glob => parts.push(Part::Glob(glob.as_bytes().to_vec())),
            }
        }
        Some(Rule {
            parts,
            negated,
            dir_only,
        })
    }
}

/// Trailing spaces end a pattern unless escaped with `\`.
fn trim_trailing_spaces(line: &str) -> &str {
    let trimmed = line.trim_end_matches(' ');
    if trimmed.ends_with('\\') && trimmed.len() < line.len() {
        &line[..trimmed.len() + 1]
    } else {
        trimmed
    }
}

/// Whether the pattern parts match the path segments exactly.
fn matches_parts(parts: &[Part], segments: &[&[u8]]) -> bool {
    match parts.split_first() {
        None => segments.is_empty(),
        // A trailing `**` matches everything inside, not the folder itself.
        Some((Part::AnyDepth, [])) => !segments.is_empty(),
        Some((Part::AnyDepth, rest)) => {
            (0..=segments.len()).any(|skip| matches_parts(rest, &segments[skip..]))
        }
        Some((Part::Glob(glob), rest)) => segments.split_first().is_some_and(|(first, others)| {
            glob_matches(glob, first) && matches_parts(rest, others)
        }),
    }
}

/// `*`, `?`, `[…]` (with `!` or `^` negating, ranges, `\` escapes) and `\x` within one segment.
/// Greedy with one backtrack point per `*`: linear for the patterns people write, at most
/// pattern × name bytes for any.
fn glob_matches(glob: &[u8], name: &[u8]) -> bool {
    let (mut g, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if g < glob.len() && glob[g] == b'*' {
            while g < glob.len() && glob[g] == b'*' {
                g += 1;
            }
            star = Some((g, n));
            continue;
        }
        if let Some(len) = (g < glob.len())
            .then(|| one_char(&glob[g..], name[n]))
            .flatten()
        {
            g += len;
            n += 1;
            continue;
        }
        match star {
            Some((after_star, from)) => {
                g = after_star;
                n = from + 1;
                star = Some((after_star, from + 1));
            }
            None => return false,
        }
    }
    glob[g..].iter().all(|&c| c == b'*')
}

/// If the glob item at the start of `glob` matches the byte `c`, the item's length.
fn one_char(glob: &[u8], c: u8) -> Option<usize> {
    match glob[0] {
        b'?' => Some(1),
        b'\\' if glob.len() > 1 => (glob[1] == c).then_some(2),
        b'[' => match class_matches(glob, c) {
            Some((true, len)) => Some(len),
            Some((false, _)) => None,
            // An unclosed `[` is itself.
            None => (c == b'[').then_some(1),
        },
        other => (other == c).then_some(1),
    }
}

/// A `[…]` class at the start of `glob`: whether `c` is in it, and the class's length.
fn class_matches(glob: &[u8], c: u8) -> Option<(bool, usize)> {
    let mut i = 1;
    let negated = matches!(glob.get(i), Some(b'!' | b'^'));
    if negated {
        i += 1;
    }
    let mut found = false;
    let mut first = true;
    while i < glob.len() {
        if glob[i] == b']' && !first {
            return Some((found != negated, i + 1));
        }
        first = false;
        let mut lo = glob[i];
        if lo == b'\\' && i + 1 < glob.len() {
            i += 1;
            lo = glob[i];
        }
        if glob.get(i + 1) == Some(&b'-') && glob.get(i + 2).is_some_and(|&hi| hi != b']') {
            let hi = glob[i + 2];
            found |= (lo..=hi).contains(&c);
            i += 3;
        } else {
            found |= lo == c;
            i += 1;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ignore(patterns: &str) -> Ignore {
        Ignore::from_bytes(patterns.as_bytes())
    }

    fn check(patterns: &str, ignored: &[&str], kept: &[&str]) {
        let rules = ignore(patterns);
        for path in ignored {
            assert!(rules.is_ignored(path), "{patterns:?} should ignore {path}");
        }
        for path in kept {
            assert!(!rules.is_ignored(path), "{patterns:?} should keep {path}");
        }
    }

    #[test]
    fn the_documented_defaults_are_left_out() {
        check(
            "",
            &[
                "README.md",
                ".git/config",
                "node_modules/x/index.js",
                ".github/workflows/a.yml",
                "build/out.html",
                "CONTRIBUTING.md",
            ],
            &[
                "index.mdx",
                "guides/readme.mdx",
                "building.mdx",
                "build.mdx",
                "images/dist.png",
                "en/use/build/agent.mdx",
                "en/README.md",
            ],
        );
    }

    #[test]
    fn a_name_without_a_slash_matches_at_any_depth() {
        check(
            "*.draft.mdx\nprivate-notes.md\n",
            &["a.draft.mdx", "x/y/b.draft.mdx", "z/private-notes.md"],
            &["a.mdx", "draft.mdx"],
        );
    }

    #[test]
    fn a_slash_at_the_start_or_in_the_middle_anchors_to_the_root() {
        check(
            "/AGENTS.md\ndoc/frotz\n",
            &["AGENTS.md", "doc/frotz"],
            &["x/AGENTS.md", "a/doc/frotz"],
        );
    }

    #[test]
    fn a_trailing_slash_matches_only_folders_and_everything_in_them() {
        check(
            "drafts/\n/tools/\n",
            &["drafts/a.mdx", "x/drafts/deep/b.mdx", "tools/run.py"],
            &["drafts", "x/tools/run.py"],
        );
    }

    #[test]
    fn double_stars_match_across_folders() {
        check(
            "**/internal/**\n",
            &["internal/a.mdx", "x/internal/y/b.mdx"],
            &["internal", "x/internal"],
        );
        check(
            "a/**/b.mdx\n",
            &["a/b.mdx", "a/x/b.mdx", "a/x/y/b.mdx"],
            &["b.mdx", "x/a/b.mdx"],
        );
        check("**/foo\n", &["foo", "x/foo", "x/foo/in.mdx"], &["foobar"]);
        check("abc/**\n", &["abc/x", "abc/x/y"], &["abc", "x/abc/y"]);
        // Other runs of stars are plain stars: they stay within a segment.
        check("/a**z.mdx\n", &["abz.mdx", "az.mdx"], &["a/z.mdx"]);
    }

    #[test]
    fn negation_re_includes_unless_a_folder_above_is_excluded() {
        check(
            "secret/*\n!secret/public-info.mdx\n",
            &["secret/a.mdx"],
            &["secret/public-info.mdx"],
        );
        check(
            "secret/\n!secret/public-info.mdx\n",
            &["secret/a.mdx", "secret/public-info.mdx"],
            &[],
        );
        check("*.mdx\n!keep.mdx\n", &["a.mdx"], &["keep.mdx"]);
        check("!README.md\n", &[], &["README.md"]);
    }

    #[test]
    fn comments_blanks_escapes_and_trailing_spaces() {
        check(
            "# comment\n\n\\#hash.mdx\n\\!bang.mdx\ntrail.mdx   \nspace\\ \n",
            &["#hash.mdx", "!bang.mdx", "trail.mdx", "space "],
            &["comment", "trail.mdx   "],
        );
    }

    #[test]
    fn wildcards_and_classes_stay_within_a_segment() {
        check(
            "/?.mdx\n/v[0-9].mdx\n/[!a]x.mdx\n/*.md\n",
            &["a.mdx", "v1.mdx", "bx.mdx", "r.md"],
            &["ab.mdx", "va.mdx", "ax.mdx", "x/r.md"],
        );
        check("/[ab\n", &["[ab"], &["a"]);
    }

    #[test]
    fn the_dify_fixture_patterns_read_as_its_authors_meant() {
        let mintignore = "# Root-level internal instructions\n/AGENTS.md\n/CLAUDE.md\n\n/.claude/\n/tools/\n/versions/\n/assets/migrate_weaviate_collections.py\n/.github/BACKPORT.md\n/.backportrc.json\n";
        check(
            mintignore,
            &[
                "AGENTS.md",
                "tools/translate/x.py",
                "assets/migrate_weaviate_collections.py",
                ".backportrc.json",
            ],
            &[
                "en/guides/AGENTS.md",
                "assets/logo.png",
                "en/index.mdx",
                "docs.json",
            ],
        );
    }

    #[test]
    fn many_stars_against_a_long_name_stay_quick() {
        let rules = ignore(&format!("/{}b\n", "*a".repeat(200)));
        let started = std::time::Instant::now();
        assert!(!rules.is_ignored(&"a".repeat(1000)));
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
    }
}
