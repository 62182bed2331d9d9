package recording_test

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/recording"
)

// arrival is a piece of input and when it arrives.
type arrival struct {
	at   time.Duration
	data string
}

// clockReader hands out arrivals one per Read and sets the clock to each
// one's time.
type clockReader struct {
	arrivals []arrival
	now      time.Duration
}

func (r *clockReader) Read(p []byte) (int, error) {
	if len(r.arrivals) == 0 {
		return 0, io.EOF
	}
	a := &r.arrivals[0]
	r.now = a.at
	n := copy(p, a.data)
	a.data = a.data[n:]
	if a.data == "" {
		r.arrivals = r.arrivals[1:]
	}
	return n, nil
}

var epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func (r *clockReader) clock() time.Time { return epoch.Add(r.now) }

func record(t *testing.T, arrivals []arrival) (rec, timing string, framing string) {
	t.Helper()
	src := &clockReader{arrivals: slices.Clone(arrivals)}
	var out, side bytes.Buffer
	framing, err := recording.Record(&out, src, &recording.Config{
		Now:    src.clock,
		Timing: func() (io.Writer, error) { return &side, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), side.String(), framing
}

func join(arrivals []arrival) string {
	var b strings.Builder
	for _, a := range arrivals {
		b.WriteString(a.data)
	}
	return b.String()
}

var recordTests = []struct {
	name       string
	arrivals   []arrival
	want       string
	wantTiming string
	framing    string
}{
	{
		name: "sse",
		arrivals: []arrival{
			{0, "event: a\ndata: one\n\n"},
			{15 * time.Millisecond, "data: tw"},
			{40 * time.Millisecond, "o\n\n: ping\n\n"},
		},
		want: recording.Header + "\n" +
			":t=0\nevent: a\ndata: one\n\n" +
			":t=40\ndata: two\n\n" +
			":t=40\n: ping\n\n",
		framing: recording.SSE,
	},
	{
		name: "crlf split across reads",
		arrivals: []arrival{
			{0, "data: one\r"},
			{5 * time.Millisecond, "\n\r"},
			{9 * time.Millisecond, "\ndata: two\r\r"},
		},
		want: recording.Header + "\n" +
			":t=5\ndata: one\r\n\r\n" +
			":t=9\ndata: two\r\r",
		framing: recording.SSE,
	},
	{
		name: "the stream's own comments that look like ours",
		arrivals: []arrival{
			{0, ":t=99\n:agentstream-recording v1\ndata: x\n\n"},
		},
		want: recording.Header + "\n" +
			":t=0\n:agentstream-literal\n:t=99\n:agentstream-literal\n:agentstream-recording v1\ndata: x\n\n",
		framing: recording.SSE,
	},
	{
		name: "last message without its blank line",
		arrivals: []arrival{
			{0, "data: one\n\n"},
			{7 * time.Millisecond, "data: cut"},
		},
		want:    recording.Header + "\n:t=0\ndata: one\n\n:t=7\ndata: cut",
		framing: recording.SSE,
	},
	{
		name: "ndjson",
		arrivals: []arrival{
			{0, "{\"a\":1}\n{\"a\""},
			{20 * time.Millisecond, ":2}\n"},
			{31 * time.Millisecond, "{\"a\":3}"},
		},
		want:       "{\"a\":1}\n{\"a\":2}\n{\"a\":3}",
		wantTiming: recording.TimingHeader + "\n1 0\n2 20\n3 31\n",
		framing:    recording.Lines,
	},
	{
		name:    "empty",
		want:    "",
		framing: "",
	},
}

func TestRecord(t *testing.T) {
	t.Parallel()
	for _, tt := range recordTests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, timing, framing := record(t, tt.arrivals)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("recording (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantTiming, timing); diff != "" {
				t.Errorf("timing (-want +got):\n%s", diff)
			}
			if framing != tt.framing {
				t.Errorf("framing = %q, want %q", framing, tt.framing)
			}
		})
	}
}

// TestRecordThenPlay checks that playing a recording gives back the bytes
// recorded, whatever the reads that delivered the recording.
func TestRecordThenPlay(t *testing.T) {
	t.Parallel()
	readers := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
	}
	for _, tt := range recordTests {
		for rname, wrap := range readers {
			t.Run(tt.name+"/"+rname, func(t *testing.T) {
				t.Parallel()
				rec, timing, _ := record(t, tt.arrivals)
				var side io.Reader
				if timing != "" {
					side = strings.NewReader(timing)
				}
				p := recording.NewPlayer(wrap(strings.NewReader(rec)), side)
				var got strings.Builder
				var ats []time.Duration
				for {
					c, err := p.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					if !c.Timed {
						t.Errorf("chunk %q untimed", c.Data)
					}
					got.Write(c.Data)
					ats = append(ats, c.At)
				}
				if diff := cmp.Diff(join(tt.arrivals), got.String()); diff != "" {
					t.Errorf("played bytes (-want +got):\n%s", diff)
				}
				for i := 1; i < len(ats); i++ {
					if ats[i] < ats[i-1] {
						t.Errorf("times go back: %v", ats)
					}
				}
			})
		}
	}
}

