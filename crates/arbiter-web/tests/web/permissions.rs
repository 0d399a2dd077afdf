//! The permission matrix (issue 5): every guarded route of the site and the API, called as
//! each role and as an anonymous visitor, gets the answer `arbiter_core::rules::permissions` gives —
//! allowed, 403, or the way to sign in — and a forged or missing CSRF token is refused.
//! The routes come from `arbiter_web::routes::table()`, the list the router is built from.

use arbiter_core::rules::permissions::{Decision, Role, Subject, Target, decide};
use arbiter_core::{Pairing, TeamId};
use arbiter_store::{Actor, NewApiToken};
use arbiter_web::routes::{self, Guard, Rule, Via};
use axum::body::Body;
use axum::http::{Method, Request, StatusCode};

use crate::common::*;

/// The President's own school (GT-O3) is the home school of the match the matrix uses.
const PRESIDENT_SCHOOL: &str = "Start High School";

struct Person {
    role: Role,
    school: Option<&'static str>,
    email: &'static str,
}

const PEOPLE: &[Person] = &[
    Person {
        role: Role::President,
        school: Some(PRESIDENT_SCHOOL),
        email: "president@gthscl.example",
    },
    Person {
        role: Role::VicePresident,
        school: None,
        email: "vp@gthscl.example",
    },
    Person {
        role: Role::Secretary,
        school: None,
        email: "secretary@gthscl.example",
    },
    Person {
        role: Role::Treasurer,
        school: None,
        email: "treasurer@gthscl.example",
    },
    Person {
        role: Role::Arbiter,
        school: None,
        email: "arbiter@gthscl.example",
    },
    Person {
        role: Role::Advisor,
        school: Some("Start High School"),
        email: "start@gthscl.example",
    },
    Person {
        role: Role::Advisor,
        school: Some("Clay High School"),
        email: "clay@gthscl.example",
    },
    Person {
        role: Role::Advisor,
        school: Some("Scott High School"),
        email: "scott@gthscl.example",
    },
];

/// The match and team the addresses name: round 4's match hosted by Start.
struct Fixture {
    round: u32,
    home: TeamId,
    home_school: String,
    away_school: String,
    team: TeamId,
    team_school: String,
    /// A player of `team`.
    player: String,
}

async fn fixture(store: &arbiter_store::Store) -> Fixture {
    let c = store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap();
    let school = |t: &TeamId| {
        c.competition
            .teams
            .iter()
            .find(|x| &x.id == t)
            .and_then(|x| x.school.clone())
            .unwrap()
    };
    let round = c.competition.rounds.iter().find(|r| r.number == 4).unwrap();
    let m = round
        .pairings
        .iter()
        .find_map(|p| match p {
            Pairing::Match(m) if school(&m.home) == PRESIDENT_SCHOOL => Some(m.clone()),
            Pairing::Match(m) if school(&m.away) == PRESIDENT_SCHOOL => Some(m.clone()),
            _ => None,
        })
        .expect("round 4 has a match of Start");
    Fixture {
        round: 4,
        home_school: school(&m.home),
        away_school: school(&m.away),
        home: m.home.clone(),
        team: TeamId("clay".into()),
        team_school: school(&TeamId("clay".into())),
        player: c
            .competition
            .teams
            .iter()
            .find(|t| t.id.0 == "clay")
            .and_then(|t| t.players.first())
            .map(|p| p.id.0.clone())
            .expect("clay has players"),
    }
}

fn address(rule: &Rule, f: &Fixture, token: &str) -> String {
    rule.path
        .replace("{league}", "gthscl")
        .replace("{season}", "2026-27")
        .replace("{competition}", "division-a")
        .replace("{round}", &f.round.to_string())
        .replace("{home}", &f.home.0)
        .replace("{side}", "home")
        .replace("{team}", &f.team.0)
        .replace("{player}", &f.player)
        .replace("{token}", token)
        .replace("{membership}", "1")
        .replace("{invite}", "1")
        .replace("{number}", "1")
        .replace("{game}", "1")
}

