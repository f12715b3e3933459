//! What the API answers when a request cannot be served: a status and a sentence, as
//! `{"error": "…"}`, and the reading of JSON bodies that turns every way one can be wrong into
//! such an answer.

use crate::games::Refusal;
use crate::limits::Turned;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde_json::json;

/// Requests larger than this are refused with 413.
pub const BODY_LIMIT: usize = 64 * 1024;

/// An answer other than success: a status and a sentence.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        match r {
            Refusal::Refused(m) | Refusal::Moved(m) => ApiError::new(StatusCode::CONFLICT, m),
            Refusal::Store(m) => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, m),
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

impl From<Turned> for ApiError {
    fn from(t: Turned) -> ApiError {
        match t {
            Turned::Client(m) => ApiError::new(StatusCode::TOO_MANY_REQUESTS, m),
            Turned::Server(m) => ApiError::new(StatusCode::SERVICE_UNAVAILABLE, m),
        }
    }
}

pub fn bad_request(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}

/// Reads a JSON body, turning every way it can be wrong into a 4xx with a sentence.
pub fn json_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = body.map_err(|r| {
        let status = r.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                status,
                format!("the request body is larger than {} KiB", BODY_LIMIT / 1024),
            )
        } else {
            ApiError::new(status, format!("the request body cannot be read: {r}"))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("the request body is not the JSON expected: {e}"),
        )
    })
}
