//! A new division (GT-O1): its teams pasted as a CSV file (or filled in from a division of a
//! season before, with its rosters carried over at the rollover's ratings, GT-R1..GT-R3), drawn
//! by core into a round robin on the season's match days (GT-M2), previewed, then stored whole.

use arbiter_core::pairing::schedule::{Cycles, Spacing};
use arbiter_core::rating::System;
use arbiter_core::rating::rollover;
use arbiter_core::record::calendar::SchoolCalendar;
use arbiter_core::record::model::{Competition, Pairing, Team};
use arbiter_core::rules::ruleset::{Ruleset, preset_names};
use arbiter_core::season::division::{self, Draw};
use arbiter_formats::teams_csv;
use arbiter_store::{NewCompetition, RulesRef, Season};
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use super::{Choice, Said, guard, page};
use crate::app::respond::see_other;
use crate::app::site::LeagueTree;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::Auth;
use crate::http::error::WebError;
use crate::ui::link::competition_href;
use crate::ui::words;

/// The division form as sent.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct DivisionForm {
    #[serde(default)]
    pub(super) season: String,
    #[serde(default)]
    pub(super) name: String,
    #[serde(default)]
    pub(super) slug: String,
    #[serde(default)]
    pub(super) rules: String,
    #[serde(default)]
    pub(super) cycles: String,
    #[serde(default)]
    pub(super) spacing: String,
    /// `season/competition` of a division this one starts from.
    #[serde(default)]
    pub(super) from: String,
    /// Carry the rosters of `from` over (a checkbox: present when ticked).
    #[serde(default)]
    pub(super) carry: Option<String>,
    #[serde(default)]
    pub(super) teams: String,
    /// The teams file uploaded (its text), which stands in for a pasted one.
    #[serde(default)]
    pub(super) teams_file: String,
    /// GT-O2: the schools of the file the league does not know are new ones (a checkbox:
    /// present when ticked); a school close to a known one still needs its line's `new_school`.
    #[serde(default)]
    pub(super) new_schools: Option<String>,
    /// AS-19: the seed of the lot that numbers the teams the file does not place; empty for
    /// the file's order.
    #[serde(default)]
    pub(super) lot: String,
    /// `fill` (the teams of `from`), `preview` or `create`.
    #[serde(default)]
    pub(super) step: String,
}

/// What the page shows of the division form: its values, and the preview or the problems.
#[derive(Debug, Default)]
pub(super) struct Shown {
    pub form: DivisionForm,
    preview: Option<Preview>,
    problems: Vec<String>,
}

#[derive(Debug)]
struct Preview {
    teams: Vec<String>,
    rounds: Vec<(String, Vec<String>)>,
}

/// The form as the template draws it.
pub(super) struct DivisionBlock {
    pub form: DivisionForm,
    pub seasons: Vec<Choice>,
    pub rules: Vec<Choice>,
    pub from: Vec<Choice>,
    pub double: bool,
    pub packed: bool,
    /// Two rounds a day, as an event plays (AS-3).
    pub twice: bool,
    pub carry: bool,
    pub teams_preview: Vec<String>,
    pub rounds_preview: Vec<(String, Vec<String>)>,
    pub previewed: bool,
    pub problems: Vec<String>,
}

pub(super) fn shown(tree: &LeagueTree, s: Shown) -> DivisionBlock {
    let f = s.form;
    let seasons = tree
        .seasons
        .iter()
        .rev()
        .enumerate()
        .map(|(i, (season, _))| Choice {
            selected: season.slug == f.season || (f.season.is_empty() && i == 0),
            value: season.slug.clone(),
            label: season.name.clone(),
        })
        .collect();
    let chosen_rules = if f.rules.is_empty() {
        default_rules(tree)
    } else {
        f.rules.clone()
    };
    let rules = preset_names()
        .into_iter()
        .map(|name| Choice {
            selected: name == chosen_rules,
            value: name.to_string(),
            label: name.to_string(),
        })
        .collect();
    let mut from = vec![Choice {
        value: String::new(),
        label: "Nothing: a new division".into(),
        selected: f.from.is_empty(),
    }];
    for (season, comps) in tree.seasons.iter().rev() {
        for c in comps {
            let value = format!("{}/{}", season.slug, c.slug);
            from.push(Choice {
                selected: value == f.from,
                label: format!("{} — {}", c.name, season.name),
                value,
            });
        }
    }
    let (teams_preview, rounds_preview, previewed) = match s.preview {
        Some(p) => (p.teams, p.rounds, true),
        None => (Vec::new(), Vec::new(), false),
    };
    DivisionBlock {
        double: f.cycles != "single",
        packed: f.spacing == "packed",
        twice: f.spacing == "twice",
        carry: f.carry.is_some() || f.step.is_empty(),
        form: f,
        seasons,
        rules,
        from,
        teams_preview,
        rounds_preview,
        previewed,
        problems: s.problems,
    }
}

