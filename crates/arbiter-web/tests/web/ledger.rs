//! The Treasurer's fee ledger (GT-O2, issue 12, part 7): the page reached from the account page,
//! a payment recorded and the statement changed, a refused entry that names its mistake and
//! keeps the form, a reversal, who may read and write it, the CSV, the API, and a snapshot.
//!
//! The test division has four schools, one team each, under the `gthscl` preset: $10.00 each.

use arbiter_core::rules::permissions::Role;
use arbiter_store::{HistoryFilter, Store};
use axum::body::Body;
use axum::http::{Request, StatusCode};

use crate::common::*;

const LEDGER: &str = "/leagues/gthscl/ledger";
const API: &str = "/api/v1/leagues/gthscl/ledger";
const TREASURER: &str = "treasurer@gthscl.example";
const PRESIDENT: &str = "president@gthscl.example";
const VP: &str = "vp@gthscl.example";
const ADVISOR: &str = "coach@start.example";

async fn officers(store: &Store) {
    account(store, TREASURER, Role::Treasurer, None).await;
    account(store, PRESIDENT, Role::President, Some("Start High School")).await;
    account(store, VP, Role::VicePresident, None).await;
    advisor(store, ADVISOR, "Start High School").await;
}

/// Posts an entry as `v`; the fields are kind, school, amount, day and note.
async fn post_entry(app: &axum::Router, v: &mut Visitor, entry: [&str; 5]) -> Answer {
    let [kind, school, amount, on, note] = entry;
    v.post(
        app,
        LEDGER,
        &[
            ("season", "2026-27"),
            ("kind", kind),
            ("school", school),
            ("amount", amount),
            ("on", on),
            ("note", note),
        ],
    )
    .await
}

/// A store with the officers and the Start advisor, and the site on it.
async fn ledger_site() -> (Store, axum::Router) {
    let store = store().await;
    officers(&store).await;
    let app = app(&store);
    (store, app)
}

/// The Treasurer, signed in, having opened the ledger (and so holding its form token).
async fn treasurer_at_the_ledger(app: &axum::Router) -> Visitor {
    let mut t = Visitor::signed_in(app, TREASURER).await;
    t.get(app, LEDGER).await;
    t
}

/// The form fields reversing entry `reverses` on the day `on`, for the reason `note`.
fn reversal<'a>(reverses: &'a str, on: &'a str, note: &'a str) -> [(&'a str, &'a str); 5] {
    [
        ("season", "2026-27"),
        ("kind", "reversal"),
        ("reverses", reverses),
        ("on", on),
        ("note", note),
    ]
}

/// The `<tr>` of the statement that names `school`.
fn row<'a>(body: &'a str, school: &str) -> &'a str {
    let at = body
        .find(&format!("<td data-label=\"School\">{school}</td>"))
        .unwrap_or_else(|| panic!("no row of {school} in {body}"));
    let end = body[at..].find("</tr>").unwrap();
    &body[at..at + end]
}

#[tokio::test]
async fn gt_o2_the_treasurer_records_a_payment_and_the_statement_changes() {
    let (store, app) = ledger_site().await;
    let mut t = Visitor::signed_in(&app, TREASURER).await;

    // Reached from the account page, beside the officers' other links.
    let account_page = t.get(&app, "/account").await;
    account_page.assert_contains(&format!("<a href=\"{LEDGER}\">Fee ledger</a>"));
    let before = t.get_ok(&app, LEDGER).await;
    before.assert_contains(
        "The entry fee is $10.00 a school, once however many teams it enters (GT-O2).",
    );
    assert!(row(&before.body, "Start High School").contains("owes $10.00"));
    before.assert_contains("No entry is recorded yet.");
    before.assert_contains("Record an entry");

    let done = post_entry(
        &app,
        &mut t,
        [
            "payment",
            "Start High School",
            "$10",
            "2026-10-14",
            "cheque 1042",
        ],
    )
    .await;
    done.assert_status(StatusCode::SEE_OTHER);
    let location = done.header("location").to_string();
    assert_eq!(
        location,
        "/leagues/gthscl/ledger?season=2026-27&recorded=1#entry-1"
    );
    let after = t.get(&app, &location).await;
    after.assert_contains("Entry 1 is recorded: payment of $10.00 from Start High School, on Wed 14 Oct 2026. It is in the history.");
    assert!(row(&after.body, "Start High School").contains("paid in full"));
    assert!(row(&after.body, "Clay High School").contains("owes $10.00"));
    after.assert_contains(
        "<tr><th scope=\"row\">Fees received</th><td class=\"num\">$10.00</td></tr>",
    );
    after.assert_contains(
        "<tr><th scope=\"row\">Still owed by schools</th><td class=\"num\">$30.00</td></tr>",
    );
    after.assert_contains("treasurer@gthscl.example (Treasurer)");

    // Kept in the history, with who and why.
    let league = store.league("gthscl").await.unwrap().unwrap();
    let h = store
        .history(&HistoryFilter {
            league: Some(league.id),
            ..HistoryFilter::default()
        })
        .await
        .unwrap();
    let kept = h
        .iter()
        .find(|e| e.action == "record_ledger_entry")
        .expect("the entry is in the history");
    assert_eq!(kept.actor.as_deref(), Some(TREASURER));
    assert_eq!(kept.reason.as_deref(), Some("cheque 1042"));
    assert_eq!(kept.after.as_ref().unwrap()["amount"], "10.00");
}

