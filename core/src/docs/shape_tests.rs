//! Navigation shapes and config forms the real fixtures do not all show: each read into the site
//! it describes (languages, products, versions, dropdowns, `$ref`, OpenAPI entries and sections,
//! mint.json's prefix tabs and anchors), and authoring mistakes as warnings, never failures.

use super::archive::{tree, SourceTree};
use super::model::{Page, Site};
use super::nav::{DivisionKind, NavItem};
use super::site::build_site;

const SPEC: &str = r##"{"openapi": "3.1.0", "tags": [{"name": "Users"}, {"name": "admin-ops", "x-group": "Admin"}],
  "paths": {
    "/users": {"get": {"tags": ["Users"], "summary": "List users", "description": "All <b>users</b> {paged}.",
        "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}, "description": "Page size"}],
        "responses": {"200": {"description": "The users, as List<User> {paged}",
          "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/User"}}}}}}},
      "post": {"tags": ["Users"], "summary": "Create user",
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
        "responses": {"201": {"description": "Created"}}}},
    "/users/{id}": {"get": {"tags": ["Users"], "parameters": [{"name": "id", "in": "path", "required": true}],
        "responses": {"200": {"description": "One user"}}},
      "delete": {"tags": ["admin-ops"], "summary": "Delete user", "responses": {"204": {"description": "Gone"}}}},
    "/health": {"get": {"summary": "Health", "x-hidden": true, "responses": {"200": {"description": "ok"}}}},
    "/ping": {"get": {"summary": "Ping", "responses": {"200": {"description": "pong"}}}}},
  "components": {"schemas": {"User": {"type": "object", "required": ["email"],
    "properties": {"email": {"type": "string", "description": "Where mail goes"}, "name": {"type": "string"}}}}}}"##;

fn site(files: &[(&str, &str)]) -> Site {
    build_site(&tree(files)).unwrap_or_else(|err| panic!("{err}"))
}

fn page<'s>(site: &'s Site, path: &str) -> &'s Page {
    site.pages
        .iter()
        .find(|p| p.path == path)
        .unwrap_or_else(|| {
            let paths: Vec<_> = site.pages.iter().map(|p| p.path.as_str()).collect();
            panic!("no page {path} in {paths:?}")
        })
}

/// A page's `(path, language, version, tab, groups, in_navigation)`.
type Outlined = (
    String,
    String,
    Option<String>,
    Option<String>,
    Vec<String>,
    bool,
);

/// [`Outlined`] of every page, in order.
fn outline(site: &Site) -> Vec<Outlined> {
    site.pages
        .iter()
        .map(|p| {
            (
                p.path.clone(),
                p.language.clone(),
                p.version.clone(),
                p.tab.clone(),
                p.groups.clone(),
                p.in_navigation,
            )
        })
        .collect()
}

