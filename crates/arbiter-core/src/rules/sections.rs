//! The settings a ruleset holds for the areas above it, each a section of the file: GT-P2's
//! days to enter and confirm a result (`[report]`), an event day's deadlines (`[event]`), the
//! entry fee (`[fees]`) and how ratings change (`[rating]`). They live here, with the ruleset
//! that reads and checks them, so that `rules` imports nothing above `record`; each area
//! re-exports its own (`season::report::Deadlines`, `rating::System`, …).

use serde::Serialize;

use crate::record::money::Money;

/// GT-P2's deadlines, in days: the ruleset's `[report]` section ([`crate::Ruleset::report`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadlines {
    /// The home team enters the result within this many days of the match.
    pub enter_within: u32,
    /// The visiting team confirms (or disputes) within this many days of entry.
    pub confirm_within: u32,
    /// Either school asks for a correction of a result that stands within this many days of the
    /// entry of the version in force ("corrections are requested within 5 days").
    pub correct_within: u32,
}

/// The most minutes before a round a deadline may be: a week.
pub const MAX_MINUTES: u32 = 7 * 24 * 60;

/// `[event]`: the event day's deadlines, in minutes before a round (`astc`: 30, 20 and 15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct EventDeadlines {
    /// AS-12: every roster, in order, is handed in and published to every team this many
    /// minutes before round 1; no roster changes after.
    pub roster_lock_minutes: u32,
    /// AS-13: protests against a roster's order close this many minutes before round 1.
    pub protest_minutes: u32,
    /// AS-11: a round's lineup is named this many minutes before the round.
    pub lineup_minutes: u32,
}

impl EventDeadlines {
    /// AS-11, AS-12, AS-13 as the by-law has them: 15, 30 and 20 minutes.
    pub const ASTC: EventDeadlines = EventDeadlines {
        roster_lock_minutes: 30,
        protest_minutes: 20,
        lineup_minutes: 15,
    };

    /// The settings, or the sentence saying which cannot be: more than a week, or protests
    /// closing before the rosters they protest are published.
    pub fn check(&self) -> Result<(), String> {
        for (field, m) in [
            ("roster_lock_minutes", self.roster_lock_minutes),
            ("protest_minutes", self.protest_minutes),
            ("lineup_minutes", self.lineup_minutes),
        ] {
            if m > MAX_MINUTES {
                return Err(format!(
                    "`[event] {field}` is {m}; a deadline is at most {MAX_MINUTES} minutes (a week) before its round"
                ));
            }
        }
        if self.protest_minutes >= self.roster_lock_minutes {
            return Err(format!(
                "`[event] protest_minutes` is {} but the rosters are published {} minutes before round 1; protests close after they are published (AS-13, AS-12), so make it fewer",
                self.protest_minutes, self.roster_lock_minutes
            ));
        }
        Ok(())
    }
}

/// `[fees]`, GT-O2: what each school pays to enter the season, once whatever its number of
/// teams.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fees {
    /// The entry fee: $10.00 in GTHSCL.
    pub entry_fee: Money,
}

/// How ratings change: a setting of the ruleset (`[rating] system`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum System {
    /// The league's own Elo (the `gthscl` preset): 1200N to start, a higher K while provisional.
    League(LeagueElo),
    /// FIDE Handbook B.02: the table's expected score, the 400-point rule, K 40 / 20 / 10.
    Fide,
    /// US Chess: the special formula up to 8 games, the standard one after (`skillratings`).
    Uscf,
    /// Glicko-2 (Glickman), with its system constant τ (`skillratings`).
    Glicko2 {
        /// The system constant τ, between 0.3 and 1.2; 0.5 by default.
        tau: f64,
    },
}

