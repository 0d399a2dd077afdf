//! The end of a GTHSCL season (issue 15): qualification (GT-F3), the playoffs drawn and played
//! (GT-F3, GT-F4, GT-F5), the awards (GT-F1, GT-F2, GT-F3) and the media reports (GT-O3).
//!
//! [`load`] is the one reading of a season's end: its divisions as the pages draw them, the
//! officers' decisions on ties, and the playoffs once drawn (their competition, field, calendar
//! and deciding games). Core decides everything from it; the write paths here ([`decide_tie`],
//! [`draw`], [`enter_deciding_game`], [`pair_next_round`], [`save_report`]) are shared by the
//! pages, the API and the CLI: read what was sent, ask core, store.

pub mod api;
pub mod pages;
pub mod reports;

use std::sync::Arc;

use arbiter_core::record::model::{Competition, GameResult, Round, Side, TeamId};
use arbiter_core::rules::ruleset::{PlayoffFormat, PlayoffTiebreak, Ruleset};
use arbiter_core::season_end::awards::{self, AwardsList, Division};
use arbiter_core::season_end::bracket::{
    self, Bracket, DecidingGame, EnteredGame, Finish, PlayoffCalendar,
};
use arbiter_core::season_end::media::{self, MediaReport, Moment};
use arbiter_core::season_end::qualify::{self, OfficersDecision, Qualifiers, Seed};
use arbiter_store::{
    DecidingGameRecord, League, MediaReportVersion, NewCompetition, PlayoffRecord, Season,
    StoreError, TieDecision,
};
use jiff::civil::Date;

use arbiter_core::teams::sealed::Viewer;

use crate::app::site::LeagueTree;
use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::auth::{self, Account, Acting};
use crate::http::error::WebError;
use crate::ui::link::{Link, season_href};

/// How many top scores on each board the awards and the reports list.
pub const TOP_SCORES: usize = 3;

/// A season as its end reads it.
#[derive(Debug)]
pub struct SeasonEnd {
    pub league: League,
    pub season: Season,
    /// The season's divisions (every competition but the playoffs), as the pages draw them.
    pub divisions: Vec<Arc<CompetitionView>>,
    /// The officers' decisions on ties (GT-F3), oldest first.
    pub decisions: Vec<TieDecision>,
    /// The playoffs, once drawn.
    pub playoffs: Option<Drawn>,
    /// The season's media reports, every version (GT-O3).
    pub reports: Vec<MediaReportVersion>,
}

/// The playoffs as drawn: the record, the competition they are played in, the deciding games.
#[derive(Debug)]
pub struct Drawn {
    pub record: PlayoffRecord,
    pub view: Arc<CompetitionView>,
    pub deciding: Vec<DecidingGameRecord>,
}

impl Drawn {
    /// GT-F3: the knockout as it stands, read from the playoff competition.
    pub fn bracket(&self) -> Result<Bracket, String> {
        let games = bracket::in_force(&self.entered());
        bracket::knockout(
            &self.record.field,
            &self.view.competition,
            &games,
            &self.view.rules,
        )
        .map_err(|e| e.to_string())
    }

    /// Every deciding game entered, corrections and the games they correct alike, for core.
    pub fn entered(&self) -> Vec<EnteredGame> {
        self.deciding
            .iter()
            .map(|g| EnteredGame {
                id: g.id,
                corrects: g.corrects,
                game: g.game.clone(),
            })
            .collect()
    }

    /// The playoff's winner and runner-up, once the final is decided, or a round robin's
    /// every match played (GT-F3).
    pub fn finish(&self) -> Option<Finish> {
        if self.round_robin() {
            let table = self.view.standings.as_ref().ok()?;
            return Some(bracket::round_robin_finish(
                &self.record.field,
                &self.view.competition,
                table,
            ));
        }
        self.bracket().ok().map(|b| b.finish)
    }

    /// Whether the playoffs are a round robin of the qualifiers (`[playoffs] format`), not a
    /// knockout.
    pub fn round_robin(&self) -> bool {
        self.view
            .rules
            .playoffs
            .as_ref()
            .is_some_and(|p| p.format == PlayoffFormat::RoundRobin)
    }
}

