//! No import circles between modules, in `src/` and in `scenario-server/src/`.
//!
//! The rule, folder by folder: the files and subfolders directly inside a folder depend on each
//! other without a circle (a subfolder counts as one unit, with everything under it). A folder's
//! own `mod.rs` (or `lib.rs`) is the folder itself: its children may use what it defines and it
//! may use its children, which is not counted as a circle. Test-only modules (`#[cfg(test)]`)
//! are left out.
//!
//! Every `crate::…`, `super::…` and `self::…` path in the code (in `use` items and in
//! expressions) is an import; a path through a re-export (`pub use x::Y`) leads to the module
//! that defines `Y`. Comments and string literals are ignored.
//!
//! A failure names each circle with one import per arrow (file and line): move what both sides
//! need to a lower module, or merge them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Folders (module paths, with everything under them) of `src/` whose inner circles are
/// tolerated: none (a folder added here must say why, and leave once its circles are gone).
const ALLOWED: &[&str] = &[];

/// The agentwire crate's top-level modules from the bottom layer up: a module may only use the
/// ones before it (and `sorted`, `hash`, `json`, which everything may use).
const LAYERS: &[&str] = &[
    "sorted", "swar", "hash", "json", "sse", "events", "state", "filter", "dialects", "pipeline",
    "client", "browser",
];

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Punct(char),
    PathSep,
}

/// A token and the line it is on.
type Spanned = (Tok, usize);

fn tokenize(src: &str) -> Vec<Spanned> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < b.len() {
        let c = b[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == 'r' && (b.get(i + 1) == Some(&'"') || b.get(i + 1) == Some(&'#')) && {
            let mut j = i + 1;
            while b.get(j) == Some(&'#') {
                j += 1;
            }
            b.get(j) == Some(&'"')
        } {
            // Raw string r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            'scan: while j < b.len() {
                if b[j] == '\n' {
                    line += 1;
                }
                if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break 'scan;
                }
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                if i < b.len() && b[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if b.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let s = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(b[s..i].iter().collect()), line));
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

fn is_ident(t: Option<&Spanned>, s: &str) -> bool {
    matches!(t, Some((Tok::Ident(x), _)) if x == s)
}

fn is_punct(t: Option<&Spanned>, c: char) -> bool {
    matches!(t, Some((Tok::Punct(x), _)) if *x == c)
}

/// One `use` leaf: the full path and the name it binds (`*` for a glob).
#[derive(Debug)]
struct Import {
    path: Vec<String>,
    name: String,
}

#[derive(Debug, Default)]
struct ModInfo {
    file: PathBuf,
    defined: BTreeSet<String>,
    imports: Vec<Import>,
    /// Every path used, with its line.
    paths: Vec<(Vec<String>, usize)>,
    test_children: BTreeSet<String>,
}

/// Parses a use tree starting at `i` (after `use`), appending leaves; returns the index after it.
fn parse_tree(
    toks: &[Spanned],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<(Import, usize)>,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(i) {
            Some((Tok::Punct('{'), _)) => {
                i += 1;
                loop {
                    if is_punct(toks.get(i), '}') {
                        return i + 1;
                    }
                    i = parse_tree(toks, i, &path, out);
                    if is_punct(toks.get(i), ',') {
                        i += 1;
                    }
                }
            }
            Some((Tok::Punct('*'), line)) => {
                out.push((
                    Import {
                        path: path.clone(),
                        name: "*".into(),
                    },
                    *line,
                ));
                return i + 1;
            }
            Some((Tok::Ident(s), line)) => {
                let line = *line;
                if s == "self"
                    && !path.is_empty()
                    && !matches!(toks.get(i + 1), Some((Tok::PathSep, _)))
                {
                    let name = path.last().cloned().unwrap_or_default();
                    out.push((
                        Import {
                            path: path.clone(),
                            name,
                        },
                        line,
                    ));
                    return i + 1;
                }
                path.push(s.clone());
                i += 1;
                if matches!(toks.get(i), Some((Tok::PathSep, _))) {
                    i += 1;
                    continue;
                }
                let mut name = s.clone();
                if is_ident(toks.get(i), "as") {
                    if let Some((Tok::Ident(a), _)) = toks.get(i + 1) {
                        name = a.clone();
                    }
                    i += 2;
                }
                out.push((Import { path, name }, line));
                return i;
            }
            Some((Tok::PathSep, _)) => i += 1,
            _ => return i + 1,
        }
    }
}

