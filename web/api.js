// The server's HTTP API (docs/API.md), its JSON shapes, and the games this browser holds seats in.

/** @typedef {"red" | "blue"} Side */
/** @typedef {"N" | "NE" | "SE" | "S" | "SW" | "NW"} Facing */

/**
 * @typedef {object} HexsideView
 * @property {[string, string]} between
 * @property {string} kind  wall, hedge, fence or stream
 */

/**
 * @typedef {object} MapView
 * @property {"hex" | "square"} grid
 * @property {number} width
 * @property {number} height
 * @property {string[]} rows  terrain tokens separated by spaces: `.` `W` `w` `T` `~` `=` `f` `m` `r` `M` `F`, each with an optional elevation digit
 * @property {[string, string][]} roads
 * @property {HexsideView[]} hexsides
 */

/**
 * Where a unit is: a hex (or a square tile) by its label, or a point on a measured table.
 * @typedef {object} Place
 * @property {string} [hex]
 * @property {{x: number, y: number, facing: number}} [point]
 */

/**
 * What a unit is made of, where the ruleset counts it.
 * @typedef {object} Elements
 * @property {"stands" | "figures"} kind
 * @property {number} now
 * @property {number} full
 */

/**
 * @typedef {object} CommanderView
 * @property {string} id
 * @property {string} name
 * @property {number} value
 * @property {boolean} supreme
 * @property {string | null} attached_to
 * @property {string} status
 */

/**
 * @typedef {object} SideView
 * @property {Side} side
 * @property {string} name
 * @property {number} losses_percent
 * @property {number | null} break_point
 * @property {number} score
 * @property {CommanderView[]} commanders
 */

/**
 * @typedef {object} UnitView
 * @property {string} id
 * @property {number} key
 * @property {string} name
 * @property {Side} side
 * @property {string} arm
 * @property {string | null} class
 * @property {string} symbol
 * @property {Place} place
 * @property {Facing | null} facing
 * @property {number} hits
 * @property {number} max_hits
 * @property {number} te
 * @property {number} max_te
 * @property {number | null} strength
 * @property {Elements} [elements]
 * @property {string} [formation]
 * @property {Place[]} [cone]  the hexes its fire reaches now (rulesets with firing cones)
 * @property {string[]} flags
 * @property {string | null} commander
 */

/**
 * @typedef {object} MarkerView
 * @property {string} id
 * @property {Side} side
 * @property {Place} place
 */

/**
 * @typedef {object} ObjectiveView
 * @property {Place} place
 * @property {string} name
 * @property {number} points
 * @property {Side | null} holder
 */

/**
 * @typedef {object} Outcome
 * @property {Side | null} winner
 * @property {string} reason
 * @property {[number, number]} score
 */

/**
 * @typedef {object} View
 * @property {string} ruleset
 * @property {string} scenario
 * @property {string} title
 * @property {Side | null} viewer
 * @property {number} turn
 * @property {number} turn_limit
 * @property {string} phase
 * @property {Side | null} phasing
 * @property {Side | null} to_decide
 * @property {string} [prompt]  what the side to decide is deciding, in words
 * @property {MapView} map
 * @property {SideView[]} sides
 * @property {UnitView[]} units
 * @property {MarkerView[]} markers
 * @property {ObjectiveView[]} objectives
 * @property {Outcome | null} outcome
 * @property {Standing} [standing]  who would win if the battle ended now (rulesets that judge at the end)
 */

/**
 * @typedef {object} Standing
 * @property {Side | null} winner  null for a draw
 * @property {boolean} decisive
 * @property {string} reason  in words: "a minor victory for Hood's division (Hood's division holds Mumma farm; …)"
 */

/**
 * @typedef {object} LoggedEvent
 * @property {number} seq
 * @property {number} turn
 * @property {string} kind
 * @property {string} rule
 * @property {string} text
 * @property {Side | null} side
 * @property {string[]} [units]
 * @property {boolean} [opens_turn]
 */

/**
 * @typedef {object} OptionSpec
 * @property {string} key
 * @property {string} default
 * @property {string[]} choices
 * @property {string} help
 * @property {string} [label]  the option's name in plain words
 */

/**
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} ruleset
 * @property {string} title
 * @property {string} description
 * @property {OptionSpec[]} options
 * @property {MapView} map
 */

