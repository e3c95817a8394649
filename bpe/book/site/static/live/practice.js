// Learn by doing, on the page: the chapters' exercises and quizzes (live.js runs first).
//
// An exercise is a notebook cell tagged `exercise` (sphinx_extension.py lists them in
// #bpe-live-data): its code becomes an editable box with Check and Reset. Check runs
// the reader's code in the page's Python and checks the function it defines with
// bpe.book.practice (check_code), the same checks `check` runs in Jupyter; the verdict
// (pass, or the smallest failing case with what was expected, what came back and a
// hint) is drawn under it. A quiz is the HTML of bpe.book.practice.quiz.Quiz, stored in the
// chapter: every right answer and explanation is in it, so it needs no Python.
// The reader's code, verdicts and choices stay in localStorage, under "bpe-book:".
(() => {
  "use strict";
  const dataNode = document.getElementById("bpe-live-data");
  if (!dataNode) return;
  const DATA = JSON.parse(dataNode.textContent);

  // ---- state: what the reader did, kept across reloads --------------------------------
  const KEY = "bpe-book:";
  const store = {
    get(kind, name) {
      try {
        return localStorage.getItem(`${KEY}${kind}:${name}`);
      } catch {
        return null; // storage refused (private mode): the page still works, forgetting
      }
    },
    set(kind, name, value) {
      try {
        if (value === null) localStorage.removeItem(`${KEY}${kind}:${name}`);
        else localStorage.setItem(`${KEY}${kind}:${name}`, value);
      } catch {
        // as above: nothing is kept, nothing breaks
      }
    },
  };

  const { element, button, lessonStart } = window.bpeLive; // live.js's, which runs first

  // ---- drawing: a verdict ---------------------------------------------------------------
  function row(list, label, value) {
    list.append(element("dt", "", label), element("dd", "", value));
  }

  // The verdict as bpe.book.practice gives it: pass, or the case it failed on.
  function drawVerdict(box, verdict) {
    box.replaceChildren();
    box.hidden = false;
    box.dataset.verdict = verdict.passed ? "pass" : "fail";
    const head = element("p", "bpe-verdict-head");
    box.append(head);
    if (verdict.passed || verdict.case === undefined) {
      head.textContent = verdict.message; // a pass, or code that could not be checked
      return;
    }
    let origin = verdict.example ? "one of the chapter's examples" : "a random case";
    if (verdict.shrunk) origin += ", made as small as it would go";
    head.textContent = `✗ Not yet: wrong on ${origin}.`;
    const list = element("dl", "bpe-verdict-case");
    for (const [name, value] of Object.entries(verdict.case)) row(list, name, value);
    row(list, `expected${verdict.where}`, verdict.expected);
    row(list, `got${verdict.where}`, verdict.actual);
    box.append(list, element("p", "bpe-verdict-hint", `Hint: ${verdict.hint}`));
  }

  // ---- an exercise cell -----------------------------------------------------------------
  function codeBox(code) {
    const box = element("textarea", "bpe-exercise-code");
    box.value = code;
    box.spellcheck = false;
    box.wrap = "off"; // code scrolls sideways, as the book's code does; it never wraps
    box.setAttribute("autocapitalize", "off");
    box.setAttribute("autocomplete", "off");
    const fit = () => {
      box.rows = Math.max(3, box.value.split("\n").length + 1);
    };
    fit();
    box.addEventListener("input", fit);
    return box;
  }

  function exerciseParts(cell, input) {
    const starter = cell.source;
    const code = codeBox(store.get("exercise", cell.exercise) ?? starter);
    code.setAttribute("aria-label", `your code for the exercise ${cell.exercise}: edit, then Check`);
    const bar = element("div", "bpe-live-bar");
    const check = button("✓ Check", "bpe-exercise-check", "Check your function (Shift+Enter)");
    const reset = button("Reset", "bpe-exercise-reset", "Put the starting code back");
    const status = element("span", "bpe-live-status");
    status.setAttribute("role", "status");
    bar.append(check, reset, status);
    const verdict = element("div", "bpe-verdict");
    verdict.setAttribute("aria-live", "polite");
    verdict.hidden = true;
    input.querySelector(".highlight, pre").replaceWith(code);
    input.after(bar, verdict);
    return { starter, code, check, reset, status, verdict };
  }

  async function runCheck(cell, parts) {
    parts.check.disabled = true;
    try {
      const result = await window.bpeLive.check(cell.exercise, parts.code.value, parts.status);
      if (!result) return; // Python did not start, or was stopped: the status says so
      drawVerdict(parts.verdict, result);
      // For the tests: how many verdicts came, and how long the last one took.
      parts.verdict.dataset.checks = String(Number(parts.verdict.dataset.checks ?? 0) + 1);
      parts.verdict.dataset.seconds = String(result.seconds);
      // A pass stays earned until Reset: a slip made while trying more (a syntax
      // error, say) shows its verdict but does not take the pass back.
      if (result.passed || store.get("verdict", cell.exercise) !== "pass") {
        store.set("verdict", cell.exercise, result.passed ? "pass" : "fail");
      }
      drawProgress();
    } finally {
      parts.check.disabled = false;
    }
  }

  function exerciseEvents(cell, parts) {
    parts.check.addEventListener("click", () => runCheck(cell, parts));
    parts.reset.addEventListener("click", () => {
      parts.code.value = parts.starter;
      parts.code.dispatchEvent(new Event("input"));
      parts.verdict.hidden = true;
      delete parts.verdict.dataset.verdict;
      store.set("verdict", cell.exercise, null); // the exercise starts over
      drawProgress();
    });
    parts.code.addEventListener("input", () => {
      const edited = parts.code.value !== parts.starter;
      store.set("exercise", cell.exercise, edited ? parts.code.value : null);
    });
    parts.code.addEventListener("keydown", (event) => {
      event.stopPropagation(); // keys typed into code are the code's ("/" is not search)
      if (event.key === "Enter" && event.shiftKey) {
        event.preventDefault();
        runCheck(cell, parts);
      } else if (event.key === "Tab" && !event.shiftKey) {
        event.preventDefault(); // four spaces, as the book indents (Escape, then Tab, moves on)
        parts.code.setRangeText("    ", parts.code.selectionStart, parts.code.selectionEnd, "end");
        parts.code.dispatchEvent(new Event("input"));
      } else if (event.key === "Escape") parts.code.blur();
    });
  }

  function setUpExercise(cell) {
    const node = document.getElementById(`cell-${cell.index}`);
    const input = node?.querySelector(".cell_input");
    if (!input || !window.bpeLive?.check) return;
    node.dataset.exercise = cell.exercise;
    node.classList.add("bpe-exercise");
    const parts = exerciseParts(cell, input);
    const last = store.get("verdict", cell.exercise);
    if (last) parts.status.textContent = last === "pass" ? "passed before ✓" : "not passed yet";
    exerciseEvents(cell, parts);
    window.bpeLive.exerciseCode.set(cell.index, () => parts.code.value);
  }

  // ---- progress: the exercises passed, chapter by chapter --------------------------------
  function progressLine() {
    const line = element("p", "bpe-progress");
    line.dataset.progress = "";
    const chapters = new Map();
    for (const ex of DATA.exercises ?? []) {
      const counts = chapters.get(ex.chapter) ?? { passed: 0, all: 0 };
      counts.all += 1;
      if (store.get("verdict", ex.name) === "pass") counts.passed += 1;
      chapters.set(ex.chapter, counts);
    }
    line.append("Exercises passed: ");
    let first = true;
    for (const [chapter, { passed, all }] of chapters) {
      if (!first) line.append(" · ");
      first = false;
      const link = element("a", "", `chapter ${Number(chapter)}`);
      link.href = DATA.chapters?.[chapter] ?? "#";
      const count = element("span", passed === all ? "bpe-progress-done" : "", ` ${passed}/${all}`);
      count.dataset.chapter = chapter;
      line.append(link, count);
    }
    return line;
  }

  function drawProgress() {
    if (!DATA.exercises?.length) return;
    const old = document.querySelector("[data-progress]");
    const line = progressLine();
    if (old) old.replaceWith(line);
    else {
      const place = document.querySelector(".bpe-live-intro") ?? lessonStart();
      place?.after(line);
    }
  }

  // ---- a quiz question ------------------------------------------------------------------
  function drawChoice(question, choice) {
    const answer = Number(question.dataset.answer);
    question.dataset.chosen = String(choice);
    question.dataset.correct = String(choice === answer);
    for (const option of question.querySelectorAll("[data-option]")) {
      const i = Number(option.dataset.option);
      option.classList.toggle("bpe-quiz-chosen", i === choice);
      option.classList.toggle("bpe-quiz-right", i === answer);
      option.classList.toggle("bpe-quiz-wrong", i === choice && i !== answer);
      option.setAttribute("aria-pressed", String(i === choice));
    }
    for (const why of question.querySelectorAll("[data-why]")) {
      const i = Number(why.dataset.why);
      why.hidden = !(i === choice || i === answer); // what was chosen, and the right one
    }
  }

  function setUpQuestion(question) {
    question.classList.add("bpe-quiz-live"); // the drop-down with the answer is hidden
    for (const option of question.querySelectorAll("[data-option]")) {
      option.setAttribute("aria-pressed", "false");
      option.addEventListener("click", () => {
        const choice = Number(option.dataset.option);
        store.set("quiz", question.dataset.quiz, String(choice));
        drawChoice(question, choice);
      });
    }
    const kept = store.get("quiz", question.dataset.quiz);
    if (kept !== null) drawChoice(question, Number(kept));
  }

  // ---- start ----------------------------------------------------------------------------
  for (const cell of DATA.cells) if (cell.exercise) setUpExercise(cell);
  for (const question of document.querySelectorAll(".bpe-quiz-question[data-quiz]")) {
    setUpQuestion(question);
  }
  drawProgress();
})();
