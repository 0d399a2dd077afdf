//! One player, one person (RULES.md): the rules that span a season's or event's competitions,
//! read by the identity the product keeps for each player ([`PersonId`]), never by a name that
//! a misspelling breaks or two students share.
//!
//! - GT-M15: a player is bound to the first of a school's teams they play for; on the
//!   school's team in another division they play no board.
//! - AS-3: of two competitions whose dates overlap (their rounds' dates, else the event's days),
//!   a player is on a team of one only.
//!
//! Each is found after the fact ([`check_season`], the officers' page) and refused before it:
//! a lineup ([`lineup_refusals`]) and a roster entry made one person with another
//! ([`person_refusals`]). A name with a birth date or a school only suggests that two entries
//! are one person ([`suggestions`]); an officer confirms it by linking them.

use std::collections::HashMap;

use jiff::civil::Date;

use crate::rating::list::RatingList;
use crate::record::model::{
    Competition, Match, MatchOutcome, Pairing, PersonId, Player, PlayerId, Side, Team, TeamId,
};
use crate::rules::ruleset::Ruleset;
pub use crate::rules::sections::{BoundTo, ClubTeams, CountedFor};
use crate::rules::validate::Finding;
use crate::teams::lineup::{self, Elsewhere, Lineup, NamedLineup};

/// One competition of a season or event, for the checks that span them.
#[derive(Debug, Clone, Copy)]
pub struct SeasonEntry<'a> {
    /// The competition's name as messages give it (`Metro Division`).
    pub name: &'a str,
    /// The competition.
    pub competition: &'a Competition,
    /// Its rules.
    pub rules: &'a Ruleset,
    /// The lineups in force for its matches (those not yet played, and the withdrawals the
    /// played ones were named with).
    pub named: &'a [NamedLineup],
    /// AS-3: its first and last day as the event sets them (its rounds' start times), read
    /// when its rounds have no dates; `None` outside an event.
    pub event_days: Option<(Date, Date)>,
    /// The league's published rating lists, read under `[lineup] ratings = "list"`.
    pub lists: &'a [RatingList],
}

impl SeasonEntry<'_> {
    /// AS-3: the competition's first and last day: its rounds' and matches' dates, else the
    /// event's days for it; `None` when neither says.
    pub fn days(&self) -> Option<(Date, Date)> {
        let c = self.competition;
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
        match (dates.iter().min(), dates.iter().max()) {
            (Some(first), Some(last)) => Some((*first, *last)),
            _ => self.event_days,
        }
    }
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

/// GT-M15 and AS-3, across the competitions of a season or event: each player by the person
/// their roster entry names ([`Player::is_same_person`]).
pub fn check_season(entries: &[SeasonEntry]) -> Vec<SeasonFinding> {
    let mut out = Vec::new();
    check_first_team(entries, &mut out);
    check_overlapping_dates(entries, &mut out);
    out
}

/// What the season says of competition `at`'s players for its own lineup checks: those bound
/// to the school's team in another division by their games there (GT-M15, `[club_teams]`),
/// from the day of the game that bound them.
fn elsewhere(entries: &[SeasonEntry], at: usize) -> Elsewhere {
    let mut out = Elsewhere::default();
    let Some(e) = entries.get(at) else {
        return out;
    };
    if !e.rules.lineup.bound_to_first_team {
        return out;
    }
    let standings = club_standings(entries);
    for team in &e.competition.teams {
        let Some(school) = team.school.as_deref() else {
            continue;
        };
        for p in &team.players {
            let Some(person) = &p.person else { continue };
            if let Some(Breach::Bound(by)) = standings
                .get(&(person, school))
                .and_then(|s| s.breach(at, &e.rules.club_teams))
            {
                out.bind(p.id.clone(), by.date);
            }
        }
    }
    out
}

