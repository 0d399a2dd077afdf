//! AS-10, AS-12: the rosters in their fixed order on one printable sheet, as the arbiter posts
//! them at the lock (`{competition}/rosters/sheet`). Before the lock each roster is its team's
//! and the arbiter's: the arbiter reads every one, a team's advisor their own; from the lock (and
//! in a league, where rosters are never sealed) everyone signed in reads them all.

use arbiter_core::rules::permissions::{Action, Target};
use arbiter_core::teams::sealed::{self, Viewer};
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;

use crate::app::address::{Addressed, CompetitionAddress};
use crate::app::respond::{bad_path, private};
use crate::app::state::AppState;
use crate::http::auth::{self, Auth};
use crate::http::error::{Format, WebError};
use crate::ui::words;

/// The sheet's address under a competition's.
pub fn sheet_href(competition_href: &str) -> String {
    format!("{competition_href}/rosters/sheet")
}

struct RosterBlock {
    team: String,
    school: String,
    /// Each player in the fixed order (AS-10): number, name, rating.
    players: Vec<(usize, String, String)>,
}

#[derive(Template)]
#[template(path = "rosters/sheet.html", whitespace = "minimize")]
struct SheetPage {
    title: String,
    css: &'static str,
    heading: String,
    /// When the rosters lock, or that they are locked.
    lock: Option<String>,
    /// Whose rosters these are, when not every team's.
    only: Option<String>,
    rosters: Vec<RosterBlock>,
    back_href: String,
}

/// GET `/leagues/{league}/{season}/{competition}/rosters/sheet`.
pub async fn roster_sheet(
    State(state): State<AppState>,
    auth: Auth,
    path: Addressed<CompetitionAddress>,
) -> Response {
    let answer = async {
        let axum::extract::Path(CompetitionAddress {
            league,
            season,
            competition,
        }) = path.map_err(|e| bad_path(&e))?;
        let view = state.view(&league, &season, &competition).await?;
        let account = auth.user.as_ref();
        let league_id = view.league.id;
        // The arbiter takes every roster (AS-12), as every lineup (the table's
        // `OverrideLateLineup`, AS-11).
        let arbiter = auth::may(
            account,
            league_id,
            Action::OverrideLateLineup,
            Target::League,
        ) || auth::may(account, league_id, Action::EditRoster, Target::League);
        let schools: Vec<String> = account
            .map(|a| {
                a.roles_in(league_id)
                    .filter_map(|m| m.school.clone())
                    .collect()
            })
            .unwrap_or_default();
        let now = view
            .roster_lock
            .as_ref()
            .map(|l| l.clock.to_datetime(state.now()));
        let lock = view.roster_lock.as_ref().map(|l| l.hall);
        let public = now.is_none_or(|now| sealed::may_see_roster(Viewer::Other, lock, now));
        let own = |school: Option<&String>| school.is_some_and(|s| schools.contains(s));
        let teams: Vec<&arbiter_core::Team> = view
            .competition
            .teams
            .iter()
            .filter(|t| arbiter || public || own(t.school.as_ref()))
            .collect();
        if teams.is_empty() {
            let why = view.roster_lock.as_ref().map_or_else(
                || "Sign in as the arbiter or a team's advisor to read its roster.".to_string(),
                |l| l.withheld_sentence(),
            );
            return Err(WebError::Forbidden(why));
        }
        let rosters = teams
            .iter()
            .map(|t| RosterBlock {
                team: t.name.clone(),
                // The school beside the team's name, unless the name says it already.
                school: t
                    .school
                    .clone()
                    .filter(|s| !t.name.contains(s.as_str()))
                    .unwrap_or_default(),
                players: t
                    .players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (i + 1, p.name.clone(), words::rating(p)))
                    .collect(),
            })
            .collect::<Vec<_>>();
        let only = (rosters.len() < view.competition.teams.len()).then(|| {
            "Your team's roster: the others' are published to every team when the rosters lock (AS-12).".to_string()
        });
        let page = SheetPage {
            title: format!("Rosters \u{2014} {}", view.record.name),
            css: crate::ui::stylesheet::css_href(),
            heading: format!(
                "{} \u{2014} {} \u{2014} {}",
                view.league.name, view.season.name, view.record.name
            ),
            lock: view.roster_lock.as_ref().map(|l| {
                let at = l.hall.strftime("%H:%M on %A %-d %B %Y");
                if now.is_some_and(|n| n >= l.hall) {
                    format!("Locked at {at} (the hall's time): these are the rosters in their fixed order for the whole championship (AS-10, AS-12).")
                } else {
                    format!("The rosters lock at {at} (the hall's time), when they are published to every team (AS-12); each keeps this order for the whole championship (AS-10).")
                }
            }),
            only,
            rosters,
            back_href: view.href(),
        };
        Ok::<_, WebError>(private(StatusCode::OK, &page))
    };
    answer.await.unwrap_or_else(|e| e.answer(Format::Html))
}