/// The season `season` of `tree` as its end reads it, for the officers and the command line;
/// 404 with the league's seasons otherwise.
pub async fn load(
    state: &AppState,
    tree: &LeagueTree,
    season: &str,
) -> Result<SeasonEnd, WebError> {
    load_seen(state, tree, season, Viewer::Arbiter).await
}

/// [`load`] as the public may read it now: before an event's rosters lock, its competitions
/// name no player (AS-12), so neither do the awards and the bracket drawn from them.
pub async fn load_public(
    state: &AppState,
    tree: &LeagueTree,
    season: &str,
) -> Result<SeasonEnd, WebError> {
    load_seen(state, tree, season, Viewer::Other).await
}

/// The key of a season's public end page `which`, with what the public may see of the season
/// now: a page drawn before a competition's rosters lock (AS-12) is not served after it.
pub(crate) async fn public_key(
    state: &AppState,
    format: crate::http::error::Format,
    league: &str,
    season: &str,
    which: &'static str,
) -> crate::app::state::SiteKey {
    let sight = public_sight(state, league, season).await;
    crate::app::state::SiteKey::SeasonEnd(format, league.into(), season.into(), which, sight)
}

async fn public_sight(state: &AppState, league: &str, season: &str) -> u64 {
    let Ok(tree) = crate::app::site::one(state, league).await else {
        return 0;
    };
    let mut sight = 0_u64;
    for (_, records) in tree.seasons.iter().filter(|(s, _)| s.slug == season) {
        for r in records {
            if let Ok(view) = state.public_view(league, season, &r.slug).await {
                sight = sight.rotate_left(7) ^ view.etag_base;
            }
        }
    }
    sight
}

async fn load_seen(
    state: &AppState,
    tree: &LeagueTree,
    season: &str,
    viewer: Viewer,
) -> Result<SeasonEnd, WebError> {
    let Some((found, records)) = tree.seasons.iter().find(|(s, _)| s.slug == season) else {
        return Err(WebError::NotFound {
            message: format!(
                "{} has no season “{season}”. Its seasons are below.",
                tree.league.name
            ),
            links: tree
                .seasons
                .iter()
                .map(|(s, _)| Link::new(season_href(&tree.league.slug, &s.slug), &s.name))
                .collect(),
        });
    };
    let store = state.store();
    let record = store.playoffs(found.id).await?;
    let mut divisions = Vec::new();
    let mut playoffs = None;
    for r in records {
        let full = state.view(&tree.league.slug, &found.slug, &r.slug).await?;
        let view = state.seen_by(full, viewer);
        match &record {
            Some(p) if p.competition == r.id => {
                let deciding = store.deciding_games(r.id).await?;
                playoffs = Some(Drawn {
                    record: p.clone(),
                    view,
                    deciding,
                });
            }
            _ => divisions.push(view),
        }
    }
    Ok(SeasonEnd {
        league: tree.league.clone(),
        season: found.clone(),
        divisions,
        decisions: store.tie_decisions(found.id).await?,
        playoffs,
        reports: store.media_reports(found.id).await?,
    })
}

/// One division's qualification: its qualifiers, or why it cannot be qualified yet.
#[derive(Debug)]
pub struct DivisionQualifiers {
    pub view: Arc<CompetitionView>,
    pub qualifiers: Result<Qualifiers, String>,
    /// The decisions in force for this division, with their reasons.
    pub decisions: Vec<TieDecision>,
}

impl SeasonEnd {
    /// The decisions in force for a division: of decisions naming the same teams, the latest.
    fn decisions_for(&self, view: &CompetitionView) -> Vec<TieDecision> {
        let mut out: Vec<TieDecision> = Vec::new();
        for d in self.decisions.iter().filter(|d| d.competition == view.id) {
            let mut key = d.order.clone();
            key.sort();
            out.retain(|o| {
                let mut k = o.order.clone();
                k.sort();
                k != key
            });
            out.push(d.clone());
        }
        out
    }

