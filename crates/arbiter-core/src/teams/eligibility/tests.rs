//! GT-M15 and AS-3 by the person a roster entry names: found after the fact, refused before,
//! and a name only a suggestion.

use jiff::civil::{Date, date};

use super::*;
use crate::record::model::{Board, GameResult, Round};
use crate::teams::lineup::Lineup;

const D1: Date = date(2026, 10, 5);
const D2: Date = date(2026, 10, 7);

fn player(id: &str, name: &str, person: &str) -> Player {
    Player {
        id: PlayerId(id.into()),
        name: name.into(),
        person: Some(PersonId(person.into())),
        rating: Some(1500),
        ..Player::default()
    }
}

/// A team of four, `id-1` … `id-4`, each a person of their own.
fn team(id: &str, school: &str) -> Team {
    Team {
        id: TeamId(id.into()),
        name: id.to_uppercase(),
        school: Some(school.into()),
        players: (1..=4)
            .map(|i| {
                let key = format!("{id}-{i}");
                player(&key, &format!("Player {key}"), &format!("person-{key}"))
            })
            .collect(),
    }
}

fn pending(home: &str, away: &str) -> Pairing {
    Pairing::Match(Match {
        date: None,
        home: TeamId(home.into()),
        away: TeamId(away.into()),
        outcome: MatchOutcome::Pending,
        start: None,
        extra_games: Vec::new(),
        late: None,
    })
}

/// Every board drawn, the home team's players `home-1` … and the visitors' `away-1` ….
fn played(home: &str, away: &str) -> Pairing {
    Pairing::Match(Match {
        outcome: MatchOutcome::Boards(
            (1..=4)
                .map(|i| Board {
                    home_player: Some(PlayerId(format!("{home}-{i}"))),
                    away_player: Some(PlayerId(format!("{away}-{i}"))),
                    ..Board::new(GameResult::Draw)
                })
                .collect(),
        ),
        ..match pending(home, away) {
            Pairing::Match(m) => m,
            Pairing::Bye(_) => unreachable!(),
        }
    })
}

fn division(name: &str, teams: Vec<Team>, date: Option<Date>, pairing: Pairing) -> Competition {
    Competition {
        name: name.into(),
        teams,
        rounds: vec![Round {
            number: 1,
            date,
            pairings: vec![pairing],
        }],
    }
}

fn entry<'a>(name: &'a str, c: &'a Competition, rules: &'a Ruleset) -> SeasonEntry<'a> {
    SeasonEntry {
        name,
        competition: c,
        rules,
        named: &[],
        event_days: None,
        lists: &[],
    }
}

fn named(home: &str, side: Side, players: &[&str]) -> NamedLineup {
    NamedLineup {
        round: 1,
        home: TeamId(home.into()),
        side,
        lineup: Lineup {
            boards: players
                .iter()
                .map(|p| Some(PlayerId((*p).into())))
                .collect(),
            withdrawn: Vec::new(),
        },
    }
}

fn rules_of(findings: &[Finding]) -> Vec<&str> {
    findings.iter().filter_map(|f| f.rule.as_deref()).collect()
}

/// St. John's A played in the Metro Division on D1 with `sjj-a-1`, Michael Brennan; its C team
/// in the Suburban Division (on D2) lists him as `sjj-c-5`, spelled as `spelled`, the person
/// `person`.
fn two_divisions(spelled: &str, person: &str) -> (Competition, Competition) {
    let mut a = team("sjj-a", "St. John's");
    a.players[0].name = "Michael Brennan".into();
    a.players[0].person = Some(PersonId("brennan".into()));
    let metro = division(
        "Metro",
        vec![a, team("x", "X HS")],
        Some(D1),
        played("sjj-a", "x"),
    );
    let mut c = team("sjj-c", "St. John's");
    c.players.push(player("sjj-c-5", spelled, person));
    let suburban = division(
        "Suburban",
        vec![team("y", "Y HS"), c],
        Some(D2),
        pending("y", "sjj-c"),
    );
    (metro, suburban)
}

