// The game screen: the map, the phase bar, the selected unit's actions with their odds, the
// event log, live updates over the WebSocket, hotseat hand-over and the replay of a finished game.

import * as api from "./api.js";
import { fill, h } from "./dom.js";
import { FACINGS } from "./hex.js";
import { MapCanvas, SIDE_COLOUR, formationMark } from "./map.js";
import { errorText, gameLink, joinLink, watchLink } from "./lobby.js";

/** @typedef {import("./api.js").View} View */
/** @typedef {import("./api.js").Side} Side */
/** @typedef {import("./api.js").UnitView} UnitView */
/** @typedef {import("./api.js").LoggedEvent} LoggedEvent */
/** @typedef {import("./api.js").Odds} Odds */
/** @typedef {import("./map.js").Mark} Mark */

/**
 * A legal action as the server describes it: who gives it, where the map marks it, the
 * facing it sets, whether dice decide it, and its label in plain words.
 * @typedef {object} Parsed
 * @property {string} text  the notation (sent back unchanged)
 * @property {string} verb
 * @property {string} kind  end, move, turn, attack or other
 * @property {string | null} unit  the unit one selects to give it
 * @property {string | null} hex  where the map marks it
 * @property {string | null} facing
 * @property {boolean} rolls  whether dice decide it
 * @property {string} label
 */

/**
 * Where a click would take the selected unit and how.
 * @typedef {object} Pending
 * @property {string | null} hex
 * @property {string[]} actions  the choices, each one action (the first is Enter's)
 * @property {string[]} [path]  for a hex beyond one step: the hexes there, one step at a time
 * @property {string} [caution]  said above the choice (ending a phase while units can still act)
 */

/** Verbs of attacks in contact (the map marks them apart from fire). */
const CLOSE_VERBS = new Set(["melee", "charge", "assault", "close"]);

/** @type {[string, string][]} */
const KEYS = [
  ["Click", "select a unit; click a marked hex to choose, again to confirm"],
  ["Enter", "confirm the chosen action"],
  ["Esc", "cancel / deselect / close"],
  ["E", "end the phase (asks first while units can still act; E or Enter again confirms)"],
  ["U", "undo your unit's whole move, then earlier actions (not past a die roll or a reveal)"],
  ["1–6", "face N, NE, SE, S, SW, NW (on squares 1–4: N, E, S, W)"],
  ["N", "next unit that can act"],
  ["T", "next hex the selected unit can move to or act on (Enter confirms)"],
  ["Shift-click", "gather units into a group; click an empty hex to move them together"],
  ["P", "hide or show the panel (phones)"],
  ["+ / −, wheel, pinch", "zoom in / out"],
  ["Arrows, drag", "pan the map"],
  ["0", "show the whole map"],
  ["R", "replay (finished games)"],
  ["← / →, Home / End", "step the replay, go to its start or end"],
  ["Space", "play the replay through, or pause it"],
  ["G", "the game's words explained (glossary)"],
  ["?", "this help"],
];

/**
 * A choice the server gave, for the map.
 * @param {import("./api.js").Choice} c
 * @returns {Parsed}
 */
export function fromChoice(c) {
  return { text: c.action, verb: c.verb, kind: c.kind, unit: c.unit ?? null, hex: c.target?.hex ?? null, facing: c.facing ?? null, rolls: c.dice, label: c.label };
}

/** The sides a square's unit may face, in the order keys 1–4 choose them. */
const SQUARE_FACINGS = ["N", "E", "S", "W"];

/**
 * The facings of the view's grid: six hexsides, or a square's four sides.
 * @param {View} view
 * @returns {string[]}
 */
function facingsOf(view) {
  return view.map.grid === "square" ? SQUARE_FACINGS : /** @type {string[]} */ (FACINGS);
}

/**
 * A unit's facing: the view's hexside, or on squares the side its flag names.
 * @param {UnitView} u
 */
function facingOf(u) {
  return u.facing ?? u.flags.find((f) => f.startsWith("facing "))?.slice(7) ?? null;
}

/**
 * The chance that an action does something: 1 − P("no effect").
 * @param {Odds} odds
 */
export function effectChance(odds) {
  const none = odds.outcomes.find((o) => o.outcome === "no effect")?.probability ?? 0;
  return 1 - none;
}

/** @param {number} p */
const percent = (p) => `${Math.round(p * 100)}%`;

export class GameScreen {
  /**
   * @param {HTMLElement} app
   * @param {string} id
   * @param {{one: string} | {red: string, blue: string} | {watch: string}} seats  a seat, both (hotseat), or the spectator link's token
   */
  constructor(app, id, seats) {
    this.app = app;
    this.id = id;
    /** A spectator: sees what both sides have seen, and cannot act or chat. */
    this.watching = "watch" in seats;
    this.hotseat = "red" in seats;
    /** @type {Partial<Record<Side, string>>} */
    this.tokens = "red" in seats ? { red: seats.red, blue: seats.blue } : {};
    /** @type {string} */
    this.token = "one" in seats ? seats.one : "watch" in seats ? seats.watch : seats.red;
    /** Spectators watching now, and when the side to decide runs out of time (paced games). */
    this.watchers = 0;
    /** @type {number | null} */
    this.deadline = null;
    /** The spectator link's token, for the players to share. */
    /** @type {string | null} */
    this.spectate = null;
    /** Seconds a player has for a move (0: live). */
    this.pace = 0;
    /** @type {Side | null} */
    this.seat = null;
    /** Who sits in each seat: `human` or the computer's bot spec. */
    /** @type {{red: string, blue: string} | null} */
    this.players = null;
    /** While the computer plays: its side, since when, and the action count it started at. */
    /** @type {{side: Side, since: number, from: number} | null} */
    this.thinking = null;
    /** @type {View | null} */
    this.view = null;
    this.seq = -1;
    /** @type {Parsed[]} */
    this.legal = [];
    /** @type {LoggedEvent[]} */
    this.log = [];
    this.lastEvent = 0;
    /** @type {string | null} */
    this.selected = null;
    /** @type {Map<string, number>} */
    this.reach = new Map();
    /** @type {Map<string, Odds>} */
    this.odds = new Map();
    /** @type {Pending | null} */
    this.pending = null;
    this.busy = false;
    /** When E was last pressed with units still able to act (ms), 0 when not. */
    this.endArmed = 0;
    /**
     * The selected unit's steps since it was selected, so that undo takes back the whole move:
     * the unit, how many actions, and the position number after the last of them.
     * @type {{unit: string, count: number, seq: number} | null}
     */
    this.moveUnderWay = null;
    /** Phases that passed with nothing to do, said once the new position is shown. */
    this.passedNote = "";
    /** Units gathered to move together (shift-click, or "Add to group"): ids, the lead first. */
    /** @type {string[]} */
    this.group = [];
    /** The open hex the pointer rests on, and the timer that shows its ground. */
    /** @type {string | null} */
    this.groundHex = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.groundTimer = undefined;
    /** The other side's events since this seat last decided, for the turn summary. */
    /** @type {LoggedEvent[]} */
    this.away = [];
    /** The WebSocket's pushes, handled one after another. */
    /** @type {Promise<void>} */
    this.pushes = Promise.resolve();
    /** Whether the last position drawn was this seat's decision (for the "your turn" chime). */
    this.wasMine = false;
    /** The Resign button was clicked once and asks for a second click. */
    this.resignArmed = false;
    /** Replaying a finished game: the step shown, how many there are, where each turn begins,
     * and the autoplay timer when it plays by itself. */
    /** @type {{step: number, steps: number, turns: number[], timer?: ReturnType<typeof setInterval>} | null} */
    this.replay = null;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.retry = 1000;
    /** Bumped on every new position, so late answers for an old one are dropped. */
    this.generation = 0;
    /** The legal actions being fetched for the position shown. */
    /** @type {Promise<{actions: string[], described: import("./api.js").Choice[]}> | null} */
    this.ready = null;
    /** @type {MapCanvas | null} */
    this.map = null;
    this.live = false;
    /** @type {string | null} */
    this.commitment = null;
    /** @type {string | null} */
    this.seed = null;
    this.bar = h("header", { class: "phasebar" });
    this.mapHost = h("div", { class: "maphost" });
    this.confirm = h("div", { class: "confirm", hidden: true });
    /** A decision put to this seat in the middle of the other side's turn. */
    this.decision = h("div", { class: "decision", hidden: true, "aria-label": "decision" });
    /** The latest command roll, shown above the map. */
    this.orderLine = h("div", { class: "orderroll", hidden: true, role: "status" });
    /** @type {LoggedEvent | null} */
    this.lastOrder = null;
    this.unitPanel = h("section", { class: "unitpanel panel" });
    this.sidesPanel = h("section", { class: "sides panel" });
    this.logList = h("ol", { class: "log", "aria-label": "event log" });
    /** The players' chat (online games between two people only). */
    this.chatList = h("ol", { class: "chatlines", "aria-label": "chat" });
    /** @type {number} */
    this.chatSeen = 0;
    this.chatInput = h("input", {
      type: "text",
      maxlength: 500,
      placeholder: "Say something to your opponent…",
      "aria-label": "Chat message",
      onkeydown: (/** @type {KeyboardEvent} */ ev) => {
        if (ev.key === "Enter") this.sendChat();
      },
    });
    /** Where this seat is told it is its turn (online games between two people). */
    this.notifyEmail = h("input", { type: "email", name: "notify-email", placeholder: "e-mail address", "aria-label": "E-mail for your turn" });
    this.notifyHook = h("input", { type: "url", name: "notify-webhook", placeholder: "https://… webhook", "aria-label": "Webhook for your turn" });
    this.notifyPanel = h(
      "section",
      { class: "notifypanel panel", hidden: true },
      h(
        "details",
        { class: "notifybox" },
        h("summary", {}, "Tell me when it is my turn"),
        h("div", { class: "chatrow" }, this.notifyEmail),
        h("div", { class: "chatrow" }, this.notifyHook, h("button", { onclick: () => this.saveNotify() }, "Save")),
      ),
    );
    this.chatPanel = h("section", { class: "chatpanel panel", hidden: true }, h("h2", {}, "Chat"), this.chatList, h("div", { class: "chatrow" }, this.chatInput, h("button", { onclick: () => this.sendChat() }, "Send")));
    this.card = h("div", { class: "unitcard", hidden: true });
    this.curtain = h("div", { class: "curtain", hidden: true });
    this.help = h(
      "div",
      { class: "help", hidden: true, onclick: () => this.toggleHelp(false) },
      h("div", { class: "helpbox" }, h("h2", {}, "Keys"), h("table", {}, ...KEYS.map(([k, t]) => h("tr", {}, h("th", {}, k), h("td", {}, t)))), h("p", { class: "hint" }, "Click anywhere to close.")),
    );
    this.glossaryBox = h("div", { class: "help glossary", hidden: true, onclick: (/** @type {MouseEvent} */ ev) => ev.target === this.glossaryBox && this.toggleGlossary(false) });
    this.message = h("div", { class: "message", role: "status" });
    this.app.append(
      h(
        "div",
        { class: "game" },
        this.bar,
        this.orderLine,
        h("div", { class: "gamebody" }, h("div", { class: "mapcol" }, this.mapHost, this.confirm, this.decision, this.message), h("aside", { class: "side" }, this.unitPanel, this.sidesPanel, this.chatPanel, this.notifyPanel, h("section", { class: "logpanel panel" }, h("h2", {}, "Log"), this.logList))),
        this.card,
        this.curtain,
        this.help,
        this.glossaryBox,
      ),
    );
    this.onKey = (/** @type {KeyboardEvent} */ ev) => this.key(ev);
    document.addEventListener("keydown", this.onKey);
    // While the computer thinks, the bar counts the seconds.
    this.ticker = setInterval(() => {
      if (this.thinking && !this.closed) this.drawBar();
    }, 1000);
    this.start();
  }

