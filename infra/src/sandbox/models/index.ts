export { startModelSandbox, SANDBOX_MODEL_API_KEY, type ModelSandbox, type ModelSandboxOptions } from "./server";
export {
  ModelSandboxControl,
  type FaultSpec,
  type ReceivedRequest,
  type ScriptedAnswer,
  type ModelSandboxProvider,
} from "./control";
