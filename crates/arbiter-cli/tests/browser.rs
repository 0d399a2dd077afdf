//! The demo site in a real browser: `arbiter demo` on a free port, headless Chromium driven
//! through chromedriver (fantoccini), the home page and standings pages at phone width (390 px)
//! and desktop width (1280 px). Screenshots go to `target/screenshots/`. How to run it:
//! docs/testing.md, "Browser tests".
#![allow(clippy::unwrap_used, clippy::expect_used)]

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
        ));
    }
    Ok(out)
}

async fn pages(client: &Client, base: &str) -> Check {
    let today = jiff::Timestamp::now()
        .to_zoned_datetime(jiff::tz::TimeZone::UTC)
        .date();
    let demo = arbiter_demo::generate(today);
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
        let field = competition("astc", "primary-girls");
        let rules = Ruleset::preset(&field.rules).unwrap();
        let expected = standings(&field.competition, &rules).unwrap();
        client.set_window_size(width, 900).await.map_err(err)?;
        client
            .goto(&format!("{base}/leagues/astc/2026/primary-girls"))
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
    }
    Ok(())
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
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut first = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(
        first.trim(),
        format!("Arbiter demo: open http://127.0.0.1:{port}/")
    );
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

    let outcome = pages(&client, &format!("http://127.0.0.1:{port}")).await;
    let _ = client.close().await;
    drop(server);
    let _ = std::fs::remove_dir_all(&tmp);
    if let Err(e) = outcome {
        panic!("{e}");
    }
}
