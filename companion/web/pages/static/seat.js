"use strict";
// A seat's phone: its secrets behind hold-to-reveal (or its button), its
// private choices.

const REVEAL_LIMIT_MS = 10000;      // secrets hide again by themselves
// A press on the secrets' button held at least this long was a hold: its
// click, as the finger lifts, does not leave the secrets shown.
const HOLD_MS = 400;
const SECRET_SIZES_REM = [1.3, 1.15, 1.0, 0.9, 0.8];   // largest first
// Every command this page sends takes this many bytes, so that its length
// does not tell which it is ("ja" from "nein"): more than the longest, a
// form's command with 80 characters of text (a longer one takes a
// multiple).
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
let drawnSecrets = null; // the secret lines as last drawn (renderSecrets)
let shownBy = null;      // what shows the secrets now: "hold", "button" or null
let pressedAt = null;    // when a finger (or the mouse) went down on the card
let holdEndedAt = null;  // when a press held at least HOLD_MS let go
let lastSent = null;     // the command just sent (its key), until the next state

function byId(id) { return document.getElementById(id); }

// An attribute set only when it changes: the secrets card is a live region,
// and a screen reader hears of every change made in it.
function setHidden(element, hidden) {
  if (element.hidden !== hidden) element.hidden = hidden;
}

// Show the secrets (`by` a "hold" or the "button") or hide them (by null).
function showSecrets(by) {
  const list = byId("secret-lines");
  const show = Boolean(by) && list.children.length > 0;
  shownBy = show ? by : null;
  setHidden(list, !show);
  setHidden(byId("reveal-hint"), show);
  const card = byId("secrets");
  if (show) card.dataset.shown = by;
  else delete card.dataset.shown;
  const button = byId("reveal");
  if (button.getAttribute("aria-expanded") !== String(show)) {
    button.setAttribute("aria-expanded", String(show));
  }
  Companion.show(button, Companion.t(show ? "web.hide_secrets" : "web.show_secrets"));
  fitSecrets(list);
  clearTimeout(revealTimer);
  if (show) revealTimer = setTimeout(() => showSecrets(null), REVEAL_LIMIT_MS);
}

// The card keeps its height (app.css); the type shrinks until the lines fit,
// and what still does not fit scrolls within the card (which a keyboard
// can then reach and scroll too).
function fitSecrets(list) {
  const view = byId("secret-view");
  for (const size of list.hidden ? [] : SECRET_SIZES_REM) {
    if (list.style.fontSize !== `${size}rem`) list.style.fontSize = `${size}rem`;
    if (view.scrollHeight <= view.clientHeight) break;
  }
  const scrolls = !list.hidden && view.scrollHeight > view.clientHeight;
  if (scrolls !== view.hasAttribute("tabindex")) {
    if (scrolls) view.tabIndex = 0;
    else view.removeAttribute("tabindex");
  }
}

