package chatwire

//go:generate go run ../../gen
//go:generate go run ../../gen -write

import (
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/openai"
)

// Name is the format's name, and the event.Unknown.Format of its items.
const Name = "openai-chat"

// Wire vocabulary, shared with emit/openaichat.
const (
	ObjectChunk = "chat.completion.chunk"
	Done        = "[DONE]"
	RoleAsst    = "assistant"
	TypeFunc    = "function"
)

// The finish_reason values the API sends.
const (
	FinishStop          = "stop"
	FinishLength        = "length"
	FinishToolCalls     = "tool_calls"
	FinishContentFilter = "content_filter"
)

// Chunk is one chat.completion.chunk (or a mid-stream error object). It
// is decoded in one pass: only the fields read are declared, in the
// order OpenAI writes them (with white space between members by some
// servers). Reader reads chunk after chunk into one: the
// strings that repeat from chunk to chunk (id, model, ...) are kept while
// they do, and the choices and their text reuse the last chunk's memory.
//
//wire:order
//wire:spaced
//wire:write nohtml
type Chunk struct {
	ID                string           `json:"id" wire:"keep=id"`
	Object            string           `json:"object" wire:"intern=Object"`
	Created           int64            `json:"created,omitempty" wire:"keep=created"` // written only when the source said it
	Model             string           `json:"model" wire:"keep=model"`
	ServiceTier       string           `json:"service_tier,omitempty" wire:"keep=tier"`
	SystemFingerprint *string          `json:"system_fingerprint,omitempty" wire:"keep=fprint"`
	Choices           []Choice         `json:"choices" wire:"buf=choices"`
	Usage             *Usage           `json:"usage,omitempty"`
	Error             *openai.APIError `json:"error,omitempty" wire:"text=errorJSON"`

	id, model, tier string // the texts of the last ones read
	created         jsontext.KeptInt
	fprint          *string
	choices         []Choice
	errorJSON       []byte // the error object's text, when Reader read it
	lazy            int    // the choices Reader left to NextChoice
}

// Lazy returns how many choices Reader.Decode left to Reader.NextChoice
// (a chunk over LazyBytes; Choices is then empty, not nil), else 0.
func (c *Chunk) Lazy() int { return c.lazy }

// ErrorJSON returns the text of the chunk's error object when Reader
// decoded it in one pass, else nil: a slice of the data decoded, valid
// as long as that is.
func (c *Chunk) ErrorJSON() []byte {
	if c.Error == nil {
		return nil
	}
	return c.errorJSON
}

// Choice is one choice of a chunk.
//
//wire:order
//wire:spaced
//wire:write nohtml
type Choice struct {
	Index        int     `json:"index"`
	Delta        Delta   `json:"delta"`
	Logprobs     any     `json:"logprobs"`
	FinishReason *string `json:"finish_reason" wire:"intern=Finish"`
}

// Delta is a choice's delta. Reader points its strings at its own
// fields and reads its tool calls into the last chunk's memory.
//
//wire:order
//wire:spaced
//wire:write nohtml
type Delta struct {
	Role    string  `json:"role,omitempty" wire:"intern=Role"`
	Content *string `json:"content,omitempty" wire:"buf=content"`
	Refusal *string `json:"refusal,omitempty" wire:"buf=refusal"`
	// ReasoningContent is DeepSeek's (and vLLM's) reasoning delta;
	// Reasoning is OpenRouter's and Ollama's name for it.
	ReasoningContent *string         `json:"reasoning_content,omitempty" wire:"buf=reasoningContent"`
	Reasoning        *string         `json:"reasoning,omitempty" wire:"buf=reasoning"`
	ToolCalls        []ToolCallDelta `json:"tool_calls,omitempty" wire:"buf=toolCalls"`

	content, refusal, reasoningContent, reasoning string
	toolCalls                                     []ToolCallDelta
}

// ToolCallDelta is one piece of a tool call, keyed by Index.
//
//wire:write nohtml
type ToolCallDelta struct {
	Index    int      `json:"index"`
	ID       string   `json:"id,omitempty"`
	Type     string   `json:"type,omitempty" wire:"intern=Type"`
	Function Function `json:"function"`
}

// Function is a tool call's name and (a piece of) its arguments.
//
//wire:write nohtml
type Function struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// Usage is the usage chunk's counts.
//
//wire:write nohtml
type Usage struct {
	PromptTokens            *int64             `json:"prompt_tokens"`
	CompletionTokens        *int64             `json:"completion_tokens"`
	TotalTokens             *int64             `json:"total_tokens"`
	PromptTokensDetails     *PromptDetails     `json:"prompt_tokens_details,omitempty"`
	CompletionTokensDetails *CompletionDetails `json:"completion_tokens_details,omitempty"`
}

// PromptDetails breaks prompt_tokens down.
//
//wire:write nohtml
type PromptDetails struct {
	CachedTokens *int64 `json:"cached_tokens"`
}

// CompletionDetails breaks completion_tokens down.
//
//wire:write nohtml
type CompletionDetails struct {
	ReasoningTokens *int64 `json:"reasoning_tokens"`
}

// Counts returns u in the shared terms: the cached and reasoning counts
// only when their details say them (not null).
func (u *Usage) Counts() openai.Usage {
	var o openai.Usage
	if u.PromptTokens != nil {
		o.Prompt, o.Has = *u.PromptTokens, o.Has|event.HasInput
	}
	if u.CompletionTokens != nil {
		o.Output, o.Has = *u.CompletionTokens, o.Has|event.HasOutput
	}
	if d := u.PromptTokensDetails; d != nil && d.CachedTokens != nil {
		o.Cached, o.Has = *d.CachedTokens, o.Has|event.HasCacheRead
	}
	if d := u.CompletionTokensDetails; d != nil && d.ReasoningTokens != nil {
		o.Reasoning, o.Has = *d.ReasoningTokens, o.Has|event.HasReasoning
	}
	return o
}

// UsageOf returns the wire usage of shared counts: details only for the
// counts said (the API leaves them out where it has none).
func UsageOf(o openai.Usage) *Usage {
	u := &Usage{}
	u.PromptTokens, u.CompletionTokens, u.TotalTokens = o.Tokens()
	if o.Has&event.HasCacheRead != 0 {
		u.PromptTokensDetails = &PromptDetails{CachedTokens: &o.Cached}
	}
	if o.Has&event.HasReasoning != 0 {
		u.CompletionTokensDetails = &CompletionDetails{ReasoningTokens: &o.Reasoning}
	}
	return u
}

// ChoiceAgent returns the agent scope of choice index of a completion
// whose choice 0 is main's: main itself for choice 0, else "choice-N",
// after main and a slash when main is set.
func ChoiceAgent(main string, index int) string {
	if index == 0 {
		return main
	}
	a := "choice-" + strconv.Itoa(index)
	if main != "" {
		a = main + "/" + a
	}
	return a
}

// ChoiceIndex returns the choice index of agent scope agent in a
// completion whose choice 0 is main's; false when it is no choice scope.
func ChoiceIndex(main, agent string) (int, bool) {
	if agent == main {
		return 0, true
	}
	prefix := "choice-"
	if main != "" {
		prefix = main + "/choice-"
	}
	rest, ok := strings.CutPrefix(agent, prefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n <= 0 || strconv.Itoa(n) != rest {
		return 0, false
	}
	return n, true
}
