import http from "node:http";
import type { AddressInfo } from "node:net";
import { SEEDED_FIXES, type SeededFix } from "../github/seed";
import { fallbackSolution, MALFORMED_ARGUMENTS, REPAIR_PROMPT, seededSolution } from "./answers";
import { latestFeedback, refinedSolution } from "./answers.refine";
import { chosenFiles } from "./answers.rerank";
import { CHOOSE_FILES_TOOL, REPRODUCTION_TOOL } from "@fixloop/contract";
import { reproductionAnswer } from "./answers.reproduction";
import { agentFromSolution, agentTurnView, isAgentRequest, scriptSteps } from "./answers.agent";
import { answeredIds, chatConversationError, messagesConversationError } from "./agent.conversation";
import {
  messagesBadRequest,
  messagesFault,
  messagesNotFound,
  messagesResponse,
  messagesToolUseResponse,
  messagesUnauthorized,
  parseMessagesRequest,
} from "./anthropic.wire";
import { embeddingsResponse, parseEmbeddingsRequest } from "./embeddings.wire";
import { ModelSandboxControl, type ModelSandboxProvider, type ReceivedRequest } from "./control";
import {
  chatBadRequest,
  chatFault,
  chatNotFound,
  chatToolCallResponse,
  chatToolCallsResponse,
  chatUnauthorized,
  groqToolUseFailed,
  parseChatRequest,
  type ChatFlavor,
} from "./openai.wire";
import { estimateTokens, randomId, type WireResponse } from "./wire";
import { STAND_IN_KEEP_ALIVE_MS } from "../keep-alive";

export const SANDBOX_MODEL_API_KEY = "sandbox-model-key";

export interface ModelSandboxOptions {
  /** 0 or absent picks a free port. */
  port?: number;
  host?: string;
  log?: (line: string) => void;
  apiKey?: string;
  /** Answers for known issues; defaults to the GitHub stand-in's seeded fixes. */
  fixes?: readonly SeededFix[];
}

/** A running model stand-in speaking the OpenAI, Groq and Anthropic wire formats. */
export interface ModelSandbox {
  url: string;
  /** Provider settings pointing at this stand-in, in the env names the API and worker read. */
  env: Record<string, string>;
  /** Base URL of an unauthenticated OpenAI-compatible server (like a local Ollama). */
  compatibleBaseURL: string;
  /** Embedding settings (EMBEDDINGS_*) pointing at this stand-in's `/v1/embeddings`. */
  embeddingsEnv: Record<string, string>;
  control: ModelSandboxControl;
  stop(): Promise<void>;
}

interface Route {
  provider: ModelSandboxProvider;
  flavor: ChatFlavor | "anthropic";
  auth: boolean;
}

const ROUTES: Record<string, Route> = {
  "/openai/v1/chat/completions": { provider: "openai", flavor: "openai", auth: true },
  "/compatible/v1/chat/completions": { provider: "openai", flavor: "openai", auth: false },
  "/groq/openai/v1/chat/completions": { provider: "groq", flavor: "groq", auth: true },
  "/anthropic/v1/messages": { provider: "anthropic", flavor: "anthropic", auth: true },
};

/** `POST /v1/embeddings` paths, and whether they check the API key. */
const EMBEDDING_ROUTES: Record<string, { auth: boolean }> = {
  "/openai/v1/embeddings": { auth: true },
  "/compatible/v1/embeddings": { auth: false },
};

export const SANDBOX_EMBEDDING_MODEL = "text-embedding-3-small";

const MAX_BODY_BYTES = 20 * 1024 * 1024;

async function readBody(req: http.IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: http.ServerResponse, flavor: Route["flavor"], out: WireResponse): void {
  if (res.writableEnded || res.destroyed) return;
  const idHeader = flavor === "anthropic" ? { "request-id": randomId("req_") } : { "x-request-id": randomId("req_") };
  const extra = flavor === "openai" ? { "openai-version": "2020-10-01", "openai-processing-ms": "42" } : {};
  res.writeHead(out.status, { "content-type": "application/json", ...idHeader, ...extra, ...out.headers });
  res.end(JSON.stringify(out.body));
}

function authorized(req: http.IncomingMessage, flavor: Route["flavor"], apiKey: string): boolean {
  const bearer = req.headers.authorization === `Bearer ${apiKey}`;
  // Anthropic takes the key as x-api-key; its newer SDKs send it as a bearer token.
  return flavor === "anthropic" ? req.headers["x-api-key"] === apiKey || bearer : bearer;
}

