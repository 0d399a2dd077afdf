//! Where a team sits in a published round of a team Swiss (issue 32, item 29): its table (the
//! match's place in the round, C.04.6 pairing order) and its colour on each board. In a team
//! match the colours alternate down the boards, the first-named team (the home side, which has
//! the pairing's colour, art. 4) holding it on board 1 (the ruleset's `white_on_odd_boards`).

use crate::record::model::{Colour, Match, MatchOutcome, Round, Side, TeamId};
use crate::rules::ruleset::Ruleset;

/// The table of the match `home` plays at home in `round`: its place among the round's
/// matches, counted from 1 (byes take no table).
pub fn table(round: &Round, home: &TeamId) -> Option<u32> {
    let at = round.matches().position(|m| &m.home == home)?;
    u32::try_from(at + 1).ok()
}

/// `side`'s colours in `m`, board by board: a board's recorded colour where it has one, else
/// the ruleset's alternation.
pub fn colours(rules: &Ruleset, m: &Match, side: Side) -> Vec<(u32, Colour)> {
    (1..=rules.boards)
        .map(|n| {
            let board = match &m.outcome {
                MatchOutcome::Boards(b) => usize::try_from(n - 1).ok().and_then(|i| b.get(i)),
                _ => None,
            };
            (n, rules.colour(board, n, side))
        })
        .collect()
}

/// `White on boards 1 and 3, Black on boards 2 and 4`: `side`'s colours in `m` in words, its
/// board-1 colour first; `White on board 1` at a one-board match.
pub fn colours_in_words(rules: &Ruleset, m: &Match, side: Side) -> String {
    let all = colours(rules, m, side);
    let Some(&(_, first)) = all.first() else {
        return String::new();
    };
    [first, first.other()]
        .into_iter()
        .filter_map(|c| {
            let boards: Vec<u32> = all
                .iter()
                .filter(|(_, x)| *x == c)
                .map(|(n, _)| *n)
                .collect();
            let name = match c {
                Colour::White => "White",
                Colour::Black => "Black",
            };
            match boards.as_slice() {
                [] => None,
                [one] => Some(format!("{name} on board {one}")),
                many => Some(format!(
                    "{name} on boards {}",
                    crate::record::words::list(many.iter().map(u32::to_string))
                )),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::Pairing;

    fn fide_team() -> Ruleset {
        Ruleset::preset("fide-team").expect("the preset parses")
    }

    fn pairing(home: &str, away: &str) -> Match {
        Match {
            home: TeamId(home.into()),
            away: TeamId(away.into()),
            outcome: MatchOutcome::Pending,
            date: None,
            start: None,
            extra_games: Vec::new(),
            late: None,
        }
    }

    #[test]
    fn c04_6_the_first_named_team_has_its_colour_on_board_1_and_the_colours_alternate() {
        let rules = fide_team();
        let m = pairing("a", "b");
        assert_eq!(
            colours_in_words(&rules, &m, Side::Home),
            "White on boards 1 and 3, Black on boards 2 and 4"
        );
        assert_eq!(
            colours_in_words(&rules, &m, Side::Away),
            "Black on boards 1 and 3, White on boards 2 and 4"
        );
    }

    #[test]
    fn a_one_board_match_says_board_in_the_singular() {
        let rules = Ruleset::from_toml(
            "one board",
            "extends = \"fide-team\"\nboards = 1\n",
            &crate::rules::ruleset::PresetsOnly,
        )
        .expect("the rules parse");
        assert_eq!(
            colours_in_words(&rules, &pairing("a", "b"), Side::Home),
            "White on board 1"
        );
    }

    #[test]
    fn c04_6_tables_count_the_rounds_matches_in_pairing_order() {
        let round = Round {
            number: 4,
            date: None,
            pairings: vec![
                Pairing::Match(pairing("a", "b")),
                Pairing::Match(pairing("c", "d")),
            ],
        };
        assert_eq!(table(&round, &TeamId("c".into())), Some(2));
        assert_eq!(table(&round, &TeamId("b".into())), None);
    }
}
