//! Standings criteria as a ruleset names them: the native ones of the two rulebooks
//! (`GP`, `MP`, `H2H:GP`, `H2H:MP`, `H2H:BOARDS`), those of other leagues (`BP`, `WINS`,
//! `DEFAULTS`, `BERLINER`) and FIDE's team tie-breaks by their C.07 codes
//! with the TRF-2026 modifiers (`NAME[:MP|:GP][/Cn|/Mn][/P][/F]`).
//!
//! It also holds a ranking's vocabulary ([`CriterionValue`], [`StandingsError`]) and says which
//! FIDE codes are group tie-breaks, shared by `standings` and `fide`. Imports
//! nothing else from core.

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// One criterion of a ruleset's list, as written, with the rule it applies.
#[derive(Debug, Clone, PartialEq)]
pub struct CriterionSpec {
    /// Exactly as written in the ruleset or TRF 202 record (`"EMGSB/C1/P"`).
    pub code: String,
    /// What the criterion computes, read from the code.
    pub kind: CriterionKind,
    /// The rule ID that this criterion applies in this ruleset (`AS-16`), cited by `--explain`.
    pub rule: Option<String>,
}

/// Which score a criterion reads: match points or game points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoreBasis {
    /// Match points: 2 a match won, 1 drawn in ASTC (AS-15); 1 and ½ in GTHSCL (GT-S4).
    MatchPoints,
    /// Game points: 1 a board won, ½ a board drawn (GT-S1); a team's team points in ASTC (AS-14).
    GamePoints,
}

/// What a standings criterion computes: a native one of the two rulebooks, or a FIDE tie-break.
#[derive(Debug, Clone, PartialEq)]
pub enum CriterionKind {
    /// AS-14: the sum of all game points.
    GamePoints,
    /// AS-15, GT-S4: the sum of match points.
    MatchPoints,
    /// AS-16, GT-S5: the score in the matches among exactly the teams still tied.
    HeadToHead(ScoreBasis),
    /// AS-17: among the games of those matches, wins on board 1, then board 2, and so on.
    HeadToHeadBoards,
    /// `BP`: the sum of board points, each board's game points times its weight (`[scoring]
    /// board_weights`); the game points when no board is weighted.
    BoardPoints,
    /// `WINS`: games won, over the board or by the opponent's default, in matches that count
    /// (a whole-match forfeit is no games).
    GamesWon,
    /// `DEFAULTS`: boards the team defaulted, a whole match forfeited counting every board;
    /// fewer is better.
    Defaults,
    /// `TOP:n`: game points scored against the teams placed in the top n by the criteria
    /// before this one (a place shared across the n-th position counts all who share it), a
    /// team's own matches against itself none.
    TopTeams(u32),
    /// `LOT:seed`: a lot drawn from a recorded seed (as AS-8's, `pairing::lot`): each team's
    /// position in the order the seed draws of the teams as listed; lower is better.
    Lot(u64),
    /// `BERLINER`: the Berliner Wertung over all matches (reference/standards.md): on n boards,
    /// board 1's game points count n times, board 2's n − 1, … the last board's once.
    Berliner,
    /// A FIDE C.07 team tie-break.
    Fide(FideTiebreak),
}

/// A FIDE tie-break with its modifiers (C.07 art. 14, TRF-2026 202 syntax).
#[derive(Debug, Clone, PartialEq)]
pub struct FideTiebreak {
    /// Which tie-break, by its C.07 code.
    pub code: FideCode,
    /// `:MP` / `:GP`; `None` means the primary score.
    pub basis: Option<ScoreBasis>,
    /// `/Cn`: drop the n least significant values; `/Mn`: drop n least and n most.
    pub cut_lowest: u32,
    /// `/Mn`: the n most significant values dropped as well; 0 otherwise.
    pub cut_highest: u32,
    /// `/P`: forfeits count as games played against the scheduled opponent.
    pub forfeits_played: bool,
    /// `/F`: Fore Buchholz.
    pub fore: bool,
}

impl FideTiebreak {
    /// Whether the tie-break is decided inside the tied groups (C.07 art. 4.3 type A, and the
    /// board tie-breaks TBR and BBE): its value is the team's place in its group, lower better,
    /// and it settles the sub-groups it makes itself (art. 6.2, 13.3.3), so the standings engine
    /// computes it on all tied groups at once and does not re-apply it.
    pub fn is_group(&self) -> bool {
        matches!(
            self.code,
            FideCode::De
                | FideCode::Ede
                | FideCode::Edet
                | FideCode::Edeb
                | FideCode::Edebt
                | FideCode::Edebb
                | FideCode::Tbr
                | FideCode::Bbe
        )
    }
}

