// Replay of a finished hand: steps through the full views in #replay-data (no build step).
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var dataNode = document.getElementById("replay-data");
  // an uploaded record (replays/open/) may hold a whole match: one data object per hand
  var handsNode = document.getElementById("replay-hands");
  if (!root || !(dataNode || handsNode)) return;
  var hands = handsNode ? JSON.parse(handsNode.textContent) : [JSON.parse(dataNode.textContent)];
  var data = hands[0];
  var tilesBase = root.dataset.tiles;
  var board = document.getElementById("replay-board");
  var stepLabel = document.getElementById("replay-step");
  var actionLabel = document.getElementById("replay-action");
  var settlement = document.getElementById("replay-settlement");
  var last = data.steps.length - 1;
  var current = 0;
  var hand = 0;
  var WINDS = { "1z": "东", "2z": "南", "3z": "西", "4z": "北" };

  // "123m45p" -> ["1m", "2m", "3m", "4p", "5p"]
  function split(text) {
    var out = [], digits = [];
    (text || "").split("").forEach(function (c) {
      if (c >= "0" && c <= "9") { digits.push(c); return; }
      digits.forEach(function (d) { out.push(d + c); });
      digits = [];
    });
    return out;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function tile(name, extra) {
    var span = el("span", "tile" + (extra ? " " + extra : ""));
    var img = document.createElement("img");
    img.src = tilesBase + (name || "back") + ".svg";
    img.alt = name || "?";
    span.title = name || "";
    span.appendChild(img);
    return span;
  }

  function tiles(names, cls, extra) {
    var box = el("span", cls);
    names.forEach(function (n) { box.appendChild(tile(n, extra)); });
    return box;
  }

  var text = data.text || {};
  var POSITIONS = data.players.length === 2 ? ["bottom", "top"] : ["bottom", "right", "top", "left"];

  function position(index) {
    var n = data.players.length;
    return POSITIONS[(index - (data.bottom || 0) + n) % n];
  }

  function seatBox(view, seat, index) {
    var box = el("div", "replay-seat pos-" + position(index) + (view.turn === index ? " turn" : ""));
    box.dataset.seat = String(index);
    var winds = text.winds || WINDS;
    // a label, not a heading: the page's outline is its title, the settlement and the fair deal
    var head = el("p", "seat-name", (winds[seat.wind] || WINDS[seat.wind] || seat.wind) + " · " + (data.players[index] || "?"));
    if (seat.dealer) { head.appendChild(document.createTextNode(" ")); head.appendChild(el("span", "badge", text.dealer || "庄")); }
    box.appendChild(head);
    var hand = tiles(seat.hand || [], "open-hand");
    box.appendChild(hand);
    (seat.melds || []).forEach(function (m) {
      box.appendChild(tiles(m.tiles ? split(m.tiles) : [null, null, null, null], "meld"));
    });
    if (seat.flowers) box.appendChild(tiles(split(seat.flowers), "flowers"));
    box.appendChild(tiles(seat.discards || [], "river", "small"));
    return box;
  }

  // The step in the viewer's language (games/history/replay_text.py); engine notation only as a fallback.
  function describe(step, i) {
    if (text.steps && text.steps[i] !== undefined) return text.steps[i];
    if (!step.action) return "—";
    var a = step.action;
    return [data.players[step.seat] || "", a.type, a.tile || "", a.tiles || ""].join(" ");
  }

  function showSettlement() {
    var result = data.result || {};
    var payments = (data.settlement && data.settlement.payments) || result.payments || [];
    var practice = (data.settlement && data.settlement.practice) || [];
    settlement.querySelectorAll(".js-payment").forEach(function (cell) {
      var index = Number(cell.dataset.index);
      var p = payments[index] || 0, q = practice[index] || 0;
      cell.textContent = (p > 0 ? "+" : "") + p;
      cell.className = "js-payment delta " + (p > 0 ? "plus" : p < 0 ? "minus" : "");
      if (q) {
        var note = el("span", "practice", " " + (text.practice || "") + " " + (q > 0 ? "+" : "") + q);
        note.title = text.practice_hint || "";
        cell.appendChild(document.createTextNode(" "));
        cell.appendChild(note);
      }
    });
    settlement.hidden = false;
  }

  function render() {
    var step = data.steps[current], view = step.view;
    board.textContent = "";
    var centre = el("div", "replay-centre");
    var info = el("p", "replay-info", (text.info && text.info[current]) || ("" + view.wall_left));
    centre.appendChild(info);
    if (view.last_discard) centre.appendChild(tile(view.last_discard.tile, "last"));
    board.appendChild(centre);
    board.className = "replay-board players-" + data.players.length;
    view.seats.forEach(function (seat, i) { board.appendChild(seatBox(view, seat, i)); });
    stepLabel.textContent = String(current);
    actionLabel.textContent = describe(step, current);
    if (current === last) showSettlement(); else settlement.hidden = true;
    history.replaceState(null, "", hashFor(hand, current));
    // the review's panel (review.js) follows the step shown
    root.dispatchEvent(new CustomEvent("replay-step", { detail: { hand: hand, step: current } }));
  }

  // "#12" is step 12 of the only hand; a record of several hands says which: "#2.12" (hand 2)
  function hashFor(handIndex, step) {
    return "#" + (hands.length > 1 ? (handIndex + 1) + "." : "") + step;
  }

  function fromHash() {
    var match = /^#(?:(\d+)\.)?(\d+)$/.exec(location.hash || "");
    if (!match) return null;
    var handIndex = match[1] ? Number(match[1]) - 1 : 0;
    if (handIndex < 0 || handIndex >= hands.length) handIndex = 0;
    return { hand: handIndex, step: Number(match[2]) };
  }

  function go(to) {
    current = Math.max(0, Math.min(last, to));
    render();
  }

  root.querySelectorAll("[data-step]").forEach(function (button) {
    button.addEventListener("click", function () {
      var kind = button.dataset.step;
      go(kind === "first" ? 0 : kind === "last" ? last : kind === "next" ? current + 1 : current - 1);
    });
  });
  document.addEventListener("keydown", function (e) {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (e.key === "ArrowRight") { go(current + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { go(current - 1); e.preventDefault(); }
    else if (e.key === "Home") { go(0); e.preventDefault(); }
    else if (e.key === "End") { go(last); e.preventDefault(); }
  });
  function showHand(index) {
    hand = index;
    data = hands[index];
    text = data.text || {};
    last = data.steps.length - 1;
    root.querySelectorAll("[data-hand]").forEach(function (node) { node.hidden = Number(node.dataset.hand) !== index; });
    if (picker) picker.value = String(index);
    document.getElementById("replay-total").textContent = String(last);
    [["commitment", data.commitment], ["salt", data.salt], ["wall", data.wall]].forEach(function (pair) {
      root.querySelectorAll("code." + pair[0]).forEach(function (node) { node.textContent = pair[1] || ""; });
    });
  }

  var picker = document.getElementById("replay-hand");
  if (picker) picker.addEventListener("change", function () { showHand(Number(picker.value)); go(0); });

  // the address is the position: typing or pasting another step's hash moves the viewer
  function goToHash() {
    var at = fromHash();
    if (!at) return;
    if (at.hand !== hand) showHand(at.hand);
    go(at.step);
  }
  window.addEventListener("hashchange", goToHash);

  var start = fromHash() || { hand: 0, step: 0 };
  showHand(start.hand);
  go(start.step);
})();
