//! Hosted sites, served: a GET or HEAD that no API route matches, whose `Host` is a hosted domain,
//! gets the file of the domain's live export straight from R2, with no rendering: pages at their
//! extensionless URLs, a folder's page with its slash, the `.md` beside a page for
//! `Accept: text/markdown`, the site's redirects (its `_redirects`, read on a miss only), and the
//! export's 404 page with status 404. A preview (`docs_edge_core::publish::preview`) is served the
//! same way at its own hostname, whose pointer marks every response `noindex`. Which file a URL
//! names and the headers every file carries are core's (`docs_edge_core::http::site_paths`, `site_headers`), as docs-edge-serve serves them.
//!
//! A large file stored as segments (`docs_edge_core::export::segments`) streams its segments in
//! order, each from the export holding it.
//!
//! Each response reads the live pointer once (kept per isolate for [`POINTER_TTL_MS`]) and then
//! a file of the one export it names (from its prefix, or its base's for a file it did not write:
//! `docs_edge_core::export::layers`) (an asset the export lacks: of the export it replaced, for
//! pages loaded before the switch), so a response never mixes two exports; the validators are
//! R2's own per file, so a page unchanged by a new export stays valid in readers' caches.

use std::cell::RefCell;
use std::rc::Rc;

use docs_edge_core::export::hosting::ServedSite;
use docs_edge_core::export::redirects::{self, REDIRECTS_FILE};
use docs_edge_core::export::segments::{read_segment_list, segment_path, SEGMENTS_METADATA};
use docs_edge_core::http::accept::prefers_markdown;
use docs_edge_core::http::request_url;
use docs_edge_core::http::site_headers::{
    cache_control, etag_matches, noindex_host, security_headers, MARKDOWN_ALTERNATE_LINK,
};
use docs_edge_core::http::site_paths::{decoded, site_path, SitePath};
use docs_edge_core::platform::lru::ByteLru;
use futures_util::{StreamExt, TryStreamExt};
use worker::{Bucket, Env, Headers, Method, Object, Request, Response, ResponseBuilder};

use crate::edge::search_cache::Cached;
use crate::shared::clock::now_ms;
use crate::shared::error::{ApiError, ApiResult};
use crate::shared::storage::{self, hosted_file_key, hosted_live_key};

/// How long an isolate trusts what it read of a host's pointer (or of its having none): a switch is
/// served within a second, and the pointer costs an isolate at most one R2 read a second per host,
/// never more than one per request (each response reads its file from R2 anyway).
const POINTER_TTL_MS: u64 = 1_000;
/// Pointers an isolate remembers, by bytes (a pointer is a few hundred bytes: about a thousand
/// hosts), least recently used first out.
const POINTER_CACHE_BYTES: usize = 256 << 10;

/// What an isolate read of a host's pointer, and when.
struct Pointer {
    live: Option<Rc<ServedSite>>,
    read_ms: u64,
}

thread_local! {
    /// Values are [`Pointer`]s, type-erased like the search cache's so the cache code exists once.
    static POINTERS: RefCell<ByteLru<Cached>> = RefCell::new(ByteLru::new(POINTER_CACHE_BYTES));
}

/// This isolate forgets what it read of `domain`'s pointer (hosting was switched off here).
pub fn forget(domain: &str) {
    POINTERS.with(|cache| cache.borrow_mut().remove(domain));
}