/// The rules the league's divisions have used, else the league's preset.
fn default_rules(tree: &LeagueTree) -> String {
    tree.seasons
        .iter()
        .rev()
        .flat_map(|(_, cs)| cs)
        .find_map(|c| match &c.rules {
            RulesRef::Preset(p) => Some(p.clone()),
            RulesRef::Toml(_) => None,
        })
        .unwrap_or_else(|| "gthscl".to_string())
}

/// The season's school calendar, or why the schedule cannot be placed (GT-M2).
async fn calendar(
    state: &AppState,
    season: &Season,
) -> Result<Result<SchoolCalendar, String>, WebError> {
    Ok(state.store().school_calendar(season).await?.ok_or_else(|| {
        format!(
            "The season {} has no first and last days, so its match days are unknown; create a season with its days first.",
            season.name
        )
    }))
}

/// The team of the division before that a new team continues: the same school and name, else
/// the school's only team there.
fn previous_team<'a>(before: &'a Competition, team: &Team) -> Option<&'a Team> {
    let same_school = |t: &&Team| t.school == team.school;
    before
        .teams
        .iter()
        .filter(same_school)
        .find(|t| t.name.eq_ignore_ascii_case(&team.name))
        .or_else(|| {
            let mut of_school = before.teams.iter().filter(same_school);
            match (of_school.next(), of_school.next()) {
                (Some(only), None) => Some(only),
                _ => None,
            }
        })
}

/// Gives each team the roster it had in `before`, at the ratings the rollover gives (GT-R1,
/// GT-R2, GT-R3); says in a line per team what came over.
fn carry_rosters(c: &mut Competition, before: &CompetitionView) -> Vec<String> {
    let rated = before.rated().ok();
    let league = match rated.map(|r| r.replay.system) {
        Some(System::League(l)) => Some(l),
        _ => None,
    };
    let mut lines = Vec::new();
    for team in &mut c.teams {
        let Some(prev) = previous_team(&before.competition, team) else {
            continue;
        };
        let next = |p: &arbiter_core::Player| {
            let rated = rated?;
            let league = league.as_ref()?;
            let (_, _, summary) = rated.rows().find(|(_, id, _)| **id == p.id)?;
            Some(rollover::next_season(&summary.after, league))
        };
        team.players = division::carried_roster(prev, next);
        let who: Vec<String> = team
            .players
            .iter()
            .map(|p| format!("{} {}", p.name, words::rating(p)))
            .collect();
        lines.push(format!(
            "{}: {} player{} from {} ({}), at the ratings the season rolls over to (GT-R1, GT-R2, GT-R3): {}",
            team.name,
            team.players.len(),
            if team.players.len() == 1 { "" } else { "s" },
            prev.name,
            before.season.name,
            who.join(", ")
        ));
    }
    lines
}

fn preview(c: &Competition, known: &[String], carried: Vec<String>) -> Preview {
    // Each team with its number in the Berger tables (AS-19).
    let mut teams: Vec<String> = c
        .teams
        .iter()
        .zip(1..)
        .map(|(t, number)| {
            let school = t.school.clone().unwrap_or_default();
            let new = if known.contains(&school) {
                ""
            } else {
                ", a new school"
            };
            format!("{number}. {} ({school}{new})", t.name)
        })
        .collect();
    teams.extend(carried);
    let name = |id: &arbiter_core::TeamId| {
        c.teams
            .iter()
            .find(|t| t.id == *id)
            .map_or_else(|| id.to_string(), |t| t.name.clone())
    };
    let rounds = c
        .rounds
        .iter()
        .map(|r| {
            let title = match r.date {
                Some(d) => format!("Round {} · {}", r.number, words::date(d)),
                None => format!("Round {}", r.number),
            };
            let matches = r
                .pairings
                .iter()
                .map(|p| match p {
                    Pairing::Match(m) => format!("{} – {}", name(&m.home), name(&m.away)),
                    Pairing::Bye(b) => format!("{}: bye", name(&b.team)),
                })
                .collect();
            (title, matches)
        })
        .collect();
    Preview { teams, rounds }
}

