//! `arbiter astc field ENTRIES.json`: an ASTC competition's field planned by AS-4..AS-8, the
//! invitations that bring it to 6 or 8 teams in order, each with its clause, and the invitation
//! order with the seed of its lot. Core's `field::plan` decides; this reads and prints.

use std::path::Path;

use anyhow::{Context, Result};
use arbiter_core::event::field::{self, Entries, FieldPlan, Host, PreviousFinish, State};
use arbiter_formats::{field_json, ruleset_file};
use clap::ValueEnum;

/// An entries or finish file is a few dozen lines; a megabyte is far beyond any.
const FILE_LIMIT: u64 = 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FieldFormat {
    Table,
    Json,
}

/// What `arbiter astc field` was asked.
#[derive(Debug, Clone)]
pub struct FieldAsked<'a> {
    pub entries: &'a Path,
    pub previous: Option<&'a Path>,
    pub host: &'a str,
    pub host_cannot_add: bool,
    /// `None`: a seed drawn here, from the operating system's random bytes.
    pub seed: Option<u64>,
    pub format: FieldFormat,
}

pub fn field(ask: &FieldAsked) -> Result<()> {
    let host = State::parse(ask.host).map_err(|e| anyhow::anyhow!("--host: {e}"))?;
    let entries =
        field_json::read_entries(&origin(ask.entries), &text(ask.entries, "an entries file")?)?;
    let previous = match ask.previous {
        Some(path) => Some(field_json::read_finish(
            &origin(path),
            &text(path, "a previous championship's finish")?,
        )?),
        None => None,
    };
    let host = Host {
        state: host,
        can_add: !ask.host_cannot_add,
    };
    let seed = ask.seed.unwrap_or_else(arbiter_store::secrets::lot_seed);
    let plan = field::plan(&entries, host, previous.as_ref(), seed)
        .map_err(|e| anyhow::anyhow!("{}: {e}", origin(ask.entries)))?;
    match ask.format {
        FieldFormat::Json => println!("{}", serde_json::to_string_pretty(&plan)?),
        FieldFormat::Table => print!("{}", table(&entries, host, previous.as_ref(), &plan)),
    }
    Ok(())
}

fn origin(path: &Path) -> String {
    path.display().to_string()
}

fn text(path: &Path, what: &str) -> Result<String> {
    let bytes = ruleset_file::read_limited(path, what, FILE_LIMIT).map_err(anyhow::Error::msg)?;
    String::from_utf8(bytes)
        .ok()
        .with_context(|| format!("{}: the file is not UTF-8; save it as UTF-8", origin(path)))
}

/// The plan as an officer reads it: what is entered, each team to add and why, the order.
fn table(
    entries: &Entries,
    host: Host,
    previous: Option<&PreviousFinish>,
    plan: &FieldPlan,
) -> String {
    let mut out = String::new();
    let can = if host.can_add { "can" } else { "cannot" };
    out.push_str(&wrap(
        &format!(
            "{}: {} teams entered. Host: {} ({}), which {can} add a team.",
            entries.competition(),
            plan.field_before,
            host.state,
            host.state.name(),
        ),
        80,
        "",
    ));
    if plan.steps.is_empty() {
        out.push_str(&format!(
            "A field of {} needs no invitation (AS-5..AS-7).\n",
            plan.field_before
        ));
    } else {
        let added = plan.steps.len();
        out.push_str(&format!(
            "{added} team{} to add, for a field of {} (AS-19):\n",
            if added == 1 { "" } else { "s" },
            plan.field_after
        ));
        for (i, s) in plan.steps.iter().enumerate() {
            out.push_str(&format!(
                "\n{:>2}. {}  {} ({})\n",
                i + 1,
                s.clause,
                s.invite,
                s.invite.name()
            ));
            out.push_str(&wrap(&s.reason, 76, "    "));
        }
    }
    let codes = |list: &[State]| list.iter().map(|s| s.code()).collect::<Vec<_>>().join(", ");
    let (finish, lot) = plan.invitation_order.split_at(plan.by_finish);
    let order = match previous {
        Some(_) if lot.is_empty() => format!("the previous finish: {}.", codes(finish)),
        Some(_) => format!(
            "the previous finish first: {}; then by lot (seed {}): {}.",
            codes(finish),
            plan.lot_seed,
            codes(lot)
        ),
        None => format!(
            "no previous finish was given, so all by lot (seed {}): {}.",
            plan.lot_seed,
            codes(lot)
        ),
    };
    out.push('\n');
    out.push_str(&wrap(&format!("Invitation order (AS-8), {order}"), 80, ""));
    out
}

/// `text` in lines of at most `width` characters, each after `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty()
            && indent.len() + line.chars().count() + 1 + word.chars().count() > width
        {
            out.push_str(&format!("{indent}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{indent}{line}\n"));
    }
    out
}

/// What `arbiter astc event` was asked.
pub struct EventAsked<'a> {
    pub league: &'a str,
    pub season: &'a str,
    pub set: Option<&'a Path>,
    pub name: String,
    pub host: String,
    pub venue: String,
    pub offset: String,
    pub by: String,
    pub database: &'a crate::database::Database,
}

/// `arbiter astc event`: the event printed, or set again through the site's write path.
pub fn event(ask: &EventAsked) -> Result<()> {
    let starts = match ask.set {
        None => None,
        Some(path) => {
            let read = arbiter_formats::round_starts_csv::read(&text(path, "a round times file")?)
                .map_err(|problems| {
                    anyhow::anyhow!(
                        "{}",
                        problems
                            .iter()
                            .map(|p| format!("{}: {p}", origin(path)))
                            .collect::<Vec<_>>()
                            .join("\n")
                    )
                })?;
            Some(read)
        }
    };
    crate::database::runtime()?.block_on(async {
        let store = ask.database.open().await?;
        let state = arbiter_web::AppState::new(store);
        if let Some(starts) = starts {
            let command = arbiter_web::EventCommand {
                name: ask.name.clone(),
                host: ask.host.clone(),
                venue: ask.venue.clone(),
                utc_offset: ask.offset.clone(),
                starts: starts
                    .into_iter()
                    .map(|s| {
                        (
                            s.competition,
                            s.round,
                            s.starts_at.strftime("%Y-%m-%dT%H:%M").to_string(),
                        )
                    })
                    .collect(),
            };
            let said = arbiter_web::set_event_as(&state, &ask.by, ask.league, ask.season, &command)
                .await
                .map_err(|why| anyhow::anyhow!("{why}\nNothing was stored."))?;
            eprintln!("{said}");
        }
        for line in arbiter_web::event_lines(&state, ask.league, ask.season)
            .await
            .map_err(anyhow::Error::msg)?
        {
            println!("{line}");
        }
        Ok(())
    })
}