/// The hosted site's answer to `req`, or `None` when the host serves no site there (the request is
/// then what it was before hosting: a 404 of the API).
pub async fn serve(req: &Request, env: &Env) -> ApiResult<Option<Response>> {
    if !crate::shared::config::deployment(env)
        .map_err(ApiError::Internal)?
        .features
        .static_export
    {
        return Ok(None);
    }
    let Some(host) = request_host(req) else {
        return Ok(None);
    };
    let bucket = storage::bucket(env)?;
    let Some(live) = live_site(&bucket, &host).await? else {
        return Ok(None);
    };
    let url_path = req.path();
    let Some(inner) = live.site_path(&url_path) else {
        return Ok(None);
    };
    let site = Site {
        bucket,
        // A preview's pointer says so; a `workers.dev` hostname is never the site's own.
        noindex: live.noindex || noindex_host(&host),
        domain: host,
        live: live.clone(),
        head: req.method() == Method::Head,
    };
    let header = |name: &str| req.headers().get(name).ok().flatten();
    let Some(target) = site_path(inner) else {
        return site.not_found().await.map(Some);
    };
    let wants_markdown = prefers_markdown(header("accept").as_deref());
    let (candidates, folder, page) = match target {
        SitePath::Page {
            html,
            markdown,
            folder,
        } if wants_markdown => (vec![markdown, html], folder, true),
        SitePath::Page { html, folder, .. } => (vec![html], folder, true),
        SitePath::File(path) => (vec![path], None, false),
    };
    for path in candidates {
        if path == REDIRECTS_FILE {
            break;
        }
        let mut found = (site.bucket.get(site.key(&path)).execute().await?).map(|o| (o, &*live));
        if let (None, false, Some(previous)) = (&found, page, &live.previous) {
            // A page loaded before the last switch still finds its assets: the previous export's.
            let key = hosted_file_key(&site.domain, previous.export_holding(&path), &path);
            found = (site.bucket.get(key).execute().await?).map(|o| (o, &**previous));
        }
        if let Some((object, export)) = found {
            let not_modified = header("if-none-match")
                .is_some_and(|tags| etag_matches(&tags, &object.http_etag()));
            let segments = site.segments(&object, export, &path).await?;
            return site
                .file(object, &path, page, wants_markdown, not_modified, segments)
                .map(Some);
        }
    }
    if let Some((index, location)) = folder {
        if site.bucket.head(site.key(&index)).await?.is_some() {
            return site
                .redirect(
                    308,
                    &format!("{}{}", live.path_prefix.as_deref().unwrap_or(""), location),
                )
                .map(Some);
        }
    }
    if let Some(response) = site.site_redirect(inner).await? {
        return Ok(Some(response));
    }
    site.not_found().await.map(Some)
}

/// The request's hostname, lower case, without its port.
fn request_host(req: &Request) -> Option<String> {
    let raw = req
        .headers()
        .get("host")
        .ok()
        .flatten()
        .or_else(|| request_url::host(&req.inner().url()).map(str::to_string))?;
    // `name:port`; an IPv6 literal (`[::1]:8787`) keeps its brackets.
    let host = match raw.rsplit_once(':') {
        Some((name, port))
            if port.bytes().all(|b| b.is_ascii_digit())
                && (!raw.starts_with('[') || name.ends_with(']')) =>
        {
            name
        }
        _ => raw.as_str(),
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty() && host.len() <= 253).then_some(host)
}

/// The live pointer of `host`, from the isolate's cache when it was read in the last
/// [`POINTER_TTL_MS`]; `None` when the host is no hosted domain.
async fn live_site(bucket: &Bucket, host: &str) -> ApiResult<Option<Rc<ServedSite>>> {
    let now = now_ms();
    let cached = POINTERS
        .with(|cache| cache.borrow_mut().get(host))
        .and_then(|p| p.downcast::<Pointer>().ok());
    if let Some(pointer) = cached {
        if now.saturating_sub(pointer.read_ms) < POINTER_TTL_MS {
            return Ok(pointer.live.clone());
        }
    }
    let live = match storage::read(bucket, &hosted_live_key(host), None).await? {
        Some(bytes) => Some(Rc::new(ServedSite::from_json(&bytes)?)),
        None => None,
    };
    let bytes =
        host.len() + std::mem::size_of::<Pointer>() + live.as_ref().map_or(0, |l| l.approx_bytes());
    let pointer: Cached = Rc::new(Pointer {
        live: live.clone(),
        read_ms: now,
    });
    POINTERS.with(|cache| cache.borrow_mut().insert(host, pointer, bytes));
    Ok(live)
}

/// One response's view of a hosted site: the export it reads from.
struct Site {
    bucket: Bucket,
    domain: String,
    live: Rc<ServedSite>,
    head: bool,
    noindex: bool,
}

impl Site {
    /// The key of the export's `path`: under its own prefix, or its base's (`export::layers`).
    fn key(&self, path: &str) -> String {
        hosted_file_key(&self.domain, self.live.export_holding(path), path)
    }

    /// The headers every response of the site carries.
    fn headers(&self, cache: &str) -> ApiResult<Headers> {
        let headers = Headers::new();
        for (name, value) in security_headers(&self.live.content_security_policy) {
            headers.set(name, &value)?;
        }
        headers.set("cache-control", cache)?;
        if self.noindex {
            headers.set("x-robots-tag", "noindex")?;
        }
        Ok(headers)
    }

    /// The segments' keys of a file stored as segments (`export::segments`), resolved in the
    /// export whose object listed them, and the file's size; `None` for a file stored whole.
    async fn segments(
        &self,
        object: &Object,
        export: &ServedSite,
        path: &str,
    ) -> ApiResult<Option<(Vec<String>, u64)>> {
        let custom = object.custom_metadata().unwrap_or_default();
        if !custom.contains_key(SEGMENTS_METADATA) {
            return Ok(None);
        }
        let list = match object.body() {
            Some(body) => body.bytes().await?,
            None => return Err(ApiError::Internal(format!("{path} has no body"))),
        };
        let segments =
            read_segment_list(&list).map_err(|err| ApiError::Internal(format!("{path}: {err}")))?;
        let size = segments.iter().map(|(_, size)| size).sum();
        let keys = segments
            .iter()
            .map(|(name, _)| {
                let segment = segment_path(name);
                hosted_file_key(&self.domain, export.export_holding(&segment), &segment)
            })
            .collect();
        Ok(Some((keys, size)))
    }

