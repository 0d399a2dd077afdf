//! TRF-16 / TRF-2026 reading and writing (standards.md §3), on FIDE's sample files.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test: a failure is a panic

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use arbiter_core::record::model::{
    ByeKind, Competition, GameOutcome, GameResult, MatchOutcome, Pairing,
};
use arbiter_core::scoring::{self, EntryKind, RoundEntry};
use arbiter_formats::trf::{self, Encoding, LineEnding, Record, TrfDocument};
use proptest::prelude::*;

fn fide(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fide")
        .join(name)
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn grandmommy() -> (Vec<u8>, TrfDocument) {
    let b = bytes(&fide("grandmommyscup.trf"));
    let doc = trf::read("grandmommyscup.trf", &b).unwrap();
    (b, doc)
}

/// The lines of a file as its bytes split them, without endings.
fn raw_lines(text: &str) -> Vec<&str> {
    text.split("\r\n")
        .flat_map(|l| l.split('\n'))
        .collect::<Vec<_>>()
}

#[test]
fn both_samples_round_trip_byte_for_byte() {
    for name in ["grandmommyscup.trf", "trf26_team.trf"] {
        let b = bytes(&fide(name));
        let doc = trf::read(name, &b).unwrap();
        assert_eq!(doc.encoding, Encoding::Utf8);
        assert_eq!(trf::write(&doc), b, "{name} written back differs");
    }
}

#[test]
fn grandmommy_every_line_reads_as_its_kind() {
    let (b, doc) = grandmommy();
    assert_eq!(doc.lines.len(), 703);
    assert!(doc.lines.iter().all(|l| l.ending == LineEnding::CrLf));
    let mut kinds: HashMap<&str, usize> = HashMap::new();
    for l in &doc.lines {
        let k = match &l.record {
            Record::Tournament(_) => "tournament",
            Record::Player(_) => "001",
            Record::NationalRating(_) => "nrs",
            Record::Team013(_) => "013",
            Record::Team310(_) => "310",
            Record::Bye240(_) => "240",
            Record::Acceleration250(_) => "250",
            Record::Prohibited260(_) => "260",
            Record::AbnormalPoints299(_) => "299",
            Record::OutOfOrderLineup300(_) => "300",
            Record::TeamPab320(_) => "320",
            Record::ForfeitedMatch330(_) => "330",
            Record::Team801(_) => "801",
            Record::Team802(_) => "802",
            Record::Comment(_) => "###",
            Record::JaVaFo(_) => "XX",
            Record::Blank(_) => "blank",
            Record::Unknown(_) => "unknown",
        };
        *kinds.entry(k).or_default() += 1;
    }
    let expect = [
        ("tournament", 23),
        ("001", 249),
        ("nrs", 15),
        ("013", 50),
        ("310", 50),
        ("240", 18),
        ("250", 4),
        ("260", 3),
        ("300", 141),
        ("320", 1),
        ("330", 22),
        ("801", 50),
        ("802", 50),
        ("###", 16),
        ("blank", 11),
    ];
    for (k, n) in expect {
        assert_eq!(kinds.get(k).copied().unwrap_or(0), n, "{k}");
    }
    assert_eq!(kinds.get("unknown"), None);
    // Each typed record regenerated from its fields gives its line again.
    let text = String::from_utf8(b).unwrap();
    let raw = raw_lines(&text);
    for (i, l) in doc.lines.iter().enumerate() {
        assert_eq!(l.record.to_line(), raw[i], "line {}", i + 1);
    }
}

/// Every typed record written in the standard layout (spellings forgotten) reads back as the
/// same values: the columns of the writer and the reader agree.
#[test]
fn standard_layout_reads_back_to_the_same_values() {
    for name in ["grandmommyscup.trf", "trf26_team.trf"] {
        let doc = trf::read(name, &bytes(&fide(name))).unwrap();
        let mut identical = 0;
        for (i, l) in doc.lines.iter().enumerate() {
            let mut canonical = l.record.clone();
            canonical.forget_spelling();
            let text = canonical.to_line();
            if text == l.record.to_line() {
                identical += 1;
            }
            let back = trf::read("canonical", text.as_bytes())
                .unwrap_or_else(|e| panic!("{name} line {}: {e}\n{text}", i + 1));
            let mut back = back.lines.into_iter().next().map(|l| l.record);
            if let Some(b) = &mut back {
                b.forget_spelling();
            }
            let mut expected = l.record.clone();
            expected.forget_spelling();
            // A blank line has no line at all once its spaces are gone.
            if !matches!(expected, Record::Blank(_)) {
                assert_eq!(back.as_ref(), Some(&expected), "{name} line {}", i + 1);
            }
        }
        eprintln!(
            "{name}: {identical} of {} lines are already in the standard layout",
            doc.lines.len()
        );
    }
}

#[test]
fn changing_a_field_changes_only_its_columns() {
    let (_, mut doc) = grandmommy();
    let Record::Player(p) = &mut doc.lines[26].record else {
        panic!("line 27 is player 1")
    };
    let before = p.clone();
    assert_eq!(p.start_rank.value, 1);
    assert_eq!(p.points.value, Some(8.0));
    let old = Record::Player(before).to_line();
    p.points.value = Some(12.5);
    p.rounds[0].result.value = Some('1');
    let new = doc.lines[26].record.to_line();
    let diff: Vec<usize> = old
        .chars()
        .zip(new.chars())
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(old.len(), new.len());
    assert_eq!(diff, vec![81, 82, 84, 99]);
    assert_eq!(&new[80..84], "12.5");
}

#[test]
fn grandmommy_imports_50_teams_14_rounds_4_boards() {
    let (_, doc) = grandmommy();
    let import = trf::to_competition(&doc).unwrap();
    let c = &import.competition;
    assert_eq!(c.name, "Grandmommy's Cup");
    assert_eq!(c.teams.len(), 50);
    assert_eq!(c.teams.iter().map(|t| t.players.len()).sum::<usize>(), 249);
    assert_eq!(c.rounds.len(), 14);
    assert_eq!(import.rules.boards, 4);
    assert_eq!(import.rules.match_points.win, 2.0); // 362 TW 2
    assert_eq!(import.rules.game_points.draw, 0.5); // 162 D 0.5
    assert_eq!(import.rules.bye.match_points, 1.0); // 320 MP 1
    assert_eq!(import.rules.bye.game_points, 2.0); // 320 GP 2.0
    let codes: Vec<_> = import.tiebreaks.iter().map(|c| c.code.as_str()).collect();
    assert_eq!(codes, ["EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPvGP"]);
    assert_eq!(c.teams[0].id.0, "1");
    assert_eq!(c.teams[0].name, "India");
    let first: Vec<_> = c.teams[0].players.iter().map(|p| p.id.0.as_str()).collect();
    assert_eq!(first, ["1", "5", "15", "28", "44"]);
    assert_eq!(c.rounds[0].date, Some(jiff::civil::date(2024, 12, 1)));
    // Only what the model does not hold is warned about: records, and birth dates that give
    // only the year (B.02's K 40 under 18 needs the day).
    assert_eq!(import.warnings.len(), 2, "{:#?}", import.warnings);
    assert!(
        import.warnings[0].starts_with(
            "grandmommyscup.trf: 249 players' birth dates (001, columns 70-79) give only the year (YYYY/00/00), the first on line 27: "
        ),
        "{}",
        import.warnings[0]
    );
    // C.04.7's acceleration (250) and the prohibited pairings (260) are carried into the
    // pairing settings; only the national ratings are not.
    assert!(
        import.warnings[1].ends_with("national ratings (15)"),
        "{}",
        import.warnings[1]
    );
    assert_eq!(import.rules.pairing.acceleration.len(), 4);
    assert_eq!(import.rules.pairing.forbidden.len(), 3);
    let matches = c.matches().count();
    let forfeits = c
        .matches()
        .filter(|(_, m)| !matches!(m.outcome, MatchOutcome::Boards(_)))
        .count();
    assert_eq!(forfeits, 22); // the 330 records
    eprintln!("grandmommyscup: {matches} matches, {forfeits} whole-match forfeits");
}

fn entry(entries: &[RoundEntry], round: u32) -> Option<&RoundEntry> {
    entries.iter().find(|e| e.round == round)
}

/// The informative 802 records give each team's opponent, colour, game points and forfeits
/// round by round; the rebuilt matches must agree with every one of them (C.07 16: byes).
#[test]
fn rebuilt_matches_agree_with_every_802_record() {
    let (_, doc) = grandmommy();
    let import = trf::to_competition(&doc).unwrap();
    let c = &import.competition;
    let sheet = scoring::score(c, &import.rules);
    let index: HashMap<&str, usize> = c
        .teams
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.0.as_str(), i))
        .collect();
    let mut checked = 0;
    for l in &doc.lines {
        let Record::Team802(r) = &l.record else {
            continue;
        };
        let t = index[r.team.value.to_string().as_str()];
        let entries = &sheet.teams[t].entries;
        assert_eq!(
            Some(sheet.teams[t].match_points),
            r.match_points.value,
            "team {t} MP"
        );
        assert_eq!(
            Some(sheet.teams[t].game_points),
            r.game_points.value,
            "team {t} GP"
        );
        for (k, round) in r.rounds.iter().enumerate() {
            let n = u32::try_from(k + 1).unwrap();
            let e = entry(entries, n);
            let gp = round.game_points.value.unwrap();
            let what = format!("team {} round {n}", r.team.value);
            match round.opponent.value.as_str() {
                "ZPB" => assert!(
                    e.is_none() || e.unwrap().kind == EntryKind::Bye(ByeKind::ZeroPoint),
                    "{what}"
                ),
                bye @ ("PAB" | "FPB" | "HPB") => {
                    let kind = match bye {
                        "PAB" => ByeKind::PairingAllocated,
                        "FPB" => ByeKind::FullPoint,
                        _ => ByeKind::HalfPoint,
                    };
                    let e = e.unwrap_or_else(|| panic!("{what}: no bye"));
                    assert_eq!(e.kind, EntryKind::Bye(kind), "{what}");
                    assert_eq!(e.game_points, gp, "{what}");
                }
                opp => {
                    let e = e.unwrap_or_else(|| panic!("{what}: not paired"));
                    assert_eq!(e.opponent, Some(index[opp]), "{what}: opponent");
                    let home = round.colour.value == Some('w');
                    assert_eq!(
                        e.side,
                        Some(if home {
                            arbiter_core::Side::Home
                        } else {
                            arbiter_core::Side::Away
                        }),
                        "{what}: colour"
                    );
                    assert_eq!(e.game_points, gp, "{what}: game points");
                    let forfeit = matches!(
                        e.kind,
                        EntryKind::ForfeitWin | EntryKind::ForfeitLoss | EntryKind::DoubleForfeit
                    );
                    assert_eq!(forfeit, round.forfeit.value.is_some(), "{what}: forfeit");
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 50 * 14);
}

/// The 310 records carry each team's final MP and GP.
#[test]
fn totals_agree_with_every_310_record() {
    let (_, doc) = grandmommy();
    let import = trf::to_competition(&doc).unwrap();
    let sheet = scoring::score(&import.competition, &import.rules);
    let mut n = 0;
    for l in &doc.lines {
        let Record::Team310(r) = &l.record else {
            continue;
        };
        let t = import
            .competition
            .team_index(&arbiter_core::TeamId(r.number.value.to_string()))
            .unwrap();
        assert_eq!(Some(sheet.teams[t].match_points), r.match_points.value);
        assert_eq!(Some(sheet.teams[t].game_points), r.game_points.value);
        n += 1;
    }
    assert_eq!(n, 50);
}

/// The 801 records give board by board results and which roster places sat at each board.
#[test]
fn rebuilt_boards_agree_with_every_801_record() {
    let (_, doc) = grandmommy();
    let import = trf::to_competition(&doc).unwrap();
    let c = &import.competition;
    let mut boards_checked = 0;
    let mut disagree: Vec<String> = Vec::new();
    for l in &doc.lines {
        let Record::Team801(raw) = &l.record else {
            continue;
        };
        let r801 = raw.parse().expect("the sample's 801 records parse");
        let id = r801.team.to_string();
        let team = c.team(&arbiter_core::TeamId(id.clone())).unwrap();
        assert_eq!(r801.rounds.len(), 14, "team {id}");
        for (k, round) in r801.rounds.iter().enumerate() {
            let what = format!("team {id} round {}", k + 1);
            let pairing = c.rounds[k].pairings.iter().find(|p| match p {
                Pairing::Match(m) => m.home.0 == id || m.away.0 == id,
                Pairing::Bye(b) => b.team.0 == id,
            });
            match pairing {
                None if round.results == "ZZZZ" => {}
                None => disagree.push(format!("{what}: 801 {} rebuilt unpaired", round.results)),
                Some(Pairing::Bye(b)) => {
                    let letter = match b.kind {
                        ByeKind::PairingAllocated => "UUUU",
                        ByeKind::FullPoint => "FFFF",
                        ByeKind::HalfPoint => "HHHH",
                        ByeKind::ZeroPoint => "ZZZZ",
                    };
                    if round.results != letter {
                        disagree.push(format!("{what}: 801 {} rebuilt {letter}", round.results));
                    }
                }
                Some(Pairing::Match(m)) => {
                    let side = if m.home.0 == id {
                        arbiter_core::Side::Home
                    } else {
                        arbiter_core::Side::Away
                    };
                    let opp = m.team(side.other());
                    assert_eq!(round.opponent.map(|o| o.to_string()), Some(opp.0.clone()));
                    match &m.outcome {
                        MatchOutcome::Forfeit { by } => {
                            let s = if *by == side { "----" } else { "++++" };
                            if round.results != s {
                                disagree.push(format!(
                                    "{what}: 801 {} rebuilt {s} (330)",
                                    round.results
                                ));
                            }
                        }
                        MatchOutcome::DoubleForfeit if round.results == "----" => {}
                        MatchOutcome::DoubleForfeit => disagree
                            .push(format!("{what}: 801 {} rebuilt ---- (330)", round.results)),
                        MatchOutcome::Boards(boards) => {
                            let results: String = boards
                                .iter()
                                .map(|b| match b.result.outcome_for(side) {
                                    GameOutcome::Win => '1',
                                    GameOutcome::Draw => '=',
                                    GameOutcome::Loss => '0',
                                    GameOutcome::ForfeitWin => '+',
                                    GameOutcome::ForfeitLoss | GameOutcome::DoubleForfeit => '-',
                                    GameOutcome::Pending => '?',
                                })
                                .collect();
                            if results != round.results {
                                disagree.push(format!(
                                    "{what}: 801 {} rebuilt {results}",
                                    round.results
                                ));
                            }
                            let places: Vec<u32> = boards
                                .iter()
                                .map(|b| {
                                    let p = match side {
                                        arbiter_core::Side::Home => &b.home_player,
                                        arbiter_core::Side::Away => &b.away_player,
                                    };
                                    p.as_ref().map_or(0, |p| {
                                        let i = team.players.iter().position(|x| &x.id == p);
                                        u32::try_from(i.unwrap() + 1).unwrap()
                                    })
                                })
                                .collect();
                            if places != round.lineup {
                                disagree.push(format!(
                                    "{what}: 801 line-up {:?} rebuilt {places:?}",
                                    round.lineup
                                ));
                            }
                            boards_checked += boards.len();
                        }
                        MatchOutcome::Pending => panic!("{what}: pending"),
                    }
                }
            }
        }
    }
    eprintln!("801: {boards_checked} boards checked");
    // Where the sample's 801 records contradict its own 001 and 300 records (the 802 game
    // points agree with the rebuilt boards in every case):
    let expected = [
        // Boards 1 and 2 exchanged in both teams' 801 (same game points).
        "team 1 round 5: 801 =1== rebuilt 1===",
        // Boards 2 and 3 exchanged in both teams' 801, against FRA's own 801 line-up 0230.
        "team 5 round 5: 801 -01- rebuilt -10-",
        // Team 11's 801 loses board 4; team 1's 801, the 001 records and 802 (2.5) say won.
        "team 11 round 7: 801 10=0 rebuilt 10=1",
        // A 330 `+-` forfeit win written as four draws (802: 4.0f).
        "team 15 round 7: 801 ==== rebuilt ++++ (330)",
        "team 18 round 5: 801 +10+ rebuilt +01+",
        "team 26 round 5: 801 =0== rebuilt 0===",
        // The 300 records put roster place 5 on a board the 801 gives to place 1 or 2, who
        // did not play (0000 - -).
        "team 34 round 7: 801 line-up [1, 2, 3, 4] rebuilt [5, 2, 3, 4]",
        "team 40 round 1: 801 line-up [1, 2, 3, 4] rebuilt [1, 5, 3, 4]",
    ];
    assert_eq!(disagree, expected);
    assert!(boards_checked > 2000);
}

fn same_model(a: &Competition, b: &Competition) {
    assert_eq!(a.name, b.name);
    assert_eq!(a.teams, b.teams);
    assert_eq!(a.rounds.len(), b.rounds.len());
    for (x, y) in a.rounds.iter().zip(&b.rounds) {
        assert_eq!(x, y, "round {}", x.number);
    }
}

#[test]
fn grandmommy_model_to_trf_and_back_is_the_same_model() {
    let (_, doc) = grandmommy();
    let first = trf::to_competition(&doc).unwrap();
    let exported = trf::from_competition(&first.competition, &first.rules, &first.tiebreaks);
    let written = trf::write(&exported);
    let reread = trf::read("exported.trf", &written).unwrap();
    assert_eq!(trf::write(&reread), written);
    let second = trf::to_competition(&reread).unwrap();
    same_model(&first.competition, &second.competition);
    assert_eq!(first.rules, second.rules);
    assert_eq!(first.tiebreaks, second.tiebreaks);
    assert!(second.warnings.is_empty(), "{:#?}", second.warnings);
    // The exported 310 totals are the scores.
    let text = String::from_utf8(written).unwrap();
    // TRF_EXPORT_TO=DIR keeps the exported file for a look.
    if let Ok(dir) = std::env::var("TRF_EXPORT_TO") {
        std::fs::write(Path::new(&dir).join("grandmommy-exported.trf"), &text).unwrap();
    }
    assert!(
        text.lines()
            .any(|l| l.starts_with("310  16 India 3") && l.contains(" 20.0   33.5")),
        "{}",
        text.lines()
            .find(|l| l.starts_with("310  16"))
            .unwrap_or_default()
    );
    let lineups = text.lines().filter(|l| l.starts_with("300")).count();
    eprintln!(
        "exported {} lines, {lineups} line-ups",
        text.lines().count()
    );
}

#[test]
fn latin1_file_reads_and_writes_back() {
    let b = bytes(&data("trf/latin1_team.trf"));
    assert!(std::str::from_utf8(&b).is_err(), "the file must be Latin-1");
    let doc = trf::read("latin1_team.trf", &b).unwrap();
    assert_eq!(doc.encoding, Encoding::Latin1);
    assert_eq!(trf::write(&doc), b);
    let import = trf::to_competition(&doc).unwrap();
    let c = &import.competition;
    assert_eq!(c.name, "Copa Müller de Ñuñoa");
    assert_eq!(c.teams[0].name, "Café Über");
    assert_eq!(c.teams[0].players[0].name, "Müller, Hans");
    assert_eq!(c.teams[0].players[0].rating, Some(2105));
    // Round 2: team 2 is first-named (White on board 1, 352 WB); board 1 is an unrated win
    // (W, under one move), board 2 a forfeit won by the away player.
    let Pairing::Match(m) = &c.rounds[1].pairings[0] else {
        panic!()
    };
    assert_eq!(m.home.0, "2");
    let MatchOutcome::Boards(b2) = &m.outcome else {
        panic!()
    };
    assert_eq!(b2[0].result, GameResult::HomeWin);
    assert_eq!(b2[0].rating_result, Some(GameResult::DoubleForfeit));
    assert_eq!(b2[1].result, GameResult::AwayWinByForfeit);
    assert_eq!(b2[1].home_player.as_ref().unwrap().0, "5");
    // Writing the model back keeps the accents, in UTF-8.
    let out = trf::write(&trf::from_competition(c, &import.rules, &import.tiebreaks));
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(text.contains("Müller, Hans"));
    assert!(
        text.contains("     3 b L"),
        "the unrated loss stays unrated:\n{text}"
    );
    let again = trf::to_competition(&trf::read("again.trf", &out).unwrap()).unwrap();
    same_model(c, &again.competition);
}

#[test]
fn a_malformed_score_is_located_by_line_and_column() {
    let (b, _) = grandmommy();
    let mut text = String::from_utf8(b).unwrap();
    // Line 57 is player 31; its score is in columns 81-84.
    let start: usize = text.split_inclusive('\n').take(56).map(str::len).sum();
    text.replace_range(start + 80..start + 84, " x.5");
    let e = trf::read("grandmommyscup.trf", text.as_bytes()).unwrap_err();
    assert_eq!((e.line, e.column), (57, 81));
    assert_eq!(
        e.to_string(),
        "grandmommyscup.trf:57:81: expected a score like 11.5 in columns 81-84, found \"x.5\""
    );
}

#[test]
fn malformed_lines_say_what_was_expected() {
    // Player 1 of the sample, with one column changed.
    let (b, _) = grandmommy();
    let sample = String::from_utf8(b).unwrap();
    let player = raw_lines(&sample)[26].to_string();
    let with = |col: usize, c: char| {
        let mut s: Vec<char> = player.chars().collect();
        s[col - 1] = c;
        s.into_iter().collect::<String>()
    };
    let (colour, result, opponent) = (with(97, 'q'), with(99, '?'), with(102, 'x'));
    let date = format!("132{}24-12-01", " ".repeat(88));
    let cases: Vec<(&str, usize, usize, &str)> = vec![
        ("001    x", 1, 5, "a start rank in columns 5-8"),
        ("001    1x", 1, 9, "a blank in column 9"),
        ("012 ok\n001    1 m", 2, 0, ""),
        ("330 +x   4  23  33", 1, 5, "a forfeit type"),
        ("330 +-   4  23", 1, 16, "the Black team's number"),
        ("240 Q   1    3", 1, 5, "a bye type F, H or Z"),
        ("310  1x India", 1, 5, "a team pairing number"),
        ("300   1  16   4  242  24x", 1, 22, "a player's start rank"),
        (&colour, 1, 97, "a colour"),
        (&result, 1, 99, "a result code"),
        (&opponent, 1, 102, "an opponent's start rank"),
        (&date, 1, 92, "a round date"),
        ("352 WBXB", 1, 5, "board colours"),
        ("362 TW 2     TX 1", 1, 14, "a match result code"),
        ("162  W 1.0    D 0,5", 1, 16, "points like 1.0"),
        (
            "802   1 IND     15     28.0  1x b  2.0",
            1,
            29,
            "a team number or PAB",
        ),
        ("320  1    2.0  x", 1, 15, "a team number"),
        ("142 fourteen", 1, 5, "the number of rounds"),
        ("250  2    x     1   1    1    2", 1, 10, "game points"),
    ];
    for (text, line, column, expected) in cases {
        let r = trf::read("t.trf", text.as_bytes());
        if expected.is_empty() {
            assert!(r.is_ok(), "{text}: {r:?}");
            continue;
        }
        let e = r.expect_err(text);
        assert_eq!((e.line, e.column), (line, column), "{text}: {e}");
        assert!(e.expected.contains(expected), "{text}: {e}");
        assert!(
            e.to_string()
                .starts_with(&format!("t.trf:{line}:{column}: expected ")),
            "{e}"
        );
    }
}

#[test]
fn a_file_without_teams_is_refused_with_a_reason() {
    let doc = trf::read(
        "solo.trf",
        b"012 Open\r\n001    1      A                                 2000\r\n",
    )
    .unwrap();
    let e = trf::to_competition(&doc).unwrap_err();
    assert!(
        e.to_string().starts_with("solo.trf: expected team records"),
        "{e}"
    );
}

#[test]
fn duplicate_start_rank_is_an_error_at_its_line() {
    let text = "001    1      A\n001    1      B\n310   1 T                                                         1\n";
    let doc = trf::read("d.trf", text.as_bytes()).unwrap();
    let e = trf::to_competition(&doc).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.expected.contains("line 1"), "{e}");
}

/// Lines cut short anywhere still read (TRF lines need not run to the end of the layout), and
/// write back as they were.
#[test]
fn truncated_lines_read_and_write_back() {
    let (b, doc) = grandmommy();
    let text = String::from_utf8(b).unwrap();
    let raw = raw_lines(&text);
    let mut tried = 0;
    for (i, l) in doc.lines.iter().enumerate() {
        let tolerant = matches!(
            l.record,
            Record::Player(_)
                | Record::NationalRating(_)
                | Record::Team013(_)
                | Record::Team310(_)
                | Record::Bye240(_)
                | Record::OutOfOrderLineup300(_)
                | Record::TeamPab320(_)
                | Record::Comment(_)
        );
        let line = raw[i];
        for cut in 0..=line.len() {
            let short = &line[..cut];
            let r = trf::read("cut.trf", short.as_bytes());
            match r {
                Ok(d) => assert_eq!(trf::write(&d), short.as_bytes()),
                Err(e) => {
                    // Only a required field (a start rank, a team number) can be missing.
                    assert!(
                        !tolerant || e.found.is_empty(),
                        "line {}: cut at {cut}: {e}",
                        i + 1
                    );
                    assert!(e.found.is_empty() || e.column <= cut, "{e}");
                }
            }
            tried += 1;
        }
    }
    assert!(tried > 50_000);
}

#[test]
fn line_endings_and_byte_order_mark_are_kept() {
    let text = b"\xEF\xBB\xBF012 A\r142 2\n###x\r\n\r\n\n162  W 1.0";
    let doc = trf::read("e.trf", text).unwrap();
    assert!(doc.byte_order_mark);
    let endings: Vec<_> = doc.lines.iter().map(|l| l.ending).collect();
    assert_eq!(
        endings,
        [
            LineEnding::Cr,
            LineEnding::Lf,
            LineEnding::CrLf,
            LineEnding::CrLf,
            LineEnding::Lf,
            LineEnding::None
        ]
    );
    assert_eq!(trf::write(&doc), text);
}

#[test]
fn fuzz_regressions_read_without_panic() {
    // tests/data/fuzz/README.md says what each file is; a missing folder fails, not passes.
    let dir = data("fuzz");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut checked = 0;
    for e in entries {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "trf") {
            check_named(&path.display().to_string(), &bytes(&path));
            checked += 1;
        }
    }
    assert!(
        checked >= 9,
        "only {checked} regression files in {}",
        dir.display()
    );
}

