//! Checks an answer against the JSON Schema an agent sent with `input-required`.
//!
//! Supported keywords (what agents actually send): `type` (one or a list; `integer`), `enum`,
//! `const`, `properties`, `required`, `additionalProperties` (boolean or schema),
//! `minProperties`/`maxProperties`, `items` (one schema, or a list for tuples),
//! `minItems`/`maxItems`, `uniqueItems`, `minimum`/`maximum`, `exclusiveMinimum`/
//! `exclusiveMaximum` (number or draft-4 boolean form), `multipleOf`, `minLength`/`maxLength`
//! (in characters), `allOf`/`anyOf`/`oneOf`/`not`. Not checked (a value is never refused
//! because of them; the server stays the authority): `pattern`, `format`, `$ref`, `if`/`then`,
//! `dependencies`, `patternProperties`, `contains`.
//!
//! A full JSON Schema crate was weighed and not taken: the maintained ones bring a regex engine
//! and serde into the wasm (hundreds of KB), several times the size of the whole SDK.

use crate::json::Value;

/// Why a value does not fit: where (a JSON pointer into the value, `""` for the root) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// JSON pointer of the failing part of the value (`""`, `/userId`, `/items/2`).
    pub path: String,
    /// What is wrong, for a person.
    pub message: String,
}

/// Checks `value` against `schema`. `Ok(())` when it fits (or the schema is not an object).
pub fn validate(schema: &Value<'_>, value: &Value<'_>) -> Result<(), SchemaError> {
    let mut path = String::new();
    check(schema, value, &mut path)
}

fn fail(path: &str, message: String) -> Result<(), SchemaError> {
    Err(SchemaError {
        path: path.to_owned(),
        message,
    })
}

/// Deep JSON equality (object members in any order; numbers by value).
pub fn json_equal(a: &Value<'_>, b: &Value<'_>) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter().all(|(k, v)| {
                    y.iter()
                        .find(|(k2, _)| k2 == k)
                        .is_some_and(|(_, v2)| json_equal(v, v2))
                })
        }
        _ => false,
    }
}

fn is_integer(v: &Value<'_>) -> bool {
    matches!(v, Value::Number(n) if n.fract() == 0.0 && n.is_finite())
}

fn type_matches(name: &str, v: &Value<'_>) -> bool {
    match name {
        "integer" => is_integer(v),
        "number" => matches!(v, Value::Number(_)),
        other => v.type_name() == other,
    }
}

fn push_segment(path: &mut String, seg: &str) {
    path.push('/');
    for c in seg.chars() {
        match c {
            '~' => path.push_str("~0"),
            '/' => path.push_str("~1"),
            c => path.push(c),
        }
    }
}

fn num(schema: &Value<'_>, key: &str) -> Option<f64> {
    schema.get(key).and_then(Value::as_f64)
}

