//! The server's state: the store, the data version, and what has already been computed for it.
//!
//! Each competition's score sheet, standings and explanation are computed once and kept with the
//! data version they were read at, and so is every page drawn from them. A public page asks the
//! store only for the data version and the competitions changed since the one it last saw (at
//! most once per `freshness`, one query: `Store::changes_since`), so a write to one competition
//! costs the others nothing (issue 35); a person's own page and a write ask on every request, so
//! they see at once what another server on the database wrote. The views are kept in a cache
//! bounded in bytes ([`crate::app::cache`]); each competition loads on its own, off the async
//! threads, so a cold one waits only for itself.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use arbiter_core::rating::rated_games::Stage;
use arbiter_core::record::zone::Zone;
use arbiter_core::teams::sealed::{self, Viewer};
use arbiter_store::{Clock, Store};

use crate::app::cache::{Weighed, WeighedCache};
use crate::app::view::{CompetitionView, PageCell};
use crate::http::error::{Format, WebError};
use crate::ui::link::Link;

/// Shared by every request; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("freshness", &self.inner.freshness)
            .field("today", &self.inner.today)
            .finish_non_exhaustive()
    }
}

struct Inner {
    store: Store,
    /// How long a data version read from the store is trusted before it is read again.
    freshness: Duration,
    /// A fixed "today" for the home page's week (tests, snapshots); `None`: the clock's.
    today: Option<jiff::civil::Date>,
    settings: Settings,
    version: VersionClock,
    /// The data version the changes were last read at, and each competition changed since the
    /// server started with the version of its last change (issue 35).
    changes: Mutex<ChangeLog>,
    /// Competitions by (league, season, competition) slug, within the cache's budget.
    views: WeighedCache<ViewKey, CompetitionView>,
    /// AS-12: the public's copies of events' competitions before their rosters lock, with the
    /// `etag_base` of the view each was made from.
    withheld: WeighedCache<arbiter_store::CompetitionId, Withheld>,
    /// One load at a time for each competition: after a write, 64 readers of it cause one load,
    /// while other competitions load beside it.
    loading: Mutex<HashMap<ViewKey, Arc<tokio::sync::Mutex<()>>>>,
    /// Competitions loaded from the store since the server started (tests count them).
    loads: AtomicU64,
    /// Pages that list leagues and seasons, valid for one data version.
    site: RwLock<SitePages>,
    /// The key of anonymous visitors' CSRF tokens, read from the store once.
    form_secret: tokio::sync::OnceCell<Arc<str>>,
    /// Mail being sent after the answer went out; awaited before the process ends.
    outbox: std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>,
}

pub type ViewKey = (String, String, String);

/// The default budget of the views' cache, in MiB (`arbiter serve --cache-mib`): with the rest
/// of the server (its connections, the allocator's free memory), within 256 MiB, a small
/// machine's share, whatever was read; 192 went to 303 MiB after a crawl (docs/benchmarks.md,
/// "Many competitions").
pub const DEFAULT_CACHE_MIB: usize = 128;

/// [`DEFAULT_CACHE_MIB`] in bytes.
pub const DEFAULT_CACHE_BYTES: usize = DEFAULT_CACHE_MIB * 1024 * 1024;

/// What the server knows of the changes in the store (issue 35).
#[derive(Default)]
struct ChangeLog {
    /// The data version the changes were read up to.
    synced: i64,
    /// The data version of each competition's last change, for those changed since `synced`
    /// was first read.
    last_change: HashMap<arbiter_store::CompetitionId, i64>,
}

/// The public's copy of a competition before its rosters lock (AS-12), with the `etag_base` of
/// the view it was made from.
struct Withheld {
    base: u64,
    view: Arc<CompetitionView>,
}

impl Weighed for Withheld {
    fn weight(&self) -> usize {
        self.view.approximate_bytes()
    }
}

impl Weighed for CompetitionView {
    fn weight(&self) -> usize {
        self.approximate_bytes()
    }
}

/// Whether a reader waits for the current version of a competition while another loads it.
#[derive(Debug, Clone, Copy)]
enum Wait {
    ForCurrent,
    OrServeLoaded,
}

