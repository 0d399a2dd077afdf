//! Issue 17: a team Swiss round paired by FIDE C.04.6 (core's `swiss::pair`), changed by hand
//! only with a reason (C.04.2 art. 1.5) and never past an absolute criterion (C.04.1 b, c)
//! unless it is overridden by name, and published as the competition's next round.
//!
//! [`load`] reads the competition for the one who sets up rounds, [`propose`] asks core for the
//! next round's pairing, and [`publish`] is the one write path, for the page (`page`), the API
//! (`api::pairing`) and the command line (`arbiter pair --publish`): the round is stored only if
//! the competition is still as it was read (else `Stale`), with C.04.6's pairing and any change
//! by hand in the history.

pub mod page;

use std::sync::Arc;

use arbiter_core::TeamId;
use arbiter_core::pairing::swiss::{self, PairingError, Published, Request, RoundPairing, Swap};
use arbiter_core::rules::permissions::{Action, Target};
use arbiter_store::{RoundNote, StoreError};

use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::{self, Account, Acting};
use crate::http::error::WebError;
use crate::ui::link::competition_href;
use crate::ui::words::fnv1a;

/// The competition as the one pairing it reads it, and who acts.
pub struct NextRound {
    pub view: Arc<CompetitionView>,
}

impl std::fmt::Debug for NextRound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NextRound")
            .field("competition", &self.view.record.slug)
            .field("version", &self.seen())
            .finish()
    }
}

impl NextRound {
    /// The version read: a publication confirmed on another is refused.
    pub fn seen(&self) -> i64 {
        self.view.stored.version
    }
}

/// `…/{competition}/pairing`.
pub fn pairing_href(view: &CompetitionView) -> String {
    format!(
        "{}/pairing",
        competition_href(&view.league.slug, &view.season.slug, &view.record.slug)
    )
}

/// The competition `league`/`season`/`competition`, if `account` may set up its rounds (the
/// permission table's `DrawSchedule`).
pub async fn load(
    state: &AppState,
    account: Option<&Account>,
    (league, season, competition): (&str, &str, &str),
) -> Result<(NextRound, Acting), WebError> {
    let tree = crate::app::site::one(state, league).await?;
    let acting = auth::permit(
        account,
        tree.league.id,
        Action::DrawSchedule,
        Target::League,
    )?;
    let view = state.view(league, season, competition).await?;
    Ok((NextRound { view }, acting))
}

/// Art. 4.1's lot, the same for every reader of one competition: the page, the API and the
/// command line propose the same pairing.
fn seed(view: &CompetitionView) -> u64 {
    fnv1a(
        0xcbf2_9ce4_8422_2325,
        format!("{}/{}", view.league.slug, view.record.slug).as_bytes(),
    )
}

/// The competition's next round as C.04.6 pairs it from the rounds before it, or the sentence
/// saying why it cannot be paired now.
pub fn propose(view: &CompetitionView) -> Result<RoundPairing, PairingError> {
    if !swiss::paired_round_by_round(&view.rules) {
        return Err(PairingError {
            rule: "C.04.6 art. 3",
            message: format!(
                "{} is not a team Swiss paired round by round: its rules give no number of rounds (`[pairing] rounds`) or make it a round robin, so its schedule is drawn, not paired",
                view.record.name
            ),
        });
    }
    let round = swiss::next_round(&view.competition, &view.rules)?;
    swiss::pair(
        &view.competition,
        &view.rules,
        &Request {
            round,
            absent: None,
            seed: seed(view),
        },
    )
}

