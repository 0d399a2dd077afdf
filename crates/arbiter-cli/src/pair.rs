//! `arbiter pair FILE`: a team Swiss round paired by core's C.04.6 engine, as a table, the JSON
//! `{"round": 6, "pairs": [[12, 3], [5, 18]], "bye": 27}` or the file as TRF with the round;
//! `--check`: every round already paired, against C.04.6. With `--league`, `--season` and
//! `--competition`, a stored team Swiss's next round through the web's `pairing`: `--swap A:B`
//! with `--reason`, and `--publish --as EMAIL` through its one write path.

use std::path::PathBuf;

use anyhow::{Result, bail};
use arbiter_core::pairing::swiss::{self, RoundPairing};
use arbiter_core::record::model::{
    Board, Colour, GameResult, MatchOutcome, Pairing, Round, Side, TeamId,
};
use arbiter_formats::trf;

use crate::load;

/// How `arbiter pair` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PairFormat {
    /// Board, White, Black, with the team names.
    Table,
    /// `{"round": 6, "pairs": [[12, 3]], "bye": 27}`: start numbers, White first.
    Json,
    /// The file as TRF-2026 with the round paired (its matches not yet played).
    Trf,
}

/// `arbiter pair`'s arguments.
#[derive(Debug, clap::Args)]
pub struct PairArgs {
    /// A competition JSON file (arbiter/competition@1) or a TRF-16/TRF-2026 file; or, with
    /// `--league`, `--season` and `--competition`, a competition stored in the database.
    #[arg(required_unless_present = "competition")]
    pub file: Option<PathBuf>,
    /// The stored competition's league (its slug).
    #[arg(long, requires_all = ["season", "competition"], conflicts_with = "file")]
    pub league: Option<String>,
    /// The stored competition's season (its slug).
    #[arg(long, requires = "league")]
    pub season: Option<String>,
    /// The stored competition (its slug): its next round is paired as the site pairs it.
    #[arg(long, requires = "league")]
    pub competition: Option<String>,
    /// Publish the stored competition's next round as the named account (whoever the permission
    /// table lets set up rounds), through the site's write path; it becomes the next round.
    #[arg(long, requires_all = ["competition", "by"])]
    pub publish: bool,
    /// The account that publishes (its email).
    #[arg(long = "as", value_name = "EMAIL")]
    pub by: Option<String>,
    /// Two teams to trade places by hand, by start number (`3:8`); needs `--reason`
    /// (C.04.2 art. 1.5). May be given more than once.
    #[arg(long = "swap", value_name = "A:B", requires = "competition")]
    pub swaps: Vec<String>,
    /// Why the pairing is changed by hand; kept in the history and shown with the round.
    #[arg(long, requires = "competition")]
    pub reason: Option<String>,
    /// An absolute criterion the swaps may break, by the Chief Arbiter's decision: "C.04.1 b"
    /// (two teams meet at most once) or "C.04.1 c" (the pairing-allocated bye at most once).
    /// Without it such a swap is refused; with it the override is kept with the reason and
    /// shown with the round. May be given more than once.
    #[arg(
        long = "override-absolute",
        value_name = "CRITERION",
        requires = "competition"
    )]
    pub override_absolute: Vec<String>,
    #[command(flatten)]
    pub database: crate::database::Database,
    /// The round to pair (default: the round after the last one played); later rounds in the
    /// file are ignored.
    #[arg(long)]
    pub round: Option<u32>,
    #[arg(long, value_enum, default_value_t = PairFormat::Table)]
    pub format: PairFormat,
    /// Say for each pair why: its bracket, the criteria that decided, the floaters, the colour rule.
    #[arg(long)]
    pub explain: bool,
    /// Check every round already paired in the file against C.04.6 instead; exit status 1
    /// when one differs.
    #[arg(long, conflicts_with_all = ["round", "explain"])]
    pub check: bool,
    /// Teams (by id, for TRF their start number) not to pair: withdrawn or not yet arrived.
    /// Teams with a requested bye recorded in the round sit it out anyway.
    #[arg(long, value_delimiter = ',')]
    pub absent: Vec<String>,
    /// Draws the initial-colour of round 1 (C.04.6 art. 4.1) when the rules leave it to lot;
    /// by default from the clock.
    #[arg(long)]
    pub seed: Option<u64>,
    /// A preset (astc, gthscl, fide-team) or a ruleset TOML file; overrides the file's own.
    #[arg(long)]
    pub rules: Option<String>,
    #[command(flatten)]
    pub rules_from: load::RulesFrom,
}