    /// GT-F3: each division's qualifiers by its final standings and the officers' decisions.
    pub fn qualification(&self) -> Vec<DivisionQualifiers> {
        self.divisions
            .iter()
            .map(|view| {
                let decisions = self.decisions_for(view);
                let orders: Vec<OfficersDecision> = decisions
                    .iter()
                    .map(|d| OfficersDecision {
                        order: d.order.clone(),
                    })
                    .collect();
                DivisionQualifiers {
                    view: Arc::clone(view),
                    qualifiers: qualify::qualify(&view.competition, &view.rules, &orders)
                        .map_err(|e| e.to_string()),
                    decisions,
                }
            })
            .collect()
    }

    /// GT-F3: the playoff field, seeded, or every reason it cannot be yet.
    pub fn field(&self) -> Result<Vec<Seed>, Vec<String>> {
        let mut ready = Vec::new();
        let mut problems = Vec::new();
        for d in self.qualification() {
            match d.qualifiers {
                Ok(q) => ready.push(q),
                Err(e) => problems.push(e),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        if ready.is_empty() {
            return Err(vec![format!(
                "{} has no divisions, so no team can qualify (GT-F3).",
                self.season.name
            )]);
        }
        qualify::seed(&ready).map_err(|e| vec![e.to_string()])
    }

    /// The rules of the playoffs: the first division's (the season's divisions share them).
    pub fn rules(&self) -> Option<&Ruleset> {
        self.divisions.first().map(|v| &v.rules)
    }

    /// The day after the last match of the divisions: the playoffs' earliest start.
    pub fn divisions_end(&self) -> Option<Date> {
        self.divisions
            .iter()
            .flat_map(|v| {
                v.competition
                    .rounds
                    .iter()
                    .flat_map(|r| r.matches().filter_map(|m| r.date_of(m)))
            })
            .max()
            .map(|d| d.tomorrow().unwrap_or(d))
    }

    /// The divisions with matches still to play (a dropped team's left out are not, GT-M5).
    pub fn running(&self) -> Vec<String> {
        self.divisions
            .iter()
            .filter(|v| {
                v.sheet.teams.iter().flat_map(|t| &t.entries).any(|e| {
                    e.opponent.is_some()
                        && e.kind == arbiter_core::scoring::EntryKind::Pending
                        && e.excluded.is_none()
                })
            })
            .map(|v| v.record.name.clone())
            .collect()
    }

    /// The awards list (GT-F1, GT-F2, GT-F3) of the divisions, with the playoff's finish.
    pub fn awards(&self) -> Result<AwardsList, String> {
        let divisions: Vec<Division<'_>> = self
            .divisions
            .iter()
            .map(|v| Division {
                competition: &v.competition,
                rules: &v.rules,
            })
            .collect();
        let finish = self.playoffs.as_ref().and_then(Drawn::finish);
        awards::awards(&divisions, finish.as_ref(), TOP_SCORES).map_err(|e| e.to_string())
    }

    /// GT-O3: the facts of the report at `moment`, drafted from the season as it stands.
    pub fn report(&self, moment: Moment) -> Result<MediaReport, String> {
        let divisions: Vec<Division<'_>> = self
            .divisions
            .iter()
            .map(|v| Division {
                competition: &v.competition,
                rules: &v.rules,
            })
            .collect();
        let finish = self.playoffs.as_ref().and_then(Drawn::finish);
        media::report(
            &format!("{} {}", self.league.name, self.season.name),
            moment,
            &divisions,
            finish.as_ref(),
            TOP_SCORES,
        )
        .map_err(|e| e.to_string())
    }

    /// The versions of the `moment` report, oldest first.
    pub fn versions(&self, moment: Moment) -> Vec<&MediaReportVersion> {
        self.reports.iter().filter(|r| r.moment == moment).collect()
    }

    /// The latest published version of the `moment` report.
    pub fn published(&self, moment: Moment) -> Option<&MediaReportVersion> {
        self.versions(moment)
            .into_iter()
            .rev()
            .find(|r| r.published)
    }
}

/// The school of `team`, a team of the playoffs or of a division of the season.
fn school_of<'s>(s: &'s SeasonEnd, team: &TeamId) -> Option<&'s str> {
    s.playoffs
        .iter()
        .map(|d| &d.view.competition)
        .chain(s.divisions.iter().map(|v| &v.competition))
        .find_map(|c| c.team(team))
        .and_then(|t| t.school.as_deref())
}

