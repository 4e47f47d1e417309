//! The A2A driver of a build without the `a2a` feature: no conversation to open, resume or wait
//! for (the same functions as [`a2a`](super), doing nothing).

use super::rpc::Req;
use super::Shared;
use crate::dialects::DialectDecoder;

/// Nothing to read before the first request.
pub async fn prepare(_sh: &Shared) -> Result<(), (&'static str, String)> {
    Ok(())
}

/// Nothing to configure.
pub fn wire_a2a(_sh: &Shared, _dec: &mut DialectDecoder) {}

/// A `message` option needs the A2A dialect (MyAgent's is sent by its own transport).
pub fn first_message(sh: &Shared) -> Option<Result<Req, String>> {
    sh.opts.message.as_ref().map(|_| {
        Err("the message option needs dialect \"a2a\", which this build leaves out".to_owned())
    })
}

/// Nothing to resubscribe to.
pub fn resubscribe(_sh: &Shared) -> Option<Req> {
    None
}

/// Nothing to read.
pub async fn read_ended_task(_sh: &Shared, _refusal: &str) -> bool {
    false
}

/// Nothing waits for an answer.
pub fn waiting_for_answer(_sh: &Shared) -> bool {
    false
}

/// No task to come.
pub fn awaits_stream_task(_sh: &Shared) -> bool {
    false
}

/// Nothing to forget.
pub fn stream_not_opened(_sh: &Shared) {}
