//! Text for people: the position as a map a wargamer reads at a glance, and plain tables.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use volley_core::geometry::{col_row, parse_label, Facing};
use volley_core::map::{Grid, Terrain};
use volley_core::view::ElementKind;
use volley_core::{Place, Side, View};

/// Columns padded to their widest cell, two spaces apart, trailing spaces trimmed.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut put = |cells: &mut dyn Iterator<Item = &str>| {
        let mut text = String::new();
        for (cell, w) in cells.zip(&widths) {
            let _ = write!(text, "{cell}{}  ", " ".repeat(w - cell.chars().count()));
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    put(&mut headers.iter().copied());
    for row in rows {
        put(&mut row.iter().map(String::as_str));
    }
    out
}

/// The whole position: map, legend, units, objectives and the state of play.
pub fn position(view: &View) -> String {
    let mut out = String::new();
    let seen_by = match view.viewer {
        Some(side) => format!("as {side} sees it"),
        None => "everything (referee view)".to_string(),
    };
    let _ = writeln!(
        out,
        "{} — {} ({}), {seen_by}\n",
        view.title, view.scenario, view.ruleset
    );
    out.push_str(&map(view));
    out.push('\n');
    out.push_str(&legend(view));
    out.push('\n');
    out.push_str(&units(view));
    if !view.markers.is_empty() {
        let hexes: Vec<String> = view
            .markers
            .iter()
            .map(|m| format!("{} ({})", m.place, m.side))
            .collect();
        let _ = writeln!(out, "\nUnidentified markers: {}", hexes.join(", "));
    }
    if !view.features.is_empty() {
        let _ = writeln!(out, "\nOn the map:");
        for f in &view.features {
            let _ = writeln!(out, "  {} at {}: {}", f.kind, f.place, f.text);
        }
    }
    if !view.objectives.is_empty() {
        let rows: Vec<Vec<String>> = view
            .objectives
            .iter()
            .map(|o| {
                vec![
                    o.place.to_string(),
                    o.name.to_string(),
                    o.points.to_string(),
                    o.holder.map_or("-".into(), |s| s.to_string()),
                ]
            })
            .collect();
        out.push('\n');
        out.push_str(&table(&["OBJECTIVE", "NAME", "POINTS", "HELD BY"], &rows));
    }
    out.push('\n');
    out.push_str(&state_of_play(view));
    out
}

/// Turn, phase, whose decision, each side's losses and the result.
pub fn state_of_play(view: &View) -> String {
    let mut out = String::new();
    let decide = match view.to_decide {
        Some(side) if view.interrupt() => format!(
            "{} to decide, in the middle of {}'s turn",
            title_case(side.name()),
            side.other()
        ),
        Some(side) => format!("{} to decide", title_case(side.name())),
        None => "game over".to_string(),
    };
    let _ = writeln!(
        out,
        "Turn {} of {} · {} · {decide}",
        view.turn, view.turn_limit, view.phase
    );
    if let Some(prompt) = &view.prompt {
        let _ = writeln!(out, "Now: {prompt}");
    }
    for s in &view.sides {
        let break_point = s
            .break_point
            .map_or(String::new(), |b| format!(" (break point {b:.0}%)"));
        let _ = writeln!(
            out,
            "{:<5} {}: losses {:.1}%{break_point}, score {}",
            title_case(s.side.name()),
            s.name,
            s.losses_percent,
            s.score
        );
        let commanders: Vec<String> = s
            .commanders
            .iter()
            .map(|c| {
                let mut about = vec![format!("{:+}", c.value), c.status.to_string()];
                if c.supreme {
                    about.insert(0, "supreme".into());
                }
                if let Some(unit) = &c.attached_to {
                    about.push(format!("with {unit}"));
                }
                format!("{} ({})", c.name, about.join(", "))
            })
            .collect();
        if !commanders.is_empty() {
            let _ = writeln!(out, "      commanders: {}", commanders.join("; "));
        }
    }
    if let Some(o) = &view.outcome {
        let who = o.winner.map_or("Draw".to_string(), |w| {
            format!("{} wins", title_case(w.name()))
        });
        let _ = writeln!(
            out,
            "Result: {who}: {} (score red {}, blue {})",
            o.reason, o.score[0], o.score[1]
        );
    }
    out
}

