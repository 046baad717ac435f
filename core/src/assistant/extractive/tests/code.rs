//! When an answer quotes a code block, and which one.

use super::*;

#[test]
fn includes_the_code_block_for_a_how_do_i_question() {
    let answer = compose_answer(
        "How do I start a static export job?",
        &static_export_passages(),
    );
    let text = answer.text();
    assert!(answer.covered);
    assert!(
        text.contains("```bash\ncurl -X POST https://api.mintlify.com/v1/static-export/jobs"),
        "{text}"
    );
    assert_eq!(
        text.matches("```").count(),
        2,
        "exactly one code block: {text}"
    );
    assert!(answer.sources.contains(&2), "{text}");
    assert!(text.contains("Sources:"), "{text}");
}

#[test]
fn no_code_block_for_a_what_question() {
    let answer = compose_answer(
        "What is the static export bundle?",
        &static_export_passages(),
    );
    assert!(!answer.text().contains("```"), "{}", answer.text());
}

#[test]
fn a_snippet_is_quoted_whole_in_its_fence_after_its_intro() {
    let passages = vec![passage(
        "sdk/install",
        "TypeScript SDK",
        "Installation",
        "Install the package with npm:\n```\nnpm install agentops\n```\nThe SDK needs Node 18.",
        0.7,
    )];
    let text = compose_answer("npm install agentops TypeScript", &passages).text();
    assert!(
        text.starts_with("Install the package with npm: [1]\n\n```\nnpm install agentops\n```"),
        "{text}"
    );
}

#[test]
fn a_how_question_takes_its_snippet_from_another_section_of_the_lead_page() {
    let passages = vec![
        passage(
            "usage/mcp-docs",
            "MCP docs",
            "MCP docs server",
            "The MCP docs server gives your editor access to every page of the docs.",
            0.8,
        ),
        passage(
            "introduction",
            "Introduction",
            "",
            "```bash\nnpx other-tool add docs\n```",
            0.7,
        ),
        passage(
            "usage/mcp-docs",
            "MCP docs",
            "Installation:",
            "```bash\nnpx mint-mcp add docs\n```",
            0.5,
        ),
    ];
    let answer = compose_answer(
        "How do I connect my editor to the MCP docs server?",
        &passages,
    );
    let text = answer.text();
    assert!(
        text.contains("```bash\nnpx mint-mcp add docs\n```"),
        "{text}"
    );
    assert!(!text.contains("other-tool"), "{text}");
    assert_eq!(answer.sources, vec![0, 2], "{text}");
    assert!(text.contains("From MCP docs › Installation [2]:"), "{text}");
}

#[test]
fn a_snippet_from_another_section_brings_that_sections_best_sentence() {
    let passages = vec![
        passage(
            "deployment/clickhouse",
            "Deploy ClickHouse",
            "Apply migrations",
            "The gateway applies migrations when it starts, unless `auto_migrations = false` is set \
             in its configuration file. A replicated deployment must apply migrations by hand with the \
             migration command before the gateway starts. The gateway refuses to start while a \
             required migration is missing, and its log names the migration.",
            0.8,
        ),
        passage(
            "deployment/clickhouse",
            "Deploy ClickHouse",
            "Connect",
            "Set the connection URL of the gateway.\n```bash\n# the gateway's database\nCLICKHOUSE_URL=http://localhost:8123\n```\nA replicated \
             deployment also names its cluster in `CLICKHOUSE_CLUSTER_NAME`.",
            0.2,
        ),
    ];
    let answer = compose_answer(
        "How do I apply migrations by hand when the gateway starts in a replicated deployment?",
        &passages,
    );
    let text = answer.text();
    assert!(
        text.contains("CLICKHOUSE_URL=http://localhost:8123"),
        "{text}"
    );
    assert!(
        text.contains("also names its cluster in `CLICKHOUSE_CLUSTER_NAME`. [2]"),
        "{text}"
    );
    assert!(!text.contains("Set the connection URL"), "{text}");
}

#[test]
fn a_snippet_goes_with_every_question_but_why_and_what_is() {
    for q in [
        "cli headless json output",
        "Which endpoint returns the deployed version?",
        "How long is the link valid?",
        "Where do I set the cache expiry?",
        "如何导出静态站点",
    ] {
        assert!(asks_for_code(q), "{q}");
    }
    for q in [
        "What is the static export bundle?",
        "Why are my builds slow?",
        "what does the proxy do",
    ] {
        assert!(!asks_for_code(q), "{q}");
    }
}

