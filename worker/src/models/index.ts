export type { ModelProvider } from "@fixloop/contract";
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
} from "@fixloop/contract";
export {
  estimatePromptCost,
  estimateRange,
  estimateTokens,
  parsePrices,
  TYPICAL_OUTPUT_TOKENS,
  type CostEstimate,
  type Price,
} from "@fixloop/contract";
export { ModelError, type ModelErrorCode } from "./models.errors";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./models.retry";
export { callTool, generateSolution, type GenerateRequest, type GenerateResult } from "./generate";