/// What refuses `lineup`, named for a match of competition `at` before it is played: its own
/// competition's rules (`lineup::refusals_in`, with the players bound elsewhere), then a player
/// bound to the school's team in another division (GT-M15) or on a team of a competition
/// whose dates overlap (AS-3). Empty when the lineup may stand.
pub fn lineup_refusals(entries: &[SeasonEntry], at: usize, lineup: &NamedLineup) -> Vec<Finding> {
    let Some(e) = entries.get(at) else {
        return Vec::new();
    };
    let mut out = lineup::refusals_in(
        e.competition,
        e.rules,
        e.named,
        lineup,
        &elsewhere(entries, at),
        e.lists,
    );
    let Some(place) = Placed::find(e.competition, lineup) else {
        return out;
    };
    out.extend(first_team_refusals(entries, at, &place, &lineup.lineup));
    out.extend(overlap_refusals(entries, at, &place, &lineup.lineup));
    out
}

/// GT-M12: the players `lineup` withdraws, kept with it once [`lineup_refusals`] lets it
/// stand: those it lists, and those it leaves out while a lower-ranked player plays
/// (`lineup::withdrawals`, with the players bound elsewhere, who are not left out).
pub fn lineup_withdrawals(
    entries: &[SeasonEntry],
    at: usize,
    lineup: &NamedLineup,
) -> Vec<PlayerId> {
    match entries.get(at) {
        Some(e) => lineup::withdrawals(
            e.competition,
            e.rules,
            e.named,
            lineup,
            &elsewhere(entries, at),
            e.lists,
        ),
        None => lineup.lineup.withdrawn.clone(),
    }
}

/// What refuses making player `player` of competition `at` the person `person` (a new
/// player added as one, or a link): the person a player of the same competition already
/// (one person, one player of a competition), or on a team of a competition whose dates
/// overlap `at`'s (AS-3). Each a sentence with its rule; empty when they may be one.
pub fn person_refusals(
    entries: &[SeasonEntry],
    at: usize,
    player: &Player,
    person: &PersonId,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let Some(e) = entries.get(at) else {
        return out;
    };
    let team = team_of(e.competition, &player.id);
    let on = |f: Finding| match team {
        Some(t) => f.of_team(&t.id),
        None => f,
    };
    for (t, other) in entries_of(e.competition, person, &player.id) {
        out.push(on(Finding::error(
            None,
            format!(
                "{} ({}, on {}'s roster) is that person in {} already, and a person is one player of a competition: make {} one person with a player of another competition, or correct {}'s entry instead",
                other.name, other.id, t.name, e.name, player.name, other.name
            ),
        )));
    }
    if !e.rules.lineup.one_team_when_dates_overlap {
        return out;
    }
    for (j, o) in entries.iter().enumerate() {
        if j == at || !o.rules.lineup.one_team_when_dates_overlap {
            continue;
        }
        let Some(((a0, a1), (b0, b1))) = overlap(e, o) else {
            continue;
        };
        for (t, other) in entries_of(o.competition, person, &player.id) {
            if !counts_for_overlap(other, o) {
                continue;
            }
            out.push(on(Finding::error(
                e.rules.cite("overlapping_dates"),
                format!(
                    "{} is on {}'s roster in {}, and {} ({a0} to {a1}) and {} ({b0} to {b1}) share dates; a player plays for a team in only one of them, so {} of {} cannot be the same person: withdraw one of them from their roster before its first day, or link another player",
                    other.name,
                    t.name,
                    o.name,
                    e.name,
                    o.name,
                    player.name,
                    team.map_or(e.name, |t| t.name.as_str())
                ),
            )));
        }
    }
    out
}

/// The roster entries of `c` that are `person`, but `not`'s.
fn entries_of<'c>(
    c: &'c Competition,
    person: &PersonId,
    not: &PlayerId,
) -> Vec<(&'c Team, &'c Player)> {
    c.teams
        .iter()
        .flat_map(|t| t.players.iter().map(move |p| (t, p)))
        .filter(|(_, p)| p.person.as_ref() == Some(person) && &p.id != not)
        .collect()
}

