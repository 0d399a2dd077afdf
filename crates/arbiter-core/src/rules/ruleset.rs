//! Rulesets as data. A league's rules (board count, scoring, standings criteria, forfeits, byes,
//! colours, the drop rule, the match days) are a TOML document; the presets `astc`, `gthscl` and
//! `fide-team` ship inside the binary. A file may `extends` a preset or another file and override
//! some fields.
//!
//! Parsing is pure: the caller reads files and hands their text in, with a `RulesetSource` that
//! resolves `extends` names it does not know as presets.
//!
//! A [`Ruleset`] is made only by [`Ruleset::new`] and changed by [`Ruleset::with`], so no field
//! (a [`RulesetSpec`], read through `Deref`) gets past the checks a file gets. [`RulesetDocument`]
//! is the ruleset as written, which every writer writes back (`From<&Ruleset>`, `changes_from` a
//! preset, `to_toml`). The presets are `presets/*.toml`, compiled in with `include_str!`.
//! `Ruleset::colour` is the one reading of the colour rule. Sections beyond the basics:
//! `[time_control]`, `[report]` (GT-P2's deadlines), `[calendar] match_days`, `[fees]`, `[event]`
//! (the event day's deadlines), `[playoffs]` (GT-F3, GT-F4), `[lineup]`, `[rating]`, `[pairing]`.

use serde::{Deserialize, Serialize};
use std::fmt;

use jiff::civil::Weekday;

use crate::record::calendar::{SCHOOL_WEEK, weekday_code, weekday_from_code, weekday_name};
use crate::record::model::{Board, Colour, Side};
use crate::record::money::Money;
use crate::rules::criteria::{CriterionSpec, ScoreBasis};
use crate::rules::permissions::Conduct;
use crate::rules::sections::{
    BoundTo, ClubTeams, CountedFor, Deadlines, EventDeadlines, Fees, Fines, LateFine, LeagueElo,
    System as RatingSystem,
};

/// The rules a competition is scored and ranked by, checked: made only by [`Ruleset::new`] (or
/// a ruleset document), so no field can be set to what the checks refuse. Its fields are read
/// through [`RulesetSpec`]; a change is [`Ruleset::with`], checked again.
#[derive(Debug, Clone, PartialEq)]
pub struct Ruleset(RulesetSpec);

impl std::ops::Deref for Ruleset {
    type Target = RulesetSpec;

    fn deref(&self) -> &RulesetSpec {
        &self.0
    }
}

/// The fields of a ruleset before [`Ruleset::new`] checks them.
#[derive(Debug, Clone, PartialEq)]
pub struct RulesetSpec {
    /// The ruleset's name, as pages and files show it: `GTHSCL`.
    pub name: String,
    /// Whose rules these are, in one line: `Greater Toledo High School Chess League`.
    pub description: String,
    /// GT-M8, AS-9: games in a match.
    pub boards: u32,
    /// AS-9: players on a roster (at most).
    pub roster_max: Option<u32>,
    /// GT-S1: points for one game.
    pub game_points: PointScale,
    /// GT-S4, AS-15: points for one match, from the majority of game points.
    pub match_points: PointScale,
    /// `[scoring]`: what decides a match (the majority, or half the points available) and what
    /// each board is worth; the majority of unweighted boards when the rules do not say.
    pub scoring: MatchScoring,
    /// AS-14..AS-18, GT-S5: the ordered standings criteria.
    pub criteria: Vec<CriterionSpec>,
    /// GT-M7: what a forfeited match is worth.
    pub forfeit_match: ForfeitMatchScoring,
    /// What a pairing-allocated bye is worth.
    pub bye: Award,
    /// GT-M18, AS-19: who has White on the odd-numbered boards.
    pub white_on_odd_boards: Side,
    /// GT-M5: the drop rule, when the league has one.
    pub drop: Option<DropRule>,
    /// The rule that makes teams equal on every criterion share the place (AS-18).
    pub shared_places_rule: Option<String>,
    /// `[report]`, GT-P2: the days to enter and to confirm a result; `None` for a league with no
    /// report deadlines (an event whose arbiter enters results at the board).
    pub report: Option<Deadlines>,
    /// GT-M9: a team short of players plays them on the top boards and forfeits the lowest.
    pub short_team_plays_top_boards: bool,
    /// `[cite]`: the league's rule ID for each field, cited in messages (`boards = "GT-M8"`).
    pub citations: std::collections::BTreeMap<String, String>,
    /// How FIDE's team tie-breaks read this event (C.07 arts. 15-16).
    pub fide: FideSettings,
    /// `[rating]`: how the games change ratings (GT-R3; FIDE B.02 when the file does not say).
    pub rating: RatingSystem,
    /// `[lineup]`: what a team's lineup must keep (GT-M11..GT-M15, AS-3, AS-4, AS-10).
    pub lineup: LineupRules,
    /// `[club_teams]`: when games for one of a club's teams bind a player to it (GT-M15's
    /// first game in `gthscl`), read when `lineup.bound_to_first_team` is on.
    pub club_teams: ClubTeams,
    /// `[fines]`: what a sanction costs a club or school, entered in the ledger; empty when
    /// the league fines nothing.
    pub fines: Fines,
    /// `[time_control]`: the clock's stages and increment (AS-1, GT-M19); `None` when the
    /// rules do not say.
    pub time_control: Option<TimeControl>,
    /// `[calendar] match_days`: the weekdays matches are usually set on (GT-M2: Mondays and
    /// Wednesdays in GTHSCL); every school day, Monday to Friday, when the rules do not say.
    /// In the order written, each once; a Saturday or Sunday only in a weekend league.
    pub match_days: Vec<Weekday>,
    /// `[fees]`, GT-O2: the entry fee each school pays once a season; `None` for a league or
    /// event that charges none.
    pub fees: Option<Fees>,
    /// `[event]`, AS-11..AS-13: the event day's deadlines, in minutes before a round (the
    /// roster lock, protests, lineups; `event_day` reads them); `None` for a league.
    pub event: Option<EventDeadlines>,
    /// `[playoffs]`, GT-F3, GT-F4: how many teams of each division qualify, the format and how
    /// a drawn knockout match is decided; `None` for a competition without playoffs.
    pub playoffs: Option<Playoffs>,
    /// `[pairing]`: how a team Swiss is paired by FIDE C.04.6 (the `swiss` module).
    pub pairing: PairingSettings,
    /// `conduct`: who enters, confirms and moves a match's result, read by the permission
    /// table: the advisors in a league (GT-M1, GT-P2), the arbiter at an event (AS-11). A file
    /// that does not say follows its base; without one, a league with `[report]` deadlines is
    /// conducted by its advisors and any other by its arbiter.
    pub conduct: Conduct,
}

/// `[playoffs]`: the end of a season (GT-F3, GT-F4), as data the officers set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playoffs {
    /// GT-F3: the top teams of each division invited; the officers decide how many.
    pub qualifiers_per_division: u32,
    /// A knockout seeded from the qualification, or a round robin of the qualifiers.
    pub format: PlayoffFormat,
    /// How a drawn knockout match is decided, step by step, until one step decides it.
    pub tiebreak: Vec<PlayoffTiebreak>,
    /// GT-F4: playoff games are rated.
    pub rated: bool,
    /// GT-F4: a rescheduled playoff match is played within this many days of its date.
    pub reschedule_within_days: u32,
    /// GT-F4: after a weather postponement, within this many school days of both schools
    /// being open.
    pub weather_school_days: u32,
}

/// The most teams a playoff takes: a knockout of 16 (four rounds).
pub const MAX_PLAYOFF_TEAMS: u32 = 16;

/// The formats of a playoff tournament (`[playoffs] format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayoffFormat {
    /// A knockout seeded 1 v N, byes to the top seeds.
    #[default]
    Knockout,
    /// Every qualifier plays every other once (the Berger tables, AS-19).
    RoundRobin,
}

/// One step deciding a drawn knockout match (`[playoffs] tiebreak`), tried in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayoffTiebreak {
    /// The board count of the Berliner Wertung (reference/standards.md: a German-league
    /// tie-break, not in C.07): each board's points times (boards + 1 − board number), so on
    /// four boards board 1 is worth 4 and board 4 worth 1; the higher total wins. For two teams
    /// level on game points it orders them as FIDE's board count does (C.07 art. 12.1, lower
    /// is better), since the two add up to (boards + 1) × game points.
    Berliner,
    /// The result on board 1 decides; if drawn, board 2; and so on (C.07 art. 12.2's order).
    TopBoard,
    /// The higher seed goes through.
    HigherSeed,
    /// One Armageddon game, entered as such: a draw goes to Black.
    Armageddon,
    /// A playoff game, entered as such; a drawn one decides nothing and another is played.
    PlayoffGame,
}

impl PlayoffTiebreak {
    /// `berliner`, `top_board`, `higher_seed`, `armageddon`, `playoff_game`: the spelling of a
    /// ruleset file.
    pub fn code(self) -> &'static str {
        match self {
            PlayoffTiebreak::Berliner => "berliner",
            PlayoffTiebreak::TopBoard => "top_board",
            PlayoffTiebreak::HigherSeed => "higher_seed",
            PlayoffTiebreak::Armageddon => "armageddon",
            PlayoffTiebreak::PlayoffGame => "playoff_game",
        }
    }

    /// Reads [`PlayoffTiebreak::code`] back.
    pub fn from_code(code: &str) -> Option<PlayoffTiebreak> {
        [
            PlayoffTiebreak::Berliner,
            PlayoffTiebreak::TopBoard,
            PlayoffTiebreak::HigherSeed,
            PlayoffTiebreak::Armageddon,
            PlayoffTiebreak::PlayoffGame,
        ]
        .into_iter()
        .find(|t| t.code() == code)
    }

    /// Whether the step always decides: a seed, or a game played until it does.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            PlayoffTiebreak::HigherSeed
                | PlayoffTiebreak::Armageddon
                | PlayoffTiebreak::PlayoffGame
        )
    }

    /// In words, as the bracket says how a match was decided.
    pub fn words(self) -> &'static str {
        match self {
            PlayoffTiebreak::Berliner => "the Berliner board count",
            PlayoffTiebreak::TopBoard => "the top board result",
            PlayoffTiebreak::HigherSeed => "the higher seed",
            PlayoffTiebreak::Armageddon => "an Armageddon game",
            PlayoffTiebreak::PlayoffGame => "a playoff game",
        }
    }
}

/// GT-F3, GT-F4: the `[playoffs]` settings a ruleset may hold, or the sentence saying why not.
fn check_playoffs(p: &Playoffs) -> Result<(), String> {
    if p.qualifiers_per_division == 0 || p.qualifiers_per_division > MAX_PLAYOFF_TEAMS {
        return Err(format!(
            "`[playoffs] qualifiers_per_division` is {}; the officers invite from 1 to {MAX_PLAYOFF_TEAMS} teams of each division (GT-F3)",
            p.qualifiers_per_division
        ));
    }
    let Some(last) = p.tiebreak.last() else {
        return Err(
            "`[playoffs] tiebreak` is empty; say how a drawn knockout match is decided, e.g. tiebreak = [\"berliner\", \"armageddon\"]"
                .into(),
        );
    };
    if let Some((i, step)) = p
        .tiebreak
        .iter()
        .enumerate()
        .find(|(i, s)| s.is_final() && *i + 1 < p.tiebreak.len())
    {
        return Err(format!(
            "`[playoffs] tiebreak` names `{}` before {} other step{}; `{}` always decides, so put it last",
            step.code(),
            p.tiebreak.len() - i - 1,
            if p.tiebreak.len() - i - 1 == 1 {
                ""
            } else {
                "s"
            },
            step.code()
        ));
    }
    if !last.is_final() {
        return Err(format!(
            "`[playoffs] tiebreak` ends with `{}`, which can leave a drawn match drawn; end it with `armageddon`, `playoff_game` or `higher_seed`",
            last.code()
        ));
    }
    if let Some(step) = p
        .tiebreak
        .iter()
        .enumerate()
        .find_map(|(i, s)| p.tiebreak[..i].contains(s).then_some(s))
    {
        return Err(format!(
            "`[playoffs] tiebreak` names `{}` twice; name each step once",
            step.code()
        ));
    }
    if p.reschedule_within_days == 0 || p.weather_school_days == 0 {
        return Err(
            "`[playoffs] reschedule_within_days` and `weather_school_days` must be at least 1 (GT-F4)"
                .into(),
        );
    }
    Ok(())
}

/// A time control: the stages each player has, and the seconds added a move (AS-1, GT-M19).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// The periods of the game, first first: `{ moves = 30, minutes = 60 }` then
    /// `{ minutes = 30 }` (the rest of the game).
    pub stages: Vec<Stage>,
    /// Seconds added to a player's clock after each move, from move 1.
    #[serde(default)]
    pub increment_seconds: u32,
}

/// One period of a time control.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Stage {
    /// The moves to make in it; none for the rest of the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<u32>,
    /// Minutes on each player's clock for it.
    pub minutes: u32,
}

impl TimeControl {
    /// In words, as pairing and score sheets print it: `30 moves in 60 minutes, then 30
    /// minutes for the rest of the game`; `60 minutes for the game, plus 10 seconds a move
    /// from move 1`.
    pub fn words(&self) -> String {
        let mut parts = Vec::new();
        let last = self.stages.len().saturating_sub(1);
        for (i, s) in self.stages.iter().enumerate() {
            let minutes = |m: u32| format!("{m} minute{}", if m == 1 { "" } else { "s" });
            parts.push(match s.moves {
                Some(n) => format!("{n} moves in {}", minutes(s.minutes)),
                None if i == 0 => format!("{} for the game", minutes(s.minutes)),
                None => format!("{} for the rest of the game", minutes(s.minutes)),
            });
            if i == last && s.moves.is_some() {
                parts.push("then the same again".into());
            }
        }
        let mut out = parts.join(", then ");
        if self.increment_seconds > 0 {
            out.push_str(&format!(
                ", plus {} second{} a move from move 1",
                self.increment_seconds,
                if self.increment_seconds == 1 { "" } else { "s" }
            ));
        }
        out
    }

