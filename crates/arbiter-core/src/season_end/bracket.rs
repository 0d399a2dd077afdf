//! The playoff tournament (GT-F3): a knockout seeded from the qualification, or a round robin of
//! the qualifiers, and its calendar with the bye date for all schools (GT-F5).
//!
//! A knockout of n teams (2 to 16) is drawn in the smallest power of two that holds them, in the
//! standard order (1 v N, 2 v N−1, the top two seeds in opposite halves), so the byes fall to the
//! top seeds. Its matches are played as a competition whose round k is the bracket's round k,
//! under the same rules as the season (GT-F4); [`knockout`] reads that competition and says who
//! goes through. A drawn match is decided by the ruleset's `[playoffs] tiebreak`, step by step:
//! by default the Berliner board count, then an Armageddon game entered as such
//! ([`DecidingGame`]).
//!
//! A deciding game is corrected by a later entry of the same match's game ([`correct`],
//! [`in_force`]), leaving the rounds paired since as they are; a round robin's winner and
//! runner-up come from its final standings, never from a shared place ([`round_robin_finish`]).

use jiff::civil::{Date, Weekday};
use serde::Serialize;

use crate::pairing::schedule::{self, Cycles, ScheduleError};
use crate::record::calendar::{SchoolCalendar, weekday_list};
use crate::record::model::{
    Competition, GameOutcome, GameResult, Match, MatchOutcome, Pairing, Round, Side, TeamId,
};
use crate::record::words::{list, number};
use crate::rules::ruleset::{MAX_PLAYOFF_TEAMS, PlayoffTiebreak, Ruleset};
use crate::scoring;
use crate::scoring::standings::Standings;
use crate::season_end::qualify::Seed;

/// A knockout as it stands: every round's matches, played or to play, and its finish.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bracket {
    /// The teams in the field.
    pub teams: u32,
    /// The places in the first round: the smallest power of two that holds the field.
    pub size: u32,
    /// Every round, first first; the last is the final.
    pub rounds: Vec<BracketRound>,
    /// The final's winner and runner-up, once it is decided (GT-F3).
    pub finish: Finish,
}

/// One round of the knockout.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BracketRound {
    /// 1 for the first round; the playoff competition's round of the same number.
    pub number: u32,
    /// `Final`, `Semi-finals`, `Quarter-finals`, `Round of 16`.
    pub name: String,
    /// Its matches, top of the bracket first.
    pub matches: Vec<BracketMatch>,
}

/// One place of the bracket: two entrants, or one and a bye.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BracketMatch {
    /// The round.
    pub round: u32,
    /// 1-based, top of the bracket first; its winner goes to slot (slot + 1) / 2 next round.
    pub slot: u32,
    /// The higher seed, at home (GT-M1: its advisor referees); `None` until known.
    pub home: Option<Entrant>,
    /// The lower seed; `None` until known, or a bye.
    pub away: Option<Entrant>,
    /// Where the match stands.
    pub state: MatchState,
}

impl BracketMatch {
    /// The team that goes through, once decided (the bye's team too).
    pub fn winner(&self) -> Option<&Entrant> {
        match &self.state {
            MatchState::Bye => self.home.as_ref(),
            MatchState::Won { winner, .. } => match winner {
                Side::Home => self.home.as_ref(),
                Side::Away => self.away.as_ref(),
            },
            _ => None,
        }
    }

    /// The team knocked out, once decided.
    pub fn loser(&self) -> Option<&Entrant> {
        match &self.state {
            MatchState::Won { winner, .. } => match winner {
                Side::Home => self.away.as_ref(),
                Side::Away => self.home.as_ref(),
            },
            _ => None,
        }
    }
}

/// A team in the bracket.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entrant {
    /// Its seed.
    pub seed: u32,
    /// The team.
    pub team: TeamId,
    /// Its name.
    pub name: String,
}

/// Where a match of the bracket stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum MatchState {
    /// The home team has no opponent and goes through.
    Bye,
    /// An entrant is not known yet: the match before it is undecided.
    Waiting,
    /// Both entrants are known; no result yet.
    ToPlay,
    /// Decided.
    Won {
        /// The side that goes through.
        winner: Side,
        /// How it was decided, in words: "3–1", "drawn 2–2, then the Berliner board count 11–9".
        how: String,
        /// The tiebreak step that decided a drawn match, if one did.
        tiebreak: Option<PlayoffTiebreak>,
    },
    /// Drawn, and the next step needs a game entered (an Armageddon or a playoff game).
    Drawn {
        /// The step awaited.
        awaiting: PlayoffTiebreak,
        /// What to do, in words.
        sentence: String,
    },
    /// Nobody goes through until the President decides: both teams forfeited.
    Undecided {
        /// Why, and what to do.
        sentence: String,
    },
}

/// The winner and runner-up of the playoffs (GT-F3), once known.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Finish {
    /// The playoff winner.
    pub winner: Option<Entrant>,
    /// The runner-up.
    pub runner_up: Option<Entrant>,
}

/// A game entered to decide a drawn knockout match: an Armageddon game or a playoff game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecidingGame {
    /// The bracket round of the drawn match.
    pub round: u32,
    /// One team of the drawn match.
    pub team: TeamId,
    /// Which step it is: [`PlayoffTiebreak::Armageddon`] or [`PlayoffTiebreak::PlayoffGame`].
    pub kind: PlayoffTiebreak,
    /// The side of the drawn match whose player had Black.
    pub black: Side,
    /// The result, from the drawn match's home side.
    pub result: GameResult,
}

