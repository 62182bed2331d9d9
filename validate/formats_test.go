package validate

import (
	"io"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// antSSE frames Messages API stream events as the API does.
func antSSE(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		typ := e[len(`{"type":"`):]
		typ = typ[:strings.IndexByte(typ, '"')]
		b.WriteString("event: " + typ + "\ndata: " + e + "\n\n")
	}
	return b.String()
}

const (
	antStart     = `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}`
	antText0     = `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`
	antDelta0    = `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}`
	antStop0     = `{"type":"content_block_stop","index":0}`
	antTool1     = `{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"ls","input":{}}}`
	antInput1    = `{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{}"}}`
	antStop1     = `{"type":"content_block_stop","index":1}`
	antMsgDelta  = `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}`
	antMsgStop   = `{"type":"message_stop"}`
	claudeInit   = `{"type":"system","subtype":"init","session_id":"s","model":"m","tools":[],"cwd":"/"}`
	claudeResult = `{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"Hi","stop_reason":"end_turn","session_id":"s"}`
)

// claudeStream writes stream events as Claude Code's stream_event lines,
// between an init and a result line.
func claudeStream(result bool, events ...string) string {
	lines := []string{claudeInit}
	for _, e := range events {
		lines = append(lines, `{"type":"stream_event","event":`+e+`,"session_id":"s","parent_tool_use_id":null}`)
	}
	if result {
		lines = append(lines, claudeResult)
	}
	return strings.Join(lines, "\n") + "\n"
}

