//! `arbiter user add`: the first account of a league, from the command line (issue 5). Later
//! accounts come by invitation from the site's People page.

use anyhow::{Context, Result, anyhow, bail};
use arbiter_core::permissions::Role;
use arbiter_mail::{Mail, Mailer};
use arbiter_store::{Actor, Store};

/// How long the first set-password link works.
const LINK_VALID_DAYS: i64 = 7;

/// What `arbiter user add` was asked.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub email: String,
    pub name: Option<String>,
    pub role: String,
    pub league: String,
    pub school: Option<String>,
    pub base_url: String,
}

/// What was done, to print; and the set-password link when one was made.
#[derive(Debug, Clone)]
pub struct Added {
    pub lines: Vec<String>,
    pub link: Option<String>,
}

/// Creates the account (or finds it), gives it the role, and mails (or writes to the mail
/// folder) a single-use link to set its password.
pub async fn add(store: &Store, mailer: &Mailer, new: &NewUser) -> Result<Added> {
    let role = Role::from_code(&new.role)
        .filter(|r| *r != Role::Public)
        .ok_or_else(|| {
            anyhow!(
                "`{}` is not a role; give one of president, vice-president, secretary, treasurer, arbiter, advisor",
                new.role
            )
        })?;
    if let Err(why) = role.check_school(new.school.as_deref()) {
        bail!("{why} Give it with --school.");
    }
    let league = store
        .league(&new.league)
        .await?
        .filter(|l| l.slug == new.league)
        .ok_or_else(|| {
            anyhow!(
                "there is no league `{}` in this database; import its competition first (`arbiter import FILE --league {}`)",
                new.league,
                new.league
            )
        })?;
    let by = Actor::system();
    let email = new.email.trim().to_lowercase();
    let mut lines = Vec::new();
    let user = match store.user_by_email(&email).await? {
        Some(u) => {
            lines.push(format!("{email} already has an account; adding the role."));
            u
        }
        None => {
            let name = new.name.clone().unwrap_or_else(|| email.clone());
            store
                .create_user(&email, &name, None, &by)
                .await
                .with_context(|| format!("cannot create the account {email}"))?
        }
    };
    let m = store
        .grant_role(user.id, league.id, role, new.school.as_deref(), &by)
        .await
        .with_context(|| format!("cannot give {email} the role {}", role.name()))?;
    let what = match &m.school {
        Some(s) => format!("{} of {s}", role.name()),
        None => role.name().to_string(),
    };
    lines.push(format!("{email} is {what} in {}.", league.name));
    let mut made = None;
    if user.password_hash.is_none() {
        let token = store
            .create_password_reset(
                user.id,
                jiff::SignedDuration::from_hours(24 * LINK_VALID_DAYS),
            )
            .await?;
        let link = format!("{}/reset/{token}", new.base_url.trim_end_matches('/'));
        let mail = Mail {
            to: email.clone(),
            subject: format!("Your Arbiter account for {}", league.name),
            text: format!(
                "You are {what} in {} on Arbiter.\n\nOpen this link within {LINK_VALID_DAYS} days to choose your password; it works once:\n{link}\n",
                league.name
            ),
        };
        match mailer.send(&mail).await {
            Ok(d) => lines.push(format!("The mail with the link was {d}.")),
            Err(e) => lines.push(format!("The mail was not sent ({e}).")),
        }
        lines.push(format!(
            "Set the password (once, within {LINK_VALID_DAYS} days): {link}"
        ));
        made = Some(link);
    }
    Ok(Added { lines, link: made })
}