/// One unit a row: id, name, side, arm, hex, facing, (formation), hits, TE, (strength), flags,
/// commander.
fn units(view: &View) -> String {
    if view.units.is_empty() {
        return "No units to show.\n".into();
    }
    let with_strength = view
        .units
        .iter()
        .any(|u| u.strength.is_some() || u.elements.is_some());
    let with_formation = view.units.iter().any(|u| u.formation.is_some());
    let mut headers = vec!["ID", "NAME", "SIDE", "ARM", "HEX", "FACING"];
    if with_formation {
        headers.push("FORMATION");
    }
    headers.extend(["HITS", "TE"]);
    if with_strength {
        headers.push("STRENGTH");
    }
    headers.extend(["FLAGS", "COMMANDER"]);
    let rows: Vec<Vec<String>> = view
        .units
        .iter()
        .map(|u| {
            let arm = match &u.class {
                Some(c) => format!("{} ({c})", u.arm),
                None => u.arm.to_string(),
            };
            let mut row = vec![
                u.id.to_string(),
                u.name.to_string(),
                u.side.to_string(),
                arm,
                u.place.to_string(),
                u.facing
                    .map_or("-".into(), |f| format!("{} {}", arrow(f), f.name())),
            ];
            if with_formation {
                row.push(u.formation.as_deref().unwrap_or("-").to_string());
            }
            row.push(format!("{}/{}", u.hits, u.max_hits));
            row.push(format!("{}/{}", u.te, u.max_te));
            if with_strength {
                row.push(match (u.elements, u.strength) {
                    (Some(e), _) => format!("{}/{} {}", e.now, e.full, elements_word(e.kind)),
                    (None, Some(s)) => s.to_string(),
                    (None, None) => "-".into(),
                });
            }
            row.push(if u.flags.is_empty() {
                "-".into()
            } else {
                u.flags.join(", ")
            });
            row.push(u.commander.as_ref().map_or("-".into(), |c| c.to_string()));
            row
        })
        .collect();
    table(&headers, &rows)
}

/// What the map's characters mean, for the terrain, arms and markers in this view.
fn legend(view: &View) -> String {
    let mut terrain: Vec<char> = view
        .map
        .rows
        .iter()
        .flat_map(|r| r.split_whitespace().filter_map(|t| t.chars().next()))
        .collect();
    terrain.sort_unstable();
    terrain.dedup();
    let terrain: Vec<String> = terrain
        .into_iter()
        .map(|c| match Terrain::from_code(c) {
            Some(t) => format!("{c} {}", t.name()),
            None => format!("{c} ?"),
        })
        .collect();
    let arms: BTreeMap<char, &str> = view
        .units
        .iter()
        .map(|u| (u.symbol.to_ascii_uppercase(), &*u.arm))
        .collect();
    let arms: Vec<String> = arms.iter().map(|(c, a)| format!("{c} {a}")).collect();
    let mut out = format!(
        "Terrain: {}; a digit after it is the height",
        terrain.join(", ")
    );
    if !view.map.roads.is_empty() {
        out.push_str("; # clear hex with a road");
    }
    out.push('\n');
    if !arms.is_empty() {
        let _ = writeln!(
            out,
            "Units: RED UPPERCASE, blue lowercase: {}; arrow = facing; + more than one unit",
            arms.join(", ")
        );
    }
    let mut marks = Vec::new();
    if !view.markers.is_empty() {
        marks.push("? unidentified marker");
    }
    if !view.objectives.is_empty() {
        marks.push("* objective");
    }
    if !marks.is_empty() {
        let _ = writeln!(out, "Marks: {}", marks.join(", "));
    }
    out
}

/// The arrow drawn for a facing.
pub fn arrow(f: Facing) -> char {
    match f {
        Facing::N => '↑',
        Facing::NE => '↗',
        Facing::SE => '↘',
        Facing::S => '↓',
        Facing::SW => '↙',
        Facing::NW => '↖',
    }
}

fn title_case(word: &str) -> String {
    let mut c = word.chars();
    c.next().map_or(String::new(), |f| {
        f.to_uppercase().collect::<String>() + c.as_str()
    })
}

/// Five characters for one hex: terrain, height, objective, unit, facing.
fn hex_contents(view: &View) -> BTreeMap<(i32, i32), [char; 5]> {
    let mut cells = BTreeMap::new();
    let road_hexes: Vec<&String> = view.map.roads.iter().flatten().collect();
    for (r, row) in view.map.rows.iter().enumerate() {
        for (c, token) in row.split_whitespace().enumerate() {
            let mut chars = token.chars();
            let mut terrain = chars.next().unwrap_or(' ');
            let height = chars.next().unwrap_or(' ');
            let at = (c as i32 + 1, r as i32 + 1);
            if terrain == Terrain::Clear.code()
                && road_hexes.iter().any(|h| position_of(h) == Some(at))
            {
                terrain = '#';
            }
            cells.insert(at, [terrain, height, ' ', ' ', ' ']);
        }
    }
    for o in &view.objectives {
        if let Some(cell) = place_of(&o.place).and_then(|at| cells.get_mut(&at)) {
            cell[2] = '*';
        }
    }
    let mut put = |place: &Place, symbol: char, facing: char| {
        if let Some(cell) = place_of(place).and_then(|at| cells.get_mut(&at)) {
            if cell[3] == ' ' {
                cell[3] = symbol;
                cell[4] = facing;
            } else {
                cell[4] = '+';
            }
        }
    };
    for u in &view.units {
        let symbol = match u.side {
            Side::Red => u.symbol.to_ascii_uppercase(),
            Side::Blue => u.symbol.to_ascii_lowercase(),
        };
        put(&u.place, symbol, u.facing.map_or(' ', arrow));
    }
    for m in &view.markers {
        put(&m.place, '?', ' ');
    }
    cells
}

