/* The few things htmx can't do on the board: countdown ticking, connection status,
   merging typed form fields into the action JSON, confirm prompts, keyboard moves
   across the hand and showing why a tile can't be discarded. No state lives here:
   every server frame re-renders the board. */
(function () {
  "use strict";

  var ticker = null;

  function startCountdowns() {
    var now = performance.now();
    document.querySelectorAll(".countdown[data-ms], .veil[data-ms]").forEach(function (el) {
      var ms = parseInt(el.getAttribute("data-ms"), 10);
      if (!isNaN(ms)) el._end = now + ms;
    });
    if (!ticker) ticker = setInterval(tick, 250);
    tick();
  }

  function tick() {
    var now = performance.now();
    var any = false;
    document.querySelectorAll(".countdown-bar[data-ms]").forEach(function (el) {  // the prompt's bar
      if (el._end === undefined) { el._total = parseInt(el.getAttribute("data-ms"), 10); el._end = now + el._total; }
      if (!(el._total > 0)) return;
      any = true;
      var share = Math.max(0, (el._end - now) / el._total);
      el.firstElementChild.style.width = (share * 100).toFixed(1) + "%";
      el.classList.toggle("urgent", el._end - now <= 3000);
    });
    document.querySelectorAll(".countdown[data-ms]").forEach(function (el) {
      if (el._end === undefined) return;
      any = true;
      var left = Math.max(0, Math.ceil((el._end - now) / 1000));
      var strong = el.querySelector("strong");
      if (strong && strong.textContent !== String(left)) strong.textContent = String(left);
      el.classList.toggle("urgent", left <= 5);
    });
    // The pause after a discard runs out here: no frame marks its end (only the seat to play
    // is sent one), so the board says it waits for the next move once the pause has passed.
    document.querySelectorAll(".veil[data-ms]").forEach(function (el) {
      if (el._end === undefined) return;
      var over = now >= el._end;
      if (!over) any = true;
      el.querySelector(".during-pause").hidden = over;
      el.querySelector(".after-pause").hidden = !over;
    });
    if (!any && ticker) { clearInterval(ticker); ticker = null; }
  }

  function fillInviteLinks() {
    document.querySelectorAll(".invite-link[data-path]").forEach(function (el) {
      el.value = location.origin + el.getAttribute("data-path");
    });
  }

  // Errors from the socket show for a few seconds; a stale version is routine (the full
  // state follows at once), so it is not shown at all.
  var noticeTimer = null;
  function settleNotice() {
    var notice = document.getElementById("notice");
    if (!notice || notice.hidden) return;
    if (notice.getAttribute("data-code") === "stale_version") { notice.hidden = true; return; }
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () { notice.hidden = true; }, 5000);
  }

  function refresh() { startCountdowns(); fillInviteLinks(); settleNotice(); }

  function setConnection(state) {
    var root = document.getElementById("table-root");
    if (!root) return;
    root.setAttribute("data-connection", state);
    var text = root.querySelector(".conn-text");
    if (text && text.getAttribute("data-" + state)) text.textContent = text.getAttribute("data-" + state);
  }

  // Reconnecting (the htmx ws extension reconnects after 1006, 1011, 1012 and 1013; the server's
  // own 4012 and 4013 — daphne cannot send the RFC's — are reconnected below): exponential
  // back-off with full jitter like its own "full-jitter" (a random wait in [0, 2^n s), n capped
  // at 6), plus the retry_after a busy server asked for with its `busy` notice (admission control,
  // docs/protocol.md): a thousand boards cut off together come back spread out. The server's
  // first frame on the new socket is the whole current board: nothing is reloaded.
  var retryAfterMs = 0;
  function reconnectDelay(retryCount) {
    var span = 1000 * Math.pow(2, Math.min(retryCount, 6));
    var wait = retryAfterMs + Math.random() * span;
    retryAfterMs = 0;
    return wait;
  }
  if (window.htmx) window.htmx.config.wsReconnectDelay = reconnectDelay;
  function busyNotice() {
    var notice = document.getElementById("notice");
    var seconds = notice && notice.getAttribute("data-code") === "busy" ? Number(notice.getAttribute("data-retry-after")) : 0;
    if (!(seconds > 0)) return false;
    retryAfterMs = 1000 * seconds;
    notice.removeAttribute("data-retry-after");  // read once: the next drop starts afresh
    return true;
  }

  var ownRetries = 0;
  document.addEventListener("htmx:wsOpen", function () { ownRetries = 0; setConnection("open"); });
  document.addEventListener("htmx:wsClose", function (evt) {
    var code = evt.detail && evt.detail.event && evt.detail.event.code;
    var socket = evt.detail && evt.detail.socketWrapper;
    if ((code === 4012 || code === 4013) && socket && socket.reconnect && document.getElementById("table-root")) {
      setTimeout(socket.reconnect, reconnectDelay(ownRetries));
      ownRetries += 1;
    }
  });
  document.addEventListener("htmx:wsClose", function () {
    setConnection("closed");
    var root = document.getElementById("table-root");
    if (root) root.removeAttribute("data-synced");
  });
  // After "Leave" the leaver goes to the lobby once the server has let them go (between hands
  // the seat is freed; mid-hand it is marked left and a bot finishes the hand): a table page
  // they no longer play at would show them "you / 托管" and the owner's controls.
  var leaving = false;
  function leftTheTable() {
    var status = document.getElementById("table-status");
    var seated = status && status.getAttribute("data-seated");
    return seated === "0" || seated === "left";
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    var root = document.getElementById("table-root");
    if (busyNotice()) { settleNotice(); return; }  // refused, not synced: the close follows
    if (root) root.setAttribute("data-synced", "1");  // the first frame since (re)connecting arrived
    if (leaving && leftTheTable() && root && root.getAttribute("data-lobby")) {
      window.location.assign(root.getAttribute("data-lobby"));
      return;
    }
    refresh();
    newestDiscards();
  });
  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("DOMContentLoaded", newestDiscards);

  // A pond too full for its box scrolls inside it (board.css): show its end, the newest discards.
  function newestDiscards() {
    document.querySelectorAll("#board .river").forEach(function (river) {
      river.scrollTop = river.scrollHeight;
      keepWindInSight(river);
    });
  }

  // The pond's wind label lies in its left margin, beside no tile: moved down by the pond's
  // scroll, it stays at the box's top instead of leaving with the older rows, so a scrolled pond
  // still says whose it is.
  function keepWindInSight(river) {
    var label = river.querySelector(".river-label");
    if (label) label.style.transform = river.scrollTop ? "translateY(" + river.scrollTop + "px)" : "";
  }
  document.addEventListener("scroll", function (evt) {
    var target = evt.target;
    if (target && target.classList && target.classList.contains("river")) keepWindInSight(target);
  }, true);

  // A form with data-merge="base" sends {"action": {... , "base": <number>}} as one action JSON.
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    var sender = evt.target;
    var confirmText = sender.getAttribute && sender.getAttribute("data-confirm");
    if (confirmText && !window.confirm(confirmText)) { evt.preventDefault(); return; }
    if (sender.classList && sender.classList.contains("leave")) leaving = true;
    var merge = sender.getAttribute && sender.getAttribute("data-merge");
    if (!merge) return;
    var params = evt.detail.parameters;
    var action = {};
    try { action = JSON.parse(params.action); } catch (e) { return; }
    merge.split(/\s+/).forEach(function (key) {
      var raw = params[key];
      var num = Number(raw);
      action[key] = raw !== "" && !isNaN(num) ? num : raw;
      delete params[key];
    });
    params.action = JSON.stringify(action);
  });

  // Why a tile is disabled: shown under the hand on hover, focus or tap.
  function showReason(evt) {
    var tile = evt.target.closest && evt.target.closest(".hand-tile");
    if (!tile) return;
    var box = tile.closest(".seat") && tile.closest(".seat").querySelector(".tile-reason");
    if (box) box.textContent = tile.getAttribute("data-reason") || tile.getAttribute("data-waits") || "";
  }
  document.addEventListener("mouseover", showReason);
  document.addEventListener("focusin", showReason);
  document.addEventListener("click", function (evt) {
    var tile = evt.target.closest && evt.target.closest(".hand-tile.disabled");
    if (tile) { showReason(evt); evt.preventDefault(); }
  });

  // Arrow keys move along the hand; Enter or Space discards the focused tile at once.
  document.addEventListener("keydown", function (evt) {
    var current = document.activeElement;
    if ((evt.key === "Enter" || evt.key === " ") && discardable(current)) {
      discard(current);
      evt.preventDefault();
      return;
    }
    if (evt.key !== "ArrowLeft" && evt.key !== "ArrowRight") return;
    if (!current || !current.classList.contains("hand-tile")) return;
    var tiles = Array.prototype.slice.call(current.closest(".hand").querySelectorAll("button.hand-tile"));
    var i = tiles.indexOf(current) + (evt.key === "ArrowRight" ? 1 : -1);
    if (i >= 0 && i < tiles.length) { tiles[i].focus(); evt.preventDefault(); }
  });
  document.addEventListener("keyup", function (evt) {  // a button clicks on Space's keyup: not here
    if (evt.key === " " && discardable(document.activeElement)) evt.preventDefault();
  });

  // --- choosing and discarding a tile of your hand -------------------------------------------
  // A click (a tap) chooses a tile: it rises and its "then waiting on" line shows under the hand.
  // A click on the chosen tile, a double-click, Enter/Space, or dragging it up onto the table
  // discards it. Only tiles the server rendered from a `discard` entry of `legal` can be
  // discarded (they carry ws-send hx-trigger="discard"); anything else is refused as before.
  var chosen = null;  // the chosen tile's name, kept across frames while it is your turn
  var sent = false;  // one discard per frame: a second click before the next board is ignored
  var dragged = false;

  function discardable(el) {
    var tile = el && el.closest && el.closest(".hand.clickable button.hand-tile");
    return tile && !tile.classList.contains("disabled") && tile.hasAttribute("ws-send") ? tile : null;
  }

  function discard(tile) {
    if (sent || !window.htmx) return;
    sent = true;
    chosen = null;
    tile.classList.add("leaving");
    window.htmx.trigger(tile, "discard");
  }

  function hint(tile) {
    var box = document.querySelector("#board .seat.me .tile-reason");
    if (box) box.textContent = tile ? tile.getAttribute("data-waits") || "" : "";
  }

  function choose(tile) {
    document.querySelectorAll(".hand-tile.chosen").forEach(function (t) { t.classList.remove("chosen"); });
    chosen = tile ? tile.getAttribute("data-tile") : null;
    if (tile) tile.classList.add("chosen");
    hint(tile);
  }

  document.addEventListener("click", function (evt) {
    var tile = discardable(evt.target);
    if (!tile) return;
    if (dragged) { dragged = false; return; }  // the click that ends a drag
    if (tile.classList.contains("chosen")) discard(tile); else choose(tile);
  });
  document.addEventListener("dblclick", function (evt) {
    var tile = discardable(evt.target);
    if (tile) discard(tile);
  });

  function afterFrame() {
    sent = false;
    arrangeHand();
    var again = chosen && document.querySelector('.hand.clickable button.hand-tile[data-tile="' + chosen + '"]:not(.disabled)');
    choose(again || null);
  }

  // Dragging (mouse, pen or finger): up onto the table discards; within the hand, with
  // auto-sort off, moves the tile.
  var drag = null;
  document.addEventListener("pointerdown", function (evt) {
    if (evt.button !== 0 || sent) return;
    var tile = discardable(evt.target);
    if (tile) drag = { tile: tile, x: evt.clientX, y: evt.clientY, id: evt.pointerId, moving: false };
  });
  document.addEventListener("pointermove", function (evt) {
    if (!drag || evt.pointerId !== drag.id) return;
    var dx = evt.clientX - drag.x;
    var dy = evt.clientY - drag.y;
    if (!drag.moving) {
      if (Math.abs(dx) + Math.abs(dy) < 8) return;
      drag.moving = true;
      drag.tile.classList.add("dragging");
      var board = document.getElementById("board");
      if (board) board.classList.add("drag-discard");
    }
    drag.tile.style.transform = "translate(" + dx + "px, " + dy + "px)";
    var board2 = document.getElementById("board");
    if (board2) board2.classList.toggle("drop-here", onTheTable(evt));
    evt.preventDefault();
  });
  function onTheTable(evt) {  // above your own seat: the ponds, the centre, the other seats
    var mine = document.querySelector("#board .seat.me");
    var board = document.getElementById("board");
    if (!mine || !board) return false;
    var b = board.getBoundingClientRect();
    return evt.clientY < mine.getBoundingClientRect().top && evt.clientY > b.top &&
      evt.clientX > b.left && evt.clientX < b.right;
  }
  function endDrag(evt, cancelled) {
    if (!drag || evt.pointerId !== drag.id) return;
    var d = drag;
    drag = null;
    if (!d.moving) return;
    dragged = true;
    setTimeout(function () { dragged = false; }, 0);  // a click that follows the drag's end is ignored
    d.tile.classList.remove("dragging");
    d.tile.style.transform = "";
    var board = document.getElementById("board");
    if (board) board.classList.remove("drag-discard", "drop-here");
    if (cancelled) return;
    if (onTheTable(evt)) { discard(d.tile); return; }
    if (!sortOn()) moveInHand(d.tile, evt);
  }
  document.addEventListener("pointerup", function (evt) { endDrag(evt, false); });
  document.addEventListener("pointercancel", function (evt) { endDrag(evt, true); });

  // --- auto-sort: on (the default), the hand is shown sorted as the server sends it; off, the
  // tiles keep the player's own arrangement across frames (new tiles join at the right end) and a
  // tile dragged within the hand moves there.
  var handOrder = null;
  function sortOn() {
    try { return localStorage.getItem("mahjong-auto-sort") !== "off"; } catch (e) { return true; }
  }
  function handTiles(hand) { return Array.prototype.slice.call(hand.querySelectorAll(".hand-tile")); }
  function arrangeHand() {
    var hand = document.querySelector("#board .seat.me .hand");
    if (!hand) { handOrder = null; return; }
    var gap = hand.querySelector(".drawn-gap");
    if (!hand._sorted) hand._sorted = handTiles(hand);  // the server's order, for switching back
    if (sortOn()) {
      handOrder = null;
      hand._sorted.forEach(function (t) { if (t.parentNode === hand) hand.appendChild(t); });
      if (gap && gap.nextElementSibling) hand.insertBefore(gap, hand.lastElementChild);
      return;
    }
    var drawn = gap ? gap.nextElementSibling : null;
    if (handOrder) {
      var pool = handTiles(hand).filter(function (t) { return t !== drawn; });
      var placed = [];
      handOrder.forEach(function (name) {
        for (var i = 0; i < pool.length; i++) {
          if (pool[i].getAttribute("data-tile") === name) { placed.push(pool.splice(i, 1)[0]); return; }
        }
      });
      placed.concat(pool).forEach(function (t) { hand.insertBefore(t, gap); });
    }
    handOrder = handTiles(hand).map(function (t) { return t.getAttribute("data-tile"); });
  }
  function moveInHand(tile, evt) {
    var hand = tile.closest(".hand");
    var target = document.elementsFromPoint(evt.clientX, evt.clientY).map(function (el) {
      return el.closest && el.closest(".hand-tile");
    }).filter(function (el) { return el && el !== tile && hand.contains(el); })[0];
    if (!target) return;
    var r = target.getBoundingClientRect();
    hand.insertBefore(tile, evt.clientX < r.left + r.width / 2 ? target : target.nextSibling);
    handOrder = handTiles(hand).map(function (t) { return t.getAttribute("data-tile"); });
  }

  // --- keyboard: P/C/K/H press 碰/吃/杠/胡 when offered, Esc passes, ? shows the keys -------
  var HOTKEYS = { p: ".type-pong", c: ".type-chi", k: ".type-kong", h: ".type-win", escape: ".type-pass" };

  function typing(el) {
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
  }

  function toggleHelp(show) {
    var help = document.getElementById("keys-help");
    if (!help) return;
    if (show === undefined) show = help.hidden;
    help.hidden = !show;
    if (show) help.querySelector("button").focus();
  }

  document.addEventListener("keydown", function (evt) {
    if (evt.ctrlKey || evt.metaKey || evt.altKey || typing(evt.target)) return;
    var key = evt.key.toLowerCase();
    if (key === "?") { toggleHelp(); evt.preventDefault(); return; }
    var help = document.getElementById("keys-help");
    if (key === "escape" && help && !help.hidden) { toggleHelp(false); evt.preventDefault(); return; }
    var selector = HOTKEYS[key];
    if (selector) {
      // Only buttons the server offered (they carry an entry of `legal`): several chi runs →
      // the first is focused, the player picks with ←/→ and Enter.
      var buttons = document.querySelectorAll("#prompt " + selector);
      if (!buttons.length) return;
      if (buttons.length > 1) buttons[0].focus(); else buttons[0].click();
      evt.preventDefault();
      return;
    }
    if ((evt.key === "ArrowLeft" || evt.key === "ArrowRight") &&
        !(document.activeElement && document.activeElement.closest && document.activeElement.closest(".hand, #prompt"))) {
      var first = document.querySelector(".hand.clickable button.hand-tile");  // your turn: into the hand
      if (first) { first.focus(); evt.preventDefault(); }
    }
  });
  document.addEventListener("keydown", function (evt) {  // ←/→ across several chi runs
    if (evt.key !== "ArrowLeft" && evt.key !== "ArrowRight") return;
    var current = document.activeElement;
    if (!current || !current.closest || !current.closest("#prompt")) return;
    var buttons = Array.prototype.slice.call(document.querySelectorAll("#prompt button"));
    var i = buttons.indexOf(current) + (evt.key === "ArrowRight" ? 1 : -1);
    if (i >= 0 && i < buttons.length) { buttons[i].focus(); evt.preventDefault(); }
  });
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest("[data-keys-help]")) toggleHelp();
  });

  // --- sound: your turn, a discard, a claim offered, a win, the timer's last 3 s -----------
  // Muted by default for spectators; the switch is remembered per browser (localStorage).
  var SOUND_DIR = document.currentScript ? document.currentScript.src.replace(/board\.js.*$/, "sounds/") : "";
  var sounds = {};
  var before = null;

  function soundOn() {
    var saved = null;
    try { saved = localStorage.getItem("mahjong-sound"); } catch (e) { /* private mode */ }
    if (saved !== null) return saved === "on";
    var board = document.getElementById("board");
    return !(board && board.classList.contains("spectating"));
  }

  function play(name) {
    if (!soundOn() || !SOUND_DIR) return;
    var audio = sounds[name] || (sounds[name] = new Audio(SOUND_DIR + name + ".wav"));
    try { audio.currentTime = 0; var p = audio.play(); if (p && p.catch) p.catch(function () {}); } catch (e) { /* no audio */ }
  }

  function showSoundSwitch() {
    document.querySelectorAll("[data-sound-switch]").forEach(function (el) {
      var on = soundOn();
      el.setAttribute("aria-pressed", on ? "true" : "false");
      var label = el.getAttribute(on ? "data-on" : "data-off");
      if (label) el.textContent = label;
    });
  }
  document.addEventListener("click", function (evt) {
    var el = evt.target.closest && evt.target.closest("[data-sound-switch]");
    if (!el) return;
    try { localStorage.setItem("mahjong-sound", soundOn() ? "off" : "on"); } catch (e) { /* private mode */ }
    showSoundSwitch();
  });

  function snapshotBoard() {
    var board = document.getElementById("board");
    var settlement = document.getElementById("settlement");
    return {
      myTurn: !!(board && board.classList.contains("my-turn")),
      river: document.querySelectorAll(".river .tile").length,
      claim: document.querySelectorAll("#prompt .type-pong, #prompt .type-chi, #prompt .type-kong, #prompt .type-win").length,
      won: !!(settlement && !settlement.hidden && settlement.querySelector(".winner")),
    };
  }

  function soundsForFrame() {
    var now = snapshotBoard();
    if (before) {
      if (now.won && !before.won) play("win");
      else if (now.claim && !before.claim) play("claim");
      else if (now.myTurn && !before.myTurn) play("turn");
      else if (now.river > before.river) play("discard");
    }
    before = now;
    showSoundSwitch();
  }
  document.addEventListener("htmx:wsAfterMessage", soundsForFrame);
  document.addEventListener("DOMContentLoaded", soundsForFrame);

  var lastTick = null;
  setInterval(function () {  // the last 3 s of your own timer
    var mine = document.querySelector(".countdown.mine strong");
    var left = mine ? parseInt(mine.textContent, 10) : NaN;
    if (left >= 1 && left <= 3 && left !== lastTick) play("tick");
    lastTick = left;
  }, 250);

  // --- auto-pass / auto-win: the player's own standing choices, remembered per browser -------
  // They press the same buttons the player would (rendered from `legal`), nothing else.
  function autoOn(kind) {
    try { return localStorage.getItem("mahjong-auto-" + kind) === "on"; } catch (e) { return false; }
  }
  function showAutoSwitches() {
    document.querySelectorAll("input[data-auto]").forEach(function (box) {
      var kind = box.getAttribute("data-auto");
      box.checked = kind === "sort" ? sortOn() : autoOn(kind);
    });
  }
  document.addEventListener("change", function (evt) {
    var box = evt.target;
    if (!box.matches || !box.matches("input[data-auto]")) return;
    try { localStorage.setItem("mahjong-auto-" + box.getAttribute("data-auto"), box.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    if (box.getAttribute("data-auto") === "sort") { handOrder = null; arrangeHand(); }
    autoAnswer();
  });
  function autoAnswer() {
    var win = document.querySelector("#prompt .type-win");
    if (win && autoOn("win")) { win.click(); return; }
    var claims = document.querySelectorAll("#prompt .type-pong, #prompt .type-chi, #prompt .type-kong");
    var pass = document.querySelector("#prompt .type-pass");
    if (pass && !win && claims.length && autoOn("pass")) pass.click();
  }
  document.addEventListener("htmx:wsAfterMessage", function () { showAutoSwitches(); afterFrame(); autoAnswer(); });
  document.addEventListener("DOMContentLoaded", function () { showAutoSwitches(); afterFrame(); });
})();

