package usage

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// defaultPrices is a snapshot of LiteLLM's price table
// (model_prices_and_context_window.json), in its own JSON form, trimmed
// to the models of the providers whose agents this program reads
// (docs/usage.md says which commit).
//
//go:embed litellm_prices.json
var defaultPrices []byte

// Prices is a price table: LiteLLM's model_prices_and_context_window.json
// form, a JSON object of model name to entry, of which the token prices
// are read (USD per token):
//
//	{"claude-sonnet-4-5": {"input_cost_per_token": 3e-06, "output_cost_per_token": 1.5e-05,
//	  "cache_creation_input_token_cost": 3.75e-06, "cache_read_input_token_cost": 3e-07,
//	  "input_cost_per_token_above_200k_tokens": 6e-06, ..., "litellm_provider": "anthropic"}}
//
// Entries without both an input and an output price (images, audio,
// LiteLLM's sample_spec) are left out, as ccusage leaves them out.
type Prices struct {
	byName map[string]*Price
	names  []string // sorted

	mu    sync.Mutex
	found map[string]*Price // Lookup's answers, nil for none
}

// Price is the price of one model, USD per token.
type Price struct {
	Name                  string
	Provider              string
	Input, Output         float64
	CacheWrite, CacheRead float64
	// CacheReadListed: the entry lists a cache read price (else it is a
	// tenth of the input price, or the input price for OpenAI's models).
	CacheReadListed bool
	// Above200k are the prices of the tokens of one kind past the first
	// 200,000 of a message, where the entry lists them (nil: the base
	// price).
	InputAbove200k, OutputAbove200k, CacheWriteAbove200k, CacheReadAbove200k *float64
	// InputIncludesCache: the provider's input count includes its cache
	// reads (OpenAI: Codex), so they are taken out of input before
	// pricing it.
	InputIncludesCache bool
	// LongContext, for OpenAI's models, are the prices of every token of a
	// message whose input is over LongContextAbove tokens (LiteLLM's
	// _above_272k_tokens prices); nil when the entry lists none.
	LongContext      *Rates
	LongContextAbove int64
}

// Rates are prices of tokens of each kind, USD per token.
type Rates struct {
	Input, Output, CacheRead float64
}

// entry is the part of a LiteLLM entry Prices reads.
type entry struct {
	Input               *float64 `json:"input_cost_per_token"`
	Output              *float64 `json:"output_cost_per_token"`
	CacheWrite          *float64 `json:"cache_creation_input_token_cost"`
	CacheRead           *float64 `json:"cache_read_input_token_cost"`
	InputAbove200k      *float64 `json:"input_cost_per_token_above_200k_tokens"`
	OutputAbove200k     *float64 `json:"output_cost_per_token_above_200k_tokens"`
	CacheWriteAbove200k *float64 `json:"cache_creation_input_token_cost_above_200k_tokens"`
	CacheReadAbove200k  *float64 `json:"cache_read_input_token_cost_above_200k_tokens"`
	Provider            string   `json:"litellm_provider"`
}

// Default returns the table embedded in the binary, parsed on the first
// call and shared after (a Prices is safe for concurrent use). Its error
// is a defect of that file, which the tests check.
func Default() (*Prices, error) { return defaultTable() }

var defaultTable = sync.OnceValues(func() (*Prices, error) { return parsePrices(defaultPrices) })

// maxFound caps the models whose fuzzy lookup a Prices remembers; past
// it the memory starts again (a lookup costs a scan of the names, never
// a different answer).
const maxFound = 4096

// maxPricesBytes caps a price file: LiteLLM's whole table is under 2 MiB.
const maxPricesBytes = 64 << 20

// ReadPrices reads a table in LiteLLM's form (Prices).
func ReadPrices(r io.Reader) (*Prices, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxPricesBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxPricesBytes {
		return nil, fmt.Errorf("prices: larger than %d MiB", maxPricesBytes>>20)
	}
	return parsePrices(b)
}

