//! One player, one person (issue 31, item 6): a player of two competitions of a season is one
//! person by the link an officer makes, never by name. GT-M15 and AS-3 refuse the lineup or the
//! link before the match, on the page and through the API, each with its sentence; GT-M12
//! refuses a lineup that leaves a higher-ranked player out as it refuses one that says it
//! withdraws them, and keeps the withdrawal with the match after the result.

use arbiter_core::record::model::{
    Board, Competition, GameResult, Match, MatchOutcome, Pairing, PersonId, Player, PlayerId,
    Round, Team, TeamId,
};
use arbiter_core::rules::permissions::Role;
use arbiter_demo::testing::{self, LeagueSetup};
use arbiter_store::{Actor, EventRoundStart, NewEvent, ReportSeen, RulesRef, Store};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use jiff::civil::date;
use std::time::Duration;

use crate::common::*;

const PRESIDENT: &str = "president@gthscl.example";
const SCOTT: &str = "coach@scott.example";
const ROSTERS: &str = "/leagues/gthscl/rosters";
/// Division B's round 1: Scott B at home to Westside, Thursday 12 November 2026.
const SCOTT_B_MATCH: &str = "/leagues/gthscl/2026-27/division-b/rounds/1/matches/scott-b";

/// The page's text as read: the entities askama writes for `'`, `"`, `&`, `<` and `>` undone.
fn text(body: &str) -> String {
    body.replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&lt;", "<")
        .replace("&#60;", "<")
        .replace("&gt;", ">")
        .replace("&#62;", ">")
        .replace("&amp;", "&")
        .replace("&#38;", "&")
}

fn player(id: &str, name: &str, rating: u32) -> Player {
    Player {
        id: PlayerId(id.into()),
        name: name.into(),
        rating: Some(rating),
        ..Player::default()
    }
}

fn team(id: &str, name: &str, school: &str, players: Vec<Player>) -> Team {
    Team {
        id: TeamId(id.into()),
        name: name.into(),
        school: Some(school.into()),
        players,
    }
}

fn pending(home: &str, away: &str) -> Pairing {
    Pairing::Match(Match {
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome: MatchOutcome::Pending,
        date: None,
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

/// Division B of the same season: Scott High School's second team, whose roster lists a Zoë
/// O'Brien (as the A team's first board is named), at home to Westside on 12 November.
fn division_b() -> Competition {
    Competition {
        name: "Division B".into(),
        teams: vec![
            team(
                "scott-b",
                "Scott B",
                "Scott High School",
                vec![
                    player("sb1", "Pat Quinn", 1450),
                    player("sb2", "Ray Moss", 1400),
                    player("sb3", "Sal Diaz", 1350),
                    player("sb4", "Tom Bell", 1300),
                    player("sb5", "Zoë O'Brien", 1650),
                ],
            ),
            team(
                "west",
                "Westside",
                "Westside High School",
                (1..=4)
                    .map(|i| player(&format!("w{i}"), &format!("West Player {i}"), 1400))
                    .collect(),
            ),
        ],
        rounds: vec![Round {
            number: 1,
            date: Some(date(2026, 11, 12)),
            pairings: vec![pending("scott-b", "west")],
        }],
    }
}

/// The test league with Division B beside Division A, the President and Scott's advisor, each
/// with an API token; the site on Friday 6 November 2026.
async fn two_divisions() -> (Store, axum::Router, String) {
    let store = store().await;
    let league = store.league("gthscl").await.unwrap().unwrap();
    let season = store.seasons(league.id).await.unwrap().remove(0);
    store
        .import_competition(
            season.id,
            &testing::new_competition(
                "division-b",
                "Division B",
                RulesRef::Preset("gthscl".into()),
            ),
            &division_b(),
            &Actor::system(),
        )
        .await
        .unwrap();
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, SCOTT, "Scott High School").await;
    let token = api_token(&store, SCOTT, Role::Advisor, Some("Scott High School")).await;
    let app = app_on(&store, date(2026, 11, 6));
    (store, app, token)
}

fn lineup_form(ids: &[&str]) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = ids
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("board_{}", i + 1), (*p).to_string()))
        .collect();
    f.push(("version".into(), "0".into()));
    f
}

async fn name_lineup(v: &mut Visitor, app: &axum::Router, to: &str, ids: &[&str]) -> Answer {
    let fields = lineup_form(ids);
    let f: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    v.post(app, to, &f).await
}

