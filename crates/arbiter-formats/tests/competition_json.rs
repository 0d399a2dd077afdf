//! The competition file `arbiter/competition@1`: each kind of error names its place and rule,
//! the issue's sample shape reads, `rules` is a preset, a file or an inline ruleset, and what
//! `write` writes reads back to the same model.

// Helpers outside #[test] functions: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use arbiter_core::record::model::{GameResult, MatchOutcome, Pairing, Side};
use arbiter_core::rules::validate::Severity;
use arbiter_formats::competition_json::{self, JsonError, LoadedCompetition};
use arbiter_formats::ruleset_file::FileRulesetSource;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn load(name: &str) -> Result<LoadedCompetition, JsonError> {
    let text = std::fs::read_to_string(data_dir().join(name)).unwrap();
    competition_json::read(name, &text, &FileRulesetSource::new(data_dir()))
}

fn error(name: &str) -> JsonError {
    match load(name) {
        Ok(_) => panic!("{name} should not load"),
        Err(e) => e,
    }
}

fn boards(l: &LoadedCompetition, round: usize, pairing: usize) -> Vec<GameResult> {
    match &l.competition.rounds[round].pairings[pairing] {
        Pairing::Match(m) => match &m.outcome {
            MatchOutcome::Boards(b) => b.iter().map(|b| b.result).collect(),
            other => panic!("not boards: {other:?}"),
        },
        other => panic!("not a match: {other:?}"),
    }
}

#[test]
fn the_issue_sample_shape_reads() {
    let l = load("sample.json").unwrap();
    // The sample's rosters are a player or none: too short to field a match (AS-9), and
    // nothing else to warn of.
    assert!(
        l.warnings.iter().all(|w| w.rule.as_deref() == Some("AS-9")),
        "{:?}",
        l.warnings
    );
    assert_eq!(l.rules.name, "ASTC");
    assert_eq!(l.competition.name, "Example");
    assert_eq!(l.competition.teams.len(), 5);
    assert_eq!(
        l.competition.teams[0].school.as_deref(),
        Some("Melbourne High")
    );
    let r = &l.competition.rounds[0];
    assert_eq!(r.number, 1);
    assert_eq!(r.date.unwrap().to_string(), "2026-12-07");
    assert_eq!(
        boards(&l, 0, 0),
        [
            GameResult::HomeWin,
            GameResult::Draw,
            GameResult::AwayWin,
            GameResult::HomeWinByForfeit
        ]
    );
    let Pairing::Match(m) = &r.pairings[1] else {
        panic!()
    };
    assert_eq!(m.outcome, MatchOutcome::Forfeit { by: Side::Away });
    assert!(matches!(&r.pairings[2], Pairing::Bye(b) if b.team.0 == "sa"));
}

#[test]
fn unknown_field_has_line_and_column() {
    let e = error("unknown_field.json");
    assert_eq!(e.problems.len(), 1, "{e}");
    let p = &e.problems[0];
    assert_eq!((p.line, p.column), (Some(11), Some(77)), "{e}");
    assert!(p.message.contains("unknown field `resutl`"), "{e}");
    assert!(
        e.to_string()
            .starts_with("unknown_field.json:11:77: unknown field `resutl`"),
        "{e}"
    );
}

#[test]
fn unknown_team_id_names_the_round_match_and_the_teams() {
    let e = error("unknown_team.json");
    assert_eq!(e.problems.len(), 1, "{e}");
    let p = &e.problems[0];
    assert_eq!(p.line, Some(12), "{e}");
    assert!(
        p.message.starts_with(
            "round 1, qld v nt: no team has the id `nt`; the teams are vic, nsw, qld, wa, sa"
        ),
        "{e}"
    );
}

#[test]
fn as_9_a_match_lists_every_board() {
    let e = error("short_match.json");
    let p = &e.problems[0];
    assert_eq!(p.rule.as_deref(), Some("AS-9"), "{e}");
    assert_eq!((p.line, p.column), (Some(10), Some(4)), "{e}");
    assert!(
        p.message.starts_with(
            "round 1, vic v nsw: AS-9: the match lists 3 board results but ASTC plays 4 boards a match"
        ),
        "{e}"
    );
    // The hint for a short team cites GT-M9 only where the ruleset has that rule (not ASTC).
    assert!(p.message.contains("`+/-` or `-/+`"), "{e}");
    assert!(!p.message.contains("GT-M9"), "{e}");
    let e = error("long_match.json");
    assert!(
        e.problems[0].message.contains("lists 5 board results"),
        "{e}"
    );
}

