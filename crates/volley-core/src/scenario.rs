//! Scenario files: TOML, read with positions so every error says FILE:LINE:COLUMN and what
//! was expected. The parts every ruleset shares (header, turn limit, options, map, sides and
//! commanders, objectives) are read here, once, as a [`Battle`]; each ruleset reads its own
//! units and tables from the same text.

use crate::options::OptionSpec;
use crate::side::Side;

use crate::map::{Cell, Hexside, Map, Terrain};
use crate::name::Name;
use hexx::Hex;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use toml::Spanned;

/// Game options, key to value, after the scenario's `[options]` and `--option` overrides.
pub use crate::options::{option, resolve_options, Options};
pub use crate::source::{Header, ScenarioError, ScenarioSource};

/// `[map]` as scenarios write it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// `hex` (the default) or `square`.
    #[serde(default)]
    pub grid: crate::map::Grid,
    /// One string per row, one token per hex (see [`Terrain`]).
    pub rows: Vec<Spanned<String>>,
    /// Each road as a list of adjacent hexes.
    #[serde(default)]
    pub roads: Vec<Vec<Spanned<String>>>,
    /// Hexside features: walls, hedges, fences, streams.
    #[serde(default)]
    pub hexsides: Vec<HexsideSpec>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideSpec {
    pub between: [Spanned<String>; 2],
    pub kind: Spanned<String>,
}

impl MapSpec {
    pub fn build(&self, src: &ScenarioSource) -> Result<Map, ScenarioError> {
        let height = self.rows.len() as i32;
        if height == 0 {
            return Err(src.error("[map] rows is empty: expected at least one row of hexes"));
        }
        let width = self.rows[0].get_ref().split_whitespace().count() as i32;
        if width == 0 {
            return Err(src.error_at(self.rows[0].span(), "the first map row has no hexes"));
        }
        let mut map = Map::open(width, height);
        map.grid = self.grid;
        for (r, row) in self.rows.iter().enumerate() {
            let tokens: Vec<&str> = row.get_ref().split_whitespace().collect();
            if tokens.len() as i32 != width {
                return Err(src.error_at(
                    row.span(),
                    format!(
                        "map row {} has {} hexes; the first row has {}",
                        r + 1,
                        tokens.len(),
                        width
                    ),
                ));
            }
            for (c, token) in tokens.iter().enumerate() {
                let mut chars = token.chars();
                let code = chars
                    .next()
                    .expect("split_whitespace gives non-empty tokens");
                let terrain = Terrain::from_code(code).ok_or_else(|| {
                    src.error_at(
                        row.span(),
                        format!(
                            "map row {}, column {}: unknown terrain '{code}' (expected one of . W w T ~ = f m r M F)",
                            r + 1,
                            c + 1
                        ),
                    )
                })?;
                let rest: String = chars.collect();
                let elevation = if rest.is_empty() {
                    0
                } else {
                    rest.parse::<u8>().ok().filter(|e| *e <= 9).ok_or_else(|| {
                        src.error_at(
                            row.span(),
                            format!("map row {}, column {}: \"{token}\" should be a terrain code and an elevation digit", r + 1, c + 1),
                        )
                    })?
                };
                map.set(
                    crate::geometry::hex_at(c as i32 + 1, r as i32 + 1),
                    Cell { terrain, elevation },
                );
            }
        }
        for road in &self.roads {
            let hexes = road
                .iter()
                .map(|h| src.hex(h, &map))
                .collect::<Result<Vec<_>, _>>()?;
            for (i, pair) in hexes.windows(2).enumerate() {
                if pair[0].unsigned_distance_to(pair[1]) != 1 {
                    return Err(src.error_at(
                        road[i + 1].span(),
                        format!(
                            "road hexes {} and {} are not adjacent",
                            road[i].get_ref(),
                            road[i + 1].get_ref()
                        ),
                    ));
                }
                map.add_road(pair[0], pair[1]);
            }
        }
        for side in &self.hexsides {
            let a = src.hex(&side.between[0], &map)?;
            let b = src.hex(&side.between[1], &map)?;
            if a.unsigned_distance_to(b) != 1 {
                return Err(src.error_at(
                    side.between[1].span(),
                    "a hexside lies between two adjacent hexes",
                ));
            }
            let kind = Hexside::parse(side.kind.get_ref()).ok_or_else(|| {
                src.error_at(
                    side.kind.span(),
                    format!(
                        "unknown hexside \"{}\" (expected wall, hedge, fence, stream or slope)",
                        side.kind.get_ref()
                    ),
                )
            })?;
            map.set_hexside(a, b, kind);
        }
        Ok(map)
    }
}

