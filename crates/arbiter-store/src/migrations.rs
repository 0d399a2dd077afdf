//! The migrations, compiled into the binary so that a deployed `arbiter` needs no folder beside
//! it. Each backend has its own list; `tests/store.rs` checks each list against its folder.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType};

/// One migration file: its version, description and SQL (`0001_initial.sql`).
pub type EmbeddedMigration = (i64, &'static str, &'static str);

pub const SQLITE: &[EmbeddedMigration] = &[
    (
        1,
        "initial",
        include_str!("../migrations/sqlite/0001_initial.sql"),
    ),
    (
        2,
        "accounts",
        include_str!("../migrations/sqlite/0002_accounts.sql"),
    ),
    (
        3,
        "sessions",
        include_str!("../migrations/sqlite/0003_sessions.sql"),
    ),
    (
        4,
        "reset_requests",
        include_str!("../migrations/sqlite/0004_reset_requests.sql"),
    ),
    (
        5,
        "site_secrets",
        include_str!("../migrations/sqlite/0005_site_secrets.sql"),
    ),
    (
        6,
        "invite_withdrawals",
        include_str!("../migrations/sqlite/0006_invite_withdrawals.sql"),
    ),
    (
        7,
        "bye_kind_spelling",
        include_str!("../migrations/sqlite/0007_bye_kind_spelling.sql"),
    ),
    (
        8,
        "player_records",
        include_str!("../migrations/sqlite/0008_player_records.sql"),
    ),
    (
        9,
        "lineups",
        include_str!("../migrations/sqlite/0009_lineups.sql"),
    ),
    (
        10,
        "violation_rulings",
        include_str!("../migrations/sqlite/0010_violation_rulings.sql"),
    ),
    (
        11,
        "match_dates",
        include_str!("../migrations/sqlite/0011_match_dates.sql"),
    ),
    (
        12,
        "ledger",
        include_str!("../migrations/sqlite/0012_ledger.sql"),
    ),
    (
        13,
        "season_closures",
        include_str!("../migrations/sqlite/0013_season_closures.sql"),
    ),
    (
        14,
        "player_school",
        include_str!("../migrations/sqlite/0014_player_school.sql"),
    ),
    (
        15,
        "result_basis",
        include_str!("../migrations/sqlite/0015_result_basis.sql"),
    ),
    (
        16,
        "unplayed_boards",
        include_str!("../migrations/sqlite/0016_unplayed_boards.sql"),
    ),
    (
        17,
        "notice_stops",
        include_str!("../migrations/sqlite/0017_notice_stops.sql"),
    ),
    (
        18,
        "extra_games",
        include_str!("../migrations/sqlite/0018_extra_games.sql"),
    ),
    (
        19,
        "late_arrival",
        include_str!("../migrations/sqlite/0019_late_arrival.sql"),
    ),
    (
        20,
        "unfinished_games",
        include_str!("../migrations/sqlite/0020_unfinished_games.sql"),
    ),
    (
        21,
        "game_scores",
        include_str!("../migrations/sqlite/0021_game_scores.sql"),
    ),
    (
        22,
        "season_end",
        include_str!("../migrations/sqlite/0022_season_end.sql"),
    ),
    (
        23,
        "event_days",
        include_str!("../migrations/sqlite/0023_event_days.sql"),
    ),
    (
        24,
        "deciding_game_corrections",
        include_str!("../migrations/sqlite/0024_deciding_game_corrections.sql"),
    ),
    (
        25,
        "shared_rate_limits",
        include_str!("../migrations/sqlite/0025_shared_rate_limits.sql"),
    ),
    (
        26,
        "extra_game_events",
        include_str!("../migrations/sqlite/0026_extra_game_events.sql"),
    ),
    (
        27,
        "league_time_zones",
        include_str!("../migrations/sqlite/0027_league_time_zones.sql"),
    ),
];