/// The swaps as a form carries them from one step to the next: `a~b,c~d` (team ids are slugs).
pub fn swaps_text(swaps: &[Swap]) -> String {
    swaps
        .iter()
        .map(|s| format!("{}~{}", s.a, s.b))
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads [`swaps_text`] back; pieces that are not two teams are left out.
pub fn parse_swaps(text: &str) -> Vec<Swap> {
    text.split(',')
        .filter_map(|pair| {
            let (a, b) = pair.trim().split_once('~')?;
            (!a.is_empty() && !b.is_empty()).then(|| Swap {
                a: TeamId(a.to_string()),
                b: TeamId(b.to_string()),
            })
        })
        .collect()
}

/// The JSON of a pairing: `{"round": 6, "pairs": [[12, 3], [5, 18]], "bye": 27}`,
/// teams by their start numbers, White on board 1 first.
pub fn numbers(p: &Published) -> (u32, Vec<[u32; 2]>, Option<u32>) {
    (
        p.paired.round,
        p.pairs
            .iter()
            .map(|m| [m.white_number, m.black_number])
            .collect(),
        p.bye.as_ref().map(|b| b.1),
    )
}

/// Why a pairing was not published.
#[derive(Debug)]
pub enum NotPublished {
    /// C.04.6 gives no pairing now, or a change by hand is refused: the sentence with its rule.
    Refused(PairingError),
    /// The competition changed after it was read: nothing was stored.
    Stale(String),
    Failed(WebError),
}

impl NotPublished {
    /// The answer as a page or the API gives it.
    pub fn into_web(self) -> WebError {
        match self {
            NotPublished::Refused(e) => WebError::Refused(format!(
                "{}: {}",
                e.rule,
                arbiter_core::record::text::sentence(&e.message)
            )),
            NotPublished::Stale(m) => WebError::Conflict(m),
            NotPublished::Failed(e) => e,
        }
    }
}

/// C.04.6's pairing of `p`'s next round with `swaps` made by hand for `reason`: refused with the
/// sentence when core refuses it, a change that breaks an absolute criterion (C.04.1 b, c)
/// among them unless `overrides` names it (core's `keep_absolute`).
pub fn prepare(
    p: &NextRound,
    swaps: &[Swap],
    reason: &str,
    overrides: &[String],
) -> Result<Published, NotPublished> {
    let paired = propose(&p.view).map_err(NotPublished::Refused)?;
    let published = swiss::by_hand(&paired, swaps, reason).map_err(NotPublished::Refused)?;
    swiss::keep_absolute(published, &p.view.competition, &p.view.rules, overrides)
        .map_err(NotPublished::Refused)
}

/// The absolute criteria `p` breaks by override as the history keeps them: `C.04.1 b: …`.
pub fn overridden(p: &Published) -> Vec<String> {
    p.overridden.iter().map(ToString::to_string).collect()
}

/// The one write path: the next round of `p`, as C.04.6 pairs it with `swaps` made by hand for
/// `reason`, stored as the competition's next round (home the team with White on board 1) if
/// the competition is still at version `seen`.
pub async fn publish(
    state: &AppState,
    p: &NextRound,
    seen: i64,
    swaps: &[Swap],
    reason: &str,
    overrides: &[String],
    acting: &Acting,
) -> Result<Published, NotPublished> {
    let stale = |round: Option<u32>| {
        NotPublished::Stale(format!(
            "The competition changed after its pairing was read ({}a result or another round came in), so nothing was published; read the pairing again.",
            round.map_or_else(String::new, |n| format!(
                "round {n} may be published already, or "
            ))
        ))
    };
    if seen != p.seen() {
        return Err(stale(None));
    }
    let published = prepare(p, swaps, reason, overrides)?;
    let view = &p.view;
    let number = published.paired.round;
    let round = published.round(&view.rules, Some(round_day(state, view, number)));
    let changed = published.changed_homes(&view.rules);
    let bye_by_hand = published.bye.as_ref().filter(|b| b.2).map(|b| b.0.clone());
    // What C.04.6 gave, kept beside what was published.
    let given = &published.paired;
    let paired = serde_json::json!({
        "round": given.round,
        "pairs": given.pairs.iter().map(|m| [m.white_number, m.black_number]).collect::<Vec<_>>(),
        "bye": given.bye.as_ref().map(|b| b.number),
    });
    let note = RoundNote::Swiss {
        paired: &paired,
        changed: &changed,
        bye_by_hand: bye_by_hand.as_ref(),
        reason: published.reason.as_ref().map(|r| r.as_str()),
        overridden: &overridden(&published),
    };
    match state
        .store()
        .add_round(view.id, seen, &round, &note, &acting.actor())
        .await
    {
        Ok(()) => {
            state.invalidate();
            Ok(published)
        }
        Err(StoreError::Stale(_)) => Err(stale(Some(round.number))),
        Err(e) => Err(NotPublished::Failed(WebError::from_write(e))),
    }
}

/// The day of round `number`: its start in the hall when the event has set it (AS-1), else
/// the day it is paired in the league's zone, so the TRF's `132` dates every round.
fn round_day(state: &AppState, view: &CompetitionView, number: u32) -> jiff::civil::Date {
    view.hall
        .as_ref()
        .and_then(|h| h.round_starts.iter().find(|(n, _)| *n == number))
        .map_or_else(
            || state.today_in(&view.league.time_zone),
            |(_, at)| at.date(),
        )
}

/// For the command line: the competition as the pairing reads it, without an account (the
/// database is the reader's own).
pub async fn read(state: &AppState, at: (&str, &str, &str)) -> Result<NextRound, String> {
    state
        .view(at.0, at.1, at.2)
        .await
        .map(|view| NextRound { view })
        .map_err(|e| e.message())
}

/// For the command line: the account `email` acting on the competition, as the permission
/// table allows, or the sentence saying why not.
pub async fn read_as(
    state: &AppState,
    email: &str,
    at: (&str, &str, &str),
) -> Result<(NextRound, Acting), String> {
    let email = arbiter_core::record::text::Email::parse(email)?;
    let user = state
        .store()
        .user_by_email(&email)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            format!("There is no account {email} in this database; `arbiter user add` makes one.")
        })?;
    let account = auth::Accounts::new(state.store().clone())
        .load(user)
        .await
        .map_err(|e| e.to_string())?;
    load(state, Some(&account), at)
        .await
        .map_err(|e| e.message())
}
