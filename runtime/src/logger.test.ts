import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

describe("createLogger", () => {
  it("redacts every secret path for the API and the worker alike", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = createLogger("info", "worker", sink);
    const secrets = {
      token: "t-1",
      accessToken: "t-2",
      access_token: "t-3",
      authorization: "Bearer t-4",
      password: "t-5",
      secret: "t-6",
    };
    logger.info({ account: secrets, req: { headers: { authorization: "Bearer t-7", cookie: "s=t-8" } } }, "hello");
    const line = JSON.parse(lines.join(""));
    expect(line.account).toEqual(Object.fromEntries(Object.keys(secrets).map((k) => [k, "[redacted]"])));
    expect(line.req.headers).toEqual({ authorization: "[redacted]", cookie: "[redacted]" });
    expect(lines.join("")).not.toMatch(/t-\d/);
  });
});
