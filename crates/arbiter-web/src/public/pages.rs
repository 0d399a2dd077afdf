//! The HTML pages: what each shows, built from a [`CompetitionView`] and rendered by the
//! askama templates in `templates/`. Every name is escaped by the templates.

use askama::Template;
use axum::body::Bytes;

use arbiter_core::record::model::{GameOutcome, Pairing, Player, Side};
use arbiter_core::rules::criteria::{CriterionKind, CriterionSpec, ScoreBasis};
use arbiter_core::scoring::standings::{CriterionValue, Standings};
use arbiter_core::scoring::{self, EntryKind, RoundEntry};
use arbiter_core::season::fixture::{self, Fixture};
use arbiter_store::{LeagueKind, Season};
use jiff::civil::Date;

use crate::app::view::{CompetitionView, MatchFacts, MatchStatus, Page};
use crate::http::error::{WebError, render};
use crate::public::ratings;
use crate::ui::layout::{Layout, Tab};
use crate::ui::link::{
    Feed, Link, competition_href, league_href, school_calendar_href, season_href,
};
use crate::ui::words::{self, segment};

// ---------------------------------------------------------------------------------------------
// Competition pages

impl CompetitionView {
    /// `/leagues/{league}/{season}/{competition}`
    pub fn href(&self) -> String {
        competition_href(&self.league.slug, &self.season.slug, &self.record.slug)
    }

    pub fn api_href(&self) -> String {
        format!("/api/v1{}", self.href())
    }

    pub fn team_href(&self, team: usize) -> String {
        let id = self
            .competition
            .teams
            .get(team)
            .map_or("", |t| t.id.0.as_str());
        format!("{}/teams/{}", self.href(), segment(id))
    }

    pub fn player_href(&self, p: &Player) -> String {
        format!("{}/players/{}", self.href(), segment(&p.id.0))
    }

    pub fn round_href(&self, n: u32) -> String {
        format!("{}/rounds/{n}", self.href())
    }

    /// The match `home` hosts in round `n`: `…/rounds/3/matches/perrysburg`.
    pub fn match_href(&self, n: u32, home: &arbiter_core::TeamId) -> String {
        format!("{}/rounds/{n}/matches/{}", self.href(), segment(&home.0))
    }

    /// `Division A — GTHSCL 2026-27`
    pub fn context(&self) -> String {
        format!(
            "{} \u{2014} {} {}",
            self.record.name, self.league.name, self.season.name
        )
    }

    fn team_link(&self, team: Option<usize>, fallback: &str) -> Link {
        match team.and_then(|t| self.competition.teams.get(t).map(|x| (t, x))) {
            Some((t, x)) => Link::new(self.team_href(t), &x.name),
            None => Link::new(self.href(), fallback),
        }
    }

    fn player_link(&self, id: Option<&arbiter_core::PlayerId>) -> (Option<Link>, String) {
        match id {
            None => (None, String::new()),
            Some(id) => match self.player(&id.0) {
                Some((p, _)) => (
                    Some(Link::new(self.player_href(p), &p.name)),
                    words::rating(p),
                ),
                None => (Some(Link::new(self.href(), &id.0)), String::new()),
            },
        }
    }

    pub(crate) fn layout(
        &self,
        title: &str,
        heading: String,
        current: Option<usize>,
        api: String,
    ) -> Layout {
        let tabs = [
            ("Standings", self.href()),
            ("Crosstable", format!("{}/crosstable", self.href())),
            ("Why this order", format!("{}/explain", self.href())),
            ("Ratings", format!("{}/ratings", self.href())),
        ]
        .into_iter()
        .enumerate()
        .map(|(i, (text, href))| Tab {
            link: Link::new(href, text),
            current: current == Some(i),
        });
        // GT-F3: a knockout has its bracket in place of standings, a crosstable and their why.
        let tabs = if self.knockout() {
            let bracket = Tab {
                link: Link::new(
                    crate::ui::link::playoffs_href(&self.league.slug, &self.season.slug),
                    "Bracket",
                ),
                current: false,
            };
            std::iter::once(bracket).chain(tabs.skip(3)).collect()
        } else {
            tabs.collect()
        };
        Layout {
            title: format!("{title} \u{2014} {}", self.context()),
            heading,
            css: crate::ui::stylesheet::css_href(),
            crumbs: vec![
                Link::new(league_href(&self.league.slug), &self.league.name),
                Link::new(
                    season_href(&self.league.slug, &self.season.slug),
                    &self.season.name,
                ),
                Link::new(self.href(), &self.record.name),
            ],
            tabs,
            api: Some(api),
        }
    }
}

/// Renders one page of a competition as HTML.
pub fn competition_page(view: &CompetitionView, page: Page) -> Result<Bytes, WebError> {
    match page {
        Page::Overview | Page::Standings | Page::Rounds => render(&overview(view)),
        Page::Crosstable => render(&crosstable(view)),
        Page::Round(n) => render(&round(view, n)?),
        Page::Team(t, today) => render(&team(view, t, today)?),
        Page::Player(t, p) => render(&player(view, t, p)?),
        Page::Ratings(order) => render(&ratings::list(
            view,
            order,
            view.layout(
                "Ratings",
                format!("Ratings \u{2014} {}", view.record.name),
                Some(3),
                format!("{}/ratings", view.api_href()),
            ),
        )),
        Page::Explain => render(&explain(view)),
        Page::Projector => render(&projector(view)),
        Page::Bulletin => render(&bulletin(view)),
        // The race is on the standings page; alone, it is JSON only.
        Page::Race => render(&overview(view)),
        // No public page lists them; the officers' findings page does, per request.
        Page::Findings => Err(WebError::not_found(
            "The findings are listed on the officers' page and in the API.".to_string(),
        )),
    }
}

#[derive(Debug)]
pub struct Head {
    pub code: String,
    pub title: String,
    /// What the column counts, in words, for the legend under the table (issue 32, item 4).
    pub words: String,
}

#[derive(Debug)]
pub struct StandingLine {
    pub place: String,
    pub team: Link,
    pub values: Vec<String>,
    pub dropped: bool,
}

#[derive(Debug)]
pub struct StandingsTable {
    pub heads: Vec<Head>,
    pub rows: Vec<StandingLine>,
    pub problem: Option<String>,
    pub notes: Vec<String>,
    /// Results carrying a violation no officer has ruled on yet (issue 12): the match and why.
    pub under_review: Vec<(Link, String)>,
    pub any_blank: bool,
    /// A dropped team's tag, citing the league's drop rule: `dropped (GT-M5)`.
    pub drop_tag: String,
}

/// What a criterion is, for the column header's `title` (with the rule it applies).
pub fn describe(spec: &CriterionSpec) -> String {
    let what = criterion_words(spec);
    match spec.cited_rule() {
        Some(rule) => format!("{rule}: {what}"),
        None => what,
    }
}

