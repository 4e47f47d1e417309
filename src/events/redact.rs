//! Redaction of sensitive values in the raw text that diagnostics quote and the raw-event ring
//! keeps: the value of every member whose key looks like a secret (`password`, `api_key`,
//! `token`, `secret`, `authorization`, ...) is replaced by `"[redacted]"`.
//!
//! Key matching: the key's ASCII letters are lower-cased and `-` and `_` removed; it matches a
//! listed name (normalised the same way) when it equals it or ends with it: `apiKey`,
//! `X-Api-Key`, `access_token`, `clientSecret`, `Proxy-Authorization` all match, `tokensUsed`
//! does not. Letters beyond ASCII are compared as written (Unicode case mapping would add its
//! ~12 KB of tables to the wasm for key names that are ASCII in practice).
//!
//! The scan works on text, not on a parsed document, so it also redacts malformed JSON and
//! text cut at a size limit (an unterminated value is redacted to the end). Linear in the text;
//! the text is returned borrowed when nothing matched. Escaped keys (`"pass\u0077ord"`) are
//! unescaped before matching. A string value that holds JSON text itself (tool-call
//! `arguments` in the OpenAI style: `"{\"api_key\":\"sk-…\"}"`) is redacted inside too, up to
//! [`MAX_EMBEDDED_DEPTH`] levels of such nesting.

use std::borrow::Cow;

/// What a redacted value becomes (a JSON string, quotes included).
pub const REDACTED: &str = "\"[redacted]\"";

/// How many levels of JSON text inside string values are looked into.
pub const MAX_EMBEDDED_DEPTH: usize = 3;

/// The names redacted by default.
pub const DEFAULT_REDACTED_KEYS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "api_key",
    "authorization",
    "cookie",
    "private_key",
];

/// A list of sensitive key names (see the module documentation for how keys match).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redactor {
    /// Normalised names (ASCII lower case, no `-`/`_`), never empty strings.
    names: Vec<String>,
}

impl Default for Redactor {
    fn default() -> Self {
        Redactor::new(DEFAULT_REDACTED_KEYS)
    }
}

fn normalize(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '-' && *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

impl Redactor {
    /// A redactor for `names` (an empty list redacts nothing).
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> Self {
        let names = crate::sorted::sorted_unique(
            names
                .into_iter()
                .map(|n| normalize(n.as_ref()))
                .filter(|n| !n.is_empty()),
        );
        Redactor { names }
    }

    /// The normalised names.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// `true` when a member named `key` is sensitive.
    pub fn matches(&self, key: &str) -> bool {
        if self.names.is_empty() {
            return false;
        }
        let k = normalize(key);
        self.names.iter().any(|n| k.ends_with(n.as_str()))
    }

    /// `text` with the values of sensitive members replaced by [`REDACTED`].
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.redact_at(text, 0)
    }

    fn redact_at<'a>(&self, text: &'a str, depth: usize) -> Cow<'a, str> {
        if self.names.is_empty() {
            return Cow::Borrowed(text);
        }
        let b = text.as_bytes();
        let mut out: Option<String> = None;
        let mut copied = 0;
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            if c != b'"' {
                i += 1;
                continue;
            }
            let end = string_end(b, i);
            let mut j = skip_ws(b, end);
            if b.get(j) != Some(&b':') {
                // A value. Escaped quotes in it may be JSON text in a string: redact inside.
                let token = text.get(i..end).unwrap_or("");
                if depth < MAX_EMBEDDED_DEPTH && crate::json::contains_str(token, "\\\"") {
                    if let Some(inner) = self.redact_embedded(token, depth) {
                        let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
                        o.push_str(text.get(copied..i).unwrap_or(""));
                        o.push_str(&inner);
                        copied = end;
                    }
                }
                i = end;
                continue;
            }
            if !self.key_token_matches(text.get(i..end).unwrap_or("")) {
                i = end;
                continue;
            }
            j = skip_ws(b, j + 1);
            let vend = value_end(b, j);
            let value = text.get(j..vend).unwrap_or("");
            if !value.is_empty() && value != "null" && value != REDACTED {
                let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
                o.push_str(text.get(copied..j).unwrap_or(""));
                o.push_str(REDACTED);
                copied = vend;
            }
            i = vend.max(j);
        }
        match out {
            None => Cow::Borrowed(text),
            Some(mut o) => {
                o.push_str(text.get(copied..).unwrap_or(""));
                Cow::Owned(o)
            }
        }
    }

    /// `token` (a JSON string token) with the JSON text it holds redacted, as a JSON string
    /// again; `None` when it holds nothing to redact (or is not a complete string).
    fn redact_embedded(&self, token: &str, depth: usize) -> Option<String> {
        let crate::json::Value::String(s) = crate::json::parse(token).ok()? else {
            return None;
        };
        let Cow::Owned(redacted) = self.redact_at(&s, depth + 1) else {
            return None;
        };
        let mut out = String::with_capacity(redacted.len() + 2);
        crate::json::write_str(&mut out, &redacted);
        Some(out)
    }

    /// `token` is a JSON string token, quotes included (the closing one may be missing).
    fn key_token_matches(&self, token: &str) -> bool {
        let inner = token.strip_prefix('"').unwrap_or(token);
        let inner = inner.strip_suffix('"').unwrap_or(inner);
        if !inner.contains('\\') {
            return self.matches(inner);
        }
        match crate::json::parse(token) {
            Ok(crate::json::Value::String(s)) => self.matches(&s),
            _ => self.matches(inner),
        }
    }
}