/// Why a bracket cannot be drawn or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BracketError {
    /// Fewer than 2 or more than 16 teams.
    #[error(
        "GT-F3: a knockout takes 2 to {MAX_PLAYOFF_TEAMS} teams, but the field has {teams}; invite {what}."
    , what = if *teams < 2 { "more teams" } else { "fewer teams a division, or play a round robin" })]
    FieldSize {
        /// The field's size.
        teams: usize,
    },
    /// Seeds are not 1..n, each once.
    #[error("GT-F3: the seeds must be 1 to {teams}, each once; {problem}.")]
    Seeds {
        /// The field's size.
        teams: usize,
        /// What is wrong.
        problem: String,
    },
    /// The ruleset has no `[playoffs]`.
    #[error("GT-F3: the ruleset {0} has no playoffs; add a [playoffs] section.")]
    NoPlayoffs(String),
    /// A match in the competition that the bracket does not pair.
    #[error(
        "GT-F3: round {round} of the playoffs has {home} v {away}, which the bracket does not pair; remove it or draw the bracket again."
    )]
    NotInTheBracket {
        /// The round.
        round: u32,
        /// The home team.
        home: TeamId,
        /// The away team.
        away: TeamId,
    },
    /// A deciding game of a step the ruleset does not name, or for a match not drawn.
    #[error("{0}")]
    DecidingGame(String),
}

/// The standard order of seeds in a bracket of `size` (a power of two): 1, 8, 4, 5, 2, 7, 3, 6.
pub fn seeding_order(size: u32) -> Vec<u32> {
    let mut order = vec![1u32];
    let mut n = 1;
    while n < size {
        n *= 2;
        order = order.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    order
}

/// The name of round `number` of a knockout of `teams` (GT-F3), as its bracket names it:
/// "Semi-finals" for the first round of four teams; "Round `number`" past the final.
pub fn knockout_round_name(teams: u32, number: u32) -> String {
    let size = teams.max(2).next_power_of_two();
    // The entrants of the round: the bracket halves each round.
    match number.checked_sub(1).and_then(|k| size.checked_shr(k)) {
        Some(2) => "Final".into(),
        Some(4) => "Semi-finals".into(),
        Some(8) => "Quarter-finals".into(),
        Some(entrants) if entrants > 8 => format!("Round of {entrants}"),
        _ => format!("Round {number}"),
    }
}

/// The knockout drawn from `field` and read from `played`, the playoff competition (its round k
/// the bracket's round k), with the games entered to decide drawn matches.
pub fn knockout(
    field: &[Seed],
    played: &Competition,
    deciding: &[DecidingGame],
    rules: &Ruleset,
) -> Result<Bracket, BracketError> {
    let n = field.len();
    if !(2..=MAX_PLAYOFF_TEAMS as usize).contains(&n) {
        return Err(BracketError::FieldSize { teams: n });
    }
    let Some(playoffs) = &rules.playoffs else {
        return Err(BracketError::NoPlayoffs(rules.name.clone()));
    };
    let mut by_seed: Vec<Option<&Seed>> = vec![None; n];
    for s in field {
        let i = usize::try_from(s.seed).unwrap_or(0);
        let problem = if i == 0 || i > n {
            Some(format!("{} has seed {}", s.name, s.seed))
        } else if by_seed[i - 1].is_some() {
            Some(format!("seed {} is given twice", s.seed))
        } else if field.iter().filter(|o| o.team == s.team).count() > 1 {
            Some(format!("{} is in the field twice", s.name))
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(BracketError::Seeds { teams: n, problem });
        }
        by_seed[i - 1] = Some(s);
    }
    let entrant = |seed: u32| {
        let i = usize::try_from(seed).ok()?.checked_sub(1)?;
        by_seed.get(i).copied().flatten().map(|s| Entrant {
            seed: s.seed,
            team: s.team.clone(),
            name: s.name.clone(),
        })
    };
    let teams = u32::try_from(n).unwrap_or(MAX_PLAYOFF_TEAMS);
    let size = teams.next_power_of_two();
    let order = seeding_order(size);

    // Every competition match must be one the bracket pairs; checked as rounds are filled.
    let mut rounds: Vec<BracketRound> = Vec::new();
    let mut entrants: Vec<Option<Entrant>> = order.iter().map(|&s| entrant(s)).collect();
    let mut number = 1;
    let mut pending_byes = true;
    while entrants.len() >= 2 {
        let mut matches = Vec::new();
        let mut next = Vec::new();
        for (i, pair) in entrants.chunks(2).enumerate() {
            let slot = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let (a, b) = (pair[0].clone(), pair.get(1).cloned().flatten());
            // The higher seed is at home (GT-M1).
            let (home, away) = match (a, b) {
                (Some(a), Some(b)) if b.seed < a.seed => (Some(b), Some(a)),
                (Some(a), b) => (Some(a), b),
                (None, b) => (b, None),
            };
            let state = match (&home, &away) {
                (Some(_), None) if pending_byes => MatchState::Bye,
                (Some(h), Some(a)) => {
                    let m = find_match(played, number, &h.team, &a.team);
                    decide(m, number, h, a, deciding, &playoffs.tiebreak, rules)?
                }
                _ => MatchState::Waiting,
            };
            let m = BracketMatch {
                round: number,
                slot,
                home,
                away,
                state,
            };
            next.push(m.winner().cloned());
            matches.push(m);
        }
        // Byes are only the first round's: later, a missing entrant is one still undecided.
        pending_byes = false;
        check_round(played, number, &matches)?;
        rounds.push(BracketRound {
            number,
            name: knockout_round_name(teams, number),
            matches,
        });
        entrants = next;
        number += 1;
    }
    let finish = rounds
        .last()
        .and_then(|r| r.matches.first())
        .map(|f| Finish {
            winner: f.winner().cloned(),
            runner_up: f.loser().cloned(),
        })
        .unwrap_or_default();
    check_deciding(deciding, &rounds)?;
    Ok(Bracket {
        teams,
        size,
        rounds,
        finish,
    })
}

impl Bracket {
    /// The matches of `round` whose teams are known and have no result, as the playoff
    /// competition's pairings (higher seed at home), for the President to schedule.
    pub fn pairings(&self, round: u32) -> Vec<Pairing> {
        self.rounds
            .iter()
            .filter(|r| r.number == round)
            .flat_map(|r| &r.matches)
            .filter(|m| m.state == MatchState::ToPlay)
            .filter_map(|m| {
                Some(Pairing::Match(Match {
                    home: m.home.as_ref()?.team.clone(),
                    away: m.away.as_ref()?.team.clone(),
                    outcome: MatchOutcome::Pending,
                    date: None,
                    start: None,
                    extra_games: Vec::new(),
                    late: None,
                }))
            })
            .collect()
    }

    /// GT-F3: the round to pair next when `paired` rounds are in the playoff competition: the
    /// next, once every match of round `paired` has gone through (a drawn match decided by its
    /// tiebreak or its deciding game), and only when the bracket has one to pair. The
    /// President's page offers it and the officers' task list asks for it.
    pub fn ready_to_pair(&self, paired: u32) -> Option<u32> {
        let before = self.rounds.iter().find(|r| r.number == paired)?;
        let next = paired + 1;
        (before.matches.iter().all(|m| m.winner().is_some()) && !self.pairings(next).is_empty())
            .then_some(next)
    }

    /// Every team the bracket places, each once, with the round it went out in (`None`: still
    /// in, or the winner).
    pub fn placed(&self) -> Vec<(TeamId, Option<u32>)> {
        let mut out: Vec<(TeamId, Option<u32>)> = Vec::new();
        for m in self.rounds.first().map_or(&[][..], |r| &r.matches[..]) {
            for e in [&m.home, &m.away].into_iter().flatten() {
                out.push((e.team.clone(), None));
            }
        }
        for r in &self.rounds {
            for m in &r.matches {
                if let Some(l) = m.loser()
                    && let Some(o) = out.iter_mut().find(|(t, _)| *t == l.team)
                {
                    o.1 = Some(r.number);
                }
            }
        }
        out
    }
}

fn find_match<'a>(c: &'a Competition, round: u32, a: &TeamId, b: &TeamId) -> Option<&'a Match> {
    c.rounds
        .iter()
        .filter(|r| r.number == round)
        .flat_map(Round::matches)
        .find(|m| (&m.home == a && &m.away == b) || (&m.home == b && &m.away == a))
}

