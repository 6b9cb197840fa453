import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";
import { WebhookSender } from "./webhooks.sender";

let t: TestSandbox;
let receiver: http.Server;
let base = "";
let routed = "";
/** Every delivery the receiver got: the path it was sent to, its event, signature and body. */
const got: { path: string; event: string; signature: string; body: string }[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      got.push({
        path: req.url ?? "",
        event: String(req.headers["x-github-event"]),
        signature: String(req.headers["x-hub-signature-256"]),
        body,
      });
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await startTestSandbox();
  t.sandbox.control.setWebhook({ url: `${base}/repository-hook`, secret: "configured-secret" });
});

afterAll(async () => {
  await t.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** Makes an App through the manifest pages and its conversion, with its own hook; returns its slug. */
async function manifestApp(hookPath: string, events: string[]): Promise<string> {
  const manifest = JSON.stringify({
    name: "Routed",
    url: base,
    redirect_url: `${base}/back`,
    hook_attributes: { url: `${base}${hookPath}` },
    default_permissions: { issues: "write", metadata: "read" },
    default_events: events,
  });
  const confirmed = await fetch(`${t.sandbox.url}/settings/apps/new/confirm`, {
    method: "POST",
    body: new URLSearchParams({ manifest, login: "octocat", state: "st" }),
    redirect: "manual",
  });
  const code = new URL(confirmed.headers.get("location") ?? "http://x/").searchParams.get("code");
  const res = await fetch(`${t.sandbox.url}/app-manifests/${code}/conversions`, { method: "POST" });
  return ((await res.json()) as { slug: string }).slug;
}

async function deliveriesAfter(work: () => void) {
  await t.sandbox.control.webhookDeliveries();
  const from = got.length;
  work();
  await t.sandbox.control.webhookDeliveries();
  return got.slice(from);
}

describe("per-App webhook routing on the GitHub stand-in", () => {
  it("sends a manifest App's installation events to its own hook only, signed with its own secret", async () => {
    const slug = (routed = await manifestApp("/app-hook", ["issues"]));
    const secret = t.sandbox.control.app(slug).webhookSecret ?? "";
    const sent = await deliveriesAfter(() => t.sandbox.control.install("octocat", "octocat", ["todo-api"], slug));
    expect(sent.map((d) => [d.path, d.event])).toEqual([["/app-hook", "installation"]]);
    expect(sent[0]?.signature).toBe(WebhookSender.sign(secret, sent[0]?.body ?? ""));
    expect(sent[0]?.signature).not.toBe(WebhookSender.sign("configured-secret", sent[0]?.body ?? ""));
  });

  it("sends an installed repository's subscribed events to the App with its installation, and the configured hook keeps its own", async () => {
    const [n = 0] = t.sandbox.control.addIssues("octocat", "todo-api", [{ title: "Routed issue" }]);
    const sent = await deliveriesAfter(() => t.sandbox.control.deleteIssue("octocat", "todo-api", n, "octocat"));
    expect(sent.map((d) => [d.path, d.event]).sort()).toEqual([
      ["/app-hook", "issues"],
      ["/repository-hook", "issues"],
    ]);
    const toApp = JSON.parse(sent.find((d) => d.path === "/app-hook")?.body ?? "{}") as {
      installation?: { id: number };
    };
    expect(toApp.installation?.id).toBeGreaterThan(0);
    expect(routed).toMatch(/^routed-/);
  });

  it("sends nothing to the App for a repository it is not installed on", async () => {
    const [n = 0] = t.sandbox.control.addIssues("octocat", "weather-cli", [{ title: "Elsewhere" }]);
    const sent = await deliveriesAfter(() => t.sandbox.control.deleteIssue("octocat", "weather-cli", n, "octocat"));
    expect(sent.map((d) => d.path)).toEqual(["/repository-hook"]);
  });

  it("delivers once to a receiver that is both the configured hook and the App's", async () => {
    const slug = await manifestApp("/repository-hook", ["issues"]);
    t.sandbox.control.install("octocat", "octocat", ["url-shortener"], slug);
    const [n = 0] = t.sandbox.control.addIssues("octocat", "url-shortener", [{ title: "Once" }]);
    const sent = await deliveriesAfter(() => t.sandbox.control.deleteIssue("octocat", "url-shortener", n, "octocat"));
    const secret = t.sandbox.control.app(slug).webhookSecret ?? "";
    expect(sent.map((d) => [d.path, d.signature])).toEqual([
      ["/repository-hook", WebhookSender.sign(secret, sent[0]?.body ?? "")],
    ]);
  });
});
