//! Authoring mistakes and legacy forms found in real docs repositories: each is read as the author
//! meant where that is clear, and reported as a `file:line: message` warning, never a failure.
//! Every case goes through the publish path (plan, then each page read once for its search text
//! and its Markdown for agents), so both readers are checked.

use std::collections::BTreeMap;

use crate::agents::llms::read_planned_with_markdown;
use crate::docs::archive::tree;
use crate::docs::model::{Page, Site};
use crate::docs::site::plan_site;
use crate::docs::SourceTree;

/// The site as the publish job makes it, and each page's Markdown body by page path.
fn publish(files: &SourceTree) -> (Site, BTreeMap<String, String>) {
    let paths: Vec<&str> = files.keys().map(String::as_str).collect();
    let plan = plan_site(files, &paths).unwrap();
    let mut reads = Vec::new();
    let mut bodies = BTreeMap::new();
    let mut specs = crate::docs::spec_lookup::SpecLookup::new(files);
    for planned in plan.pages() {
        let mut body = String::new();
        reads.push(
            read_planned_with_markdown(files, planned, "d.io", &mut specs, &mut body).unwrap(),
        );
        bodies.insert(planned.path.clone(), body);
    }
    (plan.finish(reads), bodies)
}

fn page<'s>(site: &'s Site, path: &str) -> &'s Page {
    site.pages
        .iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| panic!("no page {path}"))
}

