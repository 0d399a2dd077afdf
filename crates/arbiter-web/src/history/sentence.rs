//! A history row as one sentence of the log (issue 32): who did what to which match of which
//! division, and of a change only the fields that changed, in words.

use std::collections::HashMap;

use arbiter_core::record::model::GameResult;
use arbiter_core::rules::permissions::Role;
use arbiter_store::{Entity, HistoryAction, HistoryEntry};
use serde_json::Value;

use crate::ui::words;

/// The people a log names: an account's email to its name and the schools of its roles.
#[derive(Debug, Default)]
pub struct People(HashMap<String, Person>);

/// A member's name and roles, each with its school (an advisor's).
type Person = (String, Vec<(Role, Option<String>)>);

impl People {
    pub fn new(members: &[arbiter_store::MemberRow]) -> People {
        let mut map: HashMap<String, Person> = HashMap::new();
        for m in members {
            map.entry(m.user.email.clone())
                .or_insert_with(|| (m.user.name.clone(), Vec::new()))
                .1
                .push((m.membership.role, m.membership.school.clone()));
        }
        People(map)
    }

    /// `Ann Advisor (Whitmer High School)`, `Pat President (President)`; an account no longer
    /// in the league by its email; a row of no account is the command line's.
    pub fn who(&self, e: &HistoryEntry) -> String {
        let Some(email) = &e.actor else {
            return "The command line".to_string();
        };
        let Some((name, roles)) = self.0.get(email) else {
            return match e.role {
                Some(r) => format!("{email} ({})", r.name()),
                None => email.clone(),
            };
        };
        let school = roles
            .iter()
            .find(|(r, _)| Some(*r) == e.role)
            .and_then(|(_, s)| s.clone());
        match (school, e.role) {
            (Some(s), _) => format!("{name} ({s})"),
            (None, Some(r)) => format!("{name} ({})", r.name()),
            (None, None) => name.clone(),
        }
    }

    /// Everyone, by name, for the person filter: (email, name).
    pub fn choices(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .0
            .iter()
            .map(|(email, (name, _))| (email.clone(), name.clone()))
            .collect();
        out.sort_by(|a, b| (&a.1, &a.0).cmp(&(&b.1, &b.0)));
        out
    }
}

