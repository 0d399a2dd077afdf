//! Notices by mail (issue 13, part 9): a result entered goes to the visitors (GT-P2), a dispute
//! to the home team and the officers who decide it, never to the President whose school plays
//! (GT-O3), a decision and a move to both schools (GT-M2); a person who stops a kind on the
//! account page gets no more of it; the reminder goes the day before a result is due.

use std::path::{Path, PathBuf};
use std::time::Duration;

use arbiter_core::rules::permissions::Role;
use arbiter_mail::Mailer;
use arbiter_store::Store;
use arbiter_web::{AppState, router};
use axum::Router;
use axum::http::StatusCode;
use jiff::civil::date;

use crate::common::*;

const MATCH: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";
const HOME: &str = "coach@start.example";
const VISITOR: &str = "coach@scott.example";
const VP: &str = "vp@gthscl.example";
/// GT-O3: the President's own school, Start, plays round 4's match at home.
const PRESIDENT: &str = "president@start.example";

pub fn mail_dir() -> PathBuf {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("arbiter-notices-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn setup(day: jiff::civil::Date) -> (Store, Router, PathBuf) {
    let store = store().await;
    advisor(&store, HOME, "Start High School").await;
    advisor(&store, VISITOR, "Scott High School").await;
    account(&store, VP, Role::VicePresident, None).await;
    account(
        &store,
        PRESIDENT,
        Role::President,
        Some("Start High School"),
    )
    .await;
    let dir = mail_dir();
    let app = router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(day)
            .with_mail(Mailer::folder(&dir), "https://league.example.org"),
    );
    (store, app, dir)
}

/// Each mail in the folder: (its recipient as the file names it, its text with quoted-printable
/// soft breaks undone).
pub fn mails(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let to = name.splitn(3, '-').nth(2).unwrap().trim_end_matches(".eml");
            let text = std::fs::read_to_string(&path)
                .unwrap()
                .replace("=\r\n", "")
                .replace("=3D", "=");
            (to.replace("_at_", "@"), text)
        })
        .collect();
    out.sort();
    out
}

