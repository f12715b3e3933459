//! Units and their stat lines (Army Lists, "Stat Lines"; Game Concepts, "Attacks, Hits &
//! Saves"), the six movement formations ("Movement Formations") and the command units
//! ("Command Units"). A unit is a number of stands of one troop type; its dice, its hits and
//! its save are per stand, as the lists give them.

use volley_core::geometry::Facing;
use volley_core::{Hex, Name, Side};

/// The arms of service the core plays (the lists' transport and engineers come with the
/// army lists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arm {
    Infantry,
    Cavalry,
    Artillery,
    /// A command unit: the commanding officer (CO) or a headquarters (HQ).
    Command,
}

impl Arm {
    pub fn parse(text: &str) -> Option<Arm> {
        Some(match text {
            "infantry" => Arm::Infantry,
            "cavalry" => Arm::Cavalry,
            "artillery" => Arm::Artillery,
            "command" => Arm::Command,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
            Arm::Command => "command",
        }
    }

    pub fn symbol(self) -> char {
        match self {
            Arm::Infantry => 'I',
            Arm::Cavalry => 'C',
            Arm::Artillery => 'A',
            Arm::Command => 'H',
        }
    }

    /// Troops on foot, for terrain ("Command Units" move as foot).
    pub fn on_foot(self) -> bool {
        matches!(self, Arm::Infantry | Arm::Command)
    }
}

/// The movement formations and the disordered state ("Movement Formations").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Formation {
    Line,
    ExtendedLine,
    MarchColumn,
    AttackColumn,
    Square,
    Disordered,
}

impl Formation {
    pub const ALL: [Formation; 6] = [
        Formation::Line,
        Formation::ExtendedLine,
        Formation::MarchColumn,
        Formation::AttackColumn,
        Formation::Square,
        Formation::Disordered,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::ExtendedLine => "extended line",
            Formation::MarchColumn => "march column",
            Formation::AttackColumn => "attack column",
            Formation::Square => "square",
            Formation::Disordered => "disordered",
        }
    }

    /// The word used in notation: `line`, `extended`, `march`, `attack`, `square`,
    /// `disordered`.
    pub fn word(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::ExtendedLine => "extended",
            Formation::MarchColumn => "march",
            Formation::AttackColumn => "attack",
            Formation::Square => "square",
            Formation::Disordered => "disordered",
        }
    }

    pub fn parse(text: &str) -> Option<Formation> {
        Formation::ALL
            .into_iter()
            .find(|f| f.word() == text || f.name() == text)
    }

    pub fn index(self) -> u64 {
        Formation::ALL.iter().position(|f| *f == self).unwrap_or(0) as u64
    }

    pub fn from_index(i: u64) -> Option<Formation> {
        Formation::ALL.get(i as usize).copied()
    }

    /// The deployment table: which formation a deploy order may change this one into.
    pub fn may_become(self, to: Formation) -> bool {
        use Formation::*;
        match (self, to) {
            (a, b) if a == b => false,
            (Line, AttackColumn) => false,
            (ExtendedLine, Line | Disordered) => true,
            (ExtendedLine, _) => false,
            (_, ExtendedLine) => self == Line,
            _ => true,
        }
    }
}

/// What a unit's list row says besides its numbers: the special rules the core plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits {
    /// One fewer die when falling back.
    pub elite: bool,
    /// One more die when falling back; may not form square.
    pub poor: bool,
    /// Light infantry, sharpshooters: skirmishers, who move freely in extended line and do
    /// not block sight.
    pub light: bool,
    /// Heavy cavalry: +1 attack in a charge.
    pub heavy: bool,
    /// Lancers: +1 attack in the first round of their charge.
    pub lancers: bool,
    /// Irregular cavalry may not charge a square.
    pub irregular: bool,
    /// May not form square (and counts as in the open against cavalry).
    pub no_square: bool,
    /// Artillery that reads cover one step easier (smoothbore and rifled guns in the lists).
    pub cover_shift: bool,
    /// Howitzers and mortars: no half-range bonus.
    pub no_half_range: bool,
    /// Howitzers: shell only, at high angle, harming only targets in the open unless the
    /// shell bursts in the air ("Howitzers").
    pub howitzer: bool,
    /// Mortars: shell only, at high angle ("Mortars").
    pub mortar: bool,
    /// Guns that may not be man-handled (mortars, siege guns).
    pub no_manhandle: bool,
    /// Engineers (or infantry with an engineer stand): they do the engineering tasks.
    pub engineer: bool,
    /// Rolls one attack die more, in fire and in a charge (Napoleonic note 22).
    pub extra_die: bool,
    /// Must charge in attack column (Napoleonic note 21).
    pub attack_column_charge: bool,
    /// A Gatling gun: any double among its attack dice jams it, and it is knocked out.
    pub gatling: bool,
    /// Carries pikes (to 1721): cavalry may not charge it from the front, and against foot
    /// it fights a level of cover better.
    pub pikes: bool,
    /// Infantry armed with rifled muskets (+1 attack against charging cavalry with the saber
    /// charge option).
    pub rifled_musket: bool,
    /// Scouting cavalry (the optional rule): a single stand that spots hidden troops and
    /// does not fight.
    pub scout: bool,
    /// Limited indirect fire (the colonial modern light gun, note 21): shell at high angle
    /// at a target it cannot see that a friend sees.
    pub indirect: bool,
}

