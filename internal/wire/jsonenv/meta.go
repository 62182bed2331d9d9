package jsonenv

import (
	"bytes"
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// The meta_init and meta_final payloads of the anthropic_agent producer,
// which the xml format shares (in a data attribute): package
// internal/agentmeta maps them onto the event model for both.

// Init is the meta_init payload. The producer writes format, user_query,
// agent_uuid, parent_agent_uuid, model and message_history; agentstream
// adds session_id, tools, cwd, parent_tool_use_id, name and description
// when the source carries them. agentmeta.Reader reads each meta_init
// into the same Init: the keep= fields are the strings of a meta_init
// that repeat the last one's (its tools list above all, the same in each
// of the xml producer's meta_init), the last one's strings, not copies.
type Init struct {
	Format          string          `json:"format,omitempty" wire:"keep=format"`
	UserQuery       json.RawMessage `json:"user_query,omitempty" wire:"borrow"`
	AgentUUID       string          `json:"agent_uuid,omitempty" wire:"keep=agentUUID"`
	ParentAgentUUID *string         `json:"parent_agent_uuid"`
	Model           string          `json:"model,omitempty" wire:"keep=model"`
	SessionID       string          `json:"session_id,omitempty" wire:"keep=sessionID"`
	Tools           []string        `json:"tools,omitempty" wire:"keep=tools"`
	Cwd             string          `json:"cwd,omitempty" wire:"keep=cwd"`
	ParentToolID    string          `json:"parent_tool_use_id,omitempty" wire:"keep=parentToolID"`
	Name            string          `json:"name,omitempty" wire:"keep=name"`
	Description     string          `json:"description,omitempty" wire:"keep=description"`

	format, agentUUID, model, sessionID, cwd, parentToolID, name, description string
	tools                                                                     jsontext.KeptStrings
}

// Final is the meta_final payload. The producer writes
// conversation_history, stop_reason, total_steps, generated_files, cost and
// cumulative_usage; agentstream adds the rest when the source carries them.
type Final struct {
	StopReason *string `json:"stop_reason"` // null when unknown, as the producer writes None
	TotalSteps int     `json:"total_steps"`
	// GeneratedFiles is the producer's list of files, which agentstream
	// neither reads nor writes: its text, as the payload's.
	GeneratedFiles json.RawMessage `json:"generated_files" wire:"borrow"`
	// Cost is the producer's cost breakdown ({"total_cost": ...,
	// "currency": "USD", and the parts), of which ParsedCost is what
	// agentstream reads.
	Cost            json.RawMessage `json:"cost" wire:"parse=cost"`
	CumulativeUsage *Usage          `json:"cumulative_usage,omitempty"`
	TotalCostUSD    *float64        `json:"total_cost_usd,omitempty"`
	DurationMS      int64           `json:"duration_ms,omitempty"`
	IsError         bool            `json:"is_error,omitempty"`
	Errors          []string        `json:"errors,omitempty"`
	Result          string          `json:"result,omitempty"`

	cost *Cost
}

// ParsedCost is the cost breakdown's total and currency as the reader
// decoded them, or nil: then the one who needs them decodes Cost.
func (f *Final) ParsedCost() *Cost { return f.cost }

// Cost is what agentstream reads of the cost breakdown.
type Cost struct {
	TotalCost *float64 `json:"total_cost"`
	Currency  *string  `json:"currency" wire:"intern=Currency"`
}

// CurrencyUSD is the currency of the producer's cost breakdown.
const CurrencyUSD = "USD"

// Usage is the cumulative_usage object.
type Usage struct {
	InputTokens              int64 `json:"input_tokens" wire:"has=event.HasInput"`
	OutputTokens             int64 `json:"output_tokens" wire:"has=event.HasOutput"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty" wire:"has=event.HasCacheRead"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty" wire:"has=event.HasCacheWrite"`
	ReasoningOutputTokens    int64 `json:"reasoning_output_tokens,omitempty" wire:"has=event.HasReasoning"`
	// ServiceTier is Anthropic's service_tier, which agentstream adds
	// when the source gives one.
	ServiceTier string `json:"service_tier,omitempty"`
	// Has is the counts the object gives (keys not null), as read.
	Has event.Counts `json:"-" wire:"has"`
}

// MarshalJSON encodes u as encoding/json encodes its fields, with
// input_tokens and output_tokens null, their unknown form, when Has does
// not give them (never a made-up 0).
func (u Usage) MarshalJSON() ([]byte, error) {
	type plain struct {
		InputTokens              *int64 `json:"input_tokens"`
		OutputTokens             *int64 `json:"output_tokens"`
		CacheReadInputTokens     int64  `json:"cache_read_input_tokens,omitempty"`
		CacheCreationInputTokens int64  `json:"cache_creation_input_tokens,omitempty"`
		ReasoningOutputTokens    int64  `json:"reasoning_output_tokens,omitempty"`
		ServiceTier              string `json:"service_tier,omitempty"`
	}
	p := plain{
		CacheReadInputTokens: u.CacheReadInputTokens, CacheCreationInputTokens: u.CacheCreationInputTokens,
		ReasoningOutputTokens: u.ReasoningOutputTokens, ServiceTier: u.ServiceTier,
	}
	if u.Has&event.HasInput != 0 {
		p.InputTokens = &u.InputTokens
	}
	if u.Has&event.HasOutput != 0 {
		p.OutputTokens = &u.OutputTokens
	}
	// Unescaped: the encoder that called escapes HTML, or not, as it is
	// set to.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON decodes a usage object as the generated reader does, so
// that Has is set whichever reader decodes it.
func (u *Usage) UnmarshalJSON(b []byte) error {
	var r jsontext.Reader
	r.Reset(b)
	if ReadUsage(&r, u) && r.End() {
		return nil
	}
	// Not a usage object the reader reads: encoding/json's error.
	type plain Usage
	return json.Unmarshal(b, (*plain)(u))
}