#[tokio::test]
async fn gt_o2_a_refused_entry_names_the_mistake_and_keeps_the_form() {
    let (store, app) = ledger_site().await;
    let mut t = treasurer_at_the_ledger(&app).await;
    let refused = post_entry(
        &app,
        &mut t,
        [
            "payment",
            "Clay High School",
            "abc",
            "2026-10-14",
            "cheque 7",
        ],
    )
    .await;
    refused.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let b = &refused.body;
    assert!(b.contains("Nothing was recorded:"), "{b}");
    assert!(
        b.contains(
            "“abc” is not an amount of money; write it in dollars and cents, such as 10 or 10.50."
        ),
        "{b}"
    );
    // The form as it was filled in.
    assert!(b.contains("name=\"amount\""), "{b}");
    assert!(b.contains("value=\"abc\""), "{b}");
    assert!(
        b.contains("<option value=\"Clay High School\" selected>"),
        "{b}"
    );
    assert!(b.contains(">cheque 7</textarea>"), "{b}");
    let league = store.league("gthscl").await.unwrap().unwrap();
    let season = store.seasons(league.id).await.unwrap().remove(0);
    assert!(store.ledger(league.id, season.id).await.unwrap().is_empty());

    // Every mistake at once, each with its reason.
    let many = post_entry(
        &app,
        &mut t,
        ["payment", "Waite Academy", "10.505", "2026-12-01", ""],
    )
    .await;
    many.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    for why in [
        "has more than two decimals",
        "2026-12-01 is still to come (today is 2026-11-04)",
        "“Waite Academy” has no team in this season, so it owes no fee here (GT-O2)",
    ] {
        assert!(many.body.contains(why), "{why}: {}", many.body);
    }
    // GT-O2: the league pays back at most what a school paid.
    let refund = post_entry(
        &app,
        &mut t,
        ["refund", "Scott High School", "10", "2026-10-20", ""],
    )
    .await;
    refund.assert_contains("Scott High School has paid $0.00 and been refunded $0.00; a refund of $10.00 would pay it back more than it paid (GT-O2).");
}

