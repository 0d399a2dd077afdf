//! Lineups: the player a team puts on each board of a match, and the rules a lineup keeps.
//!
//! The same checks serve twice. Before a match, a lineup that breaks a rule is refused
//! ([`refusals`]: what the lineup adds to the competition's findings). After it, the lineup
//! the boards record is checked and a broken rule is a [`Severity::Violation`]: the result is
//! kept and scored, and the President decides ([`check_competition`]). The rules are the
//! ruleset's `[lineup]`: board order by roster (AS-10) or by rating as of the match date
//! (GT-M11, GT-R4), provisional players last (GT-M13, GT-R3), sister teams ranked as one
//! (GT-M14), one school one team (AS-4); across a season or event, a player bound to the first
//! team they play for (GT-M15) and one competition at a time when dates overlap (AS-3). Under
//! every ruleset: one board a player (GT-M10), a short team's empty boards at the bottom
//! (GT-M9), the players of the team's roster, unranked players in no scored game (GT-R7) and a
//! withdrawal only when the opponent forfeits a board (GT-M12).
//!
//! Across a season's or event's competitions a player is the same person by name and birth date.

use std::collections::{HashMap, HashSet};

use jiff::civil::Date;

use crate::model::{
    Competition, Match, MatchOutcome, Pairing, Player, PlayerId, Round, Side, Team, TeamId,
};
use crate::rated_games;
use crate::ruleset::{BoardOrder, Ruleset};
use crate::validate::{self, Finding, Severity};

/// The players a team names for a match, board 1 first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lineup {
    /// Each board's player; `None` for a board the team leaves empty (GT-M9: its lowest).
    pub boards: Vec<Option<PlayerId>>,
    /// GT-M12: higher-ranked players the team withdrew so that a lower-ranked one could play,
    /// because the opponent forfeits a board.
    pub withdrawn: Vec<PlayerId>,
}

impl Lineup {
    /// The lineup the match's boards record for `side`, when they name any player of it.
    pub fn played(m: &Match, side: Side) -> Option<Lineup> {
        let MatchOutcome::Boards(boards) = &m.outcome else {
            return None;
        };
        let players: Vec<Option<PlayerId>> = boards
            .iter()
            .map(|b| match side {
                Side::Home => b.home_player.clone(),
                Side::Away => b.away_player.clone(),
            })
            .collect();
        players.iter().any(Option::is_some).then(|| Lineup {
            boards: players,
            withdrawn: Vec::new(),
        })
    }

    /// The players named, with their board numbers (1-based).
    fn named(&self) -> impl Iterator<Item = (u32, &PlayerId)> {
        (1..)
            .zip(&self.boards)
            .filter_map(|(n, p)| Some((n, p.as_ref()?)))
    }

    /// Whether the team leaves a board of a `boards`-board match empty.
    fn is_short(&self, boards: u32) -> bool {
        self.boards.len() < boards as usize || self.boards.iter().any(Option::is_none)
    }
}

/// A lineup named before its match, not yet in the record's boards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedLineup {
    /// The round of the match.
    pub round: u32,
    /// The match's home team (with the round, it names the match).
    pub home: TeamId,
    /// Which team of the match names it.
    pub side: Side,
    /// The players.
    pub lineup: Lineup,
}

/// Where a player ranks on a day: what board order reads (GT-M11, GT-M13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rank {
    /// The published rating.
    pub rating: i64,
    /// GT-R3: a provisional 1200N rating.
    pub provisional: bool,
}

impl Rank {
    /// `1420`, or `1200N` for a provisional rating.
    pub fn shown(self) -> String {
        crate::model::rating_text(self.rating, self.provisional)
    }
}

/// Every rostered player's rank on any day: the league's ratings as they stood that day
/// (GT-R4), from the games played before it. Each day is rated from its own past, not
/// re-read with what came later: a team dropped after the day (GT-M5) takes its games out of
/// later ratings, not out of the order a lineup had to keep on it. Built once per competition.
#[derive(Debug)]
pub struct Ranking<'a> {
    competition: &'a Competition,
    /// For each match day, ascending: each player's standing on it, by roster index.
    days: Vec<(Date, Vec<Option<Rank>>)>,
    /// Each player's standing after the last match day.
    after: Vec<Option<Rank>>,
    index: HashMap<&'a PlayerId, usize>,
}