fn check_round(c: &Competition, round: u32, matches: &[BracketMatch]) -> Result<(), BracketError> {
    for m in c
        .rounds
        .iter()
        .filter(|r| r.number == round)
        .flat_map(Round::matches)
    {
        let paired = matches.iter().any(|b| {
            let teams = [b.home.as_ref(), b.away.as_ref()];
            let has = |t: &TeamId| teams.iter().flatten().any(|e| &e.team == t);
            has(&m.home) && has(&m.away)
        });
        if !paired {
            return Err(BracketError::NotInTheBracket {
                round,
                home: m.home.clone(),
                away: m.away.clone(),
            });
        }
    }
    Ok(())
}

/// A deciding game must belong to a drawn match of its round.
fn check_deciding(deciding: &[DecidingGame], rounds: &[BracketRound]) -> Result<(), BracketError> {
    for g in deciding {
        let found = rounds
            .iter()
            .filter(|r| r.number == g.round)
            .flat_map(|r| &r.matches)
            .find(|m| {
                [&m.home, &m.away]
                    .into_iter()
                    .flatten()
                    .any(|e| e.team == g.team)
            });
        let drawn = found.is_some_and(|m| match &m.state {
            MatchState::Drawn { .. } => true,
            MatchState::Won { tiebreak, .. } => tiebreak.is_some(),
            _ => false,
        });
        if !drawn {
            return Err(BracketError::DecidingGame(format!(
                "GT-F3: {} is entered for {} in round {}, but that match is not drawn; a deciding game is entered only for a drawn match.",
                g.kind.words(),
                g.team,
                g.round
            )));
        }
    }
    Ok(())
}

