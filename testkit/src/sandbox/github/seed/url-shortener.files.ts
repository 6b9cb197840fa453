/** Docs, config, main and HTTP handler of the seeded octocat/url-shortener repository (Go). */
export const URL_SHORTENER_FILES: Record<string, string> = {
  "README.md": `# url-shortener

A small URL shortener written in Go with only the standard library.

## Run

    go run .            # listens on :8080

## API

    POST /shorten   {"url": "https://example.com/a/long/path", "ttl": "24h"}
                    -> 201 {"code": "1c", "short_url": "http://localhost:8080/1c"}
    GET  /{code}    -> 302 redirect to the original URL
                    -> 404 unknown code, 410 expired link

\`ttl\` is optional; links without one never expire.

## Test

    go test ./...
`,
  "go.mod": `module github.com/octocat/url-shortener

go 1.22
`,
  ".gitignore": `/url-shortener
*.test
`,
  ".github/workflows/ci.yml": `name: CI

on:
  push:
    branches: [main]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: "1.22"
      - run: go vet ./...
      - run: go test -race ./...
`,
  "main.go": `package main

import (
	"log"
	"net/http"
	"os"

	"github.com/octocat/url-shortener/shortener"
)

func main() {
	addr := os.Getenv("ADDR")
	if addr == "" {
		addr = ":8080"
	}
	base := os.Getenv("BASE_URL")
	if base == "" {
		base = "http://localhost:8080"
	}
	handler := shortener.NewHandler(shortener.NewStore(), base)
	log.Printf("url-shortener listening on %s", addr)
	log.Fatal(http.ListenAndServe(addr, handler))
}
`,
  "shortener/handler.go": `package shortener

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
)

type shortenRequest struct {
	URL string \`json:"url"\`
	TTL string \`json:"ttl"\`
}

// NewHandler serves POST /shorten and GET /{code}.
func NewHandler(store *Store, baseURL string) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /shorten", func(w http.ResponseWriter, r *http.Request) {
		var req shortenRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid JSON body"})
			return
		}
		var ttl time.Duration
		if req.TTL != "" {
			d, err := time.ParseDuration(req.TTL)
			if err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid ttl"})
				return
			}
			ttl = d
		}
		link, err := store.Shorten(req.URL, ttl)
		if err != nil {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusCreated, map[string]string{
			"code":      link.Code,
			"short_url": strings.TrimSuffix(baseURL, "/") + "/" + link.Code,
		})
	})
	mux.HandleFunc("GET /{code}", func(w http.ResponseWriter, r *http.Request) {
		link, err := store.Resolve(r.PathValue("code"))
		switch {
		case errors.Is(err, ErrExpired):
			writeJSON(w, http.StatusGone, map[string]string{"error": err.Error()})
		case err != nil:
			writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
		default:
			http.Redirect(w, r, link.URL, http.StatusFound)
		}
	})
	return mux
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
`,
};
