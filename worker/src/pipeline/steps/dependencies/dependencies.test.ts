import { describe, expect, it } from "vitest";
import { dependencies } from "./dependencies";
import type { ContextOutput } from "@fixloop/contract";

function repository(n: number): { context: ContextOutput; blobs: Map<string, string> } {
  const blobs = new Map<string, string>();
  const files = [];
  for (let i = 0; i < n; i++) {
    const path = `pkg/m${i % 20}/deep/er/file${i}.py`;
    const text = `def helper_${i}(x):\n    return x + ${i}\n`;
    blobs.set(`sha${i}`, text);
    files.push({ path, sha: `sha${i}`, size: text.length });
  }
  const refund = "def refund_payment(order):\n    return order.total - order.fee  # refund keeps the fee\n";
  blobs.set("refund", refund);
  files.push({ path: "billing/refund.py", sha: "refund", size: refund.length });
  const context: ContextOutput = {
    owner: "o",
    repo: "r",
    defaultBranch: "main",
    commitSha: "c".repeat(40),
    treeSha: "t".repeat(40),
    allPaths: files.map((f) => f.path),
    files,
    languages: [{ language: "python", files: files.length, percent: 100 }],
  };
  return { context, blobs };
}

describe("dependencies step", () => {
  const issue = { title: "refund_payment keeps the fee", body: "Refunds should return the whole total." };

  it("searches a repository over LOCALIZE_MAX_FILES in part and says so in the step", async () => {
    const { context, blobs } = repository(400);
    let reads = 0;
    const readBlob = async (sha: string): Promise<string> => {
      reads++;
      return blobs.get(sha) ?? "";
    };
    const limited = await dependencies({ context, ...issue, readBlob, maxFiles: 100 });
    expect(limited.output.files[0]?.path).toBe("billing/refund.py");
    expect(limited.detail.warnings).toContain(
      "The repository has 401 files, over the limit of 100 (LOCALIZE_MAX_FILES): searched the files the issue names, " +
        "source files whose path shares its words, then the shallowest; 301 files were not searched",
    );
    expect(reads).toBeLessThan(200);

    const whole = await dependencies({ context, ...issue, readBlob });
    expect(whole.output.files[0]?.path).toBe("billing/refund.py");
    expect(whole.detail.warnings.some((w) => w.includes("LOCALIZE_MAX_FILES"))).toBe(false);
  });

  it("lists its top functions best first across the chosen files, past three of the first file", async () => {
    const { context, blobs } = repository(40);
    const refund = [
      "def refund_payment(order):\n    return order.total - order.fee  # refund keeps the fee\n",
      "def refund_fee(order):\n    return order.fee  # the refund fee\n",
      "def refund_total(order):\n    return order.total  # the refund total\n",
      "def refund_reason(order):\n    return 'refund of the fee'\n",
    ].join("\n");
    blobs.set("refund", refund);
    const files = context.files.map((f) => (f.sha === "refund" ? { ...f, size: refund.length } : f));
    const readBlob = async (sha: string): Promise<string> => blobs.get(sha) ?? "";
    const step = await dependencies({ context: { ...context, files }, ...issue, readBlob });
    const listed = step.detail.symbols ?? [];
    expect(listed.slice(0, 4).map((s) => s.name)).toEqual(
      expect.arrayContaining(["refund_payment", "refund_fee", "refund_total", "refund_reason"]),
    );
    expect(listed[0]).toMatchObject({ path: "billing/refund.py", name: "refund_payment" });
  });
});
