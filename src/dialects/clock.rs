//! The stream clock every dialect decoder shares: the timestamp of an event that carries none,
//! and the text of one given in milliseconds (`YYYY-MM-DDTHH:MM:SS.mmmZ`, written without
//! `format!`: every AG-UI event carries a numeric timestamp).

/// The stream's notion of "now" for events that carry no timestamp.
#[derive(Debug, Default, Clone)]
pub(crate) struct Clock {
    /// Set by the embedder (wall clock in the browser); otherwise the last event's time is used.
    pub now_ms: Option<i64>,
    last: Option<Last>,
    /// The second of the latest [`Clock::stamp_ms`]: a stream's events mostly share their
    /// second with the one before (about 50 events a second in a typical AG-UI stream), so
    /// the date, the time and their check are computed once per second, not per event.
    second: Option<Second>,
}

/// The stream's last valid timestamp: as sent, or as milliseconds (written when asked).
#[derive(Debug, Clone)]
enum Last {
    Text(String),
    Ms(i64),
}

/// A second's text and whether it is a valid timestamp.
#[derive(Debug, Clone, Copy)]
struct Second {
    /// Its first millisecond (clamped to years 1..=9999).
    start: i64,
    /// `YYYY-MM-DDTHH:MM:SS.000Z`.
    text: [u8; 24],
    valid: bool,
}

/// The timestamp used when neither the event, the stream nor the embedder gave one.
pub(crate) const EPOCH: &str = "1970-01-01T00:00:00.000Z";

impl Clock {
    /// The timestamp for an event: its own when it has one (even an invalid one, which the
    /// canonical validation then reports), else the embedder's clock, else the last valid
    /// timestamp of the stream, else the Unix epoch.
    pub(crate) fn stamp(&mut self, own: Option<&str>) -> String {
        if let Some(ts) = own {
            if crate::events::timestamp::is_valid(ts) {
                self.last = Some(Last::Text(ts.to_owned()));
            }
            return ts.to_owned();
        }
        if let Some(ms) = self.now_ms {
            return iso_from_ms(ms);
        }
        self.stream_last().unwrap_or_else(|| EPOCH.to_owned())
    }

    /// [`Clock::stamp`] of an event's own timestamp given in milliseconds (written into `buf`;
    /// no allocation).
    pub(crate) fn stamp_ms<'b>(&mut self, ms: i64, buf: &'b mut [u8; 24]) -> &'b str {
        self.stamp_ms_checked(ms, buf).0
    }

    /// [`Clock::stamp_ms`], and whether the timestamp is valid (`timestamp::is_valid`).
    pub(crate) fn stamp_ms_checked<'b>(
        &mut self,
        ms: i64,
        buf: &'b mut [u8; 24],
    ) -> (&'b str, bool) {
        let ms = clamp_ms(ms);
        let second = match self.second {
            Some(s) if (s.start..s.start + 1000).contains(&ms) => s,
            _ => {
                let start = ms - ms.rem_euclid(1000);
                let text = iso_bytes(start);
                // (Only ASCII digits and separators: always UTF-8.) The validity of the text
                // depends on its date only: any time of day written is a valid one.
                let valid =
                    std::str::from_utf8(&text).is_ok_and(crate::events::timestamp::is_valid);
                let s = Second { start, text, valid };
                self.second = Some(s);
                s
            }
        };
        *buf = second.text;
        // The milliseconds, below 1000.
        let m = (ms - second.start) as u32;
        buf[20] = b'0' + (m / 100) as u8;
        buf[21] = b'0' + (m / 10 % 10) as u8;
        buf[22] = b'0' + (m % 10) as u8;
        let ts = std::str::from_utf8(buf).unwrap_or(EPOCH);
        if second.valid {
            self.last = Some(Last::Ms(ms));
        }
        (ts, second.valid)
    }

    /// The stream's last valid timestamp.
    fn stream_last(&self) -> Option<String> {
        match self.last.as_ref()? {
            Last::Text(ts) => Some(ts.clone()),
            Last::Ms(ms) => Some(iso_from_ms(*ms)),
        }
    }

    /// The stream's own time (its last valid timestamp), else the embedder's clock, else the
    /// epoch: for events the client makes up (an answer it sent), so that they sit on the
    /// stream's timeline even when the server's clock is not the browser's (request expiry is
    /// measured on that timeline).
    pub(crate) fn stream_now(&self) -> String {
        match (self.stream_last(), self.now_ms) {
            (Some(ts), _) => ts,
            (None, Some(ms)) => iso_from_ms(ms),
            (None, None) => EPOCH.to_owned(),
        }
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for milliseconds since the Unix epoch (proleptic Gregorian).
pub(crate) fn iso_from_ms(ms: i64) -> String {
    // Only ASCII digits and separators: always UTF-8.
    String::from_utf8(iso_bytes(ms).to_vec()).unwrap_or_default()
}

/// [`iso_from_ms`] as bytes.
fn iso_bytes(ms: i64) -> [u8; 24] {
    let (days, rem) = day_and_rest(ms);
    let mut b = *b"0000-00-00T00:00:00.000Z";
    b[..10].copy_from_slice(&date_bytes(days));
    time_bytes(&mut b, rem);
    b
}

/// `ms` within years 1..=9999.
fn clamp_ms(ms: i64) -> i64 {
    ms.clamp(-62_135_596_800_000, 253_402_300_799_999)
}

/// Days since the epoch and milliseconds into that day (years 1..=9999: clamped).
fn day_and_rest(ms: i64) -> (i64, i64) {
    let ms = clamp_ms(ms);
    (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000))
}

