//! The JSON the history keeps as `before` and `after`. The core model has no serde of its own;
//! these shapes are the store's, and `outcome_from_json` reads back what `outcome_to_json` wrote.

use arbiter_core::{
    AdjudicationPosition, Board, Competition, MatchOutcome, Pairing, Player, PlayerId, Round, Team,
    TeamId, Unfinished, Unplayed,
};
use serde_json::{Value, json};

use crate::codes;
use crate::records::{League, NewCompetition, RulesRef, School, Season, SeasonClosure};

/// `{"kind": "boards", "boards": [{"board": 1, "result": "1-0", ...}]}`, `{"kind": "forfeit",
/// "by": "home"}`, `{"kind": "pending"}` or `{"kind": "double_forfeit"}`.
pub fn outcome_to_json(o: &MatchOutcome) -> Value {
    let (kind, by) = codes::outcome_kind(o);
    match o {
        MatchOutcome::Boards(boards) => json!({
            "kind": kind,
            "boards": boards.iter().enumerate().map(|(i, b)| board(i + 1, b)).collect::<Vec<_>>(),
        }),
        MatchOutcome::Forfeit { .. } => json!({ "kind": kind, "by": by }),
        MatchOutcome::Pending | MatchOutcome::DoubleForfeit => json!({ "kind": kind }),
    }
}

/// Reads what [`outcome_to_json`] wrote (also the `outcome` inside a `record_result` entry).
pub fn outcome_from_json(v: &Value) -> Option<MatchOutcome> {
    let kind = v.get("kind")?.as_str()?;
    let by = v.get("by").and_then(Value::as_str);
    let mut boards = Vec::new();
    if kind == "boards" {
        for b in v.get("boards")?.as_array()? {
            let result = codes::parse_result(b.get("result")?.as_str()?).ok()?;
            let rating_result = match b.get("rating_result").and_then(Value::as_str) {
                Some(s) => Some(codes::parse_result(s).ok()?),
                None => None,
            };
            let home_colour = match b.get("home_colour").and_then(Value::as_str) {
                Some(s) => Some(codes::parse_colour(s).ok()?),
                None => None,
            };
            let player = |k: &str| {
                b.get(k)
                    .and_then(Value::as_str)
                    .map(|s| PlayerId(s.to_string()))
            };
            boards.push(Board {
                result,
                rating_result,
                home_player: player("home_player"),
                away_player: player("away_player"),
                home_colour,
                unplayed: match b.get("unplayed").and_then(Value::as_str) {
                    Some(u) => Some(Unplayed::from_code(
                        u,
                        b.get("note").and_then(Value::as_str),
                    )?),
                    None => None,
                },
                unfinished: match (
                    b.get("adjourned_to").and_then(Value::as_str),
                    b.get("adjudication"),
                ) {
                    (Some(day), _) => Some(Unfinished::Adjourned {
                        resume_on: day.parse().ok()?,
                    }),
                    (None, Some(a)) if !a.is_null() => {
                        let text = |k: &str| a.get(k).and_then(Value::as_str).map(str::to_string);
                        Some(Unfinished::Adjudication(AdjudicationPosition {
                            pgn: text("pgn")?,
                            fen: text("fen")?,
                            home_clock: text("home_clock"),
                            away_clock: text("away_clock"),
                        }))
                    }
                    _ => None,
                },
            });
        }
    }
    codes::outcome(kind, by, boards).ok()
}

fn board(number: usize, b: &Board) -> Value {
    json!({
        "board": number,
        "result": b.result.code(),
        "rating_result": b.rating_result.map(|r| r.code()),
        "home_player": b.home_player.as_ref().map(|p| p.0.as_str()),
        "away_player": b.away_player.as_ref().map(|p| p.0.as_str()),
        "home_colour": b.home_colour.map(codes::colour),
        "unplayed": b.unplayed.as_ref().map(Unplayed::code),
        "note": b.unplayed.as_ref().and_then(Unplayed::note),
        "adjourned_to": b.resume_on().map(|d| d.to_string()),
        "adjudication": b.adjudication().map(|p| json!({
            "pgn": p.pgn,
            "fen": p.fen,
            "home_clock": p.home_clock,
            "away_clock": p.away_clock,
        })),
    })
}

pub(crate) fn league(l: &League) -> Value {
    json!({
        "id": l.id.0,
        "slug": l.slug,
        "name": l.name,
        "kind": l.kind.as_str(),
        "description": l.description,
        "time_zone": l.time_zone.name(),
    })
}

/// A school as its history rows keep it: the address is its lines parted by `\n`, or null.
pub(crate) fn school(s: &School) -> Value {
    json!({
        "id": s.id.0,
        "name": s.name,
        "address": s.address.as_ref().map(|a| a.as_str()),
    })
}

pub(crate) fn season(s: &Season) -> Value {
    json!({
        "id": s.id.0,
        "league": s.league.0,
        "slug": s.slug,
        "name": s.name,
        "starts_on": s.starts_on.map(|d| d.to_string()),
        "ends_on": s.ends_on.map(|d| d.to_string()),
    })
}