async fn post_json(app: &axum::Router, uri: &str, token: &str, body: serde_json::Value) -> Answer {
    send(
        app,
        Request::post(uri)
            .header("content-type", "application/json")
            .header("authorization", format!("Bearer {token}"))
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await
}

/// `v` names `ids` as the lineup at `to`, failing unless it is refused (422): the page's text.
async fn refused_lineup(v: &mut Visitor, app: &axum::Router, to: &str, ids: &[&str]) -> String {
    let refused = name_lineup(v, app, to, ids).await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    text(&refused.body)
}

/// The API's form of the lineup page `to`: `ids` named on version 0, with `token`.
async fn api_lineup(app: &axum::Router, to: &str, token: &str, ids: &[&str]) -> Answer {
    let body = serde_json::json!({"version": 0, "boards": ids});
    post_json(app, &format!("/api/v1{to}"), token, body).await
}

/// The rules and messages of a refused lineup's API answer.
fn problems(a: &Answer) -> Vec<(String, String)> {
    a.json()["error"]["problems"]
        .as_array()
        .unwrap_or_else(|| panic!("no problems: {}", a.body))
        .iter()
        .map(|p| {
            (
                p["rule"].as_str().unwrap_or_default().to_string(),
                p["message"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// GT-M15, by the person an officer links: the Zoë O'Brien of Scott B is a person of her own
/// until the President links her with Division A's first board (Scott's A team, for which she
/// played rounds 1 and 2); from then a Scott B lineup naming her is refused on the page and
/// through the API, and one leaving her out withdraws no one (GT-M12).
#[tokio::test]
async fn gt_m15_a_lineup_naming_a_player_bound_to_the_school_s_team_in_another_division_is_refused()
{
    let (_store, app, token) = two_divisions().await;
    let mut coach = Visitor::signed_in(&app, SCOTT).await;
    let with_her = ["sb5", "sb1", "sb2", "sb3"];
    let without = ["sb1", "sb2", "sb3", "sb4"];

    // Not linked: one name is not one person; and leaving her (1650) out is GT-M12's business.
    let said = refused_lineup(
        &mut coach,
        &app,
        &format!("{SCOTT_B_MATCH}/lineups/home"),
        &without,
    )
    .await;
    assert!(
        said.contains("GT-M12: Zoë O'Brien (1650) is left out while Tom Bell (1300) plays board 4"),
        "{said}"
    );

    // The President sees the suggestion (the same name and school) and links them.
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let rosters = president
        .get_ok(&app, &format!("{ROSTERS}?competition=2026-27/division-b"))
        .await;
    let said = text(&rosters.body);
    assert!(
        said.contains(
            "Maybe the same person as Zoë O'Brien, Zoë O'Brien <&> \"Q\" (Division A): the same name and school (Scott High School)"
        ),
        "{said}"
    );
    president
        .post_ok(
            &app,
            &format!("{ROSTERS}/person"),
            &[
                ("competition", "2026-27/division-b"),
                ("player", "sb5"),
                ("same_as", "division-a/scott1"),
                ("reason", "the same student: Scott's advisor confirmed it"),
            ],
        )
        .await;
    let rosters = president
        .get(&app, &format!("{ROSTERS}?competition=2026-27/division-b"))
        .await;
    assert!(
        text(&rosters.body)
            .contains("One person with Zoë O'Brien, Zoë O'Brien <&> \"Q\" (Division A)"),
        "{}",
        rosters.body
    );

    // Named for Scott B: refused on the page, the sentence with its rule, board and remedy.
    let said = refused_lineup(
        &mut coach,
        &app,
        &format!("{SCOTT_B_MATCH}/lineups/home"),
        &with_her,
    )
    .await;
    assert!(
        said.contains(
            "Board 1: GT-M15: Zoë O'Brien first played for Zoë O'Brien <&> \"Q\" (Division A, 2026-11-02) and stays with that team this season; a player may not play the top 4 boards of the school's team in another division: name another player for board 1"
        ),
        "{said}"
    );
    // And through the API, with the same sentence.
    let api = api_lineup(
        &app,
        &format!("{SCOTT_B_MATCH}/lineups/home"),
        &token,
        &with_her,
    )
    .await;
    api.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let p = problems(&api);
    assert!(
        p.iter().any(|(rule, m)| rule == "GT-M15"
            && m.starts_with(
                "Zoë O'Brien first played for Zoë O'Brien <&> \"Q\" (Division A, 2026-11-02)"
            )),
        "{p:?}"
    );
    // Without her the lineup stands: she may not play for Scott B, so is not left out.
    let saved = name_lineup(
        &mut coach,
        &app,
        &format!("{SCOTT_B_MATCH}/lineups/home"),
        &without,
    )
    .await;
    saved.assert_status(StatusCode::SEE_OTHER);
}

/// GT-M12: leaving Zoë O'Brien (1676 by round 4's day) out of Scott's lineup is refused as saying Scott withdraws
/// her is, while Start forfeits no board; once Start names three players, both stand, the
/// withdrawal is kept with the lineup, and after the result the match page still says it.
#[tokio::test]
async fn gt_m12_a_silent_and_a_declared_withdrawal_follow_one_rule_and_stay_after_the_result() {
    let store = store().await;
    advisor(&store, SCOTT, "Scott High School").await;
    advisor(&store, "coach@start.example", "Start High School").await;
    let token = api_token(&store, SCOTT, Role::Advisor, Some("Scott High School")).await;
    let app = app_on(&store, date(2026, 11, 13));
    let round4 = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";
    let mut scott = Visitor::signed_in(&app, SCOTT).await;
    let mut start = Visitor::signed_in(&app, "coach@start.example").await;
    let full = name_lineup(
        &mut start,
        &app,
        &format!("{round4}/lineups/home"),
        &["start1", "start2", "start3", "start4"],
    )
    .await;
    full.assert_status(StatusCode::SEE_OTHER);

    let three = ["scott2", "scott3", "scott4"];
    let silent = refused_lineup(&mut scott, &app, &format!("{round4}/lineups/away"), &three).await;
    assert!(
        silent.contains(
            "GT-M12: Zoë O'Brien (1676) is left out while Cy Young (1239) plays board 3, by ratings as of 2026-11-16; a team plays its strongest players and leaves out a higher-ranked one only when the opponent forfeits a board: name them in place of a lower-ranked player"
        ),
        "{silent}"
    );
    let mut declared = lineup_form(&three);
    declared.push(("withdrawn".into(), "scott1".into()));
    let f: Vec<(&str, &str)> = declared
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let refused = scott
        .post_refused(&app, &format!("{round4}/lineups/away"), &f)
        .await;
    assert!(
        text(&refused.body).contains(
            "GT-M12: Zoë O'Brien is withdrawn so that a lower-ranked player plays, but the opponent leaves no board empty"
        ),
        "{}",
        refused.body
    );
    let api = api_lineup(&app, &format!("{round4}/lineups/away"), &token, &three).await;
    api.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        problems(&api)
            .iter()
            .any(|(rule, m)| rule == "GT-M12" && m.starts_with("Zoë O'Brien (1676) is left out")),
        "{}",
        api.body
    );

    // Start forfeits board 4: the lineup that leaves her out stands, kept as withdrawing her.
    let fields: Vec<(String, String)> = lineup_form(&["start1", "start2", "start3"])
        .into_iter()
        .map(|(k, v)| {
            if k == "version" {
                (k, "1".into())
            } else {
                (k, v)
            }
        })
        .collect();
    let f: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    start
        .post_ok(&app, &format!("{round4}/lineups/home"), &f)
        .await;
    let api = api_lineup(&app, &format!("{round4}/lineups/away"), &token, &three).await;
    api.assert_status(StatusCode::CREATED);
    assert_eq!(
        api.json()["withdrawn"],
        serde_json::json!(["scott1"]),
        "{}",
        api.body
    );

    // The result: Start's board 4 forfeited. The match page keeps the withdrawal.
    let stored = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let m = stored.match_id(4, &TeamId("start".into())).unwrap();
    let seen = ReportSeen::of(
        &store.result_versions(m).await.unwrap(),
        &store.result_reviews(m).await.unwrap(),
    );
    let board = |home: Option<&str>, away: &str, result| Board {
        home_player: home.map(|p| PlayerId(p.into())),
        away_player: Some(PlayerId(away.into())),
        ..Board::new(result)
    };
    let outcome = MatchOutcome::Boards(vec![
        board(Some("start1"), "scott2", GameResult::Draw),
        board(Some("start2"), "scott3", GameResult::Draw),
        board(Some("start3"), "scott4", GameResult::Draw),
        Board::new(GameResult::AwayWinByForfeit),
    ]);
    store
        .record_result(m, seen, &outcome, &Actor::system(), None)
        .await
        .unwrap();
    // The day after the match, the public reads the match page.
    let page = get_ok(&app_on(&store, date(2026, 11, 17)), round4).await;
    assert!(
        text(&page.body).contains(
            "Zoë O'Brien <&> \"Q\" withdrew Zoë O'Brien so that a lower-ranked player played (GT-M12)."
        ),
        "{}",
        page.body
    );
}

const ASTC_PRESIDENT: &str = "president@astc.example";
const ASTC_ARBITER: &str = "arbiter@astc.example";

/// A six-player state team.
fn state_team(id: &str, name: &str, school: &str, first: Player) -> Team {
    let mut players = vec![first];
    players
        .extend((2..=6).map(|i| player(&format!("{id}-{i}"), &format!("{name} Player {i}"), 1500)));
    team(id, name, school, players)
}

/// An ASTC event whose Secondary Open and Secondary Girls share 7 December 2026: their rounds
/// have no dates, the event's round times say when they are played (AS-3). Bea Lim is one
/// person on both Victorian teams (the files name her so); Ana Diaz of the Girls is a person of
/// her own, as is the Open's Ana Diaz. The President and the arbiter have API tokens; the site
/// runs at 08:00 in the hall, before the lineups are due.
async fn event() -> (Store, axum::Router, String) {
    let store = Store::open_sqlite_memory().await.unwrap();
    store.migrate().await.unwrap();
    let bea = |id: &str| Player {
        person: Some(PersonId("bea-lim".into())),
        ..player(id, "Bea Lim", 1900)
    };
    let championship = |name: &str, vic: Team, nsw: Team| Competition {
        name: name.into(),
        teams: vec![vic, nsw],
        rounds: vec![Round {
            number: 1,
            date: None,
            pairings: vec![pending(&vic_id(name), &nsw_id(name))],
        }],
    };
    let open = championship(
        "Secondary Open",
        state_team("vic", "Victoria", "Melbourne High", bea("vic-1")),
        state_team(
            "nsw",
            "New South Wales",
            "Sydney Boys",
            player("nsw-1", "Cal Ng", 1900),
        ),
    );
    let mut girls = championship(
        "Secondary Girls",
        state_team("gvic", "Victoria Girls", "Melbourne High", bea("gvic-1")),
        state_team(
            "gnsw",
            "New South Wales Girls",
            "Sydney Girls",
            player("gnsw-1", "Di Ho", 1900),
        ),
    );
    let mut open = open;
    open.teams[0].players[5] = player("vic-6", "Ana Diaz", 1400);
    girls.teams[0].players[5] = player("gvic-6", "Ana Diaz", 1400);
    let mut setup = LeagueSetup::new(testing::astc()).season(testing::astc_2026());
    for (slug, c) in [("secondary-open", &open), ("secondary-girls", &girls)] {
        setup = setup.competition(
            testing::new_competition(slug, &c.name, RulesRef::Preset("astc".into())),
            c.clone(),
        );
    }
    let written = setup
        .account(ASTC_PRESIDENT, Role::President, None)
        .account(ASTC_ARBITER, Role::Arbiter, None)
        .write(&store)
        .await;
    let ids: Vec<_> = written.competitions.iter().map(|c| c.id).collect();
    store
        .record_event(
            written.seasons[0].id,
            0,
            &NewEvent {
                name: "ASTC 2026".into(),
                host: arbiter_core::event::field::State::parse("SA").unwrap(),
                venue: "Adelaide Convention Centre".into(),
                utc_offset_minutes: 630,
                rounds: ids
                    .iter()
                    .map(|id| EventRoundStart {
                        competition: *id,
                        round: 1,
                        starts_at: date(2026, 12, 7).at(9, 30, 0, 0),
                    })
                    .collect(),
            },
            &Actor::system(),
        )
        .await
        .unwrap();
    let mut tokens = Vec::new();
    for (email, role) in [
        (ASTC_PRESIDENT, Role::President),
        (ASTC_ARBITER, Role::Arbiter),
    ] {
        tokens.push(testing::api_token(&store, "astc", email, role, None).await);
    }
    let hall = jiff::tz::Offset::from_seconds(630 * 60)
        .unwrap()
        .to_timestamp(date(2026, 12, 7).at(8, 0, 0, 0))
        .unwrap();
    let app = arbiter_web::router(
        arbiter_web::AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(date(2026, 12, 7))
            .with_now(hall)
            .with_mail(quiet_mail(), "http://localhost:8080"),
    );
    (store, app, tokens.join(" "))
}

fn vic_id(name: &str) -> String {
    if name.contains("Girls") {
        "gvic"
    } else {
        "vic"
    }
    .into()
}

fn nsw_id(name: &str) -> String {
    if name.contains("Girls") {
        "gnsw"
    } else {
        "nsw"
    }
    .into()
}

/// AS-3: the Girls' Ana Diaz linked with the Open's is refused on the rosters page and through
/// the API, the two championships sharing the event's 7 December (their rounds have no dates).
#[tokio::test]
async fn as_3_a_link_that_puts_one_person_in_girls_and_open_teams_on_one_day_is_refused() {
    let (_store, app, tokens) = event().await;
    let president_token = tokens.split(' ').next().unwrap().to_string();
    let mut president = Visitor::signed_in(&app, ASTC_PRESIDENT).await;
    let rosters = president
        .get_ok(
            &app,
            "/leagues/astc/rosters?competition=2026/secondary-girls",
        )
        .await;
    assert!(
        text(&rosters.body).contains(
            "Maybe the same person as Ana Diaz, Victoria (Secondary Open): the same name and school (Melbourne High)"
        ),
        "{}",
        rosters.body
    );
    let sentence = "AS-3: Ana Diaz is on Victoria's roster in Secondary Open, and Secondary Girls (2026-12-07 to 2026-12-07) and Secondary Open (2026-12-07 to 2026-12-07) share dates; a player plays for a team in only one of them, so Ana Diaz of Victoria Girls cannot be the same person: withdraw one of them from their roster before its first day, or link another player.";
    let refused = president
        .post_refused(
            &app,
            "/leagues/astc/rosters/person",
            &[
                ("competition", "2026/secondary-girls"),
                ("player", "gvic-6"),
                ("same_as", "secondary-open/vic-6"),
                ("reason", "the same student"),
            ],
        )
        .await;
    assert!(text(&refused.body).contains(sentence), "{}", refused.body);
    let api = post_json(
        &app,
        "/api/v1/leagues/astc/2026/secondary-girls/players/gvic-6/person",
        &president_token,
        serde_json::json!({"same_person_as": "secondary-open/vic-6", "reason": "the same student"}),
    )
    .await;
    api.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    api.assert_contains(sentence);
    // Nothing was linked.
    let rosters = president
        .get(
            &app,
            "/leagues/astc/rosters?competition=2026/secondary-girls",
        )
        .await;
    assert!(
        !text(&rosters.body).contains("One person with Ana Diaz"),
        "{}",
        rosters.body
    );
}

/// AS-3: Bea Lim, one person on both Victorian teams, named for the Girls on the day the Open
/// plays: refused on the match page and through the API, with the sentence.
#[tokio::test]
async fn as_3_a_lineup_naming_a_player_of_an_overlapping_competition_is_refused() {
    let (_store, app, tokens) = event().await;
    let arbiter_token = tokens.split(' ').nth(1).unwrap().to_string();
    let girls_match = "/leagues/astc/2026/secondary-girls/rounds/1/matches/gvic";
    let with_bea = ["gvic-1", "gvic-2", "gvic-3", "gvic-4"];
    let mut arbiter = Visitor::signed_in(&app, ASTC_ARBITER).await;
    let to = format!("{girls_match}/lineups/home");
    let said = refused_lineup(&mut arbiter, &app, &to, &with_bea).await;
    let sentence = "Bea Lim is also on Victoria's roster in Secondary Open, and Secondary Girls (2026-12-07 to 2026-12-07) and Secondary Open (2026-12-07 to 2026-12-07) share dates; a player plays for a team in only one of them: name another player for board 1, or withdraw them from one roster";
    assert!(
        said.contains(&format!("Board 1: AS-3: {sentence}")),
        "{said}"
    );
    let api = api_lineup(
        &app,
        &format!("{girls_match}/lineups/home"),
        &arbiter_token,
        &with_bea,
    )
    .await;
    api.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        problems(&api)
            .iter()
            .any(|(rule, m)| rule == "AS-3" && m == sentence),
        "{}",
        api.body
    );
    // Without her the Girls' lineup stands (AS-9: any four of the roster play).
    let saved = name_lineup(
        &mut arbiter,
        &app,
        &format!("{girls_match}/lineups/home"),
        &["gvic-2", "gvic-3", "gvic-4", "gvic-5"],
    )
    .await;
    saved.assert_status(StatusCode::SEE_OTHER);
}
