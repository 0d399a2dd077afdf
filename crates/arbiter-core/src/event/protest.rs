//! AS-13: a protest against another team's order of playing strength, from its lodging to the
//! arbiter's decision. A team dissatisfied with an order published at the roster lock (AS-12)
//! protests in writing, with its grounds, until protests close; the arbiter gives the team
//! affected the chance to reply, then dismisses the protest or upholds it and orders the new
//! order. Each step returns the next version of the protest, so every stage is kept.

use std::fmt;

use jiff::civil::DateTime;
use serde::Serialize;

use crate::event::event_day::{EventDeadlines, Late};
use crate::record::model::{Competition, PlayerId, Team, TeamId};
use crate::record::text::{Reason, TextTooLong};

/// A protest as a team lodges it, its grounds as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewProtest {
    /// The protesting team.
    pub by: TeamId,
    /// The team whose order is protested.
    pub against: TeamId,
    /// The written grounds.
    pub grounds: String,
    /// When it was given to the arbiter.
    pub at: DateTime,
}

/// A protest and everything that came of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Protest {
    /// The protesting team.
    pub by: TeamId,
    /// The team whose order is protested.
    pub against: TeamId,
    /// The written grounds.
    pub grounds: Reason,
    /// When it was lodged.
    pub lodged_at: DateTime,
    /// The order protested: the team's roster as published.
    pub order_protested: Vec<PlayerId>,
    /// The team affected's reply, once it had its chance.
    pub reply: Option<Reply>,
    /// The arbiter's decision.
    pub decision: Option<Decision>,
}

/// What the team affected answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "text", rename_all = "snake_case")]
pub enum Answer {
    /// Its reply, in its words.
    Written(Reason),
    /// It had the chance and said nothing.
    Declined,
}

/// The team affected's reply, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reply {
    /// What it answered.
    pub answer: Answer,
    /// When.
    pub at: DateTime,
}

/// How the arbiter determined the protest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "ruling", rename_all = "snake_case")]
pub enum Ruling {
    /// The order stands.
    Dismissed,
    /// The order is varied: the team's players in the order the arbiter sets, first first.
    Upheld {
        /// The new order.
        order: Vec<PlayerId>,
    },
}

/// The arbiter's decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// Dismissed, or upheld with the new order.
    pub ruling: Ruling,
    /// The arbiter, as the event's records name them.
    pub by: String,
    /// When.
    pub at: DateTime,
    /// Why, when the arbiter says.
    pub reason: Option<Reason>,
}

/// Where a protest stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Lodged: the team affected may reply.
    AwaitingReply,
    /// Replied to (or the reply declined): the arbiter decides.
    AwaitingDecision,
    /// Dismissed: the order stands.
    Dismissed,
    /// Upheld: the order is the one the arbiter set.
    Upheld,
}

/// A step of a protest that cannot be taken, with the sentence saying why and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProtestRefusal {
    /// Before the rosters are published, or after protests closed.
    Late(Late),
    /// A team protesting its own order.
    OwnTeam,
    /// A team not in the competition.
    UnknownTeam(TeamId),
    /// No written grounds.
    NoGrounds,
    /// Grounds or a reply too long.
    TooLong(TextTooLong),
    /// A second reply.
    AlreadyReplied,
    /// A decision before the team affected had its chance to reply.
    NotHeard,
    /// A second decision.
    AlreadyDecided,
    /// An upheld order that is not the team's roster, each player once.
    NotTheRoster {
        /// What is wrong with it.
        why: String,
    },
    /// An upheld order the same as the one protested.
    OrderUnchanged,
    /// The arbiter recording that the team affected declined to reply while it may still
    /// reply: until protests close.
    ReplyWindowOpen {
        /// When protests close, in the hall's time.
        until: DateTime,
    },
    /// A decision once round 1 has begun: the order stands as it was played.
    RoundBegun {
        /// Round 1's start, in the hall's time.
        first_round: DateTime,
    },
}