impl<'a> Ranking<'a> {
    /// The ranking of `competition`'s players under `rules`: ratings are replayed only when
    /// the boards follow them.
    pub fn new(competition: &'a Competition, rules: &Ruleset) -> Ranking<'a> {
        let index = competition
            .teams
            .iter()
            .flat_map(|t| &t.players)
            .enumerate()
            .map(|(i, p)| (&p.id, i))
            .collect();
        let mut days: Vec<Date> = competition
            .rounds
            .iter()
            .flat_map(|r| r.pairings.iter().map(move |p| (r, p)))
            .filter_map(|(r, p)| match p {
                Pairing::Match(m) => r.date_of(m),
                Pairing::Bye(_) => r.date,
            })
            .collect();
        days.sort();
        days.dedup();
        let rated = rules.lineup.order == BoardOrder::Rating;
        let after = match days.last() {
            Some(last) if rated => ranks_on(competition, rules, last.tomorrow().unwrap_or(*last)),
            _ => Vec::new(),
        };
        let days = if rated {
            days.into_iter()
                .map(|day| (day, ranks_on(competition, rules, day)))
                .collect()
        } else {
            Vec::new()
        };
        Ranking {
            competition,
            days,
            after,
            index,
        }
    }

    /// The player's rank on `date`: after every match day before it. Without a date, or
    /// without a replay, the roster's rating.
    pub fn on(&self, player: &PlayerId, date: Option<Date>) -> Option<Rank> {
        let i = *self.index.get(player)?;
        let replayed = date.and_then(|d| {
            // The first match day on or after `d` has seen exactly the days before `d`.
            let k = self.days.partition_point(|(day, _)| *day < d);
            let ranks = self.days.get(k).map_or(&self.after, |(_, r)| r);
            ranks.get(i).copied().flatten()
        });
        if let Some(rank) = replayed {
            return Some(rank);
        }
        let p = self
            .competition
            .teams
            .iter()
            .flat_map(|t| &t.players)
            .nth(i)?;
        Some(Rank {
            rating: i64::from(p.rating.unwrap_or(0)),
            provisional: p.provisional,
        })
    }
}

/// Each player's rank on `day`: the competition as it stood then (the rounds dated before it)
/// rated under `rules`.
fn ranks_on(c: &Competition, rules: &Ruleset, day: Date) -> Vec<Option<Rank>> {
    let before = Competition {
        name: c.name.clone(),
        teams: c.teams.clone(),
        // The games played before the day: a match moved off its round's day counts by its own.
        rounds: c
            .rounds
            .iter()
            .map(|r| Round {
                pairings: r
                    .pairings
                    .iter()
                    .filter(|p| {
                        let date = match p {
                            Pairing::Match(m) => r.date_of(m),
                            Pairing::Bye(_) => r.date,
                        };
                        date.is_some_and(|d| d < day)
                    })
                    .cloned()
                    .collect(),
                ..r.clone()
            })
            .filter(|r| !r.pairings.is_empty())
            .collect(),
    };
    let Ok(rated) = rated_games::rate(&before, rules, &rules.rating) else {
        return Vec::new();
    };
    (0..rated.games.players.len())
        .map(|i| {
            rated.replay.current(i).map(|s| Rank {
                rating: s.published(),
                provisional: s.provisional,
            })
        })
        .collect()
}

/// Everything the competition's recorded lineups and rosters break of `[lineup]`, plus the
/// lineups named for matches not yet played: violations, in the record's order.
pub fn check_competition(c: &Competition, rules: &Ruleset, named: &[NamedLineup]) -> Vec<Finding> {
    let ranking = Ranking::new(c, rules);
    let mut out = check_schools(c, rules);
    for round in &c.rounds {
        let mut in_round: Vec<(&TeamId, Lineup, usize, &Match)> = Vec::new();
        for (pi, pairing) in round.pairings.iter().enumerate() {
            let Pairing::Match(m) = pairing else { continue };
            let lineup = |side: Side| {
                Lineup::played(m, side).or_else(|| {
                    named
                        .iter()
                        .find(|n| n.round == round.number && n.home == m.home && n.side == side)
                        .map(|n| n.lineup.clone())
                })
            };
            let (home, away) = (lineup(Side::Home), lineup(Side::Away));
            let recorded = matches!(m.outcome, MatchOutcome::Boards(_));
            for side in [Side::Home, Side::Away] {
                let (own, other) = match side {
                    Side::Home => (&home, &away),
                    Side::Away => (&away, &home),
                };
                let Some(own) = own else { continue };
                let place = Place {
                    c,
                    rules,
                    ranking: &ranking,
                    date: round.date_of(m),
                    team: m.team(side),
                    recorded,
                };
                for f in check_lineup(&place, own, other.as_ref()) {
                    let board = f.board;
                    out.push(f.in_match(round.number, pi, m, board).of_team(m.team(side)));
                }
                in_round.push((m.team(side), own.clone(), pi, m));
            }
        }
        out.extend(check_sister_teams(
            c,
            rules,
            &ranking,
            round.number,
            round.date,
            &in_round,
        ));
    }
    out
}

/// What `lineup` adds to the findings of `c` with the lineups already `named`: the reasons to
/// refuse it before the match, each naming its rule. Empty when the lineup may stand.
pub fn refusals(
    c: &Competition,
    rules: &Ruleset,
    named: &[NamedLineup],
    lineup: &NamedLineup,
) -> Vec<Finding> {
    let others: Vec<NamedLineup> = named
        .iter()
        .filter(|n| !(n.round == lineup.round && n.home == lineup.home && n.side == lineup.side))
        .cloned()
        .collect();
    let before: HashSet<String> = check_competition(c, rules, &others)
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut with = others;
    with.push(lineup.clone());
    let mut out: Vec<Finding> = check_competition(c, rules, &with)
        .into_iter()
        .filter(|f| !before.contains(&f.to_string()))
        .collect();
    if let Some(f) = check_shape(c, rules, lineup) {
        out.insert(0, f);
    }
    out
}

/// A lineup the match cannot take at all: a match not in the competition, one already played,
/// a lineup naming no player, or more boards than the match has.
fn check_shape(c: &Competition, rules: &Ruleset, lineup: &NamedLineup) -> Option<Finding> {
    let found = c
        .rounds
        .iter()
        .find(|r| r.number == lineup.round)
        .and_then(|r| {
            r.pairings.iter().enumerate().find_map(|(i, p)| match p {
                Pairing::Match(m) if m.home == lineup.home => Some((i, m)),
                _ => None,
            })
        });
    let Some((pi, m)) = found else {
        return Some(Finding::error(
            None,
            format!(
                "round {} has no match at home to {}; name the match by its round and home team",
                lineup.round, lineup.home
            ),
        ));
    };
    let at = |f: Finding| {
        f.in_match(lineup.round, pi, m, None)
            .of_team(m.team(lineup.side))
    };
    if !matches!(m.outcome, MatchOutcome::Pending) {
        return Some(at(Finding::error(
            None,
            "the match has a result; the lineup it played is the one its boards record, corrected with the result",
        )));
    }
    // AS-9 / GT-M8: a lineup is the players who play the match; one naming nobody is none (a
    // team that cannot play is a forfeit the result records, not a lineup).
    if lineup.lineup.boards.iter().all(Option::is_none) {
        return Some(at(Finding::error(
            rules.cite("boards"),
            format!(
                "the lineup names no player; name the players of the match, one a board, board 1 first (a match has {} boards), or leave the lineup unnamed if the team cannot play",
                rules.boards
            ),
        )));
    }
    let n = lineup.lineup.boards.len();
    (n > rules.boards as usize).then(|| {
        at(Finding::error(
            rules.cite("boards"),
            format!(
                "the lineup names {n} boards but a match has {}; name one player a board, board 1 first",
                rules.boards
            ),
        ))
    })
}

/// One lineup's match, as the checks read it.
struct Place<'a> {
    c: &'a Competition,
    rules: &'a Ruleset,
    ranking: &'a Ranking<'a>,
    date: Option<Date>,
    team: &'a TeamId,
    /// The lineup is the one the boards record (not one named before the match).
    recorded: bool,
}