const NAV: (&str, &str) = ("docs.json", r#"{"navigation": {"pages": ["a"]}}"#);

#[test]
fn a_file_ending_inside_a_code_fence_publishes_whole_with_a_warning_at_the_fence() {
    let files = tree(&[
        NAV,
        (
            "a.mdx",
            "---\ntitle: A\n---\nIntro.\n\n```bash\nnpm i x\n\n## After\n\nLast words.\n",
        ),
    ]);
    let (site, bodies) = publish(&files);
    let text = page(&site, "a").full_text();
    assert!(
        text.contains("Intro.") && text.contains("npm i x") && text.contains("Last words."),
        "{text}"
    );
    assert!(bodies["a"].contains("Last words."), "{}", bodies["a"]);
    assert_eq!(
        site.warnings,
        ["a.mdx:6: code fence opened here is never closed"]
    );
}

#[test]
fn prose_starting_with_export_or_import_stays_text_with_a_warning_at_its_line() {
    let body = "---\ntitle: A\n---\nexport const tone = \"calm\";\nimport Card from '/snippets/card.mdx';\n\nexport the site as one bundle, then\nhost it anywhere.\n\nimport your docs with the CLI.\n\nTone: {tone}.\n";
    let files = tree(&[NAV, ("a.mdx", body)]);
    let (site, _) = publish(&files);
    let text = page(&site, "a").full_text();
    assert!(
        text.contains("export the site as one bundle, then host it anywhere."),
        "{text}"
    );
    assert!(text.contains("import your docs with the CLI."), "{text}");
    assert!(
        text.contains("Tone: calm."),
        "the real export still defines its value: {text}"
    );
    let prose: Vec<_> = site
        .warnings
        .iter()
        .filter(|w| w.contains("not JavaScript"))
        .map(|w| w.split(':').take(2).collect::<Vec<_>>().join(":"))
        .collect();
    assert_eq!(prose, ["a.mdx:7", "a.mdx:10"], "{:?}", site.warnings);
}

#[test]
fn a_closed_fence_and_a_fence_closed_by_a_longer_one_give_no_warning() {
    let files = tree(&[NAV, ("a.mdx", "```js\nx\n```\n\n~~~~\ny\n~~~~~\n")]);
    assert!(publish(&files).0.warnings.is_empty());
}

/// One page written with every construct the line ending matters to.
const EVERY_CONSTRUCT: &str = "---\ntitle: Lines\ndescription: Ends\n---\nimport S from '/snippets/s.mdx'\nexport const v = \"val\"\n\n# Heading\n\n<Note>\n  Inside **note**.\n</Note>\n\n<Card\n  title=\"Card title\"\n/>\n\n```js\nlet a = 1;\n```\n\n| A | B |\n|---|---|\n| 1 | 2 |\n\n<S />\n\nValue {v}.\n";

#[test]
fn crlf_lone_cr_and_a_bom_read_exactly_like_lf() {
    let lf = publish(&tree(&[
        NAV,
        ("a.mdx", EVERY_CONSTRUCT),
        ("snippets/s.mdx", "From snippet.\n"),
    ]));
    assert!(lf.0.warnings.is_empty(), "{:?}", lf.0.warnings);
    assert!(
        page(&lf.0, "a")
            .full_text()
            .contains("| A | B |\n| --- | --- |\n| 1 | 2 |"),
        "{}",
        page(&lf.0, "a").full_text()
    );
    for (name, ending, bom) in [
        ("crlf", "\r\n", ""),
        ("cr", "\r", ""),
        ("bom", "\n", "\u{feff}"),
        ("bom crlf", "\r\n", "\u{feff}"),
    ] {
        let page_text = format!("{bom}{}", EVERY_CONSTRUCT.replace('\n', ending));
        let snippet = format!("{bom}From snippet.{ending}");
        let other = publish(&tree(&[
            NAV,
            ("a.mdx", &page_text),
            ("snippets/s.mdx", &snippet),
        ]));
        assert_eq!(other.0, lf.0, "{name}");
        assert_eq!(other.1, lf.1, "{name}");
    }
}

#[test]
fn line_numbers_count_crlf_and_lone_cr_lines() {
    for ending in ["\r\n", "\r"] {
        let source = "---\r\ntitle: A\r\n---\r\n\r\n```\r\nopen".replace("\r\n", ending);
        let (site, _) = publish(&tree(&[NAV, ("a.mdx", &source)]));
        assert_eq!(
            site.warnings,
            ["a.mdx:5: code fence opened here is never closed"],
            "{ending:?}"
        );
    }
}

#[test]
fn a_navigation_entry_naming_no_page_is_a_warning_at_its_line_in_the_config() {
    let files = tree(&[
        ("docs.json", "{\n  \"navigation\": {\"languages\": [\n    {\"language\": \"en\", \"pages\": [\"a\",\n      \"/gone.mdx\"]},\n    {\"$ref\": \"es.json\"}]}\n}\n"),
        ("es.json", "{\"language\": \"es\",\r\n \"pages\": [\"es/a\", \"es/gone\"]}"),
        ("a.mdx", "A"),
        ("es/a.mdx", "A"),
    ]);
    let (site, _) = publish(&files);
    assert_eq!(
        site.warnings,
        [
            "docs.json:4: navigation entry `gone` has no page file",
            "es.json:2: navigation entry `es/gone` has no page file"
        ]
    );
}

#[test]
fn underscore_snippets_are_not_pages_and_the_legacy_snippet_tag_inlines_them() {
    let files = tree(&[
        NAV,
        ("a.mdx", "Before.\n\n<Steps>\n  <Snippet file=\"venv-step.mdx\" />\n</Steps>\n\n<Snippet file=\"/nested/old.mdx\" />\n\n<Snippet file=\"gone.mdx\" />\n"),
        ("_snippets/venv-step.mdx", "<Step title=\"Create a venv\">\n  Run `python -m venv .venv`.\n</Step>\n"),
        ("snippets/nested/old.mdx", "From the snippets folder.\n"),
        ("_snippets/unused.mdx", "Never a page."),
    ]);
    let (site, bodies) = publish(&files);
    assert_eq!(
        site.pages.len(),
        1,
        "{:?}",
        site.pages.iter().map(|p| &p.path).collect::<Vec<_>>()
    );
    let text = page(&site, "a").full_text();
    assert!(
        text.contains("Create a venv\nRun `python -m venv .venv`.\nFrom the snippets folder."),
        "{text}"
    );
    assert!(
        bodies["a"].contains("Create a venv") && bodies["a"].contains("From the snippets folder."),
        "{}",
        bodies["a"]
    );
    assert_eq!(
        site.warnings,
        ["a.mdx:9: snippet `gone.mdx` is missing (looked in _snippets/ and snippets/)"]
    );
}

#[test]
fn a_snippet_imported_from_an_address_is_a_warning_where_its_tag_stands_and_nothing_else() {
    let files = tree(&[
        NAV,
        ("a.mdx", "import Remote from 'https://cdn.example.com/shared/intro.mdx'\n\nBefore.\n\n<Remote word=\"x\" />\n\nAfter.\n"),
    ]);
    let (site, bodies) = publish(&files);
    let text = page(&site, "a").full_text();
    assert!(
        text.contains("Before.") && text.contains("After.") && !text.contains("Remote"),
        "{text}"
    );
    assert!(!bodies["a"].contains("Remote"), "{}", bodies["a"]);
    assert_eq!(
        site.warnings,
        ["a.mdx:5: snippet `https://cdn.example.com/shared/intro.mdx` is imported from an address and not read (snippets are files of the docs folder)"]
    );
}

#[test]
fn a_snippet_shows_the_props_its_tag_passes_in_text_attributes_and_fenced_code() {
    let files = tree(&[
        NAV,
        ("a.mdx", "import MySnippet from '/snippets/my-snippet.mdx'\n\n<MySnippet word=\"bonjour\" count={3} />\n"),
        (
            "snippets/my-snippet.mdx",
            "My keyword of the day is {word}, said {props.count} times.\n\n<Card title={word} />\n\n```bash\nsay {word}\n```\n\n{unknown}end\n",
        ),
    ]);
    let (site, bodies) = publish(&files);
    let text = page(&site, "a").full_text();
    assert_eq!(
        text,
        "My keyword of the day is bonjour, said 3 times.\nbonjour\n```\nsay bonjour\n```\nend\n"
    );
    let md = &bodies["a"];
    assert!(
        md.contains("My keyword of the day is bonjour, said 3 times.")
            && md.contains("say bonjour"),
        "{md}"
    );
    assert!(site.warnings.is_empty(), "{:?}", site.warnings);
}

#[test]
fn exported_values_show_where_the_page_or_an_importer_uses_them() {
    let files = tree(&[
        NAV,
        (
            "a.mdx",
            "import { myName, myObject as fav } from '/snippets/vars.mdx'\nexport const product = \"Acme Cloud\";\nexport const limits = { seats: 5, regions: [\"eu\", \"us\"] };\n\n# About {product}\n\n{product} allows {limits.seats} seats in {limits.regions[1]}. I am {myName} and like {fav.fruit}.\n",
        ),
        ("snippets/vars.mdx", "export const myName = 'Ronan';\n\nexport const myObject = { fruit: 'strawberries' };\n"),
    ]);
    let (site, bodies) = publish(&files);
    let a = page(&site, "a");
    assert_eq!(a.title, "About Acme Cloud");
    assert_eq!(
        a.full_text(),
        "# About Acme Cloud\nAcme Cloud allows 5 seats in us. I am Ronan and like strawberries.\n"
    );
    assert!(
        bodies["a"].contains("Acme Cloud allows 5 seats in us. I am Ronan and like strawberries."),
        "{}",
        bodies["a"]
    );
    assert!(!bodies["a"].contains("export"), "{}", bodies["a"]);
    assert!(site.warnings.is_empty(), "{:?}", site.warnings);
}

#[test]
fn a_snippet_passing_itself_props_stops_at_the_cycle() {
    let files = tree(&[
        NAV,
        (
            "a.mdx",
            "import Loop from '/snippets/loop.mdx'\n\n<Loop word=\"w\" />\n",
        ),
        (
            "snippets/loop.mdx",
            "import Loop from '/snippets/loop.mdx'\n\n{word} again\n\n<Loop word={word} />\n",
        ),
    ]);
    let (site, _) = publish(&files);
    assert_eq!(page(&site, "a").full_text(), "w again\n");
    assert_eq!(site.warnings, ["snippets/loop.mdx:5: snippet `snippets/loop.mdx` not inlined (nested too deep or cyclic)"]);
}

#[test]
fn a_huge_prop_used_many_times_is_bounded_with_a_warning() {
    // Tags are scanned up to 16 KiB: the largest prop a tag can pass, used 2,048 times is 16 MiB.
    let big = "x".repeat(8 << 10);
    let uses = "{word} ".repeat(2048);
    let page_source = format!("import Big from '/snippets/big.mdx'\n\n<Big word=\"{big}\" />\n");
    let files = tree(&[NAV, ("a.mdx", &page_source), ("snippets/big.mdx", &uses)]);
    let (site, _) = publish(&files);
    let text = page(&site, "a").full_text();
    assert!(
        text.len() <= crate::docs::walk::SNIPPET_BUDGET + page_source.len(),
        "{} bytes",
        text.len()
    );
    assert!(
        text.len() >= 4 << 20,
        "substituted until the budget: {} bytes",
        text.len()
    );
    assert_eq!(
        site.warnings,
        ["snippets/big.mdx:1: values not substituted past the page's 8 MiB of snippet text"]
    );
}

#[test]
fn mintignore_and_the_default_ignores_leave_files_out_of_the_site() {
    let files = tree(&[
        (
            "docs.json",
            "{\"navigation\": {\"pages\": [\n  \"a\",\n  \"drafts/wip\"]}}",
        ),
        (
            ".mintignore",
            "# not published\ndrafts/\n/internal/*\n!/internal/public.mdx\n",
        ),
        ("a.mdx", "A"),
        ("drafts/wip.mdx", "Draft"),
        ("internal/notes.mdx", "Notes"),
        ("internal/public.mdx", "Public"),
        (
            "internal/javascript:x.mdx",
            "a name that would fail the publish were it read",
        ),
        ("README.md", "# Repo readme"),
        ("node_modules/pkg/README.mdx", "x"),
    ]);
    let (site, _) = publish(&files);
    let paths: Vec<&str> = site.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["a", "internal/public"]);
    assert_eq!(
        site.warnings[0],
        "docs.json:3: navigation entry `drafts/wip` names a file .mintignore leaves out"
    );
}

