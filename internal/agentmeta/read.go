package agentmeta

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// SessionStartFrom is SessionStart for a payload held as bytes, which must
// be valid UTF-8 (a decoder's payload after badutf8): it reads data in one
// pass with r, and falls back to SessionStart (encoding/json) on anything
// that pass does not decode exactly as json.Unmarshal would.
func SessionStartFrom(r *jsontext.Reader, agent string, data []byte) (ev *event.SessionStart, m Init, ok bool) {
	r.Reset(data)
	if !readInit(r, &m) || !r.End() {
		return SessionStart(agent, string(data))
	}
	ev = &event.SessionStart{Agent: agent, Meta: json.RawMessage(bytes.Clone(data)), MetaKind: Kind}
	fillSessionStart(ev, &m)
	return ev, m, true
}

// readInit reads a meta_init payload into m. It fails on a key seen twice
// and on a null in tools, as readFinal does.
func readInit(r *jsontext.Reader, m *Init) bool {
	if !r.Object() {
		return false
	}
	seen := map[string]bool{}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		k := string(key)
		if seen[k] {
			return false
		}
		seen[k] = true
		switch k {
		case "format":
			stringField(r, &m.Format)
		case "user_query":
			m.UserQuery = bytes.Clone(r.Skip())
		case "agent_uuid":
			stringField(r, &m.AgentUUID)
		case "parent_agent_uuid":
			r.OptStringField(&m.ParentAgentUUID)
		case "model":
			stringField(r, &m.Model)
		case "session_id":
			stringField(r, &m.SessionID)
		case "tools":
			m.Tools = stringList(r)
		case "cwd":
			stringField(r, &m.Cwd)
		case "parent_tool_use_id":
			stringField(r, &m.ParentToolID)
		case "name":
			stringField(r, &m.Name)
		case "description":
			stringField(r, &m.Description)
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// RunEndFrom is RunEnd for a payload held as bytes, which must be valid
// UTF-8 (a decoder's payload after badutf8): it reads data in one pass
// with r, and falls back to RunEnd (encoding/json) on anything that
// pass does not decode exactly as json.Unmarshal would. The event is the
// same either way; the one pass skips the conversation history, most of
// the payload, without decoding it or checking it twice.
func RunEndFrom(r *jsontext.Reader, agent string, data []byte) *event.RunEnd {
	var m Final
	r.Reset(data)
	if !readFinal(r, &m) || !r.End() {
		return RunEnd(agent, string(data))
	}
	// data is valid JSON: Meta is data itself, as event.JSONText gives.
	ev := &event.RunEnd{Agent: agent, Meta: json.RawMessage(bytes.Clone(data)), MetaKind: Kind}
	fillRunEnd(ev, &m)
	return ev
}

// readFinal reads a meta_final payload into m. It fails (reports false)
// on a key seen twice and on an element of errors that is null, whose
// decoding by encoding/json depends on what the key held before.
func readFinal(r *jsontext.Reader, m *Final) bool {
	if !r.Object() {
		return false
	}
	seen := map[string]bool{}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		k := string(key)
		if seen[k] {
			return false
		}
		seen[k] = true
		switch k {
		case "stop_reason":
			stringField(r, &m.StopReason)
		case "total_steps":
			if !r.Null() {
				n := r.Int()
				if n < math.MinInt || n > math.MaxInt {
					r.Fail()
				}
				m.TotalSteps = int(n)
			}
		case "generated_files":
			m.GeneratedFiles = readAny(r)
		case "cost":
			m.Cost = readAny(r)
		case "cumulative_usage":
			if r.Null() {
				m.CumulativeUsage = nil
				break
			}
			m.CumulativeUsage = &Usage{}
			readUsage(r, m.CumulativeUsage)
		case "total_cost_usd":
			if r.Null() {
				m.TotalCostUSD = nil
				break
			}
			f := r.Float()
			m.TotalCostUSD = &f
		case "duration_ms":
			if !r.Null() {
				m.DurationMS = r.Int()
			}
		case "is_error":
			if !r.Null() {
				m.IsError = r.Bool()
			}
		case "errors":
			m.Errors = stringList(r)
		case "result":
			stringField(r, &m.Result)
		default:
			r.Skip()
		}
	}
	return !r.Failed()
}

// readAny reads a value into an interface, as encoding/json does: a
// small value (cost, generated_files) decoded from its text.
func readAny(r *jsontext.Reader) any {
	raw := r.Skip()
	if r.Failed() {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		r.Fail() // a number out of range
	}
	return v
}

// readUsage reads the cumulative_usage object into u.
func readUsage(r *jsontext.Reader, u *Usage) {
	if !r.Object() {
		r.Fail()
		return
	}
	seen := map[string]bool{}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		k := string(key)
		if seen[k] {
			r.Fail()
			return
		}
		seen[k] = true
		var n *int64
		switch k {
		case "input_tokens":
			n = &u.InputTokens
		case "output_tokens":
			n = &u.OutputTokens
		case "cache_read_input_tokens":
			n = &u.CacheReadInputTokens
		case "cache_creation_input_tokens":
			n = &u.CacheCreationInputTokens
		case "reasoning_output_tokens":
			n = &u.ReasoningOutputTokens
		default:
			r.Skip()
			continue
		}
		if !r.Null() {
			*n = r.Int()
		}
	}
}

// stringList reads an array of strings as encoding/json does into a fresh
// []string: null is nil, [] empty but not nil. A null element fails the
// Reader (encoding/json would leave what the slice held there).
func stringList(r *jsontext.Reader) []string {
	if r.Null() {
		return nil
	}
	if !r.Array() {
		r.Fail()
		return nil
	}
	list := []string{}
	for r.More() {
		if r.Peek() == 'n' {
			r.Fail()
			return nil
		}
		list = append(list, validString(r))
	}
	return list
}

// stringField reads a string into a string field as encoding/json does:
// null leaves it as it is. The input is valid UTF-8.
func stringField(r *jsontext.Reader, s *string) {
	if !r.Null() {
		*s = validString(r)
	}
}

// validString reads a string value of valid UTF-8 input.
func validString(r *jsontext.Reader) string {
	return string(r.StrValid())
}
