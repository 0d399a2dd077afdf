//! `examples/rulesets/nottinghamshire.*` (issue 34 items 1 and 3): the Nottinghamshire Chess
//! League's C4 and C7 as a ruleset, three divisions under it, and what they find, worked out
//! by hand in `examples/README.md` and below.

// Helpers outside #[test] functions: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use arbiter_core::rating::list::RatingList;
use arbiter_core::scoring::score;
use arbiter_core::season::check;
use arbiter_core::teams::eligibility::{SeasonEntry, check_season};
use arbiter_formats::competition_json::{self, LoadedCompetition};
use arbiter_formats::rating_list::{self, ListFormat};
use arbiter_formats::ruleset_file::FileRulesetSource;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/rulesets")
}

fn division(n: u32) -> LoadedCompetition {
    let name = format!("nottinghamshire-division-{n}.json");
    let text = std::fs::read_to_string(dir().join(&name)).unwrap();
    competition_json::read(&name, &text, &FileRulesetSource::new(dir()))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn grades() -> RatingList {
    let csv = std::fs::read_to_string(dir().join("nottinghamshire-grades.csv")).unwrap();
    rating_list::read(
        &csv,
        ListFormat::Csv,
        "ECF August 2026",
        jiff::civil::date(2026, 8, 1),
    )
    .unwrap()
}

/// C7 within each division, by the grading list: only Beeston B's round 2 lineup breaks it
/// (Pam Pratt, 180, on board 3 under Sue Stone, 155: 25 points, over 20). Mark Moss (205) under
/// Nina Nash (196) in Division 1 and Dawn Dale (180) above Beth Bailey (196) and Colin Carver
/// (188) are within 20.
#[test]
fn c7_finds_the_one_lineup_more_than_20_points_out_of_order() {
    let lists = [grades()];
    let found: Vec<(u32, String)> = (1..=3)
        .flat_map(|n| {
            let d = division(n);
            check::competition_with(&d.competition, &d.rules, &[], &lists)
                .into_iter()
                .map(move |f| (n, f.to_string()))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    let (n, text) = &found[0];
    assert_eq!(*n, 2);
    assert!(
        text.starts_with("round 2, beeston-2 v nottingham-2, board 3: C7: Pam Pratt (180)"),
        "{text}"
    );
    assert!(text.contains("Sue Stone (155)"), "{text}");
}

/// C4 across the three divisions: Dawn Dale's games on the upper boards (Nottingham A on 6 and
/// 13 October, Nottingham B on 7 October) are three in total, the lowest of them for
/// Nottingham B, so on 15 October she may not play for Nottingham C.
#[test]
fn c4_counts_a_players_upper_board_games_for_all_the_clubs_teams() {
    let divisions: Vec<LoadedCompetition> = (1..=3).map(division).collect();
    let names = ["Division 1", "Division 2", "Division 3"];
    let lists = [grades()];
    let entries: Vec<SeasonEntry> = divisions
        .iter()
        .zip(names)
        .map(|(d, name)| SeasonEntry {
            name,
            competition: &d.competition,
            rules: &d.rules,
            named: &[],
            event_days: None,
            lists: &lists,
        })
        .collect();
    let found: Vec<(usize, String)> = check_season(&entries)
        .into_iter()
        .map(|f| (f.competition, f.finding.to_string()))
        .collect();
    assert_eq!(
        found,
        [(
            2,
            "round 1, nottingham-3 v beeston-3, board 1: C4: Dawn Dale is bound to Nottingham B (Division 2) since 2026-10-13: a player who has played 3 games on boards 1 to 2 for a club's teams in all, this one the lowest of them, may not play for a lower one this season and now plays board 1 for Nottingham C".to_string()
        )]
    );
}

/// The standings' figures, by hand: Division 1 Beeston A 5 GP and Nottingham A 3, 2 MP each;
/// Division 2 Nottingham B 4 MP 5 GP, Beeston B 0 MP 3 GP; Division 3 Nottingham C 2 MP 2½ GP,
/// Beeston C 0 MP 1½ GP.
#[test]
fn the_divisions_score_as_worked_by_hand() {
    let want = [
        [("nottingham-1", 3.0, 2.0), ("beeston-1", 5.0, 2.0)],
        [("nottingham-2", 5.0, 4.0), ("beeston-2", 3.0, 0.0)],
        [("nottingham-3", 2.5, 2.0), ("beeston-3", 1.5, 0.0)],
    ];
    for (n, want) in (1..=3).zip(want) {
        let d = division(n);
        let sheet = score(&d.competition, &d.rules);
        let got: Vec<(&str, f64, f64)> = d
            .competition
            .teams
            .iter()
            .zip(&sheet.teams)
            .map(|(t, s)| (t.id.0.as_str(), s.game_points, s.match_points))
            .collect();
        assert_eq!(got, want, "division {n}");
    }
}
