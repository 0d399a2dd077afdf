//! The field before a round: every team's scores, colours, floats and meetings, read from the
//! rounds before it as FIDE's checker reads them (a match is played when a game was played over
//! the board or both teams scored; a team's colour is the one of its first board, art. 1.6).

use crate::record::model::{ByeKind, Colour, Competition, GameOutcome, Pairing, Side};
use crate::rules::criteria::ScoreBasis;
use crate::rules::ruleset::{ColourPreferences, Ruleset};
use crate::scoring::{self, EntryKind};

/// A colour preference (art. 1.7): the colour, and whether it is strong (type A's only kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Preference {
    pub colour: Colour,
    pub strong: bool,
}

/// One team as the pairing of the round sees it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entrant {
    /// Art. 1.1: the team's pairing number, its place in the competition's list.
    pub tpn: u32,
    /// To be paired in this round.
    pub present: bool,
    /// Art. 1.2: the primary and the secondary score after the rounds before.
    pub primary: f64,
    pub secondary: f64,
    /// The pairing score: the primary score and any virtual points (C.04.7).
    pub pairing_score: f64,
    /// Matches played (art. 1.6), not counting byes and forfeits.
    pub played: u32,
    /// Art. 1.6.2: matches with White less matches with Black.
    pub colour_difference: i32,
    /// Art. 1.6.1: the colours of the played matches, in order.
    pub colours: Vec<Colour>,
    pub preference: Option<Preference>,
    /// Art. 1.5: the team played an opponent with another pairing score in the previous round.
    pub floated: bool,
    /// Art. 2.1.2 [C2]: no pairing-allocated bye, full-point bye or forfeit win yet.
    pub may_have_bye: bool,
    /// Its scoregroup: 1 for the lowest pairing score among the teams paired, and up.
    pub level: usize,
}

/// Every team, and who may meet whom (art. 2.1).
#[derive(Debug, Clone)]
pub(crate) struct Field {
    pub teams: Vec<Entrant>,
    can_meet: Vec<bool>,
    /// How often each two teams met in the rounds before (art. 1.6's played matches).
    met: Vec<u32>,
    /// The round being paired and the event's length (art. 2.3.4, 2.3.7, 1.7.2).
    pub round: u32,
    pub rounds: u32,
    pub colour_preferences: ColourPreferences,
    pub secondary_for_colours: bool,
    /// The pairing score of each scoregroup, by level (index 0 unused).
    pub level_scores: Vec<f64>,
}

impl Field {
    pub fn can_meet(&self, a: usize, b: usize) -> bool {
        self.can_meet[a * self.teams.len() + b]
    }

    /// How often teams `a` and `b` (indices in the competition's list) played each other before.
    pub fn meetings(&self, a: usize, b: usize) -> u32 {
        self.met[a * self.teams.len() + b]
    }

    /// Art. 2.3.4 [C7] and 2.3.7 [C10] do not apply in the last two rounds.
    pub fn last_two_rounds(&self) -> bool {
        self.round + 2 > self.rounds
    }

