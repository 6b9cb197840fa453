import { describe, expect, it } from "vitest";
import { sideBySide } from "./side-by-side";

describe("sideBySide", () => {
  it("pairs a changed line across and counts added and removed lines", () => {
    const d = sideBySide("a\nb\nc\n", "a\nB\nc\nd\n");
    expect(d.added).toBe(2);
    expect(d.removed).toBe(1);
    expect(d.rows.map((r) => [r.left?.text ?? null, r.right?.text ?? null])).toEqual([
      ["a", "a"],
      ["b", "B"],
      ["c", "c"],
      [null, "d"],
    ]);
    expect(d.rows[1]).toMatchObject({ left: { n: 2, removed: true }, right: { n: 2, added: true } });
  });

  it("shows a created file as added lines only", () => {
    const d = sideBySide("", "x\ny");
    expect(d).toMatchObject({ added: 2, removed: 0 });
    expect(d.rows.every((r) => r.left === null)).toBe(true);
  });
});
