//! The end of a season through the site (issue 15): the President qualifies the divisions
//! (GT-F3), draws a four-team knockout, enters its results through the round page, decides a
//! drawn semi-final by an Armageddon game, pairs the final, and the bracket, the awards list
//! (GT-F1, GT-F3) and the API show the winner; the Vice-President publishes the end-of-season
//! report (GT-O3); the race shows in the standings while a season runs.

use arbiter_core::record::model::*;
use arbiter_core::rules::permissions::Role;
use arbiter_demo::testing::{self, LeagueSetup};
use arbiter_store::{RulesRef, Store};
use axum::http::StatusCode;
use jiff::civil::date;

use crate::common::*;

const PRESIDENT: &str = "president@gthscl.example";
const VP: &str = "vp@gthscl.example";
const QUALIFY: &str = "/leagues/gthscl/2026-27/qualification";
const PLAYOFFS: &str = "/leagues/gthscl/2026-27/playoffs";
const PLAYOFF_ROUND: &str = "/leagues/gthscl/2026-27/playoffs-2026-27/rounds";

fn roster(team: &str, rating: u32) -> Vec<Player> {
    (1..=4)
        .map(|i| Player {
            id: PlayerId(format!("{team}{i}")),
            name: format!("{} Player {i}", team.to_uppercase()),
            rating: Some(rating - 20 * i),
            ..Player::default()
        })
        .collect()
}

