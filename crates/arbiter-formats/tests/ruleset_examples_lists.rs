//! `examples/rulesets/us-amateur-team-east.*` (issue 34 items 1 and 2): the US Amateur Team
//! East's rules as a ruleset, a small event under them, and its findings worked out by hand.

// Helpers outside #[test] functions: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use arbiter_core::rating::list;
use arbiter_core::scoring::score;
use arbiter_core::season::check;
use arbiter_formats::competition_json;
use arbiter_formats::rating_list::{self, ListFormat};
use arbiter_formats::ruleset_file::FileRulesetSource;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/rulesets")
}

/// The event's findings with the February supplement (`us-amateur-team-east-ratings.csv`) in
/// force from 1 February 2027, and the standings' game and match points.
///
/// By hand, the list's ratings (the roster's are not read; Rosa Reed's roster says 1790, the
/// list 1850, and the list finds her by name and birth date, her roster giving no id):
///
/// - Round 1, Kingston Knights (2450, 2300, 2100, 1980): 8830 over 4 is 2207.5, not under 2200
///   (ATE-2). Gaps 150, 200, 120.
/// - Round 1, Princeton Pawns (2250, 1900, 1450, 1400): 1900 to 1450 is 450, over 400 (ATE-4,
///   board 3). Average 1750.
/// - Round 1, Rahway Rooks (2000, 1800, 1850, 1700): Rosa Reed's 1850 on board 3 is above Ray
///   Rowe's 1800 on board 2 (ATE-3). By the roster's 1790 it would be in order.
/// - Bayonne Bishops (2199, 2150, 2100, 2050) both rounds: 8499, 2124.75; gaps of 50 at most.
/// - Round 2: the Knights field their alternate (2450, 2300, 1980, 1700: 8430, 2107.5; gaps
///   150, 320, 280), the Pawns theirs (2250, 1900, 1600, 1450: gaps 350, 300, 150) and the
///   Rooks swap (2000, 1850, 1800, 1700): no finding.
///
/// Scores: round 1 Knights 3½-½ Pawns, Rooks 1½-2½ Bishops; round 2 Bishops 2-2 Knights,
/// Pawns 2½-1½ Rooks. Game points: Knights 5½, Bishops 4½, Pawns 3, Rooks 3; match points (1 a
/// win, ½ a draw): Knights 1½, Bishops 1½, Pawns 1, Rooks 0.
#[test]
fn usate_average_gap_and_order_by_the_supplement_in_force() {
    let text = std::fs::read_to_string(dir().join("us-amateur-team-east.json")).unwrap();
    let loaded = competition_json::read(
        "us-amateur-team-east.json",
        &text,
        &FileRulesetSource::new(dir()),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let (c, rules) = (&loaded.competition, &loaded.rules);
    let csv = std::fs::read_to_string(dir().join("us-amateur-team-east-ratings.csv")).unwrap();
    let february = rating_list::read(
        &csv,
        ListFormat::Csv,
        "US Chess February 2027 supplement",
        jiff::civil::date(2027, 2, 1),
    )
    .unwrap();
    // Every player is on the list, Rosa Reed by name and birth date.
    assert_eq!(list::unmatched(c, &february), []);
    let lists = [february];
    let findings: Vec<String> = check::competition_with(c, rules, &[], &lists)
        .iter()
        .map(ToString::to_string)
        .collect();
    let by = "by the rating list US Chess February 2027 supplement (in force from 2027-02-01)";
    assert_eq!(
        findings,
        [
            format!(
                "round 1, knights v pawns: ATE-2: the average of the team's top 4, 2207.5 (Kira Kim 2450 + Ken Knight 2300 + Kurt Kane 2100 + Kay Kerr 1980 = 8830, over 4), is not under the cap of 2200, {by}; name lower-rated players so the 4 add up to 8799 or less"
            ),
            format!(
                "round 1, knights v pawns, board 3: ATE-4: Paul Pike (1450) on board 3 and Pat Pope (1900) on board 2 are 450 points apart, {by}; consecutive boards may be at most 400 points apart: name a player rated between them"
            ),
            format!(
                "round 1, rooks v bishops, board 3: ATE-3: Rosa Reed (1850) is rated above Ray Rowe (1800) on board 2, {by}; boards follow ratings, highest on board 1: swap them"
            ),
        ]
    );
    // Without the list no rating is known: nothing is ordered, and an unrated player counts 0.
    assert!(check::competition_with(c, rules, &[], &[]).is_empty());
    let sheet = score(c, rules);
    let totals: Vec<(&str, f64, f64)> = c
        .teams
        .iter()
        .zip(&sheet.teams)
        .map(|(t, s)| (t.id.0.as_str(), s.game_points, s.match_points))
        .collect();
    assert_eq!(
        totals,
        [
            ("knights", 5.5, 1.5),
            ("pawns", 3.0, 1.0),
            ("rooks", 3.0, 0.0),
            ("bishops", 4.5, 1.5),
        ]
    );
}
