import type { SeededFix, SeedRepo } from "./seed.types";
import { URL_SHORTENER_FILES } from "./url-shortener.files";
import { URL_SHORTENER_PAST } from "./url-shortener.past";
import { URL_SHORTENER_PKG } from "./url-shortener.pkg";

export const URL_SHORTENER: SeedRepo = {
  owner: "octocat",
  name: "url-shortener",
  description: "A small URL shortener in Go, standard library only",
  language: "Go",
  topics: ["go", "url-shortener", "http"],
  private: false,
  defaultBranch: "main",
  createdAt: "2023-03-28T15:02:19Z",
  commits: [
    {
      message: "Initial commit",
      date: "2023-03-28T15:10:51Z",
      files: { ...URL_SHORTENER_FILES, ...URL_SHORTENER_PKG },
    },
  ],
  issues: [
    {
      title: "Support expiring links",
      body: "Allow an optional `ttl` (Go duration string) on `POST /shorten`; expired links should answer 410 Gone.",
      labels: ["enhancement"],
      user: "hubot",
      createdAt: "2023-04-10T08:30:00Z",
      state: "closed",
      stateReason: "completed",
      closedAt: "2023-04-12T17:45:00Z",
      comments: 2,
    },
    {
      title: "The very first short link gets an empty code",
      body: 'On a fresh server the first `POST /shorten` answers `{"code": "", "short_url": "http://localhost:8080/"}`, and that link can never be resolved.\n\nIds start at 0 and `Encode()` in `shortener/code.go` returns an empty string for 0. It should return `"0"` (and `Decode("0")` already gives 0).',
      labels: ["bug"],
      user: "hubot",
      createdAt: "2024-01-22T16:40:27Z",
      state: "open",
      comments: 1,
    },
    {
      title: "Expired links keep redirecting",
      body: 'A link created with `"ttl": "1m"` still redirects an hour later. The handler maps `ErrExpired` to 410 Gone, but `Store.Resolve()` in `shortener/store.go` never checks `ExpiresAt`, so `ErrExpired` is never returned.',
      labels: ["bug"],
      user: "octocat",
      createdAt: "2024-02-14T10:11:12Z",
      state: "open",
    },
    {
      title: "`http://` without a host is accepted",
      body: '`POST /shorten {"url": "http://"}` succeeds and creates a link that redirects nowhere. `ValidateURL()` in `shortener/validate.go` checks the scheme but not the host; URLs without a host should be rejected with 422.',
      labels: ["bug", "good first issue"],
      user: "hubot",
      createdAt: "2024-03-05T19:55:41Z",
      state: "open",
      comments: 1,
    },
    {
      title: "Return JSON errors instead of plain text",
      body: "Errors come back as `text/plain` from `http.Error`. Clients expect JSON.",
      labels: ["enhancement"],
      user: "hubot",
      createdAt: "2023-05-02T12:00:00Z",
      state: "closed",
      stateReason: "completed",
      closedAt: "2023-05-04T09:30:00Z",
    },
    {
      title: "Hits are lost under load",
      body: "Concurrent requests to one short link lose hits: after 1000 parallel redirects `hits` says 941. The tests pass, so nothing warned us before the release.",
      labels: ["bug"],
      user: "octocat",
      createdAt: "2023-05-30T08:00:00Z",
      state: "closed",
      stateReason: "completed",
      closedAt: "2023-06-01T10:15:00Z",
    },
  ],
  closedPulls: URL_SHORTENER_PAST,
};

export const URL_SHORTENER_FIXES: SeededFix[] = [
  {
    repo: "octocat/url-shortener",
    issueNumber: 2,
    title: 'Encode id 0 as "0"',
    analysis:
      "Encode() builds the code digit by digit while id > 0, so id 0 produces no digits and an empty code. The store hands out id 0 to the first link.",
    proposedSolution:
      "Return the first alphabet character for id 0, and test that Encode(0) round-trips through Decode.",
    files: [
      {
        filename: "shortener/code.go",
        action: "modify",
        edits: [
          {
            search: "\tvar b strings.Builder\n\tfor id > 0 {\n",
            replace: "\tif id == 0 {\n\t\treturn string(alphabet[0])\n\t}\n\tvar b strings.Builder\n\tfor id > 0 {\n",
          },
        ],
      },
      {
        filename: "shortener/code_test.go",
        action: "modify",
        edits: [
          {
            search: "func TestDecodeRejectsInvalidCharacters(t *testing.T) {\n",
            replace:
              'func TestEncodeZero(t *testing.T) {\n\tif code := Encode(0); code != "0" {\n\t\tt.Fatalf("Encode(0) = %q, want \\"0\\"", code)\n\t}\n}\n\nfunc TestDecodeRejectsInvalidCharacters(t *testing.T) {\n',
          },
        ],
      },
    ],
  },
  {
    repo: "octocat/url-shortener",
    issueNumber: 3,
    title: "Check link expiry in Store.Resolve",
    analysis:
      "Shorten() sets ExpiresAt when a ttl is given, but Resolve() returns the link without looking at it, so ErrExpired is never produced.",
    proposedSolution:
      "In Resolve(), return ErrExpired when the link has an expiry time that is not after now (without counting a hit).",
    files: [
      {
        filename: "shortener/store.go",
        action: "modify",
        edits: [
          {
            search: "\t\treturn nil, ErrNotFound\n\t}\n\tlink.Hits++\n",
            replace:
              "\t\treturn nil, ErrNotFound\n\t}\n\tif !link.ExpiresAt.IsZero() && !s.now().Before(link.ExpiresAt) {\n\t\treturn nil, ErrExpired\n\t}\n\tlink.Hits++\n",
          },
        ],
      },
    ],
  },
  {
    repo: "octocat/url-shortener",
    issueNumber: 4,
    title: "Reject URLs without a host",
    analysis: 'ValidateURL() only checks the scheme; url.Parse("http://") succeeds with an empty Host.',
    proposedSolution: "Return an error when the parsed URL has no host.",
    files: [
      {
        filename: "shortener/validate.go",
        action: "modify",
        edits: [
          {
            search: '\t\treturn errors.New("only http and https URLs can be shortened")\n\t}\n',
            replace:
              '\t\treturn errors.New("only http and https URLs can be shortened")\n\t}\n\tif u.Host == "" {\n\t\treturn errors.New("url must include a host")\n\t}\n',
          },
        ],
      },
    ],
  },
];
