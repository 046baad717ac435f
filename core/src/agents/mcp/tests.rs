use serde_json::{json, Value};

use super::*;

const SERVER: ServerInfo<'static> = ServerInfo {
    site_name: "Acme",
    domain: "docs.acme.dev",
    version: "0.1.0",
    search: true,
    assistant: true,
};

fn one(body: &str, version: &str) -> Step {
    let incoming = parse_body(body.as_bytes(), version).expect("parses");
    assert_eq!(incoming.messages.len(), 1);
    handle(&incoming.messages[0], version, &SERVER)
}

fn reply(body: &str, version: &str) -> Value {
    match one(body, version) {
        Step::Reply(reply) => reply,
        other => panic!("expected a reply, got {other:?}"),
    }
}

#[test]
fn initialize_negotiates_the_revision() {
    for (asked, answered) in [
        ("2025-11-25", "2025-11-25"),
        ("2025-06-18", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2025-11-25"),
        ("2026-07-28", "2025-11-25"),
    ] {
        let r = reply(
            &format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{asked}","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
            ),
            "2025-03-26",
        );
        assert_eq!(r["id"], 1);
        assert_eq!(r["result"]["protocolVersion"], answered, "{asked}");
        assert_eq!(r["result"]["capabilities"]["tools"]["listChanged"], false);
        assert!(r["result"]["instructions"]
            .as_str()
            .unwrap()
            .contains("docs.acme.dev"));
    }
    let missing = reply(
        r#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{}}"#,
        "2025-03-26",
    );
    assert_eq!(missing["error"]["code"], -32602);
    assert_eq!(missing["id"], "a");
}

#[test]
fn header_versions_and_the_assumed_default() {
    assert_eq!(header_version(None), Ok("2025-03-26"));
    assert_eq!(header_version(Some("2025-06-18")), Ok("2025-06-18"));
    assert!(header_version(Some("1999-01-01"))
        .unwrap_err()
        .contains("2025-11-25"));
}

#[test]
fn malformed_messages_get_the_spec_codes() {
    let parse = parse_body(b"{not json", "2025-11-25").unwrap_err();
    assert_eq!(
        (parse["error"]["code"].clone(), parse["id"].clone()),
        (json!(-32700), Value::Null)
    );
    for body in [
        r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","id":1}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
        "42",
        r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
    ] {
        let err = parse_body(body.as_bytes(), "2025-11-25").unwrap_err();
        assert_eq!(err["error"]["code"], -32600, "{body}");
    }
    let unknown = reply(
        r#"{"jsonrpc":"2.0","id":3,"method":"prompts/list"}"#,
        "2025-11-25",
    );
    assert_eq!(unknown["error"]["code"], -32601);
    let bad_params = reply(
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1]}"#,
        "2025-11-25",
    );
    assert_eq!(bad_params["error"]["code"], -32602);
    let unknown_tool = reply(
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"delete_everything"}}"#,
        "2025-11-25",
    );
    assert_eq!(unknown_tool["error"]["code"], -32602);
}

#[test]
fn batches_only_in_2025_03_26() {
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"x":1}]"#;
    let incoming = parse_body(batch.as_bytes(), "2025-03-26").unwrap();
    assert!(incoming.batch);
    let steps: Vec<Step> = incoming
        .messages
        .iter()
        .map(|m| handle(m, "2025-03-26", &SERVER))
        .collect();
    assert!(matches!(&steps[0], Step::Reply(r) if r["result"] == json!({})));
    assert_eq!(steps[1], Step::Nothing);
    assert!(matches!(&steps[2], Step::Reply(r) if r["error"]["code"] == -32600));
    let refused = parse_body(batch.as_bytes(), "2025-06-18").unwrap_err();
    assert_eq!(refused["error"]["code"], -32600);
    assert_eq!(
        parse_body(b"[]", "2025-03-26").unwrap_err()["error"]["code"],
        -32600
    );
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let full = format!("[{}]", vec![ping; protocol::MAX_BATCH].join(","));
    assert_eq!(
        parse_body(full.as_bytes(), "2025-03-26")
            .unwrap()
            .messages
            .len(),
        protocol::MAX_BATCH
    );
    let over = format!("[{}]", vec![ping; protocol::MAX_BATCH + 1].join(","));
    assert_eq!(
        parse_body(over.as_bytes(), "2025-03-26").unwrap_err()["error"]["code"],
        -32600
    );
}