  close() {
    this.closed = true;
    clearInterval(this.ticker);
    document.removeEventListener("keydown", this.onKey);
    this.ws?.close();
  }

  async start() {
    try {
      await this.waitForSeats();
      await this.load();
    } catch (e) {
      this.mapHost.replaceChildren(h("p", { class: "error" }, `Could not open the game: ${errorText(e)}`), h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
      return;
    }
    this.connect();
  }

  /**
   * An online game starts when the invited player takes their seat: until then, say so and
   * ask again every two seconds.
   * @returns {Promise<void>}
   */
  async waitForSeats() {
    for (;;) {
      const s = await api.seats(this.id);
      if (s.started || this.closed) return;
      this.mapHost.replaceChildren(
        h("div", { class: "waiting" },
          h("p", {}, `Waiting for the player of ${s.open.join(" and ")} to open your invitation. The battle begins, and the first dice are rolled, when they take their seat.`),
          h("p", { class: "meta" }, `Dice commitment, published now: ${s.commitment.slice(0, 16)}…`)),
      );
      await new Promise((done) => setTimeout(done, 2000));
    }
  }

  /**
   * Fetches the seat's view, the log and the legal actions, and draws them.
   * @returns {Promise<void>}
   */
  async load() {
    if (this.watching) return this.loadWatching();
    const sv = await api.view(this.id, this.token);
    this.watchers = sv.watchers ?? 0;
    this.deadline = sv.deadline ?? null;
    this.spectate = sv.spectate ?? null;
    this.pace = sv.pace ?? 0;
    this.seat = sv.seat;
    this.players = sv.players;
    if (this.hotseat && sv.view.to_decide && sv.view.to_decide !== sv.seat && this.tokens[sv.view.to_decide]) {
      this.token = /** @type {string} */ (this.tokens[sv.view.to_decide]);
      return this.load();
    }
    this.remember(sv.view);
    const { events } = await api.log(this.id, this.token);
    this.log = [];
    this.lastEvent = 0;
    this.logList.replaceChildren();
    // Read whole (a reload, or a push that found the page behind): the other side's doings are
    // summed up wherever the decision came back to this seat, as live updates would have.
    this.away = [];
    const seat = /** @type {Side} */ (sv.seat);
    for (const e of events) {
      if (!this.hotseat && seat && e.side === seat && this.away.length) {
        this.logList.append(h("li", { class: "logsummary" }, summary(this.away, sv.view, seat)));
        this.away = [];
      }
      this.addEvents([e]);
      if (!this.hotseat && seat && e.side && e.side !== seat) this.away.push(e);
    }
    if (!this.hotseat && seat && sv.view.to_decide === seat && !sv.view.outcome && this.away.length) {
      this.logList.append(h("li", { class: "logsummary" }, summary(this.away, sv.view, seat)));
      this.away = [];
    }
    if (sv.view.outcome) this.away = [];
    this.commitment = sv.commitment;
    this.seed = sv.seed;
    // Chat between two people at two screens; never in hotseat or against the computer.
    const talk = !this.hotseat && sv.players.red === "human" && sv.players.blue === "human";
    this.chatPanel.hidden = !talk;
    this.notifyPanel.hidden = !talk;
    if (talk) {
      this.chatList.replaceChildren();
      this.chatSeen = 0;
      this.addChat(await api.chat(this.id, this.token));
      const contact = await api.notify(this.id, this.token);
      this.notifyEmail.value = contact.email ?? "";
      this.notifyHook.value = contact.webhook ?? "";
    }
    await this.show(sv.view, sv.seq);
  }

  /**
   * A spectator's read of the game: what both sides have seen, and no chat.
   * @returns {Promise<void>}
   */
  async loadWatching() {
    const wv = await api.watch(this.id, this.token);
    this.seat = null;
    this.players = wv.players;
    this.watchers = wv.watchers;
    this.deadline = wv.deadline;
    this.pace = wv.pace;
    this.log = [];
    this.lastEvent = 0;
    this.logList.replaceChildren();
    this.away = [];
    this.addEvents(wv.events);
    this.commitment = wv.commitment;
    this.seed = wv.seed;
    this.chatPanel.hidden = true;
    this.notifyPanel.hidden = true;
    await this.show(wv.view, wv.seq);
  }

  /**
   * Keeps an invite link's seat in "my games".
   * @param {View} view
   */
  remember(view) {
    const seat = this.hotseat ? "both" : this.seat;
    if (!seat) return;
    const known = api.myGames().find((g) => g.id === this.id && g.seat === seat);
    api.rememberGame({
      id: this.id,
      seat,
      token: this.hotseat ? /** @type {string} */ (this.tokens.red) : this.token,
      token2: this.hotseat ? this.tokens.blue : undefined,
      scenario: view.title,
      created: known?.created ?? new Date().toISOString(),
    });
  }

  /**
   * A new position: draw it and, when it is this seat's decision, fetch what may be done.
   * @param {View} view
   * @param {number} seq
   */
  async show(view, seq) {
    const first = !this.view;
    this.view = view;
    this.seq = seq;
    const gen = ++this.generation;
    const mine = !this.replay && !!view.to_decide && view.to_decide === this.seat;
    document.title = `${mine && !this.hotseat ? "● Your turn · " : ""}${view.title} · Volley`;
    // A soft chime when the decision comes back to this seat (not on opening the game).
    if (mine && !first && !this.wasMine && !this.hotseat) chime();
    this.wasMine = mine;
    if (first || !this.map) {
      this.mapHost.replaceChildren();
      this.map = new MapCanvas(this.mapHost, view.map, { interactive: true });
      this.map.onHex = (label, ev) => this.clickHex(label, ev);
      this.map.onHover = (id, ev) => this.hover(id, ev);
    }
    this.map.setPieces(view.units, view.markers, view.objectives);
    if (first && matchMedia("(max-width: 760px)").matches) {
      // On a phone the whole map makes counters too small for a finger: start zoomed in on
      // one's own troops (or the battle's middle), 0 shows it whole.
      const own = view.units.filter((u) => !this.seat || u.side === (this.seat ?? u.side)).flatMap((u) => api.hexOf(u) ?? []);
      // Once laid out (the panel under the map settles the map's height a moment later).
      requestAnimationFrame(() => this.map?.readable(own));
      setTimeout(() => this.map?.readable(own), 300);
    }
    this.foldMoves();
    this.legal = [];
    this.pending = null;
    if (!this.replay && view.to_decide && view.to_decide === this.seat) {
      // Kept so that whoever learns of this position another way (an action's answer racing
      // the WebSocket's push of the same position) can wait for its legal actions too.
      this.ready = api.legal(this.id, this.token);
      const { described } = await this.ready;
      if (gen !== this.generation) return;
      this.legal = described.map(fromChoice);
    }
    this.map.setReady(new Set(this.legal.flatMap((a) => (a.unit ? [a.unit] : []))));
    this.drawBar();
    this.drawSides();
    this.drawDecision();
    this.drawOrderLine();
    let keep = this.selected && view.units.some((u) => u.id === this.selected) ? this.selected : null;
    // A decision that concerns one unit only (stand or fall back, say): select it, so that its
    // choices are in front of the player.
    const actors = new Set(this.legal.filter((a) => a.kind !== "end").map((a) => a.unit));
    if (!keep && actors.size === 1) keep = [...actors][0];
    // Not awaited: odds may take a while, and the player need not wait for them to act.
    this.select(keep);
    // The position is drawn and its choices are in: said on the page for scripts and tests.
    this.app.dataset.shown = String(gen);
    if (this.passedNote) {
      this.say(this.passedNote);
      this.passedNote = "";
    }
  }

  /** Listens for the seat's updates; reconnects when the connection drops. */
  connect() {
    if (this.closed) return;
    const ws = new WebSocket(api.socketUrl(this.id, this.token, this.watching));
    this.ws = ws;
    let first = true;
    ws.onopen = () => {
      this.retry = 1000;
      this.live = true;
      this.drawBar();
    };
    ws.onmessage = (ev) => {
      /** @type {import("./api.js").Update} */
      let msg;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (msg.type !== "update" || ws !== this.ws) return;
      // The first message carries no events: if the game moved on since the log was read,
      // read it again.
      this.commitment = msg.commitment;
      this.seed = msg.seed;
      this.deadline = msg.deadline ?? null;
      if ((msg.watchers ?? 0) !== this.watchers) {
        this.watchers = msg.watchers ?? 0;
        this.drawBar();
      }
      if (msg.chat) this.addChat(msg.chat);
      // Further on than the log read, or back (an action was taken back): read the game again.
      // One at a time: a whole read must not interleave with a push's events.
      const whole = (first && msg.seq > this.seq) || msg.seq < this.seq;
      first = false;
      this.pushes = this.pushes.then(() => (whole ? this.load() : this.update(msg.view, msg.seq, msg.events))).catch(() => {});
    };
    ws.onclose = () => {
      if (ws !== this.ws || this.closed) return;
      this.live = false;
      this.drawBar();
      setTimeout(async () => {
        if (this.closed || ws !== this.ws) return;
        try {
          await this.load();
        } catch {
          // The server is away; the next attempt tries again.
        }
        this.connect();
      }, this.retry);
      this.retry = Math.min(this.retry * 2, 10000);
    };
  }

  /**
   * Who the page waits for, and — when the computer is thinking — how far it has got.
   * @param {View} v
   * @param {Side} side
   * @returns {string}
   */
  waitingFor(v, side) {
    const who = this.players?.[side];
    if (!who || who === "human") return `Waiting for ${sideName(v, side)}…`;
    if (!this.thinking || this.thinking.side !== side) this.thinking = { side, since: Date.now(), from: this.seq };
    const done = this.seq - this.thinking.from;
    const secs = Math.round((Date.now() - this.thinking.since) / 1000);
    return `The computer (${who}) is playing ${sideName(v, side)}: ${done} action${done === 1 ? "" : "s"} so far${secs >= 2 ? `, ${secs} s` : ""}…`;
  }

  /**
   * A change pushed by the server or answered to an action.
   * @param {View} view
   * @param {number} seq
   * @param {LoggedEvent[]} events
   */
  async update(view, seq, events) {
    this.addEvents(events);
    // What the other side did while this seat waited, summed up when the decision comes back.
    if (!this.hotseat && this.seat) {
      this.away.push(...events.filter((e) => e.side && e.side !== this.seat));
      if (view.to_decide === this.seat && this.away.length) {
        this.logList.append(h("li", { class: "logsummary" }, summary(this.away, view, /** @type {Side} */ (this.seat))));
        this.logList.scrollTop = this.logList.scrollHeight;
        this.away = [];
      }
    }
    // What the other side just did, ringed on the map once the position is drawn.
    const theirs = events.filter((e) => e.side && e.side !== this.seat).flatMap((e) => e.units ?? []);
    if (this.replay) return;
    if (seq <= this.seq) {
      // Already shown (the push came first): wait until its legal actions are in, so that a
      // move of several hexes goes on from here with the legal list of this position.
      await this.settled();
      return;
    }
    if (this.hotseat && view.to_decide && view.to_decide !== this.seat && this.tokens[view.to_decide]) {
      this.handOver(view.to_decide);
      return;
    }
    await this.show(view, seq);
    if (theirs.length && !this.hotseat) this.map?.highlight(theirs);
  }

  /** Resolves once the legal actions of the position shown are in (or failed to come). */
  async settled() {
    try {
      await this.ready;
    } catch {
      // The error is shown where the request was made.
    }
    // show() awaited the same promise first, so its continuation has set the legal list.
  }

  /**
   * Hotseat: hide the map until the other player takes the screen.
   * @param {Side} side
   */
  handOver(side) {
    this.token = /** @type {string} */ (this.tokens[side]);
    this.selected = null;
    const name = this.view?.sides.find((s) => s.side === side)?.name ?? side;
    this.curtain.replaceChildren(
      h("div", { class: "curtainbox" }, h("h2", { style: `color:${SIDE_COLOUR[side]}` }, `${name} to play`), h("p", {}, "Pass the screen to the other player."), h("button", { class: "primary takeover", onclick: () => this.takeOver() }, `I play ${name} — show my view`)),
    );
    this.curtain.hidden = false;
    this.ws?.close();
    this.ws = null;
  }

  async takeOver() {
    this.curtain.hidden = true;
    this.view = null;
    await this.load();
    this.connect();
  }

  /** @param {LoggedEvent[]} events */
  addEvents(events) {
    // A phase that ended as soon as it began: nobody had anything to do in it. Said in the log
    // and in passing, so that no phase goes by without a word.
    /** @type {string[]} */
    const passed = [];
    events.forEach((e, i) => {
      const next = events[i + 1];
      if (e.kind === "phase" && next?.kind === "phase" && !e.opens_turn && !/player turn/i.test(e.text) && e.seq > this.lastEvent) passed.push(e.text.replace(/^Turn \d+: /i, "").replace(/\.$/, ""));
    });
    for (const e of events) {
      if (e.seq <= this.lastEvent) continue;
      this.lastEvent = e.seq;
      this.log.push(e);
      if (e.kind === "order" && orderRoll(e.text)) this.lastOrder = e;
      // A move made hex by hex reads as one line: the steps fold into the first one's entry.
      const last = /** @type {HTMLElement | null} */ (this.logList.lastElementChild);
      const unit = e.kind === "move" && e.units?.length === 1 ? e.units[0] : null;
      if (unit && last && last.dataset.move === `${unit}|${e.turn}`) {
        const steps = Number(last.dataset.steps ?? "1") + 1;
        last.dataset.steps = String(steps);
        last.title = `${last.title}\n${e.text}`;
        // Said again once the position shows where the unit ended ([foldMoves]).
        last.dataset.folded = "";
        continue;
      }
      const li = this.logEntry(e);
      if (e.kind === "phase" && passed.includes(e.text.replace(/^Turn \d+: /i, "").replace(/\.$/, ""))) li.append(h("span", { class: "passes" }, " — nothing to do: it passes"));
      if (unit) {
        li.dataset.move = `${unit}|${e.turn}`;
        li.title = e.text;
        // Where the unit began: the position shown is still the one before these events.
        const here = this.view?.units.find((u) => u.id === unit);
        if (here) li.dataset.from = api.hexOf(here) ?? "";
      }
      this.logList.append(li);
    }
    this.drawOrderLine();
    if (passed.length && !this.replay) this.passedNote = `Nothing to do, so it passed: ${passed.join("; ")}.`;
    // Pinned to the newest entry, once the entries are laid out.
    const pin = () => {
      this.logList.scrollTop = this.logList.scrollHeight;
    };
    pin();
    requestAnimationFrame(pin);
  }

  /**
   * A move made step by step reads as one line: who moved, from where it began to where it
   * ended, and how many steps (each step's own line is kept in the entry's tooltip).
   */
  foldMoves() {
    const v = this.view;
    if (!v) return;
    for (const li of /** @type {NodeListOf<HTMLElement>} */ (this.logList.querySelectorAll("li[data-steps]"))) {
      if (li.dataset.folded) continue;
      const [id] = (li.dataset.move ?? "").split("|");
      const u = v.units.find((x) => x.id === id);
      const to = u ? api.hexOf(u) : null;
      const text = li.querySelector(".text");
      if (!u || !to || !text) continue;
      text.textContent = `${u.name} moves from ${li.dataset.from || "its hex"} to ${to} (${li.dataset.steps} steps).`;
      li.dataset.folded = to;
    }
  }

  /** @param {LoggedEvent} e */
  logEntry(e) {
    const li = h(
      "li",
      {
        class: `event ${e.side ?? "none"} k-${e.kind}`,
        "data-seq": e.seq,
        tabindex: 0,
        title: e.units?.length ? `Show ${e.units.join(", ")} on the map` : "",
        onclick: () => {
          for (const x of this.logList.querySelectorAll(".event.active")) x.classList.remove("active");
          li.classList.add("active");
          this.map?.highlight(e.units ?? []);
        },
      },
      h("span", { class: "turn" }, `T${e.turn}`),
      " ",
      h("span", { class: "text" }, e.text),
      " ",
      h("span", { class: "rule", role: "button", tabindex: 0, title: `Rule: ${e.rule.split(" ").slice(1).join(" ")} — click for the words it defines`, onclick: (/** @type {MouseEvent} */ ev) => (ev.stopPropagation(), this.showRule(e.rule)) }, ruleTag(e.rule)),
    );
    return li;
  }

  drawBar() {
    const v = this.view;
    if (!v) return;
    const mine = !this.replay && v.to_decide !== null && v.to_decide === this.seat;
    if (mine || !v.to_decide) this.thinking = null;
    const end = this.legal.find((a) => a.kind === "end");
    // What no unit gives and has no place on the map; the rest is marked on the map.
    const global = this.legal.filter((a) => !a.unit && !a.hex && a.kind !== "end");
    const who = this.replay
      ? h("span", { class: "decide" }, "Replay")
      : v.outcome
      ? h("span", { class: "outcome" }, v.outcome.winner ? `${sideName(v, v.outcome.winner)} wins: ${v.outcome.reason}` : `Draw: ${v.outcome.reason}`)
      : h("span", { class: `decide ${mine ? "mine" : ""}` }, mine ? "Your decision" : v.to_decide ? this.waitingFor(v, v.to_decide) : "");
    fill(this.bar, 
      h("a", { href: "#/", class: "home", title: "Lobby" }, "Volley"),
      h("span", { class: "title" }, v.title),
      h("span", { class: "turnno" }, `Turn ${v.turn}/${v.turn_limit}`),
      v.standing && !v.outcome && !this.replay ? h("span", { class: "standing", title: "Who would win if the battle ended now, by the scenario's victory conditions" }, `As it stands: ${v.standing.reason}`) : null,
      h("span", { class: `phase ${v.phasing ?? ""}` }, v.phase),
      v.prompt && !this.replay ? h("span", { class: `prompt${v.to_decide && v.phasing && v.to_decide !== v.phasing ? " interrupt" : ""}`, title: v.prompt }, v.prompt) : null,
      this.seat ? h("span", { class: `seat ${this.seat}` }, this.hotseat ? `Hotseat · ${this.seat}` : `You: ${this.seat}`) : null,
      this.watching ? h("span", { class: "spectating", title: "A spectator sees what both sides have seen, and cannot act or chat" }, "Spectating") : null,
      who,
      this.deadline && !v.outcome && !this.replay ? h("span", { class: "deadline", title: "When the side to decide runs out of time for its move" }, `Move by ${new Date(this.deadline * 1000).toLocaleString()}`) : null,
      // The opponent let the time for the move run out: the waiting player may claim the win.
      this.deadline && this.seat && !this.hotseat && !mine && v.to_decide && !v.outcome && !this.replay && Date.now() / 1000 >= this.deadline
        ? h("button", { class: "claimwin", onclick: () => this.claimWin(), title: "Your opponent's time for the move ran out" }, "Claim the win")
        : null,
      ...global.map((a) => h("button", { onclick: () => this.choose(a), title: a.label, "data-action": a.text }, a.label)),
      mine && this.seq > 0 && !v.outcome ? h("button", { class: "undo", onclick: () => this.undo(), title: "Take back your last action, if no die was rolled and nothing revealed since (U)" }, "Undo") : null,
      end && !this.replay ? h("button", { class: "primary endphase", onclick: () => this.endPhase(), title: `${end.label} (E)` }, phaseEndWords(v, end)) : null,
      this.replay
        ? this.replayBar(this.replay)
        : v.outcome
          ? h(
              "span",
              {},
              h("button", { onclick: () => this.enterReplay() }, "Replay"),
              " ",
              h("button", { onclick: () => this.download() }, "Save game file"),
              " ",
              h("button", { class: "rematch", onclick: () => this.rematch(), title: this.hotseat ? "The same battle again" : "The same battle again, sides swapped (online: your opponent gets the link in the chat)" }, "Rematch"),
            )
          : null,
      h("span", { class: "spacer" }),
      h("button", { class: "moretoggle", onclick: () => this.bar.classList.toggle("open"), title: "More: resign, zoom, glossary, keys, panel", "aria-expanded": String(this.bar.classList.contains("open")) }, "⋯"),
      h("span", { class: "extras" },
      this.seat && !v.outcome && !this.replay
        ? h("button", { class: `resign${this.resignArmed ? " armed" : ""}`, onclick: () => this.resign(), title: "Give up the battle: the other side wins" }, this.resignArmed ? "Really resign?" : "Resign")
        : null,
      this.watchers > 0 ? h("span", { class: "watchers", title: "Spectators watching this game now" }, `${this.watchers} watching`) : null,
      this.spectate && !this.replay ? h("button", { class: "small watchlink", onclick: () => this.copyWatchLink(), title: "A link for spectators: they see what both sides have seen, and cannot act or chat" }, "Spectator link") : null,
      h("span", { class: `live ${this.live ? "on" : "off"}`, title: this.live ? "Live updates on" : "Reconnecting…" }, this.live ? "● live" : "○ offline"),
      h("button", { onclick: () => this.map?.zoom(1.25), title: "Zoom in (+)" }, "+"),
      h("button", { onclick: () => this.map?.zoom(0.8), title: "Zoom out (−)" }, "−"),
      h("button", { onclick: () => this.toggleGlossary(), title: "The game's words explained (G)" }, "Glossary"),
      h("button", { onclick: () => this.toggleHelp(), title: "Keys (?)" }, "?"),
      h("button", { class: "paneltoggle", onclick: () => this.togglePanel(), title: "Show or hide the unit panel and log (P)", "aria-pressed": String(!this.app.querySelector(".game")?.classList.contains("nopanel")) }, "Panel"),
      ),
    );
  }

  /** Copies the spectator link (or shows it to copy by hand). */
  async copyWatchLink() {
    if (!this.spectate) return;
    const link = watchLink(this.id, this.spectate);
    try {
      await navigator.clipboard.writeText(link);
      this.say("Spectator link copied: whoever opens it watches what both sides have seen.");
    } catch {
      this.say(`Spectator link: ${link}`);
    }
  }

  /** The latest command roll, above the map: who ordered whom, the number needed and the dice. */
  drawOrderLine() {
    const e = this.lastOrder;
    const roll = e ? orderRoll(e.text) : null;
    // Drawn with the position (a hotseat hand-over reads the log before the view is back).
    if (!e || !roll || this.replay || !this.view) {
      this.orderLine.hidden = true;
      return;
    }
    const fresh = this.orderLine.dataset.seq !== String(e.seq);
    this.orderLine.dataset.seq = String(e.seq);
    this.orderLine.className = `orderroll ${e.side ?? ""} ${roll.result}`;
    this.orderLine.title = e.text;
    fill(
      this.orderLine,
      h("span", { class: "ordertag" }, `T${e.turn} ${e.side ? sideName(/** @type {View} */ (this.view), e.side) : ""}`),
      " ",
      h("strong", {}, `Order to ${named(this.view, roll.units)}`),
      ` (${named(this.view, roll.hq)}): needs ${roll.needs}, rolled ${roll.dice} — `,
      h("strong", { class: "orderresult" }, roll.outcome),
      roll.why ? h("span", { class: "orderwhy" }, ` · ${roll.why}`) : null,
    );
    this.orderLine.hidden = false;
    if (fresh) {
      this.orderLine.classList.remove("flash");
      void this.orderLine.offsetWidth;
      this.orderLine.classList.add("flash");
    }
  }

  /**
   * A decision put to this seat in the middle of the other side's turn (a charge to answer,
   * opportunity fire): the prompt and every answer as a button, so that none is missed.
   */
  drawDecision() {
    const v = this.view;
    const mine = !!v && !this.replay && !v.outcome && v.to_decide === this.seat && !!v.to_decide && v.phasing !== v.to_decide;
    if (!v || !mine || !this.legal.length) {
      this.decision.hidden = true;
      return;
    }
    // Answers with a place (fire at a unit that moved, a countercharge's target) are aimed on
    // the map like any other; the box lists only what has no place, and says who can act.
    const answers = this.legal.filter((a) => a.kind !== "move" && a.kind !== "end" && !a.hex);
    const end = this.legal.find((a) => a.kind === "end");
    const moves = this.legal.some((a) => a.kind === "move");
    const aimed = new Set(this.legal.filter((a) => a.hex && a.kind !== "move" && a.unit).map((a) => a.unit));
    const names = [...aimed].map((id) => v.units.find((u) => u.id === id)?.name ?? id);
    fill(
      this.decision,
      h("h3", {}, "Your answer"),
      h("p", { class: "decisionprompt" }, v.prompt ?? ""),
      h(
        "div",
        { class: "answers" },
        ...answers.map((a) => h("button", { onclick: () => this.choose(a), title: a.label, "data-action": a.text }, a.label)),
        end ? h("button", { class: "primary", onclick: () => this.act(end.text), title: end.label, "data-action": end.text }, end.label) : null,
      ),
      names.length ? h("p", { class: "hint" }, `${names.length === 1 ? `${names[0]} can act` : `${names.length} units can act (${names.slice(0, 3).join(", ")}${names.length > 3 ? "…" : ""})`}: select it on the map and click a marked target.`) : null,
      moves ? h("p", { class: "hint" }, "Units may also move: select one and click a marked hex.") : null,
    );
    this.decision.hidden = false;
  }

  drawSides() {
    const v = this.view;
    if (!v) return;
    fill(this.sidesPanel, 
      ...v.sides.map((s) =>
        h(
          "div",
          { class: `sideline ${s.side}` },
          h("strong", {}, s.name),
          ` · losses ${Math.round(s.losses_percent)}%`,
          s.break_point !== null ? ` of ${s.break_point}%` : "",
          ` · score ${s.score}`,
          s.commanders.length ? h("div", { class: "cmds" }, ...s.commanders.map((c) => h("span", { class: "cmd" }, `★ ${c.name} +${c.value} (${c.status}${c.attached_to ? ` with ${c.attached_to}` : ""})`))) : null,
        ),
      ),
      this.commitment ? h("p", { class: "dice", title: "SHA-256 of the server's dice seed, published at the start" }, `Dice commitment ${this.commitment.slice(0, 16)}…${this.seed ? ` · seed ${this.seed}` : ""}`) : null,
    );
  }

  /**
   * Selects a unit (or nothing) and marks what it may do: reachable hexes with their cost,
   * targets with their odds.
   * @param {string | null} id
   */
  async select(id) {
    this.selected = id;
    this.pending = null;
    this.reach = new Map();
    this.drawSelection();
    const mine = this.legal.filter((a) => a.unit === id && id);
    if (!id || !mine.length) return;
    const gen = this.generation;
    const jobs = [];
    if (mine.some((a) => a.kind === "move")) {
      jobs.push(
        api.reach(this.id, this.token, id).then((list) => {
          if (gen !== this.generation || this.selected !== id) return;
          this.reach = new Map(list.map((r) => [r.hex, r.cost]));
          this.drawSelection();
        }),
      );
    }
    // Odds can take the server a while: one at a time, and none for a unit no longer selected.
    const targets = mine.filter((a) => a.hex && a.kind !== "move");
    jobs.push(
      (async () => {
        for (const a of targets) {
          const key = `${this.seq}|${a.text}`;
          if (gen !== this.generation || this.selected !== id) return;
          if (this.odds.has(key)) continue;
          this.odds.set(key, await api.odds(this.id, this.token, a.text));
          if (gen === this.generation && this.selected === id) this.drawSelection(a.text);
        }
      })(),
    );
    try {
      await Promise.all(jobs);
    } catch (e) {
      this.say(`Could not fetch the overlay: ${errorText(e)}`);
    }
  }

  /**
   * The marks, the unit panel and the confirm bar for the current selection. When only the
   * odds of one action came in (`arrived`), the panel and the confirm box are left as they
   * are unless they show that action: nothing is redrawn under the player's finger.
   * @param {string} [arrived]
   */
  drawSelection(arrived) {
    const v = this.view;
    if (!v || !this.map) return;
    const unit = v.units.find((u) => u.id === this.selected) ?? null;
    // The selected unit's choices; with none selected, the choices no unit gives that still
    // go somewhere on the map (a written order's destination, where a commander is placed).
    const mine = this.legal.filter((a) => (this.selected ? a.unit === this.selected : !a.unit && a.hex && a.kind !== "end"));
    /** @type {Map<string, Mark>} */
    const marks = new Map();
    for (const [hex, cost] of this.reach) marks.set(hex, { kind: "reach", text: `${cost}` });
    for (const a of mine) {
      if (!a.hex) continue;
      if (a.kind === "move") {
        marks.set(a.hex, { kind: "move", text: this.reach.has(a.hex) ? `${this.reach.get(a.hex)}` : "" });
        continue;
      }
      const o = this.odds.get(`${this.seq}|${a.text}`);
      const kind = a.kind === "attack" ? (CLOSE_VERBS.has(a.verb) ? "melee" : "fire") : "other";
      // A chance only where dice decide: an order with one outcome (a push, a limber) is
      // labelled by its verb alone, not "100%".
      const text = !o ? (a.rolls ? `${a.verb} …` : a.verb) : o.outcomes.length > 1 ? `${a.verb === "fire" ? "hit" : a.verb} ${percent(effectChance(o))}` : a.verb;
      if (!marks.has(a.hex) || marks.get(a.hex)?.kind === "reach" || marks.get(a.hex)?.kind === "move") marks.set(a.hex, { kind, text });
    }
    // The selected unit's fire cone within range, shaded beneath the marks.
    const cone = (unit?.cone ?? []).flatMap((p) => (p.hex ? [p.hex] : []));
    this.map.setOverlay(marks, unit ? api.hexOf(unit) : null, this.pending?.hex ?? null, cone);
    if (arrived) {
      if (this.pending?.actions.includes(arrived)) this.drawConfirm();
      return;
    }
    this.drawUnitPanel(unit, mine);
    this.drawConfirm();
  }

  /**
   * @param {UnitView | null} unit
   * @param {Parsed[]} mine
   */
  drawUnitPanel(unit, mine) {
    const v = this.view;
    if (!v) return;
    if (!unit) {
      delete this.unitPanel.dataset.unit;
      const ready = new Set(this.legal.map((a) => a.unit).filter(Boolean));
      fill(this.unitPanel, 
        h("h2", {}, "Unit"),
        h("p", { class: "hint" }, ready.size ? `Click one of your units to act (${ready.size} can: N cycles through them).` : v.to_decide === this.seat && !v.outcome ? "No unit can act now: end the phase (E)." : "Hover a counter for its details."),
      );
      return;
    }
    this.unitPanel.dataset.unit = unit.id;
    const facings = mine.filter((a) => a.facing);
    const verbs = [...new Set(facings.map((a) => a.verb))];
    const others = mine.filter((a) => !a.hex && !a.facing);
    // Moves onto a hex a friend holds: a click there selects the friend, so stacking is here.
    const stacks = mine.filter((a) => a.kind === "move" && a.hex && v.units.some((u) => u.side === this.seat && u.id !== unit.id && api.hexOf(u) === a.hex));
    const furthest = Math.max(0, ...this.reach.values());
    const targets = new Set(mine.filter((a) => a.hex && a.kind !== "move").map((a) => a.hex)).size;
    fill(this.unitPanel, 
      h("h2", {}, unit.name),
      unitCard(unit, v),
      this.reach.size || targets
        ? h(
            "p",
            { class: "unitnow" },
            this.reach.size ? `Can still move: ${this.reach.size} hex${this.reach.size === 1 ? "" : "es"} within reach, the furthest costing ${furthest}. ` : "",
            targets ? `${targets} target${targets === 1 ? "" : "s"} in range (marked on the map with the chance).` : "",
          )
        : null,
      ...verbs.map((verb) =>
        h(
          "div",
          { class: "facings" },
          h("span", {}, `${verb}: `),
          ...facingsOf(v).map((f, i) => {
            const a = facings.find((x) => x.verb === verb && x.facing === f);
            return h("button", { class: `facing${facingOf(unit) === f ? " current" : ""}`, disabled: !a, title: a ? `${a.label} (${i + 1})` : `${verb} ${f}`, "data-facing": f, "data-action": a?.text ?? null, onclick: () => a && this.choose(a) }, f);
          }),
        ),
      ),
      mine.some((a) => a.kind === "move")
        ? h("div", { class: "groupline" }, h("button", { class: "groupbtn", onclick: () => this.toggleGroup(unit.id), title: "Gather units to move together (shift-click a counter)" }, this.group.includes(unit.id) ? "Leave the group" : this.group.length ? `Add to group (${this.group.length})` : "Start a group"))
        : null,
      others.length ? h("div", { class: "others" }, ...others.map((a) => h("button", { onclick: () => this.choose(a), title: a.label, "data-action": a.text }, a.label))) : null,
      stacks.length ? h("div", { class: "stacks" }, ...stacks.map((a) => h("button", { onclick: () => this.setPending({ hex: a.hex, actions: [a.text] }), title: "Move onto a friendly unit's hex: the two share it", "data-action": a.text }, `${a.label} (stack with ${friendsAt(v, a.hex, this.seat)})`))) : null,
      mine.length ? null : h("p", { class: "hint" }, unit.side === this.seat ? "This unit cannot act now." : "An enemy unit."),
    );
  }

  drawConfirm() {
    const p = this.pending;
    if (!p) {
      this.confirm.hidden = true;
      return;
    }
    const mover = this.view?.units.find((u) => u.id === this.selected);
    const lines = p.actions.map((text, i) => {
      const o = this.odds.get(`${this.seq}|${text}`);
      const a = this.legal.find((x) => x.text === text);
      const waiting = !p.path && !!a?.rolls && !o;
      const label = p.path ? `Move ${mover?.name ?? "the unit"} to ${p.hex} (${p.path.length} hex${p.path.length === 1 ? "" : "es"}, cost ${this.reach.get(p.hex ?? "")})` : a?.label ?? text;
      // Odds worth showing: where dice decide, or where more than one thing can come of it.
      const odds = o && (a?.rolls || o.outcomes.length > 1);
      return h(
        "div",
        { class: "choice" },
        h("button", { class: i === 0 ? "primary confirmbtn" : "confirmbtn", disabled: waiting, onclick: () => this.confirmPending(text), title: i === 0 ? "Enter" : "", "data-action": text }, waiting ? `${label} (working out the odds…)` : label),
        o?.notes?.length ? h("ul", { class: "notes" }, ...o.notes.map((n) => h("li", { class: /opportunity|may fire|react|counter/i.test(n) ? "warning" : "" }, n))) : null,
        odds
          ? h(
              "ul",
              { class: "odds", "aria-label": "odds" },
              ...o.outcomes.slice(0, 6).map((x) => h("li", {}, `${percent(x.probability)} ${x.outcome}`, x.example ? h("div", { class: "reckoning", title: "How the log would tell one way of getting this" }, `e.g. ${x.example}`) : null)),
              h("li", { class: "hint" }, o.exact ? "exact" : `${o.trials} samples`),
            )
          : null,
      );
    });
    // A move that ends next to the enemy: say so before it is made (a zone of control, close
    // combat or musketry may follow, as the ruleset has it).
    const v = this.view;
    const moving = p.path || p.actions.every((t) => this.legal.find((a) => a.text === t)?.kind === "move");
    const near = v && this.map && moving && p.hex ? this.map.neighbours(p.hex) : [];
    const enemies = v ? [...v.units.filter((u) => u.side !== this.seat), ...v.markers.filter((m) => m.side !== this.seat)] : [];
    const contact = enemies.filter((e) => near.includes(api.hexOf(e) ?? ""));
    const warning = contact.length
      ? h("p", { class: "warning" }, `⚠ This move ends next to the enemy (${contact.map((e) => ("name" in e ? e.name : "an unidentified unit")).join(", ")}): it may bring on close combat.`)
      : null;
    const caution = p.caution ? h("p", { class: "warning caution" }, `⚠ ${p.caution}`) : null;
    // An order (or support, or join) marked on a friend: the friend may be selected instead.
    const friends = v && p.hex && !p.path ? v.units.filter((u) => u.side === this.seat && u.id !== this.selected && api.hexOf(u) === p.hex) : [];
    const instead = friends.map((u) => h("button", { class: "selectinstead", onclick: () => this.select(u.id), "data-unit": u.id }, `Select ${u.name} instead`));
    fill(this.confirm, caution, h("div", { class: "choices" }, ...lines), warning, ...instead, h("button", { onclick: () => this.cancel(), title: "Esc" }, p.caution ? "Keep playing" : "Cancel"));
    this.confirm.hidden = false;
  }

  /**
   * @param {string} label
   * @param {PointerEvent} [ev]
   */
  clickHex(label, ev) {
    const v = this.view;
    // A click is a choice made: the hover card would only hide what it was made on.
    this.card.hidden = true;
    clearTimeout(this.groundTimer);
    this.groundHex = null;
    if (!v || this.busy || this.replay) return;
    const movers = new Set(this.legal.filter((a) => a.kind === "move").map((a) => a.unit));
    const own = v.units.find((u) => api.hexOf(u) === label && movers.has(u.id));
    if (ev?.shiftKey && own) {
      this.toggleGroup(own.id);
      return;
    }
    if (this.group.length > 1 && !v.units.some((u) => api.hexOf(u) === label && u.side === this.seat)) {
      this.groupMove(label);
      return;
    }
    if (this.pending && this.pending.hex === label) {
      this.confirmPending();
      return;
    }
    const mine = this.legal.filter((a) => (this.selected ? a.unit === this.selected : !a.unit) && a.hex === label && a.kind !== "end");
    // Another of one's own units: a click selects it. Moving onto it (stacking) is its own
    // button on the unit's panel; an order, support or join marked on it is still chosen here.
    const friend = v.units.find((u) => api.hexOf(u) === label && u.side === this.seat && u.id !== this.selected);
    if (friend && mine.every((a) => a.kind === "move")) {
      this.select(friend.id);
      return;
    }
    if (mine.length) {
      this.setPending({ hex: label, actions: mine.map((a) => a.text) });
      return;
    }
    if (this.selected && this.reach.has(label)) {
      const path = this.path(label);
      const first = path ? this.stepTo(this.selected, path[0]) : null;
      if (path && first) {
        this.setPending({ hex: label, actions: [first.text], path });
        return;
      }
    }
    const here = v.units.filter((u) => api.hexOf(u) === label);
    // A tap on the selected unit, alone in its hex, puts it down again (a finger has no Esc).
    if (here.length === 1 && here[0].id === this.selected && ev?.pointerType === "touch") {
      this.select(null);
      return;
    }
    if (here.length) {
      const i = here.findIndex((u) => u.id === this.selected);
      this.select(here[(i + 1) % here.length].id);
      return;
    }
    if (this.selected && this.legal.some((a) => a.unit === this.selected)) {
      // Open ground where the unit cannot go puts it down, saying why nothing else happened.
      const name = v.units.find((u) => u.id === this.selected)?.name ?? "The unit";
      this.select(null);
      this.say(`${name} cannot go to ${label} now, and is put down: select it again and choose a marked hex.`);
      return;
    }
    this.select(null);
  }

  /**
   * The legal move of `unit` to the neighbouring hex `hex`, as the server described it.
   * @param {string | null} unit
   * @param {string} hex
   */
  stepTo(unit, hex) {
    return this.legal.find((a) => a.kind === "move" && a.unit === unit && a.hex === hex) ?? null;
  }

  /**
   * Steps from the selected unit to a reachable hex, each to a neighbour that costs more,
   * read back from the reach costs.
   * @param {string} target
   * @returns {string[] | null}
   */
  path(target) {
    const unit = this.view?.units.find((u) => u.id === this.selected);
    if (!unit || !this.map) return null;
    const out = [target];
    let at = target;
    while (true) {
      const cost = this.reach.get(at) ?? 0;
      const near = this.map.neighbours(at);
      if (near.includes(api.hexOf(unit) ?? "")) return out.reverse();
      /** @type {string | null} */
      let best = null;
      for (const n of near) {
        const c = this.reach.get(n);
        if (c !== undefined && c < cost && (best === null || c < (this.reach.get(best) ?? 0))) best = n;
      }
      if (!best || out.length > 50) return null;
      out.push(best);
      at = best;
    }
  }

  /**
   * Adds a unit to the group that moves together, or takes it out; the selected unit leads.
   * @param {string} id
   */
  toggleGroup(id) {
    if (!this.group.length && this.selected && this.selected !== id) this.group.push(this.selected);
    this.group = this.group.includes(id) ? this.group.filter((g) => g !== id) : [...this.group, id];
    this.map?.setGrouped(new Set(this.group));
    this.say(this.group.length > 1 ? `Group of ${this.group.length}: click an empty hex to move them together, the formation kept as far as each can reach (Esc breaks it up).` : "");
    if (!this.group.includes(this.selected ?? "")) this.select(this.group[0] ?? null);
    else this.drawSelection();
  }

  /**
   * Moves the group as one order: the lead to `label`, every other unit by the same offset on
   * the map, the foremost first so that none stands in another's way; a unit that cannot
   * reach its place stops at the reachable hex nearest to it.
   * @param {string} label
   */
  async groupMove(label) {
    const v = this.view;
    const map = this.map;
    if (!v || !map) return;
    const centre = (/** @type {string} */ hex) => map.grid.at(hex);
    const lead = v.units.find((u) => u.id === this.group[0]);
    const from = lead ? centre(api.hexOf(lead) ?? "") : null;
    const to = centre(label);
    if (!from || !to) return;
    const d = { x: to.x - from.x, y: to.y - from.y };
    const at = (/** @type {string} */ id) => centre(api.hexOf(v.units.find((u) => u.id === id) ?? /** @type {any} */ ({ place: {} })) ?? "");
    const order = [...this.group].sort((a, b) => {
      const [pa, pb] = [at(a), at(b)];
      return (pb ? pb.x * d.x + pb.y * d.y : 0) - (pa ? pa.x * d.x + pa.y * d.y : 0);
    });
    /** @type {string[]} */
    const stuck = [];
    let moved = 0;
    for (const id of order) {
      const unit = this.view?.units.find((u) => u.id === id);
      const here = unit ? api.hexOf(unit) : null;
      const c = here ? centre(here) : null;
      if (!here || !c) continue;
      const want = { x: c.x + d.x, y: c.y + d.y };
      this.selected = id;
      this.reach = new Map((await api.reach(this.id, this.token, id)).map((r) => [r.hex, r.cost]));
      // The reachable hex nearest the unit's place in the formation (its own hex if none is nearer).
      let best = here;
      let bestD = Math.hypot(c.x - want.x, c.y - want.y);
      for (const hex of this.reach.keys()) {
        const p = centre(hex);
        const dd = p ? Math.hypot(p.x - want.x, p.y - want.y) : Infinity;
        if (dd < bestD - 0.5) {
          best = hex;
          bestD = dd;
        }
      }
      const path = best === here ? null : this.path(best);
      if (!path) {
        stuck.push(id);
        continue;
      }
      for (const hex of path) {
        const step = this.stepTo(id, hex);
        if (!step || !(await this.act(step.text))) break;
      }
      const now = this.view?.units.find((u) => u.id === id);
      if (now && api.hexOf(now) !== best) stuck.push(id);
      else moved += 1;
    }
    this.group = [];
    this.map?.setGrouped(new Set());
    this.say(`Group moved: ${moved} of ${order.length} in place${stuck.length ? `; ${stuck.join(", ")} could not get all the way` : ""}.`);
    this.select(null);
  }

  /**
   * Puts a choice in the confirm box and, for one that rolls or that the rules say something
   * about (a command roll, who may fire at it), asks the server for its odds and notes.
   * @param {Pending} p
   */
  setPending(p) {
    this.pending = p;
    this.drawSelection();
    if (p.path) return;
    const seq = this.seq;
    const gen = this.generation;
    // Only where dice decide: the box is drawn again once, when all the odds are in, so that
    // it never changes under the player's finger.
    const wanted = p.actions.filter((text) => this.legal.find((a) => a.text === text)?.rolls && !this.odds.has(`${seq}|${text}`));
    if (!wanted.length) return;
    (async () => {
      for (const text of wanted) {
        try {
          this.odds.set(`${seq}|${text}`, await api.odds(this.id, this.token, text));
        } catch (e) {
          if (gen === this.generation) this.say(`Could not work out the odds: ${errorText(e)}`);
          return;
        }
      }
      if (gen === this.generation && this.pending === p) this.drawConfirm();
    })();
  }

  /**
   * Whether the odds (and notes) of a choice are in front of the player: a choice that rolls
   * is never committed before its odds have been shown.
   * @param {string} text
   */
  oddsShown(text) {
    const a = this.legal.find((x) => x.text === text);
    return !a?.rolls || this.odds.has(`${this.seq}|${text}`);
  }

  /**
   * Chooses an action given by a button: straight away when no die decides it, else through
   * the confirm box with its odds.
   * @param {Parsed} a
   */
  choose(a) {
    if (a.rolls) this.setPending({ hex: a.hex, actions: [a.text] });
    else this.act(a.text);
  }

  /** @param {string} [text]  which of the pending choices (default: the first, Enter's) */
  async confirmPending(text) {
    const p = this.pending;
    if (!p) return;
    if (!p.path) {
      const chosen = text ?? p.actions[0];
      if (!this.oddsShown(chosen)) {
        this.say("Working out the odds first…");
        return;
      }
      await this.act(chosen);
      return;
    }
    const unit = this.selected;
    for (const hex of p.path) {
      const step = this.stepTo(unit, hex);
      if (!step) {
        this.say(`Stopped short of ${hex}: the next step is not open now.`);
        return;
      }
      if (!(await this.act(step.text))) return;
    }
  }

  /**
   * Ends the phase, asking first when units can still act (the button and E alike).
   */
  endPhase() {
    const end = this.legal.find((a) => a.kind === "end");
    if (!end || this.replay) return;
    const ready = new Set(this.legal.filter((a) => a.kind !== "end" && a.unit).map((a) => a.unit));
    if (ready.size && !(this.pending && this.pending.actions[0] === end.text)) {
      const v = this.view;
      const names = [...ready].map((id) => v?.units.find((u) => u.id === id)?.name ?? id);
      const shown = names.slice(0, 4).join(", ") + (names.length > 4 ? ` and ${names.length - 4} more` : "");
      this.setPending({ hex: null, actions: [end.text], caution: `${names.length} unit${names.length === 1 ? "" : "s"} can still act (${shown}). End the phase anyway?` });
      return;
    }
    this.act(end.text);
  }

  cancel() {
    if (this.group.length) {
      this.group = [];
      this.map?.setGrouped(new Set());
      this.say("");
    } else if (this.pending) {
      this.pending = null;
      this.drawSelection();
    } else {
      this.select(null);
    }
  }

  /**
   * Sends one action; on success shows its events and the new position.
   * @param {string} text
   * @returns {Promise<boolean>}
   */
  async act(text) {
    if (this.busy) return false;
    this.busy = true;
    this.say("");
    const chosen = this.legal.find((a) => a.text === text);
    const before = this.seq;
    try {
      // Sent with the position it was chosen on: if the game has moved on (a phase passed, the
      // other side acted), the server refuses it rather than play it where it was not meant.
      const res = await api.act(this.id, this.token, text, this.seq);
      // A unit's steps since it was selected make one move, taken back whole.
      const u = this.moveUnderWay;
      if (chosen?.kind === "move" && chosen.unit) {
        this.moveUnderWay = u && u.unit === chosen.unit && u.seq === before ? { unit: u.unit, count: u.count + 1, seq: res.seq } : { unit: chosen.unit, count: 1, seq: res.seq };
      } else {
        this.moveUnderWay = null;
      }
      this.addEvents(res.events);
      const sv = await api.view(this.id, this.token);
      this.commitment = sv.commitment;
      this.seed = sv.seed;
      await this.update(sv.view, sv.seq, []);
      return true;
    } catch (e) {
      if (e instanceof api.ApiError && e.status === 409 && /moved on/.test(e.message)) {
        this.busy = false;
        await this.load();
        this.say("The game moved on before your choice arrived (a phase passed, or the other side acted): nothing was played. Look again and choose.");
        return false;
      }
      this.say(e instanceof api.ApiError && e.status === 409 ? `Not allowed: ${e.message}` : `Failed: ${errorText(e)}`);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Resigns on the second click (within 4 s): the first only asks. */
  async resign() {
    if (!this.resignArmed) {
      this.resignArmed = true;
      this.drawBar();
      setTimeout(() => {
        this.resignArmed = false;
        this.drawBar();
      }, 4000);
      return;
    }
    this.resignArmed = false;
    try {
      const r = await api.resign(this.id, this.token);
      this.addEvents(r.events);
      await this.load();
    } catch (e) {
      this.say(`Could not resign: ${errorText(e)}`);
    }
  }

  /** Keeps where this seat is told it is its turn. */
  async saveNotify() {
    try {
      await api.notify(this.id, this.token, { email: this.notifyEmail.value, webhook: this.notifyHook.value });
      this.say(this.notifyEmail.value || this.notifyHook.value ? "You will be told when it is your turn." : "No more messages when it is your turn.");
    } catch (e) {
      this.say(`Could not keep that: ${errorText(e)}`);
    }
  }

  /** The opponent's time ran out: the game is won. */
  async claimWin() {
    try {
      const r = await api.claimTimeout(this.id, this.token);
      this.addEvents(r.events);
      await this.load();
    } catch (e) {
      this.say(`Could not claim the win: ${errorText(e)}`);
    }
  }

  /**
   * Shows chat lines not shown yet (the reply to a send and the push may both bring one).
   * @param {import("./api.js").ChatLine[]} lines
   */
  addChat(lines) {
    for (const l of lines) {
      if (l.seq <= this.chatSeen) continue;
      this.chatSeen = l.seq;
      const who = l.side === this.seat ? "You" : sideName(/** @type {View} */ (this.view ?? { sides: [] }), l.side);
      // A rematch offer carries the other seat's link: a link for the one it is for.
      const offer = l.text.startsWith(`${REMATCH} `) ? l.text.slice(REMATCH.length + 1) : null;
      const said = offer ? (l.side === this.seat ? "offered a rematch (sides swapped)." : h("a", { class: "joinrematch", href: offer }, "Join the rematch (sides swapped)")) : l.text;
      this.chatList.append(h("li", { class: `chatline ${l.side}`, title: new Date(l.at * 1000).toLocaleString() }, h("strong", {}, `${who}: `), said));
    }
    this.chatList.scrollTop = this.chatList.scrollHeight;
  }

  async sendChat() {
    const text = /** @type {HTMLInputElement} */ (this.chatInput).value.trim();
    if (!text) return;
    try {
      const line = await api.say(this.id, this.token, text);
      /** @type {HTMLInputElement} */ (this.chatInput).value = "";
      this.addChat([line]);
    } catch (e) {
      this.say(`Not sent: ${errorText(e)}`);
    }
  }

  /** Takes back this seat's last action and shows the game as it was before it. */
  async undo() {
    if (this.busy || this.replay) return;
    this.busy = true;
    try {
      // A move of several steps is taken back whole, to where the unit began.
      const move = this.moveUnderWay && this.moveUnderWay.seq === this.seq ? this.moveUnderWay : null;
      this.moveUnderWay = null;
      const r = await api.undo(this.id, this.token);
      let steps = 1;
      for (; move && steps < move.count; steps++) await api.undo(this.id, this.token);
      this.busy = false;
      await this.load();
      const name = move ? this.view?.units.find((u) => u.id === move.unit)?.name : null;
      this.say(move && steps > 1 && name ? `Took back ${name}'s move (${steps} steps): it stands where it began.` : `Took back ${r.undone_label ?? r.undone}.`);
    } catch (e) {
      this.say(e instanceof api.ApiError && e.status === 409 ? `Cannot undo: ${e.message}` : `Failed: ${errorText(e)}`);
    } finally {
      this.busy = false;
    }
  }

  /** @param {string} text */
  say(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  }

  /**
   * @param {string | null} id  a unit or marker id
   * @param {MouseEvent} ev
   */
  hover(id, ev) {
    // A finger has no hover: no card opens, and none stays on the map after a tap.
    if (ev && "pointerType" in ev && ev.pointerType === "touch") {
      this.card.hidden = true;
      clearTimeout(this.groundTimer);
      this.groundHex = null;
      return;
    }
    const v = this.view;
    const unit = v?.units.find((u) => u.id === id);
    const marker = v?.markers.find((m) => m.id === id);
    if (!v || (!unit && !marker)) {
      // Over open ground: what the ground is, and whose objective it is.
      // Shown only once the pointer rests on a hex, so that it never trails over the map.
      const label = v && ev && !this.busy ? this.map?.hexAt(ev.clientX, ev.clientY) : null;
      if (label !== this.groundHex || !this.card.classList.contains("groundcard")) this.card.hidden = true;
      clearTimeout(this.groundTimer);
      this.groundHex = label ?? null;
      const ground = label ? this.map?.groundOf(label) : "";
      if (!v || !label || !ground) return;
      const [x, y] = [ev.clientX, ev.clientY];
      this.groundTimer = setTimeout(() => {
        if (this.groundHex !== label) return;
        const obj = v.objectives.find((o) => api.hexOf(o) === label);
        this.card.replaceChildren(h("h3", {}, label), h("p", { class: "ground" }, ground), ...(obj ? [h("p", {}, `★ ${obj.name} (${obj.points} points${obj.holder ? `, held by ${obj.holder}` : ""})`)] : []));
        this.card.classList.add("groundcard");
        this.card.hidden = false;
        this.card.style.left = `${Math.min(x + 16, window.innerWidth - this.card.offsetWidth - 8)}px`;
        this.card.style.top = `${Math.min(y + 16, window.innerHeight - this.card.offsetHeight - 8)}px`;
      }, 700);
      return;
    }
    clearTimeout(this.groundTimer);
    this.groundHex = null;
    this.card.classList.remove("groundcard");
    this.card.replaceChildren(
      ...(unit
        ? [h("h3", {}, unit.name), unitCard(unit, v)]
        : [h("h3", {}, "Unidentified unit"), h("p", {}, `A ${marker?.side} marker in ${marker ? api.hexOf(marker) : ""}: what is under it (if anything) is not known.`)]),
    );
    this.card.hidden = false;
    const x = Math.min(ev.clientX + 16, window.innerWidth - this.card.offsetWidth - 8);
    const y = Math.min(ev.clientY + 16, window.innerHeight - this.card.offsetHeight - 8);
    this.card.style.left = `${x}px`;
    this.card.style.top = `${y}px`;
  }

  /** On a phone: the panel under the map shown or hidden, to give the map the whole screen. */
  togglePanel() {
    this.app.querySelector(".game")?.classList.toggle("nopanel");
    this.drawBar();
  }

  /**
   * The rule system's words in plain English, with a filter; fetched when first opened.
   * @param {boolean} [show]
   */
  async toggleGlossary(show) {
    const open = show ?? this.glossaryBox.hidden;
    this.glossaryBox.hidden = !open;
    if (!open || !this.view || this.glossaryBox.childElementCount) return;
    try {
      const terms = await api.glossary(this.view.ruleset);
      const none = h("p", { class: "hint", hidden: true }, "No word of the game matches: clear the box to see them all.");
      const list = h("dl", { class: "terms" }, ...terms.flatMap((t) => [h("dt", { "data-term": t.term }, t.term, " ", h("span", { class: "rule" }, t.section)), h("dd", {}, t.meaning)]));
      const filter = h("input", {
        type: "search",
        placeholder: "Find a word…",
        onkeydown: (/** @type {KeyboardEvent} */ ev) => ev.key === "Escape" && this.toggleGlossary(false),
        "aria-label": "Find a word",
        oninput: (/** @type {Event} */ ev) => {
          const q = /** @type {HTMLInputElement} */ (ev.target).value.toLowerCase();
          let hits = 0;
          for (const dt of list.querySelectorAll("dt")) {
            const dd = /** @type {HTMLElement} */ (dt.nextElementSibling);
            const hit = !q || (dt.textContent ?? "").toLowerCase().includes(q) || (dd.textContent ?? "").toLowerCase().includes(q);
            /** @type {HTMLElement} */ (dt).hidden = !hit;
            dd.hidden = !hit;
            hits += hit ? 1 : 0;
          }
          none.hidden = hits > 0;
        },
      });
      fill(this.glossaryBox, h("div", { class: "helpbox glossarybox" }, h("h2", {}, `${this.view.title}: the game's words`), filter, none, list, h("button", { onclick: () => this.toggleGlossary(false) }, "Close (Esc)")));
      filter.focus();
    } catch (e) {
      fill(this.glossaryBox, h("div", { class: "helpbox" }, h("p", { class: "error" }, `The glossary could not be read: ${errorText(e)}`)));
    }
  }

  /**
   * Opens the glossary at the words of a rule section the log cites ("hex-command 7.5" → 7.5).
   * @param {string} rule
   */
  async showRule(rule) {
    await this.toggleGlossary(true);
    const section = rule.split(" ").slice(1).join(" ");
    const input = /** @type {HTMLInputElement | null} */ (this.glossaryBox.querySelector("input"));
    if (!input || !section) return;
    input.value = section;
    input.dispatchEvent(new Event("input"));
  }

  /** @param {boolean} [show] */
  toggleHelp(show) {
    this.help.hidden = !(show ?? this.help.hidden);
    if (this.help.hidden || !this.map) return;
    // The map's legend: the ground this map has, its hills, and the letters on counters.
    const l = this.map.legend(this.view?.units ?? []);
    const chip = (/** @type {string} */ colour) => h("span", { class: "chip", style: `background:${colour}` });
    const box = this.help.querySelector(".helpbox");
    box?.querySelector(".legend")?.remove();
    box?.insertBefore(
      h(
        "div",
        { class: "legend" },
        h("h2", {}, "Map"),
        h(
          "ul",
          {},
          ...l.ground.map((g) => h("li", {}, chip(g.colour), ` ${g.name}`)),
          ...l.hills.map((x) => h("li", {}, h("span", { class: "chip", style: `background:linear-gradient(${x.colour},${x.colour}),#ebe6c8` }), ` hill, level ${x.level}`)),
          h("li", {}, h("span", { class: "chip star" }, "★"), " objective (points; the holder's colour)"),
          ...l.flags.map((f) => h("li", {}, h("span", { class: "chip flag", style: `background:${f.colour}` }, f.letter), ` ${f.name}`)),
        ),
        this.view?.units.some((u) => u.elements?.kind === "stands" || u.formation || u.arm === "command") ? standLegendBox(chip, l.formations) : null,
      ),
      box.querySelector(".hint"),
    );
  }

  /**
   * The replay's controls: first, back, step, forward, last, a turn to jump to, autoplay.
   * @param {{step: number, steps: number, turns: number[], timer?: ReturnType<typeof setInterval>}} r
   */
  replayBar(r) {
    const turnNow = r.turns.filter((s) => s <= r.step).length;
    return h(
      "span",
      { class: "replaybar" },
      h("button", { onclick: () => this.goTo(0), title: "The set-up (Home)" }, "⏮"),
      h("button", { onclick: () => this.step(-1), title: "Step back (←)" }, "◀"),
      h("span", { class: "stepno" }, `Step ${r.step}/${r.steps}`),
      h("button", { onclick: () => this.step(1), title: "Step on (→)" }, "▶"),
      h("button", { onclick: () => this.goTo(r.steps), title: "The end (End)" }, "⏭"),
      h(
        "label",
        { class: "turnjump" },
        "Turn ",
        h(
          "select",
          { "aria-label": "Jump to turn", onchange: (/** @type {Event} */ ev) => this.goTo(r.turns[Number(/** @type {HTMLSelectElement} */ (ev.target).value) - 1] ?? 0) },
          ...r.turns.map((_, i) => h("option", { value: String(i + 1), selected: i + 1 === turnNow }, String(i + 1))),
        ),
      ),
      h("button", { class: "autoplay", onclick: () => this.autoplay(), title: "Play the battle through (space)" }, r.timer ? "⏸ Pause" : "⏵ Play"),
      h("button", { onclick: () => this.leaveReplay() }, "Leave replay"),
    );
  }

  async enterReplay() {
    this.replay = { step: 0, steps: 0, turns: [0] };
    this.selected = null;
    await this.step(0);
  }

  async leaveReplay() {
    if (this.replay?.timer) clearInterval(this.replay.timer);
    this.replay = null;
    await this.load();
  }

  /** Plays the replay on by itself, a step a second, or pauses it. */
  autoplay() {
    const r = this.replay;
    if (!r) return;
    if (r.timer) {
      clearInterval(r.timer);
      r.timer = undefined;
    } else {
      r.timer = setInterval(() => {
        if (!this.replay || this.replay.step >= this.replay.steps) this.autoplay();
        else this.step(1);
      }, 900);
    }
    this.drawBar();
  }

  /** @param {number} delta */
  async step(delta) {
    if (!this.replay) return;
    await this.goTo(Math.max(0, this.replay.step + delta));
  }

  /**
   * Shows the replay at a step: the position then, and the log up to it with that step's own
   * events marked and in view.
   * @param {number} want
   */
  async goTo(want) {
    if (!this.replay) return;
    try {
      const r = await api.replay(this.id, this.token, this.replay.steps ? Math.min(want, this.replay.steps) : want);
      if (!this.replay) return;
      this.replay = { step: r.step, steps: r.steps, turns: r.turns, timer: this.replay.timer };
      const entries = r.events.map((e) => this.logEntry(e));
      entries.slice(r.fresh).forEach((li) => li.classList.add("active"));
      this.logList.replaceChildren(...entries);
      (entries[r.fresh] ?? entries[entries.length - 1])?.scrollIntoView({ block: "nearest" });
      r.events = r.events.slice(r.fresh);
      this.view = r.view;
      this.map?.setPieces(r.view.units, r.view.markers, r.view.objectives);
      this.map?.setOverlay(new Map(), null, null);
      this.map?.highlight(r.events.flatMap((e) => e.units ?? []));
      this.drawBar();
      this.drawDecision();
      this.drawOrderLine();
      this.drawSides();
    } catch (e) {
      this.say(`Replay: ${errorText(e)}`);
    }
  }

  /**
   * The same battle again with the same options: at one screen as before, or against the
   * computer with the sides swapped. (An online rematch needs an invitation: from the lobby.)
   */
  async rematch() {
    try {
      const save = await (await fetch(api.exportPath(this.id), { headers: { Authorization: `Bearer ${this.token}` } })).json();
      const players = this.players ?? { red: "human", blue: "human" };
      const swap = !this.hotseat;
      const [red, blue] = swap ? [players.blue, players.red] : [players.red, players.blue];
      const online = players.red === "human" && players.blue === "human" && !this.hotseat;
      // Online, the sides swap too: this seat takes the other colour.
      const me = online ? (this.seat === "red" ? "blue" : "red") : red === "human" ? "red" : "blue";
      // A rematch keeps the game's pace.
      const game = await api.createGame(save.scenario_name, save.options ?? {}, red, blue, this.hotseat ? "both" : me, this.pace > 0 ? `${this.pace}s` : "live");
      const created = new Date().toISOString();
      const title = this.view?.title ?? save.scenario_name;
      if (this.hotseat && game.seats.red && game.seats.blue) {
        api.rememberGame({ id: game.id, seat: "both", token: game.seats.red, token2: game.seats.blue, scenario: title, created });
        location.hash = new URL(gameLink(game.id, { red: game.seats.red, blue: game.seats.blue })).hash;
        return;
      }
      const token = game.seats[me];
      if (!token) throw new Error("the server gave no token for your seat");
      const theirs = online ? game.invites[me === "red" ? "blue" : "red"] : null;
      if (theirs) await api.say(this.id, this.token, `${REMATCH} ${joinLink(game.id, theirs)}`);
      api.rememberGame({ id: game.id, seat: me, token, scenario: title, created });
      location.hash = new URL(gameLink(game.id, { one: token })).hash;
    } catch (e) {
      this.say(`Could not start a rematch: ${errorText(e)}`);
    }
  }

  /** Downloads the saved game (the server sends it once the game is over). */
  async download() {
    try {
      const res = await fetch(api.exportPath(this.id), { headers: { Authorization: `Bearer ${this.token}` } });
      if (!res.ok) throw new Error(await res.text());
      const a = h("a", { href: URL.createObjectURL(await res.blob()), download: `volley-${this.id}.json` });
      a.click();
      URL.revokeObjectURL(a.href);
    } catch (e) {
      this.say(`Could not save: ${errorText(e)}`);
    }
  }

  /** @param {KeyboardEvent} ev */
  key(ev) {
    const t = /** @type {HTMLElement} */ (ev.target);
    if (ev.ctrlKey || ev.metaKey || ev.altKey || t.matches?.("input, select, textarea")) return;
    if (!this.curtain.hidden) return;
    const k = ev.key;
    const map = this.map;
    /** @type {Record<string, () => unknown>} */
    const actions = {
      "?": () => this.toggleHelp(),
      Escape: () => (!this.glossaryBox.hidden ? this.toggleGlossary(false) : this.help.hidden ? this.cancel() : this.toggleHelp(false)),
      g: () => this.toggleGlossary(),
      Enter: () => this.confirmPending(),
      // Ending the phase with units still able to act asks first, as the button does; E
      // again (or Enter) confirms.
      e: () => {
        const end = this.legal.find((a) => a.kind === "end");
        if (end && this.pending?.actions[0] === end.text) this.confirmPending();
        else this.endPhase();
      },
      n: () => this.nextUnit(),
      t: () => this.nextTarget(),
      p: () => this.togglePanel(),
      u: () => this.view?.to_decide === this.seat && this.undo(),
      "+": () => map?.zoom(1.25),
      "=": () => map?.zoom(1.25),
      "-": () => map?.zoom(0.8),
      0: () => map?.reset(),
      r: () => this.view?.outcome && !this.replay && this.enterReplay(),
      Home: () => this.replay && this.goTo(0),
      End: () => this.replay && this.goTo(this.replay.steps),
      " ": () => this.replay && this.autoplay(),
      ArrowLeft: () => (this.replay ? this.step(-1) : map?.pan(-0.1, 0)),
      ArrowRight: () => (this.replay ? this.step(1) : map?.pan(0.1, 0)),
      ArrowUp: () => map?.pan(0, -0.1),
      ArrowDown: () => map?.pan(0, 0.1),
    };
    const digit = Number(k);
    const sides = this.view ? facingsOf(this.view) : /** @type {string[]} */ (FACINGS);
    if (digit >= 1 && digit <= sides.length) {
      const a = this.legal.find((x) => x.unit === this.selected && this.selected && x.facing === sides[digit - 1]);
      if (a) {
        ev.preventDefault();
        this.act(a.text);
      }
      return;
    }
    const f = actions[k.length === 1 ? k.toLowerCase() : k] ?? actions[k];
    if (f) {
      ev.preventDefault();
      f();
    }
  }

  /** Chooses the next hex the selected unit may move to or act on, as a click on it would. */
  nextTarget() {
    if (!this.selected) return this.nextUnit();
    const hexes = [...new Set(this.legal.filter((a) => a.unit === this.selected && a.hex).map((a) => /** @type {string} */ (a.hex)))];
    if (!hexes.length) return;
    const i = hexes.indexOf(this.pending?.hex ?? "");
    this.clickHex(hexes[(i + 1) % hexes.length]);
  }

  /** Selects the next unit that can act. */
  nextUnit() {
    const ids = [...new Set(this.legal.map((a) => a.unit).filter((u) => u !== null))];
    if (!ids.length) return;
    const i = ids.indexOf(this.selected ?? "");
    this.select(/** @type {string} */ (ids[(i + 1) % ids.length]));
  }
}

/**
 * "While you waited, Blue: 4 moves, 2 fire, 1 melee." — the other side's events by kind.
 * @param {LoggedEvent[]} events
 * @param {View} v
 * @param {Side} seat
 */
function summary(events, v, seat) {
  const other = seat === "red" ? "blue" : "red";
  const count = (/** @type {(e: LoggedEvent) => boolean} */ f) => events.filter(f).length;
  const moved = new Set(events.filter((e) => e.kind === "move").flatMap((e) => e.units ?? [])).size;
  const times = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) => (n === 1 ? one : `${many.replace("#", String(n))}`);
  /** @type {string[]} */
  const parts = [];
  if (moved) parts.push(`moved ${moved} unit${moved === 1 ? "" : "s"}`);
  const fired = count((e) => e.kind === "fire" || e.kind === "shell" || e.kind === "bombard");
  if (fired) parts.push(times(fired, "fired once", "fired # times"));
  const fought = count((e) => ["melee", "charge", "close", "assault"].includes(e.kind));
  if (fought) parts.push(times(fought, "fought one close combat", "fought # close combats"));
  const orders = count((e) => e.kind === "order");
  if (orders) parts.push(times(orders, "gave one order", "gave # orders"));
  const hits = count((e) => e.kind === "hit");
  if (hits) parts.push(times(hits, "scored a hit", "scored # hits"));
  const broke = count((e) => ["rout", "eliminated", "destroyed", "retreat", "fall-back"].includes(e.kind));
  if (broke) parts.push(times(broke, "and one unit broke or fell back", "and # units broke or fell back"));
  if (!parts.length) return `While you waited, ${sideName(v, other)} made no move you could see.`;
  return `While you waited, ${sideName(v, other)} ${parts.join(", ")} (the log above has each one).`;
}

/**
 * A log entry's rule as a quiet tag: the section without the ruleset's id ("§ 7.5").
 * @param {string} rule
 */
function ruleTag(rule) {
  const section = rule.split(" ").slice(1).join(" ");
  return section ? `§ ${section}` : "§";
}

/**
 * The end button's words: what it ends.
 * @param {View} v
 * @param {Parsed} end
 */
function phaseEndWords(v, end) {
  if (end.label && end.label !== "End" && !/^End the phase/.test(end.label)) return end.label;
  return v.phase ? `End ${v.phase.replace(/^Turn \d+: /, "").replace(/\.$/, "")}` : "End phase";
}

/**
 * The names of the seat's units in a hex.
 * @param {View} v
 * @param {string | null} hex
 * @param {Side | null} seat
 */
function friendsAt(v, hex, seat) {
  return v.units.filter((u) => u.side === seat && api.hexOf(u) === hex).map((u) => u.name).join(", ");
}

/** How a rematch offer begins in the chat; the other seat's link follows. */
const REMATCH = "Rematch offered:";

/** A short, quiet two-note chime: the decision is yours again. Silent where audio is barred. */
function chime() {
  try {
    const ctx = new AudioContext();
    const gain = ctx.createGain();
    gain.gain.value = 0.06;
    gain.connect(ctx.destination);
    [660, 880].forEach((f, i) => {
      const o = ctx.createOscillator();
      o.frequency.value = f;
      o.connect(gain);
      o.start(ctx.currentTime + i * 0.12);
      o.stop(ctx.currentTime + i * 0.12 + 0.1);
    });
    setTimeout(() => ctx.close(), 600);
  } catch {
    // No audio here: the tab title still says it.
  }
}

/**
 * @param {View} v
 * @param {Side} side
 */
function sideName(v, side) {
  return v.sides.find((s) => s.side === side)?.name ?? side;
}

/**
 * A unit's details: arm, class, hits, TE, flags, commander.
 * @param {UnitView} u
 * @param {View} v
 */
function unitCard(u, v) {
  const cmd = u.commander ? v.sides.flatMap((s) => s.commanders).find((c) => c.id === u.commander) : null;
  /** @type {[string, string][]} */
  const rows = [
    ["Id", `${u.id} (${u.side})`],
    ["Arm", u.arm + (u.class ? `, class ${u.class}` : "")],
  ];
  // Only what the ruleset counts: no "Hits 0/0" or "TE 0/0" where it has none.
  if (u.max_hits > 0) rows.push(["Hits", `${u.hits}/${u.max_hits}`]);
  if (u.max_te > 0) rows.push(["TE", `${u.te}/${u.max_te}`]);
  const side = u.facing ?? u.flags.find((f) => f.startsWith("facing "))?.slice(7);
  rows.push(["Hex", `${api.hexOf(u) ?? ""}${side ? `, facing ${side}` : ""}`]);
  if (u.elements) rows.push([u.elements.kind === "figures" ? "Figures" : "Stands", `${u.elements.now}/${u.elements.full}`]);
  else if (u.strength !== null) rows.push([u.arm === "command" ? "Command value" : "Strength", String(u.strength)]);
  if (u.formation) rows.push(["Formation", `${u.formation} (${formationMark(u.formation)})`]);
  if (u.cone?.length) rows.push(["Fire reaches", `${u.cone.length} hex${u.cone.length === 1 ? "" : "es"} (its cone, shaded when selected)`]);
  // Mechanized damage blocks (C combat, D defence, M movement; doubled when heavier) apart.
  const blocks = u.flags.filter((f) => /^(C|D|M)\1?$/.test(f));
  const words = { C: "combat", D: "defence", M: "movement" };
  if (blocks.length) rows.push(["Damage", blocks.map((b) => `${b} (${words[/** @type {"C" | "D" | "M"} */ (b[0])]}${b.length > 1 ? " ×2" : ""})`).join(", ")]);
  const state = u.flags.filter((f) => !blocks.includes(f));
  if (state.length) rows.push(["State", state.join(", ")]);
  if (u.commander) rows.push(["Commander", cmd ? `★ ${cmd.name} (+${cmd.value})` : u.commander]);
  return h("table", { class: "card", "data-card": u.id }, ...rows.map(([k, val]) => h("tr", {}, h("th", {}, k), h("td", {}, val))));
}

/**
 * Ids in a line of the log given as the units' names ("fr1, fr2" → "1st Bn, 2nd Bn"; "fr-hq
 * Gen. Brun" → "Gen. Brun").
 * @param {View | null} v
 * @param {string} text
 */
function named(v, text) {
  return text
    .split(", ")
    .map((part) => {
      const [first, ...rest] = part.split(" ");
      const u = v?.units.find((x) => x.id === first);
      return u ? (rest.length ? rest.join(" ") : u.name) : part;
    })
    .join(", ");
}

/**
 * A command roll read from its log line: "fr-hq Gen. Brun orders fr1:
 * needs 6 or less (…), rolled 4+3: failed, no more orders from this command unit".
 * @param {string} text
 * @returns {{hq: string, units: string, needs: string, why: string, dice: string, outcome: string, result: "ok" | "failed" | "bonus" | "blunder"} | null}
 */
export function orderRoll(text) {
  const m = text.match(/^(.*?) orders (.*?): needs (-?\d+) or less \((.*)\), rolled (\d+\+\d+): (.*)$/);
  if (!m) return null;
  const [, hq, units, needs, why, dice, rest] = m;
  const result = rest.startsWith("double one") ? "bonus" : rest.startsWith("double six") ? "blunder" : rest.startsWith("failed") ? "failed" : "ok";
  const outcome = { bonus: "bonus: two actions each", blunder: "blunder", failed: "failed", ok: "issued" }[result];
  return { hq, units, needs, why, dice, outcome, result };
}

/**
 * The legend of counters of stands in formations, for the help.
 * @param {(colour: string) => HTMLElement} chip
 * @param {{mark: string, name: string}[]} formations
 */
function standLegendBox(chip, formations) {
  return h(
    "div",
    { class: "bptlegend" },
    h("h2", {}, "Counters of stands"),
    h(
      "ul",
      {},
      ...formations.map((f) => h("li", {}, h("span", { class: "chip mark" }, f.mark), ` ${f.name}`)),
      h("li", {}, h("span", { class: "chip mark" }, "5/6"), " stands now / at full strength"),
      h("li", {}, h("span", { class: "chip", style: "background:#a01818;border-radius:50%" }, "3"), " hits taken this turn"),
      h("li", {}, h("span", { class: "chip ring" }), " red ring: suppressed"),
      h("li", {}, h("span", { class: "chip dashed" }), " dashed outline: disordered"),
      h("li", {}, h("span", { class: "chip cmdchip" }, "7"), " command unit (CO/HQ) and its command value"),
      h("li", {}, chip("#ff8c1a55"), " the selected unit's fire cone within range"),
    ),
  );
}
