//! The army builder's answers (Black Powder Tactical Commander): the lists, one list with what
//! can be bought of it, the check of an army as the browser builds it, the fields and the
//! armies that come with Volley. Armies are fought through `POST /api/games` with `armies`.

use crate::reply::{bad_request, json_body, ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use rules_bpt_commander::{army, battle, lists};
use serde::Deserialize;
use serde_json::{json, Value};
use volley_core::ScenarioSource;

/// The largest army file the server reads.
pub const ARMY_BYTES: usize = 16 * 1024;

/// Every list, field and bundled army.
pub async fn index() -> Json<Value> {
    let lists: Vec<Value> = lists::lists()
        .iter()
        .map(|l| json!({ "id": l.id, "name": l.name, "period": l.period.id(), "source": l.source }))
        .collect();
    let maps: Vec<Value> = battle::MAPS
        .iter()
        .filter_map(|(name, _)| {
            let f = battle::field(&battle::named_map(name)?).ok()?;
            Some(json!({ "name": name, "title": f.title }))
        })
        .collect();
    let armies: Vec<Value> = battle::ARMIES
        .iter()
        .filter_map(|(name, text)| {
            let a = army::check(&ScenarioSource::new(*name, *text), None).ok()?;
            Some(json!({ "name": name, "title": a.name, "list": a.list_id, "points": a.points, "cost": a.cost, "text": text }))
        })
        .collect();
    Json(json!({ "lists": lists, "maps": maps, "armies": armies }))
}

/// One list: its troop rows with what the builder needs to offer them (regimental guns: the
/// points of one, or null where the row takes none), its command chart, the Field Artillery
/// Officer, the field defences an army in defence may buy, and its special rules.
pub async fn list(Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let l = lists::find(&id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no army list \"{id}\" (see /api/armies)"),
        )
    })?;
    let rows: Vec<Value> = l
        .troops
        .iter()
        .map(|t| {
            let (lo, hi, default) = army::stand_range(t.arm);
            let (grades, horse, dismount) = army::row_options(l, t);
            json!({
                "troop": t, "why_not": army::why_not_for_sale(l, t),
                "stands": [lo, hi, default], "grades": grades, "horse": horse, "dismount": dismount,
                "regimental_gun": army::regimental_gun_points(l, t).ok(),
            })
        })
        .collect();
    let fao = &army::FAO;
    let works: Vec<Value> = army::buyable_works()
        .map(|k| json!({ "kind": k.word(), "points": k.points(), "hasty": k.hasty() }))
        .collect();
    Ok(Json(json!({
        "list": { "id": l.id, "name": l.name, "period": l.period.id(), "organisation": l.organisation },
        "rows": rows,
        "commands": l.command_chart(),
        "fao": {
            "command": fao.command, "move": fao.move_mounted, "presence": fao.presence,
            "save": fao.save, "points": fao.points, "per_artillery": army::ARTILLERY_PER_FAO,
        },
        "regimental_guns_max": army::REGIMENTAL_GUNS_MAX,
        "defences": { "hasty": 10, "fixed": 25 },
        "works": works,
        "rules": l.rule_set(),
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckRequest {
    /// The army file's text.
    army: String,
    #[serde(default)]
    points: Option<u32>,
}

/// Checks an army: `{ok, army, errors: [{line, column, message}], addable}`.
pub async fn check(body: Result<Bytes, BytesRejection>) -> ApiResult<Json<Value>> {
    let req: CheckRequest = json_body(body)?;
    // An army file is a few KiB; the check below runs the checker once a row of the list.
    if req.army.len() > ARMY_BYTES {
        return Err(bad_request(format!(
            "an army file is at most {} KiB",
            ARMY_BYTES / 1024
        )));
    }
    let src = ScenarioSource::new("army", req.army.clone());
    let (ok, army, errors) = match army::check(&src, req.points) {
        Ok(a) => (
            true,
            serde_json::to_value(&a).unwrap_or(Value::Null),
            Vec::new(),
        ),
        Err(e) => (
            false,
            Value::Null,
            e.iter()
                .map(|e| json!({ "line": e.line, "column": e.column, "message": e.message }))
                .collect(),
        ),
    };
    let addable = army::addable(&req.army, req.points);
    Ok(Json(
        json!({ "ok": ok, "army": army, "errors": errors, "addable": addable }),
    ))
}

/// Two armies the check accepts, deployed on a field: the scenario's text, or why not.
pub fn muster(red: &str, blue: &str, map: &str) -> Result<(String, String), String> {
    let mut armies = Vec::new();
    for (side, text) in [("red", red), ("blue", blue)] {
        let a =
            army::check(&ScenarioSource::new(format!("{side} army"), text), None).map_err(|e| {
                format!(
                    "the {side} army is not ready: {}",
                    e.iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            })?;
        armies.push(a);
    }
    let src = battle::named_map(map)
        .ok_or_else(|| format!("no field \"{map}\": one of {}", battle::map_names()))?;
    let field = battle::field(&src).map_err(|e| e.to_string())?;
    let name = format!("army-battle-{map}");
    let words = battle::Words {
        name: name.clone(),
        ..Default::default()
    };
    let text =
        battle::muster(&armies[0], &armies[1], &field, &words, &name).map_err(|e| e.message)?;
    Ok((name, text))
}
