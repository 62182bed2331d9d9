package main

// The public API check (issue 25): no exported name of a public package (not main, not internal, not under
// tools/) takes, returns, holds, embeds or aliases a type of an internal package, nor is a type declared as
// one: a caller outside the module can neither build nor read such a type. Standard library only: `go list
// -deps -json` names the files, go/parser and go/types read them.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPublicAPINamesNoInternalType(t *testing.T) {
	t.Parallel()
	known := map[string]bool{}
	for _, p := range loadPublic(t, ".") {
		for _, l := range apiLeaks(p) {
			if k := knownLeak(l); k != "" {
				known[k] = true
				continue
			}
			t.Error(l)
		}
	}
	for k, why := range knownLeaks {
		if !known[k] {
			t.Errorf("%s...: no longer a leak (%s); delete it from knownLeaks", k, why)
		}
	}
}

// knownLeaks are the leaks left to work under way elsewhere, by their start, and that work. The list only
// shrinks: the test fails when one is gone.
var knownLeaks = map[string]string{}

func knownLeak(l string) string {
	for k := range knownLeaks {
		if strings.HasPrefix(l, k) {
			return k
		}
	}
	return ""
}

// TestAPILeaksFindsEachKind: the check reports each way a name can leak, in a module of its own, and
// nothing that does not leak.
func TestAPILeaksFindsEachKind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, src := range leakyModule {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, p := range loadPublic(t, dir) {
		got = append(got, apiLeaks(p)...)
	}
	want := []string{
		"leaky: Alias is an alias of internal/wire.Usage",
		"leaky: Const is internal/wire.Kind",
		"leaky: Defined is declared as internal/wire.Usage",
		"leaky: Embeds.Total comes from internal/wire.Usage",
		"leaky: Embeds.Usage is *internal/wire.Usage",
		"leaky: Field.Usage is *internal/wire.Usage",
		"leaky: Func takes internal/wire.Kind",
		"leaky: Iface.Do takes internal/wire.Kind",
		"leaky: Method.Get returns []internal/wire.Usage",
		"leaky: Unexported returns leaky.hidden, whose Usage is map[string]internal/wire.Usage",
		"leaky: Var is func(internal/wire.Kind)",
	}
	slices.Sort(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("leaks (-want +got):\n%s", diff)
	}
}

// leakyModule is a module whose public package shows internal types in every way the check knows,
// beside names that do not leak.
var leakyModule = map[string]string{
	"go.mod": "module example.com/leaky\n\ngo 1.26\n",
	"internal/wire/wire.go": `// Package wire stands for an internal package of the module.
package wire

type Kind string

const Name = "name"

type Usage struct{ In, Out int }

func (u Usage) Total() int { return u.In + u.Out }

func Parse(s string) Kind { return Kind(s) }
`,
	"leaky.go": `// Package leaky shows a caller internal types in every way the API check knows, beside names that do
// not leak.
package leaky

import "example.com/leaky/internal/wire"

type Alias = wire.Usage

const Const wire.Kind = "k"

type Defined wire.Usage

type Embeds struct{ *wire.Usage }

type Field struct {
	Usage *wire.Usage
	usage wire.Usage // unexported: not seen
}

func Func(k wire.Kind) {}

type Method struct{}

func (Method) Get() []wire.Usage { return nil }

func (Method) body() wire.Usage { return wire.Usage{} }

// Set is fine: its body uses an internal name, its signature does not.
func (Method) Set(s string) { _ = wire.Parse(s) }

type Iface interface{ Do(wire.Kind) }

// Renamed is fine: an untyped string constant, whatever names its value.
const Renamed = wire.Name

type hidden struct{ Usage map[string]wire.Usage }

func Unexported() hidden { return hidden{} }

type clean struct{ N int }

// Clean is fine: an unexported type that shows nothing internal.
func Clean() clean { return clean{} }

var Var func(wire.Kind)

// Fine is fine: a func(string) string, whatever its value calls.
var Fine = func(s string) string { return string(wire.Parse(s)) }
`,
}

// listed is what `go list -json` says of a package.
type listed struct {
	ImportPath, Name, Dir string
	GoFiles               []string
	ImportMap             map[string]string
	DepOnly               bool
	Module                *struct{ Path string }
	Error                 *struct{ Err string }
}

// public is a type-checked public package with its syntax.
type public struct {
	module string
	pkg    *types.Package
	info   *types.Info
	files  []*ast.File
}

