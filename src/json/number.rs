//! Decimal text to `f64`, correctly rounded (as `JSON.parse` and `str::parse::<f64>` do), without
//! the standard library's float parser: that one carries a 10 KB table of powers of five for its
//! Eisel-Lemire step, nearly all of which stays incompressible in the shipped wasm.
//!
//! Two paths:
//! - **fast** (Clinger): at most 15 significant digits and a decimal exponent within ±22, so the
//!   digits and the power of ten are both exact doubles and one IEEE multiplication or division
//!   rounds correctly. This is almost every number in agent streams (`0.42`, `1.5e3`, `12.75`).
//! - **exact**: the digits as a big integer, scaled by the power of ten (multiplied, or divided
//!   keeping the remainder as a sticky bit), then rounded to nearest, ties to even, including
//!   subnormals. Any double is exactly representable in 767 significant digits, so digits past
//!   the 800th only matter as "something nonzero follows": they become one appended `1`.

/// Powers of ten that are exact doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Significant digits kept for the exact path (see the module comment).
const MAX_DIGITS: usize = 800;

/// Parses JSON number text already checked against the JSON grammar (`-?int(.frac)?([eE][+-]?exp)?`).
/// `None` only for text outside that grammar.
pub(crate) fn parse_f64(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let (negative, body) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    // Split mantissa and exponent.
    let (mant, exp_text) = match body.iter().position(|&b| b == b'e' || b == b'E') {
        Some(i) => (body.get(..i)?, body.get(i + 1..)),
        None => (body, None),
    };
    let (int_part, frac_part) = match mant.iter().position(|&b| b == b'.') {
        Some(i) => (mant.get(..i)?, mant.get(i + 1..)?),
        None => (mant, &[][..]),
    };
    if int_part.is_empty() || !int_part.iter().chain(frac_part).all(u8::is_ascii_digit) {
        return None;
    }
    // The exponent, saturated: anything past ±10^6 is 0 or infinity anyway.
    let mut exp: i64 = 0;
    if let Some(e) = exp_text {
        let (neg, digits) = match e.split_first() {
            Some((b'-', r)) => (true, r),
            Some((b'+', r)) => (false, r),
            _ => (false, e),
        };
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        for &d in digits {
            exp = (exp * 10 + i64::from(d - b'0')).min(1_000_000_000);
        }
        if neg {
            exp = -exp;
        }
    }
    // Significant digits: leading zeros dropped, the decimal point moved into the exponent.
    exp -= frac_part.len() as i64;
    let all = int_part.iter().chain(frac_part).copied();
    // The fast path without allocating: at most 15 significant digits, exponent within ±22.
    let (mut m, mut n) = (0u64, 0usize);
    for d in all.clone() {
        if n == 0 && d == b'0' {
            continue;
        }
        n += 1;
        if n > 15 {
            break;
        }
        m = m * 10 + u64::from(d - b'0');
    }
    if n <= 15 && (-22..=22).contains(&exp) {
        let p = POW10
            .get(exp.unsigned_abs() as usize)
            .copied()
            .unwrap_or(1.0);
        let v = if exp < 0 { m as f64 / p } else { m as f64 * p };
        return Some(if negative { -v } else { v });
    }
    let mut digits: Vec<u8> = Vec::new();
    let mut dropped = 0i64; // digits beyond MAX_DIGITS
    let mut sticky = false;
    for d in all {
        if digits.is_empty() && d == b'0' {
            continue;
        }
        if digits.len() < MAX_DIGITS {
            digits.push(d - b'0');
        } else {
            dropped += 1;
            sticky |= d != b'0';
        }
    }
    exp += dropped;
    if sticky {
        digits.push(1);
        exp -= 1;
    }
    let value = if digits.is_empty() {
        0.0
    } else {
        magnitude(&digits, exp)
    };
    Some(if negative { -value } else { value })
}

/// `digits × 10^exp` (digits without leading zeros, at least one) rounded to the nearest double,
/// exactly: what the fast path in [`parse_f64`] cannot do (more than 15 digits, or an exponent
/// beyond ±22).
fn magnitude(digits: &[u8], exp: i64) -> f64 {
    let n = digits.len() as i64;
    // The value lies in [10^(n-1+exp), 10^(n+exp)).
    if n + exp > 310 {
        return f64::INFINITY;
    }
    if n + exp < -324 {
        return 0.0;
    }
    let mut m = Big::from_digits(digits);
    if exp >= 0 {
        m.mul_pow10(exp as u32);
        let len = m.bit_len();
        let take = len.min(120);
        let (q, rest_nonzero) = m.top_bits(take);
        round(q, take, len as i64 - take as i64, rest_nonzero)
    } else {
        let mut d = Big::from_digits(&[1]);
        d.mul_pow10(exp.unsigned_abs() as u32);
        // Scale so the quotient has 67 or 68 bits (53, a rounding bit and more): the digits
        // shifted left, or the divisor when the digits are the larger.
        let s = d.bit_len() as i64 - m.bit_len() as i64 + 67;
        let base = if s >= 0 {
            m.shl(s as u32);
            0
        } else {
            s.unsigned_abs() as u32
        };
        let (q, rem_nonzero) = m.div_small_quotient(&d, base);
        let len = 128 - q.leading_zeros();
        round(q, len, -s, rem_nonzero)
    }
}