#[test]
fn gt_m8_board_count_under_gthscl() {
    let text = std::fs::read_to_string(data_dir().join("short_match.json"))
        .unwrap()
        .replace("\"rules\": \"astc\"", "\"rules\": \"gthscl\"");
    let e =
        competition_json::read("x.json", &text, &FileRulesetSource::new(data_dir())).unwrap_err();
    assert_eq!(e.problems[0].rule.as_deref(), Some("GT-M8"), "{e}");
}

#[test]
fn gt_m10_a_player_on_two_boards() {
    let e = error("gt_m10.json");
    assert_eq!(e.problems.len(), 1, "{e}");
    let p = &e.problems[0];
    assert_eq!(p.rule.as_deref(), Some("GT-M10"));
    assert_eq!((p.line, p.column), (Some(11), Some(69)), "{e}");
    assert_eq!(
        e.to_string(),
        "gt_m10.json:11:69: round 1, vic v nsw, board 3: GT-M10: Ann Lee (p1) plays boards 1 and 3 of one match; a player plays at most one board"
    );
}

#[test]
fn gt_m4_an_unplayed_draw_is_stored_as_a_double_default_with_a_warning() {
    let l = load("gt_m4.json").unwrap();
    assert_eq!(boards(&l, 0, 0)[1], GameResult::DoubleForfeit);
    let m4: Vec<_> = l
        .warnings
        .iter()
        .filter(|w| w.rule.as_deref() == Some("GT-M4"))
        .collect();
    assert_eq!(m4.len(), 1, "{:?}", l.warnings);
    let w = m4[0];
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.rule.as_deref(), Some("GT-M4"));
    assert_eq!((w.round, w.board), (Some(1), Some(2)));
    assert!(
        w.to_string()
            .starts_with("round 1, vic v nsw, board 2: GT-M4: an agreed draw of an unplayed game"),
        "{w}"
    );
}

#[test]
fn as_14_a_stated_score_that_the_boards_do_not_give_is_impossible() {
    let e = error("impossible_score.json");
    assert_eq!(e.problems.len(), 1, "{e}");
    let p = &e.problems[0];
    assert_eq!(p.rule.as_deref(), Some("AS-14"));
    assert_eq!(p.line, Some(10));
    assert_eq!(
        p.message,
        "round 1, vic v nsw: AS-14: the score 3-1 is impossible: the boards add up to 2.5-1.5; correct the score or the results"
    );
    // The right score reads.
    let text = std::fs::read_to_string(data_dir().join("impossible_score.json"))
        .unwrap()
        .replace("\"3-1\"", "\"2½-1½\"");
    competition_json::read("x.json", &text, &FileRulesetSource::new(data_dir())).unwrap();
}

#[test]
fn gt_m7_and_gt_m8_scores_of_forfeits_and_of_too_many_points() {
    let sample = std::fs::read_to_string(data_dir().join("sample.json")).unwrap();
    let read = |from: &str, to: &str| {
        let text = sample.replace(from, to);
        assert_ne!(text, sample);
        competition_json::read("x.json", &text, &FileRulesetSource::new(data_dir()))
    };
    let e = read(
        "\"forfeit\": \"away\"",
        "\"forfeit\": \"away\", \"score\": \"3-0\"",
    )
    .unwrap_err();
    // The sample plays by the ASTC preset, whose by-law has no rule on forfeited matches: the
    // message cites none (under GTHSCL it cites GT-M7).
    assert_eq!(e.problems[0].rule, None, "{e}");
    assert!(
        e.problems[0]
            .message
            .contains("a forfeited match scores 4-0"),
        "{e}"
    );
    read(
        "\"forfeit\": \"away\"",
        "\"forfeit\": \"away\", \"score\": \"4-0\"",
    )
    .unwrap();
    let e = read(
        "\"boards\": [{\"result\": \"1-0\"",
        "\"score\": \"3-2\", \"boards\": [{\"result\": \"1-0\"",
    )
    .unwrap_err();
    assert_eq!(e.problems[0].rule.as_deref(), Some("AS-9"), "{e}");
    assert!(
        e.problems[0].message.contains("at most 4 game points"),
        "{e}"
    );
}

