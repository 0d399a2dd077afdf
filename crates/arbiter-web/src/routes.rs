//! Every route that needs more than the public: forms that change something, pages only some
//! may read, and the API's write endpoints. The router is built from [`guarded`] and the API's
//! list; the permission-matrix test (`tests/web/permissions.rs`) walks [`table`], so a new route
//! without a rule cannot be added.

use arbiter_core::rules::permissions::Action;
use axum::handler::Handler;
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

/// A page the guard lets read: GET at `path`.
fn page<H, T>(path: &str, guard: Guard, handler: H) -> (Rule, MethodRouter<AppState>)
where
    H: Handler<T, AppState>,
    T: 'static,
{
    (site(Method::GET, path, guard), get(handler))
}

/// A form the guard lets submit: POST at `path`.
fn form<H, T>(path: &str, guard: Guard, handler: H) -> (Rule, MethodRouter<AppState>)
where
    H: Handler<T, AppState>,
    T: 'static,
{
    (site(Method::POST, path, guard), post(handler))
}

/// Sign-in and reset: the route's attempts are limited per address.
fn limited((mut rule, handler): (Rule, MethodRouter<AppState>)) -> (Rule, MethodRouter<AppState>) {
    rule.limited = true;
    (rule, handler)
}

/// The site's guarded routes with their handlers.
pub fn guarded() -> Vec<(Rule, MethodRouter<AppState>)> {
    use Guard::{Anyone, SignedIn, Table};
    let history = Table(Action::ReadHistory);
    vec![
        page("/sign-in", Anyone, account::sign_in_form),
        limited(form("/sign-in", Anyone, account::sign_in)),
        form("/sign-out", SignedIn, account::sign_out),
        page("/invites/{token}", Anyone, account::invite_form),
        form("/invites/{token}", Anyone, account::accept_invite),
        page("/reset", Anyone, account::reset_form),
        limited(form("/reset", Anyone, account::reset_request)),
        page("/reset/{token}", Anyone, account::reset_link_form),
        limited(form("/reset/{token}", Anyone, account::reset_with_link)),
        page("/account", SignedIn, account::account_page),
        form("/account/notices", SignedIn, account::set_notices),
        form(
            "/account/tokens",
            Table(Action::CreateApiToken),
            account::create_token,
        ),
        form(
            "/account/tokens/{token}/revoke",
            Table(Action::CreateApiToken),
            account::revoke_token,
        ),
        page(
            "/leagues/{league}/people",
            Table(Action::InviteUser),
            people::people_page,
        ),
        form(
            "/leagues/{league}/invites",
            Table(Action::InviteUser),
            people::invite,
        ),
        form(
            "/leagues/{league}/people/{membership}/revoke",
            Table(Action::InviteUser),
            people::revoke_role,
        ),
        form(
            "/leagues/{league}/invites/{invite}/withdraw",
            Table(Action::InviteUser),
            people::withdraw_invite,
        ),
        form(
            &format!("{M}/result"),
            Table(Action::EnterResult),
            matches::enter_result,
        ),
        form(
            &format!("{M}/correction"),
            Table(Action::CorrectResult),
            matches::correct_result,
        ),
        form(
            &format!("{M}/confirm"),
            Table(Action::ConfirmResult),
            matches::confirm_result,
        ),
        form(
            &format!("{M}/dispute"),
            Table(Action::DisputeResult),
            matches::dispute_result,
        ),
        form(
            &format!("{M}/penalty-withdrawal"),
            Table(Action::ApplyMatchForfeit),
            matches::withdraw_penalty,
        ),
        form(
            &format!("{M}/correction-request"),
            Table(Action::RequestCorrection),
            matches::request_correction,
        ),
        form(
            &format!("{M}/move"),
            Table(Action::PostponeMatch),
            matches::move_match,
        ),
        form(
            &format!("{M}/lineups/{{side}}"),
            Table(Action::SubmitLineup),
            matches::name_lineup,
        ),
        form(
            &format!("{M}/decision"),
            Table(Action::DecideDispute),
            matches::decide_dispute,
        ),
        form(
            &format!("{M}/forfeit"),
            Table(Action::ApplyMatchForfeit),
            matches::declare_forfeit,
        ),
        form(
            &format!("{M}/extra-games"),
            Table(Action::RecordExtraGame),
            matches::record_extra_game,
        ),
        form(
            &format!("{M}/extra-games/{{game}}/confirm"),
            Table(Action::ConfirmExtraGame),
            matches::confirm_extra_game,
        ),
        form(
            &format!("{M}/extra-games/{{game}}/strike"),
            Table(Action::StrikeExtraGame),
            matches::strike_extra_game,
        ),
        form(
            &format!("{M}/adjudication"),
            Table(Action::AdjudicateGame),
            matches::adjudicate_game,
        ),
        form(
            &format!("{M}/adjourned-game"),
            Table(Action::EnterResult),
            matches::finish_adjourned_game,
        ),
        form(
            &format!("{M}/game-scores"),
            Table(Action::UploadGameScore),
            matches::upload_game_score,
        ),
        form(
            &format!("{M}/late-report"),
            Table(Action::ApplyDoubleForfeitForLateReport),
            matches::late_report_forfeit,
        ),
        page(
            "/leagues/{league}/rosters",
            Table(Action::EditRoster),
            rosters::rosters_page,
        ),
        form(
            "/leagues/{league}/rosters",
            Table(Action::EditRoster),
            rosters::add_players,
        ),
        form(
            "/leagues/{league}/rosters/player",
            Table(Action::EditRoster),
            rosters::change_player,
        ),
        form(
            "/leagues/{league}/rosters/person",
            Table(Action::EditRoster),
            rosters::link_person,
        ),
        page(
            "/leagues/{league}/setup",
            Table(Action::CreateSeason),
            setup::setup_page,
        ),
        form(
            "/leagues/{league}/setup/seasons",
            Table(Action::CreateSeason),
            setup::create_season,
        ),
        form(
            "/leagues/{league}/setup/time-zone",
            Table(Action::CreateSeason),
            setup::set_time_zone,
        ),
        form(
            "/leagues/{league}/setup/schools",
            Table(Action::CreateSeason),
            setup::add_school,
        ),
        form(
            "/leagues/{league}/setup/schools/address",
            Table(Action::CreateSeason),
            setup::set_school_address,
        ),
        form(
            "/leagues/{league}/setup/closures",
            Table(Action::DrawSchedule),
            setup::add_closure,
        ),
        page(
            "/leagues/{league}/setup/rating-lists",
            Table(Action::EditRules),
            setup::rating_lists_page,
        ),
        form(
            "/leagues/{league}/setup/rating-lists",
            Table(Action::EditRules),
            setup::import_rating_list,
        ),
        form(
            "/leagues/{league}/setup/closures/withdraw",
            Table(Action::DrawSchedule),
            setup::withdraw_closure,
        ),
        form(
            "/leagues/{league}/setup/divisions",
            Table(Action::CreateSeason),
            setup::create_division,
        ),
        page(
            &format!("{C}/rounds/{{round}}/results"),
            Table(Action::EnterResult),
            crate::results::round::round_results_page,
        ),
        form(
            &format!("{C}/rounds/{{round}}/results"),
            Table(Action::EnterResult),
            crate::results::round::save_round_results,
        ),
        page(
            &format!("{C}/rosters/sheet"),
            SignedIn,
            crate::rosters::sheet::roster_sheet,
        ),
        page(
            &format!("{C}/rounds/{{round}}/sheets"),
            Table(Action::EnterResult),
            crate::results::round::round_sheets,
        ),
        form(
            &format!("{C}/rounds/{{round}}/results/undo"),
            Table(Action::CorrectResult),
            crate::results::round::undo_round_change,
        ),
        page(
            &format!("{C}/pairing"),
            Table(Action::DrawSchedule),
            crate::pairing::page::pairing_page,
        ),
        form(
            &format!("{C}/pairing"),
            Table(Action::DrawSchedule),
            crate::pairing::page::pairing_step,
        ),
        page(
            "/leagues/{league}/field",
            Table(Action::DrawSchedule),
            crate::event::field::field_page,
        ),
        form(
            "/leagues/{league}/field",
            Table(Action::DrawSchedule),
            crate::event::field::plan_field,
        ),
        // AS-13: the handlers check the team's school (a protest names it, not the address).
        form(
            &format!("{C}/protests"),
            Guard::SignedIn,
            crate::event::protests::lodge,
        ),
        form(
            &format!("{C}/protests/{{number}}/reply"),
            Guard::SignedIn,
            crate::event::protests::reply,
        ),
        form(
            &format!("{C}/protests/{{number}}/decision"),
            Table(Action::DecideProtest),
            crate::event::protests::decide,
        ),
        page(
            "/leagues/{league}/{season}/event",
            Table(Action::DrawSchedule),
            crate::event::page::event_page,
        ),
        // Issue 32 (item 22): the arbiter's day, every competition's round on one page.
        page(
            "/leagues/{league}/{season}/event/today",
            Table(Action::DrawSchedule),
            crate::event::today::today_page,
        ),
        form(
            "/leagues/{league}/{season}/event",
            Table(Action::DrawSchedule),
            crate::event::page::set_event,
        ),
        page(
            "/leagues/{league}/{season}/settings",
            Table(Action::EditRules),
            setup::settings_page,
        ),
        form(
            "/leagues/{league}/{season}/settings",
            Table(Action::EditRules),
            setup::save_settings,
        ),
        page(
            "/leagues/{league}/{season}/suspension",
            Table(Action::SuspendSchedule),
            suspension::page::suspension_page,
        ),
        form(
            "/leagues/{league}/{season}/suspension",
            Table(Action::SuspendSchedule),
            suspension::page::suspend_schedule,
        ),
        page(
            "/leagues/{league}/{season}/send-schedule",
            Table(Action::SendScheduleToSchools),
            schedule_mail::send_page,
        ),
        form(
            "/leagues/{league}/{season}/send-schedule",
            Table(Action::SendScheduleToSchools),
            schedule_mail::send_schedule,
        ),
        page(
            "/leagues/{league}/{season}/qualification",
            Table(Action::DecidePlayoff),
            season_end::pages::qualification_page,
        ),
        form(
            "/leagues/{league}/{season}/qualification",
            Table(Action::DecidePlayoff),
            season_end::pages::qualification_step,
        ),
        page(
            "/leagues/{league}/{season}/reports",
            Table(Action::ReadMediaReportDrafts),
            season_end::reports::reports_page,
        ),
        form(
            "/leagues/{league}/{season}/reports",
            Table(Action::PublishMediaReport),
            season_end::reports::save,
        ),
        page(
            "/leagues/{league}/findings",
            Table(Action::RuleOnViolation),
            findings::findings_page,
        ),
        form(
            "/leagues/{league}/findings",
            Table(Action::RuleOnViolation),
            findings::rule,
        ),
        page(
            "/leagues/{league}/ledger",
            Table(Action::ReadLedger),
            ledger::page::ledger_page,
        ),
        form(
            "/leagues/{league}/ledger",
            Table(Action::RecordLedgerEntry),
            ledger::page::record_entry,
        ),
        page(
            "/leagues/{league}/ledger.csv",
            Table(Action::ReadLedger),
            ledger::csv::ledger_csv,
        ),
        page("/leagues/{league}/history", history, history::league_page),
        page(
            "/leagues/{league}/history.csv",
            history,
            history::league_csv,
        ),
        page(
            "/leagues/{league}/{season}/history",
            history,
            history::season_page,
        ),
        page(
            "/leagues/{league}/{season}/history.csv",
            history,
            history::season_csv,
        ),
        page(&format!("{C}/history"), history, history::competition_page),
        page(
            &format!("{C}/history.csv"),
            history,
            history::competition_csv,
        ),
        page(
            &format!("{C}/teams/{{team}}/history"),
            history,
            history::team_page,
        ),
        page(
            &format!("{C}/teams/{{team}}/history.csv"),
            history,
            history::team_csv,
        ),
        page(&format!("{M}/history"), history, history::match_page),
        page(&format!("{M}/history.csv"), history, history::match_csv),
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
        api(RATING_LISTS_API.into(), Action::EditRules),
    ]
}

/// The API's rating lists of a league (issue 34): imported with a token.
pub const RATING_LISTS_API: &str = "/api/v1/leagues/{league}/rating-lists";

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
