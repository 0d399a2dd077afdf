//! Signing in and out, accepting an invitation, resetting a password by link, and one's own
//! account page with its API tokens (issue 5).
//!
//! Every form carries the session's CSRF token; sign-in and reset are limited per address (the
//! router's layer) and per account (here, counted in the store so that several servers agree).

use arbiter_core::record::text::{self, Email, LABEL_MAX_CHARS, TextKind};
use arbiter_core::rules::permissions::{Action, Decision, Subject, Target, decide};
use arbiter_core::season::notice::Notice;
use arbiter_core::season::offers::Offers;
use arbiter_mail::Mail;
use arbiter_store::{AcceptInvite, ApiTokenId, Attempts, Membership, NewApiToken, secrets};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{Extensions, HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;

use crate::app::respond::{private, see_other};
use crate::app::state::AppState;
use crate::http::auth::{self, Account, Auth, Credentials};
use crate::http::csrf::{self, FormCookie};
use crate::http::error::{Format, WebError};
use crate::http::security::safe_next;
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href};
use crate::ui::words;

/// Failed sign-ins to one account from one address in [`THROTTLE_WINDOW`]. Counted per
/// address too, so that a stranger's guesses never stop the person signing in from their own.
pub const FAILURES_PER_ACCOUNT_AND_ADDRESS: u32 = 5;
pub const THROTTLE_WINDOW: jiff::SignedDuration = jiff::SignedDuration::from_mins(15);
/// Reset links one address may ask for one account in [`RESET_WINDOW`].
pub const RESETS_PER_ACCOUNT_AND_ADDRESS: u32 = 3;
/// Reset mails one account is sent in [`RESET_WINDOW`], whoever asks: a bound on the mail a
/// stranger can send someone. When it is reached the links already sent still work.
pub const RESETS_PER_ACCOUNT: u32 = 10;
pub const RESET_WINDOW: jiff::SignedDuration = jiff::SignedDuration::from_hours(1);
/// How long an invitation and a reset link work.
pub const INVITE_VALID_DAYS: i64 = 7;
pub const RESET_VALID: jiff::SignedDuration = jiff::SignedDuration::from_hours(1);

fn html(e: WebError) -> Response {
    e.answer(Format::Html)
}

// ---------------------------------------------------------------------------------------------
// Sign-in and sign-out

#[derive(Template)]
#[template(path = "accounts/sign_in.html", whitespace = "minimize")]
struct SignInPage {
    layout: Layout,
    csrf: String,
    next: String,
    email: String,
    problem: Option<String>,
    signed_in_as: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

pub async fn sign_in_form(auth: Auth, form: FormCookie, Query(q): Query<NextQuery>) -> Response {
    let csrf = match csrf::token(&auth.session, &form).await {
        Ok(t) => t,
        Err(e) => return html(e),
    };
    let page = SignInPage {
        layout: private_layout("Sign in", Vec::new()),
        csrf,
        next: safe_next(q.next.as_deref()),
        email: String::new(),
        problem: None,
        signed_in_as: auth.user.as_ref().map(|a| a.user.email.clone()),
    };
    private(StatusCode::OK, &page)
}

#[derive(Debug, Deserialize)]
pub struct SignInForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    next: Option<String>,
}

/// When a limit of `window` that counted `attempts` frees a place again, as a sentence's end
/// (`at 14:32 UTC, in 12 minutes`) and as seconds for `Retry-After`.
fn free_again(attempts: Attempts, window: jiff::SignedDuration) -> (String, u64) {
    let now = jiff::Timestamp::now();
    let at = attempts
        .earliest
        .and_then(|t| t.checked_add(window).ok())
        .filter(|t| *t > now)
        .unwrap_or(now);
    let seconds = u64::try_from(at.duration_since(now).as_secs()).unwrap_or(0) + 1;
    let minutes = seconds.div_ceil(60);
    let unit = if minutes == 1 { "minute" } else { "minutes" };
    (
        format!("at {} UTC, in {minutes} {unit}", at.strftime("%H:%M")),
        seconds,
    )
}

/// A 429 with the sentence and when to come back.
fn too_many(sentence: String, retry_after: u64) -> Response {
    let mut response = html(WebError::TooManyRequests(sentence));
    if let Ok(value) = axum::http::HeaderValue::from_str(&retry_after.to_string()) {
        response
            .headers_mut()
            .insert(axum::http::header::RETRY_AFTER, value);
    }
    response
}

fn window_start(window: jiff::SignedDuration) -> jiff::Timestamp {
    jiff::Timestamp::now()
        .checked_sub(window)
        .unwrap_or(jiff::Timestamp::MIN)
}

/// Refuses a sign-in to `email` from `address` after too many failures from there. Counted
/// whether or not the account exists, so the answer says nothing about who has one.
async fn sign_in_paused(state: &AppState, email: &Email, address: &str) -> Option<Response> {
    let failures = match state
        .store()
        .sign_in_failures(email, address, window_start(THROTTLE_WINDOW))
        .await
    {
        Ok(failures) => failures,
        Err(e) => return Some(html(WebError::unavailable(e))),
    };
    if failures.count < FAILURES_PER_ACCOUNT_AND_ADDRESS {
        return None;
    }
    let (when, seconds) = free_again(failures, THROTTLE_WINDOW);
    Some(too_many(
        format!(
            "There have been {FAILURES_PER_ACCOUNT_AND_ADDRESS} failed sign-ins to this account from your address in the last {} minutes, so signing in to it from here is paused until {when}. If the password is forgotten, set a new one with a link from “Forgotten the password?”: that is not paused.",
            THROTTLE_WINDOW.as_mins()
        ),
        seconds,
    ))
}

pub async fn sign_in(
    State(state): State<AppState>,
    mut auth: Auth,
    form: FormCookie,
    headers: HeaderMap,
    ext: Extensions,
    Form(f): Form<SignInForm>,
) -> Response {
    let next = safe_next(f.next.as_deref());
    // Not an email address (core's one rule): said before anything is counted or kept of it.
    let email = match Email::parse(&f.email) {
        Ok(email) => email,
        Err(problem) => {
            let csrf = csrf::token(&auth.session, &form).await.unwrap_or_default();
            let page = SignInPage {
                layout: private_layout("Sign in", Vec::new()),
                csrf,
                next,
                email: String::new(),
                problem: Some(problem),
                signed_in_as: None,
            };
            return private(StatusCode::UNPROCESSABLE_ENTITY, &page);
        }
    };
    let address = auth::client_address(&ext, &headers, state.trusted_proxies());
    if let Some(paused) = sign_in_paused(&state, &email, &address).await {
        return paused;
    }
    let creds = Credentials {
        email: email.clone(),
        password: f.password,
    };
    match auth.authenticate(creds).await {
        Ok(Some(account)) => {
            // axum-login changes the session id here (session fixation); the CSRF token too.
            if let Err(e) = auth.login(&account).await {
                return html(WebError::unavailable(e));
            }
            if let Err(e) = csrf::rotate(&auth.session).await {
                return html(e);
            }
            see_other(&next)
        }
        Ok(None) => {
            let _ = state.store().record_sign_in_failure(&email, &address).await;
            let csrf = csrf::token(&auth.session, &form).await.unwrap_or_default();
            let page = SignInPage {
                layout: private_layout("Sign in", Vec::new()),
                csrf,
                next,
                email: email.to_string(),
                problem: Some(
                    "That email and password do not match an account. Check them and try again, or get a link to set a new password."
                        .into(),
                ),
                signed_in_as: None,
            };
            private(StatusCode::UNAUTHORIZED, &page)
        }
        Err(e) => html(WebError::unavailable(e)),
    }
}

