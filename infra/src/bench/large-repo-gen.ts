import fs from "node:fs";
import path from "node:path";
import { type PlantedIssue, plantIssues } from "./large-repo-issues";

/**
 * Writes a synthetic repository of `count` files: TypeScript, Python, Go, Java and Rust modules of
 * realistic sizes (0.5-12 KB) that import each other, grouped in packages, plus docs and tests.
 * Deterministic (seeded), so cold/warm runs and machines compare; the planted issues' files are
 * written on every call (large-repo-issues.ts).
 */
export function generateLargeRepo(dir: string, count = 50_000): { dir: string; issues: PlantedIssue[] } {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)] as T;
  const words = [
    "order",
    "invoice",
    "user",
    "session",
    "cache",
    "queue",
    "report",
    "billing",
    "token",
    "export",
    "import",
    "search",
    "index",
    "audit",
    "payment",
    "profile",
    "render",
    "schema",
    "parser",
    "router",
  ];
  const langs = [
    { ext: "ts", imp: (m: string) => `import { ${m}Helper } from "../${m}/${m}";` },
    { ext: "py", imp: (m: string) => `from ..${m}.${m} import ${m}_helper` },
    { ext: "go", imp: (m: string) => `import "example.com/app/${m}"` },
    { ext: "java", imp: (m: string) => `import com.example.${m}.${m[0]?.toUpperCase()}${m.slice(1)};` },
    { ext: "rs", imp: (m: string) => `use crate::${m}::${m};` },
  ];
  if (fs.existsSync(path.join(dir, ".complete"))) return describe(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  const perPkg = 50;
  for (let i = 0; i < count; i++) {
    const pkg = `pkg${Math.floor(i / perPkg)}`;
    const lang = langs[i % langs.length] as (typeof langs)[number];
    const mod = `${pick(words)}_${i}`;
    const file = path.join(dir, "src", pkg, i % 17 === 0 ? `test_${mod}.${lang.ext}` : `${mod}.${lang.ext}`);
    const imports = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () =>
      lang.imp(`${pick(words)}_${Math.floor(rnd() * count)}`),
    );
    const fns = Array.from({ length: 3 + Math.floor(rnd() * 25) }, (_, k) => {
      const name = `${pick(words)}${pick(words)}${k}`;
      return `function ${name}(input) {\n  // ${pick(words)} ${pick(words)} ${pick(words)} handling for ${pick(words)}\n  return input.${pick(words)} + ${k};\n}\n`;
    });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${imports.join("\n")}\n\n${fns.join("\n")}`);
  }
  fs.writeFileSync(path.join(dir, ".complete"), "");
  return describe(dir);
}

function describe(dir: string): { dir: string; issues: PlantedIssue[] } {
  return { dir, issues: plantIssues(dir) };
}