/**
 * @typedef {object} SeatView
 * @property {number} seq
 * @property {Side | null} seat
 * @property {string} commitment
 * @property {string | null} seed
 * @property {{red: string, blue: string}} players  `human`, or the computer's bot spec
 * @property {number} [pace]  seconds a player has for a move; 0 for a live game
 * @property {number | null} [deadline]  when the side to decide runs out of time (Unix seconds)
 * @property {number} [watchers]  spectators watching now
 * @property {string | null} [spectate]  the spectator link's token
 * @property {View} view
 */

/**
 * What a spectator is given: what both sides have seen.
 * @typedef {object} WatchView
 * @property {number} seq
 * @property {string} commitment
 * @property {string | null} seed
 * @property {{red: string, blue: string}} players
 * @property {number} pace
 * @property {number | null} deadline
 * @property {number} watchers
 * @property {View} view
 * @property {LoggedEvent[]} events
 */

/**
 * One game of "my games" as the server sees it.
 * @typedef {object} ListedGame
 * @property {string} id
 * @property {Side | null} seat
 * @property {"your turn" | "their turn" | "over" | "waiting" | "unknown"} status
 * @property {string | null} scenario
 * @property {number | null} turn
 * @property {Side | null} to_decide
 * @property {number} pace
 * @property {number | null} deadline
 * @property {boolean} can_claim
 * @property {string | null} result  how it ended, once over
 * @property {Side | null} winner
 * @property {number} watchers
 */

/** @typedef {{hex: string, cost: number}} Reach */
/** @typedef {{outcome: string, probability: number, example?: string}} OddsLine */
/** @typedef {{action: string, exact: boolean, trials: number, outcomes: OddsLine[], notes?: string[]}} Odds  notes: the roll that decides whether it happens at all, who may answer it */
/** @typedef {{step: number, steps: number, view: View, events: LoggedEvent[], fresh: number, turns: number[]}} ReplayStep */
/** @typedef {{seq: number, side: Side, text: string, at: number}} ChatLine */
/** @typedef {{type: "update", seq: number, commitment: string, seed: string | null, view: View, events: LoggedEvent[], chat?: ChatLine[], deadline?: number | null, watchers?: number}} Update */

/** @typedef {{term: string, section: string, meaning: string}} Term */

/** An answer other than 2xx, with the server's reason. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * @param {string} path
 * @param {{token?: string | null, method?: string, body?: unknown}} [how]
 * @returns {Promise<any>}
 */
async function call(path, how = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (how.token) headers.Authorization = `Bearer ${how.token}`;
  if (how.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method: how.method ?? (how.body === undefined ? "GET" : "POST"),
    headers,
    body: how.body === undefined ? undefined : JSON.stringify(how.body),
  });
  const text = await res.text();
  /** @type {any} */
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    const reason = data && typeof data.error === "string" ? data.error : text || res.statusText;
    throw new ApiError(res.status, reason);
  }
  return data;
}

/** @returns {Promise<Scenario[]>} */
export function scenarios() {
  return call("/api/scenarios");
}

/**
 * Random text this browser adds to the dice seed (the server committed to its own secret
 * before it sees it, so neither side can choose the dice).
 * @returns {string}
 */
export function entropy() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * @param {string} scenario
 * @param {Record<string, string>} options
 * @param {string} red  "human" or a bot spec
 * @param {string} blue
 * @param {"red" | "blue" | "both"} seat  the human seat(s) this browser takes; another human seat is left open for an invitation
 * @param {string} [pace]  "live" (the default) or the time for a move: "1d", "3d", "7d"…
 * @returns {Promise<{id: string, seats: {red: string | null, blue: string | null}, invites: {red: string | null, blue: string | null}, commitment: string, started: boolean, spectate: string, pace: number}>}
 */
export function createGame(scenario, options, red, blue, seat, pace = "live") {
  return call("/api/games", { body: { scenario, options, red, blue, seat, entropy: entropy(), pace } });
}

/**
 * This browser's games as the server sees them, the ones where it is your turn first.
 * @param {{id: string, token: string}[]} games
 * @returns {Promise<ListedGame[]>}
 */
export function gamesList(games) {
  return call("/api/games/list", { body: { games } });
}

/**
 * What a spectator sees of a game.
 * @param {string} id
 * @param {string} token  the spectator link's token
 * @returns {Promise<WatchView>}
 */
