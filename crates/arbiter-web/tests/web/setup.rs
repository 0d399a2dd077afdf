//! The season set-up on the site (issue 12, part 1): a President makes next season, closes the
//! schools for the winter break (GT-M2), adds a school (GT-O1) and draws a division from last
//! season's, its rosters carried over at the rollover's ratings (GT-R1..GT-R3); an advisor may
//! not. Every change is in the history.

use arbiter_core::record::model::Pairing;
use arbiter_core::rules::permissions::Role;
use axum::http::StatusCode;
use jiff::civil::{Weekday, date};

use crate::common::*;

const SETUP: &str = "/leagues/gthscl/setup";
const PRESIDENT: &str = "president@gthscl.example";

/// RULES.md, "Time": the President sets the league's time zone on the set-up page; an unknown
/// zone is refused with a sentence naming it, and the league keeps the one it had.
#[tokio::test]
async fn a_president_sets_the_leagues_time_zone_and_an_unknown_one_is_refused() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, SETUP).await;
    page.assert_contains("America/New_York");
    let refused = president
        .post_refused(
            &app,
            &format!("{SETUP}/time-zone"),
            &[("time_zone", "America/Toledo")],
        )
        .await;
    refused.assert_contains("“America/Toledo” is not a time zone of the IANA tz database");
    let league = || async { store.league("gthscl").await.unwrap().unwrap() };
    assert_eq!(league().await.time_zone.name(), "America/New_York");
    president
        .post_ok(
            &app,
            &format!("{SETUP}/time-zone"),
            &[("time_zone", "America/Chicago")],
        )
        .await;
    assert_eq!(league().await.time_zone.name(), "America/Chicago");
}

/// Issue 32 (item 5): the President sets a school's postal address on the set-up page, the
/// officers' own page, linked from their account; too long an address or one with a tab is
/// refused with the sentence, what was typed kept and nothing saved; each change is in the
/// history with the address before; the team's page shows it; an advisor may not set it.
#[tokio::test]
async fn a_president_sets_a_schools_address_and_each_change_is_in_the_history() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, "coach@start.example", "Start High School").await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let home = president.get(&app, "/account").await;
    home.assert_contains(&format!("href=\"{SETUP}\""));
    let id = school(&store, "Start High School").await.id.0.to_string();
    let page = president.get(&app, SETUP).await;
    page.assert_contains(&format!("action=\"{SETUP}/schools/address\""));
    page.assert_contains("no address yet");
    let school_id = id.clone();
    let long = format!("{}\nToledo", "x".repeat(300));
    let refused = president
        .post_refused(
            &app,
            &format!("{SETUP}/schools/address"),
            &[("school", &school_id), ("address", &long)],
        )
        .await;
    refused.assert_contains(
        "The address of Start High School has 307 characters; an address may have at most 300.",
    );
    refused.assert_contains("Nothing was saved");
    let tabbed = president
        .post_refused(
            &app,
            &format!("{SETUP}/schools/address"),
            &[
                ("school", &school_id),
                ("address", "2010\tTremainsville Rd"),
            ],
        )
        .await;
    tabbed.assert_contains("U+0009 (a tab)");
    assert!(
        tabbed.body.contains("2010\tTremainsville Rd</textarea>"),
        "what was typed is kept: {}",
        tabbed.body
    );
    let addresses = || async { school(&store, "Start High School").await.address };
    assert_eq!(addresses().await, None);
    president
        .post_ok(
            &app,
            &format!("{SETUP}/schools/address"),
            &[
                ("school", &school_id),
                ("address", " 2010 Tremainsville Rd\r\nToledo, OH 43613 \r\n"),
            ],
        )
        .await;
    assert_eq!(
        addresses().await.unwrap().as_str(),
        "2010 Tremainsville Rd\nToledo, OH 43613"
    );
    let page = president.get(&app, SETUP).await;
    page.assert_contains(
        "Start High School<span class=\"reason\">, 2010 Tremainsville Rd, Toledo, OH 43613</span>",
    );
    let team = get(&app, "/leagues/gthscl/2026-27/division-a/teams/start").await;
    team.assert_contains("at Start High School, 2010 Tremainsville Rd, Toledo, OH 43613.");
    // Cleared: an empty address.
    president
        .post_ok(
            &app,
            &format!("{SETUP}/schools/address"),
            &[("school", &school_id), ("address", "  ")],
        )
        .await;
    assert_eq!(addresses().await, None);
    let history = store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap();
    let changes: Vec<_> = history
        .iter()
        .filter(|h| h.action == "set_school_address")
        .collect();
    assert_eq!(changes.len(), 2, "{changes:?}");
    assert!(
        changes
            .iter()
            .all(|h| h.actor.as_deref() == Some(PRESIDENT))
    );
    // An advisor keeps their school's teams, not the league's schools.
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    coach
        .post_forbidden(
            &app,
            &format!("{SETUP}/schools/address"),
            &[("school", &school_id), ("address", "1 Main St")],
        )
        .await;
    assert_eq!(addresses().await, None);
}

