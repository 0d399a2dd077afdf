//! GT-F3: the top teams of each division are invited to the playoffs; the officers decide how
//! many (`[playoffs] qualifiers_per_division`). Qualification reads the division's final
//! standings: a tie at the cut-off that the division's criteria break is shown with the
//! standings' own explanation; one they cannot break is returned as an [`UnbrokenTie`] for the
//! officers to decide ([`OfficersDecision`]), never broken here. [`seed`] then orders the
//! qualifiers of every division into one playoff field.

use serde::Serialize;

use crate::record::model::{Competition, TeamId};
use crate::record::words::list;
use crate::rules::ruleset::Ruleset;
use crate::scoring::standings::{self, SeparationReason, Standings};
use crate::scoring::{self, ScoreSheet};

/// The teams a division sends to the playoffs, and how its cut-off was decided (GT-F3).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Qualifiers {
    /// The division's name, as the standings print it.
    pub division: String,
    /// How many of its teams the officers invite (GT-F3).
    pub places: u32,
    /// The teams that qualify, in their final order. Short of `places` while an
    /// [`UnbrokenTie`] at the cut-off awaits the officers.
    pub teams: Vec<Qualifier>,
    /// How the last place that qualifies was separated from the first that does not.
    pub cut_off: CutOff,
    /// Ties the criteria cannot break and the officers have not decided: at the cut-off (who
    /// qualifies) or among the qualifiers (in which order they are seeded).
    pub ties: Vec<UnbrokenTie>,
    /// The standings' explanation, a sentence for each pair of adjacent teams.
    pub explanation: Vec<String>,
}

impl Qualifiers {
    /// Whether the qualification is settled: nothing left for the officers to decide.
    pub fn is_settled(&self) -> bool {
        self.ties.is_empty()
    }
}

/// A team that qualifies.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Qualifier {
    /// The team.
    pub team: TeamId,
    /// Its name.
    pub name: String,
    /// Its school (GT-O1), when the record names one.
    pub school: Option<String>,
    /// Its final place in the division, 1 first, with the officers' decisions applied.
    pub place: u32,
    /// Its match points.
    pub match_points: f64,
    /// Its game points.
    pub game_points: f64,
    /// The matches that count for it, to compare records across divisions of different sizes.
    pub matches: u32,
}

/// How the cut-off was decided.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CutOff {
    /// The division has no more teams than places: every team qualifies.
    WholeDivision,
    /// The division's first criterion separated the two teams: no tie.
    Clear {
        /// The standings' sentence for the pair.
        sentence: String,
    },
    /// The two teams were level on the first criterion and a later one separated them.
    BrokenByCriteria {
        /// The rule of the criterion that decided (`GT-S5`).
        rule: Option<String>,
        /// The standings' sentence for the pair.
        sentence: String,
    },
    /// The criteria cannot separate them: see [`Qualifiers::ties`].
    Unbroken,
    /// The criteria could not separate them; the officers decided (GT-F3).
    DecidedByOfficers {
        /// What the officers decided, in words.
        sentence: String,
    },
}

/// Teams equal on every criterion of the division, for the officers to order (GT-F3).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnbrokenTie {
    /// The division's name.
    pub division: String,
    /// The place they share, as the standings print it: `2-3`.
    pub place: String,
    /// The tied teams, in the standings' order (which means nothing between them).
    pub teams: Vec<TeamId>,
    /// How many of them qualify: fewer than the teams at the cut-off, all of them above it.
    pub spots: u32,
    /// The tie decides who qualifies, not only the seeding.
    pub at_cut_off: bool,
    /// The sentence to show: the standings' explanation and what the officers must decide.
    pub sentence: String,
}

/// The officers' order of teams the criteria could not separate (GT-F3): exactly the tied
/// teams, first first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OfficersDecision {
    /// The tied teams, in the order the officers rank them.
    pub order: Vec<TeamId>,
}

