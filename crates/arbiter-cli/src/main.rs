//! `arbiter`: the command line of an officer or arbiter. Each command loads files, calls
//! `arbiter-core`, and prints or stores what core decided; no rule lives here.

mod astc;
mod backup;
mod check;
mod database;
mod ledger;
mod load;
mod logs;
mod pair;
mod rating_lists;
mod ratings;
mod render;
mod roster;
mod season_end;
mod settings;
mod setup;
mod suspend;
mod users;

use arbiter_core::record::zone::Zone;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};

use arbiter_core::pairing::schedule::{self, Cycles};
use arbiter_core::rules::criteria::CriterionSpec;

#[derive(Debug, Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Runs chess team competitions by their rulebook (GTHSCL, ASTC, FIDE team events)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Ranks a competition (competition JSON or FIDE TRF) by its ruleset's criteria.
    Standings {
        /// A competition JSON file (arbiter/competition@1) or a TRF file.
        file: PathBuf,
        /// A preset (astc, gthscl, fide-team) or a ruleset TOML file; overrides the file's own.
        #[arg(long)]
        rules: Option<String>,
        /// FIDE tie-breaks after the primary score, comma-separated, e.g. "EDET/P,EMGSB/C1/P".
        /// For a TRF file the default is its 202 record.
        #[arg(long)]
        tiebreaks: Option<String>,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Say for each pair of adjacent teams which criterion separated them, with its rule.
        #[arg(long)]
        explain: bool,
        #[command(flatten)]
        rules_from: load::RulesFrom,
    },
    /// Rates a competition's games (competition JSON or FIDE TRF): each player's rating before,
    /// games, score, expected score, change and rating after, by the ruleset's `[rating]`
    /// system or --system (docs/ratings.md). `arbiter ratings list import` stores a league's
    /// published rating list (docs/rulesets.md).
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Ratings {
        #[command(subcommand)]
        command: Option<RatingsCommand>,
        /// A competition JSON file (arbiter/competition@1) or a TRF file.
        #[arg(required = true)]
        file: Option<PathBuf>,
        /// The rating system; by default the ruleset's (`league` in gthscl, `fide` otherwise).
        #[arg(long, value_enum)]
        system: Option<ratings::SystemName>,
        /// A preset (astc, gthscl, fide-team) or a ruleset TOML file; overrides the file's own.
        #[arg(long)]
        rules: Option<String>,
        /// `trf`: the FIDE rating report, the event as TRF with each player's rating before it
        /// (rated by B.02).
        #[arg(long, value_enum, default_value_t = ratings::RatingsFormat::Table)]
        format: ratings::RatingsFormat,
        /// Each player's rating at the start of the next season instead (GT-R1, GT-R2, GT-R3),
        /// with the rule that decided it: the list to read before a season rolls over.
        #[arg(long)]
        next_season: bool,
        #[command(flatten)]
        rules_from: load::RulesFrom,
    },
    /// Pairs a team Swiss round by FIDE C.04.6 (competition JSON or FIDE TRF), from the rounds
    /// before it; `--check` says of every round already paired whether it is C.04.6's pairing.
    Pair(pair::PairArgs),
    /// Lists everything competition files break of their rules, errors and violations alike,
    /// without stopping at the first: the record's problems, lineups out of board order
    /// (GT-M11, GT-M13, AS-10), sister teams (GT-M14), and, across several files of one season
    /// or event, players bound to their first team (GT-M15) or in two competitions at once
    /// (AS-3). Exit status 1 when an error or a violation is found.
    Check {
        /// Competition JSON or TRF files: one competition, or the season's or event's all.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// A preset (astc, gthscl, fide-team) or a ruleset TOML file; overrides the files' own.
        #[arg(long)]
        rules: Option<String>,
        #[arg(long, value_enum, default_value_t = check::CheckFormat::Text)]
        format: check::CheckFormat,
        /// A published rating list and the day it is in force from, `FILE@YYYY-MM-DD` (FIDE's
        /// .xml or .txt, or a .csv of id, name, rating): read when the ruleset's `[lineup]
        /// ratings = "list"`; repeat it for each list of the season.
        #[arg(long = "rating-list", value_name = "FILE@DATE")]
        rating_lists: Vec<rating_lists::ListArg>,
        #[command(flatten)]
        rules_from: load::RulesFrom,
    },
    /// Draws a lot for the standings (`LOT:seed`, docs/rulesets.md): prints a seed from the
    /// operating system's random bytes and the criterion to record in the ruleset's criteria,
    /// with the order it draws of `--teams` teams as listed when given.
    DrawLot {
        /// The number of teams, to print the order the seed draws of them (1 is the first
        /// listed).
        #[arg(long)]
        teams: Option<usize>,
    },
    /// Prints a round-robin schedule from the FIDE Berger tables (AS-19). `arbiter schedule
    /// suspend` suspends a stored season's schedule for severe weather (GT-F5).
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Schedule {
        #[command(subcommand)]
        command: Option<ScheduleCommand>,
        /// The number of teams; an odd number gives a bye each round.
        #[arg(long, required = true)]
        teams: Option<u32>,
        /// Two cycles: the second with colours reversed.
        #[arg(long)]
        double: bool,
        #[arg(long, value_enum, default_value_t = ScheduleFormat::Table)]
        format: ScheduleFormat,
    },
    /// Stores a competition file (competition JSON or TRF) in a league of the database
    /// (`--league`), or converts it into a competition JSON file (`-o`).
    Import {
        /// A competition JSON file (arbiter/competition@1) or a TRF file.
        file: PathBuf,
        /// The competition JSON file to write.
        #[arg(short, long, required_unless_present = "league")]
        output: Option<PathBuf>,
        /// The league to store the competition in (created if new).
        #[arg(long)]
        league: Option<String>,
        /// A new league's name; default: its ruleset's description (a league's own file, or
        /// GTHSCL's), else the competition's name.
        #[arg(long, requires = "league")]
        league_name: Option<String>,
        /// The league's season (created if new); default: its latest season.
        #[arg(long, requires = "league")]
        season: Option<String>,
        /// The competition's address in the season; default: made from its name.
        #[arg(long, requires = "league")]
        competition: Option<String>,
        #[command(flatten)]
        rules_from: load::RulesFrom,
        #[command(flatten)]
        database: database::Database,
    },
    /// Writes a competition out in another format: a file's, or one stored in the database
    /// (`--league` and `--competition`).
    Export {
        /// A competition JSON file or a TRF file to convert.
        #[arg(required_unless_present = "league")]
        file: Option<PathBuf>,
        /// The format to write.
        #[arg(long, value_enum, default_value_t = ExportFormat::Trf)]
        format: ExportFormat,
        /// The file to write.
        #[arg(short, long)]
        output: PathBuf,
        /// The league of a stored competition.
        #[arg(long, conflicts_with = "file", requires = "competition")]
        league: Option<String>,
        /// The stored competition's address.
        #[arg(long, requires = "league")]
        competition: Option<String>,
        #[command(flatten)]
        rules_from: load::RulesFrom,
        #[command(flatten)]
        database: database::Database,
    },
    /// Serves the web site and the JSON API from the database. Mail (invitations, reset links)
    /// goes to ARBITER_SMTP_URL when set, else into the folder ARBITER_MAIL_DIR (`mail`).
    Serve {
        /// The address and port to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: std::net::SocketAddr,
        /// The site's public address, for links in mail (`https://…` also marks cookies
        /// Secure); default: http:// and the bind address.
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
        /// The address of a reverse proxy in front of the site (repeat for several): only its
        /// `X-Forwarded-For` is believed, for the sign-in rate limits.
        #[arg(long, value_name = "IP")]
        trust_proxy: Vec<std::net::IpAddr>,
        /// Connections held open at once, from everyone (default: an eighth below the open-file
        /// limit, at most 2048); when all are taken a newcomer replaces the oldest idle one,
        /// and if none is idle it is answered 503 at once.
        // No default_value_t: that would read the open-file limit on every command's start.
        #[arg(long, value_name = "N")]
        max_connections: Option<usize>,
        /// Connections held open at once from one address (a trusted proxy is not counted;
        /// default: 128).
        #[arg(long, value_name = "N")]
        max_connections_per_address: Option<usize>,
        /// Start the site's clock at this moment (e.g. 2026-12-07T08:40+10:30) and run it on
        /// from there: a rehearsal of an event's day, whose roster lock, protests and lineup
        /// deadlines (AS-11..AS-13) are counted by it. Default: the system's clock.
        #[arg(long, value_name = "TIME")]
        now: Option<jiff::Timestamp>,
        /// The local time of day, in each league's zone, at which the server mails GT-P2's
        /// reminders of results due tomorrow itself; `off` leaves them to `arbiter remind`.
        #[arg(long, value_name = "HH:MM", default_value = "17:00")]
        remind_at: String,
        /// How many MiB the competitions' computed views and their drawn pages may hold
        /// together; past it the least recently read are dropped and loaded again when read.
        #[arg(long, value_name = "MIB", default_value_t = arbiter_web::DEFAULT_CACHE_MIB)]
        cache_mib: usize,
        #[command(flatten)]
        database: database::Database,
    },
    /// Copies the SQLite database to a new file while `arbiter serve` goes on serving it: one
    /// consistent moment of it, checked. For PostgreSQL it prints the `pg_dump` command.
    Backup {
        /// The backup file to write; it must not exist yet.
        #[arg(short, long, value_name = "BACKUP")]
        output: PathBuf,
        #[command(flatten)]
        database: database::Database,
    },
    /// Puts a backup back as the SQLite database: checked first (SQLite's integrity check, the
    /// schema version it holds), an older one brought up to this version. Refused while a
    /// server has the database open, and when it exists unless --force.
    Restore {
        /// The backup file (from `arbiter backup`, or a copy of a stopped database).
        backup: PathBuf,
        /// Replace the database that is there (stop `arbiter serve` first).
        #[arg(long)]
        force: bool,
        #[command(flatten)]
        database: database::Database,
    },
    /// Accounts: `arbiter user add` makes a league's first account; the rest are invited.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
    /// Rosters: `arbiter roster import FILE` adds players from a CSV file, every mistake listed
    /// before anything is written; `arbiter roster people` and `arbiter roster link` keep who is
    /// one person across a season's competitions (AS-3, GT-M15).
    Roster {
        #[command(subcommand)]
        command: RosterCommand,
    },
    /// Leagues: `arbiter league create` makes one with nothing in it yet.
    League {
        #[command(subcommand)]
        command: LeagueCommand,
    },
    /// Schools: `arbiter school set --address` sets where one's home matches are played
    /// (GT-M1, issue 32); `arbiter school list` lists them with their addresses.
    School {
        #[command(subcommand)]
        command: SchoolCommand,
    },
    /// Seasons: `arbiter season create` makes one with its days and closures (GT-M2).
    Season {
        #[command(subcommand)]
        command: SeasonCommand,
    },
    /// Divisions: `arbiter division create FILE` draws one from a CSV file of teams (GT-O1).
    Division {
        #[command(subcommand)]
        command: DivisionCommand,
    },
    /// The Treasurer's fee ledger of a season (GT-O2): per school the entry fee due, paid,
    /// refunded and still owed; the prize purchases; the league's totals. `arbiter ledger
    /// record` records a payment, a refund, a prize purchase or a reversal.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Ledger {
        #[command(subcommand)]
        command: Option<LedgerCommand>,
        /// The league's address (its slug).
        #[arg(long, required = true)]
        league: Option<String>,
        /// The season's address; default: the league's latest.
        #[arg(long)]
        season: Option<String>,
        /// `csv`: the schools' lines; `json`: everything, every entry too.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        #[command(flatten)]
        database: database::Database,
    },
    /// A season's settings (issue 32 item 5): the entry fee (GT-O2), the playoff qualifiers and
    /// format (GT-F3), GT-P2's days, each with its rule. `arbiter settings set --entry-fee 12.50`
    /// changes them for every competition of the season, in the history with the reason.
    #[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
    Settings {
        #[command(subcommand)]
        command: Option<SettingsCommand>,
        /// The league's address (its slug).
        #[arg(long, required = true)]
        league: Option<String>,
        /// The season's address; default: the league's latest.
        #[arg(long)]
        season: Option<String>,
        #[command(flatten)]
        database: database::Database,
    },
    /// The playoffs (GT-F3): `arbiter playoffs qualify` lists each division's qualifiers and
    /// the seeded field; `arbiter playoffs draw --as EMAIL` draws the bracket (the President).
    Playoffs {
        #[command(subcommand)]
        command: PlayoffsCommand,
    },
    /// The season's awards list (GT-F1, GT-F2, GT-F3): trophies to buy, with each team's players.
    Awards {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's address.
        #[arg(long)]
        season: String,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        #[command(flatten)]
        database: database::Database,
    },
    /// The media reports (GT-O3): `arbiter report draft --moment midway|end` prints the
    /// product's draft, the press release or Markdown.
    Report {
        #[command(subcommand)]
        command: ReportCommand,
    },
    /// The ASTC championship's tools: `arbiter astc field ENTRIES.json` plans a competition's
    /// field (AS-4..AS-8).
    Astc {
        #[command(subcommand)]
        command: AstcCommand,
    },
    /// API tokens: `arbiter token add` makes one for an officer's or an advisor's script.
    Token {
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// An officer's step on one match, taken as a named account through the same checks as
    /// the match page and the API: a forfeit by decision (GT-M3), the double forfeit of a late
    /// report (GT-P4), an adjudication (GT-M20). The history records the officer; the schools
    /// are told by mail as from the site.
    Result {
        #[command(subcommand)]
        command: ResultCommand,
    },
    /// Mails GT-P2's reminders: each advisor whose result (or confirmation) is due tomorrow, in
    /// the league's time zone. Run it once a day, from cron or a systemd timer. Mail goes where
    /// `serve` sends it.
    Remind {
        /// The day it is (YYYY-MM-DD) in every league; default: the clock's date in each
        /// league's time zone.
        #[arg(long, value_name = "DATE")]
        today: Option<jiff::civil::Date>,
        /// The site's public address, for the links in the mails.
        #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
        base_url: String,
        #[command(flatten)]
        database: database::Database,
    },
    /// Creates a fresh demo database (an ASTC championship and a GTHSCL season) and serves it.
    Demo {
        /// The address and port to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: std::net::SocketAddr,
        /// The demo database file; deleted and written anew.
        #[arg(long, value_name = "PATH", default_value = "arbiter-demo.db")]
        db: PathBuf,
        /// Show the season as it stands on this day (YYYY-MM-DD): what is played by then, and
        /// the site's "today" in every league; default: what is played by the date of --now in
        /// UTC, else the clock's date, and each league's today the clock's in its time zone.
        #[arg(long, value_name = "DATE")]
        today: Option<jiff::civil::Date>,
        /// Start the site's clock at this moment (e.g. 2026-12-07T08:40+10:30, before the ASTC's
        /// roster lock) and run it on from there; default: midnight UTC of --today when given,
        /// else the system's clock.
        #[arg(long, value_name = "TIME")]
        now: Option<jiff::Timestamp>,
    },
}