/// What a criterion counts, in words: the legend under a table.
pub fn criterion_words(spec: &CriterionSpec) -> String {
    match &spec.kind {
        CriterionKind::GamePoints => "game points, the sum of all games".to_string(),
        CriterionKind::MatchPoints => "match points".to_string(),
        CriterionKind::HeadToHead(ScoreBasis::GamePoints) => {
            "game points in the matches among the tied teams only".to_string()
        }
        CriterionKind::HeadToHead(ScoreBasis::MatchPoints) => {
            "match points in the matches among the tied teams only".to_string()
        }
        CriterionKind::HeadToHeadBoards => {
            "wins on board 1, then board 2 and so on, in the matches among the tied teams"
                .to_string()
        }
        CriterionKind::BoardPoints => {
            "board points, each board's game points times its weight".to_string()
        }
        CriterionKind::GamesWon => "games won, over the board or by default".to_string(),
        CriterionKind::Defaults => "boards defaulted, fewer ranking higher".to_string(),
        CriterionKind::Berliner => {
            "the Berliner Wertung: on n boards board 1 counts n times, the last board once"
                .to_string()
        }
        CriterionKind::TopTeams(n) => {
            format!("game points against the teams placed in the top {n} by the criteria before")
        }
        CriterionKind::Lot(seed) => format!("a lot drawn from the recorded seed {seed}"),
        CriterionKind::Fide(_) => format!("FIDE team tie-break {}", spec.code),
    }
}

/// GT-M5: why a dropped team is at the foot of the table.
pub fn dropped_sentence(view: &CompetitionView, team: usize) -> Option<String> {
    let d = view.sheet.teams.get(team)?.dropped.as_ref()?;
    let name = &view.competition.teams.get(team)?.name;
    let fate = if d.all_matches_excluded {
        "under half, so all its matches, and the game points its opponents gained from them, are deleted from every figure"
    } else {
        "half or more, so its played results stand and its remaining matches score as forfeits for its opponents"
    };
    Some(format!(
        "{name} was dropped (GT-M5) after its match forfeit in round {} ({} match forfeits); it had played {} of its {} matches: {fate}.",
        d.round, d.match_forfeits, d.played, d.scheduled
    ))
}

/// GT-M5: the match forfeit that dropped the team, where an officer corrects it (or withdraws
/// it, when it was a decision) if it was entered by mistake; the team is then back everywhere.
pub fn dropped_by(view: &CompetitionView, team: usize) -> Option<(String, String)> {
    let d = view.sheet.teams.get(team)?.dropped.as_ref()?;
    let id = &view.competition.teams.get(team)?.id;
    let round = view
        .competition
        .rounds
        .iter()
        .find(|r| r.number == d.round)?;
    let m = round.pairings.iter().find_map(|p| match p {
        Pairing::Match(m) if m.home == *id || m.away == *id => Some(m),
        _ => None,
    })?;
    Some((
        format!("{}#correct", view.match_href(d.round, &m.home)),
        format!(
            "The match forfeit of round {}, {} v {}: if it was entered by mistake, an officer corrects it there (a new version, with the reason) and {} is back (GT-M5)",
            d.round,
            view.team_name(&m.home),
            view.team_name(&m.away),
            view.competition.teams.get(team)?.name
        ),
    ))
}

pub(crate) fn standings_table(view: &CompetitionView) -> StandingsTable {
    let s: &Standings = match &view.standings {
        Ok(s) => s,
        Err(problem) => {
            return StandingsTable {
                heads: Vec::new(),
                rows: Vec::new(),
                problem: Some(format!("The standings cannot be computed: {problem}")),
                notes: Vec::new(),
                under_review: Vec::new(),
                any_blank: false,
                drop_tag: String::new(),
            };
        }
    };
    let mut any_blank = false;
    let rows = s
        .rows
        .iter()
        .map(|r| {
            let values = r
                .values
                .iter()
                .map(|v| {
                    any_blank |= *v == CriterionValue::NotApplied;
                    match v {
                        // Halves as the match scores print them: 2½.
                        CriterionValue::Number(x) => words::points(*x),
                        other => other.display(),
                    }
                })
                .collect();
            StandingLine {
                place: r.place.clone(),
                team: view.team_link(Some(r.team), "?"),
                values,
                dropped: r.dropped,
            }
        })
        .collect();
    StandingsTable {
        drop_tag: match view.rules.cite("drop") {
            Some(id) => format!("dropped ({id})"),
            None => "dropped".to_string(),
        },
        heads: s
            .criteria
            .iter()
            .map(|c| Head {
                code: c.code.clone(),
                title: describe(c),
                words: criterion_words(c),
            })
            .collect(),
        rows,
        problem: None,
        notes: s
            .rows
            .iter()
            .filter(|r| r.dropped)
            .filter_map(|r| dropped_sentence(view, r.team))
            .collect(),
        under_review: under_review(view),
        any_blank,
    }
}

/// Each result under review, linked to its match: `Round 3: Toledo v Maumee`, and the rules.
fn under_review(view: &CompetitionView) -> Vec<(Link, String)> {
    let mut out: Vec<(Link, String)> = Vec::new();
    for f in view.open_violations() {
        let (Some(round), Some(home), Some(away)) = (f.round, &f.home, &f.away) else {
            continue;
        };
        let rule = f.rule.clone().unwrap_or_else(|| "a rule".into());
        let href = view.match_href(round, home);
        match out.iter_mut().find(|(l, _)| l.href == href) {
            Some((_, rules)) if !rules.split(", ").any(|r| r == rule) => {
                rules.push_str(", ");
                rules.push_str(&rule);
            }
            Some(_) => {}
            None => out.push((
                Link::new(
                    href,
                    format!(
                        "Round {round}: {} v {}",
                        view.team_name(home),
                        view.team_name(away)
                    ),
                ),
                rule,
            )),
        }
    }
    out
}

#[derive(Debug)]
pub struct MatchLine {
    pub home: Link,
    pub away: Link,
    pub score: String,
    /// The match on its round's page.
    pub href: String,
    /// `forfeit (GT-M7)`, `double forfeit`, `in progress`.
    pub label: Option<String>,
    pub note: Option<String>,
    /// GT-M5: the reason the match counts for nothing.
    pub excluded: Option<String>,
}

fn match_anchor(view: &CompetitionView, f: &MatchFacts<'_>) -> String {
    let _ = view;
    format!("m-{}", segment(&f.record.home.0))
}

fn match_line(view: &CompetitionView, f: &MatchFacts<'_>) -> MatchLine {
    let home_name = view.team_name(&f.record.home);
    let away_name = view.team_name(&f.record.away);
    let by_name = |side: Side| match side {
        Side::Home => home_name.clone(),
        Side::Away => away_name.clone(),
    };
    let forfeit = match view.forfeit_rule() {
        Some(rule) => format!("forfeit ({rule})"),
        None => "forfeit".to_string(),
    };
    let (score, label, note) = match f.status {
        MatchStatus::Pending => ("\u{2013}".to_string(), None, None),
        MatchStatus::InProgress => (
            words::score(f.home_points, f.away_points),
            Some("in progress".to_string()),
            None,
        ),
        MatchStatus::Played => (words::score(f.home_points, f.away_points), None, None),
        MatchStatus::Forfeit { by } => (
            words::score(f.home_points, f.away_points),
            Some(forfeit),
            Some(format!("{} forfeited the match.", by_name(by))),
        ),
        MatchStatus::DoubleForfeit => (
            words::score(f.home_points, f.away_points),
            Some("double forfeit".to_string()),
            Some("Both teams forfeited the match.".to_string()),
        ),
        MatchStatus::ForfeitAfterDrop { by } => (
            words::score(f.home_points, f.away_points),
            Some("forfeit (GT-M5)".to_string()),
            Some(format!(
                "{} was dropped, so this match scores as its forfeit.",
                by_name(by)
            )),
        ),
    };
    // GT-M2: a match on a day of its own (moved, or a round over several days) says its day.
    let round_day = view.round(f.round).and_then(|r| r.date);
    let own_day = f
        .record
        .date
        .filter(|d| Some(*d) != round_day)
        .map(|d| format!("On {}, not the round's day (GT-M2).", words::date(d)));
    let note = match (note, own_day) {
        (Some(n), Some(d)) => Some(format!("{d} {n}")),
        (n, d) => d.or(n),
    };
    MatchLine {
        home: view.team_link(f.home, &home_name),
        away: view.team_link(f.away, &away_name),
        score,
        // The score opens the match page: boards, the GT-P2 report, its controls.
        href: view.match_href(f.round, &f.record.home),
        label,
        note,
        excluded: f.excluded.map(|e| e.reason.clone()),
    }
}

