import { describe, expect, it } from "vitest";
import { sideBySide, unified } from "./side-by-side";

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

  it("lists a change in one column, removed lines before the lines that replace them", () => {
    expect(unified("a\nb\nc\n", "a\nB\nc\nd\n")).toEqual([
      { kind: "context", old: 1, new: 1, text: "a" },
      { kind: "removed", old: 2, new: null, text: "b" },
      { kind: "added", old: null, new: 2, text: "B" },
      { kind: "context", old: 3, new: 3, text: "c" },
      { kind: "added", old: null, new: 4, text: "d" },
    ]);
  });
});