/// An objective hex worth points to whoever holds it at the end.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveSpec {
    pub hex: Spanned<String>,
    #[serde(default)]
    pub name: String,
    pub points: i32,
}

/// A commander as a scenario lists it under its side: `{ id, name, value, supreme, with }`,
/// and the keys a ruleset declares besides ([`OwnKeys::commander`]). Each ruleset says which
/// of these it uses and checks their values.
#[derive(Clone, Debug, Deserialize)]
pub struct CommanderSpec {
    pub id: Spanned<String>,
    #[serde(default)]
    pub name: String,
    /// Combat value, or whatever single rating the ruleset gives commanders.
    #[serde(default)]
    pub value: Option<Spanned<i32>>,
    #[serde(default)]
    pub supreme: bool,
    /// The unit it starts with, by id.
    #[serde(default)]
    pub with: Option<Spanned<String>>,
    /// Named ratings besides `value` (a rule system's commander traits), for the rulesets that
    /// declare the key `traits` in [`OwnKeys::commander`].
    #[serde(default)]
    pub traits: Option<Spanned<BTreeMap<String, i32>>>,
    /// A quality grade to rate the commander by (`veteran`, `trained`…), where declared.
    #[serde(default)]
    pub grade: Option<Spanned<String>>,
    /// The nation or troop type the commander alone may lead, where declared.
    #[serde(default)]
    pub nation: Option<Spanned<String>>,
    /// Where the commander stands, for rulesets in which commanders are pieces on the map.
    #[serde(default)]
    pub hex: Option<Spanned<String>>,
}

#[derive(Deserialize)]
struct CommonSide {
    name: String,
    #[serde(default)]
    break_point: Option<Spanned<u32>>,
    #[serde(default)]
    commanders: Vec<CommanderSpec>,
}

#[derive(Deserialize)]
struct CommonSides {
    red: CommonSide,
    blue: CommonSide,
}

#[derive(Deserialize)]
struct CommonFile {
    ruleset: Spanned<String>,
    name: String,
    title: String,
    #[serde(default)]
    description: String,
    turn_limit: Spanned<u32>,
    #[serde(default)]
    options: BTreeMap<String, Spanned<toml::Value>>,
    map: MapSpec,
    sides: CommonSides,
    #[serde(default)]
    objectives: Vec<ObjectiveSpec>,
    #[serde(default)]
    goals: Option<SideHexes>,
}

/// The keys of a scenario file every ruleset shares.
const COMMON_KEYS: &[&str] = &[
    "ruleset",
    "name",
    "title",
    "description",
    "turn_limit",
    "options",
    "map",
    "sides",
    "objectives",
    "goals",
];
/// The keys of `[sides.red]` and `[sides.blue]` every ruleset shares.
const COMMON_SIDE_KEYS: &[&str] = &["name", "break_point", "commanders"];
/// The keys of a commander every ruleset shares.
const COMMON_COMMANDER_KEYS: &[&str] = &["id", "name", "value", "supreme", "with"];

/// The keys a ruleset reads itself, besides the common ones: at the top of the file
/// (`units`, `decoys`…), in each side's table, and in each commander (of the optional ones
/// [`CommanderSpec`] holds: `traits`, `grade`, `nation`, `hex`).
#[derive(Clone, Copy, Debug)]
pub struct OwnKeys {
    pub top: &'static [&'static str],
    pub side: &'static [&'static str],
    pub commander: &'static [&'static str],
}

/// A side as every ruleset has it.
#[derive(Clone, Debug)]
pub struct BattleSide {
    pub name: Name,
    /// Percent of its strength an army may lose before it breaks, if the scenario says.
    pub break_point: Option<u32>,
    pub commanders: Vec<CommanderSpec>,
}