fn bye_line(view: &CompetitionView, round: u32, bye: &arbiter_core::record::model::Bye) -> String {
    let name = view.team_name(&bye.team);
    let kind = match bye.kind {
        arbiter_core::ByeKind::PairingAllocated => "bye",
        arbiter_core::ByeKind::FullPoint => "full-point bye",
        arbiter_core::ByeKind::HalfPoint => "half-point bye",
        arbiter_core::ByeKind::ZeroPoint => "zero-point bye",
    };
    let award = scoring::bye_award(&view.rules, bye.kind);
    let by_hand = view
        .changed_by_hand(round, &bye.team)
        .filter(|_| bye.kind == arbiter_core::ByeKind::PairingAllocated)
        .map(|c| format!(" \u{2014} {}", words::hand_note(&c.reason, &c.overridden)))
        .unwrap_or_default();
    // "Byes" (RULES.md): what it scores, by which setting, and from when.
    let setting = if bye.kind == arbiter_core::ByeKind::PairingAllocated {
        "the rules' [bye]"
    } else {
        "FIDE C.07 art. 16.1"
    };
    let when = if round <= scoring::last_round_played(&view.competition) {
        "counted"
    } else {
        "counted once the round is played"
    };
    format!(
        "{name}: {kind}, worth {} match points and {} game points by {setting}, {when}{by_hand}",
        words::points(award.match_points),
        words::points(award.game_points)
    )
}

/// How a round's page flags a pairing the arbiter changed by hand (C.04.2 art. 1.5).
#[derive(Debug)]
pub struct RoundSummary {
    pub number: u32,
    pub link: Link,
    pub date: Option<String>,
    pub matches: Vec<MatchLine>,
    pub byes: Vec<String>,
}

#[derive(Template)]
#[template(path = "public/competition.html", whitespace = "minimize")]
pub struct OverviewPage {
    pub layout: Layout,
    pub table: StandingsTable,
    pub rounds: Vec<RoundSummary>,
    pub explain_href: String,
    pub crosstable_href: String,
    /// The hall's screen: standings, results and pairings in large type (issue 14).
    pub projector_href: String,
    /// AS-13: an event's protests against a team's order.
    pub protests_href: Option<String>,
    /// The competition's address, under which its files are (`standings.csv`, …).
    pub files_href: String,
    /// The schedule as an iCalendar feed a phone subscribes to (issue 32).
    pub feeds: Vec<Feed>,
    /// AS-1, GT-M19: the clock.
    pub time_control: Option<String>,
    /// The race while the season runs (issue 15).
    pub race: Option<RaceBlock>,
    /// A division of a season that ends in playoffs: its playoffs and awards (issue 15).
    pub season_end: Vec<Link>,
    /// A team Swiss's next round to pair (issue 17): the arbiter's page, which asks for sign-in.
    pub pair: Option<Link>,
}

fn overview(view: &CompetitionView) -> OverviewPage {
    let rounds = view
        .rounds()
        .into_iter()
        .map(|r| {
            let mut matches = Vec::new();
            let mut byes = Vec::new();
            for p in &r.pairings {
                match p {
                    Pairing::Match(m) => matches.push(match_line(view, &view.facts(r.number, m))),
                    Pairing::Bye(b) => byes.push(bye_line(view, r.number, b)),
                }
            }
            RoundSummary {
                number: r.number,
                link: view.round_link(r.number),
                date: r.date.map(words::date),
                matches,
                byes,
            }
        })
        .collect();
    OverviewPage {
        layout: view.layout("Standings", view.context(), Some(0), view.api_href()),
        table: standings_table(view),
        rounds,
        explain_href: format!("{}/explain", view.href()),
        feeds: vec![Feed::new(
            &view.site,
            &format!("{}/schedule.ics", view.href()),
            format!("Every match of {}", view.record.name),
        )],
        time_control: view.time_control(),
        crosstable_href: format!("{}/crosstable", view.href()),
        projector_href: format!("{}/projector", view.href()),
        protests_href: view
            .rules
            .event
            .map(|_| format!("{}/protests", view.href())),
        files_href: view.href(),
        race: race_block(view),
        season_end: if view.rules.playoffs.is_some() {
            use crate::ui::link::{awards_href, playoffs_href};
            let (l, x) = (&view.league.slug, &view.season.slug);
            vec![
                Link::new(playoffs_href(l, x), "Playoffs"),
                Link::new(awards_href(l, x), "Awards"),
            ]
        } else {
            Vec::new()
        },
        pair: arbiter_core::pairing::swiss::paired_round_by_round(&view.rules)
            .then(|| arbiter_core::pairing::swiss::next_round(&view.competition, &view.rules).ok())
            .flatten()
            .map(|n| {
                Link::new(
                    format!("{}/pairing", view.href()),
                    format!("Pair round {n}"),
                )
            }),
    }
}

/// The race as the standings page shows it (issue 15): each team's best and worst place, its
/// label and what it needs, while the season runs.
#[derive(Debug)]
pub struct RaceBlock {
    pub problem: Option<String>,
    pub left: String,
    /// Issue 36: how many teams the work budget left not yet decided exactly, in a sentence.
    pub undecided: Option<String>,
    pub teams: Vec<RaceLine>,
}

#[derive(Debug)]
pub struct RaceLine {
    pub team: Link,
    pub place: String,
    pub best: String,
    pub worst: String,
    pub label: &'static str,
    pub needs: String,
}

fn race_block(view: &CompetitionView) -> Option<RaceBlock> {
    use crate::app::view::RaceState;
    let race = match view.race() {
        RaceState::NoRace => return None,
        RaceState::BeingWorkedOut => {
            return Some(RaceBlock {
                problem: Some(
                    "The race is being worked out; reload the page in a moment to see it.".into(),
                ),
                left: String::new(),
                undecided: None,
                teams: Vec::new(),
            });
        }
        RaceState::Told(Ok(r)) => r,
        RaceState::Told(Err(problem)) => {
            return Some(RaceBlock {
                problem: Some(problem.clone()),
                left: String::new(),
                undecided: None,
                teams: Vec::new(),
            });
        }
    };
    let ordinal = arbiter_core::season_end::race::ordinal;
    let open = race.teams.iter().filter(|t| !t.exact).count();
    Some(RaceBlock {
        problem: None,
        left: match race.matches_left {
            1 => "1 match left".into(),
            n => format!("{n} matches left"),
        },
        undecided: (open > 0).then(|| {
            let (who, whose) = match open {
                1 => ("1 team is".to_string(), "its"),
                n => (format!("{n} teams are"), "their"),
            };
            format!(
                "{who} not yet decided exactly within the work a page may take: {whose} best and worst are the places proved so far, told exactly as matches are played."
            )
        }),
        teams: race
            .teams
            .iter()
            .map(|t| RaceLine {
                team: view.team_link(view.team_index(&t.team.0), &t.name),
                place: t.place.clone(),
                best: ordinal(t.best),
                worst: ordinal(t.worst),
                label: t.label.words(),
                needs: t.needs.clone(),
            })
            .collect(),
    })
}

