//! Endpoint URL templates such as `{base}/contexts/{contextId}/tasks/{taskId}/inputs/{inputId}`.

/// Expands `{name}` placeholders. `{base}` is inserted as is; every other value is
/// percent-encoded as one path segment (like `encodeURIComponent`), so an id cannot change the
/// path. An unknown placeholder or an unclosed brace is an error naming it.
pub fn expand(template: &str, base: &str, vars: &[(&str, &str)]) -> Result<String, String> {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some((head, after)) = rest.split_once('{') {
        out.push_str(head);
        let (name, tail) = after.split_once('}').ok_or_else(|| {
            format!(
                "unclosed '{{' in endpoint template {}",
                crate::json::Quoted(template)
            )
        })?;
        if name == "base" {
            out.push_str(base.trim_end_matches('/'));
        } else {
            let value = vars
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| *v)
                .ok_or_else(|| {
                    format!(
                        "unknown placeholder {{{name}}} in endpoint template {}",
                        crate::json::Quoted(template)
                    )
                })?;
            if value == "." || value == ".." {
                return Err(format!(
                    "{{{name}}} {} is not a usable path segment",
                    crate::json::Quoted(value)
                ));
            }
            encode_component(value, &mut out);
        }
        rest = tail;
    }
    out.push_str(rest);
    Ok(out)
}

/// Percent-encodes everything but `A-Z a-z 0-9 - _ . ! ~ * ' ( )` (`encodeURIComponent`).
pub fn encode_component(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        }
    }
}

/// The URL of a request: `path` appended to the interface URL's path, before its query and
/// fragment (an endpoint may carry a query: an API key, a scenario).
///
/// ```
/// use agentwire::client::template::join;
/// assert_eq!(join("/a2a/rest?k=1", "/message:stream"), "/a2a/rest/message:stream?k=1");
/// assert_eq!(join("https://h/a2a/", "/tasks/t:cancel"), "https://h/a2a/tasks/t:cancel");
/// assert_eq!(join("https://h/rpc", ""), "https://h/rpc");
/// ```
pub fn join(url: &str, path: &str) -> String {
    if path.is_empty() {
        return url.to_owned();
    }
    let cut = url.find(['?', '#']).unwrap_or(url.len());
    // `split_at_checked`: `cut` is a char boundary (from `find`), and this way no panic path
    // (core's slice_error_fail, which formats chars and ranges: ~2 KB) is linked in.
    let (base, rest) = url.split_at_checked(cut).unwrap_or((url, ""));
    format!("{}{path}{rest}", base.trim_end_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_and_encodes_ids() {
        let t = "{base}/contexts/{contextId}/tasks/{taskId}/inputs/{inputId}";
        assert_eq!(
            expand(
                t,
                "http://x/api/",
                &[("contextId", "c 1"), ("taskId", "t/../2"), ("inputId", "é")]
            )
            .unwrap(),
            "http://x/api/contexts/c%201/tasks/t%2F..%2F2/inputs/%C3%A9"
        );
        assert!(expand("{base}/{nope}", "", &[])
            .unwrap_err()
            .contains("{nope}"));
        assert!(expand("{base", "", &[]).is_err());
        assert_eq!(expand("/x", "b", &[]).unwrap(), "/x");
    }

    #[test]
    fn dot_segment_ids_are_refused() {
        let t = "{base}/contexts/{contextId}/tasks/{taskId}/inputs/{inputId}";
        for id in ["..", "."] {
            let r = expand(
                t,
                "http://x/api",
                &[("contextId", "c"), ("taskId", id), ("inputId", "i")],
            );
            assert!(r.is_err(), "{id:?}: {r:?}");
        }
        // Dots inside an id are fine.
        let ok = expand(
            t,
            "http://x/api",
            &[("contextId", "c"), ("taskId", "a..b"), ("inputId", ".i")],
        );
        assert_eq!(
            ok.as_deref(),
            Ok("http://x/api/contexts/c/tasks/a..b/inputs/.i")
        );
    }
}