func codexStream(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

const (
	cdxThread  = `{"type":"thread.started","thread_id":"th"}`
	cdxTurn    = `{"type":"turn.started"}`
	cdxDone    = `{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}`
	cdxFailed  = `{"type":"turn.failed","error":{"message":"boom"}}`
	cdxCmdOn   = `{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}`
	cdxCmdOff  = `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a","exit_code":0,"status":"completed"}}`
	cdxWarning = `{"type":"item.completed","item":{"id":"item_5","type":"error","message":"Model rerouted: gpt-5-codex is unavailable, using gpt-5"}}`
	cdxCmdUpd  = `{"type":"item.updated","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}`
	cdxMessage = `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"Hi"}}`
)

// xmlSSE frames legacy XML chunks, one per message.
func xmlSSE(chunks ...string) string {
	var b strings.Builder
	for _, c := range chunks {
		b.WriteString("data: " + c + "\n\n")
	}
	return b.String() + "data: [DONE]\n\n"
}

const (
	xmlInit   = `<meta_init data="{&quot;format&quot;: &quot;xml&quot;, &quot;agent_uuid&quot;: &quot;a&quot;}"></meta_init>`
	xmlCall   = `<content-block-tool_call id="t1" name="ls" arguments="{&quot;path&quot;: &quot;.&quot;}"></content-block-tool_call>`
	xmlResult = `<content-block-tool_result id="t1" name="ls"><![CDATA[a.go]]></content-block-tool_result>`
	xmlImages = `<content-block-tool_result id="t1" name="ls"><text><![CDATA[shot]]></text><image src="data:image/png;base64,AA==" media_type="image/png" /></content-block-tool_result>`
)

// TestFormatRules: per wire rule of the formats besides the envelope, a
// stream that breaks it (at the right line) and one that does not.
func TestFormatRules(t *testing.T) {
	t.Parallel()
	antGood := antSSE(antStart, antText0, antDelta0, antStop0, antTool1, antInput1, antStop1, antMsgDelta, antMsgStop)
	tests := []struct {
		format    string
		rule      string
		bad, pass string
		line      int
	}{
		{"anthropic", "MSG001", antSSE(antStart, antDelta0, antText0, antStop0, antMsgDelta, antMsgStop), antGood, 4},
		{"anthropic", "MSG001", antSSE(antStart, antText0, antStop0, antDelta0, antMsgDelta, antMsgStop), antGood, 10},
		{"anthropic", "MSG001", antSSE(antStart, antText0, antTool1, antDelta0, antStop0, antInput1, antStop1, antMsgDelta, antMsgStop), antGood, 7},
		{"anthropic", "MSG001", antSSE(antStart, antTool1, antInput1, antStop1, antMsgDelta, antMsgStop), antGood, 4},
		{"anthropic", "MSG001", antSSE(antStart, antText0, antDelta0, antMsgDelta, antStop0, antMsgStop), antGood, 10},
		{"anthropic", "MSG001", antSSE(antStart, antText0, antDelta0, antStop0, antMsgStop), antGood, 13},
		{"anthropic", "MSG001", antSSE(antStart, antText0, antDelta0, antStop0, antStart, antText0, antStop0, antMsgDelta, antMsgStop), antGood, 13},
		{"anthropic", "MSG002", antSSE(antStart, antText0, strings.Replace(antDelta0, `"type":"text_delta","text":"Hi"`, `"type":"input_json_delta","partial_json":"{}"`, 1), antStop0, antMsgDelta, antMsgStop), antGood, 7},
		{"anthropic", "MSG003", strings.Replace(antGood, "event: content_block_stop\ndata: "+antStop0, "event: content_block_delta\ndata: "+antStop0, 1), antGood, 10},
		{"claude", "MSG001", claudeStream(true, antStart, antDelta0, antText0, antStop0, antMsgDelta, antMsgStop), claudeStream(true, antStart, antText0, antDelta0, antStop0, antMsgDelta, antMsgStop), 3},
		{"claude", "MSG002", claudeStream(true, antStart, antText0, strings.Replace(antDelta0, `"type":"text_delta","text":"Hi"`, `"type":"thinking_delta","thinking":"hm"`, 1), antStop0, antMsgDelta, antMsgStop), claudeStream(true, antStart, antText0, antDelta0, antStop0, antMsgDelta, antMsgStop), 4},
		{"claude", "CLA001", claudeStream(false, antStart, antText0, antDelta0, antStop0, antMsgDelta, antMsgStop), claudeStream(true, antStart, antText0, antDelta0, antStop0, antMsgDelta, antMsgStop), 7},
		{"codex", "CDX001", codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxCmdOff, cdxCmdOff, cdxDone), codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxCmdUpd, cdxCmdOff, cdxDone), 5},
		{"codex", "CDX001", codexStream(cdxThread, cdxTurn, cdxCmdUpd, cdxCmdOff, cdxDone), codexStream(cdxThread, cdxTurn, cdxMessage, cdxDone), 3},
		{"codex", "CDX001", codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxDone), codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxFailed), 3},
		{"codex", "CDX001", codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxCmdOn, cdxCmdOff, cdxDone), codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxCmdOff, cdxDone), 4},
		{"codex", "CDX002", codexStream(cdxThread, cdxTurn, cdxDone, cdxDone), codexStream(cdxThread, cdxTurn, cdxDone, cdxTurn, cdxFailed), 4},
		{"codex", "CDX002", codexStream(cdxThread, cdxMessage, cdxTurn, cdxDone), codexStream(cdxThread, cdxTurn, cdxMessage, cdxDone), 2},
		// Codex writes a warning as an error item before turn.started.
		{"codex", "CDX002", codexStream(cdxThread, cdxMessage, cdxTurn, cdxDone), codexStream(cdxThread, cdxWarning, cdxTurn, cdxMessage, cdxDone), 2},
		{"xml", "XML001", xmlSSE(xmlInit, "hello", "<content-block-text>", "Hi", "</content-block-text>"), xmlSSE(xmlInit, "<content-block-text>", "hello", "</content-block-text>"), 3},
		{"xml", "XML001", xmlSSE(xmlInit, `<content-block-rollback id="x"></content-block-rollback>`), xmlSSE(xmlInit), 3},
		{"xml", "XML001", xmlSSE(xmlInit, xmlCall, "</content-block-tool_call>", xmlResult), xmlSSE(xmlInit, xmlCall, xmlResult), 5},
		{"xml", "XML001", xmlSSE(xmlInit, "<content-block-text>", "Hi", "<content-block-thinking>", "hm", "</content-block-thinking>", "</content-block-text>"), xmlSSE(xmlInit, "<content-block-text>", "Hi", "</content-block-text>", "<content-block-thinking>", "hm", "</content-block-thinking>"), 7},
		{"xml", "XML002", xmlSSE(xmlInit, strings.Replace(xmlCall, ` arguments="{&quot;path&quot;: &quot;.&quot;}"`, "", 1), xmlResult), xmlSSE(xmlInit, xmlCall, xmlResult), 3},
		{"xml", "XML002", xmlSSE(xmlInit, xmlCall, strings.Replace(xmlImages, ` media_type="image/png"`, "", 1)), xmlSSE(xmlInit, xmlCall, xmlImages), 5},
		{"xml", "XML003", strings.Replace(xmlSSE(xmlInit, "<content-block-text>", "line one\nline two", "</content-block-text>"), `\n`, "\n", 1), xmlSSE(xmlInit, "<content-block-text>", `line one\nline two`, "</content-block-text>"), 6},
		{"xml", "XML003", xmlSSE(xmlInit, strings.Replace(xmlCall, `name="ls"`, `name="a&b"`, 1), xmlResult), xmlSSE(xmlInit, strings.Replace(xmlCall, `name="ls"`, `name="a&amp;b"`, 1), xmlResult), 3},
	}
	for _, tt := range tests {
		t.Run(tt.format+"/"+tt.rule, func(t *testing.T) {
			t.Parallel()
			f, ok := convert.Lookup(tt.format)
			if !ok {
				t.Fatalf("no format %s", tt.format)
			}
			check := func(in string) []Violation {
				got, err := Check(strings.NewReader(in), &Config{
					Source: "in", Format: testFormat(tt.format),
					NewDecoder: func(r io.Reader) event.Decoder { return f.NewDecoder(r, &format.Options{Source: "in"}) },
				})
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			got := check(tt.bad)
			var lines []int
			for _, v := range got {
				if v.Rule == tt.rule {
					lines = append(lines, v.Line)
				}
			}
			if len(lines) == 0 || (tt.line != 0 && lines[0] != tt.line) {
				t.Errorf("breaking stream: %s at lines %v, want line %d; all violations:\n%s", tt.rule, lines, tt.line, dump(got))
			}
			for _, v := range check(tt.pass) {
				if v.Rule == tt.rule || !strings.HasPrefix(v.Rule, "GEN") {
					t.Errorf("passing stream: %s", dump([]Violation{v}))
				}
			}
		})
	}
}
