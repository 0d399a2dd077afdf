//! The demo site in a real browser: `arbiter demo` on a free port, headless Chromium driven
//! through chromedriver (fantoccini), the home page and standings pages at phone width (390 px)
//! and desktop width (1280 px); then the accounts' path of issue 5 on a phone: the President
//! sets a password from the demo's link, invites an advisor, the advisor signs up from the
//! mailed link and enters a match result; the season's end (issue 15); and the ASTC's event
//! days run by its arbiter (issue 14, `browser/event.rs`). Screenshots go to `target/screenshots/`. How to run
//! it: docs/testing.md, "Browser tests".
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "common/run.rs"]
mod run;
use run::cmd;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use arbiter_core::{Ruleset, standings};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

const INSTALL: &str = "The browser test needs Chromium and its WebDriver; on Debian install them with `apt-get install -y chromium chromium-driver`.";

/// A child process that is killed when the test ends, however it ends.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The first of `names` on the PATH (or in Debian's chromium directory).
fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.push("/usr/lib/chromium".into());
    names
        .iter()
        .flat_map(|n| dirs.iter().map(move |d| d.join(n)))
        .find(|p| p.is_file())
}

/// A plain HTTP GET on loopback: the status and what came of the body before the server
/// closed the connection or went quiet for two seconds.
fn get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(2))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut bytes = Vec::new();
    let _ = s.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes);
    let status = text.split_whitespace().nth(1)?.parse().ok()?;
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    Some((status, body))
}

fn wait_for(port: u16, path: &str, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if get(port, path).is_some_and(|(status, _)| status == 200) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    false
}

fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

type Check = Result<(), String>;

macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

#[path = "browser/event.rs"]
mod event;

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Sizes the window so that the page's viewport is `width` wide and shows the whole page,
/// then saves a screenshot.
async fn shoot(client: &Client, width: u32, name: &str) -> Check {
    let js = |s: &'static str| async move {
        client
            .execute(s, vec![])
            .await
            .map_err(err)
            .map(|v| v.as_u64().unwrap_or(0) as u32)
    };
    client.set_window_size(width, 900).await.map_err(err)?;
    let inner = js("return window.innerWidth;").await?;
    let outer = width + width.saturating_sub(inner);
    let height = js("return document.documentElement.scrollHeight;")
        .await?
        .clamp(600, 8000);
    client
        .set_window_size(
            outer,
            height + 900u32.saturating_sub(js("return window.innerHeight;").await?),
        )
        .await
        .map_err(err)?;
    let png = client.screenshot().await.map_err(err)?;
    std::fs::write(screenshots().join(format!("{name}-{width}.png")), png).map_err(err)?;
    Ok(())
}

/// The page is no wider than the window: a phone reader never scrolls the whole page sideways
/// (wide tables scroll inside their own box).
async fn fits(client: &Client, width: u32, page: &str) -> Check {
    let v = client
        .execute(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await
        .map_err(err)?;
    let (scroll, inner) = (v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0));
    ensure!(
        scroll <= inner,
        "{page} at {width} px: the page is {scroll} px wide in a {inner} px window"
    );
    Ok(())
}

async fn body_text(client: &Client) -> Result<String, String> {
    client
        .find(Locator::Css("body"))
        .await
        .map_err(err)?
        .text()
        .await
        .map_err(err)
}

/// The standings table as the browser shows it: each row's place and team.
async fn standings_rows(client: &Client) -> Result<Vec<(String, String)>, String> {
    Ok(standings_mp(client)
        .await?
        .into_iter()
        .map(|(place, team, _)| (place, team))
        .collect())
}

/// The day the demo is shown as of: a Wednesday of the GTHSCL season with Wood County's round 5
/// to play, Rossford already dropped (GT-M5). Fixed, so the test does not depend on the clock.
fn demo_day() -> jiff::civil::Date {
    jiff::civil::date(2026, 12, 2)
}

