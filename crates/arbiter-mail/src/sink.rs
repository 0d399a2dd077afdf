//! A small SMTP server on 127.0.0.1 for tests: it accepts every message and keeps it.
//!
//! It speaks enough of RFC 5321 for lettre: EHLO/HELO, MAIL FROM, RCPT TO, DATA (with
//! dot-unstuffing), RSET, NOOP, QUIT, and AUTH PLAIN or LOGIN, which lettre sends only when
//! the [`SmtpConfig`] has a user; any password is accepted and the user is kept.

use std::net::Ipv4Addr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::{DEFAULT_FROM, SmtpConfig};

/// Lines longer than this end the session (RFC 5321 allows 1000 octets).
const MAX_LINE: usize = 64 * 1024;

/// A running sink; it stops when dropped.
#[derive(Debug)]
pub struct SmtpSink {
    port: u16,
    shared: Arc<Shared>,
    accept: JoinHandle<()>,
}

#[derive(Debug)]
struct Shared {
    received: Mutex<Vec<ReceivedMail>>,
    /// How many messages have arrived, for [`SmtpSink::wait_for`].
    count: watch::Sender<usize>,
}

/// One message as the sink received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedMail {
    /// The envelope sender (MAIL FROM), without the angle brackets.
    pub from: String,
    /// The envelope recipients (RCPT TO).
    pub to: Vec<String>,
    /// The raw message after dot-unstuffing: headers, blank line, encoded body.
    pub data: String,
    /// The user the client authenticated as, if it did.
    pub user: Option<String>,
}

impl SmtpSink {
    /// Listens on 127.0.0.1 on a free port. Panics if it cannot listen (this is for tests).
    pub async fn start() -> SmtpSink {
        let listener = match TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await {
            Ok(listener) => listener,
            Err(error) => panic!("The test SMTP sink cannot listen on 127.0.0.1: {error}."),
        };
        let port = match listener.local_addr() {
            Ok(address) => address.port(),
            Err(error) => panic!("The test SMTP sink has no local address: {error}."),
        };
        let shared = Arc::new(Shared {
            received: Mutex::new(Vec::new()),
            count: watch::Sender::new(0),
        });
        let accept = tokio::spawn(accept_loop(listener, Arc::clone(&shared)));
        SmtpSink {
            port,
            shared,
            accept,
        }
    }

    /// The port on 127.0.0.1 the sink listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Settings that send to this sink, from [`DEFAULT_FROM`], without a user.
    pub fn config(&self) -> SmtpConfig {
        SmtpConfig {
            host: Ipv4Addr::LOCALHOST.to_string(),
            port: self.port,
            from: DEFAULT_FROM.to_owned(),
            username: None,
            password: None,
        }
    }

    /// Waits until at least `n` messages have arrived or `timeout` has passed, then returns
    /// all that have arrived (so fewer than `n` after a timeout).
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<ReceivedMail> {
        let mut count = self.shared.count.subscribe();
        // A timeout is not an error here: the caller checks how many came.
        let _ = tokio::time::timeout(timeout, count.wait_for(|count| *count >= n)).await;
        self.received()
    }

