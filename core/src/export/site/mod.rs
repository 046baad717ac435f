//! Site finishing: what spans the pages of an export. `nav` is the navigation (tabs, groups, the
//! sidebar), `versions` which versions an export holds, `search_index` and `search_packs` the
//! offline search, `agent` the files for agents (`llms.txt`, `llms-full.txt`, `.md` pages),
//! `redirects` and `stubs` the pages that lead elsewhere, and `assets` the files of the upload the
//! pages reference. `finishing_pages` is the pages' share of the finishing files, `page_products`
//! what each page gives it (stored beside its batch), and `finishing` gathers it a batch at a time.

pub(super) mod agent;
pub(super) mod assets;
pub(super) mod finishing;
pub(super) mod finishing_pages;
pub(super) mod nav;
pub(super) mod page_products;
pub mod redirects;
pub mod search_index;
pub(super) mod search_packs;
pub(super) mod stubs;
pub(super) mod versions;
