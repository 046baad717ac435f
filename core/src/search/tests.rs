//! Behaviour of the search index on small hand-made sites.

use super::*;
use crate::docs::{Page, Section};

pub(super) fn section(heading: &str, level: u8, text: &str) -> Section {
    let anchor = heading.to_lowercase().replace(' ', "-");
    Section {
        heading: heading.into(),
        anchor,
        level,
        text: text.into(),
    }
}

pub(super) fn page(path: &str, title: &str, sections: Vec<Section>) -> Page {
    Page {
        path: path.into(),
        title: title.into(),
        language: "en".into(),
        sections,
        ..Default::default()
    }
}

pub(super) fn filler(n: usize) -> String {
    "Lorem ipsum dolor sit amet consectetur adipiscing elit sed eiusmod tempor. ".repeat(n)
}

pub(super) fn site() -> Vec<Page> {
    vec![
        page(
            "guides/custom-domain",
            "Custom domains",
            vec![
                section("", 0, "Serve your docs from your own domain."),
                section(
                    "Configure DNS",
                    2,
                    "Add a CNAME record pointing at the edge.",
                ),
                section("Verify", 2, "Verification takes a few minutes."),
            ],
        ),
        page(
            "guides/analytics",
            "Analytics",
            vec![section("", 0, &format!("Track page views. {}", filler(3)))],
        ),
        page(
            "api/keys",
            "API keys",
            vec![
                section(
                    "",
                    0,
                    "Create keys in the dashboard. Each key belongs to one organization.",
                ),
                section(
                    "Rotating keys",
                    2,
                    "Rotate a key by creating a new one and deleting the old.",
                ),
            ],
        ),
        page(
            "reference/glossary",
            "Glossary",
            vec![section(
                "Terms",
                2,
                &format!(
                    "A domain is a name. {} Keys authenticate requests.",
                    filler(4)
                ),
            )],
        ),
    ]
}

fn top(index: &SearchIndex, text: &str) -> Vec<Hit> {
    index.search(&Query::new(text))
}

#[test]
fn title_match_outranks_body_match() {
    let index = SearchIndex::build(&site());
    let hits = top(&index, "domain");
    assert_eq!(hits[0].path, "guides/custom-domain");
    assert!(hits.iter().any(|h| h.path == "reference/glossary"));
    let glossary = hits
        .iter()
        .find(|h| h.path == "reference/glossary")
        .unwrap();
    assert!(hits[0].score > glossary.score);
}

#[test]
fn heading_match_outranks_body_match() {
    let pages = vec![
        page(
            "a",
            "Alpha",
            vec![section("Webhooks", 2, "Events are delivered.")],
        ),
        page(
            "b",
            "Beta",
            vec![section("Events", 2, "Configure webhooks in settings.")],
        ),
    ];
    let index = SearchIndex::build(&pages);
    let hits = top(&index, "webhooks");
    assert_eq!(hits[0].path, "a");
    assert_eq!(hits[0].heading.as_deref(), Some("Webhooks"));
    assert_eq!(hits[0].anchor.as_deref(), Some("webhooks"));
}

#[test]
fn more_query_terms_beat_one_repeated_term() {
    let pages = vec![
        page(
            "repeat",
            "One",
            vec![section("", 0, &"deploy the worker. ".repeat(30))],
        ),
        page(
            "both",
            "Two",
            vec![section("", 0, "deploy with a preview branch and rollback.")],
        ),
        page(
            "other",
            "Three",
            vec![section("", 0, "nothing relevant here at all")],
        ),
    ];
    let index = SearchIndex::build(&pages);
    let hits = top(&index, "deploy preview");
    assert_eq!(hits[0].path, "both");
}

