//! The start of the next season (GT-R1, GT-R2, GT-R3): what each player's league rating
//! becomes, with the rule that decided it, for the officer to read before it is applied.

use super::{LeagueElo, Standing};

/// A player's rating for the next season.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextSeason {
    /// The whole-number rating the season starts from.
    pub rating: u32,
    /// GT-R3: still the provisional `1200N`.
    pub provisional: bool,
    /// The rule that decided it.
    pub rule: &'static str,
}

impl NextSeason {
    /// The sentence an officer reads beside the change.
    pub fn reason(&self, from: &Standing) -> String {
        let was = from.published();
        match self.rule {
            "GT-R1" => format!("GT-R1: an established rating over 1200 carries over ({was})"),
            "GT-R2" => format!(
                "GT-R2: an experienced player starts no lower than 1200 (was {was}, now {})",
                self.rating
            ),
            _ => {
                format!("GT-R3: still provisional ({was}N) until a rated game gives another rating")
            }
        }
    }
}

/// What a player's rating at the end of a season becomes for the next one: an established
/// rating over the start (1200) carries over (GT-R1); an established one at or below it starts
/// at it (GT-R2); a provisional one stays as it is, provisional (GT-R3).
pub fn next_season(end: &Standing, league: &LeagueElo) -> NextSeason {
    let rating = u32::try_from(end.published().max(0)).unwrap_or(u32::MAX);
    if end.provisional {
        NextSeason {
            rating,
            provisional: true,
            rule: "GT-R3",
        }
    } else if rating > league.start {
        NextSeason {
            rating,
            provisional: false,
            rule: "GT-R1",
        }
    } else {
        NextSeason {
            rating: league.start,
            provisional: false,
            rule: "GT-R2",
        }
    }
}
