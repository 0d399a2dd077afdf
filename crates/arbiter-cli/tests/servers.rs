//! Issue 16, part 3: two `arbiter serve` processes on one PostgreSQL database, as behind a load
//! balancer. Writes through both at once lose no update (of writers who read the same version,
//! one is stored and the others are answered 409); after each write both serve the same pages
//! with the same ETags, and a person's own page shows it at once on the other server; a session
//! made on one is good on the other; and the per-address limit on sign-in attempts counts the
//! attempts made through both.
//!
//! `cargo test -p arbiter-cli --test servers -- --ignored` (`.ci/run`). Needs
//! `ARBITER_TEST_POSTGRES_URL` (`.ci/postgres.sh start`); skipped without it, except under
//! CI=true, where it fails.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::net::IpAddr;
use std::time::{Duration, Instant};

use arbiter_store::Store;
use common::*;

/// A match with a result, corrected again and again.
const ROUND: u32 = 5;
const HOME: &str = "sjj-b";

/// The public page and API answer that change with every correction of the match.
const PAGES: [&str; 2] = [
    "/leagues/gthscl/2026-27/maumee",
    "/api/v1/leagues/gthscl/2026-27/maumee/standings",
];

/// A public page may lag another server's write by the data version's freshness (half a
/// second): waits, well beyond it, until both servers give the same ETag for `path`.
async fn same_on_both(a: &Server, b: &Server, path: &str) -> (String, String) {
    let started = Instant::now();
    loop {
        let (x, y) = (get(a.addr, path).await, get(b.addr, path).await);
        assert_eq!((x.status, y.status), (200, 200), "{path}");
        let (tx, ty) = (x.header("etag").unwrap(), y.header("etag").unwrap());
        if tx == ty {
            assert_eq!(x.body, y.body, "{path}: one ETag, two bodies");
            return (tx, x.body);
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{path}: the two servers still differ 10 s after a write ({tx} and {ty})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The form's hidden CSRF token on a page.
fn csrf(page: &str) -> String {
    let at = page
        .find(r#"name="csrf" value=""#)
        .expect("the page has a form")
        + 19;
    page[at..].split('"').next().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "starts two servers on PostgreSQL; .ci/run runs it"]
async fn two_servers_on_one_postgres_database_agree() {
    let Some(pg) = postgres_url() else { return };
    let dir = Scratch::new("servers");
    let db = Database::postgres(&pg, "servers").await;
    let mail = dir.0.join("mail");
    let tokens = seed(&db, &mail);
    // One site behind one public address (docs/deploy.md): the pages' absolute links (a
    // calendar's `webcal://`) are the same on both servers.
    let site = ["--base-url", "http://league.example"];
    let a = Server::start_with(&db, &dir.0, &site).await;
    let b = Server::start_with(&db, &dir.0, &site).await;
    let correction = format!("{API}/rounds/{ROUND}/matches/{HOME}/correction");
    let match_page = format!("/leagues/gthscl/2026-27/maumee/rounds/{ROUND}/matches/{HOME}");

    // Before any write, both serve the same pages.
    let mut before: Vec<(String, String)> = Vec::new();
    for path in PAGES {
        before.push(same_on_both(&a, &b, path).await);
    }

    let mut version: u32 = 1; // the import's
    for round in 0..5u32 {
        // Eight writers read version `version`; four send through each server at once.
        let by = if round % 2 == 0 { "home" } else { "away" };
        let writes: Vec<_> = (0..8u32)
            .map(|w| {
                let addr = if w % 2 == 0 { a.addr } else { b.addr };
                let token = tokens.president.clone();
                let path = correction.clone();
                let body = format!(
                    r#"{{"forfeit": "{by}", "reason": "round {round} writer {w}", "version": {version}}}"#
                );
                tokio::spawn(async move { (w, post(addr, &path, &token, &body).await) })
            })
            .collect();
        let mut stored = Vec::new();
        for write in writes {
            let (w, answer) = write.await.unwrap();
            match answer.status {
                201 => stored.push((w, answer.json()["version"].as_u64().unwrap())),
                409 => {}
                other => panic!("writer {w} was answered {other}: {}", answer.body),
            }
        }
        assert_eq!(
            stored.len(),
            1,
            "of eight writers of version {version}, exactly one is stored: {stored:?}"
        );
        let (winner, new) = stored[0];
        assert_eq!(new, u64::from(version) + 1, "the next version");
        version += 1;

        // A person's own page shows a write made through the other server at once, though
        // this server read the data version a moment before.
        let primed = get(b.addr, &match_page).await;
        assert_eq!(primed.status, 200);
        let reason = format!("round {round} through A");
        let body = format!(r#"{{"forfeit": "{by}", "reason": "{reason}", "version": {version}}}"#);
        let through_a = post(a.addr, &correction, &tokens.president, &body).await;
        assert_eq!(through_a.status, 201, "{}", through_a.body);
        version += 1;
        let page = get(b.addr, &match_page).await;
        assert_eq!(page.status, 200);
        assert!(
            page.body.contains(&reason)
                && page
                    .body
                    .contains(&format!("round {round} writer {winner}")),
            "the match page on B shows A's write at once"
        );
        // Every public page: the same on both, and not what it was before the write.
        for (path, old) in PAGES.iter().zip(&mut before) {
            let now = same_on_both(&a, &b, path).await;
            assert_ne!(now.0, old.0, "{path}: a new ETag after the write");
            for server in [&a, &b] {
                let answer =
                    request(server.addr, "GET", path, &[("If-None-Match", &old.0)], "").await;
                assert_eq!(answer.status, 200, "{path}: the old ETag is not current");
            }
            *old = now;
        }
    }
    // No update lost: the store holds the import's version and every one answered 201.
    let store = Store::open(&db.url).await.unwrap();
    let loaded = store
        .load_competition(LEAGUE, COMPETITION)
        .await
        .unwrap()
        .unwrap();
    let id = loaded
        .match_ids
        .iter()
        .find(|(r, h, _)| *r == ROUND && h.0 == HOME)
        .unwrap()
        .2;
    let versions = store.result_versions(id).await.unwrap();
    assert_eq!(
        versions.len(),
        11,
        "the import's version and two corrections a round: none lost"
    );
    if let Some(pool) = store.pg_pool() {
        pool.close().await;
    }

    // A session made on one server is good on the other: the President sets a password from
    // the link `arbiter user add` printed (which signs in) through A, then reads the account
    // page through B.
    let said = arbiter(
        &[
            "user",
            "add",
            "--email",
            "secretary@gthscl.example",
            "--role",
            "secretary",
            "--league",
            LEAGUE,
            db.flag(),
            &db.url,
        ],
        &mail,
    );
    let link = said
        .split_whitespace()
        .find(|w| w.contains("/reset/"))
        .expect("the reset link is printed");
    let path = &link[link.find("/reset/").unwrap()..];
    let form = get(a.addr, path).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let cookie = form.cookies().join("; ");
    let body = format!(
        "csrf={}&password=several+unrelated+words+here&password_again=several+unrelated+words+here",
        csrf(&form.body)
    );
    let done = request(
        a.addr,
        "POST",
        path,
        &[
            ("Cookie", &cookie),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        &body,
    )
    .await;
    assert!(
        done.status == 303 || done.status == 200,
        "the password is set through A: {} {}",
        done.status,
        done.body
    );
    let session = done
        .cookies()
        .into_iter()
        .find(|c| c.starts_with("arbiter_session="))
        .expect("setting the password signs in");
    for server in [&b, &a] {
        let account = request(server.addr, "GET", "/account", &[("Cookie", &session)], "").await;
        assert_eq!(account.status, 200, "the session is good on both servers");
        assert!(account.body.contains("secretary@gthscl.example"));
    }
    let anonymous = get(b.addr, "/account").await;
    assert_ne!(
        anonymous.status, 200,
        "without the session, no account page"
    );

    // The per-address limit counts attempts through both servers: from one address, ten
    // sign-in attempts in a minute whichever server takes them, then 429 from either.
    let from: IpAddr = "127.0.0.9".parse().unwrap();
    let attempt = |server: &Server, n: u32| {
        let addr = server.addr;
        async move {
            let body = format!("csrf=x&email=nobody{n}%40gthscl.example&password=wrong");
            request_from(
                Some(from),
                addr,
                "POST",
                "/sign-in",
                &[("Content-Type", "application/x-www-form-urlencoded")],
                &body,
            )
            .await
        }
    };
    for n in 0..10 {
        let server = if n % 2 == 0 { &a } else { &b };
        let answer = attempt(server, n).await;
        assert!(
            answer.status != 429 && answer.status != 0,
            "attempt {n} is let through: {}",
            answer.status
        );
    }
    for (n, server) in [(10, &a), (11, &b)] {
        let answer = attempt(server, n).await;
        assert_eq!(answer.status, 429, "attempt {n}: {}", answer.body);
        assert!(answer.header("retry-after").is_some());
    }
    // Another address still has its attempts.
    let answer = request(
        b.addr,
        "POST",
        "/sign-in",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        "csrf=x&email=someone%40gthscl.example&password=wrong",
    )
    .await;
    assert_ne!(answer.status, 429, "127.0.0.1 has its own count");

    drop((a, b));
    db.drop_schema().await;
}
