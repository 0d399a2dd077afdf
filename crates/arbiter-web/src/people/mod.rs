//! A league's people: who holds which role, the invitations sent, the form that invites
//! someone by email, removing a role from someone who no longer holds it (issue 5), and
//! withdrawing an invitation not yet taken up (issue 9). Only those the table lets invite
//! (`Action::InviteUser`) see it or change it.

use arbiter_core::record::text::{self, Reason};
use arbiter_core::rules::permissions::{Action, Role};
use arbiter_mail::Mail;
use arbiter_store::{InviteId, MemberRow, MembershipId, NewInvite};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;

use crate::accounts::account::INVITE_VALID_DAYS;
use crate::app::respond::{private, see_other};
use crate::app::site::{self, LeagueTree};
use crate::app::state::AppState;
use crate::http::auth::{Acting, Auth};
use crate::http::csrf::{self};
use crate::http::error::{Format, WebError};
use crate::ui::layout::{Layout, private_layout};
use crate::ui::link::{Link, league_href};
use crate::ui::words;

struct Choice {
    value: String,
    text: String,
    selected: bool,
}

struct MemberLine {
    name: String,
    email: String,
    role: String,
    since: String,
    /// Where the row's Remove form posts.
    revoke_action: String,
}

struct InviteLine {
    email: String,
    role: String,
    by: String,
    state: String,
    /// Where its Withdraw form posts, while it can still be accepted.
    withdraw_action: Option<String>,
}

#[derive(Template)]
#[template(path = "people/people.html", whitespace = "minimize")]
struct PeoplePage {
    layout: Layout,
    csrf: String,
    notice: Option<String>,
    problem: Option<String>,
    invite_action: String,
    email: String,
    roles: Vec<Choice>,
    schools: Vec<Choice>,
    valid_days: i64,
    members: Vec<MemberLine>,
    invites: Vec<InviteLine>,
}

/// What the form had, to show it again with its problem.
#[derive(Debug, Default, Deserialize)]
pub struct InviteForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    role: String,
    #[serde(default)]
    school: String,
}

#[derive(Debug, Deserialize)]
pub struct PeopleQuery {
    invited: Option<String>,
}

/// A Remove form: when given, why the role ends (kept in the history).
#[derive(Debug, Default, Deserialize)]
pub struct RevokeForm {
    #[serde(default)]
    reason: String,
}

/// The session key of the notice the People page shows once after a removal or withdrawal. Kept in the
/// session rather than the address, so that no link can make the page say something else.
const REMOVED_NOTICE: &str = "people_removed";

fn people_href(league: &str) -> String {
    format!("{}/people", league_href(league))
}

/// `Advisor of Clay High School`, `President`.
fn role_text(m: &MemberRow) -> String {
    match &m.membership.school {
        Some(s) => format!("{} of {s}", m.membership.role.name()),
        None => m.membership.role.name().to_string(),
    }
}

/// The league's schools, by name: those its teams play for and those added at the set-up.
async fn schools(state: &AppState, tree: &LeagueTree) -> Vec<String> {
    match state.store().schools(tree.league.id).await {
        Ok(schools) => schools.into_iter().map(|s| s.name).collect(),
        Err(_) => Vec::new(),
    }
}

async fn guard(
    state: &AppState,
    auth: &Auth,
    league: &str,
) -> Result<(LeagueTree, Acting), WebError> {
    site::league_officer(state, auth, league, Action::InviteUser).await
}