#[tokio::test]
async fn a_president_builds_next_season_from_this_one() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, "coach@start.example", "Start High School").await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let account_page = president.get(&app, "/account").await;
    account_page.assert_contains(&format!("href=\"{SETUP}\""));
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    assert_eq!(coach.get(&app, SETUP).await.status, StatusCode::FORBIDDEN);
    coach
        .post_forbidden(
            &app,
            &format!("{SETUP}/schools"),
            &[("name", "Coach's Own High")],
        )
        .await;

    // A season: a bad date is named; then it is made.
    let bad = president
        .post_refused(
            &app,
            &format!("{SETUP}/seasons"),
            &[
                ("name", "2027-28"),
                ("starts_on", "2027-13-04"),
                ("ends_on", "2028-02-23"),
            ],
        )
        .await;
    bad.assert_contains("“2027-13-04” is not a date");
    assert!(
        bad.body.contains("value=\"2028-02-23\""),
        "what was typed is kept"
    );
    president
        .post_ok(
            &app,
            &format!("{SETUP}/seasons"),
            &[
                ("name", "2027-28"),
                ("starts_on", "2027-10-04"),
                ("ends_on", "2028-02-23"),
            ],
        )
        .await;

    // GT-M2: the winter break, and a mistaken closure withdrawn.
    for (from, to, reason) in [
        ("2027-12-20", "2028-01-02", "Winter break"),
        ("2027-10-06", "", "Teacher day"),
    ] {
        president
            .post_ok(
                &app,
                &format!("{SETUP}/closures"),
                &[
                    ("season", "2027-28"),
                    ("from", from),
                    ("to", to),
                    ("reason", reason),
                ],
            )
            .await;
    }
    let season = store.seasons(league_id(&store).await).await.unwrap();
    let next = season.iter().find(|s| s.slug == "2027-28").unwrap();
    let closures = store.closures(next.id).await.unwrap();
    let teacher = closures.iter().find(|c| c.reason == "Teacher day").unwrap();
    president
        .post_ok(
            &app,
            &format!("{SETUP}/closures/withdraw"),
            &[
                ("season", "2027-28"),
                ("closure", &teacher.id.to_string()),
                ("reason", "The schools are open that day after all."),
            ],
        )
        .await;

    // GT-O1: a school joins once.
    president
        .post_ok(
            &app,
            &format!("{SETUP}/schools"),
            &[("name", "Maumee High School")],
        )
        .await;
    let twice = president
        .post_refused(
            &app,
            &format!("{SETUP}/schools"),
            &[("name", "Maumee High School")],
        )
        .await;
    twice.assert_contains("already has a school named “Maumee High School”");

    let page = president.get_ok(&app, SETUP).await;
    for said in [
        "2027-28",
        "Closed: Winter break: Mon 20 Dec 2027 to Sun 2 Jan 2028",
        "<del>Teacher day: Wed 6 Oct 2027</del>",
        "Maumee High School",
        "Division A — 2026-27",
    ] {
        assert!(page.body.contains(said), "{said}: {}", page.body);
    }

    // The division: filled in from this season's, a school added, previewed, created.
    let divisions = format!("{SETUP}/divisions");
    let filled = president
        .post_expect(
            &app,
            &divisions,
            &[("from", "2026-27/division-a"), ("step", "fill")],
            StatusCode::OK,
        )
        .await;
    filled.assert_contains("Start High School,Start Spartans");
    let teams = "school,team\nScott High School,Scott Bulldogs\nStart High School,Start Spartans\n\
                 Clay High School,Clay Eagles\nMaumee High School,\n";
    let form = |step: &'static str| {
        vec![
            ("season", "2027-28"),
            ("from", "2026-27/division-a"),
            ("carry", "on"),
            ("name", "Division A"),
            ("slug", "division-a-2027"),
            ("rules", "gthscl"),
            ("cycles", "double"),
            ("spacing", "packed"),
            ("teams", teams),
            ("step", step),
        ]
    };
    let same_twice = president
        .post_refused(
            &app,
            &divisions,
            &[
                ("season", "2027-28"),
                ("name", "Division A"),
                ("rules", "gthscl"),
                (
                    "teams",
                    "school,team\nClay High School,Eagles\nWaite High School,eagles\n",
                ),
                ("step", "preview"),
            ],
        )
        .await;
    same_twice.assert_contains("line 3, team: “eagles” is named on line 2 too");
    let preview = president
        .post_expect(&app, &divisions, &form("preview"), StatusCode::OK)
        .await;
    for said in [
        "Maumee High School (Maumee High School)",
        "Round 1 · Mon 4 Oct 2027",
        "Start Spartans: 4 players from Start Spartans (2026-27)",
        "Create the division and its schedule",
    ] {
        assert!(preview.body.contains(said), "{said}: {}", preview.body);
    }
    assert!(
        preview.body.contains("Scott Bulldogs: 4 players from"),
        "the school's only team carries its roster"
    );
    let created = president.post_ok(&app, &divisions, &form("create")).await;
    assert_eq!(
        created.headers["location"],
        "/leagues/gthscl/2027-28/division-a-2027"
    );

    let stored = store
        .load_competition("gthscl", "division-a-2027")
        .await
        .unwrap()
        .unwrap();
    let c = &stored.competition;
    assert_eq!(c.teams.len(), 4);
    assert_eq!(c.rounds.len(), 6, "four teams twice round");
    for r in &c.rounds {
        let day = r.date.unwrap();
        assert!(
            matches!(day.weekday(), Weekday::Monday | Weekday::Wednesday),
            "{day}"
        );
        assert!(
            !(date(2027, 12, 20)..=date(2028, 1, 2)).contains(&day),
            "{day} is in the winter break"
        );
        assert!(r.pairings.iter().all(|p| matches!(p, Pairing::Match(_))));
    }
    assert!(
        c.rounds.iter().any(|r| r.date == Some(date(2027, 10, 6))),
        "the withdrawn closure does not close"
    );
    let start = c.teams.iter().find(|t| t.name == "Start Spartans").unwrap();
    assert_eq!(start.players.len(), 4);
    assert!(
        c.teams
            .iter()
            .find(|t| t.name == "Maumee High School")
            .unwrap()
            .players
            .is_empty()
    );
    // GT-R1..GT-R3: each carried rating is the rollover of the player's rating at the end of
    // this season, as core's engine rates the season; not the rating they started it with.
    let last = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let rated =
        arbiter_core::rating::rated_games::rate(&last.competition, &last.rules, &last.rules.rating)
            .unwrap();
    let arbiter_core::rating::System::League(elo) = rated.replay.system else {
        panic!("gthscl rates by the league's Elo");
    };
    for p in &start.players {
        let (_, _, summary) = rated.rows().find(|(_, id, _)| **id == p.id).unwrap();
        let next = arbiter_core::rating::rollover::next_season(&summary.after, &elo);
        assert_eq!(
            (p.rating, p.provisional),
            (Some(next.rating), next.provisional),
            "{}",
            p.name
        );
    }
    let started = &last.competition.teams[1].players;
    assert!(
        start
            .players
            .iter()
            .zip(started)
            .any(|(now, then)| now.rating != then.rating),
        "the ratings were rolled over, not copied"
    );

    let history = president.get(&app, "/leagues/gthscl/history").await;
    for said in [
        "closed the schools",
        "withdrew the closure",
        "added the school",
        "created the season",
    ] {
        assert!(history.body.contains(said), "{said}");
    }
}

