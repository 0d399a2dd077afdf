//! What a ruleset's competitions offer on their pages, their mails and their officers' account
//! pages (issue 32 item 24): each from a section of the ruleset, so an event's pages show no
//! school league's feature and a club's team Swiss none of an event's. A person in several
//! leagues is offered what any of them has ([`Offers::union`]).

use crate::rules::permissions::Conduct;
use crate::rules::ruleset::Ruleset;
use crate::season::notice::Notice;

/// The features a ruleset has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Offers {
    /// `[fees]`: the Treasurer's fee ledger (GT-O2).
    pub fee_ledger: bool,
    /// `[playoffs]`: qualification, the draw and its rounds (GT-F3).
    pub playoffs: bool,
    /// `[report]`: results entered by one school and confirmed by the other, with their days,
    /// disputes, corrections, reminders and extra games (GT-P2, GT-P3), and the media reports
    /// of the season's results (GT-O3).
    pub reported_results: bool,
    /// `[event]`: the event's days, round times, lineups, the roster lock and protests, the
    /// arbiter's day and the planning of a field (AS-4..AS-13).
    pub event_days: bool,
    /// `conduct = "advisors"` outside an event: a season of school days whose matches the
    /// schools' advisors run, so a match is moved for the weather or by arrangement, a team may
    /// arrive late after its school day, the schedule is suspended and sent to the schools
    /// (GT-M1, GT-M2, GT-M6, GT-F5, GT-O3).
    pub school_calendar: bool,
}

impl Offers {
    /// What `rules` offers.
    pub fn of(rules: &Ruleset) -> Offers {
        Offers {
            fee_ledger: rules.fees.is_some(),
            playoffs: rules.playoffs.is_some(),
            reported_results: rules.report.is_some(),
            event_days: rules.event.is_some(),
            school_calendar: rules.conduct == Conduct::Advisors && rules.event.is_none(),
        }
    }

    /// What either offers: a person in a school league and at an event is offered both.
    pub fn union(self, other: Offers) -> Offers {
        Offers {
            fee_ledger: self.fee_ledger || other.fee_ledger,
            playoffs: self.playoffs || other.playoffs,
            reported_results: self.reported_results || other.reported_results,
            event_days: self.event_days || other.event_days,
            school_calendar: self.school_calendar || other.school_calendar,
        }
    }

    /// Whether a person of these leagues may get `notice` at all: a confirmation, a dispute or
    /// a deadline only where schools report results (GT-P2), a protest only at an event
    /// (AS-13); a decided result or a moved match anywhere.
    pub fn notice(self, notice: Notice) -> bool {
        match notice {
            Notice::ResultEntered | Notice::ResultDisputed | Notice::DeadlineTomorrow => {
                self.reported_results
            }
            Notice::ProtestStep => self.event_days,
            Notice::ResultDecided | Notice::MatchMoved => true,
        }
    }

    /// What the account page says of `notice` here, before the leagues' own rule IDs: the
    /// school league's words where schools report results, plain words elsewhere.
    pub fn notice_label(self, notice: Notice) -> &'static str {
        match notice {
            Notice::ResultDecided if !self.reported_results => {
                "The arbiter enters or corrects a result of your team's match"
            }
            Notice::MatchMoved if !self.school_calendar => {
                "A match of your team moves to another day or time"
            }
            n => n.words(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offers(preset: &str) -> Offers {
        Offers::of(&Ruleset::preset(preset).unwrap())
    }

    #[test]
    fn a_school_league_an_event_and_a_team_swiss_offer_their_own_features() {
        let gthscl = offers("gthscl");
        assert_eq!(
            gthscl,
            Offers {
                fee_ledger: true,
                playoffs: true,
                reported_results: true,
                event_days: false,
                school_calendar: true,
            }
        );
        let astc = offers("astc");
        assert_eq!(
            astc,
            Offers {
                event_days: true,
                ..Offers::default()
            }
        );
        // A club's team Swiss: none of a school league's, none of an event's.
        assert_eq!(offers("fide-team"), Offers::default());
        assert!(gthscl.union(astc).event_days);
        assert!(gthscl.union(astc).fee_ledger);
    }

    #[test]
    fn gt_p2_as_13_the_notices_follow_the_rules() {
        let astc = offers("astc");
        let kinds: Vec<Notice> = Notice::ALL
            .into_iter()
            .filter(|n| astc.notice(*n))
            .collect();
        assert_eq!(
            kinds,
            [
                Notice::ResultDecided,
                Notice::MatchMoved,
                Notice::ProtestStep
            ]
        );
        assert!(!astc.notice_label(Notice::MatchMoved).contains("GT-"));
        assert!(!astc.notice_label(Notice::ResultDecided).contains("GT-"));
        let gthscl = offers("gthscl");
        assert!(!gthscl.notice(Notice::ProtestStep));
        // The school league's words; the account page adds its own IDs (GT-M2).
        assert_eq!(
            gthscl.notice_label(Notice::MatchMoved),
            "A match moves to another day"
        );
    }
}
