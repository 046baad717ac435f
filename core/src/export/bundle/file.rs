//! One file of the bundle: what every stage of the export produces.

/// One file of the bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportFile {
    /// Relative path inside the archive (`a/b.html`).
    pub path: String,
    pub bytes: Vec<u8>,
}

impl ExportFile {
    pub(crate) fn new(path: String, text: String) -> Self {
        Self {
            path,
            bytes: text.into_bytes(),
        }
    }
}