/// Team `t`'s line of the race, for its page: `None` when the competition has no race.
fn team_race(view: &CompetitionView, t: usize) -> Option<TeamRaceBlock> {
    use crate::app::view::RaceState;
    let id = &view.competition.teams.get(t)?.id;
    match view.race() {
        RaceState::NoRace => None,
        RaceState::BeingWorkedOut => Some(TeamRaceBlock {
            places: None,
            label: "",
            needs: "The race is being worked out; reload the page in a moment to see it.".into(),
        }),
        RaceState::Told(Err(problem)) => Some(TeamRaceBlock {
            places: None,
            label: "",
            needs: problem.clone(),
        }),
        RaceState::Told(Ok(r)) => {
            let line = r.teams.iter().find(|x| &x.team == id)?;
            let ordinal = arbiter_core::season_end::race::ordinal;
            Some(TeamRaceBlock {
                places: Some(if line.best == line.worst {
                    format!("It will finish {}.", ordinal(line.best))
                } else {
                    format!(
                        "It can finish {} at best and {} at worst{}.",
                        ordinal(line.best),
                        ordinal(line.worst),
                        if line.exact {
                            ""
                        } else {
                            " (as far as proved so far)"
                        }
                    )
                }),
                label: line.label.words(),
                needs: line.needs.clone(),
            })
        }
    }
}

/// The race on a team's page: where it can finish, and what it needs.
#[derive(Debug)]
pub struct TeamRaceBlock {
    pub places: Option<String>,
    pub label: &'static str,
    pub needs: String,
}

// --- crosstable ---

#[derive(Debug)]
pub struct Meeting {
    pub text: String,
    pub colour: &'static str,
    pub title: String,
    pub excluded: bool,
}

#[derive(Debug)]
pub struct CrossCell {
    pub diag: bool,
    pub meetings: Vec<Meeting>,
}

#[derive(Debug)]
pub struct CrossRow {
    pub team: Link,
    pub cells: Vec<CrossCell>,
    pub mp: String,
    pub gp: String,
    pub place: String,
}

#[derive(Template)]
#[template(path = "public/crosstable.html", whitespace = "minimize")]
pub struct CrosstablePage {
    pub layout: Layout,
    pub caption: String,
    pub legend: String,
    pub teams: Vec<Link>,
    pub rows: Vec<CrossRow>,
}

/// The colour `team` had on board 1 of its match in `round` (as recorded, else the colour rule).
fn board_one_colour(view: &CompetitionView, team: usize, e: &RoundEntry) -> &'static str {
    let Some(side) = e.side else { return "" };
    let board = view
        .match_of(e.round, team)
        .and_then(|m| CompetitionView::boards(m).first());
    words::colour_letter(view.rules.colour(board, 1, side))
}

fn meeting(view: &CompetitionView, team: usize, e: &RoundEntry) -> Meeting {
    let colour = board_one_colour(view, team, e);
    let opponent = e
        .opponent
        .and_then(|o| view.competition.teams.get(o))
        .map_or("?", |t| t.name.as_str());
    let (text, what) = match e.kind {
        EntryKind::Played => (
            words::points(e.game_points),
            format!(
                "{} against {opponent}",
                words::score(e.game_points, e.opponent_game_points)
            ),
        ),
        EntryKind::ForfeitWin => (
            format!("{}F", words::points(e.game_points)),
            format!("won by forfeit against {opponent}"),
        ),
        EntryKind::ForfeitLoss => (
            format!("{}F", words::points(e.game_points)),
            format!("lost by forfeit to {opponent}"),
        ),
        EntryKind::DoubleForfeit => (
            format!("{}F", words::points(e.game_points)),
            format!("double forfeit with {opponent}"),
        ),
        EntryKind::Pending => ("\u{b7}".to_string(), format!("to play {opponent}")),
        EntryKind::Bye(_) => (String::new(), "bye".to_string()),
    };
    let side = e.side.map_or("", Side::code);
    let mut title = format!("Round {}: {what}, {side}, {colour} on board 1", e.round);
    if let Some(x) = &e.excluded {
        title.push_str(". ");
        title.push_str(&x.reason);
    }
    Meeting {
        text,
        colour,
        title,
        excluded: e.excluded.is_some(),
    }
}

/// The crosstable of a competition in the order of its standings (the playoffs' round robin
/// draws it too).
pub(crate) fn crosstable(view: &CompetitionView) -> CrosstablePage {
    let order = view.ranked_teams();
    let teams = order
        .iter()
        .map(|&t| view.team_link(Some(t), "?"))
        .collect();
    let rows = order
        .iter()
        .map(|&t| {
            let score = &view.sheet.teams[t];
            let cells = order
                .iter()
                .map(|&o| CrossCell {
                    diag: o == t,
                    meetings: if o == t {
                        Vec::new()
                    } else {
                        score
                            .entries
                            .iter()
                            .filter(|e| e.opponent == Some(o))
                            .map(|e| meeting(view, t, e))
                            .collect()
                    },
                })
                .collect();
            CrossRow {
                team: view.team_link(Some(t), "?"),
                cells,
                mp: words::points(score.match_points),
                gp: words::points(score.game_points),
                place: view.place(t).unwrap_or("").to_string(),
            }
        })
        .collect();
    CrosstablePage {
        layout: view.layout(
            "Crosstable",
            format!("Crosstable \u{2014} {}", view.record.name),
            Some(1),
            format!("{}/crosstable", view.api_href()),
        ),
        caption: format!(
            "Game points scored against each opponent; W or B: the colour on board 1{}.",
            cite(view.rules.cite("white_on_odd_boards"))
        ),
        legend: format!(
            "F: a forfeited match{}; struck through: excluded from every figure{}; \u{b7}: not played yet.",
            cite(view.forfeit_rule()),
            cite(view.rules.cite("drop"))
        ),
        teams,
        rows,
    }
}

/// ` (GT-M18)`, or nothing when the ruleset cites no rule.
fn cite(rule: Option<&str>) -> String {
    rule.map_or(String::new(), |r| format!(" ({r})"))
}

// --- a round ---

#[derive(Debug)]
pub struct BoardLine {
    pub number: u32,
    pub home: Option<Link>,
    pub home_rating: String,
    pub home_colour: &'static str,
    pub result: &'static str,
    pub away: Option<Link>,
    pub away_rating: String,
    pub note: Option<String>,
}

#[derive(Debug)]
pub struct MatchCard {
    pub anchor: String,
    pub line: MatchLine,
    pub boards: Vec<BoardLine>,
    /// `Changed by hand: …` when the arbiter changed C.04.6's pairing (issue 17).
    pub by_hand: Option<String>,
    /// At a team Swiss, the match's table and each team's colours (issue 32, item 29).
    pub seats: Option<crate::app::view::Seats>,
}

#[derive(Template)]
#[template(path = "public/round.html", whitespace = "minimize")]
pub struct RoundPage {
    pub layout: Layout,
    pub date: Option<String>,
    pub prev: Option<Link>,
    pub next: Option<Link>,
    pub matches: Vec<MatchCard>,
    pub byes: Vec<String>,
    /// The arbiter's page to type the round's results (issue 14); it asks for sign-in.
    pub results_href: String,
}

