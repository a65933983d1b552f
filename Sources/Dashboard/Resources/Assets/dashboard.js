// Live updates of the dashboard's pages, from the server-sent events of /events: runs that start
// or end appear in the runs tables and change there, the last day's counts follow, the
// overview's automations show how their latest run went, and an open run's page shows its trace
// when it ends. Without this script (or EventSource) every page still works, without updates.
// Every value is written as text (textContent), never as HTML.
"use strict";

(function () {
  const live = document.body.dataset.live;
  if (!live || !("EventSource" in window)) {
    return;
  }
  const statusLine = document.getElementById("live-status");
  const say = (text) => {
    if (statusLine) {
      statusLine.textContent = text;
    }
  };

  function matches(table, run) {
    const status = table.dataset.filterStatus;
    const trigger = table.dataset.filterTrigger;
    const workflow = (table.dataset.filterWorkflow || "").toLowerCase();
    if (status && run.status !== status) {
      return false;
    }
    if (trigger && run.trigger !== trigger) {
      return false;
    }
    if (workflow) {
      const names = [run.workflow, run.workflowFile, run.name || ""].map((name) => name.toLowerCase());
      if (!names.includes(workflow)) {
        return false;
      }
    }
    return true;
  }

  function fill(row, run) {
    row.dataset.runId = run.id;
    row.dataset.workflow = run.workflow;
    row.dataset.workflowFile = run.workflowFile;
    row.dataset.name = run.name || "";
    row.dataset.trigger = run.trigger;
    for (const element of row.querySelectorAll("[data-field]")) {
      const field = element.dataset.field;
      if (field === "href") {
        element.setAttribute("href", run.href);
      } else if (field === "status") {
        element.textContent = run.status;
        element.className = "badge status-" + run.status;
      } else if (field === "started") {
        element.textContent = run.started;
        element.setAttribute("datetime", run.startedISO);
      } else if (field in run) {
        element.textContent = run[field];
      }
    }
    row.classList.remove("changed");
    void row.offsetWidth;
    row.classList.add("changed");
  }

  function updateTables(run) {
    const template = document.getElementById("run-row-template");
    for (const table of document.querySelectorAll("table[data-live-runs]")) {
      const body = table.tBodies[0];
      const existing = body.querySelector('tr[data-run-id="' + CSS.escape(run.id) + '"]');
      if (existing) {
        fill(existing, run);
        continue;
      }
      if (!("takesNewRuns" in table.dataset) || !template || !matches(table, run)) {
        continue;
      }
      const row = template.content.querySelector("tr").cloneNode(true);
      fill(row, run);
      body.insertBefore(row, body.firstElementChild);
      const limit = Number(table.dataset.limit || "0");
      while (limit > 0 && body.rows.length > limit) {
        body.deleteRow(body.rows.length - 1);
      }
      for (const empty of document.querySelectorAll("[data-empty-runs]")) {
        empty.remove();
      }
    }
  }

  function updateAutomations(run) {
    if (run.trigger !== "automation" || run.status === "running") {
      return;
    }
    for (const row of document.querySelectorAll('table.automations tr[data-workflow-file="' + CSS.escape(run.workflowFile) + '"]')) {
      const cell = row.querySelector('[data-field="lastStatus"]');
      if (!cell) {
        continue;
      }
      const badge = document.createElement("span");
      badge.className = "badge status-" + run.status;
      badge.textContent = run.status;
      const link = document.createElement("a");
      link.href = run.href;
      link.textContent = "trace";
      cell.replaceChildren(badge, " ", link);
      row.classList.toggle("failing", run.status === "failed" || run.status === "interrupted");
    }
  }

  async function updateRunPage(run) {
    if (document.body.dataset.runId !== run.id) {
      return;
    }
    const details = document.getElementById("run-details");
    if (!details) {
      return;
    }
    if (run.status === "running") {
      return;
    }
    const response = await fetch(run.href + "/details", { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!response.ok) {
      return;
    }
    const fragment = document.createRange().createContextualFragment(await response.text());
    details.replaceChildren(fragment);
    say("The run ended: " + run.status + ".");
  }

  function updateCounts(summary) {
    for (const count of summary.counts) {
      for (const element of document.querySelectorAll('[data-status-count="' + CSS.escape(count.status) + '"]')) {
        element.textContent = String(count.count);
      }
    }
  }

  const events = new EventSource("/events");
  events.addEventListener("open", () => say("Live updates on."));
  events.addEventListener("error", () => say("Live updates paused: reconnecting…"));
  events.addEventListener("run", (event) => {
    const run = JSON.parse(event.data);
    updateTables(run);
    updateAutomations(run);
    updateRunPage(run).catch(() => say("The run ended; reload the page to see its trace."));
  });
  events.addEventListener("summary", (event) => updateCounts(JSON.parse(event.data)));
})();
