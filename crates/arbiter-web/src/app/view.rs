//! One competition as the pages and the API read it: the stored record and what core computed
//! from it (score sheet, standings, explanation), once per data version, with the pages drawn
//! from it. Nothing here decides a rule; it finds, for a page, what core already decided.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

use arbiter_core::rating::rated_games::{self, RatedCompetition, Stage};
use arbiter_core::record::model::{
    Board, Competition, Match, MatchOutcome, Pairing, Player, Round, Side, TeamId,
};
use arbiter_core::record::text::PostalAddress;
use arbiter_core::rules::ruleset::Ruleset;
use arbiter_core::rules::validate::{Finding, Severity};
use arbiter_core::scoring::standings::{self, Explanation, Standings};
use arbiter_core::scoring::{self, EntryKind, Exclusion, RoundEntry, ScoreSheet};
use arbiter_core::season::fixture::{self, Fixture, Place};
use arbiter_core::season_end::race::Race;
use arbiter_store::{CompetitionId, CompetitionRecord, League, Season, StoredCompetition};
use axum::body::Bytes;
use axum::http::HeaderValue;

use crate::http::error::{Format, WebError};
use crate::ui::link::Link;
use crate::ui::words::{self, FNV_OFFSET, fnv1a};

/// Which page of a competition, with its ids already resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Page {
    /// HTML: standings and rounds; JSON: the competition's summary.
    Overview,
    Standings,
    Crosstable,
    Rounds,
    Round(u32),
    /// An index into `Competition::teams`, and the league's day it is drawn on: the team's
    /// next match is the first from that day (issue 32).
    Team(usize, jiff::civil::Date),
    /// A team index and a roster position.
    Player(usize, usize),
    Explain,
    /// The rating list (GT-R3, GT-R4), in an order.
    Ratings(RatingOrder),
    /// What the competition breaks of its rules (JSON only: the officers' page is private).
    Findings,
    /// The hall's screen (issue 14): standings, the last results and the next pairings, large.
    Projector,
    /// The results bulletin (issue 14): the last round's results, the standings with their
    /// tiebreaks and the next pairings, to print or mail.
    Bulletin,
    /// The race while the season runs (issue 15; JSON only: the standings page shows it).
    Race,
}

impl Page {
    /// Whether the page shows the race (issues 15, 36): the standings and a team's page, as
    /// HTML or as the race's JSON.
    pub fn shows_race(self) -> bool {
        matches!(
            self,
            Page::Overview | Page::Standings | Page::Rounds | Page::Race | Page::Team(..)
        )
    }
}

/// The rating list's order, from its column headers (`?sort=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum RatingOrder {
    /// Highest rating first (the order boards are set by, GT-M11).
    #[default]
    Rating,
    /// By name.
    Name,
    /// By team, then rating.
    Team,
    /// Most rated games first.
    Games,
    /// Largest gain this season first.
    Change,
}

impl RatingOrder {
    /// Every order, as the headers offer them.
    pub const ALL: [RatingOrder; 5] = [
        RatingOrder::Rating,
        RatingOrder::Name,
        RatingOrder::Team,
        RatingOrder::Games,
        RatingOrder::Change,
    ];

    /// The word in the address: `rating`, `name`, `team`, `games`, `change`.
    pub fn code(self) -> &'static str {
        match self {
            RatingOrder::Rating => "rating",
            RatingOrder::Name => "name",
            RatingOrder::Team => "team",
            RatingOrder::Games => "games",
            RatingOrder::Change => "change",
        }
    }

    /// The order an address names; an unknown word is the default order.
    pub fn from_code(code: Option<&str>) -> RatingOrder {
        RatingOrder::ALL
            .into_iter()
            .find(|o| Some(o.code()) == code)
            .unwrap_or_default()
    }
}

/// A drawn page and its ETag, filled once.
pub type PageCell = tokio::sync::OnceCell<(HeaderValue, Bytes)>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PageKey {
    pub format: Format,
    pub page: Page,
}