/// An objective hex, checked against the map.
#[derive(Clone, Debug)]
pub struct Objective {
    pub hex: Hex,
    pub name: Name,
    pub points: i32,
    /// The side whose goal it is, the only one that scores it (the scenario's `goals`);
    /// `None`: whichever side holds it.
    pub goal_of: Option<Side>,
}

/// The parts of a scenario every ruleset shares — header, turn limit, options, map, sides
/// with their commanders, objectives — read and checked once, here. A ruleset reads only
/// what is its own (units, decoys, tables) from the same text.
#[derive(Clone, Debug)]
pub struct Battle {
    pub name: Name,
    pub title: Name,
    pub description: String,
    pub turn_limit: u32,
    /// The options in force: the ruleset's defaults, the scenario's `[options]`, then the
    /// overrides, every one checked.
    pub options: Options,
    /// What the scenario itself wrote in `[options]`, with positions, for errors that a
    /// ruleset finds in a value (an option out of its range, say).
    pub written_options: BTreeMap<String, Spanned<toml::Value>>,
    pub map: Map,
    /// The map as views carry it, made once and shared by every view of the game.
    pub map_view: Arc<crate::map::MapView>,
    pub sides: [BattleSide; 2],
    pub objectives: Vec<Objective>,
}

/// Hexes by side, `{ red = ["0604"], blue = […] }`: a scenario's `goals` (objectives only one
/// side scores, every ruleset's) and Black Powder's `majors` by side.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SideHexes {
    #[serde(default)]
    red: Vec<Spanned<String>>,
    #[serde(default)]
    blue: Vec<Spanned<String>>,
}

impl SideHexes {
    /// The hexes named, each with the side whose goal it is.
    pub fn by_side(&self) -> impl Iterator<Item = (Side, &Spanned<String>)> {
        (self.red.iter().map(|h| (Side::Red, h))).chain(self.blue.iter().map(|h| (Side::Blue, h)))
    }
}

impl Battle {
    /// Reads the shared parts of a scenario of ruleset `ruleset`: checks that the file is for
    /// it, that every key is one this ruleset or every ruleset knows, and every shared value.
    pub fn read(
        src: &ScenarioSource,
        ruleset: &str,
        specs: &[OptionSpec],
        overrides: &Options,
        own: OwnKeys,
    ) -> Result<Battle, ScenarioError> {
        check_keys(src, own)?;
        let f: CommonFile = src.parse()?;
        if f.ruleset.get_ref() != ruleset {
            return Err(src.error_at(
                f.ruleset.span(),
                format!(
                    "this scenario is for \"{}\", not \"{ruleset}\"",
                    f.ruleset.get_ref()
                ),
            ));
        }
        if *f.turn_limit.get_ref() == 0 {
            return Err(src.error_at(f.turn_limit.span(), "turn_limit must be at least 1"));
        }
        let options = resolve_options(src, specs, &f.options, overrides)?;
        let map = f.map.build(src)?;
        let mut ids = Ids::default();
        let mut side = |s: CommonSide| -> Result<BattleSide, ScenarioError> {
            if let Some(bp) = &s.break_point {
                if !(1..=100).contains(bp.get_ref()) {
                    return Err(
                        src.error_at(bp.span(), "break_point is a percentage from 1 to 100")
                    );
                }
            }
            for c in &s.commanders {
                ids.claim(src, &c.id)?;
            }
            Ok(BattleSide {
                name: s.name.into(),
                break_point: s.break_point.map(|b| *b.get_ref()),
                commanders: s.commanders,
            })
        };
        let sides = [side(f.sides.red)?, side(f.sides.blue)?];
        let mut objectives = f
            .objectives
            .iter()
            .map(|o| {
                Ok(Objective {
                    hex: src.hex(&o.hex, &map)?,
                    name: o.name.as_str().into(),
                    points: o.points,
                    goal_of: None,
                })
            })
            .collect::<Result<Vec<_>, ScenarioError>>()?;
        let goals = goal_sides(src, &map, &objectives, f.goals.as_ref())?;
        for (o, goal) in objectives.iter_mut().zip(goals) {
            o.goal_of = goal;
        }
        Ok(Battle {
            name: f.name.into(),
            title: f.title.into(),
            description: f.description,
            turn_limit: *f.turn_limit.get_ref(),
            options,
            written_options: f.options,
            map_view: Arc::new(map.to_view()),
            map,
            sides,
            objectives,
        })
    }