/// Who a roster entry might be, as [`suggestions`] compares them: a name, with a birth date
/// or a school to tell two students of one name apart.
#[derive(Debug, Clone, Copy)]
pub struct Who<'a> {
    /// The name as the roster gives it.
    pub name: &'a str,
    /// The date of birth, when known.
    pub birth_date: Option<Date>,
    /// The school they are a student of (their own, else their team's).
    pub school: Option<&'a str>,
    /// The person they are already, if any: entries of that person are not suggested.
    pub person: Option<&'a PersonId>,
}

impl<'a> Who<'a> {
    /// A roster entry of `team`, as [`suggestions`] compares it.
    pub fn of(team: &'a Team, p: &'a Player) -> Who<'a> {
        Who {
            name: &p.name,
            birth_date: p.record.birth_date,
            school: p.school.as_deref().or(team.school.as_deref()),
            person: p.person.as_ref(),
        }
    }
}

/// A roster entry of another competition that may be the same person, for an officer to
/// confirm by linking them (RULES.md, "One player, one person").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// The competition, by its index in the entries.
    pub competition: usize,
    /// The team whose roster lists the entry.
    pub team: TeamId,
    /// The entry.
    pub player: PlayerId,
    /// Why: `the same name and birth date (2010-03-04)`, or `the same name and school (…)`.
    pub why: String,
}

/// The entries of the season's other competitions that may be `who`: the same name (letter
/// case and spacing aside) and the same birth date, or, without two birth dates to compare,
/// the same school. Never the person `who` is already; never a link by itself.
pub fn suggestions(entries: &[SeasonEntry], at: usize, who: &Who) -> Vec<Suggestion> {
    let words = |name: &str| {
        name.split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
    };
    let name = words(who.name);
    let mut out = Vec::new();
    for (j, e) in entries.iter().enumerate() {
        if j == at {
            continue;
        }
        for t in &e.competition.teams {
            for p in &t.players {
                if words(&p.name) != name
                    || who.person.is_some_and(|me| p.person.as_ref() == Some(me))
                {
                    continue;
                }
                let school = p.school.as_deref().or(t.school.as_deref());
                let why = match (who.birth_date, p.record.birth_date) {
                    (Some(a), Some(b)) if a == b => {
                        format!("the same name and birth date ({a})")
                    }
                    (Some(_), Some(_)) => continue,
                    _ => match (who.school, school) {
                        (Some(a), Some(b)) if a.trim().eq_ignore_ascii_case(b.trim()) => {
                            format!("the same name and school ({})", b.trim())
                        }
                        _ => continue,
                    },
                };
                out.push(Suggestion {
                    competition: j,
                    team: t.id.clone(),
                    player: p.id.clone(),
                    why,
                });
            }
        }
    }
    out
}

/// A game a person played for a team: where and when.
#[derive(Clone, Copy)]
struct Game<'a> {
    entry: usize,
    player: &'a Player,
    team: &'a Team,
    date: Option<Date>,
    round: u32,
    pairing: usize,
    m: &'a Match,
    board: u32,
}

/// Every game on the boards of the competitions whose rules bind a player to their first team
/// (GT-M15), each person's in order of play: by day, then by competition and round.
fn games<'a>(entries: &'a [SeasonEntry]) -> HashMap<&'a PersonId, Vec<Game<'a>>> {
    let mut out: HashMap<&PersonId, Vec<Game>> = HashMap::new();
    for (ci, e) in entries.iter().enumerate() {
        if !e.rules.lineup.bound_to_first_team {
            continue;
        }
        let c = e.competition;
        for round in &c.rounds {
            for (pi, p) in round.pairings.iter().enumerate() {
                let Pairing::Match(m) = p else { continue };
                for side in [Side::Home, Side::Away] {
                    let (Some(lineup), Some(team)) =
                        (Lineup::played(m, side), c.team(m.team(side)))
                    else {
                        continue;
                    };
                    for (board, id) in (1..).zip(&lineup.boards) {
                        let Some(player) = id.as_ref().and_then(|id| rostered(c, id)) else {
                            continue;
                        };
                        let Some(person) = &player.person else {
                            continue;
                        };
                        out.entry(person).or_default().push(Game {
                            entry: ci,
                            player,
                            team,
                            date: round.date_of(m),
                            round: round.number,
                            pairing: pi,
                            m,
                            board,
                        });
                    }
                }
            }
        }
    }
    for played in out.values_mut() {
        played.sort_by_key(|g| (g.date, g.entry, g.round));
    }
    out
}