pub const POSTGRES: &[EmbeddedMigration] = &[
    (
        1,
        "initial",
        include_str!("../migrations/postgres/0001_initial.sql"),
    ),
    (
        2,
        "accounts",
        include_str!("../migrations/postgres/0002_accounts.sql"),
    ),
    (
        3,
        "sessions",
        include_str!("../migrations/postgres/0003_sessions.sql"),
    ),
    (
        4,
        "reset_requests",
        include_str!("../migrations/postgres/0004_reset_requests.sql"),
    ),
    (
        5,
        "site_secrets",
        include_str!("../migrations/postgres/0005_site_secrets.sql"),
    ),
    (
        6,
        "invite_withdrawals",
        include_str!("../migrations/postgres/0006_invite_withdrawals.sql"),
    ),
    (
        7,
        "bye_kind_spelling",
        include_str!("../migrations/postgres/0007_bye_kind_spelling.sql"),
    ),
    (
        8,
        "player_records",
        include_str!("../migrations/postgres/0008_player_records.sql"),
    ),
    (
        9,
        "lineups",
        include_str!("../migrations/postgres/0009_lineups.sql"),
    ),
    (
        10,
        "violation_rulings",
        include_str!("../migrations/postgres/0010_violation_rulings.sql"),
    ),
    (
        11,
        "match_dates",
        include_str!("../migrations/postgres/0011_match_dates.sql"),
    ),
    (
        12,
        "ledger",
        include_str!("../migrations/postgres/0012_ledger.sql"),
    ),
    (
        13,
        "season_closures",
        include_str!("../migrations/postgres/0013_season_closures.sql"),
    ),
    (
        14,
        "player_school",
        include_str!("../migrations/postgres/0014_player_school.sql"),
    ),
    (
        15,
        "result_basis",
        include_str!("../migrations/postgres/0015_result_basis.sql"),
    ),
    (
        16,
        "unplayed_boards",
        include_str!("../migrations/postgres/0016_unplayed_boards.sql"),
    ),
    (
        17,
        "notice_stops",
        include_str!("../migrations/postgres/0017_notice_stops.sql"),
    ),
    (
        18,
        "extra_games",
        include_str!("../migrations/postgres/0018_extra_games.sql"),
    ),
    (
        19,
        "late_arrival",
        include_str!("../migrations/postgres/0019_late_arrival.sql"),
    ),
    (
        20,
        "unfinished_games",
        include_str!("../migrations/postgres/0020_unfinished_games.sql"),
    ),
    (
        21,
        "game_scores",
        include_str!("../migrations/postgres/0021_game_scores.sql"),
    ),
    (
        22,
        "season_end",
        include_str!("../migrations/postgres/0022_season_end.sql"),
    ),
    (
        23,
        "event_days",
        include_str!("../migrations/postgres/0023_event_days.sql"),
    ),
    (
        24,
        "deciding_game_corrections",
        include_str!("../migrations/postgres/0024_deciding_game_corrections.sql"),
    ),
    (
        25,
        "shared_rate_limits",
        include_str!("../migrations/postgres/0025_shared_rate_limits.sql"),
    ),
    (
        26,
        "extra_game_events",
        include_str!("../migrations/postgres/0026_extra_game_events.sql"),
    ),
    (
        27,
        "league_time_zones",
        include_str!("../migrations/postgres/0027_league_time_zones.sql"),
    ),
];

/// A `MigrationSource` over one of the lists above.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Embedded(pub &'static [EmbeddedMigration]);

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|(version, description, sql)| {
                    Migration::new(
                        *version,
                        Cow::Borrowed(*description),
                        MigrationType::Simple,
                        Cow::Borrowed(*sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// A migrator over `list`: one of the lists above, or its first migrations, as a build of that
/// time had them (the upgrade and restore tests make databases of every earlier version).
pub async fn migrator(
    list: &'static [EmbeddedMigration],
) -> Result<sqlx::migrate::Migrator, sqlx::migrate::MigrateError> {
    sqlx::migrate::Migrator::new(Embedded(list)).await
}
