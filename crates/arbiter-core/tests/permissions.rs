//! Who may do what (GT-O3, GT-M1, GT-P2, GT-P4, AS-11, AS-13), and docs/permissions.md kept in
//! step with the table.

use arbiter_core::rules::permissions::{
    Access, Action, Conduct, Decision, Role, Subject, Target, acting_role, decide, render_markdown,
    table,
};

const PERRYSBURG: &str = "Perrysburg";
const MAUMEE: &str = "Maumee";
const SYLVANIA: &str = "Sylvania";

fn who(role: Role, school: Option<&str>) -> Subject<'_> {
    Subject { role, school }
}

/// Perrysburg at home to Maumee.
fn perrysburg_v_maumee() -> Target<'static> {
    Target::Match {
        home: Some(PERRYSBURG),
        visiting: Some(MAUMEE),
        conduct: Conduct::Advisors,
    }
}

fn reason(decision: &Decision) -> (&Option<&'static str>, &str) {
    match decision {
        Decision::Refused { rule, reason } => (rule, reason.as_str()),
        Decision::Allowed => panic!("expected a refusal, got Allowed"),
    }
}

#[test]
fn gt_o3_president_cannot_decide_a_dispute_involving_own_school() {
    let president = who(Role::President, Some(PERRYSBURG));
    let d = decide(president, Action::DecideDispute, perrysburg_v_maumee());
    let (rule, text) = reason(&d);
    assert_eq!(*rule, Some("GT-O3"));
    assert_eq!(
        text,
        "GT-O3: the dispute involves Perrysburg, the President's own school; the Vice-President decides it."
    );
    // Nor settle it another way: correcting the result or ruling the forfeit (GT-M3).
    for action in [Action::CorrectResult, Action::ApplyMatchForfeit] {
        let d = decide(president, action, perrysburg_v_maumee());
        assert_eq!(reason(&d).0, &Some("GT-O3"), "{action:?}");
    }
}

#[test]
fn gt_o3_vice_president_decides_when_the_president_is_involved() {
    let vp = who(Role::VicePresident, Some(SYLVANIA));
    for action in [
        Action::DecideDispute,
        Action::CorrectResult,
        Action::ApplyMatchForfeit,
    ] {
        assert_eq!(
            decide(vp, action, perrysburg_v_maumee()),
            Decision::Allowed,
            "{action:?}"
        );
    }
}

#[test]
fn gt_o3_president_decides_disputes_between_other_schools() {
    let president = who(Role::President, Some(PERRYSBURG));
    let other = Target::Match {
        home: Some(SYLVANIA),
        visiting: Some(MAUMEE),
        conduct: Conduct::Advisors,
    };
    assert_eq!(
        decide(president, Action::DecideDispute, other),
        Decision::Allowed
    );
    // A President with no school of their own has no conflict.
    assert_eq!(
        decide(
            who(Role::President, None),
            Action::DecideDispute,
            perrysburg_v_maumee()
        ),
        Decision::Allowed
    );
}

#[test]
fn gt_m1_gt_p2_home_advisor_enters_visiting_advisor_confirms() {
    let home = who(Role::Advisor, Some(PERRYSBURG));
    let visiting = who(Role::Advisor, Some(MAUMEE));
    let m = perrysburg_v_maumee();

    assert_eq!(decide(home, Action::EnterResult, m), Decision::Allowed);
    let d = decide(visiting, Action::EnterResult, m);
    let (rule, text) = reason(&d);
    assert_eq!(*rule, Some("GT-P2"));
    assert_eq!(
        text,
        "GT-P2: only the home advisor may enter the result of a match; Maumee is not the home school of this match (Perrysburg is)."
    );

    for action in [Action::ConfirmResult, Action::DisputeResult] {
        assert_eq!(decide(visiting, action, m), Decision::Allowed, "{action:?}");
        let d = decide(home, action, m);
        let (rule, text) = reason(&d);
        assert_eq!(*rule, Some("GT-P2"));
        assert!(text.contains("visiting advisor"), "{text}");
        assert!(text.contains("(Maumee is)"), "{text}");
    }
}

