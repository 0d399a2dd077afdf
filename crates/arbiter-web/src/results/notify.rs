//! Notices by mail (issue 13, part 9). Core's `notice` says which notice a step sends and to
//! whom; this finds the people (the league's members in the roles and schools the audience
//! names, less anyone who stopped that kind, less the person who acted) and mails each a plain
//! text that says what happened and links to the match. The mails go out after the answer: a
//! mail that fails is logged, and the write it tells of stands.

use arbiter_core::rules::permissions::{Action, Role, Subject, Target, decide};
use arbiter_core::season::notice::{Audience, Notice};
use arbiter_core::season::report::{ReportStatus, ReportStep, Task, task};
use arbiter_core::{MatchOutcome, Pairing, Side};
use arbiter_mail::Mail;

use crate::app::state::AppState;
use crate::results::context::MatchContext;
use crate::ui::words;

/// Mails `notice` of the match to `audience`, saying `what` happened; `acting` (the email of
/// the person who did it) is not told of their own act.
pub(crate) async fn tell(
    state: &AppState,
    ctx: &MatchContext,
    notice: Notice,
    audience: Audience,
    what: &str,
    acting: Option<&str>,
) {
    let mails = match mails(state, ctx, notice, audience, what, acting).await {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(cause = %e, notice = notice.code(), "the notices were not sent");
            return;
        }
    };
    send_later(state, mails);
}

/// GT-M2, GT-F5: both schools told that the match moved. `before` is the match as read before
/// the move (its new day is read again), `rule` the rule it moved by, `reason` as the history
/// keeps it; `acting` is not told of their own act.
pub(crate) async fn tell_move(
    state: &AppState,
    before: &MatchContext,
    rule: &str,
    reason: &str,
    acting: Option<&str>,
) {
    let fresh = match crate::results::context::reload(state, before).await {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!(cause = %e.message(), "the notices of a move were not sent");
            return;
        }
    };
    let (notice, audience) = arbiter_core::season::notice::of_move();
    let day =
        |d: Option<jiff::civil::Date>| d.map_or_else(|| "its round's day".to_string(), words::date);
    let when = match fresh.record.start {
        Some(t) => format!("{} at {}", day(fresh.date), t.strftime("%H:%M")),
        None => day(fresh.date),
    };
    let what = format!(
        "The match moves from {} to {when} ({rule}). The reason given: \u{201c}{reason}\u{201d}",
        day(before.date)
    );
    tell(state, &fresh, notice, audience, &what, acting).await;
}