/// What a match's result decides: who goes through, or the step awaited.
fn decide(
    m: Option<&Match>,
    round: u32,
    home: &Entrant,
    away: &Entrant,
    deciding: &[DecidingGame],
    steps: &[PlayoffTiebreak],
    rules: &Ruleset,
) -> Result<MatchState, BracketError> {
    let Some(m) = m else {
        return Ok(MatchState::ToPlay);
    };
    // The match may be recorded with the sides the other way round (moved by arrangement).
    let flipped = m.home != home.team;
    let ours = |s: Side| if flipped { s.other() } else { s };
    let won = |side: Side, how: String, tiebreak| MatchState::Won {
        winner: ours(side),
        how,
        tiebreak,
    };
    let boards = match &m.outcome {
        MatchOutcome::Pending => return Ok(MatchState::ToPlay),
        MatchOutcome::Forfeit { by } => {
            return Ok(won(by.other(), "won by forfeit (GT-M7)".into(), None));
        }
        MatchOutcome::DoubleForfeit => {
            return Ok(MatchState::Undecided {
                sentence: format!(
                    "{} and {} both forfeited round {round}; nobody goes through until the President decides (GT-O3).",
                    home.name, away.name
                ),
            });
        }
        MatchOutcome::Boards(b) => b,
    };
    if boards.is_empty() || boards.iter().any(|b| b.result == GameResult::Pending) {
        return Ok(MatchState::ToPlay);
    }
    // Points per board, from the recorded home side.
    let points: Vec<(f64, f64)> = boards
        .iter()
        .map(|b| {
            (
                scoring::game_points(rules, b.result.outcome_for(Side::Home)),
                scoring::game_points(rules, b.result.outcome_for(Side::Away)),
            )
        })
        .collect();
    let h: f64 = points.iter().map(|p| p.0).sum();
    let a: f64 = points.iter().map(|p| p.1).sum();
    let score = format!("{}\u{2013}{}", number(h), number(a));
    if h != a {
        let side = if h > a { Side::Home } else { Side::Away };
        return Ok(won(side, score, None));
    }
    let drawn = format!("drawn {score}");
    let (home_name, away_name) = if flipped {
        (&away.name, &home.name)
    } else {
        (&home.name, &away.name)
    };
    for &step in steps {
        match step {
            PlayoffTiebreak::Berliner => {
                let side_points =
                    |pick: fn(&(f64, f64)) -> f64| points.iter().map(pick).collect::<Vec<f64>>();
                let bh = scoring::berliner(&side_points(|p| p.0));
                let ba = scoring::berliner(&side_points(|p| p.1));
                if bh != ba {
                    let side = if bh > ba { Side::Home } else { Side::Away };
                    let how = format!(
                        "{drawn}, then {} {}\u{2013}{}",
                        step.words(),
                        number(bh),
                        number(ba)
                    );
                    return Ok(won(side, how, Some(step)));
                }
            }
            PlayoffTiebreak::TopBoard => {
                if let Some((i, p)) = points.iter().enumerate().find(|(_, p)| p.0 != p.1) {
                    let side = if p.0 > p.1 { Side::Home } else { Side::Away };
                    let how = format!("{drawn}, then {} (board {})", step.words(), i + 1);
                    return Ok(won(side, how, Some(step)));
                }
            }
            PlayoffTiebreak::HigherSeed => {
                let how = format!("{drawn}, then {}", step.words());
                return Ok(MatchState::Won {
                    winner: Side::Home,
                    how,
                    tiebreak: Some(step),
                });
            }
            PlayoffTiebreak::Armageddon | PlayoffTiebreak::PlayoffGame => {
                let games = deciding.iter().filter(|g| {
                    g.round == round && g.kind == step && (g.team == m.home || g.team == m.away)
                });
                for g in games {
                    // Each game's result is from the home side of the match it decides.
                    let outcome = g.result.outcome_for(Side::Home);
                    let side = match outcome {
                        GameOutcome::Win | GameOutcome::ForfeitWin => Some(Side::Home),
                        GameOutcome::Loss | GameOutcome::ForfeitLoss => Some(Side::Away),
                        // An Armageddon game drawn goes to Black.
                        GameOutcome::Draw if step == PlayoffTiebreak::Armageddon => Some(g.black),
                        _ => None,
                    };
                    if let Some(side) = side {
                        let draw_note = if outcome == GameOutcome::Draw {
                            " (drawn, so Black goes through)"
                        } else {
                            ""
                        };
                        let how = format!("{drawn}, then {}{draw_note}", step.words());
                        return Ok(won(side, how, Some(step)));
                    }
                }
                let again = if step == PlayoffTiebreak::PlayoffGame
                    && deciding.iter().any(|g| {
                        g.round == round && g.kind == step && (g.team == m.home || g.team == m.away)
                    }) {
                    "another playoff game (those entered were drawn)"
                } else {
                    step.words()
                };
                return Ok(MatchState::Drawn {
                    awaiting: step,
                    sentence: format!(
                        "{home_name} v {away_name} was {drawn}{}; enter {again} to decide it.",
                        steps_tried(steps, step)
                    ),
                });
            }
        }
    }
    // The ruleset's check makes the last step always decide; a list without one leaves it here.
    Ok(MatchState::Drawn {
        awaiting: steps.last().copied().unwrap_or(PlayoffTiebreak::Armageddon),
        sentence: format!("{home_name} v {away_name} was {drawn}; the President decides it."),
    })
}

/// ", and level on the Berliner board count" for the steps before `step` that did not decide.
fn steps_tried(steps: &[PlayoffTiebreak], step: PlayoffTiebreak) -> String {
    let before: Vec<&str> = steps
        .iter()
        .take_while(|s| **s != step)
        .map(|s| s.words())
        .collect();
    if before.is_empty() {
        String::new()
    } else {
        format!(", and level on {}", list(before.iter()))
    }
}

/// A deciding game as it was entered: its number, the entered game it corrects (a correction is
/// a new version; the game it corrects stays, superseded), and the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnteredGame {
    /// The entry's number, which a correction names.
    pub id: i64,
    /// The entry this one corrects.
    pub corrects: Option<i64>,
    /// The game.
    pub game: DecidingGame,
}

/// The deciding games in force: every game entered but those a later entry corrects.
pub fn in_force(entered: &[EnteredGame]) -> Vec<DecidingGame> {
    entered
        .iter()
        .filter(|e| !entered.iter().any(|c| c.corrects == Some(e.id)))
        .map(|e| e.game.clone())
        .collect()
}

/// GT-F3: the bracket with the entered game `of` corrected to `game`: the same match's game,
/// still in force (a game already corrected is corrected through its latest version), and one
/// that leaves the rounds paired since as the bracket pairs them.
pub fn correct(
    field: &[Seed],
    played: &Competition,
    entered: &[EnteredGame],
    of: i64,
    game: &DecidingGame,
    rules: &Ruleset,
) -> Result<Bracket, BracketError> {
    let Some(old) = entered.iter().find(|e| e.id == of) else {
        return Err(BracketError::DecidingGame(format!(
            "GT-F3: there is no deciding game {of} to correct; choose it from the playoffs page."
        )));
    };
    if entered.iter().any(|c| c.corrects == Some(of)) {
        return Err(BracketError::DecidingGame(
            "GT-F3: that deciding game was corrected already; correct the version in force, as the playoffs page shows it now.".into(),
        ));
    }
    if old.game.round != game.round || old.game.team != game.team || old.game.kind != game.kind {
        return Err(BracketError::DecidingGame(format!(
            "GT-F3: a correction is of the same game: {} of round {} for {}; enter another match's game as a new one.",
            old.game.kind.words(),
            old.game.round,
            old.game.team
        )));
    }
    let mut corrected: Vec<EnteredGame> = entered.to_vec();
    corrected.push(EnteredGame {
        id: entered.iter().map(|e| e.id).max().unwrap_or(0) + 1,
        corrects: Some(of),
        game: game.clone(),
    });
    knockout(field, played, &in_force(&corrected), rules).map_err(|e| match e {
        BracketError::NotInTheBracket { round, home, away } if round > game.round => {
            BracketError::DecidingGame(format!(
                "GT-F3: corrected so, the game changes who went through round {}, but round {round} is paired already with {home} v {away}; a paired round is not undone here, so the President decides what stands (GT-O3) and keeps the game as entered.",
                game.round
            ))
        }
        e => e,
    })
}