#[derive(Debug)]
pub struct CompetitionView {
    pub id: CompetitionId,
    checked: Checked,
    /// The competition's version and content, hashed: every page's ETag starts from it.
    pub etag_base: u64,
    pub version: i64,
    pub league: League,
    pub season: Season,
    pub record: CompetitionRecord,
    pub competition: Arc<Competition>,
    pub rules: Ruleset,
    pub sheet: ScoreSheet,
    /// A ruleset whose criteria cannot be applied gives a sentence instead of standings.
    pub standings: Result<Standings, String>,
    /// Every game rated under the ruleset's `[rating]`, or why they could not be: replayed on
    /// the first read that shows ratings ([`CompetitionView::rated`]), as most reads do not
    /// (issue 35: a load costs less, and a view holds less).
    ratings: std::sync::OnceLock<Result<RatedCompetition, String>>,
    pub explanation: Vec<Explanation>,
    /// Everything the competition breaks of its rules (core's `check`): the record's warnings
    /// and the violations its lineups and rosters carry (issue 12).
    pub findings: Vec<Finding>,
    /// The league's published rating lists, with the entries of this competition's players,
    /// when its `[lineup] ratings = "list"` (issue 34); empty otherwise.
    pub rating_lists: Vec<arbiter_core::rating::list::RatingList>,
    teams: HashMap<String, usize>,
    players: HashMap<String, (usize, usize)>,
    /// (round number, team index) to the match's (round position, pairing position).
    matches: HashMap<(u32, usize), (usize, usize)>,
    /// Each page drawn once however many readers wait for it (issue 9, item 13).
    pages: RwLock<HashMap<PageKey, Arc<PageCell>>>,
    /// The bytes of the pages drawn so far (gzipped) and of the ratings once replayed, and
    /// about what the rest holds ([`record_bytes`]): together the view's weight in the
    /// server's cache (issue 35).
    page_bytes: std::sync::atomic::AtomicUsize,
    record_bytes: usize,
    /// The record as loaded, with the matches' ids.
    pub stored: Arc<StoredCompetition>,
    /// The race (issue 15), worked out once per data version off the request path
    /// ([`CompetitionView::work_out_race`]): a page never waits long for it.
    race: std::sync::OnceLock<Result<Race, String>>,
    race_started: std::sync::atomic::AtomicBool,
    /// Whether the competition is its season's playoffs (GT-F4).
    stage: Stage,
    /// AS-12: when an event's rosters lock and are published to every team; `None` for a
    /// league, or an event whose round 1 has no start yet.
    pub roster_lock: Option<RosterLock>,
    /// AS-12: this is the public's copy before the lock, every roster left out.
    pub rosters_withheld: bool,
    /// An event's hall (AS-1): where its matches are played and when its rounds start; `None`
    /// for a league, whose matches are at the home schools (GT-M1).
    pub hall: Option<Hall>,
    /// The site's address (`https://league.example`), for the absolute links a calendar
    /// subscribes to (issue 32); empty in a view built without a site.
    pub site: String,
}

/// An event's hall as its arbiter set it (AS-1): its venue, the clock its times are read by,
/// and when each round of this competition starts.
#[derive(Debug, Clone)]
pub struct Hall {
    /// Where the event is played: `Adelaide Convention Centre, Hall C`.
    pub venue: String,
    /// The hall's clock (`EventRecord::clock`): the league's zone, or the fixed offset of an
    /// event set before its league had one.
    pub clock: jiff::tz::TimeZone,
    /// Each round's start in the hall's time, by round number.
    pub round_starts: Vec<(u32, jiff::civil::DateTime)>,
}

/// `stored`'s hall when its season is an event the arbiter has set (AS-1).
pub async fn hall(
    store: &arbiter_store::Store,
    stored: &arbiter_store::StoredCompetition,
) -> Result<Option<Hall>, arbiter_store::StoreError> {
    let Some(event) = store.event(stored.season.id).await? else {
        return Ok(None);
    };
    let round_starts = event
        .event
        .rounds
        .iter()
        .filter(|r| r.competition == stored.record.id)
        .map(|r| (r.round, r.starts_at))
        .collect();
    Ok(Some(Hall {
        venue: event.event.venue.clone(),
        clock: event.clock(),
        round_starts,
    }))
}

/// AS-12: when `stored`'s rosters lock and are published, when its rules lock them before
/// round 1 and the event has set round 1's start.
pub async fn roster_lock(
    store: &arbiter_store::Store,
    stored: &arbiter_store::StoredCompetition,
) -> Result<Option<RosterLock>, arbiter_store::StoreError> {
    let Some((deadlines, event, first)) = first_round(store, stored).await? else {
        return Ok(None);
    };
    let hall = deadlines.roster_lock(first);
    Ok(event.instant(hall).map(|at| RosterLock {
        at,
        hall,
        clock: event.clock(),
    }))
}

