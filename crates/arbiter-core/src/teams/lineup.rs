//! Lineups: the player a team puts on each board of a match, and the rules a lineup keeps.
//!
//! The same checks serve twice. Before a match, a lineup that breaks a rule is refused
//! ([`refusals`]: what the lineup adds to the competition's findings). After it, the lineup
//! the boards record is checked and a broken rule is a [`Severity::Violation`]: the result is
//! kept and scored, and the President decides ([`check_competition`]). The rules are the
//! ruleset's `[lineup]`: board order by roster (AS-10) or by rating as of the match date
//! (GT-M11, GT-R4), provisional players last (GT-M13, GT-R3), sister teams ranked as one
//! (GT-M14), one school one team (AS-4), the strongest players play (GT-M11, GT-M12). Under
//! every ruleset: one board a player (GT-M10), a short team's empty boards at the bottom
//! (GT-M9), the players of the team's roster, unranked players in no scored game (GT-R7) and a
//! withdrawal only of a roster player ranked above one who plays, and only when the opponent
//! forfeits a board (GT-M12).
//!
//! GT-M12 reads a lineup that leaves out a higher-ranked player the same whether it says so or
//! not: the player left out is withdrawn. Judged when the lineup is named: refused when the
//! opponent forfeits no board; when it does, the player is kept as withdrawn with the lineup
//! ([`withdrawals`]), listed or not. From then its withdrawals speak for it: they stay with the
//! match's record after the result and are checked against the boards it played. A player the
//! recorded boards leave out is not read as withdrawn after the fact, since the record says who
//! played, not who came.
//!
//! The rules across a season's or event's competitions (GT-M15, AS-3) are `eligibility`'s; it
//! tells these checks who is bound to another team ([`Elsewhere`]).

use std::collections::{HashMap, HashSet};

use jiff::civil::Date;

use crate::rating::list::{self, RatingList};
use crate::rating::rated_games;
use crate::record::model::{
    Competition, Match, MatchOutcome, Pairing, Player, PlayerId, Round, Side, Team, TeamId,
};
use crate::record::words;
use crate::rules::ruleset::{BoardOrder, RatingSource, Ruleset};
use crate::rules::validate::{self, Finding, Severity};

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

/// Players of a competition who may not play for their team from a day, by what the season
/// around it says (`eligibility`): GT-M15's, bound to the school's team in another division by
/// their first game. A lineup that leaves one of them out withdraws no one (GT-M12).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Elsewhere {
    /// Each player bound elsewhere, from the day of their first game there (`None`: a record
    /// without days, bound throughout).
    bound: HashMap<PlayerId, Option<Date>>,
}

impl Elsewhere {
    /// `player` plays for another team from `from` on.
    pub fn bind(&mut self, player: PlayerId, from: Option<Date>) {
        self.bound.insert(player, from);
    }

    /// Whether `player` is bound elsewhere on `date` (a match without a day: once bound at all).
    pub fn binds(&self, player: &PlayerId, date: Option<Date>) -> bool {
        match (self.bound.get(player), date) {
            (None, _) => false,
            (Some(None), _) | (Some(Some(_)), None) => true,
            (Some(Some(from)), Some(day)) => *from <= day,
        }
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

impl NamedLineup {
    /// Whether `self` is a version of `other`'s lineup: the same match and side.
    pub fn is_for(&self, other: &NamedLineup) -> bool {
        self.round == other.round && self.home == other.home && self.side == other.side
    }
}

impl Rank {
    /// `1420`, or `1200N` for a provisional rating.
    pub fn shown(self) -> String {
        crate::record::model::rating_text(self.rating, self.provisional)
    }
}

/// Every rostered player's rank on any day, by the ratings `[lineup] ratings` names: the
/// league's as they stood that day (GT-R4), from the games played before it; a published list
/// in force on the day (`rating::list`); or the roster's. Each day is rated from its own past,
/// not re-read with what came later: a team dropped after the day (GT-M5) takes its games out
/// of later ratings, not out of the order a lineup had to keep on it. Built once per
/// competition; the match page's table and the findings read the same one.
#[derive(Debug)]
pub struct Ranking<'a> {
    competition: &'a Competition,
    source: RatingSource,
    /// The published lists (under `ratings = "list"`).
    lists: &'a [RatingList],
    /// For each list, by the index of `lists`: each player's rating on it, by roster index.
    listed: Vec<Vec<Option<u32>>>,
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
        Ranking::with_lists(competition, rules, &[])
    }

