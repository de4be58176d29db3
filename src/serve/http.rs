//! The little HTTP/1.1 that `serve` speaks: one request per connection
//! (`Connection: close`), read with a deadline and a size cap, parsed
//! without trusting a byte of it; responses written with a deadline.
//!
//! Only what a browser sends for a page and its forms is understood: a
//! request line `GET|HEAD|POST target HTTP/1.x`, header lines up to an
//! empty line, and for POST a body of at most [`MAX_BODY`] bytes (read
//! and ignored: no form posts data the server uses). Anything else is an
//! error the caller answers with 400, 405, 413 or 431; nothing here
//! panics, whatever the bytes ([`parse`] has a proptest on arbitrary
//! input).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The most bytes a request's line and headers may take.
pub const MAX_HEAD: usize = 8 * 1024;
/// The most bytes of a body read (and ignored).
pub const MAX_BODY: usize = 1024;
/// The longest a client may take to send its request, or to take the
/// answer.
pub const DEADLINE: Duration = Duration::from_secs(5);
/// The most query parameters a target may carry.
const MAX_PARAMS: usize = 16;

/// A request's method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// GET.
    Get,
    /// HEAD: as GET, without the body.
    Head,
    /// POST (the quit form).
    Post,
}

/// A parsed request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Its method.
    pub method: Method,
    /// The path, percent-decoded (always starting with `/`).
    pub path: String,
    /// The query's parameters, decoded (`+` is a space), in order.
    pub query: Vec<(String, String)>,
    /// The body's length as the headers declared it.
    pub body_len: usize,
}

impl Request {
    /// The first value of query parameter `name`.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request is refused, with the status to answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The HTTP status (400, 405, 413, 431).
    pub status: u16,
    /// What was wrong, for the page.
    pub what: String,
}

fn refuse(status: u16, what: impl Into<String>) -> Refusal {
    Refusal {
        status,
        what: what.into(),
    }
}

/// Parse a request's head (its bytes up to and including the empty line).
pub fn parse(head: &[u8]) -> Result<Request, Refusal> {
    if head.len() > MAX_HEAD {
        return Err(refuse(431, "the request's headers are too large"));
    }
    let text = std::str::from_utf8(head).map_err(|_| refuse(400, "the request is not text"))?;
    let mut lines = text.split("\r\n");
    let first = lines.next().unwrap_or("");
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(refuse(400, "a malformed request line"));
    };
    if version != "HTTP/1.1" && version != "HTTP/1.0" {
        return Err(refuse(400, "not an HTTP/1.x request"));
    }
    let method = match method {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        "POST" => Method::Post,
        _ => return Err(refuse(405, "only GET, HEAD and POST are served")),
    };
    let mut body_len = 0usize;
    for line in lines {
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err(refuse(400, "a malformed header line"));
        };
        let name = name.trim();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c.is_control()) {
            return Err(refuse(400, "a malformed header name"));
        }
        if name.eq_ignore_ascii_case("content-length") {
            body_len = value
                .trim()
                .parse::<usize>()
                .map_err(|_| refuse(400, "a malformed Content-Length"))?;
            if body_len > MAX_BODY {
                return Err(refuse(413, "the request's body is too large"));
            }
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(refuse(400, "chunked bodies are not accepted"));
        }
    }
    // The target: an origin-form path (an absolute URL's path also).
    let target = match target.strip_prefix("http://") {
        Some(rest) => rest.find('/').map_or("/", |i| &rest[i..]),
        None => target,
    };
    if !target.starts_with('/') {
        return Err(refuse(400, "the request's target is not a path"));
    }
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p, q),
        None => (target, ""),
    };
    let path = decode(path, false).ok_or_else(|| refuse(400, "a malformed path"))?;
    let mut params = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        if params.len() == MAX_PARAMS {
            return Err(refuse(400, "too many query parameters"));
        }
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let k = decode(k, true).ok_or_else(|| refuse(400, "a malformed query"))?;
        let v = decode(v, true).ok_or_else(|| refuse(400, "a malformed query"))?;
        params.push((k, v));
    }
    Ok(Request {
        method,
        path,
        query: params,
        body_len,
    })
}

/// Percent-decode `s` (with `plus`, `+` is a space); None when an escape
/// is malformed or the result is not UTF-8 or holds a control character.
pub fn decode(s: &str, plus: bool) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = b.get(i + 1..i + 3)?;
                let hex = std::str::from_utf8(hex).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' if plus => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    let s = String::from_utf8(out).ok()?;
    (!s.chars().any(char::is_control)).then_some(s)
}

/// Percent-encode a query value.
pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~!:".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The request in the bytes `buf` received so far on a connection: None
/// while its head is not all there (and within [`MAX_HEAD`]); else the
/// request, with the bytes of its body that came along, or the refusal.
pub fn head_in(buf: &[u8]) -> Option<Result<(Request, usize), Refusal>> {
    match find_end(buf) {
        Some(end) => Some(parse(&buf[..end]).map(|r| (r, buf.len() - end))),
        None if buf.len() > MAX_HEAD => {
            Some(Err(refuse(431, "the request's headers are too large")))
        }
        None => None,
    }
}