async fn pages(client: &Client, base: &str) -> Check {
    let demo = arbiter_demo::generate(demo_day());
    let competition = |league: &str, slug: &str| {
        demo.leagues
            .iter()
            .find(|l| l.slug == league)
            .and_then(|l| {
                l.seasons
                    .iter()
                    .flat_map(|s| &s.competitions)
                    .find(|c| c.slug == slug)
            })
            .unwrap()
    };
    for width in [390, 1280] {
        client.set_window_size(width, 900).await.map_err(err)?;

        client.goto(&format!("{base}/")).await.map_err(err)?;
        let text = body_text(client).await?;
        for league in &demo.leagues {
            ensure!(
                text.contains(&league.name),
                "the home page at {width} px does not show {}",
                league.name
            );
        }
        fits(client, width, "the home page").await?;
        shoot(client, width, "home").await?;

        // AS-18: the ASTC field whose two teams share a place.
        let field = competition("astc", "primary-girls-2025");
        let rules = Ruleset::preset(&field.rules).unwrap();
        let expected = standings(&field.competition, &rules).unwrap();
        client.set_window_size(width, 900).await.map_err(err)?;
        client
            .goto(&format!("{base}/leagues/astc/2025/primary-girls-2025"))
            .await
            .map_err(err)?;
        let rows = standings_rows(client).await?;
        ensure!(
            rows.len() == expected.rows.len(),
            "the Primary Girls standings at {width} px have {} rows, not {}",
            rows.len(),
            expected.rows.len()
        );
        for ((place, team), want) in rows.iter().zip(&expected.rows) {
            let name = &field.competition.teams[want.team].name;
            ensure!(
                place == &want.place && team.contains(name.as_str()),
                "the Primary Girls standings at {width} px show `{place} {team}` where the standings have `{} {name}`",
                want.place
            );
        }
        ensure!(
            rows.iter().filter(|(p, _)| p.contains('-')).count() >= 2,
            "no shared place (AS-18) in the Primary Girls standings at {width} px"
        );
        fits(client, width, "the Primary Girls standings").await?;
        shoot(client, width, "standings-astc-primary-girls").await?;

        // GT-M5: the GTHSCL division with the dropped team.
        let division = competition("gthscl", "wood-county");
        client.set_window_size(width, 900).await.map_err(err)?;
        client
            .goto(&format!("{base}/leagues/gthscl/2026-27/wood-county"))
            .await
            .map_err(err)?;
        let rows = standings_rows(client).await?;
        ensure!(
            rows.len() == division.competition.teams.len(),
            "the Wood County standings at {width} px have {} rows",
            rows.len()
        );
        ensure!(
            rows.last()
                .is_some_and(|(_, t)| t.contains("Rossford") && t.contains("dropped")),
            "the Wood County standings at {width} px do not end with Rossford, dropped (GT-M5): {rows:?}"
        );
        fits(client, width, "the Wood County standings").await?;
        shoot(client, width, "standings-gthscl-wood-county").await?;
        // Issue 11: the rating list, reached by its tab, and a player's rating history from it.
        client
            .find(Locator::Css("nav.tabs a[href$='/ratings']"))
            .await
            .map_err(err)?
            .click()
            .await
            .map_err(err)?;
        let listed = client
            .find_all(Locator::Css("table.ratings tbody tr"))
            .await
            .map_err(err)?
            .len();
        let rostered: usize = division
            .competition
            .teams
            .iter()
            .map(|t| t.players.len())
            .sum();
        ensure!(
            listed == rostered,
            "the Wood County rating list at {width} px has {listed} rows for {rostered} players"
        );
        fits(client, width, "the Wood County rating list").await?;
        shoot(client, width, "ratings-gthscl-wood-county").await?;
        client
            .find(Locator::Css(
                "table.ratings tbody tr td a[href*='/players/']",
            ))
            .await
            .map_err(err)?
            .click()
            .await
            .map_err(err)?;
        client
            .find(Locator::Css("figure.chart svg polyline.rating"))
            .await
            .map_err(|e| format!("the first player of the rating list has no rating chart: {e}"))?;
        fits(client, width, "a player's rating history").await?;
        shoot(client, width, "player-rating-history").await?;
    }
    Ok(())
}

async fn fill(client: &Client, css: &str, text: &str) -> Check {
    let e = client.find(Locator::Css(css)).await.map_err(err)?;
    e.clear().await.map_err(err)?;
    e.send_keys(text).await.map_err(err)
}

async fn choose(client: &Client, css: &str, value: &str) -> Check {
    client
        .find(Locator::Css(css))
        .await
        .map_err(err)?
        .select_by_value(value)
        .await
        .map_err(err)
}

async fn submit(client: &Client, form: &str) -> Check {
    client
        .find(Locator::Css(&format!("{form} button[type=submit]")))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)
}