    /// The messages received so far, oldest first.
    pub fn received(&self) -> Vec<ReceivedMail> {
        lock(&self.shared.received).clone()
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

fn lock(received: &Mutex<Vec<ReceivedMail>>) -> std::sync::MutexGuard<'_, Vec<ReceivedMail>> {
    // A session that panicked leaves the list as it was; keep using it.
    received
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

async fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    while let Ok((stream, _)) = listener.accept().await {
        tokio::spawn(session(stream, Arc::clone(&shared)));
    }
}

#[derive(Default)]
struct Envelope {
    from: Option<String>,
    to: Vec<String>,
}

async fn session(stream: TcpStream, shared: Arc<Shared>) {
    // An I/O error only ends this client's session.
    let _ = converse(stream, &shared).await;
}

async fn converse(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    write.write_all(b"220 arbiter-sink ESMTP ready\r\n").await?;
    let mut envelope = Envelope::default();
    let mut user = None;
    while let Some(line) = read_line(&mut read).await? {
        let line = String::from_utf8_lossy(&line).trim_end().to_owned();
        let (verb, argument) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let reply: String = match verb.to_ascii_uppercase().as_str() {
            "EHLO" => {
                "250-arbiter-sink\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 AUTH PLAIN LOGIN\r\n"
                    .into()
            }
            "HELO" => "250 arbiter-sink\r\n".into(),
            "MAIL" => match path_after(argument, "FROM:") {
                Some(from) => {
                    envelope = Envelope {
                        from: Some(from),
                        to: Vec::new(),
                    };
                    "250 2.1.0 OK\r\n".into()
                }
                None => "501 5.5.4 Syntax: MAIL FROM:<address>\r\n".into(),
            },
            "RCPT" => match (&envelope.from, path_after(argument, "TO:")) {
                (None, _) => "503 5.5.1 MAIL FROM first\r\n".into(),
                (Some(_), Some(to)) if !to.is_empty() => {
                    envelope.to.push(to);
                    "250 2.1.5 OK\r\n".into()
                }
                (Some(_), _) => "501 5.5.4 Syntax: RCPT TO:<address>\r\n".into(),
            },
            "DATA" => {
                if envelope.to.is_empty() {
                    "503 5.5.1 RCPT TO first\r\n".into()
                } else {
                    write
                        .write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                        .await?;
                    let Some(data) = read_data(&mut read).await? else {
                        return Ok(());
                    };
                    let envelope = std::mem::take(&mut envelope);
                    let mail = ReceivedMail {
                        from: envelope.from.unwrap_or_default(),
                        to: envelope.to,
                        data: String::from_utf8_lossy(&data).into_owned(),
                        user: user.clone(),
                    };
                    let count = {
                        let mut received = lock(&shared.received);
                        received.push(mail);
                        received.len()
                    };
                    shared.count.send_replace(count);
                    "250 2.0.0 OK: queued\r\n".into()
                }
            }
            "RSET" => {
                envelope = Envelope::default();
                "250 2.0.0 OK\r\n".into()
            }
            "NOOP" => "250 2.0.0 OK\r\n".into(),
            "QUIT" => {
                write.write_all(b"221 2.0.0 Bye\r\n").await?;
                return Ok(());
            }
            "AUTH" => match authenticate(argument, &mut read, &mut write).await? {
                Some(name) => {
                    user = Some(name);
                    "235 2.7.0 Authentication succeeded\r\n".into()
                }
                None => "501 5.5.2 Cannot read the credentials\r\n".into(),
            },
            _ => "502 5.5.2 Command not recognised\r\n".into(),
        };
        write.write_all(reply.as_bytes()).await?;
    }
    Ok(())
}

/// One line with its line break removed; `None` at the end of the stream.
async fn read_line(read: &mut (impl AsyncBufRead + Unpin)) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut limited = tokio::io::AsyncReadExt::take(&mut *read, MAX_LINE as u64);
    if limited.read_until(b'\n', &mut line).await? == 0 {
        return Ok(None);
    }
    if line.last() != Some(&b'\n') {
        return Err(std::io::Error::other("line too long or cut off"));
    }
    line.pop();
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(line))
}

/// The message up to the line that is a single dot, each line ending in CRLF, with the
/// leading dot that the client added to lines starting with a dot taken off again.
async fn read_data(read: &mut (impl AsyncBufRead + Unpin)) -> std::io::Result<Option<Vec<u8>>> {
    let mut data = Vec::new();
    while let Some(line) = read_line(read).await? {
        if line == b"." {
            return Ok(Some(data));
        }
        let line = line.strip_prefix(b".").unwrap_or(&line);
        data.extend_from_slice(line);
        data.extend_from_slice(b"\r\n");
    }
    Ok(None)
}

