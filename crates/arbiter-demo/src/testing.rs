//! The set-up the tests of the store, the web site and the CLI share (feature `testing`): a
//! league with its seasons, competitions and accounts written into a store, the accounts' API
//! tokens, and the PostgreSQL server the tests run on when one is named. Test code only: it
//! panics on any error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use arbiter_core::record::model::Competition;
use arbiter_core::record::zone::Zone;
use arbiter_core::rules::permissions::Role;
use arbiter_store::{
    Actor, CompetitionRecord, League, LeagueKind, NewApiToken, NewCompetition, NewLeague,
    NewSeason, RulesRef, Season, Store, User,
};
use jiff::civil::{Date, date};

/// Every test account's password.
pub const PASSWORD: &str = "correct horse battery staple";

/// The GTHSCL, a league of Toledo high schools (America/New_York).
pub fn gthscl() -> NewLeague {
    NewLeague {
        slug: "gthscl".into(),
        name: "GTHSCL".into(),
        kind: LeagueKind::League,
        description: "Greater Toledo High School Chess League".into(),
        time_zone: Zone::named("America/New_York").unwrap(),
    }
}

/// The ASTC, an event held over a few days in Adelaide.
pub fn astc() -> NewLeague {
    NewLeague {
        slug: "astc".into(),
        name: "ASTC".into(),
        kind: LeagueKind::Event,
        description: "Australian Schools Teams Championships".into(),
        time_zone: Zone::named("Australia/Adelaide").unwrap(),
    }
}

/// A season from `starts` to `ends`.
pub fn season(slug: &str, name: &str, starts: Date, ends: Date) -> NewSeason {
    NewSeason {
        slug: slug.into(),
        name: name.into(),
        starts_on: Some(starts),
        ends_on: Some(ends),
    }
}

/// The GTHSCL's 2026-27 season, October to March.
pub fn gthscl_2026_27() -> NewSeason {
    season("2026-27", "2026-27", date(2026, 10, 1), date(2027, 3, 31))
}

/// The ASTC's 2026 event, 7 to 10 December in Adelaide.
pub fn astc_2026() -> NewSeason {
    season(
        "2026",
        "2026, Adelaide",
        date(2026, 12, 7),
        date(2026, 12, 10),
    )
}

/// A competition to import under `rules`.
pub fn new_competition(slug: &str, name: &str, rules: RulesRef) -> NewCompetition {
    NewCompetition {
        slug: slug.into(),
        name: name.into(),
        rules,
    }
}

/// A league to write into a store: its seasons, each with its competitions, and accounts with
/// a role in it (each with [`PASSWORD`]), all written as one actor.
#[derive(Debug, Clone)]
pub struct LeagueSetup {
    league: NewLeague,
    by: Actor,
    seasons: Vec<(NewSeason, Vec<(NewCompetition, Competition)>)>,
    accounts: Vec<(String, Role, Option<String>)>,
}

/// What [`LeagueSetup::write`] stored, in the order the set-up named it.
#[derive(Debug, Clone)]
pub struct Written {
    pub league: League,
    pub seasons: Vec<Season>,
    pub competitions: Vec<CompetitionRecord>,
}

impl LeagueSetup {
    /// `league`, with nothing in it yet, written by the system.
    pub fn new(league: NewLeague) -> LeagueSetup {
        LeagueSetup {
            league,
            by: Actor::system(),
            seasons: Vec::new(),
            accounts: Vec::new(),
        }
    }

    /// Written as `by` (the history says who).
    pub fn by(mut self, by: Actor) -> LeagueSetup {
        self.by = by;
        self
    }

    /// A season; the competitions named after it are in it.
    pub fn season(mut self, season: NewSeason) -> LeagueSetup {
        self.seasons.push((season, Vec::new()));
        self
    }

    /// A competition of the last season named, imported as `new`.
    pub fn competition(mut self, new: NewCompetition, competition: Competition) -> LeagueSetup {
        self.seasons
            .last_mut()
            .expect("a competition is in a season: name the season first")
            .1
            .push((new, competition));
        self
    }