fn position_of(label: &str) -> Option<(i32, i32)> {
    parse_label(label).map(col_row)
}

fn place_of(place: &Place) -> Option<(i32, i32)> {
    place.hex().map(col_row)
}

fn elements_word(kind: ElementKind) -> &'static str {
    match kind {
        ElementKind::Stands => "stands",
        ElementKind::Figures => "figures",
    }
}

fn label_width(view: &View) -> usize {
    if view.map.width > 99 || view.map.height > 99 {
        3
    } else {
        2
    }
}

/// The map with column numbers above and row numbers on both sides.
pub fn map(view: &View) -> String {
    match view.map.grid {
        Grid::Hex => hex_map(view),
        Grid::Square => square_map(view),
    }
}

/// Flat-topped hexes in columns, even printed columns half a hex lower:
///
/// ```text
///      01    02
///    _____
/// 01/W1 I↗\_____
///   \_____/.  c↓\
/// ```
fn hex_map(view: &View) -> String {
    let (w, h) = (
        view.map.width.max(0) as usize,
        view.map.height.max(0) as usize,
    );
    let cells = hex_contents(view);
    let lw = label_width(view);
    let mut grid = vec![vec![' '; 6 * w + 1]; 2 * h + 2];
    for k in 0..w {
        for r in 0..h {
            let (x, y) = (6 * k, 2 * r + k % 2);
            for i in 1..=5 {
                grid[y][x + i] = '_';
                grid[y + 2][x + i] = '_';
            }
            grid[y + 1][x] = '/';
            grid[y + 1][x + 6] = '\\';
            grid[y + 2][x] = '\\';
            grid[y + 2][x + 6] = '/';
            if let Some(cell) = cells.get(&(k as i32 + 1, r as i32 + 1)) {
                grid[y + 1][x + 1..=x + 5].copy_from_slice(cell);
            }
        }
    }
    let mut out = String::new();
    let mut header = " ".repeat(lw + 1);
    for k in 0..w {
        let _ = write!(header, "{:^6}", format!("{:0lw$}", k + 1));
    }
    out.push_str(header.trim_end());
    out.push('\n');
    let last_odd = w > 0 && (w - 1) % 2 == 1;
    for (y, line) in grid.iter().enumerate() {
        let text: String = line.iter().collect();
        // Row r's label sits on the line through the middle of the odd columns' hexes.
        let left = (y % 2 == 1 && y / 2 < h).then(|| format!("{:0lw$}", y / 2 + 1));
        let right_row = if last_odd {
            y.checked_sub(2)
        } else {
            y.checked_sub(1)
        };
        let right = right_row
            .filter(|ry| ry % 2 == 0 && ry / 2 < h)
            .map(|ry| format!(" {:0lw$}", ry / 2 + 1));
        let _ = writeln!(
            out,
            "{:>lw$} {}{}",
            left.unwrap_or_default(),
            text.trim_end(),
            right.unwrap_or_default()
        );
    }
    trim_lines(out)
}

/// Square tiles in a plain grid.
fn square_map(view: &View) -> String {
    let (w, h) = (
        view.map.width.max(0) as usize,
        view.map.height.max(0) as usize,
    );
    let cells = hex_contents(view);
    let lw = label_width(view);
    let mut out = String::new();
    let mut header = " ".repeat(lw + 1);
    for k in 0..w {
        let _ = write!(header, "{:^6}", format!("{:0lw$}", k + 1));
    }
    let rule = format!("{}{}+", " ".repeat(lw + 1), "+-----".repeat(w));
    let _ = writeln!(out, "{}\n{rule}", header.trim_end());
    for r in 0..h {
        let mut line = format!("{:0lw$} ", r + 1);
        for k in 0..w {
            let cell = cells
                .get(&(k as i32 + 1, r as i32 + 1))
                .copied()
                .unwrap_or([' '; 5]);
            line.push('|');
            line.extend(cell);
        }
        let _ = writeln!(out, "{line}| {:0lw$}\n{rule}", r + 1);
    }
    trim_lines(out)
}

fn trim_lines(text: String) -> String {
    text.lines()
        .map(|l| l.trim_end().to_string() + "\n")
        .collect()
}