/**
 * The known fix (or a small generic change); a refinement prompt gets what its newest feedback
 * asks for, except the tests' repair round, which a seeded fix answers with its repair.
 */
function scriptedAnswer(fixes: readonly SeededFix[], prompt: string) {
  const seeded = seededSolution(fixes, prompt);
  if (seeded && REPAIR_PROMPT.test(latestFeedback(prompt) ?? "")) return seeded;
  const base = seeded ?? fallbackSolution(prompt);
  return refinedSolution(prompt, base) ?? base;
}

export async function startModelSandbox(opts: ModelSandboxOptions = {}): Promise<ModelSandbox> {
  const control = new ModelSandboxControl();
  const apiKey = opts.apiKey ?? SANDBOX_MODEL_API_KEY;
  const fixes = opts.fixes ?? SEEDED_FIXES;
  const log = opts.log ?? (() => {});

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const closed = new Promise<void>((resolve) => res.once("close", resolve));
    const path = new URL(req.url ?? "/", "http://sandbox").pathname;
    const embeddings = EMBEDDING_ROUTES[path];
    if (embeddings && req.method === "POST") return handleEmbeddings(req, res, embeddings.auth);
    const route = ROUTES[path];
    const flavorOf = path.startsWith("/anthropic") ? "anthropic" : path.startsWith("/groq") ? "groq" : "openai";
    if (!route || req.method !== "POST") {
      return send(res, flavorOf, flavorOf === "anthropic" ? messagesNotFound() : chatNotFound(flavorOf));
    }
    const { flavor } = route;
    const bad = (m: string): WireResponse =>
      flavor === "anthropic" ? messagesBadRequest(m) : chatBadRequest(m, flavor);
    if (route.auth && !authorized(req, flavor, apiKey)) {
      return send(res, flavor, flavor === "anthropic" ? messagesUnauthorized() : chatUnauthorized(flavor));
    }
    if (flavor === "anthropic" && !req.headers["anthropic-version"]) {
      return send(res, flavor, bad("anthropic-version: header is required"));
    }
    const text = await readBody(req);
    if (text === null) return send(res, flavor, { ...bad("Request too large"), status: 413 });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return send(res, flavor, bad("We could not parse the JSON body of your request."));
    }
    const parsed = flavor === "anthropic" ? parseMessagesRequest(body) : parseChatRequest(body);
    if (typeof parsed === "string") return send(res, flavor, bad(parsed));
    const agent = isAgentRequest(body) ? agentTurnView(body) : null;
    const messages = (body as { messages: unknown[] }).messages;
    const received: ReceivedRequest = {
      provider: route.provider,
      model: parsed.model,
      system: parsed.system,
      prompt: parsed.prompt,
      ...(parsed.tool && !agent ? { tool: parsed.tool } : {}),
      ...(agent ? { agentTurn: agent.turn } : {}),
      path,
      at: Date.now(),
    };
    control.requests.push(received);
    // An agent's conversation is held to the provider's tool-calling rules (ids answered, in order).
    const broken = !agent
      ? null
      : flavor === "anthropic"
        ? messagesConversationError(messages)
        : chatConversationError(messages);
    if (broken) return send(res, flavor, bad(broken));

    const fault = control.takeFault();
    if (fault) {
      return send(res, flavor, flavor === "anthropic" ? messagesFault(fault) : chatFault(fault, parsed.model, flavor));
    }
    const aborted = (): boolean => {
      if (res.writableEnded) return false;
      control.abortedRequests += 1;
      return true;
    };
    if (control.takeHang()) {
      await closed;
      aborted();
      return;
    }
    const latency = control.currentLatency();
    if (latency > 0) {
      let timer: NodeJS.Timeout | undefined;
      const slept = await Promise.race([
        new Promise<boolean>((r) => (timer = setTimeout(() => r(true), latency))),
        closed.then(() => false),
      ]);
      clearTimeout(timer);
      if (!slept && aborted()) return;
    }

    if (agent) {
      // No agent script: play the single pass's answer turn by turn, a rule set for the task first.
      const ruled = control.scripted(agent.task);
      const solution = ruled && !("raw" in ruled) ? ruled : scriptedAnswer(fixes, agent.task);
      const script = control.scriptedAgent(agent.task) ?? agentFromSolution(solution);
      const steps = scriptSteps(script, agent);
      const made = steps.map(() => (flavor === "anthropic" ? randomId("toolu_01", 16) : randomId("call_")));
      const usage = control.tokens({
        input: estimateTokens(parsed.all),
        output: estimateTokens(JSON.stringify(steps.map((s) => s.args))),
      });
      // OpenAI, Groq and OpenAI-compatible servers end a turn that calls tools with "tool_calls"
      // (the agent's tool_choice is "required"); Anthropic with stop_reason "tool_use".
      received.toolIds = {
        answered: answeredIds(messages),
        made,
        stop: flavor === "anthropic" ? "tool_use" : "tool_calls",
      };
      return send(
        res,
        flavor,
        flavor === "anthropic"
          ? messagesToolUseResponse(
              parsed.model,
              steps.map((s, i) => ({ name: s.tool, input: s.args, id: made[i] })),
              usage,
            )
          : chatToolCallsResponse(
              parsed.model,
              steps.map((s, i) => ({ name: s.tool, arguments: JSON.stringify(s.args), id: made[i] })),
              usage,
              flavor,
              "tool_calls",
            ),
      );
    }
    const malformed = control.takeMalformed();
    const answer = malformed
      ? { raw: MALFORMED_ARGUMENTS }
      : parsed.tool === CHOOSE_FILES_TOOL
        ? chosenFiles(fixes, parsed.prompt)
        : parsed.tool === REPRODUCTION_TOOL
          ? (control.scriptedReproduction(parsed.prompt) ?? reproductionAnswer(fixes, parsed.prompt))
          : (control.scripted(parsed.prompt) ?? scriptedAnswer(fixes, parsed.prompt));
    const args = "raw" in answer ? answer.raw : JSON.stringify(answer);
    const usage = control.tokens({ input: estimateTokens(parsed.all), output: estimateTokens(args) });
    let json: unknown;
    try {
      json = JSON.parse(args);
    } catch {
      json = undefined;
    }
    if (flavor === "anthropic") {
      const input = malformed ? { analysis: "The issue is caused by", confidence: "high" } : json;
      return send(
        res,
        flavor,
        messagesResponse(
          parsed.model,
          input && typeof input === "object" && !Array.isArray(input) ? input : null,
          args,
          usage,
          parsed.tool,
        ),
      );
    }
    if (flavor === "groq" && (malformed || json === undefined)) {
      return send(res, flavor, groqToolUseFailed(`<function=${parsed.tool}>${args}</function>`));
    }
    return send(res, flavor, chatToolCallResponse(parsed.model, args, usage, flavor, parsed.tool));
  }

  /** Deterministic embeddings in the OpenAI wire format; every request is counted. */
  async function handleEmbeddings(req: http.IncomingMessage, res: http.ServerResponse, auth: boolean): Promise<void> {
    if (auth && !authorized(req, "openai", apiKey)) return send(res, "openai", chatUnauthorized("openai"));
    const text = await readBody(req);
    if (text === null) return send(res, "openai", { ...chatBadRequest("Request too large", "openai"), status: 413 });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return send(res, "openai", chatBadRequest("We could not parse the JSON body of your request.", "openai"));
    }
    const parsed = parseEmbeddingsRequest(body);
    if (typeof parsed === "string") return send(res, "openai", chatBadRequest(parsed, "openai"));
    control.embeddingRequests.push({ model: parsed.model, inputs: parsed.inputs, at: Date.now() });
    const fault = control.takeEmbeddingFault();
    if (fault) return send(res, "openai", chatFault(fault, parsed.model, "openai"));
    return send(res, "openai", embeddingsResponse(parsed));
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(
        `model sandbox: ${req.method} ${req.url} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "Internal server error", type: "server_error" } }));
    });
  });
  server.keepAliveTimeout = STAND_IN_KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${opts.host ?? "127.0.0.1"}:${port}`;
  log(`model sandbox listening on ${url}`);
  return {
    url,
    env: {
      GROQ_API_KEY: apiKey,
      GROQ_BASE_URL: `${url}/groq`,
      OPENAI_API_KEY: apiKey,
      OPENAI_BASE_URL: `${url}/openai/v1`,
      ANTHROPIC_API_KEY: apiKey,
      ANTHROPIC_BASE_URL: `${url}/anthropic`,
    },
    compatibleBaseURL: `${url}/compatible/v1`,
    embeddingsEnv: {
      EMBEDDINGS_BASE_URL: `${url}/openai/v1`,
      EMBEDDINGS_API_KEY: apiKey,
      EMBEDDINGS_MODEL: SANDBOX_EMBEDDING_MODEL,
    },
    control,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
