//! The operator API's request bodies (`/v1/admin`: organizations, domains, keys), each wire type with
//! its parser, on the one validation vocabulary (`crate::http::validate`).

use serde_json::Value;

use crate::http::domain::validate_domain;
use crate::http::validate::{max_chars, not_blank, object, FieldError, Obj, Path};
use crate::security::origins::{normalize_origin, MAX_ALLOWED_ORIGINS, MAX_ORIGIN_CHARS};
use crate::wire::{KeyKind, Plan};

pub const MAX_NAME_CHARS: usize = 200;

/// `POST /v1/admin/orgs`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateOrg {
    pub name: String,
    pub plan: Plan,
}

/// `PATCH /v1/admin/orgs/{orgId}`: what is absent stays as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateOrg {
    pub name: Option<String>,
    pub plan: Option<Plan>,
}

/// `POST /v1/admin/orgs/{orgId}/keys`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateKey {
    pub kind: KeyKind,
    pub name: Option<String>,
    /// The sites an assistant key may be used from (`security::origins`); empty: any.
    pub allowed_origins: Vec<String>,
}

/// `PATCH /v1/admin/keys/{keyId}`: the key's allowed origins, replaced (`[]`: any origin again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateKey {
    pub allowed_origins: Vec<String>,
}

pub fn parse_create_org(body: &Value) -> Result<CreateOrg, FieldError> {
    let root = object(body, &Path::root())?;
    let name = name(&root, root.req_str("name")?)?;
    let plan = plan(&root, root.req_str("plan")?)?;
    Ok(CreateOrg { name, plan })
}

pub fn parse_update_org(body: &Value) -> Result<UpdateOrg, FieldError> {
    let root = object(body, &Path::root())?;
    let name = root
        .opt_str("name")?
        .map(|value| name(&root, value))
        .transpose()?;
    let plan = root
        .opt_str("plan")?
        .map(|value| plan(&root, value))
        .transpose()?;
    Ok(UpdateOrg { name, plan })
}

/// `POST /v1/admin/orgs/{orgId}/domains`: the domain, lowercased.
pub fn parse_add_domain(body: &Value) -> Result<String, FieldError> {
    let root = object(body, &Path::root())?;
    validate_domain(root.req_str("domain")?).map_err(|rule| root.field_path("domain").error(rule))
}

pub fn parse_create_key(body: &Value) -> Result<CreateKey, FieldError> {
    let root = object(body, &Path::root())?;
    let kind = root.req_str("kind")?;
    let kind = KeyKind::parse(kind).ok_or_else(|| {
        root.field_path("kind")
            .error(format!("must be one of {}", KeyKind::NAMES))
    })?;
    let name = root
        .opt_str("name")?
        .map(|value| name(&root, value))
        .transpose()?;
    let allowed_origins = allowed_origins(&root)?;
    if kind != KeyKind::Assistant && !allowed_origins.is_empty() {
        return Err(root.field_path("allowedOrigins").error(
            "only an assistant key takes allowed origins: an admin key never goes on a page",
        ));
    }
    Ok(CreateKey {
        kind,
        name,
        allowed_origins,
    })
}

pub fn parse_update_key(body: &Value) -> Result<UpdateKey, FieldError> {
    let root = object(body, &Path::root())?;
    root.req_array("allowedOrigins")?;
    Ok(UpdateKey {
        allowed_origins: allowed_origins(&root)?,
    })
}

/// `allowedOrigins`: origins as browsers send them (`https://docs.example.com`, `https://*.example.com`
/// for subdomains), normalized, each once.
fn allowed_origins(root: &Obj) -> Result<Vec<String>, FieldError> {
    let path = root.field_path("allowedOrigins");
    let mut out: Vec<String> = Vec::new();
    for (i, raw) in root
        .opt_str_list("allowedOrigins", MAX_ALLOWED_ORIGINS, MAX_ORIGIN_CHARS)?
        .into_iter()
        .enumerate()
    {
        let origin = normalize_origin(raw).ok_or_else(|| {
            path.index(i).error("must be an origin such as https://docs.example.com (scheme and host, a port if not the default, no path), or https://*.example.com for its subdomains")
        })?;
        if !out.contains(&origin) {
            out.push(origin);
        }
    }
    Ok(out)
}