/// Why a division cannot be qualified, as a sentence with the rule and what to do.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QualifyError {
    /// The ruleset has no `[playoffs]`.
    #[error(
        "GT-F3: the ruleset {ruleset} has no playoffs; add a [playoffs] section with qualifiers_per_division to invite teams."
    )]
    NoPlayoffs {
        /// The ruleset's name.
        ruleset: String,
    },
    /// Matches are still to be played.
    #[error(
        "GT-F3: {division} has {pending} match{es} still to play; the playoffs are drawn from the final standings, so enter or decide {them} first.",
        es = if *pending == 1 { "" } else { "es" },
        them = if *pending == 1 { "it" } else { "them" }
    )]
    NotFinished {
        /// The division.
        division: String,
        /// Matches without a result.
        pending: u32,
    },
    /// The standings could not be computed.
    #[error("{0}")]
    Standings(#[from] standings::StandingsError),
    /// An officers' decision that is not an order of exactly a tied group.
    #[error(
        "GT-F3: the officers' decision ranks {named}, but the teams tied in {division} are {tied}; name exactly the tied teams, each once."
    )]
    DecisionDoesNotMatch {
        /// The division.
        division: String,
        /// The teams the decision names.
        named: String,
        /// The teams of the tie it overlaps.
        tied: String,
    },
    /// An officers' decision naming no tied group.
    #[error(
        "GT-F3: the officers' decision ranks {named}, who are not tied in {division}; the criteria already order them."
    )]
    NothingToDecide {
        /// The division.
        division: String,
        /// The teams the decision names.
        named: String,
    },
}

