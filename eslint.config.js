// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { createNodeResolver, importX } from "eslint-plugin-import-x";

/** Imports of our own packages a file may not make; `allow` lists the faces it may use. */
const ourPackages = (allow, message) => ({
  regex: allow.length ? `^@fixloop/(?!(${allow.map((a) => a.replace("@fixloop/", "")).join("|")})$)` : "^@fixloop/",
  message,
});
/** Relative paths that climb into another package's folder. */
const otherPackagesByPath = {
  regex: "^(\\.\\./)+(contract|db|runtime|api|worker|web|testkit|infra)/(src|test)/",
  message: "Import another package through its package name and public face, not by path.",
};
/** SQL lives in db (db/src/repositories, by table): api and worker services call it, they build no queries. */
const noKysely = { regex: "^kysely$", message: "Queries live in db/src/repositories; call a repository function." };
const restrict = (...patterns) => ["error", { patterns: [...patterns, otherPackagesByPath] }];
const workerPackages = ourPackages(
  ["@fixloop/db", "@fixloop/contract", "@fixloop/runtime"],
  "The worker depends on @fixloop/db, @fixloop/contract and @fixloop/runtime only.",
);

const TESTS = ["**/*.test.ts", "**/test/**/*.ts", "web/e2e/**/*.ts"];
/** testkit's faces: test support (the package root), the stand-ins, embedded Postgres and Redis, child processes. */
const TESTKIT = ["@fixloop/testkit/sandbox", "@fixloop/testkit/services", "@fixloop/testkit/processes"];
const TEST_FACES = ["@fixloop/testkit", ...TESTKIT];

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "web/src/routeTree.gen.ts", ".data/**", "test-output/**"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    rules: {
      // TypeScript checks these (tsc -b runs first), with better knowledge of globals and overloads.
      "no-undef": "off",
      "no-redeclare": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true, allowTernary: true }],
    },
  },
  {
    // Migrations are typed Kysely<any> on purpose (frozen in time); tests read loose JSON.
    files: ["db/src/migrations/**/*.ts", ...TESTS],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },

  // Dependency direction (DESIGN.md): web → api client, contract · api → db, contract, runtime ·
  // worker → db, contract, runtime · runtime → db, contract · db → contract · contract → nothing of ours.
  {
    // The contract holds shapes and constants only: relative imports, zod, diff and node:path, nothing that runs.
    files: ["contract/src/**/*.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": restrict({
        regex: "^(?!(zod|diff|node:path)$|\\.)",
        message:
          "@fixloop/contract imports zod (and diff, node:path) only: no database, queue, GitHub, Redis or logger client, nothing of ours.",
      }),
    },
  },
  {
    files: ["db/src/**/*.ts"],
    rules: {
      "no-restricted-imports": restrict(ourPackages(["@fixloop/contract"], "db depends on @fixloop/contract only.")),
    },
  },
  {
    files: ["runtime/src/**/*.ts"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          ["@fixloop/db", "@fixloop/contract"],
          "The runtime depends on @fixloop/db and @fixloop/contract only.",
        ),
        noKysely,
      ),
    },
  },
  {
    files: ["worker/src/**/*.ts"],
    rules: { "no-restricted-imports": restrict(workerPackages, noKysely) },
  },
  {
    // A step never imports the list that holds it or the processor that runs it, not even for a type
    // (import-x/no-cycle below counts value imports only): shared step types live in steps/step.ts.
    files: ["worker/src/pipeline/steps/**/*.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": restrict(workerPackages, noKysely, {
        regex:
          "^\\.{1,2}(/\\.{1,2})*(/index)?/?$|(^|/)(run\\.processor|run\\.finalize|run\\.refine|sweeper|cancel\\.subscriber)$",
        message: "A step does not import the pipeline that lists or runs it; shared step types are in steps/step.ts.",
      }),
    },
  },
  {
    files: ["api/src/**/*.ts"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          ["@fixloop/db", "@fixloop/contract", "@fixloop/runtime"],
          "The API depends on @fixloop/db, @fixloop/contract and @fixloop/runtime only.",
        ),
        noKysely,
      ),
    },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          ["@fixloop/api/client", "@fixloop/contract"],
          "The web app uses @fixloop/api/client and @fixloop/contract only.",
        ),
      ),
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@fixloop/api/client",
              allowTypeImports: true,
              message: "The web app takes types only from the API; values come from @fixloop/contract.",
            },
          ],
        },
      ],
    },
  },
  {
    // testkit sits low: every package's tests use it, so it uses none of the api, the worker, the runtime or infra.
    files: ["testkit/**/*.ts"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          ["@fixloop/db", "@fixloop/db/testing", "@fixloop/contract"],
          "testkit (test support and the stand-ins) depends on @fixloop/db and @fixloop/contract only.",
        ),
      ),
    },
  },
  {
    // The top: the launcher and the bench use the product faces and testkit's stand-ins and services, never test support.
    files: ["infra/src/**/*.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          [
            "@fixloop/db",
            "@fixloop/contract",
            "@fixloop/runtime",
            "@fixloop/worker",
            "@fixloop/worker/localize",
            "@fixloop/worker/tests-run",
            "@fixloop/worker/repo-files",
            "@fixloop/api/views",
            ...TESTKIT,
          ],
          "The launcher and the bench use the product faces of db, the contract, the runtime and the worker, and testkit's stand-ins and services; not test support.",
        ),
      ),
    },
  },
  // Tests next to the code may also start stacks, stand-ins and workers.
  {
    // testkit depends on db, so db's tests bring their own support (db/test, reached by others through testkit).
    files: ["db/src/**/*.test.ts", "db/test/**/*.ts"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(["@fixloop/contract"], "db tests use db's own test support (db/test) and the contract."),
      ),
    },
  },
  {
    files: ["contract/src/**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(ourPackages([], "Contract tests need nothing of ours.")),
    },
  },
  {
    files: ["runtime/src/**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          ["@fixloop/db", "@fixloop/contract", ...TEST_FACES],
          "Runtime tests use db, the contract and testkit.",
        ),
      ),
    },
  },
  {
    files: ["worker/src/**/*.test.ts", "worker/test/**/*.ts"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          ["@fixloop/db", "@fixloop/contract", "@fixloop/runtime", "@fixloop/worker", ...TEST_FACES],
          "Worker tests use db, the worker and testkit.",
        ),
      ),
    },
  },
  {
    files: ["api/src/**/*.test.ts", "api/test/**/*.ts"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          ["@fixloop/db", "@fixloop/contract", "@fixloop/runtime", "@fixloop/worker", ...TEST_FACES],
          "API tests use db, the worker and testkit.",
        ),
      ),
    },
  },

  {
    files: ["infra/src/**/*.test.ts"],
    rules: {
      "no-restricted-imports": restrict(
        ourPackages(
          ["@fixloop/db", "@fixloop/contract", "@fixloop/runtime", "@fixloop/worker/localize", ...TEST_FACES],
          "Infra tests use db, the worker and testkit.",
        ),
      ),
    },
  },

  // No query building outside db: the db handle's builders are called only in db/src/repositories.
  {
    files: ["api/src/**/*.ts", "worker/src/**/*.ts", "runtime/src/**/*.ts"],
    ignores: TESTS,
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "CallExpression[callee.property.name=/^(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|mergeInto|replaceInto)$/]",
          message: "Queries live in db/src/repositories (by table); call a repository function.",
        },
      ],
    },
  },

  // No import cycles inside a package: a module graph a newcomer can read top-down (a step never imports the pipeline
  // that lists it). Between packages the direction rules above already forbid cycles. import-x/no-cycle always skips
  // type-only imports (no option counts them); api/src/boundaries/cycles.test.ts checks the graph with them.
  {
    files: ["*/src/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".json"] })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },

  // Env is read in one file per app (STYLE.md habit 8).
  {
    files: ["**/*.{ts,tsx}"],
    ignores: [
      "api/src/env.ts",
      "worker/src/env.ts",
      // The launcher, the benchmark and test support pass the environment on to child processes.
      "infra/src/start.ts",
      "infra/src/migrate.ts",
      "testkit/src/processes.ts",
      "testkit/src/sandbox/github/git-store.ts",
      "infra/src/bench/**",
      // The test runner's own settings (how many fault files run at once).
      "vitest.config.ts",
      ...TESTS,
    ],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read settings in the app's env.ts and pass them in." },
      ],
    },
  },
);