async fn page(
    state: &AppState,
    auth: &Auth,
    tree: &LeagueTree,
    form: &InviteForm,
    notice: Option<String>,
    problem: Option<String>,
    status: StatusCode,
) -> Response {
    let store = state.store();
    let csrf = match csrf::session_token(&auth.session).await {
        Ok(t) => t,
        Err(e) => return e.answer(Format::Html),
    };
    let (members, invites) = match (
        store.league_members(tree.league.id).await,
        store.invites(tree.league.id).await,
    ) {
        (Ok(m), Ok(i)) => (m, i),
        (Err(e), _) | (_, Err(e)) => return WebError::from(e).answer(Format::Html),
    };
    let now = jiff::Timestamp::now();
    let chosen_role = Role::from_code(&form.role).unwrap_or(Role::Advisor);
    let l = &tree.league;
    let page = PeoplePage {
        layout: private_layout(
            &format!("People of {}", l.name),
            vec![Link::new(league_href(&l.slug), &l.name)],
        ),
        csrf,
        notice,
        problem,
        invite_action: format!("{}/invites", league_href(&l.slug)),
        email: form.email.clone(),
        roles: Role::ALL
            .into_iter()
            .filter(|r| *r != Role::Public)
            .map(|r| Choice {
                value: r.code().into(),
                text: r.name().into(),
                selected: r == chosen_role,
            })
            .collect(),
        schools: schools(state, tree)
            .await
            .into_iter()
            .map(|s| Choice {
                selected: s == form.school,
                value: s.clone(),
                text: s,
            })
            .collect(),
        valid_days: INVITE_VALID_DAYS,
        members: members
            .into_iter()
            .map(|m| MemberLine {
                role: role_text(&m),
                revoke_action: format!("{}/{}/revoke", people_href(&l.slug), m.membership.id),
                name: m.user.name,
                email: m.user.email,
                since: words::timestamp(m.membership.granted_at),
            })
            .collect(),
        invites: invites
            .into_iter()
            .map(|i| InviteLine {
                withdraw_action: (i.accepted_at.is_none()
                    && i.withdrawn_at.is_none()
                    && i.expires_at > now)
                    .then(|| format!("{}/invites/{}/withdraw", league_href(&l.slug), i.id)),
                state: match (i.accepted_at, i.withdrawn_at) {
                    (Some(at), _) => format!("accepted {}", words::timestamp(at)),
                    (None, Some(at)) => format!(
                        "withdrawn {}{}",
                        words::timestamp(at),
                        i.withdrawn_by
                            .as_deref()
                            .map_or(String::new(), |b| format!(" by {b}"))
                    ),
                    (None, None) if i.expires_at <= now => {
                        format!("expired {}", words::timestamp(i.expires_at))
                    }
                    (None, None) => format!("open until {}", words::timestamp(i.expires_at)),
                },
                role: match i.school {
                    Some(s) => format!("{} of {s}", i.role.name()),
                    None => i.role.name().to_string(),
                },
                email: i.email,
                by: i.invited_by.unwrap_or_else(|| "command line".into()),
            })
            .collect(),
    };
    private(status, &page)
}