fn scan(file: &Path) -> ModInfo {
    let src = std::fs::read_to_string(file).unwrap();
    let toks = tokenize(&src);
    let mut info = ModInfo {
        file: file.to_path_buf(),
        ..Default::default()
    };
    let mut i = 0;
    while i < toks.len() {
        // #[cfg(test)]: a test-only module (inline: skipped; a file: left out) or use.
        if is_punct(toks.get(i), '#')
            && is_punct(toks.get(i + 1), '[')
            && is_ident(toks.get(i + 2), "cfg")
            && is_punct(toks.get(i + 3), '(')
            && is_ident(toks.get(i + 4), "test")
            && is_punct(toks.get(i + 5), ')')
        {
            let mut j = i + 7;
            // Further attributes.
            while is_punct(toks.get(j), '#') {
                let mut depth = 0;
                j += 1;
                loop {
                    match toks.get(j) {
                        Some((Tok::Punct('['), _)) => depth += 1,
                        Some((Tok::Punct(']'), _)) => {
                            depth -= 1;
                            if depth == 0 {
                                j += 1;
                                break;
                            }
                        }
                        None => break,
                        _ => {}
                    }
                    j += 1;
                }
            }
            if is_ident(toks.get(j), "mod") {
                if let Some((Tok::Ident(name), _)) = toks.get(j + 1) {
                    if is_punct(toks.get(j + 2), ';') {
                        info.test_children.insert(name.clone());
                        i = j + 3;
                        continue;
                    }
                }
            }
            if is_ident(toks.get(j), "mod")
                || is_ident(toks.get(j), "use")
                || is_ident(toks.get(j), "fn")
            {
                // Skip to the end of the item: its `;` or its matching `}`.
                let mut depth = 0;
                while j < toks.len() {
                    match &toks[j].0 {
                        Tok::Punct('{') => depth += 1,
                        Tok::Punct('}') => {
                            depth -= 1;
                            if depth == 0 {
                                j += 1;
                                break;
                            }
                        }
                        Tok::Punct(';') if depth == 0 => {
                            j += 1;
                            break;
                        }
                        _ => {}
                    }
                    j += 1;
                }
                i = j;
                continue;
            }
        }
        match &toks[i].0 {
            Tok::Ident(kw) if kw == "use" && !is_punct(toks.get(i.wrapping_sub(1)), '$') => {
                let mut leaves = Vec::new();
                let end = parse_tree(&toks, i + 1, &[], &mut leaves);
                for (imp, line) in leaves {
                    info.paths.push((imp.path.clone(), line));
                    info.imports.push(imp);
                }
                i = end;
                continue;
            }
            Tok::Ident(kw)
                if matches!(
                    kw.as_str(),
                    "fn" | "struct"
                        | "enum"
                        | "trait"
                        | "type"
                        | "const"
                        | "static"
                        | "union"
                        | "mod"
                ) =>
            {
                if let Some((Tok::Ident(name), _)) = toks.get(i + 1) {
                    info.defined.insert(name.clone());
                }
            }
            Tok::Ident(kw) if kw == "macro_rules" => {
                if let Some((Tok::Ident(name), _)) = toks.get(i + 2) {
                    info.defined.insert(name.clone());
                }
            }
            Tok::Ident(kw)
                if matches!(kw.as_str(), "crate" | "super" | "self")
                    && matches!(toks.get(i + 1), Some((Tok::PathSep, _)))
                    && !is_punct(toks.get(i.wrapping_sub(1)), '$')
                    && !matches!(toks.get(i.wrapping_sub(1)), Some((Tok::PathSep, _))) =>
            {
                let line = toks[i].1;
                let mut path = vec![kw.clone()];
                let mut j = i + 1;
                while matches!(toks.get(j), Some((Tok::PathSep, _))) {
                    match toks.get(j + 1) {
                        Some((Tok::Ident(s), _)) => {
                            path.push(s.clone());
                            j += 2;
                        }
                        _ => break,
                    }
                }
                info.paths.push((path, line));
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    info
}

/// Every module of the crate rooted at `root` (its `lib.rs`), by module path.
fn load(root: &Path) -> BTreeMap<Vec<String>, ModInfo> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, files);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(root, &mut files);
    let mut mods = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(root).unwrap();
        let mut parts: Vec<String> = rel
            .iter()
            .map(|c| c.to_string_lossy().into_owned())
            .collect();
        if parts[0] == "bin" || parts == ["main.rs"] {
            continue; // other crates
        }
        let last = parts.pop().unwrap();
        let stem = last.trim_end_matches(".rs");
        if !(stem == "mod" || (parts.is_empty() && stem == "lib")) {
            parts.push(stem.to_string());
        }
        mods.insert(parts, scan(&f));
    }
    // Leave out test-only modules and everything under them.
    let tests: Vec<Vec<String>> = mods
        .iter()
        .flat_map(|(m, info)| {
            info.test_children.iter().map(move |c| {
                let mut p = m.clone();
                p.push(c.clone());
                p
            })
        })
        .collect();
    mods.retain(|m, _| !tests.iter().any(|t| m.starts_with(t)));
    mods
}