/// GT-F3: the teams of `division` that qualify, by its final standings under `rules` and the
/// officers' decisions on ties the criteria cannot break.
pub fn qualify(
    competition: &Competition,
    rules: &Ruleset,
    decisions: &[OfficersDecision],
) -> Result<Qualifiers, QualifyError> {
    let division = competition.name.clone();
    let Some(playoffs) = &rules.playoffs else {
        return Err(QualifyError::NoPlayoffs {
            ruleset: rules.name.clone(),
        });
    };
    let sheet = scoring::score(competition, rules);
    let pending = pending_matches(&sheet);
    if pending > 0 {
        return Err(QualifyError::NotFinished { division, pending });
    }
    let s = standings::rank(competition, rules, &sheet, &rules.criteria)?;
    let explanation: Vec<String> = standings::explain(&s, competition, rules, &sheet)
        .into_iter()
        .map(|e| e.sentence)
        .collect();
    let name = |t: usize| competition.teams.get(t).map_or("?", |x| x.name.as_str());
    let id = |t: usize| competition.teams.get(t).map(|x| x.id.clone());

    // Rows of active teams only: a dropped team (GT-M5) has left the league.
    let rows: Vec<usize> = (0..s.rows.len()).filter(|&i| !s.rows[i].dropped).collect();
    let groups = tied_groups(&s, &rows);
    let mut order: Vec<usize> = rows.clone();
    let mut decided: Vec<bool> = vec![false; s.rows.len()];
    for d in decisions {
        apply_decision(&s, competition, &groups, d, &mut order, &mut decided)?;
    }

    let places = usize::try_from(playoffs.qualifiers_per_division).unwrap_or(usize::MAX);
    let mut ties = Vec::new();
    for g in &groups {
        if g.len() < 2 || g.iter().all(|&r| decided[r]) {
            continue;
        }
        let first = rows.iter().position(|&r| r == g[0]).unwrap_or(0);
        if first >= places {
            continue;
        }
        let last = first + g.len() - 1;
        let at_cut_off = last >= places;
        let spots = u32::try_from(places.min(last + 1) - first).unwrap_or(0);
        let teams: Vec<TeamId> = g.iter().filter_map(|&r| id(s.rows[r].team)).collect();
        let names = list(g.iter().map(|&r| name(s.rows[r].team)));
        let shared = explanation.get(g[0]).cloned().unwrap_or_default();
        let what = if at_cut_off {
            format!(
                "{spots} of the {} qualif{}; the officers decide which (GT-F3)",
                g.len(),
                if spots == 1 { "ies" } else { "y" }
            )
        } else {
            "all qualify; the officers decide their order for the seeding (GT-F3)".to_string()
        };
        ties.push(UnbrokenTie {
            division: division.clone(),
            place: s.rows[g[0]].place.clone(),
            teams,
            spots,
            at_cut_off,
            sentence: format!("{shared} The criteria cannot separate {names}: {what}."),
        });
    }

    let unbroken_at_cut_off = ties.iter().any(|t| t.at_cut_off);
    let cut_off = if rows.len() <= places {
        CutOff::WholeDivision
    } else if unbroken_at_cut_off {
        CutOff::Unbroken
    } else {
        let (above, below) = (order[places - 1], order[places]);
        if s.rows[above].rank == s.rows[below].rank {
            CutOff::DecidedByOfficers {
                sentence: format!(
                    "{} and {} are equal on every criterion of {division}; the officers placed {} above (GT-F3).",
                    name(s.rows[above].team),
                    name(s.rows[below].team),
                    name(s.rows[above].team)
                ),
            }
        } else {
            // Rows of different ranks keep their places, so the separation is the standings'.
            let sentence = explanation.get(places - 1).cloned().unwrap_or_default();
            match s.separations.get(places - 1).map(|x| &x.reason) {
                Some(SeparationReason::Criterion { index, .. }) if *index > 0 => {
                    CutOff::BrokenByCriteria {
                        rule: s.criteria.get(*index).and_then(|c| c.cited_rule()),
                        sentence,
                    }
                }
                _ => CutOff::Clear { sentence },
            }
        }
    };

    let qualifying = if unbroken_at_cut_off {
        // Only the teams above the tie at the cut-off are certain.
        let tie_start = ties
            .iter()
            .filter(|t| t.at_cut_off)
            .filter_map(|t| t.teams.first())
            .filter_map(|first| {
                order
                    .iter()
                    .position(|&r| id(s.rows[r].team).as_ref() == Some(first))
            })
            .min()
            .unwrap_or(places);
        tie_start.min(places)
    } else {
        places.min(order.len())
    };
    let teams = order[..qualifying]
        .iter()
        .enumerate()
        .filter_map(|(i, &r)| {
            let t = s.rows[r].team;
            let team = competition.teams.get(t)?;
            let score = sheet.teams.get(t)?;
            Some(Qualifier {
                team: team.id.clone(),
                name: team.name.clone(),
                school: team.school.clone(),
                place: u32::try_from(i + 1).unwrap_or(u32::MAX),
                match_points: score.match_points,
                game_points: score.game_points,
                matches: u32::try_from(
                    score
                        .entries
                        .iter()
                        .filter(|e| e.opponent.is_some() && e.counts())
                        .count(),
                )
                .unwrap_or(u32::MAX),
            })
        })
        .collect();

    Ok(Qualifiers {
        division,
        places: playoffs.qualifiers_per_division,
        teams,
        cut_off,
        ties,
        explanation,
    })
}

/// Matches of the score sheet still without a result, each counted once.
fn pending_matches(sheet: &ScoreSheet) -> u32 {
    let halves = sheet
        .teams
        .iter()
        .flat_map(|t| &t.entries)
        // GT-M5: a dropped team's matches left out of the standings are not still to play.
        .filter(|e| {
            e.opponent.is_some() && e.kind == scoring::EntryKind::Pending && e.excluded.is_none()
        })
        .count();
    u32::try_from(halves / 2).unwrap_or(u32::MAX)
}

/// The standings' rows (of `rows`) grouped by shared rank.
fn tied_groups(s: &Standings, rows: &[usize]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &r in rows {
        match groups.last_mut() {
            Some(g) if g.first().is_some_and(|&f| s.rows[f].rank == s.rows[r].rank) => g.push(r),
            _ => groups.push(vec![r]),
        }
    }
    groups
}