/// A display name: not blank, at most [`MAX_NAME_CHARS`] as sent, stored trimmed.
fn name(root: &Obj, value: &str) -> Result<String, FieldError> {
    let path = root.field_path("name");
    not_blank(value, &path)?;
    max_chars(value, MAX_NAME_CHARS, &path)?;
    Ok(value.trim().to_string())
}

fn plan(root: &Obj, value: &str) -> Result<Plan, FieldError> {
    Plan::parse(value).ok_or_else(|| {
        root.field_path("plan")
            .error(format!("must be one of {}", Plan::NAMES))
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn error<T: std::fmt::Debug>(result: Result<T, FieldError>) -> String {
        result.unwrap_err().to_string()
    }

    #[test]
    fn organizations_need_a_name_and_a_plan() {
        assert_eq!(
            parse_create_org(&json!({"name": " Acme ", "plan": "pro"})).unwrap(),
            CreateOrg {
                name: "Acme".into(),
                plan: Plan::Pro
            }
        );
        assert_eq!(
            error(parse_create_org(&json!({"plan": "pro"}))),
            "name: is required"
        );
        assert_eq!(
            error(parse_create_org(&json!({"name": 1, "plan": "pro"}))),
            "name: must be a string"
        );
        assert_eq!(
            error(parse_create_org(&json!({"name": "  ", "plan": "pro"}))),
            "name: must not be empty"
        );
        assert_eq!(
            error(parse_create_org(
                &json!({"name": "n".repeat(201), "plan": "pro"})
            )),
            "name: must be at most 200 characters"
        );
        assert_eq!(
            error(parse_create_org(&json!({"name": "a", "plan": "gold"}))),
            "plan: must be one of free, pro, enterprise"
        );
        assert_eq!(
            error(parse_create_org(&json!("x"))),
            "body: must be an object"
        );
    }

    #[test]
    fn updates_change_only_what_is_sent() {
        assert_eq!(
            parse_update_org(&json!({"name": null})).unwrap(),
            UpdateOrg {
                name: None,
                plan: None
            }
        );
        assert_eq!(
            parse_update_org(&json!({"plan": "enterprise"}))
                .unwrap()
                .plan,
            Some(Plan::Enterprise)
        );
        assert_eq!(
            error(parse_update_org(&json!({"name": ""}))),
            "name: must not be empty"
        );
    }

    #[test]
    fn domains_and_keys() {
        assert_eq!(
            parse_add_domain(&json!({"domain": "Docs.Example.com"})).unwrap(),
            "docs.example.com"
        );
        assert!(error(parse_add_domain(&json!({"domain": "not a domain"}))).starts_with("domain: "));
        assert_eq!(error(parse_add_domain(&json!({}))), "domain: is required");
        assert_eq!(
            parse_create_key(&json!({"kind": "admin"})).unwrap(),
            CreateKey {
                kind: KeyKind::Admin,
                name: None,
                allowed_origins: vec![]
            }
        );
        assert_eq!(
            error(parse_create_key(&json!({"kind": "root"}))),
            "kind: must be one of assistant, admin"
        );
    }

    #[test]
    fn an_assistant_key_lists_its_origins() {
        let key = parse_create_key(&json!({"kind": "assistant", "allowedOrigins": ["HTTPS://Docs.Example.com/", "https://docs.example.com", "https://*.example.com"]})).unwrap();
        assert_eq!(
            key.allowed_origins,
            ["https://docs.example.com", "https://*.example.com"]
        );
        assert!(error(parse_create_key(
            &json!({"kind": "assistant", "allowedOrigins": ["https://x.com", "docs.example.com"]})
        ))
        .starts_with("allowedOrigins[1]: must be an origin"));
        assert!(error(parse_create_key(
            &json!({"kind": "admin", "allowedOrigins": ["https://x.com"]})
        ))
        .starts_with("allowedOrigins: only an assistant key"));
        assert_eq!(
            parse_create_key(&json!({"kind": "admin", "allowedOrigins": []}))
                .unwrap()
                .allowed_origins,
            Vec::<String>::new()
        );
        assert_eq!(
            parse_update_key(&json!({"allowedOrigins": []})).unwrap(),
            UpdateKey {
                allowed_origins: vec![]
            }
        );
        assert_eq!(
            error(parse_update_key(&json!({}))),
            "allowedOrigins: is required"
        );
        let many: Vec<String> = (0..51)
            .map(|n| format!("https://s{n}.example.com"))
            .collect();
        assert!(error(parse_update_key(&json!({"allowedOrigins": many})))
            .starts_with("allowedOrigins: "));
    }
}
