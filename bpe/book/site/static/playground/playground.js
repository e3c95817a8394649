// The token playground: type text, see it cut into tokens by several vocabularies at once.
//
// catalogue.js lists the vocabularies (bpe/book/site/playground.py writes it with their
// sizes); each one's own script is added to the page only when the reader picks it,
// and pushes itself onto window.BPE_VOCABULARIES. Encoding is bpe.js's, the code the
// merge explorer runs, and "train on your text" is the explorer's trainer. Encoding
// is near-linear however long a piece (bpe.js's heap), the text waits a moment after
// each key, and long outputs are drawn a slice at a time, so the page never freezes.
// The address holds the text and every switch, so that a link restores the view.
(() => {
  const MAX_CHARACTERS = 20000; // a page, not a corpus
  const MAX_MERGES = 2000; // for "train on your text"
  const DRAWN_AT_ONCE = 1000; // tokens drawn at first; more as the reader scrolls to them
  const COLOURS = ["#cde7f0", "#f6d8ae", "#d5ecc2", "#f3c9d8", "#e2d7f3", "#fbeeb8",
                   "#c9e4de", "#f5cac3"];
  const EXAMPLES = {
    "a story": "Once upon a time, there was a little boat. It liked to sail on the sea.",
    "Vietnamese": "Xin chào thế giới! Hôm nay trời đẹp quá, chúng ta đi dạo nhé.",
    "the same in English": "Hello world! The weather is lovely today, let's go for a walk.",
    "digits and code": "12345678 + 1000000 = 13345678\n    if x == 42:\n\tprint(x)",
    "special tokens": "The end.<|endoftext|>Once upon a time<|endofprompt|>",
  };
  const { element, show, ENDOFTEXT } = BPE;
  const here = document.currentScript ? document.currentScript.src : "";

  const count = (n) => n.toLocaleString("en");

  function megabytes(bytes) {
    return bytes < 1e6 ? `${Math.round(bytes / 1e3)} kB` : `${(bytes / 1e6).toFixed(1)} MB`;
  }

  // ---- loading a vocabulary when it is chosen ---------------------------------

  const loaded = new Map(); // name -> a promise of the vocabulary

  function load(entry) {
    if (!loaded.has(entry.name)) {
      loaded.set(entry.name, new Promise((resolve, reject) => {
        const script = element("script", { src: new URL(entry.file, here).href });
        script.addEventListener("load", () => {
          const shipped = (window.BPE_VOCABULARIES || []).find((v) => v.name === entry.name);
          if (!shipped) reject(new Error(`${entry.file} did not define ${entry.name}`));
          else resolve(BPE.loadVocabulary(shipped));
        });
        script.addEventListener("error", () => {
          loaded.delete(entry.name); // a later choice tries again
          reject(new Error(`${entry.file} could not be loaded`));
        });
        document.head.append(script);
      }));
    }
    return loaded.get(entry.name);
  }

  // ---- the address: what a shared link restores -------------------------------

  const DEFAULTS = { show: "text", ws: "1", special: "ordinary" };

  function readAddress(catalogue) {
    const query = new URLSearchParams(location.search);
    const names = new Set(catalogue.map((e) => e.name).concat("mine"));
    const chosen = query.has("v")
      ? query.get("v").split(",").filter((n) => names.has(n))
      : catalogue.filter((e) => e.shown).map((e) => e.name);
    const pick = (key, allowed) => (allowed.includes(query.get(key)) ? query.get(key) : DEFAULTS[key]);
    return {
      text: query.get("text"),
      chosen,
      show: pick("show", ["text", "ids", "both"]),
      ws: pick("ws", ["0", "1"]),
      special: pick("special", ["ordinary", "allowed"]),
      // the text "your text" was trained on: given, or else the text itself
      train: query.has("merges")
        ? { source: query.get("train") ?? query.get("text") ?? "", merges: Number(query.get("merges")) || 0 }
        : null,
    };
  }

  function address(view) {
    const query = new URLSearchParams();
    query.set("text", view.text);
    query.set("v", view.chosen.join(","));
    for (const key of ["show", "ws", "special"]) if (view[key] !== DEFAULTS[key]) query.set(key, view[key]);
    if (view.train) {
      query.set("merges", String(view.train.merges));
      if (view.train.source !== view.text) query.set("train", view.train.source);
    }
    return location.pathname + "?" + query.toString().replace(/\+/g, "%20");
  }

  // ---- the page's state: its elements, the view, the vocabulary trained here ------

  function pageOf(root) {
    const $ = (name) => root.querySelector(".bpe-playground-" + name);
    const catalogue = window.BPE_CATALOGUE || [];
    return {
      root, $, catalogue,
      input: $("text"), columns: $("columns"), note: $("note"), picker: $("vocabularies"),
      view: readAddress(catalogue),
      mine: null, // the vocabulary trained on the reader's text
      boxes: {}, // name -> its checkbox
      generation: 0, // a newer drawing stops an older one that is still going
      training: 0, // a newer training run stops an older one
    };
  }

  function text(page) {
    const all = Array.from(page.input.value);
    page.note.textContent = all.length > MAX_CHARACTERS
      ? `Only the first ${MAX_CHARACTERS.toLocaleString("en")} characters are encoded.` : "";
    return all.slice(0, MAX_CHARACTERS).join("");
  }

  // The chosen vocabularies, loaded (each the first time it is chosen), in page order.
  async function chosenVocabularies(page) {
    const { view } = page, status = page.$("status");
    const wanted = page.catalogue.filter((e) => view.chosen.includes(e.name));
    const waitingFor = wanted.filter((e) => !loaded.has(e.name));
    if (waitingFor.length) {
      status.textContent = "loading " +
        waitingFor.map((e) => `${e.label} (${megabytes(e.bytes)})`).join(", ") + "…";
    }
    const found = [];
    for (const entry of wanted) {
      try {
        found.push(await load(entry));
      } catch (error) {
        status.textContent = String(error.message);
        return found;
      }
    }
    status.textContent = "";
    if (page.mine && view.chosen.includes("mine")) found.push(page.mine);
    return found;
  }

  // ---- drawing ------------------------------------------------------------------

  function update(page) {
    page.view.text = page.input.value;
    return draw(page);
  }

  async function draw(page) {
    const drawing = ++page.generation;
    try {
      history.replaceState(null, "", address(page.view));
    } catch (error) { // some browsers refuse it for a page opened from disk
    }
    page.$("link").href = address(page.view);
    const vocabularies = await chosenVocabularies(page);
    if (drawing !== page.generation) return;
    const current = text(page);
    // One column per task, so that the page stays live; each new column replaces
    // the old one in its place, so that nothing jumps while the reader types.
    const old = [...page.columns.children];
    for (const [i, vocabulary] of vocabularies.entries()) {
      if (i) await new Promise((go) => setTimeout(go, 0));
      if (drawing !== page.generation) return;
      const fresh = column(page, vocabulary, current, drawing);
      if (old[i]) old[i].replaceWith(fresh);
      else page.columns.append(fresh);
    }
    old.slice(vocabularies.length).forEach((c) => c.remove());
    page.root.dataset.drawn = String(drawing); // for the tests: this view is on screen
  }

  function column(page, vocabulary, text, drawing) {
    const { view } = page;
    const allowed = view.special === "allowed";
    const tokens = BPE.encode(text, vocabulary, allowed);
    const box = element("div", { className: "bpe-playground-column" });
    box.dataset.vocabulary = vocabulary.name;
    box.append(element("h4", {}, vocabulary.label), counts(text, tokens));
    const specials = specialNote(vocabulary, text, tokens, allowed);
    if (specials) box.append(element("p", { className: "bpe-playground-specials" }, specials));
    const shown = element("div", {
      className: "bpe-playground-tokens" + (view.ws === "1" ? "" : " bpe-playground-raw") +
                 " bpe-playground-show-" + view.show });
    const replay = element("div", { className: "bpe-playground-replay" });
    shown.addEventListener("click", (event) => {
      const span = event.target.closest(".bpe-playground-token");
      if (!span) return;
      shown.querySelectorAll(".bpe-playground-picked").forEach((s) => s.classList.remove("bpe-playground-picked"));
      span.classList.add("bpe-playground-picked");
      replayToken(replay, vocabulary, tokens[Number(span.dataset.index)]);
    });
    drawTokens(page, shown, tokens, 0, drawing);
    const ids = element("details", { className: "bpe-playground-ids" });
    ids.append(element("summary", {}, `all ${count(tokens.length)} ids`),
               element("p", {}, tokens.map((t) => t.id).join(", ")));
    box.append(shown, replay, ids);
    return box;
  }

  function counts(text, tokens) { // tokens, bytes, characters, bytes per token
    const nBytes = new TextEncoder().encode(text).length;
    const nCharacters = Array.from(text).length;
    const perToken = tokens.length ? (nBytes / tokens.length).toFixed(2) : "–";
    return element("p", { className: "bpe-playground-counts" },
                   `${count(tokens.length)} tokens · ${count(nBytes)} bytes · ` +
                   `${count(nCharacters)} characters` +
                   ` · ${perToken} bytes per token`);
  }

  // The tokens from `start`, a slice at a time: the next slice is drawn when the
  // reader scrolls near the end of the last one (or asks for it).
  function drawTokens(page, shown, tokens, start, drawing) {
    if (drawing !== page.generation) return;
    const end = Math.min(tokens.length, start + DRAWN_AT_ONCE);
    const slice = document.createDocumentFragment();
    for (let i = start; i < end; i++) slice.append(tokenBox(page.view, tokens[i], i));
    shown.append(slice);
    if (end >= tokens.length) return;
    const more = element("button", { type: "button", className: "bpe-playground-more" },
                         `${(tokens.length - end).toLocaleString("en")} more tokens`);
    let done = false;
    const next = () => {
      if (done) return;
      done = true;
      more.remove();
      drawTokens(page, shown, tokens, end, drawing);
    };
    more.addEventListener("click", next);
    shown.append(more);
    if (typeof IntersectionObserver !== "undefined") {
      const watch = new IntersectionObserver((seen) => {
        if (seen.some((e) => e.isIntersecting)) { watch.disconnect(); next(); }
      }, { root: shown, rootMargin: "300px" });
      watch.observe(more);
    }
  }

  function tokenBox(view, token, i) {
    const span = element("span", { className: "bpe-playground-token" + (token.special ? " bpe-playground-special" : ""),
                                   title: `id ${token.id}` });
    span.dataset.id = token.id;
    span.dataset.index = i;
    span.style.background = token.special ? "#fff" : COLOURS[i % COLOURS.length];
    if (view.show !== "ids") span.append(element("span", { className: "bpe-playground-token-text" }, show(token.bytes, view.ws === "1")));
    if (view.show !== "text") span.append(element("span", { className: "bpe-playground-token-id" }, String(token.id)));
    return span;
  }

  // What the special-token switch changes for this vocabulary and text, in words.
  function specialNote(vocabulary, text, tokens, allowed) {
    const found = Object.keys(vocabulary.specials).filter((s) => text.includes(s));
    if (!found.length) return "";
    const other = BPE.encode(text, vocabulary, !allowed).length;
    const names = found.map((s) => `${s} (id ${vocabulary.specials[s]})`).join(", ");
    return allowed
      ? `Special tokens allowed: ${names} ${found.length === 1 ? "is" : "are each"} one token. ` +
        `As ordinary text the same text takes ${count(other)} tokens.`
      : `Special tokens read as ordinary text: ${found.join(", ")} ${found.length === 1 ? "is" : "are"} ` +
        `spelled out in pieces. Allowed, ${names} would be one token each, ${count(other)} tokens in all.`;
  }

  // ---- a clicked token: how it was built, merge by merge, back to its bytes --------

  function partsLine(parts, at) { // the parts, the pair at `at` marked as merging
    const row = element("span", { className: "bpe-playground-parts" });
    parts.forEach((p, i) => {
      const part = element("span", { className: "bpe-playground-part" }, show(p));
      if (i === at || i === at + 1) part.classList.add("bpe-playground-merging");
      row.append(part);
    });
    return row;
  }

  function stepItem(vocabulary, { parts: before, best }) {
    const [at, r] = best;
    const joined = before[at] + before[at + 1];
    const item = element("li");
    const made = vocabulary.rule === "merges" // a merge's place, or tiktoken's rank = id
      ? `merge ${r}, id ${vocabulary.rank.get(joined)}` : `rank ${r}`;
    item.append(partsLine(before, at), ` → ${show(joined)} (${made})`);
    return item;
  }

  function replayToken(panel, vocabulary, token) {
    const close = element("button", { type: "button", className: "bpe-playground-close" }, "close");
    close.addEventListener("click", () => panel.replaceChildren());
    const title = element("p", { className: "bpe-playground-replay-title" });
    const shownToken = `“${show(token.bytes)}” (id ${token.id})`;
    if (token.special) {
      title.textContent = `${shownToken} is a special token: it is never built by merges; ` +
        "its whole text maps straight to its id.";
      panel.replaceChildren(title, close);
      return;
    }
    const { steps, parts } = BPE.buildTrace(token.bytes, vocabulary);
    const n = token.bytes.length;
    title.textContent = steps.length
      ? `${shownToken}: ${steps.length} merge${steps.length === 1 ? "" : "s"} from ${n} byte${n === 1 ? "" : "s"}.`
      : `${shownToken} is a single byte: one of the 256 tokens every vocabulary starts with.`;
    const list = element("ol", { className: "bpe-playground-steps" });
    const start = element("p", { className: "bpe-playground-start" });
    start.append("bytes: ", partsLine(Array.from(token.bytes), -2));
    for (const step of steps) list.append(stepItem(vocabulary, step));
    const done = element("p", { className: "bpe-playground-result" });
    done.append("token: ", partsLine(parts, -2));
    if (parts.length !== 1) done.append(" (its earlier ranks do not join these parts)");
    panel.replaceChildren(title, start, ...(steps.length ? [list] : []), done, close);
  }

  // ---- "train on your text": the explorer's trainer, a few merges at a time -------

  function train(page) {
    const run = ++page.training;
    const source = page.$("train-text").value || page.input.value;
    const merges = page.$("train-merges"), status = page.$("train-status");
    const wanted = Math.min(MAX_MERGES, Math.max(0, Math.floor(Number(merges.value)) || 0));
    const state = BPE_EXPLORER.startTraining(source, { specials: [ENDOFTEXT], maxCharacters: MAX_CHARACTERS });
    page.view.train = { source, merges: wanted };
    const slice = () => {
      if (run !== page.training) return; // a newer run took over
      const until = performance.now() + 25;
      while (state.merges.length < wanted && performance.now() < until && BPE_EXPLORER.step(state));
      const done = state.merges.length >= wanted || !state.pairs.size;
      status.textContent = `${done ? "learned" : "learning"} ${state.merges.length} of ${wanted} merges` +
        (done && state.merges.length < wanted ? " (no pair was left to merge)" : "");
      if (!done) { setTimeout(slice, 0); return; }
      trained(page, state.merges);
    };
    slice();
  }

  function trained(page, merges) { // "your text" becomes a vocabulary to choose, chosen
    const n = merges.length;
    page.mine = BPE_EXPLORER.vocabularyOf(merges, {
      name: "mine", specials: [ENDOFTEXT],
      label: `trained on your text (${n} merges, ${256 + n + 1} tokens)` });
    if (!page.boxes.mine) addChoice(page, "mine", "your text's vocabulary (trained below)");
    page.boxes.mine.checked = true;
    if (!page.view.chosen.includes("mine")) page.view.chosen.push("mine");
    draw(page);
  }

  // ---- the controls ---------------------------------------------------------------

  // One checkbox per vocabulary, with its size, and one for "your text" once trained.
  function addChoice(page, name, label) {
    const { view, boxes } = page;
    const box = element("input", { type: "checkbox", value: name, checked: view.chosen.includes(name) });
    box.addEventListener("change", () => {
      view.chosen = Object.keys(boxes).filter((n) => boxes[n].checked);
      update(page);
    });
    const line = element("label", { className: "bpe-playground-choice" });
    line.append(box, " ", label);
    line.dataset.vocabulary = name;
    page.picker.append(line);
    boxes[name] = box;
  }

  function addControls(page) {
    const { $, view, input } = page;
    for (const [label, example] of Object.entries(EXAMPLES)) {
      const button = element("button", { type: "button" }, label);
      button.addEventListener("click", () => { input.value = example; update(page); });
      $("examples").append(button);
    }
    for (const entry of page.catalogue) {
      addChoice(page, entry.name, `${entry.label}: ${count(entry.size)} tokens, ` +
                                  `file ${megabytes(entry.bytes)}`);
    }
    // The switches: text / ids / both, whitespace, special tokens.
    for (const radio of page.root.querySelectorAll("input[data-switch]")) {
      radio.checked = view[radio.dataset.switch] === radio.value;
      radio.addEventListener("change", () => { view[radio.dataset.switch] = radio.value; draw(page); });
    }
    const wsBox = $("whitespace");
    wsBox.checked = view.ws === "1";
    wsBox.addEventListener("change", () => { view.ws = wsBox.checked ? "1" : "0"; draw(page); });
    let waiting = null; // the text is encoded a moment after the last key, not at each
    input.addEventListener("input", () => { clearTimeout(waiting); waiting = setTimeout(() => update(page), 150); });
  }

  function addTraining(page) {
    const { $, view } = page;
    const trainText = $("train-text"), trainMerges = $("train-merges");
    trainMerges.max = MAX_MERGES;
    if (view.train) {
      trainText.value = view.train.source === page.input.value ? "" : view.train.source;
      trainMerges.value = Math.min(MAX_MERGES, Math.max(0, view.train.merges));
    }
    $("train").addEventListener("click", () => train(page));
  }

  function addCopy(page) {
    const { $ } = page;
    $("copy").addEventListener("click", async () => {
      const link = new URL(address(page.view), location.href).href;
      try {
        await navigator.clipboard.writeText(link);
        $("copied").textContent = "copied";
      } catch (error) {
        $("copied").textContent = "select the link and copy it: " + link;
      }
    });
  }

  function mount(root) {
    const page = pageOf(root);
    if (page.view.text !== null) page.input.value = page.view.text;
    addControls(page);
    addTraining(page);
    addCopy(page);
    if (!page.catalogue.length) page.note.textContent = "The list of vocabularies did not load.";
    if (page.view.train && page.view.chosen.includes("mine")) train(page); // draws when it is done
    update(page);
  }

  document.querySelectorAll(".bpe-playground:not([data-mounted])").forEach((root) => {
    root.dataset.mounted = "1";
    mount(root);
  });
})();
//# sourceURL=bpe-playground.js
