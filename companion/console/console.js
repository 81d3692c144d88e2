// Keeps the cards live: the server pushes them, already escaped, over a
// WebSocket: all of them ({"cards": html}) when the tables shown change, else
// only those that changed ({"update": {table: html}}). A card's actions that
// staff are using (a field with the focus, an open confirmation) are kept as
// they are, so a table's ticking timer never wipes a half-typed message.
(function () {
  const cards = document.getElementById("cards");
  if (!cards) return;
  const LOGGED_OUT = 4401; // server.py's LOGGED_OUT

  function busy(actions) {
    return actions && (actions.contains(document.activeElement) || actions.querySelector("details[open]"));
  }

  // The new card, with the old one's actions where staff are using them.
  function merged(old, fresh) {
    const using = old && old.querySelector(".actions");
    const replacing = fresh.querySelector(".actions");
    if (busy(using) && replacing) replacing.replaceWith(using);
    return fresh;
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
    const holder = parsed(html);
    for (const fresh of holder.querySelectorAll("article[data-table]")) {
      merged(card(fresh.dataset.table), fresh);
    }
    cards.replaceChildren(...holder.childNodes);
  }

  function update(changed) {
    for (const [name, html] of Object.entries(changed)) {
      const old = card(name);
      const fresh = parsed(html).firstElementChild;
      if (old && fresh) old.replaceWith(merged(old, fresh));
    }
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
