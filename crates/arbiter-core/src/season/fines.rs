//! Fines that follow sanctions (issue 34 item 7): a league's ruleset sets what a forfeited
//! match, a board left empty, a drop and a late result cost (`[fines]`), and this module reads
//! them from the record. Like an exclusion, a fine is computed, never stored: a corrected
//! result that is no longer a forfeit takes its fine away, and the ledger shows what the record
//! says now. An officer forgives a fine by a waiver in the ledger, with the reason.
//!
//! A fine falls on the school (or club) whose team the sanction is against; a team that names
//! no school is fined nothing, as it owes no fee.

use jiff::civil::Date;

use crate::record::model::{Competition, GameResult, MatchOutcome, Pairing, Side, TeamId};
use crate::record::money::Money;
use crate::rules::ruleset::Ruleset;
use crate::scoring::score;

pub use crate::rules::sections::{Fines, LateFine};

/// What a fine is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FineKind {
    /// The team forfeited the match (or both did).
    MatchForfeit,
    /// The team left this board empty.
    BoardDefault {
        /// The board, from 1.
        board: u32,
    },
    /// The team was dropped from the league by this match's forfeit.
    Drop,
    /// The result was first entered this many days after the day it was due by.
    LateResult {
        /// Days after the due day.
        days_late: u32,
        /// The day it was due by.
        due: Date,
    },
}

impl FineKind {
    /// `match_forfeit`, `board_default`, `drop` or `late_result`: the word of every file and
    /// answer.
    pub fn code(self) -> &'static str {
        match self {
            FineKind::MatchForfeit => "match_forfeit",
            FineKind::BoardDefault { .. } => "board_default",
            FineKind::Drop => "drop",
            FineKind::LateResult { .. } => "late_result",
        }
    }

    /// The ruleset's `[cite]` key for the rule a fine of this kind follows.
    pub fn cite_key(self) -> &'static str {
        match self {
            FineKind::MatchForfeit => "forfeit_match",
            FineKind::BoardDefault { .. } => "board_default",
            FineKind::Drop => "drop",
            FineKind::LateResult { .. } => "report",
        }
    }
}

/// One fine, with the match whose sanction it follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fine {
    /// The school (or club) fined.
    pub school: String,
    /// Its team the sanction is against.
    pub team: TeamId,
    /// What for.
    pub kind: FineKind,
    /// How much.
    pub amount: Money,
    /// The league's ID for the rule, when its ruleset cites one.
    pub rule: Option<String>,
    /// The competition (division) of the match.
    pub competition: String,
    /// The match: its round, home and away teams, and day when it has one.
    pub round: u32,
    /// The match's home team.
    pub home: TeamId,
    /// The match's visiting team.
    pub away: TeamId,
    /// The match's day.
    pub on: Option<Date>,
    /// What happened and what it costs, in a sentence: "Clay High School is fined $10.00:
    /// Clay forfeited round 3, Clay v Start (Rule 21)."
    pub sentence: String,
}

/// A match's result first entered on a day (the league's time zone): what a late-result fine
/// is counted from. An import's results are never late.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstEntry {
    /// The match's round.
    pub round: u32,
    /// The match's home team.
    pub home: TeamId,
    /// The day its first result was entered.
    pub entered_on: Date,
}