/* The chat box empties once its line is sent (htmx's hx-on would need eval, which the CSP forbids). */
document.addEventListener("htmx:wsAfterSend", function (evt) {
  var form = evt.target && evt.target.closest && evt.target.closest(".chat-form");
  if (form) form.reset();
});

/* The drawer (chat, invite link, switches) on narrow screens: a button opens it over the board and
   another closes it; a chat line arriving while it is shut marks the button (•). Wide screens
   show it as a column, so nothing here changes what they see. */
(function () {
  "use strict";
  var seenLines = null;
  function page() { return document.getElementById("table-root"); }
  function setOpen(open) {
    var root = page();
    if (!root) return;
    root.classList.toggle("drawer-open", open);
    document.querySelectorAll("[data-drawer][aria-controls]").forEach(function (b) {
      if (b.classList.contains("drawer-toggle")) b.setAttribute("aria-expanded", open ? "true" : "false");
    });
    var toggle = root.querySelector(".drawer-toggle");
    if (open) {
      var unread = toggle && toggle.querySelector(".unread");
      if (unread) unread.hidden = true;
      var close = root.querySelector(".drawer-close");
      if (close && getComputedStyle(close).display !== "none") close.focus();
    } else if (toggle && getComputedStyle(toggle).display !== "none") {
      toggle.focus();
    }
  }
  document.addEventListener("click", function (evt) {
    var b = evt.target.closest && evt.target.closest("[data-drawer]");
    if (!b) return;
    var root = page();
    setOpen(!(root && root.classList.contains("drawer-open")));
  });
  document.addEventListener("keydown", function (evt) {
    var root = page();
    if (evt.key === "Escape" && root && root.classList.contains("drawer-open")) { setOpen(false); evt.stopPropagation(); }
  }, true);
  document.addEventListener("htmx:wsAfterMessage", function () {
    var root = page();
    var lines = document.querySelectorAll("#chat-log .chat-line").length;
    if (seenLines !== null && lines > seenLines && root && !root.classList.contains("drawer-open")) {
      var unread = root.querySelector(".drawer-toggle .unread");
      if (unread) unread.hidden = false;
    }
    seenLines = lines;
  });
})();