/// GT-F3, GT-O3: may `account` decide a playoff match or tie between `teams`? The table's
/// `DecidePlayoff`, the teams' schools the parties: the President not where his own school is
/// one, the Vice-President then.
pub fn permit_decision(
    s: &SeasonEnd,
    account: Option<&Account>,
    teams: &[&TeamId],
) -> Result<Acting, WebError> {
    let schools: Vec<&str> = teams.iter().filter_map(|t| school_of(s, t)).collect();
    auth::permit(
        account,
        s.league.id,
        arbiter_core::rules::permissions::Action::DecidePlayoff,
        arbiter_core::rules::permissions::Target::Parties(&schools),
    )
}

/// Turns a store refusal into the sentence a person reads.
fn refused(e: StoreError) -> WebError {
    match e {
        StoreError::Stale(m) | StoreError::Conflict(m) | StoreError::Invalid(m) => {
            WebError::Conflict(arbiter_core::record::text::sentence(&m))
        }
        e => WebError::from_write(e),
    }
}

/// GT-F3: the officers order teams a division's criteria cannot separate, with why. Core's
/// qualification must accept the order before it is kept.
pub async fn decide_tie(
    state: &AppState,
    s: &SeasonEnd,
    division: &str,
    order: &[TeamId],
    reason: &str,
    account: Option<&Account>,
) -> Result<(), WebError> {
    let acting = permit_decision(s, account, &order.iter().collect::<Vec<_>>())?;
    let Some(view) = s.divisions.iter().find(|v| v.record.slug == division) else {
        return Err(WebError::Refused(format!(
            "{} has no division “{division}” to decide a tie in (GT-F3).",
            s.season.name
        )));
    };
    if reason.trim().is_empty() {
        return Err(WebError::Refused(
            "Say why the officers ordered the tied teams so (a lot drawn, a playoff game, a meeting's vote): it is kept in the history (GT-F3).".into(),
        ));
    }
    let mut orders: Vec<OfficersDecision> = s
        .decisions_for(view)
        .into_iter()
        .map(|d| OfficersDecision { order: d.order })
        .collect();
    let mut key = order.to_vec();
    key.sort();
    orders.retain(|o| {
        let mut k = o.order.clone();
        k.sort();
        k != key
    });
    orders.push(OfficersDecision {
        order: order.to_vec(),
    });
    qualify::qualify(&view.competition, &view.rules, &orders)
        .map_err(|e| WebError::Refused(e.to_string()))?;
    state
        .store()
        .record_tie_decision(view.id, order, reason.trim(), &acting.actor())
        .await
        .map_err(refused)?;
    state.invalidate();
    Ok(())
}

/// The playoff competition's slug: `playoffs-2026-27`.
pub fn playoff_slug(season: &str) -> String {
    format!("playoffs-{season}")
}

