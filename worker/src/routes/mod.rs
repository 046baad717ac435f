//! One module per endpoint family; each handler takes the [`crate::app::Call`].

pub mod admin;
pub mod health;
