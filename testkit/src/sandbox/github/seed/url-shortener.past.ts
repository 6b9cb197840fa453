import type { SeedClosedPull } from "./seed.types";
import { URL_SHORTENER_FILES } from "./url-shortener.files";
import { URL_SHORTENER_PKG } from "./url-shortener.pkg";

const FILES: Record<string, string> = { ...URL_SHORTENER_FILES, ...URL_SHORTENER_PKG };

/** A file of the default branch with each `[now, then]` undone: how it read before a past fix. */
function before(path: string, edits: [string, string][]): string {
  let text = FILES[path];
  if (text === undefined) throw new Error(`url-shortener has no ${path}`);
  for (const [now, then] of edits) {
    if (text.split(now).length !== 2) throw new Error(`${path}: "${now}" must occur once`);
    text = text.replace(now, then);
  }
  return text;
}

/** Issue #1 "Support expiring links": the request had no ttl and links had no expiry. */
const EXPIRY: SeedClosedPull = {
  title: "Expire links after an optional ttl",
  body: "`POST /shorten` takes an optional `ttl` (a Go duration); a link past its expiry answers 410 Gone.\n\nFixes #1",
  user: "hubot",
  branch: "expiring-links",
  createdAt: "2023-04-11T09:00:00Z",
  closedAt: "2023-04-12T17:44:00Z",
  merged: true,
  before: {
    "shortener/handler.go": before("shortener/handler.go", [
      ['\tURL string `json:"url"`\n\tTTL string `json:"ttl"`\n', '\tURL string `json:"url"`\n'],
      [
        '\t\tvar ttl time.Duration\n\t\tif req.TTL != "" {\n\t\t\td, err := time.ParseDuration(req.TTL)\n\t\t\tif err != nil {\n\t\t\t\twriteJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid ttl"})\n\t\t\t\treturn\n\t\t\t}\n\t\t\tttl = d\n\t\t}\n',
        "",
      ],
      ["store.Shorten(req.URL, ttl)", "store.Shorten(req.URL)"],
      [
        '\t\tcase errors.Is(err, ErrExpired):\n\t\t\twriteJSON(w, http.StatusGone, map[string]string{"error": err.Error()})\n',
        "",
      ],
      ['\t"errors"\n', ""],
      ['\t"time"\n', ""],
    ]),
    "shortener/store.go": before("shortener/store.go", [
      ['\tErrExpired  = errors.New("link expired")\n', ""],
      ['\tExpiresAt time.Time `json:"expires_at,omitempty"`\n', ""],
      ["Shorten(url string, ttl time.Duration)", "Shorten(url string)"],
      ["\tif ttl > 0 {\n\t\tlink.ExpiresAt = link.CreatedAt.Add(ttl)\n\t}\n", ""],
    ]),
    "shortener/store_test.go": before("shortener/store_test.go", [
      ['s.Shorten("https://example.com/docs", time.Hour)', 's.Shorten("https://example.com/docs")'],
      ['import (\n\t"testing"\n\t"time"\n)', 'import "testing"'],
    ]),
  },
};

/** Issue #5 "Return JSON errors instead of plain text": errors went out through http.Error. */
const plain = (status: string, message: string): [string, string] => [
  `writeJSON(w, ${status}, map[string]string{"error": ${message}})`,
  `http.Error(w, ${message}, ${status})`,
];
const JSON_ERRORS: Omit<SeedClosedPull, "merged" | "closedAt" | "branch"> = {
  title: "Answer errors as JSON",
  body: "Every error now answers `application/json` with an `error` field, like the successful responses.\n\nCloses #5",
  user: "hubot",
  createdAt: "2023-05-03T10:00:00Z",
  before: {
    "shortener/handler.go": before("shortener/handler.go", [
      plain("http.StatusBadRequest", '"invalid JSON body"'),
      plain("http.StatusBadRequest", '"invalid ttl"'),
      plain("http.StatusUnprocessableEntity", "err.Error()"),
      plain("http.StatusGone", "err.Error()"),
      plain("http.StatusNotFound", "err.Error()"),
    ]),
  },
};

/** Issue #6 "Data races slip through CI": the fix is in the workflow, which no source file leads to. */
const RACE_CHECK: SeedClosedPull = {
  title: "Run the tests with the race detector in CI",
  body: "Resolves #6",
  user: "octocat",
  branch: "ci-race",
  createdAt: "2023-05-31T16:00:00Z",
  closedAt: "2023-06-01T10:14:00Z",
  merged: true,
  before: {
    ".github/workflows/ci.yml": before(".github/workflows/ci.yml", [["go test -race ./...", "go test ./..."]]),
  },
};

/**
 * The repository's past: merged fixes of its closed issues #1, #5 and #6 (each with its base
 * commit), and an earlier attempt at #5 closed unmerged, which a backtest must pass over.
 */
export const URL_SHORTENER_PAST: SeedClosedPull[] = [
  EXPIRY,
  { ...JSON_ERRORS, branch: "json-errors-draft", merged: false, closedAt: "2023-05-03T12:00:00Z" },
  { ...JSON_ERRORS, branch: "json-errors", merged: true, closedAt: "2023-05-04T09:29:00Z" },
  RACE_CHECK,
];
