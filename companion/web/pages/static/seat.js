"use strict";
// A seat's phone: its secrets behind hold-to-reveal, its private choices.

const REVEAL_LIMIT_MS = 10000;      // secrets hide again by themselves
const SECRET_SIZES_REM = [1.3, 1.15, 1.0, 0.9, 0.8];   // largest first
// Every command this page sends takes this many bytes, so that its length
// does not tell which it is ("ja" from "nein"): more than the longest, an
// offer with its 80 characters of text (a longer one takes a multiple).
const COMMAND_BYTES = 512;
// What the phone buzzes (milliseconds on, off, on...) for each cue its state
// carries: one pattern per kind of cue, the same for every seat. The cue comes
// from the public view alone (the game's words), so a buzz tells whoever
// feels or hears it only what the kiosk's screen shows.
const BUZZ = { turn: [200], ballot: [90, 80, 90], choose: [300, 120, 300] };
let csrf = "";
let revealTimer = null;
let lastCue;           // none before the first state: opening the page buzzes nothing
let drawnActions = null; // the actions as last drawn (renderActions)

function byId(id) { return document.getElementById(id); }

function showSecrets(show) {
  const list = byId("secret-lines");
  if (list.children.length === 0) return;
  list.hidden = !show;
  byId("reveal-hint").hidden = show;
  if (show) fitSecrets(list);
  clearTimeout(revealTimer);
  if (show) revealTimer = setTimeout(() => showSecrets(false), REVEAL_LIMIT_MS);
}

// The card keeps its height (app.css); the type shrinks until the lines fit.
function fitSecrets(list) {
  const card = byId("secrets");
  for (const size of SECRET_SIZES_REM) {
    list.style.fontSize = `${size}rem`;
    if (card.scrollHeight <= card.clientHeight) return;
  }
}

// Buzz when the state newly cues this seat (unless its setting is off).
function buzz(cue) {
  const before = lastCue;
  lastCue = cue ?? null;
  if (before === undefined || lastCue === before || !(lastCue in BUZZ)) return;
  if (Companion.setting("vibrate", true) && "vibrate" in navigator) navigator.vibrate(BUZZ[lastCue]);
}

function render(state) {
  if (state.csrf) csrf = state.csrf;
  buzz(state.cue);
  Companion.show(byId("name"), state.names[state.seat]);
  // The name as the table has it, unless the player is typing a new one
  // (the form open: a state arriving as Save is tapped keeps what was typed).
  const field = byId("rename-name");
  if (!byId("rename").open) field.value = state.names[state.seat];
  Companion.show(byId("status"), state.status);  // a live region: said again only when new
  const list = byId("secret-lines");
  const wasShown = !list.hidden;
  list.replaceChildren(...state.secrets.map((line) => {
    const item = document.createElement("li");
    Companion.show(item, line);
    return item;
  }));
  byId("reveal-hint").textContent = Companion.t(
    state.secrets.length ? "web.hold_to_reveal" : "web.no_secrets");
  list.hidden = !(wasShown && state.secrets.length);
  byId("reveal-hint").hidden = !list.hidden;
  if (!list.hidden) fitSecrets(list);
  renderActions(state);
  renderOffer(state.offer);
  Board.show(byId("board"), state.board);
  Companion.show(byId("facts"), state.facts.join(" · "));
  Board.reference(state.reference);
  Board.rules(state.explain, state.rules);
  if (state.notice) {               // a press on this seat's own buttons was refused
    const message = byId("message");
    message.dataset.kind = "error";
    Companion.show(message, state.notice);
  }
}

// What the seat may choose on this phone, and a word on it: its vote is in
// (and may still change), or the table's screen takes its choice now, or
// nothing waits for it. The same buttons again are left as they were, so
// the focus stays on the one pressed.
function renderActions(state) {
  const voted = "ballot_vote" in state.private;
  const changeable = voted && state.actions.some(({ command }) => command.type === "vote");
  const note = byId("vote-note");
  note.hidden = !voted;
  if (voted) Companion.show(note, Companion.t(changeable ? "web.vote_change" : "web.vote_in"));
  let idle = null;
  if (!state.actions.length && !voted) idle = state.at_table ? "web.at_table" : "web.nothing_to_do";
  const drawn = JSON.stringify([state.actions, idle]);
  if (drawn === drawnActions) return;
  drawnActions = drawn;
  byId("actions").replaceChildren(...state.actions.map(({ command, label }) => {
    const button = document.createElement("button");
    button.type = "button";
    Companion.show(button, label);
    button.addEventListener("click", () => send(command));
    return button;
  }), ...(idle ? [Board.line("p", Companion.t(idle), "hint")] : []));
}

