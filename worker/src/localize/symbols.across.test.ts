import { describe, expect, it } from "vitest";
import { type SymbolMergeWeights, symbolsAcrossFiles } from "./symbols.across";

const FLAT = { fileExp: 1, perFile: 10, symExp: 1, rankDecay: 0 };

const files = [
  {
    path: "a.py",
    score: 2,
    symbols: [
      { name: "A.run", score: 3 },
      { name: "A.stop", score: 2.4 },
      { name: "helper", score: 1.5 },
    ],
  },
  {
    path: "b.py",
    score: 1.8,
    symbols: [
      { name: "B.run", score: 1 },
      { name: "B.walk", score: 0.5 },
    ],
  },
];
const keys = (w: Partial<SymbolMergeWeights>) =>
  symbolsAcrossFiles(files, { ...FLAT, ...w }).map((s) => `${s.path}::${s.name}`);

describe("symbols across files", () => {
  it("with a file exponent of 1, puts a close second file's best symbol before the first file's second one", () => {
    expect(keys({ fileExp: 1, perFile: 10 })).toEqual([
      "a.py::A.run",
      "b.py::B.run",
      "a.py::A.stop",
      "a.py::helper",
      "b.py::B.walk",
    ]);
  });

  it("with a higher exponent, keeps to the first file while its symbols are strong", () => {
    expect(keys({ fileExp: 3, perFile: 10 })).toEqual([
      "a.py::A.run",
      "a.py::A.stop",
      "b.py::B.run",
      "a.py::helper",
      "b.py::B.walk",
    ]);
  });

  it("with a rank decay or a symbol exponent, lowers the later files' and the weaker symbols' share", () => {
    // b.py's weight 0.9 / 2: its best symbol falls below a.py's second (0.8) and third (0.5).
    expect(keys({ rankDecay: 1 }).slice(0, 4)).toEqual(["a.py::A.run", "a.py::A.stop", "a.py::helper", "b.py::B.run"]);
    // A.stop 0.8 ** 4 = 0.41 falls below B.run's 0.9.
    expect(keys({ symExp: 4 }).slice(0, 3)).toEqual(["a.py::A.run", "b.py::B.run", "a.py::A.stop"]);
  });

  it("keeps at most perFile symbols of each file, a name once, and scores a file without a score 0", () => {
    const twice = [
      {
        path: "p.py",
        score: 1,
        symbols: [
          { name: "P.x", score: 2 },
          { name: "P.x", score: 2 },
          { name: "P.y", score: 1 },
        ],
      },
    ];
    expect(symbolsAcrossFiles(twice, { ...FLAT, perFile: 2 }).map((s) => s.name)).toEqual(["P.x", "P.y"]);
    expect(keys({ fileExp: 3, perFile: 1 })).toEqual(["a.py::A.run", "b.py::B.run"]);
    expect(symbolsAcrossFiles([{ path: "c.py", score: 0, symbols: [{ name: "c", score: 1 }] }])).toEqual([
      { path: "c.py", name: "c", score: 0 },
    ]);
  });
});
