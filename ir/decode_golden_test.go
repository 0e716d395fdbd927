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
	"strings"
	"testing"

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

// sharedDir is ../shared beside the repository, seen from the package's directory.
var sharedDir = filepath.Join("..", "..", "shared")

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
// of the repository and of ../shared/realdata: the same Net, field by field (a digest of its
// JSON, since the shared models are not the repository's to copy), or the same error. go test
// -run DecodeGolden -update rewrites the record; a listed file of the shared data that is not
// there is skipped.
func TestDecodeGolden(t *testing.T) {
	const golden = "testdata/decoded.json"
	if *update {
		want := map[string]decoded{}
		for _, p := range append(xmlFiles(t, "..", ""), xmlFiles(t, filepath.Join(sharedDir, "realdata"), "../shared/realdata")...) {
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
	shared, nets := 0, 0
	for p, w := range want {
		path := filepath.Join("..", p)
		if strings.HasPrefix(p, "../shared/") {
			if _, err := os.Stat(path); err != nil {
				continue
			}
			shared++
		}
		if w.Error == "" {
			nets++
		}
		if got := decodeFile(t, path); got != w {
			t.Errorf("%s: Decode = %+v; want %+v", p, got, w)
		}
	}
	if shared == 0 {
		t.Logf("%s not found (the shared data beside the repository): its models skipped", sharedDir)
	}
	t.Logf("%d files (%d of the shared data), %d decoded to a Net", len(want), shared, nets)
}
