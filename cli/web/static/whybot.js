// whybot serve: small progressive enhancement. Every page works without it (plain forms);
// with it, the − / + buttons of a number step its field, "add a row" adds an entity row (or
// a card to a list of cards), a card the game knows hides the field for what a new card prints,
// and a form is not sent twice by a double tap.
(function () {
  "use strict";
  function step(button) {
    var input = document.getElementById(button.getAttribute("data-for"));
    if (!input) { return; }
    var by = Number(button.getAttribute("data-step"));
    var value = input.value === "" ? 0 : Number(input.value);
    var next = value + by;
    if (input.min !== "" && next < Number(input.min)) { next = Number(input.min); }
    if (input.max !== "" && next > Number(input.max)) { next = Number(input.max); }
    input.value = String(next);
    input.dispatchEvent(new Event("change"));
  }
  function addRow(button) {
    var table = document.getElementById(button.getAttribute("data-for"));
    if (!table) { return; }
    var body = table.tBodies ? table.tBodies[0] : table;  // a table's rows, or a list's items
    var template = body.children[body.children.length - 1];
    var copy = template.cloneNode(true);
    var index = body.children.length;
    copy.querySelectorAll("input, select").forEach(function (field) {
      field.name = field.name.replace(/\.\d+\./, "." + index + ".");
      if (field.id) { field.id = field.id.replace(/-\d+-/, "-" + index + "-"); }
      if (field.tagName === "INPUT") { field.value = ""; } else { field.selectedIndex = 0; }
    });
    copy.querySelectorAll("label[data-new-only]").forEach(function (l) { l.hidden = false; });
    body.appendChild(copy);
    var first = copy.querySelector("input, select");
    if (first) { first.focus(); }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step], button[data-add-row]");
    if (!button) { return; }
    event.preventDefault();
    if (button.hasAttribute("data-step")) { step(button); } else { addRow(button); }
  });
  function knownCard(select) {  // a card the game knows: what it prints is not asked
    var option = select.options[select.selectedIndex];
    var known = Boolean(option && option.hasAttribute("data-printed"));
    select.closest("li").querySelectorAll("label[data-new-only]").forEach(function (label) {
      label.hidden = known;
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("ol.picks select[name$='.card']")) { knownCard(event.target); }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.getAttribute("data-sent") === "1") { event.preventDefault(); return; }
    form.setAttribute("data-sent", "1");
  });
  window.addEventListener("pageshow", function () {  // back to a cached page: send again
    document.querySelectorAll("form[data-sent]").forEach(function (f) {
      f.removeAttribute("data-sent");
    });
  });
  document.querySelectorAll("button[data-step], button[data-add-row]").forEach(function (b) {
    b.hidden = false;
  });
}());