/// GT-F3, GT-F5: draws the playoffs from the seeded field: the competition of the qualifiers'
/// teams and rosters, its first round (a knockout's, or the whole round robin) on the playoff
/// calendar from `from` with the bye date for all schools. Says the field.
pub async fn draw(
    state: &AppState,
    s: &SeasonEnd,
    from: Option<Date>,
    acting: &Acting,
) -> Result<PlayoffRecord, WebError> {
    if s.playoffs.is_some() {
        return Err(WebError::Conflict(format!(
            "The playoffs of {} are drawn already; the bracket is on the playoffs page.",
            s.season.name
        )));
    }
    let field = s.field().map_err(|p| WebError::Refused(p.join(" ")))?;
    let Some((first, rules)) = s.divisions.first().map(|v| (v, &v.rules)) else {
        return Err(WebError::Refused(
            "The season has no divisions (GT-F3).".into(),
        ));
    };
    let Some(playoffs) = &rules.playoffs else {
        return Err(WebError::Refused(format!(
            "GT-F3: the ruleset {} has no playoffs; add a [playoffs] section.",
            rules.name
        )));
    };
    let Some(calendar) = state.store().school_calendar(&s.season).await? else {
        return Err(WebError::Refused(format!(
            "The season {} has no first and last days, so the playoff calendar cannot be placed (GT-F5); give its days on the season set-up page first.",
            s.season.name
        )));
    };
    let from = from
        .or_else(|| s.divisions_end())
        .unwrap_or(calendar.starts_on);
    // The teams with their rosters, from the divisions they qualified in.
    let teams = field
        .iter()
        .filter_map(|seed| {
            s.divisions
                .iter()
                .flat_map(|v| &v.competition.teams)
                .find(|t| t.id == seed.team)
                .cloned()
        })
        .collect::<Vec<_>>();
    let mut rounds: Vec<Round> = match playoffs.format {
        PlayoffFormat::RoundRobin => {
            bracket::round_robin(&field).map_err(|e| WebError::Refused(format!("GT-F3: {e}")))?
        }
        PlayoffFormat::Knockout => {
            let none = Competition::default();
            let b = bracket::knockout(&field, &none, &[], rules)
                .map_err(|e| WebError::Refused(e.to_string()))?;
            vec![Round {
                number: 1,
                date: None,
                pairings: b.pairings(1),
            }]
        }
    };
    let total = match playoffs.format {
        PlayoffFormat::RoundRobin => rounds.len(),
        PlayoffFormat::Knockout => {
            bracket::knockout_rounds(u32::try_from(field.len()).unwrap_or(u32::MAX))
        }
    };
    let days: PlayoffCalendar =
        bracket::playoff_calendar(total, from, &calendar, &rules.match_days)
            .map_err(|e| WebError::Refused(e.to_string()))?;
    for r in &mut rounds {
        let i = usize::try_from(r.number).unwrap_or(0).saturating_sub(1);
        r.date = days.rounds.get(i).copied();
    }
    let competition = Competition {
        name: format!("Playoffs {}", s.season.name),
        teams,
        rounds,
    };
    let new = NewCompetition {
        slug: playoff_slug(&s.season.slug),
        name: "Playoffs".into(),
        rules: first.record.rules.clone(),
    };
    let record = state
        .store()
        .draw_playoffs(
            s.season.id,
            &new,
            &competition,
            &field,
            &days,
            &acting.actor(),
        )
        .await
        .map_err(refused)?;
    state.invalidate();
    Ok(record)
}

/// A deciding game as a form or a JSON body sends it.
#[derive(Debug, Clone, Default, serde::Deserialize, utoipa::ToSchema)]
pub struct DecidingInput {
    /// The knockout round of the drawn match.
    pub round: u32,
    /// The drawn match's home team (its id).
    pub home: String,
    /// `home` or `away`: the side whose player had Black.
    pub black: String,
    /// From the drawn match's home side: `1-0`, `1/2-1/2`, `0-1`.
    pub result: String,
    /// Where and when it was played, or anything the officers note.
    #[serde(default)]
    pub reason: String,
}