#[tokio::test]
async fn a_mistaken_entry_is_reversed_with_the_reason_and_both_stay() {
    let (_store, app) = ledger_site().await;
    let mut t = treasurer_at_the_ledger(&app).await;
    // Scott's cheque recorded against Clay.
    let wrong = post_entry(
        &app,
        &mut t,
        [
            "payment",
            "Clay High School",
            "10",
            "2026-10-14",
            "cheque 55",
        ],
    )
    .await;
    wrong.assert_status(StatusCode::SEE_OTHER);
    let page = t.get(&app, LEDGER).await;
    page.assert_contains("Reverse entry 1");
    // A reversal without its reason is refused at the entry, its form open.
    let bare = t
        .post_refused(&app, LEDGER, &reversal("1", "2026-10-15", " "))
        .await;
    bare.assert_contains("Say why entry 1 is reversed (required); the reason stays in the ledger.");
    bare.assert_contains("<details class=\"control\" open>");
    // One of no entry shown (a stale page, a hand-made form) is refused at the form.
    let none = t
        .post_refused(&app, LEDGER, &reversal("99", "2026-10-15", "typo"))
        .await;
    none.assert_contains("<li>The ledger has no entry 99; it has 1 so far.</li>");
    t.post_ok(
        &app,
        LEDGER,
        &reversal("1", "2026-10-15", "Scott's cheque, not Clay's"),
    )
    .await;
    post_entry(
        &app,
        &mut t,
        [
            "payment",
            "Scott High School",
            "10",
            "2026-10-14",
            "cheque 55",
        ],
    )
    .await;
    let page = t.get(&app, LEDGER).await;
    let b = &page.body;
    assert!(b.contains("Reversed by entry 2"), "{b}");
    assert!(b.contains("Reverses entry 1"), "{b}");
    assert!(b.contains("<del>$10.00</del>"), "{b}");
    assert!(row(b, "Clay High School").contains("owes $10.00"), "{b}");
    assert!(row(b, "Scott High School").contains("paid in full"), "{b}");
    // Neither the reversed entry nor its reversal offers to be reversed again.
    assert!(!b.contains("Reverse entry 1<"), "{b}");
    assert!(!b.contains("Reverse entry 2<"), "{b}");
    assert!(b.contains("Reverse entry 3<"), "{b}");
}

#[tokio::test]
async fn gt_o2_the_treasurer_waives_part_of_a_fee_with_the_reason_and_it_is_in_the_history() {
    let (store, app) = ledger_site().await;
    let mut t = Visitor::signed_in(&app, TREASURER).await;
    let form = t.get(&app, LEDGER).await;
    form.assert_contains("<option value=\"waiver\">Fee waived</option>");
    // Clay is new to the league: half its fee waived, then the rest paid.
    let waived = post_entry(
        &app,
        &mut t,
        [
            "waiver",
            "Clay High School",
            "5",
            "2026-09-20",
            "new to the league",
        ],
    )
    .await;
    waived.assert_status(StatusCode::SEE_OTHER);
    let page = t.get(&app, waived.header("location")).await;
    let b = &page.body;
    assert!(
        b.contains(
            "Entry 1 is recorded: $5.00 of Clay High School&#39;s fee waived, on Sun 20 Sep 2026."
        ),
        "{b}"
    );
    let clay = row(b, "Clay High School");
    assert!(clay.contains("$5.00 waived"), "{clay}");
    assert!(clay.contains("owes $5.00"), "{clay}");
    assert!(
        b.contains("<tr><th scope=\"row\">Fees waived</th><td class=\"num\">$5.00</td></tr>"),
        "{b}"
    );
    // No money moved.
    assert!(
        b.contains("<th scope=\"row\">Cash held</th><td class=\"num\"><strong>$0.00</strong>"),
        "{b}"
    );
    // Waiving more than the rest of the fee is refused with the sums.
    let too_much = post_entry(
        &app,
        &mut t,
        ["waiver", "Clay High School", "6", "2026-09-21", "hardship"],
    )
    .await;
    too_much.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    too_much.assert_contains("Clay High School&#39;s entry fee is $10.00 and $5.00 of it is waived already; a waiver of $6.00 would waive more than the fee (GT-O2).");
    post_entry(
        &app,
        &mut t,
        ["payment", "Clay High School", "5", "2026-10-01", "cheque 7"],
    )
    .await;
    let page = t.get(&app, LEDGER).await;
    assert!(row(&page.body, "Clay High School").contains("paid in full"));

    // The history says it in a sentence; the API and its statement carry the waiver.
    let history = t.get(&app, "/leagues/gthscl/history").await;
    history.assert_contains("waived Clay High School&#39;s fee in entry 1 of the 2026-27 ledger");
    let rows = store
        .history(&HistoryFilter::default())
        .await
        .unwrap()
        .into_iter()
        .filter(|h| h.entity == "ledger_entry")
        .count();
    assert_eq!(rows, 2);
}

