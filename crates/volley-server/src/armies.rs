//! The army builder's answers, for whichever rule system has army lists (found through the
//! registry): the lists, one list with what can be bought of it, the check of an army as the
//! browser builds it, an army the computer builds, the fields and the armies that come with
//! it. Armies are fought through `POST /api/games` with `armies`.

use crate::reply::{bad_request, json_body, ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use volley_core::armies::{Armies, Muster};
use volley_core::{Ruleset, ScenarioSource};

/// The largest army file the server reads.
pub const ARMY_BYTES: usize = 16 * 1024;

/// `?ruleset=ID`: which rule system's lists (needed only when several have lists).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Which {
    #[serde(default)]
    ruleset: Option<String>,
}

fn armies_of(ruleset: Option<&str>) -> ApiResult<(&'static dyn Ruleset, &'static dyn Armies)> {
    volley_rulesets::armies_of(ruleset).map_err(|m| ApiError::new(StatusCode::NOT_FOUND, m))
}

fn which(q: Result<Query<Which>, QueryRejection>) -> ApiResult<Option<String>> {
    q.map(|Query(w)| w.ruleset)
        .map_err(|e| bad_request(format!("the query cannot be read: {e}")))
}

/// Every list, field and bundled army of a rule system, and the rule systems that have lists.
pub async fn index(q: Result<Query<Which>, QueryRejection>) -> ApiResult<Json<Value>> {
    let (ruleset, armies) = armies_of(which(q)?.as_deref())?;
    let armies_json: Vec<Value> = armies
        .bundled()
        .iter()
        .filter_map(|b| {
            let a = armies.check(&ScenarioSource::new(b.name, b.text), None).ok()?;
            Some(json!({ "name": b.name, "title": a.name, "list": a.list, "points": a.points, "cost": a.cost, "text": b.text }))
        })
        .collect();
    let rulesets: Vec<Value> = volley_rulesets::with_armies()
        .iter()
        .map(|r| json!({ "id": r.id(), "title": r.title() }))
        .collect();
    Ok(Json(json!({
        "ruleset": { "id": ruleset.id(), "title": ruleset.title() },
        "rulesets": rulesets,
        "lists": armies.lists(),
        "maps": armies.fields(),
        "armies": armies_json,
    })))
}

/// One list, with what the builder needs to offer its rows.
pub async fn list(
    Path(id): Path<String>,
    q: Result<Query<Which>, QueryRejection>,
) -> ApiResult<Json<Value>> {
    let (_, armies) = armies_of(which(q)?.as_deref())?;
    armies.list(&id).map(Json).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no army list \"{id}\" (see /api/armies)"),
        )
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    /// The army file's text.
    army: String,
    #[serde(default)]
    points: Option<u32>,
    #[serde(default)]
    ruleset: Option<String>,
}

/// Checks an army: `{ok, army, errors: [{line, column, message}], addable}`.
pub async fn check(body: Result<Bytes, BytesRejection>) -> ApiResult<Json<Value>> {
    let req: CheckRequest = json_body(body)?;
    // An army file is a few KiB; the check runs the checker once a row of the list.
    if req.army.len() > ARMY_BYTES {
        return Err(bad_request(format!(
            "an army file is at most {} KiB",
            ARMY_BYTES / 1024
        )));
    }
    let (_, armies) = armies_of(req.ruleset.as_deref())?;
    let src = ScenarioSource::new("army", req.army.clone());
    let (ok, army, errors) = match armies.check(&src, req.points) {
        Ok(a) => (true, a.json, Vec::new()),
        Err(e) => (
            false,
            Value::Null,
            e.iter()
                .map(|e| json!({ "line": e.line, "column": e.column, "message": e.message }))
                .collect(),
        ),
    };
    let addable = armies.addable(&req.army, req.points);
    Ok(Json(
        json!({ "ok": ok, "army": army, "errors": errors, "addable": addable }),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GenerateRequest {
    /// The list's id.
    list: String,
    points: u32,
    /// The seed the choices are drawn from (default: a random one, returned).
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    ruleset: Option<String>,
}

/// An army the computer builds from a list to a points total: `{seed, text, name, list,
/// points, cost, army, summary}`, the army as the check gives it; `400` in words for a list
/// there is not or a total too small or too large for it.
pub async fn generate(body: Result<Bytes, BytesRejection>) -> ApiResult<Json<Value>> {
    let req: GenerateRequest = json_body(body)?;
    let (_, armies) = armies_of(req.ruleset.as_deref())?;
    // A drawn seed below 2^53, which a browser's JSON reads exactly.
    let seed = req
        .seed
        .unwrap_or_else(|| crate::random::random_u64() >> 11);
    let g = armies
        .generate(&req.list, req.points, seed)
        .map_err(bad_request)?;
    Ok(Json(json!({
        "seed": seed,
        "text": g.text,
        "name": g.army.name,
        "list": g.army.list,
        "points": g.army.points,
        "cost": g.army.cost,
        "army": g.army.json,
        "summary": g.army.summary,
    })))
}

/// Two armies the check accepts, deployed on a field: the scenario's name and text, or why
/// not.
pub fn muster(
    ruleset: Option<&str>,
    red: &str,
    blue: &str,
    map: &str,
) -> Result<(String, String), String> {
    let (_, armies) = volley_rulesets::armies_of(ruleset)?;
    let sources = [("red", red), ("blue", blue)]
        .map(|(side, text)| ScenarioSource::new(format!("{side} army"), text));
    for (side, src) in ["red", "blue"].iter().zip(&sources) {
        armies.check(src, None).map_err(|e| {
            format!(
                "the {side} army is not ready: {}",
                e.iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        })?;
    }
    let field = armies.field(map).ok_or_else(|| {
        let names: Vec<String> = armies.fields().into_iter().map(|f| f.name).collect();
        format!("no field \"{map}\": one of {}", names.join(", "))
    })?;
    let name = format!("army-battle-{map}");
    let words = Muster {
        name: name.clone(),
        ..Default::default()
    };
    let mustered = armies
        .muster(&sources[0], &sources[1], None, &field, &words)
        .map_err(|errors| {
            let said: Vec<String> = errors
                .iter()
                .map(|e| {
                    if e.line == 0 {
                        format!("{}: {}", e.file, e.message)
                    } else {
                        format!("{}: line {}: {}", e.file, e.line, e.message)
                    }
                })
                .collect();
            format!("the armies cannot be deployed: {}", said.join("; "))
        })?;
    Ok((name, mustered.scenario))
}