/// What the person did, after their name: `entered the result of Division A round 3, Whitmer v
/// Start: 2½–1½ (boards …)`.
pub fn deed(e: &HistoryEntry) -> String {
    let value = e.after.as_ref().or(e.before.as_ref());
    let text = |k: &str| value.and_then(|v| v.get(k)).and_then(Value::as_str);
    let named = |fallback: &str| text("name").map_or_else(|| fallback.to_string(), str::to_string);
    let of_competition = e
        .competition_name
        .as_ref()
        .map(|c| format!(" in {c}"))
        .unwrap_or_default();
    let changes = changed_fields(e.before.as_ref(), e.after.as_ref());
    match (e.entity, e.action) {
        (Entity::Match, HistoryAction::RecordResult) => {
            let before = e.before.as_ref().and_then(|b| result_text(b, e));
            let after = e.after.as_ref().and_then(|a| result_text(a, e));
            // Version 1 comes with the schedule; a result over none is its entry, one over
            // another a correction (GT-P2).
            match (before, after) {
                (Some(b), Some(a)) => {
                    format!("corrected the result of {}: {b} to {a}", match_label(e))
                }
                (None, Some(a)) => format!("entered the result of {}: {a}", match_label(e)),
                _ => format!("scheduled {}", match_label(e)),
            }
        }
        (Entity::Match, HistoryAction::ConfirmResult) => {
            format!("confirmed the result of {}", match_label(e))
        }
        (Entity::Match, HistoryAction::DisputeResult) => {
            format!("disputed the result of {}", match_label(e))
        }
        (_, HistoryAction::MoveMatch) => with(format!("moved {}", match_label(e)), &changes),
        (_, HistoryAction::NameLineup) => {
            let side = e
                .after
                .as_ref()
                .and_then(|a| a.get("team"))
                .and_then(Value::as_str)
                .map(str::to_string);
            match side {
                Some(t) => format!("named {t}'s lineup for {}", match_label(e)),
                None => format!("named a lineup for {}", match_label(e)),
            }
        }
        (_, HistoryAction::RuleOnViolation) => match text("message") {
            Some(m) => format!("ruled that the result stands despite “{m}”{of_competition}"),
            None => format!("ruled that a result stands{of_competition}"),
        },
        (Entity::Competition, HistoryAction::ChangeRules) => {
            let said: Vec<&str> = e
                .after
                .as_ref()
                .and_then(|a| a.get("changes"))
                .and_then(Value::as_array)
                .map(|c| c.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let of = e
                .competition_name
                .as_ref()
                .map(|c| format!(" of {c}"))
                .unwrap_or_default();
            if said.is_empty() {
                format!("changed the rules{of}")
            } else {
                format!("changed the rules{of}: {}", said.join("; "))
            }
        }
        (Entity::League, HistoryAction::Create) => format!("created the league {}", named("")),
        (Entity::Season, HistoryAction::Create) => format!("created the season {}", named("")),
        (Entity::School, HistoryAction::Create) => format!("added the school {}", named("")),
        (Entity::School, _) => with(format!("changed the school {}", named("")), &changes),
        (Entity::Closure, HistoryAction::Create) => {
            format!("closed the schools: {}", closure(value, &e.entity_id))
        }
        (Entity::Closure, HistoryAction::Withdraw) => {
            format!("withdrew the closure {}", closure(value, &e.entity_id))
        }
        (Entity::Competition, HistoryAction::Import) => {
            format!("imported the competition {}", named(&e.entity_id))
        }
        (Entity::Competition, HistoryAction::Create) => {
            format!("created the competition {}", named(&e.entity_id))
        }
        (Entity::Competition, HistoryAction::DecideTie) => {
            format!("decided a tie for the playoffs{of_competition}")
        }
        (Entity::Team, HistoryAction::Import) => {
            format!("imported the team {}{of_competition}", named(&e.entity_id))
        }
        (Entity::Team, HistoryAction::Create) => {
            format!("added the team {}{of_competition}", named(&e.entity_id))
        }
        (_, HistoryAction::AddPlayer) => {
            format!("added a player to a roster{of_competition}")
        }
        (Entity::Team, HistoryAction::EditPlayer) => with(
            format!("changed a player's roster entry{of_competition}"),
            &changes,
        ),
        (Entity::Team, HistoryAction::WithdrawPlayer) => {
            format!("withdrew a player from a roster{of_competition}")
        }
        (Entity::User, HistoryAction::Create) => {
            format!(
                "created the account {}",
                text("email").unwrap_or(&e.entity_id)
            )
        }
        (Entity::User, HistoryAction::SetPassword) => "set a password".to_string(),
        (Entity::Membership, HistoryAction::Grant) => {
            let (who, role) = role_of(value);
            format!("gave {who} the role of {role}")
        }
        (Entity::Membership, HistoryAction::Revoke) => {
            let (who, role) = role_of(value);
            format!("took the role of {role} from {who}")
        }
        (Entity::Invite, HistoryAction::Create) => {
            let (who, role) = role_of(value);
            format!("invited {who} as {role}")
        }
        (Entity::Invite, HistoryAction::Accept) => {
            let (who, role) = role_of(value);
            format!("accepted the invitation of {who} as {role}")
        }
        (Entity::Invite, HistoryAction::Withdraw) => {
            let (who, role) = role_of(value);
            format!("withdrew the invitation of {who} as {role}")
        }
        (Entity::ApiToken, HistoryAction::Create) => {
            format!("created the API token {}", token(value, &e.entity_id))
        }
        (Entity::ApiToken, HistoryAction::Revoke) => {
            format!("revoked the API token {}", token(value, &e.entity_id))
        }
        (Entity::LedgerEntry, HistoryAction::RecordLedgerEntry) => {
            let number = value.and_then(|v| v.get("number")).and_then(Value::as_u64);
            let entry = match (number, text("season")) {
                (Some(n), Some(s)) => format!("entry {n} of the {s} ledger"),
                _ => format!("ledger entry {}", e.entity_id),
            };
            match text("kind") {
                Some("reversal") => format!("reversed {entry}"),
                Some("waiver") => match text("school") {
                    Some(school) => format!("waived {school}'s fee in {entry}"),
                    None => format!("waived a fee in {entry}"),
                },
                _ => format!("recorded {entry}"),
            }
        }
        (Entity::Playoffs, HistoryAction::DrawPlayoffs) => {
            format!("drew the playoffs{of_competition}")
        }
        (Entity::Playoffs, HistoryAction::PairRound) => {
            format!("paired a playoff round{of_competition}")
        }
        (Entity::Playoffs, HistoryAction::RecordDecidingGame) => {
            format!("entered a deciding game{of_competition}")
        }
        (Entity::Playoffs, HistoryAction::CorrectDecidingGame) => {
            format!("corrected a deciding game{of_competition}")
        }
        (Entity::Season, HistoryAction::SendSchedule) => {
            let n = value
                .and_then(|v| v.get("schools"))
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            let mails = value.and_then(|v| v.get("mails")).and_then(Value::as_u64);
            format!(
                "sent the schedule of {} to {n} {} ({} mails, GT-O3)",
                named("the season"),
                if n == 1 { "school" } else { "schools" },
                mails.unwrap_or(0)
            )
        }
        (Entity::RatingList, HistoryAction::Import) => {
            let text = |k: &str| value.and_then(|v| v.get(k)).and_then(Value::as_str);
            let entries = value.and_then(|v| v.get("entries")).and_then(Value::as_u64);
            format!(
                "imported the rating list {}, in force from {} ({} rated players)",
                text("name").unwrap_or(&e.entity_id),
                text("in_force_from").unwrap_or("?"),
                entries.unwrap_or(0)
            )
        }
        (Entity::MediaReport, HistoryAction::DraftMediaReport) => {
            format!("saved the draft of {}", report(value, &e.entity_id))
        }
        (Entity::MediaReport, HistoryAction::PublishMediaReport) => {
            format!("published {}", report(value, &e.entity_id))
        }
        (entity, action) => with(
            format!(
                "{} {entity} {}{of_competition}",
                action.code().replace('_', " "),
                named(&e.entity_id)
            ),
            &changes,
        ),
    }
}

/// `moved Division A round 3, Clay v Start: date from 2026-11-12 to 2026-11-19`.
fn with(deed: String, changes: &[String]) -> String {
    if changes.is_empty() {
        deed
    } else {
        format!("{deed}: {}", changes.join("; "))
    }
}

/// `Division A round 3, Whitmer v Start`, by the names the store joined in.
fn match_label(e: &HistoryEntry) -> String {
    let division = e
        .competition_name
        .as_ref()
        .map(|c| format!("{c} "))
        .unwrap_or_default();
    match &e.on_match {
        Some(m) => format!("{division}round {}, {} v {}", m.round, m.home, m.away),
        None => format!("{division}match {}", e.entity_id),
    }
}

/// Only the fields whose value changed, each in words: `date from 2026-11-12 to 2026-11-19`,
/// `start set to 16:00`, `address removed`; never an unchanged field or a `none`.
pub fn changed_fields(before: Option<&Value>, after: Option<&Value>) -> Vec<String> {
    let (Some(Value::Object(b)), Some(Value::Object(a))) = (before, after) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in b.keys().chain(a.keys().filter(|k| !b.contains_key(*k))) {
        let (x, y) = (
            b.get(k).unwrap_or(&Value::Null),
            a.get(k).unwrap_or(&Value::Null),
        );
        if x == y {
            continue;
        }
        let field = k.replace('_', " ");
        out.push(match (plain(x), plain(y)) {
            (None, Some(y)) => format!("{field} set to {y}"),
            (Some(_), None) if y.is_null() => format!("{field} removed"),
            (Some(x), Some(y)) => format!("{field} from {x} to {y}"),
            _ => format!("{field} changed"),
        });
    }
    out
}

/// A value a sentence can say; `None` for nothing, and for a list or an object, which are
/// said as "changed".
fn plain(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(true) => Some("yes".to_string()),
        Value::Bool(false) => Some("no".to_string()),
        _ => None,
    }
}

