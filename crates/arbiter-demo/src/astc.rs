//! The ASTC: four all-play-all competitions of state school teams (AS-2, AS-19), six-player
//! rosters in order of strength (AS-9, AS-10). Two editions: 2025 in Melbourne, every round
//! played (the previous championship, whose finish orders the next one's invitations, AS-8),
//! and 2026 in Adelaide, played up to the demo's day: before 7 December its rosters are in and
//! nothing is played, so an arbiter can run it from the roster lock to the final standings.

use std::collections::HashMap;

use arbiter_core::pairing::schedule::{self, Cycles};
use arbiter_core::record::model::{
    Board, Competition, GameResult, MatchOutcome, Pairing, Player, PlayerId, Team, TeamId,
};
use arbiter_core::{Ruleset, standings};
use jiff::ToSpan;
use jiff::civil::{Date, date};

use crate::names::{AUSTRALIA, Entrants, Names};
use crate::play;
use crate::rng::Rng;
use crate::{DemoCompetition, DemoEvent, DemoLeague, DemoSeason, LeagueKind};

/// One state's entry: the school that represents it (AS-4: one school per team).
struct Entry {
    id: &'static str,
    state: &'static str,
    school: &'static str,
    /// How far the state's juniors sit above or below the field, in rating points.
    edge: i32,
}

const fn entry(id: &'static str, state: &'static str, school: &'static str, edge: i32) -> Entry {
    Entry {
        id,
        state,
        school,
        edge,
    }
}

struct Field {
    slug: &'static str,
    name: &'static str,
    entrants: Entrants,
    /// The field's typical board-3 rating.
    level: i32,
    draw_rate: f64,
    entries: &'static [Entry],
    /// AS-18: two teams of this field end level on every criterion and share the place.
    shared_place: bool,
}

// SA hosts; AS-5 lets the host nominate a second team when the field would be 5 or 7.
const FIELDS: &[Field] = &[
    Field {
        slug: "secondary-open",
        name: "Secondary Open",
        entrants: Entrants::Mixed,
        level: 1720,
        draw_rate: 0.24,
        shared_place: false,
        entries: &[
            entry("vic", "VIC", "Melbourne High School", 120),
            entry("nsw", "NSW", "James Ruse Agricultural High School", 140),
            entry("qld", "QLD", "Brisbane State High School", 60),
            entry("wa", "WA", "Perth Modern School", 30),
            entry("sa", "SA", "Glenunga International High School", 10),
            entry("act", "ACT", "Canberra Grammar School", 20),
            entry("tas", "TAS", "Hobart College", -80),
            entry("nt", "NT", "Darwin High School", -190),
        ],
    },
    Field {
        slug: "secondary-girls",
        name: "Secondary Girls",
        entrants: Entrants::Girls,
        level: 1280,
        draw_rate: 0.16,
        shared_place: false,
        entries: &[
            entry("vic", "VIC", "The Mac.Robertson Girls' High School", 110),
            entry("nsw", "NSW", "North Sydney Girls High School", 90),
            entry("qld", "QLD", "Brisbane Girls Grammar School", 40),
            entry("wa", "WA", "Perth College", -20),
            entry("sa", "SA", "Adelaide High School", 0),
            entry("sa-2", "SA", "Seymour College", -110),
        ],
    },
    Field {
        slug: "primary-open",
        name: "Primary Open",
        entrants: Entrants::Mixed,
        level: 1180,
        draw_rate: 0.12,
        shared_place: false,
        entries: &[
            entry("vic", "VIC", "Balwyn North Primary School", 130),
            entry("nsw", "NSW", "Beecroft Public School", 110),
            entry("qld", "QLD", "Ironside State School", 50),
            entry("wa", "WA", "Rossmoyne Primary School", 20),
            entry("sa", "SA", "Highgate School", 0),
            entry("act", "ACT", "Telopea Park School", 10),
            entry("tas", "TAS", "Lenah Valley Primary School", -90),
            entry("sa-2", "SA", "Unley Primary School", -120),
        ],
    },
    Field {
        slug: "primary-girls",
        name: "Primary Girls",
        entrants: Entrants::Girls,
        level: 820,
        draw_rate: 0.10,
        shared_place: true,
        entries: &[
            entry("vic", "VIC", "Camberwell Primary School", 60),
            entry("nsw", "NSW", "Artarmon Public School", 60),
            entry("qld", "QLD", "Brisbane Central State School", 10),
            entry("wa", "WA", "Applecross Primary School", 10),
            entry("sa", "SA", "Walford Anglican School for Girls", 0),
            entry("act", "ACT", "North Ainslie Primary School", -70),
        ],
    },
];