#[test]
fn strong_match_scores_high_and_weak_match_low() {
    let index = SearchIndex::build(&site());
    let hits = top(&index, "custom domain dns");
    assert_eq!(hits[0].path, "guides/custom-domain");
    assert!(hits[0].score > 0.6, "strong {}", hits[0].score);
    // The glossary mentions "domain" once in a long body and nothing else of the query.
    let weak = hits
        .iter()
        .find(|h| h.path == "reference/glossary")
        .unwrap();
    assert!(weak.score < 0.2, "weak {}", weak.score);
    assert!(hits.iter().all(|h| (0.0..=1.0).contains(&h.score)));
}

#[test]
fn threshold_drops_weak_hits() {
    let index = SearchIndex::build(&site());
    let all = top(&index, "custom domain dns");
    let strict = index.search(&Query {
        score_threshold: 0.5,
        ..Query::new("custom domain dns")
    });
    assert!(strict.len() < all.len());
    assert!(!strict.is_empty());
    assert!(strict.iter().all(|h| h.score >= 0.5));
}

#[test]
fn unknown_and_stopword_queries_return_nothing() {
    let index = SearchIndex::build(&site());
    assert!(top(&index, "zebra").is_empty());
    assert!(top(&index, "how is the").is_empty());
    assert!(top(&index, "").is_empty());
    assert!(index
        .search(&Query {
            limit: 0,
            ..Query::new("domain")
        })
        .is_empty());
}

#[test]
fn stemming_matches_inflections() {
    let index = SearchIndex::build(&site());
    let hits = top(&index, "rotate key");
    assert_eq!(hits[0].path, "api/keys");
    assert_eq!(hits[0].heading.as_deref(), Some("Rotating keys"));
    assert_eq!(top(&index, "verifying")[0].path, "guides/custom-domain");
}

pub(super) fn multilingual() -> Vec<Page> {
    let mut es = page(
        "es/quickstart",
        "Inicio rápido",
        vec![section("", 0, "Configura tu dominio.")],
    );
    es.language = "es".into();
    let mut zh = page(
        "zh/custom-domain",
        "自定义域名",
        vec![section(
            "配置DNS",
            2,
            "添加一条CNAME记录，指向边缘网络。验证需要几分钟。",
        )],
    );
    zh.language = "zh".into();
    let en = page(
        "quickstart",
        "Quickstart",
        vec![section("", 0, "Configure your domain.")],
    );
    vec![en, es, zh]
}

#[test]
fn language_filter_excludes_other_languages() {
    let index = SearchIndex::build(&multilingual());
    let all = top(&index, "dominio domain");
    assert!(all.iter().any(|h| h.language == "es"));
    let es = index.search(&Query {
        language: Some("es"),
        ..Query::new("dominio domain")
    });
    assert!(!es.is_empty());
    assert!(es.iter().all(|h| h.language == "es"));
}

#[test]
fn a_translated_copy_ranks_below_the_page_in_the_query_language() {
    // The Spanish copy shares the code sample and the cognate "color"; the English question's other
    // words are only in English sections.
    let code = "```json\n\"colors\": {\"primary\": \"#0D9373\"}\n```";
    let en = page(
        "colors",
        "Color",
        vec![section(
            "",
            0,
            &format!("Change the primary color of your site.\n{code}"),
        )],
    );
    let mut es = page(
        "es/colors",
        "Color",
        vec![section(
            "",
            0,
            &format!("Cambia el color principal.\n{code}\n{code}"),
        )],
    );
    es.language = "es".into();
    let other = page(
        "es/otra",
        "Otra",
        vec![section("", 0, "Cambia el color del sitio.")],
    );
    let index = SearchIndex::build(&[es, en, other]);
    let hits = top(&index, "change the primary color of my site");
    assert_eq!(hits[0].path, "colors");
    // A question of identifiers only is in no language: the site's first page's language is kept.
    let hits = top(&index, "primary");
    assert_eq!(hits[0].language, "es", "{hits:?}");
}

#[test]
fn accents_are_optional_in_queries() {
    let index = SearchIndex::build(&multilingual());
    assert_eq!(top(&index, "rapido")[0].path, "es/quickstart");
}