/// GT-F5: a suspension moved `moved` (each as read before it moved; its new day is read again),
/// and each school with a match among them is told once, by a mail to its advisors that lists
/// every one of its matches with its new day, not a mail a match. `reason` is the history's;
/// `acting` is not told of their own act.
pub(crate) async fn tell_suspension(
    state: &AppState,
    moved: &[MatchContext],
    headline: &str,
    reason: &str,
    acting: Option<&str>,
) {
    let Some(first) = moved.first() else {
        return;
    };
    let (notice, _) = arbiter_core::season::notice::of_move();
    let base = state.base_url();
    let day =
        |d: Option<jiff::civil::Date>| d.map_or_else(|| "its round's day".to_string(), words::date);
    // Each school's matches, in the order moved: the line its mail says of each.
    let mut by_school: Vec<(String, Vec<String>)> = Vec::new();
    for before in moved {
        let fresh = match crate::results::context::reload(state, before).await {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(cause = %e.message(), "the notices of a suspension were not sent");
                return;
            }
        };
        let when = match fresh.record.start {
            Some(t) => format!("{} at {}", day(fresh.date), t.strftime("%H:%M")),
            None => day(fresh.date),
        };
        let line = format!(
            "- {} v {} ({}, round {}): from {} to {when}. {base}{}",
            fresh.team_name(Side::Home),
            fresh.team_name(Side::Away),
            fresh.view.record.name,
            fresh.round,
            day(before.date),
            fresh.href()
        );
        for school in [fresh.school(Side::Home), fresh.school(Side::Away)]
            .into_iter()
            .flatten()
        {
            match by_school.iter_mut().find(|(s, _)| s == school) {
                Some((_, lines)) => lines.push(line.clone()),
                None => by_school.push((school.to_string(), vec![line.clone()])),
            }
        }
    }
    let store = state.store();
    let members = match store.league_members(first.league()).await {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(cause = %e, "the notices of a suspension were not sent");
            return;
        }
    };
    let mut mails: Vec<Mail> = Vec::new();
    for m in members {
        let Some((school, lines)) = m
            .membership
            .school
            .as_deref()
            .filter(|_| m.membership.role == Role::Advisor)
            .and_then(|s| by_school.iter().find(|(x, _)| x == s))
        else {
            continue;
        };
        let email = m.user.email;
        if Some(email.as_str()) == acting || mails.iter().any(|x| x.to == email) {
            continue;
        }
        match store.stopped_notices(m.user.id).await {
            Ok(stopped) if stopped.contains(&notice) => continue,
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(cause = %e, "the notices of a suspension were not sent");
                return;
            }
        }
        let n = lines.len();
        mails.push(Mail {
            to: email,
            subject: format!(
                "{}: New days for {n} match{} of {school} (GT-F5)",
                first.view.league.name,
                if n == 1 { "" } else { "es" },
            ),
            text: format!(
                "{headline}, and {n} match{} of {school} move{} to {} day{}:\n\n{}\n\nThe reason given: “{reason}”\n\nYou get this mail as the advisor of {school}. To stop mails of this kind (“{}”), untick it on your account page: {base}/account\n",
                if n == 1 { "" } else { "es" },
                if n == 1 { "s" } else { "" },
                if n == 1 { "a new" } else { "new" },
                if n == 1 { "" } else { "s" },
                lines.join("\n"),
                notice.label()
            ),
        });
    }
    send_later(state, mails);
}

