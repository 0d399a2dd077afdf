//! The pairing page, for whoever sets up rounds (issue 17): GET `…/{competition}/pairing` shows
//! the next round as C.04.6 pairs it, each pair with why; POST with `step=swap` trades two
//! teams' places by hand (a reason required, C.04.2 art. 1.5) and shows the result, the swaps
//! carried in the form; `step=publish` stores the round and comes back with where to enter its
//! results.

use arbiter_core::pairing::swiss::{Published, Swap};
use arbiter_core::record::text::REASON_MAX_CHARS;
use askama::Template;
use axum::Form;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::app::address::{Addressed, CompetitionAddress};
use crate::app::respond::{bad_path, private, see_other};
use crate::http::auth::{Acting, Auth};
use crate::http::csrf;
use crate::http::error::WebError;
use crate::pairing::{
    NextRound, NotPublished, load, pairing_href, parse_swaps, prepare, publish, swaps_text,
};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, competition_href, league_href, season_href};
use crate::ui::words;

/// One match as the page lists it.
struct PairLine {
    board: usize,
    white: String,
    black: String,
    white_number: u32,
    black_number: u32,
    /// `Changed by hand: …`, when a swap made it.
    by_hand: Option<String>,
    /// Why C.04.6 paired this board so.
    why: Vec<String>,
}

struct ByeLine {
    number: u32,
    team: String,
    why: String,
    by_hand: Option<String>,
}

/// A team as the swap form offers it.
struct Choice {
    id: String,
    label: String,
}

#[derive(Template)]
#[template(path = "pairing/pairing.html", whitespace = "minimize")]
struct PairingPage {
    layout: Layout,
    csrf: String,
    action: String,
    round: Option<u32>,
    notice: Option<String>,
    problems: Vec<String>,
    /// Why no round can be paired now.
    cannot: Option<String>,
    pairs: Vec<PairLine>,
    bye: Option<ByeLine>,
    initial_colour: String,
    teams: Vec<Choice>,
    seen: i64,
    swaps: String,
    changed: bool,
    reason: String,
    reason_max: usize,
    /// The absolute criteria named to override (C.04.1 b, c), as typed.
    override_absolute: String,
    history: String,
    /// `[pairing] seed = "average_top"`: the heading and each start number with its average;
    /// empty under the file's order.
    seeding_heading: String,
    seeding: Vec<String>,
}

/// The form: the step, what was read, the swaps so far, the two teams to swap, and why.
#[derive(Debug, Default, Deserialize)]
pub struct PairingFields {
    #[serde(default)]
    step: String,
    #[serde(default)]
    seen: String,
    #[serde(default)]
    swaps: String,
    #[serde(default)]
    a: String,
    #[serde(default)]
    b: String,
    #[serde(default)]
    reason: String,
    /// `C.04.1 b`, `C.04.1 c` or both, comma-separated: the absolute criteria the change by hand
    /// may break by the Chief Arbiter's decision.
    #[serde(default)]
    override_absolute: String,
}

/// The criteria named in the override field: `C.04.1 b, C.04.1 c` → both.
fn overrides(text: &str) -> Vec<String> {
    text.split([',', ';'])
        .map(str::trim)
        .filter(|o| !o.is_empty())
        .map(str::to_string)
        .collect()
}

/// `?published=6`: the round just published.
#[derive(Debug, Default, Deserialize)]
pub struct Done {
    #[serde(default)]
    published: Option<u32>,
}

async fn guard(
    state: &crate::app::state::AppState,
    auth: &Auth,
    path: Addressed<CompetitionAddress>,
) -> Result<(NextRound, Acting), WebError> {
    let Path(CompetitionAddress {
        league,
        season,
        competition,
    }) = path.map_err(|e| bad_path(&e))?;
    load(state, auth.user.as_ref(), (&league, &season, &competition)).await
}

