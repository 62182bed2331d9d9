package source

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// readUntil reads from fl until it has want, or fails at a generous
// deadline (the follower waits at the end of the file, so the read runs
// in a goroutine).
func readUntil(t *testing.T, fl *Follower, want string) {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, len(want))
		n, _ := io.ReadFull(fl, buf)
		got <- string(buf[:n])
	}()
	select {
	case s := <-got:
		if s != want {
			t.Fatalf("read %q, want %q", s, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%q never arrived", want)
	}
}

func TestFollowAppendTruncateReplace(t *testing.T) {
	t.Parallel()
	t.Run("notified", func(t *testing.T) { t.Parallel(); followSequence(t, false) })
	// Where file-change notification is not available.
	t.Run("polling", func(t *testing.T) { t.Parallel(); followSequence(t, true) })
}

func followSequence(t *testing.T, poll bool) {
	name := filepath.Join(t.TempDir(), "f")
	write := func(flag int, s string) {
		f, err := os.OpenFile(name, flag|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(s); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	write(os.O_TRUNC, "one\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fl, err := Follow(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	if poll && fl.w != nil {
		fl.w.Close()
		fl.w, fl.poll = nil, PollInterval
	}
	readUntil(t, fl, "one\n")
	write(os.O_APPEND, "two\n")
	readUntil(t, fl, "two\n")
	// Truncated: read again from the start.
	write(os.O_TRUNC, "3\n")
	readUntil(t, fl, "3\n")
	// Replaced by another file: read that one from its start.
	tmp := name + ".new"
	if err := os.WriteFile(tmp, []byte("four\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
	readUntil(t, fl, "four\n")
	// Stop: EOF at the end instead of waiting.
	fl.Stop()
	if n, err := fl.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Errorf("after Stop: %d, %v; want 0, EOF", n, err)
	}
}

func TestFollowInterrupted(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	fl, err := Follow(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	readUntil(t, fl, "x")
	cancel()
	if n, err := fl.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Errorf("after cancel: %d, %v; want 0, EOF", n, err)
	}
}

func TestFollowNotAFile(t *testing.T) {
	t.Parallel()
	if _, err := Follow(context.Background(), t.TempDir()); err == nil {
		t.Error("Follow(directory): no error")
	}
	if _, err := Follow(context.Background(), filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Follow(missing): no error")
	}
}

// TestFollowRewriteLonger: a file truncated and written again with more
// than was read before the follower looked again shows no shrinking size;
// the follower still reads the new content from its start instead of
// reading on from its old offset.
func TestFollowRewriteLonger(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, []byte("data: first run\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fl, err := Follow(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	buf := make([]byte, 4096)
	n, err := fl.Read(buf)
	if err != nil || string(buf[:n]) != "data: first run\n\n" {
		t.Fatalf("first read: %q, %v", buf[:n], err)
	}
	second := "data: second run, longer than the first\n\ndata: more\n\n"
	if err := os.WriteFile(name, []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err = fl.Read(buf)
	if err != nil || string(buf[:n]) != second {
		t.Fatalf("after the rewrite read %q, %v; want %q", buf[:n], err, second)
	}
}

// TestFollowAppendKeepsOffset: appending is not mistaken for a rewrite.
func TestFollowAppendKeepsOffset(t *testing.T) {
	t.Parallel()
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fl, err := Follow(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	buf := make([]byte, 4096)
	if n, err := fl.Read(buf); err != nil || string(buf[:n]) != "one\n" {
		t.Fatalf("first read: %q, %v", buf[:n], err)
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("two\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if n, err := fl.Read(buf); err != nil || string(buf[:n]) != "two\n" {
		t.Fatalf("after the append read %q, %v; want %q", buf[:n], err, "two\n")
	}
}