    /// PGN's `TimeControl` tag (also written in a TRF file's 122 record): `30/3600:1800`,
    /// `3600+10`.
    pub fn pgn(&self) -> String {
        let inc = |secs: u32| {
            if self.increment_seconds > 0 {
                format!("{secs}+{}", self.increment_seconds)
            } else {
                secs.to_string()
            }
        };
        self.stages
            .iter()
            .map(|s| match s.moves {
                Some(n) => format!("{n}/{}", inc(s.minutes * 60)),
                None => inc(s.minutes * 60),
            })
            .collect::<Vec<_>>()
            .join(":")
    }
}

/// `[lineup]`: the rules a lineup is held to, as data. A ruleset that says nothing holds a
/// lineup to nothing beyond one board a player (GT-M10) and its roster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineupRules {
    /// How the boards are ordered: freely, by the roster's declared order (AS-10), or by
    /// rating as of the match date, highest on board 1 (GT-M11, GT-R4).
    pub order: BoardOrder,
    /// GT-M13, GT-R3: provisional (1200N) players play behind every established one.
    pub provisional_last: bool,
    /// GT-M14: a school's teams in one division are ranked as one squad; the first-listed
    /// team holds its highest-ranked players.
    pub sister_teams_ranked_together: bool,
    /// GT-M11, GT-M12: a team plays its strongest players; one it leaves out while a
    /// lower-ranked player plays is withdrawn, which only a short opponent allows.
    pub strongest_play: bool,
    /// GT-M15: a player who has played for one of a school's teams stays with it for the
    /// season, and never plays the top boards of its team in another division.
    pub bound_to_first_team: bool,
    /// AS-4: one team per school in a competition.
    pub one_team_per_school: bool,
    /// AS-3: a player plays in one competition of an event when their dates overlap.
    pub one_team_when_dates_overlap: bool,
    /// Which ratings order the boards and count against a cap: the league's own (GT-R4), a
    /// published list in force on the match day, or the roster's, fixed for the season.
    pub ratings: RatingSource,
    /// Rating points a player may sit below one rated higher without breaking the order (0:
    /// strictly by rating).
    pub tolerance: u32,
    /// The most rating points between consecutive boards; `None` for no limit.
    pub max_gap: Option<u32>,
    /// `[lineup.cap]`: the ratings a lineup may field at most.
    pub cap: RatingCap,
}

/// Which ratings order a lineup's boards and count against its cap (`[lineup] ratings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RatingSource {
    /// GT-R4: the league's own ratings, replayed from the competition's games to the match day.
    #[default]
    League,
    /// The published list in force on the match day (`rating::list`).
    List,
    /// The rating on the roster, fixed for the season.
    Roster,
}

impl RatingSource {
    /// `league`, `list` or `roster`: the spelling of a ruleset file.
    pub fn code(self) -> &'static str {
        match self {
            RatingSource::League => "league",
            RatingSource::List => "list",
            RatingSource::Roster => "roster",
        }
    }
}

/// `[lineup.cap]`: the most a lineup may field in rating points, each limit `None` when the
/// league sets none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RatingCap {
    /// The highest rating a player of the lineup may have (a lower division's 1350).
    pub player_max: Option<u32>,
    /// The most the lineup's ratings may add up to (a grade-limited league's 500).
    pub team_total_max: Option<u32>,
    /// The average of the lineup's highest-rated players must be below a number (the US
    /// Amateur Team's four under 2200).
    pub average: Option<AverageCap>,
    /// The rating counted for a player without one.
    pub unrated_as: u32,
}

impl RatingCap {
    /// Whether any limit is set.
    pub fn is_set(&self) -> bool {
        self.player_max.is_some() || self.team_total_max.is_some() || self.average.is_some()
    }
}

/// The average of a lineup's `of` highest ratings, which must be under `under`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AverageCap {
    /// How many of the lineup's highest-rated players the average takes.
    pub of: u32,
    /// The average must be below this.
    pub under: u32,
}

/// The order a lineup's boards must keep (`[lineup] order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardOrder {
    /// Any order.
    #[default]
    Free,
    /// AS-10: the roster's declared order of strength; a lineup is a subsequence of it.
    Roster,
    /// GT-M11, GT-R4: by rating as of the match date, highest on board 1.
    Rating,
}

impl BoardOrder {
    /// `free`, `roster` or `rating`: the spelling of a ruleset file.
    pub fn code(self) -> &'static str {
        match self {
            BoardOrder::Free => "free",
            BoardOrder::Roster => "roster",
            BoardOrder::Rating => "rating",
        }
    }
}

/// The facts of an event that FIDE's tie-breaks (C.07) need and the results do not tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FideSettings {
    /// The edition of C.07 in force. `None`: the 2024-08 text for an event whose first round is
    /// dated before 1 March 2026, the 2026-03 text otherwise (also when undated), as FIDE's
    /// checker chooses by the start date.
    pub edition: Option<FideEdition>,
    /// Whether the pairings were fixed in advance (a round robin, C.07 art. 15.2). `None`: as
    /// FIDE's checker guesses it, from the number of teams and rounds.
    pub round_robin: Option<bool>,
    /// The primary score of a FIDE team event (C.04.6 art. 1.2.1; TRF `192`), used when the
    /// criteria name neither `MP` nor `GP` (a list that starts with `PTS`). `None`: match points.
    pub primary: Option<ScoreBasis>,
}

/// An edition of FIDE's tie-break regulations (Handbook C.07).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub enum FideEdition {
    /// In force from 1 August 2024: an unplayed round's dummy opponent has the team's own score.
    #[serde(rename = "2024-08")]
    Aug2024,
    /// In force from 1 March 2026: that dummy's score is capped (art. 16.4).
    #[serde(rename = "2026-03")]
    Mar2026,
}

/// `[pairing]`: the settings C.04.6 leaves to the rules of a team Swiss (the `swiss` module).
#[derive(Debug, Clone, PartialEq)]
pub struct PairingSettings {
    /// Art. 1.7: type A colour preferences (the default), type B, or none at all.
    pub colour_preferences: ColourPreferences,
    /// Art. 1.2.1: the primary score, which makes the scoregroups.
    pub primary: ScoreBasis,
    /// Art. 1.2.1, 4.2.2: whether the other score decides the first-team of a pair.
    pub secondary_for_colours: bool,
    /// Art. 2.1.1 [C1]: how often two teams may meet; 1 in C.04.6.
    pub max_meetings: u32,
    /// Art. 4.1: the initial-colour, drawn by lot or chosen.
    pub initial_colour: InitialColour,
    /// The scheduled number of rounds (TRF `142`): art. 2.3.4 [C7] and 2.3.7 [C10] are off in
    /// the last two, and type B reads the last round.
    pub rounds: Option<u32>,
    /// Teams that may not meet (TRF `260`: one federation or club), each group in its rounds.
    pub forbidden: Vec<ForbiddenPairing>,
    /// C.04.7: virtual points added to the pairing score (TRF `250`, Baku acceleration).
    pub acceleration: Vec<Acceleration>,
    /// `seed`, `seed_top`: the order of the start numbers (art. 1.1's TPN).
    pub seed: SeedOrder,
}

/// `[pairing] seed`: how the teams get their start numbers (C.04.6 art. 1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SeedOrder {
    /// The competition file's order of the teams (`seed = "file"`).
    #[default]
    File,
    /// By the average rating of each team's `n` highest-rated players on its roster, highest
    /// first; a team with fewer rated players averages those it has, one with none comes last;
    /// equal averages keep the file's order (`seed = "average_top"`, `seed_top = n`).
    AverageTop(u32),
}

/// `[pairing] seed` as a file writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SeedName {
    /// The file's order.
    File,
    /// The average rating of the top `seed_top` players.
    AverageTop,
}

impl Default for PairingSettings {
    fn default() -> Self {
        PairingSettings {
            colour_preferences: ColourPreferences::TypeA,
            primary: ScoreBasis::MatchPoints,
            secondary_for_colours: true,
            max_meetings: 1,
            initial_colour: InitialColour::Drawn,
            rounds: None,
            forbidden: Vec::new(),
            acceleration: Vec::new(),
            seed: SeedOrder::File,
        }
    }
}

/// C.04.6 art. 1.7: which colour preferences a team has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum ColourPreferences {
    /// Art. 1.7.1: one strength of preference.
    #[serde(rename = "A")]
    TypeA,
    /// Art. 1.7.2: strong and mild preferences.
    #[serde(rename = "B")]
    TypeB,
    /// No colour preferences at all.
    #[serde(rename = "none")]
    None,
}

/// C.04.6 art. 4.1: the initial-colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InitialColour {
    /// Drawn by lot (from the seed the caller passes), unless round 1 was played and shows it.
    Drawn,
    /// Chosen: White.
    White,
    /// Chosen: Black.
    Black,
}

/// Teams that may not be paired with each other in the rounds given (TRF `260`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ForbiddenPairing {
    /// The teams, by id: no two of them meet.
    pub teams: Vec<String>,
    /// The first round the ban holds; from round 1 when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_round: Option<u32>,
    /// The last round the ban holds; to the last round when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_round: Option<u32>,
}

impl ForbiddenPairing {
    /// Whether the ban holds in `round`.
    pub fn holds_in(&self, round: u32) -> bool {
        self.from_round.is_none_or(|f| f <= round) && self.to_round.is_none_or(|t| round <= t)
    }
}

/// C.04.7: virtual points for a range of teams (by start number) in a range of rounds.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Acceleration {
    /// Added to match points.
    pub match_points: f64,
    /// Added to game points.
    pub game_points: f64,
    /// The first round paired with them.
    pub first_round: u32,
    /// The last round paired with them.
    pub last_round: u32,
    /// The first start number that gets them.
    pub first_team: u32,
    /// The last start number that gets them.
    pub last_team: u32,
}

/// Points for a win, a draw and a loss: of one game (GT-S1) or of one match (GT-S4, AS-15).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PointScale {
    /// Points for a win: 1 a game (GT-S1); 1 a match in GTHSCL (GT-S4), 2 in ASTC (AS-15).
    pub win: f64,
    /// Points for a draw: ½ a game (GT-S1); ½ a match in GTHSCL (GT-S4), 1 in ASTC (AS-15).
    pub draw: f64,
    /// Points for a loss: 0.
    pub loss: f64,
}

/// `[scoring]`: how a match's boards make its result. The default is today's rule (GT-S4,
/// AS-15): every board worth its game points, and the team with more of them wins the match.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MatchScoring {
    /// What a team must score to win or draw the match.
    pub decided_by: MatchDecision,
    /// Each board's weight, board 1 first, one a board; empty when every board weighs 1. A
    /// team's board points are the sum over its boards of the game points times the weight.
    pub board_weights: Vec<u32>,
}

impl MatchScoring {
    /// Whether this is the rule of the two built-in rulebooks: the majority of unweighted boards.
    pub fn is_majority_of_game_points(&self) -> bool {
        *self == MatchScoring::default()
    }
}

/// `[scoring] decided_by`: what wins a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchDecision {
    /// GT-S4, AS-15: more board points than the opponent wins, as many draws.
    #[default]
    Majority,
    /// More than half of the board points the match has (every board, played or not) wins,
    /// exactly half draws, less gets the loss's match points: so 3½:3½ with a double default
    /// on 8 boards gives both teams the loss's points, and 4:3½ a draw's to the 4 and the loss's
    /// to the 3½.
    HalfOfBoards,
}

impl MatchDecision {
    /// `majority` or `half_of_boards`: the spelling of a ruleset file.
    pub fn code(self) -> &'static str {
        match self {
            MatchDecision::Majority => "majority",
            MatchDecision::HalfOfBoards => "half_of_boards",
        }
    }
}

/// What a team takes from a match not played on the boards: a forfeit (GT-M7) or a bye.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Award {
    /// The match points awarded.
    pub match_points: f64,
    /// The game points awarded: 4 to the team that did not forfeit in GTHSCL (GT-M7).
    pub game_points: f64,
}

/// GT-M7: the team that did not forfeit gets `winner`, the forfeiting team `loser`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForfeitMatchScoring {
    /// What the team that did not forfeit takes: 1 match point and 4 game points in GTHSCL.
    pub winner: Award,
    /// What the forfeiting team takes: nothing in GTHSCL.
    pub loser: Award,
    /// GT-M7: "ratings of individual players involved will not be changed".
    pub rated: bool,
}

/// GT-M5: a team that forfeits `after_match_forfeits` matches is dropped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DropRule {
    /// How many match forfeits drop a team: two in GTHSCL.
    pub after_match_forfeits: u32,
    /// Under half its schedule played: all its matches leave every figure.
    pub exclude_when_played_under_half: bool,
    /// Half or more played: its matches after the drop score as forfeits for its opponents.
    pub remaining_matches_forfeited: bool,
}

/// The presets shipped inside the binary.
pub const PRESETS: &[(&str, &str)] = &[
    ("astc", include_str!("../../presets/astc.toml")),
    ("gthscl", include_str!("../../presets/gthscl.toml")),
    ("fide-team", include_str!("../../presets/fide-team.toml")),
];

/// Where an `extends` name that is not a preset is looked up (a file, relative to the
/// file that names it). Returns the name to show in messages and the text.
pub trait RulesetSource {
    /// The name to show in messages and the text of the ruleset called `name`; `Err` says why not.
    fn load(&self, name: &str) -> Result<(String, String), String>;
}

/// A source that knows only the presets.
#[derive(Debug, Clone, Copy, Default)]
pub struct PresetsOnly;