impl ProtestRefusal {
    /// A stable name for the API.
    pub fn code(&self) -> &'static str {
        match self {
            ProtestRefusal::Late(l) => l.code(),
            ProtestRefusal::OwnTeam => "own_team",
            ProtestRefusal::UnknownTeam(_) => "unknown_team",
            ProtestRefusal::NoGrounds => "no_grounds",
            ProtestRefusal::TooLong(_) => "too_long",
            ProtestRefusal::AlreadyReplied => "already_replied",
            ProtestRefusal::NotHeard => "not_heard",
            ProtestRefusal::AlreadyDecided => "already_decided",
            ProtestRefusal::NotTheRoster { .. } => "not_the_roster",
            ProtestRefusal::OrderUnchanged => "order_unchanged",
            ProtestRefusal::ReplyWindowOpen { .. } => "reply_window_open",
            ProtestRefusal::RoundBegun { .. } => "round_begun",
        }
    }
}

impl fmt::Display for ProtestRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtestRefusal::Late(l) => write!(f, "{l}"),
            ProtestRefusal::OwnTeam => f.write_str(
                "AS-13: a team protests another team's order, not its own; its own order was fixed at the roster lock (AS-10, AS-12)",
            ),
            ProtestRefusal::UnknownTeam(t) => write!(
                f,
                "AS-13: the competition has no team {t}; a protest names a team of the same championship"
            ),
            ProtestRefusal::NoGrounds => f.write_str(
                "AS-13: a protest is made in writing, stating its grounds; write them",
            ),
            ProtestRefusal::TooLong(e) => write!(f, "{e}"),
            ProtestRefusal::AlreadyReplied => f.write_str(
                "AS-13: the team affected has replied already; its reply is kept as given",
            ),
            ProtestRefusal::NotHeard => f.write_str(
                "AS-13: the arbiter decides having given the team affected the chance to reply; record its reply, or that it declined, first",
            ),
            ProtestRefusal::AlreadyDecided => f.write_str(
                "AS-13: the arbiter has decided this protest; the decision is kept as made",
            ),
            ProtestRefusal::NotTheRoster { why } => write!(
                f,
                "AS-13: the order set must be the team's roster, each player once: {why}"
            ),
            ProtestRefusal::OrderUnchanged => f.write_str(
                "AS-13: upholding a protest varies the order, and this is the order protested; to keep it, dismiss the protest",
            ),
            ProtestRefusal::ReplyWindowOpen { until } => write!(
                f,
                "AS-13: the team affected may reply until protests close at {}, so its reply is its own to write until then; record that it declined from then on",
                until.strftime("%H:%M on %-d %B")
            ),
            ProtestRefusal::RoundBegun { first_round } => write!(
                f,
                "AS-13: round 1 began at {}, so the protest is no longer decided: the order stood as played (the arbiter decides before round 1)",
                first_round.strftime("%H:%M on %-d %B")
            ),
        }
    }
}

impl std::error::Error for ProtestRefusal {}

fn team<'c>(c: &'c Competition, id: &TeamId) -> Result<&'c Team, ProtestRefusal> {
    c.team(id)
        .ok_or_else(|| ProtestRefusal::UnknownTeam(id.clone()))
}

impl Protest {
    /// AS-13: the protest lodged at `new.at`, when the rosters are published and protests are
    /// not closed (`deadlines`, round 1 at `first_round`), with written grounds, against
    /// another team of `c`.
    pub fn lodge(
        c: &Competition,
        deadlines: &EventDeadlines,
        first_round: DateTime,
        new: NewProtest,
    ) -> Result<Protest, ProtestRefusal> {
        team(c, &new.by)?;
        let against = team(c, &new.against)?;
        if new.by == new.against {
            return Err(ProtestRefusal::OwnTeam);
        }
        deadlines
            .protest_window(first_round, new.at)
            .map_err(ProtestRefusal::Late)?;
        let grounds = Reason::parse_as("the protest's grounds", &new.grounds)
            .map_err(ProtestRefusal::TooLong)?
            .ok_or(ProtestRefusal::NoGrounds)?;
        Ok(Protest {
            by: new.by,
            against: new.against,
            grounds,
            lodged_at: new.at,
            order_protested: against.players.iter().map(|p| p.id.clone()).collect(),
            reply: None,
            decision: None,
        })
    }

