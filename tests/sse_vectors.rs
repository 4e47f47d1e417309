//! Conformance vectors for the SSE parser (`agentwire::sse`), driven from data files.
//!
//! Every `tests/vectors/sse/*.json` file is either one VECTOR or a collection
//! `{"description": "what the file covers", "vectors": [VECTOR, ...]}`; a VECTOR is:
//!
//! ```text
//! {
//!   "name":        "unique name (across all files)",                        required
//!   "spec":        "the rule exercised, quoted or paraphrased",             required
//!   "input":       "data: a\r\n\r\n",                                        one of input / inputHex
//!   "input":       ["data: ", {"hex": "f09f98"}, {"text": "x", "repeat": 1048576}, "\n\n"],
//!   "inputHex":    "efbbbf646174613a20610a0a",
//!   "lastEventId": "initial id (SseParser::set_last_event_id)",             optional, default ""
//!   "config":      {"maxLineBytes": 16, "maxEventBytes": 32},                optional, each key
//!                                                                            defaults to SseConfig::default()
//!   "expected":    [ {"type": "message", "data": "a", "lastEventId": ""},    required, in order
//!                    {"type": "m", "data": [{"text": "x", "repeat": 3}], "lastEventId": "", "repeat": 2},
//!                    {"diagnostic": "sse-line-too-long"} ],
//!   "end":         {"lastEventId": "", "retry": null}                        required: the state
//!                                                                            after finish()
//! }
//! ```
//!
//! Byte strings ("input", an expected "data") are a JSON string (its UTF-8 bytes) or an array of
//! parts: a string, `{"text": s}` or `{"hex": h}`, each with an optional `"repeat": n`. An expected
//! item with `"repeat": n` stands for n equal items. A diagnostic's `limit` is checked against the
//! configured limit. Unknown keys are errors (typos must not silently weaken a vector).
//!
//! Each vector is its own test, named `<file stem>::<vector name>`, so one can be run alone
//! (`cargo test --test sse_vectors -- bom`); every vector of every file is a test by being
//! there. Each vector is fed (a) whole, (b) split into two chunks at every byte position (for inputs
//! over 4 KiB: at every position near the start, the end and each CR/LF, plus a stride), (c) one
//! byte at a time, (d) in seeded random chunkings; every run must give the expected items and end
//! state, and leave nothing buffered after `finish()`.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main()
}