pub(crate) fn closure(c: &SeasonClosure) -> Value {
    json!({
        "id": c.id,
        "season": c.season.0,
        "from": c.starts_on.to_string(),
        "to": c.ends_on.to_string(),
        "reason": c.reason,
    })
}

pub(crate) fn rules(r: &RulesRef) -> Value {
    match r {
        RulesRef::Preset(name) => json!({ "preset": name }),
        RulesRef::Toml(text) => json!({ "toml": text }),
    }
}

pub(crate) fn team(t: &Team) -> Value {
    json!({
        "id": t.id.0,
        "name": t.name,
        "school": t.school,
        "players": t.players.iter().map(player).collect::<Vec<_>>(),
    })
}

fn player(p: &Player) -> Value {
    json!({
        "id": p.id.0,
        "name": p.name,
        "rating": p.rating,
        "provisional": p.provisional,
        "person": p.person.as_ref().map(|k| k.0.as_str()),
    })
}

fn round(r: &Round) -> Value {
    json!({
        "number": r.number,
        "date": r.date.map(|d| d.to_string()),
        "pairings": r.pairings.iter().map(|p| match p {
            Pairing::Match(m) => json!({
                "home": m.home.0,
                "away": m.away.0,
                "outcome": outcome_to_json(&m.outcome),
            }),
            Pairing::Bye(b) => json!({ "bye": b.team.0, "kind": codes::bye_kind(b.kind) }),
        }).collect::<Vec<_>>(),
    })
}

/// The whole imported competition, so that the history alone could rebuild it.
pub(crate) fn competition(new: &NewCompetition, c: &Competition) -> Value {
    json!({
        "slug": new.slug,
        "name": new.name,
        "rules": rules(&new.rules),
        "competition": {
            "name": c.name,
            "teams": c.teams.iter().map(team).collect::<Vec<_>>(),
            "rounds": c.rounds.iter().map(round).collect::<Vec<_>>(),
        },
    })
}

/// A result version as the `record_result` history entry shows it.
pub(crate) fn result_version(
    version: i64,
    round: u32,
    home: &TeamId,
    away: &TeamId,
    o: &MatchOutcome,
) -> Value {
    json!({
        "version": version,
        "round": round,
        "home": home.0,
        "away": away.0,
        "outcome": outcome_to_json(o),
    })
}

/// A lineup version: `{version, round, home, away, side, boards, withdrawn}` (player ids; null
/// for an empty board).
pub(crate) fn lineup(
    version: i64,
    round: u32,
    home: &TeamId,
    away: &TeamId,
    side: arbiter_core::Side,
    l: &arbiter_core::teams::lineup::Lineup,
) -> Value {
    json!({
        "version": version,
        "round": round,
        "home": home.0,
        "away": away.0,
        "side": side.code(),
        "boards": l.boards.iter().map(|p| p.as_ref().map(|p| p.0.as_str())).collect::<Vec<_>>(),
        "withdrawn": l.withdrawn.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
    })
}

// Accounts: what the history shows of them. Never a password hash, a token or a token's hash.

/// A user: `{email, name}`.
pub(crate) fn user(email: &str, name: &str) -> Value {
    json!({ "email": email, "name": name })
}

/// A membership: `{user, league, role, school}` (the user's email, the league's slug).
pub(crate) fn membership(user: &str, league: &str, role: &str, school: Option<&str>) -> Value {
    json!({ "user": user, "league": league, "role": role, "school": school })
}

/// An invite: `{email, role, school, expires_at}`, and `accepted_at` once accepted.
pub(crate) fn invite(
    email: &str,
    role: &str,
    school: Option<&str>,
    expires_at: jiff::Timestamp,
    accepted_at: Option<jiff::Timestamp>,
) -> Value {
    let mut v = json!({
        "email": email,
        "role": role,
        "school": school,
        "expires_at": expires_at.to_string(),
    });
    if let (Some(at), Some(map)) = (accepted_at, v.as_object_mut()) {
        map.insert("accepted_at".into(), Value::String(at.to_string()));
    }
    v
}

/// An invitation as [`invite`] writes it, withdrawn at `at`.
pub(crate) fn withdrawn_invite(
    email: &str,
    role: &str,
    school: Option<&str>,
    expires_at: jiff::Timestamp,
    at: jiff::Timestamp,
) -> Value {
    let mut v = invite(email, role, school, expires_at, None);
    if let Some(map) = v.as_object_mut() {
        map.insert("withdrawn_at".into(), Value::String(at.to_string()));
    }
    v
}

/// An API token: `{prefix, label, role, school}`.
pub(crate) fn api_token(prefix: &str, label: &str, role: &str, school: Option<&str>) -> Value {
    json!({ "prefix": prefix, "label": label, "role": role, "school": school })
}

/// A confirmation or dispute of one result version, with the match it is of.
pub(crate) fn review(version: u32, kind: &str, round: u32, home: &TeamId, away: &TeamId) -> Value {
    json!({
        "version": version,
        "kind": kind,
        "round": round,
        "home": home.0,
        "away": away.0,
    })
}
