//! API reference: an endpoint page's reference from the OpenAPI document in the upload.
//! `openapi` reads its sections (endpoint, parameters, body, responses), `operation` the operation
//! as one JSON value, `samples` request code samples and response examples, `playground` the
//! "Try it" panel, and `api_page` lays them out in two columns.

pub(super) mod api_page;
pub(super) mod openapi;
pub(super) mod operation;
pub(super) mod playground;
pub(super) mod samples;
