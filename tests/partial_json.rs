//! `agentwire::json::partial` against the official Vercel AI SDK (`ai` 7.0.173):
//! `tests/vectors/partial-json/vectors.json` (`fixJson` and `parsePartialJson` of every prefix
//! of a set of documents, and of some garbage) and `merge-vectors.json` (`mergeObjects`), both
//! written by `tests/vectors/partial-json/gen.mjs` from the installed package.

#![cfg(not(target_arch = "wasm32"))]

use agentwire::json::partial::{fix_json, merge_objects, merge_optional, parse_partial_json};
use agentwire::json::patch::values_equal;
use agentwire::json::{parse, OwnedValue, Value};

fn load(file: &str) -> Vec<OwnedValue> {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors/partial-json")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match parse(&text) {
        Ok(Value::Array(records)) => records.into_iter().map(Value::into_owned).collect(),
        other => panic!("{}: not an array of records: {other:?}", path.display()),
    }
}

fn str_of<'a>(record: &'a Value<'_>, key: &str) -> &'a str {
    record
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("record without {key}: {}", record.to_json()))
}

fn ok(text: &str) -> OwnedValue {
    parse(text)
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
        .into_owned()
}

#[test]
fn fix_json_and_parse_partial_json_match_the_ai_sdk() {
    let vectors = load("vectors.json");
    assert!(vectors.len() >= 500, "only {} vectors", vectors.len());
    let mut failures = Vec::new();
    for record in &vectors {
        let input = str_of(record, "input");
        let fixed = str_of(record, "fixed");
        let state = str_of(record, "state");
        let got = fix_json(input);
        if got != fixed {
            failures.push(format!(
                "fix_json({input:?}) = {got:?}, the SDK gives {fixed:?}"
            ));
        }
        let parsed = parse_partial_json(input);
        match (record.get("parsed"), &parsed) {
            (None, None) => {}
            (Some(want), Some(have)) if values_equal(want, have) => {}
            (want, have) => failures.push(format!(
                "parse_partial_json({input:?}) = {:?}, the SDK gives {:?} ({state})",
                have.as_ref().map(Value::to_json),
                want.map(Value::to_json),
            )),
        }
        // The state the SDK reports follows from the two parses.
        let direct = parse(input).is_ok();
        match state {
            "successful-parse" => assert!(direct || parsed.is_none(), "{input:?}: {state}"),
            "repaired-parse" | "failed-parse" => {}
            other => panic!("unknown state {other}"),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors differ:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
}

#[test]
fn merge_objects_matches_the_ai_sdk() {
    let vectors = load("merge-vectors.json");
    let mut failures = Vec::new();
    let mut throwing = 0;
    for record in &vectors {
        let (Some(base), Some(overrides)) = (record.get("base"), record.get("overrides")) else {
            panic!("record without base/overrides: {}", record.to_json());
        };
        let got = merge_objects(base, overrides);
        if let Some(want) = record.get("merged") {
            // Structural equality: same members in the same (JavaScript) order.
            if &got != want {
                failures.push(format!(
                    "merge_objects({}, {}) = {}, the SDK gives {}",
                    base.to_json(),
                    overrides.to_json(),
                    got.to_json(),
                    want.to_json()
                ));
            }
        } else {
            // JavaScript throws (`key in` a primitive): documented as "as if base had no such
            // member".
            throwing += 1;
            assert!(record.get("throws").is_some(), "{}", record.to_json());
            let mut expected = merge_objects(base, &ok("null"));
            if let (Value::Object(entries), Some(members)) = (&mut expected, overrides.as_object())
            {
                for (k, v) in members {
                    match entries.iter_mut().find(|(key, _)| key == k) {
                        Some(slot) => slot.1 = v.clone(),
                        None => entries.push((k.clone(), v.clone())),
                    }
                }
            } else if let (Value::Object(entries), Some(items)) =
                (&mut expected, overrides.as_array())
            {
                for (i, v) in items.iter().enumerate() {
                    entries.push((i.to_string().into(), v.clone()));
                }
            }
            assert!(
                values_equal(&got, &expected),
                "{}: {} vs {}",
                record.to_json(),
                got.to_json(),
                expected.to_json()
            );
        }
    }
    assert!(throwing > 0);
    assert!(
        failures.is_empty(),
        "{} of {} merge vectors differ:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
}

#[test]
fn merge_objects_documented_behavior() {
    // JavaScript's property order: array indices ascending first, then the other keys in
    // insertion order ("01" and "4294967295" are not indices).
    assert_eq!(
        merge_objects(
            &ok(r#"{"b":1,"10":1,"a":1,"2":1,"01":1}"#),
            &ok(r#"{"4294967295":2,"0":2,"b":2,"4294967294":2}"#)
        ),
        ok(r#"{"0":2,"2":1,"10":1,"4294967294":2,"b":2,"a":1,"01":1,"4294967295":2}"#)
    );
    // Deep merge of nested objects; overrides win.
    assert_eq!(
        merge_objects(
            &ok(r#"{"a":1,"n":{"x":1,"y":{"p":1}}}"#),
            &ok(r#"{"b":2,"n":{"y":{"q":2},"z":3}}"#)
        ),
        ok(r#"{"a":1,"n":{"x":1,"y":{"p":1,"q":2},"z":3},"b":2}"#)
    );
    // Arrays are replaced, not merged; so are primitives, and null.
    assert_eq!(
        merge_objects(
            &ok(r#"{"a":[1,2],"b":"s","c":{"x":1}}"#),
            &ok(r#"{"a":[3],"b":5,"c":null}"#)
        ),
        ok(r#"{"a":[3],"b":5,"c":null}"#)
    );
    // An object replaces a non-object and the other way round.
    assert_eq!(
        merge_objects(
            &ok(r#"{"a":5,"b":{"x":1}}"#),
            &ok(r#"{"a":{"x":1},"b":[1]}"#)
        ),
        ok(r#"{"a":{"x":1},"b":[1]}"#)
    );
    // Prototype-polluting keys of the overrides are skipped.
    assert_eq!(
        merge_objects(
            &ok(r#"{"a":1}"#),
            &ok(r#"{"__proto__":{"p":1},"constructor":{"c":1},"prototype":{},"b":2}"#)
        ),
        ok(r#"{"a":1,"b":2}"#)
    );
    // A repeated key counts once, with its last value.
    assert_eq!(
        merge_objects(&ok(r#"{"a":{"x":1},"a":{"y":1}}"#), &ok(r#"{"a":{"z":1}}"#)),
        ok(r#"{"a":{"y":1,"z":1}}"#)
    );
    // The inputs are not modified (they are borrowed) and `undefined` is `None`.
    assert_eq!(merge_optional(None, None), None);
    assert_eq!(merge_optional(Some(&ok("[1]")), None), Some(ok("[1]")));
    assert_eq!(merge_optional(None, Some(&ok("7"))), Some(ok("7")));
    assert_eq!(
        merge_optional(Some(&ok(r#"{"a":1}"#)), Some(&ok(r#"{"b":1}"#))),
        Some(ok(r#"{"a":1,"b":1}"#))
    );
}

#[test]
fn fix_json_examples() {
    for (input, fixed) in [
        ("", ""),
        ("{", "{}"),
        (r#"{"ke"#, "{}"),
        (r#"{"key":"val"#, r#"{"key":"val"}"#),
        (r#"{"a":"x\"#, r#"{"a":"x"}"#),
        (r#"{"a":"x\u00"#, r#"{"a":"x"}"#),
        ("[tr", "[true]"),
        ("[fa", "[false]"),
        ("nu", "null"),
        ("[1,-", "[1]"),
        ("[1.5e", "[1.5]"),
        ("[[1,[2", "[[1,[2]]]"),
        ("[1😀", "[1😀]"),
        (r#"["é😀"#, r#"["é😀"]"#),
    ] {
        assert_eq!(fix_json(input), fixed, "{input:?}");
    }
}

#[test]
fn no_panic_and_linear_on_hostile_input() {
    // Every prefix of a mixed text, every byte-class.
    let text = r#"{"a\u12😀":[tru é, -1e+-.5, nul\"x", {"\",]]}}}} 􏿿 fals 𝄞 "\"#;
    for (i, _) in text.char_indices() {
        let _ = fix_json(&text[..i]);
        let _ = parse_partial_json(&text[..i]);
    }
    // Deep and long input: one pass, closes everything that is open.
    let deep = "[{\"k\":".repeat(50_000);
    let fixed = fix_json(&deep);
    let closed = format!("{}{}", &deep[..deep.len() - 4], "}]".repeat(50_000));
    assert_eq!(fixed, closed);
    assert!(parse_partial_json(&deep).is_none()); // deeper than MAX_DEPTH
    let long = format!("\"{}", "x".repeat(1_000_000));
    assert_eq!(fix_json(&long).len(), long.len() + 1);
}
