//! `--static DIR`: files served at `/` (the demo app), with correct MIME types and a strict
//! Content-Security-Policy on HTML. Paths with `..`, backslashes or NUL are refused, and a
//! resolved path must stay inside DIR (symlinks included).

use std::path::{Path, PathBuf};

/// The Content-Security-Policy sent with every HTML file: same-origin everything, WebAssembly
/// compilation allowed (`'wasm-unsafe-eval'`), no inline scripts or styles, no plugins, no
/// framing.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/// The MIME type for a file name.
pub fn mime_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" | "cjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "txt" | "md" => "text/plain; charset=utf-8",
        "sse" => "text/event-stream",
        "ts" | "d.ts" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        _ => "application/octet-stream",
    }
}

/// Why a static path was not served.
#[derive(Debug, PartialEq, Eq)]
pub enum StaticError {
    /// A forbidden path (`..`, backslash, NUL, escaping the root).
    Forbidden,
    /// No such file.
    NotFound,
}

/// Resolves the (percent-decoded) URL path inside `root`: `/` and directories give their
/// `index.html`.
pub fn resolve(root: &Path, url_path: &str) -> Result<PathBuf, StaticError> {
    if url_path.contains('\\') || url_path.contains('\0') {
        return Err(StaticError::Forbidden);
    }
    let mut p = root.to_path_buf();
    for seg in url_path.split('/') {
        match seg {
            "" | "." => {}
            ".." => return Err(StaticError::Forbidden),
            s => p.push(s),
        }
    }
    let root_c = root.canonicalize().map_err(|_| StaticError::NotFound)?;
    let mut c = p.canonicalize().map_err(|_| StaticError::NotFound)?;
    if !c.starts_with(&root_c) {
        return Err(StaticError::Forbidden);
    }
    if c.is_dir() {
        c = c.join("index.html");
        if !c.is_file() {
            return Err(StaticError::NotFound);
        }
    }
    Ok(c)
}

/// Reads the file for `url_path`: (bytes, MIME type, whether it is HTML).
pub async fn load(
    root: PathBuf,
    url_path: String,
) -> Result<(Vec<u8>, &'static str, bool), StaticError> {
    tokio::task::spawn_blocking(move || {
        let path = resolve(&root, &url_path)?;
        let bytes = std::fs::read(&path).map_err(|_| StaticError::NotFound)?;
        let mime = mime_type(&path);
        Ok((bytes, mime, mime.starts_with("text/html")))
    })
    .await
    .unwrap_or(Err(StaticError::NotFound))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_traversal() {
        let root = std::env::temp_dir();
        assert_eq!(
            resolve(&root, "/../etc/passwd"),
            Err(StaticError::Forbidden)
        );
        assert_eq!(resolve(&root, "/a/../../x"), Err(StaticError::Forbidden));
        assert_eq!(resolve(&root, "/a\\b"), Err(StaticError::Forbidden));
        assert_eq!(
            resolve(&root, "/no-such-file-here-42"),
            Err(StaticError::NotFound)
        );
    }

    #[test]
    fn mime_types() {
        assert_eq!(mime_type(Path::new("a.wasm")), "application/wasm");
        assert_eq!(
            mime_type(Path::new("a.JS")),
            "text/javascript; charset=utf-8"
        );
        assert!(mime_type(Path::new("index.html")).starts_with("text/html"));
    }
}