#[test]
fn chinese_query_matches_bigrams() {
    let index = SearchIndex::build(&multilingual());
    let hits = top(&index, "域名");
    assert_eq!(hits[0].path, "zh/custom-domain");
    let hits = top(&index, "如何添加CNAME记录");
    assert_eq!(hits[0].path, "zh/custom-domain");
    assert_eq!(hits[0].heading.as_deref(), Some("配置DNS"));
    // Unrelated Chinese shares no bigram.
    assert!(top(&index, "价格计划").is_empty());
}

#[test]
fn version_filter_keeps_unversioned_pages() {
    let mut v1 = page(
        "v1/auth",
        "Auth",
        vec![section("", 0, "Tokens in version one.")],
    );
    v1.version = Some("v1".into());
    let mut v2 = page(
        "v2/auth",
        "Auth",
        vec![section("", 0, "Tokens in version two.")],
    );
    v2.version = Some("v2".into());
    let shared = page(
        "changelog",
        "Changelog",
        vec![section("", 0, "Tokens changed.")],
    );
    let index = SearchIndex::build(&[v1, v2, shared]);
    let hits = index.search(&Query {
        version: Some("v2"),
        ..Query::new("tokens")
    });
    let paths: Vec<_> = hits.iter().map(|h| h.path.as_str()).collect();
    assert!(paths.contains(&"v2/auth"));
    assert!(paths.contains(&"changelog"));
    assert!(!paths.contains(&"v1/auth"));
    assert_eq!(index.versions(), ["v1", "v2"]);
}

#[test]
fn a_question_naming_a_version_prefers_that_versions_pages() {
    let versioned = |label: &str, text: &str| {
        let mut p = page(
            &format!("{label}/sessions"),
            "Sessions",
            vec![section("", 0, text)],
        );
        p.version = Some(label.into());
        p
    };
    // v2's page is the stronger match on words alone; the question names v1.
    let index = SearchIndex::build(&[
        versioned("v1", "A session groups one run of your agent."),
        versioned(
            "v2",
            "A session is a trace. Sessions hold spans; each session has an id.",
        ),
    ]);
    let hits = index.search(&Query::new("In v1, what is a session?"));
    assert_eq!(hits.first().map(|h| h.path.as_str()), Some("v1/sessions"));
    assert!(
        hits[0].coverage > 0.99,
        "the version counts as covered: {}",
        hits[0].coverage
    );
    let hits = index.search(&Query::new("what is a session?"));
    assert_eq!(hits.first().map(|h| h.path.as_str()), Some("v2/sessions"));
}

#[test]
fn near_copies_in_several_versions_rank_the_current_versions_first() {
    let auth = |label: Option<&str>, text: &str| {
        let mut p = page(
            &format!("{}/auth", label.unwrap_or("x")),
            "Auth",
            vec![section("", 0, text)],
        );
        p.version = label.map(str::to_owned);
        p
    };
    // v1's copy says a little more, so on words alone it is the stronger match.
    let older = format!("Rotate an API key from the dashboard. {}", filler(2));
    let current = format!("{older} Settings.");
    let unversioned = SearchIndex::build(&[auth(None, &current), auth(Some("v1"), &older)]);
    let hits = unversioned.search(&Query::new("rotate api key"));
    assert_eq!(
        hits.first().map(|h| h.path.as_str()),
        Some("v1/auth"),
        "words alone"
    );

    // v2 comes first in navigation (docs.json declares it first): the current version.
    let index = SearchIndex::build(&[auth(Some("v2"), &current), auth(Some("v1"), &older)]);
    let first = |q: Query| index.search(&q).first().map(|h| h.path.clone());
    assert_eq!(
        first(Query::new("rotate api key")).as_deref(),
        Some("v2/auth")
    );
    // A question or filter naming the older version gets it.
    assert_eq!(
        first(Query::new("rotate api key in v1")).as_deref(),
        Some("v1/auth")
    );
    assert_eq!(
        first(Query {
            version: Some("v1"),
            ..Query::new("rotate api key")
        })
        .as_deref(),
        Some("v1/auth")
    );

    // docs.json declares v1 first and marks v2 `default: true`: the host names v2 the current one.
    let index = SearchIndex::build(&[auth(Some("v1"), &older), auth(Some("v2"), &current)]);
    let first = |q: Query| index.search(&q).first().map(|h| h.path.clone());
    assert_eq!(
        first(Query::new("rotate api key")).as_deref(),
        Some("v1/auth"),
        "first declared, without the host's word"
    );
    let current = Query {
        current_version: Some("v2"),
        ..Query::new("rotate api key")
    };
    assert_eq!(first(current).as_deref(), Some("v2/auth"));
    assert_eq!(
        first(Query {
            current_version: Some("v2"),
            ..Query::new("rotate api key in v1")
        })
        .as_deref(),
        Some("v1/auth")
    );
}

