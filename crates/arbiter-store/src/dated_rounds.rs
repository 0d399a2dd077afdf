// The rounds by their dates (issue 35): what the home page lists this week and next, read from
// the rounds' dates and the matches' team names instead of from every competition's view.
// Written once and compiled for each backend as `queries.rs` is: `sqlite.rs` and `postgres.rs`
// `include!` this file after it.

use crate::records::DatedRound;

type DbQuery<'q> = sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>>;

/// The rounds whose date (the round's own, `rounds.played_on`) meets `cond` over `r`
/// (rounds) and `c` (competitions), each with its matches in pairing order, read in `tx`.
/// `bind` binds the condition's parameters to both queries.
async fn dated_rounds_in(
    tx: &mut Tx,
    cond: &str,
    bind: impl for<'q> Fn(DbQuery<'q>) -> DbQuery<'q>,
    with_matches: bool,
) -> Result<Vec<DatedRound>, StoreError> {
    let sql = format!(
        "SELECT r.id, r.number, {} AS played_on, c.id AS competition_id, c.season_id, \
         c.league_id FROM rounds r JOIN competitions c ON c.id = r.competition_id \
         WHERE r.played_on IS NOT NULL AND {cond} ORDER BY r.played_on, c.id, r.number",
        date_out("r.played_on")
    );
    let rows = bind(sqlx::query(&sql))
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the rounds by date"))?;
    // GT-M5 excludes a dropped team's matches, which only scoring works out; a team is dropped
    // only by its match forfeits, so the most any one team has in force (a forfeit corrected
    // away counts for nothing) says whether scoring need be asked at all. Counted for the
    // competitions of these rounds in one grouped query, not one a round.
    let sql = format!(
        "SELECT r2.competition_id, COUNT(*) AS n FROM result_versions v \
         JOIN matches m2 ON m2.id = v.match_id JOIN rounds r2 ON r2.id = m2.round_id \
         WHERE v.outcome = 'forfeit' AND {IN_FORCE} AND r2.competition_id IN \
         (SELECT r.competition_id FROM rounds r JOIN competitions c ON c.id = r.competition_id \
         WHERE r.played_on IS NOT NULL AND {cond}) \
         GROUP BY r2.competition_id, \
         CASE WHEN v.forfeit_by = 'home' THEN m2.home_team_id ELSE m2.away_team_id END"
    );
    let forfeit_rows = bind(sqlx::query(&sql))
        .fetch_all(&mut **tx)
        .await
        .map_err(db("counting the match forfeits of the rounds by date"))?;
    let mut most_forfeits: HashMap<i64, u32> = HashMap::new();
    for row in &forfeit_rows {
        let n = to_u32(get(row, "n")?, "match forfeits")?;
        let most = most_forfeits.entry(get(row, "competition_id")?).or_default();
        *most = (*most).max(n);
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut index = HashMap::new();
    for row in &rows {
        let Some(date) = codes::parse_date(get(row, "played_on")?)? else {
            continue;
        };
        let competition: i64 = get(row, "competition_id")?;
        index.insert(get::<i64>(row, "id")?, out.len());
        out.push(DatedRound {
            league: LeagueId(get(row, "league_id")?),
            season: SeasonId(get(row, "season_id")?),
            competition: CompetitionId(competition),
            number: to_u32(get(row, "number")?, "round number")?,
            date,
            matches: Vec::new(),
            most_match_forfeits: most_forfeits.get(&competition).copied().unwrap_or(0),
        });
    }
    if !with_matches {
        return Ok(out);
    }
    let sql = format!(
        "SELECT m.round_id, h.name AS home, a.name AS away FROM matches m \
         JOIN rounds r ON r.id = m.round_id JOIN competitions c ON c.id = r.competition_id \
         JOIN teams h ON h.id = m.home_team_id JOIN teams a ON a.id = m.away_team_id \
         WHERE r.played_on IS NOT NULL AND {cond} ORDER BY m.round_id, m.position"
    );
    let rows = bind(sqlx::query(&sql))
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the matches of the rounds by date"))?;
    for row in &rows {
        if let Some(&i) = index.get(&get::<i64>(row, "round_id")?) {
            out[i].matches.push((get(row, "home")?, get(row, "away")?));
        }
    }
    Ok(out)
}

impl Backend {
    /// Every round dated from `from` to `to` (both included), of every league, each with its
    /// matches' team names in pairing order; by date, competition and number.
    pub async fn rounds_between(
        &self,
        from: jiff::civil::Date,
        to: jiff::civil::Date,
    ) -> Result<Vec<DatedRound>, StoreError> {
        let cond = format!(
            "r.played_on >= {} AND r.played_on <= {}",
            date_in("$1"),
            date_in("$2")
        );
        let (from, to) = (from.to_string(), to.to_string());
        let mut tx = begin_read(&self.pool).await?;
        let out = dated_rounds_in(
            &mut tx,
            &cond,
            |q| q.bind(from.clone()).bind(to.clone()),
            true,
        )
        .await?;
        tx.commit().await.map_err(db("reading the rounds by date"))?;
        Ok(out)
    }

    /// The rounds of every league on its first round day after `after`, each league's next
    /// round day, without their matches ([`Backend::round_matches`] reads the one shown): one
    /// query for all leagues, not one a league (issue 35).
    pub async fn first_rounds_after(
        &self,
        after: jiff::civil::Date,
    ) -> Result<Vec<DatedRound>, StoreError> {
        let cond = format!(
            "r.played_on > {after} AND (c.league_id, r.played_on) IN \
             (SELECT c3.league_id, MIN(r3.played_on) FROM rounds r3 \
             JOIN competitions c3 ON c3.id = r3.competition_id WHERE r3.played_on > {after} \
             GROUP BY c3.league_id)",
            after = date_in("$1")
        );
        let after = after.to_string();
        let mut tx = begin_read(&self.pool).await?;
        let out = dated_rounds_in(&mut tx, &cond, |q| q.bind(after.clone()), false).await?;
        tx.commit().await.map_err(db("reading the next rounds"))?;
        Ok(out)
    }

    /// The matches of round `number` of competition `c`, each as (home, away) team names, in
    /// pairing order.
    pub async fn round_matches(
        &self,
        c: CompetitionId,
        number: u32,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT h.name AS home, a.name AS away FROM matches m \
             JOIN rounds r ON r.id = m.round_id JOIN teams h ON h.id = m.home_team_id \
             JOIN teams a ON a.id = m.away_team_id \
             WHERE r.competition_id = $1 AND r.number = $2 ORDER BY m.position",
        )
        .bind(c.0)
        .bind(i64::from(number))
        .fetch_all(&self.pool)
        .await
        .map_err(db("reading a round's matches"))?;
        rows.iter()
            .map(|row| Ok((get(row, "home")?, get(row, "away")?)))
            .collect()
    }
}
