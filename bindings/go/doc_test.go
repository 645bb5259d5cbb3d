package v4a

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// Every exported identifier of the package has a doc comment: types, functions, methods,
// constants, variables and the fields of exported structs.
func TestDocComments(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi os.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	pkg := pkgs["v4a"]
	if pkg == nil {
		t.Fatal("package v4a not found")
	}
	checked := 0
	missing := func(pos token.Pos, what string) {
		t.Errorf("%s: %s has no doc comment", fset.Position(pos), what)
	}
	for _, f := range pkg.Files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv != nil {
					recv := d.Recv.List[0].Type
					if s, ok := recv.(*ast.StarExpr); ok {
						recv = s.X
					}
					if id, ok := recv.(*ast.Ident); ok && !id.IsExported() {
						continue
					}
				}
				checked++
				if d.Doc == nil {
					missing(d.Pos(), "func "+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						checked++
						if s.Doc == nil && d.Doc == nil {
							missing(s.Pos(), "type "+s.Name.Name)
						}
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, field := range st.Fields.List {
								for _, n := range field.Names {
									if n.IsExported() {
										checked++
										if field.Doc == nil {
											missing(n.Pos(), s.Name.Name+"."+n.Name)
										}
									}
								}
							}
						}
						if it, ok := s.Type.(*ast.InterfaceType); ok {
							for _, m := range it.Methods.List {
								checked++
								if m.Doc == nil {
									missing(m.Pos(), s.Name.Name+" method")
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if !n.IsExported() {
								continue
							}
							checked++
							if s.Doc == nil && (d.Doc == nil || len(d.Specs) > 1) {
								missing(n.Pos(), n.Name)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d exported identifiers documented", checked)
	if checked < 150 {
		t.Errorf("only %d exported identifiers checked", checked)
	}
}