impl RulesetSource for PresetsOnly {
    fn load(&self, name: &str) -> Result<(String, String), String> {
        Err(format!(
            "`{name}` is not a preset ({}), and no ruleset files can be read here",
            preset_names().join(", ")
        ))
    }
}

/// The names of the shipped presets: `astc`, `gthscl`, `fide-team`.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|(n, _)| *n).collect()
}

/// A ruleset that could not be read: which file, where in it, and what was wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct RulesetError {
    /// The file (or preset) the error is in.
    pub origin: String,
    /// 1-based line and column, when the error is at a place in the file.
    pub line: Option<usize>,
    /// 1-based column, when the error is at a place in the file.
    pub column: Option<usize>,
    /// What was wrong, as a sentence.
    pub message: String,
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{}:{l}:{c}: {}", self.origin, self.message),
            (Some(l), None) => write!(f, "{}:{l}: {}", self.origin, self.message),
            _ => write!(f, "{}: {}", self.origin, self.message),
        }
    }
}

impl Ruleset {
    /// A ruleset from its fields, or the sentence saying which one cannot be: a match of no
    /// boards, a roster too small to field a match, points that give less for a win than a draw
    /// or a draw than a loss, no standings criterion.
    pub fn new(spec: RulesetSpec) -> Result<Ruleset, String> {
        if spec.boards == 0 {
            return Err("`boards` must be at least 1".into());
        }
        if let Some(max) = spec.roster_max
            && max < spec.boards
        {
            return Err(format!(
                "`roster_max` is {max} but a match has {} boards; a team could never field a full match",
                spec.boards
            ));
        }
        for (what, s) in [
            ("game_points", spec.game_points),
            ("match_points", spec.match_points),
        ] {
            if !(s.win >= s.draw && s.draw >= s.loss) {
                return Err(format!(
                    "`{what}` must not give less for a win than a draw, or less for a draw than a loss (win {}, draw {}, loss {})",
                    s.win, s.draw, s.loss
                ));
            }
        }
        if let Some(tc) = &spec.time_control
            && (tc.stages.is_empty() || tc.stages.iter().any(|s| s.minutes == 0))
        {
            return Err(
                "`[time_control]` needs at least one stage, each of at least one minute, e.g. stages = [{ minutes = 60 }]"
                    .into(),
            );
        }
        check_match_days(&spec.match_days)?;
        check_scoring(&spec)?;
        if let Some(f) = spec.fees
            && (f.entry_fee.is_negative() || f.entry_fee > Money::MAX_ENTRY)
        {
            return Err(format!(
                "`[fees] entry_fee` is {}; a fee is from $0.00 to {} (GT-O2)",
                f.entry_fee,
                Money::MAX_ENTRY
            ));
        }
        if let Some(e) = &spec.event {
            e.check()?;
        }
        if let Some(p) = &spec.playoffs {
            check_playoffs(p)?;
        }
        check_pairing(&spec.pairing)?;
        spec.club_teams.check(spec.boards)?;
        spec.fines.check()?;
        if spec.criteria.is_empty() {
            return Err(
                "`criteria` is empty; name at least one standings criterion, e.g. [\"MP\", \"GP\"]"
                    .into(),
            );
        }
        Ok(Ruleset(spec))
    }

    /// This ruleset changed by `change`, checked again as [`Ruleset::new`] checks.
    pub fn with(&self, change: impl FnOnce(&mut RulesetSpec)) -> Result<Ruleset, String> {
        let mut spec = self.0.clone();
        change(&mut spec);
        Ruleset::new(spec)
    }

    /// The fields, to build another ruleset from.
    pub fn into_spec(self) -> RulesetSpec {
        self.0
    }

    /// The colour `side` has on board `number` (1-based): as the board records it, else by the
    /// colour rule (GT-M18: the visitors have White on odd boards; AS-19: the first-named team).
    /// The one reading of the rule for every page, file and export.
    pub fn colour(&self, board: Option<&Board>, number: u32, side: Side) -> Colour {
        if let Some(home) = board.and_then(|b| b.home_colour) {
            return if side == Side::Home {
                home
            } else {
                home.other()
            };
        }
        let white = if number % 2 == 1 {
            self.white_on_odd_boards
        } else {
            self.white_on_odd_boards.other()
        };
        if side == white {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// A preset by name (`astc`, `gthscl`, `fide-team`).
    pub fn preset(name: &str) -> Option<Ruleset> {
        let (_, text) = PRESETS.iter().find(|(n, _)| *n == name)?;
        // The presets are tested to parse; a failure here is a build defect.
        Ruleset::from_toml(&format!("preset {name}"), text, &PresetsOnly).ok()
    }

    /// Parses a ruleset document. `origin` names it in messages (a path or `preset astc`).
    pub fn from_toml(
        origin: &str,
        text: &str,
        source: &dyn RulesetSource,
    ) -> Result<Ruleset, RulesetError> {
        Self::from_toml_depth(origin, text, source, 0)
    }

    fn from_toml_depth(
        origin: &str,
        text: &str,
        source: &dyn RulesetSource,
        depth: u32,
    ) -> Result<Ruleset, RulesetError> {
        let patch: RulesetDocument = toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|s| line_column(text, s.start))
                .map_or((None, None), |(l, c)| (Some(l), Some(c)));
            RulesetError {
                origin: origin.to_string(),
                line,
                column,
                message: e.message().trim().to_string(),
            }
        })?;
        let base = match &patch.extends {
            None => None,
            Some(name) => Some(Self::resolve_extends(origin, name, source, depth)?),
        };
        patch.apply(origin, base).map_err(|e| e.placed_in(text))
    }

    /// The base of an `extends`: a preset, or what `source` finds under that name.
    pub fn resolve_extends(
        origin: &str,
        name: &str,
        source: &dyn RulesetSource,
        depth: u32,
    ) -> Result<Ruleset, RulesetError> {
        if depth > 8 {
            return Err(RulesetError {
                origin: origin.to_string(),
                line: None,
                column: None,
                message: format!(
                    "`extends = \"{name}\"` goes more than 8 files deep; a ruleset cannot extend itself"
                ),
            });
        }
        if let Some((n, text)) = PRESETS.iter().find(|(n, _)| *n == name) {
            return Self::from_toml_depth(&format!("preset {n}"), text, source, depth + 1);
        }
        let (child_origin, text) = source.load(name).map_err(|message| RulesetError {
            origin: origin.to_string(),
            line: None,
            column: None,
            message: format!("cannot use `extends = \"{name}\"`: {message}"),
        })?;
        Self::from_toml_depth(&child_origin, &text, source, depth + 1)
    }

    /// The league's rule ID for a field of the ruleset (`boards` → `GT-M8`), from `[cite]`.
    pub fn cite(&self, field: &str) -> Option<&str> {
        self.citations.get(field).map(String::as_str)
    }

    /// The most game points one team can score in a match.
    pub fn max_game_points(&self) -> f64 {
        self.game_points.win * f64::from(self.boards)
    }

    /// The Saturday or Sunday `[calendar] match_days` names (a weekend league's): empty for a
    /// school league, whose matches are played on school days (GT-M2).
    pub fn weekend_match_days(&self) -> Vec<Weekday> {
        self.match_days
            .iter()
            .copied()
            .filter(|w| matches!(w, Weekday::Saturday | Weekday::Sunday))
            .collect()
    }

    /// `[scoring] board_weights`: what board `board` (1-based) weighs; 1 when the rules weigh
    /// none, or for a board beyond the list.
    pub fn board_weight(&self, board: u32) -> f64 {
        board
            .checked_sub(1)
            .and_then(|i| self.scoring.board_weights.get(i as usize))
            .map_or(1.0, |&w| f64::from(w))
    }

    /// The sum of the boards' weights: the number of boards when the rules weigh none.
    pub fn total_board_weight(&self) -> f64 {
        (1..=self.boards).map(|b| self.board_weight(b)).sum()
    }

    /// The most board points one team can score in a match: its game points when no board is
    /// weighted (`[scoring] board_weights`).
    pub fn max_board_points(&self) -> f64 {
        self.game_points.win * self.total_board_weight()
    }
}

