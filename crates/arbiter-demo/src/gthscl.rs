//! GTHSCL 2026-27: three divisions of Toledo-area high schools playing a home and away double
//! round robin on Mondays and Wednesdays, in progress on `today`.
//!
//! The whole season's results are drawn first and the matches from `today` on are then left
//! pending, so a result never changes as the days go by. The season holds, by design: a school
//! with an A and a B team in one division (GT-O1, GT-M14), provisional 1200N players on the last
//! boards (GT-R3, GT-M13), board order by rating (GT-M11), a forfeited match (GT-M7), a double
//! default board (GT-M4), a team of three (GT-M9) and a team dropped after two forfeits (GT-M5).

use std::collections::HashMap;

use arbiter_core::pairing::schedule::{self, Cycles, Schedule, ScheduleError, Spacing};
use arbiter_core::record::calendar::{Closure, SCHOOL_WEEK, SchoolCalendar};
use arbiter_core::record::model::{
    AdjudicationPosition, Board, Competition, ExtraEvent, ExtraGame, ExtraKind, ExtraStep,
    GameResult, Match, MatchOutcome, Pairing, Player, PlayerId, Round, Side, Team, TeamId,
    Unfinished, Unplayed,
};
use arbiter_core::season::ledger::{self, Entry, EntryInput, Ledger, When};
use arbiter_core::teams::lineup::{Lineup, NamedLineup, Ranking};
use arbiter_core::{Ruleset, rules::validate};
use jiff::civil::{Date, date};

use crate::names::{Entrants, Names, OHIO};
use crate::play;
use crate::rng::Rng;
use crate::{DemoCompetition, DemoGameScore, DemoLeague, DemoSeason, LeagueKind};

/// Draws between scholastic players of equal strength.
const DRAW_RATE: f64 = 0.12;

pub const SEASON_START: Date = date(2026, 10, 5);
/// The divisions' last match day: the regular season's end.
pub const REGULAR_SEASON_END: Date = date(2027, 2, 24);
/// The season's last day: the playoffs are played in March (GT-F3), the bye date for all
/// schools before the last of them (GT-F5).
pub const SEASON_END: Date = date(2027, 3, 19);

/// The demo shows a season in progress: a `today` before this window is moved into it...
pub const TODAY_EARLIEST: Date = date(2026, 11, 23);
pub const TODAY_LATEST: Date = date(2027, 2, 8);
/// ...and one after the regular season (from the day after its last match, to the season's
/// end) shows it finished, every division match played: the President qualifies the divisions
/// and draws the playoffs on the site (`arbiter demo --today 2027-02-25`).
pub const FINISHED_FROM: Date = date(2027, 2, 25);

/// The day the demo is drawn as of: in progress, or finished from [`FINISHED_FROM`].
pub fn demo_day(today: Date) -> Date {
    if today >= FINISHED_FROM {
        today.min(SEASON_END)
    } else {
        today.clamp(TODAY_EARLIEST, TODAY_LATEST)
    }
}

/// The days the schools are shut (GT-M2's calendar): from, to (both inclusive), what.
const CLOSURES: &[(Date, Date, &str)] = &[
    (date(2026, 11, 25), date(2026, 11, 27), "Thanksgiving break"),
    (date(2026, 12, 21), date(2027, 1, 1), "Winter break"),
    (
        date(2027, 1, 18),
        date(2027, 1, 18),
        "Martin Luther King Jr. Day",
    ),
    (date(2027, 2, 15), date(2027, 2, 15), "Presidents' Day"),
];

struct Club {
    id: &'static str,
    team: &'static str,
    school: &'static str,
    entrants: Entrants,
    /// The typical board-3 league rating.
    base: i32,
    rated: usize,
    provisional: usize,
}

const fn club(
    id: &'static str,
    team: &'static str,
    school: &'static str,
    entrants: Entrants,
    base: i32,
    rated: usize,
    provisional: usize,
) -> Club {
    Club {
        id,
        team,
        school,
        entrants,
        base,
        rated,
        provisional,
    }
}

struct Division {
    slug: &'static str,
    name: &'static str,
    /// The league's match days before this division's first round: the divisions start one
    /// after another on the season's first match days.
    offset: usize,
    clubs: &'static [Club],
}

use Entrants::{Boys, Girls, Mixed};

const SJJ: &str = "St. John's Jesuit High School";

