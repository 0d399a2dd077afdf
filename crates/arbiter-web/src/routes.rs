//! Every route that needs more than the public: forms that change something, pages only some
//! may read, and the API's write endpoints. The router is built from [`guarded`] and the API's
//! list; the permission-matrix test (`tests/web/permissions.rs`) walks [`table`], so a new route
//! without a rule cannot be added.

use arbiter_core::rules::permissions::Action;
use axum::http::Method;
use axum::routing::{MethodRouter, get, post};

use crate::accounts::account;
use crate::app::state::AppState;
use crate::results::page as matches;
use crate::{
    findings, history, ledger, people, rosters, schedule_mail, season_end, setup, suspension,
};

/// Who may use a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// Anyone may submit it (sign-in, an invitation, a password reset); the CSRF token and the
    /// rate limits guard it.
    Anyone,
    /// Any signed-in account.
    SignedIn,
    /// The permission table decides (`arbiter_core::rules::permissions::decide`), for the league,
    /// match or team the address names.
    Table(Action),
}

/// How a route is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// A page or a form of the site: the session cookie, and a CSRF token on every POST.
    Site,
    /// The JSON API: an API token in `Authorization: Bearer …`.
    Api,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub method: Method,
    /// axum's path syntax: `/leagues/{league}/invites`.
    pub path: String,
    pub guard: Guard,
    pub via: Via,
    /// Sign-in and reset: limited per address (and per account in the handler).
    pub limited: bool,
}

const C: &str = "/leagues/{league}/{season}/{competition}";
const M: &str = "/leagues/{league}/{season}/{competition}/rounds/{round}/matches/{home}";

fn site(method: Method, path: &str, guard: Guard) -> Rule {
    Rule {
        method,
        path: path.to_string(),
        guard,
        via: Via::Site,
        limited: false,
    }
}

fn limited(mut r: Rule) -> Rule {
    r.limited = true;
    r
}

