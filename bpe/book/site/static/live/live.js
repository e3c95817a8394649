// The book's cells, run on the page. sphinx_extension.py puts a JSON document in
// #bpe-live-data: which cells have a Run button, the hidden cells they need, and why
// the others have none. This script adds the buttons, makes those cells editable, and
// runs them in the page's Python (worker.js, started when a Run or Check button comes
// into view or is pointed at, or on the first Run: startSoon). The cells above a cell
// run first, as in a notebook; its output appears under it, in an element marked
// data-live-output. On the console page (book/console.md) it runs the console; on the
// intro (DATA.progress_only) it only lends practice.js its helpers.
(() => {
  "use strict";
  const dataNode = document.getElementById("bpe-live-data");
  if (!dataNode) return;
  const DATA = JSON.parse(dataNode.textContent);
  const STATIC = new URL(DATA.static, document.baseURI);
  const URLS = {
    worker: new URL("live/worker.js", STATIC).href,
    pyodide: new URL("pyodide/", STATIC).href,
    archive: new URL("live/bpe-book.zip", STATIC).href,
    snapshot: new URL("live/python-snapshot.gz", STATIC).href, // archive.SNAPSHOT
  };
  const SIZE = `${DATA.megabytes.toLocaleString("en")} MB`;
  const KEEP = 1_000_000; // characters of one output kept on the page

  // The page's DOM helpers, which practice.js takes from window.bpeLive too.
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  // The page's title (not the print-only copy of it, which comes first in the page).
  const pageTitle = () => document.querySelector("article.bd-article h1") ?? document.querySelector("article h1");
  // Where the page's notices go: after the chapter's first paragraph, so that on a
  // phone the lesson's first sentence comes right under its title.
  const lessonStart = () => {
    let node = pageTitle();
    for (let next = node?.nextElementSibling; next; next = next.nextElementSibling) {
      if (next.tagName === "P") return next;
      if (/^H[1-6]$/.test(next.tagName) || next.querySelector?.(".cell")) break;
    }
    return node;
  };

  function button(text, className, title) {
    const node = element("button", `bpe-live-button ${className}`, text);
    node.type = "button";
    if (title) node.title = title;
    return node;
  }

  // ---- the worker -------------------------------------------------------------------
  class Python {
    constructor() {
      this.worker = null;
      this.ready = null;
      this.pending = new Map();
      this.nextId = 1;
      this.onStatus = () => {};
      this.onStop = () => {};
      this.facts = null;
      this.step = null; // the step of the start reached ({step, of, what}), while starting
    }

    get started() {
      return this.facts !== null;
    }

    start() {
      if (this.ready) return this.ready;
      this.ready = new Promise((resolve, reject) => {
        let worker;
        try {
          worker = new Worker(URLS.worker, { type: "module" });
        } catch (error) {
          reject(new Error(`${error.message} (the page's Python needs the site served over http)`));
          return;
        }
        this.worker = worker;
        worker.onmessage = ({ data }) => {
          if (data.type === "status") {
            this.step = data;
            this.onStatus(data);
          } else if (data.type === "ready") {
            this.facts = data;
            resolve(data);
          } else if (data.type === "failed") reject(new Error(data.error));
          else this.answer(data);
        };
        worker.onerror = (event) => {
          event.preventDefault();
          reject(new Error(event.message || "the page's Python could not start"));
        };
        const { pyodide, archive, snapshot } = URLS;
        worker.postMessage({ type: "start", pyodide, archive, snapshot });
      });
      this.ready.catch(() => this.stop());
      return this.ready;
    }

    answer(data) {
      const job = this.pending.get(data.id);
      if (!job) return;
      if (data.type === "stream") job.onEvent(data.kind, data.text);
      else if (data.type === "fatal") {
        const error = `The page's Python stopped working (${data.error}); the next Run starts it afresh.\n`;
        job.onEvent("error", error);
        this.pending.delete(data.id);
        job.resolve({ stdout: "", result: null, error, error_type: "a fatal error", seconds: 0 });
        this.stop();
        this.onStop();
      } else {
        this.pending.delete(data.id);
        job.resolve(data.type === "done" ? data.outcome : data.complete);
      }
    }

    async ask(message, onEvent = () => {}) {
      await this.start();
      const id = this.nextId++;
      return new Promise((resolve) => {
        this.pending.set(id, { resolve, onEvent });
        this.worker.postMessage({ ...message, id });
      });
    }

    // The outcome of running code ({stdout, result, error, ...}), or null if stopped.
    run(code, filename, onEvent) {
      return this.ask({ type: "run", code, filename }, onEvent);
    }

    isComplete(code) {
      return this.ask({ type: "complete", code });
    }

    // An exercise's verdict on the reader's code (bpe.book.practice.check_code).
    check(name, code) {
      return this.ask({ type: "check", name, code });
    }

    // Stop whatever runs: the worker is ended, and the next Run starts a new one.
    stop() {
      if (this.worker) this.worker.terminate();
      this.worker = null;
      this.ready = null;
      this.facts = null;
      this.step = null;
      this.onStatus = () => {}; // the next start's steps are not the stopped Run's to show
      for (const job of this.pending.values()) job.resolve(null);
      this.pending.clear();
    }
  }

  // ---- output -----------------------------------------------------------------------
  // Text arrives in small pieces; it is drawn once per frame, each kind in its own <pre>.
  class Output {
    constructor(box) {
      this.box = box;
      this.queue = [];
      this.scheduled = false;
    }

    clear() {
      this.box.replaceChildren();
      this.queue = [];
    }

    add(kind, text) {
      this.queue.push([kind, text]);
      if (!this.scheduled) {
        this.scheduled = true;
        requestAnimationFrame(() => this.flush());
      }
    }

    flush() {
      this.scheduled = false;
      if (!this.queue.length) return;
      for (const [kind, text] of this.queue) {
        if (kind === "html") {
          // A value with HTML of its own: a table the book's Python drew
          // (bpe.book.chapters.table.Table, every cell escaped there) or the merge explorer,
          // shown as the stored output shows it.
          const shown = element("div", "bpe-live-html");
          shown.innerHTML = text;
          this.box.append(shown);
          // Its scripts run, as Jupyter runs an output's (the merge explorer's, from
          // bpe.book.chapters.explorer): a script set through innerHTML never runs by itself.
          for (const old of shown.querySelectorAll("script")) {
            const script = document.createElement("script");
            script.textContent = old.textContent;
            old.replaceWith(script);
          }
          continue;
        }
        let last = this.box.lastElementChild;
        if (!last || last.dataset.kind !== kind || kind === "result" || kind === "error") {
          last = element("pre", `bpe-live-${kind}`);
          last.dataset.kind = kind;
          this.box.append(last);
        }
        last.append(text);
        last.length = (last.length ?? 0) + text.length;
        if (last.length > 2 * KEEP) {
          // A flood of output: keep its end, which is what the reader is waiting for
          // (cut to KEEP once it reaches twice that, so cutting costs little).
          const kept = last.textContent.slice(-KEEP);
          last.cut = (last.cut ?? 0) + last.length - KEEP;
          last.textContent = `… (${last.cut.toLocaleString("en")} characters left out)\n${kept}`;
          last.length = KEEP;
        }
      }
      this.queue = [];
      this.box.hidden = !this.box.firstChild;
    }
  }

  // ---- status -----------------------------------------------------------------------
  // One line per cell (or per console): what Python is doing, with a clock while it runs.
  class Status {
    constructor(node) {
      this.node = node;
      this.timer = null;
    }

    show(text) {
      this.stopClock();
      this.node.textContent = text;
    }

    running(text) {
      this.stopClock();
      const began = performance.now();
      const draw = () => {
        const seconds = Math.floor((performance.now() - began) / 1000);
        this.node.textContent = seconds >= 1 ? `${text}… ${seconds} s` : `${text}…`;
      };
      draw();
      this.timer = setInterval(draw, 500);
    }

    stopClock() {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
    }
  }

  const python = new Python();
  const exerciseCode = new Map(); // cell index -> the reader's code now (practice.js)
  // For the tests and the benchmark: what started (versions, seconds per phase); for
  // practice.js, the exercises' Check and their code, and the DOM helpers.
  window.bpeLive = {
    get python() {
      return python.facts;
    },
    check: (name, code, node) => checkExercise(name, code, node),
    exerciseCode,
    element,
    button,
    pageTitle,
    lessonStart,
  };
  let runs = 0; // the In [n] counter, as in Jupyter
  let busy = null; // the Status of what runs now, if anything
  const ran = new Set(); // cells run since Python started
  const listeners = new Set(); // called when busy changes or Python stops

  const changed = () => listeners.forEach((listener) => listener());

  function describe(outcome, seconds) {
    const took = seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(0);
    if (outcome.error) return `In [${runs}] · raised ${outcome.error_type} after ${took} s`;
    return `In [${runs}] · ran in ${took} s`;
  }

  // Until Python has started, `status` says which step of its start it is at, the
  // first of which is the download the first time; a start already under way (startSoon)
  // is joined where it is.
  function startingText(reached) {
    const download = `${SIZE} the first time`;
    if (!reached) return `starting Python (${download})`; // (before the worker's first word)
    const { step, of, what } = reached;
    return `starting Python ${step}/${of}: ${what}${step === 1 ? ` (${download})` : ""}`;
  }

  function sayStarting(status) {
    if (python.started) return;
    python.onStatus = (reached) => status.running(startingText(reached));
    status.running(startingText(python.step));
  }

  // Run code with status on `status` and output in `output`; the outcome, or null.
  async function execute(code, status, output, label) {
    sayStarting(status);
    try {
      await python.start();
    } catch (error) {
      status.show("Python could not start");
      output?.add("error", `The page's Python could not start: ${error.message}\n`);
      return null;
    }
    status.running(label);
    output?.clear();
    runs += 1;
    const began = performance.now();
    const outcome = await python.run(code, `<In [${runs}]>`, (kind, text) => output?.add(kind, text));
    output?.flush(); // all of it on the page before the status says it ran
    if (outcome) status.show(describe(outcome, (performance.now() - began) / 1000));
    return outcome;
  }

  python.onStop = () => {
    ran.clear();
    runs = 0;
  };

  // Stop and restart Python (the Stop and Restart buttons): a new one starts at once,
  // for the Run that is sure to follow, and the next Run reruns the cells above.
  function stop() {
    python.stop();
    ran.clear();
    runs = 0;
    if (busy) busy.show("stopped: Python was restarted, and the next Run runs the cells above again");
    busy = null;
    changed();
    python.start().catch(() => {}); // (a failed start is told by the next Run)
  }

  // ---- the chapter's cells ----------------------------------------------------------
  const cells = DATA.cells.map((cell) => ({ ...cell, node: document.getElementById(`cell-${cell.index}`) }));

  function codeOf(cell) {
    if (cell.exercise) return exerciseCode.get(cell.index)?.() ?? cell.source; // as edited
    if (!cell.live) return cell.imports; // a cell without a button: its imports only
    if (cell.source !== undefined) return cell.source;
    return cell.pre.innerText.replace(/\n$/, "");
  }

  function setUpLiveCell(cell) {
    const input = cell.node.querySelector(".cell_input");
    cell.pre = input.querySelector("pre");
    cell.original = codeOf(cell);
    cell.pre.contentEditable = "plaintext-only";
    if (cell.pre.contentEditable !== "plaintext-only") cell.pre.contentEditable = "true";
    cell.pre.spellcheck = false;
    cell.pre.setAttribute("aria-label", "code cell: edit, then run it with Shift+Enter");
    const bar = element("div", "bpe-live-bar");
    const run = button("▶ Run", "bpe-live-run", "Run this cell (Shift+Enter); the cells above run first");
    const halt = button("■ Stop", "bpe-live-stop", "Stop Python (it restarts on the next Run)");
    const reset = button("Reset", "bpe-live-reset", "Put the book's code and output back");
    const status = new Status(element("span", "bpe-live-status"));
    status.node.setAttribute("role", "status");
    halt.hidden = reset.hidden = true;
    bar.append(run, halt, reset, status.node);
    const box = element("div", "bpe-live-output");
    box.setAttribute("data-live-output", "");
    box.hidden = true;
    input.after(bar, box);
    Object.assign(cell, { bar, run, halt, reset, status, output: new Output(box), box });

    run.addEventListener("click", () => runCell(cell));
    halt.addEventListener("click", stop);
    reset.addEventListener("click", () => {
      cell.pre.textContent = cell.original;
      cell.output.clear();
      cell.box.hidden = true;
      showStored(cell, true);
      reset.hidden = true;
    });
    cell.pre.addEventListener("input", () => {
      reset.hidden = false;
    });
    cell.pre.addEventListener("keydown", (event) => {
      // Keys typed into code are the code's: the page's shortcuts ("/" for search) wait.
      event.stopPropagation();
      if (event.key === "Enter" && event.shiftKey) {
        event.preventDefault();
        runCell(cell);
      } else if (event.key === "Tab" && !event.shiftKey) {
        event.preventDefault(); // four spaces, as the book indents (Escape, then Tab, to move on)
        document.execCommand("insertText", false, "    ");
      } else if (event.key === "Escape") cell.pre.blur();
    });
    listeners.add(() => {
      run.disabled = busy !== null;
      halt.hidden = busy !== cell.status;
      if (!python.started && !busy) cell.node.classList.remove("bpe-live-ran");
    });
  }

  function showStored(cell, visible) {
    const stored = cell.node.querySelector(".cell_output");
    if (stored) stored.hidden = !visible;
  }

  // A reason as the end of a sentence (one cut short already ends in "…").
  // A reason that ends as a sentence ends (an error's own message may) gets no second stop.
  const sentence = (reason) => (/[.…?!]$/.test(reason) ? reason : `${reason}.`);

  function addNote(cell) {
    const input = cell.node?.querySelector(".cell_input");
    if (!input || !cell.reason) return;
    const note = element("p", "bpe-live-note", `Runs in Jupyter only: ${sentence(cell.reason)}`);
    input.after(note);
  }

  // What runs before `cell` and has not run since Python started, in order: the live
  // cells above it, and the imports of those without a button that work here.
  const before = (cell) =>
    cells.filter((c) => (c.live || c.imports) && c.index < cell.index && !ran.has(c.index));

  async function runCell(cell) {
    if (busy) return;
    busy = cell.status;
    cell.status.running("waiting");
    changed();
    try {
      for (const earlier of before(cell)) {
        const shown = earlier.live && !earlier.hidden && earlier.pre;
        if (shown) {
          earlier.box.hidden = true;
          showStored(earlier, false);
          earlier.node.classList.add("bpe-live-ran");
        }
        const label = `running the cells above first (cell ${earlier.index})`;
        const outcome = await execute(codeOf(earlier), cell.status, shown ? earlier.output : null, label);
        if (!outcome) return;
        ran.add(earlier.index);
        if (shown) earlier.status.show(describe(outcome, outcome.seconds));
        if (outcome.error) {
          cell.status.show("not run: a cell above raised an error");
          if (!shown) cell.output.add("error", `Code the page runs first (from cell ${earlier.index}) raised:\n${outcome.error}`);
          return;
        }
      }
      showStored(cell, false);
      cell.node.classList.add("bpe-live-ran");
      const outcome = await execute(codeOf(cell), cell.status, cell.output, "running");
      if (outcome) ran.add(cell.index);
      cell.reset.hidden = false;
    } finally {
      if (busy === cell.status) busy = null;
      changed();
    }
  }

  // ---- exercises: Check (practice.js draws the cell and the verdict) -------------------
  // The verdict on the reader's code, with the seconds the check took, or null when
  // Python could not start, was busy or was stopped (the status says which).
  async function checkExercise(name, code, node) {
    const status = new Status(node);
    if (busy) {
      status.show("Python is busy: Check again when it is done");
      return null;
    }
    busy = status;
    changed();
    try {
      sayStarting(status);
      await python.start();
      status.running("checking");
      const began = performance.now();
      const verdict = await python.check(name, code);
      if (!verdict) return null;
      if (verdict.passed === undefined) throw new Error(verdict.error ?? "no verdict");
      const seconds = (performance.now() - began) / 1000;
      status.show(`checked in ${seconds.toFixed(2)} s`);
      return { ...verdict, seconds };
    } catch (error) {
      status.show(`could not check: ${error.message}`);
      return null;
    } finally {
      if (busy === status) busy = null;
      changed();
    }
  }

  // ---- the intro note -----------------------------------------------------------------
  function intro() {
    const live = cells.filter((c) => c.live && !c.hidden && c.node);
    const note = element("div", "bpe-live-intro");
    const text = element("p");
    const consoleLink = element("a", "", "the Python console");
    consoleLink.href = DATA.console;
    if (live.length) {
      // One line folded: what a reader needs first; the rest on a tap.
      const cells = live.length === 1 ? "One cell" : `${live.length} cells`;
      const folded = element("details", "bpe-live-more");
      const summary = element("summary", "", `${cells} here run in your browser; or try `);
      summary.append(consoleLink, ".");
      folded.append(
        summary,
        element(
          "p",
          "",
          "Edit the code, then Run (or Shift+Enter). Python " +
            `(${SIZE}, downloaded once) starts when a Run button comes into view, to be ` +
            "ready when you press it. The first Run runs the cells above first, as a " +
            "notebook would (of those without a button, only their imports). A cell " +
            "without a button needs what this Python lacks, and says so.",
        ),
      );
      note.append(folded);
    } else if (DATA.cells.length) {
      const why = DATA.reason ? ` Its first code cell does not because ${sentence(DATA.reason)}` : "";
      text.append(`None of this chapter's cells runs in the page.${why} The package's core runs in `, consoleLink, ".");
    } else {
      text.append("The package's core runs in your browser, in ", consoleLink, ".");
    }
    if (!live.length) note.append(text);
    if (live.length) {
      const restart = button("Restart Python", "bpe-live-restart", "Forget every variable and start afresh");
      restart.hidden = true;
      restart.addEventListener("click", stop);
      listeners.add(() => {
        restart.hidden = !python.started;
        restart.disabled = false;
      });
      note.append(restart);
    }
    lessonStart()?.after(note);
  }

  // ---- the console --------------------------------------------------------------------
  // The console's parts, and what it remembers: the history, and whether the console's
  // set-up code (DATA.console_setup) has run in this Python.
  function consoleOf(root) {
    return {
      root,
      log: root.querySelector(".bpe-console-log"),
      input: root.querySelector(".bpe-console-input"),
      form: root.querySelector(".bpe-console-form"),
      halt: root.querySelector(".bpe-console-stop"),
      status: new Status(root.querySelector(".bpe-live-status")),
      history: [],
      back: 0, // how far back in the history the input is
      setUp: false,
    };
  }

  function consoleEntry(con, code) {
    const item = element("div", "bpe-console-entry");
    item.append(element("pre", "bpe-console-code", code));
    const box = element("div", "bpe-console-output");
    item.append(box);
    con.log.append(item);
    return new Output(box);
  }

  async function submitConsole(con, code) {
    const { status, input } = con;
    if (busy || !code.trim()) return;
    busy = status;
    status.running("waiting");
    changed();
    try {
      if (!con.setUp) {
        const output = consoleEntry(con, DATA.console_setup);
        const outcome = await execute(DATA.console_setup, status, output, "setting up");
        output.box.parentElement.dataset.done = "";
        if (!outcome || outcome.error) return;
        con.setUp = true;
      }
      con.history.push(code);
      con.back = 0;
      input.value = "";
      const output = consoleEntry(con, code);
      await execute(code, status, output, "running");
      output.box.parentElement.dataset.done = "";
      con.log.lastElementChild?.scrollIntoView({ block: "nearest" });
    } finally {
      if (busy === status) busy = null;
      changed();
      input.focus();
    }
  }

  // A whole statement runs; an unfinished one ("for x in y:") gets another line,
  // until a blank line ends it, as at Python's prompt.
  async function enterConsole(con) {
    const code = con.input.value;
    const ended = endsWithBlankLine(code);
    if (ended || (await isWhole(code))) await submitConsole(con, ended ? code.trimEnd() : code);
    else newLine(con.input, code);
  }

  // The end of a line that leaves a statement open: ":", "\" or an open bracket or comma.
  const OPEN_END = /[:\\([{,]\s*$/;
  const BLOCK_START = /:\s*$/; // a line after it is indented one step further

  const endsWithBlankLine = (code) => code.includes("\n") && !code.slice(code.lastIndexOf("\n")).trim();

  // One line that does not end open is whole; anything else Python decides.
  async function isWhole(code) {
    if (!code.includes("\n") && !OPEN_END.test(code)) return true;
    return python.isComplete(code).catch(() => true); // (Python will say what is wrong)
  }

  // Another line, indented as the last one, one step more after a block's start.
  function newLine(input, code) {
    const last = code.slice(code.lastIndexOf("\n") + 1);
    const indent = last.match(/^\s*/)[0] + (BLOCK_START.test(code) ? "    " : "");
    input.setRangeText(`\n${indent}`, input.selectionStart, input.selectionEnd, "end");
  }

  // Up and down at the input's first or last line walk the history.
  function walkHistory(con, event) {
    const { input, history } = con;
    const atEdge = event.key === "ArrowUp" ? !input.value.slice(0, input.selectionStart).includes("\n") : !input.value.slice(input.selectionEnd).includes("\n");
    if (!atEdge) return;
    event.preventDefault();
    con.back = Math.max(0, Math.min(history.length, con.back + (event.key === "ArrowUp" ? 1 : -1)));
    input.value = con.back ? history[history.length - con.back] : "";
  }

  function listenToConsole(con) {
    const { input, form, halt, status } = con;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      submitConsole(con, input.value);
    });
    let keys = Promise.resolve(); // each Enter in turn: the next one sees what this one did
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        keys = keys.then(() => enterConsole(con)).catch((error) => status.show(`could not run: ${error.message}`));
      } else if ((event.key === "ArrowUp" || event.key === "ArrowDown") && con.history.length) {
        walkHistory(con, event);
      }
    });
    halt.addEventListener("click", () => {
      con.setUp = false;
      stop();
    });
    for (const example of con.root.querySelectorAll("[data-console-example]")) {
      example.addEventListener("click", () => {
        input.value = example.dataset.consoleExample;
        input.focus();
      });
    }
    listeners.add(() => {
      form.querySelector("button[type=submit]").disabled = busy !== null;
      halt.hidden = busy !== status;
    });
  }

  function setUpConsole(root) {
    listenToConsole(consoleOf(root));
  }

  // ---- starting Python before the first Run ---------------------------------------------
  // Python takes seconds to start: it starts when the reader is about to need it, as
  // soon as a Run or Check button (or the console's prompt) comes into view, or is
  // pointed at, touched or focused. A page without such a button, or read only above
  // its first one, loads none of it.
  const STARTERS = ".bpe-live-run, .bpe-exercise-check, .bpe-console-input";

  function startSoon() {
    const buttons = document.querySelectorAll(STARTERS);
    if (!buttons.length) return;
    const triggers = ["pointerover", "touchstart", "focusin"];
    const near = (event) => event.target.closest?.(STARTERS) && begin();
    const seen = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && begin());
    function begin() {
      seen.disconnect();
      for (const type of triggers) document.removeEventListener(type, near);
      python.start().catch(() => {}); // a failed start is told by the Run that needs it
    }
    buttons.forEach((node) => seen.observe(node));
    for (const type of triggers) document.addEventListener(type, near, { passive: true });
  }

  // ---- start --------------------------------------------------------------------------
  for (const cell of cells) {
    if (!cell.node || cell.exercise) continue; // an exercise: practice.js sets it up
    if (cell.live && !cell.hidden && cell.node.querySelector(".cell_input pre")) setUpLiveCell(cell);
    else if (!cell.live && !cell.hidden) addNote(cell);
  }
  const consoleRoot = document.getElementById("bpe-console");
  if (consoleRoot) setUpConsole(consoleRoot);
  else if (!DATA.progress_only) intro(); // (a prose page with the progress line only)
  changed();
  // After practice.js, which adds the exercises' Check buttons (scripts that defer run
  // before this event).
  document.addEventListener("DOMContentLoaded", startSoon);
})();
