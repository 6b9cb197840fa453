import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A small multi-language repository whose imports are known. */
export const POLYGLOT: Record<string, string> = {
  "app/__init__.py": "",
  "app/main.py": "from .util import helper\nimport app.models\n\ndef start():\n    return helper(app.models.User())\n",
  "app/util.py": "def helper(x):\n    return x\n",
  "app/models.py": "class User:\n    pass\n",
  "web/index.ts": "import { format } from './lib/format';\nexport const show = (n: number) => format(n);\n",
  "web/lib/format.ts": "export function format(n: number): string { return String(n); }\n",
  "go.mod": "module example.com/proj\n",
  "cmd/server/main.go":
    'package main\n\nimport (\n\t"fmt"\n\t"example.com/proj/pkg/store"\n)\n\nfunc main() { fmt.Println(store.Open()) }\n',
  "pkg/store/store.go": 'package store\n\nfunc Open() string { return "ok" }\n',
  "src/main/java/com/acme/App.java":
    'package com.acme;\n\nimport com.acme.util.Strings;\n\npublic class App { void run() { Strings.trim(""); } }\n',
  "src/main/java/com/acme/util/Strings.java":
    "package com.acme.util;\n\npublic class Strings { static String trim(String s) { return s; } }\n",
  "src/main.rs": "mod parser;\nuse crate::parser::Token;\n\nfn main() { let _t: Option<Token> = None; }\n",
  "src/parser.rs": "pub struct Token;\n",
  "lib/app.rb": "require_relative 'helpers/fmt'\n\nmodule App\n  def self.go; Fmt.call; end\nend\n",
  "lib/helpers/fmt.rb": "module Fmt\n  def self.call; end\nend\n",
  "native/main.c": '#include "util.h"\n#include <stdio.h>\n\nint main(void) { return util_add(1, 2); }\n',
  "native/util.h": "int util_add(int a, int b);\n",
  "Acme/App/Program.cs":
    "using System;\nusing Acme.Core;\n\nnamespace Acme.App { class Program { static void Main() { new Thing(); } } }\n",
  "Acme/Core/Thing.cs": "namespace Acme.Core { public class Thing { } }\n",
  "app/Http/Controller.php":
    "<?php\nnamespace App\\Http;\n\nuse App\\Models\\Account;\n\nclass Controller { function show() { return new Account(); } }\n",
  "app/Models/Account.php": "<?php\nnamespace App\\Models;\n\nclass Account { }\n",
};

export const POLYGLOT_EDGES: [string, string][] = [
  ["app/main.py", "app/util.py"],
  ["app/main.py", "app/models.py"],
  ["web/index.ts", "web/lib/format.ts"],
  ["cmd/server/main.go", "pkg/store/store.go"],
  ["src/main/java/com/acme/App.java", "src/main/java/com/acme/util/Strings.java"],
  ["src/main.rs", "src/parser.rs"],
  ["lib/app.rb", "lib/helpers/fmt.rb"],
  ["native/main.c", "native/util.h"],
  ["Acme/App/Program.cs", "Acme/Core/Thing.cs"],
  ["app/Http/Controller.php", "app/Models/Account.php"],
];

/** A billing project where one file defines a function that several others only call. */
export const BILLING: Record<string, string> = {
  "billing/__init__.py": "",
  "billing/totals.py":
    "from billing.discounts import apply_discount\n\n\ndef compute_invoice_total(lines, discount):\n    subtotal = sum(l.amount for l in lines)\n    return apply_discount(subtotal, discount)\n",
  "billing/discounts.py": "def apply_discount(amount, discount):\n    return amount - discount\n",
  "billing/reports.py":
    "from billing.totals import compute_invoice_total\n\n\ndef invoice_report(invoices):\n    # invoice total per invoice, invoice totals summed\n    return [compute_invoice_total(i.lines, i.discount) for i in invoices]\n",
  "billing/export.py":
    "from billing.totals import compute_invoice_total\n\n\ndef export_invoice(invoice):\n    total = compute_invoice_total(invoice.lines, invoice.discount)\n    return {'invoice': invoice.id, 'total': total, 'discount': invoice.discount}\n",
  "billing/engine/runner.py": "def run_job(job):\n    return job.execute()\n",
  "billing/engine/__init__.py": "",
  "tests/test_totals.py":
    "from billing.totals import compute_invoice_total\n\n\ndef test_invoice_total_negative_discount():\n    assert compute_invoice_total([], -1) == 1\n",
  "docs/invoices.md":
    "# Invoices\n\nThe invoice total is computed with a discount. Negative discount, invoice total, discount.\n",
};

export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}