#[test]
fn gt_m15_a_person_stays_with_the_first_team_they_played_for() {
    let r = Ruleset::preset("gthscl").unwrap();
    // The C team's entry is the same person, though the roster misspells him.
    let (metro, mut suburban) = two_divisions("Micheal Brenan", "brennan");
    if let Pairing::Match(m) = &mut suburban.rounds[0].pairings[0] {
        *m = match played("y", "sjj-c") {
            Pairing::Match(p) => p,
            Pairing::Bye(_) => unreachable!(),
        };
        if let MatchOutcome::Boards(b) = &mut m.outcome {
            b[0].away_player = Some(PlayerId("sjj-c-5".into()));
        }
    }
    let entries = [
        entry("Metro Division", &metro, &r),
        entry("Suburban Division", &suburban, &r),
    ];
    let f = check_season(&entries);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].competition, 1);
    assert_eq!(f[0].finding.rule.as_deref(), Some("GT-M15"));
    assert!(
        f[0].finding.message.starts_with(
            "Micheal Brenan first played for SJJ-A (Metro Division, 2026-10-05) and now plays board 1 for SJJ-C"
        ),
        "{}",
        f[0].finding
    );
    // Dates decide who came first, not the order of the entries.
    let f = check_season(&[entries[1], entries[0]]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].competition, 0);
    // The same name and another person: two students, no finding.
    let (metro, mut suburban) = two_divisions("Michael Brennan", "another-brennan");
    suburban.rounds[0].pairings = vec![played("y", "sjj-c")];
    if let Pairing::Match(Match {
        outcome: MatchOutcome::Boards(b),
        ..
    }) = &mut suburban.rounds[0].pairings[0]
    {
        b[0].away_player = Some(PlayerId("sjj-c-5".into()));
    }
    assert_eq!(
        check_season(&[
            entry("Metro Division", &metro, &r),
            entry("Suburban Division", &suburban, &r),
        ]),
        []
    );
}

#[test]
fn gt_m15_a_lineup_naming_a_player_bound_to_another_division_is_refused() {
    let r = Ruleset::preset("gthscl").unwrap();
    let (metro, suburban) = two_divisions("Mike Brennan", "brennan");
    let entries = [
        entry("Metro Division", &metro, &r),
        entry("Suburban Division", &suburban, &r),
    ];
    let with_him = named(
        "y",
        Side::Away,
        &["sjj-c-5", "sjj-c-1", "sjj-c-2", "sjj-c-3"],
    );
    let f = lineup_refusals(&entries, 1, &with_him);
    assert_eq!(rules_of(&f), ["GT-M15"], "{f:?}");
    assert_eq!(
        f[0].to_string(),
        "round 1, y v sjj-c, board 1: GT-M15: Mike Brennan first played for SJJ-A (Metro Division, 2026-10-05) and stays with that team this season; a player may not play the top 4 boards of the school's team in another division: name another player for board 1"
    );
    assert_eq!(f[0].team, Some(TeamId("sjj-c".into())));
    // Without him the lineup stands; leaving him out withdraws no one (GT-M12), since he may
    // not play for the C team.
    let without = named(
        "y",
        Side::Away,
        &["sjj-c-1", "sjj-c-2", "sjj-c-3", "sjj-c-4"],
    );
    assert_eq!(lineup_refusals(&entries, 1, &without), []);
    assert_eq!(lineup_withdrawals(&entries, 1, &without), []);
    // Another person of the same name is not bound.
    let (metro, suburban) = two_divisions("Michael Brennan", "another-brennan");
    let entries = [
        entry("Metro Division", &metro, &r),
        entry("Suburban Division", &suburban, &r),
    ];
    assert_eq!(lineup_refusals(&entries, 1, &with_him), []);
}

