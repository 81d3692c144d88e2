"use strict";
// The waiting page looks again every few seconds without reloading itself (a
// page that reloads on a timer throws a screen reader back to its top each
// time): once the table's server answers the address instead, it opens the game.
const LOOK_EVERY_MS = Number(document.documentElement.dataset.retry) * 1000;

setInterval(async () => {
  const answer = await fetch(location.href, { cache: "no-store" }).catch(() => null);
  if (answer && !answer.headers.has("X-Companion-Waiting")) location.reload();
}, LOOK_EVERY_MS);
