// Rewrites db/src/migrations.index.ts from the files of db/src/migrations (one line each, in name
// order), keeping the file's header, formatted as prettier would. Run after adding or merging a
// migration: node db/bin/migration-index.mjs
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import * as prettier from "prettier";

const src = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../src");
const file = path.join(src, "migrations.index.ts");
const names = fs
  .readdirSync(path.join(src, "migrations"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3))
  .sort();
const current = fs.readFileSync(file, "utf8");
const open = current.indexOf("= {\n");
if (open < 0) throw new Error(`${file}: cannot find the MIGRATIONS object`);
const lines = names.map((n) => `  ${JSON.stringify(n)}: () => import(${JSON.stringify(`./migrations/${n}`)}),`);
const text = `${current.slice(0, open + 4)}${lines.join("\n")}\n};\n`;
const options = { ...(await prettier.resolveConfig(file)), filepath: file };
fs.writeFileSync(file, await prettier.format(text, options));
console.log(`${path.relative(process.cwd(), file)}: ${names.length} migrations`);
