//! Property-based fuzzing (proptest) of everything that reads hostile input: request validators,
//! the stream decoders, the docs archive reader, docs.json and frontmatter, byte ranges (and, in
//! `export::render::render_fuzz`, the MDX -> HTML renderer). Every test is named `fuzz_*`.
//!
//! `cargo test` runs [`default_cases`] cases of each from one fixed seed, so a test run passes or
//! fails the same way every time; `PROPTEST_CASES=n` sets another count, `PROPTEST_RNG_SEED=n`
//! another seed, and `npm run fuzz -- --seconds N` (scripts/fuzz.mjs) reruns each target with fresh
//! seeds for a set time, which is where new failures are found.
//! Inputs are drawn from token alphabets of each format (so they reach deep into the parsers)
//! mixed with arbitrary strings and bytes.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use serde_json::{Map, Value};

/// Cases per target in an ordinary `cargo test` run, unless `PROPTEST_CASES` says otherwise,
/// drawn from [`fixed_seed`].
pub(crate) fn default_cases(cases: u32) -> Config {
    let from_env = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok());
    Config {
        cases: from_env.unwrap_or(cases),
        failure_persistence: None,
        rng_seed: fixed_seed(),
        ..Config::default()
    }
}

/// `PROPTEST_RNG_SEED` when set (scripts/fuzz.mjs sets a fresh one each round), else one fixed
/// seed: a random seed in `cargo test` would let a test run fail on a case no change brought.
pub(crate) fn fixed_seed() -> RngSeed {
    match Config::default().rng_seed {
        RngSeed::Random => RngSeed::Fixed(0x646f_6373_6564_6765),
        from_env => from_env,
    }
}

/// Strings made of `tokens`, up to `max` of them, or arbitrary text one time in four.
pub(crate) fn text_from(tokens: &'static [&'static str], max: usize) -> BoxedStrategy<String> {
    prop_oneof![
        3 => prop::collection::vec(prop::sample::select(tokens), 0..max).prop_map(|t| t.concat()),
        1 => any::<String>(),
    ]
    .boxed()
}