/// What a step of the result workflow did, for its notice: who, what stands now, and what is
/// asked next. `fresh` is the match after the write.
pub(crate) fn step_words(
    step: ReportStep,
    fresh: &MatchContext,
    reason: Option<&str>,
    by: Option<(Role, Option<&str>)>,
) -> String {
    let facts = fresh.view.facts(fresh.round, &fresh.record);
    let score = words::score(facts.home_points, facts.away_points);
    let version = fresh.in_force();
    let who = by.map_or("Someone".to_string(), |(r, school)| match r {
        Role::Advisor => format!(
            "The advisor of {}",
            school
                .or(fresh.school(Side::Home))
                .unwrap_or("the home school")
        ),
        r => format!("The league's {}", r.name()),
    });
    let why = reason
        .filter(|r| !r.trim().is_empty())
        .map(|r| format!(" The reason given: \u{201c}{}\u{201d}", r.trim()))
        .unwrap_or_default();
    let basis = fresh
        .entered()
        .and_then(|v| v.basis.phrase())
        .map(|p| format!(" It is {p}."))
        .unwrap_or_default();
    let said = match (step, fresh.status()) {
        (ReportStep::FinishAdjourned, ReportStatus::AwaitingConfirmation { .. }) => format!(
            "{} entered the result of the adjourned game, and the match now stands at {score} (version {version}). As the visitors, confirm it if it is right or dispute it with the reason (GT-M20, GT-P2).",
            fresh.team_name(Side::Home),
        ),
        (ReportStep::Enter, ReportStatus::AwaitingConfirmation { .. }) => format!(
            "{} entered the result, {score} (version {version}). As the visitors, confirm it if it is right or dispute it with the reason{} (GT-P2).",
            fresh.team_name(Side::Home),
            fresh
                .stored
                .rules
                .report
                .map(|d| format!(" within {} of its entry", words::days(d.confirm_within)))
                .unwrap_or_default()
        ),
        (ReportStep::Adjudicate, _) => format!(
            "{who} adjudicated the game sent for adjudication (GT-M20). The match now stands at {score}, version {version}, and the decision stands.{why}"
        ),
        (ReportStep::Dispute, _) => format!(
            "{} disputed version {version} of the result ({score}).{why} An officer decides: the President, or the Vice-President when the President's school plays (GT-O3).",
            fresh.team_name(Side::Away)
        ),
        (ReportStep::WithdrawPenalty, _) => format!(
            "{who} withdrew the penalty decided on this match (GT-M3, GT-P4): version {version} holds no result, so the match is to be played and reported again (GT-P2), and a team the penalty had dropped is back (GT-M5).{why}"
        ),
        (ReportStep::RequestCorrection, _) => format!(
            "{who} asked for a correction of version {version} of the result ({score}).{why} It counts as it is until an officer decides, keeping it or correcting it: the President, or the Vice-President when the President's school plays (GT-P2, GT-O3)."
        ),
        _ => format!(
            "{who} {} the result: {score}, version {version}, which stands (GT-P2, GT-O3).{basis}{why}",
            match step {
                ReportStep::Correct => "corrected",
                ReportStep::Decide => "decided the dispute and kept",
                ReportStep::Confirm => "confirmed",
                ReportStep::ForfeitByDecision => "decided (GT-M3)",
                ReportStep::DoubleForfeitForLateReport => "decided (GT-P4)",
                ReportStep::Enter
                | ReportStep::Dispute
                | ReportStep::RequestCorrection
                | ReportStep::WithdrawPenalty
                | ReportStep::FinishAdjourned
                | ReportStep::Adjudicate => "entered",
            }
        ),
    };
    // Issue 34 item 7: the schools are told of the fines the result brings (or takes away:
    // the fines are the record's, so a corrected result shows what stands now).
    let fines = fresh.fines();
    let said = if fines.is_empty() {
        said
    } else {
        format!(
            "{said}\n\n{} Each is owed in the league's ledger, where an officer may waive it with the reason.",
            fines.join(" ")
        )
    };
    // Issue 34 item 5: the league's own rule IDs, or none.
    fresh.stored.rules.in_own_words(&said).into_owned()
}

/// Who gets the notice, each with the mail they get.
async fn mails(
    state: &AppState,
    ctx: &MatchContext,
    notice: Notice,
    audience: Audience,
    what: &str,
    acting: Option<&str>,
) -> Result<Vec<Mail>, arbiter_store::StoreError> {
    let store = state.store();
    let (home, away) = (ctx.school(Side::Home), ctx.school(Side::Away));
    let target = Target::Match {
        home,
        visiting: away,
        conduct: ctx.stored.rules.conduct,
    };
    let mut out: Vec<Mail> = Vec::new();
    for m in store.league_members(ctx.league()).await? {
        let school = m.membership.school.as_deref();
        let why = match m.membership.role {
            Role::Advisor if audience.home && school.is_some() && school == home => {
                format!("the advisor of {}", school.unwrap_or_default())
            }
            Role::Advisor if audience.away && school.is_some() && school == away => {
                format!("the advisor of {}", school.unwrap_or_default())
            }
            // GT-O3: the officers the table lets decide this match's dispute.
            role @ (Role::President | Role::VicePresident)
                if audience.officers
                    && decide(Subject { role, school }, Action::DecideDispute, target)
                        .is_allowed() =>
            {
                format!("the league's {}", role.name())
            }
            _ => continue,
        };
        let email = m.user.email;
        if Some(email.as_str()) == acting || out.iter().any(|x| x.to == email) {
            continue;
        }
        if store.stopped_notices(m.user.id).await?.contains(&notice) {
            continue;
        }
        out.push(mail(state, ctx, notice, what, email, &why));
    }
    Ok(out)
}