func parsePrices(b []byte) (*Prices, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("prices: %w", err)
	}
	if raw == nil {
		return nil, errors.New("prices: not a JSON object of models")
	}
	p := &Prices{byName: map[string]*Price{}}
	for name, v := range raw {
		var e entry
		if len(bytes.TrimSpace(v)) == 0 || v[0] != '{' || json.Unmarshal(v, &e) != nil || e.Input == nil || e.Output == nil {
			continue
		}
		for _, f := range []*float64{e.Input, e.Output, e.CacheWrite, e.CacheRead, e.InputAbove200k, e.OutputAbove200k, e.CacheWriteAbove200k, e.CacheReadAbove200k} {
			if f != nil && *f < 0 {
				return nil, fmt.Errorf("prices: %s: negative price", name)
			}
		}
		m := &Price{
			Name: name, Provider: e.Provider, Input: *e.Input, Output: *e.Output,
			CacheWrite: *e.Input * 1.25, CacheRead: *e.Input * 0.1,
			InputAbove200k: e.InputAbove200k, OutputAbove200k: e.OutputAbove200k,
			CacheWriteAbove200k: e.CacheWriteAbove200k, CacheReadAbove200k: e.CacheReadAbove200k,
			InputIncludesCache: isOpenAI(name, e.Provider),
		}
		if e.CacheWrite != nil {
			m.CacheWrite = *e.CacheWrite
		}
		if e.CacheRead != nil {
			m.CacheRead, m.CacheReadListed = *e.CacheRead, true
		}
		if m.InputIncludesCache {
			if err := longContext(v, m); err != nil {
				return nil, fmt.Errorf("prices: %s: %w", name, err)
			}
		}
		p.byName[name] = m
		p.names = append(p.names, name)
	}
	if len(p.names) == 0 {
		return nil, errors.New("prices: no model with an input and an output price")
	}
	slices.Sort(p.names)
	return p, nil
}

// longContext reads an OpenAI entry's long-context prices: the
// input_cost_per_token_above_<N>k_tokens that is not the 200k tier, and
// the output and cache read prices above the same N.
func longContext(raw json.RawMessage, m *Price) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return err
	}
	const pre, post = "input_cost_per_token_above_", "k_tokens"
	for k := range fields {
		n, ok := strings.CutPrefix(k, pre)
		if !ok {
			continue
		}
		n, ok = strings.CutSuffix(n, post)
		thousands, err := strconv.ParseInt(n, 10, 64)
		if !ok || err != nil || thousands <= 0 || thousands == tierTokens/1000 {
			continue
		}
		price := func(key string, base float64) (float64, error) {
			b, ok := fields[key]
			if !ok {
				return base, nil
			}
			var f float64
			if err := json.Unmarshal(b, &f); err != nil || f < 0 {
				return 0, fmt.Errorf("%s: not a price", key)
			}
			return f, nil
		}
		suffix := "_above_" + n + post
		var r Rates
		var err2 error
		if r.Input, err2 = price("input_cost_per_token"+suffix, m.Input); err2 != nil {
			return err2
		}
		if r.Output, err2 = price("output_cost_per_token"+suffix, m.Output); err2 != nil {
			return err2
		}
		if r.CacheRead, err2 = price("cache_read_input_token_cost"+suffix, m.CacheRead); err2 != nil {
			return err2
		}
		if m.LongContext == nil || thousands*1000 < m.LongContextAbove {
			m.LongContext, m.LongContextAbove = &r, thousands*1000
		}
	}
	return nil
}

func isOpenAI(name, provider string) bool {
	return provider == "openai" || provider == "azure" || strings.HasPrefix(name, "openai/")
}

