// The create-table form: a timer preset fills the two timer fields it stands for, and typing
// other timers switches the preset to "Custom" (no build step; the server applies the same rule).
(function () {
  "use strict";
  var preset = document.getElementById("id_timer");
  var turn = document.getElementById("id_turn_seconds");
  var claim = document.getElementById("id_claim_seconds");
  if (!preset || !turn || !claim) return;
  var presets = JSON.parse(preset.dataset.presets || "{}");

  function fill() {
    var pair = presets[preset.value];
    if (!pair) return;  // custom: the fields as typed
    turn.value = String(pair[0]);
    claim.value = String(pair[1]);
  }

  function typed() {
    var pair = presets[preset.value];
    if (pair && (Number(turn.value) !== pair[0] || Number(claim.value) !== pair[1])) preset.value = "custom";
  }

  preset.addEventListener("change", fill);
  turn.addEventListener("input", typed);
  claim.addEventListener("input", typed);
  fill();
})();
