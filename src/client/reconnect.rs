//! When and how a stream reconnects: backoff with jitter, the server's `retry:` and
//! `Retry-After`, and what an HTTP response means for the connection.

/// Reconnection settings (the `reconnect` client option).
#[derive(Debug, Clone, PartialEq)]
pub struct ReconnectPolicy {
    /// First delay when the server sent no `retry:` (ms). Default 1000.
    pub initial_delay_ms: f64,
    /// Upper bound of one delay (ms). Default 30,000.
    pub max_delay_ms: f64,
    /// Consecutive failed attempts before giving up (`failed`). Default 8; 0 = never reconnect.
    pub max_attempts: u32,
    /// Random share taken off each delay, in [0, 1]. Default 0.5 (delay × (1 − 0.5·r)).
    pub jitter: f64,
}

impl Default for ReconnectPolicy {
    fn default() -> Self {
        ReconnectPolicy {
            initial_delay_ms: 1000.0,
            max_delay_ms: 30_000.0,
            max_attempts: 8,
            jitter: 0.5,
        }
    }
}

impl ReconnectPolicy {
    /// The delay before reconnect attempt `attempt` (1 = the first after a failure).
    /// `server_retry_ms` is the stream's `retry:` (it replaces the initial delay),
    /// `retry_after_ms` a `Retry-After` (a floor: never reconnect sooner), `random` in [0, 1).
    pub fn delay_ms(
        &self,
        attempt: u32,
        server_retry_ms: Option<f64>,
        retry_after_ms: Option<f64>,
        random: f64,
    ) -> f64 {
        let base = server_retry_ms.unwrap_or(self.initial_delay_ms).max(0.0);
        let exp = 2f64.powi(attempt.saturating_sub(1).min(30) as i32);
        let cap = self.max_delay_ms.max(base);
        let full = (base * exp).min(cap);
        let jitter = self.jitter.clamp(0.0, 1.0) * random.clamp(0.0, 1.0);
        let d = full * (1.0 - jitter);
        let d = match retry_after_ms {
            Some(ra) if ra > d => ra,
            _ => d,
        };
        d.min(2_147_483_647.0)
    }
}

/// What a stream response means for the connection.
#[derive(Debug, Clone, PartialEq)]
pub enum ResponseVerdict {
    /// 2xx with an event-stream content type: read it.
    Open,
    /// 204 No Content: the server says stop (no reconnect).
    Stop,
    /// Try again later (408, 429, and 5xx but the permanent ones: 501, 505, 506, 508, 510);
    /// `retry_after_ms` from `Retry-After` when given.
    Retry {
        /// Why, for the connection state.
        reason: String,
        /// The server's `Retry-After`, in ms.
        retry_after_ms: Option<f64>,
    },
    /// Give up with a stable error code (`unauthorized`, `http-error`, `bad-content-type`).
    Fail {
        /// Stable code.
        code: &'static str,
        /// For a person.
        message: String,
    },
}

/// Classifies a stream response by status, `Content-Type` and `Retry-After` (`now_ms` resolves
/// an HTTP-date). Only `text/event-stream` is read; any other 2xx type fails clearly.
pub fn classify_response(
    status: u16,
    content_type: Option<&str>,
    retry_after: Option<&str>,
    now_ms: f64,
) -> ResponseVerdict {
    let retry_after_ms = retry_after.and_then(|v| parse_retry_after(v, now_ms));
    match status {
        204 => ResponseVerdict::Stop,
        200..=299 => {
            let ct = content_type.unwrap_or("");
            let essence = ct.split(';').next().unwrap_or("").trim();
            if essence.eq_ignore_ascii_case("text/event-stream") {
                ResponseVerdict::Open
            } else {
                ResponseVerdict::Fail {
                    code: "bad-content-type",
                    message: format!(
                        "the server answered with Content-Type {}, not text/event-stream",
                        crate::json::Quoted(ct)
                    ),
                }
            }
        }
        // A 5xx that says the request itself can never work (Not Implemented, HTTP Version Not
        // Supported, Variant Also Negotiates, Loop Detected, Not Extended) fails at once: a
        // retry would get the same answer forever.
        501 | 505 | 506 | 508 | 510 => ResponseVerdict::Fail {
            code: "http-error",
            message: format!("HTTP {status}: the server cannot serve this stream request"),
        },
        408 | 429 | 500..=599 => ResponseVerdict::Retry {
            reason: format!("HTTP {status}"),
            retry_after_ms,
        },
        401 | 403 => ResponseVerdict::Fail {
            code: "unauthorized",
            message: format!(
                "HTTP {status}: the server refused the credentials (check the Authorization header or cookies)"
            ),
        },
        _ => ResponseVerdict::Fail {
            code: "http-error",
            message: format!("HTTP {status}: the server refused the stream request"),
        },
    }
}

/// `Retry-After` as ms from now: delta-seconds, or an IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`). `None` when unreadable. Capped at one hour.
pub fn parse_retry_after(v: &str, now_ms: f64) -> Option<f64> {
    let v = v.trim();
    let ms = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
        // Digits only: fold them (saturating; the result is capped below anyway).
        v.bytes()
            .fold(0.0f64, |n, b| (n * 10.0 + f64::from(b - b'0')).min(1e12))
            * 1000.0
    } else {
        (http_date_ms(v)? - now_ms).max(0.0)
    };
    Some(ms.min(3_600_000.0))
}

