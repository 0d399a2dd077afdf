//! Field planning for an ASTC competition (AS-4..AS-8): from the entries, the host and the
//! previous championship's finish, the teams to invite so that the field is 6 or 8, in order,
//! each with the clause that asks for it.
//!
//! The readings, where the by-law leaves a choice (RULES.md):
//! - A state that already has a team may be invited to add another: by-law 3(b) lets a state
//!   send more than one team in the circumstances of 3(c)..(e), and AS-4 forbids only two teams
//!   of one school. The invitation order of AS-8 is therefore of every state, entered or not.
//! - The host is not invited again from the order: AS-5 and AS-7 ask it first, and it either
//!   nominated its one extra team or could not (AS-6). So the invitations go to the other
//!   states, in the order of AS-8.
//! - The counts include the host's own team (by-law 3(c), 3(e)). A field without one, a field
//!   of none, and a field above 8 are not provided for; by-law 3(g) leaves them to the ACF, so
//!   the plan is refused with the sentence.
//! - States level in the previous finish (a shared place, AS-18) are ordered by the same lot
//!   as the states that were not there.
//! - Entries may already hold a second team of a state (one nominated or invited before); it is
//!   counted like any other. Only a second team of one school is refused (AS-4).

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::pairing::lot::Lot;
use crate::record::text::{TextKind, check as check_text};

/// A State or Territory of the ACF (AS-4), by its usual code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum State {
    /// Australian Capital Territory.
    Act,
    /// New South Wales.
    Nsw,
    /// Northern Territory.
    Nt,
    /// Queensland.
    Qld,
    /// South Australia.
    Sa,
    /// Tasmania.
    Tas,
    /// Victoria.
    Vic,
    /// Western Australia.
    Wa,
}

impl State {
    /// Every state and territory, in the order of their codes.
    pub const ALL: [State; 8] = [
        State::Act,
        State::Nsw,
        State::Nt,
        State::Qld,
        State::Sa,
        State::Tas,
        State::Vic,
        State::Wa,
    ];

    /// `ACT`, `NSW`, `NT`, `QLD`, `SA`, `TAS`, `VIC` or `WA`: the one spelling of every file,
    /// table and page.
    pub fn code(self) -> &'static str {
        match self {
            State::Act => "ACT",
            State::Nsw => "NSW",
            State::Nt => "NT",
            State::Qld => "QLD",
            State::Sa => "SA",
            State::Tas => "TAS",
            State::Vic => "VIC",
            State::Wa => "WA",
        }
    }

    /// The state's name: `South Australia`.
    pub fn name(self) -> &'static str {
        match self {
            State::Act => "Australian Capital Territory",
            State::Nsw => "New South Wales",
            State::Nt => "Northern Territory",
            State::Qld => "Queensland",
            State::Sa => "South Australia",
            State::Tas => "Tasmania",
            State::Vic => "Victoria",
            State::Wa => "Western Australia",
        }
    }

    /// The state `code` spells, or the sentence saying which codes there are.
    pub fn parse(code: &str) -> Result<State, String> {
        let code = code.trim();
        if let Some(s) = State::ALL.into_iter().find(|s| s.code() == code) {
            return Ok(s);
        }
        let all = State::ALL.map(State::code).join(", ");
        let hint = State::ALL
            .into_iter()
            .find(|s| s.code().eq_ignore_ascii_case(code))
            .map(|s| format!(" (did you mean {}?)", s.code()))
            .unwrap_or_default();
        Err(format!(
            "“{code}” is not a state or territory; write one of {all}{hint}"
        ))
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for State {
    type Err = String;

    fn from_str(s: &str) -> Result<State, String> {
        State::parse(s)
    }
}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// One team entered, as typed in a file or a form: its state's code and its school.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EntryInput {
    /// The state's code, `SA`.
    pub state: String,
    /// The school the team represents (AS-4).
    pub school: String,
}

/// One team entered in a competition (AS-4): the state it represents and its school.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// The state or territory the team represents.
    pub state: State,
    /// The school the team represents.
    pub school: String,
}

/// A competition's entries, checked: each a known state and a school, no school twice (AS-4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entries {
    competition: String,
    entries: Vec<Entry>,
}