#[rustfmt::skip]
const DIVISIONS: &[Division] = &[
    Division {
        slug: "metro",
        name: "Metro Division",
        offset: 0,
        // St. John's Jesuit's A and B teams are built together (see `sister_teams`).
        clubs: &[
            club("sjj-a", "St. John's Jesuit A", SJJ, Boys, 1640, 0, 0),
            club("sjj-b", "St. John's Jesuit B", SJJ, Boys, 1640, 0, 0),
            club("tcc", "Toledo Central Catholic", "Toledo Central Catholic High School", Mixed, 1500, 5, 1),
            club("nda", "Notre Dame Academy", "Notre Dame Academy", Girls, 1440, 5, 1),
            club("sua", "St. Ursula Academy", "St. Ursula Academy", Girls, 1390, 4, 2),
            club("start", "Start", "Start High School", Mixed, 1300, 3, 3),
            club("oh", "Ottawa Hills", "Ottawa Hills High School", Mixed, 1520, 6, 0),
            club("mvcd", "Maumee Valley Country Day", "Maumee Valley Country Day School", Mixed, 1470, 5, 1),
        ],
    },
    Division {
        slug: "suburban",
        name: "Suburban Division",
        offset: 1,
        clubs: &[
            club("southview", "Sylvania Southview", "Sylvania Southview High School", Mixed, 1560, 6, 1),
            club("northview", "Sylvania Northview", "Sylvania Northview High School", Mixed, 1520, 5, 1),
            club("whitmer", "Whitmer", "Whitmer High School", Mixed, 1430, 5, 2),
            club("springfield", "Springfield", "Springfield High School", Mixed, 1350, 4, 1),
            club("maumee", "Maumee", "Maumee High School", Mixed, 1460, 5, 0),
            club("aw", "Anthony Wayne", "Anthony Wayne High School", Mixed, 1490, 4, 1),
        ],
    },
    Division {
        slug: "wood-county",
        name: "Wood County Division",
        offset: 2,
        clubs: &[
            club("perrysburg", "Perrysburg", "Perrysburg High School", Mixed, 1580, 7, 1),
            club("bg", "Bowling Green", "Bowling Green High School", Mixed, 1510, 6, 1),
            club("rossford", "Rossford", "Rossford High School", Mixed, 1320, 4, 0),
            club("eastwood", "Eastwood", "Eastwood High School", Mixed, 1380, 5, 1),
            club("lake", "Lake", "Lake High School", Mixed, 1420, 5, 1),
            club("otsego", "Otsego", "Otsego High School", Mixed, 1290, 3, 2),
        ],
    },
];

pub fn league(today: Date) -> DemoLeague {
    let today = demo_day(today);
    let mut names = Names::new(OHIO);
    let competitions: Vec<DemoCompetition> = DIVISIONS
        .iter()
        .map(|d| division(d, today, &mut names))
        .collect();
    let ledger = fee_ledger(&competitions, today);
    DemoLeague {
        slug: "gthscl".into(),
        name: "Greater Toledo High School Chess League".into(),
        kind: LeagueKind::League,
        description: "A season-long league of Toledo-area high schools: divisions by location, \
                      home and away matches on Mondays and Wednesdays after school, four boards \
                      a match, results entered by the home advisor."
            .into(),
        time_zone: "America/New_York",
        seasons: vec![DemoSeason {
            slug: "2026-27".into(),
            name: "2026–27 season".into(),
            starts_on: SEASON_START,
            ends_on: SEASON_END,
            competitions,
            ledger,
            closures: calendar().closures,
            event: None,
        }],
        treasurer: Some(TREASURER.into()),
        school_addresses: SCHOOL_ADDRESSES
            .iter()
            .map(|&(school, address)| (school.into(), address.into()))
            .collect(),
    }
}

/// Where each school's home matches are played (GT-M1, issue 32), as the President set the
/// addresses: plausible ones for the demo, not checked against the schools' own.
const SCHOOL_ADDRESSES: &[(&str, &str)] = &[
    (SJJ, "5901 Airport Hwy\nToledo, OH 43615"),
    (
        "Toledo Central Catholic High School",
        "2550 Cherry St\nToledo, OH 43608",
    ),
    (
        "Notre Dame Academy",
        "3535 W Sylvania Ave\nToledo, OH 43623",
    ),
    ("St. Ursula Academy", "4025 Indian Rd\nToledo, OH 43606"),
    (
        "Start High School",
        "2010 Tremainsville Rd\nToledo, OH 43613",
    ),
    (
        "Ottawa Hills High School",
        "2532 Evergreen Rd\nOttawa Hills, OH 43606",
    ),
    (
        "Maumee Valley Country Day School",
        "1715 S Reynolds Rd\nToledo, OH 43614",
    ),
    (
        "Sylvania Southview High School",
        "7225 Sylvania Ave\nSylvania, OH 43560",
    ),
    (
        "Sylvania Northview High School",
        "5403 Silica Dr\nSylvania, OH 43560",
    ),
    ("Whitmer High School", "5601 Clegg Dr\nToledo, OH 43613"),
    (
        "Springfield High School",
        "1470 S McCord Rd\nHolland, OH 43528",
    ),
    ("Maumee High School", "1147 Saco St\nMaumee, OH 43537"),
    (
        "Anthony Wayne High School",
        "5967 Finzel Rd\nWhitehouse, OH 43571",
    ),
    (
        "Perrysburg High School",
        "13385 Roachton Rd\nPerrysburg, OH 43551",
    ),
    (
        "Bowling Green High School",
        "530 W Poe Rd\nBowling Green, OH 43402",
    ),
    (
        "Rossford High School",
        "701 Superior St\nRossford, OH 43460",
    ),
    (
        "Eastwood High School",
        "4900 Sugar Ridge Rd\nPemberville, OH 43450",
    ),
    ("Lake High School", "28080 Lemoyne Rd\nMillbury, OH 43447"),
    (
        "Otsego High School",
        "18505 Tontogany Creek Rd\nTontogany, OH 43565",
    ),
];

