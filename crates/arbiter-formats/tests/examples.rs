//! The example competitions in `examples/` load without error, and their totals are the ones
//! worked by hand in `examples/README.md` (AS-14, AS-15, GT-S1, GT-S2, GT-S4, GT-M5, GT-M7).

// Helpers outside #[test] functions: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use arbiter_core::scoring::{EntryKind, score};
use arbiter_formats::competition_json::{self, LoadedCompetition};
use arbiter_formats::ruleset_file::FileRulesetSource;

fn example(name: &str) -> LoadedCompetition {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    competition_json::read(name, &text, &FileRulesetSource::new(dir))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Team id, game points, match points, as worked by hand.
fn assert_totals(l: &LoadedCompetition, expected: &[(&str, f64, f64)]) {
    let sheet = score(&l.competition, &l.rules);
    assert_eq!(sheet.teams.len(), expected.len());
    for (id, gp, mp) in expected {
        let t = l
            .competition
            .teams
            .iter()
            .position(|t| t.id.0 == *id)
            .unwrap();
        let s = &sheet.teams[t];
        assert_eq!(
            (s.game_points, s.match_points),
            (*gp, *mp),
            "{id}: game points, match points"
        );
    }
}

#[test]
fn astc_secondary_open_as_14_as_15_totals() {
    let l = example("astc-secondary-open.json");
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_eq!(l.competition.rounds.len(), 7);
    // 28 matches of 4 boards: 112 game points shared.
    assert_totals(
        &l,
        &[
            ("vic", 21.0, 13.0),
            ("nsw", 17.5, 11.0), // level with qld on game points; AS-15 match points decide
            ("qld", 17.5, 10.0),
            ("wa", 14.0, 6.0), // level with sa on both; AS-16: wa won their match 2.5-1.5
            ("sa", 14.0, 6.0),
            ("tas", 11.5, 6.0),
            ("act", 10.5, 4.0),
            ("nt", 6.0, 0.0),
        ],
    );
}

#[test]
fn gthscl_division_gt_s4_gt_m7_gt_m5_totals() {
    let l = example("gthscl-division.json");
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_totals(
        &l,
        &[
            ("sjj-a", 10.5, 3.0), // level with northview on match points; GT-S5 game points decide
            ("northview", 9.0, 3.0),
            ("perrysburg", 8.5, 2.5),
            ("sjj-b", 8.0, 1.5), // includes GT-M7: 1 MP and 4 GP for mvcd's forfeit
            ("mvcd", 3.0, 0.0),
            ("start", 0.0, 0.0), // GT-M5: dropped, every match excluded
        ],
    );
    let sheet = score(&l.competition, &l.rules);
    let start = l
        .competition
        .team_index(&arbiter_core::TeamId("start".into()))
        .unwrap();
    let dropped = sheet.teams[start].dropped.as_ref().unwrap();
    assert_eq!(
        (
            dropped.round,
            dropped.played,
            dropped.scheduled,
            dropped.all_matches_excluded
        ),
        (4, 2, 5, true)
    );
    // GT-M5: the opponents' games against the dropped team count for nothing either.
    for t in &sheet.teams {
        for e in &t.entries {
            if e.opponent == Some(start) {
                assert!(e.excluded.is_some(), "round {}", e.round);
            }
        }
    }
    // GT-M7: sjj-b's round 3 forfeit win stands.
    let b = l
        .competition
        .team_index(&arbiter_core::TeamId("sjj-b".into()))
        .unwrap();
    let r3 = sheet.teams[b]
        .entries
        .iter()
        .find(|e| e.round == 3)
        .unwrap();
    assert_eq!(
        (r3.kind, r3.match_points, r3.game_points),
        (EntryKind::ForfeitWin, 1.0, 4.0)
    );
}

#[test]
fn the_examples_write_and_read_back() {
    for name in ["astc-secondary-open.json", "gthscl-division.json"] {
        let l = example(name);
        let text = competition_json::write(&l.competition, &l.rules, &l.tiebreaks);
        let again = competition_json::read(name, &text, &arbiter_core::rules::ruleset::PresetsOnly)
            .unwrap();
        assert_eq!(again.competition, l.competition, "{name}");
    }
}