/// What the table says for `person` on this route's target.
fn expected(rule: &Rule, f: &Fixture, person: &Person) -> Option<bool> {
    let Guard::Table(action) = rule.guard else {
        return None;
    };
    // A lineup is one team's: its school is the target (issue 12).
    let target = if rule.path.contains("{side}") {
        Target::School(&f.home_school)
    } else if rule.path.contains("{home}") {
        Target::Match {
            home: Some(&f.home_school),
            visiting: Some(&f.away_school),
            conduct: arbiter_core::rules::permissions::Conduct::Advisors,
        }
    } else if rule.path.contains("{team}") || rule.path.contains("{player}") {
        // A roster change: the team's, or the player's team's, school (`player` is clay's).
        Target::School(&f.team_school)
    } else {
        Target::League
    };
    let subject = Subject {
        role: person.role,
        school: person.school,
    };
    Some(decide(subject, action, target) == Decision::Allowed)
}

fn refused(a: &Answer) -> bool {
    a.status == StatusCode::FORBIDDEN
}

async fn call_site(app: &axum::Router, v: &mut Visitor, rule: &Rule, uri: &str) -> Answer {
    if rule.method == Method::GET {
        v.get(app, uri).await
    } else {
        v.post(app, uri, &[]).await
    }
}

#[tokio::test]
async fn every_guarded_route_answers_as_the_permission_table_says() {
    let store = store().await;
    let app = app(&store);
    let f = fixture(&store).await;
    let league = store.league("gthscl").await.unwrap().unwrap();
    for p in PEOPLE {
        account(&store, p.email, p.role, p.school).await;
    }
    let table = routes::table();
    assert!(
        table.iter().any(|r| r.via == Via::Api) && table.iter().any(|r| r.via == Via::Site),
        "the table lists both the site's and the API's guarded routes"
    );
    let mut checked = 0;
    for rule in table.iter().filter(|r| r.via == Via::Site) {
        let uri = address(rule, &f, "1");
        // Anonymous: a page or form needing more than the public sends the visitor to sign in.
        let mut anon = Visitor::new(&app).await;
        let a = call_site(&app, &mut anon, rule, &uri).await;
        match rule.guard {
            Guard::Anyone => assert!(
                !refused(&a) && !to_sign_in(&a),
                "{} {uri} is open to anyone, but an anonymous visitor got {}: {}",
                rule.method,
                a.status,
                a.body
            ),
            Guard::SignedIn | Guard::Table(_) => assert!(
                to_sign_in(&a),
                "{} {uri}: an anonymous visitor must be sent to sign in, got {}",
                rule.method,
                a.status
            ),
        }
        for person in PEOPLE {
            // Signing out ends the session: every route gets a fresh one.
            let mut v = Visitor::signed_in(&app, person.email).await;
            let a = call_site(&app, &mut v, rule, &uri).await;
            let label = format!(
                "{} {uri} as {:?} of {:?}",
                rule.method, person.role, person.school
            );
            match expected(rule, &f, person) {
                Some(true) | None => assert!(
                    !refused(&a) && !to_sign_in(&a),
                    "{label}: allowed by the table, got {}: {}",
                    a.status,
                    a.body
                ),
                Some(false) => assert!(
                    refused(&a),
                    "{label}: refused by the table, got {}: {}",
                    a.status,
                    a.body
                ),
            }
            checked += 1;
        }
    }
    // The API's guarded routes (its writes, and the ledger's read): a token acts in its role;
    // no token, or a session cookie, is 401.
    for rule in table.iter().filter(|r| r.via == Via::Api) {
        let uri = address(rule, &f, "1");
        let request = || {
            let b = Request::builder().method(rule.method.clone()).uri(&uri);
            if rule.method == Method::GET {
                b
            } else {
                b.header("content-type", "application/json")
            }
        };
        let body = || {
            if rule.method == Method::GET {
                Body::empty()
            } else {
                Body::from("{}")
            }
        };
        let none = send(&app, request().body(body()).unwrap()).await;
        assert_eq!(
            none.status,
            StatusCode::UNAUTHORIZED,
            "{uri} without a token"
        );
        let mut cookie_only = Visitor::signed_in(&app, PEOPLE[0].email).await;
        let req = request()
            .header("cookie", cookie_only.cookie.take().unwrap())
            .body(body())
            .unwrap();
        let a = send(&app, req).await;
        assert_eq!(
            a.status,
            StatusCode::UNAUTHORIZED,
            "{uri}: a session cookie must not authorise the API"
        );
        for person in PEOPLE {
            let user = store
                .user_by_email(&arbiter_core::record::text::Email::parse(person.email).unwrap())
                .await
                .unwrap()
                .unwrap();
            let (_, secret) = store
                .create_api_token(
                    &NewApiToken {
                        user: user.id,
                        league: league.id,
                        role: person.role,
                        school: person.school.map(str::to_string),
                        label: "matrix".into(),
                    },
                    &Actor::system(),
                )
                .await
                .unwrap();
            let req = request()
                .header("authorization", format!("Bearer {secret}"))
                .body(body())
                .unwrap();
            let a = send(&app, req).await;
            let label = format!(
                "{} {uri} with a token of {:?} of {:?}",
                rule.method, person.role, person.school
            );
            match expected(rule, &f, person) {
                Some(true) | None => assert!(
                    a.status != StatusCode::FORBIDDEN && a.status != StatusCode::UNAUTHORIZED,
                    "{label}: allowed by the table, got {}: {}",
                    a.status,
                    a.body
                ),
                Some(false) => assert_eq!(
                    a.status,
                    StatusCode::FORBIDDEN,
                    "{label}: refused by the table: {}",
                    a.body
                ),
            }
            checked += 1;
        }
    }
    assert!(checked >= table.len() * PEOPLE.len());
}