/// The demo league's Treasurer, who keeps the fee ledger (GT-O2, GT-O3).
pub const TREASURER: &str = "treasurer@gthscl.example";

/// The season's name as the ledger's sentences say it.
const SEASON_NAME: &str = "2026\u{2013}27 season";

/// The fee ledger as the Treasurer kept it through the autumn (GT-O2): each school's $10 fee
/// paid in October, but Otsego's, still owed; St. John's Jesuit paid for each of its two teams
/// and was paid half back (the fee is per school); Maumee Valley Country Day's cheque recorded
/// against Maumee by mistake, reversed, and recorded again; the division trophies (GT-F1) and
/// the playoff trophies (GT-F3) bought in November. Each entry is read by core's
/// `Ledger::check`, as the site reads the Treasurer's form.
fn fee_ledger(competitions: &[DemoCompetition], today: Date) -> Vec<Entry> {
    let dues = ledger::dues(competitions.iter().map(|c| {
        (
            &c.competition,
            Ruleset::preset(&c.rules).and_then(|r| r.fees),
        )
    }));
    const MVCD: &str = "Maumee Valley Country Day School";
    #[rustfmt::skip]
    let book: &[(&str, &str, &str, Date, &str, &str)] = &[
        // kind, school, amount, day, note, the entry reversed
        ("payment", "Perrysburg High School", "10", date(2026, 10, 5), "paid at the organizational meeting", ""),
        ("payment", "Bowling Green High School", "10", date(2026, 10, 5), "paid at the organizational meeting", ""),
        ("payment", "Ottawa Hills High School", "10", date(2026, 10, 5), "paid at the organizational meeting", ""),
        ("payment", SJJ, "20.00", date(2026, 10, 6), "cheque 2231, for the A and the B team", ""),
        ("payment", "Toledo Central Catholic High School", "10", date(2026, 10, 6), "cheque 518", ""),
        ("payment", "Notre Dame Academy", "10", date(2026, 10, 7), "cheque 4410", ""),
        ("payment", "Maumee High School", "10", date(2026, 10, 7), "cheque 1187", ""),
        ("reversal", "", "", date(2026, 10, 8), "cheque 1187 is Maumee Valley Country Day's, not Maumee High School's", "7"),
        ("payment", MVCD, "10", date(2026, 10, 7), "cheque 1187", ""),
        ("payment", "St. Ursula Academy", "10", date(2026, 10, 8), "cheque 902", ""),
        ("payment", "Start High School", "10", date(2026, 10, 9), "cash, receipt 14", ""),
        ("payment", "Sylvania Southview High School", "10", date(2026, 10, 12), "cheque 3320", ""),
        ("payment", "Sylvania Northview High School", "10", date(2026, 10, 12), "cheque 3321", ""),
        ("payment", "Whitmer High School", "10", date(2026, 10, 13), "cheque 76", ""),
        ("payment", "Springfield High School", "10", date(2026, 10, 14), "cash, receipt 15", ""),
        ("payment", "Anthony Wayne High School", "10", date(2026, 10, 14), "cheque 2054", ""),
        ("payment", "Rossford High School", "10", date(2026, 10, 15), "cheque 611", ""),
        ("payment", "Eastwood High School", "10", date(2026, 10, 16), "cheque 1290", ""),
        ("payment", "Lake High School", "10", date(2026, 10, 19), "cash, receipt 16", ""),
        ("refund", SJJ, "10", date(2026, 10, 20), "the fee is per school, not per team (GT-O2): half of cheque 2231 back", ""),
        ("payment", "Maumee High School", "10", date(2026, 10, 26), "cheque 1203", ""),
        ("waiver", "Otsego High School", "5", date(2026, 10, 26), "first season in the league: half the fee waived, as the officers agreed on 5 October", ""),
        ("prize_purchase", "", "96.00", date(2026, 11, 12), "three division winners' trophies (GT-F1), Toledo Trophy Co. invoice 4471", ""),
        ("prize_purchase", "", "58.50", date(2026, 11, 18), "playoff winner's and runner-up's trophies (GT-F3), invoice 4502", ""),
    ];
    let when = When {
        today,
        season: SEASON_NAME,
        starts: Some(SEASON_START),
        ends: Some(SEASON_END),
    };
    let mut kept = Ledger::new(dues, Vec::new());
    let mut entries = Vec::new();
    for &(kind, school, amount, on, note, reverses) in book {
        let input = EntryInput {
            kind: kind.into(),
            school: school.into(),
            amount: amount.into(),
            on: on.to_string(),
            note: note.into(),
            reverses: reverses.into(),
        };
        // Every entry is checked; the demo's tests hold that none is refused.
        if let Ok(e) = kept.check(&input, &when) {
            entries.push(e);
            kept = Ledger::new(kept.dues().clone(), entries.clone());
        }
    }
    entries
}

/// The 2026-27 school calendar (GT-M2): the regular season from 5 October to 24 February,
/// shut for Thanksgiving, the winter break and two Monday holidays.
pub fn calendar() -> SchoolCalendar {
    SchoolCalendar {
        starts_on: SEASON_START,
        ends_on: SEASON_END,
        closures: CLOSURES
            .iter()
            .map(|&(from, to, reason)| Closure {
                from,
                to,
                reason: reason.into(),
            })
            .collect(),
    }
}

