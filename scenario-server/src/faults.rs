//! Fault injection: what a connection does wrong on purpose, parsed from
//! `faults=drop=5,dup=3,status=500:1,...` (query string or the `faults` member of a POST body).
//!
//! Every fault is deterministic: it depends on event ids and on the run's connection count, never
//! on timing or chance. See the crate docs for what each one does on the wire.

/// The faults of one stream request. `Default` is a well-behaved server.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Faults {
    /// `drop=K`: on the run's first streaming connection, write events `..K` fully, then only
    /// the first half of event K's bytes, and close the connection abruptly.
    pub drop: Option<u64>,
    /// `dropEvery=K`: on every connection, after K complete events, write half of the next one
    /// and close abruptly (soak tests).
    pub drop_every: Option<u64>,
    /// `dup=K`: a resumed connection first re-sends the K events before the resume point.
    pub dup: Option<u64>,
    /// `restart`: a resumed connection ignores `Last-Event-ID` and replays from event 0.
    pub restart: bool,
    /// `noIds`: no `id:` (and no `retry:`) lines: a reconnecting client cannot say where it
    /// was, so every connection replays the run from its start.
    pub no_ids: bool,
    /// `shuffle=W`: chunk events (content-delta, file-write, dataset-write) of one stream are
    /// delivered permuted within windows of W log positions (ids stay with their events).
    pub shuffle: Option<u64>,
    /// `lose=ID` (repeatable): these event ids are never delivered.
    pub lose: Vec<u64>,
    /// `malformed`: invalid lines injected at fixed places (see [`crate::sse`]).
    pub malformed: bool,
    /// `drip=MS`: the response body is written one byte at a time, MS ms apart.
    pub drip: Option<u64>,
    /// `status=CODE[:N]`: the first N stream requests (all when N is absent) get HTTP CODE.
    pub status: Option<StatusFault>,
    /// `ctype=TYPE`: the stream is sent with this Content-Type instead of `text/event-stream`.
    pub ctype: Option<String>,
    /// `huge=MB`: one extra content-delta whose data line is MB MiB long (after event 2).
    pub huge: Option<u64>,
    /// `endless`: on the first connection, after event 3, `data: ` and then an endless line.
    pub endless: bool,
    /// `silent=K`: on the first connection, after event K, nothing more (no heartbeats), open.
    pub silent: Option<u64>,
    /// `linger`: once the run finished and everything was written, the connection is kept
    /// open with nothing more (no heartbeats) instead of being ended: a server that never
    /// closes the stream of a finished run.
    pub linger: bool,
    /// `heartbeat=MS`: comment heartbeats every MS ms while idle (default 5000).
    pub heartbeat: Option<u64>,
    /// `rpcError` (A2A JSON-RPC streams): the root task's `failed` status-update is replaced by
    /// a JSON-RPC error response, and the stream ends.
    pub rpc_error: bool,
    /// `evilAuth`: after event 1, auth requests whose `authUrl` no client may open (see
    /// [`crate::sse::EVIL_AUTH_URLS`]).
    pub evil_auth: bool,
    /// `closeAfterHello=CODE` (MyAgent WebSocket): every connection sends `system.connected`,
    /// then closes with CODE (a server that refuses the session after the handshake).
    pub close_after_hello: Option<u16>,
    /// `loseResponse` (MyAgent WebSocket): on the run's first connection, the first
    /// `user.response` is never read and the connection is cut (no close frame): the answer
    /// went into a socket that was already dead.
    pub lose_response: bool,
    /// `loseMessage` (MyAgent WebSocket): on the run's first connection, the first
    /// `user.message` is never read and the connection is cut (no close frame).
    pub lose_message: bool,
    /// `ignoreMessage` (MyAgent WebSocket): on the run's first connection, the first
    /// `user.message` is read and ignored; the connection stays open with heartbeats.
    pub ignore_message: bool,
    /// `foreignSession` (MyAgent WebSocket): on the run's first connection, after the first
    /// run event, frames of another session (`intruder-…`) with the next `seq` numbers: an
    /// `agent.tool_call` of `rm_rf` and an `agent.final_answer` "not yours".
    pub foreign_session: bool,
    /// `forgetSession` (MyAgent WebSocket): every `user.reconnect` is answered with
    /// `system.error` `ERR_SESSION_NOT_FOUND`, then `agent.session_created` of a new session
    /// (a server that restarted and lost its sessions).
    pub forget_session: bool,
    /// `hugeAnswer=MB` (MyAgent WebSocket): the `agent.final_answer`'s answer is padded to
    /// MB MiB (every time it is sent).
    pub huge_answer: Option<u64>,
    /// `crlf` / `cr`: every `\n` of the SSE framing is written as `\r\n` / `\r` (legal SSE
    /// that the official AG-UI client cannot read).
    pub newline: Option<&'static str>,
}