/// The site's guarded routes with their handlers.
pub fn guarded() -> Vec<(Rule, MethodRouter<AppState>)> {
    use Guard::{Anyone, SignedIn, Table};
    let history = Table(Action::ReadHistory);
    vec![
        (
            site(Method::GET, "/sign-in", Anyone),
            get(account::sign_in_form),
        ),
        (
            limited(site(Method::POST, "/sign-in", Anyone)),
            post(account::sign_in),
        ),
        (
            site(Method::POST, "/sign-out", SignedIn),
            post(account::sign_out),
        ),
        (
            site(Method::GET, "/invites/{token}", Anyone),
            get(account::invite_form),
        ),
        (
            site(Method::POST, "/invites/{token}", Anyone),
            post(account::accept_invite),
        ),
        (
            site(Method::GET, "/reset", Anyone),
            get(account::reset_form),
        ),
        (
            limited(site(Method::POST, "/reset", Anyone)),
            post(account::reset_request),
        ),
        (
            site(Method::GET, "/reset/{token}", Anyone),
            get(account::reset_link_form),
        ),
        (
            limited(site(Method::POST, "/reset/{token}", Anyone)),
            post(account::reset_with_link),
        ),
        (
            site(Method::GET, "/account", SignedIn),
            get(account::account_page),
        ),
        (
            site(Method::POST, "/account/notices", SignedIn),
            post(account::set_notices),
        ),
        (
            site(
                Method::POST,
                "/account/tokens",
                Table(Action::CreateApiToken),
            ),
            post(account::create_token),
        ),
        (
            site(
                Method::POST,
                "/account/tokens/{token}/revoke",
                Table(Action::CreateApiToken),
            ),
            post(account::revoke_token),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/people",
                Table(Action::InviteUser),
            ),
            get(people::people_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/invites",
                Table(Action::InviteUser),
            ),
            post(people::invite),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/people/{membership}/revoke",
                Table(Action::InviteUser),
            ),
            post(people::revoke_role),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/invites/{invite}/withdraw",
                Table(Action::InviteUser),
            ),
            post(people::withdraw_invite),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/result"),
                Table(Action::EnterResult),
            ),
            post(matches::enter_result),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/correction"),
                Table(Action::CorrectResult),
            ),
            post(matches::correct_result),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/confirm"),
                Table(Action::ConfirmResult),
            ),
            post(matches::confirm_result),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/dispute"),
                Table(Action::DisputeResult),
            ),
            post(matches::dispute_result),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/penalty-withdrawal"),
                Table(Action::ApplyMatchForfeit),
            ),
            post(matches::withdraw_penalty),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/correction-request"),
                Table(Action::RequestCorrection),
            ),
            post(matches::request_correction),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/move"),
                Table(Action::PostponeMatch),
            ),
            post(matches::move_match),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/lineups/{{side}}"),
                Table(Action::SubmitLineup),
            ),
            post(matches::name_lineup),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/decision"),
                Table(Action::DecideDispute),
            ),
            post(matches::decide_dispute),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/forfeit"),
                Table(Action::ApplyMatchForfeit),
            ),
            post(matches::declare_forfeit),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/extra-games"),
                Table(Action::RecordExtraGame),
            ),
            post(matches::record_extra_game),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/extra-games/{{game}}/confirm"),
                Table(Action::ConfirmExtraGame),
            ),
            post(matches::confirm_extra_game),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/extra-games/{{game}}/strike"),
                Table(Action::StrikeExtraGame),
            ),
            post(matches::strike_extra_game),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/adjudication"),
                Table(Action::AdjudicateGame),
            ),
            post(matches::adjudicate_game),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/adjourned-game"),
                Table(Action::EnterResult),
            ),
            post(matches::finish_adjourned_game),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/game-scores"),
                Table(Action::UploadGameScore),
            ),
            post(matches::upload_game_score),
        ),
        (
            site(
                Method::POST,
                &format!("{M}/late-report"),
                Table(Action::ApplyDoubleForfeitForLateReport),
            ),
            post(matches::late_report_forfeit),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/rosters",
                Table(Action::EditRoster),
            ),
            get(rosters::rosters_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/rosters",
                Table(Action::EditRoster),
            ),
            post(rosters::add_players),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/rosters/player",
                Table(Action::EditRoster),
            ),
            post(rosters::change_player),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/rosters/person",
                Table(Action::EditRoster),
            ),
            post(rosters::link_person),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/setup",
                Table(Action::CreateSeason),
            ),
            get(setup::setup_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/setup/seasons",
                Table(Action::CreateSeason),
            ),
            post(setup::create_season),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/setup/time-zone",
                Table(Action::CreateSeason),
            ),
            post(setup::set_time_zone),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/setup/schools",
                Table(Action::CreateSeason),
            ),
            post(setup::add_school),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/setup/schools/address",
                Table(Action::CreateSeason),
            ),
            post(setup::set_school_address),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/setup/closures",
                Table(Action::DrawSchedule),
            ),
            post(setup::add_closure),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/setup/closures/withdraw",
                Table(Action::DrawSchedule),
            ),
            post(setup::withdraw_closure),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/setup/divisions",
                Table(Action::CreateSeason),
            ),
            post(setup::create_division),
        ),
        (
            site(
                Method::GET,
                &format!("{C}/rounds/{{round}}/results"),
                Table(Action::EnterResult),
            ),
            get(crate::results::round::round_results_page),
        ),
        (
            site(
                Method::POST,
                &format!("{C}/rounds/{{round}}/results"),
                Table(Action::EnterResult),
            ),
            post(crate::results::round::save_round_results),
        ),
        (
            site(Method::GET, &format!("{C}/rosters/sheet"), SignedIn),
            get(crate::rosters::sheet::roster_sheet),
        ),
        (
            site(
                Method::GET,
                &format!("{C}/rounds/{{round}}/sheets"),
                Table(Action::EnterResult),
            ),
            get(crate::results::round::round_sheets),
        ),
        (
            site(
                Method::POST,
                &format!("{C}/rounds/{{round}}/results/undo"),
                Table(Action::CorrectResult),
            ),
            post(crate::results::round::undo_round_change),
        ),
        (
            site(
                Method::GET,
                &format!("{C}/pairing"),
                Table(Action::DrawSchedule),
            ),
            get(crate::pairing::page::pairing_page),
        ),
        (
            site(
                Method::POST,
                &format!("{C}/pairing"),
                Table(Action::DrawSchedule),
            ),
            post(crate::pairing::page::pairing_step),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/field",
                Table(Action::DrawSchedule),
            ),
            get(crate::event::field::field_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/field",
                Table(Action::DrawSchedule),
            ),
            post(crate::event::field::plan_field),
        ),
        // AS-13: the handlers check the team's school (a protest names it, not the address).
        (
            site(Method::POST, &format!("{C}/protests"), Guard::SignedIn),
            post(crate::event::protests::lodge),
        ),
        (
            site(
                Method::POST,
                &format!("{C}/protests/{{number}}/reply"),
                Guard::SignedIn,
            ),
            post(crate::event::protests::reply),
        ),
        (
            site(
                Method::POST,
                &format!("{C}/protests/{{number}}/decision"),
                Table(Action::DecideProtest),
            ),
            post(crate::event::protests::decide),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/{season}/event",
                Table(Action::DrawSchedule),
            ),
            get(crate::event::page::event_page),
        ),
        // Issue 32 (item 22): the arbiter's day, every competition's round on one page.
        (
            site(
                Method::GET,
                "/leagues/{league}/{season}/event/today",
                Table(Action::DrawSchedule),
            ),
            get(crate::event::today::today_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/{season}/event",
                Table(Action::DrawSchedule),
            ),
            post(crate::event::page::set_event),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/{season}/settings",
                Table(Action::EditRules),
            ),
            get(setup::settings_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/{season}/settings",
                Table(Action::EditRules),
            ),
            post(setup::save_settings),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/{season}/suspension",
                Table(Action::SuspendSchedule),
            ),
            get(suspension::page::suspension_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/{season}/suspension",
                Table(Action::SuspendSchedule),
            ),
            post(suspension::page::suspend_schedule),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/{season}/send-schedule",
                Table(Action::SendScheduleToSchools),
            ),
            get(schedule_mail::send_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/{season}/send-schedule",
                Table(Action::SendScheduleToSchools),
            ),
            post(schedule_mail::send_schedule),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/{season}/qualification",
                Table(Action::DecidePlayoff),
            ),
            get(season_end::pages::qualification_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/{season}/qualification",
                Table(Action::DecidePlayoff),
            ),
            post(season_end::pages::qualification_step),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/{season}/reports",
                Table(Action::ReadMediaReportDrafts),
            ),
            get(season_end::reports::reports_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/{season}/reports",
                Table(Action::PublishMediaReport),
            ),
            post(season_end::reports::save),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/findings",
                Table(Action::RuleOnViolation),
            ),
            get(findings::findings_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/findings",
                Table(Action::RuleOnViolation),
            ),
            post(findings::rule),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/ledger",
                Table(Action::ReadLedger),
            ),
            get(ledger::page::ledger_page),
        ),
        (
            site(
                Method::POST,
                "/leagues/{league}/ledger",
                Table(Action::RecordLedgerEntry),
            ),
            post(ledger::page::record_entry),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/ledger.csv",
                Table(Action::ReadLedger),
            ),
            get(ledger::csv::ledger_csv),
        ),
        (
            site(Method::GET, "/leagues/{league}/history", history),
            get(history::league_page),
        ),
        (
            site(Method::GET, "/leagues/{league}/history.csv", history),
            get(history::league_csv),
        ),
        (
            site(Method::GET, "/leagues/{league}/{season}/history", history),
            get(history::season_page),
        ),
        (
            site(
                Method::GET,
                "/leagues/{league}/{season}/history.csv",
                history,
            ),
            get(history::season_csv),
        ),
        (
            site(Method::GET, &format!("{C}/history"), history),
            get(history::competition_page),
        ),
        (
            site(Method::GET, &format!("{C}/history.csv"), history),
            get(history::competition_csv),
        ),
        (
            site(Method::GET, &format!("{C}/teams/{{team}}/history"), history),
            get(history::team_page),
        ),
        (
            site(
                Method::GET,
                &format!("{C}/teams/{{team}}/history.csv"),
                history,
            ),
            get(history::team_csv),
        ),
        (
            site(Method::GET, &format!("{M}/history"), history),
            get(history::match_page),
        ),
        (
            site(Method::GET, &format!("{M}/history.csv"), history),
            get(history::match_csv),
        ),
    ]
}

