//! Which sentences, lists and tables an answer quotes, which leads, and what goes with it.

use super::*;

#[test]
fn lead_sentence_is_the_most_relevant_one() {
    let answer = compose_answer(
        "How long is the bundle link valid?",
        &static_export_passages(),
    );
    let text = answer.text();
    let first_paragraph = text.split("\n\n").next().unwrap();
    assert!(first_paragraph.contains("link"), "{text}");
}

#[test]
fn list_introduced_by_a_colon_sentence_stays_whole() {
    let passages = vec![passage(
        "deploy/export",
        "Offline export",
        "View the exported docs",
        "Share the zip file with anyone who has Node.js installed. To view the exported docs:\n\
         1. Unzip the archive.\n2. Open a terminal in the unzipped directory.\n3. Run `node serve.js`.\n4. Open `http://localhost:3000` in your browser.",
        3.0,
    )];
    let text = compose_answer("How do I view the exported docs?", &passages).text();
    assert!(
        text.contains("To view the exported docs: [1]\n\n1. Unzip the archive.\n2."),
        "{text}"
    );
    assert!(
        text.contains("4. Open `http://localhost:3000` in your browser."),
        "{text}"
    );
}

#[test]
fn label_lines_are_not_stitched_into_prose() {
    let passages = vec![passage(
        "components/color",
        "Color",
        "Table",
        "Organize colors into labeled rows for the primary palette.\nPrimary\nprimary-500\nprimary-600",
        0.6,
    )];
    let text = compose_answer("How do I show the primary color?", &passages).text();
    assert!(
        text.starts_with(
            "Organize colors into labeled rows for the primary palette. [1]\n\nSources:"
        ),
        "{text}"
    );
}

#[test]
fn cards_are_quoted_as_list_items_never_as_a_run_of_sentences() {
    // Shaped like a themes page: an HTML hero (eyebrow, title, tagline) and a grid of cards.
    let passages = vec![passage(
        "customize/themes",
        "Themes",
        "",
        "Core Concepts\nThemes\nCustomize the appearance of your documentation\nConfigure the theme in docs.json using one of the following themes.\n\
         Mint\nClassic documentation theme with familiar navigation.\nMaple\nModern, clean aesthetics for AI products.\n\
         Palm\nSophisticated fintech theme for enterprise documentation.\nLinden\nRetro terminal vibes with monospace fonts.",
        0.8,
    )];
    let text = compose_answer("Which documentation theme suits an enterprise?", &passages).text();
    assert!(
        text.contains("\n- Palm: Sophisticated fintech theme for enterprise documentation.\n"),
        "{text}"
    );
    assert!(
        !text.contains("Core Concepts") && !text.contains("navigation. Sophisticated"),
        "{text}"
    );
    let prose = text
        .lines()
        .filter(|l| !l.starts_with("- "))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        !prose.contains("fintech"),
        "a card's line is quoted in its item only: {text}"
    );
}

#[test]
fn an_faq_question_is_not_quoted_as_part_of_the_answer() {
    let passages = vec![passage(
        "billing",
        "Billing",
        "FAQ",
        "Why was I charged $59 for the education plan?\nThe education discount applies to yearly plans only, so a monthly plan is charged $59.",
        0.8,
    )];
    let text = compose_answer("Why was I charged $59 on the education plan?", &passages).text();
    assert!(
        text.starts_with("The education discount applies to yearly plans only"),
        "{text}"
    );
}

#[test]
fn a_line_without_final_punctuation_does_not_run_into_the_next_sentence() {
    let passages = vec![passage(
        "a",
        "Hero",
        "",
        "The documentation theme sets the appearance of your site.\nCustomize the appearance of your documentation site\nConfigure the documentation theme in docs.json.",
        0.8,
    )];
    let text = compose_answer(
        "How do I customize the documentation theme appearance?",
        &passages,
    )
    .text();
    assert!(text.contains("documentation site. Configure the"), "{text}");
}

