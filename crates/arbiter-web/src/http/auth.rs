//! Who is signed in, and whether they may do a thing here (issue 5; the table is
//! `arbiter_core::rules::permissions`, GT-O3).
//!
//! Sessions live in the store's database (tower-sessions); axum-login keeps the signed-in
//! account in them and changes the session id at sign-in. An account's session ends when its
//! password changes (the password hash is the session's auth hash).

use std::net::{IpAddr, SocketAddr};

use arbiter_core::record::text::Email;
use arbiter_core::rules::permissions::{Action, Role, Subject, Target, acting_role};
use arbiter_store::{Actor, LeagueId, Membership, Store, User, UserId, secrets};
use axum::extract::ConnectInfo;
use axum::http::HeaderMap;
use axum_login::{AuthUser, AuthnBackend};

use crate::http::error::WebError;

/// A signed-in person with their roles in every league.
#[derive(Clone)]
pub struct Account {
    pub user: User,
    pub memberships: Vec<Membership>,
    auth_hash: Vec<u8>,
}

impl std::fmt::Debug for Account {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Account")
            .field("email", &self.user.email)
            .field("memberships", &self.memberships.len())
            .finish_non_exhaustive()
    }
}

impl AuthUser for Account {
    type Id = i64;

    fn id(&self) -> i64 {
        self.user.id.0
    }

    fn session_auth_hash(&self) -> &[u8] {
        &self.auth_hash
    }
}

impl Account {
    /// This account's roles in one league, with the school of each.
    pub fn roles_in(&self, league: LeagueId) -> impl Iterator<Item = &Membership> {
        self.memberships.iter().filter(move |m| m.league == league)
    }
}

/// The person acting and the role they act in, once [`permit`] has said yes.
#[derive(Debug, Clone)]
pub struct Acting {
    pub email: String,
    pub role: Role,
    /// The school the role acts for: an advisor's, or the President's own (GT-O3).
    pub school: Option<String>,
}

impl Acting {
    /// The owner of an API token, acting in the token's role and school.
    pub fn by_token(email: &str, token: &arbiter_store::ApiToken) -> Acting {
        Acting {
            email: email.to_string(),
            role: token.role,
            school: token.school.clone(),
        }
    }

    /// As core's permission table names the person.
    pub fn subject(&self) -> Subject<'_> {
        Subject {
            role: self.role,
            school: self.school.as_deref(),
        }
    }

    /// Who the history records.
    pub fn actor(&self) -> Actor {
        Actor::user(&self.email, self.role)
    }
}

/// May `account` take `action` on `target` in `league`? Core's `acting_role` chooses which of
/// the account's roles there acts. Without an account the answer is "sign in";
/// with one but no role that may, it is the table's refusal (with its rule ID).
pub fn permit(
    account: Option<&Account>,
    league: LeagueId,
    action: Action,
    target: Target<'_>,
) -> Result<Acting, WebError> {
    let Some(account) = account else {
        return Err(WebError::SignInRequired);
    };
    let roles = account.roles_in(league).map(|m| Subject {
        role: m.role,
        school: m.school.as_deref(),
    });
    match acting_role(roles, action, target) {
        Ok(subject) => Ok(Acting {
            email: account.user.email.clone(),
            role: subject.role,
            school: subject.school.map(str::to_string),
        }),
        Err(reason) => Err(WebError::Forbidden(reason)),
    }
}

/// The signed-in account acting for the whole league: an officer's page or form (GT-O1).
pub fn permit_in_league(auth: &Auth, league: LeagueId, action: Action) -> Result<Acting, WebError> {
    permit(auth.user.as_ref(), league, action, Target::League)
}

/// Whether an officer's control is shown: [`permit_in_league`] without the reason.
pub fn may_in_league(auth: &Auth, league: LeagueId, action: Action) -> bool {
    may(auth.user.as_ref(), league, action, Target::League)
}

/// Whether a page should show the control for `action`: [`permit`] without the reason.
pub fn may(
    account: Option<&Account>,
    league: LeagueId,
    action: Action,
    target: Target<'_>,
) -> bool {
    account.is_some() && permit(account, league, action, target).is_ok()
}

/// axum-login's backend: accounts in the store, passwords checked with argon2id.
#[derive(Debug, Clone)]
pub struct Accounts {
    store: Store,
}

impl Accounts {
    pub fn new(store: Store) -> Accounts {
        Accounts { store }
    }

