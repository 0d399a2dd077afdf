// The rounds by their dates (issue 35): what the home page lists this week and next, read from
// the rounds' dates and the matches' team names instead of from every competition's view.
// Written once and compiled for each backend as `queries.rs` is: `sqlite.rs` and `postgres.rs`
// `include!` this file after it.
//
// On a federation's round day ten thousand divisions play; the page shows a few of each
// league's. So the database picks them, in the site's order, and counts the rest; the matches
// and match forfeits are read only for the rounds shown.

use crate::records::{DatedRound, MoreOnDay, RoundDays};

type DbQuery<'q> = sqlx::query::Query<'q, Db, <Db as sqlx::Database>::Arguments<'q>>;

/// `order` (a list of a table's own columns) over the table's alias `t`.
fn over(t: &str, order: &str) -> String {
    order
        .split(", ")
        .map(|term| format!("{t}.{term}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rounds whose date (the round's own, `rounds.played_on`) meets `cond` over `r`
/// (rounds) and `c` (competitions), by date, competition and number, read in `tx`. `bind`
/// binds the condition's parameters.
async fn dated_rounds_in(
    tx: &mut Tx,
    cond: &str,
    bind: impl for<'q> Fn(DbQuery<'q>) -> DbQuery<'q>,
) -> Result<Vec<DatedRound>, StoreError> {
    let sql = format!(
        "SELECT r.id, r.number, {} AS played_on, c.id AS competition_id, c.season_id, \
         c.league_id FROM rounds r JOIN competitions c ON c.id = r.competition_id \
         WHERE r.played_on IS NOT NULL AND {cond} ORDER BY r.played_on, c.id, r.number",
        date_out("r.played_on")
    );
    let rows = bind(sqlx::query(&sql))
        .persistent(false)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the rounds by date"))?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        let Some(date) = codes::parse_date(get(row, "played_on")?)? else {
            continue;
        };
        out.push(DatedRound {
            id: get(row, "id")?,
            league: LeagueId(get(row, "league_id")?),
            season: SeasonId(get(row, "season_id")?),
            competition: CompetitionId(get(row, "competition_id")?),
            number: to_u32(get(row, "number")?, "round number")?,
            date,
        });
    }
    Ok(out)
}

impl Backend {
    /// The rounds dated from `from` to `to` (both included), of every league: on each
    /// league's day those of its first `up_to` competitions in the site's order (season, then
    /// competition), and the rest only counted; by date, competition and number.
    pub async fn rounds_between(
        &self,
        from: jiff::civil::Date,
        to: jiff::civil::Date,
        up_to: usize,
    ) -> Result<RoundDays, StoreError> {
        // Each round with its competition's place on its league's day.
        let placed = format!(
            "SELECT r.id, r.number, r.played_on, c.id AS competition_id, c.season_id, \
             c.league_id, DENSE_RANK() OVER (PARTITION BY c.league_id, r.played_on \
             ORDER BY so.place, c.id) AS place FROM rounds r \
             JOIN competitions c ON c.id = r.competition_id \
             JOIN (SELECT id, ROW_NUMBER() OVER (ORDER BY {SEASON_ORDER}) AS place FROM seasons) so \
             ON so.id = c.season_id \
             WHERE r.played_on >= {} AND r.played_on <= {}",
            date_in("$1"),
            date_in("$2")
        );
        let (from, to) = (from.to_string(), to.to_string());
        let mut tx = begin_read(&self.pool).await?;
        let cond = format!(
            "r.id IN (SELECT d.id FROM ({placed}) d WHERE d.place <= {up_to})"
        );
        let rounds =
            dated_rounds_in(&mut tx, &cond, |q| q.bind(from.clone()).bind(to.clone())).await?;
        // Counted without the ranking: a day's competitions less those listed.
        let sql = format!(
            "SELECT c.league_id, {} AS played_on, COUNT(DISTINCT c.id) AS n, \
             MIN(c.season_id) AS first_season, MAX(c.season_id) AS last_season \
             FROM rounds r JOIN competitions c ON c.id = r.competition_id \
             WHERE r.played_on >= {} AND r.played_on <= {} \
             GROUP BY c.league_id, r.played_on HAVING COUNT(DISTINCT c.id) > {up_to}",
            date_out("r.played_on"),
            date_in("$1"),
            date_in("$2")
        );
        let rows = sqlx::query(&sql)
            .bind(from)
            .bind(to)
            .fetch_all(&mut *tx)
            .await
            .map_err(db("counting the rounds by date"))?;
        tx.commit().await.map_err(db("reading the rounds by date"))?;
        let mut more = Vec::with_capacity(rows.len());
        for row in &rows {
            let Some(date) = codes::parse_date(get(row, "played_on")?)? else {
                continue;
            };
            let (first, last): (i64, i64) = (get(row, "first_season")?, get(row, "last_season")?);
            let n = to_u32(get(row, "n")?, "competitions")?;
            more.push(MoreOnDay {
                league: LeagueId(get(row, "league_id")?),
                date,
                competitions: n.saturating_sub(u32::try_from(up_to).unwrap_or(u32::MAX)),
                season: (first == last).then_some(SeasonId(first)),
            });
        }
        Ok(RoundDays { rounds, more })
    }