/// Some round of the file is not C.04.6's pairing (the differences are printed).
#[derive(Debug)]
pub struct NotC046(pub usize);

impl std::fmt::Display for NotC046 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} round(s) are not C.04.6's pairing", self.0)
    }
}

impl std::error::Error for NotC046 {}

pub fn run(args: &PairArgs) -> Result<()> {
    let Some(file) = &args.file else {
        return stored(args);
    };
    let loaded = load::competition(file, args.rules.as_deref(), &args.rules_from)?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let c = &loaded.competition;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    if args.check {
        return check(args, file, &loaded, seed);
    }
    let last_played = c
        .rounds
        .iter()
        .filter(|r| {
            r.matches().any(|m| match &m.outcome {
                MatchOutcome::Pending => false,
                MatchOutcome::Boards(boards) => {
                    boards.iter().any(|b| b.result != GameResult::Pending)
                }
                MatchOutcome::Forfeit { .. } | MatchOutcome::DoubleForfeit => true,
            })
        })
        .map(|r| r.number)
        .max()
        .unwrap_or(0);
    let round = args.round.unwrap_or(last_played + 1);
    for id in &args.absent {
        if c.team_index(&TeamId(id.clone())).is_none() {
            bail!(
                "--absent {id}: {} has no team {id}; name teams by their id (in a TRF file, the start number)",
                file.display()
            );
        }
    }
    let present = swiss::recorded_roster(c, round);
    let absent: Vec<TeamId> = c
        .teams
        .iter()
        .zip(&present)
        .filter(|(t, here)| !**here || args.absent.contains(&t.id.0))
        .map(|(t, _)| t.id.clone())
        .collect();
    let request = swiss::Request {
        round,
        absent: Some(absent),
        seed,
    };
    let paired = swiss::pair(c, &loaded.rules, &request)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let out = match args.format {
        PairFormat::Table => format!(
            "{}{}",
            seeding(c, &loaded.rules),
            table(c, &paired, args.explain)
        ),
        PairFormat::Json => json(&paired),
        PairFormat::Trf => with_round(&loaded, &paired)?,
    };
    print!("{out}");
    Ok(())
}

/// With `[pairing] seed = "average_top"`: the start numbers, each with the average it was
/// given by; nothing under the file's order.
fn seeding(c: &arbiter_core::record::model::Competition, rules: &arbiter_core::Ruleset) -> String {
    let arbiter_core::rules::ruleset::SeedOrder::AverageTop(top) = rules.pairing.seed else {
        return String::new();
    };
    let mut out = format!(
        "Start numbers by the average rating of each team's top {top} players (C.04.6 art. 1.1):\n"
    );
    for s in swiss::seeding(c, rules) {
        let average = s.average.map_or_else(
            || "no rated player".to_string(),
            arbiter_core::scoring::standings::format_number,
        );
        out.push_str(&format!(
            "{:>3} {} ({average})\n",
            s.number, c.teams[s.team].name
        ));
    }
    out.push('\n');
    out
}

fn name(c: &arbiter_core::record::model::Competition, id: &TeamId) -> String {
    c.team_name(id)
}