impl Place<'_> {
    fn name(&self, p: &PlayerId) -> String {
        name_of(self.c, p)
    }

    fn rank(&self, p: &PlayerId) -> Option<Rank> {
        self.ranking.on(p, self.date)
    }

    fn as_of(&self) -> String {
        self.date.map_or_else(
            || "the roster's ratings".into(),
            |d| format!("ratings as of {d}"),
        )
    }
}

/// The team's own lineup: its roster (or a sister team's, GT-M14), one board a player
/// (GT-M10), the empty boards at the bottom (GT-M9), the board order (AS-10, GT-M11, GT-M13),
/// no unranked player on a scored board (GT-R7), and a withdrawal only against a short
/// opponent (GT-M12).
fn check_lineup(place: &Place, lineup: &Lineup, opponent: Option<&Lineup>) -> Vec<Finding> {
    let mut out = Vec::new();
    let (c, rules) = (place.c, place.rules);
    let Some(team) = c.team(place.team) else {
        return out;
    };
    let team_of = |p: &PlayerId| -> Option<&Team> {
        c.teams
            .iter()
            .find(|t| t.players.iter().any(|x| &x.id == p))
    };
    let mut seen: HashMap<&PlayerId, u32> = HashMap::new();
    for (board, p) in lineup.named() {
        let on = |f: Finding| Finding {
            board: Some(board),
            ..f
        };
        match team_of(p) {
            // The record's own checks (validate) already refuse a player of no or another roster.
            _ if place.recorded => {}
            None => out.push(on(Finding::violation(
                None,
                format!("no player has the id `{p}`; add them to {}'s roster first", team.id),
            ))),
            Some(t) if t.id != team.id && !validate::sister_teams(c, rules, &t.id, &team.id) => {
                out.push(on(Finding::violation(
                    None,
                    format!(
                        "{} is on {}'s roster, not {}'s; a player plays only for the team that lists them",
                        place.name(p),
                        t.name,
                        team.name
                    ),
                )))
            }
            Some(_) => {}
        }
        if let Some(first) = seen.insert(p, board)
            && !place.recorded
        {
            out.push(on(Finding::violation(
                Some("GT-M10"),
                format!(
                    "{} is named on boards {first} and {board}; a player plays at most one board",
                    place.name(p)
                ),
            )));
        }
        if let (Some(left), Some(day)) = (rostered(c, p).and_then(|x| x.withdrawn), place.date)
            && left <= day
        {
            out.push(on(Finding::violation(
                None,
                format!(
                    "{} was withdrawn from the roster on {left}, so plays no match from that day; name another player for board {board}",
                    place.name(p)
                ),
            )));
        }
        if rostered(c, p).is_some_and(|x| x.unranked) {
            out.push(on(Finding::violation(
                rules.cite("unranked"),
                format!(
                    "{} may play only unranked games (not a high-school student, nor 14 or older); name a ranked player for board {board}, and play the game beside the match, where it counts for nothing",
                    place.name(p)
                ),
            )));
        }
    }
    if rules.short_team_plays_top_boards && !place.recorded {
        let first_empty = lineup.boards.iter().position(Option::is_none);
        let last_named = lineup.boards.iter().rposition(Option::is_some);
        if let (Some(e), Some(n)) = (first_empty, last_named)
            && e < n
        {
            out.push(Finding {
                board: u32::try_from(e + 1).ok(),
                ..Finding::violation(
                    rules.cite("short_team"),
                    format!(
                        "board {} is empty but board {} is named; a short team plays its players on the top boards and leaves the lowest empty",
                        e + 1,
                        n + 1
                    ),
                )
            });
        }
    }
    out.extend(check_order(place, team, lineup));
    if !lineup.withdrawn.is_empty() && !opponent.is_some_and(|o| o.is_short(rules.boards)) {
        let names: Vec<String> = lineup.withdrawn.iter().map(|p| place.name(p)).collect();
        out.push(Finding::violation(
            rules.cite("withdrawal"),
            format!(
                "{} withdrawn so that a lower-ranked player plays, but the opponent leaves no board empty; a team may withdraw a higher-ranked player only when the opponent forfeits a board",
                names.join(", ")
            ),
        ));
    }
    out
}