fn check(schema: &Value<'_>, value: &Value<'_>, path: &mut String) -> Result<(), SchemaError> {
    match schema {
        Value::Bool(false) => return fail(path, "no value is allowed here".into()),
        Value::Object(_) => {}
        _ => return Ok(()),
    }
    if let Some(t) = schema.get("type") {
        let names: Vec<&str> = match t {
            Value::String(s) => vec![s.as_ref()],
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !names.is_empty() && !names.iter().any(|n| type_matches(n, value)) {
            return fail(
                path,
                format!("expected {}, got {}", names.join(" or "), value.type_name()),
            );
        }
    }
    if let Some(Value::Array(allowed)) = schema.get("enum") {
        if !allowed.iter().any(|a| json_equal(a, value)) {
            let list: Vec<String> = allowed.iter().map(Value::to_json).collect();
            return fail(path, format!("must be one of {}", list.join(", ")));
        }
    }
    if let Some(c) = schema.get("const") {
        if !json_equal(c, value) {
            return fail(path, format!("must be {}", c.to_json()));
        }
    }
    match value {
        Value::Number(n) => check_number(schema, *n, path)?,
        Value::String(s) => {
            let len = s.chars().count() as f64;
            if let Some(min) = num(schema, "minLength") {
                if len < min {
                    return fail(
                        path,
                        format!("must be at least {} characters long", crate::json::Num(min)),
                    );
                }
            }
            if let Some(max) = num(schema, "maxLength") {
                if len > max {
                    return fail(
                        path,
                        format!("must be at most {} characters long", crate::json::Num(max)),
                    );
                }
            }
        }
        Value::Array(items) => check_array(schema, items, path)?,
        Value::Object(members) => check_object(schema, members, path)?,
        _ => {}
    }
    if let Some(Value::Array(all)) = schema.get("allOf") {
        for s in all {
            check(s, value, path)?;
        }
    }
    if let Some(Value::Array(any)) = schema.get("anyOf") {
        if !any.is_empty()
            && !any
                .iter()
                .any(|s| check(s, value, &mut path.clone()).is_ok())
        {
            return fail(path, "matches none of the allowed shapes (anyOf)".into());
        }
    }
    if let Some(Value::Array(one)) = schema.get("oneOf") {
        let n = one
            .iter()
            .filter(|s| check(s, value, &mut path.clone()).is_ok())
            .count();
        if !one.is_empty() && n != 1 {
            return fail(
                path,
                format!("must match exactly one allowed shape (oneOf), matches {n}"),
            );
        }
    }
    if let Some(not) = schema.get("not") {
        if check(not, value, &mut path.clone()).is_ok() {
            return fail(path, "matches a shape that is not allowed (not)".into());
        }
    }
    Ok(())
}

fn check_number(schema: &Value<'_>, n: f64, path: &str) -> Result<(), SchemaError> {
    let excl_bool = |k: &str| schema.get(k).and_then(Value::as_bool) == Some(true);
    if let Some(min) = num(schema, "minimum") {
        if n < min || (excl_bool("exclusiveMinimum") && n == min) {
            return fail(path, format!("must be >= {}", crate::json::Num(min)));
        }
    }
    if let Some(max) = num(schema, "maximum") {
        if n > max || (excl_bool("exclusiveMaximum") && n == max) {
            return fail(path, format!("must be <= {}", crate::json::Num(max)));
        }
    }
    if let Some(min) = num(schema, "exclusiveMinimum") {
        if n <= min {
            return fail(path, format!("must be > {}", crate::json::Num(min)));
        }
    }
    if let Some(max) = num(schema, "exclusiveMaximum") {
        if n >= max {
            return fail(path, format!("must be < {}", crate::json::Num(max)));
        }
    }
    if let Some(m) = num(schema, "multipleOf").filter(|m| *m > 0.0) {
        let q = n / m;
        if (q - q.round()).abs() > 1e-9_f64.max(q.abs() * 8.0 * f64::EPSILON) {
            return fail(
                path,
                format!("must be a multiple of {}", crate::json::Num(m)),
            );
        }
    }
    Ok(())
}

fn check_array(
    schema: &Value<'_>,
    items: &[Value<'_>],
    path: &mut String,
) -> Result<(), SchemaError> {
    let len = items.len() as f64;
    if let Some(min) = num(schema, "minItems") {
        if len < min {
            return fail(
                path,
                format!("must have at least {} items", crate::json::Num(min)),
            );
        }
    }
    if let Some(max) = num(schema, "maxItems") {
        if len > max {
            return fail(
                path,
                format!("must have at most {} items", crate::json::Num(max)),
            );
        }
    }
    if schema.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
        for (i, a) in items.iter().enumerate() {
            if items[..i].iter().any(|b| json_equal(a, b)) {
                return fail(path, format!("item {i} is a duplicate"));
            }
        }
    }
    let base = path.len();
    match schema.get("items") {
        Some(Value::Array(tuple)) => {
            for (i, (s, v)) in tuple.iter().zip(items).enumerate() {
                push_segment(path, &i.to_string());
                check(s, v, path)?;
                path.truncate(base);
            }
        }
        Some(s) => {
            for (i, v) in items.iter().enumerate() {
                push_segment(path, &i.to_string());
                check(s, v, path)?;
                path.truncate(base);
            }
        }
        None => {}
    }
    Ok(())
}

fn check_object(
    schema: &Value<'_>,
    members: &[(std::borrow::Cow<'_, str>, Value<'_>)],
    path: &mut String,
) -> Result<(), SchemaError> {
    let count = members.len() as f64;
    if let Some(min) = num(schema, "minProperties") {
        if count < min {
            return fail(
                path,
                format!("must have at least {} members", crate::json::Num(min)),
            );
        }
    }
    if let Some(max) = num(schema, "maxProperties") {
        if count > max {
            return fail(
                path,
                format!("must have at most {} members", crate::json::Num(max)),
            );
        }
    }
    if let Some(Value::Array(required)) = schema.get("required") {
        for name in required.iter().filter_map(Value::as_str) {
            if !members.iter().any(|(k, _)| k == name) {
                let mut p = path.clone();
                push_segment(&mut p, name);
                return Err(SchemaError {
                    path: p,
                    message: format!("\"{name}\" is required"),
                });
            }
        }
    }
    let props = schema.get("properties").and_then(Value::as_object);
    let additional = schema.get("additionalProperties");
    let base = path.len();
    for (k, v) in members {
        push_segment(path, k);
        match props.and_then(|p| p.iter().find(|(pk, _)| pk == k)) {
            Some((_, s)) => check(s, v, path)?,
            None => match additional {
                Some(Value::Bool(false)) => {
                    return fail(path, format!("\"{k}\" is not an allowed member"));
                }
                Some(s @ Value::Object(_)) => check(s, v, path)?,
                _ => {}
            },
        }
        path.truncate(base);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn v(schema: &str, value: &str) -> Result<(), SchemaError> {
        validate(&parse(schema).unwrap(), &parse(value).unwrap())
    }

    fn err_path(schema: &str, value: &str) -> String {
        v(schema, value).unwrap_err().path
    }

    #[test]
    fn types_including_integer_and_lists() {
        assert!(v(r#"{"type":"integer"}"#, "3").is_ok());
        assert!(v(r#"{"type":"integer"}"#, "3.5").is_err());
        assert!(v(r#"{"type":"number"}"#, "3.5").is_ok());
        assert!(v(r#"{"type":["string","null"]}"#, "null").is_ok());
        assert!(v(r#"{"type":["string","null"]}"#, "1").is_err());
        assert!(v(r#"{"type":"boolean"}"#, "true").is_ok());
        assert_eq!(
            v(r#"{"type":"string"}"#, "1").unwrap_err().message,
            "expected string, got integer"
        );
    }

    #[test]
    fn objects_name_the_failing_path() {
        let s = r#"{"type":"object","properties":{"userId":{"type":"integer"},"tags":{"type":"array","items":{"type":"string"}}},"required":["userId"],"additionalProperties":false}"#;
        assert!(v(s, r#"{"userId":123}"#).is_ok());
        assert_eq!(err_path(s, r#"{"userId":"123"}"#), "/userId");
        assert_eq!(err_path(s, r#"{}"#), "/userId");
        assert_eq!(err_path(s, r#"{"userId":1,"tags":["a",2]}"#), "/tags/1");
        assert_eq!(err_path(s, r#"{"userId":1,"x/y":0}"#), "/x~1y");
    }

    #[test]
    fn enum_const_and_ranges() {
        assert!(v(r#"{"enum":["approve","deny"]}"#, r#""deny""#).is_ok());
        assert!(v(r#"{"enum":["approve","deny"]}"#, r#""maybe""#).is_err());
        assert!(v(r#"{"const":{"a":[1,2]}}"#, r#"{"a":[1,2]}"#).is_ok());
        assert!(v(r#"{"minimum":0,"maximum":1}"#, "1").is_ok());
        assert!(v(r#"{"minimum":0,"maximum":1}"#, "1.5").is_err());
        assert!(v(r#"{"exclusiveMinimum":0}"#, "0").is_err());
        assert!(v(r#"{"minimum":0,"exclusiveMinimum":true}"#, "0").is_err());
        assert!(v(r#"{"multipleOf":0.5}"#, "1.5").is_ok());
        assert!(v(r#"{"multipleOf":0.5}"#, "1.2").is_err());
        assert!(v(r#"{"minLength":2,"maxLength":3}"#, r#""éé""#).is_ok());
        assert!(v(r#"{"maxLength":3}"#, r#""abcd""#).is_err());
        assert!(v(r#"{"minItems":1,"uniqueItems":true}"#, "[1,1]").is_err());
        assert!(v(r#"{"minItems":1}"#, "[]").is_err());
    }

    #[test]
    fn combinators_and_unsupported_keywords() {
        let any = r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#;
        assert!(v(any, "1").is_ok());
        assert!(v(any, "true").is_err());
        let one = r#"{"oneOf":[{"type":"number"},{"type":"integer"}]}"#;
        assert!(v(one, "1.5").is_ok());
        assert!(v(one, "1").is_err());
        assert!(v(r#"{"not":{"type":"null"}}"#, "null").is_err());
        // Not checked: never refuses.
        assert!(v(
            r#"{"type":"string","pattern":"^a$","format":"email"}"#,
            r#""b""#
        )
        .is_ok());
        assert!(v("true", "1").is_ok());
        assert!(v("false", "1").is_err());
    }

    #[test]
    fn multiple_of_allows_for_floating_point_rounding() {
        let money = r#"{"type":"number","multipleOf":0.01}"#;
        assert!(v(money, "1234567.89").is_ok());
        assert!(v(money, "19.99").is_ok());
        assert!(v(money, "1234567.891").is_err());
        assert!(v(money, "0.015").is_err());
    }
}