/// The site's settings: outgoing mail, the address its links point at, and the proxies whose
/// `X-Forwarded-For` names the client (`arbiter serve --trust-proxy`).
#[derive(Debug, Clone)]
struct Settings {
    mailer: arbiter_mail::Mailer,
    base_url: String,
    trusted_proxies: Vec<std::net::IpAddr>,
    /// The clock the event's deadlines are counted by (AS-11..AS-13).
    clock: Clock,
    /// Issue 32 (item 12): the local time of day at which `arbiter serve` sends each league's
    /// GT-P2 reminders itself; `None`: it does not (`arbiter remind` from cron instead).
    remind_at: Option<jiff::civil::Time>,
    /// How many bytes the competitions' views may hold together (issue 35).
    cache_bytes: usize,
}

impl Default for Settings {
    /// A mail folder beside the database, and links to a local server.
    fn default() -> Settings {
        Settings {
            mailer: arbiter_mail::Mailer::folder("mail"),
            base_url: "http://localhost:8080".into(),
            trusted_proxies: Vec::new(),
            clock: Clock::System,
            remind_at: None,
            cache_bytes: DEFAULT_CACHE_BYTES,
        }
    }
}

#[derive(Default)]
struct SitePages {
    version: i64,
    pages: HashMap<SiteKey, Arc<SitePage>>,
    /// The pages of the version before, served while their successors are drawn.
    previous: HashMap<SiteKey, Arc<SitePage>>,
}

/// A site page at one data version, and whether a reader has taken on drawing it.
#[derive(Default)]
pub(crate) struct SitePage {
    pub cell: PageCell,
    drawing: AtomicBool,
}

impl SitePage {
    /// For the first reader to ask, the claim to draw the page; `None` while another holds it.
    pub fn claim(&self) -> Option<Claim<'_>> {
        (!self.drawing.swap(true, Ordering::AcqRel)).then_some(Claim { page: self })
    }
}

/// A reader's claim on drawing a site page, given back when it is dropped without the page
/// drawn: the drawing failed, or the reader went away and its draw was cancelled. The next
/// reader then draws it, instead of every reader being served the page before for good.
pub(crate) struct Claim<'a> {
    page: &'a SitePage,
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if !self.page.cell.initialized() {
            self.page.drawing.store(false, Ordering::Release);
        }
    }
}

/// The pages above a competition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SiteKey {
    /// The home page, by the quarter hour of UTC it was drawn in (each league's day turns at one).
    Home(Format, i64),
    Leagues(Format),
    League(Format, String),
    Season(Format, String, String),
    /// A season's public end page (`playoffs`, `awards`): league, season, which, and what
    /// the public may see of the season now (`season_end::public_sight`, AS-12).
    SeasonEnd(Format, String, String, &'static str, u64),
}

struct VersionClock {
    value: AtomicI64,
    known: AtomicBool,
    /// Reads of the version begun, and the number of the latest one that succeeded: a reader
    /// that waited for `refresh` takes the value of a read begun after it asked.
    begun: AtomicU64,
    settled: AtomicU64,
    /// Milliseconds since `epoch` when `value` was read.
    read_at: AtomicU64,
    epoch: Instant,
    refresh: tokio::sync::Mutex<()>,
}

/// How long a data version is trusted by default: a write by another server shows within it;
/// this server's own writes call [`AppState::invalidate`] and show at once.
pub const DEFAULT_FRESHNESS: Duration = Duration::from_millis(500);

impl AppState {
    pub fn new(store: Store) -> AppState {
        AppState::build(store, DEFAULT_FRESHNESS, None, Settings::default())
    }

    /// Where invitations and reset links go, and the address they point at
    /// (`https://league.example.org`; an `https` address also marks cookies `Secure`).
    pub fn with_mail(self, mailer: arbiter_mail::Mailer, base_url: &str) -> AppState {
        let i = &self.inner;
        let settings = Settings {
            mailer,
            base_url: base_url.trim_end_matches('/').to_string(),
            trusted_proxies: i.settings.trusted_proxies.clone(),
            clock: i.settings.clock,
            remind_at: i.settings.remind_at,
            cache_bytes: i.settings.cache_bytes,
        };
        AppState::build(i.store.clone(), i.freshness, i.today, settings)
    }