async fn league_id(store: &arbiter_store::Store) -> arbiter_store::LeagueId {
    store.league("gthscl").await.unwrap().unwrap().id
}

/// GT-O2, issue 32 item 7: a teams file's school the league does not know is refused at the
/// file's own line, with the known school it is close to ("did you mean"), together with the
/// file's other mistakes; a new school is added only when its line says so. The file may be
/// uploaded as well as pasted.
#[tokio::test]
async fn gt_o2_a_misspelt_school_is_refused_with_the_school_meant_and_a_new_one_is_said() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let divisions = format!("{SETUP}/divisions");
    let page = president.get(&app, SETUP).await;
    assert!(
        page.body.contains("type=\"file\" name=\"teams_file\"") && page.body.contains("new_school"),
        "{}",
        page.body
    );
    let fields = |teams: &'static str| {
        vec![
            ("season", "2026-27"),
            ("name", "Metro"),
            ("rules", "gthscl"),
            ("cycles", "single"),
            ("teams", teams),
            ("step", "preview"),
        ]
    };
    let misspelt =
        "school,team,number\nScott High School,,x\nClay Hihg School,\nGenoa Area High School,\n";
    let refused = president
        .post_refused(&app, &divisions, &fields(misspelt))
        .await;
    for said in [
        "line 2, number: “x” is not a number in the Berger tables",
        "line 3: no school is called “Clay Hihg School”; did you mean Clay High School? To add a new school, write yes in the line&#39;s new_school column",
        "line 4: no school is called “Genoa Area High School”. To add a new school",
    ] {
        assert!(refused.body.contains(said), "{said}: {}", refused.body);
    }
    // Said to be new, the school is added; the file uploaded reads as pasted.
    let said_new = "school,team,new_school\nScott High School,,\nclay high school,\nGenoa Area High School,,yes\n";
    let preview = president
        .post_with_file(
            &app,
            &divisions,
            &[
                ("season", "2026-27"),
                ("name", "Metro"),
                ("rules", "gthscl"),
                ("cycles", "single"),
                ("step", "preview"),
            ],
            ("teams_file", "teams.csv", said_new.as_bytes()),
        )
        .await;
    preview.assert_status(StatusCode::OK);
    for said in [
        "Clay High School (Clay High School)",
        "Genoa Area High School (Genoa Area High School, a new school)",
    ] {
        assert!(preview.body.contains(said), "{said}: {}", preview.body);
    }
}