/// Where a person stands with one school's teams after the games counted so far (GT-M15,
/// `[club_teams]`): the games counted for each team, the game that bound them, and how often
/// they played up.
#[derive(Default)]
struct ClubStanding<'a> {
    /// Counted games for each competition's team, by the competition's index.
    counted: HashMap<usize, u32>,
    /// Every counted game, highest team first, for games counted across the club's teams.
    counted_all: Vec<Game<'a>>,
    /// The game that bound them to its team.
    bound: Option<Game<'a>>,
    /// The lowest team they have played for: the highest competition index.
    lowest: Option<usize>,
    /// Games played for a team higher than one they had played for.
    ups: u32,
}

/// What a game for one of a school's teams would break.
enum Breach<'a> {
    /// The player is bound to another team (the game that bound them) and may not play for
    /// this one.
    Bound(Game<'a>),
    /// The player has played up as often as the rules allow.
    PlayedUp(u32),
}

impl<'a> ClubStanding<'a> {
    /// What a game for the team in competition `at` would break, before it is counted.
    fn breach(&self, at: usize, rules: &ClubTeams) -> Option<Breach<'a>> {
        if let Some(by) = self.bound
            && by.entry != at
            && (rules.bound == BoundTo::OneTeam || at > by.entry)
        {
            return Some(Breach::Bound(by));
        }
        match (rules.play_up_max, self.lowest) {
            (Some(max), Some(lowest)) if at < lowest && self.ups >= max => {
                Some(Breach::PlayedUp(max))
            }
            _ => None,
        }
    }

    /// Counts `g`: toward binding when its board counts, and as playing up when it is for a
    /// team above one they played for.
    fn count(&mut self, g: Game<'a>, rules: &ClubTeams, boards: u32) {
        if self.lowest.is_some_and(|l| g.entry < l) {
            self.ups += 1;
        }
        self.lowest = Some(self.lowest.map_or(g.entry, |l| l.max(g.entry)));
        if !rules.counts(g.board, boards) {
            return;
        }
        if rules.counted == CountedFor::AllTeams {
            // Bound to the lowest team of the player's highest `bound_after_games` games,
            // from the day of the game that made them that many; it moves only up.
            self.counted_all.push(g);
            self.counted_all.sort_by_key(|x| x.entry);
            let nth = rules.bound_after_games as usize - 1;
            if let Some(&lowest) = self.counted_all.get(nth) {
                let moved = self.bound.is_none_or(|b| b.entry != lowest.entry);
                if moved && (self.bound.is_none() || rules.bound == BoundTo::NoLowerTeam) {
                    self.bound = Some(Game {
                        date: g.date,
                        round: g.round,
                        ..lowest
                    });
                }
            }
            return;
        }
        let n = self.counted.entry(g.entry).or_default();
        *n += 1;
        if *n < rules.bound_after_games {
            return;
        }
        let higher = self.bound.is_some_and(|by| g.entry < by.entry);
        if self.bound.is_none() || (rules.bound == BoundTo::NoLowerTeam && higher) {
            self.bound = Some(g);
        }
    }
}

/// Each person's standing with each school's teams after every game played, by the school's
/// name.
fn club_standings<'a>(
    entries: &'a [SeasonEntry],
) -> HashMap<(&'a PersonId, &'a str), ClubStanding<'a>> {
    let mut out: HashMap<_, ClubStanding> = HashMap::new();
    for (person, played) in games(entries) {
        for g in played {
            if let Some(school) = g.team.school.as_deref() {
                let rules = entries[g.entry].rules;
                out.entry((person, school))
                    .or_default()
                    .count(g, &rules.club_teams, rules.boards);
            }
        }
    }
    out
}

/// The date of `g`, or its round when undated.
fn when(g: &Game) -> String {
    g.date
        .map_or_else(|| format!("round {}", g.round), |d| d.to_string())
}

