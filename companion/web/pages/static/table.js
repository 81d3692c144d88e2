"use strict";
// The public table: who is where, coins or influence, the log. No secrets.

function byId(id) { return document.getElementById(id); }

function render(state) {
  const view = state.public;
  byId("title").textContent = Companion.t(`game.${state.game}`);
  byId("players").replaceChildren(...view.players.map((player, seat) => {
    const item = document.createElement("li");
    const name = document.createElement("strong");
    name.dir = "auto";
    name.textContent = state.names[seat];
    item.append(name);
    if ("coins" in player) item.append(` · ${Companion.t("ui.coins", { count: player.coins })}`);
    if (view.phones && view.phones[seat].phone) item.append(` · ${Companion.t("web.on_phone")}`);
    if (view.current === seat) item.className = "current";
    return item;
  }));
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
    item.textContent = line;
    return item;
  }));
}

async function start() {
  const response = await fetch("/api/table");
  const state = await response.json();
  await Companion.loadCatalog(state.lang, state.dir);
  Companion.languageMenu(byId("language"), state.languages, state.lang);
  byId("log-card").setAttribute("aria-label", Companion.t("ui.log"));
  byId("settings-title").textContent = Companion.t("web.settings");
  Companion.largeText(byId("large-text"));
  render(state);
  Companion.live("/ws/table", render, byId("link"));
}

start();