/// The name messages give a player: the roster's, else the id.
fn name_of(c: &Competition, id: &PlayerId) -> String {
    rostered(c, id).map_or_else(|| id.to_string(), |p| p.name.clone())
}

/// The roster entry of `id` in `c`.
fn rostered<'a>(c: &'a Competition, id: &PlayerId) -> Option<&'a Player> {
    c.teams
        .iter()
        .flat_map(|t| &t.players)
        .find(|p| &p.id == id)
}

/// AS-10 (the roster's order) or GT-M11 with GT-M13 (ratings as of the match date,
/// provisional players last).
fn check_order(place: &Place, team: &Team, lineup: &Lineup) -> Vec<Finding> {
    let rules = place.rules;
    let rule = rules.cite("board_order");
    let named: Vec<(u32, &PlayerId)> = lineup.named().collect();
    let mut out = Vec::new();
    match rules.lineup.order {
        BoardOrder::Free => {}
        BoardOrder::Roster => {
            let position = |p: &PlayerId| team.players.iter().position(|x| &x.id == p);
            for pair in named.windows(2) {
                let [(a_board, a), (b_board, b)] = pair else {
                    continue;
                };
                if let (Some(pa), Some(pb)) = (position(a), position(b))
                    && pb < pa
                {
                    out.push(Finding {
                        board: Some(*b_board),
                        ..Finding::violation(
                            rule,
                            format!(
                                "{} (number {} on the roster) plays board {b_board} below {} (number {}) on board {a_board}; players play in the roster's fixed order of strength: swap them",
                                place.name(b),
                                pb + 1,
                                place.name(a),
                                pa + 1
                            ),
                        )
                    });
                }
            }
        }
        BoardOrder::Rating => {
            let ranked: Vec<(u32, &PlayerId, Rank)> = named
                .iter()
                .filter_map(|&(n, p)| Some((n, p, place.rank(p)?)))
                .collect();
            let last = rules.lineup.provisional_last;
            for (i, &(a_board, a, ra)) in ranked.iter().enumerate() {
                // GT-M11: the next player of the same standing (established or provisional).
                let next = ranked[i + 1..]
                    .iter()
                    .find(|(_, _, r)| !last || r.provisional == ra.provisional);
                if let Some(&(b_board, b, rb)) = next
                    && rb.rating > ra.rating
                {
                    out.push(Finding {
                        board: Some(b_board),
                        ..Finding::violation(
                            rule,
                            format!(
                                "{} ({}) is rated above {} ({}) on board {a_board}, by {}; boards follow ratings, highest on board 1: swap them",
                                place.name(b),
                                rb.shown(),
                                place.name(a),
                                ra.shown(),
                                place.as_of()
                            ),
                        )
                    });
                }
                // GT-M13: a provisional player ahead of an established one.
                if last && ra.provisional {
                    let behind = ranked[i + 1..].iter().find(|(_, _, r)| !r.provisional);
                    if let Some(&(b_board, b, rb)) = behind {
                        out.push(Finding {
                            board: Some(a_board),
                            ..Finding::violation(
                                rules.cite("provisional_last"),
                                format!(
                                    "{} ({}) is provisional and plays board {a_board} ahead of {} ({}) on board {b_board}; a player with a new 1200 rating plays behind every rated player",
                                    place.name(a),
                                    ra.shown(),
                                    place.name(b),
                                    rb.shown()
                                ),
                            )
                        });
                    }
                }
            }
        }
    }
    out
}