/// GT-F3: a round robin playoff's winner and runner-up, from its final standings: once every
/// match is played, the first and the second, each only when its place is not shared (a shared
/// place is the officers' to decide, never broken here).
pub fn round_robin_finish(field: &[Seed], played: &Competition, standings: &Standings) -> Finish {
    let finished = played
        .rounds
        .iter()
        .flat_map(Round::matches)
        .all(|m| m.outcome != MatchOutcome::Pending);
    if !finished || played.rounds.is_empty() {
        return Finish::default();
    }
    let at = |place: &str| {
        let row = standings.rows.iter().find(|r| r.place == place)?;
        let team = &played.teams.get(row.team)?.id;
        field.iter().find(|s| &s.team == team).map(|s| Entrant {
            seed: s.seed,
            team: s.team.clone(),
            name: s.name.clone(),
        })
    };
    let winner = at("1");
    Finish {
        runner_up: winner.as_ref().and_then(|_| at("2")),
        winner,
    }
}

/// The round robin of the qualifiers, the alternative to a knockout: the Berger tables (AS-19)
/// with team k the seed k, once round.
pub fn round_robin(field: &[Seed]) -> Result<Vec<Round>, ScheduleError> {
    let mut seeds: Vec<&Seed> = field.iter().collect();
    seeds.sort_by_key(|s| s.seed);
    let ids: Vec<TeamId> = seeds.iter().map(|s| s.team.clone()).collect();
    let teams = u32::try_from(ids.len()).unwrap_or(u32::MAX);
    let schedule = schedule::round_robin(teams, Cycles::Single)?;
    schedule::apply_to(&schedule, &ids)
}

/// The playoff calendar (GT-F5): each round's day, and a bye date for all schools before the last.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayoffCalendar {
    /// The day of each round, first first.
    pub rounds: Vec<Date>,
    /// GT-F5: a match day before the last playoff date on which no school plays, kept for a
    /// match the weather postponed.
    pub bye_date: Date,
}

/// Why the playoffs cannot be placed on the calendar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "GT-F5: {rounds} playoff round{s} and the bye date for all schools need {needed} match days ({weekdays}) from {from}, but the season has {found} before it ends on {ends_on}; start the playoffs earlier or lengthen the season."
, s = if *rounds == 1 { "" } else { "s" }, weekdays = weekday_list(weekdays))]
pub struct PlayoffCalendarError {
    /// The rounds to place.
    pub rounds: usize,
    /// Match days needed: the rounds and the bye date.
    pub needed: usize,
    /// Match days found.
    pub found: usize,
    /// The first day asked for.
    pub from: Date,
    /// The season's last day.
    pub ends_on: Date,
    /// The weekdays matches are set on.
    pub weekdays: Vec<Weekday>,
}

/// GT-F5: the playoff rounds on the match days from `from`, one a match day, with the bye date
/// for all schools on the match day before the last round.
pub fn playoff_calendar(
    rounds: usize,
    from: Date,
    calendar: &SchoolCalendar,
    match_days: &[Weekday],
) -> Result<PlayoffCalendar, PlayoffCalendarError> {
    let days: Vec<Date> = calendar
        .match_days(match_days)
        .into_iter()
        .filter(|d| *d >= from)
        .collect();
    let needed = rounds + 1;
    if rounds == 0 || days.len() < needed {
        return Err(PlayoffCalendarError {
            rounds,
            needed,
            found: days.len(),
            from,
            ends_on: calendar.ends_on,
            weekdays: match_days.to_vec(),
        });
    }
    let mut placed: Vec<Date> = days[..rounds - 1].to_vec();
    placed.push(days[rounds]);
    Ok(PlayoffCalendar {
        rounds: placed,
        bye_date: days[rounds - 1],
    })
}