fn table(c: &arbiter_core::record::model::Competition, p: &RoundPairing, explain: bool) -> String {
    let mut out = format!("Round {}\n", p.round);
    let width = p
        .pairs
        .iter()
        .map(|m| name(c, &m.white).chars().count())
        .max()
        .unwrap_or(0);
    for (board, m) in p.pairs.iter().enumerate() {
        out.push_str(&format!(
            "{:>3}  {:>3} {:<width$}  -  {:>3} {}\n",
            board + 1,
            m.white_number,
            name(c, &m.white),
            m.black_number,
            name(c, &m.black),
        ));
        if explain {
            let w = &m.why;
            out.push_str(&format!(
                "       bracket of {} points: residents {:?}, upfloaters {:?}{}\n",
                w.bracket_score,
                w.residents,
                w.upfloaters,
                if w.floaters.is_empty() {
                    String::new()
                } else {
                    format!("; {:?} floated up into it", w.floaters)
                }
            ));
            for line in &w.criteria {
                out.push_str(&format!("       {line}\n"));
            }
            out.push_str(&format!(
                "       colours: {} ({})\n",
                w.colour_rule.words(),
                w.colour_rule.article()
            ));
        }
    }
    if let Some(b) = &p.bye {
        out.push_str(&format!("bye  {:>3} {}\n", b.number, name(c, &b.team)));
        if explain {
            out.push_str(&format!("       {}\n", b.why));
        }
    }
    if explain {
        let colour = match p.initial_colour {
            Colour::White => "White",
            Colour::Black => "Black",
        };
        out.push_str(&format!("initial-colour (C.04.6 art. 4.1): {colour}\n"));
    }
    out
}

/// The answer exactly as issue 17 spells it: `{"round": 6, "pairs": [[12, 3]], "bye": 27}`.
fn json(p: &RoundPairing) -> String {
    let pairs: Vec<String> = p
        .pairs
        .iter()
        .map(|m| format!("[{}, {}]", m.white_number, m.black_number))
        .collect();
    let bye = p
        .bye
        .as_ref()
        .map_or_else(|| "null".to_string(), |b| b.number.to_string());
    format!(
        "{{\"round\": {}, \"pairs\": [{}], \"bye\": {bye}}}\n",
        p.round,
        pairs.join(", ")
    )
}

/// The file as TRF with the round paired: each team's first players by roster order on the
/// boards, no result yet, White's team first.
fn with_round(loaded: &load::Loaded, p: &RoundPairing) -> Result<String> {
    let mut c = loaded.competition.clone();
    c.rounds.retain(|r| r.number < p.round);
    let home_white = loaded.rules.colour(None, 1, Side::Home) == Colour::White;
    let mut pairings: Vec<Pairing> = p
        .pairs
        .iter()
        .map(|m| {
            let (home, away) = if home_white {
                (m.white.clone(), m.black.clone())
            } else {
                (m.black.clone(), m.white.clone())
            };
            let player = |team: &TeamId, board: usize| {
                c.team(team)
                    .and_then(|t| t.players.get(board))
                    .map(|p| p.id.clone())
            };
            let boards = (0..loaded.rules.boards as usize)
                .map(|i| Board {
                    home_player: player(&home, i),
                    away_player: player(&away, i),
                    ..Board::new(GameResult::Pending)
                })
                .collect();
            Pairing::Match(arbiter_core::record::model::Match {
                home,
                away,
                outcome: MatchOutcome::Boards(boards),
                date: None,
                start: None,
                extra_games: Vec::new(),
                late: None,
            })
        })
        .collect();
    pairings.extend(p.bye.as_ref().map(|b| {
        Pairing::Bye(arbiter_core::record::model::Bye {
            team: b.team.clone(),
            kind: arbiter_core::record::model::ByeKind::PairingAllocated,
        })
    }));
    c.rounds.push(Round {
        number: p.round,
        date: None,
        pairings,
    });
    let doc = trf::from_competition(&c, &loaded.rules, &loaded.tiebreaks);
    Ok(String::from_utf8_lossy(&trf::write(&doc)).into_owned())
}

fn check(args: &PairArgs, file: &std::path::Path, loaded: &load::Loaded, seed: u64) -> Result<()> {
    let checks = swiss::check(&loaded.competition, &loaded.rules, seed);
    if checks.is_empty() {
        bail!(
            "{}: no round has a match to check; `arbiter pair {}` pairs the first",
            file.display(),
            file.display()
        );
    }
    let differ = checks.iter().filter(|c| c.difference.is_some()).count();
    match args.format {
        PairFormat::Json => {
            #[derive(serde::Serialize)]
            struct Line<'a> {
                round: u32,
                c046: bool,
                difference: Option<&'a str>,
            }
            let lines: Vec<Line<'_>> = checks
                .iter()
                .map(|c| Line {
                    round: c.round,
                    c046: c.difference.is_none(),
                    difference: c.difference.as_deref(),
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&lines)?);
        }
        PairFormat::Table | PairFormat::Trf => {
            for c in &checks {
                match &c.difference {
                    None => println!("round {}: C.04.6's pairing", c.round),
                    Some(d) => println!("round {}: not C.04.6's pairing; {d}", c.round),
                }
            }
        }
    }
    if differ > 0 {
        return Err(NotC046(differ).into());
    }
    Ok(())
}

