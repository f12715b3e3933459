// Volley's web client: the lobby at `#/`, a game at `#/game/ID?token=TOKEN` (one seat) or
// `#/game/ID?red=TOKEN&blue=TOKEN` (hotseat), a spectator at `#/watch/ID?token=TOKEN`, an invitation at `#/join/ID?claim=CLAIM` (taken
// once: it turns into this browser's own seat). Tokens stay in the fragment, which browsers never
// send to the server, and in this browser's "my games".

import { gameLink, showLobby } from "./lobby.js";
import { GameScreen } from "./game.js";
import { showArmyBuilder } from "./army.js";
import * as api from "./api.js";

const app = /** @type {HTMLElement} */ (document.getElementById("app"));
/** @type {{close: () => void} | null} */
let current = null;

function route() {
  current?.close();
  current = null;
  app.replaceChildren();
  const join = location.hash.match(/^#\/join\/([^?]+)\?claim=(.+)$/);
  if (join) {
    takeSeat(decodeURIComponent(join[1]), decodeURIComponent(join[2]));
    return;
  }
  if (location.hash === "#/army") {
    showArmyBuilder(app);
    return;
  }
  const watch = location.hash.match(/^#\/watch\/([^?]+)\?token=(.+)$/);
  if (watch) {
    current = new GameScreen(app, decodeURIComponent(watch[1]), { watch: decodeURIComponent(watch[2]) });
    return;
  }
  const m = location.hash.match(/^#\/game\/([^?]+)(?:\?(.*))?$/);
  if (!m) {
    showLobby(app);
    return;
  }
  const params = new URLSearchParams(m[2] ?? "");
  const id = decodeURIComponent(m[1]);
  const red = params.get("red");
  const blue = params.get("blue");
  const token = params.get("token");
  if (red && blue) current = new GameScreen(app, id, { red, blue });
  else if (token) current = new GameScreen(app, id, { one: token });
  else showLobby(app, "That game link has no seat token in it.");
}

/**
 * Opens an invitation: claims its seat (once) and goes to the game with this browser's own
 * token. A claim already used leads back to the lobby with the reason.
 * @param {string} id
 * @param {string} claim
 */
async function takeSeat(id, claim) {
  app.textContent = "Taking your seat…";
  try {
    const taken = await api.claim(id, claim);
    api.rememberGame({ id, seat: taken.seat, token: taken.token, scenario: "Online game", created: new Date().toISOString() });
    location.replace(gameLink(id, { one: taken.token }));
  } catch (e) {
    showLobby(app, `That invitation cannot be used: ${e instanceof Error ? e.message : String(e)}`);
  }
}

window.addEventListener("hashchange", route);
route();
