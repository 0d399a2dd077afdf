//! Players added from a roster file on the site (issue 12, part 1): every mistake listed and
//! nothing written, then a preview, then the players on their teams' rosters and in the history.

use arbiter_core::rules::permissions::Role;
use axum::http::StatusCode;

use crate::common::*;

const ROSTERS: &str = "/leagues/gthscl/rosters";
const PRESIDENT: &str = "president@gthscl.example";

#[tokio::test]
async fn an_officer_previews_a_roster_file_then_adds_its_players() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, "coach@start.example", "Start High School").await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let account_page = president.get(&app, "/account").await;
    account_page.assert_contains(&format!("href=\"{ROSTERS}\""));
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    assert_eq!(coach.get(&app, ROSTERS).await.status, StatusCode::FORBIDDEN);

    let competition = "2026-27/division-a";
    let mistakes =
        "name,school,rating\nAna Diaz,Start High School,abc\nAna Diaz,Start High School,\n";
    let refused = president
        .post_refused(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", mistakes),
                ("step", "preview"),
            ],
        )
        .await;
    refused.assert_contains("line 2, rating: “abc” is not a rating");
    refused.assert_contains("line 3, name: Ana Diaz of Start High School is on line 2 too");

    let clean = "name,school,grade\nAna Diaz,Start High School,10\nNowhere Kid,Nowhere High,9\n";
    let refused = president
        .post(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", clean),
                ("step", "preview"),
            ],
        )
        .await;
    refused.assert_contains("Nowhere High has no team in Division A");

    let clean = "name,school,grade\nAna Diaz,Start High School,10\n";
    let preview = president
        .post_expect(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", clean),
                ("step", "preview"),
            ],
            StatusCode::OK,
        )
        .await;
    preview.assert_contains("line 2: Ana Diaz (1200N) joins Start Spartans as start-5");
    preview.assert_contains("Add this player");
    let team = "/leagues/gthscl/2026-27/division-a/teams/start";
    assert!(
        !get(&app, team).await.body.contains("Ana Diaz"),
        "a preview adds nothing"
    );

    let added = president
        .post_expect(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", clean),
                ("step", "add"),
            ],
            StatusCode::OK,
        )
        .await;
    added.assert_contains("1 player added to Division A");
    assert!(get(&app, team).await.body.contains("Ana Diaz"));
    let history = store
        .history(&arbiter_store::HistoryFilter::default())
        .await
        .unwrap();
    assert!(
        history
            .iter()
            .any(|h| h.action == "add_player" && h.after.as_ref().unwrap()["name"] == "Ana Diaz")
    );
}

/// Issue 32: the `team` column names a team as the division shows it (`Start Spartans`), its
/// id still accepted; a name it does not show is answered with the school's team names.
#[tokio::test]
async fn the_team_column_takes_the_name_the_division_shows() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let file = "name,school,team,grade\nGia Romero,Genoa Area High School,Start Spartans,10\nHal Brook,Clay High School,clay,10\n";
    let preview = president
        .post_expect(
            &app,
            ROSTERS,
            &[
                ("competition", "2026-27/division-a"),
                ("text", file),
                ("step", "preview"),
            ],
            StatusCode::OK,
        )
        .await;
    assert!(
        preview.body.contains("line 2: Gia Romero")
            && preview.body.contains("joins Start Spartans"),
        "{}",
        preview.body
    );
    assert!(
        preview.body.contains("line 3: Hal Brook") && preview.body.contains("joins Clay Eagles"),
        "{}",
        preview.body
    );
    let typo = "name,school,team,grade\nHal Brook,Clay High School,Clay Eagle,10\n";
    let refused = president
        .post(
            &app,
            ROSTERS,
            &[
                ("competition", "2026-27/division-a"),
                ("text", typo),
                ("step", "preview"),
            ],
        )
        .await;
    refused.assert_contains("line 2, team: Division A has no team named “Clay Eagle”; the teams of Clay High School are Clay Eagles");
}

/// Issue 32 item 7: a roster file's mistakes and the rules' are listed at once, each at the
/// file's own line however the file ends its lines (a pasted form's are CRLF); the same file
/// uploaded reads the same, and adds its players.
#[tokio::test]
async fn every_mistake_of_a_roster_file_is_listed_at_once_at_the_files_own_line() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    // Line 3 has a bad rating (the reader's), line 5 a school with no team (the rules'), after
    // a blank line 4.
    let file = "name,school,rating\r\nAna Diaz,Start High School,1400\r\nBen Cole,Start High School,abc\r\n\r\nCal Dorn,Nowhere High,\r\n";
    let fields = [
        ("competition", "2026-27/division-a"),
        ("text", file),
        ("step", "preview"),
    ];
    let refused = president.post_refused(&app, ROSTERS, &fields).await;
    let rating = refused
        .body
        .find("line 3, rating: “abc” is not a rating")
        .unwrap_or_else(|| panic!("{}", refused.body));
    let school = refused
        .body
        .find("line 5, school: Nowhere High has no team in Division A")
        .unwrap_or_else(|| panic!("{}", refused.body));
    assert!(rating < school, "in the order of the file's lines");

    // The same file uploaded is read the same.
    let uploaded = president
        .post_with_file(
            &app,
            ROSTERS,
            &[("competition", "2026-27/division-a"), ("step", "preview")],
            ("file", "rosters.csv", file.as_bytes()),
        )
        .await;
    uploaded.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    uploaded.assert_contains("line 5, school: Nowhere High has no team");
    // The form takes a file, and works without a script.
    let page = president.get(&app, ROSTERS).await;
    assert!(
        page.body.contains("enctype=\"multipart/form-data\"")
            && page.body.contains("type=\"file\" name=\"file\""),
        "{}",
        page.body
    );
    let clean = "name,school\nZed Quinn,Start High School\n";
    let added = president
        .post_with_file(
            &app,
            ROSTERS,
            &[("competition", "2026-27/division-a"), ("step", "add")],
            ("file", "rosters.csv", clean.as_bytes()),
        )
        .await;
    added.assert_status(StatusCode::OK);
    added.assert_contains("1 player added to Division A");
}

