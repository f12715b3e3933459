// The army builder (Black Powder Tactical Commander), at `#/army`: pick a list and a points
// total, add command units and units (what would break a limit or the total is greyed out,
// with the reason), see the running total and what is still compulsory, save the army in this
// browser or as a file, and fight it against the computer or a friend on a chosen field.

import * as api from "./api.js";
import { fill, h } from "./dom.js";
import { errorText, gameLink, invite } from "./lobby.js";

const SAVED = "volley.armies";

/**
 * @typedef {{troop: string, stands: number, name?: string, grade?: string, horse?: boolean, dismounted?: boolean, morale?: string}} UnitEntry
 * @typedef {{level: string, quality: string, name?: string}} CommandEntry
 * @typedef {{list: string, name: string, points: number, commands: CommandEntry[], units: UnitEntry[]}} ArmyDraft
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
  for (const c of a.commands) {
    lines.push("", "[[command]]", `level = ${str(c.level)}`, `quality = ${str(c.quality)}`);
    if (c.name) lines.push(`name = ${str(c.name)}`);
  }
  for (const u of a.units) {
    lines.push("", "[[unit]]", `troop = ${str(u.troop)}`, `stands = ${u.stands}`);
    if (u.name) lines.push(`name = ${str(u.name)}`);
    if (u.grade && u.grade !== "regular") lines.push(`grade = ${str(u.grade)}`);
    if (u.horse) lines.push("horse = true");
    if (u.dismounted) lines.push("dismounted = true");
    if (u.morale && u.morale !== "regular") lines.push(`morale = ${str(u.morale)}`);
  }
  return lines.join("\n") + "\n";
}

/**
 * Reads an army file back into a draft (the subset `toToml` writes, and `count`).
 * @param {string} text
 * @returns {ArmyDraft}
 */
