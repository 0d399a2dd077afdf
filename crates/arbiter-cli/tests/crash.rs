//! Issue 16, part 1: crash safety. The real `arbiter serve`, on SQLite and on PostgreSQL, takes
//! concurrent writes through the API from many clients (result corrections against the version
//! each client last saw, forfeits by decision, fee payments) and is killed with SIGKILL at a
//! random moment, again and again. After each kill, with the server down, the store is opened
//! and every write the server acknowledged (2xx) must be there as acknowledged, no write it
//! refused (4xx) may be, and SQLite's integrity check must pass; after each restart, the
//! standings it serves must equal those `arbiter export` and `arbiter standings` compute from
//! scratch. Writes cut off by the kill got no answer, and either outcome is right for them.
//!
//! `cargo test -p arbiter-cli --test crash -- --ignored`: 5 kills on each backend (`.ci/run`);
//! the long run of docs/reliability.md:
//! `ARBITER_CRASH_KILLS=50 cargo test --release -p arbiter-cli --test crash -- --ignored --nocapture`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter_core::model::{MatchOutcome, Pairing};
use arbiter_store::Store;
use common::*;

/// Clients writing at once.
const CLIENTS: usize = 12;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct MatchKey {
    round: u32,
    home: String,
}

#[derive(Debug, Clone)]
enum Kind {
    /// The President's correction of a match's result, against the version the client knows.
    Correction(MatchKey),
    /// GT-M3: a forfeit by decision; refused (422) once the match has a result.
    Forfeit(MatchKey),
    /// A fee payment (GT-O2).
    Payment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// 2xx, with the result version when the write made one.
    Acked(Option<u32>),
    /// 4xx: nothing may have been stored.
    Refused(u16),
    /// No answer: the server died first.
    Unknown,
}

/// One write, named by the reason or note it carries, which no other write has.
#[derive(Debug, Clone)]
struct Write {
    kind: Kind,
    mark: String,
    outcome: Outcome,
}

/// What the clients share: the matches, each match's newest version they were told of, and
/// every write with its outcome.
struct Shared {
    tokens: Tokens,
    played: Vec<MatchKey>,
    pending: Vec<MatchKey>,
    known: Mutex<HashMap<MatchKey, u32>>,
    writes: Mutex<Vec<Write>>,
    next: std::sync::atomic::AtomicU64,
}

impl Shared {
    fn mark(&self) -> String {
        format!(
            "crash test write {}",
            self.next.fetch_add(1, Ordering::Relaxed)
        )
    }
}

