//! The home page: every league and event with its seasons, and the rounds played this week,
//! each league's week by its own clock (issue 32). It reads the store's counts and dates, never
//! every competition: a federation's ten thousand divisions cost it a few queries (issue 35).

use std::collections::{BTreeMap, HashMap};

use axum::body::Bytes;
use jiff::civil::Date;

use arbiter_store::{
    CompetitionId, CompetitionRecord, DatedRound, League, LeagueId, MoreOnDay, RulesRef, Season,
    SeasonId,
};

use crate::app::site;
use crate::app::state::AppState;
use crate::http::error::WebError;
use crate::public::pages::{self, HomePage, LeagueCard, WeekDay, WeekItem, WeekLeague, WeekLine};
use crate::public::site::{any_playoffs, published_reports, season_block};
use crate::ui::link::{Link, competition_href, league_href, season_href};
use crate::ui::words;

/// The most competitions the home page lists of one season, and of one league's day; a season
/// of more is a link to its own page, which lists them all (issue 35: at 10,000 divisions the
/// home page was 1.5 MB, and 3 MB in a week of rounds).
const HOME_LISTS_UP_TO: usize = 12;

/// A season as the home page lists it: how many competitions it has and the rules they play.
struct SeasonOutline {
    season: Season,
    count: u32,
    /// Each ruleset once, however many divisions play by it.
    rules: Vec<RulesRef>,
}

/// A league with its seasons in the site's order, and its week by its own clock.
struct LeagueOutline {
    league: League,
    seasons: Vec<SeasonOutline>,
    week: (Date, Date),
}

impl SeasonOutline {
    /// Whether the home page lists its competitions rather than a link to them.
    fn listed(&self) -> bool {
        (1..=HOME_LISTS_UP_TO).contains(&(self.count as usize))
    }
}

/// Where a shown round is played: its league, season and competition.
struct Place<'t> {
    league: &'t League,
    s: &'t Season,
    c: &'t CompetitionRecord,
    /// GT-M5: the match forfeits its ruleset drops a team at; `None` when it drops none.
    drop_after: Option<u32>,
}

/// Monday and Sunday of `today`'s week.
fn week_of(today: Date) -> (Date, Date) {
    let monday =
        today.saturating_sub(jiff::Span::new().days(today.weekday().to_monday_zero_offset()));
    (monday, monday.saturating_add(jiff::Span::new().days(6)))
}

fn week_text((monday, sunday): (Date, Date)) -> String {
    format!("{} to {}", words::date(monday), words::date(sunday))
}

/// Every league with its seasons and their counts, in three queries however many competitions
/// there are.
async fn outline(state: &AppState) -> Result<Vec<LeagueOutline>, WebError> {
    let mut counts: HashMap<SeasonId, (u32, Vec<RulesRef>)> = HashMap::new();
    for (season, rules, n) in state.store().competitions_by_rules().await? {
        let (count, all) = counts.entry(season).or_default();
        *count += n;
        all.push(rules);
    }
    let leagues = site::leagues_with(state, |s| counts.remove(&s.id).unwrap_or_default()).await?;
    Ok(leagues
        .into_iter()
        .map(|(league, seasons)| LeagueOutline {
            seasons: seasons
                .into_iter()
                .map(|(season, (count, rules))| SeasonOutline {
                    season,
                    count,
                    rules,
                })
                .collect(),
            week: week_of(state.today_in(&league.time_zone)),
            league,
        })
        .collect())
}

