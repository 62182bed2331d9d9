package schemagen

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentstream/agentstream/cmd"
)

// corpusRoots are where the recordings are: testdata/ and, when it is
// there, the shared corpus of real producers' output.
var corpusRoots = []string{"../../testdata", "../../../shared/corpus"}

// recordingFiles returns every file of the roots that may be a stream
// (.sse, .jsonl, .json), leaving out golden files, scripts, fuzz inputs,
// tool definitions and metadata sidecars.
func recordingFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, root := range corpusRoots {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch d.Name() {
				case "golden", "script", "fuzz":
					return filepath.SkipDir
				}
				return nil
			}
			switch filepath.Ext(p) {
			case ".sse", ".jsonl", ".json":
			default:
				return nil
			}
			if strings.HasSuffix(p, ".tools.json") || strings.HasSuffix(p, ".meta.json") {
				return nil
			}
			out = append(out, p)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) == 0 {
		t.Fatal("no recordings found")
	}
	return out
}

// compile compiles docs/schema/name with the validator.
func compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	path, err := filepath.Abs(filepath.Join(schemaDir, name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := jsonschema.NewCompiler().Compile(path)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// run runs agentstream with args and returns its stdout.
func run(args ...string) []byte {
	var out, errb bytes.Buffer
	cmd.Run(context.Background(), args, &cmd.IOStreams{In: strings.NewReader(""), Out: &out, Err: &errb})
	return out.Bytes()
}

// check validates one JSON document against s, and counts it.
func check(t *testing.T, s *jsonschema.Schema, what string, doc []byte, n *counter, key string) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Errorf("%s: not JSON: %v", what, err)
		return
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("%s does not follow docs/schema: %v\n%s", what, err, firstLine(doc))
		return
	}
	n.add(key)
}

type counter struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *counter) add(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k]++
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// TestCorpusOutputsFollowSchemas runs assemble -o json, usage --json,
// validate --format json and verify --json on every recording (verify:
// each against itself, and directories of session logs against
// themselves for the report of several runs) and validates what they
// write against docs/schema.
func TestCorpusOutputsFollowSchemas(t *testing.T) {
	t.Parallel()
	block := compile(t, "assemble-block.schema.json")
	use := compile(t, "usage.schema.json")
	val := compile(t, "validate.schema.json")
	ver := compile(t, "verify.schema.json")
	n := &counter{m: map[string]int{}}
	t.Run("files", func(t *testing.T) {
		for _, p := range recordingFiles(t) {
			t.Run(p, func(t *testing.T) {
				t.Parallel()
				sc := bufio.NewScanner(bytes.NewReader(run("assemble", "-o", "json", p)))
				sc.Buffer(nil, 64<<20)
				for sc.Scan() {
					check(t, block, "assemble -o json "+p, sc.Bytes(), n, "block")
				}
				if out := run("usage", "--json", p); len(out) > 0 {
					check(t, use, "usage --json "+p, out, n, "usage")
				}
				if out := run("validate", "--format", "json", p); len(out) > 0 {
					check(t, val, "validate --format json "+p, out, n, "validate")
				}
				if out := run("verify", "--json", p, p); len(out) > 0 {
					check(t, ver, "verify --json "+p, out, n, "verify")
				}
			})
		}
	})
	for _, dir := range []string{"../../testdata/claude-session", "../../testdata/codex-session"} {
		if out := run("verify", "--json", dir, dir); len(out) > 0 {
			check(t, ver, "verify --json "+dir, out, n, "verify runs")
		}
		if out := run("usage", "--json", "--by", "model", dir); len(out) > 0 {
			check(t, use, "usage --json --by model "+dir, out, n, "usage")
		}
		// sessions --json writes usage's rows, one per session.
		if out := run("sessions", "--json", dir); len(out) > 0 {
			check(t, use, "sessions --json "+dir, out, n, "sessions")
		}
	}
	// Every schema was checked against real output, not only vacuously.
	for _, k := range []string{"block", "usage", "sessions", "validate", "verify", "verify runs"} {
		if n.m[k] == 0 {
			t.Errorf("no %s output was validated", k)
		}
	}
	t.Logf("validated: %v", n.m)
}

// TestSchemasReject checks that the schemas are strict: a block with a
// field the type does not have, or of another type, fails.
func TestSchemasReject(t *testing.T) {
	t.Parallel()
	block := compile(t, "assemble-block.schema.json")
	for _, doc := range []string{
		`{"agent":"a","type":"text","text":"hi","extra":1}`,
		`{"agent":"a","type":"no_such_type"}`,
		`{"agent":"a"}`,
		`{"agent":"a","type":"tool_result","exit_code":"1"}`,
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if block.Validate(v) == nil {
			t.Errorf("%s: accepted", doc)
		}
	}
}
