"use strict";
// Shared by the seat and table pages: the catalog, a translator, and a live
// socket that reconnects by itself (a sleeping phone, a restarted server).
// A join link's page and a refusal load it for the phone's Large text alone.

// The isolates i18n sets a value apart with, and the letters of each direction.
const ISOLATE_START = /[\u2066-\u2068]/u;
const ISOLATE_END = "\u2069";
const RIGHT_TO_LEFT = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;
const LEFT_TO_RIGHT = /(?![\p{Script=Arabic}\p{Script=Hebrew}])\p{L}/u;
// Kept for the next page only: a language was just chosen, so the page that
// opens in it puts the focus back on the menu (read once, by whatever page
// opens next).
const LANGUAGE_CHOSEN = "companion.language_chosen";
const languageJustChosen = (() => {
  try {
    const chosen = sessionStorage.getItem(LANGUAGE_CHOSEN) !== null;
    sessionStorage.removeItem(LANGUAGE_CHOSEN);
    return chosen;
  } catch {
    return false;   // no storage: nothing to return to
  }
})();

// A raw deflate stream's stored blocks (none final) holding `bytes`: put
// before a stream deflated with `bytes` as its dictionary, they give the
// inflater the window that stream refers back to.
function stored(bytes) {
  const blocks = [];
  for (let at = 0; at < bytes.length; at += 65535) {
    const chunk = bytes.subarray(at, at + 65535);
    const size = chunk.length;
    blocks.push(new Uint8Array([0, size & 255, size >> 8, ~size & 255, (~size >> 8) & 255]), chunk);
  }
  return blocks;
}

