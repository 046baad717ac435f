//! The files of a docs folder written for the assistant, not for readers: everything under
//! `.mintlify/` (the owner's instructions `.mintlify/Assistant.md` and skills
//! `.mintlify/assistant/skills/<slug>/skill.md` among them) and the instructions kept at the
//! folder's root as `Assistant.md` or `ASSISTANT.md`.
//!
//! The format documents the folder as never served publicly and the instructions as private to
//! the assistant, so none of these files is ever a page (listed in navigation or not), a search
//! hit, a file of the static export, a line of `llms.txt` or an MCP result.

/// The folder Mintlify keeps for itself and never serves.
pub const PRIVATE_DIR: &str = ".mintlify/";

/// The names the instructions file may have, at the root or in [`PRIVATE_DIR`].
pub const INSTRUCTIONS_NAMES: [&str; 2] = ["Assistant.md", "ASSISTANT.md"];

/// Whether the tree file `path` (folder-relative, `/`-separated) is for the assistant only.
pub fn is_assistant_file(path: &str) -> bool {
    let path = path.trim_start_matches('/');
    path.starts_with(PRIVATE_DIR) || INSTRUCTIONS_NAMES.contains(&path)
}

#[cfg(test)]
mod tests {
    use super::is_assistant_file;

    #[test]
    fn the_private_folder_and_the_root_instructions_are_the_assistants() {
        for private in [
            ".mintlify/Assistant.md",
            ".mintlify/ASSISTANT.md",
            ".mintlify/assistant/skills/rotate-keys/skill.md",
            ".mintlify/anything.mdx",
            "/.mintlify/x.png",
            "Assistant.md",
            "ASSISTANT.md",
        ] {
            assert!(is_assistant_file(private), "{private}");
        }
        for public in ["assistant/customize.mdx", "guides/Assistant.md", "assistant.md", "skill.md", "mintlify/x.mdx", "a/.mintlify/x.mdx"] {
            assert!(!is_assistant_file(public), "{public}");
        }
    }
}