impl System {
    /// The setting's spelling: `league`, `fide`, `uscf`, `glicko2`.
    pub fn code(&self) -> &'static str {
        match self {
            System::League(_) => "league",
            System::Fide => "fide",
            System::Uscf => "uscf",
            System::Glicko2 { .. } => "glicko2",
        }
    }

    /// The system a spelling names, with its default settings.
    pub fn from_code(code: &str) -> Option<System> {
        Some(match code {
            "league" => System::League(LeagueElo::default()),
            "fide" => System::Fide,
            "uscf" => System::Uscf,
            "glicko2" => System::Glicko2 { tau: 0.5 },
            _ => return None,
        })
    }

    /// The system `code` names: `inherited` itself when it is the same system, so its settings
    /// stay; otherwise that system with its defaults.
    pub fn named(code: &str, inherited: System) -> Option<System> {
        let named = System::from_code(code)?;
        Some(if named.code() == inherited.code() {
            inherited
        } else {
            named
        })
    }

    /// What one rating period is: a match day for the league's Elo and Glicko-2, the whole event
    /// for FIDE (B.02 rates an event from the ratings before it) and US Chess.
    pub fn period(&self) -> PeriodLength {
        match self {
            System::League(_) | System::Glicko2 { .. } => PeriodLength::MatchDay,
            System::Fide | System::Uscf => PeriodLength::Event,
        }
    }
}

/// How much of a competition one rating period holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeriodLength {
    /// Each match day (a round's date, or the round when undated) is a period.
    MatchDay,
    /// The whole competition is one period.
    Event,
}

/// The league's Elo (`system = "league"`), every figure a setting; `docs/ratings.md` says why
/// each default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LeagueElo {
    /// GT-R3: a new player's provisional rating (the "1200N").
    pub start: u32,
    /// K of an established player.
    pub k: f64,
    /// K while provisional: a new player's strength is unknown, so their games move it faster.
    pub provisional_k: f64,
    /// GT-R3: rated games after which a rating is no longer provisional.
    pub provisional_games: u32,
    /// No rating goes below this.
    pub floor: u32,
}

impl Default for LeagueElo {
    fn default() -> LeagueElo {
        LeagueElo {
            start: 1200,
            k: 32.0,
            provisional_k: 64.0,
            provisional_games: 1,
            floor: 100,
        }
    }
}

/// `[club_teams]`: when a player's games for one of a club's (or school's) teams bind them to
/// it, across the season's divisions. GT-M15 is the `gthscl` preset's reading: bound by the
/// first game, on any board, both ways. Other leagues bind after several games, count only
/// the upper boards, let a bound player still play up, or cap how often a player plays up.
/// Read only when `[lineup] bound_to_first_team` is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClubTeams {
    /// The counted games for one team after which a player is bound to it (GT-M15: 1).
    pub bound_after_games: u32,
    /// Games on this many of a match's bottom boards do not count toward binding (0: every
    /// board counts; 2 on eight boards: boards 1 to 6).
    pub boards_not_counted: u32,
    /// Which other teams a bound player may no longer play for.
    pub bound: BoundTo,
    /// Whether the games are counted for each team apart (bound to a team after that many
    /// games for it) or for all the club's teams together (Nottinghamshire's "three times in
    /// total on higher boards for any team(s)": bound to the lowest team of the player's
    /// highest counted games).
    pub counted: CountedFor,
    /// A player plays at most this many games for a team higher than one they have already
    /// played for this season (a reserve from a lower team); `None`: no limit.
    pub play_up_max: Option<u32>,
}

impl ClubTeams {
    /// GT-M15: the first game binds, whatever its board, to that team and no other.
    pub const FIRST_TEAM: ClubTeams = ClubTeams {
        bound_after_games: 1,
        boards_not_counted: 0,
        bound: BoundTo::OneTeam,
        counted: CountedFor::EachTeam,
        play_up_max: None,
    };

    /// Whether a game on `board` of a match of `boards` counts toward binding.
    pub fn counts(&self, board: u32, boards: u32) -> bool {
        board + self.boards_not_counted <= boards
    }

    /// The settings, or the sentence saying which cannot be.
    pub fn check(&self, boards: u32) -> Result<(), String> {
        if self.bound_after_games == 0 {
            return Err(
                "`[club_teams] bound_after_games` is 0; a player is bound after at least 1 game, e.g. bound_after_games = 3"
                    .into(),
            );
        }
        if self.boards_not_counted >= boards {
            return Err(format!(
                "`[club_teams] boards_not_counted` is {} but a match has {boards} boards; at least board 1 must count",
                self.boards_not_counted
            ));
        }
        Ok(())
    }
}

