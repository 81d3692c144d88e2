"use strict";
// The public board, drawn the same way for every game from what its words
// say (companion/games/board.py): the seats' panels, then the game's parts
// (lines, a track of slots, a row of tiles, the ballot's seats). Only
// public words come here: the table page shows it, and a seat's page shows
// it under that seat's own secrets. A piece's icon (the game's SVG, fetched
// once: loadIcons) goes before the words that name it, never instead.

const SVG_NS = "http://www.w3.org/2000/svg";

const Board = {
  icons: new Map(), // piece -> its parsed <svg>, copied into the page where drawn
  drawn: new WeakMap(), // element -> the board it shows, as JSON (show)

  // The game's icons, once per page (GET /api/icons). Without them the
  // board is the same words, undecorated.
  async loadIcons() {
    try {
      const response = await fetch("/api/icons");
      if (!response.ok) return;
      const parser = new DOMParser();
      for (const [piece, text] of Object.entries(await response.json())) {
        const svg = parser.parseFromString(text, "image/svg+xml").documentElement;
        if (svg.namespaceURI === SVG_NS && svg.localName === "svg") Board.icons.set(piece, svg);
      }
    } catch (error) {
      console.warn("no icons", error);
    }
  },

  // A copy of the piece's icon for the page (hidden from assistive
  // technology: the words beside it say it), or nothing.
  icon(piece) {
    const svg = piece && Board.icons.get(piece);
    if (!svg) return [];
    const copy = document.importNode(svg, true);
    copy.setAttribute("class", "icon");
    copy.setAttribute("aria-hidden", "true");
    copy.dataset.piece = piece;
    return [copy];
  },
  // `seatExtra(seat)`: words the page adds to a seat's panel ("on a phone").
  // The same board again (a state that changed only elsewhere, or the
  // live link's first state after the page's own fetch) is left as drawn:
  // redrawing it would cost the phone a layout and a screen reader its place.
  show(element, board, seatExtra = () => []) {
    const extras = board.seats.map((seat, index) => seatExtra(index));
    const drawn = JSON.stringify([board, extras]);
    if (Board.drawn.get(element) === drawn) return;
    Board.drawn.set(element, drawn);
    const seats = document.createElement("ul");
    seats.id = element.dataset.seatsId || "";
    seats.className = "seats";
    seats.replaceChildren(...board.seats.map((seat, index) => Board.seat(seat, extras[index])));
    element.replaceChildren(seats, ...board.parts.map(Board.part));
  },

  // The cards the table keeps in sight, as on the kiosk (the game's words say which).
  reference(cards) {
    document.getElementById("reference-card").hidden = cards.length === 0;
    document.getElementById("reference").replaceChildren(...cards.flatMap(({ name, text, piece }) => {
      const term = Board.line("dt", name);
      term.prepend(...Board.icon(piece));
      return [term, Board.line("dd", text)];
    }));
  },

  // The rules at hand: what is happening now and what each may do, then the
  // game's quick reference (folded away until opened).
  rules(explain, rules) {
    const list = document.getElementById("explain");
    const same = list.children.length === explain.length
      && explain.every((line, index) => list.children[index].textContent === line);
    if (!same) list.replaceChildren(...explain.map((line) => Board.line("li", line)));
    document.getElementById("rules-card").hidden = rules.length === 0;
    document.getElementById("rules").replaceChildren(...rules.flatMap(({ name, text }) => [
      Board.line("dt", name),
      Board.line("dd", text),
    ]));
  },

  // The headings of the parts every page shares.
  titles() {
    for (const [id, key] of [["board-title", "web.board"], ["reference-title", "web.reference"],
      ["explain-title", "help.now"], ["rules-title", "help.reference"]]) {
      document.getElementById(id).textContent = Companion.t(key);
    }
  },

  seat({ name, state, tone, lines, icons = [] }, extra) {
    const item = document.createElement("li");
    item.className = `seat tone-${tone || "none"}`;
    if (tone === "turn" || tone === "winner") item.classList.add("current");
    const head = document.createElement("strong");
    Companion.show(head, name);
    item.append(head);
    if (state) item.append(Board.span("seat-state", state));
    const more = [...lines, ...extra];
    if (more.length) {
      const list = document.createElement("ul");
      list.replaceChildren(...more.map((line, index) => {
        const entry = Board.line("li", line);
        entry.prepend(...(icons[index] || []).flatMap(Board.icon));
        return entry;
      }));
      item.append(list);
    }
    return item;
  },

  part({ key, title, kind, note, items }) {
    const section = document.createElement("section");
    section.className = `part part-${key} kind-${kind}`;
    if (title) {
      const heading = document.createElement("h3");
      Companion.show(heading, title);
      section.append(heading);
    }
    const list = document.createElement(kind === "track" ? "ol" : "ul");
    list.className = "items";
    list.replaceChildren(...items.map(Board.item));
    section.append(list);
    if (note) section.append(Board.line("p", note, "note"));
    return section;
  },

  item({ text, detail, on, tone, icon, detail_icon: detailIcon }) {
    const entry = document.createElement("li");
    entry.className = `tone-${tone || "none"}${on ? " on" : ""}`;
    entry.append(...Board.icon(icon));
    if (text) entry.append(Board.span("text", text));
    if (detail) {
      const span = Board.span("detail", detail);
      span.prepend(...Board.icon(detailIcon));
      entry.append(span);
    }
    return entry;
  },

  span(className, text) {
    const span = document.createElement("span");
    span.className = className;
    Companion.show(span, text);
    return span;
  },

  line(tag, text, className = "") {
    const element = document.createElement(tag);
    if (className) element.className = className;
    Companion.show(element, text);
    return element;
  },
};