/// The days of a division's rounds: spread over the season's match days (GT-M2: Mondays and
/// Wednesdays) from its `offset`-th to the last.
fn round_dates(s: &Schedule, offset: usize) -> Result<Vec<Date>, ScheduleError> {
    let calendar = calendar();
    let match_days = gthscl_rules().match_days.clone();
    // The division's own season starts on its first match day.
    let starts_on = calendar
        .match_days(&match_days)
        .get(offset)
        .copied()
        .unwrap_or(SEASON_START);
    // The divisions play the regular season; the playoffs come after it.
    let own = SchoolCalendar {
        starts_on,
        ends_on: REGULAR_SEASON_END,
        ..calendar
    };
    schedule::place(s, &own, &match_days, Spacing::Even)
}

/// Internal playing strength of every player (a provisional rating says little about it).
type Strength = HashMap<PlayerId, i32>;

fn division(d: &Division, today: Date, names: &mut Names) -> DemoCompetition {
    let mut rng = Rng::from_label(d.slug, 0);
    let mut strength = Strength::new();
    let mut teams = Vec::with_capacity(d.clubs.len());
    for c in d.clubs {
        if c.id == "sjj-b" {
            continue;
        }
        if c.id == "sjj-a" {
            teams.extend(sister_teams(&mut rng, names, &mut strength));
        } else {
            teams.push(team(c, &mut rng, names, &mut strength));
        }
    }
    joins_the_closest_team(&mut teams);
    let ids: Vec<TeamId> = teams.iter().map(|t| t.id.clone()).collect();
    let n = u32::try_from(teams.len()).unwrap_or(0);
    let (rounds, dates) = schedule::round_robin(n, Cycles::Double)
        .and_then(|s| Ok((schedule::apply_to(&s, &ids)?, round_dates(&s, d.offset)?)))
        .unwrap_or_default();
    let mut results = Rng::from_label(d.slug, 1);
    let mut competition = Competition {
        name: format!("GTHSCL 2026–27 {}", d.name),
        teams,
        rounds: Vec::with_capacity(rounds.len()),
    };
    // Round by round: each lineup follows the ratings as they stand on its day (GT-M11).
    for (mut round, day) in rounds.into_iter().zip(dates) {
        round.date = Some(day);
        play_round(&mut round, &competition, &strength, &mut results);
        competition.rounds.push(round);
        season_events(d.slug, &mut competition);
    }
    // What has not happened by `today` is still to be played.
    for round in &mut competition.rounds {
        let round_day = round.date;
        for p in &mut round.pairings {
            if let Pairing::Match(m) = p
                && m.date.or(round_day).is_some_and(|day| day >= today)
            {
                m.outcome = MatchOutcome::Pending;
            }
        }
    }
    let lineups = named_for_next_round(&competition, today, &mut results);
    let game_scores = game_scores(&competition);
    DemoCompetition {
        slug: d.slug.into(),
        name: d.name.into(),
        rules: "gthscl".into(),
        competition,
        lineups,
        game_scores,
    }
}

/// GT-M20: the moves of round 1's first board in every match, as its advisor uploaded them: a
/// short game that ends as the board did (a white win, a black win or a draw by repetition).
fn game_scores(c: &Competition) -> Vec<DemoGameScore> {
    const WHITE_WINS: &str = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0";
    const BLACK_WINS: &str = "1. f3 e5 2. g4 Qh4# 0-1";
    const DRAWN: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2";
    let Some(rules) = Ruleset::preset("gthscl") else {
        return Vec::new();
    };
    let Some(first) = c.rounds.iter().find(|r| r.number == 1) else {
        return Vec::new();
    };
    first
        .matches()
        .filter_map(|m| {
            let MatchOutcome::Boards(boards) = &m.outcome else {
                return None;
            };
            let b = boards.first()?;
            let home = rules.colour(Some(b), 1, Side::Home);
            let white_won = match (b.result, home) {
                (GameResult::Draw, _) => None,
                (GameResult::HomeWin, c) => Some(c == arbiter_core::record::model::Colour::White),
                (GameResult::AwayWin, c) => Some(c == arbiter_core::record::model::Colour::Black),
                _ => return None,
            };
            let moves = match white_won {
                Some(true) => WHITE_WINS,
                Some(false) => BLACK_WINS,
                None => DRAWN,
            };
            let name = |id: &Option<PlayerId>| {
                id.as_ref()
                    .and_then(|id| {
                        c.teams
                            .iter()
                            .flat_map(|t| &t.players)
                            .find(|p| &p.id == id)
                    })
                    .map_or_else(|| "?".to_string(), |p| p.name.clone())
            };
            let (white, black) = match home {
                arbiter_core::record::model::Colour::White => (&b.home_player, &b.away_player),
                arbiter_core::record::model::Colour::Black => (&b.away_player, &b.home_player),
            };
            Some(DemoGameScore {
                round: 1,
                home: m.home.clone(),
                board: 1,
                pgn: format!(
                    "[Event \"{}\"]\n[Round \"1\"]\n[White \"{}\"]\n[Black \"{}\"]\n\n{moves}",
                    c.name,
                    name(white),
                    name(black)
                ),
            })
        })
        .collect()
}