#[test]
fn a_what_is_question_leads_with_the_opening_of_the_page_titled_with_it() {
    let sessions = page(
        "concepts/sessions",
        "Sessions",
        vec![
            section(
                "",
                0,
                &format!("A session is one execution of your workflow. {}", filler(3)),
            ),
            // Shorter, so on words alone they score a little higher than the opening.
            section(
                "Inheritance",
                2,
                &format!("Pass the session id to another process. {}", filler(2)),
            ),
            section(
                "Starting",
                2,
                &format!("Calling init starts a session. {}", filler(2)),
            ),
        ],
    );
    let index = SearchIndex::build(&[sessions]);
    let hits = index.search(&Query::new("What is a session?"));
    assert_eq!(
        hits.first().map(|h| h.heading.as_deref()),
        Some(None),
        "{hits:?}"
    );
    // Not a question of what something is: the shorter sections win as before.
    let hits = index.search(&Query::new("session"));
    assert!(
        hits.first().is_some_and(|h| h.heading.is_some()),
        "{hits:?}"
    );
}

#[test]
fn tag_matches_tab_or_group_case_insensitively() {
    let mut a = page("a", "Limits", vec![section("", 0, "Rate limits apply.")]);
    a.tab = Some("API Reference".into());
    let mut b = page(
        "b",
        "Limits guide",
        vec![section("", 0, "Rate limits explained.")],
    );
    b.groups = vec!["Guides".into(), "Operations".into()];
    let index = SearchIndex::build(&[a, b]);
    let by_tab = index.search(&Query {
        tag: Some("api reference"),
        ..Query::new("limits")
    });
    assert_eq!(
        by_tab.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(),
        ["a"]
    );
    let by_group = index.search(&Query {
        tag: Some("OPERATIONS"),
        ..Query::new("limits")
    });
    assert_eq!(
        by_group.iter().map(|h| h.path.as_str()).collect::<Vec<_>>(),
        ["b"]
    );
    assert_eq!(by_group[0].groups, ["Guides", "Operations"]);
    let any_of = [String::from("nowhere"), String::from(" guides ")];
    let by_groups = index.search(&Query {
        groups: &any_of,
        ..Query::new("limits")
    });
    assert_eq!(
        by_groups
            .iter()
            .map(|h| h.path.as_str())
            .collect::<Vec<_>>(),
        ["b"]
    );
    let by_tab_name = index.search(&Query {
        groups: &[String::from("API reference")],
        ..Query::new("limits")
    });
    assert_eq!(
        by_tab_name
            .iter()
            .map(|h| h.path.as_str())
            .collect::<Vec<_>>(),
        ["a"]
    );
}

#[test]
fn near_path_boosts_same_folder() {
    let pages = vec![
        page(
            "guides/setup",
            "Setup",
            vec![section("", 0, "Install the command line tool.")],
        ),
        page(
            "api/setup",
            "Setup",
            vec![section("", 0, "Install the command line tool.")],
        ),
    ];
    let index = SearchIndex::build(&pages);
    let plain = top(&index, "install setup");
    assert_eq!(plain[0].path, "guides/setup");
    let near = index.search(&Query {
        near_path: Some("/api/overview"),
        ..Query::new("install setup")
    });
    assert_eq!(near[0].path, "api/setup");
    assert!(near[0].score <= 1.0);
}