struct Resolver<'a> {
    mods: &'a BTreeMap<Vec<String>, ModInfo>,
}

impl Resolver<'_> {
    /// The module that defines what `path`, written in module `from`, names.
    fn resolve(&self, path: &[String], from: &[String], depth: usize) -> Option<Vec<String>> {
        if depth > 16 || path.is_empty() {
            return None;
        }
        let mut cur: Vec<String>;
        let mut rest = path;
        match path[0].as_str() {
            "crate" => {
                cur = Vec::new();
                rest = &path[1..];
            }
            "self" => {
                cur = from.to_vec();
                rest = &path[1..];
            }
            "super" => {
                cur = from.to_vec();
                while rest.first().is_some_and(|s| s == "super") {
                    cur.pop();
                    rest = &rest[1..];
                }
            }
            first => {
                let mut child = from.to_vec();
                child.push(first.to_string());
                if self.mods.contains_key(&child) {
                    cur = from.to_vec();
                } else {
                    // An item imported into `from` (use a::B; B::x) or an extern crate.
                    return None;
                }
            }
        }
        for seg in rest {
            let mut child = cur.clone();
            child.push(seg.clone());
            if self.mods.contains_key(&child) {
                cur = child;
            } else {
                return Some(self.item(&cur, seg, depth + 1));
            }
        }
        self.mods.contains_key(&cur).then_some(cur)
    }

    /// The module that defines `name`, as seen in module `m` (following re-exports).
    fn item(&self, m: &[String], name: &str, depth: usize) -> Vec<String> {
        let Some(info) = self.mods.get(m) else {
            return m.to_vec();
        };
        if info.defined.contains(name) || depth > 16 {
            return m.to_vec();
        }
        for imp in &info.imports {
            if imp.name == name {
                if let Some(t) = self.resolve(&imp.path, m, depth + 1) {
                    return t;
                }
            }
        }
        for imp in info.imports.iter().filter(|i| i.name == "*") {
            if let Some(t) = self.resolve(&imp.path, m, depth + 1) {
                if self.mods.get(&t).is_some_and(|i| i.defined.contains(name)) {
                    return t;
                }
            }
        }
        m.to_vec()
    }
}

/// An import between two units of one folder: the file and line it is written at.
type Witness = (PathBuf, usize, Vec<String>);

/// The import graph of each folder's direct children.
fn folder_graphs(
    mods: &BTreeMap<Vec<String>, ModInfo>,
) -> BTreeMap<Vec<String>, BTreeMap<(String, String), Witness>> {
    let r = Resolver { mods };
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<(String, String), Witness>> = BTreeMap::new();
    for (m, info) in mods {
        for (path, line) in &info.paths {
            let Some(t) = r.resolve(path, m, 0) else {
                continue;
            };
            let lca = m.iter().zip(&t).take_while(|(a, b)| a == b).count();
            if lca == m.len() || lca == t.len() {
                continue; // a module and its own ancestor or descendant
            }
            graphs
                .entry(m[..lca].to_vec())
                .or_default()
                .entry((m[lca].clone(), t[lca].clone()))
                .or_insert_with(|| (info.file.clone(), *line, t.clone()));
        }
    }
    graphs
}