/// GT-M11, GT-M13, GT-R3: established players by rating, highest first, then the
/// provisional 1200N players.
fn board_order(players: &mut [(Player, i32)]) {
    players.sort_by(|(a, _), (b, _)| {
        a.provisional
            .cmp(&b.provisional)
            .then(b.rating.cmp(&a.rating))
    });
}

fn players(
    rng: &mut Rng,
    names: &mut Names,
    entrants: Entrants,
    base: i32,
    rated: usize,
    provisional: usize,
) -> Vec<(Player, i32)> {
    let mut out = Vec::with_capacity(rated + provisional);
    for i in 0..rated {
        let offset = 230 - 75 * i32::try_from(i).unwrap_or(0);
        // GT-R1, GT-R2: an established league rating is above 1200.
        let rating = (base + offset + rng.range(-60, 60)).max(1205);
        let name = names.next(rng, entrants);
        out.push((player(name, Some(rating), false), rating));
    }
    for _ in 0..provisional {
        let s = (base - 260 + rng.range(-150, 100)).clamp(700, 1250);
        let name = names.next(rng, entrants);
        out.push((player(name, Some(1200), true), s));
    }
    board_order(&mut out);
    out
}

fn player(name: String, rating: Option<i32>, provisional: bool) -> Player {
    Player {
        id: PlayerId(String::new()),
        name,
        rating: rating.and_then(|r| u32::try_from(r).ok()),
        provisional,
        ..Player::default()
    }
}

fn finish(
    id: &str,
    name: &str,
    school: &str,
    players: Vec<(Player, i32)>,
    strength: &mut Strength,
) -> Team {
    let players = players
        .into_iter()
        .zip(1..)
        .map(|((mut p, s), n)| {
            p.id = PlayerId(format!("{id}-{n}"));
            strength.insert(p.id.clone(), s);
            p
        })
        .collect();
    Team {
        id: TeamId(id.into()),
        name: name.into(),
        school: Some(school.into()),
        players,
    }
}

/// GT-R6: Genoa Area High School has no team, so one of its students plays for Otsego, the
/// closest team; her roster entry keeps her own school.
fn joins_the_closest_team(teams: &mut [Team]) {
    if let Some(p) = teams
        .iter_mut()
        .find(|t| t.id.0 == "otsego")
        .and_then(|t| t.players.get_mut(2))
    {
        p.school = Some("Genoa Area High School".into());
    }
}

fn team(c: &Club, rng: &mut Rng, names: &mut Names, strength: &mut Strength) -> Team {
    let base = c.base + rng.range(-40, 40);
    let p = players(rng, names, c.entrants, base, c.rated, c.provisional);
    finish(c.id, c.team, c.school, p, strength)
}

/// GT-O1, GT-M14: St. John's Jesuit enters two teams in the Metro Division; its players are
/// ranked by rating across both, and the A team holds the highest.
fn sister_teams(rng: &mut Rng, names: &mut Names, strength: &mut Strength) -> [Team; 2] {
    let mut school = players(rng, names, Boys, 1560, 10, 0);
    // Spread the ten over the school's whole range: a strong top and a young second team.
    for (i, (p, s)) in school.iter_mut().enumerate() {
        let r = (1880 - 62 * i32::try_from(i).unwrap_or(0) + rng.range(-25, 25)).max(1205);
        p.rating = u32::try_from(r).ok();
        *s = r;
    }
    board_order(&mut school);
    let mut b: Vec<(Player, i32)> = school.split_off(5);
    let newcomer = names.next(rng, Boys);
    b.push((player(newcomer, Some(1200), true), 1010));
    board_order(&mut b);
    [
        finish("sjj-a", "St. John's Jesuit A", SJJ, school, strength),
        finish("sjj-b", "St. John's Jesuit B", SJJ, b, strength),
    ]
}

/// The players of `team` who turn up for a match: a few miss each one. A team with fewer than
/// four there brings its whole roster.
fn present<'a>(team: &'a Team, rng: &mut Rng) -> Vec<&'a Player> {
    let present: Vec<&Player> = team
        .players
        .iter()
        .filter(|p| !rng.chance(if p.provisional { 0.10 } else { 0.08 }))
        .collect();
    if present.len() >= 4 {
        present
    } else {
        team.players.iter().collect()
    }
}

/// Who a lineup is chosen from: those who turned up for the match (a few miss each one), or,
/// for a lineup named days before it, the whole roster.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Choice {
    Present,
    Roster,
}

