//! What the live bundle's pages may do on this server, and the `Content-Security-Policy` that holds
//! them to it: the bundle's extras (the analytics beacon, the "Try it" playground, the assistant
//! widget) narrowed by this server's switches and deployment kind. The state keeps it with the live
//! bundle; the static site sends it with every page.

use docs_edge_core::export::{content_security_policy_remote, widget, BundleManifest, PageExtras};
use docs_edge_core::platform::deployment::outbound_allowed;

use crate::config::Config;

/// What the served pages may do beyond this origin, and the `Content-Security-Policy` that holds them
/// to it. The pages were rendered with the exporting deployment's switches; this server's own switches
/// can only take away. The policy is the enforcement: the bundle's files are served as they are.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PagePolicy {
    /// The analytics beacon may reach its endpoint.
    pub analytics: bool,
    /// The "Try it" panel may call any http(s) server.
    pub playground: bool,
    /// The assistant widget may run (its wasm) and reach its service.
    pub assistant: bool,
    pub content_security_policy: String,
}

/// The policy for `manifest`'s pages on this server:
/// - the beacon only when the bundle has one, this server's analytics switch is on and, air-gapped,
///   the beacon's host is in `INTERNAL_HOSTS` (an air-gapped site sends nothing outside);
/// - the playground only when the bundle has it and this server's playground switch is on;
/// - and when the beacon is refused, no playground either: the playground's `connect-src https: http:`
///   would let the beacon through, and a policy cannot allow every host but one. A switched-off
///   beacon must stay off; the panel then says its calls were blocked;
/// - the assistant widget when the bundle has it and, when it asks another service, that service
///   may be reached (air-gapped: its host in `INTERNAL_HOSTS`) and is not a refused beacon's
///   origin; asking this server (`same-origin`) needs no more than `'self'`.
pub fn page_policy(manifest: &BundleManifest, config: &Config) -> PagePolicy {
    let deployment = &config.deployment;
    let bundle_beacon = manifest
        .beacon_endpoint
        .as_deref()
        .filter(|_| manifest.features.analytics);
    let beacon = bundle_beacon.filter(|url| {
        deployment.features.analytics
            && outbound_allowed(
                deployment.kind,
                "the beacon endpoint",
                Some(url),
                &config.internal_hosts,
            )
            .is_ok()
    });
    let beacon_refused = bundle_beacon.is_some() && beacon.is_none();
    let playground =
        manifest.features.playground && deployment.features.playground && !beacon_refused;
    let refused_origin = bundle_beacon
        .filter(|_| beacon_refused)
        .and_then(|url| widget::api_origin(url));
    let assistant = manifest
        .assistant
        .clone()
        .filter(|a| match widget::api_origin(&a.api_base) {
            None => true,
            // The widget's service let through would let the refused beacon through too.
            Some(origin) => {
                refused_origin != Some(origin)
                    && outbound_allowed(
                        deployment.kind,
                        "the assistant widget's apiBase",
                        Some(&a.api_base),
                        &config.internal_hosts,
                    )
                    .is_ok()
            }
        });
    // Air-gapped, Turnstile's origin stays out of the policy: the widget then asks without a token.
    let air_gapped =
        deployment.kind == docs_edge_core::platform::deployment::DeploymentKind::AirGapped;
    let assistant = assistant.map(|a| docs_edge_core::wire::ExportAssistant {
        turnstile_site_key: a.turnstile_site_key.filter(|_| !air_gapped),
        ..a
    });
    let extras = PageExtras {
        beacon_endpoint: beacon.map(str::to_string),
        playground,
        assistant,
    };
    PagePolicy {
        analytics: beacon.is_some(),
        playground,
        assistant: extras.assistant.is_some(),
        content_security_policy: content_security_policy_remote(
            &extras,
            &manifest.frame_origins,
            &manifest.image_origins,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{config_with, manifest, scratch};

    const BEACON: &str =
        "https://api.example.com:8443/discovery/v1/analytics/docs.example.com/events";

    fn policy(bundle: (bool, bool), vars: &[(&str, &str)]) -> PagePolicy {
        let mut m = manifest("se_0123456789abcdef");
        m.features.analytics = bundle.0;
        m.features.playground = bundle.1;
        m.beacon_endpoint = bundle.0.then(|| BEACON.to_string());
        page_policy(&m, &config_with(vars, &scratch("policy")))
    }

    fn connect(p: &PagePolicy) -> &str {
        let csp = p.content_security_policy.as_str();
        let start = csp.find("connect-src").unwrap();
        &csp[start..start + csp[start..].find(';').unwrap()]
    }

    #[test]
    fn the_bundles_extras_stand_while_this_server_allows_them() {
        let both = policy((true, true), &[]);
        assert!(both.analytics && both.playground);
        assert_eq!(connect(&both), "connect-src 'self' https: http:");
        let beacon_only = policy((true, false), &[]);
        assert_eq!(
            connect(&beacon_only),
            "connect-src 'self' https://api.example.com:8443"
        );
        // The server's switches cannot add what the bundle lacks.
        assert_eq!(connect(&policy((false, false), &[])), "connect-src 'self'");
    }

    #[test]
    fn analytics_off_here_takes_the_beacon_origin_and_any_wildcard_away() {
        let off = policy((true, true), &[("FEATURE_ANALYTICS", "false")]);
        assert!(!off.analytics && !off.playground, "{off:?}");
        assert_eq!(connect(&off), "connect-src 'self'");
        let client_hosted = policy((true, false), &[("DEPLOYMENT_KIND", "client-hosted")]);
        assert_eq!(connect(&client_hosted), "connect-src 'self'");
    }

    #[test]
    fn playground_off_here_means_no_arbitrary_connect() {
        let p = policy((true, true), &[("FEATURE_PLAYGROUND", "false")]);
        assert!(p.analytics && !p.playground);
        assert_eq!(
            connect(&p),
            "connect-src 'self' https://api.example.com:8443"
        );
        let p = policy((false, true), &[("FEATURE_PLAYGROUND", "false")]);
        assert_eq!(connect(&p), "connect-src 'self'");
    }

    #[test]
    fn the_placeholders_origins_are_framed_and_shown_here_as_in_the_bundle() {
        let mut m = manifest("se_0123456789abcdef");
        m.frame_origins = vec!["https://www.youtube.com".into()];
        m.image_origins = vec!["https://cdn.example.com".into()];
        let csp = page_policy(&m, &config_with(&[], &scratch("policy"))).content_security_policy;
        assert!(
            csp.contains("img-src 'self' data: https://cdn.example.com;")
                && csp.ends_with("frame-src 'self' https://www.youtube.com"),
            "{csp}"
        );
    }

    #[test]
    fn the_widget_runs_and_reaches_its_service_only_where_allowed() {
        let key = format!("svc_dsc_{}", "a".repeat(32));
        let with = |api_base: &str, beacon: bool, vars: &[(&str, &str)]| {
            let mut m = manifest("se_0123456789abcdef");
            m.features.analytics = beacon;
            m.features.playground = false;
            m.beacon_endpoint = beacon.then(|| BEACON.to_string());
            m.assistant = Some(docs_edge_core::wire::ExportAssistant {
                api_base: api_base.into(),
                key: key.clone(),
                turnstile_site_key: None,
            });
            page_policy(&m, &config_with(vars, &scratch("policy")))
        };
        let here = with("same-origin", false, &[]);
        assert!(here.assistant && here.content_security_policy.contains("'wasm-unsafe-eval'"));
        assert_eq!(connect(&here), "connect-src 'self'");
        let elsewhere = with("https://edge.example.com", false, &[]);
        assert_eq!(
            connect(&elsewhere),
            "connect-src 'self' https://edge.example.com"
        );
        let gapped = with(
            "https://edge.example.com",
            false,
            &[("DEPLOYMENT_KIND", "air-gapped")],
        );
        assert!(
            !gapped.assistant && !gapped.content_security_policy.contains("wasm"),
            "{gapped:?}"
        );
        assert_eq!(connect(&gapped), "connect-src 'self'");
        // Analytics off here: the beacon's origin stays out, so a widget asking that origin does too.
        let beside_beacon = with(
            "https://api.example.com:8443",
            true,
            &[("FEATURE_ANALYTICS", "false")],
        );
        assert!(!beside_beacon.assistant);
        assert_eq!(connect(&beside_beacon), "connect-src 'self'");
        assert!(with("same-origin", true, &[("FEATURE_ANALYTICS", "false")]).assistant);
    }

    #[test]
    fn turnstiles_origin_is_allowed_only_off_air_gapped_servers() {
        let with = |vars: &[(&str, &str)]| {
            let mut m = manifest("se_0123456789abcdef");
            m.assistant = Some(docs_edge_core::wire::ExportAssistant {
                api_base: "same-origin".into(),
                key: format!("svc_dsc_{}", "a".repeat(32)),
                turnstile_site_key: Some("0x4AAAAAAAtest".into()),
            });
            page_policy(&m, &config_with(vars, &scratch("policy"))).content_security_policy
        };
        let cloud = with(&[]);
        assert!(
            cloud.contains("'wasm-unsafe-eval' https://challenges.cloudflare.com;")
                && cloud.ends_with("frame-src 'self' https://challenges.cloudflare.com"),
            "{cloud}"
        );
        let gapped = with(&[("DEPLOYMENT_KIND", "air-gapped")]);
        assert!(
            gapped.contains("'wasm-unsafe-eval'") && !gapped.contains("challenges.cloudflare.com"),
            "{gapped}"
        );
    }

    #[test]
    fn air_gapped_sends_the_beacon_only_to_an_internal_host() {
        let gapped = [
            ("DEPLOYMENT_KIND", "air-gapped"),
            ("FEATURE_ANALYTICS", "true"),
            ("FEATURE_PLAYGROUND", "true"),
        ];
        let outside = policy((true, true), &gapped);
        assert!(!outside.analytics && !outside.playground);
        assert_eq!(connect(&outside), "connect-src 'self'");
        let declared = [
            gapped[0],
            gapped[1],
            gapped[2],
            ("INTERNAL_HOSTS", "api.example.com:8443"),
        ];
        let inside = policy((true, true), &declared);
        assert!(inside.analytics && inside.playground);
    }
}
