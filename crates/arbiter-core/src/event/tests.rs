use jiff::civil::date;

use super::*;
use crate::record::model::{
    Competition, Match, MatchOutcome, Player, PlayerId, Round, Side, Team, TeamId,
};
use crate::record::text::Reason;
use crate::rules::ruleset::Ruleset;
use crate::teams::lineup::Lineup;

fn astc_clock() -> TimeControl {
    Ruleset::preset("astc")
        .unwrap()
        .time_control
        .clone()
        .unwrap()
}

fn competition(
    c: Championship,
    first: Date,
    last: Date,
    rounds: &[(Date, i8)],
) -> EventCompetition {
    EventCompetition {
        championship: c,
        first_day: first,
        last_day: last,
        rounds: rounds.iter().map(|(d, h)| d.at(*h, 0, 0, 0)).collect(),
    }
}

const OPEN: Championship = Championship::ALL[0];
const GIRLS: Championship = Championship::ALL[1];

fn open() -> EventCompetition {
    competition(
        OPEN,
        date(2026, 12, 7),
        date(2026, 12, 10),
        &[
            (date(2026, 12, 7), 10),
            (date(2026, 12, 7), 14),
            (date(2026, 12, 8), 10),
        ],
    )
}

#[test]
fn as_2_the_four_championships_by_name() {
    let names: Vec<&str> = Championship::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "Secondary Open",
            "Secondary Girls",
            "Primary Open",
            "Primary Girls"
        ]
    );
    assert_eq!(
        Championship::parse("primary girls"),
        Ok(Championship::ALL[3])
    );
    assert!(
        Championship::parse("Under 12")
            .unwrap_err()
            .starts_with("AS-2: ")
    );
}

#[test]
fn as_1_to_as_3_an_event_prints_its_heading_and_refuses_what_the_by_law_does_not_allow() {
    let event = Event::new(
        "ASTC 2026",
        State::Sa,
        "Adelaide",
        astc_clock(),
        vec![open()],
    )
    .unwrap();
    assert_eq!(
        event.heading(OPEN),
        "ASTC 2026, Secondary Open, Adelaide (host SA); 60 minutes for the game, plus 10 seconds a move from move 1"
    );
    assert_eq!(
        event.competition(OPEN).unwrap().round_start(2),
        Some(date(2026, 12, 7).at(14, 0, 0, 0))
    );
    assert_eq!(event.competition(OPEN).unwrap().round_start(0), None);
    assert_eq!(event.competition(GIRLS), None);

    let november = competition(OPEN, date(2026, 11, 30), date(2026, 12, 2), &[]);
    let back = competition(
        GIRLS,
        date(2026, 12, 7),
        date(2026, 12, 8),
        &[
            (date(2026, 12, 8), 10),
            (date(2026, 12, 7), 14),
            (date(2026, 12, 12), 9),
        ],
    );
    let problems = Event::new(
        " ",
        State::Sa,
        "Adelaide",
        astc_clock(),
        vec![november, back, open(), open()],
    )
    .unwrap_err();
    assert_eq!(
        problems,
        [
            "the event's name is blank; give it, as sheets print it",
            "AS-3: Secondary Open is held from 2026-11-30 to 2026-12-02; the Open championships are held in December (only the Girls may be on other dates)",
            "Secondary Girls: round 2 starts at 2026-12-07T14:00:00, not after round 1",
            "Secondary Girls: round 3 starts on 2026-12-12, outside its days (2026-12-07 to 2026-12-08)",
            "AS-2: Secondary Open is listed twice; an event holds each championship once",
            "AS-2: Secondary Open is listed twice; an event holds each championship once",
        ]
    );
    // The Girls may be held in another month.
    let october = competition(GIRLS, date(2026, 10, 3), date(2026, 10, 4), &[]);
    assert!(
        Event::new(
            "ASTC 2026",
            State::Sa,
            "Adelaide",
            astc_clock(),
            vec![open(), october]
        )
        .is_ok()
    );
}

#[test]
fn as_3_girls_and_open_sharing_a_day_are_exclusive_and_on_other_dates_not() {
    let same = competition(GIRLS, date(2026, 12, 9), date(2026, 12, 11), &[]);
    let event = Event::new(
        "ASTC 2026",
        State::Sa,
        "Adelaide",
        astc_clock(),
        vec![open(), same],
    )
    .unwrap();
    assert_eq!(event.exclusive_pairs(), [(GIRLS, OPEN)]);
    let apart = competition(GIRLS, date(2026, 12, 11), date(2026, 12, 12), &[]);
    let event = Event::new(
        "ASTC 2026",
        State::Sa,
        "Adelaide",
        astc_clock(),
        vec![open(), apart],
    )
    .unwrap();
    assert_eq!(event.exclusive_pairs(), []);
}