/// What is wrong with an entry (or the previous finish's line), at its place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryProblem {
    /// The entry's position in the list, from 0; `None` for the list as a whole.
    pub entry: Option<usize>,
    /// The field: `competition`, `state`, `school` or `place`.
    pub field: &'static str,
    /// The sentence, with the rule it cites.
    pub message: String,
}

impl fmt::Display for EntryProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.entry {
            Some(i) => write!(f, "entry {}, {}: {}", i + 1, self.field, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

/// A school's name as AS-4 compares it: case and spacing aside.
fn school_key(school: &str) -> String {
    school
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl Entries {
    /// The entries of `competition`, or every problem: an unknown state, a team with no school,
    /// a second team of one school (AS-4).
    pub fn read(competition: &str, rows: &[EntryInput]) -> Result<Entries, Vec<EntryProblem>> {
        let mut problems = Vec::new();
        let competition = competition.trim();
        if competition.is_empty() {
            problems.push(EntryProblem {
                entry: None,
                field: "competition",
                message: "name the competition the teams enter, e.g. Secondary Open (AS-2)".into(),
            });
        } else if let Err(e) = check_text(TextKind::Name, "the competition's name", competition) {
            problems.push(EntryProblem {
                entry: None,
                field: "competition",
                message: e.to_string(),
            });
        }
        let mut entries = Vec::new();
        let mut schools: HashMap<String, usize> = HashMap::new();
        for (i, row) in rows.iter().enumerate() {
            let mut problem = |field, message| {
                problems.push(EntryProblem {
                    entry: Some(i),
                    field,
                    message,
                })
            };
            let state =
                State::parse(&row.state).map_err(|e| problem("state", format!("AS-4: {e}")));
            let school = row.school.split_whitespace().collect::<Vec<_>>().join(" ");
            if school.is_empty() {
                problem(
                    "school",
                    "AS-4: the entry names no school; a team represents one school".into(),
                );
                continue;
            }
            if let Err(e) = check_text(TextKind::Name, "the school's name", &school) {
                problem("school", e.to_string());
                continue;
            }
            if let Some(first) = schools.get(&school_key(&school)) {
                problem(
                    "school",
                    format!(
                        "AS-4: {school} has a team already (entry {}); a school enters one team in a competition, so enter another school's",
                        first + 1
                    ),
                );
                continue;
            }
            schools.insert(school_key(&school), i);
            if let Ok(state) = state {
                entries.push(Entry { state, school });
            }
        }
        if problems.is_empty() {
            Ok(Entries {
                competition: competition.to_string(),
                entries,
            })
        } else {
            Err(problems)
        }
    }

    /// The competition's name.
    pub fn competition(&self) -> &str {
        &self.competition
    }

    /// The teams entered, in the order given.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many teams are entered.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no team is entered.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many teams `state` has entered.
    pub fn of_state(&self, state: State) -> usize {
        self.entries.iter().filter(|e| e.state == state).count()
    }
}

/// One line of the previous championship's finish, as typed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FinishInput {
    /// The place, from 1 (shared places repeat it, AS-18).
    pub place: u32,
    /// The state's code.
    pub state: String,
    /// The team's school, when the file gives it.
    pub school: Option<String>,
}

/// A team's place in the previous championship's finish.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Placed {
    /// The place, from 1.
    pub place: u32,
    /// The state the team represented.
    pub state: State,
    /// The team's school, when known.
    pub school: Option<String>,
}

/// The previous championship's final standings, as AS-8 reads them: each state's best place.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct PreviousFinish {
    places: Vec<Placed>,
}

impl PreviousFinish {
    /// The finish from its places (a competition's stored standings).
    pub fn new(mut places: Vec<Placed>) -> PreviousFinish {
        places.sort_by_key(|p| p.place);
        PreviousFinish { places }
    }