/// GT-R6: a student of a school with no team joins the closest team named in the file; the
/// preview says so, and the team's page and the rosters keep her own school.
#[tokio::test]
async fn gt_r6_a_student_of_a_school_with_no_team_joins_the_closest_team() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let competition = "2026-27/division-a";
    let file = "name,school,team,grade\nGia Romero,Genoa Area High School,start,10\n";
    let send =
        |step: &'static str| vec![("competition", competition), ("text", file), ("step", step)];
    let preview = president
        .post_expect(&app, ROSTERS, &send("preview"), StatusCode::OK)
        .await;
    preview.assert_contains("joins Start Spartans as start-5 (GT-R6: a student of Genoa Area High School, whose school has no team, joins the closest team)");
    preview.assert_contains("Add this player");
    president
        .post_expect(&app, ROSTERS, &send("add"), StatusCode::OK)
        .await;
    let team = get(&app, "/leagues/gthscl/2026-27/division-a/teams/start").await;
    team.assert_contains(
        "Gia Romero</a> <span class=\"reason\">of Genoa Area High School (GT-R6)</span>",
    );
    // A student of a school that has a team is refused, with the rule.
    let own = "name,school,team,grade\nHal Brook,Start High School,start,10\nIvo Lund,Clay High School,start,10\n";
    let refused = president
        .post(
            &app,
            ROSTERS,
            &[
                ("competition", competition),
                ("text", own),
                ("step", "preview"),
            ],
        )
        .await;
    let schools = store
        .season_schools(
            store
                .load_competition("gthscl", "division-a")
                .await
                .unwrap()
                .unwrap()
                .season
                .id,
        )
        .await
        .unwrap();
    assert!(
        schools.iter().any(|s| s == "Start High School"),
        "{schools:?}"
    );
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.body.contains("line 3, team:") && refused.body.contains("GT-R6"),
        "{}",
        refused.body
    );
}

/// Issue 12: a player's entry is corrected or withdrawn from a day, never deleted; a mistake is
/// named and nothing changes; an advisor may not.
#[tokio::test]
async fn an_officer_withdraws_a_player_and_their_games_stay() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, "coach@start.example", "Start High School").await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let listed = president
        .get_ok(&app, &format!("{ROSTERS}?competition=2026-27%2Fdivision-a"))
        .await;
    assert!(
        listed.body.contains("The rosters") && listed.body.contains("Dee Park"),
        "{}",
        listed.body
    );
    let change = |rating: &'static str, withdrawn: &'static str| {
        vec![
            ("competition", "2026-27/division-a"),
            ("player", "start1"),
            ("name", "Dee Park"),
            ("rating", rating),
            ("withdrawn", withdrawn),
            ("reason", "Moved to Cleveland over the break."),
        ]
    };
    let refused = president
        .post_refused(&app, &format!("{ROSTERS}/player"), &change("abc", ""))
        .await;
    refused.assert_contains("Dee Park: “abc” is not a rating");
    let mut coach = Visitor::signed_in(&app, "coach@start.example").await;
    coach
        .post_forbidden(
            &app,
            &format!("{ROSTERS}/player"),
            &change("1600", "2027-01-04"),
        )
        .await;

    let before = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let done = president
        .post_ok(
            &app,
            &format!("{ROSTERS}/player"),
            &change("1600", "2027-01-04"),
        )
        .await;
    let after = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let dee = after.competition.teams[1]
        .players
        .iter()
        .find(|p| p.id.0 == "start1")
        .unwrap();
    assert_eq!(dee.withdrawn, Some(jiff::civil::date(2027, 1, 4)));
    assert_eq!(
        after.competition.rounds, before.competition.rounds,
        "the games stay"
    );
    let page = president
        .get(&app, done.headers["location"].to_str().unwrap())
        .await;
    page.assert_contains("withdrawn Mon 4 Jan 2027");
    let history = president.get(&app, "/leagues/gthscl/history").await;
    history.assert_contains("Moved to Cleveland over the break.");
}