#[test]
fn an_advisor_refused_on_a_team_with_no_school_reads_a_whole_sentence() {
    // A team entered without a school reaches the table as the empty name.
    let perth = who(Role::Advisor, Some("Perth College"));
    for target in [
        Target::School(""),
        Target::School("  "),
        Target::Parties(&[""]),
        Target::Match {
            home: Some(""),
            visiting: None,
            conduct: Conduct::Arbiter,
        },
    ] {
        let d = decide(perth, Action::EditRoster, target);
        assert_eq!(
            reason(&d).1,
            "An advisor acts only for their own school, and no school is named for this team or match, so Perth College's advisor may not act on it; ask the President to set the team's school, or ask an officer to act.",
            "{target:?}"
        );
    }
    let d = decide(
        perth,
        Action::EnterResult,
        Target::Match {
            home: Some(""),
            visiting: Some(MAUMEE),
            conduct: Conduct::Advisors,
        },
    );
    let (_, text) = reason(&d);
    assert!(
        text.ends_with("and this match names no home school."),
        "{text}"
    );
}

#[test]
fn advisor_of_another_school_is_refused() {
    let sylvania = who(Role::Advisor, Some(SYLVANIA));
    let roster = Target::School(MAUMEE);
    let d = decide(sylvania, Action::EditRoster, roster);
    assert_eq!(
        reason(&d).1,
        "An advisor acts only for their own school, and Sylvania is not Maumee."
    );
    // AS-11: a lineup for a team of another school.
    let d = decide(sylvania, Action::SubmitLineup, roster);
    let (rule, text) = reason(&d);
    assert_eq!(*rule, Some("AS-11"));
    assert!(text.starts_with("AS-11: "), "{text}");
    // Neither side of Perrysburg v Maumee.
    for action in [
        Action::EnterResult,
        Action::ConfirmResult,
        Action::DisputeResult,
        Action::PostponeMatch,
    ] {
        assert!(
            !decide(sylvania, action, perrysburg_v_maumee()).is_allowed(),
            "{action:?}"
        );
    }
    // And an advisor whose account names no school acts for none.
    let d = decide(who(Role::Advisor, None), Action::EditRoster, roster);
    assert!(reason(&d).1.contains("names no school"));
}

#[test]
fn advisor_acts_for_own_school() {
    let maumee = who(Role::Advisor, Some(MAUMEE));
    let roster = Target::School(MAUMEE);
    assert_eq!(
        decide(maumee, Action::EditRoster, roster),
        Decision::Allowed
    );
    assert_eq!(
        decide(maumee, Action::SubmitLineup, roster),
        Decision::Allowed
    );
    // GT-M2: either advisor may move the match by arrangement.
    assert_eq!(
        decide(maumee, Action::PostponeMatch, perrysburg_v_maumee()),
        Decision::Allowed
    );
    // But not outside the window without the President's override.
    let d = decide(
        maumee,
        Action::OverridePostponementWindow,
        perrysburg_v_maumee(),
    );
    assert_eq!(reason(&d).0, &Some("GT-M2"));
}

#[test]
fn public_may_do_nothing() {
    let public = who(Role::Public, None);
    for action in Action::ALL {
        for target in [Target::League, perrysburg_v_maumee()] {
            let d = decide(public, action, target);
            let (rule, text) = reason(&d);
            assert_eq!(*rule, action.rule(), "{action:?}");
            assert!(text.ends_with("the public may not."), "{action:?}: {text}");
        }
    }
    // Even with a school on the account.
    assert!(
        !decide(
            who(Role::Public, Some(PERRYSBURG)),
            Action::EditRoster,
            Target::School(PERRYSBURG)
        )
        .is_allowed()
    );
}

#[test]
fn gt_p4_an_officer_applies_a_double_forfeit_for_a_late_report() {
    let m = perrysburg_v_maumee();
    for role in Role::ALL {
        let d = decide(
            who(role, Some(SYLVANIA)),
            Action::ApplyDoubleForfeitForLateReport,
            m,
        );
        if matches!(role, Role::President | Role::VicePresident) {
            assert_eq!(d, Decision::Allowed, "{role:?}");
        } else {
            let (rule, text) = reason(&d);
            assert_eq!(*rule, Some("GT-P4"), "{role:?}");
            assert!(
                text.contains("may apply a double forfeit to a match reported late"),
                "{text}"
            );
        }
    }
    // GT-O3: never on the President's own school's match.
    let own = decide(
        who(Role::President, Some(MAUMEE)),
        Action::ApplyDoubleForfeitForLateReport,
        m,
    );
    assert_eq!(reason(&own).0, &Some("GT-O3"));
}