fn board_note(b: &arbiter_core::Board) -> Option<String> {
    use arbiter_core::GameResult as R;
    let mut notes = Vec::new();
    match b.result {
        R::HomeWinByForfeit => {
            notes.push("The away player forfeited the game (GT-S2).".to_string())
        }
        R::AwayWinByForfeit => {
            notes.push("The home player forfeited the game (GT-S2).".to_string())
        }
        R::DoubleForfeit => {
            notes.push("Both players forfeited: a double forfeit (GT-S2).".to_string())
        }
        _ => {}
    }
    if let Some(r) = b.rating_result
        && r != b.result
    {
        notes.push(format!(
            "For ratings the game is {} (GT-P1).",
            words::board_result(r)
        ));
    }
    (!notes.is_empty()).then(|| notes.join(" "))
}

fn round(view: &CompetitionView, n: u32) -> Result<RoundPage, WebError> {
    let r = view
        .round(n)
        .ok_or_else(|| WebError::not_found(format!("There is no round {n}.")))?;
    let mut matches = Vec::new();
    let mut byes = Vec::new();
    for p in &r.pairings {
        match p {
            Pairing::Match(m) => {
                let f = view.facts(n, m);
                let boards = CompetitionView::boards(m)
                    .iter()
                    .enumerate()
                    .map(|(i, b)| {
                        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
                        let (home, home_rating) = view.player_link(b.home_player.as_ref());
                        let (away, away_rating) = view.player_link(b.away_player.as_ref());
                        let c = view.rules.colour(Some(b), number, Side::Home);
                        BoardLine {
                            number,
                            home,
                            home_rating,
                            home_colour: words::colour_letter(c),
                            result: words::board_result(b.result),
                            away,
                            away_rating,
                            note: board_note(b),
                        }
                    })
                    .collect();
                matches.push(MatchCard {
                    anchor: match_anchor(view, &f),
                    line: match_line(view, &f),
                    boards,
                    by_hand: view
                        .changed_by_hand(n, &m.home)
                        .map(|c| words::hand_note(&c.reason, &c.overridden)),
                    seats: view.seats(n, m),
                });
            }
            Pairing::Bye(b) => byes.push(bye_line(view, n, b)),
        }
    }
    let rounds = view.rounds();
    let at = rounds.iter().position(|x| x.number == n);
    let link = |r: &arbiter_core::Round| view.round_link(r.number);
    let prev = at
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| rounds.get(i))
        .map(|r| link(r));
    let next = at.and_then(|i| rounds.get(i + 1)).map(|r| link(r));
    Ok(RoundPage {
        layout: view.layout(
            &view.round_name(n),
            format!("{} \u{2014} {}", view.round_name(n), view.record.name),
            None,
            format!("{}/rounds/{n}", view.api_href()),
        ),
        date: r.date.map(words::date),
        prev,
        next,
        matches,
        byes,
        results_href: format!(
            "{}/rounds/{n}/results",
            crate::ui::link::competition_href(
                &view.league.slug,
                &view.season.slug,
                &view.record.slug
            )
        ),
    })
}

// --- a team ---

#[derive(Debug)]
pub struct RosterLine {
    pub order: usize,
    pub player: Link,
    pub rating: String,
    /// GT-R6: the player's own school, when not the team's.
    pub school: Option<String>,
}

#[derive(Debug)]
pub struct ResultLine {
    pub round: Link,
    /// The day (and time) it is or was played; a match's links to its page (issue 32).
    pub date: String,
    pub match_href: Option<String>,
    pub opponent: Option<Link>,
    pub side: &'static str,
    pub colour: &'static str,
    pub score: String,
    pub outcome: &'static str,
    pub mp: String,
    pub label: Option<String>,
    pub excluded: Option<String>,
}

/// A team's next match, on top of its page (issue 32): when, where, against whom.
#[derive(Debug)]
pub struct NextMatch {
    /// `Mon 16 Nov 2026 at 15:30 (America/New_York)`, or the day alone.
    pub when: String,
    /// When no time is set: who sets it (GT-M1).
    pub time_unset: Option<String>,
    pub round: Link,
    /// `Start Spartans v Scott`, to the match's page.
    pub game: Link,
    pub opponent: Link,
    /// `home` or `away`; none at an event, whose matches are all in its hall.
    pub side: Option<&'static str>,
    /// The home school's name, or the event's hall.
    pub place: String,
    /// The school's postal address on one line, when an officer has set it.
    pub address: Option<String>,
}

#[derive(Template)]
#[template(path = "public/team.html", whitespace = "minimize")]
pub struct TeamPage {
    pub layout: Layout,
    pub school: Option<String>,
    pub place: Option<String>,
    pub totals: String,
    pub dropped: Option<String>,
    /// GT-M5: the match forfeit that dropped it, to correct: its address and words.
    pub dropped_by: Option<(String, String)>,
    /// Issue 32: the first match still to play from today, when there is one.
    pub next: Option<NextMatch>,
    pub roster: Vec<RosterLine>,
    /// AS-12: why the roster is not shown yet, before an event's rosters lock.
    pub roster_withheld: Option<String>,
    pub provisional: bool,
    pub results: Vec<ResultLine>,
    /// The team's matches, and its school's, as calendar feeds (issue 32).
    pub feeds: Vec<Feed>,
    /// Issue 36: the race while the season runs: where it can finish and what it needs.
    pub race: Option<TeamRaceBlock>,
}

/// What the entry was for the team, in a word or two.
pub fn outcome_word(e: &RoundEntry, rules: &arbiter_core::Ruleset) -> &'static str {
    match e.kind {
        // `[scoring]` weighs boards or decides a match by half its points: the match points
        // say how it went (both teams may lose one).
        EntryKind::Played if !rules.scoring.is_majority_of_game_points() => {
            if e.match_points == rules.match_points.win {
                "won"
            } else if e.match_points == rules.match_points.draw {
                "drawn"
            } else {
                "lost"
            }
        }
        EntryKind::Played => {
            if e.game_points > e.opponent_game_points {
                "won"
            } else if e.game_points < e.opponent_game_points {
                "lost"
            } else {
                "drawn"
            }
        }
        EntryKind::ForfeitWin => "won by forfeit",
        EntryKind::ForfeitLoss => "lost by forfeit",
        EntryKind::DoubleForfeit => "double forfeit",
        EntryKind::Bye(_) => "bye",
        EntryKind::Pending => "to play",
    }
}

