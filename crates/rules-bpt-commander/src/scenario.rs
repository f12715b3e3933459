//! Reading a Black Powder scenario: the common header, options, map and objectives through
//! `volley_core::scenario`; the file's own keys into a typed set-up (`ScenarioFile`); then
//! the position built from it in named steps ([`load`]): the options' choices, each unit's
//! stat line and extras, each side's command units, the fixed formations, the objectives,
//! the works. Every mistake is reported at its file, line and column.

use crate::orders::MAX_UNITS;
use crate::state::{BptGame, Objective, Setting, TableRules};
use crate::terrain::{Work, WorkKind};
use crate::troops::{Arm, Formation, Traits, Unit};
use serde::Deserialize;
use std::collections::HashSet;
use toml::Spanned;
use volley_core::geometry::label;
use volley_core::map::Map;
use volley_core::scenario::CommanderSpec;
use volley_core::scenario::{option, OwnKeys, SideHexes};
use volley_core::{Battle, Hex, Options, ScenarioError, ScenarioSource, Side};

#[derive(Deserialize)]
struct ScenarioFile {
    units: Vec<UnitSpec>,
    #[serde(default)]
    first: Option<Spanned<String>>,
    /// Hexes of the objectives that are major (the rest are minor): a list for both sides,
    /// or by side (`majors = { red = ["2111"] }`: major for red, minor for blue).
    #[serde(default)]
    majors: Option<Majors>,
    /// Field defences and constructions.
    #[serde(default)]
    works: Vec<WorkSpec>,
}

/// The `majors` key: one list for both sides, or a list for each.
enum Majors {
    Both(Vec<Spanned<String>>),
    BySide(SideHexes),
}

