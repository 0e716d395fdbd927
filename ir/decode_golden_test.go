package ir_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/ir"
)

var update = flag.Bool("update", false, "rewrite testdata/decoded.json with what Decode reads now")

// decoded is what Decode read of one .xml file: the SHA-256 of the JSON of its Net, with its
// counts of layers and edges, or its error.
type decoded struct {
	SHA256 string `json:"sha256,omitempty"`
	Layers int    `json:"layers,omitempty"`
	Edges  int    `json:"edges,omitempty"`
	Error  string `json:"error,omitempty"`
}

// decodeFile decodes the .xml file at path and sums up the result.
func decodeFile(t *testing.T, path string) decoded {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := ir.Decode(f)
	if err != nil {
		return decoded{Error: err.Error()}
	}
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return decoded{SHA256: hex.EncodeToString(sum[:]), Layers: len(n.Layers), Edges: len(n.Edges)}
}

// xmlFiles lists the .xml files under dir, as paths beside the repository's root: "../shared/..."
// for the shared data, "testdata/..." for the repository's own.
func xmlFiles(t *testing.T, dir, prefix string) []string {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".xml") {
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			paths = append(paths, filepath.ToSlash(filepath.Join(prefix, rel)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// TestDecodeGolden holds Decode to what it read, before its tokenizer changed, of every .xml file
// of the repository and of ../shared/realdata (a subtest each): the same Net, field by field (a
// digest of its JSON, since the shared models are not the repository's to copy), or the same error;
// and the record lists every such file. go test -run DecodeGolden -update rewrites the record (with
// ../shared present: testenv.Shared).
func TestDecodeGolden(t *testing.T) {
	const golden = "testdata/decoded.json"
	if *update {
		want := map[string]decoded{}
		for _, p := range append(xmlFiles(t, "..", ""), xmlFiles(t, testenv.Shared(t, "realdata"), "../shared/realdata")...) {
			want[p] = decodeFile(t, filepath.Join("..", p))
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "\t")
		if err := enc.Encode(want); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]decoded
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"repository", "shared"} {
		t.Run(part, func(t *testing.T) {
			var files []string
			if part == "shared" {
				files = xmlFiles(t, testenv.Shared(t, "realdata"), "../shared/realdata")
			} else {
				files = xmlFiles(t, "..", "")
			}
			listed := 0
			for p := range want {
				if strings.HasPrefix(p, "../shared/") == (part == "shared") {
					listed++
					if !slices.Contains(files, p) {
						t.Errorf("%s: listed in %s, but not there", p, golden)
					}
				}
			}
			nets := 0
			for _, p := range files {
				w, ok := want[p]
				if !ok {
					t.Errorf("%s: not in %s (go test -run DecodeGolden -update adds it)", p, golden)
					continue
				}
				if w.Error == "" {
					nets++
				}
				if got := decodeFile(t, filepath.Join("..", p)); got != w {
					t.Errorf("%s: Decode = %+v; want %+v", p, got, w)
				}
			}
			t.Logf("%d files, %d decoded to a Net", len(files), nets)
		})
	}
}
