"use strict";
// Shared by the seat and table pages: the catalog, a translator, and a live
// socket that reconnects by itself (a sleeping phone, a restarted server).

const Companion = {
  catalog: {},

  async loadCatalog(lang, dir = "ltr") {
    const response = await fetch(`/api/messages/${encodeURIComponent(lang)}`);
    if (response.ok) Companion.catalog = await response.json();
    document.documentElement.lang = lang;
    document.documentElement.dir = dir;
  },

  // The phone's own language: kept in a cookie the server reads, so its
  // secrets and choices come worded in it too.
  languageMenu(select, languages, current) {
    select.replaceChildren(...languages.map(({ lang, name }) => new Option(name, lang)));
    select.value = current;
    select.setAttribute("aria-label", Companion.t("web.language"));
    select.addEventListener("change", () => {
      document.cookie = `companion_lang=${select.value}; path=/; max-age=31536000; SameSite=Strict`;
      location.reload();
    });
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

  // `seatGone` (optional) is asked after a socket closes for another reason
  // than a re-pair: true when this page holds no seat any more (its re-pair's
  // close was lost on the way), so the page reloads instead of retrying.
  live(path, onState, linkElement, seatGone = null) {
    let delay = 500;
    const connect = () => {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const socket = new WebSocket(`${scheme}://${location.host}${path}`);
      socket.onopen = () => {
        delay = 500;
        linkElement.dataset.state = "open";
        linkElement.textContent = Companion.t("web.connected");
      };
      socket.onmessage = (message) => onState(JSON.parse(message.data));
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
