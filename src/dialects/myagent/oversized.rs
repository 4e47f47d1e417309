//! A MyAgent frame dropped for being over `maxEventBytes`: when it was the turn's
//! `agent.final_answer`, the frame that stands in for it (the turn ends `failed`, saying why).

use super::{Cx, MyAgentDecoder};
use crate::dialects::emit::{Obj, Sink};
use crate::json::Value;

/// The event that stands in for an `agent.final_answer` frame dropped for being larger than
/// `maxEventBytes` ([`oversized_stand_in`]): its turn ends `failed` with the reason.
pub const ANSWER_TOO_LARGE: &str = "agentwire.answer_too_large";

/// A frame of `bytes` bytes was dropped for being over `limit` (`maxEventBytes`) before it was
/// read: `head` and `tail` are its first and last characters (a few hundred; the huge member
/// sits between them, whatever the key order). When they show an `agent.final_answer`, the
/// frame that stands in for it (same `session_id` and `seq`): it ends the turn `failed`, saying
/// why, instead of leaving it `working` forever; its `seq` counts as received, so a reconnect
/// does not ask for the same frame again. `None` for any other frame (its loss is the
/// `frame-too-large` diagnostic and, with a `seq`, the next event's `sequence-gap`).
pub fn oversized_stand_in(bytes: usize, limit: usize, head: &str, tail: &str) -> Option<String> {
    let find = |key: &str| scan_str(head, key).or_else(|| scan_str(tail, key));
    if find("event")? != "agent.final_answer" {
        return None;
    }
    let seq = scan_num(head, "seq").or_else(|| scan_num(tail, "seq"));
    let mut e = Obj::new();
    e.opt_str("session_id", find("session_id"))
        .opt_str("step_id", find("step_id"))
        .str("event", ANSWER_TOO_LARGE)
        .opt_str("timestamp", find("timestamp"))
        .str(
            "content",
            &format!(
                "the final answer ({bytes} bytes or more) is larger than maxEventBytes ({limit} bytes): it was dropped"
            ),
        );
    if let Some(n) = seq {
        e.num("seq", n as f64);
    }
    Some(e.finish())
}

/// The string value of `"key": "…"` in a fragment of JSON text (no escapes in the value).
fn scan_str<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let at = crate::json::find_str(text, &format!("\"{key}\""))? + key.len() + 2;
    let rest = text.get(at..)?.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    let end = rest.find('"')?;
    let v = rest.get(..end)?;
    (!v.contains('\\')).then_some(v)
}

/// The non-negative integer of `"key": N` in a fragment of JSON text.
fn scan_num(text: &str, key: &str) -> Option<u64> {
    let at = crate::json::find_str(text, &format!("\"{key}\""))? + key.len() + 2;
    let rest = text.get(at..)?.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest.get(..end)?.parse().ok()
}

impl MyAgentDecoder {
    /// The stand-in of a final answer dropped for its size ([`oversized_stand_in`]).
    pub(super) fn answer_too_large(&mut self, cx: &Cx<'_>, sink: &mut Sink<'_>) {
        let why = cx
            .content
            .and_then(Value::as_str)
            .unwrap_or("the final answer was too large");
        if let Some(task) = self.running_turn().map(str::to_owned) {
            sink.task = Some(task.clone());
            self.end_unfinished(cx, &task, "failed", why, sink);
            let mut m = Obj::new();
            m.str("reason", why);
            self.status(cx, &task, "failed", Some(why), m, sink);
            self.end_turn();
        }
    }
}