/// `[scoring]`: one weight a board, each at least 1.
fn check_scoring(spec: &RulesetSpec) -> Result<(), String> {
    let weights = &spec.scoring.board_weights;
    let cite = spec
        .citations
        .get("board_weights")
        .map_or(String::new(), |r| format!(" ({r})"));
    if !weights.is_empty() && weights.len() != spec.boards as usize {
        return Err(format!(
            "`[scoring] board_weights` gives {} weights but a match has {} boards; give one weight a board, board 1 first, e.g. board_weights = [{}]{cite}",
            weights.len(),
            spec.boards,
            (1..=spec.boards)
                .rev()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(i) = weights.iter().position(|&w| w == 0) {
        return Err(format!(
            "`[scoring] board_weights` gives board {} a weight of 0; every board counts, so a weight is 1 or more{cite}",
            i + 1
        ));
    }
    Ok(())
}

/// GT-M2: match days are named, each once, at least one. A weekend day is a match day when the
/// league names it (a weekend league's Saturday or Sunday); a school league names school days.
fn check_match_days(days: &[Weekday]) -> Result<(), String> {
    if days.is_empty() {
        return Err(
            "`[calendar] match_days` is empty; name the weekdays matches are set on, e.g. match_days = [\"monday\", \"wednesday\"] (GT-M2)"
                .into(),
        );
    }
    if let Some(w) = days
        .iter()
        .enumerate()
        .find_map(|(i, w)| days[..i].contains(w).then_some(w))
    {
        return Err(format!(
            "`[calendar] match_days` names {} twice; name each weekday once (GT-M2)",
            weekday_name(*w)
        ));
    }
    Ok(())
}

impl RulesetError {
    /// The error at the line and column of the key its message names first (`` `[fees]
    /// entry_fee` ``, `` `boards` ``) in `text`, the file it was read from, when it has no place
    /// yet and the file writes that key.
    fn placed_in(mut self, text: &str) -> RulesetError {
        if self.line.is_none()
            && let Some(offset) = named_key(&self.message).and_then(|k| key_offset(text, k))
        {
            let (line, column) = line_column(text, offset);
            self.line = Some(line);
            self.column = Some(column);
        }
        self
    }
}

/// The section and key a message names first, between backticks: `` `[lineup] tolerance` `` is
/// `(Some("lineup"), "tolerance")`, `` `boards` `` is `(None, "boards")`.
fn named_key(message: &str) -> Option<(Option<&str>, &str)> {
    let quoted = message.split('`').nth(1)?;
    let (section, key) = match quoted.strip_prefix('[') {
        Some(rest) => {
            let (section, key) = rest.split_once(']')?;
            (Some(section), key.trim())
        }
        None => (None, quoted),
    };
    let key = key.split([' ', '=']).next()?;
    let is_key = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
    };
    (is_key(key) && section.is_none_or(is_key)).then_some((section, key))
}

/// Where `key` is written in `text`, in its `[section]` (or before every section): the byte
/// offset of the key, or of the section's header when the key is not written in it.
fn key_offset(text: &str, (section, key): (Option<&str>, &str)) -> Option<usize> {
    let mut current: Option<&str> = None;
    let mut header = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some(rest) = trimmed.strip_prefix('[') {
            current = rest.split(']').next().map(str::trim);
            if current == section {
                header = Some(offset + indent);
            }
        } else if current == section
            && let Some(after) = trimmed.strip_prefix(key)
            && after.trim_start().starts_with('=')
        {
            return Some(offset + indent);
        }
        offset += line.len();
    }
    header
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// A ruleset document as written (a ruleset file, the competition file's inline `"rules"`, the
/// store's rules): every field optional, so that `extends` can supply the rest. The reader
/// reads it and every writer writes it (`From<&Ruleset>`, [`RulesetDocument::changes_from`]),
/// in the order a ruleset file lists its fields.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RulesetDocument {
    /// The preset or ruleset file this one starts from (`gthscl`, `astc`, `fide`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    /// The ruleset's name, shown on the pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// A sentence on what the ruleset is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Boards per match: 4 in GTHSCL (GT-M2) and ASTC (AS-8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<u32>,
    /// Who enters, confirms and moves a result: `advisors` (a league) or `arbiter` (an event).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conduct: Option<Conduct>,
    /// The most players a team may list.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roster_max: Option<u32>,
    /// Points of one game (GT-S1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_points: Option<PointScale>,
    /// Points of one match (GT-S4, AS-15).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_points: Option<PointScale>,
    /// What decides a match and what each board weighs (`[scoring]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scoring: Option<ScoringPatch>,
    /// The order of the standings: the primary score, then the tie-breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criteria: Option<Vec<CriterionSpec>>,
    /// What a whole-match forfeit scores (GT-M7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forfeit_match: Option<ForfeitMatchPatch>,
    /// What a bye scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye: Option<Award>,
    /// The side with White on boards 1 and 3 (GT-M18, AS-19).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_on_odd_boards: Option<Side>,
    /// When a team that forfeits is dropped (GT-M5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drop: Option<DropPatch>,
    /// The result report's deadlines (GT-P2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<ReportPatch>,
    /// The rule cited when teams still tie share the place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_places_rule: Option<String>,
    /// Whether a short team fills the top boards and forfeits the bottom ones (GT-M6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_team_plays_top_boards: Option<bool>,
    /// Rule IDs to cite for a criterion or a field, by its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cite: Option<std::collections::BTreeMap<String, String>>,
    /// Settings of the FIDE tie-breaks (C.07).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fide: Option<FidePatch>,
    /// The rating system and its settings (`[rating]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingPatch>,
    /// What a lineup must keep (`[lineup]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lineup: Option<LineupPatch>,
    /// The clock (`[time_control]`, AS-1, GT-M19), whole: it replaces an inherited one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// The school calendar's match days (`[calendar]`, GT-M2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calendar: Option<CalendarPatch>,
    /// The entry fee (`[fees]`, GT-O2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fees: Option<FeesPatch>,
    /// The event day's deadlines (`[event]`, AS-11..AS-13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<EventPatch>,
    /// The playoffs (`[playoffs]`, GT-F3, GT-F4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playoffs: Option<PlayoffsPatch>,
    /// How a team Swiss is paired (`[pairing]`, C.04.6).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairing: Option<PairingPatch>,
    /// When games for one of a club's teams bind a player to it (`[club_teams]`, GT-M15).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub club_teams: Option<ClubTeamsPatch>,
    /// What sanctions cost (`[fines]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fines: Option<FinesPatch>,
}

impl From<&Ruleset> for RulesetDocument {
    /// Every field of `r`; reads back to `r` without an `extends`.
    fn from(r: &Ruleset) -> RulesetDocument {
        let fm = r.forfeit_match;
        RulesetDocument {
            extends: None,
            name: Some(r.name.clone()),
            description: Some(r.description.clone()),
            boards: Some(r.boards),
            conduct: Some(r.conduct),
            roster_max: r.roster_max,
            game_points: Some(r.game_points),
            match_points: Some(r.match_points),
            scoring: (!r.scoring.is_majority_of_game_points()).then(|| ScoringPatch {
                decided_by: Some(r.scoring.decided_by),
                board_weights: (!r.scoring.board_weights.is_empty())
                    .then(|| r.scoring.board_weights.clone()),
            }),
            criteria: Some(r.criteria.clone()),
            forfeit_match: Some(ForfeitMatchPatch {
                winner_match_points: Some(fm.winner.match_points),
                winner_game_points: Some(fm.winner.game_points),
                loser_match_points: Some(fm.loser.match_points),
                loser_game_points: Some(fm.loser.game_points),
                rated: Some(fm.rated),
            }),
            bye: Some(r.bye),
            white_on_odd_boards: Some(r.white_on_odd_boards),
            drop: r.drop.map(|d| DropPatch {
                enabled: None,
                after_match_forfeits: Some(d.after_match_forfeits),
                exclude_when_played_under_half: Some(d.exclude_when_played_under_half),
                remaining_matches_forfeited: Some(d.remaining_matches_forfeited),
            }),
            report: r.report.map(|d| ReportPatch {
                enabled: None,
                enter_within_days: Some(d.enter_within),
                confirm_within_days: Some(d.confirm_within),
                correct_within_days: Some(d.correct_within),
            }),
            shared_places_rule: r.shared_places_rule.clone(),
            short_team_plays_top_boards: Some(r.short_team_plays_top_boards),
            cite: (!r.citations.is_empty()).then(|| r.citations.clone()),
            fide: {
                let f = r.fide;
                let patch = FidePatch {
                    edition: f.edition,
                    round_robin: f.round_robin,
                    primary: f.primary.map(|p| match p {
                        ScoreBasis::MatchPoints => ScoreName::Mp,
                        ScoreBasis::GamePoints => ScoreName::Gp,
                    }),
                };
                (patch != FidePatch::default()).then_some(patch)
            },
            rating: Some(RatingPatch::from(r.rating)),
            lineup: Some(LineupPatch::from(r.lineup)),
            time_control: r.time_control.clone(),
            calendar: Some(CalendarPatch {
                match_days: Some(r.match_days.iter().copied().map(MatchDay).collect()),
            }),
            fees: r.fees.map(|f| FeesPatch {
                enabled: None,
                entry_fee: Some(f.entry_fee),
            }),
            event: r.event.map(EventPatch::from),
            playoffs: r.playoffs.as_ref().map(PlayoffsPatch::from),
            pairing: (r.pairing != PairingSettings::default())
                .then(|| PairingPatch::from(&r.pairing)),
            club_teams: (r.club_teams != ClubTeams::default())
                .then(|| ClubTeamsPatch::from(r.club_teams)),
            fines: (r.fines != Fines::default()).then(|| FinesPatch::from(&r.fines)),
        }
    }
}

impl RulesetDocument {
    /// `extends = base_name` and the fields of `self` that differ from `base` (both whole
    /// documents, `From<&Ruleset>`); a drop rule or report deadlines `base` has and `self` has
    /// not are turned off. It may not read back (a field `base` has and `self` leaves out, such
    /// as `roster_max`, cannot be unset): the writer checks.
    pub fn changes_from(&self, base_name: &str, base: &RulesetDocument) -> RulesetDocument {
        let mut out = RulesetDocument {
            extends: Some(base_name.to_string()),
            ..RulesetDocument::default()
        };
        macro_rules! differing {
            ($($field:ident),*) => {
                $(if self.$field != base.$field {
                    out.$field = self.$field.clone();
                })*
            };
        }
        differing!(
            name,
            description,
            boards,
            conduct,
            roster_max,
            game_points,
            match_points,
            scoring,
            criteria,
            forfeit_match,
            bye,
            white_on_odd_boards,
            drop,
            report,
            shared_places_rule,
            short_team_plays_top_boards,
            cite,
            fide,
            rating,
            lineup,
            time_control,
            calendar,
            fees,
            event,
            playoffs,
            pairing,
            club_teams,
            fines
        );
        if let (Some(mine), Some(theirs)) = (&self.cite, &base.cite) {
            // Only what differs, and an empty ID for a citation the base has and this has not.
            let mut cite: std::collections::BTreeMap<String, String> = mine
                .iter()
                .filter(|(k, v)| theirs.get(*k) != Some(*v))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            for k in theirs.keys().filter(|k| !mine.contains_key(*k)) {
                cite.insert(k.clone(), String::new());
            }
            out.cite = (!cite.is_empty()).then_some(cite);
        } else if self.cite.is_none()
            && let Some(theirs) = &base.cite
        {
            out.cite = Some(theirs.keys().map(|k| (k.clone(), String::new())).collect());
        }
        if base.drop.is_some() && self.drop.is_none() {
            out.drop = Some(DropPatch {
                enabled: Some(false),
                ..DropPatch::default()
            });
        }
        if base.report.is_some() && self.report.is_none() {
            out.report = Some(ReportPatch {
                enabled: Some(false),
                ..ReportPatch::default()
            });
        }
        if base.scoring.is_some() && self.scoring.is_none() {
            out.scoring = Some(ScoringPatch {
                decided_by: Some(MatchDecision::Majority),
                board_weights: Some(Vec::new()),
            });
        }
        if let (Some(mine), Some(theirs)) = (out.lineup, base.lineup) {
            out.lineup = Some(mine.unsetting(&theirs));
        }
        if base.fees.is_some() && self.fees.is_none() {
            out.fees = Some(FeesPatch {
                enabled: Some(false),
                entry_fee: None,
            });
        }
        if base.event.is_some() && self.event.is_none() {
            out.event = Some(EventPatch {
                enabled: Some(false),
                ..EventPatch::default()
            });
        }
        if base.fines.is_some() && self.fines.is_none() {
            out.fines = Some(FinesPatch {
                enabled: Some(false),
                ..FinesPatch::default()
            });
        }
        if base.playoffs.is_some() && self.playoffs.is_none() {
            out.playoffs = Some(PlayoffsPatch {
                enabled: Some(false),
                ..PlayoffsPatch::default()
            });
        }
        out
    }

    /// The document as a ruleset file (`toml`'s serializer).
    pub fn to_toml(&self) -> Result<String, toml::ser::Error> {
        toml::to_string(self)
    }
}

/// `[rating]`: `system = "league"` (or `fide`, `uscf`, `glicko2`) and, for the league's Elo,
/// `start`, `k`, `provisional_k`, `provisional_games`, `floor`; `tau` for Glicko-2.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RatingPatch {
    /// `league`, `fide`, `uscf` or `glicko2`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// The rating of a new player (1200N in GTHSCL, GT-R3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    /// The K-factor once a player is established.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub k: Option<f64>,
    /// The K-factor while a player is provisional.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisional_k: Option<f64>,
    /// Rated games a player is provisional for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisional_games: Option<u32>,
    /// The rating no player falls below.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floor: Option<u32>,
    /// Glicko-2's τ: how fast volatility may change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tau: Option<f64>,
}

impl From<RatingSystem> for RatingPatch {
    /// The system and every setting it has.
    fn from(system: RatingSystem) -> RatingPatch {
        let mut p = RatingPatch {
            system: Some(system.code().to_string()),
            ..RatingPatch::default()
        };
        match system {
            RatingSystem::League(l) => {
                p.start = Some(l.start);
                p.k = Some(l.k);
                p.provisional_k = Some(l.provisional_k);
                p.provisional_games = Some(l.provisional_games);
                p.floor = Some(l.floor);
            }
            RatingSystem::Glicko2 { tau } => p.tau = Some(tau),
            RatingSystem::Fide | RatingSystem::Uscf => {}
        }
        p
    }
}

impl RatingPatch {
    /// The system this section makes of the one inherited.
    fn apply(self, base: RatingSystem) -> Result<RatingSystem, String> {
        let system = match &self.system {
            None => base,
            Some(code) => match RatingSystem::named(code, base) {
                Some(named) => named,
                None => {
                    return Err(format!(
                        "`[rating] system` is \"{code}\"; it must be one of \"league\", \"fide\", \"uscf\", \"glicko2\""
                    ));
                }
            },
        };
        let league_fields = [
            ("start", self.start.is_some()),
            ("k", self.k.is_some()),
            ("provisional_k", self.provisional_k.is_some()),
            ("provisional_games", self.provisional_games.is_some()),
            ("floor", self.floor.is_some()),
        ];
        match system {
            RatingSystem::League(l) => {
                if self.tau.is_some() {
                    return Err("`[rating] tau` is Glicko-2's; the league's Elo has none".into());
                }
                let league = LeagueElo {
                    start: self.start.unwrap_or(l.start),
                    k: self.k.unwrap_or(l.k),
                    provisional_k: self.provisional_k.unwrap_or(l.provisional_k),
                    provisional_games: self.provisional_games.unwrap_or(l.provisional_games),
                    floor: self.floor.unwrap_or(l.floor),
                };
                if !(league.k > 0.0 && league.provisional_k > 0.0) {
                    return Err(format!(
                        "`[rating] k` and `provisional_k` must be above 0 (k {}, provisional_k {})",
                        league.k, league.provisional_k
                    ));
                }
                if league.floor > league.start {
                    return Err(format!(
                        "`[rating] floor` is {} but new players start at {}; the floor must not be above the start",
                        league.floor, league.start
                    ));
                }
                Ok(RatingSystem::League(league))
            }
            other => {
                if let Some((field, _)) = league_fields.iter().find(|(_, set)| *set) {
                    return Err(format!(
                        "`[rating] {field}` is a setting of the league's Elo, not of `{}`; set `system = \"league\"` or remove it",
                        other.code()
                    ));
                }
                match (other, self.tau) {
                    (RatingSystem::Glicko2 { .. }, Some(tau)) if !(0.2..=1.2).contains(&tau) => {
                        Err(format!(
                            "`[rating] tau` is {tau}; Glicko-2's system constant must be between 0.2 and 1.2"
                        ))
                    }
                    (RatingSystem::Glicko2 { tau }, t) => Ok(RatingSystem::Glicko2 {
                        tau: t.unwrap_or(tau),
                    }),
                    (_, Some(_)) => Err(
                        "`[rating] tau` is Glicko-2's; set `system = \"glicko2\"` or remove it"
                            .into(),
                    ),
                    (other, None) => Ok(other),
                }
            }
        }
    }
}

/// `[fide]`: `edition = "2024-08"` or `"2026-03"`, `round_robin = true`, `primary = "GP"`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FidePatch {
    /// Which edition of C.07 the tie-breaks follow.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edition: Option<FideEdition>,
    /// Whether the event is an all-play-all (C.07 treats unplayed rounds by it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round_robin: Option<bool>,
    /// The primary score FIDE's tie-breaks build on: match or game points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primary: Option<ScoreName>,
}

/// `primary`: the score by FIDE's letters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum ScoreName {
    /// Match points.
    #[serde(rename = "MP")]
    Mp,
    /// Game points.
    #[serde(rename = "GP")]
    Gp,
}

/// `[forfeit_match]` (GT-M7).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ForfeitMatchPatch {
    /// Match points of the team that did not forfeit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner_match_points: Option<f64>,
    /// Game points of the team that did not forfeit (4 in GTHSCL, GT-M7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner_game_points: Option<f64>,
    /// Match points of the team that forfeited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loser_match_points: Option<f64>,
    /// Game points of the team that forfeited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loser_game_points: Option<f64>,
    /// Whether a forfeited game counts for ratings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
}

/// `[drop]` (GT-M5).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DropPatch {
    /// `false` turns off a drop rule inherited from `extends`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Match forfeits after which a team is dropped (GT-M5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_match_forfeits: Option<u32>,
    /// Whether a dropped team's results are struck out when it played under half its matches (GT-M5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exclude_when_played_under_half: Option<bool>,
    /// Whether a dropped team's remaining matches are forfeited to its opponents (GT-M5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining_matches_forfeited: Option<bool>,
}