/// Waits (up to five seconds) for `n` mails: they are sent after the answer.
pub async fn wait_for(dir: &Path, n: usize) -> Vec<(String, String)> {
    for _ in 0..100 {
        let m = mails(dir);
        if m.len() >= n {
            return m;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    mails(dir)
}

fn to(mails: &[(String, String)]) -> Vec<&str> {
    mails.iter().map(|(t, _)| t.as_str()).collect()
}

/// The home advisor enters round 4's result, every board won by the home team (GT-P2).
async fn home_enters_four_nil(app: &Router) {
    let mut home = Visitor::signed_in(app, HOME).await;
    let page = home.get(app, MATCH).await;
    let marker = "name=\"version\" value=\"";
    let i = page.body.find(marker).unwrap() + marker.len();
    let version = page.body[i..i + page.body[i..].find('"').unwrap()].to_string();
    let mut f = vec![("version".to_string(), version)];
    for n in 1..=4 {
        f.push((format!("home_{n}"), format!("start{n}")));
        f.push((format!("away_{n}"), format!("scott{n}")));
        f.push((format!("result_{n}"), "1-0".into()));
    }
    let fields: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    home.post_ok(app, &format!("{MATCH}/result"), &fields).await;
}

#[tokio::test]
async fn gt_p2_gt_o3_each_step_is_told_to_those_who_act_next() {
    let (_store, app, dir) = setup(date(2026, 11, 16)).await;
    home_enters_four_nil(&app).await;

    // GT-P2: the visitors are told, not the home advisor who entered it.
    let sent = wait_for(&dir, 1).await;
    assert_eq!(to(&sent), [VISITOR], "{sent:#?}");
    let text = &sent[0].1;
    assert!(
        text.contains("Subject: GTHSCL: Result entered, please confirm: Start Spartans v"),
        "{text}"
    );
    assert!(text.contains("entered the result, 4"), "{text}");
    assert!(
        text.contains(&format!("https://league.example.org{MATCH}")),
        "{text}"
    );
    assert!(
        text.contains("https://league.example.org/account"),
        "{text}"
    );

    // The visitors stop the decisions' mails on their account page.
    let mut visitor = Visitor::signed_in(&app, VISITOR).await;
    let account_page = visitor.get(&app, "/account").await;
    account_page
        .assert_contains(r#"<input type="checkbox" name="get" value="result_decided" checked>"#);
    let keep = [
        ("get", "result_entered"),
        ("get", "result_disputed"),
        ("get", "match_moved"),
        ("get", "deadline_tomorrow"),
    ];
    let saved = visitor
        .post_expect(&app, "/account/notices", &keep, StatusCode::OK)
        .await;
    saved.assert_contains("Your mail settings are saved.");
    saved.assert_contains(r#"<input type="checkbox" name="get" value="result_decided">"#);

    // A dispute: the home advisor and the Vice-President are told; the President is not, his
    // school plays (GT-O3).
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    visitor
        .post_ok(
            &app,
            &format!("{MATCH}/dispute"),
            &[("version", "2"), ("reason", "Board 4 was drawn, not won.")],
        )
        .await;
    let sent = wait_for(&dir, 2).await;
    assert_eq!(to(&sent), [HOME, VP], "{sent:#?}");
    assert!(
        sent[1].1.contains("Board 4 was drawn, not won."),
        "{}",
        sent[1].1
    );
    assert!(
        sent[1].1.contains("as the league's Vice-President"),
        "{}",
        sent[1].1
    );

    // The decision: both schools, less the visitors who stopped it.
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    let mut vp = Visitor::signed_in(&app, VP).await;
    vp.post_ok(
        &app,
        &format!("{MATCH}/decision"),
        &[("version", "2"), ("reason", "Both scoresheets show 1-0.")],
    )
    .await;
    let sent = wait_for(&dir, 1).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let sent_all = mails(&dir);
    assert_eq!(sent_all.len(), sent.len(), "no more mails came");
    assert_eq!(to(&sent), [HOME], "{sent:#?}");
    assert!(
        sent[0].1.contains("Subject: GTHSCL: Result decided"),
        "{}",
        sent[0].1
    );
}

/// GT-M2: a move is told to both schools (less the one who moved it).
#[tokio::test]
async fn gt_m2_a_move_is_told_to_both_schools() {
    let (_store, app, dir) = setup(date(2026, 11, 4)).await;
    let mut home = Visitor::signed_in(&app, HOME).await;
    home.post_ok(
        &app,
        &format!("{MATCH}/move"),
        &[
            ("date", "2026-11-18"),
            ("start", "15:45"),
            ("reason", "The gym is taken by the book fair."),
        ],
    )
    .await;
    let sent = wait_for(&dir, 1).await;
    assert_eq!(to(&sent), [VISITOR], "{sent:#?}");
    assert!(
        sent[0].1.contains("Subject: GTHSCL: Match moved"),
        "{}",
        sent[0].1
    );
    assert!(sent[0].1.contains("at 15:45 (GT-M2)"), "{}", sent[0].1);
}

/// GT-P2's reminder goes the day before the result is due: round 4's result (Mon 16 Nov) is
/// due by Tue 17 Nov, so on the 16th the home advisor is reminded, and on the 17th nobody is.
#[tokio::test]
async fn gt_p2_the_reminder_goes_the_day_before_the_result_is_due() {
    let (store, _app, dir) = setup(date(2026, 11, 16)).await;
    let state = AppState::new(store.clone())
        .with_freshness(Duration::ZERO)
        .with_mail(Mailer::folder(&dir), "https://league.example.org");
    let (sent, failed) = arbiter_web::remind(&state.clone().with_today(date(2026, 11, 17)))
        .await
        .unwrap();
    assert_eq!(
        (sent, failed),
        (0, 0),
        "on the due day it is too late to remind"
    );
    let (sent, failed) = arbiter_web::remind(&state.clone().with_today(date(2026, 11, 16)))
        .await
        .unwrap();
    assert_eq!(failed, 0);
    let mails = mails(&dir);
    assert_eq!(mails.len(), sent);
    assert!(
        mails.iter().any(|(t, m)| t == HOME
            && m.contains("Subject: GTHSCL: Result due tomorrow: Start Spartans v")),
        "{mails:#?}"
    );
    assert!(!to(&mails).contains(&VISITOR), "{mails:#?}");
}

/// GT-P2: the visitors are reminded too, the day before their confirmation is due: round 4's
/// result entered on Mon 16 Nov is theirs to confirm within 5 days, by Sat 21 Nov, so on the
/// 20th the visiting advisor is reminded and the home advisor, whose part is done, is not.
#[tokio::test]
async fn gt_p2_the_visitors_are_reminded_the_day_before_their_confirmation_is_due() {
    let (store, app, dir) = setup(date(2026, 11, 16)).await;
    home_enters_four_nil(&app).await;
    wait_for(&dir, 1).await;
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    let state = AppState::new(store.clone())
        .with_freshness(Duration::ZERO)
        .with_mail(Mailer::folder(&dir), "https://league.example.org");
    let (sent, _) = arbiter_web::remind(&state.clone().with_today(date(2026, 11, 21)))
        .await
        .unwrap();
    assert_eq!(sent, 0, "on the due day it is too late to remind");
    let (sent, failed) = arbiter_web::remind(&state.with_today(date(2026, 11, 20)))
        .await
        .unwrap();
    assert_eq!((sent, failed), (1, 0));
    let mails = mails(&dir);
    assert_eq!(to(&mails), [VISITOR], "{mails:#?}");
    assert!(
        mails[0]
            .1
            .contains("Subject: GTHSCL: Result due tomorrow: Start Spartans v")
            && mails[0].1.contains("of this result awaits Zo")
            && mails[0].1.contains("'s confirmation, due tomorrow"),
        "{mails:#?}"
    );
}

/// GT-P2, RULES.md "Time": `arbiter remind` counts the day in the league's zone. At 22:00 on
/// the 16th in Toledo (03:00 on the 17th in UTC) round 4's result is due tomorrow, so the home
/// advisor is reminded; from midnight in Toledo it is due today, too late to remind.
#[tokio::test]
async fn gt_p2_remind_counts_the_day_in_the_leagues_time_zone() {
    let (store, _app, dir) = setup(date(2026, 11, 16)).await;
    let toledo = arbiter_core::record::zone::Zone::named("America/New_York").unwrap();
    let state = |local: &str| {
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_mail(Mailer::folder(&dir), "https://league.example.org")
            .with_now(toledo.instant(local.parse().unwrap()).unwrap())
    };
    let (sent, _) = arbiter_web::remind(&state("2026-11-17T00:30"))
        .await
        .unwrap();
    assert_eq!(sent, 0, "on the due day in Toledo it is too late to remind");
    let (sent, failed) = arbiter_web::remind(&state("2026-11-16T22:00"))
        .await
        .unwrap();
    assert_eq!((sent, failed), (1, 0));
    assert!(
        mails(&dir).iter().any(|(t, m)| t == HOME
            && m.contains("Subject: GTHSCL: Result due tomorrow: Start Spartans v")),
        "{:#?}",
        mails(&dir)
    );
}

/// GT-M20: the officer's adjudication is told to both schools, in a sentence that says so.
#[tokio::test]
async fn gt_m20_an_adjudication_is_told_to_both_schools() {
    let (_store, app, dir) = setup(date(2026, 11, 16)).await;
    let mut home = Visitor::signed_in(&app, HOME).await;
    let page = home.get(&app, MATCH).await;
    let version = |body: &str| {
        let marker = "name=\"version\" value=\"";
        let i = body.find(marker).unwrap() + marker.len();
        body[i..i + body[i..].find('"').unwrap()].to_string()
    };
    let mut f = vec![("version".to_string(), version(&page.body))];
    for n in 1..=4 {
        f.push((format!("home_{n}"), format!("start{n}")));
        f.push((format!("away_{n}"), format!("scott{n}")));
        f.push((
            format!("result_{n}"),
            if n == 3 { "*" } else { "1-0" }.into(),
        ));
    }
    f.push(("pgn_3".into(), "1. e4 e5 2. Nf3 Nc6".into()));
    f.push((
        "fen_3".into(),
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".into(),
    ));
    let fields: Vec<(&str, &str)> = f.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    home.post_ok(&app, &format!("{MATCH}/result"), &fields)
        .await;
    let entered = wait_for(&dir, 1).await.len();

    let mut vp = Visitor::signed_in(&app, VP).await;
    let page = vp.get(&app, MATCH).await;
    let v = version(&page.body);
    vp.post_ok(
        &app,
        &format!("{MATCH}/adjudication"),
        &[
            ("board", "3"),
            ("result", "1/2-1/2"),
            ("version", v.as_str()),
            ("reason", "Level material, nothing to play for."),
        ],
    )
    .await;
    let sent = wait_for(&dir, entered + 2).await;
    let told: Vec<&(String, String)> = sent
        .iter()
        .filter(|(_, text)| text.contains("adjudicated the game sent for adjudication (GT-M20)"))
        .collect();
    let mut who: Vec<&str> = told.iter().map(|(t, _)| t.as_str()).collect();
    who.sort();
    assert_eq!(who, [VISITOR, HOME], "{sent:#?}");
    let text = &told[0].1;
    assert!(text.contains("The match now stands at"), "{text}");
    assert!(
        text.contains("Level material, nothing to play for."),
        "{text}"
    );
}