// Inflate a raw deflate stream, after the stored blocks `window`: all it holds.
async function inflate(window, packed) {
  const stream = new Blob([...window, packed]).stream()
    .pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const Companion = {
  catalog: {},

  // The catalog in the page's language; the page's title (its <title>'s
  // data-title names it in the catalog) comes worded in it.
  async loadCatalog(lang, dir = "ltr") {
    const response = await fetch(`/api/messages/${encodeURIComponent(lang)}`);
    if (response.ok) Companion.catalog = await response.json();
    document.documentElement.lang = lang;
    document.documentElement.dir = dir;
    const title = document.querySelector("title[data-title]");
    if (title && title.dataset.title in Companion.catalog) {
      document.title = Companion.t(title.dataset.title);
    }
  },

  // The phone's own language: kept in a cookie the server reads, so its
  // secrets and choices come worded in it too. A disclosure (the button
  // `control`, aria-expanded) names the language read now and opens a list
  // of them, each a button in its own language; only a press on one changes
  // it (an arrow key on the menu changes nothing). The page then loads
  // again in that language with the focus back on the menu.
  languageMenu(control, languages, current) {
    const now = languages.find(({ lang }) => lang === current)?.name ?? current;
    control.textContent = now;   // a screen reader hears "Language: English"
    control.setAttribute("aria-label", `${Companion.t("web.language")}: ${now}`);
    const list = document.createElement("ul");
    list.id = `${control.id}-list`;
    const open = (shown) => {
      list.hidden = !shown;
      control.setAttribute("aria-expanded", String(shown));
    };
    list.append(...languages.map(({ lang, name }) => {
      const choice = document.createElement("button");
      choice.type = "button";
      choice.lang = lang;
      choice.dir = "auto";
      choice.textContent = name;
      if (lang === current) choice.setAttribute("aria-current", "true");
      choice.addEventListener("click", () => {
        if (lang === current) {
          open(false);
          control.focus();
          return;
        }
        document.cookie = `companion_lang=${lang}; path=/; max-age=31536000; SameSite=Strict`;
        try {
          sessionStorage.setItem(LANGUAGE_CHOSEN, "yes");
        } catch { /* no storage: the page opens at its top */ }
        location.reload();
      });
      const item = document.createElement("li");
      item.append(choice);
      return item;
    }));
    control.setAttribute("aria-controls", list.id);
    control.after(list);
    open(false);
    control.addEventListener("click", () => open(list.hidden));
    const menu = control.parentElement;
    menu.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !list.hidden) {
        open(false);
        control.focus();
      }
    });
    document.addEventListener("click", (event) => {
      if (!list.hidden && !menu.contains(event.target)) open(false);
    });
    if (languageJustChosen) control.focus();
  },

  // A setting of this phone's own, kept in its storage; a browser that keeps
  // nothing (a private window) has it for as long as the page is open.
  setting(name, fallback) {
    try {
      const kept = localStorage.getItem(`companion.${name}`);
      if (kept !== null) return kept === "on";
    } catch { /* no storage: the default */ }
    return fallback;
  },

  // A setting's checkbox, with its label: shows the setting, keeps each
  // change and applies it (now, and on every change).
  settingBox(box, name, fallback, label, apply = () => {}) {
    box.checked = Companion.setting(name, fallback);
    box.labels[0].querySelector("span").textContent = Companion.t(label);
    box.addEventListener("change", () => {
      try {
        localStorage.setItem(`companion.${name}`, box.checked ? "on" : "off");
      } catch { /* no storage: for this page only */ }
      apply(box.checked);
    });
    apply(box.checked);
  },

  // Large text: the page's type (all of it set in rem) grows with the root's.
  largeText(box) {
    Companion.settingBox(box, "large_text", false, "web.large_text",
      (on) => document.documentElement.classList.toggle("large-text", on));
  },

  // Text into an element, running the page's way whoever it names. A value
  // written the other way from its sentence (a Persian name in English, a
  // Latin one in Persian, a player's free text) comes set apart by the
  // server (i18n: a first-strong isolate, U+2068 ... U+2069); here it
  // becomes a <bdi>, which reads its own way inside the sentence. A text
  // with no letter of the page's own direction (a name alone, "Ja!" on a
  // Persian page) is set apart whole. The sentence itself takes the page's
  // direction, never its first letter's. The marks stay in the text, so a
  // script or a screen reader reads the same words. Text already shown is
  // left alone (a live region is read out when it changes).
  show(element, value) {
    const text = String(value ?? "");
    if (element.textContent === text) return;
    const parts = [];
    let depth = 0;
    let run = "";
    for (const character of text) {
      if (depth === 0 && ISOLATE_START.test(character)) {
        if (run) parts.push(document.createTextNode(run));
        run = "";
      }
      run += character;
      if (ISOLATE_START.test(character)) depth += 1;
      if (character === ISOLATE_END && depth > 0) {
        depth -= 1;
        if (depth === 0) {
          const apart = document.createElement("bdi");
          apart.textContent = run;
          parts.push(apart);
          run = "";
        }
      }
    }
    if (run) parts.push(document.createTextNode(run));
    const outside = parts.filter((part) => part.nodeType === Node.TEXT_NODE)
      .map((part) => part.data).join("");
    const rtl = document.documentElement.dir === "rtl";
    const own = rtl ? RIGHT_TO_LEFT : LEFT_TO_RIGHT;
    const other = rtl ? LEFT_TO_RIGHT : RIGHT_TO_LEFT;
    if (!own.test(outside) && other.test(outside)) {
      const apart = document.createElement("bdi");
      apart.append(...parts);
      element.replaceChildren(apart);
    } else {
      element.replaceChildren(...parts);
    }
  },

  t(key, args = {}) {
    let text = Companion.catalog[key];
    if (text === undefined) return key;
    if (typeof text === "object") {
      text = text[new Intl.PluralRules(document.documentElement.lang).select(args.count)]
        ?? text.other;
    }
    const shown = (value) => (typeof value === "number"   // in the reader's digits
      ? new Intl.NumberFormat(document.documentElement.lang).format(value) : value);
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? shown(args[name]) : whole));
  },

  // A seat's frame (companion/web/server.py: seat_frame): a byte, 1 when its
  // shared part is deflated after the shared part before it (`base`), then
  // the length of its own part (4 bytes, big-endian); the own part: its
  // length deflated (4 bytes), the seat's own members deflated, zeros; then
  // the members every seat in its language shares, deflated. Returns the
  // whole state, and the shared part for the next frame.
  async seatFrame(data, base) {
    const view = new DataView(data);
    const based = view.getUint8(0) === 1;
    const ownBytes = view.getUint32(1);
    const own = await inflate([], new Uint8Array(data, 9, view.getUint32(5)));
    const window = based ? base : new Uint8Array(0);
    const all = await inflate(stored(window), new Uint8Array(data, 5 + ownBytes));
    const shared = all.subarray(window.length);
    const text = new TextDecoder();
    return { state: { ...JSON.parse(text.decode(own)), ...JSON.parse(text.decode(shared)) }, shared };
  },

  // Whether this browser inflates a raw deflate stream (Chrome 103+,
  // Firefox 113+, Safari 16.4+): a seat's page asks its socket for the
  // deflated frames if so, else for the plain padded text (server.py).
  inflates() {
    try {
      new DecompressionStream("deflate-raw");
      return true;
    } catch {
      return false;
    }
  },

  // A seat's socket, as this browser can read it. A socket asking neither
  // way (an old page after an update) is closed with 4001: it reloads.
  seatSocket() {
    return `/ws?frames=${Companion.inflates() ? "binary" : "text"}`;
  },

  // `seatGone` (optional) is asked after a socket closes for another reason
  // than a re-pair: true when this page holds no seat any more (its re-pair's
  // close was lost on the way), so the page reloads instead of retrying.
  // A state the page fails to show is logged and the socket stays open (the
  // same state again would fail again); a frame it fails to read closes the
  // socket, whose next one starts with a frame based on nothing.
  live(path, onState, linkElement, seatGone = null) {
    let delay = 500;
    const show = (state) => {
      try {
        onState(state);
      } catch (error) {
        console.error(error);
      }
    };
    const connect = () => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}${path}`);
      socket.binaryType = "arraybuffer";
      // A seat's frames are read in turn: each one's shared part may be
      // deflated after the one before it on this socket. Once one could not
      // be read, those behind it are not (their dictionary is lost).
      let shared = new Uint8Array(0);
      let reading = Promise.resolve();
      let unreadable = false;
      socket.onopen = () => {
        delay = 500;
        linkElement.dataset.state = "open";
        linkElement.textContent = Companion.t("web.connected");
      };
      socket.onmessage = (message) => {
        if (typeof message.data === "string") {   // the public table's, a plain seat's
          show(JSON.parse(message.data));
          return;
        }
        reading = reading.then(async () => {
          if (unreadable) return;
          let frame;
          try {
            frame = await Companion.seatFrame(message.data, shared);
          } catch (error) {
            unreadable = true;
            console.error(error);
            socket.close();                         // the next socket starts afresh
            return;
          }
          shared = frame.shared;
          show(frame.state);
        });
      };
      socket.onclose = (event) => {
        linkElement.dataset.state = "closed";
        linkElement.textContent = Companion.t("web.reconnecting");
        if (event.code === 4001) {          // re-paired: this phone holds no seat now
          location.reload();
          return;
        }
        const retry = async () => {
          if (seatGone && await seatGone()) {
            location.reload();
            return;
          }
          connect();
        };
        setTimeout(retry, delay);
        delay = Math.min(delay * 2, 5000);
      };
    };
    connect();
    document.addEventListener("visibilitychange", () => {
      if (!document.hidden && linkElement.dataset.state === "closed") connect();
    });
  },
};

// Before the first paint where it can: the page comes in its reader's size.
document.documentElement.classList.toggle("large-text", Companion.setting("large_text", false));