function options(select, items, value, label) {
  const chosen = select.value;
  select.replaceChildren(...items.map((item) => new Option(item[label], item[value])));
  if ([...select.options].some((option) => option.value === chosen)) select.value = chosen;
}

function renderOffer(offer) {
  byId("offer").hidden = !offer;
  if (!offer) return;
  options(byId("offer-to"), offer.to, "seat", "label");
  options(byId("offer-kind"), offer.kinds, "kind", "label");
  byId("offer-amount").max = offer.max;
  byId("offer-text-field").hidden = byId("offer-kind").value !== "other";
}

function offerCommand() {
  const command = {
    type: "offer",
    to: Number(byId("offer-to").value),
    kind: byId("offer-kind").value,
    amount: Number(byId("offer-amount").value),
  };
  if (command.kind === "other") command.text = byId("offer-text").value;
  return command;
}

// The command as sent, padded with spaces the server drops.
function padded(command) {
  const taken = new TextEncoder().encode(JSON.stringify({ ...command, pad: "" })).length;
  const spaces = (COMMAND_BYTES - (taken % COMMAND_BYTES)) % COMMAND_BYTES;
  return JSON.stringify({ ...command, pad: " ".repeat(spaces) });
}

async function send(command, messageId = "message") {
  const message = byId(messageId);
  message.textContent = "";
  const response = await fetch("/api/command", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Companion-CSRF": csrf },
    body: padded(command),
    credentials: "same-origin",
  });
  const answer = await response.json().catch(() => ({}));
  message.dataset.kind = response.ok ? "ok" : "error";
  Companion.show(message, response.ok ? Companion.t("web.sent") : (answer.message || ""));
  return response.ok;
}

async function start() {
  const response = await fetch("/api/seat", { credentials: "same-origin" });
  if (!response.ok) { location.reload(); return; }
  const state = await response.json();
  await Companion.loadCatalog(state.lang, state.dir);
  await Board.loadIcons();
  Companion.languageMenu(byId("language"), state.languages, state.lang);
  byId("actions-title").textContent = Companion.t("web.your_actions");
  byId("offer-title").textContent = Companion.t("web.offer_title");
  byId("offer-to").setAttribute("aria-label", Companion.t("web.offer_to"));
  byId("offer-kind").setAttribute("aria-label", Companion.t("web.offer_kind"));
  byId("offer-amount-label").textContent = Companion.t("web.offer_amount");
  byId("offer-text-label").textContent = Companion.t("web.offer_text");
  byId("offer-send").textContent = Companion.t("web.offer_send");
  byId("offer-kind").addEventListener("change", () => {
    byId("offer-text-field").hidden = byId("offer-kind").value !== "other";
  });
  byId("offer-form").addEventListener("submit", (event) => {
    event.preventDefault();
    send(offerCommand());
  });
  // The player's own name, as the table shows it (the kiosk can change it too).
  byId("rename-title").textContent = Companion.t("web.rename");
  byId("rename-name").setAttribute("aria-label", Companion.t("web.rename"));
  byId("rename-save").textContent = Companion.t("web.rename_save");
  byId("rename-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await send({ type: "rename", name: byId("rename-name").value }, "rename-message")) {
      byId("rename-name").blur();
      byId("rename").open = false;
    }
  });
  byId("settings-title").textContent = Companion.t("web.settings");
  Board.titles();
  Companion.settingBox(byId("vibrate"), "vibrate", true, "web.vibrate");
  Companion.largeText(byId("large-text"));
  render(state);
  const secrets = byId("secrets");
  secrets.addEventListener("pointerdown", (event) => { event.preventDefault(); showSecrets(true); });
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) {
    secrets.addEventListener(end, () => showSecrets(false));
  }
  // From a keyboard too: Space or Enter held down shows them, let go hides them.
  const held = (event) => (event.key === " " || event.key === "Enter") && !event.repeat;
  secrets.addEventListener("keydown", (event) => {
    if (held(event)) { event.preventDefault(); showSecrets(true); }
  });
  secrets.addEventListener("keyup", (event) => { if (held(event)) showSecrets(false); });
  secrets.addEventListener("blur", () => showSecrets(false));
  document.addEventListener("visibilitychange", () => showSecrets(false));
  Companion.live("/ws", render, byId("link"), async () => {
    const response = await fetch("/api/seat", { credentials: "same-origin" }).catch(() => null);
    return response !== null && response.status === 401;     // a server that is down: retry
  });
}

start();