/// Each team's lineup for the round: its best four of those it chooses from, in board order by
/// the ratings as of the day (GT-M11, GT-M13). A school's teams in the division are ranked as one
/// squad, the A team taking its four highest (GT-M14).
fn lineups(
    round: &Round,
    c: &Competition,
    rng: &mut Rng,
    from: Choice,
) -> HashMap<TeamId, Vec<PlayerId>> {
    let rules = gthscl_rules();
    let ranking = Ranking::new(c, &rules);
    let key = |p: &Player| {
        let r = ranking.on(&p.id, round.date);
        r.map(|r| (r.provisional, -r.rating))
    };
    let mut out = HashMap::new();
    let mut squads: Vec<(Vec<&Team>, Vec<&Player>)> = Vec::new();
    for t in &c.teams {
        let here = match from {
            Choice::Present => present(t, rng),
            Choice::Roster => t.players.iter().collect(),
        };
        match squads
            .iter_mut()
            .find(|(teams, _)| validate::sister_teams(c, &rules, &teams[0].id, &t.id))
        {
            Some((teams, players)) => {
                teams.push(t);
                players.extend(here);
            }
            None => squads.push((vec![t], here)),
        }
    }
    for (teams, mut players) in squads {
        players.sort_by_key(|p| key(p));
        for (i, t) in teams.iter().enumerate() {
            let four = players.iter().skip(4 * i).take(4).map(|p| p.id.clone());
            out.insert(t.id.clone(), four.collect());
        }
    }
    out
}

/// The lineups the advisors have named for the next round's matches (issue 12): the home
/// team's always, the visitors' in every other match, so the site shows both states. Named
/// before anyone knows who will miss the match, each is the team's strongest four (GT-M12: a
/// lineup that left a higher-ranked player out would withdraw them, which only a short opponent
/// allows).
fn named_for_next_round(c: &Competition, today: Date, rng: &mut Rng) -> Vec<NamedLineup> {
    let Some(next) = c.rounds.iter().find(|r| r.date.is_some_and(|d| d >= today)) else {
        return Vec::new();
    };
    let lineups = lineups(next, c, rng, Choice::Roster);
    let mut out = Vec::new();
    let matches = next.pairings.iter().filter_map(|p| match p {
        Pairing::Match(m) if m.outcome == MatchOutcome::Pending => Some(m),
        _ => None,
    });
    for (i, m) in matches.enumerate() {
        for side in [Side::Home, Side::Away] {
            if side == Side::Away && i % 2 == 1 {
                continue;
            }
            let Some(players) = lineups.get(m.team(side)) else {
                continue;
            };
            out.push(NamedLineup {
                round: next.number,
                home: m.home.clone(),
                side,
                lineup: Lineup {
                    boards: players.iter().cloned().map(Some).collect(),
                    withdrawn: Vec::new(),
                },
            });
        }
    }
    out
}

fn gthscl_rules() -> Ruleset {
    Ruleset::preset("gthscl")
        .unwrap_or_else(|| unreachable!("the gthscl preset ships inside the binary"))
}

fn play_round(round: &mut Round, c: &Competition, strength: &Strength, rng: &mut Rng) {
    let s = |p: &PlayerId| strength.get(p).copied().unwrap_or(1200);
    let lineups = lineups(round, c, rng, Choice::Present);
    for p in &mut round.pairings {
        let Pairing::Match(m) = p else { continue };
        let (Some(h), Some(a)) = (lineups.get(&m.home), lineups.get(&m.away)) else {
            continue;
        };
        m.outcome = MatchOutcome::Boards(
            h.iter()
                .zip(a)
                .map(|(hp, ap)| Board {
                    home_player: Some(hp.clone()),
                    away_player: Some(ap.clone()),
                    ..Board::new(play::game(rng, s(hp), s(ap), DRAW_RATE))
                })
                .collect(),
        );
    }
}

/// The match of `team` in `round`, and the team's side in it.
fn match_of<'a>(c: &'a mut Competition, round: u32, team: &str) -> Option<(&'a mut Match, Side)> {
    let r = c.rounds.iter_mut().find(|r| r.number == round)?;
    r.pairings.iter_mut().find_map(|p| match p {
        Pairing::Match(m) => {
            let side = if m.home.0 == team {
                Side::Home
            } else if m.away.0 == team {
                Side::Away
            } else {
                return None;
            };
            Some((m, side))
        }
        Pairing::Bye(_) => None,
    })
}