/// JSON documents whose keys come from `keys` and whose strings from `strings`, up to 4 deep.
pub(crate) fn json_from(
    keys: &'static [&'static str],
    strings: &'static [&'static str],
) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        prop::sample::select(strings).prop_map(|s| Value::String(s.to_owned())),
        text_from(strings, 6).prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(keys), inner), 0..6).prop_map(|pairs| {
                Value::Object(
                    pairs
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
    .boxed()
}

mod requests {
    use super::*;
    use crate::admin::{parse_add_domain, parse_create_key, parse_create_org, parse_update_org};
    use crate::assistant::request::{parse_v1, parse_v2};
    use crate::export::api::parse_start_request;
    use crate::search::{parse_page_request, parse_search_request};

    const KEYS: &[&str] = &[
        "messages",
        "role",
        "content",
        "parts",
        "type",
        "text",
        "id",
        "fp",
        "threadId",
        "query",
        "q",
        "groups",
        "limit",
        "path",
        "page",
        "domain",
        "version",
        "paths",
        "experimental_attachments",
        "url",
        "contentType",
        "mediaType",
        "name",
        "filename",
        "toolInvocations",
        "state",
        "data",
        "metadata",
        "trigger",
        "messageId",
        "format",
        "plan",
        "kind",
        "pageSize",
        "filter",
    ];
    const STRINGS: &[&str] = &[
        "user", "assistant", "system", "text", "file", "tool-invocation", "reasoning", "docs.example.com",
        "/a/b", "../x", "javascript:alert(1)", "", " ", "\u{0}", "ü", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "submit-message",
        "data:image/png;base64,AA==", "v1", "markdown", "html", "2024-01-01T00:00:00Z", "9999999999999999999",
    ];

    proptest! {
        #![proptest_config(default_cases(256))]

        /// Every validator answers every JSON document with a value or an error naming a field
        /// and a rule; none panics.
        #[test]
        fn fuzz_request_validators(body in json_from(KEYS, STRINGS)) {
            for result in [
                parse_v1(&body).map(drop),
                parse_v2(&body).map(drop),
                parse_start_request(&body).map(drop),
                parse_search_request(&body).map(drop),
                parse_page_request(&body).map(drop),
                parse_create_org(&body).map(drop),
                parse_update_org(&body).map(drop),
                parse_add_domain(&body).map(drop),
                parse_create_key(&body).map(drop),
            ] {
                if let Err(err) = result {
                    prop_assert!(!err.path.is_empty() && !err.rule.is_empty(), "{err:?}");
                }
            }
        }
    }
}

mod streams {
    use super::*;
    use crate::stream::{DataStreamDecoder, UiStreamDecoder};

    const DATA_TOKENS: &[&str] = &[
        "0:",
        "\"hi\"",
        "2:",
        "[1]",
        "3:",
        "\"err\"",
        "d:",
        "e:",
        "f:",
        "9:",
        "a:",
        "b:",
        "c:",
        "g:",
        "{\"finishReason\":\"stop\"}",
        "{",
        "}",
        "\n",
        "\r\n",
        "\r",
        ":",
        "\"",
        "\\",
        "ü",
        "x",
        "null",
        "{\"messageId\":\"m\"}",
        "{\"toolCallId\":\"t\",\"toolName\":\"n\",\"args\":{}}",
    ];
    const UI_TOKENS: &[&str] = &[
        "data: ",
        "data:",
        "{\"type\":\"text-delta\",\"id\":\"1\",\"delta\":\"x\"}",
        "{\"type\":\"start\"}",
        "{\"type\":\"finish\"}",
        "[DONE]",
        "\n",
        "\n\n",
        "\r\n",
        "\r",
        ": comment",
        "event: x",
        "id: 1",
        "retry: 5",
        "{",
        "}",
        "\"",
        "ü",
        "x",
        "{\"type\":\"error\",\"errorText\":\"e\"}",
    ];

    /// `bytes` pushed in pieces cut at `cuts` (sorted, within the length).
    fn pieces(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
        let mut at: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
        at.sort_unstable();
        let mut out = Vec::new();
        let mut from = 0;
        for cut in at.into_iter().chain([bytes.len()]) {
            out.push(bytes[from..cut].to_vec());
            from = cut;
        }
        out
    }

    fn stream_bytes(tokens: &'static [&'static str]) -> BoxedStrategy<Vec<u8>> {
        prop_oneof![
            4 => text_from(tokens, 40).prop_map(String::into_bytes),
            1 => prop::collection::vec(any::<u8>(), 0..200),
        ]
        .boxed()
    }

    proptest! {
        #![proptest_config(default_cases(256))]

        /// The data stream decoder never panics and decodes the same events however the bytes
        /// are split across pushes (a UTF-8 character or a CRLF cut in two included).
        #[test]
        fn fuzz_data_stream_decoder(bytes in stream_bytes(DATA_TOKENS), cuts in prop::collection::vec(any::<usize>(), 0..8)) {
            let (got, expected) = split_and_whole(&bytes, &cuts, DataStreamDecoder::new, DataStreamDecoder::push_bytes, DataStreamDecoder::finish);
            prop_assert_eq!(got, expected);
        }

        /// The same for the UI message stream (SSE) decoder.
        #[test]
        fn fuzz_ui_stream_decoder(bytes in stream_bytes(UI_TOKENS), cuts in prop::collection::vec(any::<usize>(), 0..8)) {
            let (got, expected) = split_and_whole(&bytes, &cuts, UiStreamDecoder::new, UiStreamDecoder::push_bytes, UiStreamDecoder::finish);
            prop_assert_eq!(got, expected);
        }
    }

    /// The events of `bytes` pushed in pieces cut at `cuts`, and of `bytes` in one push.
    fn split_and_whole<D, E>(
        bytes: &[u8],
        cuts: &[usize],
        new: fn() -> D,
        push: fn(&mut D, &[u8]) -> Vec<E>,
        finish: fn(&mut D) -> Vec<E>,
    ) -> (Vec<E>, Vec<E>) {
        let mut whole = new();
        let mut expected = push(&mut whole, bytes);
        expected.extend(finish(&mut whole));
        let mut split = new();
        let mut got = Vec::new();
        for piece in pieces(bytes, cuts) {
            got.extend(push(&mut split, &piece));
        }
        got.extend(finish(&mut split));
        (got, expected)
    }
}

mod archive {
    use super::*;
    use crate::docs::archive::{read_docs_archive, ArchiveLimits};
    use crate::export::render::links::is_safe_path;
    use std::io::Write;

    const NAME_TOKENS: &[&str] = &[
        "a",
        "docs.json",
        "/",
        "..",
        ".",
        "./",
        "\\",
        ":",
        "C:",
        "x.mdx",
        "._x",
        "top/",
        "%2e",
        "ü",
        " ",
        "\u{0}",
        "//",
        "snippets/",
    ];

    /// A `.tar.gz` of `entries` written with raw headers (so hostile names and types get through).
    fn tar_gz(entries: &[(String, u8, Vec<u8>)]) -> Vec<u8> {
        let mut tar = Vec::new();
        for (name, kind, data) in entries {
            let mut header = [0u8; 512];
            let name = name.as_bytes();
            header[..name.len().min(100)].copy_from_slice(&name[..name.len().min(100)]);
            header[100..108].copy_from_slice(b"0000644\0");
            header[124..136].copy_from_slice(format!("{:011o}\0", data.len()).as_bytes());
            header[136..148].copy_from_slice(b"00000000000\0");
            header[156] = *kind;
            header[257..263].copy_from_slice(b"ustar\0");
            header[263..265].copy_from_slice(b"00");
            header[148..156].copy_from_slice(b"        ");
            let sum: u32 = header.iter().map(|&b| u32::from(b)).sum();
            header[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
            tar.extend_from_slice(&header);
            tar.extend_from_slice(data);
            tar.resize(tar.len().div_ceil(512) * 512, 0);
        }
        tar.extend_from_slice(&[0u8; 1024]);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        let _ = gz.write_all(&tar);
        gz.finish().unwrap_or_default()
    }

    fn entries() -> impl Strategy<Value = Vec<(String, u8, Vec<u8>)>> {
        let kind = prop::sample::select(
            &[
                b'0', b'0', b'0', b'5', b'2', b'1', b'L', b'x', b'g', b'3', 0u8,
            ][..],
        );
        prop::collection::vec(
            (
                text_from(NAME_TOKENS, 8),
                kind,
                prop::collection::vec(any::<u8>(), 0..64),
            ),
            0..8,
        )
    }

    proptest! {
        #![proptest_config(default_cases(128))]

        /// Any archive (well-formed, hostile names and entry types, or corrupted anywhere) is read
        /// or refused without a panic; what is read holds only safe relative paths within the limits.
        #[test]
        fn fuzz_docs_archive_reader(
            mut files in entries(),
            corrupt in prop::collection::vec((any::<usize>(), any::<u8>()), 0..4),
            truncate in prop::option::of(any::<usize>()),
        ) {
            files.push(("docs.json".into(), b'0', b"{}".to_vec()));
            let mut gz = tar_gz(&files);
            for (at, byte) in corrupt {
                let len = gz.len();
                gz[at % len] = byte;
            }
            if let Some(cut) = truncate {
                gz.truncate(cut % (gz.len() + 1));
            }
            let limits = ArchiveLimits { max_files: 6, max_total_bytes: 256, max_file_bytes: 64, max_media_file_bytes: 64, max_site_bytes: 256 };
            if let Ok(tree) = read_docs_archive(&gz, &limits) {
                prop_assert!(tree.len() <= limits.max_files);
                prop_assert!(tree.values().map(|d| d.len() as u64).sum::<u64>() <= limits.max_total_bytes);
                for path in tree.keys() {
                    prop_assert!(is_safe_path(path), "{path:?}");
                }
            }
        }

        /// Arbitrary bytes behind the gzip magic.
        #[test]
        fn fuzz_docs_archive_reader_raw(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
            let mut gz = vec![0x1f, 0x8b];
            gz.extend(bytes);
            let _ = read_docs_archive(&gz, &ArchiveLimits::default());
        }
    }
}

mod config {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::build_site;
    use crate::docs::config::parse_config;
    use crate::docs::frontmatter;
    use crate::docs::nav::page_refs;
    use crate::docs::page_path::page_path_problem;

    const KEYS: &[&str] = &[
        "name",
        "navigation",
        "tabs",
        "tab",
        "groups",
        "group",
        "pages",
        "languages",
        "language",
        "versions",
        "version",
        "anchors",
        "anchor",
        "dropdowns",
        "menu",
        "item",
        "$ref",
        "root",
        "href",
        "hidden",
        "default",
        "global",
        "logo",
        "favicon",
        "colors",
        "primary",
        "icon",
        "openapi",
    ];
    const STRINGS: &[&str] = &[
        "index",
        "a/b",
        "/a.mdx",
        "javascript:alert(1)",
        "//evil.example",
        "../x",
        "a\\b",
        "a.json",
        "b.json",
        "docs.json",
        "./a.json",
        "es",
        "v1",
        "",
        " ",
        "\n",
        "x:y",
        "#f00",
    ];
    const YAML_TOKENS: &[&str] = &[
        "title",
        "description",
        "hidden",
        "keywords",
        "openapi",
        ": ",
        ":",
        "\n",
        "  ",
        "- ",
        "&a ",
        "*a",
        "&b ",
        "*b",
        "[",
        "]",
        "{",
        "}",
        ",",
        "\"",
        "'",
        "true",
        "x",
        "ü",
        "---",
        "? ",
        "!!str ",
        "|",
        ">",
        "#",
        "%YAML 1.2",
        "<<: *a",
    ];

    proptest! {
        #![proptest_config(default_cases(256))]

        /// docs.json (with `$ref`s between generated files) parses or fails with a message, and
        /// every page path it yields is a plain relative path.
        #[test]
        fn fuzz_docs_json(root in json_from(KEYS, STRINGS), a in json_from(KEYS, STRINGS), b in json_from(KEYS, STRINGS)) {
            let files = [("docs.json", root), ("a.json", a), ("b.json", b)];
            let text: Vec<(&str, String)> = files.iter().map(|(p, v)| (*p, v.to_string())).collect();
            let borrowed: Vec<(&str, &str)> = text.iter().map(|(p, t)| (*p, t.as_str())).collect();
            let t = tree(&borrowed);
            let mut warnings = Vec::new();
            match parse_config(&t, &mut warnings) {
                Ok(config) => {
                    for page in page_refs(&config.navigation) {
                        prop_assert_eq!(page_path_problem(page.path), None, "{}", page.path);
                    }
                }
                Err(err) => prop_assert!(!err.to_string().is_empty()),
            }
            let _ = build_site(&t);
        }

        /// Frontmatter never panics, and aliases past the bound are refused, not expanded.
        #[test]
        fn fuzz_frontmatter(yaml in text_from(YAML_TOKENS, 60)) {
            let page = format!("---\n{yaml}\n---\nbody");
            let (block, _) = frontmatter::split(&page);
            if let Some(block) = block {
                if frontmatter::parse(block).is_err() {
                    let _ = frontmatter::salvage(block);
                }
            }
        }
    }
}

mod ranges {
    use super::*;
    use crate::http::byte_range::{parse_range, RangeRequest};

    const TOKENS: &[&str] = &[
        "bytes=",
        "bytes",
        "=",
        "-",
        ",",
        " ",
        "0",
        "1",
        "9",
        "18446744073709551615",
        "18446744073709551616",
        "+5",
        "items=",
        "\t",
        "00",
    ];

    proptest! {
        #![proptest_config(default_cases(512))]

        /// Any `Range` header: a part inside the object, the whole object, or unsatisfiable.
        #[test]
        fn fuzz_byte_range(header in prop::option::of(text_from(TOKENS, 8)), size in prop_oneof![Just(0u64), Just(1), 0..4096u64, Just(u64::MAX)]) {
            match parse_range(header.as_deref(), size) {
                RangeRequest::Part { start, end } => prop_assert!(start <= end && end < size, "{start}-{end} of {size}"),
                RangeRequest::Whole | RangeRequest::Unsatisfiable => {}
            }
        }
    }
}

mod analytics {
    use super::*;
    use crate::analytics::input::{
        parse_events, parse_feedback, Event, MAX_COMMENT_CHARS, MAX_EVENTS, MAX_ID_CHARS,
        MAX_QUERY_CHARS, MAX_RESULT_COUNT,
    };
    use crate::analytics::range::{parse_day, DayRange, MAX_DAYS};

    const KEYS: &[&str] = &[
        "events",
        "type",
        "path",
        "query",
        "resultCount",
        "threadId",
        "messageId",
        "rating",
        "comment",
    ];
    const STRINGS: &[&str] = &[
        "pageview",
        "search",
        "support_shown",
        "support_followed",
        "up",
        "down",
        "/",
        "/a/b.html?x=1#y",
        "index",
        "/x/index",
        "?",
        "#",
        " ",
        "",
        "\u{0}",
        "ü",
        "thr_1",
        "msg_1",
        "javascript:alert(1)",
        "../../etc",
        "1e3",
        "-1",
    ];
    const DAY_TOKENS: &[&str] = &[
        "2024", "1970", "9999", "0000", "-", "01", "02", "29", "30", "31", "13", "00", "+1", " ",
        "x",
    ];

    fn day_text() -> BoxedStrategy<Option<String>> {
        prop::option::of(prop_oneof![
            3 => text_from(DAY_TOKENS, 6),
            1 => (1960i64..10_010, 0i64..14, 0i64..33).prop_map(|(y, m, d)| format!("{y:04}-{m:02}-{d:02}")),
        ])
        .boxed()
    }

    proptest! {
        #![proptest_config(default_cases(256))]

        /// Analytics beacons: at most MAX_EVENTS events with normalised paths and bounded queries and
        /// counts, or an error naming a field and a rule.
        #[test]
        fn fuzz_analytics_events(body in json_from(KEYS, STRINGS)) {
            match parse_events(&body, &crate::privacy::Masker::default()) {
                Ok(events) => {
                    prop_assert!(events.len() <= MAX_EVENTS);
                    for event in events {
                        let path = match &event {
                            Event::PageView { path } | Event::SupportShown { path } | Event::SupportFollowed { path } => path,
                            Event::Search { path, query, result_count } => {
                                prop_assert!(!query.is_empty() && query.chars().count() <= MAX_QUERY_CHARS && query.trim() == query);
                                prop_assert!(*result_count <= MAX_RESULT_COUNT);
                                path
                            }
                        };
                        prop_assert!(!path.is_empty() && !path.contains(['?', '#']), "{path:?}");
                    }
                }
                Err(err) => prop_assert!(!err.path.is_empty() && !err.rule.is_empty(), "{err:?}"),
            }
        }

        /// Feedback: bounded ids and comment, or an error naming a field and a rule.
        #[test]
        fn fuzz_feedback(body in json_from(KEYS, STRINGS)) {
            match parse_feedback(&body, &crate::privacy::Masker::default()) {
                Ok(feedback) => {
                    prop_assert!(feedback.thread_id.chars().count() <= MAX_ID_CHARS && feedback.message_id.chars().count() <= MAX_ID_CHARS);
                    prop_assert!(feedback.comment.as_ref().is_none_or(|c| c.chars().count() <= MAX_COMMENT_CHARS));
                }
                Err(err) => prop_assert!(!err.path.is_empty() && !err.rule.is_empty(), "{err:?}"),
            }
        }

        /// Report ranges from any query strings: ordered, at most MAX_DAYS, starting on the day given;
        /// or an error on `from` or `to`.
        #[test]
        fn fuzz_day_range(from in day_text(), to in day_text(), today in 0i64..2_932_897) {
            match DayRange::parse(from.as_deref(), to.as_deref(), today) {
                Ok(range) => {
                    prop_assert!(range.first <= range.last && range.last - range.first < MAX_DAYS, "{range:?}");
                    if let Some(from) = &from {
                        prop_assert_eq!(Some(range.first), parse_day(from));
                    }
                    let (start, end) = range.bounds_ms();
                    prop_assert!(start < end);
                    prop_assert_eq!(range.days().count() as i64, range.last - range.first + 1);
                }
                Err(err) => prop_assert!(err.path == "from" || err.path == "to", "{err:?}"),
            }
        }
    }
}

mod mcp {
    use super::*;
    use crate::agents::mcp::protocol::{
        header_version, parse_body, Message, MAX_BATCH, PROTOCOL_VERSIONS,
    };

    const TOKENS: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"jsonrpc\"",
        "\"2.0\"",
        "\"1.0\"",
        "\"id\"",
        "1",
        "null",
        "\"x\"",
        "\"method\"",
        "\"initialize\"",
        "\"tools/list\"",
        "\"tools/call\"",
        "\"notifications/initialized\"",
        "\"params\"",
        "\"result\"",
        "\"error\"",
        "\"name\"",
        "\"search\"",
        "\"arguments\"",
        "{}",
        "[]",
        "true",
        "1.5",
        "\"\\u0000\"",
        " ",
    ];

    proptest! {
        #![proptest_config(default_cases(256))]

        /// MCP POST bodies in every revision: messages (batches only in 2025-03-26, at most MAX_BATCH),
        /// or one JSON-RPC error reply (-32700 or -32600); no panic.
        #[test]
        fn fuzz_mcp_body(
            body in prop_oneof![4 => text_from(TOKENS, 40).prop_map(String::into_bytes), 1 => prop::collection::vec(any::<u8>(), 0..200)],
            header in prop::option::of(prop_oneof![prop::sample::select(PROTOCOL_VERSIONS.to_vec()).prop_map(str::to_owned), any::<String>()]),
        ) {
            let Ok(version) = header_version(header.as_deref()) else { return Ok(()) };
            match parse_body(&body, version) {
                Ok(incoming) => {
                    prop_assert!(!incoming.messages.is_empty() && incoming.messages.len() <= MAX_BATCH);
                    prop_assert!(!incoming.batch || version == "2025-03-26");
                    if !incoming.batch {
                        prop_assert!(!matches!(incoming.messages[0], Message::Invalid { .. }), "a single invalid message is an error reply");
                    }
                }
                Err(reply) => {
                    prop_assert_eq!(reply.get("jsonrpc").and_then(Value::as_str), Some("2.0"));
                    let code = reply.pointer("/error/code").and_then(Value::as_i64);
                    prop_assert!(code == Some(-32700) || code == Some(-32600), "{reply}");
                }
            }
        }
    }
}

mod domains {
    use super::*;
    use crate::http::domain::validate_domain;

    const TOKENS: &[&str] = &[
        "docs",
        "example",
        "com",
        ".",
        "-",
        "A",
        "z",
        "0",
        "9",
        "_",
        "/",
        ":",
        "://",
        "https",
        "443",
        "ü",
        " ",
        "\u{0}",
        "xn--",
        "..",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ];

    proptest! {
        #![proptest_config(default_cases(256))]

        /// Domains: a lowercase hostname within the DNS limits that validates to itself, or a rule.
        #[test]
        fn fuzz_domain(input in text_from(TOKENS, 30)) {
            match validate_domain(&input) {
                Ok(host) => {
                    prop_assert!(host.len() <= 253 && host == input.to_ascii_lowercase());
                    for label in host.split('.') {
                        prop_assert!(!label.is_empty() && label.len() <= 63 && !label.starts_with('-') && !label.ends_with('-'));
                        prop_assert!(label.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'), "{host}");
                    }
                    prop_assert_eq!(validate_domain(&host), Ok(host.clone()));
                }
                Err(rule) => prop_assert!(!rule.is_empty()),
            }
        }
    }
}