/// GT-O3: the President or the Vice-President enters a result nobody reported, and declares a
/// match forfeited (GT-M3), but not on the President's own school's match.
#[test]
fn gt_o3_gt_m3_officers_act_on_a_match_nobody_reported() {
    let m = perrysburg_v_maumee();
    for action in [Action::EnterResult, Action::ApplyMatchForfeit] {
        assert!(decide(who(Role::President, Some(SYLVANIA)), action, m).is_allowed());
        assert!(decide(who(Role::VicePresident, None), action, m).is_allowed());
        let own = decide(who(Role::President, Some(PERRYSBURG)), action, m);
        let (rule, text) = reason(&own);
        assert_eq!(*rule, Some("GT-O3"), "{text}");
        assert!(text.contains("the Vice-President"), "{text}");
    }
}

/// GT-O3: when a school's A and B teams meet, its advisor enters the result for the home team
/// but does not confirm or dispute it for the visitors; an officer confirms it.
#[test]
fn gt_o3_one_advisor_of_both_teams_does_not_confirm_their_own_entry() {
    let sister = Target::Match {
        home: Some(PERRYSBURG),
        visiting: Some(PERRYSBURG),
        conduct: Conduct::Advisors,
    };
    let advisor = who(Role::Advisor, Some(PERRYSBURG));
    assert!(decide(advisor, Action::EnterResult, sister).is_allowed());
    for action in [Action::ConfirmResult, Action::DisputeResult] {
        let d = decide(advisor, action, sister);
        let (rule, text) = reason(&d);
        assert_eq!(*rule, Some("GT-O3"), "{text}");
        assert!(text.contains("an officer confirms it"), "{text}");
    }
    assert!(
        decide(
            who(Role::VicePresident, None),
            Action::ConfirmResult,
            sister
        )
        .is_allowed()
    );
    assert!(
        decide(
            who(Role::President, Some(SYLVANIA)),
            Action::ConfirmResult,
            sister
        )
        .is_allowed()
    );
    // Between two schools the visiting advisor still confirms.
    let visiting = who(Role::Advisor, Some(MAUMEE));
    assert!(decide(visiting, Action::ConfirmResult, perrysburg_v_maumee()).is_allowed());
}

#[test]
fn as_13_and_as_11_the_arbiter_decides_protests_and_late_lineups() {
    let arbiter = who(Role::Arbiter, None);
    let protest = Target::Match {
        home: Some(PERRYSBURG),
        visiting: Some(MAUMEE),
        conduct: Conduct::Advisors,
    };
    assert_eq!(
        decide(arbiter, Action::DecideProtest, protest),
        Decision::Allowed
    );
    assert_eq!(
        decide(arbiter, Action::OverrideLateLineup, protest),
        Decision::Allowed
    );
    // AS-13: an advisor protests, but does not decide.
    let advisor = who(Role::Advisor, Some(PERRYSBURG));
    assert_eq!(
        decide(advisor, Action::ProtestBoardOrder, protest),
        Decision::Allowed
    );
    assert_eq!(
        reason(&decide(advisor, Action::DecideProtest, protest)).0,
        &Some("AS-13")
    );
}

#[test]
fn officers_keep_to_their_offices() {
    // GT-O2: the Treasurer keeps the ledger; GT-O3: the Vice-President publishes the media report.
    let treasurer = who(Role::Treasurer, None);
    let vp = who(Role::VicePresident, None);
    assert_eq!(
        decide(treasurer, Action::RecordLedgerEntry, Target::League),
        Decision::Allowed
    );
    assert_eq!(
        reason(&decide(vp, Action::RecordLedgerEntry, Target::League)).0,
        &Some("GT-O2")
    );
    assert_eq!(
        decide(vp, Action::PublishMediaReport, Target::League),
        Decision::Allowed
    );
    assert!(!decide(treasurer, Action::PublishMediaReport, Target::League).is_allowed());
}

#[test]
fn gt_o2_gt_o3_the_treasurer_keeps_the_ledger_and_the_president_reads_it() {
    for role in Role::ALL {
        let subject = who(role, None);
        let reads = decide(subject, Action::ReadLedger, Target::League).is_allowed();
        let writes = decide(subject, Action::RecordLedgerEntry, Target::League).is_allowed();
        assert_eq!(
            reads,
            matches!(role, Role::President | Role::Treasurer),
            "{role:?}"
        );
        assert_eq!(writes, role == Role::Treasurer, "{role:?}");
    }
    let president = who(Role::President, Some(PERRYSBURG));
    let refused = decide(president, Action::RecordLedgerEntry, Target::League);
    let (rule, text) = reason(&refused);
    assert_eq!(*rule, Some("GT-O2"));
    assert!(text.contains("only the Treasurer may"), "{text}");
}

