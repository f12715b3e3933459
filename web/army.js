// The army builder, at `#/army`, for the rule system that has army lists (the server says
// which: today Black Powder Tactical Commander): pick a list and a points
// total, add command units, Field Artillery Officers, units (with regimental guns where their
// row takes them) and, for an army in defence, field defences (what would break a limit, the
// defence's share or the total is greyed out, with the reason), see the running total and what
// is still compulsory, save the army in this browser or as a file, and fight it against the
// computer or a friend on a chosen field: against an army the computer builds to the same
// points from any list (the default), an example or a saved army (a difference in points is
// said before the battle, which then waits for the player's word).

import * as api from "./api.js";
import { fill, h, refill } from "./dom.js";
import { errorText, gameLink, invite } from "./lobby.js";

const SAVED = "volley.armies";

/**
 * @typedef {{troop: string, stands: number, name?: string, grade?: string, horse?: boolean, dismounted?: boolean, morale?: string, regimental_guns?: number, scouting?: boolean}} UnitEntry
 * @typedef {{level?: string, quality?: string, fao?: boolean, name?: string}} CommandEntry
 * @typedef {{kind: string, count: number}} WorkEntry
 * @typedef {{list: string, name: string, points: number, defence?: string, commands: CommandEntry[], units: UnitEntry[], works?: WorkEntry[]}} ArmyDraft
 */

/** @param {string} s */
const str = (s) => JSON.stringify(s);

/**
 * The army file a draft is (TOML: strings written as JSON strings, which TOML reads alike).
 * @param {ArmyDraft} a
 * @returns {string}
 */
export function toToml(a) {
  const lines = [`list = ${str(a.list)}`, `name = ${str(a.name || "My army")}`, `points = ${a.points}`];
  if (a.defence) lines.push(`defence = ${str(a.defence)}`);
  for (const c of a.commands) {
    if (c.fao) lines.push("", "[[command]]", "fao = true");
    else lines.push("", "[[command]]", `level = ${str(c.level ?? "")}`, `quality = ${str(c.quality ?? "")}`);
    if (c.name) lines.push(`name = ${str(c.name)}`);
  }
  for (const u of a.units) {
    lines.push("", "[[unit]]", `troop = ${str(u.troop)}`, `stands = ${u.stands}`);
    if (u.name) lines.push(`name = ${str(u.name)}`);
    if (u.grade && u.grade !== "regular") lines.push(`grade = ${str(u.grade)}`);
    if (u.horse) lines.push("horse = true");
    if (u.dismounted) lines.push("dismounted = true");
    if (u.morale && u.morale !== "regular") lines.push(`morale = ${str(u.morale)}`);
    if (u.regimental_guns) lines.push(`regimental_guns = ${u.regimental_guns}`);
    if (u.scouting) lines.push("scouting = true");
  }
  for (const w of a.works ?? []) lines.push("", "[[work]]", `kind = ${str(w.kind)}`, `count = ${w.count}`);
  return lines.join("\n") + "\n";
}

/**
 * Reads an army file back into a draft (the subset `toToml` writes, and `count`).
 * @param {string} text
 * @returns {ArmyDraft}
 */
export function fromToml(text) {
  /** @type {ArmyDraft} */
  const a = { list: "", name: "", points: 1500, commands: [], units: [], works: [] };
  /** @type {any} */
  let block = a;
  let count = 1;
  const flush = () => {
    if (block !== a && "troop" in block) {
      for (let i = 1; i < count; i++) a.units.push({ ...block, name: block.name ? `${block.name} ${i + 1}` : undefined });
    }
    count = 1;
  };
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").trim();
    if (!line || line.startsWith("#")) continue;
    if (line === "[[command]]" || line === "[[unit]]" || line === "[[work]]") {
      flush();
      if (line === "[[unit]]") a.units.push((block = { troop: "", stands: 0 }));
      else if (line === "[[work]]") a.works?.push((block = { kind: "", count: 1 }));
      else a.commands.push((block = {}));
      continue;
    }
    const m = line.match(/^([a-z_]+)\s*=\s*(.+)$/);
    if (!m) throw new Error(`line "${line}" is not key = value`);
    /** @type {any} */
    let value;
    try {
      value = JSON.parse(m[2]);
    } catch {
      throw new Error(`the value of ${m[1]} (${m[2]}) is not a number, a string or true/false`);
    }
    // A unit's count repeats it; a work's is how many of it.
    if (m[1] === "count" && "troop" in block) count = Number(value);
    else block[m[1]] = value;
  }
  flush();
  return a;
}