/// Why a player bound to `by`'s team may not play for another of the school's teams, in words
/// that give the league's numbers: GT-M15's first game, or the games and boards that count.
fn bound_sentence(entries: &[SeasonEntry], by: &Game, player: &str) -> String {
    let rules = entries[by.entry].rules;
    let c = rules.club_teams;
    let boards = match c.boards_not_counted {
        0 => String::new(),
        n => format!(" on boards 1 to {}", rules.boards - n),
    };
    let games = match c.bound_after_games {
        1 => format!("a game{boards}"),
        n => format!("{n} games{boards}"),
    };
    let what = match c.bound {
        BoundTo::OneTeam => "plays for no other of the club's teams",
        BoundTo::NoLowerTeam => "may not play for a lower one",
    };
    let whose = match c.counted {
        CountedFor::EachTeam => "for one of a club's teams",
        CountedFor::AllTeams => "for a club's teams in all, this one the lowest of them,",
    };
    format!(
        "{player} is bound to {} ({}) since {}: a player who has played {games} {whose} {what} this season",
        by.team.name,
        entries[by.entry].name,
        when(by)
    )
}

/// GT-M15 as the preset reads it: bound by the first game, on any board, to one team.
fn first_team_only(c: &ClubTeams) -> bool {
    *c == ClubTeams::FIRST_TEAM
}

/// GT-M15, `[club_teams]`: each game a player plays for one of a school's teams they may no
/// longer play for, or beyond the games they may play up.
fn check_first_team(entries: &[SeasonEntry], out: &mut Vec<SeasonFinding>) {
    let mut people: Vec<_> = games(entries).into_iter().collect();
    people.sort_by(|a, b| a.0.cmp(b.0));
    for (_, played) in people {
        let mut standings: HashMap<&str, ClubStanding> = HashMap::new();
        for g in played {
            let Some(school) = g.team.school.as_deref() else {
                continue;
            };
            let e = &entries[g.entry];
            let standing = standings.entry(school).or_default();
            if let Some(breach) = standing.breach(g.entry, &e.rules.club_teams) {
                let (cite, message) = match breach {
                    Breach::Bound(first) if first_team_only(&e.rules.club_teams) => (
                        e.rules.cite("first_team"),
                        format!(
                            "{} first played for {} ({}, {}) and now plays board {} for {}; a player stays with the team they first played for this season and may not play the top {} boards of the school's team in another division",
                            g.player.name,
                            first.team.name,
                            entries[first.entry].name,
                            when(&first),
                            g.board,
                            g.team.name,
                            e.rules.boards
                        ),
                    ),
                    Breach::Bound(by) => (
                        e.rules.cite("first_team"),
                        format!(
                            "{} and now plays board {} for {}",
                            bound_sentence(entries, &by, &g.player.name),
                            g.board,
                            g.team.name
                        ),
                    ),
                    Breach::PlayedUp(max) => (
                        e.rules.cite("play_up").or(e.rules.cite("first_team")),
                        format!(
                            "{} plays up for {} on board {} after {max} games for teams above their own; a player plays up at most {max} times this season",
                            g.player.name, g.team.name, g.board
                        ),
                    ),
                };
                out.push(SeasonFinding {
                    competition: g.entry,
                    finding: Finding::violation(cite, message)
                        .in_match(g.round, g.pairing, g.m, Some(g.board))
                        .of_team(&g.team.id),
                });
            }
            standing.count(g, &e.rules.club_teams, e.rules.boards);
        }
    }
}

/// AS-3: the two competitions' days when both rules keep AS-3 and the days share one.
fn overlap(a: &SeasonEntry, b: &SeasonEntry) -> Option<((Date, Date), (Date, Date))> {
    let (a0, a1) = a.days()?;
    let (b0, b1) = b.days()?;
    (a0 <= b1 && b0 <= a1).then_some(((a0, a1), (b0, b1)))
}

