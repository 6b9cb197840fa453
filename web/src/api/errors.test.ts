import { describe, expect, it } from "vitest";
import { errorMessage, unwrap } from "./errors";

const response = (status: number, body: string) =>
  new Response(body, { status, headers: { "content-type": "application/json" } });

describe("errorMessage", () => {
  it("shows the server's own message when the error body carries one", async () => {
    const err = await unwrap(
      response(400, JSON.stringify({ error: { code: "url.invalid", message: "Not a GitHub URL" } })),
    ).catch((e: unknown) => e);
    expect(errorMessage(err, "Invalid URL")).toBe("Not a GitHub URL");
  });

  it("falls back to the situation's text when the body has no message", async () => {
    const err = await unwrap(response(502, "<html>Bad gateway</html>")).catch((e: unknown) => e);
    expect(errorMessage(err, "Failed to import issue")).toBe("Failed to import issue");
  });

  it("falls back to the situation's text on a network failure", () => {
    expect(errorMessage(new TypeError("Failed to fetch"), "Failed to fetch issue details")).toBe(
      "Failed to fetch issue details",
    );
  });
});
