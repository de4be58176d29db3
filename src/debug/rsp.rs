//! The framing of gdb's Remote Serial Protocol: `$DATA#CK` packets, the
//! `+`/`-` acknowledgements, the `}` escape of binary data, and the 0x03
//! byte a client sends to interrupt a running target.
//!
//! The decoder is a byte-at-a-time state machine with a bounded buffer:
//! any byte sequence yields packets, bad checksums, interrupts or nothing,
//! never a panic, and never more than [`MAX_PACKET`] bytes held (a longer
//! packet is dropped and answered as a bad one).

/// The longest packet body the server accepts (and announces as
/// `PacketSize` in `qSupported`, in hexadecimal).
pub const MAX_PACKET: usize = 0x4000;

/// What the decoder made of the bytes fed to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A packet with a good checksum: its body, unescaped.
    Packet(Vec<u8>),
    /// A packet with a bad checksum, or one too long: the client is to be
    /// told `-` and will send it again.
    Bad,
    /// The interrupt byte (0x03) outside a packet: stop the target.
    Interrupt,
    /// An acknowledgement (`+`) or a request to send again (`-`).
    Ack(bool),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between packets.
    Idle,
    /// Inside a packet's body.
    Body,
    /// Inside a body, after `}`: the next byte is XOR 0x20.
    Escape,
    /// After `#`: the first checksum digit.
    Check1,
    /// The second checksum digit.
    Check2(u8),
}

/// The packet decoder (module notes).
#[derive(Debug, Clone)]
pub struct Decoder {
    state: State,
    body: Vec<u8>,
    sum: u8,
    overflow: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        Decoder {
            state: State::Idle,
            body: Vec::new(),
            sum: 0,
            overflow: false,
        }
    }
}

fn hex_digit(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

impl Decoder {
    /// Feed one byte; returns what it completed, if anything.
    pub fn feed(&mut self, b: u8) -> Option<Event> {
        match self.state {
            State::Idle => match b {
                b'$' => {
                    self.state = State::Body;
                    self.body.clear();
                    self.sum = 0;
                    self.overflow = false;
                    None
                }
                0x03 => Some(Event::Interrupt),
                b'+' => Some(Event::Ack(true)),
                b'-' => Some(Event::Ack(false)),
                _ => None,
            },
            State::Body | State::Escape => {
                if b == b'#' && self.state == State::Body {
                    self.state = State::Check1;
                    return None;
                }
                if b == b'$' {
                    // A new packet begins: the unfinished one is lost.
                    self.state = State::Body;
                    self.body.clear();
                    self.sum = 0;
                    self.overflow = false;
                    return Some(Event::Bad);
                }
                self.sum = self.sum.wrapping_add(b);
                let byte = if self.state == State::Escape {
                    self.state = State::Body;
                    b ^ 0x20
                } else if b == b'}' {
                    self.state = State::Escape;
                    return None;
                } else {
                    b
                };
                if self.body.len() < MAX_PACKET {
                    self.body.push(byte);
                } else {
                    self.overflow = true;
                }
                None
            }
            State::Check1 => match hex_digit(b) {
                Some(h) => {
                    self.state = State::Check2(h);
                    None
                }
                None => {
                    self.state = State::Idle;
                    Some(Event::Bad)
                }
            },
            State::Check2(h) => {
                self.state = State::Idle;
                match hex_digit(b) {
                    Some(l) if (h << 4 | l) == self.sum && !self.overflow => {
                        Some(Event::Packet(std::mem::take(&mut self.body)))
                    }
                    _ => Some(Event::Bad),
                }
            }
        }
    }
}

/// A packet ready to send: `$`, the body with `#`, `$`, `}` and `*`
/// escaped, `#` and the checksum.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 4);
    out.push(b'$');
    let mut sum = 0u8;
    for &b in body {
        if matches!(b, b'#' | b'$' | b'}' | b'*') {
            out.push(b'}');
            out.push(b ^ 0x20);
            sum = sum.wrapping_add(b'}').wrapping_add(b ^ 0x20);
        } else {
            out.push(b);
            sum = sum.wrapping_add(b);
        }
    }
    out.push(b'#');
    out.extend_from_slice(format!("{sum:02x}").as_bytes());
    out
}

/// Bytes as hexadecimal text, two lower-case digits each.
pub fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Hexadecimal text as bytes; None for an odd length or a non-digit.
pub fn from_hex(text: &[u8]) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    text.chunks(2)
        .map(|p| Some(hex_digit(p[0])? << 4 | hex_digit(p[1])?))
        .collect()
}

/// A hexadecimal number of at most 16 digits; None for anything else.
pub fn hex_number(text: &[u8]) -> Option<u64> {
    if text.is_empty() || text.len() > 16 {
        return None;
    }
    text.iter()
        .try_fold(0u64, |n, &b| Some(n << 4 | u64::from(hex_digit(b)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(bytes: &[u8]) -> Vec<Event> {
        let mut d = Decoder::default();
        bytes.iter().filter_map(|&b| d.feed(b)).collect()
    }

    #[test]
    fn a_packet_with_its_checksum() {
        // "g" sums to 0x67.
        assert_eq!(
            decode_all(b"+$g#67"),
            vec![Event::Ack(true), Event::Packet(b"g".to_vec())]
        );
        assert_eq!(decode_all(b"$g#68"), vec![Event::Bad]);
        assert_eq!(decode_all(b"\x03"), vec![Event::Interrupt]);
    }

    #[test]
    fn escapes_round_trip() {
        let body = b"X1000,4:#$}*";
        let framed = frame(body);
        assert_eq!(decode_all(&framed), vec![Event::Packet(body.to_vec())]);
    }

    #[test]
    fn an_overlong_packet_is_bad() {
        let mut p = vec![b'$'];
        p.extend(std::iter::repeat_n(b'a', MAX_PACKET + 10));
        let sum = p[1..].iter().fold(0u8, |s, &b| s.wrapping_add(b));
        p.extend_from_slice(format!("#{sum:02x}").as_bytes());
        assert_eq!(decode_all(&p), vec![Event::Bad]);
    }

    #[test]
    fn hex_helpers() {
        assert_eq!(from_hex(b"0aFF"), Some(vec![0x0A, 0xFF]));
        assert_eq!(from_hex(b"0"), None);
        assert_eq!(from_hex(b"zz"), None);
        assert_eq!(hex_number(b"1f"), Some(0x1F));
        assert_eq!(hex_number(b""), None);
        assert_eq!(to_hex(&[1, 0xAB]), "01ab");
    }
}
