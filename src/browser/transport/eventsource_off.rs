//! The EventSource transport of a build without the `eventsource` feature:
//! `transport: "eventsource"` is refused when the client is created (`invalid-argument`), so a
//! connection never gets here; the items are [`eventsource`](super)'s, failing the same way a
//! source that cannot open does.

use super::{Shared, FAILED};
use std::rc::Rc;

/// No `EventSource` in this build.
pub enum EsHandle {}

impl Drop for EsHandle {
    fn drop(&mut self) {
        match *self {}
    }
}

/// The connection fails at once (`connect-failed`).
pub fn open(sh: &Rc<Shared>) {
    sh.shutdown(FAILED, UNAVAILABLE, Some("connect-failed"));
}

pub use crate::browser::options::stream::EVENTSOURCE_UNAVAILABLE as UNAVAILABLE;
