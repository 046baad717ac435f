//! What the masking pass finds: the kinds of personal data and the operator's patterns.

/// What a match becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Email,
    Phone,
    Card,
    Iban,
    Secret,
    Ip,
    /// An operator's pattern.
    Custom,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Email => "[email]",
            Kind::Phone => "[phone]",
            Kind::Card => "[card]",
            Kind::Iban => "[iban]",
            Kind::Secret => "[secret]",
            Kind::Ip => "[ip]",
            Kind::Custom => "[masked]",
        }
    }
}

/// One operator pattern: literal characters (ASCII letters in either case), `#` for one digit, and
/// an optional final `*` for the rest of a token (one or more letters, digits, `_` or `-`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub(super) fixed: Vec<u8>,
    pub(super) tail: bool,
}
