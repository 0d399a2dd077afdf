//! A FIDE rating report: the event as a TRF file, built on [`from_competition`], with what a
//! rating officer reads filled in: each player's rating before the event in `001` columns
//! 49-52 and the birth date in 70-79, `062`, `072` and `082` (players, rated players, teams),
//! and every played game that the ratings leave out written with TRF's unrated codes `W`,
//! `D`, `L`. A GT-P1 game (the team's point lost, the game rated) TRF can only write as the
//! forfeit; the report says so.

use std::collections::HashSet;

use arbiter_core::rating::rated_games::{BoardPlace, RatedCompetition};
use arbiter_core::record::model::{Competition, GameResult, MatchOutcome, Pairing};
use arbiter_core::rules::criteria::CriterionSpec;
use arbiter_core::rules::ruleset::Ruleset;

use super::export::from_competition;
use super::records::{Record, TournamentRecord};
use super::{LineEnding, TrfDocument, TrfLine};

/// A rating report, and what the sender should know before sending it.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingReport {
    /// The event as TRF-2026.
    pub document: TrfDocument,
    /// What the report lacks that FIDE needs (TRF-2026: `042`, `052` and `132` for rating).
    pub warnings: Vec<String>,
}

/// The rating report of `competition` as `rated` rates it: the ratings before the event are
/// the replay's starting ratings (B.02 rates an event from the pre-event ratings), and a board
/// `rated` lists as not rated whose game was played (GT-R7's unranked players, GT-M5's excluded
/// matches) is written `W`, `D` or `L`, so FIDE does not rate it either.
pub fn rating_report(
    competition: &Competition,
    rules: &Ruleset,
    tiebreaks: &[CriterionSpec],
    rated: &RatedCompetition,
) -> RatingReport {
    let mut event = competition.clone();
    // Entrant i is the i-th rostered player, team by team (`CompetitionGames::players`).
    let players = event.teams.iter_mut().flat_map(|t| t.players.iter_mut());
    for (i, player) in players.enumerate() {
        let before = rated.replay.start(i).filter(|s| s.rated);
        player.rating = before.and_then(|s| u32::try_from(s.published()).ok());
    }
    let unrated: HashSet<&BoardPlace> = rated.games.not_rated.iter().map(|(p, _)| p).collect();
    let mut warnings = Vec::new();
    for round in &mut event.rounds {
        for pairing in &mut round.pairings {
            let Pairing::Match(m) = pairing else { continue };
            let MatchOutcome::Boards(boards) = &mut m.outcome else {
                continue;
            };
            for (b, board) in boards.iter_mut().enumerate() {
                let place = BoardPlace {
                    round: round.number,
                    home: m.home.clone(),
                    away: m.away.clone(),
                    board: u32::try_from(b + 1).unwrap_or(u32::MAX),
                };
                let played = board.rating_result.unwrap_or(board.result).is_played();
                if played && unrated.contains(&place) {
                    // The model's spelling of a game that counts for the team, not for ratings.
                    board.rating_result = Some(GameResult::DoubleForfeit);
                } else if played && board.result.is_forfeit() {
                    warnings.push(format!(
                        "{place}: GT-P1: the team lost the point, the game is rated on its rating result; TRF can write only the forfeit, which FIDE does not rate: tell the rating officer"
                    ));
                }
            }
        }
    }
    let mut document = from_competition(&event, rules, tiebreaks);

    let records = || document.lines.iter().map(|l| &l.record);
    let players = records().filter(|r| matches!(r, Record::Player(_)));
    let rated_players = players.clone().filter(|r| match r {
        Record::Player(p) => p.rating.value.is_some(),
        _ => false,
    });
    let teams = records().filter(|r| matches!(r, Record::Team310(_)));
    let counts = [
        (62, players.count()),
        (72, rated_players.count()),
        (82, teams.count()),
    ];
    // After the name and the dates (012, 042, 052), in TRF-16's order of the tournament records.
    let at = records()
        .take_while(|r| matches!(r, Record::Tournament(t) if t.tag < 62))
        .count();
    let lines: Vec<TrfLine> = counts
        .iter()
        .map(|(tag, n)| TrfLine {
            record: Record::Tournament(TournamentRecord::text(*tag, &n.to_string())),
            ending: LineEnding::CrLf,
        })
        .collect();
    document.lines.splice(at..at, lines);

    let undated: Vec<String> = competition
        .rounds
        .iter()
        .filter(|r| r.date.is_none())
        .map(|r| r.number.to_string())
        .collect();
    match undated.as_slice() {
        [] => {}
        [one] => warnings.push(format!(
            "round {one} has no date: TRF-2026 needs the dates (042, 052, 132) to rate an event"
        )),
        many => warnings.push(format!(
            "rounds {} have no date: TRF-2026 needs the dates (042, 052, 132) to rate an event",
            many.join(", ")
        )),
    }
    RatingReport { document, warnings }
}