    pub fn side(&self, side: Side) -> &BattleSide {
        &self.sides[side.index()]
    }

    /// The ids of the commanders, claimed already: a ruleset claims its units' ids in the
    /// same registry so that no id is used twice.
    pub fn ids(&self) -> Ids {
        let mut ids = Ids::default();
        for s in &self.sides {
            for c in &s.commanders {
                ids.0.insert(c.id.get_ref().clone());
            }
        }
        ids
    }
}

/// Whose goal each objective is (in the order of `objectives`), from the `goals` table: `None`
/// for an objective either side scores. A hex that is not an objective, or that is named for
/// both sides, is refused where it is written.
fn goal_sides(
    src: &ScenarioSource,
    map: &Map,
    objectives: &[Objective],
    goals: Option<&SideHexes>,
) -> Result<Vec<Option<Side>>, ScenarioError> {
    let mut sides = vec![None; objectives.len()];
    for (side, h) in goals.into_iter().flat_map(SideHexes::by_side) {
        let hex = src.hex(h, map)?;
        let Some(i) = objectives.iter().position(|o| o.hex == hex) else {
            return Err(src.error_at(
                h.span(),
                format!(
                    "{} is not one of the objectives",
                    crate::geometry::label(hex)
                ),
            ));
        };
        if sides[i].is_some() {
            return Err(src.error_at(
                h.span(),
                format!(
                    "{} is a goal of both sides: leave it out to make it either side's",
                    crate::geometry::label(hex)
                ),
            ));
        }
        sides[i] = Some(side);
    }
    Ok(sides)
}

/// Every key of the file is one the ruleset or every ruleset knows; the first that is not is
/// reported where it stands, with the keys that would do.
fn check_keys(src: &ScenarioSource, own: OwnKeys) -> Result<(), ScenarioError> {
    type Keys = BTreeMap<Spanned<String>, serde::de::IgnoredAny>;
    #[derive(Deserialize)]
    struct Sides {
        #[serde(default)]
        sides: BTreeMap<Spanned<String>, Keys>,
    }
    #[derive(Deserialize)]
    struct SideCommanders {
        #[serde(default)]
        commanders: Vec<Keys>,
    }
    #[derive(Deserialize)]
    struct Commanders {
        #[serde(default)]
        sides: BTreeMap<String, SideCommanders>,
    }
    // The first key of `keys` outside `known`, reported where it stands.
    let reject = |keys: &Keys, known: &[&str], place: &str| -> Result<(), ScenarioError> {
        match keys.keys().find(|k| !known.contains(&k.get_ref().as_str())) {
            Some(key) => Err(src.error_at(
                key.span(),
                format!(
                    "unknown key \"{}\" {place} (expected one of: {})",
                    key.get_ref(),
                    known.join(", ")
                ),
            )),
            None => Ok(()),
        }
    };
    let top: Keys = src.parse()?;
    let known: Vec<&str> = COMMON_KEYS.iter().chain(own.top).copied().collect();
    reject(&top, &known, "at the top of the scenario")?;
    let sides: Sides = src.parse()?;
    for (name, keys) in &sides.sides {
        if !["red", "blue"].contains(&name.get_ref().as_str()) {
            return Err(src.error_at(
                name.span(),
                format!(
                    "unknown side \"{}\": the sides are [sides.red] and [sides.blue]",
                    name.get_ref()
                ),
            ));
        }
        let known: Vec<&str> = COMMON_SIDE_KEYS.iter().chain(own.side).copied().collect();
        reject(keys, &known, &format!("in [sides.{}]", name.get_ref()))?;
    }
    let commanders: Commanders = src.parse()?;
    let known: Vec<&str> = COMMON_COMMANDER_KEYS
        .iter()
        .chain(own.commander)
        .copied()
        .collect();
    for (side, list) in &commanders.sides {
        for keys in &list.commanders {
            reject(keys, &known, &format!("in a commander of [sides.{side}]"))?;
        }
    }
    Ok(())
}

