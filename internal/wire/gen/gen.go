package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// kind is what a field's type is to the reader.
type kind int

const (
	kString kind = iota
	kBool
	kInt
	kFloat
	kRaw // json.RawMessage
	kAny // any
	kUnm // a type of the package with its own UnmarshalJSON
	kStruct
	kPtr
	kSlice
	kAnon    // a struct type written in the field's declaration
	kMembers // a slice type marked wire:members
	kForeign // pkg.T of another package, read by pkg.ReadT
	kMap     // map[string]T
)

// typ is a field's type.
type typ struct {
	kind kind
	name string // the Go type, as written
	elem *typ   // of a pointer or slice
	st   *ast.StructType
	// of kMembers: the element struct, its key field, its value field
	members [3]string
}

// field is a field of a struct as encoding/json sees it: embedded
// structs' fields are the struct's own.
type field struct {
	json   string // the key
	path   string // the selector from the struct, "Base.Timestamp"
	typ    *typ
	intern string // the prefixes of the constants to intern, joined by "+", or ""
	borrow bool   // raw JSON points into the input instead of being copied
	text   string // the field that gets the value's text, borrowed, or ""
	buf    string // the field a nil pointer is pointed at instead of a new value, or ""
	parse  string // the field the value is also decoded into, or ""
	parseT string // the struct type that field points to
	keep   string // the field that keeps the last string read, or ""
	depth  int    // of embedding
	tagged bool   // the json tag names it
	omit   bool   // omitempty (written only when not empty)
	// raw JSON the writer appends as is (wire:"compact"; see write.go)
	compact bool
	// the fields of wire:"also" structs that get the value too
	also  []string
	check bool   // a string nobody reads: its type checked, the field not set
	elems string // the field that gets an array's elements' text, or ""
	// the bit or'ed into the struct's field hasIn (wire:"has") when the
	// key is given, its value not null, or ""
	has, hasIn string
}

type generator struct {
	pkg     string
	dir     string
	structs map[string]*ast.StructType
	order   []string // the struct types, in declaration order
	unm     map[string]bool
	marsh   map[string]bool           // the types with MarshalJSON or MarshalText
	unmarsh map[string]bool           // the types with UnmarshalJSON or UnmarshalText
	members map[string]*ast.ArrayType // the slice types marked wire:members
	ordered map[string]bool           // the struct types marked wire:order
	spaced  map[string]bool           // the struct types marked wire:spaced
	sparse  map[string]bool           // the struct types marked wire:sparse
	// the intern prefixes of fields of wire:order structs, whose intern
	// functions read the string themselves
	fastInterns map[string]bool
	consts      [][2]string // the string constants: name, value
	interns     map[string]bool
	funcs       map[string]bool   // the package's functions
	imports     map[string]string // the files' imports: name, path
	used        map[string]bool   // the paths of the imports a reader calls
	// the types with UnmarshalJSON read as plain structs whose field of
	// this name gets the object's text (wire:"whole"), copied unless the
	// tag says borrow
	whole    map[string]string
	wholeCpy map[string]bool
}

// load parses the package in dir, leaving out its tests and the file
// skip (the generator's own output), and collects its declarations;
// each, if not nil, sees each file too.
func load(dir, skip string, each func(*ast.File)) (*generator, error) {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	g := &generator{dir: dir, structs: map[string]*ast.StructType{}, unm: map[string]bool{}, marsh: map[string]bool{}, unmarsh: map[string]bool{}, members: map[string]*ast.ArrayType{}, ordered: map[string]bool{}, spaced: map[string]bool{}, sparse: map[string]bool{}, fastInterns: map[string]bool{}, interns: map[string]bool{}, funcs: map[string]bool{}, imports: map[string]string{}, used: map[string]bool{}, whole: map[string]string{}, wholeCpy: map[string]bool{}}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") || filepath.Base(name) == skip {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution|parser.ParseComments)
		if err != nil {
			return nil, err
		}
		g.pkg = f.Name.Name
		g.collect(f)
		if each != nil {
			each(f)
		}
	}
	for s, st := range g.structs {
		if !g.unm[s] {
			continue
		}
		for _, f := range st.Fields.List {
			if f.Tag == nil || len(f.Names) != 1 || types.ExprString(f.Type) != "json.RawMessage" {
				continue
			}
			tag, err := strconv.Unquote(f.Tag.Value)
			if err != nil {
				continue
			}
			switch w := reflect.StructTag(tag).Get("wire"); {
			case reflect.StructTag(tag).Get("json") != "-":
			case w == "whole":
				g.whole[s], g.wholeCpy[s] = f.Names[0].Name, true
			case w == "whole,borrow":
				g.whole[s] = f.Names[0].Name
			}
		}
	}
	return g, nil
}

// Generate returns the source of the readers of the package in dir.
func Generate(dir string) ([]byte, error) {
	g, err := load(dir, Out, nil)
	if err != nil {
		return nil, err
	}
	if len(g.order) == 0 {
		return nil, fmt.Errorf("%s: no struct types", dir)
	}
	for _, s := range g.order {
		if !g.ordered[s] {
			continue
		}
		fields, err := g.fields(s, g.structs[s])
		if err != nil {
			return nil, err
		}
		for _, f := range fields {
			if f.intern != "" {
				g.fastInterns[f.intern] = true
			}
		}
	}
	var body bytes.Buffer
	for _, s := range g.order {
		if g.unm[s] && g.whole[s] == "" && !g.counted(s) || !hasFields(g.structs[s]) {
			continue
		}
		if m := g.method(g.unmarsh, s, g.structs[s]); m != "" && g.whole[m] == "" && !g.counted(m) {
			return nil, fmt.Errorf("%s: %s has its own UnmarshalJSON or UnmarshalText, which encoding/json calls", s, m)
		}
		if err := g.reader(&body, s); err != nil {
			return nil, err
		}
	}
	for _, prefix := range sortedKeys(g.interns) {
		g.internFunc(&body, prefix)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "// Code generated by internal/wire/gen from the package's wire declarations; DO NOT EDIT.\n\npackage %s\n\nimport (\n", g.pkg)
	if bytes.Contains(body.Bytes(), []byte("json.RawMessage")) {
		out.WriteString("\t\"encoding/json\"\n\n")
	}
	out.WriteString("\t\"github.com/agentstream/agentstream/internal/jsontext\"\n")
	for _, path := range sortedKeys(g.used) {
		fmt.Fprintf(&out, "\t%q\n", path)
	}
	out.WriteString(")\n")
	out.Write(body.Bytes())
	src, err := format.Source(out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", dir, err, out.Bytes())
	}
	return src, nil
}

func sortedKeys(m map[string]bool) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// hasFields reports whether st has a field encoding/json may fill: an
// exported or an embedded one. A struct without, such as a reader's
// state, is no wire type and gets no reader.
func hasFields(st *ast.StructType) bool {
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			return true
		}
		for _, n := range f.Names {
			if ast.IsExported(n.Name) {
				return true
			}
		}
	}
	return false
}