/// When a unit became suppressed: the player turn (see `BptGame::player_turn`) and the attack
/// that did it, so that one order never both suppresses a unit and makes it fall back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suppression {
    pub placed: u32,
    pub by_attack: u32,
}

/// A unit: its list row, its stands, and its state in play.
#[derive(Clone, Debug)]
pub struct Unit {
    pub id: Name,
    pub name: Name,
    pub side: Side,
    pub arm: Arm,
    pub hex: Hex,
    pub facing: Facing,
    /// Stands now (the unit command stand counts as one) and at the start.
    pub stands: u32,
    pub full_stands: u32,
    /// Move in cm: foot, horse or the limbered guns' tow.
    pub move_cm: u32,
    /// Artillery: how far the crew man-handle the gun (cm), and how far it goes on prolonge.
    pub manhandle_cm: u32,
    pub prolonge_cm: u32,
    /// Attack dice per stand and range in cm.
    pub dice: u32,
    pub range_cm: u32,
    /// Artillery: canister attacks and range (cm), when the list gives the gun canister.
    pub canister: Option<(u32, u32)>,
    pub hits_per_stand: u32,
    /// The lowest die that saves a hit; `None`: no save.
    pub save: Option<u32>,
    /// Points per stand (command units: for the unit).
    pub points: u32,
    pub traits: Traits,
    /// Infantry: light howitzers of the regiment that move and fire with it ("Regimental
    /// Artillery").
    pub regimental_guns: u32,
    // Command units.
    /// A Field Artillery Officer: orders grand batteries of artillery only.
    pub fao: bool,
    /// The command value (after any replacement penalty).
    pub command: u32,
    /// Dice the command unit adds to a unit it touches ("Command Presence").
    pub presence: u32,
    /// The commanding officer.
    pub co: bool,
    pub replaced: bool,
    /// Placed this turn as a replacement: no orders, no move.
    pub fresh: bool,
    // State.
    pub formation: Formation,
    /// Artillery: hooked to its limber.
    pub limbered: bool,
    /// A refused flank: the hexside turned to front on that side (-1 left, +1 right).
    pub refused: i8,
    pub dug_in: bool,
    /// Hidden from the enemy, who sees only a marker (the hidden set-up, `scouting.rs`).
    pub hidden: bool,
    /// Scouting cavalry: set free by its first order; left the table unharmed.
    pub scout_free: bool,
    pub retired: bool,
    /// The stat line of the unit's other mode (mounted or on foot), if it has one.
    pub other_mode: Option<Mode>,
    /// Stands left with the horses while on foot.
    pub holders: u32,
    /// Brigade skirmish stands screening the unit, and the hits they hold this turn.
    pub screen: u8,
    pub screen_hits: u8,
    /// Lying down (the optional Prone Movement rule).
    pub prone: bool,
    /// Nation (Multi-National Armies), an index into the scenario's nations.
    pub nation: Option<u8>,
    /// Nations whose command units may order it besides its own (bit k: nation k).
    pub trained_by: u32,
    /// The command unit of its fixed formation (the optional Fixed Formations rule).
    pub formation_hq: Option<u16>,
    /// Morale grade (used with the optional Morale rule).
    pub morale: Morale,
    /// Has fired since the start of the battle (first-fire bonus; concealed guns).
    pub has_fired: bool,
    pub ko: bool,
    /// Hits taken this turn, turned into stand losses at the end phase.
    pub turn_hits: u32,
    pub suppressed: Option<Suppression>,
    /// The disorder penalty lasts until the end of this side's initiative phase in the
    /// player turn numbered here.
    pub disorder_until: Option<u32>,
    pub exhausted: bool,
    /// The player turn in which it last took opportunity fire.
    pub opportunity: Option<u32>,
    // This player turn.
    pub initiative_used: bool,
    /// Orders received this turn, from which command unit; closed once its command unit has
    /// gone on to other units; `tried`: a command roll for it failed.
    pub orders: u32,
    pub ordered_by: Option<usize>,
    pub closed: bool,
    pub tried: bool,
    /// Actions left from the current order.
    pub actions: u32,
    /// Has wheeled this phase (a line wheels once a phase).
    pub wheeled: bool,
    /// Command unit: has moved this command phase.
    pub hq_moved: bool,
    /// Has supported a charge in this order (or this initiative phase).
    pub supported: bool,
    /// Isolated units: the player turn of its last order to itself.
    pub self_ordered: Option<u32>,
    /// The current order was rolled with the charge / dense terrain modifiers.
    pub declared_charge: bool,
    pub declared_dense: bool,
    /// The current order is an isolated unit's own: only a move towards its command.
    pub self_move: bool,
}

