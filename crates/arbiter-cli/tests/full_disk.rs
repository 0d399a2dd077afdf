//! A full disk under the SQLite database (issue 16, part 2): the real `arbiter serve` on a
//! size-limited tmpfs, filled to the last byte. A write is refused with a sentence to the person
//! (507) and the cause in the log; reads go on; nothing stored is damaged (SQLite's integrity
//! check, every entry still there); once space is freed, writes work again.
//!
//! It mounts a tmpfs, so it needs root: `#[ignore]`d, run by `.ci/run` (as root) with
//! `cargo test -p arbiter-cli --test full_disk -- --ignored`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/run.rs"]
mod run;
use run::{cmd, ok_mailing as ok};

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The tmpfs, the server on it, and the folder beside them; all undone however the test ends.
struct Mounted {
    dir: PathBuf,
    server: Option<Child>,
}

impl Mounted {
    fn disk(&self) -> PathBuf {
        self.dir.join("disk")
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Some(mut s) = self.server.take() {
            let _ = s.kill();
            let _ = s.wait();
        }
        let _ = Command::new("umount").arg(self.disk()).status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One request on its own connection: the status and the body.
fn request(addr: SocketAddr, method: &str, path: &str, token: &str, body: &str) -> (u16, String) {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return (0, String::new());
    };
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: arbiter.test\r\nAuthorization: Bearer {token}\r\n\
         Accept: application/json\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}

/// Writes zeros into `file` until the disk refuses more.
fn fill(file: &Path) -> u64 {
    let mut f = std::fs::File::create(file).unwrap();
    let chunk = vec![0u8; 64 * 1024];
    let mut written = 0;
    loop {
        match f.write(&chunk) {
            Ok(0) => break,
            Ok(n) => written += n as u64,
            Err(e) => {
                assert_eq!(e.raw_os_error(), Some(28), "the disk fills ({e})");
                break;
            }
        }
    }
    // The last few bytes too, one at a time.
    while let Ok(1) = f.write(&[0]) {
        written += 1;
    }
    written
}

#[test]
#[ignore = "mounts a tmpfs: needs root; .ci/run runs it"]
fn a_full_disk_refuses_writes_with_a_sentence_keeps_reads_and_data_and_recovers() {
    let dir = std::env::temp_dir().join(format!("arbiter-full-disk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("disk")).unwrap();
    let mut m = Mounted { dir, server: None };
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=24m", "tmpfs"])
        .arg(m.disk())
        .status()
        .unwrap();
    assert!(mounted.success(), "mount -t tmpfs needs root");
    let mail = m.dir.join("mail");
    let db_path = m.disk().join("arbiter.db");
    let db = db_path.to_str().unwrap();

    ok(
        &cmd(
            "import examples/gthscl-division.json --league gthscl --season 2026-27 --competition maumee --db {}",
            &[db],
        ),
        &mail,
    );
    let email = "treasurer@gthscl.example";
    ok(
        &cmd(
            "user add --email {} --role treasurer --league gthscl --db {}",
            &[email, db],
        ),
        &mail,
    );
    let token = ok(
        &cmd(
            "token add --email {} --league gthscl --label disk --db {}",
            &[email, db],
        ),
        &mail,
    )
    .trim()
    .to_string();

    let addr = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let log = m.dir.join("serve.log");
    m.server = Some(
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--bind", &addr.to_string(), "--db", db])
            .current_dir(&m.dir)
            .env("ARBITER_MAIL_DIR", &mail)
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while request(addr, "GET", "/", "", "").0 != 200 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    let ledger = "/api/v1/leagues/gthscl/ledger";
    let standings = "/leagues/gthscl/2026-27/maumee";
    let payment = |n: u32| {
        format!(
            r#"{{"kind": "payment", "school": "St. John's Jesuit High School", "amount": "10", "on": "2026-11-0{n}", "note": "cheque {n}"}}"#
        )
    };
    let (status, body) = request(addr, "POST", ledger, &token, &payment(1));
    assert_eq!(status, 201, "a payment is recorded: {body}");
    let (status, before) = request(addr, "GET", ledger, &token, "");
    assert_eq!(status, 200, "{before}");
    let page = request(addr, "GET", standings, "", "");
    assert_eq!(page.0, 200, "the standings page: {}", page.1);

    // The disk full to the last byte: a write is refused, said as a sentence, logged.
    let filler = m.disk().join("filler");
    assert!(fill(&filler) > 0);
    let (status, body) = request(addr, "POST", ledger, &token, &payment(2));
    assert_eq!(status, 507, "a write on a full disk: {body}");
    assert!(
        body.contains("Nothing was saved: the server's disk is full"),
        "the person is told: {body}"
    );
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("disk is full"),
        "the log says why:\n{logged}"
    );
    // Reads go on, and show what was stored.
    let (status, during) = request(addr, "GET", ledger, &token, "");
    assert_eq!(
        (status, &during),
        (200, &before),
        "the ledger reads as before"
    );
    let (status, _) = request(addr, "GET", standings, "", "");
    assert_eq!(status, 200, "the standings page reads");

    // Space freed: writes work again, and nothing written before is lost.
    std::fs::remove_file(&filler).unwrap();
    // The store may answer 503 ("try again in a minute") while its connections recover from
    // the full disk; within a few seconds a write is stored.
    let mut tries = 0;
    let (status, body) = loop {
        let (status, body) = request(addr, "POST", ledger, &token, &payment(3));
        tries += 1;
        if status != 503 || tries == 40 {
            break (status, body);
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    };
    assert_eq!(status, 201, "a write once space is freed: {body}");
    let (_, after) = request(addr, "GET", ledger, &token, "");
    for note in ["cheque 1", "cheque 3"] {
        assert!(after.contains(note), "{note} is kept: {after}");
    }
    assert!(
        !after.contains("cheque 2"),
        "the refused write left nothing: {after}"
    );

    // The database passes SQLite's integrity check (a backup checks its copy).
    let copy = m.dir.join("check.db");
    let said = ok(&["backup", "--db", db, "-o", copy.to_str().unwrap()], &mail);
    assert!(said.contains("integrity checked"), "{said}");
}