// collect notes the struct types, the types with UnmarshalJSON, those
// with (Un)MarshalJSON or (Un)MarshalText, and the string constants of f.
func (g *generator) collect(f *ast.File) {
	for _, im := range f.Imports {
		path, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		g.imports[name] = path
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				g.funcs[d.Name.Name] = true
			}
			if d.Recv != nil && len(d.Recv.List) == 1 {
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if id, ok := t.(*ast.Ident); ok {
					switch d.Name.Name {
					case "UnmarshalJSON":
						g.unm[id.Name] = true
						g.unmarsh[id.Name] = true
					case "UnmarshalText":
						g.unmarsh[id.Name] = true
					case "MarshalJSON", "MarshalText":
						g.marsh[id.Name] = true
					}
				}
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if at, ok := s.Type.(*ast.ArrayType); ok && at.Len == nil && (directive(d.Doc, "wire:members") || directive(s.Doc, "wire:members")) {
						g.members[s.Name.Name] = at
					}
					if st, ok := s.Type.(*ast.StructType); ok && s.TypeParams == nil && s.Assign == 0 {
						g.structs[s.Name.Name] = st
						g.order = append(g.order, s.Name.Name)
						g.ordered[s.Name.Name] = directive(d.Doc, "wire:order") || directive(s.Doc, "wire:order")
						g.spaced[s.Name.Name] = directive(d.Doc, "wire:spaced") || directive(s.Doc, "wire:spaced")
						g.sparse[s.Name.Name] = directive(d.Doc, "wire:sparse") || directive(s.Doc, "wire:sparse")
					}
				case *ast.ValueSpec:
					if d.Tok != token.CONST {
						continue
					}
					for i, n := range s.Names {
						if i >= len(s.Values) {
							break
						}
						if lit, ok := s.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							v, err := strconv.Unquote(lit.Value)
							if err == nil {
								g.consts = append(g.consts, [2]string{n.Name, v})
							}
						}
					}
				}
			}
		}
	}
}

// fields returns the fields of struct name as encoding/json decodes them.
func (g *generator) fields(name string, st *ast.StructType) ([]field, error) {
	var all []field
	if err := g.walk(name, st, "", 0, &all, map[string]bool{}); err != nil {
		return nil, err
	}
	// encoding/json's dominance: of the fields with one key, the least
	// embedded wins; among equals, the one tagged; else none.
	byKey := map[string][]field{}
	var keys []string
	for _, f := range all {
		if byKey[f.json] == nil {
			keys = append(keys, f.json)
		}
		byKey[f.json] = append(byKey[f.json], f)
	}
	var out []field
	for _, k := range keys {
		fs := byKey[k]
		least := fs[0].depth
		for _, f := range fs {
			least = min(least, f.depth)
		}
		var top, tagged []field
		for _, f := range fs {
			if f.depth == least {
				top = append(top, f)
				if f.tagged {
					tagged = append(tagged, f)
				}
			}
		}
		switch {
		case len(top) == 1:
			out = append(out, top[0])
		case len(tagged) == 1:
			out = append(out, tagged[0])
		}
	}
	return g.alsoFields(name, st, out)
}

// alsoFields adds to out, the fields of struct name, those of the
// structs it holds in unexported fields tagged wire:"also", as selectors
// through them: a key of both is read once and its value copied (also).
func (g *generator) alsoFields(name string, st *ast.StructType, out []field) ([]field, error) {
	for _, f := range st.Fields.List {
		tag := ""
		if f.Tag != nil {
			tag, _ = strconv.Unquote(f.Tag.Value)
		}
		if reflect.StructTag(tag).Get("wire") != "also" {
			continue
		}
		id, ok := f.Type.(*ast.Ident)
		if !ok || len(f.Names) != 1 || ast.IsExported(f.Names[0].Name) || g.structs[id.Name] == nil || g.unm[id.Name] {
			return nil, fmt.Errorf("%s: wire tag \"also\" on %s: want an unexported field of a struct type of the package", name, types.ExprString(f.Type))
		}
		inner, err := g.fields(id.Name, g.structs[id.Name])
		if err != nil {
			return nil, err
		}
	next:
		for _, in := range inner {
			in.path = f.Names[0].Name + "." + in.path
			for i := range out {
				if out[i].json == in.json && out[i].typ.name == in.typ.name {
					out[i].also = append(out[i].also, in.path)
					continue next
				}
				if strings.EqualFold(out[i].json, in.json) {
					return nil, fmt.Errorf("%s: key %q of %s is also %s's %q", name, in.json, id.Name, name, out[i].json)
				}
			}
			out = append(out, in)
		}
	}
	return out, nil
}

func (g *generator) walk(name string, st *ast.StructType, prefix string, depth int, out *[]field, seen map[string]bool) error {
	if seen[name] {
		return fmt.Errorf("struct %s embeds itself", name)
	}
	seen[name] = true
	defer delete(seen, name)
	for _, f := range st.Fields.List {
		var tag reflect.StructTag
		if f.Tag != nil {
			s, err := strconv.Unquote(f.Tag.Value)
			if err != nil {
				return err
			}
			tag = reflect.StructTag(s)
		}
		jsonTag := tag.Get("json")
		key, opts, _ := strings.Cut(jsonTag, ",")
		if jsonTag == "-" {
			continue
		}
		for _, opt := range strings.Split(opts, ",") {
			if opt == "string" {
				return fmt.Errorf("%s: the json option string is not read", name)
			}
		}
		if key != "" && !validKey(key) {
			return fmt.Errorf("%s: json key %q: encoding/json ignores it (and uses the field's name)", name, key)
		}
		if len(f.Names) == 0 { // embedded
			id, ok := f.Type.(*ast.Ident)
			if !ok {
				return fmt.Errorf("%s: embedded %s: only the package's struct types embed", name, types.ExprString(f.Type))
			}
			if st, ok := g.structs[id.Name]; ok && key == "" {
				if err := g.walk(id.Name, st, prefix+id.Name+".", depth+1, out, seen); err != nil {
					return err
				}
				continue
			}
			if !ast.IsExported(id.Name) {
				if g.structs[id.Name] != nil {
					// encoding/json reads and writes it under the key.
					return fmt.Errorf("%s: embedded %s with a json key: not read", name, id.Name)
				}
				continue
			}
			f = &ast.Field{Names: []*ast.Ident{id}, Type: f.Type}
		}
		for _, n := range f.Names {
			if !ast.IsExported(n.Name) {
				continue
			}
			t, err := g.resolve(f.Type)
			if err != nil {
				return fmt.Errorf("%s.%s: %v", name, n.Name, err)
			}
			fd := field{json: key, path: prefix + n.Name, typ: t, depth: depth, tagged: key != "", omit: slices.Contains(strings.Split(opts, ","), "omitempty")}
			if fd.json == "" {
				fd.json = n.Name
			}
			if w, ok := tag.Lookup("wire"); ok {
				base := t
				for base.elem != nil {
					base = base.elem
				}
				p, ok := strings.CutPrefix(w, "intern=")
				text, isText := strings.CutPrefix(w, "text=")
				buf, isBuf := strings.CutPrefix(w, "buf=")
				parse, isParse := strings.CutPrefix(w, "parse=")
				keep, isKeep := strings.CutPrefix(w, "keep=")
				elems, isElems := strings.CutPrefix(w, "elems=")
				bit, isHas := strings.CutPrefix(w, "has=")
				switch {
				case isKeep && (t.kind == kString || t.kind == kPtr && t.elem.kind == kString) && g.fieldType(st, keep) == t.name,
					isKeep && t.name == "int64" && g.fieldType(st, keep) == "jsontext.KeptInt",
					isKeep && t.name == "[]string" && g.fieldType(st, keep) == "jsontext.KeptStrings":
					fd.keep = keep
				case isBuf && t.kind == kSlice && g.fieldType(st, buf) == t.name:
					fd.buf = buf
				case w == "borrow" && base.kind == kRaw:
					fd.borrow = true
				case w == "check" && t.kind == kString:
					fd.check = true
				case isElems && t.kind == kRaw && g.fieldType(st, elems) == "[]json.RawMessage":
					fd.elems, fd.borrow = elems, true
				case w == "compact" && base.kind == kRaw:
					fd.compact = true
				case isText && token.IsIdentifier(text):
					fd.text = text
				case isBuf && token.IsIdentifier(buf) && !ast.IsExported(buf) && t.kind == kPtr:
					fd.buf = buf
				case isParse && t.kind == kRaw && g.parseTarget(st, parse) != "":
					fd.parse, fd.parseT = parse, g.parseTarget(st, parse)
				case isHas && g.unm[name] && g.hasSet(st) != "" && (t.kind == kInt || t.kind == kFloat || t.kind == kBool || t.kind == kString) && g.constant(bit):
					fd.has, fd.hasIn = bit, g.hasSet(st)
				case ok && p != "" && base.kind == kString && !slices.Contains(strings.Split(p, "+"), ""):
					fd.intern = p
					g.interns[p] = true
				default:
					return fmt.Errorf("%s.%s: wire tag %q: want intern=Prefix[+Prefix...] on a field of strings, borrow on raw JSON, text=field, buf=field on a pointer or a slice, keep=field on a string or *string (field unexported, of its type) or on a []string (field a jsontext.KeptStrings), check on a string, elems=field on raw JSON (field a []json.RawMessage), parse=field on raw JSON (field a pointer to a struct of the package), or has=Constant on a field of a struct with a field tagged has (of a type with its own UnmarshalJSON)", name, n.Name, w)
				}
			}
			*out = append(*out, fd)
		}
	}
	return nil
}