#[test]
fn notifications_and_responses_get_no_reply() {
    assert_eq!(
        one(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            "2025-11-25"
        ),
        Step::Nothing
    );
    assert_eq!(
        one(r#"{"jsonrpc":"2.0","id":9,"result":{}}"#, "2025-11-25"),
        Step::Nothing
    );
}

#[test]
fn tools_list_has_schemas_and_drops_newer_fields_for_older_revisions() {
    let new = reply(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        "2025-11-25",
    );
    let tools = new["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["search", "get_page", "ask"]);
    for tool in tools {
        assert_eq!(tool["inputSchema"]["type"], "object");
        assert!(tool["description"].as_str().unwrap().contains("Acme"));
    }
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["query"]));
    assert!(tools[0]["outputSchema"].is_object() && tools[0]["title"].is_string());
    let old = reply(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        "2025-03-26",
    );
    assert!(old["result"]["tools"][0].get("outputSchema").is_none());
}

#[test]
fn tool_arguments_are_read_and_checked() {
    let call = |args: &str, version: &str| {
        one(
            &format!(
                r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"search","arguments":{args}}}}}"#
            ),
            version,
        )
    };
    assert_eq!(
        call(
            r#"{"query":" static export ","limit":3,"language":"en"}"#,
            "2025-11-25"
        ),
        Step::Call {
            id: json!(7),
            call: ToolCall::Search(SearchArgs {
                query: "static export".into(),
                language: Some("en".into()),
                version: None,
                limit: 3
            })
        }
    );
    // 2025-11-25: input errors are tool errors the model can fix; before, protocol errors.
    match call(r#"{"query":"x","limit":99}"#, "2025-11-25") {
        Step::Reply(r) => {
            assert_eq!(r["result"]["isError"], true);
            assert!(r["result"]["content"][0]["text"]
                .as_str()
                .unwrap()
                .contains("limit"));
        }
        other => panic!("{other:?}"),
    }
    match call(r#"{}"#, "2025-06-18") {
        Step::Reply(r) => assert_eq!(r["error"]["code"], -32602),
        other => panic!("{other:?}"),
    }
    let page = one(
        r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_page","arguments":{"path":"https://docs.acme.dev/api/overview.md#x"}}}"#,
        "2025-11-25",
    );
    assert_eq!(
        page,
        Step::Call {
            id: json!(8),
            call: ToolCall::GetPage(GetPageArgs {
                path: "api/overview".into()
            })
        }
    );
}

#[test]
fn results_are_text_with_structured_content() {
    let search = tool_reply(
        &json!(1),
        ToolOutcome::Search(SearchOutput {
            query: "export".into(),
            results: vec![SearchItem {
                title: "Static export".into(),
                heading: Some("Start".into()),
                url: "https://d.io/x#start".into(),
                path: "x".into(),
                excerpt: "Run it.".into(),
                score: 0.9,
            }],
        }),
        "2025-11-25",
    );
    let text = search["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("## 1. [Static export › Start](https://d.io/x#start)\npath: `x`\n\nRun it."),
        "{text}"
    );
    assert_eq!(
        search["result"]["structuredContent"]["results"][0]["path"],
        "x"
    );
    let ask = tool_reply(
        &json!(2),
        ToolOutcome::Ask(AskOutput {
            answer: "Do X.".into(),
            sources: vec![("X".into(), "https://d.io/x".into())],
        }),
        "2025-03-26",
    );
    assert_eq!(
        ask["result"]["content"][0]["text"],
        "Do X.\n\nSources:\n1. [X](https://d.io/x)\n"
    );
    assert!(ask["result"].get("structuredContent").is_none());
    let failed = tool_reply(
        &json!(3),
        ToolOutcome::Failed("page `nope` not found".into()),
        "2025-11-25",
    );
    assert_eq!(failed["result"]["isError"], true);
    assert!(excerpt(&"word ".repeat(500)).chars().count() <= 701);
}