/// The ids used so far in a scenario: each unit and commander id is one word, used once.
#[derive(Clone, Debug, Default)]
pub struct Ids(std::collections::HashSet<String>);

impl Ids {
    pub fn claim(
        &mut self,
        src: &ScenarioSource,
        id: &Spanned<String>,
    ) -> Result<(), ScenarioError> {
        let text = id.get_ref();
        if text.is_empty() || text.contains(char::is_whitespace) {
            return Err(src.error_at(id.span(), "an id is one word, like \"r1\""));
        }
        if !self.0.insert(text.clone()) {
            return Err(src.error_at(id.span(), format!("id \"{text}\" is used twice")));
        }
        Ok(())
    }
}

impl ScenarioSource {
    /// `red` or `blue`, read from the file.
    pub fn side(&self, text: &Spanned<String>) -> Result<Side, ScenarioError> {
        Side::parse(text.get_ref()).ok_or_else(|| {
            self.error_at(
                text.span(),
                format!(
                    "expected side \"red\" or \"blue\", found \"{}\"",
                    text.get_ref()
                ),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::parse_label;

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct S {
        map: MapSpec,
    }

    fn src(text: &str) -> ScenarioSource {
        ScenarioSource::new("t.toml", text)
    }

    #[test]
    fn syntax_errors_have_line_and_column() {
        let e = src("ruleset = \"x\"\nname = \n").header().unwrap_err();
        assert_eq!((e.line, e.file.as_str()), (2, "t.toml"));
        assert!(e.to_string().starts_with("t.toml:2:"), "{e}");
    }

    #[test]
    fn header_reads_with_the_rest_of_the_file_present() {
        let h = src("ruleset = \"x\"\nname = \"n\"\ntitle = \"t\"\n[map]\nrows = [\".\"]\n")
            .header()
            .unwrap();
        assert_eq!((h.ruleset.get_ref().as_str(), h.name.as_str()), ("x", "n"));
        assert_eq!(h.ruleset.span(), 10..13);
    }

    #[test]
    fn bad_terrain_names_the_row() {
        let s = src("[map]\nrows = [\". . .\", \". X .\"]\n");
        let spec: S = s.parse().unwrap();
        let e = spec.map.build(&s).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("unknown terrain 'X'"), "{}", e.message);
    }

    #[test]
    fn ragged_rows_and_off_map_roads_are_refused() {
        let s = src("[map]\nrows = [\". . .\", \". .\"]\n");
        let spec: S = s.parse().unwrap();
        assert!(spec
            .map
            .build(&s)
            .unwrap_err()
            .message
            .contains("has 2 hexes"));
        let s = src("[map]\nrows = [\". . .\"]\nroads = [[\"0101\", \"0901\"]]\n");
        let spec: S = s.parse().unwrap();
        let e = spec.map.build(&s).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.message.contains("off the map"), "{}", e.message);
    }

    #[test]
    fn map_reads_elevation_roads_and_hexsides() {
        let s = src("[map]\nrows = [\". W1 =\", \"~ T .\"]\nroads = [[\"0101\", \"0201\"]]\nhexsides = [{ between = [\"0101\", \"0102\"], kind = \"wall\" }]\n");
        let spec: S = s.parse().unwrap();
        let m = spec.map.build(&s).unwrap();
        let h = |l: &str| parse_label(l).unwrap();
        assert_eq!(
            m.cell(h("0201")),
            Some(Cell {
                terrain: Terrain::Woods,
                elevation: 1
            })
        );
        assert_eq!(m.terrain(h("0301")), Terrain::Bridge);
        assert!(m.road_between(h("0201"), h("0101")));
        assert_eq!(m.hexside(h("0102"), h("0101")), Some(Hexside::Wall));
        assert_eq!(m.to_view().rows, vec![". W1 =", "~ T ."]);
    }
}