/* The table said aloud: after each frame, what changed (a discard, a meld claimed, a prompt
   offered, your turn and the tile you drew, whose turn, the settlement) is added as a line to
   the page's aria-live log, in the page's language (the sentences come translated from the
   template's data attributes, {name} marking a value; tile names from the tiles' own alt text). Only what this viewer's
   board shows is read, so nothing hidden can be said. */
(function () {
  "use strict";
  var before = null;

  function say(text) {
    var log = document.getElementById("table-announcer");
    if (!log || !text) return;
    var line = document.createElement("p");
    line.textContent = text;
    log.appendChild(line);
    while (log.children.length > 8) log.removeChild(log.firstChild);
  }
  function fill(template, values) {
    return (template || "").replace(/\{(\w+)\}/g, function (_, key) { return values[key] || ""; });
  }
  function text(el) { return el ? el.textContent.replace(/\s+/g, " ").trim() : ""; }
  function tileName(el) { var img = el && el.querySelector("img"); return img ? img.alt : ""; }
  function seatName(seat, words) {
    if (!seat) return "";
    if (seat.classList.contains("me")) return words.you;
    return (text(seat.querySelector(".plate .wind")) + " " + text(seat.querySelector(".plate .name"))).trim();
  }

  function snapshot() {
    var board = document.getElementById("board");
    if (!board) return null;
    var rivers = {}, melds = {};
    board.querySelectorAll(".river").forEach(function (r) {
      var pos = (r.className.match(/pos-(\w+)/) || [])[1];
      rivers[pos] = r.querySelectorAll(".tile").length;
    });
    board.querySelectorAll(".seat[data-seat]").forEach(function (s) {
      melds[s.getAttribute("data-seat")] = s.querySelectorAll(".melds .meld").length;
    });
    var buttons = Array.prototype.map.call(document.querySelectorAll("#prompt button.act:not(.undo)"), function (b) {
      var tiles = Array.prototype.map.call(b.querySelectorAll(".tile"), tileName).join(" ");
      return (text(b) + (tiles ? " " + tiles : "")).trim();
    });
    var settlement = document.getElementById("settlement");
    var turn = board.querySelector(".info .whose-turn");
    return {
      hand: board.classList.contains("in-hand"),
      rivers: rivers,
      melds: melds,
      prompt: buttons.join(", "),
      myTurn: !!board.querySelector(".hand.clickable"),
      turn: text(turn),
      settled: !!(settlement && !settlement.hidden && settlement.classList.contains("shown")),
    };
  }

  function announce() {
    var log = document.getElementById("table-announcer");
    var now = snapshot();
    if (!log || !now) return;
    var words = log.dataset;
    var board = document.getElementById("board");
    if (before && now.hand && before.hand) {
      Object.keys(now.rivers).forEach(function (pos) {
        if (now.rivers[pos] > (before.rivers[pos] || 0)) {
          var river = board.querySelector(".river.pos-" + pos);
          var tiles = river.querySelectorAll(".tile");
          var seat = board.querySelector(".seat.pos-" + pos);
          say(fill(words.discarded, { who: seatName(seat, words), tile: tileName(tiles[tiles.length - 1]) }));
        }
      });
      Object.keys(now.melds).forEach(function (index) {
        if (now.melds[index] > (before.melds[index] || 0)) {
          var seat = board.querySelector('.seat[data-seat="' + index + '"]');
          var metas = seat.querySelectorAll(".melds .meld");
          var meld = metas[metas.length - 1];
          var kind = (meld.className.match(/kind-(\w+)/) || [])[1] || "";
          var word = /kong/.test(kind) ? words.kong : /pong/.test(kind) ? words.pong : /chi/.test(kind) ? words.chi : words.meld;
          var names = Array.prototype.map.call(meld.querySelectorAll(".tile"), tileName).join(", ");
          say(fill(words.melded, { who: seatName(seat, words), kind: word, tiles: names }));
        }
      });
    }
    if (now.myTurn && (!before || !before.myTurn)) {
      var drawn = board.querySelector(".drawn-gap + .hand-tile");
      say(words.yourTurn + (drawn ? " " + fill(words.drew, { tile: tileName(drawn) }) : ""));
    } else if (!now.myTurn && now.turn && (!before || before.turn !== now.turn) && !now.prompt) {
      say(now.turn);
    }
    if (now.prompt && (!before || before.prompt !== now.prompt)) say(fill(words.choices, { choices: now.prompt }));
    if (now.settled && (!before || !before.settled)) {
      var panel = document.getElementById("settlement");
      var mine = panel.querySelector("tr.you td.delta");
      say([text(panel.querySelector("h2")), text(panel.querySelector(".how")), mine ? words.you + " " + text(mine) : "",
           text(panel.querySelector(".continue-countdown"))].filter(Boolean).join(". "));
      // Continue takes the focus (Enter presses it) unless the player is typing in the chat
      var go = panel.querySelector("button.continue");
      var typing = document.activeElement && /^(INPUT|TEXTAREA)$/.test(document.activeElement.tagName);
      if (go && !typing) go.focus({ preventScroll: true });
    }
    before = now;
  }
  document.addEventListener("htmx:wsAfterMessage", announce);
  document.addEventListener("DOMContentLoaded", function () { before = snapshot(); });
})();