    /// The finish as typed, or every line that is wrong: a place of 0, an unknown state.
    pub fn read(rows: &[FinishInput]) -> Result<PreviousFinish, Vec<EntryProblem>> {
        let mut problems = Vec::new();
        let mut places = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            if row.place == 0 {
                problems.push(EntryProblem {
                    entry: Some(i),
                    field: "place",
                    message: "AS-8: the place is 0; places count from 1".into(),
                });
            }
            match State::parse(&row.state) {
                Ok(state) if row.place > 0 => places.push(Placed {
                    place: row.place,
                    state,
                    school: row.school.clone(),
                }),
                Ok(_) => {}
                Err(e) => problems.push(EntryProblem {
                    entry: Some(i),
                    field: "state",
                    message: format!("AS-8: {e}"),
                }),
            }
        }
        if problems.is_empty() {
            Ok(PreviousFinish::new(places))
        } else {
            Err(problems)
        }
    }

    /// The places, best first.
    pub fn places(&self) -> &[Placed] {
        &self.places
    }

    /// The best place of each state that played, best first.
    fn best(&self) -> Vec<(State, u32)> {
        let mut best: Vec<(State, u32)> = Vec::new();
        for p in &self.places {
            if !best.iter().any(|(s, _)| *s == p.state) {
                best.push((p.state, p.place));
            }
        }
        best
    }
}

/// The host state and whether it can nominate one more team (AS-5, AS-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Host {
    /// The host state or territory.
    pub state: State,
    /// Whether it can nominate an additional team ("if possible", by-law 3(c), 3(e)).
    pub can_add: bool,
}

/// The clause of the by-law that asks for a team.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Clause {
    /// A field of 5 or 7: the host nominates one more.
    #[serde(rename = "AS-5")]
    As5,
    /// The host cannot: the next state in the invitation order adds one.
    #[serde(rename = "AS-6")]
    As6,
    /// A field of 4 or fewer: the host nominates one, then states are invited until 6.
    #[serde(rename = "AS-7")]
    As7,
}

impl Clause {
    /// `AS-5`, `AS-6` or `AS-7`.
    pub fn code(self) -> &'static str {
        match self {
            Clause::As5 => "AS-5",
            Clause::As6 => "AS-6",
            Clause::As7 => "AS-7",
        }
    }
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One team added to the field: the state asked for it, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The clause that asks for the team.
    pub clause: Clause,
    /// The state asked to add one team: the host nominating, or a state invited.
    pub invite: State,
    /// The sentence an officer reads.
    pub reason: String,
}

/// The invitations that bring a field to 6 or 8 (AS-5..AS-7), in order, and the order they
/// were taken from (AS-8) with the seed of its lot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FieldPlan {
    /// The teams entered.
    pub field_before: usize,
    /// The teams once every step is taken.
    pub field_after: usize,
    /// One step a team added, in order.
    pub steps: Vec<Step>,
    /// AS-8: every state, the previous finish first, then by lot.
    pub invitation_order: Vec<State>,
    /// The seed the lot was drawn from, to record and draw again.
    pub lot_seed: u64,
    /// How many states at the head of the order come from the previous finish; the rest are
    /// by lot.
    #[serde(skip)]
    pub by_finish: usize,
}

/// A field the by-law does not plan, with the sentence saying what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FieldRefusal {
    /// No team is entered.
    #[error(
        "{competition} has no entries; AS-5..AS-7 count the host's team ({host}), so enter it first"
    )]
    NoEntries {
        /// The competition.
        competition: String,
        /// The host.
        host: State,
    },
    /// The host has no team among the entries.
    #[error(
        "AS-5..AS-7 count one team of the host, {host}, and {competition} has none; enter the host's team, or the ACF settles the field (by-law 3(g))"
    )]
    HostNotEntered {
        /// The competition.
        competition: String,
        /// The host.
        host: State,
    },
    /// More than 8 teams.
    #[error(
        "{competition} has {teams} teams, more than the 8 the by-law plans for (AS-5, AS-19); withdraw an entry, or the ACF settles the field (by-law 3(g))"
    )]
    TooManyTeams {
        /// The competition.
        competition: String,
        /// The teams entered.
        teams: usize,
    },
    /// The invitation order has no state left to invite.
    #[error(
        "AS-8: the invitation order has no state left to invite, with {teams} teams of 6; the ACF settles the field (by-law 3(g))"
    )]
    OrderRunsOut {
        /// The teams by then.
        teams: usize,
    },
}

