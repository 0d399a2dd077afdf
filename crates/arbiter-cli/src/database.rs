//! The commands that work on the database: `serve`, `demo`, `import` into a league and
//! `export` out of one. They open the store, hand the work to core, the store and the web
//! site, and report; no rule lives here.

use std::io::IsTerminal;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use arbiter_core::record::model::{Competition, MatchOutcome, Pairing};
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_store::{
    Actor, ImportPlace, LeagueKind, NewCompetition, NewLeague, NewSeason, RulesRef, SeasonChoice,
    Store,
};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Where the data lives: a SQLite file (the default) or a PostgreSQL server.
#[derive(Debug, Clone, Args)]
pub struct Database {
    /// The SQLite database file (created if missing).
    #[arg(
        long,
        value_name = "PATH",
        default_value = "arbiter.db",
        conflicts_with = "database_url"
    )]
    pub db: PathBuf,
    /// A database address instead of a file: `postgres://USER:PASSWORD@HOST/DATABASE` or
    /// `sqlite://PATH`.
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
}

impl Database {
    fn address(&self) -> String {
        self.database_url
            .clone()
            .unwrap_or_else(|| self.db.display().to_string())
    }

    pub(crate) async fn open(&self) -> Result<Store> {
        let address = self.address();
        let store = Store::open(&address)
            .await
            .with_context(|| format!("cannot open the database {address}"))?;
        store
            .migrate()
            .await
            .with_context(|| format!("cannot bring the database {address} up to date"))?;
        Ok(store)
    }
}

/// What `arbiter import` stores a file under.
#[derive(Debug, Clone)]
pub struct Target {
    pub league: String,
    /// A new league's name, when the officer gave one.
    pub league_name: Option<String>,
    pub season: Option<String>,
    pub competition: Option<String>,
}

pub(crate) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// `arbiter serve`: the web site and the JSON API on `bind`.
pub fn serve(
    bind: SocketAddr,
    base_url: Option<String>,
    trust_proxy: Vec<std::net::IpAddr>,
    limits: arbiter_web::Limits,
    (now, remind_at): (Option<jiff::Timestamp>, Option<jiff::civil::Time>),
    cache_bytes: usize,
    db: &Database,
) -> Result<()> {
    crate::logs::init();
    let mailer = arbiter_mail::Mailer::from_env()?;
    let base_url = base_url.unwrap_or_else(|| format!("http://{}", browsable(bind)));
    runtime()?.block_on(async {
        let store = db.open().await?;
        eprintln!(
            "Arbiter: serving {} on http://{bind}/ as {base_url}",
            db.address()
        );
        eprintln!("Arbiter: {}", mailer.describe());
        let mut state = arbiter_web::AppState::new(store)
            .with_mail(mailer, &base_url)
            .with_trusted_proxies(trust_proxy)
            .with_reminders_at(remind_at)
            .with_cache_bytes(cache_bytes);
        if let Some(at) = remind_at {
            eprintln!(
                "Arbiter: GT-P2's reminders are mailed daily at {} in each league's time zone (--remind-at)",
                at.strftime("%H:%M")
            );
        }
        if let Some(start) = now {
            eprintln!("Arbiter: the site's clock starts at {start} (--now)");
            state = state.with_clock_from(start);
        }
        arbiter_web::serve(state, bind, limits)
            .await
            .with_context(|| format!("the web server on {bind} stopped"))
    })
}

/// `arbiter remind`: GT-P2's reminders for the matches whose result is due tomorrow.
pub fn remind(today: Option<jiff::civil::Date>, base_url: &str, db: &Database) -> Result<()> {
    crate::logs::init();
    let mailer = arbiter_mail::Mailer::from_env()?;
    runtime()?.block_on(async {
        let store = db.open().await?;
        let mut state = arbiter_web::AppState::new(store).with_mail(mailer, base_url);
        // Without --today, each league's day is the clock's in its own zone (RULES.md, "Time").
        if let Some(day) = today {
            state = state.with_today(day);
        }
        let (sent, failed) = arbiter_web::remind(&state)
            .await
            .map_err(|e| anyhow::anyhow!("the reminders could not be read: {e}"))?;
        let due = today.and_then(|d| d.tomorrow().ok()).map_or_else(
            || "tomorrow in each league's time zone".to_string(),
            |d| d.to_string(),
        );
        println!(
            "{sent} reminder{} of results due {due} sent; {}",
            if sent == 1 { "" } else { "s" },
            state.mailer().describe()
        );
        if failed > 0 {
            anyhow::bail!(
                "{failed} reminder{} could not be sent (see the log)",
                if failed == 1 { "" } else { "s" }
            );
        }
        Ok(())
    })
}