    /// Builds the field for `round` from the rounds before it; `present` says who is paired.
    pub fn new(
        competition: &Competition,
        rules: &Ruleset,
        round: u32,
        rounds: u32,
        present: &[bool],
    ) -> Field {
        let settings = &rules.pairing;
        let n = competition.teams.len();
        let before = Competition {
            name: competition.name.clone(),
            teams: competition.teams.clone(),
            rounds: competition
                .rounds
                .iter()
                .filter(|r| r.number < round)
                .cloned()
                .collect(),
        };
        let sheet = scoring::score(&before, rules);
        // Which side had White on board 1 of every match (art. 1.6: the first board's colour).
        let home_white = rules.colour(None, 1, Side::Home) == Colour::White;

        let r = usize::try_from(round).unwrap_or(0);
        // Per team, per round before this one: (opponent, played, won, primary, secondary).
        let mut record: Vec<Vec<Option<RoundSeen>>> = vec![vec![None; r]; n];
        for (t, score) in sheet.teams.iter().enumerate() {
            for e in score.entries.iter().filter(|e| e.counts()) {
                let i = usize::try_from(e.round).unwrap_or(0);
                if i == 0 || i >= r {
                    continue;
                }
                record[t][i] = Some(seen(e, rules, home_white));
            }
        }

        let accel = |tpn: u32, rnd: u32| -> f64 {
            settings
                .acceleration
                .iter()
                .filter(|a| {
                    (a.first_round..=a.last_round).contains(&rnd)
                        && (a.first_team..=a.last_team).contains(&tpn)
                })
                .map(|a| match settings.primary {
                    ScoreBasis::MatchPoints => a.match_points,
                    ScoreBasis::GamePoints => a.game_points,
                })
                .next_back()
                .unwrap_or(0.0)
        };
        // The primary score after each round, for the floats of art. 1.5.
        let mut after: Vec<Vec<f64>> = vec![vec![0.0; r.max(1)]; n];
        for t in 0..n {
            let mut sum = 0.0;
            for i in 1..r {
                if let Some(s) = &record[t][i] {
                    sum += s.score(settings.primary);
                }
                after[t][i] = sum;
            }
        }
        let tpn = |t: usize| u32::try_from(t + 1).unwrap_or(u32::MAX);
        let pairing_before = |t: usize, rnd: usize| after[t][rnd - 1] + accel(tpn(t), rnd as u32);

        let mut met = vec![0u32; n * n];
        let mut teams: Vec<Entrant> = (0..n)
            .map(|t| {
                let mut e = Entrant {
                    tpn: tpn(t),
                    present: present.get(t).copied().unwrap_or(false),
                    primary: 0.0,
                    secondary: 0.0,
                    pairing_score: 0.0,
                    played: 0,
                    colour_difference: 0,
                    colours: Vec::new(),
                    preference: None,
                    floated: false,
                    may_have_bye: true,
                    level: 0,
                };
                for s in record[t].iter().skip(1).flatten() {
                    e.primary += s.score(settings.primary);
                    e.secondary += s.score(other(settings.primary));
                    if s.pab || (s.won && !s.played) {
                        e.may_have_bye = false;
                    }
                    if let (true, Some(o)) = (s.played, s.opponent) {
                        e.played += 1;
                        met[t * n + o] += 1;
                        e.colours.push(s.colour);
                        e.colour_difference += if s.colour == Colour::White { 1 } else { -1 };
                    }
                }
                if r >= 2
                    && let Some(s) = &record[t][r - 1]
                    && let (true, Some(o)) = (s.played, s.opponent)
                {
                    e.floated = pairing_before(t, r - 1) != pairing_before(o, r - 1);
                }
                e.pairing_score = e.primary + accel(e.tpn, round);
                e
            })
            .collect();
        for e in &mut teams {
            e.preference = preference(
                settings.colour_preferences,
                e.colour_difference,
                &e.colours,
                round == rounds,
            );
        }

        // Scoregroups: the pairing scores of the teams paired, lowest first.
        let mut scores: Vec<f64> = teams
            .iter()
            .filter(|e| e.present)
            .map(|e| e.pairing_score)
            .collect();
        scores.sort_by(f64::total_cmp);
        scores.dedup();
        for e in teams.iter_mut().filter(|e| e.present) {
            e.level = 1 + scores
                .iter()
                .position(|&s| s == e.pairing_score)
                .unwrap_or(0);
        }
        let mut level_scores = vec![f64::NEG_INFINITY];
        level_scores.extend(scores);

        let mut can_meet = vec![false; n * n];
        for a in 0..n {
            for b in 0..n {
                can_meet[a * n + b] = a != b
                    && teams[a].present
                    && teams[b].present
                    && met[a * n + b] < settings.max_meetings;
            }
        }
        for ban in settings.forbidden.iter().filter(|f| f.holds_in(round)) {
            let idx: Vec<usize> = ban
                .teams
                .iter()
                .filter_map(|id| competition.team_index(&crate::record::model::TeamId(id.clone())))
                .collect();
            for &a in &idx {
                for &b in &idx {
                    can_meet[a * n + b] = false;
                }
            }
        }
        Field {
            teams,
            can_meet,
            met,
            round,
            rounds,
            colour_preferences: settings.colour_preferences,
            secondary_for_colours: settings.secondary_for_colours,
            level_scores,
        }
    }
}

/// What one round was for one team, in the terms the pairing asks about.
#[derive(Debug, Clone, Copy)]
struct RoundSeen {
    opponent: Option<usize>,
    played: bool,
    pab: bool,
    won: bool,
    colour: Colour,
    match_points: f64,
    game_points: f64,
}

impl RoundSeen {
    fn score(&self, basis: ScoreBasis) -> f64 {
        match basis {
            ScoreBasis::MatchPoints => self.match_points,
            ScoreBasis::GamePoints => self.game_points,
        }
    }
}