#[test]
fn one_page_does_not_flood_results() {
    let sections: Vec<Section> = (0..6)
        .map(|i| section(&format!("Webhook events {i}"), 2, "webhook payload"))
        .collect();
    let mut pages = vec![page("webhooks", "Webhooks", sections)];
    pages.push(page(
        "events",
        "Events",
        vec![section("", 0, "a webhook is sent per event")],
    ));
    pages.push(page(
        "retries",
        "Retries",
        vec![section("", 0, "failed webhook deliveries retry")],
    ));
    let index = SearchIndex::build(&pages);

    let hits = index.search(&Query {
        limit: 4,
        ..Query::new("webhook")
    });
    let from_big = hits.iter().filter(|h| h.path == "webhooks").count();
    assert_eq!(hits.len(), 4);
    assert_eq!(from_big, 2);
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));

    // With room to spare, the page's other chunks fill in after the other pages.
    let many = index.search(&Query {
        limit: 20,
        ..Query::new("webhook")
    });
    assert_eq!(many.len(), 8);
}

#[test]
fn long_sections_are_cut_into_chunks() {
    let para = format!("{}\n\n", filler(4));
    let long = para.repeat(20);
    let index = SearchIndex::build(&[page("long", "Long", vec![section("Body", 2, &long)])]);
    assert!(index.chunk_count() > 3);
    let hits = index.search(&Query {
        limit: 50,
        ..Query::new("lorem")
    });
    assert!(hits.iter().all(|h| h.text.chars().count() <= 1875));
    assert!(hits.iter().all(|h| h.heading.as_deref() == Some("Body")));
}

#[test]
fn page_text_reassembles_sections() {
    let long = format!("{}\n\n", filler(4)).repeat(20);
    let p = page(
        "guide/long",
        "Long",
        vec![
            section("", 0, "Intro line."),
            section("Body", 2, &long),
            section("Deeper", 3, "Nested text\nwith two lines"),
            section("Empty", 2, ""),
        ],
    );
    let index = SearchIndex::build(std::slice::from_ref(&p));
    let doc = index.page("guide/long").unwrap();
    assert_eq!(doc.text, p.full_text());
    assert_eq!(doc.title, "Long");
}

#[test]
fn page_lookup_tolerates_slashes_and_extensions() {
    let index = SearchIndex::build(&site());
    for path in [
        "api/keys",
        "/api/keys",
        "/api/keys/",
        "api/keys.mdx",
        "api/keys.md",
        "api/keys#rotating-keys",
    ] {
        assert_eq!(
            index.page(path).map(|p| p.path),
            Some("api/keys".to_owned()),
            "{path}"
        );
    }
    assert!(index.page("api/key").is_none());
    assert!(index.page("").is_none());
}

#[test]
fn a_folder_names_its_index_page() {
    let pages = vec![
        page(
            "publish/index",
            "Publish",
            vec![section("", 0, "Publish your docs.")],
        ),
        page("publish/http", "HTTP", vec![section("", 0, "The flow.")]),
    ];
    let index = SearchIndex::build(&pages);
    for path in ["publish", "/publish/", "publish/index", "publish#flow"] {
        assert_eq!(
            index.page(path).map(|p| p.path),
            Some("publish/index".to_owned()),
            "{path}"
        );
    }
    assert!(index.page("publish/http/index").is_none());
    assert!(index.page("http").is_none());
}

#[test]
fn listing_reports_pages_languages_and_versions() {
    let index = SearchIndex::build(&multilingual());
    assert_eq!(index.page_count(), 3);
    assert_eq!(index.languages(), ["en", "es", "zh"]);
    assert!(index.versions().is_empty());
    let first = index.pages().next().unwrap();
    assert_eq!((first.path, first.title), ("quickstart", "Quickstart"));
}

