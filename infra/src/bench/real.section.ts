import { classifyFigures } from "./real-classify";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

/**
 * "real": step 1's classification of the tune set's real issues, then (with MIRROR_ROOT) real
 * sympy instances through the whole product with an oracle model (real-solve.ts).
 */
export const realSection: Section = {
  name: "real",
  async run(ctx: BenchContext): Promise<Figure[]> {
    return [...(await classifyFigures(ctx.appendix))];
  },
};
