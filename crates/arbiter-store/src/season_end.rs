// The end of a season's queries (issue 15, migration 0022), compiled for each backend as
// `queries.rs` is: `sqlite.rs` and `postgres.rs` `include!` this file after it.
//
// Core has decided everything before it comes here (the qualifiers, the seeds, the bracket's
// pairings, the playoff calendar, a deciding game's place, the report's facts); the store keeps
// its own needs: the playoffs are drawn once a season, a round is paired only on the
// competition as it was read, a report's version is the next of its moment, and every change is
// a row of the history.

use arbiter_core::season_end::bracket::{DecidingGame, PlayoffCalendar};
use arbiter_core::season_end::media::Moment;
use arbiter_core::season_end::qualify::Seed;
use arbiter_core::rules::ruleset::PlayoffTiebreak;

use crate::records::{
    RoundNote, DecidingGameRecord, MEDIA_REPORT_MAX_CHARS, MediaReportVersion, PlayoffRecord, TieDecision,
};

/// The team keys of a decision as they are kept: one line, comma-separated (a key has no comma:
/// the competition files' ids are slugs).
fn order_text(order: &[TeamId]) -> String {
    order.iter().map(|t| t.0.as_str()).collect::<Vec<_>>().join(",")
}

/// The playoffs of `season`, with their field and days, as of the transaction.
async fn playoffs_in(tx: &mut Tx, season: SeasonId) -> Result<Option<PlayoffRecord>, StoreError> {
    let sql = format!(
        "SELECT id, competition_id, drawn_by, {} AS drawn_at FROM playoffs WHERE season_id = $1",
        ts_out("drawn_at")
    );
    let Some(row) = sqlx::query(&sql)
        .bind(season.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading the playoffs"))?
    else {
        return Ok(None);
    };
    let id: i64 = get(&row, "id")?;
    let at: String = get(&row, "drawn_at")?;
    let seeds = sqlx::query(
        "SELECT seed, team_key, name, school, division, place FROM playoff_seeds \
         WHERE playoff_id = $1 ORDER BY seed",
    )
    .bind(id)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the playoff field"))?;
    let field = seeds
        .iter()
        .map(|r| {
            Ok(Seed {
                seed: to_u32(get(r, "seed")?, "seed")?,
                team: TeamId(get(r, "team_key")?),
                name: get(r, "name")?,
                school: get(r, "school")?,
                division: get(r, "division")?,
                place: to_u32(get(r, "place")?, "place")?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let sql = format!(
        "SELECT round, {} AS day FROM playoff_days WHERE playoff_id = $1 ORDER BY round",
        date_out("day")
    );
    let days = sqlx::query(&sql)
        .bind(id)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the playoff calendar"))?;
    let mut rounds = Vec::new();
    let mut bye_date = None;
    for r in &days {
        let round: i64 = get(r, "round")?;
        let day = codes::parse_date(Some(get(r, "day")?))?
            .ok_or_else(|| corrupt("a playoff day with no date"))?;
        if round == 0 {
            bye_date = Some(day);
        } else {
            rounds.push(day);
        }
    }
    Ok(Some(PlayoffRecord {
        season,
        competition: CompetitionId(get(&row, "competition_id")?),
        field,
        days: rounds,
        bye_date,
        drawn_by: get(&row, "drawn_by")?,
        drawn_at: codes::parse_timestamp(&at)?,
    }))
}

async fn media_reports_in(
    tx: &mut Tx,
    season: SeasonId,
) -> Result<Vec<MediaReportVersion>, StoreError> {
    let sql = format!(
        "SELECT moment, version, published, text_body, markdown, written_by, written_role, \
         {} AS written_at FROM media_reports WHERE season_id = $1 ORDER BY moment DESC, version",
        ts_out("written_at")
    );
    let rows = sqlx::query(&sql)
        .bind(season.0)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the media reports"))?;
    rows.iter()
        .map(|r| {
            let at: String = get(r, "written_at")?;
            let published: i64 = get(r, "published")?;
            Ok(MediaReportVersion {
                moment: code(r, "moment", Moment::from_code)?,
                version: to_u32(get(r, "version")?, "report version")?,
                published: published == 1,
                text: get(r, "text_body")?,
                markdown: get(r, "markdown")?,
                written_by: get(r, "written_by")?,
                written_role: role_in(r, "written_role")?,
                written_at: codes::parse_timestamp(&at)?,
            })
        })
        .collect()
}

impl Backend {
    /// Each season's media reports with a published version (GT-O3), as (season, moment): the
    /// home page links them for every season in one query (issue 35).
    pub async fn published_media_reports(&self) -> Result<Vec<(SeasonId, Moment)>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT season_id, moment FROM media_reports WHERE published = 1 \
             ORDER BY season_id, moment DESC",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(db("reading the published media reports"))?;
        rows.iter()
            .map(|r| Ok((SeasonId(get(r, "season_id")?), code(r, "moment", Moment::from_code)?)))
            .collect()
    }

    /// GT-F3: keeps the officers' order of teams tied in division `competition`, with why.
    pub async fn record_tie_decision(
        &self,
        competition: CompetitionId,
        order: &[TeamId],
        reason: &str,
        by: &Actor,
    ) -> Result<TieDecision, StoreError> {
        let reason = check::reason(Some(reason))?.ok_or_else(|| {
            StoreError::Invalid(
                "an officers' decision on a tie says why (GT-F3); give the reason".into(),
            )
        })?;
        if order.len() < 2 {
            return Err(StoreError::Invalid(
                "an officers' decision orders two or more tied teams (GT-F3)".into(),
            ));
        }
        let mut tx = self.write(by).await?;
        let league = league_of(&mut tx, competition).await?;
        let at = tx.at;
        let sql = format!(
            "INSERT INTO tie_decisions (competition_id, team_order, reason, decided_by, \
             decided_role, decided_at) VALUES ($1, $2, $3, $4, $5, {}) RETURNING id",
            ts_in("$6")
        );
        let row = sqlx::query(&sql)
            .bind(competition.0)
            .bind(order_text(order))
            .bind(reason.as_str())
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing the officers' decision"))?;
        let id: i64 = get(&row, "id")?;
        bump_competition(&mut tx, competition.0).await?;
        tx.history(Change {
                league: Some(league),
                competition: Some(competition.0),
                after: Some(serde_json::json!({ "order": order_text(order) })),
                reason: Some(reason.as_str()),
                ..Change::of(Entity::Competition, competition.to_string(), HistoryAction::DecideTie)
            },
        )
        .await?;
        tx.commit("saving the officers' decision").await?;
        Ok(TieDecision {
            id,
            competition,
            order: order.to_vec(),
            reason: reason.as_str().to_string(),
            decided_by: by.user.clone(),
            decided_at: at,
        })
    }

    /// The officers' decisions on ties in the season's divisions, oldest first.
    pub async fn tie_decisions(&self, season: SeasonId) -> Result<Vec<TieDecision>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let sql = format!(
            "SELECT d.id, d.competition_id, d.team_order, d.reason, d.decided_by, \
             {} AS decided_at FROM tie_decisions d JOIN competitions c ON c.id = d.competition_id \
             WHERE c.season_id = $1 ORDER BY d.id",
            ts_out("d.decided_at")
        );
        let rows = sqlx::query(&sql)
            .bind(season.0)
            .fetch_all(&mut *tx)
            .await
            .map_err(db("reading the officers' decisions"))?;
        tx.commit().await.map_err(db("reading the officers' decisions"))?;
        rows.iter()
            .map(|r| {
                let order: String = get(r, "team_order")?;
                let at: String = get(r, "decided_at")?;
                Ok(TieDecision {
                    id: get(r, "id")?,
                    competition: CompetitionId(get(r, "competition_id")?),
                    order: order.split(',').map(|t| TeamId(t.to_string())).collect(),
                    reason: get(r, "reason")?,
                    decided_by: get(r, "decided_by")?,
                    decided_at: codes::parse_timestamp(&at)?,
                })
            })
            .collect()
    }

    /// GT-F3: stores the season's playoffs in one transaction: the playoff competition (the
    /// qualifiers' teams and rosters, round 1 paired), the seeded field and the calendar with
    /// its bye date (GT-F5). [`StoreError::Conflict`] when the season has playoffs already.
    pub async fn draw_playoffs(
        &self,
        season: SeasonId,
        new: &NewCompetition,
        competition: &Competition,
        field: &[Seed],
        calendar: &PlayoffCalendar,
        by: &Actor,
    ) -> Result<PlayoffRecord, StoreError> {
        let mut tx = self.write(by).await?;
        let at = tx.at;
        if playoffs_in(&mut tx, season).await?.is_some() {
            return Err(StoreError::Conflict(
                "the season's playoffs are drawn already; their bracket is on the playoffs page"
                    .into(),
            ));
        }
        let record = insert_competition(&mut tx, season, new, competition, by, at).await?;
        let sql = format!(
            "INSERT INTO playoffs (season_id, competition_id, drawn_by, drawn_role, drawn_at) \
             VALUES ($1, $2, $3, $4, {}) RETURNING id",
            ts_in("$5")
        );
        let row = sqlx::query(&sql)
            .bind(season.0)
            .bind(record.id.0)
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing the playoffs"))?;
        let id: i64 = get(&row, "id")?;
        for s in field {
            sqlx::query(
                "INSERT INTO playoff_seeds (playoff_id, seed, team_key, name, school, division, \
                 place) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(id)
            .bind(i64::from(s.seed))
            .bind(&s.team.0)
            .bind(&s.name)
            .bind(s.school.as_deref())
            .bind(&s.division)
            .bind(i64::from(s.place))
            .execute(&mut **tx)
            .await
            .map_err(db("storing a playoff seed"))?;
        }
        let days = calendar
            .rounds
            .iter()
            .enumerate()
            .map(|(i, d)| (i64::try_from(i + 1).unwrap_or(i64::MAX), *d))
            .chain([(0, calendar.bye_date)]);
        for (round, day) in days {
            let sql = format!(
                "INSERT INTO playoff_days (playoff_id, round, day) VALUES ($1, $2, {})",
                date_in("$3")
            );
            sqlx::query(&sql)
                .bind(id)
                .bind(round)
                .bind(day.to_string())
                .execute(&mut **tx)
                .await
                .map_err(db("storing a playoff day"))?;
        }
        let league = league_of(&mut tx, record.id).await?;
        tx.history(Change {
                league: Some(league),
                competition: Some(record.id.0),
                after: Some(serde_json::json!({
                    "field": field.iter().map(|s| serde_json::json!({
                        "seed": s.seed, "team": s.team.0, "division": s.division, "place": s.place,
                    })).collect::<Vec<_>>(),
                    "rounds": calendar.rounds.iter().map(ToString::to_string).collect::<Vec<_>>(),
                    "bye_date": calendar.bye_date.to_string(),
                })),
                ..Change::of(Entity::Playoffs, record.id.to_string(), HistoryAction::DrawPlayoffs)
            },
        )
        .await?;
        let drawn = playoffs_in(&mut tx, season).await?;
        mark_changed(&mut tx, Touched::Season(season.0)).await?;
        tx.commit("saving the playoffs").await?;
        drawn.ok_or_else(|| corrupt("playoffs stored but not read back"))
    }

    /// The season's playoffs, once drawn.
    pub async fn playoffs(&self, season: SeasonId) -> Result<Option<PlayoffRecord>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let found = playoffs_in(&mut tx, season).await?;
        tx.commit().await.map_err(db("reading the playoffs"))?;
        Ok(found)
    }

    /// Adds `round` (its matches still to play, core's bracket paired them) to the playoff
    /// competition, if it is still at `seen`, the version read; else [`StoreError::Stale`].
    pub async fn pair_round(
        &self,
        competition: CompetitionId,
        seen: i64,
        round: &Round,
        by: &Actor,
    ) -> Result<(), StoreError> {
        self.add_round(competition, seen, round, &RoundNote::Knockout, by)
            .await
    }

    /// Adds `round` (its matches, no result yet, and its byes) to the competition if it is still
    /// at version `seen` and has no such round; else [`StoreError::Stale`]. The history keeps the
    /// round as `note` says it was paired.
    pub async fn add_round(
        &self,
        competition: CompetitionId,
        seen: i64,
        round: &Round,
        note: &RoundNote<'_>,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let reason = match note {
            RoundNote::Knockout => None,
            RoundNote::Swiss { reason, overridden, .. } => {
                for o in *overridden {
                    check::text(TextKind::Reason, "an overridden criterion", o)?;
                }
                check::reason(*reason)?
            }
        };
        let mut tx = self.write(by).await?;
        let row = sqlx::query(
            "SELECT c.version, c.league_id, (SELECT COALESCE(MAX(position) + 1, 0) FROM rounds r \
             WHERE r.competition_id = c.id) AS next, (SELECT COUNT(*) FROM rounds r \
             WHERE r.competition_id = c.id AND r.number = $2) AS taken \
             FROM competitions c WHERE c.id = $1",
        )
        .bind(competition.0)
        .bind(i64::from(round.number))
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading the competition"))?
        .ok_or_else(|| StoreError::NotFound(format!("there is no competition with id {competition}")))?;
        let version: i64 = get(&row, "version")?;
        let taken: i64 = get(&row, "taken")?;
        if version != seen || taken > 0 {
            return Err(StoreError::Stale(match note {
                RoundNote::Knockout => format!(
                    "the playoffs changed after they were read (round {} may be paired already); read them again",
                    round.number
                ),
                RoundNote::Swiss { .. } => format!(
                    "the competition changed after its pairing was read (round {} may be published already, or a result changed); read the pairing again",
                    round.number
                ),
            }));
        }
        let league: i64 = get(&row, "league_id")?;
        let position: i64 = get(&row, "next")?;
        let teams: HashMap<String, i64> =
            sqlx::query("SELECT id, team_key FROM teams WHERE competition_id = $1")
                .bind(competition.0)
                .fetch_all(&mut **tx)
                .await
                .map_err(db("reading the teams"))?
                .iter()
                .map(|r| Ok((get(r, "team_key")?, get(r, "id")?)))
                .collect::<Result<_, StoreError>>()?;
        let team_row = |t: &TeamId| {
            teams.get(&t.0).copied().ok_or_else(|| {
                StoreError::Invalid(format!("the team `{t}` is not in the competition"))
            })
        };
        let sql = format!(
            "INSERT INTO rounds (competition_id, number, position, played_on) \
             VALUES ($1, $2, $3, {}) RETURNING id",
            date_in("$4")
        );
        let row = sqlx::query(&sql)
            .bind(competition.0)
            .bind(i64::from(round.number))
            .bind(position)
            .bind(round.date.map(|d| d.to_string()))
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing a round"))?;
        let round_id: i64 = get(&row, "id")?;
        let at = tx.at;
        let no_players = HashMap::new();
        for (place, p) in round.pairings.iter().enumerate() {
            let place = i64::try_from(place).unwrap_or(i64::MAX);
            match p {
                Pairing::Match(m) => {
                    let row = sqlx::query(
                        "INSERT INTO matches (round_id, position, home_team_id, away_team_id) \
                         VALUES ($1, $2, $3, $4) RETURNING id",
                    )
                    .bind(round_id)
                    .bind(place)
                    .bind(team_row(&m.home)?)
                    .bind(team_row(&m.away)?)
                    .fetch_one(&mut **tx)
                    .await
                    .map_err(db("storing a match"))?;
                    let match_id: i64 = get(&row, "id")?;
                    insert_result(
                        &mut tx,
                        match_id,
                        1,
                        &MatchOutcome::Pending,
                        by,
                        at,
                        None,
                        (ResultBasis::Entered, None),
                        &no_players,
                    )
                    .await?;
                }
                Pairing::Bye(b) => {
                    sqlx::query(
                        "INSERT INTO byes (round_id, position, team_id, kind) VALUES ($1, $2, $3, $4)",
                    )
                    .bind(round_id)
                    .bind(place)
                    .bind(team_row(&b.team)?)
                    .bind(codes::bye_kind(b.kind))
                    .execute(&mut **tx)
                    .await
                    .map_err(db("storing a bye"))?;
                }
            }
        }
        bump_competition(&mut tx, competition.0).await?;
        let mut after = serde_json::json!({
            "round": round.number,
            "on": round.date.map(|d| d.to_string()),
            "matches": round.matches().map(|m| format!("{} v {}", m.home, m.away)).collect::<Vec<_>>(),
        });
        let change = match note {
            RoundNote::Knockout => Change::of(Entity::Playoffs, competition.to_string(), HistoryAction::PairRound),
            RoundNote::Swiss { paired, changed, bye_by_hand, overridden, .. } => {
                after["bye_by_hand"] = bye_by_hand.map(|t| t.0.clone()).into();
                if !overridden.is_empty() {
                    after["overridden_absolute"] = overridden.to_vec().into();
                }
                after["byes"] = round
                    .pairings
                    .iter()
                    .filter_map(|p| match p {
                        Pairing::Bye(b) => Some(b.team.0.clone()),
                        Pairing::Match(_) => None,
                    })
                    .collect::<Vec<_>>()
                    .into();
                after["paired"] = (*paired).clone();
                after["changed_by_hand"] =
                    changed.iter().map(|t| t.0.clone()).collect::<Vec<_>>().into();
                Change::of(Entity::Competition, competition.to_string(), HistoryAction::PublishPairing)
            }
        };
        tx.history(Change {
                league: Some(league),
                competition: Some(competition.0),
                after: Some(after),
                reason: reason.as_ref().map(|r| r.as_str()),
                ..change
            },
        )
        .await?;
        tx.commit("saving the round").await?;
        Ok(())
    }

    /// Keeps a game deciding a drawn knockout match (core's `bracket::knockout` has placed it).
    /// `corrects`: the entered game this one corrects, which stays, superseded; refused as
    /// [`StoreError::Stale`] when that game is already corrected, and as
    /// [`StoreError::Invalid`] when it is not a game of the same match.
    pub async fn record_deciding_game(
        &self,
        competition: CompetitionId,
        game: &DecidingGame,
        corrects: Option<i64>,
        reason: Option<&str>,
        by: &Actor,
    ) -> Result<(), StoreError> {
        let reason = check::reason(reason)?;
        if !matches!(game.kind, PlayoffTiebreak::Armageddon | PlayoffTiebreak::PlayoffGame) {
            return Err(StoreError::Invalid(format!(
                "{} is not a game; only an Armageddon or a playoff game is entered",
                game.kind.words()
            )));
        }
        let mut tx = self.write(by).await?;
        let league = league_of(&mut tx, competition).await?;
        let mut before = None;
        if let Some(id) = corrects {
            let row = sqlx::query(
                "SELECT round, team_key, kind, black, result, \
                 (SELECT COUNT(*) FROM deciding_games c WHERE c.corrects = g.id) AS corrected \
                 FROM deciding_games g WHERE g.id = $1 AND g.competition_id = $2",
            )
            .bind(id)
            .bind(competition.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading the deciding game corrected"))?;
            let Some(row) = row else {
                return Err(StoreError::Invalid(format!(
                    "there is no deciding game {id} in this competition to correct"
                )));
            };
            let corrected: i64 = get(&row, "corrected")?;
            if corrected > 0 {
                return Err(StoreError::Stale(
                    "that deciding game was corrected already; correct the version in force, as the playoffs page shows it now".into(),
                ));
            }
            let (round, team): (i64, String) = (get(&row, "round")?, get(&row, "team_key")?);
            if round != i64::from(game.round) || team != game.team.0 {
                return Err(StoreError::Invalid(
                    "a correction is of the same match's game: same round, same teams".into(),
                ));
            }
            let (kind, black, result): (String, String, String) =
                (get(&row, "kind")?, get(&row, "black")?, get(&row, "result")?);
            before = Some(serde_json::json!({
                "round": round,
                "team": team,
                "kind": kind,
                "black": black,
                "result": result,
            }));
        }
        let at = tx.at;
        let sql = format!(
            "INSERT INTO deciding_games (competition_id, round, team_key, kind, black, result, \
             reason, entered_by, entered_role, entered_at, corrects) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, {}, $11)",
            ts_in("$10")
        );
        sqlx::query(&sql)
            .bind(competition.0)
            .bind(i64::from(game.round))
            .bind(&game.team.0)
            .bind(game.kind.code())
            .bind(codes::side(game.black))
            .bind(game.result.code())
            .bind(reason.as_ref().map(|r| r.as_str()))
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .bind(corrects)
            .execute(&mut **tx)
            .await
            .map_err(db("storing the deciding game"))?;
        bump_competition(&mut tx, competition.0).await?;
        let action = if corrects.is_some() {
            HistoryAction::CorrectDecidingGame
        } else {
            HistoryAction::RecordDecidingGame
        };
        tx.history(Change {
                league: Some(league),
                competition: Some(competition.0),
                team: Some(&game.team.0),
                before,
                after: Some(serde_json::json!({
                    "round": game.round,
                    "team": game.team.0,
                    "kind": game.kind.code(),
                    "black": codes::side(game.black),
                    "result": game.result.code(),
                })),
                reason: reason.as_ref().map(|r| r.as_str()),
                ..Change::of(Entity::Playoffs, competition.to_string(), action)
            },
        )
        .await?;
        tx.commit("saving the deciding game").await?;
        Ok(())
    }

    /// The games entered to decide drawn knockout matches of `competition`, oldest first.
    pub async fn deciding_games(
        &self,
        competition: CompetitionId,
    ) -> Result<Vec<DecidingGameRecord>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let sql = format!(
            "SELECT id, round, team_key, kind, black, result, reason, entered_by, corrects, \
             {} AS entered_at FROM deciding_games WHERE competition_id = $1 ORDER BY id",
            ts_out("entered_at")
        );
        let rows = sqlx::query(&sql)
            .bind(competition.0)
            .fetch_all(&mut *tx)
            .await
            .map_err(db("reading the deciding games"))?;
        tx.commit().await.map_err(db("reading the deciding games"))?;
        rows.iter()
            .map(|r| {
                let at: String = get(r, "entered_at")?;
                let black: String = get(r, "black")?;
                let result: String = get(r, "result")?;
                Ok(DecidingGameRecord {
                    id: get(r, "id")?,
                    corrects: get(r, "corrects")?,
                    game: DecidingGame {
                        round: to_u32(get(r, "round")?, "round")?,
                        team: TeamId(get(r, "team_key")?),
                        kind: code(r, "kind", PlayoffTiebreak::from_code)?,
                        black: codes::parse_side(&black)?,
                        result: codes::parse_result(&result)?,
                    },
                    reason: get(r, "reason")?,
                    entered_by: get(r, "entered_by")?,
                    entered_at: codes::parse_timestamp(&at)?,
                })
            })
            .collect()
    }

    /// GT-O3: keeps a version of the season's `moment` report, a draft or published. Its
    /// version is the next after `seen`, the versions read; else [`StoreError::Stale`].
    #[allow(clippy::too_many_arguments)] // one row's columns
    pub async fn record_media_report(
        &self,
        league: LeagueId,
        season: SeasonId,
        moment: Moment,
        seen: u32,
        (text, markdown): (&str, &str),
        publish: bool,
        by: &Actor,
    ) -> Result<MediaReportVersion, StoreError> {
        for (what, body) in [("press release", text), ("Markdown", markdown)] {
            if body.trim().is_empty() {
                return Err(StoreError::Invalid(format!(
                    "the report's {what} is empty; write it, or keep the draft the product made"
                )));
            }
            if body.chars().count() > MEDIA_REPORT_MAX_CHARS {
                return Err(StoreError::Invalid(format!(
                    "the report's {what} is {} characters; a report is at most {MEDIA_REPORT_MAX_CHARS}",
                    body.chars().count()
                )));
            }
        }
        let mut tx = self.write(by).await?;
        let season_slug = season_of(&mut tx, league, season).await?;
        let before = media_reports_in(&mut tx, season).await?;
        let latest = before
            .iter()
            .filter(|r| r.moment == moment)
            .map(|r| r.version)
            .max()
            .unwrap_or(0);
        if latest != seen {
            return Err(StoreError::Stale(format!(
                "the {} report changed after it was read: it was read at version {seen} and is now at version {latest}; nothing was saved, so read it again",
                moment.code()
            )));
        }
        let at = tx.at;
        let version = latest + 1;
        let sql = format!(
            "INSERT INTO media_reports (league_id, season_id, moment, version, published, \
             text_body, markdown, written_by, written_role, written_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, {}) RETURNING id",
            ts_in("$10")
        );
        let row = sqlx::query(&sql)
            .bind(league.0)
            .bind(season.0)
            .bind(moment.code())
            .bind(i64::from(version))
            .bind(i64::from(publish))
            .bind(text)
            .bind(markdown)
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(|e| match &e {
                sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Stale(
                    "the report changed after it was read; read it again".into(),
                ),
                _ => db("storing the media report")(e),
            })?;
        let id: i64 = get(&row, "id")?;
        tx.history(Change {
                league: Some(league.0),
                after: Some(serde_json::json!({
                    "season": season_slug,
                    "moment": moment.code(),
                    "version": version,
                    "published": publish,
                    "text": text,
                })),
                ..Change::of(
                    Entity::MediaReport,
                    id.to_string(),
                    if publish {
                        HistoryAction::PublishMediaReport
                    } else {
                        HistoryAction::DraftMediaReport
                    },
                )
            },
        )
        .await?;
        tx.commit("saving the media report").await?;
        Ok(MediaReportVersion {
            moment,
            version,
            published: publish,
            text: text.to_string(),
            markdown: markdown.to_string(),
            written_by: by.user.clone(),
            written_role: by.role,
            written_at: at,
        })
    }

    /// Every version of the season's media reports: midway then the end, oldest first.
    pub async fn media_reports(
        &self,
        season: SeasonId,
    ) -> Result<Vec<MediaReportVersion>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let found = media_reports_in(&mut tx, season).await?;
        tx.commit().await.map_err(db("reading the media reports"))?;
        Ok(found)
    }
}