fn check_any(b: &[u8]) {
    check_named("p.trf", b);
}

/// The fuzz target's properties: a file that reads writes back byte for byte, and one that
/// imports exports to a file that reads and imports again.
fn check_named(name: &str, b: &[u8]) {
    if let Ok(doc) = trf::read(name, b) {
        assert_eq!(trf::write(&doc), b, "{name}: write(read(x)) is not x");
        if let Ok(import) = trf::to_competition(&doc) {
            let out = trf::from_competition(&import.competition, &import.rules, &import.tiebreaks);
            let written = trf::write(&out);
            let back = trf::read("out.trf", &written)
                .unwrap_or_else(|e| panic!("{name}: the exported file does not read: {e}"));
            trf::to_competition(&back)
                .unwrap_or_else(|e| panic!("{name}: the exported file does not import: {e}"));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(b in proptest::collection::vec(any::<u8>(), 0..600)) {
        check_any(&b);
    }

    #[test]
    fn random_lines_of_known_kinds_never_panic(
        tag in prop::sample::select(vec!["001", "013", "310", "240", "250", "260", "299", "300", "320", "330", "802", "132", "162", "362", "352", "202", "IND"]),
        rest in "[ 0-9a-zA-Z+=.,/-]{0,160}",
    ) {
        check_any(format!("{tag}{rest}\r\n").as_bytes());
    }

    #[test]
    fn mutations_of_the_sample_never_panic(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..8)
    ) {
        let mut b = bytes(&fide("grandmommyscup.trf"));
        for (at, byte, op) in edits {
            let i = at.index(b.len());
            match op {
                0 => b[i] = byte,
                1 => b.insert(i, byte),
                _ => { b.remove(i); }
            }
        }
        check_any(&b);
    }
}

/// TRF-16 has no 310: its 013 records, numbered in file order, give the same teams.
#[test]
fn trf16_team_records_013_give_the_same_competition() {
    let (b, _) = grandmommy();
    let text = String::from_utf8(b).unwrap();
    let without_310: String = text
        .split_inclusive("\r\n")
        .filter(|l| !l.starts_with("310"))
        .collect();
    let a = trf::to_competition(&grandmommy().1).unwrap();
    let doc = trf::read("trf16.trf", without_310.as_bytes()).unwrap();
    let b = trf::to_competition(&doc).unwrap();
    same_model(&a.competition, &b.competition);
}

fn line(fields: &[(usize, &str)]) -> String {
    let mut s: Vec<char> = Vec::new();
    for (col, text) in fields {
        while s.len() < col - 1 {
            s.push(' ');
        }
        s.truncate(col - 1);
        s.extend(text.chars());
    }
    s.into_iter().collect()
}

fn player_line(sr: u32, rounds: &[&str]) -> String {
    let mut f: Vec<(usize, String)> = vec![
        (1, "001".into()),
        (5, format!("{sr:4}")),
        (15, format!("Player {sr}")),
    ];
    for (k, r) in rounds.iter().enumerate() {
        f.push((92 + 10 * k, (*r).to_string()));
    }
    let f: Vec<(usize, &str)> = f.iter().map(|(c, s)| (*c, s.as_str())).collect();
    line(&f)
}

/// A small file with what the sample lacks: 352 BWBW (the first-named team has Black on board
/// 1), a 330 double forfeit, team byes of every kind, a double-forfeited board with both players
/// present, and an empty board on both sides.
#[test]
fn team_file_rules_352_330_240_320_and_forfeit_boards() {
    let lines = [
        "012 Small".to_string(),
        "352 BW".to_string(),
        "162  W 1.0    D 0.5    L 0.0".to_string(),
        // Round 1: team 1 vs team 2; team 2 is first-named (its board-1 player has Black).
        // Board 2 is a double forfeit with both players present. Team 3: PAB.
        // Round 2: 1-3 forfeited by both (330 --); team 2 half-point bye.
        // Round 3: 2 vs 3, board 2 empty on both sides (300 zeros); team 1 zero-point bye.
        player_line(1, &["   3 w 1", "0000 - -", "0000 - -"]),
        player_line(2, &["   4 b -", "0000 - -", "0000 - -"]),
        player_line(3, &["   1 b 0", "0000 - -", "   5 w ="]),
        player_line(4, &["   2 w -", "0000 - -", "0000 - -"]),
        player_line(5, &["0000 - -", "0000 - -", "   3 b ="]),
        player_line(6, &["0000 - -", "0000 - -", "0000 - -"]),
        line(&[(1, "310"), (5, "  1"), (9, "One"), (74, "   1    2")]),
        line(&[(1, "310"), (5, "  2"), (9, "Two"), (74, "   3    4")]),
        line(&[(1, "310"), (5, "  3"), (9, "Three"), (74, "   5    6")]),
        "300   3   2   3    3    0".to_string(),
        "300   3   3   2    5    0".to_string(),
        "320  1    2.0   3".to_string(),
        "240 H   2    2".to_string(),
        "240 Z   3    1".to_string(),
        "330 --   2   1   3".to_string(),
    ];
    let text = lines.join("\n") + "\n";
    let doc = trf::read("small.trf", text.as_bytes()).unwrap();
    assert_eq!(trf::write(&doc), text.as_bytes());
    let import = trf::to_competition(&doc).unwrap();
    assert!(import.warnings.is_empty(), "{:#?}", import.warnings);
    assert_eq!(import.rules.white_on_odd_boards, arbiter_core::Side::Away);
    let c = &import.competition;
    let r1 = &c.rounds[0].pairings;
    let Pairing::Match(m) = &r1[0] else { panic!() };
    assert_eq!((m.home.0.as_str(), m.away.0.as_str()), ("2", "1"));
    let MatchOutcome::Boards(b) = &m.outcome else {
        panic!()
    };
    assert_eq!(b[0].result, GameResult::AwayWin); // player 1 (away, White) won
    assert_eq!(b[0].home_colour, Some(arbiter_core::Colour::Black));
    assert_eq!(b[1].result, GameResult::DoubleForfeit);
    assert!(
        matches!(&r1[1], Pairing::Bye(b) if b.kind == ByeKind::PairingAllocated && b.team.0 == "3")
    );
    let r2 = &c.rounds[1].pairings;
    assert!(
        matches!(&r2[0], Pairing::Match(m) if m.outcome == MatchOutcome::DoubleForfeit && m.home.0 == "1")
    );
    assert!(matches!(&r2[1], Pairing::Bye(b) if b.kind == ByeKind::HalfPoint && b.team.0 == "2"));
    let r3 = &c.rounds[2].pairings;
    let Pairing::Match(m) = &r3[0] else { panic!() };
    assert_eq!((m.home.0.as_str(), m.away.0.as_str()), ("3", "2"));
    let MatchOutcome::Boards(b) = &m.outcome else {
        panic!()
    };
    assert_eq!(b.len(), 2);
    assert_eq!(b[0].result, GameResult::Draw);
    assert_eq!(
        (b[1].result, &b[1].home_player),
        (GameResult::DoubleForfeit, &None)
    );
    assert!(matches!(&r3[1], Pairing::Bye(b) if b.kind == ByeKind::ZeroPoint && b.team.0 == "1"));
    // And back: the same model from the exported file.
    let out = trf::write(&trf::from_competition(c, &import.rules, &import.tiebreaks));
    let again = trf::to_competition(&trf::read("out.trf", &out).unwrap()).unwrap();
    same_model(c, &again.competition);
    assert_eq!(again.rules.white_on_odd_boards, arbiter_core::Side::Away);
}

/// TRF-16 has no 240 or 320: a team's bye is the letter its players' round blocks give with
/// no opponent (U, F, H, Z), the first player's deciding, as FIDE's checker reads it. Without
/// a 320 the pairing-allocated bye scores 362's draw and 162's P (a win) on every board. A team
/// whose players won by forfeit (`+`) against no team named has a full-point bye.
#[test]
fn trf16_team_byes_are_the_codes_of_the_001_blocks_and_a_pab_without_320_scores_p_per_board() {
    let lines = [
        "012 Codes only".to_string(),
        "162  W 1.0    D 0.5    L 0.0".to_string(),
        "362 TW 2.0   TD 1.0   TL 0.0".to_string(),
        // Round 1: 1 v 2, team 3 U, team 4 H. Round 2: 3 v 4, team 1 F, team 2 Z.
        // Round 3: 3 v 4, team 1 wins by forfeit against a team not named, team 2 nothing.
        player_line(1, &["   3 w 1", "0000 - F", "0000 - +"]),
        player_line(2, &["   4 b =", "0000 - F", "0000 - +"]),
        player_line(3, &["   1 b 0", "0000 - Z", "0000 - -"]),
        player_line(4, &["   2 w =", "0000 - Z", "0000 - -"]),
        player_line(5, &["0000 - U", "   7 w 1", "   7 b ="]),
        player_line(6, &["0000 - U", "   8 b 1", "   8 w ="]),
        player_line(7, &["0000 - H", "   5 b 0", "   5 w ="]),
        player_line(8, &["0000 - H", "   6 w 0", "   6 b ="]),
        line(&[(1, "310"), (5, "  1"), (9, "One"), (74, "   1    2")]),
        line(&[(1, "310"), (5, "  2"), (9, "Two"), (74, "   3    4")]),
        line(&[(1, "310"), (5, "  3"), (9, "Three"), (74, "   5    6")]),
        line(&[(1, "310"), (5, "  4"), (9, "Four"), (74, "   7    8")]),
    ];
    let text = lines.join("\n") + "\n";
    let import = trf::to_competition(&trf::read("codes.trf", text.as_bytes()).unwrap()).unwrap();
    let byes = |round: usize| -> Vec<(String, ByeKind)> {
        import.competition.rounds[round]
            .pairings
            .iter()
            .filter_map(|p| match p {
                Pairing::Bye(b) => Some((b.team.0.clone(), b.kind)),
                Pairing::Match(_) => None,
            })
            .collect()
    };
    assert_eq!(
        byes(0),
        [
            ("3".to_string(), ByeKind::PairingAllocated),
            ("4".to_string(), ByeKind::HalfPoint)
        ]
    );
    assert_eq!(
        byes(1),
        [
            ("1".to_string(), ByeKind::FullPoint),
            ("2".to_string(), ByeKind::ZeroPoint)
        ]
    );
    assert_eq!(byes(2), [("1".to_string(), ByeKind::FullPoint)]);
    assert_eq!(import.rules.bye.match_points, 1.0); // 362's TD
    assert_eq!(import.rules.bye.game_points, 2.0); // 162's P = W, on both boards
}

/// B.02's K 40 under 18 needs the birth date: `001` columns 70-79, `YYYY/MM/DD`.
#[test]
fn b02_the_001_birth_date_is_read_and_written_back() {
    let player = |sr: u32, born: &str, round: &str| {
        line(&[
            (1, "001"),
            (5, &format!("{sr:4}")),
            (15, &format!("Player {sr}")),
            (49, "1850"),
            (70, born),
            (92, round),
        ])
    };
    let lines = [
        "012 Juniors".to_string(),
        player(1, "2009/04/17", "   2 w 1"),
        // Not a date: left out with a warning.
        player(2, "2008/02/30", "   1 b 0"),
        player(3, "", "0000 - -"),
        line(&[(1, "310"), (5, "  1"), (9, "One"), (74, "   1")]),
        line(&[(1, "310"), (5, "  2"), (9, "Two"), (74, "   2    3")]),
    ];
    let text = lines.join("\n") + "\n";
    let doc = trf::read("juniors.trf", text.as_bytes()).unwrap();
    let import = trf::to_competition(&doc).unwrap();
    let born: Vec<Option<jiff::civil::Date>> = import
        .competition
        .teams
        .iter()
        .flat_map(|t| &t.players)
        .map(|p| p.record.birth_date)
        .collect();
    assert_eq!(born, [Some(jiff::civil::date(2009, 4, 17)), None, None]);
    assert_eq!(
        import.warnings,
        [
            "juniors.trf:3: player 2: the birth date `2008/02/30` (001, columns 70-79) is not a date YYYY/MM/DD; left out, so B.02's K 40 under 18 cannot apply"
        ]
    );
    // Exported, the date is in columns 70-79 again and reads back the same.
    let out = trf::write(&trf::from_competition(
        &import.competition,
        &import.rules,
        &import.tiebreaks,
    ));
    let out_text = String::from_utf8(out.clone()).unwrap();
    let first = out_text
        .lines()
        .find(|l| l.starts_with("001    1"))
        .unwrap();
    assert_eq!(&first[69..79], "2009/04/17", "{first}");
    let again = trf::to_competition(&trf::read("out.trf", &out).unwrap()).unwrap();
    same_model(&import.competition, &again.competition);
}
