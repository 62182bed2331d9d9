package recording

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// File is a recording being written to a file without touching the file
// until the recording is complete: the recording goes to a temporary file
// beside it (NAME.partial), its timing sidecar, if any, to another
// (NAME.partial.timing), and Commit renames both into place. Until then,
// whatever fails (the input, a write, a full disk, a signal, a kill),
// NAME and NAME.timing hold what an earlier run wrote, whole; what was
// recorded is in the temporary files, whose names are those of a
// recording and its sidecar, so that replay can play them.
type File struct {
	name, sideName string // where the recording and its sidecar go
	tmp, sideTmp   string // where they are written
	rec, side      WriteFile
	o              FileOptions
	written        int64
	closed, placed bool
}

// WriteFile is a file File writes: an *os.File, or what
// FileOptions.Create returns instead.
type WriteFile interface {
	io.Writer
	Sync() error
	Close() error
}

// FileOptions are the file system operations of a File; nil fields are
// those of package os. Tests replace them to make each fail.
type FileOptions struct {
	// Create creates the new file name for writing, with perm, failing
	// if it exists.
	Create func(name string, perm fs.FileMode) (WriteFile, error)
	// Rename moves a file into place, replacing what is there.
	Rename func(oldname, newname string) error
	// Remove removes a file.
	Remove func(name string) error
}

// maxPartials is how many temporary names CreateFile tries: NAME.partial,
// then NAME.partial-2 and on, past the ones earlier runs left (a killed
// recording's) or another recording of NAME holds.
const maxPartials = 100

// CreateFile starts a recording to be saved as name, with its timing
// sidecar as name+".timing". A name that is a symbolic link is saved
// where the link points. The temporary file takes the permissions of the
// file it will replace, when there is one.
func CreateFile(name string, o *FileOptions) (*File, error) {
	f := &File{name: resolve(name), sideName: resolve(name + ".timing")}
	if o != nil {
		f.o = *o
	}
	if f.o.Create == nil {
		f.o.Create = func(name string, perm fs.FileMode) (WriteFile, error) {
			return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		}
	}
	if f.o.Rename == nil {
		f.o.Rename = os.Rename
	}
	if f.o.Remove == nil {
		f.o.Remove = os.Remove
	}
	perm := fs.FileMode(0o666)
	if st, err := os.Stat(f.name); err == nil {
		perm = st.Mode().Perm()
	}
	for i := 1; i <= maxPartials; i++ {
		tmp := f.name + ".partial"
		if i > 1 {
			tmp += "-" + strconv.Itoa(i)
		}
		if _, err := os.Lstat(tmp + ".timing"); err == nil {
			continue // a sidecar without its recording: left as it is
		}
		rec, err := f.o.Create(tmp, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if perm != 0o666 {
			os.Chmod(tmp, perm) // the umask applied: the old file's mode, exactly
		}
		f.tmp, f.sideTmp, f.rec = tmp, tmp+".timing", rec
		return f, nil
	}
	return nil, fmt.Errorf("%s: %d temporary files of earlier recordings beside it (%s.partial...): remove them", name, maxPartials, name)
}

// resolve returns where name points, if it is a symbolic link that
// resolves.
func resolve(name string) string {
	if st, err := os.Lstat(name); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		if target, err := filepath.EvalSymlinks(name); err == nil {
			return target
		}
	}
	return name
}

// Write writes to the recording.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.rec.Write(p)
	f.written += int64(n)
	return n, err
}

// Written returns how many bytes of the recording were written.
func (f *File) Written() int64 { return f.written }

// Temp returns the name of the temporary recording.
func (f *File) Temp() string { return f.tmp }

// Placed reports whether Commit renamed the recording into place.
func (f *File) Placed() bool { return f.placed }

// Timing creates the timing sidecar, for Config.Timing.
func (f *File) Timing() (io.Writer, error) {
	if f.side != nil {
		return f.side, nil
	}
	side, err := f.o.Create(f.sideTmp, 0o666)
	if err != nil {
		return nil, err
	}
	f.side = side
	return side, nil
}

// close syncs and closes the files, once; the first error counts.
func (f *File) close(sync bool) error {
	if f.closed {
		return nil
	}
	f.closed = true
	var first error
	for _, w := range []WriteFile{f.rec, f.side} {
		if w == nil {
			continue
		}
		if sync {
			if err := w.Sync(); err != nil && first == nil {
				first = err
			}
		}
		if err := w.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Commit saves the recording: it writes the files out to the disk and
// renames the recording, then its sidecar, into place. A recording
// without a sidecar removes the one an earlier recording left, which
// would time it wrongly. On an error before the recording is renamed
// (Placed is false), name is untouched; call Abort.
func (f *File) Commit() error {
	if err := f.close(true); err != nil {
		return err
	}
	if err := f.o.Rename(f.tmp, f.name); err != nil {
		return err
	}
	f.placed = true
	if f.side != nil {
		if err := f.o.Rename(f.sideTmp, f.sideName); err != nil {
			// The earlier sidecar would time this recording wrongly.
			f.o.Remove(f.sideName)
			return fmt.Errorf("%w: %s is saved without its timing", err, f.name)
		}
	} else if err := f.o.Remove(f.sideName); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: %s is saved, but the timing of the recording it replaced is left", err, f.name)
	}
	syncDir(filepath.Dir(f.name))
	return nil
}

// Abort ends a recording that is not saved (or not whole: after a failed
// Commit): it closes the files, removes the temporary ones if nothing was
// recorded, and returns the names of those it keeps.
func (f *File) Abort() (kept []string, err error) {
	err = f.close(false)
	for _, name := range []string{f.tmp, f.sideTmp} {
		if name == f.tmp && f.placed || name == f.sideTmp && f.side == nil {
			continue
		}
		if _, serr := os.Lstat(name); serr != nil {
			continue
		}
		if f.written > 0 {
			kept = append(kept, name)
		} else if rerr := f.o.Remove(name); rerr != nil && err == nil {
			err = rerr
		}
	}
	return kept, err
}

// syncDir makes a rename in dir durable, where the system can.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}
