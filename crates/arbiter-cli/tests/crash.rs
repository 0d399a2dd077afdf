//! Issue 16, part 1: crash safety. The real `arbiter serve`, on SQLite and on PostgreSQL, takes
//! concurrent writes of every kind through the API from many clients, each with the token of
//! the person who would send it: the President's result corrections and forfeits by decision
//! (GT-O3, GT-M3), the Treasurer's fee payments (GT-O2), and the schools' advisors' result
//! entries (the home team's, GT-M1), confirmations (the visitors', GT-P2), lineups named before
//! a match (issue 12) and roster changes (a player added, a player withdrawn). It is killed with
//! SIGKILL at a random moment, again and again. After each kill, with the server down, the store
//! is opened and every write the server acknowledged (2xx) must be there as acknowledged, no
//! write it refused (4xx) may be, and SQLite's integrity check must pass; after each restart,
//! the standings it serves must equal those `arbiter export` and `arbiter standings` compute
//! from scratch. Writes cut off by the kill got no answer, and either outcome is right for them.
//!
//! Each burst works on a fresh division of matches still to play (imported while the server
//! is down, dated in the past so that the advisors may report them), beside the seeded one
//! whose results are corrected; a match, once confirmed, takes no more entries.
//!
//! `cargo test -p arbiter-cli --test crash -- --ignored`: 5 kills on each backend (`.ci/run`);
//! the long run of docs/reliability.md:
//! `ARBITER_CRASH_KILLS=50 cargo test --release -p arbiter-cli --test crash -- --ignored --nocapture`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use arbiter_core::record::model::{MatchOutcome, Pairing, Side};
use arbiter_core::teams::lineup::{self, Lineup, NamedLineup};
use arbiter_store::{HistoryFilter, Store, StoredCompetition};
use common::*;

/// Clients writing at once.
const CLIENTS: usize = 12;

/// A match, by its competition, round and home team.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct MatchKey {
    competition: String,
    round: u32,
    home: String,
}

impl MatchKey {
    fn path(&self, what: &str) -> String {
        format!(
            "/api/v1/leagues/{LEAGUE}/{SEASON}/{}/rounds/{}/matches/{}/{what}",
            self.competition, self.round, self.home
        )
    }
}

/// A match still to play of the current burst's division, for the advisors.
#[derive(Debug, Clone)]
struct Pending {
    key: MatchKey,
    home_school: String,
    away_school: String,
    /// A lineup each side may name (core's `lineup::refusals` finds nothing in it), if any.
    lineups: [Option<Vec<String>>; 2],
}

#[derive(Debug, Clone)]
enum Kind {
    /// The President's correction of a match's result, against the version the client knows.
    Correction(MatchKey),
    /// GT-M3: a forfeit by decision; refused (422) once the match has a result.
    Forfeit(MatchKey),
    /// A fee payment (GT-O2).
    Payment,
    /// GT-M1, GT-P2: the home advisor enters the result (again, until the visitors confirm).
    Entry(MatchKey),
    /// GT-P2: the visiting advisor confirms the result in force.
    Confirmation(MatchKey),
    /// Issue 12: a side's advisor names its lineup before the match.
    Lineup(MatchKey, Side),
    /// An advisor adds a player to their school's team (named by the write's mark).
    PlayerAdded,
    /// An advisor withdraws a player of their school from a day (the write's mark its reason).
    Withdrawal(String),
}

impl Kind {
    fn name(&self) -> &'static str {
        match self {
            Kind::Correction(_) => "corrections",
            Kind::Forfeit(_) => "forfeits",
            Kind::Payment => "payments",
            Kind::Entry(_) => "entries",
            Kind::Confirmation(_) => "confirmations",
            Kind::Lineup(..) => "lineups",
            Kind::PlayerAdded => "players added",
            Kind::Withdrawal(_) => "withdrawals",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    /// 2xx, with the version the write made or reviewed, or the player it added.
    Acked(Option<u32>, Option<String>),
    /// 4xx: nothing may have been stored.
    Refused(u16),
    /// No answer: the server died first.
    Unknown,
}

/// One write, named by the reason, note or name it carries, which no other write has.
#[derive(Debug, Clone)]
struct Write {
    kind: Kind,
    mark: String,
    outcome: Outcome,
}

/// What the clients share: the tokens, the matches, the newest versions they were told of,
/// the players they added, and every write with its outcome.
struct Shared {
    tokens: Tokens,
    /// School → its advisor's token.
    advisors: HashMap<String, String>,
    played: Vec<MatchKey>,
    /// The seeded division's teams and their schools, for roster changes.
    teams: Vec<(String, String)>,
    /// The current burst's division.
    pending: Mutex<Vec<Pending>>,
    known: Mutex<HashMap<MatchKey, u32>>,
    /// The lineup version each side's advisor last saw.
    known_lineups: Mutex<HashMap<(MatchKey, Side), u32>>,
    /// Players added and acknowledged, not yet withdrawn: (id, school).
    added: Mutex<Vec<(String, String)>>,
    writes: Mutex<Vec<Write>>,
    next: AtomicU64,
}

impl Shared {
    fn mark(&self) -> String {
        format!(
            "crash test write {}",
            self.next.fetch_add(1, Ordering::Relaxed)
        )
    }