    /// [`Ranking::new`] with the league's published lists, read under `ratings = "list"`.
    pub fn with_lists(
        competition: &'a Competition,
        rules: &Ruleset,
        lists: &'a [RatingList],
    ) -> Ranking<'a> {
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
        let source = rules.lineup.ratings;
        let rated = source == RatingSource::League
            && (rules.lineup.order == BoardOrder::Rating
                || rules.lineup.cap.is_set()
                || rules.lineup.max_gap.is_some());
        let listed = if source == RatingSource::List {
            lists
                .iter()
                .map(|l| {
                    competition
                        .teams
                        .iter()
                        .flat_map(|t| &t.players)
                        .map(|p| l.find(p).map(|e| e.rating))
                        .collect()
                })
                .collect()
        } else {
            Vec::new()
        };
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
            source,
            lists,
            listed,
            days,
            after,
            index,
        }
    }

    /// The list in force on `date` and its index, under `ratings = "list"`.
    fn list_on(&self, date: Option<Date>) -> Option<(usize, &RatingList)> {
        let l = list::in_force(self.lists, date)?;
        let i = self.lists.iter().position(|x| std::ptr::eq(x, l))?;
        Some((i, l))
    }

    /// What the ranks on `date` are read from, as a sentence says it: `ratings as of
    /// 2026-10-07`, `the list FIDE March 2027 (in force from 2027-03-01)`, `the roster's
    /// ratings`.
    pub fn source_words(&self, date: Option<Date>) -> String {
        match (self.source, date) {
            (RatingSource::Roster, _) | (RatingSource::League, None) => {
                "the roster's ratings".into()
            }
            (RatingSource::League, Some(d)) => format!("ratings as of {d}"),
            (RatingSource::List, _) => match self.list_on(date) {
                Some((_, l)) => format!(
                    "the rating list {} (in force from {})",
                    l.name, l.in_force_from
                ),
                None => "no rating list (none is in force on the match day)".into(),
            },
        }
    }

    /// The player's rank on `date`: after every match day before it. Without a date, or
    /// without a replay, the roster's rating.
    ///
    /// Under `ratings = "list"`, the rating on the list in force on `date`; under `"roster"`,
    /// the roster's; `None` for a player the list does not find or the roster leaves unrated.
    pub fn on(&self, player: &PlayerId, date: Option<Date>) -> Option<Rank> {
        let i = *self.index.get(player)?;
        match self.source {
            RatingSource::League => {}
            RatingSource::List => {
                let (l, _) = self.list_on(date)?;
                let rating = self.listed.get(l)?.get(i).copied().flatten()?;
                return Some(Rank {
                    rating: i64::from(rating),
                    provisional: false,
                });
            }
            RatingSource::Roster => {
                let p = self
                    .competition
                    .teams
                    .iter()
                    .flat_map(|t| &t.players)
                    .nth(i)?;
                return Some(Rank {
                    rating: i64::from(p.rating?),
                    provisional: p.provisional,
                });
            }
        }
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
    check_all(c, rules, named, &Elsewhere::default(), &[], None)
}

/// [`check_competition`] with the league's published rating lists (`[lineup] ratings = "list"`).
pub fn check_competition_with(
    c: &Competition,
    rules: &Ruleset,
    named: &[NamedLineup],
    lists: &[RatingList],
) -> Vec<Finding> {
    check_all(c, rules, named, &Elsewhere::default(), lists, None)
}