    pub fn mailer(&self) -> &arbiter_mail::Mailer {
        &self.inner.settings.mailer
    }

    /// The site's address for links in mail, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.inner.settings.base_url
    }

    /// Behind a reverse proxy: the rate limits read the client's address from
    /// `X-Forwarded-For` when the peer is one of `proxies`, and only then.
    pub fn with_trusted_proxies(self, proxies: Vec<std::net::IpAddr>) -> AppState {
        let i = &self.inner;
        let mut settings = i.settings.clone();
        settings.trusted_proxies = proxies;
        AppState::build(i.store.clone(), i.freshness, i.today, settings)
    }

    pub fn trusted_proxies(&self) -> &[std::net::IpAddr] {
        &self.inner.settings.trusted_proxies
    }

    /// The site's key for the CSRF tokens of visitors who have not signed in; every server on
    /// the database shares it.
    pub async fn form_secret(&self) -> Result<Arc<str>, arbiter_store::StoreError> {
        self.inner
            .form_secret
            .get_or_try_init(|| async {
                let secret = self.inner.store.site_secret("csrf").await?;
                Ok(Arc::from(secret))
            })
            .await
            .cloned()
    }

    /// Cookies are `Secure` when the site is served over TLS.
    pub fn secure_cookies(&self) -> bool {
        self.inner.settings.base_url.starts_with("https://")
    }

    /// Reads the data version from the store at most once per `freshness`
    /// (`Duration::ZERO`: on every request, as tests want).
    pub fn with_freshness(self, freshness: Duration) -> AppState {
        let i = &self.inner;
        AppState::build(i.store.clone(), freshness, i.today, i.settings.clone())
    }

    /// Fixes the moment an event's deadlines are counted from (AS-11..AS-13), for tests.
    pub fn with_now(self, now: jiff::Timestamp) -> AppState {
        self.with_clock(Clock::Fixed(now))
    }

    /// Starts the site's clock at `start`, running on from there: a rehearsal of an event's
    /// day, or the demo on its days (`arbiter serve --now`, `arbiter demo --now`).
    pub fn with_clock_from(self, start: jiff::Timestamp) -> AppState {
        self.with_clock(Clock::starting_at(start))
    }

    fn with_clock(self, clock: Clock) -> AppState {
        let i = &self.inner;
        let mut settings = i.settings.clone();
        settings.clock = clock;
        AppState::build(i.store.clone(), i.freshness, i.today, settings)
    }

    /// Issue 32 (item 12): GT-P2's reminders sent by the server itself each day at `at`, the
    /// local time in each league's zone; `None` leaves them to `arbiter remind`.
    pub fn with_reminders_at(self, at: Option<jiff::civil::Time>) -> AppState {
        let i = &self.inner;
        let mut settings = i.settings.clone();
        settings.remind_at = at;
        AppState::build(i.store.clone(), i.freshness, i.today, settings)
    }

    /// The views of competitions kept within `bytes` (`arbiter serve --cache-mib`, issue 35).
    pub fn with_cache_bytes(self, bytes: usize) -> AppState {
        let i = &self.inner;
        let mut settings = i.settings.clone();
        settings.cache_bytes = bytes;
        AppState::build(i.store.clone(), i.freshness, i.today, settings)
    }

    /// Competitions loaded from the store since the server started.
    pub fn loads(&self) -> u64 {
        self.inner.loads.load(Ordering::Relaxed)
    }

    /// How many views are cached, what they weigh together, and how many were evicted.
    pub fn cached(&self) -> (usize, usize, u64) {
        let views = &self.inner.views;
        (views.len(), views.weight(), views.evicted())
    }

    /// The time of day the server sends GT-P2's reminders at, if it does.
    pub(crate) fn reminders_at(&self) -> Option<jiff::civil::Time> {
        self.inner.settings.remind_at
    }

    /// The moment now, by the site's clock: the store stamps its writes by the same one.
    pub(crate) fn now(&self) -> jiff::Timestamp {
        self.inner.store.now()
    }

    /// Whether the clock was set to a moment (`--now`), not the system's.
    pub(crate) fn clock_is_set(&self) -> bool {
        self.inner.settings.clock.is_set()
    }

    /// Fixes the date the home page takes as today ("what is on this week").
    pub fn with_today(self, today: jiff::civil::Date) -> AppState {
        let i = &self.inner;
        AppState::build(
            i.store.clone(),
            i.freshness,
            Some(today),
            i.settings.clone(),
        )
    }

    fn build(
        store: Store,
        freshness: Duration,
        today: Option<jiff::civil::Date>,
        settings: Settings,
    ) -> AppState {
        // One clock (RULES.md, "Time"): `--now` sets it; `--today` alone starts it at noon UTC
        // of that day (within the day in every zone a league keeps), so that what is written
        // that day is stamped on it.
        let clock = match (settings.clock, today) {
            (Clock::System, Some(day)) => jiff::tz::Offset::UTC
                .to_timestamp(day.at(12, 0, 0, 0))
                .map_or(Clock::System, Clock::starting_at),
            (set, _) => set,
        };
        let cache_bytes = settings.cache_bytes;
        AppState {
            inner: Arc::new(Inner {
                store: store.with_clock(clock),
                freshness,
                today,
                settings,
                version: VersionClock {
                    value: AtomicI64::new(0),
                    known: AtomicBool::new(false),
                    begun: AtomicU64::new(0),
                    settled: AtomicU64::new(0),
                    read_at: AtomicU64::new(0),
                    epoch: Instant::now(),
                    refresh: tokio::sync::Mutex::new(()),
                },
                changes: Mutex::new(ChangeLog::default()),
                views: WeighedCache::new(cache_bytes),
                withheld: WeighedCache::new(cache_bytes / 8),
                loading: Mutex::new(HashMap::new()),
                loads: AtomicU64::new(0),
                site: RwLock::new(SitePages::default()),
                form_secret: tokio::sync::OnceCell::new(),
                outbox: std::sync::Mutex::new(Vec::new()),
            }),
        }
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Sends mail in the background, so that the person who acted is answered first; a
    /// command or a server stopping waits for it with [`AppState::mail_sent`].
    pub(crate) fn send_later(&self, sending: impl Future<Output = ()> + Send + 'static) {
        let handle = tokio::spawn(sending);
        let mut outbox = self.inner.outbox.lock().unwrap_or_else(|e| e.into_inner());
        outbox.retain(|h| !h.is_finished());
        outbox.push(handle);
    }

    /// Waits until every mail handed to [`AppState::send_later`] is sent (or has failed, as
    /// the log says).
    pub async fn mail_sent(&self) {
        loop {
            let pending: Vec<_> = {
                let mut outbox = self.inner.outbox.lock().unwrap_or_else(|e| e.into_inner());
                std::mem::take(&mut *outbox)
            };
            if pending.is_empty() {
                return;
            }
            for h in pending {
                let _ = h.await;
            }
        }
    }

    /// Forgets the data version, so that the next request reads it again (after a write).
    pub fn invalidate(&self) {
        self.inner.version.known.store(false, Ordering::Release);
    }

    /// The day it is in `zone` (a league's or event's, RULES.md "Time"): the day the site was
    /// set to (`--today`), else the site's clock's day there. Never the server's own zone.
    pub(crate) fn today_in(&self, zone: &Zone) -> jiff::civil::Date {
        self.inner.today.unwrap_or_else(|| zone.day_of(self.now()))
    }

    /// The store's data version, read at most once per `freshness`.
    pub(crate) async fn version(&self) -> Result<i64, WebError> {
        let clock = &self.inner.version;
        let now = u64::try_from(clock.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        let fresh_ms = u64::try_from(self.inner.freshness.as_millis()).unwrap_or(u64::MAX);
        if fresh_ms > 0 && clock.known.load(Ordering::Acquire) {
            let age = now.saturating_sub(clock.read_at.load(Ordering::Acquire));
            if age < fresh_ms {
                return Ok(clock.value.load(Ordering::Acquire));
            }
            // Stale: one request reads it again, the others go on with the value they have.
            let Ok(_guard) = clock.refresh.try_lock() else {
                return Ok(clock.value.load(Ordering::Acquire));
            };
            return self.read_version(now).await;
        }
        // Unknown (this server just wrote): one reader reads it, and those who queued meanwhile
        // take its value, since it was read after they asked. Each reading it again in turn
        // made every public page wait behind as many store reads as readers (issue 16).
        let asked = clock.begun.load(Ordering::Acquire);
        let _guard = clock.refresh.lock().await;
        if clock.settled.load(Ordering::Acquire) > asked {
            return Ok(clock.value.load(Ordering::Acquire));
        }
        self.read_version(now).await
    }

    /// The store's data version read now, not the one trusted for `freshness`: a person's own
    /// page and every write must see what another server on the database wrote a moment ago.
    async fn current_version(&self) -> Result<i64, WebError> {
        let now = u64::try_from(self.inner.version.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.read_version(now).await
    }

    async fn read_version(&self, now: u64) -> Result<i64, WebError> {
        let clock = &self.inner.version;
        let number = clock.begun.fetch_add(1, Ordering::AcqRel) + 1;
        let since = self.changes().synced;
        let changes = self
            .inner
            .store
            .changes_since(since)
            .await
            .map_err(WebError::unavailable)?;
        let v = changes.version;
        {
            let mut log = self.changes();
            for (id, changed_in) in changes.competitions {
                let last = log.last_change.entry(id).or_insert(changed_in);
                *last = (*last).max(changed_in);
            }
            log.synced = log.synced.max(v);
        }
        // The data version only grows: a read that began earlier and ends later keeps the newer.
        let v = clock.value.fetch_max(v, Ordering::AcqRel).max(v);
        clock.read_at.store(now, Ordering::Release);
        clock.known.store(true, Ordering::Release);
        clock.settled.fetch_max(number, Ordering::AcqRel);
        Ok(v)
    }

    /// The competition for a public page: while another reader loads the current version, the
    /// one already loaded, so that readers never queue behind a write (issue 9, item 13).
    pub(crate) async fn public_view(
        &self,
        league: &str,
        season: &str,
        competition: &str,
    ) -> Result<Arc<CompetitionView>, WebError> {
        let view = self
            .load(league, season, competition, Wait::OrServeLoaded)
            .await?;
        Ok(self.seen_by(view, Viewer::Other))
    }

    /// `full` as `viewer` may see it now: before an event's rosters lock, anyone but a party to
    /// them (core's `sealed::may_see_roster`, AS-12) gets the copy that names no player.
    pub(crate) fn seen_by(
        &self,
        full: Arc<CompetitionView>,
        viewer: Viewer,
    ) -> Arc<CompetitionView> {
        let Some(lock) = &full.roster_lock else {
            return full;
        };
        let now = lock.clock.to_datetime(self.now());
        if sealed::may_see_roster(viewer, Some(lock.hall), now) {
            full
        } else {
            self.withheld(&full)
        }
    }

    /// The local time now in `zone`: the site's day ([`AppState::today_in`]) at the clock's
    /// time of day there (an event counts by its hall's clock, `EventRecord::clock`).
    pub(crate) fn local_now(&self, zone: &Zone) -> jiff::civil::DateTime {
        let time = zone.local(self.now()).time();
        self.today_in(zone).to_datetime(time)
    }

    /// The public's copy of `full` before its rosters lock, made once per version of it.
    fn withheld(&self, full: &Arc<CompetitionView>) -> Arc<CompetitionView> {
        let cached = self
            .inner
            .withheld
            .get(&full.id)
            .filter(|w| w.base == full.etag_base);
        if let Some(w) = cached {
            return Arc::clone(&w.view);
        }
        let view = Arc::new(full.without_rosters());
        let withheld = Withheld {
            base: full.etag_base,
            view: Arc::clone(&view),
        };
        self.inner.withheld.insert(full.id, Arc::new(withheld));
        view
    }

    /// The log of changes, whoever held it last (a panic while holding it leaves it whole: it
    /// is only ever raised).
    fn changes(&self) -> std::sync::MutexGuard<'_, ChangeLog> {
        self.inner.changes.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether `view` is as the store has it at the version last synced: nothing changed its
    /// competition after the version it was read at.
    fn is_current(&self, view: &CompetitionView) -> bool {
        let last = self
            .changes()
            .last_change
            .get(&view.id)
            .copied()
            .unwrap_or(0);
        view.checked() >= last
    }

    /// Keeps the views' cache within its budget after a page drawn from a view grew it.
    pub(crate) fn trim_cache(&self) {
        self.inner.views.trim();
        self.inner.withheld.trim();
    }

    /// The competition named by three slugs, computed for the current data version: for a page
    /// of one person (the match page, the account page), who must see their own change.
    pub(crate) async fn view(
        &self,
        league: &str,
        season: &str,
        competition: &str,
    ) -> Result<Arc<CompetitionView>, WebError> {
        self.load(league, season, competition, Wait::ForCurrent)
            .await
    }

    async fn load(
        &self,
        league: &str,
        season: &str,
        competition: &str,
        wait: Wait,
    ) -> Result<Arc<CompetitionView>, WebError> {
        match wait {
            Wait::OrServeLoaded => self.version().await?,
            Wait::ForCurrent => self.current_version().await?,
        };
        let key: ViewKey = (league.into(), season.into(), competition.into());
        if let Some(view) = self.cached_view(&key) {
            return Ok(view);
        }
        let old = self.inner.views.get(&key);
        // One load of this competition at a time; readers of others do not wait for it.
        let lock = {
            let mut loading = self.inner.loading.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(loading.entry(key.clone()).or_default())
        };
        let _guard = match (wait, &old, lock.try_lock()) {
            (_, _, Ok(guard)) => guard,
            (Wait::OrServeLoaded, Some(old), Err(_)) => return Ok(Arc::clone(old)),
            _ => lock.lock().await,
        };
        let loaded = self.load_now(&key, old).await;
        // The last one out takes the key's lock away; a reader that came meanwhile holds it.
        if let Ok(mut loading) = self.inner.loading.lock()
            && loading.get(&key).is_some_and(|l| Arc::strong_count(l) <= 2)
        {
            loading.remove(&key);
        }
        loaded
    }

    /// Loads the competition of `key` from the store unless a reader before this one did, and
    /// computes its view on the blocking pool.
    async fn load_now(
        &self,
        key: &ViewKey,
        old: Option<Arc<CompetitionView>>,
    ) -> Result<Arc<CompetitionView>, WebError> {
        if let Some(view) = self.cached_view(key) {
            return Ok(view);
        }
        let (league, season, competition) = (&key.0, &key.1, &key.2);
        // The version the changes were read up to: what is read now is at least as new.
        let v = self.changes().synced;
        let id = match &old {
            Some(view) => view.id,
            None => self.resolve(league, season, competition).await?,
        };
        let Some(stored) = self.inner.store.load_competition_by_id(id).await? else {
            self.inner.views.remove(key);
            return Err(WebError::not_found(format!(
                "The competition “{competition}” is no longer in the store."
            )));
        };
        self.inner.loads.fetch_add(1, Ordering::Relaxed);
        // GT-F4: the season's playoffs are rated as their ruleset says.
        let stage = match self.inner.store.playoffs(stored.season.id).await? {
            Some(p) if p.competition == stored.record.id => Stage::Playoffs,
            _ => Stage::Season,
        };
        let lock = crate::app::view::roster_lock(&self.inner.store, &stored).await?;
        let hall = crate::app::view::hall(&self.inner.store, &stored).await?;
        // Issue 34: the lists a rating order reads, only for a ruleset that orders by them.
        let lists =
            if stored.rules.lineup.ratings == arbiter_core::rules::ruleset::RatingSource::List {
                self.inner
                    .store
                    .rating_lists_for(stored.league.id, &stored.competition)
                    .await?
            } else {
                Vec::new()
            };
        let site = self.base_url().to_string();
        // Scoring, standings, ratings and findings are the CPU's work: off the async threads,
        // so that other requests go on while a large competition is computed.
        let fresh = tokio::task::spawn_blocking(move || {
            CompetitionView::with_lists(stored, v, stage, lists)
                .with_roster_lock(lock)
                .with_hall(hall)
                .on_site(&site)
        })
        .await
        .map_err(|_| WebError::Internal)?;
        // Same data as before: keep the old view and every page already drawn from it.
        let view = match old {
            Some(old) if old.etag_base == fresh.etag_base => {
                old.confirm(v);
                old
            }
            _ => Arc::new(fresh),
        };
        if view.league.slug != *league
            || view.season.slug != *season
            || view.record.slug != *competition
        {
            self.inner.views.remove(key);
            return Err(WebError::not_found(format!(
                "There is no competition at /leagues/{league}/{season}/{competition}."
            )));
        }
        self.inner.views.insert(key.clone(), Arc::clone(&view));
        Ok(view)
    }

    /// The view loaded for `key`, if nothing changed its competition since it was read.
    fn cached_view(&self, key: &ViewKey) -> Option<Arc<CompetitionView>> {
        self.inner
            .views
            .get(key)
            .filter(|view| self.is_current(view))
    }

    /// Finds a competition's id by its slugs, saying what exists when a slug names nothing.
    async fn resolve(
        &self,
        league: &str,
        season: &str,
        competition: &str,
    ) -> Result<arbiter_store::CompetitionId, WebError> {
        let store = &self.inner.store;
        let Some(l) = store.league(league).await?.filter(|l| l.slug == league) else {
            return Err(self.no_league(league).await);
        };
        let seasons = store.seasons(l.id).await?;
        let Some(s) = seasons.iter().find(|s| s.slug == season) else {
            return Err(WebError::NotFound {
                message: format!(
                    "{} has no season “{season}”. Its seasons are listed below.",
                    l.name
                ),
                links: seasons
                    .iter()
                    .map(|s| Link::new(crate::ui::link::season_href(&l.slug, &s.slug), &s.name))
                    .collect(),
            });
        };
        let comps = store.competitions(s.id).await?;
        let Some(c) = comps.iter().find(|c| c.slug == competition) else {
            return Err(WebError::NotFound {
                message: format!(
                    "{} {} has no competition or division “{competition}”. Its competitions are listed below.",
                    l.name, s.name
                ),
                links: comps
                    .iter()
                    .map(|c| {
                        Link::new(
                            crate::ui::link::competition_href(&l.slug, &s.slug, &c.slug),
                            &c.name,
                        )
                    })
                    .collect(),
            });
        };
        Ok(c.id)
    }

    /// A 404 for an unknown league slug that lists the leagues there are.
    pub(crate) async fn no_league(&self, league: &str) -> WebError {
        let links = match self.inner.store.leagues().await {
            Ok(ls) => ls
                .iter()
                .map(|l| Link::new(crate::ui::link::league_href(&l.slug), &l.name))
                .collect(),
            Err(e) => return WebError::unavailable(e),
        };
        WebError::NotFound {
            message: format!(
                "There is no league or event called “{league}”. The leagues and events are listed below."
            ),
            links,
        }
    }

    /// The site page at version `v`, drawn once however many readers wait (issue 9, item 13),
    /// with the same page at the version before, if it was drawn, to serve while it is drawn.
    /// A reader still at an older version gets a page of its own that is not kept.
    pub(crate) fn site_page(&self, v: i64, key: SiteKey) -> (Arc<SitePage>, Option<Arc<SitePage>>) {
        if let Ok(site) = self.inner.site.read()
            && site.version == v
            && let Some(page) = site.pages.get(&key)
        {
            return (Arc::clone(page), site.previous.get(&key).cloned());
        }
        let Ok(mut site) = self.inner.site.write() else {
            return (Arc::default(), None);
        };
        if site.version < v {
            site.version = v;
            let drawn = std::mem::take(&mut site.pages)
                .into_iter()
                .filter(|(_, page)| page.cell.initialized());
            // A page not drawn at the last version keeps the one from before it.
            let mut previous = std::mem::take(&mut site.previous);
            previous.extend(drawn);
            site.previous = previous;
        }
        if site.version > v {
            return (Arc::default(), None);
        }
        let previous = site.previous.get(&key).cloned();
        (Arc::clone(site.pages.entry(key).or_default()), previous)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Bytes;
    use axum::http::HeaderValue;

    fn drawn(page: &SitePage, body: &'static str) {
        let _ = page.cell.set((
            HeaderValue::from_static("\"t\""),
            Bytes::from_static(body.as_bytes()),
        ));
    }

    /// `--now`: the clock starts at the moment given and runs on; a fixed one stays.
    #[tokio::test]
    async fn a_clock_started_at_a_moment_runs_on_from_it() {
        let start: jiff::Timestamp = "2026-12-06T22:10:00Z".parse().unwrap();
        let store = Store::open_sqlite_memory().await.unwrap();
        let running = AppState::new(store.clone()).with_clock_from(start);
        let fixed = AppState::new(store).with_now(start);
        let first = running.now();
        assert!(first >= start && first < start + jiff::SignedDuration::from_secs(60));
        std::thread::sleep(Duration::from_millis(20));
        assert!(running.now() > first);
        assert_eq!(fixed.now(), start);
    }

    /// Issue 35 item 4: a reader whose draw is dropped (the client went away) gives its claim
    /// back; the next reader draws the page instead of being served the one before for good.
    #[tokio::test]
    async fn a_cancelled_draw_gives_its_claim_back() {
        use crate::app::respond::site;
        use axum::http::HeaderMap;
        let store = Store::open_sqlite_memory().await.unwrap();
        store.migrate().await.unwrap();
        let state = AppState::new(store.clone()).with_freshness(Duration::ZERO);
        let (headers, key) = (HeaderMap::new(), SiteKey::Leagues(Format::Html));
        let body = |r: axum::response::Response| async move {
            axum::body::to_bytes(r.into_body(), usize::MAX)
                .await
                .unwrap()
        };
        let first = site(&state, &headers, key.clone(), Format::Html, || async {
            Ok(Bytes::from_static(b"one"))
        })
        .await;
        assert_eq!(body(first).await, "one");
        // A write: the page is drawn again, by a reader who goes away mid-draw.
        store
            .create_user(
                "ada@example.org",
                "Ada",
                None,
                &arbiter_store::Actor::system(),
            )
            .await
            .unwrap();
        let gone = tokio::time::timeout(
            Duration::from_millis(20),
            site(&state, &headers, key.clone(), Format::Html, || {
                std::future::pending::<Result<Bytes, WebError>>()
            }),
        )
        .await;
        assert!(
            gone.is_err(),
            "the reader went away before the page was drawn"
        );
        let next = site(&state, &headers, key, Format::Html, || async {
            Ok(Bytes::from_static(b"two"))
        })
        .await;
        assert_eq!(body(next).await, "two", "the next reader draws the page");
    }

    #[tokio::test]
    async fn a_site_page_of_the_version_before_is_kept_to_serve_while_the_new_one_is_drawn() {
        let store = Store::open_sqlite_memory().await.unwrap();
        let state = AppState::new(store);
        let key = SiteKey::Leagues(Format::Html);
        let (first, before) = state.site_page(1, key.clone());
        assert!(before.is_none(), "nothing was drawn before version 1");
        drawn(&first, "version 1");
        let (second, before) = state.site_page(2, key.clone());
        assert!(!second.cell.initialized());
        let before = before.expect("version 1's page is kept");
        assert_eq!(before.cell.get().unwrap().1, "version 1");
        // One reader draws; the others are told to serve the page before.
        let claim = second.claim();
        assert!(claim.is_some());
        assert!(second.claim().is_none());
        // A reader that goes away before the page is drawn gives its claim back.
        drop(claim);
        let claim = second.claim();
        assert!(
            claim.is_some(),
            "the claim of a cancelled draw is given back"
        );
        drawn(&second, "version 2");
        drop(claim);
        assert!(second.claim().is_none(), "a drawn page is not drawn again");
        // The page of the version before is the last one drawn.
        let (third, before) = state.site_page(3, key.clone());
        assert!(!third.cell.initialized());
        assert_eq!(before.unwrap().cell.get().unwrap().1, "version 2");
        drawn(&third, "version 3");
        let (_, before) = state.site_page(4, key);
        assert_eq!(before.unwrap().cell.get().unwrap().1, "version 3");
    }
}
