// SPDX-License-Identifier: MIT

// Command flakesweep_bandaids names the band-aids a change made to a Go test,
// read with Go's own parser (go/ast). flakesweep compare and verify build it
// with the project's go on first use and run it once per changed file as
//
//	flakesweep_bandaids BEFORE AFTER [TEST]
//
// BEFORE and AFTER are the file's two versions (an empty path: absent on that
// side); TEST is the test's function name, or empty. Each top-level
// declaration is compared on its own. It prints one line per finding,
// KIND<TAB>LINE<TAB>DECL<TAB>TEXT, LINE in AFTER (BEFORE for what was
// removed), DECL the declaration that holds it (a function, Type.Method for
// a method, a type's or variable's name, empty for none): sleep, retry,
// timeout, assertion, swallowed, skip, renamed (TEST gone), and sync for a
// synchronisation primitive added (a sign of a real fix). When AFTER declares
// TEST, a last line "uses<TAB>0<TAB>TEST<TAB>NAMES" lists the identifiers its
// body names, space-separated. Exit status 0, or 2 when a version does not
// parse (the error on stderr).
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

type site struct {
	kind string
	line int
	decl string
	ns   int64 // timeout: the duration
}

type version struct {
	fset     *token.FileSet
	lines    []string
	imports  map[string]string // local name -> import path
	file     *ast.File
	test     *ast.FuncDecl // TEST's declaration, or nil
	testLine int
	declLine map[string]int // each declaration's first line
}

var units = map[string]time.Duration{
	"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond,
	"Millisecond": time.Millisecond, "Second": time.Second,
	"Minute": time.Minute, "Hour": time.Hour,
}

func load(path, test string) (*version, error) {
	v := &version{fset: token.NewFileSet(), imports: map[string]string{},
		declLine: map[string]int{}}
	if path == "" {
		return v, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(v.fset, path, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	v.lines = strings.Split(string(src), "\n")
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		v.imports[name] = p
	}
	v.file = f
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && test != "" &&
			fd.Name.Name == test {
			v.test = fd
			v.testLine = v.fset.Position(fd.Pos()).Line
		}
	}
	return v, nil
}

// decls is each top-level declaration with its name: a function's, a
// method's as Type.Method, a type's or a variable's; imports have none.
func (v *version) decls() ([]ast.Node, []string) {
	var nodes []ast.Node
	var names []string
	for _, d := range v.file.Decls {
		switch x := d.(type) {
		case *ast.FuncDecl:
			name := x.Name.Name
			if x.Recv != nil && len(x.Recv.List) > 0 {
				t := x.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if id, ok := t.(*ast.Ident); ok {
					name = id.Name + "." + name
				}
			}
			nodes, names = append(nodes, x), append(names, name)
		case *ast.GenDecl:
			for _, sp := range x.Specs {
				switch y := sp.(type) {
				case *ast.TypeSpec:
					nodes, names = append(nodes, y), append(names, y.Name.Name)
				case *ast.ValueSpec:
					nodes, names = append(nodes, y), append(names, y.Names[0].Name)
				}
			}
		}
	}
	for i, n := range nodes {
		if _, ok := v.declLine[names[i]]; !ok {
			v.declLine[names[i]] = v.fset.Position(n.Pos()).Line
		}
	}
	return nodes, names
}

func (v *version) text(line int) string {
	if line > 0 && line <= len(v.lines) {
		return strings.ReplaceAll(strings.TrimSpace(v.lines[line-1]), "\t", " ")
	}
	return ""
}

// pkgSel is a selector on an imported package: ("time", "Sleep").
func (v *version) pkgSel(e ast.Expr) (string, string) {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	id, ok := s.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	if p, ok := v.imports[id.Name]; ok {
		return p, s.Sel.Name
	}
	return "", s.Sel.Name
}

// duration is the value of a constant duration expression such as
// 5 * time.Second, or 0.
func (v *version) duration(e ast.Expr) int64 {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return v.duration(x.X)
	case *ast.SelectorExpr:
		if p, n := v.pkgSel(x); p == "time" {
			return int64(units[n])
		}
	case *ast.BinaryExpr:
		if x.Op != token.MUL {
			return 0
		}
		l, r := x.X, x.Y
		if _, ok := l.(*ast.BasicLit); !ok {
			l, r = r, l
		}
		if lit, ok := l.(*ast.BasicLit); ok {
			n, err := strconv.ParseFloat(lit.Value, 64)
			if err == nil {
				return int64(n * float64(v.duration(r)))
			}
		}
	}
	return 0
}

func (v *version) sites() []site {
	var out []site
	if v.file == nil {
		return out
	}
	nodes, names := v.decls()
	for i, n := range nodes {
		for _, s := range v.declSites(n) {
			s.decl = names[i]
			out = append(out, s)
		}
	}
	return out
}

