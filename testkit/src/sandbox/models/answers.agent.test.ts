import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SANDBOX_MODEL_API_KEY, startModelSandbox, type ModelSandbox } from "./index";

let sandbox: ModelSandbox;
beforeAll(async () => {
  sandbox = await startModelSandbox();
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

const tools = ["list_dir", "open_file", "edit", "run", "submit"].map((name) => ({
  type: "function",
  function: { name, description: name, parameters: { type: "object", properties: {} } },
}));

/** An Investigate turn in the OpenAI wire format, after `done` earlier turns; answers the tool called and its arguments. */
async function turn(task: string, done: number): Promise<{ name: string; args: Record<string, unknown> }> {
  const earlier = Array.from({ length: done }, (_, i) => [
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `c${i}`, type: "function", function: { name: "list_dir", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: `c${i}`, content: "ok" },
  ]).flat();
  const res = await fetch(`${sandbox.url}/openai/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${SANDBOX_MODEL_API_KEY}` },
    body: JSON.stringify({
      model: "gpt-4o",
      messages: [{ role: "system", content: "You investigate." }, { role: "user", content: task }, ...earlier],
      tools,
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[];
  };
  const call = body.choices[0]?.message.tool_calls[0]?.function;
  return { name: call?.name ?? "", args: JSON.parse(call?.arguments ?? "{}") as Record<string, unknown> };
}

describe("the model stand-in as an Investigate agent with no agent script", () => {
  it("plays the answer a rule sets for the task turn by turn: opens, edits and submits that answer's file", async () => {
    sandbox.control.respondWith((p) => p.includes("TensorProduct"), {
      analysis: "A scalar factor stops the expansion.",
      proposedSolution: "Split off the scalars.",
      confidence: 90,
      files: [
        {
          filename: "sympy/physics/quantum/tensorproduct.py",
          action: "modify",
          edits: [{ search: "add_args.append(tp)", replace: "add_args.append(Mul(*c_part)*tp)" }],
        },
      ],
    });
    const task = "Issue: expand of TensorProduct stops early";
    const steps = [];
    for (let done = 0; done < 4; done++) steps.push(await turn(task, done));
    expect(steps.map((s) => s.name)).toEqual(["list_dir", "open_file", "edit", "submit"]);
    expect(steps[1]?.args.path).toBe("sympy/physics/quantum/tensorproduct.py");
    expect(steps[2]?.args).toMatchObject({ path: "sympy/physics/quantum/tensorproduct.py", action: "modify" });
    expect(steps[3]?.args).toMatchObject({ analysis: "A scalar factor stops the expansion." });
  });
});
