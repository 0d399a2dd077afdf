//! Every reader of a person's input, fed any bytes, with what must hold for every input (issue
//! 16): nothing panics (a mistake in a file or form is answered with a sentence), and where a
//! reader has a writer, what reads writes back to something that reads the same.
//!
//! Each function is the body of one cargo fuzz target in `fuzz/fuzz_targets/` (libFuzzer,
//! `docs/reliability.md`) and of one proptest in `tests/targets.rs`, which runs on stable in
//! every `cargo test` and replays the inputs kept in `fuzz/regressions/`.

use std::sync::OnceLock;

use arbiter_core::rules::ruleset::{PresetsOnly, RulesetDocument};
use arbiter_core::season::entry::{BoardEntry, LateEntry, PositionEntry, ResultEntry};
use arbiter_core::{
    Competition, Match, Pairing, Ruleset, rules::validate, scoring, scoring::standings,
    season::game,
};
use arbiter_formats::{
    closures_csv, competition_json, field_json, rating_list as list_file, roster_csv, teams_csv,
    trf,
};

/// A target: its name (as in `fuzz/fuzz_targets/NAME.rs`) and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target, by name.
pub const TARGETS: &[Target] = &[
    ("competition_json", competition_json),
    ("trf_read", trf_read),
    ("roster_csv", roster_csv),
    ("teams_csv", teams_csv),
    ("closures_csv", closures_csv),
    ("field_json", field_json),
    ("pgn", pgn),
    ("fen", fen),
    ("ruleset_toml", ruleset_toml),
    ("result_entry", result_entry),
    ("rating_list", rating_list),
];

/// The readers take text; bytes that are not UTF-8 are refused before them (the CLI and the
/// web say so), so only text reaches them.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// The competition file: a file that reads is checked, scored and ranked without a panic, and
/// writes back to a file that reads as the same competition and rules.
pub fn competition_json(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let Ok(loaded) = competition_json::read("fuzz.json", text, &PresetsOnly) else {
        return;
    };
    exercise(&loaded.competition, &loaded.rules);
    let written = competition_json::write(&loaded.competition, &loaded.rules, &loaded.tiebreaks);
    match competition_json::read("written.json", &written, &PresetsOnly) {
        Ok(back) => {
            assert_eq!(
                back.competition, loaded.competition,
                "a written file must read back as the same competition"
            );
            assert_eq!(back.rules, loaded.rules, "and the same rules");
        }
        Err(e) => panic!("a written competition file must read back: {e}\n{written}"),
    }
}

/// What core does with a competition that reads: its findings, score sheet and standings.
fn exercise(competition: &Competition, rules: &Ruleset) {
    let _ = validate::validate(competition, rules);
    let sheet = scoring::score(competition, rules);
    let _ = standings::rank(competition, rules, &sheet, &rules.criteria);
}

/// TRF: a file that reads writes back byte for byte; one that imports exports to a file that
/// reads and imports again.
pub fn trf_read(data: &[u8]) {
    let Ok(doc) = trf::read("fuzz.trf", data) else {
        return;
    };
    assert_eq!(trf::write(&doc), data, "write(read(x)) must give x back");
    let Ok(import) = trf::to_competition(&doc) else {
        return;
    };
    exercise(&import.competition, &import.rules);
    let out = trf::from_competition(&import.competition, &import.rules, &import.tiebreaks);
    let written = trf::write(&out);
    match trf::read("exported.trf", &written) {
        Ok(back) => {
            let _ = trf::to_competition(&back);
        }
        Err(e) => panic!("an exported file must read back: {e}"),
    }
}

/// A roster CSV (`arbiter roster import`, the rosters page).
pub fn roster_csv(data: &[u8]) {
    if let Some(text) = text(data) {
        let _ = roster_csv::read(text);
    }
}

/// A division's teams CSV (`arbiter division create`, the set-up page).
pub fn teams_csv(data: &[u8]) {
    if let Some(text) = text(data) {
        let _ = teams_csv::read(text);
    }
}

/// A season's closures CSV (`arbiter season create --closures`).
pub fn closures_csv(data: &[u8]) {
    if let Some(text) = text(data) {
        let _ = closures_csv::read(text);
    }
}

/// A published rating list (issue 34), in each of its formats: a list that reads has a rated
/// player at least, each with an id.
pub fn rating_list(data: &[u8]) {
    let Some(text) = text(data) else { return };
    // Any day: the readers do not read it.
    let day = Default::default();
    for format in [
        list_file::ListFormat::FideXml,
        list_file::ListFormat::FideTxt,
        list_file::ListFormat::Csv,
    ] {
        if let Ok(list) = list_file::read(text, format, "fuzz", day) {
            assert!(!list.entries.is_empty(), "a list read has a rated player");
        }
    }
}