/// What `arbiter result …` was asked, besides the step.
#[derive(Debug)]
pub struct OfficerAsked {
    pub address: arbiter_web::MatchAddress,
    pub by: String,
    pub reason: Option<String>,
    /// GT-M5: the officer read the warning that the step drops a team.
    pub acknowledge_drop: bool,
    pub today: Option<jiff::civil::Date>,
    /// The moment, for an event's deadlines (AS-11); `None`: the clock's.
    pub now: Option<jiff::Timestamp>,
    pub base_url: String,
    pub database: Database,
}

/// `arbiter result forfeit|late-report|adjudicate|enter|lineup`: an officer's step on one match, through
/// the site's own write path, mailing the schools as the site does.
pub fn officer_step(step: &arbiter_web::OfficerStep, ask: &OfficerAsked) -> Result<()> {
    crate::logs::init();
    let mailer = arbiter_mail::Mailer::from_env()?;
    runtime()?.block_on(async {
        let store = ask.database.open().await?;
        let mut state = arbiter_web::AppState::new(store).with_mail(mailer, &ask.base_url);
        if let Some(today) = ask.today {
            state = state.with_today(today);
        }
        if let Some(now) = ask.now {
            state = state.with_now(now);
        }
        let done = arbiter_web::officer_step(
            &state,
            &ask.by,
            &ask.address,
            step,
            ask.reason.as_deref(),
            ask.acknowledge_drop,
        )
        .await;
        state.mail_sent().await;
        match done {
            Ok(said) => {
                println!("{said}");
                Ok(())
            }
            Err(why) => anyhow::bail!("{why}\nNothing was stored."),
        }
    })
}

/// `arbiter user add`: a league's first account.
pub fn user_add(new: &crate::users::NewUser, db: &Database) -> Result<()> {
    let mailer = arbiter_mail::Mailer::from_env()?;
    runtime()?.block_on(async {
        let store = db.open().await?;
        for line in crate::users::add(&store, &mailer, new).await?.lines {
            println!("{line}");
        }
        Ok(())
    })
}

/// `arbiter token add`: the secret alone on stdout, for a script to capture; what was made on
/// stderr.
pub fn token_add(new: &crate::users::NewToken, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let (secret, said) = crate::users::token_add(&store, new).await?;
        println!("{secret}");
        eprintln!("{said}");
        Ok(())
    })
}

