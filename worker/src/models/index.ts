export type { ModelProvider } from "@fixloop/db/domain";
export { DEFAULT_MODEL_ID, MODEL_CATALOG, type ModelInfo } from "./catalog";
export { modelsConfigFromEnv, type ModelsConfig, type ProviderCredentials } from "./models.config";
export { findModel, listModels } from "./models.list";
export { costUsd, estimatePromptCost, estimateRange, estimateTokens, parsePrices, TYPICAL_OUTPUT_TOKENS, type CostEstimate, type Price } from "./models.pricing";
export { ModelError, type ModelErrorCode } from "./models.errors";
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./models.retry";
export { generateSolution, type GenerateRequest, type GenerateResult } from "./generate";