/// The next match of team `t` on `today`, as its page shows it on top (issue 32).
fn next_match(
    view: &CompetitionView,
    t: usize,
    fixtures: &[Fixture<'_>],
    today: Date,
) -> Option<NextMatch> {
    let team = &view.competition.teams.get(t)?.id;
    let f = fixture::next(fixtures, today)?;
    let side = f.side_of(team)?;
    let other = f.record.team(side.other());
    let (place, address) = view.place_of(f);
    Some(NextMatch {
        when: view.when(f),
        time_unset: f.start.is_none().then(|| {
            format!(
                "The time is the home team's advisor's to arrange{}.",
                cite(view.rules.cite("conduct"))
            )
        }),
        round: view.round_link(f.round),
        game: Link::new(
            view.match_href(f.round, &f.record.home),
            format!(
                "{} v {}",
                view.team_name(&f.record.home),
                view.team_name(&f.record.away)
            ),
        ),
        opponent: view.team_link(view.team_index(&other.0), &other.0),
        side: view.hall.is_none().then(|| side.code()),
        place,
        address: address.map(|a| a.one_line()),
    })
}

fn team(view: &CompetitionView, t: usize, today: Date) -> Result<TeamPage, WebError> {
    let team = view
        .competition
        .teams
        .get(t)
        .ok_or_else(|| WebError::not_found("There is no such team."))?;
    let score = &view.sheet.teams[t];
    let fixtures = view.fixtures(Some(&team.id));
    let roster = team
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| RosterLine {
            order: i + 1,
            player: Link::new(view.player_href(p), &p.name),
            rating: words::rating(p),
            school: p.school.clone(),
        })
        .collect();
    let results = score
        .entries
        .iter()
        .map(|e| {
            let m = view.match_of(e.round, t);
            let label = match (e.opponent, m) {
                (Some(_), Some(m)) => match_line(view, &view.facts(e.round, m)).label,
                (None, _) => Some("bye".to_string()),
                _ => None,
            };
            // A match on its own day (GT-M2) and at its time; a bye on its round's day.
            let fixture = m.and_then(|m| {
                fixtures
                    .iter()
                    .find(|f| f.round == e.round && std::ptr::eq(f.record, m))
            });
            let date = match fixture {
                Some(f) => view.when(f),
                None => view
                    .round(e.round)
                    .and_then(|r| r.date)
                    .map_or_else(String::new, words::date),
            };
            ResultLine {
                round: Link::new(view.round_href(e.round), e.round.to_string()),
                date,
                match_href: m.map(|m| view.match_href(e.round, &m.home)),
                opponent: e.opponent.map(|o| view.team_link(Some(o), "?")),
                side: e.side.map_or("", Side::code),
                colour: board_one_colour(view, t, e),
                score: if e.kind == EntryKind::Pending && e.boards.is_empty() {
                    "\u{2013}".to_string()
                } else {
                    words::score(e.game_points, e.opponent_game_points)
                },
                outcome: outcome_word(e, &view.rules),
                mp: if e.kind == EntryKind::Pending {
                    String::new()
                } else {
                    words::points(e.match_points)
                },
                label,
                excluded: e.excluded.as_ref().map(|x| x.reason.clone()),
            }
        })
        .collect();
    let mut feeds = vec![Feed::new(
        &view.site,
        &format!("{}/schedule.ics", view.team_href(t)),
        "This team's matches",
    )];
    if let Some(href) = team
        .school
        .as_deref()
        .filter(|_| view.hall.is_none())
        .and_then(|s| school_calendar_href(&view.league.slug, s))
    {
        let school = team.school.as_deref().unwrap_or_default();
        feeds.push(Feed::new(
            &view.site,
            &href,
            format!("Every match of {school}'s teams this season"),
        ));
    }
    Ok(TeamPage {
        layout: view.layout(
            &team.name,
            team.name.clone(),
            None,
            format!("{}/teams/{}", view.api_href(), segment(&team.id.0)),
        ),
        next: next_match(view, t, &fixtures, today),
        race: team_race(view, t),
        feeds,
        school: team.school.clone(),
        place: view.place(t).map(str::to_string),
        totals: format!(
            "{} match points, {} game points",
            words::points(score.match_points),
            words::points(score.game_points)
        ),
        dropped: dropped_sentence(view, t),
        dropped_by: dropped_by(view, t),
        provisional: team.players.iter().any(|p| p.provisional),
        roster,
        roster_withheld: view
            .roster_lock
            .as_ref()
            .filter(|_| view.rosters_withheld)
            .map(|l| l.withheld_sentence()),
        results,
    })
}

// --- a player ---

#[derive(Debug)]
pub struct GameLine {
    pub round: Link,
    pub board: u32,
    pub colour: &'static str,
    pub opponent: Option<Link>,
    pub opponent_rating: String,
    pub opponent_team: Link,
    pub result: &'static str,
    pub note: Option<String>,
    pub excluded: Option<String>,
}

#[derive(Template)]
#[template(path = "public/player.html", whitespace = "minimize")]
pub struct PlayerPage {
    pub layout: Layout,
    pub team: Link,
    pub rating: String,
    pub summary: String,
    pub games: Vec<GameLine>,
    /// The rating history (issue 11), when the games could be rated.
    pub history: Option<ratings::History>,
    /// GT-M20: the games whose moves were uploaded, each with its final position.
    pub scores: Vec<ScoreCard>,
}

/// GT-M20: an uploaded game on a player's page.
#[derive(Debug)]
pub struct ScoreCard {
    /// "Round 3, board 2, against Ben Ortiz with White: 1".
    pub heading: String,
    pub match_href: String,
    /// The final position, drawn as SVG.
    pub diagram: Option<String>,
    pub moves: String,
    pub pgn_href: String,
}

/// One game of a player: where, which side and what it scored.
#[derive(Debug)]
pub struct PlayerGame<'a> {
    pub round: u32,
    pub board: u32,
    pub side: Side,
    pub facts: MatchFacts<'a>,
    pub game: &'a arbiter_core::Board,
}

/// Every board the player sat at, in round order.
pub fn player_games<'a>(view: &'a CompetitionView, id: &str) -> Vec<PlayerGame<'a>> {
    let mut out = Vec::new();
    for r in view.rounds() {
        for p in &r.pairings {
            let Pairing::Match(m) = p else { continue };
            for (i, b) in CompetitionView::boards(m).iter().enumerate() {
                let side = if b.home_player.as_ref().is_some_and(|x| x.0 == id) {
                    Side::Home
                } else if b.away_player.as_ref().is_some_and(|x| x.0 == id) {
                    Side::Away
                } else {
                    continue;
                };
                out.push(PlayerGame {
                    round: r.number,
                    board: u32::try_from(i + 1).unwrap_or(u32::MAX),
                    side,
                    facts: view.facts(r.number, m),
                    game: b,
                });
            }
        }
    }
    out
}

