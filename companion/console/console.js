// Keeps the cards live: the server pushes them, already escaped, over a WebSocket.
(function () {
  const cards = document.getElementById("cards");
  if (!cards) return;
  function connect() {
    const ws = new WebSocket(location.origin.replace(/^http/, "ws") + cards.dataset.ws);
    ws.onmessage = (event) => { cards.innerHTML = JSON.parse(event.data).cards; };
    ws.onclose = () => setTimeout(connect, 2000);
  }
  connect();
})();
