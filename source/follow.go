package source

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Polling intervals of a Follower: how often it looks at the file when
// change notification is not available, and, as a safety net, when it is
// (a notification can be missed on network file systems).
const (
	PollInterval   = 100 * time.Millisecond
	safetyInterval = time.Second
)

// Follower reads a file as tail -F does: to its end, then what is
// appended to it, waiting for more instead of returning io.EOF. A file
// that is truncated is read again from its start, and so is a file that
// is replaced (renamed over, or removed and created again). It waits on
// file-change notification (fsnotify) on the file's directory, and polls
// every PollInterval where that is not available; it never spins.
//
// Read returns io.EOF when the context is done (interrupted), or, after
// Stop, at the next end of the file. A Follower is read by one goroutine;
// Stop may be called from any.
type Follower struct {
	ctx  context.Context
	name string
	abs  string

	f    *os.File
	info os.FileInfo
	off  int64

	// tail holds the last bytes read (up to tailLen), and atEnd says the
	// last read found the file's end: before reading on from there, the
	// file must still hold tail just before off, or it was truncated and
	// written again between two looks (a rewrite longer than what was
	// read shows no shrinking size).
	tail  []byte
	atEnd bool

	w    *fsnotify.Watcher
	poll time.Duration

	stopOnce sync.Once
	stopped  chan struct{}
}

// Follow opens the file name for following. The caller closes it.
func Follow(ctx context.Context, name string) (*Follower, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "follow", Path: name, Err: errors.New("not a regular file")}
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		f.Close()
		return nil, err
	}
	fl := &Follower{ctx: ctx, name: name, abs: abs, f: f, info: info, poll: PollInterval, stopped: make(chan struct{})}
	if w, err := fsnotify.NewWatcher(); err == nil {
		if err := w.Add(filepath.Dir(abs)); err == nil {
			fl.w, fl.poll = w, safetyInterval
		} else {
			w.Close()
		}
	}
	return fl, nil
}

// Stop makes Read return io.EOF at the next end of the file instead of
// waiting: the stream's own end was seen.
func (fl *Follower) Stop() { fl.stopOnce.Do(func() { close(fl.stopped) }) }

// Close closes the file and the watcher.
func (fl *Follower) Close() error {
	if fl.w != nil {
		fl.w.Close()
	}
	return fl.f.Close()
}

// tailLen is how many of the last bytes read a Follower compares with the
// file before reading on from its end.
const tailLen = 64

// Read reads what the file holds, waiting at its end for more.
func (fl *Follower) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if fl.atEnd {
			if err := fl.verifyTail(); err != nil {
				return 0, err
			}
		}
		n, err := fl.f.Read(p)
		if n > 0 {
			fl.off += int64(n)
			fl.keepTail(p[:n])
			// A short read of a regular file is a read up to its end.
			fl.atEnd = n < len(p)
			return n, nil
		}
		if err != nil && err != io.EOF {
			return 0, err
		}
		fl.atEnd = true
		select {
		case <-fl.stopped:
			return 0, io.EOF
		case <-fl.ctx.Done():
			return 0, io.EOF
		default:
		}
		again, err := fl.check()
		if err != nil {
			return 0, err
		}
		if again {
			continue
		}
		if done := fl.wait(); done {
			return 0, io.EOF
		}
	}
}

// keepTail remembers the last tailLen bytes read, b being the newest.
func (fl *Follower) keepTail(b []byte) {
	if len(b) >= tailLen {
		fl.tail = append(fl.tail[:0], b[len(b)-tailLen:]...)
		return
	}
	if over := len(fl.tail) + len(b) - tailLen; over > 0 {
		fl.tail = fl.tail[:copy(fl.tail, fl.tail[over:])]
	}
	fl.tail = append(fl.tail, b...)
}

// verifyTail checks, before reading on from the end the last read found,
// that the file still holds what was read just before it. A file that was
// truncated and written again, however fast, no longer does (unless the
// new bytes repeat the old ones there): it is then read from its start.
func (fl *Follower) verifyTail() error {
	if len(fl.tail) == 0 {
		return nil
	}
	buf := make([]byte, len(fl.tail))
	n, err := fl.f.ReadAt(buf, fl.off-int64(len(fl.tail)))
	if n == len(buf) && string(buf) == string(fl.tail) {
		return nil
	}
	if err != nil && err != io.EOF {
		return err
	}
	return fl.restart()
}

// restart reads the file from its start again.
func (fl *Follower) restart() error {
	if _, err := fl.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	fl.off, fl.tail, fl.atEnd = 0, fl.tail[:0], false
	return nil
}

// check looks for a file replaced or truncated, or grown since the read
// that found its end. It reports whether to read again.
func (fl *Follower) check() (bool, error) {
	info, err := os.Stat(fl.name)
	if err != nil {
		// Removed: wait for it to come back, as tail -F does.
		return false, nil
	}
	if !os.SameFile(info, fl.info) {
		f, err := os.Open(fl.name)
		if err != nil {
			return false, nil
		}
		fl.f.Close()
		fl.f, fl.info, fl.off, fl.tail, fl.atEnd = f, info, 0, fl.tail[:0], false
		return true, nil
	}
	switch {
	case info.Size() < fl.off:
		if err := fl.restart(); err != nil {
			return false, err
		}
		return true, nil
	case info.Size() > fl.off:
		return true, nil
	}
	return false, nil
}

// wait blocks until the file's directory changes, the poll interval
// passes, Stop is called or the context is done; it reports the last two.
func (fl *Follower) wait() bool {
	t := time.NewTimer(fl.poll)
	defer t.Stop()
	var events <-chan fsnotify.Event
	var errs <-chan error
	if fl.w != nil {
		events, errs = fl.w.Events, fl.w.Errors
	}
	for {
		select {
		case <-fl.ctx.Done():
			return true
		case <-fl.stopped:
			return false // Read returns io.EOF at the end it is at
		case <-t.C:
			return false
		case ev, ok := <-events:
			if !ok {
				fl.w, events, errs = nil, nil, nil
				fl.poll = PollInterval
				continue
			}
			if filepath.Clean(ev.Name) == fl.abs {
				return false
			}
		case _, ok := <-errs:
			if !ok {
				errs = nil
			}
			// An overflow: look at the file now.
			return false
		}
	}
}