/// `status=CODE[:N]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusFault {
    /// The HTTP status to answer with.
    pub code: u16,
    /// How many stream requests fail (`None`: all of them).
    pub count: Option<u32>,
}

/// Largest `huge=` value (MiB).
pub const MAX_HUGE_MB: u64 = 1024;

fn num(name: &str, v: Option<&str>, min: u64, max: u64) -> Result<u64, String> {
    let v = v.ok_or_else(|| format!("fault {name} needs a value ({name}=N)"))?;
    let n: u64 = v
        .trim()
        .parse()
        .map_err(|_| format!("fault {name}: {v:?} is not a number"))?;
    if n < min || n > max {
        return Err(format!("fault {name}: {n} is outside {min}..={max}"));
    }
    Ok(n)
}

fn flag(name: &str, v: Option<&str>) -> Result<bool, String> {
    match v {
        None | Some("1") | Some("true") => Ok(true),
        Some("0") | Some("false") => Ok(false),
        Some(v) => Err(format!("fault {name} takes no value (got {v:?})")),
    }
}

impl Faults {
    /// Parses a comma-separated list of `name` or `name=value`. Unknown names and bad values are
    /// errors (a typo must not silently test the happy path).
    pub fn parse(s: &str) -> Result<Faults, String> {
        let mut f = Faults::default();
        for item in s.split(',').map(str::trim).filter(|x| !x.is_empty()) {
            let (name, value) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (item, None),
            };
            const BIG: u64 = u32::MAX as u64;
            match name {
                "drop" => f.drop = Some(num(name, value, 0, BIG)?),
                "dropEvery" => f.drop_every = Some(num(name, value, 1, BIG)?),
                "dup" => f.dup = Some(num(name, value, 1, BIG)?),
                "restart" => f.restart = flag(name, value)?,
                "noIds" => f.no_ids = flag(name, value)?,
                "shuffle" => f.shuffle = Some(num(name, value, 2, 10_000)?),
                "lose" => f.lose.push(num(name, value, 0, u64::MAX)?),
                "malformed" => f.malformed = flag(name, value)?,
                "drip" => f.drip = Some(num(name, value, 0, 10_000)?),
                "status" => {
                    let v = value.ok_or("fault status needs a value (status=CODE[:N])")?;
                    let (code, count) = match v.split_once(':') {
                        Some((c, n)) => (c, Some(n)),
                        None => (v, None),
                    };
                    let code = num("status", Some(code), 200, 599)? as u16;
                    let count = match count {
                        Some(n) => Some(num("status count", Some(n), 0, BIG)? as u32),
                        None => None,
                    };
                    f.status = Some(StatusFault { code, count });
                }
                "ctype" => {
                    let v = value.ok_or("fault ctype needs a value (ctype=TYPE)")?;
                    if v.is_empty() || !v.bytes().all(|b| (0x20..0x7f).contains(&b)) {
                        return Err(format!("fault ctype: {v:?} is not a header value"));
                    }
                    f.ctype = Some(v.to_owned());
                }
                "huge" => f.huge = Some(num(name, value, 1, MAX_HUGE_MB)?),
                "endless" => f.endless = flag(name, value)?,
                "silent" => f.silent = Some(num(name, value, 0, u64::MAX)?),
                "linger" => f.linger = flag(name, value)?,
                "heartbeat" => f.heartbeat = Some(num(name, value, 10, 3_600_000)?),
                "rpcError" => f.rpc_error = flag(name, value)?,
                "evilAuth" => f.evil_auth = flag(name, value)?,
                "closeAfterHello" => {
                    f.close_after_hello = Some(num(name, value, 1000, 4999)? as u16)
                }
                "loseResponse" => f.lose_response = flag(name, value)?,
                "loseMessage" => f.lose_message = flag(name, value)?,
                "ignoreMessage" => f.ignore_message = flag(name, value)?,
                "foreignSession" => f.foreign_session = flag(name, value)?,
                "forgetSession" => f.forget_session = flag(name, value)?,
                "hugeAnswer" => f.huge_answer = Some(num(name, value, 1, MAX_HUGE_MB)?),
                "crlf" if flag(name, value)? => f.newline = Some("\r\n"),
                "cr" if flag(name, value)? => f.newline = Some("\r"),
                "crlf" | "cr" => f.newline = None,
                other => return Err(format!("unknown fault {other:?}")),
            }
        }
        Ok(f)
    }

    /// Whether event `id` is never delivered.
    pub fn loses(&self, id: u64) -> bool {
        self.lose.contains(&id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_fault() {
        let f = Faults::parse(
            "drop=5,dropEvery=7,dup=3,restart,shuffle=4,lose=9,lose=11,malformed,drip=2,\
             status=429:1,ctype=text/plain,huge=2,endless,silent=4,heartbeat=100,rpcError,evilAuth,\
             linger,crlf",
        )
        .expect("valid");
        assert_eq!(f.drop, Some(5));
        assert_eq!(f.drop_every, Some(7));
        assert_eq!(f.dup, Some(3));
        assert!(f.restart && f.malformed && f.endless && f.rpc_error && f.evil_auth && f.linger);
        assert_eq!(f.newline, Some("\r\n"));
        assert_eq!(Faults::parse("cr").expect("cr").newline, Some("\r"));
        assert_eq!(f.shuffle, Some(4));
        assert_eq!(f.lose, vec![9, 11]);
        assert!(f.loses(11) && !f.loses(10));
        assert_eq!(f.drip, Some(2));
        assert_eq!(
            f.status,
            Some(StatusFault {
                code: 429,
                count: Some(1)
            })
        );
        assert_eq!(f.ctype.as_deref(), Some("text/plain"));
        assert_eq!(
            (f.huge, f.silent, f.heartbeat),
            (Some(2), Some(4), Some(100))
        );
        let m =
            Faults::parse("loseMessage,ignoreMessage,foreignSession,forgetSession,hugeAnswer=3")
                .expect("myagent faults");
        assert!(m.lose_message && m.ignore_message && m.foreign_session && m.forget_session);
        assert_eq!(m.huge_answer, Some(3));
        assert_eq!(Faults::parse("").expect("empty"), Faults::default());
        assert_eq!(
            Faults::parse("status=500").expect("all").status,
            Some(StatusFault {
                code: 500,
                count: None
            })
        );
    }

    #[test]
    fn rejects_typos_and_bad_values() {
        for bad in [
            "drpo=3",
            "drop",
            "drop=x",
            "status=99",
            "status=500:x",
            "huge=0",
            "huge=100000",
            "ctype=a\u{7f}b",
            "restart=yes",
            "shuffle=1",
            "hugeAnswer=0",
            "forgetSession=2",
        ] {
            assert!(Faults::parse(bad).is_err(), "{bad} should be refused");
        }
    }
}