/// What went other than to plan this season.
fn season_events(division: &str, c: &mut Competition) {
    match division {
        "metro" => {
            // GT-M11: Start's advisor put the team's first board on board 4 in round 2. The
            // result stands as recorded and is scored; it waits for the President's ruling.
            // Swapped once, as round 2 is played (this runs after every round).
            let just_played = c.rounds.last().map(|r| r.number);
            if just_played == Some(2)
                && let Some((m, side)) = match_of(c, 2, "start")
                && let MatchOutcome::Boards(boards) = &mut m.outcome
                && boards.len() == 4
            {
                let player = |b: &mut Board| match side {
                    Side::Home => b.home_player.take(),
                    Side::Away => b.away_player.take(),
                };
                let (first, fourth) = (player(&mut boards[0]), player(&mut boards[3]));
                let put = |b: &mut Board, p| match side {
                    Side::Home => b.home_player = p,
                    Side::Away => b.away_player = p,
                };
                put(&mut boards[0], fourth);
                put(&mut boards[3], first);
            }
            // GT-M4: the fourth boards of Start and their visitors agreed a draw without
            // playing; the home advisor scored it as a double default.
            if let Some((m, _)) = match_of(c, 3, "start")
                && let MatchOutcome::Boards(boards) = &mut m.outcome
                && let Some(b) = boards.get_mut(3)
            {
                b.result = GameResult::DoubleForfeit;
                b.unplayed = Some(Unplayed::AgreedDraw);
            }
            // GT-M16: Toledo Central Catholic's second board felt unwell before the start and
            // the coach forfeited the board; the game was not played.
            forfeit_board(c, 2, "tcc", 1, Unplayed::CoachForfeit);
            // GT-R5, GT-P3: the two teams' last players, who had no board, played a challenge
            // game beside Maumee Valley Country Day's round 1 match; the visitors' advisor
            // entered it and the home advisor confirmed it, so it is rated.
            challenge_game(
                c,
                1,
                "mvcd",
                Side::Away,
                vec![ExtraEvent {
                    by: None,
                    step: ExtraStep::Confirmed,
                }],
            );
            // In round 2 the home advisor entered one the visitors have not confirmed yet, so it
            // is not rated; in round 3 an officer struck one out, with the reason.
            challenge_game(c, 2, "mvcd", Side::Home, Vec::new());
            challenge_game(
                c,
                3,
                "mvcd",
                Side::Away,
                vec![ExtraEvent {
                    by: None,
                    step: ExtraStep::Struck {
                        reason: "The players played a casual game after the match, not a challenge game; entered by mistake.".into(),
                    },
                }],
            );
        }
        "suburban" => {
            // GT-M6, GT-M7: Springfield's bus never came; the match is forfeited.
            if let Some((m, side)) = match_of(c, 2, "springfield") {
                m.outcome = MatchOutcome::Forfeit { by: side };
            }
            // GT-M9: Anthony Wayne arrived with three players; its fourth board is forfeited
            // and the unopposed player wins.
            if let Some((m, side)) = match_of(c, 3, "aw")
                && let MatchOutcome::Boards(boards) = &mut m.outcome
                && let Some(b) = boards.get_mut(3)
            {
                match side {
                    Side::Home => {
                        b.home_player = None;
                        b.result = GameResult::AwayWinByForfeit;
                    }
                    Side::Away => {
                        b.away_player = None;
                        b.result = GameResult::HomeWinByForfeit;
                    }
                }
                b.unplayed = Some(Unplayed::Absent);
            }
        }
        "wood-county" => {
            // GT-M2: snow closed Lake High School on the day of its round 8 home match; the
            // advisors moved it to the next day.
            let just_played = c.rounds.last().map(|r| r.number);
            let day = c.rounds.iter().find(|r| r.number == 8).and_then(|r| r.date);
            if just_played == Some(8)
                && let Some((m, _)) = match_of(c, 8, "lake")
                && let Some(day) = day.and_then(|d| d.tomorrow().ok())
            {
                m.date = Some(day);
            }
            // GT-M3, GT-M6: Rossford could not field a team twice; GT-M5 drops it with two of
            // its ten matches played, so all its matches leave the statistics. The rest of
            // its schedule is never played.
            // GT-M17: a Bowling Green player's phone went off twice after the referee's
            // warning; the coaches agreed that the board was forfeited.
            forfeit_board(
                c,
                3,
                "bg",
                2,
                Unplayed::Conduct {
                    note: "Phone rang twice during the game after a warning at the first ring."
                        .into(),
                },
            );
            // GT-M20: Perrysburg's first board ran out of time before the end of the day;
            // the position was sent to the President, who decided it.
            adjudicated_board(c, 4, "perrysburg", 0);
            for round in [2, 4] {
                if let Some((m, side)) = match_of(c, round, "rossford") {
                    m.outcome = MatchOutcome::Forfeit { by: side };
                }
            }
            for round in 5..=10 {
                if let Some((m, _)) = match_of(c, round, "rossford") {
                    m.outcome = MatchOutcome::Pending;
                }
            }
        }
        _ => {}
    }
}

/// GT-M20: board `index` of `team`'s round `round` match was sent for adjudication with this
/// position (an endgame of bishop against knight), and the President's decision is the result
/// the board already has; a board not played over the board is left alone.
fn adjudicated_board(c: &mut Competition, round: u32, team: &str, index: usize) {
    if let Some((m, _)) = match_of(c, round, team)
        && let MatchOutcome::Boards(boards) = &mut m.outcome
        && let Some(b) = boards.get_mut(index)
        && b.result.is_played()
    {
        b.unfinished = Some(Unfinished::Adjudication(AdjudicationPosition {
            pgn: "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 \
                  8. Nb3 Qxd1 9. Rxd1 Bd6 10. Na3 Be6 11. Be3 O-O-O 12. Na5 Ne7 13. N5c4 Bxc4 \
                  14. Nxc4 b6 15. Nxd6+ Rxd6 16. Rxd6 cxd6 17. Rd1 Kc7 18. f3 Rd8 19. Kf2 Nc6 \
                  20. c3 Ne5 21. b3 g5 22. h3 h5"
                .into(),
            fen: "3r4/2k5/pp1p1p2/2p1n1pp/4P3/1PP1BP1P/P4KP1/3R4 w - - 0 23".into(),
            home_clock: Some("0:03:40".into()),
            away_clock: Some("0:05:15".into()),
        }));
    }
}