impl Default for ClubTeams {
    fn default() -> ClubTeams {
        ClubTeams::FIRST_TEAM
    }
}

/// `[club_teams] counted`: whose games bind a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CountedFor {
    /// GT-M15: the games for one team bind the player to it.
    #[default]
    EachTeam,
    /// The games for all the club's teams together: after `bound_after_games` of them, the
    /// player is bound to the lowest team of their highest `bound_after_games` games.
    AllTeams,
}

/// `[club_teams] bound`: the teams a bound player may no longer play for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundTo {
    /// GT-M15: the team they are bound to and no other of the club's teams.
    #[default]
    OneTeam,
    /// No lower team (a division listed after theirs in the season); playing up stays free.
    NoLowerTeam,
}

impl BoundTo {
    /// `one_team` or `no_lower_team`: the spelling of a ruleset file.
    pub fn code(self) -> &'static str {
        match self {
            BoundTo::OneTeam => "one_team",
            BoundTo::NoLowerTeam => "no_lower_team",
        }
    }
}

/// `[fines]`: what a league fines a club or school when a sanction applies, each entered in the
/// season's ledger with its rule (`season::fines` assesses them from the record). A league
/// without the section fines nothing (GTHSCL fines nothing).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fines {
    /// A team that forfeits a match (GT-M7's forfeit, or both teams of a double forfeit).
    pub match_forfeit: Option<Money>,
    /// A board a team leaves empty (a short team's default, or both sides of a double
    /// default), each board.
    pub board_default: Option<Money>,
    /// A team dropped from the league (GT-M5's drop rule).
    pub drop: Option<Money>,
    /// A result first entered after its day to enter it (`[report]`), by how many days late:
    /// the highest step reached, ordered by `days_late`.
    pub late_result: Vec<LateFine>,
}

/// One step of `[fines] late_result`: a result entered `days_late` or more days after the day
/// it was due by is fined `amount`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LateFine {
    /// Days after the day the result was due by (1: entered the day after).
    pub days_late: u32,
    /// The fine, as text in dollars and cents (`"7.50"`).
    pub amount: Money,
}

impl Fines {
    /// The settings, or the sentence saying which cannot be: an amount of nothing or above the
    /// most an entry holds, or late steps that are not in order of days.
    pub fn check(&self) -> Result<(), String> {
        for (key, amount) in [
            ("match_forfeit", self.match_forfeit),
            ("board_default", self.board_default),
            ("drop", self.drop),
        ] {
            if let Some(a) = amount {
                check_fine(&format!("`[fines] {key}`"), a)?;
            }
        }
        for (i, step) in self.late_result.iter().enumerate() {
            check_fine(
                &format!("`[fines] late_result` step {}", i + 1),
                step.amount,
            )?;
            if step.days_late == 0 {
                return Err(format!(
                    "`[fines] late_result` step {} is fined from 0 days late; a result is late from the day after it was due, so start at days_late = 1",
                    i + 1
                ));
            }
            if i > 0 && step.days_late <= self.late_result[i - 1].days_late {
                let days = |n: u32| format!("{n} day{}", if n == 1 { "" } else { "s" });
                return Err(format!(
                    "`[fines] late_result` steps are in order of days: step {} ({}) comes after step {} ({})",
                    i + 1,
                    days(step.days_late),
                    i,
                    days(self.late_result[i - 1].days_late)
                ));
            }
        }
        Ok(())
    }

    /// The fine for a result entered `days_late` days after its day, if any step reaches it.
    pub fn for_late_result(&self, days_late: u32) -> Option<LateFine> {
        self.late_result
            .iter()
            .rev()
            .find(|s| days_late >= s.days_late)
            .copied()
    }
}

fn check_fine(what: &str, amount: Money) -> Result<(), String> {
    if amount <= Money::ZERO || amount > Money::MAX_ENTRY {
        return Err(format!(
            "{what} is {amount}; a fine is above $0.00 and at most {}",
            Money::MAX_ENTRY
        ));
    }
    Ok(())
}
