export {
  startModelSandbox,
  SANDBOX_MODEL_API_KEY,
  SANDBOX_EMBEDDING_MODEL,
  type ModelSandbox,
  type ModelSandboxOptions,
} from "./server";
export {
  ModelSandboxControl,
  type FaultSpec,
  type ReceivedRequest,
  type ReceivedEmbeddingsRequest,
  type ScriptedAnswer,
  type ModelSandboxProvider,
} from "./control";
export { answerAsOracle, oracleReproduction, oracleSolution, parseDiff } from "./oracle";
export { sandboxEmbedding, SANDBOX_EMBEDDING_DIMS } from "./embeddings.wire";
export { agentFromSolution, type AgentScript, type AgentScriptStep, type AgentTurnView } from "./answers.agent";
export { answeredIds, chatConversationError, messagesConversationError } from "./agent.conversation";