/// Read the rest of a request's small body (ignored): `have` bytes came
/// with the head; the rest must come before `start` + [`DEADLINE`].
pub fn skip_body(
    s: &mut TcpStream,
    req: &Request,
    mut have: usize,
    start: Instant,
) -> Result<(), Refusal> {
    let mut chunk = [0u8; 1024];
    while have < req.body_len {
        let left = DEADLINE.saturating_sub(start.elapsed());
        if left.is_zero() {
            return Err(refuse(408, "the request took too long"));
        }
        let _ = s.set_read_timeout(Some(left));
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => have += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return Err(refuse(408, "the request took too long")),
        }
    }
    Ok(())
}

/// The end of a request's head (after its empty line), when it is in
/// `buf`.
fn find_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

/// An answer.
pub struct Response {
    /// The status.
    pub status: u16,
    /// Its content type.
    pub content_type: &'static str,
    /// Where to go instead (303), if anywhere.
    pub location: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// An HTML page.
    pub fn html(status: u16, body: String) -> Response {
        Response {
            status,
            content_type: "text/html; charset=utf-8",
            location: None,
            body: body.into_bytes(),
        }
    }

    /// 303 See Other to `to` (a path of this server).
    pub fn see_other(to: String) -> Response {
        let body = format!(
            "<!DOCTYPE html><title>moved</title><p><a href=\"{0}\">{0}</a>\n",
            crate::report::esc(&to)
        );
        Response {
            status: 303,
            content_type: "text/html; charset=utf-8",
            location: Some(to),
            body: body.into_bytes(),
        }
    }
}

/// The reason phrase of a status.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        303 => "See Other",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        _ => "Error",
    }
}

/// Write `r` to `s` (without the body for HEAD), within [`DEADLINE`];
/// a client that went away is no error of the server's.
pub fn write(s: &mut TcpStream, r: &Response, head_only: bool) {
    let _ = s.set_write_timeout(Some(DEADLINE));
    let mut out = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    if let Some(l) = &r.location {
        out.push_str(&format!("Location: {l}\r\n"));
    }
    out.push_str("\r\n");
    let mut bytes = out.into_bytes();
    if !head_only {
        bytes.extend_from_slice(&r.body);
    }
    let _ = s.write_all(&bytes);
    let _ = s.flush();
    let _ = s.shutdown(std::net::Shutdown::Write);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_browsers_get_is_parsed() {
        let r = parse(
            b"GET /run?from=12&to=DEMO%21WinMain+x HTTP/1.1\r\nHost: 127.0.0.1:5\r\nUser-Agent: x\r\n\r\n",
        )
        .unwrap();
        assert_eq!(r.method, Method::Get);
        assert_eq!(r.path, "/run");
        assert_eq!(r.param("from"), Some("12"));
        assert_eq!(r.param("to"), Some("DEMO!WinMain x"));
    }

    #[test]
    fn junk_is_refused_with_a_status() {
        assert_eq!(parse(b"").unwrap_err().status, 400);
        assert_eq!(parse(b"DELETE / HTTP/1.1\r\n\r\n").unwrap_err().status, 405);
        assert_eq!(parse(b"GET / SPDY/3\r\n\r\n").unwrap_err().status, 400);
        assert_eq!(parse(b"GET %zz HTTP/1.1\r\n\r\n").unwrap_err().status, 400);
        assert_eq!(parse(b"GET /%zz HTTP/1.1\r\n\r\n").unwrap_err().status, 400);
        assert_eq!(parse(b"GET /%00 HTTP/1.1\r\n\r\n").unwrap_err().status, 400);
        assert_eq!(
            parse(b"POST /quit HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n")
                .unwrap_err()
                .status,
            413
        );
        assert_eq!(
            parse(b"POST /quit HTTP/1.1\r\nContent-Length: -1\r\n\r\n")
                .unwrap_err()
                .status,
            400
        );
        let big = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(parse(big.as_bytes()).unwrap_err().status, 431);
    }

    #[test]
    fn encode_and_decode_agree() {
        let s = "DEMO!WinMain+0x12 &=?%";
        assert_eq!(decode(&encode(s), true).as_deref(), Some(s));
    }

    proptest! {
        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let _ = parse(&bytes);
        }

        #[test]
        fn arbitrary_request_lines_never_panic(
            method in "(GET|HEAD|POST|PUT|)",
            target in "[ -~]{0,80}",
            headers in proptest::collection::vec("[ -~]{0,40}", 0..6),
        ) {
            let mut s = format!("{method} {target} HTTP/1.1\r\n");
            for h in headers {
                s.push_str(&h);
                s.push_str("\r\n");
            }
            s.push_str("\r\n");
            if let Ok(r) = parse(s.as_bytes()) {
                prop_assert!(r.path.starts_with('/'));
                prop_assert!(r.body_len <= MAX_BODY);
                prop_assert!(r.query.len() <= MAX_PARAMS);
            }
        }
    }
}