/// `arbiter demo`: a fresh demo database, seeded from `arbiter_demo::generate`, then served.
pub fn demo(
    bind: SocketAddr,
    db: &Path,
    on: Option<jiff::civil::Date>,
    now: Option<jiff::Timestamp>,
) -> Result<()> {
    crate::logs::init();
    // The clock is read here, at the edge; the demo itself is pure.
    let utc_date = |t: jiff::Timestamp| jiff::tz::Offset::UTC.to_datetime(t).date();
    let today = on
        .or(now.map(utc_date))
        .unwrap_or_else(|| utc_date(jiff::Timestamp::now()));
    // A day or moment given sets the site's clock too: the event's deadlines (AS-11..AS-13)
    // are counted from it, not from the system's.
    let clock =
        now.or_else(|| on.and_then(|d| jiff::tz::Offset::UTC.to_timestamp(d.at(0, 0, 0, 0)).ok()));
    let base_url = format!("http://{}", browsable(bind));
    // The demo's mail (invitations, reset links) is written beside its database.
    let mail_dir = db.with_extension("mail");
    let mailer = arbiter_mail::Mailer::folder(&mail_dir);
    runtime()?.block_on(async {
        let store = fresh_demo_database(db, today).await?;
        println!("Arbiter demo: open {base_url}/");
        for league in store.leagues().await? {
            let new = crate::users::NewUser {
                email: format!("president@{}.example", league.slug),
                name: Some(format!("{} President", league.name)),
                role: "president".into(),
                league: league.slug.clone(),
                school: None,
                base_url: base_url.clone(),
            };
            if let Some(link) = crate::users::add(&store, &mailer, &new).await?.link {
                println!(
                    "  {} President ({}): set the password at {link}",
                    league.name, new.email
                );
            }
            // The ASTC's arbiter, who sets the event's days and runs its rounds (AS-1, AS-11).
            if league.slug == "astc" {
                let arbiter = crate::users::NewUser {
                    email: "arbiter@astc.example".to_string(),
                    name: Some(format!("{} Arbiter", league.name)),
                    role: "arbiter".into(),
                    ..new.clone()
                };
                if let Some(link) = crate::users::add(&store, &mailer, &arbiter).await?.link {
                    println!(
                        "  {} Arbiter ({}): set the password at {link}",
                        league.name, arbiter.email
                    );
                }
            }
            // A club captain of the team Swiss, who reads the table and colours (issue 32).
            if league.slug == "lake-erie" {
                let captain = crate::users::NewUser {
                    email: "captain@toledo.example".to_string(),
                    name: Some("Toledo Chess Club Captain".to_string()),
                    role: "advisor".into(),
                    school: Some("Toledo Chess Club".to_string()),
                    ..new.clone()
                };
                if let Some(link) = crate::users::add(&store, &mailer, &captain).await?.link {
                    println!(
                        "  {} captain of Toledo Chess Club ({}): set the password at {link}",
                        league.name, captain.email
                    );
                }
            }
            // GTHSCL's Treasurer, whom the demo's fee ledger names as recording it (GT-O2).
            if league.slug == "gthscl" {
                // The Secretary, who sends the schedule to the schools (GT-O3), and two
                // schools' advisors, who get it.
                let others = [
                    ("secretary@gthscl.example", "Secretary", "secretary", None),
                    (
                        "coach@start.example",
                        "advisor of Start High School",
                        "advisor",
                        Some("Start High School"),
                    ),
                    (
                        "coach@st-ursula.example",
                        "advisor of St. Ursula Academy",
                        "advisor",
                        Some("St. Ursula Academy"),
                    ),
                ];
                for (email, what, role, school) in others {
                    let person = crate::users::NewUser {
                        email: email.to_string(),
                        name: Some(format!("{} {what}", league.name)),
                        role: role.into(),
                        school: school.map(str::to_string),
                        ..new.clone()
                    };
                    if let Some(link) = crate::users::add(&store, &mailer, &person).await?.link {
                        println!(
                            "  {} {what} ({email}): set the password at {link}",
                            league.name
                        );
                    }
                }
                let treasurer = crate::users::NewUser {
                    email: arbiter_demo::gthscl::TREASURER.to_string(),
                    name: Some(format!("{} Treasurer", league.name)),
                    role: "treasurer".into(),
                    ..new
                };
                if let Some(link) = crate::users::add(&store, &mailer, &treasurer).await?.link {
                    println!(
                        "  {} Treasurer ({}): set the password at {link}",
                        league.name, treasurer.email
                    );
                }
            }
        }
        println!(
            "  Mail (invitations, reset links) is written to {}/",
            mail_dir.display()
        );
        let mut state = arbiter_web::AppState::new(store).with_mail(mailer, &base_url);
        // A day given is the site's today in every league; a moment alone moves the clock, and
        // each league's today is the clock's day in its own zone (RULES.md, "Time").
        if on.is_some() {
            state = state.with_today(today);
        }
        if let Some(start) = clock {
            state = state.with_clock_from(start);
        }
        arbiter_web::serve(state, bind, arbiter_web::Limits::default())
            .await
            .with_context(|| format!("the web server on {bind} stopped"))
    })
}

/// An address a browser can open: a server bound to every interface is reached on loopback.
fn browsable(bind: SocketAddr) -> SocketAddr {
    if bind.ip().is_unspecified() {
        SocketAddr::new(Ipv4Addr::LOCALHOST.into(), bind.port())
    } else {
        bind
    }
}