    /// An account with `role` in the league (of `school`, for an advisor), made after the
    /// competitions (whose teams make the schools).
    pub fn account(mut self, email: &str, role: Role, school: Option<&str>) -> LeagueSetup {
        self.accounts
            .push((email.into(), role, school.map(str::to_string)));
        self
    }

    /// Writes it all into `store` (migrated already).
    pub async fn write(self, store: &Store) -> Written {
        let league = store.create_league(&self.league, &self.by).await.unwrap();
        let mut written = Written {
            league,
            seasons: Vec::new(),
            competitions: Vec::new(),
        };
        for (new, competitions) in &self.seasons {
            let season = store
                .create_season(written.league.id, new, &self.by)
                .await
                .unwrap();
            for (new, competition) in competitions {
                let stored = store
                    .import_competition(season.id, new, competition, &self.by)
                    .await
                    .unwrap_or_else(|e| panic!("importing {}: {e}", new.slug));
                written.competitions.push(stored);
            }
            written.seasons.push(season);
        }
        for (email, role, school) in &self.accounts {
            account(store, &self.league.slug, email, *role, school.as_deref()).await;
        }
        written
    }
}

/// The account `email` (made with [`PASSWORD`] unless it is there already) given `role` in the
/// league `league` (of `school`, for an advisor or an officer's own school).
pub async fn account(
    store: &Store,
    league: &str,
    email: &str,
    role: Role,
    school: Option<&str>,
) -> User {
    let league = store.league(league).await.unwrap().unwrap();
    let user = match store
        .user_by_email(&arbiter_core::record::text::Email::parse(email).unwrap())
        .await
        .unwrap()
    {
        Some(u) => u,
        None => {
            let hash = arbiter_store::secrets::hash_password(PASSWORD).unwrap();
            store
                .create_user(email, email, Some(&hash), &Actor::system())
                .await
                .unwrap()
        }
    };
    store
        .grant_role(user.id, league.id, role, school, &Actor::system())
        .await
        .unwrap();
    user
}

/// A new API token of the account `email` (made already) in the league `league`, acting as
/// `role` (of `school`): its secret, for `Authorization: Bearer …`.
pub async fn api_token(
    store: &Store,
    league: &str,
    email: &str,
    role: Role,
    school: Option<&str>,
) -> String {
    let user = store
        .user_by_email(&arbiter_core::record::text::Email::parse(email).unwrap())
        .await
        .unwrap()
        .unwrap_or_else(|| panic!("no account {email}: make it first"));
    let league = store.league(league).await.unwrap().unwrap();
    store
        .create_api_token(
            &NewApiToken {
                user: user.id,
                league: league.id,
                role,
                school: school.map(str::to_string),
                label: "a script".into(),
            },
            &Actor::system(),
        )
        .await
        .unwrap()
        .1
}

/// A migrated in-memory store holding the demo as generated on `today`, written by the system.
pub async fn demo_store(today: Date) -> Store {
    let store = Store::open_sqlite_memory().await.unwrap();
    store.migrate().await.unwrap();
    crate::write_to(&store, &crate::generate(today), &Actor::system(), |_, _| {})
        .await
        .unwrap();
    store
}

/// The PostgreSQL server `ARBITER_TEST_POSTGRES_URL` names, if it names one.
pub fn named_postgres_url() -> Option<String> {
    std::env::var("ARBITER_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

/// The PostgreSQL server to test against, or `None` to skip, saying so; never under `CI=true`,
/// so that CI cannot pass without running the PostgreSQL tests.
pub fn postgres_url() -> Option<String> {
    let url = named_postgres_url();
    if url.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "ARBITER_TEST_POSTGRES_URL is not set but CI=true: the PostgreSQL tests must run in CI \
             (.ci/run starts a server with `.ci/postgres.sh start`)"
        );
        eprintln!(
            "skipped on PostgreSQL: set ARBITER_TEST_POSTGRES_URL=postgres://USER:PASSWORD@HOST:PORT/DB to run it"
        );
    }
    url
}

/// `url` with the search path set to `schema`, so that every table lands in it.
pub fn with_search_path(url: &str, schema: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}options[search_path]={schema}")
}