impl Unit {
    pub fn is_hq(&self) -> bool {
        self.arm == Arm::Command
    }

    pub fn active(&self) -> bool {
        !self.ko
    }

    pub fn is_suppressed(&self) -> bool {
        self.suppressed.is_some()
    }

    pub fn label(&self) -> String {
        format!("{} {}", self.id, self.name)
    }

    /// Whether the disorder penalty is in force.
    pub fn disordered(&self) -> bool {
        self.disorder_until.is_some()
    }

    /// Hits one stand takes now: one fewer while disordered (and for exhausted cavalry with
    /// `exhaustion = hit`), never fewer than one.
    pub fn stand_hits(&self, exhaustion_hit: bool) -> u32 {
        let mut h = self.hits_per_stand;
        if self.disordered() {
            h = h.saturating_sub(1);
            if self.exhausted && exhaustion_hit {
                h = h.saturating_sub(1);
            }
        }
        h.max(1)
    }

    /// Hits that knock the whole unit out this turn.
    pub fn capacity(&self, exhaustion_hit: bool) -> u32 {
        self.stands * self.stand_hits(exhaustion_hit)
    }

    /// Mounted cavalry (the core has no dismounting).
    pub fn mounted(&self) -> bool {
        self.arm == Arm::Cavalry
    }

    /// Troops that charge and fight in formations: infantry and cavalry.
    /// Howitzers and mortars fire at high angle (shell only, deviating).
    pub fn high_angle(&self) -> bool {
        self.arm == Arm::Artillery && (self.traits.howitzer || self.traits.mortar)
    }

    pub fn formed_troops(&self) -> bool {
        matches!(self.arm, Arm::Infantry | Arm::Cavalry)
    }

    /// Whether this unit may be in a formation.
    pub fn may_form(&self, f: Formation) -> bool {
        match self.arm {
            Arm::Infantry => f != Formation::Square || !(self.traits.poor || self.traits.no_square),
            Arm::Cavalry => f != Formation::Square,
            Arm::Artillery | Arm::Command => false,
        }
    }

    /// Points the unit is worth to the enemy when knocked out ("Deciding the Winner").
    pub fn worth(&self) -> u32 {
        if self.is_hq() {
            self.points
        } else {
            self.points * self.full_stands
        }
    }
}

/// A unit's stat line in one mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    pub arm: Arm,
    pub move_cm: u32,
    pub dice: u32,
    pub range_cm: u32,
    pub save: Option<u32>,
    pub hits: u32,
}

impl Mode {
    pub fn of(u: &Unit) -> Mode {
        Mode {
            arm: u.arm,
            move_cm: u.move_cm,
            dice: u.dice,
            range_cm: u.range_cm,
            save: u.save,
            hits: u.hits_per_stand,
        }
    }
}

/// A unit's morale grade (the optional Morale rule).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Morale {
    Unmotivated,
    #[default]
    Regular,
    Motivated,
}

impl Morale {
    pub fn parse(text: &str) -> Option<Morale> {
        Some(match text {
            "unmotivated" => Morale::Unmotivated,
            "regular" => Morale::Regular,
            "motivated" => Morale::Motivated,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Morale::Unmotivated => "unmotivated",
            Morale::Regular => "regular",
            Morale::Motivated => "motivated",
        }
    }

    /// A suppression test die at or above this suppresses.
    pub fn suppressed_on(self) -> u32 {
        match self {
            Morale::Unmotivated => 4,
            Morale::Regular => 5,
            Morale::Motivated => 6,
        }
    }

    /// A fall-back longer than this (cm) knocks the unit out.
    pub fn fall_back_limit_cm(self) -> u32 {
        match self {
            Morale::Unmotivated => 5,
            Morale::Regular => 10,
            Morale::Motivated => 15,
        }
    }

    /// The score that hits the unit in a charge, where the grades decide it too.
    pub fn hit_in_charge_on(self) -> u32 {
        self.suppressed_on()
    }

    /// Points a stand, in percent of the list's (-25%, 0, +25%).
    pub fn points_percent(self) -> u32 {
        match self {
            Morale::Unmotivated => 75,
            Morale::Regular => 100,
            Morale::Motivated => 125,
        }
    }
}

/// How a scenario plays morale (option `morale`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoraleRule {
    /// The book's suppression test (at the to-hit score) and 20 cm fall-back.
    #[default]
    Off,
    /// Grades replace the suppression score and the fall-back limit.
    Grades,
    /// As `Grades`, and the grade is also the score that hits the unit in a charge.
    GradesAndCharge,
}

impl MoraleRule {
    pub fn parse(text: &str) -> Option<MoraleRule> {
        Some(match text {
            "off" => MoraleRule::Off,
            "grades" => MoraleRule::Grades,
            "grades-and-charge" => MoraleRule::GradesAndCharge,
            _ => return None,
        })
    }
}