#[test]
fn a_bad_result_code_is_named_with_its_board() {
    let e = error("bad_result.json");
    assert_eq!(e.problems.len(), 1, "{e}");
    let p = &e.problems[0];
    assert_eq!((p.line, p.column), (Some(11), Some(70)), "{e}");
    assert!(
        p.message.starts_with(
            "round 1, vic v nsw, board 3: `1-1` is not a board result; write 1-0, 0-1, 1/2-1/2"
        ),
        "{e}"
    );
}

#[test]
fn a_team_paired_twice_in_a_round() {
    let e = error("paired_twice.json");
    assert_eq!(e.problems.len(), 1, "{e}");
    let p = &e.problems[0];
    assert_eq!((p.line, p.column), (Some(13), Some(4)), "{e}");
    assert_eq!(
        p.message,
        "round 1, bye: vic: already paired in this round: vic in vic v nsw; a team has one pairing a round"
    );
}

#[test]
fn every_problem_is_reported_at_once_in_file_order() {
    let text = std::fs::read_to_string(data_dir().join("gt_m10.json"))
        .unwrap()
        .replace("{\"bye\": \"sa\"}", "{\"bye\": \"tas\"}")
        .replace("\"+/-\"", "\"+-+\"");
    let e =
        competition_json::read("x.json", &text, &FileRulesetSource::new(data_dir())).unwrap_err();
    let lines: Vec<_> = e.problems.iter().map(|p| p.line.unwrap()).collect();
    assert_eq!(lines, [11, 11, 13], "{e}");
    assert_eq!(e.to_string().lines().count(), 3);
}

#[test]
fn inline_rules_extend_a_preset() {
    let l = load("inline_rules.json").unwrap();
    assert_eq!(l.rules.boards, 3);
    assert_eq!(l.rules.name, "GTHSCL");
    assert_eq!(l.rules.match_points.win, 1.0); // GT-S4, from the preset
    assert_eq!(boards(&l, 0, 0).len(), 3);
}

#[test]
fn inline_rules_errors_point_at_the_key() {
    let sample = std::fs::read_to_string(data_dir().join("sample.json")).unwrap();
    let text = sample.replace(
        "\"rules\": \"astc\"",
        "\"rules\": {\"extends\": \"astc\",\n   \"bords\": 5}",
    );
    let e =
        competition_json::read("x.json", &text, &FileRulesetSource::new(data_dir())).unwrap_err();
    let p = &e.problems[0];
    assert_eq!((p.line, p.column), (Some(2), Some(4)), "{e}");
    assert!(
        p.message.starts_with("rules.bords: unknown field `bords`"),
        "{e}"
    );
    let text = sample.replace("\"rules\": \"astc\"", "\"rules\": {\"extends\": \"nope\"}");
    let e =
        competition_json::read("x.json", &text, &FileRulesetSource::new(data_dir())).unwrap_err();
    assert!(e.problems[0].message.contains("nope"), "{e}");
}

#[test]
fn a_rules_path_is_relative_to_the_json_file() {
    let l = load("rules_path.json").unwrap();
    assert_eq!(l.rules.name, "GTHSCL three boards");
    assert_eq!(l.rules.boards, 3);
    // Somewhere else, the same name is not found, and the message says where it looked.
    let text = std::fs::read_to_string(data_dir().join("rules_path.json")).unwrap();
    let e = competition_json::read(
        "x.json",
        &text,
        &FileRulesetSource::new(data_dir().join("rules")),
    )
    .unwrap_err();
    assert!(e.problems[0].message.contains("there is no file"), "{e}");
    assert_eq!(e.problems[0].line, Some(1), "{e}");
}

#[test]
fn format_and_rules_must_be_given() {
    let sample = std::fs::read_to_string(data_dir().join("sample.json")).unwrap();
    let e = competition_json::read(
        "x.json",
        &sample.replace("arbiter/competition@1", "arbiter/competition@2"),
        &FileRulesetSource::new(data_dir()),
    )
    .unwrap_err();
    assert!(
        e.problems[0]
            .message
            .contains("reads `arbiter/competition@1`"),
        "{e}"
    );
    let e = competition_json::read(
        "x.json",
        &sample.replace("\"rules\": \"astc\",", ""),
        &FileRulesetSource::new(data_dir()),
    )
    .unwrap_err();
    assert!(e.problems[0].message.contains("names no rules"), "{e}");
}

