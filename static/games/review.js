// 复盘 Review beside the replay: the decision of the step shown, its tiles marked on the hand.
// Loaded before replay.js, which announces every step it shows ("replay-step"). No build step.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var marksNode = document.getElementById("review-marks");
  if (!root || !marksNode) return;
  var marks = JSON.parse(marksNode.textContent);
  var steps = Object.keys(marks).map(Number).sort(function (a, b) { return a - b; });
  var none = document.getElementById("review-none");
  var shown = 0;

  function markTile(seatBox, tile, cls) {
    if (!seatBox || !tile) return;
    var candidates = seatBox.querySelectorAll(".open-hand .tile");
    for (var i = candidates.length - 1; i >= 0; i--) {  // the drawn tile sits last: prefer it
      var img = candidates[i].querySelector("img");
      if (img && img.alt === tile) { candidates[i].classList.add(cls); return; }
    }
  }

  function show(step) {
    shown = step;
    var mark = marks[String(step)];
    root.querySelectorAll(".review-decision").forEach(function (node) {
      node.hidden = Number(node.dataset.step) !== step;
    });
    none.hidden = !!mark;
    if (!mark) return;
    var seatBox = root.querySelector('.replay-seat[data-seat="' + mark.seat + '"]');
    markTile(seatBox, mark.recommended, "recommended");
    markTile(seatBox, mark.played, "played");
  }

  function goTo(step) {
    if (step === undefined) return;
    location.hash = "#" + step;  // replay.js moves the board to it
  }

  root.querySelectorAll("[data-decision]").forEach(function (button) {
    button.addEventListener("click", function () {
      if (button.dataset.decision === "next") {
        goTo(steps.filter(function (s) { return s > shown; })[0]);
      } else {
        goTo(steps.filter(function (s) { return s < shown; }).pop());
      }
    });
  });
  root.addEventListener("replay-step", function (e) { show(e.detail.step); });
})();