impl<'de> Deserialize<'de> for Majors {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Majors, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = Majors;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a list of hexes, or a table of them by side (majors = { red = [\"2111\"] })",
                )
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Majors, A::Error> {
                let mut list = Vec::new();
                while let Some(h) = seq.next_element()? {
                    list.push(h);
                }
                Ok(Majors::Both(list))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Majors, A::Error> {
                SideHexes::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(Majors::BySide)
            }
        }
        d.deserialize_any(Either)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OtherMode {
    arm: String,
    #[serde(rename = "move")]
    move_cm: u32,
    dice: u32,
    range: u32,
    #[serde(default)]
    save: u32,
    hits: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkSpec {
    hex: Spanned<String>,
    kind: Spanned<String>,
}

const OWN_KEYS: OwnKeys = OwnKeys {
    top: &["units", "first", "majors", "works"],
    side: &[],
    commander: &["traits", "hex", "nation"],
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitSpec {
    side: Spanned<String>,
    id: Spanned<String>,
    name: String,
    arm: Spanned<String>,
    hex: Spanned<String>,
    facing: Spanned<String>,
    stands: Spanned<u32>,
    /// Move in cm.
    #[serde(rename = "move")]
    move_cm: u32,
    /// Attack dice per stand, and range in cm.
    dice: u32,
    range: u32,
    hits: Spanned<u32>,
    /// The save value; 0 or absent: none.
    #[serde(default)]
    save: Option<Spanned<u32>>,
    #[serde(default)]
    points: u32,
    #[serde(default)]
    formation: Option<Spanned<String>>,
    #[serde(default)]
    limbered: bool,
    #[serde(default)]
    canister: Option<[u32; 2]>,
    #[serde(default)]
    manhandle: u32,
    #[serde(default)]
    prolonge: u32,
    #[serde(default)]
    traits: Vec<Spanned<String>>,
    #[serde(default)]
    dug_in: bool,
    /// Morale grade: unmotivated, regular or motivated (with option `morale`).
    #[serde(default)]
    morale: Option<Spanned<String>>,
    /// The stat line of the unit's other mode: cavalry that may dismount, or dismounted
    /// cavalry that may mount.
    #[serde(default)]
    other_mode: Option<Spanned<OtherMode>>,
    /// Brigade skirmish stands screening the unit (after 1760).
    #[serde(default)]
    skirmishers: Option<Spanned<u32>>,
    /// Nation, in a multi-national army.
    #[serde(default)]
    nation: Option<Spanned<String>>,
    /// Nations whose command units may also order it (e.g. Portuguese trained by the British).
    #[serde(default)]
    trained_by: Vec<Spanned<String>>,
    /// The command unit (id) of its fixed formation.
    #[serde(default)]
    hq: Option<Spanned<String>>,
    /// Infantry: light howitzers of the regiment ("Regimental Artillery").
    #[serde(default)]
    regimental_guns: Option<Spanned<u32>>,
}

fn blank(side: Side, arm: Arm, id: &str, name: &str) -> Unit {
    Unit {
        id: id.into(),
        name: name.into(),
        side,
        arm,
        hex: volley_core::Hex::ZERO,
        facing: volley_core::geometry::Facing::N,
        stands: 1,
        full_stands: 1,
        move_cm: 0,
        manhandle_cm: 0,
        prolonge_cm: 0,
        dice: 0,
        range_cm: 0,
        canister: None,
        hits_per_stand: 1,
        save: None,
        points: 0,
        traits: Traits::default(),
        regimental_guns: 0,
        fao: false,
        command: 0,
        presence: 0,
        co: false,
        replaced: false,
        fresh: false,
        formation: Formation::Line,
        limbered: false,
        refused: 0,
        dug_in: false,
        hidden: false,
        scout_free: false,
        retired: false,
        morale: Default::default(),
        screen: 0,
        screen_hits: 0,
        other_mode: None,
        holders: 0,
        prone: false,
        nation: None,
        trained_by: 0,
        formation_hq: None,
        has_fired: false,
        ko: false,
        turn_hits: 0,
        suppressed: None,
        disorder_until: None,
        exhausted: false,
        opportunity: None,
        initiative_used: false,
        orders: 0,
        ordered_by: None,
        closed: false,
        tried: false,
        actions: 0,
        wheeled: false,
        hq_moved: false,
        supported: false,
        self_ordered: None,
        declared_charge: false,
        declared_dense: false,
        self_move: false,
    }
}

/// Reads a scenario into the position it starts from: the options, the units, the command
/// units, the fixed formations, the objectives and the works, each in its own step; the first
/// mistake found stops it.
pub fn load(src: &ScenarioSource, overrides: &Options) -> Result<BptGame, ScenarioError> {
    let battle = Battle::read(src, crate::ID, crate::OPTIONS, overrides, OWN_KEYS)?;
    let file: ScenarioFile = src.parse()?;
    let mut r = Reading {
        src,
        map: &battle.map,
        table: table_rules(&battle.options),
        nations: Vec::new(),
        units: Vec::new(),
        taken: HashSet::new(),
        formation_of: Vec::new(),
    };
    for spec in &file.units {
        let u = r.unit(spec)?;
        r.units.push(u);
    }
    for side in Side::BOTH {
        r.commanders(side, &battle.side(side).commanders)?;
    }
    r.fixed_formations()?;
    if r.units.len() > MAX_UNITS {
        return Err(src.error(format!("{} units: at most {MAX_UNITS}", r.units.len())));
    }
    let first = match &file.first {
        None => Side::Red,
        Some(s) => parse_side(src, s)?,
    };
    let objectives = objectives(src, &battle, &file)?;
    let works = works(src, &file, &battle.map)?;
    let Reading {
        table,
        nations,
        units,
        ..
    } = r;
    let setting = Setting {
        name: battle.name.clone(),
        title: battle.title.clone(),
        turn_limit: battle.turn_limit,
        lines: std::sync::Arc::new(crate::table::Sightlines::new(
            &battle.map,
            crate::table::SIGHTLINES_KEPT,
        )),
        map: battle.map,
        map_view: battle.map_view,
        side_names: [battle.sides[0].name.clone(), battle.sides[1].name.clone()],
        objectives,
        first,
        table,
        nations,
    };
    Ok(position(setting, units, works))
}

/// The choices the options make ([`crate::OPTIONS`]).
fn table_rules(o: &Options) -> TableRules {
    TableRules {
        initiative_fire_cm: option(o, "initiative_fire").parse().unwrap_or(20),
        charge_penalty_cm: option(o, "charge_penalty").parse().unwrap_or(10),
        saber: option(o, "saber_charge") == "on",
        exhaustion_hit: option(o, "exhaustion") == "hit",
        first_fire: option(o, "first_fire") == "on",
        squares: option(o, "squares") == "allowed",
        nearest_only: option(o, "order_fire") == "nearest",
        weather: crate::weather::WeatherRule::parse(option(o, "weather"))
            .unwrap_or(crate::weather::WeatherRule::Off),
        morale: crate::troops::MoraleRule::parse(option(o, "morale")).unwrap_or_default(),
        prone: option(o, "prone") == "on",
        fixed_formations: option(o, "fixed_formations") == "on",
        constructions: option(o, "constructions") == "on",
        shrapnel: option(o, "shrapnel") == "on",
        air_burst: option(o, "air_burst") == "on",
        deviation_hit_die: option(o, "deviation") != "always",
        frozen: option(o, "frozen") == "on",
        hidden_setup: option(o, "hidden_setup") == "on",
    }
}

/// The units and command units being read, with what they name across entries.
struct Reading<'a> {
    src: &'a ScenarioSource,
    map: &'a Map,
    table: TableRules,
    /// The nations named so far, in order (a unit keeps an index).
    nations: Vec<String>,
    units: Vec<Unit>,
    /// Hexes with a unit in them.
    taken: HashSet<Hex>,
    /// Units of a fixed formation and the command unit (id) they name.
    formation_of: Vec<(usize, Spanned<String>)>,
}

impl Reading<'_> {
    /// A nation's index, the name added if new (32 at most).
    fn nation(&mut self, n: &Spanned<String>) -> Result<u8, ScenarioError> {
        let name = n.get_ref().trim().to_lowercase();
        if name.is_empty() {
            return Err(self.src.error_at(n.span(), "a nation needs a name"));
        }
        if let Some(k) = self.nations.iter().position(|x| *x == name) {
            return Ok(k as u8);
        }
        if self.nations.len() == 32 {
            return Err(self.src.error_at(n.span(), "at most 32 nations a scenario"));
        }
        self.nations.push(name);
        Ok((self.nations.len() - 1) as u8)
    }

    /// One `[[units]]` entry.
    fn unit(&mut self, spec: &UnitSpec) -> Result<Unit, ScenarioError> {
        let mut u = self.stat_line(spec)?;
        self.other_mode(&mut u, spec)?;
        self.skirmishers(&mut u, spec)?;
        self.allegiance(&mut u, spec)?;
        if let Some(m) = &spec.morale {
            u.morale = crate::troops::Morale::parse(m.get_ref()).ok_or_else(|| {
                self.src.error_at(
                    m.span(),
                    format!(
                        "morale \"{}\"? unmotivated, regular or motivated",
                        m.get_ref()
                    ),
                )
            })?;
        }
        u.formation = self.formation(&u, spec)?;
        self.traits(&mut u, spec)?;
        self.regimental_guns(&mut u, spec)?;
        self.may_stand(&u, &spec.hex, || {
            format!(
                "{} cannot stand in {} ({})",
                u.arm.name(),
                label(u.hex),
                self.map.terrain(u.hex).name()
            )
        })?;
        Ok(u)
    }

    /// The unit where it stands, with its side, arm, stands, move, dice, range, hits and
    /// save.
    fn stat_line(&mut self, spec: &UnitSpec) -> Result<Unit, ScenarioError> {
        let src = self.src;
        let side = parse_side(src, &spec.side)?;
        let arm = match Arm::parse(spec.arm.get_ref()) {
            Some(Arm::Command) | None => {
                return Err(src.error_at(
                    spec.arm.span(),
                    format!(
                        "\"{}\" is not an arm here: infantry, cavalry or artillery (command units go under the side's commanders)",
                        spec.arm.get_ref()
                    ),
                ))
            }
            Some(a) => a,
        };
        let hex = src.hex(&spec.hex, self.map)?;
        if !self.taken.insert(hex) {
            return Err(src.error_at(
                spec.hex.span(),
                format!("a second unit in {}: one unit a hex", label(hex)),
            ));
        }
        let facing = src.facing(&spec.facing)?;
        if *spec.stands.get_ref() == 0 {
            return Err(src.error_at(spec.stands.span(), "a unit has at least one stand"));
        }
        if *spec.hits.get_ref() == 0 {
            return Err(src.error_at(spec.hits.span(), "hits a stand is at least 1"));
        }
        let save = match &spec.save {
            None => None,
            Some(s) if *s.get_ref() == 0 => None,
            Some(s) if (2..=6).contains(s.get_ref()) => Some(*s.get_ref()),
            Some(s) => {
                return Err(src.error_at(s.span(), "a save is a die score from 2 to 6 (0 for none)"))
            }
        };
        let mut u = blank(side, arm, spec.id.get_ref(), &spec.name);
        u.hex = hex;
        u.facing = facing;
        u.stands = *spec.stands.get_ref();
        u.full_stands = u.stands;
        u.move_cm = spec.move_cm;
        u.dice = spec.dice;
        u.range_cm = spec.range;
        u.hits_per_stand = *spec.hits.get_ref();
        u.save = save;
        u.points = spec.points;
        u.canister = spec.canister.map(|[d, r]| (d, r));
        u.manhandle_cm = spec.manhandle;
        u.prolonge_cm = spec.prolonge;
        u.limbered = arm == Arm::Artillery && spec.limbered;
        u.dug_in = spec.dug_in;
        Ok(u)
    }

    /// The stat line of the unit's other mode: cavalry on foot, dismounted cavalry mounted.
    fn other_mode(&self, u: &mut Unit, spec: &UnitSpec) -> Result<(), ScenarioError> {
        let Some(m) = &spec.other_mode else {
            return Ok(());
        };
        let o = m.get_ref();
        let other = match (u.arm, o.arm.as_str()) {
            (Arm::Cavalry, "infantry") => Arm::Infantry,
            (Arm::Infantry, "cavalry") => Arm::Cavalry,
            _ => {
                return Err(self.src.error_at(
                    m.span(),
                    "other_mode: cavalry's is arm = \"infantry\" (on foot), dismounted cavalry's arm = \"cavalry\"",
                ))
            }
        };
        u.other_mode = Some(crate::troops::Mode {
            arm: other,
            move_cm: o.move_cm,
            dice: o.dice,
            range_cm: o.range,
            save: (2..=6).contains(&o.save).then_some(o.save),
            hits: o.hits.max(1),
        });
        Ok(())
    }

    /// Brigade skirmish stands screening an infantry unit.
    fn skirmishers(&self, u: &mut Unit, spec: &UnitSpec) -> Result<(), ScenarioError> {
        if let Some(s) = &spec.skirmishers {
            if u.arm != Arm::Infantry || *s.get_ref() > 6 {
                return Err(self.src.error_at(
                    s.span(),
                    "brigade skirmishers screen infantry units, 0 to 6 stands",
                ));
            }
            u.screen = *s.get_ref() as u8;
        }
        Ok(())
    }

    /// Nation, the nations that trained it, and the command unit of its fixed formation
    /// (named now, found once the command units are read).
    fn allegiance(&mut self, u: &mut Unit, spec: &UnitSpec) -> Result<(), ScenarioError> {
        if let Some(n) = &spec.nation {
            u.nation = Some(self.nation(n)?);
        }
        for n in &spec.trained_by {
            u.trained_by |= 1 << self.nation(n)?;
        }
        if let Some(h) = &spec.hq {
            self.formation_of.push((self.units.len(), h.clone()));
        }
        Ok(())
    }

    /// The formation it starts in (line unless named).
    fn formation(&self, u: &Unit, spec: &UnitSpec) -> Result<Formation, ScenarioError> {
        let Some(f) = &spec.formation else {
            return Ok(Formation::Line);
        };
        let parsed = Formation::parse(f.get_ref()).ok_or_else(|| {
            self.src.error_at(
                f.span(),
                format!(
                    "\"{}\" is not a formation: line, extended, march, attack, square",
                    f.get_ref()
                ),
            )
        })?;
        if u.arm == Arm::Artillery || !u.may_form(parsed) || parsed == Formation::Disordered {
            return Err(self.src.error_at(
                f.span(),
                format!("{} cannot start in {}", u.arm.name(), parsed.name()),
            ));
        }
        Ok(parsed)
    }

    /// The traits the lists' notes give (docs/rules/bpt-commander.md lists them).
    fn traits(&self, u: &mut Unit, spec: &UnitSpec) -> Result<(), ScenarioError> {
        let src = self.src;
        for t in &spec.traits {
            let tr = &mut u.traits;
            match t.get_ref().as_str() {
                "elite" => tr.elite = true,
                "poor" => tr.poor = true,
                "light" => tr.light = true,
                "heavy" => tr.heavy = true,
                "lancers" => tr.lancers = true,
                "irregular" => tr.irregular = true,
                "no_square" => tr.no_square = true,
                "cover_shift" => tr.cover_shift = true,
                // Howitzers and mortars are smoothbore: cover read a step easier.
                "howitzer" => {
                    tr.no_half_range = true;
                    tr.howitzer = true;
                    tr.cover_shift = true;
                }
                "mortar" => {
                    tr.no_half_range = true;
                    tr.mortar = true;
                    tr.cover_shift = true;
                    tr.no_manhandle = true;
                }
                "no_manhandle" => tr.no_manhandle = true,
                "rifled_musket" => tr.rifled_musket = true,
                "pikes" => tr.pikes = true,
                "extra_die" => tr.extra_die = true,
                "attack_column_charge" => tr.attack_column_charge = true,
                "gatling" => tr.gatling = true,
                "engineer" => tr.engineer = true,
                "indirect" => tr.indirect = true,
                "scout" => {
                    if u.arm != Arm::Cavalry || *spec.stands.get_ref() != 1 {
                        return Err(src.error_at(
                            t.span(),
                            "scouting cavalry are single cavalry stands (stands = 1)",
                        ));
                    }
                    if !self.table.hidden_setup {
                        return Err(src.error_at(
                            t.span(),
                            "scouting cavalry look for a hidden set-up: set the option hidden_setup = \"on\"",
                        ));
                    }
                    tr.scout = true;
                }
                other => {
                    return Err(src.error_at(
                        t.span(),
                        format!("unknown trait \"{other}\": elite, poor, light, heavy, lancers, irregular, no_square, cover_shift, howitzer, mortar, no_manhandle, rifled_musket, pikes, extra_die, attack_column_charge, gatling, engineer, indirect, scout"),
                    ))
                }
            }
        }
        Ok(())
    }

    /// An infantry regiment's own light howitzers; howitzers and mortars of their own are
    /// artillery.
    fn regimental_guns(&self, u: &mut Unit, spec: &UnitSpec) -> Result<(), ScenarioError> {
        if let Some(g) = &spec.regimental_guns {
            if u.arm != Arm::Infantry && *g.get_ref() > 0 {
                return Err(self
                    .src
                    .error_at(g.span(), "regimental guns go with an infantry regiment"));
            }
            u.regimental_guns = *g.get_ref();
        }
        if (u.traits.howitzer || u.traits.mortar) && u.arm != Arm::Artillery {
            return Err(self.src.error_at(
                spec.arm.span(),
                "howitzers and mortars are artillery (an infantry regiment's own: regimental_guns)",
            ));
        }
        Ok(())
    }

    /// Refuses a unit in a hex it could not enter (deep water, unless frozen over).
    fn may_stand(
        &self,
        u: &Unit,
        at: &Spanned<String>,
        why: impl FnOnce() -> String,
    ) -> Result<(), ScenarioError> {
        let ground = crate::terrain::Ground {
            map: self.map,
            frozen: self.table.frozen,
        };
        if ground.passable(u.hex, u) {
            Ok(())
        } else {
            Err(self.src.error_at(at.span(), why()))
        }
    }

    /// A side's command units: at least one, one CO (the one marked supreme, else the best).
    fn commanders(
        &mut self,
        side: Side,
        commanders: &[CommanderSpec],
    ) -> Result<(), ScenarioError> {
        let src = self.src;
        if commanders.is_empty() {
            return Err(src.error(format!(
                "{side} has no commanders: every Command needs its CO"
            )));
        }
        let supreme = commanders.iter().filter(|c| c.supreme).count();
        if supreme > 1 {
            return Err(src.error_at(
                commanders[1].id.span(),
                format!("{side} has {supreme} COs: one army HQ a side"),
            ));
        }
        let co = commanders
            .iter()
            .position(|c| c.supreme)
            .unwrap_or_else(|| {
                (0..commanders.len())
                    .max_by_key(|&i| commanders[i].value.as_ref().map_or(0, |v| *v.get_ref()))
                    .unwrap_or(0)
            });
        for (i, c) in commanders.iter().enumerate() {
            let u = self.commander(side, c, i == co)?;
            self.units.push(u);
        }
        Ok(())
    }

    /// One command unit: its hex, command value and traits (presence, move, save, points,
    /// fao).
    fn commander(
        &mut self,
        side: Side,
        c: &CommanderSpec,
        co: bool,
    ) -> Result<Unit, ScenarioError> {
        let src = self.src;
        let Some(hex_text) = &c.hex else {
            return Err(src.error_at(c.id.span(), "a command unit needs a hex"));
        };
        let hex = src.hex(hex_text, self.map)?;
        let value = c.value.as_ref().ok_or_else(|| {
            src.error_at(
                c.id.span(),
                "a command unit needs a command value (value = 6…11)",
            )
        })?;
        if !(2..=12).contains(value.get_ref()) {
            return Err(src.error_at(value.span(), "a command value is from 2 to 12"));
        }
        let traits = c
            .traits
            .as_ref()
            .map(|t| t.get_ref().clone())
            .unwrap_or_default();
        for k in traits.keys() {
            if !["presence", "move", "save", "points", "fao"].contains(&k.as_str()) {
                return Err(src.error_at(
                    c.traits.as_ref().expect("traits").span(),
                    format!(
                        "unknown command unit trait \"{k}\": presence, move, save, points, fao"
                    ),
                ));
            }
        }
        let mut u = blank(
            side,
            Arm::Command,
            c.id.get_ref(),
            if c.name.is_empty() {
                c.id.get_ref()
            } else {
                &c.name
            },
        );
        u.hex = hex;
        u.command = *value.get_ref() as u32;
        u.co = co;
        u.presence = traits.get("presence").copied().unwrap_or(1).max(0) as u32;
        u.move_cm = traits.get("move").copied().unwrap_or(30).max(0) as u32;
        u.save = Some(traits.get("save").copied().unwrap_or(6).clamp(2, 6) as u32);
        u.points = traits.get("points").copied().unwrap_or(55).max(0) as u32;
        u.hits_per_stand = 6;
        if let Some(n) = &c.nation {
            u.nation = Some(self.nation(n)?);
        }
        u.fao = traits.get("fao").copied().unwrap_or(0) != 0;
        if u.fao {
            self.field_artillery_officer(&u, c)?;
        }
        self.may_stand(&u, hex_text, || {
            format!("{} cannot stand in {}", u.label(), label(hex))
        })?;
        Ok(u)
    }

    /// A Field Artillery Officer is never the CO and needs 6 artillery units of its side
    /// for each one.
    fn field_artillery_officer(&self, u: &Unit, c: &CommanderSpec) -> Result<(), ScenarioError> {
        let side = u.side;
        if u.co {
            return Err(self.src.error_at(
                c.id.span(),
                "a Field Artillery Officer orders artillery only and cannot be the CO",
            ));
        }
        let mine = self.units.iter().filter(|g| g.side == side);
        let guns = mine.clone().filter(|g| g.arm == Arm::Artillery).count();
        let faos = mine.filter(|g| g.fao).count() + 1;
        if faos * crate::artillery::GUNS_PER_FAO > guns {
            return Err(self.src.error_at(
                c.id.span(),
                format!(
                    "{faos} Field Artillery Officer(s) need {} artillery units on the table; {side} has {guns}",
                    faos * crate::artillery::GUNS_PER_FAO
                ),
            ));
        }
        Ok(())
    }

    /// Each unit of a fixed formation gets the command unit it names (one of its side's).
    fn fixed_formations(&mut self) -> Result<(), ScenarioError> {
        let src = self.src;
        for (k, h) in std::mem::take(&mut self.formation_of) {
            let hq = self
                .units
                .iter()
                .position(|u| u.is_hq() && &*u.id == h.get_ref().as_str())
                .ok_or_else(|| {
                    src.error_at(h.span(), format!("no command unit \"{}\"", h.get_ref()))
                })?;
            if self.units[hq].side != self.units[k].side {
                return Err(src.error_at(h.span(), format!("{} is the enemy's", h.get_ref())));
            }
            self.units[k].formation_hq = Some(hq as u16);
        }
        Ok(())
    }
}

/// The objectives, each major for the sides `majors` names (a side's own major objective must
/// be one it is out to reach).
fn objectives(
    src: &ScenarioSource,
    battle: &Battle,
    file: &ScenarioFile,
) -> Result<Vec<Objective>, ScenarioError> {
    let mut objectives: Vec<Objective> = battle
        .objectives
        .iter()
        .map(|o| Objective {
            hex: o.hex,
            name: o.name.clone(),
            points: o.points,
            major: [false; 2],
            goal_of: o.goal_of,
        })
        .collect();
    let majors: Vec<(&Spanned<String>, [bool; 2])> = match &file.majors {
        None => Vec::new(),
        Some(Majors::Both(list)) => list.iter().map(|m| (m, [true, true])).collect(),
        Some(Majors::BySide(g)) => g
            .by_side()
            .map(|(side, m)| (m, [side == Side::Red, side == Side::Blue]))
            .collect(),
    };
    for (m, sides) in majors {
        let hex = src.hex(m, &battle.map)?;
        match objectives.iter_mut().find(|o| o.hex == hex) {
            Some(o) => {
                o.major[0] |= sides[0];
                o.major[1] |= sides[1];
            }
            None => {
                return Err(src.error_at(
                    m.span(),
                    format!("{} is not one of the objectives", label(hex)),
                ))
            }
        }
    }
    if let Some(Majors::BySide(g)) = &file.majors {
        for (side, m) in g.by_side() {
            let hex = src.hex(m, &battle.map)?;
            if let Some(goal) = objectives
                .iter()
                .find(|o| o.hex == hex)
                .and_then(|o| o.goal_of)
                .filter(|&g| g != side)
            {
                return Err(src.error_at(
                    m.span(),
                    format!(
                        "{} is {}'s goal only: it cannot be a major objective for {}",
                        label(hex),
                        battle.sides[goal.index()].name,
                        battle.sides[side.index()].name
                    ),
                ));
            }
        }
    }
    Ok(objectives)
}

/// Field defences and constructions on the table, one a hex.
fn works(src: &ScenarioSource, file: &ScenarioFile, map: &Map) -> Result<Vec<Work>, ScenarioError> {
    let mut works: Vec<Work> = Vec::new();
    for w in &file.works {
        let hex = src.hex(&w.hex, map)?;
        let kind = WorkKind::parse(w.kind.get_ref()).ok_or_else(|| {
            let all: Vec<&str> = WorkKind::ALL.iter().map(|k| k.word()).collect();
            src.error_at(
                w.kind.span(),
                format!("\"{}\" is not a work: {}", w.kind.get_ref(), all.join(", ")),
            )
        })?;
        if works.iter().any(|x| x.hex == hex) {
            return Err(src.error_at(
                w.hex.span(),
                format!("a second work in {}: one a hex", label(hex)),
            ));
        }
        works.push(Work { hex, kind, hits: 0 });
    }
    Ok(works)
}

/// The position at the start: the works down, the troops in a trench dug in, and every unit
/// hidden under a hidden set-up.
fn position(setting: Setting, units: Vec<Unit>, works: Vec<Work>) -> BptGame {
    let mut game = BptGame::new(setting, units);
    game.works = std::sync::Arc::new(works);
    for k in 0..game.units.len() {
        let hex = game.units[k].hex;
        if game.dug_in_by_works(hex, &game.units[k]) {
            game.units[k].dug_in = true;
        }
        game.units[k].hidden = game.table().hidden_setup;
    }
    game
}

fn parse_side(src: &ScenarioSource, s: &Spanned<String>) -> Result<Side, ScenarioError> {
    match s.get_ref().as_str() {
        "red" => Ok(Side::Red),
        "blue" => Ok(Side::Blue),
        other => Err(src.error_at(s.span(), format!("side \"{other}\"? red or blue"))),
    }
}
