//! Page: what surrounds a rendered body. `layout` is the page shell (head, header, tabs, sidebar,
//! title, table of contents), `chrome` the docs.json navbar, banner and footer, `style` the page's
//! own stylesheet (Tailwind utilities and `style` props), `icons` inline SVG icons, `site_look` and
//! `site_theme` the site's look and theme, `contrast` text colours readable on its backgrounds,
//! `page_mode` a page's layout mode, and `extras` and `widget` the optional beacon, playground and
//! assistant widget.

pub(super) mod chrome;
pub(super) mod contrast;
pub(super) mod extras;
pub mod icons;
pub(super) mod layout;
pub(super) mod page_mode;
pub(super) mod site_look;
pub(super) mod site_theme;
pub(super) mod style;
pub mod widget;
