// A league's published rating lists (issue 34 item 1): stored whole, each in force from a day,
// and read back for a competition's players only (by federation id or name), so that a view
// never loads a federation's million entries. Written once and compiled for each backend as
// `queries.rs` is: `sqlite.rs` and `postgres.rs` `include!` this file after it.

use arbiter_core::rating::list::{self as rating_list, Birth, ListedRating, RatingList};

use crate::records::RatingListSummary;

/// Entries inserted by one statement (7 values each, under either backend's limit).
const ENTRIES_A_STATEMENT: usize = 500;

fn birth_text(b: Option<Birth>) -> Option<String> {
    b.map(|b| match b {
        Birth::Year(y) => y.to_string(),
        Birth::Date(d) => d.to_string(),
    })
}

fn birth_of(text: Option<String>) -> Result<Option<Birth>, StoreError> {
    let Some(t) = text else { return Ok(None) };
    if let Ok(y) = t.parse::<i16>() {
        return Ok(Some(Birth::Year(y)));
    }
    t.parse()
        .map(|d| Some(Birth::Date(d)))
        .map_err(|_| corrupt(format!("the birth `{t}` of a rating list entry")))
}

impl Backend {
    /// Stores `list` (read from a file in `format`: `fide-xml`, `fide-txt`, `csv`) as one of
    /// `league`'s rating lists. A list of the same name and day is refused: it is stored once.
    pub async fn import_rating_list(
        &self,
        league: LeagueId,
        list: &RatingList,
        format: &str,
        by: &Actor,
    ) -> Result<RatingListSummary, StoreError> {
        let name = list.name.trim();
        check::name("rating list", name)?;
        let mut tx = self.write(by).await?;
        let at = tx.at;
        let sql = format!(
            "INSERT INTO rating_lists (league_id, name, in_force_from, format, imported_at) \
             VALUES ($1, $2, {}, $4, {}) RETURNING id",
            date_in("$3"),
            ts_in("$5")
        );
        let row = sqlx::query(&sql)
            .bind(league.0)
            .bind(name)
            .bind(list.in_force_from.to_string())
            .bind(format)
            .bind(at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(|e| match db("storing the rating list")(e) {
                StoreError::Conflict(_) => StoreError::Conflict(format!(
                    "the league already has a rating list named {name} in force from {}; give this one another name or day",
                    list.in_force_from
                )),
                other => other,
            })?;
        let id: i64 = get(&row, "id")?;
        for (chunk_no, chunk) in list.entries.chunks(ENTRIES_A_STATEMENT).enumerate() {
            let values: Vec<String> = (0..chunk.len())
                .map(|i| {
                    let p = i * 7;
                    format!(
                        "(${}, ${}, ${}, ${}, ${}, ${}, ${})",
                        p + 1,
                        p + 2,
                        p + 3,
                        p + 4,
                        p + 5,
                        p + 6,
                        p + 7
                    )
                })
                .collect();
            let sql = format!(
                "INSERT INTO rating_list_entries \
                 (list_id, position, federation_id, name, name_key, birth, rating) VALUES {}",
                values.join(", ")
            );
            let mut q = sqlx::query(&sql);
            for (i, e) in chunk.iter().enumerate() {
                let position = i64::try_from(chunk_no * ENTRIES_A_STATEMENT + i + 1)
                    .map_err(|_| StoreError::Invalid("the list is too long".into()))?;
                q = q
                    .bind(id)
                    .bind(position)
                    .bind(e.federation_id.clone())
                    .bind(e.name.clone())
                    .bind(rating_list::name_key(&e.name))
                    .bind(birth_text(e.birth))
                    .bind(i64::from(e.rating));
            }
            q.execute(&mut **tx)
                .await
                .map_err(db("storing the rating list's players"))?;
        }
        let summary = RatingListSummary {
            id,
            name: name.to_string(),
            in_force_from: list.in_force_from,
            format: format.to_string(),
            entries: list.entries.len(),
        };
        tx.history(Change {
            after: Some(serde_json::json!({
                "name": name,
                "in_force_from": list.in_force_from.to_string(),
                "format": format,
                "entries": list.entries.len(),
            })),
            league: Some(league.0),
            ..Change::of(Entity::RatingList, id.to_string(), HistoryAction::Import)
        })
        .await?;
        // The league's competitions read the list in their lineup checks: their views reload.
        mark_changed(&mut tx, Touched::League(league.0)).await?;
        tx.commit("saving the rating list").await?;
        Ok(summary)
    }

    /// `league`'s rating lists, the one in force longest first, each with its count of players.
    pub async fn rating_lists(&self, league: LeagueId) -> Result<Vec<RatingListSummary>, StoreError> {
        let sql = format!(
            "SELECT l.id, l.name, {} AS in_force_from, l.format, \
             (SELECT COUNT(*) FROM rating_list_entries e WHERE e.list_id = l.id) AS entries \
             FROM rating_lists l WHERE l.league_id = $1 ORDER BY l.in_force_from, l.id",
            date_out("l.in_force_from")
        );
        let mut tx = begin_read(&self.pool).await?;
        let rows = sqlx::query(&sql)
            .bind(league.0)
            .fetch_all(&mut *tx)
            .await
            .map_err(db("reading the rating lists"))?;
        tx.commit().await.map_err(db("reading the rating lists"))?;
        rows.iter()
            .map(|row| {
                Ok(RatingListSummary {
                    id: get(row, "id")?,
                    name: get(row, "name")?,
                    in_force_from: codes::parse_date(get(row, "in_force_from")?)?
                        .ok_or_else(|| corrupt("a rating list without its day"))?,
                    format: get(row, "format")?,
                    entries: usize::try_from(get::<i64>(row, "entries")?)
                        .map_err(|_| corrupt("a count of entries"))?,
                })
            })
            .collect()
    }

    /// `league`'s rating lists, each with the entries that could be `c`'s players: those with a
    /// player's federation id or name ([`rating_list::name_key`]). What lineup checks read.
    pub async fn rating_lists_for(
        &self,
        league: LeagueId,
        c: &Competition,
    ) -> Result<Vec<RatingList>, StoreError> {
        let summaries = self.rating_lists(league).await?;
        if summaries.is_empty() {
            return Ok(Vec::new());
        }
        let players: Vec<&Player> = c.teams.iter().flat_map(|t| &t.players).collect();
        let ids: Vec<String> = players
            .iter()
            .filter_map(|p| p.record.federation_id.clone())
            .collect();
        let keys: Vec<String> = players
            .iter()
            .filter(|p| p.record.federation_id.is_none())
            .map(|p| rating_list::name_key(&p.name))
            .collect();
        let mut out = Vec::with_capacity(summaries.len());
        let mut tx = begin_read(&self.pool).await?;
        for s in summaries {
            let mut entries = Vec::new();
            for (column, wanted) in [("federation_id", &ids), ("name_key", &keys)] {
                for chunk in wanted.chunks(ENTRIES_A_STATEMENT) {
                    let marks: Vec<String> = (2..chunk.len() + 2).map(|i| format!("${i}")).collect();
                    let sql = format!(
                        "SELECT federation_id, name, birth, rating FROM rating_list_entries \
                         WHERE list_id = $1 AND {column} IN ({}) ORDER BY position",
                        marks.join(", ")
                    );
                    let mut q = sqlx::query(&sql).bind(s.id);
                    for v in chunk {
                        q = q.bind(v.clone());
                    }
                    for row in q
                        .fetch_all(&mut *tx)
                        .await
                        .map_err(db("reading a rating list"))?
                    {
                        entries.push(ListedRating {
                            federation_id: get(&row, "federation_id")?,
                            name: get(&row, "name")?,
                            birth: birth_of(get(&row, "birth")?)?,
                            rating: to_u32(get(&row, "rating")?, "listed rating")?,
                        });
                    }
                }
            }
            out.push(RatingList {
                name: s.name,
                in_force_from: s.in_force_from,
                entries,
            });
        }
        tx.commit().await.map_err(db("reading the rating lists"))?;
        Ok(out)
    }
}