#[test]
fn the_assistants_files_are_never_pages_even_when_navigation_lists_them() {
    let files = tree(&[
        (
            "docs.json",
            "{\"navigation\": {\"pages\": [\n  \"a\",\n  \".mintlify/Assistant\"]}}",
        ),
        (".mintignore", "!/.mintlify/\n"),
        ("a.mdx", "A"),
        (".mintlify/Assistant.md", "Answer like a pirate."),
        (
            ".mintlify/assistant/skills/rotate-keys/skill.md",
            "---\nname: Rotate keys\ndescription: d\n---\nSteps",
        ),
        (".mintlify/notes.mdx", "Private"),
        ("ASSISTANT.md", "Root instructions"),
        ("guides/Assistant.md", "A page that only shares the name"),
    ]);
    let (site, _) = publish(&files);
    let paths: Vec<&str> = site.pages.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(paths, ["a", "guides/Assistant"]);
    assert_eq!(
        site.warnings[0],
        "docs.json:3: navigation entry `.mintlify/Assistant` names `.mintlify/Assistant.md`, which is for the assistant and never a page"
    );
}

/// The shared real fixtures (beside the repository), read from disk.
fn real_fixture(name: &str) -> SourceTree {
    let root = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/fixtures"
    ))
    .join(name);
    crate::docs::archive::read_dir_tree(&root)
        .unwrap_or_else(|e| panic!("fixture {name} missing beside the repo: {e}"))
}