/// One championship: where and when it is held, and the hall's offset from UTC.
struct Edition {
    year: i16,
    season: &'static str,
    host: arbiter_core::event::field::State,
    venue: &'static str,
    utc_offset_minutes: i32,
    /// The Monday of its four days.
    first_day: Date,
}

const EDITIONS: [Edition; 2] = [
    Edition {
        year: 2025,
        season: "2025, Melbourne",
        host: arbiter_core::event::field::State::Vic,
        venue: "Melbourne High School, the Great Hall",
        utc_offset_minutes: 660,
        first_day: date(2025, 12, 8),
    },
    Edition {
        year: 2026,
        season: "2026, Adelaide",
        host: arbiter_core::event::field::State::Sa,
        venue: "Adelaide Convention Centre, Hall C",
        utc_offset_minutes: 630,
        first_day: date(2026, 12, 7),
    },
];

impl Edition {
    /// Open fields play seven rounds over four days; the Girls fields five rounds over the
    /// first three (AS-3: on shared dates no player plays in both).
    fn round_date(&self, round: u32) -> Date {
        let day = i64::from(round.saturating_sub(1) / 2).min(3);
        self.first_day
            .checked_add(day.days())
            .unwrap_or(self.first_day)
    }

    fn last_day(&self) -> Date {
        self.round_date(7)
    }

    /// The event as the arbiter set it: the morning round at 09:30 and the afternoon one at
    /// 14:00 on each day (AS-1, AS-3).
    fn event(&self, competitions: &[DemoCompetition]) -> DemoEvent {
        let start = |round: u32| {
            let (h, m) = if round % 2 == 1 { (9, 30) } else { (14, 0) };
            self.round_date(round).at(h, m, 0, 0)
        };
        DemoEvent {
            name: format!("ASTC {}", self.year),
            host: self.host,
            venue: self.venue.into(),
            utc_offset_minutes: self.utc_offset_minutes,
            round_starts: competitions
                .iter()
                .map(|c| {
                    let starts = c
                        .competition
                        .rounds
                        .iter()
                        .map(|r| start(r.number))
                        .collect();
                    (c.slug.clone(), starts)
                })
                .collect(),
        }
    }

    /// A field's address: a competition's slug is the league's, once across its seasons, so
    /// the earlier edition's carries its year.
    fn slug(&self, f: &Field) -> String {
        self.label(f)
    }

    /// The seed of a field's lot and results: 2026's as it always was, another for 2025.
    fn label(&self, f: &Field) -> String {
        if self.year == 2026 {
            f.slug.to_string()
        } else {
            format!("{}-{}", f.slug, self.year)
        }
    }
}

/// The ASTC as of `today`: the 2025 championship finished; 2026's rounds on days before
/// `today` played, the rest still to play (from `today` on, a round is the arbiter's to run).
pub fn league(today: Date) -> DemoLeague {
    let mut names = Names::new(AUSTRALIA);
    let seasons = EDITIONS
        .iter()
        .map(|edition| {
            let competitions: Vec<DemoCompetition> = FIELDS
                .iter()
                .map(|f| field(f, edition, today, &mut names))
                .collect();
            DemoSeason {
                slug: edition.year.to_string(),
                name: edition.season.into(),
                starts_on: edition.first_day,
                ends_on: edition.last_day(),
                event: Some(edition.event(&competitions)),
                competitions,
                // AS: an event charges no entry fee by its rules (`astc` has no `[fees]`).
                ledger: Vec::new(),
                closures: Vec::new(),
            }
        })
        .collect();
    DemoLeague {
        slug: "astc".into(),
        name: "Australian Schools Teams Championships".into(),
        kind: LeagueKind::Event,
        description: "The national championships of school teams, one school for each State \
                      and Territory in each of four competitions, played all-play-all over \
                      four days in December under ACF By-law 4. In 2026 South Australia hosts \
                      them in Adelaide."
            .into(),
        // The hall's zone: Adelaide, South Australia (+10:30 in December).
        time_zone: "Australia/Adelaide",
        seasons,
        treasurer: None,
        school_addresses: Vec::new(),
    }
}

