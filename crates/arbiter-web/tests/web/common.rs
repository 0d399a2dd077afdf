//! A store with test competitions in it, and requests sent to the router in-process.

use std::time::Duration;

use arbiter_core::record::model::*;
use arbiter_demo::testing::{self, LeagueSetup};
use arbiter_store::{Actor, RulesRef, Store};
use arbiter_web::{AppState, router};
use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use jiff::civil::date;
use tower::ServiceExt;

/// The team name the escaping tests look for, exactly as stored.
pub const AWKWARD: &str = "Zoë O'Brien <&> \"Q\"";

pub const DIVISION: &str = "/leagues/gthscl/2026-27/division-a";

fn player(id: &str, name: &str, rating: u32, provisional: bool) -> Player {
    Player {
        id: PlayerId(id.into()),
        name: name.into(),
        rating: Some(rating),
        provisional,
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

fn boards(home: &str, away: &str, results: &[&str]) -> MatchOutcome {
    MatchOutcome::Boards(
        results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut b = Board::new(GameResult::parse(r).unwrap());
                let n = i + 1;
                // GT-M9: a forfeited board has no player on the forfeiting side.
                if !matches!(
                    b.result,
                    GameResult::AwayWinByForfeit | GameResult::DoubleForfeit
                ) {
                    b.home_player = Some(PlayerId(format!("{home}{n}")));
                }
                if !matches!(
                    b.result,
                    GameResult::HomeWinByForfeit | GameResult::DoubleForfeit
                ) {
                    b.away_player = Some(PlayerId(format!("{away}{n}")));
                }
                b
            })
            .collect(),
    )
}

