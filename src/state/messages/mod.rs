//! Conversation messages and the shared state document of a task (see [`model`]): the types,
//! their parts (`parts`) and how parts are edited (`edit`). Applying the message events to
//! the store is `state::apply`'s (`messages`, `message_tools`, `shared_state`).

mod edit;
pub mod model;
pub(crate) mod parts;

pub use model::*;