fn played(home: &str, away: &str, results: [GameResult; 4], pending: bool) -> Pairing {
    let outcome = if pending {
        MatchOutcome::Pending
    } else {
        MatchOutcome::Boards(
            results
                .iter()
                .enumerate()
                .map(|(i, r)| Board {
                    home_player: Some(PlayerId(format!("{home}{}", i + 1))),
                    away_player: Some(PlayerId(format!("{away}{}", i + 1))),
                    ..Board::new(*r)
                })
                .collect(),
        )
    };
    Pairing::Match(Match {
        date: None,
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome,
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

/// A division of two teams that played each other once (`pending`: not yet).
fn division(name: &str, a: &str, b: &str, pending: bool) -> Competition {
    use GameResult::{AwayWin, Draw, HomeWin};
    Competition {
        name: name.into(),
        teams: [(a, 1700), (b, 1500)]
            .iter()
            .map(|(id, r)| Team {
                id: TeamId((*id).into()),
                name: format!("{} High", id.to_uppercase()),
                school: Some(format!("{} High School", id.to_uppercase())),
                players: roster(id, *r),
            })
            .collect(),
        rounds: vec![Round {
            number: 1,
            date: Some(date(2026, 11, 2)),
            pairings: vec![played(a, b, [HomeWin, HomeWin, Draw, AwayWin], pending)],
        }],
    }
}

/// GTHSCL 2026-27 with two finished divisions: North (nor 2½-1½ nwe) and South (sou 2½-1½ swe).
async fn season(pending: bool) -> Store {
    season_ruled(pending, RulesRef::Preset("gthscl".into())).await
}

/// The same season under `rules`.
async fn season_ruled(pending: bool, rules: RulesRef) -> Store {
    let store = Store::open_sqlite_memory().await.unwrap();
    store.migrate().await.unwrap();
    let mut setup = LeagueSetup::new(testing::gthscl()).season(testing::gthscl_2026_27());
    for (slug, name, a, b) in [
        ("north", "North Division", "nor", "nwe"),
        ("south", "South Division", "sou", "swe"),
    ] {
        setup = setup.competition(
            testing::new_competition(slug, name, rules.clone()),
            division(name, a, b, pending),
        );
    }
    setup
        .account(PRESIDENT, Role::President, None)
        .account(VP, Role::VicePresident, None)
        .account("coach@nor.example", Role::Advisor, Some("NOR High School"))
        .write(&store)
        .await;
    store
}

/// The round page's fields as it offers them, with `results` typed for each match's home team
/// (`1`, `0`, `=` from the home side, board by board).
async fn enter_round(
    v: &mut Visitor,
    app: &axum::Router,
    round: u32,
    results: &[(&str, [&str; 4])],
) -> Answer {
    let uri = format!("{PLAYOFF_ROUND}/{round}/results");
    let page = v.get_ok(app, &uri).await;
    let mut fields: Vec<(String, String)> = page
        .body
        .split("name=\"v.")
        .skip(1)
        .map(|rest| {
            let name = rest.split('"').next().unwrap();
            let value = rest
                .split("value=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            (format!("v.{name}"), value.to_string())
        })
        .collect();
    for (home, boards) in results {
        page.assert_contains(&format!("name=\"r.{home}.1\""));
        for (i, r) in boards.iter().enumerate() {
            fields.push((format!("r.{home}.{}", i + 1), (*r).to_string()));
        }
    }
    let sent: Vec<(&str, &str)> = fields
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    // The scores are shown to check first (issue 32, item 19), then saved as checked.
    let check = v.post_expect(app, &uri, &sent, StatusCode::OK).await;
    let checked = checked_value(&check.body);
    let mut sent = sent;
    sent.push(("checked", &checked));
    let saved = v.post(app, &uri, &sent).await;
    assert!(
        saved.status.is_redirection(),
        "{}: {}",
        saved.status,
        saved.body
    );
    // The round's page again, saying what was saved.
    v.get_ok(app, saved.header("location")).await
}

/// The store's number of the one deciding game in force on the President's page: its
/// correction form's hidden field (a corrected game has no form).
fn game_in_force(page: &str) -> String {
    let ids: Vec<&str> = page
        .split("name=\"game\" value=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    assert_eq!(ids.len(), 1, "one game in force: {page}");
    ids[0].to_string()
}

#[tokio::test]
async fn gt_f3_the_president_qualifies_draws_and_runs_a_four_team_knockout_to_its_winner() {
    let store = season(false).await;
    let app = app_on(&store, date(2027, 3, 1));

    // The season page links the playoffs and the awards.
    let season_page = get(&app, "/leagues/gthscl/2026-27").await;
    season_page.assert_contains(&format!("href=\"{PLAYOFFS}\""));

    // An advisor may not run the playoffs (GT-F3: the President's).
    let mut coach = Visitor::signed_in(&app, "coach@nor.example").await;
    assert_eq!(coach.get(&app, QUALIFY).await.status, StatusCode::FORBIDDEN);

    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get_ok(&app, QUALIFY).await;
    for seen in [
        "NOR High",
        "SWE High",
        "Every team of the division qualifies.",
        "Draw the bracket",
    ] {
        assert!(page.body.contains(seen), "{seen}: {}", page.body);
    }
    let before = get(&app, PLAYOFFS).await;
    before.assert_contains("not drawn yet");

    // The draw: seeds 1 NOR, 2 SOU (the winners), 3 NWE, 4 SWE; 1 v 4 and 2 v 3 on 1 March.
    let drawn = president
        .post(&app, QUALIFY, &[("step", "draw"), ("starts", "2027-03-01")])
        .await;
    assert!(drawn.status.is_redirection(), "{}", drawn.body);
    let again = president
        .post_refused(&app, QUALIFY, &[("step", "draw"), ("starts", "2027-03-01")])
        .await;
    again.assert_contains("drawn already");
    let bracket = get(&app, PLAYOFFS).await;
    for seen in [
        "Semi-finals",
        "Final",
        "NOR High",
        "SWE High",
        "Bye date for all schools",
        "Wed 3 Mar 2027",
    ] {
        assert!(bracket.body.contains(seen), "{seen}: {}", bracket.body);
    }

    // The playoff's rounds are named by the bracket, on their pages and in their links.
    let round = get(&app, &format!("{PLAYOFF_ROUND}/1")).await;
    round.assert_contains("Semi-finals \u{2014} ");
    round.assert_lacks("Round 1 \u{2014} ");
    let entry = president
        .get_ok(&app, &format!("{PLAYOFF_ROUND}/1/results"))
        .await;
    entry.assert_contains(&format!(r#"<a href="{PLAYOFF_ROUND}/1">Semi-finals</a>"#));
    entry.assert_contains("Semi-finals results: ");
    // A knockout ranks nobody: the entry links its bracket, not standings or a projector.
    entry.assert_contains(&format!(r#"<a href="{PLAYOFFS}">The bracket</a>"#));
    entry.assert_lacks("<caption>Standings");
    entry.assert_lacks("/projector");

    // Round 1: NOR beat SWE 3-1; SOU v NWE drawn 2-2, level on the Berliner board count
    // (4+1 against 3+2), so an Armageddon game is awaited.
    let saved = enter_round(&mut president, &app, 1, KNOCKOUT_ROUND_1).await;
    // GT-F3: a knockout has no standings to include what was saved; its bracket goes on.
    saved.assert_contains("the bracket goes on from them (GT-F3)");
    let page = president.get(&app, QUALIFY).await;
    page.assert_contains("Enter the Armageddon game");
    // Not yet: the final waits for the drawn semi-final.
    page.assert_lacks("Pair the next round");
    // The President's task list asks for the deciding game (GT-F3), linked to the page.
    let account = president.get(&app, "/account").await;
    account.assert_contains(
        "Enter the game deciding a drawn match of round 1 of the playoffs (GT-F3)",
    );
    account.assert_contains(&format!("href=\"{QUALIFY}\""));
    // The game entered wrongly: SOU's player is put down as the winner.
    let game = president
        .post(
            &app,
            QUALIFY,
            &[
                ("step", "game"),
                ("round", "1"),
                ("home", "sou"),
                ("black", "away"),
                ("result", "1-0"),
                ("reason", "played at SOU after the match"),
            ],
        )
        .await;
    assert!(game.status.is_redirection(), "{}", game.body);
    let page = president.get(&app, QUALIFY).await;
    page.assert_contains("Round 2 is ready to pair");
    page.assert_contains("NOR High v SOU High");
    let first = game_in_force(&page.body);
    // A correction needs its reason.
    let bare = president
        .post_refused(&app, QUALIFY, &correction(&first, "1/2-1/2", " "))
        .await;
    bare.assert_contains("Say why the deciding game is corrected");
    // GT-F3: corrected by a new version: the game was drawn, and an Armageddon game drawn goes
    // to Black: NWE (away) had Black and goes through. The first entry stays on the page.
    let corrected = president
        .post(
            &app,
            QUALIFY,
            &correction(&first, "1/2-1/2", "the score sheet says the game was drawn"),
        )
        .await;
    assert!(corrected.status.is_redirection(), "{}", corrected.body);
    let page = president.get(&app, QUALIFY).await;
    for seen in [
        "Game 1: round 1, SOU High v NWE High, an Armageddon game</strong>: SOU High won",
        "Corrected by a later version.",
        "Game 2: round 1, SOU High v NWE High, an Armageddon game</strong>: drawn; Black: NWE High. Corrects game 1.",
        "the score sheet says the game was drawn",
        "NOR High v NWE High",
    ] {
        assert!(page.body.contains(seen), "{seen}: {}", page.body);
    }
    // The version corrected already is not corrected again.
    let twice = president
        .post_refused(&app, QUALIFY, &correction(&first, "0-1", "again"))
        .await;
    twice.assert_contains("corrected already");
    let bracket = get(&app, PLAYOFFS).await;
    bracket.assert_contains("drawn, so Black goes through");
    // The next round is offered on the President's page and asked on the task list.
    let account = president.get(&app, "/account").await;
    account.assert_contains("Pair round 2 of the playoffs");
    account.assert_contains("to pair: NOR High v NWE High");
    account.assert_lacks("Enter the game deciding");

    let paired = president.post(&app, QUALIFY, &[("step", "pair")]).await;
    assert!(paired.status.is_redirection(), "{}", paired.body);
    let account = president.get(&app, "/account").await;
    account.assert_lacks("Pair round");
    // Once the final is paired, a correction that would change who went through is refused.
    let page = president.get(&app, QUALIFY).await;
    let second = game_in_force(&page.body);
    let late = president
        .post_refused(
            &app,
            QUALIFY,
            &correction(&second, "1-0", "SOU's player won after all"),
        )
        .await;
    late.assert_contains("round 2 is paired already");
    // The final, NOR v NWE: NOR wins 2½-1½.
    enter_round(&mut president, &app, 2, &[("nor", ["1", "=", "1", "0"])]).await;

    let bracket = get(&app, PLAYOFFS).await;
    bracket.assert_contains("Playoff winner: NOR High</strong>. Runner-up: NWE High");
    let api = get(&app, "/api/v1/leagues/gthscl/2026-27/playoffs")
        .await
        .json();
    assert_eq!(api["bracket"]["finish"]["winner"]["team"], "nor", "{api}");
    assert_eq!(api["field"].as_array().unwrap().len(), 4, "{api}");

    // GT-F1, GT-F3: the awards list: two division winners, the playoff winner and runner-up.
    let awards = get(&app, "/leagues/gthscl/2026-27/awards").await;
    for seen in [
        "North Division winner",
        "South Division winner",
        "<strong>Playoff winner</strong>: NOR High",
        "<strong>Playoff runner-up</strong>: NWE High",
        "Trophies to buy: 4",
        "/leagues/gthscl/ledger",
    ] {
        assert!(awards.body.contains(seen), "{seen}: {}", awards.body);
    }
    let json = get(&app, "/api/v1/leagues/gthscl/2026-27/awards")
        .await
        .json();
    assert_eq!(json["awards"]["trophies"], 4, "{json}");

    // Every step is in the season's history.
    let history = president.get(&app, "/leagues/gthscl/history").await;
    for seen in [
        "drew the playoffs",
        "entered a deciding game",
        "corrected a deciding game",
        "paired a playoff round",
    ] {
        assert!(history.body.contains(seen), "{seen}: {}", history.body);
    }
}

/// Round 1 of the knockout by home team: NOR beat SWE 3-1; SOU v NWE drawn 2-2, level on the
/// Berliner board count (4+1 against 3+2).
const KNOCKOUT_ROUND_1: &[(&str, [&str; 4])] =
    &[("nor", ["1", "1", "1", "0"]), ("sou", ["1", "0", "0", "1"])];

/// The President, signed in, having drawn the playoffs to start on Mon 1 Mar 2027.
async fn president_draws(app: &axum::Router) -> Visitor {
    let mut president = Visitor::signed_in(app, PRESIDENT).await;
    let drawn = president
        .post(app, QUALIFY, &[("step", "draw"), ("starts", "2027-03-01")])
        .await;
    assert!(drawn.status.is_redirection(), "{}", drawn.body);
    president
}

/// The fields correcting deciding game `game`: NWE (away) had Black, the `result`, the `reason`.
fn correction<'a>(game: &'a str, result: &'a str, reason: &'a str) -> [(&'a str, &'a str); 5] {
    [
        ("step", "correct"),
        ("game", game),
        ("black", "away"),
        ("result", result),
        ("reason", reason),
    ]
}

/// The four-team knockout drawn, its round 1 played: NOR beat SWE 3-1, SOU v NWE drawn 2-2
/// and level on the Berliner board count, so it awaits an Armageddon game (GT-F3).
async fn knockout_with_a_drawn_semi_final() -> (Store, axum::Router, Visitor) {
    let store = season(false).await;
    let app = app_on(&store, date(2027, 3, 1));
    let mut president = president_draws(&app).await;
    enter_round(&mut president, &app, 1, KNOCKOUT_ROUND_1).await;
    (store, app, president)
}

/// Issue 32 item 17: the playoffs' competition reads as its bracket. Its address leads to the
/// bracket; its standings, crosstable, explanation, race and standings file answer with a
/// sentence and the bracket's link, never a table that ranks a knockout's teams (GT-F3).
#[tokio::test]
async fn gt_f3_a_knockout_is_read_as_its_bracket_never_as_standings_a_crosstable_or_a_race() {
    let (_store, app, _president) = knockout_with_a_drawn_semi_final().await;
    let competition = "/leagues/gthscl/2026-27/playoffs-2026-27";
    let page = get_expect(&app, competition, StatusCode::SEE_OTHER).await;
    assert_eq!(page.header("location"), PLAYOFFS);

    let bracket = get(&app, PLAYOFFS).await;
    for seen in [
        "Semi-finals",
        "Final",
        "NOR High",
        "3\u{2013}1",
        "SOU High v NWE High was drawn",
    ] {
        assert!(bracket.body.contains(seen), "{seen}: {}", bracket.body);
    }
    for unseen in ["eliminated", "crosstable", "Crosstable", "6th", "clinched"] {
        assert!(!bracket.body.contains(unseen), "{unseen}: {}", bracket.body);
    }
    // Each round's name leads to its matches, board by board; no link loops back here.
    bracket.assert_contains(&format!("href=\"{PLAYOFF_ROUND}/1\""));
    bracket.assert_lacks(&format!("href=\"{competition}\""));

    for (uri, what) in [
        (format!("{competition}/crosstable"), "not a crosstable"),
        (format!("{competition}/explain"), "not standings to explain"),
        (format!("{competition}/standings.csv"), "not standings"),
        (format!("{competition}/bulletin"), "not standings to show"),
        (
            "/api/v1/leagues/gthscl/2026-27/playoffs-2026-27/race".to_string(),
            "not a race for places",
        ),
        (
            "/api/v1/leagues/gthscl/2026-27/playoffs-2026-27/standings".to_string(),
            "not standings",
        ),
        (
            "/api/v1/leagues/gthscl/2026-27/playoffs-2026-27/crosstable".to_string(),
            "not a crosstable",
        ),
    ] {
        let answer = get(&app, &uri).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{uri}: {}",
            answer.body
        );
        assert!(answer.body.contains(what), "{uri}: {}", answer.body);
        assert!(answer.body.contains("a knockout"), "{uri}: {}", answer.body);
        assert!(answer.body.contains("GT-F3"), "{uri}: {}", answer.body);
        if !uri.starts_with("/api/") {
            assert!(
                answer.body.contains(&format!("href=\"{PLAYOFFS}\"")),
                "{uri}: {}",
                answer.body
            );
        }
    }

    // A round's page offers the bracket, not the tables.
    let round = get_ok(&app, &format!("{PLAYOFF_ROUND}/1")).await;
    round.assert_contains(&format!("href=\"{PLAYOFFS}\""));
    for unseen in ["/crosstable", "/explain", "Standings</a>"] {
        assert!(!round.body.contains(unseen), "{unseen}: {}", round.body);
    }
}

/// Issue 32 item 18: the drawn semi-final's page carries the Armageddon form for who may
/// decide it, linked from the bracket's sentence; entered there, the bracket says who goes
/// through (GT-F3). The public and an advisor see no form.
#[tokio::test]
async fn gt_f3_the_armageddon_game_is_entered_on_the_drawn_matchs_page() {
    let (_store, app, mut president) = knockout_with_a_drawn_semi_final().await;
    let drawn = format!("{PLAYOFF_ROUND}/1/matches/sou");
    let bracket = get(&app, PLAYOFFS).await;
    bracket.assert_contains(&format!(
        "<a href=\"{drawn}\">SOU High v NWE High was drawn"
    ));
    let page = president.get_ok(&app, &drawn).await;
    page.assert_contains(">Enter the Armageddon game</button>");
    page.assert_contains("name=\"back\"");
    // The match decided 3-1 has none.
    let won = president
        .get(&app, &format!("{PLAYOFF_ROUND}/1/matches/nor"))
        .await;
    won.assert_lacks("Enter the Armageddon game");
    for mut other in [
        Visitor::new(&app).await,
        Visitor::signed_in(&app, "coach@nor.example").await,
    ] {
        let seen = other.get(&app, &drawn).await;
        seen.assert_lacks("Enter the Armageddon game");
    }

    // Entered from the match page: back to it, and the bracket sends NWE through.
    let csrf = csrf_of(&page.body).unwrap();
    let entered = president
        .post_ok(
            &app,
            QUALIFY,
            &[
                ("csrf", &csrf),
                ("back", &drawn),
                ("step", "game"),
                ("round", "1"),
                ("home", "sou"),
                ("black", "away"),
                ("result", "0-1"),
                ("reason", "played at SOU after the match"),
            ],
        )
        .await;
    assert_eq!(entered.header("location"), drawn);
    let after = president.get(&app, &drawn).await;
    after.assert_lacks("Enter the Armageddon game");
    let bracket = get(&app, PLAYOFFS).await;
    bracket.assert_contains("Armageddon");
    bracket.assert_lacks("SOU High v NWE High was drawn");
}

#[tokio::test]
async fn gt_o3_the_vice_president_edits_and_publishes_the_end_of_season_report() {
    let store = season(false).await;
    let app = app_on(&store, date(2027, 3, 1));
    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get_ok(&app, "/leagues/gthscl/2026-27/reports").await;
    page.assert_contains("The product&#39;s draft");
    assert_eq!(
        get(&app, "/leagues/gthscl/2026-27/reports/end.txt")
            .await
            .status,
        StatusCode::NOT_FOUND
    );
    let draft = vp
        .post(
            &app,
            "/leagues/gthscl/2026-27/reports",
            &[
                ("moment", "end"),
                ("seen", "0"),
                ("text", "GTHSCL season ends.\r\nNOR High wins."),
                ("markdown", "# GTHSCL\n\nNOR High wins."),
                ("step", "draft"),
            ],
        )
        .await;
    assert!(draft.status.is_redirection(), "{}", draft.body);
    // A second writer on version 0 is refused: nothing lost.
    vp.post_refused(
        &app,
        "/leagues/gthscl/2026-27/reports",
        &[
            ("moment", "end"),
            ("seen", "0"),
            ("text", "x"),
            ("markdown", "x"),
            ("step", "publish"),
        ],
    )
    .await;
    let published = vp
        .post(
            &app,
            "/leagues/gthscl/2026-27/reports",
            &[
                ("moment", "end"),
                ("seen", "1"),
                ("text", "GTHSCL season ends.\nNOR High wins the league."),
                ("markdown", "# GTHSCL\n\nNOR High wins."),
                ("step", "publish"),
            ],
        )
        .await;
    assert!(published.status.is_redirection(), "{}", published.body);
    let text = get_ok(&app, "/leagues/gthscl/2026-27/reports/end.txt").await;
    assert_eq!(text.body, "GTHSCL season ends.\nNOR High wins the league.");
    let md = get(&app, "/leagues/gthscl/2026-27/reports/end.md").await;
    assert!(
        md.header("content-type").starts_with("text/markdown"),
        "{md:?}"
    );
    let html = get(&app, "/leagues/gthscl/2026-27/reports/end").await;
    html.assert_contains("NOR High wins the league.");
    // GT-O3, issue 32 item 11: the President reads the Vice-President's reports and drafts, but
    // has no form to change or publish them, and a POST is refused.
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let read = president
        .get_ok(&app, "/leagues/gthscl/2026-27/reports")
        .await;
    read.assert_contains("The Vice-President edits and publishes this report (GT-O3)");
    read.assert_contains("NOR High wins the league.");
    read.assert_lacks("<textarea");
    president
        .post_forbidden(
            &app,
            "/leagues/gthscl/2026-27/reports",
            &[
                ("moment", "end"),
                ("seen", "2"),
                ("text", "Rewritten."),
                ("markdown", "Rewritten."),
                ("step", "publish"),
            ],
        )
        .await;
}

#[tokio::test]
async fn gt_f3_the_race_shows_in_the_standings_and_on_the_team_page_while_the_season_runs() {
    let store = season(true).await;
    let app = app_on(&store, date(2026, 11, 1));
    let page = get(&app, "/leagues/gthscl/2026-27/north").await;
    page.assert_contains("The race");
    page.assert_contains("clinched a playoff place");
    let race = get(&app, "/api/v1/leagues/gthscl/2026-27/north/race")
        .await
        .json();
    assert_eq!(race["running"], true, "{race}");
    assert_eq!(
        race["race"]["teams"][0]["label"], "clinched_playoff_place",
        "{race}"
    );
    // Issue 36: every team decided exactly, and its page tells its race too.
    for t in race["race"]["teams"].as_array().unwrap() {
        assert_eq!(t["exact"], true, "{t}");
    }
    let first = race["race"]["teams"][0]["team"].as_str().unwrap();
    let team = get(
        &app,
        &format!("/leagues/gthscl/2026-27/north/teams/{first}"),
    )
    .await;
    team.assert_contains("<h2>The race</h2>");
    team.assert_contains("clinched a playoff place");
    // Qualification waits for the divisions to finish (GT-F3).
    account(&store, PRESIDENT, Role::President, None).await;
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let page = president.get(&app, QUALIFY).await;
    page.assert_contains("still to play");
}

/// GT-O3: snapshots of the product's drafts for the demo season finished (the day after its
/// regular season): the end-of-season press release and its Markdown, as the Vice-President's
/// page offers them, and the awards list (GT-F1, GT-F2).
#[tokio::test]
async fn gt_o3_the_finished_demo_seasons_reports_and_awards() {
    let today = date(2027, 2, 25);
    let store = arbiter_demo::testing::demo_store(today).await;
    account(&store, VP, Role::VicePresident, None).await;
    let app = app_on(&store, today);
    let state = arbiter_web::AppState::new(store.clone());
    let s = arbiter_web::season_end::read(&state, "gthscl", "2026-27")
        .await
        .unwrap();
    assert_eq!(s.divisions.len(), 3);
    assert!(s.running().is_empty(), "every division is finished");
    for moment in arbiter_core::season_end::media::Moment::ALL {
        let (text, markdown) = arbiter_web::season_end::reports::draft(&s, moment).unwrap();
        insta::assert_snapshot!(format!("demo_report_{}_text", moment.code()), text);
        insta::assert_snapshot!(format!("demo_report_{}_markdown", moment.code()), markdown);
    }
    // The Vice-President's page offers the same draft to edit.
    let mut vp = Visitor::signed_in(&app, VP).await;
    vp.get_ok(&app, "/leagues/gthscl/2026-27/reports").await;
    let awards = get_ok(&app, "/leagues/gthscl/2026-27/awards").await;
    insta::assert_snapshot!("demo_awards", masked(&awards.body));
}

/// A player's rated games in the playoff competition's rating list (the API's).
async fn playoff_games_of(app: &axum::Router, player: &str) -> u64 {
    let ratings = get(
        app,
        "/api/v1/leagues/gthscl/2026-27/playoffs-2026-27/ratings",
    )
    .await
    .json();
    ratings["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["player_id"] == player)
        .unwrap_or_else(|| panic!("{player} is on the playoffs' rating list: {ratings}"))["games"]
        .as_u64()
        .unwrap()
}

#[tokio::test]
async fn gt_f4_playoff_games_are_rated_unless_the_ruleset_says_rated_false() {
    for (rules, rated) in [
        (RulesRef::Preset("gthscl".into()), true),
        (
            RulesRef::Toml("extends = \"gthscl\"\n\n[playoffs]\nrated = false\n".into()),
            false,
        ),
    ] {
        let store = season_ruled(false, rules).await;
        let app = app_on(&store, date(2027, 3, 1));
        let mut president = president_draws(&app).await;
        enter_round(
            &mut president,
            &app,
            1,
            &[("nor", ["1", "1", "1", "0"]), ("sou", ["1", "1", "=", "0"])],
        )
        .await;
        // Four boards played by nor1: one game, rated or not as the ruleset says (GT-F4).
        assert_eq!(
            playoff_games_of(&app, "nor1").await,
            u64::from(rated),
            "rated: {rated}"
        );
        let bracket = get(&app, PLAYOFFS).await;
        let said = if rated {
            "Playoff games are rated (GT-F4)."
        } else {
            "Playoff games are not rated: the league&#39;s ruleset sets [playoffs] rated = false (GT-F4)."
        };
        bracket.assert_contains(said);
        // The divisions' games stay rated either way.
        let north = get(&app, "/api/v1/leagues/gthscl/2026-27/north/ratings")
            .await
            .json();
        let nor1 = north["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player_id"] == "nor1")
            .unwrap()
            .clone();
        assert_eq!(nor1["games"], 1, "{north}");
    }
}

#[tokio::test]
async fn gt_f3_a_round_robin_playoff_shows_its_crosstable_and_rounds_and_names_its_winner() {
    let rules =
        RulesRef::Toml("extends = \"gthscl\"\n\n[playoffs]\nformat = \"round_robin\"\n".into());
    let store = season_ruled(false, rules).await;
    let app = app_on(&store, date(2027, 3, 1));
    let mut president = president_draws(&app).await;
    let page = get_ok(&app, PLAYOFFS).await;
    for seen in [
        "A round robin of the 4 teams",
        "<h2>Standings</h2>",
        "class=\"cross\"",
        "Round 1",
        "Round 2",
        "Round 3",
        ": to play",
        "Bye date for all schools",
    ] {
        assert!(page.body.contains(seen), "{seen}: {}", page.body);
    }
    page.assert_lacks("Playoff winner");
    page.assert_lacks("class=\"bracket\"");

    // Every match won 4-0 by the better seed: NOR (1), SOU (2), NWE (3), SWE (4).
    let seed = |t: &str| {
        ["nor", "sou", "nwe", "swe"]
            .iter()
            .position(|x| *x == t)
            .unwrap()
    };
    let playoffs = store
        .load_competition("gthscl", "playoffs-2026-27")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(playoffs.competition.rounds.len(), 3);
    for round in &playoffs.competition.rounds {
        let results: Vec<(String, [&str; 4])> = round
            .matches()
            .map(|m| {
                let won = if seed(&m.home.0) < seed(&m.away.0) {
                    "1"
                } else {
                    "0"
                };
                (m.home.0.clone(), [won; 4])
            })
            .collect();
        let sent: Vec<(&str, [&str; 4])> = results.iter().map(|(h, b)| (h.as_str(), *b)).collect();
        let saved = enter_round(&mut president, &app, round.number, &sent).await;
        // A round robin ranks its teams: the standings under the form include the round.
        saved.assert_contains("the standings below include them");
    }
    let page = get(&app, PLAYOFFS).await;
    page.assert_contains("Playoff winner: NOR High</strong>. Runner-up: SOU High");
    let awards = get(&app, "/leagues/gthscl/2026-27/awards").await;
    for seen in [
        "<strong>Playoff winner</strong>: NOR High",
        "<strong>Playoff runner-up</strong>: SOU High",
    ] {
        assert!(awards.body.contains(seen), "{seen}: {}", awards.body);
    }
    // No knockout step is offered for a round robin.
    let qualification = president.get(&app, QUALIFY).await;
    qualification.assert_lacks("Pair the next round");
}

/// The site-relative links of a page (`href="/…"`), without their `#fragment`.
fn links_of(body: &str) -> Vec<String> {
    body.split("href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|h| h.starts_with('/') && !h.starts_with("//"))
        .map(|h| h.split('#').next().unwrap_or(h).replace("&amp;", "&"))
        .collect()
}

/// Every page reached from `start` by following the site's own links, `visitor`'s way.
async fn crawl(app: &axum::Router, visitor: &mut Visitor, start: &[&str]) -> Vec<String> {
    let mut seen: Vec<String> = start.iter().map(|s| (*s).to_string()).collect();
    let mut next = 0;
    while next < seen.len() && next < 600 {
        let uri = seen[next].clone();
        next += 1;
        if uri.starts_with("/static/") || uri.starts_with("/sign-out") {
            continue;
        }
        let page = visitor.get(app, &uri).await;
        if !page.status.is_success() {
            continue;
        }
        for link in links_of(&page.body) {
            if !seen.contains(&link) {
                seen.push(link);
            }
        }
    }
    assert!(next < 600, "the crawl stopped before the end: {seen:?}");
    seen
}

#[tokio::test]
async fn every_season_end_page_is_reached_by_the_sites_own_links() {
    let store = season(false).await;
    let app = app_on(&store, date(2027, 3, 1));
    let mut president = president_draws(&app).await;
    let mut vp = Visitor::signed_in(&app, VP).await;
    for moment in ["midway", "end"] {
        let published = vp
            .post(
                &app,
                "/leagues/gthscl/2026-27/reports",
                &[
                    ("moment", moment),
                    ("seen", "0"),
                    ("text", "GTHSCL: NOR High leads."),
                    ("markdown", "# GTHSCL\n\nNOR High leads."),
                    ("step", "publish"),
                ],
            )
            .await;
        assert!(published.status.is_redirection(), "{}", published.body);
    }

    // Anyone, from the home page: the bracket, the awards, the published reports and their
    // files; from a division's page, the playoffs and awards.
    let mut anyone = Visitor::new(&app).await;
    let reached = crawl(&app, &mut anyone, &["/"]).await;
    for page in [
        PLAYOFFS,
        "/leagues/gthscl/2026-27/awards",
        "/leagues/gthscl/2026-27/reports/midway",
        "/leagues/gthscl/2026-27/reports/end",
        "/leagues/gthscl/2026-27/reports/end.txt",
        "/leagues/gthscl/2026-27/reports/end.md",
        "/leagues/gthscl/2026-27/playoffs-2026-27",
    ] {
        assert!(
            reached.iter().any(|r| r == page),
            "{page} is an orphan: {reached:?}"
        );
    }
    let north = get(&app, "/leagues/gthscl/2026-27/north").await;
    for page in [PLAYOFFS, "/leagues/gthscl/2026-27/awards"] {
        assert!(
            north.body.contains(&format!("href=\"{page}\"")),
            "{page}: {}",
            north.body
        );
    }
    // The officers, from their account page: the President's playoffs page, the
    // Vice-President's reports page.
    let account = president.get(&app, "/account").await;
    assert!(
        links_of(&account.body).iter().any(|l| l == QUALIFY),
        "{}",
        account.body
    );
    let account = vp.get(&app, "/account").await;
    assert!(
        links_of(&account.body)
            .iter()
            .any(|l| l == "/leagues/gthscl/2026-27/reports"),
        "{}",
        account.body
    );
}

/// Issue 30: the playoffs' write paths checked only that the person was the President, so a
/// President entered and corrected the Armageddon game of his own school's match, and the
/// Vice-President, whom GT-O3 names for this case, was refused. Every deciding step of a
/// playoff match or tie of the President's school is the Vice-President's (GT-O3, GT-F3).
#[tokio::test]
async fn gt_o3_gt_f3_the_president_does_not_decide_his_own_schools_playoff_match() {
    let store = season(false).await;
    const OWN: &str = "sou-president@gthscl.example";
    account(&store, OWN, Role::President, Some("SOU High School")).await;
    let app = app_on(&store, date(2027, 3, 1));
    let mut president = president_draws(&app).await;
    // SOU v NWE drawn 2-2 and level on the Berliner count: an Armageddon game is awaited.
    enter_round(&mut president, &app, 1, KNOCKOUT_ROUND_1).await;
    let game = [
        ("step", "game"),
        ("round", "1"),
        ("home", "sou"),
        ("black", "away"),
        ("result", "1-0"),
        ("reason", "played at SOU after the match"),
    ];
    let mut own = Visitor::signed_in(&app, OWN).await;
    let refused = own.post_forbidden(&app, QUALIFY, &game).await;
    refused.assert_contains("GT-O3: the playoff match involves SOU High School, the President&#39;s own school; the Vice-President decides it.");
    let mut vp = Visitor::signed_in(&app, VP).await;
    vp.get_ok(&app, QUALIFY).await;
    let entered = vp.post(&app, QUALIFY, &game).await;
    assert!(entered.status.is_redirection(), "{}", entered.body);
    // Nor does he correct it; the Vice-President may not draw or pair (the President runs the
    // playoffs).
    let page = vp.get(&app, QUALIFY).await;
    let first = game_in_force(&page.body);
    let correction = [
        ("step", "correct"),
        ("game", first.as_str()),
        ("black", "away"),
        ("result", "1/2-1/2"),
        ("reason", "the score sheet says drawn"),
    ];
    own.post_forbidden(&app, QUALIFY, &correction).await;
    vp.post_forbidden(&app, QUALIFY, &[("step", "pair")]).await;
    let corrected = vp.post(&app, QUALIFY, &correction).await;
    assert!(corrected.status.is_redirection(), "{}", corrected.body);
}
