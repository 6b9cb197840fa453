import { z } from "zod";
import { parsePrices } from "./models.pricing";

/** The largest spending cap a user may set, in USD (the database keeps amounts as numeric(12, 6)). */
export const MAX_COST_CAP_USD = 999_999;

/** Env schemas of cost settings, shared by the API's and the worker's env. */
export const CostCapSetting = z.preprocess(
  (v) => (v === "" ? undefined : v),
  z.coerce.number().nonnegative().optional(),
);

export const PricesSetting = z
  .string()
  .default("")
  .refine(
    (text) => {
      try {
        parsePrices(text);
        return true;
      } catch {
        return false;
      }
    },
    { message: "expected model=input/output entries in USD per million tokens" },
  );
