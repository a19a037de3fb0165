// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";

  function announce(text) {
    var status = document.querySelector(".copy-status");
    if (status) { status.textContent = text; }
  }

  function textOf(element) {
    return element.value !== undefined && element.tagName === "INPUT" ? element.value : element.textContent;
  }

  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "absolute";
    area.style.left = "-9999px";
    document.body.appendChild(area);
    area.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    document.body.removeChild(area);
    return done;
  }

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var target = document.getElementById(button.getAttribute("data-copy"));
    if (!target) { return; }
    button.hidden = false;
    var label = button.innerHTML;
    button.addEventListener("click", function () {
      var text = textOf(target);
      var copied = function () {
        button.textContent = "Copied";
        announce("Copied to the clipboard.");
        window.setTimeout(function () { button.innerHTML = label; }, 2000);
      };
      var failed = function () { announce("Copying failed: select the text and copy it by hand."); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(copied, function () {
          if (fallbackCopy(text)) { copied(); } else { failed(); }
        });
      } else if (fallbackCopy(text)) {
        copied();
      } else {
        failed();
      }
    });
  });

  // Destructive forms ask first. htmx forms ask through hx-confirm, which htmx shows itself; the
  // others through data-confirm here. Without script the action goes ahead as the button says.
  document.querySelectorAll("form[data-confirm]:not([hx-confirm])").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
    });
  });

  // At phone width the note filters fold away until asked for (or while one is in use), so the
  // notes come first; wider screens and no-script browsers keep them open.
  if (window.matchMedia("(max-width: 640px)").matches) {
    document.querySelectorAll("details.more-filters:not([data-active])").forEach(function (details) {
      details.open = false;
    });
  }

  // The team switcher submits on change; its button stays for keyboards and no-script browsers.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
})();
