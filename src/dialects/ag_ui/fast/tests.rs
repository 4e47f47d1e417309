//! The lockstep tests of the direct readers: each direct path against the general path.

use crate::dialects::{Dialect, DialectChoice, DialectDecoder, Output};

/// The same text with a space after `{`: a valid event the fast reader refuses.
fn spaced(data: &str) -> String {
    data.replacen('{', "{ ", 1)
}

/// A compact `TEXT_MESSAGE_CONTENT` (`extra`: members between `timestamp` and `messageId`).
fn c(extra: &str, id: &str, delta: &str) -> String {
    format!(
        r#"{{"type":"TEXT_MESSAGE_CONTENT","timestamp":1762425000565{extra},"messageId":"{id}","delta":"{delta}"}}"#
    )
}

/// Text and reasoning content events in every situation the fast readers must get right.
fn text_stream() -> Vec<String> {
    let sub = r#","subagentRunId":"sub-1""#;
    let r = |extra: &str, id: &str, delta: &str| {
        c(extra, id, delta).replacen("TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", 1)
    };
    vec![
        // before any run: an order error
        c("", "m1", "early"),
        r#"{"type":"RUN_STARTED","timestamp":1762425000000,"threadId":"t1","runId":"r1"}"#.into(),
        // not started yet
        c("", "m1", "x"),
        r#"{"type":"TEXT_MESSAGE_START","timestamp":1762425000001,"messageId":"m1","role":"assistant"}"#.into(),
        c("", "m1", "Hello"),
        c("", "m1", " wörld ✓ 😀"),
        c("", "m1", ""),
        c("", "m1", r#"esc\"aped"#),
        c("", "m1", r"line\nbreak\ttab\\back\/slash"),
        c("", "m1", r"\u0041 escaped"),
        // a split surrogate pair, then its low half; a U+FFFD of its own
        c("", "m1", r"a\ud83d"),
        c("", "m1", r"\ude00b"),
        c("", "m1", "\u{FFFD} literal"),
        // a high half, then a plain delta (U+FFFD first), an escaped one, the message's end
        c("", "m1", r"c\ud83d"),
        c("", "m1", "plain after a high half"),
        c("", "m1", r"d\ud83d"),
        c("", "m1", r#"esc\"aped after a high half"#),
        c("", "m1", r"e\ud83d"),
        // another owner than the opener; an unknown sub-agent
        c(sub, "m1", "wrong owner"),
        r#"{"type":"SUBAGENT_STARTED","timestamp":1762425000002,"subagentRunId":"sub-1","name":"helper"}"#.into(),
        r#"{"type":"TEXT_MESSAGE_START","timestamp":1762425000003,"subagentRunId":"sub-1","messageId":"m2","role":"assistant"}"#.into(),
        c(sub, "m2", "from the sub-agent"),
        c(r#","subagentRunId":"nobody""#, "m2", "unknown sub-agent"),
        c("", "m2", "no owner"),
        // a reasoning message's id; its own content events (before it starts, escaped, a
        // split surrogate pair, from another owner, into a text message)
        r("", "th1", "too early"),
        r#"{"type":"REASONING_MESSAGE_START","timestamp":1762425000004,"messageId":"th1","role":"reasoning"}"#.into(),
        c("", "th1", "text into reasoning"),
        r("", "th1", "thinking ✓ "),
        r("", "th1", r#"esc\"aped\n"#),
        r("", "th1", r"a\ud83d"),
        r("", "th1", r"\ude00b"),
        r(sub, "th1", "wrong owner"),
        r("", "m1", "reasoning into text"),
        r("", "th1", ""),
        r#"{"type":"REASONING_MESSAGE_END","timestamp":1762425000005,"messageId":"th1"}"#.into(),
        r("", "th1", "after its end"),
        // a sub-agent's reasoning
        r#"{"type":"REASONING_MESSAGE_START","timestamp":1762425000005,"subagentRunId":"sub-1","messageId":"th2","role":"reasoning"}"#.into(),
        r(sub, "th2", "the sub-agent thinks"),
        r("", "th2", "no owner"),
        r#"{"type":"REASONING_MESSAGE_END","timestamp":1762425000005,"subagentRunId":"sub-1","messageId":"th2"}"#.into(),
        // a reasoning message a messages snapshot turns into a closed assistant message,
        // then reopened as text: its content still joins the thought (a lookup the direct
        // path must not skip)
        r#"{"type":"REASONING_MESSAGE_START","timestamp":1762425000005,"messageId":"th3","role":"reasoning"}"#.into(),
        r("", "th3", "thinking "),
        r#"{"type":"MESSAGES_SNAPSHOT","timestamp":1762425000005,"messages":[{"id":"th3","role":"assistant","content":"x"}]}"#.into(),
        r#"{"type":"TEXT_MESSAGE_START","timestamp":1762425000005,"messageId":"th3","role":"assistant"}"#.into(),
        c("", "th3", "then text"),
        r#"{"type":"TEXT_MESSAGE_END","timestamp":1762425000005,"messageId":"th3"}"#.into(),
        // a timestamp past year 9999 (clamped: not a valid one)
        c("", "m1", "far future").replace("1762425000565", "999999999999999"),
        // an open chunk lane is closed first
        r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":1762425000006,"messageId":"m3","delta":"chunk"}"#.into(),
        c("", "m1", "after a chunk"),
        r#"{"type":"TEXT_MESSAGE_END","timestamp":1762425000007,"messageId":"m1"}"#.into(),
        c("", "m1", "after its end"),
        r#"{"type":"RUN_FINISHED","timestamp":1762425000008,"threadId":"t1","runId":"r1"}"#.into(),
        c("", "m2", "after the run"),
    ]
}

#[test]
fn the_fast_path_gives_what_the_general_path_gives() {
    let stream = text_stream();
    let mut fast = DialectDecoder::new(DialectChoice::Fixed(Dialect::AgUi));
    let mut general = DialectDecoder::new(DialectChoice::Fixed(Dialect::AgUi));
    let mut taken = 0;
    let mut direct = 0;
    for (i, data) in stream.iter().enumerate() {
        let (mut a, mut b) = (Output::default(), Output::default());
        let ra = fast.decode(data, "", i as u64, &mut a);
        let rb = general.decode(&spaced(data), "", i as u64, &mut b);
        assert_eq!(ra, rb, "{data}");
        // (Compared as the canonical JSON text each step stands for.)
        let text = |o: &Output| {
            o.steps
                .iter()
                .map(|s| o.event_json(s).map(|j| j.into_owned()).ok_or(s.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(text(&a), text(&b), "{data}");
        // A step given as its parts is exactly the event its text decodes to, no diagnostic.
        for step in &a.steps {
            let crate::dialects::Step::MessageDelta(i) = step else {
                continue;
            };
            let parts = &a.deltas[*i];
            let json = parts.json();
            let cx = crate::events::EventContext {
                sse_type: "message",
                event_id: "",
                position: 0,
            };
            let mut diags = Vec::new();
            let fast = crate::events::decode_event(&json, &cx, &mut diags);
            let general = crate::events::decode_event_general(&json, &cx, &mut diags);
            assert!(diags.is_empty(), "{json}: {diags:?}");
            assert_eq!(fast.as_ref(), Some(&parts.event()), "{json}");
            assert_eq!(general.as_ref(), Some(&parts.event()), "{json}");
            direct += 1;
        }
        let strip = |o: &Output| {
            o.diagnostics
                .iter()
                .map(|d| (d.code, d.severity, d.message.clone(), d.path.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&a), strip(&b), "{data}");
        if super::text_content(data).is_some() && a.diagnostics.is_empty() && !a.steps.is_empty() {
            taken += 1;
        }
    }
    // And escapes other than \u are read and unescaped.
    let e = super::text_content(&c("", "m1", r#"a\"b\n\\"#)).map(|e| e.delta.into_owned());
    assert_eq!(e.as_deref(), Some("a\"b\n\\"));
    assert!(taken >= 8, "the fast path was taken {taken} times");
    // Deltas with escapes and split surrogates are still given as JSON text; the rest not.
    assert!(direct >= 5, "{direct} message-delta steps given as parts");
    // And the reader refuses what it must leave to the general path.
    for data in [
        spaced(&c("", "m1", "x")),
        c("", "m1", r"\u0041"),
        c("", "m1", r"a\ud83d"),
        c("", "m1", r"bad \x escape"),
        c("", "m1", "tab\there"),
        c("", "m1", "x").replace("1762425000565", "1.5"),
        c("", "m1", "x").replace("1762425000565", "-1"),
        c("", "m1", "x").replace("1762425000565", "01"),
        c("", "m1", "x").replace('}', r#","extra":1}"#),
        c(r#","subagentRunId":null"#, "m1", "x"),
        format!("{} ", c("", "m1", "x")),
    ] {
        assert!(super::text_content(&data).is_none(), "{data}");
    }
}

/// Feeds `stream` to a session, and the same events with `type` and `timestamp` swapped
/// (same length: the same byte offsets in messages; the direct readers refuse them) to
/// another, and checks both give the same state, diagnostics and applied events; returns
/// how many events a decoder took directly.
pub(crate) fn lockstep(stream: &[String]) -> usize {
    let swap = |e: &String| -> String {
        let (head, rest) = e.split_once(r#","timestamp":"#).unwrap_or((e, ""));
        let Some(ty) = head.strip_prefix(r#"{"type":"#) else {
            return e.clone();
        };
        let (ts, rest) = rest.split_at(rest.find([',', '}']).unwrap_or(rest.len()));
        format!(r#"{{"timestamp":{ts},"type":{ty}{rest}"#)
    };
    lockstep_with(stream, swap)
}

/// [`lockstep`] with `general` making the text the general path gets.
fn lockstep_with(stream: &[String], general: impl Fn(&String) -> String) -> usize {
    let general: Vec<String> = stream.iter().map(general).collect();
    let mut probe = DialectDecoder::new(DialectChoice::Fixed(Dialect::AgUi));
    for e in &general {
        let mut iso = [0; 24];
        assert!(!probe.direct(e, &mut iso, &mut |_| {}), "{e}");
    }
    let (a, b) = (session_of(stream), session_of(&general));
    assert_eq!(a.2, b.2, "applied events");
    // (The state and diagnostics quote the events: the general path's text swapped back.)
    let back = |d: &String| {
        let mut d = d.clone();
        for (e, g) in stream.iter().zip(&general) {
            let json = |t: &String| t.replace('\\', "\\\\").replace('"', "\\\"");
            d = d.replace(&json(g), &json(e));
        }
        d
    };
    assert_eq!(a.0, back(&b.0), "state");
    assert_eq!(a.1, b.1.iter().map(back).collect::<Vec<_>>(), "diagnostics");
    // How many the direct path took.
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::AgUi));
    let (mut out, mut took) = (Output::default(), 0);
    for (i, e) in stream.iter().enumerate() {
        let mut iso = [0; 24];
        if d.direct(e, &mut iso, &mut |_| {}) {
            took += 1;
            continue;
        }
        d.decode(e, "", i as u64, &mut out);
    }
    took
}

#[test]
fn the_direct_text_content_gives_what_the_general_path_gives() {
    let took = lockstep(&text_stream());
    assert!(took >= 10, "direct {took}");
}

#[test]
fn the_direct_simple_events_give_what_the_general_path_gives() {
    let ev =
        |ty: &str, rest: &str| format!(r#"{{"type":"{ty}","timestamp":1762425000100,{rest}}}"#);
    let start = |id: &str, role: &str| {
        ev(
            "TEXT_MESSAGE_START",
            &format!(r#""messageId":"{id}","role":"{role}""#),
        )
    };
    let end = |id: &str| ev("TEXT_MESSAGE_END", &format!(r#""messageId":"{id}""#));
    let think = |id: &str| {
        ev(
            "REASONING_MESSAGE_START",
            &format!(r#""messageId":"{id}","role":"reasoning""#),
        )
    };
    let think_end = |id: &str| ev("REASONING_MESSAGE_END", &format!(r#""messageId":"{id}""#));
    let call = |id: &str| {
        ev(
            "TOOL_CALL_START",
            &format!(r#""toolCallId":"{id}","toolCallName":"search""#),
        )
    };
    let args = |id: &str, delta: &str| {
        ev(
            "TOOL_CALL_ARGS",
            &format!(r#""toolCallId":"{id}","delta":"{delta}""#),
        )
    };
    let call_end = |id: &str| ev("TOOL_CALL_END", &format!(r#""toolCallId":"{id}""#));
    let sub = |e: String| {
        e.replacen(
            r#","messageId""#,
            r#","subagentRunId":"sub-1","messageId""#,
            1,
        )
        .replacen(
            r#","toolCallId""#,
            r#","subagentRunId":"sub-1","toolCallId""#,
            1,
        )
    };
    let stream: Vec<String> = vec![
        // before any run
        start("m0", "assistant"),
        args("c0", "{}"),
        r#"{"type":"RUN_STARTED","timestamp":1762425000000,"threadId":"t1","runId":"r1"}"#.into(),
        // text messages: each role, an unknown one, a name, already open, ended twice
        start("m1", "assistant"),
        start("m1", "assistant"),
        end("m1"),
        end("m1"),
        start("m1", "assistant"),
        end("m1"),
        start("m2", "user"),
        end("m2"),
        start("m3", "developer"),
        start("m4", "system"),
        start("m5", "tool"),
        start("m6", "reasoning"),
        start("m7", r#"assist\"ant"#),
        ev("TEXT_MESSAGE_START", r#""messageId":"m8","role":"assistant","name":"bot""#),
        ev("TEXT_MESSAGE_START", r#""messageId":"m9""#),
        end("m3"),
        end("m4"),
        end("nobody"),
        // a split surrogate pair left open at the end: U+FFFD first
        c("", "m8", r"x\ud83d"),
        end("m8"),
        // an activity's id
        ev("ACTIVITY_SNAPSHOT", r#""messageId":"a1","activityType":"p","content":{}"#),
        start("a1", "assistant"),
        // reasoning: started, a text end for it, its end, a start with another role
        think("th1"),
        think("th1"),
        end("th1"),
        r#"{"type":"REASONING_MESSAGE_CONTENT","timestamp":1762425000100,"messageId":"th1","delta":"hm"}"#.into(),
        think_end("th1"),
        ev("REASONING_MESSAGE_START", r#""messageId":"th2","role":"assistant""#),
        // a reasoning message a snapshot closes as an assistant one, reopened as text and
        // ended: its thought too (a second event: the general path's)
        think("th3"),
        ev("MESSAGES_SNAPSHOT", r#""messages":[{"id":"th3","role":"assistant","content":"x"}]"#),
        start("th3", "assistant"),
        end("th3"),
        // tool calls: arguments before the start, escaped, split surrogates, after the end
        args("c1", "{}"),
        call("c1"),
        args("c1", r#"{\"q\":\"a\\nb\"}"#),
        args("c1", r"A"),
        args("c1", r"x\ud83d"),
        args("c1", "plain after a high half"),
        args("c1", r"y\ud83d"),
        call_end("c1"),
        args("c1", "late"),
        call_end("c1"),
        call("c2"),
        args("c2", ""),
        call_end("c2"),
        // a sub-agent: its messages and calls; another owner; an unknown sub-agent
        ev("SUBAGENT_STARTED", r#""subagentRunId":"sub-1","name":"helper""#),
        sub(start("s1", "assistant")),
        end("s1"),
        sub(end("s1")),
        sub(think("s2")),
        sub(call("s3")),
        args("s3", "run's"),
        sub(args("s3", "sub's")),
        sub(call_end("s3")),
        start("s4", "assistant").replacen(r#","messageId""#, r#","subagentRunId":"nobody","messageId""#, 1),
        // a message of an earlier run reopened (the text goes to this run)
        end("m9"),
        r#"{"type":"RUN_FINISHED","timestamp":1762425000200,"threadId":"t1","runId":"r1"}"#.into(),
        r#"{"type":"RUN_STARTED","timestamp":1762425000300,"threadId":"t1","runId":"r2"}"#.into(),
        start("m1", "assistant"),
        end("m1"),
        // an open chunk lane is closed first
        r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":1762425000301,"messageId":"k1","delta":"chunk"}"#.into(),
        start("m10", "assistant"),
        // a timestamp past year 9999
        end("m10").replace("1762425000100", "999999999999999"),
        ev("TOOL_CALL_END", r#""toolCallId":"c1","extra":1"#),
        r#"{"type":"RUN_FINISHED","timestamp":1762425000400,"threadId":"t1","runId":"r2"}"#.into(),
        end("m10"),
    ];
    let took = lockstep(&stream);
    assert!(took >= 20, "direct {took}");
    // The reader refuses other members, escapes in ids, `\u` escapes.
    for refused in [
        ev(
            "TEXT_MESSAGE_START",
            r#""messageId":"m","role":"assistant","name":"n""#,
        ),
        ev("TEXT_MESSAGE_END", r#""messageId":"m\u0031""#),
        ev("TOOL_CALL_ARGS", r#""toolCallId":"c","delta":"\u0041""#),
        ev("TOOL_CALL_END", r#""toolCallId":"c","extra":1"#),
        ev("TOOL_CALL_END", r#""toolCallId":"c" "#),
    ] {
        assert!(super::simple(&refused).is_none(), "{refused}");
    }
    assert!(
        super::simple(&args("c", r#"a\"b"#)).is_some_and(|e| e.second.as_deref() == Some("a\"b"))
    );
}

#[test]
fn the_direct_custom_event_gives_what_the_general_path_gives() {
    let custom = |rest: &str| format!(r#"{{"type":"CUSTOM","timestamp":1762425000100,{rest}}}"#);
    let v = |value: &str| custom(&format!(r#""name":"internal:llm-call","value":{value}"#));
    let nested = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let mut stream: Vec<String> = vec![
        v("1"),
        r#"{"type":"RUN_STARTED","timestamp":1762425000000,"threadId":"t1","runId":"r1"}"#.into(),
        v(r#"{"iteration":1,"model":"llama","s":"esc\"aped \u00e9 ✓","n":[1,2.5,-3,1e300],"o":{}}"#),
        v(r#"[1,"two",null,true]"#),
        v(r#""text""#),
        v("null"),
        v("-0"),
        v(r#"{"z":-0.0}"#),
        v("1e400"),
        v(r#"{"bad":tru}"#),
        v(r#" {"ws":true} "#),
        v(r#"{"a":1,"a":2}"#),
        v(r#"1,"extra":2"#),
        custom(r#""name":"n""#),
        custom(r#""name":"esc\"aped","value":1"#),
        custom(r#""name":7,"value":1"#),
        custom(r#""value":1,"name":"n""#),
        custom(r#""name":"n","value":1,"kind":"task-created""#),
        custom(r#""subagentRunId":"sub-1","name":"n","value":1"#),
        r#"{"type":"SUBAGENT_STARTED","timestamp":1762425000101,"subagentRunId":"sub-1","name":"helper"}"#.into(),
        custom(r#""subagentRunId":"sub-1","name":"n","value":{"from":"sub"}"#),
        custom(r#""subagentRunId":"sub-2","name":"n","value":1"#),
        custom(r#""subagentRunId":null,"name":"n","value":1"#),
        // an open chunk lane is closed first
        r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":1762425000006,"messageId":"m3","delta":"chunk"}"#.into(),
        v("2"),
        r#"{"type":"TEXT_MESSAGE_END","timestamp":1762425000007,"messageId":"m3"}"#.into(),
        // its time is the stream's: an event without one takes it
        v("3").replace("1762425000100", "1762425000777"),
        r#"{"type":"TEXT_MESSAGE_START","messageId":"m4","role":"assistant"}"#.into(),
        r#"{"type":"TEXT_MESSAGE_END","timestamp":1762425000800,"messageId":"m4"}"#.into(),
        // a timestamp past year 9999
        v("3").replace("1762425000100", "999999999999999"),
    ];
    for n in 124..=130 {
        stream.push(v(&nested(n)));
    }
    stream.push(
        r#"{"type":"RUN_FINISHED","timestamp":1762425000200,"threadId":"t1","runId":"r1"}"#.into(),
    );
    stream.push(v("4"));
    // (A space after the event: the same members in the same order, which the canonical
    // event keeps, and the same byte offsets in messages.)
    let took = lockstep_with(&stream, |e| format!("{e} "));
    assert!(took >= 10, "direct {took}");
    // (The depth limit falls inside 124..=130: both sides of it are in the stream.)
    for refused in [v("-0"), v("1e400"), v(r#"1,"extra":2"#), v(&nested(130))] {
        assert!(super::custom(&refused).is_none(), "{refused}");
    }
    assert!(super::custom(&v(&nested(124))).is_some());
}

/// Feeds `events` as SSE to an AG-UI session; returns the state, the diagnostics and the
/// applied events.
fn session_of(events: &[String]) -> (String, Vec<String>, Vec<String>) {
    use crate::pipeline::Session;
    let mut s = Session::with_dialect(
        crate::sse::SseConfig::default(),
        crate::state::Limits::default(),
        DialectChoice::Fixed(Dialect::AgUi),
    );
    let mut applied = Vec::new();
    for e in events {
        s.feed(format!("data: {e}\n\n").as_bytes(), &mut |ev, _, _| {
            applied.push(format!("{ev:?}"))
        });
    }
    let diags = s
        .store()
        .diagnostics()
        .map(|d| {
            format!(
                "{:?} {:?} {} {} {}",
                d.code, d.severity, d.message, d.path, d.position
            )
        })
        .collect();
    (s.store().state_json(), diags, applied)
}

#[test]
fn the_direct_state_delta_gives_what_the_general_path_gives() {
    let d = |delta: &str| {
        format!(r#"{{"type":"STATE_DELTA","timestamp":1762425000100,"delta":{delta}}}"#)
    };
    let nested = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let mut stream: Vec<String> = vec![
        d(r#"[{"op":"add","path":"/early","value":1}]"#),
        r#"{"type":"RUN_STARTED","timestamp":1762425000000,"threadId":"t1","runId":"r1"}"#.into(),
        d(r#"[{"op":"add","path":"/a","value":{"s":"esc\"aped \u00e9","n":[1,2.5,-3,1e300]}}]"#),
        d(r#"[{"op":"add","path":"/z","value":-0}]"#),
        d(r#"[{"op":"add","path":"/z2","value":-0.0}]"#),
        d(r#"[{"op":"add","path":"/big","value":1e400}]"#),
        d(r#"[{"op":"test","path":"/big","value":null}]"#),
        d(r#"[{"op":"test","path":"/a/n/0","value":2}]"#),
        d(r#"[{"op":"replace","path":"/a/n/0","value":7},{"op":"remove","path":"/nope"}]"#),
        d(r#"[{"op":"move","from":"/a/s","path":"/s"}]"#),
        d(r#" [ {"op":"add","path":"/ws","value":true} ] "#),
        d(r#"{"op":"add","path":"/obj","value":1}"#),
        d(r#"[1],"extra":2"#),
        d(r#"[{"op":"add","path":"/bad","value":tru}]"#),
        d("[]"),
        d("null"),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"delta":[],"extra":1}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"x","delta":[]}"#.into(),
        // a sub-agent's delta: to the run's state as any other (an unknown one is a warning)
        r#"{"type":"SUBAGENT_STARTED","timestamp":1762425000101,"subagentRunId":"sub-1","name":"helper"}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"sub-1","delta":[{"op":"add","path":"/sub","value":1}]}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"sub-2","delta":[{"op":"add","path":"/sub2","value":1}]}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"sub\u002d1","delta":[{"op":"add","path":"/sub3","value":1}]}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"sub-1","delta":[{"op":"test","path":"/sub","value":2}]}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"sub-1","delta":[{"op":"add","path":"/z","value":-0}]}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"","delta":[]}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":7,"delta":[]}"#.into(),
        r#"{"type":"SUBAGENT_FINISHED","timestamp":1762425000103,"subagentRunId":"sub-1"}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"sub-1","delta":[{"op":"add","path":"/sub-after","value":1}]}"#.into(),
        // a sub-agent's open chunk lane, then its delta
        r#"{"type":"SUBAGENT_STARTED","timestamp":1762425000105,"subagentRunId":"sub-3","name":"helper"}"#.into(),
        r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":1762425000106,"subagentRunId":"sub-3","messageId":"m9","delta":"chunk"}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"subagentRunId":"sub-3","delta":[{"op":"add","path":"/sub-lane","value":1}]}"#.into(),
        r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":1762425000108,"subagentRunId":"sub-3","messageId":"m9","delta":"more"}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"delta":[{"op":"add","path":"/run-with-sub-lane","value":1}]}"#.into(),
        r#"{"type":"STATE_DELTA","timestamp":99999999999999999,"delta":[]}"#.into(),
        // an open chunk lane of the run is closed first
        r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":1762425000006,"messageId":"m3","delta":"chunk"}"#.into(),
        d(r#"[{"op":"add","path":"/after-chunk","value":1}]"#),
    ];
    // nesting around the parser's depth limit
    for n in 124..=130 {
        stream.push(d(&format!(
            r#"[{{"op":"add","path":"/deep{n}","value":{}}}]"#,
            nested(n)
        )));
    }
    stream.push(
        r#"{"type":"RUN_FINISHED","timestamp":1762425000200,"threadId":"t1","runId":"r1"}"#.into(),
    );
    stream.push(d(r#"[{"op":"add","path":"/late","value":1}]"#));
    // The general path gets the same text with `type` and `timestamp` swapped (same length:
    // the same byte offsets in messages), which the direct reader refuses.
    let (head, swapped) = (
        r#"{"type":"STATE_DELTA","timestamp":1762425000100,"#,
        r#"{"timestamp":1762425000100,"type":"STATE_DELTA","#,
    );
    let general: Vec<String> = stream
        .iter()
        .map(|e| e.replacen(head, swapped, 1))
        .collect();
    let (a, b) = (session_of(&stream), session_of(&general));
    let back = |s: &String| {
        s.replace(swapped, head)
            .replace(&swapped.replace('"', "\\\""), &head.replace('"', "\\\""))
    };
    assert_eq!(a.0, back(&b.0), "state");
    assert_eq!(a.1, b.1.iter().map(back).collect::<Vec<_>>(), "diagnostics");
    assert_eq!(a.2, b.2, "applied events");
    assert!(general.iter().all(|e| super::state_delta(e).is_none()));
    // The direct reader took the plain cases and refused the rest.
    let took = stream
        .iter()
        .filter(|e| super::state_delta(e).is_some())
        .count();
    assert!(took >= 10, "direct {took}");
    for refused in [
        d(r#"[{"op":"add","path":"/z","value":-0}]"#),
        d(r#"[{"op":"add","path":"/big","value":1e400}]"#),
        d(r#"{"op":"add","path":"/obj","value":1}"#),
        d(r#"[1],"extra":2"#),
        d(&format!(
            r#"[{{"op":"add","path":"/d","value":{}}}]"#,
            nested(127)
        )),
    ] {
        assert!(super::state_delta(&refused).is_none(), "{refused}");
    }
    assert!(super::state_delta(&d(&format!(
        r#"[{{"op":"add","path":"/d","value":{}}}]"#,
        nested(124)
    )))
    .is_some());
}

#[test]
fn the_direct_activity_snapshot_gives_what_the_general_path_gives() {
    let head = r#"{"type":"ACTIVITY_SNAPSHOT","timestamp":1762425000100,"#;
    let a = |rest: &str| format!("{head}{rest}}}");
    let act = |id: &str, content: &str| {
        a(&format!(
            r#""messageId":"{id}","activityType":"progress","replace":true,"content":{content}"#
        ))
    };
    let nested = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    let mut stream: Vec<String> = vec![
        act("early", r#"{"p":1}"#),
        r#"{"type":"RUN_STARTED","timestamp":1762425000000,"threadId":"t1","runId":"r1"}"#.into(),
        act("a1", r#"{"p":0.25,"s":"esc\"aped \u00e9 ✓","n":[1,2.5,-3,1e300],"o":{}}"#),
        a(r#""messageId":"a1","activityType":"progress","replace":false,"content":{"p":0.5}"#),
        a(r#""messageId":"a1","activityType":"other","content":{"p":0.75}"#),
        a(r#""messageId":"a1","activityType":"progress","replace":"yes","content":{"p":0.8}"#),
        act("a1", r#"{"a":1,"a":2}"#),
        act("a2", r#"{"z":-0}"#),
        act("a2", r#"{"z":-0.0}"#),
        act("a2", r#"{"big":1e400}"#),
        act("a2", r#"[1]"#),
        act("a2", r#""text""#),
        act("a2", "null"),
        act("a2", r#"{"bad":tru}"#),
        act("a2", r#" {"ws":true} "#),
        act("a2", r#"{"p":1},"extra":2"#),
        a(r#""messageId":"a3","content":{"p":1}"#),
        a(r#""messageId":"a3","activityType":7,"content":{"p":1}"#),
        a(r#""messageId":"a\u0033","activityType":"progress","content":{"p":1}"#),
        a(r#""messageId":"","activityType":"progress","content":{"p":1}"#),
        // a text message's id
        r#"{"type":"TEXT_MESSAGE_START","timestamp":1762425000001,"messageId":"m1","role":"assistant"}"#.into(),
        act("m1", r#"{"p":1}"#),
        r#"{"type":"TEXT_MESSAGE_END","timestamp":1762425000002,"messageId":"m1"}"#.into(),
        // then patched
        r#"{"type":"ACTIVITY_DELTA","timestamp":1762425000003,"messageId":"a1","activityType":"progress","patch":[{"op":"replace","path":"/p","value":0.9}]}"#.into(),
        // sub-agents: known, unknown, escaped; a sub-agent's activity updated by the run
        r#"{"type":"SUBAGENT_STARTED","timestamp":1762425000004,"subagentRunId":"sub-1","name":"helper"}"#.into(),
        a(r#""subagentRunId":"sub-1","messageId":"s1","activityType":"progress","replace":true,"content":{"p":1}"#),
        a(r#""subagentRunId":"sub-2","messageId":"s2","activityType":"progress","content":{"p":1}"#),
        a(r#""subagentRunId":"sub\u002d1","messageId":"s3","activityType":"progress","content":{"p":1}"#),
        a(r#""subagentRunId":7,"messageId":"s4","activityType":"progress","content":{"p":1}"#),
        act("s1", r#"{"p":2}"#),
        a(r#""subagentRunId":"sub-1","messageId":"a1","activityType":"progress","content":{"p":3}"#),
        r#"{"type":"SUBAGENT_FINISHED","timestamp":1762425000005,"subagentRunId":"sub-1"}"#.into(),
        // an open chunk lane is closed first
        r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":1762425000006,"messageId":"m3","delta":"chunk"}"#.into(),
        act("a4", r#"{"p":1}"#),
        r#"{"type":"ACTIVITY_SNAPSHOT","timestamp":99999999999999999,"messageId":"a5","activityType":"progress","content":{"p":1}}"#.into(),
    ];
    // nesting around the parser's depth limit (two levels deeper in the canonical event)
    for n in 123..=128 {
        stream.push(act(
            &format!("deep{n}"),
            &format!(r#"{{"v":{}}}"#, nested(n)),
        ));
    }
    stream.push(
        r#"{"type":"RUN_FINISHED","timestamp":1762425000200,"threadId":"t1","runId":"r1"}"#.into(),
    );
    stream.push(act("late", r#"{"p":1}"#));
    // The general path gets the same text with `type` and `timestamp` swapped (same length),
    // which the direct reader refuses.
    let swapped = r#"{"timestamp":1762425000100,"type":"ACTIVITY_SNAPSHOT","#;
    let general: Vec<String> = stream
        .iter()
        .map(|e| e.replacen(head, swapped, 1))
        .collect();
    let (x, y) = (session_of(&stream), session_of(&general));
    let back = |s: &String| {
        s.replace(swapped, head)
            .replace(&swapped.replace('"', "\\\""), &head.replace('"', "\\\""))
    };
    assert_eq!(x.0, back(&y.0), "state");
    assert_eq!(x.1, y.1.iter().map(back).collect::<Vec<_>>(), "diagnostics");
    assert_eq!(x.2, y.2, "applied events");
    assert!(general
        .iter()
        .all(|e| super::activity_snapshot(e).is_none()));
    let took = stream
        .iter()
        .filter(|e| super::activity_snapshot(e).is_some())
        .count();
    assert!(took >= 15, "direct {took}");
    for refused in [
        act("r", r#"{"z":-0}"#),
        act("r", r#"{"big":1e400}"#),
        act("r", "[1]"),
        act("r", r#"{"p":1},"extra":2"#),
        act("r", &format!(r#"{{"v":{}}}"#, nested(126))),
    ] {
        assert!(super::activity_snapshot(&refused).is_none(), "{refused}");
    }
    assert!(super::activity_snapshot(&act("r", &format!(r#"{{"v":{}}}"#, nested(125)))).is_some());
}
