#!/usr/bin/env bash
# Runs the Go benchmarks of the Reshape data path and, when Python 3 with numpy is installed
# (Debian: python3-numpy), times numpy on the same work; prints one table: work, ours (median of
# the runs, and their range), numpy, ratio, and for copies their share of memcpy in the same run.
#
#   bench/compare.sh            # from the repository root; COUNT=5 by default
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}

out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "running Go benchmarks (-count $count)..." >&2
# Views and copies in separate processes: the heap one leaves behind changes the other's costs.
go test -run '^$' -bench 'ReshapeView' -count "$count" ./tensor/ > "$out"
go test -run '^$' -bench 'ReshapeCopy/|Memcpy' -count "$count" ./tensor/ >> "$out"
go test -run '^$' -bench 'Infer' -count "$count" . >> "$out"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# stats NAME UNIT: "median min max" of the value before UNIT ("ns/op" or "MB/s") over the runs.
stats() {
	awk -v name="$1" -v unit="$2" '$1 ~ "^"name"-[0-9]+$" { for (i = 2; i <= NF; i++) if ($i == unit) print $(i-1) }' "$out" |
		sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)], v[1], v[NR] }'
}

py=""
for p in /usr/bin/python3 python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
declare -A np
if [ -n "$py" ]; then
	echo "timing numpy ($("$py" -c 'import numpy; print(numpy.__version__)'))..." >&2
	while read -r name value unit; do np[$name]=$value; done < <("$py" bench/numpy_reshape.py)
else
	echo "numpy not found (Debian: apt-get install python3-numpy): numpy column left empty" >&2
fi

read -r memcpy _ < <(stats BenchmarkMemcpy/64MiB MB/s)
row() { # work, benchmark, unit (ns/op or MB/s), numpy key
	local work=$1 unit=$3 theirs=${np[$4]:-} med lo hi ours range ratio="n/a" share=""
	read -r med lo hi < <(stats "$2" "$unit") || true
	if [ "$unit" = MB/s ]; then
		ours=$(awk -v m="$med" 'BEGIN { printf "%.2f GB/s", m / 1000 }')
		range=$(awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%.2f-%.2f", a / 1000, b / 1000 }')
		[ -n "$theirs" ] && ratio=$(awk -v a="$med" -v b="$theirs" 'BEGIN { printf "%.1fx", a / 1000 / b }')
		theirs=${theirs:+$theirs GB/s}
		share=$(awk -v a="$med" -v b="$memcpy" 'BEGIN { printf "%.0f%%", 100 * a / b }')
	else
		ours="$med ns" range="$lo-$hi"
		[ -n "$theirs" ] && ratio=$(awk -v a="$med" -v b="$theirs" 'BEGIN { printf "%.1fx", b / a }')
		theirs=${theirs:+$theirs ns}
	fi
	printf "| %-46s | %12s | %13s | %12s | %7s | %6s |\n" "$work" "$ours" "$range" "${theirs:-n/a}" "$ratio" "$share"
}

echo
printf "| %-46s | %12s | %13s | %12s | %7s | %6s |\n" "work" "ours" "range" "numpy" "ratio" "memcpy"
printf "|%s|%s|%s|%s|%s|%s|\n" "$(printf -- '-%.0s' {1..48})" "$(printf -- '-%.0s' {1..14})" "$(printf -- '-%.0s' {1..15})" \
	"$(printf -- '-%.0s' {1..14})" "$(printf -- '-%.0s' {1..9})" "$(printf -- '-%.0s' {1..8})"
for v in rank1-1KiB rank1-1GiB rank4; do
	row "view reshape, $v (Apply)" "BenchmarkReshapeView/$v" ns/op "view-$v"
	row "view reshape, $v (ApplyInto)" "BenchmarkReshapeViewInto/$v" ns/op "view-$v"
done
for c in transposed-f32-64MiB transposed-u8-64MiB transposed-f16-64MiB transposed-f64-64MiB sliced-f16-64MiB; do
	row "copy reshape, $c" "BenchmarkReshapeCopy/$c" MB/s "copy-$c"
done
row "memcpy 64 MiB (the yardstick)" BenchmarkMemcpy/64MiB MB/s memcpy-64MiB
echo
read -r s _ < <(stats BenchmarkInferStatic ns/op) || true
read -r p _ < <(stats BenchmarkInferPartial ns/op) || true
echo "static inference [2,5,5,24] by 0,-1,4: ${s:-n/a} ns/op; partial [1..8,16..64,6,200..400] by 16..64,0,-1: ${p:-n/a} ns/op"