// hasSet returns the name of st's field tagged wire:"has", the set of
// the keys given that its has=Constant fields add their bit to, or "".
// Only a type whose own UnmarshalJSON sets it as the reader does (calls
// it) has one: encoding/json reads no field tagged json:"-".
func (g *generator) hasSet(st *ast.StructType) string {
	for _, f := range st.Fields.List {
		if f.Tag == nil || len(f.Names) != 1 {
			continue
		}
		if tag, err := strconv.Unquote(f.Tag.Value); err == nil && reflect.StructTag(tag).Get("wire") == "has" && reflect.StructTag(tag).Get("json") == "-" {
			return f.Names[0].Name
		}
	}
	return ""
}

// counted reports whether struct s has a set of the keys given, which
// its reader fills beside its fields (hasSet).
func (g *generator) counted(s string) bool {
	return g.unm[s] && g.structs[s] != nil && g.hasSet(g.structs[s]) != ""
}

// constant reports whether c names a constant of the package or, as
// pkg.Name, of a package it imports (which the readers then use).
func (g *generator) constant(c string) bool {
	pkg, name, sel := strings.Cut(c, ".")
	if !sel {
		return token.IsIdentifier(c)
	}
	if g.imports[pkg] == "" || !token.IsIdentifier(name) || !ast.IsExported(name) {
		return false
	}
	g.used[g.imports[pkg]] = true
	return true
}

// method returns the type in set (one with a method encoding/json
// calls), struct s or one it embeds (whose methods are its own), or "".
func (g *generator) method(set map[string]bool, s string, st *ast.StructType) string {
	if set[s] {
		return s
	}
	for _, f := range st.Fields.List {
		t := f.Type
		if p, ok := t.(*ast.StarExpr); ok {
			t = p.X
		}
		if id, ok := t.(*ast.Ident); ok && len(f.Names) == 0 {
			if est := g.structs[id.Name]; est != nil {
				if m := g.method(set, id.Name, est); m != "" {
					return m
				}
			} else if set[id.Name] {
				return id.Name
			}
		}
	}
	return ""
}

// validKey reports whether encoding/json takes key, a json tag's name:
// letters, digits and punctuation but for quotes and backslash.
func validKey(key string) bool {
	for _, c := range key {
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) {
			return false
		}
	}
	return true
}

// fieldType returns the type of the unexported field name of st, as
// written, or "". The name may be a selector through unexported fields
// of struct types of the package held by value ("item.id"): a keep= field
// shares its last value with the reader of that struct.
func (g *generator) fieldType(st *ast.StructType, name string) string {
	first, rest, sel := strings.Cut(name, ".")
	if ast.IsExported(first) {
		return ""
	}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.Name != first {
				continue
			}
			if !sel {
				return types.ExprString(f.Type)
			}
			if id, ok := f.Type.(*ast.Ident); ok && g.structs[id.Name] != nil {
				return g.fieldType(g.structs[id.Name], rest)
			}
		}
	}
	return ""
}

// parseTarget returns the struct type that field name of st points to,
// if name is an unexported field of a pointer to a struct type of the
// package that gets a reader, or to a type pkg.T of another package of
// the module that has a ReadT, else "".
func (g *generator) parseTarget(st *ast.StructType, name string) string {
	if ast.IsExported(name) {
		return ""
	}
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.Name != name {
				continue
			}
			if p, ok := f.Type.(*ast.StarExpr); ok {
				if id, ok := p.X.(*ast.Ident); ok && g.structs[id.Name] != nil && !g.unm[id.Name] && hasFields(g.structs[id.Name]) {
					return id.Name
				}
				if t, err := g.resolve(p.X); err == nil && t.kind == kForeign {
					return t.name
				}
			}
		}
	}
	return ""
}

// resolve returns the type e names.
func (g *generator) resolve(e ast.Expr) (*typ, error) {
	name := types.ExprString(e)
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "string":
			return &typ{kind: kString, name: name}, nil
		case "bool":
			return &typ{kind: kBool, name: name}, nil
		case "int", "int8", "int16", "int32", "int64":
			return &typ{kind: kInt, name: name}, nil
		case "float64":
			return &typ{kind: kFloat, name: name}, nil
		case "any":
			return &typ{kind: kAny, name: name}, nil
		}
		if at, ok := g.members[e.Name]; ok {
			return g.membersType(name, at)
		}
		if g.unm[e.Name] && g.whole[e.Name] == "" && !g.counted(e.Name) {
			return &typ{kind: kUnm, name: name}, nil
		}
		if _, ok := g.structs[e.Name]; ok {
			return &typ{kind: kStruct, name: name}, nil
		}
	case *ast.SelectorExpr:
		if name == "json.RawMessage" {
			return &typ{kind: kRaw, name: name}, nil
		}
		if pkg, ok := e.X.(*ast.Ident); ok && g.imports[pkg.Name] != "" && g.hasReader(g.imports[pkg.Name], "Read"+e.Sel.Name) {
			g.used[g.imports[pkg.Name]] = true
			return &typ{kind: kForeign, name: name}, nil
		}
	case *ast.StructType:
		return &typ{kind: kAnon, name: name, st: e}, nil
	case *ast.InterfaceType:
		if len(e.Methods.List) == 0 {
			return &typ{kind: kAny, name: name}, nil
		}
	case *ast.StarExpr:
		elem, err := g.resolve(e.X)
		if err != nil {
			return nil, err
		}
		if elem.kind == kPtr || elem.kind == kSlice {
			return nil, fmt.Errorf("type %s is not read", name)
		}
		return &typ{kind: kPtr, name: name, elem: elem}, nil
	case *ast.MapType:
		if types.ExprString(e.Key) != "string" {
			break
		}
		elem, err := g.resolve(e.Value)
		if err != nil {
			return nil, err
		}
		return &typ{kind: kMap, name: name, elem: elem}, nil
	case *ast.ArrayType:
		if e.Len != nil || name == "[]byte" || name == "[]uint8" {
			break
		}
		elem, err := g.resolve(e.Elt)
		if err != nil {
			return nil, err
		}
		return &typ{kind: kSlice, name: name, elem: elem}, nil
	}
	return nil, fmt.Errorf("type %s is not read", name)
}