    /// The account of `email`, for a command that acts as a person (the command line): a
    /// sentence when there is none.
    pub async fn by_email(&self, email: &str) -> Result<Account, String> {
        let email = Email::parse(email)?;
        let user = self
            .store
            .user_by_email(&email)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| {
                format!(
                    "There is no account {email} in this database; `arbiter user add` makes one."
                )
            })?;
        self.load(user).await.map_err(|e| e.to_string())
    }

    pub async fn load(&self, user: User) -> Result<Account, AccountsError> {
        let memberships = self.store.memberships(user.id).await?;
        let auth_hash = user.password_hash.clone().unwrap_or_default().into_bytes();
        Ok(Account {
            user,
            memberships,
            auth_hash,
        })
    }
}

/// What sign-in is given.
#[derive(Debug, Clone)]
pub struct Credentials {
    pub email: Email,
    pub password: String,
}

/// The store failed while reading an account; shown as "not answering", never in detail.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct AccountsError(#[from] arbiter_store::StoreError);

impl AuthnBackend for Accounts {
    type User = Account;
    type Credentials = Credentials;
    type Error = AccountsError;

    async fn authenticate(&self, c: Credentials) -> Result<Option<Account>, AccountsError> {
        let user = self.store.user_by_email(&c.email).await?;
        let hash = user.as_ref().and_then(|u| u.password_hash.clone());
        // Argon2 takes tens of milliseconds: off the async threads. An unknown email costs the
        // same as a known one, so the timing says nothing about who has an account.
        let password = c.password;
        let ok = tokio::task::spawn_blocking(move || match hash {
            Some(h) => secrets::verify_password(&password, &h),
            None => {
                secrets::verify_dummy(&password);
                false
            }
        })
        .await
        .unwrap_or(false);
        match (ok, user) {
            (true, Some(user)) => Ok(Some(self.load(user).await?)),
            _ => Ok(None),
        }
    }

    async fn get_user(&self, id: &i64) -> Result<Option<Account>, AccountsError> {
        match self.store.user(UserId(*id)).await? {
            Some(user) => Ok(Some(self.load(user).await?)),
            None => Ok(None),
        }
    }
}

/// The request's session with its signed-in account, if any.
pub type Auth = axum_login::AuthSession<Accounts>;

/// Hashes a new password off the async threads.
pub async fn hash_password(plain: String) -> Result<String, WebError> {
    tokio::task::spawn_blocking(move || secrets::hash_password(&plain))
        .await
        .map_err(WebError::internal)?
        .map_err(WebError::internal)
}

/// The rate limits' key: the client's IP address as text. That is the peer's, unless the peer
/// is a proxy the site trusts (`arbiter serve --trust-proxy`), in which case it is the nearest
/// address in `X-Forwarded-For` that is not a trusted proxy. Without a known peer (in-process
/// tests), one shared key, `unknown`.
pub fn client_address(
    ext: &axum::http::Extensions,
    headers: &HeaderMap,
    trusted: &[IpAddr],
) -> String {
    let Some(peer) = ext.get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()) else {
        return "unknown".to_string();
    };
    if !trusted.contains(&peer) {
        return peer.to_string();
    }
    // Each proxy appends the address it heard from: read from the right, past the trusted ones.
    let forwarded: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse().ok())
        .collect();
    forwarded
        .iter()
        .rev()
        .find(|a| !trusted.contains(a))
        .unwrap_or(&peer)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(peer: &str, xff: Option<&str>, trusted: &[&str]) -> String {
        let mut ext = axum::http::Extensions::new();
        ext.insert(ConnectInfo(SocketAddr::new(peer.parse().unwrap(), 4000)));
        let mut headers = HeaderMap::new();
        if let Some(x) = xff {
            headers.insert("x-forwarded-for", x.parse().unwrap());
        }
        let trusted: Vec<IpAddr> = trusted.iter().map(|t| t.parse().unwrap()).collect();
        client_address(&ext, &headers, &trusted)
    }

    #[test]
    fn the_client_is_found_behind_trusted_proxies_only() {
        // No proxy trusted: the header is the client's own words and is ignored.
        assert_eq!(from("203.0.113.9", Some("10.9.9.9"), &[]), "203.0.113.9");
        // Behind a trusted proxy: the address it heard from.
        assert_eq!(
            from("127.0.0.1", Some("198.51.100.7"), &["127.0.0.1"]),
            "198.51.100.7"
        );
        // A client that forges a first entry gains nothing: the proxy's own entry is last.
        assert_eq!(
            from("127.0.0.1", Some("10.0.0.1, 198.51.100.7"), &["127.0.0.1"]),
            "198.51.100.7"
        );
        // Two trusted proxies in a row are both skipped.
        assert_eq!(
            from(
                "127.0.0.1",
                Some("198.51.100.7, 192.0.2.1"),
                &["127.0.0.1", "192.0.2.1"]
            ),
            "198.51.100.7"
        );
        // A trusted proxy that sent no header: the proxy itself.
        assert_eq!(from("127.0.0.1", None, &["127.0.0.1"]), "127.0.0.1");
    }
}