/// GT-M14: a school's teams in one division are ranked as one squad, the first-listed team
/// holding the highest: in a round, every player of an upper team ranks at or above every
/// player of the team below it.
fn check_sister_teams(
    c: &Competition,
    rules: &Ruleset,
    ranking: &Ranking,
    round: u32,
    date: Option<Date>,
    lineups: &[(&TeamId, Lineup, usize, &Match)],
) -> Vec<Finding> {
    let mut out = Vec::new();
    if !rules.lineup.sister_teams_ranked_together || rules.lineup.order != BoardOrder::Rating {
        return out;
    }
    let key = |r: Rank| (!(rules.lineup.provisional_last && r.provisional), r.rating);
    let name = |p: &PlayerId| name_of(c, p);
    for (i, upper) in c.teams.iter().enumerate() {
        let Some(lower) = c.teams[i + 1..]
            .iter()
            .find(|t| validate::sister_teams(c, rules, &upper.id, &t.id))
        else {
            continue;
        };
        let of = |t: &TeamId| lineups.iter().find(|(team, ..)| *team == t);
        let (Some((_, up, ..)), Some((_, low, pi, m))) = (of(&upper.id), of(&lower.id)) else {
            continue;
        };
        let ranked = |l: &Lineup| -> Vec<(u32, PlayerId, Rank)> {
            l.named()
                .filter_map(|(n, p)| Some((n, p.clone(), ranking.on(p, date)?)))
                .collect()
        };
        let weakest_up = ranked(up).into_iter().min_by_key(|(_, _, r)| key(*r));
        let strongest_low = ranked(low).into_iter().max_by_key(|(_, _, r)| key(*r));
        if let (Some((_, a, ra)), Some((b_board, b, rb))) = (weakest_up, strongest_low)
            && key(rb) > key(ra)
        {
            out.push(
                Finding::violation(
                    rules.cite("sister_teams"),
                    format!(
                        "{} ({}) plays for {} while {} ({}) plays for {}; a school's teams in one division are ranked as one, and {} holds its highest-ranked players: {} plays for {}",
                        name(&b),
                        rb.shown(),
                        lower.name,
                        name(&a),
                        ra.shown(),
                        upper.name,
                        upper.name,
                        name(&b),
                        upper.name
                    ),
                )
                .in_match(round, *pi, m, Some(b_board))
                .of_team(&lower.id),
            );
        }
    }
    out
}

