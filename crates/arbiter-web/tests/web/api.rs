//! The JSON API: the same data, JSON errors, and the OpenAPI document.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::Value;

use crate::common::*;

fn api(path: &str) -> String {
    format!("/api/v1{path}")
}

#[tokio::test]
async fn leagues_list_seasons_and_competitions() {
    let store = store().await;
    let app = app(&store);
    let a = get_ok(&app, "/api/v1/leagues").await;
    assert_eq!(a.header("content-type"), "application/json");
    let v = a.json();
    let l = &v["leagues"][0];
    assert_eq!(l["slug"], "gthscl");
    assert_eq!(l["kind"], "league");
    assert_eq!(l["seasons"][0]["starts_on"], "2026-10-01");
    assert_eq!(l["seasons"][0]["competitions"][0]["api"], api(DIVISION));
    let a = get(&app, "/api/v1/leagues/gthscl").await;
    assert_eq!(a.json()["name"], "GTHSCL");
}

#[tokio::test]
async fn competition_summary_names_rules_and_teams() {
    let store = store().await;
    let app = app(&store);
    let v = get(&app, &api(DIVISION)).await.json();
    assert_eq!(v["name"], "Division A");
    assert_eq!(v["season"]["slug"], "2026-27");
    assert_eq!(v["rules"]["boards"], 4);
    assert_eq!(v["rules"]["white_on_odd_boards"], "away", "GT-M18");
    assert_eq!(v["rules"]["criteria"][2]["code"], "H2H:MP");
    assert_eq!(v["rules"]["criteria"][2]["rule"], "GT-S5");
    assert_eq!(v["teams"][0]["name"], AWKWARD, "names are exact in JSON");
    assert_eq!(v["rounds"], serde_json::json!([1, 2, 3, 4]));
}

#[tokio::test]
async fn standings_with_values_shared_places_drops_and_explanation() {
    let store = store().await;
    let app = app(&store);
    let a = get(&app, &api(&format!("{DIVISION}/standings"))).await;
    // The values keep the ruleset's order of criteria (GT-S5: MP, GP, H2H:MP).
    let first = &a.body[a.body.find(r#""values":"#).unwrap()..];
    let at = |k: &str| first.find(&format!("\"{k}\":")).unwrap();
    assert!(at("MP") < at("GP") && at("GP") < at("H2H:MP"), "{first}");
    let v = a.json();
    let rows = v["rows"].as_array().unwrap();
    let places: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["team_id"].as_str().unwrap(), r["place"].as_str().unwrap()))
        .collect();
    assert_eq!(
        places,
        [
            ("scott", "1"),
            ("start", "2-3"),
            ("clay", "2-3"),
            ("drop", "4")
        ],
        "AS-18 shared place; GT-M5 dropped last"
    );
    assert_eq!(rows[0]["team"], AWKWARD);
    assert_eq!(rows[0]["values"]["MP"], 2.0);
    assert_eq!(rows[0]["values"]["GP"], 6.0);
    assert_eq!(
        rows[0]["values"]["H2H:MP"],
        Value::Null,
        "never needed for scott"
    );
    assert_eq!(rows[1]["values"]["H2H:MP"], 0.5);
    assert_eq!(rows[2]["values"]["H2H:MP"], 0.5);
    assert_eq!(rows[3]["dropped"]["rule"], "GT-M5");
    assert_eq!(rows[3]["dropped"]["all_matches_excluded"], true);
    assert_eq!(rows[3]["dropped"]["played"], 1);
    assert_eq!(rows[3]["dropped"]["scheduled"], 4);
    let explanation = v["explanation"].as_array().unwrap();
    assert_eq!(explanation.len(), 3);
    assert_eq!(explanation[0]["rule"], "GT-S5");
    assert_eq!(explanation[2]["rule"], "GT-M5");
    assert_eq!(v["problem"], Value::Null);
}