/// An event competition's deadlines, its event and round 1's start, when all are set.
pub(crate) async fn first_round(
    store: &arbiter_store::Store,
    stored: &arbiter_store::StoredCompetition,
) -> Result<
    Option<(
        arbiter_core::event::event_day::EventDeadlines,
        arbiter_store::EventRecord,
        jiff::civil::DateTime,
    )>,
    arbiter_store::StoreError,
> {
    let Some(deadlines) = stored.rules.event else {
        return Ok(None);
    };
    let Some(event) = store.event(stored.season.id).await? else {
        return Ok(None);
    };
    Ok(event
        .round_start(stored.record.id, 1)
        .map(|first| (deadlines, event, first)))
}

/// The race of a view as a page finds it (issue 15).
#[derive(Debug)]
pub enum RaceState<'a> {
    /// No playoffs, or no match left.
    NoRace,
    /// Still being worked out on its thread.
    BeingWorkedOut,
    /// The race, or why it is not told.
    Told(&'a Result<Race, String>),
}

/// AS-12: the moment an event's rosters lock, as an instant and in the hall's time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterLock {
    pub at: jiff::Timestamp,
    pub hall: jiff::civil::DateTime,
    /// The hall's clock, which turns the site's clock into the hall's time.
    pub clock: jiff::tz::TimeZone,
}

impl RosterLock {
    /// The sentence a page shows in place of a roster before the lock.
    pub fn withheld_sentence(&self) -> String {
        format!(
            "AS-12: the rosters are published to every team when they lock, at {} (the hall's time); until then each roster is its team's and the arbiter's.",
            self.hall.strftime("%H:%M on %A %-d %B %Y")
        )
    }
}

/// What happened in a match, as the record and the score sheet say together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MatchStatus {
    Pending,
    /// Some boards reported, not all.
    InProgress,
    Played,
    /// GT-M7: `by` forfeited the match.
    Forfeit {
        by: Side,
    },
    DoubleForfeit,
    /// GT-M5: `by` was dropped; this match still to come scores as its forfeit.
    ForfeitAfterDrop {
        by: Side,
    },
}

/// A match with its teams' indexes, its status and score, and its GT-M5 exclusion.
#[derive(Debug, Clone)]
pub struct MatchFacts<'a> {
    pub round: u32,
    pub record: &'a Match,
    pub home: Option<usize>,
    pub away: Option<usize>,
    pub status: MatchStatus,
    pub home_points: f64,
    pub away_points: f64,
    pub excluded: Option<&'a Exclusion>,
}

/// A team Swiss match's table and each team's colours in words (`White on boards 1 and 3, …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seats {
    pub table: u32,
    pub home: String,
    pub away: String,
}

impl CompetitionView {
    /// `stage`: whether the competition is its season's playoffs, which GT-F4 rates only as
    /// the ruleset's `[playoffs] rated` says.
    pub fn new(stored: StoredCompetition, v: i64, stage: Stage) -> CompetitionView {
        CompetitionView::with_lists(stored, v, stage, Vec::new())
    }