/** @returns {Record<string, string>} saved armies by name: their files' text */
function saved() {
  try {
    return JSON.parse(localStorage.getItem(SAVED) ?? "{}");
  } catch {
    return {};
  }
}

/**
 * @param {HTMLElement} app
 */
export async function showArmyBuilder(app) {
  document.title = "Army builder · Volley";
  const status = h("p", { class: "loading" }, "Loading the army lists…");
  fill(app, h("header", { class: "lobbyhead" }, h("h1", {}, h("a", { href: "#/" }, "Volley"), " · Army builder"), h("p", { class: "builderfor" }, "Build a battle group to a points total from the book's army lists.")), status);
  /** @type {any} */
  let index;
  try {
    index = await api.armies();
  } catch (e) {
    fill(status, h("span", { class: "error" }, `Could not load the army lists: ${errorText(e)}`));
    return;
  }
  const about = app.querySelector(".builderfor");
  if (about) about.textContent = `${index.ruleset.title}: build a battle group to a points total from the book's army lists.`;
  /** @type {ArmyDraft} */
  let draft = { list: index.lists[0].id, name: "My army", points: 1500, commands: [], units: [], works: [] };
  /** @type {any} */
  let list = null;
  /** @type {any} */
  let checked = null;

  const listSel = h("select", { name: "list", "aria-label": "Army list" }, ...index.lists.map((/** @type {any} */ l) => h("option", { value: l.id }, `${l.name} (${l.period})`)));
  const points = h("input", { name: "points", type: "number", min: 500, step: 500, value: 1500, "aria-label": "Points total" });
  const nameIn = h("input", { name: "armyname", value: draft.name, "aria-label": "Army name" });
  const chart = h("div", { class: "chart" });
  const mine = h("div", { class: "mine" });
  const fight = h("section", { class: "panel fight" });
  const lib = h("div", { class: "library" });

  const head = h(
    "section",
    { class: "panel builderhead" },
    h("label", {}, "List ", listSel),
    h("label", {}, "Points ", points),
    h("label", {}, "Name ", nameIn),
    lib,
  );
  fill(app, app.firstChild, h("div", { class: "builder" }, head, h("section", { class: "panel" }, h("h2", {}, "The list"), chart), h("div", { class: "builderside" }, h("section", { class: "panel" }, h("h2", {}, "Your army"), mine), fight)));

  // Answers can come back out of order (a slow server, a list picked while the first still
  // loads): only the latest request's answer is drawn, so a stale one never redraws the chart
  // under the player's next click or shows a list other than the one picked.
  // The chart is `aria-busy` from a request until the latest answer is drawn: a screen reader
  // waits for it, and so do the browser tests, which would otherwise click a row of the chart
  // the answer is about to redraw.
  let checking = 0;
  let loading = 0;
  let listPending = false;
  const recheck = async () => {
    const ticket = ++checking;
    chart.setAttribute("aria-busy", "true");
    /** @type {any} */
    let answer;
    try {
      answer = await api.checkArmy(toToml(draft));
    } catch (e) {
      answer = { ok: false, errors: [{ line: 0, column: 0, message: errorText(e) }], addable: { troops: [], commands: [], works: [] } };
    }
    if (ticket !== checking) return;
    checked = answer;
    drawChart();
    drawMine();
    drawFight();
    chart.setAttribute("aria-busy", String(listPending));
  };

  const loadList = async () => {
    const ticket = ++loading;
    listPending = true;
    chart.setAttribute("aria-busy", "true");
    /** @type {any} */
    let answer;
    try {
      answer = await api.armyList(draft.list);
    } catch (e) {
      if (ticket !== loading) return;
      // The chart says so in words rather than showing the list picked before; the army on
      // the page is kept, and picking the list again asks again.
      list = null;
      listPending = false;
      fill(chart, h("p", { class: "error" }, `Could not load the army list ${draft.list}: ${errorText(e)}`));
      chart.setAttribute("aria-busy", "false");
      return;
    }
    if (ticket !== loading) return;
    list = answer;
    listPending = false;
    await recheck();
  };

  /** @param {string} kind  "troops" | "commands" | "works" @param {string} key */
  const why = (kind, key) => {
    const row = (checked?.addable?.[kind] ?? []).find((/** @type {[string, string | null]} */ r) => r[0] === key);
    return row ? row[1] : "not offered";
  };

  /**
   * A row of the list with its "Add" button, greyed out with the reason when `blocked`.
   * @param {[string, string]} data  the button's data attribute and its value
   * @param {string | null} blocked
   * @param {string} title  the button's title when it may be clicked
   * @param {() => void} add
   * @param {...(Node | string | null)} cells
   */
  const offer = ([attr, value], blocked, title, add, ...cells) =>
    h(
      "tr",
      { class: blocked ? "blocked" : "" },
      h("td", {}, h("button", { class: "add", [attr]: value, disabled: !!blocked, title: blocked ?? title, onclick: () => (add(), recheck()) }, "Add")),
      ...cells.map((c) => (c instanceof Node && c.nodeName === "TD" ? c : h("td", {}, c))),
    );

  const drawChart = () => {
    if (!list) return;
    const troops = list.rows.map((/** @type {any} */ r) => {
      const t = r.troop;
      const attack = t.cc_only ? "CC" : t.dice ? `${t.dice}/${t.range}` : "–";
      return offer(
        ["data-troop", t.name],
        r.why_not ?? why("troops", t.name),
        `Add a unit of ${r.stands[2]} stands`,
        () => draft.units.push({ troop: t.name, stands: r.stands[2] }),
        h("td", { class: "rowname" }, t.name, r.why_not ? h("small", {}, r.why_not) : null),
        t.arm,
        String(t.move),
        attack,
        String(t.hits),
        t.save ? `${t.save}+` : "–",
        String(t.points ?? "–"),
        `${t.min ?? "-"}/${t.max ?? "-"}`,
      );
    });
    const commands = list.commands.command.map((/** @type {any} */ c) => {
      const key = `${c.level} ${c.quality}`;
      return offer(
        ["data-command", key],
        why("commands", key),
        "Add this command unit",
        () => draft.commands.push({ level: c.level, quality: c.quality }),
        h("td", { class: "rowname" }, `${c.level} HQ, ${c.quality}`),
        `command ${c.command}`,
        `+${c.presence}`,
        `${c.points}`,
        c.limit ?? "",
      );
    });
    // The Field Artillery Officer: allowed by the artillery units bought, the reason shown when not.
    const fao = list.fao;
    commands.push(
      offer(
        ["data-command", "fao"],
        checked?.addable ? (checked.addable.fao ?? null) : "not offered",
        "Add a Field Artillery Officer (orders grand batteries only; never the commanding officer)",
        () => draft.commands.push({ fao: true }),
        h("td", { class: "rowname" }, "Field Artillery Officer"),
        `command ${fao.command}`,
        `+${fao.presence}`,
        `${fao.points}`,
        `1 per ${fao.per_artillery} artillery units`,
      ),
    );
    // Field defences: an army in defence spends its share of the points on them.
    const defence = h(
      "select",
      {
        name: "defence",
        "aria-label": "Defence",
        onchange: (/** @type {Event} */ ev) => {
          const v = /** @type {HTMLSelectElement} */ (ev.target).value;
          draft.defence = v || undefined;
          recheck();
        },
      },
      h("option", { value: "", selected: !draft.defence }, "none"),
      ...["hasty", "fixed"].map((d) => h("option", { value: d, selected: draft.defence === d }, `${d} (${list.defences[d]}% of the points)`)),
    );
    const works = list.works.map((/** @type {any} */ w) =>
      offer(
        ["data-work", w.kind],
        why("works", w.kind),
        `Add one ${w.kind}`,
        () => {
          draft.works ??= [];
          const have = draft.works.find((x) => x.kind === w.kind);
          if (have) have.count += 1;
          else draft.works.push({ kind: w.kind, count: 1 });
        },
        h("td", { class: "rowname" }, w.kind),
        String(w.points),
        w.hasty ? "hasty or fixed" : "fixed only",
      ),
    );
    // The chart's listeners read `draft` and the list's rows when they run, so an unchanged
    // chart may stay.
    refill(
      chart,
      list.list.organisation ? h("p", { class: "meta" }, list.list.organisation) : null,
      h("h3", {}, "Command units"),
      h("table", { class: "rows commands" }, h("tbody", {}, ...commands)),
      h("h3", {}, "Field defences"),
      h("p", { class: "defence" }, h("label", {}, "Defence ", defence), " ", h("span", { class: "budget" }, worksBudget())),
      h("table", { class: "rows works" }, h("tbody", {}, ...works)),
      h("h3", {}, "Troops"),
      h(
        "table",
        { class: "rows troops" },
        h("thead", {}, h("tr", {}, ...["", "Troop stand", "Arm", "Move", "Attack", "Hits", "Save", "Points", "Min/max"].map((x) => h("th", {}, x)))),
        h("tbody", {}, ...troops),
      ),
    );
  };

  const drawMine = () => {
    const cost = checked?.army?.cost ?? costOf();
    const over = cost > draft.points;
    const errors = checked?.errors ?? [];
    const compulsory = errors.filter((/** @type {any} */ e) => /^compulsory|^no command units/.test(e.message));
    const other = errors.filter((/** @type {any} */ e) => !compulsory.includes(e));
    const rows = [
      ...draft.commands.map((c, i) =>
        h(
          "li",
          { class: "hq" },
          h("span", { class: "what" }, c.fao ? "Field Artillery Officer" : `${c.level} HQ, ${c.quality}`),
          h("input", { class: "unitname", placeholder: "name", value: c.name ?? "", onchange: (/** @type {Event} */ ev) => ((c.name = /** @type {HTMLInputElement} */ (ev.target).value), recheck()) }),
          h("button", { class: "remove", title: "Remove", "aria-label": c.fao ? "Remove Field Artillery Officer" : `Remove ${c.level} HQ`, onclick: () => (draft.commands.splice(i, 1), recheck()) }, "×"),
        ),
      ),
      ...draft.units.map((u, i) => {
        const row = list?.rows.find((/** @type {any} */ r) => r.troop.name === u.troop);
        const [lo, hi] = row?.stands ?? [1, 8];
        const each = checked?.army?.units?.[i]?.cost;
        return h(
          "li",
          { class: "unit", "data-unit": u.troop },
          h("span", { class: "what" }, u.troop),
          h("label", { class: "stands" }, "stands ", h("input", { type: "number", min: lo, max: hi, value: u.stands, "aria-label": `Stands of ${u.troop}`, onchange: (/** @type {Event} */ ev) => ((u.stands = Number(/** @type {HTMLInputElement} */ (ev.target).value)), recheck()) })),
          row?.grades ? h("select", { "aria-label": "Grade", onchange: (/** @type {Event} */ ev) => ((u.grade = /** @type {HTMLSelectElement} */ (ev.target).value), recheck()) }, ...["regular", "elite", "poor"].map((g) => h("option", { value: g, selected: (u.grade ?? "regular") === g }, g))) : null,
          row?.horse ? h("label", {}, h("input", { type: "checkbox", checked: !!u.horse, onchange: (/** @type {Event} */ ev) => ((u.horse = /** @type {HTMLInputElement} */ (ev.target).checked), recheck()) }), " horse") : null,
          row?.dismount ? h("label", {}, h("input", { type: "checkbox", checked: !!u.dismounted, onchange: (/** @type {Event} */ ev) => ((u.dismounted = /** @type {HTMLInputElement} */ (ev.target).checked), recheck()) }), " on foot") : null,
          row?.troop?.arm === "cavalry"
            ? h("label", { class: "scouting", title: "Scouting cavalry (optional rule): each stand goes out alone to find the enemy; the battle is then fought with a hidden set-up" }, h("input", { type: "checkbox", "aria-label": `${u.troop} as scouts`, checked: !!u.scouting, onchange: (/** @type {Event} */ ev) => ((u.scouting = /** @type {HTMLInputElement} */ (ev.target).checked || undefined), recheck()) }), " scouts")
            : null,
          h("select", { "aria-label": `Morale of ${u.troop}`, title: "Morale grade (the optional Morale rule): -25% or +25% a stand", onchange: (/** @type {Event} */ ev) => ((u.morale = /** @type {HTMLSelectElement} */ (ev.target).value), recheck()) }, ...["regular", "unmotivated", "motivated"].map((g) => h("option", { value: g, selected: (u.morale ?? "regular") === g }, g))),
          row?.regimental_gun != null
            ? h(
                "label",
                { class: "guns", title: `Regimental guns: light howitzers of the regiment's own, ${row.regimental_gun} points each` },
                "guns ",
                h("select", { "aria-label": `Regimental guns of ${u.troop}`, onchange: (/** @type {Event} */ ev) => ((u.regimental_guns = Number(/** @type {HTMLSelectElement} */ (ev.target).value) || undefined), recheck()) }, ...Array.from({ length: (list?.regimental_guns_max ?? 2) + 1 }, (_, n) => h("option", { value: n, selected: (u.regimental_guns ?? 0) === n }, String(n)))),
              )
            : null,
          h("span", { class: "cost" }, each !== undefined ? String(each) : ""),
          h("button", { class: "remove", title: "Remove", "aria-label": `Remove ${u.troop}`, onclick: () => (draft.units.splice(i, 1), recheck()) }, "×"),
        );
      }),
      ...(draft.works ?? []).map((w, i) =>
        h(
          "li",
          { class: "work", "data-work": w.kind },
          h("span", { class: "what" }, w.kind),
          h("label", { class: "stands" }, "count ", h("input", { type: "number", min: 1, max: 40, value: w.count, "aria-label": `Count of ${w.kind}`, onchange: (/** @type {Event} */ ev) => ((w.count = Math.max(1, Number(/** @type {HTMLInputElement} */ (ev.target).value) || 1)), recheck()) })),
          h("span", { class: "cost" }, String(checked?.army?.works?.[i]?.cost ?? "")),
          h("button", { class: "remove", title: "Remove", "aria-label": `Remove ${w.kind}`, onclick: () => (draft.works?.splice(i, 1), recheck()) }, "×"),
        ),
      ),
    ];
    // Its listeners hold the draft's own entries; `open` empties it when the draft is replaced,
    // so an unchanged drawing only ever keeps listeners on the current draft.
    refill(
      mine,
      h("p", { class: `total${over ? " over" : ""}` }, h("strong", {}, `${cost}`), ` of ${draft.points} points`, checked?.ok ? h("span", { class: "ready" }, " · ready to fight") : null),
      rows.length ? h("ul", { class: "armyunits" }, ...rows) : h("p", { class: "hint" }, "Add command units and troops from the list."),
      compulsory.length ? h("div", { class: "compulsory" }, h("h3", {}, "Still compulsory"), h("ul", {}, ...compulsory.map((/** @type {any} */ e) => h("li", {}, e.message)))) : null,
      other.length ? h("div", { class: "problems" }, h("h3", {}, "Problems"), h("ul", {}, ...other.map((/** @type {any} */ e) => h("li", {}, e.message)))) : null,
      h(
        "p",
        { class: "savebar" },
        h("button", { class: "save", onclick: () => save() }, "Save in this browser"),
        " ",
        h("button", { class: "download", onclick: () => download() }, "Download .toml"),
      ),
    );
  };

  /** What the draft costs by the list's points (shown while the check has problems). */
  const costOf = () => {
    let sum = 0;
    for (const u of draft.units) {
      const p = list?.rows.find((/** @type {any} */ r) => r.troop.name === u.troop)?.troop.points ?? 0;
      const graded = p + (u.grade === "elite" ? 5 : u.grade === "poor" ? -5 : 0) + (u.horse ? 10 : 0);
      const pct = u.morale === "unmotivated" ? 75 : u.morale === "motivated" ? 125 : 100;
      sum += Math.floor((graded * pct + 50) / 100) * u.stands;
    }
    for (const u of draft.units) {
      sum += (list?.rows.find((/** @type {any} */ r) => r.troop.name === u.troop)?.regimental_gun ?? 0) * (u.regimental_guns ?? 0);
    }
    for (const c of draft.commands) {
      sum += c.fao ? (list?.fao.points ?? 0) : (list?.commands.command.find((/** @type {any} */ r) => r.level === c.level && r.quality === c.quality)?.points ?? 0);
    }
    return sum + worksCost();
  };

  /** What the field defences bought cost. */
  const worksCost = () => (draft.works ?? []).reduce((sum, w) => sum + (list?.works.find((/** @type {any} */ k) => k.kind === w.kind)?.points ?? 0) * w.count, 0);

  /** The field defences' spend against the defence's share of the points. */
  const worksBudget = () => {
    if (!draft.defence || !list) return `An army in defence may spend ${list?.defences.hasty}% (hasty: trenches, stakes, breastworks) or ${list?.defences.fixed}% (fixed: any) of its points on them.`;
    const share = list.defences[draft.defence];
    return `${worksCost()} of ${Math.floor((draft.points * share) / 100)} points on field defences`;
  };

  const save = () => {
    const all = saved();
    all[draft.name || "My army"] = toToml(draft);
    localStorage.setItem(SAVED, JSON.stringify(all));
    drawLibrary();
    drawFight();
  };

  const download = () => {
    const blob = new Blob([toToml(draft)], { type: "application/toml" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `${(draft.name || "army").replace(/[^\w-]+/g, "-").toLowerCase()}.toml` });
    document.body.append(a);
    a.click();
    a.remove();
  };

  /** @param {string} text */
  const open = async (text) => {
    /** @type {ArmyDraft} */
    let read;
    try {
      read = fromToml(text);
    } catch (e) {
      fill(mine, h("p", { class: "error" }, `That army file cannot be read: ${errorText(e)}`));
      return;
    }
    if (!index.lists.some((/** @type {any} */ l) => l.id === read.list)) {
      fill(mine, h("p", { class: "error" }, `That army file names no list this builder knows ("${read.list}").`));
      return;
    }
    draft = read;
    mine.replaceChildren();
    listSel.value = draft.list;
    points.value = String(draft.points);
    nameIn.value = draft.name;
    await loadList();
  };

  const drawLibrary = () => {
    const mineSaved = Object.entries(saved());
    const options = [
      ...mineSaved.map(([n]) => h("option", { value: `saved:${n}` }, `${n} (saved)`)),
      ...index.armies.map((/** @type {any} */ a) => h("option", { value: `bundled:${a.name}` }, `${a.title} (example)`)),
    ];
    const pick = h("select", { "aria-label": "Open an army" }, h("option", { value: "" }, "Open an army…"), ...options);
    pick.addEventListener("change", () => {
      const [kind, name] = pick.value.split(/:(.*)/s);
      const text = kind === "saved" ? saved()[name] : index.armies.find((/** @type {any} */ a) => a.name === name)?.text;
      if (text) open(text);
    });
    const upload = h("input", { type: "file", accept: ".toml,text/plain", "aria-label": "Open an army file" });
    upload.addEventListener("change", async () => {
      const f = upload.files?.[0];
      if (f) open(await f.text());
    });
    fill(lib, pick, " ", upload);
  };

  // The fight panel is drawn again after every check; what the player chose in it is kept here.
  const choice = { enemy: "computer", /** the computer's list, "" for the player's own */ from: "", map: index.maps[0]?.name ?? "", how: "solo", side: "red", level: "normal" };
  /** @param {string} id */
  const listName = (id) => index.lists.find((/** @type {any} */ l) => l.id === id)?.name ?? id;
  /** @param {string} text @returns {number | null} the points total an army file names */
  const pointsOf = (text) => {
    try {
      return fromToml(text).points;
    } catch {
      return null;
    }
  };

  const drawFight = () => {
    // The computer's list follows the player's until the player picks one.
    const fromList = choice.from || draft.list;
    /** @type {{value: string, label: string, text: string, points: number | null, called: string}[]} */
    const others = [
      ...Object.entries(saved()).map(([n, text]) => {
        const pts = pointsOf(text);
        return { value: `saved:${n}`, label: `${n} (saved${pts ? `, ${pts} points` : ""})`, text, points: pts, called: `your saved army ${n}` };
      }),
      ...index.armies.map((/** @type {any} */ a) => ({ value: `bundled:${a.name}`, label: `${a.title} (example, ${listName(a.list)}, ${a.points} points)`, text: a.text, points: a.points, called: `the example ${a.title}` })),
    ];
    if (choice.enemy !== "computer" && !others.some((o) => o.value === choice.enemy)) choice.enemy = "computer";
    const enemy = h(
      "select",
      { name: "enemy", "aria-label": "Opponent's army" },
      h("option", { value: "computer", selected: choice.enemy === "computer" }, "The computer builds an army of the same points"),
      ...others.map((o) => h("option", { value: o.value, selected: choice.enemy === o.value }, o.label)),
    );
    const from = h("select", { name: "from", "aria-label": "Opponent's list" }, ...index.lists.map((/** @type {any} */ l) => h("option", { value: l.id, selected: fromList === l.id }, l.name)));
    const map = h("select", { name: "map", "aria-label": "Field" }, ...index.maps.map((/** @type {any} */ m) => h("option", { value: m.name, selected: choice.map === m.name }, m.title)));
    const how = h("select", { name: "how", "aria-label": "How to play" }, ...[["solo", "Solo against the computer"], ["hotseat", "Hotseat"], ["online", "Online: invite a friend"]].map(([v, l]) => h("option", { value: v, selected: choice.how === v }, l)));
    const side = h("select", { name: "side", "aria-label": "Your side" }, ...[["red", "Red (west)"], ["blue", "Blue (east)"]].map(([v, l]) => h("option", { value: v, selected: choice.side === v }, l)));
    const level = h("select", { name: "level", "aria-label": "Computer" }, ...["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === choice.level }, l)));
    const fromRow = h("label", { class: "fromlist" }, "from the list ", from);
    const mismatch = h("p", { class: "mismatch", role: "status" });
    const out = h("div", { class: "status" });

    /** The opponent picked, if it is an army file rather than the computer's. */
    const picked = () => others.find((o) => o.value === enemy.value);
    /** Why the opponent's points differ from the player's, in a sentence; or null. */
    const mismatchText = () => {
      const them = picked();
      if (!them || them.points === null || them.points === draft.points) return null;
      return `Your army is ${draft.points} points; ${them.called} is ${them.points} points — a mismatch of ${Math.abs(them.points - draft.points)}.`;
    };
    const showChoice = () => {
      fromRow.hidden = enemy.value !== "computer";
      const said = mismatchText();
      mismatch.hidden = !said;
      mismatch.textContent = said ?? "";
      /** @type {HTMLElement} */ (fight.querySelector(".botlevel")).hidden = how.value !== "solo";
      /** @type {HTMLElement} */ (fight.querySelector(".yourside")).hidden = how.value === "hotseat";
    };

    const start = async () => {
      const me = /** @type {"red" | "blue"} */ (side.value);
      const bot = level.value;
      const seats = how.value === "solo" ? (me === "red" ? { red: "human", blue: bot } : { red: bot, blue: "human" }) : { red: "human", blue: "human" };
      go.disabled = true;
      try {
        /** @type {{text: string, label: string}} */
        let them;
        const file = picked();
        if (file) {
          them = { text: file.text, label: file.label };
        } else {
          fill(out, `The computer is building an army of ${draft.points} points from the ${listName(from.value)}…`);
          const built = await api.generateArmy(from.value, draft.points);
          them = { text: built.text, label: built.name };
          fill(out, `The computer built ${built.name}: ${built.cost} of ${built.points} points. Deploying the armies…`);
        }
        if (file) fill(out, "Deploying the armies…");
        const ours = toToml(draft);
        const armies = me === "red" ? { red: ours, blue: them.text, map: map.value } : { red: them.text, blue: ours, map: map.value };
        const game = await api.createArmyGame(armies, seats.red, seats.blue, how.value === "hotseat" ? "both" : me);
        const created = new Date().toISOString();
        const title = `${draft.name} against ${them.label}`;
        if (how.value === "hotseat" && game.seats.red && game.seats.blue) {
          api.rememberGame({ id: game.id, seat: "both", token: game.seats.red, token2: game.seats.blue, scenario: title, created });
          location.hash = new URL(gameLink(game.id, { red: game.seats.red, blue: game.seats.blue })).hash;
          return;
        }
        const token = game.seats[me];
        if (!token) throw new Error("the server gave no token for your seat");
        api.rememberGame({ id: game.id, seat: me, token, scenario: title, created });
        const other = me === "red" ? "blue" : "red";
        const theirs = game.invites[other];
        if (how.value === "online" && theirs) {
          fill(out, invite(game.id, other, theirs, token));
          return;
        }
        location.hash = new URL(gameLink(game.id, { one: token })).hash;
      } catch (e) {
        fill(out, h("p", { class: "error" }, `Could not start the battle: ${errorText(e)}`));
        go.disabled = false;
      }
    };

    const go = h(
      "button",
      {
        class: "primary fightbtn",
        disabled: !checked?.ok,
        title: checked?.ok ? "" : "The army is not ready: see what is still compulsory",
        onclick: () => {
          const said = mismatchText();
          if (!said) return start();
          // Armies of different sizes: say so, and fight only if the player says so too.
          fill(
            out,
            h(
              "div",
              { class: "mismatchconfirm", role: "alertdialog", "aria-label": "Points mismatch" },
              h("p", { class: "warning" }, `${said} Fight all the same?`),
              h("button", { class: "primary", onclick: () => start() }, "Fight anyway"),
              " ",
              h("button", { onclick: () => out.replaceChildren() }, "Choose another opponent"),
            ),
          );
        },
      },
      "Fight",
    );
    fill(
      fight,
      h("h2", {}, "Fight it"),
      h("label", {}, "Against ", enemy),
      fromRow,
      mismatch,
      h("label", {}, "Field ", map),
      h("label", {}, "How ", how),
      h("label", { class: "yourside" }, "Your side ", side),
      h("label", { class: "botlevel" }, "Computer ", level),
      go,
      out,
    );
    enemy.addEventListener("change", () => {
      choice.enemy = enemy.value;
      out.replaceChildren();
      showChoice();
    });
    from.addEventListener("change", () => (choice.from = from.value));
    map.addEventListener("change", () => (choice.map = map.value));
    how.addEventListener("change", () => ((choice.how = how.value), showChoice()));
    side.addEventListener("change", () => (choice.side = side.value));
    level.addEventListener("change", () => (choice.level = level.value));
    showChoice();
  };

  listSel.addEventListener("change", () => {
    draft = { ...draft, list: listSel.value, commands: [], units: [] };
    loadList();
  });
  points.addEventListener("change", () => {
    const value = Math.max(1, Number(points.value) || 1500);
    if (value === draft.points) return;
    draft.points = value;
    recheck();
  });
  nameIn.addEventListener("change", () => {
    if (nameIn.value === draft.name) return;
    draft.name = nameIn.value;
    recheck();
  });
  drawLibrary();
  await loadList();
}