/* The settlement put aside: its button folds the panel into a bar under the board (the seats and
   their buttons free again; the heading, the notice and Continue stay) and unfolds it; so does
   Esc. Every frame re-renders the panel, so the choice is kept for that hand in this tab
   (sessionStorage, per table) and laid on each frame again. A hand's settlement starts as the
   server renders it: over the board, or already put aside for a visitor of a table waiting for
   players — which then stays put aside if they sit down. */
(function () {
  "use strict";
  function key(panel) { return "mahjong-settlement-" + panel.getAttribute("data-table"); }
  function remembered(panel) {
    try {
      var saved = JSON.parse(sessionStorage.getItem(key(panel)) || "null");
      return saved && saved.hand === panel.getAttribute("data-hand") ? saved.aside : null;
    } catch (e) { return null; }
  }
  function remember(panel, aside) {
    var choice = JSON.stringify({ hand: panel.getAttribute("data-hand"), aside: aside });
    try { sessionStorage.setItem(key(panel), choice); } catch (e) { /* private mode: this frame only */ }
  }
  function fold(panel, aside) {
    panel.classList.toggle("aside", aside);
    var button = panel.querySelector(".settle-toggle");
    if (!button) return;
    button.setAttribute("aria-expanded", aside ? "false" : "true");
    var label = button.getAttribute(aside ? "data-show" : "data-hide");
    if (label && button.textContent !== label) button.textContent = label;
  }
  function shownPanel() {
    var panel = document.getElementById("settlement");
    return panel && !panel.hidden && panel.classList.contains("shown") ? panel : null;
  }
  function apply() {
    var panel = shownPanel();
    if (!panel) return;
    var aside = remembered(panel);
    if (aside !== null) fold(panel, aside);
    else if (panel.classList.contains("aside")) remember(panel, true);
  }
  function toggle(panel) {
    var aside = !panel.classList.contains("aside");
    fold(panel, aside);
    remember(panel, aside);
  }
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest("#settlement .settle-toggle");
    if (button) toggle(button.closest("#settlement"));
  });
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Escape" || evt.defaultPrevented) return;
    var el = evt.target;
    if (el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT")) return;
    var panel = shownPanel();
    if (!panel || panel.classList.contains("aside") || document.querySelector("#prompt button")) return;
    toggle(panel);
    var button = panel.querySelector(".settle-toggle");
    if (button) button.focus({ preventScroll: true });
    evt.preventDefault();
  });
  document.addEventListener("htmx:wsAfterMessage", apply);
  document.addEventListener("DOMContentLoaded", apply);
})();
