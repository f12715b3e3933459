// The lobby: pick a scenario and its options, play solo, hotseat or online, and reopen games.

import * as api from "./api.js";
import { fill, h } from "./dom.js";
import { MapCanvas } from "./map.js";

/** @typedef {import("./api.js").Scenario} Scenario */

const TRUE = ["true", "yes", "on"];
const FALSE = ["false", "no", "off"];

/**
 * The address of an invitation: whoever opens it takes the open seat with a token of their
 * own (the link carries a one-time claim, not a seat).
 * @param {string} id
 * @param {string} claim
 */
export function joinLink(id, claim) {
  return `${location.origin}${location.pathname}#/join/${encodeURIComponent(id)}?claim=${encodeURIComponent(claim)}`;
}

/**
 * The address of a game's spectator link: it shows what both sides have seen.
 * @param {string} id
 * @param {string} token
 */
export function watchLink(id, token) {
  return `${location.origin}${location.pathname}#/watch/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;
}

/**
 * The address of a seat (or of both seats, for hotseat).
 * @param {string} id
 * @param {{one: string} | {red: string, blue: string}} seats
 */
export function gameLink(id, seats) {
  const q = "one" in seats ? `token=${encodeURIComponent(seats.one)}` : `red=${encodeURIComponent(seats.red)}&blue=${encodeURIComponent(seats.blue)}`;
  return `${location.origin}${location.pathname}#/game/${encodeURIComponent(id)}?${q}`;
}

/**
 * @param {HTMLElement} app
 * @param {string} [notice]  a message to show on top
 */
export async function showLobby(app, notice) {
  document.title = "Volley";
  const list = h("div", { class: "scenarios" }, h("p", { class: "loading" }, "Loading scenarios…"));
  const setup = h("section", { class: "setup panel" }, h("p", { class: "hint" }, "Choose a scenario."));
  const mine = h("section", { class: "mygames panel" });
  // The army builder serves the rule system that has army lists: the link names it.
  const builder = h("a", { href: "#/army", class: "builderlink", hidden: true }, "Build an army");
  api
    .armies()
    .then((index) => {
      builder.textContent = `Build a ${index.ruleset.title.replace(/ \(.*\)$/, "")} army`;
      builder.hidden = false;
    })
    .catch(() => {});
  fill(
    app,
    h("header", { class: "lobbyhead" }, h("h1", {}, "Volley"), h("p", {}, "A digital table for hex-and-musket wargames. ", builder)),
    notice ? h("p", { class: "error" }, notice) : null,
    h("div", { class: "lobby" }, h("section", { class: "panel" }, h("h2", {}, "Scenarios"), list), h("div", { class: "lobbyside" }, setup, mine)),
  );
  renderMyGames(mine);
  /** @type {Scenario[]} */
  let scenarios;
  try {
    scenarios = await api.scenarios();
  } catch (e) {
    list.replaceChildren(h("p", { class: "error" }, `Could not load the scenarios: ${errorText(e)}`));
    return;
  }
  list.replaceChildren();
  for (const s of scenarios) {
    const preview = h("div", { class: "preview" });
    const card = h(
      "button",
      {
        class: "scenario",
        "data-scenario": s.name,
        onclick: () => {
          for (const c of list.querySelectorAll(".scenario")) c.classList.toggle("chosen", c === card);
          renderSetup(setup, s);
          // On a phone the set-up would be below every battle: it opens under the one tapped.
          if (matchMedia("(max-width: 760px)").matches) {
            card.after(setup);
            setup.scrollIntoView({ block: "start" });
          }
        },
      },
      preview,
      h("div", { class: "scentext" }, h("h3", {}, s.title), h("p", { class: "meta" }, `${s.name} · ${s.ruleset}`), h("p", {}, s.description)),
    );
    list.append(card);
    new MapCanvas(preview, s.map, { labels: false });
  }
}

/**
 * @param {HTMLElement} setup
 * @param {Scenario} s
 */