#[tokio::test]
async fn crosstable_meetings_have_colours_and_exclusions() {
    let store = store().await;
    let app = app(&store);
    let v = get(&app, &api(&format!("{DIVISION}/crosstable")))
        .await
        .json();
    let scott = &v["rows"][0];
    assert_eq!(scott["team_id"], "scott");
    let cells = scott["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3, "no cell against itself");
    let start = cells.iter().find(|c| c["opponent_id"] == "start").unwrap();
    let m = &start["meetings"][0];
    assert_eq!(m["round"], 1);
    assert_eq!(m["side"], "home");
    assert_eq!(
        m["colour"], "black",
        "GT-M18: the visitors have White on board 1"
    );
    assert_eq!(m["game_points"], 3.0);
    let drop = cells.iter().find(|c| c["opponent_id"] == "drop").unwrap();
    assert_eq!(drop["meetings"][0]["kind"], "forfeit_win");
    assert_eq!(drop["meetings"][0]["excluded"]["rule"], "GT-M5");
}

#[tokio::test]
async fn rounds_with_board_results_forfeits_and_exclusions() {
    let store = store().await;
    let app = app(&store);
    let v = get(&app, &api(&format!("{DIVISION}/rounds"))).await.json();
    let rounds = v["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 4);
    let r1 = &rounds[0];
    assert_eq!(r1["date"], "2026-11-02");
    let m = &r1["matches"][0];
    assert_eq!(m["home_id"], "scott");
    assert_eq!(m["status"], "played");
    assert_eq!(m["score"], "3–1");
    assert_eq!(m["boards"][0]["result"], "1-0");
    assert_eq!(m["boards"][0]["home_player"], "Zoë O'Brien");
    assert_eq!(m["boards"][0]["home_colour"], "black");
    let m = &r1["matches"][1];
    assert_eq!(m["excluded"]["rule"], "GT-M5");
    assert_eq!(m["boards"][1]["result"], "-/+");
    assert_eq!(m["boards"][1]["rating_result"], "1-0", "GT-P1");
    assert_eq!(m["boards"][3]["away_player_id"], Value::Null, "GT-M9");
    let f = &rounds[1]["matches"][1];
    assert_eq!(f["status"], "forfeit");
    assert_eq!(f["forfeited_by"], "away");
    assert_eq!(f["rule"], "GT-M7");
    assert_eq!(rounds[3]["matches"][0]["status"], "pending");
    let one = get(&app, &api(&format!("{DIVISION}/rounds/2")))
        .await
        .json();
    assert_eq!(one["number"], 2);
    assert_eq!(one["matches"][1]["status"], "forfeit");
}

#[tokio::test]
async fn team_and_player() {
    let store = store().await;
    let app = app(&store);
    let t = get(&app, &api(&format!("{DIVISION}/teams/scott")))
        .await
        .json();
    assert_eq!(t["name"], AWKWARD);
    assert_eq!(t["school"], "Scott High School");
    assert_eq!(t["place"], "1");
    assert_eq!(t["roster"][3]["rating_display"], "1200N", "GT-R3");
    assert_eq!(t["roster"][3]["provisional"], true);
    assert_eq!(t["results"][2]["kind"], "forfeit_win");
    assert_eq!(t["results"][2]["counts"], false);
    let p = get(&app, &api(&format!("{DIVISION}/players/scott1")))
        .await
        .json();
    assert_eq!(p["name"], "Zoë O'Brien");
    assert_eq!(p["team"], AWKWARD);
    assert_eq!(p["score"], 2.0);
    assert_eq!(p["games"][0]["opponent"], "Dee Park");
    assert_eq!(p["games"][0]["colour"], "black");
    assert_eq!(p["games"][0]["result"], "win");
}

#[tokio::test]
async fn errors_are_json_with_a_code_and_a_message() {
    let store = store().await;
    let app = app(&store);
    for (path, status, code) in [
        ("/api/v1/leagues/nope".to_string(), 404, "not_found"),
        (api("/leagues/gthscl/1999/division-a"), 404, "not_found"),
        (api(&format!("{DIVISION}x")), 404, "not_found"),
        (api(&format!("{DIVISION}/teams/nobody")), 404, "not_found"),
        (api(&format!("{DIVISION}/players/nobody")), 404, "not_found"),
        (api(&format!("{DIVISION}/rounds/9")), 404, "not_found"),
        (api(&format!("{DIVISION}/rounds/abc")), 400, "bad_request"),
        (api(&format!("{DIVISION}/rounds/0")), 400, "bad_request"),
        (api(&format!("{DIVISION}/teams/%C3%28")), 400, "bad_request"),
        ("/api/v1/nothing".to_string(), 404, "not_found"),
    ] {
        let a = get(&app, &path).await;
        assert_eq!(a.status.as_u16(), status, "{path}: {}", a.body);
        assert_eq!(a.header("content-type"), "application/json", "{path}");
        let v = a.json();
        assert_eq!(v["error"]["code"], code, "{path}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.ends_with('.'), "{path}: a sentence: {message}");
    }
    let post = send(
        &app,
        Request::post("/api/v1/leagues")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    post.assert_status(StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(post.json()["error"]["code"], "method_not_allowed");
}

/// Issue 9, item 12: a write endpoint asked with GET says it takes POST, not that the API is
/// read-only (schemathesis found the old `Allow: GET, HEAD` contradicting the document).
#[tokio::test]
async fn a_write_endpoint_answers_get_with_allow_post() {
    let store = store().await;
    let app = app(&store);
    let path = format!("/api/v1{DIVISION}/rounds/1/matches/x/result");
    let get = send(&app, Request::get(&path).body(Body::empty()).unwrap()).await;
    get.assert_status(StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(get.header("allow"), "POST");
    let message = get.json()["error"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("sent with POST"), "{message}");
}

#[tokio::test]
async fn api_answers_have_etags_and_304() {
    let store = store().await;
    let app = app(&store);
    for path in [
        "/api/v1/leagues".to_string(),
        api(&format!("{DIVISION}/standings")),
        "/api/v1/openapi.json".to_string(),
    ] {
        let a = get(&app, &path).await;
        let tag = a.header("etag").to_string();
        assert!(!tag.is_empty(), "{path}");
        let b = send(
            &app,
            Request::get(&path)
                .header("if-none-match", &tag)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        assert_eq!(b.status, StatusCode::NOT_MODIFIED, "{path}");
        assert!(b.body.is_empty());
    }
}

/// Fills an OpenAPI path template with ids that exist in the test division.
fn concrete(template: &str) -> String {
    template
        .replace("{league}", "gthscl")
        .replace("{season}", "2026-27")
        .replace("{competition}", "division-a")
        .replace("{round}", "1")
        .replace("{team}", "scott")
        .replace("{player}", "scott1")
}

#[tokio::test]
async fn the_openapi_document_lists_every_api_route() {
    let store = store().await;
    let app = app(&store);
    let doc = get_ok(&app, "/api/v1/openapi.json").await;
    let v = doc.json();
    assert!(v["openapi"].as_str().unwrap().starts_with("3."));
    let paths: Vec<&str> = v["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let c = "/api/v1/leagues/{league}/{season}/{competition}";
    let mut expected = vec![
        "/api/v1/leagues".to_string(),
        "/api/v1/leagues/{league}".to_string(),
        c.to_string(),
        format!("{c}/standings"),
        format!("{c}/crosstable"),
        format!("{c}/findings"),
        format!("{c}/rounds"),
        format!("{c}/rounds/{{round}}"),
        format!("{c}/teams/{{team}}"),
        format!("{c}/players/{{player}}"),
        format!("{c}/ratings"),
        "/api/v1/leagues/{league}/{season}/ratings".to_string(),
        "/api/v1/openapi.json".to_string(),
    ];
    // The writes (issue 5), guarded by API tokens: tests/web/permissions.rs checks them.
    let m = format!("{c}/rounds/{{round}}/matches/{{home}}");
    for w in [
        "result",
        "correction",
        "confirm",
        "dispute",
        "correction-request",
        "penalty-withdrawal",
        "decision",
        "forfeit",
        "late-report",
        "extra-games",
        "extra-games/{game}/confirm",
        "extra-games/{game}/strike",
        "adjudication",
        "adjourned-game",
        "game-scores",
        "lineups/{side}",
    ] {
        expected.push(format!("{m}/{w}"));
    }
    // The fee ledger (GT-O2), read and written with a token: tests/web/ledger.rs.
    expected.push("/api/v1/leagues/{league}/ledger".to_string());
    // GT-F5's suspension of a season's schedule, with a token: tests/web/suspension.rs.
    expected.push("/api/v1/leagues/{league}/{season}/suspension".to_string());
    // A season's settings (issue 32 item 5), with a token: tests/web/settings.rs.
    expected.push("/api/v1/leagues/{league}/{season}/settings".to_string());
    // A league's published rating lists (issue 34), with a token: tests/web/rating_lists.rs.
    expected.push("/api/v1/leagues/{league}/rating-lists".to_string());
    // The season's end (issue 15): tests/web/season_end.rs.
    for p in ["playoffs", "awards"] {
        expected.push(format!("/api/v1/leagues/{{league}}/{{season}}/{p}"));
    }
    expected.push(format!("{c}/race"));
    // A team Swiss's next round (issue 17), read and published with a token:
    // tests/web/pairing.rs.
    expected.push(format!("{c}/pairing"));
    // A roster's changes with a token (issue 16): tests/web/roster_api.rs.
    expected.push(format!("{c}/teams/{{team}}/players"));
    expected.push(format!("{c}/players/{{player}}/withdrawal"));
    // One player, one person (AS-3, GT-M15): tests/web/eligibility.rs.
    expected.push(format!("{c}/players/{{player}}/person"));
    expected.sort();
    let mut listed: Vec<String> = paths.iter().map(|p| p.to_string()).collect();
    listed.sort();
    assert_eq!(listed, expected);
    // Every documented route answers on the router, with a body the document describes.
    for p in paths.iter().filter(|p| v["paths"][**p]["get"].is_object()) {
        let a = get(&app, &concrete(p)).await;
        let op = &v["paths"][*p]["get"];
        // A read that names a security scheme needs a token (the fee ledger): without one,
        // the 401 it documents.
        if op["security"].is_array() {
            assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{p}: {}", a.body);
            assert!(op["responses"]["401"].is_object(), "{p}: no 401 documented");
            continue;
        }
        assert_eq!(a.status, StatusCode::OK, "{p}: {}", a.body);
        assert_eq!(a.header("content-type"), "application/json", "{p}");
        assert!(op["responses"]["200"].is_object(), "{p}: no 200 documented");
        if p.contains('{') {
            assert!(op["responses"]["404"].is_object(), "{p}: no 404 documented");
        }
    }
    // Each documented schema exists.
    let schemas = v["components"]["schemas"].as_object().unwrap();
    for name in [
        "StandingsJson",
        "CrosstableJson",
        "RoundJson",
        "TeamJson",
        "PlayerJson",
        "ErrorAnswer",
    ] {
        assert!(schemas.contains_key(name), "{name}");
    }
    // And no API route answers that the document does not list: each page's API twin is one
    // of the listed paths.
    for extra in [format!("{DIVISION}/explain"), format!("{DIVISION}/rounds")] {
        let a = get(&app, &api(&extra)).await;
        let listed_here = listed.iter().any(|p| concrete(p) == api(&extra));
        assert_eq!(a.status == StatusCode::OK, listed_here, "{extra}");
    }
}

/// Issue 9, item 12: a criterion never needed for a team (H2H:GP for an untied team) is null
/// in the standings, and the document says a value may be null.
#[tokio::test]
async fn a_criterion_value_may_be_null_as_the_document_says() {
    let store = store().await;
    let app = app(&store);
    let standings = get(&app, &format!("/api/v1{DIVISION}/standings"))
        .await
        .json();
    let has_null = standings["rows"].as_array().unwrap().iter().any(|r| {
        r["values"]
            .as_object()
            .unwrap()
            .values()
            .any(Value::is_null)
    });
    assert!(
        has_null,
        "the fixture should have a criterion that was not needed"
    );
    let doc = get(&app, "/api/v1/openapi.json").await.json();
    let values = &doc["components"]["schemas"]["StandingJson"]["properties"]["values"];
    let mut admitted = &values["additionalProperties"];
    if let Some(name) = admitted["$ref"].as_str() {
        let name = name.trim_start_matches("#/components/schemas/");
        admitted = &doc["components"]["schemas"][name];
    }
    let types: Vec<&Value> = admitted["oneOf"].as_array().unwrap().iter().collect();
    assert!(
        types.iter().any(|t| t["type"] == "null"),
        "values admit null: {admitted}"
    );
}

/// Issue 9, item 12: every route with parameters documents the 400 it answers when a segment
/// cannot be read (schemathesis found it undocumented), and answers each unreadable segment
/// with a status its operation documents and a JSON sentence. Writes are sent with a token, so
/// that the address is read at all.
#[tokio::test]
async fn every_unreadable_address_gets_a_documented_400() {
    use arbiter_core::rules::permissions::Role;
    use arbiter_store::{Actor, NewApiToken};
    let store = store().await;
    let app = app(&store);
    let user = account(&store, "arbiter@gthscl.example", Role::Arbiter, None).await;
    let league = store.league("gthscl").await.unwrap().unwrap();
    let (_, secret) = store
        .create_api_token(
            &NewApiToken {
                user: user.id,
                league: league.id,
                role: Role::Arbiter,
                school: None,
                label: "results script".into(),
            },
            &Actor::system(),
        )
        .await
        .unwrap();
    let doc = get(&app, "/api/v1/openapi.json").await.json();
    let mut tried = 0;
    for (template, item) in doc["paths"].as_object().unwrap() {
        let params: Vec<&str> = template
            .split('/')
            .filter_map(|s| s.strip_prefix('{')?.strip_suffix('}'))
            .collect();
        for (method, op) in item.as_object().unwrap() {
            if params.is_empty() {
                continue;
            }
            let documented = &op["responses"];
            let bad = &documented["400"];
            assert!(bad.is_object(), "{method} {template}: no 400 documented");
            assert_eq!(
                bad["content"]["application/json"]["schema"]["$ref"],
                "#/components/schemas/ErrorAnswer",
                "{method} {template}"
            );
            let mut segments: Vec<(&str, &str)> = params.iter().map(|p| (*p, "%FF")).collect();
            if params.contains(&"round") {
                segments.push(("round", "-1"));
            }
            for (param, unreadable) in segments {
                let uri = concrete(&template.replace(&format!("{{{param}}}"), unreadable));
                let mut req = Request::builder()
                    .method(method.to_uppercase().as_str())
                    .uri(&uri);
                if method == "post" {
                    req = req
                        .header("authorization", format!("Bearer {secret}"))
                        .header("content-type", "application/json");
                }
                let a = send(&app, req.body(Body::from("{}")).unwrap()).await;
                assert_eq!(
                    a.status,
                    StatusCode::BAD_REQUEST,
                    "{method} {uri}: {}",
                    a.body
                );
                assert_eq!(a.header("content-type"), "application/json", "{uri}");
                let message = a.json()["error"]["message"].as_str().unwrap().to_string();
                assert!(message.ends_with('.'), "{uri}: a sentence: {message}");
                if unreadable == "-1" {
                    assert!(message.contains("not a round number"), "{uri}: {message}");
                }
                tried += 1;
            }
        }
    }
    // 8 reads and 5 writes with parameters, each segment of each, and each round twice.
    assert!(tried >= 13, "only {tried} requests tried");
}

/// utoipa names a schema by its struct's name, and of two structs of one name the document keeps
/// one: the other answer then fails its schema (schemathesis found the ledger's season so). Each
/// schema of the API is one struct name.
#[test]
fn every_api_schema_has_its_own_name() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut seen = std::collections::HashMap::new();
    let mut files = vec![dir.clone()];
    while let Some(d) = files.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let mut derives_schema = false;
            for line in text.lines() {
                let line = line.trim();
                if line.starts_with("#[derive(") {
                    derives_schema = line.contains("ToSchema");
                } else if let Some(rest) = line.strip_prefix("pub struct ")
                    && derives_schema
                {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if let Some(other) = seen.insert(name.clone(), path.clone()) {
                        panic!(
                            "{name} is a schema in both {} and {}",
                            other.display(),
                            path.display()
                        );
                    }
                    derives_schema = false;
                } else if !line.starts_with("#[") && !line.starts_with("///") {
                    derives_schema = false;
                }
            }
        }
    }
    assert!(
        seen.len() > 10,
        "the API's schemas were not found: {seen:?}"
    );
}