    /// Where it stands.
    pub fn stage(&self) -> Stage {
        match (&self.reply, &self.decision) {
            (_, Some(d)) => match d.ruling {
                Ruling::Dismissed => Stage::Dismissed,
                Ruling::Upheld { .. } => Stage::Upheld,
            },
            (Some(_), None) => Stage::AwaitingDecision,
            (None, None) => Stage::AwaitingReply,
        }
    }

    /// The protest with the record, made by the arbiter at `at`, that the team affected
    /// declined to reply: only once protests have closed (`deadlines`, round 1 at
    /// `first_round`), so the team's chance to reply is not taken from it (AS-13).
    pub fn declined(
        &self,
        deadlines: &EventDeadlines,
        first_round: DateTime,
        at: DateTime,
    ) -> Result<Protest, ProtestRefusal> {
        let until = deadlines.protests_close(first_round);
        if at < until && self.decision.is_none() && self.reply.is_none() {
            return Err(ProtestRefusal::ReplyWindowOpen { until });
        }
        self.reply("", at)
    }

    /// The protest with the team affected's reply: its words (blank: it declined), at `at`.
    pub fn reply(&self, text: &str, at: DateTime) -> Result<Protest, ProtestRefusal> {
        if self.decision.is_some() {
            return Err(ProtestRefusal::AlreadyDecided);
        }
        if self.reply.is_some() {
            return Err(ProtestRefusal::AlreadyReplied);
        }
        let answer = match Reason::parse_as("the reply", text).map_err(ProtestRefusal::TooLong)? {
            Some(words) => Answer::Written(words),
            None => Answer::Declined,
        };
        Ok(Protest {
            reply: Some(Reply { answer, at }),
            ..self.clone()
        })
    }

    /// The protest with the arbiter's decision, before round 1 begins at `first_round`. An
    /// upheld protest's order must be the roster of the team affected in `c`, each player
    /// once, and not the order protested. The by-law says "forthwith", which the arbiter keeps;
    /// the clock keeps only that the order is settled before round 1 is played in it.
    pub fn decide(
        &self,
        c: &Competition,
        decision: Decision,
        first_round: DateTime,
    ) -> Result<Protest, ProtestRefusal> {
        if self.decision.is_some() {
            return Err(ProtestRefusal::AlreadyDecided);
        }
        if decision.at >= first_round {
            return Err(ProtestRefusal::RoundBegun { first_round });
        }
        if self.reply.is_none() {
            return Err(ProtestRefusal::NotHeard);
        }
        if let Ruling::Upheld { order } = &decision.ruling {
            let roster = team(c, &self.against)?;
            check_order(roster, order)?;
            if *order == self.order_protested {
                return Err(ProtestRefusal::OrderUnchanged);
            }
        }
        Ok(Protest {
            decision: Some(decision),
            ..self.clone()
        })
    }

    /// The order an upheld protest set.
    pub fn order_set(&self) -> Option<&[PlayerId]> {
        match &self.decision.as_ref()?.ruling {
            Ruling::Upheld { order } => Some(order),
            Ruling::Dismissed => None,
        }
    }

    /// `team` (the team affected) with its roster in the order an upheld protest set; `None`
    /// when the protest did not set one.
    pub fn apply(&self, team: &Team) -> Option<Team> {
        let order = self.order_set()?;
        let players = order
            .iter()
            .filter_map(|id| team.players.iter().find(|p| p.id == *id).cloned())
            .collect();
        Some(Team {
            players,
            ..team.clone()
        })
    }
}