/// The API's write endpoints (registered with the API's OpenAPI router in `api/write.rs`).
pub fn api_writes() -> Vec<Rule> {
    let api = |path: String, action| Rule {
        method: Method::POST,
        path,
        guard: Guard::Table(action),
        via: Via::Api,
        limited: false,
    };
    let m = format!("/api/v1{M}");
    vec![
        api(format!("{m}/result"), Action::EnterResult),
        api(format!("{m}/correction"), Action::CorrectResult),
        api(format!("{m}/confirm"), Action::ConfirmResult),
        api(format!("{m}/dispute"), Action::DisputeResult),
        api(format!("{m}/correction-request"), Action::RequestCorrection),
        api(format!("{m}/penalty-withdrawal"), Action::ApplyMatchForfeit),
        api(format!("{m}/decision"), Action::DecideDispute),
        api(format!("{m}/forfeit"), Action::ApplyMatchForfeit),
        api(
            format!("{m}/late-report"),
            Action::ApplyDoubleForfeitForLateReport,
        ),
        api(format!("{m}/extra-games"), Action::RecordExtraGame),
        api(
            format!("{m}/extra-games/{{game}}/confirm"),
            Action::ConfirmExtraGame,
        ),
        api(
            format!("{m}/extra-games/{{game}}/strike"),
            Action::StrikeExtraGame,
        ),
        api(format!("{m}/adjudication"), Action::AdjudicateGame),
        api(format!("{m}/adjourned-game"), Action::EnterResult),
        api(format!("{m}/game-scores"), Action::UploadGameScore),
        api(format!("{m}/lineups/{{side}}"), Action::SubmitLineup),
        api(
            format!("/api/v1{C}/teams/{{team}}/players"),
            Action::EditRoster,
        ),
        api(
            format!("/api/v1{C}/players/{{player}}/withdrawal"),
            Action::EditRoster,
        ),
        api(
            format!("/api/v1{C}/players/{{player}}/person"),
            Action::EditRoster,
        ),
        api(LEDGER_API.into(), Action::RecordLedgerEntry),
        api(SUSPENSION_API.into(), Action::SuspendSchedule),
        api(PAIRING_API.into(), Action::DrawSchedule),
        api(SETTINGS_API.into(), Action::EditRules),
    ]
}

