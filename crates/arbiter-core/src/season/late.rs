//! A team that came late (GT-M6, GT-S3), as the home advisor, the match's referee (GT-M1),
//! reports it: when the late team's school day ended, when the clocks were started without it,
//! when it arrived and began. [`LateArrival::ruling`] reads the rules: a team not there within
//! an hour of the end of its school day forfeits, unless the late start was arranged before
//! (GT-M6); once that hour has passed the clocks may be started, and the team then has one more
//! hour to arrive and begin (GT-S3). The product applies nothing by itself: the referee reports,
//! and a result that does not follow the report is refused with the rule.

use jiff::civil::Time;

pub use crate::record::model::LateArrival;
use crate::record::model::MatchOutcome;

/// GT-M6: the hour a team has after its school day ends; GT-S3: the hour it has once the clocks
/// are started.
pub const GRACE_MINUTES: i64 = 60;

/// What the rules make of a late arrival.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LateRuling {
    /// There within the hour, or arranged before: the match is played (GT-M6).
    Plays,
    /// GT-S3: it began within the hour after the clocks were started; its clocks ran meanwhile.
    PlaysOnRunningClocks,
    /// GT-M6, GT-S3: it did not arrive and begin in time, so it forfeits the match (scored as
    /// GT-M7 says).
    Forfeits,
}

fn plus(t: Time, minutes: i64) -> Time {
    t.saturating_add(jiff::Span::new().minutes(minutes))
}

fn hm(t: Time) -> String {
    t.strftime("%H:%M").to_string()
}

impl LateArrival {
    /// What the rules make of the report, or why the report itself cannot be right.
    pub fn ruling(&self) -> Result<LateRuling, String> {
        let hour_after = plus(self.school_day_ends, GRACE_MINUTES);
        if let Some(started) = self.clocks_started
            && started < hour_after
        {
            return Err(format!(
                "GT-S3: the clocks may be started without the late team only from an hour after its school day ends ({}), not at {}",
                hm(hour_after),
                hm(started)
            ));
        }
        if let (Some(arrived), Some(started)) = (self.arrived, self.clocks_started)
            && arrived < started
        {
            return Err(format!(
                "the team arrived at {}, before the clocks were started at {}; the clocks are started only while it is absent (GT-S3)",
                hm(arrived),
                hm(started)
            ));
        }
        Ok(match (self.arranged, self.arrived, self.clocks_started) {
            (true, _, _) => LateRuling::Plays,
            (false, Some(arrived), _) if arrived <= hour_after => LateRuling::Plays,
            (false, Some(arrived), Some(started)) if arrived <= plus(started, GRACE_MINUTES) => {
                LateRuling::PlaysOnRunningClocks
            }
            _ => LateRuling::Forfeits,
        })
    }

    /// The report in a sentence, with what the rules make of it: "Lake's school day ended at
    /// 15:30; it arrived at 16:50 … (GT-M6)".
    pub fn describe(&self, team: &str) -> String {
        let mut out = format!("{team}'s school day ended at {}", hm(self.school_day_ends));
        if let Some(s) = self.clocks_started {
            out.push_str(&format!(
                "; the clocks were started without it at {}",
                hm(s)
            ));
        }
        match self.arrived {
            Some(a) => out.push_str(&format!("; it arrived and began at {}", hm(a))),
            None => out.push_str("; it never arrived"),
        }
        if self.arranged {
            out.push_str("; the late start was arranged before the day");
        }
        out.push_str(match self.ruling() {
            Ok(LateRuling::Plays) => ". The match is played (GT-M6).",
            Ok(LateRuling::PlaysOnRunningClocks) => {
                ". It began within the hour after the clocks were started, on its running clocks (GT-S3)."
            }
            Ok(LateRuling::Forfeits) => {
                ". It did not arrive and begin in time, so it forfeits the match (GT-M6, GT-S3)."
            }
            Err(_) => ".",
        });
        out
    }

    /// GT-M6: the result must follow the report: a team that forfeits by it has forfeited the
    /// match, and a team that played has not. `team` names the late side in the sentence.
    pub fn check_outcome(&self, outcome: &MatchOutcome, team: &str) -> Result<(), String> {
        let ruling = self.ruling()?;
        let forfeited_by_late = matches!(outcome, MatchOutcome::Forfeit { by } if *by == self.team);
        match ruling {
            LateRuling::Forfeits if !forfeited_by_late => Err(format!(
                "GT-M6: by the report, {team} did not arrive and begin in time, so it forfeits the match; enter the match as forfeited by {team}, or correct the times"
            )),
            LateRuling::Plays | LateRuling::PlaysOnRunningClocks if forfeited_by_late => {
                Err(format!(
                    "GT-M6: by the report, {team} arrived in time and the match was played; enter its boards, or correct the times"
                ))
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::model::Side;
    use jiff::civil::time;

    fn late(arrived: Option<Time>, clocks: Option<Time>) -> LateArrival {
        LateArrival {
            team: Side::Away,
            school_day_ends: time(15, 30, 0, 0),
            clocks_started: clocks,
            arrived,
            arranged: false,
        }
    }

    /// GT-M6 at its boundary: an hour after the school day ends is in time, a minute later is
    /// not, unless the clocks were started (GT-S3) or the late start was arranged.
    #[test]
    fn gt_m6_gt_s3_an_hour_then_an_hour_on_running_clocks() {
        let at = |h, m| Some(time(h, m, 0, 0));
        assert_eq!(late(at(16, 30), None).ruling(), Ok(LateRuling::Plays));
        assert_eq!(late(at(16, 31), None).ruling(), Ok(LateRuling::Forfeits));
        assert_eq!(late(None, None).ruling(), Ok(LateRuling::Forfeits));
        assert_eq!(
            late(at(17, 30), at(16, 30)).ruling(),
            Ok(LateRuling::PlaysOnRunningClocks)
        );
        assert_eq!(
            late(at(17, 31), at(16, 30)).ruling(),
            Ok(LateRuling::Forfeits)
        );
        assert_eq!(late(None, at(16, 45)).ruling(), Ok(LateRuling::Forfeits));
        let arranged = LateArrival {
            arranged: true,
            ..late(at(18, 0), None)
        };
        assert_eq!(arranged.ruling(), Ok(LateRuling::Plays));
        let early_clocks = late(at(17, 0), at(16, 0)).ruling().unwrap_err();
        assert!(
            early_clocks.starts_with("GT-S3: the clocks may be started"),
            "{early_clocks}"
        );
    }

    #[test]
    fn gt_m6_the_result_follows_the_report() {
        let never = late(None, Some(time(16, 30, 0, 0)));
        let forfeit = MatchOutcome::Forfeit { by: Side::Away };
        assert_eq!(never.check_outcome(&forfeit, "Lake"), Ok(()));
        let played = never
            .check_outcome(&MatchOutcome::Boards(Vec::new()), "Lake")
            .unwrap_err();
        assert!(
            played.starts_with("GT-M6: by the report, Lake did not arrive"),
            "{played}"
        );
        let in_time = late(Some(time(16, 10, 0, 0)), None);
        assert!(in_time.check_outcome(&forfeit, "Lake").is_err());
        assert!(
            never
                .describe("Lake")
                .ends_with("so it forfeits the match (GT-M6, GT-S3)."),
            "{}",
            never.describe("Lake")
        );
    }
}