/// A player's score over the games that count (GT-M5 exclusions aside), and the games decided.
pub fn player_score(view: &CompetitionView, games: &[PlayerGame<'_>]) -> (f64, usize) {
    let mut points = 0.0;
    let mut decided = 0;
    for g in games {
        let o = g.game.result.outcome_for(g.side);
        if g.facts.excluded.is_some() || matches!(o, GameOutcome::Pending) {
            continue;
        }
        points += scoring::game_points(&view.rules, o);
        decided += 1;
    }
    (points, decided)
}

fn player(view: &CompetitionView, t: usize, p: usize) -> Result<PlayerPage, WebError> {
    let team = view
        .competition
        .teams
        .get(t)
        .ok_or_else(|| WebError::not_found("There is no such team."))?;
    let pl = team
        .players
        .get(p)
        .ok_or_else(|| WebError::not_found("There is no such player."))?;
    let played = player_games(view, &pl.id.0);
    let (points, decided) = player_score(view, &played);
    let games = played
        .iter()
        .map(|g| {
            let (opp_id, opp_team) = match g.side {
                Side::Home => (g.game.away_player.as_ref(), g.facts.away),
                Side::Away => (g.game.home_player.as_ref(), g.facts.home),
            };
            let opp_team_name = match g.side {
                Side::Home => view.team_name(&g.facts.record.away),
                Side::Away => view.team_name(&g.facts.record.home),
            };
            let (opponent, opponent_rating) = view.player_link(opp_id);
            let c = view.rules.colour(Some(g.game), g.board, g.side);
            let mut note = board_note(g.game);
            if let Some(l) = match_line(view, &g.facts).label {
                note = Some(note.map_or(l.clone(), |n| format!("{l}. {n}")));
            }
            GameLine {
                round: Link::new(view.round_href(g.round), g.round.to_string()),
                board: g.board,
                colour: c.code(),
                opponent,
                opponent_rating,
                opponent_team: view.team_link(opp_team, &opp_team_name),
                result: words::player_result(g.game.result.outcome_for(g.side)),
                note,
                excluded: g.facts.excluded.map(|x| x.reason.clone()),
            }
        })
        .collect();
    let scores = played
        .iter()
        .filter_map(|g| {
            let href = view.match_href(g.round, &g.facts.record.home);
            let id = view.stored.match_id(g.round, &g.facts.record.home)?;
            let score = view.stored.game_score(id, g.board)?;
            let opponent = match g.side {
                Side::Home => g.game.away_player.as_ref(),
                Side::Away => g.game.home_player.as_ref(),
            }
            .and_then(|o| view.player(&o.0))
            .map_or_else(|| "an unnamed player".to_string(), |(p, _)| p.name.clone());
            let colour = view.rules.colour(Some(g.game), g.board, g.side);
            let diagram = arbiter_core::season::game::read(&score.pgn)
                .ok()
                .and_then(|s| arbiter_core::season::game::diagram(&s.fen).ok())
                .map(|d| {
                    crate::ui::diagram::svg(
                        &d,
                        &format!(
                            "The final position of round {}, board {}: {}",
                            g.round,
                            g.board,
                            crate::ui::diagram::to_move(&d)
                        ),
                    )
                });
            Some(ScoreCard {
                heading: format!(
                    "Round {}, board {}: {} against {opponent} with {}",
                    g.round,
                    g.board,
                    match g.game.result.outcome_for(g.side) {
                        GameOutcome::Win => "won",
                        GameOutcome::Draw => "drew",
                        _ => "lost",
                    },
                    words::colour_word(colour)
                ),
                pgn_href: format!("{href}/boards/{}/game.pgn", g.board),
                match_href: href,
                diagram,
                moves: score.pgn.clone(),
            })
        })
        .collect();
    let summary = match decided {
        0 => "no games decided yet".to_string(),
        1 => format!("{} from 1 game", words::points(points)),
        n => format!("{} from {n} games", words::points(points)),
    };
    Ok(PlayerPage {
        layout: view.layout(
            &format!("{} ({})", pl.name, team.name),
            pl.name.clone(),
            None,
            format!("{}/players/{}", view.api_href(), segment(&pl.id.0)),
        ),
        team: view.team_link(Some(t), &team.name),
        rating: words::rating(pl),
        summary,
        games,
        history: ratings::history(view, t, p),
        scores,
    })
}

// --- the explanation ---

#[derive(Debug)]
pub struct Sentence {
    pub rule: Option<String>,
    pub text: String,
}

#[derive(Template)]
#[template(path = "public/explain.html", whitespace = "minimize")]
pub struct ExplainPage {
    pub layout: Layout,
    pub table: StandingsTable,
    pub sentences: Vec<Sentence>,
    pub criteria: String,
}

fn explain(view: &CompetitionView) -> ExplainPage {
    ExplainPage {
        layout: view.layout(
            "Why this order",
            format!("Why this order \u{2014} {}", view.record.name),
            Some(2),
            format!("{}/standings", view.api_href()),
        ),
        table: standings_table(view),
        sentences: view
            .explanation
            .iter()
            .map(|e| Sentence {
                rule: e.rule.clone(),
                text: e.sentence.clone(),
            })
            .collect(),
        criteria: view
            .rules
            .criteria
            .iter()
            .map(|c| match c.cited_rule() {
                Some(r) => format!("{} ({r})", c.code),
                None => c.code.clone(),
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

// --- the projector (issue 14) ---

/// A round's matches as the projector lists them.
#[derive(Debug)]
pub struct ProjectedRound {
    pub heading: String,
    pub matches: Vec<MatchLine>,
    pub byes: Vec<String>,
}

#[derive(Template)]
#[template(path = "public/projector.html", whitespace = "minimize")]
pub struct ProjectorPage {
    pub title: String,
    pub css: &'static str,
    pub heading: String,
    pub context: String,
    /// AS-18: the teams that share the title, when they do.
    pub shared_title: Option<String>,
    pub table: StandingsTable,
    pub results: Option<ProjectedRound>,
    pub next: Option<ProjectedRound>,
    /// Why each tie was broken, or shared: only the pairs a tiebreak separated.
    pub ties: Vec<Sentence>,
    /// Every round played: the final crosstable is linked in place of the next pairings.
    pub finished: bool,
    pub crosstable_href: String,
    pub back_href: String,
    /// Seconds between refreshes.
    pub refresh: u32,
    /// `Round 4 starts at 13:30`: the next round's start in the hall (issue 32, item 25).
    pub starts: Option<String>,
    /// The hall's clock when the page was drawn, in the event's (or league's) zone.
    pub clock: Option<String>,
    /// The script that reloads the page as soon as its ETag changes ([`PROJECTOR_SCRIPT`]).
    pub script: &'static str,
}

/// The projector's one script (issue 32, item 25): every few seconds it asks for the page's
/// ETag and reloads when it changes, so a result shows within seconds; the meta refresh is
/// the fallback where scripts do not run. Allowed by its hash in the projector's CSP only.
pub const PROJECTOR_SCRIPT: &str = "(function(){var t=null;setInterval(function(){fetch(location.href,{method:'HEAD',cache:'no-store'}).then(function(r){var e=r.headers.get('ETag');if(t===null){t=e}else if(e&&e!==t){location.reload()}}).catch(function(){})},5000)})();";

/// The hall as the projector shows it: its clock now, and each round's start (round 1 first).
#[derive(Debug, Clone, Default)]
pub struct Hall {
    pub now: Option<jiff::civil::DateTime>,
    pub starts: Vec<jiff::civil::DateTime>,
}

/// How often the projector reads the standings again: often enough for the hall to see a
/// result within a minute of its entry; an unchanged page costs the server a look-up.
pub const PROJECTOR_REFRESH_SECONDS: u32 = 30;

fn projected(view: &CompetitionView, r: &arbiter_core::Round, heading: String) -> ProjectedRound {
    let mut matches = Vec::new();
    let mut byes = Vec::new();
    for p in &r.pairings {
        match p {
            Pairing::Match(m) => matches.push(match_line(view, &view.facts(r.number, m))),
            Pairing::Bye(b) => byes.push(bye_line(view, r.number, b)),
        }
    }
    ProjectedRound {
        heading,
        matches,
        byes,
    }
}

fn projector(view: &CompetitionView) -> ProjectorPage {
    projector_in(view, &Hall::default())
}

/// The projector page as the hall sees it at `hall.now`.
pub fn projector_in(view: &CompetitionView, hall: &Hall) -> ProjectorPage {
    use arbiter_core::MatchOutcome;
    let rounds = view.rounds();
    let played = |r: &arbiter_core::Round| r.matches().any(|m| m.outcome != MatchOutcome::Pending);
    let last = rounds.iter().rev().find(|r| played(r)).copied();
    let next = rounds
        .iter()
        .find(|r| r.matches().any(|m| m.outcome == MatchOutcome::Pending))
        .copied();
    let finished = !rounds.is_empty() && next.is_none();
    let date = |r: &arbiter_core::Round| {
        r.date
            .map(|d| format!(", {}", words::date(d)))
            .unwrap_or_default()
    };
    // A pair separated by the primary score needs no telling; the rest are the ties.
    let tie_broken = |i: usize| {
        view.standings
            .as_ref()
            .ok()
            .and_then(|s| s.separations.get(i))
            .is_some_and(|sep| {
                !matches!(
                    sep.reason,
                    arbiter_core::scoring::standings::SeparationReason::Criterion { index: 0, .. }
                )
            })
    };
    let shared_title = view.standings.as_ref().ok().and_then(|s| {
        let first = s.rows.first()?;
        let sharing: Vec<&str> = s
            .rows
            .iter()
            .take_while(|r| r.place == first.place)
            .filter_map(|r| view.competition.teams.get(r.team).map(|t| t.name.as_str()))
            .collect();
        (finished && sharing.len() > 1).then(|| {
            format!(
                "{} share the title: level on every criterion of the ruleset (AS-18).",
                sharing.join(" and ")
            )
        })
    });
    let total = rounds.len();
    ProjectorPage {
        title: format!("{} \u{2014} projector \u{2014} Arbiter", view.record.name),
        css: crate::ui::stylesheet::css_href(),
        heading: view.record.name.clone(),
        context: match (finished, last) {
            (true, _) => format!("Final standings after {total} rounds"),
            (false, Some(r)) => format!("After round {} of {total}", r.number),
            (false, None) => format!("Before round 1 of {total}"),
        },
        shared_title,
        table: standings_table(view),
        results: last.map(|r| projected(view, r, format!("Round {} results{}", r.number, date(r)))),
        next: next
            .filter(|n| Some(n.number) != last.map(|l| l.number))
            .map(|r| projected(view, r, format!("Round {} pairings{}", r.number, date(r)))),
        ties: view
            .explanation
            .iter()
            .filter(|e| tie_broken(e.upper_row))
            .map(|e| Sentence {
                rule: e.rule.clone(),
                text: e.sentence.clone(),
            })
            .collect(),
        finished,
        crosstable_href: format!("{}/crosstable", view.href()),
        back_href: view.href(),
        refresh: PROJECTOR_REFRESH_SECONDS,
        starts: next
            .and_then(|r| {
                let i = usize::try_from(r.number).ok()?.checked_sub(1)?;
                Some((r.number, *hall.starts.get(i)?))
            })
            .map(|(n, t)| {
                let day = hall.now.map(|now| now.date());
                let begun = hall.now.is_some_and(|now| now >= t);
                match (day == Some(t.date()), begun) {
                    (true, true) => format!("Round {n} started at {}", t.strftime("%H:%M")),
                    (true, false) => format!("Round {n} starts at {}", t.strftime("%H:%M")),
                    (false, _) => format!(
                        "Round {n} starts {} at {}",
                        words::date(t.date()),
                        t.strftime("%H:%M")
                    ),
                }
            }),
        clock: hall.now.map(|t| t.strftime("%H:%M").to_string()),
        script: PROJECTOR_SCRIPT,
    }
}

/// The results bulletin (issue 14): what the projector shows, on one printable page with the
/// site's layout, for the arbiter to print or mail after a round.
#[derive(Template)]
#[template(path = "public/bulletin.html", whitespace = "minimize")]
pub struct BulletinPage {
    pub layout: Layout,
    pub p: ProjectorPage,
    pub explain_href: String,
}

fn bulletin(view: &CompetitionView) -> BulletinPage {
    let p = projector(view);
    BulletinPage {
        layout: view.layout(
            "Bulletin",
            format!("Results bulletin \u{2014} {}", view.record.name),
            None,
            format!("{}/standings", view.api_href()),
        ),
        explain_href: format!("{}/explain", view.href()),
        p,
    }
}

// ---------------------------------------------------------------------------------------------
// Pages above a competition

#[derive(Debug)]
pub struct SeasonBlock {
    pub link: Link,
    pub dates: String,
    pub competitions: Vec<Link>,
    /// The season's rating list, every competition's players in one.
    pub ratings: String,
    /// A league's season end (issue 15): the playoffs, the awards, the media reports.
    pub season_end: Vec<Link>,
    /// On the home page, a season of more competitions than it lists: how many there are, each
    /// listed on the season's page (issue 35: a federation's hundred divisions a league).
    pub folded: Option<usize>,
}

#[derive(Debug)]
pub struct LeagueCard {
    pub link: Link,
    /// Issue 32 (item 1): the league's schools.
    pub schools: String,
    pub kind: &'static str,
    pub description: String,
    pub seasons: Vec<SeasonBlock>,
}

#[derive(Debug)]
pub struct WeekItem {
    pub date: String,
    pub competition: Link,
    pub round: Link,
    pub matches: String,
}

/// Issue 32 (item 1): one day of a league's week on the home page: each competition with its
/// rounds that day (an event plays several), the matches named when it is one round.
#[derive(Debug)]
pub struct WeekDay {
    pub date: String,
    pub lines: Vec<WeekLine>,
    /// The competitions playing that day past the most the home page lists, as a link to
    /// where they all are (issue 35).
    pub more: Option<Link>,
}

#[derive(Debug)]
pub struct WeekLine {
    pub competition: Link,
    pub rounds: Vec<Link>,
    pub matches: String,
}

/// A league's week on the home page, under its name.
#[derive(Debug)]
pub struct WeekLeague {
    pub league: Link,
    /// The league's week, Monday to Sunday in its own zone, when it is not the heading's.
    pub week: Option<String>,
    pub days: Vec<WeekDay>,
}

#[derive(Template)]
#[template(path = "public/home.html", whitespace = "minimize")]
pub struct HomePage {
    pub layout: Layout,
    pub week: String,
    /// This week's rounds, league by league.
    pub this_week: Vec<WeekLeague>,
    pub next: Option<WeekItem>,
    pub leagues: Vec<LeagueCard>,
}

#[derive(Template)]
#[template(path = "public/league.html", whitespace = "minimize")]
pub struct LeaguePage {
    pub layout: Layout,
    pub kind: &'static str,
    pub description: String,
    pub seasons: Vec<SeasonBlock>,
    /// An event's page of the lots drawn for its invitation order (AS-8).
    pub lots: Option<String>,
    /// Issue 32 (item 1): the league's schools, each with its teams.
    pub schools: String,
    /// The league's current season as a calendar feed (issue 32); none on a season's page.
    pub feeds: Vec<Feed>,
    /// The lasting address of the season being played, and an example division's under it
    /// (issue 32 item 11); none on a season's page.
    pub current: Option<(Link, String)>,
}

pub fn kind_word(k: LeagueKind) -> &'static str {
    match k {
        LeagueKind::League => "league",
        LeagueKind::Event => "event",
    }
}

pub fn season_dates(s: &Season) -> String {
    match (s.starts_on, s.ends_on) {
        (Some(a), Some(b)) => format!("{} to {}", words::date(a), words::date(b)),
        (Some(a), None) => format!("from {}", words::date(a)),
        (None, Some(b)) => format!("until {}", words::date(b)),
        (None, None) => String::new(),
    }
}

pub fn render_home(page: &HomePage) -> Result<Bytes, WebError> {
    render(page)
}

pub fn render_league(page: &LeaguePage) -> Result<Bytes, WebError> {
    render(page)
}

pub fn render_ratings(page: &ratings::RatingsPage) -> Result<Bytes, WebError> {
    render(page)
}

/// The matches of a round in a line: `Alpha – Beta, Gamma – Delta`.
pub fn pairings_line(view: &CompetitionView, r: &arbiter_core::Round) -> String {
    r.pairings
        .iter()
        .filter_map(|p| match p {
            Pairing::Match(m) => {
                // GT-M5: a dropped team's matches are not played; say so instead of listing
                // them as fixtures.
                let excluded = view.facts(r.number, m).excluded.is_some();
                Some(format!(
                    "{} \u{2013} {}{}",
                    view.team_name(&m.home),
                    view.team_name(&m.away),
                    if excluded { " (not played: GT-M5)" } else { "" }
                ))
            }
            Pairing::Bye(_) => None,
        })
        .collect::<Vec<_>>()
        .join(", ")
}