#[test]
fn the_hosted_services_docs_with_a_guide_keep_their_pages_and_publish_none_of_the_guide() {
    let mut files = real_fixture("mintlify-docs");
    assert!(
        !files.keys().any(|p| p.starts_with(".mintlify/")),
        "the fixture now carries its own guide: test that instead"
    );
    let guide = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/assistant-guide-docs"
    ));
    let guide = crate::docs::archive::read_dir_tree(guide).unwrap();
    files.extend(
        guide
            .into_iter()
            .filter(|(p, _)| p.starts_with(".mintlify/")),
    );
    let paths: Vec<&str> = files.keys().map(String::as_str).collect();
    let plan = plan_site(&files, &paths).unwrap();
    let skills: Vec<&str> = plan
        .assistant
        .skills
        .iter()
        .map(|s| s.slug.as_str())
        .collect();
    assert_eq!(skills, ["debug-webhooks", "rotate-tokens"]);
    assert!(plan.assistant.instructions.contains("workspace"));
    let sources: Vec<&str> = plan.pages().iter().map(|p| p.source.as_str()).collect();
    assert!(
        sources.contains(&"assistant/customize.mdx") && sources.contains(&"assistant/skills.mdx"),
        "the pages about the feature stay"
    );
    assert!(
        !sources.iter().any(|s| s.starts_with(".mintlify/")),
        "{sources:?}"
    );
    let site = crate::docs::build_site(&files).unwrap();
    assert!(site.warnings.iter().any(|w| w == ".mintlify/assistant/skills/broken/skill.md:1: skill left out: its frontmatter has no `name`"));
    assert_eq!(site.pages.len(), plan.pages().len());
}