#[test]
fn the_schemas_state_the_limits_the_server_enforces() {
    let list = reply(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        "2025-11-25",
    );
    let tools = &list["result"]["tools"];
    assert!(!tools.to_string().contains("{site}") && tools.to_string().contains("docs.acme.dev"));
    let search = |args: Value| {
        one(&json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":args}}).to_string(), "2025-06-18")
    };
    let schema = &tools[0]["inputSchema"]["properties"];
    let max_query = schema["query"]["maxLength"].as_u64().unwrap() as usize;
    let max_limit = schema["limit"]["maximum"].as_u64().unwrap();
    assert!(matches!(
        search(json!({"query": "x".repeat(max_query), "limit": max_limit})),
        Step::Call { .. }
    ));
    assert!(matches!(
        search(json!({"query": "x".repeat(max_query + 1)})),
        Step::Reply(_)
    ));
    assert!(matches!(
        search(json!({"query": "x", "limit": max_limit + 1})),
        Step::Reply(_)
    ));
    let max_path = tools[1]["inputSchema"]["properties"]["path"]["maxLength"]
        .as_u64()
        .unwrap() as usize;
    let page = |path: String| {
        one(&json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_page","arguments":{"path": path}}}).to_string(), "2025-06-18")
    };
    assert!(matches!(page("p".repeat(max_path)), Step::Call { .. }));
    assert!(matches!(page("p".repeat(max_path + 1)), Step::Reply(_)));
    let max_question = tools[2]["inputSchema"]["properties"]["question"]["maxLength"]
        .as_u64()
        .unwrap() as usize;
    let ask = |q: String| {
        one(&json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"question": q}}}).to_string(), "2025-06-18")
    };
    assert!(matches!(ask("q".repeat(max_question)), Step::Call { .. }));
    assert!(matches!(ask("q".repeat(max_question + 1)), Step::Reply(_)));
}

#[test]
fn switched_off_features_take_their_tools_away() {
    let list = |server: &ServerInfo<'_>| -> Vec<String> {
        let incoming = parse_body(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            "2025-11-25",
        )
        .unwrap();
        let Step::Reply(reply) = handle(&incoming.messages[0], "2025-11-25", server) else {
            panic!("a reply")
        };
        reply["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let call = |server: &ServerInfo<'_>, name: &str, args: Value| -> Step {
        let body = json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":name,"arguments":args}}).to_string();
        let incoming = parse_body(body.as_bytes(), "2025-11-25").unwrap();
        handle(&incoming.messages[0], "2025-11-25", server)
    };
    let no_assistant = ServerInfo {
        assistant: false,
        ..SERVER
    };
    assert_eq!(list(&no_assistant), ["search", "get_page"]);
    let refused = call(&no_assistant, "ask", json!({"question": "how?"}));
    let Step::Reply(refused) = refused else {
        panic!("ask must not run: {refused:?}")
    };
    assert_eq!(refused["error"]["code"], -32602);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("switched off"),
        "{refused}"
    );
    assert!(matches!(
        call(&no_assistant, "search", json!({"query": "x"})),
        Step::Call { .. }
    ));

    let no_search = ServerInfo {
        search: false,
        ..SERVER
    };
    assert_eq!(list(&no_search), ["ask"]);
    for (name, args) in [
        ("search", json!({"query": "x"})),
        ("get_page", json!({"path": "a"})),
    ] {
        assert!(
            matches!(call(&no_search, name, args), Step::Reply(r) if r["error"]["code"] == -32602),
            "{name}"
        );
    }
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#;
    let incoming = parse_body(init.as_bytes(), "2025-11-25").unwrap();
    let Step::Reply(init) = handle(&incoming.messages[0], "2025-11-25", &no_search) else {
        panic!("a reply")
    };
    let text = init["result"]["instructions"].as_str().unwrap();
    assert!(
        text.contains("`ask`") && !text.contains("`search`") && !text.contains("get_page"),
        "{text}"
    );
}