/// `team` forfeits board `index` (0 is board 1) of its round `round` match for the reason `why`
/// (GT-M16, GT-M17): the opponent wins it by default; the game was not played, so it is not
/// rated (GT-M7).
fn forfeit_board(c: &mut Competition, round: u32, team: &str, index: usize, why: Unplayed) {
    if let Some((m, side)) = match_of(c, round, team)
        && let MatchOutcome::Boards(boards) = &mut m.outcome
        && let Some(b) = boards.get_mut(index)
    {
        b.result = match side {
            Side::Home => GameResult::AwayWinByForfeit,
            Side::Away => GameResult::HomeWinByForfeit,
        };
        b.rating_result = None;
        b.unplayed = Some(why);
    }
}

/// GT-R5, GT-P3: the last roster players of `team`'s round `round` match play a challenge game
/// beside it, White for the home team's, entered by the school on `entered_by` with the steps
/// `events` taken on it since; once, however often the season's events are replayed.
fn challenge_game(
    c: &mut Competition,
    round: u32,
    team: &str,
    entered_by: Side,
    events: Vec<ExtraEvent>,
) {
    let last = |id: &TeamId| {
        c.teams
            .iter()
            .find(|t| &t.id == id)
            .and_then(|t| t.players.last())
            .map(|p| p.id.clone())
    };
    let Some((home, away)) = c.rounds.iter().find(|r| r.number == round).and_then(|r| {
        r.pairings.iter().find_map(|p| match p {
            Pairing::Match(m) if m.home.0 == team || m.away.0 == team => {
                Some((last(&m.home)?, last(&m.away)?))
            }
            _ => None,
        })
    }) else {
        return;
    };
    if let Some((m, _)) = match_of(c, round, team)
        && m.extra_games.is_empty()
    {
        m.extra_games.push(ExtraGame {
            white: home,
            black: away,
            result: GameResult::Draw,
            kind: ExtraKind::Challenge,
            entered_by: Some(entered_by),
            events,
        });
    }
}

/// Toledo-area schools outside the demo's divisions, for a large benchmark division.
const MORE_SCHOOLS: &[&str] = &[
    "Bowsher",
    "Waite",
    "Rogers",
    "Scott",
    "Toledo Early College",
    "Toledo School for the Arts",
    "St. Francis de Sales",
    "Toledo Christian",
    "Clay",
    "Oregon",
    "Genoa",
    "Northwood",
    "Swanton",
    "Evergreen",
    "Archbold",
    "Napoleon",
    "Wauseon",
    "Delta",
    "Fremont Ross",
    "Port Clinton",
    "Elmwood",
    "Woodmore",
    "Liberty Center",
    "Patrick Henry",
];

/// The days of a benchmark division's rounds: over the season's Mondays and Wednesdays when
/// they are enough (16 teams), else over every school day, the season going on as long as the
/// rounds need (a division of hundreds of teams is a benchmark's, not a league's).
fn benchmark_dates(s: &Schedule) -> Result<Vec<Date>, ScheduleError> {
    let calendar = calendar();
    schedule::place(s, &calendar, &gthscl_rules().match_days, Spacing::Even).or_else(|_| {
        // Seven days a week for five school days, and a month for the closures.
        let days = i64::try_from(s.rounds.len()).unwrap_or(i64::MAX) * 7 / 5 + 30;
        let longer = SchoolCalendar {
            ends_on: SEASON_START
                .saturating_add(jiff::Span::new().days(days))
                .max(SEASON_END),
            ..calendar
        };
        schedule::place(s, &longer, &SCHOOL_WEEK, Spacing::Even)
    })
}

/// A single round robin of `teams` teams under the GTHSCL rules, every round played: the size
/// of division a benchmark measures.
pub fn large_division(teams: usize) -> DemoCompetition {
    let mut rng = Rng::from_label("large-division", teams as u64);
    let mut names = Names::new(OHIO);
    let mut strength = Strength::new();
    let list: Vec<Team> = (0..teams)
        .map(|i| {
            let name = MORE_SCHOOLS
                .get(i)
                .map_or_else(|| format!("Team {}", i + 1), |s| (*s).to_string());
            let id = name
                .to_lowercase()
                .replace(['.', ' '], "-")
                .replace("--", "-");
            let base = 1300 + rng.range(0, 320);
            let p = players(&mut rng, &mut names, Mixed, base, 5, 1);
            finish(&id, &name, &name, p, &mut strength)
        })
        .collect();
    let ids: Vec<TeamId> = list.iter().map(|t| t.id.clone()).collect();
    let n = u32::try_from(teams).unwrap_or(0);
    let (rounds, dates) = schedule::round_robin(n, Cycles::Single)
        .and_then(|s| Ok((schedule::apply_to(&s, &ids)?, benchmark_dates(&s)?)))
        .unwrap_or_default();
    let mut competition = Competition {
        name: format!("GTHSCL large division of {teams} teams"),
        teams: list,
        rounds: Vec::with_capacity(rounds.len()),
    };
    for (mut round, day) in rounds.into_iter().zip(dates) {
        round.date = Some(day);
        play_round(&mut round, &competition, &strength, &mut rng);
        competition.rounds.push(round);
    }
    DemoCompetition {
        slug: format!("large-{teams}"),
        name: format!("Large Division ({teams} teams)"),
        rules: "gthscl".into(),
        competition,
        lineups: Vec::new(),
        game_scores: Vec::new(),
    }
}
