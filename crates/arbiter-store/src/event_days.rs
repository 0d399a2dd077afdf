// An ASTC event's days (issue 14, migration 0023), compiled for each backend as `queries.rs`
// is: `sqlite.rs` and `postgres.rs` `include!` this file after it.
//
// Core's `event::Event` decides what a valid event is; the store keeps each version the arbiter
// sets (the latest in force, none changed) and a late lineup's acceptance with its lineup.

use crate::records::{EventRecord, EventRoundStart, NewEvent};

impl Backend {
    /// AS-1, AS-3: keeps `event` as the next version of `season`'s event, if the event is still
    /// at `seen` (0: none set); [`StoreError::Stale`] when another version came in first.
    pub async fn record_event(
        &self,
        season: SeasonId,
        seen: u32,
        event: &NewEvent,
        by: &Actor,
    ) -> Result<EventRecord, StoreError> {
        let mut tx = begin_write(&self.pool).await?;
        bump(&mut tx).await?;
        let league = league_of_season(&mut tx, season).await?;
        let row = sqlx::query(
            "SELECT COALESCE(MAX(version), 0) AS v FROM event_versions WHERE season_id = $1",
        )
        .bind(season.0)
        .fetch_one(&mut *tx)
        .await
        .map_err(db("reading the event's versions"))?;
        let now = to_u32(get(&row, "v")?, "event version")?;
        if now != seen {
            return Err(StoreError::Stale(format!(
                "the event changed after it was read: it was read at version {seen} and is now at version {now}; nothing was saved, so read it again and set it against version {now}"
            )));
        }
        let version = now + 1;
        let at = codes::now();
        let sql = format!(
            "INSERT INTO event_versions (season_id, version, name, host, venue, \
             utc_offset_minutes, entered_by, entered_role, entered_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, {}) RETURNING id",
            ts_in("$9")
        );
        let row = sqlx::query(&sql)
            .bind(season.0)
            .bind(i64::from(version))
            .bind(event.name.as_str())
            .bind(event.host.code())
            .bind(event.venue.as_str())
            .bind(i64::from(event.utc_offset_minutes))
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .fetch_one(&mut *tx)
            .await
            .map_err(db("storing the event"))?;
        let id: i64 = get(&row, "id")?;
        for s in &event.rounds {
            let of_season: Option<i64> =
                sqlx::query_scalar("SELECT season_id FROM competitions WHERE id = $1")
                    .bind(s.competition.0)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db("reading a competition"))?;
            if of_season != Some(season.0) {
                return Err(StoreError::Invalid(format!(
                    "competition {} is not of this season; set the round times of its own competitions",
                    s.competition
                )));
            }
            sqlx::query(
                "INSERT INTO event_round_starts (event_version_id, competition_id, round, starts_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(s.competition.0)
            .bind(i64::from(s.round))
            .bind(minute_text(s.starts_at))
            .execute(&mut *tx)
            .await
            .map_err(db("storing a round's start"))?;
        }
        append_history(
            &mut tx,
            at,
            by,
            Change {
                league: Some(league),
                after: Some(serde_json::json!({
                    "version": version,
                    "name": event.name,
                    "host": event.host.code(),
                    "venue": event.venue,
                    "utc_offset_minutes": event.utc_offset_minutes,
                    "rounds": event.rounds.len(),
                })),
                ..Change::of(Entity::Season, season.to_string(), HistoryAction::SetEvent)
            },
        )
        .await?;
        tx.commit().await.map_err(db("saving the event"))?;
        Ok(EventRecord {
            season,
            version,
            event: event.clone(),
            entered_by: by.user.clone(),
            entered_at: at,
        })
    }

    /// The event of `season` in force (its latest version), if one is set.
    pub async fn event(&self, season: SeasonId) -> Result<Option<EventRecord>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let sql = format!(
            "SELECT id, version, name, host, venue, utc_offset_minutes, entered_by, \
             {} AS entered_at FROM event_versions WHERE season_id = $1 \
             ORDER BY version DESC LIMIT 1",
            ts_out("entered_at")
        );
        let Some(row) = sqlx::query(&sql)
            .bind(season.0)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db("reading the event"))?
        else {
            return Ok(None);
        };
        let id: i64 = get(&row, "id")?;
        let rows = sqlx::query(
            "SELECT competition_id, round, starts_at FROM event_round_starts \
             WHERE event_version_id = $1 ORDER BY competition_id, round",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await
        .map_err(db("reading the round times"))?;
        let rounds = rows
            .iter()
            .map(|r| {
                let text: String = get(r, "starts_at")?;
                Ok(EventRoundStart {
                    competition: CompetitionId(get(r, "competition_id")?),
                    round: to_u32(get(r, "round")?, "round")?,
                    starts_at: text
                        .parse()
                        .map_err(|_| corrupt("a round's start that is not a time"))?,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        let host: String = get(&row, "host")?;
        let offset: i64 = get(&row, "utc_offset_minutes")?;
        let at: String = get(&row, "entered_at")?;
        Ok(Some(EventRecord {
            season,
            version: to_u32(get(&row, "version")?, "event version")?,
            event: NewEvent {
                name: get(&row, "name")?,
                host: arbiter_core::field::State::parse(&host)
                    .map_err(|_| corrupt("an event whose host is no state"))?,
                venue: get(&row, "venue")?,
                utc_offset_minutes: i32::try_from(offset)
                    .map_err(|_| corrupt("an event's offset out of range"))?,
                rounds,
            },
            entered_by: get(&row, "entered_by")?,
            entered_at: codes::parse_timestamp(&at)?,
        }))
    }
}

/// A civil time to the minute, as the table keeps it: `2026-12-07T09:30`.
fn minute_text(t: jiff::civil::DateTime) -> String {
    t.strftime("%Y-%m-%dT%H:%M").to_string()
}