fn with_pages(config: (&'static str, &'static str), pages: &[&'static str]) -> SourceTree {
    let mut files = tree(&[config]);
    for page in pages {
        files.insert(
            format!("{page}.mdx"),
            format!("# {page}\n\nText of {page}.").into_bytes(),
        );
    }
    files
}

#[test]
fn mint_json_and_docs_json_describing_the_same_site_give_the_same_site() {
    let pages = [
        "v2/index",
        "v2/quickstart",
        "api/users",
        "api/admin",
        "api/admin/keys",
        "v1/index",
    ];
    let mint = r#"{"name": "Acme", "versions": ["v2", {"name": "v1"}],
        "tabs": [{"name": "API", "url": "api"}, {"name": "Admin API", "url": "/api/admin/"}],
        "anchors": [{"name": "Blog", "url": "https://blog.acme.dev", "icon": "pen"}],
        "topbarCtaButton": {"name": "Sign up", "url": "https://acme.dev/signup"},
        "topbarLinks": [{"name": "Status", "url": "https://status.acme.dev"}],
        "footerSocials": {"github": "https://github.com/acme"},
        "redirects": [{"source": "/old", "destination": "/v2/index"}],
        "modeToggle": {"default": "dark", "isHidden": true},
        "font": {"family": "Inter", "weight": "500", "headings": {"family": "Lora", "weight": 700, "url": "/fonts/lora.woff2", "format": "woff2"}},
        "navigation": [
          {"group": "Start", "version": "v2", "pages": ["v2/index", "v2/quickstart"]},
          {"group": "Endpoints", "version": "v2", "pages": ["api/users", {"group": "Admin", "pages": ["api/admin", "api/admin/keys"]}]},
          {"group": "Start", "version": "v1", "pages": ["v1/index"]}]}"#;
    let docs = r#"{"name": "Acme",
        "navbar": {"links": [{"label": "Status", "href": "https://status.acme.dev"}],
                   "primary": {"label": "Sign up", "href": "https://acme.dev/signup"}},
        "footer": {"socials": {"github": "https://github.com/acme"}},
        "redirects": [{"source": "/old", "destination": "/v2/index"}],
        "appearance": {"default": "dark", "strict": true},
        "fonts": {"family": "Inter", "weight": 500, "heading": {"family": "Lora", "weight": 700, "source": "/fonts/lora.woff2", "format": "woff2"}},
        "navigation": {
          "global": {"anchors": [{"anchor": "Blog", "href": "https://blog.acme.dev", "icon": "pen"}]},
          "versions": [
            {"version": "v2", "default": true, "tabs": [
              {"tab": "Documentation", "groups": [{"group": "Start", "pages": ["v2/index", "v2/quickstart"]}]},
              {"tab": "API", "groups": [{"group": "Endpoints", "pages": ["api/users"]}]},
              {"tab": "Admin API", "groups": [{"group": "Endpoints", "pages": [{"group": "Admin", "pages": ["api/admin", "api/admin/keys"]}]}]}]},
            {"version": "v1", "tabs": [{"tab": "Documentation", "groups": [{"group": "Start", "pages": ["v1/index"]}]}]}]}}"#;
    let from_mint = build_site(&with_pages(("mint.json", mint), &pages)).unwrap();
    let from_docs = build_site(&with_pages(("docs.json", docs), &pages)).unwrap();
    assert_eq!(from_mint.warnings, from_docs.warnings);
    assert_eq!(outline(&from_mint), outline(&from_docs));
    assert_eq!(from_mint.versions, ["v2", "v1"]);
    assert_eq!(
        page(&from_mint, "api/admin/keys").tab.as_deref(),
        Some("Admin API"),
        "the longest prefix wins"
    );
    let (m, d) = (&from_mint.config, &from_docs.config);
    assert_eq!(m.navigation, d.navigation);
    assert_eq!(m.global, d.global);
    assert_eq!(
        (&m.navbar, &m.footer, &m.redirects, &m.appearance),
        (&d.navbar, &d.footer, &d.redirects, &d.appearance)
    );
    assert_eq!(m.fonts, d.fonts);
    let fonts = d.fonts.as_ref().unwrap();
    let heading = fonts.for_headings();
    assert_eq!(
        (
            heading.family.as_deref(),
            heading.weight,
            heading.source.as_deref()
        ),
        (Some("Lora"), Some(700), Some("/fonts/lora.woff2"))
    );
    let body = fonts.for_body();
    assert_eq!(
        (body.family.as_deref(), body.weight, body.source.as_deref()),
        (Some("Inter"), Some(500), None)
    );
    assert_eq!(
        (m.file.as_str(), d.file.as_str()),
        ("mint.json", "docs.json")
    );
}

