//! The federation-sized database of `benches/many_competitions.sh` (issue 35), and the writer
//! that changes one of its competitions while a server reads the others:
//!
//! ```text
//! many_competitions generate DB N      # N divisions of 8 teams, 100 to a league (fed-001, …)
//! many_competitions write DB SECONDS   # corrects fed-001's division-001 twice a second
//! ```
//!
//! Each division is `arbiter_demo::large_division(8)`: a single round robin of 7 rounds, every
//! board played, as the GTHSCL preset scores it. The divisions are alike but for their names;
//! the server computes each on its own, so the cost is the same as for different ones.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use arbiter_core::MatchOutcome;
use arbiter_store::{Actor, LeagueKind, NewCompetition, NewLeague, NewSeason, RulesRef, Store};

/// Divisions to a league, as a federation's county leagues have them.
const PER_LEAGUE: usize = 100;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let done = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["generate", db, n] => match n.parse::<usize>() {
            Ok(n) if n > 0 => runtime.block_on(generate(db, n)),
            _ => Err(format!(
                "the number of divisions is a whole number above 0, not `{n}`"
            )),
        },
        ["write", db, seconds] => match seconds.parse::<u64>() {
            Ok(s) => runtime.block_on(write(db, Duration::from_secs(s))),
            _ => Err(format!("the seconds are a whole number, not `{seconds}`")),
        },
        _ => Err("usage: many_competitions generate DB N | write DB SECONDS".into()),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn open(db: &str) -> Result<Store, String> {
    let store = Store::open(db).await.map_err(|e| e.to_string())?;
    store.migrate().await.map_err(|e| e.to_string())?;
    Ok(store)
}

async fn generate(db: &str, n: usize) -> Result<(), String> {
    let store = open(db).await?;
    let by = Actor::system();
    let division = arbiter_demo::large_division(8);
    let started = Instant::now();
    for l in 0..n.div_ceil(PER_LEAGUE) {
        let league = store
            .create_league(
                &NewLeague {
                    slug: format!("fed-{:03}", l + 1),
                    name: format!("County League {}", l + 1),
                    kind: LeagueKind::League,
                    description: "Generated for the benchmark of many competitions.".into(),
                    time_zone: arbiter_core::record::zone::Zone::named("Europe/London")
                        .map_err(|e| e.to_string())?,
                },
                &by,
            )
            .await
            .map_err(|e| e.to_string())?;
        let season = store
            .create_season(
                league.id,
                &NewSeason {
                    slug: "2026-27".into(),
                    name: "2026-27".into(),
                    starts_on: Some(jiff::civil::date(2026, 9, 1)),
                    ends_on: Some(jiff::civil::date(2027, 6, 30)),
                },
                &by,
            )
            .await
            .map_err(|e| e.to_string())?;
        for d in 0..PER_LEAGUE.min(n - l * PER_LEAGUE) {
            let new = NewCompetition {
                slug: format!("division-{:03}", d + 1),
                name: format!("Division {}", d + 1),
                rules: RulesRef::Preset(division.rules.clone()),
            };
            store
                .import_competition(season.id, &new, &division.competition, &by)
                .await
                .map_err(|e| e.to_string())?;
        }
        eprintln!(
            "{} divisions in {:.0} s",
            ((l + 1) * PER_LEAGUE).min(n),
            started.elapsed().as_secs_f64()
        );
    }
    store.close().await;
    Ok(())
}

/// Corrects the first match of fed-001's division-001 twice a second for `seconds`, each a new
/// version of its result, as a league weekend's results arrive.
async fn write(db: &str, seconds: Duration) -> Result<(), String> {
    let store = open(db).await?;
    let by = Actor::system();
    let stored = store
        .load_competition("fed-001", "division-001")
        .await
        .map_err(|e| e.to_string())?
        .ok_or("no fed-001/division-001: generate the database first")?;
    let (m, outcome) = (stored.match_ids[0].2, &stored.competition.rounds[0]);
    let played = match &outcome.pairings[0] {
        arbiter_core::Pairing::Match(m) => m.outcome.clone(),
        _ => MatchOutcome::Pending,
    };
    let started = Instant::now();
    let mut written = 0u32;
    let mut took = Vec::new();
    let mut tick = tokio::time::interval(Duration::from_millis(500));
    while started.elapsed() < seconds {
        tick.tick().await;
        let began = Instant::now();
        let seen = store.report_seen(m).await.map_err(|e| e.to_string())?;
        let next = if written.is_multiple_of(2) {
            MatchOutcome::DoubleForfeit
        } else {
            played.clone()
        };
        store
            .record_result(m, seen, &next, &by, Some("benchmark correction"))
            .await
            .map_err(|e| e.to_string())?;
        took.push(began.elapsed().as_secs_f64() * 1000.0);
        written += 1;
    }
    took.sort_by(f64::total_cmp);
    let at = |p: usize| took.get(took.len() * p / 100).copied().unwrap_or(f64::NAN);
    eprintln!(
        "{written} writes in {:.1} s, each p50 {:.1} ms p99 {:.1} ms",
        started.elapsed().as_secs_f64(),
        at(50),
        at(99)
    );
    store.close().await;
    Ok(())
}
