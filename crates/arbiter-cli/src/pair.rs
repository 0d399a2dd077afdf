//! `arbiter pair FILE`: a team Swiss round paired by core's C.04.6 engine, as a table, the JSON
//! `{"round": 6, "pairs": [[12, 3], [5, 18]], "bye": 27}` or the file as TRF with the round;
//! `--check`: every round already paired, against C.04.6.

use std::path::PathBuf;

use anyhow::{Result, bail};
use arbiter_core::model::{Board, Colour, GameResult, MatchOutcome, Pairing, Round, Side, TeamId};
use arbiter_core::swiss::{self, RoundPairing};
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
    /// A competition JSON file (arbiter/competition@1) or a TRF-16/TRF-2026 file.
    pub file: PathBuf,
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
    let loaded = load::competition(&args.file, args.rules.as_deref(), &args.rules_from)?;
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
        return check(args, &loaded, seed);
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
                args.file.display()
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
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let out = match args.format {
        PairFormat::Table => table(c, &paired, args.explain),
        PairFormat::Json => json(&paired),
        PairFormat::Trf => with_round(&loaded, &paired)?,
    };
    print!("{out}");
    Ok(())
}

fn name(c: &arbiter_core::model::Competition, id: &TeamId) -> String {
    c.team_name(id)
}

fn table(c: &arbiter_core::model::Competition, p: &RoundPairing, explain: bool) -> String {
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
            Pairing::Match(arbiter_core::model::Match {
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
        Pairing::Bye(arbiter_core::model::Bye {
            team: b.team.clone(),
            kind: arbiter_core::model::ByeKind::PairingAllocated,
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

fn check(args: &PairArgs, loaded: &load::Loaded, seed: u64) -> Result<()> {
    let checks = swiss::check(&loaded.competition, &loaded.rules, seed);
    if checks.is_empty() {
        bail!(
            "{}: no round has a match to check; `arbiter pair {}` pairs the first",
            args.file.display(),
            args.file.display()
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