/// `[lineup]`: `order = "rating"` and the rules that go with it (GT-M11..GT-M15, AS-3, AS-4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LineupPatch {
    /// `free`, `roster` (AS-10) or `rating` (GT-M11, GT-R4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<BoardOrder>,
    /// Provisional players behind every established one (GT-M13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisional_last: Option<bool>,
    /// A school's teams in one division ranked as one squad (GT-M14).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sister_teams_ranked_together: Option<bool>,
    /// A team plays its strongest players, leaving one out only when the opponent forfeits a
    /// board (GT-M11, GT-M12).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strongest_play: Option<bool>,
    /// A player stays with the first of the school's teams they play for (GT-M15).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound_to_first_team: Option<bool>,
    /// One team per school in a competition (AS-4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub one_team_per_school: Option<bool>,
    /// One competition at a time for a player when their dates overlap (AS-3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub one_team_when_dates_overlap: Option<bool>,
    /// `league` (GT-R4), `list` (the published list in force on the match day) or `roster`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ratings: Option<RatingSource>,
    /// Points a player may sit below one rated higher without breaking the order.
    #[serde(
        default,
        deserialize_with = "tolerance_points",
        skip_serializing_if = "Option::is_none"
    )]
    pub tolerance: Option<u32>,
    /// The most rating points between consecutive boards.
    #[serde(
        default,
        deserialize_with = "gap_points",
        skip_serializing_if = "Option::is_none"
    )]
    pub max_gap: Option<u32>,
    /// `[lineup.cap]`: the limits on the lineup's ratings; a table replaces the inherited one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cap: Option<CapPatch>,
}

/// `[lineup] tolerance`: rating points, 0 or more (the message gives the file's line).
fn tolerance_points<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let n = i64::deserialize(d)?;
    u32::try_from(n).map(Some).map_err(|_| {
        serde::de::Error::custom(format!(
            "`[lineup] tolerance` is {n}; a tolerance is a number of rating points, 0 or more"
        ))
    })
}

/// `[lineup] max_gap`: rating points, 1 or more.
fn gap_points<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let n = i64::deserialize(d)?;
    match u32::try_from(n) {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(serde::de::Error::custom(format!(
            "`[lineup] max_gap` is {n}; the gap between consecutive boards is a number of rating points, 1 or more (leave it out for no limit)"
        ))),
    }
}

/// `[lineup.cap]`: `player_max = 1350`, `team_total_max = 500`, `average_of = 4` with
/// `average_under = 2200`, `unrated_as = 1000`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(try_from = "CapFields")]
pub struct CapPatch {
    /// The highest rating a player of the lineup may have.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player_max: Option<u32>,
    /// The most the lineup's ratings may add up to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_total_max: Option<u32>,
    /// How many of the lineup's highest-rated players the average takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_of: Option<u32>,
    /// The average must be below this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_under: Option<u32>,
    /// The rating counted for an unrated player (0 when not said).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unrated_as: Option<u32>,
}

/// `[lineup.cap]` as written, before [`CapPatch`] checks it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CapFields {
    player_max: Option<i64>,
    team_total_max: Option<i64>,
    average_of: Option<i64>,
    average_under: Option<i64>,
    unrated_as: Option<i64>,
}

impl TryFrom<CapFields> for CapPatch {
    type Error = String;

    fn try_from(f: CapFields) -> Result<CapPatch, String> {
        let points = |key: &str, n: Option<i64>, least: i64| -> Result<Option<u32>, String> {
            match n {
                None => Ok(None),
                Some(n) if n >= least => u32::try_from(n).map(Some).map_err(|_| {
                    format!(
                        "`[lineup.cap] {key}` is {n}; that is more rating points than any list has"
                    )
                }),
                Some(n) => Err(format!(
                    "`[lineup.cap] {key}` is {n}; it is a number of {}, {least} or more",
                    if key == "average_of" {
                        "players"
                    } else {
                        "rating points"
                    }
                )),
            }
        };
        let patch = CapPatch {
            player_max: points("player_max", f.player_max, 1)?,
            team_total_max: points("team_total_max", f.team_total_max, 1)?,
            average_of: points("average_of", f.average_of, 1)?,
            average_under: points("average_under", f.average_under, 1)?,
            unrated_as: points("unrated_as", f.unrated_as, 0)?,
        };
        match (patch.average_of, patch.average_under) {
            (Some(of), None) => Err(format!(
                "`[lineup.cap] average_of` is {of} but no `average_under` says what the average must stay below; add e.g. average_under = 2200"
            )),
            (None, Some(under)) => Err(format!(
                "`[lineup.cap] average_under` is {under} but no `average_of` says how many players it averages; add e.g. average_of = 4"
            )),
            _ => Ok(patch),
        }
    }
}

impl From<RatingCap> for CapPatch {
    fn from(c: RatingCap) -> CapPatch {
        CapPatch {
            player_max: c.player_max,
            team_total_max: c.team_total_max,
            average_of: c.average.map(|a| a.of),
            average_under: c.average.map(|a| a.under),
            unrated_as: (c.unrated_as != 0).then_some(c.unrated_as),
        }
    }
}

impl From<CapPatch> for RatingCap {
    fn from(p: CapPatch) -> RatingCap {
        RatingCap {
            player_max: p.player_max,
            team_total_max: p.team_total_max,
            average: p
                .average_of
                .zip(p.average_under)
                .map(|(of, under)| AverageCap { of, under }),
            unrated_as: p.unrated_as.unwrap_or(0),
        }
    }
}

impl From<LineupRules> for LineupPatch {
    fn from(l: LineupRules) -> LineupPatch {
        LineupPatch {
            order: Some(l.order),
            provisional_last: Some(l.provisional_last),
            sister_teams_ranked_together: Some(l.sister_teams_ranked_together),
            strongest_play: Some(l.strongest_play),
            bound_to_first_team: Some(l.bound_to_first_team),
            one_team_per_school: Some(l.one_team_per_school),
            one_team_when_dates_overlap: Some(l.one_team_when_dates_overlap),
            // Written only when set, so that the presets' files read as before.
            ratings: (l.ratings != RatingSource::default()).then_some(l.ratings),
            tolerance: (l.tolerance != 0).then_some(l.tolerance),
            max_gap: l.max_gap,
            cap: l.cap.is_set().then(|| CapPatch::from(l.cap)),
        }
    }
}

impl LineupPatch {
    fn apply(self, base: LineupRules) -> LineupRules {
        LineupRules {
            order: self.order.unwrap_or(base.order),
            provisional_last: self.provisional_last.unwrap_or(base.provisional_last),
            sister_teams_ranked_together: self
                .sister_teams_ranked_together
                .unwrap_or(base.sister_teams_ranked_together),
            strongest_play: self.strongest_play.unwrap_or(base.strongest_play),
            bound_to_first_team: self.bound_to_first_team.unwrap_or(base.bound_to_first_team),
            one_team_per_school: self.one_team_per_school.unwrap_or(base.one_team_per_school),
            one_team_when_dates_overlap: self
                .one_team_when_dates_overlap
                .unwrap_or(base.one_team_when_dates_overlap),
            ratings: self.ratings.unwrap_or(base.ratings),
            tolerance: self.tolerance.unwrap_or(base.tolerance),
            max_gap: self.max_gap.or(base.max_gap),
            cap: self.cap.map_or(base.cap, RatingCap::from),
        }
    }

    /// The settings `base` has that `self`, written only when set, leaves out, written as
    /// their defaults, so that `self` read over `base` is `self` ([`RulesetDocument::changes_from`]).
    fn unsetting(mut self, base: &LineupPatch) -> LineupPatch {
        if self.ratings.is_none() && base.ratings.is_some() {
            self.ratings = Some(RatingSource::default());
        }
        if self.tolerance.is_none() && base.tolerance.is_some() {
            self.tolerance = Some(0);
        }
        if self.cap.is_none() && base.cap.is_some() {
            self.cap = Some(CapPatch::default());
        }
        self
    }
}

/// `[club_teams]`: `bound_after_games = 3`, `boards_not_counted = 2`,
/// `bound = "no_lower_team"`, `play_up_max = 4`; what a file leaves out is inherited (GT-M15's
/// values when nothing says).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ClubTeamsPatch {
    /// The counted games for one team after which a player is bound to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound_after_games: Option<u32>,
    /// The bottom boards whose games do not count toward binding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards_not_counted: Option<u32>,
    /// `one_team` (GT-M15) or `no_lower_team`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<BoundTo>,
    /// `each_team` (GT-M15) or `all_teams`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted: Option<CountedFor>,
    /// The most games a player plays for a team higher than one they played for; 0 forbids
    /// playing up. Absent: no limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub play_up_max: Option<u32>,
}

impl From<ClubTeams> for ClubTeamsPatch {
    fn from(c: ClubTeams) -> ClubTeamsPatch {
        ClubTeamsPatch {
            bound_after_games: Some(c.bound_after_games),
            boards_not_counted: Some(c.boards_not_counted),
            bound: Some(c.bound),
            counted: Some(c.counted),
            play_up_max: c.play_up_max,
        }
    }
}

impl ClubTeamsPatch {
    fn apply(self, base: ClubTeams) -> ClubTeams {
        ClubTeams {
            bound_after_games: self.bound_after_games.unwrap_or(base.bound_after_games),
            boards_not_counted: self.boards_not_counted.unwrap_or(base.boards_not_counted),
            bound: self.bound.unwrap_or(base.bound),
            counted: self.counted.unwrap_or(base.counted),
            play_up_max: self.play_up_max.or(base.play_up_max),
        }
    }
}

/// `[fines]`: `match_forfeit = "25.00"`, `board_default = "5.00"`, `drop = "50.00"`,
/// `late_result = [{ days_late = 1, amount = "7.50" }, { days_late = 8, amount = "15.00" }]`;
/// what a file leaves out is inherited, and `enabled = false` fines nothing.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FinesPatch {
    /// `false` turns off the fines inherited from `extends`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// A match forfeited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_forfeit: Option<Money>,
    /// A board left empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_default: Option<Money>,
    /// A team dropped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drop: Option<Money>,
    /// A result entered late, step by step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub late_result: Option<Vec<LateFine>>,
}

impl From<&Fines> for FinesPatch {
    fn from(f: &Fines) -> FinesPatch {
        FinesPatch {
            enabled: None,
            match_forfeit: f.match_forfeit,
            board_default: f.board_default,
            drop: f.drop,
            late_result: (!f.late_result.is_empty()).then(|| f.late_result.clone()),
        }
    }
}

impl FinesPatch {
    fn apply(self, base: Fines) -> Fines {
        if self.enabled == Some(false) {
            return Fines::default();
        }
        Fines {
            match_forfeit: self.match_forfeit.or(base.match_forfeit),
            board_default: self.board_default.or(base.board_default),
            drop: self.drop.or(base.drop),
            late_result: self.late_result.unwrap_or(base.late_result),
        }
    }
}

/// `[scoring]`: `decided_by = "majority"` (or `"half_of_boards"`) and `board_weights = [10, 9,
/// 8, 7, 6]`, one weight a board.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ScoringPatch {
    /// `majority` (GT-S4, AS-15) or `half_of_boards`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<MatchDecision>,
    /// One weight a board, board 1 first; `[]` weighs every board 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_weights: Option<Vec<u32>>,
}

impl ScoringPatch {
    /// The scoring this section makes of the one inherited.
    fn apply(self, base: MatchScoring) -> MatchScoring {
        MatchScoring {
            decided_by: self.decided_by.unwrap_or(base.decided_by),
            board_weights: self.board_weights.unwrap_or(base.board_weights),
        }
    }
}

/// `[calendar]`: `match_days = ["monday", "wednesday"]` (GT-M2).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CalendarPatch {
    /// The weekdays matches are usually set on, in lowercase English (GT-M2); every school day
    /// when no ruleset in the chain names them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub match_days: Option<Vec<MatchDay>>,
}

/// A weekday as a ruleset file names it: `"monday"` to `"sunday"` (`[calendar] match_days`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchDay(pub Weekday);

impl Serialize for MatchDay {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(weekday_code(self.0))
    }
}

impl<'de> Deserialize<'de> for MatchDay {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        match weekday_from_code(&name) {
            Some(w) => Ok(MatchDay(w)),
            None => Err(serde::de::Error::custom(format!(
                "`{name}` is not a weekday; a match day is named in lowercase English, one of \"monday\", \"tuesday\", \"wednesday\", \"thursday\", \"friday\", \"saturday\", \"sunday\" (GT-M2)"
            ))),
        }
    }
}

/// `[report]`: `enter_within_days = 1`, `confirm_within_days = 5`, `correct_within_days = 5`
/// (GT-P2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ReportPatch {
    /// `false` turns off the deadlines inherited from `extends`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Days the home advisor has to enter the result (GT-P2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enter_within_days: Option<u32>,
    /// Days the visitors have to confirm or dispute it (GT-P2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirm_within_days: Option<u32>,
    /// Days either school has to ask for a correction of a result that stands (GT-P2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correct_within_days: Option<u32>,
}

/// `[pairing]`: `colour_preferences = "A"` (or `"B"`, `"none"`), `primary = "MP"`,
/// `secondary_for_colours`, `max_meetings`, `initial_colour = "drawn"` (or `"white"`,
/// `"black"`), `rounds`, `forbidden = [{ teams = ["3", "7"] }]`, `acceleration` (C.04.6, C.04.7).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PairingPatch {
    /// Art. 1.7: `A`, `B` or `none`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour_preferences: Option<ColourPreferences>,
    /// Art. 1.2.1: `MP` or `GP`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub primary: Option<ScoreName>,
    /// Art. 4.2.2: whether the other score decides the first-team.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secondary_for_colours: Option<bool>,
    /// Art. 2.1.1 [C1]: how often two teams may meet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_meetings: Option<u32>,
    /// Art. 4.1: `drawn`, `white` or `black`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_colour: Option<InitialColour>,
    /// The scheduled number of rounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// Teams that may not meet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forbidden: Option<Vec<ForbiddenPairing>>,
    /// C.04.7's virtual points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acceleration: Option<Vec<Acceleration>>,
    /// Art. 1.1's start numbers: `file` (the file's order) or `average_top`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<SeedName>,
    /// With `seed = "average_top"`: how many of each team's highest-rated players average.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_top: Option<u32>,
}

