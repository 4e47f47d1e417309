//! Which URLs an agent may ask the page to open.

/// The scheme of `u` in lower case (without the colon), or `""` when it has none.
pub fn scheme_of(u: &str) -> String {
    let t = u.trim_start_matches(|c: char| c.is_ascii_control() || c == ' ');
    match t.find(':') {
        Some(i)
            if i > 0
                && t.get(..i).is_some_and(|s| {
                    s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
                }) =>
        {
            t.get(..i).unwrap_or("").to_ascii_lowercase()
        }
        _ => String::new(),
    }
}

/// `true` for `https:` URLs, and `http:` URLs whose host is `localhost`, `127.0.0.1` or `[::1]`.
///
/// Anything else (`javascript:`, `data:`, `file:`, relative URLs, ...) must not be opened.
pub fn is_safe_to_open(u: &str) -> bool {
    // Browsers strip ASCII tab/newline anywhere and leading/trailing C0+space: refuse such input
    // rather than guess how it would be interpreted.
    if u.bytes().any(|b| b < 0x21 || b == 0x7f) {
        return false;
    }
    match scheme_of(u).as_str() {
        "https" => u.len() > "https://".len() && u.get(5..8) == Some("://"),
        "http" => {
            let Some(rest) = u.get(7..).filter(|_| u.get(4..7) == Some("://")) else {
                return false;
            };
            // A browser reads `\` in an http URL as `/` (WHATWG URL): `http://evil.test\@localhost/`
            // goes to evil.test. Refused rather than parsed the same way.
            if rest.contains('\\') {
                return false;
            }
            let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
            let host_port = authority.rsplit('@').next().unwrap_or("");
            let host = if host_port.starts_with('[') {
                host_port
                    .split(']')
                    .next()
                    .map(|h| format!("{h}]"))
                    .unwrap_or_default()
            } else {
                host_port.split(':').next().unwrap_or("").to_owned()
            };
            matches!(
                host.to_ascii_lowercase().as_str(),
                "localhost" | "127.0.0.1" | "[::1]"
            )
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_https_and_local_http_are_safe() {
        for ok in [
            "https://github.com/login/oauth",
            "HTTPS://x.test",
            "http://localhost:8080/cb",
            "http://127.0.0.1/x",
            "http://[::1]:3000/",
        ] {
            assert!(is_safe_to_open(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " javascript:alert(1)",
            "java\tscript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "http://evil.test/",
            "http://localhost.evil.test/",
            "http://user@evil.test",
            r"http://evil.test\@localhost/",
            r"http://evil.test\@127.0.0.1/cb",
            r"http://localhost\@evil.test/",
            "file:///etc/passwd",
            "//evil.test",
            "/relative",
            "https:",
            "vbscript:x",
        ] {
            assert!(!is_safe_to_open(bad), "{bad}");
        }
        assert_eq!(scheme_of("JavaScript:x"), "javascript");
    }
}
