// Draws the report from the JSON data in #aguify-data. No network, no dependencies.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("aguify-data").textContent);
  var app = document.getElementById("app");

  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (!Object.prototype.hasOwnProperty.call(attrs, k) || attrs[k] == null) continue;
        if (k === "class") el.className = attrs[k];
        else if (k === "text") el.textContent = attrs[k];
        else if (k.slice(0, 2) === "on") el.addEventListener(k.slice(2), attrs[k]);
        else el.setAttribute(k, attrs[k]);
      }
    }
    for (var i = 2; i < arguments.length; i++) add(el, arguments[i]);
    return el;
  }
  function add(el, c) {
    if (c == null || c === false) return;
    if (Array.isArray(c)) { c.forEach(function (x) { add(el, x); }); return; }
    el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
  function ms(d) {
    if (d == null) return "";
    if (Math.abs(d) < 1000) return d + "ms";
    return (d / 1000).toFixed(3) + "s";
  }
  function plural(n, w) { return n + " " + w + (n === 1 ? "" : "s"); }
  function bytes(n) {
    if (n < 1024) return n + " B";
    if (n < 1 << 20) return (n / 1024).toFixed(1) + " KiB";
    return (n / 1048576).toFixed(1) + " MiB";
  }

  // A clipped text: the text, and a note when the report left part of it out.
  function clipNote(c) {
    return c && c.more ? h("div", { class: "cut", text: "… " + (c.json && c.more === 1 ? "more" : bytes(c.more) + " more") + " not in the report (size bound)" }) : null;
  }
  // A payload: pretty JSON (or text) folded past 16 lines.
  function block(c) {
    if (!c || c.text === "") return null;
    var lines = c.text.split("\n").length;
    var pre = h("pre", { class: lines > 16 ? "folded" : null, text: c.text });
    var out = [pre];
    if (lines > 16) {
      out.push(h("button", {
        class: "more", type: "button", text: "show all " + lines + " lines",
        onclick: function (e) {
          pre.classList.toggle("folded");
          e.target.textContent = pre.classList.contains("folded") ? "show all " + lines + " lines" : "fold";
        }
      }));
    }
    out.push(clipNote(c));
    return out;
  }

  function finding(f) {
    var rule = data.rules[f.rule] || {};
    return h("div", { class: "finding " + f.severity },
      h("span", { class: "badge sev-" + f.severity, text: f.rule }), " ",
      h("b", { text: rule.title || "" }), " ", f.message,
      f.ids && f.ids.length ? h("span", { class: "muted", text: " [" + f.ids.join(", ") + "]" }) : null,
      h("span", { class: "muted mono", text: "  " + f.at + (f.event != null ? " · event #" + f.event : "") }),
      rule.explanation ? h("details", null, h("summary", { text: "why and how to fix" }),
        h("p", { text: rule.explanation }), h("p", null, h("b", { text: "Fix: " }), rule.fix),
        h("p", { class: "muted", text: "Spec: " + rule.spec })) : null);
  }

  // `file:line` as `:line` within the run's own file.
  function short(at, file) {
    return at && at.slice(0, file.length + 1) === file + ":" ? at.slice(file.length) : at;
  }

  function runLink(n) { return h("a", { href: "#run-" + n, text: "run " + n }); }

  var titles = {
    user: "User", assistant: "Assistant", reasoning: "Reasoning", tool: "Tool call",
    interrupt: "Interrupt", resume: "Resume", error: "Run error", state: "State", step: "Node",
    custom: "Custom event", bad: "Unreadable line", other: "Event", end: "Run ended", fold: "Folded"
  };

  function item(it, i, run) {
    var top = h("div", { class: "top" },
      h("span", { class: "who", text: titles[it.kind] || it.kind }),
      it.name ? h("span", { text: it.name }) : null,
      it.status ? h("span", { class: "cut", text: it.status }) : null,
      it.durMs != null ? h("span", { text: ms(it.durMs) }) : null,
      h("span", { class: "at mono", title: it.at, text: (it.ms != null ? "+" + ms(it.ms) + "  " : "") + short(it.at, run.file) }));
    var body = [];
    switch (it.kind) {
      case "user": case "assistant":
        body.push(h("div", { class: "msg", text: it.text ? it.text.text : "" }), clipNote(it.text));
        break;
      case "reasoning":
        body.push(h("details", null,
          h("summary", { text: (it.text ? it.text.text.length : 0) + " chars of reasoning" }),
          h("div", { class: "msg", text: it.text ? it.text.text : "" }), clipNote(it.text)));
        break;
      case "tool":
        if (it.id) top.appendChild(h("span", { class: "mono", text: it.id }));
        body.push(h("div", { class: "muted", text: "arguments" }), block(it.args) || h("div", { class: "pending", text: "(none)" }));
        body.push(h("div", { class: "muted", text: "result" }), block(it.result) || h("div", { class: "pending", text: "(no result)" }));
        break;
      case "interrupt":
        body.push(it.text ? h("div", { class: "msg", text: it.text.text }) : null, block(it.args));
        body.push(h("div", null, it.link ? ["answered by the resume of ", runLink(it.link)] : h("span", { class: "muted", text: "not resumed in these inputs" })));
        break;
      case "resume":
        body.push(h("div", null, "answers interrupt ", h("code", { text: it.id || "?" }),
          it.link ? [" of ", runLink(it.link)] : h("span", { class: "muted", text: " (not among these inputs)" })));
        body.push(block(it.text));
        break;
      case "state":
        var n = it.changesTotal || 0;
        var sum = (it.text ? it.text.text : "") + (it.changes ? " · " + plural(n, "change") + (it.state ? " from the previous snapshot" : "") : it.state ? " · first snapshot" : "");
        var inner = [];
        if (it.changes && it.changes.length) {
          inner.push(h("ul", { class: "changes" }, it.changes.map(function (c) {
            return h("li", { class: "mono" }, h("span", { class: "op-" + c.op, text: c.op }), " " + c.path,
              c.value != null ? h("span", { class: "muted", text: " = " + c.value }) : null);
          })));
          if (n > it.changes.length) inner.push(h("div", { class: "muted", text: "… " + (n - it.changes.length) + " more changes" }));
        }
        if (it.state) inner.push(h("details", { class: "keep-closed" }, h("summary", { text: "state JSON" }), block(it.state)));
        body.push(inner.length ? h("details", null, h("summary", { text: sum }), inner) : h("div", { class: "muted", text: sum }));
        break;
      case "fold":
        body.push(h("div", { class: "muted", text: plural(it.count, "item") + " folded here to keep the report bounded (see `aguify timeline` for all)" }));
        break;
      case "custom":
        body.push(block(it.text));
        break;
      default:
        if (it.text) body.push(h("div", { class: "msg", text: it.text.text }), clipNote(it.text));
    }
    (it.findings || []).forEach(function (f) { body.push(finding(f)); });
    return h("div", { class: "item " + it.kind, id: "r" + run.n + "-i" + i }, top, body);
  }

  function ticks(axis) {
    var out = [];
    for (var k = 0; k <= 4; k++) {
      var v = Math.round(axis.end * k / 4);
      out.push(h("span", { style: "left:" + (k * 25) + "%", text: axis.unit === "ms" ? ms(v) : "#" + v }));
    }
    return out;
  }

  function lanes(run, d, detailBox) {
    var box = h("div", { class: "lanes" });
    var end = Math.max(d.axis.end, 1);
    d.lanes.forEach(function (lane) {
      var track = h("div", { class: "track" });
      lane.rows.forEach(function (row) {
        var r = h("div", { class: "row" });
        row.forEach(function (b) {
          var left = 100 * b.s / end, width = Math.max(100 * (b.e - b.s) / end, 0);
          var tip = b.label + " · " + b.info + " · " + b.at + (b.endAt ? " → " + b.endAt : "");
          var el = h("div", {
            class: "bar k-" + b.kind, title: tip,
            style: "left:" + left.toFixed(3) + "%;width:" + width.toFixed(3) + "%",
            text: width > 3 ? b.label : ""
          });
          el.addEventListener("click", function () {
            var prev = box.querySelector(".bar.sel");
            if (prev) prev.classList.remove("sel");
            el.classList.add("sel");
            detailBox.textContent = "";
            add(detailBox, [h("b", { text: b.label }), " · " + b.kind + " · " + b.info, h("br"),
              h("span", { class: "mono", text: (d.axis.unit === "ms" ? "+" + ms(b.s) + " → +" + ms(b.e) : "event #" + b.s + " → #" + b.e) + "   input " + b.at + (b.endAt ? " → " + b.endAt : "") })]);
            if (b.item != null) {
              add(detailBox, [" ", h("a", {
                href: "#r" + run.n + "-i" + b.item, text: "show in transcript",
                onclick: function () {
                  var t = document.getElementById("r" + run.n + "-i" + b.item);
                  if (t) { t.classList.add("hl"); setTimeout(function () { t.classList.remove("hl"); }, 1500); }
                }
              })]);
            }
          });
          r.appendChild(el);
        });
        track.appendChild(r);
      });
      box.appendChild(h("div", { class: "lane" }, h("div", { class: "lane-label", text: lane.label }), track));
    });
    box.appendChild(h("div", { class: "axis" }, h("div", { text: d.axis.unit === "ms" ? "time" : "event sequence" }), h("div", { class: "ticks" }, ticks(d.axis))));
    return box;
  }

  function diagnosis(x) {
    return h("div", { class: "diagnosis" },
      h("h3", { text: "Why it failed" }),
      h("p", null, h("b", { text: x.error.code }), x.error.name ? " (" + x.error.name + ")" : "", ": ", x.error.message),
      h("p", null, h("b", { text: "Likely cause: " }), x.cause),
      h("p", null, h("b", { text: "Fix: " }), x.hint),
      h("p", { class: "muted mono", text: "error carried by " + (x.error.carriedBy ? x.error.carriedBy.file + ":" + x.error.carriedBy.line : "no line (the input stops)") +
        (x.error.inputEndsAt ? " · input ends at " + x.error.inputEndsAt.file + ":" + x.error.inputEndsAt.line : "") }),
      x.nearestSignal ? h("p", null, h("b", { text: "Nearest sign before it: " }), x.nearestSignal.message, h("span", { class: "muted mono", text: "  " + x.nearestSignal.at.file + ":" + x.nearestSignal.at.line })) : null,
      x.open && x.open.length ? h("div", null, h("b", { text: "Open when it ended:" }), h("ul", null, x.open.map(function (o) {
        return h("li", null, o.kind + " " + (o.name || o.id || "") + ": " + o.state + (o.openMs != null ? " (" + ms(o.openMs) + ")" : ""), h("span", { class: "muted mono", text: "  since " + o.since.file + ":" + o.since.line }));
      }))) : null,
      x.lastRecords && x.lastRecords.length ? h("details", null, h("summary", { text: "last " + plural(x.lastRecords.length, "input record") + " before the error" }),
        h("table", null, x.lastRecords.map(function (r) {
          return h("tr", null, h("td", { class: "mono", text: r.at.file + ":" + r.at.line }), h("td", { text: r.summary }), h("td", { class: "muted", text: r.disposition }));
        }))) : null);
  }

  function header(run) {
    var o = run.outcome;
    var outcome = [h("span", { class: "badge " + o.kind, text: o.kind.replace("_", " ") })];
    if (o.interrupts) outcome.push(" " + o.interrupts.map(function (x) { return x[1] + " (" + x[0] + ")"; }).join(", "));
    if (o.code) outcome.push(" ", h("code", { text: o.code }));
    if (o.message) outcome.push(" " + o.message);
    if (o.pendingToolCalls) outcome.push(" · pending tool calls: " + o.pendingToolCalls.join(", "));
    var counts = plural(run.messages, "message") + " · " + plural(run.toolCalls, "tool call") + " · " + run.reasoning + " reasoning · " + plural(run.events, "event");
    var rows = [
      ["thread", run.thread || "—"], ["run", run.run || "—"], ["input", run.at + (o.at && o.at !== run.at ? " → " + o.at : "")],
      ["outcome", outcome], ["counts", counts],
      ["tokens", run.tokens ? run.tokens.total + " (" + run.tokens.input + " in, " + run.tokens.output + " out)" : "—"],
      ["duration", run.durationMs != null ? ms(run.durationMs) : "— (no timestamps)"]
    ];
    if (run.resumes) rows.push(["resumes", plural(run.resumes, "interrupt")]);
    if (run.errors || run.warnings) rows.push(["findings", plural(run.errors, "error") + ", " + plural(run.warnings, "warning")]);
    return h("dl", { class: "head" }, rows.map(function (r) { return [h("dt", { text: r[0] }), h("dd", null, r[1])]; }));
  }

  function runSection(run) {
    var failed = run.outcome.kind === "error" || run.outcome.kind === "no_terminal";
    var sec = h("section", { class: "run" + (failed ? " failed" : ""), id: "run-" + run.n },
      h("h2", null, "Run " + run.n, h("span", { class: "badge " + run.outcome.kind, text: run.outcome.kind.replace("_", " ") }),
        h("span", { class: "muted mono", text: run.file })));
    var body = h("div", { class: "body" });
    sec.appendChild(body);
    // Everything below the title is drawn when the run comes near the screen.
    sec._render = function () {
      if (sec._done) return;
      sec._done = true;
      if (run.diagnosis) body.appendChild(diagnosis(run.diagnosis));
      body.appendChild(header(run));
      var d = run.detail;
      if (!d) {
        body.appendChild(h("p", { class: "muted", text: "Lanes and transcript of this run are left out to keep the report under " + bytes(data.limits.maxBytes) + "; `aguify timeline` shows it whole." }));
        return;
      }
      var detailBox = h("div", { class: "bar-detail" });
      body.appendChild(h("h3", { text: "Where the time went" }));
      if (d.lanes.length) body.appendChild(lanes(run, d, detailBox)); else body.appendChild(h("p", { class: "muted", text: "(no events to draw)" }));
      body.appendChild(detailBox);
      body.appendChild(h("h3", { text: "Transcript" }));
      body.appendChild(h("div", { class: "transcript" }, d.items.map(function (it, i) { return item(it, i, run); })));
      if (d.snapshotsDropped) body.appendChild(h("p", { class: "muted", text: plural(d.snapshotsDropped, "state snapshot") + " of this run not kept (the first and last " + data.limits.maxSnapshots + " are)" }));
    };
    return sec;
  }

  function overview() {
    var out = [h("h1", { text: "aguify report" }),
      h("div", { class: "summary" },
        h("span", null, h("b", { text: data.inputs.join(", ") || "stdin" })),
        h("span", null, h("b", { text: String(data.runsTotal) }), " runs"),
        h("span", null, h("b", { text: String(data.errors) }), " errors, ", h("b", { text: String(data.warnings) }), " warnings"),
        data.badLines ? h("span", null, h("b", { text: String(data.badLines) }), " unreadable lines") : null,
        h("span", { text: data.generator }))];
    if (data.ruleCounts.length) {
      out.push(h("h3", { text: "Checker findings by rule" }), h("table", null,
        h("tr", null, h("th", { text: "rule" }), h("th", { text: "severity" }), h("th", { text: "findings" }), h("th", { text: "title" })),
        data.ruleCounts.map(function (c) {
          return h("tr", null, h("td", { class: "mono", text: c.rule }), h("td", null, h("span", { class: "badge sev-" + c.severity, text: c.severity })), h("td", { text: String(c.count) }), h("td", { text: c.title }));
        })));
    }
    if (data.looseFindings.length) {
      out.push(h("h3", { text: "Findings outside any run" }), data.looseFindings.slice(0, 200).map(finding));
    }
    if (data.runs.length > 1) {
      out.push(h("h3", { text: "Runs" }), h("table", null,
        h("tr", null, ["#", "outcome", "thread · run", "input", "events", "duration", "findings"].map(function (t) { return h("th", { text: t }); })),
        data.runs.map(function (r) {
          return h("tr", null, h("td", null, runLink(r.n)), h("td", null, h("span", { class: "badge " + r.outcome.kind, text: r.outcome.kind.replace("_", " ") })),
            h("td", { class: "mono", text: (r.thread || "—") + " · " + (r.run || "—") }), h("td", { class: "mono", text: r.at }),
            h("td", { text: String(r.events) }), h("td", { text: r.durationMs != null ? ms(r.durationMs) : "—" }),
            h("td", { text: r.errors || r.warnings ? r.errors + " E / " + r.warnings + " W" : "" }));
        })));
    }
    return out;
  }

  function footer() {
    var l = data.limits;
    return h("footer", { class: "muted" }, h("hr"),
      "Bounds: at most " + bytes(l.maxBytes) + " per report, " + l.maxRuns + " runs, " + l.maxItems + " transcript items and " +
      l.maxSnapshots + " state snapshots per run, " + l.maxRowBars + " bars per lane row (closer ones merged).",
      l.runsWithoutDetail ? " " + plural(l.runsWithoutDetail, "run") + " shown by header only." : "",
      data.runsOmitted ? " " + plural(data.runsOmitted, "run") + " past the first " + l.maxRuns + " left out." : "");
  }

  add(app, overview());
  var sections = data.runs.map(runSection);
  add(app, sections);
  add(app, footer());

  // Run details are drawn as they come near the screen; all of them before printing.
  function renderAll() { sections.forEach(function (s) { s._render(); }); }
  if ("IntersectionObserver" in window) {
    var io = new IntersectionObserver(function (list) {
      list.forEach(function (e) { if (e.isIntersecting) { e.target._render(); io.unobserve(e.target); } });
    }, { rootMargin: "1200px 0px" });
    sections.forEach(function (s) { io.observe(s); });
  } else {
    renderAll();
  }
  sections.slice(0, 3).forEach(function (s) { s._render(); });
  var opened = [];
  window.addEventListener("beforeprint", function () {
    renderAll();
    document.querySelectorAll(".transcript details:not([open]):not(.keep-closed), .diagnosis details:not([open])").forEach(function (d) { d.open = true; opened.push(d); });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
  // A hash link to a run not drawn yet.
  window.addEventListener("hashchange", function () {
    var m = /^#r(\d+)-i/.exec(location.hash) || /^#run-(\d+)/.exec(location.hash);
    if (m && sections[m[1] - 1]) sections[m[1] - 1]._render();
  });
  document.body.setAttribute("data-ready", "1");
})();
