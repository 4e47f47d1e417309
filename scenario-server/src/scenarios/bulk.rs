//! `bulk` (`events=N`): exactly N events of a realistic mix (about 90% content-delta), all
//! available at once, for throughput and soak tests. The log is generated on demand from the
//! event index (no memory per event), so N can be in the millions.
//!
//! Layout: the root task's `task-created` and `working`, then sub-agents of 110 events each
//! (`subtask-created`, `task-created`, `working`, a thought, a tool start/progress/complete,
//! 100 content deltas, `content-complete`, `completed`, `task-complete`; the last one absorbs
//! the remainder), then the root's `completed` and `task-complete`. Below 15 events there are
//! no sub-agents: the root streams N−5 deltas itself.

use super::ctx::{encode, fields, Fields};
use crate::run::{Event, Generator};
use crate::util::{timestamp, Rng};
use std::sync::Arc;

/// Fewest events a bulk run can have.
pub const MIN_EVENTS: u64 = 6;
/// Most events a bulk run can have.
pub const MAX_EVENTS: u64 = 50_000_000;

const FIXED: u64 = 10;
const DELTAS: u64 = 100;
const SEG: u64 = FIXED + DELTAS;
const ROOT: &str = "task-bulk";

const WORDS: [&str; 24] = [
    " the",
    " agent",
    " streams",
    " tokens",
    " quickly",
    " and",
    " café",
    " naïve",
    " 🚀",
    " data",
    " über",
    " résumé",
    " revenue",
    " grew",
    " 15%",
    " in",
    " Q4",
    " \"quoted\"",
    " report",
    " north",
    " région",
    " 数据",
    " ✅",
    " ok",
];

struct Layout {
    n: u64,
    seed: u64,
    context: String,
    /// Number of sub-agent segments (0 in the small layout).
    segments: u64,
    /// Deltas of the last segment (or of the root in the small layout).
    last_deltas: u64,
}

impl Layout {
    fn new(n: u64, seed: u64, context: String) -> Layout {
        let body = n.saturating_sub(4);
        let (segments, last_deltas) = if n < 15 {
            (0, n.saturating_sub(5).max(1))
        } else if body < SEG {
            (1, body - FIXED)
        } else {
            let (k, r) = (body / SEG, body % SEG);
            if r == 0 {
                (k, DELTAS)
            } else if r > FIXED {
                (k + 1, r - FIXED)
            } else {
                (k, DELTAS + r)
            }
        };
        Layout {
            n,
            seed,
            context,
            segments,
            last_deltas,
        }
    }

