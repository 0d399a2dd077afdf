//! Issue 9, item 10: every text a person types has its limit from `arbiter_core::record::text`, shown
//! in its form as `maxlength` and refused beyond it with a sentence.

use arbiter_core::record::text::{
    EMAIL_MAX_CHARS, LABEL_MAX_CHARS, NAME_MAX_CHARS, REASON_MAX_CHARS,
};
use arbiter_core::rules::permissions::Role;
use arbiter_store::{Actor, NewInvite};
use axum::http::StatusCode;

use crate::common::*;

const PRESIDENT: &str = "president@gthscl.example";
const CLAY: &str = "clay.advisor@clay.example";
const HOME: &str = "coach@start.example";
const MATCH: &str = "/leagues/gthscl/2026-27/division-a/rounds/4/matches/start";

/// Every `<textarea …>` and text or email `<input …>` of a page, as written.
fn text_fields(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for tag in ["<textarea", "<input"] {
        let mut rest = body;
        while let Some(i) = rest.find(tag) {
            let end = i + rest[i..].find('>').unwrap() + 1;
            let field = &rest[i..end];
            let typed = tag == "<textarea"
                || field.contains(r#"type="text""#)
                || field.contains(r#"type="email""#);
            if typed {
                out.push(field);
            }
            rest = &rest[end..];
        }
    }
    out
}

fn name_of(field: &str) -> &str {
    let i = field.find("name=\"").unwrap() + 6;
    &field[i..i + field[i..].find('"').unwrap()]
}

/// The `maxlength` each text field of the page carries, by its name.
fn limits(body: &str) -> Vec<(String, usize)> {
    text_fields(body)
        .into_iter()
        .map(|f| {
            let n = f
                .find("maxlength=\"")
                .unwrap_or_else(|| panic!("no maxlength on {f}"))
                + 11;
            let value = f[n..n + f[n..].find('"').unwrap()].parse().unwrap();
            (name_of(f).to_string(), value)
        })
        .collect()
}

#[tokio::test]
async fn every_text_field_of_every_form_carries_its_maxlength_from_core() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    advisor(&store, CLAY, "Clay High School").await;
    advisor(&store, HOME, "Start High School").await;
    let league = store.league("gthscl").await.unwrap().unwrap();
    let (_, invite) = store
        .create_invite(
            &NewInvite {
                email: "new@clay.example".into(),
                league: league.id,
                role: Role::Advisor,
                school: Some("Clay High School".into()),
                valid_for: jiff::SignedDuration::from_hours(24),
            },
            &Actor::user(PRESIDENT, arbiter_core::rules::permissions::Role::President),
        )
        .await
        .unwrap();
    let app = app_on(&store, jiff::civil::date(2026, 11, 16));
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    let mut home = Visitor::signed_in(&app, HOME).await;
    let mut anyone = Visitor::new(&app).await;
    let want = |name: &str| match name {
        "reason" => REASON_MAX_CHARS,
        "email" => EMAIL_MAX_CHARS,
        "name" => NAME_MAX_CHARS,
        "label" => LABEL_MAX_CHARS,
        // GT-M17: a board's conduct note, `note_1` …
        note if note.starts_with("note_") => REASON_MAX_CHARS,
        // GT-M20: a game's moves, the position sent for adjudication and its clocks.
        pgn if pgn == "pgn" || pgn.starts_with("pgn_") => arbiter_core::season::game::PGN_MAX_CHARS,
        fen if fen.starts_with("fen_") => arbiter_core::season::game::FEN_MAX_CHARS,
        clock if clock.starts_with("hclock_") || clock.starts_with("aclock_") => {
            arbiter_core::season::game::CLOCK_MAX_CHARS
        }
        other => panic!("a text field `{other}` this test does not know: give it its limit"),
    };
    let pages = [
        (
            "/leagues/gthscl/people",
            president.get(&app, "/leagues/gthscl/people").await,
        ),
        ("/account", president.get(&app, "/account").await),
        (MATCH, home.get(&app, MATCH).await),
        ("/sign-in", anyone.get(&app, "/sign-in").await),
        ("/reset", anyone.get(&app, "/reset").await),
        (
            "invitation",
            anyone.get(&app, &format!("/invites/{invite}")).await,
        ),
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (page, answer) in &pages {
        assert_eq!(answer.status, StatusCode::OK, "{page}: {}", answer.body);
        let fields = limits(&answer.body);
        assert!(!fields.is_empty(), "{page} has no text fields");
        for (name, max) in fields {
            assert_eq!(max, want(&name), "{page}: {name}");
            // The board fields `note_1`, `pgn_1` … are one kind of text each.
            seen.insert(match name.split_once('_') {
                Some((kind, n)) if n.parse::<u32>().is_ok() => format!("{kind}_N"),
                _ => name,
            });
        }
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            "aclock_N", "email", "fen_N", "hclock_N", "label", "name", "note_N", "pgn_N", "reason"
        ],
        "every kind of text was found in a form"
    );
}

#[tokio::test]
async fn a_removal_reason_and_a_token_label_beyond_their_limits_are_refused_with_the_sentence() {
    let store = store().await;
    account(&store, PRESIDENT, Role::President, None).await;
    let clay = advisor(&store, CLAY, "Clay High School").await;
    let app = app(&store);
    let mut president = Visitor::signed_in(&app, PRESIDENT).await;
    president.get(&app, "/leagues/gthscl/people").await;
    let role = store.memberships(clay.id).await.unwrap()[0].id;
    let a = president
        .post_refused(
            &app,
            &format!("/leagues/gthscl/people/{role}/revoke"),
            &[("reason", &"é".repeat(REASON_MAX_CHARS + 1))],
        )
        .await;
    a.assert_contains("The reason for removing the role has 1,001 characters; a reason may have at most 1,000. Shorten it and send it again.");
    assert_eq!(
        store.memberships(clay.id).await.unwrap().len(),
        1,
        "the role stays"
    );

    let page = president.get(&app, "/account").await;
    let membership = {
        let i = page.body.find("name=\"membership\"").unwrap();
        let v = i + page.body[i..].find("value=\"").unwrap() + 7;
        page.body[v..v + page.body[v..].find('"').unwrap()].to_string()
    };
    let a = president
        .post_refused(
            &app,
            "/account/tokens",
            &[
                ("label", &"l".repeat(LABEL_MAX_CHARS + 1)),
                ("membership", &membership),
            ],
        )
        .await;
    a.assert_contains(
        "The token&#39;s label has 81 characters; a token&#39;s label may have at most 80.",
    );

    // An email no account can have is refused at sign-in without being counted or echoed.
    let mut anyone = Visitor::new(&app).await;
    let long = format!("{}@x.example", "a".repeat(EMAIL_MAX_CHARS));
    let a = anyone
        .post_refused(
            &app,
            "/sign-in",
            &[("email", &long), ("password", PASSWORD)],
        )
        .await;
    a.assert_contains("The email address has 264 characters");
    a.assert_lacks(&long);
}