/// The People page again, 422, with the problem of a Remove or Withdraw form.
async fn refused(state: &AppState, auth: &Auth, tree: &LeagueTree, problem: String) -> Response {
    let form = InviteForm::default();
    page(
        state,
        auth,
        tree,
        &form,
        None,
        Some(problem),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
}

pub async fn people_page(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Query(q): Query<PeopleQuery>,
) -> Response {
    let (tree, _) = match guard(&state, &auth, &league).await {
        Ok(x) => x,
        Err(e) => return e.answer(Format::Html),
    };
    let removed = auth
        .session
        .remove::<String>(REMOVED_NOTICE)
        .await
        .ok()
        .flatten();
    let notice = removed.or_else(|| {
        q.invited
            .map(|e| format!("The invitation to {e} is on its way."))
    });
    let form = InviteForm::default();
    page(&state, &auth, &tree, &form, notice, None, StatusCode::OK).await
}

pub async fn invite(
    State(state): State<AppState>,
    auth: Auth,
    Path(league): Path<String>,
    Form(f): Form<InviteForm>,
) -> Response {
    let (tree, acting) = match guard(&state, &auth, &league).await {
        Ok(x) => x,
        Err(e) => return e.answer(Format::Html),
    };
    let refuse = |problem: String| async {
        page(
            &state,
            &auth,
            &tree,
            &f,
            None,
            Some(problem),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await
    };
    let email = match text::Email::parse(&f.email) {
        Ok(email) => email.as_str().to_string(),
        Err(why) => return refuse(why).await,
    };
    let Some(role) = Role::from_code(&f.role).filter(|r| *r != Role::Public) else {
        return refuse(format!(
            "“{}” is not a role here; choose one from the list.",
            f.role
        ))
        .await;
    };
    let school = Some(f.school.trim()).filter(|s| !s.is_empty());
    if let Err(why) = role.check_school(school) {
        return refuse(format!("{why} Choose it from the list.")).await;
    }
    let new = NewInvite {
        email: email.clone(),
        league: tree.league.id,
        role,
        school: school.map(str::to_string),
        valid_for: jiff::SignedDuration::from_hours(24 * INVITE_VALID_DAYS),
    };
    let (invite, token) = match state.store().create_invite(&new, &acting.actor()).await {
        Ok(x) => x,
        Err(e) => return refuse(WebError::from_write(e).message()).await,
    };
    state.invalidate();
    let link = format!("{}/invites/{}", state.base_url(), words::segment(&token));
    let what = match &invite.school {
        Some(s) => format!("{} of {s}", role.name()),
        None => role.name().to_string(),
    };
    let mail = Mail {
        to: email.clone(),
        subject: format!("Your invitation to {}", tree.league.name),
        text: format!(
            "{} invites you to be {what} in {} on Arbiter.\n\nOpen this link within {INVITE_VALID_DAYS} days to choose your password; it works once:\n{link}\n\nIf you did not expect this, ignore the mail.\n",
            acting.email, tree.league.name
        ),
    };
    match state.mailer().send(&mail).await {
        Ok(_) => see_other(&format!(
            "{}/people?invited={}",
            league_href(&tree.league.slug),
            words::segment(&email)
        )),
        // The invitation stands; the officer can pass the link on by hand.
        Err(e) => {
            page(
                &state,
                &auth,
                &tree,
                &InviteForm::default(),
                Some(format!(
                    "The invitation was made, but the mail could not be sent ({e}). Give {email} this link yourself: {link}"
                )),
                None,
                StatusCode::OK,
            )
            .await
        }
    }
}

/// Takes a role away (an advisor who has left the school): the membership ends, its row and
/// the history keep who held it, who removed it and why. The league's last President role
/// stays: a league without a President has no one to invite the next one.
pub async fn revoke_role(
    State(state): State<AppState>,
    auth: Auth,
    Path((league, membership)): Path<(String, String)>,
    Form(f): Form<RevokeForm>,
) -> Response {
    let (tree, acting) = match guard(&state, &auth, &league).await {
        Ok(x) => x,
        Err(e) => return e.answer(Format::Html),
    };
    let store = state.store();
    let members = match store.league_members(tree.league.id).await {
        Ok(m) => m,
        Err(e) => return WebError::from(e).answer(Format::Html),
    };
    let here = people_href(&tree.league.slug);
    let held = membership
        .trim()
        .parse::<i64>()
        .ok()
        .and_then(|id| members.iter().find(|m| m.membership.id == MembershipId(id)));
    let Some(target) = held else {
        return WebError::NotFound {
            message: format!(
                "No one holds a role numbered “{membership}” in {}: it may have been removed already. The roles held are listed on the league's People page.",
                tree.league.name
            ),
            links: vec![Link::new(here, format!("People of {}", tree.league.name))],
        }
        .answer(Format::Html);
    };
    let other_president = members
        .iter()
        .any(|m| m.membership.role == Role::President && m.membership.id != target.membership.id);
    if target.membership.role == Role::President && !other_president {
        let whose = if target.user.email == acting.email {
            "You hold the league's only President role".to_string()
        } else {
            format!(
                "{} holds the league's only President role",
                target.user.email
            )
        };
        let problem = format!(
            "{whose}, so it was not removed: {} would have no President, and no one to invite the next one. Give the President's role to someone else first (invite them as President), then remove this one.",
            tree.league.name
        );
        return page(
            &state,
            &auth,
            &tree,
            &InviteForm::default(),
            None,
            Some(problem),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    let reason = match Reason::parse_as("the reason for removing the role", &f.reason) {
        Ok(r) => r,
        Err(e) => return refused(&state, &auth, &tree, e.to_string()).await,
    };
    let reason = reason.as_ref().map(Reason::as_str);
    if let Err(e) = store
        .revoke_role(target.membership.id, &acting.actor(), reason)
        .await
    {
        return WebError::from_write(e).answer(Format::Html);
    }
    state.invalidate();
    let notice = format!(
        "{} no longer holds the role {}; the history keeps who removed it{}.",
        target.user.email,
        role_text(target),
        if reason.is_some() { " and why" } else { "" }
    );
    // The notice is a nicety: if the session cannot keep it, the removal still stands.
    let _ = auth.session.insert(REMOVED_NOTICE, notice).await;
    see_other(&here)
}

/// Withdraws an invitation not yet taken up (sent to the wrong address, or by an officer no
/// longer in office): its link stops working; the row and the history keep who withdrew it,
/// when and why.
pub async fn withdraw_invite(
    State(state): State<AppState>,
    auth: Auth,
    Path((league, invite)): Path<(String, String)>,
    Form(f): Form<RevokeForm>,
) -> Response {
    let (tree, acting) = match guard(&state, &auth, &league).await {
        Ok(x) => x,
        Err(e) => return e.answer(Format::Html),
    };
    let here = people_href(&tree.league.slug);
    let not_found = || {
        WebError::NotFound {
            message: format!(
                "{} has no invitation numbered “{invite}”. Its invitations are listed on the league's People page.",
                tree.league.name
            ),
            links: vec![Link::new(here.clone(), format!("People of {}", tree.league.name))],
        }
        .answer(Format::Html)
    };
    let Ok(id) = invite.trim().parse::<i64>() else {
        return not_found();
    };
    let reason = match Reason::parse_as("the reason for withdrawing the invitation", &f.reason) {
        Ok(r) => r,
        Err(e) => return refused(&state, &auth, &tree, e.to_string()).await,
    };
    let reason = reason.as_ref().map(Reason::as_str);
    let withdrawn = match state
        .store()
        .withdraw_invite(tree.league.id, InviteId(id), &acting.actor(), reason)
        .await
    {
        Ok(i) => i,
        Err(arbiter_store::StoreError::NotFound(_)) => return not_found(),
        Err(e) => {
            let problem = crate::results::context::sentence(&WebError::from_write(e).message());
            return page(
                &state,
                &auth,
                &tree,
                &InviteForm::default(),
                None,
                Some(problem),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        }
    };
    state.invalidate();
    let notice = format!(
        "The invitation to {} is withdrawn: its link no longer works, and the history keeps who withdrew it{}.",
        withdrawn.email,
        if reason.is_some() { " and why" } else { "" }
    );
    let _ = auth.session.insert(REMOVED_NOTICE, notice).await;
    see_other(&here)
}
