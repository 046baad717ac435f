//! Optional parts of an export: the web analytics beacon and the API playground ("Try it" on
//! OpenAPI endpoint pages), switched per deployment, and the assistant widget, which the start
//! request asks for. Off, the bundle holds none of their code.

use crate::wire::ExportAssistant;

use crate::export::bundle::static_files::StaticFiles;

/// What the exported pages get beyond the docs themselves. Serializable: export jobs keep it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PageExtras {
    /// `https://service/discovery/v1/analytics/{domain}/events`: page views and searches go there.
    pub beacon_endpoint: Option<String>,
    /// A "Try it" panel on every OpenAPI endpoint page.
    pub playground: bool,
    /// The assistant widget on every page (`crate::export::page::widget`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assistant: Option<ExportAssistant>,
}

impl PageExtras {
    /// What follows `site.js`'s own code in `_static/site.js`.
    pub(crate) fn script(&self, statics: &StaticFiles) -> String {
        let mut out = String::new();
        if self.playground {
            out.push('\n');
            out.push_str(statics.playground_js);
        }
        if let Some(endpoint) = &self.beacon_endpoint {
            // A JSON string is a JavaScript string literal; `<` escaped so no `</script>` can appear.
            let literal = serde_json::to_string(endpoint)
                .unwrap_or_else(|_| "\"\"".into())
                .replace('<', "\\u003c");
            out.push('\n');
            out.push_str(
                &statics
                    .beacon_js
                    .replace("DOCS_EDGE_BEACON_ENDPOINT", &literal),
            );
        }
        out
    }