/// Victoria at home to New South Wales in round 3, at 14:00; six players a roster.
fn round_3() -> Competition {
    let team = |id: &str| Team {
        id: TeamId(id.into()),
        name: id.to_uppercase(),
        school: Some(format!("{id} school")),
        players: (1..=6)
            .map(|i| Player {
                id: PlayerId(format!("{id}{i}")),
                name: format!("{id} {i}"),
                rating: Some(2000),
                ..Player::default()
            })
            .collect(),
    };
    Competition {
        name: "Secondary Open".into(),
        teams: vec![team("vic"), team("nsw")],
        rounds: vec![Round {
            number: 3,
            date: Some(date(2026, 12, 8)),
            pairings: vec![Pairing::Match(Match {
                home: TeamId("vic".into()),
                away: TeamId("nsw".into()),
                outcome: MatchOutcome::Pending,
                date: None,
                start: None,
                extra_games: Vec::new(),
                late: None,
            })],
        }],
    }
}

fn timed(players: &[&str], named_at: (i8, i8), accepted: Option<LateOverride>) -> TimedLineup {
    TimedLineup {
        named: NamedLineup {
            round: 3,
            home: TeamId("vic".into()),
            side: Side::Home,
            lineup: Lineup {
                boards: players
                    .iter()
                    .map(|p| Some(PlayerId((*p).into())))
                    .collect(),
                withdrawn: Vec::new(),
            },
        },
        round_start: date(2026, 12, 8).at(14, 0, 0, 0),
        named_at: date(2026, 12, 8).at(named_at.0, named_at.1, 0, 0),
        accepted,
    }
}

/// What refuses `lineup` in the event's competition `c`, alone in its event.
fn refuse(
    c: &Competition,
    rules: &Ruleset,
    lineup: &TimedLineup,
) -> Result<Option<LineupTime>, Vec<Finding>> {
    let entries = [crate::teams::eligibility::SeasonEntry {
        name: "Secondary Open",
        competition: c,
        rules,
        named: &[],
        event_days: None,
        lists: &[],
    }];
    lineup_refusals(&entries, 0, lineup)
}

fn rules(findings: &[Finding]) -> Vec<&str> {
    findings.iter().filter_map(|f| f.rule.as_deref()).collect()
}

#[test]
fn as_11_a_late_lineup_is_refused_and_one_the_arbiter_accepts_stands_with_the_override() {
    let c = round_3();
    let astc = Ruleset::preset("astc").unwrap();
    let in_order = ["vic1", "vic2", "vic4", "vic6"];
    assert_eq!(
        refuse(&c, &astc, &timed(&in_order, (13, 44), None)),
        Ok(Some(LineupTime::OnTime {
            due: date(2026, 12, 8).at(13, 45, 0, 0)
        }))
    );
    assert!(refuse(&c, &astc, &timed(&in_order, (13, 45), None)).is_ok());
    let late = refuse(&c, &astc, &timed(&in_order, (13, 46), None)).unwrap_err();
    assert_eq!(rules(&late), ["AS-11"]);
    assert_eq!(
        late[0].to_string(),
        "round 3, vic v nsw: AS-11: round 3's lineup was due at 13:45, 15 minutes before the round (14:00), and was named at 13:46, 1 minute late; only the arbiter may accept it, with a reason"
    );
    let accepted = LateOverride {
        by: "Chief Arbiter".into(),
        at: date(2026, 12, 8).at(13, 50, 0, 0),
        reason: Reason::parse("Their coach was delayed at the entrance")
            .unwrap()
            .unwrap(),
    };
    let kept = refuse(
        &c,
        &astc,
        &timed(&in_order, (13, 46), Some(accepted.clone())),
    );
    assert!(
        matches!(kept, Ok(Some(LineupTime::LateAccepted { minutes_late: 1, accepted: ref a, .. })) if *a == accepted),
        "{kept:?}"
    );
    // Late and out of the roster's order: both reasons, the deadline first (AS-11, AS-10).
    let swapped = ["vic1", "vic4", "vic2", "vic6"];
    let both = refuse(&c, &astc, &timed(&swapped, (13, 50), None)).unwrap_err();
    assert_eq!(rules(&both), ["AS-11", "AS-10"]);
    // An override accepts the time, not the order.
    let order = refuse(&c, &astc, &timed(&swapped, (13, 50), Some(accepted))).unwrap_err();
    assert_eq!(rules(&order), ["AS-10"]);
    // A league's rules set no event deadline: only the lineup's own rules apply.
    let gthscl = Ruleset::preset("gthscl").unwrap();
    assert_eq!(
        refuse(&c, &gthscl, &timed(&in_order, (13, 59), None)),
        Ok(None)
    );
}