/// The lines of `p`, each changed pair flagged with `reason`.
fn lines(n: &NextRound, p: &Published) -> (Vec<PairLine>, Option<ByeLine>) {
    let view = &n.view;
    let flag = |by_hand: bool| {
        by_hand.then(|| {
            words::hand_note(
                p.reason.as_ref().map_or("", |r| r.as_str()),
                &crate::pairing::overridden(p),
            )
        })
    };
    let pairs = p
        .pairs
        .iter()
        .zip(&p.paired.pairs)
        .enumerate()
        .map(|(i, (m, given))| {
            let w = &given.why;
            let mut why = Vec::new();
            if m.by_hand {
                why.push(format!(
                    "C.04.6 paired {} – {} on this board:",
                    given.white_number, given.black_number
                ));
            }
            let teams = |v: &[u32]| match v {
                [one] => format!("team {one}"),
                _ => format!("teams {}", words_list(v)),
            };
            why.push(format!(
                "Bracket of {} points: {}{}.",
                words::points(w.bracket_score),
                teams(&w.residents),
                if w.upfloaters.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", and {} floated up into it (art. 3.5)",
                        teams(&w.upfloaters)
                    )
                }
            ));
            if !w.floaters.is_empty() {
                why.push(format!("Upfloater in this pair: {}.", teams(&w.floaters)));
            }
            why.extend(w.criteria.iter().map(|c| format!("{c}.")));
            why.push(format!(
                "Colours: {} ({}).",
                w.colour_rule.words(),
                w.colour_rule.article()
            ));
            PairLine {
                board: i + 1,
                white: view.team_name(&m.white),
                black: view.team_name(&m.black),
                white_number: m.white_number,
                black_number: m.black_number,
                by_hand: flag(m.by_hand),
                why,
            }
        })
        .collect();
    let bye = p.bye.as_ref().map(|(team, number, by_hand)| ByeLine {
        number: *number,
        team: view.team_name(team),
        why: p
            .paired
            .bye
            .as_ref()
            .map_or_else(String::new, |b| format!("{}.", b.why)),
        by_hand: flag(*by_hand),
    });
    (pairs, bye)
}

fn words_list(v: &[u32]) -> String {
    arbiter_core::record::words::list(v.iter().map(u32::to_string))
}

/// What the page shows besides the pairing.
#[derive(Default)]
struct Shown {
    notice: Option<String>,
    problems: Vec<String>,
}

async fn page(
    auth: &Auth,
    n: &NextRound,
    (swaps, reason, override_absolute): (&[Swap], &str, &str),
    shown: Shown,
    status: StatusCode,
) -> Result<Response, WebError> {
    let view = &n.view;
    let (league, season) = (&view.league.slug, &view.season.slug);
    // The swaps that stand; one core refuses is left out (its sentence is among the problems).
    let prepared = prepare(n, swaps, reason, &overrides(override_absolute))
        .or_else(|_| prepare(n, &[], "", &[]));
    let (pairs, bye, round, cannot, initial, kept) = match &prepared {
        Ok(p) => {
            let (pairs, bye) = lines(n, p);
            (
                pairs,
                bye,
                Some(p.paired.round),
                None,
                match p.paired.initial_colour {
                    arbiter_core::Colour::White => "White",
                    arbiter_core::Colour::Black => "Black",
                }
                .to_string(),
                p.swaps.clone(),
            )
        }
        Err(e) => (
            Vec::new(),
            None,
            None,
            Some(match e {
                NotPublished::Refused(e) => {
                    format!(
                        "{}: {}",
                        e.rule,
                        arbiter_core::record::text::sentence(&e.message)
                    )
                }
                NotPublished::Stale(m) => m.clone(),
                NotPublished::Failed(e) => e.message(),
            }),
            String::new(),
            Vec::new(),
        ),
    };
    let mut teams: Vec<Choice> = prepared
        .as_ref()
        .map(|p| {
            p.pairs
                .iter()
                .flat_map(|m| [(&m.white, m.white_number), (&m.black, m.black_number)])
                .chain(p.bye.as_ref().map(|b| (&b.0, b.1)))
                .map(|(id, number)| Choice {
                    id: id.0.clone(),
                    label: format!("{number} {}", view.team_name(id)),
                })
                .collect()
        })
        .unwrap_or_default();
    teams.sort_by_key(|c| {
        c.label
            .split(' ')
            .next()
            .and_then(|x| x.parse::<u32>().ok())
            .unwrap_or(u32::MAX)
    });
    let changed = prepared.as_ref().is_ok_and(Published::changed);
    let title = match round {
        Some(r) => format!("Pair round {r}: {}", view.record.name),
        None => format!("Pairing: {}", view.record.name),
    };
    // The start numbers with the averages they come from (`[pairing] seed`).
    let (seeding_heading, seeding) = match view.rules.pairing.seed {
        arbiter_core::rules::ruleset::SeedOrder::AverageTop(top) => (
            format!(
                "Start numbers by the average rating of each team's top {top} players (C.04.6 art. 1.1)"
            ),
            arbiter_core::pairing::swiss::seeding(&view.competition, &view.rules)
                .iter()
                .map(|s| {
                    let average = s.average.map_or_else(
                        || "no rated player".to_string(),
                        arbiter_core::scoring::standings::format_number,
                    );
                    format!(
                        "{} {} ({average})",
                        s.number, view.competition.teams[s.team].name
                    )
                })
                .collect(),
        ),
        arbiter_core::rules::ruleset::SeedOrder::File => (String::new(), Vec::new()),
    };
    let page = PairingPage {
        seeding_heading,
        seeding,
        layout: private_layout(
            &title,
            vec![
                Link::new(league_href(league), &view.league.name),
                Link::new(season_href(league, season), &view.season.name),
                Link::new(
                    competition_href(league, season, &view.record.slug),
                    &view.record.name,
                ),
            ],
        ),
        csrf: csrf::session_token(&auth.session).await?,
        action: pairing_href(view),
        round,
        notice: shown.notice,
        problems: shown.problems,
        cannot,
        pairs,
        bye,
        initial_colour: initial,
        teams,
        seen: n.seen(),
        swaps: swaps_text(&kept),
        changed,
        reason: crate::results::context::shown(reason),
        reason_max: REASON_MAX_CHARS,
        override_absolute: crate::results::context::shown(override_absolute),
        history: format!(
            "{}/history",
            competition_href(league, season, &view.record.slug)
        ),
    };
    Ok(private(status, &page))
}