/// Deletes `path` (and its WAL files) and writes the demo leagues into a new database there.
pub async fn fresh_demo_database(path: &Path, today: jiff::civil::Date) -> Result<Store> {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let mut p = path.as_os_str().to_owned();
        p.push(suffix);
        let p = PathBuf::from(p);
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot delete the old demo database {}; delete it yourself or give another file with --db",
                        p.display()
                    )
                });
            }
        }
    }
    let db = Database {
        db: path.to_path_buf(),
        database_url: None,
    };
    // The demo's rows are stamped on its day (RULES.md, "Time"): `--today` moves the stamps too.
    let clock = match jiff::tz::Offset::UTC.to_timestamp(today.at(12, 0, 0, 0)) {
        Ok(noon)
            if today
                != jiff::tz::Offset::UTC
                    .to_datetime(jiff::Timestamp::now())
                    .date() =>
        {
            arbiter_store::Clock::starting_at(noon)
        }
        _ => arbiter_store::Clock::System,
    };
    let store = db.open().await?.with_clock(clock);
    let demo = arbiter_demo::generate(today);
    let total: usize = demo
        .leagues
        .iter()
        .flat_map(|l| &l.seasons)
        .map(|s| s.competitions.len())
        .sum();
    let bar = progress(total as u64, "demo");
    arbiter_demo::write_to(&store, &demo, &Actor::system(), |league, competition| {
        bar.set_message(format!("{league} {competition}"));
        bar.inc(1);
    })
    .await
    .context("cannot store the demo league")?;
    bar.finish_and_clear();
    Ok(store)
}

/// A progress bar on stderr, hidden when stderr is not a terminal (a pipe, a log, CI).
fn progress(len: u64, prefix: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{prefix} {spinner} [{bar:24}] {pos}/{len} {wide_msg} {elapsed}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_prefix(prefix.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// A league created by an import is named, not called by its slug: as the officer says, else
/// by its ruleset's description (a league's own file names the league; FIDE's team preset
/// describes only the system), else by the competition's name.
fn league_name(
    target: &Target,
    rules: &arbiter_core::Ruleset,
    competition: &Competition,
) -> String {
    if let Some(name) = target
        .league_name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        return name.to_string();
    }
    let fide = arbiter_core::Ruleset::preset("fide-team");
    let describes_a_league = fide.is_none_or(|f| f.description != rules.description);
    if describes_a_league && !rules.description.trim().is_empty() {
        rules.description.trim().to_string()
    } else {
        competition.name.clone()
    }
}

/// `arbiter import FILE --league SLUG`: stores a competition file (competition JSON or TRF)
/// in a league's season, creating the league and the season when they are new.
pub fn import(
    file: &Path,
    target: &Target,
    rules_from: &crate::load::RulesFrom,
    db: &Database,
) -> Result<()> {
    let bar = progress(4, "import");
    bar.set_message(format!("reading {}", file.display()));
    let loaded = crate::load::competition(file, None, rules_from)?;
    bar.suspend(|| {
        for w in &loaded.warnings {
            eprintln!("warning: {w}");
        }
    });
    bar.inc(1);
    // A TRF file's own tie-break list (202) becomes part of the stored rules.
    let rules = if loaded.tiebreaks.is_empty() {
        loaded.rules.clone()
    } else {
        let criteria = crate::with_tiebreaks(&loaded.rules.criteria, &loaded.tiebreaks);
        loaded
            .rules
            .with(|r| r.criteria = criteria)
            .map_err(|why| anyhow!("{}: {why}", file.display()))?
    };
    let rules_ref = rules_ref(&rules).with_context(|| {
        format!(
            "{}: the file's rules cannot be stored with the competition",
            file.display()
        )
    })?;
    let competition = &loaded.competition;
    let slug = match &target.competition {
        Some(s) => s.clone(),
        None => arbiter_core::record::text::slug(&competition.name).ok_or_else(|| {
            anyhow!(
                "{}: the competition's name `{}` gives no address; name one with --competition SLUG",
                file.display(),
                competition.name
            )
        })?,
    };
    bar.inc(1);
    runtime()?.block_on(async {
        bar.set_message(format!("opening {}", db.address()));
        let store = db.open().await?;
        let by = Actor::system();
        let (first, last) = date_span(competition);
        let new_season = |slug: String| NewSeason {
            name: slug.clone(),
            slug,
            starts_on: first,
            ends_on: last,
        };
        let place = ImportPlace {
            league: NewLeague {
                slug: target.league.clone(),
                name: league_name(target, &rules, competition),
                kind: LeagueKind::League,
                description: String::new(),
                time_zone: arbiter_core::record::zone::Zone::utc(),
            },
            // Without --season: the league's latest season, or one named by the year.
            season: match &target.season {
                Some(slug) => SeasonChoice::Named(new_season(slug.clone())),
                None => SeasonChoice::LatestOr(new_season(
                    first.map_or_else(|| "main".to_string(), |d| d.year().to_string()),
                )),
            },
        };
        bar.inc(1);
        bar.set_message(format!(
            "storing {} teams, {} matches",
            competition.teams.len(),
            competition.matches().count()
        ));
        let where_to = match &target.season {
            Some(season) => format!("{}/{season}/{slug}", target.league),
            None => format!("{}/…/{slug}", target.league),
        };
        let imported = store
            .import_competition_into(
                &place,
                &NewCompetition {
                    slug: slug.clone(),
                    name: competition.name.clone(),
                    rules: rules_ref,
                },
                competition,
                &by,
            )
            .await
            .with_context(|| {
                format!(
                    "cannot store {} as {where_to}; nothing was written",
                    file.display()
                )
            })?;
        bar.inc(1);
        bar.finish_and_clear();
        if let Some(l) = &imported.created_league {
            eprintln!("created the league {} ({})", l.slug, l.name);
        }
        if let Some(s) = &imported.created_season {
            eprintln!("created the season {}/{}", imported.league.slug, s.slug);
        }
        let (league, season, record) = (
            &imported.league.slug,
            &imported.season.slug,
            &imported.competition.slug,
        );
        eprintln!(
            "{}: {} teams, {} rounds, {} results stored as {league}/{season}/{record} (/leagues/{league}/{season}/{record})",
            file.display(),
            competition.teams.len(),
            competition.rounds.len(),
            results(competition),
        );
        Ok(())
    })
}

/// `arbiter export --league SLUG --competition SLUG`: the stored competition, as it is now.
pub fn load_stored(
    league: &str,
    competition: &str,
    db: &Database,
) -> Result<(Competition, Ruleset)> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        match store.load_competition(league, competition).await? {
            Some(s) => Ok((std::sync::Arc::unwrap_or_clone(s.competition), s.rules)),
            None => bail!(
                "the database {} has no competition {competition} in the league {league}; `arbiter import` puts one there",
                db.address()
            ),
        }
    })
}