// directive reports whether the comment group has the line //d.
func directive(doc *ast.CommentGroup, d string) bool {
	if doc == nil {
		return false
	}
	for _, c := range doc.List {
		if c.Text == "//"+d {
			return true
		}
	}
	return false
}

// membersType returns the type of a slice type marked wire:members,
// whose elements are structs of two fields: a string, the member's key,
// and the member's value.
func (g *generator) membersType(name string, at *ast.ArrayType) (*typ, error) {
	elem, ok := at.Elt.(*ast.Ident)
	st := g.structs[elemName(elem, ok)]
	if st == nil || len(st.Fields.List) != 2 || len(st.Fields.List[0].Names) != 1 || len(st.Fields.List[1].Names) != 1 ||
		types.ExprString(st.Fields.List[0].Type) != "string" {
		return nil, fmt.Errorf("type %s: wire:members wants a slice of a struct of two fields, the first a string", name)
	}
	value, err := g.resolve(st.Fields.List[1].Type)
	if err != nil {
		return nil, err
	}
	return &typ{kind: kMembers, name: name, elem: value, members: [3]string{elem.Name, st.Fields.List[0].Names[0].Name, st.Fields.List[1].Names[0].Name}}, nil
}

func elemName(id *ast.Ident, ok bool) string {
	if !ok {
		return ""
	}
	return id.Name
}

// readerName returns the name of the reader of struct s.
func readerName(s string) string {
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return "read" + string(r)
}

// hasReader reports whether the package of the module at import path
// path has a function named fn.
func (g *generator) hasReader(path, fn string) bool {
	dir := g.pkgDir(path)
	return dir != "" && hasFunc(dir, fn)
}

// pkgDir returns the directory of the package of the module at import
// path path, or "" if it is not one.
func (g *generator) pkgDir(path string) string {
	root, err := filepath.Abs(g.dir)
	if err != nil {
		return ""
	}
	for {
		mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
		if err == nil {
			line, _, _ := strings.Cut(string(mod), "\n")
			module := strings.TrimSpace(strings.TrimPrefix(line, "module"))
			rest, ok := strings.CutPrefix(path, module+"/")
			if !ok {
				return ""
			}
			return filepath.Join(root, filepath.FromSlash(rest))
		}
		up := filepath.Dir(root)
		if up == root {
			return ""
		}
		root = up
	}
}

// hasFunc reports whether the package in dir declares function fn.
func hasFunc(dir, fn string) bool {
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if d, ok := d.(*ast.FuncDecl); ok && d.Recv == nil && d.Name.Name == fn {
				return true
			}
		}
	}
	return false
}

// foreignReader returns the name of the reader of pkg.T: pkg.ReadT.
func foreignReader(name string) string {
	pkg, t, _ := strings.Cut(name, ".")
	return pkg + ".Read" + t
}

// reader writes the readers of struct s.
func (g *generator) reader(w *bytes.Buffer, s string) error {
	rn := readerName(s)
	whole := g.whole[s]
	if ast.IsExported(s) {
		call := fmt.Sprintf("\tif !r.Null() {\n\t\t%s(r, v)\n\t}\n", rn)
		if whole != "" {
			call = fmt.Sprintf("\t%s(r, v)\n", rn)
		}
		fmt.Fprintf(w, "\n// Read%s reads a whole %s into v as json.Unmarshal does, or fails r, for\n// jsontext.Decode.\nfunc Read%s(r *jsontext.Reader, v *%s) bool {\n%s\treturn !r.Failed()\n}\n", s, s, s, s, call)
	}
	if state := g.state(s, map[string]bool{}); len(state) > 0 {
		fmt.Fprintf(w, "\n// %s sets *v to %s{} but for what its reader reuses from one value to\n// the next: the last strings of keep= fields, the memory of buf= fields.\nfunc %s(v *%s) {\n", resetName(s), s, resetName(s), s)
		if zero, ok := g.zeroFields(s, state); ok {
			// Field by field: fewer bytes stored than the whole
			// struct, and no copies of what stays.
			fmt.Fprintf(w, "%s}\n", zero)
		} else {
			var keep, vals []string
			for i, p := range state {
				keep, vals = append(keep, fmt.Sprintf("k%d", i)), append(vals, "v."+p)
			}
			fmt.Fprintf(w, "%s := %s\n*v = %s{}\n%s = %s\n}\n", strings.Join(keep, ", "), strings.Join(vals, ", "), s, strings.Join(vals, ", "), strings.Join(keep, ", "))
		}
	}
	if whole != "" {
		// As its UnmarshalJSON: the fields as the plain struct's, and
		// the object's text; null (which that method gets, where a
		// plain struct's reader leaves it) goes to encoding/json.
		raw := "r.Since(off)"
		if g.wholeCpy[s] {
			raw = "append(json.RawMessage(nil), r.Since(off)...)"
		}
		fmt.Fprintf(w, "\nfunc %s(r *jsontext.Reader, v *%s) {\nif r.Peek() == 'n' {\nr.Fail()\nreturn\n}\noff := r.Offset()\n%sObject(r, v)\nif !r.Failed() {\nv.%s = %s\n}\n}\n", rn, s, rn, whole, raw)
		rn += "Object"
	}
	fmt.Fprintf(w, "\nfunc %s(r *jsontext.Reader, v *%s) {\n", rn, s)
	folded, err := g.object(w, s, g.structs[s], "v", true)
	if err != nil {
		return err
	}
	w.WriteString("}\n")
	if folded != "" {
		fmt.Fprintf(w, "\n// folded%s reports whether a lower-cased key is one of %s's, lower-cased.\nfunc folded%s(key string) bool {\n%s}\n", upperFirst(s), s, upperFirst(s), folded)
	}
	return nil
}

// lastTries is how many of the keys that follow the one asked for a
// wire:order struct's reader asks for when it is not next, when no more
// follow; else only the one after it is, before the key is read and looked
// up, which costs as much as several comparisons.
const lastTries = 6

