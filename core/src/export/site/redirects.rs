//! The site's `redirects` (docs.json and mint.json `[{source, destination, permanent?}]`) as the
//! bundle's `_redirects` file, in the format Cloudflare Pages and Netlify read
//! (`/source /destination 308`, `:name` placeholders, a `*` splat named `:splat` in the
//! destination), and the matching docs-edge-serve answers them with (one implementation, here).
//!
//! The format's rules, translated: `permanent` (the default) is 308, `permanent: false` 307; a
//! parameter followed by `*` or `+` (`/beta/:slug*`) is the splat, and a zero-segment match gets a
//! rule of its own (`/beta`), since `/beta/*` needs the slash; a partial wildcard
//! (`/articles/concepts-*`) is a splat too. Left out: sources with a query or fragment (the format
//! says they cannot have one), with a splat before their end or an optional `:name?` (the file
//! cannot say them), under the bundle's own folders, and literal sources that are exported pages
//! (the bundle's links lead there, so a page is never shadowed by a rule the pages cannot see). A
//! literal destination that is not an exported page is followed through the rules (a chain of
//! redirects) to one; it becomes that page's extensionless bundle path, or stays the `/`-rooted path
//! written when no page of the bundle is at the end (another version, a page left out by `paths`):
//! the host then answers it with its 404 page. A bundle never names the live site's domain in its
//! redirects, so it holds wherever it is served, air-gapped included. An http(s) URL the owner wrote
//! stays as written.

use std::collections::BTreeMap;

use crate::docs::settings::Redirect;

use crate::export::render::links::{self, find_page};

/// The file at the bundle root.
pub const REDIRECTS_FILE: &str = "_redirects";

/// Folders of the bundle's own files: never a redirect source.
const RESERVED: &[&str] = &["/_static/", "/_docs-edge/"];

/// One rule of the `_redirects` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// `/a/:id/*`: literal segments, `:name` placeholders (one segment), a final `*` (the rest).
    pub source: String,
    /// A `/`-rooted path or an `http(s)` URL, with `:name` and `:splat` filled in from the match.
    pub destination: String,
    /// 301, 302, 303, 307 or 308.
    pub status: u16,
}

