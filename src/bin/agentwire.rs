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
//! `--dialect` (`canonical`, the default, `auto`, `a2a`, `acp`, `unified`, `myagent`, `ag-ui`, `ai-sdk`) decodes another
//! protocol into canonical events; `--frames` (implied by a `.jsonl` FILE) reads one WebSocket text
//! frame per line instead of an SSE stream. A frame over 16 MiB (the browser's `maxEventBytes`
//! default, which drops such frames too) is dropped with a `frame-too-large` diagnostic.
//! `agentwire --help` prints the synopsis (`cli::HELP`; `docs/cli.md` quotes it, and
//! `scripts/docs-check.mjs` checks that the two agree).
//! `sse` refuses `--frames` and `--dialect`: it prints the SSE events of a stream as they are.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(cli::run(std::env::args().skip(1).collect()));
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod cli {
    use crate::now_ms;
    use agentwire::dialects::{Dialect, DialectChoice};
    use agentwire::json::{write_number, write_str};
    use agentwire::pipeline::{sse_diagnostic, Item, Session, StreamDecoder};
    use agentwire::sse::{SseConfig, SseItem, SseParser};
    use agentwire::state::Limits;
    use std::io::{BufRead, Read, Write};

    /// What `agentwire --help` prints (to stdout, exit code 0): the synopsis of `docs/cli.md`.
    pub const HELP: &str = "\
agentwire sse    [--last-event-id ID] [--split-at N,N,...] [--chunk-size N] [FILE]
agentwire events [--dialect NAME] [--frames] [--last-event-id ID] [--split-at N,N,...] [--chunk-size N] [FILE]
agentwire state  [--dialect NAME] [--frames] [--last-event-id ID] [--split-at N,N,...] [--chunk-size N] [FILE]

NAME: canonical (the default), auto, a2a, acp, unified, myagent, ag-ui, ai-sdk
FILE: the input (default stdin); a .jsonl FILE implies --frames (one WebSocket text frame per line)";

    const USAGE: &str = "usage: agentwire <sse|events|state> [--dialect canonical|auto|a2a|acp|unified|myagent|ag-ui|ai-sdk] [--frames] [--last-event-id ID] [--split-at N,N,...] [--chunk-size N] [FILE]";

    struct Options {
        command: String,
        last_event_id: Option<String>,
        split_at: Vec<usize>,
        chunk_size: Option<usize>,
        file: Option<String>,
        dialect: DialectChoice,
        frames: bool,
        /// `--dialect` was given.
        dialect_given: bool,
        /// `--frames` was given (not only implied by a `.jsonl` FILE).
        frames_given: bool,
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
            dialect_given: false,
            frames_given: false,
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
                    o.dialect_given = true;
                }
                "--frames" => {
                    o.frames = true;
                    o.frames_given = true;
                }
                "-h" | "--help" => return Err(USAGE.to_owned()),
                f if !f.starts_with("--") && o.file.is_none() => o.file = Some(f.to_owned()),
                other => return Err(format!("unknown argument {other:?}\n{USAGE}")),
            }
        }
        if o.command == "sse" {
            // `sse` shows the stream's SSE framing itself: WebSocket frames have none, and
            // dialects are decoded into events (`events`, `state`). Refused rather than ignored.
            if o.frames_given {
                return Err(format!("agentwire sse: --frames is not supported: sse prints the events of an SSE stream, and WebSocket frames are not one; use `agentwire events --frames FILE`\n{USAGE}"));
            }
            if o.dialect_given {
                return Err(format!("agentwire sse: --dialect is not supported: sse prints SSE events as they are; use `agentwire events --dialect NAME FILE`\n{USAGE}"));
            }
        } else if o.file.as_deref().is_some_and(|f| f.ends_with(".jsonl")) {
            o.frames = true;
        }
        Ok(o)
    }

    /// Cuts the input, as it is read, into the chunks the options ask for (`--split-at` offsets,
    /// `--chunk-size`): only the bytes up to the next cut are held, so memory stays bounded by
    /// the largest chunk asked for; where no cut is asked for, bytes go on as they are read.
    struct Chunker {
        /// `--split-at` offsets, sorted, largest first (popped as they are passed).
        cuts: Vec<usize>,
        chunk_size: Option<usize>,
        /// Input offset of `pending`'s first byte.
        pos: usize,
        pending: Vec<u8>,
    }

    impl Chunker {
        fn new(o: &Options) -> Self {
            let mut cuts = o.split_at.clone();
            cuts.sort_unstable_by(|a, b| b.cmp(a));
            cuts.dedup();
            Chunker {
                cuts,
                chunk_size: o.chunk_size,
                pos: 0,
                pending: Vec::new(),
            }
        }

        /// The next cut after `pos`, if any.
        fn next_cut(&mut self) -> Option<usize> {
            while self.cuts.last().is_some_and(|&c| c <= self.pos) {
                self.cuts.pop();
            }
            let split = self.cuts.last().copied();
            let fixed = self
                .chunk_size
                .map(|n| (self.pos / n).saturating_add(1).saturating_mul(n));
            match (split, fixed) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }

        fn push(&mut self, mut data: &[u8], emit: &mut dyn FnMut(&[u8])) {
            while !data.is_empty() {
                let Some(cut) = self.next_cut() else {
                    emit(data);
                    self.pos += data.len();
                    return;
                };
                let need = cut - self.pos - self.pending.len();
                if data.len() < need {
                    self.pending.extend_from_slice(data);
                    return;
                }
                if self.pending.is_empty() {
                    emit(&data[..need]);
                } else {
                    self.pending.extend_from_slice(&data[..need]);
                    emit(&self.pending);
                    self.pending.clear();
                }
                data = &data[need..];
                self.pos = cut;
            }
        }

        fn finish(&mut self, emit: &mut dyn FnMut(&[u8])) {
            if !self.pending.is_empty() {
                emit(&self.pending);
                self.pos += self.pending.len();
                self.pending.clear();
            }
        }
    }

    /// Reads `input` to its end in blocks, handing each block to `on`.
    fn read_blocks(input: &mut dyn Read, on: &mut dyn FnMut(&[u8])) -> std::io::Result<()> {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match input.read(&mut buf) {
                Ok(0) => return Ok(()),
                Ok(n) => on(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// One line of a `.jsonl` input.
    enum Frame<'a> {
        /// A WebSocket text frame.
        Text(&'a str),
        /// A frame of this many bytes, over the limit: dropped unread.
        TooLarge(usize),
    }

    /// Reads the WebSocket frames of a `.jsonl` input (one per non-empty line) as they come.
    /// A line over `max` bytes is not kept (memory stays bounded): it is [`Frame::TooLarge`].
    fn read_frames(
        input: &mut dyn Read,
        max: usize,
        on: &mut dyn FnMut(Frame<'_>),
    ) -> std::io::Result<()> {
        let mut r = std::io::BufReader::with_capacity(64 * 1024, input);
        let mut line = Vec::new();
        // Bytes of the current line so far (also those not kept), and whether the last is `\r`.
        let mut len = 0usize;
        let mut cr = false;
        loop {
            let (used, end) = {
                let buf = match r.fill_buf() {
                    Ok(b) => b,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if buf.is_empty() {
                    (0, true)
                } else {
                    let nl = buf.iter().position(|&b| b == b'\n');
                    let part = &buf[..nl.unwrap_or(buf.len())];
                    len = len.saturating_add(part.len());
                    if let Some(&b) = part.last() {
                        cr = b == b'\r';
                    }
                    if len <= max.saturating_add(1) {
                        line.extend_from_slice(part);
                    }
                    (nl.map_or(buf.len(), |n| n + 1), nl.is_some())
                }
            };
            let eof = used == 0;
            r.consume(used);
            if !end {
                continue;
            }
            // The line without its `\r\n` / `\n` (bytes over max + 1 were not kept).
            let l = line.strip_suffix(b"\r").unwrap_or(&line);
            let bytes = len - usize::from(cr);
            if bytes > max {
                on(Frame::TooLarge(bytes));
            } else {
                let text = String::from_utf8_lossy(l);
                if !text.trim().is_empty() {
                    on(Frame::Text(&text));
                }
            }
            line.clear();
            len = 0;
            cr = false;
            if eof {
                return Ok(());
            }
        }
    }

    /// Where the commands print: stdout, buffered (flushed after each block read).
    type Out<'a> = std::cell::RefCell<std::io::BufWriter<std::io::StdoutLock<'a>>>;

    /// What reading the input and writing the output came to.
    type Reads = (std::io::Result<()>, std::io::Result<()>);

    /// `agentwire sse`: one JSON line per SSE event or diagnostic, then the end state.
    fn sse(o: &Options, input: &mut dyn Read, out: &Out<'_>, chunker: &mut Chunker) -> Reads {
        let mut line = String::new();
        let mut p = SseParser::new(SseConfig::default());
        if let Some(id) = &o.last_event_id {
            p.set_last_event_id(id);
        }
        let mut position = 0u64;
        let mut feed = |c: &[u8]| {
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
                let _ = writeln!(out.borrow_mut(), "{line}");
            });
        };
        let read = read_blocks(input, &mut |b| {
            chunker.push(b, &mut feed);
            let _ = out.borrow_mut().flush();
        });
        chunker.finish(&mut feed);
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
        (read, writeln!(out.borrow_mut(), "{line}"))
    }

    /// `agentwire events`: one JSON line per canonical event or diagnostic.
    fn events(o: &Options, input: &mut dyn Read, out: &Out<'_>, chunker: &mut Chunker) -> Reads {
        let mut line = String::new();
        let mut d = StreamDecoder::with_dialect(SseConfig::default(), o.dialect);
        d.set_now_ms(Some(now_ms()));
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
            let _ = writeln!(out.borrow_mut(), "{line}");
        };
        let read = if o.frames {
            let max = d.max_event_bytes();
            read_frames(input, max, &mut |f| {
                match f {
                    Frame::Text(t) => d.feed_frame(t, &mut print),
                    Frame::TooLarge(n) => d.frame_too_large(n, &mut print),
                }
                let _ = out.borrow_mut().flush();
            })
        } else {
            let read = read_blocks(input, &mut |b| {
                chunker.push(b, &mut |c| d.feed(c, &mut print));
                let _ = out.borrow_mut().flush();
            });
            chunker.finish(&mut |c| d.feed(c, &mut print));
            read
        };
        d.parser().finish();
        (read, Ok(()))
    }

    /// `agentwire state`: the assembled state as one JSON document.
    fn state(o: &Options, input: &mut dyn Read, out: &Out<'_>, chunker: &mut Chunker) -> Reads {
        let mut s = Session::with_dialect(SseConfig::default(), Limits::default(), o.dialect);
        s.set_now_ms(Some(now_ms()));
        if let Some(id) = &o.last_event_id {
            s.parser().set_last_event_id(id);
        }
        let read = if o.frames {
            let max = s.max_event_bytes();
            read_frames(input, max, &mut |f| match f {
                Frame::Text(t) => s.feed_frame(t, &mut |_, _, _| {}),
                Frame::TooLarge(n) => s.frame_too_large(n),
            })
        } else {
            let read = read_blocks(input, &mut |b| {
                chunker.push(b, &mut |c| s.feed(c, &mut |_, _, _| {}))
            });
            chunker.finish(&mut |c| s.feed(c, &mut |_, _, _| {}));
            read
        };
        s.finish();
        if read.is_err() {
            return (read, Ok(()));
        }
        (
            Ok(()),
            writeln!(out.borrow_mut(), "{}", s.store().state_json()),
        )
    }

    pub fn run(args: Vec<String>) -> i32 {
        if args.iter().any(|a| a == "-h" || a == "--help") {
            println!("{HELP}");
            return 0;
        }
        let o = match parse_args(args) {
            Ok(o) => o,
            Err(e) => {
                eprintln!("{e}");
                return 2;
            }
        };
        // Checked before any input is read: a mistyped command must not wait for stdin.
        if !matches!(o.command.as_str(), "sse" | "events" | "state") {
            eprintln!("unknown command {:?}\n{USAGE}", o.command);
            return 2;
        }
        let mut input: Box<dyn Read> = match &o.file {
            Some(f) => match std::fs::File::open(f) {
                Ok(h) => Box::new(h),
                Err(e) => {
                    eprintln!("agentwire: cannot read {f}: {e}");
                    return 1;
                }
            },
            None => Box::new(std::io::stdin().lock()),
        };
        let stdout = std::io::stdout();
        let out = std::cell::RefCell::new(std::io::BufWriter::new(stdout.lock()));
        let mut chunker = Chunker::new(&o);
        // Output goes out as the input comes in (a live stream piped in shows its events at
        // once): flushed after each block read.
        let (read, result) = match o.command.as_str() {
            "sse" => sse(&o, &mut *input, &out, &mut chunker),
            "events" => events(&o, &mut *input, &out, &mut chunker),
            _ => state(&o, &mut *input, &out, &mut chunker),
        };
        let flushed = result.and_then(|_| out.borrow_mut().flush());
        if let Err(e) = read {
            eprintln!("agentwire: cannot read input: {e}");
            return 1;
        }
        match flushed {
            Ok(()) => 0,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Err(e) => {
                eprintln!("agentwire: {e}");
                1
            }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// "Now" in epoch ms: the time given to dialect events that carry no timestamp (the time they
/// were read). `AGENTWIRE_NOW_MS` fixes it (reproducible output).
fn now_ms() -> i64 {
    if let Some(ms) = std::env::var("AGENTWIRE_NOW_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return ms;
    }
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