export function fromToml(text) {
  /** @type {ArmyDraft} */
  const a = { list: "", name: "", points: 1500, commands: [], units: [] };
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
    if (line === "[[command]]" || line === "[[unit]]") {
      flush();
      block = line === "[[unit]]" ? { troop: "", stands: 0 } : { level: "", quality: "" };
      (line === "[[unit]]" ? a.units : a.commands).push(block);
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
    if (m[1] === "count") count = Number(value);
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
  fill(app, h("header", { class: "lobbyhead" }, h("h1", {}, h("a", { href: "#/" }, "Volley"), " · Army builder"), h("p", {}, "Black Powder Tactical Commander: build a battle group to a points total from the book's army lists.")), status);
  /** @type {any} */
  let index;
  try {
    index = await api.armies();
  } catch (e) {
    fill(status, h("span", { class: "error" }, `Could not load the army lists: ${errorText(e)}`));
    return;
  }
  /** @type {ArmyDraft} */
  let draft = { list: index.lists[0].id, name: "My army", points: 1500, commands: [], units: [] };
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

  const recheck = async () => {
    try {
      checked = await api.checkArmy(toToml(draft));
    } catch (e) {
      checked = { ok: false, errors: [{ line: 0, column: 0, message: errorText(e) }], addable: { troops: [], commands: [] } };
    }
    drawChart();
    drawMine();
    drawFight();
  };

  const loadList = async () => {
    list = await api.armyList(draft.list);
    await recheck();
  };

  /** @param {string} kind  "troops" | "commands" @param {string} key */
  const why = (kind, key) => {
    const row = (checked?.addable?.[kind] ?? []).find((/** @type {[string, string | null]} */ r) => r[0] === key);
    return row ? row[1] : "not offered";
  };

  const drawChart = () => {
    if (!list) return;
    const troops = list.rows.map((/** @type {any} */ r) => {
      const t = r.troop;
      const blocked = r.why_not ?? why("troops", t.name);
      const add = h(
        "button",
        {
          class: "add",
          "data-troop": t.name,
          disabled: !!blocked,
          title: blocked ?? `Add a unit of ${r.stands[2]} stands`,
          onclick: () => {
            draft.units.push({ troop: t.name, stands: r.stands[2] });
            recheck();
          },
        },
        "Add",
      );
      const attack = t.cc_only ? "CC" : t.dice ? `${t.dice}/${t.range}` : "–";
      const limit = `${t.min ?? "-"}/${t.max ?? "-"}`;
      return h(
        "tr",
        { class: blocked ? "blocked" : "" },
        h("td", {}, add),
        h("td", { class: "rowname" }, t.name, r.why_not ? h("small", {}, r.why_not) : null),
        h("td", {}, t.arm),
        h("td", {}, String(t.move)),
        h("td", {}, attack),
        h("td", {}, String(t.hits)),
        h("td", {}, t.save ? `${t.save}+` : "–"),
        h("td", {}, t.points ?? "–"),
        h("td", {}, limit),
      );
    });
    const commands = list.commands.command.map((/** @type {any} */ c) => {
      const key = `${c.level} ${c.quality}`;
      const blocked = why("commands", key);
      return h(
        "tr",
        { class: blocked ? "blocked" : "" },
        h(
          "td",
          {},
          h(
            "button",
            {
              class: "add",
              "data-command": key,
              disabled: !!blocked,
              title: blocked ?? "Add this command unit",
              onclick: () => {
                draft.commands.push({ level: c.level, quality: c.quality });
                recheck();
              },
            },
            "Add",
          ),
        ),
        h("td", { class: "rowname" }, `${c.level} HQ, ${c.quality}`),
        h("td", {}, `command ${c.command}`),
        h("td", {}, `+${c.presence}`),
        h("td", {}, `${c.points}`),
        h("td", {}, c.limit ?? ""),
      );
    });
    fill(
      chart,
      list.list.organisation ? h("p", { class: "meta" }, list.list.organisation) : null,
      h("h3", {}, "Command units"),
      h("table", { class: "rows commands" }, h("tbody", {}, ...commands)),
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
          h("span", { class: "what" }, `${c.level} HQ, ${c.quality}`),
          h("input", { class: "unitname", placeholder: "name", value: c.name ?? "", onchange: (/** @type {Event} */ ev) => ((c.name = /** @type {HTMLInputElement} */ (ev.target).value), recheck()) }),
          h("button", { class: "remove", title: "Remove", "aria-label": `Remove ${c.level} HQ`, onclick: () => (draft.commands.splice(i, 1), recheck()) }, "×"),
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
          h("select", { "aria-label": `Morale of ${u.troop}`, title: "Morale grade (the optional Morale rule): -25% or +25% a stand", onchange: (/** @type {Event} */ ev) => ((u.morale = /** @type {HTMLSelectElement} */ (ev.target).value), recheck()) }, ...["regular", "unmotivated", "motivated"].map((g) => h("option", { value: g, selected: (u.morale ?? "regular") === g }, g))),
          h("span", { class: "cost" }, each !== undefined ? String(each) : ""),
          h("button", { class: "remove", title: "Remove", "aria-label": `Remove ${u.troop}`, onclick: () => (draft.units.splice(i, 1), recheck()) }, "×"),
        );
      }),
    ];
    fill(
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
    for (const c of draft.commands) {
      sum += list?.commands.command.find((/** @type {any} */ r) => r.level === c.level && r.quality === c.quality)?.points ?? 0;
    }
    return sum;
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

  const drawFight = () => {
    const others = [
      ...Object.entries(saved()).map(([n, text]) => ({ value: `saved:${n}`, label: `${n} (saved)`, text })),
      ...index.armies.map((/** @type {any} */ a) => ({ value: `bundled:${a.name}`, label: `${a.title} (${a.list})`, text: a.text })),
    ];
    const enemy = h("select", { name: "enemy", "aria-label": "Opponent's army" }, ...others.map((o) => h("option", { value: o.value }, o.label)));
    const map = h("select", { name: "map", "aria-label": "Field" }, ...index.maps.map((/** @type {any} */ m) => h("option", { value: m.name }, m.title)));
    const how = h("select", { name: "how", "aria-label": "How to play" }, h("option", { value: "solo" }, "Solo against the computer"), h("option", { value: "hotseat" }, "Hotseat"), h("option", { value: "online" }, "Online: invite a friend"));
    const side = h("select", { name: "side", "aria-label": "Your side" }, h("option", { value: "red" }, "Red (west)"), h("option", { value: "blue" }, "Blue (east)"));
    const level = h("select", { name: "level", "aria-label": "Computer" }, ...["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === "normal" }, l)));
    const out = h("div", { class: "status" });
    const go = h(
      "button",
      {
        class: "primary fightbtn",
        disabled: !checked?.ok,
        title: checked?.ok ? "" : "The army is not ready: see what is still compulsory",
        onclick: async () => {
          const them = others.find((o) => o.value === enemy.value);
          if (!them) return;
          const me = /** @type {"red" | "blue"} */ (side.value);
          const ours = toToml(draft);
          const armies = me === "red" ? { red: ours, blue: them.text, map: map.value } : { red: them.text, blue: ours, map: map.value };
          const bot = level.value;
          const seats = how.value === "solo" ? (me === "red" ? { red: "human", blue: bot } : { red: bot, blue: "human" }) : { red: "human", blue: "human" };
          go.disabled = true;
          fill(out, "Deploying the armies…");
          try {
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
        },
      },
      "Fight",
    );
    fill(
      fight,
      h("h2", {}, "Fight it"),
      h("label", {}, "Against ", enemy),
      h("label", {}, "Field ", map),
      h("label", {}, "How ", how),
      h("label", { class: "yourside" }, "Your side ", side),
      h("label", { class: "botlevel" }, "Computer ", level),
      go,
      out,
    );
    const showSeats = () => {
      /** @type {HTMLElement} */ (fight.querySelector(".botlevel")).hidden = how.value !== "solo";
      /** @type {HTMLElement} */ (fight.querySelector(".yourside")).hidden = how.value === "hotseat";
    };
    how.addEventListener("change", showSeats);
    showSeats();
  };

  listSel.addEventListener("change", () => {
    draft = { ...draft, list: listSel.value, commands: [], units: [] };
    loadList();
  });
  points.addEventListener("change", () => {
    draft.points = Math.max(1, Number(points.value) || 1500);
    recheck();
  });
  nameIn.addEventListener("change", () => {
    draft.name = nameIn.value;
    recheck();
  });
  drawLibrary();
  await loadList();
}
