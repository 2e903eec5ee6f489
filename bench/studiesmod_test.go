package bench

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// modFile is what TestStudiesModFile compares of a go.mod: its go
// version, replace lines and required versions.
type modFile struct {
	goVersion string
	replace   []string
	require   map[string]string
}

func readModFile(t *testing.T, path string) modFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := modFile{require: map[string]string{}}
	block := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "//")
		fields := strings.Fields(line)
		switch {
		case len(fields) == 0:
		case fields[0] == ")":
			block = ""
		case len(fields) == 2 && fields[1] == "(":
			block = fields[0]
		case fields[0] == "go" && len(fields) == 2:
			m.goVersion = fields[1]
		case fields[0] == "require" && len(fields) == 3:
			m.require[fields[1]] = fields[2]
		case fields[0] == "replace":
			m.replace = append(m.replace, strings.Join(fields[1:], " "))
		case block == "require" && len(fields) == 2:
			m.require[fields[0]] = fields[1]
		case block == "replace":
			m.replace = append(m.replace, strings.Join(fields, " "))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(m.require) == 0 {
		t.Fatalf("%s: no requirements read", path)
	}
	return m
}

// TestStudiesModFile: studies.mod (the lab's go.mod plus the studies'
// modules, for `go build -modfile=studies.mod -tags studies`) requires
// everything go.mod requires at the same versions, with the same go
// version and replace lines, and studies.sum holds every line of go.sum:
// the build with the studies' peers measures the same peers as the build
// without. scripts/studies-mod.sh writes the two files again.
func TestStudiesModFile(t *testing.T) {
	base, studies := readModFile(t, "go.mod"), readModFile(t, "studies.mod")
	const fix = ": run scripts/studies-mod.sh"
	if base.goVersion != studies.goVersion {
		t.Errorf("go %s in go.mod, %s in studies.mod"+fix, base.goVersion, studies.goVersion)
	}
	if strings.Join(base.replace, "\n") != strings.Join(studies.replace, "\n") {
		t.Errorf("replace: %q in go.mod, %q in studies.mod"+fix, base.replace, studies.replace)
	}
	for path, v := range base.require {
		if studies.require[path] != v {
			t.Errorf("%s: %s in go.mod, %q in studies.mod"+fix, path, v, studies.require[path])
		}
	}
	for _, path := range []string{"github.com/forcebit/http-message-signatures-rfc9421-go", "github.com/mateothegreat/go-jwt-paseto"} {
		if studies.require[path] == "" {
			t.Errorf("studies.mod does not require %s"+fix, path)
		}
		if base.require[path] != "" {
			t.Errorf("go.mod requires %s: the studies' modules stay out of it"+fix, path)
		}
	}
	sum, err := os.ReadFile("go.sum")
	if err != nil {
		t.Fatal(err)
	}
	studiesSum, err := os.ReadFile("studies.sum")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for line := range strings.SplitSeq(string(studiesSum), "\n") {
		have[line] = true
	}
	for line := range strings.SplitSeq(string(sum), "\n") {
		if line != "" && !have[line] {
			t.Errorf("studies.sum lacks go.sum's %q"+fix, line)
		}
	}
}