#[test]
fn roundtrip_preserves_results() {
    let mut pages = site();
    pages.extend(multilingual());
    let index = SearchIndex::build(&pages);
    let bytes = index.to_bytes();
    let loaded = SearchIndex::from_bytes(&bytes).unwrap();
    assert_eq!(loaded, index);
    for q in ["custom domain", "域名", "rotate keys", "dominio"] {
        assert_eq!(
            loaded.search(&Query::new(q)),
            index.search(&Query::new(q)),
            "{q}"
        );
    }
    assert_eq!(loaded.page("api/keys"), index.page("api/keys"));
}

#[test]
fn corrupt_bytes_are_an_error() {
    let bytes = SearchIndex::build(&site()).to_bytes();
    assert!(matches!(
        SearchIndex::from_bytes(&[]),
        Err(IndexError::Empty)
    ));
    let mut other = bytes.clone();
    other[0] = FORMAT_VERSION + 1;
    assert!(matches!(
        SearchIndex::from_bytes(&other),
        Err(IndexError::UnsupportedVersion(_))
    ));
    for len in 1..bytes.len() {
        assert!(
            SearchIndex::from_bytes(&bytes[..len]).is_err(),
            "truncated at {len}"
        );
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        SearchIndex::from_bytes(&longer),
        Err(IndexError::TrailingBytes)
    ));
    // Garbage and bit flips must never panic; whatever loads must still answer queries.
    super::test_rng::each_corruption(&bytes, |corrupt| {
        if let Ok(index) = SearchIndex::from_bytes(corrupt) {
            let _ = index.search(&Query::new("custom domain keys"));
            let _ = index.page("api/keys");
        }
    });
    assert!(!IndexError::Empty.to_string().is_empty());
}

#[test]
fn a_name_the_index_never_saw_leaves_every_hit_uncovered() {
    let index = SearchIndex::build(&site());
    let hits = index.search(&Query::new(
        "How do I configure DNS for my custom domain on Netlify?",
    ));
    assert!(!hits.is_empty(), "the other words still find pages");
    assert!(hits.iter().all(|h| h.coverage == 0.0), "{hits:?}");
    // The same words without the unknown name, and an unknown lower-case word, are covered.
    for q in [
        "How do I configure DNS for my custom domain?",
        "How do I configure DNS for my custom domain quickly?",
    ] {
        let hits = index.search(&Query::new(q));
        assert!(hits[0].coverage > 0.5, "{q}: {hits:?}");
    }
}

#[test]
fn an_unsearchable_page_is_never_a_hit_and_is_still_read_whole() {
    let mut pages = site();
    let mut draft = page(
        "drafts/zebra",
        "Zebra crossing",
        vec![section(
            "",
            0,
            "Zebra stripes guide the custom domain setup.",
        )],
    );
    draft.unsearchable = true;
    pages.push(draft.clone());
    let index = SearchIndex::build(&pages);
    assert!(top(&index, "zebra").is_empty());
    assert!(top(&index, "custom domain")
        .iter()
        .all(|h| h.path != "drafts/zebra"));
    assert_eq!(index.page("drafts/zebra").unwrap().text, draft.full_text());
    // Neither its words nor its chunks count in the ranking: the other pages score exactly as
    // without it, and a word only it spells is unknown to the site.
    let without = SearchIndex::build(&site());
    let ranked = |index: &SearchIndex| -> Vec<(String, Option<String>, u32)> {
        top(index, "custom domain dns")
            .into_iter()
            .map(|h| (h.path, h.anchor, h.score.to_bits()))
            .collect()
    };
    assert_eq!(ranked(&index), ranked(&without));
    assert!(index.dict().lookup("zebra").is_none());
    assert_eq!(index.searchable_chunks, without.data.chunks.len());
}

