//! What a TRF file says of its team Swiss's pairing (C.04.6), as core's `[pairing]` settings:
//! `142` the rounds, `152` the initial-colour, `192` the colour preferences and scores,
//! `250` the acceleration (C.04.7), `260` the prohibited pairings.

use arbiter_core::rules::criteria::ScoreBasis;
use arbiter_core::rules::ruleset::{
    Acceleration, ColourPreferences, ForbiddenPairing, InitialColour, PairingSettings,
};

use super::TrfDocument;
use super::records::{Record, TournamentBody};

/// The `[pairing]` settings the file states; the rest as `fide-team` has them.
pub(crate) fn settings(doc: &TrfDocument) -> PairingSettings {
    let mut p = PairingSettings::default();
    for (_, record) in doc.records() {
        match record {
            Record::Tournament(t) => match (&t.body, t.tag) {
                (TournamentBody::Rounds(f), _) if f.value > 0 => p.rounds = Some(f.value),
                (TournamentBody::InitialColour(f), _) => {
                    p.initial_colour = match f.value.map(|c| c.to_ascii_uppercase()) {
                        Some('W') => InitialColour::White,
                        Some('B') => InitialColour::Black,
                        _ => InitialColour::Drawn,
                    }
                }
                (TournamentBody::Text(f), 192) => coded_type(&f.value, &mut p),
                _ => {}
            },
            Record::Acceleration250(a) => {
                let first_round = a.first_round.value.unwrap_or(1);
                let first_team = a.first_id.value.unwrap_or(0);
                p.acceleration.push(Acceleration {
                    match_points: a.match_points.value.unwrap_or(0.0),
                    game_points: a.game_points.value.unwrap_or(0.0),
                    first_round,
                    last_round: a.last_round.value.filter(|&r| r > 0).unwrap_or(first_round),
                    first_team,
                    last_team: a.last_id.value.filter(|&t| t > 0).unwrap_or(first_team),
                });
            }
            Record::Prohibited260(f) => p.forbidden.push(ForbiddenPairing {
                teams: f
                    .ids
                    .iter()
                    .filter_map(|id| id.value.0)
                    .map(|n| n.to_string())
                    .collect(),
                from_round: Some(f.first_round.value),
                to_round: Some(f.last_round.value.max(f.first_round.value)),
            }),
            _ => {}
        }
    }
    p
}

/// `192`: `FIDE_TEAM_TYPEB_GP_MP` and the like (as FIDE's checker reads them): the colour
/// preferences (a code without `TYPE` has none, except `FIDE_TEAM` and `FIDE_TEAM_BAKU`), the
/// primary score, and whether the other is used for the colours (named after it).
fn coded_type(code: &str, p: &mut PairingSettings) {
    let code = code.trim().to_ascii_uppercase();
    let Some(rest) = code.strip_prefix("FIDE_TEAM") else {
        return;
    };
    let rest = rest.trim_end_matches("_BAKU");
    p.colour_preferences = if rest.is_empty() || rest.starts_with("_TYPEA") {
        ColourPreferences::TypeA
    } else if rest.starts_with("_TYPEB") {
        ColourPreferences::TypeB
    } else {
        ColourPreferences::None
    };
    let scores = rest
        .trim_start_matches("_TYPEA")
        .trim_start_matches("_TYPEB");
    let (primary, secondary) = match scores {
        "_GP_MP" => (ScoreBasis::GamePoints, true),
        "_MP" => (ScoreBasis::MatchPoints, false),
        "_GP" => (ScoreBasis::GamePoints, false),
        _ => (ScoreBasis::MatchPoints, true),
    };
    p.primary = primary;
    p.secondary_for_colours = secondary;
}