/// The index after the string starting with the quote at `start` (or the end of `b`).
fn string_end(b: &[u8], start: usize) -> usize {
    let mut k = start + 1;
    while let Some(&c) = b.get(k) {
        match c {
            b'\\' => k += 2,
            b'"' => return k + 1,
            _ => k += 1,
        }
    }
    b.len()
}

fn skip_ws(b: &[u8], mut k: usize) -> usize {
    while matches!(b.get(k), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        k += 1;
    }
    k
}

/// The index after the JSON value starting at `start` (strings and nesting respected; a
/// truncated value runs to the end of `b`).
fn value_end(b: &[u8], start: usize) -> usize {
    match b.get(start) {
        None => start,
        Some(b'"') => string_end(b, start),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut k = start;
            while let Some(&c) = b.get(k) {
                match c {
                    b'"' => {
                        k = string_end(b, k);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return k + 1;
                        }
                    }
                    _ => {}
                }
                k += 1;
            }
            b.len()
        }
        Some(_) => {
            let mut k = start;
            while let Some(&c) = b.get(k) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                k += 1;
            }
            k
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_sensitive_members_at_any_depth() {
        let r = Redactor::default();
        let cases = [
            (
                r#"{"kind":"tool-start","arguments":{"q":"x","api_key":"sk-123"}}"#,
                r#"{"kind":"tool-start","arguments":{"q":"x","api_key":"[redacted]"}}"#,
            ),
            (
                r#"{"Password" : "hunter2", "user":"bob"}"#,
                r#"{"Password" : "[redacted]", "user":"bob"}"#,
            ),
            (
                r#"{"headers":{"Authorization":"Bearer abc","X-Api-Key":"k"}}"#,
                r#"{"headers":{"Authorization":"[redacted]","X-Api-Key":"[redacted]"}}"#,
            ),
            (
                r#"{"accessToken":{"value":"a","exp":1},"tokensUsed":12}"#,
                r#"{"accessToken":"[redacted]","tokensUsed":12}"#,
            ),
            (
                r#"{"pin":1,"secret":1234,"ok":true}"#,
                r#"{"pin":1,"secret":"[redacted]","ok":true}"#,
            ),
            (
                r#"{"secrets":["a","b"],"x":1}"#,
                r#"{"secrets":["a","b"],"x":1}"#,
            ),
            (
                r#"{"client_secret":["a","b"],"x":1}"#,
                r#"{"client_secret":"[redacted]","x":1}"#,
            ),
            (r#"{"token":null}"#, r#"{"token":null}"#),
            (
                r#"{"pass\u0077ord":"x"}"#,
                r#"{"pass\u0077ord":"[redacted]"}"#,
            ),
            // Malformed and truncated text.
            (r#"{"password":"hunter2"#, r#"{"password":"[redacted]""#),
            (r#"{"token": "abc…[truncated]"#, r#"{"token": "[redacted]""#),
            (
                r#"{"password":"a\"b","x":"password"}"#,
                r#"{"password":"[redacted]","x":"password"}"#,
            ),
            (
                r#"not json "secret": 42 tail"#,
                r#"not json "secret": "[redacted]" tail"#,
            ),
            ("{\"token\":", "{\"token\":"),
            ("\"", "\""),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(r.redact(input), want, "{input}");
        }
    }

    #[test]
    fn borrowed_when_nothing_matches_and_configurable() {
        let r = Redactor::default();
        let text = r#"{"kind":"content-delta","delta":"my password is"}"#;
        assert!(matches!(r.redact(text), Cow::Borrowed(_)));
        let none = Redactor::new::<&str>([]);
        assert_eq!(none.redact(r#"{"password":"x"}"#), r#"{"password":"x"}"#);
        let ssn = Redactor::new(["SSN"]);
        assert_eq!(
            ssn.redact(r#"{"ssn":"1","password":"x"}"#),
            r#"{"ssn":"[redacted]","password":"x"}"#
        );
        assert!(ssn.matches("user_SSN"));
    }

    #[test]
    fn json_text_inside_a_string_value_is_redacted_too() {
        let r = Redactor::default();
        // OpenAI-style tool-call arguments: JSON text in a string.
        let raw = r#"{"toolCall":{"function":{"name":"login","arguments":"{\"user\":\"ann\",\"api_key\":\"sk-123\",\"n\":2}"}}}"#;
        let out = r.redact(raw);
        assert!(!out.contains("sk-123"), "{out}");
        assert!(
            out.contains(r#"\"user\":\"ann\""#) && out.contains(r#"\"n\":2"#),
            "{out}"
        );
        // Still one valid JSON document, whose string parses to the redacted object.
        let v = crate::json::parse(&out).expect("json");
        let args = v
            .get("toolCall")
            .and_then(|t| t.get("function"))
            .and_then(|f| f.get("arguments"))
            .and_then(crate::json::Value::as_str)
            .expect("arguments");
        let inner = crate::json::parse(args).expect("inner json");
        assert_eq!(
            inner.get("api_key").and_then(crate::json::Value::as_str),
            Some("[redacted]")
        );
        // Twice nested; a string with escaped quotes but no secret stays as it was.
        let nested = r#"{"a":"{\"b\":\"{\\\"password\\\":\\\"hunter2\\\"}\"}"}"#;
        assert!(
            !r.redact(nested).contains("hunter2"),
            "{}",
            r.redact(nested)
        );
        let plain = r#"{"quote":"she said \"hi\"","args":"{\"q\":1}"}"#;
        assert!(matches!(r.redact(plain), Cow::Borrowed(_)));
    }
}
