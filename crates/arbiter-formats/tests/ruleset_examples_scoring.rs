//! The leagues of `examples/rulesets/` that score beyond the majority of game points (issue 34,
//! item 4; docs/rulesets.md): each competition read with its ruleset file, its standings and
//! their explanation worked out by hand.

// Helpers outside #[test] functions: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use arbiter_core::rules::validate::validate;
use arbiter_core::scoring::score;
use arbiter_core::scoring::standings::{explain, standings};
use arbiter_formats::competition_json::{self, LoadedCompetition};
use arbiter_formats::ruleset_file::FileRulesetSource;

fn example(name: &str) -> LoadedCompetition {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    competition_json::read(name, &text, &FileRulesetSource::new(dir))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Each row: place, team id, and its figures in the order of the ruleset's criteria.
fn table(l: &LoadedCompetition) -> Vec<(String, String, Vec<String>)> {
    let s = standings(&l.competition, &l.rules).unwrap();
    s.rows
        .iter()
        .map(|r| {
            (
                r.place.clone(),
                l.competition.teams[r.team].id.0.clone(),
                r.values.iter().map(|v| v.display()).collect(),
            )
        })
        .collect()
}

fn row(place: &str, id: &str, values: &[&str]) -> (String, String, Vec<String>) {
    (
        place.to_string(),
        id.to_string(),
        values.iter().map(|v| (*v).to_string()).collect(),
    )
}

fn sentences(l: &LoadedCompetition) -> Vec<String> {
    let s = standings(&l.competition, &l.rules).unwrap();
    let sheet = score(&l.competition, &l.rules);
    explain(&s, &l.competition, &l.rules, &sheet)
        .into_iter()
        .map(|e| e.sentence)
        .collect()
}

/// The Bezirksliga: 8 boards, match points 2/1/0, then board points (GP), then the Berliner
/// Wertung, board 1 counting 8 and board 8 once. Worked by hand:
///
/// Round 1 (Sunday 4 October):
/// - SF Altstadt v SK Bergheim `11==0011`: 5:3, 2:0. Berliner: Altstadt 8 + 7 + 3 + 2.5 + 2 + 1
///   = 23.5; Bergheim 3 + 2.5 + 4 + 3 = 12.5.
/// - SC Chemie v SV Dorf `1=0=1=0=`: 4:4, 1:1. Berliner: Chemie 8 + 3.5 + 2.5 + 4 + 1.5 + 0.5
///   = 20; Dorf 3.5 + 6 + 2.5 + 1.5 + 2 + 0.5 = 16.
///
/// Round 2 (Sunday 18 October):
/// - SF Altstadt v SC Chemie `0000=11=`: 3:5, 0:2. Berliner: Altstadt 2 + 3 + 2 + 0.5 = 7.5;
///   Chemie 8 + 7 + 6 + 5 + 2 + 0.5 = 28.5.
/// - SK Bergheim v SV Dorf `11110000`: 4:4, 1:1. Berliner: Bergheim 26, Dorf 10.
///
/// Totals (MP, GP, Berliner): Chemie 3, 9, 20 + 28.5 = 48.5; Altstadt 2, 8, 23.5 + 7.5 = 31;
/// Dorf 2, 8, 16 + 10 = 26; Bergheim 1, 7, 12.5 + 26 = 38.5. Altstadt and Dorf are level on match points and board points; the Berliner Wertung
/// puts Altstadt second.
#[test]
fn bezirksliga_the_berliner_wertung_decides_second_place() {
    let l = example("bezirksliga.json");
    assert_eq!(validate(&l.competition, &l.rules), []);
    assert_eq!(
        table(&l),
        [
            row("1", "scc", &["3", "9", "48.5"]),
            row("2", "sfa", &["2", "8", "31"]),
            row("3", "svd", &["2", "8", "26"]),
            row("4", "skb", &["1", "7", "38.5"]),
        ]
    );
    assert_eq!(
        sentences(&l)[1],
        "SF Altstadt (2) is above SV Dorf (3) on BERLINER (TO 5.3): 31 to 26."
    );
    // Its match days are Sundays: the league names its weekend day.
    assert_eq!(l.rules.match_days, [jiff::civil::Weekday::Sunday]);
}

/// The scholastic league: five boards worth 10, 9, 8, 7 and 6; match points 1/½/0 from the
/// weighted sums; then the board points (BP), then the games won. Worked by hand:
///
/// Round 1 (Saturday 3 October):
/// - East v West `11=00`: 2½:2½ in games, but 10 + 9 + 4 = 23 to 4 + 7 + 6 = 17: East wins.
/// - North v South `00111`: 8 + 7 + 6 = 21 to 10 + 9 = 19: North wins.
///
/// Round 2 (Saturday 17 October):
/// - East v North `=0=1=`: 2½:2½ in games; East 5 + 4 + 7 + 3 = 19, North 5 + 9 + 4 + 3 = 21:
///   North wins.
/// - West v South `10101`: 10 + 8 + 6 = 24 to 9 + 7 = 16: West wins.
///
/// Totals (MP, BP, games won; game points): North 2, 42, 3 + 1 = 4 (5½); East 1, 42, 2 + 1 = 3
/// (5); West 1, 41, 2 + 3 = 5 (5½); South 0, 35, 2 + 2 = 4 (4). East is above West on board
/// points though West has more game points and more games won. A team alone in its place shows
/// its own figures on every criterion.
#[test]
fn us_scholastic_weighted_boards_decide_matches_and_places() {
    let l = example("us-scholastic.json");
    assert_eq!(validate(&l.competition, &l.rules), []);
    assert_eq!(
        table(&l),
        [
            row("1", "north", &["2", "42", "4"]),
            row("2", "east", &["1", "42", "3"]),
            row("3", "west", &["1", "41", "5"]),
            row("4", "south", &["0", "35", "4"]),
        ]
    );
    assert_eq!(
        sentences(&l)[1],
        "East High (2) is above West High (3) on BP (SL 6.2): 42 to 41."
    );
    let sheet = score(&l.competition, &l.rules);
    let west = l
        .competition
        .teams
        .iter()
        .position(|t| t.id.0 == "west")
        .unwrap();
    assert_eq!(sheet.teams[west].game_points, 5.5);
    assert_eq!(l.rules.match_days, [jiff::civil::Weekday::Saturday]);
}