/// The FIDE C.07 codes that apply to teams.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FideCode {
    /// The primary score (MP or GP as the event decides).
    Pts,
    /// 13.1: the score that is not primary.
    MpVgp,
    /// 6: direct encounter on the primary score.
    De,
    /// 13.3: extended direct encounter; the variants add art. 12 steps for two tied teams.
    Ede,
    /// 13.3 with top board results (art. 12.2) for two tied teams.
    Edet,
    /// 13.3 with bottom board elimination (art. 12.3) for two tied teams.
    Edeb,
    /// 13.3 with board count (art. 12.1), then top board results, for two tied teams.
    Edebt,
    /// 13.3 with board count (art. 12.1), then bottom board elimination, for two tied teams.
    Edebb,
    /// 13.2: extended Sonneborn-Berger (opponent's score × score against it).
    Emmsb,
    /// 13.2: the opponent's match points × the game points scored against it.
    Emgsb,
    /// 13.2: the opponent's game points × the match points scored against it.
    Egmsb,
    /// 13.2: the opponent's game points × the game points scored against it.
    Eggsb,
    /// 8.1: Buchholz.
    Bh,
    /// 12.1: board count (lower is better).
    Bc,
    /// 12.2: top board results.
    Tbr,
    /// 12.3: bottom board elimination.
    Bbe,
    /// 13.4: secondary score plus scaled Buchholz.
    Sssc,
    /// 7.1: rounds won.
    Win,
}

impl FideCode {
    /// Every code with the name a ruleset or TRF 202 record writes it by (`EMGSB`).
    pub const ALL: &'static [(&'static str, FideCode)] = &[
        ("PTS", FideCode::Pts),
        ("MPVGP", FideCode::MpVgp),
        ("DE", FideCode::De),
        ("EDE", FideCode::Ede),
        ("EDET", FideCode::Edet),
        ("EDEB", FideCode::Edeb),
        ("EDEBT", FideCode::Edebt),
        ("EDEBB", FideCode::Edebb),
        ("EMMSB", FideCode::Emmsb),
        ("EMGSB", FideCode::Emgsb),
        ("EGMSB", FideCode::Egmsb),
        ("EGGSB", FideCode::Eggsb),
        ("BH", FideCode::Bh),
        ("BC", FideCode::Bc),
        ("TBR", FideCode::Tbr),
        ("BBE", FideCode::Bbe),
        ("SSSC", FideCode::Sssc),
        ("WIN", FideCode::Win),
    ];

    /// The C.07 article that defines the code, cited by `--explain`.
    pub fn article(self) -> &'static str {
        match self {
            FideCode::Pts => "C.07 art. 11.1",
            FideCode::MpVgp => "C.07 art. 13.1",
            FideCode::De => "C.07 art. 6",
            FideCode::Ede | FideCode::Edet | FideCode::Edeb | FideCode::Edebt | FideCode::Edebb => {
                "C.07 art. 13.3"
            }
            FideCode::Emmsb | FideCode::Emgsb | FideCode::Egmsb | FideCode::Eggsb => {
                "C.07 art. 13.2"
            }
            FideCode::Bh => "C.07 art. 8.1",
            FideCode::Bc => "C.07 art. 12.1",
            FideCode::Tbr => "C.07 art. 12.2",
            FideCode::Bbe => "C.07 art. 12.3",
            FideCode::Sssc => "C.07 art. 13.4",
            FideCode::Win => "C.07 art. 7.1",
        }
    }
}

/// Why a criterion code could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown standings criterion `{code}`: {reason}")]
pub struct CriterionParseError {
    /// The code as written.
    pub code: String,
    /// Why it is not a criterion, naming the codes that are.
    pub reason: String,
}

const NATIVE: &str =
    "GP, MP, H2H:GP, H2H:MP, H2H:BOARDS, BP, WINS, DEFAULTS, BERLINER, TOP:n, LOT:seed";

impl FromStr for CriterionKind {
    type Err = CriterionParseError;