/// Every fine `rules` sets for what `competition`'s record holds: forfeited matches, boards
/// left empty, drops, and results first entered after their day (`entries`).
pub fn assess(competition: &Competition, rules: &Ruleset, entries: &[FirstEntry]) -> Vec<Fine> {
    let fines = &rules.fines;
    if *fines == Fines::default() {
        return Vec::new();
    }
    let name = |id: &TeamId| {
        competition
            .team(id)
            .map_or_else(|| id.0.clone(), |t| t.name.clone())
    };
    let mut out = Vec::new();
    let mut fine = |team: &TeamId,
                    kind: FineKind,
                    amount: Money,
                    at: (u32, &TeamId, &TeamId, Option<Date>),
                    what: String| {
        let Some(school) = competition.team(team).and_then(|t| t.school.clone()) else {
            return;
        };
        let (round, home, away, on) = at;
        let rule = rules.cite(kind.cite_key()).map(str::to_string);
        let cited = rule.as_ref().map_or(String::new(), |r| format!(" ({r})"));
        out.push(Fine {
            sentence: format!(
                "{school} is fined {amount}: {what}, round {round}, {} v {}{cited}.",
                name(home),
                name(away)
            ),
            school,
            team: team.clone(),
            kind,
            amount,
            rule,
            competition: competition.name.clone(),
            round,
            home: home.clone(),
            away: away.clone(),
            on,
        });
    };
    for round in &competition.rounds {
        for p in &round.pairings {
            let Pairing::Match(m) = p else { continue };
            let at = (round.number, &m.home, &m.away, round.date_of(m));
            let forfeiting: &[Side] = match &m.outcome {
                MatchOutcome::Forfeit { by: Side::Home } => &[Side::Home],
                MatchOutcome::Forfeit { by: Side::Away } => &[Side::Away],
                MatchOutcome::DoubleForfeit => &[Side::Home, Side::Away],
                _ => &[],
            };
            if let Some(amount) = fines.match_forfeit {
                for side in forfeiting {
                    let team = m.team(*side);
                    fine(
                        team,
                        FineKind::MatchForfeit,
                        amount,
                        at,
                        format!("{} forfeited the match", name(team)),
                    );
                }
            }
            if let (Some(amount), MatchOutcome::Boards(boards)) = (fines.board_default, &m.outcome)
            {
                for (board, b) in (1..).zip(boards) {
                    let empty: &[Side] = match b.result {
                        GameResult::HomeWinByForfeit if b.away_player.is_none() => &[Side::Away],
                        GameResult::AwayWinByForfeit if b.home_player.is_none() => &[Side::Home],
                        GameResult::DoubleForfeit => &[Side::Home, Side::Away],
                        _ => &[],
                    };
                    for side in empty {
                        let team = m.team(*side);
                        fine(
                            team,
                            FineKind::BoardDefault { board },
                            amount,
                            at,
                            format!("{} defaulted board {board}", name(team)),
                        );
                    }
                }
            }
            if let (Some(deadlines), Some(day)) = (rules.report, round.date_of(m))
                && let Some(first) = entries
                    .iter()
                    .find(|e| e.round == round.number && e.home == m.home)
            {
                let due = deadlines.enter_by(day);
                let late = due.until(first.entered_on).map_or(0, |s| s.get_days());
                if let Some(step) = u32::try_from(late)
                    .ok()
                    .and_then(|d| fines.for_late_result(d))
                {
                    fine(
                        &m.home,
                        FineKind::LateResult {
                            days_late: u32::try_from(late).unwrap_or(0),
                            due,
                        },
                        step.amount,
                        at,
                        format!(
                            "{} entered the result on {}, {late} day{} after it was due on {due}",
                            name(&m.home),
                            first.entered_on,
                            if late == 1 { "" } else { "s" }
                        ),
                    );
                }
            }
        }
    }
    if let Some(amount) = fines.drop {
        let sheet = score(competition, rules);
        for (t, team) in competition.teams.iter().enumerate() {
            let Some(d) = sheet.teams.get(t).and_then(|s| s.dropped.as_ref()) else {
                continue;
            };
            let Some(round) = competition.rounds.iter().find(|r| r.number == d.round) else {
                continue;
            };
            let Some(m) = round
                .matches()
                .find(|m| m.home == team.id || m.away == team.id)
            else {
                continue;
            };
            fine(
                &team.id,
                FineKind::Drop,
                amount,
                (round.number, &m.home, &m.away, round.date_of(m)),
                format!("{} was dropped from the league by its forfeit", team.name),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests;