// loadPublic type-checks from source every package `go list -deps ./...` names in dir (function bodies
// skipped, cgo off) and returns the packages of the module there that a caller can import: not main, not
// internal, not under tools/.
func loadPublic(t *testing.T, dir string) []public {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", "-pgo=off", "-json=ImportPath,Name,Dir,GoFiles,ImportMap,DepOnly,Module,Error", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	checked := map[string]*types.Package{"unsafe": types.Unsafe}
	var pubs []public
	for dec := json.NewDecoder(bytes.NewReader(out)); ; {
		var l listed
		if err := dec.Decode(&l); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if l.Error != nil {
			t.Fatalf("%s: %s", l.ImportPath, l.Error.Err)
		}
		if l.ImportPath == "unsafe" {
			continue
		}
		var files []*ast.File
		for _, name := range l.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(l.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		var info *types.Info
		mine := !l.DepOnly && l.Module != nil
		if mine {
			info = &types.Info{Uses: map[*ast.Ident]types.Object{}}
		}
		conf := types.Config{
			IgnoreFuncBodies: true,
			Sizes:            types.SizesFor("gc", runtime.GOARCH),
			Importer: importerFunc(func(path string) (*types.Package, error) {
				if p, ok := l.ImportMap[path]; ok {
					path = p
				}
				if p := checked[path]; p != nil {
					return p, nil
				}
				return nil, fmt.Errorf("%s is not listed before %s", path, l.ImportPath)
			}),
		}
		pkg, err := conf.Check(l.ImportPath, fset, files, info)
		if err != nil {
			t.Fatalf("type-checking %s: %v", l.ImportPath, err)
		}
		checked[l.ImportPath] = pkg
		if !mine {
			continue
		}
		rel, _ := strings.CutPrefix(strings.TrimPrefix(l.ImportPath, l.Module.Path), "/")
		if l.Name != "main" && !isInternal(l.ImportPath) && rel != "tools" && !strings.HasPrefix(rel, "tools/") {
			pubs = append(pubs, public{l.Module.Path, pkg, info, files})
		}
	}
	if len(pubs) == 0 {
		t.Fatalf("no public package in %s", dir)
	}
	return pubs
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func isInternal(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "internal")
}

// leakCheck walks what a caller sees of one public package.
type leakCheck struct {
	public
	seen  map[*types.Named]bool
	leaks []string
}

// apiLeaks lists each exported name of p that shows a caller an internal type, and each exported type
// declared as an internal one.
func apiLeaks(p public) []string {
	c := &leakCheck{public: p, seen: map[*types.Named]bool{}}
	scope := p.pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.TypeName:
			if a, ok := obj.Type().(*types.Alias); ok {
				if hit := c.find(a.Rhs()); hit != "" {
					c.report("%s is an alias of %s", name, hit)
				}
				continue
			}
			c.surface(name, obj.Type().(*types.Named))
		case *types.Func:
			c.signature(name, obj.Signature())
		default:
			if hit := c.find(obj.Type()); hit != "" {
				c.report("%s is %s", name, hit)
			}
		}
	}
	for _, f := range p.files {
		c.declarations(f)
	}
	for i, l := range c.leaks {
		c.leaks[i] = c.qualify(c.pkg) + ": " + l
	}
	return c.leaks
}

func (c *leakCheck) report(format string, args ...any) {
	if l := fmt.Sprintf(format, args...); !slices.Contains(c.leaks, l) {
		c.leaks = append(c.leaks, l)
	}
}

func (c *leakCheck) qualify(p *types.Package) string {
	if p.Path() == c.module {
		return p.Name()
	}
	if rest, ok := strings.CutPrefix(p.Path(), c.module+"/"); ok {
		return rest
	}
	return p.Path()
}

func (c *leakCheck) typeString(t types.Type) string { return types.TypeString(t, c.qualify) }

// find returns t written out when it names an internal type a caller would see, else "". This package's
// exported types are checked on their own; its unexported ones are looked through to what they export.
func (c *leakCheck) find(t types.Type) string {
	leak, why := c.hides(t)
	if !leak {
		return ""
	}
	return c.typeString(t) + why
}