#[tokio::test]
async fn only_the_president_and_the_treasurer_read_it_and_only_the_treasurer_writes() {
    let (_store, app) = ledger_site().await;
    // Not signed in: to the sign-in form, as every guarded page.
    let mut anon = Visitor::new(&app).await;
    for uri in [LEDGER, "/leagues/gthscl/ledger.csv"] {
        assert!(to_sign_in(&anon.get(&app, uri).await), "{uri}");
    }
    // An advisor and the Vice-President: refused with the rule, and no link to it.
    for who in [ADVISOR, VP] {
        let mut v = Visitor::signed_in(&app, who).await;
        let a = v.get(&app, LEDGER).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{who}: {}", a.body);
        a.assert_contains("GT-O2");
        let mine = v.get(&app, "/account").await;
        assert!(!mine.body.contains("Fee ledger"), "{who}");
    }
    // The President reads it, and records nothing (GT-O3: the Treasurer keeps the book).
    let mut p = Visitor::signed_in(&app, PRESIDENT).await;
    let read = p.get_ok(&app, LEDGER).await;
    read.assert_lacks("Record an entry");
    let write = post_entry(
        &app,
        &mut p,
        ["payment", "Start High School", "10", "2026-10-14", ""],
    )
    .await;
    write.assert_status(StatusCode::FORBIDDEN);
    write.assert_contains("only the Treasurer may record");

    // The league's history shows the ledger's entries to whom may read the ledger only.
    let mut t = treasurer_at_the_ledger(&app).await;
    post_entry(
        &app,
        &mut t,
        ["payment", "Start High School", "10", "2026-10-14", ""],
    )
    .await;
    let theirs = p.get(&app, "/leagues/gthscl/history").await;
    theirs.assert_contains("recorded entry 1 of the 2026-27 ledger.");
    let mut vp = Visitor::signed_in(&app, VP).await;
    let not_theirs = vp.get_ok(&app, "/leagues/gthscl/history").await;
    not_theirs.assert_lacks("ledger entry");
    let csv = vp.get(&app, "/leagues/gthscl/history.csv").await;
    csv.assert_lacks("ledger_entry");
}

#[tokio::test]
async fn the_csv_lists_every_entry_through_the_formula_guard() {
    let (_store, app) = ledger_site().await;
    let mut t = treasurer_at_the_ledger(&app).await;
    post_entry(
        &app,
        &mut t,
        [
            "payment",
            "Start High School",
            "10",
            "2026-10-14",
            "cheque 1042",
        ],
    )
    .await;
    post_entry(
        &app,
        &mut t,
        [
            "prize_purchase",
            "",
            "84.50",
            "2026-11-02",
            "=HYPERLINK(\"http://evil.example\") trophies",
        ],
    )
    .await;
    let a = t
        .get_ok(&app, "/leagues/gthscl/ledger.csv?season=2026-27")
        .await;
    assert_eq!(a.header("content-type"), "text/csv; charset=utf-8");
    assert_eq!(
        a.header("content-disposition"),
        "attachment; filename=\"gthscl-2026-27-ledger.csv\""
    );
    assert_eq!(a.header("cache-control"), "private, no-store");
    let records = arbiter_formats::csv::read(&a.body, ',');
    assert_eq!(
        records[0].join(","),
        "number,on,kind,school,amount,note,reverses,reversed_by,in_force,recorded_by,role,recorded_at"
    );
    assert_eq!(records.len(), 3, "{}", a.body);
    assert_eq!(
        records[1][..10].join("|"),
        "1|2026-10-14|payment|Start High School|10.00|cheque 1042|||yes|treasurer@gthscl.example"
    );
    assert_eq!(records[1][10], "treasurer");
    assert_eq!(records[2][2], "prize_purchase");
    assert_eq!(records[2][4], "84.50");
    assert!(records[2][5].starts_with("'="), "{:?}", records[2]);
    for cell in records.iter().flatten() {
        assert!(!arbiter_formats::csv::reads_as_formula(cell), "{cell:?}");
    }
    // The President may download it; an advisor may not.
    let mut p = Visitor::signed_in(&app, PRESIDENT).await;
    assert_eq!(
        p.get(&app, "/leagues/gthscl/ledger.csv").await.status,
        StatusCode::OK
    );
    let mut adv = Visitor::signed_in(&app, ADVISOR).await;
    assert_eq!(
        adv.get(&app, "/leagues/gthscl/ledger.csv").await.status,
        StatusCode::FORBIDDEN
    );
    // An unknown season is a 404 that lists the league's.
    let none = t
        .get_expect(
            &app,
            "/leagues/gthscl/ledger?season=1999-00",
            StatusCode::NOT_FOUND,
        )
        .await;
    none.assert_contains("ledger?season=2026-27");
}

