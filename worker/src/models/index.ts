export type { ModelProvider } from "@fixloop/db/domain";
export {
  DEFAULT_MODEL_ID,
  MODEL_CATALOG,
  type ModelInfo,
  modelsConfigFromEnv,
  type ModelsConfig,
  type ProviderCredentials,
  costUsd,
  findModel,
  listModels,
} from "../contract";
export {
  estimatePromptCost,
  estimateRange,
  estimateTokens,
  parsePrices,
  TYPICAL_OUTPUT_TOKENS,
  type CostEstimate,
  type Price,
} from "../contract";
export { ModelError, type ModelErrorCode } from "./models.errors";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./models.retry";
export { callTool, generateSolution, type GenerateRequest, type GenerateResult } from "./generate";