export function watch(id, token) {
  return call(`${game(id)}/watch`, { token });
}

/**
 * Where this seat is told it is its turn: read it, or (with `contact`) set it.
 * @param {string} id
 * @param {string} token
 * @param {{webhook?: string, email?: string}} [contact]
 * @returns {Promise<{webhook?: string, email?: string}>}
 */
export function notify(id, token, contact) {
  return call(`${game(id)}/notify`, { token, body: contact });
}

/**
 * Claims the win: the opponent's time for a move ran out.
 * @param {string} id
 * @param {string} token
 * @returns {Promise<{seq: number, events: LoggedEvent[]}>}
 */
export function claimTimeout(id, token) {
  return call(`${game(id)}/timeout`, { token, body: {} });
}

/**
 * Takes the seat an invitation holds, adding this browser's entropy to the dice.
 * @param {string} id
 * @param {string} claim
 * @returns {Promise<{seat: Side, token: string}>}
 */
export function claim(id, claim) {
  return call(`/api/games/${encodeURIComponent(id)}/claim`, { body: { claim, entropy: entropy() } });
}

/**
 * Whether a game has started, and which seats wait for their player.
 * @param {string} id
 * @returns {Promise<{started: boolean, open: Side[], commitment: string}>}
 */
export function seats(id) {
  return call(`/api/games/${encodeURIComponent(id)}/seats`);
}

/** @param {string} id */
const game = (id) => `/api/games/${encodeURIComponent(id)}`;

/**
 * @param {string} id
 * @param {string} token
 * @returns {Promise<SeatView>}
 */
export function view(id, token) {
  return call(`${game(id)}/view`, { token });
}

/**
 * A legal action described for the page: the notation to send back, what it is, the unit one
 * selects to give it, where the map marks it, the facing it sets, whether dice decide it, and
 * its label in plain words.
 * @typedef {object} Choice
 * @property {string} action  the notation, sent back unchanged
 * @property {string} verb
 * @property {"end" | "move" | "turn" | "attack" | "other"} kind
 * @property {string | null} unit
 * @property {Place | null} target
 * @property {string | null} facing
 * @property {boolean} dice
 * @property {string} label
 */

/**
 * @param {string} id
 * @param {string} token
 * @returns {Promise<{seq: number, actions: string[], described: Choice[]}>}
 */
export function legal(id, token) {
  return call(`${game(id)}/legal`, { token });
}

/**
 * @param {string} id
 * @param {string} token
 * @param {string} unit
 * @returns {Promise<Reach[]>}
 */
export function reach(id, token, unit) {
  return call(`${game(id)}/reach?unit=${encodeURIComponent(unit)}`, { token });
}

/**
 * @param {string} id
 * @param {string} token
 * @param {string} action
 * @param {number} [seq]  the number of actions played when it was chosen: refused (409) if the game has moved on since
 * @returns {Promise<{seq: number, events: LoggedEvent[]}>}
 */
export function act(id, token, action, seq) {
  return call(`${game(id)}/actions`, { token, body: seq === undefined ? { action } : { action, seq } });
}

/**
 * Takes back the seat's last action (refused, with the reason, after dice or a reveal).
 * @param {string} id
 * @param {string} token
 * @returns {Promise<{seq: number, undone: string, undone_label: string}>}
 */
export function undo(id, token) {
  return call(`${game(id)}/undo`, { token, body: {} });
}

/**
 * The seat gives up the battle.
 * @param {string} id
 * @param {string} token
 * @returns {Promise<{seq: number, events: LoggedEvent[]}>}
 */
export function resign(id, token) {
  return call(`${game(id)}/resign`, { token, body: {} });
}

/**
 * @param {string} id
 * @param {string} token
 * @param {string} action
 * @returns {Promise<Odds>}
 */
export async function odds(id, token, action) {
  // The server answers at once when its odds workers are busy (429/503): ask again shortly,
  // a few times, rather than show an error for a question that only has to wait its turn.
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(`${game(id)}/odds`, { token, body: { action } });
    } catch (e) {
      const busy = e instanceof ApiError && (e.status === 429 || e.status === 503);
      if (!busy || attempt >= 8) throw e;
      await new Promise((done) => setTimeout(done, 250 * (attempt + 1)));
    }
  }
}

/**
 * @param {string} id
 * @param {string} token
 * @returns {Promise<{events: LoggedEvent[]}>}
 */