#[test]
fn a_further_passage_whose_best_unit_is_code_quotes_its_prose_when_a_snippet_is_quoted() {
    // The answer's one snippet comes from the lead. The second page's best unit is its block, which
    // would be dropped after picking, and its sentence scores under a third of the block's: picked
    // with the block, the sentence was left out and the page with it.
    let passages = vec![
        passage(
            "faqs",
            "FAQs",
            "Remote Ollama",
            "Check the remote server from your laptop:\n```\nOLLAMA_HOST=192.168.1.136:11434 ollama list # from laptop\n```",
            0.9,
        ),
        passage(
            "guides/ollama",
            "Ollama",
            "Listening",
            "Make the server listen on all interfaces and restart it.\n```\nOLLAMA_HOST=192.168.1.136:11434 ollama list\n```",
            0.85,
        ),
    ];
    let answer = compose_answer(
        "ollama list on the remote server 192.168.1.136 gives connection refused from my laptop",
        &passages,
    );
    let text = answer.text();
    assert_eq!(text.matches("```").count(), 2, "one snippet: {text}");
    assert!(text.contains("listen on all interfaces"), "{text}");
}

#[test]
fn a_before_and_after_pair_quotes_the_after_snippet() {
    let passages = vec![passage(
        "reference/yaml-migration",
        "Migrating Config to YAML",
        "System Message",
        "The `systemMessage` property has been replaced with a `rules` property.\nBefore\nconfig.json\n\
         ```\n{\n  \"systemMessage\": \"Always give concise responses\"\n}\n```\nAfter\nconfig.yaml\n\
         ```\nrules:\n  - Always give concise responses\n```",
        0.5,
    )];
    let text = compose_answer("How do I set systemMessage in config.yaml?", &passages).text();
    assert!(
        text.contains("```\nrules:\n  - Always give concise responses\n```"),
        "{text}"
    );
    assert!(!text.contains("\"systemMessage\": \"Always"), "{text}");
}

#[test]
fn a_long_snippet_whose_comment_says_what_is_asked_is_scored_as_that_comment() {
    let filler: String = (0..12)
        .map(|i| format!("    {{\"field\": \"model_{i}\", \"equals\": \"value_{i}\"}},\n"))
        .collect();
    let passages = vec![
        passage(
            "features/logging-requests",
            "Logging Requests",
            "Proxy",
            "Send each request through the proxy to log it.\n```\n{\n  \"op-log-request\": \"true\",\n  \
             \"op-tags\": \"{\\\"prompt_id\\\": \\\"first\\\"}\"\n}\n```",
            0.54,
        ),
        passage(
            "features/updating-tags",
            "Updating Tags",
            "",
            &format!(
                "You may want to change the tags of a request log after it was reported.\n```python\n\
                 resp = client.update_log_tags(\n  filters=[\n{filler}  ],\n  tags={{\n    \
                 \"tag_to_remove\": None # this will remove the tag from the request log\n  }},\n)\n```"
            ),
            0.53,
        ),
    ];
    let text = compose_answer("remove a tag from logged request", &passages).text();
    assert!(
        text.starts_with("You may want to change the tags"),
        "{text}"
    );
    assert!(text.contains("update_log_tags"), "{text}");
}

#[test]
fn a_quoted_snippet_is_captioned_with_the_file_its_block_names() {
    let passages = vec![passage(
        "customize/rules",
        "Rules",
        "TypeScript rules",
        "Create a rule that applies only to TypeScript files:\n``` .continue/rules/typescript.md\n\
         ---\nname: TypeScript\nglobs: [\"**/*.ts\"]\n---\n```",
        0.6,
    )];
    let text = compose_answer("How do I add a rule only for typescript files?", &passages).text();
    assert!(
        text.contains("`.continue/rules/typescript.md`:\n```\n---\nname: TypeScript"),
        "{text}"
    );
    let tab = passage(
        "ratelimit/strapi",
        "Strapi plugin",
        "Examples",
        "Rate limit by the caller's address:\n``` Apply rate limit with IP\n{\"identifierSource\": \"ip\"}\n```",
        0.6,
    );
    let text = compose_answer("How do I rate limit by IP in strapi?", &[tab]).text();
    assert!(
        text.contains("\nApply rate limit with IP:\n```\n{"),
        "{text}"
    );
}