/// GT-F3: the President enters the Armageddon or playoff game deciding a drawn knockout match;
/// core's bracket must accept it (the match is drawn and awaits that game).
pub async fn enter_deciding_game(
    state: &AppState,
    s: &SeasonEnd,
    input: &DecidingInput,
    account: Option<&Account>,
) -> Result<(), WebError> {
    let Some(drawn) = &s.playoffs else {
        return Err(WebError::Refused(
            "The playoffs are not drawn yet, so there is no drawn match to decide (GT-F3).".into(),
        ));
    };
    let bracket = drawn.bracket().map_err(WebError::Refused)?;
    let found = bracket
        .rounds
        .iter()
        .filter(|r| r.number == input.round)
        .flat_map(|r| &r.matches)
        .find(|m| m.home.as_ref().is_some_and(|h| h.team.0 == input.home));
    let Some(m) = found else {
        return Err(WebError::Refused(format!(
            "Round {} of the playoffs has no match with {} at home; choose the drawn match from the playoffs page (GT-F3).",
            input.round, input.home
        )));
    };
    let teams: Vec<&TeamId> = [&m.home, &m.away]
        .into_iter()
        .flatten()
        .map(|e| &e.team)
        .collect();
    let acting = permit_decision(s, account, &teams)?;
    let bracket::MatchState::Drawn { awaiting, .. } = &m.state else {
        return Err(WebError::Refused(format!(
            "Round {}'s match of {} is not drawn and awaiting a game, so no deciding game is entered for it (GT-F3).",
            input.round,
            m.home.as_ref().map_or("?", |h| h.name.as_str())
        )));
    };
    let black = Side::from_code(input.black.trim()).ok_or_else(|| {
        WebError::Refused(format!(
            "“{}” is not a side: say who had Black, home or away.",
            input.black
        ))
    })?;
    let result = game_result(&input.result)?;
    // The match may be recorded with its sides the other way round: the game's home side is
    // the recorded match's.
    let recorded_home = drawn
        .view
        .competition
        .rounds
        .iter()
        .filter(|r| r.number == input.round)
        .flat_map(Round::matches)
        .find(|x| x.home.0 == input.home || x.away.0 == input.home)
        .map(|x| x.home.clone());
    let game = DecidingGame {
        round: input.round,
        team: recorded_home.unwrap_or_else(|| TeamId(input.home.clone())),
        kind: *awaiting,
        black,
        result,
    };
    if !matches!(
        game.kind,
        PlayoffTiebreak::Armageddon | PlayoffTiebreak::PlayoffGame
    ) {
        return Err(WebError::Refused(
            "This match awaits no game (GT-F3).".into(),
        ));
    }
    let mut games = bracket::in_force(&drawn.entered());
    games.push(game.clone());
    bracket::knockout(
        &drawn.record.field,
        &drawn.view.competition,
        &games,
        &drawn.view.rules,
    )
    .map_err(|e| WebError::Refused(e.to_string()))?;
    let reason = input.reason.trim();
    state
        .store()
        .record_deciding_game(
            drawn.view.id,
            &game,
            None,
            (!reason.is_empty()).then_some(reason),
            &acting.actor(),
        )
        .await
        .map_err(refused)?;
    state.invalidate();
    Ok(())
}

/// GT-F3: the game a drawn knockout match awaits, in the words of its button: "the Armageddon
/// game".
pub fn awaited_words(kind: PlayoffTiebreak) -> &'static str {
    match kind {
        PlayoffTiebreak::Armageddon => "the Armageddon game",
        PlayoffTiebreak::PlayoffGame => "the playoff game",
        _ => "the deciding game",
    }
}

/// A drawn knockout match awaiting its deciding game, as its match page offers the form.
#[derive(Debug, Clone)]
pub struct AwaitedGame {
    pub round: u32,
    /// The bracket's home team (its id), which the write path finds the match by.
    pub home_id: String,
    pub home: String,
    pub away: String,
    /// The bracket's sentence: drawn, and what decides it.
    pub sentence: String,
    pub kind: PlayoffTiebreak,
    /// The officers' playoffs page, whose `game` step enters it.
    pub action: String,
}