/// POST `/leagues/{league}/setup/divisions`: `step=fill` fills in the teams of the division it
/// starts from; `step=preview` draws the division and shows it (or every problem);
/// `step=create` stores it, its schedule and any rosters carried over, in one change.
pub async fn create_division(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(mut f): Form<DivisionForm>,
) -> Result<Response, WebError> {
    // An uploaded file is read as if pasted, and shown in the text box to correct.
    if !f.teams_file.trim().is_empty() {
        f.teams = std::mem::take(&mut f.teams_file);
    }
    let (tree, acting) = guard(
        &state,
        &auth,
        &league,
        arbiter_core::rules::permissions::Action::CreateSeason,
    )
    .await?;
    let show = |form: DivisionForm, preview: Option<Preview>, problems: Vec<String>| {
        let status = if problems.is_empty() {
            StatusCode::OK
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        let said = Said {
            division: Shown {
                form,
                preview,
                problems,
            },
            ..Said::nothing()
        };
        page(&state, &auth, &tree, said, status)
    };
    let before = match f.from.split_once('/') {
        Some((s, c)) => Some(state.view(&league, s, c).await?),
        None => None,
    };
    if f.step == "fill" {
        // Nothing chosen: a new division, from an empty form.
        let Some(before) = &before else {
            return show(DivisionForm::default(), None, Vec::new()).await;
        };
        let mut text = String::from("school,team\n");
        for t in &before.competition.teams {
            let school = t.school.as_deref().unwrap_or(&t.name);
            text.push_str(&format!("{},{}\n", csv_cell(school), csv_cell(&t.name)));
        }
        let filled = DivisionForm {
            name: if f.name.trim().is_empty() {
                before.record.name.clone()
            } else {
                f.name.clone()
            },
            rules: match &before.record.rules {
                RulesRef::Preset(p) => p.clone(),
                RulesRef::Toml(_) => f.rules.clone(),
            },
            teams: text,
            carry: Some("on".into()),
            ..f.clone()
        };
        return show(filled, None, Vec::new()).await;
    }
    let Some((season, _)) = tree.seasons.iter().find(|(s, _)| s.slug == f.season) else {
        return show(
            f.clone(),
            None,
            vec!["Choose the season of the division.".into()],
        )
        .await;
    };
    let mut problems = Vec::new();
    let name = f.name.trim();
    if name.is_empty() {
        problems.push("Give the division its name, such as “Metro”.".to_string());
    }
    let rules = Ruleset::preset(&f.rules);
    if rules.is_none() {
        problems.push(format!(
            "“{}” is not a ruleset here; choose one of {}.",
            f.rules,
            preset_names().join(", ")
        ));
    }
    let read = teams_csv::read(&f.teams);
    let mut entries = read.rows.clone();
    let known: Vec<String> = state
        .store()
        .schools(tree.league.id)
        .await?
        .into_iter()
        .map(|s| s.name)
        .collect();
    // Every mistake of the file at once, at its lines: the reader's, the schools'
    // (GT-O2), and the draw's below.
    let mut in_file = division::schools(&mut entries, &known, f.new_schools.is_some());
    let cal = match calendar(&state, season).await? {
        Ok(c) => Some(c),
        Err(why) => {
            problems.push(why);
            None
        }
    };
    let lot = match f.lot.trim() {
        "" => None,
        text => match text.parse::<u64>() {
            Ok(seed) => Some(seed),
            Err(_) => {
                problems.push(format!(
                    "“{text}” is not a seed for the lot; give a whole number such as 7, or leave it empty to number the teams in the file's order (AS-19)."
                ));
                None
            }
        },
    };
    let (Some(rules), Some(cal)) = (rules, cal) else {
        problems.extend(read.with(in_file).iter().map(ToString::to_string));
        return show(f.clone(), None, problems).await;
    };
    let how = Draw {
        cycles: if f.cycles == "single" {
            Cycles::Single
        } else {
            Cycles::Double
        },
        spacing: match f.spacing.as_str() {
            "packed" => Spacing::Packed,
            "twice" => Spacing::RoundsADay(2),
            _ => Spacing::Even,
        },
        calendar: &cal,
        lot,
    };
    let drawn = division::draw(name, &rules, &entries, how);
    if let Err(found) = &drawn {
        in_file.extend(found.iter().cloned());
    }
    problems.extend(read.with(in_file).iter().map(ToString::to_string));
    let mut competition = match drawn {
        Ok(c) if problems.is_empty() => c,
        _ => return show(f.clone(), None, problems).await,
    };
    let carried = match (&before, f.carry.is_some()) {
        (Some(b), true) => carry_rosters(&mut competition, b),
        _ => Vec::new(),
    };
    if f.step != "create" {
        return show(
            f.clone(),
            Some(preview(&competition, &known, carried)),
            Vec::new(),
        )
        .await;
    }
    let slug = match f.slug.trim() {
        "" => arbiter_core::record::text::slug(name).unwrap_or_default(),
        s => s.to_string(),
    };
    let new = NewCompetition {
        slug: slug.clone(),
        name: name.to_string(),
        rules: RulesRef::Preset(f.rules.clone()),
    };
    match state
        .store()
        .import_competition(season.id, &new, &competition, &acting.actor())
        .await
    {
        Ok(_) => {
            state.invalidate();
            Ok(see_other(&competition_href(&league, &season.slug, &slug)))
        }
        Err(e) => show(f.clone(), None, vec![WebError::from_write(e).message()]).await,
    }
}

/// A cell of the teams file the form fills in: quoted when it holds a comma or a quote.
fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}
