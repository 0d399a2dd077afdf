//! Issue 34 item 6: a league that is not a school league. A club league's rules (a file that
//! extends `fide-team`: no entry fee, no playoffs, no report deadlines) are what its pages
//! offer: its officers' account page has no fee ledger, no playoffs and no GT-P2 reminders, and
//! none of its words cite the GTHSCL's rules.

use arbiter_core::rules::permissions::Role;
use arbiter_demo::testing::{self, LeagueSetup};
use arbiter_store::{LeagueKind, NewLeague, RulesRef};

use crate::common::*;

const CLUB_RULES: &str = r#"
extends = "fide-team"
name = "Krajský přebor"
description = "Krajský přebor družstev, Jihomoravský kraj"
conduct = "advisors"
"#;

#[tokio::test]
async fn a_club_leagues_account_page_offers_what_its_rules_have_and_cites_no_school_rule() {
    let store = store().await;
    LeagueSetup::new(NewLeague {
        slug: arbiter_core::record::text::slug("Krajský přebor").unwrap(),
        name: "Krajský přebor".into(),
        kind: LeagueKind::League,
        description: "Club teams of the South Moravian region".into(),
        time_zone: arbiter_core::record::zone::Zone::named("Europe/Prague").unwrap(),
    })
    .season(testing::gthscl_2026_27())
    .competition(
        testing::new_competition("skupina-a", "Skupina A", RulesRef::Toml(CLUB_RULES.into())),
        division(),
    )
    .write(&store)
    .await;
    testing::account(
        &store,
        "krajsky-prebor",
        "predseda@kp.example",
        Role::President,
        None,
    )
    .await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, "predseda@kp.example").await;
    let account = president.get_ok(&app, "/account").await;
    let a = &account.body;
    assert!(a.contains("/leagues/krajsky-prebor"), "{a}");
    for absent in [
        "Fee ledger",
        "Playoffs",
        "value=\"deadline_tomorrow\"",
        "GT-",
    ] {
        assert!(!a.contains(absent), "{absent}: {a}");
    }
    // The home page offers it no playoffs or awards: its rules have none.
    let home = get(&app, "/").await;
    assert!(
        home.body
            .contains("/leagues/krajsky-prebor/2026-27/skupina-a"),
        "{}",
        home.body
    );
    assert!(
        !home
            .body
            .contains("/leagues/krajsky-prebor/2026-27/playoffs"),
        "{}",
        home.body
    );
    assert!(
        home.body.contains("/leagues/gthscl/2026-27/playoffs"),
        "{}",
        home.body
    );
    // Its standings page names the league, not its slug.
    let standings = get(&app, "/leagues/krajsky-prebor/2026-27/skupina-a").await;
    standings.assert_contains("Krajský přebor");
}

/// Issue 34 item 5: a club league's match page cites the league's own rules or none: no GTHSCL
/// ID, though its results follow the same report workflow (entered, confirmed, decided).
#[tokio::test]
async fn a_club_leagues_match_page_cites_no_rule_of_the_school_league() {
    let store = store().await;
    LeagueSetup::new(NewLeague {
        slug: "krajsky-prebor".into(),
        name: "Krajský přebor".into(),
        kind: LeagueKind::League,
        description: "Club teams of the South Moravian region".into(),
        time_zone: arbiter_core::record::zone::Zone::named("Europe/Prague").unwrap(),
    })
    .season(testing::gthscl_2026_27())
    .competition(
        testing::new_competition(
            "skupina-a",
            "Skupina A",
            RulesRef::Toml(format!(
                "{CLUB_RULES}\n[report]\nenter_within_days = 2\n[cite]\nreport = \"SŘ 21\"\n"
            )),
        ),
        division(),
    )
    .write(&store)
    .await;
    let app = app(&store);
    for page in [
        "/leagues/krajsky-prebor/2026-27/skupina-a/rounds/1/matches/scott",
        "/leagues/krajsky-prebor/2026-27/skupina-a/rounds/2/matches/start",
        "/leagues/krajsky-prebor/2026-27/skupina-a/rounds/4/matches/start",
    ] {
        let body = get(&app, page).await.body;
        assert!(!body.contains("GT-"), "{page}: {body}");
    }
    // The same page under GTHSCL's rules still cites them.
    let gthscl = get(
        &app,
        "/leagues/gthscl/2026-27/division-a/rounds/2/matches/start",
    )
    .await;
    assert!(gthscl.body.contains("GT-"), "{}", gthscl.body);
}
