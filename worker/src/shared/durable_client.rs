//! Calls from the worker (or one Durable Object) to a Durable Object: a JSON POST to an internal
//! path of the object named `name`, the operation's name. Each object declares its operations once
//! with [`durable_operations!`] and has a typed client beside it (`crate::edge::durable::*`,
//! `crate::shared::durable::*`); errors made by the object pass through as it made them.
//! `crate::edge::builder_client::post_to_builder` is the same for the builder script's service
//! binding, its reply read by [`read_reply`].

use serde::de::DeserializeOwned;
use worker::{Env, Headers};

use crate::shared::error::{ApiError, ApiResult};
use docs_edge_core::wire::ErrorBody;

/// One operation of a Durable Object class, as a client sends it: made by [`durable_operations!`],
/// which writes each operation's name once, for the client's path and the object's dispatch alike.
pub trait Operation {
    /// The class's binding (wrangler.toml).
    const BINDING: &'static str;
    /// The operation's name, the path it is posted to.
    fn name(&self) -> &'static str;
    /// The operation's body as JSON.
    fn body(&self) -> serde_json::Result<String>;
}

/// Declares a Durable Object's operations: `$op`, the owned enum the object's `fetch` decodes
/// ([`$op::receive`]) and matches on, and `$call<'a>`, the same operations borrowed, which the
/// object's typed client sends ([`Operation`]). On the wire an operation is a `POST /{name}` with its
/// payload as the JSON body.
macro_rules! durable_operations {
    (
        binding: $binding:expr;
        $(#[$meta:meta])*
        $vis:vis enum $op:ident / $call:ident {
            $( $(#[$vmeta:meta])* $variant:ident($payload:ty) => $name:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        // One value per request, matched as soon as it is decoded: boxing a large payload would
        // add an allocation and code for no saving.
        #[allow(clippy::large_enum_variant)]
        $vis enum $op {
            $( $(#[$vmeta])* $variant($payload), )+
        }

        #[doc = concat!("[`", stringify!($op), "`] borrowed: what the client sends.")]
        $vis enum $call<'a> {
            $( $variant(&'a $payload), )+
        }

        impl $op {
            /// The operation a request to the object names (its path) with its decoded body: a 500
            /// for a name no operation has or a body that is not its payload.
            $vis async fn receive(req: &mut worker::Request) -> $crate::shared::error::ApiResult<Self> {
                let path = req.path();
                let body = req.bytes().await?;
                match path.strip_prefix('/').unwrap_or(&path) {
                    $( $name => Ok($op::$variant(serde_json::from_slice(&body)?)), )+
                    other => Err($crate::shared::error::ApiError::Internal(format!("no such {} operation: {other}", $binding))),
                }
            }
        }

        impl $crate::shared::durable_client::Operation for $call<'_> {
            const BINDING: &'static str = $binding;

            fn name(&self) -> &'static str {
                match self {
                    $( $call::$variant(_) => $name, )+
                }
            }

            fn body(&self) -> serde_json::Result<String> {
                match self {
                    $( $call::$variant(payload) => serde_json::to_string(payload), )+
                }
            }
        }
    };
}
pub(crate) use durable_operations;

/// The object's 2xx body, or its error as [`ApiError::Relayed`] (status, body and `Retry-After` kept).
pub async fn send<O: Operation, T: DeserializeOwned>(
    env: &Env,
    name: &str,
    op: &O,
) -> ApiResult<T> {
    let (_, bytes) = exchange(env, O::BINDING, name, op.name(), op.body()?).await?;
    Ok(serde_json::from_slice(&bytes)?)
}

/// [`send`] for an operation that answers plain bytes with its facts in headers: the headers and body.
pub async fn send_for_bytes<O: Operation>(
    env: &Env,
    name: &str,
    op: &O,
) -> ApiResult<(Headers, Vec<u8>)> {
    exchange(env, O::BINDING, name, op.name(), op.body()?).await
}

/// The one exchange every operation goes through, not generic over it: only the encoding of the
/// body and the decoding of the reply are compiled per operation and reply type.
async fn exchange(
    env: &Env,
    binding: &str,
    name: &str,
    op_name: &str,
    body: String,
) -> ApiResult<(Headers, Vec<u8>)> {
    let stub = env
        .durable_object(binding)?
        .id_from_name(name)?
        .get_stub()?;
    let request = crate::shared::http::json_post(
        &format!("https://durable-object/{op_name}"),
        &Headers::new(),
        &body,
    )?;
    let response = stub.fetch_with_request(request).await?;
    read_reply(response, binding, op_name).await
}

/// A reply to an internal call (`op_name` on `binding`, named in the error): its 2xx headers and
/// body, or its error as [`ApiError::Relayed`].
pub async fn read_reply(
    mut response: worker::Response,
    binding: &str,
    op_name: &str,
) -> ApiResult<(Headers, Vec<u8>)> {
    let status = response.status_code();
    let bytes = response.bytes().await?;
    if (200..300).contains(&status) {
        return Ok((response.headers().clone(), bytes));
    }
    match serde_json::from_slice::<ErrorBody>(&bytes) {
        Ok(body) => {
            let mut headers = Vec::new();
            if let Ok(Some(retry)) = response.headers().get("retry-after") {
                headers.push(("Retry-After".to_string(), retry));
            }
            Err(ApiError::Relayed {
                status,
                body,
                headers,
            })
        }
        Err(_) => Err(ApiError::Internal(format!(
            "{binding} answered {status} to {op_name}: {}",
            String::from_utf8_lossy(&bytes)
                .chars()
                .take(200)
                .collect::<String>()
        ))),
    }
}

/// A response made inside an object from our one error type, for [`post`] to pass on.
pub fn error_reply(err: &ApiError) -> worker::Result<worker::Response> {
    if let Some(detail) = err.log_detail() {
        crate::shared::log_line::error(
            &serde_json::json!({ "event": "durable_object_error", "error": detail }),
        );
    }
    Ok(crate::shared::error::error_response(err))
}