/// An entry like `GET /users/{id}` names an OpenAPI operation's page, which navigation generates
/// (the config's part of the issue), not a file.
fn names_an_operation(warning: &str) -> bool {
    let entry = warning.split('`').nth(1).unwrap_or("");
    entry.split_once(' ').is_some_and(|(method, path)| {
        method.bytes().all(|b| b.is_ascii_uppercase()) && path.starts_with('/')
    })
}

#[test]
fn the_dify_fixture_warns_only_about_real_mistakes_and_honours_its_mintignore() {
    let files = real_fixture("dify-docs");
    let site = crate::docs::build_site(&files).unwrap();
    let others: Vec<&String> = site
        .warnings
        .iter()
        .filter(|w| !names_an_operation(w))
        .collect();
    assert_eq!(others.len(), 1, "{others:#?}");
    assert!(
        others[0].starts_with("7 pages not in navigation"),
        "{others:?}"
    );
    let paths: Vec<&str> = site.pages.iter().map(|p| p.source.as_str()).collect();
    assert!(paths.len() >= 850, "{} pages", paths.len());
    for left_out in [
        "AGENTS.md",
        "CLAUDE.md",
        "README.md",
        "writing-guides/",
        "tools/",
        ".github/",
    ] {
        assert!(
            !paths.iter().any(|p| p.starts_with(left_out)),
            "{left_out} published"
        );
    }
    assert!(
        paths.contains(&"en/cloud/use-dify/build/agent.mdx"),
        "a nested build/ folder is content"
    );
}

#[test]
fn the_agentops_fixture_pages_read_without_warnings() {
    let files = real_fixture("agentops-docs");
    let mut read = 0;
    for (path, bytes) in files
        .iter()
        .filter(|(p, _)| p.ends_with(".mdx") || p.ends_with(".md"))
    {
        let text = crate::docs::source_text::read(bytes);
        let (_, body) = crate::docs::frontmatter::split(&text);
        let page = crate::docs::sections::extract(body, path, &files);
        assert!(page.warnings.is_empty(), "{path}: {:?}", page.warnings);
        read += 1;
    }
    assert!(read >= 130, "{read} pages read");
}