/// Rounds `q × 2^k` (q has exactly `len` bits, `sticky`: something nonzero below it) to the
/// nearest double, ties to even.
fn round(q: u128, len: u32, k: i64, sticky: bool) -> f64 {
    if q == 0 {
        return 0.0;
    }
    // The value is in [2^e, 2^(e+1)).
    let e = len as i64 - 1 + k;
    if e > 1023 {
        return f64::INFINITY;
    }
    // Bits kept: 53 for normal numbers, fewer for subnormals.
    let keep = if e >= -1022 { 53 } else { e + 1075 };
    let drop = len as i64 - keep;
    let (mut m, up) = if drop <= 0 {
        (q << (-drop) as u32, false)
    } else if drop > len as i64 {
        (0, false)
    } else {
        let drop = drop as u32;
        let m = if drop >= 128 { 0 } else { q >> drop };
        let rem = q & ((1u128 << (drop - 1)) << 1).wrapping_sub(1);
        let half = 1u128 << (drop - 1);
        (m, rem > half || (rem == half && (sticky || m & 1 == 1)))
    };
    if up {
        m += 1;
    }
    // m < 2^53 (or exactly 2^53 after rounding up); the exponent field absorbs the carry.
    let field = if e >= -1022 { (e + 1022) as u64 } else { 0 };
    let bits = (field << 52).wrapping_add(m as u64);
    if bits >= 0x7ff0_0000_0000_0000 {
        f64::INFINITY
    } else {
        f64::from_bits(bits)
    }
}

/// A non-negative big integer, little-endian 32-bit limbs.
struct Big(Vec<u32>);

impl Big {
    fn from_digits(digits: &[u8]) -> Big {
        let mut b = Big(Vec::with_capacity(digits.len() / 9 + 1));
        for chunk in digits.chunks(9) {
            let mut v = 0u32;
            let mut scale = 1u32;
            for &d in chunk {
                v = v * 10 + u32::from(d);
                scale *= 10;
            }
            b.mul_add(scale, v);
        }
        b
    }

    fn mul_add(&mut self, mul: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(mul) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut e: u32) {
        while e >= 9 {
            self.mul_add(1_000_000_000, 0);
            e -= 9;
        }
        if e > 0 {
            self.mul_add(10u32.pow(e), 0);
        }
    }

    fn bit_len(&self) -> u32 {
        match self.0.iter().rposition(|&l| l != 0) {
            Some(i) => i as u32 * 32 + (32 - self.0.get(i).map_or(32, |l| l.leading_zeros())),
            None => 0,
        }
    }

    fn bit(&self, i: u32) -> bool {
        self.0
            .get((i / 32) as usize)
            .is_some_and(|l| l >> (i % 32) & 1 == 1)
    }

    /// The top `take` (≤ 128) bits, and whether any bit below them is set.
    fn top_bits(&self, take: u32) -> (u128, bool) {
        let len = self.bit_len();
        let mut q = 0u128;
        for i in (len - take..len).rev() {
            q = q << 1 | u128::from(self.bit(i));
        }
        let below = (0..len - take).any(|i| self.bit(i));
        (q, below)
    }

    fn shl(&mut self, n: u32) {
        let (limbs, bits) = ((n / 32) as usize, n % 32);
        if bits > 0 {
            let mut carry = 0u32;
            for limb in &mut self.0 {
                let v = *limb;
                *limb = v << bits | carry;
                carry = v >> (32 - bits);
            }
            if carry != 0 {
                self.0.push(carry);
            }
        }
        if limbs > 0 {
            self.0.splice(0..0, std::iter::repeat_n(0, limbs));
        }
    }

    /// `self / (d << base)` for a quotient below 2^69 (binary long division from bit 68 down),
    /// and whether a remainder is left. `self` becomes the remainder.
    fn div_small_quotient(&mut self, d: &Big, base: u32) -> (u128, bool) {
        let mut q = 0u128;
        for bit in (0..69u32).rev() {
            if self.ge_shifted(d, base + bit) {
                self.sub_shifted(d, base + bit);
                q |= 1 << bit;
            }
        }
        (q, self.0.iter().any(|&l| l != 0))
    }

    /// Limb `i` of `d << shift`.
    fn shifted_limb(d: &Big, shift: u32, i: usize) -> u32 {
        let (limbs, bits) = ((shift / 32) as usize, shift % 32);
        let Some(j) = i.checked_sub(limbs) else {
            return 0;
        };
        let lo = d.0.get(j).copied().unwrap_or(0);
        if bits == 0 {
            return lo;
        }
        let below = j
            .checked_sub(1)
            .and_then(|k| d.0.get(k))
            .map_or(0, |&l| l >> (32 - bits));
        lo << bits | below
    }