export function log(id, token) {
  return call(`${game(id)}/log`, { token });
}

/**
 * @param {string} id
 * @param {string | null} token
 * @param {number} step
 * @returns {Promise<ReplayStep>}
 */
export function replay(id, token, step) {
  return call(`${game(id)}/replay?step=${step}`, { token });
}

/**
 * The saved game's address (the server sends it once the game is over).
 * @param {string} id
 */
export function exportPath(id) {
  return `${game(id)}/export`;
}

/**
 * The WebSocket address for a seat's live updates (or a spectator's, with `watching`).
 * @param {string} id
 * @param {string} token
 * @param {boolean} [watching]
 */
export function socketUrl(id, token, watching = false) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${game(id)}/ws?${watching ? "watch" : "token"}=${encodeURIComponent(token)}`;
}

// "My games": seats this browser holds, kept in localStorage (tokens never leave the browser
// except to the server that issued them).

/**
 * @typedef {object} MyGame
 * @property {string} id
 * @property {Side | "both"} seat  "both" for a hotseat game
 * @property {string} token  the seat's token (for "both", red's)
 * @property {string} [token2]  blue's token in a hotseat game
 * @property {string} scenario  the scenario's title
 * @property {string} created  ISO time
 */

const STORE = "volley.games";

/** @returns {MyGame[]} */
export function myGames() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE) ?? "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/**
 * Adds or replaces the entry for this game and seat.
 * @param {MyGame} entry
 */
export function rememberGame(entry) {
  const rest = myGames().filter((g) => !(g.id === entry.id && g.seat === entry.seat));
  localStorage.setItem(STORE, JSON.stringify([entry, ...rest]));
}

/**
 * @param {string} id
 * @param {Side | "both"} seat
 */
export function forgetGame(id, seat) {
  localStorage.setItem(
    STORE,
    JSON.stringify(myGames().filter((g) => !(g.id === id && g.seat === seat))),
  );
}

/**
 * The hex label of a place, or null for a point on a measured table.
 * @param {{place: Place}} piece
 * @returns {string | null}
 */
export function hexOf(piece) {
  return piece.place.hex ?? null;
}

/**
 * A rule system's words in plain English.
 * @param {string} ruleset
 * @returns {Promise<Term[]>}
 */
export function glossary(ruleset) {
  return call(`/api/rulesets/${encodeURIComponent(ruleset)}/glossary`);
}

/**
 * The players' chat so far.
 * @param {string} id
 * @param {string} token
 * @returns {Promise<ChatLine[]>}
 */
export function chat(id, token) {
  return call(`${game(id)}/chat`, { token });
}

/**
 * Says a line to the other seat.
 * @param {string} id
 * @param {string} token
 * @param {string} text
 * @returns {Promise<ChatLine>}
 */
export function say(id, token, text) {
  return call(`${game(id)}/chat`, { token, body: { text } });
}

/** The army lists, fields and example armies of the rule system that has them. @returns {Promise<any>} */
export function armies() {
  return call("/api/armies");
}

/** One army list with what can be bought of it. @param {string} id @returns {Promise<any>} */
export function armyList(id) {
  return call(`/api/armies/lists/${encodeURIComponent(id)}`);
}

/** Checks an army file's text. @param {string} army @returns {Promise<any>} */
export function checkArmy(army) {
  return call("/api/armies/check", { body: { army } });
}

/**
 * An army the computer builds from a list to a points total (the server draws the seed).
 * @param {string} list
 * @param {number} points
 * @returns {Promise<{seed: number, text: string, name: string, list: string, points: number, cost: number, army: any, summary: string[]}>}
 */
export function generateArmy(list, points) {
  return call("/api/armies/generate", { body: { list, points } });
}

/**
 * A battle between two armies (army files' text) on a field.
 * @param {{red: string, blue: string, map: string}} armies
 * @param {string} red  "human" or a bot spec
 * @param {string} blue
 * @param {"red" | "blue" | "both"} seat
 * @returns {Promise<{id: string, seats: {red: string | null, blue: string | null}, invites: {red: string | null, blue: string | null}, commitment: string, started: boolean}>}
 */
export function createArmyGame(armies, red, blue, seat) {
  return call("/api/games", { body: { armies, red, blue, seat, entropy: entropy() } });
}