    fn word(&self, seg: u64, j: u64) -> &'static str {
        let mut r = Rng::new(self.seed ^ seg.wrapping_mul(0x9E37_79B9) ^ (j << 40));
        WORDS[(r.next_u64() % WORDS.len() as u64) as usize]
    }

    fn text(&self, seg: u64, deltas: u64) -> String {
        (0..deltas).map(|j| self.word(seg, j)).collect()
    }

    fn event(&self, i: u64) -> Event {
        let (kind, task, f): (&str, String, Fields) = self.parts(i);
        let chunk = (kind == "content-delta").then(|| format!("content:{task}"));
        let data = encode(kind, &self.context, &task, &f, &timestamp(i));
        Event::new(i, kind, chunk, &data)
    }

    fn parts(&self, i: u64) -> (&'static str, String, Fields) {
        let n = self.n;
        if i == 0 {
            return (
                "task-created",
                ROOT.into(),
                fields! {"initiator": "user", "metadata": {"agentId": "bulk-v1", "model": "synthetic"}},
            );
        }
        if i == 1 {
            return ("task-status", ROOT.into(), fields! {"status": "working"});
        }
        if self.segments == 0 {
            let d = self.last_deltas;
            return match i - 2 {
                j if j < d => (
                    "content-delta",
                    ROOT.into(),
                    fields! {"delta": (self.word(0, j)), "index": j},
                ),
                j if j == d => (
                    "content-complete",
                    ROOT.into(),
                    fields! {"content": (self.text(0, d))},
                ),
                j if j == d + 1 => ("task-status", ROOT.into(), fields! {"status": "completed"}),
                _ => (
                    "task-complete",
                    ROOT.into(),
                    fields! {"content": (self.text(0, d)), "metadata": {"duration": n}},
                ),
            };
        }
        if i == n - 2 {
            return ("task-status", ROOT.into(), fields! {"status": "completed"});
        }
        if i >= n - 1 {
            return (
                "task-complete",
                ROOT.into(),
                fields! {"metadata": {"duration": n, "iterations": (self.segments), "tokensUsed": n}},
            );
        }
        let s = ((i - 2) / SEG).min(self.segments - 1);
        let j = i - 2 - s * SEG;
        let d = if s + 1 == self.segments {
            self.last_deltas
        } else {
            DELTAS
        };
        let sub = format!("task-b{s:07}");
        let call = format!("call-b{s:07}");
        match j {
            0 => (
                "subtask-created",
                ROOT.into(),
                fields! {"subtaskId": sub, "agentId": "writer-v1", "prompt": (format!("Write part {s}"))},
            ),
            1 => (
                "task-created",
                sub,
                fields! {"parentTaskId": ROOT, "initiator": "agent"},
            ),
            2 => ("task-status", sub, fields! {"status": "working"}),
            3 => (
                "thought-stream",
                sub,
                fields! {
                    "thoughtId": (format!("thought-b{s:07}")), "thoughtType": "planning",
                    "verbosity": "brief", "content": (format!("Writing part {s}")), "index": 0,
                },
            ),
            4 => (
                "tool-start",
                sub,
                fields! {"toolCallId": call, "toolName": "lookup", "arguments": {"part": s}},
            ),
            5 => (
                "tool-progress",
                sub,
                fields! {"toolCallId": call, "progress": 0.5, "message": "half way"},
            ),
            6 => (
                "tool-complete",
                sub,
                fields! {"toolCallId": call, "toolName": "lookup", "success": true, "result": {"part": s}},
            ),
            j if j < 7 + d => (
                "content-delta",
                sub,
                fields! {"delta": (self.word(s, j - 7)), "index": (j - 7)},
            ),
            j if j == 7 + d => (
                "content-complete",
                sub,
                fields! {"content": (self.text(s, d))},
            ),
            j if j == 8 + d => ("task-status", sub, fields! {"status": "completed"}),
            _ => (
                "task-complete",
                sub,
                fields! {"content": (self.text(s, d)), "metadata": {"iterations": 1}},
            ),
        }
    }
}

/// The generator of a bulk run of `n` events (clamped to `MIN_EVENTS..=MAX_EVENTS`).
pub fn generator(n: u64, seed: u64, context: String) -> (u64, Generator) {
    let n = n.clamp(MIN_EVENTS, MAX_EVENTS);
    let layout = Layout::new(n, seed, context);
    (n, Arc::new(move |i| layout.event(i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(n: u64) -> Vec<String> {
        let (len, g) = generator(n, 1, "ctx-t".into());
        assert_eq!(len, n);
        (0..len).map(|i| g(i).kind.to_string()).collect()
    }

    #[test]
    fn every_size_has_exactly_n_events_and_closes_every_task() {
        for n in (6..400).chain([1000, 1110, 1111, 1114, 1115, 12_345]) {
            let k = kinds(n);
            assert_eq!(k.len() as u64, n);
            assert_eq!(k[0], "task-created");
            assert_eq!(k[k.len() - 1], "task-complete");
            let created = k.iter().filter(|x| *x == "task-created").count();
            let completed = k.iter().filter(|x| *x == "task-complete").count();
            assert_eq!(created, completed, "n={n}");
            let deltas = k.iter().filter(|x| *x == "content-delta").count();
            if n >= 1000 {
                assert!(deltas as u64 * 100 >= n * 85, "n={n}: mostly deltas");
            }
        }
    }

    #[test]
    fn content_complete_is_the_concatenation() {
        let (len, g) = generator(500, 3, "ctx-t".into());
        let mut acc = String::new();
        for i in 0..len {
            let ev = g(i);
            let v: serde_json::Value = serde_json::from_str(ev.data()).expect("json");
            match &*ev.kind {
                "content-delta" => acc.push_str(v["delta"].as_str().unwrap_or_default()),
                "content-complete" => {
                    assert_eq!(v["content"].as_str(), Some(acc.as_str()));
                    acc.clear();
                }
                _ => {}
            }
        }
    }
}