#[test]
fn the_answer_does_not_open_with_a_callout_a_pointer_or_a_sentence_that_refers_back() {
    let hidden = vec![passage(
        "organize/hidden-pages",
        "Hidden pages",
        "",
        "Hidden pages don't appear in your site's navigation, but anyone who knows the URL can still access them.\n\
         See an example of a hidden page.\n\
         > Some navigation elements like sidebars may appear empty on hidden pages.",
        0.8,
    )];
    let text = compose_answer(
        "Can I hide a page from the sidebar but keep it accessible?",
        &hidden,
    )
    .text();
    assert!(
        text.starts_with("Hidden pages don't appear in your site's navigation"),
        "{text}"
    );
    // The aside and the pointer are still quoted, after the lead.
    assert!(
        text.contains("See an example of a hidden page. Some navigation elements like sidebars"),
        "{text}"
    );

    let merge = vec![passage(
        "automations/github",
        "GitHub",
        "Automatic merges",
        "This lets automations merge their pull requests automatically.\n\
         Add the GitHub App to the ruleset's bypass list so automations can merge pull requests.",
        0.8,
    )];
    let text = compose_answer(
        "How do I let automations merge their pull requests automatically?",
        &merge,
    )
    .text();
    assert!(text.starts_with("Add the GitHub App"), "{text}");
}

#[test]
fn a_lead_ending_in_a_colon_keeps_its_list_right_after_it() {
    let passages = vec![passage(
        "cli/install",
        "Install the CLI",
        "Troubleshooting",
        "This may be due to an outdated version of Node.js. Try the following steps to upgrade Node.js:\n\
         1. Remove the mint CLI.\n\
         2. Upgrade to Node.js v20.17.0 or later.\n\
         3. Reinstall the mint CLI.",
        0.8,
    )];
    let text = compose_answer("How do I upgrade Node.js for the mint CLI?", &passages).text();
    // An intro that says something leads, its list at once after it.
    assert!(
        text.starts_with(
            "Try the following steps to upgrade Node.js: [1]\n\n1. Remove the mint CLI."
        ),
        "{text}"
    );

    // A bare intro ("Try the following:") does not lead while another sentence can.
    let bare = vec![passage(
        "cli/install",
        "Install the CLI",
        "Troubleshooting",
        "An outdated Node.js version breaks the mint CLI. Try the following:\n\
         1. Remove the mint CLI.\n\
         2. Upgrade to Node.js v20.17.0 or later.",
        0.8,
    )];
    let text = compose_answer("How do I upgrade Node.js for the mint CLI?", &bare).text();
    assert!(
        text.starts_with(
            "An outdated Node.js version breaks the mint CLI. Try the following: [1]\n\n1. Remove"
        ),
        "{text}"
    );
}

#[test]
fn an_intro_whose_block_is_not_quoted_is_dropped() {
    // The second passage's snippet is not quoted (one per answer), so its intro is not either.
    let passages = vec![
        passage("a", "Domains", "", "Add a custom domain in the dashboard:\n```\nmint add-domain docs.example.com\n```", 0.8),
        passage("b", "Subpath", "", "Add a custom domain at a subpath:\n```\nmint add-domain example.com --basePath /docs\n```", 0.7),
    ];
    let text = compose_answer("How do I add a custom domain?", &passages).text();
    assert!(!text.contains("at a subpath:"), "{text}");
    assert_eq!(text.matches("```").count(), 2, "{text}");
}

#[test]
fn a_passage_that_only_points_elsewhere_does_not_open_the_answer() {
    let passages = vec![
        passage(
            "assistant/use",
            "Use the assistant",
            "Self-hosting",
            "If you self-host behind a reverse proxy that overwrites the default CSP, see CSP configuration for the domains to allow.",
            0.8,
        ),
        passage(
            "deploy/csp-configuration",
            "CSP configuration",
            "",
            "If you host your documentation behind a reverse proxy that overwrites the default CSP, you may need to configure CSP headers.",
            0.75,
        ),
    ];
    let answer = compose_answer(
        "Which CSP directives do I need behind a reverse proxy?",
        &passages,
    );
    let text = answer.text();
    assert!(
        text.starts_with("If you host your documentation behind a reverse proxy"),
        "{text}"
    );
    // Both are still quoted, numbered in the order they appear.
    assert_eq!(answer.sources, vec![1, 0], "{text}");
}

#[test]
fn a_title_line_is_not_quoted_as_filler_beside_sentences() {
    let passages = vec![passage(
        "components/badge",
        "Badge",
        "Colors",
        "Badges support multiple color variants to convey different meanings.\n\
         Badge Badge Badge Badge Badge Badge Badge",
        0.8,
    )];
    let text = compose_answer("What colors can a Badge have?", &passages).text();
    assert!(
        text.starts_with("Badges support multiple color variants"),
        "{text}"
    );
    assert!(!text.contains("Badge Badge"), "{text}");
}

