//! Tests of the extractive answer, by topic; the passages several topics build on are here.

use super::endpoint::is_endpoint_line;
use super::*;

mod citations;
mod code;
mod coverage;
mod output;
mod quoting;

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