impl From<&PairingSettings> for PairingPatch {
    fn from(p: &PairingSettings) -> PairingPatch {
        PairingPatch {
            colour_preferences: Some(p.colour_preferences),
            primary: Some(match p.primary {
                ScoreBasis::MatchPoints => ScoreName::Mp,
                ScoreBasis::GamePoints => ScoreName::Gp,
            }),
            secondary_for_colours: Some(p.secondary_for_colours),
            max_meetings: Some(p.max_meetings),
            initial_colour: Some(p.initial_colour),
            rounds: p.rounds,
            forbidden: (!p.forbidden.is_empty()).then(|| p.forbidden.clone()),
            acceleration: (!p.acceleration.is_empty()).then(|| p.acceleration.clone()),
            seed: match p.seed {
                SeedOrder::File => None,
                SeedOrder::AverageTop(_) => Some(SeedName::AverageTop),
            },
            seed_top: match p.seed {
                SeedOrder::File => None,
                SeedOrder::AverageTop(n) => Some(n),
            },
        }
    }
}

impl PairingPatch {
    /// The settings this section makes of the ones inherited.
    fn apply(self, base: PairingSettings) -> PairingSettings {
        PairingSettings {
            colour_preferences: self.colour_preferences.unwrap_or(base.colour_preferences),
            primary: self.primary.map_or(base.primary, |n| match n {
                ScoreName::Mp => ScoreBasis::MatchPoints,
                ScoreName::Gp => ScoreBasis::GamePoints,
            }),
            secondary_for_colours: self
                .secondary_for_colours
                .unwrap_or(base.secondary_for_colours),
            max_meetings: self.max_meetings.unwrap_or(base.max_meetings),
            initial_colour: self.initial_colour.unwrap_or(base.initial_colour),
            rounds: self.rounds.or(base.rounds),
            forbidden: self.forbidden.unwrap_or(base.forbidden),
            acceleration: self.acceleration.unwrap_or(base.acceleration),
            seed: match (self.seed, self.seed_top, base.seed) {
                (Some(SeedName::File), _, _) => SeedOrder::File,
                (Some(SeedName::AverageTop), top, SeedOrder::AverageTop(n)) => {
                    SeedOrder::AverageTop(top.unwrap_or(n))
                }
                // Without `seed_top`, 0: refused by the checks, which ask for it.
                (Some(SeedName::AverageTop), top, SeedOrder::File) => {
                    SeedOrder::AverageTop(top.unwrap_or(0))
                }
                (None, Some(top), SeedOrder::AverageTop(_)) => SeedOrder::AverageTop(top),
                (None, _, inherited) => inherited,
            },
        }
    }
}

/// The `[pairing]` settings no pairing could follow, as the sentence that says why.
fn check_pairing(p: &PairingSettings) -> Result<(), String> {
    if p.seed == SeedOrder::AverageTop(0) {
        return Err("`[pairing] seed_top` is missing or 0; with seed = \"average_top\" give how many of each team's highest-rated players make its average, e.g. seed_top = 4 (C.04.6 art. 1.1)".into());
    }
    if p.max_meetings == 0 {
        return Err("`[pairing] max_meetings` is 0; two teams must be allowed to meet at least once (C.04.6 art. 2.1.1 [C1]), e.g. max_meetings = 1".into());
    }
    if p.rounds == Some(0) {
        return Err(
            "`[pairing] rounds` is 0; give the number of rounds the event is scheduled to have"
                .into(),
        );
    }
    for (i, f) in p.forbidden.iter().enumerate() {
        if f.teams.len() < 2 {
            return Err(format!(
                "`[pairing] forbidden` entry {} names {} team(s); a forbidden pairing needs at least two teams that may not meet",
                i + 1,
                f.teams.len()
            ));
        }
        if let (Some(a), Some(b)) = (f.from_round, f.to_round)
            && a > b
        {
            return Err(format!(
                "`[pairing] forbidden` entry {} runs from round {a} to round {b}; `from_round` must not come after `to_round`",
                i + 1
            ));
        }
    }
    for (i, a) in p.acceleration.iter().enumerate() {
        if a.first_round > a.last_round || a.first_team > a.last_team {
            return Err(format!(
                "`[pairing] acceleration` entry {} runs backwards (rounds {} to {}, teams {} to {}); give each range first to last",
                i + 1,
                a.first_round,
                a.last_round,
                a.first_team,
                a.last_team
            ));
        }
    }
    Ok(())
}

/// `[fees]`: `entry_fee = "10.00"`, what each school pays once a season (GT-O2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FeesPatch {
    /// `false` turns off a fee inherited from `extends`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// The entry fee, as text in dollars and cents (`"10.00"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry_fee: Option<Money>,
}

impl FeesPatch {
    /// The fees this section makes of the ones inherited.
    fn apply(self, base: Option<Fees>) -> Result<Option<Fees>, String> {
        if self.enabled == Some(false) {
            return Ok(None);
        }
        match self.entry_fee.or(base.map(|f| f.entry_fee)) {
            Some(entry_fee) => Ok(Some(Fees { entry_fee })),
            None => Err(
                "`[fees]` needs `entry_fee`, what each school pays once a season (GT-O2), e.g. entry_fee = \"10.00\""
                    .into(),
            ),
        }
    }
}

/// `[event]`: `roster_lock_minutes = 30`, `protest_minutes = 20`, `lineup_minutes = 15`
/// (AS-12, AS-13, AS-11), each before round 1 or before each round.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EventPatch {
    /// `false` turns off the deadlines inherited from `extends`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Minutes before round 1 the rosters lock and are published (AS-12).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roster_lock_minutes: Option<u32>,
    /// Minutes before round 1 protests close (AS-13).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub protest_minutes: Option<u32>,
    /// Minutes before each round its lineups are due (AS-11).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lineup_minutes: Option<u32>,
}

impl From<EventDeadlines> for EventPatch {
    fn from(e: EventDeadlines) -> EventPatch {
        EventPatch {
            enabled: None,
            roster_lock_minutes: Some(e.roster_lock_minutes),
            protest_minutes: Some(e.protest_minutes),
            lineup_minutes: Some(e.lineup_minutes),
        }
    }
}

/// `[playoffs]`: `qualifiers_per_division = 2`, `format = "knockout"`,
/// `tiebreak = ["berliner", "armageddon"]`, `rated`, and GT-F4's rescheduling windows.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlayoffsPatch {
    /// `false` turns off playoffs inherited from `extends`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// GT-F3: the teams of each division invited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifiers_per_division: Option<u32>,
    /// `knockout` or `round_robin`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<PlayoffFormat>,
    /// How a drawn knockout match is decided, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiebreak: Option<Vec<PlayoffTiebreak>>,
    /// GT-F4: playoff games are rated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
    /// GT-F4: days a rescheduled playoff match has from its date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reschedule_within_days: Option<u32>,
    /// GT-F4: school days after a weather postponement, from both schools being open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weather_school_days: Option<u32>,
}

impl From<&Playoffs> for PlayoffsPatch {
    fn from(p: &Playoffs) -> PlayoffsPatch {
        PlayoffsPatch {
            enabled: None,
            qualifiers_per_division: Some(p.qualifiers_per_division),
            format: Some(p.format),
            tiebreak: Some(p.tiebreak.clone()),
            rated: Some(p.rated),
            reschedule_within_days: Some(p.reschedule_within_days),
            weather_school_days: Some(p.weather_school_days),
        }
    }
}

impl EventPatch {
    /// The deadlines this section makes of the ones inherited; without any, the by-law's
    /// (AS-11..AS-13) for what it does not say.
    fn apply(self, base: Option<EventDeadlines>) -> Option<EventDeadlines> {
        if self.enabled == Some(false) {
            return None;
        }
        let d = base.unwrap_or(EventDeadlines::ASTC);
        Some(EventDeadlines {
            roster_lock_minutes: self.roster_lock_minutes.unwrap_or(d.roster_lock_minutes),
            protest_minutes: self.protest_minutes.unwrap_or(d.protest_minutes),
            lineup_minutes: self.lineup_minutes.unwrap_or(d.lineup_minutes),
        })
    }
}

impl PlayoffsPatch {
    /// The playoffs this section makes of the ones inherited; without a base, GT-F4's windows,
    /// rated games, a knockout and the Berliner board count then an Armageddon game.
    fn apply(self, base: Option<Playoffs>) -> Result<Option<Playoffs>, String> {
        if self.enabled == Some(false) {
            return Ok(None);
        }
        let base = base.unwrap_or(Playoffs {
            qualifiers_per_division: 0,
            format: PlayoffFormat::Knockout,
            tiebreak: vec![PlayoffTiebreak::Berliner, PlayoffTiebreak::Armageddon],
            rated: true,
            reschedule_within_days: 7,
            weather_school_days: 5,
        });
        let qualifiers_per_division = self
            .qualifiers_per_division
            .unwrap_or(base.qualifiers_per_division);
        if qualifiers_per_division == 0 && self.qualifiers_per_division.is_none() {
            return Err(
                "`[playoffs]` needs `qualifiers_per_division`, how many teams of each division the officers invite (GT-F3), e.g. qualifiers_per_division = 2"
                    .into(),
            );
        }
        Ok(Some(Playoffs {
            qualifiers_per_division,
            format: self.format.unwrap_or(base.format),
            tiebreak: self.tiebreak.unwrap_or(base.tiebreak),
            rated: self.rated.unwrap_or(base.rated),
            reschedule_within_days: self
                .reschedule_within_days
                .unwrap_or(base.reschedule_within_days),
            weather_school_days: self.weather_school_days.unwrap_or(base.weather_school_days),
        }))
    }
}

