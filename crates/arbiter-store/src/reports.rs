// The reports of many matches at once (issue 35, item 5): the account pages and GT-P2's
// reminders ask the store which competitions concern a person and read the reports of those
// in two queries a competition, instead of loading every competition of the league and asking
// two queries a match. Written once and compiled for each backend as `queries.rs` is:
// `sqlite.rs` and `postgres.rs` `include!` this file after it.

use crate::records::CompetitionReports;

/// The matches of competition `$1`, for a condition on a match id.
const MATCHES_OF_COMPETITION: &str =
    "SELECT m.id FROM matches m JOIN rounds r ON r.id = m.round_id WHERE r.competition_id = $1";

impl Backend {
    /// Every match's result in force of competition `c`, and every review of its matches,
    /// oldest first: what [`ReportStatus`](arbiter_core::season::report::ReportStatus) is
    /// worked out from for each match.
    pub async fn competition_reports(
        &self,
        c: CompetitionId,
    ) -> Result<CompetitionReports, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let cond = format!("v.match_id IN ({MATCHES_OF_COMPETITION}) AND {IN_FORCE}");
        let in_force = versions_where(&mut tx, &cond, c.0).await?;
        let sql = format!(
            "SELECT w.match_id, w.version, w.kind, w.by_user, w.role, {} AS at, w.reason \
             FROM result_reviews w WHERE w.match_id IN ({MATCHES_OF_COMPETITION}) ORDER BY w.id",
            ts_out("w.at")
        );
        let rows = sqlx::query(&sql)
            .bind(c.0)
            .fetch_all(&mut *tx)
            .await
            .map_err(db("reading a competition's reviews"))?;
        let reviews = rows
            .iter()
            .map(|row| review_from_row(MatchId(get(row, "match_id")?), row))
            .collect::<Result<Vec<_>, _>>()?;
        tx.commit()
            .await
            .map_err(db("reading a competition's reports"))?;
        Ok(CompetitionReports::new(in_force, reviews))
    }

    /// The competitions of `league` in which a team of the school named `school` plays.
    pub async fn competitions_of_school(
        &self,
        league: LeagueId,
        school: &str,
    ) -> Result<Vec<CompetitionId>, StoreError> {
        let rows = sqlx::query(
            "SELECT DISTINCT t.competition_id FROM teams t JOIN schools s ON s.id = t.school_id \
             WHERE s.league_id = $1 AND s.name = $2 ORDER BY t.competition_id",
        )
        .bind(league.0)
        .bind(school)
        .fetch_all(&self.pool)
        .await
        .map_err(db("reading a school's competitions"))?;
        rows.iter()
            .map(|row| Ok(CompetitionId(get(row, "competition_id")?)))
            .collect()
    }

    /// The competitions of `league` with a match whose report may ask someone for something on
    /// `today` (GT-P2, GT-O3): no result yet though its day (its own, else its round's) has
    /// come or is not set; a result a team entered and the visitors have not confirmed; a
    /// dispute or a correction asked for; or a game awaiting adjudication (`*`, GT-M20). Every match core would give a task
    /// is in one of these; a competition with none has nothing to ask of anyone.
    pub async fn competitions_with_open_reports(
        &self,
        league: LeagueId,
        today: jiff::civil::Date,
    ) -> Result<Vec<CompetitionId>, StoreError> {
        let sql = format!(
            "SELECT DISTINCT c.id FROM competitions c JOIN rounds r ON r.competition_id = c.id \
             JOIN matches m ON m.round_id = r.id \
             LEFT JOIN result_versions v ON v.match_id = m.id AND {IN_FORCE} \
             WHERE c.league_id = $1 AND ( \
               ((v.id IS NULL OR v.outcome = 'pending') \
                 AND COALESCE(m.played_on, r.played_on, {today}) <= {today}) \
               OR (v.entered_by IS NOT NULL AND v.outcome <> 'pending' \
                 AND (v.entered_role IS NULL OR v.entered_role IN ('advisor', 'public')) \
                 AND NOT EXISTS ( \
                 SELECT 1 FROM result_reviews w WHERE w.match_id = m.id \
                 AND w.version = v.version AND w.kind = 'confirmed')) \
               OR EXISTS (SELECT 1 FROM result_reviews w WHERE w.match_id = m.id \
                 AND w.version = v.version AND w.kind <> 'confirmed') \
               OR EXISTS (SELECT 1 FROM result_boards b WHERE b.result_version_id = v.id \
                 AND b.result = '*')) \
             ORDER BY c.id",
            today = date_in("$2"),
        );
        let rows = sqlx::query(&sql)
            .bind(league.0)
            .bind(today.to_string())
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the competitions with open reports"))?;
        rows.iter()
            .map(|row| Ok(CompetitionId(get(row, "id")?)))
            .collect()
    }
}