// The secret lines: only a line that changed is written again (and so said
// again by a screen reader), the hint only when it changes.
function renderSecrets(secrets) {
  const list = byId("secret-lines");
  const hint = byId("reveal-hint");
  Companion.show(hint, Companion.t(secrets.length ? "web.hold_to_reveal" : "web.no_secrets"));
  const lines = JSON.stringify(secrets);
  if (lines === drawnSecrets) return;
  drawnSecrets = lines;
  while (list.children.length > secrets.length) list.lastElementChild.remove();
  secrets.forEach((line, index) => {
    const item = list.children[index] ?? list.appendChild(document.createElement("li"));
    Companion.show(item, line);
  });
  if (!secrets.length) showSecrets(null);
  else if (shownBy) fitSecrets(list);
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
  renderSecrets(state.secrets);
  renderActions(state);
  renderForms(state.forms);
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
// nothing waits for it. The buttons are updated where they stand (one per
// command), so the focus stays on the action it was on; if that action is
// gone, the focus goes to the heading and the page says so.
function renderActions(state) {
  const voted = "ballot_vote" in state.private;
  const changeable = voted && state.actions.some(({ command }) => command.type === "vote");
  const note = byId("vote-note");
  note.hidden = !voted;
  if (voted) Companion.show(note, Companion.t(changeable ? "web.vote_change" : "web.vote_in"));
  let idle = null;
  if (!state.actions.length && !voted) idle = state.at_table ? "web.at_table" : "web.nothing_to_do";
  const pressed = lastSent;   // a state since the press: what goes now went by itself
  lastSent = null;
  const drawn = JSON.stringify([state.actions, idle]);
  if (drawn === drawnActions) return;
  drawnActions = drawn;
  const actions = byId("actions");
  const focused = actions.contains(document.activeElement) ? document.activeElement : null;
  const kept = new Map([...actions.querySelectorAll("button")].map((b) => [b.dataset.command, b]));
  const wanted = state.actions.map(({ command, label }) => {
    const key = JSON.stringify(command);
    let button = kept.get(key);
    kept.delete(key);
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.dataset.command = key;
      button.addEventListener("click", () => send(command));
    }
    Companion.show(button, label);
    return button;
  });
  if (idle) wanted.push(Board.line("p", Companion.t(idle), "hint"));
  for (const old of [...actions.children].filter((child) => !wanted.includes(child))) {
    old.remove();
  }
  // In order, moving only what is out of place (moving a node drops its focus).
  wanted.forEach((child, index) => {
    const there = actions.children[index] ?? null;
    if (there !== child) actions.insertBefore(child, there);
  });
  const gone = focused !== null && !wanted.includes(focused);
  if (focused && !gone && document.activeElement !== focused) focused.focus();
  if (gone) byId("actions-title").focus();
  // Pressed and sent, its going is no news ("Sent." says it).
  const news = gone && focused.dataset.command !== pressed;
  Companion.show(byId("actions-note"), news ? Companion.t("web.action_gone") : "");
}

// The forms the game declares for the seat's commands with open-ended terms
// (companion/games/forms.py): each a card with a fieldset, its heading the
// legend, a labelled control per field, its button. A form drawn before is
// updated where it stands (its controls keep the focus and what was chosen
// or typed); one that goes takes the focus, if it held it, to the actions'
// heading. Ids start with the form's own: "offer-to", "offer-send"...
function renderForms(forms) {
  const box = byId("forms");
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  const wanted = forms.map(drawForm);
  for (const old of [...box.children].filter((child) => !wanted.includes(child))) old.remove();
  wanted.forEach((card, index) => {
    const there = box.children[index] ?? null;
    if (there !== card) box.insertBefore(card, there);
  });
  if (focused && !box.contains(focused)) byId("actions-title").focus();
}

function drawForm(form) {
  let card = byId(form.id);
  if (!card || card.parentElement !== byId("forms")) card = newForm(form.id);
  const drawn = JSON.stringify(form);
  if (card.drawn === drawn) return card;
  card.drawn = drawn;
  card.declared = form;
  // Found within the card: a new one is not in the page yet.
  Companion.show(card.querySelector("h2"), form.title);
  Companion.show(card.querySelector("button"), form.send);
  const fields = card.querySelector(".fields");
  const wanted = form.fields.map((field) => drawField(fields, form.id, field));
  for (const old of [...fields.children].filter((child) => !wanted.includes(child))) old.remove();
  wanted.forEach((row, index) => {
    const there = fields.children[index] ?? null;
    if (there !== row) fields.insertBefore(row, there);
  });
  settle(card);
  return card;
}

function newForm(id) {
  const card = document.createElement("section");
  card.className = "card";
  card.id = id;
  card.setAttribute("aria-labelledby", `${id}-title`);
  const form = document.createElement("form");
  form.id = `${id}-form`;
  form.className = "form";
  const set = form.appendChild(document.createElement("fieldset"));
  const legend = set.appendChild(document.createElement("legend"));
  legend.appendChild(document.createElement("h2")).id = `${id}-title`;
  const fields = set.appendChild(document.createElement("div"));
  fields.id = `${id}-fields`;
  fields.className = "fields";
  const button = set.appendChild(document.createElement("button"));
  button.id = `${id}-send`;
  button.type = "submit";
  form.addEventListener("change", () => settle(card));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send(formCommand(card));
  });
  card.appendChild(form);
  return card;
}

