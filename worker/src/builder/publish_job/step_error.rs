//! How a step fails: a publish error that ends the publish, or an API or platform error to retry.

use crate::shared::error::ApiError;
use docs_edge_core::publish::PublishError;

/// A step's failure: the upload's (or the stored data's) fault, final; or the platform's, retried.
pub(super) enum StepError {
    Publish(PublishError),
    Api(ApiError),
}

impl From<PublishError> for StepError {
    fn from(err: PublishError) -> Self {
        StepError::Publish(err)
    }
}

impl From<ApiError> for StepError {
    fn from(err: ApiError) -> Self {
        StepError::Api(err)
    }
}

impl From<worker::Error> for StepError {
    fn from(err: worker::Error) -> Self {
        StepError::Api(err.into())
    }
}

pub(super) type StepResult<T> = std::result::Result<T, StepError>;

pub(super) fn alarm_error(err: ApiError) -> worker::Error {
    worker::Error::RustError(
        err.log_detail()
            .map_or_else(|| err.public_message(), str::to_string),
    )
}
