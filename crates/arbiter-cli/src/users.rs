//! `arbiter user add`: the first account of a league, from the command line (issue 5). Later
//! accounts come by invitation from the site's People page. `arbiter token add`: an API token
//! for a script, acting in an officer's role or a school's advisor's.

use anyhow::{Context, Result, anyhow, bail};
use arbiter_core::record::text::Email;
use arbiter_core::rules::permissions::{Action, Decision, Role, Subject, Target, decide};
use arbiter_mail::{Mail, Mailer};
use arbiter_store::{Actor, NewApiToken, Store};

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
    let email = Email::parse(&new.email).map_err(|why| anyhow!("{why}"))?;
    let mut lines = Vec::new();
    let user = match store.user_by_email(&email).await? {
        Some(u) => {
            lines.push(format!("{email} already has an account; adding the role."));
            u
        }
        None => {
            let name = new.name.clone().unwrap_or_else(|| email.to_string());
            store
                .create_user(email.as_str(), &name, None, &by)
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
            to: email.to_string(),
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

/// What `arbiter token add` was asked.
#[derive(Debug, Clone)]
pub struct NewToken {
    pub email: String,
    pub league: String,
    /// Needed only when the account holds more than one role in the league.
    pub role: Option<String>,
    pub label: String,
}

/// An API token for a role in a league (an officer's, or an advisor's for their school), for a
/// script; the secret is returned once. The permission table decides, as on the account page.
pub async fn token_add(store: &Store, new: &NewToken) -> Result<(String, String)> {
    let email = Email::parse(&new.email).map_err(|why| anyhow!("{why}"))?;
    let user = store.user_by_email(&email).await?.ok_or_else(|| {
        anyhow!("there is no account {email}; make it first with `arbiter user add`")
    })?;
    let league = store
        .league(&new.league)
        .await?
        .filter(|l| l.slug == new.league)
        .ok_or_else(|| anyhow!("there is no league `{}` in this database", new.league))?;
    let wanted = match &new.role {
        Some(code) => Some(Role::from_code(code).ok_or_else(|| {
            anyhow!("`{code}` is not a role; give one of president, vice-president, secretary, treasurer, arbiter, advisor")
        })?),
        None => None,
    };
    let held: Vec<_> = store
        .memberships(user.id)
        .await?
        .into_iter()
        .filter(|m| m.league == league.id && wanted.is_none_or(|r| m.role == r))
        .collect();
    let m = match held.as_slice() {
        [one] => one,
        [] => bail!(
            "{email} holds no{} role in {}; grant it first with `arbiter user add`",
            wanted.map(|r| format!(" {}", r.name())).unwrap_or_default(),
            league.name
        ),
        _ => bail!(
            "{email} holds several roles in {}; say which the token acts in with --role",
            league.name
        ),
    };
    let subject = Subject {
        role: m.role,
        school: m.school.as_deref(),
    };
    if let Decision::Refused { reason, .. } =
        decide(subject, Action::CreateApiToken, Target::League)
    {
        bail!("{reason}");
    }
    let (_, secret) = store
        .create_api_token(
            &NewApiToken {
                user: user.id,
                league: league.id,
                role: m.role,
                school: m.school.clone(),
                label: new.label.clone(),
            },
            // Whoever runs the command line made it, as for `user add`.
            &Actor::system(),
        )
        .await
        .with_context(|| format!("cannot create an API token for {email}"))?;
    let acts_as = match &m.school {
        // An advisor's token acts for the school's teams only (GT-M1).
        Some(school) if m.role == Role::Advisor => {
            format!("{} of {school} in {}", m.role.name(), league.name)
        }
        _ => format!("{} of {}", m.role.name(), league.name),
    };
    let said = format!(
        "Created the API token “{}” acting as {acts_as} for {email}; it is shown this once, so keep it.",
        new.label.trim(),
    );
    Ok((secret, said))
}