// object writes the statements that read an object into the struct x
// (of type st, named name), and returns the body of the function that
// reports whether a lower-cased key is one of st's lower-cased, if the
// statements call folded<name>. Of a reader's own struct (top), they are
// the reader's body: each field's key is asked for in declaration order,
// one comparison with a constant (Follows; a key of more than sixteen
// bytes word by word), and the object's end where it is not next; a key
// that is not the one asked for is compared with the next one or few
// (lastTries), or in a wire:sparse struct told by its first word
// (gapSwitch), else read and looked up, and the fields
// after its own are asked for next. A producer that writes its keys in
// that order, some left out, costs a comparison per key and at most a
// look-up per gap. A struct written in a field's declaration is read by
// the look-up alone.
func (g *generator) object(w *bytes.Buffer, name string, st *ast.StructType, x string, top bool) (string, error) {
	fields, err := g.fields(name, st)
	if err != nil {
		return "", err
	}
	// Where all fields' keys are ASCII, only a key that has capitals, or
	// that is a field's key with capitals lower-cased (folds, given
	// their cases, which fail), can match a field case-insensitively:
	// the others are skipped without a look (see skip).
	lower, exact := true, map[string]bool{}
	for _, f := range fields {
		exact[f.json] = true
		if !isASCII(f.json) {
			lower = false
		}
	}
	var folds []string
	for _, f := range fields {
		if k := strings.ToLower(f.json); lower && !exact[k] && !slices.Contains(folds, strconv.Quote(k)) {
			folds = append(folds, strconv.Quote(k))
		}
	}
	if !top {
		w.WriteString("if r.Object() {\nfor key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {\nswitch string(key) {\n")
		for _, f := range fields {
			fmt.Fprintf(w, "case %q:\n", f.json)
			if err := g.field(w, x, f, opts{intern: f.intern, borrow: f.borrow, peek: g.ordered[name], check: f.check}); err != nil {
				return "", err
			}
		}
		if len(folds) > 0 {
			fmt.Fprintf(w, "case %s:\nr.Fail()\n", strings.Join(folds, ", "))
		}
		w.WriteString("default:\n")
		folded, err := g.skip(w, name, fields, lower)
		if err != nil {
			return "", err
		}
		w.WriteString("}\n}\n}\n")
		return folded, nil
	}
	w.WriteString("if !r.Object() {\nreturn\n}\n")
	gap := false // a key was not the one asked for after a value
	for i, f := range fields {
		if !plainKey(f.json) {
			w.WriteString("goto find\n")
		} else {
			tries := 1
			if g.ordered[name] && len(fields)-i-1 <= lastTries {
				tries = lastTries
			}
			// The first member follows the '{', the others a value
			// and a ','.
			comma := ","
			if i == 0 {
				comma = ""
			}
			cond, read := follow(comma + `"` + f.json + `":`)
			if read != "" {
				fmt.Fprintf(w, "// %s, word by word:\n", comma+`"`+f.json+`":`)
			}
			fmt.Fprintf(w, "if !%s {\n", cond)
			if i > 0 && !g.sparse[name] {
				// The object's end is looked for only where
				// the key asked for is not next (after each
				// value in a sparse struct, whose values have
				// few members).
				w.WriteString("if r.ObjectEnd() {\nreturn\n}\n")
			}
			if g.spaced[name] && tries > 1 && i > 0 && i+1 < len(fields) {
				// A producer that writes white space between
				// members (Python's json.dumps) has each looked up,
				// not compared with each that could come next first.
				w.WriteString("if at := r.Offset(); r.Follows(`, `, ``) {\nr.Rewind(at, r.Depth())\ngoto find\n}\n")
			}
			for j := i + 1; j < min(i+1+tries, len(fields)); j++ {
				if plainKey(fields[j].json) {
					cond, read := follow(comma + `"` + fields[j].json + `":`)
					fmt.Fprintf(w, "if %s {\n%sgoto f%d\n}\n", cond, read, j)
				}
			}
			if i == 0 || !g.sparse[name] {
				w.WriteString("goto find\n}\n")
			} else {
				w.WriteString("goto gap\n}\n")
				gap = true
			}
			w.WriteString(read)
		}
		fmt.Fprintf(w, "f%d:\n", i)
		if err := g.field(w, x, f, opts{intern: f.intern, borrow: f.borrow, peek: g.ordered[name], check: f.check}); err != nil {
			return "", err
		}
		if i == len(fields)-1 || g.sparse[name] {
			w.WriteString("if r.ObjectEnd() {\nreturn\n}\n")
		}
	}
	if gap {
		gapSwitch(w, fields)
	}
	w.WriteString("find:\nkey, ok := r.KeyFold()\nif !ok {\nreturn\n}\nswitch string(key) {\n")
	for i, f := range fields {
		fmt.Fprintf(w, "case %q:\ngoto f%d\n", f.json, i)
	}
	w.WriteString("}\n")
	if len(folds) > 0 {
		// Apart from the fields' switch, which they leave as it was.
		fmt.Fprintf(w, "switch string(key) {\ncase %s:\nr.Fail()\nreturn\n}\n", strings.Join(folds, ", "))
	}
	folded, err := g.skip(w, name, fields, lower)
	if err != nil {
		return "", err
	}
	w.WriteString("goto find\n")
	return folded, nil
}

// field writes the statements that read the value of field f of the
// struct x, and, for a field tagged has=Bit, add Bit to the struct's set
// of the keys given when the value is not null (which leaves the field as
// it was, as encoding/json leaves it).
func (g *generator) field(w *bytes.Buffer, x string, f field, o opts) error {
	if f.has != "" {
		fmt.Fprintf(w, "if !%s {\n", o.null())
	}
	if err := g.value(w, x, f, o); err != nil {
		return err
	}
	if f.has != "" {
		fmt.Fprintf(w, "%s.%s%s |= %s\n}\n", x, f.path[:strings.LastIndex(f.path, ".")+1], f.hasIn, f.has)
	}
	for _, p := range f.also {
		fmt.Fprintf(w, "%s.%s = %s.%s\n", x, p, x, f.path)
	}
	return nil
}

// value writes the statements of field that read the value.
func (g *generator) value(w *bytes.Buffer, x string, f field, o opts) error {
	parent := x + "." + f.path[:strings.LastIndex(f.path, ".")+1]
	if f.buf != "" {
		o.buf = parent + f.buf
	}
	if f.keep != "" {
		o.keep = parent + f.keep
	}
	if f.parse != "" {
		// An object the reader of the parse field's type reads is
		// decoded into it; any other value, or one that fails that
		// reader, leaves it nil and is kept as raw JSON only, for a
		// second decoding to give the error.
		p := x + "." + f.parse
		read := readerName(f.parseT)
		if strings.Contains(f.parseT, ".") {
			read = foreignReader(f.parseT)
		}
		fmt.Fprintf(w, "{\nobj := r.Peek() == '{'\noff, depth := r.Offset(), r.Depth()\nif obj {\np := jsontext.Ensure(&%s)\n*p = %s{}\n%s(r, p)\nif r.Failed() {\nr.Rewind(off, depth)\n%s = nil\n}\n} else {\n%s = nil\n}\n", p, f.parseT, read, p, p)
		fmt.Fprintf(w, "if %s != nil {\n%s.%s = r.Since(off)\n} else {\n%s.%s = r.Skip()\n}\n}\n", p, x, f.path, x, f.path)
		return nil
	}
	if f.elems != "" {
		// The value's text, borrowed, and an array's elements', in the
		// memory of the last array's.
		e := parent + f.elems
		fmt.Fprintf(w, "%s = %s[:0]\nif r.Peek() == '[' {\noff := r.Offset()\nr.Array()\nfor r.More() {\n%s = append(%s, r.Skip())\n}\n%s.%s = r.Since(off)\n} else {\n%s.%s = r.Skip()\n}\n", e, e, e, e, x, f.path, x, f.path)
		return nil
	}
	if f.text == "" {
		return g.read(w, x+"."+f.path, f.typ, o, 0)
	}
	w.WriteString("{\nr.Peek()\noff := r.Offset()\n")
	if err := g.read(w, x+"."+f.path, f.typ, o, 0); err != nil {
		return err
	}
	fmt.Fprintf(w, "if !r.Failed() {\n%s.%s = r.Since(off)\n}\n}\n", x, f.text)
	return nil
}

