#!/usr/bin/env bash
# Runs the Go benchmarks of the Reshape data path and, when Python 3 with numpy is installed
# (Debian: python3-numpy), times numpy on the same work; prints one table: work, ours, numpy, ratio.
#
#   bench/compare.sh            # from the repository root; COUNT=5 by default (medians are shown)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "running Go benchmarks (-count $count)..." >&2
go test -run '^$' -bench 'ReshapeView|ReshapeCopy/|Memcpy' -count "$count" ./tensor/ > "$out"
go test -run '^$' -bench 'Infer' -count "$count" . >> "$out"

# median NAME FIELD: the median of the value before unit FIELD ("ns/op" or "MB/s") over the runs.
median() {
	awk -v name="$1" -v unit="$2" '$1 ~ "^"name"-[0-9]+$" { for (i = 2; i <= NF; i++) if ($i == unit) print $(i-1) }' "$out" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

py=""
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
declare -A np
if [ -n "$py" ]; then
	echo "timing numpy ($("$py" -c 'import numpy; print(numpy.__version__)'))..." >&2
	while read -r name value unit; do np[$name]=$value; done < <("$py" bench/numpy_reshape.py)
else
	echo "numpy not found (Debian: apt-get install python3-numpy): numpy column left empty" >&2
fi

row() { # work, ours, unit, numpy key, better: "lower" or "higher"
	local work=$1 ours=$2 unit=$3 key=$4 better=$5 theirs=${np[$4]:-} ratio="n/a"
	if [ -n "$ours" ] && [ -n "$theirs" ]; then
		if [ "$better" = lower ]; then ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.1fx", b / a }')
		else ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.1fx", a / b }'); fi
	fi
	printf "| %-44s | %12s | %12s | %7s |\n" "$work" "${ours:-n/a} $unit" "${theirs:-n/a} $unit" "$ratio"
}
gbps() { [ -n "$1" ] && awk -v m="$1" 'BEGIN { printf "%.2f", m / 1000 }'; }

echo
printf "| %-44s | %12s | %12s | %7s |\n" "work" "ours" "numpy" "ratio"
printf "|%s|%s|%s|%s|\n" "$(printf -- '-%.0s' {1..46})" "$(printf -- '-%.0s' {1..14})" "$(printf -- '-%.0s' {1..14})" "$(printf -- '-%.0s' {1..9})"
row "view reshape, dense f32 1 KiB (Reshape)" "$(median BenchmarkReshapeView/1KiB ns/op)" ns view-1KiB lower
row "view reshape, dense f32 1 GiB (Reshape)" "$(median BenchmarkReshapeView/1GiB ns/op)" ns view-1GiB lower
row "view reshape, dense f32 1 GiB (ReshapeInto)" "$(median BenchmarkReshapeViewInto/1GiB ns/op)" ns view-1GiB lower
for c in transposed-f32-64MiB transposed-u8-64MiB sliced-f16-64MiB; do
	row "copy reshape, $c" "$(gbps "$(median "BenchmarkReshapeCopy/$c" MB/s)")" GB/s "copy-$c" higher
done
row "memcpy 64 MiB (the yardstick)" "$(gbps "$(median BenchmarkMemcpy/64MiB MB/s)")" GB/s memcpy-64MiB higher
echo
echo "static inference [2,5,5,24] by 0,-1,4: $(median BenchmarkInferStatic ns/op) ns/op;" \
	"partial [1..8,16..64,6,200..400] by 16..64,0,-1: $(median BenchmarkInferPartial ns/op) ns/op"