pub async fn sign_out(mut auth: Auth) -> Response {
    if auth.user.is_none() {
        return html(WebError::SignInRequired);
    }
    if let Err(e) = auth.logout().await {
        return html(WebError::unavailable(e));
    }
    see_other("/")
}

// ---------------------------------------------------------------------------------------------
// Invitations and password resets: one form template

#[derive(Template)]
#[template(path = "accounts/password_form.html", whitespace = "minimize")]
struct PasswordPage {
    layout: Layout,
    intro: String,
    note: Option<String>,
    problem: Option<String>,
    show_form: bool,
    action: String,
    csrf: String,
    ask_email: bool,
    email: String,
    ask_name: bool,
    name: String,
    ask_password: bool,
    button: &'static str,
}

impl PasswordPage {
    fn new(title: &str, action: String, csrf: String) -> PasswordPage {
        PasswordPage {
            layout: private_layout(title, Vec::new()),
            intro: String::new(),
            note: None,
            problem: None,
            show_form: true,
            action,
            csrf,
            ask_email: false,
            email: String::new(),
            ask_name: false,
            name: String::new(),
            ask_password: true,
            button: "Save",
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct PasswordForm {
    #[serde(default)]
    name: String,
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    password_again: String,
}

/// The new password's problem, as a sentence, if it has one.
/// What is wrong with a new password, if anything; `context` is what a guesser would try
/// first (the account's email and name, its leagues and schools).
fn password_problem(f: &PasswordForm, context: &[&str]) -> Option<String> {
    if f.password != f.password_again {
        return Some("The two passwords differ; type the same password in both boxes.".into());
    }
    secrets::check_new_password(&f.password, context).err()
}

fn invite_href(token: &str) -> String {
    format!("/invites/{}", words::segment(token))
}

fn invite_words(i: &arbiter_store::Invite) -> String {
    let role = i.role.name();
    let by = i
        .invited_by
        .as_deref()
        .map_or(String::new(), |b| format!(" by {b}"));
    match &i.school {
        Some(s) => format!(
            "You have been invited{by} to be {role} of {s} in {}.",
            i.league_name
        ),
        None => format!(
            "You have been invited{by} to be {role} in {}.",
            i.league_name
        ),
    }
}

/// Issue 9: an invitation stands only while its sender may still give the role: asked of the
/// table (`InviteUser`) for the sender's roles in the league at acceptance. One sent from the
/// command line names no sender and stands.
fn sender_may(
    invite: &arbiter_store::Invite,
    roles: &[arbiter_store::Membership],
) -> Result<(), String> {
    let Some(sender) = invite.invited_by.as_deref() else {
        return Ok(());
    };
    let mut refusal = None;
    for m in roles {
        let subject = Subject {
            role: m.role,
            school: m.school.as_deref(),
        };
        match decide(subject, Action::InviteUser, Target::League) {
            Decision::Allowed => return Ok(()),
            Decision::Refused { reason, .. } => refusal = Some(reason),
        }
    }
    let why = refusal.unwrap_or_else(|| format!("{sender} no longer holds a role there."));
    Err(format!(
        "This invitation was sent by {sender}, who may no longer give the role of {} in {}: {why} Nothing was granted; ask the league's President for a new invitation.",
        invite.role.name(),
        invite.league_name
    ))
}

/// Why an invitation can no longer be used, or `None` while it can.
fn invite_gone(i: &arbiter_store::Invite) -> Option<WebError> {
    if let Some(at) = i.withdrawn_at {
        return Some(WebError::Gone(format!(
            "This invitation was withdrawn on {}{}. Ask an officer of {} for a new one if you should still have the role.",
            words::timestamp(at),
            i.withdrawn_by
                .as_deref()
                .map_or(String::new(), |b| format!(" by {b}")),
            i.league_name
        )));
    }
    if let Some(at) = i.accepted_at {
        return Some(WebError::Gone(format!(
            "This invitation was used on {}; each one works once. Sign in with the account it made, or set a new password with a link from the sign-in page.",
            words::timestamp(at)
        )));
    }
    if i.expires_at <= jiff::Timestamp::now() {
        return Some(WebError::Gone(format!(
            "This invitation expired on {}. Ask the officer who sent it for a new one.",
            words::timestamp(i.expires_at)
        )));
    }
    None
}

fn unknown_invite() -> WebError {
    WebError::Gone(
        "This invitation link is not one Arbiter knows: it may be mistyped or cut short by the mail program. Open the whole link from the mail, or ask the officer who sent it for a new one."
            .into(),
    )
}

pub async fn invite_form(
    State(state): State<AppState>,
    auth: Auth,
    form: FormCookie,
    Path(token): Path<String>,
) -> Response {
    let invite = match state.store().invite_by_token(&token).await {
        Ok(Some(i)) => i,
        Ok(None) => return html(unknown_invite()),
        Err(e) => return html(WebError::from(e)),
    };
    if let Some(gone) = invite_gone(&invite) {
        return html(gone);
    }
    let csrf = match csrf::token(&auth.session, &form).await {
        Ok(t) => t,
        Err(e) => return html(e),
    };
    let mut page = PasswordPage::new("Accept the invitation", invite_href(&token), csrf);
    page.intro = invite_words(&invite);
    match &auth.user {
        Some(a) if a.user.email == invite.email => {
            page.note = Some(format!(
                "You are signed in as {}: accepting adds this role to your account.",
                a.user.email
            ));
            page.ask_password = false;
            page.button = "Accept";
        }
        Some(a) => {
            page.note = Some(format!(
                "You are signed in as {}, but the invitation is for {}. Sign out first, then open the link again.",
                a.user.email, invite.email
            ));
            page.show_form = false;
        }
        None => {
            page.note = Some(format!(
                "Choose your name as the league will see it and a password for {}.",
                invite.email
            ));
            page.ask_name = true;
            page.button = "Make my account";
        }
    }
    private(StatusCode::OK, &page)
}

pub async fn accept_invite(
    State(state): State<AppState>,
    mut auth: Auth,
    form: FormCookie,
    Path(token): Path<String>,
    Form(f): Form<PasswordForm>,
) -> Response {
    let invite = match state.store().invite_by_token(&token).await {
        Ok(Some(i)) => i,
        Ok(None) => return html(unknown_invite()),
        Err(e) => return html(WebError::from(e)),
    };
    if let Some(gone) = invite_gone(&invite) {
        return html(gone);
    }
    let accepted = match &auth.user {
        Some(a) if a.user.email == invite.email => {
            state
                .store()
                .accept_invite(&token, AcceptInvite::ExistingAccount(a.user.id), sender_may)
                .await
        }
        Some(a) => {
            return html(WebError::Forbidden(format!(
                "You are signed in as {}, but the invitation is for {}. Sign out first, then open the link again.",
                a.user.email, invite.email
            )));
        }
        None => {
            let name = f.name.trim();
            let problem = if name.is_empty() {
                Some("Give your name, as the league will see it.".to_string())
            } else if let Err(e) = text::check(TextKind::Name, "your name", name) {
                Some(e.to_string())
            } else {
                let mut context = vec![
                    invite.email.as_str(),
                    name,
                    &invite.league_name,
                    &invite.league_slug,
                ];
                context.extend(invite.school.as_deref());
                password_problem(&f, &context)
            };
            if let Some(problem) = problem {
                let csrf = csrf::token(&auth.session, &form).await.unwrap_or_default();
                let mut page =
                    PasswordPage::new("Accept the invitation", invite_href(&token), csrf);
                page.intro = invite_words(&invite);
                page.problem = Some(problem);
                page.ask_name = true;
                page.name = name.chars().take(text::NAME_MAX_CHARS).collect();
                page.button = "Make my account";
                return private(StatusCode::UNPROCESSABLE_ENTITY, &page);
            }
            let hash = match auth::hash_password(f.password).await {
                Ok(h) => h,
                Err(e) => return html(e),
            };
            state
                .store()
                .accept_invite(
                    &token,
                    AcceptInvite::NewAccount {
                        name,
                        password_hash: &hash,
                    },
                    sender_may,
                )
                .await
        }
    };
    let (user, _) = match accepted {
        Ok(done) => done,
        Err(e) => return html(WebError::from_write(e)),
    };
    state.invalidate();
    sign_in_as(&mut auth, user).await
}

/// Signs `user` in on this session (a new session id and CSRF token) and goes to the account.
async fn sign_in_as(auth: &mut Auth, user: arbiter_store::User) -> Response {
    let account = match auth.backend.load(user).await {
        Ok(a) => a,
        Err(e) => return html(WebError::unavailable(e)),
    };
    if let Err(e) = auth.login(&account).await {
        return html(WebError::unavailable(e));
    }
    if let Err(e) = csrf::rotate(&auth.session).await {
        return html(e);
    }
    see_other("/account")
}

pub async fn reset_form(auth: Auth, form: FormCookie) -> Response {
    let csrf = match csrf::token(&auth.session, &form).await {
        Ok(t) => t,
        Err(e) => return html(e),
    };
    let mut page = PasswordPage::new("Set a new password", "/reset".into(), csrf);
    page.intro =
        "Give the email of your account; a link to set a new password will be sent to it.".into();
    page.ask_email = true;
    page.ask_password = false;
    page.button = "Send the link";
    private(StatusCode::OK, &page)
}

pub async fn reset_request(
    State(state): State<AppState>,
    auth: Auth,
    form: FormCookie,
    headers: HeaderMap,
    ext: Extensions,
    Form(f): Form<PasswordForm>,
) -> Response {
    let email = match Email::parse(&f.email) {
        Ok(email) => email,
        Err(problem) => {
            let csrf = csrf::token(&auth.session, &form).await.unwrap_or_default();
            let mut page = PasswordPage::new("Set a new password", "/reset".into(), csrf);
            page.ask_email = true;
            page.ask_password = false;
            page.button = "Send the link";
            page.problem = Some(problem);
            return private(StatusCode::UNPROCESSABLE_ENTITY, &page);
        }
    };
    let address = auth::client_address(&ext, &headers, state.trusted_proxies());
    let since = window_start(RESET_WINDOW);
    let (from_here, in_all) = match tokio::try_join!(
        state.store().reset_requests(&email, Some(&address), since),
        state.store().reset_requests(&email, None, since),
    ) {
        Ok(counts) => counts,
        Err(e) => return html(WebError::unavailable(e)),
    };
    if from_here.count >= RESETS_PER_ACCOUNT_AND_ADDRESS {
        let (when, seconds) = free_again(from_here, RESET_WINDOW);
        return too_many(
            format!(
                "You have asked for {RESETS_PER_ACCOUNT_AND_ADDRESS} links for {email} in the last hour. Each works for an hour: use the newest in the mail (look in the spam folder too), or ask again {when}."
            ),
            seconds,
        );
    }
    let _ = state.store().record_reset_request(&email, &address).await;
    if in_all.count >= RESETS_PER_ACCOUNT {
        // Someone else may be asking in this person's name: the links sent still work.
        let (when, _) = free_again(in_all, RESET_WINDOW);
        let mut page = PasswordPage::new("Set a new password", "/reset".into(), String::new());
        page.show_form = false;
        page.note = Some(format!(
            "Links for {email} have been asked for {RESETS_PER_ACCOUNT} times in the last hour, so no more are sent until {when}. If an account has this email, the links in its mail still work, each for one hour from when it was sent: use the newest."
        ));
        return private(StatusCode::OK, &page);
    }
    if let Ok(Some(user)) = state.store().user_by_email(&email).await
        && let Ok(token) = state
            .store()
            .create_password_reset(user.id, RESET_VALID)
            .await
    {
        {
            let link = format!("{}/reset/{}", state.base_url(), words::segment(&token));
            let mail = Mail {
                to: user.email.clone(),
                subject: "Set a new password for Arbiter".into(),
                text: format!(
                    "Someone (we hope you) asked to set a new password for {}.\n\nOpen this link within an hour to choose it; it works once:\n{link}\n\nIf it was not you, ignore this mail: the password stays as it is.\n",
                    user.email
                ),
            };
            // A mail failure is the server's to log; the answer must not say whether the
            // account exists.
            if let Err(e) = state.mailer().send(&mail).await {
                tracing::warn!(to = %user.email, cause = %e, "the reset mail was not sent");
            }
        }
    }
    let mut page = PasswordPage::new("Set a new password", "/reset".into(), String::new());
    page.show_form = false;
    page.note = Some(format!(
        "If an account has the email {email}, a link to set a new password is on its way. It works once, for one hour."
    ));
    private(StatusCode::OK, &page)
}

fn reset_href(token: &str) -> String {
    format!("/reset/{}", words::segment(token))
}

pub async fn reset_link_form(auth: Auth, form: FormCookie, Path(token): Path<String>) -> Response {
    let csrf = match csrf::token(&auth.session, &form).await {
        Ok(t) => t,
        Err(e) => return html(e),
    };
    let mut page = PasswordPage::new("Set a new password", reset_href(&token), csrf);
    page.intro = "Choose a new password: at least 10 characters and hard to guess; a few unrelated words make a good one.".into();
    page.button = "Set the password";
    private(StatusCode::OK, &page)
}

pub async fn reset_with_link(
    State(state): State<AppState>,
    mut auth: Auth,
    form: FormCookie,
    Path(token): Path<String>,
    Form(f): Form<PasswordForm>,
) -> Response {
    // The link's account, for what its new password must not be made of.
    let owner = state
        .store()
        .password_reset_owner(&token)
        .await
        .ok()
        .flatten();
    let memberships = match &owner {
        Some(user) => state.store().memberships(user.id).await.unwrap_or_default(),
        None => Vec::new(),
    };
    let mut context: Vec<&str> = owner
        .iter()
        .flat_map(|user| [user.email.as_str(), user.name.as_str()])
        .collect();
    for m in &memberships {
        context.push(&m.league_slug);
        context.extend(m.school.as_deref());
    }
    if let Some(problem) = password_problem(&f, &context) {
        let csrf = csrf::token(&auth.session, &form).await.unwrap_or_default();
        let mut page = PasswordPage::new("Set a new password", reset_href(&token), csrf);
        page.problem = Some(problem);
        page.button = "Set the password";
        return private(StatusCode::UNPROCESSABLE_ENTITY, &page);
    }
    let hash = match auth::hash_password(f.password).await {
        Ok(h) => h,
        Err(e) => return html(e),
    };
    match state.store().use_password_reset(&token, &hash).await {
        Ok(user) => {
            // A new password ends the account's other sessions (it is their auth hash).
            let _ = auth.logout().await;
            sign_in_as(&mut auth, user).await
        }
        Err(e @ arbiter_store::StoreError::Database(_)) => html(WebError::unavailable(e)),
        Err(e @ arbiter_store::StoreError::Full(_)) => html(WebError::storage_full(e)),
        Err(e) => html(WebError::Gone(e.to_string())),
    }
}

// ---------------------------------------------------------------------------------------------
// The account page and API tokens

struct RoleLine {
    league: Link,
    role: &'static str,
    school: Option<String>,
    links: Vec<Link>,
}

struct MatchLine {
    link: Link,
    note: String,
    /// What the advisor has to do for it now (GT-P2).
    todo: Option<String>,
    overdue: bool,
    /// The season it is of, to group a school's matches by season (issue 32).
    season: String,
}

/// A season's matches of the reader's school; the current season's shown open.
struct SeasonMatches {
    name: String,
    open: bool,
    matches: Vec<MatchLine>,
}

/// `Next: Division A round 5, Whitmer v Start, Thu 20 Nov 2026 at 16:00 (America/New_York) at
/// Start High School`, linked to the match.
struct NextLine {
    link: Link,
    place: String,
}

struct TokenLine {
    prefix: String,
    label: String,
    scope: String,
    created: String,
    active: bool,
    revoked: String,
    revoke: String,
}

struct Choice {
    value: String,
    text: String,
}

#[derive(Template)]
#[template(path = "accounts/account.html", whitespace = "minimize")]
struct AccountPage {
    layout: Layout,
    name: String,
    email: String,
    csrf: String,
    roles: Vec<RoleLine>,
    matches: Vec<MatchLine>,
    /// The school's matches by season, the current one first (issue 32).
    seasons: Vec<SeasonMatches>,
    /// Each school's next match, on top (issue 32).
    next: Vec<NextLine>,
    /// The matches that need an officer (GT-O3, GT-P4).
    officer_tasks: Vec<MatchLine>,
    has_tasks: bool,
    can_make_tokens: bool,
    tokens: Vec<TokenLine>,
    token_roles: Vec<Choice>,
    new_token: Option<String>,
    problem: Option<String>,
    /// Issue 13: each kind of notice, ticked when the person gets it by mail.
    notices: Vec<NoticeChoice>,
    /// Said once the mail settings are saved.
    notices_saved: bool,
}

struct NoticeChoice {
    code: &'static str,
    label: String,
    on: bool,
}

fn role_phrase(m: &Membership) -> String {
    match &m.school {
        Some(s) => format!("{} of {s}", m.role.name()),
        None => m.role.name().to_string(),
    }
}

/// The memberships in which this account may make API tokens.
fn token_memberships(account: &Account) -> Vec<&Membership> {
    account
        .memberships
        .iter()
        .filter(|m| {
            let subject = Subject {
                role: m.role,
                school: m.school.as_deref(),
            };
            decide(subject, Action::CreateApiToken, Target::League) == Decision::Allowed
        })
        .collect()
}

/// The table's refusal when none of the account's roles may make or revoke API tokens.
fn token_refusal(account: &Account) -> Option<WebError> {
    if !token_memberships(account).is_empty() {
        return None;
    }
    let first = account.memberships.first();
    let subject = Subject {
        role: first.map_or(arbiter_core::rules::permissions::Role::Public, |m| m.role),
        school: first.and_then(|m| m.school.as_deref()),
    };
    match decide(subject, Action::CreateApiToken, Target::League) {
        Decision::Refused { reason, .. } => Some(WebError::Forbidden(reason)),
        Decision::Allowed => None,
    }
}

async fn account_page_for(
    state: &AppState,
    auth: &Auth,
    account: &Account,
    status: StatusCode,
    said: Said,
) -> Response {
    let (new_token, problem, notices_saved) = match said {
        Said::Nothing => (None, None, false),
        Said::NewToken(t) => (Some(t), None, false),
        Said::Problem(p) => (None, Some(p), false),
        Said::NoticesSaved => (None, None, true),
    };
    let csrf = match csrf::session_token(&auth.session).await {
        Ok(t) => t,
        Err(e) => return html(e),
    };
    let mut roles = Vec::new();
    let mut matches = Vec::new();
    let mut officer_tasks = Vec::new();
    let mut next = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut offered = Offers::default();
    for m in &account.memberships {
        let mut links = Vec::new();
        let target = Target::League;
        let here = Some(account);
        if auth::may(here, m.league, Action::InviteUser, target) {
            links.push(Link::new(
                format!("{}/people", league_href(&m.league_slug)),
                "People and invitations",
            ));
        }
        if auth::may(here, m.league, Action::CreateSeason, target) {
            links.push(Link::new(
                format!("{}/setup", league_href(&m.league_slug)),
                "Season set-up: seasons, schools, divisions",
            ));
        }
        if auth::may(here, m.league, Action::EditRoster, target) {
            links.push(Link::new(
                format!("{}/rosters", league_href(&m.league_slug)),
                "Add players from a roster file",
            ));
        }
        if auth::may(here, m.league, Action::RuleOnViolation, target) {
            links.push(Link::new(
                format!("{}/findings", league_href(&m.league_slug)),
                "Rule findings",
            ));
        }
        if auth::may(here, m.league, Action::ReadHistory, target) {
            links.push(Link::new(
                format!("{}/history", league_href(&m.league_slug)),
                "History of changes",
            ));
        }
        let for_officers = auth::may(here, m.league, Action::ApplyMatchForfeit, target);
        let may_set_event = auth::may(here, m.league, Action::DrawSchedule, target);
        // The Vice-President decides the playoff matches and ties of the President's school (GT-O3).
        let runs_playoffs = auth::may(here, m.league, Action::DecidePlayoff, target);
        let reports = auth::may(here, m.league, Action::ReadMediaReportDrafts, target);
        let sends_schedule = auth::may(here, m.league, Action::SendScheduleToSchools, target);
        let league_name = match crate::app::site::one(state, &m.league_slug).await {
            Ok(tree) => {
                // Issue 32 item 24: what the league's rules have, and nothing else.
                let offers = tree.offers(state);
                offered = offered.union(offers);
                if offers.fee_ledger && auth::may(here, m.league, Action::ReadLedger, target) {
                    // Before the history of changes, when it is there.
                    let at = links
                        .iter()
                        .position(|l| l.text == "History of changes")
                        .unwrap_or(links.len());
                    links.insert(
                        at,
                        Link::new(
                            format!("{}/ledger", league_href(&m.league_slug)),
                            "Fee ledger",
                        ),
                    );
                }
                // AS-1, AS-11: an event's arbiter sets its days and round times.
                if may_set_event && offers.event_days {
                    // Issue 32 (item 22): the day being played first, then the rest.
                    if let Some((season, _)) = tree.season_now(state) {
                        links.insert(
                            0,
                            Link::new(
                                crate::event::today::today_href(&m.league_slug, &season.slug),
                                format!("{}: the arbiter's day", season.name),
                            ),
                        );
                    }
                    links.push(Link::new(
                        crate::event::field::field_href(&m.league_slug),
                        "Plan a competition's field (AS-4..AS-8)",
                    ));
                    for (s, _) in &tree.seasons {
                        links.push(Link::new(
                            crate::event::event_href(&m.league_slug, &s.slug),
                            format!("{}: the event's days and round times", s.name),
                        ));
                    }
                }
                // The season's end pages of the season being played (issues 15, 32).
                let latest = tree.season_now(state);
                if let Some((season, _)) = latest {
                    let (l, x) = (&tree.league.slug, &season.slug);
                    if runs_playoffs && offers.playoffs {
                        links.push(Link::new(
                            crate::season_end::pages::qualification_href(l, x),
                            format!("Playoffs {}: qualification, draw and rounds", season.name),
                        ));
                    }
                    if sends_schedule && offers.school_calendar {
                        links.push(Link::new(
                            crate::schedule_mail::send_schedule_href(l, x),
                            format!(
                                "Send the {} schedule to the schools{}",
                                season.name,
                                tree.cite_now(state, "officers")
                                    .map_or(String::new(), |id| format!(" ({id})"))
                            ),
                        ));
                    }
                    if reports && offers.reported_results {
                        links.push(Link::new(
                            crate::season_end::reports::reports_href(l, x),
                            format!("Media reports {}", season.name),
                        ));
                    }
                }
                if runs_playoffs && offers.playoffs {
                    officer_tasks.extend(playoff_tasks(state, &tree).await);
                }
                // Issue 32: a result standing with a rule broken waits for this officer's ruling.
                if auth::may(here, m.league, Action::RuleOnViolation, target) {
                    let officer = Subject {
                        role: m.role,
                        school: m.school.as_deref(),
                    };
                    if let Ok(open) = crate::findings::open_for(state, &tree, officer).await {
                        officer_tasks.extend(open.into_iter().map(|(link, note, todo)| {
                            MatchLine {
                                link,
                                note,
                                todo: Some(todo),
                                overdue: false,
                                season: String::new(),
                            }
                        }));
                    }
                }
                if for_officers {
                    let officer = Subject {
                        role: m.role,
                        school: m.school.as_deref(),
                    };
                    officer_tasks.extend(officer_matches(state, &tree, officer).await);
                }
                if let Some(school) = &m.school {
                    matches.extend(school_matches(state, &tree, school).await);
                    next.extend(next_match(state, &tree, school).await);
                    current.extend(tree.season_now(state).map(|(s, _)| s.name.clone()));
                }
                tree.league.name.clone()
            }
            Err(_) => m.league_slug.clone(),
        };
        roles.push(RoleLine {
            league: Link::new(league_href(&m.league_slug), league_name),
            role: m.role.name(),
            school: m.school.clone(),
            links,
        });
    }
    let stopped = match state.store().stopped_notices(account.user.id).await {
        Ok(s) => s,
        Err(e) => return html(WebError::from(e)),
    };
    // Issue 34 item 5: each kind cites the rules of the person's leagues by their own IDs.
    let mut cites: Vec<String> = Vec::new();
    let mut trees = Vec::new();
    for m in &account.memberships {
        if let Ok(tree) = crate::app::site::one(state, &m.league_slug).await {
            trees.push(tree);
        }
    }
    let notices = Notice::ALL
        .into_iter()
        .filter(|n| offered.notice(*n))
        .map(|n| {
            cites.clear();
            for key in n.cite_keys() {
                for tree in &trees {
                    if let Some(id) = tree.cite_now(state, key)
                        && !cites.contains(&id)
                    {
                        cites.push(id);
                    }
                }
            }
            let words = offered.notice_label(n);
            NoticeChoice {
                code: n.code(),
                label: if cites.is_empty() || words != n.words() {
                    words.to_string()
                } else {
                    format!("{words} ({})", cites.join(", "))
                },
                on: !stopped.contains(&n),
            }
        })
        .collect();
    let mine = token_memberships(account);
    let tokens = match state.store().api_tokens(account.user.id).await {
        Ok(ts) => ts
            .into_iter()
            .map(|t| TokenLine {
                scope: format!(
                    "{} in {}",
                    match &t.school {
                        Some(s) => format!("{} of {s}", t.role.name()),
                        None => t.role.name().to_string(),
                    },
                    t.league_slug
                ),
                prefix: t.prefix,
                label: t.label,
                created: words::timestamp(t.created_at),
                active: t.revoked_at.is_none(),
                revoked: t.revoked_at.map(words::timestamp).unwrap_or_default(),
                revoke: format!("/account/tokens/{}/revoke", t.id.0),
            })
            .collect(),
        Err(e) => return html(WebError::from(e)),
    };
    let page = AccountPage {
        layout: private_layout("Your account", Vec::new()),
        name: account.user.name.clone(),
        email: account.user.email.clone(),
        csrf,
        roles,
        has_tasks: matches.iter().any(|m| m.todo.is_some()) || !officer_tasks.is_empty(),
        seasons: by_season(&matches, &current),
        next,
        matches,
        officer_tasks,
        can_make_tokens: !mine.is_empty(),
        token_roles: mine
            .iter()
            .map(|m| Choice {
                value: m.id.0.to_string(),
                text: format!("{} in {}", role_phrase(m), m.league_slug),
            })
            .collect(),
        tokens,
        new_token,
        notices_saved,
        problem,
        notices,
    };
    private(status, &page)
}

/// A match as the account page reads it: its schools and where its report stands (GT-P2).
struct Seen<'a> {
    home_school: Option<&'a str>,
    away_school: Option<&'a str>,
    status: arbiter_core::season::report::ReportStatus,
    played_on: Option<jiff::civil::Date>,
    entered_on: Option<jiff::civil::Date>,
    deadlines: Option<arbiter_core::season::report::Deadlines>,
    /// Who enters, confirms and moves its result (the ruleset's `conduct`).
    conduct: arbiter_core::rules::permissions::Conduct,
    today: jiff::civil::Date,
    /// GT-M20: the board whose game awaits the President's decision.
    adjudication: Option<u32>,
    /// The competition's rules, whose own IDs the tasks cite.
    rules: &'a arbiter_core::Ruleset,
}

/// What a match asks of the reader: a side of theirs (for an advisor), what to do now, and
/// whether it is late.
struct Need {
    side: Option<arbiter_core::Side>,
    todo: Option<String>,
    overdue: bool,
}

fn due_words(d: Option<jiff::civil::Date>, overdue: bool) -> String {
    match d {
        Some(d) if overdue => format!(", overdue since {}", words::date(d)),
        Some(d) => format!(" by {}", words::date(d)),
        None => String::new(),
    }
}

/// The school's matches grouped by season, newest season first; the current season's open.
fn by_season(matches: &[MatchLine], current: &[String]) -> Vec<SeasonMatches> {
    let mut out: Vec<SeasonMatches> = Vec::new();
    for m in matches {
        let line = MatchLine {
            link: m.link.clone(),
            note: m.note.clone(),
            todo: m.todo.clone(),
            overdue: m.overdue,
            season: m.season.clone(),
        };
        match out.iter_mut().find(|s| s.name == m.season) {
            Some(s) => s.matches.push(line),
            None => out.push(SeasonMatches {
                open: current.contains(&m.season),
                name: m.season.clone(),
                matches: vec![line],
            }),
        }
    }
    // Seasons come oldest first from the league tree; the reader wants the current one first.
    out.reverse();
    out
}

/// The next match of `school`'s teams in the league's current season (issue 32): the first
/// still to be played, on today or after, with its day, time and place.
async fn next_match(
    state: &AppState,
    tree: &crate::app::site::LeagueTree,
    school: &str,
) -> Option<NextLine> {
    let (season, comps) = tree.season_now(state)?;
    let today = state.today_in(&tree.league.time_zone);
    // Issue 35: only the divisions the school plays in are loaded.
    let concerned = state
        .store()
        .competitions_of_school(tree.league.id, school)
        .await
        .ok()?;
    let mut best: Option<(jiff::civil::Date, Option<jiff::civil::Time>, NextLine)> = None;
    for c in comps.iter().filter(|c| concerned.contains(&c.id)) {
        let Ok(view) = state.view(&tree.league.slug, &season.slug, &c.slug).await else {
            continue;
        };
        let school_of =
            |t: &arbiter_core::TeamId| view.competition.team(t).and_then(|t| t.school.as_deref());
        let fixtures: Vec<_> = view
            .fixtures(None)
            .into_iter()
            .filter(|f| {
                school_of(&f.record.home) == Some(school)
                    || school_of(&f.record.away) == Some(school)
            })
            .collect();
        let Some(f) = arbiter_core::season::fixture::next(&fixtures, today) else {
            continue;
        };
        if best
            .as_ref()
            .is_some_and(|(d, t, _)| (*d, *t) <= (f.date, f.start))
        {
            continue;
        }
        let (place, address) = view.place_of(f);
        let place = match address {
            Some(a) => format!("{place}, {}", a.one_line()),
            None => place,
        };
        let text = format!(
            "{} round {}, {} v {}, {}",
            c.name,
            f.round,
            view.team_name(&f.record.home),
            view.team_name(&f.record.away),
            view.when(f)
        );
        best = Some((
            f.date,
            f.start,
            NextLine {
                link: Link::new(view.match_href(f.round, &f.record.home), text),
                place,
            },
        ));
    }
    best.map(|(_, _, line)| line)
}

/// The matches of `school`'s teams in every competition of the league, for its advisor, each
/// with what the advisor has to do for it now (GT-P2).
async fn school_matches(
    state: &AppState,
    tree: &crate::app::site::LeagueTree,
    school: &str,
) -> Vec<MatchLine> {
    use arbiter_core::season::report::{Task, task};
    let concerned = state
        .store()
        .competitions_of_school(tree.league.id, school)
        .await;
    league_matches(state, tree, concerned, |m| {
        let side = if m.home_school == Some(school) {
            arbiter_core::Side::Home
        } else if m.away_school == Some(school) {
            arbiter_core::Side::Away
        } else {
            return None;
        };
        // The same reading of `[report]` as the match page's.
        let (todo, overdue) = match task(
            m.deadlines,
            side,
            m.status,
            m.played_on,
            m.entered_on,
            m.today,
        ) {
            Some(Task::EnterResult { due, overdue }) => (
                Some(format!(
                    "Enter the result{}{}",
                    due_words(due, overdue),
                    words::cited(m.rules, &["report"])
                )),
                overdue,
            ),
            Some(Task::ReviewResult {
                version,
                due,
                overdue,
            }) => (
                Some(format!(
                    "Confirm or dispute version {version}{}{}",
                    due_words(due, overdue),
                    words::cited(m.rules, &["report"])
                )),
                overdue,
            ),
            None => (None, false),
        };
        Some(Need {
            side: Some(side),
            todo,
            overdue,
        })
    })
    .await
}

/// The matches that need an officer (GT-O3): core's `officer_task` says what each asks, and the
/// permission table whether this officer may do it (the President's own school goes to the
/// Vice-President).
async fn officer_matches(
    state: &AppState,
    tree: &crate::app::site::LeagueTree,
    officer: Subject<'_>,
) -> Vec<MatchLine> {
    use arbiter_core::season::report::{OfficerTask, Report, officer_task};
    let today = state.today_in(&tree.league.time_zone);
    let concerned = state
        .store()
        .competitions_with_open_reports(tree.league.id, today)
        .await;
    league_matches(state, tree, concerned, |m| {
        let report = Report {
            status: m.status,
            in_force: 0,
            played_on: m.played_on,
            enter_by: m.played_on.zip(m.deadlines).map(|(d, by)| by.enter_by(d)),
            correct_by: None,
            basis: arbiter_core::season::report::ResultBasis::Entered,
        };
        let one_school = m.home_school.is_some() && m.home_school == m.away_school;
        let asked = officer_task(&report, one_school, m.adjudication, m.today)?;
        let target = Target::Match {
            home: m.home_school,
            visiting: m.away_school,
            conduct: m.conduct,
        };
        if !decide(officer, asked.action(), target).is_allowed() {
            return None;
        }
        let todo = officer_todo(asked, m.rules);
        Some(Need {
            side: None,
            overdue: matches!(asked, OfficerTask::LateReport { .. }),
            todo: Some(todo),
        })
    })
    .await
}

/// What an officer's task asks, in words, with the league's own IDs for its rules.
fn officer_todo(
    asked: arbiter_core::season::report::OfficerTask,
    rules: &arbiter_core::Ruleset,
) -> String {
    use arbiter_core::season::report::OfficerTask;
    let cited = |keys: &[&str]| words::cited(rules, keys);
    match asked {
        OfficerTask::DecideDispute { version } => {
            format!(
                "Decide the dispute of version {version}{}",
                cited(&["officers"])
            )
        }
        OfficerTask::DecideCorrection { version } => format!(
            "Decide the correction asked for of version {version}: keep it or correct it{}",
            cited(&["report", "officers"])
        ),
        OfficerTask::LateReport { due } => format!(
            "No result was entered by {}: enter it, or apply a double forfeit for the late report{}",
            words::date(due),
            cited(&["late_report"])
        ),
        OfficerTask::ConfirmOneSchoolsMatch { version } => format!(
            "Confirm version {version}: one school's two teams met, so an officer confirms it{}",
            cited(&["officers"])
        ),
        OfficerTask::Adjudicate { board } => {
            format!(
                "Adjudicate the game on board {board}{}",
                cited(&["adjourned"])
            )
        }
        OfficerTask::PairPlayoffRound { round } => format!(
            "Pair round {round} of the playoffs: every match of the round before it is decided (GT-F3)"
        ),
        OfficerTask::EnterDecidingGame { round } => format!(
            "Enter the game deciding a drawn match of round {round} of the playoffs (GT-F3)"
        ),
    }
}

/// GT-F3: what each season's playoffs ask of an officer who runs them: a drawn knockout match
/// awaiting its deciding game, a round ready to pair (core's `Bracket::ready_to_pair`); each
/// linked to the President's playoffs page, where it is done.
async fn playoff_tasks(state: &AppState, tree: &crate::app::site::LeagueTree) -> Vec<MatchLine> {
    use arbiter_core::season::report::OfficerTask;
    use arbiter_core::season_end::bracket::MatchState;
    let mut out = Vec::new();
    for (season, _) in &tree.seasons {
        if !matches!(state.store().playoffs(season.id).await, Ok(Some(_))) {
            continue;
        }
        let Ok(end) = crate::season_end::load(state, tree, &season.slug).await else {
            continue;
        };
        let Some(drawn) = &end.playoffs else { continue };
        let href = crate::season_end::pages::qualification_href(&tree.league.slug, &season.slug);
        let mut asked: Vec<(OfficerTask, String)> = Vec::new();
        if let Ok(b) = drawn.bracket() {
            for m in b.rounds.iter().flat_map(|r| &r.matches) {
                if let (MatchState::Drawn { sentence, .. }, Some(_)) = (&m.state, &m.home) {
                    asked.push((
                        OfficerTask::EnterDecidingGame { round: m.round },
                        sentence.clone(),
                    ));
                }
            }
        }
        if let Some(r) = crate::season_end::next_round(drawn) {
            let matches = r
                .matches()
                .map(|m| {
                    format!(
                        "{} v {}",
                        drawn.view.team_name(&m.home),
                        drawn.view.team_name(&m.away)
                    )
                })
                .collect::<Vec<_>>();
            asked.push((
                OfficerTask::PairPlayoffRound { round: r.number },
                format!(
                    "to pair: {}",
                    arbiter_core::record::words::list(matches.iter().map(String::as_str))
                ),
            ));
        }
        for (task, note) in asked {
            out.push(MatchLine {
                link: Link::new(href.clone(), format!("Playoffs {}", season.name)),
                note,
                todo: Some(officer_todo(task, &drawn.view.rules)),
                overdue: false,
                season: season.name.clone(),
            });
        }
    }
    out
}

/// Every match of the league's competitions `concerned` (issue 35: the store says which, so
/// that a page loads only those) that `need` picks, with what it asks.
async fn league_matches(
    state: &AppState,
    tree: &crate::app::site::LeagueTree,
    concerned: Result<Vec<arbiter_store::CompetitionId>, arbiter_store::StoreError>,
    need: impl Fn(&Seen<'_>) -> Option<Need>,
) -> Vec<MatchLine> {
    let concerned = match concerned {
        Ok(ids) => ids,
        Err(e) => {
            tracing::warn!(league = %tree.league.slug, cause = %e, "an account's matches were not read");
            return Vec::new();
        }
    };
    let zone = &tree.league.time_zone;
    let today = state.today_in(zone);
    let store = state.store();
    let mut out = Vec::new();
    for (season, comps) in &tree.seasons {
        for c in comps.iter().filter(|c| concerned.contains(&c.id)) {
            let Ok(view) = state.view(&tree.league.slug, &season.slug, &c.slug).await else {
                continue;
            };
            let Ok(reports) = store.competition_reports(view.id).await else {
                continue;
            };
            let stored = &view.stored;
            for r in view.rounds() {
                for p in &r.pairings {
                    let arbiter_core::Pairing::Match(m) = p else {
                        continue;
                    };
                    // GT-M5: a dropped team's match will not be played; nobody is asked for it.
                    if arbiter_core::scoring::unplayed_after_drop(
                        &view.sheet,
                        &view.competition,
                        r.number,
                        m,
                    )
                    .is_some()
                    {
                        continue;
                    }
                    let school_of = |t: &arbiter_core::TeamId| {
                        view.team_index(&t.0)
                            .and_then(|i| view.competition.teams.get(i))
                            .and_then(|t| t.school.as_deref())
                    };
                    let (home_school, away_school) = (school_of(&m.home), school_of(&m.away));
                    let Some(id) = stored.match_id(r.number, &m.home) else {
                        continue;
                    };
                    let versions = reports.in_force(id).map(std::slice::from_ref);
                    let (versions, reviews) = (versions.unwrap_or_default(), reports.reviews(id));
                    let entered_on = versions
                        .last()
                        .filter(|v| v.outcome != arbiter_core::MatchOutcome::Pending)
                        .map(|v| zone.day_of(v.entered_at));
                    let seen = Seen {
                        home_school,
                        away_school,
                        status: crate::results::context::report_status(versions, reviews),
                        played_on: r.date_of(m),
                        entered_on,
                        deadlines: stored.rules.report,
                        conduct: stored.rules.conduct,
                        today,
                        adjudication: arbiter_core::season::report::awaiting_adjudication(
                            &m.outcome,
                        ),
                        rules: &stored.rules,
                    };
                    let Some(Need {
                        side,
                        todo,
                        overdue,
                    }) = need(&seen)
                    else {
                        continue;
                    };
                    let mut note = c.name.clone();
                    // A team Swiss's captain reads the table and the colours, not home or away
                    // (issue 32, item 29).
                    match (side, view.seats(r.number, m)) {
                        (Some(side), Some(s)) => note.push_str(&format!(
                            " · table {} · {}",
                            s.table,
                            match side {
                                arbiter_core::Side::Home => s.home,
                                arbiter_core::Side::Away => s.away,
                            }
                        )),
                        (Some(side), None) => note.push_str(&format!(" · {}", side.code())),
                        (None, _) => {}
                    }
                    if let Some(d) = seen.played_on {
                        note.push_str(&format!(" · {}", words::date(d)));
                    }
                    // The state in both lists: a match that needs the reader says where it
                    // stands too (awaiting the result, awaiting their confirmation).
                    note.push_str(&format!(" · {}", seen.status.phrase()));
                    out.push(MatchLine {
                        link: Link::new(
                            view.match_href(r.number, &m.home),
                            format!(
                                "Round {}: {} \u{2013} {}",
                                r.number,
                                view.team_name(&m.home),
                                view.team_name(&m.away)
                            ),
                        ),
                        note,
                        todo,
                        overdue,
                        season: season.name.clone(),
                    });
                }
            }
        }
    }
    out
}

pub async fn account_page(State(state): State<AppState>, auth: Auth) -> Response {
    let Some(account) = auth.user.clone() else {
        return html(WebError::SignInRequired);
    };
    account_page_for(&state, &auth, &account, StatusCode::OK, Said::Nothing).await
}

#[derive(Debug, Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    label: String,
    #[serde(default)]
    membership: String,
}

/// What the account page says above its sections after a form.
enum Said {
    Nothing,
    /// A new API token, shown this once.
    NewToken(String),
    /// Why the form was refused.
    Problem(String),
    /// The mail settings were saved.
    NoticesSaved,
}

/// What the rules of the account's leagues offer, together.
async fn offered_to(state: &AppState, account: &Account) -> Offers {
    let mut offered = Offers::default();
    for m in &account.memberships {
        if let Ok(tree) = crate::app::site::one(state, &m.league_slug).await {
            offered = offered.union(tree.offers(state));
        }
    }
    offered
}

/// POST `/account/notices`: the kinds of notice the person gets by mail, each ticked box a
/// `get` (issue 13); the rest are stopped, in one change of the history.
pub async fn set_notices(
    State(state): State<AppState>,
    auth: Auth,
    Form(fields): Form<Vec<(String, String)>>,
) -> Response {
    let Some(account) = auth.user.clone() else {
        return html(WebError::SignInRequired);
    };
    let wanted: Vec<Notice> = fields
        .iter()
        .filter(|(k, _)| k == "get")
        .filter_map(|(_, v)| Notice::from_code(v))
        .collect();
    // Only the kinds the page offered change; the others stay as they were (issue 32 item 24).
    let offered = offered_to(&state, &account).await;
    let before = match state.store().stopped_notices(account.user.id).await {
        Ok(s) => s,
        Err(e) => return html(WebError::from(e)),
    };
    let stopped: Vec<Notice> = Notice::ALL
        .into_iter()
        .filter(|n| {
            if offered.notice(*n) {
                !wanted.contains(n)
            } else {
                before.contains(n)
            }
        })
        .collect();
    let by = arbiter_store::Actor {
        user: Some(account.user.email.clone()),
        role: None,
    };
    if let Err(e) = state
        .store()
        .set_stopped_notices(account.user.id, &stopped, &by)
        .await
    {
        return html(WebError::from(e));
    }
    account_page_for(&state, &auth, &account, StatusCode::OK, Said::NoticesSaved).await
}

pub async fn create_token(
    State(state): State<AppState>,
    auth: Auth,
    Form(f): Form<TokenForm>,
) -> Response {
    let Some(account) = auth.user.clone() else {
        return html(WebError::SignInRequired);
    };
    if let Some(refusal) = token_refusal(&account) {
        return html(refusal);
    }
    let chosen = account
        .memberships
        .iter()
        .find(|m| m.id.0.to_string() == f.membership.trim());
    let Some(m) = chosen else {
        return html(WebError::Refused(
            "Choose which of your roles the token acts in, from the list.".into(),
        ));
    };
    let subject = Subject {
        role: m.role,
        school: m.school.as_deref(),
    };
    if let Decision::Refused { reason, .. } =
        decide(subject, Action::CreateApiToken, Target::League)
    {
        return html(WebError::Forbidden(reason));
    }
    let label = f.label.trim();
    let problem = if label.is_empty() {
        Some(format!(
            "Say in a few words (up to {LABEL_MAX_CHARS} characters) what the token is for."
        ))
    } else {
        text::check(TextKind::Label, "the token's label", label)
            .err()
            .map(|e| e.to_string())
    };
    if let Some(problem) = problem {
        return account_page_for(
            &state,
            &auth,
            &account,
            StatusCode::UNPROCESSABLE_ENTITY,
            Said::Problem(problem),
        )
        .await;
    }
    let new = NewApiToken {
        user: account.user.id,
        league: m.league,
        role: m.role,
        school: m.school.clone(),
        label: label.to_string(),
    };
    let by = arbiter_store::Actor::user(&account.user.email, m.role);
    match state.store().create_api_token(&new, &by).await {
        Ok((_, plain)) => {
            account_page_for(
                &state,
                &auth,
                &account,
                StatusCode::CREATED,
                Said::NewToken(plain),
            )
            .await
        }
        Err(e) => html(WebError::from_write(e)),
    }
}

pub async fn revoke_token(
    State(state): State<AppState>,
    auth: Auth,
    Path(token): Path<String>,
) -> Response {
    let Some(account) = auth.user.clone() else {
        return html(WebError::SignInRequired);
    };
    if let Some(refusal) = token_refusal(&account) {
        return html(refusal);
    }
    let Ok(id) = token.parse::<i64>() else {
        return html(WebError::not_found(format!(
            "There is no API token “{token}”; the tokens are listed on your account page."
        )));
    };
    let own = match state.store().api_tokens(account.user.id).await {
        Ok(ts) => ts.into_iter().find(|t| t.id == ApiTokenId(id)),
        Err(e) => return html(WebError::from(e)),
    };
    let Some(t) = own else {
        return html(WebError::not_found(
            "That API token is not one of yours; your tokens are listed on your account page.",
        ));
    };
    let acting = match auth::permit(
        Some(&account),
        t.league,
        Action::CreateApiToken,
        Target::League,
    ) {
        Ok(a) => a,
        Err(e) => return html(e),
    };
    match state.store().revoke_api_token(t.id, &acting.actor()).await {
        Ok(()) => see_other("/account"),
        Err(e) => html(WebError::from_write(e)),
    }
}