/// Waits (a click does not) until the browser is on `want`.
async fn path_is(client: &Client, want: &str) -> Check {
    let start = Instant::now();
    loop {
        let url = client.current_url().await.map_err(err)?;
        if url.path() == want {
            return Ok(());
        }
        if start.elapsed() > Duration::from_secs(15) {
            let text = body_text(client).await.unwrap_or_default();
            return Err(format!("the browser is on {url}, not {want}: {text}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the page says `needle`; returns the page's text.
async fn says(client: &Client, needle: &str, what: &str) -> Result<String, String> {
    let start = Instant::now();
    loop {
        let text = body_text(client).await.unwrap_or_default();
        if text.contains(needle) {
            return Ok(text);
        }
        if start.elapsed() > Duration::from_secs(15) {
            return Err(format!("{what}: the page does not say “{needle}”: {text}"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The link to `path_start` in the newest mail of `dir` to `to` (quoted-printable undone).
fn mailed_link(dir: &Path, to: &str, path_start: &str) -> Result<String, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("no mail folder {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    for f in files.iter().rev() {
        let raw = std::fs::read_to_string(f).map_err(err)?;
        if !raw.to_lowercase().contains(to) {
            continue;
        }
        let text = raw
            .replace("=\r\n", "")
            .replace("=\n", "")
            .replace("=3D", "=");
        let i = text
            .find(path_start)
            .ok_or_else(|| format!("no {path_start} link in {}", f.display()))?;
        let start = text[..i].rfind("http").unwrap_or(i);
        let end = text[i..]
            .find(char::is_whitespace)
            .map_or(text.len(), |e| i + e);
        return Ok(text[start..end].to_string());
    }
    Err(format!("no mail to {to} in {}", dir.display()))
}

/// A GTHSCL match of the demo day still to report (GT-P2: from its day on): its address, the
/// schools of the home and visiting teams, and the home team's name.
struct Pending {
    path: String,
    home_school: String,
    away_school: String,
    home_team: String,
}

fn pending_home_match() -> Pending {
    pending_matches()
        .into_iter()
        .next()
        .expect("the demo's GTHSCL season has no match still to play")
}

/// Every GTHSCL match of the demo day still to report between two schools, in the demo's order.
fn pending_matches() -> Vec<Pending> {
    let today = demo_day();
    let demo = arbiter_demo::generate(today);
    let league = demo.leagues.iter().find(|l| l.slug == "gthscl").unwrap();
    let mut out = Vec::new();
    for season in &league.seasons {
        for c in &season.competitions {
            for r in c
                .competition
                .rounds
                .iter()
                .filter(|r| r.date == Some(today))
            {
                for p in &r.pairings {
                    let arbiter_core::Pairing::Match(m) = p else {
                        continue;
                    };
                    if m.outcome != arbiter_core::MatchOutcome::Pending {
                        continue;
                    }
                    let team = |id| c.competition.teams.iter().find(|t| &t.id == id).unwrap();
                    let (home, away) = (team(&m.home), team(&m.away));
                    if let (Some(h), Some(a)) = (&home.school, &away.school)
                        && h != a
                    {
                        out.push(Pending {
                            path: format!(
                                "/leagues/gthscl/{}/{}/rounds/{}/matches/{}",
                                season.slug, c.slug, r.number, m.home.0
                            ),
                            home_school: h.clone(),
                            away_school: a.clone(),
                            home_team: home.name.clone(),
                        });
                    }
                }
            }
        }
    }
    out
}

/// Issue 12 on a phone: the home advisor changes the lineup named for today's match, boards 1
/// and 4 swapped; the page refuses it with the rule (GT-M11 or GT-M13), the advisor puts them
/// back, and it is saved as the next version.
async fn lineup(client: &Client, match_path: &str) -> Check {
    let demo = arbiter_demo::generate(demo_day());
    let named = demo
        .leagues
        .iter()
        .flat_map(|l| l.seasons.iter().flat_map(|s| &s.competitions))
        .flat_map(|c| &c.lineups)
        .find(|l| {
            l.side == arbiter_core::Side::Home
                && match_path.ends_with(&format!("/rounds/{}/matches/{}", l.round, l.home))
        })
        .ok_or_else(|| format!("the demo names no home lineup for {match_path}"))?;
    let id = |board: usize| {
        named.lineup.boards[board]
            .as_ref()
            .map(|p| p.0.clone())
            .unwrap_or_default()
    };
    says(client, "Change the lineup", "the match page's lineup").await?;
    client
        .find(Locator::Css("#lineup-home details.lineup-form > summary"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    choose(client, "#lineup-home select[name=board_1]", &id(3)).await?;
    choose(client, "#lineup-home select[name=board_4]", &id(0)).await?;
    submit(client, "#lineup-home form.lineup").await?;
    let text = says(
        client,
        "The lineup was not saved",
        "after a lineup out of order",
    )
    .await?;
    ensure!(
        text.contains("GT-M11") || text.contains("GT-M13"),
        "the refusal names no board-order rule: {text}"
    );
    fits(client, 390, "the refused lineup").await?;
    shoot(client, 390, "lineup-refused").await?;
    choose(client, "#lineup-home select[name=board_1]", &id(0)).await?;
    choose(client, "#lineup-home select[name=board_4]", &id(3)).await?;
    submit(client, "#lineup-home form.lineup").await?;
    says(
        client,
        "version 2, named by advisor@school.example",
        "after the lineup is fixed",
    )
    .await?;
    shoot(client, 390, "lineup-saved").await?;
    Ok(())
}

/// A match of the demo's GTHSCL season still to play a week or more after the demo's day, and
/// the first day core's GT-M2 check lets it move to: its page, its home team's calendar feed,
/// and the day.
fn movable_match() -> (String, String, jiff::civil::Date) {
    let today = demo_day();
    let demo = arbiter_demo::generate(today);
    let calendar = arbiter_demo::gthscl::calendar();
    let league = demo.leagues.iter().find(|l| l.slug == "gthscl").unwrap();
    for season in &league.seasons {
        for c in &season.competitions {
            for r in &c.competition.rounds {
                let Some(day) = r.date.filter(|d| *d > today + jiff::ToSpan::days(7)) else {
                    continue;
                };
                for p in &r.pairings {
                    let arbiter_core::Pairing::Match(m) = p else {
                        continue;
                    };
                    let base = format!("/leagues/gthscl/{}/{}", season.slug, c.slug);
                    for k in 1..=10 {
                        let to = day + jiff::ToSpan::days(k);
                        let mv = arbiter_core::season::postpone::Move {
                            round: r.number,
                            home: m.home.clone(),
                            to,
                            today,
                            calendar: Some(calendar.clone()),
                            why: arbiter_core::season::postpone::Postponement::Arranged,
                            weekend_days: Vec::new(),
                        };
                        if arbiter_core::season::postpone::check(&c.competition, &mv).is_empty() {
                            return (
                                format!("{base}/rounds/{}/matches/{}", r.number, m.home.0),
                                format!("{base}/teams/{}/schedule.ics", m.home.0),
                                to,
                            );
                        }
                    }
                }
            }
        }
    }
    panic!("the demo's GTHSCL season has no match to move")
}

/// Issue 12: the President's set-up page on a phone and a desktop, and a match moved on a
/// phone (GT-M2), after which its home team's calendar feed has the new day.
async fn set_up_and_move(client: &Client, base: &str, port: u16) -> Check {
    client
        .goto(&format!("{base}/leagues/gthscl/setup"))
        .await
        .map_err(err)?;
    says(client, "New division", "the set-up page").await?;
    fits(client, 390, "the set-up page").await?;
    shoot(client, 390, "setup").await?;
    shoot(client, 1280, "setup").await?;
    client
        .goto(&format!(
            "{base}/leagues/gthscl/rosters?competition=2026-27%2Fmetro"
        ))
        .await
        .map_err(err)?;
    says(client, "The rosters", "the Rosters page").await?;
    fits(client, 390, "the Rosters page").await?;
    shoot(client, 390, "rosters").await?;
    shoot(client, 1280, "rosters").await?;
    client
        .goto(&format!("{base}/leagues/gthscl/ledger"))
        .await
        .map_err(err)?;
    says(client, "Otsego", "the fee ledger").await?;
    fits(client, 390, "the fee ledger").await?;
    shoot(client, 390, "ledger").await?;
    shoot(client, 1280, "ledger").await?;
    client.set_window_size(390, 900).await.map_err(err)?;

    let (path, feed, to) = movable_match();
    let compact = to.strftime("%Y%m%d").to_string();
    let (_, before) = get(port, &feed).ok_or("the team's feed did not answer")?;
    ensure!(
        !before.contains(&format!("DTSTART;VALUE=DATE:{compact}")),
        "the feed already has {to} before the move"
    );
    client.goto(&format!("{base}{path}")).await.map_err(err)?;
    client
        .find(Locator::Css("#move > summary"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    // A date field takes its value as the browser's locale shows it; set it as the form sends it.
    client
        .execute(
            "document.querySelector('#move input[name=date]').value = arguments[0];",
            vec![json!(to.to_string())],
        )
        .await
        .map_err(err)?;
    fill(
        client,
        "#move textarea[name=reason]",
        "The visitors' bus is taken that day.",
    )
    .await?;
    shoot(client, 390, "move-form").await?;
    submit(client, "#move form").await?;
    // The match page again, on its new day (a refusal would say "The match was not moved").
    says(
        client,
        &to.strftime("%a %-d %b %Y").to_string(),
        "after moving the match",
    )
    .await?;
    let (_, after) = get(port, &feed).ok_or("the team's feed did not answer")?;
    ensure!(
        after.contains(&format!("DTSTART;VALUE=DATE:{compact}")),
        "the team's feed does not have the new day {to}: {after}"
    );
    Ok(())
}

/// Issue 5 on a phone: the President's first password, an invitation, the advisor's sign-up
/// and a result entered from the match page.
async fn accounts(
    client: &Client,
    base: &str,
    port: u16,
    president_link: &str,
    mail: &Path,
) -> Check {
    let pending = pending_home_match();
    let (match_path, school) = (pending.path.clone(), pending.home_school.clone());
    // The home team's match points before its match is reported.
    let before = home_mp(client, base, &pending).await?;
    client.set_window_size(390, 900).await.map_err(err)?;
    client.goto(president_link).await.map_err(err)?;
    fits(client, 390, "the set-password page").await?;
    shoot(client, 390, "set-password").await?;
    let password = "a long demo passphrase";
    fill(client, "input[name=password]", password).await?;
    fill(client, "input[name=password_again]", password).await?;
    submit(client, "form.stack").await?;
    path_is(client, "/account").await?;
    shoot(client, 390, "account-president").await?;
    set_up_and_move(client, base, port).await?;

    client
        .goto(&format!("{base}/leagues/gthscl/people"))
        .await
        .map_err(err)?;
    let advisor = "advisor@school.example";
    let visitor = "visitor@school.example";
    for (email, school) in [(advisor, &school), (visitor, &pending.away_school)] {
        fill(client, "input[name=email]", email).await?;
        choose(client, "select[name=role]", "advisor").await?;
        choose(client, "select[name=school]", school).await?;
        submit(client, "form.stack").await?;
        says(
            client,
            &format!("The invitation to {email} is on its way"),
            "after inviting",
        )
        .await?;
    }
    fits(client, 390, "the People page").await?;
    shoot(client, 390, "people").await?;
    shoot(client, 1280, "people").await?;

    // The advisor, in the same browser after the President signs out.
    client.set_window_size(390, 900).await.map_err(err)?;
    client.goto(&format!("{base}/account")).await.map_err(err)?;
    submit(client, "form[action='/sign-out']").await?;
    path_is(client, "/").await?;
    let invite = mailed_link(mail, advisor, "/invites/")?;
    client.goto(&invite).await.map_err(err)?;
    let url = client.current_url().await.map_err(err)?;
    ensure!(
        url.path().starts_with("/invites/"),
        "the mailed invitation {invite} led to {url}"
    );
    shoot(client, 390, "invitation").await?;
    fill(client, "input[name=name]", "Alex Advisor").await?;
    fill(client, "input[name=password]", password).await?;
    fill(client, "input[name=password_again]", password).await?;
    submit(client, "form.stack").await?;
    path_is(client, "/account").await?;
    let text = body_text(client).await?;
    ensure!(
        text.contains("Your school's matches") && text.contains(&school),
        "the advisor's account page does not list {school}'s matches: {text}"
    );
    shoot(client, 390, "account-advisor").await?;

    client
        .goto(&format!("{base}{match_path}"))
        .await
        .map_err(err)?;
    lineup(client, &match_path).await?;
    fits(client, 390, "the match page").await?;
    shoot(client, 390, "match-entry").await?;
    for board in 1..=3 {
        choose(client, &format!("select[name=result_{board}]"), "1-0").await?;
    }
    // Issue 13, GT-M16: the home coach forfeited board 4.
    choose(client, "select[name=result_4]", "-/+").await?;
    client
        .find(Locator::XPath(
            "//select[@name='unplayed_4']/ancestor::details[1]/summary",
        ))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    choose(client, "select[name=unplayed_4]", "coach").await?;
    shoot(client, 390, "match-coach-forfeit").await?;
    submit(client, "form.result").await?;
    says(client, "awaiting the visitors", "after entering the result").await?;
    says(
        client,
        "Not played: forfeited by the coach (GT-M16).",
        "the match page after a coach's forfeit",
    )
    .await?;
    shoot(client, 390, "match-entered").await?;
    dispute_and_decide(client, base, &pending, mail, password).await?;
    adjudicate_and_upload(client, base).await?;
    let after = home_mp(client, base, &pending).await?;
    ensure!(
        before.is_some() && after.is_some() && before != after,
        "{}'s match points did not change with the decided result: {before:?} then {after:?}",
        pending.home_team
    );
    Ok(())
}

/// Issue 15 in the browser: the demo from the day after its regular season (every division
/// match played), where the President sets a password, qualifies the divisions (GT-F3), draws
/// the knockout of the six qualifiers (byes to the top two), enters every round on the round
/// page and pairs the next, to the final's winner; the bracket and the awards list show it,
/// on a phone and on a laptop.
async fn season_end(client: &Client, base: &str, president_link: &str) -> Check {
    const SEASON: &str = "/leagues/gthscl/2026-27";
    client.set_window_size(390, 900).await.map_err(err)?;
    client.goto(president_link).await.map_err(err)?;
    let password = "a long demo passphrase";
    fill(client, "input[name=password]", password).await?;
    fill(client, "input[name=password_again]", password).await?;
    submit(client, "form.stack").await?;
    path_is(client, "/account").await?;

    client.goto(&format!("{base}{SEASON}")).await.map_err(err)?;
    says(client, "Playoffs", "the season page links the playoffs").await?;
    client
        .goto(&format!("{base}{SEASON}/qualification"))
        .await
        .map_err(err)?;
    says(client, "The field, seeded", "the qualification page").await?;
    fits(client, 390, "the qualification page").await?;
    shoot(client, 390, "qualification").await?;
    shoot(client, 1280, "qualification").await?;
    client.set_window_size(390, 900).await.map_err(err)?;
    click(client, "button[value=draw]").await?;
    says(client, "The playoffs are drawn", "after the draw").await?;

    let mut round = 1;
    loop {
        client
            .goto(&format!(
                "{base}{SEASON}/playoffs-2026-27/rounds/{round}/results"
            ))
            .await
            .map_err(err)?;
        let boards = client
            .find_all(Locator::Css("form.round-entry input[type=text]"))
            .await
            .map_err(err)?;
        ensure!(
            !boards.is_empty(),
            "round {round} of the playoffs has no boards to type"
        );
        for b in boards {
            // The home side wins each board: the higher seed goes through.
            b.send_keys("1").await.map_err(err)?;
        }
        if round == 1 {
            shoot(client, 390, "playoff-round-entry").await?;
            client.set_window_size(390, 900).await.map_err(err)?;
        }
        click(client, "form.round-entry button[type=submit]").await?;
        // Issue 32 (item 19): the scores are shown to check, then saved.
        says(
            client,
            "Check before saving",
            "after typing a playoff round",
        )
        .await?;
        click(client, "section.check button[type=submit]").await?;
        says(
            client,
            "Each stands as the officer's entry",
            "after saving a playoff round",
        )
        .await?;
        client
            .goto(&format!("{base}{SEASON}/qualification"))
            .await
            .map_err(err)?;
        if client
            .find(Locator::Css("button[value=pair]"))
            .await
            .is_err()
        {
            break;
        }
        click(client, "button[value=pair]").await?;
        says(client, "The next round is paired", "after pairing").await?;
        round += 1;
        ensure!(
            round <= 4,
            "a knockout of six has three rounds, not {round}"
        );
    }
    ensure!(
        round == 3,
        "the knockout of six ended after round {round}, not 3"
    );

    client
        .goto(&format!("{base}{SEASON}/playoffs"))
        .await
        .map_err(err)?;
    says(client, "Playoff winner:", "the bracket after the final").await?;
    fits(client, 390, "the bracket").await?;
    shoot(client, 390, "bracket").await?;
    shoot(client, 1280, "bracket").await?;
    client.set_window_size(390, 900).await.map_err(err)?;
    client
        .goto(&format!("{base}{SEASON}/awards"))
        .await
        .map_err(err)?;
    let text = says(client, "Playoff winner", "the awards list").await?;
    ensure!(
        text.contains("Playoff runner-up") && text.contains("Trophies to buy: 5"),
        "the awards list lacks the playoff's trophies: {text}"
    );
    fits(client, 390, "the awards list").await?;
    shoot(client, 390, "awards").await?;
    shoot(client, 1280, "awards").await
}

async fn click(client: &Client, css: &str) -> Check {
    client
        .find(Locator::Css(css))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)
}

/// The home team's match points on its competition's standings.
async fn home_mp(client: &Client, base: &str, pending: &Pending) -> Result<Option<String>, String> {
    let competition = pending.path.split("/rounds/").next().unwrap_or_default();
    client
        .goto(&format!("{base}{competition}"))
        .await
        .map_err(err)?;
    Ok(standings_mp(client)
        .await?
        .into_iter()
        .find(|(_, team, _)| team.contains(&pending.home_team))
        .map(|(_, _, mp)| mp))
}

/// Issue 13 on a phone: the visiting advisor, told by mail, disputes the result; the President
/// finds the dispute on the account page and decides it; the standings change and every step is
/// in the match's versions.
async fn dispute_and_decide(
    client: &Client,
    base: &str,
    pending: &Pending,
    mail: &Path,
    password: &str,
) -> Check {
    client.goto(&format!("{base}/account")).await.map_err(err)?;
    submit(client, "form[action='/sign-out']").await?;
    path_is(client, "/").await?;
    let visitor = "visitor@school.example";
    client
        .goto(&mailed_link(mail, visitor, "/invites/")?)
        .await
        .map_err(err)?;
    fill(client, "input[name=name]", "Vic Visitor").await?;
    fill(client, "input[name=password]", password).await?;
    fill(client, "input[name=password_again]", password).await?;
    submit(client, "form.stack").await?;
    path_is(client, "/account").await?;
    // The account page asks the visitors to review the result (GT-P2).
    client
        .find(Locator::XPath(
            "//ul[@class='tasks']//a[starts-with(., 'Confirm or dispute version 2')]",
        ))
        .await
        .map_err(|e| format!("the visitors' account page asks for no review: {e}"))?
        .click()
        .await
        .map_err(err)?;
    path_is(client, &pending.path).await?;
    says(client, "Confirm or dispute", "the visitors' match page").await?;
    fill(
        client,
        "#review form.dispute textarea[name=reason]",
        "Board 4 was played and drawn; the coach did not forfeit it.",
    )
    .await?;
    submit(client, "#review form.dispute").await?;
    says(client, "The visitors disputed version", "after the dispute").await?;
    shoot(client, 390, "match-disputed").await?;

    client.goto(&format!("{base}/account")).await.map_err(err)?;
    submit(client, "form[action='/sign-out']").await?;
    path_is(client, "/").await?;
    client.goto(&format!("{base}/sign-in")).await.map_err(err)?;
    fill(client, "input[name=email]", "president@gthscl.example").await?;
    fill(client, "input[name=password]", password).await?;
    submit(client, "form.stack").await?;
    path_is(client, "/account").await?;
    says(
        client,
        "Decide the dispute of version",
        "the President's account page",
    )
    .await?;
    shoot(client, 390, "account-president-tasks").await?;
    client
        .find(Locator::LinkText("Decide the dispute of version 2 (GT-O3)"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    path_is(client, &pending.path).await?;
    fill(
        client,
        "#decision form.dispute textarea[name=reason]",
        "The referee's report and both score sheets record the coach's forfeit of board 4.",
    )
    .await?;
    submit(client, "#decision form.dispute").await?;
    let text = says(
        client,
        "decided the dispute of version 2",
        "after the President's decision",
    )
    .await?;
    for step in [
        "Version 2 entered",
        "Version 2 disputed",
        "Dispute of version 2 decided",
    ] {
        ensure!(
            text.contains(step),
            "the match's versions do not say “{step}”: {text}"
        );
    }
    fits(client, 390, "the decided match").await?;
    shoot(client, 390, "match-decided").await?;
    Ok(())
}

/// Issue 13 on a phone, GT-M20: the President enters a match nobody reported with board 1's
/// game sent for adjudication (its moves and position); the account page asks for the decision,
/// the match page shows the position as a diagram with the clocks, the President decides it and
/// the match counts; then a drawn game's moves are uploaded for board 4 and shown with it.
async fn adjudicate_and_upload(client: &Client, base: &str) -> Check {
    let second = pending_matches()
        .into_iter()
        .nth(1)
        .ok_or("the demo day has only one match still to play")?;
    client
        .goto(&format!("{base}{}", second.path))
        .await
        .map_err(err)?;
    for (board, result) in [(2, "1-0"), (3, "0-1"), (4, "1/2-1/2")] {
        choose(client, &format!("select[name=result_{board}]"), result).await?;
    }
    choose(client, "select[name=result_1]", "*").await?;
    client
        .find(Locator::XPath(
            "//textarea[@name='pgn_1']/ancestor::details[1]/summary",
        ))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    fill(client, "textarea[name=pgn_1]", ADJUDICATED_MOVES).await?;
    fill(client, "input[name=fen_1]", ADJUDICATED_POSITION).await?;
    fill(client, "input[name=hclock_1]", "0:03:40").await?;
    fill(client, "input[name=aclock_1]", "0:05:15").await?;
    fill(
        client,
        "form.result textarea[name=reason]",
        "Entered from the referee's report; the home advisor's phone was flat.",
    )
    .await?;
    shoot(client, 390, "match-adjudication-sent").await?;
    submit(client, "form.result").await?;
    says(
        client,
        "Sent to the President for adjudication (GT-M20)",
        "after sending board 1 for adjudication",
    )
    .await?;

    client.goto(&format!("{base}/account")).await.map_err(err)?;
    client
        .find(Locator::LinkText("Adjudicate the game on board 1 (GT-M20)"))
        .await
        .map_err(|e| format!("the President's account page asks for no adjudication: {e}"))?
        .click()
        .await
        .map_err(err)?;
    path_is(client, &second.path).await?;
    client
        .find(Locator::Css("#game-1 figure svg"))
        .await
        .map_err(|e| format!("the game sent for adjudication has no diagram: {e}"))?;
    says(
        client,
        "Clocks when play stopped",
        "the adjudication's clocks",
    )
    .await?;
    fits(client, 390, "the adjudication").await?;
    shoot(client, 390, "match-adjudicate").await?;
    client
        .find(Locator::Css("#game-1 input[name=result][value='1-0']"))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    fill(
        client,
        "#game-1 textarea[name=reason]",
        "The knight outplays the bishop with the pawns fixed on dark squares; the home side wins.",
    )
    .await?;
    submit(client, "#game-1 form").await?;
    let text = says(client, "Adjudicated (GT-M20): ", "after the decision").await?;
    ensure!(
        !text.contains("the match counts once the game is decided")
            && text.contains("adjudication of board 1 (GT-M20); it is decided and stands")
            && text.contains("Version 3 adjudicated board 1 (GT-M20)"),
        "the match does not stand as adjudicated: {text}"
    );

    client
        .find(Locator::XPath(
            "//summary[normalize-space(.)=\"Upload a game's moves\"]",
        ))
        .await
        .map_err(err)?
        .click()
        .await
        .map_err(err)?;
    choose(client, "#games select[name=board]", "4").await?;
    fill(client, "#games textarea[name=pgn]", DRAWN_GAME).await?;
    submit(client, "#games details form").await?;
    says(
        client,
        "The game's moves, as uploaded: ",
        "after uploading board 4's game",
    )
    .await?;
    client
        .find(Locator::Css("#game-4 figure svg"))
        .await
        .map_err(|e| format!("the uploaded game has no diagram: {e}"))?;
    shoot(client, 390, "match-game-uploaded").await?;
    Ok(())
}

/// GT-M20: the demo's adjudicated ending (rook and bishop against rook and knight), its
/// moves and the position they reach.
const ADJUDICATED_MOVES: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Nb3 Qxd1 9. Rxd1 Bd6 10. Na3 Be6 11. Be3 O-O-O 12. Na5 Ne7 13. N5c4 Bxc4 14. Nxc4 b6 15. Nxd6+ Rxd6 16. Rxd6 cxd6 17. Rd1 Kc7 18. f3 Rd8 19. Kf2 Nc6 20. c3 Ne5 21. b3 g5 22. h3 h5";
const ADJUDICATED_POSITION: &str = "3r4/2k5/pp1p1p2/2p1n1pp/4P3/1PP1BP1P/P4KP1/3R4 w - - 0 23";
/// A short legal draw, whatever the colours on the board.
const DRAWN_GAME: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2";

/// Each standings row's place, team and match points.
async fn standings_mp(client: &Client) -> Result<Vec<(String, String, String)>, String> {
    let mut out = Vec::new();
    for row in client
        .find_all(Locator::Css("table.standings tbody tr"))
        .await
        .map_err(err)?
    {
        let cells = row.find_all(Locator::Css("td")).await.map_err(err)?;
        ensure!(
            cells.len() >= 3,
            "a standings row has {} cells",
            cells.len()
        );
        out.push((
            cells[0].text().await.map_err(err)?.trim().to_string(),
            cells[1].text().await.map_err(err)?.trim().to_string(),
            cells[2].text().await.map_err(err)?.trim().to_string(),
        ));
    }
    Ok(out)
}

/// `arbiter demo` as of `today` on a free port, its database `db`: the server, its port and
/// the GTHSCL President's set-password link.
fn demo_server(db: &Path, today: &str) -> (Running, u16, String) {
    let port = free_port();
    let mut server = Running(
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["demo", "--bind", &format!("127.0.0.1:{port}"), "--db"])
            .arg(db)
            .args(["--today", today])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut out = BufReader::new(server.0.stdout.take().unwrap());
    let mut link = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 || line.contains("Mail (invitations") {
            break;
        }
        if line.contains("president@gthscl") {
            link = line.split_whitespace().last().map(str::to_string);
        }
    }
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
    });
    assert!(
        wait_for(port, "/", Duration::from_secs(60)),
        "arbiter demo did not answer on port {port} within a minute"
    );
    (
        server,
        port,
        link.expect("the demo prints the GTHSCL President's link"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_site_in_headless_chromium() {
    let (Some(driver), Some(browser)) = (
        find(&["chromedriver"]),
        find(&["chromium", "chromium-browser", "google-chrome"]),
    ) else {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{INSTALL}");
        }
        eprintln!("note: the browser test did not run. {INSTALL}");
        return;
    };
    let tmp = std::env::temp_dir().join(format!("arbiter-browser-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();

    let port = free_port();
    let mut server = Running(
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["demo", "--bind", &format!("127.0.0.1:{port}"), "--db"])
            .arg(tmp.join("demo.db"))
            .args(["--today", &demo_day().to_string()])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut out = BufReader::new(server.0.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert_eq!(
        first.trim(),
        format!("Arbiter demo: open http://127.0.0.1:{port}/")
    );
    // Then each league's President with a set-password link, and where the mail goes.
    let mut president_link = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 || line.contains("Mail (invitations") {
            break;
        }
        if line.contains("GTHSCL") || line.contains("president@gthscl") {
            president_link = line.split_whitespace().last().map(str::to_string);
        }
    }
    let president_link = president_link.expect("the demo prints the GTHSCL President's link");
    // Keep reading, so that the server never writes to a closed pipe.
    std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = out.read_to_string(&mut rest);
    });
    assert!(
        wait_for(port, "/", Duration::from_secs(60)),
        "arbiter demo did not answer on port {port} within a minute"
    );

    let driver_port = free_port();
    let _driver = Running(
        Command::new(driver)
            .arg(format!("--port={driver_port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    assert!(
        wait_for(driver_port, "/status", Duration::from_secs(30)),
        "chromedriver did not start on port {driver_port}"
    );
    let profile = tmp.join("chromium-profile");
    let caps = json!({
        "goog:chromeOptions": {
            "binary": browser,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--hide-scrollbars", format!("--user-data-dir={}", profile.display()),
            ],
        },
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{driver_port}"))
        .await
        .expect("chromedriver would not open a Chromium session");

    let base = format!("http://127.0.0.1:{port}");
    let mut outcome = pages(&client, &base).await;
    if outcome.is_ok() {
        outcome = accounts(
            &client,
            &base,
            port,
            &president_link,
            &tmp.join("demo.mail"),
        )
        .await;
    }
    // Issue 15: a second demo, from the day after the regular season.
    let mut finished = None;
    if outcome.is_ok() {
        let (running, port, link) = demo_server(&tmp.join("finished.db"), "2027-02-25");
        let base = format!("http://127.0.0.1:{port}");
        outcome = season_end(&client, &base, &link).await;
        finished = Some(running);
    }
    drop(finished);
    // Issue 14: the ASTC arbiter runs the demo's Secondary Girls on its days.
    if outcome.is_ok() {
        outcome = event::astc_event(&client, &tmp).await;
    }
    let _ = client.close().await;
    drop(server);
    let _ = std::fs::remove_dir_all(&tmp);
    if let Err(e) = outcome {
        panic!("{e}");
    }
}
