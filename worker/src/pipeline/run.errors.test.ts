import { describe, expect, it } from "vitest";
import { JsonColumnError, runs } from "@fixloop/db";
import { classifyFailure } from "./run.errors";

describe("a failure that would fail the same way again", () => {
  it("is not retried: data Postgres refuses, or a JSON value of the wrong shape", () => {
    const encoding = Object.assign(new Error("unsupported Unicode escape sequence"), { code: "22P05" });
    expect(classifyFailure(encoding, "generating")).toEqual({
      code: "run.invalid_data",
      message: "Generating Solution: unsupported Unicode escape sequence",
      retryable: false,
    });
    const shape = new JsonColumnError("run_steps.detail", []);
    expect(classifyFailure(shape, "validating")).toMatchObject({ code: "run.invalid_data", retryable: false });
  });

  it("is not retried: a refinement whose solution was decided or changed meanwhile (another attempt would spend again for nothing)", () => {
    const superseded = new runs.RefineSuperseded(
      "Not applied: the solution was approved after this refinement started",
    );
    expect(classifyFailure(superseded, null)).toEqual({
      code: "refine.superseded",
      message: "Not applied: the solution was approved after this refinement started",
      retryable: false,
    });
  });

  it("while a crash or a lost connection is retried", () => {
    expect(classifyFailure(new Error("socket hang up"), "context")).toMatchObject({ retryable: true });
    const conn = Object.assign(new Error("terminating connection"), { code: "57P01" });
    expect(classifyFailure(conn, "context")).toMatchObject({ code: "run.step_failed", retryable: true });
  });
});