/// The number of rounds of a knockout of `teams`: 1 for 2 teams, 4 for 9 to 16.
pub fn knockout_rounds(teams: u32) -> usize {
    usize::try_from(teams.max(2).next_power_of_two().trailing_zeros()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_knockout_s_rounds_are_named_from_the_final_back() {
        // GT-F3: five teams make a bracket of eight, three rounds.
        let names: Vec<String> = (0..=4).map(|n| knockout_round_name(5, n)).collect();
        assert_eq!(
            names,
            [
                "Round 0",
                "Quarter-finals",
                "Semi-finals",
                "Final",
                "Round 4"
            ]
        );
        assert_eq!(knockout_round_name(2, 1), "Final");
        assert_eq!(knockout_round_name(3, 1), "Semi-finals");
        assert_eq!(knockout_round_name(16, 1), "Round of 16");
        assert_eq!(knockout_round_name(32, 1), "Round of 32");
    }
    use crate::testing::{competition, pending, played};
    use jiff::civil::date;

    fn field(n: u32) -> Vec<Seed> {
        (1..=n)
            .map(|k| Seed {
                seed: k,
                team: TeamId(format!("s{k}")),
                name: format!("S{k}"),
                school: None,
                division: "North".into(),
                place: 1,
            })
            .collect()
    }

    fn gthscl() -> Ruleset {
        Ruleset::preset("gthscl").unwrap()
    }

    fn none() -> Competition {
        competition(&[], Vec::new())
    }

    #[test]
    fn gt_f3_a_round_robin_playoff_is_won_by_its_standings_first_once_every_match_is_played() {
        let rules = gthscl();
        let finish = |c: &Competition| {
            let sheet = scoring::score(c, &rules);
            let table =
                crate::scoring::standings::rank(c, &rules, &sheet, &rules.criteria).unwrap();
            round_robin_finish(&field(3), c, &table)
        };
        let name = |e: &Option<Entrant>| e.as_ref().map(|e| e.team.0.clone());
        // S2 beats S1 and S3; S1 beats S3.
        let done = competition(
            &["s1", "s2", "s3"],
            vec![
                vec![played("s2", "s1", "111=")],
                vec![played("s1", "s3", "11=0")],
                vec![played("s3", "s2", "0000")],
            ],
        );
        let f = finish(&done);
        assert_eq!(
            (name(&f.winner), name(&f.runner_up)),
            (Some("s2".into()), Some("s1".into()))
        );
        // A match still to play: no winner yet.
        let running = competition(
            &["s1", "s2", "s3"],
            vec![
                vec![played("s2", "s1", "111=")],
                vec![played("s1", "s3", "11=0")],
                vec![pending("s3", "s2")],
            ],
        );
        assert_eq!(finish(&running), Finish::default());
        // Level on everything: the first place is shared, so nobody is named (the officers').
        let level = competition(
            &["s1", "s2", "s3"],
            vec![
                vec![played("s1", "s2", "10==")],
                vec![played("s2", "s3", "10==")],
                vec![played("s3", "s1", "10==")],
            ],
        );
        assert_eq!(finish(&level).winner, None);
    }

    #[test]
    fn gt_f3_a_deciding_game_is_corrected_by_a_new_version_until_the_next_round_is_paired() {
        // S2 v S3 drawn 2-2 and level on the Berliner count (4+1 against 3+2).
        let round1 = vec![played("s1", "s4", "1110"), played("s2", "s3", "1001")];
        let one = competition(&["s1", "s2", "s3", "s4"], vec![round1.clone()]);
        let game = |result| DecidingGame {
            round: 1,
            team: TeamId("s2".into()),
            kind: PlayoffTiebreak::Armageddon,
            black: Side::Away,
            result,
        };
        let entered = vec![EnteredGame {
            id: 7,
            corrects: None,
            game: game(GameResult::HomeWin),
        }];
        let b = knockout(&field(4), &one, &in_force(&entered), &gthscl()).unwrap();
        assert_eq!(b.rounds[0].matches[1].winner().unwrap().team.0, "s2");
        // The score sheet said Black won: the correction puts S3 through, the entry stays.
        let b = correct(
            &field(4),
            &one,
            &entered,
            7,
            &game(GameResult::AwayWin),
            &gthscl(),
        )
        .unwrap();
        assert_eq!(b.rounds[0].matches[1].winner().unwrap().team.0, "s3");
        let both = vec![
            entered[0].clone(),
            EnteredGame {
                id: 8,
                corrects: Some(7),
                game: game(GameResult::AwayWin),
            },
        ];
        assert_eq!(in_force(&both), [game(GameResult::AwayWin)]);
        // A game corrected already is corrected through its latest version.
        let twice = correct(
            &field(4),
            &one,
            &both,
            7,
            &game(GameResult::Draw),
            &gthscl(),
        );
        assert!(
            matches!(&twice, Err(BracketError::DecidingGame(m)) if m.contains("corrected already")),
            "{twice:?}"
        );
        // Another match's game is not a correction.
        let other = DecidingGame {
            team: TeamId("s1".into()),
            ..game(GameResult::Draw)
        };
        let wrong = correct(&field(4), &one, &entered, 7, &other, &gthscl());
        assert!(
            matches!(&wrong, Err(BracketError::DecidingGame(m)) if m.contains("same game")),
            "{wrong:?}"
        );
        // Once the final is paired S1 v S2, a correction putting S3 through is refused.
        let two = competition(
            &["s1", "s2", "s3", "s4"],
            vec![round1, vec![pending("s1", "s2")]],
        );
        let late = correct(
            &field(4),
            &two,
            &entered,
            7,
            &game(GameResult::AwayWin),
            &gthscl(),
        );
        assert!(
            matches!(&late, Err(BracketError::DecidingGame(m)) if m.contains("round 2 is paired already")),
            "{late:?}"
        );
        // One that keeps S2 through (who had Black, mistyped) still stands.
        let same = DecidingGame {
            black: Side::Home,
            ..game(GameResult::HomeWin)
        };
        assert!(correct(&field(4), &two, &entered, 7, &same, &gthscl()).is_ok());
    }

    #[test]
    fn gt_f3_the_next_round_is_ready_to_pair_once_every_match_of_the_round_before_goes_through() {
        let drawn = competition(
            &["s1", "s2", "s3", "s4"],
            vec![vec![played("s1", "s4", "1110"), played("s2", "s3", "1001")]],
        );
        // S2 v S3 awaits its Armageddon game: the final waits too.
        let b = knockout(&field(4), &drawn, &[], &gthscl()).unwrap();
        assert_eq!(b.ready_to_pair(1), None);
        let armageddon = DecidingGame {
            round: 1,
            team: TeamId("s2".into()),
            kind: PlayoffTiebreak::Armageddon,
            black: Side::Away,
            result: GameResult::HomeWin,
        };
        let b = knockout(
            &field(4),
            &drawn,
            std::slice::from_ref(&armageddon),
            &gthscl(),
        )
        .unwrap();
        assert_eq!(b.ready_to_pair(1), Some(2));
        // Paired already: nothing more until the final is played, then nothing at all.
        let paired = competition(
            &["s1", "s2", "s3", "s4"],
            vec![
                vec![played("s1", "s4", "1110"), played("s2", "s3", "1001")],
                vec![pending("s1", "s2")],
            ],
        );
        let b = knockout(
            &field(4),
            &paired,
            std::slice::from_ref(&armageddon),
            &gthscl(),
        )
        .unwrap();
        assert_eq!(b.ready_to_pair(2), None);
        // Three teams: the top seed's bye goes through with the other semi-final's winner.
        let three = competition(&["s1", "s2", "s3"], vec![vec![played("s2", "s3", "1110")]]);
        let b = knockout(&field(3), &three, &[], &gthscl()).unwrap();
        assert_eq!(b.ready_to_pair(1), Some(2));
    }

    #[test]
    fn gt_f3_knockout_brackets_of_2_to_16_teams_place_every_team_once_with_byes_to_the_top_seeds() {
        for n in 2..=16u32 {
            let b = knockout(&field(n), &none(), &[], &gthscl()).unwrap();
            let size = n.next_power_of_two();
            assert_eq!((b.teams, b.size), (n, size));
            assert_eq!(b.rounds.len(), knockout_rounds(n), "{n} teams");
            assert_eq!(b.rounds.last().unwrap().name, "Final");
            let first = &b.rounds[0].name;
            assert_eq!(
                first,
                match size {
                    2 => "Final",
                    4 => "Semi-finals",
                    8 => "Quarter-finals",
                    _ => "Round of 16",
                },
                "{n} teams"
            );
            // Every team once in the first round.
            let placed = b.placed();
            assert_eq!(placed.len(), n as usize, "{n} teams");
            for k in 1..=n {
                let id = TeamId(format!("s{k}"));
                assert_eq!(
                    placed.iter().filter(|(t, _)| *t == id).count(),
                    1,
                    "{n}: s{k}"
                );
            }
            let first = &b.rounds[0];
            assert_eq!(first.matches.len() as u32, size / 2);
            // 1 v N: each first-round place pairs seeds adding up to size + 1; a missing one is a
            // bye, and the byes are the top seeds'.
            let byes: Vec<u32> = first
                .matches
                .iter()
                .filter(|m| m.state == MatchState::Bye)
                .map(|m| m.home.as_ref().unwrap().seed)
                .collect();
            let mut sorted = byes.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (1..=size - n).collect::<Vec<_>>(), "{n} teams");
            for m in &first.matches {
                let h = m.home.as_ref().unwrap().seed;
                match &m.away {
                    Some(a) => {
                        assert_eq!(h + a.seed, size + 1);
                        assert!(h < a.seed, "the higher seed at home");
                        assert_eq!(m.state, MatchState::ToPlay);
                    }
                    None => assert_eq!(m.state, MatchState::Bye),
                }
            }
            // The top two seeds meet only in the final.
            let half = first.matches.len() / 2;
            if half > 0 {
                let top: Vec<u32> = first.matches[..half]
                    .iter()
                    .flat_map(|m| [&m.home, &m.away])
                    .flatten()
                    .map(|e| e.seed)
                    .collect();
                assert!(top.contains(&1) && !top.contains(&2), "{n}: {top:?}");
            }
            // A bye's team already waits in round 2.
            if n > 2 && size > n {
                let second = &b.rounds[1];
                let known: Vec<u32> = second
                    .matches
                    .iter()
                    .flat_map(|m| [&m.home, &m.away])
                    .flatten()
                    .map(|e| e.seed)
                    .collect();
                for s in &byes {
                    assert!(known.contains(s), "{n}: seed {s} after its bye");
                }
            }
            assert_eq!(b.finish, Finish::default());
        }
        assert!(matches!(
            knockout(&field(17), &none(), &[], &gthscl()),
            Err(BracketError::FieldSize { teams: 17 })
        ));
        assert_eq!(
            knockout(&field(1), &none(), &[], &gthscl())
                .unwrap_err()
                .to_string(),
            "GT-F3: a knockout takes 2 to 16 teams, but the field has 1; invite more teams."
        );
        assert_eq!(seeding_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
    }

    #[test]
    fn gt_f3_winners_advance_to_the_final_and_its_winner_and_runner_up_are_known() {
        let ids = ["s1", "s2", "s3", "s4", "s5", "s6"];
        // Six teams: S1 and S2 have byes; S4 beats S5, S3 beats S6; then S1 v S4, S2 v S3.
        let c = competition(
            &ids,
            vec![
                vec![played("s4", "s5", "11=0"), played("s3", "s6", "1111")],
                vec![played("s1", "s4", "1100"), played("s3", "s2", "1=10")],
                vec![played("s3", "s1", "=0=0")],
            ],
        );
        // S1 v S4 is drawn 2-2: the Berliner count (4 + 3 for S1 to 2 + 1) puts S1 through.
        let b = knockout(&field(6), &c, &[], &gthscl()).unwrap();
        assert_eq!(b.rounds[1].name, "Semi-finals");
        let semi = &b.rounds[1].matches[0];
        assert_eq!(semi.winner().unwrap().team.0, "s1");
        assert_eq!(
            semi.state,
            MatchState::Won {
                winner: Side::Home,
                how: "drawn 2\u{2013}2, then the Berliner board count 7\u{2013}3".into(),
                tiebreak: Some(PlayoffTiebreak::Berliner)
            }
        );
        // S3 at home against S2 (moved by arrangement) still counts, sides read right.
        assert_eq!(b.rounds[1].matches[1].winner().unwrap().team.0, "s3");
        assert_eq!(b.finish.winner.as_ref().unwrap().team.0, "s1");
        assert_eq!(b.finish.runner_up.as_ref().unwrap().team.0, "s3");
        let out: Vec<(String, Option<u32>)> =
            b.placed().into_iter().map(|(t, r)| (t.0, r)).collect();
        assert!(out.contains(&("s1".into(), None)));
        assert!(out.contains(&("s3".into(), Some(3))));
        assert!(out.contains(&("s5".into(), Some(1))));
        // A match the bracket does not pair is refused.
        let wrong = competition(&ids, vec![vec![played("s1", "s6", "1111")]]);
        assert!(matches!(
            knockout(&field(6), &wrong, &[], &gthscl()),
            Err(BracketError::NotInTheBracket { round: 1, .. })
        ));
    }

    #[test]
    fn gt_f3_the_next_round_is_paired_as_its_teams_are_known() {
        let c = competition(
            &["s1", "s2", "s3", "s4"],
            vec![vec![played("s1", "s4", "1111")]],
        );
        let b = knockout(&field(4), &c, &[], &gthscl()).unwrap();
        assert_eq!(b.rounds[1].matches[0].state, MatchState::Waiting);
        let next = b.pairings(1);
        assert_eq!(next.len(), 1, "S2 v S3 still to play");
        let Pairing::Match(m) = &next[0] else {
            panic!()
        };
        assert_eq!((m.home.0.as_str(), m.away.0.as_str()), ("s2", "s3"));
        assert!(b.pairings(2).is_empty());
    }

    fn won_by(b: &Bracket) -> (&str, String) {
        let f = &b.rounds[0].matches[0];
        let MatchState::Won { how, .. } = &f.state else {
            panic!("{:?}", f.state)
        };
        (f.winner().unwrap().team.0.as_str(), how.clone())
    }

    #[test]
    fn gt_f3_a_drawn_knockout_match_is_decided_as_configured() {
        // 1-0, 0-1, 1-0, 0-1: 2-2; Berliner S1 4 + 2 = 6, S2 3 + 1 = 4.
        let c = competition(&["s1", "s2"], vec![vec![played("s1", "s2", "1010")]]);
        let b = knockout(&field(2), &c, &[], &gthscl()).unwrap();
        assert_eq!(
            won_by(&b),
            (
                "s1",
                "drawn 2\u{2013}2, then the Berliner board count 6\u{2013}4".into()
            )
        );
        // Mirrored boards, 0-1, 1-0, 0-1, 1-0: S2 has the better board count.
        let c = competition(&["s1", "s2"], vec![vec![played("s1", "s2", "0101")]]);
        let b = knockout(&field(2), &c, &[], &gthscl()).unwrap();
        assert_eq!(won_by(&b).0, "s2");
        assert_eq!(b.finish.runner_up.as_ref().unwrap().team.0, "s1");

        // 1-0, 0-1, 0-1, 1-0: level on the board count too (4 + 1 and 3 + 2): an Armageddon game.
        let level = competition(&["s1", "s2"], vec![vec![played("s1", "s2", "1001")]]);
        let b = knockout(&field(2), &level, &[], &gthscl()).unwrap();
        assert_eq!(
            b.rounds[0].matches[0].state,
            MatchState::Drawn {
                awaiting: PlayoffTiebreak::Armageddon,
                sentence: "S1 v S2 was drawn 2\u{2013}2, and level on the Berliner board count; enter an Armageddon game to decide it.".into()
            }
        );
        // The Armageddon game drawn: Black (S2's player here) goes through.
        let armageddon = |result| DecidingGame {
            round: 1,
            team: TeamId("s1".into()),
            kind: PlayoffTiebreak::Armageddon,
            black: Side::Away,
            result,
        };
        let b = knockout(
            &field(2),
            &level,
            &[armageddon(GameResult::Draw)],
            &gthscl(),
        )
        .unwrap();
        assert_eq!(
            won_by(&b),
            (
                "s2",
                "drawn 2\u{2013}2, then an Armageddon game (drawn, so Black goes through)".into()
            )
        );
        let b = knockout(
            &field(2),
            &level,
            &[armageddon(GameResult::HomeWin)],
            &gthscl(),
        )
        .unwrap();
        assert_eq!(won_by(&b).0, "s1");

        // Configured otherwise: the top board, then a playoff game, replayed while drawn.
        let rules = gthscl()
            .with(|r| {
                r.playoffs.as_mut().unwrap().tiebreak =
                    vec![PlayoffTiebreak::TopBoard, PlayoffTiebreak::PlayoffGame]
            })
            .unwrap();
        let b = knockout(&field(2), &level, &[], &rules).unwrap();
        assert_eq!(
            won_by(&b),
            (
                "s1",
                "drawn 2\u{2013}2, then the top board result (board 1)".into()
            )
        );
        let all_drawn = competition(&["s1", "s2"], vec![vec![played("s1", "s2", "====")]]);
        let game = |result| DecidingGame {
            round: 1,
            team: TeamId("s2".into()),
            kind: PlayoffTiebreak::PlayoffGame,
            black: Side::Home,
            result,
        };
        let b = knockout(&field(2), &all_drawn, &[game(GameResult::Draw)], &rules).unwrap();
        let MatchState::Drawn { sentence, .. } = &b.rounds[0].matches[0].state else {
            panic!()
        };
        assert_eq!(
            sentence,
            "S1 v S2 was drawn 2\u{2013}2, and level on the top board result; enter another playoff game (those entered were drawn) to decide it."
        );
        let b = knockout(
            &field(2),
            &all_drawn,
            &[game(GameResult::Draw), game(GameResult::AwayWin)],
            &rules,
        )
        .unwrap();
        assert_eq!(won_by(&b).0, "s2");
        // The higher seed, when the officers say so.
        let seeded = gthscl()
            .with(|r| r.playoffs.as_mut().unwrap().tiebreak = vec![PlayoffTiebreak::HigherSeed])
            .unwrap();
        let b = knockout(&field(2), &all_drawn, &[], &seeded).unwrap();
        assert_eq!(
            won_by(&b),
            ("s1", "drawn 2\u{2013}2, then the higher seed".into())
        );
        // A deciding game for a match that was not drawn is refused.
        let won = competition(&["s1", "s2"], vec![vec![played("s1", "s2", "1111")]]);
        assert!(matches!(
            knockout(&field(2), &won, &[armageddon(GameResult::Draw)], &gthscl()),
            Err(BracketError::DecidingGame(_))
        ));
    }

    #[test]
    fn gt_f3_a_round_robin_of_the_qualifiers_from_the_berger_tables() {
        let rounds = round_robin(&field(5)).unwrap();
        assert_eq!(rounds.len(), 5);
        let mut pairs = std::collections::HashSet::new();
        for r in &rounds {
            for m in r.matches() {
                let mut p = [m.home.0.clone(), m.away.0.clone()];
                p.sort();
                assert!(pairs.insert(p), "each pair once");
            }
        }
        assert_eq!(pairs.len(), 10);
    }

    #[test]
    fn gt_f5_the_playoff_calendar_keeps_a_bye_date_before_the_last_playoff_date() {
        use jiff::civil::Weekday::{Monday, Wednesday};
        let cal = SchoolCalendar::new(date(2027, 1, 4), date(2027, 3, 12), Vec::new()).unwrap();
        // From Mon 1 Feb: rounds on Mon 1, Wed 3; the bye date Mon 8; the final Wed 10 Feb.
        let p = playoff_calendar(3, date(2027, 2, 1), &cal, &[Monday, Wednesday]).unwrap();
        assert_eq!(
            p.rounds,
            [date(2027, 2, 1), date(2027, 2, 3), date(2027, 2, 10)]
        );
        assert_eq!(p.bye_date, date(2027, 2, 8));
        assert!(p.bye_date < *p.rounds.last().unwrap());
        let short = playoff_calendar(3, date(2027, 3, 8), &cal, &[Monday, Wednesday]).unwrap_err();
        assert_eq!(
            short.to_string(),
            "GT-F5: 3 playoff rounds and the bye date for all schools need 4 match days (Monday, Wednesday) from 2027-03-08, but the season has 2 before it ends on 2027-03-12; start the playoffs earlier or lengthen the season."
        );
    }
}
