package openset

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// op is one call on a Map: put (with a value), get or delete of key.
type op struct {
	do  string // "put", "del", "clear"
	key string
	val int
}

func TestMap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		max     int
		ops     []op
		out     []string       // keys Put let go of, in order
		held    map[string]int // what is held at the end
		wantMax int
	}{
		{"empty", 2, nil, nil, map[string]int{}, 2},
		{"default cap", 0, []op{{"put", "a", 1}}, nil, map[string]int{"a": 1}, DefaultMax},
		{"within the cap", 3, []op{{"put", "a", 1}, {"put", "b", 2}}, nil, map[string]int{"a": 1, "b": 2}, 3},
		{"oldest let go of", 2, []op{{"put", "a", 1}, {"put", "b", 2}, {"put", "c", 3}}, []string{"a"}, map[string]int{"b": 2, "c": 3}, 2},
		{"put again keeps the place", 2, []op{{"put", "a", 1}, {"put", "b", 2}, {"put", "a", 9}, {"put", "c", 3}}, []string{"a"}, map[string]int{"b": 2, "c": 3}, 2},
		{"replaced value", 2, []op{{"put", "a", 1}, {"put", "a", 9}}, nil, map[string]int{"a": 9}, 2},
		{"deleted frees a place", 2, []op{{"put", "a", 1}, {"put", "b", 2}, {"del", "a", 0}, {"put", "c", 3}}, nil, map[string]int{"b": 2, "c": 3}, 2},
		{"delete of a key not held", 2, []op{{"put", "a", 1}, {"del", "z", 0}}, nil, map[string]int{"a": 1}, 2},
		{"clear", 1, []op{{"put", "a", 1}, {"clear", "", 0}, {"put", "b", 2}}, nil, map[string]int{"b": 2}, 1},
		{"cap of one", 1, []op{{"put", "a", 1}, {"put", "b", 2}, {"put", "c", 3}}, []string{"a", "b"}, map[string]int{"c": 3}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := NewMap[string, int](tt.max)
			out := apply(m, tt.ops)
			if diff := cmp.Diff(tt.out, out); diff != "" {
				t.Errorf("let go of (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.held, maps.Collect(m.All())); diff != "" {
				t.Errorf("held (-want +got):\n%s", diff)
			}
			if m.Len() != len(tt.held) || m.Max() != tt.wantMax {
				t.Errorf("Len %d, Max %d; want %d, %d", m.Len(), m.Max(), len(tt.held), tt.wantMax)
			}
		})
	}
}

func apply(m *Map[string, int], ops []op) []string {
	var out []string
	for _, o := range ops {
		switch o.do {
		case "put":
			if k, ok := m.Put(o.key, o.val); ok {
				out = append(out, k)
			}
		case "del":
			m.Delete(o.key)
		case "clear":
			m.Clear()
		}
	}
	return out
}

func TestMapZeroAndNil(t *testing.T) {
	t.Parallel()
	var nilMap *Map[string, int]
	if _, ok := nilMap.Get("a"); ok || nilMap.Has("a") || nilMap.Len() != 0 || nilMap.Max() != DefaultMax {
		t.Error("a nil Map is not empty")
	}
	for range nilMap.All() {
		t.Error("a nil Map yields")
	}
	var m Map[string, int]
	m.Delete("a")
	m.Clear()
	for i := range DefaultMax + 1 {
		m.Put(strconv.Itoa(i), i)
	}
	if m.Len() != DefaultMax || m.Has("0") || !m.Has("1") {
		t.Errorf("zero Map: len %d, has 0 %v, has 1 %v; want %d, false, true", m.Len(), m.Has("0"), m.Has("1"), DefaultMax)
	}
}

// model is the reference a Map is checked against: its keys in the order
// first put, as a plain slice.
type model struct {
	max  int
	keys []string
	vals map[string]int
}

func (r *model) put(k string, v int) (string, bool) {
	if _, ok := r.vals[k]; !ok {
		r.keys = append(r.keys, k)
	}
	r.vals[k] = v
	if len(r.keys) <= r.max {
		return "", false
	}
	old := r.keys[0]
	r.keys = r.keys[1:]
	delete(r.vals, old)
	return old, true
}

func (r *model) del(k string) {
	if i := slices.Index(r.keys, k); i >= 0 {
		r.keys = slices.Delete(r.keys, i, i+1)
	}
	delete(r.vals, k)
}

// TestMapModel runs random operations on a Map and on the model, over a
// few keys so that puts, deletes and lets-go meet, and compares every
// answer.
func TestMapModel(t *testing.T) {
	t.Parallel()
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 1))
		maxKeys := 1 + rng.IntN(6)
		m, r := NewMap[string, int](maxKeys), &model{max: maxKeys, vals: map[string]int{}}
		for step := range 300 {
			k := strconv.Itoa(rng.IntN(10))
			switch rng.IntN(10) {
			case 0, 1, 2:
				m.Delete(k)
				r.del(k)
			case 3:
				gv, gok := m.Get(k)
				wv, wok := r.vals[k]
				if gv != wv || gok != wok {
					t.Fatalf("seed %d step %d: Get(%s) = %d, %v; want %d, %v", seed, step, k, gv, gok, wv, wok)
				}
			default:
				v := rng.IntN(100)
				gk, gout := m.Put(k, v)
				wk, wout := r.put(k, v)
				if gk != wk || gout != wout {
					t.Fatalf("seed %d step %d: Put(%s) let go of %q, %v; want %q, %v", seed, step, k, gk, gout, wk, wout)
				}
			}
			if diff := cmp.Diff(r.vals, maps.Collect(m.All())); diff != "" {
				t.Fatalf("seed %d step %d: held (-want +got):\n%s", seed, step, diff)
			}
			if o, ok := m.keys.Oldest(); ok != (len(r.keys) > 0) || ok && o != r.keys[0] {
				t.Fatalf("seed %d step %d: oldest %q, want %q", seed, step, o, r.keys)
			}
		}
	}
}
