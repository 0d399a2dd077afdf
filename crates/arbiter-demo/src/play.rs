//! Results drawn from playing strength: the Elo expectation split into win, draw and loss.

use arbiter_core::record::model::GameResult;

use crate::rng::Rng;

/// One game between players of the given strengths, from the home player's side. `draw_rate`
/// is the share of draws between equal players (juniors draw less than seniors).
pub fn game(rng: &mut Rng, home: i32, away: i32, draw_rate: f64) -> GameResult {
    let expected = 1.0 / (1.0 + 10f64.powf(f64::from(away - home) / 400.0));
    // Draws are likeliest between equals and vanish as the gap grows.
    let draw = draw_rate * (1.0 - (2.0 * expected - 1.0).abs());
    let home_win = expected - draw / 2.0;
    let u = rng.unit();
    if u < home_win {
        GameResult::HomeWin
    } else if u < home_win + draw {
        GameResult::Draw
    } else {
        GameResult::AwayWin
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stronger_player_scores_more() {
        let mut rng = Rng::new(11);
        let mut score = 0.0;
        for _ in 0..2000 {
            score += match game(&mut rng, 1800, 1500, 0.2) {
                GameResult::HomeWin => 1.0,
                GameResult::Draw => 0.5,
                _ => 0.0,
            };
        }
        // Elo expects 0.85 for a 300-point edge.
        let share = score / 2000.0;
        assert!((0.80..0.90).contains(&share), "{share}");
    }
}