#[test]
fn font_weights_read_as_css_weights_and_parts_override_the_site_font_field_by_field() {
    let fonts = |json: &str| {
        let docs = format!(r#"{{"name": "A", "navigation": {{"pages": ["a"]}}, "fonts": {json}}}"#);
        site(&[("docs.json", docs.as_str()), ("a.mdx", "A")])
            .config
            .fonts
            .unwrap()
    };
    let weights: Vec<Option<u16>> = [
        "400",
        "\"550\"",
        "\"bold\"",
        "\"normal\"",
        "0",
        "1001",
        "\"heavy\"",
        "[700]",
        "449.6",
    ]
    .iter()
    .map(|w| fonts(&format!(r#"{{"weight": {w}}}"#)).site.weight)
    .collect();
    assert_eq!(
        weights,
        [
            Some(400),
            Some(550),
            Some(700),
            Some(400),
            None,
            None,
            None,
            None,
            Some(450)
        ]
    );
    let f = fonts(
        r#"{"family": "Inter", "source": "/fonts/inter.woff2", "format": "woff2", "weight": 450,
        "heading": {"weight": 800}, "body": {"family": "Mono", "source": "https://cdn.example.com/mono.woff"}}"#,
    );
    let heading = f.for_headings();
    assert_eq!(
        (
            heading.family.as_deref(),
            heading.weight,
            heading.source.as_deref(),
            heading.format.as_deref()
        ),
        (
            Some("Inter"),
            Some(800),
            Some("/fonts/inter.woff2"),
            Some("woff2")
        ),
        "a part without a family keeps the site's face"
    );
    assert_eq!(
        fonts(r#"{"family": "Inter", "weight": 300}"#)
            .for_headings()
            .weight,
        None,
        "the site's weight is the body's"
    );
    let body = f.for_body();
    assert_eq!(
        (
            body.family.as_deref(),
            body.weight,
            body.source.as_deref(),
            body.format.as_deref()
        ),
        (
            Some("Mono"),
            Some(450),
            Some("https://cdn.example.com/mono.woff"),
            None
        ),
        "a part's own family brings only its own source"
    );
}

#[test]
fn a_folder_with_both_configs_uses_docs_json() {
    let site = site(&[
        (
            "docs.json",
            r#"{"name": "New", "navigation": {"pages": ["a"]}}"#,
        ),
        (
            "mint.json",
            r#"{"name": "Old", "navigation": [{"group": "G", "pages": ["b"]}]}"#,
        ),
        ("a.mdx", "A"),
        ("b.mdx", "B"),
    ]);
    assert_eq!(
        (site.name.as_str(), site.config.file.as_str()),
        ("New", "docs.json")
    );
    assert!(page(&site, "a").in_navigation && !page(&site, "b").in_navigation);
}

#[test]
fn mint_json_anchors_by_prefix_version_scoped_tabs_and_settings() {
    let site = site(&[
        (
            "mint.json",
            r##"{"name": "M", "versions": ["v2", "v1"], "openapi": ["spec.json", "https://api.acme.dev/openapi.json"],
              "api": {"baseUrl": "https://api.acme.dev", "playground": {"mode": "hide"}, "auth": {"method": "bearer"}},
              "colors": {"primary": "#000", "anchors": "#123456", "background": {"light": "#fff"}},
              "backgroundImage": "/bg.png", "feedback": {"thumbsRating": true}, "topAnchor": {"name": "Guides", "icon": "book"},
              "tabs": [{"name": "Old API", "url": "api", "version": "v1"}],
              "anchors": [{"name": "SDKs", "url": "sdk", "icon": "code"}],
              "navigation": [
                {"group": "Start", "pages": ["index", "sdk/python", "api/users"]},
                {"group": "Reference", "version": "v1", "pages": ["GET /users"]}]}"##,
        ),
        ("spec.json", SPEC),
        ("index.mdx", "Home"),
        ("sdk/python.mdx", "Py"),
        ("api/users.mdx", "Users"),
    ]);
    assert_eq!(site.warnings, Vec::<String>::new());
    // Unversioned groups belong to every version; a page is kept once, with the first.
    assert_eq!(page(&site, "index").tab.as_deref(), Some("Guides"));
    assert_eq!(page(&site, "sdk/python").tab.as_deref(), Some("SDKs"));
    assert_eq!(page(&site, "index").version.as_deref(), Some("v2"));
    let NavItem::Division(v1) = &site.config.navigation[1] else {
        panic!()
    };
    let tabs: Vec<_> = v1
        .items
        .iter()
        .filter_map(|i| match i {
            NavItem::Division(d) => Some((d.kind, d.label.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(
        tabs,
        [
            (DivisionKind::Tab, "Documentation"),
            (DivisionKind::Tab, "Old API")
        ],
        "v1 has the v1-only tab"
    );
    // The top-level `openapi` is the default spec of endpoint entries.
    let users = page(&site, "api-reference/users/list-users");
    assert_eq!(users.openapi.as_deref(), Some("spec.json GET /users"));
    assert_eq!(users.version.as_deref(), Some("v1"));
    let c = &site.config;
    assert_eq!(c.api.openapi.len(), 2);
    assert_eq!(c.api.base_urls, ["https://api.acme.dev"]);
    assert_eq!(c.api.playground.as_deref(), Some("none"));
    assert_eq!(
        c.api.auth.as_ref().and_then(|a| a.method.as_deref()),
        Some("bearer")
    );
    assert_eq!(c.colors.anchors, ["#123456"]);
    assert_eq!(
        c.background.image.as_ref().and_then(|i| i.dark.as_deref()),
        Some("/bg.png")
    );
    assert!(c
        .feedback
        .as_ref()
        .is_some_and(|f| f.thumbs_rating && !f.raise_issue));
}

#[test]
fn languages_products_versions_tabs_and_dropdowns_place_their_pages() {
    let site = site(&[
        (
            "docs.json",
            r#"{"navigation": {
              "global": {"anchors": [{"anchor": "Community", "href": "https://forum.acme.dev"}]},
              "languages": [
                {"language": "en", "products": [
                  {"product": "Cloud", "tabs": [{"tab": "Guides", "pages": ["en/cloud/start"]}]},
                  {"product": "Self-host", "versions": [
                    {"version": "Latest (3.x)", "tabs": [{"tab": "Deploy", "pages": ["en/self/deploy"]}]}]}]},
                {"language": "fr", "versions": [
                  {"version": "v2", "tabs": [{"tab": "Guides", "versions": [{"version": "2.1 (beta)", "pages": ["fr/beta"]}]}]},
                  {"version": "v1", "dropdowns": [{"dropdown": "SDK", "pages": ["fr/sdk"]}]}]}]}}"#,
        ),
        ("en/cloud/start.mdx", "Start"),
        ("en/self/deploy.mdx", "Deploy"),
        ("fr/beta.mdx", "Bêta"),
        ("fr/sdk.mdx", "SDK"),
    ]);
    assert_eq!(site.warnings, Vec::<String>::new());
    let found: Vec<_> = outline(&site)
        .into_iter()
        .map(|(path, lang, version, tab, _, _)| (path, lang, version, tab))
        .collect();
    let s = |v: &str| Some(v.to_owned());
    assert_eq!(
        found,
        [
            ("en/cloud/start".into(), "en".into(), None, s("Guides")),
            (
                "en/self/deploy".into(),
                "en".into(),
                s("Latest (3.x)"),
                s("Deploy")
            ),
            ("fr/beta".into(), "fr".into(), s("2.1 (beta)"), s("Guides")),
            ("fr/sdk".into(), "fr".into(), s("v1"), s("SDK")),
        ]
    );
    assert_eq!(site.versions, ["Latest (3.x)", "v2", "2.1 (beta)", "v1"]);
    let NavItem::Division(community) = &site.config.global[0] else {
        panic!()
    };
    assert_eq!(
        (community.kind, community.href.as_deref()),
        (DivisionKind::Anchor, Some("https://forum.acme.dev"))
    );
}

#[test]
fn the_whole_navigation_may_be_a_ref() {
    let site = site(&[
        (
            "docs.json",
            r#"{"name": "R", "navigation": {"$ref": "nav/navigation.json"}}"#,
        ),
        (
            "nav/navigation.json",
            r#"{"tabs": [{"tab": "T", "groups": [{"$ref": "group.json"}]}]}"#,
        ),
        ("nav/group.json", r#"{"group": "G", "pages": ["a"]}"#),
        ("a.mdx", "A"),
    ]);
    assert_eq!(site.warnings, Vec::<String>::new());
    assert_eq!(
        (
            page(&site, "a").tab.as_deref(),
            page(&site, "a").groups.as_slice()
        ),
        (Some("T"), &["G".to_owned()][..])
    );
}

#[test]
fn endpoint_entries_and_openapi_sections_become_pages_of_their_operations() {
    let site = site(&[
        (
            "docs.json",
            r#"{"navigation": {"languages": [{"language": "en", "tabs": [
              {"tab": "Guides", "pages": ["index", "openapi/spec.json DELETE /users/{id}"]},
              {"tab": "Users", "openapi": "openapi/spec.json", "groups": [
                {"group": "Users", "pages": ["GET /users", "GET /users/{id}", "guide"]}]},
              {"tab": "Reference", "openapi": {"source": "/openapi/spec.json", "directory": "Reference"}}]}]}}"#,
        ),
        ("openapi/spec.json", SPEC),
        ("index.mdx", "Home"),
        ("guide.mdx", "Guide"),
    ]);
    assert_eq!(site.warnings, Vec::<String>::new());
    let delete = page(&site, "en/api-reference/admin-ops/delete-user");
    assert_eq!(
        (delete.tab.as_deref(), delete.title.as_str()),
        (Some("Guides"), "Delete user")
    );
    assert_eq!(
        delete.openapi.as_deref(),
        Some("openapi/spec.json DELETE /users/{id}")
    );
    assert_eq!(
        (delete.source.as_str(), delete.is_generated()),
        ("openapi/spec.json", true)
    );

    let list = page(&site, "en/api-reference/users/list-users");
    assert_eq!(
        (list.tab.as_deref(), list.groups.as_slice()),
        (Some("Users"), &["Users".to_owned()][..])
    );
    assert_eq!(
        list.description.as_deref(),
        Some("All <b>users</b> {paged}.")
    );
    let text = list.full_text();
    for expected in [
        "`GET /users`",
        "## Query parameters",
        "- `limit` (integer): Page size",
        "## Responses",
        "The users, as List",
        "- `email` (string, required): Where mail goes",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }
    // No summary: the title is the method and path, the slug its words.
    assert_eq!(
        page(&site, "en/api-reference/users/get-users").title,
        "GET /users/{id}"
    );

    // A section of the whole spec: a group per tag (x-group labels it), hidden operations left out,
    // untagged ones under "API Reference" without a tag folder, in the section's directory.
    let reference: Vec<_> = site
        .pages
        .iter()
        .filter(|p| p.tab.as_deref() == Some("Reference"))
        .map(|p| (p.path.as_str(), p.groups.join("/")))
        .collect();
    assert_eq!(
        reference,
        [
            ("en/reference/users/list-users", "Users".to_owned()),
            ("en/reference/users/create-user", "Users".to_owned()),
            ("en/reference/users/get-users", "Users".to_owned()),
            ("en/reference/admin-ops/delete-user", "Admin".to_owned()),
            ("en/reference/ping", "API Reference".to_owned()),
        ]
    );
    assert!(site.pages.iter().all(|p| !p.path.ends_with("/health")));
}

#[test]
fn missing_specs_operations_and_remote_specs_are_warnings_naming_the_config_and_the_entry() {
    let files = [
        (
            "docs.json",
            r#"{"navigation": {"groups": [
              {"group": "A", "openapi": "gone.json", "pages": ["GET /users"]},
              {"group": "B", "openapi": "spec.json", "pages": ["GET /nowhere", "index"]},
              {"group": "C", "openapi": "https://api.acme.dev/openapi.json"},
              {"group": "D", "pages": ["POST /orphans"]}]}}"#,
        ),
        ("spec.json", SPEC),
        ("index.mdx", "Home"),
    ];
    let site = site(&files);
    assert_eq!(
        site.warnings,
        [
            "docs.json: openapi spec `gone.json` (named by `GET /users`) is missing or not an OpenAPI document; its pages are left out",
            "docs.json: navigation entry `GET /nowhere`: `spec.json` has no such operation",
            "docs.json: openapi spec https://api.acme.dev/openapi.json (named by a navigation `openapi`) is remote and was not uploaded; its pages are left out",
            "docs.json: navigation entry `POST /orphans` names an endpoint but no `openapi` spec applies to it",
        ]
    );
    assert_eq!(site.pages.len(), 1);

    // publish-docs downloads the remote spec into the upload and names it in the manifest.
    let mut files = tree(&files);
    files.insert(
        ".docs-edge/remote.json".into(),
        br#"{"https://api.acme.dev/openapi.json": ".docs-edge/remote/abc.json"}"#.to_vec(),
    );
    files.insert(
        ".docs-edge/remote/abc.json".into(),
        SPEC.as_bytes().to_vec(),
    );
    let site = build_site(&files).unwrap();
    assert!(
        site.warnings.iter().all(|w| !w.contains("remote")),
        "{:?}",
        site.warnings
    );
    assert_eq!(
        page(&site, "api-reference/users/list-users")
            .openapi
            .as_deref(),
        Some(".docs-edge/remote/abc.json GET /users")
    );
}

