// Runs this project's TypeScript on Node 20 with no dependency: a module hook that erases type
// syntax (annotations, interfaces, type aliases, type-only imports, generics, `as` casts,
// modifiers), so `npm test` works offline. It understands the syntax this code base uses; keep to
// it (no enums, namespaces, decorators or constructor parameter properties).
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const MODIFIERS = /^(private|public|protected|readonly|declare|abstract|override)\s+(?=[A-Za-z_$#])/;
const REGEX_BEFORE = new Set(["", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "+", "-", "*", "%", "<", ">", "~", "^"]);

/** Index just past the string, template or regex literal starting at `i`. */
function skipLiteral(src, i) {
  const q = src[i];
  if (q === "`") {
    let j = i + 1;
    while (j < src.length && src[j] !== "`") {
      if (src[j] === "\\") j += 2;
      else if (src[j] === "$" && src[j + 1] === "{") j = skipBalanced(src, j + 1);
      else j++;
    }
    return j + 1;
  }
  let j = i + 1;
  let cls = false;
  while (j < src.length) {
    const c = src[j];
    if (c === "\\") j += 2;
    else if (q === "/" && c === "[") (cls = true), j++;
    else if (q === "/" && c === "]") (cls = false), j++;
    else if (c === q && !cls) return j + 1 + (q === "/" ? (/^[a-z]*/.exec(src.slice(j + 1))?.[0].length ?? 0) : 0);
    else j++;
  }
  return j;
}

/** Index just past the bracket group opening at `i` (`(`, `[`, `{` or `<`), skipping literals and comments. */
function skipBalanced(src, i) {
  const open = src[i];
  const close = { "(": ")", "[": "]", "{": "}", "<": ">" }[open];
  let depth = 0;
  for (let j = i; j < src.length; ) {
    const c = src[j];
    if (c === '"' || c === "'" || c === "`") { j = skipLiteral(src, j); continue; }
    if (c === "/" && src[j + 1] === "/") { j = src.indexOf("\n", j); if (j < 0) return src.length; continue; }
    if (c === "/" && src[j + 1] === "*") { j = src.indexOf("*/", j) + 2; continue; }
    if (open === "<" && c === "=" && src[j + 1] === ">") { j += 2; continue; }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return j + 1;
    j++;
  }
  return src.length;
}

/** End of a type starting at `i`: the first of `stops` outside brackets (`=>` inside a type is skipped). */
function skipType(src, i, stops) {
  let j = i;
  while (j < src.length) {
    const c = src[j];
    if (stops.includes(c) && c !== "=") return j;
    if ("([{<".includes(c)) { j = skipBalanced(src, j); continue; }
    if (c === '"' || c === "'" || c === "`") { j = skipLiteral(src, j); continue; }
    if (c === "=" && src[j + 1] === ">") {
      if (stops.includes("=>")) return j;
      j += 2;
      continue;
    }
    if (stops.includes(c) && !(c === "=" && src[j + 1] === "=")) return j;
    j++;
  }
  return j;
}

const prevSignificant = (out) => /\S(?=\s*$)/.exec(out)?.[0] ?? "";
const METHOD_HEAD = /(^|[;{}\n])\s*((static|async|get|set)\s+)*[\w$#]+\s*$/;

/** Whether the `(` at `i` opens a parameter list: of a function, a method, or an arrow function. */
function isParams(src, i, out, inClass) {
  const end = skipBalanced(src, i);
  const next = /^\s*(=>|:|\{)?/.exec(src.slice(end))?.[1];
  if (!next) return false;
  if (next === "=>") return true;
  if (/function\s*\*?\s*[\w$]*\s*$/.test(out)) return true;
  if (inClass && METHOD_HEAD.test(out) && !/\b(if|for|while|switch|catch)\s*$/.test(out)) return true;
  if (next !== ":") return false;
  // `(a: T): R => ...`: an arrow function with a return type.
  const t = skipType(src, src.indexOf(":", end) + 1, ["{", "=>", ";", ")", ","]);
  return src.startsWith("=>", t);
}

/** JavaScript with this code base's type syntax erased; everything else is kept byte for byte. */
export function stripTypes(src) {
  let out = "";
  const frames = []; // one per open bracket: "params", "class" or "other"
  const top = () => frames.at(-1);
  let i = 0;
  while (i < src.length) {
    const rest = src.slice(i);
    const c = src[i];
    if (c === '"' || c === "'" || c === "`") { const j = skipLiteral(src, i); out += src.slice(i, j); i = j; continue; }
    if (c === "/" && src[i + 1] === "/") { const j = src.indexOf("\n", i); const e = j < 0 ? src.length : j; out += src.slice(i, e); i = e; continue; }
    if (c === "/" && src[i + 1] === "*") { const e = src.indexOf("*/", i) + 2; out += src.slice(i, e); i = e; continue; }
    if (c === "/" && REGEX_BEFORE.has(prevSignificant(out))) { const j = skipLiteral(src, i); out += src.slice(i, j); i = j; continue; }

    const atStatement = /(^|[;{}\n])\s*(export\s+)?$/.test(out);
    let m;
    if (atStatement && (m = /^import\s+type\s[^;]*;/.exec(rest))) { i += m[0].length; continue; }
    if (atStatement && (m = /^export\s+type\s+\{[^;]*;/.exec(rest))) { i += m[0].length; continue; }
    if (atStatement && (m = /^(declare\s+)?interface\s+[\w$]+[^{]*/.exec(rest))) { i = skipBalanced(src, i + m[0].length); out = out.replace(/export\s+$/, ""); continue; }
    if (atStatement && (m = /^type\s+[\w$]+\s*(<[^=]*>)?\s*=/.exec(rest))) { i = skipType(src, i + m[0].length, [";", "\n"]) + 1; out = out.replace(/export\s+$/, ""); continue; }
    if (/[{,]\s*$/.test(out) && (m = /^type\s+[\w$]+\s*,?\s*/.exec(rest))) { i += m[0].length; continue; }
    if (top() === "class" && /[;{}]\s*$/.test(out) && (m = MODIFIERS.exec(rest))) { i += m[0].length; continue; }
    if (/^as\s/.test(rest) && /[\w$)\]]\s+$/.test(out)) { i = skipType(src, i + 2, [")", ";", ",", "]", "}", "\n"]); out = out.replace(/\s+$/, ""); continue; }
    if ((m = /^class\s[^{]*\{/.exec(rest)) && /(^|[^\w$.])$/.test(out)) { out += m[0]; frames.push("class"); i += m[0].length; continue; }

    if (c === "<" && /[\w$]$/.test(out)) {
      const end = skipBalanced(src, i);
      if (end < src.length && /^\s*\(/.test(src.slice(end)) && !/[;\n]/.test(src.slice(i, end))) { i = end; continue; }
    }
    if (c === "(") { frames.push(isParams(src, i, out, top() === "class") ? "params" : "other"); out += c; i++; continue; }
    if (c === "{" || c === "[") { frames.push("other"); out += c; i++; continue; }
    if (c === ")" || c === "}" || c === "]") {
      const frame = frames.pop();
      out += c;
      i++;
      const colon = /^\s*:/.exec(src.slice(i));
      if (frame === "params" && colon) i = skipType(src, i + colon[0].length, ["{", "=>", ";"]);
      continue;
    }
    if (c === "?" && src[i + 1] === ":" && (top() === "params" || top() === "class")) { i++; continue; }
    if (c === ":" && (top() === "params" || top() === "class" || /\b(const|let|var)\s+[\w$]+\s*$/.test(out))) {
      i = skipType(src, i + 1, top() === "params" ? [",", ")", "="] : [";", "=", "\n", ","]);
      continue;
    }
    if (c === "!" && /[\w$)\]]$/.test(out) && /^!\s*[.;,)\]]/.test(rest)) { i++; continue; }
    out += c;
    i++;
  }
  return out;
}

export async function resolve(specifier, context, next) {
  if (specifier.endsWith(".js") && context.parentURL?.startsWith("file:")) {
    const ts = new URL(specifier.replace(/\.js$/, ".ts"), context.parentURL);
    if (!existsSync(new URL(specifier, context.parentURL)) && existsSync(ts)) return { url: ts.href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith(".ts")) return next(url, context);
  const source = await readFile(fileURLToPath(url), "utf8");
  return { format: "module", source: stripTypes(source), shortCircuit: true };
}
