//! The operator API's request bodies (`/v1/admin`: organizations, domains, keys), each wire type with
//! its parser, on the one validation vocabulary (`crate::http::validate`).

use serde_json::Value;

use crate::http::domain::validate_domain;
use crate::http::validate::{max_chars, not_blank, object, FieldError, Obj, Path};
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
}

pub fn parse_create_org(body: &Value) -> Result<CreateOrg, FieldError> {
    let root = object(body, &Path::root())?;
    let name = name(&root, root.req_str("name")?)?;
    let plan = plan(&root, root.req_str("plan")?)?;
    Ok(CreateOrg { name, plan })
}

pub fn parse_update_org(body: &Value) -> Result<UpdateOrg, FieldError> {
    let root = object(body, &Path::root())?;
    let name = root.opt_str("name")?.map(|value| name(&root, value)).transpose()?;
    let plan = root.opt_str("plan")?.map(|value| plan(&root, value)).transpose()?;
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
    let kind = KeyKind::parse(kind).ok_or_else(|| root.field_path("kind").error(format!("must be one of {}", KeyKind::NAMES)))?;
    let name = root.opt_str("name")?.map(|value| name(&root, value)).transpose()?;
    Ok(CreateKey { kind, name })
}

/// A display name: not blank, at most [`MAX_NAME_CHARS`] as sent, stored trimmed.
fn name(root: &Obj, value: &str) -> Result<String, FieldError> {
    let path = root.field_path("name");
    not_blank(value, &path)?;
    max_chars(value, MAX_NAME_CHARS, &path)?;
    Ok(value.trim().to_string())
}

fn plan(root: &Obj, value: &str) -> Result<Plan, FieldError> {
    Plan::parse(value).ok_or_else(|| root.field_path("plan").error(format!("must be one of {}", Plan::NAMES)))
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
            CreateOrg { name: "Acme".into(), plan: Plan::Pro }
        );
        assert_eq!(error(parse_create_org(&json!({"plan": "pro"}))), "name: is required");
        assert_eq!(error(parse_create_org(&json!({"name": 1, "plan": "pro"}))), "name: must be a string");
        assert_eq!(error(parse_create_org(&json!({"name": "  ", "plan": "pro"}))), "name: must not be empty");
        assert_eq!(error(parse_create_org(&json!({"name": "n".repeat(201), "plan": "pro"}))), "name: must be at most 200 characters");
        assert_eq!(error(parse_create_org(&json!({"name": "a", "plan": "gold"}))), "plan: must be one of free, pro, enterprise");
        assert_eq!(error(parse_create_org(&json!("x"))), "body: must be an object");
    }

    #[test]
    fn updates_change_only_what_is_sent() {
        assert_eq!(parse_update_org(&json!({"name": null})).unwrap(), UpdateOrg { name: None, plan: None });
        assert_eq!(parse_update_org(&json!({"plan": "enterprise"})).unwrap().plan, Some(Plan::Enterprise));
        assert_eq!(error(parse_update_org(&json!({"name": ""}))), "name: must not be empty");
    }

    #[test]
    fn domains_and_keys() {
        assert_eq!(parse_add_domain(&json!({"domain": "Docs.Example.com"})).unwrap(), "docs.example.com");
        assert!(error(parse_add_domain(&json!({"domain": "not a domain"}))).starts_with("domain: "));
        assert_eq!(error(parse_add_domain(&json!({}))), "domain: is required");
        assert_eq!(parse_create_key(&json!({"kind": "admin"})).unwrap(), CreateKey { kind: KeyKind::Admin, name: None });
        assert_eq!(error(parse_create_key(&json!({"kind": "root"}))), "kind: must be one of assistant, admin");
    }
}