func (v *version) declSites(scope ast.Node) []site {
	var out []site
	line := func(n ast.Node) int { return v.fset.Position(n.Pos()).Line }
	ast.Inspect(scope, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			p, name := v.pkgSel(x.Fun)
			switch {
			case p == "time" && name == "Sleep":
				out = append(out, site{kind: "sleep", line: line(x)})
			case p == "" && (name == "Skip" || name == "Skipf" || name == "SkipNow"):
				out = append(out, site{kind: "skip", line: line(x)})
			case p == "" && (name == "Error" || name == "Errorf" || name == "Fatal" ||
				name == "Fatalf" || name == "Fail" || name == "FailNow"):
				out = append(out, site{kind: "assertion", line: line(x)})
			case p == "github.com/stretchr/testify/assert" ||
				p == "github.com/stretchr/testify/require":
				out = append(out, site{kind: "assertion", line: line(x)})
			case p == "" && (name == "Lock" || name == "RLock" || name == "Wait" ||
				name == "Do"):
				out = append(out, site{kind: "sync", line: line(x)})
			case p == "" && name == "recover":
				out = append(out, site{kind: "swallowed", line: line(x)})
			}
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "recover" {
				out = append(out, site{kind: "swallowed", line: line(x)})
			}
			if p == "time" && name == "Sleep" {
				return true
			}
			for _, a := range x.Args {
				if d := v.duration(a); d > 0 {
					out = append(out, site{kind: "timeout", line: line(a), ns: d})
				}
			}
		case *ast.SelectorExpr:
			if p, _ := v.pkgSel(x); p == "sync" || p == "sync/atomic" {
				out = append(out, site{kind: "sync", line: line(x)})
			}
		case *ast.ChanType:
			out = append(out, site{kind: "sync", line: line(x)})
		case *ast.ForStmt, *ast.RangeStmt:
			jumps := false
			ast.Inspect(n, func(m ast.Node) bool {
				switch m.(type) {
				case *ast.BranchStmt, *ast.ReturnStmt:
					jumps = true
				}
				return !jumps
			})
			if jumps {
				out = append(out, site{kind: "retry", line: line(n)})
			}
		case *ast.AssignStmt:
			blank := false
			for _, l := range x.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
					blank = true
				}
			}
			if _, call := x.Rhs[len(x.Rhs)-1].(*ast.CallExpr); blank && call {
				out = append(out, site{kind: "swallowed", line: line(x)})
			}
		}
		return true
	})
	return out
}

func count(s []site, kind, decl string) []site {
	var out []site
	for _, x := range s {
		if x.kind == kind && x.decl == decl {
			out = append(out, x)
		}
	}
	return out
}

type finding struct {
	kind string
	line int
	decl string
	text string
}

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: flakesweep_bandaids BEFORE AFTER [TEST]")
		os.Exit(2)
	}
	test := ""
	if len(os.Args) > 3 {
		test = os.Args[3]
	}
	before, err := load(os.Args[1], test)
	if err == nil {
		var after *version
		after, err = load(os.Args[2], test)
		if err == nil {
			report(before, after, test)
			return
		}
	}
	fmt.Fprintln(os.Stderr, err)
	os.Exit(2)
}

func report(before, after *version, test string) {
	var found []finding
	if before.test != nil && after.test == nil {
		found = append(found, finding{"renamed", before.testLine, test,
			before.text(before.testLine)})
	}
	old, cur := before.sites(), after.sites()
	decls := map[string]bool{}
	for _, s := range cur {
		decls[s.decl] = true
	}
	for _, s := range old {
		if _, ok := after.declLine[s.decl]; ok {
			decls[s.decl] = true
		}
	}
	names := make([]string, 0, len(decls))
	for d := range decls {
		names = append(names, d)
	}
	sort.Strings(names)
	for _, d := range names {
		found = append(found, compare(before, after, old, cur, d)...)
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].line < found[j].line })
	for _, f := range found {
		fmt.Printf("%s\t%d\t%s\t%s\n", f.kind, f.line, f.decl, f.text)
	}
	if after.test != nil {
		fmt.Printf("uses\t0\t%s\t%s\n", test, strings.Join(uses(after.test), " "))
	}
}

// compare is what the change added to (or removed from) declaration decl.
func compare(before, after *version, old, cur []site, decl string) []finding {
	var found []finding
	for _, kind := range []string{"sleep", "retry", "skip", "swallowed", "sync"} {
		had, has := count(old, kind, decl), count(cur, kind, decl)
		if len(has) <= len(had) {
			continue
		}
		texts := map[string]int{}
		for _, s := range had {
			texts[before.text(s.line)]++
		}
		seen := map[int]bool{}
		for _, s := range has {
			t := after.text(s.line)
			if texts[t] > 0 {
				texts[t]--
			} else if !seen[s.line] {
				seen[s.line] = true
				found = append(found, finding{kind, s.line, decl, t})
			}
		}
	}
	var longest int64
	for _, s := range count(old, "timeout", decl) {
		if s.ns > longest {
			longest = s.ns
		}
	}
	for _, s := range count(cur, "timeout", decl) {
		if longest > 0 && s.ns > longest {
			found = append(found, finding{"timeout", s.line, decl, after.text(s.line)})
		}
	}
	had, has := len(count(old, "assertion", decl)), len(count(cur, "assertion", decl))
	if line, ok := after.declLine[decl]; ok && has < had {
		found = append(found, finding{"assertion", line, decl,
			fmt.Sprintf("%d assertions before, %d after", had, has)})
	}
	return found
}

// uses is every identifier fd names, once each.
func uses(fd *ast.FuncDecl) []string {
	seen := map[string]bool{}
	var out []string
	ast.Inspect(fd, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !seen[id.Name] {
			seen[id.Name] = true
			out = append(out, id.Name)
		}
		return true
	})
	return out
}