#[test]
fn unknown_keys_are_warnings_with_file_line_and_field_never_failures() {
    let site = site(&[
        (
            "docs.json",
            "{\n  \"name\": \"U\",\n  \"colour\": \"#000\",\n  \"navigation\": {\n    \"tabs\": [{\"tab\": \"T\", \"tabIcon\": \"x\",\n      \"groups\": [{\"group\": \"G\", \"expanded\": true, \"pages\": [\"a\"]}]}]\n  }\n}",
        ),
        ("mint.json", r#"{"name": "ignored", "whatever": 1}"#),
        ("a.mdx", "A"),
    ]);
    assert_eq!(
        site.warnings,
        [
            "docs.json:3: unknown key `colour` ignored",
            "docs.json:5: unknown key `tabIcon` at navigation.tabs[0] ignored"
        ]
    );
    let site = self::site(&[
        ("mint.json", "{\"name\": \"M\",\n \"topbarCTA\": {},\n \"tabs\": [{\"name\": \"A\", \"url\": \"a\", \"colour\": 1}],\n \"navigation\": [{\"group\": \"G\", \"pages\": [\"a\"]}]}"),
        ("a.mdx", "A"),
    ]);
    assert_eq!(
        site.warnings,
        [
            "mint.json:2: unknown key `topbarCTA` ignored",
            "mint.json:3: unknown key `colour` at tabs[0] ignored"
        ]
    );
}