/// `order` holds every player of `team`'s roster, once, and no one else.
fn check_order(team: &Team, order: &[PlayerId]) -> Result<(), ProtestRefusal> {
    let not = |why: String| Err(ProtestRefusal::NotTheRoster { why });
    for (i, id) in order.iter().enumerate() {
        if !team.players.iter().any(|p| p.id == *id) {
            return not(format!("{id} is not on {}'s roster", team.name));
        }
        if order[..i].contains(id) {
            return not(format!("{id} is named twice"));
        }
    }
    if let Some(p) = team.players.iter().find(|p| !order.contains(&p.id)) {
        return not(format!("{} ({}) is left out", p.name, p.id));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::Player;
    use jiff::civil::date;

    fn at(h: i8, m: i8) -> DateTime {
        date(2026, 12, 7).at(h, m, 0, 0)
    }

    fn competition() -> Competition {
        let team = |id: &str, players: &[&str]| Team {
            id: TeamId(id.into()),
            name: id.to_uppercase(),
            school: None,
            players: players
                .iter()
                .map(|p| Player {
                    id: PlayerId((*p).into()),
                    name: format!("Player {p}"),
                    ..Player::default()
                })
                .collect(),
        };
        Competition {
            name: "Secondary Open".into(),
            teams: vec![
                team("vic", &["v1", "v2", "v3", "v4"]),
                team("nsw", &["n1", "n2", "n3", "n4", "n5"]),
            ],
            rounds: Vec::new(),
        }
    }

    fn lodge(at: DateTime, grounds: &str) -> Result<Protest, ProtestRefusal> {
        Protest::lodge(
            &competition(),
            &EventDeadlines::ASTC,
            date(2026, 12, 7).at(10, 0, 0, 0),
            NewProtest {
                by: TeamId("vic".into()),
                against: TeamId("nsw".into()),
                grounds: grounds.into(),
                at,
            },
        )
    }

    fn round_1() -> DateTime {
        date(2026, 12, 7).at(10, 0, 0, 0)
    }

    #[test]
    fn as_13_the_arbiter_records_a_declined_reply_only_once_protests_close() {
        // Issue 30: the arbiter wrote the team affected's "reply" as declined the minute after
        // the protest was lodged, and decided it.
        let lodged = lodge(at(9, 35), "n4 is far stronger than n1").unwrap();
        let early = lodged
            .declined(&EventDeadlines::ASTC, round_1(), at(9, 36))
            .unwrap_err();
        assert_eq!(early.code(), "reply_window_open");
        assert!(
            early.to_string().contains("until protests close at 09:40"),
            "{early}"
        );
        let declined = lodged
            .declined(&EventDeadlines::ASTC, round_1(), at(9, 40))
            .unwrap();
        assert!(matches!(
            declined.reply.as_ref().unwrap().answer,
            Answer::Declined
        ));
        // The team itself may reply at any time before the decision.
        assert!(lodged.reply("n4 is new to chess", at(9, 36)).is_ok());
    }

    #[test]
    fn as_13_a_protest_is_not_upheld_once_round_1_has_begun() {
        let c = competition();
        let replied = lodge(at(9, 35), "n4 is far stronger than n1")
            .unwrap()
            .reply("", at(9, 41))
            .unwrap();
        let upheld = |minute| Decision {
            ruling: Ruling::Upheld {
                order: ids(&["n4", "n1", "n2", "n3", "n5"]),
            },
            by: "Chief Arbiter".into(),
            at: at(10, minute),
            reason: None,
        };
        let late = replied.decide(&c, upheld(5), round_1()).unwrap_err();
        assert_eq!(late.code(), "round_begun");
        assert!(
            late.to_string()
                .starts_with("AS-13: round 1 began at 10:00"),
            "{late}"
        );
        assert!(
            replied.decide(&c, upheld(0), round_1()).is_err(),
            "at the start"
        );
    }

    fn ids(list: &[&str]) -> Vec<PlayerId> {
        list.iter().map(|p| PlayerId((*p).into())).collect()
    }

    #[test]
    fn as_13_a_protest_is_lodged_until_twenty_minutes_before_round_1() {
        let grounds = "n4 is rated 300 points above n1 and n2";
        assert_eq!(
            lodge(at(9, 39), grounds).unwrap().stage(),
            Stage::AwaitingReply
        );
        assert!(lodge(at(9, 40), grounds).is_ok(), "at the deadline");
        let late = lodge(at(9, 41), grounds).unwrap_err();
        assert_eq!(late.code(), "protests_closed");
        assert!(
            late.to_string()
                .starts_with("AS-13: protests closed at 09:40"),
            "{late}"
        );
        // Before the rosters are published (AS-12, 09:30) there is no order to protest.
        assert_eq!(
            lodge(at(9, 29), grounds).unwrap_err().code(),
            "protest_before_rosters"
        );
        assert_eq!(
            lodge(at(9, 35), "  ").unwrap_err(),
            ProtestRefusal::NoGrounds
        );
        let own = Protest::lodge(
            &competition(),
            &EventDeadlines::ASTC,
            at(10, 0),
            NewProtest {
                by: TeamId("nsw".into()),
                against: TeamId("nsw".into()),
                grounds: grounds.into(),
                at: at(9, 35),
            },
        );
        assert_eq!(own.unwrap_err(), ProtestRefusal::OwnTeam);
    }

    #[test]
    fn as_13_the_arbiter_hears_the_reply_then_upholds_and_orders_the_new_order() {
        let c = competition();
        let lodged = lodge(at(9, 35), "n4 is far stronger than n1").unwrap();
        assert_eq!(lodged.order_protested, ids(&["n1", "n2", "n3", "n4", "n5"]));
        let decision = |ruling| Decision {
            ruling,
            by: "Chief Arbiter".into(),
            at: at(9, 45),
            reason: Reason::parse("The ratings list shows it").unwrap(),
        };
        let upheld = Ruling::Upheld {
            order: ids(&["n4", "n1", "n2", "n3", "n5"]),
        };
        // Not before the team affected had its chance to reply.
        assert_eq!(
            lodged
                .decide(&c, decision(upheld.clone()), round_1())
                .unwrap_err(),
            ProtestRefusal::NotHeard
        );
        let replied = lodged
            .reply("n4 has not played for a year", at(9, 42))
            .unwrap();
        assert_eq!(replied.stage(), Stage::AwaitingDecision);
        assert_eq!(
            replied.reply("again", at(9, 43)).unwrap_err(),
            ProtestRefusal::AlreadyReplied
        );
        let decided = replied.decide(&c, decision(upheld), round_1()).unwrap();
        assert_eq!(decided.stage(), Stage::Upheld);
        let nsw = decided.apply(&c.teams[1]).unwrap();
        let order: Vec<&str> = nsw.players.iter().map(|p| p.id.0.as_str()).collect();
        assert_eq!(order, ["n4", "n1", "n2", "n3", "n5"]);
        // Every stage is kept.
        assert_eq!(decided.grounds.as_str(), "n4 is far stronger than n1");
        assert!(matches!(
            decided.reply.as_ref().unwrap().answer,
            Answer::Written(_)
        ));
        assert_eq!(
            decided
                .decide(&c, decision(Ruling::Dismissed), round_1())
                .unwrap_err(),
            ProtestRefusal::AlreadyDecided
        );
    }

    #[test]
    fn as_13_a_dismissed_protest_leaves_the_order_and_an_upheld_one_must_set_the_roster() {
        let c = competition();
        let heard = lodge(at(9, 35), "n5 is stronger than n3")
            .unwrap()
            .reply("", at(9, 36))
            .unwrap();
        assert_eq!(heard.reply.as_ref().unwrap().answer, Answer::Declined);
        let decide = |order: &[&str]| {
            heard.decide(
                &c,
                Decision {
                    ruling: Ruling::Upheld { order: ids(order) },
                    by: "Chief Arbiter".into(),
                    at: at(9, 45),
                    reason: None,
                },
                round_1(),
            )
        };
        let refused = |order: &[&str]| decide(order).unwrap_err().to_string();
        assert_eq!(
            refused(&["n1", "n2", "n3", "n4"]),
            "AS-13: the order set must be the team's roster, each player once: Player n5 (n5) is left out"
        );
        assert!(refused(&["n1", "n1", "n2", "n3", "n4"]).contains("n1 is named twice"));
        assert!(refused(&["n1", "n2", "n3", "n4", "v1"]).contains("v1 is not on NSW's roster"));
        assert_eq!(
            decide(&["n1", "n2", "n3", "n4", "n5"]).unwrap_err(),
            ProtestRefusal::OrderUnchanged
        );
        let dismissed = heard
            .decide(
                &c,
                Decision {
                    ruling: Ruling::Dismissed,
                    by: "Chief Arbiter".into(),
                    at: at(9, 45),
                    reason: None,
                },
                round_1(),
            )
            .unwrap();
        assert_eq!(dismissed.stage(), Stage::Dismissed);
        assert_eq!(dismissed.apply(&c.teams[1]), None);
    }
}