// A field's row, made once and updated: a choice is a group of radio
// buttons (a fieldset, its legend the field's label; each choice's words
// wrap, as a select's cannot), a number or text an input under its label.
function drawField(fields, formId, field) {
  const id = `${formId}-${field.name}`;
  let row = [...fields.children].find((child) => child.id === `${id}-field`);
  if (!row || row.dataset.kind !== field.kind) row = newField(id, field);
  row.field = field;
  Companion.show(row.querySelector("legend, label"), field.label);
  const control = byIdIn(row, id);
  if (field.kind === "number") {
    control.min = field.min;
    control.max = field.max;
  } else if (field.kind === "text") {
    control.maxLength = field.max_length;
  }
  return row;
}

function newField(id, field) {
  const choice = field.kind === "choice";
  const row = document.createElement(choice ? "fieldset" : "div");
  row.id = `${id}-field`;
  row.className = "field";
  row.dataset.kind = field.kind;
  const label = row.appendChild(document.createElement(choice ? "legend" : "label"));
  const control = row.appendChild(document.createElement(choice ? "div" : "input"));
  control.id = id;
  if (choice) {
    control.className = "choices";
  } else {
    label.htmlFor = id;
    control.name = field.name;
    if (field.kind === "number") {
      Object.assign(control, { type: "number", inputMode: "numeric", step: "1", value: field.min });
    } else {
      control.dir = "auto";
    }
  }
  return row;
}

function byIdIn(element, id) {
  return [...element.children].find((child) => child.id === id);
}

// A choice field's radio buttons, one per choice listed now: a button kept
// (with its focus, its check) as long as its choice is listed, reworded
// where it stands; one is always checked (the first, unless one was), and
// takes the focus if the focused one went.
function listChoices(group, choices) {
  const focused = group.contains(document.activeElement) ? document.activeElement : null;
  const kept = new Map([...group.children].map((label) => [label.firstChild.value, label]));
  const wanted = choices.map(([value, words]) => {
    const key = JSON.stringify(value);
    let label = kept.get(key);
    if (!label) {
      label = document.createElement("label");
      label.className = "choice";
      Object.assign(label.appendChild(document.createElement("input")), {
        type: "radio",
        name: group.id,
        value: key,
      });
      label.appendChild(document.createElement("span"));
    }
    Companion.show(label.lastChild, words);
    return label;
  });
  for (const old of [...group.children].filter((child) => !wanted.includes(child))) old.remove();
  wanted.forEach((label, index) => {
    const there = group.children[index] ?? null;
    if (there !== label) group.insertBefore(label, there);
  });
  if (wanted.length && !group.querySelector("input:checked")) wanted[0].firstChild.checked = true;
  if (focused && !group.contains(focused)) group.querySelector("input:checked")?.focus();
}

// Whether the fields filled so far meet a `when` ({field: [values]}).
function holds(when, values) {
  return Object.entries(when ?? {}).every(
    ([name, allowed]) => name in values && allowed.some((value) => value === values[name]),
  );
}

// Each field shown only when it holds, each choice listed only when it
// does (a choice that depends on another field's changes with it); the
// values so far, by field name, as the command takes them.
function settle(card) {
  const values = {};
  for (const row of card.querySelectorAll(".field")) {
    const { field } = row;
    const control = byIdIn(row, `${card.id}-${field.name}`);
    const shown = holds(field.when, values);
    setHidden(row, !shown);
    if (field.kind === "choice") {
      // A choice is [value, label] or [value, label, when].
      const choices = field.choices.filter((choice) => holds(choice[2], values));
      const listed = JSON.stringify(choices);
      if (control.listed !== listed) {
        control.listed = listed;
        listChoices(control, choices);
      }
    }
    if (shown) values[field.name] = fieldValue(field, control);
  }
  return values;
}

function fieldValue(field, control) {
  if (field.kind === "choice") {
    const checked = control.querySelector("input:checked");
    return checked ? JSON.parse(checked.value) : null;
  }
  if (field.kind === "number") return Number(control.value);
  return control.value;
}