// hides reports whether t shows a caller an internal type, and why when the reason is inside an unexported
// type of this package.
func (c *leakCheck) hides(t types.Type) (bool, string) {
	first := func(ts ...types.Type) (bool, string) {
		for _, t := range ts {
			if leak, why := c.hides(t); leak {
				return true, why
			}
		}
		return false, ""
	}
	switch t := t.(type) {
	case *types.Alias:
		if obj := t.Obj(); obj.Pkg() != nil && isInternal(obj.Pkg().Path()) {
			return true, ""
		}
		return c.hides(types.Unalias(t))
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() == nil {
			return false, ""
		}
		if isInternal(obj.Pkg().Path()) {
			return true, ""
		}
		if leak, why := first(slices.Collect(t.TypeArgs().Types())...); leak {
			return true, why
		}
		if obj.Pkg() != c.pkg || obj.Exported() || c.seen[t.Origin()] {
			return false, ""
		}
		before := len(c.leaks)
		c.surface("", t)
		if len(c.leaks) == before {
			return false, ""
		}
		why := ", whose " + c.leaks[before]
		c.leaks = c.leaks[:before]
		c.seen[t.Origin()] = false // reported from each place that shows it
		return true, why
	case *types.Pointer:
		return c.hides(t.Elem())
	case *types.Slice:
		return c.hides(t.Elem())
	case *types.Array:
		return c.hides(t.Elem())
	case *types.Chan:
		return c.hides(t.Elem())
	case *types.Map:
		return first(t.Key(), t.Elem())
	case *types.Signature:
		var ts []types.Type
		for v := range t.Params().Variables() {
			ts = append(ts, v.Type())
		}
		for v := range t.Results().Variables() {
			ts = append(ts, v.Type())
		}
		return first(ts...)
	case *types.Struct:
		var ts []types.Type
		for f := range t.Fields() {
			if f.Exported() || f.Embedded() {
				ts = append(ts, f.Type())
			}
		}
		return first(ts...)
	case *types.Interface:
		var ts []types.Type
		for m := range t.Methods() {
			if m.Exported() {
				ts = append(ts, m.Type())
			}
		}
		return first(append(ts, slices.Collect(t.EmbeddedTypes())...)...)
	case *types.TypeParam:
		return c.hides(t.Constraint())
	case *types.Union:
		var ts []types.Type
		for term := range t.Terms() {
			ts = append(ts, term.Type())
		}
		return first(ts...)
	}
	return false, ""
}

// surface checks what a caller sees of named type t: its exported and embedded fields, its exported methods
// and what they promote.
func (c *leakCheck) surface(name string, t *types.Named) {
	sep := "."
	if name == "" {
		sep = ""
	}
	c.seen[t.Origin()] = true
	if s, ok := t.Underlying().(*types.Struct); ok {
		for f := range s.Fields() {
			if !f.Exported() && !f.Embedded() {
				continue
			}
			if hit := c.find(f.Type()); hit != "" {
				c.report("%s%s%s is %s", name, sep, f.Name(), hit)
			}
		}
	}
	for _, recv := range []types.Type{t, types.NewPointer(t)} {
		ms := types.NewMethodSet(recv)
		for sel := range ms.Methods() {
			m := sel.Obj().(*types.Func)
			if !m.Exported() {
				continue
			}
			if m.Pkg() != nil && isInternal(m.Pkg().Path()) {
				c.report("%s%s%s comes from %s", name, sep, m.Name(), c.typeString(recvBase(m)))
				continue
			}
			c.signature(name+sep+m.Name(), m.Signature())
		}
	}
	// Promoted fields of an embedded internal struct are reported with the field that embeds it.
}

func recvBase(m *types.Func) types.Type {
	t := m.Signature().Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

func (c *leakCheck) signature(name string, sig *types.Signature) {
	for v := range sig.Params().Variables() {
		if hit := c.find(v.Type()); hit != "" {
			c.report("%s takes %s", name, hit)
		}
	}
	for v := range sig.Results().Variables() {
		if hit := c.find(v.Type()); hit != "" {
			c.report("%s returns %s", name, hit)
		}
	}
	for tp := range sig.TypeParams().TypeParams() {
		if hit := c.find(tp.Constraint()); hit != "" {
			c.report("%s is constrained by %s", name, hit)
		}
	}
}

// declarations reports exported types declared as an internal one (type T wire.T): go doc shows that
// declaration, which a caller can neither follow nor use to build a T.
func (c *leakCheck) declarations(f *ast.File) {
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			s := s.(*ast.TypeSpec)
			if !s.Name.IsExported() || s.Assign.IsValid() {
				continue // an alias is reported by what it stands for
			}
			switch s.Type.(type) {
			case *ast.StructType, *ast.InterfaceType:
				continue // their members are checked by type
			}
			if hit := c.names(s.Type); hit != "" {
				c.report("%s is declared as %s", s.Name.Name, hit)
			}
		}
	}
}

// names returns the first internal name e spells out.
func (c *leakCheck) names(e ast.Expr) string {
	hit := ""
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && hit == "" {
			if id, ok := sel.X.(*ast.Ident); ok {
				if pn, ok := c.info.Uses[id].(*types.PkgName); ok && isInternal(pn.Imported().Path()) {
					hit = c.qualify(pn.Imported()) + "." + sel.Sel.Name
				}
			}
		}
		return hit == ""
	})
	return hit
}