// plainKey reports whether Follows can look for key: ASCII with nothing
// JSON escapes.
func plainKey(key string) bool {
	for i := range len(key) {
		if c := key[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '`' {
			return false
		}
	}
	return true
}

// follow returns the condition that the text q comes next, and the
// statement that then reads it: Follows for up to sixteen bytes (which
// reads it), beyond that q's words compared (whose memequal call Follows
// would make) and read (Advance).
func follow(q string) (cond, read string) {
	if len(q) <= 16 {
		return "r.Follows(" + follows(q) + ")", ""
	}
	return "(" + wordsFrom(q, 0) + ")", fmt.Sprintf("r.Advance(%d)\n", len(q))
}

// wordsFrom returns the comparisons of the words of the text q from its
// byte o with the input, the last word ending where q does.
func wordsFrom(q string, o int) string {
	var conds []string
	for i := o; i < len(q); i += 8 {
		i = min(i, len(q)-8)
		conds = append(conds, fmt.Sprintf("r.Word(%d) == %#x", i, binary.LittleEndian.Uint64([]byte(q[i:i+8]))))
	}
	return strings.Join(conds, " && ")
}

// follows returns the arguments of Follows for the text q: q split
// after its eighth byte, each part a raw string literal.
func follows(q string) string {
	k := min(8, len(q))
	return "`" + q[:k] + "`, `" + q[k:] + "`"
}

// skip writes the statement that skips the value of a key that matched
// no field, and returns the body of the folded function it calls, if any
// (see object).
func (g *generator) skip(w *bytes.Buffer, name string, fields []field, lower bool) (string, error) {
	// A key matched case-insensitively is left to encoding/json: with
	// the fields' keys all ASCII, one with capitals only (SkipUnknown;
	// object fails the lower-cased keys of fields), else any
	// (SkipField).
	var folded strings.Builder
	seen := map[string]bool{}
	var keys []string
	for _, f := range fields {
		k := strings.ToLower(f.json)
		if !seen[k] {
			seen[k] = true
			keys = append(keys, strconv.Quote(k))
		}
	}
	skip := "SkipField"
	if lower {
		skip = "SkipUnknown"
	}
	if len(keys) == 0 {
		w.WriteString("r.Skip()\n")
		return "", nil
	}
	fmt.Fprintf(&folded, "switch key {\ncase %s:\nreturn true\n}\nreturn false\n", strings.Join(keys, ", "))
	if token.IsIdentifier(name) {
		fmt.Fprintf(w, "r.%s(key, folded%s)\n", skip, upperFirst(name))
	} else {
		fmt.Fprintf(w, "r.%s(key, func(key string) bool {\n%s})\n", skip, folded.String())
		folded.Reset()
	}
	return folded.String(), nil
}

// resetName returns the name of the function that resets struct s
// (exported with s, for the decoder that reuses one).
func resetName(s string) string {
	if ast.IsExported(s) {
		return "Reset" + s
	}
	return "reset" + upperFirst(s)
}

// state returns the fields of struct s, as selectors from it, that its
// reader keeps from one value to the next: those keep= and buf= on a
// slice name, and theirs of the structs it holds by value or in a buf=
// field.
func (g *generator) state(s string, seen map[string]bool) []string {
	if seen[s] || g.structs[s] == nil {
		return nil
	}
	seen[s] = true
	defer delete(seen, s)
	fields, err := g.fields(s, g.structs[s])
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range fields {
		parent := f.path[:strings.LastIndex(f.path, ".")+1]
		switch {
		case f.keep != "":
			out = append(out, parent+f.keep)
		case f.elems != "":
			out = append(out, parent+f.elems)
		case f.buf != "" && f.typ.kind == kSlice:
			out = append(out, parent+f.buf)
		case f.buf != "" && f.typ.elem.kind == kStruct:
			for _, p := range g.state(f.typ.elem.name, seen) {
				out = append(out, parent+f.buf+"."+p)
			}
		case f.typ.kind == kStruct:
			for _, p := range g.state(f.typ.name, seen) {
				out = append(out, f.path+"."+p)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out) // a keep= field may name a held struct's own
}

func upperFirst(s string) string { return readerName(s)[len("read"):] }

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// addr returns the address of the variable x names.
func addr(x string) string {
	if p, ok := strings.CutPrefix(x, "*"); ok {
		return p
	}
	return "&" + x
}

// read writes the statements that read a value into the variable x of
// type t; depth names the variables of nested slices.
func (g *generator) read(w *bytes.Buffer, x string, t *typ, o opts, depth int) error {
	switch t.kind {
	case kString:
		switch {
		case o.check:
			w.WriteString("if !" + o.null() + " {\nr.Str()\n}\n")
		case o.keep != "":
			fmt.Fprintf(w, "if !"+o.null()+" {\n%s = r.KeepString(&%s)\n}\n", x, o.keep)
		case g.fastInterns[o.intern]:
			fmt.Fprintf(w, "if !"+o.null()+" {\n%s = intern%sNext(r)\n}\n", x, internName(o.intern))
		case o.intern != "":
			fmt.Fprintf(w, "if !"+o.null()+" {\n%s = intern%s(r.Str())\n}\n", x, internName(o.intern))
		case o.peek:
			fmt.Fprintf(w, "if !%s {\n%s = r.String()\n}\n", o.null(), x)
		default:
			fmt.Fprintf(w, "r.StringField(%s)\n", addr(x))
		}
	case kBool:
		fmt.Fprintf(w, "jsontext.ReadBool(r, %s)\n", addr(x))
	case kInt:
		if o.keep != "" {
			fmt.Fprintf(w, "if !"+o.null()+" {\n%s = r.KeepInt(&%s)\n}\n", x, o.keep)
			break
		}
		fmt.Fprintf(w, "jsontext.ReadInt(r, %s)\n", addr(x))
	case kFloat:
		fmt.Fprintf(w, "jsontext.ReadFloat(r, %s)\n", addr(x))
	case kRaw:
		if o.borrow {
			// The value's text as the input holds it: what
			// json.RawMessage's UnmarshalJSON copies.
			fmt.Fprintf(w, "%s = r.Skip()\n", x)
		} else {
			fmt.Fprintf(w, "jsontext.ReadRaw(r, %s)\n", addr(x))
		}
	case kAny:
		// null sets it to nil, as encoding/json does, with no call.
		fmt.Fprintf(w, "if "+o.null()+" {\n%s = nil\n} else {\njsontext.ReadAny(r, %s)\n}\n", x, addr(x))
	case kUnm:
		if g.funcs[readerName(t.name)] {
			// The package's own one-pass reader of the type, which
			// agrees with its UnmarshalJSON (which gets null too).
			fmt.Fprintf(w, "%s(r, %s)\n", readerName(t.name), addr(x))
		} else {
			fmt.Fprintf(w, "jsontext.ReadUnmarshaler(r, %s)\n", addr(x))
		}
	case kStruct:
		if g.whole[t.name] != "" {
			fmt.Fprintf(w, "%s(r, %s)\n", readerName(t.name), addr(x))
			break
		}
		fmt.Fprintf(w, "if !"+o.null()+" {\n%s(r, %s)\n}\n", readerName(t.name), addr(x))
	case kForeign:
		fmt.Fprintf(w, "if !"+o.null()+" {\n%s(r, %s)\n}\n", foreignReader(t.name), addr(x))
	case kPtr:
		fmt.Fprintf(w, "if "+o.null()+" {\n%s = nil\n} else {\n", x)
		if o.keep != "" {
			fmt.Fprintf(w, "%s = r.KeepStringPtr(&%s)\n}\n", x, o.keep)
			break
		}
		// The value is not null: read without a second look for one.
		ensure := fmt.Sprintf("jsontext.Ensure(%s)", addr(x))
		if o.buf != "" {
			ensure = fmt.Sprintf("jsontext.EnsureIn(%s, &%s)", addr(x), o.buf)
			if t.elem.kind == kStruct && len(g.state(t.elem.name, map[string]bool{})) > 0 {
				// Zeroed but for what its reader keeps.
				fmt.Fprintf(w, "if %s == nil {\n%s(&%s)\n%s = &%s\n}\n", x, resetName(t.elem.name), o.buf, x, o.buf)
				ensure = x
			}
			o.buf = ""
		}
		switch t.elem.kind {
		case kStruct:
			fmt.Fprintf(w, "%s(r, %s)\n", readerName(t.elem.name), ensure)
		case kForeign:
			fmt.Fprintf(w, "%s(r, %s)\n", foreignReader(t.elem.name), ensure)
		case kAnon:
			fmt.Fprintf(w, "%s\n", ensure)
			if _, err := g.object(w, t.elem.name, t.elem.st, x, false); err != nil {
				return err
			}
		case kString:
			if o.intern == "" {
				fmt.Fprintf(w, "*%s = r.String()\n", ensure)
				break
			}
			fallthrough
		default:
			fmt.Fprintf(w, "%s\n", ensure)
			if err := g.read(w, "*"+x, t.elem, o, depth); err != nil {
				return err
			}
		}
		w.WriteString("}\n")
	case kSlice:
		if o.keep != "" {
			// A list repeated from the last read is one comparison
			// (jsontext.Reader.KeepStrings); a second key's list,
			// which encoding/json decodes into the first's, goes to
			// encoding/json.
			fmt.Fprintf(w, "if "+o.null()+" {\n%s = nil\n} else if %s != nil {\nr.Fail()\n} else {\n%s = r.KeepStrings(&%s)\n}\n", x, x, x, o.keep)
			break
		}
		s := fmt.Sprintf("s%d", depth)
		fmt.Fprintf(w, "if "+o.null()+" {\n%s = nil\n} else if r.Array() {\n%s := %s[:0]\n", x, s, x)
		buf := o.buf
		o.buf = ""
		if buf != "" {
			// Into a nil slice, the elements go into the memory
			// of the last values', each zeroed (but for what its
			// reader keeps) as a new element is.
			fmt.Fprintf(w, "fresh%d := %s == nil\nif fresh%d {\n%s = %s[:0]\n}\n", depth, x, depth, s, buf)
		}
		fmt.Fprintf(w, "for r.More() {\n%s = jsontext.Extend(%s)\n", s, s)
		if buf != "" {
			reset := fmt.Sprintf("clear(%s[len(%s)-1:])", s, s)
			if t.elem.kind == kStruct && len(g.state(t.elem.name, map[string]bool{})) > 0 {
				reset = fmt.Sprintf("%s(&%s[len(%s)-1])", resetName(t.elem.name), s, s)
			}
			fmt.Fprintf(w, "if fresh%d {\n%s\n}\n", depth, reset)
		}
		if err := g.read(w, fmt.Sprintf("%s[len(%s)-1]", s, s), t.elem, o, depth+1); err != nil {
			return err
		}
		w.WriteString("}\n")
		if buf != "" {
			// Capped: a repeated key's array goes on into new
			// memory, zeroed, as encoding/json's would.
			fmt.Fprintf(w, "if fresh%d {\n%s = %s\n%s = %s[:len(%s):len(%s)]\n}\n", depth, buf, s, s, s, s, s)
		}
		fmt.Fprintf(w, "%s = jsontext.NotNil(%s)\n}\n", x, s)
	case kAnon:
		w.WriteString("if !" + o.null() + " {\n")
		if _, err := g.object(w, t.name, t.st, x, false); err != nil {
			return err
		}
		w.WriteString("}\n")
	case kMap:
		// As encoding/json: null makes it nil; an object's members are
		// added to it (made if nil), each value decoded into a new
		// element, the last of a repeated key winning. Keys with escapes
		// or outside ASCII go to encoding/json.
		e := fmt.Sprintf("e%d", depth)
		fmt.Fprintf(w, "if "+o.null()+" {\n%s = nil\n} else if r.Object() {\nif %s == nil {\n%s = %s{}\n}\nfor key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {\nvar %s %s\n", x, x, x, t.name, e, t.elem.name)
		if err := g.read(w, e, t.elem, opts{}, depth+1); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s[string(key)] = %s\n}\n}\n", x, e)
	case kMembers:
		// As the type's UnmarshalJSON: null leaves it, and each member
		// of an object is appended, in order, its value decoded into a
		// new element. Keys with escapes or outside ASCII go to
		// encoding/json.
		el, key, val := t.members[0], t.members[1], t.members[2]
		fmt.Fprintf(w, "if !"+o.null()+" && r.Object() {\nfor key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {\n%s = append(%s, %s{%s: string(key)})\n", x, x, el, key)
		if err := g.read(w, fmt.Sprintf("%s[len(%s)-1].%s", x, x, val), t.elem, opts{}, depth); err != nil {
			return err
		}
		w.WriteString("}\n}\n")
	}
	return nil
}

// opts are a field's wire options, which its reader follows.
type opts struct {
	intern string // the prefixes of the constants to intern, joined by "+", or ""
	borrow bool   // raw JSON points into the input
	peek   bool   // a field of a wire:order struct (see null)
	buf    string // the variable a nil pointer is pointed at, or a slice's memory, or ""
	keep   string // the variable that keeps the last string read, or ""
	check  bool   // a string checked, not set
}

// null returns the expression that reads a null if one comes next: in a
// wire:order struct, the hot path of its producer, a value that is not
// null is told by its first byte, with no call.
func (o opts) null() string {
	if o.peek {
		return "(r.Peek() == 'n' && r.Null())"
	}
	return "r.Null()"
}

// internName returns the name of the intern function of prefixes, joined
// by "+".
func internName(prefixes string) string { return strings.ReplaceAll(prefixes, "+", "") }

// internFunc writes the function that interns the constants whose names
// start with one of prefixes, joined by "+".
func (g *generator) internFunc(w *bytes.Buffer, prefixes string) {
	list := strings.Split(prefixes, "+")
	var consts [][2]string
	seen := map[string]bool{}
	for _, c := range g.consts {
		if slices.ContainsFunc(list, func(p string) bool { return strings.HasPrefix(c[0], p) }) && !seen[c[1]] {
			seen[c[1]] = true
			consts = append(consts, c)
		}
	}
	name := internName(prefixes)
	if g.fastInterns[prefixes] {
		// The constants as compact JSON writes them, quotes included,
		// are compared with the input a word at a time: a string of
		// the vocabulary is not scanned, nor switched on as a string.
		fmt.Fprintf(w, "\n// intern%sNext reads a string as intern%s(r.Str()) does.\nfunc intern%sNext(r *jsontext.Reader) string {\n", name, name, name)
		var quoted [][2]string
		for _, c := range consts {
			if c[1] != "" && plainKey(c[1]) {
				quoted = append(quoted, [2]string{"return " + c[0], `"` + c[1] + `"`})
			}
		}
		wordSwitch(w, quoted, 0)
		fmt.Fprintf(w, "\treturn intern%s(r.Str())\n}\n", name)
	}
	fmt.Fprintf(w, "\n// intern%s returns the constant %s* equal to b, or b as a new string.\nfunc intern%s(b []byte) string {\n\tswitch string(b) {\n", name, strings.Join(list, "* or "), name)
	for _, c := range consts {
		fmt.Fprintf(w, "\tcase %s:\n\t\treturn %s\n", c[0], c[0])
	}
	w.WriteString("\t}\n\treturn string(b)\n}\n")
}

// wordSwitch writes the statements that read the next text if it is one
// of cs (each the statement to run then, and the text: a quoted string of
// a vocabulary, or a key with its ':'), which agree in their first o
// bytes, and run that statement: a switch on the word at
// o, then one on the next word for the texts that share it, a text's
// last word compared where it ends (overlapping the one before). A text
// shorter than a word is compared with the first word's bytes it covers.
func wordSwitch(w *bytes.Buffer, cs [][2]string, o int) {
	var words []string
	byWord := map[string][][2]string{}
	for _, c := range cs {
		if q := c[1]; len(q) >= o+8 {
			if byWord[q[o:o+8]] == nil {
				words = append(words, q[o:o+8])
			}
			byWord[q[o:o+8]] = append(byWord[q[o:o+8]], c)
		}
	}
	found := func(c [2]string) string { return fmt.Sprintf("r.Advance(%d)\n%s\n", len(c[1]), c[0]) }
	if len(words) > 0 || o == 0 {
		if o == 0 {
			w.WriteString("switch w := r.Word(0); w {\n")
		} else {
			fmt.Fprintf(w, "switch r.Word(%d) {\n", o)
		}
		for _, k := range words {
			g := byWord[k]
			fmt.Fprintf(w, "case %#x: // %s\n", binary.LittleEndian.Uint64([]byte(k)), k)
			switch {
			case len(g) == 1 && len(g[0][1]) == o+8:
				w.WriteString(found(g[0]))
			case len(g) == 1:
				// The rest of the one text that starts so.
				q := g[0][1]
				fmt.Fprintf(w, "if %s { // %s\n%s}\n", wordsFrom(q, o+8), q[o+8:], found(g[0]))
			default:
				wordSwitch(w, g, o+8)
			}
		}
		if slices.ContainsFunc(cs, func(c [2]string) bool { return len(c[1]) < o+8 }) {
			w.WriteString("default:\n")
		}
	}
	for _, c := range cs {
		switch q := c[1]; {
		case len(q) < 8:
			fmt.Fprintf(w, "if w&%#x == %#x { // %s\n%s}\n", uint64(1)<<(8*len(q))-1, binary.LittleEndian.Uint64([]byte(q+"\x00\x00\x00\x00\x00\x00\x00")), q, found(c))
		case len(q) < o+8:
			fmt.Fprintf(w, "if r.Word(%d) == %#x { // %s\n%s}\n", len(q)-8, binary.LittleEndian.Uint64([]byte(q[len(q)-8:])), q[o:], found(c))
		}
	}
	if len(words) > 0 || o == 0 {
		w.WriteString("}\n")
	}
}

// gapSwitch writes the statements that read a key other than the one
// asked for after a value: told by its words (wordSwitch), the field
// whose key matches is read next; a producer that leaves out most fields of a struct (one for
// many types) pays no look-up. Any other key is looked up (find).
func gapSwitch(w *bytes.Buffer, fields []field) {
	var keys [][2]string
	for i, f := range fields {
		if f.json != "" && plainKey(f.json) {
			keys = append(keys, [2]string{fmt.Sprintf("goto f%d", i), `"` + f.json + `":`})
		}
	}
	w.WriteString("gap:\nif at := r.Offset(); r.Follows(`,`, ``) {\n")
	wordSwitch(w, keys, 0)
	w.WriteString("r.Rewind(at, r.Depth())\n}\n")
}

// zeroFields returns the statements that zero each field of struct s but
// state, its reader's, and the values its buf= pointers point at (which
// the reader zeroes when it points one there), a struct held by value
// with state reset by its own function; and false where a field is
// embedded or of a type whose zero it does not write.
func (g *generator) zeroFields(s string, state []string) (string, bool) {
	leave, held := map[string]bool{}, map[string]bool{}
	for _, p := range state {
		first, _, sel := strings.Cut(p, ".")
		leave[first], held[first] = true, sel
	}
	fields, err := g.fields(s, g.structs[s])
	if err != nil {
		return "", false
	}
	for _, f := range fields {
		if f.buf != "" {
			leave[f.buf] = true
		}
	}
	var b strings.Builder
	for _, f := range g.structs[s].Fields.List {
		if len(f.Names) == 0 {
			return "", false
		}
		for _, n := range f.Names {
			if id, ok := f.Type.(*ast.Ident); ok && held[n.Name] && g.structs[id.Name] != nil {
				// A struct held by value, with state of its own.
				fmt.Fprintf(&b, "%s(&v.%s)\n", resetName(id.Name), n.Name)
				continue
			}
			if held[n.Name] {
				return "", false
			}
			if leave[n.Name] || n.Name == "_" {
				continue
			}
			zero := g.zero(f.Type)
			if zero == "" {
				return "", false
			}
			fmt.Fprintf(&b, "v.%s = %s\n", n.Name, zero)
		}
	}
	return b.String(), true
}

// zero returns the zero value of type e as Go source, or "" for a type
// it does not know.
func (g *generator) zero(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		switch e.Name {
		case "string":
			return `""`
		case "bool":
			return "false"
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "byte", "rune":
			return "0"
		case "any", "error":
			return "nil"
		}
		if g.structs[e.Name] != nil {
			return e.Name + "{}"
		}
	case *ast.StarExpr, *ast.MapType, *ast.InterfaceType, *ast.FuncType, *ast.ChanType:
		return "nil"
	case *ast.ArrayType:
		if e.Len == nil {
			return "nil"
		}
	case *ast.SelectorExpr:
		if types.ExprString(e) == "json.RawMessage" {
			return "nil"
		}
	}
	return ""
}
