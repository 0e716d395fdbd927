package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckBatchStudy: check on an IR network exported at a static batch says what another batch
// needs, apart from the model's own conditions, in text and in a JSON record "batch", and exits 0
// on a network that runs as declared; --batch-size asks for a batch, and a -1 that absorbs it is
// then exit status 1.
func TestCheckBatchStudy(t *testing.T) {
	ir := filepath.Join("..", "..", "testdata", "ir")
	for _, tc := range []struct {
		args  []string
		code  int
		lines []string
	}{
		{[]string{"baked_flatten.xml"}, 0, []string{
			"baked_flatten.xml at a free batch N: runs only when:",
			"  N == 1  flatten (Reshape): the volume: [N,4,8,8] to [1,256]; fixes N; blocker hard-coded-reshape",
			"  N: 1 only",
			"1 reshape in 1 file: 1 ok, 0 mismatch, 0 inferred, 0 error\n"}},
		{[]string{"global_pool_fc.xml"}, 0, []string{
			"  N == 1  fc (MatMul): the inner dims (A's last, B's second to last); fixes N; blocker constant-matmul"}},
		{[]string{"--input", "image=[1,3,H,W]", "global_pool_fc.xml"}, 1, []string{
			"global_pool_fc.xml runs only when:",
			"  W >= 7", "blocker global-pool\n",
			"fc (MatMul): the inner dims (A's last, B's second to last); blocker global-pool at pool"}},
		{[]string{"absorb_batch.xml"}, 0, []string{
			"rows absorbs the batch N into axis 1 (24*N)",
			"absorb_batch.xml at a free batch N: runs at every binding of N"}},
		{[]string{"--batch-size", "1", "absorb_batch.xml"}, 0, []string{"the outputs are wrong\n"}},
		{[]string{"--batch-size", "2", "absorb_batch.xml"}, 1, []string{"the outputs are wrong (--batch-size 2 asks for one: exit status 1)\n"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			args := append([]string{"check"}, tc.args...)
			args[len(args)-1] = filepath.Join(ir, args[len(args)-1])
			code, stdout, stderr := cli("", args...)
			if code != tc.code || stderr != "" {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			inOrder(t, stdout, tc.lines)
			if strings.Contains(tc.args[0], "--") {
				return
			}
			// The batch study is a record of its own; the summary's constraints are the model's.
			_, stdout, _ = cli("", append([]string{"check", "--json"}, args[1:]...)...)
			var study, summary map[string]any
			for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
				var rec map[string]any
				if err := json.Unmarshal([]byte(line), &rec); err != nil {
					t.Fatalf("%v: %s", err, line)
				}
				switch rec["record"] {
				case "batch":
					study = rec
				case "summary":
					summary = rec
				}
			}
			if study == nil || study["symbol"] != "N" || summary == nil || len(summary["constraints"].([]any)) != 0 {
				t.Fatalf("records: batch %v, summary %v", study, summary)
			}
			cs := study["constraints"].([]any)
			if tc.args[0] == "absorb_batch.xml" {
				if study["valid"] != "always" || len(cs) != 0 {
					t.Errorf("batch record %v", study)
				}
				return
			}
			if study["valid"] != "when constraints hold" || len(cs) != 1 || cs[0].(map[string]any)["blocker"] == nil {
				t.Errorf("batch record %v", study)
			}
		})
	}
	code, stdout, _ := cli("", "check", "--json", "--batch-size", "2", filepath.Join(ir, "absorb_batch.xml"))
	if code != 1 || !strings.Contains(stdout, `{"record":"absorbed","file":"`) || !strings.Contains(stdout, `"reshape":"rows","batch":"N","axis":1,"dim":"24*N","mixer":"probs","mixer_op":"SoftMax"`) ||
		!strings.Contains(stdout, `"absorbed":1`) || strings.Contains(stdout, `"record":"batch"`) {
		t.Errorf("--json --batch-size 2: exit %d\n%s", code, stdout)
	}
}