    fn ge_shifted(&self, d: &Big, shift: u32) -> bool {
        let n = self.0.len().max(d.0.len() + (shift / 32) as usize + 1);
        for i in (0..n).rev() {
            let a = self.0.get(i).copied().unwrap_or(0);
            let b = Big::shifted_limb(d, shift, i);
            if a != b {
                return a > b;
            }
        }
        true
    }

    fn sub_shifted(&mut self, d: &Big, shift: u32) {
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let b = i64::from(Big::shifted_limb(d, shift, i));
            if let Some(limb) = self.0.get_mut(i) {
                let v = i64::from(*limb) - b - borrow;
                borrow = i64::from(v < 0);
                *limb = v.rem_euclid(1 << 32) as u32;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_f64;

    fn check(s: &str) {
        let want: f64 = s.parse().unwrap();
        let got = parse_f64(s).unwrap();
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "{s}: got {got:e}, want {want:e}"
        );
    }

    #[test]
    fn agrees_with_std_on_hard_cases() {
        for s in [
            "0", "-0", "0.0", "1", "-1", "0.42", "1.5e3", "12.75", "123456789012345",
            "1234567890123456", "12345678901234567890", "9007199254740993", "9007199254740992",
            "9007199254740995", "1e22", "1e23", "8.98846567431158e307", "1.7976931348623157e308",
            "1.7976931348623158e308", "1.7976931348623159e308", "1e308", "1e309", "2e308",
            "4.9e-324", "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324",
            "2.47032822920623272e-324", "1e-324", "3e-324", "2.2250738585072011e-308",
            "2.2250738585072012e-308", "2.2250738585072014e-308", "2.225073858507201e-308",
            "0.1", "0.2", "0.3", "0.30000000000000004", "1e-7", "123.456e-300", "1e400",
            "1e-400", "0e999999", "1E+2", "7.038531e-26", "3.0e-7", "0.000001", "1e-5",
            "8.5e-323", "9.88131291682493088353137585736442744730e-324",
            "2.22507385850720113605740979670913197593481954635164564e-308",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203124",
            "1.00000000000000011102230246251565404236316680908203126",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
        ] {
            check(s);
        }
        let long = format!("0.{}1", "0".repeat(900));
        check(&long);
        let halfway = format!(
            "1.00000000000000011102230246251565404236316680908203125{}1",
            "0".repeat(900)
        );
        check(&halfway);
        let halfway0 = format!(
            "1.00000000000000011102230246251565404236316680908203125{}",
            "0".repeat(900)
        );
        check(&halfway0);
    }

    #[test]
    fn agrees_with_std_on_random_numbers() {
        // xorshift: deterministic, no dependency.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..200_000 {
            let r = next();
            let s = match r % 4 {
                // A random double printed shortest: must come back bit for bit.
                0 => {
                    let f = f64::from_bits(next() & 0x7fff_ffff_ffff_ffff);
                    if !f.is_finite() {
                        continue;
                    }
                    format!("{f:?}")
                }
                // Same with 17 significant digits in exponent form.
                1 => {
                    let f = f64::from_bits(next() & 0x7fff_ffff_ffff_ffff);
                    if !f.is_finite() {
                        continue;
                    }
                    format!("{f:.16e}")
                }
                // Random digits and exponent.
                _ => {
                    let digits = 1 + (next() % 40) as usize;
                    let mut s = String::new();
                    for i in 0..digits {
                        if i == 1 && next() % 2 == 0 {
                            s.push('.');
                        }
                        s.push(char::from(b'0' + (next() % 10) as u8));
                    }
                    if s.ends_with('.') {
                        s.push('0');
                    }
                    let e = (next() % 700) as i64 - 350;
                    format!("{s}e{e}")
                }
            };
            check(&s);
        }
    }

    #[test]
    fn written_numbers_parse_back_to_the_same_double() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut out = String::new();
        for i in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let f = match i % 3 {
                0 => f64::from_bits(x),
                1 => (x % 1_000_000) as f64 / 1000.0,
                _ => (x % 10_000) as f64 / 10_000.0,
            };
            if !f.is_finite() {
                continue;
            }
            out.clear();
            crate::json::write_number(&mut out, f);
            assert_eq!(
                parse_f64(&out).map(f64::to_bits),
                Some(f.to_bits()),
                "{out}"
            );
        }
        for (f, text) in [
            (0.42, "0.42"),
            (1e-7, "1e-7"),
            (1.5e300, "1.5e300"),
            (-2.5, "-2.5"),
            (3.0, "3"),
            (1e16, "1e16"),
        ] {
            out.clear();
            crate::json::write_number(&mut out, f);
            assert_eq!(out, text);
        }
    }

    #[test]
    fn rejects_what_is_not_a_number() {
        for s in ["", "-", "1e", "e5", ".5", "1.e3x", "1x"] {
            assert_eq!(parse_f64(s), None, "{s}");
        }
    }
}