/// AS-3: whether a roster entry of `e` puts its player on the team: not withdrawn from the
/// roster on or before the competition's first day, when it never played for it.
fn counts_for_overlap(p: &Player, e: &SeasonEntry) -> bool {
    match (p.withdrawn, e.days()) {
        (Some(left), Some((first, _))) => left > first,
        _ => true,
    }
}

/// AS-3: a player on the rosters of two competitions whose dates overlap.
fn check_overlapping_dates(entries: &[SeasonEntry], out: &mut Vec<SeasonFinding>) {
    for (i, a) in entries.iter().enumerate() {
        for (j, b) in entries.iter().enumerate().skip(i + 1) {
            if !(a.rules.lineup.one_team_when_dates_overlap
                && b.rules.lineup.one_team_when_dates_overlap)
            {
                continue;
            }
            let Some(((a0, a1), (b0, b1))) = overlap(a, b) else {
                continue;
            };
            for bt in &b.competition.teams {
                for p in bt.players.iter().filter(|p| counts_for_overlap(p, b)) {
                    let Some(at) = a.competition.teams.iter().find(|t| {
                        t.players
                            .iter()
                            .any(|x| x.is_same_person(p) && counts_for_overlap(x, a))
                    }) else {
                        continue;
                    };
                    out.push(SeasonFinding {
                        competition: j,
                        finding: Finding::violation(
                            b.rules.cite("overlapping_dates"),
                            format!(
                                "{} is on the rosters of {} in {} and {} in {}, whose dates overlap ({a0} to {a1}, {b0} to {b1}); a player plays for a team in only one of them: withdraw them from one roster",
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

/// A lineup's match in its competition: where findings about it are placed.
struct Placed<'a> {
    round: u32,
    pairing: usize,
    m: &'a Match,
    side: Side,
    date: Option<Date>,
    team: &'a Team,
}

impl<'a> Placed<'a> {
    fn find(c: &'a Competition, lineup: &NamedLineup) -> Option<Placed<'a>> {
        let round = c.rounds.iter().find(|r| r.number == lineup.round)?;
        let (pairing, m) = round
            .pairings
            .iter()
            .enumerate()
            .find_map(|(i, p)| match p {
                Pairing::Match(m) if m.home == lineup.home => Some((i, m)),
                _ => None,
            })?;
        Some(Placed {
            round: round.number,
            pairing,
            m,
            side: lineup.side,
            date: round.date_of(m),
            team: c.team(m.team(lineup.side))?,
        })
    }

    /// `f` placed on `board` of the match, as the team's.
    fn at(&self, board: u32, f: Finding) -> Finding {
        f.in_match(self.round, self.pairing, self.m, Some(board))
            .of_team(self.m.team(self.side))
    }
}

/// The lineup's named players with the person each is, board by board.
fn persons<'a>(c: &'a Competition, lineup: &'a Lineup) -> Vec<(u32, &'a Player, &'a PersonId)> {
    (1..)
        .zip(&lineup.boards)
        .filter_map(|(board, id)| {
            let p = rostered(c, id.as_ref()?)?;
            Some((board, p, p.person.as_ref()?))
        })
        .collect()
}

/// GT-M15 before the match: a player who first played for the school's team in another
/// division, or is named in its lineup for a match still to play, is refused.
fn first_team_refusals(
    entries: &[SeasonEntry],
    at: usize,
    place: &Placed,
    lineup: &Lineup,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let e = &entries[at];
    let Some(school) = place.team.school.as_deref() else {
        return out;
    };
    if !e.rules.lineup.bound_to_first_team {
        return out;
    }
    let standings = club_standings(entries);
    let rules = &e.rules.club_teams;
    for (board, p, person) in persons(e.competition, lineup) {
        if let Some(standing) = standings.get(&(person, school)) {
            let refusal = match standing.breach(at, rules) {
                None => None,
                Some(Breach::Bound(first)) if first_team_only(rules) => Some((
                    e.rules.cite("first_team"),
                    format!(
                        "{} first played for {} ({}, {}) and stays with that team this season; a player may not play the top {} boards of the school's team in another division: name another player for board {board}",
                        p.name,
                        first.team.name,
                        entries[first.entry].name,
                        when(&first),
                        e.rules.boards
                    ),
                )),
                Some(Breach::Bound(by)) => Some((
                    e.rules.cite("first_team"),
                    format!(
                        "{}: name another player for board {board}",
                        bound_sentence(entries, &by, &p.name)
                    ),
                )),
                Some(Breach::PlayedUp(max)) => Some((
                    e.rules.cite("play_up").or(e.rules.cite("first_team")),
                    format!(
                        "{} has played up for teams above their own {max} times, and a player plays up at most {max} times this season: name another player for board {board}",
                        p.name
                    ),
                )),
            };
            if let Some((cite, message)) = refusal {
                out.push(place.at(board, Finding::violation(cite, message)));
            }
            continue;
        }
        if !first_team_only(rules) {
            continue;
        }
        // Not played yet for the school: named for its team in another division's next match.
        let named_elsewhere = entries.iter().enumerate().find_map(|(j, o)| {
            if j == at || !o.rules.lineup.bound_to_first_team {
                return None;
            }
            o.named.iter().find_map(|n| {
                let there = Placed::find(o.competition, n)?;
                let names_them = persons(o.competition, &n.lineup)
                    .iter()
                    .any(|(_, _, q)| *q == person);
                (there.m.outcome == MatchOutcome::Pending
                    && there.team.school.as_deref() == Some(school)
                    && names_them)
                    .then_some((o, there))
            })
        });
        if let Some((o, there)) = named_elsewhere {
            let when = there
                .date
                .map_or_else(|| format!("round {}", there.round), |d| d.to_string());
            out.push(place.at(
                board,
                Finding::violation(
                    e.rules.cite("first_team"),
                    format!(
                        "{} is named in {}'s lineup for round {} of {} ({when}); a player stays with the first of the school's teams they play for this season, so plays for only one of its teams in different divisions: take them out of that lineup first, or name another player for board {board}",
                        p.name, there.team.name, there.round, o.name
                    ),
                ),
            ));
        }
    }
    out
}

/// AS-3 before the match: a player on a team of a competition whose dates overlap this one's
/// is refused.
fn overlap_refusals(
    entries: &[SeasonEntry],
    at: usize,
    place: &Placed,
    lineup: &Lineup,
) -> Vec<Finding> {
    let mut out = Vec::new();
    let e = &entries[at];
    if !e.rules.lineup.one_team_when_dates_overlap {
        return out;
    }
    for (board, p, person) in persons(e.competition, lineup) {
        for (j, o) in entries.iter().enumerate() {
            if j == at || !o.rules.lineup.one_team_when_dates_overlap {
                continue;
            }
            let Some(((a0, a1), (b0, b1))) = overlap(e, o) else {
                continue;
            };
            let other = o.competition.teams.iter().find_map(|t| {
                t.players
                    .iter()
                    .find(|x| x.person.as_ref() == Some(person) && counts_for_overlap(x, o))
                    .map(|_| t)
            });
            if let Some(t) = other {
                out.push(place.at(
                    board,
                    Finding::violation(
                        e.rules.cite("overlapping_dates"),
                        format!(
                            "{} is also on {}'s roster in {}, and {} ({a0} to {a1}) and {} ({b0} to {b1}) share dates; a player plays for a team in only one of them: name another player for board {board}, or withdraw them from one roster",
                            p.name, t.name, o.name, e.name, o.name
                        ),
                    ),
                ));
            }
        }
    }
    out
}

/// The roster entry of `id` in `c`.
fn rostered<'a>(c: &'a Competition, id: &PlayerId) -> Option<&'a Player> {
    c.teams
        .iter()
        .flat_map(|t| &t.players)
        .find(|p| &p.id == id)
}

/// The team whose roster lists `id` in `c`.
fn team_of<'a>(c: &'a Competition, id: &PlayerId) -> Option<&'a Team> {
    c.teams
        .iter()
        .find(|t| t.players.iter().any(|p| &p.id == id))
}

#[cfg(test)]
mod club_tests;
#[cfg(test)]
mod tests;