fn closure(value: Option<&Value>, id: &str) -> String {
    let text = |k: &str| value.and_then(|v| v.get(k)).and_then(Value::as_str);
    match (text("reason"), text("from"), text("to")) {
        (Some(r), Some(a), Some(b)) if a == b => format!("“{r}” on {a}"),
        (Some(r), Some(a), Some(b)) => format!("“{r}” from {a} to {b}"),
        _ => id.to_string(),
    }
}

/// Whose role and which: (`coach@start.example`, `Advisor of Start High School`).
fn role_of(value: Option<&Value>) -> (String, String) {
    let text = |k: &str| value.and_then(|v| v.get(k)).and_then(Value::as_str);
    let role = text("role").map_or_else(
        || "a role".to_string(),
        |r| Role::from_code(r).map_or_else(|| r.to_string(), |x| x.name().to_string()),
    );
    let role = match text("school") {
        Some(s) => format!("{role} of {s}"),
        None => role.to_string(),
    };
    let who = text("user").or(text("email")).unwrap_or("someone");
    (who.to_string(), role)
}

fn token(value: Option<&Value>, id: &str) -> String {
    let text = |k: &str| value.and_then(|v| v.get(k)).and_then(Value::as_str);
    match text("label") {
        Some(l) if !l.is_empty() => format!("“{l}”"),
        _ => text("prefix").unwrap_or(id).to_string(),
    }
}