enum Token<'a> {
    Literal(&'a str),
    Placeholder(&'a str),
    /// `prefix*`: the segment starts with `prefix`; the splat is the rest of the path.
    Splat(&'a str),
}

impl Rule {
    /// Whether the rule names one path only (no placeholder, no splat): a stub page can stand for it.
    pub fn is_literal(&self) -> bool {
        !self.source.contains([':', '*'])
    }

    /// The destination for `path` (percent-decoded, `/`-rooted) when the rule matches it. A trailing
    /// slash is ignored, as static hosts serve `/a/` and `/a` alike.
    pub fn matches(&self, path: &str) -> Option<String> {
        let tokens = tokens(trim_slash(&self.source))?;
        let segments: Vec<&str> = trim_slash(path).split('/').skip(1).collect();
        let mut captures: Vec<(&str, String)> = Vec::new();
        for (i, token) in tokens.iter().enumerate() {
            match *token {
                Token::Splat(prefix) => {
                    let rest = segments.get(i..).unwrap_or_default().join("/");
                    captures.push(("splat", rest.strip_prefix(prefix)?.to_owned()));
                    return Some(fill(&self.destination, &captures));
                }
                Token::Literal(literal) if segments.get(i) == Some(&literal) => {}
                Token::Placeholder(name) => {
                    let value = segments.get(i).filter(|s| !s.is_empty())?;
                    captures.push((name, (*value).to_owned()));
                }
                Token::Literal(_) => return None,
            }
        }
        (segments.len() == tokens.len()).then(|| fill(&self.destination, &captures))
    }
}

/// `/a/b/` -> `/a/b`; `/` -> ``.
fn trim_slash(path: &str) -> &str {
    path.trim_end_matches('/')
}

/// The pattern's segments; `None` when it has a splat before its last segment.
fn tokens(source: &str) -> Option<Vec<Token<'_>>> {
    let inner = source.strip_prefix('/').unwrap_or(source);
    if inner.is_empty() {
        return Some(Vec::new());
    }
    let segments: Vec<&str> = inner.split('/').collect();
    let last = segments.len() - 1;
    segments
        .iter()
        .enumerate()
        .map(|(i, segment)| match segment.strip_suffix('*') {
            Some(prefix) if i == last && !prefix.contains(['*', ':']) => Some(Token::Splat(prefix)),
            Some(_) => None,
            None => match segment.strip_prefix(':') {
                Some(name) => Some(Token::Placeholder(name)),
                None => Some(Token::Literal(segment)),
            },
        })
        .collect()
}

/// `destination` with `:name` and `:splat` replaced by what the match captured.
fn fill(destination: &str, captures: &[(&str, String)]) -> String {
    let mut out = String::with_capacity(destination.len());
    let mut rest = destination;
    while let Some(colon) = rest.find(':') {
        out.push_str(&rest[..colon]);
        let after = &rest[colon + 1..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        match captures
            .iter()
            .find(|(name, _)| *name == &after[..name_len])
            .filter(|_| name_len > 0)
        {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(&rest[colon..colon + 1 + name_len]),
        }
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out
}

/// The rules of the site's `redirects` for a bundle whose exported pages are `pages` (page path ->
/// file): literal rules first (the order Cloudflare Pages asks for), each
/// group in the configuration's order, as the first matching rule wins.
pub(crate) fn rules(redirects: &[Redirect], pages: &BTreeMap<String, String>) -> Vec<Rule> {
    let mut literal = Vec::new();
    let mut dynamic = Vec::new();
    for redirect in redirects {
        let status = if redirect.permanent { 308 } else { 307 };
        let Some(source) = source_pattern(&redirect.source) else {
            continue;
        };
        let destination = redirect.destination.trim();
        if destination.is_empty()
            || destination
                .chars()
                .any(|c| c.is_whitespace() || c.is_control())
        {
            continue;
        }
        let rule = |source: String, destination: String| Rule {
            source,
            destination,
            status,
        };
        if !source.contains([':', '*']) {
            if find_page(pages, &links::resolve("", &source)).is_some() {
                continue;
            }
            let destination = literal_destination(destination, pages);
            if destination.as_deref() != Some(source.as_str()) {
                literal.extend(destination.map(|d| rule(source, d)));
            }
            continue;
        }
        let Some(destination) = destination_pattern(destination) else {
            continue;
        };
        // `/beta/:slug*` also matches `/beta`, which `/beta/*` does not.
        let zero_or_more = redirect
            .source
            .trim()
            .rsplit('/')
            .next()
            .is_some_and(|last| last.starts_with(':') && last.ends_with('*'));
        if let Some(bare) = source
            .strip_suffix("/*")
            .filter(|bare| zero_or_more && !bare.is_empty() && !bare.contains([':', '*']))
        {
            if find_page(pages, &links::resolve("", bare)).is_some() {
                dynamic.push(rule(source, destination));
                continue;
            }
            let bare_destination = destination.replace("/:splat", "").replace(":splat", "");
            let bare_destination = if bare_destination.is_empty() {
                "/".to_owned()
            } else {
                bare_destination
            };
            literal.push(rule(bare.to_owned(), bare_destination));
        }
        dynamic.push(rule(source, destination));
    }
    literal.extend(dynamic);
    let settled: Vec<Option<String>> = literal
        .iter()
        .map(|rule| settle(&literal, pages, &rule.destination))
        .collect();
    for (rule, destination) in literal.iter_mut().zip(settled) {
        if let Some(destination) = destination.filter(|d| *d != rule.source) {
            rule.destination = destination;
        }
    }
    literal
}

/// Redirects followed from one destination to the next before it counts as leading nowhere.
const MAX_HOPS: usize = 16;

/// Where a literal `destination` ends when the rules are followed from it: an exported page's bundle
/// path (with the fragment last written), an http(s) URL, or `None` when no page of the bundle is at
/// the end of the chain (or the chain loops).
pub(crate) fn settle(
    rules: &[Rule],
    pages: &BTreeMap<String, String>,
    destination: &str,
) -> Option<String> {
    let mut current = destination.to_owned();
    for _ in 0..MAX_HOPS {
        if is_web_url(&current) {
            return Some(current);
        }
        let (path, fragment) = current
            .split_once('#')
            .map_or((current.as_str(), ""), |(p, f)| (p, f));
        let site_path = links::resolve("", path);
        if find_page(pages, &site_path).is_some() {
            return Some(current);
        }
        let (_, next) = find(rules, &format!("/{site_path}"))?;
        current = match next.contains('#') || fragment.is_empty() {
            true => next,
            false => format!("{next}#{fragment}"),
        };
    }
    None
}

fn is_web_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// The source in the file's syntax, or `None` when the file cannot say it or it must not apply.
fn source_pattern(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty()
        || raw.contains(['?', '#', '\\'])
        || raw.chars().any(|c| c.is_whitespace() || c.is_control())
        || raw.contains("://")
    {
        return None;
    }
    let rooted = if raw.starts_with('/') {
        raw.to_owned()
    } else {
        format!("/{raw}")
    };
    let mut out = Vec::new();
    for segment in rooted.split('/').skip(1) {
        let translated = match segment.strip_prefix(':') {
            Some(param) if param.ends_with(['*', '+']) => "*".to_owned(),
            Some(param) if param.ends_with('?') || param.is_empty() => return None,
            Some(_) => segment.to_owned(),
            None => segment.to_owned(),
        };
        out.push(translated);
    }
    let source = format!("/{}", out.join("/"));
    if tokens(&source).is_none()
        || RESERVED
            .iter()
            .any(|dir| source.starts_with(dir) || source == dir.trim_end_matches('/'))
    {
        return None;
    }
    Some(source)
}

/// A dynamic rule's destination: the source's `:name*`, `:name+` and partial `*` become `:splat`.
fn destination_pattern(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find([':', '*']) {
        out.push_str(&rest[..at]);
        if rest[at..].starts_with('*') {
            out.push_str(":splat");
            rest = &rest[at + 1..];
            continue;
        }
        let after = &rest[at + 1..];
        let name_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let wild = after[name_len..].starts_with(['*', '+']);
        // `https:` keeps its colon; a named parameter keeps its name unless it is the splat.
        if name_len > 0 && wild {
            out.push_str(":splat");
            rest = &after[name_len + 1..];
        } else {
            out.push(':');
            rest = after;
        }
    }
    out.push_str(rest);
    (!out.chars().any(char::is_whitespace)).then_some(out)
}

/// A literal destination: an exported page's extensionless bundle path (`/` for the home page) with
/// its fragment, an http(s) URL as written, else the `/`-rooted path (which [`settle`] may follow on).
fn literal_destination(raw: &str, pages: &BTreeMap<String, String>) -> Option<String> {
    if is_web_url(raw) {
        return Some(raw.to_owned());
    }
    if raw.contains(':') && !raw.starts_with('/') {
        return None;
    }
    let (path, fragment) = raw.split_once('#').map_or((raw, ""), |(p, f)| (p, f));
    let path = path.split('?').next().unwrap_or("");
    let site_path = links::resolve("", path);
    let fragment = if fragment.is_empty() {
        String::new()
    } else {
        format!("#{}", links::encode_path(fragment))
    };
    let bundle = match find_page(pages, &site_path).map(|_| site_path.as_str()) {
        Some("" | "index") => "",
        Some(page) => page.strip_suffix("/index").unwrap_or(page),
        None => &site_path,
    };
    Some(format!("/{}{fragment}", links::encode_path(bundle)))
}

/// The `_redirects` file of `rules`.
pub(crate) fn file_text(rules: &[Rule]) -> String {
    let mut out = String::from("# The site's redirects (docs.json `redirects`), for Cloudflare Pages, Netlify and docs-edge-serve.\n");
    for rule in rules {
        out.push_str(&format!(
            "{} {} {}\n",
            rule.source, rule.destination, rule.status
        ));
    }
    out
}

/// The redirect rules of a `_redirects` file: lines `source destination [status]`, `#` comments.
/// Lines that are not redirects (rewrites, `200`, `404`, forced `!` rules, conditions) are left out:
/// they are not what an export writes.
pub fn parse(text: &str) -> Vec<Rule> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                return None;
            }
            let mut fields = line.split_whitespace();
            let (source, destination) = (fields.next()?, fields.next()?);
            let status = match fields.next() {
                None => 301,
                Some(code) => code
                    .parse()
                    .ok()
                    .filter(|c| matches!(c, 301 | 302 | 303 | 307 | 308))?,
            };
            (fields.next().is_none() && source.starts_with('/')).then(|| Rule {
                source: source.into(),
                destination: destination.into(),
                status,
            })
        })
        .collect()
}

