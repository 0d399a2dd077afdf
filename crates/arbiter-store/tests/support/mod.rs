//! The harness that runs one test body against every backend, and the fixtures.
//!
//! SQLite always runs (a temp-file database and an in-memory one). PostgreSQL runs when
//! `ARBITER_TEST_POSTGRES_URL` is set, each test in a fresh schema dropped afterwards; with
//! `CI=true` and no URL the PostgreSQL tests fail, so CI cannot pass without PostgreSQL.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod tables;

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

pub use arbiter_core::record::zone::Zone;
use arbiter_core::{
    Board, Bye, ByeKind, Colour, Competition, GameResult, Match, MatchOutcome, Pairing, Player,
    PlayerId, Round, Side, Team, TeamId,
};
use arbiter_demo::testing::LeagueSetup;
use arbiter_store::{
    Actor, LeagueKind, NewCompetition, NewLeague, NewSeason, RulesRef, Season, Store,
};

/// `c` as the store loads it back when imported as `slug`: each player the file names no person
/// for is a person of their own, keyed `slug/id` (one player, one person).
pub fn with_own_persons(mut c: arbiter_core::Competition, slug: &str) -> arbiter_core::Competition {
    for p in c.teams.iter_mut().flat_map(|t| &mut t.players) {
        if p.person.is_none() {
            p.person = Some(arbiter_core::PersonId(format!("{slug}/{}", p.id)));
        }
    }
    c
}

/// Generates, for each test body, one `#[tokio::test]` per backend (SQLite file, SQLite in
/// memory, PostgreSQL).
#[allow(unused_macros)]
macro_rules! on_every_backend {
    ($($name:ident),* $(,)?) => {
        mod sqlite_file {
            $(#[tokio::test]
            async fn $name() {
                crate::support::run_sqlite_file(super::$name).await
            })*
        }
        mod sqlite_memory {
            $(#[tokio::test]
            async fn $name() {
                crate::support::run_sqlite_memory(super::$name).await
            })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $name() {
                crate::support::run_postgres(super::$name).await
            })*
        }
    };
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

/// A name no other test of this run (or of another run) uses.
pub fn unique_name(prefix: &str) -> String {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{prefix}_{}_{n}_{nanos}", std::process::id())
}

/// Runs `body` on a task, so that a failing assertion still lets the caller clean up; then
/// re-raises the failure.
async fn run_then<Fut>(body: Fut) -> Result<(), Box<dyn std::any::Any + Send>>
where
    Fut: Future<Output = ()> + Send + 'static,
{
    match tokio::spawn(body).await {
        Ok(()) => Ok(()),
        Err(e) if e.is_panic() => Err(e.into_panic()),
        Err(e) => panic!("the test task was cancelled: {e}"),
    }
}

