use super::*;

const SA: State = State::Sa;

/// `n` teams: the host's first, then one a state in code order, then a second host team.
fn entries(n: usize) -> Entries {
    let mut rows = vec![EntryInput {
        state: "SA".into(),
        school: "Glenunga International High School".into(),
    }];
    for s in State::ALL.into_iter().filter(|s| *s != SA) {
        rows.push(EntryInput {
            state: s.code().into(),
            school: format!("{} High School", s.name()),
        });
    }
    rows.push(EntryInput {
        state: "SA".into(),
        school: "Adelaide High School".into(),
    });
    rows.truncate(n);
    Entries::read("Secondary Open", &rows).unwrap()
}

fn host(can_add: bool) -> Host {
    Host { state: SA, can_add }
}

/// Last time: VIC, SA, NSW, QLD (two NSW teams: its best place counts).
fn previous() -> PreviousFinish {
    let row = |place, state: &str| FinishInput {
        place,
        state: state.into(),
        school: None,
    };
    PreviousFinish::read(&[
        row(1, "VIC"),
        row(2, "SA"),
        row(3, "NSW"),
        row(4, "NSW"),
        row(5, "QLD"),
    ])
    .unwrap()
}

fn clauses(p: &FieldPlan) -> Vec<(&'static str, State)> {
    p.steps
        .iter()
        .map(|s| (s.clause.code(), s.invite))
        .collect()
}

#[test]
fn as_5_a_field_of_five_becomes_six_by_the_host() {
    let p = plan(&entries(5), host(true), None, 7).unwrap();
    assert_eq!((p.field_before, p.field_after), (5, 6));
    assert_eq!(clauses(&p), [("AS-5", SA)]);
    assert_eq!(
        p.steps[0].reason,
        "The field would be 5 teams; the host, SA, nominates one more team (AS-5), of a school not yet in the competition (AS-4)."
    );
}

#[test]
fn as_5_a_field_of_seven_becomes_eight_by_the_host() {
    let p = plan(&entries(7), host(true), Some(&previous()), 7).unwrap();
    assert_eq!((p.field_before, p.field_after), (7, 8));
    assert_eq!(clauses(&p), [("AS-5", SA)]);
}

#[test]
fn as_6_a_host_that_cannot_add_passes_to_the_first_state_of_the_order_but_itself() {
    // VIC finished first last time and has a team already: it is invited to add another
    // (by-law 3(b); AS-4 forbids only a second team of one school).
    let p = plan(&entries(7), host(false), Some(&previous()), 7).unwrap();
    assert_eq!(entries(7).of_state(State::Vic), 1);
    assert_eq!(clauses(&p), [("AS-6", State::Vic)]);
    assert_eq!(
        p.steps[0].reason,
        "The field would be 7 teams and the host, SA, cannot add one; VIC, first in the invitation order (AS-8) but for the host, is invited to add one team (AS-6), of a school not yet in the competition (AS-4)."
    );
    // SA was second last time; the host is not invited again, NSW is next.
    let mut finish = previous();
    finish.places.retain(|p| p.state != State::Vic);
    let p = plan(&entries(5), host(false), Some(&finish), 7).unwrap();
    assert_eq!(clauses(&p), [("AS-6", State::Nsw)]);
    assert_eq!(p.field_after, 6);
}

#[test]
fn as_7_a_field_of_four_or_fewer_the_host_nominates_then_states_are_invited_until_six() {
    let p = plan(&entries(3), host(true), Some(&previous()), 7).unwrap();
    assert_eq!(
        clauses(&p),
        [("AS-7", SA), ("AS-7", State::Vic), ("AS-7", State::Nsw)]
    );
    assert_eq!(p.field_after, 6);
    assert_eq!(
        p.steps[2].reason,
        "The field would be 5 teams, fewer than 6; NSW, next in the invitation order (AS-8) but for the host, is invited to add one team (AS-7), of a school not yet in the competition (AS-4)."
    );
    // Without the host, the invitations go on down the order: QLD, then the lot's.
    let p = plan(&entries(2), host(false), Some(&previous()), 7).unwrap();
    let invited: Vec<State> = p.steps.iter().map(|s| s.invite).collect();
    let expected: Vec<State> = p
        .invitation_order
        .iter()
        .copied()
        .filter(|s| *s != SA)
        .take(4)
        .collect();
    assert_eq!(invited, expected);
    assert_eq!(&invited[..3], [State::Vic, State::Nsw, State::Qld]);
    assert!(p.steps.iter().all(|s| s.clause == Clause::As7));
}