async fn write_once(addr: SocketAddr, shared: &Shared, dice: &mut Dice) -> Outcome {
    let mark = shared.mark();
    let roll = dice.below(100);
    let (kind, answer) = if roll < 70 {
        let key = shared.played[dice.below(shared.played.len() as u64) as usize].clone();
        let known = shared.known.lock().unwrap().get(&key).copied().unwrap_or(1);
        let by = if dice.below(2) == 0 { "home" } else { "away" };
        let body = format!(r#"{{"forfeit": "{by}", "reason": "{mark}", "version": {known}}}"#);
        let path = format!("{API}/rounds/{}/matches/{}/correction", key.round, key.home);
        (
            Kind::Correction(key),
            post(addr, &path, &shared.tokens.president, &body).await,
        )
    } else if roll < 80 && !shared.pending.is_empty() {
        let key = shared.pending[dice.below(shared.pending.len() as u64) as usize].clone();
        let body = format!(r#"{{"offender": "home", "reason": "{mark}"}}"#);
        let path = format!("{API}/rounds/{}/matches/{}/forfeit", key.round, key.home);
        (
            Kind::Forfeit(key),
            post(addr, &path, &shared.tokens.president, &body).await,
        )
    } else {
        let body = format!(
            r#"{{"kind": "payment", "school": "{SCHOOL}", "amount": "1", "on": "2026-11-02", "note": "{mark}"}}"#
        );
        (
            Kind::Payment,
            post(addr, LEDGER, &shared.tokens.treasurer, &body).await,
        )
    };
    let outcome = match answer.status {
        0 => Outcome::Unknown,
        200..=299 => {
            let version = answer.json()["version"].as_u64().map(|v| v as u32);
            if let (Kind::Correction(key) | Kind::Forfeit(key), Some(v)) = (&kind, version) {
                let mut known = shared.known.lock().unwrap();
                let k = known.entry(key.clone()).or_insert(v);
                *k = (*k).max(v);
            }
            Outcome::Acked(version)
        }
        409 | 422 => Outcome::Refused(answer.status),
        // Anything else is a fault: a 5xx, or a refusal this test never provokes.
        other => panic!("write {mark} was answered {other}: {}", answer.body),
    };
    shared.writes.lock().unwrap().push(Write {
        kind,
        mark,
        outcome,
    });
    outcome
}

/// Writes until the server stops answering.
async fn client(addr: SocketAddr, shared: Arc<Shared>, seed: u64, stop: Arc<AtomicBool>) {
    let mut dice = Dice::new(seed);
    while !stop.load(Ordering::Relaxed) {
        if write_once(addr, &shared, &mut dice).await == Outcome::Unknown {
            // The server is gone (or going): one more try would only race the kill.
            return;
        }
    }
}

/// What a check of the stored data counted.
#[derive(Debug, Default, Clone, Copy)]
struct Checked {
    acked: usize,
    refused: usize,
    unknown: usize,
}

/// With the server down: every acknowledged write stored as answered, no refused one, the
/// database intact. Returns the counts and each match's version in force.
async fn check_store(db: &Database, shared: &Shared) -> (Checked, HashMap<MatchKey, u32>) {
    let store = Store::open(&db.url)
        .await
        .expect("the store opens after a kill");
    if let Some(pool) = store.sqlite_pool() {
        let verdict: String = sqlx::query_scalar("PRAGMA integrity_check")
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(verdict, "ok", "SQLite's integrity check after a kill");
    }
    let loaded = store
        .load_competition(LEAGUE, COMPETITION)
        .await
        .unwrap()
        .expect("the competition is there");
    // reason → (match, version) of every stored result version.
    let mut stored: HashMap<String, (MatchKey, u32)> = HashMap::new();
    let mut in_force = HashMap::new();
    for (round, home, id) in &loaded.match_ids {
        let key = MatchKey {
            round: *round,
            home: home.0.clone(),
        };
        let versions = store.result_versions(*id).await.unwrap();
        let numbers: Vec<u32> = versions.iter().map(|v| v.version).collect();
        let expected: Vec<u32> = (1..=numbers.len() as u32).collect();
        assert_eq!(
            numbers, expected,
            "{key:?}: versions run 1, 2, 3 … without a gap"
        );
        for v in versions {
            if let Some(reason) = v.reason {
                assert!(
                    stored
                        .insert(reason.clone(), (key.clone(), v.version))
                        .is_none(),
                    "{reason} is stored twice"
                );
            }
        }
        in_force.insert(key, numbers.len() as u32);
    }
    let league = store.league(LEAGUE).await.unwrap().unwrap();
    let season = store
        .seasons(league.id)
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.slug == SEASON)
        .unwrap();
    let notes: HashSet<String> = store
        .ledger(league.id, season.id)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.entry.note)
        .collect();

    let mut checked = Checked::default();
    for w in shared.writes.lock().unwrap().iter() {
        let found = match &w.kind {
            Kind::Correction(key) | Kind::Forfeit(key) => stored.get(&w.mark).map(|(k, v)| {
                assert_eq!(k, key, "{} is stored on another match", w.mark);
                Some(*v)
            }),
            Kind::Payment => notes.contains(&w.mark).then_some(None),
        };
        match w.outcome {
            Outcome::Acked(version) => {
                checked.acked += 1;
                assert_eq!(
                    found,
                    Some(version),
                    "{} was acknowledged ({version:?}) but is not stored so after a kill",
                    w.mark
                );
            }
            Outcome::Refused(status) => {
                checked.refused += 1;
                assert_eq!(
                    found, None,
                    "{} was refused ({status}) but is stored",
                    w.mark
                );
            }
            Outcome::Unknown => checked.unknown += 1,
        }
    }
    if let Some(pool) = store.sqlite_pool() {
        pool.close().await;
    }
    if let Some(pool) = store.pg_pool() {
        pool.close().await;
    }
    (checked, in_force)
}

