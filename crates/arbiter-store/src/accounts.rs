// Accounts, roles, invitations, password resets, API tokens, sign-in failures and result reviews.
// Like `queries.rs`, written once and compiled twice: `sqlite.rs` and `postgres.rs` include this
// file after `queries.rs`, so `Tx`, `get`, `bump`, `bump_competition`, `append_history`,
// `Change`, `match_place` and the dialect functions are in scope. Only hashes of tokens are
// stored, and no history row holds a password hash, a token or a token's hash.

use arbiter_core::season::notice::Notice;
use arbiter_core::rules::permissions::Role;
use arbiter_core::season::report::ReviewKind;
use arbiter_core::record::text::Email;

use crate::records::{
    Attempts,
    AcceptInvite, ApiToken, ApiTokenId, Invite, InviteId, MemberRow, Membership, MembershipId,
    NewApiToken, NewInvite, ResultReview, User, UserId,
};
use crate::secrets;

/// A normalised email that can be written to, or the sentence why not (core's one rule).
fn checked_email(email: &str) -> Result<String, StoreError> {
    arbiter_core::record::text::Email::parse(email)
        .map(|e| e.as_str().to_string())
        .map_err(StoreError::Invalid)
}

/// A role that can be held, by core's one rule (`Role::check_grantable`, GT-M1).
fn check_grantable(role: Role, school: Option<&str>, whom: &str) -> Result<(), StoreError> {
    role.check_grantable(school, whom)
        .map_err(StoreError::Invalid)
}

/// A school name as given, or `None` when blank.
fn school_name(school: Option<&str>) -> Option<&str> {
    school.map(str::trim).filter(|s| !s.is_empty())
}

/// An argon2id PHC string, not a plain password passed by mistake.
fn check_phc(password_hash: &str) -> Result<(), StoreError> {
    if argon2::password_hash::PasswordHash::new(password_hash).is_err() {
        return Err(StoreError::Invalid(
            "the password given to the store is not a password hash; hash it with arbiter_store::secrets::hash_password first"
                .into(),
        ));
    }
    Ok(())
}

fn parse_role(s: &str) -> Result<Role, StoreError> {
    Role::from_code(s)
        .filter(|r| *r != Role::Public)
        .ok_or_else(|| corrupt(format!("the role `{s}`")))
}

fn parse_opt_timestamp(s: Option<String>) -> Result<Option<jiff::Timestamp>, StoreError> {
    s.as_deref().map(codes::parse_timestamp).transpose()
}

