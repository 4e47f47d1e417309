//! ISO 8601 date-time check (the RFC 3339 profile: date, `T`, time, zone).

/// `true` for `YYYY-MM-DDTHH:MM[:SS[.fff…]](Z|±HH:MM|±HHMM)` with fields in range.
pub fn is_valid(s: &str) -> bool {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> {
        let part = b.get(from..from + len)?;
        let mut v = 0u32;
        for &c in part {
            if !c.is_ascii_digit() {
                return None;
            }
            v = v * 10 + u32::from(c - b'0');
        }
        Some(v)
    };
    let (Some(_year), Some(month), Some(day)) = (num(0, 4), num(5, 2), num(8, 2)) else {
        return false;
    };
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || !matches!(b.get(10), Some(b'T' | b't' | b' ')) {
        return false;
    }
    let (Some(hour), Some(minute)) = (num(11, 2), num(14, 2)) else {
        return false;
    };
    if b.get(13) != Some(&b':') || !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
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
            let (m, end) = if b.get(rest) == Some(&b':') { (num(rest + 1, 2), rest + 3) } else { (num(rest, 2), rest + 2) };
            matches!(m, Some(m) if m <= 59) && h <= 23 && end == b.len()
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_valid;

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
