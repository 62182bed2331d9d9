package usage

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

//go:embed prices.json
var defaultPrices []byte

// Prices is a pricing table: USD per million tokens by model. Its JSON
// form is what --prices reads (docs/usage.md):
//
//	{"models": [{"names": ["claude-sonnet-4-5"], "input": 3, "output": 15,
//	  "cache_write": 3.75, "cache_read": 0.3,
//	  "long_context": {"above": 200000, "input": 6, "output": 22.5, "cache_write": 7.5, "cache_read": 0.6}}]}
type Prices struct {
	Comment string  `json:"comment,omitempty"`
	Models  []Price `json:"models"`

	byName map[string]*Price
}

// Price is the price of one model, or of models priced alike.
type Price struct {
	Names []string `json:"names"`
	Rates
	// InputIncludesCache: the model's input count includes its cache
	// reads and writes (OpenAI), so those are taken out of input before
	// pricing it.
	InputIncludesCache bool `json:"input_includes_cache,omitempty"`
	// LongContext applies to every token of a message whose prompt
	// (input plus cache reads and writes) is over Above tokens.
	LongContext *LongContext `json:"long_context,omitempty"`
}

// Rates are USD per million tokens. A nil CacheWrite is the input rate; a
// nil CacheRead is the input rate.
type Rates struct {
	Input      float64  `json:"input"`
	Output     float64  `json:"output"`
	CacheWrite *float64 `json:"cache_write,omitempty"`
	CacheRead  *float64 `json:"cache_read,omitempty"`
}

// LongContext is a model's price above a prompt size.
type LongContext struct {
	Above int64 `json:"above"`
	Rates
}

// Default returns the table embedded in the binary (prices.json). Its
// error is a defect of that file, which the tests check.
func Default() (*Prices, error) {
	return parsePrices(defaultPrices)
}

// ReadPrices reads a table in the JSON form of Prices.
func ReadPrices(r io.Reader) (*Prices, error) {
	b, err := io.ReadAll(io.LimitReader(r, 16<<20))
	if err != nil {
		return nil, err
	}
	return parsePrices(b)
}

func parsePrices(b []byte) (*Prices, error) {
	var p Prices
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("prices: %w", err)
	}
	if len(p.Models) == 0 {
		return nil, fmt.Errorf("prices: no models")
	}
	p.byName = map[string]*Price{}
	for i := range p.Models {
		m := &p.Models[i]
		if len(m.Names) == 0 {
			return nil, fmt.Errorf("prices: model %d has no names", i+1)
		}
		for _, r := range []Rates{m.Rates, longRates(m)} {
			if r.Input < 0 || r.Output < 0 || r.CacheWrite != nil && *r.CacheWrite < 0 || r.CacheRead != nil && *r.CacheRead < 0 {
				return nil, fmt.Errorf("prices: %s: negative price", m.Names[0])
			}
		}
		for _, n := range m.Names {
			k := Normalize(n)
			if _, dup := p.byName[k]; dup {
				return nil, fmt.Errorf("prices: model %s listed twice", n)
			}
			p.byName[k] = m
		}
	}
	return &p, nil
}

func longRates(m *Price) Rates {
	if m.LongContext == nil {
		return Rates{}
	}
	return m.LongContext.Rates
}

// Normalize returns the name a model is looked up by: lower case, without
// a provider prefix ("anthropic/", "openai/"), a bracketed suffix
// ("[1m]") or a release date ("-20250929", "-2025-08-07").
func Normalize(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	if i := strings.IndexByte(m, '['); i > 0 {
		m = m[:i]
	}
	// -YYYYMMDD
	if n := len(m); n > 9 && m[n-9] == '-' && digits(m[n-8:]) {
		m = m[:n-9]
	}
	// -YYYY-MM-DD
	if n := len(m); n > 11 && m[n-11] == '-' && digits(m[n-10:n-6]) && m[n-6] == '-' && digits(m[n-5:n-3]) && m[n-3] == '-' && digits(m[n-2:]) {
		m = m[:n-11]
	}
	return m
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Lookup returns the price of model.
func (p *Prices) Lookup(model string) (*Price, bool) {
	if model == "" {
		return nil, false
	}
	m, ok := p.byName[Normalize(model)]
	return m, ok
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

// Cost returns the cost of one message's tokens in USD.
func (m *Price) Cost(t Tokens) float64 {
	input, prompt := t.Input, t.Input+t.CacheRead+t.CacheWrite
	if m.InputIncludesCache {
		input = max(t.Input-t.CacheRead-t.CacheWrite, 0)
		prompt = t.Input
	}
	r := m.Rates
	if lc := m.LongContext; lc != nil && prompt > lc.Above {
		r = lc.Rates
	}
	cw, cr := r.Input, r.Input
	if r.CacheWrite != nil {
		cw = *r.CacheWrite
	}
	if r.CacheRead != nil {
		cr = *r.CacheRead
	}
	return (float64(input)*r.Input + float64(t.Output)*r.Output +
		float64(t.CacheWrite)*cw + float64(t.CacheRead)*cr) / 1e6
}