/// AS-4: one team per school in a competition.
fn check_schools(c: &Competition, rules: &Ruleset) -> Vec<Finding> {
    let mut out = Vec::new();
    if !rules.lineup.one_team_per_school {
        return out;
    }
    let mut first: HashMap<&str, &Team> = HashMap::new();
    for t in &c.teams {
        let Some(school) = t.school.as_deref() else {
            continue;
        };
        if let Some(other) = first.insert(school, t) {
            first.insert(school, other);
            out.push(
                Finding::violation(
                    rules.cite("one_team_per_school"),
                    format!(
                        "{} and {} are both teams of {school}; a school enters one team in a competition",
                        other.name, t.name
                    ),
                )
                .of_team(&t.id),
            );
        }
    }
    out
}

/// One competition of a season or event, for the checks that span them.
#[derive(Debug, Clone, Copy)]
pub struct SeasonEntry<'a> {
    /// The competition's name as messages give it (`Metro Division`).
    pub name: &'a str,
    /// The competition.
    pub competition: &'a Competition,
    /// Its rules.
    pub rules: &'a Ruleset,
    /// The lineups named for its matches not yet played.
    pub named: &'a [NamedLineup],
}

/// A finding of the season-wide checks, with the competition it is in (an index of the
/// entries given).
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonFinding {
    /// The competition, by its index in the entries.
    pub competition: usize,
    /// What is wrong and where.
    pub finding: Finding,
}

/// GT-M15 and AS-3, across the competitions of a season or event. A player id names a player
/// within one competition only, so a player is the same person in two competitions when both
/// rosters give the same name (letter case and spacing aside) and no two different birth
/// dates ([`same_person`]).
pub fn check_season(entries: &[SeasonEntry]) -> Vec<SeasonFinding> {
    let mut out = Vec::new();
    check_first_team(entries, &mut out);
    check_overlapping_dates(entries, &mut out);
    out
}