#[test]
fn table_lists_every_action_and_role_once() {
    for conduct in Conduct::ALL {
        let rows = table(conduct);
        assert_eq!(rows.len(), Action::ALL.len());
        for (i, (action, row)) in rows.iter().enumerate() {
            assert_eq!(*action, Action::ALL[i]);
            let roles: Vec<Role> = row.iter().map(|(r, _)| *r).collect();
            assert_eq!(roles, Role::ALL);
            // The public is granted nothing.
            assert_eq!(row.last().map(|(_, a)| *a), Some(Access::Never));
            // Every action is someone's to take, but for a league's steps an event has none of:
            // confirming, disputing or asking to correct the arbiter's entry, and challenge
            // games (GT-P3).
            let nobodys = row.iter().all(|(_, a)| *a == Access::Never);
            let an_event_has_none = conduct == Conduct::Arbiter
                && matches!(
                    action,
                    Action::ConfirmResult
                        | Action::DisputeResult
                        | Action::RequestCorrection
                        | Action::RecordExtraGame
                        | Action::ConfirmExtraGame
                        | Action::StrikeExtraGame
                );
            assert_eq!(nobodys, an_event_has_none, "{conduct:?} {action:?}");
        }
    }
}

fn match_under(conduct: Conduct) -> Target<'static> {
    Target::Match {
        home: Some(PERRYSBURG),
        visiting: Some(MAUMEE),
        conduct,
    }
}

#[test]
fn who_acts_is_the_rulesets_at_an_event_the_arbiter_enters_and_moves_matches() {
    // Issue 30: at the ASTC Adelaide's advisor entered its own round-1 result and Perth's moved
    // its match; the arbiter could not move it back.
    let home_advisor = who(Role::Advisor, Some(PERRYSBURG));
    let visiting_advisor = who(Role::Advisor, Some(MAUMEE));
    let arbiter = who(Role::Arbiter, None);
    let event = match_under(Conduct::Arbiter);
    for action in [
        Action::EnterResult,
        Action::PostponeMatch,
        Action::RecordExtraGame,
    ] {
        assert!(
            !decide(home_advisor, action, event).is_allowed(),
            "{action:?}"
        );
    }
    for action in [Action::ConfirmResult, Action::DisputeResult] {
        assert!(
            !decide(visiting_advisor, action, event).is_allowed(),
            "{action:?}"
        );
    }
    for action in [
        Action::EnterResult,
        Action::PostponeMatch,
        Action::CorrectResult,
    ] {
        assert_eq!(
            decide(arbiter, action, event),
            Decision::Allowed,
            "{action:?}"
        );
    }
    let refused = decide(home_advisor, Action::EnterResult, event);
    assert!(
        reason(&refused).1.contains("the arbiter"),
        "the refusal says who enters: {refused:?}"
    );
    // Advisors still name their own team's lineups and protest at an event (AS-11, AS-13).
    let own = Target::School(PERRYSBURG);
    assert!(decide(home_advisor, Action::SubmitLineup, own).is_allowed());
    assert!(decide(home_advisor, Action::ProtestBoardOrder, own).is_allowed());
    // In a league the same advisors enter, confirm and move (GT-M1, GT-P2, GT-M2).
    let league = match_under(Conduct::Advisors);
    assert!(decide(home_advisor, Action::EnterResult, league).is_allowed());
    assert!(decide(visiting_advisor, Action::ConfirmResult, league).is_allowed());
    assert!(decide(home_advisor, Action::PostponeMatch, league).is_allowed());
}

#[test]
fn gt_o3_gt_f3_the_president_does_not_decide_his_own_schools_playoff() {
    // Issue 30: the President entered and corrected the Armageddon game of his own school's
    // playoff match; the Vice-President was refused.
    let president = who(Role::President, Some(PERRYSBURG));
    let vp = who(Role::VicePresident, None);
    let own = match_under(Conduct::Advisors);
    let refused = decide(president, Action::DecidePlayoff, own);
    let (rule, text) = reason(&refused);
    assert_eq!(*rule, Some("GT-O3"));
    assert!(text.contains("Vice-President"), "{text}");
    assert_eq!(decide(vp, Action::DecidePlayoff, own), Decision::Allowed);
    let others = Target::Match {
        home: Some(SYLVANIA),
        visiting: Some(MAUMEE),
        conduct: Conduct::Advisors,
    };
    assert_eq!(
        decide(president, Action::DecidePlayoff, others),
        Decision::Allowed
    );
    // A tie for a playoff place among three schools' teams, one of them his.
    let tied = [SYLVANIA, MAUMEE, PERRYSBURG];
    assert!(!decide(president, Action::DecidePlayoff, Target::Parties(&tied)).is_allowed());
    assert!(decide(vp, Action::DecidePlayoff, Target::Parties(&tied)).is_allowed());
}

