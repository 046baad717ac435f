//! The answer as bytes: deterministic, streamed in pieces, free of MDX, capped, in the question's
//! language, and never a panic on odd input.

use super::*;

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