    fn file(
        &self,
        object: Object,
        path: &str,
        page: bool,
        wants_markdown: bool,
        not_modified: bool,
        segments: Option<(Vec<String>, u64)>,
    ) -> ApiResult<Response> {
        let content_type = object
            .http_metadata()
            .content_type
            .unwrap_or_else(|| "application/octet-stream".into());
        let html = content_type.starts_with("text/html");
        let headers = self.headers(cache_control(path, html, true))?;
        headers.set("content-type", &content_type)?;
        headers.set("etag", &object.http_etag())?;
        if page {
            // A page's URL answers HTML or Markdown by `Accept`: a cache must key on it.
            headers.set("vary", "Accept")?;
            if html && wants_markdown {
                // No `.md` beside this page: every page's Markdown is in `llms-full.txt`.
                headers.set("link", MARKDOWN_ALTERNATE_LINK)?;
            }
        }
        if not_modified {
            return Ok(ResponseBuilder::new()
                .with_status(304)
                .with_headers(headers)
                .empty());
        }
        let size = segments.as_ref().map_or(object.size(), |(_, size)| *size);
        headers.set("content-length", &size.to_string())?;
        if self.head {
            return Ok(ResponseBuilder::new().with_headers(headers).empty());
        }
        if let Some((keys, size)) = segments {
            // Each segment streams through in turn: never more than a read's worth held. A
            // stream of known length keeps the `Content-Length` (the runtime would chunk it).
            let bucket = self.bucket.clone();
            let body = futures_util::stream::iter(keys)
                .then(move |key| {
                    let bucket = bucket.clone();
                    async move {
                        let object = bucket.get(&key).execute().await?.ok_or_else(|| {
                            worker::Error::RustError(format!("segment {key} is missing"))
                        })?;
                        object
                            .body()
                            .ok_or_else(|| worker::Error::RustError(format!("{key} has no body")))?
                            .stream()
                    }
                })
                .try_flatten();
            let fixed: worker::worker_sys::FixedLengthStream =
                worker::FixedLengthStream::wrap(body, size).into();
            return Ok(ResponseBuilder::new()
                .with_headers(headers)
                .stream(fixed.readable()));
        }
        let body = object
            .body()
            .ok_or_else(|| ApiError::Internal(format!("{path} has no body")))?
            .response_body()?;
        Ok(ResponseBuilder::new().with_headers(headers).body(body))
    }

    fn redirect(&self, status: u16, location: &str) -> ApiResult<Response> {
        let headers = self.headers("no-cache")?;
        headers.set("location", location)?;
        Ok(ResponseBuilder::new()
            .with_status(status)
            .with_headers(headers)
            .empty())
    }

    /// The site's own redirect for `path` (inside the site), from its `_redirects`.
    async fn site_redirect(&self, path: &str) -> ApiResult<Option<Response>> {
        let Some(bytes) = storage::read(&self.bucket, &self.key(REDIRECTS_FILE), None).await?
        else {
            return Ok(None);
        };
        let rules = redirects::parse(&String::from_utf8_lossy(&bytes));
        let Some(decoded) = decoded(path) else {
            return Ok(None);
        };
        let Some((rule, destination)) = redirects::find(&rules, &decoded) else {
            return Ok(None);
        };
        self.redirect(rule.status, &redirects::location(&decoded, &destination))
            .map(Some)
    }

    /// The export's 404 page, status 404. Its links are relative to the site's root while the
    /// missing URL may be at any depth: a `<base>` at the root makes them resolve.
    async fn not_found(&self) -> ApiResult<Response> {
        let headers = self.headers("no-cache")?;
        headers.set("content-type", "text/html; charset=utf-8")?;
        let page = storage::read(&self.bucket, &self.key("404.html"), None).await?;
        let mut html = page
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_else(|| "<!doctype html><title>Not found</title><h1>Not found</h1>".into());
        if let Some(at) = html.find("<head>") {
            html.insert_str(
                at + "<head>".len(),
                &format!("<base href=\"{}\">", self.live.root()),
            );
        }
        let builder = ResponseBuilder::new()
            .with_status(404)
            .with_headers(headers);
        Ok(if self.head {
            builder.empty()
        } else {
            builder.fixed(html.into_bytes())
        })
    }
}