/// The first rule matching `path` (percent-decoded) and its destination.
pub fn find<'r>(rules: &'r [Rule], path: &str) -> Option<(&'r Rule, String)> {
    if RESERVED.iter().any(|dir| path.starts_with(dir)) {
        return None;
    }
    rules
        .iter()
        .find_map(|rule| rule.matches(path).map(|to| (rule, to)))
}

/// The `Location` for a request of `path` (percent-decoded, `/`-rooted) sent to `destination`: an
/// http(s) URL as it is, a bundle path relative to the request, so the answer holds wherever the
/// bundle is mounted (`/guides/old` to `/start` is `../start`). What a URL may not hold (spaces,
/// non-ASCII text a placeholder took from the request) is percent-encoded; escapes already in the
/// destination are kept.
pub fn location(path: &str, destination: &str) -> String {
    let Some(rooted) = destination.strip_prefix('/') else {
        return escape(destination);
    };
    let (target, fragment) = rooted
        .split_once('#')
        .map_or((rooted, None), |(t, f)| (t, Some(f)));
    let from: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let from_dir = &from[..from.len() - 1];
    let to: Vec<&str> = target.split('/').collect();
    let to_dir = &to[..to.len() - 1];
    let common = from_dir
        .iter()
        .zip(to_dir)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = "../".repeat(from_dir.len() - common);
    out.push_str(&to[common..].join("/"));
    if out.is_empty() {
        out.push_str("./");
    } else if out
        .split('/')
        .next()
        .is_some_and(|first| first.contains(':'))
    {
        out.insert_str(0, "./");
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    escape(&out)
}

/// Percent-encodes the characters a URL may not hold, leaving `%` escapes as they are.
fn escape(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        if c.is_ascii_graphic() && !"\"<>\\^`{|}".contains(c) {
            out.push(c);
        } else {
            let mut bytes = [0u8; 4];
            for byte in c.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn redirect(source: &str, destination: &str, permanent: bool) -> Redirect {
        Redirect {
            source: source.into(),
            destination: destination.into(),
            permanent,
        }
    }

    fn pages(paths: &[&str]) -> BTreeMap<String, String> {
        paths
            .iter()
            .map(|p| (p.to_string(), format!("{p}.html")))
            .collect()
    }

    fn rule(source: &str, destination: &str) -> Rule {
        Rule {
            source: source.into(),
            destination: destination.into(),
            status: 308,
        }
    }

    #[test]
    fn the_formats_redirects_become_rules_literal_first() {
        let exported = pages(&["index", "v2/intro", "guides/start", "en/home"]);
        let rules = rules(
            &[
                redirect("/beta/:slug*", "/v2/:slug*", true),
                redirect("/old", "/guides/start#setup", true),
                redirect("moved", "/gone", false),
                redirect("/articles/concepts-*", "/collections/*", true),
                redirect("/u/:user/posts", "https://blog.example.com/:user", true),
                redirect("/guides/start", "/v2/intro", true),
                redirect("/a?x=1", "/v2/intro", true),
                redirect("/a#b", "/v2/intro", true),
                redirect("/x/:slug*/y", "/v2/intro", true),
                redirect("/o/:maybe?", "/v2/intro", true),
                redirect("/_static/site.css", "/v2/intro", true),
                redirect("/to-home", "/", true),
                redirect("/en/start", "/en/home", true),
            ],
            &exported,
        );
        let text = file_text(&rules);
        let lines: Vec<&str> = text.lines().skip(1).collect();
        assert_eq!(
            lines,
            [
                "/beta /v2 308",
                "/old /guides/start#setup 308",
                "/moved /gone 307",
                "/to-home / 308",
                "/en/start /en/home 308",
                "/beta/* /v2/:splat 308",
                "/articles/concepts-* /collections/:splat 308",
                "/u/:user/posts https://blog.example.com/:user 308",
            ]
        );
        assert_eq!(parse(&text), rules, "the file reads back as written");
    }

    #[test]
    fn literal_destinations_follow_redirect_chains_and_never_name_the_live_site() {
        let exported = pages(&["index", "guides/start", "en/enterprise/overview"]);
        let rules = rules(
            &[
                redirect("/enterprise/:path*", "/en/enterprise/:path*", true),
                redirect("/legacy", "/docs/start#setup", true),
                redirect("/docs/:slug*", "/guides/:slug*", true),
                redirect("/old", "/older", false),
                redirect("/older", "/en/enterprise/overview", true),
                redirect("/loop-a", "/loop-b", true),
                redirect("/loop-b", "/loop-a", true),
                redirect("/out", "/away", true),
                redirect("/away", "https://blog.example.com/x", true),
            ],
            &exported,
        );
        let to = |source: &str| {
            rules
                .iter()
                .find(|r| r.source == source)
                .map(|r| r.destination.as_str())
        };
        assert_eq!(
            to("/enterprise"),
            Some("/en/enterprise"),
            "no page at the end: the path as written, for the host's 404"
        );
        assert_eq!(
            to("/legacy"),
            Some("/guides/start#setup"),
            "through a wildcard rule"
        );
        assert_eq!(
            to("/old"),
            Some("/en/enterprise/overview"),
            "through a literal rule"
        );
        assert_eq!(to("/loop-a"), Some("/loop-b"), "a loop ends");
        assert_eq!(
            to("/out"),
            Some("https://blog.example.com/x"),
            "an URL the owner wrote stays"
        );
        assert!(rules
            .iter()
            .all(|r| !r.destination.contains("docs.example.com")));
        assert_eq!(settle(&rules, &exported, "/loop-a"), None);
        assert_eq!(settle(&rules, &exported, "/enterprise"), None);
    }

    #[test]
    fn rules_match_as_static_hosts_match_them() {
        let rules = [
            rule("/old", "/new"),
            rule("/beta/*", "/v2/:splat"),
            rule("/articles/concepts-*", "/c/:splat"),
            rule("/u/:user/posts/:id", "/people/:user/:id#top"),
        ];
        let to = |path: &str| find(&rules, path).map(|(_, d)| d);
        assert_eq!(to("/old").as_deref(), Some("/new"));
        assert_eq!(to("/old/").as_deref(), Some("/new"));
        assert_eq!(to("/older"), None);
        assert_eq!(to("/old/x"), None);
        assert_eq!(to("/beta/a/b").as_deref(), Some("/v2/a/b"));
        assert_eq!(to("/beta").as_deref(), Some("/v2/"));
        assert_eq!(to("/articles/concepts-x").as_deref(), Some("/c/x"));
        assert_eq!(to("/articles/other"), None);
        assert_eq!(to("/u/ann/posts/7").as_deref(), Some("/people/ann/7#top"));
        assert_eq!(to("/u/ann/posts"), None);
        assert_eq!(to("/u//posts/7"), None);
        assert_eq!(to("/_static/site.css"), None);
        assert_eq!(
            find(&[rule("/*", "/x")], "/_docs-edge/manifest.json"),
            None,
            "the bundle's own files are never redirected"
        );
    }

    #[test]
    fn the_location_is_relative_to_the_request() {
        assert_eq!(location("/old", "/new"), "new");
        assert_eq!(location("/guides/old", "/start"), "../start");
        assert_eq!(location("/guides/old/", "/guides/new#x"), "../new#x");
        assert_eq!(location("/a/b/c", "/"), "../../");
        assert_eq!(location("/old", "/"), "./");
        assert_eq!(location("/en/old", "/en/cloud/"), "cloud/");
        assert_eq!(
            location("/old", "https://docs.example.com/x"),
            "https://docs.example.com/x"
        );
        assert_eq!(location("/old", "/javascript:x"), "./javascript:x");
        assert_eq!(
            location("/zh/old", "/zh/新 页#变量"),
            "%E6%96%B0%20%E9%A1%B5#%E5%8F%98%E9%87%8F"
        );
        assert_eq!(
            location("/old", "/guides/%27start#%E5"),
            "guides/%27start#%E5",
            "escapes are kept"
        );
        assert_eq!(location("/old", "https://x.dev/a b"), "https://x.dev/a%20b");
    }

    #[test]
    fn parse_keeps_only_redirects() {
        let rules = parse("# c\n\n/a /b\n/c /d 302\n/e /f 200\n/g /h 301!\n/i /j 308 Country=nz\nnope /k 308\n/l\n");
        assert_eq!(
            rules,
            [
                Rule {
                    source: "/a".into(),
                    destination: "/b".into(),
                    status: 301
                },
                Rule {
                    source: "/c".into(),
                    destination: "/d".into(),
                    status: 302
                }
            ]
        );
    }
}