/// Puts a tied group in the officers' order, or says why the decision does not fit.
fn apply_decision(
    s: &Standings,
    competition: &Competition,
    groups: &[Vec<usize>],
    d: &OfficersDecision,
    order: &mut [usize],
    decided: &mut [bool],
) -> Result<(), QualifyError> {
    let division = competition.name.clone();
    let named = list(d.order.iter().map(|t| competition.team_name(t)));
    let row_of = |t: &TeamId| {
        s.rows
            .iter()
            .position(|r| competition.teams.get(r.team).is_some_and(|x| &x.id == t))
    };
    let rows: Vec<Option<usize>> = d.order.iter().map(row_of).collect();
    let group = groups
        .iter()
        .find(|g| g.len() > 1 && rows.iter().flatten().any(|r| g.contains(r)));
    let Some(group) = group else {
        return Err(QualifyError::NothingToDecide { division, named });
    };
    let exact = rows.len() == group.len()
        && rows.iter().all(|r| r.is_some_and(|r| group.contains(&r)))
        && (1..rows.len()).all(|i| !rows[..i].contains(&rows[i]));
    if !exact {
        let tied = list(
            group
                .iter()
                .map(|&r| competition.team_name(&competition.teams[s.rows[r].team].id)),
        );
        return Err(QualifyError::DecisionDoesNotMatch {
            division,
            named,
            tied,
        });
    }
    let Some(start) = order.iter().position(|r| group.contains(r)) else {
        return Ok(());
    };
    for (i, r) in rows.iter().flatten().enumerate() {
        order[start + i] = *r;
        decided[*r] = true;
    }
    Ok(())
}

/// One team of the playoff field: its seed and where it qualified from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Seed {
    /// 1 is the top seed.
    pub seed: u32,
    /// The team.
    pub team: TeamId,
    /// Its name.
    pub name: String,
    /// Its school, when known.
    pub school: Option<String>,
    /// The division it qualified from.
    pub division: String,
    /// Its place there.
    pub place: u32,
}

/// Why the qualifiers cannot be seeded yet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeedingError {
    /// A tie the officers have not decided.
    #[error("{sentence}")]
    Undecided {
        /// The tie's sentence.
        sentence: String,
    },
    /// Two divisions send teams with the same id.
    #[error(
        "GT-F3: {team} qualifies from both {first} and {second}; give the playoff's teams ids unique across the divisions."
    )]
    SameTeam {
        /// The id.
        team: TeamId,
        /// One division.
        first: String,
        /// The other.
        second: String,
    },
}

