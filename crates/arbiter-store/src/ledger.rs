// The fee ledger's queries (GT-O2, migration 0012), written once and compiled for each backend
// as `queries.rs` is: `sqlite.rs` and `postgres.rs` `include!` this file after it, so it uses
// their `Tx`, `get`, `bump`, `append_history` and dialect functions.
//
// Core's `Ledger::check` has read and checked an entry before it comes here; the store keeps
// its own needs: the season is the league's, the school is one of the league's, the entry's
// number is the next (else another entry came in first and the write is stale), a reversal
// names an entry of the season not reversed yet and takes its school and amount.

use arbiter_core::season::ledger::{Entry, EntryKind, Money};

use crate::records::{FirstEntryAt, LedgerEntry};

/// The season `season` of league `league`: its slug, or not found.
async fn season_of(tx: &mut Tx, league: LeagueId, season: SeasonId) -> Result<String, StoreError> {
    let row = sqlx::query("SELECT slug FROM seasons WHERE id = $1 AND league_id = $2")
        .bind(season.0)
        .bind(league.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a season"))?;
    match row {
        Some(row) => get(&row, "slug"),
        None => Err(StoreError::NotFound(format!(
            "league {league} has no season with id {season}"
        ))),
    }
}

/// The season's entries, by number.
async fn ledger_in(
    tx: &mut Tx,
    league: LeagueId,
    season: SeasonId,
) -> Result<Vec<LedgerEntry>, StoreError> {
    let sql = format!(
        "SELECT e.number, e.kind, s.name AS school, e.amount_cents, {} AS happened_on, e.note, \
         e.reverses, e.recorded_by, e.recorded_role, {} AS recorded_at \
         FROM ledger_entries e LEFT JOIN schools s ON s.id = e.school_id \
         WHERE e.league_id = $1 AND e.season_id = $2 ORDER BY e.number",
        date_out("e.happened_on"),
        ts_out("e.recorded_at"),
    );
    let rows = sqlx::query(&sql)
        .bind(league.0)
        .bind(season.0)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the ledger"))?;
    rows.iter()
        .map(|row| {
            let on: Option<String> = Some(get(row, "happened_on")?);
            let at: String = get(row, "recorded_at")?;
            let reverses: Option<i64> = get(row, "reverses")?;
            Ok(LedgerEntry {
                entry: Entry {
                    number: to_u32(get(row, "number")?, "ledger entry number")?,
                    kind: code(row, "kind", EntryKind::from_code)?,
                    school: get(row, "school")?,
                    amount: Money::from_cents(get(row, "amount_cents")?),
                    on: codes::parse_date(on)?
                        .ok_or_else(|| corrupt("a ledger entry with no day"))?,
                    note: get(row, "note")?,
                    reverses: reverses
                        .map(|n| to_u32(n, "reversed entry number"))
                        .transpose()?,
                },
                recorded_by: get(row, "recorded_by")?,
                recorded_role: role_in(row, "recorded_role")?,
                recorded_at: codes::parse_timestamp(&at)?,
            })
        })
        .collect()
}

impl Backend {
    /// Adds `entry` to the season's ledger with its history row, in one transaction.
    pub async fn record_ledger_entry(
        &self,
        league: LeagueId,
        season: SeasonId,
        entry: &Entry,
        by: &Actor,
    ) -> Result<LedgerEntry, StoreError> {
        check::text(TextKind::Reason, "the note", &entry.note)?;
        if entry.amount <= Money::ZERO || entry.amount > Money::MAX_ENTRY {
            return Err(StoreError::Invalid(format!(
                "a ledger entry's amount is from $0.01 to {}, not {}",
                Money::MAX_ENTRY,
                entry.amount
            )));
        }
        let mut tx = self.write(by).await?;
        let season_slug = season_of(&mut tx, league, season).await?;
        let before = ledger_in(&mut tx, league, season).await?;
        let next = before.iter().map(|e| e.entry.number).max().unwrap_or(0) + 1;
        if entry.number != next {
            return Err(StoreError::Stale(format!(
                "the ledger changed after it was read: entry {} was recorded meanwhile; read the ledger again and record the entry if it is still wanted",
                next - 1
            )));
        }
        let (school, amount) = match (entry.kind, entry.reverses) {
            (EntryKind::Reversal, Some(n)) => {
                let Some(undone) = before.iter().find(|e| e.entry.number == n) else {
                    return Err(StoreError::Invalid(format!(
                        "the season's ledger has no entry {n} to reverse"
                    )));
                };
                if undone.entry.kind == EntryKind::Reversal
                    || before.iter().any(|e| e.entry.reverses == Some(n))
                {
                    return Err(StoreError::Stale(format!(
                        "entry {n} is a reversal or was reversed already; read the ledger again"
                    )));
                }
                (undone.entry.school.clone(), undone.entry.amount)
            }
            (EntryKind::Reversal, None) => {
                return Err(StoreError::Invalid(
                    "a reversal names the entry it undoes".into(),
                ));
            }
            (_, Some(_)) => {
                return Err(StoreError::Invalid(
                    "only a reversal names another entry".into(),
                ));
            }
            (_, None) => (entry.school.clone(), entry.amount),
        };
        let school_id = match school.as_deref() {
            Some(name) => Some(find_school(&mut tx, league, name).await?.ok_or_else(|| {
                StoreError::Invalid(format!("“{name}” is not one of the league's schools"))
            })?),
            None => None,
        };
        let at = tx.at;
        let sql = format!(
            "INSERT INTO ledger_entries (league_id, season_id, number, kind, school_id, \
             amount_cents, happened_on, note, reverses, recorded_by, recorded_role, recorded_at) \
             VALUES ($1, $2, $3, $4, $5, $6, {}, $8, $9, $10, $11, {}) RETURNING id",
            date_in("$7"),
            ts_in("$12"),
        );
        let row = sqlx::query(&sql)
            .bind(league.0)
            .bind(season.0)
            .bind(i64::from(entry.number))
            .bind(entry.kind.code())
            .bind(school_id)
            .bind(amount.cents())
            .bind(entry.on.to_string())
            .bind(entry.note.as_str())
            .bind(entry.reverses.map(i64::from))
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(|e| match &e {
                sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Stale(
                    "the ledger changed after it was read; read it again".into(),
                ),
                _ => db("storing a ledger entry")(e),
            })?;
        let id: i64 = get(&row, "id")?;
        let stored = Entry {
            school,
            amount,
            note: entry.note.clone(),
            ..entry.clone()
        };
        let note = (!stored.note.is_empty()).then_some(stored.note.as_str());
        tx.history(Change {
                league: Some(league.0),
                after: Some(serde_json::json!({
                    "season": season_slug,
                    "number": stored.number,
                    "kind": stored.kind.code(),
                    "school": stored.school,
                    "amount": stored.amount.decimal(),
                    "on": stored.on.to_string(),
                    "note": stored.note,
                    "reverses": stored.reverses,
                })),
                reason: note,
                ..Change::of(Entity::LedgerEntry, id.to_string(), HistoryAction::RecordLedgerEntry)
            },
        )
        .await?;
        tx.commit("saving the ledger entry").await?;
        Ok(LedgerEntry {
            entry: stored,
            recorded_by: by.user.clone(),
            recorded_role: by.role,
            recorded_at: at,
        })
    }

    /// The season's ledger entries, by number.
    pub async fn ledger(
        &self,
        league: LeagueId,
        season: SeasonId,
    ) -> Result<Vec<LedgerEntry>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        season_of(&mut tx, league, season).await?;
        let entries = ledger_in(&mut tx, league, season).await?;
        tx.commit().await.map_err(db("reading the ledger"))?;
        Ok(entries)
    }

    /// When each match of the season's competitions first had its result entered by a team's
    /// advisor (GT-P2): what a late-result fine (`[fines] late_result`) counts from. Results
    /// imported or entered by an officer or an event's arbiter are never a team's late entry.
    pub async fn first_entries(&self, season: SeasonId) -> Result<Vec<FirstEntryAt>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        let sql = format!(
            "SELECT c.id AS competition_id, r.number, t.team_key, {} AS entered_at \
             FROM result_versions v JOIN matches m ON m.id = v.match_id \
             JOIN rounds r ON r.id = m.round_id JOIN competitions c ON c.id = r.competition_id \
             JOIN teams t ON t.id = m.home_team_id \
             WHERE c.season_id = $1 AND v.entered_role = 'advisor' AND v.outcome <> 'pending' \
             AND v.version = (SELECT MIN(v2.version) FROM result_versions v2 \
             WHERE v2.match_id = v.match_id AND v2.entered_role = 'advisor' \
             AND v2.outcome <> 'pending') \
             ORDER BY c.id, r.number, m.position",
            ts_out("v.entered_at")
        );
        let rows = sqlx::query(&sql)
            .bind(season.0)
            .fetch_all(&mut *tx)
            .await
            .map_err(db("reading when the season's results were first entered"))?;
        tx.commit().await.map_err(db("reading the first entries"))?;
        rows.iter()
            .map(|row| {
                let at: String = get(row, "entered_at")?;
                Ok(FirstEntryAt {
                    competition: CompetitionId(get(row, "competition_id")?),
                    round: to_u32(get(row, "number")?, "round number")?,
                    home: arbiter_core::record::model::TeamId(get(row, "team_key")?),
                    at: codes::parse_timestamp(&at)?,
                })
            })
            .collect()
    }
}