fn game(home: &str, away: &str, outcome: MatchOutcome) -> Pairing {
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

/// A GTHSCL division of four teams, one of them named with every character HTML escapes:
/// - round 1: scott 3-1 start; clay 3-1 drop (board 4 `+/-`, GT-M9; board 2 `-/+` for the team
///   but `1-0` for ratings, GT-P1);
/// - round 2: scott 3-1 clay; drop forfeits to start (GT-M7);
/// - round 3: drop forfeits to scott, its second: dropped having played 1 of 4, under half, so
///   all its matches are excluded (GT-M5); start 2-2 clay;
/// - round 4: still to play.
///
/// Standings (GT-S5): scott 2 MP; start and clay ½ MP, 3 GP each, drew their match: they share
/// place 2-3 (AS-18); drop last, dropped.
pub fn division() -> Competition {
    let roster = |p: &str, names: [&str; 4], ratings: [u32; 4]| {
        (0..4)
            .map(|i| {
                player(
                    &format!("{p}{}", i + 1),
                    names[i],
                    ratings[i],
                    ratings[i] == 1200 && i == 3,
                )
            })
            .collect::<Vec<_>>()
    };
    let mut r1 = boards("clay", "drop", &["1-0", "-/+", "1-0", "+/-"]);
    if let MatchOutcome::Boards(b) = &mut r1 {
        // GT-P1: the home player won but would not keep score; the team point went away.
        b[1] = Board {
            result: GameResult::AwayWinByForfeit,
            rating_result: Some(GameResult::HomeWin),
            home_player: Some(PlayerId("clay2".into())),
            away_player: Some(PlayerId("drop2".into())),
            home_colour: None,
            unplayed: None,
            unfinished: None,
        };
    }
    Competition {
        name: "Division A".into(),
        teams: vec![
            team(
                "scott",
                AWKWARD,
                "Scott High School",
                roster(
                    "scott",
                    ["Zoë O'Brien", "Ana Ruiz", "Ben Lee", "Cy Young"],
                    [1650, 1500, 1400, 1200],
                ),
            ),
            team(
                "start",
                "Start Spartans",
                "Start High School",
                roster(
                    "start",
                    ["Dee Park", "Eli Stone", "Fay Wong", "Gus Hale"],
                    [1600, 1550, 1450, 1300],
                ),
            ),
            team(
                "clay",
                "Clay Eagles",
                "Clay High School",
                roster(
                    "clay",
                    ["Hal Ng", "Ivy Cole", "Jo Marsh", "Kit Dunn"],
                    [1580, 1490, 1380, 1200],
                ),
            ),
            team(
                "drop",
                "Waite Dropouts",
                "Waite High School",
                roster(
                    "drop",
                    ["Lou Fenn", "Mo Dix", "Ned Ash", "Oz Pike"],
                    [1300, 1250, 1210, 1200],
                ),
            ),
        ],
        rounds: vec![
            Round {
                number: 1,
                date: Some(date(2026, 11, 2)),
                pairings: vec![
                    game(
                        "scott",
                        "start",
                        boards("scott", "start", &["1-0", "1-0", "0-1", "1-0"]),
                    ),
                    game("clay", "drop", r1),
                ],
            },
            Round {
                number: 2,
                date: Some(date(2026, 11, 4)),
                pairings: vec![
                    game(
                        "scott",
                        "clay",
                        boards("scott", "clay", &["1-0", "1/2-1/2", "1-0", "1/2-1/2"]),
                    ),
                    game("start", "drop", MatchOutcome::Forfeit { by: Side::Away }),
                ],
            },
            Round {
                number: 3,
                date: Some(date(2026, 11, 9)),
                pairings: vec![
                    game("drop", "scott", MatchOutcome::Forfeit { by: Side::Home }),
                    game(
                        "start",
                        "clay",
                        boards(
                            "start",
                            "clay",
                            &["1/2-1/2", "1/2-1/2", "1/2-1/2", "1/2-1/2"],
                        ),
                    ),
                ],
            },
            Round {
                number: 4,
                date: Some(date(2026, 11, 16)),
                pairings: vec![
                    game("start", "scott", MatchOutcome::Pending),
                    game("drop", "clay", MatchOutcome::Pending),
                ],
            },
        ],
    }
}

/// A migrated in-memory store holding the division (GTHSCL 2026-27) and the example ASTC
/// championship when its file is there.
pub async fn store() -> Store {
    seeded(Store::open_sqlite_memory().await.unwrap()).await
}

/// A SQLite file in a fresh temp folder (several connections, as `arbiter serve` runs it), seeded
/// as [`store`]; the folder is the caller's to remove.
pub async fn file_store() -> (Store, std::path::PathBuf) {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("arbiter-web-test-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(dir.join("arbiter.db").to_str().unwrap())
        .await
        .unwrap();
    (seeded(store).await, dir)
}

/// [`store`] on a fresh schema of the PostgreSQL server `ARBITER_TEST_POSTGRES_URL` names, with
/// the schema's name to give [`drop_postgres`]; `None` when no server is named.
pub async fn postgres_store() -> Option<(Store, String)> {
    let url = testing::named_postgres_url()?;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let schema = format!("arbiter_web_test_{}_{nanos}", std::process::id());
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
    let store = Store::open(&testing::with_search_path(&url, &schema))
        .await
        .unwrap();
    Some((seeded(store).await, schema))
}

/// Drops the schema [`postgres_store`] made.
pub async fn drop_postgres(schema: &str) {
    let url = std::env::var("ARBITER_TEST_POSTGRES_URL").unwrap();
    let admin = sqlx::PgPool::connect(&url).await.unwrap();
    sqlx::query(&format!("DROP SCHEMA {schema} CASCADE"))
        .execute(&admin)
        .await
        .unwrap();
    admin.close().await;
}

/// Runs `body` on [`file_store`], then removes its folder.
pub async fn on_sqlite_file<Fut: std::future::Future<Output = ()>>(
    body: impl FnOnce(Store) -> Fut,
) {
    let (store, dir) = file_store().await;
    body(store).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `body` on [`postgres_store`], then drops its schema; skipped, saying so, when no
/// server is named.
pub async fn on_postgres<Fut: std::future::Future<Output = ()>>(body: impl FnOnce(Store) -> Fut) {
    let Some((store, schema)) = postgres_store().await else {
        eprintln!("skipped: set ARBITER_TEST_POSTGRES_URL to run this test on PostgreSQL");
        return;
    };
    body(store).await;
    drop_postgres(&schema).await;
}

/// `store` migrated and holding what [`store`] describes.
pub async fn seeded(store: Store) -> Store {
    store.migrate().await.unwrap();
    LeagueSetup::new(testing::gthscl())
        .season(testing::gthscl_2026_27())
        .competition(
            testing::new_competition(
                "division-a",
                "Division A",
                RulesRef::Preset("gthscl".into()),
            ),
            division(),
        )
        .write(&store)
        .await;
    store
}

/// Mail the tests send and do not read (notices, issue 13): a folder outside the work tree.
pub fn quiet_mail() -> arbiter_mail::Mailer {
    arbiter_mail::Mailer::folder(std::env::temp_dir().join("arbiter-web-tests-mail"))
}

/// Every request reads the data version (no freshness window), and "today" is Wednesday
/// 4 November 2026, in the week of rounds 1 and 2.
pub fn app(store: &Store) -> Router {
    router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(date(2026, 11, 4))
            .with_mail(quiet_mail(), "http://localhost:8080"),
    )
}

/// [`app`] on another day: `day` is "today" for the pages and for GT-P2's match-day rule.
pub fn app_on(store: &Store, day: jiff::civil::Date) -> Router {
    router(
        AppState::new(store.clone())
            .with_freshness(Duration::ZERO)
            .with_today(day)
            .with_mail(quiet_mail(), "http://localhost:8080"),
    )
}

#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap())
            .unwrap_or("")
    }

    /// Fails, showing the body, unless the answer has `status`.
    #[track_caller]
    pub fn assert_status(&self, status: StatusCode) {
        assert_eq!(self.status, status, "{}", self.body);
    }

    /// Fails, showing the body, unless the body contains `text`.
    #[track_caller]
    pub fn assert_contains(&self, text: &str) {
        assert!(self.body.contains(text), "{}", self.body);
    }

    /// Fails, showing the body, if the body contains `text`.
    #[track_caller]
    pub fn assert_lacks(&self, text: &str) {
        assert!(!self.body.contains(text), "{}", self.body);
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

pub async fn send(app: &Router, req: Request<Body>) -> Answer {
    let r = app.clone().oneshot(req).await.unwrap();
    let status = r.status();
    let headers = r.headers().clone();
    let bytes = axum::body::to_bytes(r.into_body(), 16 << 20).await.unwrap();
    Answer {
        status,
        headers,
        body: String::from_utf8(bytes.to_vec()).unwrap(),
    }
}

pub async fn get(app: &Router, uri: &str) -> Answer {
    send(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

/// [`get`], failing (showing the page) unless the answer has `status`.
pub async fn get_expect(app: &Router, uri: &str, status: StatusCode) -> Answer {
    let a = get(app, uri).await;
    assert_eq!(a.status, status, "GET {uri}: {}", a.body);
    a
}

/// [`get`], failing unless the page is there (200).
pub async fn get_ok(app: &Router, uri: &str) -> Answer {
    get_expect(app, uri, StatusCode::OK).await
}

/// A page for a snapshot: the stylesheet's version (it changes with every CSS edit) masked.
pub fn masked(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some(i) = rest.find("arbiter.css?v=") {
        let (head, tail) = rest.split_at(i + "arbiter.css?v=".len());
        out.push_str(head);
        out.push_str("HASH");
        let end = tail
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(tail.len());
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------------------
// Accounts and signed-in visitors (issue 5)

pub use arbiter_demo::testing::PASSWORD;

/// An account with `role` in the GTHSCL league (and `school`, for an advisor or the
/// President's own school), with [`PASSWORD`].
pub async fn account(
    store: &Store,
    email: &str,
    role: arbiter_core::rules::permissions::Role,
    school: Option<&str>,
) -> arbiter_store::User {
    testing::account(store, "gthscl", email, role, school).await
}

/// An advisor's account for `school` in the GTHSCL league, with [`PASSWORD`].
pub async fn advisor(store: &Store, email: &str, school: &str) -> arbiter_store::User {
    account(
        store,
        email,
        arbiter_core::rules::permissions::Role::Advisor,
        Some(school),
    )
    .await
}

/// An API token of the account `email` (made already) in the GTHSCL league, acting as `role`
/// (of `school`): its secret, for `Authorization: Bearer …`.
pub async fn api_token(
    store: &Store,
    email: &str,
    role: arbiter_core::rules::permissions::Role,
    school: Option<&str>,
) -> String {
    testing::api_token(store, "gthscl", email, role, school).await
}

/// A browser: its cookies, the last CSRF token it saw, and its address (each visitor has its
/// own, as the rate limits see them).
#[derive(Debug, Clone)]
pub struct Visitor {
    /// The `Cookie` header it sends, made from `jar`.
    pub cookie: Option<String>,
    pub jar: std::collections::BTreeMap<String, String>,
    pub csrf: String,
    pub addr: std::net::SocketAddr,
}

static NEXT_ADDR: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// The value of the first `name="csrf"` field of a page.
pub fn csrf_of(body: &str) -> Option<String> {
    let i = body.find("name=\"csrf\" value=\"")? + "name=\"csrf\" value=\"".len();
    let end = body[i..].find('"')?;
    Some(body[i..i + end].to_string())
}

impl Visitor {
    /// A new visitor with a session (from the sign-in form) and its CSRF token.
    pub async fn new(app: &Router) -> Visitor {
        let n = NEXT_ADDR.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut v = Visitor {
            cookie: None,
            jar: Default::default(),
            csrf: String::new(),
            addr: std::net::SocketAddr::from(([10, 0, (n >> 8) as u8, n as u8], 40000)),
        };
        let page = v.get(app, "/sign-in").await;
        page.assert_status(StatusCode::OK);
        v
    }

    /// Signed in as `email` with [`PASSWORD`].
    pub async fn signed_in(app: &Router, email: &str) -> Visitor {
        let mut v = Visitor::new(app).await;
        let a = v
            .post(app, "/sign-in", &[("email", email), ("password", PASSWORD)])
            .await;
        assert_eq!(
            a.status,
            StatusCode::SEE_OTHER,
            "sign-in of {email}: {}",
            a.body
        );
        // The next page's forms carry the new token.
        v.get(app, "/account").await;
        v
    }

    fn request(&self, method: &str, uri: &str) -> axum::http::request::Builder {
        let mut b = Request::builder().method(method).uri(uri);
        if let Some(c) = &self.cookie {
            b = b.header("cookie", c);
        }
        b.extension(axum::extract::ConnectInfo(self.addr))
    }

    fn learn(&mut self, a: &Answer) {
        let mut changed = false;
        for set in a.headers.get_all("set-cookie") {
            let set = set.to_str().unwrap();
            let pair = set.split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            if value.is_empty() || set.contains("Max-Age=0") {
                self.jar.remove(name);
            } else {
                self.jar.insert(name.to_string(), value.to_string());
            }
            changed = true;
        }
        if changed {
            let all: Vec<String> = self.jar.iter().map(|(n, v)| format!("{n}={v}")).collect();
            self.cookie = (!all.is_empty()).then(|| all.join("; "));
        }
        if let Some(t) = csrf_of(&a.body) {
            self.csrf = t;
        }
    }

    pub async fn get(&mut self, app: &Router, uri: &str) -> Answer {
        let a = send(app, self.request("GET", uri).body(Body::empty()).unwrap()).await;
        self.learn(&a);
        a
    }

    /// Posts a form with this visitor's CSRF token (unless `fields` has its own `csrf`).
    pub async fn post(&mut self, app: &Router, uri: &str, fields: &[(&str, &str)]) -> Answer {
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        let token = self.csrf.clone();
        if !fields.iter().any(|(k, _)| *k == "csrf") {
            all.push(("csrf", &token));
        }
        let body = all
            .iter()
            .map(|(k, v)| format!("{}={}", form_encode(k), form_encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        self.post_bytes(app, uri, body.into_bytes()).await
    }

    /// Posts a form as a browser sends one with a file input (`multipart/form-data`): `fields`,
    /// this visitor's CSRF token, and `file` as (input name, file name, the file's bytes).
    pub async fn post_with_file(
        &mut self,
        app: &Router,
        uri: &str,
        fields: &[(&str, &str)],
        file: (&str, &str, &[u8]),
    ) -> Answer {
        const BOUNDARY: &str = "----arbiter-test-boundary";
        let mut body = Vec::new();
        let token = self.csrf.clone();
        for (name, value) in fields.iter().chain([&("csrf", token.as_str())]) {
            body.extend_from_slice(
                format!(
                    "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
                )
                .as_bytes(),
            );
        }
        let (input, file_name, bytes) = file;
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{input}\"; filename=\"{file_name}\"\r\nContent-Type: text/csv\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
        let req = self
            .request("POST", uri)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={BOUNDARY}"),
            )
            .body(Body::from(body))
            .unwrap();
        let a = send(app, req).await;
        self.learn(&a);
        a
    }

    /// [`Visitor::get`], failing (showing the page) unless the answer has `status`.
    pub async fn get_expect(&mut self, app: &Router, uri: &str, status: StatusCode) -> Answer {
        let a = self.get(app, uri).await;
        assert_eq!(a.status, status, "GET {uri}: {}", a.body);
        a
    }

    /// [`Visitor::get`], failing unless the page is there (200).
    pub async fn get_ok(&mut self, app: &Router, uri: &str) -> Answer {
        self.get_expect(app, uri, StatusCode::OK).await
    }

    /// [`Visitor::post`], failing (showing what was sent and the answer) unless the answer has
    /// `status`.
    pub async fn post_expect(
        &mut self,
        app: &Router,
        uri: &str,
        fields: &[(&str, &str)],
        status: StatusCode,
    ) -> Answer {
        let a = self.post(app, uri, fields).await;
        assert_eq!(a.status, status, "POST {uri} {fields:?}: {}", a.body);
        a
    }

    /// [`Visitor::post`], failing unless the form is taken: the browser is sent on (303).
    pub async fn post_ok(&mut self, app: &Router, uri: &str, fields: &[(&str, &str)]) -> Answer {
        self.post_expect(app, uri, fields, StatusCode::SEE_OTHER)
            .await
    }

    /// [`Visitor::post`], failing unless the form is refused as it stands (422).
    pub async fn post_refused(
        &mut self,
        app: &Router,
        uri: &str,
        fields: &[(&str, &str)],
    ) -> Answer {
        self.post_expect(app, uri, fields, StatusCode::UNPROCESSABLE_ENTITY)
            .await
    }

    /// [`Visitor::post`], failing unless the visitor may not send it (403).
    pub async fn post_forbidden(
        &mut self,
        app: &Router,
        uri: &str,
        fields: &[(&str, &str)],
    ) -> Answer {
        self.post_expect(app, uri, fields, StatusCode::FORBIDDEN)
            .await
    }

    /// A form's body sent as the bytes given, with this visitor's cookie: for bodies no form
    /// would send.
    pub async fn post_bytes(&mut self, app: &Router, uri: &str, body: Vec<u8>) -> Answer {
        let req = self
            .request("POST", uri)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body))
            .unwrap();
        let a = send(app, req).await;
        self.learn(&a);
        a
    }
}

pub fn form_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                out.push(char::from(b))
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Whether an answer sends the browser to the sign-in form.
pub fn to_sign_in(a: &Answer) -> bool {
    a.status == StatusCode::SEE_OTHER && a.header("location").starts_with("/sign-in")
}

/// Issue 32 (item 19): the round page shows the scores typed to check before it saves them; the
/// value its confirmation sends back (`checked`), from the check page.
pub fn checked_value(body: &str) -> String {
    let marker = r#"name="checked" value=""#;
    let at = body
        .find(marker)
        .unwrap_or_else(|| panic!("no check of the round in {body}"))
        + marker.len();
    let end = body[at..].find('"').unwrap();
    body[at..at + end]
        .replace("&#43;", "+")
        .replace("&#61;", "=")
        .replace("&#45;", "-")
        .replace("&amp;", "&")
}

// ---------------------------------------------------------------------------------------------
// Schools (issue 32)

/// The GTHSCL's school named `name`, as the store keeps it.
pub async fn school(store: &Store, name: &str) -> arbiter_store::School {
    let league = store.league("gthscl").await.unwrap().unwrap();
    store
        .schools(league.id)
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no school named {name}"))
}

/// An officer's postal address for the GTHSCL's school `name`, where its home matches are.
pub async fn set_school_address(store: &Store, name: &str, address: &str) {
    let s = school(store, name).await;
    let address = arbiter_core::record::text::PostalAddress::parse("the address", address).unwrap();
    let league = store.league("gthscl").await.unwrap().unwrap();
    store
        .set_school_address(league.id, s.id, address.as_ref(), &Actor::system())
        .await
        .unwrap();
}

/// Round 4's match of Start Spartans at home in Division A, as the store numbers it.
pub async fn round_4_start_match(store: &arbiter_store::Store) -> arbiter_store::MatchId {
    store
        .load_competition("gthscl", "division-a")
        .await
        .unwrap()
        .unwrap()
        .match_id(4, &arbiter_core::TeamId("start".into()))
        .unwrap()
}