/// A time in a sentence: `2026-01-30 14:05 UTC`.
fn when(t: jiff::Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

/// Fixed-width RFC 3339 (microseconds), so that SQLite's text order is time order.
fn ts_fixed(t: jiff::Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

fn expiry(
    at: jiff::Timestamp,
    valid_for: jiff::SignedDuration,
) -> Result<jiff::Timestamp, StoreError> {
    at.checked_add(valid_for).map_err(|_| {
        StoreError::Invalid(format!(
            "a link valid for {valid_for:#} would expire beyond the last date Arbiter can keep; give a shorter time"
        ))
    })
}

fn user_sql(condition: &str) -> String {
    format!(
        "SELECT id, email, name, password_hash, {} AS created_at FROM users WHERE {condition}",
        ts_out("created_at")
    )
}

fn user_from_row(row: &DbRow) -> Result<User, StoreError> {
    let at: String = get(row, "created_at")?;
    Ok(User {
        id: UserId(get(row, "id")?),
        email: get(row, "email")?,
        name: get(row, "name")?,
        password_hash: get(row, "password_hash")?,
        created_at: codes::parse_timestamp(&at)?,
    })
}

/// Memberships with their user's columns (`user_…`), for both `memberships` and `league_members`.
fn membership_sql(condition: &str) -> String {
    format!(
        "SELECT m.id, m.user_id, m.league_id, l.slug AS league_slug, m.role, s.name AS school, \
         {} AS granted_at, u.email AS user_email, u.name AS user_name, \
         u.password_hash AS user_password_hash, {} AS user_created_at \
         FROM memberships m JOIN leagues l ON l.id = m.league_id JOIN users u ON u.id = m.user_id \
         LEFT JOIN schools s ON s.id = m.school_id WHERE {condition}",
        ts_out("m.granted_at"),
        ts_out("u.created_at"),
    )
}

fn membership_from_row(row: &DbRow) -> Result<Membership, StoreError> {
    let role: String = get(row, "role")?;
    let at: String = get(row, "granted_at")?;
    Ok(Membership {
        id: MembershipId(get(row, "id")?),
        user: UserId(get(row, "user_id")?),
        league: LeagueId(get(row, "league_id")?),
        league_slug: get(row, "league_slug")?,
        role: parse_role(&role)?,
        school: get(row, "school")?,
        granted_at: codes::parse_timestamp(&at)?,
    })
}

fn member_from_row(row: &DbRow) -> Result<MemberRow, StoreError> {
    let membership = membership_from_row(row)?;
    let at: String = get(row, "user_created_at")?;
    Ok(MemberRow {
        user: User {
            id: membership.user,
            email: get(row, "user_email")?,
            name: get(row, "user_name")?,
            password_hash: get(row, "user_password_hash")?,
            created_at: codes::parse_timestamp(&at)?,
        },
        membership,
    })
}

fn invite_sql(condition: &str) -> String {
    format!(
        "SELECT i.id, i.email, i.league_id, l.slug AS league_slug, l.name AS league_name, i.role, \
         s.name AS school, i.invited_by, {} AS created_at, {} AS expires_at, \
         {} AS accepted_at, {} AS withdrawn_at, i.withdrawn_by FROM invites i \
         JOIN leagues l ON l.id = i.league_id \
         LEFT JOIN schools s ON s.id = i.school_id WHERE {condition}",
        ts_out("i.created_at"),
        ts_out("i.expires_at"),
        ts_out("i.accepted_at"),
        ts_out("i.withdrawn_at"),
    )
}

fn invite_from_row(row: &DbRow) -> Result<Invite, StoreError> {
    let role: String = get(row, "role")?;
    let created: String = get(row, "created_at")?;
    let expires: String = get(row, "expires_at")?;
    Ok(Invite {
        id: InviteId(get(row, "id")?),
        email: get(row, "email")?,
        league: LeagueId(get(row, "league_id")?),
        league_slug: get(row, "league_slug")?,
        league_name: get(row, "league_name")?,
        role: parse_role(&role)?,
        school: get(row, "school")?,
        invited_by: get(row, "invited_by")?,
        created_at: codes::parse_timestamp(&created)?,
        expires_at: codes::parse_timestamp(&expires)?,
        accepted_at: parse_opt_timestamp(get(row, "accepted_at")?)?,
        withdrawn_at: parse_opt_timestamp(get(row, "withdrawn_at")?)?,
        withdrawn_by: get(row, "withdrawn_by")?,
    })
}

fn api_token_sql(condition: &str) -> String {
    format!(
        "SELECT t.id, t.prefix, t.label, t.user_id, u.email AS user_email, t.league_id, \
         l.slug AS league_slug, t.role, s.name AS school, {} AS created_at, {} AS revoked_at \
         FROM api_tokens t JOIN users u ON u.id = t.user_id JOIN leagues l ON l.id = t.league_id \
         LEFT JOIN schools s ON s.id = t.school_id WHERE {condition}",
        ts_out("t.created_at"),
        ts_out("t.revoked_at"),
    )
}

fn api_token_from_row(row: &DbRow) -> Result<ApiToken, StoreError> {
    let role: String = get(row, "role")?;
    let created: String = get(row, "created_at")?;
    Ok(ApiToken {
        id: ApiTokenId(get(row, "id")?),
        prefix: get(row, "prefix")?,
        label: get(row, "label")?,
        user: UserId(get(row, "user_id")?),
        user_email: get(row, "user_email")?,
        league: LeagueId(get(row, "league_id")?),
        league_slug: get(row, "league_slug")?,
        role: parse_role(&role)?,
        school: get(row, "school")?,
        created_at: codes::parse_timestamp(&created)?,
        revoked_at: parse_opt_timestamp(get(row, "revoked_at")?)?,
    })
}

fn review_from_row(m: MatchId, row: &DbRow) -> Result<ResultReview, StoreError> {
    let version: i64 = get(row, "version")?;
    let kind: String = get(row, "kind")?;
    let at: String = get(row, "at")?;
    Ok(ResultReview {
        match_id: m,
        version: to_u32(version, "result version")?,
        kind: ReviewKind::from_code(&kind)
            .ok_or_else(|| corrupt(format!("the review kind `{kind}`")))?,
        by: get(row, "by_user")?,
        role: role_in(row, "role")?,
        at: codes::parse_timestamp(&at)?,
        reason: get(row, "reason")?,
    })
}

async fn league_in(tx: &mut Tx, league: LeagueId) -> Result<League, StoreError> {
    let row = sqlx::query("SELECT id, slug, name, kind, description, time_zone FROM leagues WHERE id = $1")
        .bind(league.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading a league"))?;
    match row {
        Some(row) => league_from_row(&row),
        None => Err(StoreError::NotFound(format!(
            "there is no league with id {league}; reload the page and choose the league again"
        ))),
    }
}

/// The notices `user` stopped, in [`Notice::ALL`]'s order.
async fn stopped_in(tx: &mut Tx, user: UserId) -> Result<Vec<Notice>, StoreError> {
    let rows = sqlx::query("SELECT notice FROM notice_stops WHERE user_id = $1")
        .bind(user.0)
        .fetch_all(&mut **tx)
        .await
        .map_err(db("reading the notices"))?;
    let mut out = rows
        .iter()
        .map(|r| {
            let code: String = get(r, "notice")?;
            Notice::from_code(&code).ok_or_else(|| corrupt(format!("the notice `{code}`")))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    out.sort();
    Ok(out)
}

async fn user_in(tx: &mut Tx, user: UserId) -> Result<User, StoreError> {
    let row = sqlx::query(&user_sql("id = $1"))
        .bind(user.0)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("reading an account"))?;
    match row {
        Some(row) => user_from_row(&row),
        None => Err(StoreError::NotFound(format!(
            "there is no account with id {user}; it may never have existed"
        ))),
    }
}

async fn user_by_email_in(tx: &mut Tx, email: &str) -> Result<Option<User>, StoreError> {
    let row = sqlx::query(&user_sql("email = $1"))
        .bind(email)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("looking up an account"))?;
    row.as_ref().map(user_from_row).transpose()
}

/// The league's school of that name, added (with a history row) when the league has none yet.
async fn school_in(
    tx: &mut Tx,
    league: LeagueId,
    name: &str,
    at: jiff::Timestamp,
    by: &Actor,
) -> Result<i64, StoreError> {
    if let Some(id) = find_school(tx, league, name).await? {
        return Ok(id);
    }
    let row = sqlx::query("INSERT INTO schools (league_id, name) VALUES ($1, $2) RETURNING id")
        .bind(league.0)
        .bind(name)
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing a school"))?;
    let id: i64 = get(&row, "id")?;
    append_history(
        tx,
        at,
        by,
        Change {
            after: Some(serde_json::json!({ "id": id, "name": name })),
            league: Some(league.0),
            ..Change::of(Entity::School, id.to_string(), HistoryAction::Create)
        },
    )
    .await?;
    Ok(id)
}

async fn find_school(tx: &mut Tx, league: LeagueId, name: &str) -> Result<Option<i64>, StoreError> {
    let row = sqlx::query("SELECT id FROM schools WHERE league_id = $1 AND name = $2")
        .bind(league.0)
        .bind(name)
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("looking up a school"))?;
    row.map(|r| get(&r, "id")).transpose()
}

async fn insert_user(
    tx: &mut Tx,
    email: &str,
    name: &str,
    password_hash: Option<&str>,
    at: jiff::Timestamp,
    by: &Actor,
    league: Option<LeagueId>,
) -> Result<User, StoreError> {
    check::text(TextKind::Name, "the account's name", name)?;
    if let Some(existing) = user_by_email_in(tx, email).await? {
        return Err(StoreError::Conflict(format!(
            "an account for {} already exists; sign in with it (or reset its password) instead of making another",
            existing.email
        )));
    }
    let sql = format!(
        "INSERT INTO users (email, name, password_hash, created_at) VALUES ($1, $2, $3, {}) RETURNING id",
        ts_in("$4")
    );
    let row = sqlx::query(&sql)
        .bind(email)
        .bind(name)
        .bind(password_hash)
        .bind(at.to_string())
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing the account"))?;
    let user = User {
        id: UserId(get(&row, "id")?),
        email: email.to_string(),
        name: name.to_string(),
        password_hash: password_hash.map(str::to_string),
        created_at: at,
    };
    append_history(
        tx,
        at,
        by,
        Change {
            after: Some(json::user(&user.email, &user.name)),
            league: league.map(|l| l.0),
            ..Change::of(Entity::User, user.id.to_string(), HistoryAction::Create)
        },
    )
    .await?;
    Ok(user)
}

async fn set_password_in(
    tx: &mut Tx,
    user: &User,
    password_hash: &str,
    at: jiff::Timestamp,
    by: &Actor,
    reason: Option<&str>,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
        .bind(password_hash)
        .bind(user.id.0)
        .execute(&mut **tx)
        .await
        .map_err(db("storing the password"))?;
    let shown = json::user(&user.email, &user.name);
    append_history(
        tx,
        at,
        by,
        Change {
            before: Some(shown.clone()),
            after: Some(shown),
            reason,
            ..Change::of(Entity::User, user.id.to_string(), HistoryAction::SetPassword)
        },
    )
    .await
}

/// Grants `role` unless the same active membership exists; then that one is returned as is,
/// with `false` (nothing was written).
async fn grant_in(
    tx: &mut Tx,
    user: &User,
    league: &League,
    role: Role,
    school: Option<&str>,
    at: jiff::Timestamp,
    by: &Actor,
) -> Result<(Membership, bool), StoreError> {
    let school_id = match school {
        Some(name) => Some(school_in(tx, league.id, name, at, by).await?),
        None => None,
    };
    let existing = sqlx::query(&membership_sql(
        "m.user_id = $1 AND m.league_id = $2 AND m.role = $3 AND COALESCE(m.school_id, 0) = $4 \
         AND m.revoked_at IS NULL",
    ))
    .bind(user.id.0)
    .bind(league.id.0)
    .bind(role.code())
    .bind(school_id.unwrap_or(0))
    .fetch_optional(&mut **tx)
    .await
    .map_err(db("looking up a role"))?;
    if let Some(row) = existing {
        return Ok((membership_from_row(&row)?, false));
    }
    let sql = format!(
        "INSERT INTO memberships (user_id, league_id, role, school_id, granted_at, granted_by) \
         VALUES ($1, $2, $3, $4, {}, $6) RETURNING id",
        ts_in("$5")
    );
    let row = sqlx::query(&sql)
        .bind(user.id.0)
        .bind(league.id.0)
        .bind(role.code())
        .bind(school_id)
        .bind(at.to_string())
        .bind(by.user.clone())
        .fetch_one(&mut **tx)
        .await
        .map_err(db("storing the role"))?;
    let membership = Membership {
        id: MembershipId(get(&row, "id")?),
        user: user.id,
        league: league.id,
        league_slug: league.slug.clone(),
        role,
        school: school.map(str::to_string),
        granted_at: at,
    };
    append_history(
        tx,
        at,
        by,
        Change {
            after: Some(json::membership(
                &user.email,
                &league.slug,
                role.code(),
                school,
            )),
            league: Some(league.id.0),
            ..Change::of(Entity::Membership, membership.id.to_string(), HistoryAction::Grant)
        },
    )
    .await?;
    Ok((membership, true))
}

/// The roles the invitation's sender holds in its league now (none for one sent from the
/// command line, which names no sender, or by an account since removed).
async fn sender_roles_in(tx: &mut Tx, invite: &Invite) -> Result<Vec<Membership>, StoreError> {
    let Some(sender) = invite.invited_by.as_deref() else {
        return Ok(Vec::new());
    };
    let rows = sqlx::query(&membership_sql(
        "u.email = $1 AND m.league_id = $2 AND m.revoked_at IS NULL",
    ))
    .bind(sender)
    .bind(invite.league.0)
    .fetch_all(&mut **tx)
    .await
    .map_err(db("reading the roles of the invitation's sender"))?;
    rows.iter().map(membership_from_row).collect()
}

async fn invite_in(tx: &mut Tx, plain: &str) -> Result<Option<Invite>, StoreError> {
    let row = sqlx::query(&invite_sql("i.token_hash = $1"))
        .bind(secrets::token_hash(plain))
        .fetch_optional(&mut **tx)
        .await
        .map_err(db("looking up an invitation"))?;
    row.as_ref().map(invite_from_row).transpose()
}

impl Backend {
    /// A league by its row id.
    pub async fn league_by_id(&self, id: LeagueId) -> Result<Option<League>, StoreError> {
        let row =
            sqlx::query("SELECT id, slug, name, kind, description, time_zone FROM leagues WHERE id = $1")
                .bind(id.0)
                .fetch_optional(&self.pool)
                .await
                .map_err(db("reading a league"))?;
        row.as_ref().map(league_from_row).transpose()
    }

    /// A new account; `password_hash` is an argon2id PHC string or `None` (set later by a link).
    pub async fn create_user(
        &self,
        email: &str,
        name: &str,
        password_hash: Option<&str>,
        by: &Actor,
    ) -> Result<User, StoreError> {
        let email = checked_email(email)?;
        if let Some(h) = password_hash {
            check_phc(h)?;
        }
        let mut tx = self.account_write(by).await?;
        let at = tx.at;
        let user = insert_user(
            &mut tx,
            &email,
            name.trim(),
            password_hash,
            at,
            by,
            None,
        )
        .await?;
        tx.commit("saving the account").await?;
        Ok(user)
    }

    /// The account with this email (trimmed, any case).
    pub async fn user_by_email(&self, email: &Email) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(&user_sql("email = $1"))
            .bind(email.as_str())
            .fetch_optional(&self.pool)
            .await
            .map_err(db("looking up an account"))?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// The account with this id.
    pub async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(&user_sql("id = $1"))
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await
            .map_err(db("reading an account"))?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// Replaces the account's password hash; the history records that it changed, not the hash.
    pub async fn set_password(
        &self,
        user: UserId,
        password_hash: &str,
        by: &Actor,
    ) -> Result<(), StoreError> {
        check_phc(password_hash)?;
        let mut tx = self.account_write(by).await?;
        let at = tx.at;
        let account = user_in(&mut tx, user).await?;
        set_password_in(&mut tx, &account, password_hash, at, by, None).await?;
        tx.commit("saving the password").await
    }

    /// Gives `user` the role in the league; an identical active membership is returned as is.
    pub async fn grant_role(
        &self,
        user: UserId,
        league: LeagueId,
        role: Role,
        school: Option<&str>,
        by: &Actor,
    ) -> Result<Membership, StoreError> {
        let school = school_name(school);
        check_grantable(role, school, &format!("account {user}"))?;
        let mut tx = self.account_write(by).await?;
        let at = tx.at;
        let account = user_in(&mut tx, user).await?;
        let league = league_in(&mut tx, league).await?;
        let (membership, granted) =
            grant_in(&mut tx, &account, &league, role, school, at, by).await?;
        if granted {
            tx.commit("saving the role").await?;
        }
        // Otherwise dropping the transaction undoes the bump: nothing changed.
        Ok(membership)
    }

    /// Ends a membership; the row stays, marked revoked, and the history says by whom and why.
    pub async fn revoke_role(
        &self,
        membership: MembershipId,
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<(), StoreError> {
        let reason = check::reason(reason)?;
        let reason = reason.as_ref().map(Reason::as_str);
        let mut tx = self.account_write(by).await?;
        let Some(row) = sqlx::query(&membership_sql("m.id = $1 AND m.revoked_at IS NULL"))
            .bind(membership.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a role"))?
        else {
            return Err(StoreError::NotFound(format!(
                "there is no role held with id {membership} (it may already have been revoked); reload the list of members"
            )));
        };
        let m = membership_from_row(&row)?;
        let email: String = get(&row, "user_email")?;
        let at = tx.at;
        let sql = format!(
            "UPDATE memberships SET revoked_at = {}, revoked_by = $2 WHERE id = $3",
            ts_in("$1")
        );
        sqlx::query(&sql)
            .bind(at.to_string())
            .bind(by.user.clone())
            .bind(membership.0)
            .execute(&mut **tx)
            .await
            .map_err(db("revoking the role"))?;
        tx.history(Change {
                before: Some(json::membership(
                    &email,
                    &m.league_slug,
                    m.role.code(),
                    m.school.as_deref(),
                )),
                reason,
                league: Some(m.league.0),
                ..Change::of(Entity::Membership, membership.to_string(), HistoryAction::Revoke)
            },
        )
        .await?;
        tx.commit("saving the revocation").await
    }

    /// The account's active roles, by league, then role (President first), then school.
    pub async fn memberships(&self, user: UserId) -> Result<Vec<Membership>, StoreError> {
        let rows = sqlx::query(&membership_sql("m.user_id = $1 AND m.revoked_at IS NULL"))
            .bind(user.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading an account's roles"))?;
        let mut out = rows
            .iter()
            .map(membership_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        out.sort_by(|a, b| {
            (&a.league_slug, a.role, &a.school).cmp(&(&b.league_slug, b.role, &b.school))
        });
        Ok(out)
    }

    /// The league's active members, by role (President first), then email.
    pub async fn league_members(&self, league: LeagueId) -> Result<Vec<MemberRow>, StoreError> {
        let rows = sqlx::query(&membership_sql("m.league_id = $1 AND m.revoked_at IS NULL"))
            .bind(league.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the league's members"))?;
        let mut out = rows
            .iter()
            .map(member_from_row)
            .collect::<Result<Vec<_>, _>>()?;
        out.sort_by(|a, b| {
            (a.membership.role, &a.user.email, &a.membership.school).cmp(&(
                b.membership.role,
                &b.user.email,
                &b.membership.school,
            ))
        });
        Ok(out)
    }

    /// A single-use invitation link's secret, with the invite; the store keeps only its hash.
    pub async fn create_invite(
        &self,
        new: &NewInvite,
        by: &Actor,
    ) -> Result<(Invite, String), StoreError> {
        let email = checked_email(&new.email)?;
        let school = school_name(new.school.as_deref());
        if let Some(s) = school {
            check::text(TextKind::Name, "the school's name", s)?;
        }
        check_grantable(new.role, school, &email)?;
        new.role.check_school(school).map_err(StoreError::Invalid)?;
        let plain = secrets::try_new_token()?;
        let mut tx = self.account_write(by).await?;
        let league = league_in(&mut tx, new.league).await?;
        let at = tx.at;
        let expires_at = expiry(at, new.valid_for)?;
        // An invitation names one of the league's schools (from its teams), never a new one.
        let school_id = match school {
            Some(name) => Some(find_school(&mut tx, league.id, name).await?.ok_or_else(|| {
                StoreError::Invalid(format!(
                    "“{name}” is not one of the schools of {}; invite {email} for a school whose teams play in the league, chosen from the list",
                    league.name
                ))
            })?),
            None => None,
        };
        let sql = format!(
            "INSERT INTO invites (token_hash, email, league_id, role, school_id, invited_by, \
             created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, {}, {}) RETURNING id",
            ts_in("$7"),
            ts_in("$8"),
        );
        let row = sqlx::query(&sql)
            .bind(secrets::token_hash(&plain))
            .bind(&email)
            .bind(league.id.0)
            .bind(new.role.code())
            .bind(school_id)
            .bind(by.user.clone())
            .bind(at.to_string())
            .bind(expires_at.to_string())
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing the invitation"))?;
        let invite = Invite {
            id: InviteId(get(&row, "id")?),
            email,
            league: league.id,
            league_slug: league.slug.clone(),
            league_name: league.name.clone(),
            role: new.role,
            school: school.map(str::to_string),
            invited_by: by.user.clone(),
            created_at: at,
            expires_at,
            accepted_at: None,
            withdrawn_at: None,
            withdrawn_by: None,
        };
        tx.history(Change {
                after: Some(json::invite(
                    &invite.email,
                    invite.role.code(),
                    school,
                    expires_at,
                    None,
                )),
                league: Some(league.id.0),
                ..Change::of(Entity::Invite, invite.id.to_string(), HistoryAction::Create)
            },
        )
        .await?;
        tx.commit("saving the invitation").await?;
        Ok((invite, plain))
    }

    /// The league's invitations, newest first: pending, accepted and expired.
    pub async fn invites(&self, league: LeagueId) -> Result<Vec<Invite>, StoreError> {
        let rows = sqlx::query(&invite_sql("i.league_id = $1 ORDER BY i.id DESC"))
            .bind(league.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the invitations"))?;
        rows.iter().map(invite_from_row).collect()
    }

    /// Withdraws a pending invitation of the league: it can no longer be accepted; the row
    /// keeps when and by whom, and the history the change and why.
    pub async fn withdraw_invite(
        &self,
        league: LeagueId,
        id: InviteId,
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<Invite, StoreError> {
        let reason = check::reason(reason)?;
        let reason = reason.as_ref().map(Reason::as_str);
        let mut tx = self.account_write(by).await?;
        let row = sqlx::query(&invite_sql("i.id = $1 AND i.league_id = $2"))
            .bind(id.0)
            .bind(league.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("looking up an invitation"))?;
        let Some(invite) = row.as_ref().map(invite_from_row).transpose()? else {
            return Err(StoreError::NotFound(format!(
                "there is no invitation numbered {id} in this league; the league's invitations are listed on its People page"
            )));
        };
        if let Some(accepted) = invite.accepted_at {
            return Err(StoreError::Invalid(format!(
                "the invitation to {} was accepted on {}, so it cannot be withdrawn; remove the role it gave on the People page instead",
                invite.email,
                when(accepted)
            )));
        }
        if let Some(withdrawn) = invite.withdrawn_at {
            return Err(StoreError::Invalid(format!(
                "the invitation to {} was already withdrawn on {}",
                invite.email,
                when(withdrawn)
            )));
        }
        let at = tx.at;
        let sql = format!(
            "UPDATE invites SET withdrawn_at = {}, withdrawn_by = $2 \
             WHERE id = $3 AND accepted_at IS NULL AND withdrawn_at IS NULL",
            ts_in("$1")
        );
        sqlx::query(&sql)
            .bind(at.to_string())
            .bind(by.user.clone())
            .bind(id.0)
            .execute(&mut **tx)
            .await
            .map_err(db("withdrawing the invitation"))?;
        let school = invite.school.as_deref();
        tx.history(Change {
                before: Some(json::invite(
                    &invite.email,
                    invite.role.code(),
                    school,
                    invite.expires_at,
                    None,
                )),
                after: Some(json::withdrawn_invite(
                    &invite.email,
                    invite.role.code(),
                    school,
                    invite.expires_at,
                    at,
                )),
                reason,
                league: Some(league.0),
                ..Change::of(Entity::Invite, id.to_string(), HistoryAction::Withdraw)
            },
        )
        .await?;
        tx.commit("saving the withdrawal").await?;
        Ok(Invite {
            withdrawn_at: Some(at),
            withdrawn_by: by.user.clone(),
            ..invite
        })
    }

    /// The invitation a link's secret opens, whatever its state (the caller shows it).
    pub async fn invite_by_token(&self, plain: &str) -> Result<Option<Invite>, StoreError> {
        let row = sqlx::query(&invite_sql("i.token_hash = $1"))
            .bind(secrets::token_hash(plain))
            .fetch_optional(&self.pool)
            .await
            .map_err(db("looking up an invitation"))?;
        row.as_ref().map(invite_from_row).transpose()
    }

    /// Takes up an invitation, once: marks it accepted, makes the account (for a new one) and
    /// grants the role, all in one transaction. `sender_may` is asked, inside it, whether the
    /// sender's roles in the league now still let them give the role (`Err` is why not).
    pub async fn accept_invite(
        &self,
        plain: &str,
        accept: AcceptInvite<'_>,
        sender_may: impl FnOnce(&Invite, &[Membership]) -> Result<(), String>,
    ) -> Result<(User, Membership), StoreError> {
        if let AcceptInvite::NewAccount { password_hash, .. } = accept {
            check_phc(password_hash)?;
        }
        let mut tx = begin_write(self.writer()).await?;
        bump(&mut tx).await?;
        let Some(invite) = invite_in(&mut tx, plain).await? else {
            return Err(StoreError::Invalid(
                "This invitation link is not known: it may have been cut short or mistyped. Open the whole link from the mail, or ask the officer who sent it for a new one."
                    .into(),
            ));
        };
        if let Some(accepted) = invite.accepted_at {
            return Err(StoreError::Invalid(format!(
                "This invitation has already been used (on {}); sign in instead.",
                when(accepted)
            )));
        }
        if let Some(withdrawn) = invite.withdrawn_at {
            return Err(StoreError::Invalid(format!(
                "This invitation was withdrawn on {}{}; ask an officer of {} for a new one if you should still have the role.",
                when(withdrawn),
                invite
                    .withdrawn_by
                    .as_deref()
                    .map_or(String::new(), |b| format!(" by {b}")),
                invite.league_name
            )));
        }
        let at = codes::wall_clock();
        if invite.expires_at <= at {
            return Err(StoreError::Invalid(format!(
                "This invitation expired on {}; ask the officer who sent it for a new one.",
                when(invite.expires_at)
            )));
        }
        let sender = sender_roles_in(&mut tx, &invite).await?;
        sender_may(&invite, &sender).map_err(StoreError::Invalid)?;
        let (user, actor) = match accept {
            AcceptInvite::NewAccount {
                name,
                password_hash,
            } => {
                if user_by_email_in(&mut tx, &invite.email).await?.is_some() {
                    return Err(StoreError::Invalid(format!(
                        "{} already has an account; sign in with it, then open the invitation link again to take up the role.",
                        invite.email
                    )));
                }
                let actor = Actor::user(&invite.email, invite.role);
                let user = insert_user(
                    &mut tx,
                    &invite.email,
                    name.trim(),
                    Some(password_hash),
                    at,
                    &actor,
                    Some(invite.league),
                )
                .await?;
                (user, actor)
            }
            AcceptInvite::ExistingAccount(id) => {
                let user = user_in(&mut tx, id).await?;
                if user.email != invite.email {
                    return Err(StoreError::Invalid(format!(
                        "This invitation is for {}, but you are signed in as {}; sign out and open the link again, or ask for an invitation to {}.",
                        invite.email, user.email, user.email
                    )));
                }
                let actor = Actor::user(&user.email, invite.role);
                (user, actor)
            }
        };
        let sql = format!(
            "UPDATE invites SET accepted_at = {}, accepted_by_user = $2 \
             WHERE id = $3 AND accepted_at IS NULL AND withdrawn_at IS NULL",
            ts_in("$1")
        );
        let done = sqlx::query(&sql)
            .bind(at.to_string())
            .bind(user.id.0)
            .bind(invite.id.0)
            .execute(&mut *tx)
            .await
            .map_err(db("marking the invitation used"))?;
        if done.rows_affected() != 1 {
            // Accepted by another request between the read and this write.
            return Err(StoreError::Invalid(
                "This invitation has just been used; sign in instead.".into(),
            ));
        }
        let school = invite.school.as_deref();
        append_history(
            &mut tx,
            at,
            &actor,
            Change {
                before: Some(json::invite(
                    &invite.email,
                    invite.role.code(),
                    school,
                    invite.expires_at,
                    None,
                )),
                after: Some(json::invite(
                    &invite.email,
                    invite.role.code(),
                    school,
                    invite.expires_at,
                    Some(at),
                )),
                league: Some(invite.league.0),
                ..Change::of(Entity::Invite, invite.id.to_string(), HistoryAction::Accept)
            },
        )
        .await?;
        let league = league_in(&mut tx, invite.league).await?;
        let (membership, _) =
            grant_in(&mut tx, &user, &league, invite.role, school, at, &actor).await?;
        tx.commit().await.map_err(db("saving the new account"))?;
        Ok((user, membership))
    }

    /// A password-reset link's secret for the account, valid for `valid_for`; only its hash is kept.
    pub async fn create_password_reset(
        &self,
        user: UserId,
        valid_for: jiff::SignedDuration,
    ) -> Result<String, StoreError> {
        let plain = secrets::try_new_token()?;
        let at = codes::wall_clock();
        let expires_at = expiry(at, valid_for)?;
        // Not league data and asked for by whoever knows the email: no history row, no bump.
        let mut tx = begin_write(self.writer()).await?;
        user_in(&mut tx, user).await?;
        let sql = format!(
            "INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) \
             VALUES ($1, $2, {}, {})",
            ts_in("$3"),
            ts_in("$4"),
        );
        sqlx::query(&sql)
            .bind(secrets::token_hash(&plain))
            .bind(user.0)
            .bind(at.to_string())
            .bind(expires_at.to_string())
            .execute(&mut *tx)
            .await
            .map_err(db("storing the password-reset link"))?;
        tx.commit()
            .await
            .map_err(db("saving the password-reset link"))?;
        Ok(plain)
    }

    /// The account a password-reset link belongs to, whether or not the link still works:
    /// what the new password is checked against (its email and name). `None` if unknown.
    pub async fn password_reset_owner(&self, plain: &str) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(&user_sql(
            "id = (SELECT user_id FROM password_resets WHERE token_hash = $1)",
        ))
        .bind(secrets::token_hash(plain))
        .fetch_optional(&self.pool)
        .await
        .map_err(db("looking up a password-reset link"))?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// Sets a new password by a reset link, once; every other open link of the account dies too.
    pub async fn use_password_reset(
        &self,
        plain: &str,
        password_hash: &str,
    ) -> Result<User, StoreError> {
        check_phc(password_hash)?;
        let mut tx = begin_write(self.writer()).await?;
        bump(&mut tx).await?;
        let sql = format!(
            "SELECT user_id, {} AS expires_at, {} AS used_at FROM password_resets WHERE token_hash = $1",
            ts_out("expires_at"),
            ts_out("used_at"),
        );
        let Some(row) = sqlx::query(&sql)
            .bind(secrets::token_hash(plain))
            .fetch_optional(&mut *tx)
            .await
            .map_err(db("looking up a password-reset link"))?
        else {
            return Err(StoreError::Invalid(
                "This password-reset link is not known: it may have been cut short or mistyped. Open the whole link from the mail, or ask for a new one on the sign-in page."
                    .into(),
            ));
        };
        let expires: String = get(&row, "expires_at")?;
        let expires_at = codes::parse_timestamp(&expires)?;
        if let Some(used) = parse_opt_timestamp(get(&row, "used_at")?)? {
            return Err(StoreError::Invalid(format!(
                "This password-reset link has already been used (on {}); sign in, or ask for a new link on the sign-in page.",
                when(used)
            )));
        }
        let at = codes::wall_clock();
        if expires_at <= at {
            return Err(StoreError::Invalid(format!(
                "This password-reset link expired on {}; ask for a new one on the sign-in page.",
                when(expires_at)
            )));
        }
        let user = user_in(&mut tx, UserId(get(&row, "user_id")?)).await?;
        let sql = format!(
            "UPDATE password_resets SET used_at = {} WHERE user_id = $2 AND used_at IS NULL",
            ts_in("$1")
        );
        let done = sqlx::query(&sql)
            .bind(at.to_string())
            .bind(user.id.0)
            .execute(&mut *tx)
            .await
            .map_err(db("marking the password-reset link used"))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Invalid(
                "This password-reset link has just been used; sign in with the new password."
                    .into(),
            ));
        }
        let actor = Actor {
            user: Some(user.email.clone()),
            role: None,
        };
        set_password_in(
            &mut tx,
            &user,
            password_hash,
            at,
            &actor,
            Some("reset by link"),
        )
        .await?;
        tx.commit().await.map_err(db("saving the new password"))?;
        Ok(User {
            password_hash: Some(password_hash.to_string()),
            ..user
        })
    }

    /// Notes a failed sign-in for the throttle (not league data: no history row).
    pub async fn record_sign_in_failure(
        &self,
        email: &Email,
        address: &str,
    ) -> Result<(), StoreError> {
        self.note_attempt("sign_in_failures", email, address).await
    }

    /// The failed sign-ins to this email from this address at or after `since`.
    pub async fn sign_in_failures(
        &self,
        email: &Email,
        address: &str,
        since: jiff::Timestamp,
    ) -> Result<Attempts, StoreError> {
        self.attempts("sign_in_failures", email, Some(address), since)
            .await
    }

    /// Notes a request for a password-reset link, for its own limit (no history row).
    pub async fn record_reset_request(&self, email: &Email, address: &str) -> Result<(), StoreError> {
        self.note_attempt("reset_requests", email, address).await
    }

    /// The reset links asked for this email at or after `since`, from `address` or from anywhere.
    pub async fn reset_requests(
        &self,
        email: &Email,
        address: Option<&str>,
        since: jiff::Timestamp,
    ) -> Result<Attempts, StoreError> {
        self.attempts("reset_requests", email, address, since).await
    }

    /// An attempt from `address` against the per-address limit every server on this database
    /// shares (issue 16): let through and noted when fewer than `limit` were let through at or
    /// after `since` (`None`); else refused, and nothing noted, with those attempts (the earliest
    /// frees a place when it leaves the window).
    pub async fn address_attempt(
        &self,
        address: &str,
        since: jiff::Timestamp,
        limit: u32,
    ) -> Result<Option<Attempts>, StoreError> {
        // One statement: on SQLite writes queue, so the count is exact; on PostgreSQL two
        // servers' simultaneous attempts may both pass at the limit's edge, one each at most.
        let sql = format!(
            "INSERT INTO address_attempts (address, at) SELECT $1, {} \
             WHERE (SELECT COUNT(*) FROM address_attempts WHERE address = $1 AND at >= {}) < $4",
            ts_in("$2"),
            ts_in("$3"),
        );
        let done = sqlx::query(&sql)
            .bind(address)
            .bind(ts_fixed(codes::wall_clock()))
            .bind(ts_fixed(since))
            .bind(i64::from(limit))
            .execute(self.writer())
            .await
            .map_err(db("noting an attempt for the per-address limit"))?;
        if done.rows_affected() > 0 {
            return Ok(None);
        }
        let sql = format!(
            "SELECT COUNT(*) AS n, {} AS earliest FROM address_attempts WHERE address = $1 AND at >= {}",
            ts_out("MIN(at)"),
            ts_in("$2"),
        );
        let row = sqlx::query(&sql)
            .bind(address)
            .bind(ts_fixed(since))
            .fetch_one(&self.pool)
            .await
            .map_err(db("counting attempts for the per-address limit"))?;
        let earliest: Option<String> = get(&row, "earliest")?;
        Ok(Some(Attempts {
            count: to_u32(get(&row, "n")?, "count of attempts")?,
            earliest: earliest
                .as_deref()
                .map(codes::parse_timestamp)
                .transpose()?,
        }))
    }

    /// `table` is one of the two attempt tables, never text from a request.
    async fn note_attempt(
        &self,
        table: &'static str,
        email: &Email,
        address: &str,
    ) -> Result<(), StoreError> {
        let sql = format!(
            "INSERT INTO {table} (email, address, at) VALUES ($1, $2, {})",
            ts_in("$3")
        );
        sqlx::query(&sql)
            .bind(email.as_str())
            .bind(address)
            .bind(ts_fixed(codes::wall_clock()))
            .execute(self.writer())
            .await
            .map_err(db("noting an attempt for the sign-in limits"))?;
        Ok(())
    }

    async fn attempts(
        &self,
        table: &'static str,
        email: &Email,
        address: Option<&str>,
        since: jiff::Timestamp,
    ) -> Result<Attempts, StoreError> {
        let sql = format!(
            "SELECT COUNT(*) AS n, {} AS earliest FROM {table} \
             WHERE email = $1 AND at >= {} AND (CAST($3 AS TEXT) IS NULL OR address = $3)",
            ts_out("MIN(at)"),
            ts_in("$2"),
        );
        let row = sqlx::query(&sql)
            .bind(email.as_str())
            .bind(ts_fixed(since))
            .bind(address)
            .fetch_one(&self.pool)
            .await
            .map_err(db("counting attempts for the sign-in limits"))?;
        let earliest: Option<String> = get(&row, "earliest")?;
        Ok(Attempts {
            count: to_u32(get(&row, "n")?, "count of attempts")?,
            earliest: earliest
                .as_deref()
                .map(codes::parse_timestamp)
                .transpose()?,
        })
    }

    /// Removes the failed sign-ins, reset requests and per-address attempts noted before
    /// `older_than` (they only matter to the limits' windows); returns how many went. Not
    /// league data: no history row.
    pub async fn forget_sign_in_failures(
        &self,
        older_than: jiff::Timestamp,
    ) -> Result<u64, StoreError> {
        let mut gone = 0;
        for table in ["sign_in_failures", "reset_requests", "address_attempts"] {
            let sql = format!("DELETE FROM {table} WHERE at < {}", ts_in("$1"));
            let done = sqlx::query(&sql)
                .bind(ts_fixed(older_than))
                .execute(self.writer())
                .await
                .map_err(db("forgetting old sign-in attempts"))?;
            gone += done.rows_affected();
        }
        Ok(gone)
    }

    /// The site's secret called `name`, made (64 hex characters) by the first server to ask;
    /// every later call, from any server on this database, gets the same one.
    pub async fn site_secret(&self, name: &str) -> Result<String, StoreError> {
        let made = secrets::try_new_token()?;
        sqlx::query("INSERT INTO site_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING")
            .bind(name)
            .bind(made)
            .execute(self.writer())
            .await
            .map_err(db("making the site's secret"))?;
        let row = sqlx::query("SELECT value FROM site_secrets WHERE name = $1")
            .bind(name)
            .fetch_one(&self.pool)
            .await
            .map_err(db("reading the site's secret"))?;
        get(&row, "value")
    }

    /// A new API token acting for its owner in a role they hold; the secret is returned once.
    pub async fn create_api_token(
        &self,
        new: &NewApiToken,
        by: &Actor,
    ) -> Result<(ApiToken, String), StoreError> {
        let label = new.label.trim();
        if label.is_empty() {
            return Err(StoreError::Invalid(
                "an API token needs a label saying what it is for (“nightly import”), so that it can be recognised and revoked later"
                    .into(),
            ));
        }
        check::text(TextKind::Label, "the token's label", label)?;
        let school = school_name(new.school.as_deref());
        check_grantable(new.role, school, "a token")?;
        let plain = secrets::try_new_token()?;
        let prefix: String = plain.chars().take(8).collect();
        let mut tx = self.account_write(by).await?;
        let user = user_in(&mut tx, new.user).await?;
        let league = league_in(&mut tx, new.league).await?;
        let school_id = match school {
            Some(name) => find_school(&mut tx, league.id, name).await?,
            None => None,
        };
        let holds = match (school, school_id) {
            (Some(_), None) => false,
            _ => sqlx::query(
                "SELECT 1 AS one FROM memberships WHERE user_id = $1 AND league_id = $2 AND role = $3 \
                 AND COALESCE(school_id, 0) = $4 AND revoked_at IS NULL",
            )
            .bind(user.id.0)
            .bind(league.id.0)
            .bind(new.role.code())
            .bind(school_id.unwrap_or(0))
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("looking up a role"))?
            .is_some(),
        };
        if !holds {
            return Err(StoreError::Invalid(format!(
                "{} is not {} of “{}”{}; a token acts in a role its owner holds, so grant the role first or choose one they hold",
                user.email,
                new.role.in_sentence(),
                league.name,
                school.map(|s| format!(" for {s}")).unwrap_or_default(),
            )));
        }
        let at = tx.at;
        let sql = format!(
            "INSERT INTO api_tokens (token_hash, prefix, label, user_id, league_id, role, school_id, \
             created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, {}, $9) RETURNING id",
            ts_in("$8")
        );
        let row = sqlx::query(&sql)
            .bind(secrets::token_hash(&plain))
            .bind(&prefix)
            .bind(label)
            .bind(user.id.0)
            .bind(league.id.0)
            .bind(new.role.code())
            .bind(school_id)
            .bind(at.to_string())
            .bind(by.user.clone())
            .fetch_one(&mut **tx)
            .await
            .map_err(db("storing the API token"))?;
        let token = ApiToken {
            id: ApiTokenId(get(&row, "id")?),
            prefix,
            label: label.to_string(),
            user: user.id,
            user_email: user.email.clone(),
            league: league.id,
            league_slug: league.slug.clone(),
            role: new.role,
            school: school.map(str::to_string),
            created_at: at,
            revoked_at: None,
        };
        tx.history(Change {
                after: Some(json::api_token(
                    &token.prefix,
                    &token.label,
                    token.role.code(),
                    school,
                )),
                league: Some(league.id.0),
                ..Change::of(Entity::ApiToken, token.id.to_string(), HistoryAction::Create)
            },
        )
        .await?;
        tx.commit("saving the API token").await?;
        Ok((token, plain))
    }

    /// The token a secret names and its owner, while the token is not revoked and its owner
    /// still holds the token's role.
    pub async fn api_token_by_secret(
        &self,
        plain: &str,
    ) -> Result<Option<(ApiToken, User)>, StoreError> {
        let sql = api_token_sql(
            "t.token_hash = $1 AND t.revoked_at IS NULL AND EXISTS (SELECT 1 FROM memberships m \
             WHERE m.user_id = t.user_id AND m.league_id = t.league_id AND m.role = t.role \
             AND COALESCE(m.school_id, 0) = COALESCE(t.school_id, 0) AND m.revoked_at IS NULL)",
        );
        let Some(row) = sqlx::query(&sql)
            .bind(secrets::token_hash(plain))
            .fetch_optional(&self.pool)
            .await
            .map_err(db("looking up an API token"))?
        else {
            return Ok(None);
        };
        let token = api_token_from_row(&row)?;
        let user = self
            .user(token.user)
            .await?
            .ok_or_else(|| corrupt("an API token of an account that does not exist"))?;
        Ok(Some((token, user)))
    }

    /// The account's API tokens, revoked ones too, newest first.
    /// The kinds of notice `user` has stopped (issue 13); every other kind is mailed to them.
    pub async fn stopped_notices(&self, user: UserId) -> Result<Vec<Notice>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        stopped_in(&mut tx, user).await
    }

    /// Stops exactly `stopped` for `user`; the other kinds are mailed again. One history row
    /// with the list before and after; nothing is written when it does not change.
    pub async fn set_stopped_notices(
        &self,
        user: UserId,
        stopped: &[Notice],
        by: &Actor,
    ) -> Result<(), StoreError> {
        let mut tx = self.account_write(by).await?;
        let account = user_in(&mut tx, user).await?;
        let before = stopped_in(&mut tx, user).await?;
        let mut after = stopped.to_vec();
        after.sort();
        after.dedup();
        if before == after {
            // Nothing to change: the bump is rolled back with the transaction.
            return Ok(());
        }
        sqlx::query("DELETE FROM notice_stops WHERE user_id = $1")
            .bind(user.0)
            .execute(&mut **tx)
            .await
            .map_err(db("changing the notices"))?;
        for n in &after {
            sqlx::query("INSERT INTO notice_stops (user_id, notice) VALUES ($1, $2)")
                .bind(user.0)
                .bind(n.code())
                .execute(&mut **tx)
                .await
                .map_err(db("changing the notices"))?;
        }
        let codes = |ns: &[Notice]| serde_json::json!({ "stopped": ns.iter().map(|n| n.code()).collect::<Vec<_>>() });
        tx.history(Change {
                before: Some(codes(&before)),
                after: Some(codes(&after)),
                ..Change::of(Entity::User, account.id.to_string(), HistoryAction::SetNotices)
            },
        )
        .await?;
        tx.commit("saving the notices").await
    }

    /// The account's API tokens, revoked ones too, newest first.
    pub async fn api_tokens(&self, user: UserId) -> Result<Vec<ApiToken>, StoreError> {
        let rows = sqlx::query(&api_token_sql("t.user_id = $1 ORDER BY t.id DESC"))
            .bind(user.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the API tokens"))?;
        rows.iter().map(api_token_from_row).collect()
    }

    /// The league's API tokens, revoked ones too, newest first.
    pub async fn league_api_tokens(&self, league: LeagueId) -> Result<Vec<ApiToken>, StoreError> {
        let rows = sqlx::query(&api_token_sql("t.league_id = $1 ORDER BY t.id DESC"))
            .bind(league.0)
            .fetch_all(&self.pool)
            .await
            .map_err(db("reading the league's API tokens"))?;
        rows.iter().map(api_token_from_row).collect()
    }

    /// Revokes a token for good; revoking it again changes nothing.
    pub async fn revoke_api_token(&self, id: ApiTokenId, by: &Actor) -> Result<(), StoreError> {
        let mut tx = self.account_write(by).await?;
        let Some(row) = sqlx::query(&api_token_sql("t.id = $1"))
            .bind(id.0)
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading an API token"))?
        else {
            return Err(StoreError::NotFound(format!(
                "there is no API token with id {id}; reload the list of tokens"
            )));
        };
        let token = api_token_from_row(&row)?;
        if token.revoked_at.is_some() {
            // Nothing to change: the bump is rolled back with the transaction.
            return Ok(());
        }
        let at = tx.at;
        let sql = format!(
            "UPDATE api_tokens SET revoked_at = {}, revoked_by = $2 WHERE id = $3",
            ts_in("$1")
        );
        sqlx::query(&sql)
            .bind(at.to_string())
            .bind(by.user.clone())
            .bind(id.0)
            .execute(&mut **tx)
            .await
            .map_err(db("revoking the API token"))?;
        tx.history(Change {
                before: Some(json::api_token(
                    &token.prefix,
                    &token.label,
                    token.role.code(),
                    token.school.as_deref(),
                )),
                league: Some(token.league.0),
                ..Change::of(Entity::ApiToken, id.to_string(), HistoryAction::Revoke)
            },
        )
        .await?;
        tx.commit("saving the revocation").await
    }

    /// GT-P2: the visitors confirm or dispute the version of the result in force, if the match
    /// is still as `seen` (its version is the one reviewed).
    pub async fn review_result(
        &self,
        m: MatchId,
        seen: ReportSeen,
        kind: ReviewKind,
        by: &Actor,
        reason: Option<&str>,
    ) -> Result<ResultReview, StoreError> {
        let reason = check::reason(reason)?;
        let reason = reason.as_ref().map(Reason::as_str);
        let mut tx = self.write(by).await?;
        let Some(place) = match_place(&mut tx, m).await? else {
            return Err(StoreError::NotFound(format!(
                "there is no match with id {m}; reload the schedule and review the result shown there"
            )));
        };
        let label = check::match_label(place.round, &place.home, &place.away);
        let mut versions = latest_version_of(&mut tx, m).await?;
        check_seen(&mut tx, m, &label, &versions, seen).await?;
        let Some(latest) = versions.pop() else {
            return Err(corrupt(format!("{label} without a result version")));
        };
        let version = seen.version;
        if latest.outcome == MatchOutcome::Pending {
            return Err(StoreError::Invalid(format!(
                "no result has been entered for {label} yet, so there is nothing to confirm or dispute (GT-P2); wait for the home team's entry"
            )));
        }
        let sql = format!(
            "SELECT version, kind, by_user, role, {} AS at, reason FROM result_reviews \
             WHERE match_id = $1 AND version = $2 ORDER BY id DESC LIMIT 1",
            ts_out("at")
        );
        let previous = sqlx::query(&sql)
            .bind(m.0)
            .bind(i64::from(version))
            .fetch_optional(&mut **tx)
            .await
            .map_err(db("reading a match's reviews"))?
            .map(|row| review_from_row(m, &row))
            .transpose()?;
        let at = tx.at;
        let sql = format!(
            "INSERT INTO result_reviews (match_id, version, kind, by_user, role, at, reason) \
             VALUES ($1, $2, $3, $4, $5, {}, $7)",
            ts_in("$6")
        );
        sqlx::query(&sql)
            .bind(m.0)
            .bind(i64::from(version))
            .bind(kind.code())
            .bind(by.user.clone())
            .bind(by.role.map(Role::code))
            .bind(at.to_string())
            .bind(reason)
            .execute(&mut **tx)
            .await
            .map_err(db("storing the review"))?;
        bump_competition(&mut tx, place.competition).await?;
        tx.history(Change {
                before: previous.map(|p| {
                    json::review(
                        p.version,
                        p.kind.code(),
                        place.round,
                        &place.home,
                        &place.away,
                    )
                }),
                after: Some(json::review(
                    version,
                    kind.code(),
                    place.round,
                    &place.home,
                    &place.away,
                )),
                reason,
                ..Change::on_match(
                    &place,
                    m,
                    match kind {
                        ReviewKind::Confirmed => HistoryAction::ConfirmResult,
                        ReviewKind::Disputed => HistoryAction::DisputeResult,
                        ReviewKind::CorrectionRequested => HistoryAction::RequestCorrection,
                    },
                )
            },
        )
        .await?;
        tx.commit("saving the review").await?;
        Ok(ResultReview {
            match_id: m,
            version,
            kind,
            by: by.user.clone(),
            role: by.role,
            at,
            reason: reason.map(str::to_string),
        })
    }

    /// Every review of the match's results, oldest first.
    pub async fn result_reviews(&self, m: MatchId) -> Result<Vec<ResultReview>, StoreError> {
        let mut tx = begin_read(&self.pool).await?;
        if match_place(&mut tx, m).await?.is_none() {
            return Err(StoreError::NotFound(format!(
                "there is no match with id {m}, so it has no reviews"
            )));
        }
        let sql = format!(
            "SELECT version, kind, by_user, role, {} AS at, reason FROM result_reviews \
             WHERE match_id = $1 ORDER BY id",
            ts_out("at")
        );
        let rows = sqlx::query(&sql)
            .bind(m.0)
            .fetch_all(&mut *tx)
            .await
            .map_err(db("reading a match's reviews"))?;
        tx.commit().await.map_err(db("reading a match's reviews"))?;
        rows.iter().map(|row| review_from_row(m, row)).collect()
    }
}