#[test]
fn syntax_errors_have_line_and_column() {
    let e = competition_json::read(
        "x.json",
        "{\"format\": \"arbiter/competition@1\",\n \"name\": 3}",
        &FileRulesetSource::new(data_dir()),
    )
    .unwrap_err();
    assert_eq!(e.problems[0].line, Some(2), "{e}");
    assert!(e.to_string().starts_with("x.json:2:"), "{e}");
    let e = competition_json::read(
        "x.json",
        "{\"format\": ",
        &FileRulesetSource::new(data_dir()),
    )
    .unwrap_err();
    assert!(e.to_string().contains("the file ends"), "{e}");
}

#[test]
fn gt_p1_a_rating_result_beside_a_forfeited_point() {
    let sample = std::fs::read_to_string(data_dir().join("sample.json")).unwrap();
    let text = sample.replace(
        "{\"result\": \"0-1\"}",
        "{\"result\": \"+/-\", \"rating_result\": \"0-1\"}",
    );
    let l = competition_json::read("x.json", &text, &FileRulesetSource::new(data_dir())).unwrap();
    let Pairing::Match(m) = &l.competition.rounds[0].pairings[0] else {
        panic!()
    };
    let MatchOutcome::Boards(b) = &m.outcome else {
        panic!()
    };
    assert_eq!(b[2].result, GameResult::HomeWinByForfeit);
    assert_eq!(b[2].rating_result, Some(GameResult::AwayWin));
}

