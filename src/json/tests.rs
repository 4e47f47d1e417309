use super::*;

fn ok(s: &str) -> Value<'_> {
    parse(s).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

#[test]
fn parses_and_round_trips_documents() {
    let cases = [
        r#"{"a":1,"b":[true,false,null],"c":{"d":"e"},"f":-0.5,"g":1e21}"#,
        r#"[]"#,
        r#"{}"#,
        r#""x""#,
        r#"[1,2.25,-3,1.5e-7]"#,
    ];
    for c in cases {
        assert_eq!(ok(c).to_json(), c, "round trip of {c}");
    }
    assert_eq!(ok(" \n{ \"a\" : [ 1 , 2 ] }\t").to_json(), r#"{"a":[1,2]}"#);
}

#[test]
fn strings_borrow_unless_escaped() {
    let v = ok(r#"{"plain":"héllo 👋","esc":"a\nb\u00e9\ud83d\ude00\"\\\/"}"#);
    assert!(matches!(
        v.get("plain"),
        Some(Value::String(Cow::Borrowed("héllo 👋")))
    ));
    assert_eq!(v.get("esc").and_then(Value::as_str), Some("a\nbé😀\"\\/"));
}

#[test]
fn lone_surrogates_become_replacement() {
    assert_eq!(ok(r#""\ud800x""#).as_str(), Some("\u{FFFD}x"));
    assert_eq!(ok(r#""\udc00""#).as_str(), Some("\u{FFFD}"));
    assert_eq!(ok(r#""\ud800\u0041""#).as_str(), Some("\u{FFFD}A"));
}

#[test]
fn last_duplicate_key_wins_like_json_parse() {
    assert_eq!(ok(r#"{"a":1,"a":2}"#).get("a"), Some(&Value::Number(2.0)));
}

#[test]
fn numbers_follow_the_json_grammar() {
    assert_eq!(
        ok("123456789012345678").as_f64(),
        Some(123456789012345678.0)
    );
    assert_eq!(ok("-0").as_f64().map(f64::is_sign_negative), Some(true));
    assert_eq!(ok("0.1").as_f64(), Some(0.1));
    for bad in [
        "01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "-.5",
    ] {
        assert!(parse(bad).is_err(), "{bad} must be rejected");
    }
}

#[test]
fn rejects_malformed_documents_with_offsets() {
    let cases: &[(&str, JsonErrorKind)] = &[
        ("", JsonErrorKind::UnexpectedEnd),
        ("{", JsonErrorKind::UnexpectedEnd),
        (r#"{"a":1,}"#, JsonErrorKind::UnexpectedChar),
        (r#"[1,]"#, JsonErrorKind::UnexpectedChar),
        (r#"{"a" 1}"#, JsonErrorKind::UnexpectedChar),
        ("\"a\nb\"", JsonErrorKind::ControlCharacter),
        (r#""\x""#, JsonErrorKind::InvalidEscape),
        (r#""\u12g4""#, JsonErrorKind::InvalidEscape),
        ("tru", JsonErrorKind::UnexpectedEnd),
        ("trux", JsonErrorKind::UnexpectedChar),
        ("{} {}", JsonErrorKind::TrailingCharacters),
        ("{'a':1}", JsonErrorKind::UnexpectedChar),
        ("\"abc", JsonErrorKind::UnexpectedEnd),
    ];
    for (text, kind) in cases {
        let err = parse(text).expect_err(text);
        assert_eq!(err.kind, *kind, "{text:?}");
        assert!(err.offset <= text.len());
    }
}

#[test]
fn depth_is_limited_without_stack_overflow() {
    let deep = "[".repeat(100_000);
    assert_eq!(
        parse(&deep).map_err(|e| e.kind),
        Err(JsonErrorKind::TooDeep)
    );
    let ok_depth = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert!(parse(&ok_depth).is_ok());
    let too_deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    assert!(parse(&too_deep).is_err());
}

#[test]
fn writer_escapes_like_json_stringify() {
    let mut out = String::new();
    write_str(&mut out, "a\"b\\c\n\u{1}\u{7f}é");
    assert_eq!(out, r#""a\"b\\c\n\u0001é""#.replace('é', "\u{7f}é"));
    let mut n = String::new();
    for x in [1.0, -2.0, 0.5, f64::NAN, 1e21, 1e-7] {
        write_number(&mut n, x);
        n.push(' ');
    }
    assert_eq!(n, "1 -2 0.5 null 1e21 1e-7 ");
}

#[test]
fn random_bytes_never_panic() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let alphabet = br#"{}[]:,"\ u0123456789abcdefnrtE.+-"#;
    for _ in 0..20_000 {
        let mut s = String::new();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let len = (x % 40) as usize;
        for _ in 0..len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push(alphabet[(x % alphabet.len() as u64) as usize] as char);
        }
        if let Ok(v) = parse(&s) {
            // Whatever parses must re-parse to the same value.
            let again = v.to_json();
            assert_eq!(parse(&again).ok(), Some(v), "{s:?}");
        }
    }
}

#[test]
fn plain_run_finds_the_first_stop_byte_at_every_offset() {
    // The 8-bytes-per-step scan must agree with a byte-by-byte one wherever the stop byte
    // falls in a word, for every stop byte and with non-ASCII bytes around it.
    let stops = [b'"', b'\\', 0x00, 0x01, 0x1f];
    let fillers = [
        b'a', b' ', 0x7f, 0x80, 0xc3, 0xff, b'!', b'#', b'[', b']', 0x20, 0x21,
    ];
    for len in 0..40 {
        for &fill in &fillers {
            let mut bytes = vec![fill; len];
            assert_eq!(
                super::parse::plain_run(&bytes),
                None,
                "len {len} fill {fill:#x}"
            );
            for at in 0..len {
                for &stop in &stops {
                    bytes[at] = stop;
                    assert_eq!(
                        super::parse::plain_run(&bytes),
                        Some(at),
                        "len {len} fill {fill:#x} stop {stop:#x} at {at}"
                    );
                    bytes[at] = fill;
                }
            }
        }
    }
    // Every byte value, alone and after a long plain run.
    for b in 0..=255u8 {
        let is_stop = b < 0x20 || b == b'"' || b == b'\\';
        let mut bytes = vec![b'x'; 13];
        bytes.push(b);
        assert_eq!(
            super::parse::plain_run(&bytes),
            is_stop.then_some(13),
            "{b:#x}"
        );
    }
}

#[test]
fn long_strings_with_escapes_and_control_characters() {
    let long = "x".repeat(37);
    let doc = format!(r#"{{"a":"{long}\"{long}é","b":"{long}"}}"#);
    let v = ok(&doc);
    assert_eq!(
        v.get("a").and_then(Value::as_str),
        Some(format!("{long}\"{long}é").as_str())
    );
    assert_eq!(v.get("b").and_then(Value::as_str), Some(long.as_str()));
    for bad in [
        format!("\"{long}\u{1}\""),
        format!("\"{long}\\u00e9{long}\n\""),
    ] {
        assert_eq!(
            parse(&bad).map_err(|e| e.kind),
            Err(JsonErrorKind::ControlCharacter),
            "{bad:?}"
        );
    }
    assert_eq!(
        parse(&format!("\"{long}")).map_err(|e| e.kind),
        Err(JsonErrorKind::UnexpectedEnd)
    );
}

/// The escaping `write_str` had before it used the word-at-a-time scan (byte by byte).
fn write_str_reference(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn write_str_matches_byte_by_byte_escaping() {
    let pieces = [
        "a",
        "é",
        "👋",
        "\"",
        "\\",
        "\n",
        "\r",
        "\t",
        "\u{8}",
        "\u{c}",
        "\u{0}",
        "\u{1f}",
        " ",
        "plain text run",
        "\u{7f}",
        "\u{2028}",
    ];
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..5_000 {
        let mut s = String::new();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        for _ in 0..(x % 30) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push_str(pieces[(x % pieces.len() as u64) as usize]);
        }
        let mut out = String::new();
        write_str(&mut out, &s);
        assert_eq!(out, write_str_reference(&s), "{s:?}");
        assert_eq!(
            parse(&out).ok().and_then(|v| v.as_str().map(str::to_owned)),
            Some(s)
        );
    }
}

#[test]
fn integers_are_written_as_display_does() {
    let mut n = String::new();
    for x in [
        0.0,
        -0.0,
        1.0,
        -1.0,
        9.0,
        10.0,
        12345.0,
        -987654321.0,
        9_999_999_999_999_998.0,
        -9_999_999_999_999_998.0,
        1e15,
        4_294_967_296.0,
    ] {
        n.clear();
        write_number(&mut n, x);
        assert_eq!(n, format!("{}", x as i64), "{x}");
    }
}

#[test]
fn find_str_agrees_with_str_find() {
    let hays = [
        "",
        "a",
        "aaab",
        "xx\\\"yy",
        "héllo \"key\": 1",
        "application/json; charset=utf-8",
        "ééé",
    ];
    let needles = [
        "",
        "a",
        "aab",
        "\\\"",
        "\"key\"",
        "application/json",
        "é",
        "éé",
        "zz",
        "aaaaab",
    ];
    for h in hays {
        for n in needles {
            assert_eq!(find_str(h, n), h.find(n), "{h:?} / {n:?}");
            assert_eq!(contains_str(h, n), h.contains(n), "{h:?} / {n:?}");
        }
    }
}

/// The JSON handed to JavaScript is made ASCII by `escape_non_ascii`: it must parse to the very
/// same value (the snapshot shows it), whatever the characters and wherever they fall in the
/// eight-byte steps of the scan.
#[test]
fn escape_non_ascii_keeps_the_value_and_leaves_ascii() {
    let texts = [
        "",
        "plain",
        "é",
        "résumé naïve",
        "→ 分析 📈 🚀",
        "1234567é",
        "12345678é",
        "1234567📈x",
        "\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
        "quote \" back \\ nl \n é",
    ];
    for t in texts {
        let mut json = String::new();
        Value::Object(vec![(
            t.into(),
            Value::Array(vec![Value::String(t.into())]),
        )])
        .write(&mut json);
        let original = json.clone();
        escape_non_ascii(&mut json, 0);
        assert!(json.is_ascii(), "{json}");
        assert_eq!(ok(&json).to_json(), original, "{t:?}");
        // Only the part from `from` on is rewritten.
        let mut two = format!("[{original},");
        let from = two.len();
        two.push_str(&original);
        two.push(']');
        escape_non_ascii(&mut two, from);
        assert_eq!(two.get(..from), Some(format!("[{original},").as_str()));
        assert!(two.get(from..).is_some_and(str::is_ascii));
        assert_eq!(ok(&two).to_json(), format!("[{original},{original}]"));
    }
    // A surrogate pair outside the BMP, as JSON.stringify's readers expect.
    let mut s = String::from("\"📈\"");
    escape_non_ascii(&mut s, 0);
    assert_eq!(s, "\"\\ud83d\\udcc8\"");
}

/// The value writer stages short pieces in a buffer (`write::Staged`): its output must be the
/// plain writer's, byte for byte, whatever falls on the buffer's edges (strings of every length
/// around the staging limits, escapes and non-ASCII text at every position, numbers of all
/// kinds, nesting).
#[test]
fn staged_value_writer_matches_the_plain_writer() {
    fn reference(v: &Value<'_>, out: &mut String) {
        match v {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => write_number(out, *n),
            Value::String(s) => write_str(out, s),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    reference(item, out);
                }
                out.push(']');
            }
            Value::Object(entries) => {
                out.push('{');
                for (i, (k, item)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(out, k);
                    out.push(':');
                    reference(item, out);
                }
                out.push('}');
            }
        }
    }
    let pieces = ["a", "é", "分", "📈", "\"", "\\", "\n", "\u{1}", "xyz12345"];
    let mut strings = Vec::new();
    for len in 0..300 {
        let mut s: String = "k".repeat(len);
        strings.push(s.clone());
        let piece = pieces[len % pieces.len()];
        s.insert_str(len / 2, piece);
        strings.push(s);
    }
    let numbers = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        7.0,
        1215.01,
        -3.5,
        0.056,
        1e15,
        9_999_999_999_999_998.0,
        1e16,
        -1e16,
        1e21,
        1.5e-7,
        f64::NAN,
        f64::INFINITY,
        f64::MAX,
        f64::MIN_POSITIVE,
        123_456_789.0,
        -9_007_199_254_740_991.0,
    ];
    let mut rows = Vec::new();
    for (i, s) in strings.iter().enumerate() {
        rows.push(Value::Object(vec![
            (s.as_str().into(), Value::String(s.as_str().into())),
            ("n".into(), Value::Number(numbers[i % numbers.len()])),
            ("b".into(), Value::Bool(i % 2 == 0)),
            ("z".into(), Value::Null),
            ("e".into(), Value::Array(vec![])),
            ("o".into(), Value::Object(vec![])),
        ]));
    }
    let doc = Value::Object(vec![
        ("rows".into(), Value::Array(rows)),
        (
            "numbers".into(),
            Value::Array(numbers.iter().map(|&n| Value::Number(n)).collect()),
        ),
    ]);
    let mut want = String::new();
    reference(&doc, &mut want);
    assert_eq!(doc.to_json(), want);
    // And inside other output (the writer appends).
    let mut got = String::from("prefix é ");
    doc.write(&mut got);
    assert_eq!(got, format!("prefix é {want}"));
}

#[test]
fn to_owned_value_is_clone_into_owned() {
    // Borrowed and escaped (owned) strings, repeated keys, every type, nesting.
    let text = r#"{"a":[1,-0.5,true,false,null,"s","e\"s\u00e9"],"k\n":{"x":{"y":[[],{}]}},"a":"again","":""}"#;
    let v = parse(text).unwrap_or_default();
    let copy = v.to_owned_value();
    assert_eq!(copy, v.clone().into_owned());
    assert_eq!(copy.to_json(), v.to_json());
    // Detached from `text`: every key is its own copy or the key pool's.
    let within = |k: &str| text.as_bytes().as_ptr_range().contains(&k.as_ptr());
    assert!(matches!(&copy, Value::Object(e) if e.iter().all(|(k, _)| !within(k))));
    assert!(matches!(&v, Value::Object(e) if e.iter().any(|(k, _)| within(k))));
}
