//! A page's layout from its frontmatter `mode`, as the format defines it: `default` (sidebar,
//! title, table of contents, footer), `wide` (no table of contents), `custom` (a blank canvas under
//! the header: no sidebar, title block, table of contents, pager or footer, and no prose
//! typography, for landing pages), `frame` (custom with the sidebar) and `center` (no sidebar or
//! table of contents, the content centred). Unknown modes are the default.

use crate::docs::frontmatter;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) enum PageMode {
    #[default]
    Default,
    Wide,
    Custom,
    Frame,
    Center,
}

impl PageMode {
    /// The mode of the page whose frontmatter YAML is `yaml`.
    #[cfg(test)]
    pub(crate) fn from_frontmatter(yaml: Option<&str>) -> Self {
        Self::of(yaml.and_then(|y| frontmatter::parse(y).ok()).as_ref())
    }

    /// The mode of the page whose frontmatter parsed as `fm` (`None`: none, or not parsed).
    pub(crate) fn of(fm: Option<&frontmatter::Frontmatter>) -> Self {
        let Some(fm) = fm else {
            return Self::Default;
        };
        match fm.extra.get("mode").and_then(|m| m.as_str()).map(str::trim) {
            Some("wide") => Self::Wide,
            Some("custom") => Self::Custom,
            Some("frame") => Self::Frame,
            Some("center") => Self::Center,
            _ => Self::Default,
        }
    }

    /// The class of the page's layout, which `site.css` sizes the columns by.
    pub(crate) fn class(self) -> &'static str {
        match self {
            Self::Default => "layout",
            Self::Wide => "layout mode-wide",
            Self::Custom => "layout mode-custom",
            Self::Frame => "layout mode-frame",
            Self::Center => "layout mode-center",
        }
    }

    pub(crate) fn sidebar(self) -> bool {
        matches!(self, Self::Default | Self::Wide | Self::Frame)
    }

    pub(crate) fn toc(self) -> bool {
        self == Self::Default
    }

    /// Title block, prose typography, previous/next links: the documentation page's furniture.
    pub(crate) fn furniture(self) -> bool {
        !matches!(self, Self::Custom | Self::Frame)
    }

    pub(crate) fn footer(self) -> bool {
        self != Self::Custom
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_are_read_from_frontmatter() {
        assert_eq!(
            PageMode::from_frontmatter(Some("title: x\nmode: custom")),
            PageMode::Custom
        );
        assert_eq!(
            PageMode::from_frontmatter(Some("mode: \"wide\"")),
            PageMode::Wide
        );
        assert_eq!(
            PageMode::from_frontmatter(Some("mode: center")),
            PageMode::Center
        );
        assert_eq!(
            PageMode::from_frontmatter(Some("mode: frame")),
            PageMode::Frame
        );
        assert_eq!(
            PageMode::from_frontmatter(Some("mode: other")),
            PageMode::Default
        );
        assert_eq!(PageMode::from_frontmatter(None), PageMode::Default);
        let custom = PageMode::Custom;
        assert!(!custom.sidebar() && !custom.toc() && !custom.furniture() && !custom.footer());
        assert!(
            PageMode::Frame.sidebar() && !PageMode::Frame.furniture() && PageMode::Frame.footer()
        );
        assert!(PageMode::Wide.sidebar() && !PageMode::Wide.toc() && PageMode::Wide.furniture());
        assert!(!PageMode::Center.sidebar() && !PageMode::Center.toc());
    }
}
