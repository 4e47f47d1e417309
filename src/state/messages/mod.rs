//! Conversation messages and the shared state document of a task (see [`model`]).

mod apply;
pub mod model;
mod parts;
mod shared;
mod tools;

pub use model::*;
