//! Word-at-a-time byte scans: eight bytes per step on 64-bit integers, which wasm has (`memchr`
//! works on `usize`, four bytes on wasm32). The JSON reader's and writer's string scans and the
//! SSE parser's line scan (measured in Chromium on the benchmark stream, benches/bench-consumer).

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
