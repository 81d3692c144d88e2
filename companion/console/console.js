// Keeps the cards live: the server pushes them, already escaped, over a
// WebSocket: all of them ({"cards": html}) when the tables shown change, else
// only those that changed ({"update": {table: html}}).
//
// What staff are using (a field with the focus, an open confirmation) is
// never taken out of the page: the card around it is renewed in place, so a
// table's ticking timer or a player's new name neither wipes a half-typed
// message nor blurs its field (a focused node moved in the page loses the
// focus, and the keys typed next go nowhere).
//
// What is new on a card (an alert it did not have, an action's reply) is
// said in the page's live region (#news): each card comes anew with every
// change, so a live region of its own would be new too, and unheard.
(function () {
  const cards = document.getElementById("cards");
  if (!cards) return;
  const news = document.getElementById("news");
  const LOGGED_OUT = 4401; // server.py's LOGGED_OUT

  function busy(node) {
    return node.contains(document.activeElement) || node.matches("details[open]") ||
      node.querySelector("details[open]") !== null;
  }

  // Makes `nodes` the children of `parent`, in order, moving none of those
  // already there that come in the same order (the focused one among them).
  function place(parent, nodes) {
    const keep = new Set(nodes);
    for (const child of [...parent.childNodes]) if (!keep.has(child)) child.remove();
    let next = parent.firstChild;
    for (const node of nodes) {
      if (node === next) next = node.nextSibling;
      else parent.insertBefore(node, next);
    }
  }

  // The child of `old` that staff are using and `fresh` (a new child) stands for.
  function using(old, fresh) {
    if (fresh.nodeType !== Node.ELEMENT_NODE) return null;
    for (const child of old.children) {
      if (child.tagName === fresh.tagName && child.className === fresh.className && busy(child)) {
        return child;
      }
    }
    return null;
  }

  // The card to show for `fresh`: fresh itself, or, when staff are using
  // the old card's actions, the old card with fresh's words around the
  // actions (and fresh's actions around the form or confirmation in use).
  function renewed(old, fresh) {
    const actions = old && old.querySelector(":scope > .actions");
    const replacing = fresh.querySelector(":scope > .actions");
    if (!actions || !replacing || !busy(actions)) return fresh;
    place(actions, [...replacing.childNodes].map((node) => using(actions, node) || node));
    for (const name of old.getAttributeNames()) old.removeAttribute(name);
    for (const { name, value } of fresh.attributes) old.setAttribute(name, value);
    place(old, [...fresh.childNodes].map((node) => (node === replacing ? actions : node)));
    return old;
  }

  // The news a card has to tell: its alerts and its reply, in the server's words.
  function told(card) {
    return card ? [...card.querySelectorAll("[data-news]")].map((node) => node.dataset.news) : [];
  }

  function newsOf(old, fresh) {
    const before = new Set(told(old));
    return told(fresh).filter((line) => !before.has(line));
  }

  // Said together, a moment after the region is emptied: the same words
  // again (a second action's same reply) are news again.
  let waiting = [];
  function say(lines) {
    if (!news || lines.length === 0) return;
    if (waiting.length === 0) {
      news.textContent = "";
      setTimeout(() => {
        news.textContent = waiting.join(" ");
        waiting = [];
      }, 100);
    }
    waiting.push(...lines);
  }

  function parsed(html) {
    const holder = document.createElement("div");
    holder.innerHTML = html;
    return holder;
  }

  function card(name) {
    return cards.querySelector('article[data-table="' + CSS.escape(name) + '"]');
  }

  function showAll(html) {
    const lines = [];
    const nodes = [...parsed(html).childNodes].map((node) => {
      if (!(node instanceof HTMLElement) || !node.matches("article[data-table]")) return node;
      const old = card(node.dataset.table);
      lines.push(...newsOf(old, node));
      return renewed(old, node);
    });
    place(cards, nodes);
    say(lines);
  }

  function update(changed) {
    const lines = [];
    for (const [name, html] of Object.entries(changed)) {
      const old = card(name);
      const fresh = parsed(html).firstElementChild;
      if (!old || !fresh) continue;
      lines.push(...newsOf(old, fresh));
      const shown = renewed(old, fresh);
      if (shown !== old) old.replaceWith(shown);
    }
    say(lines);
  }

  function connect() {
    const ws = new WebSocket(location.origin.replace(/^http/, "ws") + cards.dataset.ws);
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.cards !== undefined) showAll(message.cards);
      else update(message.update);
    };
    // Logged out (here or in another tab) or expired: the login page.
    ws.onclose = (event) => {
      if (event.code === LOGGED_OUT) location.reload();
      else setTimeout(connect, 2000);
    };
  }
  connect();
})();
