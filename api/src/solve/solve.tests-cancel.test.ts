import fs from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { importedRepository, solveKit } from "../../test/solve.testkit";

const t = solveKit({ workers: ["solve", "sync"] });
const REPO = "octocat/weather-cli";
const SETTINGS = `/api/github/repositories/${REPO}/test-settings`;

beforeAll(async () => {
  await importedRepository(t, REPO); // test settings belong to a stored repository
});
afterEach(async () => {
  await settings({ command: null, setup: null });
});

async function settings(s: { command: string | null; setup: string | null }) {
  const res = await t.stack.app.request(SETTINGS, {
    method: "PUT",
    headers: t.headers,
    body: JSON.stringify({ ...s, timeoutSeconds: 300, setupNetwork: false }),
  });
  expect(res.status).toBe(200);
}

/** The patch marks the file, so a test command can be slow on the patched tree only. */
const SLOW_PATCH = {
  analysis: "Conversions need a note.",
  proposedSolution: "Add a marker comment.",
  confidence: 80,
  files: [
    {
      filename: "weather/units.py",
      action: "modify" as const,
      edits: [{ search: "ABSOLUTE_ZERO_C = -273.15\n", replace: "ABSOLUTE_ZERO_C = -273.15  # SLOW\n" }],
    },
  ],
};

/** Processes whose command line contains `needle` (the sandboxed sleep, when the process group survived). */
function processesWith(needle: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Starts a solve, presses Cancel once `phase` streams its first output, and reads the stream to its end. */
async function cancelDuring(phase: "base" | "patched" | "repair", number: number, marker: string) {
  const used = async () =>
    (await t.stack.db.selectFrom("usage_counters").select("used").where("user_id", "=", t.userId).executeTakeFirst())
      ?.used ?? 0;
  const usedBefore = await used();
  const issue = await insertIssue(t.stack.db, t.userId, {
    repo: REPO,
    number,
    title: "Wind speed conversion",
    body: "See `weather/units.py`.",
  });
  const res = await t.generate({ issueId: issue.id });
  const { runId } = await res.json();
  let cancelledAt = 0;
  let cancelStatus = 0;
  let endedAt = 0;
  let stillRunning: number[] = [];
  const events = await readSse(await t.events(runId), (e: SseEvent) => {
    const d = e.data as { phase?: string; output?: string };
    if (!cancelledAt && e.event === "tests" && d.phase === phase && d.output?.includes(marker)) {
      cancelledAt = Date.now();
      stillRunning = processesWith(marker);
      void Promise.resolve(
        t.stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: t.headers }),
      ).then((r) => (cancelStatus = r.status));
    }
    if (e.event === "cancelled" || e.event === "completed" || e.event === "failed") {
      endedAt = Date.now();
      return false;
    }
  });
  const run = await t.stack.db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
  const solutions = await t.stack.db.selectFrom("solutions").select("id").where("run_id", "=", runId).execute();
  return {
    events,
    cancelledAt,
    endedAt,
    cancelStatus,
    run,
    solutions,
    usedBefore,
    usedAfter: await used(),
    stillRunning,
  };
}

describe("Cancel while the repository's tests run (real bubblewrap, slow test command)", () => {
  it("during the base phase: the run ends cancelled within 2 s, the sandboxed processes are gone, no solution, quota given back", async () => {
    await settings({ command: "sleep 61; python3 -m unittest discover -s tests -t . -v", setup: null });
    t.models.control.respondWith((p) => p.includes("units.py"), SLOW_PATCH);
    const r = await cancelDuring("base", 31, "sleep 61");
    expect(r.events.at(-1)?.event).toBe("cancelled");
    expect(r.cancelStatus).toBe(200);
    expect(r.endedAt - r.cancelledAt).toBeLessThan(2000);
    expect([r.run.status, r.run.quota_state]).toEqual(["cancelled", "released"]);
    expect(r.solutions).toEqual([]);
    expect(r.usedAfter).toBe(r.usedBefore);
    expect(r.events.some((e) => e.event === "tests" && (e.data as { phase: string }).phase === "patched")).toBe(false);
    await expect.poll(() => processesWith("sleep 61"), { timeout: 2000 }).toEqual([]);
  });

  it("during the patched phase: no repair round, no solution, ended within 2 s", async () => {
    await settings({
      command: "if grep -q SLOW weather/units.py; then sleep 62; fi; python3 -m unittest discover -s tests -t . -v",
      setup: null,
    });
    t.models.control.respondWith((p) => p.includes("units.py"), SLOW_PATCH);
    const r = await cancelDuring("patched", 32, "sleep 62");
    expect(r.events.at(-1)?.event).toBe("cancelled");
    expect(r.endedAt - r.cancelledAt).toBeLessThan(2000);
    expect([r.run.status, r.run.quota_state]).toEqual(["cancelled", "released"]);
    expect(r.solutions).toEqual([]);
    expect(r.usedAfter).toBe(r.usedBefore);
    const phases = r.events.filter((e) => e.event === "tests").map((e) => (e.data as { phase: string }).phase);
    expect(phases).toContain("base");
    expect(phases).not.toContain("repair");
    expect(t.models.control.requests.filter((q) => q.prompt.includes("breaks tests that passed"))).toEqual([]);
    await expect.poll(() => processesWith("sleep 62"), { timeout: 2000 }).toEqual([]);
  });

  it("during the repair phase: the repaired attempt is never stored", async () => {
    await settings({
      command:
        "if grep -q REPAIR weather/units.py; then sleep 64; fi; if grep -q BREAK weather/units.py; then exit 1; fi; python3 -m unittest discover -s tests -t . -v",
      setup: null,
    });
    const marked = (from: string, note: string) => ({
      ...SLOW_PATCH,
      files: [
        {
          ...SLOW_PATCH.files[0]!,
          edits: [{ search: `ABSOLUTE_ZERO_C = -273.15${from}\n`, replace: `ABSOLUTE_ZERO_C = -273.15  # ${note}\n` }],
        },
      ],
    });
    t.models.control.respondWith((p) => p.includes("units.py"), marked("", "BREAK"));
    // The repair edits the first attempt's file, as the repair prompt shows it.
    t.models.control.respondWith(
      (p) => p.includes("breaks tests that passed before it"),
      marked("  # BREAK", "REPAIR"),
    );
    const r = await cancelDuring("repair", 34, "sleep 64");
    expect(r.events.at(-1)?.event).toBe("cancelled");
    expect(r.endedAt - r.cancelledAt).toBeLessThan(2000);
    expect([r.run.status, r.run.quota_state]).toEqual(["cancelled", "released"]);
    expect(r.solutions).toEqual([]);
    expect(r.usedAfter).toBe(r.usedBefore);
    await expect.poll(() => processesWith("sleep 64"), { timeout: 2000 }).toEqual([]);
  });

  it("during the setup command: the tests never start", async () => {
    await settings({ command: "python3 -m unittest discover -s tests -t . -v", setup: "sleep 63" });
    const r = await cancelDuring("base", 33, "sleep 63");
    expect(r.events.at(-1)?.event).toBe("cancelled");
    expect(r.endedAt - r.cancelledAt).toBeLessThan(2000);
    expect(r.solutions).toEqual([]);
    expect(r.usedAfter).toBe(r.usedBefore);
    await expect.poll(() => processesWith("sleep 63"), { timeout: 2000 }).toEqual([]);
  });
});