fn http_date_ms(v: &str) -> Option<f64> {
    // "Sun, 06 Nov 1994 08:49:37 GMT"
    let rest = v.split_once(',')?.1.strip_prefix(' ')?;
    let mut parts = rest.split(' ');
    let day: i64 = parts.next()?.parse().ok()?;
    let month = match parts.next()? {
        "Jan" => 1,
        "Feb" => 2,
        "Mar" => 3,
        "Apr" => 4,
        "May" => 5,
        "Jun" => 6,
        "Jul" => 7,
        "Aug" => 8,
        "Sep" => 9,
        "Oct" => 10,
        "Nov" => 11,
        "Dec" => 12,
        _ => return None,
    };
    let year: i64 = parts.next()?.parse().ok()?;
    let mut hms = parts.next()?.split(':');
    let h: i64 = hms.next()?.parse().ok()?;
    let m: i64 = hms.next()?.parse().ok()?;
    let s: i64 = hms.next()?.parse().ok()?;
    if parts.next()? != "GMT"
        || !(1..=9999).contains(&year)
        || !(1..=31).contains(&day)
        || h > 23
        || m > 59
        || s > 60
    {
        return None;
    }
    // Days from civil (Howard Hinnant's algorithm).
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + h * 3600 + m * 60 + s) * 1000) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_the_server_retry_and_is_capped() {
        let p = ReconnectPolicy {
            jitter: 0.0,
            ..ReconnectPolicy::default()
        };
        assert_eq!(p.delay_ms(1, None, None, 0.9), 1000.0);
        assert_eq!(p.delay_ms(2, None, None, 0.9), 2000.0);
        assert_eq!(p.delay_ms(3, Some(300.0), None, 0.9), 1200.0);
        assert_eq!(p.delay_ms(20, None, None, 0.9), 30_000.0);
        assert_eq!(p.delay_ms(40, None, None, 0.0), 30_000.0);
        // Retry-After is a floor.
        assert_eq!(p.delay_ms(1, Some(100.0), Some(5000.0), 0.0), 5000.0);
    }

    #[test]
    fn jitter_takes_off_at_most_its_share() {
        let p = ReconnectPolicy::default();
        let d = p.delay_ms(1, None, None, 0.999);
        assert!((500.0..=1000.0).contains(&d), "{d}");
        assert_eq!(p.delay_ms(1, None, None, 0.0), 1000.0);
    }

    #[test]
    fn responses_are_classified() {
        use ResponseVerdict::*;
        assert_eq!(
            classify_response(200, Some("text/event-stream; charset=utf-8"), None, 0.0),
            Open
        );
        assert_eq!(classify_response(204, None, None, 0.0), Stop);
        assert!(matches!(
            classify_response(200, Some("text/html"), None, 0.0),
            Fail {
                code: "bad-content-type",
                ..
            }
        ));
        assert!(matches!(
            classify_response(401, None, None, 0.0),
            Fail {
                code: "unauthorized",
                ..
            }
        ));
        assert!(matches!(
            classify_response(404, None, None, 0.0),
            Fail {
                code: "http-error",
                ..
            }
        ));
        assert_eq!(
            classify_response(429, None, Some("2"), 0.0),
            Retry {
                reason: "HTTP 429".into(),
                retry_after_ms: Some(2000.0)
            }
        );
        assert!(matches!(
            classify_response(503, None, None, 0.0),
            Retry { .. }
        ));
        assert!(matches!(
            classify_response(408, None, None, 0.0),
            Retry { .. }
        ));
        // Transient server errors (also a CDN's 52x) are retried; the permanent ones are not.
        for status in [500, 502, 504, 507, 511, 520, 524, 599] {
            assert!(
                matches!(classify_response(status, None, None, 0.0), Retry { .. }),
                "{status}"
            );
        }
        for status in [501, 505, 506, 508, 510] {
            assert!(
                matches!(
                    classify_response(status, None, Some("1"), 0.0),
                    Fail {
                        code: "http-error",
                        ..
                    }
                ),
                "{status}"
            );
        }
    }

    #[test]
    fn retry_after_dates() {
        let t = http_date_ms("Sun, 06 Nov 1994 08:49:37 GMT").unwrap();
        assert_eq!(t, 784_111_777_000.0);
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:39 GMT", t),
            Some(2000.0)
        );
        assert_eq!(parse_retry_after("soon", 0.0), None);
        assert_eq!(parse_retry_after("99999999", 0.0), Some(3_600_000.0));
    }

    #[test]
    fn delays_stay_within_what_set_timeout_takes() {
        // setTimeout converts its delay to a 32-bit integer: more than 2^31 - 1 ms would fire
        // at once. A server's huge `retry:` (the parser saturates it) is capped there.
        let p = ReconnectPolicy::default();
        for retry in [3_000_000_000.0, u64::MAX as f64] {
            let d = p.delay_ms(1, Some(retry), None, 0.0);
            assert!(
                (1.0..=2_147_483_647.0).contains(&d),
                "retry {retry}: {d} ms"
            );
        }
    }

    #[test]
    fn a_retry_after_date_with_an_absurd_year_is_ignored() {
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 999999999999 08:49:37 GMT", 0.0),
            None
        );
        assert_eq!(parse_retry_after("Sun, 06 Nov 0 08:49:37 GMT", 0.0), None);
    }
}