#[test]
fn a_lone_short_lead_brings_what_follows_it() {
    let passages = vec![passage(
        "errors",
        "Custom 404 page",
        "",
        "You can customize the title and description of the 404 error page.\n\nSet `errors.404.title` in docs.json to change the heading.",
        0.9,
    )];
    let text = compose_answer("customize 404 page title", &passages).text();
    assert!(text.starts_with("You can customize the title"), "{text}");
    assert!(text.contains("`errors.404.title`"), "{text}");
}

#[test]
fn a_how_question_leads_with_the_sentence_that_names_the_setting() {
    // The two sentences match the question's words equally; the one naming the setting is what the
    // reader acts on, and leads.
    let p = passage(
        "deployment/gateway",
        "Deploy the gateway",
        "Ports",
        "Run the gateway with Docker and the gateway listens on port 3000.\n\n\
         To use another port, set `gateway.bind_address` in the configuration file.",
        5.0,
    );
    let text = compose_answer("How do I run the gateway on another port?", &[p]).text();
    assert!(
        text.starts_with("To use another port, set `gateway.bind_address`"),
        "{text}"
    );
}

#[test]
fn the_best_sentence_brings_the_table_it_introduces() {
    // The rows share no word with the question; they are the answer the sentence announces.
    let p = passage(
        "knowledge/limits",
        "Knowledge request limits",
        "Limits by plan",
        "Each plan has its own request rate limit per minute, counted over every knowledge base of the workspace, and a workspace over it waits until the next minute starts.\n\n- Sandbox — 10\n- Professional — 100\n- Team — 1,000",
        5.0,
    );
    let text = compose_answer("What is the request rate limit of each plan?", &[p]).text();
    assert!(
        text.contains("Each plan has its own request rate limit")
            && text.contains("- Sandbox — 10"),
        "{text}"
    );
}

#[test]
fn an_endpoint_page_quote_opens_with_its_method_and_path() {
    let passages = vec![passage(
        "api/prompts/deployed",
        "Get the deployed prompt version",
        "",
        "`GET /prompts/v2/deployment`\nReturns the prompt version deployed to an environment, given the prompt's name and the environment's name.",
        5.0,
    )];
    let answer = compose_answer(
        "Which endpoint returns the prompt version deployed to an environment?",
        &passages,
    );
    let text = answer.text();
    assert!(
        text.starts_with("`GET /prompts/v2/deployment`\n\nReturns the prompt version deployed"),
        "{text}"
    );
    assert_eq!(text.matches("/prompts/v2/deployment").count(), 1, "{text}");
    assert!(
        !is_endpoint_line("`npm install`")
            && !is_endpoint_line("`GET users`")
            && is_endpoint_line("`WEBHOOK order.created`")
    );
}

#[test]
fn an_operation_s_body_quoted_without_its_intro_names_the_call_it_belongs_to() {
    let mut body = passage(
        "api-reference/post-report",
        "Report",
        "Request body",
        "- `requestedAt` (number): Unix timestamp in milliseconds\n- `reqPayload` (any): JSON-encoded request payload",
        5.0,
    );
    body.anchor = crate::docs::endpoint::REQUEST_BODY_ANCHOR.into();
    let intro = passage(
        "api-reference/post-report",
        "Report",
        "",
        "`POST /report`\nRecord a request.",
        4.0,
    );
    let question = "Which fields does the report request body take?";
    let text = compose_answer(question, &[body.clone(), intro]).text();
    assert!(text.contains("`POST /report`"), "{text}");
    assert_eq!(text.matches("/report`").count(), 1, "{text}");
    // Without the intro among the passages there is no call to name, and none is made up.
    let alone = compose_answer(question, &[body]).text();
    assert!(!alone.contains("POST"), "{alone}");
}