func TestPlayerUntimedFiles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		framing string
		chunks  []string
	}{
		{
			"sse", ": hi\n\nevent: a\ndata: 1\n\ndata: 2", recording.SSE,
			[]string{": hi\n\n", "event: a\ndata: 1\n\n", "data: 2"},
		},
		{"ndjson", "{}\n\n{\"x\":1}\n", recording.Lines, []string{"{}\n", "\n", "{\"x\":1}\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := recording.NewPlayer(strings.NewReader(tt.in), nil)
			framing, err := p.Framing()
			if err != nil || framing != tt.framing {
				t.Fatalf("Framing() = %q, %v; want %q", framing, err, tt.framing)
			}
			var got []string
			for {
				c, err := p.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if c.Timed {
					t.Errorf("chunk %q is timed", c.Data)
				}
				got = append(got, string(c.Data))
			}
			if diff := cmp.Diff(tt.chunks, got); diff != "" {
				t.Errorf("chunks (-want +got):\n%s", diff)
			}
			err = recording.Play(t.Context(), recording.NewPlayer(strings.NewReader(tt.in), nil),
				recording.Timing{}, func(recording.Chunk) error { return nil })
			if !errors.Is(err, recording.ErrNoTiming) {
				t.Errorf("Play without --no-delay: %v, want ErrNoTiming", err)
			}
		})
	}
}

func TestTimingGap(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	at := func(d time.Duration) recording.Chunk { return recording.Chunk{At: d, Timed: true} }
	tests := []struct {
		name        string
		timing      recording.Timing
		prev, cur   recording.Chunk
		first       bool
		want        time.Duration
		wantNoTimng bool
	}{
		{"recorded", recording.Timing{}, at(100 * ms), at(350 * ms), false, 250 * ms, false},
		{"first waits too", recording.Timing{}, recording.Chunk{}, at(80 * ms), true, 80 * ms, false},
		{"speed", recording.Timing{Speed: 2}, at(100 * ms), at(300 * ms), false, 100 * ms, false},
		{"slow", recording.Timing{Speed: 0.5}, at(0), at(10 * ms), false, 20 * ms, false},
		{"max gap", recording.Timing{MaxGap: 50 * ms}, at(0), at(10 * time.Second), false, 50 * ms, false},
		{"speed then cap", recording.Timing{Speed: 10, MaxGap: 50 * ms}, at(0), at(time.Second), false, 50 * ms, false},
		{"no delay", recording.Timing{NoDelay: true}, at(0), at(time.Second), false, 0, false},
		{"interval", recording.Timing{Interval: 30 * ms}, at(0), at(time.Second), false, 30 * ms, false},
		{"interval, first", recording.Timing{Interval: 30 * ms}, recording.Chunk{}, at(time.Second), true, 0, false},
		{"interval, untimed", recording.Timing{Interval: 30 * ms}, recording.Chunk{}, recording.Chunk{}, false, 30 * ms, false},
		{"untimed", recording.Timing{}, recording.Chunk{}, recording.Chunk{}, false, 0, true},
		{"out of order", recording.Timing{}, at(50 * ms), at(10 * ms), false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.timing.Gap(tt.prev, tt.cur, tt.first)
			if (err != nil) != tt.wantNoTimng {
				t.Fatalf("error = %v", err)
			}
			if got != tt.want {
				t.Errorf("gap = %v, want %v", got, tt.want)
			}
		})
	}
}

// FuzzRecordRoundTrip checks that whatever the input and however it is cut
// into reads, playing its recording gives back its bytes.
func FuzzRecordRoundTrip(f *testing.F) {
	for _, tt := range recordTests {
		f.Add(join(tt.arrivals), uint8(7))
	}
	f.Add("data: a\r\r:t=1\r\n\r\n:agentstream-literal\n\n", uint8(1))
	f.Add("\n\n\r\n{\"a\":1}\r\n", uint8(2))
	f.Fuzz(func(t *testing.T, in string, cut uint8) {
		size := int(cut)%16 + 1
		var arrivals []arrival
		for i := 0; i < len(in); i += size {
			arrivals = append(arrivals, arrival{time.Duration(i) * time.Millisecond, in[i:min(i+size, len(in))]})
		}
		rec, timing, _ := record(t, arrivals)
		var side io.Reader
		if timing != "" {
			side = strings.NewReader(timing)
		}
		p := recording.NewPlayer(strings.NewReader(rec), side)
		var got strings.Builder
		for {
			c, err := p.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("recording %q: %v", rec, err)
			}
			got.Write(c.Data)
		}
		if got.String() != in {
			t.Fatalf("recording %q plays %q, want %q", rec, got.String(), in)
		}
	})
}

func TestPlayerTimed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		rec    string
		timing io.Reader
		want   bool
	}{
		{"sse recording", recording.Header + "\n:t=0\ndata: x\n\n", nil, true},
		{"sse file", "data: x\n\n", nil, false},
		{"ndjson with sidecar", "{}\n", strings.NewReader(recording.TimingHeader + "\n1 0\n"), true},
		{"ndjson file", "{}\n", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := recording.NewPlayer(strings.NewReader(tt.rec), tt.timing).Timed()
			if err != nil || got != tt.want {
				t.Errorf("Timed() = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
