// Volley's web client: the lobby at `#/`, a game at `#/game/ID?token=TOKEN` (one seat) or
// `#/game/ID?red=TOKEN&blue=TOKEN` (hotseat). Tokens stay in the fragment, which browsers never
// send to the server, and in this browser's "my games".

import { showLobby } from "./lobby.js";
import { GameScreen } from "./game.js";

const app = /** @type {HTMLElement} */ (document.getElementById("app"));
/** @type {{close: () => void} | null} */
let current = null;

function route() {
  current?.close();
  current = null;
  app.replaceChildren();
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

window.addEventListener("hashchange", route);
route();
