// The token playground: type text, see it cut into tokens by two vocabularies side by side.
//
// The vocabularies come as scripts (tinystories.js, gpt2.js) that push themselves onto
// window.BPE_VOCABULARIES; encoding is bpe.js's, the same code the merge explorer runs.
(() => {
  const MAX_CHARACTERS = 20000; // a page, not a corpus: the encoder here is the simple one
  const COLOURS = ["#cde7f0", "#f6d8ae", "#d5ecc2", "#f3c9d8", "#e2d7f3", "#fbeeb8",
                   "#c9e4de", "#f5cac3"];
  const EXAMPLES = {
    "a story": "Once upon a time, there was a little boat. It liked to sail on the sea.",
    "Vietnamese": "Xin chào thế giới! Hôm nay trời đẹp quá, chúng ta đi dạo nhé.",
    "the same in English": "Hello world! The weather is lovely today, let's go for a walk.",
    "digits and code": "12345678 + 1000000 = 13345678\n    if x == 42:\n        print(x)",
  };

  const { element } = BPE;

  function mount(root) {
    const vocabularies = (window.BPE_VOCABULARIES || []).map(BPE.loadVocabulary);
    const input = root.querySelector(".bpe-playground-text");
    const columns = root.querySelector(".bpe-playground-columns");
    const note = root.querySelector(".bpe-playground-note");
    const examples = root.querySelector(".bpe-playground-examples");
    for (const [label, text] of Object.entries(EXAMPLES)) {
      const button = element("button", { type: "button" }, label);
      button.addEventListener("click", () => { input.value = text; render(); });
      examples.append(button);
    }

    function render() {
      const all = Array.from(input.value);
      const text = all.slice(0, MAX_CHARACTERS).join("");
      note.textContent = all.length > MAX_CHARACTERS
        ? `Only the first ${MAX_CHARACTERS.toLocaleString("en")} characters are encoded.` : "";
      const nBytes = new TextEncoder().encode(text).length;
      const nCharacters = Array.from(text).length;
      columns.replaceChildren(...vocabularies.map((vocabulary) => {
        const tokens = BPE.encode(text, vocabulary);
        const column = element("div", { className: "bpe-playground-column" });
        column.dataset.vocabulary = vocabulary.name;
        const perToken = tokens.length ? (nBytes / tokens.length).toFixed(2) : "–";
        column.append(
          element("h4", {}, vocabulary.label),
          element("p", { className: "bpe-playground-counts" },
                  `${tokens.length} tokens · ${nBytes} bytes · ${nCharacters} characters` +
                  ` · ${perToken} bytes per token`));
        const shown = element("div", { className: "bpe-playground-tokens" });
        tokens.forEach((token, i) => {
          const span = element("span", { className: "bpe-playground-token",
                                         title: `id ${token.id}` }, BPE.show(token.bytes));
          span.style.background = COLOURS[i % COLOURS.length];
          span.dataset.id = token.id;
          shown.append(span);
        });
        const ids = element("p", { className: "bpe-playground-ids" },
                            "ids: " + tokens.map((t) => t.id).join(", "));
        column.append(shown, ids);
        return column;
      }));
    }

    input.addEventListener("input", render);
    if (!vocabularies.length) note.textContent = "The vocabularies did not load.";
    render();
  }

  document.querySelectorAll(".bpe-playground:not([data-mounted])").forEach((root) => {
    root.dataset.mounted = "1";
    mount(root);
  });
})();