/// The API's fee ledger (GT-O2): read and written with a token.
pub const LEDGER_API: &str = "/api/v1/leagues/{league}/ledger";

/// The API's suspension of a season's schedule (GT-F5): previewed or applied with a token.
pub const SUSPENSION_API: &str = "/api/v1/leagues/{league}/{season}/suspension";

/// The API's settings of a season (issue 32 item 5): read and changed with a token.
pub const SETTINGS_API: &str = "/api/v1/leagues/{league}/{season}/settings";

/// The API's next round of a team Swiss (issue 17): read and published with a token.
pub const PAIRING_API: &str = "/api/v1/leagues/{league}/{season}/{competition}/pairing";

/// The API's reads that are not public, each needing a token the table allows (registered with
/// the API's OpenAPI router in `api/ledger.rs`).
pub fn api_reads() -> Vec<Rule> {
    let read = |path: &str, action| Rule {
        method: Method::GET,
        path: path.into(),
        guard: Guard::Table(action),
        via: Via::Api,
        limited: false,
    };
    vec![
        read(LEDGER_API, Action::ReadLedger),
        // A pairing is not public until it is published.
        read(PAIRING_API, Action::DrawSchedule),
        read(SETTINGS_API, Action::EditRules),
    ]
}

/// Every guarded route of the site and the API.
pub fn table() -> Vec<Rule> {
    guarded()
        .into_iter()
        .map(|(r, _)| r)
        .chain(api_writes())
        .chain(api_reads())
        .collect()
}