/// `/`: every league and event, and the rounds dated this week (Monday to Sunday), each
/// league's week by its own clock (issue 32, item 22: an event's Monday in Adelaide is still
/// Sunday in UTC).
pub async fn home_html(state: &AppState) -> Result<Bytes, WebError> {
    let leagues = outline(state).await?;
    let store = state.store();
    // The heading's week: the leagues' own when they agree, else UTC's.
    let heading = match leagues.first() {
        Some(l) if leagues.iter().all(|x| x.week == l.week) => l.week,
        _ => week_of(state.today_in(&arbiter_core::record::zone::Zone::utc())),
    };
    // Each season's place in the site's order.
    let mut places_of_seasons: HashMap<SeasonId, (usize, usize)> = HashMap::new();
    for (li, l) in leagues.iter().enumerate() {
        for (si, s) in l.seasons.iter().enumerate() {
            places_of_seasons.insert(s.season.id, (li, si));
        }
    }
    let order = |r: &DatedRound| {
        let (li, si) = places_of_seasons
            .get(&r.season)
            .copied()
            .unwrap_or_default();
        (r.date, li, si, r.competition.0, r.number)
    };
    let window = (
        leagues.iter().map(|l| l.week.0).min(),
        leagues.iter().map(|l| l.week.1).max(),
    );
    let days = match window {
        (Some(from), Some(to)) => store.rounds_between(from, to, HOME_LISTS_UP_TO).await?,
        _ => Default::default(),
    };
    // Each league's rounds in its own week, in the site's order.
    let in_week = |l: &LeagueOutline, league: LeagueId, date: Date| {
        league == l.league.id && date >= l.week.0 && date <= l.week.1
    };
    let week_rounds: Vec<Vec<&DatedRound>> = leagues
        .iter()
        .map(|l| {
            let mut rounds: Vec<&DatedRound> = days
                .rounds
                .iter()
                .filter(|r| in_week(l, r.league, r.date))
                .collect();
            rounds.sort_by_key(|r| order(r));
            rounds
        })
        .collect();
    // Nothing this week: the first round after it, of any league; read once for every
    // league whose week ends that Sunday.
    let mut next = None;
    if week_rounds.iter().all(Vec::is_empty) {
        let mut by_sunday: BTreeMap<Date, Vec<LeagueId>> = BTreeMap::new();
        for l in &leagues {
            by_sunday.entry(l.week.1).or_default().push(l.league.id);
        }
        for (sunday, ids) in by_sunday {
            if let Some(r) = store.first_round_after(sunday, &ids).await?
                && next.as_ref().is_none_or(|n| order(&r) < order(n))
            {
                next = Some(r);
            }
        }
    }
    // The competitions the page names: those of the seasons it lists, and of the rounds shown.
    let listed: Vec<SeasonId> = leagues
        .iter()
        .flat_map(|l| &l.seasons)
        .filter(|s| s.listed())
        .map(|s| s.season.id)
        .collect();
    let shown: Vec<CompetitionId> = week_rounds
        .iter()
        .flatten()
        .copied()
        .chain(&next)
        .map(|r| r.competition)
        .collect();
    let records = store.competitions_among(&listed, &shown).await?;
    let mut drops: HashMap<&RulesRef, Option<u32>> = HashMap::new();
    let mut places: HashMap<CompetitionId, Place<'_>> = HashMap::new();
    for c in &records {
        let Some(&(li, si)) = places_of_seasons.get(&c.season) else {
            continue;
        };
        let drop_after = *drops.entry(&c.rules).or_insert_with(|| {
            site::rules_of(&c.rules)
                .and_then(|rules| rules.drop)
                .map(|d| d.after_match_forfeits.max(1))
        });
        let l = &leagues[li];
        places.insert(
            c.id,
            Place {
                league: &l.league,
                s: &l.seasons[si].season,
                c,
                drop_after,
            },
        );
    }

    // This week, league by league: each day's competitions with their rounds that day.
    let mut facts = LineFacts::default();
    let mut weeks: Vec<(usize, Vec<ShownDay<'_>>)> = Vec::new();
    for (li, rounds) in week_rounds.iter().enumerate() {
        let mut shown_days: Vec<ShownDay<'_>> = Vec::new();
        for (p, r) in rounds.iter().filter_map(|r| placed(&places, r)) {
            if shown_days.last().is_none_or(|d| d.date != r.date) {
                shown_days.push(ShownDay {
                    date: r.date,
                    lines: Vec::new(),
                });
            }
            let Some(day) = shown_days.last_mut() else {
                continue;
            };
            match day.lines.last_mut() {
                Some((q, rs)) if q.c.id == p.c.id => rs.push(r),
                _ => day.lines.push((p, vec![r])),
            }
        }
        for day in &shown_days {
            for (p, rs) in &day.lines {
                facts.wants(p, rs);
            }
        }
        if !shown_days.is_empty() {
            weeks.push((li, shown_days));
        }
    }
    if let Some((p, r)) = next.as_ref().and_then(|r| placed(&places, r)) {
        facts.wants(p, &[r]);
    }
    let facts = facts.read(state).await?;
    let mut this_week = Vec::new();
    for (li, shown_days) in &weeks {
        let l = &leagues[*li];
        let mut by_day = Vec::new();
        for day in shown_days {
            let mut lines = Vec::new();
            for (p, rs) in &day.lines {
                let href = competition_href(&p.league.slug, &p.s.slug, &p.c.slug);
                lines.push(WeekLine {
                    competition: Link::new(href.clone(), &p.c.name),
                    rounds: rs.iter().map(|r| round_link(&href, r)).collect(),
                    // Several rounds a day: the rounds' pages name the matches.
                    matches: match rs.as_slice() {
                        [r] => facts.matches_line(state, p, r).await?,
                        _ => String::new(),
                    },
                });
            }
            let more = days
                .more
                .iter()
                .find(|m| m.league == l.league.id && m.date == day.date);
            by_day.push(WeekDay {
                date: words::date(day.date),
                lines,
                more: more.map(|m| more_link(l, m)),
            });
        }
        this_week.push(WeekLeague {
            league: Link::new(league_href(&l.league.slug), &l.league.name),
            week: (l.week != heading).then(|| week_text(l.week)),
            days: by_day,
        });
    }
    let next = match next.as_ref().and_then(|r| placed(&places, r)) {
        Some((p, r)) => {
            let href = competition_href(&p.league.slug, &p.s.slug, &p.c.slug);
            Some(WeekItem {
                date: words::date(r.date),
                competition: Link::new(
                    href.clone(),
                    format!("{} \u{2014} {} {}", p.c.name, p.league.name, p.s.name),
                ),
                round: round_link(&href, r),
                matches: facts.matches_line(state, p, r).await?,
            })
        }
        None => None,
    };

    let published = published_reports(state).await?;
    let mut cards = Vec::with_capacity(leagues.len());
    for l in &leagues {
        let mut seasons = Vec::with_capacity(l.seasons.len());
        for s in &l.seasons {
            let comps: Vec<CompetitionRecord> = if s.listed() {
                records
                    .iter()
                    .filter(|c| c.season == s.season.id)
                    .cloned()
                    .collect()
            } else {
                Vec::new()
            };
            let mut block = season_block(
                &l.league,
                &s.season,
                &comps,
                any_playoffs(&s.rules),
                published.get(&s.season.id).map_or(&[], Vec::as_slice),
            );
            if !s.listed() && s.count > 0 {
                block.folded = Some(s.count as usize);
            }
            seasons.push(block);
        }
        cards.push(LeagueCard {
            link: Link::new(league_href(&l.league.slug), &l.league.name),
            schools: crate::public::schools::schools_href(&l.league.slug),
            kind: pages::kind_word(l.league.kind),
            description: l.league.description.clone(),
            seasons,
        });
    }
    let page = HomePage {
        layout: crate::ui::layout::site_layout(
            "Arbiter \u{2014} leagues and events".into(),
            "Leagues and events".into(),
            Vec::new(),
            "/api/v1/leagues".into(),
        ),
        week: week_text(heading),
        this_week,
        next,
        leagues: cards,
    };
    pages::render_home(&page)
}

/// A shown round with where it is played.
fn placed<'a, 'p>(
    places: &'a HashMap<CompetitionId, Place<'p>>,
    r: &'a DatedRound,
) -> Option<(&'a Place<'p>, &'a DatedRound)> {
    places.get(&r.competition).map(|p| (p, r))
}

fn round_link(competition_href: &str, r: &DatedRound) -> Link {
    Link::new(
        format!("{competition_href}/rounds/{}", r.number),
        format!("Round {}", r.number),
    )
}

/// One day of a league's week as the home page shows it: each competition listed with its
/// rounds that day.
struct ShownDay<'p> {
    date: Date,
    lines: Vec<(&'p Place<'p>, Vec<&'p DatedRound>)>,
}

/// "And 88 more divisions": a link to the season that holds them all (the league, when they
/// are of several).
fn more_link(l: &LeagueOutline, more: &MoreOnDay) -> Link {
    let season = more
        .season
        .and_then(|id| l.seasons.iter().find(|s| s.season.id == id));
    let href = match season {
        Some(s) => season_href(&l.league.slug, &s.season.slug),
        None => league_href(&l.league.slug),
    };
    let what = match more.competitions {
        1 => "1 more division".to_string(),
        n => format!("{n} more divisions"),
    };
    Link::new(href, format!("and {what}"))
}

/// What the shown rounds' lines are drawn from, asked for first and then read in two queries
/// for all of them (issue 35: not two a round).
#[derive(Default)]
struct LineFacts {
    /// The rounds whose matches a line names.
    rounds: Vec<i64>,
    /// The competitions whose ruleset drops a team (GT-M5).
    dropping: Vec<CompetitionId>,
    matches: HashMap<i64, Vec<(String, String)>>,
    most_forfeits: HashMap<CompetitionId, u32>,
}

impl LineFacts {
    fn wants(&mut self, p: &Place<'_>, rounds: &[&DatedRound]) {
        if let [r] = rounds {
            self.rounds.push(r.id);
            if p.drop_after.is_some() {
                self.dropping.push(p.c.id);
            }
        }
    }

    async fn read(mut self, state: &AppState) -> Result<Self, WebError> {
        if !self.rounds.is_empty() {
            self.matches = state.store().rounds_matches(&self.rounds).await?;
        }
        if !self.dropping.is_empty() {
            self.most_forfeits = state.store().most_match_forfeits(&self.dropping).await?;
        }
        Ok(self)
    }

    /// A round's matches in a line, as [`pages::pairings_line`] draws them: from the store's
    /// team names, unless a team of the competition has as many match forfeits as its ruleset
    /// drops a team for — then GT-M5 may have excluded some, which only the competition's
    /// score sheet says, and its view is read (issue 35: not for every competition that had a
    /// forfeit).
    async fn matches_line(
        &self,
        state: &AppState,
        p: &Place<'_>,
        r: &DatedRound,
    ) -> Result<String, WebError> {
        let forfeits = self.most_forfeits.get(&p.c.id).copied().unwrap_or(0);
        if p.drop_after.is_some_and(|n| forfeits >= n) {
            let view = state
                .public_view(&p.league.slug, &p.s.slug, &p.c.slug)
                .await?;
            if let Some(round) = view.round(r.number) {
                return Ok(pages::pairings_line(&view, round));
            }
        }
        Ok(self
            .matches
            .get(&r.id)
            .into_iter()
            .flatten()
            .map(|(home, away)| format!("{home} \u{2013} {away}"))
            .collect::<Vec<_>>()
            .join(", "))
    }
}