fn field(f: &Field, edition: &Edition, today: Date, names: &mut Names) -> DemoCompetition {
    let label = edition.label(f);
    let mut rng = Rng::from_label(&label, 0);
    let mut strength: HashMap<PlayerId, i32> = HashMap::new();
    let mut teams: Vec<Team> = f
        .entries
        .iter()
        .map(|e| team(f, e, &mut rng, names, &mut strength))
        .collect();
    // AS-19: the Berger numbers are drawn by lot.
    rng.shuffle(&mut teams);
    let ids: Vec<TeamId> = teams.iter().map(|t| t.id.clone()).collect();
    let n = u32::try_from(teams.len()).unwrap_or(0);
    let rounds = schedule::round_robin(n, Cycles::Single)
        .and_then(|s| schedule::apply_to(&s, &ids))
        .unwrap_or_default();
    let mut competition = Competition {
        name: format!("ASTC {} {}", edition.year, f.name),
        teams,
        rounds,
    };
    let pair = if f.shared_place {
        closest_pair(&competition, &strength)
    } else {
        None
    };
    let rules = Ruleset::preset("astc");
    // Results are drawn attempt by attempt until the field shows what it is meant to show; the
    // first attempt that does is the same on every run.
    for attempt in 0..5000 {
        let mut results = Rng::from_label(&label, 1 + attempt);
        play_rounds(
            &mut competition,
            f,
            edition,
            &strength,
            pair.as_ref(),
            &mut results,
        );
        let Some((a, b)) = &pair else { break };
        let Some(rules) = &rules else { break };
        if shares_place(&competition, rules, a, b) {
            break;
        }
    }
    // What has not happened by `today` is still to be played: the arbiter's rounds to run.
    for round in &mut competition.rounds {
        if round.date.is_some_and(|d| d >= today) {
            for p in &mut round.pairings {
                if let Pairing::Match(m) = p {
                    m.outcome = MatchOutcome::Pending;
                }
            }
        }
    }
    DemoCompetition {
        slug: edition.slug(f),
        name: f.name.into(),
        rules: "astc".into(),
        competition,
        lineups: Vec::new(),
        game_scores: Vec::new(),
    }
}

fn team(
    f: &Field,
    e: &Entry,
    rng: &mut Rng,
    names: &mut Names,
    strength: &mut HashMap<PlayerId, i32>,
) -> Team {
    let base = f.level + e.edge + rng.range(-60, 60);
    // AS-10: entered in order of playing strength; the spread of a real school team.
    let mut players: Vec<(i32, String)> = [210, 110, 30, -40, -120, -200]
        .iter()
        .map(|o| {
            let s = (base + o + rng.range(-50, 50)).max(150);
            (s, names.next(rng, f.entrants))
        })
        .collect();
    players.sort_by_key(|p| std::cmp::Reverse(p.0));
    let players = players
        .into_iter()
        .zip(1..)
        .map(|((s, name), n)| {
            let id = PlayerId(format!("{}-{n}", e.id));
            strength.insert(id.clone(), s);
            // Some young reserves have no rating yet; their order comes from the school.
            let unrated = f.level < 1200 && n == 6 && rng.chance(0.35);
            Player {
                id,
                name,
                rating: (!unrated).then(|| u32::try_from(s).unwrap_or(0)),
                ..Player::default()
            }
        })
        .collect();
    Team {
        id: TeamId(e.id.into()),
        name: format!("{} ({})", e.school, e.state),
        school: Some(e.school.into()),
        players,
    }
}