/// GT-M15: once a player has played for one of a school's teams, they stay with it; on the
/// school's team in another division they never play a scored board (the top four).
fn check_first_team(entries: &[SeasonEntry], out: &mut Vec<SeasonFinding>) {
    // Every game a player played for a team: (date, competition, round, pairing, board).
    struct Game<'a> {
        player: &'a Player,
        date: Option<Date>,
        competition: usize,
        round: u32,
        pairing: usize,
        m: &'a Match,
        side: Side,
        board: u32,
    }
    // Keyed by the name as `same_person` reads it; birth dates are compared below.
    let mut games: HashMap<String, Vec<Game>> = HashMap::new();
    for (ci, e) in entries.iter().enumerate() {
        if !e.rules.lineup.bound_to_first_team {
            continue;
        }
        for round in &e.competition.rounds {
            for (pi, p) in round.pairings.iter().enumerate() {
                let Pairing::Match(m) = p else { continue };
                for side in [Side::Home, Side::Away] {
                    let Some(lineup) = Lineup::played(m, side) else {
                        continue;
                    };
                    for (board, id) in lineup.named() {
                        let Some(player) = rostered(e.competition, id) else {
                            continue;
                        };
                        let key = player.name.split_whitespace().collect::<Vec<_>>().join(" ");
                        games.entry(key.to_lowercase()).or_default().push(Game {
                            player,
                            date: round.date_of(m),
                            competition: ci,
                            round: round.number,
                            pairing: pi,
                            m,
                            side,
                            board,
                        });
                    }
                }
            }
        }
    }
    let mut players: Vec<_> = games.into_iter().collect();
    players.sort_by(|a, b| a.0.cmp(&b.0));
    for (_, mut played) in players {
        played.sort_by_key(|g| (g.date, g.competition, g.round));
        let Some(first) = played.first() else {
            continue;
        };
        let first_team = first.m.team(first.side);
        let first_entry = &entries[first.competition];
        let school = |ci: usize, t: &TeamId| entries[ci].competition.team(t)?.school.clone();
        let Some(first_school) = school(first.competition, first_team) else {
            continue;
        };
        for g in &played[1..] {
            let team = g.m.team(g.side);
            if g.competition == first.competition
                || school(g.competition, team).as_deref() != Some(first_school.as_str())
                || !same_person(g.player, first.player)
            {
                continue;
            }
            let e = &entries[g.competition];
            let team_name = e
                .competition
                .team(team)
                .map_or(team.0.as_str(), |t| &t.name);
            let first_name = first_entry
                .competition
                .team(first_team)
                .map_or(first_team.0.as_str(), |t| &t.name);
            let who = &g.player.name;
            let when = first
                .date
                .map_or_else(|| format!("round {}", first.round), |d| d.to_string());
            out.push(SeasonFinding {
                competition: g.competition,
                finding: Finding::violation(
                    e.rules.cite("first_team"),
                    format!(
                        "{who} first played for {first_name} ({}, {when}) and now plays board {} for {team_name}; a player stays with the team they first played for this season and may not play the top {} boards of the school's team in another division",
                        first_entry.name, g.board, e.rules.boards
                    ),
                )
                .in_match(g.round, g.pairing, g.m, Some(g.board))
                .of_team(team),
            });
        }
    }
}

/// AS-3: a player on the rosters of two competitions whose dates overlap.
fn check_overlapping_dates(entries: &[SeasonEntry], out: &mut Vec<SeasonFinding>) {
    let span = |c: &Competition| {
        let dates: Vec<Date> = c
            .rounds
            .iter()
            .flat_map(|r| {
                r.pairings.iter().filter_map(move |p| match p {
                    Pairing::Match(m) => r.date_of(m),
                    Pairing::Bye(_) => r.date,
                })
            })
            .chain(c.rounds.iter().filter_map(|r| r.date))
            .collect();
        Some((*dates.iter().min()?, *dates.iter().max()?))
    };
    for (i, a) in entries.iter().enumerate() {
        for (j, b) in entries.iter().enumerate().skip(i + 1) {
            if !(a.rules.lineup.one_team_when_dates_overlap
                && b.rules.lineup.one_team_when_dates_overlap)
            {
                continue;
            }
            let (Some((a0, a1)), Some((b0, b1))) = (span(a.competition), span(b.competition))
            else {
                continue;
            };
            if a1 < b0 || b1 < a0 {
                continue;
            }
            for bt in &b.competition.teams {
                for p in &bt.players {
                    let Some(at) = a
                        .competition
                        .teams
                        .iter()
                        .find(|t| t.players.iter().any(|x| same_person(x, p)))
                    else {
                        continue;
                    };
                    out.push(SeasonFinding {
                        competition: j,
                        finding: Finding::violation(
                            b.rules.cite("overlapping_dates"),
                            format!(
                                "{} is on the rosters of {} in {} and {} in {}, whose dates overlap ({a0} to {a1}, {b0} to {b1}); a player plays for one of them",
                                p.name, at.name, a.name, bt.name, b.name
                            ),
                        )
                        .of_team(&bt.id),
                    });
                }
            }
        }
    }
}

/// Whether two roster entries of different competitions are one person: the same name, letter
/// case and spacing aside, and not two different birth dates.
pub fn same_person(a: &Player, b: &Player) -> bool {
    let words = |p: &Player| {
        p.name
            .split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
    };
    let dates_agree = match (a.record.birth_date, b.record.birth_date) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    };
    dates_agree && words(a) == words(b)
}

/// Whether any finding is a broken rule or an error (what `arbiter check` exits 1 on).
pub fn breaks_a_rule(findings: &[Finding]) -> bool {
    findings
        .iter()
        .any(|f| matches!(f.severity, Severity::Error | Severity::Violation))
}

#[cfg(test)]
mod tests;
