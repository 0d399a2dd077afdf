//! `arbiter backup` and `arbiter restore` end to end (issue 16): a backup taken from a database
//! `arbiter serve` has open while another process writes to it; a restore that refuses the
//! served database and an existing one without --force, and gives back every competition.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/run.rs"]
mod run;
use run::{arbiter, cmd, ok_stdout as ok, words};

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn refused(args: &[&str]) -> String {
    let out = arbiter(args);
    assert!(!out.status.success(), "arbiter {args:?} should have failed");
    String::from_utf8(out.stderr).unwrap()
}

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn answers(addr: SocketAddr) -> bool {
    let Ok(mut s) = TcpStream::connect(addr) else {
        return false;
    };
    let _ = s.write_all(b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n");
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    answer.starts_with("HTTP/1.1 200")
}

fn import(db: &str, slug: &str) {
    ok(&cmd(
        "import examples/gthscl-division.json --league gthscl --season 2026-27 --competition {} --db {}",
        &[slug, db],
    ));
}

fn export(dir: &Path, db: &str, competition: &str) -> String {
    let path = dir.join(format!("{competition}-{}.json", std::process::id()));
    let _ = std::fs::remove_file(&path);
    ok(&cmd(
        "export --league gthscl --competition {} --format json -o {} --db {}",
        &[competition, path.to_str().unwrap(), db],
    ));
    std::fs::read_to_string(&path).unwrap()
}

#[test]
fn a_backup_of_a_served_database_taken_during_writes_restores_every_competition() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-backup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db_path = dir.join("arbiter.db");
    let db = db_path.to_str().unwrap();
    import(db, "division-0");

    let addr = SocketAddr::from(([127, 0, 0, 1], free_port()));
    let server = Running(
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["serve", "--bind", &addr.to_string(), "--db", db])
            .current_dir(&dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while !answers(addr) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // Another process imports competitions, one transaction each, until the backups are done.
    let done = Arc::new(AtomicBool::new(false));
    let writer = {
        let done = done.clone();
        let db = db.to_string();
        std::thread::spawn(move || {
            let mut n = 1;
            while !done.load(Ordering::Relaxed) || n < 3 {
                import(&db, &format!("division-{n}"));
                n += 1;
            }
            n
        })
    };
    for i in 0..3 {
        let copy = dir.join(format!("backup-{i}.db"));
        let said = ok(&["backup", "--db", db, "-o", copy.to_str().unwrap()]);
        assert!(said.contains("integrity checked"), "{said}");
        // Each copy restores: whole, and at this build's schema.
        let restored = dir.join(format!("restored-{i}.db"));
        let said = ok(&cmd(
            "restore {} --db {}",
            &[copy.to_str().unwrap(), restored.to_str().unwrap()],
        ));
        assert!(said.starts_with("Restored"), "{said}");
    }
    done.store(true, Ordering::Relaxed);
    let imported = writer.join().unwrap();

    // A second backup to the same file is refused; the first stays.
    let copy = dir.join("backup-0.db");
    let before = std::fs::read(&copy).unwrap();
    let said = refused(&["backup", "--db", db, "-o", copy.to_str().unwrap()]);
    assert!(said.contains("exists already"), "{said}");
    assert_eq!(std::fs::read(&copy).unwrap(), before);

    // The served database cannot be restored over, even with --force.
    let last = dir.join("backup-last.db");
    ok(&["backup", "--db", db, "-o", last.to_str().unwrap()]);
    let said = refused(&["restore", last.to_str().unwrap(), "--db", db, "--force"]);
    assert!(said.contains("is open in another process"), "{said}");
    drop(server);

    // Stopped, it still exists: refused without --force.
    let said = refused(&["restore", last.to_str().unwrap(), "--db", db]);
    assert!(said.contains("--force"), "{said}");

    // Restored elsewhere, every competition exports as from the source.
    let restored = dir.join("restored.db");
    ok(&cmd(
        "restore {} --db {}",
        &[last.to_str().unwrap(), restored.to_str().unwrap()],
    ));
    for n in 0..imported {
        let slug = format!("division-{n}");
        assert_eq!(
            export(&dir, restored.to_str().unwrap(), &slug),
            export(&dir, db, &slug),
            "{slug}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn backup_of_postgres_names_pg_dump() {
    let said = refused(&words(
        "backup --database-url postgres://arbiter:pa55word@127.0.0.1:5432/league -o league.dump",
    ));
    assert!(
        said.contains(
            "--exclude-table-data='*.site_secrets' --file=league.dump 'postgres://arbiter@127.0.0.1:5432/league'"
        ),
        "{said}"
    );
    assert!(!said.contains("pa55word"), "{said}");
}

#[test]
fn backup_of_a_missing_database_says_so_and_creates_nothing() {
    let dir = std::env::temp_dir().join(format!("arbiter-cli-nobackup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.db");
    let said = refused(&cmd(
        "backup --db {} -o {}",
        &[
            missing.to_str().unwrap(),
            dir.join("b.db").to_str().unwrap(),
        ],
    ));
    assert!(said.contains("there is no database at"), "{said}");
    assert!(!missing.exists() && !dir.join("b.db").exists());
    let said = refused(&cmd(
        "restore {} --db {}",
        &[
            dir.join("b.db").to_str().unwrap(),
            missing.to_str().unwrap(),
        ],
    ));
    assert!(said.contains("does not exist"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
