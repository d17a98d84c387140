// recmem site: the verdict filter of a paper's claims and the copy buttons; no network, no libraries.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var filter = document.getElementById("verdict-filter");
  var table = document.getElementById("claims");
  var shown = document.getElementById("shown-count");
  function apply() {
    if (!filter || !table) { return; }
    var want = filter.value, n = 0, rows = table.querySelectorAll("tbody tr");
    rows.forEach(function (row) {
      var show = want === "all" || row.getAttribute("data-verdict") === want;
      row.hidden = !show;
      if (show) { n += 1; }
    });
    if (shown) { shown.textContent = n + " of " + rows.length + " claims"; }
  }
  if (filter) {
    var wanted = new URLSearchParams(window.location.search).get("verdict");
    if (wanted && filter.querySelector('option[value="' + wanted + '"]')) { filter.value = wanted; }
    filter.addEventListener("change", apply);
    apply();
  }
  document.querySelectorAll("button.copy").forEach(function (button) {
    button.addEventListener("click", function () {
      var code = button.parentElement.querySelector("pre");
      var text = code ? code.textContent : "";
      var done = function () { button.textContent = "copied"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { select(code); });
      } else { select(code); }
    });
  });
  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
});