fn report(value: Option<&Value>, id: &str) -> String {
    let text = |k: &str| value.and_then(|v| v.get(k)).and_then(Value::as_str);
    match (text("moment"), text("season")) {
        (Some(m), Some(s)) => format!("the {m} media report of {s}"),
        _ => format!("media report {id}"),
    }
}

/// A stored result in words, `None` for no result yet: `2½–1½ (boards 1–0 ½–½ …)`,
/// `Clay Eagles forfeited the match`.
fn result_text(v: &Value, e: &HistoryEntry) -> Option<String> {
    let o = v.get("outcome")?;
    let (home, away) = match &e.on_match {
        Some(m) => (m.home.as_str(), m.away.as_str()),
        None => ("the home team", "the visitors"),
    };
    outcome(o, home, away)
}

/// `3–1 (boards 1–0 ½–½ 1–0 +/−)`, `Clay Eagles forfeited the match`; `None` for no result.
pub fn outcome(o: &Value, home: &str, away: &str) -> Option<String> {
    match o.get("kind").and_then(Value::as_str) {
        Some("boards") => {
            let results: Vec<GameResult> = o
                .get("boards")
                .and_then(Value::as_array)
                .map(|bs| {
                    bs.iter()
                        .map(|b| {
                            b.get("result")
                                .and_then(Value::as_str)
                                .and_then(GameResult::parse)
                                .unwrap_or(GameResult::Pending)
                        })
                        .collect()
                })
                .unwrap_or_default();
            if results.iter().all(|r| *r == GameResult::Pending) {
                return None;
            }
            let (mut h, mut a) = (0.0, 0.0);
            for r in &results {
                let (x, y) = match r {
                    GameResult::HomeWin | GameResult::HomeWinByForfeit => (1.0, 0.0),
                    GameResult::AwayWin | GameResult::AwayWinByForfeit => (0.0, 1.0),
                    GameResult::Draw => (0.5, 0.5),
                    GameResult::DoubleForfeit | GameResult::Pending => (0.0, 0.0),
                };
                h += x;
                a += y;
            }
            let boards: Vec<&str> = results.iter().map(|r| words::board_result(*r)).collect();
            let so_far = if results.contains(&GameResult::Pending) {
                " so far"
            } else {
                ""
            };
            Some(format!(
                "{}{so_far} (boards {})",
                words::score(h, a),
                boards.join(" ")
            ))
        }
        Some("forfeit") => Some(match o.get("by").and_then(Value::as_str) {
            Some("home") => format!("{home} forfeited the match"),
            Some("away") => format!("{away} forfeited the match"),
            _ => "a forfeit".to_string(),
        }),
        Some("double_forfeit") => Some("both teams forfeited the match".to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_fields_that_changed_are_said_and_never_as_none() {
        let before = json!({"round": 3, "home": "clay", "date": "2026-11-12", "start": null});
        let after = json!({"round": 3, "home": "clay", "date": "2026-11-19", "start": null});
        assert_eq!(
            changed_fields(Some(&before), Some(&after)),
            ["date from 2026-11-12 to 2026-11-19"]
        );
        let after = json!({"round": 3, "home": "clay", "date": "2026-11-12", "start": "16:00"});
        assert_eq!(
            changed_fields(Some(&before), Some(&after)),
            ["start set to 16:00"]
        );
        assert_eq!(
            changed_fields(Some(&after), Some(&before)),
            ["start removed"]
        );
    }

    #[test]
    fn results_read_as_score_and_boards() {
        let o = json!({"kind": "boards", "boards": [
            {"board": 1, "result": "1-0"}, {"board": 2, "result": "1/2-1/2"},
            {"board": 3, "result": "0-1"}, {"board": 4, "result": "-/+"}]});
        assert_eq!(
            outcome(&o, "Drop", "Clay").as_deref(),
            Some("1½\u{2013}2½ (boards 1\u{2013}0 ½\u{2013}½ 0\u{2013}1 \u{2212}/+)")
        );
        let f = json!({"kind": "forfeit", "by": "away"});
        assert_eq!(
            outcome(&f, "Drop", "Clay Eagles").as_deref(),
            Some("Clay Eagles forfeited the match")
        );
        assert_eq!(outcome(&json!({"kind": "pending"}), "a", "b"), None);
    }
}
