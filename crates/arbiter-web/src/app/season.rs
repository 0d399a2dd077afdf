//! A season's (or event's) competitions read together, for the rules that span them (core's
//! `eligibility`: one player, one person; GT-M15, AS-3): each competition's view and lineups in
//! force, and at an event the days its round times give a competition without round dates. The
//! officers' findings, the lineup write path and the rosters' links all read the season here.

use std::sync::Arc;

use arbiter_core::teams::eligibility::SeasonEntry;
use arbiter_core::teams::lineup::NamedLineup;
use arbiter_store::{CompetitionId, EventRecord};
use jiff::civil::Date;

use crate::app::state::AppState;
use crate::app::view::CompetitionView;
use crate::http::error::WebError;

/// The competitions of one season, in the league's order.
pub struct SeasonViews {
    pub views: Vec<Arc<CompetitionView>>,
    /// Each competition's lineups in force, as core reads them.
    named: Vec<Vec<NamedLineup>>,
    /// AS-3: each competition's first and last day by the event's round times, if any.
    event_days: Vec<Option<(Date, Date)>>,
}

impl SeasonViews {
    /// The season `view` is a competition of, `view` itself as read.
    pub async fn around(
        state: &AppState,
        view: &Arc<CompetitionView>,
    ) -> Result<SeasonViews, WebError> {
        let mut views = Vec::new();
        for record in state.store().competitions(view.season.id).await? {
            views.push(if record.id == view.id {
                view.clone()
            } else {
                state
                    .view(&view.league.slug, &view.season.slug, &record.slug)
                    .await?
            });
        }
        let event = state.store().event(view.season.id).await?;
        Ok(SeasonViews::of(views, event.as_ref()))
    }

    /// The season of `views`, with the event's days when there is one.
    pub fn of(views: Vec<Arc<CompetitionView>>, event: Option<&EventRecord>) -> SeasonViews {
        let named = views.iter().map(|v| v.stored.named_lineups()).collect();
        let event_days = views
            .iter()
            .map(|v| {
                let starts = event?.starts_of(v.id);
                let first = starts.iter().min()?.date();
                let last = starts.iter().max()?.date();
                Some((first, last))
            })
            .collect();
        SeasonViews {
            views,
            named,
            event_days,
        }
    }

    /// The competitions as core's season-wide checks read them, in the same order.
    pub fn entries(&self) -> Vec<SeasonEntry<'_>> {
        self.views
            .iter()
            .zip(&self.named)
            .zip(&self.event_days)
            .map(|((v, named), days)| SeasonEntry {
                name: &v.record.name,
                competition: &v.competition,
                rules: &v.rules,
                named,
                event_days: *days,
                lists: &v.rating_lists,
            })
            .collect()
    }

    /// The index of competition `id` among them.
    pub fn at(&self, id: CompetitionId) -> Option<usize> {
        self.views.iter().position(|v| v.id == id)
    }

    /// Each competition's version as read: a write judged on them is refused as stale when one
    /// changed since.
    pub fn seen(&self) -> Vec<(CompetitionId, i64)> {
        self.views
            .iter()
            .map(|v| (v.id, v.stored.version))
            .collect()
    }
}
