//! Small helpers: the seeded PRNG, simulated timestamps, percent-decoding.

/// A tiny deterministic PRNG (SplitMix64): the same seed gives the same sequence on every
/// platform, which is what makes a run's event log byte-identical for a given seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `lo..=hi` (`lo` when `hi <= lo`).
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// `true` with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        den > 0 && self.next_u64() % den < num
    }
}

/// Milliseconds since the Unix epoch of the simulated clock's zero: 2025-11-06T10:30:00.000Z.
pub const BASE_EPOCH_MS: i64 =
    days_from_civil(2025, 11, 6) * 86_400_000 + (10 * 3600 + 30 * 60) * 1000;

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub const fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// ISO 8601 (`2025-11-06T10:30:00.123Z`) of `sim_ms` simulated milliseconds after the base time.
pub fn timestamp(sim_ms: u64) -> String {
    epoch_timestamp(BASE_EPOCH_MS + i64::try_from(sim_ms).unwrap_or(i64::MAX / 2))
}

/// ISO 8601 of the wall clock (connection-level frames; never in a run's log).
pub fn now_timestamp() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    epoch_timestamp(ms)
}

/// ISO 8601 of `t` milliseconds since 1970-01-01T00:00:00Z.
pub fn epoch_timestamp(t: i64) -> String {
    let (days, ms_of_day) = (t.div_euclid(86_400_000), t.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    let (h, min, s, ms) = (
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1000 % 60,
        ms_of_day % 1000,
    );
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{min:02}:{s:02}.{ms:03}Z")
}

/// Decodes `%XX` escapes (and `+` as a space when `plus` is set); invalid escapes stay as they
/// are and invalid UTF-8 is replaced, so any input decodes.
pub fn percent_decode(s: &str, plus: bool) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' if plus => out.push(b' '),
            b'%' => {
                let hex = |c: u8| (c as char).to_digit(16);
                match (
                    b.get(i + 1).and_then(|c| hex(*c)),
                    b.get(i + 2).and_then(|c| hex(*c)),
                ) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Appends `s` as a JSON string literal.
pub fn push_json_str(out: &mut String, s: &str) {
    out.push_str(&serde_json::Value::from(s).to_string());
}

/// Standard base64 (with padding) of `bytes`.
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        out.push(A[(n >> 18) as usize & 63] as char);
        out.push(A[(n >> 12) as usize & 63] as char);
        out.push(if c.len() > 1 {
            A[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if c.len() > 2 {
            A[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_from_the_base_time() {
        assert_eq!(timestamp(0), "2025-11-06T10:30:00.000Z");
        assert_eq!(timestamp(123), "2025-11-06T10:30:00.123Z");
        assert_eq!(timestamp(61_001), "2025-11-06T10:31:01.001Z");
        // 13 h 30 min later is past midnight.
        assert_eq!(
            timestamp(13 * 3_600_000 + 30 * 60_000),
            "2025-11-07T00:00:00.000Z"
        );
        assert_eq!(timestamp(56 * 86_400_000), "2026-01-01T10:30:00.000Z");
    }

    #[test]
    fn percent_decoding_never_fails() {
        assert_eq!(percent_decode("a%20b+c", true), "a b c");
        assert_eq!(percent_decode("a+b", false), "a+b");
        assert_eq!(percent_decode("%zz%4", true), "%zz%4");
        assert_eq!(percent_decode("%", true), "%");
        assert_eq!(percent_decode("%ff", true), "\u{fffd}");
        assert_eq!(percent_decode("text%2Fplain", true), "text/plain");
    }

    #[test]
    fn rng_is_deterministic() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut c = Rng::new(8);
        assert_ne!(Rng::new(7).next_u64(), c.next_u64());
        for _ in 0..1000 {
            let v = c.range(20, 40);
            assert!((20..=40).contains(&v));
        }
    }
}