function formCommand(card) {
  return { ...card.declared.command, ...settle(card) };
}

// The command as sent, padded with spaces the server drops.
function padded(command) {
  const taken = new TextEncoder().encode(JSON.stringify({ ...command, pad: "" })).length;
  const spaces = (COMMAND_BYTES - (taken % COMMAND_BYTES)) % COMMAND_BYTES;
  return JSON.stringify({ ...command, pad: " ".repeat(spaces) });
}

async function send(command, messageId = "message") {
  lastSent = JSON.stringify(command);
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

// The secrets show while a finger holds the card (let go, they hide), or
// from the card's button: a click, a tap, a key pressed and let go or a
// screen reader's "activate" shows them and a second hides them. A finger
// or a key (Space, Enter) held on the button is a hold like a finger on the
// card: letting go hides them, and the click that ends it is no toggle.
// Either way they hide by themselves after REVEAL_LIMIT_MS, when the page is
// put away and when the focus leaves the card.
function revealing(card, button) {
  Companion.show(button, Companion.t("web.show_secrets"));
  card.addEventListener("pointerdown", (event) => {
    pressedAt = performance.now();
    if (shownBy === "button") return;  // shown already: the finger may scroll
    if (event.target !== button) event.preventDefault();
    showSecrets("hold");
  });
  for (const end of ["pointerup", "pointerleave", "pointercancel"]) {
    card.addEventListener(end, () => {
      if (pressedAt !== null && performance.now() - pressedAt >= HOLD_MS) {
        holdEndedAt = performance.now();
      }
      pressedAt = null;
      if (shownBy === "hold") showSecrets(null);
    });
  }
  // A key: shown as it goes down; let go after HOLD_MS it was a hold (hidden
  // again), sooner a press (shown until pressed again). Its own click is
  // prevented (Enter clicks as it goes down, Space as it comes up).
  const isKey = (event) => event.key === " " || event.key === "Enter";
  let keyDown = null;   // when the key went down, and what showed the secrets then
  button.addEventListener("keydown", (event) => {
    if (!isKey(event)) return;
    event.preventDefault();
    if (event.repeat || keyDown) return;
    keyDown = { at: performance.now(), before: shownBy };
    if (!shownBy) showSecrets("hold");
  });
  button.addEventListener("keyup", (event) => {
    if (!isKey(event) || !keyDown) return;
    event.preventDefault();
    const { at, before } = keyDown;
    keyDown = null;
    if (performance.now() - at >= HOLD_MS) showSecrets(before === "button" ? "button" : null);
    else showSecrets(before ? null : "button");
  });
  button.addEventListener("click", () => {
    // The click a held finger makes as it lets go (at once) is the hold's end.
    const afterHold = holdEndedAt !== null && performance.now() - holdEndedAt < HOLD_MS;
    holdEndedAt = null;
    if (!afterHold) showSecrets(shownBy === "button" ? null : "button");
  });
  card.addEventListener("focusout", (event) => {
    if (!card.contains(event.relatedTarget)) showSecrets(null);
  });
  document.addEventListener("visibilitychange", () => showSecrets(null));
  // Turned on its side or set to large text while shown: fitted again.
  new ResizeObserver(() => fitSecrets(byId("secret-lines"))).observe(byId("secret-view"));
}

async function start() {
  const response = await fetch("/api/seat", { credentials: "same-origin" });
  if (!response.ok) { location.reload(); return; }
  const state = await response.json();
  await Companion.loadCatalog(state.lang, state.dir);
  await Board.loadIcons();
  Companion.languageMenu(byId("language"), state.languages, state.lang);
  byId("actions-title").textContent = Companion.t("web.your_actions");
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
  revealing(byId("secrets"), byId("reveal"));
  Companion.live(Companion.seatSocket(), render, byId("link"), async () => {
    const response = await fetch("/api/seat", { credentials: "same-origin" }).catch(() => null);
    return response !== null && response.status === 401;     // a server that is down: retry
  });
}

start();