fn reraise(result: Result<(), Box<dyn std::any::Any + Send>>) {
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// A fresh folder under the system temp dir, removed by the caller.
pub fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(unique_name("arbiter-store-test"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The body gets an unmigrated store on a new SQLite file (opened as a plain path).
pub async fn run_sqlite_file<F, Fut>(test: F)
where
    F: FnOnce(Store) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = temp_dir();
    let store = Store::open(dir.join("arbiter.db").to_str().unwrap())
        .await
        .unwrap();
    assert_eq!(store.backend(), "SQLite");
    let result = run_then(test(store.clone())).await;
    if let Store::Sqlite(s) = &store {
        s.close().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
    reraise(result);
}

/// The body gets an unmigrated in-memory SQLite store.
pub async fn run_sqlite_memory<F, Fut>(test: F)
where
    F: FnOnce(Store) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let store = Store::open_sqlite_memory().await.unwrap();
    reraise(run_then(test(store)).await);
}

pub use arbiter_demo::testing::{postgres_url, with_search_path};

/// The body gets an unmigrated store on a fresh PostgreSQL schema, dropped afterwards.
pub async fn run_postgres<F, Fut>(test: F)
where
    F: FnOnce(Store) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let Some(url) = postgres_url() else { return };
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    let schema = unique_name("arbiter_test");
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .unwrap();
    let store = Store::open(&with_search_path(&url, &schema)).await.unwrap();
    assert_eq!(store.backend(), "PostgreSQL");
    let result = run_then(test(store.clone())).await;
    if let Store::Postgres(p) = &store {
        p.close().await;
    }
    sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    reraise(result);
}

/// Runs raw SQL on whichever backend the store is, for tests of what the database refuses.
pub async fn execute_raw(store: &Store, sql: &str) -> Result<u64, String> {
    match store {
        Store::Sqlite(s) => sqlx::query(sql)
            .execute(s.pool())
            .await
            .map(|r| r.rows_affected())
            .map_err(|e| e.to_string()),
        Store::Postgres(p) => sqlx::query(sql)
            .execute(p.pool())
            .await
            .map(|r| r.rows_affected())
            .map_err(|e| e.to_string()),
    }
}

/// A single integer a raw query returns.
pub async fn fetch_i64(store: &Store, sql: &str) -> i64 {
    use sqlx::Row;
    match store {
        Store::Sqlite(s) => sqlx::query(sql)
            .fetch_one(s.pool())
            .await
            .unwrap()
            .get::<i64, _>(0),
        Store::Postgres(p) => sqlx::query(sql)
            .fetch_one(p.pool())
            .await
            .unwrap()
            .get::<i64, _>(0),
    }
}

/// An `accept_invite` check that asks nothing of the sender, for tests of everything else.
pub fn any_sender(
    _: &arbiter_store::Invite,
    _: &[arbiter_store::Membership],
) -> Result<(), String> {
    Ok(())
}

/// Adds a school to the league, as importing its teams would.
pub async fn add_school(store: &Store, league: arbiter_store::LeagueId, name: &str) {
    let sql = format!(
        "INSERT INTO schools (league_id, name) VALUES ({}, '{}')",
        league.0,
        name.replace('\'', "''")
    );
    execute_raw(store, &sql).await.unwrap();
}

pub fn arbiter() -> Actor {
    Actor::user(
        "president@gthscl.example",
        arbiter_core::rules::permissions::Role::President,
    )
}

pub fn advisor() -> Actor {
    Actor::user(
        "advisor@vic.example",
        arbiter_core::rules::permissions::Role::Advisor,
    )
}

pub fn new_league(slug: &str) -> NewLeague {
    NewLeague {
        slug: slug.to_string(),
        name: "Greater Toledo High School Chess League".to_string(),
        kind: LeagueKind::League,
        description: "Varsity and JV divisions; matches on Tuesdays.".to_string(),
        time_zone: Zone::named("America/New_York").unwrap(),
    }
}

pub fn new_season(slug: &str) -> NewSeason {
    NewSeason {
        slug: slug.to_string(),
        name: format!("Season {slug}"),
        starts_on: Some(jiff::civil::date(2025, 9, 1)),
        ends_on: Some(jiff::civil::date(2026, 3, 31)),
    }
}

pub fn new_competition(slug: &str) -> NewCompetition {
    NewCompetition {
        slug: slug.to_string(),
        name: "Varsity <&\"'>".to_string(),
        rules: RulesRef::Preset("gthscl".to_string()),
    }
}

/// A league with one season, on a migrated store.
pub async fn league_and_season(store: &Store, league_slug: &str) -> Season {
    LeagueSetup::new(new_league(league_slug))
        .by(arbiter())
        .season(new_season("2025-26"))
        .write(store)
        .await
        .seasons
        .remove(0)
}

fn player(id: &str, name: &str, rating: Option<u32>, provisional: bool) -> Player {
    Player {
        id: PlayerId(id.to_string()),
        name: name.to_string(),
        rating,
        provisional,
        ..Player::default()
    }
}

fn board(
    result: GameResult,
    rating_result: Option<GameResult>,
    home: Option<&str>,
    away: Option<&str>,
    home_colour: Option<Colour>,
) -> Board {
    Board {
        result,
        rating_result,
        home_player: home.map(|p| PlayerId(p.to_string())),
        away_player: away.map(|p| PlayerId(p.to_string())),
        home_colour,
        unplayed: None,
        unfinished: None,
    }
}

fn played(home: &str, away: &str, outcome: MatchOutcome) -> Pairing {
    Pairing::Match(Match {
        date: None,
        home: TeamId(home.to_string()),
        away: TeamId(away.to_string()),
        outcome,
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

fn bye(team: &str, kind: ByeKind) -> Pairing {
    Pairing::Bye(Bye {
        team: TeamId(team.to_string()),
        kind,
    })
}

/// Every `MatchOutcome`, every `GameResult`, every `ByeKind`, rating results that differ from
/// the team result (GT-P1), both colours and none, provisional players (GT-R3), a player's FIDE
/// record and an unranked player (GT-R7), rosters in
/// declared order (AS-10), a school shared by two teams and a team without one, an undated
/// round, a bye listed before a match, a match on a day of its own (issue 12), and names with
/// non-ASCII and `<&"'`.
pub fn every_kind_of_result() -> Competition {
    let school = "École Saint-Jean <&\"'>";
    let team = |id: &str, name: &str, school: Option<&str>, players: Vec<Player>| Team {
        id: TeamId(id.to_string()),
        name: name.to_string(),
        school: school.map(str::to_string),
        players,
    };
    Competition {
        name: "GTHSCL Varsity 2025–26 <&\"'>".to_string(),
        teams: vec![
            team(
                "vic",
                "Victoria Café <&\"'>",
                Some(school),
                vec![
                    player("vic-1", "Zoë Ångström", Some(1850), false),
                    player("vic-2", "O'Brien \"Bobby\" <&>", Some(1720), false),
                    player("vic-3", "Łukasz Żółć", None, false),
                    player("vic-4", "新人 选手", Some(1200), true),
                    // Issue 11: a FIDE record (B.02's K) and GT-R7's unranked player are kept.
                    Player {
                        record: arbiter_core::RatingRecord {
                            birth_date: Some(jiff::civil::date(2009, 4, 17)),
                            rated_games: Some(12),
                            k: Some(40),
                            // Issue 34: her id on the federation's list.
                            federation_id: Some("2000001".into()),
                        },
                        unranked: true,
                        // GT-R6: her own school, not the team's.
                        school: Some("Ballarat Grammar".into()),
                        ..player("vic-5", "Ana-María Núñez", Some(1500), false)
                    },
                ],
            ),
            team(
                "tol",
                "Toledo A",
                Some("Toledo High"),
                vec![
                    player("tol-1", "Sam Brown", Some(1600), false),
                    player("tol-2", "Kim Lee", Some(1550), false),
                    player("tol-3", "Raj Patel", Some(1400), false),
                    player("tol-4", "Tess Gray", Some(1200), true),
                ],
            ),
            team(
                "mau",
                "Maumee",
                Some(school),
                vec![
                    player("mau-1", "Jo Král", Some(1300), false),
                    player("mau-2", "Lee Ng", None, false),
                ],
            ),
            team(
                "syl",
                "Sylvania 北",
                None,
                vec![player("syl-1", "Ñoño Ü", Some(1100), false)],
            ),
        ],
        rounds: vec![
            Round {
                number: 1,
                date: Some(jiff::civil::date(2025, 9, 16)),
                pairings: vec![
                    played(
                        "vic",
                        "tol",
                        MatchOutcome::Boards(vec![
                            board(
                                GameResult::HomeWin,
                                None,
                                Some("vic-1"),
                                Some("tol-1"),
                                Some(Colour::Black),
                            ),
                            board(
                                GameResult::Draw,
                                None,
                                Some("vic-2"),
                                Some("tol-2"),
                                Some(Colour::White),
                            ),
                            // GT-P1: the team loses the point, the game still counts for ratings.
                            board(
                                GameResult::AwayWinByForfeit,
                                Some(GameResult::HomeWin),
                                Some("vic-3"),
                                Some("tol-3"),
                                None,
                            ),
                            board(
                                GameResult::AwayWin,
                                None,
                                Some("vic-4"),
                                Some("tol-4"),
                                Some(Colour::White),
                            ),
                        ]),
                    ),
                    // GT-P3: a forfeited match still keeps the games played beside it.
                    match played("mau", "syl", MatchOutcome::Forfeit { by: Side::Away }) {
                        Pairing::Match(m) => Pairing::Match(Match {
                            // GT-M6, GT-S3: the visitors never came, clocks started at 16:30.
                            late: Some(arbiter_core::season::late::LateArrival {
                                team: Side::Away,
                                school_day_ends: jiff::civil::time(15, 30, 0, 0),
                                clocks_started: Some(jiff::civil::time(16, 30, 0, 0)),
                                arrived: None,
                                arranged: false,
                            }),
                            extra_games: vec![
                                arbiter_core::ExtraGame {
                                    white: PlayerId("mau-1".into()),
                                    black: PlayerId("syl-1".into()),
                                    result: GameResult::AwayWin,
                                    kind: arbiter_core::ExtraKind::Challenge,
                                    entered_by: None,
                                    events: Vec::new(),
                                },
                                arbiter_core::ExtraGame {
                                    white: PlayerId("syl-1".into()),
                                    black: PlayerId("mau-1".into()),
                                    result: GameResult::Draw,
                                    kind: arbiter_core::ExtraKind::Unranked,
                                    entered_by: None,
                                    events: Vec::new(),
                                },
                            ],
                            ..m
                        }),
                        other => other,
                    },
                ],
            },
            Round {
                number: 2,
                date: None,
                pairings: vec![
                    played(
                        "vic",
                        "mau",
                        MatchOutcome::Boards(vec![
                            // GT-M17: a conduct forfeit keeps its note; GT-M4: an agreed
                            // draw of an unplayed game is a double default.
                            Board {
                                unplayed: Some(arbiter_core::Unplayed::Conduct {
                                    note: "Talked after a warning; «again».".into(),
                                }),
                                ..board(
                                    GameResult::HomeWinByForfeit,
                                    None,
                                    Some("vic-1"),
                                    None,
                                    None,
                                )
                            },
                            Board {
                                unplayed: Some(arbiter_core::Unplayed::AgreedDraw),
                                ..board(GameResult::DoubleForfeit, None, None, None, None)
                            },
                            board(
                                GameResult::Draw,
                                Some(GameResult::AwayWin),
                                Some("vic-5"),
                                Some("mau-1"),
                                Some(Colour::Black),
                            ),
                            board(
                                GameResult::Pending,
                                None,
                                Some("vic-4"),
                                Some("mau-2"),
                                None,
                            ),
                        ]),
                    ),
                    played("tol", "syl", MatchOutcome::DoubleForfeit),
                ],
            },
            Round {
                number: 3,
                date: Some(jiff::civil::date(2025, 10, 7)),
                pairings: vec![
                    bye("tol", ByeKind::PairingAllocated),
                    played("syl", "vic", MatchOutcome::Pending),
                    bye("mau", ByeKind::FullPoint),
                ],
            },
            Round {
                number: 4,
                date: Some(jiff::civil::date(2025, 10, 14)),
                pairings: vec![
                    played("tol", "vic", MatchOutcome::Forfeit { by: Side::Home }),
                    bye("syl", ByeKind::HalfPoint),
                    bye("mau", ByeKind::ZeroPoint),
                ],
            },
            Round {
                number: 5,
                date: Some(jiff::civil::date(2025, 10, 21)),
                pairings: vec![
                    // Played, but no board reported yet.
                    played("mau", "tol", MatchOutcome::Boards(Vec::new())),
                    // Issue 12: a match on a day of its own (moved, GT-M2), at the time its
                    // home advisor arranged (GT-M1).
                    Pairing::Match(Match {
                        date: Some(jiff::civil::date(2025, 10, 23)),
                        home: TeamId("syl".into()),
                        away: TeamId("vic".into()),
                        outcome: MatchOutcome::Pending,
                        start: Some(jiff::civil::time(15, 45, 0, 0)),
                        extra_games: Vec::new(),
                        late: None,
                    }),
                ],
            },
        ],
    }
}

/// The board result a correction enters: vic beats tol 3½-½ instead of 2½-1½ (GT-S1).
pub fn corrected_round_one() -> MatchOutcome {
    let mut boards = match &every_kind_of_result().rounds[0].pairings[0] {
        Pairing::Match(m) => match &m.outcome {
            MatchOutcome::Boards(b) => b.clone(),
            _ => unreachable!(),
        },
        Pairing::Bye(_) => unreachable!(),
    };
    boards[3].result = GameResult::HomeWin;
    boards[3].home_colour = Some(Colour::Black);
    MatchOutcome::Boards(boards)
}

/// Every file under `dir`, recursively.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The fixture ([`every_kind_of_result`]) imported by the President as competition `slug` of
/// `season`.
pub async fn import_fixture(
    store: &Store,
    season: arbiter_store::SeasonId,
    slug: &str,
) -> arbiter_store::CompetitionRecord {
    store
        .import_competition(
            season,
            &new_competition(slug),
            &every_kind_of_result(),
            &arbiter(),
        )
        .await
        .unwrap()
}

/// The competition `competition` of the league `league`, which must be there.
pub async fn loaded(
    store: &Store,
    league: &str,
    competition: &str,
) -> arbiter_store::StoredCompetition {
    store
        .load_competition(league, competition)
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("no competition {league}/{competition}"))
}

/// Fails, naming the statement, unless the database refuses each of `statements` with a
/// message saying history is never changed.
pub async fn assert_history_kept(store: &Store, statements: &[&str]) {
    for sql in statements {
        let err = execute_raw(store, sql)
            .await
            .expect_err("the database refuses it");
        assert!(err.contains("never"), "{sql}: {err}");
    }
}
