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

  // Destructive forms ask first, in the page's native <dialog> (templates/base.html); confirming
  // adds confirmed=yes, without which the server answers with a confirmation page instead
  // (web/confirm.py), so the action is never one unconfirmed click away, script or not.
  var dialog = document.getElementById("confirm-dialog");

  function ask(form, proceed) {
    if (!dialog || typeof dialog.showModal !== "function") {
      if (window.confirm(form.getAttribute("data-confirm"))) { proceed(); }
      return;
    }
    dialog.querySelector(".confirm-question").textContent = form.getAttribute("data-confirm");
    dialog.querySelector(".confirm-detail").textContent = form.getAttribute("data-confirm-detail") || "";
    dialog.querySelector(".confirm-verb").textContent = form.getAttribute("data-confirm-verb") || "Confirm";
    dialog.returnValue = "";
    dialog.addEventListener("close", function () {
      if (dialog.returnValue === "confirm") { proceed(); }
    }, { once: true });
    dialog.showModal();
  }

  function markConfirmed(form) {
    if (form.querySelector("input[name=confirmed]")) { return; }
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "confirmed";
    input.value = "yes";
    form.appendChild(input);
  }

  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    if (form.hasAttribute("hx-post")) {
      // htmx's documented hook for a custom confirmation: hold the request, issue it when confirmed.
      form.addEventListener("htmx:confirm", function (event) {
        event.preventDefault();
        ask(form, function () { markConfirmed(form); event.detail.issueRequest(true); });
      });
      return;
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      ask(form, function () { markConfirmed(form); form.submit(); });
    });
  });


  // The team switcher submits on change; its button stays for keyboards and no-script browsers.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });
})();