/// AS-5..AS-7 for every field from 1 to 9, the host able to add or not, with and without a
/// previous championship.
#[test]
fn as_5_to_as_7_every_field_size_from_one_to_nine() {
    for n in 1..=9 {
        for can_add in [true, false] {
            for prev in [None, Some(previous())] {
                let at = format!(
                    "field {n}, host can add: {can_add}, previous: {}",
                    prev.is_some()
                );
                let result = plan(&entries(n), host(can_add), prev.as_ref(), 11);
                if n == 9 {
                    let e = result.unwrap_err();
                    assert_eq!(
                        e.to_string(),
                        "Secondary Open has 9 teams, more than the 8 the by-law plans for (AS-5, AS-19); withdraw an entry, or the ACF settles the field (by-law 3(g))"
                    );
                    continue;
                }
                let p = result.unwrap();
                let want = match n {
                    1..=4 => 6,
                    5 | 6 => 6,
                    _ => 8,
                };
                assert_eq!(p.field_before, n, "{at}");
                assert_eq!(p.field_after, want, "{at}");
                assert_eq!(p.steps.len(), want - n, "{at}: one step a team");
                let expected_clauses: Vec<Clause> = match (n, can_add) {
                    (6 | 8, _) => vec![],
                    (5 | 7, true) => vec![Clause::As5],
                    (5 | 7, false) => vec![Clause::As6],
                    (_, _) => vec![Clause::As7; want - n],
                };
                assert_eq!(
                    p.steps.iter().map(|s| s.clause).collect::<Vec<_>>(),
                    expected_clauses,
                    "{at}"
                );
                // The host nominates at most once, first; the invited follow the order.
                let hosts = p.steps.iter().filter(|s| s.invite == SA).count();
                let host_first = can_add && matches!(n, 1..=5 | 7);
                assert_eq!(hosts, usize::from(host_first), "{at}");
                let invited: Vec<State> = p
                    .steps
                    .iter()
                    .skip(usize::from(host_first))
                    .map(|s| s.invite)
                    .collect();
                let order: Vec<State> = p
                    .invitation_order
                    .iter()
                    .copied()
                    .filter(|s| *s != SA)
                    .take(invited.len())
                    .collect();
                assert_eq!(invited, order, "{at}");
                assert!(
                    p.steps.iter().all(|s| s.reason.contains(s.clause.code())),
                    "{at}"
                );
            }
        }
    }
}

#[test]
fn as_5_to_as_7_fields_the_by_law_does_not_plan_are_refused_with_the_sentence() {
    let none = Entries::read("Primary Girls", &[]).unwrap();
    assert_eq!(
        plan(&none, host(true), None, 1).unwrap_err().to_string(),
        "Primary Girls has no entries; AS-5..AS-7 count the host's team (SA), so enter it first"
    );
    let no_host = Entries::read(
        "Primary Girls",
        &[EntryInput {
            state: "VIC".into(),
            school: "Camberwell Primary School".into(),
        }],
    )
    .unwrap();
    assert_eq!(
        plan(&no_host, host(true), None, 1).unwrap_err(),
        FieldRefusal::HostNotEntered {
            competition: "Primary Girls".into(),
            host: SA
        }
    );
    // A field of one, the host's: it nominates one, and five states are invited.
    let p = plan(&entries(1), host(true), None, 1).unwrap();
    assert_eq!(p.steps.len(), 5);
    assert_eq!(p.field_after, 6);
}

#[test]
fn as_8_the_order_is_the_previous_finish_then_the_lot() {
    let order = invitation_order(Some(&previous()), 7);
    assert_eq!(order.len(), 8);
    assert_eq!(&order[..4], [State::Vic, State::Sa, State::Nsw, State::Qld]);
    // The rest are the lot's, in the lot's order: the same as with no finish, less the placed.
    let lot: Vec<State> = invitation_order(None, 7)
        .into_iter()
        .filter(|s| !order[..4].contains(s))
        .collect();
    assert_eq!(&order[4..], lot);
    let p = plan(&entries(6), host(true), Some(&previous()), 7).unwrap();
    assert_eq!(p.by_finish, 4);
    assert_eq!(p.invitation_order, order);
    assert_eq!(p.lot_seed, 7);
}