#[test]
fn resources_are_the_documents_for_agents_while_search_is_on() {
    use super::resources::{list_reply, read_reply, Document};
    let init = reply(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
        "2025-11-25",
    );
    assert_eq!(
        init["result"]["capabilities"]["resources"]["listChanged"],
        false
    );
    assert!(matches!(
        one(
            r#"{"jsonrpc":"2.0","id":2,"method":"resources/list"}"#,
            "2025-11-25"
        ),
        Step::ListResources { .. }
    ));
    let list = list_reply(&json!(2), Some("root"), None, &SERVER);
    let uris: Vec<&str> = list["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "https://docs.acme.dev/llms.txt",
            "https://docs.acme.dev/skill.md"
        ]
    );
    let root = "---\nname: acme\ndescription: Use Acme.\n---\n";
    let pay = "---\nname: Pay\ndescription: Charge cards.\n---\n";
    let skills = crate::docs::public_skills::site_skills(
        &[(
            ".mintlify/skills/pay/SKILL.md".to_owned(),
            pay.as_bytes().to_vec(),
        )]
        .into_iter()
        .collect(),
        Some(root),
        &mut Vec::new(),
    );
    let index = crate::docs::public_skills::agent_skills_index(&skills);
    for (root_skill, expected) in [
        (
            Some(root),
            vec![
                "llms.txt",
                "skill.md",
                ".well-known/agent-skills/pay/SKILL.md",
            ],
        ),
        (
            None,
            vec![
                "llms.txt",
                ".well-known/agent-skills/acme/SKILL.md",
                ".well-known/agent-skills/pay/SKILL.md",
            ],
        ),
    ] {
        let list = list_reply(&json!(2), root_skill, Some(&index), &SERVER);
        let resources = list["result"]["resources"].as_array().unwrap();
        let uris: Vec<String> = resources
            .iter()
            .map(|r| {
                r["uri"]
                    .as_str()
                    .unwrap()
                    .trim_start_matches("https://docs.acme.dev/")
                    .to_owned()
            })
            .collect();
        assert_eq!(
            uris, expected,
            "the root skill is listed once, as skill.md when it is there"
        );
        assert_eq!(resources.last().unwrap()["description"], "Charge cards.");
    }
    let read = one(
        r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"https://docs.acme.dev/.well-known/agent-skills/pay/SKILL.md"}}"#,
        "2025-11-25",
    );
    assert!(
        matches!(&read, Step::ReadResource { document: Document::Skill(name), .. } if name == "pay"),
        "{read:?}"
    );
    assert_eq!(
        Document::Skill("pay".into()).file(),
        ".well-known/agent-skills/pay/SKILL.md"
    );

    let read = one(
        r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"https://docs.acme.dev/skill.md"}}"#,
        "2025-11-25",
    );
    assert!(
        matches!(
            read,
            Step::ReadResource {
                document: Document::SkillMd,
                ..
            }
        ),
        "{read:?}"
    );
    let text = read_reply(
        &json!(3),
        &Document::SkillMd,
        Some("---\nname: acme\n---\n".into()),
        &SERVER,
    );
    assert_eq!(text["result"]["contents"][0]["mimeType"], "text/markdown");
    assert_eq!(
        text["result"]["contents"][0]["text"],
        "---\nname: acme\n---\n"
    );
    let absent = read_reply(&json!(3), &Document::SkillMd, None, &SERVER);
    assert_eq!(absent["error"]["code"], -32002);
    assert_eq!(
        absent["error"]["data"]["uri"],
        "https://docs.acme.dev/skill.md"
    );
    for uri in [
        "https://other.dev/skill.md",
        "file:///etc/passwd",
        "https://docs.acme.dev/../skill.md",
        "https://docs.acme.dev/.well-known/agent-skills/../SKILL.md",
        "https://docs.acme.dev/.well-known/skills/pay/SKILL.md",
        "https://docs.acme.dev/.well-known/agent-skills/index.json",
    ] {
        let other = reply(
            &format!(
                r#"{{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{{"uri":"{uri}"}}}}"#
            ),
            "2025-11-25",
        );
        assert_eq!(other["error"]["code"], -32002, "{uri}");
    }
    let no_uri = reply(
        r#"{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{}}"#,
        "2025-11-25",
    );
    assert_eq!(no_uri["error"]["code"], -32602);

    let off = ServerInfo {
        search: false,
        ..SERVER
    };
    let incoming = parse_body(
        br#"{"jsonrpc":"2.0","id":6,"method":"resources/list"}"#,
        "2025-11-25",
    )
    .unwrap();
    match handle(&incoming.messages[0], "2025-11-25", &off) {
        Step::Reply(r) => assert_eq!(r["error"]["code"], -32601),
        other => panic!("{other:?}"),
    }
}