#[test]
fn gt_m15_a_player_named_for_the_other_division_s_next_match_is_refused() {
    let r = Ruleset::preset("gthscl").unwrap();
    let (mut metro, suburban) = two_divisions("Michael Brennan", "brennan");
    metro.rounds[0].pairings = vec![pending("sjj-a", "x")];
    let metro_lineup = [named(
        "sjj-a",
        Side::Home,
        &["sjj-a-1", "sjj-a-2", "sjj-a-3", "sjj-a-4"],
    )];
    let entries = [
        SeasonEntry {
            named: &metro_lineup,
            ..entry("Metro Division", &metro, &r)
        },
        entry("Suburban Division", &suburban, &r),
    ];
    let with_him = named(
        "y",
        Side::Away,
        &["sjj-c-5", "sjj-c-1", "sjj-c-2", "sjj-c-3"],
    );
    let f = lineup_refusals(&entries, 1, &with_him);
    assert_eq!(rules_of(&f), ["GT-M15"], "{f:?}");
    assert!(
        f[0].message.starts_with(
            "Michael Brennan is named in SJJ-A's lineup for round 1 of Metro Division (2026-10-05)"
        ),
        "{}",
        f[0]
    );
}

/// The Open and Girls championships; Victoria's sixth Open player is on its Girls roster as
/// `girls-vic-5`, the person `person`. `girls_on`: the Girls' round's day.
fn championships(person: &str, girls_on: Option<Date>) -> (Competition, Competition) {
    let mut vic = team("vic", "Melbourne High");
    vic.players.push(player("vic-5", "Ana Diaz", "ana"));
    let open = division(
        "ASTC Open",
        vec![vic, team("nsw", "Sydney Boys")],
        Some(date(2026, 12, 7)),
        pending("vic", "nsw"),
    );
    let mut girls_vic = team("girls-vic", "Melbourne High");
    girls_vic
        .players
        .push(player("girls-vic-5", "Anna Diaz", person));
    let girls = division(
        "ASTC Girls",
        vec![girls_vic, team("girls-nsw", "Sydney Girls")],
        girls_on,
        pending("girls-vic", "girls-nsw"),
    );
    (open, girls)
}

#[test]
fn as_3_one_person_on_one_of_two_competitions_whose_dates_overlap() {
    let astc = Ruleset::preset("astc").unwrap();
    let (open, girls) = championships("ana", Some(date(2026, 12, 7)));
    let f = check_season(&[entry("Open", &open, &astc), entry("Girls", &girls, &astc)]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].finding.rule.as_deref(), Some("AS-3"));
    assert!(
        f[0].finding
            .message
            .starts_with("Anna Diaz is on the rosters of VIC in Open and GIRLS-VIC in Girls"),
        "{}",
        f[0].finding
    );
    // Girls held the week before: no overlap, no finding.
    let (open, girls) = championships("ana", Some(date(2026, 11, 30)));
    assert_eq!(
        check_season(&[entry("Open", &open, &astc), entry("Girls", &girls, &astc)]),
        []
    );
    // Another person, however alike the name: no finding.
    let (open, girls) = championships("another-ana", Some(date(2026, 12, 7)));
    assert_eq!(
        check_season(&[entry("Open", &open, &astc), entry("Girls", &girls, &astc)]),
        []
    );
}

#[test]
fn as_3_a_lineup_naming_a_player_of_an_overlapping_competition_is_refused() {
    let astc = Ruleset::preset("astc").unwrap();
    // The Girls' rounds have no dates: the event's days say when it is played.
    let (open, girls) = championships("ana", None);
    let with_her = named(
        "girls-vic",
        Side::Home,
        &["girls-vic-1", "girls-vic-2", "girls-vic-3", "girls-vic-5"],
    );
    let on = |days| {
        let entries = [
            entry("Secondary Open", &open, &astc),
            SeasonEntry {
                event_days: days,
                lists: &[],
                ..entry("Secondary Girls", &girls, &astc)
            },
        ];
        lineup_refusals(&entries, 1, &with_her)
    };
    let f = on(Some((date(2026, 12, 7), date(2026, 12, 10))));
    assert_eq!(rules_of(&f), ["AS-3"], "{f:?}");
    assert_eq!(
        f[0].to_string(),
        "round 1, girls-vic v girls-nsw, board 4: AS-3: Anna Diaz is also on VIC's roster in Secondary Open, and Secondary Girls (2026-12-07 to 2026-12-10) and Secondary Open (2026-12-07 to 2026-12-07) share dates; a player plays for a team in only one of them: name another player for board 4, or withdraw them from one roster"
    );
    // The Girls held in November: she may play.
    assert_eq!(on(Some((date(2026, 11, 23), date(2026, 11, 26)))), []);
    // Withdrawn from the Open roster before it began, she was never on its team.
    let (mut open, girls) = championships("ana", None);
    open.teams[0].players[4].withdrawn = Some(date(2026, 12, 1));
    let entries = [
        entry("Secondary Open", &open, &astc),
        SeasonEntry {
            event_days: Some((date(2026, 12, 7), date(2026, 12, 10))),
            lists: &[],
            ..entry("Secondary Girls", &girls, &astc)
        },
    ];
    assert_eq!(lineup_refusals(&entries, 1, &with_her), []);
}