/// GT-F3: the deciding game the knockout match of `team` in `round` awaits, when `account` may
/// enter it (the table's `DecidePlayoff`, the teams' schools the parties, GT-O3); `None` when
/// the match is not drawn or the person may not.
pub async fn awaited_game(
    state: &AppState,
    view: &CompetitionView,
    round: u32,
    team: &TeamId,
    account: Option<&Account>,
) -> Result<Option<AwaitedGame>, WebError> {
    if account.is_none() || !view.knockout() {
        return Ok(None);
    }
    let tree = crate::app::site::one(state, &view.league.slug).await?;
    let s = load(state, &tree, &view.season.slug).await?;
    let Some(bracket) = s.playoffs.as_ref().and_then(|d| d.bracket().ok()) else {
        return Ok(None);
    };
    let found = bracket
        .rounds
        .iter()
        .filter(|r| r.number == round)
        .flat_map(|r| &r.matches)
        .find(|m| {
            [&m.home, &m.away]
                .into_iter()
                .flatten()
                .any(|e| &e.team == team)
        });
    let Some(m) = found else { return Ok(None) };
    let (bracket::MatchState::Drawn { awaiting, sentence }, Some(home), Some(away)) =
        (&m.state, &m.home, &m.away)
    else {
        return Ok(None);
    };
    if permit_decision(&s, account, &[&home.team, &away.team]).is_err() {
        return Ok(None);
    }
    Ok(Some(AwaitedGame {
        round,
        home_id: home.team.0.clone(),
        home: home.name.clone(),
        away: away.name.clone(),
        sentence: sentence.clone(),
        kind: *awaiting,
        action: format!(
            "{}/qualification",
            season_href(&s.league.slug, &s.season.slug)
        ),
    }))
}

/// A correction of an entered deciding game, as the playoffs page's form sends it.
#[derive(Debug, Clone, Default)]
pub struct CorrectionInput {
    /// The entered game corrected (its number in the store).
    pub of: i64,
    /// `home` or `away`: the side whose player had Black.
    pub black: String,
    /// From the drawn match's home side: `1-0`, `1/2-1/2`, `0-1`.
    pub result: String,
    /// Why it is corrected: kept in the history.
    pub reason: String,
}

/// A game's result as the forms write it, from the drawn match's home side.
fn game_result(text: &str) -> Result<GameResult, WebError> {
    match text.trim() {
        "1-0" => Ok(GameResult::HomeWin),
        "1/2-1/2" | "½-½" => Ok(GameResult::Draw),
        "0-1" => Ok(GameResult::AwayWin),
        other => Err(WebError::Refused(format!(
            "“{other}” is not a game's result: write 1-0, 1/2-1/2 or 0-1, from the home side."
        ))),
    }
}

/// GT-F3: the President corrects a deciding game entered wrongly: a new version naming the one
/// it corrects, with why; the entry corrected stays in the store and the history. Core's
/// `bracket::correct` must accept it (the same match's game, the rounds paired since unchanged).
pub async fn correct_deciding_game(
    state: &AppState,
    s: &SeasonEnd,
    input: &CorrectionInput,
    account: Option<&Account>,
) -> Result<(), WebError> {
    let Some(drawn) = &s.playoffs else {
        return Err(WebError::Refused(
            "The playoffs are not drawn yet, so there is no deciding game to correct (GT-F3)."
                .into(),
        ));
    };
    let Some(old) = drawn.deciding.iter().find(|g| g.id == input.of) else {
        return Err(WebError::Refused(format!(
            "There is no deciding game {} in these playoffs to correct; choose it from the playoffs page (GT-F3).",
            input.of
        )));
    };
    // The parties are the teams of the match the game decided.
    let teams: Vec<&TeamId> = drawn
        .view
        .competition
        .rounds
        .iter()
        .filter(|r| r.number == old.game.round)
        .flat_map(Round::matches)
        .find(|m| m.home == old.game.team || m.away == old.game.team)
        .map_or_else(|| vec![&old.game.team], |m| vec![&m.home, &m.away]);
    let acting = permit_decision(s, account, &teams)?;
    let reason = input.reason.trim();
    if reason.is_empty() {
        return Err(WebError::Refused(
            "Say why the deciding game is corrected (the score sheet, the arbiter's report): the reason is kept with both versions in the history.".into(),
        ));
    }
    let black = Side::from_code(input.black.trim()).ok_or_else(|| {
        WebError::Refused(format!(
            "“{}” is not a side: say who had Black, home or away.",
            input.black
        ))
    })?;
    let game = DecidingGame {
        black,
        result: game_result(&input.result)?,
        ..old.game.clone()
    };
    bracket::correct(
        &drawn.record.field,
        &drawn.view.competition,
        &drawn.entered(),
        input.of,
        &game,
        &drawn.view.rules,
    )
    .map_err(|e| WebError::Refused(e.to_string()))?;
    state
        .store()
        .record_deciding_game(
            drawn.view.id,
            &game,
            Some(input.of),
            Some(reason),
            &acting.actor(),
        )
        .await
        .map_err(refused)?;
    state.invalidate();
    Ok(())
}

