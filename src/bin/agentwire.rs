//! `agentwire`: a command-line tool for debugging recorded agent streams.
//!
//! ```text
//! agentwire sse    [--last-event-id ID] [--split-at N,N,...] [--chunk-size N] [FILE]
//! agentwire events [--dialect NAME] [--frames] [--last-event-id ID] [--split-at N,N,...] [--chunk-size N] [FILE]
//! agentwire state  [--dialect NAME] [--frames] [--last-event-id ID] [--split-at N,N,...] [--chunk-size N] [FILE]
//! ```
//! Reads FILE (or stdin), feeds it to the parser in the chunks given, and prints:
//! `sse`: one JSON line per dispatched event, then `{"end":true,"lastEventId":…,"retry":…}`;
//! `events`: one JSON line per canonical event (`{"event":…}`) or diagnostic (`{"diagnostic":…}`);
//! `state`: the assembled state as one JSON document.
//! `--dialect` (`canonical`, the default, `auto`, `a2a`, `acp`, `unified`, `myagent`) decodes another
//! protocol into canonical events; `--frames` (implied by a `.jsonl` FILE) reads one WebSocket text
//! frame per line instead of an SSE stream.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::run(std::env::args().skip(1).collect()));
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use agentwire::dialects::{Dialect, DialectChoice};
    use agentwire::json::{write_number, write_str};
    use agentwire::pipeline::{sse_diagnostic, Item, Session, StreamDecoder};
    use agentwire::sse::{SseConfig, SseItem, SseParser};
    use agentwire::state::Limits;
    use std::io::{Read, Write};

    const USAGE: &str = "usage: agentwire <sse|events|state> [--dialect canonical|auto|a2a|acp|unified|myagent] [--frames] [--last-event-id ID] [--split-at N,N,...] [--chunk-size N] [FILE]";

    struct Options {
        command: String,
        last_event_id: Option<String>,
        split_at: Vec<usize>,
        chunk_size: Option<usize>,
        file: Option<String>,
        dialect: DialectChoice,
        frames: bool,
    }

    fn parse_args(args: Vec<String>) -> Result<Options, String> {
        let mut it = args.into_iter();
        let command = it.next().ok_or_else(|| USAGE.to_owned())?;
        let mut o = Options {
            command,
            last_event_id: None,
            split_at: Vec::new(),
            chunk_size: None,
            file: None,
            dialect: DialectChoice::Fixed(Dialect::Canonical),
            frames: false,
        };
        while let Some(a) = it.next() {
            match a.as_str() {
                "--last-event-id" => {
                    o.last_event_id = Some(it.next().ok_or("--last-event-id needs a value")?)
                }
                "--split-at" => {
                    let v = it.next().ok_or("--split-at needs a value")?;
                    for p in v.split(',').filter(|p| !p.is_empty()) {
                        o.split_at.push(
                            p.trim()
                                .parse()
                                .map_err(|_| format!("bad split offset {p:?}"))?,
                        );
                    }
                }
                "--chunk-size" => {
                    let v = it.next().ok_or("--chunk-size needs a value")?;
                    let n: usize = v.parse().map_err(|_| format!("bad chunk size {v:?}"))?;
                    if n == 0 {
                        return Err("--chunk-size must be > 0".into());
                    }
                    o.chunk_size = Some(n);
                }
                "--dialect" => {
                    let v = it.next().ok_or("--dialect needs a value")?;
                    o.dialect = DialectChoice::parse(&v)
                        .ok_or_else(|| format!("unknown dialect {v:?}\n{USAGE}"))?;
                }
                "--frames" => o.frames = true,
                "-h" | "--help" => return Err(USAGE.to_owned()),
                f if !f.starts_with("--") && o.file.is_none() => o.file = Some(f.to_owned()),
                other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
            }
        }
        if o.file.as_deref().is_some_and(|f| f.ends_with(".jsonl")) {
            o.frames = true;
        }
        Ok(o)
    }

    /// The WebSocket frames of a `.jsonl` input: one per non-empty line.
    fn frames(input: &[u8]) -> Vec<String> {
        String::from_utf8_lossy(input)
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect()
    }

    /// Splits `input` at the given offsets (sorted, clamped) or into fixed-size chunks.
    fn chunks<'a>(input: &'a [u8], o: &Options) -> Vec<&'a [u8]> {
        let mut cuts: Vec<usize> = o.split_at.iter().map(|&c| c.min(input.len())).collect();
        if let Some(n) = o.chunk_size {
            cuts.extend((n..input.len()).step_by(n));
        }
        cuts.sort_unstable();
        cuts.dedup();
        let mut out = Vec::new();
        let mut start = 0;
        for c in cuts {
            out.push(input.get(start..c).unwrap_or(&[]));
            start = c;
        }
        out.push(input.get(start..).unwrap_or(&[]));
        out
    }

    pub fn run(args: Vec<String>) -> i32 {
        let o = match parse_args(args) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        };
        let mut input = Vec::new();
        let read = match &o.file {
            Some(f) => std::fs::File::open(f).and_then(|mut h| h.read_to_end(&mut input)),
            None => std::io::stdin().read_to_end(&mut input),
        };
        if let Err(e) = read {
            eprintln!("agentwire: cannot read input: {e}");
            return 1;
        }
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let mut line = String::new();
        let result = match o.command.as_str() {
            "sse" => {
                let mut p = SseParser::new(SseConfig::default());
                if let Some(id) = &o.last_event_id {
                    p.set_last_event_id(id);
                }
                let mut position = 0u64;
                for c in chunks(&input, &o) {
                    p.feed(c, &mut |item| {
                        line.clear();
                        match item {
                            SseItem::Event(ev) => {
                                line.push_str("{\"type\":");
                                write_str(&mut line, ev.event_type);
                                line.push_str(",\"data\":");
                                write_str(&mut line, ev.data);
                                line.push_str(",\"lastEventId\":");
                                write_str(&mut line, ev.last_event_id);
                                line.push('}');
                                position += 1;
                            }
                            SseItem::Diagnostic(d) => {
                                line.push_str("{\"diagnostic\":");
                                sse_diagnostic(&d, position).write_json(&mut line);
                                line.push('}');
                            }
                        }
                        let _ = writeln!(out, "{line}");
                    });
                }
                p.finish();
                line.clear();
                line.push_str("{\"end\":true,\"lastEventId\":");
                write_str(&mut line, p.last_event_id());
                line.push_str(",\"retry\":");
                match p.retry() {
                    Some(r) => write_number(&mut line, r as f64),
                    None => line.push_str("null"),
                }
                line.push('}');
                writeln!(out, "{line}")
            }
            "events" => {
                let mut d = StreamDecoder::with_dialect(SseConfig::default(), o.dialect);
                if let Some(id) = &o.last_event_id {
                    d.parser().set_last_event_id(id);
                }
                let mut print = |item: Item<'_>| {
                    line.clear();
                    match item {
                        Item::Event(ev, _) => {
                            line.push_str("{\"event\":");
                            ev.write_json(&mut line);
                        }
                        Item::Diagnostic(diag) => {
                            line.push_str("{\"diagnostic\":");
                            diag.write_json(&mut line);
                        }
                    }
                    line.push('}');
                    let _ = writeln!(out, "{line}");
                };
                if o.frames {
                    for f in frames(&input) {
                        d.feed_frame(&f, &mut print);
                    }
                }
                for c in chunks(&input, &o).into_iter().filter(|_| !o.frames) {
                    d.feed(c, &mut print);
                }
                d.parser().finish();
                Ok(())
            }
            "state" => {
                let mut s =
                    Session::with_dialect(SseConfig::default(), Limits::default(), o.dialect);
                if let Some(id) = &o.last_event_id {
                    s.parser().set_last_event_id(id);
                }
                if o.frames {
                    for f in frames(&input) {
                        s.feed_frame(&f, &mut |_, _, _| {});
                    }
                }
                for c in chunks(&input, &o).into_iter().filter(|_| !o.frames) {
                    s.feed(c, &mut |_, _, _| {});
                }
                s.finish();
                writeln!(out, "{}", s.store().state_json())
            }
            other => {
                eprintln!("unknown command {other:?}\n{USAGE}");
                return 2;
            }
        };
        match result.and_then(|_| out.flush()) {
            Ok(()) => 0,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Err(e) => {
                eprintln!("agentwire: {e}");
                1
            }
        }
    }
}