#[test]
fn as_13_a_party_does_not_decide_its_own_protest_in_any_role() {
    // Issue 30: an account that was both the arbiter and Adelaide's advisor lodged a protest
    // against Victoria and upheld it.
    let arbiter = who(Role::Arbiter, None);
    let adelaide = who(Role::Advisor, Some("Adelaide High School"));
    let protest = Target::Parties(&["Adelaide High School", "Victoria"]);
    let refused = acting_role([arbiter, adelaide], Action::DecideProtest, protest).unwrap_err();
    assert!(
        refused.starts_with("AS-13:") && refused.contains("Adelaide High School"),
        "{refused}"
    );
    assert!(refused.contains("another arbiter"), "{refused}");
    // Another arbiter, a party to nothing, decides it; so may the President.
    assert_eq!(
        acting_role([arbiter], Action::DecideProtest, protest),
        Ok(arbiter)
    );
    let president = who(Role::President, None);
    assert!(decide(president, Action::DecideProtest, protest).is_allowed());
    // The reply is the protested team's: Victoria's advisor, not the protester's.
    let victoria = who(Role::Advisor, Some("Victoria"));
    assert!(decide(victoria, Action::ReplyToProtest, Target::School("Victoria")).is_allowed());
    assert!(!decide(adelaide, Action::ReplyToProtest, Target::School("Victoria")).is_allowed());
    assert!(!decide(arbiter, Action::ReplyToProtest, Target::School("Victoria")).is_allowed());
}

#[test]
fn docs_permissions_md_is_up_to_date() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/permissions.md");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == render_markdown(),
        "{} is stale or missing; regenerate it with\n  cargo run -p arbiter-core --example permissions_doc > docs/permissions.md",
        path.display()
    );
}

#[test]
fn api_tokens_are_created_by_officers_and_advisors_not_the_public() {
    // Issue 5: officers script their imports; issue 16: an advisor's program reports the
    // school's results, lineups and roster, with a token acting in the advisor's role and school.
    for role in Role::ALL {
        let d = decide(
            who(role, Some(PERRYSBURG)),
            Action::CreateApiToken,
            Target::League,
        );
        assert_eq!(d.is_allowed(), role != Role::Public, "{role:?}: {d:?}");
    }
}

#[test]
fn role_codes_read_back() {
    for role in Role::ALL {
        assert_eq!(Role::from_code(role.code()), Some(role));
        assert_eq!(Role::from_code(role.name()), Some(role));
    }
    assert_eq!(Role::from_code("captain"), None);
}

#[test]
fn gt_m1_an_advisor_role_names_its_school() {
    let refused = Role::Advisor.check_school(None).unwrap_err();
    assert!(refused.contains("GT-M1"), "{refused}");
    assert!(Role::Advisor.check_school(Some("  ")).is_err());
    assert_eq!(
        Role::Advisor.check_school(Some("Start High School")),
        Ok(())
    );
    assert_eq!(Role::Secretary.check_school(None), Ok(()));
}

#[test]
fn gt_o3_only_an_advisor_and_the_president_name_a_school() {
    // The table reads an advisor's school (GT-M1) and the President's own (GT-O3), no other.
    let with_school: Vec<Role> = Role::ALL.into_iter().filter(|r| r.has_school()).collect();
    assert_eq!(with_school, [Role::President, Role::Advisor]);
    assert_eq!(
        Role::President.check_school(Some("Start High School")),
        Ok(())
    );
    assert_eq!(Role::President.check_school(None), Ok(()));
    for role in [
        Role::VicePresident,
        Role::Secretary,
        Role::Treasurer,
        Role::Arbiter,
    ] {
        let refused = role.check_school(Some("Start High School")).unwrap_err();
        assert!(
            refused.contains("does not act for a school") && refused.contains("GT-O3"),
            "{refused}"
        );
        assert_eq!(role.check_school(Some("  ")), Ok(()));
    }
}
