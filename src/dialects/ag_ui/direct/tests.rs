//! The lockstep tests of the direct paths that give several events: each against the general
//! path (same state, diagnostics and applied events, in order).

use crate::dialects::ag_ui::fast::lockstep;
use crate::dialects::{Dialect, DialectChoice, DialectDecoder};

fn ev(ty: &str, rest: &str) -> String {
    format!(r#"{{"type":"{ty}","timestamp":1762425000100,{rest}}}"#)
}

const RUN: &str =
    r#"{"type":"RUN_STARTED","timestamp":1762425000000,"threadId":"t1","runId":"r1"}"#;
const RUN_END: &str =
    r#"{"type":"RUN_FINISHED","timestamp":1762425000900,"threadId":"t1","runId":"r1"}"#;
const SUB: &str = r#"{"type":"SUBAGENT_STARTED","timestamp":1762425000002,"subagentRunId":"sub-1","name":"helper"}"#;
/// An open chunk lane of the run (closed by the next event of the run: not direct).
const CHUNK: &str =
    r#"{"type":"TEXT_MESSAGE_CHUNK","timestamp":1762425000006,"messageId":"k1","delta":"chunk"}"#;

/// How many of `stream`'s events of type `ty` a decoder takes directly (the others decoded
/// the general way in between).
fn taken(stream: &[String], ty: &str) -> usize {
    let mut d = DialectDecoder::new(DialectChoice::Fixed(Dialect::AgUi));
    let (mut out, mut took) = (crate::dialects::Output::default(), 0);
    let head = format!(r#"{{"type":"{ty}","#);
    for (i, e) in stream.iter().enumerate() {
        let mut iso = [0; 24];
        let mut n = 0;
        if d.direct(e, &mut iso, &mut |_| n += 1) {
            assert!(n > 0, "{e}");
            took += usize::from(e.starts_with(&head));
            continue;
        }
        assert_eq!(n, 0, "nothing given when not taken: {e}");
        d.decode(e, "", i as u64, &mut out);
    }
    took
}

#[test]
fn the_direct_reasoning_end_gives_what_the_general_path_gives() {
    let start = |id: &str| {
        ev(
            "REASONING_MESSAGE_START",
            &format!(r#""messageId":"{id}","role":"reasoning""#),
        )
    };
    let content = |id: &str, d: &str| {
        ev(
            "REASONING_MESSAGE_CONTENT",
            &format!(r#""messageId":"{id}","delta":"{d}""#),
        )
    };
    let end = |id: &str| ev("REASONING_MESSAGE_END", &format!(r#""messageId":"{id}""#));
    let owned = |e: String, o: &str| {
        e.replacen(
            r#","messageId""#,
            &format!(r#","subagentRunId":"{o}","messageId""#),
            1,
        )
    };
    let stream: Vec<String> = vec![
        // before any run
        end("th0"),
        RUN.into(),
        // a thought with text (escapes, several deltas), one without, one never started
        start("th1"),
        content("th1", r#"esc\"aped ✓ "#),
        content("th1", r"line\nbreak"),
        end("th1"),
        end("th1"),
        start("th2"),
        end("th2"),
        end("nobody"),
        // a text message ended as reasoning
        ev(
            "TEXT_MESSAGE_START",
            r#""messageId":"m1","role":"assistant""#,
        ),
        end("m1"),
        ev("TEXT_MESSAGE_END", r#""messageId":"m1""#),
        // a split surrogate pair left open: U+FFFD first (a third event)
        start("th3"),
        content("th3", r"a\ud83d"),
        end("th3"),
        // a reasoning message restarted after its end: a new thought
        start("th1"),
        content("th1", "again"),
        end("th1"),
        // sub-agents: its own end, the run's end of its thought, its end of the run's
        SUB.into(),
        owned(start("s1"), "sub-1"),
        owned(content("s1", "sub thinks"), "sub-1"),
        end("s1"),
        owned(end("s1"), "sub-1"),
        start("th4"),
        owned(end("th4"), "sub-1"),
        owned(end("th4"), "nobody"),
        end("th4"),
        // a snapshot turns an open reasoning message into a closed assistant one
        start("th5"),
        ev(
            "MESSAGES_SNAPSHOT",
            r#""messages":[{"id":"th5","role":"assistant","content":"x"}]"#,
        ),
        end("th5"),
        // an open chunk lane is closed first
        start("th6"),
        CHUNK.into(),
        end("th6"),
        start("th7"),
        // a timestamp past year 9999
        end("th7").replace("1762425000100", "999999999999999"),
        end("th7"),
        // other members: the general path
        ev("REASONING_MESSAGE_END", r#""messageId":"th7","extra":1"#),
        start("th8"),
        RUN_END.into(),
        end("th8"),
    ];
    let took = lockstep(&stream);
    assert!(took >= 10, "direct {took}");
    assert_eq!(taken(&stream, "REASONING_MESSAGE_END"), 6);
}

#[test]
fn the_direct_tool_start_gives_what_the_general_path_gives() {
    let call = |id: &str, name: &str| {
        ev(
            "TOOL_CALL_START",
            &format!(r#""toolCallId":"{id}","toolCallName":"{name}""#),
        )
    };
    let end = |id: &str| ev("TOOL_CALL_END", &format!(r#""toolCallId":"{id}""#));
    let owned = |e: String, o: &str| {
        e.replacen(
            r#","toolCallId""#,
            &format!(r#","subagentRunId":"{o}","toolCallId""#),
            1,
        )
    };
    let stream: Vec<String> = vec![
        // before any run
        call("c0", "search"),
        RUN.into(),
        // new calls (an escaped name, an empty one); already open; started again after its end
        call("c1", "search"),
        call("c2", r#"se\"arch\n"#),
        call("c3", ""),
        call("c1", "search"),
        end("c1"),
        call("c1", "renamed"),
        // a call id naming an assistant message (it holds the call), a user message, an
        // activity, a reasoning message
        ev(
            "TEXT_MESSAGE_START",
            r#""messageId":"c4","role":"assistant""#,
        ),
        ev("TEXT_MESSAGE_END", r#""messageId":"c4""#),
        call("c4", "search"),
        ev("TEXT_MESSAGE_START", r#""messageId":"c5","role":"user""#),
        call("c5", "search"),
        ev(
            "ACTIVITY_SNAPSHOT",
            r#""messageId":"c6","activityType":"p","content":{}"#,
        ),
        call("c6", "search"),
        ev(
            "REASONING_MESSAGE_START",
            r#""messageId":"c7","role":"reasoning""#,
        ),
        call("c7", "search"),
        // a parent message: the general path
        ev(
            "TOOL_CALL_START",
            r#""toolCallId":"c8","toolCallName":"s","parentMessageId":"c4""#,
        ),
        ev(
            "TOOL_CALL_START",
            r#""toolCallId":"c9","toolCallName":"s","parentMessageId":"p9""#,
        ),
        // sub-agents: known, unknown
        SUB.into(),
        owned(call("s1", "search"), "sub-1"),
        owned(call("s2", "search"), "nobody"),
        owned(end("s1"), "sub-1"),
        // an open chunk lane is closed first
        CHUNK.into(),
        call("c10", "search"),
        // a timestamp past year 9999; `\u` in the name
        call("c11", "search").replace("1762425000100", "999999999999999"),
        call("c12", r"\u0041"),
        RUN_END.into(),
        call("c13", "late"),
        // the next run: a call id naming an assistant message of the earlier run
        RUN.replace("r1", "r2"),
        call("c4", "again"),
        ev(
            "TEXT_MESSAGE_START",
            r#""messageId":"m2","role":"assistant""#,
        ),
        ev("TEXT_MESSAGE_END", r#""messageId":"m2""#),
        call("m2", "search"),
    ];
    let took = lockstep(&stream);
    assert!(took >= 10, "direct {took}");
    assert_eq!(taken(&stream, "TOOL_CALL_START"), 10);
}

#[test]
fn the_direct_tool_result_gives_what_the_general_path_gives() {
    let call = |id: &str| {
        ev(
            "TOOL_CALL_START",
            &format!(r#""toolCallId":"{id}","toolCallName":"search""#),
        )
    };
    let end = |id: &str| ev("TOOL_CALL_END", &format!(r#""toolCallId":"{id}""#));
    let result = |id: &str, msg: &str, content: &str| {
        ev(
            "TOOL_CALL_RESULT",
            &format!(
                r#""messageId":"{msg}","toolCallId":"{id}","role":"tool","content":{content}"#
            ),
        )
    };
    let done = |id: &str| [call(id), end(id)];
    let nested = |n: usize| format!("{}1{}", r"[".repeat(n), r"]".repeat(n));
    let mut stream: Vec<String> = vec![result("c0", "r0", r#""early""#), RUN.into()];
    let contents = [
        r#""{\"count\":2,\"records\":[{\"id\":1,\"title\":\"Zürich 🚀\",\"score\":0.131}]}""#
            .to_owned(),
        r#""[1,\"two\",null,true,2.5e-3]""#.to_owned(),
        r#""plain text, not JSON""#.to_owned(),
        r#""""#.to_owned(),
        r#""null""#.to_owned(),
        r#""42""#.to_owned(),
        r#""\"a string\"""#.to_owned(),
        r#""{\"bad\":tru}""#.to_owned(),
        r#""{\"a\":1,\"a\":2}""#.to_owned(),
        r#""{\"z\":-0}""#.to_owned(),
        r#""[-0.0]""#.to_owned(),
        r#""{\"big\":1e400}""#.to_owned(),
        r#"" {\"ws\":true} ""#.to_owned(),
        r#""line\nbreak\ttab\\back\/slash""#.to_owned(),
        r#""\u0041""#.to_owned(),
        "42".to_owned(),
        r#"{"an":"object"}"#.to_owned(),
        "null".to_owned(),
    ];
    for (i, c) in contents.iter().enumerate() {
        let id = format!("c{}", i + 1);
        stream.extend(done(&id));
        stream.push(result(&id, &format!("r{}", i + 1), c));
    }
    // nesting around the parser's depth limit (one level deeper in `tool-complete`)
    for n in 124..=130 {
        let id = format!("deep{n}");
        stream.extend(done(&id));
        stream.push(result(&id, &id, &format!(r#""{}""#, nested(n))));
    }
    let no_role = |id: &str, msg: &str| {
        ev(
            "TOOL_CALL_RESULT",
            &format!(r#""messageId":"{msg}","toolCallId":"{id}","content":"{{}}""#),
        )
    };
    stream.extend([
        // answered twice; without and with another role; an unknown call; a call still open
        result("c1", "r1b", r#""{}""#),
        no_role("c1", "r1c"),
        r#"{"type":"TOOL_CALL_RESULT","timestamp":1762425000100,"messageId":"x1","toolCallId":"x1","role":"user","content":"{}"}"#.into(),
        result("nobody", "r-nobody", r#""{}""#),
        call("open1"),
        result("open1", "r-open", r#""{}""#),
        // a message id of a text message; an escaped id (the general path)
        call("c50"),
        end("c50"),
        ev("TEXT_MESSAGE_START", r#""messageId":"m1","role":"assistant""#),
        result("c50", "m1", r#""{}""#),
        call("c51"),
        end("c51"),
        result("c51", r"r\u0031", r#""{}""#),
        // sub-agents: its call with and without its owner; another's; an unknown owner
        SUB.into(),
        call("s1").replacen(r#","toolCallId""#, r#","subagentRunId":"sub-1","toolCallId""#, 1),
        end("s1"),
        result("s1", "rs1", r#""{\"sub\":1}""#).replacen(r#","messageId""#, r#","subagentRunId":"sub-1","messageId""#, 1),
        call("s2").replacen(r#","toolCallId""#, r#","subagentRunId":"sub-1","toolCallId""#, 1),
        end("s2"),
        result("s2", "rs2", r#""{}""#),
        call("s3"),
        end("s3"),
        result("s3", "rs3", r#""{}""#).replacen(r#","messageId""#, r#","subagentRunId":"nobody","messageId""#, 1),
        // an open chunk lane is closed first; a timestamp past year 9999
        call("c52"),
        end("c52"),
        CHUNK.into(),
        result("c52", "r52", r#""{}""#),
        call("c53"),
        end("c53"),
        result("c53", "r53", r#""{}""#).replace("1762425000100", "999999999999999"),
        result("c53", "r53", r#""{}""#).replace('}', r#","extra":1}"#),
        call("c54"),
        end("c54"),
        call("c55"),
        end("c55"),
        RUN_END.into(),
        result("c54", "r54", r#""{}""#),
        // the next run answers a call of the earlier one (the message goes to this run)
        RUN.replace("r1", "r2"),
        result("c55", "r55", r#""{\"late\":true}""#),
        RUN_END.replace("r1", "r2"),
    ]);
    let took = lockstep(&stream);
    assert!(took >= 20, "direct {took}");
    // (Every plain call with an ended argument list whose content is JSON text: objects,
    // arrays and scalars, up to 127 levels deep; not JSON, or deeper, is the general path's.)
    assert_eq!(taken(&stream, "TOOL_CALL_RESULT"), 16);
    // And the reader refuses what it must leave to the general path.
    for refused in [
        result("c", "r", "42"),
        result("c", "r", r#""\u0041""#),
        result("c", "r", r#""{}""#).replace('}', r#","extra":1}"#),
        no_role("c", "r").replacen("TOOL_CALL_RESULT", "TOOL_CALL_RESULTS", 1),
    ] {
        assert!(
            crate::dialects::ag_ui::fast::tool_result(&refused).is_none(),
            "{refused}"
        );
    }
}

#[test]
fn the_direct_subagent_start_gives_what_the_general_path_gives() {
    let sub = |id: &str, rest: &str| {
        ev(
            "SUBAGENT_STARTED",
            &format!(r#""subagentRunId":"{id}","name":"helper"{rest}"#),
        )
    };
    let done = |id: &str| {
        ev(
            "SUBAGENT_FINISHED",
            &format!(r#""subagentRunId":"{id}","outcome":{{"type":"success"}}"#),
        )
    };
    let stream: Vec<String> = vec![
        // before any run
        sub("s0", ""),
        RUN.into(),
        // without and with a description (escaped, empty), a parent known, unknown, finished
        sub("s1", ""),
        sub("s2", r#","description":"Variance 📈 \"15%\" a\nb""#),
        sub("s3", r#","description":"""#),
        sub("s4", r#","description":"d","parentSubagentRunId":"s2""#),
        sub("s5", r#","parentSubagentRunId":"nobody""#),
        done("s1"),
        sub("s6", r#","parentSubagentRunId":"s1""#),
        // started again: while active, after its end
        sub("s2", ""),
        sub("s1", ""),
        // its events go to its task
        ev(
            "TEXT_MESSAGE_START",
            r#""subagentRunId":"s4","messageId":"m1","role":"assistant""#,
        ),
        ev(
            "TEXT_MESSAGE_END",
            r#""subagentRunId":"s4","messageId":"m1""#,
        ),
        // an escaped name; `\u` in it; other members; another order (the general path)
        ev(
            "SUBAGENT_STARTED",
            r#""subagentRunId":"s7","name":"he\"lper""#,
        ),
        ev(
            "SUBAGENT_STARTED",
            r#""subagentRunId":"s8","name":"\u0041""#,
        ),
        sub("s9", r#","parentToolCallId":"c1""#),
        sub("s10", r#","parentSubagentRunId":"s2","description":"d""#),
        // a timestamp past year 9999; an open chunk lane (`SUBAGENT_STARTED` closes none)
        sub("s12", "").replace("1762425000100", "999999999999999"),
        CHUNK.into(),
        sub("s11", ""),
        RUN_END.into(),
        sub("s13", ""),
    ];
    let took = lockstep(&stream);
    assert!(took >= 5, "direct {took}");
    assert_eq!(taken(&stream, "SUBAGENT_STARTED"), 7);
}