#[test]
fn round_trip_write_then_read_is_the_same_model() {
    for name in [
        "sample.json",
        "gt_m4.json",
        "inline_rules.json",
        "rules_path.json",
        "rating_records.json",
        "unplayed.json",
    ] {
        let first = load(name).unwrap();
        let text = competition_json::write(&first.competition, &first.rules, &first.tiebreaks);
        let again = competition_json::read(
            "written.json",
            &text,
            &arbiter_core::rules::ruleset::PresetsOnly,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(again.competition, first.competition, "{name}\n{text}");
        assert_eq!(again.rules, first.rules, "{name}\n{text}");
        // Written once more, the text is the same.
        assert_eq!(
            competition_json::write(&again.competition, &again.rules, &again.tiebreaks),
            text
        );
    }
}

#[test]
fn b02_gt_r7_a_players_rating_record_is_read() {
    let l = load("rating_records.json").unwrap();
    let players = &l.competition.teams[0].players;
    let maya = &players[0];
    assert_eq!(maya.record.birth_date, Some(jiff::civil::date(2009, 4, 17)));
    assert_eq!(maya.record.rated_games, Some(35));
    assert_eq!(maya.record.k, None);
    assert_eq!(players[1].record.k, Some(30));
    assert!(!maya.unranked);
    assert!(players[3].unranked, "GT-R7: tol4 is unranked");
    // Written, each field is where the reader found it, and only where one was given.
    let text = competition_json::write(&l.competition, &l.rules, &l.tiebreaks);
    assert!(text.contains("\"birth_date\": \"2009-04-17\""), "{text}");
    assert!(text.contains("\"rated_games\": 35"), "{text}");
    assert!(text.contains("\"k\": 30"), "{text}");
    assert_eq!(text.matches("\"unranked\": true").count(), 1, "{text}");
    assert_eq!(text.matches("\"birth_date\"").count(), 1, "{text}");
    // GT-R6: a player's own school, when not the team's, is kept and written back.
    let eli = &l.competition.teams[1].players[3];
    assert_eq!(eli.school.as_deref(), Some("Genoa Area High School"));
    assert_eq!(text.matches("\"school\": \"Genoa").count(), 1, "{text}");
}

#[test]
fn a_bad_birth_date_has_line_and_column() {
    let good = std::fs::read_to_string(data_dir().join("rating_records.json")).unwrap();
    let text = good.replace("\"2009-04-17\"", "\"2009-02-30\"");
    assert_ne!(text, good);
    let e = competition_json::read("records.json", &text, &FileRulesetSource::new(data_dir()))
        .unwrap_err();
    assert_eq!(e.problems.len(), 1, "{e}");
    let p = &e.problems[0];
    // Line 3, at the end of the date's string, as serde places a value it refuses.
    assert_eq!((p.line, p.column), (Some(3), Some(93)), "{e}");
    assert!(
        e.to_string()
            .starts_with("records.json:3:93: parsed date is not valid"),
        "{e}"
    );
    assert!(p.message.contains("'day'"), "{e}");
}

#[test]
fn written_rules_are_a_preset_name_or_what_differs() {
    let l = load("sample.json").unwrap();
    let text = competition_json::write(&l.competition, &l.rules, &[]);
    assert!(text.contains("\"rules\": \"astc\","), "{text}");
    assert!(text.contains("\"score\": \"2.5-1.5\""), "{text}");
    let l = load("inline_rules.json").unwrap();
    let text = competition_json::write(&l.competition, &l.rules, &[]);
    assert!(
        text.contains("\"extends\": \"gthscl\",\n    \"boards\": 3\n"),
        "{text}"
    );
}

#[test]
fn tiebreaks_are_read_and_written() {
    let sample = std::fs::read_to_string(data_dir().join("sample.json")).unwrap();
    let text = sample.replace(
        "\"rules\": \"astc\",",
        "\"rules\": \"fide-team\", \"tiebreaks\": [\"EMGSB/C1\", \"BH:MP\"],",
    );
    let l = competition_json::read("x.json", &text, &FileRulesetSource::new(data_dir())).unwrap();
    let codes: Vec<_> = l.tiebreaks.iter().map(|t| t.code.as_str()).collect();
    assert_eq!(codes, ["EMGSB/C1", "BH:MP"]);
    let written = competition_json::write(&l.competition, &l.rules, &l.tiebreaks);
    let doc: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(
        doc["tiebreaks"],
        serde_json::json!(["EMGSB/C1", "BH:MP"]),
        "{written}"
    );
    let bad = sample.replace(
        "\"rules\": \"astc\",",
        "\"rules\": \"astc\", \"tiebreaks\": [\"XYZ\"],",
    );
    let e =
        competition_json::read("x.json", &bad, &FileRulesetSource::new(data_dir())).unwrap_err();
    assert!(e.problems[0].message.contains("XYZ"), "{e}");
}

#[test]
fn cut_or_garbled_files_give_errors_never_panics() {
    let sample = std::fs::read_to_string(data_dir().join("sample.json")).unwrap();
    let source = FileRulesetSource::new(data_dir());
    for (i, _) in sample.char_indices() {
        let _ = competition_json::read("x.json", &sample[..i], &source);
        let mut garbled = sample.clone();
        garbled.remove(i);
        let _ = competition_json::read("x.json", &garbled, &source);
        for c in ['"', '}', ']', '\\', '{', '½'] {
            let mut swapped = sample.clone();
            swapped.replace_range(
                i..i + sample[i..].chars().next().unwrap().len_utf8(),
                &c.to_string(),
            );
            if let Err(e) = competition_json::read("x.json", &swapped, &source) {
                assert!(!e.problems.is_empty());
                assert!(!e.to_string().is_empty());
            }
        }
    }
}

/// Issue 12: a match on a day of its own (GT-M2, a moved match) reads and writes back; on a bye
/// the field is refused.
#[test]
fn a_match_day_of_its_own_reads_and_writes_back() {
    let text = r#"{"format": "arbiter/competition@1", "name": "Moved", "rules": "gthscl",
      "teams": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}],
      "rounds": [{"round": 1, "date": "2026-11-02", "matches": [
        {"home": "a", "away": "b", "date": "2026-11-04"},
        {"bye": "c"}
      ]}]}"#;
    let source = arbiter_core::rules::ruleset::PresetsOnly;
    let l = competition_json::read("moved.json", text, &source).unwrap();
    let Pairing::Match(m) = &l.competition.rounds[0].pairings[0] else {
        panic!()
    };
    assert_eq!(m.date, Some(jiff::civil::date(2026, 11, 4)));
    assert_eq!(l.competition.rounds[0].date_of(m), m.date);
    let written = competition_json::write(&l.competition, &l.rules, &[]);
    assert!(written.contains("\"date\": \"2026-11-04\""), "{written}");
    let again = competition_json::read("again.json", &written, &source).unwrap();
    assert_eq!(again.competition, l.competition);
    let bye = text.replace(r#"{"bye": "c"}"#, r#"{"bye": "c", "date": "2026-11-04"}"#);
    let e = competition_json::read("bye.json", &bye, &source).unwrap_err();
    assert!(e.to_string().contains("date"), "{e}");
}