/// GET `…/{competition}/pairing`: the next round as C.04.6 pairs it.
pub async fn pairing_page(
    State(state): State<crate::app::state::AppState>,
    auth: Auth,
    path: Addressed<CompetitionAddress>,
    done: Result<Query<Done>, QueryRejection>,
) -> Result<Response, WebError> {
    let (n, _) = guard(&state, &auth, path).await?;
    let notice = done.ok().and_then(|Query(d)| d.published).map(|r| {
        format!(
            "Round {r} is published: its matches are on the round's page, home the team with White on board 1. Enter its results there once played; the next round is paired from them."
        )
    });
    let shown = Shown {
        notice,
        ..Shown::default()
    };
    page(&auth, &n, (&[], "", ""), shown, StatusCode::OK).await
}

/// POST `…/{competition}/pairing`: `step=swap` trades two teams' places, `step=publish` stores
/// the round.
pub async fn pairing_step(
    State(state): State<crate::app::state::AppState>,
    auth: Auth,
    path: Addressed<CompetitionAddress>,
    Form(f): Form<PairingFields>,
) -> Result<Response, WebError> {
    let (n, acting) = guard(&state, &auth, path).await?;
    let mut swaps = parse_swaps(&f.swaps);
    let refused = |problems: Vec<String>| Shown {
        problems,
        ..Shown::default()
    };
    if f.step == "publish" {
        let seen = f.seen.trim().parse::<i64>().unwrap_or(-1);
        let absolute = overrides(&f.override_absolute);
        return match publish(&state, &n, seen, &swaps, &f.reason, &absolute, &acting).await {
            Ok(p) => Ok(see_other(&format!(
                "{}?published={}",
                pairing_href(&n.view),
                p.paired.round
            ))),
            Err(NotPublished::Stale(m)) => {
                // Read again: the pairing as the competition stands now.
                let (fresh, _) = load(
                    &state,
                    auth.user.as_ref(),
                    (
                        &n.view.league.slug,
                        &n.view.season.slug,
                        &n.view.record.slug,
                    ),
                )
                .await?;
                let shown = Shown {
                    notice: Some(format!(
                        "{m} Below is the pairing as the competition stands now."
                    )),
                    ..Shown::default()
                };
                page(&auth, &fresh, (&[], "", ""), shown, StatusCode::CONFLICT).await
            }
            Err(NotPublished::Refused(e)) => {
                let problem = format!(
                    "{}: {}",
                    e.rule,
                    arbiter_core::record::text::sentence(&e.message)
                );
                page(
                    &auth,
                    &n,
                    (&swaps, &f.reason, &f.override_absolute),
                    refused(vec![problem]),
                    StatusCode::UNPROCESSABLE_ENTITY,
                )
                .await
            }
            Err(NotPublished::Failed(e)) => Err(e),
        };
    }
    // A swap: two teams chosen, then core's say on the whole change.
    if f.a.trim().is_empty() || f.b.trim().is_empty() {
        let problem =
            "Choose two teams to swap, one in each list; nothing was changed (C.04.2 art. 1.5)."
                .to_string();
        return page(
            &auth,
            &n,
            (&swaps, &f.reason, &f.override_absolute),
            refused(vec![problem]),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    let before = swaps.clone();
    swaps.push(Swap {
        a: arbiter_core::TeamId(f.a.trim().to_string()),
        b: arbiter_core::TeamId(f.b.trim().to_string()),
    });
    match prepare(&n, &swaps, &f.reason, &overrides(&f.override_absolute)) {
        Ok(_) => {
            let shown = Shown {
                notice: Some(
                    "The teams are swapped; nothing is published yet. Swap more, or publish the round below.".into(),
                ),
                ..Shown::default()
            };
            page(
                &auth,
                &n,
                (&swaps, &f.reason, &f.override_absolute),
                shown,
                StatusCode::OK,
            )
            .await
        }
        Err(NotPublished::Refused(e)) => {
            let problem = format!(
                "{}: {}",
                e.rule,
                arbiter_core::record::text::sentence(&e.message)
            );
            page(
                &auth,
                &n,
                (&before, &f.reason, &f.override_absolute),
                refused(vec![problem]),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(e) => Err(e.into_web()),
    }
}
