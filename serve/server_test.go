package serve

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/recording"
)

// chatRun is an OpenAI Chat Completions stream (from
// testdata/openai-chat/chat-text.sse, cut short).
const chatRun = `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hello"},"finish_reason":null}]}

data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: [DONE]

`

// record writes a recording of stream to dir/name, as record does, each
// event a millisecond after the one before.
func record(t *testing.T, dir, name, stream string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	clock := time.Unix(0, 0)
	cfg := &recording.Config{
		Now: func() time.Time { clock = clock.Add(time.Millisecond); return clock },
		Timing: func() (io.Writer, error) {
			return os.Create(filepath.Join(dir, name+".timing"))
		},
	}
	if _, err := recording.Record(f, strings.NewReader(stream), cfg); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

type response struct {
	Code   int
	Header http.Header
	Body   string
}

func do(t *testing.T, h http.Handler, method, path, body string) response {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"Date", "Content-Length", "Transfer-Encoding"} {
		res.Header.Del(k)
	}
	return response{res.StatusCode, res.Header, string(b)}
}

func TestServeFixtures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record(t, dir, "chat.sse", chatRun)
	record(t, dir, "chat.jsonl", "{\"a\":1}\n{\"b\":2}\n")
	writeFile(t, filepath.Join(dir, "plain.sse"), chatRun) // no timing
	fixtures := filepath.Join(dir, "fixtures.json")
	writeFile(t, fixtures, `{"fixtures": [
		{"match": {"method": "POST", "path": "/v1/chat/completions", "userMessage": "hello", "call": 1}, "recording": "chat.sse", "timing": "none"},
		{"match": {"path": "/v1/chat/completions", "userMessage": "hello"}, "recording": "plain.sse", "to": "jsonenv", "framing": "ndjson"},
		{"match": {"path": "/lines"}, "recording": "chat.jsonl", "timing": "none"},
		{"match": {"path": "/ui"}, "recording": "plain.sse", "to": "aisdk"}
	]}`)
	// A stand-in for the AI SDK's format, so that its header is tested
	// whether or not the table holds it.
	lookup := func(name string) (convert.Format, bool) {
		if name == "aisdk" {
			f, _ := convert.Lookup("jsonenv")
			f.Name, f.ContentType = "aisdk", format.ContentSSE
			f.Headers = map[string]string{"x-vercel-ai-ui-message-stream": "v1"}
			return f, true
		}
		return convert.Lookup(name)
	}
	var warnings []string
	s, err := New(fixtures, &Options{Lookup: lookup, Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	sseHeader := http.Header{"Content-Type": {TypeSSE}, "Cache-Control": {"no-cache"}, "X-Accel-Buffering": {"no"}}
	ask := `{"messages":[{"role":"user","content":"hello there"}]}`

	// the recorded bytes, byte for byte
	got := do(t, s, "POST", "/v1/chat/completions", ask)
	if diff := cmp.Diff(response{200, sseHeader, chatRun}, got); diff != "" {
		t.Errorf("first call (-want +got):\n%s", diff)
	}
	// the second call, converted
	got = do(t, s, "POST", "/v1/chat/completions", ask)
	if got.Code != 200 || got.Header.Get("Content-Type") != TypeNDJSON || !strings.Contains(got.Body, `"delta":"Hello"`) {
		t.Errorf("second call: %+v, want jsonenv NDJSON", got)
	}
	// a line-framed recording is served as NDJSON
	got = do(t, s, "GET", "/lines", "")
	if diff := cmp.Diff(response{200, http.Header{"Content-Type": {TypeNDJSON}, "Cache-Control": {"no-cache"}, "X-Accel-Buffering": {"no"}}, "{\"a\":1}\n{\"b\":2}\n"}, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	// the format's own header
	got = do(t, s, "POST", "/ui", `{"messages":[{"role":"user","parts":[{"type":"text","text":"hi"}]}]}`)
	if h := got.Header.Get("X-Vercel-Ai-Ui-Message-Stream"); h != "v1" || got.Header.Get("Content-Type") != TypeSSE {
		t.Errorf("aisdk: headers %v, want x-vercel-ai-ui-message-stream: v1", got.Header)
	}

	// no match: 404, naming what was asked
	got = do(t, s, "POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":"bye"}]}`)
	want := response{
		404,
		http.Header{"Content-Type": {"application/json"}},
		`{"error":"no fixture matches the request","method":"POST","path":"/v1/chat/completions","userMessage":"bye","call":1}` + "\n",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("no match (-want +got):\n%s", diff)
	}
	got = do(t, s, "GET", "/nothing", "")
	want.Header, want.Body = http.Header{"Content-Type": {"application/json"}},
		`{"error":"no fixture matches the request","method":"GET","path":"/nothing","userMessage":null,"call":1}`+"\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("no match, no body (-want +got):\n%s", diff)
	}
	// The envelope has no turns: the chat completion's id, model and
	// finish_reason are reported lost, and nothing else.
	if diff := cmp.Diff([]string{
		"jsonenv cannot carry message ids",
		"jsonenv cannot carry models of messages (meta_init names the session's model only)",
		"jsonenv cannot carry per-turn stop reasons (meta_final carries the run's stop reason only)",
		"jsonenv cannot carry the stop reason of a run without a run end (meta_final carries a run's stop reason only)",
	}, warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestServeBodyTooLarge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record(t, dir, "chat.sse", chatRun)
	writeFile(t, filepath.Join(dir, "f.json"), `{"fixtures":[{"recording":"chat.sse"}]}`)
	s, err := New(filepath.Join(dir, "f.json"), &Options{MaxBodyBytes: 10})
	if err != nil {
		t.Fatal(err)
	}
	got := do(t, s, "POST", "/x", strings.Repeat("y", 11))
	var body map[string]any
	if got.Code != http.StatusRequestEntityTooLarge || json.Unmarshal([]byte(got.Body), &body) != nil || body["path"] != "/x" {
		t.Errorf("got %+v, want 413 with a JSON body", got)
	}
	if got := do(t, s, "POST", "/x", strings.Repeat("y", 10)); got.Code != 200 {
		t.Errorf("a body at the cap: %d", got.Code)
	}
}

func TestServeDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record(t, dir, "chat.sse", chatRun)
	record(t, dir, "chat.jsonl", "{\"a\":1}\n")
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	record(t, filepath.Join(dir, "sub"), "inner.sse", chatRun)
	writeFile(t, filepath.Join(filepath.Dir(dir), "outside.sse"), chatRun)
	s, err := NewDir(dir, &Options{Timing: recording.Timing{NoDelay: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := do(t, s, "GET", "/chat.sse", ""); got.Code != 200 || got.Body != chatRun {
		t.Errorf("/chat.sse: %+v", got)
	}
	if got := do(t, s, "POST", "/chat.jsonl", ""); got.Code != 200 || got.Body != "{\"a\":1}\n" || got.Header.Get("Content-Type") != TypeNDJSON {
		t.Errorf("/chat.jsonl: %+v", got)
	}
	for _, path := range []string{"/", "/nosuch.sse", "/chat.jsonl.timing", "/sub", "/sub/inner.sse", "/../outside.sse", "/%2e%2e/outside.sse", "/..%2foutside.sse"} {
		got := do(t, s, "GET", path, "")
		if got.Code != 404 || !strings.Contains(got.Body, `"error":"no recording at this path"`) {
			t.Errorf("%s: %+v, want 404", path, got)
		}
	}
}

// TestNewErrors: a fixture whose recording cannot be served as it says
// stops the server before it starts.
func TestNewErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record(t, dir, "chat.sse", chatRun)
	writeFile(t, filepath.Join(dir, "plain.sse"), chatRun)
	writeFile(t, filepath.Join(dir, "text.txt"), "\x00\x01 not a stream\n")
	tests := []struct{ fixture, want string }{
		{`{"recording":"nosuch.sse"}`, "no such file or directory"},
		{`{"recording":"plain.sse","timing":"recorded"}`, `plain.sse: the recording has no timing (use "timing": "none")`},
		{`{"recording":"chat.sse","to":"nosuch"}`, `unknown output format "nosuch"`},
		{`{"recording":"chat.sse","to":"claude-session"}`, `unknown output format "claude-session"`},
		{`{"recording":"text.txt","to":"jsonenv"}`, "text.txt: cannot detect the input format"},
	}
	for i, tt := range tests {
		name := filepath.Join(dir, "f"+string(rune('a'+i))+".json")
		writeFile(t, name, `{"fixtures":[{"recording":"chat.sse"},`+tt.fixture+`]}`)
		_, err := New(name, nil)
		if err == nil || !strings.Contains(err.Error(), "fixture 2: ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.fixture, err, tt.want)
		}
	}
}

// TestMediaCoversFormats: every format the convert table writes says its
// Content-Type in its format value, or follows the framing it is written
// in (--framing).
func TestMediaCoversFormats(t *testing.T) {
	t.Parallel()
	for _, f := range convert.Formats() {
		if f.NewEncoder != nil && f.ContentType == "" && !slices.Contains(f.Uses, format.OptFraming) {
			t.Errorf("format %s says no ContentType and has no --framing", f.Name)
		}
	}
	jsonenv, _ := convert.Lookup("jsonenv")
	if m := LookupMedia(jsonenv.Format, "ndjson"); m.ContentType != TypeNDJSON {
		t.Errorf("jsonenv as NDJSON: %q", m.ContentType)
	}
	if m := LookupMedia(jsonenv.Format, recording.Lines); m.ContentType != TypeNDJSON {
		t.Errorf("a line-framed jsonenv recording: %q", m.ContentType)
	}
	if m := LookupMedia(jsonenv.Format, "sse"); m.ContentType != TypeSSE {
		t.Errorf("jsonenv as SSE: %q", m.ContentType)
	}
}

// abandonable is the head of an Anthropic Messages stream (a source that
// may abandon a message) whose text block ends an hour after its delta.
const abandonable = `:agentstream-recording v1
:t=0
event: message_start
data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}

:t=0
event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

:t=0
event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Streamed"}}

:t=3600000
event: content_block_stop
data: {"type":"content_block_stop","index":0}

`

// TestServeStreamsHeldText: a recording served with its timing and
// converted is a live input, so the text of a source that may abandon it
// reaches the client as it is played, for a target that cannot mark an
// abandon (openai-chat), not at its block's end an hour later. (Without
// that, the test waits for the hour and go test's timeout fails it.)
func TestServeStreamsHeldText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "run.sse"), abandonable)
	fixtures := filepath.Join(dir, "fixtures.json")
	writeFile(t, fixtures, `{"fixtures": [{"match": {"path": "/run"}, "recording": "run.sse", "to": "openai-chat"}]}`)
	s, err := New(fixtures, &Options{Warn: func(error) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	req, err := http.NewRequestWithContext(t.Context(), "GET", srv.URL+"/run", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got []byte
	buf := make([]byte, 4096)
	for !strings.Contains(string(got), `"content":"Streamed"`) {
		n, err := res.Body.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			t.Fatalf("the body ended (%v) without the delta's text: %q", err, got)
		}
	}
	if strings.Contains(string(got), `"finish_reason":"`) {
		t.Errorf("the delta's text came with the message's end: %q", got)
	}
}