/// `arbiter pair --league L --season S --competition C`: the stored competition's next round as
/// the site pairs it; with `--publish --as EMAIL`, published through the site's write path.
fn stored(args: &PairArgs) -> Result<()> {
    use arbiter_web::pairing;
    let (Some(league), Some(season), Some(competition)) =
        (&args.league, &args.season, &args.competition)
    else {
        bail!("give a file, or --league, --season and --competition for a stored competition");
    };
    let at = (league.as_str(), season.as_str(), competition.as_str());
    crate::database::runtime()?.block_on(async {
        let store = args.database.open().await?;
        let state = arbiter_web::AppState::new(store);
        let n = pairing::read(&state, at)
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
        let teams = &n.view.competition.teams;
        let mut swaps = Vec::new();
        for s in &args.swaps {
            // Start numbers as `[pairing] seed` gives them.
            let team = |x: &str| {
                x.trim().parse::<u32>().ok().and_then(|x| {
                    swiss::team_of_start_number(&n.view.competition, &n.view.rules, x)
                })
            };
            let pair = s
                .split_once(':')
                .and_then(|(a, b)| Some((team(a)?, team(b)?)));
            let Some((a, b)) = pair else {
                bail!(
                    "--swap {s}: name two teams by start number, 1 to {}, as 3:8",
                    teams.len()
                );
            };
            swaps.push(swiss::Swap { a, b });
        }
        let reason = args.reason.clone().unwrap_or_default();
        let published = if args.publish {
            let by = args.by.as_deref().unwrap_or_default();
            let (n, acting) = pairing::read_as(&state, by, at)
                .await
                .map_err(|e| anyhow::anyhow!(e))?;
            let absolute = &args.override_absolute;
            pairing::publish(&state, &n, n.seen(), &swaps, &reason, absolute, &acting)
                .await
                .map_err(|e| {
                    anyhow::anyhow!("{}\nNothing was published.", e.into_web().message())
                })?
        } else {
            pairing::prepare(&n, &swaps, &reason, &args.override_absolute)
                .map_err(|e| anyhow::anyhow!("{}", e.into_web().message()))?
        };
        let c = &n.view.competition;
        let out = match args.format {
            PairFormat::Json => {
                let (round, pairs, bye) = pairing::numbers(&published);
                let pairs: Vec<String> = pairs.iter().map(|[w, b]| format!("[{w}, {b}]")).collect();
                format!(
                    "{{\"round\": {round}, \"pairs\": [{}], \"bye\": {}}}\n",
                    pairs.join(", "),
                    bye.map_or_else(|| "null".to_string(), |b| b.to_string())
                )
            }
            PairFormat::Table | PairFormat::Trf if !published.changed() => {
                table(c, &published.paired, args.explain)
            }
            PairFormat::Table | PairFormat::Trf => {
                let mut out = format!("Round {}\n", published.paired.round);
                for (board, m) in published.pairs.iter().enumerate() {
                    out.push_str(&format!(
                        "{:>3}  {:>3} {}  -  {:>3} {}{}\n",
                        board + 1,
                        m.white_number,
                        name(c, &m.white),
                        m.black_number,
                        name(c, &m.black),
                        if m.by_hand { "  (changed by hand)" } else { "" }
                    ));
                }
                if let Some((team, number, by_hand)) = &published.bye {
                    out.push_str(&format!(
                        "bye  {number:>3} {}{}\n",
                        name(c, team),
                        if *by_hand { "  (changed by hand)" } else { "" }
                    ));
                }
                if let Some(r) = &published.reason {
                    out.push_str(&format!("changed by hand (C.04.2 art. 1.5): {r}\n"));
                }
                for o in &published.overridden {
                    out.push_str(&format!("overriding {o}\n"));
                }
                out
            }
        };
        print!("{out}");
        if args.publish {
            println!(
                "Round {} of {} is published; enter its results on the round's page.",
                published.paired.round, n.view.record.name
            );
        }
        Ok(())
    })
}