fn other(basis: ScoreBasis) -> ScoreBasis {
    match basis {
        ScoreBasis::MatchPoints => ScoreBasis::GamePoints,
        ScoreBasis::GamePoints => ScoreBasis::MatchPoints,
    }
}

fn seen(e: &scoring::RoundEntry, rules: &Ruleset, home_white: bool) -> RoundSeen {
    let white_side = if home_white { Side::Home } else { Side::Away };
    let mut s = RoundSeen {
        opponent: e.opponent,
        played: false,
        pab: false,
        won: false,
        colour: if e.side == Some(white_side) {
            Colour::White
        } else {
            Colour::Black
        },
        match_points: e.match_points,
        game_points: e.game_points,
    };
    match e.kind {
        EntryKind::Played => {
            let over_the_board = e.boards.iter().any(|b| {
                matches!(
                    b.outcome,
                    GameOutcome::Win | GameOutcome::Draw | GameOutcome::Loss
                )
            });
            let (own, theirs) = (e.game_points, e.opponent_game_points);
            // A match of forfeited boards only is played when both teams scored.
            s.played = over_the_board || (own > 0.0 && theirs > 0.0);
            s.won = own > theirs;
            let drawn = own == theirs && own > 0.0 && theirs > 0.0;
            s.match_points = if s.won {
                rules.match_points.win
            } else if drawn {
                rules.match_points.draw
            } else if s.played {
                rules.match_points.loss
            } else {
                0.0
            };
        }
        EntryKind::ForfeitWin => s.won = true,
        EntryKind::ForfeitLoss | EntryKind::DoubleForfeit | EntryKind::Pending => {}
        EntryKind::Bye(kind) => {
            s.opponent = None;
            s.pab = kind == ByeKind::PairingAllocated;
            s.played = s.pab;
            s.won = kind == ByeKind::FullPoint;
        }
    }
    s
}

/// Art. 1.7: the colour preference from the colour difference and the last two colours.
pub(crate) fn preference(
    kind: ColourPreferences,
    difference: i32,
    colours: &[Colour],
    last_round: bool,
) -> Option<Preference> {
    use Colour::{Black, White};
    if kind == ColourPreferences::None {
        return None;
    }
    let last_two = |c: Colour| colours.len() >= 2 && colours[colours.len() - 2..] == [c, c];
    let strong = |colour| {
        Some(Preference {
            colour,
            strong: true,
        })
    };
    let mild = |colour| {
        Some(Preference {
            colour,
            strong: false,
        })
    };
    // 1.7.1 and 1.7.2: the simple (type A) or strong (type B) preferences.
    if difference < -1 || ((difference == 0 || difference == -1) && last_two(Black)) {
        return strong(White);
    }
    if difference > 1 || ((difference == 0 || difference == 1) && last_two(White)) {
        return strong(Black);
    }
    if kind == ColourPreferences::TypeA {
        return None;
    }
    // 1.7.2: the mild preferences of type B.
    match difference {
        -1 => mild(White),
        1 => mild(Black),
        0 if !last_round => match colours.last() {
            Some(Black) => mild(White),
            Some(White) => mild(Black),
            None => None,
        },
        _ => None,
    }
}

/// Who is paired in `round` as the competition records it: when the round has matches, the
/// teams in them and the one with the pairing-allocated bye; otherwise every team without a
/// bye it asked for (a full-point, half-point or zero-point bye) in that round.
pub(crate) fn recorded_roster(competition: &Competition, round: u32) -> Vec<bool> {
    let n = competition.teams.len();
    let Some(r) = competition.rounds.iter().find(|r| r.number == round) else {
        return vec![true; n];
    };
    let index = |id| competition.team_index(id);
    if r.matches().next().is_some() {
        let mut present = vec![false; n];
        for p in &r.pairings {
            match p {
                Pairing::Match(m) => {
                    for id in [&m.home, &m.away] {
                        if let Some(i) = index(id) {
                            present[i] = true;
                        }
                    }
                }
                Pairing::Bye(b) if b.kind == ByeKind::PairingAllocated => {
                    if let Some(i) = index(&b.team) {
                        present[i] = true;
                    }
                }
                Pairing::Bye(_) => {}
            }
        }
        present
    } else {
        let mut present = vec![true; n];
        for p in &r.pairings {
            if let Pairing::Bye(b) = p
                && b.kind != ByeKind::PairingAllocated
                && let Some(i) = index(&b.team)
            {
                present[i] = false;
            }
        }
        present
    }
}
