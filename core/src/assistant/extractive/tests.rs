use super::*;

fn passage(path: &str, title: &str, heading: &str, text: &str, score: f32) -> Passage {
    Passage {
        path: path.into(),
        url: format!("https://docs.example.com/{path}"),
        title: title.into(),
        heading: heading.into(),
        anchor: heading.to_lowercase().replace(' ', "-"),
        text: text.into(),
        score,
        coverage: 1.0,
    }
}

/// Shaped like the fixture's static export pages, with the MDX the docs parser may leave in.
fn static_export_passages() -> Vec<Passage> {
    vec![
        passage(
            "deploy/export",
            "Offline export",
            "Export your site",
            "Navigate to your documentation directory containing your `docs.json` file and run:\n\
             ```bash\nmint export\n```\n\
             The CLI builds your site, crawls every page defined in your navigation, and packages the output into a zip file.",
            9.1,
        ),
        passage(
            "api/static-export/overview",
            "Static export",
            "How static export works",
            "A static export runs as an asynchronous job. You start the job, poll for its status, and then generate a downloadable bundle once the job completes.\n\
             <Steps>\n\
             <Step title=\"Start a static export job\">\n\
             Call [Start static export job](/api/static-export/start-job) with the domain you want to export. The API queues the job and returns a `jobId`.\n\
             </Step>\n\
             <Step title=\"Generate the bundle\">\n\
             Call [Generate export bundle](/api/static-export/generate-bundle) with the `jobId`. The API returns `bundleUrl`, a presigned S3 link to the static export bundle, alongside an `expiresAt` timestamp. Download the bundle before the `expiresAt` time. Only the link is time-limited.\n\
             </Step>\n\
             </Steps>",
            8.7,
        ),
        passage(
            "api/static-export/start-job",
            "Start static export job",
            "",
            "<Info>\n  This endpoint is in private beta and requires an enterprise agreement.\n</Info>\n\
             Start a static export job for a deployment. The API queues the job and returns a `jobId` you poll for status.\n\
             ```bash cURL\n\
             curl -X POST https://api.mintlify.com/v1/static-export/jobs \\\n  -H \"Authorization: Bearer mint_xxx\" \\\n  -d '{\"domain\": \"docs.example.com\"}'\n\
             ```",
            8.2,
        ),
        passage(
            "analytics/overview",
            "Analytics",
            "",
            "See how readers use your docs: page views, searches and feedback. <Icon icon=\"check\" color=\"#16a34a\" />",
            2.0,
        ),
    ]
}

#[test]
fn cites_the_passage_that_contains_the_answer() {
    let passages = static_export_passages();
    let answer = compose_answer("How long is the bundle link valid?", &passages);
    let text = answer.text();
    assert!(answer.covered);
    assert_eq!(answer.sources.first(), Some(&1), "{text}");
    assert!(text.contains("expiresAt"), "{text}");
    assert!(text.contains(" [1]"), "{text}");
    assert!(text.contains("1. [Static export › How static export works](https://docs.example.com/api/static-export/overview#how-static-export-works)"), "{text}");
    assert!(!answer.sources.contains(&3), "unrelated page cited: {text}");
}

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
fn says_not_covered_for_an_unrelated_question() {
    let answer = compose_answer(
        "What is the best sourdough bread recipe?",
        &static_export_passages(),
    );
    let text = answer.text();
    assert!(!answer.covered);
    assert!(answer.sources.is_empty());
    assert!(
        text.starts_with("The documentation doesn't cover this question."),
        "{text}"
    );
    assert!(
        text.contains("- [Offline export](https://docs.example.com/deploy/export)"),
        "{text}"
    );
}

