//! Word-at-a-time byte scans: eight bytes per step on 64-bit integers, which wasm has (`memchr`
//! works on `usize`, four bytes on wasm32). The JSON reader's and writer's string scans and the
//! SSE parser's line scan (measured in Chromium on the benchmark stream, benches/bench-consumer),
//! and [`same`], the comparison of short keys and ids.

/// `0x01` in every byte.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte.
pub(crate) const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bits of the bytes of `v` that are zero. Only the lowest set bit is exact (a borrow
/// can flag a byte above a real match), which is all [`first_flagged`] uses.
#[inline(always)]
pub(crate) fn zero_bytes(v: u64) -> u64 {
    v.wrapping_sub(ONES) & !v & HIGHS
}

/// The high bits of the bytes of `w` that equal `b` (the lowest one exact, see [`zero_bytes`]).
#[inline(always)]
pub(crate) fn bytes_equal(w: u64, b: u8) -> u64 {
    zero_bytes(w ^ (ONES * u64::from(b)))
}

/// Position of the first byte of `bytes` that `mask` flags, or `None`. `mask` maps eight bytes
/// (little-endian) to the high bits of the flagged ones, exact at least for the lowest, and
/// flags nothing above no real match. The last few bytes are checked as one word padded with
/// `pad`, a byte `mask` never flags: no byte-by-byte tail (most keys and values are shorter
/// than eight bytes).
#[inline(always)]
pub(crate) fn first_flagged(bytes: &[u8], pad: u8, mask: impl Fn(u64) -> u64) -> Option<usize> {
    let mut skipped = 0;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let Ok(w) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let m = mask(u64::from_le_bytes(w));
        if m != 0 {
            return Some(skipped + (m.trailing_zeros() / 8) as usize);
        }
        skipped += 8;
    }
    let tail = words.remainder();
    if tail.is_empty() {
        return None;
    }
    let mut last = [pad; 8];
    for (d, &b) in last.iter_mut().zip(tail) {
        *d = b;
    }
    let m = mask(u64::from_le_bytes(last));
    (m != 0).then(|| skipped + (m.trailing_zeros() / 8) as usize)
}

/// Eight bytes at `at` as one number (zero when out of range; callers stay in range).
#[inline(always)]
fn word_at(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
        .map_or(0, u64::from_le_bytes)
}

/// Whether `a` and `b` hold the same bytes, compared eight at a time (the last word overlapping
/// the one before it). In the size-optimised wasm build `==` on slices is a call of a byte loop
/// (`memcmp`); ids and keys are compared on every event.
#[inline]
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 8 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    let mut i = 0;
    while i + 8 < n {
        if word_at(a, i) != word_at(b, i) {
            return false;
        }
        i += 8;
    }
    word_at(a, n - 8) == word_at(b, n - 8)
}

#[cfg(test)]
mod tests {
    use super::same;

    #[test]
    fn same_is_slice_equality_at_every_length_and_difference() {
        let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for n in 0..=base.len() {
            let a = &base[..n];
            let copy = a.to_vec();
            assert!(same(a, &copy));
            for k in 0..n {
                let mut b = a.to_vec();
                b[k] ^= 0x20;
                assert!(!same(a, &b), "n {n}, byte {k}");
            }
            if n > 0 {
                assert!(!same(a, &base[..n - 1]));
            }
        }
    }
}