/// ASTC's field planning files (`arbiter astc field`): the entries and the previous finish.
pub fn field_json(data: &[u8]) {
    if let Some(text) = text(data) {
        let _ = field_json::read_entries("entries.json", text);
        let _ = field_json::read_finish("previous.json", text);
    }
}

/// A game score uploaded (GT-M20).
pub fn pgn(data: &[u8]) {
    if let Some(text) = text(data) {
        let _ = game::read(text);
    }
}

/// A position sent for adjudication: the first line its FEN, the rest its moves; and the FEN
/// alone drawn as a diagram.
pub fn fen(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let (fen, moves) = text.split_once('\n').unwrap_or((text, ""));
    let _ = game::diagram(fen);
    let _ = game::read_position(moves, fen);
}

/// A ruleset file: one that reads writes back (`RulesetDocument::to_toml`) to a file that reads
/// as the same ruleset.
pub fn ruleset_toml(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let Ok(rules) = Ruleset::from_toml("fuzz.toml", text, &PresetsOnly) else {
        return;
    };
    let written = match RulesetDocument::from(&rules).to_toml() {
        Ok(w) => w,
        Err(e) => panic!("a ruleset that reads must write: {e}"),
    };
    match Ruleset::from_toml("written.toml", &written, &PresetsOnly) {
        Ok(back) => assert_eq!(back, rules, "a written ruleset must read back the same"),
        Err(e) => panic!("a written ruleset must read back: {e}\n{written}"),
    }
}

/// The example division, on whose first match the result entries are tried.
fn division() -> &'static (Competition, Ruleset, u32, Match) {
    static DIVISION: OnceLock<(Competition, Ruleset, u32, Match)> = OnceLock::new();
    DIVISION.get_or_init(|| {
        let text = include_str!("../../../examples/gthscl-division.json");
        let loaded = match competition_json::read("gthscl-division.json", text, &PresetsOnly) {
            Ok(l) => l,
            Err(e) => panic!("the example reads: {e}"),
        };
        let (round, m) = loaded
            .competition
            .rounds
            .iter()
            .find_map(|r| {
                r.pairings.iter().find_map(|p| match p {
                    Pairing::Match(m) => Some((r.number, m.clone())),
                    Pairing::Bye(_) => None,
                })
            })
            .unwrap_or_else(|| panic!("the example has a match"));
        (loaded.competition, loaded.rules, round, m)
    })
}

/// A result as a person enters it on the match page or sends it to the API: the input's lines
/// are its fields in order (the forfeit; a late report; then each board's nine fields), read by
/// `ResultEntry::outcome` against the example's first match. An outcome that reads is one the
/// match's validation accepts without a panic.
pub fn result_entry(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut fields = text.split('\n').map(str::to_string);
    let mut next = || fields.next();
    let some = |s: Option<String>| s.filter(|s| !s.is_empty());
    let forfeit = some(next());
    let late = some(next()).map(|team| LateEntry {
        team,
        school_day_ends: next().unwrap_or_default(),
        clocks_started: some(next()),
        arrived: some(next()),
        arranged: next().is_some_and(|s| s == "1"),
    });
    let mut boards = Vec::new();
    while let Some(board) = next() {
        boards.push(BoardEntry {
            // A board number as typed: digits read as a number, anything else as its length.
            board: board
                .trim()
                .parse()
                .unwrap_or_else(|_| u32::try_from(board.len()).unwrap_or(u32::MAX)),
            result: next().unwrap_or_default(),
            home_player: some(next()),
            away_player: some(next()),
            rating_result: some(next()),
            unplayed: some(next()),
            note: some(next()),
            adjourned_to: some(next()),
            adjudication: some(next()).map(|pgn| PositionEntry {
                pgn,
                fen: next().unwrap_or_default(),
                home_clock: some(next()),
                away_clock: some(next()),
            }),
        });
    }
    let entry = ResultEntry {
        forfeit,
        boards,
        late,
    };
    let (competition, rules, round, m) = division();
    if let Ok(outcome) = entry.outcome(competition, rules, *round, m) {
        let mut played = competition.clone();
        for r in &mut played.rounds {
            for p in &mut r.pairings {
                if let Pairing::Match(x) = p
                    && r.number == *round
                    && x.home == m.home
                {
                    x.outcome = outcome.clone();
                }
            }
        }
        exercise(&played, rules);
    }
    if let Some(late) = &entry.late {
        let _ = late.read();
    }
}