/// Not a wasm test: nothing to run there.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use libtest_mimic::{Arguments, Trial};
    use std::collections::BTreeSet;
    use std::path::Path;

    use agentwire::sse::{SseConfig, SseDiagnostic, SseItem, SseParser};
    use serde_json::{Map, Value};

    /// Inputs up to this size are split at every byte position.
    const EVERY_SPLIT_MAX: usize = 4096;

    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Out {
        Event {
            event_type: String,
            data: String,
            id: String,
        },
        Diag(String),
    }

    #[derive(Debug, PartialEq, Eq)]
    struct Outcome {
        items: Vec<Out>,
        last_event_id: String,
        retry: Option<u64>,
    }

    struct Vector {
        name: String,
        input: Vec<u8>,
        initial_id: String,
        config: SseConfig,
        expected: Outcome,
    }

    fn obj<'a>(
        v: &'a Value,
        what: &str,
        allowed: &[&str],
    ) -> Result<&'a Map<String, Value>, String> {
        let m = v
            .as_object()
            .ok_or_else(|| format!("{what}: not an object"))?;
        for k in m.keys() {
            if !allowed.contains(&k.as_str()) {
                return Err(format!("{what}: unknown key {k:?}"));
            }
        }
        Ok(m)
    }

    fn string(v: Option<&Value>, what: &str) -> Result<String, String> {
        v.and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| format!("{what}: missing or not a string"))
    }

    fn hex(s: &str, what: &str) -> Result<Vec<u8>, String> {
        let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        if s.len() % 2 != 0 {
            return Err(format!("{what}: odd hex length"));
        }
        (0..s.len())
            .step_by(2)
            .map(|i| {
                u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| format!("{what}: bad hex: {e}"))
            })
            .collect()
    }

    fn repeat(m: &Map<String, Value>, what: &str) -> Result<usize, String> {
        match m.get("repeat") {
            None => Ok(1),
            Some(v) => v
                .as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| format!("{what}: bad repeat")),
        }
    }

    /// A byte string: a JSON string, or an array of parts.
    fn bytes(v: &Value, what: &str) -> Result<Vec<u8>, String> {
        match v {
            Value::String(s) => Ok(s.as_bytes().to_vec()),
            Value::Array(parts) => {
                let mut out = Vec::new();
                for (i, p) in parts.iter().enumerate() {
                    let what = format!("{what}[{i}]");
                    match p {
                        Value::String(s) => out.extend_from_slice(s.as_bytes()),
                        _ => {
                            let m = obj(p, &what, &["text", "hex", "repeat"])?;
                            let one = match (m.get("text"), m.get("hex")) {
                                (Some(t), None) => string(Some(t), &what)?.into_bytes(),
                                (None, Some(h)) => hex(&string(Some(h), &what)?, &what)?,
                                _ => {
                                    return Err(format!("{what}: needs exactly one of text / hex"))
                                }
                            };
                            for _ in 0..repeat(m, &what)? {
                                out.extend_from_slice(&one);
                            }
                        }
                    }
                }
                Ok(out)
            }
            _ => Err(format!("{what}: not a string or an array of parts")),
        }
    }

    fn load_vector(v: &Value, file: &str, index: usize) -> Result<Vector, String> {
        let what = format!("{file}: vector #{index}");
        let m = obj(
            v,
            &what,
            &[
                "name",
                "spec",
                "input",
                "inputHex",
                "lastEventId",
                "config",
                "expected",
                "end",
            ],
        )?;
        let name = string(m.get("name"), &format!("{what}: name"))?;
        let what = format!("{file}: {name:?}");
        let spec = string(m.get("spec"), &format!("{what}: spec"))?;
        if spec.trim().is_empty() {
            return Err(format!("{what}: empty spec"));
        }
        let input = match (m.get("input"), m.get("inputHex")) {
            (Some(i), None) => bytes(i, &format!("{what}: input"))?,
            (None, Some(h)) => hex(&string(Some(h), &what)?, &format!("{what}: inputHex"))?,
            _ => return Err(format!("{what}: needs exactly one of input / inputHex")),
        };
        let initial_id = match m.get("lastEventId") {
            None => String::new(),
            v => string(v, &format!("{what}: lastEventId"))?,
        };
        let mut config = SseConfig::default();
        if let Some(c) = m.get("config") {
            let c = obj(
                c,
                &format!("{what}: config"),
                &["maxLineBytes", "maxEventBytes"],
            )?;
            let limit = |k: &str| -> Result<Option<usize>, String> {
                c.get(k)
                    .map(|v| {
                        v.as_u64()
                            .map(|n| n as usize)
                            .ok_or_else(|| format!("{what}: config.{k}"))
                    })
                    .transpose()
            };
            if let Some(n) = limit("maxLineBytes")? {
                config.max_line_bytes = n;
            }
            if let Some(n) = limit("maxEventBytes")? {
                config.max_event_bytes = n;
            }
        }
        let mut items = Vec::new();
        let expected = m
            .get("expected")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{what}: expected"))?;
        for (i, e) in expected.iter().enumerate() {
            let what = format!("{what}: expected[{i}]");
            let em = e
                .as_object()
                .ok_or_else(|| format!("{what}: not an object"))?;
            let item = if em.contains_key("diagnostic") {
                let em = obj(e, &what, &["diagnostic", "repeat"])?;
                let code = string(em.get("diagnostic"), &what)?;
                if code != "sse-line-too-long" && code != "sse-event-too-large" {
                    return Err(format!("{what}: unknown diagnostic {code:?}"));
                }
                Out::Diag(code)
            } else {
                let em = obj(e, &what, &["type", "data", "lastEventId", "repeat"])?;
                let data = bytes(
                    em.get("data").ok_or_else(|| format!("{what}: data"))?,
                    &what,
                )?;
                Out::Event {
                    event_type: string(em.get("type"), &format!("{what}: type"))?,
                    data: String::from_utf8(data)
                        .map_err(|_| format!("{what}: data is not UTF-8"))?,
                    id: string(em.get("lastEventId"), &format!("{what}: lastEventId"))?,
                }
            };
            for _ in 0..repeat(em, &what)? {
                items.push(item.clone());
            }
        }
        let end = obj(
            m.get("end").ok_or_else(|| format!("{what}: end"))?,
            &what,
            &["lastEventId", "retry"],
        )?;
        let retry = match end.get("retry") {
            Some(Value::Null) => None,
            Some(v) => Some(v.as_u64().ok_or_else(|| format!("{what}: end.retry"))?),
            None => return Err(format!("{what}: end.retry missing (use null)")),
        };
        Ok(Vector {
            name,
            input,
            initial_id,
            config,
            expected: Outcome {
                items,
                last_event_id: string(end.get("lastEventId"), &format!("{what}: end.lastEventId"))?,
                retry,
            },
        })
    }

    /// Feeds `chunks` to a fresh parser, then finishes the stream.
    fn run<'a>(v: &Vector, chunks: impl IntoIterator<Item = &'a [u8]>) -> Result<Outcome, String> {
        let mut p = SseParser::new(v.config);
        p.set_last_event_id(&v.initial_id);
        let mut items = Vec::new();
        let mut bad_limit = None;
        for chunk in chunks {
            p.feed(chunk, &mut |item| {
                items.push(match item {
                    SseItem::Event(e) => Out::Event {
                        event_type: e.event_type.to_owned(),
                        data: e.data.to_owned(),
                        id: e.last_event_id.to_owned(),
                    },
                    SseItem::Diagnostic(d) => {
                        let configured = match d {
                            SseDiagnostic::LineTooLong { limit } => {
                                (limit, v.config.max_line_bytes)
                            }
                            SseDiagnostic::EventTooLarge { limit } => {
                                (limit, v.config.max_event_bytes)
                            }
                        };
                        if configured.0 != configured.1 {
                            bad_limit = Some(d.clone());
                        }
                        Out::Diag(d.code().to_owned())
                    }
                })
            });
        }
        p.finish();
        if let Some(d) = bad_limit {
            return Err(format!("diagnostic with a wrong limit: {d:?}"));
        }
        if p.buffered_bytes() != 0 {
            return Err(format!(
                "{} bytes buffered after finish()",
                p.buffered_bytes()
            ));
        }
        Ok(Outcome {
            items,
            last_event_id: p.last_event_id().to_owned(),
            retry: p.retry(),
        })
    }

    /// Where to split an input in two: everywhere for small inputs, a sample for large ones.
    fn split_points(input: &[u8]) -> BTreeSet<usize> {
        let n = input.len();
        if n <= EVERY_SPLIT_MAX {
            return (0..=n).collect();
        }
        // Every position in the first and last 32 bytes, around the first and last 4 line ends and
        // non-ASCII bytes, and 48 evenly spaced ones.
        let mut points: BTreeSet<usize> = (0..=32).chain(n - 32..=n).collect();
        let special = |&(_, &b): &(usize, &u8)| b == b'\r' || b == b'\n' || b >= 0x80;
        let near = |(i, _): (usize, &u8)| i.saturating_sub(2)..=(i + 2).min(n);
        points.extend(
            input
                .iter()
                .enumerate()
                .filter(special)
                .take(4)
                .flat_map(near),
        );
        points.extend(
            input
                .iter()
                .enumerate()
                .rev()
                .filter(special)
                .take(4)
                .flat_map(near),
        );
        points.extend((0..=n).step_by(n / 48));
        points
    }

    /// xorshift64*, for reproducible random chunkings.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
        }
    }

    fn check(v: &Vector, seed: u64) -> Result<(), String> {
        let compare = |how: &str, got: Result<Outcome, String>| -> Result<(), String> {
            match got {
                Ok(got) if got == v.expected => Ok(()),
                Ok(got) => Err(format!(
                    "{:?} fed {how}:\n  expected {}\n  got      {}",
                    v.name,
                    show(&v.expected),
                    show(&got)
                )),
                Err(e) => Err(format!("{:?} fed {how}: {e}", v.name)),
            }
        };
        let input = &v.input[..];
        compare("whole", run(v, [input]))?;
        for at in split_points(input) {
            let (a, b) = input.split_at(at);
            compare(&format!("split at {at}"), run(v, [a, b]))?;
        }
        compare("byte by byte", run(v, input.chunks(1)))?;
        let mut rng = Rng(seed | 1);
        let rounds = if input.len() <= EVERY_SPLIT_MAX { 8 } else { 2 };
        for round in 0..rounds {
            let max = 1 + rng.below(if round % 2 == 0 { 8 } else { 256 });
            let mut chunks = Vec::new();
            let mut rest = input;
            while !rest.is_empty() {
                let (a, b) = rest.split_at(rng.below(max + 1).min(rest.len()));
                chunks.push(a);
                rest = b;
            }
            let sizes: Vec<usize> = chunks.iter().map(|c| c.len()).collect();
            let how = if input.len() <= 512 {
                format!("in chunks {sizes:?}")
            } else {
                format!("in random chunks (round {round})")
            };
            compare(&how, run(v, chunks))?;
        }
        Ok(())
    }

    /// A readable rendering, with long data abbreviated.
    fn show(o: &Outcome) -> String {
        let items: Vec<String> = o
            .items
            .iter()
            .map(|i| match i {
                Out::Event {
                    event_type,
                    data,
                    id,
                } if data.len() > 200 => {
                    let start: String = data.chars().take(60).collect();
                    format!(
                        "Event({event_type:?}, {} bytes starting {start:?}, id {id:?})",
                        data.len()
                    )
                }
                Out::Event {
                    event_type,
                    data,
                    id,
                } => format!("Event({event_type:?}, {data:?}, id {id:?})"),
                Out::Diag(code) => format!("Diag({code})"),
            })
            .collect();
        format!(
            "[{}] end id {:?} retry {:?}",
            items.join(", "),
            o.last_event_id,
            o.retry
        )
    }

    /// Every vector file, loaded: one trial per vector, plus one that fails when a file does not
    /// load (bad JSON, an unknown key, a duplicate name) or when there are too few vectors.
    pub fn main() {
        let args = Arguments::from_args();
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/sse");
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        let mut names = BTreeSet::new();
        let mut problems = Vec::new();
        let mut trials = Vec::new();
        let mut count = 0u64;
        for path in &files {
            let file = path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            let stem = file.trim_end_matches(".json").to_owned();
            let loaded = std::fs::read_to_string(path)
                .map_err(|e| format!("{file}: {e}"))
                .and_then(|text| {
                    serde_json::from_str::<Value>(&text)
                        .map_err(|e| format!("{file}: invalid JSON: {e}"))
                })
                .and_then(|doc| {
                    let vectors = if doc.get("name").is_some() {
                        vec![doc]
                    } else {
                        let d = obj(&doc, &file, &["description", "vectors"])?;
                        string(d.get("description"), &format!("{file}: description"))?;
                        d.get("vectors")
                            .and_then(Value::as_array)
                            .cloned()
                            .ok_or_else(|| format!("{file}: vectors"))?
                    };
                    vectors
                        .iter()
                        .enumerate()
                        .map(|(i, raw)| load_vector(raw, &file, i))
                        .collect::<Result<Vec<Vector>, String>>()
                });
            let vectors = match loaded {
                Ok(v) => v,
                Err(e) => {
                    problems.push(e);
                    continue;
                }
            };
            for v in vectors {
                if !names.insert((file.clone(), v.name.clone())) {
                    problems.push(format!("{file}: duplicate vector name {:?}", v.name));
                    continue;
                }
                count += 1;
                let seed = count.wrapping_mul(0x9E37_79B9_7F4A_7C15);
                let name = format!("{stem}::{}", v.name);
                let file = file.clone();
                trials.push(Trial::test(name, move || {
                    check(&v, seed).map_err(|e| format!("{file}: {e}").into())
                }));
            }
        }
        if count < 40 {
            problems.push(format!("only {count} vectors in {}", dir.display()));
        }
        trials.push(Trial::test("every vector file loads", move || {
            if problems.is_empty() {
                Ok(())
            } else {
                Err(problems.join("\n").into())
            }
        }));
        libtest_mimic::run(&args, trials).exit();
    }
}
