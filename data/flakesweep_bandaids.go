// SPDX-License-Identifier: MIT

// Command flakesweep_bandaids names the band-aids a change made to a Go test,
// read with Go's own parser (go/ast). flakesweep compare and verify build it
// with the project's go on first use and run it once per changed file as
//
//	flakesweep_bandaids BEFORE AFTER [TEST]
//
// BEFORE and AFTER are the file's two versions (an empty path: absent on that
// side); TEST is the test's function name, whose body is the scope, or empty
// for the whole file. It prints one line per finding, KIND<TAB>LINE<TAB>TEXT,
// LINE in AFTER (BEFORE for what was removed): sleep, retry, timeout,
// assertion, swallowed, skip, renamed, and sync for a synchronisation
// primitive added (a sign of a real fix). Exit status 0, or 2 when a version
// does not parse (the error on stderr).
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
	ns   int64 // timeout: the duration
}

type version struct {
	fset     *token.FileSet
	lines    []string
	imports  map[string]string // local name -> import path
	scope    ast.Node
	testLine int
}

var units = map[string]time.Duration{
	"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond,
	"Millisecond": time.Millisecond, "Second": time.Second,
	"Minute": time.Minute, "Hour": time.Hour,
}

func load(path, test string) (*version, error) {
	v := &version{fset: token.NewFileSet(), imports: map[string]string{}}
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
	v.scope = f
	if test != "" {
		v.scope = nil
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == test {
				v.scope = fd
				v.testLine = v.fset.Position(fd.Pos()).Line
			}
		}
	}
	return v, nil
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
	if v.scope == nil {
		return out
	}
	line := func(n ast.Node) int { return v.fset.Position(n.Pos()).Line }
	ast.Inspect(v.scope, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.CallExpr:
			p, name := v.pkgSel(x.Fun)
			switch {
			case p == "time" && name == "Sleep":
				out = append(out, site{"sleep", line(x), 0})
			case p == "" && (name == "Skip" || name == "Skipf" || name == "SkipNow"):
				out = append(out, site{"skip", line(x), 0})
			case p == "" && (name == "Error" || name == "Errorf" || name == "Fatal" ||
				name == "Fatalf" || name == "Fail" || name == "FailNow"):
				out = append(out, site{"assertion", line(x), 0})
			case p == "github.com/stretchr/testify/assert" ||
				p == "github.com/stretchr/testify/require":
				out = append(out, site{"assertion", line(x), 0})
			case p == "" && (name == "Lock" || name == "RLock" || name == "Wait" ||
				name == "Do"):
				out = append(out, site{"sync", line(x), 0})
			case p == "" && name == "recover":
				out = append(out, site{"swallowed", line(x), 0})
			}
			if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "recover" {
				out = append(out, site{"swallowed", line(x), 0})
			}
			if p == "time" && name == "Sleep" {
				return true
			}
			for _, a := range x.Args {
				if d := v.duration(a); d > 0 {
					out = append(out, site{"timeout", line(a), d})
				}
			}
		case *ast.SelectorExpr:
			if p, _ := v.pkgSel(x); p == "sync" || p == "sync/atomic" {
				out = append(out, site{"sync", line(x), 0})
			}
		case *ast.ChanType:
			out = append(out, site{"sync", line(x), 0})
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
				out = append(out, site{"retry", line(n), 0})
			}
		case *ast.AssignStmt:
			blank := false
			for _, l := range x.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name == "_" {
					blank = true
				}
			}
			if _, call := x.Rhs[len(x.Rhs)-1].(*ast.CallExpr); blank && call {
				out = append(out, site{"swallowed", line(x), 0})
			}
		}
		return true
	})
	return out
}

func count(s []site, kind string) []site {
	var out []site
	for _, x := range s {
		if x.kind == kind {
			out = append(out, x)
		}
	}
	return out
}

type finding struct {
	kind string
	line int
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
	if test != "" && before.scope != nil && after.scope == nil {
		fmt.Printf("renamed\t%d\t%s\n", before.testLine, before.text(before.testLine))
		return
	}
	old, cur := before.sites(), after.sites()
	var found []finding
	for _, kind := range []string{"sleep", "retry", "skip", "swallowed", "sync"} {
		had, has := count(old, kind), count(cur, kind)
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
				found = append(found, finding{kind, s.line, t})
			}
		}
	}
	var longest int64
	for _, s := range count(old, "timeout") {
		if s.ns > longest {
			longest = s.ns
		}
	}
	for _, s := range count(cur, "timeout") {
		if longest > 0 && s.ns > longest {
			found = append(found, finding{"timeout", s.line, after.text(s.line)})
		}
	}
	had, has := len(count(old, "assertion")), len(count(cur, "assertion"))
	if has < had {
		line := after.testLine
		if line == 0 {
			line = 1
		}
		found = append(found, finding{"assertion", line,
			fmt.Sprintf("%d assertions before, %d after", had, has)})
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].line < found[j].line })
	for _, f := range found {
		fmt.Printf("%s\t%d\t%s\n", f.kind, f.line, f.text)
	}
}