fn mail(
    state: &AppState,
    ctx: &MatchContext,
    notice: Notice,
    what: &str,
    to: String,
    why: &str,
) -> Mail {
    let base = state.base_url();
    let title = format!(
        "{} v {}",
        ctx.team_name(Side::Home),
        ctx.team_name(Side::Away)
    );
    let day = ctx
        .date
        .map(|d| format!(", {}", words::date(d)))
        .unwrap_or_default();
    Mail {
        to,
        subject: format!(
            "{}: {}: {title}, round {}",
            ctx.view.league.name,
            notice.title(),
            ctx.round
        ),
        text: format!(
            "{what}\n\n{title}: {}, round {}{day}.\nThe match: {base}{}\n\nYou get this mail as {why}. To stop mails of this kind (\u{201c}{}\u{201d}), untick it on your account page: {base}/account\n",
            ctx.view.context(),
            ctx.round,
            ctx.href(),
            notice.label()
        ),
    }
}

/// GT-P2's reminders for the day it is in each league's zone (RULES.md, "Time"; the site's
/// day when one is set): each home team whose result is due tomorrow, and each visiting team
/// whose confirmation is, gets the notice, sent before this returns. Says how many mails went
/// out and how many failed (each failure is logged).
pub async fn remind(state: &AppState) -> Result<(usize, usize), crate::http::error::WebError> {
    remind_in(state, None).await
}

/// [`remind`] for the league `only` (its slug), or every league.
pub(crate) async fn remind_in(
    state: &AppState,
    only: Option<&str>,
) -> Result<(usize, usize), crate::http::error::WebError> {
    let mut all: Vec<Mail> = Vec::new();
    for tree in crate::app::site::all(state).await? {
        if only.is_some_and(|slug| slug != tree.league.slug) {
            continue;
        }
        let zone = &tree.league.time_zone;
        let today = state.today_in(zone);
        // Issue 35: only the competitions whose reports may ask something are loaded.
        let open = state
            .store()
            .competitions_with_open_reports(tree.league.id, today)
            .await?;
        for (season, comps) in &tree.seasons {
            for c in comps.iter().filter(|c| open.contains(&c.id)) {
                let view = state.view(&tree.league.slug, &season.slug, &c.slug).await?;
                let reports = state.store().competition_reports(view.id).await?;
                for r in view.rounds() {
                    for p in &r.pairings {
                        let Pairing::Match(m) = p else { continue };
                        // GT-M5: a dropped team's match will not be played: nothing to remind.
                        let dropped = arbiter_core::scoring::unplayed_after_drop(
                            &view.sheet,
                            &view.competition,
                            r.number,
                            m,
                        );
                        let id = view.stored.match_id(r.number, &m.home);
                        let (None, Some(id)) = (dropped, id) else {
                            continue;
                        };
                        let in_force = reports.in_force(id).map(std::slice::from_ref);
                        let in_force = in_force.unwrap_or_default();
                        let status =
                            crate::results::context::report_status(in_force, reports.reviews(id));
                        let entered_on = in_force
                            .last()
                            .filter(|v| v.outcome != MatchOutcome::Pending)
                            .map(|v| zone.day_of(v.entered_at));
                        // The home team's entry and the visitors' confirmation alike (GT-P2).
                        let due: Vec<(Side, Task, Notice)> = [Side::Home, Side::Away]
                            .into_iter()
                            .filter_map(|side| {
                                let played_on = r.date_of(m);
                                let rules = view.stored.rules.report;
                                let t = task(rules, side, status, played_on, entered_on, today)?;
                                let notice = arbiter_core::season::notice::reminder(t, today)?;
                                Some((side, t, notice))
                            })
                            .collect();
                        if due.is_empty() {
                            continue;
                        }
                        let ctx = crate::results::context::load(
                            state,
                            &tree.league.slug,
                            &season.slug,
                            &c.slug,
                            r.number,
                            &m.home.0,
                        )
                        .await?;
                        for (side, t, notice) in due {
                            let what = match t {
                                Task::EnterResult { .. } => format!(
                                    "The result of this match is due from {} tomorrow: the home team enters it within {} of the match (GT-P2).",
                                    ctx.team_name(Side::Home),
                                    ctx.stored
                                        .rules
                                        .report
                                        .map(|d| words::days(d.enter_within))
                                        .unwrap_or_default()
                                ),
                                Task::ReviewResult { version, .. } => format!(
                                    "Version {version} of this result awaits {}'s confirmation, due tomorrow: confirm it, or dispute it with the reason (GT-P2).",
                                    ctx.team_name(Side::Away)
                                ),
                            };
                            let audience = Audience {
                                home: side == Side::Home,
                                away: side == Side::Away,
                                officers: false,
                            };
                            all.extend(mails(state, &ctx, notice, audience, &what, None).await?);
                        }
                    }
                }
            }
        }
    }
    let mut failed = 0;
    for m in &all {
        if let Err(e) = state.mailer().send(m).await {
            tracing::warn!(to = %m.to, cause = %e, "a reminder was not sent");
            failed += 1;
        }
    }
    Ok((all.len() - failed, failed))
}

