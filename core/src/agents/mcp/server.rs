//! What the server is and which of the deployment's switches it answers under.

/// What `initialize` says about the server.
#[derive(Debug, Clone)]
pub struct ServerInfo<'a> {
    /// The docs site's name (docs.json `name`), for the title and instructions.
    pub site_name: &'a str,
    pub domain: &'a str,
    /// The service version.
    pub version: &'a str,
    /// Which of the deployment's switches are on: `search` offers the `search` and `get_page` tools,
    /// `assistant` the `ask` tool. A switched-off tool is left out of `tools/list` and `initialize`'s
    /// instructions, and calling it is a -32602 error (as for an unknown tool), so a client never
    /// sees a tool it cannot use. The resources (`llms.txt`, `skill.md`) follow `search`.
    pub search: bool,
    pub assistant: bool,
}
