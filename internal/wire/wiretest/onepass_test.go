package wiretest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/internal/jsontext"
)

type checkedInner struct {
	A string `json:"a"`
	N *int64 `json:"n,omitempty"`
}

type checkedOuter struct {
	Type string         `json:"type"`
	In   *checkedInner  `json:"in,omitempty"`
	List []checkedInner `json:"list"`
	own  int            // a reader's extra, not compared
}

// readerWithout returns a hand-written one-pass reader of checkedOuter
// that has no case for the keys in missing (of either struct).
func readerWithout(missing ...string) func(*jsontext.Reader, *checkedOuter) bool {
	inner := func(r *jsontext.Reader, v *checkedInner) {
		r.Object()
		for key, ok := r.Key(); ok; key, ok = r.Key() {
			switch k := string(key); {
			case slices.Contains(missing, k):
				r.Skip()
			case k == "a":
				r.StringField(&v.A)
			case k == "n":
				r.OptIntField(&v.N)
			default:
				r.Skip()
			}
		}
	}
	return func(r *jsontext.Reader, v *checkedOuter) bool {
		r.Object()
		v.own = 1
		for key, ok := r.Key(); ok; key, ok = r.Key() {
			switch k := string(key); {
			case slices.Contains(missing, k):
				r.Skip()
			case k == "type":
				r.StringField(&v.Type)
			case k == "in":
				if r.Null() {
					v.In = nil
				} else {
					v.In = new(checkedInner)
					inner(r, v.In)
				}
			case k == "list":
				if r.Null() {
					v.List = nil
					continue
				}
				v.List = []checkedInner{}
				for r.Array(); r.More(); {
					v.List = append(v.List, checkedInner{})
					inner(r, &v.List[len(v.List)-1])
				}
			default:
				r.Skip()
			}
		}
		return !r.Failed()
	}
}

// recorder is a testing.TB that keeps what Errorf reports.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestReadsEveryField: the check passes a reader with a case for every
// field, and fails one without the case of one field, naming its paths.
func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		missing []string
		want    []string // paths reported
	}{
		{nil, nil},
		{[]string{"n"}, []string{".in.n", ".in.n*", ".list[0].n", ".list[0].n*"}},
		{[]string{"type"}, []string{".type"}},
		{[]string{"in"}, []string{".in", ".in.a", ".in.n", ".in.n*"}},
	} {
		rec := &recorder{TB: t}
		ReadsEveryField(rec, readerWithout(tt.missing...))
		var got []string
		for _, e := range rec.errs {
			_, path, _ := strings.Cut(e, " field ")
			path, _, _ = strings.Cut(path, ":")
			got = append(got, path)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("without %q: reported %q, want %q", tt.missing, rec.errs, tt.want)
		}
	}
}
