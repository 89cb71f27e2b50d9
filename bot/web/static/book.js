// Stepping through a book without reloading the page: the links of the
// list and of first/previous/next/last, and the arrow keys, fetch the
// step's JSON and show it in place; the address follows, so that back,
// forward and reload work. Without this script every link is a plain
// link to the step's own page, which is whole.
(function () {
  "use strict";
  var board = document.getElementById("board");
  var steps = document.getElementById("steps");
  if (!board || !steps || !window.fetch || !window.history || !history.pushState) return;
  var full = document.getElementById("full");
  var told = document.getElementById("told");
  var base = location.pathname.replace(/step\/\d+$/, "");
  var ids = ["first", "prev", "next", "last"];
  var current = null;
  var keys = document.getElementById("keys");
  if (keys) keys.hidden = false;

  function stepOf(href) {
    var m = /\/step\/(\d+)$/.exec(new URL(href, location.href).pathname);
    return m ? Number(m[1]) : 0;
  }

  function setLink(id, n, here) {
    var a = document.getElementById(id);
    if (!a) return;
    if (n && n !== here) {
      a.href = base + "step/" + n;
      a.removeAttribute("role");
      a.removeAttribute("aria-disabled");
    } else {
      a.removeAttribute("href");
      a.setAttribute("role", "link");
      a.setAttribute("aria-disabled", "true");
    }
  }

  function show(s) {
    current = s;
    if (s.picture) {
      board.src = s.picture;
      if (s.width) board.width = s.width;
      if (s.height) board.height = s.height;
      full.href = s.picture;
      full.hidden = false;
    } else {
      full.hidden = true;
    }
    board.alt = s.alt;
    told.textContent = "";
    var head = document.createElement("p");
    head.className = "meta";
    head.textContent = "Step " + s.n;
    told.appendChild(head);
    var lines = s.lines.length ? s.lines : [null];
    lines.forEach(function (line) {
      var p = document.createElement("p");
      if (line === null) {
        p.className = "meta";
        p.textContent = "This step told the table nothing in public.";
      } else {
        p.textContent = line;
      }
      told.appendChild(p);
    });
    setLink("first", s.first, s.n);
    setLink("prev", s.prev, 0);
    setLink("next", s.next, 0);
    setLink("last", s.last, s.n);
    var was = steps.querySelector("a[aria-current]");
    if (was) was.removeAttribute("aria-current");
    var item = document.getElementById("s" + s.n);
    if (item) {
      var a = item.querySelector("a");
      if (a) a.setAttribute("aria-current", "step");
      reveal(item);
    }
    document.title = s.title;
    // The next picture is asked for now, so that the next step shows at
    // once.
    if (s.next) new Image().src = base + "step/" + s.next + ".png";
  }

  // reveal scrolls the list, when it scrolls by itself (beside the
  // board on a wide screen), to show item; the page itself stays.
  function reveal(item) {
    var story = item.closest(".story");
    if (!story || story.scrollHeight <= story.clientHeight) return;
    var top = item.getBoundingClientRect().top - story.getBoundingClientRect().top + story.scrollTop;
    if (top < story.scrollTop || top + item.offsetHeight > story.scrollTop + story.clientHeight) {
      story.scrollTop = Math.max(0, top - (story.clientHeight - item.offsetHeight) / 2);
    }
  }

  var marked = steps.querySelector("a[aria-current]");
  if (marked) reveal(marked.closest("li"));

  function go(n, push) {
    return fetch(base + "step/" + n + ".json", { headers: { Accept: "application/json" } })
      .then(function (r) {
        if (!r.ok) throw new Error(r.status);
        return r.json();
      })
      .then(function (s) {
        show(s);
        if (push) history.pushState({ n: s.n }, "", s.url);
      })
      .catch(function () { location.href = base + "step/" + n; });
  }

  document.addEventListener("click", function (e) {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var a = e.target.closest && e.target.closest("a[href]");
    if (!a || a.id === "full" || a.id === "export") return;
    if (!steps.contains(a) && ids.indexOf(a.id) < 0) return;
    var n = stepOf(a.href);
    if (!n) return;
    e.preventDefault();
    go(n, true);
  });

  document.addEventListener("keydown", function (e) {
    if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || e.shiftKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var s = current;
    var to = 0;
    if (e.key === "ArrowRight") to = s ? s.next : linked("next");
    else if (e.key === "ArrowLeft") to = s ? s.prev : linked("prev");
    else return;
    if (!to) return;
    e.preventDefault();
    go(to, true);
  });

  function linked(id) {
    var a = document.getElementById(id);
    return a && a.getAttribute("href") ? stepOf(a.href) : 0;
  }

  window.addEventListener("popstate", function () {
    var n = stepOf(location.href);
    if (n) go(n, false);
    else location.reload();
  });
})();