/// The two teams of most nearly equal strength (their four boards' mean).
fn closest_pair(c: &Competition, strength: &HashMap<PlayerId, i32>) -> Option<(TeamId, TeamId)> {
    let mean = |t: &Team| -> i32 {
        t.players
            .iter()
            .take(4)
            .map(|p| strength.get(&p.id).copied().unwrap_or(0))
            .sum::<i32>()
            / 4
    };
    let mut best: Option<(i32, TeamId, TeamId)> = None;
    for (i, a) in c.teams.iter().enumerate() {
        for b in &c.teams[i + 1..] {
            let gap = (mean(a) - mean(b)).abs();
            if best.as_ref().is_none_or(|(g, _, _)| gap < *g) {
                best = Some((gap, a.id.clone(), b.id.clone()));
            }
        }
    }
    best.map(|(_, a, b)| (a, b))
}

fn shares_place(c: &Competition, rules: &Ruleset, a: &TeamId, b: &TeamId) -> bool {
    let Ok(s) = standings(c, rules) else {
        return false;
    };
    let rank = |id: &TeamId| {
        let i = c.team_index(id)?;
        s.rows.iter().find(|r| r.team == i).map(|r| r.rank)
    };
    matches!((rank(a), rank(b)), (Some(x), Some(y)) if x == y)
}

fn play_rounds(
    c: &mut Competition,
    f: &Field,
    edition: &Edition,
    strength: &HashMap<PlayerId, i32>,
    pair: Option<&(TeamId, TeamId)>,
    rng: &mut Rng,
) {
    let rosters: HashMap<TeamId, Vec<PlayerId>> = c
        .teams
        .iter()
        .map(|t| {
            (
                t.id.clone(),
                t.players.iter().map(|p| p.id.clone()).collect(),
            )
        })
        .collect();
    for round in &mut c.rounds {
        round.date = Some(edition.round_date(round.number));
        for p in &mut round.pairings {
            let Pairing::Match(m) = p else { continue };
            let (Some(home), Some(away)) = (rosters.get(&m.home), rosters.get(&m.away)) else {
                continue;
            };
            let home = lineup(home, rng);
            let away = lineup(away, rng);
            let level = pair.is_some_and(|(a, b)| {
                (&m.home == a && &m.away == b) || (&m.home == b && &m.away == a)
            });
            m.outcome = MatchOutcome::Boards(
                home.iter()
                    .zip(&away)
                    .map(|(h, a)| {
                        let s = |p: &PlayerId| strength.get(p).copied().unwrap_or(0);
                        let result = if level {
                            // Four quick draws between the two equal teams.
                            GameResult::Draw
                        } else {
                            play::game(rng, s(h), s(a), f.draw_rate)
                        };
                        Board {
                            home_player: Some(h.clone()),
                            away_player: Some(a.clone()),
                            ..Board::new(result)
                        }
                    })
                    .collect(),
            );
        }
    }
}

/// AS-10, AS-11: four players of the six, keeping the declared order; the reserves rest most.
fn lineup(roster: &[PlayerId], rng: &mut Rng) -> Vec<PlayerId> {
    let mut weights = [0.0, 0.04, 0.12, 0.25, 0.7, 0.9];
    let mut resting = Vec::with_capacity(2);
    let rest = roster.len().saturating_sub(4);
    for _ in 0..rest {
        let total: f64 = weights.iter().take(roster.len()).sum();
        let mut u = rng.unit() * total;
        let mut chosen = roster.len().min(weights.len()) - 1;
        for (i, w) in weights.iter().take(roster.len()).enumerate() {
            if u < *w {
                chosen = i;
                break;
            }
            u -= w;
        }
        weights[chosen] = 0.0;
        resting.push(chosen);
    }
    roster
        .iter()
        .enumerate()
        .filter(|(i, _)| !resting.contains(i))
        .map(|(_, p)| p.clone())
        .take(4)
        .collect()
}