#[tokio::test]
async fn a_forged_or_missing_csrf_token_is_refused_on_every_form() {
    let store = store().await;
    let app = app(&store);
    let f = fixture(&store).await;
    account(&store, PEOPLE[0].email, Role::President, PEOPLE[0].school).await;
    for rule in routes::table()
        .iter()
        .filter(|r| r.via == Via::Site && r.method == Method::POST)
    {
        let uri = address(rule, &f, "1");
        let mut v = Visitor::signed_in(&app, PEOPLE[0].email).await;
        let forged = v.post(&app, &uri, &[("csrf", "forged-token")]).await;
        assert_eq!(
            forged.status,
            StatusCode::FORBIDDEN,
            "POST {uri} with a forged token"
        );
        forged.assert_contains("reload the page");
        let missing = v.post(&app, &uri, &[("csrf", "")]).await;
        assert_eq!(
            missing.status,
            StatusCode::FORBIDDEN,
            "POST {uri} without a token"
        );
        // Another site's page posting here, even with the right token, is refused too.
        let token = v.csrf.clone();
        let req = Request::post(&uri)
            .header("cookie", v.cookie.clone().unwrap())
            .header("content-type", "application/x-www-form-urlencoded")
            .header("host", "league.example.org")
            .header("origin", "https://evil.example")
            .extension(axum::extract::ConnectInfo(v.addr))
            .body(Body::from(format!("csrf={token}")))
            .unwrap();
        let cross = send(&app, req).await;
        assert_eq!(
            cross.status,
            StatusCode::FORBIDDEN,
            "POST {uri} from another origin"
        );
    }
}

/// A route the router serves but the table does not list would escape the matrix: only
/// `routes.rs` may add a route that is not a plain public page, and the API's writes in the
/// OpenAPI document are exactly the table's.
#[test]
fn no_route_escapes_the_table() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name == "routes.rs" || !name.ends_with(".rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for needle in ["post(", "put(", "patch(", "delete("] {
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                let hit = code.match_indices(needle).any(|(at, _)| {
                    // `routing::post(`, or `post(` opening an expression; not `fn delete(`,
                    // `.delete(` on a value, or `repost(`.
                    let before = code[..at].trim_end();
                    before.ends_with("routing::")
                        || before.is_empty()
                        || before.ends_with(['(', ',', '='])
                });
                assert!(
                    !hit,
                    "{name}:{}: a `{needle}` route outside routes.rs escapes the permission matrix: {line}",
                    i + 1
                );
            }
        }
    }
    let doc = serde_json::to_value(arbiter_web::openapi()).unwrap();
    let mut writes: Vec<String> = Vec::new();
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, _) in ops.as_object().unwrap() {
            if method != "get" {
                writes.push(format!("{} {path}", method.to_uppercase()));
            }
        }
    }
    writes.sort();
    let mut listed: Vec<String> = routes::api_writes()
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect();
    listed.sort();
    assert_eq!(
        writes, listed,
        "the API's write endpoints and the table differ"
    );
    // The API's reads that need a token are in the document as reads.
    let reads = routes::api_reads();
    assert!(!reads.is_empty());
    for r in reads {
        assert_eq!(r.method, Method::GET, "{}", r.path);
        assert!(
            doc["paths"][&r.path]["get"].is_object(),
            "{} is in the table but not in the OpenAPI document",
            r.path
        );
    }
}
