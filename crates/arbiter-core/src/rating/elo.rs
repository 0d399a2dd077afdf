//! The Elo formulas: FIDE's (Handbook B.02: the table, the 400-point rule, the K rules) and the
//! league's (the logistic curve, with the same cap).

use jiff::civil::Date;

use super::{Entrant, Standing, years_between};

/// B.02 8.1.2: the highest rating difference D of each step of the table, with the higher-rated
/// player's expected score PD in percent; from 736 on, 100.
const FIDE_TABLE: [(u32, u8); 50] = [
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
];

/// B.02's 400-point rule: a larger difference counts as 400.
const FIDE_MAX_DIFFERENCE: u32 = 400;

/// B.02 8.3.3: K is lowered so that K × games in one rating period is at most 700.
const FIDE_MAX_K_TIMES_GAMES: u32 = 700;

/// The expected score in percent of a player rated `rating` against `opponent`, from B.02's
/// table (not the logistic curve), a difference over 400 counting as 400.
pub fn fide_expected_percent(rating: f64, opponent: f64) -> u8 {
    let gap = (rating - opponent).abs().round();
    // The gap is a whole, non-negative number of rating points; 400 caps it.
    let d = if gap >= f64::from(FIDE_MAX_DIFFERENCE) {
        FIDE_MAX_DIFFERENCE
    } else {
        gap as u32
    };
    let higher = FIDE_TABLE
        .iter()
        .find(|&&(upto, _)| d <= upto)
        .map_or(100, |&(_, pd)| pd);
    if rating >= opponent {
        higher
    } else {
        100 - higher
    }
}

/// B.02's K for a player's games in one rating period of `games` games on `on`: the record's own
/// K when it gives one; else 40 for a player with under 30 rated games (when the record says how
/// many), 40 under 18 while below 2300, 10 from 2400, 20 otherwise; lowered so that K × games is
/// at most 700.
pub fn fide_k(entrant: &Entrant, now: &Standing, games: u32, on: Option<Date>) -> u32 {
    if let Some(k) = entrant.k {
        return k;
    }
    let junior = match (entrant.birth_date, on) {
        (Some(born), Some(on)) => years_between(born, on) < 18,
        _ => false,
    };
    let new = entrant.rated_games.is_some() && now.games < 30;
    let k = if new || (junior && now.rating < 2300.0) {
        40
    } else if now.rating >= 2400.0 {
        10
    } else {
        20
    };
    if games > 0 && k * games > FIDE_MAX_K_TIMES_GAMES {
        FIDE_MAX_K_TIMES_GAMES / games
    } else {
        k
    }
}

/// The league's expected score: the logistic curve 1 / (1 + 10^(−D/400)), a difference over
/// 400 counting as 400 as in FIDE's rule, so a mismatch between schools cannot cost the stronger
/// player more than a few points.
pub(super) fn league_expected(rating: f64, opponent: f64) -> f64 {
    let d = (rating - opponent).clamp(-400.0, 400.0);
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}
