//! The packs read from files answer exactly as the whole index does (hits with their scores, pages),
//! through a cache far smaller than the packs that stays within its bound; a bundle made before the
//! packs is split on load and answers the same; a truncated pack is refused at load. Figures of the
//! fixture: `cargo test -p docs-edge-serve search_packs -- --nocapture`.

use std::path::{Path, PathBuf};

use docs_edge_core::docs::archive::read_dir_tree;
use docs_edge_core::docs::{build_site, Page};
use docs_edge_core::export::{SEARCH_INDEX_FILE, SEARCH_PACK_FILES};
use docs_edge_core::search::shard::ShardedIndex;
use docs_edge_core::search::{Query, SearchIndex};

use super::{split_whole_index, PackIndex};
use crate::testing::scratch;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/fixtures/mintlify-docs"
);
const SMALL_CACHE: usize = 64 << 10;

fn fixture_pages() -> Option<Vec<Page>> {
    let root = Path::new(FIXTURE);
    if !root.join("docs.json").is_file() {
        eprintln!("fixture not found at {FIXTURE}");
        return None;
    }
    Some(build_site(&read_dir_tree(root).ok()?).ok()?.pages)
}

fn write_packs(dir: &Path, index: &SearchIndex) -> [usize; 3] {
    let ShardedIndex { meta, terms, text } = ShardedIndex::build(index).unwrap();
    let sizes = [meta.len(), terms.len(), text.len()];
    for (path, bytes) in SEARCH_PACK_FILES.iter().zip([meta, terms, text]) {
        std::fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        std::fs::write(dir.join(path), bytes).unwrap();
    }
    sizes
}

/// Fixed queries, then words of the pages' own text in ones, twos and threes.
fn queries(pages: &[Page]) -> Vec<String> {
    let mut out: Vec<String> = [
        "static export bundle",
        "api key",
        "custom domain",
        "domaine personnalisé",
        "自定义域名",
        "zebra stripes",
    ]
    .map(String::from)
    .to_vec();
    let words: Vec<&str> = pages
        .iter()
        .flat_map(|p| p.sections.iter().take(1))
        .flat_map(|s| s.text.split_whitespace().take(6))
        .filter(|w| w.len() > 3)
        .collect();
    for (i, w) in words.windows(3).step_by(7).take(150).enumerate() {
        out.push(w[..1 + i % 3].join(" "));
    }
    out
}

fn assert_same_answers(packs: &PackIndex, index: &SearchIndex, pages: &[Page]) -> usize {
    let mut nonempty = 0;
    for (i, text) in queries(pages).iter().enumerate() {
        let mut q = Query {
            limit: [10, 5, 50][i % 3],
            ..Query::new(text)
        };
        if i % 4 == 1 {
            q.language = Some("en");
        }
        if i % 4 == 2 {
            q.near_path = pages.get(i % pages.len()).map(|p| p.path.as_str());
        }
        let expected = index.search(&q);
        nonempty += usize::from(!expected.is_empty());
        assert_eq!(packs.search(&q).unwrap(), expected, "{q:?}");
    }
    for p in pages {
        assert_eq!(
            packs.page(&p.path).unwrap(),
            index.page(&p.path),
            "{}",
            p.path
        );
    }
    assert_eq!(packs.page("no/such/page").unwrap(), None);
    nonempty
}

#[test]
fn the_fixture_answers_as_the_whole_index_through_a_cache_far_smaller_than_the_packs() {
    let Some(pages) = fixture_pages() else { return };
    let index = SearchIndex::build(&pages);
    let dir = scratch("packs-fixture");
    let sizes = write_packs(&dir, &index);
    let packs = PackIndex::open(&dir, SMALL_CACHE).unwrap();
    let nonempty = assert_same_answers(&packs, &index, &pages);
    assert!(nonempty > 100, "{nonempty} queries with hits");
    let stats = packs.stats();
    let pack_bytes: usize = sizes[1] + sizes[2];
    assert!(
        pack_bytes > 8 * SMALL_CACHE,
        "the packs ({pack_bytes} bytes) do not fit the cache"
    );
    assert!(
        stats.cache_bytes <= SMALL_CACHE && stats.cache_entries > 0,
        "{stats:?}"
    );
    eprintln!(
        "fixture: {} pages, whole index {} bytes; packs meta {} / terms {} / text {} bytes; held: meta {} bytes + cache {} of {} bytes ({} entries)",
        pages.len(),
        index.to_bytes().len(),
        sizes[0],
        sizes[1],
        sizes[2],
        stats.meta_bytes,
        stats.cache_bytes,
        stats.cache_capacity,
        stats.cache_entries
    );
}

#[test]
fn a_bundle_with_the_whole_index_is_split_on_load_and_answers_the_same() {
    let Some(pages) = fixture_pages() else { return };
    let index = SearchIndex::build(&pages);
    let dir = scratch("packs-whole");
    std::fs::create_dir_all(dir.join(SEARCH_INDEX_FILE).parent().unwrap()).unwrap();
    std::fs::write(dir.join(SEARCH_INDEX_FILE), index.to_bytes()).unwrap();
    split_whole_index(&dir).unwrap();
    let packs = PackIndex::open(&dir, SMALL_CACHE).unwrap();
    assert!(assert_same_answers(&packs, &index, &pages) > 100);
}

