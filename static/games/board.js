/* The few things htmx can't do on the board: countdown ticking, connection status,
   merging typed form fields into the action JSON, confirm prompts, keyboard moves
   across the hand and showing why a tile can't be discarded. No state lives here:
   every server frame re-renders the board. */
(function () {
  "use strict";

  var ticker = null;

  function startCountdowns() {
    var now = performance.now();
    document.querySelectorAll(".countdown[data-ms]").forEach(function (el) {
      var ms = parseInt(el.getAttribute("data-ms"), 10);
      if (!isNaN(ms)) el._end = now + ms;
    });
    if (!ticker) ticker = setInterval(tick, 250);
    tick();
  }

  function tick() {
    var now = performance.now();
    var any = false;
    document.querySelectorAll(".countdown[data-ms]").forEach(function (el) {
      if (el._end === undefined) return;
      any = true;
      var left = Math.max(0, Math.ceil((el._end - now) / 1000));
      var strong = el.querySelector("strong");
      if (strong && strong.textContent !== String(left)) strong.textContent = String(left);
      el.classList.toggle("urgent", left <= 5);
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

  document.addEventListener("htmx:wsOpen", function () { setConnection("open"); });
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
    if (root) root.setAttribute("data-synced", "1");  // the first frame since (re)connecting arrived
    if (leaving && leftTheTable() && root && root.getAttribute("data-lobby")) {
      window.location.assign(root.getAttribute("data-lobby"));
      return;
    }
    refresh();
  });
  document.addEventListener("DOMContentLoaded", refresh);

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
    if (box) box.textContent = tile.getAttribute("data-reason") || "";
  }
  document.addEventListener("mouseover", showReason);
  document.addEventListener("focusin", showReason);
  document.addEventListener("click", function (evt) {
    var tile = evt.target.closest && evt.target.closest(".hand-tile.disabled");
    if (tile) { showReason(evt); evt.preventDefault(); }
  });

  // Arrow keys move along the hand; Enter or Space discards (native button behaviour).
  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "ArrowLeft" && evt.key !== "ArrowRight") return;
    var current = document.activeElement;
    if (!current || !current.classList.contains("hand-tile")) return;
    var tiles = Array.prototype.slice.call(current.closest(".hand").querySelectorAll("button.hand-tile"));
    var i = tiles.indexOf(current) + (evt.key === "ArrowRight" ? 1 : -1);
    if (i >= 0 && i < tiles.length) { tiles[i].focus(); evt.preventDefault(); }
  });
})();
