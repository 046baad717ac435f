//! The API playground: a "Try it" panel under an endpoint's reference. The page carries the
//! operation as JSON (servers, parameters, body example, auth schemes), built here from the OpenAPI
//! document; `static/playground.js` turns it into a form and calls the API only on Send.

use serde_json::Value;

/// Writes the panel's placeholder and the operation it calls (`operation::operation_spec`'s shape).
pub(crate) fn panel(out: &mut String, spec: &Value) {
    // In a <script> element only `</` (and `<!--`) could end it early: no `<` is left.
    let text = spec.to_string().replace('<', "\\u003c");
    out.push_str("<section class=\"try-it\" aria-label=\"Try it\"><script type=\"application/json\" class=\"try-it-spec\">");
    out.push_str(&text);
    out.push_str("</script></section>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::reference::operation::operation_spec;
    use serde_json::json;

    #[test]
    fn the_panel_cannot_close_its_script_element() {
        let d = json!({"paths": {"/x": {"get": {"description": "</script><script>alert(1)</script>",
            "parameters": [{"name": "q", "in": "query", "example": "</script><b>"}]}}}});
        let mut out = String::new();
        let op = &d["paths"]["/x"]["get"];
        panel(
            &mut out,
            &operation_spec(&d, &d["paths"]["/x"], op, "get", "/x"),
        );
        assert_eq!(out.matches("</script>").count(), 1, "{out}");
        let json_text = out
            .split("try-it-spec\">")
            .nth(1)
            .unwrap()
            .split("</script>")
            .next()
            .unwrap();
        let spec: Value = serde_json::from_str(json_text).unwrap();
        assert_eq!(spec["parameters"][0]["example"], "</script><b>");
        assert_eq!(spec["body"], Value::Null);
        assert_eq!(spec["auth"], json!([]));
    }
}