#[test]
fn a_truncated_or_missing_pack_is_refused_at_load() {
    let Some(pages) = fixture_pages() else { return };
    let index = SearchIndex::build(&pages[..pages.len().min(20)]);
    let dir: PathBuf = scratch("packs-truncated");
    write_packs(&dir, &index);
    let text = dir.join(SEARCH_PACK_FILES[2]);
    let bytes = std::fs::read(&text).unwrap();
    std::fs::write(&text, &bytes[..bytes.len() - 1]).unwrap();
    let err = PackIndex::open(&dir, SMALL_CACHE).unwrap_err();
    assert!(
        err.starts_with(SEARCH_PACK_FILES[2]) && err.contains("the meta says"),
        "{err}"
    );
    std::fs::remove_file(&text).unwrap();
    assert!(PackIndex::open(&dir, SMALL_CACHE)
        .unwrap_err()
        .starts_with(SEARCH_PACK_FILES[2]));
    std::fs::write(dir.join(SEARCH_PACK_FILES[0]), b"garbage").unwrap();
    assert!(PackIndex::open(&dir, SMALL_CACHE)
        .unwrap_err()
        .starts_with(SEARCH_PACK_FILES[0]));
}

/// Through the server: a bundle with the packs (as exports make now) and one with the whole index
/// (as they made before) answer search and page alike, as the index does, and health shows the cache.
#[tokio::test]
async fn the_discovery_api_answers_from_either_kind_of_bundle() {
    use axum::body::{to_bytes, Body};
    use axum::http::Request;
    use docs_edge_core::export::SearchIndexFormat;
    use docs_edge_core::search::{discovery_query, discovery_results, parse_search_request};
    use docs_edge_core::security::signing::sha256_hex;
    use serde_json::{json, Value};
    use tower::ServiceExt;

    use crate::testing::{config_with, manifest, serving};

    let Some(pages) = fixture_pages() else { return };
    let index = SearchIndex::build(&pages);
    let key_hash = sha256_hex(b"svc_dsc_test");
    let vars = [
        ("DOCS_EDGE_ASSISTANT_ENABLED", "true"),
        ("DOCS_EDGE_ASSISTANT_KEY_SHA256", key_hash.as_str()),
        ("DOCS_EDGE_SEARCH_CACHE_BYTES", "65536"),
    ];
    let split = ShardedIndex::build(&index).unwrap();
    let whole = index.to_bytes();
    let mut with_packs = manifest("se_packs000000000000");
    with_packs.search_index = Some(SearchIndexFormat::Packs);
    let packs_files: Vec<(&str, &[u8])> = vec![
        ("index.html", b"<p>home</p>"),
        (SEARCH_PACK_FILES[0], &split.meta),
        (SEARCH_PACK_FILES[1], &split.terms),
        (SEARCH_PACK_FILES[2], &split.text),
    ];
    let whole_files: Vec<(&str, &[u8])> =
        vec![("index.html", b"<p>home</p>"), (SEARCH_INDEX_FILE, &whole)];
    let body = json!({"query": "custom domain", "pageSize": 5});
    // Through text, as a client reads it (scores are f32: text is what both sides compare as).
    let hits =
        discovery_results(index.search(&discovery_query(&parse_search_request(&body).unwrap())));
    let expected: Value = serde_json::from_str(&serde_json::to_string(&hits).unwrap()).unwrap();
    assert!(expected.as_array().is_some_and(|hits| !hits.is_empty()));
    let page = pages.iter().find(|p| !p.sections.is_empty()).unwrap();
    let expected_page = index.page(&page.path).unwrap().text;

    for (name, bundle_manifest, files) in [
        ("packs", &with_packs, &packs_files),
        ("whole", &manifest("se_whole000000000000"), &whole_files),
    ] {
        let app = crate::app(serving(
            config_with(&vars, &scratch(&format!("discovery-{name}"))),
            bundle_manifest,
            files,
        ));
        let post = |path: &str, body: &Value| {
            Request::post(path)
                .header("authorization", "Bearer svc_dsc_test")
                .header("content-type", "application/json")
                .body(Body::from(body.to_string()))
                .unwrap()
        };
        let json_of = |res: axum::response::Response| async move {
            assert_eq!(res.status(), 200);
            serde_json::from_slice::<Value>(&to_bytes(res.into_body(), usize::MAX).await.unwrap())
                .unwrap()
        };
        let res = app
            .clone()
            .oneshot(post("/discovery/v1/search/docs.example.com", &body))
            .await
            .unwrap();
        assert_eq!(json_of(res).await, expected, "{name}");
        let res = app
            .clone()
            .oneshot(post(
                "/discovery/v1/page/docs.example.com",
                &json!({"path": page.path}),
            ))
            .await
            .unwrap();
        assert_eq!(
            json_of(res).await["content"],
            expected_page.as_str(),
            "{name}"
        );
        let res = app
            .clone()
            .oneshot(
                Request::get("/_docs-edge/health")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        let search = &json_of(res).await["search"];
        assert_eq!(search["cacheCapacity"], 65536, "{name}: {search}");
        assert!(
            search["cacheEntries"].as_u64().is_some_and(|n| n > 0)
                && search["cacheBytes"].as_u64().is_some_and(|n| n <= 65536),
            "{name}: {search}"
        );
    }
}
