// The demo page: applies a pasted (or loaded) file and patch with v4a and shows the result as
// a diff with character-level highlights and the hunk report, or the error the engine wrote
// for the model. Everything user-provided is inserted as text, never as HTML.

import { init, apply, V4AError } from "../dist/esm/index.js";

const $ = (id) => document.getElementById(id);
let loaded = null; // { name, bytes } of a loaded file: its bytes are the source, untouched
let lastText = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function describeEndings(text) {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  const ending = crlf > 0 && lf > 0 ? "mixed" : crlf > 0 ? "CRLF" : lf > 0 ? "LF" : "none";
  const bom = text.startsWith("\ufeff") ? ", BOM" : "";
  const final = text === "" || /\n$/.test(text) ? "" : ", no final newline";
  return `line endings ${ending}${bom}${final}`;
}

function lineCell(line) {
  const td = el("td", { class: "text" });
  if (line.segments.length === 0) {
    td.append(line.text);
  } else {
    for (const s of line.segments) {
      const piece = line.text.slice(s.start, s.end);
      td.append(s.kind === "equal" ? piece : el("span", { class: `seg-${s.kind}` }, piece));
    }
  }
  return td;
}

function showResult(result, whole) {
  $("error").hidden = true;
  $("result").hidden = false;
  lastText = result.text;
  $("result-summary").textContent = `(${describeEndings(result.text)})`;
  const body = $("diff").tBodies[0];
  body.replaceChildren();
  let previousOld = 0;
  for (const line of result.diff) {
    const old = line.oldLine ?? previousOld;
    if (!whole && line.oldLine !== null && line.oldLine > previousOld + 1) {
      body.append(el("tr", { class: "gap" }, el("td", { colspan: "4" }, "⋯")));
    }
    previousOld = old;
    const sign = { equal: " ", delete: "-", add: "+" }[line.kind];
    body.append(
      el(
        "tr",
        { class: line.kind },
        el("td", { class: "num" }, line.oldLine === null ? "" : String(line.oldLine)),
        el("td", { class: "num" }, line.newLine === null ? "" : String(line.newLine)),
        el("td", { class: "sign" }, sign),
        lineCell(line),
      ),
    );
  }
  const hunks = $("hunks").tBodies[0];
  hunks.replaceChildren();
  result.hunks.forEach((h, i) => {
    const flags = ["reindented", "alreadyApplied", "endOfFile", "outOfOrder", "anchorIgnored", "contextRelaxed"].filter((f) => h[f]);
    const range = (start, len) => (len === 0 ? `before ${start}` : `${start}–${start + len - 1}`);
    hunks.append(
      el(
        "tr",
        {},
        el("td", {}, String(i + 1)),
        el("td", {}, String(h.patchLine)),
        el("td", {}, range(h.oldStart, h.oldLen)),
        el("td", {}, range(h.newStart, h.newLen)),
        el("td", { class: "level" }, h.level),
        el("td", {}, String(h.fuzz)),
        el("td", {}, flags.join(", ") || "—"),
      ),
    );
  });
  const n = result.hunks.length;
  $("status").textContent = result.changed
    ? `Applied ${n} hunk${n === 1 ? "" : "s"} (fuzz ${result.fuzz}).`
    : `Nothing changed (${n} hunk${n === 1 ? "" : "s"} already applied).`;
}

function showError(err) {
  $("result").hidden = true;
  $("error").hidden = false;
  lastText = null;
  const isV4A = err instanceof V4AError;
  $("error-code").textContent = isV4A ? err.code : "Error";
  $("error-category").textContent = isV4A ? err.category : "";
  $("error-message").textContent = err.message;
  const details = $("error-details");
  details.replaceChildren();
  if (isV4A) {
    const d = err.diagnostics;
    const add = (term, value, pre = false) =>
      details.append(el("dt", {}, term), el("dd", {}, pre ? el("pre", {}, value) : value));
    if (d.patchLine !== null) add("patch line", String(d.patchLine));
    if (d.candidates.length > 0) add("candidates (file lines)", d.candidates.join(", "));
    if (d.closest !== null) {
      add("closest region", `lines ${d.closest.start}–${d.closest.end} (${Math.round(d.closest.similarity * 100)}% similar)`);
    }
    if (d.suggestion !== null) add("suggestion", d.suggestion, true);
    if (d.correctedHunk !== null) add("corrected hunk", d.correctedHunk, true);
  }
  $("status").textContent = "The patch was not applied; the file is unchanged.";
}

function run() {
  let source;
  if (loaded !== null) {
    source = loaded.bytes;
  } else {
    source = $("source").value;
    if ($("eol").value === "crlf") source = source.replace(/\r?\n/g, "\r\n");
  }
  const whole = $("whole").checked;
  try {
    const result = apply(source, $("patch").value, {
      mode: $("mode").value,
      diff: whole ? "full" : "changes",
      diffContext: 3,
      refine: true,
      ...($("strict").checked ? { maxLevel: "exact" } : {}),
    });
    showResult(result, whole);
  } catch (err) {
    showError(err);
  }
}

$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (file === undefined) {
    loaded = null;
    $("source").disabled = false;
    return;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  loaded = { name: file.name, bytes };
  $("source").value = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  $("source").disabled = true;
  $("status").textContent = `Loaded ${file.name} (${bytes.length} bytes).`;
});

$("download").addEventListener("click", () => {
  if (lastText === null) return;
  const a = el("a", { download: loaded?.name ?? "result.txt" });
  a.href = URL.createObjectURL(new Blob([lastText], { type: "text/plain" }));
  a.click();
  URL.revokeObjectURL(a.href);
});

$("apply").addEventListener("click", run);

// A first example, so the page shows something.
$("source").value = 'function greet(name) {\n  return "Hello, " + name;\n}\n\nfunction main() {\n  console.log(greet("world"));\n}\n';
$("patch").value =
  '*** Begin Patch\n*** Update File: greet.js\n@@ function greet(name) {\n-  return "Hello, " + name;\n+  return `Hello, ${name}!`;\n }\n*** End Patch\n';

await init();
document.body.dataset.ready = "true";
$("status").textContent = "Engine loaded. Press Apply.";
// For tests and the console: the last result's exact text.
Object.defineProperty(window, "v4aLastText", { get: () => lastText });