/// Matches with a result (played, forfeited).
fn results(c: &Competition) -> usize {
    c.rounds
        .iter()
        .flat_map(|r| &r.pairings)
        .filter(|p| matches!(p, Pairing::Match(m) if m.outcome != MatchOutcome::Pending))
        .count()
}

fn date_span(c: &Competition) -> (Option<jiff::civil::Date>, Option<jiff::civil::Date>) {
    let dates = c.rounds.iter().filter_map(|r| r.date);
    (dates.clone().min(), dates.max())
}

/// The rules as the store keeps them: a preset's name, or a TOML text that reads back to them
/// (the competition file's writer chooses, and writes the TOML).
fn rules_ref(rules: &Ruleset) -> Result<RulesRef> {
    use arbiter_formats::competition_json::{WrittenRules, written_rules};
    Ok(match written_rules(rules).map_err(|e| anyhow!("{e}"))? {
        WrittenRules::Preset(name) => RulesRef::Preset(name),
        WrittenRules::Toml(toml) => RulesRef::Toml(toml),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::rules::ruleset::PresetsOnly;

    #[test]
    fn presets_are_stored_by_name() {
        let astc = Ruleset::preset("astc").unwrap();
        assert_eq!(rules_ref(&astc).unwrap(), RulesRef::Preset("astc".into()));
    }

    #[test]
    fn changed_rules_are_stored_as_toml_that_reads_back() {
        let r = Ruleset::preset("gthscl")
            .unwrap()
            .with(|r| {
                r.boards = 3;
                r.criteria.truncate(2);
            })
            .unwrap();
        let RulesRef::Toml(text) = rules_ref(&r).unwrap() else {
            panic!("not TOML")
        };
        assert_eq!(Ruleset::from_toml("t", &text, &PresetsOnly).unwrap(), r);
    }
}
