//! One `.eml` file per message, named `20261202T161501Z-0001-advisor_at_school.org.eml` so
//! that a listing sorts by time and two messages in the same second do not collide.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use tokio::io::AsyncWriteExt;

use crate::MailError;

/// Counts messages in this process; the number in the name after the time.
static SEQUENCE: AtomicU32 = AtomicU32::new(1);

/// Counts Message-IDs in this process.
static MESSAGE_IDS: AtomicU32 = AtomicU32::new(1);

/// A clash with another process's file moves on to the next number; this many tries is plenty.
const ATTEMPTS: u32 = 1000;

fn now() -> String {
    jiff::Timestamp::now()
        .strftime("%Y%m%dT%H%M%SZ")
        .to_string()
}

/// Also the local part of the Message-ID: time, process and sequence, unique enough for that.
pub(crate) fn unique_stamp() -> String {
    format!(
        "{}.{}.{}",
        now(),
        std::process::id(),
        MESSAGE_IDS.fetch_add(1, Ordering::Relaxed)
    )
}

/// The recipient's address as a file name: `advisor_at_school.org`.
fn file_part(to: &str) -> String {
    // The address only, not the display name of `Pat <pat@school.org>`.
    let address = match (to.rfind('<'), to.rfind('>')) {
        (Some(open), Some(close)) if open < close => &to[open + 1..close],
        _ => to,
    };
    let mut part = String::new();
    for c in address.trim().chars() {
        match c {
            '@' => part.push_str("_at_"),
            'a'..='z' | '0'..='9' | '.' | '-' | '+' => part.push(c),
            'A'..='Z' => part.push(c.to_ascii_lowercase()),
            _ => part.push('_'),
        }
        if part.len() >= 64 {
            break;
        }
    }
    part
}

pub(crate) async fn write(dir: &Path, to: &str, message: &[u8]) -> Result<PathBuf, MailError> {
    let failed = |error: std::io::Error| MailError::Folder {
        path: dir.to_owned(),
        reason: error.to_string(),
    };
    tokio::fs::create_dir_all(dir).await.map_err(failed)?;
    let stamp = now();
    let recipient = file_part(to);
    for _ in 0..ATTEMPTS {
        let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{stamp}-{sequence:04}-{recipient}.eml"));
        // create_new: never overwrite a message already there.
        let file = tokio::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .await;
        let mut file = match file {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(failed(error)),
        };
        file.write_all(message).await.map_err(failed)?;
        file.flush().await.map_err(failed)?;
        return Ok(path);
    }
    Err(failed(std::io::Error::other(format!(
        "{ATTEMPTS} file names for this second are already taken"
    ))))
}

#[cfg(test)]
mod tests {
    use super::file_part;

    #[test]
    fn file_names_keep_only_the_address() {
        assert_eq!(file_part("advisor@school.org"), "advisor_at_school.org");
        assert_eq!(
            file_part("Pat Advisor <Pat@School.org>"),
            "pat_at_school.org"
        );
        assert_eq!(file_part("a/../b@x.org"), "a_.._b_at_x.org");
    }
}