fn troubleshooting_site() -> Vec<Page> {
    let mut pages = site();
    pages.push(page(
        "troubleshooting/econnreset",
        "Error read ECONNRESET",
        vec![
            section(
                "Symptom",
                3,
                "The client throws read ECONNRESET when it connects.",
            ),
            section(
                "Diagnosis",
                3,
                "The server requires TLS and the client does not use it.",
            ),
            section(
                "Solution",
                3,
                "Start the URL with rediss:// to turn TLS on.",
            ),
        ],
    ));
    pages.push(page(
        "guides/long",
        "Long guide",
        vec![
            section(
                "Opening",
                2,
                &format!("ECONNRESET explained at length. {}", filler(8)),
            ),
            section("Next", 2, "What comes after the long section."),
        ],
    ));
    pages
}

#[test]
fn a_short_best_section_is_read_on_into_the_sections_after_it() {
    let index = SearchIndex::build(&troubleshooting_site());
    let q = Query {
        limit: 1,
        follow_top: 2,
        ..Query::new("client throws read ECONNRESET")
    };
    let hits = index.search(&q);
    let headings: Vec<_> = hits.iter().map(|h| h.heading.as_deref()).collect();
    assert_eq!(
        headings,
        [Some("Symptom"), Some("Diagnosis"), Some("Solution")],
        "{hits:?}"
    );
    // After every ranked hit, and matched by nothing.
    assert!(hits[1].score < hits[0].score && hits[1].coverage == 0.0);
    assert!(hits.iter().all(|h| h.path == "troubleshooting/econnreset"));
    // Without the option, the same query returns only what it matched.
    assert_eq!(index.search(&Query { follow_top: 0, ..q }).len(), 1);
}

#[test]
fn a_long_best_section_and_the_page_s_end_stop_the_reading_on() {
    let index = SearchIndex::build(&troubleshooting_site());
    let long = index.search(&Query {
        limit: 1,
        follow_top: 2,
        ..Query::new("ECONNRESET explained at length")
    });
    assert_eq!(long.len(), 1, "{long:?}");
    // The last section of a page has nothing after it on its page.
    let last = index.search(&Query {
        limit: 1,
        follow_top: 2,
        ..Query::new("rediss URL turn TLS on")
    });
    assert_eq!(last.len(), 1, "{last:?}");
    assert_eq!(last[0].heading.as_deref(), Some("Solution"));
}

/// The semantic stage reorders what BM25 found by meaning: of two sections that match the
/// question's one shared word, BM25 prefers the shorter; the query's vector puts the one about
/// limits first for "maximum size", and keeps the one about colours first for "colour".
#[test]
fn the_semantic_stage_breaks_a_bm25_tie_by_meaning() {
    let pages = vec![page(
        "storage",
        "Storage",
        vec![
            section("Theme", 2, "Storage pages are blue."),
            section("Quota", 2, "Storage holds at most 100 MB in each account."),
        ],
    )];
    let mut index = SearchIndex::build(&pages);
    let headings = |index: &SearchIndex, text: &str, vector: Option<&[f32]>| -> Vec<String> {
        index
            .search(&Query {
                semantic: vector,
                ..Query::new(text)
            })
            .into_iter()
            .filter_map(|h| h.heading)
            .collect()
    };
    let model = super::semantic::embedded_model();
    let limit = "storage maximum size";
    let colour = "storage colour";
    assert_eq!(
        headings(&index, limit, None),
        ["Theme", "Quota"],
        "the shorter first"
    );
    let limit_vector = model.embed(limit);
    assert_eq!(
        headings(&index, limit, limit_vector.as_deref()),
        ["Theme", "Quota"],
        "no vectors in the index: BM25 alone"
    );
    index.embed(model);
    assert_eq!(
        headings(&index, limit, limit_vector.as_deref()),
        ["Quota", "Theme"]
    );
    let colour_vector = model.embed(colour);
    assert_eq!(
        headings(&index, colour, colour_vector.as_deref()),
        ["Theme", "Quota"]
    );
}
