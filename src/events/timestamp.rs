//! ISO 8601 date-time check (the RFC 3339 profile: date, `T`, time, zone).

/// The decimal value of `b[from..from + len]` when it is all ASCII digits. `inline(always)`:
/// every event carries a timestamp, and opt-level "z" would otherwise keep this a call.
#[inline(always)]
fn digits(b: &[u8], from: usize, len: usize) -> Option<u32> {
    let part = b.get(from..from.checked_add(len)?)?;
    let mut v = 0u32;
    for &c in part {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + u32::from(d);
    }
    Some(v)
}

/// `true` for `YYYY-MM-DDTHH:MM[:SS[.fff…]](Z|±HH:MM|±HHMM)` with fields in range.
pub fn is_valid(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| digits(b, from, len);
    let (Some(year), Some(month), Some(day)) = (num(0, 4), num(5, 2), num(8, 2)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || !matches!(b.get(10), Some(b'T' | b't' | b' '))
    {
        return false;
    }
    let (Some(hour), Some(minute)) = (num(11, 2), num(14, 2)) else {
        return false;
    };
    if b.get(13) != Some(&b':')
        || !(1..=12).contains(&month)
        || !(1..=days_in_month).contains(&day)
        || hour > 23
        || minute > 59
    {
        return false;
    }
    let mut i = 16;
    if b.get(i) == Some(&b':') {
        match num(i + 1, 2) {
            Some(sec) if sec <= 60 => i += 3,
            _ => return false,
        }
        if matches!(b.get(i), Some(b'.' | b',')) {
            i += 1;
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return false;
            }
        }
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            let (Some(h), rest) = (num(i + 1, 2), i + 3) else {
                return false;
            };
            let (m, end) = if b.get(rest) == Some(&b':') {
                (num(rest + 1, 2), rest + 3)
            } else {
                (num(rest, 2), rest + 2)
            };
            matches!(m, Some(m) if m <= 59) && h <= 23 && end == b.len()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    #[test]
    fn days_are_checked_against_their_month() {
        for s in [
            "2025-02-30T10:30:00Z",
            "2025-02-29T10:30:00Z", // 2025 is not a leap year
            "2025-04-31T10:30:00Z",
            "2025-06-31T10:30:00Z",
            "1900-02-29T00:00:00Z", // a century, not a leap year
        ] {
            assert!(!is_valid(s), "{s} accepted");
        }
        for s in [
            "2024-02-29T10:30:00Z",
            "2000-02-29T10:30:00Z",
            "2025-12-31T23:59:59Z",
        ] {
            assert!(is_valid(s), "{s} refused");
        }
    }

    #[test]
    fn accepts_rfc3339_date_times() {
        for s in [
            "2025-11-06T10:30:00Z",
            "2025-11-06T10:30:30.123Z",
            "2025-11-06T10:30:00+02:00",
            "2025-11-06T10:30:00-0530",
            "2025-11-06T10:30Z",
            "2025-12-31T23:59:60Z",
        ] {
            assert!(is_valid(s), "{s}");
        }
    }

    #[test]
    fn rejects_everything_else() {
        for s in [
            "",
            "2025-11-06",
            "2025-11-06T10:30:00",
            "2025-13-06T10:30:00Z",
            "2025-11-06T24:00:00Z",
            "2025-11-06T10:30:00.Z",
            "2025-11-06T10:30:00Zjunk",
            "06/11/2025 10:30",
            "2025-11-06T10:30:00+2:00",
            "２０２５-11-06T10:30:00Z",
        ] {
            assert!(!is_valid(s), "{s}");
        }
    }
}

/// Milliseconds since the Unix epoch for a valid timestamp (see [`is_valid`]), else `None`.
pub fn to_epoch_ms(s: &str) -> Option<i64> {
    if !is_valid(s) {
        return None;
    }
    let b = s.as_bytes();
    let n = |from: usize, len: usize| -> i64 {
        b.get(from..from + len)
            .map(|p| {
                p.iter()
                    .fold(0i64, |v, &c| v * 10 + i64::from(c.wrapping_sub(b'0')))
            })
            .unwrap_or(0)
    };
    let (y, m, d) = (n(0, 4), n(5, 2), n(8, 2));
    // Days from civil (Howard Hinnant's algorithm).
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let mut ms = days * 86_400_000 + n(11, 2) * 3_600_000 + n(14, 2) * 60_000;
    let mut i = 16;
    if b.get(i) == Some(&b':') {
        ms += n(i + 1, 2) * 1000;
        i += 3;
        if matches!(b.get(i), Some(b'.' | b',')) {
            i += 1;
            let mut scale = 100;
            while let Some(c) = b.get(i).filter(|c| c.is_ascii_digit()) {
                ms += i64::from(c - b'0') * scale;
                scale /= 10;
                i += 1;
            }
        }
    }
    if let Some(sign @ (b'+' | b'-')) = b.get(i) {
        let h = n(i + 1, 2);
        let m = if b.get(i + 3) == Some(&b':') {
            n(i + 4, 2)
        } else {
            n(i + 3, 2)
        };
        let off = (h * 60 + m) * 60_000;
        ms += if *sign == b'+' { -off } else { off };
    }
    Some(ms)
}

#[cfg(test)]
mod epoch_tests {
    use super::to_epoch_ms;

    #[test]
    fn converts_to_epoch_milliseconds() {
        assert_eq!(to_epoch_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            to_epoch_ms("2025-11-06T10:30:00.123Z"),
            Some(1_762_425_000_123)
        );
        assert_eq!(
            to_epoch_ms("2025-11-06T12:30:00+02:00"),
            Some(1_762_425_000_000)
        );
        assert_eq!(to_epoch_ms("2000-02-29T00:00:00Z"), Some(951_782_400_000));
        assert_eq!(to_epoch_ms("nope"), None);
    }
}