/// AS-8: the previous finish's states by their best place, then the others by the lot drawn
/// from `lot_seed`. States level in the finish follow the lot too. Every state, once.
pub fn invitation_order(previous: Option<&PreviousFinish>, lot_seed: u64) -> Vec<State> {
    order_and_split(previous, lot_seed).0
}

fn order_and_split(previous: Option<&PreviousFinish>, lot_seed: u64) -> (Vec<State>, usize) {
    // One draw of all eight, in code order; it orders whatever the finish does not.
    let mut lot = State::ALL;
    Lot::new(lot_seed).shuffle(&mut lot);
    let lot_rank = |s: State| lot.iter().position(|l| *l == s).unwrap_or(lot.len());
    let mut placed = previous.map(PreviousFinish::best).unwrap_or_default();
    placed.sort_by_key(|(s, place)| (*place, lot_rank(*s)));
    let by_finish = placed.len();
    let mut order: Vec<State> = placed.into_iter().map(|(s, _)| s).collect();
    order.extend(
        lot.iter()
            .filter(|s| !order.contains(s))
            .copied()
            .collect::<Vec<_>>(),
    );
    (order, by_finish)
}

/// The invitations that bring `entries` to 6 or 8 teams (AS-5..AS-7), taken from the invitation
/// order (AS-8) drawn with `lot_seed`. Refused when the by-law does not plan the field: no
/// entries, no team of the host, more than 8 teams.
pub fn plan(
    entries: &Entries,
    host: Host,
    previous: Option<&PreviousFinish>,
    lot_seed: u64,
) -> Result<FieldPlan, FieldRefusal> {
    let competition = entries.competition().to_string();
    let before = entries.len();
    if before == 0 {
        return Err(FieldRefusal::NoEntries {
            competition,
            host: host.state,
        });
    }
    if entries.of_state(host.state) == 0 {
        return Err(FieldRefusal::HostNotEntered {
            competition,
            host: host.state,
        });
    }
    if before > 8 {
        return Err(FieldRefusal::TooManyTeams {
            competition,
            teams: before,
        });
    }
    let (order, by_finish) = order_and_split(previous, lot_seed);
    // The host was asked first (AS-5, AS-7); the invitations go to the others, in order.
    let mut invitees = order.iter().copied().filter(|s| *s != host.state);
    let mut steps = Vec::new();
    let mut teams = before;
    let school = "of a school not yet in the competition (AS-4)";
    let mut invite = |clause: Clause, teams: &mut usize, steps: &mut Vec<Step>, why: &str| {
        let state = invitees
            .next()
            .ok_or(FieldRefusal::OrderRunsOut { teams: *teams })?;
        let place = if steps.iter().any(|s: &Step| s.invite != host.state) {
            "next"
        } else {
            "first"
        };
        steps.push(Step {
            clause,
            invite: state,
            reason: format!(
                "{why}; {state}, {place} in the invitation order (AS-8) but for the host, is invited to add one team ({clause}), {school}."
            ),
        });
        *teams += 1;
        Ok(())
    };
    let host_nominates = |clause: Clause, teams: usize| Step {
        clause,
        invite: host.state,
        reason: format!(
            "The field would be {teams} teams; the host, {}, nominates one more team ({clause}), {school}.",
            host.state
        ),
    };
    match before {
        5 | 7 if host.can_add => {
            steps.push(host_nominates(Clause::As5, teams));
            teams += 1;
        }
        5 | 7 => {
            let why = format!(
                "The field would be {teams} teams and the host, {}, cannot add one",
                host.state
            );
            invite(Clause::As6, &mut teams, &mut steps, &why)?;
        }
        1..=4 => {
            if host.can_add {
                steps.push(host_nominates(Clause::As7, teams));
                teams += 1;
            }
            while teams < 6 {
                let why = if host.can_add {
                    format!("The field would be {teams} teams, fewer than 6")
                } else {
                    format!(
                        "The field would be {teams} teams, fewer than 6, and the host, {}, cannot add one",
                        host.state
                    )
                };
                invite(Clause::As7, &mut teams, &mut steps, &why)?;
            }
        }
        _ => {}
    }
    Ok(FieldPlan {
        field_before: before,
        field_after: teams,
        steps,
        invitation_order: order,
        lot_seed,
        by_finish,
    })
}

#[cfg(test)]
mod tests;