impl RulesetDocument {
    fn apply(self, origin: &str, base: Option<Ruleset>) -> Result<Ruleset, RulesetError> {
        let missing = |field: &str| RulesetError {
            origin: origin.to_string(),
            line: None,
            column: None,
            message: format!(
                "the field `{field}` is missing; give it, or start the file with `extends = \"gthscl\"` (or another preset) to inherit it"
            ),
        };
        let invalid = |message: String| RulesetError {
            origin: origin.to_string(),
            line: None,
            column: None,
            message,
        };
        let base_forfeit = base.as_ref().map(|b| b.forfeit_match);
        let base_drop = base.as_ref().and_then(|b| b.drop);
        let base_fide = base.as_ref().map(|b| b.fide).unwrap_or_default();
        let fide = match self.fide {
            None => base_fide,
            Some(p) => FideSettings {
                edition: p.edition.or(base_fide.edition),
                round_robin: p.round_robin.or(base_fide.round_robin),
                primary: p
                    .primary
                    .map(|n| match n {
                        ScoreName::Mp => ScoreBasis::MatchPoints,
                        ScoreName::Gp => ScoreBasis::GamePoints,
                    })
                    .or(base_fide.primary),
            },
        };
        let b = base.as_ref();
        let boards = self
            .boards
            .or(b.map(|b| b.boards))
            .ok_or_else(|| missing("boards"))?;
        let game_points = self
            .game_points
            .or(b.map(|b| b.game_points))
            .ok_or_else(|| missing("game_points"))?;
        let match_points = self
            .match_points
            .or(b.map(|b| b.match_points))
            .ok_or_else(|| missing("match_points"))?;
        let forfeit_match = match (self.forfeit_match, base_forfeit) {
            (None, Some(f)) => f,
            (patch, base) => {
                let p = patch.unwrap_or_default();
                // Without a rule of its own, a forfeited match is a won match with every board
                // won by forfeit (GT-S2).
                let default = base.unwrap_or(ForfeitMatchScoring {
                    winner: Award {
                        match_points: match_points.win,
                        game_points: game_points.win * f64::from(boards),
                    },
                    loser: Award {
                        match_points: match_points.loss,
                        game_points: game_points.loss * f64::from(boards),
                    },
                    rated: false,
                });
                ForfeitMatchScoring {
                    winner: Award {
                        match_points: p.winner_match_points.unwrap_or(default.winner.match_points),
                        game_points: p.winner_game_points.unwrap_or(default.winner.game_points),
                    },
                    loser: Award {
                        match_points: p.loser_match_points.unwrap_or(default.loser.match_points),
                        game_points: p.loser_game_points.unwrap_or(default.loser.game_points),
                    },
                    rated: p.rated.unwrap_or(default.rated),
                }
            }
        };
        let drop = match self.drop {
            None => base_drop,
            Some(p) if p.enabled == Some(false) => None,
            Some(p) => {
                let d = base_drop.unwrap_or(DropRule {
                    after_match_forfeits: 2,
                    exclude_when_played_under_half: true,
                    remaining_matches_forfeited: true,
                });
                Some(DropRule {
                    after_match_forfeits: p.after_match_forfeits.unwrap_or(d.after_match_forfeits),
                    exclude_when_played_under_half: p
                        .exclude_when_played_under_half
                        .unwrap_or(d.exclude_when_played_under_half),
                    remaining_matches_forfeited: p
                        .remaining_matches_forfeited
                        .unwrap_or(d.remaining_matches_forfeited),
                })
            }
        };
        let report = match self.report {
            None => b.and_then(|b| b.report),
            Some(p) if p.enabled == Some(false) => None,
            Some(p) => {
                // A league naming `[report]` without a base has GT-P2's days unless it says.
                let d = b.and_then(|b| b.report).unwrap_or(Deadlines {
                    enter_within: 1,
                    confirm_within: 5,
                    correct_within: 5,
                });
                Some(Deadlines {
                    enter_within: p.enter_within_days.unwrap_or(d.enter_within),
                    confirm_within: p.confirm_within_days.unwrap_or(d.confirm_within),
                    correct_within: p.correct_within_days.unwrap_or(d.correct_within),
                })
            }
        };
        let ruleset = RulesetSpec {
            name: self
                .name
                .or(b.map(|b| b.name.clone()))
                .ok_or_else(|| missing("name"))?,
            description: self
                .description
                .or(b.map(|b| b.description.clone()))
                .unwrap_or_default(),
            boards,
            roster_max: self.roster_max.or(b.and_then(|b| b.roster_max)),
            game_points,
            match_points,
            scoring: {
                let inherited = b.map(|b| b.scoring.clone()).unwrap_or_default();
                self.scoring
                    .map_or(inherited.clone(), |p| p.apply(inherited))
            },
            criteria: self
                .criteria
                .or(b.map(|b| b.criteria.clone()))
                .ok_or_else(|| missing("criteria"))?,
            forfeit_match,
            bye: self.bye.or(b.map(|b| b.bye)).unwrap_or(Award {
                match_points: match_points.win,
                game_points: game_points.win * f64::from(boards),
            }),
            white_on_odd_boards: self
                .white_on_odd_boards
                .or(b.map(|b| b.white_on_odd_boards))
                .unwrap_or(Side::Home),
            drop,
            report,
            shared_places_rule: self
                .shared_places_rule
                .or(b.and_then(|b| b.shared_places_rule.clone())),
            short_team_plays_top_boards: self
                .short_team_plays_top_boards
                .or(b.map(|b| b.short_team_plays_top_boards))
                .unwrap_or(false),
            citations: {
                // An empty ID removes an inherited citation: the league cites no rule there.
                let mut c = b.map(|b| b.citations.clone()).unwrap_or_default();
                for (field, id) in self.cite.unwrap_or_default() {
                    if id.trim().is_empty() {
                        c.remove(&field);
                    } else {
                        c.insert(field, id);
                    }
                }
                c
            },
            fide,
            rating: {
                let inherited = b.map_or(RatingSystem::Fide, |b| b.rating);
                match self.rating {
                    None => inherited,
                    Some(p) => p.apply(inherited).map_err(invalid)?,
                }
            },
            lineup: {
                let inherited = b.map(|b| b.lineup).unwrap_or_default();
                let mut lineup = self.lineup.map_or(inherited, |p| p.apply(inherited));
                // A file that writes `[club_teams]` binds players by it, unless its `[lineup]`
                // says otherwise.
                if self.club_teams.is_some()
                    && self.lineup.is_none_or(|l| l.bound_to_first_team.is_none())
                {
                    lineup.bound_to_first_team = true;
                }
                lineup
            },
            time_control: self
                .time_control
                .or_else(|| b.and_then(|b| b.time_control.clone())),
            match_days: match self.calendar.and_then(|c| c.match_days) {
                Some(days) => days.into_iter().map(|MatchDay(w)| w).collect(),
                None => b.map_or_else(|| SCHOOL_WEEK.to_vec(), |b| b.match_days.clone()),
            },
            fees: {
                let inherited = b.and_then(|b| b.fees);
                match self.fees {
                    None => inherited,
                    Some(p) => p.apply(inherited).map_err(invalid)?,
                }
            },
            event: {
                let inherited = b.and_then(|b| b.event);
                self.event.map_or(inherited, |p| p.apply(inherited))
            },
            playoffs: {
                let inherited = b.and_then(|b| b.playoffs.clone());
                match self.playoffs {
                    None => inherited,
                    Some(p) => p.apply(inherited).map_err(invalid)?,
                }
            },
            pairing: {
                let inherited = b.map(|b| b.pairing.clone()).unwrap_or_default();
                self.pairing
                    .map_or(inherited.clone(), |p| p.apply(inherited))
            },
            club_teams: {
                let inherited = b.map(|b| b.club_teams).unwrap_or_default();
                self.club_teams.map_or(inherited, |p| p.apply(inherited))
            },
            fines: {
                let inherited = b.map(|b| b.fines.clone()).unwrap_or_default();
                self.fines.map_or(inherited.clone(), |p| p.apply(inherited))
            },
            conduct: self
                .conduct
                .or(b.map(|b| b.conduct))
                .unwrap_or(if report.is_some() {
                    Conduct::Advisors
                } else {
                    Conduct::Arbiter
                }),
        };
        Ruleset::new(ruleset).map_err(invalid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ruleset's checks hold for a change made in code as for a file: no field can be set
    /// past them (issue 10).
    #[test]
    fn a_change_is_checked_as_a_file_is() {
        let gthscl = Ruleset::preset("gthscl").unwrap();
        assert_eq!(
            gthscl.with(|r| r.boards = 0),
            Err("`boards` must be at least 1".to_string())
        );
        let refused = gthscl.with(|r| r.game_points.draw = 2.0).unwrap_err();
        assert!(refused.contains("less for a win than a draw"), "{refused}");
        assert!(gthscl.with(|r| r.criteria.clear()).is_err());
        let three = gthscl.with(|r| r.boards = 3).unwrap();
        assert_eq!((three.boards, gthscl.boards), (3, 4));
    }

    #[test]
    fn gt_r3_rating_the_league_elo_in_gthscl_and_fide_elsewhere() {
        let gthscl = Ruleset::preset("gthscl").unwrap();
        assert_eq!(gthscl.rating, RatingSystem::League(LeagueElo::default()));
        assert_eq!(Ruleset::preset("astc").unwrap().rating, RatingSystem::Fide);
        assert_eq!(
            Ruleset::preset("fide-team").unwrap().rating,
            RatingSystem::Fide
        );
        let faster = Ruleset::from_toml(
            "league.toml",
            "extends = \"gthscl\"\n[rating]\nk = 40\n",
            &PresetsOnly,
        )
        .unwrap();
        let RatingSystem::League(l) = faster.rating else {
            panic!("{:?}", faster.rating)
        };
        assert_eq!((l.k, l.provisional_k, l.start), (40.0, 64.0, 1200));
        let glicko = Ruleset::from_toml(
            "g.toml",
            "extends = \"gthscl\"\n[rating]\nsystem = \"glicko2\"\ntau = 0.3\n",
            &PresetsOnly,
        )
        .unwrap();
        assert_eq!(glicko.rating, RatingSystem::Glicko2 { tau: 0.3 });
    }

    #[test]
    fn rating_settings_that_do_not_fit_the_system_are_refused_with_the_reason() {
        let refusal = |toml: &str| {
            Ruleset::from_toml("r.toml", toml, &PresetsOnly)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refusal("extends = \"astc\"\n[rating]\nk = 20\n"),
            "r.toml:3:1: `[rating] k` is a setting of the league's Elo, not of `fide`; set `system = \"league\"` or remove it"
        );
        assert_eq!(
            refusal("extends = \"gthscl\"\n[rating]\nsystem = \"elo\"\n"),
            "r.toml:3:1: `[rating] system` is \"elo\"; it must be one of \"league\", \"fide\", \"uscf\", \"glicko2\""
        );
        assert_eq!(
            refusal("extends = \"gthscl\"\n[rating]\nfloor = 1300\n"),
            "r.toml:3:1: `[rating] floor` is 1300 but new players start at 1200; the floor must not be above the start"
        );
    }

    #[test]
    fn gt_m18_and_as_19_the_colour_rule_and_a_recorded_colour_before_it() {
        use crate::record::model::GameResult;
        let gthscl = Ruleset::preset("gthscl").unwrap();
        let astc = Ruleset::preset("astc").unwrap();
        // GT-M18: the visitors have White on odd boards.
        assert_eq!(gthscl.colour(None, 1, Side::Away), Colour::White);
        assert_eq!(gthscl.colour(None, 1, Side::Home), Colour::Black);
        assert_eq!(gthscl.colour(None, 2, Side::Home), Colour::White);
        // AS-19: the first-named team has White on odd boards.
        assert_eq!(astc.colour(None, 1, Side::Home), Colour::White);
        assert_eq!(astc.colour(None, 4, Side::Away), Colour::White);
        // A board that records its colours is read as recorded.
        let mut board = Board::new(GameResult::Draw);
        board.home_colour = Some(Colour::White);
        assert_eq!(gthscl.colour(Some(&board), 1, Side::Home), Colour::White);
        assert_eq!(gthscl.colour(Some(&board), 1, Side::Away), Colour::Black);
    }

    #[test]
    fn as_1_and_gt_m19_the_time_controls_of_the_presets() {
        let astc = Ruleset::preset("astc")
            .unwrap()
            .time_control
            .clone()
            .unwrap();
        assert_eq!(
            astc.words(),
            "60 minutes for the game, plus 10 seconds a move from move 1"
        );
        assert_eq!(astc.pgn(), "3600+10");
        let gthscl = Ruleset::preset("gthscl")
            .unwrap()
            .time_control
            .clone()
            .unwrap();
        assert_eq!(
            gthscl.words(),
            "30 moves in 60 minutes, then 30 minutes for the rest of the game"
        );
        assert_eq!(gthscl.pgn(), "30/3600:1800");
        let bad = Ruleset::from_toml(
            "r.toml",
            "extends = \"gthscl\"\n[time_control]\nstages = []\n",
            &PresetsOnly,
        );
        assert!(bad.unwrap_err().to_string().contains("at least one stage"));
    }

    #[test]
    fn gt_m2_match_days_mondays_and_wednesdays_in_gthscl_every_school_day_elsewhere() {
        use jiff::civil::Weekday::*;
        assert_eq!(
            Ruleset::preset("gthscl").unwrap().match_days,
            [Monday, Wednesday]
        );
        assert_eq!(
            Ruleset::preset("gthscl").unwrap().cite("match_days"),
            Some("GT-M2")
        );
        for name in ["astc", "fide-team"] {
            assert_eq!(
                Ruleset::preset(name).unwrap().match_days,
                [Monday, Tuesday, Wednesday, Thursday, Friday],
                "{name}"
            );
        }
        let thursdays = Ruleset::from_toml(
            "r.toml",
            "extends = \"gthscl\"\n[calendar]\nmatch_days = [\"thursday\", \"tuesday\"]\n",
            &PresetsOnly,
        )
        .unwrap();
        assert_eq!(thursdays.match_days, [Thursday, Tuesday], "as written");
        let inherited =
            Ruleset::from_toml("r.toml", "extends = \"gthscl\"\n[calendar]\n", &PresetsOnly)
                .unwrap();
        assert_eq!(inherited.match_days, [Monday, Wednesday]);
    }

    #[test]
    fn gt_m2_an_unknown_match_day_is_refused_at_its_place() {
        let refusal = |toml: &str| Ruleset::from_toml("r.toml", toml, &PresetsOnly).unwrap_err();
        let e =
            refusal("extends = \"gthscl\"\n[calendar]\nmatch_days = [\"monday\", \"funday\"]\n");
        // toml places an element's error at its list.
        assert_eq!((e.line, e.column), (Some(3), Some(14)), "{e}");
        assert_eq!(
            e.message,
            "`funday` is not a weekday; a match day is named in lowercase English, one of \"monday\", \"tuesday\", \"wednesday\", \"thursday\", \"friday\", \"saturday\", \"sunday\" (GT-M2)"
        );
        let e = refusal("extends = \"astc\"\n[calendar]\nmatch_days = [\"Monday\"]\n");
        assert_eq!(e.line, Some(3), "{e}");
        let e = refusal("extends = \"astc\"\n[calendar]\nmatch_days = []\n");
        assert!(
            e.message.contains("`[calendar] match_days` is empty"),
            "{e}"
        );
        let e = refusal("extends = \"astc\"\n[calendar]\nmatch_days = [\"monday\", \"monday\"]\n");
        assert!(e.message.contains("names Monday twice"), "{e}");
        let e = refusal("extends = \"astc\"\n[calendar]\nmatchdays = [\"monday\"]\n");
        assert_eq!(e.line, Some(3), "{e}");
    }

    /// A weekend league (Germany's, England's, the US's) names its Saturday or Sunday; the
    /// school leagues keep their school days.
    #[test]
    fn gt_m2_a_weekend_league_names_its_weekend_match_days() {
        use jiff::civil::Weekday::*;
        let sundays = Ruleset::from_toml(
            "r.toml",
            "extends = \"fide-team\"\n[calendar]\nmatch_days = [\"sunday\"]\n",
            &PresetsOnly,
        )
        .unwrap();
        assert_eq!(sundays.match_days, [Sunday]);
        assert_eq!(sundays.weekend_match_days(), [Sunday]);
        let gthscl = Ruleset::preset("gthscl").unwrap();
        assert!(gthscl.weekend_match_days().is_empty());
        let both = gthscl.with(|r| r.match_days.push(Saturday)).unwrap();
        assert_eq!(both.weekend_match_days(), [Saturday]);
    }

    /// Every preset, and each with its match days changed, written as a document reads back to
    /// itself: whole (`From<&Ruleset>`, `to_toml`) and as the changes from each preset.
    #[test]
    fn gt_m2_the_document_writes_back_the_match_days_it_read() {
        use jiff::civil::Weekday::*;
        let mut rulesets = Vec::new();
        for name in preset_names() {
            let r = Ruleset::preset(name).unwrap();
            rulesets.push(r.with(|r| r.match_days = vec![Friday, Tuesday]).unwrap());
            rulesets.push(r);
        }
        for r in &rulesets {
            let whole = RulesetDocument::from(r);
            assert!(whole.calendar.is_some());
            let text = whole.to_toml().unwrap();
            assert!(text.contains("[calendar]"), "{text}");
            let back = Ruleset::from_toml("written", &text, &PresetsOnly).unwrap();
            assert_eq!(&back, r, "{text}");
            for base in preset_names() {
                let doc = whole.changes_from(
                    base,
                    &RulesetDocument::from(&Ruleset::preset(base).unwrap()),
                );
                let text = doc.to_toml().unwrap();
                let back = Ruleset::from_toml("written", &text, &PresetsOnly).unwrap();
                assert_eq!(back.match_days, r.match_days, "{base}: {text}");
            }
        }
        // Only a change of match days writes the section.
        let astc = Ruleset::preset("astc").unwrap();
        let gthscl = Ruleset::preset("gthscl").unwrap();
        let doc = RulesetDocument::from(&astc.with(|r| r.boards = 5).unwrap())
            .changes_from("astc", &RulesetDocument::from(&astc));
        assert_eq!(doc.calendar, None);
        let doc =
            RulesetDocument::from(&gthscl).changes_from("astc", &RulesetDocument::from(&astc));
        assert_eq!(
            doc.calendar,
            Some(CalendarPatch {
                match_days: Some(vec![MatchDay(Monday), MatchDay(Wednesday)])
            })
        );
        assert!(
            doc.to_toml()
                .unwrap()
                .contains("[calendar]\nmatch_days = [\"monday\", \"wednesday\"]"),
            "{}",
            doc.to_toml().unwrap()
        );
    }

    #[test]
    fn gt_o2_the_entry_fee_is_ruleset_data() {
        let gthscl = Ruleset::preset("gthscl").unwrap();
        assert_eq!(
            gthscl.fees,
            Some(Fees {
                entry_fee: Money::from_cents(1000)
            })
        );
        assert_eq!(gthscl.cite("entry_fee"), Some("GT-O2"));
        assert_eq!(Ruleset::preset("astc").unwrap().fees, None);
        let read = |toml: &str| Ruleset::from_toml("r.toml", toml, &PresetsOnly);
        let twelve = read("extends = \"gthscl\"\n[fees]\nentry_fee = \"$12.50\"\n").unwrap();
        assert_eq!(twelve.fees.map(|f| f.entry_fee.cents()), Some(1250));
        assert_eq!(
            read("extends = \"gthscl\"\n[fees]\nenabled = false\n")
                .unwrap()
                .fees,
            None
        );
        let some = read("extends = \"astc\"\n[fees]\nentry_fee = \"25\"\n").unwrap();
        assert_eq!(some.fees.map(|f| f.entry_fee.cents()), Some(2500));
        let missing = read("extends = \"astc\"\n[fees]\n")
            .unwrap_err()
            .to_string();
        assert!(missing.contains("needs `entry_fee`"), "{missing}");
        // A mistyped fee is refused at its place in the file, with the reason.
        let bad = read("extends = \"gthscl\"\n[fees]\nentry_fee = \"10.505\"\n").unwrap_err();
        assert_eq!(bad.line, Some(3));
        assert!(bad.message.contains("more than two decimals"), "{bad}");
        // Written back and read again, a fee survives; turned off, it stays off.
        let doc = RulesetDocument::from(&twelve);
        let text = doc.to_toml().unwrap();
        assert!(text.contains("entry_fee = \"12.50\""), "{text}");
        assert_eq!(read(&text).unwrap().fees, twelve.fees);
        let off = read("extends = \"gthscl\"\n[fees]\nenabled = false\n").unwrap();
        let base = RulesetDocument::from(&gthscl);
        let changes = RulesetDocument::from(&off).changes_from("gthscl", &base);
        assert_eq!(
            changes.fees,
            Some(FeesPatch {
                enabled: Some(false),
                entry_fee: None
            })
        );
        assert_eq!(
            gthscl.with(|r| {
                r.fees = Some(Fees {
                    entry_fee: Money::from_cents(-1),
                })
            }),
            Err(
                "`[fees] entry_fee` is \u{2212}$0.01; a fee is from $0.00 to $10,000.00 (GT-O2)"
                    .to_string()
            )
        );
    }

    #[test]
    fn as_11_to_as_13_the_event_days_deadlines_are_ruleset_data() {
        use crate::rules::sections::EventDeadlines;
        let astc = Ruleset::preset("astc").unwrap();
        assert_eq!(astc.event, Some(EventDeadlines::ASTC));
        assert_eq!(astc.cite("roster_lock_minutes"), Some("AS-12"));
        assert_eq!(Ruleset::preset("gthscl").unwrap().event, None);
        assert_eq!(Ruleset::preset("fide-team").unwrap().event, None);
        let read = |toml: &str| Ruleset::from_toml("r.toml", toml, &PresetsOnly);
        let longer = read("extends = \"astc\"\n[event]\nroster_lock_minutes = 45\n").unwrap();
        assert_eq!(
            longer.event,
            Some(EventDeadlines {
                roster_lock_minutes: 45,
                ..EventDeadlines::ASTC
            })
        );
        let off = read("extends = \"astc\"\n[event]\nenabled = false\n").unwrap();
        assert_eq!(off.event, None);
        // A league adding the section has the by-law's minutes for what it does not say.
        let added = read("extends = \"gthscl\"\n[event]\nlineup_minutes = 5\n").unwrap();
        assert_eq!(
            added.event,
            Some(EventDeadlines {
                lineup_minutes: 5,
                ..EventDeadlines::ASTC
            })
        );
        // Protests that close before the rosters are published are refused, as is a mistyped key.
        let e = read("extends = \"astc\"\n[event]\nprotest_minutes = 35\n").unwrap_err();
        assert!(
            e.message
                .contains("protests close after they are published"),
            "{e}"
        );
        let e = read("extends = \"astc\"\n[event]\nlineup = 15\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(
            astc.with(|r| {
                r.event = Some(EventDeadlines {
                    lineup_minutes: 20_000,
                    ..EventDeadlines::ASTC
                })
            })
            .unwrap_err()
            .contains("a week")
        );
        // Written and read back, whole and as the changes from a preset.
        for r in [&astc, &longer, &off, &added] {
            let text = RulesetDocument::from(r).to_toml().unwrap();
            assert_eq!(read(&text).unwrap().event, r.event, "{text}");
            for base in ["astc", "gthscl"] {
                let doc = RulesetDocument::from(r).changes_from(
                    base,
                    &RulesetDocument::from(&Ruleset::preset(base).unwrap()),
                );
                let text = doc.to_toml().unwrap();
                assert_eq!(read(&text).unwrap().event, r.event, "{base}: {text}");
            }
        }
    }

    #[test]
    fn gt_f3_the_playoffs_are_ruleset_data_checked_like_the_other_tables() {
        let gthscl = Ruleset::preset("gthscl").unwrap();
        let p = gthscl.playoffs.clone().unwrap();
        assert_eq!(p.qualifiers_per_division, 2);
        assert_eq!(p.format, PlayoffFormat::Knockout);
        assert_eq!(
            p.tiebreak,
            [PlayoffTiebreak::Berliner, PlayoffTiebreak::Armageddon]
        );
        assert!(p.rated);
        assert_eq!((p.reschedule_within_days, p.weather_school_days), (7, 5));
        assert_eq!(gthscl.cite("qualifiers_per_division"), Some("GT-F3"));
        assert_eq!(Ruleset::preset("astc").unwrap().playoffs, None);
        let read = |toml: &str| Ruleset::from_toml("r.toml", toml, &PresetsOnly);
        let four = read("extends = \"gthscl\"\n[playoffs]\nqualifiers_per_division = 4\nformat = \"round_robin\"\n").unwrap();
        let p4 = four.playoffs.clone().unwrap();
        assert_eq!(
            (p4.qualifiers_per_division, p4.format),
            (4, PlayoffFormat::RoundRobin)
        );
        assert_eq!(p4.tiebreak, p.tiebreak, "inherited");
        let refusal = |toml: &str| read(toml).unwrap_err().to_string();
        assert_eq!(
            refusal("extends = \"gthscl\"\n[playoffs]\nqualifiers_per_division = 0\n"),
            "r.toml:3:1: `[playoffs] qualifiers_per_division` is 0; the officers invite from 1 to 16 teams of each division (GT-F3)"
        );
        assert!(
            refusal("extends = \"gthscl\"\n[playoffs]\ntiebreak = [\"berliner\"]\n")
                .contains("ends with `berliner`, which can leave a drawn match drawn")
        );
        assert!(
            refusal(
                "extends = \"gthscl\"\n[playoffs]\ntiebreak = [\"armageddon\", \"berliner\"]\n"
            )
            .contains("`armageddon` always decides, so put it last")
        );
        let e = read("extends = \"gthscl\"\n[playoffs]\ntiebreak = [\"coin\"]\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(
            refusal("extends = \"astc\"\n[playoffs]\nformat = \"knockout\"\n")
                .contains("needs `qualifiers_per_division`")
        );
        // Written back, whole and as changes, the section reads back; turned off, it stays off.
        for r in [&gthscl, &four] {
            let text = RulesetDocument::from(r).to_toml().unwrap();
            assert_eq!(&read(&text).unwrap(), r, "{text}");
        }
        let off = read("extends = \"gthscl\"\n[playoffs]\nenabled = false\n").unwrap();
        assert_eq!(off.playoffs, None);
        let changes = RulesetDocument::from(&off)
            .changes_from("gthscl", &RulesetDocument::from(&gthscl))
            .to_toml()
            .unwrap();
        assert_eq!(read(&changes).unwrap().playoffs, None, "{changes}");
    }

    #[test]
    fn presets_parse() {
        for name in preset_names() {
            assert!(Ruleset::preset(name).is_some(), "preset {name} must parse");
        }
    }

    #[test]
    fn astc_preset_as_14_to_as_19() {
        let r = Ruleset::preset("astc").unwrap();
        assert_eq!(r.boards, 4);
        assert_eq!(r.roster_max, Some(6)); // AS-9
        assert_eq!(r.match_points.win, 2.0); // AS-15
        let codes: Vec<_> = r.criteria.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(codes, ["GP", "MP", "H2H:GP", "H2H:BOARDS"]);
        assert_eq!(r.white_on_odd_boards, Side::Home); // AS-19
        assert!(r.drop.is_none());
        // The arbiter enters results at the board: no report deadlines.
        assert!(r.report.is_none());
    }

    #[test]
    fn gt_p2_gthscl_reports_within_one_day_and_confirms_within_five() {
        let r = Ruleset::preset("gthscl").unwrap();
        assert_eq!(
            r.report,
            Some(Deadlines {
                enter_within: 1,
                confirm_within: 5,
                correct_within: 5
            })
        );
        let longer = Ruleset::from_toml(
            "x.toml",
            "extends = \"gthscl\"\n[report]\nconfirm_within_days = 7\n",
            &PresetsOnly,
        )
        .unwrap();
        assert_eq!(
            longer.report,
            Some(Deadlines {
                enter_within: 1,
                confirm_within: 7,
                correct_within: 5
            })
        );
        let none = Ruleset::from_toml(
            "x.toml",
            "extends = \"gthscl\"\n[report]\nenabled = false\n",
            &PresetsOnly,
        )
        .unwrap();
        assert_eq!(none.report, None);
        let some = Ruleset::from_toml(
            "x.toml",
            "extends = \"astc\"\n[report]\nenter_within_days = 2\n",
            &PresetsOnly,
        )
        .unwrap();
        assert_eq!(
            some.report,
            Some(Deadlines {
                enter_within: 2,
                confirm_within: 5,
                correct_within: 5
            })
        );
    }

    #[test]
    fn gthscl_preset_gt_m7_gt_s5_gt_m18() {
        let r = Ruleset::preset("gthscl").unwrap();
        assert_eq!(r.forfeit_match.winner.match_points, 1.0);
        assert_eq!(r.forfeit_match.winner.game_points, 4.0);
        assert!(!r.forfeit_match.rated);
        let codes: Vec<_> = r.criteria.iter().map(|c| c.code.as_str()).collect();
        assert_eq!(codes, ["MP", "GP", "H2H:MP"]);
        assert_eq!(r.white_on_odd_boards, Side::Away);
        assert_eq!(r.drop.unwrap().after_match_forfeits, 2);
        assert_eq!(r.cite("forfeit_match"), Some("GT-M7"));
        assert_eq!(r.cite("boards"), Some("GT-M8"));
    }

    #[test]
    fn extends_overrides_only_what_it_names() {
        let r = Ruleset::from_toml("x.toml", "extends = \"gthscl\"\nboards = 3\n", &PresetsOnly)
            .unwrap();
        assert_eq!(r.boards, 3);
        assert_eq!(r.match_points.win, 1.0);
        assert_eq!(r.name, "GTHSCL");
    }

    #[test]
    fn error_names_file_line_and_field() {
        let e = Ruleset::from_toml(
            "league.toml",
            "extends = \"astc\"\nboards = 4\nbord = 5\n",
            &PresetsOnly,
        )
        .unwrap_err();
        assert_eq!(e.origin, "league.toml");
        assert_eq!(e.line, Some(3));
        assert!(e.message.contains("bord"), "{e}");
        assert!(e.to_string().starts_with("league.toml:3:"), "{e}");
    }

    #[test]
    fn wrong_type_is_located() {
        let e = Ruleset::from_toml(
            "l.toml",
            "extends = \"astc\"\nboards = \"four\"\n",
            &PresetsOnly,
        )
        .unwrap_err();
        assert_eq!(e.line, Some(2));
    }

    #[test]
    fn unknown_criterion_is_located() {
        let e = Ruleset::from_toml(
            "l.toml",
            "extends = \"astc\"\ncriteria = [\"GP\", \"XYZ\"]\n",
            &PresetsOnly,
        )
        .unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.message.contains("XYZ"), "{e}");
    }

    #[test]
    fn unknown_preset_is_explained() {
        let e = Ruleset::from_toml("l.toml", "extends = \"nope\"\n", &PresetsOnly).unwrap_err();
        assert!(
            e.message.contains("nope") && e.message.contains("astc"),
            "{e}"
        );
    }

    #[test]
    fn missing_fields_without_extends() {
        let e = Ruleset::from_toml("l.toml", "name = \"X\"\n", &PresetsOnly).unwrap_err();
        assert!(e.message.contains("boards"), "{e}");
    }

    #[test]
    fn roster_smaller_than_boards_is_refused() {
        let e = Ruleset::from_toml(
            "l.toml",
            "extends = \"astc\"\nroster_max = 3\n",
            &PresetsOnly,
        )
        .unwrap_err();
        assert!(e.message.contains("roster_max"), "{e}");
    }
}

#[cfg(test)]
mod lineup_list_tests;
