"use strict";
// The public table: what it waits for, its figures, the board as the kiosk
// shows it (board.js), the cards it keeps in sight, the log. No secrets.

function byId(id) { return document.getElementById(id); }

function render(state) {
  const view = state.public;
  byId("title").textContent = Companion.t(`game.${state.game}`);
  Board.show(byId("board"), state.board, (seat) => (
    view.phones && view.phones[seat].phone ? [Companion.t("web.on_phone")] : []));
  Companion.show(byId("status"), state.status);  // a live region: set only when new
  Companion.show(byId("facts"), state.facts.join(" · "));
  Board.reference(state.reference);
  Board.rules(state.explain, state.rules);
  showLog(byId("log"), state.log.slice(-12));
}

// The log comes worded by the server in this page's language. It is a live
// region: the lines it showed stay, the new ones are added (and only they are
// read out), the oldest go.
function showLog(list, lines) {
  const shown = [...list.children];
  const same = (kept) => lines.slice(0, kept)
    .every((line, index) => shown[shown.length - kept + index].textContent === line);
  let kept = Math.min(shown.length, lines.length);
  while (kept > 0 && !same(kept)) kept -= 1;
  for (const item of shown.slice(0, shown.length - kept)) item.remove();
  list.append(...lines.slice(kept).map((line) => {
    const item = document.createElement("li");
    Companion.show(item, line);
    return item;
  }));
}

async function start() {
  const response = await fetch("/api/table");
  const state = await response.json();
  await Companion.loadCatalog(state.lang, state.dir);
  await Board.loadIcons();
  Companion.languageMenu(byId("language"), state.languages, state.lang);
  byId("log-card").setAttribute("aria-label", Companion.t("ui.log"));
  byId("settings-title").textContent = Companion.t("web.settings");
  Board.titles();
  Companion.largeText(byId("large-text"));
  render(state);
  Companion.live("/ws/table", render, byId("link"));
}

start();