/// Writes `n` as `width` decimal digits into `b[at..]`.
fn put_digits(b: &mut [u8], at: usize, width: usize, mut n: i64) {
    for i in (at..at + width).rev() {
        if let Some(c) = b.get_mut(i) {
            *c = b'0' + (n % 10) as u8;
        }
        n /= 10;
    }
}

/// `YYYY-MM-DD` of a day since the epoch.
fn date_bytes(days: i64) -> [u8; 10] {
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    // Written digit by digit: `format!` was ~10 % of an AG-UI stream's decoding (every AG-UI
    // event carries a numeric timestamp).
    let mut b = *b"0000-00-00";
    put_digits(&mut b, 0, 4, y);
    put_digits(&mut b, 5, 2, m);
    put_digits(&mut b, 8, 2, d);
    b
}

/// Writes the time of day (`rem` ms into it) into `b`'s `HH:MM:SS.mmm` (from byte 11).
fn time_bytes(b: &mut [u8; 24], rem: i64) {
    put_digits(b, 11, 2, rem / 3_600_000);
    put_digits(b, 14, 2, rem / 60_000 % 60);
    put_digits(b, 17, 2, rem / 1000 % 60);
    put_digits(b, 20, 3, rem % 1000);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_epoch_milliseconds_as_iso() {
        assert_eq!(iso_from_ms(0), EPOCH);
        assert_eq!(iso_from_ms(1_762_425_000_123), "2025-11-06T10:30:00.123Z");
        assert_eq!(iso_from_ms(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso_from_ms(-1), "1969-12-31T23:59:59.999Z");
        for ms in [0, 1, 86_399_999, 1_700_000_000_000, 4_102_444_800_000] {
            assert_eq!(
                crate::events::timestamp::to_epoch_ms(&iso_from_ms(ms)),
                Some(ms)
            );
        }
        // Never panics at the extremes.
        let _ = iso_from_ms(i64::MIN);
        let _ = iso_from_ms(i64::MAX);
    }

    #[test]
    fn stamps_in_milliseconds_match_the_text_of_each_instant() {
        // Within a second, across seconds, days and years, before the epoch and at the clamps.
        let mut ms = vec![
            0,
            1,
            999,
            1000,
            1762425000565,
            1762425000999,
            1762425001000,
            1762425001001,
            1762425000000,
            86_399_999,
            86_400_000,
            -1,
            -1000,
            -1001,
            951_782_400_000, // 2000-02-29
            253_402_300_799_999,
            999_999_999_999_999,
            -62_135_596_800_000,
            -99_999_999_999_999,
        ];
        ms.extend((0..3000).map(|i| 1762425000000 + i * 7));
        let mut c = Clock::default();
        for &m in &ms {
            let mut buf = [0; 24];
            let (ts, valid) = c.stamp_ms_checked(m, &mut buf);
            let want = iso_from_ms(m);
            assert_eq!(ts, want, "{m}");
            assert_eq!(valid, crate::events::timestamp::is_valid(&want), "{m}");
            if valid {
                assert_eq!(c.stream_now(), want, "{m}");
            }
        }
    }

    #[test]
    fn clock_prefers_own_then_embedder_then_last() {
        let mut c = Clock::default();
        assert_eq!(c.stamp(None), EPOCH);
        assert_eq!(
            c.stamp(Some("2025-01-01T00:00:00Z")),
            "2025-01-01T00:00:00Z"
        );
        assert_eq!(c.stamp(None), "2025-01-01T00:00:00Z");
        assert_eq!(c.stamp(Some("bad")), "bad");
        assert_eq!(c.stamp(None), "2025-01-01T00:00:00Z");
        c.now_ms = Some(0);
        assert_eq!(c.stamp(None), EPOCH);
    }

    #[test]
    fn iso_from_ms_matches_javascript_to_iso_string() {
        // (ms, new Date(ms).toISOString())
        for (ms, iso) in [
            (0, "1970-01-01T00:00:00.000Z"),
            (1_762_425_000_093, "2025-11-06T10:30:00.093Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
            (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
            (i64::MAX, "9999-12-31T23:59:59.999Z"),
        ] {
            assert_eq!(iso_from_ms(ms), iso, "{ms}");
        }
    }
}