/// The strongly connected components with more than one member (Tarjan).
fn circles(edges: &BTreeMap<(String, String), Witness>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let nodes: Vec<&String> = nodes.into_iter().collect();
    let idx = |s: &String| nodes.iter().position(|n| *n == s).unwrap();
    let mut adj = vec![Vec::new(); nodes.len()];
    for (a, b) in edges.keys() {
        adj[idx(a)].push(idx(b));
    }
    struct T {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(v: usize, adj: &[Vec<usize>], t: &mut T) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &adj[v] {
            if t.index[w].is_none() {
                visit(w, adj, t);
                t.low[v] = t.low[v].min(t.low[w]);
            } else if t.on[w] {
                t.low[v] = t.low[v].min(t.index[w].unwrap());
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut c = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on[w] = false;
                c.push(w);
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                t.out.push(c);
            }
        }
    }
    let n = nodes.len();
    let mut t = T {
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(v, &adj, &mut t);
        }
    }
    t.out
        .into_iter()
        .map(|c| {
            let mut c: Vec<String> = c.into_iter().map(|i| nodes[i].clone()).collect();
            c.sort();
            c
        })
        .collect()
}

/// Describes every circle in the crate at `root`, except in [`ALLOWED`] folders.
fn report(root: &Path, allowed: &[&str]) -> Vec<String> {
    let mods = load(root);
    let mut problems = Vec::new();
    for (folder, edges) in folder_graphs(&mods) {
        let name = if folder.is_empty() {
            "crate".to_string()
        } else {
            folder.join("::")
        };
        if allowed
            .iter()
            .any(|a| name == *a || name.starts_with(&format!("{a}::")))
        {
            continue;
        }
        for c in circles(&edges) {
            let mut s = format!(
                "circle in {} ({}): {}",
                root.display(),
                name,
                c.join(" <-> ")
            );
            for ((a, b), (file, line, target)) in &edges {
                if c.contains(a) && c.contains(b) {
                    s += &format!(
                        "\n    {a} -> {b}: {}:{line} uses crate::{}",
                        file.display(),
                        target.join("::")
                    );
                }
            }
            problems.push(s);
        }
    }
    problems
}

#[test]
fn no_import_circles_in_src() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = report(&root, ALLOWED);
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

#[test]
fn no_import_circles_in_the_scenario_server() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenario-server/src");
    let problems = report(&root, &[]);
    assert!(problems.is_empty(), "\n{}\n", problems.join("\n"));
}

#[test]
fn top_level_modules_only_use_lower_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = load(&root);
    let graphs = folder_graphs(&mods);
    let mut wrong = Vec::new();
    for ((a, b), (file, line, target)) in graphs.get(&Vec::new()).into_iter().flatten() {
        let rank = |m: &String| LAYERS.iter().position(|l| l == m);
        match (rank(a), rank(b)) {
            (Some(x), Some(y)) if x > y || y <= 3 => {}
            _ => wrong.push(format!(
                "{a} -> {b}: {}:{line} uses crate::{}",
                file.display(),
                target.join("::")
            )),
        }
    }
    assert!(
        wrong.is_empty(),
        "layers are {LAYERS:?}, bottom first; these arrows run up:\n{}",
        wrong.join("\n")
    );
}

/// The checker itself finds a circle (so that a broken parser cannot pass silently).
#[test]
fn the_checker_finds_a_planted_circle() {
    let dir = std::env::temp_dir().join(format!("module-cycles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ev")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod ev;\n").unwrap();
    std::fs::write(
        dir.join("ev/mod.rs"),
        "mod a;\nmod b;\npub use b::Sink;\n#[cfg(test)]\nmod tests;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("ev/a.rs"),
        "// use crate::ev::b::Nothing;\nuse super::Sink;\npub struct Cx;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("ev/b.rs"),
        "pub struct Sink;\nfn f() { let s = \"crate::ev::a::Cx\"; let _ = crate::ev::a::Cx; }\n",
    )
    .unwrap();
    std::fs::write(dir.join("ev/tests.rs"), "use super::a::Cx;\n").unwrap();
    let problems = report(&dir, &[]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("a <-> b"), "{}", problems[0]);
    assert!(problems[0].contains("a.rs:2"), "{}", problems[0]);
    assert!(problems[0].contains("b.rs:2"), "{}", problems[0]);
}