    /// [`CompetitionView::new`] with the league's published rating lists, which its lineup
    /// checks and match pages read under `[lineup] ratings = "list"` (issue 34).
    pub fn with_lists(
        stored: StoredCompetition,
        v: i64,
        stage: Stage,
        rating_lists: Vec<arbiter_core::rating::list::RatingList>,
    ) -> CompetitionView {
        // The match pages and the account page need the stored record too (match ids, rosters);
        // the competition, its largest part, is shared with it, not copied (issue 35).
        let whole = Arc::new(stored);
        let (league, season, record) = (
            whole.league.clone(),
            whole.season.clone(),
            whole.record.clone(),
        );
        let (competition, rules, version) = (
            Arc::clone(&whole.competition),
            whole.rules.clone(),
            whole.version,
        );
        // The ETag is the competition's ids and versions, not its formatted content (issue 35):
        // every write that changes its pages bumps `version` or marks `changed_in` (the store's
        // `changes_since`), whether it wrote the competition or its league, season or schools.
        let mut base = fnv1a(FNV_OFFSET, &version.to_le_bytes());
        base = fnv1a(base, &record.id.0.to_le_bytes());
        base = fnv1a(base, &record.changed_in.to_le_bytes());
        base = fnv1a(base, &league.id.0.to_le_bytes());
        base = fnv1a(base, &season.id.0.to_le_bytes());
        let sheet = scoring::score(&competition, &rules);
        let ranked = standings::rank(&competition, &rules, &sheet, &rules.criteria);
        let explanation = match &ranked {
            Ok(s) => standings::explain(s, &competition, &rules, &sheet),
            Err(_) => Vec::new(),
        };
        let findings = arbiter_core::season::check::competition_with(
            &competition,
            &rules,
            &whole.named_lineups(),
            &rating_lists,
        );
        let mut teams = HashMap::new();
        let mut players = HashMap::new();
        for (ti, t) in competition.teams.iter().enumerate() {
            teams.entry(t.id.0.clone()).or_insert(ti);
            for (pi, p) in t.players.iter().enumerate() {
                players.entry(p.id.0.clone()).or_insert((ti, pi));
            }
        }
        let mut matches = HashMap::new();
        for (ri, r) in competition.rounds.iter().enumerate() {
            for (pi, p) in r.pairings.iter().enumerate() {
                if let Pairing::Match(m) = p {
                    for id in [&m.home, &m.away] {
                        if let Some(&t) = teams.get(&id.0) {
                            matches.entry((r.number, t)).or_insert((ri, pi));
                        }
                    }
                }
            }
        }
        let weight = record_bytes(&competition);
        CompetitionView {
            id: record.id,
            checked: Checked::new(v),
            etag_base: base,
            version,
            league,
            season,
            record,
            competition,
            rules,
            sheet,
            standings: ranked.map_err(|e| e.to_string()),
            ratings: std::sync::OnceLock::new(),
            explanation,
            findings,
            rating_lists,
            teams,
            players,
            matches,
            pages: RwLock::new(HashMap::new()),
            page_bytes: std::sync::atomic::AtomicUsize::new(0),
            record_bytes: weight,
            stored: whole,
            race: std::sync::OnceLock::new(),
            race_started: std::sync::atomic::AtomicBool::new(false),
            stage,
            roster_lock: None,
            rosters_withheld: false,
            hall: None,
            site: String::new(),
        }
    }

    /// The view with its event's hall (AS-1), which its pages and feeds show.
    pub fn with_hall(mut self, hall: Option<Hall>) -> CompetitionView {
        if let Some(h) = &hall {
            self.etag_base = fnv1a(self.etag_base, format!("{h:?}").as_bytes());
        }
        self.hall = hall;
        self
    }

    /// The view on the site at `site` (`https://league.example`, no trailing slash).
    pub fn on_site(mut self, site: &str) -> CompetitionView {
        self.site = site.to_string();
        self
    }

    /// The view with its event's roster lock (AS-12), which its ETags depend on too.
    pub fn with_roster_lock(mut self, lock: Option<RosterLock>) -> CompetitionView {
        if let Some(l) = &lock {
            self.etag_base = fnv1a(self.etag_base, format!("{l:?}").as_bytes());
        }
        self.roster_lock = lock;
        self
    }

    /// AS-12: the public's copy of this view before the rosters lock: every team's players
    /// left out, and every player a board, a lineup, an extra game or a game score names, so
    /// that no page, file or API answer names them.
    pub fn without_rosters(&self) -> CompetitionView {
        let mut stored = (*self.stored).clone();
        let c = Arc::make_mut(&mut stored.competition);
        for t in &mut c.teams {
            t.players.clear();
        }
        for m in c.rounds.iter_mut().flat_map(|r| &mut r.pairings) {
            if let arbiter_core::Pairing::Match(m) = m {
                m.extra_games.clear();
                if let MatchOutcome::Boards(boards) = &mut m.outcome {
                    for b in boards {
                        (b.home_player, b.away_player) = (None, None);
                    }
                }
            }
        }
        stored.lineups.clear();
        stored.game_scores.clear();
        let mut view = CompetitionView::with_lists(
            stored,
            self.checked(),
            self.stage,
            self.rating_lists.clone(),
        )
        .with_roster_lock(self.roster_lock.clone())
        .with_hall(self.hall.clone())
        .on_site(&self.site);
        view.etag_base = fnv1a(view.etag_base, b"rosters withheld (AS-12)");
        view.rosters_withheld = true;
        view
    }