/// The next knockout round the bracket can pair: every match of the round before decided, its
/// pairings not yet in the playoff competition. `None` when there is none to pair.
pub fn next_round(drawn: &Drawn) -> Option<Round> {
    let b = drawn.bracket().ok()?;
    let have = drawn
        .view
        .competition
        .rounds
        .iter()
        .map(|r| r.number)
        .max()
        .unwrap_or(0);
    let next = b.ready_to_pair(have)?;
    let pairings = b.pairings(next);
    Some(Round {
        number: next,
        date: drawn
            .record
            .days
            .get(usize::try_from(next).unwrap_or(0).saturating_sub(1))
            .copied(),
        pairings,
    })
}

/// GT-F3: pairs the next knockout round once the round before it is decided.
pub async fn pair_next_round(
    state: &AppState,
    s: &SeasonEnd,
    acting: &Acting,
) -> Result<u32, WebError> {
    let Some(drawn) = &s.playoffs else {
        return Err(WebError::Refused(
            "The playoffs are not drawn yet (GT-F3).".into(),
        ));
    };
    let Some(round) = next_round(drawn) else {
        return Err(WebError::Refused(
            "No round can be paired now: the round being played is not decided yet, or the final is (GT-F3).".into(),
        ));
    };
    state
        .store()
        .pair_round(
            drawn.view.id,
            drawn.view.stored.version,
            &round,
            &acting.actor(),
        )
        .await
        .map_err(refused)?;
    state.invalidate();
    Ok(round.number)
}

/// GT-O3: keeps a version of the `moment` report as the Vice-President edited it, a draft or
/// published; `seen` is the version they edited.
pub async fn save_report(
    state: &AppState,
    s: &SeasonEnd,
    moment: Moment,
    seen: u32,
    (text, markdown): (&str, &str),
    publish: bool,
    acting: &Acting,
) -> Result<MediaReportVersion, WebError> {
    let saved = state
        .store()
        .record_media_report(
            s.league.id,
            s.season.id,
            moment,
            seen,
            (text, markdown),
            publish,
            &acting.actor(),
        )
        .await
        .map_err(refused)?;
    state.invalidate();
    Ok(saved)
}

/// For the command line: the season `season` of league `league` as its end reads it, or the
/// sentence saying why not.
pub async fn read(state: &AppState, league: &str, season: &str) -> Result<SeasonEnd, String> {
    let tree = crate::app::site::one(state, league)
        .await
        .map_err(|e| e.message())?;
    load(state, &tree, season).await.map_err(|e| e.message())
}

/// For the command line: the account `email` acting in `league` for `action`, as the permission
/// table allows, or the sentence saying why not.
pub async fn acting_as(
    state: &AppState,
    email: &str,
    s: &SeasonEnd,
    action: arbiter_core::rules::permissions::Action,
) -> Result<Acting, String> {
    let email = arbiter_core::record::text::Email::parse(email)?;
    let user = state
        .store()
        .user_by_email(&email)
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| {
            format!("There is no account {email} in this database; `arbiter user add` makes one.")
        })?;
    let account = crate::http::auth::Accounts::new(state.store().clone())
        .load(user)
        .await
        .map_err(|e| e.to_string())?;
    crate::http::auth::permit(
        Some(&account),
        s.league.id,
        action,
        arbiter_core::rules::permissions::Target::League,
    )
    .map_err(|e| e.message())
}