/// [`check_competition`], with `judging` the lineup being named, if any: the one whose players
/// left out are withdrawals (GT-M12), judged when it is named (the players bound `elsewhere`
/// not among them) and kept with it after.
fn check_all(
    c: &Competition,
    rules: &Ruleset,
    named: &[NamedLineup],
    elsewhere: &Elsewhere,
    lists: &[RatingList],
    judging: Option<&NamedLineup>,
) -> Vec<Finding> {
    let ranking = Ranking::with_lists(c, rules, lists);
    let mut out = check_schools(c, rules);
    for round in &c.rounds {
        let mut lineups: Vec<(usize, &Match, [Option<Lineup>; 2])> = Vec::new();
        for (pi, pairing) in round.pairings.iter().enumerate() {
            let Pairing::Match(m) = pairing else { continue };
            let lineup = |side| lineup_in(round, m, side, named);
            lineups.push((pi, m, [lineup(Side::Home), lineup(Side::Away)]));
        }
        let in_round: HashSet<PlayerId> = lineups
            .iter()
            .flat_map(|(_, _, l)| l.iter().flatten())
            .flat_map(Lineup::named)
            .map(|(_, p)| p.clone())
            .collect();
        let mut of_teams: Vec<(&TeamId, Lineup, usize, &Match)> = Vec::new();
        for (pi, m, [home, away]) in &lineups {
            let recorded = matches!(m.outcome, MatchOutcome::Boards(_));
            for side in [Side::Home, Side::Away] {
                let (own, other) = match side {
                    Side::Home => (home, away),
                    Side::Away => (away, home),
                };
                let Some(own) = own else { continue };
                let place = Place {
                    c,
                    rules,
                    ranking: &ranking,
                    date: round.date_of(m),
                    team: m.team(side),
                    recorded,
                    judged: judging.is_some_and(|j| {
                        j.round == round.number && j.home == m.home && j.side == side
                    }),
                    elsewhere,
                    in_round: &in_round,
                };
                for f in check_lineup(&place, own, other.as_ref()) {
                    let board = f.board;
                    out.push(
                        f.in_match(round.number, *pi, m, board)
                            .of_team(m.team(side)),
                    );
                }
                of_teams.push((m.team(side), own.clone(), *pi, m));
            }
        }
        out.extend(check_sister_teams(
            c,
            rules,
            &ranking,
            round.number,
            round.date,
            &of_teams,
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
    refusals_in(c, rules, named, lineup, &Elsewhere::default(), &[])
}

/// [`refusals`] with what the season says of the players (`elsewhere`, GT-M15) and the
/// league's published rating lists (`[lineup] ratings = "list"`).
pub fn refusals_in(
    c: &Competition,
    rules: &Ruleset,
    named: &[NamedLineup],
    lineup: &NamedLineup,
    elsewhere: &Elsewhere,
    lists: &[RatingList],
) -> Vec<Finding> {
    let others: Vec<NamedLineup> = named
        .iter()
        .filter(|n| !n.is_for(lineup))
        .cloned()
        .collect();
    let before: HashSet<String> = check_all(c, rules, &others, elsewhere, lists, None)
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut with = others;
    with.push(lineup.clone());
    let mut out: Vec<Finding> = check_all(c, rules, &with, elsewhere, lists, Some(lineup))
        .into_iter()
        .filter(|f| !before.contains(&f.to_string()))
        .collect();
    if let Some(f) = check_shape(c, rules, lineup) {
        out.insert(0, f);
    }
    out
}

/// GT-M12: the players a lineup that [`refusals_in`] lets stand withdraws, kept with it: those
/// it declares, and the roster players it leaves out while a lower-ranked one plays. A
/// lineup that leaves a higher-ranked player out is refused unless the opponent forfeits a
/// board; when it does, the player left out is withdrawn whether or not the lineup says so,
/// because the rule reads the boards, not the list: asking the advisor to tick what the
/// lineup already shows would add a step a result entered after the match could never take,
/// and the lineup named before and the one recorded after would follow different rules.
pub fn withdrawals(
    c: &Competition,
    rules: &Ruleset,
    named: &[NamedLineup],
    lineup: &NamedLineup,
    elsewhere: &Elsewhere,
    lists: &[RatingList],
) -> Vec<PlayerId> {
    let mut out = lineup.lineup.withdrawn.clone();
    let Some((round, m)) = c
        .rounds
        .iter()
        .filter(|r| r.number == lineup.round)
        .find_map(|r| Some((r, r.matches().find(|m| m.home == lineup.home)?)))
    else {
        return out;
    };
    let Some(team) = c.team(m.team(lineup.side)) else {
        return out;
    };
    let ranking = Ranking::with_lists(c, rules, lists);
    // The players the round's lineups name, this one's and a sister team's (GT-M14), are not
    // left out.
    let mut with: Vec<NamedLineup> = named
        .iter()
        .filter(|n| !n.is_for(lineup))
        .cloned()
        .collect();
    with.push(lineup.clone());
    let in_round: HashSet<PlayerId> = round
        .matches()
        .flat_map(|o| [Side::Home, Side::Away].map(|side| lineup_in(round, o, side, &with)))
        .flatten()
        .flat_map(|l| l.named().map(|(_, p)| p.clone()).collect::<Vec<_>>())
        .collect();
    let place = Place {
        c,
        rules,
        ranking: &ranking,
        date: round.date_of(m),
        team: &team.id,
        recorded: false,
        judged: true,
        elsewhere,
        in_round: &in_round,
    };
    for p in left_out(&place, team, &lineup.lineup) {
        if !out.contains(p) {
            out.push(p.clone());
        }
    }
    out
}

/// `side`'s lineup for match `m` of `round`: the boards' when recorded, with the withdrawals the
/// lineup named before it listed (GT-M12: kept with the match's record), else the one named.
fn lineup_in(round: &Round, m: &Match, side: Side, named: &[NamedLineup]) -> Option<Lineup> {
    let named = named
        .iter()
        .find(|n| n.round == round.number && n.home == m.home && n.side == side)
        .map(|n| &n.lineup);
    match Lineup::played(m, side) {
        Some(played) => Some(Lineup {
            withdrawn: named.map(|n| n.withdrawn.clone()).unwrap_or_default(),
            ..played
        }),
        None => named.cloned(),
    }
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
    /// The lineup is the one being named now: the players it leaves out are judged (GT-M12).
    judged: bool,
    /// The players bound to another team (GT-M15).
    elsewhere: &'a Elsewhere,
    /// Every player named in the round's lineups, any team's (GT-M14's sister teams).
    in_round: &'a HashSet<PlayerId>,
}

impl Place<'_> {
    fn name(&self, p: &PlayerId) -> String {
        name_of(self.c, p)
    }

    fn rank(&self, p: &PlayerId) -> Option<Rank> {
        self.ranking.on(p, self.date)
    }

    fn as_of(&self) -> String {
        self.ranking.source_words(self.date)
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
                rules.cite("one_board"),
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
    out.extend(check_gaps(place, lineup));
    out.extend(check_cap(place, lineup));
    out.extend(check_withdrawals(place, team, lineup, opponent));
    out
}

/// Where a player stands in the order a lineup keeps, the higher the stronger: the rating as
/// of the match day (GT-M11), a provisional one below every established one (GT-M13); or the
/// place on the roster (AS-10). `None` under a free order, or for a player it cannot place.
fn standing(place: &Place, team: &Team, p: &PlayerId) -> Option<(bool, i64)> {
    match place.rules.lineup.order {
        BoardOrder::Free => None,
        BoardOrder::Roster => {
            let i = team.players.iter().position(|x| &x.id == p)?;
            Some((true, -i64::try_from(i).ok()?))
        }
        BoardOrder::Rating => {
            let r = place.rank(p)?;
            Some((
                !(place.rules.lineup.provisional_last && r.provisional),
                r.rating,
            ))
        }
    }
}

/// What [`standing`] reads: `ratings as of 2026-10-07`, or `the roster's order`.
fn order_words(place: &Place) -> String {
    match place.rules.lineup.order {
        BoardOrder::Roster => "the roster's order".into(),
        _ => place.as_of(),
    }
}

/// `P-t1 (1600)`, or `P-v3 (number 3 on the roster)`: a player as [`standing`] places them.
fn standing_words(place: &Place, team: &Team, p: &PlayerId) -> String {
    let how = match place.rules.lineup.order {
        BoardOrder::Rating => place.rank(p).map(Rank::shown),
        BoardOrder::Roster => team
            .players
            .iter()
            .position(|x| &x.id == p)
            .map(|i| format!("number {} on the roster", i + 1)),
        BoardOrder::Free => None,
    };
    match how {
        Some(how) => format!("{} ({how})", place.name(p)),
        None => place.name(p),
    }
}

/// GT-M12 under `strongest_play`: the team's roster players the lineup being named leaves out,
/// unlisted, while a lower-ranked player plays. Not left out: a player the lineup
/// lists as withdrawn, withdrawn from the roster by the day, unranked (GT-R7), bound to the
/// school's team in another division (GT-M15) or named for another team in the round (GT-M14).
fn left_out<'t>(place: &Place, team: &'t Team, lineup: &Lineup) -> Vec<&'t PlayerId> {
    if !place.rules.lineup.strongest_play || !place.judged {
        return Vec::new();
    }
    let Some(weakest) = lineup
        .named()
        .filter_map(|(_, p)| standing(place, team, p))
        .min()
    else {
        return Vec::new();
    };
    let named: HashSet<&PlayerId> = lineup.named().map(|(_, p)| p).collect();
    team.players
        .iter()
        .filter(|p| {
            !named.contains(&p.id)
                && !lineup.withdrawn.contains(&p.id)
                && !p.unranked
                && p.withdrawn
                    .is_none_or(|left| place.date.is_some_and(|day| left > day))
                && !place.elsewhere.binds(&p.id, place.date)
                && !place.in_round.contains(&p.id)
                && standing(place, team, &p.id).is_some_and(|s| s > weakest)
        })
        .map(|p| &p.id)
        .collect()
}

/// GT-M12: the opponent forfeits a board, and a higher-ranked player is withdrawn so that a
/// lower-ranked one plays. Each player listed as withdrawn is on the team's roster, does not
/// play, and ranks above one who does; a withdrawal, listed or not ([`left_out`]), stands
/// only when the opponent leaves a board empty.
fn check_withdrawals(
    place: &Place,
    team: &Team,
    lineup: &Lineup,
    opponent: Option<&Lineup>,
) -> Vec<Finding> {
    let rules = place.rules;
    let rule = rules.cite("withdrawal");
    let mut out = Vec::new();
    let weakest = lineup
        .named()
        .filter_map(|(n, p)| Some((standing(place, team, p)?, n, p)))
        .min();
    for w in &lineup.withdrawn {
        if !team.players.iter().any(|x| &x.id == w) {
            out.push(Finding::violation(
                rule,
                format!(
                    "{} is listed as withdrawn but is not on {}'s roster; a team withdraws only a player of its own roster: take them off the withdrawn list",
                    place.name(w),
                    team.name
                ),
            ));
        } else if let Some((board, _)) = lineup.named().find(|(_, p)| *p == w) {
            out.push(Finding {
                board: Some(board),
                ..Finding::violation(
                    rule,
                    format!(
                        "{} is listed as withdrawn and plays board {board}; a withdrawn player does not play the match: take them off the withdrawn list or off the board",
                        place.name(w)
                    ),
                )
            });
        } else if let (Some(sw), Some((sp, board, p))) = (standing(place, team, w), weakest)
            && sw <= sp
        {
            out.push(Finding::violation(
                rule,
                format!(
                    "{} is listed as withdrawn but ranks below {}, the lowest-ranked player named (board {board}), by {}; a team withdraws a higher-ranked player so that a lower-ranked one plays: take them off the withdrawn list",
                    standing_words(place, team, w),
                    standing_words(place, team, p),
                    order_words(place)
                ),
            ));
        }
    }
    if opponent.is_some_and(|o| o.is_short(rules.boards)) {
        return out;
    }
    if !lineup.withdrawn.is_empty() {
        let names: Vec<String> = lineup.withdrawn.iter().map(|p| place.name(p)).collect();
        out.push(Finding::violation(
            rule,
            format!(
                "{} {} withdrawn so that a lower-ranked player plays, but the opponent leaves no board empty; a team may withdraw a higher-ranked player only when the opponent forfeits a board: name {} in the lineup",
                words::list(names.iter()),
                if names.len() == 1 { "is" } else { "are" },
                if names.len() == 1 { "them" } else { "them all" }
            ),
        ));
    }
    let skipped = left_out(place, team, lineup);
    if let (false, Some((_, board, p))) = (skipped.is_empty(), weakest) {
        let names: Vec<String> = skipped
            .iter()
            .map(|s| standing_words(place, team, s))
            .collect();
        out.push(Finding::violation(
            rule,
            format!(
                "{} {} left out while {} plays board {board}, by {}; a team plays its strongest players and leaves out a higher-ranked one only when the opponent forfeits a board: name {} in place of a lower-ranked player",
                words::list(names.iter()),
                if names.len() == 1 { "is" } else { "are" },
                standing_words(place, team, p),
                order_words(place),
                if names.len() == 1 { "them" } else { "them all" }
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
            let tolerance = rules.lineup.tolerance;
            if tolerance > 0 {
                out.extend(check_tolerance(place, &ranked, tolerance));
            }
            for (i, &(a_board, a, ra)) in ranked.iter().enumerate() {
                // GT-M11: the next player of the same standing (established or provisional).
                let next = ranked[i + 1..]
                    .iter()
                    .find(|(_, _, r)| !last || r.provisional == ra.provisional);
                if let Some(&(b_board, b, rb)) = next
                    && rb.rating > ra.rating
                    && tolerance == 0
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

/// `[lineup] tolerance`: a player may sit below one rated up to `tolerance` points higher; one
/// rated more above a player on a higher board breaks the order. Each player is held against
/// the lowest-rated player above them of the same standing (established or provisional,
/// GT-M13), so the sentence gives the widest inversion.
fn check_tolerance(
    place: &Place,
    ranked: &[(u32, &PlayerId, Rank)],
    tolerance: u32,
) -> Vec<Finding> {
    let rules = place.rules;
    let last = rules.lineup.provisional_last;
    let mut out = Vec::new();
    for (j, &(b_board, b, rb)) in ranked.iter().enumerate() {
        let lowest_above = ranked[..j]
            .iter()
            .filter(|(_, _, r)| !last || r.provisional == rb.provisional)
            .min_by_key(|(n, _, r)| (r.rating, *n));
        let Some(&(a_board, a, ra)) = lowest_above else {
            continue;
        };
        let by = rb.rating - ra.rating;
        if by > i64::from(tolerance) {
            out.push(Finding {
                board: Some(b_board),
                ..Finding::violation(
                    rules.cite("board_order"),
                    format!(
                        "{} ({}) on board {b_board} is rated {by} points above {} ({}) on board {a_board}, by {}; a player may sit below one rated at most {tolerance} points higher: swap them",
                        place.name(b),
                        rb.shown(),
                        place.name(a),
                        ra.shown(),
                        place.as_of()
                    ),
                )
            });
        }
    }
    out
}

/// `[lineup] max_gap`: consecutive boards' players rated at most `max_gap` points apart, either
/// way. A player without a rating is passed over.
fn check_gaps(place: &Place, lineup: &Lineup) -> Vec<Finding> {
    let rules = place.rules;
    let Some(gap) = rules.lineup.max_gap else {
        return Vec::new();
    };
    let ranked: Vec<(u32, &PlayerId, Rank)> = lineup
        .named()
        .filter_map(|(n, p)| Some((n, p, place.rank(p)?)))
        .collect();
    let mut out = Vec::new();
    for pair in ranked.windows(2) {
        let [(a_board, a, ra), (b_board, b, rb)] = pair else {
            continue;
        };
        let apart = (ra.rating - rb.rating).abs();
        if apart > i64::from(gap) {
            out.push(Finding {
                board: Some(*b_board),
                ..Finding::violation(
                    rules.cite("max_gap"),
                    format!(
                        "{} ({}) on board {b_board} and {} ({}) on board {a_board} are {apart} points apart, by {}; consecutive boards may be at most {gap} points apart: name a player rated between them",
                        place.name(b),
                        rb.shown(),
                        place.name(a),
                        ra.shown(),
                        place.as_of()
                    ),
                )
            });
        }
    }
    out
}

/// `[lineup.cap]`: no player rated above `player_max`; the lineup's ratings adding up to at
/// most `team_total_max`; the average of its `average.of` highest under `average.under`. An
/// unrated player counts as `unrated_as`. Each sentence gives the sum it read.
fn check_cap(place: &Place, lineup: &Lineup) -> Vec<Finding> {
    let rules = place.rules;
    let cap = rules.lineup.cap;
    if !cap.is_set() {
        return Vec::new();
    }
    let rule = rules.cite("rating_cap");
    let rated: Vec<(u32, &PlayerId, i64, bool)> = lineup
        .named()
        .map(|(n, p)| match place.rank(p) {
            Some(r) => (n, p, r.rating, true),
            None => (n, p, i64::from(cap.unrated_as), false),
        })
        .collect();
    let term = |p: &PlayerId, r: i64, known: bool| {
        if known {
            format!("{} {r}", place.name(p))
        } else {
            format!("{} {r} (unrated)", place.name(p))
        }
    };
    let mut out = Vec::new();
    if let Some(max) = cap.player_max {
        for &(board, p, r, known) in &rated {
            if known && r > i64::from(max) {
                out.push(Finding {
                    board: Some(board),
                    ..Finding::violation(
                        rule,
                        format!(
                            "{} on board {board} is rated {r}, above the cap of {max} a player, by {}; name a player rated {max} or less",
                            place.name(p),
                            place.as_of()
                        ),
                    )
                });
            }
        }
    }
    if let Some(max) = cap.team_total_max {
        let total: i64 = rated.iter().map(|(_, _, r, _)| r).sum();
        if total > i64::from(max) {
            let terms: Vec<String> = rated.iter().map(|&(_, p, r, k)| term(p, r, k)).collect();
            out.push(Finding::violation(
                rule,
                format!(
                    "the team's total {total} is above the cap of {max}: {}, by {}; name lower-rated players so the total is {max} or less",
                    terms.join(" + "),
                    place.as_of()
                ),
            ));
        }
    }
    if let Some(avg) = cap.average {
        let mut top = rated.clone();
        top.sort_by_key(|&(n, _, r, _)| (std::cmp::Reverse(r), n));
        top.truncate(avg.of as usize);
        let sum: i64 = top.iter().map(|(_, _, r, _)| r).sum();
        let count = i64::try_from(top.len()).unwrap_or(i64::MAX);
        if count > 0 && sum >= i64::from(avg.under) * count {
            let terms: Vec<String> = top.iter().map(|&(_, p, r, k)| term(p, r, k)).collect();
            out.push(Finding::violation(
                rule,
                format!(
                    "the average of the team's top {count}, {} ({} = {sum}, over {count}), is not under the cap of {}, by {}; name lower-rated players so the {count} add up to {} or less",
                    average_words(sum, count),
                    terms.join(" + "),
                    avg.under,
                    place.as_of(),
                    i64::from(avg.under) * count - 1
                ),
            ));
        }
    }
    out
}

/// `2212.25`: an average of ratings, to two decimals at most.
fn average_words(sum: i64, count: i64) -> String {
    let s = format!("{:.2}", sum as f64 / count as f64);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
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

/// Whether any finding is a broken rule or an error (what `arbiter check` exits 1 on).
pub fn breaks_a_rule(findings: &[Finding]) -> bool {
    findings
        .iter()
        .any(|f| matches!(f.severity, Severity::Error | Severity::Violation))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod list_tests;