/// The playoff field, seeded: by place in the division (every winner before every runner-up),
/// then by match points a match, then game points a match (divisions differ in size), then in
/// the order the divisions are given, which is the officers' (GT-F3).
pub fn seed(divisions: &[Qualifiers]) -> Result<Vec<Seed>, SeedingError> {
    if let Some(t) = divisions.iter().flat_map(|d| &d.ties).next() {
        return Err(SeedingError::Undecided {
            sentence: t.sentence.clone(),
        });
    }
    let mut all: Vec<(usize, &Qualifier)> = divisions
        .iter()
        .enumerate()
        .flat_map(|(i, d)| d.teams.iter().map(move |q| (i, q)))
        .collect();
    for (k, (i, q)) in all.iter().enumerate() {
        if let Some((j, _)) = all[..k].iter().find(|(_, o)| o.team == q.team) {
            return Err(SeedingError::SameTeam {
                team: q.team.clone(),
                first: divisions[*j].division.clone(),
                second: divisions[*i].division.clone(),
            });
        }
    }
    let rate = |x: f64, q: &Qualifier| {
        if q.matches == 0 {
            0.0
        } else {
            x / f64::from(q.matches)
        }
    };
    all.sort_by(|(da, a), (db, b)| {
        a.place
            .cmp(&b.place)
            .then(rate(b.match_points, b).total_cmp(&rate(a.match_points, a)))
            .then(rate(b.game_points, b).total_cmp(&rate(a.game_points, a)))
            .then(da.cmp(db))
    });
    Ok(all
        .into_iter()
        .enumerate()
        .map(|(k, (d, q))| Seed {
            seed: u32::try_from(k + 1).unwrap_or(u32::MAX),
            team: q.team.clone(),
            name: q.name.clone(),
            school: q.school.clone(),
            division: divisions[d].division.clone(),
            place: q.place,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{competition, pending, played};

    fn gthscl() -> Ruleset {
        Ruleset::preset("gthscl").unwrap()
    }

    /// A beats everyone; B and C each beat D and draw with each other, level on match points
    /// (1½). `c_v_d` is C's match with D (C at home), which sets C's game points against B's 6.
    fn division(c_v_d: &str) -> Competition {
        competition(
            &["a", "b", "c", "d"],
            vec![
                vec![played("a", "b", "1110"), played("c", "d", c_v_d)],
                vec![played("a", "c", "11=="), played("b", "d", "1110")],
                vec![played("a", "d", "1111"), played("b", "c", "1=0=")],
            ],
        )
    }

    fn ids(q: &Qualifiers) -> Vec<&str> {
        q.teams.iter().map(|t| t.team.0.as_str()).collect()
    }

    #[test]
    fn gt_f3_tie_at_the_cut_off_broken_by_the_criteria() {
        // C scores 2½ against D: 5½ game points to B's 6 (GT-S5: then game points).
        let q = qualify(&division("11=0"), &gthscl(), &[]).unwrap();
        assert_eq!(ids(&q), ["a", "b"]);
        assert_eq!(q.places, 2);
        assert!(q.is_settled());
        assert_eq!(
            q.cut_off,
            CutOff::BrokenByCriteria {
                rule: Some("GT-S5".into()),
                sentence: "B (2) is above C (3) on GP (GT-S5): 6 to 5.5.".into()
            }
        );
        assert_eq!(q.teams[1].place, 2);
        assert_eq!(
            (q.teams[1].match_points, q.teams[1].game_points),
            (1.5, 6.0)
        );
    }

    #[test]
    fn gt_f3_a_clear_cut_off_is_no_tie() {
        let c = competition(
            &["a", "b", "c"],
            vec![
                vec![played("a", "b", "1111")],
                vec![played("b", "c", "1111")],
                vec![played("a", "c", "1111")],
            ],
        );
        let q = qualify(&c, &gthscl(), &[]).unwrap();
        assert_eq!(ids(&q), ["a", "b"]);
        assert_eq!(
            q.cut_off,
            CutOff::Clear {
                sentence: "B (2) is above C (3) on MP (GT-S5): 1 to 0.".into()
            }
        );
    }

    #[test]
    fn gt_f3_tie_at_the_cut_off_the_criteria_cannot_break_is_left_to_the_officers() {
        // C scores 3 against D: 6 game points like B, and their match was drawn (GT-S5's
        // record against each other is level).
        let c = division("1110");
        let q = qualify(&c, &gthscl(), &[]).unwrap();
        assert!(!q.is_settled());
        assert_eq!(q.cut_off, CutOff::Unbroken);
        assert_eq!(ids(&q), ["a"], "only the team above the tie is certain");
        assert_eq!(q.ties.len(), 1);
        let tie = &q.ties[0];
        assert_eq!(tie.place, "2-3");
        assert_eq!(tie.teams, [TeamId("b".into()), TeamId("c".into())]);
        assert_eq!((tie.spots, tie.at_cut_off), (1, true));
        assert_eq!(
            tie.sentence,
            "B (2-3) and C (2-3) share place 2-3: equal on every criterion (MP 1.5, GP 6, H2H:MP 0.5). The criteria cannot separate B and C: 1 of the 2 qualifies; the officers decide which (GT-F3)."
        );
        // Seeding refuses until the officers decide.
        assert_eq!(
            seed(std::slice::from_ref(&q)).unwrap_err().to_string(),
            tie.sentence
        );

        // The officers place C above B.
        let decision = OfficersDecision {
            order: vec![TeamId("c".into()), TeamId("b".into())],
        };
        let q = qualify(&c, &gthscl(), &[decision]).unwrap();
        assert!(q.is_settled());
        assert_eq!(ids(&q), ["a", "c"]);
        assert_eq!(
            q.cut_off,
            CutOff::DecidedByOfficers {
                sentence: "C and B are equal on every criterion of Test; the officers placed C above (GT-F3).".into()
            }
        );
    }

    #[test]
    fn gt_f3_an_officers_decision_must_order_exactly_the_tied_teams() {
        let c = division("1110");
        let wrong = OfficersDecision {
            order: vec![TeamId("b".into()), TeamId("d".into())],
        };
        assert_eq!(
            qualify(&c, &gthscl(), &[wrong]).unwrap_err().to_string(),
            "GT-F3: the officers' decision ranks B and D, but the teams tied in Test are B and C; name exactly the tied teams, each once."
        );
        let untied = OfficersDecision {
            order: vec![TeamId("a".into()), TeamId("d".into())],
        };
        assert!(
            qualify(&c, &gthscl(), &[untied])
                .unwrap_err()
                .to_string()
                .contains("who are not tied in Test")
        );
    }

    #[test]
    fn gt_f3_a_tie_above_the_cut_off_decides_only_the_seeding() {
        let mut rules = gthscl();
        rules = rules
            .with(|r| r.playoffs.as_mut().unwrap().qualifiers_per_division = 3)
            .unwrap();
        let q = qualify(&division("1110"), &rules, &[]).unwrap();
        assert_eq!(ids(&q), ["a", "b", "c"]);
        assert_eq!(q.ties.len(), 1);
        assert!(!q.ties[0].at_cut_off);
        assert!(
            q.ties[0]
                .sentence
                .ends_with("all qualify; the officers decide their order for the seeding (GT-F3).")
        );
        assert!(matches!(q.cut_off, CutOff::Clear { .. }));
    }

    #[test]
    fn gt_f3_qualification_waits_for_the_final_standings() {
        let mut c = division("11=0");
        c.rounds[2].pairings[1] = pending("b", "c");
        assert_eq!(
            qualify(&c, &gthscl(), &[]).unwrap_err().to_string(),
            "GT-F3: Test has 1 match still to play; the playoffs are drawn from the final standings, so enter or decide it first."
        );
        assert!(matches!(
            qualify(&c, &Ruleset::preset("astc").unwrap(), &[]),
            Err(QualifyError::NoPlayoffs { .. })
        ));
    }

    /// GT-M5: a team dropped for its second forfeit, having played under half its matches,
    /// leaves its last match unplayed and out of the standings: the division is finished.
    #[test]
    fn gt_f3_a_dropped_teams_match_left_out_is_not_still_to_play() {
        let forfeit = |home: &str, away: &str| {
            let mut p = pending(home, away);
            if let crate::record::model::Pairing::Match(m) = &mut p {
                m.outcome = crate::record::model::MatchOutcome::Forfeit {
                    by: crate::record::model::Side::Away,
                };
            }
            p
        };
        let c = competition(
            &["a", "b", "c", "d"],
            vec![
                vec![played("a", "b", "1110"), forfeit("c", "d")],
                vec![played("a", "c", "11=="), forfeit("b", "d")],
                vec![pending("a", "d"), played("b", "c", "1=1=")],
            ],
        );
        let q = qualify(&c, &gthscl(), &[]).unwrap();
        assert_eq!(ids(&q), ["a", "b"]);
    }

    #[test]
    fn gt_f3_the_field_is_seeded_winners_first_then_by_record() {
        let mut north = division("11=0");
        north.name = "North".into();
        let mut south = competition(
            &["s1", "s2", "s3"],
            vec![
                vec![played("s1", "s2", "1111")],
                vec![played("s2", "s3", "11=0")],
                vec![played("s1", "s3", "=000")],
            ],
        );
        south.name = "South".into();
        let n = qualify(&north, &gthscl(), &[]).unwrap();
        let s = qualify(&south, &gthscl(), &[]).unwrap();
        // South goes round in a circle, one win each; game points put S3 (5) above S1 (4½).
        let field = seed(&[n, s]).unwrap();
        let order: Vec<(u32, &str, &str, u32)> = field
            .iter()
            .map(|x| (x.seed, x.team.0.as_str(), x.division.as_str(), x.place))
            .collect();
        // The winners first: A (1 match point a match) before S3 (½); then the runners-up, level
        // on ½ a match, by game points a match: S1 2¼ before B 2.
        assert_eq!(
            order,
            [
                (1, "a", "North", 1),
                (2, "s3", "South", 1),
                (3, "s1", "South", 2),
                (4, "b", "North", 2)
            ]
        );
    }
}