#[test]
fn as_8_the_lot_is_reproducible_from_its_seed_and_another_seed_draws_another() {
    assert_eq!(invitation_order(None, 7), invitation_order(None, 7));
    assert_ne!(invitation_order(None, 7), invitation_order(None, 8));
    let orders: std::collections::HashSet<Vec<State>> =
        (0..100).map(|seed| invitation_order(None, seed)).collect();
    assert!(orders.len() > 90, "{} orders of 100 seeds", orders.len());
    // Every state is drawn first by some seed.
    let firsts: std::collections::HashSet<State> = (0..100)
        .map(|seed| invitation_order(None, seed)[0])
        .collect();
    assert_eq!(firsts.len(), 8);
    // A finish of every state leaves nothing to the lot.
    let all: Vec<FinishInput> = State::ALL
        .iter()
        .enumerate()
        .map(|(i, s)| FinishInput {
            place: i as u32 + 1,
            state: s.code().into(),
            school: None,
        })
        .collect();
    let all = PreviousFinish::read(&all).unwrap();
    assert_eq!(invitation_order(Some(&all), 1), State::ALL);
    assert_eq!(invitation_order(Some(&all), 2), State::ALL);
}

#[test]
fn as_8_states_sharing_a_place_are_ordered_by_the_lot() {
    let row = |place, state: &str| FinishInput {
        place,
        state: state.into(),
        school: None,
    };
    let shared = PreviousFinish::read(&[row(1, "WA"), row(2, "NT"), row(2, "ACT")]).unwrap();
    for seed in 0..20 {
        let order = invitation_order(Some(&shared), seed);
        let lot = invitation_order(None, seed);
        let pos = |list: &[State], s| list.iter().position(|x| *x == s).unwrap();
        assert_eq!(order[0], State::Wa);
        let act_first = pos(&lot, State::Act) < pos(&lot, State::Nt);
        let expected = if act_first {
            [State::Act, State::Nt]
        } else {
            [State::Nt, State::Act]
        };
        assert_eq!(order[1..3], expected, "seed {seed}");
    }
}

#[test]
fn as_4_two_teams_of_one_school_are_refused_and_every_problem_is_named() {
    let row = |state: &str, school: &str| EntryInput {
        state: state.into(),
        school: school.into(),
    };
    let problems = Entries::read(
        "Secondary Open",
        &[
            row("SA", "Glenunga International High School"),
            row("SA", "glenunga  international High School"),
            row("Vic", "Melbourne High School"),
            row("XYZ", "  "),
        ],
    )
    .unwrap_err();
    let text: Vec<String> = problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "entry 2, school: AS-4: glenunga international High School has a team already (entry 1); a school enters one team in a competition, so enter another school's",
            "entry 3, state: AS-4: “Vic” is not a state or territory; write one of ACT, NSW, NT, QLD, SA, TAS, VIC, WA (did you mean VIC?)",
            "entry 4, state: AS-4: “XYZ” is not a state or territory; write one of ACT, NSW, NT, QLD, SA, TAS, VIC, WA",
            "entry 4, school: AS-4: the entry names no school; a team represents one school",
        ]
    );
    assert_eq!(problems[1].entry, Some(2));
    // Two schools of one state are two teams of it: allowed (by-law 3(b)).
    let two = Entries::read(
        "Secondary Girls",
        &[
            row("SA", "Adelaide High School"),
            row("SA", "Seymour College"),
        ],
    )
    .unwrap();
    assert_eq!(two.of_state(SA), 2);
    let unnamed = Entries::read(" ", &[]).unwrap_err();
    assert_eq!(unnamed[0].field, "competition");
}

#[test]
fn as_4_every_state_by_its_code() {
    for s in State::ALL {
        assert_eq!(State::parse(s.code()), Ok(s));
        assert_eq!(s.code().parse::<State>(), Ok(s));
    }
    assert!(State::parse("SAU").is_err());
    assert_eq!(State::Sa.to_string(), "SA");
}

#[test]
fn as_8_a_finish_with_a_place_of_zero_or_an_unknown_state_is_refused() {
    let problems = PreviousFinish::read(&[
        FinishInput {
            place: 0,
            state: "VIC".into(),
            school: None,
        },
        FinishInput {
            place: 2,
            state: "Victoria".into(),
            school: None,
        },
    ])
    .unwrap_err();
    assert_eq!(problems.len(), 2);
    assert_eq!(problems[0].field, "place");
    assert_eq!(problems[1].field, "state");
    assert!(problems[1].message.starts_with("AS-8: "), "{}", problems[1]);
}