#[derive(Debug, Subcommand)]
enum RatingsCommand {
    /// A league's published rating lists (FIDE's monthly list, a national list), by which
    /// `[lineup] ratings = "list"` orders the boards.
    List {
        #[command(subcommand)]
        command: RatingListCommand,
    },
}

#[derive(Debug, Subcommand)]
enum RatingListCommand {
    /// Stores a rating list in a league, in force from a day, then names the players of the
    /// league's competitions it does not find (by federation id, else name and birth date).
    Import {
        /// FIDE's XML (`players_list_xml.xml`) or TXT (`players_list.txt`) list, or a CSV with
        /// the columns id, name, rating and optionally birth.
        file: PathBuf,
        /// `fide-xml`, `fide-txt` or `csv`; by default from the file's extension.
        #[arg(long)]
        format: Option<String>,
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The first day the list orders boards (YYYY-MM-DD): it stands until a later one.
        #[arg(long, value_name = "DATE")]
        in_force_from: jiff::civil::Date,
        /// The list's name, as pages and messages give it (`FIDE March 2027`); by default the
        /// file's name.
        #[arg(long)]
        name: Option<String>,
        #[command(flatten)]
        database: database::Database,
    },
    /// Lists a league's rating lists: name, day in force from, format, players.
    Show {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum RosterCommand {
    /// Adds the players of a CSV file (columns name, school, and team, grade or birth_date,
    /// rating, provisional) to a stored competition's rosters, each to their school's team.
    /// Every mistake is listed with its line, and then nothing is written.
    Import {
        /// The CSV file, a header line first.
        file: PathBuf,
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The competition's address in the league.
        #[arg(long)]
        competition: String,
        /// List what would be added and write nothing.
        #[arg(long)]
        preview: bool,
        /// Why the players are added, kept in the history.
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        database: database::Database,
    },
    /// Withdraws a player from a stored competition's roster from a day: named in no lineup
    /// from then; the games they played stay, and the history keeps why.
    Withdraw {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The competition's address in the league.
        #[arg(long)]
        competition: String,
        /// The player's id in the competition.
        #[arg(long)]
        player: String,
        /// The first day the player no longer plays (YYYY-MM-DD).
        #[arg(long, value_name = "DATE")]
        on: jiff::civil::Date,
        /// Why, kept in the history.
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        database: database::Database,
    },
    /// Lists the players of a stored competition who are one person with a player of another
    /// competition of the season, and those a name with a birth date or a school suggests may
    /// be (one player, one person: never linked by name alone), each with the command to link.
    People {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The competition's address in the league.
        #[arg(long)]
        competition: String,
        #[command(flatten)]
        database: database::Database,
    },
    /// Links a player of a stored competition with a player of another competition of the
    /// season as one person, which GT-M15 and AS-3 read; refused under AS-3 when the two
    /// competitions share dates. `--to own` makes them a person of their own again.
    Link {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The competition's address in the league.
        #[arg(long)]
        competition: String,
        /// The player's id in the competition.
        #[arg(long)]
        player: String,
        /// The same person: `COMPETITION/PLAYER` (another competition's slug and its player's
        /// id), or `own`.
        #[arg(long, value_name = "COMPETITION/PLAYER")]
        to: String,
        /// How the officer knows, kept in the history.
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum LeagueCommand {
    /// Creates a league (or, with --event, an event such as a championship).
    Create {
        /// Its address: lowercase letters, digits and hyphens.
        #[arg(long)]
        slug: String,
        /// Its name, as pages print it.
        #[arg(long)]
        name: String,
        /// A championship held once (ASTC), not a league of seasons.
        #[arg(long)]
        event: bool,
        /// A line about it for its home page.
        #[arg(long, default_value = "")]
        description: String,
        /// The IANA time zone its days and times are counted in (RULES.md, "Time"): the
        /// GTHSCL's America/New_York, an ASTC hall's Australia/Adelaide.
        #[arg(long, value_name = "ZONE", default_value = "UTC", value_parser = Zone::named)]
        time_zone: Zone,
        #[command(flatten)]
        database: database::Database,
    },
    /// Changes a league's settings: its time zone.
    Set {
        /// The league's address (its slug).
        #[arg(long)]
        slug: String,
        /// The IANA time zone its days and times are counted in from now on (RULES.md,
        /// "Time"): GT-P2's deadlines, the reminders, an event's hall clock.
        #[arg(long, value_name = "ZONE", value_parser = Zone::named)]
        time_zone: Zone,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum SchoolCommand {
    /// Sets a school's postal address, where its home matches are played (GT-M1): its teams'
    /// pages and the calendar feeds show it. The change is kept in the history.
    Set {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The school's name, as `arbiter school list` prints it.
        #[arg(long)]
        school: String,
        /// The address, a line of it a line (or on one line, parted by commas); empty clears it.
        #[arg(long, value_name = "TEXT")]
        address: String,
        #[command(flatten)]
        database: database::Database,
    },
    /// Lists a league's schools with their addresses.
    List {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum SeasonCommand {
    /// Creates a season of a league with its first and last days and, from a CSV file
    /// (columns from, to, reason), the days its schools are closed (GT-M2).
    Create {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's name, such as 2027-28.
        #[arg(long)]
        name: String,
        /// Its address; default: from the name.
        #[arg(long)]
        slug: Option<String>,
        /// The first day of the season (YYYY-MM-DD).
        #[arg(long, value_name = "DATE")]
        starts: jiff::civil::Date,
        /// The last day of the regular season (YYYY-MM-DD).
        #[arg(long, value_name = "DATE")]
        ends: jiff::civil::Date,
        /// A CSV file of closures: from, to (default: from), reason.
        #[arg(long, value_name = "FILE")]
        closures: Option<PathBuf>,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum DivisionCommand {
    /// Creates a division from a CSV file of teams (columns school and team; the team's name
    /// defaults to the school's), drawn into a round robin by the Berger tables on the season's
    /// match days, never on a closure (GT-M2). A school is one the league knows (letter case and
    /// punctuation aside); one new to the league is added only when its line says yes in a
    /// `new_school` column (or, with `--new-schools`, is any school not known), since each school
    /// pays its own entry fee (GT-O2), and a misspelt one is refused with the school it is close
    /// to. Every mistake is listed at once with the
    /// file's own line (the header is line 1), and then nothing is written.
    Create {
        /// The CSV file, a header line first.
        file: PathBuf,
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's address.
        #[arg(long)]
        season: String,
        /// The division's name, such as Metro.
        #[arg(long)]
        name: String,
        /// Its address; default: from the name.
        #[arg(long)]
        slug: Option<String>,
        /// The ruleset preset.
        #[arg(long, default_value = "gthscl")]
        rules: String,
        /// Once round instead of twice (home and away).
        #[arg(long)]
        single: bool,
        /// Rounds on consecutive match days instead of spread over the season.
        #[arg(long)]
        packed: bool,
        /// At an event: this many rounds on each consecutive day (the ASTC plays 2; their
        /// times are set with `arbiter astc event`).
        #[arg(long, value_name = "N", conflicts_with = "packed")]
        rounds_a_day: Option<u32>,
        /// Number the teams the file's `number` column does not place by lot from this seed
        /// (AS-19: the host or the seeds placed, the rest drawn); default: the file's order.
        #[arg(long, value_name = "N")]
        lot_seed: Option<u64>,
        /// The file's schools the league does not know yet are new schools, each with its own
        /// entry fee (GT-O2): a league's first division. A school whose name is close to a known
        /// one still needs `yes` in its line's `new_school` column.
        #[arg(long)]
        new_schools: bool,
        /// Print the schedule and write nothing.
        #[arg(long)]
        preview: bool,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum PlayoffsCommand {
    /// Each division's qualifiers by its final standings, ties the officers must decide, and
    /// the seeded field (GT-F3).
    Qualify {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's address.
        #[arg(long)]
        season: String,
        /// `table` or `json`.
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
        #[command(flatten)]
        database: database::Database,
    },
    /// Draws the bracket and pairs its first round on the playoff calendar (GT-F3, GT-F5).
    Draw {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's address.
        #[arg(long)]
        season: String,
        /// The President's account (email).
        #[arg(long = "as", value_name = "EMAIL")]
        by: String,
        /// The first day of the playoffs (YYYY-MM-DD); default: the day after the divisions'
        /// last match.
        #[arg(long, value_name = "DATE")]
        starts: Option<jiff::civil::Date>,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ReportFormat {
    Text,
    Markdown,
}

#[derive(Debug, Subcommand)]
enum ReportCommand {
    /// The product's draft of the midway or end-of-season report (GT-O3).
    Draft {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's address.
        #[arg(long)]
        season: String,
        /// `midway` or `end`.
        #[arg(long)]
        moment: String,
        #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
        format: ReportFormat,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum SettingsCommand {
    /// Changes settings of every competition of a season, checked as the site's settings page
    /// checks them; each competition's rules become a new version in the history.
    Set {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's address; default: the league's latest.
        #[arg(long)]
        season: Option<String>,
        /// What each school pays once a season, in dollars and cents (GT-O2).
        #[arg(long)]
        entry_fee: Option<String>,
        /// The teams of each division invited to the playoffs, 1 to 16 (GT-F3).
        #[arg(long)]
        qualifiers: Option<String>,
        /// knockout or round_robin (GT-F3).
        #[arg(long)]
        playoff_format: Option<String>,
        /// The days the home team has to enter a result (GT-P2).
        #[arg(long)]
        enter_within_days: Option<String>,
        /// The days the visitors have to confirm or dispute it (GT-P2).
        #[arg(long)]
        confirm_within_days: Option<String>,
        /// The days either school has to ask for a correction (GT-P2).
        #[arg(long)]
        correct_within_days: Option<String>,
        /// Why: the meeting that decided it; kept in the history.
        #[arg(long)]
        reason: Option<String>,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum LedgerCommand {
    /// Records an entry in a season's ledger, checked as the site's form checks it (GT-O2): a
    /// school with a team in the season, an amount in dollars and cents, a day not after today.
    /// Nothing is edited or deleted; a mistake is undone with `--kind reversal --reverses N`.
    Record {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's address; default: the league's latest.
        #[arg(long)]
        season: Option<String>,
        /// payment, refund, prize_purchase, waiver (all or part of a school's fee waived, with
        /// the reason in --note) or reversal.
        #[arg(long)]
        kind: String,
        /// The school that pays, is paid back or has its fee waived (none for a prize purchase or
        /// a reversal).
        #[arg(long)]
        school: Option<String>,
        /// In dollars and cents: 10, 10.50, $10.50 (none for a reversal: it takes its entry's).
        #[arg(long)]
        amount: Option<String>,
        /// The day the money moved, YYYY-MM-DD.
        #[arg(long)]
        on: String,
        /// A cheque number; what a prize purchase bought; why an entry is reversed.
        #[arg(long)]
        note: Option<String>,
        /// For a reversal: the number of the entry it undoes.
        #[arg(long)]
        reverses: Option<u32>,
        #[command(flatten)]
        database: database::Database,
    },
}

/// Which match, as the site addresses it, who acts, and why.
#[derive(Debug, clap::Args)]
struct OfficerArgs {
    /// The league's address (its slug).
    #[arg(long)]
    league: String,
    /// The season's address.
    #[arg(long)]
    season: String,
    /// The division's (competition's) address.
    #[arg(long, visible_alias = "competition")]
    division: String,
    #[arg(long)]
    round: u32,
    /// The home team's id, as in the match page's address.
    #[arg(long)]
    home: String,
    /// The officer's account (email); it acts in the role the permission table allows, the
    /// Vice-President when the President's school plays (GT-O3).
    #[arg(long = "as", value_name = "EMAIL")]
    by: String,
    /// Why, kept in the history and told to the schools: required for a decision or a
    /// correction; for a lineup, why it is accepted after its deadline (AS-11).
    #[arg(long)]
    reason: Option<String>,
    /// GT-M5: take a step that drops a team (its match forfeits reaching the league's limit),
    /// having read the warning it is refused with without this.
    #[arg(long)]
    acknowledge_drop: bool,
    /// The day it is (YYYY-MM-DD), for the deadlines; default: the clock's date.
    #[arg(long, value_name = "DATE")]
    today: Option<jiff::civil::Date>,
    /// The moment it is (e.g. 2026-12-07T09:05+10:30), for an event's deadlines (AS-11);
    /// default: the clock's.
    #[arg(long, value_name = "TIME")]
    now: Option<jiff::Timestamp>,
    /// The site's public address, for the links in the mails.
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
    base_url: String,
    #[command(flatten)]
    database: database::Database,
}

impl OfficerArgs {
    fn into_asked(self) -> database::OfficerAsked {
        database::OfficerAsked {
            address: arbiter_web::MatchAddress {
                league: self.league,
                season: self.season,
                competition: self.division,
                round: self.round,
                home: self.home,
            },
            by: self.by,
            reason: self.reason,
            acknowledge_drop: self.acknowledge_drop,
            today: self.today,
            now: self.now,
            base_url: self.base_url,
            database: self.database,
        }
    }
}

#[derive(Debug, Subcommand)]
enum ResultCommand {
    /// GT-M3: the match forfeited by decision: the offending team loses it by default.
    Forfeit {
        /// The team that offended: home or away.
        #[arg(long)]
        offender: String,
        #[command(flatten)]
        at: OfficerArgs,
    },
    /// GT-P4: a match whose result was not reported in time, scored a double forfeit.
    LateReport {
        #[command(flatten)]
        at: OfficerArgs,
    },
    /// GT-M3, GT-P4: withdraws the forfeit by decision or late report's double forfeit in force,
    /// with --reason: the match is to be reported again, and a team it dropped is back (GT-M5).
    WithdrawPenalty {
        #[command(flatten)]
        at: OfficerArgs,
    },
    /// GT-M20: the President's decision on a game sent for adjudication.
    Adjudicate {
        #[arg(long)]
        board: u32,
        /// 1-0, 1/2-1/2 or 0-1, from the home player's side.
        #[arg(long)]
        result: String,
        #[command(flatten)]
        at: OfficerArgs,
    },
    /// The match's result entered by the arbiter at an event (GT-M1), or corrected (with
    /// --reason, GT-P2), through the round page's checks.
    Enter {
        /// Every board, board 1 first, one key a board from the home side: 1 (home won),
        /// 0 (visitors won), = (drawn), + or - (won by forfeit), -- (double forfeit); e.g. "1 = 0 1".
        #[arg(long, allow_hyphen_values = true)]
        boards: String,
        #[command(flatten)]
        at: OfficerArgs,
    },
    /// GT-P3, GT-P2: confirms an extra game the other school entered, so that it counts (the
    /// school that did not enter it, or an officer).
    ConfirmExtra {
        /// The extra game's number on the match page (1 is the first).
        #[arg(long)]
        game: u32,
        #[command(flatten)]
        at: OfficerArgs,
    },
    /// GT-P3: strikes an extra game out, with --reason kept beside it; it no longer counts.
    StrikeExtra {
        /// The extra game's number on the match page (1 is the first).
        #[arg(long)]
        game: u32,
        #[command(flatten)]
        at: OfficerArgs,
    },
    /// AS-11: a team's lineup for the match, named to the arbiter before its deadline; after
    /// it, only the arbiter may accept it, with --reason.
    Lineup {
        /// home or away.
        #[arg(long)]
        side: String,
        /// The players' ids, board 1 first, comma-separated.
        #[arg(long, value_delimiter = ',')]
        players: Vec<String>,
        #[command(flatten)]
        at: OfficerArgs,
    },
}

#[derive(Debug, Subcommand)]
enum ScheduleCommand {
    /// GT-F5: suspends a season's schedule for severe weather and resumes it. Every match still
    /// to play from --from moves forward by the league's match days (school days only, never a
    /// closure) from --from until --resume-on, so the season keeps its order; played matches
    /// stay. Prints every match that moves, old day and new; refused, with every reason, when a
    /// match would move past the season's last day. Each moved match keeps the reason in its
    /// history.
    Suspend {
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The season's address.
        #[arg(long)]
        season: String,
        /// The first day of the suspension (YYYY-MM-DD).
        #[arg(long, value_name = "DATE")]
        from: jiff::civil::Date,
        /// The day play resumes (YYYY-MM-DD).
        #[arg(long, value_name = "DATE")]
        resume_on: jiff::civil::Date,
        /// Why (the severe weather, or why it is undone), kept in the history; required unless
        /// --preview.
        #[arg(long, required_unless_present = "preview")]
        reason: Option<String>,
        /// Print what would move and move nothing.
        #[arg(long)]
        preview: bool,
        /// Undo the suspension of these days applied before: every match it moved goes back to
        /// its earlier day, each a new version in its history with the reason; refused, naming
        /// the match, when one was played or moved again by hand since. Done through the site's
        /// own write path as the account --by, and each school is told by one mail.
        #[arg(long, requires = "by", conflicts_with = "preview")]
        undo: bool,
        /// With --undo: the email of the account that acts (the President).
        #[arg(long, value_name = "EMAIL")]
        by: Option<String>,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum AstcCommand {
    /// Plans a competition's field (AS-4..AS-8): the teams to invite, in order, so that it has
    /// 6 or 8, each with the clause that asks for it (AS-5: the host adds one to a field of 5
    /// or 7; AS-6: if it cannot, the next state in the invitation order; AS-7: a field of 4 or
    /// fewer, the host then states in order until 6), and the invitation order (AS-8: the
    /// previous finish, then the other states by lot from --seed). A second team of one school
    /// is refused (AS-4).
    Field {
        /// The entries: {"competition": "Secondary Open", "entries": [{"state": "SA", "school": "..."}]}.
        entries: PathBuf,
        /// The previous championship's finish: {"finish": [{"place": 1, "state": "VIC", "school": "..."}]}.
        #[arg(long, value_name = "FILE")]
        previous: Option<PathBuf>,
        /// The host state or territory: ACT, NSW, NT, QLD, SA, TAS, VIC or WA.
        #[arg(long)]
        host: String,
        /// The host cannot nominate another team (AS-6).
        #[arg(long)]
        host_cannot_add: bool,
        /// The seed of the lot (AS-8), to draw a rehearsal's lot again; without it the command
        /// draws a seed of its own and prints it. The lot that counts is drawn and recorded on
        /// the site's field page, for every team to read.
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        #[arg(long, value_enum, default_value_t = astc::FieldFormat::Table)]
        format: astc::FieldFormat,
    },
    /// The event's days (AS-1, AS-3, AS-11..AS-13): without --set, prints the event, each
    /// round's start and lineup deadline, the roster lock and the close of protests; with
    /// --set STARTS.csv (`competition,round,starts_at`, the hall's time) and the event's name,
    /// host, venue and offset, sets it again as a new version, as the account --as (the
    /// arbiter), through the site's own checks.
    Event {
        /// The league's address (its slug), e.g. astc.
        league: String,
        /// The season's address, e.g. 2026.
        season: String,
        /// The round times: `competition,round,starts_at` (e.g. secondary-open,1,2026-12-07T09:30).
        #[arg(long, value_name = "FILE", requires_all = ["name", "host", "venue", "offset", "by"])]
        set: Option<PathBuf>,
        /// The event's name, as sheets print it.
        #[arg(long)]
        name: Option<String>,
        /// The host state or territory: ACT, NSW, NT, QLD, SA, TAS, VIC or WA.
        #[arg(long)]
        host: Option<String>,
        /// The venue.
        #[arg(long)]
        venue: Option<String>,
        /// The hall's offset from UTC during the event, e.g. +10:30.
        #[arg(long, allow_hyphen_values = true)]
        offset: Option<String>,
        /// The arbiter's account (email).
        #[arg(long = "as", value_name = "EMAIL")]
        by: Option<String>,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Creates an account with a role in a league and sends it a link to set its password.
    Add {
        #[arg(long)]
        email: String,
        /// president, vice-president, secretary, treasurer, arbiter or advisor.
        #[arg(long)]
        role: String,
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The school, for an advisor.
        #[arg(long)]
        school: Option<String>,
        /// The person's name as the league sees it; default: the email.
        #[arg(long)]
        name: Option<String>,
        /// The site's public address, for the link.
        #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
        base_url: String,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Subcommand)]
enum TokenCommand {
    /// Creates an API token acting in a role in a league (an officer's, or an advisor's for
    /// their school's teams), and prints it (once) on standard output, for
    /// `Authorization: Bearer <token>`.
    Add {
        /// The account the token acts for.
        #[arg(long)]
        email: String,
        /// The league's address (its slug).
        #[arg(long)]
        league: String,
        /// The role it acts in, when the account holds more than one in the league.
        #[arg(long)]
        role: Option<String>,
        /// What the token is for ("nightly import"), to recognise and revoke it later.
        #[arg(long)]
        label: String,
        #[command(flatten)]
        database: database::Database,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Csv,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ScheduleFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ExportFormat {
    Trf,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // The findings are printed; the count says why the status is 1.
        Err(e) if e.is::<check::RulesBroken>() || e.is::<pair::NotC046>() => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Standings {
            file,
            rules,
            tiebreaks,
            format,
            explain,
            rules_from,
        } => {
            let loaded = load::competition(&file, rules.as_deref(), &rules_from)?;
            for w in &loaded.warnings {
                eprintln!("warning: {w}");
            }
            let criteria = match tiebreaks {
                Some(list) => with_tiebreaks(&loaded.rules.criteria, &parse_list(&list)?),
                None if !loaded.tiebreaks.is_empty() => {
                    with_tiebreaks(&loaded.rules.criteria, &loaded.tiebreaks)
                }
                None => loaded.rules.criteria.clone(),
            };
            let sheet = arbiter_core::scoring::score(&loaded.competition, &loaded.rules);
            let standings = arbiter_core::scoring::standings::rank(
                &loaded.competition,
                &loaded.rules,
                &sheet,
                &criteria,
            )?;
            let explanation = explain.then(|| {
                arbiter_core::scoring::standings::explain(
                    &standings,
                    &loaded.competition,
                    &loaded.rules,
                    &sheet,
                )
            });
            let out = render::standings(
                &loaded.competition,
                &standings,
                format,
                explanation.as_deref(),
            )?;
            print!("{out}");
            // The process ends here: freeing the competition, its sheet and standings piece by
            // piece would be a tenth of the command's time, for memory the exit returns anyway.
            std::mem::forget((loaded, criteria, sheet, standings, explanation, out));
            Ok(())
        }
        Command::Ratings {
            command:
                Some(RatingsCommand::List {
                    command:
                        RatingListCommand::Import {
                            file,
                            format,
                            league,
                            in_force_from,
                            name,
                            database,
                        },
                }),
            ..
        } => rating_lists::import(
            &rating_lists::Import {
                file: &file,
                format: format.as_deref(),
                league: &league,
                name: name.as_deref(),
                in_force_from,
            },
            &database,
        ),
        Command::Ratings {
            command:
                Some(RatingsCommand::List {
                    command: RatingListCommand::Show { league, database },
                }),
            ..
        } => rating_lists::show(&league, &database),
        Command::Ratings {
            command: None,
            file,
            system,
            rules,
            format,
            next_season,
            rules_from,
        } => {
            let file = file.ok_or_else(|| {
                anyhow::anyhow!("give the competition file to rate, or `arbiter ratings list`")
            })?;
            let loaded = load::competition(&file, rules.as_deref(), &rules_from)?;
            for w in &loaded.warnings {
                eprintln!("warning: {w}");
            }
            let system = ratings::system(system, format, loaded.rules.rating)?;
            let rated = arbiter_core::rating::rated_games::rate(
                &loaded.competition,
                &loaded.rules,
                &system,
            )
            .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let out = if next_season {
                ratings::next_season(&loaded, &rated, format)?
            } else {
                ratings::render(&loaded, &rated, format)?
            };
            for w in &out.warnings {
                eprintln!("warning: {w}");
            }
            std::io::stdout().write_all(&out.bytes)?;
            Ok(())
        }
        Command::Schedule {
            command:
                Some(ScheduleCommand::Suspend {
                    league,
                    season,
                    from,
                    resume_on,
                    reason,
                    preview,
                    undo: false,
                    database,
                    ..
                }),
            ..
        } => suspend::suspend(
            &suspend::Asked {
                league: &league,
                season: &season,
                from,
                resume_on,
                reason: reason.as_deref(),
                preview,
            },
            &database,
        ),
        Command::Schedule {
            command:
                Some(ScheduleCommand::Suspend {
                    league,
                    season,
                    from,
                    resume_on,
                    reason,
                    by,
                    database,
                    ..
                }),
            ..
        } => suspend::undo(
            &suspend::Undo {
                league: &league,
                season: &season,
                from,
                resume_on,
                reason: reason.as_deref().unwrap_or_default(),
                // `--undo` requires `--by`.
                by: by.as_deref().unwrap_or_default(),
            },
            &database,
        ),
        Command::Schedule {
            command: None,
            teams,
            double,
            format,
        } => {
            let teams =
                teams.ok_or_else(|| anyhow::anyhow!("give the number of teams with --teams"))?;
            let cycles = if double {
                Cycles::Double
            } else {
                Cycles::Single
            };
            let s = schedule::round_robin(teams, cycles)?;
            print!(
                "{}",
                match format {
                    ScheduleFormat::Table => render::schedule_table(&s),
                    ScheduleFormat::Json => render::schedule_json(&s)?,
                }
            );
            Ok(())
        }
        Command::Import {
            file,
            output,
            league,
            league_name,
            season,
            competition,
            rules_from,
            database,
        } => {
            if let Some(league) = league {
                let target = database::Target {
                    league,
                    league_name,
                    season,
                    competition,
                };
                database::import(&file, &target, &rules_from, &database)?;
            }
            let Some(output) = output else {
                return Ok(());
            };
            let loaded = load::competition(&file, None, &rules_from)?;
            for w in &loaded.warnings {
                eprintln!("warning: {w}");
            }
            let json = arbiter_formats::competition_json::write(
                &loaded.competition,
                &loaded.rules,
                &loaded.tiebreaks,
            );
            std::fs::write(&output, json)
                .with_context(|| format!("cannot write {}", output.display()))?;
            eprintln!(
                "{}: {} teams, {} rounds written to {}",
                file.display(),
                loaded.competition.teams.len(),
                loaded.competition.rounds.len(),
                output.display()
            );
            Ok(())
        }
        Command::Export {
            file,
            format,
            output,
            league,
            competition,
            rules_from,
            database,
        } => {
            let loaded = match (file, league, competition) {
                (Some(file), _, _) => load::competition(&file, None, &rules_from)?,
                (None, Some(league), Some(competition)) => {
                    let (competition, rules) =
                        database::load_stored(&league, &competition, &database)?;
                    load::Loaded {
                        competition,
                        rules,
                        tiebreaks: Vec::new(),
                        warnings: Vec::new(),
                    }
                }
                _ => anyhow::bail!(
                    "give a competition file to export, or --league and --competition of a stored one"
                ),
            };
            let bytes = match format {
                ExportFormat::Trf => {
                    let doc = arbiter_formats::trf::from_competition(
                        &loaded.competition,
                        &loaded.rules,
                        &loaded.tiebreaks,
                    );
                    arbiter_formats::trf::write(&doc)
                }
                ExportFormat::Json => arbiter_formats::competition_json::write(
                    &loaded.competition,
                    &loaded.rules,
                    &loaded.tiebreaks,
                )
                .into_bytes(),
            };
            std::fs::write(&output, bytes)
                .with_context(|| format!("cannot write {}", output.display()))?;
            Ok(())
        }
        Command::Serve {
            bind,
            base_url,
            trust_proxy,
            max_connections,
            max_connections_per_address,
            now,
            remind_at,
            cache_mib,
            database,
        } => {
            let remind_at = match remind_at.trim() {
                "off" => None,
                t => Some(t.parse::<jiff::civil::Time>().map_err(|_| {
                    anyhow::anyhow!(
                        "--remind-at is a time of day such as 17:00, or off; `{t}` is neither"
                    )
                })?),
            };
            let defaults = arbiter_web::Limits::default();
            let limits = arbiter_web::Limits {
                total: max_connections.unwrap_or(defaults.total),
                per_address: max_connections_per_address.unwrap_or(defaults.per_address),
                ..defaults
            };
            database::serve(
                bind,
                base_url,
                trust_proxy,
                limits,
                (now, remind_at),
                cache_mib.saturating_mul(1024 * 1024),
                &database,
            )
        }
        Command::User {
            command:
                UserCommand::Add {
                    email,
                    role,
                    league,
                    school,
                    name,
                    base_url,
                    database,
                },
        } => database::user_add(
            &users::NewUser {
                email,
                name,
                role,
                league,
                school,
                base_url,
            },
            &database,
        ),
        Command::DrawLot { teams } => {
            draw_lot(arbiter_store::secrets::lot_seed(), teams);
            Ok(())
        }
        Command::Backup { output, database } => backup::backup(&database, &output),
        Command::Restore {
            backup,
            force,
            database,
        } => backup::restore(&backup, &database, force),
        Command::Token {
            command:
                TokenCommand::Add {
                    email,
                    league,
                    role,
                    label,
                    database,
                },
        } => database::token_add(
            &users::NewToken {
                email,
                league,
                role,
                label,
            },
            &database,
        ),
        Command::Pair(args) => pair::run(&args),
        Command::Check {
            files,
            rules,
            format,
            rating_lists,
            rules_from,
        } => check::run(
            &files,
            rules.as_deref(),
            &rules_from,
            format,
            &rating_lists::read_all(&rating_lists)?,
        ),
        Command::Roster {
            command:
                RosterCommand::Import {
                    file,
                    league,
                    competition,
                    preview,
                    reason,
                    database,
                },
        } => roster::import(
            &roster::Import {
                file: &file,
                league: &league,
                competition: &competition,
                preview,
                reason: reason.as_deref(),
            },
            &database,
        ),
        Command::Roster {
            command:
                RosterCommand::Withdraw {
                    league,
                    competition,
                    player,
                    on,
                    reason,
                    database,
                },
        } => roster::withdraw(&league, &competition, &player, on, &reason, &database),
        Command::Roster {
            command:
                RosterCommand::People {
                    league,
                    competition,
                    database,
                },
        } => roster::people(&league, &competition, &database),
        Command::Roster {
            command:
                RosterCommand::Link {
                    league,
                    competition,
                    player,
                    to,
                    reason,
                    database,
                },
        } => roster::link(&league, &competition, &player, &to, &reason, &database),
        Command::League {
            command:
                LeagueCommand::Create {
                    slug,
                    name,
                    event,
                    description,
                    time_zone,
                    database,
                },
        } => setup::create_league(&slug, &name, event, &description, time_zone, &database),
        Command::League {
            command:
                LeagueCommand::Set {
                    slug,
                    time_zone,
                    database,
                },
        } => setup::set_time_zone(&slug, &time_zone, &database),
        Command::School {
            command:
                SchoolCommand::Set {
                    league,
                    school,
                    address,
                    database,
                },
        } => setup::set_school_address(&league, &school, &address, &database),
        Command::School {
            command: SchoolCommand::List { league, database },
        } => setup::list_schools(&league, &database),
        Command::Season {
            command:
                SeasonCommand::Create {
                    league,
                    name,
                    slug,
                    starts,
                    ends,
                    closures,
                    database,
                },
        } => setup::create_season(
            &setup::NewSeasonAsked {
                league: &league,
                name: &name,
                slug: slug.as_deref(),
                starts,
                ends,
                closures: closures.as_deref(),
            },
            &database,
        ),
        Command::Division {
            command:
                DivisionCommand::Create {
                    file,
                    league,
                    season,
                    name,
                    slug,
                    rules,
                    single,
                    packed,
                    rounds_a_day,
                    lot_seed,
                    new_schools,
                    preview,
                    database,
                },
        } => setup::create_division(
            &setup::NewDivisionAsked {
                file: &file,
                league: &league,
                season: &season,
                name: &name,
                slug: slug.as_deref(),
                rules: &rules,
                single,
                packed,
                rounds_a_day,
                lot_seed,
                new_schools,
                preview,
            },
            &database,
        ),
        Command::Playoffs {
            command:
                PlayoffsCommand::Qualify {
                    league,
                    season,
                    format,
                    database,
                },
        } => season_end::qualify(&league, &season, format, &database),
        Command::Playoffs {
            command:
                PlayoffsCommand::Draw {
                    league,
                    season,
                    by,
                    starts,
                    database,
                },
        } => season_end::draw(&league, &season, &by, starts, &database),
        Command::Awards {
            league,
            season,
            format,
            database,
        } => season_end::awards(&league, &season, format, &database),
        Command::Report {
            command:
                ReportCommand::Draft {
                    league,
                    season,
                    moment,
                    format,
                    database,
                },
        } => {
            let moment = arbiter_core::season_end::media::Moment::from_code(&moment).ok_or_else(|| {
                anyhow::anyhow!("“{moment}” is not a report: the Vice-President reports midway and at the end (GT-O3); give --moment midway or --moment end")
            })?;
            season_end::draft(
                &league,
                &season,
                moment,
                format == ReportFormat::Markdown,
                &database,
            )
        }
        Command::Settings {
            command: None,
            league,
            season,
            database,
        } => {
            let league = league.ok_or_else(|| anyhow::anyhow!("give the league with --league"))?;
            settings::show(&league, season.as_deref(), &database)
        }
        Command::Settings {
            command:
                Some(SettingsCommand::Set {
                    league,
                    season,
                    entry_fee,
                    qualifiers,
                    playoff_format,
                    enter_within_days,
                    confirm_within_days,
                    correct_within_days,
                    reason,
                    database,
                }),
            ..
        } => {
            use arbiter_core::rules::settings::Setting;
            let typed = [
                (Setting::EntryFee, entry_fee),
                (Setting::PlayoffQualifiers, qualifiers),
                (Setting::PlayoffFormat, playoff_format),
                (Setting::EnterWithinDays, enter_within_days),
                (Setting::ConfirmWithinDays, confirm_within_days),
                (Setting::CorrectWithinDays, correct_within_days),
            ]
            .into_iter()
            .filter_map(|(s, v)| v.map(|v| (s, v)))
            .collect();
            settings::set(
                &settings::Change {
                    league: &league,
                    season: season.as_deref(),
                    typed,
                    reason: reason.as_deref(),
                },
                &database,
            )
        }
        Command::Ledger {
            command: None,
            league,
            season,
            format,
            database,
        } => {
            let league = league.ok_or_else(|| anyhow::anyhow!("give the league with --league"))?;
            ledger::show(&league, season.as_deref(), format, &database)
        }
        Command::Ledger {
            command:
                Some(LedgerCommand::Record {
                    league,
                    season,
                    kind,
                    school,
                    amount,
                    on,
                    note,
                    reverses,
                    database,
                }),
            ..
        } => ledger::record(
            &ledger::Record {
                league: &league,
                season: season.as_deref(),
                input: arbiter_core::season::ledger::EntryInput {
                    kind,
                    school: school.unwrap_or_default(),
                    amount: amount.unwrap_or_default(),
                    on,
                    note: note.unwrap_or_default(),
                    reverses: reverses.map(|n| n.to_string()).unwrap_or_default(),
                },
            },
            &database,
        ),
        Command::Result { command } => {
            let (step, at) = match command {
                ResultCommand::Forfeit { offender, at } => {
                    (arbiter_web::OfficerStep::ForfeitByDecision { offender }, at)
                }
                ResultCommand::LateReport { at } => {
                    (arbiter_web::OfficerStep::DoubleForfeitForLateReport, at)
                }
                ResultCommand::WithdrawPenalty { at } => {
                    (arbiter_web::OfficerStep::WithdrawPenalty, at)
                }
                ResultCommand::Adjudicate { board, result, at } => {
                    (arbiter_web::OfficerStep::Adjudicate { board, result }, at)
                }
                ResultCommand::Enter { boards, at } => {
                    (arbiter_web::OfficerStep::Enter { boards }, at)
                }
                ResultCommand::ConfirmExtra { game, at } => {
                    (arbiter_web::OfficerStep::ConfirmExtraGame { game }, at)
                }
                ResultCommand::StrikeExtra { game, at } => {
                    (arbiter_web::OfficerStep::StrikeExtraGame { game }, at)
                }
                ResultCommand::Lineup { side, players, at } => {
                    let side = match side.as_str() {
                        "home" => arbiter_core::Side::Home,
                        "away" => arbiter_core::Side::Away,
                        other => anyhow::bail!("--side is home or away, not `{other}`"),
                    };
                    (arbiter_web::OfficerStep::Lineup { side, players }, at)
                }
            };
            database::officer_step(&step, &at.into_asked())
        }
        Command::Astc {
            command:
                AstcCommand::Event {
                    league,
                    season,
                    set,
                    name,
                    host,
                    venue,
                    offset,
                    by,
                    database,
                },
        } => astc::event(&astc::EventAsked {
            league: &league,
            season: &season,
            set: set.as_deref(),
            name: name.unwrap_or_default(),
            host: host.unwrap_or_default(),
            venue: venue.unwrap_or_default(),
            offset: offset.unwrap_or_default(),
            by: by.unwrap_or_default(),
            database: &database,
        }),
        Command::Astc {
            command:
                AstcCommand::Field {
                    entries,
                    previous,
                    host,
                    host_cannot_add,
                    seed,
                    format,
                },
        } => astc::field(&astc::FieldAsked {
            entries: &entries,
            previous: previous.as_deref(),
            host: &host,
            host_cannot_add,
            seed,
            format,
        }),
        Command::Remind {
            today,
            base_url,
            database,
        } => database::remind(today, &base_url, &database),
        Command::Demo {
            bind,
            db,
            today,
            now,
        } => database::demo(bind, &db, today, now),
    }
}

/// `arbiter draw-lot`: the seed drawn, the criterion that records it, and the order it draws.
fn draw_lot(seed: u64, teams: Option<usize>) {
    println!(
        "Seed {seed}: add \"LOT:{seed}\" to the ruleset's criteria where the lot decides; anyone can draw the same order again from it."
    );
    if let Some(n) = teams {
        let listed: Vec<String> = arbiter_core::scoring::standings::lot_order(n, seed)
            .iter()
            .map(|t| (t + 1).to_string())
            .collect();
        println!(
            "The order it draws of {n} teams, by their place in the list: {}",
            listed.join(", ")
        );
    }
}

fn parse_list(list: &str) -> Result<Vec<CriterionSpec>> {
    list.split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| CriterionSpec::parse(c).map_err(anyhow::Error::from))
        .collect()
}

/// A tie-break list replaces everything after the primary score; a list that starts with `PTS`
/// or with the primary score itself replaces the whole list.
fn with_tiebreaks(base: &[CriterionSpec], list: &[CriterionSpec]) -> Vec<CriterionSpec> {
    use arbiter_core::rules::criteria::{CriterionKind, FideCode};
    let primary_named = list.first().is_some_and(|c| match &c.kind {
        CriterionKind::Fide(f) => f.code == FideCode::Pts,
        CriterionKind::GamePoints | CriterionKind::MatchPoints => true,
        _ => false,
    });
    if primary_named {
        return list.to_vec();
    }
    base.iter().take(1).chain(list).cloned().collect()
}