function renderSetup(setup, s) {
  /** @type {Record<string, () => string>} */
  const values = {};
  const options = s.options.map((o) => {
    const id = `opt-${o.key}`;
    const lower = o.choices.map((c) => c.toLowerCase());
    if (o.choices.length === 2 && lower.some((c) => TRUE.includes(c)) && lower.some((c) => FALSE.includes(c))) {
      const on = o.choices[lower.findIndex((c) => TRUE.includes(c))];
      const off = o.choices[lower.findIndex((c) => FALSE.includes(c))];
      const box = h("input", { type: "checkbox", id, name: o.key, checked: o.default === on });
      values[o.key] = () => (box.checked ? on : off);
      return h("label", { class: "option", title: o.key }, box, ` ${o.label || o.key}`, h("small", {}, o.help));
    }
    /** @type {HTMLSelectElement | HTMLInputElement} */
    const input = o.choices.length
      ? h("select", { id, name: o.key }, ...o.choices.map((c) => h("option", { value: c, selected: c === o.default }, c)))
      : h("input", { id, name: o.key, value: o.default });
    values[o.key] = () => input.value;
    return h("label", { class: "option", title: o.key }, `${o.label || o.key} `, input, h("small", {}, o.help));
  });
  const mode = h(
    "fieldset",
    { class: "mode" },
    h("legend", {}, "How to play"),
    radio("mode", "solo", "Solo against the computer", true),
    radio("mode", "hotseat", "Hotseat: two players at this screen"),
    radio("mode", "online", "Online: send an invite link"),
  );
  const side = h("select", { name: "side" }, h("option", { value: "red" }, "Red"), h("option", { value: "blue" }, "Blue"));
  const level = h("select", { name: "level" }, ...["easy", "normal", "hard"].map((l) => h("option", { value: l, selected: l === "normal" }, l)));
  // Online games may be played at a pace: a time for each move, with a "your turn" in the
  // games list, and the win claimed against a player who lets it run out.
  const pace = h(
    "select",
    { name: "pace" },
    h("option", { value: "live", selected: true }, "Live"),
    ...[1, 3, 7].map((d) => h("option", { value: `${d}d` }, `${d} day${d > 1 ? "s" : ""} per move`)),
  );
  const status = h("div", { class: "status" });
  const start = h("button", { class: "primary", type: "submit" }, "Start game");
  const form = h(
    "form",
    {
      onsubmit: async (/** @type {Event} */ ev) => {
        ev.preventDefault();
        const how = /** @type {HTMLInputElement} */ (form.querySelector("input[name=mode]:checked")).value;
        /** @type {Record<string, string>} */
        const chosen = {};
        for (const [k, get] of Object.entries(values)) chosen[k] = get();
        const me = /** @type {"red" | "blue"} */ (side.value);
        const other = me === "red" ? "blue" : "red";
        const bot = level.value;
        const seats = how === "solo" ? (me === "red" ? { red: "human", blue: bot } : { red: bot, blue: "human" }) : { red: "human", blue: "human" };
        start.disabled = true;
        status.replaceChildren("Creating the game…");
        try {
          const game = await api.createGame(s.name, chosen, seats.red, seats.blue, how === "hotseat" ? "both" : me, how === "online" ? pace.value : "live");
          const created = new Date().toISOString();
          const redToken = game.seats.red;
          const blueToken = game.seats.blue;
          if (how === "hotseat" && redToken && blueToken) {
            api.rememberGame({ id: game.id, seat: "both", token: redToken, token2: blueToken, scenario: s.title, created });
            location.hash = new URL(gameLink(game.id, { red: redToken, blue: blueToken })).hash;
            return;
          }
          const mine = game.seats[me];
          if (!mine) throw new Error("the server gave no token for your seat");
          api.rememberGame({ id: game.id, seat: me, token: mine, scenario: s.title, created });
          const theirs = game.invites[other];
          if (how === "online" && theirs) {
            status.replaceChildren(invite(game.id, other, theirs, mine));
            // The game exists: another click would make a second one.
            start.textContent = "Game created";
            return;
          }
          location.hash = new URL(gameLink(game.id, { one: mine })).hash;
        } catch (e) {
          status.replaceChildren(h("p", { class: "error" }, `Could not create the game: ${errorText(e)}`));
          start.disabled = false;
        }
      },
    },
    h("h2", {}, s.title),
    h("p", { class: "meta" }, s.description),
    options.length ? h("fieldset", { class: "options" }, h("legend", {}, "Options"), ...options) : null,
    mode,
    h("p", { class: "seatline" }, h("label", { class: "yourside" }, "Your side ", side), " ", h("label", { class: "botlevel" }, "Computer ", level), " ", h("label", { class: "pace" }, "Pace ", pace)),
    start,
    status,
  );
  // Only a solo game has a computer, and a hotseat game has no side of its own.
  const showSeats = () => {
    const how = /** @type {HTMLInputElement} */ (form.querySelector("input[name=mode]:checked")).value;
    /** @type {HTMLElement} */ (form.querySelector(".botlevel")).hidden = how !== "solo";
    /** @type {HTMLElement} */ (form.querySelector(".yourside")).hidden = how === "hotseat";
    /** @type {HTMLElement} */ (form.querySelector(".pace")).hidden = how !== "online";
  };
  for (const r of form.querySelectorAll("input[name=mode]")) r.addEventListener("change", showSeats);
  showSeats();
  setup.replaceChildren(form);
}

/**
 * The invite for the other seat of an online game.
 * @param {string} id
 * @param {"red" | "blue"} other
 * @param {string} theirs  the open seat's one-time claim
 * @param {string} mine
 */