    fn advisor(&self, school: &str) -> &str {
        self.advisors
            .get(school)
            .unwrap_or_else(|| panic!("no advisor's token for {school}"))
    }
}

fn pick<T: Clone>(items: &[T], dice: &mut Dice) -> Option<T> {
    (!items.is_empty()).then(|| items[dice.below(items.len() as u64) as usize].clone())
}

/// `"version": N, ` when the client knows one.
fn version_field(known: Option<u32>) -> String {
    known
        .map(|v| format!(r#""version": {v}, "#))
        .unwrap_or_default()
}

async fn write_once(addr: SocketAddr, shared: &Shared, dice: &mut Dice) -> Outcome {
    let mark = shared.mark();
    let roll = dice.below(100);
    let known = |key: &MatchKey| shared.known.lock().unwrap().get(key).copied();
    let (pending, entered) = {
        let all = shared.pending.lock().unwrap();
        // The matches a client was told have an entry (version 1 is the match scheduled).
        let entered: Vec<Pending> = all
            .iter()
            .filter(|p| known(&p.key).is_some_and(|v| v > 1))
            .cloned()
            .collect();
        (pick(&all, dice), pick(&entered, dice))
    };
    let (kind, answer) = match (roll, pending, entered) {
        (0..30, _, _) => {
            let key = pick(&shared.played, dice).unwrap();
            let by = if dice.below(2) == 0 { "home" } else { "away" };
            let seen = known(&key).unwrap_or(1);
            let body = format!(r#"{{"forfeit": "{by}", "reason": "{mark}", "version": {seen}}}"#);
            let answer = post(
                addr,
                &key.path("correction"),
                &shared.tokens.president,
                &body,
            )
            .await;
            (Kind::Correction(key), answer)
        }
        (30..40, _, _) => {
            let body = format!(
                r#"{{"kind": "payment", "school": "{SCHOOL}", "amount": "1", "on": "2026-11-02", "note": "{mark}"}}"#
            );
            let answer = post(addr, LEDGER, &shared.tokens.treasurer, &body).await;
            (Kind::Payment, answer)
        }
        (40..45, Some(p), _) => {
            let body = format!(r#"{{"offender": "away", "reason": "{mark}"}}"#);
            let answer = post(
                addr,
                &p.key.path("forfeit"),
                &shared.tokens.president,
                &body,
            )
            .await;
            (Kind::Forfeit(p.key), answer)
        }
        (45..62, Some(p), _) => {
            let by = if dice.below(2) == 0 { "home" } else { "away" };
            let body = format!(
                r#"{{{}"forfeit": "{by}", "reason": "{mark}"}}"#,
                version_field(known(&p.key))
            );
            let token = shared.advisor(&p.home_school);
            let answer = post(addr, &p.key.path("result"), token, &body).await;
            (Kind::Entry(p.key), answer)
        }
        (62..75, _, Some(p)) => {
            // Half confirm the version they know, half the one in force (the store still
            // refuses one that changed meanwhile).
            let seen = known(&p.key).filter(|_| dice.below(2) == 0);
            let body = format!(r#"{{{}"reason": "{mark}"}}"#, version_field(seen));
            let token = shared.advisor(&p.away_school);
            let answer = post(addr, &p.key.path("confirm"), token, &body).await;
            (Kind::Confirmation(p.key), answer)
        }
        (75..88, Some(p), _) if p.lineups.iter().any(Option::is_some) => {
            let home = match &p.lineups {
                [Some(_), Some(_)] => dice.below(2) == 0,
                [home, _] => home.is_some(),
            };
            let (side, school, boards) = if home {
                (Side::Home, &p.home_school, p.lineups[0].as_ref().unwrap())
            } else {
                (Side::Away, &p.away_school, p.lineups[1].as_ref().unwrap())
            };
            let seen = shared
                .known_lineups
                .lock()
                .unwrap()
                .get(&(p.key.clone(), side))
                .copied();
            let body = format!(
                r#"{{{}"boards": {}}}"#,
                version_field(seen),
                serde_json::to_string(boards).unwrap()
            );
            let path = p.key.path(&format!("lineups/{}", side.code()));
            let answer = post(addr, &path, shared.advisor(school), &body).await;
            (Kind::Lineup(p.key, side), answer)
        }
        (_, _, _) if dice.below(3) > 0 || shared.added.lock().unwrap().is_empty() => {
            let (team, school) = pick(&shared.teams, dice).unwrap();
            let body = format!(
                r#"{{"name": "{mark}", "grade": 10, "rating": {}, "reason": "{mark}"}}"#,
                1000 + dice.below(1000)
            );
            let path = format!("{API}/teams/{team}/players");
            let answer = post(addr, &path, shared.advisor(&school), &body).await;
            (Kind::PlayerAdded, answer)
        }
        (_, _, _) => {
            let (player, school) = {
                let mut added = shared.added.lock().unwrap();
                let i = dice.below(added.len() as u64) as usize;
                added.swap_remove(i)
            };
            let body = format!(r#"{{"on": "2027-02-01", "reason": "{mark}"}}"#);
            let path = format!("{API}/players/{player}/withdrawal");
            let answer = post(addr, &path, shared.advisor(&school), &body).await;
            (Kind::Withdrawal(player), answer)
        }
    };
    let outcome = match answer.status {
        0 => Outcome::Unknown,
        200..=299 => {
            let json = answer.json();
            let version = json["version"].as_u64().map(|v| v as u32);
            let id = json["id"].as_str().map(str::to_string);
            match (&kind, version) {
                (
                    Kind::Correction(key)
                    | Kind::Forfeit(key)
                    | Kind::Entry(key)
                    | Kind::Confirmation(key),
                    Some(v),
                ) => {
                    let mut known = shared.known.lock().unwrap();
                    let k = known.entry(key.clone()).or_insert(v);
                    *k = (*k).max(v);
                }
                (Kind::Lineup(key, side), Some(v)) => {
                    let mut known = shared.known_lineups.lock().unwrap();
                    let k = known.entry((key.clone(), *side)).or_insert(v);
                    *k = (*k).max(v);
                }
                (Kind::PlayerAdded, _) => {
                    let school = json["team"]
                        .as_str()
                        .and_then(|t| shared.teams.iter().find(|(id, _)| id == t))
                        .map(|(_, s)| s.clone())
                        .unwrap();
                    shared
                        .added
                        .lock()
                        .unwrap()
                        .push((id.clone().unwrap(), school));
                }
                _ => {}
            }
            Outcome::Acked(version, id)
        }
        409 | 422 => Outcome::Refused(answer.status),
        // Anything else is a fault: a 5xx, or a refusal this test never provokes (a 403 would
        // be a token sent for the wrong school).
        other => panic!(
            "write {mark} ({}) was answered {other}: {}",
            kind.name(),
            answer.body
        ),
    };
    shared.writes.lock().unwrap().push(Write {
        kind,
        mark,
        outcome: outcome.clone(),
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

/// What a check of the stored data counted, for each kind of write.
#[derive(Debug, Default, Clone)]
struct Checked {
    /// Kind → (acknowledged, refused, cut off).
    by_kind: HashMap<&'static str, (usize, usize, usize)>,
}

impl Checked {
    fn count(&mut self, kind: &Kind, outcome: &Outcome) {
        let e = self.by_kind.entry(kind.name()).or_default();
        match outcome {
            Outcome::Acked(..) => e.0 += 1,
            Outcome::Refused(_) => e.1 += 1,
            Outcome::Unknown => e.2 += 1,
        }
    }

    fn totals(&self) -> (usize, usize, usize) {
        self.by_kind
            .values()
            .fold((0, 0, 0), |t, e| (t.0 + e.0, t.1 + e.1, t.2 + e.2))
    }
}

/// What one competition holds, keyed for the check.
#[derive(Default)]
struct Stored {
    /// Reason → (match, version) of every result version.
    results: HashMap<String, (MatchKey, u32)>,
    /// Reason → (match, version reviewed) of every review.
    reviews: HashMap<String, (MatchKey, u32)>,
    /// Each side's lineup version in force.
    lineups: HashMap<(MatchKey, Side), u32>,
    /// Each match's version in force.
    in_force: HashMap<MatchKey, u32>,
}

async fn read_competition(store: &Store, slug: &str, into: &mut Stored) -> StoredCompetition {
    let loaded = store
        .load_competition(LEAGUE, slug)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("the competition {slug} is there"));
    for (round, home, id) in &loaded.match_ids {
        let key = MatchKey {
            competition: slug.to_string(),
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
                let twice = into
                    .results
                    .insert(reason.clone(), (key.clone(), v.version));
                assert!(twice.is_none(), "{reason} is stored twice");
            }
        }
        for r in store.result_reviews(*id).await.unwrap() {
            if let Some(reason) = r.reason {
                let twice = into
                    .reviews
                    .insert(reason.clone(), (key.clone(), r.version));
                assert!(twice.is_none(), "{reason} is stored twice");
            }
        }
        into.in_force.insert(key, numbers.len() as u32);
    }
    for l in &loaded.lineups {
        let key = MatchKey {
            competition: slug.to_string(),
            round: l.named.round,
            home: l.named.home.0.clone(),
        };
        into.lineups.insert((key, l.named.side), l.version);
    }
    loaded
}

/// With the server down: every acknowledged write stored as answered, no refused one, the
/// database intact. Returns the counts and each match's version in force.
async fn check_store(
    db: &Database,
    shared: &Shared,
    divisions: &[String],
) -> (
    Checked,
    HashMap<MatchKey, u32>,
    HashMap<(MatchKey, Side), u32>,
) {
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
    let mut stored = Stored::default();
    let seeded = read_competition(&store, COMPETITION, &mut stored).await;
    for slug in divisions {
        read_competition(&store, slug, &mut stored).await;
    }
    // The seeded division's players by name (a player added is named by the write's mark).
    let players: HashMap<&str, (&str, &str, Option<jiff::civil::Date>)> = seeded
        .competition
        .teams
        .iter()
        .flat_map(|t| {
            t.players.iter().map(move |p| {
                (
                    p.name.as_str(),
                    (p.id.0.as_str(), t.id.0.as_str(), p.withdrawn),
                )
            })
        })
        .collect();
    let withdrawals: HashSet<String> = store
        .history(&HistoryFilter {
            competition: Some(seeded.record.id),
            ..HistoryFilter::default()
        })
        .await
        .unwrap()
        .into_iter()
        .filter_map(|h| h.reason)
        .collect();
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
    // Each side's lineup writes: the versions acknowledged, and how many got no answer.
    let mut lineup_writes: HashMap<(MatchKey, Side), (Vec<u32>, usize)> = HashMap::new();
    let writes = shared.writes.lock().unwrap().clone();
    for w in &writes {
        checked.count(&w.kind, &w.outcome);
        // Where the write is found, if it is: the version it made or reviewed.
        let found: Option<Option<u32>> = match &w.kind {
            Kind::Correction(key) | Kind::Forfeit(key) | Kind::Entry(key) => {
                stored.results.get(&w.mark).map(|(k, v)| {
                    assert_eq!(k, key, "{} is stored on another match", w.mark);
                    Some(*v)
                })
            }
            Kind::Confirmation(key) => stored.reviews.get(&w.mark).map(|(k, v)| {
                assert_eq!(k, key, "{} is stored on another match", w.mark);
                Some(*v)
            }),
            Kind::Payment => notes.contains(&w.mark).then_some(None),
            Kind::PlayerAdded => players.get(w.mark.as_str()).map(|_| None),
            Kind::Withdrawal(player) => withdrawals.contains(&w.mark).then(|| {
                let withdrawn = players.values().find(|(id, ..)| id == player);
                assert!(
                    withdrawn.is_some_and(|(_, _, on)| on.is_some()),
                    "{}: {player} is withdrawn in the history but not on the roster",
                    w.mark
                );
                None
            }),
            Kind::Lineup(key, side) => {
                let e = lineup_writes.entry((key.clone(), *side)).or_default();
                match &w.outcome {
                    Outcome::Acked(Some(v), _) => e.0.push(*v),
                    Outcome::Unknown => e.1 += 1,
                    _ => {}
                }
                continue;
            }
        };
        match &w.outcome {
            Outcome::Acked(version, id) => {
                let expected = match &w.kind {
                    Kind::PlayerAdded => {
                        let (stored_id, ..) = players[w.mark.as_str()];
                        assert_eq!(
                            Some(stored_id),
                            id.as_deref(),
                            "{}: the id answered",
                            w.mark
                        );
                        Some(None)
                    }
                    Kind::Payment | Kind::Withdrawal(_) => Some(None),
                    _ => Some(*version),
                };
                assert_eq!(
                    found,
                    expected,
                    "{} ({}) was acknowledged ({version:?}) but is not stored so after a kill",
                    w.mark,
                    w.kind.name()
                );
            }
            Outcome::Refused(status) => assert_eq!(
                found,
                None,
                "{} ({}) was refused ({status}) but is stored",
                w.mark,
                w.kind.name()
            ),
            Outcome::Unknown => {}
        }
    }
    // Lineups carry no mark: each version acknowledged is stored (versions run 1, 2, 3 … in
    // the store), and every stored version beyond them is one cut off by a kill, never a
    // refused one (the divisions are imported with no lineup named).
    let mut lineups_in_force = HashMap::new();
    for (side_key, (acked, unknown)) in &lineup_writes {
        let in_force = stored.lineups.get(side_key).copied().unwrap_or(0);
        let most = acked.iter().copied().max().unwrap_or(0);
        assert!(
            most <= in_force,
            "{side_key:?}: lineup version {most} was acknowledged, but {in_force} is in force after a kill"
        );
        assert!(
            in_force as usize <= acked.len() + unknown,
            "{side_key:?}: {in_force} lineup versions stored, more than the {} acknowledged and {unknown} cut off",
            acked.len()
        );
        lineups_in_force.insert(side_key.clone(), in_force);
    }
    store.close().await;
    (checked, stored.in_force, lineups_in_force)
}

/// The seeded division's matches with a result (corrected), and its teams with their schools.
async fn seeded_division(db: &Database) -> (Vec<MatchKey>, Vec<(String, String)>) {
    let store = Store::open(&db.url).await.unwrap();
    let loaded = store
        .load_competition(LEAGUE, COMPETITION)
        .await
        .unwrap()
        .unwrap();
    let mut played = Vec::new();
    for round in &loaded.competition.rounds {
        for p in &round.pairings {
            if let Pairing::Match(m) = p
                && m.outcome != MatchOutcome::Pending
            {
                played.push(MatchKey {
                    competition: COMPETITION.into(),
                    round: round.number,
                    home: m.home.0.clone(),
                });
            }
        }
    }
    let teams = loaded
        .competition
        .teams
        .iter()
        .map(|t| (t.id.0.clone(), t.school.clone().unwrap()))
        .collect();
    store.close().await;
    (played, teams)
}

/// The example division with every result taken away and its days a year earlier (52 weeks,
/// the same weekdays), so that every match is one to report now (GT-P2 lets no advisor enter
/// a result before its day).
fn division_to_play(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("examples/gthscl-division.json")).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let earlier = |d: &serde_json::Value| -> serde_json::Value {
        let day: jiff::civil::Date = d.as_str().unwrap().parse().unwrap();
        day.checked_sub(jiff::Span::new().days(364))
            .unwrap()
            .to_string()
            .into()
    };
    let rounds = doc["rounds"].as_array_mut().unwrap();
    assert!(!rounds.is_empty(), "the example has rounds");
    for round in rounds {
        round["date"] = earlier(&round["date"]);
        for m in round["matches"].as_array_mut().unwrap() {
            let m = m.as_object_mut().unwrap();
            m.retain(|k, _| k == "home" || k == "away");
        }
    }
    let file = dir.join("to-play.json");
    std::fs::write(&file, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    file
}

/// A lineup `side` may name for the match (core finds no reason to refuse it): the team's
/// players by rating, as many as its boards.
fn lineup_for(
    c: &StoredCompetition,
    round: u32,
    m: &arbiter_core::Match,
    side: Side,
) -> Option<Vec<String>> {
    let team = c.competition.team(m.team(side))?;
    let mut players: Vec<_> = team
        .players
        .iter()
        .filter(|p| p.withdrawn.is_none())
        .collect();
    players.sort_by_key(|p| std::cmp::Reverse(p.rating));
    let boards: Vec<_> = players
        .iter()
        .take(c.rules.boards as usize)
        .map(|p| p.id.clone())
        .collect();
    let named = NamedLineup {
        round,
        home: m.home.clone(),
        side,
        lineup: Lineup {
            boards: boards.iter().cloned().map(Some).collect(),
            withdrawn: Vec::new(),
        },
    };
    lineup::refusals(&c.competition, &c.rules, &[], &named)
        .is_empty()
        .then(|| boards.into_iter().map(|p| p.0).collect())
}

/// The matches of `slug` for the advisors: every one between two schools (a school's own two
/// teams meeting is confirmed by an officer, GT-O3), with the lineups each side may name.
async fn to_play(db: &Database, slug: &str) -> Vec<Pending> {
    let store = Store::open(&db.url).await.unwrap();
    let c = store.load_competition(LEAGUE, slug).await.unwrap().unwrap();
    let school = |t: &arbiter_core::TeamId| c.competition.team(t).and_then(|t| t.school.clone());
    let mut out = Vec::new();
    for round in &c.competition.rounds {
        for p in &round.pairings {
            let Pairing::Match(m) = p else { continue };
            let (Some(home_school), Some(away_school)) = (school(&m.home), school(&m.away)) else {
                continue;
            };
            if home_school == away_school {
                continue;
            }
            out.push(Pending {
                key: MatchKey {
                    competition: slug.to_string(),
                    round: round.number,
                    home: m.home.0.clone(),
                },
                home_school,
                away_school,
                lineups: [
                    lineup_for(&c, round.number, m, Side::Home),
                    lineup_for(&c, round.number, m, Side::Away),
                ],
            });
        }
    }
    store.close().await;
    out
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
    let (played, teams) = seeded_division(db).await;
    let schools: Vec<String> = teams
        .iter()
        .map(|(_, s)| s.clone())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let advisors = advisor_tokens(db, &mail, &schools);
    let file = division_to_play(dir);
    assert!(
        played.len() >= 10 && teams.len() >= 4,
        "the example has matches to correct ({}) and teams ({})",
        played.len(),
        teams.len()
    );
    let shared = Arc::new(Shared {
        tokens,
        advisors,
        played,
        teams,
        pending: Mutex::new(Vec::new()),
        known: Mutex::new(HashMap::new()),
        known_lineups: Mutex::new(HashMap::new()),
        added: Mutex::new(Vec::new()),
        writes: Mutex::new(Vec::new()),
        next: 0.into(),
    });
    let mut dice = Dice::seeded("crash");
    let mut total = Checked::default();
    let mut divisions = Vec::new();
    for kill in 1..=kills {
        // A fresh division of matches to report, while the server is down.
        let slug = format!("to-play-{kill}");
        import(db, &mail, &file, &slug);
        let pending = to_play(db, &slug).await;
        assert!(
            pending.len() >= 10
                && pending
                    .iter()
                    .any(|p| p.lineups.iter().all(Option::is_some)),
            "the division to play has matches ({}) and lineups to name",
            pending.len()
        );
        *shared.pending.lock().unwrap() = pending;
        divisions.push(slug);

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
        let (checked, in_force, lineups) = check_store(db, &shared, &divisions).await;
        // Writes cut off by the kill may or may not be stored: carry on from what is.
        *shared.known.lock().unwrap() = in_force;
        *shared.known_lineups.lock().unwrap() = lineups;
        eprintln!("kill {kill}: {:?}", checked.by_kind);
        total = checked;
    }
    let server = Server::start(db, dir).await;
    let (served, recomputed) = standings_served_and_recomputed(server.addr, db, dir).await;
    assert_eq!(served, recomputed, "after the last restart");
    server.kill();
    let (acked, refused, unknown) = total.totals();
    for kind in [
        "corrections",
        "entries",
        "confirmations",
        "lineups",
        "players added",
        "payments",
    ] {
        // Every kind was sent; in a long run each was acknowledged too (five short bursts
        // may end before a kind's first write is answered).
        let (a, r, u) = total.by_kind.get(kind).copied().unwrap_or_default();
        assert!(a + r + u > 0, "some {kind} were sent: {total:?}");
        assert!(
            a > 0 || kills < 20,
            "some {kind} were acknowledged across the kills: {total:?}"
        );
    }
    assert!(refused > 0, "some writes were refused: {total:?}");
    let mut kinds: Vec<_> = total.by_kind.iter().collect();
    kinds.sort();
    let each: Vec<String> = kinds
        .iter()
        .map(|(k, (a, r, u))| format!("{k} {a}/{r}/{u}"))
        .collect();
    println!(
        "{kills} kills survived on {}: {} writes checked ({acked} acknowledged, all stored; {refused} refused, none stored; {unknown} cut off by a kill), 0 lost; by kind (acknowledged/refused/cut off): {}",
        if db.is_sqlite() {
            "SQLite"
        } else {
            "PostgreSQL"
        },
        acked + refused + unknown,
        each.join(", ")
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