#[test]
fn not_covered_when_retrieval_misses_the_question_s_rare_terms() {
    // "How do I export the bundle to Dropbox?": the passages match "export" and "bundle" but not
    // "Dropbox", a name no page mentions; retrieval reports that as coverage 0 on every hit.
    let unknown: Vec<Passage> = static_export_passages()
        .into_iter()
        .map(|p| Passage {
            coverage: 0.0,
            score: 0.9,
            ..p
        })
        .collect();
    let answer = compose_answer("How do I export the bundle to Dropbox?", &unknown);
    assert!(!answer.covered && !answer.uncertain);
    assert!(answer.sources.is_empty());
    assert!(
        answer.text().contains("- [Offline export]"),
        "{}",
        answer.text()
    );
    // Far from the question (a few common words): refused as well.
    let far: Vec<Passage> = unknown
        .iter()
        .map(|p| Passage {
            coverage: 0.1,
            score: 0.3,
            ..p.clone()
        })
        .collect();
    assert!(!compose_answer("How do I export the bundle to Dropbox?", &far).covered);
    // The same passages with the rare term matched by one of them answer.
    let mut strong: Vec<Passage> = unknown
        .iter()
        .map(|p| Passage {
            coverage: 0.3,
            score: 0.6,
            ..p.clone()
        })
        .collect();
    strong[0].coverage = 0.8;
    strong[0]
        .text
        .push_str("\nThe bundle can be copied to Dropbox once it is ready.");
    let sure = compose_answer("How do I export the bundle to Dropbox?", &strong);
    assert!(sure.covered && !sure.uncertain, "{}", sure.text());
    assert!(
        !sure
            .text()
            .starts_with("The docs don't state this directly"),
        "{}",
        sure.text()
    );
}

#[test]
fn a_close_passage_is_quoted_as_the_closest_and_marked_uncertain() {
    // Every passage holds part of what is asked and none covers it: the answer quotes the best and
    // says first that the docs do not state it directly.
    let close: Vec<Passage> = static_export_passages()
        .into_iter()
        .map(|p| Passage {
            coverage: 0.3,
            score: 0.6,
            ..p
        })
        .collect();
    let answer = compose_answer("How long is the bundle link valid?", &close);
    let text = answer.text();
    assert!(answer.covered && answer.uncertain, "{text}");
    assert!(
        text.starts_with("The docs don't state this directly; the closest is Static export"),
        "{text}"
    );
    assert!(
        text.contains("expiresAt") && text.contains(" [1]"),
        "{text}"
    );
    assert!(!answer.sources.is_empty());
    // The opening follows the question's script.
    assert!(Words::for_question("导出包的链接有效期多长？")
        .closest_is("静态导出")
        .starts_with("文档中没有直接说明这一点"));
    assert!(Words::for_question("リンクの有効期限は？")
        .closest_is("x")
        .starts_with("ドキュメントには直接の記載がありません"));
}

#[test]
fn not_covered_when_scores_are_below_threshold() {
    let opts = ExtractiveOptions {
        min_score: 10.0,
        ..Default::default()
    };
    let answer = compose_answer_with(
        "How long is the bundle link valid?",
        &static_export_passages(),
        &opts,
    );
    assert!(!answer.covered);
}

#[test]
fn same_input_twice_gives_the_same_output() {
    let passages = static_export_passages();
    for q in [
        "How do I start a static export job?",
        "How long is the bundle link valid?",
        "静态导出",
        "",
    ] {
        assert_eq!(compose_answer(q, &passages), compose_answer(q, &passages));
    }
}

#[test]
fn chunks_concatenate_to_the_full_text() {
    let answer = compose_answer(
        "How do I start a static export job?",
        &static_export_passages(),
    );
    assert!(answer.chunks.len() > 5);
    assert_eq!(answer.chunks.concat(), answer.text());
    assert!(answer.chunks.iter().all(|c| !c.is_empty()));
}

#[test]
fn does_not_echo_mdx_or_relative_links() {
    let answer = compose_answer(
        "How do I generate the export bundle with the jobId?",
        &static_export_passages(),
    );
    let text = answer.text();
    assert!(answer.covered, "{text}");
    for markup in ["<Step", "</Step", "<Info", "<Icon", "](/api", "{/*"] {
        assert!(!text.contains(markup), "{markup} in {text}");
    }
    assert!(text.contains("Generate export bundle"), "{text}");
}

#[test]
fn prose_is_capped() {
    let long: String = (0..200)
        .map(|i| format!("The bundle link sentence number {i} is valid. "))
        .collect();
    let passages = vec![
        passage("a", "A", "", &long, 1.0),
        passage("b", "B", "", &long, 1.0),
    ];
    let answer = compose_answer("How long is the bundle link valid?", &passages);
    let text = answer.text();
    let prose = text.split("Sources:").next().unwrap();
    assert!(prose.chars().count() < 1400, "{}", prose.chars().count());
}