export function invite(id, other, theirs, mine) {
  const link = joinLink(id, theirs);
  const field = h("input", { class: "invite", readonly: true, value: link, "aria-label": "invite link" });
  const copy = h("button", {
    type: "button",
    onclick: async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Select and copy";
      }
    },
  }, "Copy");
  return h(
    "div",
    { class: "invitebox" },
    h("p", {}, `Send this invitation to the player of ${other}. Whoever opens it first takes the seat, with a key of their own you never see; the battle begins, and the first dice are rolled, when they do:`),
    h("div", { class: "row" }, field, copy),
    h("p", {}, h("a", { href: new URL(gameLink(id, { one: mine })).hash, class: "button primary" }, "Go to my game")),
  );
}

/**
 * @param {string} name
 * @param {string} value
 * @param {string} text
 * @param {boolean} [checked]
 */
function radio(name, value, text, checked = false) {
  return h("label", { class: "radio" }, h("input", { type: "radio", name, value, checked }), ` ${text}`);
}

/** @param {HTMLElement} box */
function renderMyGames(box) {
  const games = api.myGames();
  box.replaceChildren(h("h2", {}, "My games"));
  if (!games.length) {
    box.append(h("p", { class: "hint" }, "Games you start or join appear here (kept in this browser)."));
    return;
  }
  const body = h("tbody", {});
  box.append(h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, "Scenario"), h("th", {}, "Seat"), h("th", {}, "Status"), h("th", {}, "Started"), h("th", {}))), body));
  /**
   * @param {import("./api.js").MyGame} g
   * @param {import("./api.js").ListedGame | undefined} listed
   */
  const row = (g, listed) => {
    const href = new URL(g.seat === "both" && g.token2 ? gameLink(g.id, { red: g.token, blue: g.token2 }) : gameLink(g.id, { one: g.token })).hash;
    const mine = !!listed && listed.status === "your turn" && g.seat !== "both";
    const status = !listed
      ? "…"
      : listed.status === "over"
        ? listed.winner
          ? `${sideTitle(listed.winner)} won (${listed.result ?? ""})`
          : `Drawn (${listed.result ?? ""})`
        : listed.status === "unknown"
          ? "not on this server"
          : listed.status === "waiting"
            ? "Waiting for the invited player"
            : g.seat === "both"
              ? `Turn ${listed.turn}: ${listed.to_decide} to play`
              : mine
                ? `Your turn · turn ${listed.turn}`
                : `Turn ${listed.turn}: ${listed.to_decide} to play`;
    const due = listed?.deadline && listed.status !== "over" ? ` · move by ${new Date(listed.deadline * 1000).toLocaleString()}` : "";
    const claim = listed?.can_claim && g.seat !== "both"
      ? h("button", {
          class: "small claimwin",
          title: "Your opponent's time for the move ran out: claim the win",
          onclick: async () => {
            try {
              await api.claimTimeout(g.id, g.token);
            } catch (e) {
              alert(`Could not claim the win: ${errorText(e)}`);
            }
            renderMyGames(box);
          },
        }, "Claim the win")
      : null;
    return h(
      "tr",
      { "data-game": g.id, class: mine ? "yourturnrow" : "" },
      h("td", {}, h("a", { href }, g.scenario)),
      h("td", {}, g.seat === "both" ? "hotseat" : g.seat),
      h("td", { class: `status${mine ? " yourturn" : ""}` }, status + due, claim ? " " : "", claim),
      h("td", {}, new Date(g.created).toLocaleString()),
      h("td", {}, h("button", {
        class: "small",
        title: "Forget this game in this browser",
        onclick: () => {
          api.forgetGame(g.id, g.seat);
          renderMyGames(box);
        },
      }, "Forget")),
    );
  };
  body.append(...games.map((g) => row(g, undefined)));
  // Whose turn it is, asked of the server with each seat's token; the server sorts the list:
  // your turn first (the least time left first), then your opponents', then the finished.
  api
    .gamesList(games.map((g) => ({ id: g.id, token: g.token })))
    .then((listed) => {
      const left = [...games];
      const rows = [];
      for (const l of listed) {
        const i = left.findIndex((g) => g.id === l.id);
        if (i < 0) continue;
        rows.push(row(left[i], l));
        left.splice(i, 1);
      }
      body.replaceChildren(...rows, ...left.map((g) => row(g, undefined)));
    })
    .catch((e) => {
      for (const td of body.querySelectorAll("td.status")) td.textContent = `unknown (${errorText(e)})`;
    });
}

/** @param {string} side */
function sideTitle(side) {
  return side.charAt(0).toUpperCase() + side.slice(1);
}

/** @param {unknown} e */
export function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}
