/** The shortener package (codes, validation, store) of the seeded octocat/url-shortener repository. */
export const URL_SHORTENER_PKG: Record<string, string> = {
  "shortener/code.go": `package shortener

import (
	"errors"
	"strings"
)

const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// Encode turns a numeric id into a short base62 code.
func Encode(id uint64) string {
	var b strings.Builder
	for id > 0 {
		b.WriteByte(alphabet[id%62])
		id /= 62
	}
	return reverse(b.String())
}

// Decode is the inverse of Encode.
func Decode(code string) (uint64, error) {
	if code == "" {
		return 0, errors.New("empty code")
	}
	var id uint64
	for _, r := range code {
		i := strings.IndexRune(alphabet, r)
		if i < 0 {
			return 0, errors.New("invalid character in code")
		}
		id = id*62 + uint64(i)
	}
	return id, nil
}

func reverse(s string) string {
	r := []byte(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}
`,
  "shortener/code_test.go": `package shortener

import "testing"

func TestEncodeDecodeRoundTrip(t *testing.T) {
	for _, id := range []uint64{1, 61, 62, 3843, 1 << 40} {
		code := Encode(id)
		got, err := Decode(code)
		if err != nil || got != id {
			t.Fatalf("Decode(Encode(%d)) = %d, %v (code %q)", id, got, err, code)
		}
	}
}

func TestDecodeRejectsInvalidCharacters(t *testing.T) {
	if _, err := Decode("ab-c"); err == nil {
		t.Fatal("expected an error")
	}
}
`,
  "shortener/validate.go": `package shortener

import (
	"errors"
	"fmt"
	"net/url"
)

// ValidateURL reports whether raw can be shortened.
func ValidateURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("invalid url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errors.New("only http and https URLs can be shortened")
	}
	return nil
}
`,
  "shortener/validate_test.go": `package shortener

import "testing"

func TestValidateURL(t *testing.T) {
	valid := []string{"https://example.com", "http://example.com/a?b=c"}
	for _, raw := range valid {
		if err := ValidateURL(raw); err != nil {
			t.Errorf("ValidateURL(%q) = %v, want nil", raw, err)
		}
	}
	invalid := []string{"ftp://example.com", "javascript:alert(1)", "::"}
	for _, raw := range invalid {
		if err := ValidateURL(raw); err == nil {
			t.Errorf("ValidateURL(%q) = nil, want an error", raw)
		}
	}
}
`,
  "shortener/store.go": `package shortener

import (
	"errors"
	"sync"
	"time"
)

var (
	ErrNotFound = errors.New("link not found")
	ErrExpired  = errors.New("link expired")
)

// Link is one shortened URL.
type Link struct {
	Code      string    \`json:"code"\`
	URL       string    \`json:"url"\`
	CreatedAt time.Time \`json:"created_at"\`
	ExpiresAt time.Time \`json:"expires_at,omitempty"\`
	Hits      int       \`json:"hits"\`
}

// Store keeps links in memory.
type Store struct {
	mu     sync.Mutex
	nextID uint64
	links  map[string]*Link
	now    func() time.Time
}

func NewStore() *Store {
	return &Store{links: map[string]*Link{}, now: time.Now}
}

// Shorten stores url under a new code; ttl <= 0 means the link never expires.
func (s *Store) Shorten(url string, ttl time.Duration) (*Link, error) {
	if err := ValidateURL(url); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	link := &Link{Code: Encode(s.nextID), URL: url, CreatedAt: s.now()}
	s.nextID++
	if ttl > 0 {
		link.ExpiresAt = link.CreatedAt.Add(ttl)
	}
	s.links[link.Code] = link
	return link, nil
}

// Resolve returns the link for code and counts the hit.
func (s *Store) Resolve(code string) (*Link, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	link, ok := s.links[code]
	if !ok {
		return nil, ErrNotFound
	}
	link.Hits++
	return link, nil
}
`,
  "shortener/store_test.go": `package shortener

import (
	"testing"
	"time"
)

func TestShortenAndResolve(t *testing.T) {
	s := NewStore()
	s.nextID = 1
	link, err := s.Shorten("https://example.com/docs", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Resolve(link.Code)
	if err != nil || got.URL != "https://example.com/docs" || got.Hits != 1 {
		t.Fatalf("Resolve = %+v, %v", got, err)
	}
}

func TestResolveUnknownCode(t *testing.T) {
	if _, err := NewStore().Resolve("zzz"); err != ErrNotFound {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
}
`,
};