// Lookup returns the price of model, found as ccusage finds it: the
// entry of that name, else the longest entry name that the model's name
// contains, or that contains it, at a word boundary ("claude-opus-4-8[1m]"
// is priced as claude-opus-4-8), never across a version number
// ("gpt-5" does not price "gpt-5.5"); "." and "@" count as "-".
func (p *Prices) Lookup(model string) (*Price, bool) {
	if model == "" {
		return nil, false
	}
	if m, ok := p.byName[model]; ok {
		return m, true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if m, ok := p.found[model]; ok {
		return m, m != nil
	}
	if p.found == nil {
		p.found = map[string]*Price{}
	} else if len(p.found) >= maxFound {
		clear(p.found)
	}
	m := p.fuzzy(model)
	p.found[model] = m
	return m, m != nil
}

func (p *Prices) fuzzy(model string) *Price {
	norm := normalizedKey(model)
	var best string
	for _, c := range p.names {
		if !keyMatches(c, model, norm) {
			continue
		}
		if best == "" || len(c) > len(best) {
			best = c // names are sorted: the first of a length is the least
		}
	}
	return p.byName[best]
}

func normalizedKey(s string) string {
	return strings.NewReplacer(".", "-", "@", "-").Replace(s)
}

func keyMatches(candidate, model, normModel string) bool {
	if containsKey(model, candidate) || containsKey(candidate, model) {
		return true
	}
	nc := normalizedKey(candidate)
	return containsKey(normModel, nc) || containsKey(nc, normModel)
}

// containsKey reports whether key occurs in value between word boundaries
// and not followed by a version number.
func containsKey(value, key string) bool {
	if key == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(value[i:], key)
		if j < 0 {
			return false
		}
		at := i + j
		suffix := value[at+len(key):]
		if (at == 0 || !isAlnum(value[at-1])) && suffixAllows(key, suffix) {
			return true
		}
		i = at + 1
		if i >= len(value) {
			return false
		}
	}
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// suffixAllows: the key ends the value, or a separator follows it that
// does not start another version number (a date, eight digits, is no
// version: claude-sonnet-4-5 prices claude-sonnet-4-5-20250929).
func suffixAllows(key, suffix string) bool {
	if suffix == "" {
		return true
	}
	if isAlnum(suffix[0]) {
		return false
	}
	last := key[len(key)-1]
	if last < '0' || last > '9' || (suffix[0] != '-' && suffix[0] != '.') {
		return true
	}
	rest := suffix[1:]
	n := 0
	for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
		n++
	}
	if n == 0 {
		return true
	}
	return n == 8 && (n == len(rest) || !isAlnum(rest[n]))
}

// Cost returns the cost of a message's tokens in USD, and false when the
// model has no price.
func (p *Prices) Cost(model string, t Tokens) (float64, bool) {
	m, ok := p.Lookup(model)
	if !ok {
		return 0, false
	}
	return m.Cost(t), true
}

// tierTokens is where LiteLLM's _above_200k_tokens prices start.
const tierTokens = 200_000

// Cost returns the cost of one message's tokens in USD, as ccusage
// computes it: for OpenAI's models, input less cache reads at the input
// price, cache reads at the cache read price (the input price when the
// entry lists none) and output at the output price, all at the
// long-context prices when the message's input is over their threshold;
// for the others each kind of token at its price, the tokens of a kind
// past the first 200,000 of the message at its _above_200k_tokens price
// where the entry lists one, one-hour cache writes at twice the input
// price.
func (m *Price) Cost(t Tokens) float64 {
	if m.InputIncludesCache {
		r := Rates{Input: m.Input, Output: m.Output, CacheRead: m.Input}
		if m.CacheReadListed {
			r.CacheRead = m.CacheRead
		}
		if m.LongContext != nil && t.Input > m.LongContextAbove {
			r = *m.LongContext
		}
		cached := min(t.CacheRead, t.Input)
		return float64(t.Input-cached)*r.Input + float64(cached)*r.CacheRead + float64(t.Output)*r.Output
	}
	// One-hour cache writes at twice the input price, as ccusage prices
	// them (Anthropic's price for them).
	w1h := min(max(t.CacheWrite1h, 0), t.CacheWrite)
	var in1hAbove *float64
	if m.InputAbove200k != nil {
		v := 2 * *m.InputAbove200k
		in1hAbove = &v
	}
	return tiered(t.Input, m.Input, m.InputAbove200k) + tiered(t.Output, m.Output, m.OutputAbove200k) +
		tiered(t.CacheWrite-w1h, m.CacheWrite, m.CacheWriteAbove200k) + tiered(w1h, 2*m.Input, in1hAbove) +
		tiered(t.CacheRead, m.CacheRead, m.CacheReadAbove200k)
}

func tiered(n int64, base float64, above *float64) float64 {
	if above != nil && n > tierTokens {
		return tierTokens*base + float64(n-tierTokens)**above
	}
	return float64(n) * base
}