#[test]
fn handles_chinese() {
    let passages = vec![passage(
        "zh/api/static-export/overview",
        "静态导出",
        "静态导出的工作原理",
        "静态导出以异步作业的形式运行。你启动作业、轮询其状态，然后在作业完成后生成可下载的包。\n\
         <Step title=\"生成包\">\n\
         使用 `jobId` 调用 [生成导出包](/zh/api/static-export/generate-bundle)。API 会将导出打包为单个归档文件，并返回 `bundleUrl`（即静态导出包的预签名 S3 链接）以及 `expiresAt` 时间戳。请在 `expiresAt` 之前下载该包——过期后，可再次调用生成导出包获取新的链接。仅链接有时限。\n\
         </Step>",
        5.0,
    )];
    let answer = compose_answer("导出包的链接有效期多长？", &passages);
    let text = answer.text();
    assert!(answer.covered, "{text}");
    assert_eq!(answer.sources, vec![0]);
    assert!(text.contains("链接"), "{text}");
    assert!(text.contains("来源："), "{text}");
    assert!(!text.contains("<Step"), "{text}");
    assert_eq!(answer.chunks.concat(), text);

    let unrelated = compose_answer("如何烤面包？", &passages);
    assert!(!unrelated.covered, "{}", unrelated.text());
    assert!(unrelated.text().starts_with("文档中没有涉及这个问题。"));
}

