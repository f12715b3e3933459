//! The "Code 'n Color" cube (introduction): three red and three blue faces, one of each
//! colour marked with a star. Color = any red face, Code = any star, CnC = the red star.
//! Volley rolls a d6 and reads the face through one of the d6 substitutes the text gives, or
//! through both the way a player holding both charts would (the `cube` option; see
//! docs/rules/hex-command.md, Interpretations).

use volley_core::Dice;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Face {
    pub red: bool,
    pub star: bool,
}

impl Face {
    pub fn name(self) -> &'static str {
        match (self.red, self.star) {
            (true, true) => "Red star (CnC)",
            (true, false) => "Red",
            (false, true) => "Blue star (Code)",
            (false, false) => "Blue",
        }
    }
}

/// How a d6 stands in for the cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeReading {
    /// The melee chart's substitute: 4–6 red, 1–3 blue; the stars on 3 and 6. Gives the
    /// cube's own odds (Color 1/2, Code 1/3, CnC 1/6).
    Faces,
    /// The introduction's substitute: 1–3 Color, 4–5 Code, 6 CnC (Color 2/3, Code 1/2).
    Intro,
    /// Each chart's own substitute: fire, spotting and integrity through the introduction's
    /// table, melee through the melee chart's "4–6 red".
    Charts,
}

/// What a roll of the cube is for: the melee chart or everything else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Roll {
    Melee,
    Other,
}

impl CubeReading {
    /// The face a d6 stands for, in a roll of kind `what`.
    pub fn face_for(self, what: Roll, d6: u32) -> Face {
        let intro = Face {
            red: d6 <= 3 || d6 == 6,
            star: d6 >= 4,
        };
        let faces = Face {
            red: d6 >= 4,
            star: d6 == 3 || d6 == 6,
        };
        match (self, what) {
            (CubeReading::Faces, _) => faces,
            (CubeReading::Intro, _) => intro,
            (CubeReading::Charts, Roll::Other) => intro,
            // The melee chart names red only; the red star (CnC) stays the introduction's 6.
            (CubeReading::Charts, Roll::Melee) => Face {
                red: d6 >= 4,
                star: d6 == 6,
            },
        }
    }

    /// The face for any roll but melee's.
    pub fn face(self, d6: u32) -> Face {
        self.face_for(Roll::Other, d6)
    }

    /// A roll for fire, spotting or integrity.
    pub fn roll(self, dice: &mut dyn Dice) -> (u32, Face) {
        let d = dice.roll(6);
        (d, self.face(d))
    }

    /// A roll on the melee chart.
    pub fn roll_melee(self, dice: &mut dyn Dice) -> (u32, Face) {
        let d = dice.roll(6);
        (d, self.face_for(Roll::Melee, d))
    }
}

/// A to-hit requirement on the firing chart, from easiest to hardest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    Auto,
    Color,
    Code,
    CnC,
}

impl Band {
    pub const ALL: [Band; 4] = [Band::Auto, Band::Color, Band::Code, Band::CnC];

    pub fn name(self) -> &'static str {
        match self {
            Band::Auto => "auto",
            Band::Color => "Color",
            Band::Code => "Code",
            Band::CnC => "CnC",
        }
    }

    /// Shifts the requirement by `steps` bands (penalties positive). Below auto stays auto;
    /// past CnC the shot cannot hit (`None`).
    pub fn shifted(self, steps: i32) -> Option<Band> {
        let i = self as i32 + steps;
        if i > 3 {
            None
        } else {
            Some(Band::ALL[i.max(0) as usize])
        }
    }

    pub fn met_by(self, face: Face) -> bool {
        match self {
            Band::Auto => true,
            Band::Color => face.red,
            Band::Code => face.star,
            Band::CnC => face.red && face.star,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chance(reading: CubeReading, band: Band) -> usize {
        (1..=6).filter(|&d| band.met_by(reading.face(d))).count()
    }

    #[test]
    fn faces_reading_gives_the_cube_odds() {
        assert_eq!(chance(CubeReading::Faces, Band::Color), 3);
        assert_eq!(chance(CubeReading::Faces, Band::Code), 2);
        assert_eq!(chance(CubeReading::Faces, Band::CnC), 1);
    }

    #[test]
    fn intro_reading_gives_the_introduction_odds() {
        assert_eq!(chance(CubeReading::Intro, Band::Color), 4);
        assert_eq!(chance(CubeReading::Intro, Band::Code), 3);
        assert_eq!(chance(CubeReading::Intro, Band::CnC), 1);
    }

    #[test]
    fn charts_reading_takes_each_chart_at_its_word() {
        let r = CubeReading::Charts;
        assert_eq!(
            chance(r, Band::Color),
            4,
            "fire: the introduction's 1-3 and 6"
        );
        assert_eq!(chance(r, Band::CnC), 1);
        let red_in_melee = (1..=6).filter(|&d| r.face_for(Roll::Melee, d).red).count();
        assert_eq!(red_in_melee, 3, "melee: 4-6 red");
        assert!(!r.face_for(Roll::Melee, 3).red && r.face_for(Roll::Melee, 4).red);
    }

    #[test]
    fn penalties_push_bands_out_and_bonuses_stop_at_auto() {
        assert_eq!(Band::Code.shifted(1), Some(Band::CnC));
        assert_eq!(Band::CnC.shifted(1), None);
        assert_eq!(Band::Color.shifted(-2), Some(Band::Auto));
    }
}
