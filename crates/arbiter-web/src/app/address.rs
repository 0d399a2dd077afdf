//! The site's addresses, one struct each: the handlers' extractor (axum's `Path`) and the
//! OpenAPI document's parameters (`params(CompetitionAddress)`) are the same struct, so the
//! document cannot describe an address the router reads otherwise. A field's name is the
//! route's `{segment}`.

use axum::extract::Path;
use axum::extract::rejection::PathRejection;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::http::error::WebError;

/// An address as a handler takes it: read, or why not (answered 400 with [`super::respond::bad_path`]).
pub type Addressed<T> = Result<Path<T>, PathRejection>;

/// `/leagues/{league}`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct LeagueAddress {
    /// The league's slug
    #[param(example = "gthscl")]
    pub league: String,
}

/// `/leagues/{league}/{season}`.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct SeasonAddress {
    /// The league's slug
    #[param(example = "gthscl")]
    pub league: String,
    /// The season's slug
    #[param(example = "2026-27")]
    pub season: String,
}

/// An address below a competition: the competition's three slugs, then `fields` in the route's
/// order (with `match` first, the round's number and the home team's id, which name a match).
macro_rules! competition_address {
    ($(#[doc = $doc:literal])* $name:ident, match { $($fields:tt)* }) => {
        competition_address!($(#[doc = $doc])* $name {
            /// The round's number
            #[param(minimum = 1, example = 1)]
            round: u32,
            /// The home team's id
            #[param(example = "perrysburg")]
            home: String,
            $($fields)*
        });
    };
    ($(#[doc = $doc:literal])* $name:ident {
        $($(#[$field_attr:meta])* $field:ident: $kind:ty,)*
    }) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Deserialize, IntoParams)]
        #[into_params(parameter_in = Path)]
        pub struct $name {
            /// The league's slug
            #[param(example = "gthscl")]
            pub league: String,
            /// The season's slug
            #[param(example = "2026-27")]
            pub season: String,
            /// The competition's slug
            #[param(example = "wood-county")]
            pub competition: String,
            $($(#[$field_attr])* pub $field: $kind,)*
        }
    };
}

competition_address!(
    /// `/leagues/{league}/{season}/{competition}`.
    CompetitionAddress {}
);

competition_address!(
    /// `…/{competition}/rounds/{round}`. The round is read as text, so that one that is not a
    /// whole number from 1 gets the site's own sentence.
    RoundAddress {
        /// The round number, from 1
        #[param(value_type = u32, minimum = 1, example = 1)]
        round: String,
    }
);

competition_address!(
    /// `…/{competition}/teams/{team}`.
    TeamAddress {
        /// The team's id in the competition
        #[param(example = "perrysburg")]
        team: String,
    }
);

competition_address!(
    /// `…/{competition}/players/{player}`.
    PlayerAddress {
        /// The player's id in the competition
        #[param(example = "perrysburg-1")]
        player: String,
    }
);

competition_address!(
    /// `…/{competition}/rounds/{round}/matches/{home}`: a match, by its round and home team.
    MatchAddress,
    match {}
);

competition_address!(
    /// `…/matches/{home}/extra-games/{game}`: one game recorded with a match (GT-P3).
    ExtraGameAddress,
    match {
        /// The extra game's place among the match's, from 1
        #[param(minimum = 1, example = 1)]
        game: u32,
    }
);

impl ExtraGameAddress {
    /// The match the game was recorded with.
    pub fn of_match(self) -> (MatchAddress, u32) {
        let ExtraGameAddress {
            league,
            season,
            competition,
            round,
            home,
            game,
        } = self;
        (
            MatchAddress {
                league,
                season,
                competition,
                round,
                home,
            },
            game,
        )
    }
}

/// The extractor of an extra game's address.
pub type ExtraGamePath = Addressed<ExtraGameAddress>;

competition_address!(
    /// `…/matches/{home}/lineups/{side}`: one team's lineup for a match (issue 12).
    LineupAddress,
    match {
        /// `home` or `away`: whose lineup
        #[param(example = "away")]
        side: String,
    }
);

/// The extractor of a lineup's address.
pub type LineupPath = Addressed<LineupAddress>;

/// `home` or `away` from an address, or the sentence saying what it must be.
pub fn side(code: &str) -> Result<arbiter_core::Side, WebError> {
    arbiter_core::Side::from_code(code).ok_or_else(|| {
        WebError::not_found(format!(
            "`{code}` is not a side of a match; a lineup's address ends in /lineups/home or /lineups/away."
        ))
    })
}

/// What the last part of an item's address names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Round,
    Team,
    Player,
}

/// An item of a competition (a round, a team, a player) with its competition's address.
pub trait ItemAddress {
    /// Which kind of item the address names.
    const ITEM: Item;

    /// The competition's three slugs and the item's id.
    fn parts(self) -> (CompetitionAddress, String);
}

macro_rules! item_address {
    ($name:ident, $field:ident, $item:ident) => {
        impl ItemAddress for $name {
            const ITEM: Item = Item::$item;

            fn parts(self) -> (CompetitionAddress, String) {
                let competition = CompetitionAddress {
                    league: self.league,
                    season: self.season,
                    competition: self.competition,
                };
                (competition, self.$field)
            }
        }
    };
}

item_address!(RoundAddress, round, Round);
item_address!(TeamAddress, team, Team);
item_address!(PlayerAddress, player, Player);