async fn call(app: &axum::Router, method: &str, secret: &str, body: &str) -> Answer {
    let mut req = Request::builder()
        .method(method)
        .uri(API)
        .header("authorization", format!("Bearer {secret}"));
    if method == "POST" {
        req = req.header("content-type", "application/json");
    }
    send(app, req.body(Body::from(body.to_string())).unwrap()).await
}

#[tokio::test]
async fn gt_o2_the_api_reads_and_records_the_ledger_with_a_token() {
    let (store, app) = ledger_site().await;
    let treasurer = api_token(&store, TREASURER, Role::Treasurer, None).await;
    let read = call(&app, "GET", &treasurer, "").await;
    read.assert_status(StatusCode::OK);
    let j = read.json();
    assert_eq!(j["entry_fee"], "10.00");
    assert_eq!(j["season"]["slug"], "2026-27");
    assert_eq!(j["schools"].as_array().unwrap().len(), 4);
    assert_eq!(j["totals"]["due"], "40.00");

    let paid = call(
        &app,
        "POST",
        &treasurer,
        r#"{"kind": "payment", "school": "Scott High School", "amount": "10.50", "on": "2026-10-20", "note": "cash at the meeting"}"#,
    )
    .await;
    paid.assert_status(StatusCode::CREATED);
    let e = paid.json();
    assert_eq!(e["number"], 1);
    assert_eq!(e["amount"], "10.50");
    assert_eq!(e["recorded_by"], TREASURER);
    assert_eq!(e["in_force"], true);

    let bad = call(
        &app,
        "POST",
        &treasurer,
        r#"{"kind": "refund", "school": "Scott High School", "amount": "abc", "on": "2026-10-21"}"#,
    )
    .await;
    bad.assert_status(StatusCode::UNPROCESSABLE_ENTITY);
    let problems = &bad.json()["error"]["problems"];
    assert_eq!(problems[0]["field"], "amount", "{}", bad.body);
    assert!(
        problems[0]["message"]
            .as_str()
            .unwrap()
            .contains("“abc” is not an amount of money"),
        "{}",
        bad.body
    );

    let j = call(&app, "GET", &treasurer, "").await.json();
    let scott = j["schools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["school"] == "Scott High School")
        .unwrap()
        .clone();
    assert_eq!(scott["owes"], "-0.50");
    assert_eq!(scott["standing"], "in credit $0.50");
    assert_eq!(j["totals"]["credit"], "0.50");
    assert_eq!(j["totals"]["cash"], "10.50");
    assert_eq!(j["entries"].as_array().unwrap().len(), 1);

    // The President's token reads and may not write; an advisor's may not read.
    let president = api_token(
        &store,
        PRESIDENT,
        Role::President,
        Some("Start High School"),
    )
    .await;
    assert_eq!(
        call(&app, "GET", &president, "").await.status,
        StatusCode::OK
    );
    let refused = call(
        &app,
        "POST",
        &president,
        r#"{"kind": "payment", "school": "Start High School", "amount": "10", "on": "2026-10-20"}"#,
    )
    .await;
    refused.assert_status(StatusCode::FORBIDDEN);
    let advisor = api_token(&store, ADVISOR, Role::Advisor, Some("Start High School")).await;
    assert_eq!(
        call(&app, "GET", &advisor, "").await.status,
        StatusCode::FORBIDDEN
    );
    // Listed in the OpenAPI document.
    let doc = get(&app, "/api/v1/openapi.json").await.json();
    let documented = &doc["paths"]["/api/v1/leagues/{league}/ledger"];
    assert!(documented["get"].is_object(), "{documented}");
    assert!(documented["post"].is_object(), "{documented}");
}

#[tokio::test]
async fn the_ledger_page_as_the_president_reads_it() {
    let (store, app) = ledger_site().await;
    let mut t = treasurer_at_the_ledger(&app).await;
    for entry in [
        [
            "payment",
            "Start High School",
            "10",
            "2026-10-05",
            "cheque 1042",
        ],
        [
            "payment",
            "Scott High School",
            "20",
            "2026-10-07",
            "for two teams",
        ],
        ["payment", "Clay High School", "10", "2026-10-09", ""],
        [
            "refund",
            "Scott High School",
            "10",
            "2026-10-21",
            "the fee is per school (GT-O2)",
        ],
        [
            "prize_purchase",
            "",
            "84.50",
            "2026-11-02",
            "three division trophies (GT-F1)",
        ],
    ] {
        let a = post_entry(&app, &mut t, entry).await;
        assert_eq!(a.status, StatusCode::SEE_OTHER, "{entry:?}: {}", a.body);
    }
    t.post_ok(
        &app,
        LEDGER,
        &reversal("3", "2026-10-10", "Clay's cheque bounced"),
    )
    .await;
    let mut p = Visitor::signed_in(&app, PRESIDENT).await;
    let page = p.get_ok(&app, LEDGER).await;
    // The times the entries were recorded change with every run.
    let league = store.league("gthscl").await.unwrap().unwrap();
    let season = store.seasons(league.id).await.unwrap().remove(0);
    let mut body = masked(&page.body);
    for e in store.ledger(league.id, season.id).await.unwrap() {
        let shown = e.recorded_at.strftime("%a %-d %b %Y %H:%M UTC").to_string();
        body = body.replace(&shown, "RECORDED AT");
    }
    insta::assert_snapshot!("ledger_as_the_president_reads_it", body);
}

/// GT-O2: the same payment entered twice is asked about before it is recorded; the page's
/// confirm button (a form, no script) records it, and the API answers 409 until
/// `confirm_duplicate` says to record it.
#[tokio::test]
async fn gt_o2_an_entry_made_twice_asks_before_it_is_recorded_again() {
    let (store, app) = ledger_site().await;
    let mut t = Visitor::signed_in(&app, TREASURER).await;
    let cheque = [
        "payment",
        "Scott High School",
        "10",
        "2026-10-14",
        "cheque 1042",
    ];
    let first = post_entry(&app, &mut t, cheque).await;
    first.assert_status(StatusCode::SEE_OTHER);
    let again = post_entry(&app, &mut t, cheque).await;
    again.assert_status(StatusCode::CONFLICT);
    let asked = "An entry of $10.00 for Scott High School with this note was already made on";
    again.assert_contains(asked);
    again.assert_contains(&format!(
        "by {TREASURER} (Treasurer) (entry 1); enter it again?"
    ));
    again.assert_contains("name=\"confirm_duplicate\" value=\"yes\"");
    assert_eq!(store_entries(&store).await, 1, "nothing was recorded yet");
    // The confirm button sends the form again with `confirm_duplicate`.
    t.post_ok(
        &app,
        LEDGER,
        &[
            ("season", "2026-27"),
            ("kind", "payment"),
            ("school", "Scott High School"),
            ("amount", "10"),
            ("on", "2026-10-14"),
            ("note", "cheque 1042"),
            ("confirm_duplicate", "yes"),
        ],
    )
    .await;
    assert_eq!(store_entries(&store).await, 2);

    // The API: 409 with the sentence, then 201 when confirmed.
    let token = api_token(&store, TREASURER, Role::Treasurer, None).await;
    let body = r#"{"kind": "payment", "school": "Scott High School", "amount": "10", "on": "2026-10-14", "note": "cheque 1042""#;
    let refused = call(&app, "POST", &token, &format!("{body}}}")).await;
    refused.assert_status(StatusCode::CONFLICT);
    refused.assert_contains(asked);
    let sent = call(
        &app,
        "POST",
        &token,
        &format!("{body}, \"confirm_duplicate\": true}}"),
    )
    .await;
    sent.assert_status(StatusCode::CREATED);
    assert_eq!(store_entries(&store).await, 3);
}

/// How many entries the store keeps for the test season.
async fn store_entries(store: &Store) -> usize {
    let league = store.league("gthscl").await.unwrap().unwrap();
    let season = store
        .seasons(league.id)
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.slug == "2026-27")
        .unwrap();
    store.ledger(league.id, season.id).await.unwrap().len()
}
