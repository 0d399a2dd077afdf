//! Issue 14 in the browser: the ASTC arbiter runs the demo's Secondary Girls, six teams, on
//! its days. The site's clock is started in the hall's morning (`--now`), then the server is
//! started again later that morning on the same database, as the hall's clock moves on:
//!
//! - 08:40, before the lock: the public's team page names no player (AS-12);
//! - 09:02, the rosters locked and published: an advisor protests another team's order
//!   (AS-13); 09:10:30, protests closed: the arbiter records that the team declined to reply
//!   and upholds the protest with a new order; the arbiter names round 1's lineups (AS-10,
//!   AS-11); on the event's last day the arbiter enters every round on the round page,
//!   keyboard only;
//! - the final standings page equals `arbiter standings` on the file `arbiter export` writes.

use super::*;

const GIRLS: &str = "/leagues/astc/2026/secondary-girls";
const ADVISOR: &str = "coach@astc.example";
const PASSWORD: &str = "a long event passphrase";

/// `arbiter` on the database `db`, for a step the test takes outside the browser.
fn arbiter(args: &[&str], db: &Path) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .arg("--db")
        .arg(db)
        .env("ARBITER_MAIL_DIR", db.with_extension("mail"))
        .output()
        .map_err(err)?;
    if !out.status.success() {
        return Err(format!(
            "arbiter {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `arbiter serve` on `db` with the site's clock started at `now`: the server and its port.
fn serve_at(db: &Path, now: &str) -> (Running, u16) {
    let port = free_port();
    let server = Running(
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args([
                "serve",
                "--bind",
                &format!("127.0.0.1:{port}"),
                "--now",
                now,
            ])
            .arg("--db")
            .arg(db)
            .env("ARBITER_MAIL_DIR", db.with_extension("mail"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    assert!(
        wait_for(port, "/", Duration::from_secs(60)),
        "arbiter serve did not answer on port {port} within a minute"
    );
    (server, port)
}

/// The path of a set-password link (`…/reset/TOKEN`), whatever address it was made for.
fn reset_path(link: &str) -> Result<String, String> {
    link.find("/reset/")
        .map(|i| link[i..].trim().to_string())
        .ok_or_else(|| format!("no set-password link in “{link}”"))
}

async fn sign_in(client: &Client, base: &str, email: &str) -> Check {
    client.goto(&format!("{base}/sign-in")).await.map_err(err)?;
    fill(client, "input[name=email]", email).await?;
    fill(client, "input[name=password]", PASSWORD).await?;
    submit(client, "form").await?;
    path_is(client, "/account").await
}

async fn set_password(client: &Client, url: &str) -> Check {
    client.goto(url).await.map_err(err)?;
    fill(client, "input[name=password]", PASSWORD).await?;
    fill(client, "input[name=password_again]", PASSWORD).await?;
    submit(client, "form.stack").await?;
    path_is(client, "/account").await
}

async fn sign_out(client: &Client, base: &str) -> Check {
    client.goto(&format!("{base}/account")).await.map_err(err)?;
    click(client, "form[action='/sign-out'] button").await?;
    path_is(client, "/").await
}

/// Opens the lineup form and names the roster's first players in order: board n gets option n
/// (option 0 is "Empty"), as a person picks them.
async fn pick_in_order(client: &Client, css: &str) -> Check {
    client
        .execute(
            "document.querySelectorAll('details.lineup-form').forEach(d => { d.open = true; }); document.querySelectorAll(arguments[0]).forEach((s, i) => { s.selectedIndex = i + 1; });",
            vec![json!(css)],
        )
        .await
        .map(|_| ())
        .map_err(err)
}

pub async fn astc_event(client: &Client, dir: &Path) -> Check {
    let db = dir.join("astc.db");
    // 08:40 in Adelaide (+10:30): rosters lock at 09:00, round 1 at 09:30.
    let (demo, port, arbiter_link) = demo_server_at(&db, "2026-12-07T08:40:00+10:30");
    let base = format!("http://127.0.0.1:{port}");
    client.set_window_size(390, 900).await.map_err(err)?;
    set_password(client, &arbiter_link).await?;
    client.goto(&format!("{base}{GIRLS}")).await.map_err(err)?;
    says(client, "Secondary Girls", "the competition before round 1").await?;
    let teams: Vec<String> = {
        let rows = standings_rows(client).await?;
        ensure!(
            rows.len() == 6,
            "the Secondary Girls has {} teams",
            rows.len()
        );
        rows.into_iter().map(|(_, team)| team).collect()
    };
    click(client, "table a[href*='/teams/']").await?;
    let withheld = says(client, "AS-12", "a team page before the lock").await?;
    ensure!(
        withheld.contains("published to every team when they lock, at 09:00"),
        "the team page before the lock says: {withheld}"
    );
    let team_url = client.current_url().await.map_err(err)?;
    shoot(client, 390, "event-roster-withheld").await?;
    drop(demo);

    // The school of the second team's advisor, who protests the first team's order.
    let export = dir.join("girls.json");
    let exported = |to: &Path| -> Result<Value, String> {
        arbiter(
            &cmd(
                "export --league astc --competition secondary-girls --format json -o {}",
                &[to.to_str().unwrap_or_default()],
            ),
            &db,
        )?;
        serde_json::from_str(&std::fs::read_to_string(to).map_err(err)?).map_err(err)
    };
    let before = exported(&export)?;
    let school_of = |name: &str| -> Option<String> {
        before["teams"]
            .as_array()?
            .iter()
            .find(|t| name.contains(t["name"].as_str().unwrap_or("?")))
            .and_then(|t| t["school"].as_str().map(str::to_string))
    };
    let school = school_of(&teams[1]).ok_or("the second team has no school in the export")?;
    let added = arbiter(
        &cmd(
            "user add --email {} --role advisor --league astc --school {}",
            &[ADVISOR, &school],
        ),
        &db,
    )?;
    let advisor_link = reset_path(&added)?;

    // 09:02: the rosters are locked and published; protests are open until 09:10.
    let (server, port) = serve_at(&db, "2026-12-07T09:02:00+10:30");
    let base = format!("http://127.0.0.1:{port}");
    client
        .goto(&format!("{base}{}", team_url.path()))
        .await
        .map_err(err)?;
    let published = says(client, "Roster", "the team page after the lock").await?;
    ensure!(
        !published.contains("AS-12: the rosters are published"),
        "the roster is still withheld after the lock: {published}"
    );
    sign_out(client, &base).await?;
    set_password(client, &format!("{base}{advisor_link}")).await?;
    client
        .goto(&format!("{base}{GIRLS}/protests"))
        .await
        .map_err(err)?;
    let against = client
        .find(Locator::Css("select[name=against] option"))
        .await
        .map_err(err)?
        .attr("value")
        .await
        .map_err(err)?
        .unwrap_or_default();
    choose(client, "select[name=against]", &against).await?;
    fill(
        client,
        "textarea[name=grounds]",
        "Their board 2 beat their board 1 at the state championship; the order is not by strength (AS-10).",
    )
    .await?;
    submit(client, "#lodge form").await?;
    says(client, "Protest 1:", "after lodging the protest").await?;
    sign_out(client, &base).await?;

    // 09:10:30: protests have closed, so the arbiter may record that the team affected, which
    // had until then to reply, declined (AS-13); the decision comes before round 1.
    drop(server);
    let (server, port) = serve_at(&db, "2026-12-07T09:10:30+10:30");
    let base = format!("http://127.0.0.1:{port}");
    sign_in(client, &base, "arbiter@astc.example").await?;
    client
        .goto(&format!("{base}{GIRLS}/protests"))
        .await
        .map_err(err)?;
    submit(client, "form[action$='/reply']").await?;
    says(
        client,
        "the team declined to reply",
        "after the declined reply",
    )
    .await?;
    click(client, "input[name=ruling][value=upheld]").await?;
    // The order upheld: boards 1 and 2 swapped.
    client
        .execute(
            "const s = document.querySelectorAll('form[action$=\"/decision\"] select'); const a = s[0].value; s[0].value = s[1].value; s[1].value = a;",
            vec![],
        )
        .await
        .map_err(err)?;
    fill(
        client,
        "form[action$='/decision'] textarea[name=reason]",
        "The state results show board 2 the stronger; upheld (AS-13).",
    )
    .await?;
    submit(client, "form[action$='/decision']").await?;
    says(client, "Upheld at ", "after the decision").await?;
    shoot(client, 390, "event-protest").await?;
    fits(client, 390, "the protests page").await?;
    shoot(client, 1280, "event-protest").await?;
    client.set_window_size(390, 900).await.map_err(err)?;

    // Round 1's lineups, due at 09:15: each team's first four, in the roster's order (AS-10).
    let round_1: Vec<String> = before["rounds"][0]["matches"]
        .as_array()
        .ok_or("round 1 has no matches")?
        .iter()
        .filter_map(|m| m["home"].as_str().map(str::to_string))
        .collect();
    ensure!(
        round_1.len() == 3,
        "round 1 of six has {} matches",
        round_1.len()
    );
    for home in &round_1 {
        let page = format!("{base}{GIRLS}/rounds/1/matches/{home}");
        for side in ["home", "away"] {
            client.goto(&page).await.map_err(err)?;
            click(
                client,
                &format!("#lineup-{side} details.lineup-form > summary"),
            )
            .await?;
            pick_in_order(client, &format!("#lineup-{side} select[name^=board_]")).await?;
            submit(client, &format!("#lineup-{side} form.lineup")).await?;
            says(
                client,
                "version 1, named by arbiter@astc.example",
                "a saved lineup",
            )
            .await?;
        }
    }
    shoot(client, 390, "event-lineups").await?;
    sign_out(client, &base).await?;

    // The event's last day: every round has begun, so its results are entered (issue 30: not
    // before a round's start by the hall's clock). Every round on the round page, keyboard
    // only, one key a board.
    drop(server);
    let (_server, port) = serve_at(&db, "2026-12-10T09:00:00+10:30");
    let base = format!("http://127.0.0.1:{port}");
    sign_in(client, &base, "arbiter@astc.example").await?;
    let rounds = before["rounds"].as_array().map_or(0, Vec::len);
    ensure!(rounds == 5, "six teams play five rounds, not {rounds}");
    for round in 1..=rounds {
        client
            .goto(&format!("{base}{GIRLS}/rounds/{round}/results"))
            .await
            .map_err(err)?;
        let boards = client
            .find_all(Locator::Css("form.round-entry input[type=text]"))
            .await
            .map_err(err)?;
        ensure!(
            boards.len() == 12,
            "round {round} shows {} boards, not 3 matches of 4",
            boards.len()
        );
        // Issue 32 (item 19): typed exactly as the page says, from the first board (focused
        // on arrival): a key, Tab to the next board; Enter to check, Enter again to save.
        let mut keys = Vec::new();
        for i in 0..boards.len() {
            // Each match one of three scores, so that the table is not one long tie.
            let pattern = match (i / 4 + round) % 3 {
                0 => ["1", "1", "=", "0"],
                1 => ["0", "=", "0", "1"],
                _ => ["1", "1", "1", "="],
            };
            keys.push(pattern[i % 4]);
            let typed = if i + 1 < boards.len() {
                format!("{}\u{E004}", pattern[i % 4])
            } else {
                format!("{}\u{E007}", pattern[i % 4])
            };
            client
                .active_element()
                .await
                .map_err(err)?
                .send_keys(&typed)
                .await
                .map_err(err)?;
        }
        says(client, "Check before saving", "after typing a round").await?;
        if round == 1 {
            shoot(client, 390, "event-round-check").await?;
        }
        client
            .active_element()
            .await
            .map_err(err)?
            .send_keys("\u{E007}")
            .await
            .map_err(err)?;
        says(client, "Saved 3 matches: ", "after saving a round").await?;
        if round == 1 {
            shoot(client, 390, "event-round-entry").await?;
            client.set_window_size(390, 900).await.map_err(err)?;
        }
        // Every board stored as typed, on the board it was typed for.
        let (_, body) = get(port, &format!("/api/v1{GIRLS}/rounds/{round}"))
            .ok_or("the round's API answered nothing")?;
        let stored: Value = serde_json::from_str(&body).map_err(err)?;
        let results: Vec<String> = stored["matches"]
            .as_array()
            .ok_or("the round's API lists no matches")?
            .iter()
            .flat_map(|m| m["boards"].as_array().cloned().unwrap_or_default())
            .map(|b| b["result"].as_str().unwrap_or_default().to_string())
            .collect();
        let want: Vec<&str> = keys
            .iter()
            .map(|k| match *k {
                "1" => "1-0",
                "0" => "0-1",
                _ => "1/2-1/2",
            })
            .collect();
        ensure!(
            results == want,
            "round {round} was typed as {want:?} and stored as {results:?}"
        );
    }

    // The final standings page equals `arbiter standings` on the exported file.
    client.goto(&format!("{base}{GIRLS}")).await.map_err(err)?;
    let rows = standings_rows(client).await?;
    let finished = dir.join("girls-final.json");
    exported(&finished)?;
    let table: Value = serde_json::from_str(&arbiter_standings(&finished)?).map_err(err)?;
    let expected: Vec<(String, String)> = table["standings"]
        .as_array()
        .ok_or("`arbiter standings` printed no table")?
        .iter()
        .map(|r| {
            (
                r["place"].as_str().unwrap_or_default().to_string(),
                r["team"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect();
    ensure!(
        rows.len() == expected.len(),
        "the page has {} rows and `arbiter standings` {}",
        rows.len(),
        expected.len()
    );
    for ((place, team), (want_place, want_team)) in rows.iter().zip(&expected) {
        ensure!(
            place == want_place && team.contains(want_team.as_str()),
            "the final standings page shows `{place} {team}` where `arbiter standings` has `{want_place} {want_team}`"
        );
    }
    fits(client, 390, "the final standings").await?;
    shoot(client, 390, "event-final-standings").await?;
    shoot(client, 1280, "event-final-standings").await
}

fn arbiter_standings(file: &Path) -> Result<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .arg("standings")
        .arg(file)
        .args(["--format", "json"])
        .output()
        .map_err(err)?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `arbiter demo` with the site's clock started at `now`: the server, its port and the ASTC
/// arbiter's set-password link.
fn demo_server_at(db: &Path, now: &str) -> (Running, u16, String) {
    let port = free_port();
    let mut server = Running(
        Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["demo", "--bind", &format!("127.0.0.1:{port}"), "--db"])
            .arg(db)
            .args(["--now", now])
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
        if line.contains("arbiter@astc.example") {
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
        link.expect("the demo prints the ASTC arbiter's link"),
    )
}