/// `FROM:<a@b.org> SIZE=10` → `a@b.org`; the keyword is case-insensitive.
fn path_after(argument: &str, keyword: &str) -> Option<String> {
    let argument = argument.trim_start();
    let head = argument.get(..keyword.len())?;
    if !head.eq_ignore_ascii_case(keyword) {
        return None;
    }
    let path = argument[keyword.len()..].trim_start();
    match path.strip_prefix('<') {
        Some(rest) => rest.split_once('>').map(|(address, _)| address.to_owned()),
        None => path.split_whitespace().next().map(str::to_owned),
    }
}

/// Reads the credentials of AUTH PLAIN or LOGIN and returns the user name.
async fn authenticate(
    argument: &str,
    read: &mut (impl AsyncBufRead + Unpin),
    write: &mut (impl tokio::io::AsyncWrite + Unpin),
) -> std::io::Result<Option<String>> {
    let (mechanism, initial) = argument.split_once(' ').unwrap_or((argument, ""));
    let mut answer = async |prompt: &[u8], initial: &str| -> std::io::Result<Option<Vec<u8>>> {
        if !initial.is_empty() {
            return Ok(decode_base64(initial.as_bytes()));
        }
        write.write_all(prompt).await?;
        Ok(read_line(read).await?.and_then(|line| decode_base64(&line)))
    };
    let user = match mechanism.to_ascii_uppercase().as_str() {
        "PLAIN" => answer(b"334 \r\n", initial).await?.and_then(|plain| {
            // authorization id NUL user NUL password
            let mut parts = plain.split(|&b| b == 0);
            let (_, user, _) = (parts.next()?, parts.next()?, parts.next()?);
            Some(user.to_vec())
        }),
        "LOGIN" => {
            let user = answer(b"334 VXNlcm5hbWU6\r\n", initial).await?;
            let password = answer(b"334 UGFzc3dvcmQ6\r\n", "").await?;
            user.filter(|_| password.is_some())
        }
        _ => None,
    };
    Ok(user.map(|user| String::from_utf8_lossy(&user).into_owned()))
}

impl ReceivedMail {
    /// The body, decoded from quoted-printable or base64 when the message says so, with
    /// line breaks as `\n`: a link wrapped by quoted-printable comes back whole.
    pub fn text(&self) -> String {
        let (_, body) = split_message(&self.data);
        let encoding = self
            .header("Content-Transfer-Encoding")
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        let decoded = match encoding.as_str() {
            "quoted-printable" => decode_quoted_printable(body.as_bytes()),
            "base64" => decode_base64(body.as_bytes()).unwrap_or_else(|| body.as_bytes().to_vec()),
            _ => body.as_bytes().to_vec(),
        };
        String::from_utf8_lossy(&decoded).replace("\r\n", "\n")
    }

    /// The first header of that name (case-insensitive), unfolded, with RFC 2047 encoded
    /// words (`=?utf-8?b?…?=`) decoded.
    pub fn header(&self, name: &str) -> Option<String> {
        let (headers, _) = split_message(&self.data);
        let mut found: Option<String> = None;
        for line in headers.lines() {
            if line.starts_with([' ', '\t']) {
                if let Some(value) = found.as_mut() {
                    value.push_str(line);
                }
                continue;
            }
            if found.is_some() {
                break;
            }
            match line.split_once(':') {
                Some((field, value)) if field.trim().eq_ignore_ascii_case(name) => {
                    found = Some(value.trim_start().to_owned());
                }
                _ => {}
            }
        }
        found.map(|value| decode_words(value.trim()))
    }
}

/// Headers and body, split at the first empty line.
fn split_message(data: &str) -> (&str, &str) {
    data.split_once("\r\n\r\n")
        .or_else(|| data.split_once("\n\n"))
        .unwrap_or((data, ""))
}

fn decode_quoted_printable(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len());
    let mut i = 0;
    while i < body.len() {
        if body[i] != b'=' {
            out.push(body[i]);
            i += 1;
            continue;
        }
        // A soft line break: the line was wrapped here.
        if body[i + 1..].starts_with(b"\r\n") {
            i += 3;
        } else if body[i + 1..].starts_with(b"\n") {
            i += 2;
        } else if let Some(byte) = body
            .get(i + 1..i + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(b'=');
            i += 1;
        }
    }
    out
}