    /// What follows `site.css`.
    pub(crate) fn stylesheet<'a>(&self, statics: &StaticFiles<'a>) -> &'a str {
        if self.playground {
            statics.playground_css
        } else {
            ""
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::docs::archive::tree;
    use crate::docs::build_site;
    use crate::export::{content_security_policy, ExportOptions, ExportPlan, PlainCode};

    fn bundle_text(extras: PageExtras) -> String {
        bundle_text_with(extras, "")
    }

    /// [`bundle_text`] with `own` (docs.json's `x-docs-edge` object, or nothing).
    fn bundle_text_with(extras: PageExtras, own: &str) -> String {
        let config = format!(
            r#"{{"name": "API", {own} "navigation": {{"pages": ["index", "api/health"]}}}}"#
        );
        let t = tree(&[
            ("docs.json", config.as_str()),
            ("index.mdx", "---\ntitle: Home\n---\nHello."),
            (
                "api/health.mdx",
                "---\ntitle: Health\nopenapi: GET /health\n---\n",
            ),
            (
                "openapi.json",
                r#"{"openapi": "3.1.0", "servers": [{"url": "https://api.example.com"}], "paths": {"/health": {"get": {"responses": {"200": {"description": "ok"}}}}}}"#,
            ),
        ]);
        let site = build_site(&t).unwrap();
        let options = ExportOptions {
            domain: "docs.example.com".into(),
            ..ExportOptions::default()
        };
        let plan = ExportPlan::new(&site, &t, &options)
            .unwrap()
            .with_extras(extras);
        let mut files = plan.render_pages(&site, &t, 0..plan.page_count(), &PlainCode);
        files.extend(plan.finishing_files(&site, &t));
        files
            .iter()
            .map(|f| format!("== {}\n{}\n", f.path, String::from_utf8_lossy(&f.bytes)))
            .collect()
    }

    #[test]
    fn off_the_bundle_has_no_beacon_and_no_playground() {
        let text = bundle_text(PageExtras::default());
        for absent in [
            "sendBeacon",
            "docs-edge:search\", function",
            "try-it",
            "Try it",
            "/events",
        ] {
            assert!(!text.contains(absent), "{absent} found");
        }
        assert!(text.contains("api-ref"), "the reference itself is there");
    }

    #[test]
    fn on_the_beacon_names_its_endpoint_and_endpoint_pages_get_a_panel() {
        let endpoint = "https://edge.example.com/discovery/v1/analytics/docs.example.com/events";
        let text = bundle_text(PageExtras {
            beacon_endpoint: Some(endpoint.into()),
            playground: true,
            ..PageExtras::default()
        });
        assert!(text.contains("sendBeacon"));
        assert!(
            text.contains(&format!("(\"{endpoint}\")")),
            "the endpoint is the beacon's argument"
        );
        assert!(!text.contains("DOCS_EDGE_BEACON_ENDPOINT"));
        let health = text
            .split("== ")
            .find(|f| f.starts_with("api/health.html"))
            .unwrap();
        assert!(health.contains("class=\"try-it-spec\">{"), "{health}");
        assert!(health.contains("\"servers\":[\"https://api.example.com\"]"));
        let home = text
            .split("== ")
            .find(|f| f.starts_with("index.html"))
            .unwrap();
        assert!(!home.contains("try-it"), "only endpoint pages get a panel");
        assert!(text.contains(".try-it-panel"), "the stylesheet styles it");
    }

    #[test]
    fn the_assistant_puts_the_widget_on_every_page_and_in_the_policy() {
        let off = bundle_text(PageExtras::default());
        assert!(!off.contains("widget"), "no widget unless asked");
        assert!(!content_security_policy(&PageExtras::default()).contains("wasm"));

        let key = format!("svc_dsc_{}", "a".repeat(32));
        let elsewhere = ExportAssistant {
            api_base: "https://edge.example.com".into(),
            key: key.clone(),
            turnstile_site_key: None,
        };
        let extras = PageExtras {
            assistant: Some(elsewhere),
            ..PageExtras::default()
        };
        let text = bundle_text(extras.clone());
        let health = text
            .split("== ")
            .find(|f| f.starts_with("api/health.html"))
            .unwrap();
        let tag = format!(
            "<script defer src=\"../_static/widget.js\" data-api=\"https://edge.example.com\" data-domain=\"docs.example.com\" data-key=\"{key}\" data-link-base=\"../\"></script></head>"
        );
        assert!(health.contains(&tag), "{health}");
        let home = text
            .split("== ")
            .find(|f| f.starts_with("index.html"))
            .unwrap();
        assert!(home.contains("src=\"_static/widget.js\""), "{home}");
        assert!(home.contains("data-link-base=\"./\">"), "{home}");
        let policy = content_security_policy(&extras);
        assert!(policy.contains("script-src 'self' 'sha256-"), "{policy}");
        assert!(
            policy.contains("' 'wasm-unsafe-eval'; style-src"),
            "{policy}"
        );
        assert!(
            policy.contains("connect-src 'self' https://edge.example.com;"),
            "{policy}"
        );
        assert!(
            !policy.contains("'unsafe-eval'") && !policy.contains("'unsafe-inline'"),
            "{policy}"
        );

        // Served by the bundle's own server: 'self' covers it; beside a beacon at the same origin, once.
        let same = PageExtras {
            assistant: Some(ExportAssistant {
                api_base: "same-origin".into(),
                key: key.clone(),
                turnstile_site_key: None,
            }),
            ..PageExtras::default()
        };
        assert!(content_security_policy(&same).contains("connect-src 'self';"));
        let both = PageExtras {
            beacon_endpoint: Some(
                "https://edge.example.com/discovery/v1/analytics/d/events".into(),
            ),
            assistant: Some(ExportAssistant {
                api_base: "https://edge.example.com/".into(),
                key,
                turnstile_site_key: None,
            }),
            ..PageExtras::default()
        };
        assert!(
            content_security_policy(&both).contains("connect-src 'self' https://edge.example.com;")
        );
        assert!(
            !content_security_policy(&both).contains("challenges.cloudflare.com"),
            "no Turnstile unless asked"
        );
    }

    #[test]
    fn docs_json_support_link_is_on_the_widget_tag() {
        let key = format!("svc_dsc_{}", "a".repeat(32));
        let extras = PageExtras {
            assistant: Some(ExportAssistant {
                api_base: "https://edge.example.com".into(),
                key,
                turnstile_site_key: None,
            }),
            ..PageExtras::default()
        };
        let home = |text: String| {
            text.split("== ")
                .find(|f| f.starts_with("index.html"))
                .unwrap()
                .to_owned()
        };
        let url = home(bundle_text_with(
            extras.clone(),
            r#""x-docs-edge": {"support": "https://help.example.com/docs"},"#,
        ));
        assert!(
            url.contains(" data-support-url=\"https://help.example.com/docs\" "),
            "{url}"
        );
        let email = home(bundle_text_with(
            extras.clone(),
            r#""x-docs-edge": {"support": "mailto:help@example.com"},"#,
        ));
        assert!(
            email.contains(" data-support-email=\"help@example.com\" "),
            "{email}"
        );
        let refused = home(bundle_text_with(
            extras,
            r#""x-docs-edge": {"support": "javascript:alert(1)"},"#,
        ));
        assert!(
            !refused.contains("data-support") && !refused.contains("javascript:"),
            "{refused}"
        );
    }

    #[test]
    fn turnstile_is_on_the_widget_tag_and_its_origin_in_the_policy_only_when_asked() {
        let key = format!("svc_dsc_{}", "a".repeat(32));
        let assistant = ExportAssistant {
            api_base: "https://edge.example.com".into(),
            key,
            turnstile_site_key: Some("0x4AAAAAAAsite".into()),
        };
        let extras = PageExtras {
            assistant: Some(assistant),
            ..PageExtras::default()
        };
        let text = bundle_text(extras.clone());
        let home = text
            .split("== ")
            .find(|f| f.starts_with("index.html"))
            .unwrap();
        assert!(
            home.contains(" data-turnstile=\"0x4AAAAAAAsite\" "),
            "{home}"
        );
        let policy = content_security_policy(&extras);
        assert!(
            policy.contains("'wasm-unsafe-eval' https://challenges.cloudflare.com; style-src"),
            "{policy}"
        );
        assert!(
            policy.ends_with("; frame-src 'self' https://challenges.cloudflare.com"),
            "{policy}"
        );
        // Beside the bundle's own embeds, the frame source is added to theirs.
        let framed = crate::export::content_security_policy_remote(
            &extras,
            &["https://www.youtube.com".into()],
            &[],
        );
        assert!(
            framed.ends_with(
                "frame-src 'self' https://www.youtube.com https://challenges.cloudflare.com"
            ),
            "{framed}"
        );

        // The page's one script tag for the widget is what the active-content check allows; the
        // Turnstile script is loaded by the widget, never written into a page.
        let scripts: Vec<&str> = home
            .match_indices("<script")
            .map(|(i, _)| &home[i..i + home[i..].find('>').unwrap() + 1])
            .collect();
        assert!(!home.contains("challenges.cloudflare.com"), "{home}");
        let page = &home[home.find('\n').unwrap() + 1..];
        assert_eq!(
            crate::export::render::active_content::find_active(page, &scripts),
            None
        );
        let injected = page.replace("</body>", "<script src=\"https://challenges.cloudflare.com/turnstile/v0/api.js\"></script></body>");
        assert!(
            crate::export::render::active_content::find_active(&injected, &scripts).is_some(),
            "a Turnstile script tag in a page is a finding"
        );
    }
}
