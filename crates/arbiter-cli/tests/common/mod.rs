//! What the tests of `arbiter serve` as a process share (issue 16, parts 1, 3 and 4): the
//! binary, a database on SQLite or on a fresh PostgreSQL schema, a league seeded with officers'
//! and advisors' API tokens, a server that can be killed, and one HTTP request on its own
//! connection.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

pub const LEAGUE: &str = "gthscl";
pub const SEASON: &str = "2026-27";
pub const COMPETITION: &str = "maumee";
/// The competition's API address.
pub const API: &str = "/api/v1/leagues/gthscl/2026-27/maumee";
pub const LEDGER: &str = "/api/v1/leagues/gthscl/ledger";
/// A school with a team in the season, for ledger payments.
pub const SCHOOL: &str = "Start High School";

/// The `arbiter` binary: `ARBITER_BIN` when set (the long runs use the release build), else the
/// one cargo built for this test.
pub fn binary() -> PathBuf {
    std::env::var_os("ARBITER_BIN")
        .map_or_else(|| env!("CARGO_BIN_EXE_arbiter").into(), PathBuf::from)
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `arbiter ARGS` to the end; its standard output, or the test fails with its error.
pub fn arbiter(args: &[&str], mail: &Path) -> String {
    let out = Command::new(binary())
        .args(args)
        .current_dir(root())
        .env_remove("ARBITER_SMTP_URL")
        .env("ARBITER_MAIL_DIR", mail)
        .output()
        .expect("the arbiter binary runs");
    assert!(
        out.status.success(),
        "arbiter {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A folder for one test, removed when it ends.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "arbiter-{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    /// Removed, unless the test failed: then the server's log (`serve.log`) is kept to read.
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("kept for a look: {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[allow(unused_imports)]
pub use arbiter_demo::testing::postgres_url;

/// Where a test's data lives: a SQLite file, or a schema of its own on PostgreSQL.
pub struct Database {
    /// What `arbiter --db` and `Store::open` take.
    pub url: String,
    /// The PostgreSQL server and the schema to drop afterwards.
    schema: Option<(String, String)>,
}

impl Database {
    pub fn sqlite(dir: &Path) -> Database {
        Database {
            url: dir.join("arbiter.db").to_str().unwrap().to_string(),
            schema: None,
        }
    }

    /// A fresh schema on `server`; [`Database::drop_schema`] removes it.
    pub async fn postgres(server: &str, name: &str) -> Database {
        let schema = format!("arbiter_{name}_{}", std::process::id());
        let admin = sqlx::PgPool::connect(server).await.unwrap();
        sqlx::query(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
            .execute(&admin)
            .await
            .unwrap();
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&admin)
            .await
            .unwrap();
        admin.close().await;
        Database {
            url: arbiter_demo::testing::with_search_path(server, &schema),
            schema: Some((server.to_string(), schema)),
        }
    }

    /// The flag of `arbiter` that takes [`Database::url`].
    pub fn flag(&self) -> &'static str {
        if self.is_sqlite() {
            "--db"
        } else {
            "--database-url"
        }
    }

    pub fn is_sqlite(&self) -> bool {
        self.schema.is_none()
    }

    pub async fn drop_schema(&self) {
        if let Some((server, schema)) = &self.schema {
            let admin = sqlx::PgPool::connect(server).await.unwrap();
            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
                .execute(&admin)
                .await
                .unwrap();
            admin.close().await;
        }
    }
}

/// The officers' API tokens of the seeded league.
#[derive(Clone)]
pub struct Tokens {
    /// Corrects results and declares forfeits (GT-O3, GT-M3).
    pub president: String,
    /// Records the fee ledger (GT-O2).
    pub treasurer: String,
}

/// Imports `examples/gthscl-division.json` (6 teams, 5 rounds, 14 results, one match to play)
/// and makes a President and a Treasurer with an API token each.
pub fn seed(db: &Database, mail: &Path) -> Tokens {
    let flag = db.flag();
    let db = db.url.as_str();
    arbiter(
        &[
            "import",
            "examples/gthscl-division.json",
            "--league",
            LEAGUE,
            "--season",
            SEASON,
            "--competition",
            COMPETITION,
            flag,
            db,
        ],
        mail,
    );
    let token = |role: &str| {
        let email = format!("{role}@gthscl.example");
        arbiter(
            &[
                "user", "add", "--email", &email, "--role", role, "--league", LEAGUE, flag, db,
            ],
            mail,
        );
        arbiter(
            &[
                "token", "add", "--email", &email, "--league", LEAGUE, "--label", "test", flag, db,
            ],
            mail,
        )
        .trim()
        .to_string()
    };
    Tokens {
        president: token("president"),
        treasurer: token("treasurer"),
    }
}

/// An advisor of each of `schools` in the seeded league, with an API token acting for their
/// school (issue 16): school → token.
pub fn advisor_tokens(
    db: &Database,
    mail: &Path,
    schools: &[String],
) -> std::collections::HashMap<String, String> {
    let (flag, url) = (db.flag(), db.url.as_str());
    schools
        .iter()
        .enumerate()
        .map(|(i, school)| {
            let email = format!("advisor{i}@gthscl.example");
            arbiter(
                &[
                    "user", "add", "--email", &email, "--role", "advisor", "--school", school,
                    "--league", LEAGUE, flag, url,
                ],
                mail,
            );
            let token = arbiter(
                &[
                    "token",
                    "add",
                    "--email",
                    &email,
                    "--league",
                    LEAGUE,
                    "--label",
                    "school's program",
                    flag,
                    url,
                ],
                mail,
            );
            (school.clone(), token.trim().to_string())
        })
        .collect()
}

/// Imports the competition file `file` into the seeded season as `competition`.
pub fn import(db: &Database, mail: &Path, file: &Path, competition: &str) {
    arbiter(
        &[
            "import",
            file.to_str().unwrap(),
            "--league",
            LEAGUE,
            "--season",
            SEASON,
            "--competition",
            competition,
            db.flag(),
            &db.url,
        ],
        mail,
    );
}

/// A free port on loopback.
pub fn free_address() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
}

/// `arbiter serve` as a child process, killed (SIGKILL) when dropped.
pub struct Server {
    pub addr: SocketAddr,
    child: Child,
}

impl Server {
    /// Starts `arbiter serve` on `db` and waits until it answers the home page.
    pub async fn start(db: &Database, dir: &Path) -> Server {
        Server::start_with(db, dir, &[]).await
    }

    pub async fn start_with(db: &Database, dir: &Path, extra: &[&str]) -> Server {
        let addr = free_address();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("serve.log"))
            .unwrap();
        let child = Command::new(binary())
            .args(["serve", "--bind", &addr.to_string(), db.flag(), &db.url])
            .args(extra)
            .current_dir(dir)
            .env_remove("ARBITER_SMTP_URL")
            .env("ARBITER_MAIL_DIR", dir.join("mail"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        let mut server = Server { addr, child };
        let started = Instant::now();
        while get(addr, "/").await.status != 200 {
            if let Ok(Some(status)) = server.child.try_wait() {
                let log = std::fs::read_to_string(dir.join("serve.log")).unwrap_or_default();
                panic!("arbiter serve stopped ({status}):\n{log}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the server did not start within a minute"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        server
    }

    /// The process's id, for its memory in /proc.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL, as a crash or the power going off: no chance to finish anything.
    pub fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP answer; status 0 when there was none (refused, reset, cut off).
#[derive(Debug, Clone, Default)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Answer {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<String> {
        self.head.lines().skip(1).find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    }

    /// Every cookie the answer sets, as `name=value` for a `Cookie` header.
    pub fn cookies(&self) -> Vec<String> {
        self.head
            .lines()
            .filter_map(|l| l.split_once(':'))
            .filter(|(n, _)| n.trim().eq_ignore_ascii_case("set-cookie"))
            .filter_map(|(_, v)| v.split(';').next())
            .map(|c| c.trim().to_string())
            .collect()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One request on its own connection (`Connection: close`), within 60 seconds.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    request_from(None, addr, method, path, headers, body).await
}

/// [`request`] from the loopback address `source` (127.0.0.2 …), as another client would.
pub async fn request_from(
    source: Option<std::net::IpAddr>,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let exchange = async {
        let mut stream = match source {
            None => TcpStream::connect(addr).await.ok()?,
            Some(ip) => {
                let socket = tokio::net::TcpSocket::new_v4().ok()?;
                socket.bind(SocketAddr::new(ip, 0)).ok()?;
                socket.connect(addr).await.ok()?
            }
        };
        let mut req = format!(
            "{method} {path} HTTP/1.1\r\nHost: arbiter.test\r\nConnection: close\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (name, value) in headers {
            req.push_str(&format!("{name}: {value}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        stream.write_all(req.as_bytes()).await.ok()?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.ok()?;
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let (head, body) = answer.split_once("\r\n\r\n")?;
        let status = head.split(' ').nth(1)?.parse().ok()?;
        let body = if head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            unchunk(body)
        } else {
            body.to_string()
        };
        Some(Answer {
            status,
            head: head.to_string(),
            body,
        })
    };
    tokio::time::timeout(Duration::from_secs(60), exchange)
        .await
        .ok()
        .flatten()
        .unwrap_or_default()
}

fn unchunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}

pub async fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, &[], "").await
}

/// A JSON POST with an API token.
pub async fn post(addr: SocketAddr, path: &str, token: &str, body: &str) -> Answer {
    let bearer = format!("Bearer {token}");
    request(
        addr,
        "POST",
        path,
        &[
            ("Authorization", &bearer),
            ("Content-Type", "application/json"),
            ("Accept", "application/json"),
        ],
        body,
    )
    .await
}

/// A small seeded generator (xorshift), so a failing run can be repeated from its seed.
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(seed.max(1))
    }

    /// A seed from `ARBITER_TEST_SEED`, else from the clock; printed so a failure can be rerun.
    pub fn seeded(what: &str) -> Dice {
        let seed = std::env::var("ARBITER_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
        eprintln!("{what}: ARBITER_TEST_SEED={seed}");
        Dice::new(seed)
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// The served standings and the ones `arbiter export` then `arbiter standings` compute from
/// scratch in other processes: each row's team, place and values, as text for a clear diff.
pub async fn standings_served_and_recomputed(
    addr: SocketAddr,
    db: &Database,
    dir: &Path,
) -> (Vec<String>, Vec<String>) {
    let served = get(addr, &format!("{API}/standings")).await;
    assert_eq!(served.status, 200, "the standings: {}", served.body);
    let file = dir.join("export.json");
    let _ = std::fs::remove_file(&file);
    let mail = dir.join("mail");
    arbiter(
        &[
            "export",
            "--league",
            LEAGUE,
            "--competition",
            COMPETITION,
            "--format",
            "json",
            "-o",
            file.to_str().unwrap(),
            db.flag(),
            &db.url,
        ],
        &mail,
    );
    let recomputed: serde_json::Value = serde_json::from_str(&arbiter(
        &["standings", file.to_str().unwrap(), "--format", "json"],
        &mail,
    ))
    .unwrap();
    let rows = |rows: &serde_json::Value| -> Vec<String> {
        rows.as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                let values: Vec<String> = r["values"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| match v.as_f64() {
                        Some(x) => format!("{k}={x:.2}"),
                        None => format!("{k}={v}"),
                    })
                    .collect();
                format!(
                    "{} {} {}",
                    r["place"].as_str().unwrap(),
                    r["team_id"].as_str().unwrap(),
                    values.join(" ")
                )
            })
            .collect()
    };
    (rows(&served.json()["rows"]), rows(&recomputed["standings"]))
}