    fn from_str(code: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| CriterionParseError {
            code: code.to_string(),
            reason,
        };
        let upper = code.trim().to_ascii_uppercase();
        match upper.as_str() {
            "GP" => return Ok(CriterionKind::GamePoints),
            "MP" => return Ok(CriterionKind::MatchPoints),
            "H2H" | "H2H:GP" => return Ok(CriterionKind::HeadToHead(ScoreBasis::GamePoints)),
            "H2H:MP" => return Ok(CriterionKind::HeadToHead(ScoreBasis::MatchPoints)),
            "H2H:BOARDS" => return Ok(CriterionKind::HeadToHeadBoards),
            "BP" => return Ok(CriterionKind::BoardPoints),
            "WINS" => return Ok(CriterionKind::GamesWon),
            "DEFAULTS" => return Ok(CriterionKind::Defaults),
            "BERLINER" => return Ok(CriterionKind::Berliner),
            "LOT" => {
                return Err(err(
                    "`LOT` needs the seed it was drawn from, recorded in the code so that anyone can draw it again: write LOT:<seed>, e.g. LOT:48213 (`arbiter draw-lot` draws one)"
                        .into(),
                ));
            }
            _ => {}
        }
        if let Some(n) = upper.strip_prefix("TOP:") {
            return match n.parse::<u32>() {
                Ok(n) if n >= 1 => Ok(CriterionKind::TopTeams(n)),
                _ => Err(err(format!(
                    "`TOP:{n}` needs the number of top teams, 1 or more: TOP:4 counts the game points against the teams placed 1 to 4 by the criteria before it"
                ))),
            };
        }
        if let Some(seed) = upper.strip_prefix("LOT:") {
            return seed.parse::<u64>().map(CriterionKind::Lot).map_err(|_| {
                err(format!(
                    "`LOT:{seed}` needs the seed of the draw, a whole number from 0 to {}: LOT:48213",
                    u64::MAX
                ))
            });
        }
        let mut parts = upper.split('/');
        let head = parts.next().unwrap_or_default();
        let (name, basis) = match head.split_once(':') {
            None => (head, None),
            Some((n, "MP")) => (n, Some(ScoreBasis::MatchPoints)),
            Some((n, "GP")) => (n, Some(ScoreBasis::GamePoints)),
            Some((_, other)) => {
                return Err(err(format!(
                    "`:{other}` is not a score; write `:MP` or `:GP`"
                )));
            }
        };
        let Some(&(_, fide)) = FideCode::ALL.iter().find(|(n, _)| *n == name) else {
            let fide: Vec<&str> = FideCode::ALL.iter().map(|(n, _)| *n).collect();
            return Err(err(format!(
                "the native criteria are {NATIVE}; the FIDE team tie-breaks are {}",
                fide.join(", ")
            )));
        };
        let mut tb = FideTiebreak {
            code: fide,
            basis,
            cut_lowest: 0,
            cut_highest: 0,
            forfeits_played: false,
            fore: false,
        };
        for m in parts {
            let count = |s: &str| {
                s.parse::<u32>()
                    .map_err(|_| err(format!("`/{m}` needs a number of values, like /C1 or /M2")))
            };
            match m.chars().next() {
                Some('C') => tb.cut_lowest = count(&m[1..])?,
                Some('M') => {
                    let n = count(&m[1..])?;
                    tb.cut_lowest = n;
                    tb.cut_highest = n;
                }
                Some('P') if m.len() == 1 => tb.forfeits_played = true,
                Some('F') if m.len() == 1 => tb.fore = true,
                _ => {
                    return Err(err(format!(
                        "`/{m}` is not a modifier; use /Cn, /Mn, /P or /F (C.07 art. 14)"
                    )));
                }
            }
        }
        Ok(CriterionKind::Fide(tb))
    }
}

impl CriterionSpec {
    /// Reads one code as written (`H2H:MP`, `BH:MP/C1/P`); the ruleset sets the rule it applies.
    pub fn parse(code: &str) -> Result<CriterionSpec, CriterionParseError> {
        Ok(CriterionSpec {
            code: code.trim().to_string(),
            kind: code.parse()?,
            rule: None,
        })
    }

    /// The rule to cite for this criterion: the ruleset's, else the FIDE article.
    pub fn cited_rule(&self) -> Option<String> {
        self.rule.clone().or_else(|| match &self.kind {
            CriterionKind::Fide(f) => Some(f.code.article().to_string()),
            _ => None,
        })
    }

    /// Whether a smaller value ranks higher: `DEFAULTS`, BC (C.07 art. 12.1), and the FIDE
    /// tie-breaks whose value is a place inside the tied group (DE, EDE and its variants, TBR,
    /// BBE).
    pub fn lower_is_better(&self) -> bool {
        match &self.kind {
            CriterionKind::Defaults | CriterionKind::Lot(_) => true,
            CriterionKind::Fide(f) => f.code == FideCode::Bc || f.is_group(),
            _ => false,
        }
    }
}

impl fmt::Display for CriterionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.code)
    }
}

/// A criterion as a ruleset writes it: its code, or `{ code = "H2H:GP", rule = "AS-16" }`.
#[derive(Deserialize, Serialize)]
#[serde(untagged)]
enum Written<'a> {
    Code(std::borrow::Cow<'a, str>),
    Table {
        code: std::borrow::Cow<'a, str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        rule: Option<std::borrow::Cow<'a, str>>,
    },
}

