//! The end of a season from the command line (issue 15), through the site's own reading and
//! write paths (`arbiter_web::season_end`): `arbiter playoffs qualify` (GT-F3: each division's
//! qualifiers, its cut-off and any tie the officers must decide, and the seeded field),
//! `arbiter playoffs draw --as EMAIL` (the President draws the bracket, GT-F3, GT-F5),
//! `arbiter awards` (GT-F1, GT-F2, GT-F3: table, JSON or CSV) and `arbiter report draft`
//! (GT-O3: the product's draft of the midway or end-of-season report, text or Markdown).

use anyhow::{Result, anyhow};
use arbiter_core::rules::permissions::Action;
use arbiter_core::season_end::media::{self, Moment};
use arbiter_formats::csv;
use arbiter_web::season_end::{self, SeasonEnd};

use crate::Format;
use crate::database::{Database, runtime};

async fn read(
    db: &Database,
    league: &str,
    season: &str,
) -> Result<(arbiter_web::AppState, SeasonEnd)> {
    let store = db.open().await?;
    let state = arbiter_web::AppState::new(store);
    let s = season_end::read(&state, league, season)
        .await
        .map_err(|e| anyhow!(e))?;
    Ok((state, s))
}

/// `arbiter playoffs qualify`: each division's qualifiers and the seeded field.
pub fn qualify(league: &str, season: &str, format: Format, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let (_, s) = read(db, league, season).await?;
        let divisions = s.qualification();
        if format == Format::Json {
            let json: Vec<serde_json::Value> = divisions
                .iter()
                .map(|d| match &d.qualifiers {
                    Ok(q) => serde_json::json!({ "division": d.view.record.slug, "qualifiers": q }),
                    Err(e) => serde_json::json!({ "division": d.view.record.slug, "error": e }),
                })
                .collect();
            let field = s.field().ok();
            println!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({
                    "qualification": json,
                    "field": field,
                }))?
            );
            return Ok(());
        }
        let mut out = String::new();
        for d in &divisions {
            out.push_str(&format!("{}\n", d.view.record.name));
            match &d.qualifiers {
                Err(e) => out.push_str(&format!("  {e}\n")),
                Ok(q) => {
                    for t in &q.teams {
                        out.push_str(&format!("  {}. {}\n", t.place, t.name));
                    }
                    for t in &q.ties {
                        out.push_str(&format!("  {}\n", t.sentence));
                    }
                }
            }
        }
        match s.field() {
            Ok(field) => {
                out.push_str("The field (GT-F3):\n");
                for f in field {
                    out.push_str(&format!(
                        "  {:>2}  {} ({}, {})\n",
                        f.seed,
                        f.name,
                        f.division,
                        arbiter_core::season_end::race::ordinal(f.place)
                    ));
                }
            }
            Err(problems) => {
                out.push_str("The bracket cannot be drawn yet:\n");
                for p in problems {
                    out.push_str(&format!("  {p}\n"));
                }
            }
        }
        print!("{out}");
        Ok(())
    })
}

/// `arbiter playoffs draw --as EMAIL [--starts DATE]`: the President draws the bracket.
pub fn draw(
    league: &str,
    season: &str,
    by: &str,
    starts: Option<jiff::civil::Date>,
    db: &Database,
) -> Result<()> {
    runtime()?.block_on(async {
        let (state, s) = read(db, league, season).await?;
        let acting = season_end::acting_as(&state, by, &s, Action::RunPlayoffs)
            .await
            .map_err(|e| anyhow!(e))?;
        let record = season_end::draw(&state, &s, starts, &acting)
            .await
            .map_err(|e| anyhow!(e.message()))?;
        println!(
            "The playoffs of {} are drawn (GT-F3): {} teams; round 1 on {}; the bye date for all schools {} (GT-F5).",
            s.season.name,
            record.field.len(),
            record.days.first().map_or("?".into(), ToString::to_string),
            record.bye_date.map_or("?".into(), |d| d.to_string()),
        );
        for f in &record.field {
            println!("  {:>2}  {} ({})", f.seed, f.name, f.division);
        }
        Ok(())
    })
}

/// `arbiter awards`: the awards list as a table, JSON or CSV.
pub fn awards(league: &str, season: &str, format: Format, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let (_, s) = read(db, league, season).await?;
        let list = s.awards().map_err(|e| anyhow!(e))?;
        match format {
            Format::Json => println!("{}", serde_json::to_string_pretty(&list)?),
            Format::Csv => {
                let mut out = csv::Writer::new();
                out.record(["award", "rule", "team", "school", "players"]);
                for a in &list.awards {
                    let players = a
                        .players
                        .iter()
                        .map(|p| p.name.as_str())
                        .collect::<Vec<_>>()
                        .join("; ");
                    out.record([
                        a.title.as_str(),
                        a.rule,
                        a.team_name.as_str(),
                        a.school.as_deref().unwrap_or(""),
                        players.as_str(),
                    ]);
                }
                print!("{}", out.finish());
            }
            Format::Table => {
                println!("Trophies to buy: {}", list.trophies);
                for a in &list.awards {
                    println!(
                        "  {}  {} ({}){}",
                        a.title,
                        a.team_name,
                        a.rule,
                        a.school
                            .as_ref()
                            .map(|s| format!(", {s}"))
                            .unwrap_or_default()
                    );
                }
                for t in &list.to_settle {
                    println!("To settle: {t}");
                }
            }
        }
        Ok(())
    })
}

/// `arbiter report draft --moment midway|end [--format text|markdown]`: the product's draft.
pub fn draft(
    league: &str,
    season: &str,
    moment: Moment,
    markdown: bool,
    db: &Database,
) -> Result<()> {
    runtime()?.block_on(async {
        let (_, s) = read(db, league, season).await?;
        let r = s.report(moment).map_err(|e| anyhow!(e))?;
        print!(
            "{}",
            if markdown {
                media::to_markdown(&r)
            } else {
                media::to_text(&r)
            }
        );
        Ok(())
    })
}
