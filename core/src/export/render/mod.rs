//! Render: a page's MDX body -> HTML. `markdown` is the HTML visitor of the MDX walk; it writes
//! MDX components (`components`, with `audience` for per-audience content), fenced code (`code`),
//! math (`math`), Mermaid diagrams (`diagrams`), remote embeds (`embeds`) and inline HTML through
//! the allow-list sanitizer (`sanitize`; SVG through `svg_allow` and `svg_file`), and asks `links`
//! where every URL points inside the bundle. Under test, `active_content` is the independent checker
//! the sanitizer is held to, and `render_fuzz` and `diagram_fuzz` fuzz the renderer.

#[cfg(test)]
pub(super) mod active_content;
pub(super) mod audience;
pub(crate) mod code;
pub(super) mod components;
#[cfg(all(test, feature = "diagrams"))]
mod diagram_fuzz;
pub(super) mod diagrams;
pub mod embeds;
pub(crate) mod links;
pub(super) mod markdown;
pub(super) mod math;
#[cfg(test)]
mod render_fuzz;
pub(super) mod sanitize;
pub(super) mod svg_allow;
pub(super) mod svg_file;