#[test]
fn as_3_a_player_made_one_person_with_a_player_of_an_overlapping_competition_is_refused() {
    let astc = Ruleset::preset("astc").unwrap();
    // Two people so far: the Girls' entry is a person of her own.
    let (open, girls) = championships("anna", Some(date(2026, 12, 7)));
    let entries = [
        entry("Secondary Open", &open, &astc),
        entry("Secondary Girls", &girls, &astc),
    ];
    let her = &girls.teams[0].players[4];
    let f = person_refusals(&entries, 1, her, &PersonId("ana".into()));
    assert_eq!(rules_of(&f), ["AS-3"], "{f:?}");
    assert!(
        f[0].message.starts_with(
            "Ana Diaz is on VIC's roster in Secondary Open, and Secondary Girls (2026-12-07 to 2026-12-07) and Secondary Open (2026-12-07 to 2026-12-07) share dates"
        ),
        "{}",
        f[0]
    );
    assert_eq!(f[0].team, Some(TeamId("girls-vic".into())));
    // A person is one player of a competition: not two entries of the Girls.
    let other_girl = &girls.teams[1].players[0];
    let f = person_refusals(&entries, 1, other_girl, &PersonId("anna".into()));
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].message
            .contains("is that person in Secondary Girls already"),
        "{}",
        f[0]
    );
    // Held apart, they may be one person.
    let (open, girls) = championships("anna", Some(date(2026, 11, 23)));
    let entries = [
        entry("Secondary Open", &open, &astc),
        entry("Secondary Girls", &girls, &astc),
    ];
    assert_eq!(
        person_refusals(
            &entries,
            1,
            &girls.teams[0].players[4],
            &PersonId("ana".into())
        ),
        []
    );
}

#[test]
fn a_name_with_a_birth_date_or_a_school_only_suggests_the_same_person() {
    let astc = Ruleset::preset("astc").unwrap();
    let (mut open, girls) = championships("anna", Some(date(2026, 12, 7)));
    open.teams[0].players[4].name = "anna  DIAZ".into();
    let entries = [
        entry("Secondary Open", &open, &astc),
        entry("Secondary Girls", &girls, &astc),
    ];
    let her = &girls.teams[0].players[4];
    let who = Who::of(&girls.teams[0], her);
    let s = suggestions(&entries, 1, &who);
    assert_eq!(
        s,
        [Suggestion {
            competition: 0,
            team: TeamId("vic".into()),
            player: PlayerId("vic-5".into()),
            why: "the same name and school (Melbourne High)".into(),
        }]
    );
    // Birth dates that agree say more than the school; two that differ are two students.
    let born = date(2010, 3, 4);
    let mut open_born = open.clone();
    open_born.teams[0].players[4].record.birth_date = Some(born);
    let entries = [
        entry("Secondary Open", &open_born, &astc),
        entry("Secondary Girls", &girls, &astc),
    ];
    let dated = Who {
        birth_date: Some(born),
        school: None,
        ..who
    };
    assert_eq!(
        suggestions(&entries, 1, &dated)[0].why,
        "the same name and birth date (2010-03-04)"
    );
    let other = Who {
        birth_date: Some(date(2011, 3, 4)),
        ..who
    };
    assert_eq!(suggestions(&entries, 1, &other), []);
    // Once linked, nothing is suggested, and the link is what the rules read.
    let linked = Who {
        person: Some(&PersonId("ana".into())),
        ..who
    };
    assert_eq!(suggestions(&entries, 1, &linked), []);
}
