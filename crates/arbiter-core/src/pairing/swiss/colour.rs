//! C.04.6 art. 4: the colours of a pair, once the whole round is paired. The first-team (art.
//! 4.2) is decided by score and then TPN; the rules of art. 4.3 are tried in order and one always
//! decides.

use super::field::Entrant;
use crate::record::model::Colour;
use crate::rules::ruleset::ColourPreferences;

/// The rule of art. 4.3 that gave the colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourRule {
    /// 4.3.1: neither team has played; the initial-colour by the first-team's TPN.
    InitialColour,
    /// 4.3.2: only one team has a colour preference.
    OnlyPreference,
    /// 4.3.3: the two teams prefer opposite colours.
    OppositePreferences,
    /// 4.3.4 (type B): only one team's preference is strong.
    StrongPreference,
    /// 4.3.5: White to the team with the lower colour difference.
    ColourDifference,
    /// 4.3.6: alternate from the last round the two had different colours.
    Alternation,
    /// 4.3.7: the first-team's preference.
    FirstTeamPreference,
    /// 4.3.8: the first-team alternates from its last played match.
    FirstTeamAlternates,
    /// 4.3.9: the other team alternates from its last played match.
    OtherTeamAlternates,
}

impl ColourRule {
    /// `C.04.6 art. 4.3.5`.
    pub fn article(self) -> &'static str {
        match self {
            ColourRule::InitialColour => "C.04.6 art. 4.3.1",
            ColourRule::OnlyPreference => "C.04.6 art. 4.3.2",
            ColourRule::OppositePreferences => "C.04.6 art. 4.3.3",
            ColourRule::StrongPreference => "C.04.6 art. 4.3.4",
            ColourRule::ColourDifference => "C.04.6 art. 4.3.5",
            ColourRule::Alternation => "C.04.6 art. 4.3.6",
            ColourRule::FirstTeamPreference => "C.04.6 art. 4.3.7",
            ColourRule::FirstTeamAlternates => "C.04.6 art. 4.3.8",
            ColourRule::OtherTeamAlternates => "C.04.6 art. 4.3.9",
        }
    }

    /// What the rule says, in a few words.
    pub fn words(self) -> &'static str {
        match self {
            ColourRule::InitialColour => {
                "neither team has played a match: the initial-colour by the first-team's TPN"
            }
            ColourRule::OnlyPreference => "only one team has a colour preference, and gets it",
            ColourRule::OppositePreferences => "the teams prefer opposite colours, and get them",
            ColourRule::StrongPreference => "only one team's preference is strong, and it gets it",
            ColourRule::ColourDifference => "White to the team with the lower colour difference",
            ColourRule::Alternation => {
                "the colours alternate from the last match in which the teams had different ones"
            }
            ColourRule::FirstTeamPreference => "the first-team gets its colour preference",
            ColourRule::FirstTeamAlternates => {
                "the first-team alternates from its last played match"
            }
            ColourRule::OtherTeamAlternates => {
                "the other team alternates from its last played match"
            }
        }
    }
}

/// Art. 4.2: whether `a` is the first-team of the pair `a`, `b`.
pub(crate) fn is_first_team(a: &Entrant, b: &Entrant, secondary: bool) -> bool {
    if a.primary != b.primary {
        return a.primary > b.primary;
    }
    if secondary && a.secondary != b.secondary {
        return a.secondary > b.secondary;
    }
    a.tpn < b.tpn
}

/// Art. 4.3: which of `a` and `b` has White, and by which rule. `true`: `a` has White.
pub(crate) fn allocate(
    a: &Entrant,
    b: &Entrant,
    kind: ColourPreferences,
    secondary: bool,
    initial: Colour,
) -> (bool, ColourRule) {
    let a_first = is_first_team(a, b, secondary);
    let (first, second) = if a_first { (a, b) } else { (b, a) };
    let (colour, rule) = first_team_colour(first, second, kind, initial);
    ((colour == Colour::White) == a_first, rule)
}

fn first_team_colour(
    first: &Entrant,
    second: &Entrant,
    kind: ColourPreferences,
    initial: Colour,
) -> (Colour, ColourRule) {
    if first.played == 0 && second.played == 0 {
        let colour = if first.tpn % 2 == 1 {
            initial
        } else {
            initial.other()
        };
        return (colour, ColourRule::InitialColour);
    }
    match (first.preference, second.preference) {
        (Some(f), None) => return (f.colour, ColourRule::OnlyPreference),
        (None, Some(s)) => return (s.colour.other(), ColourRule::OnlyPreference),
        (Some(f), Some(s)) if f.colour != s.colour => {
            return (f.colour, ColourRule::OppositePreferences);
        }
        (Some(f), Some(s)) if kind == ColourPreferences::TypeB && f.strong != s.strong => {
            let colour = if f.strong { f.colour } else { s.colour.other() };
            return (colour, ColourRule::StrongPreference);
        }
        _ => {}
    }
    if first.colour_difference != second.colour_difference {
        let colour = if first.colour_difference < second.colour_difference {
            Colour::White
        } else {
            Colour::Black
        };
        return (colour, ColourRule::ColourDifference);
    }
    for (f, s) in first.colours.iter().rev().zip(second.colours.iter().rev()) {
        if f != s {
            return (f.other(), ColourRule::Alternation);
        }
    }
    if let Some(f) = first.preference {
        return (f.colour, ColourRule::FirstTeamPreference);
    }
    if let Some(last) = first.colours.last() {
        return (last.other(), ColourRule::FirstTeamAlternates);
    }
    // 4.3.9: the first-team has not played (4.3.1 took the pair where neither has).
    let last = second.colours.last().copied().unwrap_or(initial);
    (last, ColourRule::OtherTeamAlternates)
}