/// Issue 13: each way a board goes unplayed is kept in the file (GT-M9, GT-M16, GT-M17 with its
/// note, GT-M4's agreed draw stored as a double default with a warning).
#[test]
fn gt_m16_gt_m17_gt_m4_unplayed_boards_are_read_and_written() {
    use arbiter_core::record::model::Unplayed;
    let l = load("unplayed.json").unwrap();
    let MatchOutcome::Boards(b) = &l.competition.matches().next().unwrap().1.outcome else {
        panic!("boards")
    };
    assert_eq!(b[0].unplayed, Some(Unplayed::CoachForfeit));
    assert_eq!(
        b[1].unplayed,
        Some(Unplayed::Conduct {
            note: "Phone rang twice after a warning.".into()
        })
    );
    assert_eq!(b[2].unplayed, Some(Unplayed::AgreedDraw));
    assert_eq!(b[2].result, GameResult::DoubleForfeit);
    assert_eq!(b[3].unplayed, Some(Unplayed::Absent));
    // GT-M6: Ottawa Hills came within the hour after its school day: the match is played.
    let late = l.competition.matches().next().unwrap().1.late.unwrap();
    assert_eq!(
        late.ruling(),
        Ok(arbiter_core::season::late::LateRuling::Plays)
    );
    // GT-P3: the games beside the match, outside its score.
    let extra = &l.competition.matches().next().unwrap().1.extra_games;
    assert_eq!(extra.len(), 2);
    assert_eq!(
        extra[0].kind,
        arbiter_core::record::model::ExtraKind::Challenge
    );
    assert_eq!(extra[0].result, GameResult::AwayWin);
    assert!(
        l.warnings
            .iter()
            .any(|w| w.rule.as_deref() == Some("GT-M4")),
        "{:?}",
        l.warnings
    );
    let text = competition_json::write(&l.competition, &l.rules, &l.tiebreaks);
    assert!(text.contains("\"unplayed\": \"coach\""), "{text}");
    assert!(text.contains("\"kind\": \"challenge\""), "{text}");
    assert!(
        text.contains("\"note\": \"Phone rang twice after a warning.\""),
        "{text}"
    );

    // A kind on a result it does not allow, and a conduct forfeit without its note.
    let wrong = std::fs::read_to_string(data_dir().join("unplayed.json"))
        .unwrap()
        .replace(
            r#"{"result": "-/+", "home_player": "t1", "away_player": "o1", "unplayed": "coach"}"#,
            r#"{"result": "-/-", "home_player": "t1", "away_player": "o1", "unplayed": "coach"}"#,
        )
        .replace(r#", "note": "Phone rang twice after a warning.""#, "");
    let e = competition_json::read(
        "wrong.json",
        &wrong,
        &arbiter_core::rules::ruleset::PresetsOnly,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("board 1: a board forfeited by the coach (GT-M16) is scored"),
        "{e}"
    );
    assert!(
        e.contains("board 2: GT-M17: a board forfeited for conduct needs its \"note\""),
        "{e}"
    );
    assert!(e.contains("wrong.json:"), "{e}");
    // GT-M6: a team that never came, yet the boards played: the result does not follow the
    // report.
    let never = std::fs::read_to_string(data_dir().join("unplayed.json"))
        .unwrap()
        .replace(r#""arrived": "16:20""#, r#""clocks_started": "16:30""#);
    let e = competition_json::read(
        "never.json",
        &never,
        &arbiter_core::rules::ruleset::PresetsOnly,
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("GT-M6: by the report, oh did not arrive and begin in time"),
        "{e}"
    );
}

/// One player, one person (AS-3, GT-M15): a player's `person` reads into the model, and `write`
/// writes it back; a player without one names none.
#[test]
fn one_player_one_person_a_player_s_person_reads_and_writes_back() {
    let text = r#"{
  "format": "arbiter/competition@1",
  "name": "Metro",
  "rules": "gthscl",
  "teams": [
    {"id": "a", "name": "A", "school": "A HS", "players": [
      {"id": "a1", "name": "Michael Brennan", "person": "michael-brennan", "rating": 1812},
      {"id": "a2", "name": "Peter Walsh", "rating": 1420}
    ]}
  ],
  "rounds": []
}"#;
    let l =
        competition_json::read("metro.json", text, &FileRulesetSource::new(data_dir())).unwrap();
    let players = &l.competition.teams[0].players;
    assert_eq!(
        players[0].person,
        Some(arbiter_core::record::model::PersonId(
            "michael-brennan".into()
        ))
    );
    assert_eq!(players[1].person, None);
    let written = competition_json::write(&l.competition, &l.rules, &[]);
    assert!(
        written.contains(r#""person": "michael-brennan""#),
        "{written}"
    );
    assert_eq!(written.matches("\"person\"").count(), 1, "{written}");
}