impl Serialize for CriterionSpec {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let code = self.code.as_str().into();
        match &self.rule {
            None => Written::Code(code),
            Some(rule) => Written::Table {
                code,
                rule: Some(rule.as_str().into()),
            },
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for CriterionSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (code, rule) = match Written::deserialize(d)? {
            Written::Code(c) => (c, None),
            Written::Table { code, rule } => (code, rule),
        };
        let mut spec = CriterionSpec::parse(&code).map_err(serde::de::Error::custom)?;
        spec.rule = rule.map(std::borrow::Cow::into_owned);
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_codes() {
        assert_eq!(
            "H2H:MP".parse::<CriterionKind>().unwrap(),
            CriterionKind::HeadToHead(ScoreBasis::MatchPoints)
        );
        assert_eq!(
            "h2h:boards".parse::<CriterionKind>().unwrap(),
            CriterionKind::HeadToHeadBoards
        );
    }

    #[test]
    fn other_leagues_codes() {
        for (code, kind) in [
            ("BP", CriterionKind::BoardPoints),
            ("wins", CriterionKind::GamesWon),
            ("DEFAULTS", CriterionKind::Defaults),
            ("Berliner", CriterionKind::Berliner),
            ("TOP:4", CriterionKind::TopTeams(4)),
            ("lot:48213", CriterionKind::Lot(48213)),
        ] {
            assert_eq!(code.parse::<CriterionKind>().unwrap(), kind, "{code}");
        }
        assert!(CriterionSpec::parse("DEFAULTS").unwrap().lower_is_better());
        assert!(!CriterionSpec::parse("WINS").unwrap().lower_is_better());
        let e = "WONS".parse::<CriterionKind>().unwrap_err();
        assert!(e.to_string().contains("BERLINER"), "{e}");
        let e = "TOP:0".parse::<CriterionKind>().unwrap_err();
        assert!(e.to_string().contains("1 or more"), "{e}");
        let e = "LOT".parse::<CriterionKind>().unwrap_err();
        assert!(e.to_string().contains("LOT:<seed>"), "{e}");
        assert!(CriterionSpec::parse("LOT:7").unwrap().lower_is_better());
    }

    #[test]
    fn fide_codes_with_modifiers() {
        let CriterionKind::Fide(tb) = "BH:MP/C1/P".parse().unwrap() else {
            panic!("BH is a FIDE code")
        };
        assert_eq!(tb.code, FideCode::Bh);
        assert_eq!(tb.basis, Some(ScoreBasis::MatchPoints));
        assert_eq!(tb.cut_lowest, 1);
        assert!(tb.forfeits_played);
        let CriterionKind::Fide(tb) = "EMGSB/M2".parse().unwrap() else {
            panic!()
        };
        assert_eq!((tb.cut_lowest, tb.cut_highest), (2, 2));
    }

    #[test]
    fn bad_codes_say_what_is_allowed() {
        let e = "XYZ".parse::<CriterionKind>().unwrap_err();
        assert!(e.to_string().contains("H2H:GP") && e.to_string().contains("EDET"));
        let e = "BH:XP".parse::<CriterionKind>().unwrap_err();
        assert!(e.to_string().contains(":MP"));
        let e = "BH/Q".parse::<CriterionKind>().unwrap_err();
        assert!(e.to_string().contains("art. 14"));
    }
}

/// A criterion's value for one team.
#[derive(Debug, Clone, PartialEq)]
pub enum CriterionValue {
    /// A number: points, a Buchholz, or a place inside the tied group.
    Number(f64),
    /// Compared element by element, first element first (AS-17 board wins, TBR, BBE).
    Sequence(Vec<f64>),
    /// The criterion was never applied to this team (it was already alone in its place).
    NotApplied,
}

impl CriterionValue {
    /// How two values compare (`Greater`: `self` is the higher): numbers by size, sequences
    /// board by board; a value never applied is below any value.
    pub fn compare(&self, other: &CriterionValue) -> Ordering {
        use CriterionValue::*;
        match (self, other) {
            // `+ 0.0` folds -0 into 0: an empty sum is -0, which total_cmp sorts below 0.
            (Number(a), Number(b)) => (a + 0.0).total_cmp(&(b + 0.0)),
            (Sequence(a), Sequence(b)) => {
                for (x, y) in a.iter().zip(b) {
                    match (x + 0.0).total_cmp(&(y + 0.0)) {
                        Ordering::Equal => {}
                        o => return o,
                    }
                }
                a.len().cmp(&b.len())
            }
            (NotApplied, NotApplied) => Ordering::Equal,
            (NotApplied, _) => Ordering::Less,
            (_, NotApplied) => Ordering::Greater,
            (Number(_), Sequence(_)) => Ordering::Less,
            (Sequence(_), Number(_)) => Ordering::Greater,
        }
    }
}

/// Errors that stop a standings computation: a criterion this ruleset cannot apply.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct StandingsError(pub String);