/// AS-13: a step of protest `number` (on the protests page `page`) told to the advisors of both teams (`by` protesting,
/// `against` protested) and to the event's arbiters, but not to who took it: an upheld order
/// tells the team whose lineups must now follow it. `what` says the step in a sentence.
pub(crate) async fn tell_protest(
    state: &AppState,
    view: &crate::app::view::CompetitionView,
    (by, against): (&arbiter_core::TeamId, &arbiter_core::TeamId),
    (number, page): (u32, &str),
    what: &str,
    acting: Option<&str>,
) {
    let school = |t: &arbiter_core::TeamId| view.competition.team(t).and_then(|t| t.school.clone());
    let schools = [school(by), school(against)];
    let base = state.base_url();
    let page = format!("{base}{page}");
    let mails = async {
        let store = state.store();
        let mut out: Vec<Mail> = Vec::new();
        for m in store.league_members(view.league.id).await? {
            let at = m.membership.school.clone();
            let why = match m.membership.role {
                Role::Advisor if at.is_some() && schools.contains(&at) => {
                    format!("the advisor of {}", at.unwrap_or_default())
                }
                Role::Arbiter => "the event's arbiter".to_string(),
                _ => continue,
            };
            let email = m.user.email;
            if Some(email.as_str()) == acting || out.iter().any(|x| x.to == email) {
                continue;
            }
            if store
                .stopped_notices(m.user.id)
                .await?
                .contains(&Notice::ProtestStep)
            {
                continue;
            }
            out.push(Mail {
                to: email,
                subject: format!(
                    "{}: {} {number}: {}",
                    view.league.name,
                    Notice::ProtestStep.title(),
                    view.record.name
                ),
                text: format!(
                    "{what}\n\nThe protests of {}: {page}#protest-{number}\n\nYou get this mail as {why}. To stop mails of this kind (\u{201c}{}\u{201d}), untick it on your account page: {base}/account\n",
                    view.record.name,
                    Notice::ProtestStep.label()
                ),
            });
        }
        Ok::<_, arbiter_store::StoreError>(out)
    };
    let mails = match mails.await {
        Ok(m) => m,
        Err(e) => {
            tracing::warn!(cause = %e, "the notices of a protest were not sent");
            return;
        }
    };
    send_later(state, mails);
}

/// The notices mailed after the answer, each failure logged (a notice is never worth a failed
/// request).
fn send_later(state: &AppState, mails: Vec<Mail>) {
    let mailer = state.mailer().clone();
    state.send_later(async move {
        for m in mails {
            if let Err(e) = mailer.send(&m).await {
                tracing::warn!(to = %m.to, cause = %e, "a notice was not sent");
            }
        }
    });
}