/// The matches with a result (corrected) and those without (forfeited by decision).
async fn matches(db: &Database) -> (Vec<MatchKey>, Vec<MatchKey>) {
    let store = Store::open(&db.url).await.unwrap();
    let loaded = store
        .load_competition(LEAGUE, COMPETITION)
        .await
        .unwrap()
        .unwrap();
    let (mut played, mut pending) = (Vec::new(), Vec::new());
    for round in &loaded.competition.rounds {
        for p in &round.pairings {
            if let Pairing::Match(m) = p {
                let key = MatchKey {
                    round: round.number,
                    home: m.home.0.clone(),
                };
                if m.outcome == MatchOutcome::Pending {
                    pending.push(key);
                } else {
                    played.push(key);
                }
            }
        }
    }
    if let Some(pool) = store.sqlite_pool() {
        pool.close().await;
    }
    if let Some(pool) = store.pg_pool() {
        pool.close().await;
    }
    (played, pending)
}

fn kills() -> usize {
    std::env::var("ARBITER_CRASH_KILLS")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(5)
}

async fn crash_again_and_again(db: &Database, dir: &Path, kills: usize) {
    let mail = dir.join("mail");
    let tokens = seed(db, &mail);
    let (played, pending) = matches(db).await;
    assert!(
        played.len() >= 10 && !pending.is_empty(),
        "the example has matches to correct ({}) and to forfeit ({})",
        played.len(),
        pending.len()
    );
    let shared = Arc::new(Shared {
        tokens,
        played,
        pending,
        known: Mutex::new(HashMap::new()),
        writes: Mutex::new(Vec::new()),
        next: 0.into(),
    });
    let mut dice = Dice::seeded("crash");
    let mut total = Checked::default();
    for kill in 1..=kills {
        let server = Server::start(db, dir).await;
        let (served, recomputed) = standings_served_and_recomputed(server.addr, db, dir).await;
        assert_eq!(
            served, recomputed,
            "after restart {kill}, the served standings are those computed from scratch"
        );
        let stop = Arc::new(AtomicBool::new(false));
        let clients: Vec<_> = (0..CLIENTS)
            .map(|_| {
                tokio::spawn(client(
                    server.addr,
                    shared.clone(),
                    dice.next(),
                    stop.clone(),
                ))
            })
            .collect();
        // A random moment: early in a burst, or once writes are well under way.
        tokio::time::sleep(Duration::from_millis(100 + dice.below(1400))).await;
        server.kill();
        stop.store(true, Ordering::Relaxed);
        for c in clients {
            c.await.unwrap();
        }
        let (checked, in_force) = check_store(db, &shared).await;
        // Writes cut off by the kill may or may not be stored: carry on from what is.
        *shared.known.lock().unwrap() = in_force;
        total = checked;
        eprintln!("kill {kill}: {checked:?}");
    }
    let server = Server::start(db, dir).await;
    let (served, recomputed) = standings_served_and_recomputed(server.addr, db, dir).await;
    assert_eq!(served, recomputed, "after the last restart");
    server.kill();
    assert!(
        total.acked > kills && total.refused > 0,
        "the clients wrote and were refused across the kills: {total:?}"
    );
    println!(
        "{kills} kills survived on {}: {} writes checked ({} acknowledged, all stored; {} refused, none stored; {} cut off by a kill), 0 lost",
        if db.is_sqlite() {
            "SQLite"
        } else {
            "PostgreSQL"
        },
        total.acked + total.refused + total.unknown,
        total.acked,
        total.refused,
        total.unknown
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "kills a server again and again (about a minute); .ci/run runs it"]
async fn sqlite_keeps_every_acknowledged_write_through_sigkills() {
    let dir = Scratch::new("crash-sqlite");
    let db = Database::sqlite(&dir.0);
    crash_again_and_again(&db, &dir.0, kills()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "kills a server again and again (about a minute); .ci/run runs it"]
async fn postgres_keeps_every_acknowledged_write_through_sigkills() {
    let Some(server) = postgres_url() else { return };
    let dir = Scratch::new("crash-postgres");
    let db = Database::postgres(&server, "crash").await;
    crash_again_and_again(&db, &dir.0, kills()).await;
    db.drop_schema().await;
}