    /// The first round of `leagues` after `after`, in the site's order (league, season,
    /// competition, number): the home page's "next". Its day is found on the rounds' date
    /// index; only that day's rounds are ordered (issue 35).
    pub async fn first_round_after(
        &self,
        after: jiff::civil::Date,
        leagues: &[LeagueId],
    ) -> Result<Option<DatedRound>, StoreError> {
        let leagues = id_list(leagues.iter().map(|l| l.0));
        let mut tx = begin_read(&self.pool).await?;
        // `+` keeps SQLite on the date index, read in order up to the first round of these
        // leagues; on the leagues' index it read every round of theirs (12 ms at 10,000).
        let sql = format!(
            "SELECT {} AS played_on FROM rounds r JOIN competitions c ON c.id = r.competition_id \
             WHERE r.played_on > {} AND +c.league_id IN ({leagues}) \
             ORDER BY r.played_on LIMIT 1",
            date_out("r.played_on"),
            date_in("$1")
        );
        let day: Option<String> = sqlx::query_scalar(&sql)
            .persistent(false)
            .bind(after.to_string())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db("reading the next round day"))?;
        let first = match day {
            Some(day) => {
                let cond = format!(
                    "r.id = (SELECT r.id FROM rounds r JOIN competitions c ON c.id = r.competition_id \
                     JOIN seasons s ON s.id = c.season_id JOIN leagues l ON l.id = c.league_id \
                     WHERE r.played_on = {} AND c.league_id IN ({leagues}) \
                     ORDER BY {}, {}, c.id, r.number LIMIT 1)",
                    date_in("$1"),
                    over("l", LEAGUE_ORDER),
                    over("s", SEASON_ORDER)
                );
                dated_rounds_in(&mut tx, &cond, |q| q.bind(day.clone())).await?.pop()
            }
            None => None,
        };
        tx.commit().await.map_err(db("reading the next round day"))?;
        Ok(first)
    }

    /// The matches of `rounds` (ids from [`DatedRound::id`]), each as (home, away) team names,
    /// by round and in pairing order.
    pub async fn rounds_matches(
        &self,
        rounds: &[i64],
    ) -> Result<HashMap<i64, Vec<(String, String)>>, StoreError> {
        let sql = format!(
            "SELECT m.round_id, h.name AS home, a.name AS away FROM matches m \
             JOIN teams h ON h.id = m.home_team_id JOIN teams a ON a.id = m.away_team_id \
             WHERE m.round_id IN ({}) ORDER BY m.round_id, m.position",
            id_list(rounds.iter().copied())
        );
        let rows = sqlx::query(&sql)
            .persistent(false)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the matches of the rounds shown"))?;
        let mut out: HashMap<i64, Vec<(String, String)>> = HashMap::new();
        for row in &rows {
            out.entry(get(row, "round_id")?)
                .or_default()
                .push((get(row, "home")?, get(row, "away")?));
        }
        Ok(out)
    }

    /// The most match forfeits one team of each of `competitions` has in its results in
    /// force (a forfeit corrected away counts for nothing); a competition with none is left
    /// out. GT-M5 drops a team only at its ruleset's count, so below it the home page need not
    /// ask scoring which matches the drop excludes. Read from the forfeits' own index.
    pub async fn most_match_forfeits(
        &self,
        competitions: &[CompetitionId],
    ) -> Result<HashMap<CompetitionId, u32>, StoreError> {
        let sql = format!(
            "SELECT r.competition_id, COUNT(*) AS n FROM result_versions v \
             JOIN matches m ON m.id = v.match_id JOIN rounds r ON r.id = m.round_id \
             WHERE v.outcome = 'forfeit' AND {IN_FORCE} AND r.competition_id IN ({}) \
             GROUP BY r.competition_id, \
             CASE WHEN v.forfeit_by = 'home' THEN m.home_team_id ELSE m.away_team_id END",
            id_list(competitions.iter().map(|c| c.0))
        );
        let rows = sqlx::query(&sql)
            .persistent(false)
            .fetch_all(&self.pool)
            .await
            .map_err(db("counting the match forfeits of the rounds shown"))?;
        let mut out: HashMap<CompetitionId, u32> = HashMap::new();
        for row in &rows {
            let n = to_u32(get(row, "n")?, "match forfeits")?;
            let most = out.entry(CompetitionId(get(row, "competition_id")?)).or_default();
            *most = (*most).max(n);
        }
        Ok(out)
    }
}
