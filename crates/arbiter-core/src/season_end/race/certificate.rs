//! What each answer of the race rests on, in a form a test (or a doubting officer) can check: a
//! scenario of the remaining matches that reaches the place, replayed through the real
//! standings; and the argument that no better or worse place can happen.

use super::bounds::{self, Points};
use super::remaining::{Division, places};
use super::sets;
use crate::record::model::{Board, Competition, GameResult, MatchOutcome, Pairing, TeamId};
use crate::rules::ruleset::Ruleset;

/// One team's certificate.
#[derive(Debug, Clone, PartialEq)]
pub struct Certificate {
    /// The team.
    pub team: TeamId,
    /// A scenario in which it finishes at its best place found (`None` for a dropped team).
    pub best: Option<Reached>,
    /// A scenario in which it finishes at its worst place found.
    pub worst: Option<Reached>,
    /// Why it cannot finish above its best place.
    pub no_better: Argument,
    /// Why it cannot finish below its worst place.
    pub no_worse: Argument,
}

/// A place reached by a scenario: every remaining match ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Reached {
    /// The team's place in it: the first of a shared place for a best, the last for a worst.
    pub place: u32,
    /// How each remaining match ends.
    pub results: Vec<MatchResult>,
}

/// How one remaining match ends in a scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchResult {
    /// The round's number.
    pub round: u32,
    /// The first-named team.
    pub home: TeamId,
    /// The second-named team.
    pub away: TeamId,
    /// Board by board, board 1 first.
    pub boards: Vec<GameResult>,
}

/// Why no place beyond a bound is possible.
#[derive(Debug, Clone, PartialEq)]
pub enum Argument {
    /// First place has nothing above it, last nothing below.
    Ends,
    /// The elimination argument by maximum flow: with the team winning all it has left, `ahead`
    /// teams are past it already and the others must score `deficit` points more than a cap at
    /// its total can hold, which takes at least `must_pass` of them past it.
    Flow {
        /// Teams past its best total whatever happens.
        ahead: u32,
        /// The points the cap cannot hold.
        deficit: f64,
        /// The teams that must pass it to take them.
        must_pass: u32,
    },
    /// The counting argument: with the team losing all it has left, at most `can_reach` teams
    /// can reach its total together.
    Counting {
        /// The teams that can reach its total, at most.
        can_reach: u32,
    },
    /// The search over sets of teams by maximum flow ([`super::sets`]), exhausted: with the
    /// team losing all it has left, no set of more than `can_reach` others can reach its total
    /// together (no worse); with it winning all, no set of fewer than `must_pass` let past its
    /// total holds the others at it (no better).
    Sets {
        /// The teams that can reach its least total together, at most (no worse).
        can_reach: Option<u32>,
        /// The teams that must pass its best total, at least (no better).
        must_pass: Option<u32>,
    },
    /// The exact search over every outcome of the remaining matches.
    Search,
    /// GT-M5: a dropped team stays below every team still in the league.
    Dropped,
}

impl Certificate {
    /// Checks the certificate against the competition: each scenario, replayed through the real
    /// standings, gives the place it claims; each flow or counting argument, worked again,
    /// proves at least the bound it claims. `Err` says what does not hold.
    pub fn check(&self, competition: &Competition, rules: &Ruleset) -> Result<(), String> {
        let t = competition
            .team_index(&self.team)
            .ok_or_else(|| format!("{} is not in the competition", self.team.0))?;
        for (reached, last) in [(&self.best, false), (&self.worst, true)] {
            let Some(r) = reached else { continue };
            let played = replay(competition, &r.results)?;
            let at = places(&played, rules).map_err(|e| e.to_string())?[t];
            let place = if last { at.1 } else { at.0 };
            if u32::try_from(place).ok() != Some(r.place) {
                return Err(format!(
                    "the scenario claims place {} for {}, the standings give {place}",
                    r.place, self.team.0
                ));
            }
        }
        let d = Division::new(competition, rules);
        let points = Points::new(&d);
        if let Argument::Flow {
            ahead, must_pass, ..
        } = self.no_better
        {
            let p = points.as_ref().ok_or("no flow argument applies")?;
            let again = bounds::no_better(&d, p, t);
            if again.place < 1 + (ahead + must_pass) as usize {
                return Err(format!("the flow argument gives {}, not more", again.place));
            }
        }
        // The search over sets again, to the end: no larger (smaller) set than claimed.
        if let Argument::Sets {
            must_pass: Some(must_pass),
            ..
        } = self.no_better
        {
            let p = points.as_ref().ok_or("no flow argument applies")?;
            let mut unlimited = u64::MAX;
            let again = sets::let_past(&d, p, t, 0, 0, usize::MAX, &mut unlimited);
            if again.count < must_pass as usize {
                return Err(format!("{} teams let past hold the others", again.count));
            }
        }
        if let Argument::Sets {
            can_reach: Some(can_reach),
            ..
        } = self.no_worse
        {
            let p = points.as_ref().ok_or("no flow argument applies")?;
            let mut unlimited = u64::MAX;
            let again = sets::pushed_past(&d, p, t, 0, usize::MAX, &mut unlimited);
            if !again.exhausted || again.count > can_reach as usize {
                return Err(format!(
                    "{} teams can reach its total together",
                    again.count
                ));
            }
        }
        if let Argument::Counting { can_reach } = self.no_worse {
            let p = points.as_ref().ok_or("no counting argument applies")?;
            let again = bounds::no_worse(&d, p, t, None);
            if again.can_reach > can_reach as usize {
                return Err(format!("{} teams can reach its total", again.can_reach));
            }
        }
        Ok(())
    }
}

/// The competition with each match of `results` ended as it says; every one must be a match
/// still to play.
pub fn replay(competition: &Competition, results: &[MatchResult]) -> Result<Competition, String> {
    let mut c = competition.clone();
    for r in results {
        let m = c
            .rounds
            .iter_mut()
            .filter(|x| x.number == r.round)
            .flat_map(|x| x.pairings.iter_mut())
            .find_map(|p| match p {
                Pairing::Match(m) if m.home == r.home && m.away == r.away => Some(m),
                _ => None,
            })
            .ok_or_else(|| format!("round {} has no match {} v {}", r.round, r.home.0, r.away.0))?;
        m.outcome = MatchOutcome::Boards(r.boards.iter().map(|&b| Board::new(b)).collect());
    }
    Ok(c)
}

/// A scenario (an outcome a remaining match) as results.
pub(super) fn results(d: &Division, pick: &[usize]) -> Vec<MatchResult> {
    d.remaining
        .iter()
        .zip(pick)
        .map(|(r, &o)| MatchResult {
            round: d.competition.rounds[r.at.0].number,
            home: d.competition.teams[r.teams[0]].id.clone(),
            away: d.competition.teams[r.teams[1]].id.clone(),
            boards: r.outcomes[o].boards.clone(),
        })
        .collect()
}
