//! `arbiter settings --league L [--season S]`: the settings of a season's rules an officer
//! changes (issue 32 item 5: the entry fee, GT-O2; the playoff qualifiers and format, GT-F3;
//! GT-P2's days), each with the rule it sets. `arbiter settings set` changes them as the site's
//! settings page does: checked by core's `settings::change_season`, each competition's rules a
//! new version in the history with the reason.

use anyhow::{Result, anyhow, bail};
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_core::rules::settings::{self, SeasonSoFar, Setting};
use arbiter_formats::competition_json::{WrittenRules, written_rules};
use arbiter_store::{Actor, RulesChange, RulesRef, Store, StoredCompetition};

use crate::database::{Database, runtime};
use crate::ledger::league_season;

/// A change asked for on the command line: each setting by its key, and why.
pub struct Change<'a> {
    pub league: &'a str,
    pub season: Option<&'a str>,
    pub typed: Vec<(Setting, String)>,
    pub reason: Option<&'a str>,
}

async fn competitions(
    store: &Store,
    league: &str,
    season: Option<&str>,
) -> Result<(String, Vec<StoredCompetition>, SeasonSoFar)> {
    let (_, found) = league_season(store, league, season).await?;
    let mut out = Vec::new();
    for r in store.competitions(found.id).await? {
        out.push(
            store.load_competition_by_id(r.id).await?.ok_or_else(|| {
                anyhow!("the competition `{}` vanished while it was read", r.slug)
            })?,
        );
    }
    let so_far = SeasonSoFar {
        playoffs_drawn: store.playoffs(found.id).await?.is_some(),
    };
    Ok((found.name, out, so_far))
}

/// `arbiter settings`: each setting of the season's rules, with its rule and its value in each
/// competition where they differ.
pub fn show(league: &str, season: Option<&str>, db: &Database) -> Result<()> {
    runtime()?.block_on(async {
        let store = db.open().await?;
        let (name, comps, _) = competitions(&store, league, season).await?;
        let Some(first) = comps.first() else {
            bail!("{name} has no competition yet, so its rules have no settings");
        };
        print!("{}", table(&name, &first.rules, &comps));
        Ok(())
    })
}

fn table(season: &str, rules: &Ruleset, comps: &[StoredCompetition]) -> String {
    let mut out = format!("Settings of {season} (arbiter settings set --KEY VALUE changes them)\n");
    let all: Vec<&Ruleset> = comps.iter().map(|c| &c.rules).collect();
    for v in settings::season_values(&all) {
        let setting = v.setting;
        let rule = setting
            .rule(rules)
            .map_or(String::new(), |r| format!(" ({r})"));
        let differs = if v.differs() {
            format!(
                "; now {}",
                v.in_words(comps.iter().map(|c| c.record.name.as_str()))
            )
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  {:<24} {:<12} {}{rule}{differs}\n",
            setting.key(),
            v.value,
            setting.name(),
        ));
    }
    out
}

/// `arbiter settings set`: the settings changed for every competition of the season, or every
/// problem and nothing saved.
pub fn set(change: &Change<'_>, db: &Database) -> Result<()> {
    if change.typed.is_empty() {
        bail!(
            "say which setting to change, e.g. --entry-fee 12.50 or --qualifiers 3 (`arbiter settings --league {}` lists them)",
            change.league
        );
    }
    runtime()?.block_on(async {
        let store = db.open().await?;
        let (name, comps, so_far) = competitions(&store, change.league, change.season).await?;
        let all: Vec<&Ruleset> = comps.iter().map(|c| &c.rules).collect();
        let changed = match settings::change_season(&all, &change.typed, so_far) {
            Ok(c) => c,
            Err(problems) => {
                for p in &problems {
                    println!("{}: {p}", p.setting.key());
                }
                bail!(
                    "{} problem{} found; nothing was saved",
                    problems.len(),
                    if problems.len() == 1 { "" } else { "s" }
                );
            }
        };
        let mut writes = Vec::new();
        let mut said = Vec::new();
        for (c, change) in comps.iter().zip(changed) {
            let Some((rules, changes)) = change else {
                continue;
            };
            let words: Vec<String> = changes.iter().map(|x| x.sentence(&rules)).collect();
            said.push(format!("{}: {}", c.record.name, words.join("; ")));
            writes.push(RulesChange {
                competition: c.record.id,
                version: c.record.version,
                rules: match written_rules(&rules).map_err(|e| anyhow!("{e}"))? {
                    WrittenRules::Preset(p) => RulesRef::Preset(p),
                    WrittenRules::Toml(t) => RulesRef::Toml(t),
                },
                changes: words,
            });
        }
        if writes.is_empty() {
            eprintln!("nothing changed: every setting of {name} is as given, so nothing was saved");
            return Ok(());
        }
        let reason = change
            .reason
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .unwrap_or("the season's settings changed from the command line");
        store
            .set_competition_rules(&writes, reason, &Actor::system())
            .await?;
        for line in said {
            println!("{line}");
        }
        eprintln!(
            "{} competition{} of {name} changed, each a new version of its rules in the history",
            writes.len(),
            if writes.len() == 1 { "" } else { "s" }
        );
        Ok(())
    })
}