fn decode_base64(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut bits: u32 = 0;
    let mut count = 0;
    for &c in text {
        let value = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            b' ' | b'\t' | b'\r' | b'\n' => continue,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(value);
        count += 1;
        if count == 4 {
            out.extend_from_slice(&bits.to_be_bytes()[1..]);
            bits = 0;
            count = 0;
        }
    }
    match count {
        0 => {}
        2 => out.push((bits >> 4) as u8),
        3 => out.extend_from_slice(&((bits >> 2) as u16).to_be_bytes()),
        _ => return None,
    }
    Some(out)
}

/// Decodes RFC 2047 encoded words; the space between two of them is not part of the text.
fn decode_words(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    let mut pending_space = String::new();
    let mut after_word = false;
    while !rest.is_empty() {
        if let Some((decoded, len)) = encoded_word(rest) {
            if !after_word {
                out.push_str(&pending_space);
            }
            pending_space.clear();
            out.push_str(&decoded);
            rest = &rest[len..];
            after_word = true;
            continue;
        }
        let Some(c) = rest.chars().next() else { break };
        if c.is_whitespace() {
            pending_space.push(c);
        } else {
            out.push_str(&pending_space);
            pending_space.clear();
            out.push(c);
            after_word = false;
        }
        rest = &rest[c.len_utf8()..];
    }
    out.push_str(&pending_space);
    out
}

/// `=?charset?B|Q?text?=` at the start of `text`: the decoded text and how long the word is.
fn encoded_word(text: &str) -> Option<(String, usize)> {
    let inner = text.strip_prefix("=?")?;
    let (_charset, inner) = inner.split_once('?')?;
    let (encoding, inner) = inner.split_once('?')?;
    let (payload, _) = inner.split_once("?=")?;
    if payload.contains(char::is_whitespace) {
        return None;
    }
    let bytes = match encoding {
        "B" | "b" => decode_base64(payload.as_bytes())?,
        "Q" | "q" => decode_quoted_printable(payload.replace('_', " ").as_bytes()),
        _ => return None,
    };
    let len = text.len() - inner.len() + payload.len() + 2;
    Some((String::from_utf8_lossy(&bytes).into_owned(), len))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn base64_round_trips_known_values() {
        assert_eq!(decode_base64(b"aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_base64(b"aGVsbG8h").unwrap(), b"hello!");
        assert_eq!(decode_base64(b"aGVs\r\nbA==").unwrap(), b"hell");
        assert_eq!(decode_base64(b"AHVzZXIAcGFzcw==").unwrap(), b"\0user\0pass");
        assert!(decode_base64(b"a*b").is_none());
    }

    #[test]
    fn quoted_printable_joins_soft_breaks() {
        assert_eq!(
            decode_quoted_printable(b"https://x.org/a=\r\nbc=3Dd caf=C3=A9"),
            "https://x.org/abc=d café".as_bytes()
        );
    }

    #[test]
    fn encoded_words_are_decoded_and_joined() {
        assert_eq!(
            decode_words("=?utf-8?b?Q2Fmw6k=?= =?utf-8?q?_au_lait?= ok"),
            "Café au lait ok"
        );
        assert_eq!(decode_words("plain subject"), "plain subject");
    }

    #[test]
    fn paths_are_read_from_mail_and_rcpt() {
        assert_eq!(
            path_after("FROM:<a@b.org> SIZE=10", "FROM:").unwrap(),
            "a@b.org"
        );
        assert_eq!(path_after("from: <a@b.org>", "FROM:").unwrap(), "a@b.org");
        assert_eq!(path_after("TO:c@d.org", "TO:").unwrap(), "c@d.org");
        assert!(path_after("FROM:<a@b.org>", "TO:").is_none());
    }
}
