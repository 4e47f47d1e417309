//! Incremental base64 decoding (standard alphabet, `=` padding, ASCII whitespace ignored):
//! chunks may split a quantum anywhere.

/// Decodes base64 text fed in pieces.
#[derive(Debug, Default, Clone)]
pub(crate) struct Base64Decoder {
    quad: [u8; 4],
    n: usize,
    padded: bool,
}

fn sextet(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

impl Base64Decoder {
    /// Appends the bytes of `text` to `out`; returns the number of invalid characters skipped.
    pub(crate) fn feed(&mut self, text: &str, out: &mut Vec<u8>) -> usize {
        let mut bad = 0;
        out.reserve(text.len() / 4 * 3 + 3);
        for &c in text.as_bytes() {
            if c.is_ascii_whitespace() {
                continue;
            }
            if c == b'=' {
                self.padded = true;
                self.flush(out);
                continue;
            }
            let Some(v) = sextet(c) else {
                bad += 1;
                continue;
            };
            if self.padded {
                // Data after padding: a new quantum (concatenated base64 pieces).
                self.padded = false;
            }
            if let Some(slot) = self.quad.get_mut(self.n) {
                *slot = v;
            }
            self.n += 1;
            if self.n == 4 {
                let [a, b, c2, d] = self.quad;
                out.extend_from_slice(&[(a << 2) | (b >> 4), (b << 4) | (c2 >> 2), (c2 << 6) | d]);
                self.n = 0;
            }
        }
        bad
    }

    /// Emits the bytes of a partial quantum (after `=` or at the end of the data).
    pub(crate) fn flush(&mut self, out: &mut Vec<u8>) {
        let [a, b, c, _] = self.quad;
        match self.n {
            2 => out.push((a << 2) | (b >> 4)),
            3 => out.extend_from_slice(&[(a << 2) | (b >> 4), (b << 4) | (c >> 2)]),
            _ => {}
        }
        self.n = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_pieces(s: &str, split: usize) -> (Vec<u8>, usize) {
        let mut d = Base64Decoder::default();
        let mut out = Vec::new();
        let (a, b) = s.split_at(split);
        let bad = d.feed(a, &mut out) + d.feed(b, &mut out);
        d.flush(&mut out);
        (out, bad)
    }

    #[test]
    fn decodes_across_every_split() {
        let cases: &[(&str, &[u8])] = &[
            ("aGVsbG8=", b"hello"),
            ("aGVsbG8h", b"hello!"),
            ("aGk=", b"hi"),
            ("", b""),
            ("AP8=", &[0, 255]),
        ];
        for (text, want) in cases {
            for split in 0..=text.len() {
                assert_eq!(
                    decode_in_pieces(text, split),
                    (want.to_vec(), 0),
                    "{text} split at {split}"
                );
            }
        }
    }

    #[test]
    fn counts_invalid_characters() {
        assert_eq!(decode_in_pieces("aG!Vs*bG8=", 3), (b"hello".to_vec(), 2));
    }
}