    /// The race while the season runs (issues 15, 36): each team's best and worst final place,
    /// its label and what it needs, from the first round (a team the work budget leaves open is
    /// "not yet decided", never a guess); none when no match is left or the rules have no
    /// playoffs; the sentence when the standings cannot be computed; or still being worked
    /// out, when [`CompetitionView::work_out_race`] has not finished.
    pub fn race(&self) -> RaceState<'_> {
        if !self.has_race() {
            return RaceState::NoRace;
        }
        match self.race.get() {
            Some(told) => RaceState::Told(told),
            None => RaceState::BeingWorkedOut,
        }
    }

    /// The replay of the competition's games, or the sentence why it could not be rated;
    /// worked out on the first call (GT-F4: the playoffs rated as `[playoffs] rated` says).
    pub fn rated(&self) -> Result<&RatedCompetition, &str> {
        self.ratings
            .get_or_init(|| {
                // Weighed in the cache from now on, as the pages drawn are.
                let bytes = ratings_bytes(&self.competition);
                self.page_bytes.fetch_add(bytes, Ordering::Relaxed);
                rated_games::rate_stage(
                    &self.competition,
                    &self.rules,
                    &self.rules.rating,
                    self.stage,
                )
                .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(String::as_str)
    }

    /// GT-F3: whether the competition is its season's playoffs played as a knockout: it has a
    /// bracket, not standings, a crosstable or a race.
    pub fn knockout(&self) -> bool {
        self.stage == Stage::Playoffs
            && self
                .rules
                .playoffs
                .as_ref()
                .is_some_and(|p| p.format == arbiter_core::rules::ruleset::PlayoffFormat::Knockout)
    }

    /// Round `n`'s name: a knockout's by its bracket ("Semi-finals", "Final", GT-F3), any
    /// other competition's "Round `n`".
    pub fn round_name(&self, n: u32) -> String {
        if self.knockout() {
            let teams = u32::try_from(self.competition.teams.len()).unwrap_or(u32::MAX);
            arbiter_core::season_end::bracket::knockout_round_name(teams, n)
        } else {
            format!("Round {n}")
        }
    }

    /// A link to round `n`'s page, under its name.
    pub fn round_link(&self, n: u32) -> Link {
        Link::new(self.round_href(n), self.round_name(n))
    }

    /// What a knockout answers where a table was asked for (GT-F3): the bracket is its table.
    pub fn bracket_instead(&self, what: &str) -> WebError {
        let (l, s) = (&self.league.slug, &self.season.slug);
        WebError::NotFound {
            message: format!(
                "{} are a knockout, so they have a bracket, not {what}: each match is won or lost, and the bracket says who went through and how (GT-F3).",
                self.record.name
            ),
            links: vec![
                Link::new(crate::ui::link::playoffs_href(l, s), "The bracket"),
                Link::new(crate::ui::link::awards_href(l, s), "The awards"),
            ],
        }
    }

    /// Whether the competition has a race: playoffs in its rules, a match still to play, and
    /// not the playoffs themselves (a knockout's teams are not ranked, GT-F3).
    fn has_race(&self) -> bool {
        self.rules.playoffs.is_some()
            && self.stage == Stage::Season
            && self
                .sheet
                .teams
                .iter()
                .flat_map(|t| &t.entries)
                .any(|e| e.opponent.is_some() && e.kind == scoring::EntryKind::Pending)
    }

    /// Works the race out on a blocking thread, once per view (a division far from its end
    /// can take a second or more), and waits for it at most `wait`: true when it is told.
    /// A page drawn before then says it is being worked out, and is not kept.
    pub async fn work_out_race(self: &Arc<Self>, wait: std::time::Duration) -> bool {
        use std::sync::atomic::Ordering;
        if !self.has_race() || self.race.get().is_some() {
            return true;
        }
        if !self.race_started.swap(true, Ordering::AcqRel) {
            let view = Arc::clone(self);
            tokio::task::spawn_blocking(move || {
                let told = arbiter_core::season_end::race::race(
                    &view.competition,
                    &view.rules,
                    arbiter_core::season_end::race::DEFAULT_BUDGET,
                )
                .map_err(|e| e.to_string());
                let _ = view.race.set(told);
            });
        }
        let until = tokio::time::Instant::now() + wait;
        while self.race.get().is_none() {
            if tokio::time::Instant::now() >= until {
                return false;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        true
    }

    /// `Time control: 30 moves in 60 minutes, … (GT-M19)`, as pairing and score sheets print it.
    pub fn time_control(&self) -> Option<String> {
        let tc = self.rules.time_control.as_ref()?;
        let rule = self
            .rules
            .cite("time_control")
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        Some(format!("Time control: {}{rule}.", tc.words()))
    }

    /// The violations no officer has ruled on yet: the results under review (issue 12).
    pub fn open_violations(&self) -> impl Iterator<Item = &Finding> {
        self.findings
            .iter()
            .filter(|f| f.severity == Severity::Violation && self.stored.ruling(&f.key()).is_none())
    }

    pub fn checked(&self) -> i64 {
        self.checked.get()
    }

    pub fn confirm(&self, v: i64) {
        self.checked.raise(v);
    }

    pub fn etag(&self, key: &PageKey) -> HeaderValue {
        crate::http::answer::etag(self.etag_base, format!("{key:?}").as_bytes())
    }

    /// The page, drawn by the first reader that asks; the others wait for that drawing instead
    /// of drawing it again.
    pub async fn page(
        &self,
        key: PageKey,
        draw: impl FnOnce(&CompetitionView) -> Result<Bytes, WebError>,
    ) -> Result<(HeaderValue, Bytes), WebError> {
        let cell = {
            let found = self.pages.read().ok().and_then(|m| m.get(&key).cloned());
            match found {
                Some(cell) => cell,
                None => match self.pages.write() {
                    Ok(mut m) => Arc::clone(m.entry(key).or_default()),
                    Err(_) => Arc::default(),
                },
            }
        };
        let tag = self.etag(&key);
        let page = cell
            .get_or_try_init(|| async {
                let body = draw(self)?;
                let kept = crate::http::answer::gzip(&body).map_err(|e| {
                    tracing::error!(cause = %e, "a page could not be gzipped");
                    WebError::Internal
                })?;
                self.page_bytes.fetch_add(kept.len(), Ordering::Relaxed);
                Ok::<_, WebError>((tag, kept))
            })
            .await?;
        Ok(page.clone())
    }

    /// About how many bytes the view holds: its record and what core computed from it, counted
    /// by its parts when it was made, and the pages drawn from it, counted exactly. The server's
    /// cache weighs each view by it to stay within its budget (issue 35).
    pub fn approximate_bytes(&self) -> usize {
        self.record_bytes + self.page_bytes()
    }

    /// The bytes of the pages drawn from this view so far.
    pub fn page_bytes(&self) -> usize {
        self.page_bytes.load(Ordering::Relaxed)
    }

    pub fn team_index(&self, id: &str) -> Option<usize> {
        self.teams.get(id).copied()
    }

    /// Every dated match (of `team` only, when given) as core's `fixture` reads it: its local
    /// day and start, its place, whether it will be played (issue 32).
    pub fn fixtures(&self, team: Option<&TeamId>) -> Vec<Fixture<'_>> {
        let hall = self.hall.as_ref().map(|h| fixture::Hall {
            round_starts: &h.round_starts,
        });
        fixture::fixtures(&self.competition, &self.sheet, hall, team)
    }

    /// The clock the competition's days and times are local to (RULES.md, "Time"): an event's
    /// hall's, else the league's zone.
    pub fn clock(&self) -> jiff::tz::TimeZone {
        match &self.hall {
            Some(h) => h.clock.clone(),
            None => self.league.time_zone.tz().clone(),
        }
    }

    /// Where `f` is played, as a page and a calendar say it: the home school's name and its
    /// address when one is set (GT-M1), or the event's hall.
    pub fn place_of(&self, f: &Fixture<'_>) -> (String, Option<PostalAddress>) {
        match (f.place, &self.hall) {
            (Place::HomeSchool(school), _) => (
                school.to_string(),
                self.stored.school_address(school).cloned(),
            ),
            (Place::Hall, Some(h)) => (h.venue.clone(), None),
            (Place::Hall, None) => (self.record.name.clone(), None),
        }
    }

    /// `f`'s day and time as a page says them: `Mon 16 Nov 2026 at 15:30 (America/New_York)`,
    /// or the day alone when no time is set.
    pub fn when(&self, f: &Fixture<'_>) -> String {
        match f.start {
            Some(t) => {
                let clock = self.clock();
                let zone = match clock.iana_name() {
                    Some(name) => name.to_string(),
                    None => clock
                        .to_fixed_offset()
                        .map_or_else(|_| "the hall's time".to_string(), |o| format!("UTC{o}")),
                };
                format!(
                    "{} at {} ({zone})",
                    words::date(f.date),
                    t.strftime("%H:%M")
                )
            }
            None => words::date(f.date),
        }
    }

    /// `f`'s calendar `SEQUENCE` (core's `fixture::sequence`): its moves, from the history, and
    /// its cancellation.
    pub fn sequence_of(&self, f: &Fixture<'_>) -> u32 {
        fixture::sequence(
            self.stored.moves_of(f.round, &f.record.home),
            f.not_played.is_some(),
        )
    }

    pub fn player_index(&self, id: &str) -> Option<(usize, usize)> {
        self.players.get(id).copied()
    }

    pub fn round(&self, number: u32) -> Option<&Round> {
        self.competition.rounds.iter().find(|r| r.number == number)
    }

    /// Rounds in number order.
    pub fn rounds(&self) -> Vec<&Round> {
        let mut r: Vec<&Round> = self.competition.rounds.iter().collect();
        r.sort_by_key(|r| r.number);
        r
    }

    /// Why round `round`'s match hosted by `home`, or its bye to `home`, is not C.04.6's pairing:
    /// the change by hand before it was published, with its reason (issue 17) and the absolute
    /// criteria it overrode (issue 30).
    pub fn changed_by_hand(&self, round: u32, home: &TeamId) -> Option<&arbiter_store::HandChange> {
        self.stored.hand_changes.iter().rev().find(|c| {
            c.round == round && (c.matches.contains(home) || c.bye.as_ref() == Some(home))
        })
    }

    pub fn team_name(&self, id: &TeamId) -> String {
        self.competition.team_name(id)
    }

    pub fn player(&self, id: &str) -> Option<(&Player, usize)> {
        let (t, p) = self.player_index(id)?;
        Some((&self.competition.teams[t].players[p], t))
    }

    /// The place of a team in the standings (`"2-3"` when shared, AS-18).
    pub fn place(&self, team: usize) -> Option<&str> {
        let s = self.standings.as_ref().ok()?;
        s.rows
            .iter()
            .find(|r| r.team == team)
            .map(|r| r.place.as_str())
    }

    /// Teams in standings order (the competition's order when there are no standings).
    pub fn ranked_teams(&self) -> Vec<usize> {
        match &self.standings {
            Ok(s) => s.rows.iter().map(|r| r.team).collect(),
            Err(_) => (0..self.competition.teams.len()).collect(),
        }
    }

    /// The score-sheet entry of `team` against `opponent` in `round`.
    pub fn entry(&self, team: usize, round: u32, opponent: usize) -> Option<&RoundEntry> {
        self.sheet
            .teams
            .get(team)?
            .entries
            .iter()
            .find(|e| e.round == round && e.opponent == Some(opponent))
    }

    /// The match `team` played in `round`.
    pub fn match_of(&self, round: u32, team: usize) -> Option<&Match> {
        let &(ri, pi) = self.matches.get(&(round, team))?;
        match self.competition.rounds.get(ri)?.pairings.get(pi)? {
            Pairing::Match(m) => Some(m),
            Pairing::Bye(_) => None,
        }
    }

    pub fn facts<'a>(&'a self, round: u32, m: &'a Match) -> MatchFacts<'a> {
        let home = self.team_index(&m.home.0);
        let away = self.team_index(&m.away.0);
        let entry = match (home, away) {
            (Some(h), Some(a)) => self.entry(h, round, a),
            _ => None,
        };
        let kind = entry.map(|e| e.kind);
        let status = match &m.outcome {
            MatchOutcome::Forfeit { by } => MatchStatus::Forfeit { by: *by },
            MatchOutcome::DoubleForfeit => MatchStatus::DoubleForfeit,
            MatchOutcome::Boards(_) => match kind {
                Some(EntryKind::Played) => MatchStatus::Played,
                _ if entry.is_some_and(|e| {
                    e.boards
                        .iter()
                        .any(|b| b.outcome != arbiter_core::record::model::GameOutcome::Pending)
                }) =>
                {
                    MatchStatus::InProgress
                }
                _ => MatchStatus::Pending,
            },
            MatchOutcome::Pending => match kind {
                Some(EntryKind::ForfeitLoss) => MatchStatus::ForfeitAfterDrop { by: Side::Home },
                Some(EntryKind::ForfeitWin) => MatchStatus::ForfeitAfterDrop { by: Side::Away },
                _ => MatchStatus::Pending,
            },
        };
        MatchFacts {
            round,
            record: m,
            home,
            away,
            status,
            home_points: entry.map_or(0.0, |e| e.game_points),
            away_points: entry.map_or(0.0, |e| e.opponent_game_points),
            excluded: entry.and_then(|e| e.excluded.as_ref()),
        }
    }

    /// At a team Swiss (issue 32, item 29), where a match sits: its table in round `round` and
    /// each team's colours down the boards; `None` elsewhere, where home and visitors say it.
    pub fn seats(&self, round: u32, m: &Match) -> Option<Seats> {
        if !arbiter_core::pairing::swiss::paired_round_by_round(&self.rules) {
            return None;
        }
        use arbiter_core::pairing::swiss::seat;
        let table = self.round(round).and_then(|r| seat::table(r, &m.home))?;
        Some(Seats {
            table,
            home: seat::colours_in_words(&self.rules, m, Side::Home),
            away: seat::colours_in_words(&self.rules, m, Side::Away),
        })
    }

    /// The boards of a match, board 1 first (none for a forfeited or pending match).
    pub fn boards(m: &Match) -> &[Board] {
        match &m.outcome {
            MatchOutcome::Boards(b) => b,
            _ => &[],
        }
    }

    /// The rule the ruleset cites for its forfeit scoring (GT-M7 in the gthscl preset).
    pub fn forfeit_rule(&self) -> Option<&str> {
        self.rules.cite("forfeit_match")
    }
}

/// Something computed at one data version, confirmed again when a later version leaves it as
/// it was.
#[derive(Debug)]
pub struct Checked(AtomicI64);

impl Checked {
    pub fn new(v: i64) -> Checked {
        Checked(AtomicI64::new(v))
    }

    pub fn get(&self) -> i64 {
        self.0.load(Ordering::Acquire)
    }

    pub fn raise(&self, v: i64) {
        self.0.fetch_max(v, Ordering::AcqRel);
    }
}

/// About how many bytes a view of `c` holds besides its pages and its ratings: the record
/// (held once, shared with `stored`), the score sheet, the standings, the explanation, the
/// findings and the indexes, by its parts. Calibrated on the benchmark's 8-team divisions (28
/// matches, 112 boards), where a server's memory grew by about 120 KB for each view read
/// (docs/benchmarks.md, "Many competitions").
fn record_bytes(c: &Competition) -> usize {
    const BASE: usize = 32 * 1024;
    const PER_TEAM: usize = 1536;
    const PER_PLAYER: usize = 400;
    const PER_MATCH: usize = 850;
    const PER_BOARD: usize = 350;
    let (matches, boards) = match_and_board_count(c);
    let players: usize = c.teams.iter().map(|t| t.players.len()).sum();
    BASE + c.teams.len() * PER_TEAM
        + players * PER_PLAYER
        + matches * PER_MATCH
        + boards * PER_BOARD
}

/// About what a replay of the ratings holds once worked out: each board's game, rated, with
/// its player's standing before and after.
fn ratings_bytes(c: &Competition) -> usize {
    const PER_BOARD: usize = 500;
    match_and_board_count(c).1 * PER_BOARD
}

fn match_and_board_count(c: &Competition) -> (usize, usize) {
    let (mut matches, mut boards) = (0, 0);
    for p in c.rounds.iter().flat_map(|r| &r.pairings) {
        if let Pairing::Match(m) = p {
            matches += 1;
            if let MatchOutcome::Boards(b) = &m.outcome {
                boards += b.len();
            }
        }
    }
    (matches, boards)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    async fn a_view() -> CompetitionView {
        let store = arbiter_store::Store::open_sqlite_memory().await.unwrap();
        store.migrate().await.unwrap();
        let demo = arbiter_demo::generate(jiff::civil::date(2026, 12, 2));
        let by = arbiter_store::Actor::default();
        arbiter_demo::write_to(&store, &demo, &by, |_, _| {})
            .await
            .unwrap();
        let league = store.leagues().await.unwrap().remove(0);
        let season = store.seasons(league.id).await.unwrap().remove(0);
        let record = store.competitions(season.id).await.unwrap().remove(0);
        let stored = store.load_competition_by_id(record.id).await.unwrap();
        CompetitionView::new(stored.unwrap(), 1, Stage::Season)
    }

    /// Issue 9, item 13: 64 readers arriving together for a page not yet drawn cause one
    /// drawing, and all 64 get its bytes.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_page_is_drawn_once_however_many_readers_wait() {
        let view = Arc::new(a_view().await);
        let drawings = Arc::new(AtomicUsize::new(0));
        let key = PageKey {
            format: Format::Html,
            page: Page::Standings,
        };
        let readers: Vec<_> = (0..64)
            .map(|_| {
                let (view, drawings) = (Arc::clone(&view), Arc::clone(&drawings));
                tokio::spawn(async move {
                    view.page(key, |_| {
                        drawings.fetch_add(1, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        Ok(Bytes::from_static(b"the standings"))
                    })
                    .await
                })
            })
            .collect();
        let mut bodies = Vec::new();
        for r in readers {
            bodies.push(r.await.unwrap().unwrap().1);
        }
        assert_eq!(drawings.load(Ordering::SeqCst), 1);
        assert!(!bodies[0].is_empty());
        assert!(bodies.iter().all(|b| b == &bodies[0]));
    }
}