#[test]
fn a_short_lead_section_is_quoted_whole() {
    let steps = "When the server runs on another machine:\n\
                 1. Make the server listen on every interface:\n\
                 - Set `LISTEN_ADDR=0.0.0.0:8080`\n\
                 ```\nEnvironment=\"LISTEN_ADDR=0.0.0.0:8080\"\n```\n\
                 - Restart the service.\n\
                 2. Point the client at it:\n\
                 ```yaml\nserver: http://10.0.0.5:8080\n```\n\
                 3. Open port 8080 in the firewall.";
    let p = passage(
        "faq",
        "FAQ",
        "Connection refused from another machine",
        steps,
        2.0,
    );
    let text = compose_answer(
        "The client gets connection refused from my laptop, what must change on both machines?",
        &[p],
    )
    .text();
    for part in [
        "LISTEN_ADDR=0.0.0.0:8080",
        "Restart the service",
        "server: http://10.0.0.5:8080",
        "Open port 8080",
    ] {
        assert!(text.contains(part), "{part}: {text}");
    }
}

#[test]
fn a_thin_page_intro_goes_on_with_the_page_s_next_retrieved_section() {
    let passages = vec![
        passage(
            "webhooks",
            "Webhooks",
            "",
            "You can set up webhooks on agents so that you can listen to events in realtime.",
            0.47,
        ),
        passage(
            "numbers",
            "Numbers",
            "",
            "Attach a number to an agent to take calls.",
            0.40,
        ),
        // Shares no word with the question: relevance alone would leave it out.
        passage(
            "webhooks",
            "Webhooks",
            "Event types",
            "The full list:\n- `EVENT_MESSAGE`: A message in the conversation.\n- `EVENT_ACTION`: An action taken.",
            0.30,
        ),
    ];
    let answer = compose_answer(
        "Which events can a webhook on an agent subscribe to?",
        &passages,
    );
    let text = answer.text();
    let (intro, rest) = text.split_once("\n\n").unwrap();
    assert!(
        intro.starts_with("You can set up webhooks"),
        "{}",
        answer.text()
    );
    assert!(
        rest.contains("The full list: [2]\n\n- `EVENT_MESSAGE`"),
        "{}",
        answer.text()
    );
    assert!(
        answer.text().contains("[Webhooks › Event types]"),
        "{}",
        answer.text()
    );
}

#[test]
fn a_symptom_that_shows_the_pasted_error_goes_on_with_the_page_s_solution() {
    let passages = vec![
        passage(
            "troubleshooting/econnreset",
            "Error read ECONNRESET",
            "Symptom",
            "The client can not connect, throwing an exception similar to:\n```\n[ioredis] Unhandled error event: Error: read ECONNRESET\n```",
            0.6,
        ),
        // What retrieval reads on into ([`crate::search::Query::follow_top`]): it shares no word
        // with the question.
        passage(
            "troubleshooting/econnreset",
            "Error read ECONNRESET",
            "Solution",
            "Check your connection parameters and enable TLS: a Redis URL should start with `rediss://`.",
            0.1,
        ),
    ];
    let answer = compose_answer(
        "My app crashes with `[ioredis] Unhandled error event: Error: read ECONNRESET` right after connecting. What's wrong?",
        &passages,
    );
    let text = answer.text();
    assert!(text.contains("`rediss://`. [2]"), "{text}");
    assert!(
        text.find("Unhandled error event") < text.find("rediss"),
        "{text}"
    );
}

#[test]
fn a_lead_that_says_enough_does_not_pull_in_another_section() {
    let long = "You can set up webhooks on agents so that you can listen to events in realtime, \
                and every event arrives as a signed JSON body with its type, the conversation's id \
                and a timestamp. Deliveries are retried with backoff for a day when your endpoint \
                fails to answer with a 2xx, and each one carries a signature header to verify.";
    let passages = vec![
        passage("webhooks", "Webhooks", "", long, 0.47),
        passage(
            "webhooks",
            "Webhooks",
            "Event types",
            "The full list:\n- Message: a message arrived.",
            0.30,
        ),
    ];
    let answer = compose_answer(
        "Which events can a webhook on an agent subscribe to?",
        &passages,
    );
    assert!(
        !answer.text().contains("a message arrived"),
        "{}",
        answer.text()
    );
}

