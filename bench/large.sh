#!/usr/bin/env bash
# Times `reshape check` and `reshape shapes` on the large models of internal/modelgen, and onnx 1.12's
# load + infer_shapes_path on the 1.6 GB one, in one session; prints one line per command: the median
# wall time of the runs and their range, the median CPU time (user and system), and the median peak
# resident memory (/usr/bin/time). On a machine shared with other work the wall time follows the
# load, and the CPU time is the figure to compare. The models are written to a temporary directory
# (DIR to keep them), about 1.6 GB of disk; the decoder's 27 GB of external data is a sparse file.
#
#   bench/large.sh              # from the repository root; RUNS=5 by default; ONNX=0 to skip onnx
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
dir=${DIR:-}
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
go build -o "$dir/reshape" ./cmd/reshape
[ -f "$dir/embedded.onnx" ] || go run ./bench/gen embedded "$dir/embedded.onnx" >&2
[ -f "$dir/decoder.onnx" ] || go run ./bench/gen decoder "$dir" >&2
[ -f "$dir/wide.onnx" ] || go run ./bench/gen wide "$dir/wide.onnx" >&2

# stats K FILE: "median min max" of column K of FILE.
stats() {
	cut -d' ' -f"$1" "$2" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[1], v[NR] }'
}

# measure LABEL COMMAND...: runs the command $runs times, its output discarded.
measure() {
	local label=$1 out
	shift
	out=$(mktemp)
	for _ in $(seq "$runs"); do
		local start end user sys rss
		start=$(date +%s%N)
		/usr/bin/time -f "%U %S %M" -o "$out.t" "$@" >/dev/null 2>&1 || true
		end=$(date +%s%N)
		read -r user sys rss < <(tail -n 1 "$out.t") # time prints "Command exited with non-zero status N" first on a failure
		echo "$(( (end - start) / 1000 )) $(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }') $rss" >>"$out"
	done
	local w u m wlo whi
	read -r w wlo whi < <(stats 1 "$out")
	read -r u _ < <(stats 2 "$out")
	read -r m _ < <(stats 3 "$out")
	awk -v l="$label" -v w="$w" -v lo="$wlo" -v hi="$whi" -v u="$u" -v m="$m" \
		'BEGIN { printf "%-28s %9.1f ms (%.1f-%.1f)  CPU %.2f s  %7.1f MB\n", l, w / 1000, lo / 1000, hi / 1000, u, m / 1024 }'
	rm -f "$out" "$out.t"
}

for model in embedded decoder wide; do
	measure "check $model" "$dir/reshape" check "$dir/$model.onnx"
	measure "check --json $model" "$dir/reshape" check --json "$dir/$model.onnx"
	measure "shapes $model" "$dir/reshape" shapes "$dir/$model.onnx"
done
if [ "${ONNX:-1}" != 0 ] && /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
	runs=1 measure "onnx $(/usr/bin/python3 -c 'import onnx; print(onnx.__version__)') embedded" /usr/bin/python3 -c '
import sys, onnx, onnx.shape_inference
onnx.load(sys.argv[1])
onnx.shape_inference.infer_shapes_path(sys.argv[1], sys.argv[1] + ".inferred")' "$dir/embedded.onnx"
	rm -f "$dir/embedded.onnx.inferred"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
