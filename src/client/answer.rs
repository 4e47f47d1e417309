//! Answers to `input-required`: checking a value before it is sent, and the values the
//! `approve` / `deny` / `select` / `answer` helpers send.

use super::schema::{json_equal, validate, SchemaError};
use crate::json::{parse, Value};

/// What a request accepts, read from its `schema` and `options` (JSON text; empty = none).
#[derive(Debug, Clone, Copy)]
pub struct RequestShape<'a> {
    /// The request's JSON Schema as JSON text (`""` when it has none).
    pub schema: &'a str,
    /// The request's `options` as JSON text (`""` when it has none).
    pub options: &'a str,
}

fn parsed(text: &str) -> Option<Value<'_>> {
    if text.is_empty() {
        None
    } else {
        parse(text).ok()
    }
}

/// Checks an answer: it must fit the schema, and when the request lists `options`, be one of
/// them (an option equal to the value, or an object option whose `id` or `value` equals it).
pub fn check_answer(shape: RequestShape<'_>, value: &Value<'_>) -> Result<(), SchemaError> {
    if let Some(schema) = parsed(shape.schema) {
        validate(&schema, value)?;
    }
    if let Some(Value::Array(options)) = parsed(shape.options) {
        if !options.is_empty() && !options.iter().any(|o| option_matches(o, value)) {
            let list: Vec<String> = options.iter().map(Value::to_json).collect();
            return Err(SchemaError {
                path: String::new(),
                message: format!("must be one of the options {}", list.join(", ")),
            });
        }
    }
    Ok(())
}

fn option_matches(option: &Value<'_>, value: &Value<'_>) -> bool {
    json_equal(option, value)
        || ["id", "value"]
            .iter()
            .any(|k| option.get(k).is_some_and(|v| json_equal(v, value)))
}

const YES: &[&str] = &[
    "approve", "approved", "yes", "allow", "accept", "confirm", "ok", "true",
];
const NO: &[&str] = &[
    "deny", "denied", "no", "reject", "decline", "cancel", "false", "abort", "stop", "refuse",
];

/// The value `approve(inputId)` (`yes = true`) or `deny(inputId)` (`yes = false`) sends, as
/// JSON text: the request's own option for it when it has one (`"approve"`, `"yes"`, …, or an
/// object option's `id`/`value`), `true`/`false` when the schema asks for a boolean, else the
/// string `"approve"` / `"deny"`.
pub fn decision_value(shape: RequestShape<'_>, yes: bool) -> String {
    let words = if yes { YES } else { NO };
    let is_word = |v: &Value<'_>| {
        v.as_str()
            .is_some_and(|s| words.iter().any(|w| s.eq_ignore_ascii_case(w)))
    };
    let mut candidates: Vec<Value<'_>> = Vec::new();
    if let Some(Value::Array(options)) = parsed(shape.options) {
        candidates.extend(options);
    }
    let schema = parsed(shape.schema);
    if let Some(Value::Array(e)) = schema.as_ref().and_then(|s| s.get("enum")) {
        candidates.extend(e.iter().cloned());
    }
    for c in &candidates {
        if is_word(c) {
            return c.to_json();
        }
        for k in ["id", "value"] {
            if let Some(v) = c.get(k).filter(|v| is_word(v)) {
                return v.to_json();
            }
        }
    }
    let wants_bool = schema
        .as_ref()
        .and_then(|s| s.get("type"))
        .is_some_and(|t| match t {
            Value::String(s) => s == "boolean",
            Value::Array(a) => a.iter().any(|x| x.as_str() == Some("boolean")),
            _ => false,
        });
    if wants_bool || candidates.iter().any(|c| matches!(c, Value::Bool(_))) {
        return if yes { "true" } else { "false" }.to_owned();
    }
    if yes { "\"approve\"" } else { "\"deny\"" }.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape<'a>(schema: &'a str, options: &'a str) -> RequestShape<'a> {
        RequestShape { schema, options }
    }

    #[test]
    fn options_and_schema_are_both_checked() {
        let s = shape(r#"{"type":"string"}"#, r#"["approve","deny"]"#);
        assert!(check_answer(s, &parse(r#""deny""#).unwrap()).is_ok());
        let e = check_answer(s, &parse(r#""maybe""#).unwrap()).unwrap_err();
        assert!(e.message.contains("\"approve\""), "{}", e.message);
        assert!(check_answer(s, &parse("1").unwrap()).is_err());
        let objs = shape("", r#"[{"id":"a","label":"A"},{"id":"b"}]"#);
        assert!(check_answer(objs, &parse(r#""b""#).unwrap()).is_ok());
        assert!(check_answer(shape("", ""), &parse("null").unwrap()).is_ok());
    }

    #[test]
    fn decisions_use_the_request_vocabulary() {
        assert_eq!(
            decision_value(shape("", r#"["approve","deny"]"#), true),
            r#""approve""#
        );
        assert_eq!(
            decision_value(shape("", r#"["Yes","No"]"#), false),
            r#""No""#
        );
        assert_eq!(
            decision_value(shape(r#"{"type":"boolean"}"#, ""), false),
            "false"
        );
        assert_eq!(
            decision_value(shape("", r#"[{"id":"allow","label":"Allow"}]"#), true),
            r#""allow""#
        );
        assert_eq!(decision_value(shape("", ""), true), r#""approve""#);
    }

    #[test]
    fn deny_picks_the_requests_own_reject_option() {
        // What the acp dialect makes of seed 002's permission_options.
        let s = shape(
            r#"{"type":"string","enum":["approved","abort"]}"#,
            r#"[{"id":"approved","optionId":"approved","name":"Approve"},{"id":"abort","optionId":"abort","name":"Reject"}]"#,
        );
        assert_eq!(decision_value(s, true), r#""approved""#);
        let no = decision_value(s, false);
        assert_eq!(no, r#""abort""#);
        assert!(check_answer(s, &crate::json::parse(&no).expect("json")).is_ok());
    }

    #[test]
    fn a_nullable_boolean_schema_gets_true_and_false() {
        let s = shape(r#"{"type":["boolean","null"]}"#, "");
        assert_eq!(
            (decision_value(s, true), decision_value(s, false)),
            ("true".to_owned(), "false".to_owned())
        );
    }
}
