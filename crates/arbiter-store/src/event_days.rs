// An ASTC event's days (issue 14, migration 0023), compiled for each backend as `queries.rs`
// is: `sqlite.rs` and `postgres.rs` `include!` this file after it.
//
// Core's `event::Event` decides what a valid event is; the store keeps each version the arbiter
// sets (the latest in force, none changed) and a late lineup's acceptance with its lineup.

use crate::records::{EventRecord, EventRoundStart, NewEvent, StoredProtest};

impl Backend {
    /// AS-8: the lot the product drew for `competition`'s invitation order (`draw`: the seed,
    /// the order and what it was drawn from), kept in the history for every team to read.
    pub async fn record_lot_draw(
        &self,
        league: LeagueId,
        competition: &str,
        draw: serde_json::Value,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let mut tx = self.write(by).await?;
        tx.history(Change {
                league: Some(league.0),
                after: Some(draw),
                ..Change::of(
                    Entity::FieldLot,
                    competition.to_string(),
                    HistoryAction::DrawLot,
                )
            },
        )
        .await?;
        tx.commit("recording the lot").await?;
        Ok(())
    }

    /// AS-1, AS-3: keeps `event` as the next version of `season`'s event, if the event is still
    /// at `seen` (0: none set); [`StoreError::Stale`] when another version came in first.
    pub async fn record_event(
        &self,
        season: SeasonId,
        seen: u32,
        event: &NewEvent,
        by: &Actor,
    ) -> Result<EventRecord, StoreError> {
        let mut tx = self.write(by).await?;
        let league = league_of_season(&mut tx, season).await?;
        let row = sqlx::query(
            "SELECT COALESCE(MAX(version), 0) AS v FROM event_versions WHERE season_id = $1",
        )
        .bind(season.0)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("reading the event's versions"))?;
        let now = to_u32(get(&row, "v")?, "event version")?;
        if now != seen {
            return Err(StoreError::Stale(format!(
                "the event changed after it was read: it was read at version {seen} and is now at version {now}; nothing was saved, so read it again and set it against version {now}"
            )));
        }
        let version = now + 1;
        let at = tx.at;
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
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing the event"))?;
        let id: i64 = get(&row, "id")?;
        for s in &event.rounds {
            let of_season: Option<i64> =
                sqlx::query_scalar("SELECT season_id FROM competitions WHERE id = $1")
                    .bind(s.competition.0)
                    .fetch_optional(&mut **tx)
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
            .execute(&mut **tx)
            .await
            .map_err(db("storing a round's start"))?;
        }
        tx.history(Change {
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
        let time_zone = league_in(&mut tx, LeagueId(league))
            .await?
            .time_zone;
        mark_changed(&mut tx, Touched::Season(season.0)).await?;
        tx.commit("saving the event").await?;
        Ok(EventRecord {
            season,
            version,
            time_zone,
            event: event.clone(),
            entered_by: by.user.clone(),
            entered_at: at,
        })
    }

    /// The event of `season` in force (its latest version), if one is set.
    pub async fn event(&self, season: SeasonId) -> Result<Option<EventRecord>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let sql = format!(
            "SELECT e.id, e.version, e.name, e.host, e.venue, e.utc_offset_minutes, e.entered_by, \
             {} AS entered_at, l.time_zone FROM event_versions e \
             JOIN seasons s ON s.id = e.season_id JOIN leagues l ON l.id = s.league_id \
             WHERE e.season_id = $1 ORDER BY e.version DESC LIMIT 1",
            ts_out("e.entered_at")
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
            time_zone: zone_in(&row)?,
            event: NewEvent {
                name: get(&row, "name")?,
                host: arbiter_core::event::field::State::parse(&host)
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

/// Player keys as a protest row keeps an order: one line, comma-separated (keys are slugs).
fn keys_text(order: &[arbiter_core::record::model::PlayerId]) -> String {
    order.iter().map(|p| p.0.as_str()).collect::<Vec<_>>().join(",")
}

fn keys_of(text: &str) -> Vec<arbiter_core::record::model::PlayerId> {
    text.split(',')
        .filter(|k| !k.is_empty())
        .map(|k| arbiter_core::record::model::PlayerId(k.to_string()))
        .collect()
}

/// A kept text read back as core's `Reason` (it was one when written).
fn reason_of(text: &str) -> Result<arbiter_core::record::text::Reason, StoreError> {
    arbiter_core::record::text::Reason::parse(text)
        .ok()
        .flatten()
        .ok_or_else(|| corrupt("a protest's text that is blank or too long"))
}

fn civil(text: &str) -> Result<jiff::civil::DateTime, StoreError> {
    text.parse()
        .map_err(|_| corrupt("a protest's time that is not a time"))
}

/// The id of protest `number` of `competition`, or why there is none.
async fn protest_id(tx: &mut Tx, competition: CompetitionId, number: u32) -> Result<i64, StoreError> {
    sqlx::query_scalar("SELECT id FROM protests WHERE competition_id = $1 AND number = $2")
        .bind(competition.0)
        .bind(i64::from(number))
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a protest"))?
        .ok_or_else(|| {
            StoreError::NotFound(format!(
                "there is no protest {number} in this competition; reload the protests page"
            ))
        })
}

impl Backend {
    /// AS-13: keeps a protest core has lodged, as the competition's next.
    pub async fn record_protest(
        &self,
        competition: CompetitionId,
        protest: &arbiter_core::event::protest::Protest,
        by: &Actor,
    ) -> Result<StoredProtest, StoreError> {
        let mut tx = self.write(by).await?;
        let league = league_of(&mut tx, competition).await?;
        let row = sqlx::query(
            "SELECT COALESCE(MAX(number), 0) AS n FROM protests WHERE competition_id = $1",
        )
        .bind(competition.0)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("numbering a protest"))?;
        let number = to_u32(get(&row, "n")?, "protest number")? + 1;
        let at = tx.at;
        let sql = format!(
            "INSERT INTO protests (competition_id, number, by_team, against_team, grounds, \
             lodged_at, order_protested, entered_by, entered_role, entered_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, {}) RETURNING id",
            ts_in("$10")
        );
        let row = sqlx::query(&sql)
            .bind(competition.0)
            .bind(i64::from(number))
            .bind(protest.by.0.as_str())
            .bind(protest.against.0.as_str())
            .bind(protest.grounds.as_str())
            .bind(protest.lodged_at.to_string())
            .bind(keys_text(&protest.order_protested))
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing a protest"))?;
        let id: i64 = get(&row, "id")?;
        bump_competition(&mut tx, competition.0).await?;
        tx.history(Change {
                league: Some(league),
                competition: Some(competition.0),
                team: Some(&protest.by.0),
                other_team: Some(&protest.against.0),
                after: Some(serde_json::json!({
                    "protest": number,
                    "order_protested": keys_text(&protest.order_protested),
                })),
                reason: Some(protest.grounds.as_str()),
                ..Change::of(Entity::Competition, competition.to_string(), HistoryAction::LodgeProtest)
            },
        )
        .await?;
        tx.commit("saving the protest").await?;
        Ok(StoredProtest {
            id,
            number,
            protest: protest.clone(),
            lodged_by: by.user.clone(),
        })
    }

    /// AS-13: keeps the team affected's reply to protest `number`; once.
    pub async fn record_protest_reply(
        &self,
        competition: CompetitionId,
        number: u32,
        reply: &arbiter_core::event::protest::Reply,
        by: &Actor,
    ) -> Result<(), StoreError> {
        use arbiter_core::event::protest::Answer;
        let mut tx = self.write(by).await?;
        let league = league_of(&mut tx, competition).await?;
        let id = protest_id(&mut tx, competition, number).await?;
        let answered: Option<i64> =
            sqlx::query_scalar("SELECT protest_id FROM protest_replies WHERE protest_id = $1")
                .bind(id)
                .fetch_optional(&mut **tx)
                .await
                .map_err(db("reading a protest's reply"))?;
        if answered.is_some() {
            return Err(StoreError::Stale(format!(
                "protest {number} has its reply already; reload the protests page to read it"
            )));
        }
        let text = match &reply.answer {
            Answer::Written(r) => Some(r.as_str()),
            Answer::Declined => None,
        };
        let at = tx.at;
        let sql = format!(
            "INSERT INTO protest_replies (protest_id, answer, replied_at, entered_by, entered_role, entered_at) \
             VALUES ($1, $2, $3, $4, $5, {})",
            ts_in("$6")
        );
        sqlx::query(&sql)
            .bind(id)
            .bind(text)
            .bind(reply.at.to_string())
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .execute(&mut **tx)
            .await
            .map_err(db("storing a protest's reply"))?;
        bump_competition(&mut tx, competition.0).await?;
        tx.history(Change {
                league: Some(league),
                competition: Some(competition.0),
                after: Some(serde_json::json!({ "protest": number, "declined": text.is_none() })),
                reason: text,
                ..Change::of(Entity::Competition, competition.to_string(), HistoryAction::ReplyToProtest)
            },
        )
        .await?;
        tx.commit("saving the reply").await
    }

    /// AS-13: keeps the arbiter's decision on protest `number`, once; an upheld protest puts
    /// the team affected's roster in the order it set, in the same transaction.
    pub async fn record_protest_decision(
        &self,
        competition: CompetitionId,
        number: u32,
        against: &TeamId,
        decision: &arbiter_core::event::protest::Decision,
        by: &Actor,
    ) -> Result<(), StoreError> {
        use arbiter_core::event::protest::Ruling;
        let mut tx = self.write(by).await?;
        let league = league_of(&mut tx, competition).await?;
        let id = protest_id(&mut tx, competition, number).await?;
        let decided: Option<i64> =
            sqlx::query_scalar("SELECT protest_id FROM protest_decisions WHERE protest_id = $1")
                .bind(id)
                .fetch_optional(&mut **tx)
                .await
                .map_err(db("reading a protest's decision"))?;
        if decided.is_some() {
            return Err(StoreError::Stale(format!(
                "protest {number} is decided already; reload the protests page to read the decision"
            )));
        }
        let (ruling, order) = match &decision.ruling {
            Ruling::Dismissed => ("dismissed", None),
            Ruling::Upheld { order } => ("upheld", Some(order)),
        };
        let at = tx.at;
        let sql = format!(
            "INSERT INTO protest_decisions (protest_id, ruling, new_order, reason, decided_at, \
             decided_by, entered_role, entered_at) VALUES ($1, $2, $3, $4, $5, $6, $7, {})",
            ts_in("$8")
        );
        sqlx::query(&sql)
            .bind(id)
            .bind(ruling)
            .bind(order.map(|o| keys_text(o)))
            .bind(decision.reason.as_ref().map(|r| r.as_str().to_string()))
            .bind(decision.at.to_string())
            .bind(decision.by.as_str())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .execute(&mut **tx)
            .await
            .map_err(db("storing a protest's decision"))?;
        if let Some(order) = order {
            // AS-10, AS-13: the roster's order is the one the arbiter set.
            let team: i64 = sqlx::query_scalar(
                "SELECT id FROM teams WHERE competition_id = $1 AND team_key = $2",
            )
            .bind(competition.0)
            .bind(against.0.as_str())
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a team"))?
            .ok_or_else(|| StoreError::NotFound(format!("there is no team `{against}`")))?;
            let players = player_rows(&mut tx, competition.0).await?;
            sqlx::query("DELETE FROM roster_entries WHERE team_id = $1")
                .bind(team)
                .execute(&mut **tx)
                .await
                .map_err(db("reordering a roster"))?;
            for (position, p) in (1_i64..).zip(order) {
                let player = players.get(&p.0).copied().ok_or_else(|| {
                    StoreError::Invalid(format!("{p} is not on the roster of `{against}`"))
                })?;
                sqlx::query(
                    "INSERT INTO roster_entries (team_id, position, player_id) VALUES ($1, $2, $3)",
                )
                .bind(team)
                .bind(position)
                .bind(player)
                .execute(&mut **tx)
                .await
                .map_err(db("reordering a roster"))?;
            }
        }
        bump_competition(&mut tx, competition.0).await?;
        tx.history(Change {
                league: Some(league),
                competition: Some(competition.0),
                team: Some(&against.0),
                after: Some(serde_json::json!({
                    "protest": number,
                    "ruling": ruling,
                    "order": order.map(|o| keys_text(o)),
                })),
                reason: decision.reason.as_ref().map(|r| r.as_str()),
                ..Change::of(Entity::Competition, competition.to_string(), HistoryAction::DecideProtest)
            },
        )
        .await?;
        tx.commit("saving the decision").await
    }

    /// Every protest of `competition` with its reply and decision, the first lodged first.
    pub async fn protests(
        &self,
        competition: CompetitionId,
    ) -> Result<Vec<StoredProtest>, StoreError> {
        use arbiter_core::event::protest::{Answer, Decision, Protest, Reply, Ruling};
        let mut tx = begin_read(&self.pool).await?;
        let rows = sqlx::query(
            "SELECT p.id, p.number, p.by_team, p.against_team, p.grounds, p.lodged_at, \
             p.order_protested, p.entered_by, r.protest_id AS replied, r.answer, r.replied_at, \
             d.ruling, d.new_order, d.reason, d.decided_at, d.decided_by \
             FROM protests p LEFT JOIN protest_replies r ON r.protest_id = p.id \
             LEFT JOIN protest_decisions d ON d.protest_id = p.id \
             WHERE p.competition_id = $1 ORDER BY p.number",
        )
        .bind(competition.0)
        .fetch_all(&mut *tx)
        .await
        .map_err(db("reading the protests"))?;
        rows.iter()
            .map(|row| {
                let reply = match get::<Option<i64>>(row, "replied")? {
                    None => None,
                    Some(_) => Some(Reply {
                        answer: match get::<Option<String>>(row, "answer")? {
                            Some(t) => Answer::Written(reason_of(&t)?),
                            None => Answer::Declined,
                        },
                        at: civil(&get::<String>(row, "replied_at")?)?,
                    }),
                };
                let decision = match get::<Option<String>>(row, "ruling")? {
                    None => None,
                    Some(ruling) => Some(Decision {
                        ruling: if ruling == "upheld" {
                            Ruling::Upheld {
                                order: keys_of(&get::<Option<String>>(row, "new_order")?.unwrap_or_default()),
                            }
                        } else {
                            Ruling::Dismissed
                        },
                        by: get(row, "decided_by")?,
                        at: civil(&get::<String>(row, "decided_at")?)?,
                        reason: get::<Option<String>>(row, "reason")?
                            .map(|t| reason_of(&t))
                            .transpose()?,
                    }),
                };
                Ok(StoredProtest {
                    id: get(row, "id")?,
                    number: to_u32(get(row, "number")?, "protest number")?,
                    protest: Protest {
                        by: TeamId(get(row, "by_team")?),
                        against: TeamId(get(row, "against_team")?),
                        grounds: reason_of(&get::<String>(row, "grounds")?)?,
                        lodged_at: civil(&get::<String>(row, "lodged_at")?)?,
                        order_protested: keys_of(&get::<String>(row, "order_protested")?),
                        reply,
                        decision,
                    },
                    lodged_by: get(row, "entered_by")?,
                })
            })
            .collect()
    }
}
