//! A competition's ratings as the pages and the API read them. Core rates every game once per
//! data version (`rated_games::rate`, under the ruleset's `[rating]`, GT-R3); this finds each
//! player's line of the rating list and the history of their rating, period by period.

use arbiter_core::rating::rated_games::RatedCompetition;
use arbiter_core::rating::{Standing, Summary};
use arbiter_core::record::model::Player;

use crate::app::view::{CompetitionView, RatingOrder};

/// One player's line of the rating list.
#[derive(Debug, Clone)]
pub struct RatingLine<'a> {
    /// The team's index in the competition.
    pub team: usize,
    /// The player, as the roster has them.
    pub player: &'a Player,
    /// Their rating before the first rated game and now, their games and score.
    pub summary: Summary,
}

/// One game of a player's rating history.
#[derive(Debug, Clone)]
pub struct RatedGameLine<'a> {
    /// The round and board it was played on.
    pub round: u32,
    pub board: u32,
    /// The opponent and their team's index, when the roster still has them.
    pub opponent: Option<(&'a Player, usize)>,
    /// The opponent's rating before the period.
    pub opponent_rating: f64,
    /// The player's points and expected points.
    pub score: f64,
    pub expected: f64,
    /// This game's share of the change (the Elo systems).
    pub change: Option<f64>,
}

/// One rating period of a player (a match day): the rating before and after, and its games.
#[derive(Debug, Clone)]
pub struct PeriodLine<'a> {
    /// The match day, when the schedule dates it.
    pub date: Option<jiff::civil::Date>,
    pub before: Standing,
    pub after: Standing,
    /// The change before rounding.
    pub change: f64,
    pub games: Vec<RatedGameLine<'a>>,
}

impl CompetitionView {
    /// The entrant index core rated `(team, position)` as: rosters one after another, as
    /// `rated_games` lists the players.
    pub fn entrant(&self, team: usize, position: usize) -> usize {
        let before: usize = self.competition.teams[..team]
            .iter()
            .map(|t| t.players.len())
            .sum();
        before + position
    }

    /// The player core rated as entrant `index`, with their team's index.
    fn entrant_player(&self, rated: &RatedCompetition, index: usize) -> Option<(&Player, usize)> {
        let (_, id) = rated.games.players.get(index)?;
        self.player(&id.0)
    }

    /// Every rostered player's line, in `order`; ties by name.
    pub fn rating_lines(&self, order: RatingOrder) -> Vec<RatingLine<'_>> {
        let Ok(rated) = self.rated() else {
            return Vec::new();
        };
        let mut lines: Vec<RatingLine<'_>> = self
            .competition
            .teams
            .iter()
            .enumerate()
            .flat_map(|(t, team)| team.players.iter().enumerate().map(move |(p, x)| (t, p, x)))
            .filter_map(|(t, p, player)| {
                let summary = rated.replay.summary(self.entrant(t, p))?;
                Some(RatingLine {
                    team: t,
                    player,
                    summary,
                })
            })
            .collect();
        lines.sort_by(|a, b| compare(order, a, b, a.team.cmp(&b.team)));
        lines
    }

    /// A player's rating, period by period, with each game's opponent, expected score and
    /// change.
    pub fn rating_history(&self, team: usize, position: usize) -> Vec<PeriodLine<'_>> {
        let Ok(rated) = self.rated() else {
            return Vec::new();
        };
        let replay = &rated.replay;
        replay
            .periods_of(self.entrant(team, position))
            .map(|period| {
                let places = rated.games.places.get(period.period as usize);
                let games = replay
                    .games_of(period)
                    .iter()
                    .map(|g| {
                        let place = places.and_then(|p| p.get(g.game as usize));
                        RatedGameLine {
                            round: place.map_or(0, |p| p.round),
                            board: place.map_or(0, |p| p.board),
                            opponent: self.entrant_player(rated, g.opponent as usize),
                            opponent_rating: g.opponent_rating,
                            score: g.score,
                            expected: g.expected,
                            change: g.change,
                        }
                    })
                    .collect();
                PeriodLine {
                    date: replay.dates.get(period.period as usize).copied().flatten(),
                    before: period.before,
                    after: period.after,
                    change: period.change,
                    games,
                }
            })
            .collect()
    }
}

/// The order of two lines of a rating list; `teams` is the order of their teams (the list of a
/// season puts a division's teams after the one before). Ties by name.
pub fn compare(
    order: RatingOrder,
    a: &RatingLine<'_>,
    b: &RatingLine<'_>,
    teams: std::cmp::Ordering,
) -> std::cmp::Ordering {
    let by_rating = || {
        b.summary
            .after
            .rated
            .cmp(&a.summary.after.rated)
            .then(b.summary.after.rating.total_cmp(&a.summary.after.rating))
    };
    match order {
        RatingOrder::Rating => by_rating(),
        RatingOrder::Name => std::cmp::Ordering::Equal,
        RatingOrder::Team => teams.then_with(by_rating),
        RatingOrder::Games => b.summary.games.cmp(&a.summary.games),
        RatingOrder::Change => b.summary.change.total_cmp(&a.summary.change),
    }
    .then_with(|| a.player.name.cmp(&b.player.name))
}

/// One line of a season's rating list: the player's line in their competition's list.
pub struct SeasonRatingLine<'a> {
    /// The competition's index in the season's list.
    pub division: usize,
    pub view: &'a CompetitionView,
    pub line: RatingLine<'a>,
}

/// Every rostered player of every competition of a season, in `order`: the league's rating
/// list (GT-R1's "League rating"). Each competition is rated as its own page rates it.
pub fn season_lines(
    views: &[std::sync::Arc<CompetitionView>],
    order: RatingOrder,
) -> Vec<SeasonRatingLine<'_>> {
    let mut lines: Vec<SeasonRatingLine<'_>> = views
        .iter()
        .enumerate()
        .flat_map(|(division, view)| {
            view.rating_lines(order)
                .into_iter()
                .map(move |line| SeasonRatingLine {
                    division,
                    view,
                    line,
                })
        })
        .collect();
    lines.sort_by(|a, b| {
        compare(
            order,
            &a.line,
            &b.line,
            (a.division, a.line.team).cmp(&(b.division, b.line.team)),
        )
    });
    lines
}

/// A rating as people read it: `1450`, `1200N` while provisional (GT-R3), `unrated`.
pub fn shown(s: &Standing) -> String {
    if s.rated {
        arbiter_core::record::model::rating_text(s.published(), s.provisional)
    } else {
        "unrated".into()
    }
}

/// A change as a rating list prints it: `+12.4`, `−3.0`, `0`.
pub fn signed(change: f64) -> String {
    let tenths = (change * 10.0).round() / 10.0;
    if tenths == 0.0 {
        "0".into()
    } else if tenths > 0.0 {
        format!("+{tenths:.1}")
    } else {
        format!("\u{2212}{:.1}", -tenths)
    }
}