#[test]
fn a_sentence_that_names_nothing_goes_on_to_another_page_s_command() {
    let passages = vec![
        passage(
            "quick-start",
            "Quick start",
            "CLI",
            "The CLI is a command-line tool that runs your collection tests in CI pipelines.",
            0.4,
        ),
        passage(
            "cli/overview",
            "CLI",
            "Run tests",
            "Run a collection's tests from the command line:\n```\nhopp test collection.json\n```",
            0.2,
        ),
    ];
    let question = "run collection tests in CI from the command line";
    let text = compose_answer(question, &passages).text();
    assert!(text.contains("hopp test collection.json"), "{text}");
    // An answer hedged as the closest the docs come is not padded from a further page.
    let close: Vec<Passage> = passages
        .into_iter()
        .map(|p| Passage { coverage: 0.3, ..p })
        .collect();
    let text = compose_answer(question, &close).text();
    assert!(!text.contains("hopp test"), "{text}");
}

#[test]
fn an_answer_that_only_restates_the_symptom_goes_on_to_what_to_set() {
    let passages = vec![
        passage(
            "troubleshooting",
            "Troubleshooting",
            "SSL certificate errors",
            "If the endpoint's certificate cannot be verified, you may see `fetch failed` with errors such as:\n\
             - `self signed certificate in certificate chain`\n\
             - `CERT_UNTRUSTED`\n\n\
             This happens with a private certificate authority.",
            0.5,
        ),
        passage(
            "troubleshooting",
            "Troubleshooting",
            "Fix the chain",
            "If your logs include `self signed certificate in certificate chain`, the chain was not trusted. \
             The fix is to set `requestOptions.caBundlePath` to your certificate file. \
             For diagnosis, see the certificates FAQ.",
            0.3,
        ),
        passage(
            "faqs",
            "FAQs",
            "Certificates",
            "A self signed certificate needs `NODE_EXTRA_CA_CERTS` set.",
            0.3,
        ),
    ];
    let text = compose_answer("self signed certificate fetch failed", &passages).text();
    assert!(text.contains("requestOptions.caBundlePath"), "{text}");
    assert!(!text.contains("For diagnosis"), "{text}");
    // Another page would be another source for one line.
    assert!(!text.contains("NODE_EXTRA_CA_CERTS"), "{text}");
    // A question answered by a name already is left alone.
    let named = vec![passage(
        "faqs",
        "FAQs",
        "Certificates",
        "Set `requestOptions.caBundlePath` when a self signed certificate fails.",
        0.5,
    )];
    let text = compose_answer("self signed certificate fetch failed", &named).text();
    assert!(!text.contains("[2]"), "{text}");
}

#[test]
fn a_diagram_s_source_is_never_the_answer_s_snippet() {
    let passages = vec![passage(
        "idempotency",
        "Idempotency",
        "Why use idempotency keys?",
        "Without idempotency keys, each retry of the parent triggers a new child task:\n```\nsequenceDiagram\n    Parent->>SDK: trigger(childTask, {idempotencyKey})\n```\nPass an idempotency key when you trigger the child task:\n```ts\nawait childTask.trigger(data, { idempotencyKey });\n```",
        0.6,
    )];
    let answer = compose_answer(
        "How do I stop a retried parent task from triggering the child task twice?",
        &passages,
    );
    let text = answer.text();
    assert!(!text.contains("sequenceDiagram"), "{text}");
    assert!(
        text.contains("await childTask.trigger(data, { idempotencyKey });"),
        "{text}"
    );
}

#[test]
fn the_row_defining_the_asked_identifier_is_quoted_without_the_rest_of_its_table() {
    let passages = vec![
        passage(
            "features/fast-scraping",
            "Faster Scraping",
            "Cache hit matching",
            "For a cache hit, these parameters must match: `url`, `mobile`, `waitFor` and `blockAds`.",
            0.53,
        ),
        passage(
            "advanced-scraping-guide",
            "Advanced Scraping Guide",
            "Timing and cache",
            "| Parameter | Type | Default | Description |\n| --- | --- | --- | --- |\n\
             | `waitFor` | `integer` (ms) | `0` | Extra wait time before scraping, on top of smart-wait. |\n\
             | `maxAge` | `integer` (ms) | `172800000` | Return a cached version if fresher than this. |\n\
             | `timeout` | `integer` (ms) | `60000` | Max request duration before aborting. |",
            0.47,
        ),
    ];
    let text = compose_answer("what does the waitFor parameter do", &passages).text();
    assert!(
        text.contains("- `waitFor` — `integer` (ms) — `0` — Extra wait time before scraping"),
        "{text}"
    );
    assert!(!text.contains("maxAge"), "{text}");
    // A question naming several of a list's identifiers asks about the list: it stays whole.
    let text = compose_answer("waitFor or maxAge or timeout parameter", &passages).text();
    assert!(
        text.contains("`maxAge`") && text.contains("`timeout`"),
        "{text}"
    );
}