#[test]
fn labels_follow_the_questions_language_japanese_by_its_kana() {
    let passages = vec![passage(
        "ja/api/static-export/overview",
        "静的エクスポート",
        "仕組み",
        "静的エクスポートは非同期ジョブとして実行されます。ジョブを開始し、状態をポーリングして、完了後にバンドルを生成します。",
        5.0,
    )];
    let answer = compose_answer("静的エクスポートはどのように実行されますか？", &passages);
    let text = answer.text();
    assert!(answer.covered, "{text}");
    assert!(text.contains("出典："), "{text}");
    assert!(!text.contains("来源"), "{text}");
    let unrelated = compose_answer("パンの焼き方は？", &passages);
    assert!(
        unrelated
            .text()
            .starts_with("この質問はドキュメントで扱っていません。"),
        "{}",
        unrelated.text()
    );
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
fn odd_input_never_panics() {
    let weird = [
        "",
        "   ",
        "???",
        "🙂🙂🙂",
        "```",
        "```rust\nfn main() {",
        "<<<>>>[[[]]]((()))",
        "[unclosed](",
        "<Tag attr=\"unclosed",
        "|||\n|-|\n|",
        "1.\n-\n*",
        "。。。！？",
        "é\u{301}\u{0}\u{200b}",
    ];
    for q in weird {
        for t in weird {
            let passages = vec![
                passage("p", t, t, t, f32::NAN),
                passage(t, "", "", t, -1.0),
                passage("x", "X", "", t, 1.0),
            ];
            let a = compose_answer(q, &passages);
            assert_eq!(a.chunks.concat(), a.text());
            let _ = compose_answer(q, &[]);
            let _ = compose_answer(t, &passages[..1]);
        }
    }
    let empty = compose_answer("How do I start a job?", &[]);
    assert!(!empty.covered);
    assert_eq!(
        empty.text(),
        "The documentation doesn't cover this question."
    );
}

#[test]
fn large_passages_give_a_short_answer() {
    let text: String = (0..3000)
        .map(|i| format!("Sentence {i} about the static export bundle link and job status. "))
        .collect();
    let passages: Vec<Passage> = (0..8)
        .map(|i| passage(&format!("p{i}"), "Static export", "", &text, 1.0))
        .collect();
    let answer = compose_answer(
        "How long is the static export bundle link valid?",
        &passages,
    );
    assert!(answer.covered);
    // 24,000 candidate sentences, an answer of a few quotes: the size is bounded, not the input's.
    let text = answer.text();
    assert!(text.len() < 4_000, "{} bytes", text.len());
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

/// Two pages that both say how webhooks start a run; only the retrieval score of the second differs.
fn webhook_passages(other_score: f32) -> Vec<Passage> {
    vec![
        passage(
            "nodes/webhook-trigger",
            "Webhook trigger",
            "",
            "A webhook trigger starts a workflow run whenever a third-party service sends a request to its URL.",
            0.8,
        ),
        passage(
            "plugins/trigger-plugin",
            "Trigger plugins",
            "",
            "A trigger plugin can also start a workflow run when a third-party service sends a webhook request.",
            other_score,
        ),
    ]
}

#[test]
fn a_page_retrieval_scored_far_below_the_lead_is_not_cited() {
    let question = "How do I start a workflow run from a third-party webhook?";
    let weak = compose_answer(question, &webhook_passages(0.3));
    assert_eq!(weak.sources, vec![0], "{}", weak.text());
    // The same quote from a page retrieval scored close to the lead's supports the answer.
    let strong = compose_answer(question, &webhook_passages(0.75));
    assert_eq!(strong.sources, vec![0, 1], "{}", strong.text());
}

#[test]
fn another_section_of_the_lead_page_needs_no_retrieval_support() {
    let mut passages = webhook_passages(0.3);
    passages[1].path = passages[0].path.clone();
    passages[1].heading = "Third-party services".into();
    let answer = compose_answer(
        "How do I start a workflow run from a third-party webhook?",
        &passages,
    );
    assert_eq!(answer.sources, vec![0, 1], "{}", answer.text());
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
fn a_passage_holding_only_the_rare_term_is_quoted_as_the_closest() {
    // Retrieval finds the question's rarest term ("cached") and little else; the passage shares one
    // of the question's four words, too few to count as relevant, but it is where the answer is.
    let passages = [passage(
        "client/request-caching",
        "Request caching",
        "",
        "Enable caching with the cache header.\nRequests will be cached for 3 days by default. This is currently not configurable.",
        0.17,
    )];
    let weak = vec![Passage {
        coverage: 0.47,
        ..passages[0].clone()
    }];
    let answer = compose_answer("how long are cached responses kept", &weak);
    let text = answer.text();
    assert!(answer.covered && answer.uncertain, "{text}");
    assert!(text.contains("3 days"), "{text}");
    // Far by retrieval's measure as well: refused.
    let far = vec![Passage {
        coverage: 0.1,
        ..passages[0].clone()
    }];
    assert!(!compose_answer("how long are cached responses kept", &far).covered);
}

#[test]
fn a_sentence_a_page_repeats_is_quoted_once() {
    let passages = vec![passage(
        "io",
        "IO config",
        "",
        "For details about io_config.yaml files, see the setup guide.\n\nThe io_config.yaml file sits in the project folder.\n\nFor details about io_config.yaml files, see the setup guide.",
        0.9,
    )];
    let text = compose_answer("where does the io_config.yaml file go", &passages).text();
    assert_eq!(
        text.matches("For details about io_config.yaml files")
            .count(),
        1,
        "{text}"
    );
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
fn a_name_the_passages_hold_only_as_another_word_makes_the_answer_uncertain() {
    let steps = vec![passage(
        "nodes/code",
        "Code node",
        "Write a script",
        "Go to the Code node and write your script in Python or JavaScript. \
         The script can go through each item of the input.",
        0.6,
    )];
    let answer = compose_answer("Can I write Code node scripts in Go?", &steps);
    assert!(answer.covered && answer.uncertain, "{}", answer.text());
    // Held as a name (a list of providers, code, a heading), it is met.
    for text in [
        "Providers the editor supports:\n- OpenAI\n- Go (Coming Soon)",
        "Write Code node scripts with the `go` runtime.",
    ] {
        let held = vec![passage(
            "nodes/code",
            "Code node",
            "Write a script",
            text,
            0.6,
        )];
        let answer = compose_answer("Can I write Code node scripts in Go?", &held);
        assert!(!answer.uncertain, "{text}: {}", answer.text());
    }
    // An acronym is often written in lower case in code and paths (`.pdf`, `json`).
    let pdf = vec![passage(
        "files",
        "Files",
        "Static files",
        "Files such as `guide.pdf` in the repository are served as they are.",
        0.6,
    )];
    assert!(!compose_answer("Can I serve PDF files?", &pdf).uncertain);
}
