package codexsession

import (
	"bytes"

	"github.com/agentstream/agentstream/internal/codexwire"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// readLine decodes a rollout line in one pass into l, as json.Unmarshal
// would, and sets l.payloadRaw to the payload's text. It reports false
// for anything it does not decode exactly as encoding/json does (a
// duplicate object member that encoding/json would merge, a value of
// another type): the caller then decodes the line with encoding/json,
// which gives the errors and their positions.
func readLine(r *jsontext.Reader, l *line) bool {
	if !r.Object() {
		return false
	}
	payload := false
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "timestamp":
			r.StringField(&l.Timestamp)
		case "type":
			stringField(r, &l.Type)
		case "payload":
			if payload || r.Peek() != '{' {
				return false // merged, or null or mistyped: encoding/json
			}
			payload = true
			off := r.Offset()
			readPayload(r, &l.Payload)
			l.payloadRaw = r.Since(off)
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// stringField is StringField for the values of a closed vocabulary: a
// known one takes no allocation.
func stringField(r *jsontext.Reader, s *string) {
	if r.Null() {
		return
	}
	b := r.Str()
	for _, k := range vocabulary {
		if string(b) == k {
			*s = k
			return
		}
	}
	*s = string(b)
}

// vocabulary are the line, item and event types of the hot path.
var vocabulary = [...]string{
	typeResponseItem, typeEventMsg, typeTurnContext, typeSessionMeta,
	itemMessage, itemReasoning, itemFunctionCall, itemFunctionCallOutput,
	itemCustomToolCall, itemCustomToolOutput, itemWebSearchCall,
	msgTokenCount, msgTaskStarted, msgTaskComplete, msgItemCompleted,
	"agent_message", "agent_reasoning", "user_message",
	"assistant", "user", "developer", "output_text", "input_text", "summary_text", "completed",
}

func readPayload(r *jsontext.Reader, p *payload) {
	r.Object()
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			stringField(r, &p.Type)
		case "id":
			r.StringField(&p.ID)
		case "cwd":
			r.StringField(&p.Cwd)
		case "model":
			r.StringField(&p.Model)
		case "role":
			stringField(r, &p.Role)
		case "content":
			readParts(r, &p.Content)
		case "summary":
			readParts(r, &p.Summary)
		case "name":
			r.StringField(&p.Name)
		case "arguments":
			p.Arguments = bytes.Clone(r.Skip())
		case "input":
			r.StringField(&p.Input)
		case "call_id":
			r.StringField(&p.CallID)
		case "output":
			p.Output = bytes.Clone(r.Skip())
		case "status":
			stringField(r, &p.Status)
		case "action":
			p.Action = bytes.Clone(r.Skip())
		case "tools":
			p.Tools = bytes.Clone(r.Skip())
		case "encrypted_content":
			r.OptStringField(&p.EncryptedContent)
		case "item":
			if p.Item != nil {
				r.Fail() // encoding/json merges duplicates
			} else if !r.Null() {
				p.Item = new(completedItem)
				readCompletedItem(r, p.Item)
			}
		case "info":
			if p.Info != nil {
				r.Fail()
			} else if !r.Null() {
				p.Info = new(tokenInfo)
				readTokenInfo(r, p.Info)
			}
		case "error":
			if p.Error != nil {
				r.Fail()
			} else if !r.Null() {
				p.Error = new(taskError)
				readTaskError(r, p.Error)
			}
		case "message":
			r.StringField(&p.Message)
		case "reason":
			r.StringField(&p.Reason)
		case "usage":
			readUsagePtr(r, &p.Usage)
		case "source":
			p.Source = bytes.Clone(r.Skip())
		default:
			r.Skip()
		}
	}
}

// readParts reads content or summary parts: an array of {type, text}
// objects, or a string (one text part). Null and other values leave a
// field not yet set as it is (parts.UnmarshalJSON ignores them); a second
// value of a key already set goes to encoding/json.
func readParts(r *jsontext.Reader, ps *parts) {
	if *ps != nil {
		r.Fail()
		return
	}
	switch r.Peek() {
	case '"':
		*ps = parts{{Type: "text", Text: r.String()}}
	case '[':
		r.Array()
		*ps = parts{}
		for r.More() {
			if r.Peek() != '{' {
				r.Fail()
				return
			}
			var t textPart
			r.Object()
			for key, ok := r.Key(); ok; key, ok = r.Key() {
				switch string(key) {
				case "type":
					stringField(r, &t.Type)
				case "text":
					r.StringField(&t.Text)
				default:
					r.Skip()
				}
			}
			*ps = append(*ps, t)
		}
	default:
		r.Skip()
	}
}

func readCompletedItem(r *jsontext.Reader, it *completedItem) {
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "type":
			r.StringField(&it.Type)
		case "id":
			r.StringField(&it.ID)
		case "status":
			stringField(r, &it.Status)
		case "aggregated_output":
			r.StringField(&it.AggregatedOutput)
		case "command":
			if it.Command != nil {
				r.Fail()
				continue
			}
			if r.Null() {
				continue
			}
			r.Array()
			it.Command = []string{}
			for r.More() {
				it.Command = append(it.Command, r.String())
			}
		case "exit_code":
			if r.Null() {
				it.ExitCode = nil
				continue
			}
			n := r.Int()
			if int64(int(n)) != n {
				r.Fail()
			}
			v := int(n)
			it.ExitCode = &v
		default:
			r.Skip()
		}
	}
}

func readTokenInfo(r *jsontext.Reader, t *tokenInfo) {
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "total_token_usage":
			readUsagePtr(r, &t.TotalTokenUsage)
		case "last_token_usage":
			readUsagePtr(r, &t.LastTokenUsage)
		default:
			r.Skip()
		}
	}
}

func readUsagePtr(r *jsontext.Reader, u **usage) {
	switch {
	case *u != nil:
		r.Fail()
	case r.Null():
	default:
		*u = new(usage)
		codexwire.ReadUsage(r, *u)
	}
}

func readTaskError(r *jsontext.Reader, e *taskError) {
	if !r.Object() {
		return
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "message":
			r.StringField(&e.Message)
		case "codex_error_info":
			e.CodexErrorInfo = bytes.Clone(r.Skip())
		default:
			r.Skip()
		}
	}
}