#[test]
fn the_section_whose_heading_names_the_pasted_error_leads() {
    let passages = vec![
        passage(
            "faqs",
            "FAQs",
            "Parse errors with a remote model",
            "Pull the model on the remote machine:\n```\nOLLAMA_HOST=192.168.1.136:11434 ollama pull llama3\n```",
            0.125,
        ),
        passage(
            "faqs",
            "FAQs",
            "Connection failed to remote Ollama (EHOSTUNREACH/ECONNREFUSED)",
            "Make Ollama listen on every interface of the server with `OLLAMA_HOST=0.0.0.0:11434`, \
             then point Continue at the server's address.",
            0.106,
        ),
    ];
    // The retrieval query of a long question: the ask, then the symptom sentence and the setup's names.
    let text = compose_answer(
        "`ollama list` works on the server, but from 192.168.1.136 i just get `econnrefused`.",
        &passages,
    )
    .text();
    assert!(
        text.starts_with("Make Ollama listen on every interface"),
        "{text}"
    );
}

#[test]
fn a_reference_section_headed_by_an_identifier_is_quoted_under_its_name() {
    let reference = |heading: &str| {
        vec![passage(
            "python-sdk/rate_limiting",
            "rate_limiting",
            heading,
            "Uses a token bucket algorithm by default, allowing 10 requests per second with bursts of 20.",
            0.5,
        )]
    };
    let question = "What are the default limits of the rate limiter?";
    let text = compose_answer(question, &reference("RateLimitingMiddleware")).text();
    assert!(
        text.starts_with("`RateLimitingMiddleware`\n\nUses a token bucket algorithm"),
        "{text}"
    );
    // An acronym, a heading of words or a version is no identifier.
    for heading in ["FAQ", "Rate limits", "v2.14"] {
        let text = compose_answer(question, &reference(heading)).text();
        assert!(text.starts_with("Uses a token bucket algorithm"), "{text}");
    }
}

#[test]
fn the_passage_holding_the_names_the_question_writes_leads() {
    // Both pages say what happens when OpenAI fails; only the second is about Azure, which the
    // question names. The first holds more of the question's words in its sentence and ranks
    // higher, but a passage that never names what the question names is about something else.
    let passages = vec![
        passage(
            "operations/credentials",
            "Manage credentials",
            "Configure credential fallbacks",
            "If the primary OpenAI credential fails, the gateway will fall back to the credential in the `fallback` field. \
             The gateway will first try the dynamic credential.",
            9.0,
        ),
        passage(
            "guides/retries-fallbacks",
            "Retries and fallbacks",
            "Provider order",
            "The gateway falls back from OpenAI to Azure in the order of the `routing` field.",
            8.5,
        ),
    ];
    let answer = compose_answer(
        "How do I make the gateway fall back to Azure when OpenAI fails for the same model?",
        &passages,
    );
    let text = answer.text();
    assert_eq!(answer.sources.first(), Some(&1), "{text}");
    assert!(
        text.starts_with("The gateway falls back from OpenAI to Azure"),
        "{text}"
    );
}

#[test]
fn a_snippet_from_another_page_comes_with_the_sentence_naming_what_it_needs() {
    // The lead restates the question and names nothing; the snippet taken from another page says
    // what to call, and its page's sentence what to set first.
    let passages = vec![
        passage(
            "sdk",
            "Installing the SDK",
            "",
            "You'll use this same SDK to call your own fine-tuned models once they're deployed.",
            0.9,
        ),
        passage(
            "inference",
            "Running inference",
            "",
            "Once the SDK is installed and you've added `OPENPIPE_API_KEY` to your environment, you're almost done.\n\
             ```python\n# call the fine-tuned model\nclient.chat.completions.create(model=\"openpipe:my-fine-tuned-model\")\n```",
            0.3,
        ),
    ];
    let text = compose_answer(
        "How do I call my fine-tuned model once it's deployed?",
        &passages,
    )
    .text();
    assert!(text.contains("openpipe:my-fine-tuned-model"), "{text}");
    assert!(text.contains("`OPENPIPE_API_KEY`"), "{text}");
}
